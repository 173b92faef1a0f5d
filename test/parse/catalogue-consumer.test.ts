// The consumer side's catalogue (src/parse/catalogue-consumer.ts): what its entries read out of the
// toString()s RocketMQ prints, which entry wins where wordings overlap, and what real pasted lines
// give once the parser has them (a wrapper line completed by the exception under it, the kind of a
// log told by its consumer threads). The entries' own samples run in catalogue.test.ts and
// message-render.test.ts.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { matchMessage } from '../../src/parse/catalogue.js';
import { CONSUMER_ENTRIES, printedGroup, printedMessages, printedQueue, printedQueues } from '../../src/parse/catalogue-consumer.js';
import { EVENT_FIELD_TABLE } from '../../src/parse/event-fields.js';
import { SourceParser } from '../../src/parse/parser.js';
import { parseZone } from '../../src/parse/time.js';
import type { RmqEvent } from '../../src/parse/types.js';
import type { SourceKind } from '../../src/ingest/kinds.js';
import { kindFromName } from '../../src/ingest/sources.js';

function parseLines(lines: string[], kindHint: SourceKind | null = null) {
  const events: RmqEvent[] = [];
  const p = new SourceParser({ file: 'x.log', host: 'h', sourceIndex: 0, kindHint, kindForced: false, defaultZone: parseZone('+08:00') }, (e) => events.push(e));
  lines.forEach((l, i) => p.line(l, i + 1));
  const acc = p.end();
  return { events, acc };
}

const MQ = 'MessageQueue [topic=TopicPay, brokerName=broker-a, queueId=2]';

describe('what the consumer side prints', () => {
  it('a MessageQueue, the first of several, and each once as brokerName:queueId', () => {
    expect(printedQueue(`x ${MQ} y`)).toEqual({ topic: 'TopicPay', brokerName: 'broker-a', queueId: 2 });
    expect(printedQueue('no queue here')).toEqual({ topic: null, brokerName: null, queueId: null });
    expect(printedQueue(null)).toEqual({ topic: null, brokerName: null, queueId: null });
    const set = `[${MQ}, MessageQueue [topic=TopicPay, brokerName=broker-b, queueId=0], ${MQ}]`;
    expect(printedQueues(set)).toEqual(['broker-a:2', 'broker-b:0']);
    expect(printedQueues('[]')).toEqual([]);
  });

  it("a PullRequest's group", () => {
    expect(printedGroup(`PullRequest [consumerGroup=GroupPay, messageQueue=${MQ}, nextOffset=118]`)).toBe('GroupPay');
    expect(printedGroup(`PullRequest [consumerGroup=null, messageQueue=${MQ}, nextOffset=118]`)).toBeNull();
  });

  it("each MessageExt's id (UNIQ_KEY before msgId), topic, queue and reconsumeTimes, 4.x and 3.x forms", () => {
    const v4 =
      "MessageExt [brokerName=broker-b, queueId=1, storeSize=201, queueOffset=9, sysFlag=0, bornTimestamp=1, bornHost=/10.0.0.9:1, storeTimestamp=2, storeHost=/10.0.0.2:10911, msgId=0A00000200002A9F0000000000000100, commitLogOffset=256, bodyCRC=1, reconsumeTimes=16, preparedTransactionOffset=0, toString()=Message{topic='TopicPay', flag=0, properties={UNIQ_KEY=AC11000100002A9F0000000000000001, TAGS=TagA}, body=[1], transactionId='null'}]";
    const v3 = 'MessageExt [queueId=0, storeSize=761, queueOffset=14434, msgId=0A00012900002A9F000000000363F621, reconsumeTimes=0, toString()=Message [topic=Message, flag=0, properties={TAGS=TagSave}, body=602]]';
    expect(printedMessages(`[${v4}, ${v3}]`)).toEqual([
      { id: 'AC11000100002A9F0000000000000001', topic: 'TopicPay', brokerName: 'broker-b', queueId: 1, reconsumeTimes: 16 },
      { id: '0A00012900002A9F000000000363F621', topic: 'Message', brokerName: null, queueId: 0, reconsumeTimes: 0 },
    ]);
    expect(printedMessages('[]')).toEqual([]);
  });

  it('every entry gives every field of its type, in the order of event-fields.ts (an optional one only where printed)', () => {
    for (const e of CONSUMER_ENTRIES) {
      const m = matchMessage(e.samples[0].text)!;
      const table = Object.entries(EVENT_FIELD_TABLE[e.type as keyof typeof EVENT_FIELD_TABLE]);
      const want = table.filter(([, s]) => !s.optional).map(([n]) => n);
      const optional = new Set(table.filter(([, s]) => s.optional).map(([n]) => n));
      const keys = Object.keys(m.fields);
      expect(keys.filter((k) => !optional.has(k)), e.id).toEqual(want);
      expect(keys, e.id).toEqual(table.map(([n]) => n).filter((n) => keys.includes(n)));
    }
    // The broker's `new consumer connected` prints the consumer's message model.
    expect(matchMessage('new consumer connected, group: CID_AUDIT CONSUME_PASSIVELY BROADCASTING channel: ClientChannelInfo [channel=[id: 0x0b128fc9, L:/10.213.0.21:10911 - R:/10.213.0.51:53072], clientId=10.213.0.51@DEFAULT, language=JAVA, version=401, lastUpdateTimestamp=1796495556555]')!.fields.messageModel).toBe('BROADCASTING');
  });
});

describe('where wordings overlap', () => {
  const entry = (text: string) => matchMessage(text)?.entry.id ?? null;

  it('a lock that succeeded is no event; one that failed is', () => {
    expect(entry(`the message queue lock OK, GroupOrder ${MQ}`)).toBeNull();
    expect(entry(`message queue lock OK, GroupOrder ${MQ}`)).toBeNull();
    expect(entry(`the message queue locked OK, Group: GroupOrder ${MQ}`)).toBeNull();
    expect(entry(`the message queue lock Failed, GroupOrder ${MQ}`)).toBe('lock-failed/lock-one');
  });

  it('a new queue not taken for its lock is a lock failure, not a queue added', () => {
    expect(entry(`doRebalance, GroupOrder, add a new mq failed, ${MQ}, because lock failed`)).toBe('lock-failed/add-mq');
    expect(entry(`doRebalance, GroupOrder, add a new mq, ${MQ}`)).toBe('rebalance/add-mq');
  });

  it('unlock and lock exceptions stay apart', () => {
    expect(matchMessage(`unlockBatchMQ exception, ${MQ}`)?.fields.what).toBe('unlock');
    expect(matchMessage(`lockBatchMQ exception, ${MQ}`)?.fields.what).toBe('lock');
  });

  it("the broker's DLQ line and its failure stay apart", () => {
    const tail = 'owner=null, originalTopic=TopicPay, consumerId=GroupPay, msgUniqKey=AC11, ';
    expect(matchMessage(`failed to send msg to DLQ %DLQ%GroupPay, ${tail}result=null`)?.fields.stored).toBe(false);
    expect(matchMessage(`send msg to DLQ %DLQ%GroupPay, ${tail}storeTimestamp=1`)?.fields.stored).toBe(true);
  });

  it('the three pull exception lines and the remarks under them', () => {
    expect(entry('execute the pull request exception')).toBe('pull-failed/exception');
    expect(entry(`execute the pull request exception, group=GroupPay, messageQueue=${MQ}`)).toBe('pull-failed/exception-5x');
    expect(entry("execute the pull request exception: MQBrokerException: CODE: 25  DESC: the consumer's subscription not latest")).toBe('pull-failed/pop-exception');
    expect(matchMessage("execute the pull request exception: MQBrokerException: CODE: 25  DESC: the consumer's subscription not latest")?.fields).toMatchObject({ reason: 'SUBSCRIPTION_NOT_LATEST', code: 25 });
    // The broker's own log line and the remark it answers with.
    expect(entry("the consumer's group info not exist, group: GroupPay")).toBe('pull-failed/broker-group-info-not-exist');
    expect(entry("MQBrokerException: CODE: 24  DESC: the consumer's group info not exist")).toBe('pull-failed/group-info-not-exist');
  });

  it('a subscription change, a topic removed and one added are told apart', () => {
    const sub = 'SubscriptionData [classFilterMode=false, topic=TopicPay, subString=*, tagsSet=[], codeSet=[], subVersion=1, expressionType=TAG]';
    expect(entry(`subscription changed, group: GroupPay remove topic TopicPay ${sub}`)).toBe('consumer-changed/topic-removed');
    expect(entry(`subscription changed, group: GroupPay OLD: ${sub} NEW: ${sub}`)).toBe('consumer-changed/subscription-changed');
    expect(entry(`subscription changed, add new topic, group: GroupPay ${sub}`)).toBe('consumer-changed/topic-added');
  });

  it('the fix of an offset removes the queue without a rebalance event', () => {
    expect(entry(`Fix Offset, GroupPay, remove unnecessary mq, ${MQ} Droped: true`)).toBeNull();
  });
});

describe('real pasted lines through the parser', () => {
  it('apache/rocketmq#1871 (4.x): the pull exception and its CODE: 24 line are one event', () => {
    const { events, acc } = parseLines([
      '2020-03-19 16:33:02 WARN NettyClientPublicExecutor_1 - execute the pull request exception',
      "org.apache.rocketmq.client.exception.MQBrokerException: CODE: 24  DESC: the consumer's group info not exist",
      'See http://rocketmq.apache.org/docs/faq/ for further details.',
      ' at org.apache.rocketmq.client.impl.MQClientAPIImpl.processPullResponse(MQClientAPIImpl.java:640)',
      ' at org.apache.rocketmq.client.impl.MQClientAPIImpl.access$200(MQClientAPIImpl.java:155)',
      ' at org.apache.rocketmq.client.impl.MQClientAPIImpl$2.operationComplete(MQClientAPIImpl.java:592)',
      ' at org.apache.rocketmq.remoting.netty.ResponseFuture.executeInvokeCallback(ResponseFuture.java:51)',
      ' at java.lang.Thread.run(Thread.java:748)',
    ]);
    expect(acc.kind).toBe('client');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'pull-failed',
      entry: 'pull-failed/exception',
      line: 1,
      thread: 'NettyClientPublicExecutor_1',
      fields: { reason: 'SUBSCRIPTION_NOT_EXIST', code: 24, group: null, cause: "MQBrokerException: CODE: 24  DESC: the consumer's group info not exist" },
    });
  });

  it('alibaba/rocketmq#247 (3.x): an orderly listener that threw, then its return not OK', () => {
    const msgs =
      '[MessageExt [queueId=0, storeSize=761, queueOffset=14434, sysFlag=0, bornTimestamp=1462863658324, bornHost=/10.0.1.21:42638, storeTimestamp=1462863658299, storeHost=/10.0.1.41:10911, msgId=0A00012900002A9F000000000363F621, commitLogOffset=56882721, bodyCRC=1306641726, reconsumeTimes=0, preparedTransactionOffset=0, toString()=Message [topic=Message, flag=0, properties={TAGS=TagSave, KEYS=0f650cce7abf4e2caee9b956864ff55c, WAIT=true, MAX_OFFSET=14435, MIN_OFFSET=0}, body=602]]]';
    const { events } = parseLines([
      `2016-05-10 20:19:31,318 WARN RocketmqClient(257) - consumeMessage exception: java.lang.StackOverflowError, java.util.HashMap.addEntry(HashMap.java:884) Group: GolukConsumerGroup Msgs: ${msgs} MQ: MessageQueue [topic=Message, brokerName=broker-a, queueId=0]`,
      `2016-05-10 20:19:31,318 WARN RocketmqClient(270) - consumeMessage Orderly return not OK, Group: GolukConsumerGroup Msgs: ${msgs} MQ: MessageQueue [topic=Message, brokerName=broker-a, queueId=0]`,
    ]);
    expect(events.map((e) => [e.type, e.fields.returnType, e.fields.group, e.fields.queueId])).toEqual([
      ['consume-failed', 'EXCEPTION', 'GolukConsumerGroup', 0],
      ['consume-failed', 'FAILED', 'GolukConsumerGroup', 0],
    ]);
    expect(events[0].fields.cause).toBe('java.lang.StackOverflowError, java.util.HashMap.addEntry(HashMap.java:884)');
  });

  it("apache/rocketmq#7570 (5.x): the broker's notice of a changed group", () => {
    const { events } = parseLines([
      "2023-11-17 10:20:30.814 INFO  [46212] [NettyClientPublicExecutor_5] [o.a.r.c.i.ClientRemotingProcessor#?:?] - receive broker's notification[x.x.x.x:10931], the consumer group: CID_JODIE_1 changed, rebalance immediately",
    ]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'rebalance', kind: 'client', fields: { action: 'notified', group: 'CID_JODIE_1' } });
  });

  it('a 5.x pull exception takes its cause and the broker address from the timeout under it', () => {
    // Built from the 5.3.1 format and RemotingTimeoutException's message.
    const { events } = parseLines([
      `2024-12-05 10:00:01,123 WARN NettyClientPublicExecutor_2 - execute the pull request exception, group=GroupPay, messageQueue=${MQ}`,
      'org.apache.rocketmq.remoting.exception.RemotingTimeoutException: wait response on the channel <10.0.0.1:10911> timeout, 30000(ms)',
      '\tat org.apache.rocketmq.remoting.netty.NettyRemotingAbstract.invokeSyncImpl(NettyRemotingAbstract.java:503)',
    ]);
    const pull = events.find((e) => e.type === 'pull-failed')!;
    expect(pull.fields).toMatchObject({ reason: null, group: 'GroupPay', queueId: 2, addr: '10.0.0.1:10911' });
    expect(String(pull.fields.cause)).toMatch(/^RemotingTimeoutException: wait response on the channel/);
  });

  it('a send back that failed takes its cause from the exception under it', () => {
    // Built from the 4.9.7 format.
    const { events } = parseLines([
      "2024-12-05 10:00:01,123 ERROR ConsumeMessageThread_7 - sendMessageBack exception, group: GroupPay msg: MessageExt [brokerName=broker-a, queueId=2, msgId=0A00000100002A9F0000000000012C3D, reconsumeTimes=3, toString()=Message{topic='TopicPay', flag=0, properties={UNIQ_KEY=AC11}, body=[1], transactionId='null'}]",
      'org.apache.rocketmq.remoting.exception.RemotingConnectException: connect to <10.0.0.1:10911> failed',
    ]);
    const back = events.find((e) => e.type === 'send-back-failed')!;
    expect(back.fields).toEqual({ group: 'GroupPay', topic: 'TopicPay', msgId: 'AC11', reconsumeTimes: 3, cause: 'RemotingConnectException: connect to <10.0.0.1:10911> failed' });
  });

  it('a client log of consume threads alone reads as a client log', () => {
    const { acc } = parseLines([`2024-12-05 10:00:01,123 WARN ConsumeMessageThread_GroupPay_3 - consumeMessage return null, Group: GroupPay Msgs: [] MQ: ${MQ}`]);
    expect(acc.kind).toBe('client');
    // The broker's pull threads are the broker's.
    const broker = parseLines(["2024-12-05 10:00:01 WARN PullMessageThread_3 - the consumer's group info not exist, group: GroupPay"]);
    expect(broker.acc.kind).toBe('broker');
  });

  it("the broker's lock.log (RocketmqRebalanceLock), which its name does not tell, reads as a broker's", () => {
    // Built from the 4.9.7 and 5.3.1 formats of RebalanceLockManager.
    expect(kindFromName('lock.log')).toBeNull();
    const { events, acc } = parseLines(
      [
        `2024-12-05 10:00:01 WARN AdminBrokerThread_3 - tryLockBatch, message queue locked by other client. Group: GroupOrder OtherClientId: 10.0.0.9@111 NewClientId: 10.0.0.10@222 ${MQ}`,
        `2024-12-05 10:00:21 WARN AdminBrokerThread_1 - RebalanceLockManager#tryLockBatch: message queue has been locked by other client, group=GroupOrder, mq=${MQ}, locked client id=10.0.0.9@111, current client id=10.0.0.10@222`,
      ],
      kindFromName('lock.log'),
    );
    expect(acc.kind).toBe('broker');
    expect(events.map((e) => [e.entry, e.fields.clientId])).toEqual([
      ['lock-failed/broker-locked-by-other', '10.0.0.10@222'],
      ['lock-failed/broker-locked-by-other-5x', '10.0.0.10@222'],
    ]);
  });

  it("a broker's book of a group: a consumer connects, its channel closes, the group goes", () => {
    // The first line is a real 4.x broker.log message (quoted in a public write-up), with a header built in the 4.x layout; the others are built from the 4.9.7 formats.
    const { events } = parseLines(
      [
        '2019-01-26 17:04:35 INFO ClientManageThread_1 - new consumer connected, group: msgConsumer CONSUME_PASSIVELY CLUSTERING channel: ClientChannelInfo [channel=[id: 0x4d6d00e6, L:/127.0.0.1:10911 - R:/127.0.0.1:59928], clientId=127.0.0.1@8b8ac95a-9514-43b0-abfa-6b1dd9923b5e, language=JAVA, version=252, lastUpdateTimestamp=1548498275493]',
        '2019-01-26 17:09:01 WARN NettyServerCodecThread_2 - NETTY EVENT: remove not active channel[ClientChannelInfo [channel=[id: 0x4d6d00e6, L:/127.0.0.1:10911 ! R:/127.0.0.1:59928], clientId=127.0.0.1@8b8ac95a-9514-43b0-abfa-6b1dd9923b5e, language=JAVA, version=252, lastUpdateTimestamp=1548498515201]] from ConsumerGroupInfo groupChannelTable, consumer group: msgConsumer',
        '2019-01-26 17:09:01 INFO NettyServerCodecThread_2 - unregister consumer ok, no any connection, and remove consumer group, msgConsumer',
      ],
      'broker',
    );
    expect(events.map((e) => [e.kind, e.type, e.fields.change, e.fields.group, e.fields.addr])).toEqual([
      ['broker', 'consumer-changed', 'connected', 'msgConsumer', '127.0.0.1:59928'],
      ['broker', 'consumer-changed', 'channel-removed', 'msgConsumer', '127.0.0.1:59928'],
      ['broker', 'consumer-changed', 'group-removed', 'msgConsumer', null],
    ]);
  });
});

describe('the real consumer pastes of test/fixtures/real (sources in its SOURCES.md): their Java lines', () => {
  const REAL = new URL('../fixtures/real/', import.meta.url);
  function fixture(prefix: string) {
    const name = readdirSync(REAL).find((f) => f.startsWith(`${prefix}-`))!;
    const lines = readFileSync(new URL(name, REAL), 'utf8').split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    return parseLines(
      lines.map((l) => l.replace(/\r$/, '')),
      kindFromName(name),
    );
  }
  const brief = (events: RmqEvent[]) => events.map((e) => `${e.line} ${e.entry}`);

  it('93 (3.x client): the listener threw, then the orderly service returned not OK, for one message', () => {
    const { events } = fixture('93');
    expect(brief(events)).toEqual(['1 consume-failed/exception', '2 consume-failed/orderly-not-ok']);
    for (const e of events) expect(e.fields).toMatchObject({ group: 'GolukConsumerGroup', topic: 'Message', queueId: 0, msgIds: ['0A00012900002A9F000000000363F621'], reconsumeTimes: 0 });
  });

  it('95 (3.x client): a pull at offset 15619 of a queue whose end is 7358, then an offset committed', () => {
    const { events } = fixture('95');
    expect(brief(events)).toEqual(['5 offset-illegal/pull', '7 offset-commit/persist']);
    expect(events[0].fields).toMatchObject({ status: 'OFFSET_ILLEGAL', group: 'adjsms', topic: 'adjsms', brokerName: 'broker-1', queueId: 2, offset: 15619, nextBeginOffset: 0, maxOffset: 7358 });
    expect(events[1].fields).toEqual({ ok: true, group: 'adjpush', clientId: '121.43.59.215@1148', topic: 'adjpush', brokerName: 'broker-1', queueId: 2, offset: 87, cause: null });
  });

  it('97 (3.5.8 slave broker): offsets over the queue end, each followed by PULL_OFFSET_MOVED without correction', () => {
    const { events, acc } = fixture('97');
    expect(acc.kind).toBe('broker');
    expect(brief(events)).toEqual(['1 offset-illegal/overflow-badly', '2 offset-illegal/offset-moved', '3 offset-illegal/overflow-badly', '4 offset-illegal/offset-moved']);
    expect(events[0].fields).toMatchObject({ status: 'OFFSET_OVERFLOW_BADLY', offset: 101254, maxOffset: 7157, addr: '192.168.31.51:33411' });
    expect(events[1].fields).toMatchObject({ status: 'PULL_OFFSET_MOVED', group: 'CID_SERVER_APPLICATION_CREATED_test', topic: 'goeasy_test', offset: 101254, nextBeginOffset: null });
  });

  it("99 (3.x broker): one refusal, not a second one from the dump of the response it failed to write", () => {
    const { events } = fixture('99');
    expect(brief(events)).toEqual(['1 pull-failed/broker-group-info-not-exist']);
    expect(events[0].fields).toMatchObject({ reason: 'SUBSCRIPTION_NOT_EXIST', group: 'TmpConsumer0406_3' });
  });

  it('101 (4.x application log): a redelivered message from the retry topic, its ninth try', () => {
    const { events } = fixture('101');
    expect(brief(events)).toEqual(['1 consume-failed/exception']);
    expect(events[0].fields).toMatchObject({ returnType: 'EXCEPTION', group: 'CG-creation-video_key_produce_event_message', topic: '%RETRY%CG-creation-video_key_produce_event_message', reconsumeTimes: 9, cause: 'java.lang.NullPointerException' });
  });

  it('103 and 105 (4.x clients): the pull exception with its CODE 24 and CODE 26 lines as one event each', () => {
    const a = fixture('103').events;
    expect(brief(a)).toEqual(['1 pull-failed/exception']);
    expect(a[0].fields).toMatchObject({ reason: 'SUBSCRIPTION_NOT_EXIST', code: 24 });
    const b = fixture('105').events;
    expect(brief(b)).toEqual(['1 pull-failed/exception']);
    expect(b[0].fields).toMatchObject({ reason: 'SUBSCRIPTION_GROUP_NOT_EXIST', code: 26, group: 'StatusManage-DEFAULT_WORKER_1' });
  });

  it('107 (4.7.1 lite pull): two pull tasks of one queue cancelled at once', () => {
    const { events } = fixture('107');
    expect(brief(events)).toEqual(['1 rebalance/pull-task-cancelled', '2 rebalance/pull-task-cancelled']);
    expect(events[0].fields).toMatchObject({ action: 'cancelled', topic: 't', brokerName: 'rmq-b5', queueId: 3 });
  });

  it("109 and 113: offsets committed, then the broker's notices of a changed group", () => {
    const commits = fixture('109').events.filter((e) => e.type === 'offset-commit');
    expect(commits.map((e) => [e.line, e.fields.queueId, e.fields.offset])).toEqual([
      [1, 3, 4725],
      [2, 5, 4708],
      [3, 12, 4650],
    ]);
    const a = fixture('109').events.filter((e) => e.type === 'rebalance');
    expect(a.map((e) => e.line)).toEqual([4, 5, 6, 7, 8]);
    for (const e of a) expect(e.fields).toMatchObject({ action: 'notified', group: 'b2c_front_track_report_group' });
    const b = fixture('113').events.filter((e) => e.type === 'rebalance');
    expect(b.map((e) => [e.line, e.fields.group])).toEqual([
      [1, 'CID_JODIE_1'],
      [6, 'CID_JODIE_1'],
    ]);
  });

  it("111 (lite pull example in main): nothing to commit for two queues, and the log reads as a client's", () => {
    const { events, acc } = fixture('111');
    expect(acc.kind).toBe('client');
    expect(events.map((e) => [e.entry, e.fields.queueId, e.fields.offset])).toEqual([
      ['offset-illegal/consumer-offset-unset', 3, -1],
      ['offset-illegal/consumer-offset-unset', 2, -1],
    ]);
  });

  it("123 and 125 (4.x brokers): a consumer's channel removed, groups removed, a consumer connected", () => {
    const a = fixture('123').events.filter((e) => e.type === 'consumer-changed');
    expect(a.map((e) => [e.line, e.fields.change, e.fields.group])).toEqual([
      [6, 'channel-removed', null],
      [10, 'group-removed', 'security-GROUP'],
    ]);
    const b = fixture('125').events;
    expect(b.map((e) => [e.fields.change, e.fields.group, e.fields.addr])).toEqual([
      ['group-removed', 'real_db_consumer_group-dsp_error', null],
      ['connected', 'real_db_consumer_group-dsp_error', '192.168.1.61:56222'],
    ]);
    expect(b[1].fields.clientId).toBe('${clientIP}@26917#5261547777682927');
  });

  it('145 (4.2.0 application log): the exception on the same line as the pull failure gives its reason', () => {
    const { events } = fixture('145');
    expect(events.map((e) => [e.type, e.fields.reason, e.fields.code])).toEqual([['pull-failed', 'SUBSCRIPTION_NOT_LATEST', 25]]);
  });

  it("147 (4.x broker): eight pulls refused for an old subscription, then the group's subscription changes", () => {
    const { events } = fixture('147');
    expect(events.filter((e) => e.entry === 'pull-failed/broker-subscription-not-latest')).toHaveLength(8);
    expect(events[8]).toMatchObject({ entry: 'consumer-changed/subscription-changed', fields: { group: 'real_db_consumer_group-dsp_error', topic: 'real_bigdata_topic', subString: null } });
  });

  it('149 (lite pull before 5.3.0): the cache size printed where the threshold belongs', () => {
    const { events } = fixture('149');
    expect(events.map((e) => e.fields)).toEqual([{ limit: 'consume-request', threshold: null, count: 101, sizeMiB: null, maxSpan: null, group: null, topic: null, brokerName: null, queueId: null, flowControlTimes: 1 }]);
  });
});
