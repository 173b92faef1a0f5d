// The consumers' impact per consumer group, read in the same pass as the incidents: how many
// deliveries failed, came back through %RETRY%, went to %DLQ%, were consumed again after an offset
// moved back, and the largest lag, each from the lines that show it or said unknown (docs/analyze.md,
// "The consumers' impact"). Every figure is a count the logs hold or a lower bound said so.
//
// Where the figures come from:
// - the broker's stats.log (BrokerStatsManager, 4.x and 5.x): per minute, TOPIC_PUT_NUMS [topic],
//   GROUP_GET_NUMS [topic@group], SNDBCK_PUT_NUMS [topic@group] (every message a consumer sent back,
//   SendMessageProcessor.consumerSendMsgBack: to the retry path or, past maxReconsumeTimes, to the
//   DLQ), TOPIC_PUT_NUMS [SCHEDULE_TOPIC_XXXX] (a sent-back message waiting for its retry delay) and
//   TOPIC_PUT_NUMS [%RETRY%group] (put back for delivery when the delay is over);
// - for a pop consumer (a 5.x gRPC consumer through a proxy): its retry topic %RETRY%group_topic
//   (KeyBuilder.buildPopRetryTopic, 5.x), named in the group stats' keys (`%RETRY%group_topic@group`):
//   TOPIC_PUT_NUMS of it (the broker's pop revive puts every failed delivery back there:
//   PopReviveService, after the client's changeInvisibleDuration) and SNDBCK_PUT_NUMS of it (the
//   proxy's forward to the DLQ of a message past its attempts, ConsumerProcessor, which goes through
//   the broker's consumerSendMsgBack);
// - the client's `[persistAll] ... updateConsumeOffsetToBroker` lines (RemoteBrokerOffsetStore, every
//   persistConsumerOffsetInterval, 5 s): the committed offset per queue, which the broker's
//   consumerProgress counts the lag from;
// - the client's consume failures and flow-control lines (ConsumeMessageConcurrentlyService /
//   OrderlyService, DefaultMQPushConsumerImpl.pullMessage);
// - offset resets (the broker's `[reset-offset]`, the client's `invoke reset offset operation`).

import type { EventType, RmqEvent } from '../parse/types.js';
import type { ConsumerImpact } from '../rules/incident.js';
import type { ConsumerFigure } from './types.js';

/** Retries of failures this close to the last stats minute may not be in %RETRY%'s counts yet (delay levels 3-6). */
const RETRY_PENDING_MS = 120_000;
/** A committed offset that moves back this long after a reset of its group is the reset's doing. */
const RESET_EFFECT_MS = 60000;

/** Within the reset's effect (a minute's stats line ending up to a minute after it counts). */
function afterReset(g: { lastReset: number | null }, ts: number): boolean {
  return g.lastReset !== null && ts >= g.lastReset && ts - g.lastReset <= RESET_EFFECT_MS + 60000;
}
/** Illegal offsets remembered per group (a flood of them is one queue's story told many times). */
const SKIPPED_KEPT = 10000;
/** The broker's retry delay topic (ScheduleMessageService, 4.x; also 5.x's delay levels). */
const SCHEDULE_TOPIC = 'SCHEDULE_TOPIC_XXXX';
const RETRY_PREFIX = '%RETRY%';
const DLQ_PREFIX = '%DLQ%';

/** An exception's second line (`return null`, orderly `return not OK`) comes this soon after it, on its thread. */
const TOLD_TWICE_MS = 2000;
/** Threads whose last exception is remembered (the oldest let go). */
const KEPT_THROWN = 4096;
const TYPES: ReadonlySet<EventType> = new Set<EventType>(['stats', 'offset-commit', 'offset-reset', 'offset-illegal', 'consume-failed', 'flow-control', 'startup', 'consumer-changed']);
/** Client ids and groups kept to place SimpleConsumers on their hosts (a few per instance). */
const SIMPLE_KEPT = 5000;
/** The group statistics keyed `topic@group` (BrokerStatsManager, 4.x and 5.x; the CK and ACK ones are pop's, 5.x). */
const GROUP_STATS: ReadonlySet<string> = new Set(['GROUP_GET_NUMS', 'GROUP_ACK_NUMS', 'GROUP_CK_NUMS', 'SNDBCK_PUT_NUMS']);

interface GroupState {
  topics: Set<string>;
  hosts: Set<string>;
  clientFailures: number;
  /** Its client logged an orderly listener's `return not OK`. */
  orderly: boolean;
  sentBack: number;
  /** Per broker host: the group's sent-back messages (to weigh against the host's SCHEDULE puts). */
  sentBackOn: Map<string, number>;
  retryPuts: number;
  dlqPuts: number;
  dlqPutsSeen: boolean;
  sentBackSeen: boolean;
  retrySeen: boolean;
  /** A pop consumer's retry topic (%RETRY%group_topic), when the stats named one: its puts are failed deliveries. */
  popRetry: string | null;
  popRetryPuts: number;
  /** SNDBCK_PUT_NUMS of the pop retry topic: messages the proxy forwarded to the DLQ. */
  popDlq: number;
  /**
   * Committed offset per topic, broker and queue: nested maps of the names as the events carry them
   * (every offset commit is read: a key made of the three would be a new string to hash each time).
   */
  committed: Map<string, Map<string, Map<string, number>>>;
  lastReset: number | null;
  /** The last failed delivery: a client's line, or a minute's sends back (the line's time). */
  lastFailure: number | null;
  consumedAgain: number;
  resetSeen: boolean;
  /**
   * Deliveries that failed after the last reset while its effect lasted (afterReset: the client's
   * lines, or the group's sends back in a minute that ended then): a message delivered again and
   * failed is not consumed twice, unless a retry of it succeeds later.
   */
  failedAfterReset: number;
  /** Messages the store no longer held when the consumer asked for them (offset below nextBeginOffset), per `queue@offset` once. */
  skipped: Map<string, number>;
  /** The largest count of cached messages one queue's flow-control line printed. */
  cached: { count: number; at: number; host: string } | null;
  /** The lag's relative curve at each minute end the topic's puts were printed (puts so far minus the offsets last committed), summed up as it goes, per count of queues read. */
  curve: Map<number, CurveSummary>;
}

/**
 * The broker hosts that printed a topic's puts, per minute: a minute printed by fewer hosts than
 * ever printed the topic is a gap (a broker down). Minutes are folded into `fewest` once the stream
 * is past them (it is in time order), so that weeks of minutes cost what a few do.
 */
interface PutHosts {
  all: Set<string>;
  fewest: number;
  recent: Map<number, Set<string>>;
}

/** A minute's stats lines come within this of each other on every broker (clocks apart included). */
const MINUTE_OPEN_MS = 300000;

function notePutHost(ph: PutHosts, ts: number, host: string): void {
  ph.all.add(host);
  const m = ph.recent.get(ts);
  if (m) m.add(host);
  else ph.recent.set(ts, new Set([host]));
  if (ph.recent.size > 16) {
    for (const [at, hosts] of ph.recent) {
      if (at >= ts - MINUTE_OPEN_MS) continue;
      ph.fewest = Math.min(ph.fewest, hosts.size);
      ph.recent.delete(at);
    }
  }
}

interface CurvePoint {
  at: number;
  /** The puts so far minus the offsets last committed before the minute end. */
  rel: number;
  queues: number;
}

interface ConsumerCollector {
  readonly types: ReadonlySet<EventType>;
  visit(e: RmqEvent): void;
  finish(): ConsumerImpact[];
}

export function consumerCollector(): ConsumerCollector {
  const groups = new Map<string, GroupState>();
  /** Per broker host: SCHEDULE_TOPIC_XXXX puts, and whether a minute printed them. */
  const schedule = new Map<string, number>();
  /** Per topic: its puts so far on every broker (summed minute by minute). */
  const puts = new Map<string, number>();
  /** The minute (epoch ms of the stats line) being summed, with the topics whose puts it printed. */
  let minute: { at: number; topics: Set<string> } | null = null;
  /** Per topic: the broker hosts that printed its puts, per minute (a minute missing on one breaks the sum). */
  const putHosts = new Map<string, PutHosts>();
  /** Puts per retry topic (the name after %RETRY%), given to their group at the end (a pop retry topic's group is named by later lines). */
  const retryPuts = new Map<string, number>();
  /** The last minute (epoch ms of its line) a broker printed a topic's puts: retries due later are not counted. */
  let lastPutMinute: number | null = null;
  /** Pop retry topics (the name after %RETRY%) and their group, from the group stats' keys. */
  const popRetry = new Map<string, string>();
  /** Per host and consume thread: when its last listener exception was logged (a second line of the same delivery follows). */
  const thrownAt = new Map<string, number>();

  const state = (group: string): GroupState => {
    let g = groups.get(group);
    if (!g) {
      g = {
        topics: new Set(), hosts: new Set(), clientFailures: 0, orderly: false, sentBack: 0, sentBackOn: new Map(), retryPuts: 0, dlqPuts: 0, dlqPutsSeen: false,
        sentBackSeen: false, retrySeen: false, popRetry: null, popRetryPuts: 0, popDlq: 0, committed: new Map(), lastReset: null, lastFailure: null, consumedAgain: 0, resetSeen: false, failedAfterReset: 0, skipped: new Map(), cached: null, curve: new Map(),
      };
      groups.set(group, g);
    }
    return g;
  };
  // A minute's stats lines all carry its time: the curve's point is taken once the minute is over.
  const closeMinute = () => {
    if (!minute) return;
    for (const [, g] of groups) {
      for (const topic of g.topics) {
        if (!minute.topics.has(topic)) continue;
        let sum = 0;
        let queues = 0;
        for (const byQueue of g.committed.get(topic)?.values() ?? []) {
          for (const o of byQueue.values()) sum += o;
          queues += byQueue.size;
        }
        if (!queues) continue;
        addPoint(g.curve, { at: minute.at, rel: (puts.get(topic) ?? 0) - sum, queues });
      }
    }
    minute = null;
  };
  /** A 5.x gRPC SimpleConsumer's host by its client id (its start line prints no group), and the broker's connections of a group's client ids. */
  const simpleHost = new Map<string, string>();
  const connections: Array<[string, string]> = [];
  const visit = (e: RmqEvent): void => {
    const f = e.fields as Record<string, unknown>;
    const ts = e.ts;
    if (ts === null) return;
    // Read only to place a SimpleConsumer group's instances (rocketmq-client-java SimpleConsumerImpl's
    // start prints its client id; the broker's `new consumer connected, group: G ... clientId=` its group).
    if (e.type === 'startup') {
      const id = e.kind === 'client' && e.entry === 'startup/grpc-simple-consumer' ? /clientId=([^,\s]+)/.exec(e.text)?.[1] : undefined;
      if (id && simpleHost.size < SIMPLE_KEPT) simpleHost.set(id, e.host);
      return;
    }
    if (e.type === 'consumer-changed') {
      if (e.kind === 'broker' && f.change === 'connected' && typeof f.group === 'string' && typeof f.clientId === 'string' && connections.length < SIMPLE_KEPT) connections.push([f.group, f.clientId]);
      return;
    }
    if (minute && ts !== minute.at) closeMinute();
    if (e.type === 'stats') {
      if (f.window !== 'minute' || typeof f.sum !== 'number' || typeof f.key !== 'string') return;
      const key = f.key;
      const sum = f.sum;
      if (f.stat === 'TOPIC_PUT_NUMS') {
        if (lastPutMinute === null || ts > lastPutMinute) lastPutMinute = ts;
        if (key === SCHEDULE_TOPIC) schedule.set(e.host, (schedule.get(e.host) ?? 0) + sum);
        else if (key.startsWith(RETRY_PREFIX)) {
          const name = key.slice(RETRY_PREFIX.length);
          retryPuts.set(name, (retryPuts.get(name) ?? 0) + sum);
        } else if (key.startsWith(DLQ_PREFIX)) {
          const g = state(key.slice(DLQ_PREFIX.length));
          g.dlqPuts += sum;
          g.dlqPutsSeen = true;
        } else {
          puts.set(key, (puts.get(key) ?? 0) + sum);
          let ph = putHosts.get(key);
          if (!ph) putHosts.set(key, (ph = { all: new Set(), fewest: Infinity, recent: new Map() }));
          notePutHost(ph, ts, e.host);
          minute ??= { at: ts, topics: new Set() };
          minute.topics.add(key);
        }
      } else if (GROUP_STATS.has(String(f.stat))) {
        const at = key.lastIndexOf('@');
        if (at < 0) return;
        const group = key.slice(at + 1);
        const topic = key.slice(0, at);
        const retry = topic.startsWith(RETRY_PREFIX) ? topic.slice(RETRY_PREFIX.length) : null;
        // %RETRY%group_topic (v1) or %RETRY%group+topic (v2): a pop consumer's retry topic.
        const pop = retry !== null && retry !== group && (retry.startsWith(`${group}_`) || retry.startsWith(`${group}+`));
        if (pop) popRetry.set(retry, group);
        if (f.stat !== 'SNDBCK_PUT_NUMS') return;
        const g = state(group);
        if (pop) {
          g.popDlq += sum;
          return;
        }
        g.sentBack += sum;
        g.sentBackSeen = true;
        if (sum > 0) g.lastFailure = Math.max(g.lastFailure ?? ts, ts);
        if (afterReset(g, ts)) g.failedAfterReset += sum;
        g.sentBackOn.set(e.host, (g.sentBackOn.get(e.host) ?? 0) + sum);
      }
      return;
    }
    const group = typeof f.group === 'string' ? f.group : null;
    if (!group) return;
    const g = state(group);
    const topic = typeof f.topic === 'string' ? f.topic : null;
    if (e.kind === 'client' || e.kind === 'app') g.hosts.add(e.host);
    if (e.type === 'consume-failed') {
      // One delivery told twice counts once: the listener's exception, then on the same consume thread
      // `return null` or, orderly, `return not OK` (ConsumeMessageOrderlyService takes the thrown call's
      // null status as SUSPEND_CURRENT_QUEUE_A_MOMENT and logs it: gen-20261211, 54 exceptions among
      // 118 such lines).
      const key = `${e.host}|${e.thread ?? ''}`;
      const told = thrownAt.get(key);
      if (f.returnType === 'EXCEPTION') thrownAt.set(key, ts);
      else if ((f.returnType === 'RETURNNULL' || f.returnType === 'FAILED') && told !== undefined && ts - told <= TOLD_TWICE_MS) {
        thrownAt.delete(key);
        return;
      }
      if (thrownAt.size > KEPT_THROWN) thrownAt.delete(thrownAt.keys().next().value!);
      const n = Array.isArray(f.msgIds) && f.msgIds.length ? f.msgIds.length : 1;
      g.clientFailures += n;
      g.lastFailure = Math.max(g.lastFailure ?? ts, ts);
      if (afterReset(g, ts)) g.failedAfterReset += n;
      if (e.entry === 'consume-failed/orderly-not-ok' || e.entry === 'consume-failed/go-orderly-not-ok') g.orderly = true;
    } else if (e.type === 'flow-control') {
      if (typeof f.count === 'number' && (!g.cached || f.count > g.cached.count)) g.cached = { count: f.count, at: ts, host: e.host };
    } else if (e.type === 'offset-illegal') {
      // The client's OFFSET_ILLEGAL (DefaultMQPushConsumerImpl.pullMessage, 3.x-5.x) moves the queue's
      // offset to nextBeginOffset: forward, the messages between were deleted before they were
      // consumed. Read from the client's line only (the broker repeats its own for every pull).
      const next = f.nextBeginOffset;
      if (e.kind === 'client' && typeof f.offset === 'number' && typeof next === 'number' && next > f.offset && g.skipped.size < SKIPPED_KEPT) {
        g.skipped.set(`${String(topic)}@${String(f.brokerName)}:${String(f.queueId)}@${f.offset}`, next - f.offset);
      }
    } else if (e.type === 'offset-reset') {
      g.lastReset = ts;
      g.resetSeen = true;
    } else if (e.type === 'offset-commit' && f.ok !== false && topic && typeof f.offset === 'number' && !topic.startsWith(RETRY_PREFIX)) {
      g.topics.add(topic);
      let byBroker = g.committed.get(topic);
      if (!byBroker) g.committed.set(topic, (byBroker = new Map()));
      const broker = String(f.brokerName);
      let byQueue = byBroker.get(broker);
      if (!byQueue) byBroker.set(broker, (byQueue = new Map()));
      const q = String(f.queueId);
      const before = byQueue.get(q);
      // An offset moving back right after a reset: the messages between are delivered again (the
      // consumer starts from the reset offset, RebalancePushImpl.computePullFromWhere / resetOffset).
      if (before !== undefined && f.offset < before && g.lastReset !== null && ts - g.lastReset <= RESET_EFFECT_MS) g.consumedAgain += before - f.offset;
      byQueue.set(q, f.offset);
    }
  };
  return {
    types: TYPES,
    visit,
    finish() {
      closeMinute();
      for (const [group, id] of connections) {
        const host = simpleHost.get(id);
        if (host !== undefined) state(group).hosts.add(host);
      }
      for (const [name, n] of retryPuts) {
        const pop = popRetry.get(name);
        const g = state(pop ?? name);
        if (pop) {
          g.popRetry = name;
          g.popRetryPuts += n;
        } else {
          g.retryPuts += n;
          g.retrySeen = true;
        }
      }
      // A broker that missed a minute (down, its stats lost with it) leaves the sum of puts short.
      const gaps = new Set([...putHosts].filter(([, ph]) => Math.min(ph.fewest, ...[...ph.recent.values()].map((x) => x.size)) < ph.all.size).map(([t]) => t));
      return [...groups].filter(([, g]) => g.hosts.size > 0 || g.sentBackSeen || g.popRetry !== null).map(([group, g]) => impactOf(group, g, schedule, gaps, lastPutMinute)).sort((a, b) => a.group.localeCompare(b.group));
    },
  };
}

/**
 * A pop consumer's impact (a 5.x gRPC consumer through a proxy): every failed delivery is put back in
 * its retry topic by the pop revive, which is then delivered again unless the proxy forwards it to
 * the DLQ (past its attempts; counted by SNDBCK_PUT_NUMS of the retry topic). It commits no offsets
 * (pop acks each message): its lag is not read from the logs.
 */
function popImpactOf(group: string, g: GroupState, gaps: ReadonlySet<string>, unknown: string[]): ConsumerImpact {
  const retry = `${RETRY_PREFIX}${g.popRetry}`;
  const failed = Math.max(g.popRetryPuts, g.clientFailures);
  const failedHow = g.popRetryPuts >= g.clientFailures ? `TOPIC_PUT_NUMS [${retry}] in the broker stats (a pop consumer's deliveries not acknowledged within their invisible time, failed or not done in time, each put back for retry)` : "the client logs' consume failures";
  unknown.push('consumed twice: a pop consumer acknowledges each message; the logs do not show one delivered twice');
  unknown.push('skipped: the logs do not print messages a subscription left unconsumed');
  unknown.push(gaps.size ? `lag: a broker's stats miss minutes (a broker down)` : 'lag: a pop consumer commits no offsets to read it from');
  return impact(group, g, {
    failed,
    failedHow,
    redelivered: Math.max(0, g.popRetryPuts - g.popDlq),
    retryTopic: retry,
    dlq: g.popDlq,
    dlqHow: `SNDBCK_PUT_NUMS [${retry}@${group}] in the broker stats (the proxy's forwards to the DLQ of messages past their attempts)`,
    consumedAgain: null,
    skipped: null,
    lag: null,
  }, unknown);
}

/** A group's impact: its figures, with what every group's gives (its topics, hosts, cached count). */
function impact(group: string, g: GroupState, figures: Omit<ConsumerImpact, 'group' | 'topics' | 'hosts' | 'cachedAtLeast' | 'unknown'>, unknown: string[]): ConsumerImpact {
  return {
    group,
    topics: [...g.topics].sort(),
    hosts: [...g.hosts].sort(),
    ...figures,
    cachedAtLeast: g.cached ? { count: g.cached.count, at: g.cached.at, host: g.cached.host } : null,
    unknown,
  };
}

function impactOf(group: string, g: GroupState, schedule: ReadonlyMap<string, number>, gaps: ReadonlySet<string>, lastPutMinute: number | null): ConsumerImpact {
  const unknown: string[] = [];
  // Failed: a concurrently consumer sends every failed message back (SNDBCK_PUT_NUMS); an orderly
  // one retries in place and the client logs each failure. The larger count stands.
  if (g.popRetry !== null) return popImpactOf(group, g, gaps, unknown);
  const failed = g.sentBackSeen || g.clientFailures > 0 ? Math.max(g.sentBack, g.clientFailures) : null;
  if (failed === null) unknown.push('failed: no failure in the client logs and no send back in the broker stats');
  const failedHow = failed === null ? null : g.sentBack >= g.clientFailures ? 'SNDBCK_PUT_NUMS in the broker stats' : 'the client logs\' consume failures';
  // DLQ: put directly when reconsumeTimes reached maxReconsumeTimes; the other sent-back messages
  // first wait in SCHEDULE_TOPIC_XXXX. On a broker where this group alone sends back, sent back
  // minus SCHEDULE puts is at least the DLQ's count (producers' delayed messages only lower it).
  let dlq: number | null = null;
  let dlqHow: string | null = null;
  if (g.dlqPutsSeen) {
    dlq = g.dlqPuts;
    dlqHow = `TOPIC_PUT_NUMS [${DLQ_PREFIX}${group}]`;
  } else if (g.sentBackSeen) {
    const hosts = [...g.sentBackOn.keys()];
    if (hosts.every((h) => schedule.has(h))) {
      dlq = hosts.reduce((n, h) => n + Math.max(0, g.sentBackOn.get(h)! - schedule.get(h)!), 0);
      dlqHow = 'at least: SNDBCK_PUT_NUMS minus TOPIC_PUT_NUMS [SCHEDULE_TOPIC_XXXX] in the broker stats';
    }
  }
  if (dlq === null) unknown.push(g.sentBackSeen ? 'DLQ: no SCHEDULE_TOPIC_XXXX puts printed beside the sends back' : 'DLQ: no send back in the broker stats');
  // An orderly group retries a failed delivery in place (ConsumeMessageOrderlyService: the queue is
  // suspended and the same messages delivered again); only what reached maxReconsumeTimes is sent back,
  // so %RETRY% counts few of its redeliveries (gen-20261211: 11 puts against 119 redeliveries).
  const redelivered = g.retrySeen && !g.orderly ? g.retryPuts : null;
  // A failure is put into %RETRY% after its delay level (10 s, 30 s, 1 min, 2 min for the first four
  // reconsumeTimes: MessageStoreConfig.messageDelayLevel 3-6), and counted in the minute it lands: of
  // failures within RETRY_PENDING_MS of the last minute printed, some retries are not counted yet
  // (gen-20261220: 117 puts, 165 redeliveries by the end).
  const redeliveredAtLeast = redelivered !== null && g.lastFailure !== null && lastPutMinute !== null && g.lastFailure > lastPutMinute - RETRY_PENDING_MS;
  if (redelivered === null) unknown.push(g.orderly ? 'redelivered: an orderly group retries in place, which no line counts' : `redelivered: no TOPIC_PUT_NUMS [${RETRY_PREFIX}${group}] in the broker stats`);
  const consumedAgain = g.resetSeen ? g.consumedAgain : null;
  if (consumedAgain === null) unknown.push('consumed twice: no offset reset in the logs (a rebalance or a killed instance can deliver messages again without a line)');
  else if (consumedAgain > 0 && g.failedAfterReset > 0) {
    unknown.push(`consumed twice: ${g.failedAfterReset} deliveries failed in the minutes after the offset reset; how many of the ${consumedAgain} delivered again were consumed OK a second time is not in the logs`);
  }
  const skipped = g.skipped.size ? [...g.skipped.values()].reduce((a, b) => a + b, 0) : null;
  unknown.push(
    skipped === null
      ? 'skipped: the logs do not print messages a subscription or a forward reset left unconsumed'
      : 'skipped beyond the illegal offsets: the logs do not print messages a subscription or a forward reset left unconsumed',
  );
  const broken = [...g.topics].filter((t) => gaps.has(t));
  const lag = broken.length ? null : lagOf(g.curve);
  if (broken.length) unknown.push(`lag: a broker's stats miss minutes of ${broken.join(', ')} (a broker down): the puts cannot be summed`);
  else if (!lag) unknown.push('lag: needs the broker stats\' puts of the topic beside the committed offsets of every queue');
  return impact(group, g, { failed, failedHow, redelivered, ...(redeliveredAtLeast ? { redeliveredAtLeast } : {}), dlq, dlqHow, consumedAgain, skipped, lag }, unknown);
}

/**
 * A curve summed up point by point, so that a month of minutes costs what one costs (a week of a
 * group's stats is 10,080 points per topic): what lagOf reads of it. `firstOther` is the first point
 * whose value differs from the first's, `beforeLastRun` the last point before the final run of
 * equal values: with the lowest value known only at the end, they give the first and the last
 * point above it.
 */
interface CurveSummary {
  points: number;
  low: number;
  top: CurvePoint;
  first: CurvePoint;
  firstOther: CurvePoint | null;
  last: CurvePoint;
  beforeLastRun: CurvePoint | null;
}

/** Counts of queues read that get a summary of their own (a queue committed later starts a new one). */
const CURVES_KEPT = 64;

function addPoint(curves: Map<number, CurveSummary>, p: CurvePoint): void {
  const c = curves.get(p.queues);
  if (!c) {
    if (curves.size < CURVES_KEPT) curves.set(p.queues, { points: 1, low: p.rel, top: p, first: p, firstOther: null, last: p, beforeLastRun: null });
    return;
  }
  c.points++;
  c.low = Math.min(c.low, p.rel);
  if (p.rel > c.top.rel) c.top = p;
  if (!c.firstOther && p.rel !== c.first.rel) c.firstOther = p;
  if (p.rel !== c.last.rel) c.beforeLastRun = c.last;
  c.last = p;
}

/**
 * The lag at each minute end is the puts so far minus the committed offsets (consumerProgress's
 * brokerOffset minus consumerOffset) plus a constant K the logs do not give (the queues' offsets
 * before the stats began). The lag is never negative, so K is taken as minus the curve's lowest
 * point. The broker may hold newer offsets than the last logged (persistConsumerOffsetInterval, 5 s;
 * pulls carry newer ones), so the figure is an estimate (`about`): above the admin tool's by up to
 * the messages consumed in the last 5 s before the minute end.
 */
function lagOf(curves: ReadonlyMap<number, CurveSummary>): ConsumerImpact['lag'] {
  // Only points that read the same queues (a queue committed later shifts the sum).
  let queues = 0;
  for (const q of curves.keys()) queues = Math.max(queues, q);
  const c = curves.get(queues);
  if (!c || c.points < 2) return null;
  const low = c.low;
  const from = c.first.rel > low ? c.first : c.firstOther;
  const until = c.last.rel > low ? c.last : c.beforeLastRun;
  return {
    about: c.top.rel - low,
    at: c.top.at,
    from: from ? from.at : null,
    until: until ? until.at : null,
    minutes: c.points,
    how: 'estimated: the topic\'s TOPIC_PUT_NUMS in the broker stats minus the offsets the consumers committed ([persistAll]) last before each minute end, above the lowest point of the curve',
  };
}

/** What a replay compares of each group's impact (src/replay/consumer-verdict.ts). */
export function consumerFigures(impacts: readonly ConsumerImpact[]): ConsumerFigure[] {
  return impacts.map((c) => ({ group: c.group, lag: c.lag ? { about: c.lag.about, at: c.lag.at } : null, failed: c.failed, dlq: c.dlq, consumedAgain: c.consumedAgain }));
}
