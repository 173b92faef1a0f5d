// The consumer side's catalogue (src/parse/catalogue-consumer.ts): what its entries read out of the
// toString()s RocketMQ prints, which entry wins where wordings overlap, and what real pasted lines
// give once the parser has them (a wrapper line completed by the exception under it, the kind of a
// log told by its consumer threads). The entries' own samples run in catalogue.test.ts and
// message-render.test.ts.
import { describe, expect, it } from 'vitest';
import { matchMessage } from '../../src/parse/catalogue.js';
import { CONSUMER_ENTRIES, printedGroup, printedMessages, printedQueue, printedQueues } from '../../src/parse/catalogue-consumer.js';
import { EVENT_FIELD_TABLE } from '../../src/parse/event-fields.js';
import { SourceParser } from '../../src/parse/parser.js';
import { parseZone } from '../../src/parse/time.js';
import type { RmqEvent } from '../../src/parse/types.js';
import type { SourceKind } from '../../src/ingest/kinds.js';

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

  it('every entry gives every field of its type, in the order of event-fields.ts', () => {
    for (const e of CONSUMER_ENTRIES) {
      const m = matchMessage(e.samples[0].text)!;
      const want = Object.entries(EVENT_FIELD_TABLE[e.type as keyof typeof EVENT_FIELD_TABLE])
        .filter(([, s]) => !s.optional)
        .map(([n]) => n);
      expect(Object.keys(m.fields), e.id).toEqual(want);
    }
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
