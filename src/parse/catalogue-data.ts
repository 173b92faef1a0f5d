// Catalogue data: RocketMQ log message texts -> typed events.
//
// Each entry names the literal keywords that must appear in a line, the pattern (never anchored at
// the start: the text may sit inside a stack line or after an application prefix), the versions and
// the class that print it, and samples that the tests run. Format strings and versions come from
// the Apache RocketMQ sources; samples are built from those format strings or copied from real
// pasted logs. An entry's format with its `args` is also how rmq-diag writes the message
// (message-render.ts): a concatenation in the source is written as a `{}` format, and a test renders
// every wording from its samples' fields and parses it back.
//
// ORDER MATTERS: matchMessage returns the first entry (in this order) whose pattern matches, among
// the entries whose keywords occur in the line. More specific wordings come before generic ones.

import type { EventFields } from './types.js';
import type { CatalogueEntry } from './catalogue-entry.js';
import { brokerDatas } from './route-change.js';

type G = Record<string, string | undefined>;

// ---------------------------------------------------------------------------------------------
// Helpers (exported for the matcher and the tests)

/**
 * Normalise an address as printed: trim, strip surrounding `<>`, strip one leading `/`
 * (InetSocketAddress.toString()). Anything else is kept verbatim, including redacted or damaged
 * forms (`x.x.x.x10911`, `ocketmq-namesrv/10.0.0.1:9876`). Empty text and Java's `null` -> null.
 */
export function normAddr(s: string | null | undefined): string | null {
  if (s == null) return null;
  let t = s.trim();
  if (t.startsWith('<') && t.endsWith('>')) t = t.slice(1, -1).trim();
  if (t.startsWith('/')) t = t.slice(1).trim();
  if (t === '' || t === 'null') return null;
  return t;
}

/** A number from digits, or null when absent, redacted (`xxx`) or not numeric. */
export function num(s: string | null | undefined): number | null {
  if (s == null) return null;
  const t = s.trim();
  if (t === '') return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/** A value as printed, or null for an empty one, Java's `null` and a placeholder String.format left as it was (`{}`). */
function placeholderless(s: string | null | undefined): string | null {
  return s == null || s === '' || s === 'null' || s === '{}' ? null : s;
}

/**
 * A 64-bit integer (a commit log offset, a byte count): a number while it is exact, else its digits as
 * a string (beyond 2^53 a JSON number would lose the last digits).
 */
function int64(s: string | null | undefined): number | string | null {
  const n = num(s);
  if (n === null || Number.isSafeInteger(n)) return n;
  const t = s!.trim();
  return /^-?\d+$/.test(t) ? t.replace(/^(-?)0+(?=\d)/, '$1') : n;
}

/** Text as printed (trimmed), or null when empty or Java's `null`. */
export function str(s: string | null | undefined): string | null {
  if (s == null) return null;
  const t = s.trim();
  return t === '' || t === 'null' ? null : t;
}

/** The address inside a channel bracket: 4.x `A`, 5.3.1+ `addr=A, id=X`. */
function chanAddr(inner: string | null | undefined): string | null {
  if (inner == null) return null;
  const m = /^\s*addr=(.*?), id=/.exec(inner);
  return normAddr(m !== null ? m[1] : inner);
}

/** A broker address from `ip:port` or 5.x `BrokerIdentityInfo [clusterName=c, brokerAddr=ip:port]`. */
function identityAddr(s: string | null | undefined): string | null {
  if (s == null) return null;
  const m = /brokerAddr=([^,\]\s]*)/.exec(s);
  return normAddr(m !== null ? m[1] : s);
}

/** Split an address list: `[a, b]`, `a;b`, `a,b`. Empty items are dropped. */
function splitAddrs(s: string | null | undefined): string[] {
  if (s == null) return [];
  let t = s.trim();
  if (t.startsWith('[') && t.endsWith(']')) t = t.slice(1, -1);
  if (t.trim() === 'null') return [];
  return t
    .split(/[;,]/)
    .map((x) => x.trim())
    .filter((x) => x !== '');
}

/** `BrokersSent: [a, null, null]` -> ['a', 'null', 'null']: unused retry slots print `null` and are kept. */
function splitSent(s: string | null | undefined): string[] {
  if (s == null || s.trim() === '') return [];
  return s.split(',').map((x) => x.trim());
}

function bool(s: string | null | undefined): boolean | null {
  if (s === 'true') return true;
  if (s === 'false') return false;
  return null;
}

/** `V4_9_8` -> `4.9.8`, `V5_0_0_SNAPSHOT` -> `5.0.0-SNAPSHOT`; other text verbatim; absent -> null. */
function normVersion(s: string | null | undefined): string | null {
  const t = str(s);
  if (t === null) return null;
  const m = /^V(\d+)_(\d+)_(\d+)(?:_(.+))?$/.exec(t);
  if (m === null) return t;
  return `${m[1]}.${m[2]}.${m[3]}${m[4] !== undefined ? `-${m[4]}` : ''}`;
}

/** Lower bound in ms of a [PAGECACHERT] bucket label: `<=0ms`, `0~10ms`, `500ms~1s`, `1~2s`, `10s~`. */
function bucketLowerMs(label: string): number | null {
  const t = label.trim();
  if (/^<=\s*0\s*m?s$/.test(t)) return 0;
  const m = /^(\d+)\s*(ms|s)?\s*~\s*(?:\d+\s*)?(ms|s)?$/.exec(t);
  if (m === null) return null;
  const unit = m[2] ?? m[3] ?? 'ms';
  return Number(m[1]) * (unit === 's' ? 1000 : 1);
}

/** Distinct broker names of a TopicRouteData.toString(), from its BrokerData (else QueueData) items. */
function routeBrokers(data: string): string[] {
  const names: string[] = [];
  for (const m of data.matchAll(/BrokerData \[[^\]]*?brokerName=([^,\]\s]+)/g)) {
    if (!names.includes(m[1])) names.push(m[1]);
  }
  if (names.length === 0) {
    for (const m of data.matchAll(/brokerName=([^,\]\s]+)/g)) {
      if (!names.includes(m[1])) names.push(m[1]);
    }
  }
  return names;
}

/**
 * The brokers of a TopicRouteData.toString() a producer writes to: a master address (brokerId 0) in
 * its BrokerData and a writable QueueData (perm & PERM_WRITE). MQClientInstance
 * .topicRouteData2TopicPublishInfo (4.x and 5.x) skips the others, so a broker whose master left the
 * route is gone for producers even while its slave is still listed. Null when the text shows no
 * BrokerData (a truncated paste).
 */
function routeWritable(data: string): string[] | null {
  const masters = new Set<string>();
  let any = false;
  for (const b of brokerDatas(data)) {
    any = true;
    if (b.addrs.some((a) => a.id === '0')) masters.add(b.name);
  }
  if (!any) return /brokerDatas=\[\]|^null\]?\s*$/.test(data) ? [] : null;
  const names: string[] = [];
  for (const m of data.matchAll(/QueueData \[brokerName=([^,\]\s]+),[^\]]*?perm=(\d+)/g)) {
    if (masters.has(m[1]) && (Number(m[2]) & 2) !== 0 && !names.includes(m[1])) names.push(m[1]);
  }
  return names;
}

// ---------------------------------------------------------------------------------------------
// Field builders, one per event type, so that every event of a type has the same keys.

export const busy = (reason: string, g: G): EventFields => ({
  reason,
  waitMs: num(g.wait),
  queueSize: num(g.size),
  code: num(g.code),
  brokerAddr: normAddr(g.broker),
});

const attempt = (g: G): EventFields => {
  const mq = g.mq ?? '';
  const m = /topic=([^,\]]*)(?:, brokerName=([^,\]]*))?(?:, queueId=(-?\d+))?/.exec(mq);
  return {
    invokeId: str(g.invoke),
    rtMs: num(g.rt),
    topic: m !== null ? str(m[1]) : null,
    brokerName: m !== null ? str(m[2]) : null,
    queueId: m !== null ? num(m[3]) : null,
    cause: null,
  };
};

export const connect = (raw: string | null | undefined): EventFields => {
  const t = raw == null ? '' : raw.trim();
  if (t.startsWith('[')) {
    return { addr: t, addrs: splitAddrs(t) };
  }
  const addr = normAddr(t);
  return { addr, addrs: addr === null ? [] : [addr] };
};

export const closed = (addr: string | null, reason: string, result: boolean | null = null): EventFields => ({
  addr,
  reason,
  result,
});

export const routeFail = (topic: string | null, cause: string | null = null): EventFields => ({
  topic,
  cause,
  addr: null,
});

const registered = (f: Partial<Record<'brokerName' | 'brokerAddr' | 'namesrvAddr' | 'haAddr', string | null>> & { brokerId?: number | null }): EventFields => ({
  brokerName: f.brokerName ?? null,
  brokerAddr: f.brokerAddr ?? null,
  namesrvAddr: f.namesrvAddr ?? null,
  brokerId: f.brokerId ?? null,
  haAddr: f.haAddr ?? null,
});

const removed = (brokerName: string | null, brokerAddr: string | null, reason: string): EventFields => ({
  brokerName,
  brokerAddr,
  reason,
});

const slow = (what: string, g: G): EventFields => ({
  costMs: num(g.ms),
  what,
  bodyLength: num(g.len),
});

export const startup = (role: string, f: { version?: string | null; group?: string | null; brokerName?: string | null; brokerAddr?: string | null } = {}): EventFields => ({
  role,
  version: f.version ?? null,
  group: f.group ?? null,
  brokerName: f.brokerName ?? null,
  brokerAddr: f.brokerAddr ?? null,
});

const shutdown = (role: string): EventFields => ({ role, version: null });

const heartbeat = (g: G): EventFields => ({
  brokerName: str(g.name),
  brokerId: num(g.id),
  brokerAddr: normAddr(g.addr),
});

const diskFull = (ratio: number | null, code: number | null): EventFields => ({ ratio, code });

/**
 * The slave's housekeeping interval (now - lastWriteTimestamp, HAService$HAClient 4.x, DefaultHAClient
 * 5.x): closeMaster sets lastWriteTimestamp to 0, so a housekeeping pass before the next write prints
 * the clock itself (an epoch in ms), which is no interval. Null then.
 */
function haClientInterval(ms: number | null): number | null {
  return ms !== null && ms > EPOCH_LIKE_MS ? null : ms;
}
/** An "interval" above this (about 3 years) is an epoch in ms. */
const EPOCH_LIKE_MS = 1e11;

const storeSync = (
  status: string,
  f: { topic?: string | null; brokerName?: string | null; queueId?: number | null; addr?: string | null; intervalMs?: number | null; behindBytes?: number | string | null } = {},
): EventFields => ({
  status,
  topic: f.topic ?? null,
  brokerName: f.brokerName ?? null,
  queueId: f.queueId ?? null,
  addr: f.addr ?? null,
  intervalMs: f.intervalMs ?? null,
  behindBytes: f.behindBytes ?? null,
});

// ---------------------------------------------------------------------------------------------
// Pattern pieces

/** Optional `CODE: n  DESC: ` prefix of MQBrokerException / MQClientException messages (any spacing). */
export const CODE = String.raw`(?:CODE:\s*(?<code>-?\d+)\s*DESC:\s*)?`;
/**
 * Optional ` BROKER: addr` suffix of MQBrokerException (4.8.0+), anywhere later on the line; or the
 * address of a late reply dumped on its own line from 5.2.0 (NettyRemotingAbstract.processResponseCommand:
 * `receive response, cmd=RemotingCommand [... remark=...], but not matched any request, address=X`).
 */
export const BROKER = String.raw`(?:.*?(?:\bBROKER:\s*|but not matched any request, address=)(?<broker>[^\s,]+))?`;
/** Optional `, period in queue: Nms, size of queue: N` part of the BrokerFastFailure texts. */
const PERIOD = String.raw`(?:.*?period in queue:\s*(?<wait>-?\d+|[xX*]+)\s*ms(?:,\s*size of queue:\s*(?<size>-?\d+|[xX*]+))?)?`;

function busyPattern(token: string): RegExp {
  return new RegExp(`${CODE}\\[${token}\\]${PERIOD}${BROKER}`);
}

const CLIENT_PIPE = 'NETTY CLIENT PIPELINE: ';
const SERVER_PIPE = 'NETTY SERVER PIPELINE: ';

function pipeline(
  id: string,
  side: 'client' | 'server',
  event: string,
  keyword: string,
  pattern: RegExp,
  versions: string,
  format: string,
  samples: CatalogueEntry['samples'],
  versionHint?: string,
): CatalogueEntry {
  return {
    id,
    type: 'pipeline',
    keywords: [keyword],
    pattern,
    versions,
    source: side === 'client' ? 'remoting/netty/NettyRemotingClient$NettyConnectManageHandler' : 'remoting/netty/NettyRemotingServer$NettyConnectManageHandler',
    format,
    // NettyConnectManageHandler prints the remote address; CONNECT the local one first, 5.3.1+ the channel's id after it.
    args: format.includes(' => ') ? ['local', 'addr'] : format.split('{}').length > 2 ? ['addr', 'channelId'] : ['addr'],
    fields: (g) => ({ side, event, addr: chanAddr(g.a) }),
    ...(versionHint !== undefined ? { versionHint } : {}),
    samples,
  };
}

// ---------------------------------------------------------------------------------------------
// The entries, in precedence order.

export const ENTRIES: CatalogueEntry[] = [
  // ---- busy-reply: broker flow-control answers (SYSTEM_BUSY / SYSTEM_ERROR remarks) ----------
  {
    id: 'busy-reply/timeout-clean-queue',
    type: 'busy-reply',
    keywords: ['[TIMEOUT_CLEAN_QUEUE]'],
    pattern: busyPattern('TIMEOUT_CLEAN_QUEUE'),
    versions: 'all',
    source: 'broker/latency/BrokerFastFailure',
    format: '[TIMEOUT_CLEAN_QUEUE]broker busy, start flow control for a while, period in queue: %sms, size of queue: %d',
    args: ['waitMs', 'queueSize'],
    printf: true,
    fields: (g) => busy('TIMEOUT_CLEAN_QUEUE', g),
    samples: [
      {
        text: 'org.apache.rocketmq.client.exception.MQBrokerException: CODE: 2  DESC: [TIMEOUT_CLEAN_QUEUE]broker busy, start flow control for a while, period in queue: 205ms, size of queue: 5 BROKER: 10.0.0.1:10911',
        fields: { reason: 'TIMEOUT_CLEAN_QUEUE', waitMs: 205, queueSize: 5, code: 2, brokerAddr: '10.0.0.1:10911' },
      },
      {
        text: 'org.apache.rocketmq.client.exception.MQBrokerException: CODE: 2  DESC: [TIMEOUT_CLEAN_QUEUE]broker busy, start flow control for a while, period in queue: 309ms, size of queue: 4',
        fields: { waitMs: 309, queueSize: 4, code: 2, brokerAddr: null },
      },
      {
        text: 'Caused by: com.aliyun.openservices.shade.com.alibaba.rocketmq.client.exception.MQBrokerException: CODE: 2 DESC: [TIMEOUT_CLEAN_QUEUE]broker busy, start flow control for a while, period in queue: 2006ms, size of queue: 681',
        fields: { waitMs: 2006, queueSize: 681, code: 2 },
      },
      {
        text: 'publish topic:top-save-log error:CODE: 2  DESC: [TIMEOUT_CLEAN_QUEUE]broker busy, start flow control for a while, period in queue: 209ms, size of queue: 0',
        fields: { waitMs: 209, queueSize: 0, code: 2 },
      },
      {
        text: 'send failed: CODE: 2  DESC: [TIMEOUT_CLEAN_QUEUE]broker busy, start flow control for a while, period in queue: 201ms, size of queue: 12 BROKER: 192.168.0.7:10911 For more information, please visit the url, https://rocketmq.apache.org/docs/bestPractice/06FAQ',
        fields: { waitMs: 201, queueSize: 12, brokerAddr: '192.168.0.7:10911' },
      },
      { text: '[TIMEOUT_CLEAN_QUEUE]broker busy', fields: { waitMs: null, queueSize: null, code: null } },
      {
        // 5.3.3's late reply (gen-20261208: an overloaded broker answered 14 s after the send gave up).
        text: 'receive response, cmd=RemotingCommand [code=2, language=JAVA, version=433, opaque=422, flag(B)=1, remark=[TIMEOUT_CLEAN_QUEUE]broker busy, start flow control for a while, period in queue: 14216ms, size of queue: 5168, extFields=null, serializeTypeCurrentRPC=JSON], but not matched any request, address=10.213.0.22:10911, channelId=881edd67',
        fields: { reason: 'TIMEOUT_CLEAN_QUEUE', waitMs: 14216, queueSize: 5168, code: null, brokerAddr: '10.213.0.22:10911' },
      },
      {
        text: 'MQBrokerException: CODE: 2  DESC: [TIMEOUT_CLEAN_QUEUE]broker busy, start flow control for a while, period in queue: xxxms, size of queue: xx BROKER: 10.x.x.x:10911',
        fields: { waitMs: null, queueSize: null, code: 2, brokerAddr: '10.x.x.x:10911' },
      },
    ],
  },
  {
    id: 'busy-reply/pcbusy-clean-queue',
    type: 'busy-reply',
    keywords: ['[PCBUSY_CLEAN_QUEUE]'],
    pattern: busyPattern('PCBUSY_CLEAN_QUEUE'),
    versions: 'all',
    source: 'broker/latency/BrokerFastFailure',
    format: '[PCBUSY_CLEAN_QUEUE]broker busy, start flow control for a while, period in queue: %sms, size of queue: %d',
    args: ['waitMs', 'queueSize'],
    printf: true,
    fields: (g) => busy('PCBUSY_CLEAN_QUEUE', g),
    samples: [
      {
        text: 'org.apache.rocketmq.client.exception.MQBrokerException: CODE: 2  DESC: [PCBUSY_CLEAN_QUEUE]broker busy, start flow control for a while, period in queue: 12ms, size of queue: 301 BROKER: 10.0.0.2:10911',
        fields: { reason: 'PCBUSY_CLEAN_QUEUE', waitMs: 12, queueSize: 301, code: 2, brokerAddr: '10.0.0.2:10911' },
      },
    ],
  },
  {
    id: 'busy-reply/pc-synchronized',
    type: 'busy-reply',
    keywords: ['[PC_SYNCHRONIZED]'],
    pattern: busyPattern('PC_SYNCHRONIZED'),
    versions: 'all (code 1 up to 5.2.0, code 2 from 5.3.0)',
    source: 'broker/processor/SendMessageProcessor',
    format: '[PC_SYNCHRONIZED]broker busy, start flow control for a while',
    args: [],
    fields: (g) => busy('PC_SYNCHRONIZED', g),
    samples: [
      {
        text: 'org.apache.rocketmq.client.exception.MQBrokerException: CODE: 1  DESC: [PC_SYNCHRONIZED]broker busy, start flow control for a while BROKER: 10.0.0.1:10911',
        fields: { reason: 'PC_SYNCHRONIZED', waitMs: null, queueSize: null, code: 1, brokerAddr: '10.0.0.1:10911' },
      },
      {
        text: 'MQBrokerException: CODE: 2  DESC: [PC_SYNCHRONIZED]broker busy, start flow control for a while',
        fields: { code: 2, brokerAddr: null },
      },
    ],
  },
  {
    id: 'busy-reply/rejectrequest',
    type: 'busy-reply',
    keywords: ['[REJECTREQUEST]'],
    pattern: busyPattern('REJECTREQUEST'),
    versions: 'all',
    source: 'remoting/netty/NettyRemotingAbstract',
    format: '[REJECTREQUEST]system busy, start flow control for a while',
    args: [],
    fields: (g) => busy('REJECTREQUEST', g),
    samples: [
      {
        text: 'org.apache.rocketmq.client.exception.MQBrokerException: CODE: 2  DESC: [REJECTREQUEST]system busy, start flow control for a while BROKER: 10.0.0.1:10911',
        fields: { reason: 'REJECTREQUEST', code: 2, waitMs: null, queueSize: null, brokerAddr: '10.0.0.1:10911' },
      },
    ],
  },
  {
    id: 'busy-reply/overload',
    type: 'busy-reply',
    keywords: ['[OVERLOAD]'],
    pattern: busyPattern('OVERLOAD'),
    versions: 'all',
    source: 'remoting/netty/NettyRemotingAbstract',
    format: '[OVERLOAD]system busy, start flow control for a while',
    args: [],
    fields: (g) => busy('OVERLOAD', g),
    samples: [
      {
        text: 'org.apache.rocketmq.client.exception.MQBrokerException: CODE: 2  DESC: [OVERLOAD]system busy, start flow control for a while',
        fields: { reason: 'OVERLOAD', code: 2, brokerAddr: null },
      },
    ],
  },

  // ---- send-failed / send-call-timeout: what the send() caller gets --------------------------
  {
    id: 'send-failed/still-failed',
    type: 'send-failed',
    keywords: ['times, still failed'],
    // A number redacted in a paste (`xxx`) still matches, and gives null.
    pattern: /Send \[(?<n>\d+|[xX*]+)\] times, still failed, cost \[(?<cost>-?\d+|[xX*]+)\]ms(?:, Topic: (?<topic>[^,\s]*))?(?:, BrokersSent: \[(?<sent>[^\]]*))?/,
    versions: 'all',
    source: 'client/impl/producer/DefaultMQProducerImpl (MQClientException)',
    format: 'Send [%d] times, still failed, cost [%d]ms, Topic: %s, BrokersSent: %s',
    args: ['attempts', 'costMs', 'topic', 'brokersSent'],
    printf: true,
    fields: (g) => ({
      attempts: num(g.n),
      costMs: num(g.cost),
      topic: str(g.topic),
      brokersSent: splitSent(g.sent),
    }),
    samples: [
      {
        text: 'org.apache.rocketmq.client.exception.MQClientException: Send [3] times, still failed, cost [12]ms, Topic: T, BrokersSent: [broker-a, broker-b, broker-a]',
        fields: { attempts: 3, costMs: 12, topic: 'T', brokersSent: ['broker-a', 'broker-b', 'broker-a'] },
      },
      {
        text: 'org.apache.rocketmq.client.exception.MQClientException: Send [1] times, still failed, cost [5]ms, Topic: SSP_VC_COMMAND_CFG_PULL_PUSH_RESPOND_RECORD, BrokersSent: [broker-ssp-11]',
        fields: { attempts: 1, costMs: 5, topic: 'SSP_VC_COMMAND_CFG_PULL_PUSH_RESPOND_RECORD', brokersSent: ['broker-ssp-11'] },
      },
      {
        text: '10:52:07,674 ERROR [RocketMQSupport] Send [1] times, still failed, cost [3003]ms, Topic: autoPolicy, BrokersSent: [broker-a, null, null]',
        fields: { attempts: 1, costMs: 3003, topic: 'autoPolicy', brokersSent: ['broker-a', 'null', 'null'] },
      },
      { text: 'MQClientException: Send [3] times, still failed, cost [xxxx]ms, Topic: xxx_topic, BrokersSent: [broker-a, broker-b, broker-a]', fields: { attempts: 3, costMs: null, topic: 'xxx_topic' } },
    ],
  },
  {
    id: 'send-call-timeout/producer',
    type: 'send-call-timeout',
    keywords: ['sendDefaultImpl call timeout', 'sendSelectImpl call timeout', 'sendKernelImpl call timeout', 'DEFAULT ASYNC send call timeout'],
    pattern: /(?<api>sendDefaultImpl|sendSelectImpl|sendKernelImpl|DEFAULT ASYNC send) call timeout/,
    versions: '>=4.3.0',
    source: 'client/impl/producer/DefaultMQProducerImpl (RemotingTooMuchRequestException)',
    format: 'sendDefaultImpl call timeout',
    args: [],
    forms: {
      sendSelectImpl: { format: 'sendSelectImpl call timeout', args: [] },
      sendKernelImpl: { format: 'sendKernelImpl call timeout', args: [] },
      'DEFAULT ASYNC send': { format: 'DEFAULT ASYNC send call timeout', args: [] },
    },
    fields: (g) => ({ api: str(g.api) }),
    samples: [
      { text: 'org.apache.rocketmq.remoting.exception.RemotingTooMuchRequestException: sendDefaultImpl call timeout', fields: { api: 'sendDefaultImpl' } },
      { text: 'org.apache.rocketmq.remoting.exception.RemotingTooMuchRequestException: sendSelectImpl call timeout', fields: { api: 'sendSelectImpl' } },
      { text: 'RemotingTooMuchRequestException: sendKernelImpl call timeout', fields: { api: 'sendKernelImpl' } },
      { text: 'org.apache.rocketmq.remoting.exception.RemotingTooMuchRequestException: DEFAULT ASYNC send call timeout', fields: { api: 'DEFAULT ASYNC send' } },
    ],
  },
  {
    id: 'send-call-timeout/send-message',
    type: 'send-call-timeout',
    keywords: ['sendMessage call timeout'],
    pattern: /(?<api>sendMessage) call timeout/,
    versions: '>=4.3.0',
    source: 'client/impl/MQClientAPIImpl (RemotingTooMuchRequestException)',
    format: 'sendMessage call timeout',
    args: [],
    fields: (g) => ({ api: str(g.api) }),
    samples: [{ text: 'org.apache.rocketmq.remoting.exception.RemotingTooMuchRequestException: sendMessage call timeout', fields: { api: 'sendMessage' } }],
  },
  {
    id: 'send-call-timeout/bare',
    type: 'send-call-timeout',
    keywords: ['RemotingTooMuchRequestException: call timeout'],
    pattern: /RemotingTooMuchRequestException: call timeout/,
    versions: '>=4.3.0',
    source: 'client/impl/producer/DefaultMQProducerImpl (send to an explicit queue; RemotingTooMuchRequestException)',
    format: 'call timeout',
    args: [],
    fields: () => ({ api: null }),
    samples: [{ text: 'org.apache.rocketmq.remoting.exception.RemotingTooMuchRequestException: call timeout', fields: { api: null } }],
  },

  // ---- send-attempt-failed: one failed attempt inside the retry loop -------------------------
  {
    id: 'send-attempt-failed/unformatted',
    type: 'send-attempt-failed',
    keywords: ['sendKernelImpl exception'],
    pattern: /sendKernelImpl exception, (?:resend at once|throw exception), InvokeID: %s, RT: %sms, Broker: %s/,
    versions: '5.1.0-5.2.0',
    versionHint: '5.1.0-5.2.0',
    source: 'client/impl/producer/DefaultMQProducerImpl',
    // Logged through SLF4J with String.format's placeholders, which SLF4J leaves as they are (DefaultMQProducerImpl, 5.1.0-5.2.0).
    format: 'sendKernelImpl exception, resend at once, InvokeID: %s, RT: %sms, Broker: %s',
    args: [],
    forms: {
      throw: { format: 'sendKernelImpl exception, throw exception, InvokeID: %s, RT: %sms, Broker: %s', args: [] },
    },
    causeFromNext: true,
    fields: () => ({ invokeId: null, rtMs: null, topic: null, brokerName: null, queueId: null, cause: null }),
    samples: [
      {
        text: 'sendKernelImpl exception, resend at once, InvokeID: %s, RT: %sms, Broker: %s',
        fields: { invokeId: null, rtMs: null, topic: null, brokerName: null, queueId: null, cause: null },
      },
      { text: 'sendKernelImpl exception, throw exception, InvokeID: %s, RT: %sms, Broker: %s', fields: { rtMs: null } },
    ],
  },
  {
    id: 'send-attempt-failed/resend',
    type: 'send-attempt-failed',
    keywords: ['sendKernelImpl exception'],
    pattern: /sendKernelImpl exception, resend at once, InvokeID: (?<invoke>[^,\s]*), RT: (?<rt>-?\d+|[xX*]+)\s*ms(?:, Broker: (?<mq>.*))?/,
    versions: '4.2.0-5.0.0, >=5.3.0',
    source: 'client/impl/producer/DefaultMQProducerImpl',
    // String.format up to 5.0.0, the same text through SLF4J `{}` from 5.3.0.
    format: 'sendKernelImpl exception, resend at once, InvokeID: %s, RT: %sms, Broker: %s',
    args: ['invokeId', 'rtMs', 'mq'],
    printf: true,
    causeFromNext: true,
    fields: (g) => attempt(g),
    samples: [
      {
        text: 'sendKernelImpl exception, resend at once, InvokeID: -4223562238651452357, RT: 8ms, Broker: MessageQueue [topic=TopicTest, brokerName=broker-a, queueId=2]',
        fields: { invokeId: '-4223562238651452357', rtMs: 8, topic: 'TopicTest', brokerName: 'broker-a', queueId: 2, cause: null },
      },
      {
        text: ' sendKernelImpl exception, resend at once, InvokeID: 1069917335695137265, RT: 1501ms, Broker: MessageQueue [topic=AAA_BUSINESS, brokerName=broker-b, queueId=5]',
        fields: { invokeId: '1069917335695137265', rtMs: 1501, topic: 'AAA_BUSINESS', brokerName: 'broker-b', queueId: 5 },
      },
      {
        text: '2024-05-20 14:03:14.486 WARN  [23817] [main] [o.a.r.c.i.p.DefaultMQProducerImpl#?:?] - sendKernelImpl exception, resend at once, InvokeID: 812371, RT: 3004ms, Broker: MessageQueue [topic=TopicTest, brokerName=broker-a, queueId=1]',
        fields: { invokeId: '812371', rtMs: 3004, brokerName: 'broker-a', queueId: 1 },
      },
      {
        text: 'sendKernelImpl exception, resend at once, InvokeID: xxxxxxxx, RT: xxxms, Broker: MessageQueue [topic=xxx, brokerName=broker-a, queueId=3]',
        fields: { invokeId: 'xxxxxxxx', rtMs: null, brokerName: 'broker-a', queueId: 3 },
      },
    ],
  },
  {
    id: 'send-attempt-failed/throw',
    type: 'send-attempt-failed',
    keywords: ['sendKernelImpl exception'],
    pattern: /sendKernelImpl exception, throw exception, InvokeID: (?<invoke>[^,\s]*), RT: (?<rt>-?\d+|[xX*]+)\s*ms(?:, Broker: (?<mq>.*))?/,
    versions: '4.2.0-5.0.0, >=5.3.0',
    source: 'client/impl/producer/DefaultMQProducerImpl',
    format: 'sendKernelImpl exception, throw exception, InvokeID: %s, RT: %sms, Broker: %s',
    args: ['invokeId', 'rtMs', 'mq'],
    printf: true,
    causeFromNext: true,
    fields: (g) => attempt(g),
    samples: [
      {
        text: 'sendKernelImpl exception, throw exception, InvokeID: 77, RT: 15ms, Broker: MessageQueue [topic=T, brokerName=broker-c, queueId=0]',
        fields: { invokeId: '77', rtMs: 15, topic: 'T', brokerName: 'broker-c', queueId: 0 },
      },
    ],
  },
  {
    id: 'send-attempt-failed/bare',
    type: 'send-attempt-failed',
    keywords: ['sendKernelImpl exception'],
    pattern: /sendKernelImpl exception\s*$/,
    versions: '<4.2.0 (3.x)',
    versionHint: '<4.2.0',
    source: 'client/impl/producer/DefaultMQProducerImpl',
    format: 'sendKernelImpl exception',
    args: [],
    causeFromNext: true,
    fields: () => ({ invokeId: null, rtMs: null, topic: null, brokerName: null, queueId: null, cause: null }),
    samples: [{ text: '2018-02-06 18:44:08,425 WARN RocketmqClient(520) - sendKernelImpl exception', fields: { rtMs: null, topic: null } }],
  },

  // ---- connect-failed ------------------------------------------------------------------------
  {
    id: 'connect-failed/name-server-address-url',
    type: 'connect-failed',
    keywords: ['connect to '],
    pattern: /\bconnect to <?(?<a>[^>\s]*)>? failed, maybe the domain name/,
    versions: 'all',
    source: 'common/namesrv/TopAddressing',
    format: 'connect to {} failed, maybe the domain name {} not bind in /etc/hosts',
    args: ['addr', 'wsAddr'],
    fields: (g) => connect(g.a),
    samples: [
      {
        text: 'connect to http://jmenv.tbsite.net:8080/rocketmq/nsaddr failed, maybe the domain name jmenv.tbsite.net not bind in /etc/hosts',
        fields: { addr: 'http://jmenv.tbsite.net:8080/rocketmq/nsaddr' },
      },
    ],
  },
  {
    id: 'connect-failed/name-server-list',
    type: 'connect-failed',
    keywords: ['connect to '],
    pattern: /\bconnect to <?(?<a>\[[^\]]*\])>? failed/,
    versions: '<5.3.0',
    versionHint: '<5.3.0',
    source: 'remoting/netty/NettyRemotingClient (RemotingConnectException)',
    format: 'connect to {} failed',
    args: ['addr'],
    fields: (g) => connect(g.a),
    samples: [
      {
        text: 'org.apache.rocketmq.remoting.exception.RemotingConnectException: connect to [ns1:9876, ns2:9876] failed',
        fields: { addr: '[ns1:9876, ns2:9876]', addrs: ['ns1:9876', 'ns2:9876'] },
      },
      { text: 'RemotingConnectException: connect to [localhost:9876] failed', fields: { addr: '[localhost:9876]', addrs: ['localhost:9876'] } },
    ],
  },
  {
    id: 'connect-failed/angle',
    type: 'connect-failed',
    keywords: ['connect to '],
    pattern: /\bconnect to <(?<a>.*?)> failed/,
    versions: '<4.6.0',
    versionHint: '<4.6.0',
    source: 'remoting/exception/RemotingConnectException',
    format: 'connect to <{}> failed',
    args: ['addr'],
    fields: (g) => connect(g.a),
    samples: [
      {
        text: 'Caused by: org.apache.rocketmq.remoting.exception.RemotingConnectException: connect to <x.x.x.x10911> failed',
        fields: { addr: 'x.x.x.x10911', addrs: ['x.x.x.x10911'] },
      },
      { text: 'RemotingConnectException: connect to <null> failed', fields: { addr: null, addrs: [] } },
      {
        text: 'RemotingConnectException: connect to <8.130.123.101 #change you own physical IP Address:10909> failed',
        fields: { addr: '8.130.123.101 #change you own physical IP Address:10909' },
      },
    ],
  },
  {
    id: 'connect-failed/plain',
    type: 'connect-failed',
    keywords: ['connect to '],
    // After `ConnectException: ` any address text is accepted (damaged pastes); elsewhere only a
    // space-free one, so application texts like `connect to Redis at x failed` are not taken.
    pattern: /(?:ConnectException: connect to (?<a>.*?)|\bconnect to (?!master |namesrv failed\.)(?<b>\S+)) failed/,
    versions: '>=4.6.0',
    source: 'remoting/exception/RemotingConnectException',
    format: 'connect to {} failed',
    args: ['addr'],
    fields: (g) => connect(g.a ?? g.b),
    samples: [
      {
        text: 'org.apache.rocketmq.remoting.exception.RemotingConnectException: connect to 10.0.0.1:10911 failed',
        fields: { addr: '10.0.0.1:10911', addrs: ['10.0.0.1:10911'] },
      },
      { text: 'org.apache.rocketmq.remoting.exception.RemotingConnectException: connect to null failed', fields: { addr: null, addrs: [] } },
      {
        text: 'RemotingConnectException: connect to 8.130.123.101 #change you own physical IP Address:10909 failed',
        fields: { addr: '8.130.123.101 #change you own physical IP Address:10909' },
      },
      { text: 'send failed: connect to 10.0.0.1:10911 failed', fields: { addr: '10.0.0.1:10911' } },
    ],
  },
  {
    id: 'connect-failed/create-channel-failed',
    type: 'connect-failed',
    keywords: ['connect remote host['],
    pattern: /createChannel: connect remote host\[(?<a>[^\]]*)\] failed/,
    versions: '<5.3.0',
    versionHint: '<5.3.0',
    source: 'remoting/netty/NettyRemotingClient',
    format: 'createChannel: connect remote host[{}] failed, {}',
    args: ['addr', 'channelFuture'],
    fields: (g) => connect(g.a),
    samples: [
      {
        text: 'createChannel: connect remote host[10.0.0.1:10911] failed, DefaultChannelPromise@3c5a99da(failure: io.netty.channel.AbstractChannel$AnnotatedConnectException: Connection refused: /10.0.0.1:10911)',
        fields: { addr: '10.0.0.1:10911', addrs: ['10.0.0.1:10911'] },
      },
      {
        // A 5.1.4 broker's registration connect to a NameServer across a network cut (gen-715): the connect
        // timed out, and the future's cause says so; the RemotingConnectException its caller logs does not.
        text: '2026-12-05 05:54:59 WARN brokerOutApi_thread_3 - createChannel: connect remote host[10.213.0.13:9876] failed, AbstractBootstrap$PendingRegistrationPromise@6dd998b4(failure: io.netty.channel.ConnectTimeoutException: connection timed out: /10.213.0.13:9876)',
        fields: { addr: '10.213.0.13:9876', addrs: ['10.213.0.13:9876'] },
      },
    ],
  },
  {
    id: 'connect-failed/create-channel-timeout',
    type: 'connect-failed',
    keywords: ['connect remote host['],
    pattern: /createChannel: connect remote host\[(?<a>[^\]]*)\] timeout/,
    versions: '<5.3.0',
    versionHint: '<5.3.0',
    source: 'remoting/netty/NettyRemotingClient',
    format: 'createChannel: connect remote host[{}] timeout {}ms, {}',
    args: ['addr', 'connectTimeoutMillis', 'channelFuture'],
    fields: (g) => connect(g.a),
    samples: [
      {
        text: 'createChannel: connect remote host[10.0.0.9:9876] timeout 3000ms, DefaultChannelPromise@1b2c3d4e(incomplete)',
        fields: { addr: '10.0.0.9:9876', addrs: ['10.0.0.9:9876'] },
      },
      {
        // A 5.1.4 broker's NameServer scan (scanAvailableNameSrv) across a network cut (gen-715).
        text: '2026-12-05 05:54:56 WARN NettyClientScan_thread_1 - createChannel: connect remote host[10.213.0.11:9876] timeout 3000ms, AbstractBootstrap$PendingRegistrationPromise@7d1ecc1d(uncancellable)',
        fields: { addr: '10.213.0.11:9876', addrs: ['10.213.0.11:9876'] },
      },
    ],
  },

  // ---- rpc-timeout ---------------------------------------------------------------------------
  {
    id: 'rpc-timeout/wait-response-slash',
    type: 'rpc-timeout',
    keywords: ['wait response on the channel'],
    pattern: /wait response on the channel <(?<a>\/.*?)> timeout(?:,\s*(?<ms>-?\d+)\s*\(ms\))?/,
    versions: '>=5.2.0',
    versionHint: '>=5.2.0',
    source: 'remoting/exception/RemotingTimeoutException (NettyRemotingAbstract.invokeSyncImpl)',
    format: 'wait response on the channel <{}> timeout, {}(ms)',
    args: [{ name: 'addr', as: 'socket' }, 'timeoutMs'],
    fields: (g) => ({ addr: normAddr(g.a), timeoutMs: num(g.ms) }),
    samples: [
      {
        text: 'org.apache.rocketmq.remoting.exception.RemotingTimeoutException: wait response on the channel </10.0.0.1:10911> timeout, 2998(ms)',
        fields: { addr: '10.0.0.1:10911', timeoutMs: 2998 },
      },
      {
        text: 'RemotingTimeoutException: wait response on the channel </rmq-ns.example.com/10.0.0.5:9876> timeout, 3000(ms)',
        fields: { addr: 'rmq-ns.example.com/10.0.0.5:9876', timeoutMs: 3000 },
      },
    ],
  },
  {
    id: 'rpc-timeout/wait-response',
    type: 'rpc-timeout',
    keywords: ['wait response on the channel'],
    pattern: /wait response on the channel (?:<(?<a>.*?)>|(?<b>\S*)) timeout(?:,\s*(?<ms>-?\d+)\s*\(ms\))?/,
    versions: 'all',
    source: 'remoting/exception/RemotingTimeoutException (NettyRemotingAbstract.invokeSyncImpl)',
    format: 'wait response on the channel <{}> timeout, {}(ms)',
    args: ['addr', 'timeoutMs'],
    fields: (g) => ({ addr: normAddr(g.a ?? g.b), timeoutMs: num(g.ms) }),
    samples: [
      {
        text: 'org.apache.rocketmq.remoting.exception.RemotingTimeoutException: wait response on the channel <192.168.253.38:10911> timeout, 3000(ms)',
        fields: { addr: '192.168.253.38:10911', timeoutMs: 3000 },
      },
      {
        text: 'org.apache.rocketmq.remoting.exception.RemotingTimeoutException: wait response on the channel <1:10909> timeout, 1500(ms)',
        fields: { addr: '1:10909', timeoutMs: 1500 },
      },
      {
        text: 'org.apache.rocketmq.remoting.exception.RemotingTimeoutException: wait response on the channel <ocketmq-namesrv-prod01.cloud.bz/xx.x.xx.xx:9876> timeout, 6000(ms)',
        fields: { addr: 'ocketmq-namesrv-prod01.cloud.bz/xx.x.xx.xx:9876', timeoutMs: 6000 },
      },
      { text: 'RemotingTimeoutException: wait response on the channel <10.*.*.*:10909> timeout, 3000(ms)', fields: { addr: '10.*.*.*:10909' } },
      { text: 'RemotingTimeoutException: wait response on the channel <null> timeout, 3000(ms)', fields: { addr: null, timeoutMs: 3000 } },
    ],
  },
  {
    id: 'rpc-timeout/invoke-sync-wait-531',
    type: 'rpc-timeout',
    keywords: ['invokeSync: wait response timeout exception'],
    pattern: /invokeSync: wait response timeout exception, the channel\[addr=(?<a>[^,\]]*), id=[^\]]*\]/,
    versions: '>=5.3.1',
    versionHint: '>=5.3.1',
    source: 'remoting/netty/NettyRemotingClient',
    format: 'invokeSync: wait response timeout exception, the channel[addr={}, id={}]',
    args: ['addr', 'channelId'],
    fields: (g) => ({ addr: normAddr(g.a), timeoutMs: null }),
    samples: [
      {
        text: 'invokeSync: wait response timeout exception, the channel[addr=10.0.0.1:10911, id=5f3c2a1b]',
        fields: { addr: '10.0.0.1:10911', timeoutMs: null },
      },
    ],
  },
  {
    id: 'rpc-timeout/invoke-sync-wait',
    type: 'rpc-timeout',
    keywords: ['invokeSync: wait response timeout exception'],
    pattern: /invokeSync: wait response timeout exception, the channel\[(?<a>[^\]]*)\]/,
    versions: '<5.3.1',
    source: 'remoting/netty/NettyRemotingClient',
    format: 'invokeSync: wait response timeout exception, the channel[{}]',
    args: ['addr'],
    fields: (g) => ({ addr: normAddr(g.a), timeoutMs: null }),
    samples: [
      { text: 'invokeSync: wait response timeout exception, the channel[10.0.0.1:10911]', fields: { addr: '10.0.0.1:10911', timeoutMs: null } },
      { text: 'invokeSync: wait response timeout exception, the channel[null]', fields: { addr: null } },
    ],
  },
  {
    id: 'rpc-timeout/invoke-sync-call-timeout',
    type: 'rpc-timeout',
    keywords: ['invokeSync call timeout', 'invokeAsync call timeout'],
    pattern: /invoke(?:Sync|Async) call timeout/,
    versions: '4.3.0-4.9.2',
    versionHint: '4.3.0-4.9.2',
    // invokeAsync's check is the same (RemotingTooMuchRequestException): an ASYNC send's retry made
    // from its callback (MQClientAPIImpl.onExceptionImpl) after its budget was spent (gen-599).
    source:
      'remoting/netty/NettyRemotingClient.invokeSync (RemotingTimeoutException) and invokeAsync (RemotingTooMuchRequestException): the time budget was spent before the call',
    format: 'invokeSync call timeout',
    args: [],
    forms: {
      invokeAsync: { format: 'invokeAsync call timeout', args: [] },
    },
    fields: () => ({ addr: null, timeoutMs: null }),
    samples: [
      { text: 'Caused by: org.apache.rocketmq.remoting.exception.RemotingTimeoutException: invokeSync call timeout', fields: { addr: null, timeoutMs: null } },
      { text: 'org.apache.rocketmq.remoting.exception.RemotingTooMuchRequestException: invokeAsync call timeout', fields: { addr: null, timeoutMs: null } },
    ],
  },
  {
    id: 'rpc-timeout/async-send-wait-response',
    type: 'rpc-timeout',
    keywords: ['wait response timeout '],
    pattern: /wait response timeout (?<ms>-?\d+)ms/,
    versions: '<5.2.0 (3.x com.alibaba.rocketmq too)',
    versionHint: '<5.2.0',
    source: 'client/impl/MQClientAPIImpl.sendMessageAsync (MQClientException in the send callback)',
    format: 'wait response timeout {}ms',
    args: ['timeoutMs'],
    fields: (g) => ({ addr: null, timeoutMs: num(g.ms) }),
    samples: [
      { text: 'com.alibaba.rocketmq.client.exception.MQClientException: wait response timeout 10000ms', fields: { addr: null, timeoutMs: 10000 } },
      { text: 'org.apache.rocketmq.client.exception.MQClientException: wait response timeout 0ms', fields: { timeoutMs: 0 } },
    ],
  },
  {
    id: 'async-timeout/remove-timeout-request',
    type: 'async-timeout',
    keywords: ['remove timeout request'],
    // NettyRemotingAbstract.scanResponseTable (every 1 s, 4.x and 5.x) drops an invokeAsync request
    // once beginTimestamp + timeoutMillis + 1000 has passed and runs its callback: an ASYNC send's
    // timeout (MQClientAPIImpl$1, sendMessageAsync's InvokeCallback: the first anonymous class of
    // MQClientAPIImpl, 4.3.0-5.3.3), or a pull's. timeoutMillis is what the request was given: a
    // send's first attempt gets its whole sendMsgTimeout less what went before it. ResponseFuture's
    // toString names the channel (processChannel, `R:` its remote end) up to 4.9.x, not from 5.0.0.
    pattern:
      /remove timeout request, ResponseFuture \[.*?opaque=(?<op>-?\d+)(?:, processChannel=(?:\[[^\]]*?R:(?<a>[^\]\s,]+)[^\]]*\]|\S+?))?, timeoutMillis=(?<ms>-?\d+)(?:, invokeCallback=(?<cb>[\w.$]+?)(?:@[0-9a-f]+)?(?=[,\]]))?(?:.*?beginTimestamp=(?<begin>\d+))?/,
    versions: 'all',
    source: 'remoting/netty/NettyRemotingAbstract.scanResponseTable (ResponseFuture.toString)',
    format:
      'remove timeout request, ResponseFuture [responseCommand={}, sendRequestOK={}, cause={}, opaque={}, processChannel={}, timeoutMillis={}, invokeCallback={}, beginTimestamp={}, countDownLatch={}]',
    args: ['responseCommand', 'sendRequestOK', 'cause', 'opaque', 'processChannel', 'timeoutMs', 'invokeCallback', 'beginMs', 'countDownLatch'],
    forms: {
      '5.x': {
        format:
          'remove timeout request, ResponseFuture [responseCommand={}, sendRequestOK={}, cause={}, opaque={}, timeoutMillis={}, invokeCallback={}, beginTimestamp={}, countDownLatch={}]',
        args: ['responseCommand', 'sendRequestOK', 'cause', 'opaque', 'timeoutMs', 'invokeCallback', 'beginMs', 'countDownLatch'],
      },
    },
    fields: (g) => ({ addr: normAddr(g.a), timeoutMs: num(g.ms), opaque: num(g.op), callback: g.cb ?? null, beginMs: num(g.begin) }),
    samples: [
      {
        // gen-710, app-order-01 (4.9.4): an ASYNC send to the hung broker-a.
        text: '2026-12-05 05:33:10,409 WARN RocketmqRemoting - remove timeout request, ResponseFuture [responseCommand=null, sendRequestOK=true, cause=null, opaque=166, processChannel=[id: 0x62730d41, L:/10.213.0.31:58446 - R:/10.213.0.21:10911], timeoutMillis=1000, invokeCallback=org.apache.rocketmq.client.impl.MQClientAPIImpl$1@30b2cdb0, beginTimestamp=1796419987422, countDownLatch=java.util.concurrent.CountDownLatch@2e103f66[Count = 1]]',
        fields: { addr: '10.213.0.21:10911', timeoutMs: 1000, opaque: 166, callback: 'org.apache.rocketmq.client.impl.MQClientAPIImpl$1', beginMs: 1796419987422 },
      },
      {
        text: 'WARN RocketmqRemoting - remove timeout request, ResponseFuture [responseCommand=null, sendRequestOK=true, cause=null, opaque=167, processChannel=[id: 0x62730d41, L:/10.213.0.31:58446 - R:/10.213.0.21:10911], timeoutMillis=997, invokeCallback=org.apache.rocketmq.client.impl.MQClientAPIImpl$1@488daec4, beginTimestamp=1796419988425, countDownLatch=java.util.concurrent.CountDownLatch@7feafdfc[Count = 1]]',
        fields: { addr: '10.213.0.21:10911', timeoutMs: 997, opaque: 167 },
      },
      {
        // 5.x: no channel in ResponseFuture.toString, the callback wrapped by NettyRemotingClient.
        text: 'remove timeout request, ResponseFuture [responseCommand=null, sendRequestOK=true, cause=null, opaque=52, timeoutMillis=3000, invokeCallback=org.apache.rocketmq.remoting.netty.NettyRemotingClient$InvokeCallbackWrapper@1f2e3d4c, beginTimestamp=1700000000000, countDownLatch=java.util.concurrent.CountDownLatch@5a6b7c8d[Count = 1]]',
        fields: { addr: null, timeoutMs: 3000, opaque: 52, callback: 'org.apache.rocketmq.remoting.netty.NettyRemotingClient$InvokeCallbackWrapper' },
      },
    ],
  },
  {
    id: 'rpc-timeout/async-send-wait-response-cost',
    type: 'rpc-timeout',
    keywords: ['wait response timeout, cost='],
    pattern: /wait response timeout, cost=(?<ms>-?\d+)/,
    versions: '>=5.2.0',
    versionHint: '>=5.2.0',
    source: 'client/impl/MQClientAPIImpl.sendMessageAsync (MQClientException in the send callback)',
    format: 'wait response timeout, cost={}',
    args: ['cost'],
    fields: () => ({ addr: null, timeoutMs: null }),
    samples: [{ text: 'org.apache.rocketmq.client.exception.MQClientException: wait response timeout, cost=3002', fields: { addr: null, timeoutMs: null } }],
  },
  {
    id: 'rpc-timeout/call-the-addr',
    type: 'rpc-timeout',
    keywords: ['call the addr['],
    pattern: /invoke(?:Sync|Async) call the addr\[(?<a>[^\]]*)\] timeout/,
    versions: '>=4.9.3 (replaces invokeSync call timeout)',
    versionHint: '>=4.9.3',
    source: 'remoting/netty/NettyRemotingClient (RemotingTimeoutException / RemotingTooMuchRequestException)',
    format: 'invokeSync call the addr[{}] timeout',
    args: ['addr'],
    forms: {
      invokeAsync: { format: 'invokeAsync call the addr[{}] timeout', args: ['addr'] },
    },
    fields: (g) => ({ addr: normAddr(g.a), timeoutMs: null }),
    samples: [
      { text: 'org.apache.rocketmq.remoting.exception.RemotingTimeoutException: invokeSync call the addr[10.0.0.1:10911] timeout', fields: { addr: '10.0.0.1:10911', timeoutMs: null } },
      { text: 'RemotingTooMuchRequestException: invokeAsync call the addr[10.0.0.2:10911] timeout', fields: { addr: '10.0.0.2:10911' } },
    ],
  },
  {
    id: 'rpc-timeout/invoke-async-impl',
    type: 'rpc-timeout',
    keywords: ['invokeAsyncImpl call timeout'],
    // NettyRemotingAbstract.invokeAsyncImpl (5.x): the time spent before the request could be written
    // (the semaphore, the channel's connect) was past the request's timeout; an asynchronous send's
    // SendCallback gets it as `MQClientException: unknown reason` caused by this (gen-20261225: 30 of
    // a 5.3.1 client's sends to a broker that had gone dark).
    pattern: /RemotingTimeoutException: invokeAsyncImpl call timeout/,
    versions: '5.x',
    versionHint: '>=5.0.0',
    source: 'remoting/netty/NettyRemotingAbstract (invokeAsyncImpl: RemotingTimeoutException)',
    format: 'invokeAsyncImpl call timeout',
    args: [],
    fields: () => ({ addr: null, timeoutMs: null }),
    samples: [{ text: 'Caused by: org.apache.rocketmq.remoting.exception.RemotingTimeoutException: invokeAsyncImpl call timeout', fields: { addr: null, timeoutMs: null } }],
  },
  {
    id: 'send-async-retry/by-retry',
    type: 'send-async-retry',
    keywords: ['async send msg by retry'],
    // MQClientAPIImpl.onExceptionImpl: an ASYNC send's attempt failed in a way it retries (a timeout,
    // a request that could not be sent; not a broker's error reply), and retries are left
    // (retryTimesWhenSendAsyncFailed): it names the retry's count and the broker selectOneMessageQueue
    // picked for it, not the one that failed. INFO without the exception up to 4.9.2; WARN with it
    // from 4.9.3, where String.format left the placeholders as they were (`{} times. topic={}`);
    // 5.x fills them.
    pattern: /async send msg by retry (?<n>\S+) times\. topic=(?<t>[^,\s]*), brokerAddr=(?<a>[^,\s]*), brokerName=(?<b>\S*)/,
    versions: 'all',
    source: 'client/impl/MQClientAPIImpl.onExceptionImpl',
    format: 'async send msg by retry {} times. topic={}, brokerAddr={}, brokerName={}',
    args: ['times', 'topic', 'brokerAddr', 'brokerName'],
    fields: (g) => ({ times: num(g.n), topic: placeholderless(g.t), brokerAddr: normAddr(placeholderless(g.a)), brokerName: placeholderless(g.b) }),
    samples: [
      {
        // gen-710, app-order-01 (4.9.4).
        text: '2026-12-05 05:33:10,411 WARN RocketmqClient - async send msg by retry 1 times. topic=TopicOrder, brokerAddr=10.213.0.23:10911, brokerName=broker-c',
        fields: { times: 1, topic: 'TopicOrder', brokerAddr: '10.213.0.23:10911', brokerName: 'broker-c' },
      },
      {
        text: 'WARN RocketmqClient - async send msg by retry 2 times. topic=TopicOrder, brokerAddr=10.213.0.22:10911, brokerName=broker-b',
        fields: { times: 2, topic: 'TopicOrder', brokerAddr: '10.213.0.22:10911', brokerName: 'broker-b' },
      },
      { text: 'WARN RocketmqClient - async send msg by retry {} times. topic={}, brokerAddr={}, brokerName={}', fields: { times: null, topic: null, brokerAddr: null, brokerName: null } },
    ],
  },
  {
    id: 'late-response/not-matched',
    type: 'late-response',
    keywords: ['but not matched any request'],
    pattern: /receive response, (?:cmd=.*, )?but not matched any request, (?:address=)?(?<a>[^\s,]+)/,
    // Up to 5.1.x the address alone; from 5.2.0 the response first (`cmd={}`) and `address={}`,
    // from 5.3.1 `, channelId={}` after it.
    versions: 'all',
    // NettyRemotingAbstract.processResponseCommand: a response whose request was already given up
    // (timed out and removed from responseTable); the next line of the same thread is the response
    // itself (`RemotingCommand [code=2, ... remark=[TIMEOUT_CLEAN_QUEUE]broker busy ...]`), whose
    // events the parser gives this address (SourceParser.closeRecord).
    source: 'remoting/netty/NettyRemotingAbstract.processResponseCommand',
    format: 'receive response, but not matched any request, {}',
    args: ['addr'],
    fields: (g) => ({ addr: normAddr(g.a) }),
    samples: [
      { text: 'receive response, but not matched any request, 10.213.0.23:10911', fields: { addr: '10.213.0.23:10911' } },
      { text: 'receive response, but not matched any request, /10.0.0.5:10911', fields: { addr: '10.0.0.5:10911' } },
      {
        text: 'receive response, cmd=RemotingCommand [code=0, language=JAVA, version=433, opaque=99, flag(B)=1, remark=null, extFields={msgId=0A}, serializeTypeCurrentRPC=JSON], but not matched any request, address=10.213.0.22:10911, channelId=881edd67',
        fields: { addr: '10.213.0.22:10911' },
      },
    ],
  },
  {
    id: 'send-request-failed/send-request-to',
    type: 'send-request-failed',
    keywords: ['send request to <'],
    pattern: /send request to <(?<a>[^>]*)> failed/,
    versions: 'all',
    // NettyRemotingAbstract.invokeSyncImpl (4.x, 5.x): the request could not be written to the
    // channel (responseFuture.isSendRequestOK() false: the connection broke or was closed under it);
    // NettyRemotingClient.invokeSync closes that channel and throws it on. A send attempt the broker
    // never received: the producer's retry loop retries it, a one-attempt send loses it (gen-703).
    source: 'remoting/exception/RemotingSendRequestException (NettyRemotingAbstract.invokeSyncImpl)',
    format: 'send request to <{}> failed',
    args: ['addr'],
    fields: (g) => ({ addr: normAddr(g.a) }),
    samples: [
      { text: 'org.apache.rocketmq.remoting.exception.RemotingSendRequestException: send request to <10.213.0.22:10911> failed', fields: { addr: '10.213.0.22:10911' } },
      { text: 'Caused by: org.apache.rocketmq.remoting.exception.RemotingSendRequestException: send request to </10.0.0.5:9876> failed', fields: { addr: '10.0.0.5:9876' } },
    ],
  },

  // ---- channel-closed ------------------------------------------------------------------------
  {
    id: 'channel-closed/connection-closed',
    type: 'channel-closed',
    keywords: ['close the connection to remote address['],
    pattern: /closeChannel: close the connection to remote address\[(?<a>[^\]]*)\](?: result: (?<r>true|false))?/,
    versions: 'all',
    source: 'remoting/common/RemotingUtil (4.x), remoting/common/RemotingHelper (5.x)',
    format: 'closeChannel: close the connection to remote address[{}] result: {}',
    args: ['addr', 'result'],
    fields: (g) => closed(normAddr(g.a), 'close', bool(g.r)),
    samples: [
      {
        text: 'closeChannel: close the connection to remote address[172.30.44.144:9876] result: true',
        fields: { addr: '172.30.44.144:9876', reason: 'close', result: true },
      },
      { text: 'closeChannel: close the connection to remote address[] result: true', fields: { addr: null, result: true } },
      { text: 'closeChannel: close the connection to remote address[xx.xx.xx.xx9876] result: false', fields: { addr: 'xx.xx.xx.xx9876', result: false } },
    ],
  },
  {
    id: 'channel-closed/timeout-531',
    type: 'channel-closed',
    keywords: ['close socket because of timeout'],
    pattern: /invokeSync: close socket because of timeout, (?<ms>-?\d+)ms, channel\[addr=(?<a>[^,\]]*), id=[^\]]*\]/,
    versions: '>=5.3.1',
    versionHint: '>=5.3.1',
    source: 'remoting/netty/NettyRemotingClient',
    format: 'invokeSync: close socket because of timeout, {}ms, channel[addr={}, id={}]',
    args: ['timeoutMillis', 'addr', 'channelId'],
    fields: (g) => closed(normAddr(g.a), 'timeout'),
    samples: [
      {
        text: 'invokeSync: close socket because of timeout, 3000ms, channel[addr=10.0.0.1:10911, id=5f3c2a1b]',
        fields: { addr: '10.0.0.1:10911', reason: 'timeout', result: null },
      },
    ],
  },
  {
    id: 'channel-closed/timeout',
    type: 'channel-closed',
    keywords: ['close socket because of timeout'],
    pattern: /invokeSync: close socket because of timeout, (?<ms>-?\d+)ms, (?<a>.*?)\s*$/,
    versions: '<5.3.1',
    source: 'remoting/netty/NettyRemotingClient',
    format: 'invokeSync: close socket because of timeout, {}ms, {}',
    args: ['timeoutMillis', 'addr'],
    fields: (g) => closed(normAddr(g.a), 'timeout'),
    samples: [
      { text: 'invokeSync: close socket because of timeout, 3000ms, 10.0.0.1:10911', fields: { addr: '10.0.0.1:10911', reason: 'timeout', result: null } },
      { text: 'invokeSync: close socket because of timeout, 3000ms, null', fields: { addr: null } },
    ],
  },
  {
    id: 'channel-closed/removed-531',
    type: 'channel-closed',
    keywords: ['was removed from channel table'],
    pattern: /closeChannel: the channel\[addr=(?<a>[^,\]]*), id=[^\]]*\] was removed from channel table/,
    versions: '>=5.3.1',
    versionHint: '>=5.3.1',
    source: 'remoting/netty/NettyRemotingClient',
    format: 'closeChannel: the channel[addr={}, id={}] was removed from channel table',
    args: ['addr', 'channelId'],
    fields: (g) => closed(normAddr(g.a), 'removed'),
    samples: [
      {
        text: 'closeChannel: the channel[addr=10.0.0.1:10911, id=5f3c2a1b] was removed from channel table',
        fields: { addr: '10.0.0.1:10911', reason: 'removed', result: null },
      },
    ],
  },
  {
    id: 'channel-closed/removed',
    type: 'channel-closed',
    keywords: ['was removed from channel table'],
    pattern: /closeChannel: the channel\[(?<a>[^\]]*)\] was removed from channel table/,
    versions: '<5.3.1',
    source: 'remoting/netty/NettyRemotingClient',
    format: 'closeChannel: the channel[{}] was removed from channel table',
    args: ['addr'],
    fields: (g) => closed(normAddr(g.a), 'removed'),
    samples: [
      { text: 'closeChannel: the channel[192.168.0.153:10911] was removed from channel table', fields: { addr: '192.168.0.153:10911', reason: 'removed' } },
      { text: 'closeChannel: the channel[xx.xx.xx.xx:9876] was removed from channel table', fields: { addr: 'xx.xx.xx.xx:9876' } },
    ],
  },
  {
    id: 'channel-closed/send-exception-532',
    type: 'channel-closed',
    keywords: ['send request exception, so close the channel['],
    pattern: /invoke(?:Sync|Async|Oneway): send request exception, so close the channel\[addr=(?<a>[^,\]]*), id=[^\]]*\]/,
    versions: '>=5.3.2',
    versionHint: '>=5.3.2',
    source: 'remoting/netty/NettyRemotingClient',
    format: 'invokeSync: send request exception, so close the channel[addr={}, id={}]',
    args: ['addr', 'channelId'],
    fields: (g) => closed(normAddr(g.a), 'send-exception'),
    samples: [
      {
        text: 'invokeSync: send request exception, so close the channel[addr=10.0.0.1:10911, id=5f3c2a1b]',
        fields: { addr: '10.0.0.1:10911', reason: 'send-exception', result: null },
      },
    ],
  },
  {
    id: 'channel-closed/send-exception',
    type: 'channel-closed',
    keywords: ['send request exception, so close the channel['],
    pattern: /invoke(?:Sync|Async|Oneway): send request exception, so close the channel\[(?<a>[^\]]*)\]/,
    versions: 'all (invokeSync text up to 5.3.1)',
    source: 'remoting/netty/NettyRemotingClient',
    format: 'invokeSync: send request exception, so close the channel[{}]',
    args: ['addr'],
    forms: {
      invokeAsync: { format: 'invokeAsync: send request exception, so close the channel[{}]', args: ['addr'] },
    },
    fields: (g) => closed(normAddr(g.a), 'send-exception'),
    samples: [
      { text: 'invokeSync: send request exception, so close the channel[10.0.0.1:10911]', fields: { addr: '10.0.0.1:10911', reason: 'send-exception' } },
      { text: 'invokeAsync: send request exception, so close the channel[10.0.0.3:10911]', fields: { addr: '10.0.0.3:10911' } },
    ],
  },

  // ---- name server selection and list --------------------------------------------------------
  {
    id: 'namesrv-chosen/chosen',
    type: 'namesrv-chosen',
    keywords: ['new name server is chosen'],
    pattern: /new name server is chosen\. OLD: (?<old>.*?) , NEW: (?<nw>.*?)\. namesrvIndex = (?<idx>-?\d+)/,
    versions: '>=4.1.0 (4.0.0 logs no pick)',
    source: 'remoting/netty/NettyRemotingClient',
    format: 'new name server is chosen. OLD: {} , NEW: {}. namesrvIndex = {}',
    args: ['old', 'new', 'namesrvIndex'],
    fields: (g) => ({ old: normAddr(g.old), new: normAddr(g.nw), namesrvIndex: num(g.idx) }),
    samples: [
      {
        text: 'new name server is chosen. OLD: null , NEW: 10.0.0.5:9876. namesrvIndex = 412',
        fields: { old: null, new: '10.0.0.5:9876', namesrvIndex: 412 },
      },
      {
        text: 'new name server is chosen. OLD: 10.0.0.5:9876 , NEW: 10.0.0.6:9876. namesrvIndex = 413',
        fields: { old: '10.0.0.5:9876', new: '10.0.0.6:9876', namesrvIndex: 413 },
      },
    ],
  },
  {
    id: 'namesrv-list/updated',
    type: 'namesrv-list',
    keywords: ['name server address updated'],
    pattern: /name server address updated\. NEW : (?<nw>\[[^\]]*\]?) , OLD: (?<old>.*?)\s*$/,
    versions: '>=4.1.0',
    source: 'remoting/netty/NettyRemotingClient',
    format: 'name server address updated. NEW : {} , OLD: {}',
    args: ['addrs', 'old'],
    fields: (g) => ({ addrs: splitAddrs(g.nw), old: str(g.old) }),
    samples: [
      {
        text: '2020-04-24 15:21:30,030 INFO RocketmqRemoting - name server address updated. NEW : [127.0.0.1:9876] , OLD: null',
        fields: { addrs: ['127.0.0.1:9876'], old: null },
      },
      {
        text: 'name server address updated. NEW : [10.0.0.6:9876, 10.0.0.5:9876] , OLD: [10.0.0.5:9876]',
        fields: { addrs: ['10.0.0.6:9876', '10.0.0.5:9876'], old: '[10.0.0.5:9876]' },
      },
    ],
  },
  {
    id: 'namesrv-list/broker-user-specified',
    type: 'namesrv-list',
    keywords: ['Set user specified name server address'],
    pattern: /Set user specified name server address: (?<l>.*?)\s*$/,
    versions: 'all',
    source: 'broker/BrokerController',
    format: 'Set user specified name server address: {}',
    args: [{ name: 'addrs', as: 'semicolons' }],
    fields: (g) => ({ addrs: splitAddrs(g.l), old: null }),
    samples: [
      {
        text: 'Set user specified name server address: x.230:29876;x.203:29876;x.114:29876;x.191:29876;x.200:29876',
        fields: { addrs: ['x.230:29876', 'x.203:29876', 'x.114:29876', 'x.191:29876', 'x.200:29876'], old: null },
      },
    ],
  },
  {
    id: 'namesrv-list/user-specified',
    type: 'namesrv-list',
    keywords: ['user specified name server address'],
    pattern: /user specified name server address: (?<l>.*?)\s*$/,
    versions: 'all',
    source: 'client/impl/factory/MQClientInstance',
    format: 'user specified name server address: {}',
    args: [{ name: 'addrs', as: 'semicolons' }],
    fields: (g) => ({ addrs: splitAddrs(g.l), old: null }),
    samples: [{ text: 'user specified name server address: 10.0.0.5:9876;10.0.0.6:9876', fields: { addrs: ['10.0.0.5:9876', '10.0.0.6:9876'], old: null } }],
  },
  {
    id: 'namesrv-list/fetched',
    type: 'namesrv-list',
    keywords: ['name server address changed'],
    pattern: /name server address changed, old=(?<old>.*?), new=(?<nw>.*?)\s*$/,
    versions: 'all',
    source: 'client/impl/MQClientAPIImpl',
    format: 'name server address changed, old={}, new={}',
    args: ['old', { name: 'addrs', as: 'semicolons' }],
    fields: (g) => ({ addrs: splitAddrs(g.nw), old: str(g.old) }),
    samples: [
      {
        text: 'name server address changed, old=null, new=10.0.0.5:9876;10.0.0.6:9876',
        fields: { addrs: ['10.0.0.5:9876', '10.0.0.6:9876'], old: null },
      },
    ],
  },
  {
    id: 'namesrv-list/broker-fetched',
    type: 'namesrv-list',
    keywords: ['name server address changed'],
    pattern: /name server address changed, old: (?<old>.*?) new: (?<nw>.*?)\s*$/,
    versions: 'all',
    source: 'broker/out/BrokerOuterAPI',
    format: 'name server address changed, old: {} new: {}',
    args: ['old', { name: 'addrs', as: 'semicolons' }],
    fields: (g) => ({ addrs: splitAddrs(g.nw), old: str(g.old) }),
    samples: [
      {
        text: 'name server address changed, old: 10.0.0.5:9876 new: 10.0.0.5:9876;10.0.0.7:9876',
        fields: { addrs: ['10.0.0.5:9876', '10.0.0.7:9876'], old: '10.0.0.5:9876' },
      },
    ],
  },

  // ---- routes --------------------------------------------------------------------------------
  {
    id: 'route-update-failed/code-17',
    type: 'route-update-failed',
    keywords: ['No topic route info in name server'],
    pattern: new RegExp(`${CODE}No topic route info in name server for the topic: ?(?<t>[^\\s,]*)`),
    versions: 'all',
    source: 'namesrv/processor/DefaultRequestProcessor (4.x), namesrv/processor/ClientRequestProcessor (5.x)',
    // The remark; MQClientException puts `CODE: 17  DESC: ` before it on the client.
    format: 'No topic route info in name server for the topic: {}',
    args: ['topic'],
    fields: (g) => routeFail(str(g.t)),
    samples: [
      {
        text: 'org.apache.rocketmq.client.exception.MQClientException: CODE: 17  DESC: No topic route info in name server for the topic: TBW102',
        fields: { topic: 'TBW102', cause: null, addr: null },
      },
      {
        text: 'MQClientException: CODE: 17  DESC: No topic route info in name server for the topic: %RETRY%group_a See https://rocketmq.apache.org/docs/bestPractice/06FAQ for further details.',
        fields: { topic: '%RETRY%group_a' },
      },
    ],
  },
  {
    id: 'route-update-failed/scheduled-task',
    type: 'route-update-failed',
    keywords: ['ScheduledTask updateTopicRouteInfoFromNameServer exception'],
    pattern: /ScheduledTask updateTopicRouteInfoFromNameServer exception/,
    versions: 'all',
    source: 'client/impl/factory/MQClientInstance',
    format: 'ScheduledTask updateTopicRouteInfoFromNameServer exception',
    args: [],
    causeFromNext: true,
    fields: () => routeFail(null),
    samples: [{ text: 'ScheduledTask updateTopicRouteInfoFromNameServer exception', fields: { topic: null, cause: null, addr: null } }],
  },
  {
    id: 'route-update-failed/exception',
    type: 'route-update-failed',
    keywords: ['updateTopicRouteInfoFromNameServer Exception'],
    pattern: /updateTopicRouteInfoFromNameServer Exception/,
    versions: 'all',
    source: 'client/impl/factory/MQClientInstance',
    format: 'updateTopicRouteInfoFromNameServer Exception',
    args: [],
    causeFromNext: true,
    fields: () => routeFail(null),
    samples: [
      {
        text: '2021-04-28 10:34:33 WARN MQClientFactoryScheduledThread - updateTopicRouteInfoFromNameServer Exception',
        fields: { topic: null, cause: null, addr: null },
      },
    ],
  },
  {
    id: 'route-update-failed/return-null',
    type: 'route-update-failed',
    keywords: ['getTopicRouteInfoFromNameServer return null'],
    pattern: /getTopicRouteInfoFromNameServer return null, Topic: (?<t>[^\s.,\[\]]*)/,
    versions: 'all',
    source: 'client/impl/factory/MQClientInstance',
    format: 'updateTopicRouteInfoFromNameServer, getTopicRouteInfoFromNameServer return null, Topic: {}. [{}]',
    args: ['topic', 'clientId'],
    fields: (g) => routeFail(str(g.t)),
    samples: [
      {
        text: 'updateTopicRouteInfoFromNameServer, getTopicRouteInfoFromNameServer return null, Topic: TopicTest. [10.0.0.9@12345]',
        fields: { topic: 'TopicTest', cause: null },
      },
    ],
  },
  {
    id: 'route-update-failed/not-exist-value',
    type: 'route-update-failed',
    keywords: ['RouteInfoFromNameServer is not exist value'],
    pattern: /get Topic \[(?<t>[^\]]*)\] RouteInfoFromNameServer is not exist value/,
    versions: 'all',
    source: 'client/impl/MQClientAPIImpl',
    format: 'get Topic [{}] RouteInfoFromNameServer is not exist value',
    args: ['topic'],
    fields: (g) => routeFail(str(g.t)),
    samples: [{ text: 'get Topic [%RETRY%group_a] RouteInfoFromNameServer is not exist value', fields: { topic: '%RETRY%group_a' } }],
  },
  {
    id: 'route-update-failed/cpp',
    type: 'route-update-failed',
    keywords: ['] route failed'],
    pattern: /Get topic\[(?<t>[^\]]*)\] route failed(?: \[(?<why>[^\]]*)\])?/,
    versions: 'rocketmq-client-cpp',
    source: 'rocketmq-client-cpp MQClientAPIImpl::getTopicRouteInfoFromNameServer',
    format: 'Get topic[%s] route failed [TOPIC_NOT_EXIST].',
    args: ['topic'],
    printf: true,
    forms: {
      'Null Response': { format: 'Get topic[%s] route failed [Null Response].', args: ['topic'], printf: true },
    },
    fields: (g) => routeFail(str(g.t), str(g.why)),
    samples: [
      {
        text: '[2020-May-17 07:41:38.780542](warning):Get topic[TBW102] route failed [TOPIC_NOT_EXIST].[getTopicRouteInfoFromNameServer:324]',
        fields: { topic: 'TBW102', cause: 'TOPIC_NOT_EXIST', addr: null },
      },
      { text: '[2020-May-17 07:41:38.780542](warning):Get topic[TBW102] route failed [Null Response].[getTopicRouteInfoFromNameServer:334]', fields: { topic: 'TBW102', cause: 'Null Response' } },
    ],
  },
  {
    id: 'route-changed/changed',
    type: 'route-changed',
    keywords: ['route info changed'],
    pattern: /the topic\[(?<t>[^\]]*)\] route info changed, old\[(?<rest>.*)/,
    versions: 'all',
    source: 'client/impl/factory/MQClientInstance',
    format: 'the topic[{}] route info changed, old[{}] ,new[{}]',
    args: ['topic', 'old', 'new'],
    fields: (g) => {
      const rest = g.rest ?? '';
      const cut = rest.indexOf('] ,new[');
      const before = cut >= 0 ? rest.slice(0, cut) : rest;
      const after = cut >= 0 ? rest.slice(cut + 7) : '';
      return {
        topic: str(g.t),
        brokersBefore: routeBrokers(before),
        brokersAfter: routeBrokers(after),
        writableBefore: routeWritable(before),
        writableAfter: routeWritable(after),
      };
    },
    samples: [
      {
        text:
          'the topic[TopicTest] route info changed, old[TopicRouteData [orderTopicConf=null, queueDatas=[QueueData [brokerName=broker-a, readQueueNums=4, writeQueueNums=4, perm=6, topicSysFlag=0], QueueData [brokerName=broker-b, readQueueNums=4, writeQueueNums=4, perm=6, topicSysFlag=0]], brokerDatas=[BrokerData [cluster=DefaultCluster, brokerName=broker-a, brokerAddrs={0=10.0.0.1:10911}], BrokerData [cluster=DefaultCluster, brokerName=broker-b, brokerAddrs={0=10.0.0.2:10911}]], filterServerTable={}]] ,new[TopicRouteData [orderTopicConf=null, queueDatas=[QueueData [brokerName=broker-b, readQueueNums=4, writeQueueNums=4, perm=6, topicSysFlag=0]], brokerDatas=[BrokerData [cluster=DefaultCluster, brokerName=broker-b, brokerAddrs={0=10.0.0.2:10911}]], filterServerTable={}]]',
        fields: { topic: 'TopicTest', brokersBefore: ['broker-a', 'broker-b'], brokersAfter: ['broker-b'] },
      },
      {
        text:
          'the topic[T2] route info changed, old[TopicRouteData [orderTopicConf=null, queueDatas=[], brokerDatas=[], filterServerTable={}, topicQueueMappingInfo=null]] ,new[TopicRouteData [orderTopicConf=null, queueDatas=[QueueData [brokerName=broker-c, readQueueNums=8, writeQueueNums=8, perm=6, topicSysFlag=0]], brokerDatas=[BrokerData [cluster=c1, brokerName=broker-c, brokerAddrs={0=10.0.0.3:10911, 1=10.0.0.4:10911}, enableActingMaster=false]], filterServerTable={}, topicQueueMappingInfo=null]]',
        fields: { topic: 'T2', brokersBefore: [], brokersAfter: ['broker-c'], writableBefore: [], writableAfter: ['broker-c'] },
      },
      {
        // A 4.9.4 NameServer expired broker-a's master; its slave is still listed (lab recording seed-outage).
        text:
          'the topic[TopicPay] route info changed, old[TopicRouteData [orderTopicConf=null, queueDatas=[QueueData [brokerName=broker-b, readQueueNums=4, writeQueueNums=4, perm=6, topicSysFlag=0], QueueData [brokerName=broker-a, readQueueNums=4, writeQueueNums=4, perm=6, topicSysFlag=0]], brokerDatas=[BrokerData [brokerName=broker-b, brokerAddrs={0=10.213.0.12:10911, 1=10.213.0.14:10911}], BrokerData [brokerName=broker-a, brokerAddrs={0=10.213.0.11:10911, 1=10.213.0.13:10911}]], filterServerTable={}]] ,new[TopicRouteData [orderTopicConf=null, queueDatas=[QueueData [brokerName=broker-b, readQueueNums=4, writeQueueNums=4, perm=6, topicSysFlag=0], QueueData [brokerName=broker-a, readQueueNums=4, writeQueueNums=4, perm=6, topicSysFlag=0]], brokerDatas=[BrokerData [brokerName=broker-b, brokerAddrs={0=10.213.0.12:10911, 1=10.213.0.14:10911}], BrokerData [brokerName=broker-a, brokerAddrs={1=10.213.0.13:10911}]], filterServerTable={}]]',
        fields: {
          topic: 'TopicPay',
          brokersBefore: ['broker-b', 'broker-a'],
          brokersAfter: ['broker-b', 'broker-a'],
          writableBefore: ['broker-b', 'broker-a'],
          writableAfter: ['broker-b'],
        },
      },
      {
        // Write permission wiped (mqadmin wipeWritePerm): perm 4 is read-only.
        text:
          'the topic[T3] route info changed, old[TopicRouteData [orderTopicConf=null, queueDatas=[QueueData [brokerName=broker-a, readQueueNums=4, writeQueueNums=4, perm=6, topicSysFlag=0]], brokerDatas=[BrokerData [brokerName=broker-a, brokerAddrs={0=10.0.0.1:10911}]], filterServerTable={}]] ,new[TopicRouteData [orderTopicConf=null, queueDatas=[QueueData [brokerName=broker-a, readQueueNums=4, writeQueueNums=4, perm=4, topicSysFlag=0]], brokerDatas=[BrokerData [brokerName=broker-a, brokerAddrs={0=10.0.0.1:10911}]], filterServerTable={}]]',
        fields: { topic: 'T3', brokersBefore: ['broker-a'], brokersAfter: ['broker-a'], writableBefore: ['broker-a'], writableAfter: [] },
      },
    ],
  },
  {
    id: 'no-route/of-this-topic-colon',
    type: 'no-route',
    keywords: ['No route info of this topic'],
    pattern: /No route info of this topic: ?(?<t>[^\s,]*)/,
    versions: '>=4.6.0',
    versionHint: '>=4.6.0',
    source: 'client/impl/producer/DefaultMQProducerImpl (MQClientException)',
    format: 'No route info of this topic: {}',
    args: ['topic'],
    fields: (g) => ({ topic: str(g.t) }),
    samples: [
      { text: 'org.apache.rocketmq.client.exception.MQClientException: No route info of this topic: TopicTest', fields: { topic: 'TopicTest' } },
      { text: 'MQClientException: No route info of this topic: TopicTest See https://rocketmq.apache.org/docs/bestPractice/06FAQ for further details.', fields: { topic: 'TopicTest' } },
    ],
  },
  {
    id: 'no-route/of-this-topic-comma',
    type: 'no-route',
    keywords: ['No route info of this topic'],
    pattern: /No route info of this topic, ?(?<t>[^\s,]*)/,
    versions: '<4.6.0',
    versionHint: '<4.6.0',
    source: 'client/impl/producer/DefaultMQProducerImpl (MQClientException)',
    format: 'No route info of this topic, {}',
    args: ['topic'],
    fields: (g) => ({ topic: str(g.t) }),
    samples: [{ text: 'org.apache.rocketmq.client.exception.MQClientException: No route info of this topic, goods', fields: { topic: 'goods' } }],
  },
  {
    id: 'no-route/for-this-topic',
    type: 'no-route',
    keywords: ['No route info for this topic'],
    pattern: /No route info for this topic[,:] ?(?<t>[^\s,]*)/,
    versions: 'all',
    source: 'client/impl/producer/DefaultMQProducerImpl.sendSelectImpl (MQClientException)',
    format: 'No route info for this topic, {}',
    args: ['topic'],
    fields: (g) => ({ topic: str(g.t) }),
    samples: [{ text: 'org.apache.rocketmq.client.exception.MQClientException: No route info for this topic, OrderTopic', fields: { topic: 'OrderTopic' } }],
  },

  // ---- broker registration (namesrv side and broker side) -------------------------------------
  {
    id: 'broker-registered/new-broker',
    type: 'broker-registered',
    keywords: ['new broker register'],
    pattern: /new broker register(?:e)?d, (?<who>.*?) HA(?:Server|Service): (?<ha>.*?)\s*$/,
    versions: 'all (4.0-4.1 and 3.x print `registerd`; HAServer up to 4.x, HAService in 5.x)',
    source: 'namesrv/routeinfo/RouteInfoManager',
    format: 'new broker registered, {} HAServer: {}',
    args: ['brokerAddr', 'haAddr'],
    forms: {
      '4.0': { format: 'new broker registerd, {} HAServer: {}', args: ['brokerAddr', 'haAddr'] },
      '5.x': { format: 'new broker registered, {} HAService: {}', args: ['brokerAddrInfo', 'haAddr'] },
    },
    fields: (g) => registered({ brokerAddr: identityAddr(g.who), haAddr: normAddr(g.ha) }),
    samples: [
      {
        text: '2017-03-01 10:00:01 INFO RemotingExecutorThread_1 - new broker registerd, 10.0.0.1:10911 HAServer: 10.0.0.1:10912',
        fields: { brokerAddr: '10.0.0.1:10911', haAddr: '10.0.0.1:10912' },
      },
      {
        text: '2021-12-11 16:11:59 INFO RemotingExecutorThread_2 - new broker registered, 192.168.56.3:10911 HAServer: 10.0.2.6:10912',
        fields: { brokerAddr: '192.168.56.3:10911', haAddr: '10.0.2.6:10912', brokerName: null, namesrvAddr: null, brokerId: null },
      },
      {
        text: 'new broker registered, BrokerIdentityInfo [clusterName=DefaultCluster, brokerAddr=10.0.0.1:10911] HAService: 10.0.0.1:10912',
        fields: { brokerAddr: '10.0.0.1:10911', haAddr: '10.0.0.1:10912' },
      },
    ],
  },
  {
    // Logged on every registration of a master, also when nothing changed (old == new): the
    // NameServer's view of each 30 s heartbeat.
    id: 'broker-registered/master-address-change',
    type: 'broker-registered',
    keywords: ['master address change from'],
    pattern: /cluster \[(?<cluster>[^\]]*)\] brokerName \[(?<name>[^\]]*)\] master address change from (?<old>\S+) to (?<addr>\S+)/,
    versions: '4.9.4-4.9.8',
    versionHint: '4.9.4-4.9.8',
    source: 'namesrv/routeinfo/RouteInfoManager.registerBroker',
    format: 'cluster [{}] brokerName [{}] master address change from {} to {}',
    args: ['clusterName', 'brokerName', 'oldAddr', 'brokerAddr'],
    fields: (g) => registered({ brokerName: str(g.name), brokerAddr: normAddr(g.addr), brokerId: 0 }),
    samples: [
      {
        // Lab recording seed-outage (NameServer 4.9.4).
        text: '2026-12-01 17:53:24 INFO RemotingExecutorThread_6 - cluster [DefaultCluster] brokerName [broker-a] master address change from 10.213.0.11:10911 to 10.213.0.11:10911',
        fields: { brokerName: 'broker-a', brokerAddr: '10.213.0.11:10911', brokerId: 0, namesrvAddr: null },
      },
      {
        text: 'cluster [DefaultCluster] brokerName [broker-b] master address change from null to 10.213.0.12:10911',
        fields: { brokerName: 'broker-b', brokerAddr: '10.213.0.12:10911', brokerId: 0 },
      },
    ],
  },
  {
    id: 'broker-registered/register-broker-id',
    type: 'broker-registered',
    keywords: ['register broker['],
    pattern: /register broker\[(?<id>-?\d+)\]\s*to name server (?<ns>\S+) OK/,
    versions: '4.5.x-4.9.8',
    source: 'broker/out/BrokerOuterAPI',
    format: 'register broker[{}]to name server {} OK',
    args: ['brokerId', 'namesrvAddr'],
    fields: (g) => registered({ namesrvAddr: normAddr(g.ns), brokerId: num(g.id) }),
    samples: [
      { text: 'register broker[0]to name server 192.168.1.5:9876 OK', fields: { namesrvAddr: '192.168.1.5:9876', brokerId: 0, brokerAddr: null, brokerName: null } },
      { text: '2019-12-04 17:31:44 INFO brokerOutApi_thread_2 - register broker[2]to name server 192.168.111.213:9876 OK', fields: { namesrvAddr: '192.168.111.213:9876', brokerId: 2 } },
    ],
  },
  {
    id: 'broker-registered/register-broker',
    type: 'broker-registered',
    keywords: ['register broker to name server'],
    pattern: /register broker to name server (?<ns>\S+) OK/,
    versions: '3.x-4.4.0',
    source: 'broker/out/BrokerOuterAPI',
    format: 'register broker to name server {} OK',
    args: ['namesrvAddr'],
    fields: (g) => registered({ namesrvAddr: normAddr(g.ns) }),
    samples: [{ text: '2021-12-21 16:30:27 INFO brokerOutApi_thread_2 - register broker to name server x.191:29876 OK', fields: { namesrvAddr: 'x.191:29876', brokerId: null } }],
  },
  {
    id: 'broker-registered/registering-completed',
    type: 'broker-registered',
    keywords: ['Registering current broker to name server completed'],
    pattern: /Registering current broker to name server completed\. TargetHost=(?<ns>\S*)/,
    versions: '>=5.0.0',
    versionHint: '>=5.0.0',
    source: 'broker/out/BrokerOuterAPI',
    format: 'Registering current broker to name server completed. TargetHost={}',
    args: ['namesrvAddr'],
    fields: (g) => registered({ namesrvAddr: normAddr(g.ns) }),
    samples: [
      {
        text: '2024-05-20 14:03:17 INFO brokerOutApi_thread_2 - Registering current broker to name server completed. TargetHost=192.168.1.5:9876',
        fields: { namesrvAddr: '192.168.1.5:9876' },
      },
    ],
  },
  {
    id: 'register-failed/register-broker-exception',
    type: 'register-failed',
    keywords: ['registerBroker Exception'],
    pattern: /registerBroker Exception, (?<ns>\S+)/,
    versions: '4.x',
    source: 'broker/out/BrokerOuterAPI',
    format: 'registerBroker Exception, {}',
    args: ['namesrvAddr'],
    fields: (g) => ({ namesrvAddr: normAddr(g.ns) }),
    samples: [
      {
        text: '  2020-09-10 16:42:03 WARN BrokerControllerScheduledThread1 - registerBroker Exception, rocketmq-namesrv-prod01.cloud.bz:9876',
        fields: { namesrvAddr: 'rocketmq-namesrv-prod01.cloud.bz:9876' },
      },
    ],
  },
  {
    id: 'register-failed/namesrv-register-exception',
    type: 'register-failed',
    keywords: ['registerBroker Exception'],
    pattern: /registerBroker Exception\s*$/,
    versions: 'all',
    source: 'namesrv/routeinfo/RouteInfoManager',
    format: 'registerBroker Exception',
    args: [],
    fields: () => ({ namesrvAddr: null }),
    samples: [{ text: '2024-05-20 14:03:17 ERROR RemotingExecutorThread_3 - registerBroker Exception', fields: { namesrvAddr: null } }],
  },
  {
    id: 'register-failed/failed-to-register',
    type: 'register-failed',
    keywords: ['Failed to register current broker to name server'],
    pattern: /Failed to register current broker to name server\. TargetHost=(?<ns>\S*)/,
    versions: '>=5.0.0',
    versionHint: '>=5.0.0',
    source: 'broker/out/BrokerOuterAPI',
    format: 'Failed to register current broker to name server. TargetHost={}',
    args: ['namesrvAddr'],
    fields: (g) => ({ namesrvAddr: normAddr(g.ns) }),
    samples: [{ text: 'Failed to register current broker to name server. TargetHost=192.168.1.5:9876', fields: { namesrvAddr: '192.168.1.5:9876' } }],
  },
  {
    id: 'register-failed/register-broker-all',
    type: 'register-failed',
    keywords: ['registerBrokerAll Exception'],
    pattern: /registerBrokerAll Exception/,
    versions: 'all',
    source: 'broker/BrokerController',
    format: 'registerBrokerAll Exception',
    args: [],
    fields: () => ({ namesrvAddr: null }),
    samples: [{ text: '2024-05-20 14:03:17 ERROR BrokerControllerScheduledThread1 - registerBrokerAll Exception', fields: { namesrvAddr: null } }],
  },
  {
    id: 'register-failed/deadline',
    type: 'register-failed',
    keywords: ['does NOT complete within deadline'],
    pattern: /Registration to one or more name servers does NOT complete within deadline/,
    versions: '>=5.0.0',
    versionHint: '>=5.0.0',
    source: 'broker/out/BrokerOuterAPI',
    format: 'Registration to one or more name servers does NOT complete within deadline. Timeout threshold: {}ms',
    args: ['timeoutMills'],
    fields: () => ({ namesrvAddr: null }),
    samples: [{ text: 'Registration to one or more name servers does NOT complete within deadline. Timeout threshold: 24000ms', fields: { namesrvAddr: null } }],
  },

  // ---- namesrv: broker expiry and removal ----------------------------------------------------
  {
    id: 'broker-expired/identity',
    type: 'broker-expired',
    keywords: ['The broker channel expired'],
    pattern: /The broker channel expired, (?<who>Broker(?:Identity|Addr)Info \[[^\]]*\]) (?<ms>-?\d+)ms/,
    versions: '>=5.0.0',
    versionHint: '>=5.0.0',
    source: 'namesrv/routeinfo/RouteInfoManager',
    // The key is a BrokerAddrInfo, printed as `BrokerIdentityInfo [clusterName=c, brokerAddr=a]`.
    format: 'The broker channel expired, {} {}ms',
    args: ['brokerAddrInfo', 'idleMs'],
    fields: (g) => ({ brokerAddr: identityAddr(g.who), idleMs: num(g.ms) }),
    samples: [
      {
        text: 'The broker channel expired, BrokerIdentityInfo [clusterName=DefaultCluster, brokerAddr=10.0.0.1:10911] 120000ms',
        fields: { brokerAddr: '10.0.0.1:10911', idleMs: 120000 },
      },
    ],
  },
  {
    id: 'broker-expired/addr',
    type: 'broker-expired',
    keywords: ['The broker channel expired'],
    pattern: /The broker channel expired, (?<who>.*?) (?<ms>-?\d+)ms/,
    versions: 'all (4.x prints the address)',
    source: 'namesrv/routeinfo/RouteInfoManager',
    format: 'The broker channel expired, {} {}ms',
    args: ['brokerAddr', 'idleMs'],
    fields: (g) => ({ brokerAddr: identityAddr(g.who), idleMs: num(g.ms) }),
    samples: [
      { text: '2024-05-20 14:08:05 WARN NSScheduledThread1 - The broker channel expired, 192.168.1.10:10911 120000ms', fields: { brokerAddr: '192.168.1.10:10911', idleMs: 120000 } },
    ],
  },
  {
    id: 'broker-removed/channel-destroyed-submit',
    type: 'broker-removed',
    keywords: ["the broker's channel destroyed"],
    pattern: /the broker's channel destroyed, submit the unregister request at once/,
    versions: '>=5.0.0',
    versionHint: '>=5.0.0',
    source: 'namesrv/routeinfo/RouteInfoManager',
    format: "the broker's channel destroyed, submit the unregister request at once, broker info: {}, submit result: {}",
    args: ['unRegisterRequest', 'result'],
    fields: () => removed(null, null, 'channel-destroyed'),
    samples: [
      {
        text: "the broker's channel destroyed, submit the unregister request at once, broker info: org.apache.rocketmq.remoting.protocol.header.namesrv.UnRegisterBrokerRequestHeader@6d06d69c, submit result: true",
        fields: { brokerName: null, brokerAddr: null, reason: 'channel-destroyed' },
      },
    ],
  },
  {
    id: 'broker-removed/channel-destroyed',
    type: 'broker-removed',
    keywords: ["the broker's channel destroyed"],
    pattern: /the broker's channel destroyed, (?<a>.*?), clean it's data structure at once/,
    versions: '4.x',
    source: 'namesrv/routeinfo/RouteInfoManager',
    format: "the broker's channel destroyed, {}, clean it's data structure at once",
    args: ['brokerAddr'],
    fields: (g) => removed(null, identityAddr(g.a), 'channel-destroyed'),
    samples: [
      { text: "the broker's channel destroyed, 10.0.0.1:10911, clean it's data structure at once", fields: { brokerAddr: '10.0.0.1:10911', reason: 'channel-destroyed', brokerName: null } },
    ],
  },
  {
    id: 'broker-removed/remove-broker-addr',
    type: 'broker-removed',
    keywords: ['from brokerAddrTable'],
    pattern: /remove brokerAddr\[(?<id>-?\d+), (?<a>[^\]]*)\] from brokerAddrTable, because channel destroyed/,
    versions: 'all',
    source: 'namesrv/routeinfo/RouteInfoManager',
    format: 'remove brokerAddr[{}, {}] from brokerAddrTable, because channel destroyed',
    args: ['brokerId', 'brokerAddr'],
    fields: (g) => removed(null, normAddr(g.a), 'remove'),
    samples: [
      { text: 'remove brokerAddr[0, 10.0.0.1:10911] from brokerAddrTable, because channel destroyed', fields: { brokerAddr: '10.0.0.1:10911', reason: 'remove', brokerName: null } },
    ],
  },
  {
    id: 'broker-removed/remove-broker-name',
    type: 'broker-removed',
    keywords: ['from brokerAddrTable'],
    pattern: /remove brokerName\[(?<n>[^\]]*)\] from brokerAddrTable, because channel destroyed/,
    versions: 'all',
    source: 'namesrv/routeinfo/RouteInfoManager',
    format: 'remove brokerName[{}] from brokerAddrTable, because channel destroyed',
    args: ['brokerName'],
    fields: (g) => removed(str(g.n), null, 'remove'),
    samples: [{ text: 'remove brokerName[broker-a] from brokerAddrTable, because channel destroyed', fields: { brokerName: 'broker-a', brokerAddr: null, reason: 'remove' } }],
  },
  {
    id: 'broker-removed/unregister-live',
    type: 'broker-removed',
    keywords: ['unregisterBroker, remove'],
    pattern: /unregisterBroker, remove from brokerLiveTable OK, (?<a>.*?)\s*$/,
    versions: 'all',
    source: 'namesrv/routeinfo/RouteInfoManager',
    // The first argument is `OK` or `Failed`; the pattern takes the OK lines only.
    format: 'unregisterBroker, remove from brokerLiveTable {}, {}',
    args: ['result', 'brokerAddrInfo'],
    fields: (g) => removed(null, identityAddr(g.a), 'unregister'),
    samples: [
      { text: 'unregisterBroker, remove from brokerLiveTable OK, 10.0.0.1:10911', fields: { brokerAddr: '10.0.0.1:10911', reason: 'unregister' } },
      {
        text: 'unregisterBroker, remove from brokerLiveTable OK, BrokerIdentityInfo [clusterName=DefaultCluster, brokerAddr=10.0.0.2:10911]',
        fields: { brokerAddr: '10.0.0.2:10911', reason: 'unregister' },
      },
    ],
  },
  {
    id: 'broker-removed/unregister-addr',
    type: 'broker-removed',
    keywords: ['from brokerAddrTable'],
    pattern: /unregisterBroker, remove addr from brokerAddrTable OK, (?<a>.*?)\s*$/,
    versions: 'all',
    source: 'namesrv/routeinfo/RouteInfoManager',
    // The first argument is `OK` or `Failed`; the pattern takes the OK lines only.
    format: 'unregisterBroker, remove addr from brokerAddrTable {}, {}',
    args: ['result', 'brokerAddrInfo'],
    fields: (g) => removed(null, identityAddr(g.a), 'unregister'),
    samples: [{ text: 'unregisterBroker, remove addr from brokerAddrTable OK, 10.0.0.1:10911', fields: { brokerAddr: '10.0.0.1:10911', reason: 'unregister' } }],
  },
  {
    id: 'broker-removed/unregister-name',
    type: 'broker-removed',
    keywords: ['from brokerAddrTable'],
    pattern: /unregisterBroker, remove name from brokerAddrTable OK, (?<n>.*?)\s*$/,
    versions: 'all',
    source: 'namesrv/routeinfo/RouteInfoManager',
    format: 'unregisterBroker, remove name from brokerAddrTable OK, {}',
    args: ['brokerName'],
    fields: (g) => removed(str(g.n), null, 'unregister'),
    samples: [{ text: 'unregisterBroker, remove name from brokerAddrTable OK, broker-a', fields: { brokerName: 'broker-a', brokerAddr: null, reason: 'unregister' } }],
  },

  // ---- client heartbeats ---------------------------------------------------------------------
  {
    id: 'heartbeat-failed/v2-failed',
    type: 'heartbeat-failed',
    keywords: ['sendHeartbeatToAllBrokerV2 send heart beat to broker['],
    pattern: /sendHeartbeatToAllBrokerV2 send heart beat to broker\[(?<name>\S*) (?<id>-?\d+) (?<addr>[^\]]*)\] failed/,
    versions: '>=5.1.3 (heartbeat v2)',
    versionHint: '>=5.1.3',
    source: 'client/impl/factory/MQClientInstance',
    format: 'sendHeartbeatToAllBrokerV2 send heart beat to broker[{} {} {}] failed',
    args: ['brokerName', 'brokerId', 'brokerAddr'],
    fields: (g) => heartbeat(g),
    samples: [
      { text: 'sendHeartbeatToAllBrokerV2 send heart beat to broker[broker-a 0 10.0.0.1:10911] failed', fields: { brokerName: 'broker-a', brokerId: 0, brokerAddr: '10.0.0.1:10911' } },
    ],
  },
  {
    id: 'heartbeat-failed/v2-not-up',
    type: 'heartbeat-failed',
    keywords: ['sendHeartbeatToAllBrokerV2 send heart beat to broker['],
    pattern: /sendHeartbeatToAllBrokerV2 send heart beat to broker\[(?<name>\S*) (?<id>-?\d+) (?<addr>[^\]]*)\] exception, because the broker not up/,
    versions: '>=5.1.3 (heartbeat v2)',
    versionHint: '>=5.1.3',
    source: 'client/impl/factory/MQClientInstance',
    format: 'sendHeartbeatToAllBrokerV2 send heart beat to broker[{} {} {}] exception, because the broker not up, forget it',
    args: ['brokerName', 'brokerId', 'brokerAddr'],
    fields: (g) => heartbeat(g),
    samples: [
      {
        text: 'sendHeartbeatToAllBrokerV2 send heart beat to broker[broker-a 1 10.0.0.2:10911] exception, because the broker not up, forget it',
        fields: { brokerName: 'broker-a', brokerId: 1, brokerAddr: '10.0.0.2:10911' },
      },
    ],
  },
  {
    id: 'heartbeat-failed/failed',
    type: 'heartbeat-failed',
    keywords: ['send heart beat to broker['],
    pattern: /send heart beat to broker\[(?<name>\S*) (?<id>-?\d+) (?<addr>[^\]]*)\] failed/,
    versions: 'all',
    source: 'client/impl/factory/MQClientInstance',
    format: 'send heart beat to broker[{} {} {}] failed',
    args: ['brokerName', 'brokerId', 'brokerAddr'],
    fields: (g) => heartbeat(g),
    samples: [
      { text: '2024-05-20 14:03:41,041 INFO RocketmqClient - send heart beat to broker[broker-a 0 10.0.0.1:10911] failed', fields: { brokerName: 'broker-a', brokerId: 0, brokerAddr: '10.0.0.1:10911' } },
    ],
  },
  {
    id: 'heartbeat-failed/not-up',
    type: 'heartbeat-failed',
    keywords: ['send heart beat to broker['],
    pattern: /send heart beat to broker\[(?<name>\S*) (?<id>-?\d+) (?<addr>[^\]]*)\] exception, because the broker not up/,
    versions: 'all',
    source: 'client/impl/factory/MQClientInstance',
    format: 'send heart beat to broker[{} {} {}] exception, because the broker not up, forget it',
    args: ['brokerName', 'brokerId', 'brokerAddr'],
    fields: (g) => heartbeat(g),
    samples: [
      {
        text: 'send heart beat to broker[broker-b 0 10.0.0.2:10911] exception, because the broker not up, forget it',
        fields: { brokerName: 'broker-b', brokerId: 0, brokerAddr: '10.0.0.2:10911' },
      },
    ],
  },

  // ---- broker store: disk full, slow puts, jstack --------------------------------------------
  {
    id: 'disk-full/service-not-available',
    type: 'disk-full',
    keywords: ['service not available now'],
    pattern: new RegExp(`${CODE}service not available now\\. It may be caused by one of the following reasons: the broker's disk is full(?: \\[(?<du>[^\\]]*)\\])?${BROKER}`),
    versions: 'all recent 4.x and 5.x',
    source: 'broker/processor/SendMessageProcessor',
    format: "service not available now. It may be caused by one of the following reasons: the broker's disk is full [{}], messages are put to the slave, message store has been shut down, etc.",
    args: ['diskUtil'],
    // The broker's address (MQBrokerException ` BROKER: addr`, 4.8.0+) names the broker also where the attempt line prints `%s` (5.1.0-5.2.0).
    fields: (g) => ({ ...diskFull(num(/CL:\s*(-?\d+(?:\.\d+)?)/.exec(g.du ?? '')?.[1]), num(g.code)), brokerAddr: normAddr(g.broker) }),
    samples: [
      {
        text: "org.apache.rocketmq.client.exception.MQBrokerException: CODE: 14  DESC: service not available now. It may be caused by one of the following reasons: the broker's disk is full [CL:  0.96 CQ:  0.96 INDEX:  0.96], messages are put to the slave, message store has been shut down, etc. BROKER: 10.0.0.1:10911",
        fields: { ratio: 0.96, code: 14, brokerAddr: '10.0.0.1:10911' },
      },
      {
        // lab disk-full recording, client 5.1.4
        text: "org.apache.rocketmq.client.exception.MQBrokerException: CODE: 14  DESC: service not available now. It may be caused by one of the following reasons: the broker's disk is full [CL:  0.98 CQ:  0.98 INDEX:  0.98], messages are put to the slave, message store has been shut down, etc. BROKER: 10.213.0.21:10911",
        fields: { ratio: 0.98, code: 14, brokerAddr: '10.213.0.21:10911' },
      },
    ],
  },
  {
    id: 'disk-full/service-not-available-old',
    type: 'disk-full',
    keywords: ['service not available now'],
    pattern: new RegExp(`${CODE}service not available now, maybe disk full(?:,\\s*(?<du>CL:[^,]*))?${BROKER}`),
    // Brokers up to 4.7.1 (SendMessageProcessor; 4.8.0 has the text above). A 4.8.0+ client's
    // MQBrokerException adds ` BROKER: addr` after it, which names the broker that refused: an
    // asynchronous send's failure comes to its SendCallback with no client-log line naming one.
    versions: 'brokers up to 4.7.1, and 3.x',
    source: 'broker/processor/SendMessageProcessor',
    format: 'service not available now, maybe disk full, {}, maybe your broker machine memory too small.',
    args: ['diskUtil'],
    fields: (g) => ({ ...diskFull(num(/CL:\s*(-?\d+(?:\.\d+)?)/.exec(g.du ?? '')?.[1]), num(g.code)), brokerAddr: normAddr(g.broker) }),
    samples: [
      {
        text: 'org.apache.rocketmq.client.exception.MQBrokerException: CODE: 14  DESC: service not available now, maybe disk full, CL: 0.87 CQ: 0.87 INDEX: 0.87, maybe your broker machine memory too small.',
        fields: { ratio: 0.87, code: 14, brokerAddr: null },
      },
      {
        // a 4.6.1 broker's reply as a 4.9.5 client's SendCallback got it (lab, generated seed 20261205)
        text: 'org.apache.rocketmq.client.exception.MQBrokerException: CODE: 14  DESC: service not available now, maybe disk full, CL:  0.97 CQ:  0.97 INDEX:  0.97, maybe your broker machine memory too small. BROKER: 10.213.0.21:10911',
        fields: { ratio: 0.97, code: 14, brokerAddr: '10.213.0.21:10911' },
      },
      { text: 'MQBrokerException: CODE: 14  DESC: service not available now, maybe disk full', fields: { ratio: null, code: 14 } },
    ],
  },
  {
    id: 'disk-full/physic',
    type: 'disk-full',
    keywords: ['disk maybe full soon', 'disk of commitLog maybe full soon'],
    pattern: /physic disk (?:of commitLog )?maybe full soon,? (?:used )?(?<r>-?\d+(?:\.\d+)?(?:[eE]-?\d+)?)/,
    versions: 'all',
    source: 'store/DefaultMessageStore$CleanCommitLogService',
    // Concatenated; 5.x's CommitLog check (DefaultMessageStore.CleanCommitLogService) says `of commitLog`.
    format: 'physic disk maybe full soon {}, so mark disk full, storePathPhysic={}',
    args: ['ratio', 'storePathPhysic'],
    forms: {
      '5.x': { format: 'physic disk of commitLog maybe full soon, used {}, so mark disk full', args: ['ratio'] },
    },
    fields: (g) => diskFull(num(g.r), null),
    samples: [
      { text: 'physic disk maybe full soon 0.92, so mark disk full, storePathPhysic=/home/rocketmq/store/commitlog', fields: { ratio: 0.92, code: null } },
      { text: 'physic disk of commitLog maybe full soon, used 0.91, so mark disk full', fields: { ratio: 0.91 } },
    ],
  },
  {
    id: 'disk-full/logics',
    type: 'disk-full',
    keywords: ['disk maybe full soon'],
    pattern: /logics disk maybe full soon,? (?<r>-?\d+(?:\.\d+)?(?:[eE]-?\d+)?)/,
    versions: 'all',
    source: 'store/DefaultMessageStore$CleanConsumeQueueService',
    format: 'logics disk maybe full soon {}, so mark disk full',
    args: ['ratio'],
    fields: (g) => diskFull(num(g.r), null),
    samples: [{ text: 'logics disk maybe full soon 0.95, so mark disk full', fields: { ratio: 0.95, code: null } }],
  },
  {
    id: 'disk-full/not-writable',
    type: 'disk-full',
    keywords: ['message store is not writable'],
    pattern: /the message store is not writable/,
    versions: '4.8.0-4.9.8',
    source: 'store/DefaultMessageStore',
    format: "the message store is not writable. It may be caused by one of the following reasons: the broker's disk is full, write to logic queue error, write to index file error, etc",
    args: [],
    fields: () => diskFull(null, null),
    samples: [
      {
        text: "the message store is not writable. It may be caused by one of the following reasons: the broker's disk is full, write to logic queue error, write to index file error, etc",
        fields: { ratio: null, code: null },
      },
    ],
  },
  {
    id: 'disk-full/not-writeable',
    type: 'disk-full',
    keywords: ['message store is not writeable'],
    pattern: /message store is not writeable, so putMessage is forbidden/,
    versions: '4.0.0-4.6.1, >=5.0.0',
    source: 'broker/util/HookUtils',
    format: 'message store is not writeable, so putMessage is forbidden {}',
    args: ['flagBits'],
    fields: () => diskFull(null, null),
    samples: [{ text: 'message store is not writeable, so putMessage is forbidden 16', fields: { ratio: null, code: null } }],
  },
  // ---- disk-ok: the store's disk check marks the disk OK again --------------------------------
  {
    id: 'disk-ok/physic',
    type: 'disk-ok',
    keywords: ['disk space OK', 'disk space of commitLog OK'],
    // 5.x's CleanCommitLogService.isSpaceFull says `physic disk space of commitLog OK` (5.0.0-5.3.3).
    pattern: /(?<which>physic|logics) disk space (?:of commitLog )?OK (?<r>-?\d+(?:\.\d+)?(?:[eE]-?\d+)?), so mark disk ok/,
    versions: 'all',
    source: 'store/DefaultMessageStore$CleanCommitLogService',
    format: 'physic disk space OK {}, so mark disk ok, storePathPhysic={}',
    args: ['ratio', 'storePathPhysic'],
    forms: {
      logics: { format: 'logics disk space OK {}, so mark disk ok', args: ['ratio'] },
      '5.x': { format: 'physic disk space of commitLog OK {}, so mark disk ok', args: ['ratio'] },
    },
    fields: (g) => ({ ratio: num(g.r), store: str(g.which) }),
    samples: [
      { text: 'physic disk space OK 0.01, so mark disk ok, storePathPhysic=/home/rocketmq/store/commitlog', fields: { ratio: 0.01, store: 'physic' } },
      { text: 'logics disk space OK 0.45, so mark disk ok', fields: { ratio: 0.45, store: 'logics' } },
      { text: 'physic disk space of commitLog OK 0.62, so mark disk ok', fields: { ratio: 0.62, store: 'physic' } },
    ],
  },
  {
    id: 'store-slow/in-lock',
    type: 'store-slow',
    keywords: ['in lock cost time(ms)'],
    pattern: /putMessages? in lock cost time\(ms\)=(?<ms>-?\d+)(?:, bodyLength=(?<len>-?\d+))?/,
    versions: 'all 4.x and 5.x',
    source: 'store/CommitLog',
    format: '[NOTIFYME]putMessage in lock cost time(ms)={}, bodyLength={} AppendMessageResult={}',
    args: ['costMs', 'bodyLength', 'appendMessageResult'],
    forms: {
      putMessages: { format: '[NOTIFYME]putMessages in lock cost time(ms)={}, bodyLength={} AppendMessageResult={}', args: ['costMs', 'bodyLength', 'appendMessageResult'] },
    },
    fields: (g) => slow('in-lock', g),
    samples: [
      {
        text: "2024-05-20 14:05:02 WARN SendMessageThread_3 - [NOTIFYME]putMessage in lock cost time(ms)=612, bodyLength=1024 AppendMessageResult=AppendMessageResult{status=PUT_OK, wroteOffset=1073741824, wroteBytes=1190, msgId='C0A8010A00002A9F0000000040000000', storeTimestamp=1716184502000, logicsOffset=1200, pagecacheRT=611, msgNum=1}",
        fields: { costMs: 612, what: 'in-lock', bodyLength: 1024 },
      },
      { text: '[NOTIFYME]putMessages in lock cost time(ms)=540, bodyLength=4096 AppendMessageResult=null', fields: { costMs: 540, bodyLength: 4096 } },
    ],
  },
  {
    id: 'store-slow/not-in-lock-eclipse',
    type: 'store-slow',
    keywords: ['not in lock eclipse time(ms)'],
    pattern: /putMessage not in lock eclipse time\(ms\)=(?<ms>-?\d+)(?:, bodyLength=(?<len>-?\d+))?/,
    versions: '4.0.0-4.5.1',
    versionHint: '<4.5.2',
    source: 'store/DefaultMessageStore',
    format: 'putMessage not in lock eclipse time(ms)={}, bodyLength={}',
    args: ['costMs', 'bodyLength'],
    fields: (g) => slow('not-in-lock', g),
    samples: [{ text: 'putMessage not in lock eclipse time(ms)=730, bodyLength=512', fields: { costMs: 730, what: 'not-in-lock', bodyLength: 512 } }],
  },
  {
    id: 'store-slow/not-in-lock-elapsed',
    type: 'store-slow',
    keywords: ['not in lock elapsed time(ms)'],
    pattern: /putMessage not in lock elapsed time\(ms\)=(?<ms>-?\d+)(?:, bodyLength=(?<len>-?\d+))?/,
    versions: '4.5.2-4.9.8',
    versionHint: '4.5.2-4.9.8',
    source: 'store/DefaultMessageStore',
    format: 'putMessage not in lock elapsed time(ms)={}, bodyLength={}',
    args: ['costMs', 'bodyLength'],
    fields: (g) => slow('not-in-lock', g),
    samples: [
      { text: '2021-09-13 01:44:35 WARN SendMessageThread_14 - putMessage not in lock elapsed time(ms)=980, bodyLength=22', fields: { costMs: 980, what: 'not-in-lock', bodyLength: 22 } },
    ],
  },
  {
    id: 'store-slow/batch-not-in-lock-elapsed',
    type: 'store-slow',
    keywords: ['not in lock elapsed time(ms)'],
    pattern: /not in lock elapsed time\(ms\)=(?<ms>-?\d+)(?:, bodyLength=(?<len>-?\d+))?/,
    versions: '4.5.2-4.9.8',
    versionHint: '4.5.2-4.9.8',
    source: 'store/DefaultMessageStore (batch put)',
    format: 'not in lock elapsed time(ms)={}, bodyLength={}',
    args: ['costMs', 'bodyLength'],
    fields: (g) => slow('not-in-lock', g),
    samples: [{ text: 'not in lock elapsed time(ms)=650, bodyLength=8192', fields: { costMs: 650, what: 'not-in-lock', bodyLength: 8192 } }],
  },
  {
    id: 'store-slow/batch-not-in-lock-eclipse',
    type: 'store-slow',
    keywords: ['not in lock eclipse time(ms)'],
    pattern: /not in lock eclipse time\(ms\)=(?<ms>-?\d+)(?:, bodyLength=(?<len>-?\d+))?/,
    versions: '4.0.0-4.5.1, >=5.0.0',
    source: 'store/DefaultMessageStore (batch put)',
    format: 'not in lock eclipse time(ms)={}, bodyLength={}',
    args: ['costMs', 'bodyLength'],
    fields: (g) => slow('not-in-lock', g),
    samples: [{ text: 'not in lock eclipse time(ms)=701, bodyLength=2048', fields: { costMs: 701, what: 'not-in-lock', bodyLength: 2048 } }],
  },
  {
    id: 'store-slow/in-lock-eclipse',
    type: 'store-slow',
    keywords: ['putMessage in lock eclipse time(ms)', 'putMessages in lock eclipse time(ms)'],
    pattern: /putMessages? in lock eclipse time\(ms\)\s*=?\s*(?<ms>-?\d+)(?:, bodyLength=(?<len>-?\d+))?/,
    versions: '3.x',
    versionHint: '<4.4.0',
    source: 'store/CommitLog',
    format: 'putMessage in lock eclipse time(ms) {}',
    args: ['costMs'],
    fields: (g) => slow('in-lock', g),
    samples: [
      { text: '2018-05-16 13:36:23 WARN SendMessageThread_101 - putMessage in lock eclipse time(ms) 1382\t', fields: { costMs: 1382, what: 'in-lock', bodyLength: null } },
    ],
  },
  {
    id: 'store-slow/commitlog-put-cost',
    type: 'store-slow',
    keywords: ['CommitLog#putMessage cost'],
    pattern: /CommitLog#putMessage cost (?<ms>-?\d+)\s*ms(?:, topic=[^,]*)?(?:, bodyLength=(?<len>-?\d+))?/,
    versions: '>=5.0.0',
    versionHint: '>=5.0.0',
    source: 'store/DefaultMessageStore',
    format: 'DefaultMessageStore#putMessage: CommitLog#putMessage cost {}ms, topic={}, bodyLength={}',
    args: ['costMs', 'topic', 'bodyLength'],
    fields: (g) => slow('not-in-lock', g),
    samples: [
      { text: 'DefaultMessageStore#putMessage: CommitLog#putMessage cost 812ms, topic=TopicTest, bodyLength=128', fields: { costMs: 812, what: 'not-in-lock', bodyLength: 128 } },
    ],
  },
  {
    // stats.log, once a minute (hour, day) per statistic and key (StatsItem.printAtMinutes); the
    // client's ConsumerStatsManager prints the same lines per `topic@group` (CONSUME_OK_TPS, PULL_TPS,
    // ...). A response time (CONSUME_RT, PULL_RT) is an RTStatsItem in the clients that have it
    // (4.9.4 prints it so): `TIMES: n AVGRT: ms`, the same snapshot as `SUM: total ms TPS: ...
    // AVGPT: ms` printed by the clients before it; both are read as the older wording (sum the total
    // ms, avgpt the average time), with `times` the count.
    id: 'stats/in-one',
    type: 'stats',
    keywords: ['] Stats In One '],
    pattern: /\[(?<stat>[A-Z_]+)\] \[(?<key>[^\]]*)\] Stats In One (?<window>Minute|Hour|Day), (?:SUM: (?<sum>-?\d+) TPS: (?<tps>-?[\d.]+) AVGPT: (?<avgpt>-?[\d.]+)|TIMES: (?<times>-?\d+) AVGRT: (?<avgrt>-?[\d.]+))/,
    versions: 'all',
    source: 'common/stats/StatsItem',
    format: '[%s] [%s] Stats In One Minute, SUM: %d TPS: %.2f AVGPT: %.2f',
    args: ['stat', 'key', 'sum', { name: 'tps', as: 'fixed2' }, { name: 'avgpt', as: 'fixed2' }],
    printf: true,
    forms: {
      Hour: { format: '[%s] [%s] Stats In One Hour, SUM: %d TPS: %.2f AVGPT: %.2f', args: ['stat', 'key', 'sum', { name: 'tps', as: 'fixed2' }, { name: 'avgpt', as: 'fixed2' }], printf: true },
      Day: { format: '[%s] [%s] Stats In One Day, SUM: %d TPS: %.2f AVGPT: %.2f', args: ['stat', 'key', 'sum', { name: 'tps', as: 'fixed2' }, { name: 'avgpt', as: 'fixed2' }], printf: true },
      RT: { format: '[%s] [%s] Stats In One Minute, TIMES: %d AVGRT: %.2f', args: ['stat', 'key', 'times', { name: 'avgpt', as: 'fixed2' }], printf: true },
    },
    fields: (g) => {
      const base = { stat: str(g.stat), key: str(g.key), window: (g.window ?? '').toLowerCase() };
      if (g.times === undefined) return { ...base, sum: num(g.sum), tps: num(g.tps), avgpt: num(g.avgpt) };
      // The interval's seconds (StatsItem.computeStatsData: a minute, an hour, a day).
      const secs = base.window === 'day' ? 86400 : base.window === 'hour' ? 3600 : 60;
      const times = num(g.times) ?? 0;
      const avg = num(g.avgrt) ?? 0;
      const sum = Math.round(times * avg);
      return { ...base, sum, tps: Math.round((sum / secs) * 100) / 100, avgpt: avg, times };
    },
    samples: [
      {
        // Lab recording seed-outage (broker 4.9.4).
        text: '2026-12-01 17:58:00 INFO - [TOPIC_PUT_NUMS] [TopicPay] Stats In One Minute, SUM: 120 TPS: 2.00 AVGPT: 1.00',
        fields: { stat: 'TOPIC_PUT_NUMS', key: 'TopicPay', window: 'minute', sum: 120, tps: 2, avgpt: 1 },
      },
      { text: '[BROKER_PUT_NUMS] [DefaultCluster] Stats In One Hour, SUM: 7000 TPS: 1.94 AVGPT: 0.00', fields: { stat: 'BROKER_PUT_NUMS', key: 'DefaultCluster', window: 'hour', sum: 7000 } },
      { text: '[BROKER_PUT_NUMS] [DefaultCluster] Stats In One Day, SUM: 168000 TPS: 1.94 AVGPT: 0.01', fields: { stat: 'BROKER_PUT_NUMS', window: 'day', sum: 168000, tps: 1.94, avgpt: 0.01 } },
      {
        // Lab recording consumer-slow-listener (client 4.9.4, rocketmq_client.log).
        text: '2026-12-05 19:37:00,000 INFO RocketmqClient - [CONSUME_RT] [TopicOrder@CID_STOCK] Stats In One Minute, TIMES: 80 AVGRT: 1500.95',
        fields: { stat: 'CONSUME_RT', key: 'TopicOrder@CID_STOCK', window: 'minute', times: 80, avgpt: 1500.95, sum: 120076 },
      },
    ],
  },
  {
    id: 'store-slow/pagecachert',
    type: 'store-slow',
    keywords: ['[PAGECACHERT]'],
    pattern: /\[PAGECACHERT\] TotalPut (?<total>-?\d+), PutMessageDistributeTime(?<dist>.*)/,
    versions: 'all',
    source: 'store/StoreStatsService',
    format: '[PAGECACHERT] TotalPut {}, PutMessageDistributeTime {}',
    args: ['totalPut', 'putMessageDistributeTime'],
    fields: (g) => {
      let costMs: number | null = null;
      let slowPuts = 0;
      for (const m of (g.dist ?? '').matchAll(/\[([^\]]*)\]:(\d+)/g)) {
        const lower = bucketLowerMs(m[1]);
        const count = Number(m[2]);
        if (lower === null || count === 0) continue;
        if (costMs === null || lower > costMs) costMs = lower;
        if (lower >= 500) slowPuts += count;
      }
      return { costMs, what: 'pagecachert', bodyLength: null, totalPut: num(g.total), slowPuts };
    },
    samples: [
      {
        text: '[PAGECACHERT] TotalPut 1200, PutMessageDistributeTime [<=0ms]:900 [0~10ms]:290 [10~50ms]:10 [50~100ms]:0 [100~200ms]:0 [200~500ms]:0 [500ms~1s]:0 [1~2s]:0 [2~3s]:0 [3~4s]:0 [4~5s]:0 [5~10s]:0 [10s~]:0',
        fields: { costMs: 10, what: 'pagecachert', totalPut: 1200, slowPuts: 0, bodyLength: null },
      },
      {
        text: '[PAGECACHERT] TotalPut 5000, PutMessageDistributeTime [<=0ms]:4000 [0~10ms]:900 [10~50ms]:50 [50~100ms]:20 [100~200ms]:10 [200~500ms]:5 [500ms~1s]:7 [1~2s]:6 [2~3s]:2 [3~4s]:0 [4~5s]:0 [5~10s]:0 [10s~]:0',
        fields: { costMs: 2000, totalPut: 5000, slowPuts: 15 },
      },
      { text: '[PAGECACHERT] TotalPut 0, PutMessageDistributeTime [<=0ms]:0 [0~10ms]:0 [10s~]:0', fields: { costMs: null, totalPut: 0, slowPuts: 0 } },
    ],
  },
  {
    id: 'store-slow/flush',
    type: 'store-slow',
    keywords: ['Flush data to disk costs'],
    pattern: /Flush data to disk costs (?<ms>-?\d+) ms/,
    versions: 'all',
    source: 'store/CommitLog$FlushRealTimeService',
    format: 'Flush data to disk costs {} ms',
    args: ['costMs'],
    fields: (g) => slow('flush', g),
    samples: [{ text: 'Flush data to disk costs 1204 ms', fields: { costMs: 1204, what: 'flush', bodyLength: null } }],
  },
  {
    id: 'store-slow/commit',
    type: 'store-slow',
    keywords: ['Commit data to file costs'],
    pattern: /Commit data to file costs (?<ms>-?\d+) ms/,
    versions: 'all',
    source: 'store/CommitLog$CommitRealTimeService',
    format: 'Commit data to file costs {} ms',
    args: ['costMs'],
    fields: (g) => slow('commit', g),
    samples: [{ text: 'Commit data to file costs 560 ms', fields: { costMs: 560, what: 'commit' } }],
  },
  {
    id: 'store-slow/mapped-file',
    type: 'store-slow',
    keywords: ['create mappedFile spent time(ms)'],
    pattern: /create mappedFile spent time\(ms\) (?<ms>-?\d+)/,
    versions: 'all',
    source: 'store/AllocateMappedFileService',
    format: 'create mappedFile spent time(ms) {} queue size {} {} {}',
    args: ['costMs', 'queueSize', 'filePath', 'fileSize'],
    fields: (g) => slow('mapped-file', g),
    samples: [
      { text: 'create mappedFile spent time(ms) 35 queue size 0 /home/rocketmq/store/commitlog/00000000001073741824 1073741824', fields: { costMs: 35, what: 'mapped-file' } },
    ],
  },
  // ---- store-sync: SYNC_FLUSH / SYNC_MASTER results and master/slave replication ------------
  {
    id: 'store-sync/send-result',
    type: 'store-sync',
    keywords: ['SendResult [sendStatus=FLUSH_DISK_TIMEOUT', 'SendResult [sendStatus=FLUSH_SLAVE_TIMEOUT', 'SendResult [sendStatus=SLAVE_NOT_AVAILABLE'],
    pattern:
      /SendResult \[sendStatus=(?<status>FLUSH_DISK_TIMEOUT|FLUSH_SLAVE_TIMEOUT|SLAVE_NOT_AVAILABLE)\b(?:[^\]]*?messageQueue=MessageQueue \[topic=(?<topic>[^,\]]*), brokerName=(?<bn>[^,\]]*), queueId=(?<q>-?\d+)\])?/,
    versions: 'all (printed by the application, not by RocketMQ)',
    source: 'client/producer/SendResult (toString, logged by the application)',
    format: 'SendResult [sendStatus={}, msgId={}, offsetMsgId={}, messageQueue={}, queueOffset={}]',
    args: ['status', 'msgId', 'offsetMsgId', 'messageQueue', 'queueOffset'],
    fields: (g) => storeSync(g.status ?? '', { topic: str(g.topic), brokerName: str(g.bn), queueId: num(g.q) }),
    samples: [
      {
        text: '2024-05-20 14:05:07.412 [order-sender-2] INFO  com.acme.order.mq.OrderPublisher - send result: SendResult [sendStatus=FLUSH_SLAVE_TIMEOUT, msgId=0A0000090C1A18B4AAC2591D5A6E0003, offsetMsgId=0A00000100002A9F00000000402A51C8, messageQueue=MessageQueue [topic=TopicTest, brokerName=broker-a, queueId=2], queueOffset=10482]',
        fields: { status: 'FLUSH_SLAVE_TIMEOUT', topic: 'TopicTest', brokerName: 'broker-a', queueId: 2, addr: null, intervalMs: null, behindBytes: null },
      },
      {
        text: 'SendResult [sendStatus=FLUSH_DISK_TIMEOUT, msgId=C0A8010A30391B6D4EAC6B2E1F9A0000, offsetMsgId=C0A8010B00002A9F0000000000A1B2C3, messageQueue=MessageQueue [topic=order_events, brokerName=broker-b, queueId=0], queueOffset=77]',
        fields: { status: 'FLUSH_DISK_TIMEOUT', topic: 'order_events', brokerName: 'broker-b', queueId: 0 },
      },
      {
        text: 'sync send returned SendResult [sendStatus=SLAVE_NOT_AVAILABLE, msgId=0A0000090C1A18B4AAC2591D5A6E0004, offsetMsgId=0A00000100002A9F00000000402A5300, messageQueue=MessageQueue [topic=TopicTest, brokerName=broker-a, queueId=3], queueOffset=10483, recallHandle=null]',
        fields: { status: 'SLAVE_NOT_AVAILABLE', brokerName: 'broker-a', queueId: 3 },
      },
      {
        text: 'SendResult [sendStatus=FLUSH_DISK_TIMEOUT, msgId=0A0000090C1A18B4AAC2591D5A6E0005, messageQueue=MessageQueue [topic=T, brokerName=broker-c, queueId=1], queueOffset=5]',
        fields: { status: 'FLUSH_DISK_TIMEOUT', topic: 'T', brokerName: 'broker-c', queueId: 1 },
      },
    ],
  },
  {
    id: 'store-sync/groupcommit-failed',
    type: 'store-sync',
    keywords: ['do groupcommit, wait for flush failed'],
    pattern: /do groupcommit, wait for flush failed, topic: (?<topic>\S*)/,
    versions: '4.0.0-4.9.0 (send path; 4.9.1-4.9.8 silent); 5.x again in CommitLog.handleDiskFlush',
    source: 'store/CommitLog (handleDiskFlush)',
    format: 'do groupcommit, wait for flush failed, topic: {} tags: {} client address: {}',
    args: ['topic', 'tags', 'bornHost'],
    fields: (g) => storeSync('FLUSH_DISK_TIMEOUT', { topic: str(g.topic) }),
    samples: [
      {
        text: '2020-06-11 10:21:45 ERROR SendMessageThread_5 - do groupcommit, wait for flush failed, topic: TopicTest tags: TagA client address: 10.0.0.9',
        fields: { status: 'FLUSH_DISK_TIMEOUT', topic: 'TopicTest', brokerName: null, queueId: null, addr: null },
      },
    ],
  },
  {
    id: 'store-sync/sync-transfer-failed',
    type: 'store-sync',
    keywords: ['do sync transfer other node, wait return, but failed'],
    pattern: /do sync transfer other node, wait return, but failed, topic: (?<topic>\S*)/,
    versions: '<=4.9.0 (send path; silent from 4.9.1)',
    versionHint: '<4.9.1',
    source: 'store/CommitLog (handleHA)',
    format: 'do sync transfer other node, wait return, but failed, topic: {} tags: {} client address: {}',
    args: ['topic', 'tags', 'bornHost'],
    forms: {
      batch: { format: 'do sync transfer other node, wait return, but failed, topic: {} client address: {}', args: ['topic', 'bornHost'] },
    },
    fields: (g) => storeSync('FLUSH_SLAVE_TIMEOUT', { topic: str(g.topic) }),
    samples: [
      {
        text: '2020-06-11 10:22:03 ERROR SendMessageThread_2 - do sync transfer other node, wait return, but failed, topic: TopicTest tags: TagA client address: 10.0.0.9',
        fields: { status: 'FLUSH_SLAVE_TIMEOUT', topic: 'TopicTest', addr: null },
      },
      { text: 'do sync transfer other node, wait return, but failed, topic: order_events client address: app-host-1', fields: { status: 'FLUSH_SLAVE_TIMEOUT', topic: 'order_events' } },
    ],
  },
  {
    id: 'store-sync/ha-client-expired',
    type: 'store-sync',
    keywords: ['HAClient, housekeeping, found this connection['],
    pattern: /HAClient, housekeeping, found this connection\[(?<a>[^\]]*)\] expired, (?<ms>-?\d+)/,
    versions: 'all (4.x HAClient; 5.x AutoRecoverHAClient)',
    source: 'store/ha/HAService$HAClient (4.x), store/ha/DefaultHAClient (5.x)',
    format: 'HAClient, housekeeping, found this connection[{}] expired, {}',
    args: ['addr', 'intervalMs'],
    forms: {
      AutoRecoverHAClient: { format: 'AutoRecoverHAClient, housekeeping, found this connection[{}] expired, {}', args: ['addr', 'intervalMs'] },
    },
    fields: (g) => storeSync('HA_CONNECTION_EXPIRED', { addr: normAddr(g.a), intervalMs: haClientInterval(num(g.ms)) }),
    samples: [
      {
        text: '2024-05-20 14:06:31 WARN HAClient - HAClient, housekeeping, found this connection[10.0.0.1:10912] expired, 20011',
        fields: { status: 'HA_CONNECTION_EXPIRED', addr: '10.0.0.1:10912', intervalMs: 20011, topic: null, behindBytes: null },
      },
      {
        // gen-20261220 (4.9.1 slave resuming from a 150 s hang): the interval since a lastWriteTimestamp of 0.
        text: '2026-12-08 06:32:07 WARN HAClient - HAClient, housekeeping, found this connection[10.213.0.23:10912] expired, 1796682727510',
        fields: { status: 'HA_CONNECTION_EXPIRED', addr: '10.213.0.23:10912', intervalMs: null },
      },
      {
        text: '2024-05-20 14:06:31 WARN DefaultHAClient - AutoRecoverHAClient, housekeeping, found this connection[10.0.0.1:10912] expired, 20004',
        fields: { status: 'HA_CONNECTION_EXPIRED', addr: '10.0.0.1:10912', intervalMs: 20004 },
      },
    ],
  },
  {
    id: 'store-sync/ha-connection-expired',
    type: 'store-sync',
    keywords: ['ha housekeeping, found this connection['],
    pattern: /ha housekeeping, found this connection\[(?<a>[^\]]*)\] expired, (?<ms>-?\d+)/,
    versions: 'all',
    source: 'store/ha/HAConnection$ReadSocketService (5.x DefaultHAConnection)',
    format: 'ha housekeeping, found this connection[{}] expired, {}',
    args: [{ name: 'addr', as: 'socket' }, 'intervalMs'],
    fields: (g) => storeSync('HA_CONNECTION_EXPIRED', { addr: normAddr(g.a), intervalMs: num(g.ms) }),
    samples: [
      {
        text: '2024-05-20 14:06:29 WARN ReadSocketService - ha housekeeping, found this connection[/10.0.0.2:50312] expired, 20002',
        fields: { status: 'HA_CONNECTION_EXPIRED', addr: '10.0.0.2:50312', intervalMs: 20002 },
      },
    ],
  },
  {
    id: 'store-sync/ha-master-not-responding',
    type: 'store-sync',
    keywords: ['HAClient, master not response some time'],
    pattern: /HAClient, master not response some time, so close connection/,
    versions: 'all (4.x HAClient; 5.x AutoRecoverHAClient)',
    source: 'store/ha/HAService$HAClient (4.x), store/ha/DefaultHAClient (5.x)',
    format: 'HAClient, master not response some time, so close connection',
    args: [],
    forms: {
      AutoRecoverHAClient: { format: 'AutoRecoverHAClient, master not response some time, so close connection', args: [] },
    },
    fields: () => storeSync('HA_MASTER_NOT_RESPONDING'),
    samples: [
      { text: '2024-05-20 14:06:31 WARN HAClient - HAClient, master not response some time, so close connection', fields: { status: 'HA_MASTER_NOT_RESPONDING', addr: null, intervalMs: null } },
      { text: 'AutoRecoverHAClient, master not response some time, so close connection', fields: { status: 'HA_MASTER_NOT_RESPONDING' } },
    ],
  },
  {
    id: 'store-sync/ha-connect-failed',
    type: 'store-sync',
    keywords: ['HAClient connect to master'],
    pattern: /HAClient connect to master (?<a>\S+) failed/,
    versions: '5.x (every 5 s while the master is unreachable; AutoSwitchHAClient in controller mode)',
    versionHint: '>=5.0.0',
    source: 'store/ha/DefaultHAClient',
    format: 'HAClient connect to master {} failed',
    args: ['addr'],
    forms: {
      AutoSwitchHAClient: { format: 'AutoSwitchHAClient connect to master {} failed', args: ['addr'] },
    },
    fields: (g) => storeSync('HA_CONNECT_FAILED', { addr: normAddr(g.a) }),
    samples: [
      { text: '2024-05-20 14:06:36 WARN DefaultHAClient - HAClient connect to master 10.0.0.1:10912 failed', fields: { status: 'HA_CONNECT_FAILED', addr: '10.0.0.1:10912', intervalMs: null } },
      { text: 'AutoSwitchHAClient connect to master 10.0.0.1:30912 failed', fields: { status: 'HA_CONNECT_FAILED', addr: '10.0.0.1:30912' } },
      { text: 'HAClient connect to master null failed', fields: { status: 'HA_CONNECT_FAILED', addr: null } },
    ],
  },
  {
    id: 'store-sync/ha-offset-mismatch',
    type: 'store-sync',
    keywords: ['master pushed offset not equal the max phy offset in slave'],
    pattern: /master pushed offset not equal the max phy offset in slave, SLAVE: (?<slave>-?\d+) MASTER: (?<master>-?\d+)/,
    versions: 'all (4.x HAClient; 5.x DefaultHAClient, AutoSwitchHAClient)',
    source: 'store/ha/HAService$HAClient (4.x), store/ha/DefaultHAClient (5.x)',
    // The master pushed data from another offset than the slave's end (a slave whose commit log differs from the master's): the slave closes the HA connection and connects again.
    format: 'master pushed offset not equal the max phy offset in slave, SLAVE: {} MASTER: {}',
    args: ['slaveOffset', 'masterOffset'],
    fields: () => storeSync('SLAVE_OFFSET_MISMATCH'),
    // Real: apache/rocketmq#323 (a slave's store.log, 4.2-era).
    samples: [{ text: 'ERROR HAClient - master pushed offset not equal the max phy offset in slave, SLAVE: 10674758888969 MASTER: 10674758921737', fields: { status: 'SLAVE_OFFSET_MISMATCH', addr: null, behindBytes: null } }],
  },
  {
    id: 'store-sync/slave-fall-behind',
    type: 'store-sync',
    keywords: ['Slave fall behind master: '],
    pattern: /Slave fall behind master: (?<n>-?\d+) bytes/,
    versions: '4.x (master, every 60 s; with no slave attached the whole commit log counts as behind)',
    source: 'broker/BrokerController (printMasterAndSlaveDiff)',
    format: 'Slave fall behind master: {} bytes',
    args: ['behindBytes'],
    fields: (g) => storeSync('SLAVE_BEHIND', { behindBytes: int64(g.n) }),
    samples: [
      { text: '2024-03-12 10:04:51 INFO BrokerControllerScheduledThread1 - Slave fall behind master: 4608671516 bytes', fields: { status: 'SLAVE_BEHIND', behindBytes: 4608671516, addr: null } },
    ],
  },
  {
    id: 'store-sync/slave-fall-behind-5x',
    type: 'store-sync',
    keywords: ['CommitLog: slave fall behind master '],
    pattern: /CommitLog: slave fall behind master (?<n>-?\d+)\s*bytes/,
    versions: '5.x (master, every 60 s, only while a slave is connected)',
    versionHint: '>=5.0.0',
    source: 'broker/BrokerController (printMasterAndSlaveDiff)',
    format: 'CommitLog: slave fall behind master {}bytes',
    args: ['behindBytes'],
    fields: (g) => storeSync('SLAVE_BEHIND', { behindBytes: int64(g.n) }),
    samples: [
      { text: '2024-05-20 14:04:17 INFO BrokerControllerScheduledThread1 - CommitLog: slave fall behind master 0bytes', fields: { status: 'SLAVE_BEHIND', behindBytes: 0 } },
      { text: 'CommitLog: slave fall behind master 402653184bytes', fields: { behindBytes: 402653184 } },
      // An offset beyond 2^53 stays exact (as its digits).
      { text: 'CommitLog: slave fall behind master 9223372036854775807bytes', fields: { behindBytes: '9223372036854775807' } },
    ],
  },
  {
    id: 'broker-jstack/jstack',
    type: 'broker-jstack',
    keywords: ['broker jstack'],
    pattern: /\bbroker jstack\b/,
    versions: '>=5.0.0',
    versionHint: '>=5.0.0',
    source: 'broker/latency/BrokerFastFailure',
    format: 'broker jstack \n {}',
    args: ['jstack'],
    fields: () => ({}),
    samples: [
      { text: '2024-05-20 14:03:07 WARN BrokerFastFailureScheduledThread1 - broker jstack ', fields: {} },
      // The whole message: the dump follows on the next lines.
      { text: 'broker jstack \n "main" Id=1 WAITING', fields: {} },
    ],
  },

  // ---- watermark ------------------------------------------------------------------------------
  {
    id: 'watermark/namesrv',
    type: 'watermark',
    keywords: ['[WATERMARK] ClientQueueSize'],
    pattern: /\[WATERMARK\] ClientQueueSize:\s*(?<s>-?\d+) ClientQueueSlowTime:\s*(?<ms>-?\d+)/,
    versions: '>=5.0.0',
    versionHint: '>=5.0.0',
    source: 'namesrv/NamesrvController',
    format: '[WATERMARK] ClientQueueSize:{} ClientQueueSlowTime:{} DefaultQueueSize:{} DefaultQueueSlowTime:{}',
    args: ['size', 'slowMs', 'defaultQueueSize', 'defaultQueueSlowTime'],
    fields: (g) => ({ queue: 'namesrv-client', size: num(g.s), slowMs: num(g.ms) }),
    samples: [
      {
        text: '2024-05-20 14:03:18 INFO NamesrvWatermarkThread - [WATERMARK] ClientQueueSize:3 ClientQueueSlowTime:12 DefaultQueueSize:0 DefaultQueueSlowTime:0',
        fields: { queue: 'namesrv-client', size: 3, slowMs: 12 },
      },
    ],
  },
  {
    id: 'watermark/broker',
    type: 'watermark',
    keywords: ['[WATERMARK]'],
    pattern: /\[WATERMARK\] (?<q>[A-Za-z][A-Za-z ]*?) Queue Size: (?<s>-?\d+) SlowTimeMills: (?<ms>-?\d+)/,
    versions: 'all (4.x: Send, Pull, Query, Transaction; 5.x adds Lite Pull, ClientManager, Heartbeat, Ack, Admin)',
    source: 'broker/BrokerController',
    // 5.3.3's format; 4.x writes each queue's name into its own literal (`[WATERMARK] Send Queue Size: {} ...`), the same text.
    format: '[WATERMARK] {} Queue Size: {} SlowTimeMills: {}',
    args: ['queue', 'size', 'slowMs'],
    fields: (g) => ({ queue: str(g.q), size: num(g.s), slowMs: num(g.ms) }),
    samples: [
      { text: '2024-05-20 14:03:18 - [WATERMARK] Send Queue Size: 37 SlowTimeMills: 184', fields: { queue: 'Send', size: 37, slowMs: 184 } },
      { text: '[WATERMARK] Lite Pull Queue Size: 0 SlowTimeMills: 0', fields: { queue: 'Lite Pull', size: 0, slowMs: 0 } },
      { text: '[WATERMARK] ClientManager Queue Size: 2 SlowTimeMills: 5', fields: { queue: 'ClientManager', size: 2, slowMs: 5 } },
    ],
  },

  // ---- Netty pipeline (client side) ----------------------------------------------------------
  pipeline('pipeline/client-connect-local', 'client', 'connect', `${CLIENT_PIPE}CONNECT`, /NETTY CLIENT PIPELINE: CONNECT\s+(?!UNKNOWN\s)(?!null\s)\S+ => (?<a>.*?)\s*$/, '>=5.3.2', 'NETTY CLIENT PIPELINE: CONNECT  {} => {}', [
    { text: 'NETTY CLIENT PIPELINE: CONNECT  10.0.0.2 => 10.0.0.1:10911', fields: { side: 'client', event: 'connect', addr: '10.0.0.1:10911' } },
  ], '>=5.3.2'),
  pipeline('pipeline/client-connect', 'client', 'connect', `${CLIENT_PIPE}CONNECT`, /NETTY CLIENT PIPELINE: CONNECT\s+\S+ => (?<a>.*?)\s*$/, '<5.3.2', 'NETTY CLIENT PIPELINE: CONNECT  {} => {}', [
    { text: '2024-05-20 14:03:11,483 INFO RocketmqRemoting - NETTY CLIENT PIPELINE: CONNECT  UNKNOWN => 10.0.0.1:10911', fields: { side: 'client', event: 'connect', addr: '10.0.0.1:10911' } },
  ]),
  pipeline('pipeline/client-active-531', 'client', 'active', `${CLIENT_PIPE}ACTIVE`, /NETTY CLIENT PIPELINE: ACTIVE, (?<a>[^,]*), channelId=/, '>=5.3.1', 'NETTY CLIENT PIPELINE: ACTIVE, {}, channelId={}', [
    { text: 'NETTY CLIENT PIPELINE: ACTIVE, 10.0.0.1:10911, channelId=5f3c2a1b', fields: { side: 'client', event: 'active', addr: '10.0.0.1:10911' } },
  ], '>=5.3.1'),
  pipeline('pipeline/client-active', 'client', 'active', `${CLIENT_PIPE}ACTIVE`, /NETTY CLIENT PIPELINE: ACTIVE,?\s*(?<a>.*?)\s*$/, '5.2.0-5.3.0', 'NETTY CLIENT PIPELINE: ACTIVE, {}', [
    { text: 'NETTY CLIENT PIPELINE: ACTIVE, 10.0.0.1:10911', fields: { side: 'client', event: 'active', addr: '10.0.0.1:10911' } },
  ], '5.2.0-5.3.0'),
  pipeline('pipeline/client-disconnect', 'client', 'disconnect', `${CLIENT_PIPE}DISCONNECT`, /NETTY CLIENT PIPELINE: DISCONNECT\s*(?<a>.*?)\s*$/, 'all', 'NETTY CLIENT PIPELINE: DISCONNECT {}', [
    { text: 'NETTY CLIENT PIPELINE: DISCONNECT 10.0.0.1:10911', fields: { side: 'client', event: 'disconnect', addr: '10.0.0.1:10911' } },
  ]),
  pipeline('pipeline/client-close-531', 'client', 'close', `${CLIENT_PIPE}CLOSE channel[`, /NETTY CLIENT PIPELINE: CLOSE channel\[(?<a>[^\]]*)\]/, '>=5.3.1', 'NETTY CLIENT PIPELINE: CLOSE channel[addr={}, id={}]', [
    { text: 'NETTY CLIENT PIPELINE: CLOSE channel[addr=10.0.0.1:10911, id=5f3c2a1b]', fields: { side: 'client', event: 'close', addr: '10.0.0.1:10911' } },
    { text: 'NETTY CLIENT PIPELINE: CLOSE channel[addr=, id=5f3c2a1b]', fields: { addr: null } },
  ], '>=5.3.1'),
  pipeline('pipeline/client-close', 'client', 'close', `${CLIENT_PIPE}CLOSE`, /NETTY CLIENT PIPELINE: CLOSE\s*(?<a>.*?)\s*$/, '<5.3.1', 'NETTY CLIENT PIPELINE: CLOSE {}', [
    { text: '2020-12-01 19:19:24,024 INFO RocketmqRemoting - NETTY CLIENT PIPELINE: CLOSE 192.168.0.153:10911', fields: { side: 'client', event: 'close', addr: '192.168.0.153:10911' } },
    { text: 'NETTY CLIENT PIPELINE: CLOSE ', fields: { addr: null } },
    { text: 'NETTY CLIENT PIPELINE: CLOSE xx.xx.xx.xx:9876', fields: { addr: 'xx.xx.xx.xx:9876' } },
  ]),
  pipeline('pipeline/client-inactive-531', 'client', 'inactive', `${CLIENT_PIPE}channelInactive, the channel[addr=`, /NETTY CLIENT PIPELINE: channelInactive, the channel\[(?<a>addr=[^\]]*)\]/, '>=5.3.1', 'NETTY CLIENT PIPELINE: channelInactive, the channel[addr={}, id={}]', [
    { text: 'NETTY CLIENT PIPELINE: channelInactive, the channel[addr=10.0.0.1:10911, id=5f3c2a1b]', fields: { side: 'client', event: 'inactive', addr: '10.0.0.1:10911' } },
  ], '>=5.3.1'),
  pipeline('pipeline/client-inactive', 'client', 'inactive', `${CLIENT_PIPE}channelInactive`, /NETTY CLIENT PIPELINE: channelInactive, the channel\[(?<a>[^\]]*)\]/, '5.1.3-5.3.0', 'NETTY CLIENT PIPELINE: channelInactive, the channel[{}]', [
    { text: '2023-10-30 08:48:42 INFO NettyClientWorkerThread_3 - NETTY CLIENT PIPELINE: channelInactive, the channel[172.30.44.144:9876]', fields: { side: 'client', event: 'inactive', addr: '172.30.44.144:9876' } },
  ], '5.1.3-5.3.0'),
  pipeline('pipeline/client-idle-531', 'client', 'idle', `${CLIENT_PIPE}IDLE exception channel[`, /NETTY CLIENT PIPELINE: IDLE exception channel\[(?<a>[^\]]*)\]/, '>=5.3.1', 'NETTY CLIENT PIPELINE: IDLE exception channel[addr={}, id={}]', [
    { text: 'NETTY CLIENT PIPELINE: IDLE exception channel[addr=10.0.0.5:9876, id=5f3c2a1b]', fields: { side: 'client', event: 'idle', addr: '10.0.0.5:9876' } },
  ], '>=5.3.1'),
  pipeline('pipeline/client-idle', 'client', 'idle', `${CLIENT_PIPE}IDLE exception`, /NETTY CLIENT PIPELINE: IDLE exception \[(?<a>[^\]]*)\]/, '<5.3.1', 'NETTY CLIENT PIPELINE: IDLE exception [{}]', [
    { text: '2024-09-25 16:20:39 WARN NettyClientWorkerThread_3 - NETTY CLIENT PIPELINE: IDLE exception [10.169.133.146:9876]', fields: { side: 'client', event: 'idle', addr: '10.169.133.146:9876' } },
  ]),
  pipeline('pipeline/client-exception-531', 'client', 'exception', `${CLIENT_PIPE}exceptionCaught channel[`, /NETTY CLIENT PIPELINE: exceptionCaught channel\[(?<a>[^\]]*)\]/, '>=5.3.1', 'NETTY CLIENT PIPELINE: exceptionCaught channel[addr={}, id={}]', [
    { text: 'NETTY CLIENT PIPELINE: exceptionCaught channel[addr=10.0.0.1:10911, id=5f3c2a1b]', fields: { side: 'client', event: 'exception', addr: '10.0.0.1:10911' } },
  ], '>=5.3.1'),
  // The `exceptionCaught exception.` line that follows (with the stack) is not an event.
  pipeline('pipeline/client-exception', 'client', 'exception', `${CLIENT_PIPE}exceptionCaught`, /NETTY CLIENT PIPELINE: exceptionCaught(?: (?!exception\.)(?<a>.*?))?\s*$/, '<5.3.1', 'NETTY CLIENT PIPELINE: exceptionCaught {}', [
    { text: 'NETTY CLIENT PIPELINE: exceptionCaught 10.0.0.1:10911', fields: { side: 'client', event: 'exception', addr: '10.0.0.1:10911' } },
  ]),

  // ---- Netty pipeline (server side: broker remoting.log, namesrv.log) ------------------------
  pipeline('pipeline/server-registered', 'server', 'registered', `${SERVER_PIPE}channelRegistered`, /NETTY SERVER PIPELINE: channelRegistered\s*(?<a>.*?)\s*$/, 'all', 'NETTY SERVER PIPELINE: channelRegistered {}', [
    { text: '2021-12-11 16:11:50 INFO NettyServerCodecThread_1 - NETTY SERVER PIPELINE: channelRegistered 192.168.56.1:61585', fields: { side: 'server', event: 'registered', addr: '192.168.56.1:61585' } },
  ]),
  pipeline('pipeline/server-unregistered', 'server', 'unregistered', `${SERVER_PIPE}channelUnregistered`, /NETTY SERVER PIPELINE: channelUnregistered, the channel\[(?<a>[^\]]*)\]/, 'all', 'NETTY SERVER PIPELINE: channelUnregistered, the channel[{}]', [
    { text: 'NETTY SERVER PIPELINE: channelUnregistered, the channel[172.30.44.144:57198]', fields: { side: 'server', event: 'unregistered', addr: '172.30.44.144:57198' } },
  ]),
  pipeline('pipeline/server-active', 'server', 'active', `${SERVER_PIPE}channelActive`, /NETTY SERVER PIPELINE: channelActive, the channel\[(?<a>[^\]]*)\]/, 'all', 'NETTY SERVER PIPELINE: channelActive, the channel[{}]', [
    { text: 'NETTY SERVER PIPELINE: channelActive, the channel[192.168.56.1:61585]', fields: { side: 'server', event: 'active', addr: '192.168.56.1:61585' } },
  ]),
  pipeline('pipeline/server-inactive', 'server', 'inactive', `${SERVER_PIPE}channelInactive`, /NETTY SERVER PIPELINE: channelInactive, the channel\[(?<a>[^\]]*)\]/, 'all', 'NETTY SERVER PIPELINE: channelInactive, the channel[{}]', [
    { text: '2024-05-20 14:06:40 INFO NettyServerCodecThread_5 - NETTY SERVER PIPELINE: channelInactive, the channel[192.168.1.20:53412]', fields: { side: 'server', event: 'inactive', addr: '192.168.1.20:53412' } },
  ]),
  pipeline('pipeline/server-idle', 'server', 'idle', `${SERVER_PIPE}IDLE exception`, /NETTY SERVER PIPELINE: IDLE exception (?:channel)?\[(?<a>[^\]]*)\]/, 'all', 'NETTY SERVER PIPELINE: IDLE exception [{}]', [
    { text: 'NETTY SERVER PIPELINE: IDLE exception [10.0.0.30:51234]', fields: { side: 'server', event: 'idle', addr: '10.0.0.30:51234' } },
  ]),
  pipeline('pipeline/server-exception', 'server', 'exception', `${SERVER_PIPE}exceptionCaught`, /NETTY SERVER PIPELINE: exceptionCaught(?: (?!exception\.)(?<a>.*?))?\s*$/, 'all', 'NETTY SERVER PIPELINE: exceptionCaught {}', [
    { text: 'NETTY SERVER PIPELINE: exceptionCaught 10.0.0.30:51234', fields: { side: 'server', event: 'exception', addr: '10.0.0.30:51234' } },
  ]),

  // ---- process lifecycle ---------------------------------------------------------------------
  {
    id: 'startup/client-instance',
    type: 'startup',
    keywords: ['reated a new client Instance'],
    pattern: /[Cc]reated a new client Instance(?:.*?(?:ClientVersion:\s*|\] )(?<v>V\d+_\d+_\d+\w*))?/,
    versions: 'all (4.4.0 on: Created ..., ClientVersion:V4_9_8; up to 4.3.x: created ..., ClinetID: ... V4_3_0)',
    source: 'client/impl/factory/MQClientInstance',
    format: 'Created a new client Instance, InstanceIndex:{}, ClientID:{}, ClientConfig:{}, ClientVersion:{}, SerializerType:{}',
    args: ['instanceIndex', 'clientId', 'clientConfig', 'clientVersion', 'serializerType'],
    forms: {
      '4.3': { format: 'created a new client Instance, FactoryIndex: {} ClinetID: {} {} {}, serializeType={}', args: ['instanceIndex', 'clientId', 'clientConfig', 'clientVersion', 'serializeType'] },
    },
    fields: (g) => startup('client', { version: normVersion(g.v) }),
    samples: [
      {
        text: 'created a new client Instance, FactoryIndex: 0 ClinetID: 10.0.0.9@12345 ClientConfig [namesrvAddr=10.0.0.5:9876, clientIP=10.0.0.9, instanceName=12345, clientCallbackExecutorThreads=4, pollNameServerInterval=30000, heartbeatBrokerInterval=30000, persistConsumerOffsetInterval=5000, unitMode=false, unitName=null, vipChannelEnabled=true] V4_3_0, serializeType=JSON',
        fields: { role: 'client', version: '4.3.0' },
      },
      {
        text: 'Created a new client Instance, InstanceIndex:0, ClientID:10.0.0.9@12345, ClientConfig:ClientConfig [namesrvAddr=10.0.0.5:9876, clientIP=10.0.0.9, instanceName=12345, clientCallbackExecutorThreads=8, pollNameServerInterval=30000, heartbeatBrokerInterval=30000, persistConsumerOffsetInterval=5000, pullTimeDelayMillsWhenException=1000, unitMode=false, unitName=null, vipChannelEnabled=false, useTLS=false, language=JAVA, namespace=null, mqClientApiTimeout=3000], ClientVersion:V4_9_8, SerializerType:JSON',
        fields: { role: 'client', version: '4.9.8', group: null, brokerName: null, brokerAddr: null },
      },
    ],
  },
  {
    id: 'startup/client-factory',
    type: 'startup',
    keywords: ['] start OK'],
    pattern: /the client factory \[(?<id>[^\]]*)\] start OK/,
    versions: 'all',
    source: 'client/impl/factory/MQClientInstance',
    format: 'the client factory [{}] start OK',
    args: ['clientId'],
    fields: () => startup('client'),
    samples: [{ text: 'the client factory [10.0.0.9@12345] start OK', fields: { role: 'client', version: null } }],
  },
  {
    id: 'startup/producer',
    type: 'startup',
    keywords: ['] start OK'],
    pattern: /the producer \[(?<g>[^\]]*)\] start OK/,
    versions: 'all',
    source: 'client/impl/producer/DefaultMQProducerImpl',
    format: 'the producer [{}] start OK. sendMessageWithVIPChannel={}',
    args: ['group', 'sendMessageWithVIPChannel'],
    fields: (g) => startup('producer', { group: str(g.g) }),
    samples: [{ text: 'the producer [please_rename_unique_group_name] start OK. sendMessageWithVIPChannel=false', fields: { role: 'producer', group: 'please_rename_unique_group_name' } }],
  },
  {
    id: 'startup/consumer',
    type: 'startup',
    keywords: ['] start OK'],
    pattern: /the consumer \[(?<g>[^\]]*)\] start OK/,
    versions: 'all',
    source: 'client/impl/consumer/DefaultMQPushConsumerImpl',
    format: 'the consumer [{}] start OK.',
    args: ['group'],
    fields: (g) => startup('consumer', { group: str(g.g) }),
    samples: [{ text: 'the consumer [group_a] start OK.', fields: { role: 'consumer', group: 'group_a' } }],
  },
  {
    id: 'startup/broker',
    type: 'startup',
    keywords: ['] boot success'],
    pattern: /The broker\[(?<n>[^,\]]*), (?<a>[^\]]*)\] boot success/,
    versions: 'all',
    source: 'broker/BrokerStartup',
    // Concatenated (String.format in 5.x); ` and name server is ` follows when namesrvAddr is set.
    format: 'The broker[{}, {}] boot success. serializeType={}',
    args: ['brokerName', 'brokerAddr', 'serializeType'],
    forms: {
      namesrv: { format: 'The broker[{}, {}] boot success. serializeType={} and name server is {}', args: ['brokerName', 'brokerAddr', 'serializeType', 'namesrvAddr'] },
    },
    fields: (g) => startup('broker', { brokerName: str(g.n), brokerAddr: normAddr(g.a) }),
    samples: [
      {
        text: '2024-05-20 14:03:07 INFO main - The broker[broker-a, 192.168.1.10:10911] boot success. serializeType=JSON and name server is 192.168.1.5:9876',
        fields: { role: 'broker', brokerName: 'broker-a', brokerAddr: '192.168.1.10:10911', version: null, group: null },
      },
    ],
  },
  {
    id: 'startup/namesrv',
    type: 'startup',
    keywords: ['The Name Server boot success'],
    pattern: /The Name Server boot success/,
    versions: 'all (5.1.0+ append `, address <ip>:<port>`)',
    source: 'namesrv/NamesrvStartup',
    format: 'The Name Server boot success. serializeType={}',
    args: ['serializeType'],
    forms: {
      '5.1.0': { format: 'The Name Server boot success. serializeType=%s, address %s:%d', args: ['serializeType', 'bindAddress', 'listenPort'], printf: true },
    },
    fields: () => startup('namesrv'),
    samples: [
      { text: '2021-12-11 16:11:50 INFO main - The Name Server boot success. serializeType=JSON', fields: { role: 'namesrv', version: null } },
      { text: 'The Name Server boot success. serializeType=JSON, address 0.0.0.0:9876', fields: { role: 'namesrv' } },
    ],
  },
  {
    id: 'shutdown/client-factory',
    type: 'shutdown',
    keywords: ['] shutdown OK'],
    pattern: /the client factory \[(?<id>[^\]]*)\] shutdown OK/,
    versions: 'all',
    source: 'client/impl/factory/MQClientInstance',
    format: 'the client factory [{}] shutdown OK',
    args: ['clientId'],
    fields: () => shutdown('client'),
    samples: [{ text: 'the client factory [10.0.0.9@12345] shutdown OK', fields: { role: 'client', version: null } }],
  },
  {
    id: 'shutdown/broker-hook',
    type: 'shutdown',
    keywords: ['Shutdown hook was invoked'],
    pattern: /Shutdown hook was invoked, (?<n>\d+)/,
    versions: 'all',
    source: 'broker/BrokerStartup',
    format: 'Shutdown hook was invoked, {}',
    args: ['shutdownTimes'],
    fields: () => shutdown('broker'),
    samples: [{ text: '2019-12-04 17:31:52 INFO ShutdownHook - Shutdown hook was invoked, 1', fields: { role: 'broker', version: null } }],
  },
  {
    id: 'shutdown/broker-hook-over',
    type: 'shutdown',
    keywords: ['Shutdown hook over'],
    pattern: /Shutdown hook over, consuming total time\(ms\): (?<ms>\d+)/,
    versions: 'all',
    source: 'broker/BrokerStartup',
    format: 'Shutdown hook over, consuming total time(ms): {}',
    args: ['consumingTimeTotal'],
    fields: () => shutdown('broker'),
    samples: [{ text: 'Shutdown hook over, consuming total time(ms): 3320', fields: { role: 'broker' } }],
  },
  {
    id: 'shutdown/namesrv-hook',
    type: 'shutdown',
    keywords: ['shutdown hook was invoked'],
    pattern: /shutdown hook was invoked, (?<n>\d+) times\./,
    versions: 'all',
    source: 'srvutil/ShutdownHookThread',
    format: 'shutdown hook was invoked, {} times.',
    args: ['shutdownTimes'],
    fields: () => shutdown('namesrv'),
    samples: [{ text: 'shutdown hook was invoked, 1 times.', fields: { role: 'namesrv', version: null } }],
  },
  {
    id: 'shutdown/hook-no-times',
    type: 'shutdown',
    keywords: ['shutdown hook was invoked'],
    pattern: /shutdown hook was invoked, (?<n>\d+)(?! times)/,
    versions: '3.x broker and NameServer, 4.0.0 NameServer',
    source: 'broker/BrokerStartup (3.x), namesrv/NamesrvStartup (3.x, 4.0.0-incubating)',
    format: 'shutdown hook was invoked, {}',
    args: ['shutdownTimes'],
    roleFromKind: true,
    fields: () => shutdown('broker'),
    samples: [{ text: '2016-07-12 21:36:05 INFO ShutdownHook - shutdown hook was invoked, 1', fields: { version: null } }],
  },
  {
    id: 'shutdown/hook-over-old',
    type: 'shutdown',
    keywords: ['shutdown hook over'],
    pattern: /shutdown hook over, consuming time total\(ms\): (?<ms>\d+)/,
    versions: '3.x broker and NameServer, 4.0.0 NameServer',
    source: 'broker/BrokerStartup (3.x), namesrv/NamesrvStartup (3.x, 4.0.0-incubating)',
    format: 'shutdown hook over, consuming time total(ms): {}',
    args: ['consumingTimeTotal'],
    roleFromKind: true,
    fields: () => shutdown('broker'),
    samples: [{ text: 'shutdown hook over, consuming time total(ms): 2301', fields: { version: null } }],
  },
  {
    id: 'shutdown/namesrv-hook-done',
    type: 'shutdown',
    keywords: ['shutdown hook done'],
    pattern: /shutdown hook done, consuming time total\(ms\): (?<ms>\d+)/,
    versions: 'all',
    source: 'srvutil/ShutdownHookThread',
    format: 'shutdown hook done, consuming time total(ms): {}',
    args: ['consumingTimeTotal'],
    fields: () => shutdown('namesrv'),
    samples: [{ text: 'shutdown hook done, consuming time total(ms): 120', fields: { role: 'namesrv' } }],
  },
];
