// The consumer groups of the scenario, from what the clients and brokers logged about them:
// - instances: each `the consumer [G] start OK` of a client log is one instance run (a host started
//   again is a new run; a 5.x gRPC SimpleConsumer's start prints no group, only its client id: the
//   broker's `new consumer connected, group: G ... clientId=` of that id names it); the broker's book ends a run: `unregister a consumer[G] from
//   consumerGroupInfo` (a shutdown) or `NETTY EVENT: remove channel` on its close (a kill;
//   ConsumerManager.doChannelCloseEvent, 4.9.x);
// - topic: the queues its rebalances took (RebalanceImpl.updateProcessQueueTableInRebalance);
//   subscriptions: the broker's `subscription changed` lines (ConsumerGroupInfo.updateSubscription):
//   the group's is the first it booked; an instance's is the one its heartbeat carried, the lines that
//   follow its `new consumer connected` on the same broker thread (registerConsumer logs the
//   connection, then the heartbeat's subscription changes);
// - consume mode: orderly when it locked queues (RebalanceImpl.lock, `pull message later because not
//   locked in broker`); lite pull when its start line is DefaultLitePullConsumerImpl's (`start OK`
//   without the push consumer's full stop);
// - settings: pullThresholdForQueue from the flow-control warning's threshold; consumeThreadMin from
//   the minutes its queues were held by flow control, two warnings in that minute or one in it and in
//   the next or the one before (all threads busy: the consume statistics' TIMES x AVGRT over the
//   minute is the number of threads, Little's law); maxReconsumeTimes from the highest reconsumeTimes
//   a failed message showed when no later delivery of it followed;
// - the listener: its time per message from the statistics of each minute (ConsumerStatsManager's
//   CONSUME_RT), a minute's mix of two levels split at the moment that gives its average; the share
//   of failed deliveries from CONSUME_FAILED_TPS against CONSUME_OK_TPS, the thrown share from the
//   `consumeMessage exception` lines.
// Whatever the logs do not give is the client's default (CONSUMER_DEFAULTS), listed as assumed.

import type { ScenarioClient, ScenarioConsumerGroup, ScenarioConsumerInstance, ScenarioTopic } from '../../model/index.js';
import { parseSubscription } from '../../model/subscription.js';
import { CONSUMER_DEFAULTS, LITE_PULL_CONSUMER_DEFAULTS, PROXY_DEFAULTS } from '../../rocketmq/facts.js';
import { MESSAGE_DELAY_LEVELS_MS } from '../../model/store.js';
import type { RmqEvent } from '../../parse/types.js';
import type { ConsumeFailure, ConsumeStatMinute } from '../collect.js';
import { fileRef, round2, type InferContext } from './context.js';
import type { HostsResult } from './hosts.js';
import { backlogGroup, blockedListenersOf } from '../../rules/consumer-backlog.js';

/** The client's group of the internal producer every consumer starts (MixAll.CLIENT_INNER_PRODUCER_GROUP). */
const INNER_PRODUCER = 'CLIENT_INNER_PRODUCER';
/** A stats minute whose level is within this factor of another is at that level. */
const LEVEL_FACTOR = 1.5;
/** A stats minute with fewer consumptions than this says nothing of the listener's time. */
const MIN_TIMES = 5;
/** Failures at the highest reconsumeTimes that make it maxReconsumeTimes when none failed past it. */
const FAILED_AT_TOP = 5;
/** A SimpleConsumer's invisible time, assumed: rocketmq-clients' SimpleConsumerExample (java, 5.0.x) receives with 15 s. */
const SIMPLE_INVISIBLE_MS = 15_000;
/** A removed channel is a killed instance when its client log says nothing this long after it. */
const KILL_SILENCE_MS = 10000;
/** A minute's time per message within this share of the level before, or failure shares within this much, is the same level. */
const SAME_TIME_SHARE = 0.15;
const SAME_SHARE = 0.05;

export type ConsumeMode = 'concurrently' | 'orderly' | 'litePull';

export interface ConsumersResult {
  groups: ScenarioConsumerGroup[];
  /** Per group, how it consumes (the model replays every mode as concurrently; a note says so). */
  modes: Map<string, ConsumeMode>;
}

/** Hosts whose client log shows only consumers (no producer start line of its own): they send nothing. */
export function consumerOnlyHosts(ctx: InferContext): Set<string> {
  const consumers = new Set<string>();
  const producers = new Set<string>();
  for (const e of ctx.events) {
    if (e.kind !== 'client' || e.type !== 'startup') continue;
    if (e.fields.role === 'consumer') consumers.add(e.host);
    else if (e.fields.role === 'producer' && typeof e.fields.group === 'string' && e.fields.group !== INNER_PRODUCER) producers.add(e.host);
  }
  return new Set(ctx.clientHosts.filter((h) => consumers.has(h) && !producers.has(h)));
}

interface Run {
  host: string;
  start: RmqEvent;
  ip: string | null;
  clientId: string | null;
  end: { ts: number; stop: 'shutdown' | 'kill'; event: RmqEvent; rule: string } | null;
  /** The broker's `new consumer connected` line of its client id. */
  conn: RmqEvent | null;
  subscription: { value: string; event: RmqEvent } | null;
}

export function inferConsumers(ctx: InferContext, hosts: HostsResult, topics: ScenarioTopic[], versionOf: (host: string, path: string) => string): ConsumersResult {
  const starts = [
    ...ctx.events.filter((e) => e.kind === 'client' && e.type === 'startup' && e.fields.role === 'consumer' && typeof e.fields.group === 'string' && e.ts !== null),
    ...simpleConsumerStarts(ctx),
  ];
  const names = [...new Set(starts.map((e) => e.fields.group as string))].sort();
  const groups: ScenarioConsumerGroup[] = [];
  const modes = new Map<string, ConsumeMode>();
  for (const name of names) {
    const p = `scenario.consumerGroups[${groups.length}]`;
    const g = inferGroup(ctx, hosts, topics, versionOf, name, starts.filter((e) => e.fields.group === name), p, modes);
    if (g) groups.push(g);
  }
  return { groups, modes };
}

/**
 * A 5.x gRPC SimpleConsumer's start line prints no group (rocketmq-client-java SimpleConsumerImpl:
 * `Begin to start the rocketmq simple consumer, clientId=C`): its group is the one the broker
 * connected that client id to (`new consumer connected, group: G ... clientId=C`). Each such start,
 * with that group as its field.
 */
function simpleConsumerStarts(ctx: InferContext): RmqEvent[] {
  const groupOf = new Map<string, string>();
  for (const e of ctx.events) {
    if (e.type === 'consumer-changed' && e.kind === 'broker' && e.fields.change === 'connected' && typeof e.fields.clientId === 'string' && typeof e.fields.group === 'string') groupOf.set(e.fields.clientId, e.fields.group);
  }
  const out: RmqEvent[] = [];
  for (const e of ctx.events) {
    if (e.kind !== 'client' || e.entry !== 'startup/grpc-simple-consumer' || e.ts === null || typeof e.fields.group === 'string') continue;
    const group = groupOf.get(/clientId=([^,\s]+)/.exec(e.text)?.[1] ?? '');
    if (group !== undefined) out.push({ ...e, fields: { ...e.fields, group } });
  }
  return out;
}

function inferGroup(
  ctx: InferContext,
  hosts: HostsResult,
  topics: ScenarioTopic[],
  versionOf: (host: string, path: string) => string,
  name: string,
  starts: RmqEvent[],
  p: string,
  modes: Map<string, ConsumeMode>,
): ScenarioConsumerGroup | null {
  const { prov, def } = ctx;
  const hostsOf = [...new Set(starts.map((e) => e.host))].sort();
  const mine = ctx.events.filter((e) => e.kind === 'client' && hostsOf.includes(e.host) && (e.fields.group === name || e.fields.group === undefined || e.fields.group === null));
  const book = ctx.events.filter((e) => e.type === 'consumer-changed' && e.fields.group === name);

  // The topic: the queues its rebalances took, else the broker's subscriptions, else the statistics' keys.
  const retry = `%RETRY%${name}`;
  const rebal = mine.find((e) => e.type === 'rebalance' && typeof e.fields.topic === 'string' && e.fields.topic !== retry && !String(e.fields.topic).startsWith('%'));
  const subTopic = book.find((e) => typeof e.fields.topic === 'string' && !String(e.fields.topic).startsWith('%'));
  const statRows = ctx.c.consumeStats.filter((m) => hostsOf.includes(m.host));
  const statRow = statRows.find((m) => m.key.endsWith(`@${name}`) && !m.key.startsWith('%'));
  const stat = statRow ? statLine(statRow, statRow.line) : undefined;
  const topic = (rebal?.fields.topic as string | undefined) ?? (subTopic?.fields.topic as string | undefined) ?? (statRow ? statRow.key.slice(0, statRow.key.lastIndexOf('@')) : undefined);
  if (topic === undefined) {
    ctx.notes.push(`consumer group ${name}: no queue, subscription or statistics names its topic; not replayed`);
    return null;
  }
  prov(`${p}.group`, 'the consumer start line', [starts[0]]);
  prov(`${p}.topic`, rebal ? 'the queues its rebalances took' : subTopic ? "the broker's subscription of the group" : 'the topic of its consume statistics', [rebal ?? subTopic ?? stat]);
  if (!topics.some((t) => t.name === topic)) {
    topics.push({ name: topic });
    def(`scenario.topics[${topics.length - 1}].queues`, '4 (no route of the topic in the logs)');
  }

  const runs = instanceRuns(ctx, hosts, starts, book, statRows);
  const blocked = blockedListenersOf(ctx.opts.findings ?? []).filter((b) => b.group === name && (b.from ?? b.finding.start) !== null);
  const version = versionOf(hostsOf[0], p);
  const instances: ScenarioConsumerInstance[] = runs.map((r, i) => {
    const ip = r.ip ?? hosts.hostIp.get(r.host)?.value;
    const inst: ScenarioConsumerInstance = { host: r.host, ...(ip ? { ip } : {}), startAtMs: Math.max(1, ctx.rel(ctx.when(r.start))) };
    prov(`${p}.instances[${i}].startAtMs`, 'its consumer start line', [r.start]);
    if (r.end) {
      inst.stopAtMs = Math.max(inst.startAtMs! + 1, ctx.rel(r.end.ts));
      inst.stop = r.end.stop;
      prov(`${p}.instances[${i}].stop`, r.end.rule, [r.end.event]);
    }
    const blocks = blocked.filter((b) => b.hosts.includes(r.host) && (b.from ?? b.finding.start ?? 0) >= r.start.ts! - 60000 && (!r.end || (b.from ?? 0) <= r.end.ts));
    if (blocks.length) {
      inst.blocks = blocks.map((b) => ({ atMs: Math.max(0, ctx.rel(b.from ?? b.finding.start!)), untilMs: ctx.rel(b.until ?? ctx.last) }));
      prov(`${p}.instances[${i}].blocks`, "consumer-backlog's blocked listener: from the last commit round that moved its offsets to the first that moved them again", blocks.flatMap((b) => b.finding.evidence.map((e) => ({ ...fileRef(e.file), line: e.line, ts: e.time }))));
    }
    return inst;
  });

  const subscription = inferSubscriptions(ctx, name, topic, book, runs, instances, p);

  // Mode.
  const locks = mine.filter((e) => e.type === 'lock-failed');
  // A gRPC push consumer's start line (`Create standard consume service`) is no lite pull consumer's.
  const lite = starts.find((e) => e.text !== '' && !e.entry?.startsWith('startup/grpc-') && !/start OK\.\s*$/.test(e.text));
  const mode: ConsumeMode = locks.length > 0 ? 'orderly' : lite ? 'litePull' : 'concurrently';
  modes.set(name, mode);
  if (mode === 'orderly') ctx.notes.push(`consumer group ${name}: consumed orderly (it locked its queues on the brokers: ${ctx.ref(locks[0])}); the model locks its queues but consumes their messages concurrently`);
  if (mode === 'litePull') ctx.notes.push(`consumer group ${name}: a lite pull consumer (DefaultLitePullConsumer's start line: ${ctx.ref(lite!)}); the model polls it on one application thread (assumed) that consumes each polled batch in turn, and commits its offsets at the first poll after each 5 s (autoCommit), not as each message is consumed`);
  // The message model: the broker's `new consumer connected, group: G CONSUME_PASSIVELY <model>` lines.
  const conns = book.filter((e) => e.fields.change === 'connected' && typeof e.fields.messageModel === 'string');
  const models = new Set(conns.map((e) => String(e.fields.messageModel)));
  const messageModel = models.size === 1 && models.has('BROADCASTING') ? 'BROADCASTING' : 'CLUSTERING';
  if (conns.length === 0) def(`${p}.messageModel`, 'CLUSTERING (DefaultMQPushConsumer default; no `new consumer connected` line of the group)');
  else prov(`${p}.messageModel`, "the message model of the broker's `new consumer connected` lines of the group", conns.slice(0, 3));
  if (models.size > 1) ctx.notes.push(`consumer group ${name}: its instances connected as ${[...models].sort().join(' and ')}; replayed as CLUSTERING`);
  if (messageModel === 'BROADCASTING' && mode === 'orderly') ctx.notes.push(`consumer group ${name}: an orderly BROADCASTING group is not modelled; replayed as concurrently`);
  const group: ScenarioConsumerGroup = { group: name, topic, version, subscription, messageModel, listener: { processMs: 0 }, instances };
  const grpcStart = starts.find((e) => e.entry?.startsWith('startup/grpc-'));
  const simpleStart = starts.find((e) => e.entry === 'startup/grpc-simple-consumer');
  if (simpleStart) {
    group.consumeMode = 'pop';
    prov(`${p}.consumeMode`, "a 5.x gRPC SimpleConsumer (rocketmq-client-java SimpleConsumerImpl: `Begin to start the rocketmq simple consumer`, its group the broker's `new consumer connected` of its client id): it receives by pop through a proxy, and a message it does not acknowledge comes back after the invisible time of its receive", [simpleStart]);
    // The invisible time is an argument of each receive() call: no log prints it.
    group.invisibleMs = SIMPLE_INVISIBLE_MS;
    def(`${p}.invisibleMs`, `${SIMPLE_INVISIBLE_MS} (assumed: a SimpleConsumer's invisible time is an argument of its receive calls, which no log prints; rocketmq-clients' SimpleConsumerExample asks 15 s)`);
    ctx.notes.push(simpleConsumersNote(name, `${SIMPLE_INVISIBLE_MS / 1000} s (assumed: no log prints it)`));
    if (messageModel === 'BROADCASTING') {
      group.messageModel = 'CLUSTERING';
      ctx.notes.push(`consumer group ${name}: a BROADCASTING pop group is not modelled; replayed as CLUSTERING`);
    }
  } else if (grpcStart) {
    group.consumeMode = 'pop';
    prov(`${p}.consumeMode`, "a 5.x gRPC client's push consumer (rocketmq-client-java PushConsumerImpl: `Create standard consume service`): it receives by pop through a proxy, its failed messages come back at the retry policy's backoff", [grpcStart]);
    ctx.notes.push(`consumer group ${name}: 5.x gRPC push consumers (pop through a proxy); the model pulls its queues, retries a failed message at the pop backoff (1 s, 5 s, 10 s, ...) and keeps no lag for it`);
    if (messageModel === 'BROADCASTING') {
      group.messageModel = 'CLUSTERING';
      ctx.notes.push(`consumer group ${name}: a BROADCASTING pop group is not modelled; replayed as CLUSTERING`);
    }
  } else if (mode === 'orderly' && messageModel === 'CLUSTERING') {
    group.consumeMode = 'orderly';
    prov(`${p}.consumeMode`, 'it locked its queues on the brokers (RebalanceImpl.lock: `the message queue lock`, `pull message later because not locked in broker`)', locks.slice(0, 3));
  } else if (mode === 'litePull' && messageModel === 'CLUSTERING') {
    group.consumeMode = 'litePull';
    prov(`${p}.consumeMode`, "DefaultLitePullConsumerImpl's start line (`start OK` without the push consumer's full stop): what it polls is committed at the first poll after each 5 s (autoCommit, DefaultLitePullConsumer.autoCommitIntervalMillis)", [lite!]);
  }
  const resets = offsetResets(ctx, mine, topic);
  if (resets.length > 0) {
    group.resets = resets.map((r) => ({ atMs: r.atMs, toMs: r.toMs }));
    prov(`${p}.resets`, '`invoke reset offset operation from broker ... timestamp=` in the instances\' logs (the broker\'s RESET_CONSUMER_CLIENT_OFFSET of mqadmin resetOffsetByTime), at the first instance that logged it', resets.map((r) => r.event));
  }
  // A minute over a blocked listener (consumer-backlog) measures neither the listener nor the threads:
  // it consumed nothing, or its CONSUME_RT holds the blocked calls' whole waits.
  const overBlock = (endTs: number) => blocked.some((b) => endTs > (b.from ?? b.finding.start!) && endTs - 60000 < (b.until ?? Infinity));
  const stats = consumeStats(statRows, name).filter((m) => !overBlock(m.endTs));
  // A lite pull consumer has no consume threads: the application polls and consumes (DefaultLitePullConsumer).
  const litePull = group.consumeMode === 'litePull';
  const threads = litePull ? 1 : inferThreads(ctx, hostsOf, statRows, name, p, overBlock);
  if (litePull) def(`${p}.pollThreads`, "1 an instance (assumed: the application's thread that polls and consumes, as RocketMQ's LitePullConsumerSubscribe example; DefaultLitePullConsumer has no consume threads and its poll is synchronized)");
  else {
    group.consumeThreadMin = threads;
    group.consumeThreadMax = Math.max(threads, CONSUMER_DEFAULTS.consumeThreadMax);
    def(`${p}.consumeThreadMax`, `${group.consumeThreadMax} (DefaultMQPushConsumer default, at least consumeThreadMin; the pool never grows past consumeThreadMin)`);
  }
  const flow = mine.find((e) => e.type === 'flow-control' && e.fields.limit === 'count' && typeof e.fields.threshold === 'number');
  if (flow) {
    group.pullThresholdForQueue = flow.fields.threshold as number;
    prov(`${p}.pullThresholdForQueue`, 'the threshold of its flow-control warning', [flow]);
  } else def(`${p}.pullThresholdForQueue`, `${CONSUMER_DEFAULTS.pullThresholdForQueue} (DefaultMQPushConsumer default; no flow-control warning)`);
  if (litePull) def(`${p}.pullBatchSize`, `${LITE_PULL_CONSUMER_DEFAULTS.pullBatchSize} (DefaultLitePullConsumer default)`);
  else def(`${p}.pullBatchSize`, `${CONSUMER_DEFAULTS.pullBatchSize} (DefaultMQPushConsumer default)`);
  def(`${p}.consumeConcurrentlyMaxSpan`, `${CONSUMER_DEFAULTS.consumeConcurrentlyMaxSpan} (DefaultMQPushConsumer default)`);
  const failures = failuresOf(ctx, hostsOf, name);
  group.maxReconsumeTimes = grpcRetryMaxTimes(ctx, mine, book, p) ?? inferMaxReconsume(ctx, failures, name, p);
  group.listener =
    (simpleStart && stats.length === 0 ? inferSimpleListener(ctx, name, topic, p, group, (group.maxReconsumeTimes ?? CONSUMER_DEFAULTS.maxReconsumeTimes) + 1) : null) ??
    (group.consumeMode === 'pop' && stats.length === 0 ? inferPopListener(ctx, failures, name, topic, p) : null) ??
    inferListener(ctx, failures, stats, p, threads * Math.max(1, new Set(runs.map((r) => r.host)).size));
  return group;
}

/**
 * The group's subscription of its topic, the first the broker booked (`subscription changed, add new
 * topic` or the OLD of the first change), and each instance's own where it differs: the subscription
 * lines that follow the instance's `new consumer connected` on the same broker thread, in the same
 * second and before another connection on that thread (ConsumerManager.registerConsumer logs the new
 * channel, then ConsumerGroupInfo.updateSubscription logs what the heartbeat changed). An instance
 * whose heartbeat changed nothing (an older version) shows none: it takes the group's, as a default.
 */
function inferSubscriptions(ctx: InferContext, name: string, topic: string, book: RmqEvent[], runs: Run[], instances: ScenarioConsumerInstance[], p: string): string {
  const subs = book.filter((e) => e.fields.topic === topic && typeof e.fields.subString === 'string');
  if (subs.length === 0) {
    ctx.def(`${p}.subscription`, '* (the logs print no subscription of the group)');
    return '*';
  }
  const first = subs[0];
  const groupSub = typeof first.fields.oldSubString === 'string' ? String(first.fields.oldSubString) : String(first.fields.subString);
  // The first it booked: `add new topic`'s, or the OLD of the first change the logs show.
  ctx.prov(`${p}.subscription`, "the broker's subscription of the group", subs.slice(0, 3));
  const order = (a: RmqEvent, b: RmqEvent) => (a.file === b.file ? a.line - b.line : 0);
  for (const r of runs) {
    const conn = r.conn;
    if (conn === null) continue;
    const after = book
      .filter((e) => e.file === conn.file && e.host === conn.host && e.thread === conn.thread && e.line > conn.line && e.ts !== null && e.ts - conn.ts! <= 1000)
      .sort(order);
    const cut = after.findIndex((e) => e.fields.change === 'connected');
    const mine = (cut < 0 ? after : after.slice(0, cut)).find((e) => e.fields.topic === topic && typeof e.fields.subString === 'string');
    if (mine !== undefined) r.subscription = { value: String(mine.fields.subString), event: mine };
  }
  const distinct = new Set<string>([groupSub]);
  runs.forEach((r, i) => {
    const path = `${p}.instances[${i}].subscription`;
    if (r.subscription === null) {
      if (groupSub.trim() !== '*') ctx.def(path, `'${groupSub}', the group's (no subscription line follows its connection on the broker)`);
      return;
    }
    distinct.add(r.subscription.value);
    if (r.subscription.value === groupSub) return;
    instances[i].subscription = r.subscription.value;
    ctx.prov(path, 'the subscription its heartbeat carried: the broker\'s `subscription changed` after its `new consumer connected`, same thread', [r.conn, r.subscription.event]);
  });
  if (distinct.size > 1) {
    ctx.notes.push(`consumer group ${name}: its instances subscribed ${[...distinct].map((x) => `'${x}'`).join(' and ')} to ${topic}; the broker books one subscription per group (the newest version's) and filters every instance's pulls by it: replayed with each instance's own`);
  }
  return groupSub;
}

/** Each start line is one run; its end is the broker's unregistration or removed channel of its client id, else a later start on its host. */
function instanceRuns(ctx: InferContext, hosts: HostsResult, starts: RmqEvent[], book: RmqEvent[], statRows: readonly ConsumeStatMinute[]): Run[] {
  const runs: Run[] = [];
  const sorted = [...starts].sort((a, b) => a.ts! - b.ts!);
  for (const [i, s] of sorted.entries()) {
    const ip = hosts.hostIp.get(s.host)?.value ?? null;
    const next = sorted.slice(i + 1).find((x) => x.host === s.host);
    // The broker books the client id `ip@pid...`: the connection of this host's address nearest after the start.
    const conn = book.find((e) => e.fields.change === 'connected' && ip !== null && String(e.fields.clientId ?? '').startsWith(`${ip}@`) && Math.abs(e.ts! - s.ts!) <= 5000);
    const clientId = conn ? String(conn.fields.clientId) : null;
    const run: Run = { host: s.host, start: s, ip, clientId, end: null, conn: conn ?? null, subscription: null };
    if (clientId) {
      // A channel the broker removed ends the run only when the instance's log ends with it (a killed
      // process); a live instance's channel is also removed when the broker itself hung or restarted.
      const inRun = (ts: number) => ts > s.ts! && (next === undefined || ts < next.ts!);
      const hostEvents = ctx.events.filter((e) => e.host === s.host && e.kind === 'client' && e.ts !== null && inRun(e.ts));
      // Its consume statistics are lines of its log too (collect.ts keeps their figures, not the lines).
      const hostStats = statRows.filter((m) => m.host === s.host && inRun(m.lastTs));
      const loggedAfter = (ts: number) => hostEvents.some((e) => e.ts! > ts + KILL_SILENCE_MS) || hostStats.some((m) => m.lastTs > ts + KILL_SILENCE_MS);
      const gone = book.find(
        (e) => e.fields.clientId === clientId && e.ts! > s.ts! && (e.fields.change === 'unregistered' || (e.fields.change === 'channel-removed' && !loggedAfter(e.ts!))),
      );
      if (gone) {
        const shutdown = gone.fields.change === 'unregistered';
        run.end = { ts: ctx.when(gone), stop: shutdown ? 'shutdown' : 'kill', event: gone, rule: shutdown ? "the broker's `unregister consumer` of its client id (a shutdown)" : "the broker removed its client id's channel on its close (killed)" };
      }
    }
    if (!run.end && next) run.end = { ts: next.ts! - 1000, stop: 'kill', event: next, rule: 'started again on its host (its end is not in the logs: taken as killed)' };
    runs.push(run);
  }
  return runs;
}

/**
 * The offset resets the instances logged (MQClientInstance.resetOffset's `invoke reset offset
 * operation from broker. brokerAddr=..., topic=T, group=G, timestamp=MS`): one per timestamp, at the
 * first instance's line less the broker's hop.
 */
function offsetResets(ctx: InferContext, mine: RmqEvent[], topic: string): Array<{ atMs: number; toMs: number; event: RmqEvent }> {
  const out = new Map<number, { atMs: number; toMs: number; event: RmqEvent }>();
  for (const e of mine) {
    if (e.type !== 'offset-reset' || e.fields.why !== 'reset' || e.ts === null || (e.fields.topic !== undefined && e.fields.topic !== null && e.fields.topic !== topic)) continue;
    const m = /timestamp=(\d+)/.exec(e.text);
    if (!m) continue;
    const to = Number(m[1]);
    if (!out.has(to)) out.set(to, { atMs: Math.max(0, ctx.rel(e.ts) - 1), toMs: Math.max(0, ctx.rel(to)), event: e });
  }
  return [...out.values()].sort((a, b) => a.atMs - b.atMs);
}

interface StatMinute {
  /** End of the minute (the line's time). */
  endTs: number;
  times: number;
  rtSum: number;
  ok: number;
  failed: number;
  events: RmqEvent[];
}

/** A consume statistics line, to cite (ctx.ref reads its file and line). */
function statLine(m: ConsumeStatMinute, line: number): RmqEvent {
  return { ts: m.at, host: m.host, kind: 'client', file: m.file, line, level: null, thread: null, logger: null, type: 'stats', fields: { key: m.key, window: 'minute' }, text: '', source: 0, seq: 0 };
}

/** The group's consume statistics per minute, summed over its topic and retry topic and its instances. */
function consumeStats(rows: readonly ConsumeStatMinute[], group: string): StatMinute[] {
  const byMinute = new Map<number, StatMinute & { lines: ConsumeStatMinute[] }>();
  for (const r of rows) {
    if (!r.key.endsWith(`@${group}`)) continue;
    const key = r.at / 60000;
    let m = byMinute.get(key);
    if (!m) byMinute.set(key, (m = { endTs: r.at, times: 0, rtSum: 0, ok: 0, failed: 0, events: [], lines: [] }));
    m.times += r.times;
    m.rtSum += r.rtSum;
    m.ok += r.ok;
    m.failed += r.failed;
    if (r.rtLine !== null) m.lines.push(r);
  }
  return [...byMinute.values()]
    .sort((a, b) => a.endTs - b.endTs)
    .map(({ lines, ...m }) => ({ ...m, events: lines.sort((a, b) => a.rtSeq - b.rtSeq).map((r) => statLine(r, r.rtLine!)) }));
}

/** consumeThreadMin: the busy threads of an instance over a minute its queues were held by flow control. */
function inferThreads(ctx: InferContext, hostsOf: readonly string[], statRows: readonly ConsumeStatMinute[], group: string, p: string, overBlock: (endTs: number) => boolean): number {
  // The group's warnings (or those that name no group) on its hosts, in the order of their first line.
  const held = ctx.c.flowWarnings.filter((f) => hostsOf.includes(f.host) && (f.group === group || f.group === null));
  let best: { threads: number; events: RmqEvent[] } | null = null;
  for (const host of new Set(held.map((f) => f.host))) {
    const warnings = held.filter((f) => f.host === host);
    const minutes = new Set(warnings.flatMap((f) => f.minutes));
    const repeated = new Set(warnings.flatMap((f) => f.repeated));
    for (const m of consumeStats(statRows.filter((r) => r.host === host), group)) {
      // Two warnings within the minute, or one in it and one in the minute before or after: its queues
      // stayed full, so every thread was busy. A client logs one warning per 1000 pauses
      // (DefaultMQPushConsumerImpl.pullMessage, queueFlowControlTimes), so a second one says the cache
      // stayed full; a lone one may be a pull batch (32) over a lower pullThresholdForQueue, gone in a
      // second (gen-20261230: 1.44 threads busy of the 4 it ran).
      const full = repeated.has(m.endTs) || (minutes.has(m.endTs) && (minutes.has(m.endTs - 60000) || minutes.has(m.endTs + 60000)));
      if (!full || m.times < MIN_TIMES || overBlock(m.endTs)) continue;
      const busy = m.rtSum / 60000;
      if (!best || busy > best.threads) best = { threads: busy, events: [...m.events, warnings[0].first] };
    }
  }
  if (best && Math.round(best.threads) >= 1) {
    const n = Math.round(best.threads);
    ctx.prov(`${p}.consumeThreadMin`, `the consume statistics of a minute its queues were held by flow control: TIMES x AVGRT over 60 s = ${round2(best.threads)} busy threads (Little's law)`, best.events);
    return n;
  }
  const saturated = threadsOfBacklog(ctx, statRows, group, overBlock);
  if (saturated) {
    ctx.prov(
      `${p}.consumeThreadMin`,
      `the group fell behind while its time per message stayed the same (consumer-backlog: cause the consume threads), and in its busiest minute then every instance's TIMES x AVGRT over 60 s was about a whole number of threads (${saturated.busy.map(round2).join(', ')}: all of them busy, Little's law)`,
      saturated.events,
    );
    return saturated.threads;
  }
  ctx.def(`${p}.consumeThreadMin`, `${CONSUMER_DEFAULTS.consumeThreadMin} (DefaultMQPushConsumer default; no minute shows its threads all busy)`);
  return CONSUMER_DEFAULTS.consumeThreadMin;
}

/** A minute's busy threads within this share below a whole number of them (and a little above), the pool all busy. */
const SATURATED_BELOW = 0.9;
const SATURATED_ABOVE = 1.03;

/**
 * consumeThreadMin where consumer-backlog named the consume threads as the cause (the group fell
 * behind at an unchanged CONSUME_RT): each instance's busiest minute of that backlog shows its busy
 * threads (Little's law). Taken only when every instance's is about the same whole number: a pool
 * with threads to spare would have consumed faster, and a figure between two whole numbers says
 * the threads were not all busy all the minute (no figure then).
 */
function threadsOfBacklog(ctx: InferContext, statRows: readonly ConsumeStatMinute[], group: string, overBlock: (endTs: number) => boolean): { threads: number; busy: number[]; events: RmqEvent[] } | null {
  const windows = (ctx.opts.findings ?? []).filter((f) => backlogGroup(f) === group && f.metrics.cause === 'consume-threads' && f.start !== null);
  if (!windows.length) return null;
  const within = (endTs: number) => windows.some((f) => endTs > f.start! && endTs - 60000 <= (f.end ?? Infinity));
  const counts = new Set<number>();
  const busy: number[] = [];
  const events: RmqEvent[] = [];
  for (const host of [...new Set(statRows.map((r) => r.host))].sort()) {
    const minutes = consumeStats(statRows.filter((r) => r.host === host), group).filter((m) => m.times >= MIN_TIMES && within(m.endTs) && !overBlock(m.endTs));
    if (!minutes.length) continue;
    const top = minutes.reduce((a, b) => (b.rtSum > a.rtSum ? b : a));
    const b = top.rtSum / 60000;
    const n = Math.round(b);
    if (n < 1 || b < SATURATED_BELOW * n || b > SATURATED_ABOVE * n) return null;
    counts.add(n);
    busy.push(b);
    events.push(...top.events.slice(0, 1));
  }
  if (counts.size !== 1) return null;
  return { threads: [...counts][0], busy, events };
}

/** A group's failed deliveries on its hosts, in time order, and the lines kept of them to cite. */
interface Failures {
  rows: ConsumeFailure[];
  lines: RmqEvent[];
}

function failuresOf(ctx: InferContext, hostsOf: readonly string[], group: string): Failures {
  const ours = (g: unknown) => g === group || g === null || g === undefined;
  const rows = hostsOf.flatMap((h) => (ctx.c.consumeFailures.get(h) ?? []).filter((f) => ours(f.group))).sort((a, b) => a.ts - b.ts);
  const lines = ctx.c.consumeFailureLines.filter((e) => hostsOf.includes(e.host) && ours(e.fields.group));
  return { rows, lines };
}

/**
 * A 5.x gRPC consumer group's retries: the proxy gives its clients the group's retryMaxTimes + 1
 * attempts (GrpcClientSettingsManager, 5.x), and the broker prints the group's config when it is
 * created or updated (SubscriptionGroupManager: `create new subscription group, SubscriptionGroupConfig{
 * ..., retryMaxTimes=N, ...}`). Null for a remoting group (its client's own maxReconsumeTimes wins) or
 * when no such line is in the logs.
 */
function grpcRetryMaxTimes(ctx: InferContext, mine: readonly RmqEvent[], book: readonly RmqEvent[], p: string): number | null {
  if (!mine.some((e) => e.entry?.startsWith('startup/grpc-') || e.entry?.startsWith('consume-failed/grpc-'))) return null;
  const last = book.filter((e) => e.fields.change === 'group-config' && typeof e.fields.retryMaxTimes === 'number').at(-1);
  if (!last) return null;
  const n = last.fields.retryMaxTimes as number;
  ctx.prov(`${p}.maxReconsumeTimes`, `the group's retryMaxTimes in the broker's config of it (a gRPC consumer's retries: the proxy gives it retryMaxTimes + 1 attempts)`, [last]);
  return n;
}

/**
 * maxReconsumeTimes: the broker sends a message that failed at reconsumeTimes >= maxReconsumeTimes to
 * the DLQ (SendMessageProcessor.consumerSendMsgBack). When the highest reconsumeTimes seen failed
 * several times and none of those came back though the logs go on past the next delay level, that
 * is maxReconsumeTimes.
 */
function inferMaxReconsume(ctx: InferContext, failures: Failures, group: string, p: string): number {
  const failed = failures.rows.filter((f) => f.reconsumeTimes !== null);
  if (failed.length > 0) {
    const top = failed.reduce((m, f) => Math.max(m, f.reconsumeTimes!), -Infinity);
    const atTop = failed.filter((f) => f.reconsumeTimes === top);
    // A message that failed at reconsumeTimes `top` comes back after delay level 3 + top.
    const level = Math.min(3 + top, MESSAGE_DELAY_LEVELS_MS.length);
    const nextDelay = MESSAGE_DELAY_LEVELS_MS[level - 1];
    const firstTop = atTop[0].ts;
    // The listener still failed when the first of them came back: else its retry succeeding tells
    // nothing of the limit (gen-20261219: failures for 60 s, the first at reconsumeTimes 2 due back
    // 60 s after it, when the listener had stopped failing; the group ran maxReconsumeTimes 3).
    // Or the group's DLQ took messages: one failed at maxReconsumeTimes or more, and none failed
    // above `top`, so the limit is `top` (consumer-failures-dlq: at least 58 in %DLQ%, the last
    // failures at 2 before their retry was due).
    const stillFailing = failed.some((f) => f.ts >= firstTop + nextDelay);
    const dlq = (ctx.opts.consumers ?? []).find((c) => c.group === group)?.dlq ?? 0;
    if (top < CONSUMER_DEFAULTS.maxReconsumeTimes && atTop.length >= FAILED_AT_TOP && (stillFailing || dlq > 0) && firstTop + nextDelay + 10000 < ctx.last) {
      const cited = failures.lines.filter((e) => e.fields.reconsumeTimes === top).slice(0, 3);
      const why = stillFailing ? `though the listener still failed deliveries after the retry's delay (${nextDelay / 1000} s)` : `and the group's DLQ took ${dlq} or more (a message failed at maxReconsumeTimes goes there)`;
      ctx.prov(`${p}.maxReconsumeTimes`, `the highest reconsumeTimes of a failed delivery (${top}, ${atTop.length} failures): none failed at ${top + 1} ${why}`, cited);
      return top;
    }
  }
  ctx.def(`${p}.maxReconsumeTimes`, `${CONSUMER_DEFAULTS.maxReconsumeTimes} (DefaultMQPushConsumer default: -1 means 16)`);
  return CONSUMER_DEFAULTS.maxReconsumeTimes;
}

interface Level {
  atTs: number;
  processMs: number;
  failShare: number;
  throwShare: number;
}

/** The listener's time per message and share of failures, minute by minute, a mixed minute split where its average says. */
/**
 * A gRPC (pop) group's listener, whose client prints no consume statistics: per broker stats minute,
 * the failed share is the group's retry topic's puts (the pop revive puts every failed delivery
 * there: %RETRY%group_topic, or group+topic) against the deliveries (the topic's puts and those
 * retries: a pop consumer takes what is put at once), the thrown share the client's exception lines
 * of the minute; from the first failure logged to the last. The time per message is not in the logs.
 */
function inferPopListener(ctx: InferContext, failed: Failures, name: string, topic: string, p: string): ScenarioConsumerGroup['listener'] | null {
  const names = [`%RETRY%${name}_${topic}`, `%RETRY%${name}+${topic}`];
  const retry = ctx.c.topicPuts.filter((x) => names.includes(x.topic));
  if (retry.length === 0 || failed.rows.length === 0) return null;
  const fresh = ctx.c.topicPuts.filter((x) => x.topic === topic);
  const sumAt = (xs: typeof retry, ts: number) => xs.reduce((n, x) => n + (x.ts === ts ? x.sum : 0), 0);
  const first = failed.rows[0].ts;
  const last = failed.rows[failed.rows.length - 1].ts;
  ctx.def(`${p}.listener.processMs`, '20 (a gRPC client prints no consume statistics)');
  const listener: ScenarioConsumerGroup['listener'] = { processMs: 20, laterShare: 0, throwShare: 0, changes: [] };
  let prev = { laterShare: 0, throwShare: 0 };
  for (const end of [...new Set(retry.map((x) => x.ts))].sort((a, b) => a - b)) {
    if (end <= first || end - 60000 > last) continue;
    const r = sumAt(retry, end);
    const deliveries = r + sumAt(fresh, end);
    if (deliveries === 0) continue;
    const thrown = failed.rows.filter((f) => f.thrown && f.ts > end - 60000 && f.ts <= end).length;
    const from = Math.max(end - 60000, first);
    // Failures that began within the minute: their share is of the deliveries since the first one.
    const part = Math.max(0.1, (end - from) / 60000);
    const failShare = Math.min(1, r / deliveries / part);
    const next = { laterShare: round2(Math.max(0, failShare - Math.min(failShare, thrown / deliveries / part))), throwShare: round2(Math.min(failShare, thrown / deliveries / part)) };
    if (Math.abs(next.laterShare - prev.laterShare) + Math.abs(next.throwShare - prev.throwShare) <= SAME_SHARE) continue;
    listener.changes!.push({ atMs: Math.max(0, ctx.rel(from)), ...next });
    prev = next;
  }
  if (prev.laterShare + prev.throwShare > 0) listener.changes!.push({ atMs: ctx.rel(last + 1), laterShare: 0, throwShare: 0 });
  if (listener.changes!.length === 0) return null;
  ctx.prov(`${p}.listener.laterShare`, `the puts of ${names[0]} (the pop revive's, one per failed delivery) against the deliveries of each minute (the topic's puts and those), the thrown share from the gRPC client's exception lines`, [...retry.slice(0, 2).map((x) => x.event), ...failed.lines.slice(0, 2)]);
  return listener;
}

/**
 * A SimpleConsumer group's listener, from the broker alone (its client logs no failure). Each run of
 * stats minutes with puts of its pop retry topic is one level of failures. The pop revive puts back
 * every delivery not acknowledged within its invisible time (R puts); the proxy forwards to the DLQ
 * a message received past its attempts (D: SNDBCK_PUT_NUMS of `%RETRY%G_T@G`). With A attempts
 * (maxReconsumeTimes + 1) and a share p failing, F fresh deliveries give R = F (p + ... + p^A) and
 * D = F p^A: p is the root of R/D = (p + ... + p^A) / p^A, and the failing span holds F of the
 * topic's puts, from the first of those minutes. Without a DLQ forward, p is R against the
 * deliveries of the minutes (the topic's puts, and those), up to the last less the invisible time.
 * Which failures threw is not in the logs: every one is a later (FAILURE) answer.
 */
function inferSimpleListener(ctx: InferContext, name: string, topic: string, p: string, group: ScenarioConsumerGroup, attempts: number): ScenarioConsumerGroup['listener'] | null {
  const invisibleMs = group.invisibleMs ?? SIMPLE_INVISIBLE_MS;
  const names = [`%RETRY%${name}_${topic}`, `%RETRY%${name}+${topic}`];
  const retry = ctx.c.topicPuts.filter((x) => names.includes(x.topic)).sort((a, b) => a.ts - b.ts);
  if (retry.length === 0) return null;
  const fresh = ctx.c.topicPuts.filter((x) => x.topic === topic);
  const dlq = ctx.c.popDlqPuts.filter((x) => names.some((n) => x.key === `${n}@${name}`));
  ctx.def(`${p}.listener.processMs`, '20 (a gRPC client prints no consume statistics)');
  ctx.def(`${p}.listener.throwShare`, "0: a SimpleConsumer's failures are messages it did not acknowledge, whether its code threw or not (no log tells them apart): all are laterShare");
  const listener: ScenarioConsumerGroup['listener'] = { processMs: 20, laterShare: 0, throwShare: 0, changes: [] };
  const ends = [...new Set(retry.map((x) => x.ts))];
  let run: number[] = [];
  const close = () => {
    if (!run.length) return;
    const from = run[0] - 60000;
    const last = run[run.length - 1];
    const inRun = (ts: number) => ts >= run[0] && ts <= last + 60000;
    const r = retry.filter((x) => run.includes(x.ts)).reduce((n, x) => n + x.sum, 0);
    const f = fresh.filter((x) => run.includes(x.ts)).reduce((n, x) => n + x.sum, 0);
    const d = dlq.filter((x) => inRun(x.ts)).reduce((n, x) => n + x.sum, 0);
    run = [];
    const rate = f / ((last - from) / 1000);
    let share: number;
    let to: number;
    const fit = d > 0 && d < r && rate > 0 ? (fitSimpleFailures(r, d, rate, attempts, invisibleMs) ?? fitAtProxyMinimum(r, d, rate, attempts, invisibleMs)) : null;
    if (fit !== null) {
      share = fit.share;
      to = from + Math.min(last - from, fit.spanS * 1000);
      if (fit.invisibleMs !== invisibleMs) {
        group.invisibleMs = fit.invisibleMs;
        const note = ctx.notes.indexOf(simpleConsumersNote(name, `${invisibleMs / 1000} s (assumed: no log prints it)`));
        if (note >= 0) ctx.notes[note] = simpleConsumersNote(name, `${fit.invisibleMs / 1000} s (the proxy's minimum: the broker's counts rule out the assumed ${invisibleMs / 1000} s)`);
        delete ctx.defaults[`${p}.invisibleMs`];
        ctx.prov(
          `${p}.invisibleMs`,
          `no log prints it, and the broker's counts rule out ${invisibleMs / 1000} s (with it no failing share gives ${r} retry puts for ${d} DLQ forwards over ${attempts} attempts: the last attempts of the messages that failed in the span's last ${((attempts - 1) * invisibleMs) / 1000} s fall after it): the proxy's minInvisibleTimeMillsForRecv, the shortest a receive may ask (ProxyConfig, 5.x)`,
          [...retry.slice(0, 2).map((x) => x.event), ...dlq.slice(0, 1).map((x) => x.event)],
        );
      }
    } else if (d > 0 && d < r && rate > 0) {
      // R/D = sum of p^k (k = 1..A) / p^A, which falls as p grows: bisect.
      const ratio = (x: number) => Array.from({ length: attempts }, (_, k) => x ** (k + 1)).reduce((a, b) => a + b, 0) / x ** attempts;
      let lo = 0.001;
      let hi = 1;
      for (let i = 0; i < 60; i++) {
        const mid = (lo + hi) / 2;
        if (ratio(mid) > r / d) lo = mid;
        else hi = mid;
      }
      share = (lo + hi) / 2;
      to = from + Math.min(last - from, ((d / share ** attempts) / rate) * 1000);
    } else {
      to = Math.max(from + 1000, last - invisibleMs);
      const deliveries = (f * (to - from)) / (last - from) + r;
      if (deliveries <= 0) return;
      share = r / deliveries;
    }
    listener.changes!.push({ atMs: Math.max(0, ctx.rel(from)), laterShare: round2(Math.min(1, share)), throwShare: 0 }, { atMs: ctx.rel(to), laterShare: 0, throwShare: 0 });
  };
  for (const end of ends) {
    if (run.length && end - run[run.length - 1] > 90_000) close();
    run.push(end);
  }
  close();
  if (listener.changes!.length === 0) return null;
  ctx.prov(
    `${p}.listener.laterShare`,
    `the puts of ${names[0]} (the pop revive's, one per delivery not acknowledged within its invisible time) and the proxy's DLQ forwards (SNDBCK_PUT_NUMS [${names[0]}@${name}]) with ${attempts} attempts, from the first minute with such puts`,
    [...retry.slice(0, 2).map((x) => x.event), ...dlq.slice(0, 1).map((x) => x.event)],
  );
  return listener;
}

function simpleConsumersNote(name: string, invisible: string): string {
  return `consumer group ${name}: 5.x gRPC SimpleConsumers (pop through a proxy); the model pulls its queues, puts a failed message back after an invisible time of ${invisible} and keeps no lag for it`;
}

/**
 * A failing span of S seconds over fresh deliveries at `rate` per second, each failing with share p,
 * retried after the invisible time v, A attempts: a message first delivered at t (0 <= t < S) fails
 * its k-th attempt only while t + (k - 1) v < S (after the span its attempts succeed). So
 * R = rate × sum over k of p^k (S - (k - 1) v) retry puts and D = rate × p^A (S - (A - 1) v) DLQ
 * forwards. For a share p, D gives S; the share is the root of R(p) = R on the side of the small
 * shares (R(p) falls from infinity as p grows; with v > 0 it may rise again near 1): the one that
 * becomes the R/D formula's as v goes to 0. Null when no share gives R.
 */
function fitSimpleFailures(r: number, d: number, rate: number, attempts: number, invisibleMs: number): { share: number; spanS: number; invisibleMs: number } | null {
  const v = invisibleMs / 1000;
  const span = (x: number) => d / (rate * x ** attempts) + (attempts - 1) * v;
  const puts = (x: number) => {
    const sp = span(x);
    let n = 0;
    for (let k = 1; k <= attempts; k++) n += x ** k * Math.max(0, sp - (k - 1) * v);
    return rate * n;
  };
  // The falling side: from a small share up to the one that gives the fewest puts.
  let low = 0.001;
  let fewest = low;
  for (let x = low; x <= 1; x += 0.001) if (puts(x) < puts(fewest)) fewest = x;
  if (puts(fewest) > r) return null;
  let hi = fewest;
  for (let i = 0; i < 60; i++) {
    const mid = (low + hi) / 2;
    if (puts(mid) > r) low = mid;
    else hi = mid;
  }
  const share = (low + hi) / 2;
  return { share, spanS: span(share), invisibleMs };
}

/** fitSimpleFailures at the proxy's minInvisibleTimeMillsForRecv, when the assumed invisible time (longer) gives no share. */
function fitAtProxyMinimum(r: number, d: number, rate: number, attempts: number, invisibleMs: number): { share: number; spanS: number; invisibleMs: number } | null {
  const min = PROXY_DEFAULTS.minInvisibleTimeMillsForRecv;
  return invisibleMs > min ? fitSimpleFailures(r, d, rate, attempts, min) : null;
}

function inferListener(ctx: InferContext, failed: Failures, stats: StatMinute[], p: string, threads: number): ScenarioConsumerGroup['listener'] {
  const usable = stats.filter((m) => m.times >= MIN_TIMES);
  if (usable.length === 0) {
    ctx.def(`${p}.listener.processMs`, '20 (no consume statistics in the logs)');
    return { processMs: 20 };
  }
  const exceptions = failed.rows.filter((f) => f.thrown);
  const failures = failed.rows;
  const rt = (m: StatMinute) => m.rtSum / m.times;
  const base = Math.min(...usable.map(rt));
  const levels: Level[] = usable.map((m, i) => {
    const deliveries = m.ok + m.failed;
    const thrown = exceptions.filter((e) => e.ts > m.endTs - 60000 && e.ts <= m.endTs).length;
    let failShare = deliveries > 0 ? m.failed / deliveries : 0;
    let throwShare = deliveries > 0 ? Math.min(failShare, thrown / deliveries) : 0;
    let atTs = m.endTs - 60000;
    // Failures that began within the minute: their share is of the deliveries since the first one.
    const inMin = failures.filter((e) => e.ts > m.endTs - 60000 && e.ts <= m.endTs);
    const prevFailed = i > 0 && usable[i - 1].failed > 0;
    if (m.failed > 0 && !prevFailed && inMin.length > 0) {
      const from = inMin[0].ts;
      const part = Math.max(0.1, (m.endTs - from) / 60000);
      failShare = Math.min(1, failShare / part);
      throwShare = Math.min(failShare, throwShare / part);
      atTs = from;
    }
    return { atTs, processMs: rt(m), failShare, throwShare };
  });
  // A minute between two levels mixes them: split it where its average falls.
  const top = Math.max(...levels.map((l) => l.processMs));
  const changes: Level[] = [];
  levels.forEach((l, i) => {
    const m = usable[i];
    const mixed = top > base * 3 && l.processMs > base * LEVEL_FACTOR && l.processMs < top / LEVEL_FACTOR;
    if (!mixed) return changes.push(l);
    const slowCount = (m.times * (l.processMs - base)) / (top - base);
    const slowSpan = (slowCount * top) / Math.max(1, threads);
    const rising = i + 1 < levels.length && levels[i + 1].processMs >= top / LEVEL_FACTOR;
    const start = m.endTs - 60000;
    if (rising) {
      changes.push({ ...l, atTs: start, processMs: base });
      changes.push({ ...l, atTs: Math.max(start, m.endTs - slowSpan), processMs: top });
    } else {
      changes.push({ ...l, atTs: start, processMs: top });
      changes.push({ ...l, atTs: Math.min(m.endTs, start + slowSpan), processMs: base });
    }
  });
  // The minute after the last failure: they ended with the last failure logged.
  const lastFailure = failures.length ? failures[failures.length - 1].ts : null;
  // From the start, the first minute's time per message and no failure; each minute's values from its start (or first failure) on.
  const listener: ScenarioConsumerGroup['listener'] = { processMs: Math.round(changes[0].processMs), laterShare: 0, throwShare: 0, changes: [] };
  let prev = { processMs: listener.processMs, laterShare: 0, throwShare: 0 };
  for (const c of changes) {
    const next = { processMs: Math.round(c.processMs), laterShare: round2(c.failShare - c.throwShare), throwShare: round2(c.throwShare) };
    // A minute within the statistics' noise of the one before changes nothing.
    const sameTime = Math.abs(next.processMs - prev.processMs) <= SAME_TIME_SHARE * prev.processMs;
    const sameShares = Math.abs(next.laterShare - prev.laterShare) + Math.abs(next.throwShare - prev.throwShare) <= SAME_SHARE;
    if (sameTime && sameShares) continue;
    listener.changes!.push({ atMs: Math.max(0, ctx.rel(c.atTs)), ...(sameTime ? {} : { processMs: next.processMs }), ...(sameShares ? {} : { laterShare: next.laterShare, throwShare: next.throwShare }) });
    prev = { processMs: sameTime ? prev.processMs : next.processMs, ...(sameShares ? { laterShare: prev.laterShare, throwShare: prev.throwShare } : { laterShare: next.laterShare, throwShare: next.throwShare }) };
  }
  if (lastFailure !== null && prev.laterShare + prev.throwShare > 0) {
    listener.changes!.push({ atMs: ctx.rel(lastFailure + 1), laterShare: 0, throwShare: 0 });
  }
  const cited = usable.flatMap((m) => m.events).slice(0, 6);
  ctx.prov(`${p}.listener.processMs`, `CONSUME_RT of each minute (TIMES, AVGRT), a minute between two levels split where its average falls, with ${threads} threads in all`, cited);
  if (failures.length > 0 || usable.some((m) => m.failed > 0)) ctx.prov(`${p}.listener.laterShare`, 'CONSUME_FAILED_TPS against CONSUME_OK_TPS of each minute (from the first failure logged), the thrown share from the `consumeMessage exception` lines', failed.lines.slice(0, 3));
  else ctx.def(`${p}.listener.laterShare`, '0 (no failed consumption in the statistics)');
  if (listener.changes!.length === 0) delete listener.changes;
  return listener;
}

/**
 * The tags producers send are in no log line (the client logs no message's tags): for a topic some
 * group subscribes with tags, its producers without tags are given the tags its groups' subscriptions
 * name, in turn and in equal shares, as an assumption said in the defaults and a note.
 */
export function assumeProducerTags(ctx: InferContext, clients: ScenarioClient[], groups: readonly ScenarioConsumerGroup[]): void {
  const byTopic = new Map<string, { tags: string[]; groups: string[] }>();
  for (const g of groups) {
    const exprs = [g.subscription, ...g.instances.map((x) => x.subscription)].filter((x): x is string => x !== undefined);
    const named = exprs.flatMap((x) => [...parseSubscription(x).tags]);
    if (named.length === 0) continue;
    let t = byTopic.get(g.topic);
    if (t === undefined) byTopic.set(g.topic, (t = { tags: [], groups: [] }));
    for (const tag of named) if (!t.tags.includes(tag)) t.tags.push(tag);
    t.groups.push(g.group);
  }
  clients.forEach((c, i) => {
    const t = byTopic.get(c.topic);
    if (t === undefined || c.tags !== undefined) return;
    c.tags = t.tags.map((tag) => ({ tag }));
    const list = t.tags.join(', ');
    ctx.def(`scenario.clients[${i}].tags`, `${list} in turn, equal shares (assumed: no log line shows the tags of its messages; these are the tags the subscriptions of ${t.groups.join(', ')} name)`);
    ctx.notes.push(`${c.host}: the tags of its messages are not in the logs; assumed ${list} in turn (the tags ${t.groups.join(', ')} subscribe to), so what a subscription skips is simulated, not observed`);
  });
}
