// Consumer-side catalogue entries of the clients that are not the Java remoting client:
// rocketmq-client-go 2.x, rocketmq-client-cpp 1.x/2.x and its re_dev branch (rocketmq-client-python
// 2.x and the Node.js wrappers log through the C++ client, so these entries read their logs too; the
// Python client adds one wording of its own),
// the 5.x gRPC clients of rocketmq-clients (Java, Go, C++, Rust, Node.js) and ali-ons (Node.js, Aliyun ONS).
// Their wordings are their own; they map to the consumer event types of the Java client
// (docs/events.md). Each entry names the repository, file and function, and the versions read.
// Spread at the end of catalogue-clients.ts's CLIENT_ENTRIES, so a Java wording always wins.

import type { CatalogueEntry } from './catalogue-entry.js';
import { eventFields } from './event-fields.js';
import { normAddr, num, str } from './catalogue-data.js';
import { printedQueue, printedQueues } from './catalogue-consumer.js';

// ---------------------------------------------------------------------------------------------
// What these clients print around their messages

/** A logrus field `key=value` or `key="value"` (rocketmq-client-go 2.x rlog), value up to a space or `"`. */
function field(text: string, key: string): string | null {
  const m = new RegExp(`(?:^|[\\s,{])${key}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^\\s"]*))`).exec(text);
  if (m === null) return null;
  return str(m[1] !== undefined ? m[1].replace(/\\"/g, '"') : m[2]);
}

/** The `MsgId=` of each message a Go 2.x line prints (primitive.MessageExt.String(), v2.0.0-v2.1.2). */
function goMsgIds(text: string): string[] {
  return [...text.matchAll(/\bMsgId=([0-9A-Fa-f]+)/g)].map((m) => m[1]);
}

/** `ReconsumeTimes=` of the first message a Go 2.x line prints. */
const goReconsumeTimes = (text: string) => num(/\bReconsumeTimes=(\d+)/.exec(text)?.[1]);

/** The `underlayError="..."` of a Go 2.x line: the error text. */
const underlay = (text: string) => field(text, 'underlayError');

/** Go 2.x PullRequest.String(): `[ConsumerGroup: G, Topic: T, MessageQueue: brokerName=B, queueId=N, nextOffset=O]`. */
function goPullRequest(text: string): { group: string | null; topic: string | null; brokerName: string | null; queueId: number | null; offset: number | null } {
  const m = /\[ConsumerGroup: ([^,\]]*), Topic: ([^,\]]*), MessageQueue: brokerName=([^,\]]*), queueId=(-?\d+), nextOffset=(-?\d+)\]/.exec(text);
  if (m === null) return { group: null, topic: null, brokerName: null, queueId: null, offset: null };
  return { group: str(m[1]), topic: str(m[2]), brokerName: str(m[3]), queueId: num(m[4]), offset: num(m[5]) };
}

/**
 * A 5.x queue as rocketmq-clients Java prints MessageQueueImpl#toString (`brokerName.topic.queueId`,
 * java-5.0.x); another client's form (Go's protobuf text) gives nulls. A push consumer's queue -1
 * (`broker-a.TopicOrder.-1`) is the proxy's assignment of a whole broker to a pop consumer
 * (5.x proxy, ClusterMode/LocalMode QueryAssignment: pop from any queue): no queue, so queueId null.
 */
function grpcQueue(text: string): { topic: string | null; brokerName: string | null; queueId: number | null } {
  const m = /\bmq=([^\s,]+)\.([^.\s,]+)\.(-?\d+)(?=[,\s]|$)/.exec(text);
  if (m === null) return { topic: null, brokerName: null, queueId: null };
  const q = num(m[3]);
  return { topic: str(m[2]), brokerName: str(m[1]), queueId: q !== null && q >= 0 ? q : null };
}

/**
 * A queue as the C++ 5.x client names it (simpleNameOf, cpp-5.1.x: `namespace@topic@queueId@broker`);
 * the earlier `namespaceTopic-queueId-broker` (cpp-5.0.x) cannot be split where names hold `-`, so it
 * gives nulls.
 */
function cpp5Queue(text: string): { topic: string | null; brokerName: string | null; queueId: number | null } {
  const m = /(?:^|[\s=])[^@\s]*@([^@\s]+)@(\d+)@([^\s,:]+)/.exec(text);
  if (m === null) return { topic: null, brokerName: null, queueId: null };
  return { topic: str(m[1]), brokerName: str(m[3].replace(/\.$/, '')), queueId: num(m[2]) };
}

/** `key=value` of a 5.x message (up to `,` or a space). */
function grpcKv(text: string, key: string): string | null {
  const m = new RegExp(`\\b${key}=([^,\\s]*)`).exec(text);
  return m === null ? null : str(m[1]);
}

/** The apache.rocketmq.v2.Code names a 5.x client prints as `response-code=N` (rocketmq-apis definition.proto). */
const GRPC_CODES: Readonly<Record<number, string>> = {
  40401: 'MESSAGE_NOT_FOUND',
  40402: 'TOPIC_NOT_FOUND',
  40403: 'CONSUMER_GROUP_NOT_FOUND',
  40800: 'REQUEST_TIMEOUT',
  42900: 'TOO_MANY_REQUESTS',
  50000: 'INTERNAL_ERROR',
  50001: 'INTERNAL_SERVER_ERROR',
  50400: 'PROXY_TIMEOUT',
};

const MIB = 1024 * 1024;

export const CLIENT_CONSUMER_ENTRIES: CatalogueEntry[] = [
  // ---- rocketmq-client-go 2.x (logrus: the message, then its fields) -------------------------
  {
    id: 'consume-failed/go-concurrently-error',
    type: 'consume-failed',
    keywords: ['consumeMessageCurrently error', 'consumeMessageConcurrently panic', 'consumeMessage orderly error'],
    pattern: /consumeMessage(?:Currently error|Concurrently panic| orderly error)/,
    versions: 'rocketmq-client-go 2.1.2',
    source: 'rocketmq-client-go consumer/push_consumer.go (pushConsumer.consumeMessageConcurrently, consumeMessageOrderly: the listener returned an error or panicked)',
    format: 'consumeMessageCurrently error',
    args: [],
    forms: {
      panic: { format: 'consumeMessageConcurrently panic', args: [] },
      orderly: { format: 'consumeMessage orderly error', args: [] },
    },
    fields: (_g, text) => {
      const q = printedQueue(text);
      return eventFields('consume-failed', {
        returnType: 'EXCEPTION',
        group: field(text, 'consumerGroup'),
        ...q,
        msgIds: goMsgIds(text),
        reconsumeTimes: goReconsumeTimes(text),
        cause: underlay(text),
      });
    },
    versionHint: 'go',
    samples: [
      {
        text: 'time="2021-03-09T10:00:01+08:00" level=warning msg="consumeMessageCurrently error" MessageQueue="MessageQueue [topic=TopicTest, brokerName=broker-a, queueId=1]" consumerGroup=GID_TEST messages="[[Message=[topic=TopicTest, body=hi, Flag=0, properties=map[], TransactionId=], MsgId=0A0000090000A9F0000000000000001A, OffsetMsgId=0A0000090000A9F0000000000000001A,QueueId=1, StoreSize=180, QueueOffset=26, SysFlag=0, BornTimestamp=1615255200000, BornHost=10.0.0.9:50112, StoreTimestamp=1615255200003, StoreHost=10.0.0.5:10911, CommitLogOffset=26000, BodyCRC=1, ReconsumeTimes=3, PreparedTransactionOffset=0]]" underlayError="db down"',
        fields: { returnType: 'EXCEPTION', group: 'GID_TEST', topic: 'TopicTest', brokerName: 'broker-a', queueId: 1, msgIds: ['0A0000090000A9F0000000000000001A'], reconsumeTimes: 3, cause: 'db down' },
      },
      {
        text: 'ERRO[0042] consumeMessageConcurrently panic              consumerGroup=GID_TEST underlayError="runtime error: index out of range [3] with length 3"',
        fields: { returnType: 'EXCEPTION', group: 'GID_TEST', topic: null, cause: 'runtime error: index out of range [3] with length 3' },
      },
      {
        text: 'WARN[0007] consumeMessage orderly error                   MessageQueue="MessageQueue [topic=ADX, brokerName=broker-a, queueId=1]" consumerGroup=GID_ADX01 messages="[]" underlayError="es down"',
        fields: { returnType: 'EXCEPTION', group: 'GID_ADX01', topic: 'ADX', queueId: 1, cause: 'es down' },
      },
    ],
  },
  {
    id: 'consume-failed/go-concurrently-timeout',
    type: 'consume-failed',
    keywords: ['consumeMessageCurrently time out'],
    pattern: /consumeMessageCurrently time out/,
    versions: 'rocketmq-client-go 2.1.2',
    source: 'rocketmq-client-go consumer/push_consumer.go (pushConsumer.consumeMessageConcurrently: the listener took longer than ConsumeTimeout)',
    format: 'consumeMessageCurrently time out',
    args: [],
    fields: (_g, text) =>
      eventFields('consume-failed', { returnType: 'TIME_OUT', group: field(text, 'consumerGroup'), ...printedQueue(text), msgIds: goMsgIds(text), reconsumeTimes: goReconsumeTimes(text) }),
    versionHint: 'go',
    samples: [
      {
        text: 'WARN[0901] consumeMessageCurrently time out               MessageQueue="MessageQueue [topic=TopicTest, brokerName=broker-a, queueId=3]" consumerGroup=GID_TEST messages="[]"',
        fields: { returnType: 'TIME_OUT', group: 'GID_TEST', queueId: 3 },
      },
    ],
  },
  {
    id: 'consume-failed/go-orderly-not-ok',
    type: 'consume-failed',
    keywords: ['consumeMessage Orderly return not OK'],
    // Without the Java client's `, Group:` (ConsumeMessageOrderlyService), which its own entry reads.
    pattern: /consumeMessage Orderly return not OK(?!, Group:)/,
    versions: 'rocketmq-client-go 2.0.0-2.1.2',
    source: 'rocketmq-client-go consumer/push_consumer.go (pushConsumer.consumeMessageOrderly: the listener returned Rollback or SuspendCurrentQueueAMoment)',
    format: 'consumeMessage Orderly return not OK',
    args: [],
    fields: (_g, text) =>
      eventFields('consume-failed', { returnType: 'FAILED', group: field(text, 'consumerGroup'), ...printedQueue(text), msgIds: goMsgIds(text), reconsumeTimes: goReconsumeTimes(text) }),
    versionHint: 'go',
    samples: [
      {
        text: 'time="2022-01-05T10:00:01+08:00" level=warning msg="consumeMessage Orderly return not OK" MessageQueue="MessageQueue [topic=ADX, brokerName=broker-a, queueId=1]" consumerGroup=GID_ADX01 messages="[]"',
        fields: { returnType: 'FAILED', group: 'GID_ADX01', topic: 'ADX', queueId: 1 },
      },
    ],
  },
  {
    id: 'pull-failed/go-pull-error',
    type: 'pull-failed',
    keywords: ['pull message from broker error'],
    pattern: /pull message from broker error/,
    versions: 'rocketmq-client-go 2.0.0-2.1.2',
    source: 'rocketmq-client-go consumer/push_consumer.go (pushConsumer.pullMessage), consumer/pull_consumer.go (defaultPullConsumer.pullMessage)',
    format: 'pull message from broker error',
    args: [],
    forms: { pull: { format: 'defaultPullConsumer pull message from broker error', args: [] } },
    fields: (_g, text) => {
      // A broker's refusal (`unknown Response Code: 24, remark: the consumer's subscription not exist`)
      // carries the Java client's remark, which the Java entries read first; what is left is no refusal.
      const cause = underlay(text);
      return eventFields('pull-failed', { reason: null, code: num(/Response Code: (\d+)/.exec(cause ?? '')?.[1]), addr: normAddr(field(text, 'broker')), cause });
    },
    versionHint: 'go',
    samples: [
      {
        text: 'WARN[0061] pull message from broker error                broker="10.0.0.5:10911" underlayError="request timeout"',
        fields: { reason: null, code: null, addr: '10.0.0.5:10911', cause: 'request timeout' },
      },
      {
        text: 'time="2021-06-01T10:00:01+08:00" level=warning msg="defaultPullConsumer pull message from broker error" broker="10.0.0.5:10911" underlayError="request timeout"',
        fields: { reason: null, addr: '10.0.0.5:10911' },
      },
    ],
  },
  {
    id: 'pull-failed/go-broker-timeout',
    type: 'pull-failed',
    keywords: ['pull broker timeout'],
    pattern: /pull broker timeout/,
    versions: 'rocketmq-client-go 2.0.0-2.1.2',
    source: 'rocketmq-client-go consumer/push_consumer.go (pushConsumer.pullMessage: PullBrokerTimeout, the broker held the pull past its deadline)',
    format: 'pull broker timeout',
    args: [],
    fields: (_g, text) => eventFields('pull-failed', { reason: null, addr: normAddr(field(text, 'broker')), cause: 'pull broker timeout' }),
    versionHint: 'go',
    samples: [{ text: 'time="2023-03-20T22:45:06+08:00" level=warning msg="pull broker timeout" broker="10.0.0.5:10911"', fields: { reason: null, addr: '10.0.0.5:10911' } }],
  },
  {
    id: 'flow-control/go',
    type: 'flow-control',
    keywords: ['exceeds the threshold, so do flow control', "messages span too long, so do flow control"],
    // Go prints the thresholds as fields (`PullThresholdForQueue=1024`), not in the message as Java does.
    pattern: /the cached message (?<what>count|size) exceeds the threshold, so do flow control|the queue's messages span too long, so do flow control/,
    versions: 'rocketmq-client-go 2.0.0-2.1.2',
    source: 'rocketmq-client-go consumer/push_consumer.go (pushConsumer.pullMessage: PullThresholdForQueue, PullThresholdSizeForQueue, ConsumeConcurrentlyMaxSpan)',
    format: 'the cached message count exceeds the threshold, so do flow control',
    args: [],
    forms: {
      size: { format: 'the cached message size exceeds the threshold, so do flow control', args: [] },
      span: { format: "the queue's messages span too long, so do flow control", args: [] },
    },
    fields: (g, text) => {
      const limit = g.what ?? 'span';
      const pr = goPullRequest(text);
      const threshold = limit === 'count' ? field(text, 'PullThresholdForQueue') : limit === 'size' ? field(text, 'PullThresholdSizeForQueue') : null;
      return eventFields('flow-control', {
        limit,
        threshold: num(threshold),
        // `count` prints the queue's atomic counter; only a plain number is read.
        count: num(/^\d+$/.exec(field(text, 'count') ?? '')?.[0]),
        sizeMiB: num(field(text, 'size\\(MiB\\)')),
        maxSpan: num(field(text, 'maxSpan')),
        group: pr.group,
        topic: pr.topic,
        brokerName: pr.brokerName,
        queueId: pr.queueId,
        flowControlTimes: num(field(text, 'flowControlTimes')),
      });
    },
    versionHint: 'go',
    samples: [
      {
        text: 'WARN[0030] the cached message count exceeds the threshold, so do flow control  PullRequest="[ConsumerGroup: GID_TEST, Topic: TopicTest, MessageQueue: brokerName=broker-a, queueId=2, nextOffset=1200]" PullThresholdForQueue=1024 count=1025 flowControlTimes=0 maxOffset=1199 minOffset=175 size(MiB)=0',
        fields: { limit: 'count', threshold: 1024, count: 1025, sizeMiB: 0, group: 'GID_TEST', topic: 'TopicTest', brokerName: 'broker-a', queueId: 2, flowControlTimes: 0 },
      },
      {
        text: 'time="2022-05-07T10:00:01+08:00" level=warning msg="the queue\'s messages span too long, so do flow control" ConsumeConcurrentlyMaxSpan=2000 PullRequest="[ConsumerGroup: GID_TEST, Topic: TopicTest, MessageQueue: brokerName=broker-a, queueId=0, nextOffset=9000]" flowControlTimes=1000 maxOffset=8999 maxSpan=2100 minOffset=6899',
        fields: { limit: 'span', threshold: null, maxSpan: 2100, queueId: 0, flowControlTimes: 1000 },
      },
      {
        text: 'WARN[0031] the cached message size exceeds the threshold, so do flow control  PullRequest="[ConsumerGroup: GID_TEST, Topic: TopicTest, MessageQueue: brokerName=broker-a, queueId=1, nextOffset=300]" PullThresholdSizeForQueue=100 count=299 flowControlTimes=2000 maxOffset=299 minOffset=0 size(MiB)=101',
        fields: { limit: 'size', threshold: 100, count: 299, sizeMiB: 101, queueId: 1 },
      },
    ],
  },
  {
    id: 'rebalance/go-topic-not-exist',
    type: 'rebalance',
    keywords: ['do balance in group failed, the topic does not exist'],
    pattern: /do balance in group failed, the topic does not exist/,
    versions: 'rocketmq-client-go 2.0.0-2.1.2',
    source: 'rocketmq-client-go consumer/consumer.go (defaultConsumer.doBalance: no route for a subscribed topic)',
    format: 'do balance in group failed, the topic does not exist',
    args: [],
    fields: (_g, text) => eventFields('rebalance', { action: 'topic-not-exist', group: field(text, 'consumerGroup'), topic: field(text, 'topic') }),
    versionHint: 'go',
    samples: [
      {
        text: 'time="2022-08-18T15:37:55+08:00" level=warning msg="do balance in group failed, the topic does not exist" consumerGroup=slave-test topic="%RETRY%slave-test"',
        fields: { action: 'topic-not-exist', group: 'slave-test', topic: '%RETRY%slave-test', queueId: null },
      },
    ],
  },
  {
    id: 'rebalance/go-no-consumer-ids',
    type: 'rebalance',
    keywords: ['do balance in group failed, get consumer id list failed'],
    pattern: /do balance in group failed, get consumer id list failed/,
    versions: 'rocketmq-client-go 2.0.0-2.1.2',
    source: "rocketmq-client-go consumer/consumer.go (defaultConsumer.doBalance: the broker gave no list of the group's consumers)",
    format: 'do balance in group failed, get consumer id list failed',
    args: [],
    fields: (_g, text) => eventFields('rebalance', { action: 'no-consumer-ids', group: field(text, 'consumerGroup'), topic: field(text, 'topic') }),
    versionHint: 'go',
    samples: [
      { text: 'WARN[0020] do balance in group failed, get consumer id list failed  consumerGroup=GID_TEST topic=TopicTest', fields: { action: 'no-consumer-ids', group: 'GID_TEST', topic: 'TopicTest' } },
    ],
  },
  {
    id: 'rebalance/go-result',
    type: 'rebalance',
    keywords: ['MessageQueue do balance done'],
    pattern: /MessageQueue do balance done/,
    versions: 'rocketmq-client-go 2.0.0-2.1.2',
    source: 'rocketmq-client-go consumer/consumer.go (defaultConsumer.doBalance, clustering: the allocation changed)',
    format: 'MessageQueue do balance done',
    args: [],
    fields: (_g, text) => {
      const set = field(text, 'rebalanceResultSet');
      return eventFields('rebalance', {
        action: 'result',
        group: field(text, 'consumerGroup'),
        topic: field(text, 'topic'),
        clientId: field(text, 'clientID'),
        mqAllSize: num(field(text, 'mqAllSize')),
        cidAllSize: num(field(text, 'cidAllSize')),
        queues: set === null ? null : printedQueues(set),
      });
    },
    versionHint: 'go',
    samples: [
      {
        text: 'INFO[0003] MessageQueue do balance done                 cidAllSize=2 clientID=10.0.0.9@8042 consumerGroup=GID_TEST mqAllSize=4 rebalanceResultSet="[MessageQueue [topic=TopicTest, brokerName=broker-a, queueId=0] MessageQueue [topic=TopicTest, brokerName=broker-a, queueId=1]]" rebalanceResultSize=2 topic=TopicTest',
        fields: { action: 'result', group: 'GID_TEST', topic: 'TopicTest', clientId: '10.0.0.9@8042', mqAllSize: 4, cidAllSize: 2, queues: ['broker-a:0', 'broker-a:1'] },
      },
    ],
  },
  {
    id: 'rebalance/go-remove',
    type: 'rebalance',
    keywords: ['remove unnecessary mq when updateProcessQueueTable', 'remove unnecessary mq because'],
    pattern: /remove unnecessary mq (?:when updateProcessQueueTable|because pull was expired|because unsubscribed)/,
    versions: 'rocketmq-client-go 2.0.0-2.1.2 (pull expired: 2.1.1 on; unsubscribed: 2.1.2)',
    source: 'rocketmq-client-go consumer/consumer.go (defaultConsumer.updateProcessQueueTable, doBalance)',
    format: 'remove unnecessary mq when updateProcessQueueTable',
    args: [],
    forms: {
      expired: { format: 'remove unnecessary mq because pull was expired, prepare to fix it', args: [] },
      unsubscribed: { format: 'remove unnecessary mq because unsubscribed', args: [] },
    },
    fields: (_g, text) => eventFields('rebalance', { action: 'remove', group: field(text, 'consumerGroup'), ...printedQueue(text) }),
    versionHint: 'go',
    samples: [
      {
        text: 'WARN[0120] remove unnecessary mq because pull was expired, prepare to fix it  MessageQueue="MessageQueue [topic=TopicTest, brokerName=broker-a, queueId=2]" consumerGroup=GID_TEST',
        fields: { action: 'remove', group: 'GID_TEST', topic: 'TopicTest', brokerName: 'broker-a', queueId: 2 },
      },
      {
        text: 'INFO[0020] remove unnecessary mq when updateProcessQueueTable  MessageQueue="MessageQueue [topic=TopicTest, brokerName=broker-b, queueId=0]" consumerGroup=GID_TEST',
        fields: { action: 'remove', brokerName: 'broker-b', queueId: 0 },
      },
      {
        text: 'INFO[0040] remove unnecessary mq because unsubscribed     MessageQueue="MessageQueue [topic=OldTopic, brokerName=broker-a, queueId=3]" consumerGroup=GID_TEST',
        fields: { action: 'remove', topic: 'OldTopic', queueId: 3 },
      },
    ],
  },
  {
    id: 'lock-failed/go-add-mq',
    type: 'lock-failed',
    keywords: ['add a new mq failed, because lock failed'],
    pattern: /do defaultConsumer, add a new mq failed, because lock failed/,
    versions: 'rocketmq-client-go 2.0.0-2.1.2',
    source: 'rocketmq-client-go consumer/consumer.go (defaultConsumer.updateProcessQueueTable: orderly, the broker refused the lock)',
    format: 'do defaultConsumer, add a new mq failed, because lock failed',
    args: [],
    fields: (_g, text) => eventFields('lock-failed', { what: 'add-mq', group: field(text, 'consumerGroup'), ...printedQueue(text) }),
    versionHint: 'go',
    samples: [
      {
        text: 'WARN[0000] do defaultConsumer, add a new mq failed, because lock failed  MessageQueue="MessageQueue [topic=ADX, brokerName=broker-a, queueId=1]" consumerGroup=GID_ADX01',
        fields: { what: 'add-mq', group: 'GID_ADX01', topic: 'ADX', brokerName: 'broker-a', queueId: 1 },
      },
    ],
  },
  {
    id: 'rebalance/go-add-failed',
    type: 'rebalance',
    keywords: ['do defaultConsumer, add a new mq failed'],
    // Not the lock's (the entry above): the offset to start from could not be computed.
    pattern: /do defaultConsumer, add a new mq failed(?!, because lock failed)/,
    versions: 'rocketmq-client-go 2.0.0-2.1.2',
    source: 'rocketmq-client-go consumer/consumer.go (defaultConsumer.updateProcessQueueTable: computePullFromWhere failed)',
    format: 'do defaultConsumer, add a new mq failed',
    args: [],
    fields: (_g, text) => eventFields('rebalance', { action: 'exception', group: field(text, 'consumerGroup'), ...printedQueue(text) }),
    versionHint: 'go',
    samples: [
      {
        text: 'time="2022-08-18T15:37:55+08:00" level=warning msg="do defaultConsumer, add a new mq failed" MessageQueue="MessageQueue [topic=slave-test, brokerName=rocketmq-broker-0, queueId=2]" consumerGroup=slave-test',
        fields: { action: 'exception', group: 'slave-test', topic: 'slave-test', brokerName: 'rocketmq-broker-0', queueId: 2 },
      },
    ],
  },
  {
    id: 'lock-failed/go-lock',
    type: 'lock-failed',
    keywords: ['lock MessageQueue'],
    // `lock MessageQueue` is logged at INFO with lockOK=false (at DEBUG with lockOK=true, which is
    // no failure and not read); `lock MessageQueue to broker invoke error` is the call's failure.
    pattern: /(?<!un)lock MessageQueue(?: to broker invoke(?: oneway)? error|(?![^\n]*lockOK=true))/,
    versions: 'rocketmq-client-go 2.0.0-2.1.2',
    source: 'rocketmq-client-go consumer/consumer.go (defaultConsumer.lock, doLock)',
    format: 'lock MessageQueue',
    args: [],
    forms: { invoke: { format: 'lock MessageQueue to broker invoke error', args: [] } },
    fields: (_g, text) => eventFields('lock-failed', { what: 'lock', group: field(text, 'consumerGroup'), ...printedQueue(text), cause: underlay(text) }),
    versionHint: 'go',
    samples: [
      {
        text: 'INFO[0000] lock MessageQueue                             MessageQueue="MessageQueue [topic=ADX, brokerName=broker-a, queueId=1]" consumerGroup=GID_ADX01 lockOK=false',
        fields: { what: 'lock', group: 'GID_ADX01', topic: 'ADX', queueId: 1, cause: null },
      },
      {
        text: 'ERRO[0020] lock MessageQueue to broker invoke error     broker="10.0.0.5:10911" underlayError="request timeout"',
        fields: { what: 'lock', cause: 'request timeout' },
      },
    ],
  },
  {
    id: 'lock-failed/go-consume-later',
    type: 'lock-failed',
    keywords: ['the message queue not locked, so consume later', 'the message queue lock expired, so consume later'],
    // Java's ConsumeMessageOrderlyService prints the same words followed by `, {}` (its own entry).
    pattern: /the message queue (?:(?<not>not locked)|lock expired), so consume later(?!,)/,
    versions: 'rocketmq-client-go 2.0.0-2.1.2',
    source: 'rocketmq-client-go consumer/push_consumer.go (pushConsumer.consumeMessageOrderly, clustering)',
    format: 'the message queue not locked, so consume later',
    args: [],
    forms: { expired: { format: 'the message queue lock expired, so consume later', args: [] } },
    fields: (g, text) => eventFields('lock-failed', { what: g.not ? 'not-locked' : 'lock-expired', ...printedQueue(text) }),
    versionHint: 'go',
    samples: [
      {
        text: 'time="2023-07-21T10:00:01+08:00" level=warning msg="the message queue lock expired, so consume later" MessageQueue="MessageQueue [topic=ADX, brokerName=broker-a, queueId=3]"',
        fields: { what: 'lock-expired', topic: 'ADX', queueId: 3 },
      },
      { text: 'WARN[0005] the message queue not locked, so consume later  MessageQueue="MessageQueue [topic=ADX, brokerName=broker-a, queueId=0]"', fields: { what: 'not-locked', queueId: 0 } },
    ],
  },
  {
    id: 'offset-illegal/go',
    type: 'offset-illegal',
    keywords: ['the pull request offset illegal'],
    // Go: `PullRequest="[ConsumerGroup: ...]" result="..."` fields, not Java's `, PullRequest [consumerGroup=...]`.
    pattern: /the pull request offset illegal(?!,)/,
    versions: 'rocketmq-client-go 2.0.0-2.1.2',
    source: 'rocketmq-client-go consumer/push_consumer.go (pushConsumer.pullMessage: PullOffsetIllegal), consumer/pull_consumer.go',
    format: 'the pull request offset illegal',
    args: [],
    fields: (_g, text) => {
      const pr = goPullRequest(text);
      return eventFields('offset-illegal', {
        status: 'OFFSET_ILLEGAL',
        group: pr.group,
        topic: pr.topic,
        brokerName: pr.brokerName,
        queueId: pr.queueId,
        offset: pr.offset,
        nextBeginOffset: num(/\bNextBeginOffset[=:]\s*(-?\d+)/i.exec(text)?.[1]),
        minOffset: num(/\bminOffset[=:]\s*(-?\d+)/i.exec(text)?.[1]),
        maxOffset: num(/\bmaxOffset[=:]\s*(-?\d+)/i.exec(text)?.[1]),
      });
    },
    versionHint: 'go',
    samples: [
      {
        text: 'WARN[0300] the pull request offset illegal                PullRequest="[ConsumerGroup: GID_TEST, Topic: TopicTest, MessageQueue: brokerName=broker-a, queueId=2, nextOffset=15619]" result="PullResult [PullStatus: 3, NextBeginOffset: 0, MinOffset: 0, MaxOffset: 7358]"',
        fields: { status: 'OFFSET_ILLEGAL', group: 'GID_TEST', topic: 'TopicTest', queueId: 2, offset: 15619, nextBeginOffset: 0, minOffset: 0, maxOffset: 7358 },
      },
    ],
  },
  {
    id: 'offset-commit/go',
    type: 'offset-commit',
    keywords: ['update offset to broker error', 'update offset to broker success'],
    pattern: /update offset to broker (?<r>error|success)/,
    versions: 'rocketmq-client-go 2.0.0-2.1.2',
    source: 'rocketmq-client-go consumer/offset_store.go (remoteBrokerOffsetStore.persist: every 5 s, for each queue held)',
    format: 'update offset to broker error',
    args: [],
    forms: { success: { format: 'update offset to broker success', args: [] } },
    fields: (g, text) =>
      eventFields('offset-commit', { ok: g.r === 'success', group: field(text, 'consumerGroup'), ...printedQueue(text), offset: num(field(text, 'offset')), cause: underlay(text) }),
    versionHint: 'go',
    samples: [
      {
        text: 'time="2022-08-18T15:37:50+08:00" level=warning msg="update offset to broker error" MessageQueue="MessageQueue [topic=slave-test, brokerName=rocketmq-broker-0, queueId=2]" consumerGroup=slave-test offset=1020 underlayError="broker: rocketmq-broker-0 address not found"',
        fields: { ok: false, group: 'slave-test', topic: 'slave-test', brokerName: 'rocketmq-broker-0', queueId: 2, offset: 1020, cause: 'broker: rocketmq-broker-0 address not found' },
      },
      {
        text: 'INFO[0010] update offset to broker success               MessageQueue="MessageQueue [topic=TopicTest, brokerName=broker-a, queueId=0]" consumerGroup=GID_TEST offset=42',
        fields: { ok: true, group: 'GID_TEST', queueId: 0, offset: 42, cause: null },
      },
    ],
  },

  {
    id: 'offset-reset/go-fix',
    type: 'offset-reset',
    keywords: ['fix the pull request offset: '],
    pattern: /fix the pull request offset: /,
    versions: 'rocketmq-client-go 2.0.0-2.1.2',
    source: 'rocketmq-client-go consumer/push_consumer.go (pushConsumer.pullMessage: after PullOffsetIllegal the offset is persisted and the queue dropped)',
    format: 'fix the pull request offset: %s',
    args: ['pullRequest'],
    printf: true,
    fields: (_g, text) => {
      const pr = goPullRequest(text);
      return eventFields('offset-reset', { why: 'fix', group: pr.group, topic: pr.topic, brokerName: pr.brokerName, queueId: pr.queueId, offset: pr.offset });
    },
    versionHint: 'go',
    samples: [
      {
        text: 'WARN[0310] fix the pull request offset: [ConsumerGroup: GID_TEST, Topic: TopicTest, MessageQueue: brokerName=broker-a, queueId=2, nextOffset=0]',
        fields: { why: 'fix', group: 'GID_TEST', topic: 'TopicTest', brokerName: 'broker-a', queueId: 2, offset: 0 },
      },
    ],
  },
  {
    id: 'offset-reset/go-first-pull-ahead',
    type: 'offset-reset',
    keywords: ['[NOTIFY_ME] the first time to pull message, but pull request offset larger than broker consume offset'],
    // Go's words after `[NOTIFY_ME] ` (a space; Java's has none and goes on with `. pullRequest:`).
    pattern: /\[NOTIFY_ME\] the first time to pull message, but pull request offset larger than broker consume offset/,
    versions: 'rocketmq-client-go 2.0.0-2.1.2',
    source: "rocketmq-client-go consumer/push_consumer.go (pushConsumer.pullMessage, orderly: the locked queue's offset on the broker is behind this client's, it is consumed again from there)",
    format: '[NOTIFY_ME] the first time to pull message, but pull request offset larger than broker consume offset',
    args: [],
    fields: (_g, text) => eventFields('offset-reset', { why: 'first-pull', offset: num(field(text, 'offset')) }),
    versionHint: 'go',
    samples: [
      {
        text: 'INFO[0002] [NOTIFY_ME] the first time to pull message, but pull request offset larger than broker consume offset  offset=5311',
        fields: { why: 'first-pull', offset: 5311, group: null },
      },
    ],
  },

  // ---- rocketmq-client-cpp 1.x/2.x (printf; also rocketmq-client-python 2.x, Node.js wrappers) -
  {
    id: 'pull-failed/cpp-pull-async',
    type: 'pull-failed',
    keywords: ['pullMessageAsync failed of addr:'],
    pattern: /pullMessageAsync failed of addr:(?<addr>[^,\s]*), mq:/,
    versions: 'rocketmq-client-cpp 1.2.x-2.2.0',
    source: 'rocketmq-client-cpp src/MQClientAPIImpl.cpp (MQClientAPIImpl::pullMessageAsync: the request could not be sent)',
    format: 'pullMessageAsync failed of addr:%s, mq:%s',
    args: ['addr', 'mq'],
    printf: true,
    fields: (g, text) => eventFields('pull-failed', { reason: null, ...printedQueue(text), addr: normAddr(g.addr) }),
    versionHint: 'cpp',
    samples: [
      {
        text: '[2020-Mar-29 17:37:50.339075](error):pullMessageAsync failed of addr:10.10.10.11:10911, mq:MessageQueue [topic=browser, brokerName=broker-CuhDxsHLYZA-1, queueId=10][pullMessageAsync:490]',
        fields: { reason: null, addr: '10.10.10.11:10911', topic: 'browser', brokerName: 'broker-CuhDxsHLYZA-1', queueId: 10 },
      },
    ],
  },
  {
    id: 'pull-failed/cpp-retry-later',
    type: 'pull-failed',
    keywords: ['occur exception, restart 1s', 'occurs exception, reproduce it after 1s'],
    pattern: /Pull (?:MessageQueue \[[^\]]*\]|\S+) occur exception, restart 1s\s+later|Pullrequest for:.*? occurs exception, reproduce it after 1s/,
    versions: 'rocketmq-client-cpp 2.0.0-2.2.0',
    source: 'rocketmq-client-cpp src/consumer/DefaultMQPushConsumerImpl.cpp (pullMessage, pullMessageAsync; AsyncPullCallback::onException in 2.2.0)',
    format: 'Pull %s occur exception, restart 1s  later.',
    args: ['mq'],
    printf: true,
    forms: { '2.2.0': { format: 'Pullrequest for:%s occurs exception, reproduce it after 1s.', args: ['mq'], printf: true } },
    fields: (_g, text) => eventFields('pull-failed', { reason: null, ...printedQueue(text) }),
    versionHint: 'cpp',
    samples: [
      {
        text: '[2020-Mar-29 17:37:50.339148](info):Pull MessageQueue [topic=browser, brokerName=broker-CuhDxsHLYZA-1, queueId=10] occur exception, restart 1s  later.[pullMessageAsync:905]',
        fields: { reason: null, topic: 'browser', queueId: 10, addr: null },
      },
      {
        text: '[2021-Jun-30 11:17:15.192174](warning):Pullrequest for:MessageQueue [topic=note-change, brokerName=cluster02-broker10, queueId=3] occurs exception, reproduce it after 1s.[onException:178]',
        fields: { reason: null, topic: 'note-change', queueId: 3 },
      },
    ],
  },
  {
    id: 'rebalance/cpp-drop',
    type: 'rebalance',
    keywords: ['according Pull timeout', ',because not responsive'],
    pattern: /Drop mq:.*?(?: according Pull timeout|,because not responsive)/,
    versions: 'rocketmq-client-cpp 2.0.0-2.2.0',
    source: 'rocketmq-client-cpp src/consumer/Rebalance.cpp (Rebalance::updateRequestTableInRebalance: a queue no longer allocated, or whose pull request expired)',
    format: 'Drop mq:%s according Pull timeout.',
    args: ['mq'],
    printf: true,
    forms: { 'not-responsive': { format: 'Drop mq:%s,because not responsive', args: ['mq'], printf: true } },
    fields: (_g, text) => eventFields('rebalance', { action: 'remove', ...printedQueue(text) }),
    versionHint: 'cpp',
    samples: [
      {
        text: '[2020-Mar-28 08:42:42.124486](info):Drop mq:MessageQueue [topic=browser, brokerName=broker-1, queueId=2] according Pull timeout.[updateRequestTableInRebalance:501]',
        fields: { action: 'remove', topic: 'browser', brokerName: 'broker-1', queueId: 2 },
      },
      {
        text: '[2020-Mar-29 17:39:30.517070](info):Drop mq:MessageQueue [topic=browser, brokerName=broker-CuhDxsHLYZA-1, queueId=8],because not responsive[updateRequestTableInRebalance:492]',
        fields: { action: 'remove', queueId: 8 },
      },
    ],
  },
  {
    id: 'rebalance/cpp-allocated-empty',
    type: 'rebalance',
    keywords: ['allocated queue is empty for topic:'],
    pattern: /allocated queue is empty for topic:(?<t>[^\s[]*)/,
    versions: 'rocketmq-client-cpp 1.2.x-2.2.0',
    source: 'rocketmq-client-cpp src/consumer/Rebalance.cpp (RebalancePush::updateRequestTableInRebalance: this consumer got no queue of the topic)',
    format: 'allocated queue is empty for topic:%s',
    args: ['topic'],
    printf: true,
    fields: (g) => eventFields('rebalance', { action: 'result', topic: str(g.t), queues: [] }),
    versionHint: 'cpp',
    samples: [
      {
        text: '[2020-Mar-29 17:39:30.517047](warning):allocated queue is empty for topic:browser[updateRequestTableInRebalance:479]',
        fields: { action: 'result', topic: 'browser', queues: [] },
      },
    ],
  },
  {
    id: 'rebalance/cpp-clientid-not-found',
    type: 'rebalance',
    keywords: ['could not find clientId from Broker'],
    pattern: /could not find clientId from Broker/,
    versions: 'rocketmq-client-cpp 1.2.x-2.2.0, re_dev',
    source: "rocketmq-client-cpp src/consumer/AllocateMQStrategy.h (AllocateMQAveragely::allocate: the broker's list of the group's consumers lacks this one; re_dev: AllocateMQAveragely.hpp)",
    format: 'could not find clientId from Broker',
    args: [],
    // The nearest action: the consumer list the broker gave is of no use, nothing is allocated.
    fields: () => eventFields('rebalance', { action: 'no-consumer-ids' }),
    versionHint: 'cpp',
    samples: [{ text: '[2020-Mar-29 17:39:30.517014](error):could not find clientId from Broker[allocate:67]', fields: { action: 'no-consumer-ids', group: null } }],
  },
  {
    id: 'send-back-failed/cpp',
    type: 'send-back-failed',
    keywords: ['Send message back fail, MQ is:'],
    pattern: /Send message back fail, MQ is:.*?, its msgId is:(?<id>[^,\s]*), index is:-?\d+, re-consume times is:(?<n>-?\d+)/,
    versions: 'rocketmq-client-cpp 2.0.0-2.2.0',
    source: 'rocketmq-client-cpp src/consumer/ConsumeMessageConcurrentlyService.cpp (ConsumeMessageConcurrentlyService::ConsumeRequest: sendMessageBack failed, the message is consumed again locally)',
    format: 'Send message back fail, MQ is:%s, its msgId is:%s, index is:%d, re-consume times is:%d',
    args: ['mq', 'msgId', 'index', 'reconsumeTimes'],
    printf: true,
    fields: (g, text) => eventFields('send-back-failed', { topic: printedQueue(text).topic, msgId: str(g.id), reconsumeTimes: num(g.n) }),
    versionHint: 'cpp',
    samples: [
      {
        text: '[2021-Jun-30 11:17:15.192174](warning):Send message back fail, MQ is:MessageQueue [topic=note-change, brokerName=cluster02-broker10, queueId=3], its msgId is:0A0A0A0B00002A9F0000000000000001, index is:0, re-consume times is:2[ConsumeRequest:259]',
        fields: { topic: 'note-change', msgId: '0A0A0A0B00002A9F0000000000000001', reconsumeTimes: 2 },
      },
    ],
  },
  {
    id: 'consume-failed/cpp-uncaught',
    type: 'consume-failed',
    keywords: ["Consumer's code is buggy. Un-caught exception raised"],
    pattern: /Consumer's code is buggy\. Un-caught exception raised/,
    versions: 'rocketmq-client-cpp 2.0.0-2.2.0',
    source: 'rocketmq-client-cpp src/consumer/ConsumeMessageConcurrentlyService.cpp (ConsumeMessageConcurrentlyService::ConsumeRequest: the listener threw)',
    format: "Consumer's code is buggy. Un-caught exception raised",
    args: [],
    fields: () => eventFields('consume-failed', { returnType: 'EXCEPTION' }),
    versionHint: 'cpp',
    samples: [{ text: "[2021-Mar-02 19:01:35.219898](error):Consumer's code is buggy. Un-caught exception raised[ConsumeRequest:203]", fields: { returnType: 'EXCEPTION', group: null, msgIds: [] } }],
  },
  {
    id: 'lock-failed/cpp-not-locked',
    type: 'lock-failed',
    keywords: ['was not locked'],
    pattern: /message queue:(?:.*?) was not locked/,
    versions: 'rocketmq-client-cpp 1.2.x-2.2.0',
    source: 'rocketmq-client-cpp src/consumer/ConsumeMessageOrderlyService.cpp (ConsumeMessageOrderlyService::ConsumeRequest, clustering: consume later)',
    format: 'message queue:%s was not locked',
    args: ['mq'],
    printf: true,
    fields: (_g, text) => eventFields('lock-failed', { what: 'not-locked', ...printedQueue(text) }),
    versionHint: 'cpp',
    samples: [
      {
        text: '[2020-Mar-28 08:42:42.124297](error):message queue:MessageQueue [topic=browser, brokerName=broker-1, queueId=1] was not locked[ConsumeRequest:243]',
        fields: { what: 'not-locked', topic: 'browser', queueId: 1 },
      },
    ],
  },
  {
    id: 'lock-failed/cpp-re-dev-released',
    type: 'lock-failed',
    keywords: ['the message queue locked OK, but it is released'],
    pattern: /the message queue locked OK, but it is released/,
    versions: 'rocketmq-client-cpp re_dev, to 88d4eeb (2021-01-20)',
    source: "rocketmq-client-cpp src/consumer/RebalanceImpl.cpp (re_dev RebalanceImpl::lock: the broker granted the lock, the local process queue was gone)",
    format: 'the message queue locked OK, but it is released, mq:{}',
    args: ['mq'],
    // The nearest kind: the lock was not taken for this consumer.
    fields: (_g, text) => eventFields('lock-failed', { what: 'lock', ...printedQueue(text) }),
    versionHint: 'cpp',
    samples: [
      {
        text: '[2021-02-01 14:24:42.593] [warning] [thread@30244] - the message queue locked OK, but it is released, mq:MessageQueue [topic=321321, brokerName=broker-a, queueId=2]',
        fields: { what: 'lock', topic: '321321', brokerName: 'broker-a', queueId: 2 },
      },
    ],
  },
  {
    id: 'offset-commit/cpp',
    type: 'offset-commit',
    keywords: ['oneway updateConsumeOffsetToBroker of mq:', 'updateConsumeOffset of mq:'],
    pattern: /oneway updateConsumeOffsetToBroker of mq:.*?, its offset is:(?<o>-?\d+)|updateConsumeOffset of mq:.*? (?<err>error)/,
    versions: 'rocketmq-client-cpp 1.2.x-2.2.0',
    source: 'rocketmq-client-cpp src/consumer/OffsetStore.cpp (RemoteBrokerOffsetStore::persist, a oneway request); src/consumer/DefaultMQPushConsumerImpl.cpp (updateConsumeOffset: the store failed)',
    // The source's `%lld` written as `%d`, the placeholder the renderer knows.
    format: 'oneway updateConsumeOffsetToBroker of mq:%s, its offset is:%d',
    args: ['mq', 'offset'],
    printf: true,
    forms: { error: { format: 'updateConsumeOffset of mq:%s error', args: ['mq'], printf: true } },
    fields: (g, text) => eventFields('offset-commit', { ok: g.err === undefined, ...printedQueue(text), offset: num(g.o) }),
    versionHint: 'cpp',
    samples: [
      {
        text: '[2020-Mar-28 08:42:42.124554](info):oneway updateConsumeOffsetToBroker of mq:MessageQueue [topic=browser, brokerName=broker-1, queueId=2], its offset is:268305037[updateConsumeOffsetToBroker:310]',
        fields: { ok: true, topic: 'browser', brokerName: 'broker-1', queueId: 2, offset: 268305037 },
      },
      { text: '[2020-Mar-28 08:42:43.000001](error):updateConsumeOffset of mq:MessageQueue [topic=browser, brokerName=broker-1, queueId=2] error[updateConsumeOffset:540]', fields: { ok: false, queueId: 2, offset: null } },
    ],
  },

  {
    id: 'offset-illegal/cpp-debug',
    type: 'offset-illegal',
    keywords: ['OFFSET_ILLEGAL:'],
    pattern: /OFFSET_ILLEGAL:(?:.*?),nextBeginOffset:(?<next>-?\d+)/,
    versions: 'rocketmq-client-cpp 1.2.x-2.2.0 (DEBUG)',
    source: 'rocketmq-client-cpp src/consumer/DefaultMQPushConsumerImpl.cpp (AsyncPullCallback::onSuccess: OFFSET_ILLEGAL)',
    // The source's `%lld` written as `%d`, the placeholder the renderer knows.
    format: 'OFFSET_ILLEGAL:%s,nextBeginOffset:%d',
    args: ['mq', 'nextBeginOffset'],
    printf: true,
    fields: (g, text) => eventFields('offset-illegal', { status: 'OFFSET_ILLEGAL', ...printedQueue(text), nextBeginOffset: num(g.next) }),
    versionHint: 'cpp',
    samples: [
      {
        text: '[2020-Mar-28 08:42:42.124297](debug):OFFSET_ILLEGAL:MessageQueue [topic=browser, brokerName=broker-1, queueId=2],nextBeginOffset:268305037[onSuccess:140]',
        fields: { status: 'OFFSET_ILLEGAL', topic: 'browser', queueId: 2, nextBeginOffset: 268305037 },
      },
    ],
  },

  // ---- rocketmq-client-python 2.x (its own words, around the C++ client's callbacks) ---------
  {
    id: 'consume-failed/python-status-error',
    type: 'consume-failed',
    keywords: ["Consume status error, please use enum 'ConsumeStatus' as response"],
    pattern: /ValueError: Consume status error, please use enum 'ConsumeStatus' as response/,
    versions: 'rocketmq-client-python 2.0.0',
    source:
      "rocketmq-client-python rocketmq/client.py (PushConsumer.subscribe, _on_message: the callback returned no ConsumeStatus; the wrapper answers RECONSUME_LATER, so the message is consumed again, and raises, so ctypes prints the traceback)",
    format: "ValueError: Consume status error, please use enum 'ConsumeStatus' as response",
    args: [],
    fields: () => eventFields('consume-failed', { returnType: 'EXCEPTION', cause: "ValueError: Consume status error, please use enum 'ConsumeStatus' as response" }),
    versionHint: 'python',
    samples: [{ text: "ValueError: Consume status error, please use enum 'ConsumeStatus' as response", fields: { returnType: 'EXCEPTION', group: null } }],
  },

  // ---- rocketmq-clients 5.x (gRPC: Java 5.0.x, Go 5.1.3+ print the same words) ---------------
  {
    id: 'consume-failed/grpc-listener',
    type: 'consume-failed',
    keywords: ['Message listener raised an exception while consuming messages'],
    pattern: /Message listener raised an exception while consuming messages/,
    versions: 'rocketmq-clients java-5.0.0-5.2.x, golang/v5.1.3+',
    source: 'rocketmq-clients java ConsumeTask#call; golang consumer_service.go (consumeWithDuration)',
    format: 'Message listener raised an exception while consuming messages, clientId={}, mq={}, messageId={}',
    args: ['clientId', 'mq', 'messageId'],
    // Java: the listener's Throwable is logged after the line, its stack under it (Go prints `, err=`).
    causeFromNext: true,
    fields: (_g, text) => {
      const id = grpcKv(text, 'messageId');
      return eventFields('consume-failed', { returnType: 'EXCEPTION', ...grpcQueue(text), msgIds: id === null ? [] : [id], cause: str(/, err=(.*?)\s*$/.exec(text)?.[1]) });
    },
    versionHint: '5.x-grpc',
    samples: [
      {
        text: '2024-08-16 10:00:01.123 ERROR [ConsumptionExecutor-0-1] [o.a.r.c.j.i.c.ConsumeTask#call:66] - Message listener raised an exception while consuming messages, clientId=host@1234@0@abc, mq=broker-a.TopicTest.2, messageId=01AC1100050C3A2B0A0000000000000001',
        fields: { returnType: 'EXCEPTION', topic: 'TopicTest', brokerName: 'broker-a', queueId: 2, msgIds: ['01AC1100050C3A2B0A0000000000000001'] },
      },
      {
        // Real: samples/lab/consumer-grpc-failures-dlq (rocketmq-client-java 5.0.7 through a 5.3.3 proxy): a pop consumer's whole-broker queue.
        text: '2026-12-07 10:23:01.214 ERROR [14459] [RocketmqMessageConsumption-0-7] [o.a.r.c.j.i.c.ConsumeTask#?:?] - Message listener raised an exception while consuming messages, clientId=vm@14459@0@dbizerlj6, mq=broker-a.TopicOrder.-1, messageId=0AD5001F391C4E0E2F2A21208B15007A',
        fields: { returnType: 'EXCEPTION', group: null, topic: 'TopicOrder', brokerName: 'broker-a', queueId: null, msgIds: ['0AD5001F391C4E0E2F2A21208B15007A'], reconsumeTimes: null },
      },
    ],
  },
  {
    id: 'pull-failed/grpc-reception',
    type: 'pull-failed',
    keywords: ['Exception raised during message reception'],
    pattern: /Exception raised during message reception, mq=/,
    versions: 'rocketmq-clients java-5.0.0-5.2.x (endpoints and attempt ids from 5.0.6), golang/v5.1.3+',
    source: 'rocketmq-clients java ProcessQueueImpl#receiveMessage; golang process_queue.go (receiveMessageImmediately)',
    format: 'Exception raised during message reception, mq={}, endpoints={}, attemptId={}, nextAttemptId={}, clientId={}',
    args: ['mq', 'endpoints', 'attemptId', 'nextAttemptId', 'clientId'],
    forms: { short: { format: 'Exception raised during message reception, mq={}, clientId={}', args: ['mq', 'clientId'] } },
    fields: (_g, text) => eventFields('pull-failed', { reason: null, ...grpcQueue(text), addr: normAddr(/\bendpoints=(?:ipv4:)?([^\s,]+)/.exec(text)?.[1]), cause: str(/, err=(.*?)\s*$/.exec(text)?.[1]) }),
    versionHint: '5.x-grpc',
    samples: [
      {
        text: '2024-08-16 10:00:01.123 ERROR [RocketmqClientScheduler-1] [o.a.r.c.j.i.c.ProcessQueueImpl#onFailure:283] - Exception raised during message reception, mq=broker-a.TopicTest.0, endpoints=ipv4:10.0.0.1:8081, attemptId=6b9e, nextAttemptId=7a1f, clientId=host@1234@0@abc',
        fields: { reason: null, topic: 'TopicTest', brokerName: 'broker-a', queueId: 0, addr: '10.0.0.1:8081' },
      },
      { text: 'Exception raised during message reception, mq=broker-a.TopicTest.1, clientId=host@1234@0@abc', fields: { reason: null, queueId: 1, addr: null } },
    ],
  },
  {
    id: 'flow-control/grpc-cache',
    type: 'flow-control',
    keywords: ['Process queue total cached messages'],
    pattern: /Process queue total cached messages (?<what>quantity|memory) exceeds the threshold, threshold=(?<th>\d+)(?: bytes)?, actual=(?<n>\d+)/,
    versions: 'rocketmq-client-java 5.0.0-5.2.x, golang/v5.1.3+',
    source: 'rocketmq-clients java ProcessQueueImpl#isCacheFull; golang process_queue.go (isCacheFull)',
    format: 'Process queue total cached messages quantity exceeds the threshold, threshold={}, actual={}, mq={}, clientId={}',
    args: ['threshold', 'count', 'mq', 'clientId'],
    forms: { memory: { format: 'Process queue total cached messages memory exceeds the threshold, threshold={} bytes, actual={} bytes, mq={}, clientId={}', args: ['thresholdBytes', 'bytes', 'mq', 'clientId'] } },
    fields: (g, text) => {
      const bytes = g.what === 'memory';
      const th = num(g.th);
      const n = num(g.n);
      return eventFields('flow-control', {
        limit: bytes ? 'size' : 'count',
        // The size threshold and the cache are printed in bytes; the field is in MiB.
        threshold: bytes && th !== null ? Math.floor(th / MIB) : th,
        count: bytes ? null : n,
        sizeMiB: bytes && n !== null ? Math.floor(n / MIB) : null,
        ...grpcQueue(text),
      });
    },
    versionHint: '5.x-grpc',
    samples: [
      {
        text: '2024-08-16 10:00:01.123 WARN  [RocketmqClientScheduler-1] [o.a.r.c.j.i.c.ProcessQueueImpl#isCacheFull:302] - Process queue total cached messages quantity exceeds the threshold, threshold=1024, actual=1024, mq=broker-a.TopicTest.1, clientId=host@1234@0@abc',
        fields: { limit: 'count', threshold: 1024, count: 1024, sizeMiB: null, topic: 'TopicTest', queueId: 1 },
      },
      {
        text: 'Process queue total cached messages memory exceeds the threshold, threshold=67108864 bytes, actual=70254592 bytes, mq=broker-a.TopicTest.1, clientId=host@1234@0@abc',
        fields: { limit: 'size', threshold: 64, count: null, sizeMiB: 67 },
      },
    ],
  },
  {
    id: 'rebalance/grpc-drop',
    type: 'rebalance',
    keywords: ['Drop message queue according to the latest assignmentList', 'Drop message queue because it is expired'],
    pattern: /Drop message queue (?:according to the latest assignmentList|because it is expired), mq=/,
    versions: 'rocketmq-client-java 5.0.0-5.2.x, golang/v5.1.3+',
    source: 'rocketmq-clients java PushConsumerImpl#syncProcessQueue; golang push_consumer.go (syncProcessQueue)',
    format: 'Drop message queue according to the latest assignmentList, mq={}, clientId={}',
    args: ['mq', 'clientId'],
    forms: { expired: { format: 'Drop message queue because it is expired, mq={}, clientId={}', args: ['mq', 'clientId'] } },
    fields: (_g, text) => eventFields('rebalance', { action: 'remove', ...grpcQueue(text), clientId: grpcKv(text, 'clientId') }),
    versionHint: '5.x-grpc',
    samples: [
      {
        text: 'Drop message queue according to the latest assignmentList, mq=broker-a.TopicTest.3, clientId=host@1234@0@abc',
        fields: { action: 'remove', topic: 'TopicTest', brokerName: 'broker-a', queueId: 3, clientId: 'host@1234@0@abc' },
      },
      { text: 'Drop message queue because it is expired, mq=broker-a.TopicTest.0, clientId=host@1234@0@abc', fields: { action: 'remove', queueId: 0 } },
    ],
  },
  {
    id: 'rebalance/grpc-assignments-changed',
    type: 'rebalance',
    keywords: ['has changed, '],
    pattern: /Assignments of topic=(?<t>[^,\s]*) has changed, /,
    versions: 'rocketmq-client-java 5.0.0-5.2.x',
    source: 'rocketmq-clients java PushConsumerImpl#scanAssignments',
    format: 'Assignments of topic={} has changed, {} => {}, clientId={}',
    args: ['topic', 'existed', 'latest', 'clientId'],
    fields: (g, text) => eventFields('rebalance', { action: 'result', topic: str(g.t), clientId: grpcKv(text, 'clientId') }),
    versionHint: '5.x-grpc',
    samples: [
      {
        text: 'Assignments of topic=TopicTest has changed, Assignments{assignmentList=[]} => Assignments{assignmentList=[Assignment{messageQueue=broker-a.TopicTest.0}]}, clientId=host@1234@0@abc',
        fields: { action: 'result', topic: 'TopicTest', clientId: 'host@1234@0@abc', queues: null },
      },
    ],
  },
  {
    id: 'send-to-dlq/grpc-forward',
    type: 'send-to-dlq',
    keywords: ['Forward message to dead letter queue successfully', 'Failed to forward message to dead letter queue'],
    pattern: /Forward message to dead letter queue successfully, clientId=|(?<failed>Failed to forward message to dead letter queue, would attempt to re-forward later)/,
    versions: 'rocketmq-client-java 5.0.0-5.2.x',
    source: 'rocketmq-clients java ProcessQueueImpl#forwardToDeadLetterQueue (FIFO consumption: the attempts ran out, the client asks the proxy to move the message to the DLQ)',
    format: 'Forward message to dead letter queue successfully, clientId={}, consumerGroup={}, messageId={}, mq={}, endpoints={}, requestId={}',
    args: ['clientId', 'group', 'msgId', 'mq', 'endpoints', 'requestId'],
    forms: {
      failed: {
        format: 'Failed to forward message to dead letter queue, would attempt to re-forward later, clientId={}, consumerGroup={}, messageId={}, attempt={}, mq={}, endpoints={}, requestId={}, code={}, status message={}',
        args: ['clientId', 'group', 'msgId', 'attempt', 'mq', 'endpoints', 'requestId', 'code', 'statusMessage'],
      },
    },
    fields: (g, text) =>
      eventFields('send-to-dlq', { group: grpcKv(text, 'consumerGroup'), topic: grpcQueue(text).topic, msgId: grpcKv(text, 'messageId'), stored: g.failed === undefined }),
    versionHint: '5.x-grpc',
    samples: [
      {
        text: 'Forward message to dead letter queue successfully, clientId=host@1234@0@abc, consumerGroup=GID_FIFO, messageId=01AC1100050C3A2B0A0000000000000002, mq=broker-a.FifoTopic.0, endpoints=ipv4:10.0.0.1:8081, requestId=5d0c',
        fields: { group: 'GID_FIFO', topic: 'FifoTopic', msgId: '01AC1100050C3A2B0A0000000000000002', stored: true },
      },
      {
        text: 'Failed to forward message to dead letter queue, would attempt to re-forward later, clientId=host@1234@0@abc, consumerGroup=GID_FIFO, messageId=01AC1100050C3A2B0A0000000000000002, attempt=1, mq=broker-a.FifoTopic.0, endpoints=ipv4:10.0.0.1:8081, requestId=5d0d, code=INTERNAL_SERVER_ERROR, status message=store failed',
        fields: { group: 'GID_FIFO', topic: 'FifoTopic', stored: false },
      },
    ],
  },
  {
    id: 'pull-failed/grpc-receive-status',
    type: 'pull-failed',
    keywords: ['response-code='],
    // A 5.x client's exception text `[request-id=..., response-code=N] ...` (Java, Node.js
    // ClientException), read as a pull failure only when the proxy's receive is named in it.
    pattern: /response-code=(?<code>\d+)\] .*ReceiveMessageActivity/,
    versions: 'rocketmq-clients nodejs-1.0.0, java-5.0.x',
    source: 'rocketmq-clients nodejs src/exception/ClientException.ts, src/exception/StatusChecker.ts (SimpleConsumer.receiveMessage)',
    format: '[request-id={}, response-code={}] {}',
    args: ['requestId', 'code', 'message'],
    fields: (g, text) => {
      const code = num(g.code);
      return eventFields('pull-failed', { reason: (code !== null ? GRPC_CODES[code] : undefined) ?? null, code, cause: str(/\] (.*?)\s*$/.exec(text)?.[1]) });
    },
    versionHint: '5.x-grpc',
    samples: [
      {
        text: 'InternalErrorException: [request-id=undefined, response-code=50001] null. NullPointerException. org.apache.rocketmq.proxy.grpc.v2.consumer.ReceiveMessageActivity.receiveMessage(ReceiveMessageActivity.java:63)',
        fields: { reason: 'INTERNAL_SERVER_ERROR', code: 50001 },
      },
    ],
  },
  {
    id: 'pull-failed/cpp5-receive',
    type: 'pull-failed',
    keywords: ['failed. Cause: ', 'Retry after 1 second.'],
    pattern: /Receive message from (?<q>\S+) failed\. Cause: (?<cause>.*?)\. Retry after 1 second\./,
    versions: 'rocketmq-clients cpp-5.0.0-5.1.1',
    source: 'rocketmq-clients cpp source/rocketmq/AsyncReceiveMessageCallback.cpp (AsyncReceiveMessageCallback::onCompletion)',
    format: 'Receive message from {} failed. Cause: {}. Retry after 1 second.',
    args: ['mq', 'cause'],
    fields: (g) => eventFields('pull-failed', { reason: null, ...cpp5Queue(` ${g.q ?? ''}`), cause: str(g.cause) }),
    versionHint: 'cpp-5.x',
    samples: [
      {
        text: '2024-05-20 14:03:11.483 [--W--] [     77] Receive message from @TopicTest@2@broker-a failed. Cause: Deadline Exceeded. Retry after 1 second. /src/AsyncReceiveMessageCallback.cpp:64',
        fields: { reason: null, ...{ topic: 'TopicTest', brokerName: 'broker-a', queueId: 2 }, cause: 'Deadline Exceeded' },
      },
    ],
  },
  {
    id: 'flow-control/cpp5-cache',
    type: 'flow-control',
    keywords: ['Number of locally cached messages is', 'Locally cached messages take'],
    // The queue's name before `: ` is read in `fields`: an unanchored `\S+: ` in the pattern would backtrack over a long line.
    pattern: /(?:Number of locally cached messages is (?<n>\d+)|Locally cached messages take (?<b>\d+) bytes), which exceeds threshold=(?<th>\d+)/,
    versions: 'rocketmq-clients cpp-5.0.0-5.1.1',
    source: 'rocketmq-clients cpp source/rocketmq/ProcessQueueImpl.cpp (ProcessQueueImpl::shouldThrottle, INFO)',
    format: '{}: Number of locally cached messages is {}, which exceeds threshold={}',
    args: ['mq', 'count', 'threshold'],
    forms: { size: { format: '{}: Locally cached messages take {} bytes, which exceeds threshold={}', args: ['mq', 'bytes', 'thresholdBytes'] } },
    fields: (g, text) => {
      const bytes = g.b !== undefined;
      const th = num(g.th);
      const q = /([^\s:]{1,300}): (?:Number of locally cached|Locally cached messages take)/.exec(text)?.[1];
      return eventFields('flow-control', {
        limit: bytes ? 'size' : 'count',
        threshold: bytes && th !== null ? Math.floor(th / MIB) : th,
        count: bytes ? null : num(g.n),
        sizeMiB: bytes ? Math.floor((num(g.b) ?? 0) / MIB) : null,
        ...cpp5Queue(` ${q ?? ''}`),
      });
    },
    versionHint: 'cpp-5.x',
    samples: [
      {
        text: '2024-05-20 14:03:11.483 [--I--] [     77] @TopicTest@1@broker-a: Number of locally cached messages is 1025, which exceeds threshold=1024 /src/ProcessQueueImpl.cpp:82',
        fields: { limit: 'count', threshold: 1024, count: 1025, topic: 'TopicTest', brokerName: 'broker-a', queueId: 1 },
      },
      {
        text: '@TopicTest@1@broker-a: Locally cached messages take 70254592 bytes, which exceeds threshold=67108864',
        fields: { limit: 'size', threshold: 64, sizeMiB: 67, count: null, queueId: 1 },
      },
    ],
  },
  {
    id: 'rebalance/cpp5-expired',
    type: 'rebalance',
    keywords: ['is expired. Remove it for now.'],
    pattern: /ProcessQueue=(?<q>\S+) is expired\. Remove it for now\./,
    versions: 'rocketmq-clients cpp-5.0.0-5.1.1',
    source: 'rocketmq-clients cpp source/rocketmq/PushConsumerImpl.cpp (PushConsumerImpl::syncProcessQueue: a queue idle too long is dropped)',
    format: 'ProcessQueue={} is expired. Remove it for now.',
    args: ['mq'],
    fields: (g) => eventFields('rebalance', { action: 'remove', ...cpp5Queue(` ${g.q ?? ''}`) }),
    versionHint: 'cpp-5.x',
    samples: [
      {
        text: '2024-05-20 14:03:11.483 [--W--] [     77] ProcessQueue=@TopicTest@3@broker-a is expired. Remove it for now. /src/PushConsumerImpl.cpp:312',
        fields: { action: 'remove', topic: 'TopicTest', brokerName: 'broker-a', queueId: 3 },
      },
    ],
  },
  {
    id: 'pull-failed/rust5-receive',
    type: 'pull-failed',
    keywords: ['receive messages error: '],
    pattern: /receive messages error: /,
    versions: 'rocketmq-clients rust-5.0.0+',
    source: 'rocketmq-clients rust src/push_consumer.rs (the receive loop of a message queue actor)',
    // The source's `{:?}` (Rust's Debug form) written as a placeholder the renderer knows.
    format: 'receive messages error: {}',
    args: ['cause'],
    fields: (_g, text) => eventFields('pull-failed', { reason: null, cause: str(/receive messages error: (.*?)\s*$/.exec(text)?.[1]) }),
    versionHint: '5.x-grpc',
    samples: [{ text: 'ERROR rocketmq::push_consumer: receive messages error: Some(ClientError { kind: Server })', fields: { reason: null, cause: 'Some(ClientError { kind: Server })' } }],
  },

  // ---- ali-ons (Node.js client of Aliyun ONS) -------------------------------------------------
  {
    id: 'rebalance/ali-ons',
    type: 'rebalance',
    // `doRebalance, %s, but the topic[%s] not exist.` is the Java client's words (RebalanceImpl), read by its entry.
    keywords: ['[mq:consumer] doRebalance, ', '[mq:consumer] do rebalance and message queue changed', '[mq:consumer] remove unnecessary messageQueue'],
    pattern: /\[mq:consumer\] (?:doRebalance, (?<g>[^,]*), (?<add>add a new messageQueue)|(?<changed>do rebalance and message queue changed), topic: (?<ct>[^,]*)|(?<remove>remove unnecessary messageQueue))/,
    versions: 'ali-ons 3.x',
    source: 'ali-ons lib/consumer/mq_push_consumer.js (MQPushConsumer.rebalanceByTopic, updateProcessQueueTableInRebalance)',
    // The source's `%j` (JSON) written as `%s`, the placeholder the renderer knows.
    format: '[mq:consumer] doRebalance, %s, add a new messageQueue, %s, its nextOffset: %s',
    args: ['group', 'mq', 'offset'],
    printf: true,
    forms: {
      result: { format: '[mq:consumer] do rebalance and message queue changed, topic: %s, mqSet: %s', args: ['topic', 'mqSet'], printf: true },
      remove: { format: '[mq:consumer] remove unnecessary messageQueue, %s, Droped: %s', args: ['mq', 'dropped'], printf: true },
    },
    fields: (g, text) => {
      const action = g.add ? 'add' : g.changed ? 'result' : 'remove';
      // A queue as ali-ons prints it: `%j` of a MessageQueue (`{"topic":"T",...}`) or its key (`[topic="T", brokerName="B", queueId="1"]`).
      const qf = (k: string) => (action === 'add' || action === 'remove' ? (new RegExp(`"?${k}"?[=:]"?([^",\\]}]*)"?`).exec(text)?.[1] ?? null) : null);
      return eventFields('rebalance', { action, group: str(g.g), topic: str(g.ct ?? qf('topic')), brokerName: str(qf('brokerName')), queueId: num(qf('queueId')) });
    },
    versionHint: 'ali-ons',
    samples: [
      {
        text: '[mq:consumer] doRebalance, GID_TEST, add a new messageQueue, {"topic":"TopicTest","brokerName":"broker-a","queueId":1,"key":"[topic=\\"TopicTest\\", brokerName=\\"broker-a\\", queueId=\\"1\\"]"}, its nextOffset: 42',
        fields: { action: 'add', group: 'GID_TEST', topic: 'TopicTest', brokerName: 'broker-a', queueId: 1 },
      },
      { text: '[mq:consumer] do rebalance and message queue changed, topic: TopicTest, mqSet: []', fields: { action: 'result', topic: 'TopicTest', group: null } },
      {
        text: '[mq:consumer] remove unnecessary messageQueue, [topic="TopicTest", brokerName="broker-a", queueId="1"], Droped: true',
        fields: { action: 'remove', topic: 'TopicTest', brokerName: 'broker-a', queueId: 1 },
      },
    ],
  },
  {
    id: 'consume-failed/ali-ons-drop',
    type: 'consume-failed',
    keywords: ['consume message failed, drop it'],
    pattern: /\[MQPushConsumer\] (?:BROADCASTING )?consume message failed, drop it(?: for reconsumeTimes=(?<n>\d+))?/,
    versions: 'ali-ons 3.x',
    source: 'ali-ons lib/consumer/mq_push_consumer.js (MQPushConsumer.consumeSingleMsg: a message failed more than maxReconsumeTimes, or a broadcasting one failed; either is dropped)',
    format: '[MQPushConsumer] consume message failed, drop it for reconsumeTimes=%d and maxReconsumeTimes=%d, msgId: %s, originMsgId: %s',
    args: ['reconsumeTimes', 'maxReconsumeTimes', 'msgId', 'originMsgId'],
    printf: true,
    forms: { broadcasting: { format: '[MQPushConsumer] BROADCASTING consume message failed, drop it, msgId: %s', args: ['msgId'], printf: true } },
    fields: (g, text) => {
      const id = /msgId: ([0-9A-Fa-f]+)/.exec(text)?.[1];
      return eventFields('consume-failed', { returnType: 'FAILED', msgIds: id === undefined ? [] : [id], reconsumeTimes: num(g.n) });
    },
    versionHint: 'ali-ons',
    samples: [
      {
        text: '[MQPushConsumer] consume message failed, drop it for reconsumeTimes=17 and maxReconsumeTimes=16, msgId: 0A0A0A0B00002A9F0000000000000003, originMsgId: 0A0A0A0B00002A9F0000000000000001',
        fields: { returnType: 'FAILED', msgIds: ['0A0A0A0B00002A9F0000000000000003'], reconsumeTimes: 17 },
      },
      { text: '[MQPushConsumer] BROADCASTING consume message failed, drop it, msgId: 0A0A0A0B00002A9F0000000000000004', fields: { returnType: 'FAILED', reconsumeTimes: null } },
    ],
  },
];
