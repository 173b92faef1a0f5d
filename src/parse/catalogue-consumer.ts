// Catalogue entries for the consumer side of the Java remoting client (4.x and 5.x) and of the
// broker: consume failures, sends back and the DLQ, pulls, flow control, rebalance, orderly locks,
// offsets, and the broker's book of consumers. Format strings and versions come from the Apache
// RocketMQ sources at the release tags named in each entry; samples are built from those formats
// (said so) or copied from real pasted logs (the thread named). The entries come after the producer
// and server ones (catalogue-data.ts) and before the other clients' (catalogue-clients.ts).
//
// Where the lines go: the client's are logged by ClientLogger (4.x) or the `RocketmqClient` logger
// (5.x) to rocketmq_client.log; the broker's by the `RocketmqBroker` logger to broker.log, except
// the 5.x DLQ lines (`RocketmqDLQ`, which rmq.broker.logback.xml of 5.x routes to no appender of
// its own: the root's broker_default.log) and the broker's orderly locks (`RocketmqRebalanceLock`:
// lock.log).

import type { CatalogueEntry } from './catalogue-entry.js';
import { eventFields } from './event-fields.js';
import { BROKER, CODE, normAddr, num, str } from './catalogue-data.js';
import type { EventFields } from './types.js';

type G = Record<string, string | undefined>;

// ---------------------------------------------------------------------------------------------
// What the consumer side prints inside its messages (toString of RocketMQ's classes, 4.x and 5.x)

/** A queue of a MessageQueue.toString(): `MessageQueue [topic=T, brokerName=B, queueId=N]`. */
export interface PrintedQueue {
  topic: string | null;
  brokerName: string | null;
  queueId: number | null;
}

const NO_QUEUE: PrintedQueue = { topic: null, brokerName: null, queueId: null };
const MQ = /MessageQueue \[topic=([^,\]]*), brokerName=([^,\]]*), queueId=(-?\d+)\]/;

/** The first MessageQueue printed in `text` (a PullRequest, a bare `MQ: ...`), or nulls. */
export function printedQueue(text: string | null | undefined): PrintedQueue {
  const m = text == null ? null : MQ.exec(text);
  if (m === null) return NO_QUEUE;
  return { topic: str(m[1]), brokerName: str(m[2]), queueId: num(m[3]) };
}

/** Every MessageQueue printed in `text`, each `brokerName:queueId`, once each (a rebalance's result set). */
export function printedQueues(text: string | null | undefined): string[] {
  if (text == null) return [];
  const out: string[] = [];
  for (const m of text.matchAll(new RegExp(MQ.source, 'g'))) {
    const q = `${m[2]}:${m[3]}`;
    if (!out.includes(q)) out.push(q);
  }
  return out;
}

/** `consumerGroup=G` of a PullRequest.toString() (`PullRequest [consumerGroup=G, messageQueue=..., nextOffset=N]`). */
export function printedGroup(text: string | null | undefined): string | null {
  const m = text == null ? null : /\bconsumerGroup=([^,\]\s]*)/.exec(text);
  return m === null ? null : str(m[1]);
}

/** A field `key=value` of a toString() (value up to `,`, `]` or a space). */
function printed(text: string | null | undefined, key: string): string | null {
  const m = text == null ? null : new RegExp(`\\b${key}=([^,\\]\\s}]*)`).exec(text);
  return m === null ? null : str(m[1]);
}

/** One message of a MessageExt.toString(): its id, topic, queue and reconsumeTimes. */
interface PrintedMessage {
  id: string | null;
  topic: string | null;
  brokerName: string | null;
  queueId: number | null;
  reconsumeTimes: number | null;
}

/**
 * The messages of a printed MessageExt or list of them: `MessageExt [brokerName=B, queueId=N, ...,
 * msgId=X, ..., reconsumeTimes=N, ..., toString()=Message{topic='T', ..., properties={..., UNIQ_KEY=U,
 * ...}, ...}]` (4.x, 5.x; 3.x: `Message [topic=T, ...]`, no brokerName). The id is UNIQ_KEY, the id
 * a producer's SendResult and the broker's DLQ line name, where the properties print it, else msgId.
 */
export function printedMessages(text: string | null | undefined): PrintedMessage[] {
  if (text == null) return [];
  const out: PrintedMessage[] = [];
  for (const part of text.split('MessageExt [').slice(1)) {
    const topic = /\btopic='([^']*)'/.exec(part)?.[1] ?? /Message \[topic=([^,\]]*)/.exec(part)?.[1];
    out.push({
      id: printed(part, 'UNIQ_KEY') ?? printed(part, 'msgId'),
      topic: str(topic),
      brokerName: printed(part, 'brokerName'),
      queueId: num(printed(part, 'queueId')),
      reconsumeTimes: num(printed(part, 'reconsumeTimes')),
    });
  }
  return out;
}

/**
 * The remote address of a printed Netty channel (`[id: 0x.., L:/a - R:/b]`, `!` when inactive; 3.x/4.0
 * `/a => /b`) or a bare address; null when a cut paste lost it.
 */
function channelRemote(text: string | null | undefined): string | null {
  if (text == null) return null;
  const m = /R:\/?([^\]\s,]+)/.exec(text) ?? /=> \/?([^\]\s,]+)/.exec(text);
  if (m !== null) return normAddr(m[1]);
  return /[\s[]/.test(text.trim()) ? null : normAddr(text);
}

// ---------------------------------------------------------------------------------------------
// Field builders, one per event type (every key in event-fields.ts's order)

const consumeFailed = (returnType: string, group: string | null, mq: string | null | undefined, msgs: string | null | undefined, cause: string | null = null): EventFields => {
  const list = printedMessages(msgs);
  const q = printedQueue(mq);
  return eventFields('consume-failed', {
    returnType,
    group,
    topic: q.topic ?? list[0]?.topic ?? null,
    brokerName: q.brokerName ?? list[0]?.brokerName ?? null,
    queueId: q.queueId ?? list[0]?.queueId ?? null,
    msgIds: list.map((m) => m.id).filter((id): id is string => id !== null),
    reconsumeTimes: list[0]?.reconsumeTimes ?? null,
    cause,
  });
};

const sendBack = (group: string | null, msg: string | null | undefined): EventFields => {
  const m = printedMessages(msg)[0];
  return eventFields('send-back-failed', { group, topic: m?.topic ?? null, msgId: m?.id ?? null, reconsumeTimes: m?.reconsumeTimes ?? null });
};

const pullFailed = (reason: string | null, f: { code?: number | null; group?: string | null; queue?: PrintedQueue; topic?: string | null; addr?: string | null; cause?: string | null } = {}): EventFields =>
  eventFields('pull-failed', { reason, code: f.code, group: f.group, ...f.queue, ...(f.topic !== undefined ? { topic: f.topic } : {}), addr: f.addr, cause: f.cause });

/**
 * The Java client's three limits: DefaultMQPushConsumerImpl's lines begin `the` and print the
 * pullRequest; DefaultLitePullConsumerImpl's (PullTaskImpl.run, 4.6.0-5.x) begin `The` and print none.
 */
const flow = (limit: string, g: G): EventFields => {
  const q = printedQueue(g.pr);
  return eventFields('flow-control', {
    limit,
    ...(g.t ? { litePull: g.t === 'T' } : {}),
    threshold: num(g.threshold),
    count: num(g.count),
    sizeMiB: num(g.size),
    maxSpan: num(g.span),
    group: printedGroup(g.pr),
    ...q,
    flowControlTimes: num(g.times),
  });
};

const rebalance = (action: string, group: string | null, f: { queue?: PrintedQueue; topic?: string | null; clientId?: string | null; mqAllSize?: number | null; cidAllSize?: number | null; queues?: string[] | null } = {}): EventFields =>
  eventFields('rebalance', { action, group, ...f.queue, ...(f.topic !== undefined ? { topic: f.topic } : {}), clientId: f.clientId, mqAllSize: f.mqAllSize, cidAllSize: f.cidAllSize, queues: f.queues ?? null });

const lockFailed = (what: string, group: string | null, mq: string | null | undefined, clientId: string | null = null): EventFields =>
  eventFields('lock-failed', { what, group, clientId, ...printedQueue(mq) });

const offsetIllegal = (status: string, f: { group?: string | null; queue?: PrintedQueue; topic?: string | null; queueId?: number | null; offset?: number | null; next?: number | null; min?: number | null; max?: number | null; addr?: string | null }): EventFields =>
  eventFields('offset-illegal', {
    status,
    group: f.group,
    ...f.queue,
    ...(f.topic !== undefined ? { topic: f.topic } : {}),
    ...(f.queueId !== undefined ? { queueId: f.queueId } : {}),
    offset: f.offset,
    nextBeginOffset: f.next,
    minOffset: f.min,
    maxOffset: f.max,
    addr: f.addr,
  });

const offsetReset = (why: string, f: { group?: string | null; queue?: PrintedQueue; topic?: string | null; offset?: number | null }): EventFields =>
  eventFields('offset-reset', { why, group: f.group, ...f.queue, ...(f.topic !== undefined ? { topic: f.topic } : {}), offset: f.offset });

const offsetCommit = (ok: boolean, f: { group?: string | null; clientId?: string | null; mq?: string | null; offset?: number | null } = {}): EventFields =>
  eventFields('offset-commit', { ok, group: f.group, clientId: f.clientId, ...printedQueue(f.mq), offset: f.offset });

const consumerChanged = (
  change: string,
  group: string | null,
  f: { channel?: string | null; topic?: string | null; subString?: string | null; oldSubString?: string | null; messageModel?: string | null; retryMaxTimes?: number | null } = {},
): EventFields =>
  eventFields('consumer-changed', {
    change,
    group,
    clientId: f.channel == null ? null : str(/\bclientId=([^,\]\s]*)/.exec(f.channel)?.[1]),
    addr: f.channel == null ? null : channelRemote(/channel=(\[[^\]]*\]|\S+?),/.exec(f.channel)?.[1] ?? f.channel),
    topic: f.topic ?? null,
    subString: f.subString ?? null,
    oldSubString: f.oldSubString ?? null,
    messageModel: f.messageModel,
    retryMaxTimes: f.retryMaxTimes,
    ...(change === 'connected' ? { channelActive: channelActive(f.channel) } : {}),
  });

/**
 * Whether a printed Netty channel was open when the line was written: its toString puts `-` between
 * the local and remote address of an active channel and `!` of a closed one (AbstractChannel,
 * Netty 4). A broker that resumes after a stall handles the heartbeats that waited for it, of
 * channels closed meanwhile (gen-20261220: a slave hung for 150 s registered a killed consumer's
 * heartbeat on `L:/10.213.0.26:10911 ! R:/10.213.0.43:40888` as it resumed). Null: not printed.
 */
function channelActive(channel: string | null | undefined): boolean | null {
  const m = channel == null ? null : /L:\S+ ([-!]) R:/.exec(channel);
  return m === null ? null : m[1] === '-';
}

/** topic and subString of a SubscriptionData.toString() (`SubscriptionData [classFilterMode=false, topic=T, subString=S, tagsSet=[...], ...]`). */
function subscription(text: string | null | undefined): { topic: string | null; subString: string | null } {
  return { topic: printed(text, 'topic'), subString: text == null ? null : str(/\bsubString=(.*?), tagsSet=/.exec(text)?.[1]) };
}

/**
 * The ResponseCode a pull's refusal names, from the remark PullMessageProcessor (4.x, 5.x) answers
 * with, and the code where printed (`CODE: 24  DESC: ...`).
 */
function remarkReason(text: string | null | undefined): { reason: string | null; code: number | null } {
  const code = text == null ? null : num(/CODE:\s*(-?\d+)/.exec(text)?.[1]);
  if (text == null) return { reason: null, code };
  if (/the consumer's group info not exist|the consumer's subscription not exist/.test(text)) return { reason: 'SUBSCRIPTION_NOT_EXIST', code };
  if (/the consumer's subscription not latest/.test(text)) return { reason: 'SUBSCRIPTION_NOT_LATEST', code };
  if (/subscription group \[[^\]]*\] does not exist/.test(text)) return { reason: 'SUBSCRIPTION_GROUP_NOT_EXIST', code };
  if (/does not support consumer to filter message by /.test(text)) return { reason: 'FILTER_NOT_SUPPORTED', code };
  if (/consumer filter data is not exist/.test(text)) return { reason: 'FILTER_DATA_NOT_EXIST', code };
  if (/consumer filter data not latest/.test(text)) return { reason: 'FILTER_DATA_NOT_LATEST', code };
  return { reason: null, code };
}

// ---------------------------------------------------------------------------------------------
// Sample pieces, as 4.9.7 prints them (MessageExt, MessageQueue, PullRequest, PullResult toString)

const MSG =
  "MessageExt [brokerName=broker-a, queueId=2, storeSize=201, queueOffset=118, sysFlag=0, bornTimestamp=1733389211000, bornHost=/10.0.0.9:53120, storeTimestamp=1733389211004, storeHost=/10.0.0.1:10911, msgId=0A00000100002A9F0000000000012C3D, commitLogOffset=76861, bodyCRC=1932557065, reconsumeTimes=3, preparedTransactionOffset=0, toString()=Message{topic='TopicPay', flag=0, properties={MIN_OFFSET=0, MAX_OFFSET=119, CONSUME_START_TIME=1733389215000, UNIQ_KEY=0A0000090C1A18B4AAC2591D5A6E0003, CLUSTER=DefaultCluster, TAGS=TagA}, body=[104, 105], transactionId='null'}]";
const MQ2 = 'MessageQueue [topic=TopicPay, brokerName=broker-a, queueId=2]';
const PR = `PullRequest [consumerGroup=GroupPay, messageQueue=${MQ2}, nextOffset=118]`;

/** The consumer-side entries, in precedence order. */
export const CONSUMER_ENTRIES: CatalogueEntry[] = [
  // ---- consume-failed: the listener did not consume (ConsumeMessageConcurrentlyService, ConsumeMessageOrderlyService) ----
  {
    id: 'consume-failed/exception',
    type: 'consume-failed',
    keywords: ['consumeMessage exception: '],
    pattern: /consumeMessage exception: (?<cause>.*?) Group: (?<group>\S*) Msgs: (?<msgs>.*?)(?: MQ: (?<mq>MessageQueue \[[^\]]*\]))?\s*$/,
    versions: 'all (3.x-5.x; String.format up to 4.9.x, the same text through SLF4J in 5.x)',
    source: 'client/impl/consumer/ConsumeMessageConcurrentlyService, ConsumeMessageOrderlyService (ConsumeRequest.run)',
    // The cause is RemotingHelper.exceptionSimpleDesc (5.x UtilAll): the exception's toString and its top frame; the stack follows.
    format: 'consumeMessage exception: {} Group: {} Msgs: {} MQ: {}',
    args: ['cause', 'group', 'msgs', 'mq'],
    fields: (g) => consumeFailed('EXCEPTION', str(g.group), g.mq, g.msgs, str(g.cause)),
    samples: [
      {
        // Real: alibaba/rocketmq#247 (3.x, rocketmq_client.log).
        text: 'consumeMessage exception: java.lang.StackOverflowError, java.util.HashMap.addEntry(HashMap.java:884) Group: GolukConsumerGroup Msgs: [MessageExt [queueId=0, storeSize=761, queueOffset=14434, sysFlag=0, bornTimestamp=1462863658324, bornHost=/10.0.1.21:42638, storeTimestamp=1462863658299, storeHost=/10.0.1.41:10911, msgId=0A00012900002A9F000000000363F621, commitLogOffset=56882721, bodyCRC=1306641726, reconsumeTimes=0, preparedTransactionOffset=0, toString()=Message [topic=Message, flag=0, properties={TAGS=TagSave, KEYS=0f650cce7abf4e2caee9b956864ff55c, WAIT=true, MAX_OFFSET=14435, MIN_OFFSET=0}, body=602]]] MQ: MessageQueue [topic=Message, brokerName=broker-a, queueId=0]',
        fields: {
          returnType: 'EXCEPTION',
          group: 'GolukConsumerGroup',
          topic: 'Message',
          brokerName: 'broker-a',
          queueId: 0,
          msgIds: ['0A00012900002A9F000000000363F621'],
          reconsumeTimes: 0,
          cause: 'java.lang.StackOverflowError, java.util.HashMap.addEntry(HashMap.java:884)',
        },
      },
      {
        // Built from the 4.9.7 format with 4.9.7's MessageExt.toString().
        text: `consumeMessage exception: java.lang.IllegalStateException: order 1001 not found, com.example.pay.PayListener.consumeMessage(PayListener.java:42) Group: GroupPay Msgs: [${MSG}] MQ: ${MQ2}`,
        fields: { group: 'GroupPay', topic: 'TopicPay', brokerName: 'broker-a', queueId: 2, msgIds: ['0A0000090C1A18B4AAC2591D5A6E0003'], reconsumeTimes: 3, cause: 'java.lang.IllegalStateException: order 1001 not found, com.example.pay.PayListener.consumeMessage(PayListener.java:42)' },
      },
    ],
  },
  {
    id: 'consume-failed/return-null',
    type: 'consume-failed',
    keywords: ['consumeMessage return null, Group: '],
    pattern: /consumeMessage return null, Group: (?<group>\S*) Msgs: (?<msgs>.*?)(?: MQ: (?<mq>MessageQueue \[[^\]]*\]))?\s*$/,
    versions: 'all (3.x-5.x)',
    source: 'client/impl/consumer/ConsumeMessageConcurrentlyService (ConsumeRequest.run)',
    format: 'consumeMessage return null, Group: {} Msgs: {} MQ: {}',
    args: ['group', 'msgs', 'mq'],
    fields: (g) => consumeFailed('RETURNNULL', str(g.group), g.mq, g.msgs),
    // Built from the 4.9.7 format.
    samples: [{ text: `consumeMessage return null, Group: GroupPay Msgs: [${MSG}] MQ: ${MQ2}`, fields: { returnType: 'RETURNNULL', group: 'GroupPay', queueId: 2, msgIds: ['0A0000090C1A18B4AAC2591D5A6E0003'], cause: null } }],
  },
  {
    id: 'consume-failed/orderly-not-ok',
    type: 'consume-failed',
    keywords: ['consumeMessage Orderly return not OK'],
    pattern: /consumeMessage Orderly return not OK, Group: (?<group>\S*) Msgs: (?<msgs>.*?)(?: MQ: (?<mq>MessageQueue \[[^\]]*\]))?\s*$/,
    versions: 'all (3.x-5.x)',
    source: 'client/impl/consumer/ConsumeMessageOrderlyService (ConsumeRequest.run)',
    // Printed when the orderly listener returned SUSPEND_CURRENT_QUEUE_A_MOMENT, ROLLBACK or null (after an exception, logged before as consumeMessage exception).
    format: 'consumeMessage Orderly return not OK, Group: {} Msgs: {} MQ: {}',
    args: ['group', 'msgs', 'mq'],
    fields: (g) => consumeFailed('FAILED', str(g.group), g.mq, g.msgs),
    samples: [
      // Built from the 4.9.7 format; the second is alibaba/rocketmq#247's line (3.x) as far as the thread shows it.
      { text: `consumeMessage Orderly return not OK, Group: GroupOrder Msgs: [${MSG}] MQ: ${MQ2}`, fields: { returnType: 'FAILED', group: 'GroupOrder', topic: 'TopicPay', queueId: 2 } },
      {
        text: 'consumeMessage Orderly return not OK, Group: GolukConsumerGroup Msgs: [MessageExt [queueId=0, storeSize=761, queueOffset=14434, sysFlag=0, bornTimestamp=1462863658324, bornHost=/10.0.1.21:42638, storeTimestamp=1462863658299, storeHost=/10.0.1.41:10911, msgId=0A00012900002A9F000000000363F621, commitLogOffset=56882721, bodyCRC=1306641726, reconsumeTimes=0, preparedTransactionOffset=0, toString()=Message [topic=Message, flag=0, pro',
        fields: { group: 'GolukConsumerGroup', topic: 'Message', brokerName: null, queueId: 0, msgIds: ['0A00012900002A9F000000000363F621'] },
      },
    ],
  },
  {
    id: 'consume-failed/broadcasting-drop',
    type: 'consume-failed',
    keywords: ['BROADCASTING, the message consume failed, drop it'],
    pattern: /BROADCASTING, the message consume failed, drop it, (?<msg>.*)/,
    versions: '4.x-5.x (3.x: the same)',
    source: 'client/impl/consumer/ConsumeMessageConcurrentlyService (processConsumeResult)',
    // A broadcasting consumer does not send a failed message back: it drops it.
    format: 'BROADCASTING, the message consume failed, drop it, {}',
    args: ['msg'],
    fields: (g) => consumeFailed('FAILED', null, null, g.msg),
    // Built from the 4.9.7 format.
    samples: [{ text: `BROADCASTING, the message consume failed, drop it, ${MSG}`, fields: { returnType: 'FAILED', group: null, topic: 'TopicPay', brokerName: 'broker-a', queueId: 2, msgIds: ['0A0000090C1A18B4AAC2591D5A6E0003'], reconsumeTimes: 3 } }],
  },
  {
    id: 'consume-failed/expired',
    type: 'consume-failed',
    keywords: ['send expire msg back. topic='],
    pattern: /send expire msg back\. topic=(?<topic>[^,]*), msgId=(?<id>[^,]*), storeHost=(?<host>[^,]*), queueId=(?<q>-?\d+), queueOffset=(?<off>-?\d+)/,
    versions: '4.x-5.x',
    source: 'client/impl/consumer/ProcessQueue (cleanExpiredMsg)',
    // Every 15 min (consumeTimeout) a concurrently consumed message in the listener longer than consumeTimeout is sent back (its reconsumeTimes grows) and removed from the queue's cache.
    format: 'send expire msg back. topic={}, msgId={}, storeHost={}, queueId={}, queueOffset={}',
    args: ['topic', 'id', 'host', 'queueId', 'off'],
    fields: (g) => eventFields('consume-failed', { returnType: 'TIME_OUT', topic: str(g.topic), queueId: num(g.q), msgIds: str(g.id) === null ? [] : [str(g.id)!] }),
    // Built from the 4.9.7 format.
    samples: [{ text: 'send expire msg back. topic=TopicPay, msgId=0A0000090C1A18B4AAC2591D5A6E0003, storeHost=/10.0.0.1:10911, queueId=2, queueOffset=118', fields: { returnType: 'TIME_OUT', topic: 'TopicPay', queueId: 2, brokerName: null, msgIds: ['0A0000090C1A18B4AAC2591D5A6E0003'] } }],
  },

  // ---- send-back-failed: a failed message not sent back to the broker ----
  {
    id: 'send-back-failed/consume-service',
    type: 'send-back-failed',
    keywords: ['sendMessageBack exception, group: '],
    pattern: /sendMessageBack exception, group: (?<group>\S*) msg: (?<msg>.*)/,
    versions: 'all (3.x-5.x)',
    source: 'client/impl/consumer/ConsumeMessageConcurrentlyService, ConsumeMessageOrderlyService (sendMessageBack)',
    // Both ways back failed (the broker's CONSUMER_SEND_MSG_BACK, then the consumer's own producer to %RETRY%group): concurrently, the message is consumed again here after 5 s.
    format: 'sendMessageBack exception, group: {} msg: {}',
    args: ['group', 'msg'],
    causeFromNext: true,
    fields: (g) => sendBack(str(g.group), g.msg),
    // Built from the 4.9.7 format.
    samples: [{ text: `sendMessageBack exception, group: GroupPay msg: ${MSG}`, fields: { group: 'GroupPay', topic: 'TopicPay', msgId: '0A0000090C1A18B4AAC2591D5A6E0003', reconsumeTimes: 3, cause: null } }],
  },
  {
    id: 'send-back-failed/direct',
    type: 'send-back-failed',
    keywords: ['sendMessageBack Exception, '],
    pattern: /sendMessageBack Exception, (?<group>\S+)/,
    versions: 'all (3.x-5.x)',
    source: 'client/impl/consumer/DefaultMQPushConsumerImpl (sendMessageBack)',
    // The broker's CONSUMER_SEND_MSG_BACK failed; the client then sends the message to %RETRY%group with its own producer (a failure of that one is send-back-failed/consume-service).
    format: 'sendMessageBack Exception, {}',
    args: ['group'],
    causeFromNext: true,
    fields: (g) => sendBack(str(g.group), null),
    // Built from the 4.9.7 format.
    samples: [{ text: 'sendMessageBack Exception, GroupPay', fields: { group: 'GroupPay', topic: null, msgId: null, cause: null } }],
  },

  // ---- send-to-dlq: the broker moved a message to %DLQ%group (5.x logs it) ----
  {
    id: 'send-to-dlq/failed',
    type: 'send-to-dlq',
    keywords: ['failed to send msg to DLQ '],
    pattern: /failed to send msg to DLQ (?<dlq>\S*), owner=(?<owner>[^,]*), originalTopic=(?<topic>[^,]*), consumerId=(?<group>[^,]*), msgUniqKey=(?<key>[^,]*), result=(?<result>\S*)/,
    versions: '>=5.0.0',
    versionHint: '>=5.0.0',
    source: 'broker/processor/AbstractSendMessageProcessor (consumerSendMsgBack), logger RocketmqDLQ',
    format: 'failed to send msg to DLQ {}, owner={}, originalTopic={}, consumerId={}, msgUniqKey={}, result={}',
    args: ['dlq', 'owner', 'topic', 'group', 'msgId', 'result'],
    fields: (g) => eventFields('send-to-dlq', { group: str(g.group), topic: str(g.topic), msgId: str(g.key), stored: false }),
    // Built from the 5.3.1 format.
    samples: [{ text: 'failed to send msg to DLQ %DLQ%GroupPay, owner=null, originalTopic=TopicPay, consumerId=GroupPay, msgUniqKey=0A0000090C1A18B4AAC2591D5A6E0003, result=null', fields: { group: 'GroupPay', topic: 'TopicPay', msgId: '0A0000090C1A18B4AAC2591D5A6E0003', stored: false } }],
  },
  {
    id: 'send-to-dlq/sent',
    type: 'send-to-dlq',
    keywords: ['send msg to DLQ '],
    pattern: /(?<!failed to )send msg to DLQ (?<dlq>\S*), owner=(?<owner>[^,]*), originalTopic=(?<topic>[^,]*), consumerId=(?<group>[^,]*), msgUniqKey=(?<key>[^,]*)(?:, storeTimestamp=(?<ts>-?\d+))?/,
    versions: '>=5.0.0',
    versionHint: '>=5.0.0',
    source: 'broker/processor/AbstractSendMessageProcessor (consumerSendMsgBack), logger RocketmqDLQ',
    // 4.x brokers move the message to the DLQ without a log line.
    format: 'send msg to DLQ {}, owner={}, originalTopic={}, consumerId={}, msgUniqKey={}, storeTimestamp={}',
    args: ['dlq', 'owner', 'topic', 'group', 'msgId', 'ts'],
    fields: (g) => eventFields('send-to-dlq', { group: str(g.group), topic: str(g.topic), msgId: str(g.key), stored: true }),
    // Built from the 5.3.1 format.
    samples: [{ text: 'send msg to DLQ %DLQ%GroupPay, owner=null, originalTopic=TopicPay, consumerId=GroupPay, msgUniqKey=0A0000090C1A18B4AAC2591D5A6E0003, storeTimestamp=1733389300123', fields: { group: 'GroupPay', topic: 'TopicPay', msgId: '0A0000090C1A18B4AAC2591D5A6E0003', stored: true } }],
  },

  // ---- pop-revive: the broker's pop revive put back a popped message that was not acknowledged ----
  {
    id: 'pop-revive/retry-topic-created',
    type: 'pop-revive',
    keywords: ['create new topic [TopicConfig [topicName=%RETRY%'],
    pattern: /create new topic \[TopicConfig \[topicName=(?<topic>%RETRY%[^,\]\s]+)/,
    versions: '>=5.0.0',
    versionHint: '>=5.0.0',
    // PopReviveService.reviveRetry calls addRetryTopicIfNotExist before it puts the message back into
    // the pop retry topic (%RETRY%group_topic; %RETRY%group+topic with enableRetryTopicV2): the first
    // revive of the group's messages of that topic creates it, logged by its PopReviveService_N
    // thread. A consumerSendMsgBack's %RETRY%group is created without the brackets
    // (TopicConfigManager.createTopicInSendMessageBackMethod: `create new topic TopicConfig [...]`).
    source: 'broker/topic/TopicConfigManager#updateSingleTopicConfigWithoutPersist, called by broker/processor/PopReviveService#addRetryTopicIfNotExist (5.x)',
    format: 'create new topic [{}]',
    args: ['topicConfig'],
    fields: (g) => eventFields('pop-revive', { retryTopic: str(g.topic) }),
    samples: [
      {
        // Real: samples/lab/consumer-grpc-simple-failures (broker.log of a 5.3.3 master).
        text: 'create new topic [TopicConfig [topicName=%RETRY%CID_STOCK_TopicOrder, readQueueNums=1, writeQueueNums=1, perm=RW-, topicFilterType=SINGLE_TAG, topicSysFlag=0, order=false, attributes={}]]',
        fields: { retryTopic: '%RETRY%CID_STOCK_TopicOrder' },
      },
    ],
  },

  // ---- pull-failed: the broker refused a pull (broker.log), or the client's pull failed (rocketmq_client.log) ----
  {
    id: 'pull-failed/pop-exception',
    type: 'pull-failed',
    keywords: ['execute the pull request exception: '],
    pattern: /execute the pull request exception: (?<cause>.+)/,
    versions: '>=5.0.0 (pop consumption)',
    versionHint: '>=5.0.0',
    source: 'client/impl/consumer/DefaultMQPushConsumerImpl (popMessage, PopCallback.onException)',
    // One placeholder and the exception as its only argument: SLF4J prints the exception's toString in place, without a stack.
    format: 'execute the pull request exception: {}',
    args: ['cause'],
    fields: (g) => {
      const { reason, code } = remarkReason(g.cause);
      return pullFailed(reason, { code, cause: str(g.cause) });
    },
    // Built from the 5.3.1 format.
    samples: [
      {
        text: "execute the pull request exception: org.apache.rocketmq.client.exception.MQBrokerException: CODE: 26  DESC: subscription group [GroupPay] does not exist, BROKER: 10.0.0.1:10911",
        fields: { reason: 'SUBSCRIPTION_GROUP_NOT_EXIST', code: 26, cause: "org.apache.rocketmq.client.exception.MQBrokerException: CODE: 26  DESC: subscription group [GroupPay] does not exist, BROKER: 10.0.0.1:10911" },
      },
    ],
  },
  {
    id: 'pull-failed/broker-group-info-not-exist',
    type: 'pull-failed',
    keywords: ["the consumer's group info not exist, group: "],
    pattern: /the consumer's group info not exist, group: (?<group>\S+)/,
    versions: 'all (4.x-5.x)',
    source: 'broker/processor/PullMessageProcessor (processRequest)',
    // The broker has no ConsumerGroupInfo for the group (no heartbeat of it yet, or expired): it answers SUBSCRIPTION_NOT_EXIST (24).
    format: "the consumer's group info not exist, group: {}",
    args: ['group'],
    fields: (g) => pullFailed('SUBSCRIPTION_NOT_EXIST', { group: str(g.group) }),
    // Built from the 4.9.7 format.
    samples: [{ text: "the consumer's group info not exist, group: GroupPay", fields: { reason: 'SUBSCRIPTION_NOT_EXIST', code: null, group: 'GroupPay', topic: null } }],
  },
  {
    id: 'pull-failed/broker-subscription-not-exist',
    type: 'pull-failed',
    keywords: ["the consumer's subscription not exist, group: "],
    pattern: /the consumer's subscription not exist, group: (?<group>[^,\s]*), topic:(?<topic>\S*)/,
    versions: 'all (4.x-5.x)',
    source: 'broker/processor/PullMessageProcessor (processRequest)',
    // The group is registered but its consumers' heartbeats do not subscribe to this topic: SUBSCRIPTION_NOT_EXIST (24).
    format: "the consumer's subscription not exist, group: {}, topic:{}",
    args: ['group', 'topic'],
    fields: (g) => pullFailed('SUBSCRIPTION_NOT_EXIST', { group: str(g.group), topic: str(g.topic) }),
    // Built from the 4.9.7 format.
    samples: [{ text: "the consumer's subscription not exist, group: GroupPay, topic:TopicRefund", fields: { reason: 'SUBSCRIPTION_NOT_EXIST', group: 'GroupPay', topic: 'TopicRefund' } }],
  },
  {
    id: 'pull-failed/broker-subscription-not-latest',
    type: 'pull-failed',
    keywords: ["The broker's subscription is not latest, group: "],
    pattern: /The broker's subscription is not latest, group: (?<group>\S*) (?<sub>.*)/,
    versions: 'all (4.x-5.x)',
    source: 'broker/processor/PullMessageProcessor (processRequest)',
    // The pull carries a newer subscription version than the broker holds for the group (instances of one group that subscribe differently keep overwriting it): SUBSCRIPTION_NOT_LATEST (25).
    format: "The broker's subscription is not latest, group: {} {}",
    // The second argument is the subscription's expression (subString) the broker holds.
    args: ['group', 'subString'],
    fields: (g) => pullFailed('SUBSCRIPTION_NOT_LATEST', { group: str(g.group) }),
    samples: [
      // Real: apache/rocketmq#5479 (4.x broker.log).
      { text: "The broker's subscription is not latest, group: real_db_consumer_group-dsp_error dsp_error", fields: { reason: 'SUBSCRIPTION_NOT_LATEST', group: 'real_db_consumer_group-dsp_error' } },
      // Built from the 4.9.7 format.
      { text: "The broker's subscription is not latest, group: GroupPay TagA || TagB", fields: { reason: 'SUBSCRIPTION_NOT_LATEST', group: 'GroupPay' } },
    ],
  },
  {
    id: 'pull-failed/broker-topic-not-exist',
    type: 'pull-failed',
    keywords: [' not exist, consumer: '],
    pattern: /the topic (?<topic>\S+) not exist, consumer: (?<addr>\S+)/,
    versions: 'all (4.x-5.x)',
    source: 'broker/processor/PullMessageProcessor (processRequest)',
    format: 'the topic {} not exist, consumer: {}',
    args: ['topic', 'addr'],
    fields: (g) => pullFailed('TOPIC_NOT_EXIST', { topic: str(g.topic), addr: normAddr(g.addr) }),
    // Built from the 4.9.7 format.
    samples: [{ text: 'the topic TopicRefund not exist, consumer: 10.0.0.9:53120', fields: { reason: 'TOPIC_NOT_EXIST', topic: 'TopicRefund', addr: '10.0.0.9:53120' } }],
  },
  {
    id: 'pull-failed/subscription-group-not-exist',
    type: 'pull-failed',
    keywords: ['] does not exist'],
    pattern: new RegExp(`(?<!=)${CODE}subscription group \\[(?<group>[^\\]]*)\\] does not exist${BROKER}`),
    versions: 'all (4.x-5.x; 5.x also for pop, peek and notification)',
    source: 'broker/processor/PullMessageProcessor (processRequest): the remark of SUBSCRIPTION_GROUP_NOT_EXIST (26)',
    // The group is not in the broker's subscriptionGroupTable and autoCreateSubscriptionGroup is off. The remark goes on with FAQUrl.suggestTodo on the next line.
    // The remarks' entries skip a remark after `=`: the broker's dump of a response it failed to write (`RemotingCommand [code=24, ..., remark=...]`) is no second refusal.
    format: 'subscription group [{}] does not exist',
    args: ['group'],
    fields: (g) => pullFailed('SUBSCRIPTION_GROUP_NOT_EXIST', { code: num(g.code), group: str(g.group), addr: normAddr(g.broker) }),
    samples: [
      // Built from the 4.9.7 format, as the client's MQBrokerException prints it.
      { text: 'org.apache.rocketmq.client.exception.MQBrokerException: CODE: 26  DESC: subscription group [GroupPay] does not exist, ', fields: { reason: 'SUBSCRIPTION_GROUP_NOT_EXIST', code: 26, group: 'GroupPay', addr: null } },
    ],
  },
  {
    id: 'pull-failed/group-info-not-exist',
    type: 'pull-failed',
    keywords: ["the consumer's group info not exist"],
    pattern: new RegExp(`(?<!=)${CODE}the consumer's group info not exist${BROKER}`),
    versions: 'all (4.x-5.x)',
    source: 'broker/processor/PullMessageProcessor (processRequest): the remark of SUBSCRIPTION_NOT_EXIST (24)',
    format: "the consumer's group info not exist",
    args: [],
    fields: (g) => pullFailed('SUBSCRIPTION_NOT_EXIST', { code: num(g.code), addr: normAddr(g.broker) }),
    samples: [
      // Real: apache/rocketmq#1871 (4.x, under `execute the pull request exception`).
      { text: "org.apache.rocketmq.client.exception.MQBrokerException: CODE: 24  DESC: the consumer's group info not exist", fields: { reason: 'SUBSCRIPTION_NOT_EXIST', code: 24, group: null } },
    ],
  },
  {
    id: 'pull-failed/subscription-not-exist',
    type: 'pull-failed',
    keywords: ["the consumer's subscription not exist"],
    pattern: new RegExp(`(?<!=)${CODE}the consumer's subscription not exist${BROKER}`),
    versions: 'all (4.x-5.x)',
    source: 'broker/processor/PullMessageProcessor (processRequest): the remark of SUBSCRIPTION_NOT_EXIST (24)',
    format: "the consumer's subscription not exist",
    args: [],
    fields: (g) => pullFailed('SUBSCRIPTION_NOT_EXIST', { code: num(g.code), addr: normAddr(g.broker) }),
    // Built from the 4.9.7 remark.
    samples: [{ text: "org.apache.rocketmq.client.exception.MQBrokerException: CODE: 24  DESC: the consumer's subscription not exist", fields: { reason: 'SUBSCRIPTION_NOT_EXIST', code: 24 } }],
  },
  {
    id: 'pull-failed/subscription-not-latest',
    type: 'pull-failed',
    keywords: ["the consumer's subscription not latest"],
    pattern: new RegExp(`(?<!=)${CODE}the consumer's subscription not latest${BROKER}`),
    versions: 'all (4.x-5.x)',
    source: 'broker/processor/PullMessageProcessor (processRequest): the remark of SUBSCRIPTION_NOT_LATEST (25)',
    format: "the consumer's subscription not latest",
    args: [],
    fields: (g) => pullFailed('SUBSCRIPTION_NOT_LATEST', { code: num(g.code), addr: normAddr(g.broker) }),
    // Built from the 4.9.7 remark, with 4.8.0+'s BROKER suffix.
    samples: [{ text: "org.apache.rocketmq.client.exception.MQBrokerException: CODE: 25  DESC: the consumer's subscription not latest BROKER: 10.0.0.1:10911", fields: { reason: 'SUBSCRIPTION_NOT_LATEST', code: 25, addr: '10.0.0.1:10911' } }],
  },
  {
    id: 'pull-failed/subscription-not-latest-5x',
    type: 'pull-failed',
    keywords: ['the subscription is not latest, group='],
    pattern: /the subscription is not latest, group=(?<group>[^,\s]*), messageQueue=(?<mq>.*)/,
    versions: '>=5.2.0',
    versionHint: '>=5.2.0',
    source: 'client/impl/consumer/DefaultMQPushConsumerImpl (pullMessage, PullCallback.onException)',
    // From 5.2.0 a SUBSCRIPTION_NOT_LATEST answer is logged so, without its stack.
    format: 'the subscription is not latest, group={}, messageQueue={}',
    args: ['group', 'mq'],
    fields: (g) => pullFailed('SUBSCRIPTION_NOT_LATEST', { group: str(g.group), queue: printedQueue(g.mq) }),
    // Built from the 5.3.1 format.
    samples: [{ text: `the subscription is not latest, group=GroupPay, messageQueue=${MQ2}`, fields: { reason: 'SUBSCRIPTION_NOT_LATEST', group: 'GroupPay', topic: 'TopicPay', brokerName: 'broker-a', queueId: 2 } }],
  },
  // ---- a subscription by SQL92 (MessageSelector.bySql) the broker does not take (4.1.0+) ----
  {
    id: 'pull-failed/filter-not-supported',
    type: 'pull-failed',
    keywords: ['does not support consumer to filter message by '],
    pattern: new RegExp(`(?<!=)${CODE}The broker does not support consumer to filter message by (?<expressionType>\\w+)${BROKER}`),
    versions: '>=4.1.0 (SQL92 filtering; 4.x-5.x)',
    source:
      'broker/processor/ClientManageProcessor (checkClientConfig: the consumer start asks it through MQClientInstance.checkClientInBroker, and DefaultMQPushConsumer.start throws it) and PullMessageProcessor (processRequest): SYSTEM_ERROR (1) while enablePropertyFilter=false (BrokerConfig, the default)',
    format: 'The broker does not support consumer to filter message by {}',
    args: ['expressionType'],
    fields: (g) => ({ ...pullFailed('FILTER_NOT_SUPPORTED', { code: num(g.code), addr: normAddr(g.broker) }), expressionType: str(g.expressionType) }),
    samples: [
      // Real: apache/rocketmq#310 (client 4.2.0, DefaultMQPushConsumer.start in main).
      {
        text: 'Exception in thread "main" org.apache.rocketmq.client.exception.MQClientException: CODE: 1  DESC: The broker does not support consumer to filter message by SQL92',
        fields: { reason: 'FILTER_NOT_SUPPORTED', code: 1, expressionType: 'SQL92', addr: null },
      },
      // Real: alibaba/spring-cloud-alibaba#3612 (the Stream binder's consumer init).
      { text: 'DefaultMQPushConsumer init failed, Caused by CODE: 1  DESC: The broker does not support consumer to filter message by SQL92', fields: { reason: 'FILTER_NOT_SUPPORTED', code: 1, expressionType: 'SQL92' } },
    ],
  },
  {
    id: 'pull-failed/filter-data-not-exist',
    type: 'pull-failed',
    keywords: ["The broker's consumer filter data is not exist!"],
    pattern: new RegExp(`(?<!=)${CODE}The broker's consumer filter data is not exist!Your expression may be wrong!${BROKER}`),
    versions: '>=4.1.0 (4.x-5.x)',
    source: "broker/processor/PullMessageProcessor (processRequest): FILTER_DATA_NOT_EXIST (27), a pull by an expression the broker holds no compiled filter of (ConsumerFilterManager: the heartbeat's expression did not compile, or no heartbeat since the broker started)",
    format: "The broker's consumer filter data is not exist!Your expression may be wrong!",
    args: [],
    fields: (g) => pullFailed('FILTER_DATA_NOT_EXIST', { code: num(g.code), addr: normAddr(g.broker) }),
    // Built from the 4.9.4 remark, as the client's MQBrokerException prints it (4.8.0+: with BROKER).
    samples: [
      {
        text: "org.apache.rocketmq.client.exception.MQBrokerException: CODE: 27  DESC: The broker's consumer filter data is not exist!Your expression may be wrong! BROKER: 10.0.0.1:10911",
        fields: { reason: 'FILTER_DATA_NOT_EXIST', code: 27, addr: '10.0.0.1:10911' },
      },
    ],
  },
  {
    id: 'pull-failed/lite-pull-not-supported',
    type: 'pull-failed',
    keywords: ['request type 361 not supported'],
    pattern: new RegExp(`${CODE}\\s*request type 361 not supported${BROKER}`),
    versions: 'clients >=5.0.0 (DefaultLitePullConsumer) against brokers before 5.0.0',
    // A 5.x lite pull consumer pulls with LITE_PULL_MESSAGE (361: MQClientAPIImpl.pullMessage when the
    // sysFlag has the lite pull flag, 5.0.0+); a broker without that code answers REQUEST_CODE_NOT_SUPPORTED
    // (3) with ` request type 361 not supported` (NettyRemotingAbstract.processRequestCommand, 4.x).
    source: 'remoting/netty/NettyRemotingAbstract (processRequestCommand): REQUEST_CODE_NOT_SUPPORTED (3) to RequestCode.LITE_PULL_MESSAGE (361)',
    format: ' request type 361 not supported',
    args: [],
    fields: (g) => pullFailed('REQUEST_CODE_NOT_SUPPORTED', { code: num(g.code) ?? 3, addr: normAddr(g.broker) }),
    // gen-20261210: a 5.3.0 DefaultLitePullConsumer against 4.9.7 brokers.
    samples: [
      {
        text: 'org.apache.rocketmq.client.exception.MQBrokerException: CODE: 3  DESC:  request type 361 not supported BROKER: 10.213.0.22:10911',
        fields: { reason: 'REQUEST_CODE_NOT_SUPPORTED', code: 3, addr: '10.213.0.22:10911' },
      },
    ],
  },
  {
    id: 'pull-failed/lite-pull-exception',
    type: 'pull-failed',
    keywords: ['An error occurred in pull message process.'],
    pattern: /An error occurred in pull message process\./,
    versions: '>=4.6.0 (DefaultLitePullConsumer)',
    source: 'client/impl/consumer/DefaultLitePullConsumerImpl (PullTaskImpl.run): any failure of a pull task; the exception follows, and the queue is pulled again after pullTimeDelayMillsWhenException',
    format: 'An error occurred in pull message process.',
    args: [],
    causeFromNext: true,
    fields: () => pullFailed(null),
    // gen-20261210 (client 5.3.0).
    samples: [{ text: '2026-12-08 03:30:43.256 ERROR [11488] [PullMsgThread-CID_BILLING1] [o.a.r.c.i.c.DefaultLitePullConsumerImpl#?:?] - An error occurred in pull message process.', fields: { reason: null, code: null, cause: null } }],
  },
  {
    id: 'pull-failed/filter-data-not-latest',
    type: 'pull-failed',
    keywords: ["the consumer's consumer filter data not latest"],
    pattern: new RegExp(`(?<!=)${CODE}the consumer's consumer filter data not latest${BROKER}`),
    versions: '>=4.1.0 (4.x-5.x)',
    source: 'broker/processor/PullMessageProcessor (processRequest): FILTER_DATA_NOT_LATEST (28), a pull carrying a newer subscription version than the filter the broker compiled, until the heartbeat with the new expression arrives',
    format: "the consumer's consumer filter data not latest",
    args: [],
    fields: (g) => pullFailed('FILTER_DATA_NOT_LATEST', { code: num(g.code), addr: normAddr(g.broker) }),
    // Built from the 4.9.4 remark.
    samples: [{ text: "org.apache.rocketmq.client.exception.MQBrokerException: CODE: 28  DESC: the consumer's consumer filter data not latest", fields: { reason: 'FILTER_DATA_NOT_LATEST', code: 28 } }],
  },
  {
    id: 'pull-failed/filter-compile-failed',
    type: 'pull-failed',
    keywords: [' filter message, but failed to compile expression! sub='],
    pattern: /Client (?<client>\S*)@(?<group>[^@\s]*) filter message, but failed to compile expression! sub=(?<sub>.*), error=(?<error>.*?)\s*$/,
    versions: '>=4.1.0 (4.x-5.x)',
    source: 'broker/processor/ClientManageProcessor (checkClientConfig): the expression of a consumer starting does not compile; it answers SUBSCRIPTION_PARSE_FAILED (23) and DefaultMQPushConsumer.start throws it',
    format: 'Client {}@{} filter message, but failed to compile expression! sub={}, error={}',
    args: ['client', 'group', 'sub', 'error'],
    fields: (g) => ({ ...pullFailed('SUBSCRIPTION_PARSE_FAILED', { code: 23, group: str(g.group), topic: printed(g.sub, 'topic'), cause: str(g.error) }), expressionType: printed(g.sub, 'expressionType') }),
    // Built from the 4.9.4 format, with a SubscriptionData of expressionType SQL92.
    samples: [
      {
        text: "Client 10.0.0.9@12345@GroupPay filter message, but failed to compile expression! sub=SubscriptionData [classFilterMode=false, topic=TopicPay, subString=a between 0  3, tagsSet=[], codeSet=[], subVersion=1733389211000, expressionType=SQL92], error=Encountered \"3\" at line 1, column 15.",
        fields: { reason: 'SUBSCRIPTION_PARSE_FAILED', code: 23, group: 'GroupPay', topic: 'TopicPay', expressionType: 'SQL92', cause: 'Encountered "3" at line 1, column 15.' },
      },
    ],
  },
  {
    id: 'pull-failed/exception-5x',
    type: 'pull-failed',
    keywords: ['execute the pull request exception, group='],
    pattern: /execute the pull request exception, group=(?<group>[^,\s]*), messageQueue=(?<mq>.*)/,
    versions: '>=5.2.0',
    versionHint: '>=5.2.0',
    source: 'client/impl/consumer/DefaultMQPushConsumerImpl (pullMessage, PullCallback.onException)',
    // Not logged for the %RETRY% topics' queues. The exception follows; the queue is pulled again after pullTimeDelayMillsWhenException (FLOW_CONTROL: 20 ms).
    format: 'execute the pull request exception, group={}, messageQueue={}',
    args: ['group', 'mq'],
    causeFromNext: true,
    fields: (g) => pullFailed(null, { group: str(g.group), queue: printedQueue(g.mq) }),
    // Built from the 5.3.1 format.
    samples: [{ text: `execute the pull request exception, group=GroupPay, messageQueue=${MQ2}`, fields: { reason: null, group: 'GroupPay', topic: 'TopicPay', brokerName: 'broker-a', queueId: 2, cause: null } }],
  },
  {
    id: 'pull-failed/exception',
    type: 'pull-failed',
    keywords: ['execute the pull request exception'],
    pattern: /execute the pull request exception(?![,:])/,
    versions: '3.x-5.1.x',
    source: 'client/impl/consumer/DefaultMQPushConsumerImpl (pullMessage, PullCallback.onException)',
    // Not logged for the %RETRY% topics' queues. The exception follows (its CODE line gives reason and code); the queue is pulled again after pullTimeDelayMillsWhenException.
    format: 'execute the pull request exception',
    args: [],
    causeFromNext: true,
    fields: () => pullFailed(null),
    // Real: apache/rocketmq#1871 (4.x).
    samples: [{ text: 'execute the pull request exception', fields: { reason: null, code: null, group: null, cause: null } }],
  },

  // ---- flow-control: the push (lite pull) consumer holds back a queue's pulls (DefaultMQPushConsumerImpl.pullMessage) ----
  {
    id: 'flow-control/cached-count',
    type: 'flow-control',
    keywords: ['cached message count exceeds the threshold'],
    pattern: /(?<t>[Tt])he cached message count exceeds the threshold (?<threshold>-?\d+), so do flow control, minOffset=(?<min>\S*), maxOffset=(?<max>\S*), count=(?<count>-?\d+), size=(?<size>-?\d+) MiB, (?:pullRequest=(?<pr>.*?), )?flowControlTimes=(?<times>\d+)/,
    versions: 'all (4.x-5.x; the lite pull consumer from 4.6.0)',
    source: 'client/impl/consumer/DefaultMQPushConsumerImpl (pullMessage); DefaultLitePullConsumerImpl (PullTaskImpl.run)',
    // Over pullThresholdForQueue (1000 messages) cached for the queue: its next pull waits 50 ms. Printed once every 1000 times.
    format: 'the cached message count exceeds the threshold {}, so do flow control, minOffset={}, maxOffset={}, count={}, size={} MiB, pullRequest={}, flowControlTimes={}',
    args: ['threshold', 'minOffset', 'maxOffset', 'count', 'sizeMiB', 'pullRequest', 'flowControlTimes'],
    forms: {
      litePull: { format: 'The cached message count exceeds the threshold {}, so do flow control, minOffset={}, maxOffset={}, count={}, size={} MiB, flowControlTimes={}', args: ['threshold', 'minOffset', 'maxOffset', 'count', 'sizeMiB', 'flowControlTimes'] },
    },
    fields: (g) => flow('count', g),
    samples: [
      // Built from the 4.9.7 format.
      { text: `the cached message count exceeds the threshold 1000, so do flow control, minOffset=118, maxOffset=1119, count=1001, size=0 MiB, pullRequest=${PR}, flowControlTimes=2001`, fields: { limit: 'count', litePull: false, threshold: 1000, count: 1001, sizeMiB: 0, maxSpan: null, group: 'GroupPay', topic: 'TopicPay', brokerName: 'broker-a', queueId: 2, flowControlTimes: 2001 } },
      // Built from the 4.9.7 lite pull format.
      { text: 'The cached message count exceeds the threshold 1000, so do flow control, minOffset=0, maxOffset=1000, count=1001, size=1 MiB, flowControlTimes=1', fields: { limit: 'count', litePull: true, threshold: 1000, count: 1001, sizeMiB: 1, group: null, topic: null, flowControlTimes: 1 } },
      // gen-20261208's 4.9.3 DefaultLitePullConsumer, its application slowed to 1.5 s a message.
      { text: '2026-12-08 03:24:32,052 WARN RocketmqClient - The cached message count exceeds the threshold 20, so do flow control, minOffset=105, maxOffset=125, count=21, size=0 MiB, flowControlTimes=1', fields: { limit: 'count', litePull: true, threshold: 20, count: 21, flowControlTimes: 1 } },
    ],
  },
  {
    id: 'flow-control/cached-size',
    type: 'flow-control',
    keywords: ['cached message size exceeds the threshold'],
    pattern: /(?<t>[Tt])he cached message size exceeds the threshold (?<threshold>-?\d+) MiB, so do flow control, minOffset=(?<min>\S*), maxOffset=(?<max>\S*), count=(?<count>-?\d+), size=(?<size>-?\d+) MiB, (?:pullRequest=(?<pr>.*?), )?flowControlTimes=(?<times>\d+)/,
    versions: 'all (4.x-5.x; the lite pull consumer from 4.6.0)',
    source: 'client/impl/consumer/DefaultMQPushConsumerImpl (pullMessage); DefaultLitePullConsumerImpl (PullTaskImpl.run)',
    // Over pullThresholdSizeForQueue (100 MiB) cached for the queue.
    format: 'the cached message size exceeds the threshold {} MiB, so do flow control, minOffset={}, maxOffset={}, count={}, size={} MiB, pullRequest={}, flowControlTimes={}',
    args: ['threshold', 'minOffset', 'maxOffset', 'count', 'sizeMiB', 'pullRequest', 'flowControlTimes'],
    forms: {
      litePull: { format: 'The cached message size exceeds the threshold {} MiB, so do flow control, minOffset={}, maxOffset={}, count={}, size={} MiB, flowControlTimes={}', args: ['threshold', 'minOffset', 'maxOffset', 'count', 'sizeMiB', 'flowControlTimes'] },
    },
    fields: (g) => flow('size', g),
    samples: [
      // Built from the 4.9.7 formats.
      { text: `the cached message size exceeds the threshold 100 MiB, so do flow control, minOffset=118, maxOffset=620, count=503, size=101 MiB, pullRequest=${PR}, flowControlTimes=1`, fields: { limit: 'size', threshold: 100, count: 503, sizeMiB: 101, group: 'GroupPay', queueId: 2 } },
      { text: 'The cached message size exceeds the threshold 100 MiB, so do flow control, minOffset=0, maxOffset=480, count=481, size=100 MiB, flowControlTimes=1001', fields: { limit: 'size', sizeMiB: 100, flowControlTimes: 1001 } },
    ],
  },
  {
    id: 'flow-control/span',
    type: 'flow-control',
    keywords: ["queue's messages, span too long"],
    pattern: /(?<t>[Tt])he queue's messages, span too long, so do flow control, minOffset=(?<min>\S*), maxOffset=(?<max>\S*), maxSpan=(?<span>-?\d+), (?:pullRequest=(?<pr>.*?), )?flowControlTimes=(?<times>\d+)/,
    versions: 'all (4.x-5.x; the lite pull consumer from 4.6.0)',
    source: 'client/impl/consumer/DefaultMQPushConsumerImpl (pullMessage); DefaultLitePullConsumerImpl (PullTaskImpl.run)',
    // Concurrently consumed queues only: the first and last cached offsets over consumeConcurrentlyMaxSpan (2000) apart; one slow message holds back the queue.
    format: "the queue's messages, span too long, so do flow control, minOffset={}, maxOffset={}, maxSpan={}, pullRequest={}, flowControlTimes={}",
    args: ['minOffset', 'maxOffset', 'maxSpan', 'pullRequest', 'flowControlTimes'],
    forms: {
      litePull: { format: "The queue's messages, span too long, so do flow control, minOffset={}, maxOffset={}, maxSpan={}, flowControlTimes={}", args: ['minOffset', 'maxOffset', 'maxSpan', 'flowControlTimes'] },
    },
    fields: (g) => flow('span', g),
    samples: [
      // Built from the 4.9.7 formats.
      { text: `the queue's messages, span too long, so do flow control, minOffset=118, maxOffset=2201, maxSpan=2083, pullRequest=${PR}, flowControlTimes=1`, fields: { limit: 'span', threshold: null, count: null, maxSpan: 2083, group: 'GroupPay', queueId: 2, flowControlTimes: 1 } },
      { text: "The queue's messages, span too long, so do flow control, minOffset=7, maxOffset=2100, maxSpan=2093, flowControlTimes=1", fields: { limit: 'span', maxSpan: 2093 } },
    ],
  },
  {
    id: 'flow-control/wait-ack',
    type: 'flow-control',
    keywords: ['the messages waiting to ack exceeds the threshold'],
    pattern: /the messages waiting to ack exceeds the threshold (?<threshold>-?\d+), so do flow control, popRequest=(?<pr>.*?), flowControlTimes=(?<times>\d+), wait count=(?<count>-?\d+)/,
    versions: '>=5.0.0 (pop consumption)',
    versionHint: '>=5.0.0',
    source: 'client/impl/consumer/DefaultMQPushConsumerImpl (popMessage)',
    // Over popThresholdForQueue (96) messages popped and not yet acknowledged.
    format: 'the messages waiting to ack exceeds the threshold {}, so do flow control, popRequest={}, flowControlTimes={}, wait count={}',
    args: ['threshold', 'popRequest', 'flowControlTimes', 'count'],
    fields: (g) => flow('wait-ack', g),
    // Built from the 5.3.1 format.
    samples: [{ text: `the messages waiting to ack exceeds the threshold 96, so do flow control, popRequest=PopRequest [topic=TopicPay, consumerGroup=GroupPay, messageQueue=${MQ2}], flowControlTimes=1, wait count=97`, fields: { limit: 'wait-ack', threshold: 96, count: 97, group: 'GroupPay', topic: 'TopicPay', queueId: 2, flowControlTimes: 1 } }],
  },

  {
    id: 'flow-control/consume-request',
    type: 'flow-control',
    keywords: ['The consume request count exceeds threshold '],
    pattern: /The consume request count exceeds threshold (?<a>-?\d+), so do flow control, consume request count=(?<b>-?\d+), flowControlTimes=(?:(?<c>\d+)|\{\})/,
    versions: '4.6.0-5.2.0 (two arguments for three placeholders); >=5.3.0',
    source: 'client/impl/consumer/DefaultLitePullConsumerImpl (PullTaskImpl.run)',
    // The lite pull consumer's cache of pulled batches is full (pullThresholdForAll / pullBatchSize requests): its pull tasks wait 50 ms.
    // Up to 5.2.0 the call passes the cache's size and the count of pauses to three placeholders: they print as the threshold and the
    // request count, and `flowControlTimes={}` stays as is; 5.3.0 passes the threshold, the cache's size and the count.
    format: 'The consume request count exceeds threshold {}, so do flow control, consume request count={}, flowControlTimes={}',
    args: ['threshold', 'count', 'flowControlTimes'],
    fields: (g) =>
      g.c !== undefined
        ? eventFields('flow-control', { limit: 'consume-request', threshold: num(g.a), count: num(g.b), flowControlTimes: num(g.c) })
        : eventFields('flow-control', { limit: 'consume-request', count: num(g.a), flowControlTimes: num(g.b) }),
    samples: [
      // Real: apache/rocketmq#7969's output before its fix (develop, 2024-03).
      { text: 'The consume request count exceeds threshold 101, so do flow control, consume request count=1, flowControlTimes={}', fields: { limit: 'consume-request', threshold: null, count: 101, flowControlTimes: 1 } },
      // Built from the 5.3.0 call.
      { text: 'The consume request count exceeds threshold 100, so do flow control, consume request count=101, flowControlTimes=1001', fields: { limit: 'consume-request', threshold: 100, count: 101, flowControlTimes: 1001 } },
    ],
  },
  // ---- rebalance: the consumer's share of queues (RebalanceImpl, every 20 s and on a change of the group) ----
  {
    id: 'rebalance/result-changed',
    type: 'rebalance',
    keywords: ['rebalanced result changed. allocateMessageQueueStrategyName='],
    pattern: /rebalanced result changed\. allocateMessageQueueStrategyName=(?<strategy>[^,]*), group=(?<group>[^,]*), topic=(?<topic>[^,]*), clientId=(?<cid>[^,]*), mqAllSize=(?<mqAll>\d+), cidAllSize=(?<cidAll>\d+), rebalanceResultSize=(?<size>\d+), rebalanceResultSet=(?<set>.*)/,
    versions: 'all (4.x; 5.x prints `client rebalanced result changed`)',
    source: 'client/impl/consumer/RebalanceImpl (rebalanceByTopic, CLUSTERING)',
    format: 'rebalanced result changed. allocateMessageQueueStrategyName={}, group={}, topic={}, clientId={}, mqAllSize={}, cidAllSize={}, rebalanceResultSize={}, rebalanceResultSet={}',
    args: ['strategy', 'group', 'topic', 'clientId', 'mqAllSize', 'cidAllSize', 'size', 'set'],
    forms: {
      '5.x': {
        format: 'client rebalanced result changed. allocateMessageQueueStrategyName={}, group={}, topic={}, clientId={}, mqAllSize={}, cidAllSize={}, rebalanceResultSize={}, rebalanceResultSet={}',
        args: ['strategy', 'group', 'topic', 'clientId', 'mqAllSize', 'cidAllSize', 'size', 'set'],
      },
    },
    fields: (g) => rebalance('result', str(g.group), { topic: str(g.topic), clientId: str(g.cid), mqAllSize: num(g.mqAll), cidAllSize: num(g.cidAll), queues: printedQueues(g.set) }),
    samples: [
      // Built from the 4.9.7 format.
      {
        text: 'rebalanced result changed. allocateMessageQueueStrategyName=AVG, group=GroupPay, topic=TopicPay, clientId=10.0.0.9@12345, mqAllSize=8, cidAllSize=2, rebalanceResultSize=4, rebalanceResultSet=[MessageQueue [topic=TopicPay, brokerName=broker-a, queueId=0], MessageQueue [topic=TopicPay, brokerName=broker-a, queueId=1], MessageQueue [topic=TopicPay, brokerName=broker-a, queueId=2], MessageQueue [topic=TopicPay, brokerName=broker-a, queueId=3]]',
        fields: { action: 'result', group: 'GroupPay', topic: 'TopicPay', brokerName: null, queueId: null, clientId: '10.0.0.9@12345', mqAllSize: 8, cidAllSize: 2, queues: ['broker-a:0', 'broker-a:1', 'broker-a:2', 'broker-a:3'] },
      },
      // Built from the 5.3.1 format; a consumer given no queue.
      { text: 'client rebalanced result changed. allocateMessageQueueStrategyName=AVG, group=GroupPay, topic=TopicPay, clientId=10.0.0.10@7788#1234, mqAllSize=4, cidAllSize=5, rebalanceResultSize=0, rebalanceResultSet=[]', fields: { clientId: '10.0.0.10@7788#1234', mqAllSize: 4, cidAllSize: 5, queues: [] } },
    ],
  },
  {
    id: 'rebalance/notified',
    type: 'rebalance',
    keywords: ["receive broker's notification["],
    pattern: /receive broker's notification\[(?<addr>[^\]]*)\], the consumer group: (?<group>\S*) changed, rebalance immediately/,
    versions: 'all (4.x-5.x)',
    source: 'client/impl/ClientRemotingProcessor (notifyConsumerIdsChanged)',
    // The broker saw the group's members or subscription change (consumer-changed on its side) and told each consumer; a rebalance follows at once.
    format: "receive broker's notification[{}], the consumer group: {} changed, rebalance immediately",
    args: ['brokerAddr', 'group'],
    fields: (g) => rebalance('notified', str(g.group)),
    samples: [
      // Real: apache/rocketmq#7570 (5.x, the broker's address redacted in the thread).
      { text: "receive broker's notification[x.x.x.x:10931], the consumer group: CID_JODIE_1 changed, rebalance immediately", fields: { action: 'notified', group: 'CID_JODIE_1', topic: null, queues: null } },
    ],
  },
  {
    id: 'rebalance/add-mq',
    type: 'rebalance',
    keywords: [', add a new mq, '],
    pattern: /doRebalance, (?<group>\S*), add a new mq, (?<mq>MessageQueue \[[^\]]*\])/,
    versions: 'all (4.x-5.x)',
    source: 'client/impl/consumer/RebalanceImpl (updateProcessQueueTableInRebalance)',
    format: 'doRebalance, {}, add a new mq, {}',
    args: ['group', 'mq'],
    fields: (g) => rebalance('add', str(g.group), { queue: printedQueue(g.mq) }),
    // Built from the 4.9.7 format.
    samples: [{ text: `doRebalance, GroupPay, add a new mq, ${MQ2}`, fields: { action: 'add', group: 'GroupPay', topic: 'TopicPay', brokerName: 'broker-a', queueId: 2, queues: null } }],
  },
  {
    id: 'rebalance/remove-mq',
    type: 'rebalance',
    keywords: ['remove unnecessary mq, '],
    pattern: /doRebalance, (?<group>\S*), (?:truncateMessageQueueNotMyTopic |try )?remove unnecessary mq, (?<mq>MessageQueue \[[^\]]*\])/,
    versions: 'all (4.x-5.x)',
    source: 'client/impl/consumer/RebalanceImpl (updateProcessQueueTableInRebalance, truncateMessageQueueNotMyTopic)',
    // Also when the queue's pulls stopped for 120 s (`[BUG]... because pull is pause`: 4.x `remove`, 5.x `try remove`) and for a topic no longer subscribed.
    format: 'doRebalance, {}, remove unnecessary mq, {}',
    args: ['group', 'mq'],
    forms: {
      truncate: { format: 'doRebalance, {}, truncateMessageQueueNotMyTopic remove unnecessary mq, {}', args: ['group', 'mq'] },
      pullPaused: { format: '[BUG]doRebalance, {}, remove unnecessary mq, {}, because pull is pause, so try to fixed it', args: ['group', 'mq'] },
      pullPaused5x: { format: '[BUG]doRebalance, {}, try remove unnecessary mq, {}, because pull is pause, so try to fixed it', args: ['group', 'mq'] },
    },
    fields: (g) => rebalance('remove', str(g.group), { queue: printedQueue(g.mq) }),
    samples: [
      // Built from the 4.9.7 and 5.3.1 formats.
      { text: `doRebalance, GroupPay, remove unnecessary mq, ${MQ2}`, fields: { action: 'remove', group: 'GroupPay', queueId: 2 } },
      { text: `doRebalance, GroupPay, truncateMessageQueueNotMyTopic remove unnecessary mq, ${MQ2}`, fields: { action: 'remove', group: 'GroupPay', queueId: 2 } },
      { text: `[BUG]doRebalance, GroupPay, remove unnecessary mq, ${MQ2}, because pull is pause, so try to fixed it`, fields: { action: 'remove', queueId: 2 } },
      { text: `[BUG]doRebalance, GroupPay, try remove unnecessary mq, ${MQ2}, because pull is pause, so try to fixed it`, fields: { action: 'remove', queueId: 2 } },
    ],
  },
  {
    id: 'rebalance/pull-task-cancelled',
    type: 'rebalance',
    keywords: ['The Pull Task is cancelled after doPullTask, '],
    pattern: /The Pull Task is cancelled after doPullTask, (?<mq>MessageQueue \[[^\]]*\])/,
    versions: '>=4.6.0 (lite pull consumer; MQPullConsumerScheduleService: all 4.x-5.x)',
    source: 'client/impl/consumer/DefaultLitePullConsumerImpl (PullTaskImpl.run); client/consumer/MQPullConsumerScheduleService (PullTaskImpl.run)',
    // A queue's pull task found cancelled after its pull: the queue was taken from this consumer (a rebalance, a new assignment) or the consumer shut down.
    format: 'The Pull Task is cancelled after doPullTask, {}',
    args: ['mq'],
    fields: (g) => rebalance('cancelled', null, { queue: printedQueue(g.mq) }),
    samples: [
      // Real: apache/rocketmq#2732 (4.7.1).
      { text: 'The Pull Task is cancelled after doPullTask, MessageQueue [topic=t, brokerName=rmq-b5, queueId=3]', fields: { action: 'cancelled', group: null, topic: 't', brokerName: 'rmq-b5', queueId: 3 } },
    ],
  },
  {
    id: 'rebalance/message-queue-changed',
    type: 'rebalance',
    keywords: ['messageQueueChanged '],
    pattern: /messageQueueChanged (?<group>\S+) (?<topic>\S+) (?<all>\[.*\]) (?<mine>\[.*\])/,
    versions: 'all (4.x-5.x)',
    source: 'client/impl/consumer/RebalanceImpl (rebalanceByTopic, BROADCASTING)',
    // A broadcasting consumer takes every queue: both sets are the topic's queues.
    format: 'messageQueueChanged {} {} {} {}',
    args: ['group', 'topic', 'all', 'mine'],
    fields: (g) => rebalance('changed', str(g.group), { topic: str(g.topic), queues: printedQueues(g.mine) }),
    // Built from the 4.9.7 format.
    samples: [{ text: `messageQueueChanged GroupBroadcast TopicPay [${MQ2}] [${MQ2}]`, fields: { action: 'changed', group: 'GroupBroadcast', topic: 'TopicPay', queues: ['broker-a:2'] } }],
  },
  {
    id: 'rebalance/topic-not-exist',
    type: 'rebalance',
    keywords: [', but the topic['],
    pattern: /doRebalance, (?<group>\S*), but the topic\[(?<topic>[^\]]*)\] not exist/,
    versions: 'all (4.x-5.x)',
    source: 'client/impl/consumer/RebalanceImpl (rebalanceByTopic)',
    // The client has no route of the subscribed topic (every 20 s while it lasts; %RETRY% topics excluded in CLUSTERING).
    format: 'doRebalance, {}, but the topic[{}] not exist.',
    args: ['group', 'topic'],
    fields: (g) => rebalance('topic-not-exist', str(g.group), { topic: str(g.topic) }),
    // Built from the 4.9.7 format.
    samples: [{ text: 'doRebalance, GroupPay, but the topic[TopicPay] not exist.', fields: { action: 'topic-not-exist', group: 'GroupPay', topic: 'TopicPay' } }],
  },
  {
    id: 'rebalance/no-consumer-ids',
    type: 'rebalance',
    keywords: [', get consumer id list failed'],
    pattern: /doRebalance, (?<group>\S*) (?<topic>\S*), get consumer id list failed/,
    versions: 'all (4.x-5.x)',
    source: 'client/impl/consumer/RebalanceImpl (rebalanceByTopic)',
    // The broker chosen for the topic gave no list of the group's consumers (a failed GET_CONSUMER_LIST_BY_GROUP): no rebalance this round.
    format: 'doRebalance, {} {}, get consumer id list failed',
    args: ['group', 'topic'],
    fields: (g) => rebalance('no-consumer-ids', str(g.group), { topic: str(g.topic) }),
    // Built from the 4.9.7 format.
    samples: [{ text: 'doRebalance, GroupPay TopicPay, get consumer id list failed', fields: { action: 'no-consumer-ids', group: 'GroupPay', topic: 'TopicPay' } }],
  },

  // ---- lock-failed: orderly consumption without the broker's lock of the queue ----
  {
    id: 'lock-failed/lock-all',
    type: 'lock-failed',
    keywords: ['the message queue locked Failed, Group: '],
    pattern: /the message queue locked Failed, Group: (?<group>\S*) (?<mq>MessageQueue \[[^\]]*\])/,
    versions: 'all (4.x-5.x)',
    source: 'client/impl/consumer/RebalanceImpl (lockAll, every 20 s)',
    // The broker gave the queue to another client (or its lock call failed for this queue): this consumer stops consuming it until it gets the lock.
    format: 'the message queue locked Failed, Group: {} {}',
    args: ['group', 'mq'],
    fields: (g) => lockFailed('lock', str(g.group), g.mq),
    // Built from the 4.9.7 format.
    samples: [{ text: `the message queue locked Failed, Group: GroupOrder ${MQ2}`, fields: { what: 'lock', group: 'GroupOrder', clientId: null, topic: 'TopicPay', brokerName: 'broker-a', queueId: 2, cause: null } }],
  },
  {
    id: 'lock-failed/lock-one',
    type: 'lock-failed',
    keywords: ['message queue lock Failed, '],
    pattern: /message queue lock Failed, (?<group>\S*) (?<mq>MessageQueue \[[^\]]*\])/,
    versions: 'all (4.x `the message queue lock`; 5.x `message queue lock`)',
    source: 'client/impl/consumer/RebalanceImpl (lock)',
    // One queue's lock, asked when the queue is added or pulled for the first time; `OK` is logged the same way and is no event.
    format: 'the message queue lock {}, {} {}',
    args: ['result', 'group', 'mq'],
    forms: {
      '5.x': { format: 'message queue lock {}, {} {}', args: ['result', 'group', 'mq'] },
    },
    fields: (g) => lockFailed('lock', str(g.group), g.mq),
    samples: [
      // Built from the 4.9.7 and 5.3.1 formats.
      { text: `the message queue lock Failed, GroupOrder ${MQ2}`, fields: { what: 'lock', group: 'GroupOrder', queueId: 2 } },
      { text: `message queue lock Failed, GroupOrder ${MQ2}`, fields: { what: 'lock', group: 'GroupOrder', queueId: 2 } },
    ],
  },
  {
    id: 'lock-failed/add-mq',
    type: 'lock-failed',
    keywords: [', add a new mq failed, '],
    pattern: /doRebalance, (?<group>\S*), add a new mq failed, (?<mq>MessageQueue \[[^\]]*\]), because lock failed/,
    versions: 'all (4.x-5.x)',
    source: 'client/impl/consumer/RebalanceImpl (updateProcessQueueTableInRebalance)',
    // An orderly consumer does not take a queue it was allocated until the broker's lock is free (the previous owner unlocks it, or it expires after 60 s).
    format: 'doRebalance, {}, add a new mq failed, {}, because lock failed',
    args: ['group', 'mq'],
    fields: (g) => lockFailed('add-mq', str(g.group), g.mq),
    // Built from the 4.9.7 format.
    samples: [{ text: `doRebalance, GroupOrder, add a new mq failed, ${MQ2}, because lock failed`, fields: { what: 'add-mq', group: 'GroupOrder', queueId: 2 } }],
  },
  {
    id: 'lock-failed/not-locked',
    type: 'lock-failed',
    keywords: ['the message queue not locked, so consume later'],
    pattern: /the message queue not locked, so consume later, (?<mq>MessageQueue \[[^\]]*\])/,
    versions: 'all (4.x-5.x)',
    source: 'client/impl/consumer/ConsumeMessageOrderlyService (ConsumeRequest.run)',
    format: 'the message queue not locked, so consume later, {}',
    args: ['mq'],
    fields: (g) => lockFailed('not-locked', null, g.mq),
    // Built from the 4.9.7 format.
    samples: [{ text: `the message queue not locked, so consume later, ${MQ2}`, fields: { what: 'not-locked', group: null, topic: 'TopicPay', queueId: 2 } }],
  },
  {
    id: 'lock-failed/lock-expired',
    type: 'lock-failed',
    keywords: ['the message queue lock expired, so consume later'],
    pattern: /the message queue lock expired, so consume later, (?<mq>MessageQueue \[[^\]]*\])/,
    versions: 'all (4.x-5.x)',
    source: 'client/impl/consumer/ConsumeMessageOrderlyService (ConsumeRequest.run)',
    // The lock was not renewed for 30 s (rocketmq.client.rebalance.lockMaxLiveTime).
    format: 'the message queue lock expired, so consume later, {}',
    args: ['mq'],
    fields: (g) => lockFailed('lock-expired', null, g.mq),
    // Built from the 4.9.7 format.
    samples: [{ text: `the message queue lock expired, so consume later, ${MQ2}`, fields: { what: 'lock-expired', queueId: 2 } }],
  },
  {
    id: 'lock-failed/pull-not-locked',
    type: 'lock-failed',
    keywords: ['pull message later because not locked in broker'],
    pattern: /pull message later because not locked in broker, (?<pr>.*)/,
    versions: 'all (4.x-5.x)',
    source: 'client/impl/consumer/DefaultMQPushConsumerImpl (pullMessage)',
    // An orderly queue is pulled only while locked: the pull is tried again after pullTimeDelayMillsWhenException.
    format: 'pull message later because not locked in broker, {}',
    args: ['pr'],
    fields: (g) => lockFailed('not-locked', printedGroup(g.pr), g.pr),
    // Built from the 4.9.7 format.
    samples: [{ text: `pull message later because not locked in broker, ${PR}`, fields: { what: 'not-locked', group: 'GroupPay', topic: 'TopicPay', brokerName: 'broker-a', queueId: 2 } }],
  },
  {
    id: 'lock-failed/unlock-exception',
    type: 'lock-failed',
    keywords: ['unlockBatchMQ exception, '],
    pattern: /unlockBatchMQ exception, (?<mq>.*)/,
    versions: 'all (4.x-5.x)',
    source: 'client/impl/consumer/RebalanceImpl (unlock, unlockAll)',
    format: 'unlockBatchMQ exception, {}',
    args: ['mq'],
    causeFromNext: true,
    fields: (g) => lockFailed('unlock', null, g.mq),
    // Built from the 4.9.7 format.
    samples: [{ text: `unlockBatchMQ exception, ${MQ2}`, fields: { what: 'unlock', queueId: 2, cause: null } }],
  },
  {
    id: 'lock-failed/lock-exception',
    type: 'lock-failed',
    keywords: ['lockBatchMQ exception, '],
    pattern: /(?<!un)lockBatchMQ exception, (?<mq>.*)/,
    versions: 'all (4.x-5.x)',
    source: 'client/impl/consumer/RebalanceImpl (lock, lockAll)',
    // The lock call itself failed (the broker unreachable): no queue of that broker is consumed until a lock succeeds.
    format: 'lockBatchMQ exception, {}',
    args: ['mq'],
    causeFromNext: true,
    fields: (g) => lockFailed('lock', null, g.mq),
    // Built from the 4.9.7 format (lockAll prints the set).
    samples: [{ text: `lockBatchMQ exception, [${MQ2}]`, fields: { what: 'lock', topic: 'TopicPay', queueId: 2, cause: null } }],
  },
  {
    id: 'lock-failed/consuming',
    type: 'lock-failed',
    keywords: ['[WRONG]mq is consuming, so can not unlock it'],
    pattern: /\[WRONG\]mq is consuming, so can not unlock it, (?<mq>MessageQueue \[[^\]]*\])\. maybe hanged for a while, (?<n>\d+)/,
    versions: '4.x-5.1.x',
    source: 'client/impl/consumer/RebalancePushImpl (removeUnnecessaryMessageQueue)',
    // A queue given away by a rebalance is not released while its listener holds it (consumeLock not taken within 1 s).
    format: '[WRONG]mq is consuming, so can not unlock it, {}. maybe hanged for a while, {}',
    args: ['mq', 'tryUnlockTimes'],
    fields: (g) => lockFailed('consuming', null, g.mq),
    // Built from the 4.9.7 format.
    samples: [{ text: `[WRONG]mq is consuming, so can not unlock it, ${MQ2}. maybe hanged for a while, 3`, fields: { what: 'consuming', queueId: 2 } }],
  },
  {
    id: 'lock-failed/broker-locked-by-other',
    type: 'lock-failed',
    keywords: ['message queue locked by other client. Group: '],
    pattern: /tryLock(?:Batch)?, message queue locked by other client\. Group: (?<group>\S*) OtherClientId: (?<other>\S*) NewClientId: (?<cid>\S*) (?<mq>MessageQueue \[[^\]]*\])/,
    versions: '4.x',
    source: 'broker/client/rebalance/RebalanceLockManager (tryLock, tryLockBatch), logger RocketmqRebalanceLock (lock.log)',
    format: 'tryLockBatch, message queue locked by other client. Group: {} OtherClientId: {} NewClientId: {} {}',
    args: ['group', 'otherClientId', 'clientId', 'mq'],
    forms: {
      tryLock: { format: 'tryLock, message queue locked by other client. Group: {} OtherClientId: {} NewClientId: {} {}', args: ['group', 'otherClientId', 'clientId', 'mq'] },
    },
    fields: (g) => lockFailed('locked-by-other', str(g.group), g.mq, str(g.cid)),
    samples: [
      // Built from the 4.9.7 formats.
      { text: `tryLockBatch, message queue locked by other client. Group: GroupOrder OtherClientId: 10.0.0.9@111 NewClientId: 10.0.0.10@222 ${MQ2}`, fields: { what: 'locked-by-other', group: 'GroupOrder', clientId: '10.0.0.10@222', queueId: 2 } },
      { text: `tryLock, message queue locked by other client. Group: GroupOrder OtherClientId: 10.0.0.9@111 NewClientId: 10.0.0.10@222 ${MQ2}`, fields: { clientId: '10.0.0.10@222' } },
    ],
  },
  {
    id: 'lock-failed/broker-locked-by-other-5x',
    type: 'lock-failed',
    keywords: ['message queue has been locked by other client'],
    pattern: /RebalanceLockManager#tryLock(?:Batch)?: message queue has been locked by other client, group=(?<group>[^,\s]*), mq=(?<mq>MessageQueue \[[^\]]*\]), locked client id=(?<other>[^,\s]*), current client id=(?<cid>\S*)/,
    versions: '>=5.0.0',
    versionHint: '>=5.0.0',
    source: 'broker/client/rebalance/RebalanceLockManager (tryLock, tryLockBatch), logger RocketmqRebalanceLock (lock.log)',
    format: 'RebalanceLockManager#tryLockBatch: message queue has been locked by other client, group={}, mq={}, locked client id={}, current client id={}',
    args: ['group', 'mq', 'otherClientId', 'clientId'],
    forms: {
      tryLock: { format: 'RebalanceLockManager#tryLock: message queue has been locked by other client, group={}, mq={}, locked client id={}, current client id={}', args: ['group', 'mq', 'otherClientId', 'clientId'] },
    },
    fields: (g) => lockFailed('locked-by-other', str(g.group), g.mq, str(g.cid)),
    samples: [
      // Built from the 5.3.1 formats.
      { text: `RebalanceLockManager#tryLockBatch: message queue has been locked by other client, group=GroupOrder, mq=${MQ2}, locked client id=10.0.0.9@111, current client id=10.0.0.10@222`, fields: { what: 'locked-by-other', group: 'GroupOrder', clientId: '10.0.0.10@222', queueId: 2 } },
      { text: `RebalanceLockManager#tryLock: message queue has been locked by other client, group=GroupOrder, mq=${MQ2}, locked client id=10.0.0.9@111, current client id=10.0.0.10@222`, fields: { clientId: '10.0.0.10@222' } },
    ],
  },

  // ---- offset-illegal: a pull for an offset the queue does not hold ----
  {
    id: 'offset-illegal/pull',
    type: 'offset-illegal',
    keywords: ['pull request offset illegal, '],
    pattern: /[Tt]he pull request offset illegal, (?:(?<pr>PullRequest \[.*?\]) )?(?<res>PullResult \[.*)/,
    versions: 'all (4.x-5.x; the lite pull consumer `The pull request offset illegal, {}` from 4.6.0)',
    source: 'client/impl/consumer/DefaultMQPushConsumerImpl (pullMessage, OFFSET_ILLEGAL); DefaultLitePullConsumerImpl (PullTaskImpl.run)',
    // The push consumer then drops the queue's cache, persists nextBeginOffset after 10 s (`fix the pull request offset`) and takes the queue again.
    format: 'the pull request offset illegal, {} {}',
    args: ['pullRequest', 'pullResult'],
    forms: {
      litePull: { format: 'The pull request offset illegal, {}', args: ['pullResult'] },
    },
    fields: (g) =>
      offsetIllegal('OFFSET_ILLEGAL', {
        group: printedGroup(g.pr),
        queue: printedQueue(g.pr),
        offset: num(printed(g.pr, 'nextOffset')),
        next: num(printed(g.res, 'nextBeginOffset')),
        min: num(printed(g.res, 'minOffset')),
        max: num(printed(g.res, 'maxOffset')),
      }),
    samples: [
      // Built from the 4.9.7 formats (PullRequest and PullResult toString).
      {
        text: `the pull request offset illegal, ${PR} PullResult [pullStatus=OFFSET_ILLEGAL, nextBeginOffset=2040, minOffset=2040, maxOffset=2310, msgFoundList=0]`,
        fields: { status: 'OFFSET_ILLEGAL', group: 'GroupPay', topic: 'TopicPay', brokerName: 'broker-a', queueId: 2, offset: 118, nextBeginOffset: 2040, minOffset: 2040, maxOffset: 2310, addr: null },
      },
      { text: 'The pull request offset illegal, PullResult [pullStatus=OFFSET_ILLEGAL, nextBeginOffset=0, minOffset=0, maxOffset=12, msgFoundList=0]', fields: { group: null, offset: null, nextBeginOffset: 0, maxOffset: 12 } },
    ],
  },
  {
    id: 'offset-illegal/consumer-offset-unset',
    type: 'offset-illegal',
    keywords: ['consumerOffset is -1 in messageQueue ['],
    pattern: /consumerOffset is -1 in messageQueue \[(?<mq>MessageQueue \[[^\]]*\])\]/,
    versions: '>=4.9.4',
    source: 'client/impl/consumer/DefaultLitePullConsumerImpl (commitSync, commit)',
    // The lite pull consumer has no offset of the queue to commit (nothing polled from it yet, or it was reassigned): that queue's commit is skipped.
    format: 'consumerOffset is -1 in messageQueue [{}].',
    args: ['mq'],
    fields: (g) => offsetIllegal('NO_OFFSET', { queue: printedQueue(g.mq), offset: -1 }),
    // Built from the 4.9.7 format.
    samples: [{ text: `consumerOffset is -1 in messageQueue [${MQ2}].`, fields: { status: 'NO_OFFSET', topic: 'TopicPay', queueId: 2, offset: -1 } }],
  },
  {
    id: 'offset-illegal/too-small',
    type: 'offset-illegal',
    keywords: ['the request offset too small. group='],
    pattern: /the request offset too small\. group=(?<group>[^,]*), topic=(?<topic>[^,]*), requestOffset=(?<off>-?\d+), brokerMinOffset=(?<min>-?\d+), clientIp=(?<addr>\S*)/,
    versions: 'all (4.x-5.x)',
    source: 'broker/processor/PullMessageProcessor (processRequest, OFFSET_TOO_SMALL)',
    // The messages below brokerMinOffset were deleted (fileReservedTime): the consumer skips them.
    format: 'the request offset too small. group={}, topic={}, requestOffset={}, brokerMinOffset={}, clientIp={}',
    args: ['group', 'topic', 'offset', 'minOffset', { name: 'addr', as: 'socket' }],
    fields: (g) => offsetIllegal('OFFSET_TOO_SMALL', { group: str(g.group), topic: str(g.topic), offset: num(g.off), min: num(g.min), addr: normAddr(g.addr) }),
    // Built from the 4.9.7 format.
    samples: [{ text: 'the request offset too small. group=GroupPay, topic=TopicPay, requestOffset=118, brokerMinOffset=2040, clientIp=/10.0.0.9:53120', fields: { status: 'OFFSET_TOO_SMALL', group: 'GroupPay', topic: 'TopicPay', queueId: null, offset: 118, minOffset: 2040, addr: '10.0.0.9:53120' } }],
  },
  {
    id: 'offset-illegal/overflow-badly',
    type: 'offset-illegal',
    keywords: ['over flow badly, '],
    pattern: /the request offset: (?<off>-?\d+) over flow badly, (?:fix to (?<next>-?\d+), )?broker max offset: (?<max>-?\d+), consumer: (?<addr>\S*)/,
    versions: 'all (4.x; 5.x adds `fix to {}`)',
    source: 'broker/processor/PullMessageProcessor (processRequest, OFFSET_OVERFLOW_BADLY)',
    // An offset past the queue's end (a consume queue rebuilt or truncated, a master/slave switch): the consumer is moved back.
    format: 'the request offset: {} over flow badly, broker max offset: {}, consumer: {}',
    args: ['offset', 'maxOffset', { name: 'addr', as: 'socket' }],
    forms: {
      '5.x': { format: 'the request offset: {} over flow badly, fix to {}, broker max offset: {}, consumer: {}', args: ['offset', 'nextBeginOffset', 'maxOffset', { name: 'addr', as: 'socket' }] },
    },
    fields: (g) => offsetIllegal('OFFSET_OVERFLOW_BADLY', { offset: num(g.off), next: num(g.next), max: num(g.max), addr: normAddr(g.addr) }),
    samples: [
      // Built from the 4.9.7 and 5.3.1 formats.
      { text: 'the request offset: 5000 over flow badly, broker max offset: 2310, consumer: /10.0.0.9:53120', fields: { status: 'OFFSET_OVERFLOW_BADLY', offset: 5000, nextBeginOffset: null, maxOffset: 2310, addr: '10.0.0.9:53120' } },
      { text: 'the request offset: 5000 over flow badly, fix to 2310, broker max offset: 2310, consumer: /10.0.0.9:53120', fields: { offset: 5000, nextBeginOffset: 2310, maxOffset: 2310 } },
    ],
  },
  {
    id: 'offset-illegal/no-queue-data',
    type: 'offset-illegal',
    keywords: [' no queue data, fix the request offset '],
    pattern: /the broker stores? no queue data, fix the request offset (?<off>-?\d+) to (?<next>-?\d+), Topic: (?<topic>\S*) QueueId: (?<q>-?\d+) Consumer Group: (?<group>\S*)/,
    versions: 'all (4.x `store`; 5.x `stores`)',
    source: 'broker/processor/PullMessageProcessor (processRequest, NO_MATCHED_LOGIC_QUEUE or NO_MESSAGE_IN_QUEUE)',
    // The broker holds no message of the queue (a new or emptied broker) and the consumer asked for an offset other than 0.
    format: 'the broker store no queue data, fix the request offset {} to {}, Topic: {} QueueId: {} Consumer Group: {}',
    args: ['offset', 'nextBeginOffset', 'topic', 'queueId', 'group'],
    forms: {
      '5.x': { format: 'the broker stores no queue data, fix the request offset {} to {}, Topic: {} QueueId: {} Consumer Group: {}', args: ['offset', 'nextBeginOffset', 'topic', 'queueId', 'group'] },
    },
    fields: (g) => offsetIllegal('NO_MESSAGE_IN_QUEUE', { group: str(g.group), topic: str(g.topic), queueId: num(g.q), offset: num(g.off), next: num(g.next) }),
    samples: [
      // Built from the 4.9.7 and 5.3.1 formats.
      { text: 'the broker store no queue data, fix the request offset 118 to 0, Topic: TopicPay QueueId: 2 Consumer Group: GroupPay', fields: { status: 'NO_MESSAGE_IN_QUEUE', group: 'GroupPay', topic: 'TopicPay', queueId: 2, offset: 118, nextBeginOffset: 0 } },
      { text: 'the broker stores no queue data, fix the request offset 118 to 0, Topic: TopicPay QueueId: 2 Consumer Group: GroupPay', fields: { queueId: 2, offset: 118 } },
    ],
  },
  {
    id: 'offset-illegal/offset-moved',
    type: 'offset-illegal',
    keywords: ['PULL_OFFSET_MOVED:'],
    pattern: /PULL_OFFSET_MOVED:(?:correction offset|none correction)\. topic=(?<topic>[^,]*), groupId=(?<group>[^,]*), requestOffset=(?<off>-?\d+), (?:newOffset=(?<next>-?\d+), )?suggestBrokerId=(?<id>-?\d+)/,
    versions: 'all (4.x-5.x)',
    source: 'broker/processor/PullMessageProcessor (processRequest, PULL_OFFSET_MOVED)',
    // After one of the lines above: a master moves the consumer to newOffset (`correction`); a slave without offsetCheckInSlave leaves it (`none correction`).
    format: 'PULL_OFFSET_MOVED:correction offset. topic={}, groupId={}, requestOffset={}, newOffset={}, suggestBrokerId={}',
    args: ['topic', 'group', 'offset', 'nextBeginOffset', 'suggestBrokerId'],
    forms: {
      noneCorrection: { format: 'PULL_OFFSET_MOVED:none correction. topic={}, groupId={}, requestOffset={}, suggestBrokerId={}', args: ['topic', 'group', 'offset', 'suggestBrokerId'] },
    },
    fields: (g) => offsetIllegal('PULL_OFFSET_MOVED', { group: str(g.group), topic: str(g.topic), offset: num(g.off), next: num(g.next) }),
    samples: [
      // Built from the 4.9.7 formats.
      { text: 'PULL_OFFSET_MOVED:correction offset. topic=TopicPay, groupId=GroupPay, requestOffset=118, newOffset=2040, suggestBrokerId=0', fields: { status: 'PULL_OFFSET_MOVED', group: 'GroupPay', topic: 'TopicPay', offset: 118, nextBeginOffset: 2040 } },
      { text: 'PULL_OFFSET_MOVED:none correction. topic=TopicPay, groupId=GroupPay, requestOffset=118, suggestBrokerId=1', fields: { offset: 118, nextBeginOffset: null } },
    ],
  },

  // ---- offset-reset: an offset set other than by consumption ----
  {
    id: 'offset-reset/fix',
    type: 'offset-reset',
    keywords: ['fix the pull request offset, '],
    pattern: /fix the pull request offset, (?<pr>PullRequest \[.*)/,
    versions: 'all (4.x-5.x)',
    source: 'client/impl/consumer/DefaultMQPushConsumerImpl (pullMessage, OFFSET_ILLEGAL)',
    // 10 s after `the pull request offset illegal`: nextBeginOffset is persisted and the queue's cache dropped.
    format: 'fix the pull request offset, {}',
    args: ['pr'],
    fields: (g) => offsetReset('fix', { group: printedGroup(g.pr), queue: printedQueue(g.pr), offset: num(printed(g.pr, 'nextOffset')) }),
    // Built from the 4.9.7 format.
    samples: [{ text: `fix the pull request offset, PullRequest [consumerGroup=GroupPay, messageQueue=${MQ2}, nextOffset=2040]`, fields: { why: 'fix', group: 'GroupPay', topic: 'TopicPay', brokerName: 'broker-a', queueId: 2, offset: 2040 } }],
  },
  {
    id: 'offset-reset/first-pull-ahead',
    type: 'offset-reset',
    keywords: ['[NOTIFYME]the first time to pull message, but pull request offset larger'],
    pattern: /\[NOTIFYME\]the first time to pull message, but pull request offset larger than broker consume offset\. pullRequest: (?<pr>.*?) NewOffset: (?<off>-?\d+)/,
    versions: 'all (4.x-5.x)',
    source: 'client/impl/consumer/DefaultMQPushConsumerImpl (pullMessage, orderly)',
    // An orderly queue's first pull after it was taken: the broker's committed offset is behind this client's, so messages up to the client's offset are consumed again.
    format: '[NOTIFYME]the first time to pull message, but pull request offset larger than broker consume offset. pullRequest: {} NewOffset: {}',
    args: ['pr', 'offset'],
    fields: (g) => offsetReset('first-pull', { group: printedGroup(g.pr), queue: printedQueue(g.pr), offset: num(g.off) }),
    // Built from the 4.9.7 format.
    samples: [{ text: `[NOTIFYME]the first time to pull message, but pull request offset larger than broker consume offset. pullRequest: ${PR} NewOffset: 100`, fields: { why: 'first-pull', group: 'GroupPay', queueId: 2, offset: 100 } }],
  },
  {
    id: 'offset-reset/client-reset',
    type: 'offset-reset',
    keywords: ['invoke reset offset operation from broker'],
    pattern: /invoke reset offset operation from broker\. brokerAddr=(?<addr>[^,]*), topic=(?<topic>[^,]*), group=(?<group>[^,]*), timestamp=(?<ts>-?\d+)/,
    versions: 'all (4.x-5.x)',
    source: 'client/impl/ClientRemotingProcessor (resetOffset)',
    // An administrator's reset (mqadmin resetOffsetByTime) reaching this consumer: its queues of the topic restart at the offsets of that time.
    format: 'invoke reset offset operation from broker. brokerAddr={}, topic={}, group={}, timestamp={}',
    args: ['brokerAddr', 'topic', 'group', 'timestamp'],
    fields: (g) => offsetReset('reset', { group: str(g.group), topic: str(g.topic) }),
    // Built from the 4.9.7 format.
    samples: [{ text: 'invoke reset offset operation from broker. brokerAddr=10.0.0.1:10911, topic=TopicPay, group=GroupPay, timestamp=1733389200000', fields: { why: 'reset', group: 'GroupPay', topic: 'TopicPay', queueId: null, offset: null } }],
  },
  {
    id: 'offset-reset/broker-reset',
    type: 'offset-reset',
    keywords: ['[reset-offset] reset offset started by '],
    pattern: /\[reset-offset\] reset offset started by (?<addr>\S*)\. topic=(?<topic>[^,]*), group=(?<group>[^,]*), timestamp=(?<ts>-?\d+), isForce=(?<force>\w+)/,
    versions: 'all (4.x-5.x)',
    source: 'broker/processor/AdminBrokerProcessor (resetOffset)',
    format: '[reset-offset] reset offset started by {}. topic={}, group={}, timestamp={}, isForce={}',
    args: ['addr', 'topic', 'group', 'timestamp', 'isForce'],
    fields: (g) => offsetReset('reset', { group: str(g.group), topic: str(g.topic) }),
    // Built from the 4.9.7 format.
    samples: [{ text: '[reset-offset] reset offset started by 10.0.0.20:41234. topic=TopicPay, group=GroupPay, timestamp=1733389200000, isForce=true', fields: { why: 'reset', group: 'GroupPay', topic: 'TopicPay' } }],
  },

  // ---- offset-commit: the consumer's offsets sent to the broker (RemoteBrokerOffsetStore, every persistConsumerOffsetInterval: 5 s) ----
  {
    id: 'offset-commit/exception',
    type: 'offset-commit',
    keywords: ['updateConsumeOffsetToBroker exception, '],
    pattern: /updateConsumeOffsetToBroker exception, (?<mq>MessageQueue \[[^\]]*\])/,
    versions: 'all (4.x-5.x)',
    source: 'client/consumer/store/RemoteBrokerOffsetStore (persistAll, persist)',
    // The offset stays in the client and is sent again at the next persist; a consumer that stops now leaves the broker's offset behind (messages consumed again).
    format: 'updateConsumeOffsetToBroker exception, {}',
    args: ['mq'],
    causeFromNext: true,
    fields: (g) => offsetCommit(false, { mq: g.mq }),
    // Built from the 4.9.7 format.
    samples: [{ text: `updateConsumeOffsetToBroker exception, ${MQ2}`, fields: { ok: false, group: null, topic: 'TopicPay', brokerName: 'broker-a', queueId: 2, offset: null, cause: null } }],
  },
  {
    id: 'offset-commit/persist',
    type: 'offset-commit',
    keywords: [' updateConsumeOffsetToBroker '],
    pattern: /Group: (?<group>\S*) ClientId: (?<cid>\S*) updateConsumeOffsetToBroker (?<mq>MessageQueue \[[^\]]*\]) (?<off>-?\d+)/,
    versions: 'all (4.x-5.x `[persistAll]` and `[persist]`; 3.x without the bracket)',
    source: 'client/consumer/store/RemoteBrokerOffsetStore (persistAll, persist)',
    // Logged for every queue at every persist (INFO), moved or not: an offset that stays while messages arrive is a consumer that does not consume.
    format: '[persistAll] Group: {} ClientId: {} updateConsumeOffsetToBroker {} {}',
    args: ['group', 'clientId', 'mq', 'offset'],
    forms: {
      persist: { format: '[persist] Group: {} ClientId: {} updateConsumeOffsetToBroker {} {}', args: ['group', 'clientId', 'mq', 'offset'] },
    },
    fields: (g) => offsetCommit(true, { group: str(g.group), clientId: str(g.cid), mq: g.mq, offset: num(g.off) }),
    samples: [
      // Built from the 4.9.7 formats.
      { text: `[persistAll] Group: GroupPay ClientId: 10.0.0.9@12345 updateConsumeOffsetToBroker ${MQ2} 118`, fields: { ok: true, group: 'GroupPay', clientId: '10.0.0.9@12345', topic: 'TopicPay', brokerName: 'broker-a', queueId: 2, offset: 118, cause: null } },
      { text: `[persist] Group: GroupPay ClientId: 10.0.0.9@12345 updateConsumeOffsetToBroker ${MQ2} 119`, fields: { ok: true, offset: 119 } },
      // Real: alibaba/rocketmq#258 (3.x).
      { text: 'Group: oms_thirdpush_consumer_ios ClientId: 172.17.32.214@cd21e6f5-648f-4f5a-9af2-cab2c5c194db updateConsumeOffsetToBroker MessageQueue [topic=OnlineManageThirdPush_iOS, brokerName=broker-b, queueId=6] 318523', fields: { group: 'oms_thirdpush_consumer_ios', queueId: 6, offset: 318523 } },
    ],
  },
  {
    id: 'offset-commit/local-exception',
    type: 'offset-commit',
    keywords: ['persistAll consumer offset Exception, '],
    pattern: /persistAll consumer offset Exception, (?<path>\S*)/,
    versions: 'all (4.x-5.x)',
    source: 'client/consumer/store/LocalFileOffsetStore (persistAll)',
    // A broadcasting consumer keeps its offsets in a local file (offsets.json under rocketmq.client.localOffsetStoreDir): writing it failed.
    format: 'persistAll consumer offset Exception, {}',
    args: ['path'],
    causeFromNext: true,
    fields: () => offsetCommit(false),
    // Built from the 4.9.7 format.
    samples: [{ text: 'persistAll consumer offset Exception, /home/app/.rocketmq_offsets/10.0.0.9@12345/GroupBroadcast/offsets.json', fields: { ok: false, group: null, offset: null } }],
  },
  {
    id: 'offset-commit/push-exception',
    type: 'offset-commit',
    keywords: [' persistConsumerOffset exception'],
    pattern: /group: (?<group>\S*) persistConsumerOffset exception/,
    versions: 'all (4.x-5.x)',
    source: 'client/impl/consumer/DefaultMQPushConsumerImpl (persistConsumerOffset)',
    format: 'group: {} persistConsumerOffset exception',
    args: ['group'],
    causeFromNext: true,
    fields: (g) => offsetCommit(false, { group: str(g.group) }),
    // Built from the 4.9.7 format.
    samples: [{ text: 'group: GroupPay persistConsumerOffset exception', fields: { ok: false, group: 'GroupPay' } }],
  },
  // ---- consumer-changed: the broker's book of a group (ConsumerGroupInfo, ConsumerManager; broker.log) ----
  {
    id: 'consumer-changed/connected',
    type: 'consumer-changed',
    keywords: ['new consumer connected, group: '],
    pattern: /new consumer connected, group: (?<group>\S*) (?<type>\S*) (?<model>\S*) channel: (?<ch>.*)/,
    versions: 'all (4.x-5.x)',
    source: 'broker/client/ConsumerGroupInfo (updateChannel)',
    // A heartbeat on a channel the group did not have: the broker then tells the group's consumers to rebalance.
    format: 'new consumer connected, group: {} {} {} channel: {}',
    args: ['group', 'consumeType', 'messageModel', 'channel'],
    // The consumer's MessageModel (CLUSTERING, BROADCASTING) is the third argument.
    fields: (g) => consumerChanged('connected', str(g.group), { channel: g.ch, messageModel: str(g.model) }),
    samples: [
      {
        // Real: a 4.x broker.log line quoted in a public write-up (127.0.0.1, one broker and one consumer).
        text: 'new consumer connected, group: msgConsumer CONSUME_PASSIVELY CLUSTERING channel: ClientChannelInfo [channel=[id: 0x4d6d00e6, L:/127.0.0.1:10911 - R:/127.0.0.1:59928], clientId=127.0.0.1@8b8ac95a-9514-43b0-abfa-6b1dd9923b5e, language=JAVA, version=252, lastUpdateTimestamp=1548498275493]',
        fields: { change: 'connected', group: 'msgConsumer', clientId: '127.0.0.1@8b8ac95a-9514-43b0-abfa-6b1dd9923b5e', addr: '127.0.0.1:59928', topic: null, subString: null, messageModel: 'CLUSTERING', channelActive: true },
      },
      {
        // gen-20261220 (4.9.1 slave resuming from a hang): a heartbeat handled after its channel had closed.
        text: 'new consumer connected, group: CID_BILLING CONSUME_PASSIVELY CLUSTERING channel: ClientChannelInfo [channel=[id: 0x07a7bd7f, L:/10.213.0.26:10911 ! R:/10.213.0.43:40888], clientId=10.213.0.43@2010, language=JAVA, version=355, lastUpdateTimestamp=1796682727000]',
        fields: { change: 'connected', group: 'CID_BILLING', clientId: '10.213.0.43@2010', addr: '10.213.0.43:40888', channelActive: false },
      },
    ],
  },
  {
    id: 'consumer-changed/group-config',
    type: 'consumer-changed',
    keywords: ['create new subscription group, ', 'update subscription group config, old: '],
    // SubscriptionGroupConfig.toString: 4.x `SubscriptionGroupConfig [groupName=G, ..., retryMaxTimes=N,
    // ...]`, 5.x (MoreObjects) `SubscriptionGroupConfig{groupName=G, ..., retryMaxTimes=N, ...}`; of an
    // update, the new config's.
    pattern: /(?:create new subscription group, |update subscription group config, old: .*? new: )SubscriptionGroupConfig(?:\{| \[)groupName=(?<group>[^,}\]]*)(?:[^}\]]*?\bretryMaxTimes=(?<retry>\d+))?/,
    versions: 'all (4.x-5.x)',
    source: 'broker/subscription/SubscriptionGroupManager (updateSubscriptionGroupConfig: mqadmin updateSubGroup, or a group created on first use)',
    // The group's config as the broker keeps it; its retryMaxTimes is a 5.x gRPC consumer's retries
    // (the proxy gives the client retryMaxTimes + 1 attempts).
    format: 'create new subscription group, {}',
    args: ['config'],
    forms: { update: { format: 'update subscription group config, old: {} new: {}', args: ['old', 'config'] } },
    fields: (g) => consumerChanged('group-config', str(g.group), { retryMaxTimes: num(g.retry) }),
    samples: [
      {
        // Real: samples/lab/consumer-grpc-failures-dlq (5.3.3, after mqadmin updateSubGroup -r 2), cut after retryMaxTimes.
        text: '2026-12-07 10:22:05 INFO AdminBrokerThread_2 - create new subscription group, SubscriptionGroupConfig{groupName=CID_STOCK, consumeEnable=true, consumeFromMinEnable=false, consumeBroadcastEnable=false, consumeMessageOrderly=false, retryQueueNums=1, retryMaxTimes=2, groupRetryPolicy=GroupRetryPolicy{type=CUSTOMIZED, exponentialRetryPolicy=null, customizedRetryPolicy=null}, brokerId=0}',
        fields: { change: 'group-config', group: 'CID_STOCK', clientId: null, topic: null, retryMaxTimes: 2 },
      },
      {
        text: 'update subscription group config, old: SubscriptionGroupConfig{groupName=GroupPay, retryMaxTimes=16} new: SubscriptionGroupConfig{groupName=GroupPay, retryMaxTimes=3}',
        fields: { change: 'group-config', group: 'GroupPay', retryMaxTimes: 3 },
      },
      {
        // 4.9.4's log statement (SubscriptionGroupManager.updateSubscriptionGroupConfig) with the config
        // as 4.x prints it: the config text of a 4.9.0 broker's `load exist subscription group` line
        // (samples/generated/gen-710), the group renamed.
        text: '2026-12-05 05:35:07 INFO AdminBrokerThread_1 - create new subscription group, SubscriptionGroupConfig [groupName=GID_ORDER, consumeEnable=true, consumeFromMinEnable=true, consumeBroadcastEnable=true, retryQueueNums=1, retryMaxTimes=16, brokerId=0, whichBrokerWhenConsumeSlowly=1, notifyConsumerIdsChangedEnable=true]',
        fields: { change: 'group-config', group: 'GID_ORDER', retryMaxTimes: 16 },
      },
    ],
  },
  {
    id: 'consumer-changed/unregistered',
    type: 'consumer-changed',
    keywords: ['unregister a consumer['],
    pattern: /unregister a consumer\[(?<group>[^\]]*)\] from consumerGroupInfo (?<ch>.*)/,
    versions: 'all (4.x-5.x)',
    source: 'broker/client/ConsumerGroupInfo (unregisterChannel)',
    // The consumer unregistered itself (its shutdown, or unregisterConsumer).
    format: 'unregister a consumer[{}] from consumerGroupInfo {}',
    args: ['group', 'channel'],
    fields: (g) => consumerChanged('unregistered', str(g.group), { channel: g.ch }),
    // Built from the 4.9.7 format.
    samples: [{ text: 'unregister a consumer[GroupPay] from consumerGroupInfo ClientChannelInfo [channel=[id: 0x1f2e3d4c, L:/10.0.0.1:10911 - R:/10.0.0.9:53120], clientId=10.0.0.9@12345, language=JAVA, version=415, lastUpdateTimestamp=1733389211000]', fields: { change: 'unregistered', group: 'GroupPay', clientId: '10.0.0.9@12345', addr: '10.0.0.9:53120' } }],
  },
  {
    id: 'consumer-changed/channel-removed',
    type: 'consumer-changed',
    keywords: ['NETTY EVENT: remove not active channel['],
    // Only ConsumerGroupInfo prints `remove not active channel[`: a paste folded before the group still tells the change.
    pattern: /NETTY EVENT: remove not active channel\[(?<ch>.*?)(?:\] from ConsumerGroupInfo groupChannelTable, consumer group: (?<group>\S*))?\s*$/,
    versions: 'all (4.x-5.x)',
    source: 'broker/client/ConsumerGroupInfo (doChannelCloseEvent)',
    // The consumer's connection closed (its process stopped or the network broke).
    format: 'NETTY EVENT: remove not active channel[{}] from ConsumerGroupInfo groupChannelTable, consumer group: {}',
    args: ['channel', 'group'],
    fields: (g) => consumerChanged('channel-removed', str(g.group), { channel: g.ch }),
    // Built from the 4.9.7 format.
    samples: [{ text: 'NETTY EVENT: remove not active channel[ClientChannelInfo [channel=[id: 0x1f2e3d4c, L:/10.0.0.1:10911 ! R:/10.0.0.9:53120], clientId=10.0.0.9@12345, language=JAVA, version=415, lastUpdateTimestamp=1733389211000]] from ConsumerGroupInfo groupChannelTable, consumer group: GroupPay', fields: { change: 'channel-removed', group: 'GroupPay', clientId: '10.0.0.9@12345', addr: '10.0.0.9:53120' } }],
  },
  {
    id: 'consumer-changed/expired',
    type: 'consumer-changed',
    keywords: ['remove expired channel from ConsumerManager consumerTable. channel='],
    pattern: /SCAN: remove expired channel from ConsumerManager consumerTable\. channel=(?<ch>[^,]*), consumerGroup=(?<group>\S*)/,
    versions: 'all (4.x-5.x)',
    source: 'broker/client/ConsumerManager (scanNotActiveChannel, every 10 s from ClientHousekeepingService)',
    // No heartbeat from the consumer for channelExpiredTimeout (120 s): the broker closes its channel.
    format: 'SCAN: remove expired channel from ConsumerManager consumerTable. channel={}, consumerGroup={}',
    args: ['addr', 'group'],
    fields: (g) => consumerChanged('expired', str(g.group), { channel: g.ch }),
    // Built from the 4.9.7 format.
    samples: [{ text: 'SCAN: remove expired channel from ConsumerManager consumerTable. channel=10.0.0.9:53120, consumerGroup=GroupPay', fields: { change: 'expired', group: 'GroupPay', clientId: null, addr: '10.0.0.9:53120' } }],
  },
  {
    id: 'consumer-changed/expired-all-clear',
    type: 'consumer-changed',
    keywords: ['remove expired channel from ConsumerManager consumerTable, all clear'],
    pattern: /SCAN: remove expired channel from ConsumerManager consumerTable, all clear, consumerGroup=(?<group>\S*)/,
    versions: 'all (4.x-5.x)',
    source: 'broker/client/ConsumerManager (scanNotActiveChannel)',
    format: 'SCAN: remove expired channel from ConsumerManager consumerTable, all clear, consumerGroup={}',
    args: ['group'],
    fields: (g) => consumerChanged('group-removed', str(g.group)),
    // Built from the 4.9.7 format.
    samples: [{ text: 'SCAN: remove expired channel from ConsumerManager consumerTable, all clear, consumerGroup=GroupPay', fields: { change: 'group-removed', group: 'GroupPay', addr: null } }],
  },
  {
    id: 'consumer-changed/group-removed',
    type: 'consumer-changed',
    keywords: ['unregister consumer ok, no any connection, and remove consumer group'],
    pattern: /unregister consumer ok, no any connection, and remove consumer group, (?<group>\S*)/,
    versions: 'all (4.x-5.x)',
    source: 'broker/client/ConsumerManager (doChannelCloseEvent, unregisterConsumer)',
    // The group's last consumer left.
    format: 'unregister consumer ok, no any connection, and remove consumer group, {}',
    args: ['group'],
    fields: (g) => consumerChanged('group-removed', str(g.group)),
    // Built from the 4.9.7 format.
    samples: [{ text: 'unregister consumer ok, no any connection, and remove consumer group, GroupPay', fields: { change: 'group-removed', group: 'GroupPay' } }],
  },
  {
    id: 'consumer-changed/topic-added',
    type: 'consumer-changed',
    keywords: ['subscription changed, add new topic, group: '],
    pattern: /subscription changed, add new topic, group: (?<group>\S*) (?<sub>SubscriptionData \[.*)/,
    versions: 'all (4.x-5.x)',
    source: 'broker/client/ConsumerGroupInfo (updateSubscription)',
    format: 'subscription changed, add new topic, group: {} {}',
    args: ['group', 'sub'],
    fields: (g) => consumerChanged('topic-added', str(g.group), subscription(g.sub)),
    // Built from the 4.9.7 format (SubscriptionData.toString).
    samples: [{ text: 'subscription changed, add new topic, group: GroupPay SubscriptionData [classFilterMode=false, topic=TopicPay, subString=TagA || TagB, tagsSet=[TagA, TagB], codeSet=[2598919, 2598920], subVersion=1733389211000, expressionType=TAG]', fields: { change: 'topic-added', group: 'GroupPay', topic: 'TopicPay', subString: 'TagA || TagB' } }],
  },
  {
    id: 'consumer-changed/subscription-changed',
    type: 'consumer-changed',
    keywords: ['subscription changed, group: '],
    // A paste cut before NEW still names the group and the topic.
    pattern: /subscription changed, group: (?<group>\S*) OLD: (?<old>SubscriptionData \[.*?)(?:\] NEW: (?<sub>SubscriptionData \[.*))?\s*$/,
    versions: 'all (4.x-5.x)',
    source: 'broker/client/ConsumerGroupInfo (updateSubscription)',
    // A heartbeat with a newer subVersion for a topic: when the group's instances subscribe differently, this repeats as each one's heartbeat arrives.
    // The version alone also changes (subString the same): a push consumer raises it after every rebalance that changes its queues
    // (RebalancePushImpl.messageQueueChanged, 4.x-5.x) and sends a heartbeat.
    format: 'subscription changed, group: {} OLD: {} NEW: {}',
    args: ['group', 'old', 'sub'],
    fields: (g) => consumerChanged('subscription-changed', str(g.group), { topic: subscription(g.sub ?? g.old).topic, subString: subscription(g.sub).subString, oldSubString: subscription(g.old).subString }),
    // Built from the 4.9.7 format.
    samples: [
      {
        text: 'subscription changed, group: GroupPay OLD: SubscriptionData [classFilterMode=false, topic=TopicPay, subString=TagA, tagsSet=[TagA], codeSet=[2598919], subVersion=1733389211000, expressionType=TAG] NEW: SubscriptionData [classFilterMode=false, topic=TopicPay, subString=*, tagsSet=[], codeSet=[], subVersion=1733389299000, expressionType=TAG]',
        fields: { change: 'subscription-changed', group: 'GroupPay', topic: 'TopicPay', subString: '*', oldSubString: 'TagA' },
      },
    ],
  },
  {
    id: 'consumer-changed/topic-removed',
    type: 'consumer-changed',
    keywords: [' remove topic '],
    pattern: /subscription changed, group: (?<group>\S*) remove topic (?<topic>\S*) (?<sub>SubscriptionData \[.*)/,
    versions: 'all (4.x-5.x)',
    source: 'broker/client/ConsumerGroupInfo (updateSubscription)',
    format: 'subscription changed, group: {} remove topic {} {}',
    args: ['group', 'topic', 'sub'],
    fields: (g) => consumerChanged('topic-removed', str(g.group), { topic: str(g.topic), subString: subscription(g.sub).subString }),
    // Built from the 4.9.7 format.
    samples: [{ text: 'subscription changed, group: GroupPay remove topic TopicRefund SubscriptionData [classFilterMode=false, topic=TopicRefund, subString=*, tagsSet=[], codeSet=[], subVersion=1733389211000, expressionType=TAG]', fields: { change: 'topic-removed', group: 'GroupPay', topic: 'TopicRefund', subString: '*' } }],
  },
];

/**
 * The client's consumer wordings (the entries logged by client classes): a log in the servers'
 * layout that prints one of them is a client's (a lite pull example run in `main` reads like a
 * broker.log otherwise). The parser's kind test reads it.
 */
export const CONSUMER_CLIENT_WORDS: RegExp = new RegExp(
  [...new Set(CONSUMER_ENTRIES.filter((e) => e.source.startsWith('client/')).flatMap((e) => e.keywords))].map((k) => k.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'),
);
