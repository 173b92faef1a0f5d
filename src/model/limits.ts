// The size of a scenario the model runs in bounded time and memory. The scenario file's check
// (src/replay/file.ts) rejects a value past them, and the inference (src/diagnosis) keeps within them
// what it reads for a run (a client's logged send times). Each value within its limit is not enough:
// a run's cost is the product of several (1 ms polls over six hours, a thousand brokers each printing
// its watermark every second; a group's messages each delivered 17 times), so the scheduled tasks a
// run would make are estimated and bounded too.

import { registerPeriodMs } from './broker.js';
import { CLIENT_PERIODS } from './client.js';
import { DEFAULT_SERVER_VERSION, type Scenario } from './scenario.js';
import { clientProfile, serverProfile } from './versions.js';
import { CONSUMER_DEFAULTS, REFRESH_METADATA } from '../rocketmq/facts.js';
import { factHolds } from '../rocketmq/versions.js';

/**
 * What the model runs in bounded time and memory (docs/replay.md, "Limits"). A value past these is a
 * mistake or damage (a send rate of 1e308, a fault a century away), rejected with the field's name.
 */
export const LIMITS = {
  nameServers: 64,
  brokers: 1000,
  topics: 10000,
  clients: 10000,
  faults: 10000,
  /** Push consumer groups; their instances count against `clients`. */
  consumerGroups: 1000,
  /** A group's maxReconsumeTimes (each retry is a delivery: the deliveries of a run are bounded by it). */
  maxReconsumeTimes: 100,
  /** Sends per second of one client, and of the producers outside the scenario in an overload. */
  sendRatePerSec: 10000,
  /** The application threads of one client that call send (the model keeps which of them is busy). */
  sendThreads: 10_000,
  /** Logged send times of one client. */
  sendTimes: 1_000_000,
  /** Changes of one client's send rate (a week of minutes). */
  rateSteps: 10_080,
  /** Sends of one run in all (rates over the run's length, and the logged send times). */
  sendsPerRun: 5_000_000,
  queues: 1024,
  /** Queues of all topics on all their brokers (a topic's queues times its brokers, summed). */
  topicQueues: 1_000_000,
  /**
   * Runs of the processes' periodic tasks in one run (see runTasks). Each logs and sends, about 50
   * microseconds of the model's time: two million is under two minutes and under 1 GB.
   */
  tasksPerRun: 2_000_000,
  /** Characters of a name (host, broker, topic, group, milestone subject) and of a text (notes, source). */
  nameChars: 1024,
  textChars: 65536,
  /** Notes of a scenario file; observed milestones and busy windows. */
  notes: 1000,
  milestones: 100_000,
  threads: 1024,
  queueCapacity: 10_000_000,
  retryTimesWhenSendFailed: 100,
  /** Timeouts, periods and service times (settings), ms. */
  settingMs: 86_400_000,
  /** Times and lengths in model time (atMs, startAtMs, durations), ms: ten years. */
  modelMs: 315_360_000_000,
  /** The run's start: epoch ms up to 2100-01-01 (a later year is a damaged line). */
  epochMs: 4_102_444_800_000,
} as const;

/** Queues of all topics on all their brokers, and the topic holding the most. */
export function topicQueues(sc: Scenario): { total: number; top: number } {
  let total = 0;
  let top = -1;
  let topN = -1;
  sc.topics.forEach((t, i) => {
    const n = (t.queues ?? 4) * (t.brokers?.length ?? sc.brokers.length);
    total += n;
    if (n > topN) [top, topN] = [i, n];
  });
  return { total, top };
}

export interface RunTasks {
  total: number;
  /** The field whose tasks are the most: an interval (raise it) or a list (shorten it). */
  field: string;
  kind: 'interval' | 'count';
}

/**
 * The runs of periodic tasks a run of `untilMs` would make: per client, its route polls, its heartbeats
 * to each broker of its topic and (5.0.0-5.2.0) its NameServer scans; per broker, its registrations
 * with each NameServer (a registration carries every topic config: eight count as one task) and its
 * watermark print every second; per NameServer, its scans for inactive brokers. A client also costs
 * about 200 tasks to start and one a second while it runs (its sends, connections and logs: 1,000
 * clients over ten minutes run about as long as 850,000 tasks). A task whose interval the scenario sets
 * counts against that field; one at its default, against the list (clients, brokers).
 */
export function runTasks(sc: Scenario, untilMs: number): RunTasks {
  const by = new Map<string, { n: number; kind: RunTasks['kind'] }>();
  const add = (field: string, kind: RunTasks['kind'], n: number) => {
    const e = by.get(field) ?? by.set(field, { n: 0, kind }).get(field)!;
    e.n += n;
  };
  const runs = (periodMs: number) => untilMs / Math.max(1, periodMs);
  const topicsOn = new Map<string, number>();
  const brokersOf = new Map<string, number>();
  for (const t of sc.topics) {
    const on = t.brokers ?? sc.brokers.map((b) => b.name);
    brokersOf.set(t.name, on.length);
    for (const b of on) topicsOn.set(b, (topicsOn.get(b) ?? 0) + 1);
  }
  sc.clients.forEach((c, i) => {
    add('scenario.clients', 'count', 200 + untilMs / 1000);
    const st = c.settings ?? {};
    const p = `scenario.clients[${i}].settings`;
    const at = (key: keyof typeof CLIENT_PERIODS) => (st[key] !== undefined ? { field: `${p}.${key}`, kind: 'interval' as const } : { field: 'scenario.clients', kind: 'count' as const });
    const poll = at('pollNameServerIntervalMs');
    add(poll.field, poll.kind, runs(st.pollNameServerIntervalMs ?? CLIENT_PERIODS.pollNameServerIntervalMs));
    const hb = at('heartbeatBrokerIntervalMs');
    add(hb.field, hb.kind, runs(st.heartbeatBrokerIntervalMs ?? CLIENT_PERIODS.heartbeatBrokerIntervalMs) * (brokersOf.get(c.topic) ?? sc.brokers.length));
    if (clientProfile(c.version).scanAvailableNameSrv) {
      const scan = at('connectTimeoutMs');
      add(scan.field, scan.kind, runs(st.connectTimeoutMs ?? CLIENT_PERIODS.connectTimeoutMs) * (c.namesrvAddrList?.length ?? sc.nameServers.length));
    }
  });
  sc.brokers.forEach((b, i) => {
    const reg = runs(registerPeriodMs(b.registerNameServerPeriodMs)) * (b.namesrvAddrs?.length ?? sc.nameServers.length) * (1 + (topicsOn.get(b.name) ?? 0) / 8);
    add(b.registerNameServerPeriodMs !== undefined ? `scenario.brokers[${i}].registerNameServerPeriodMs` : 'scenario.brokers', b.registerNameServerPeriodMs !== undefined ? 'interval' : 'count', reg);
    add('scenario.brokers', 'count', runs(1000));
    // 5.x: the metadata refresh every 5 s (BrokerOuterAPI.refreshMetadata).
    if (factHolds(REFRESH_METADATA, serverProfile(b.version ?? sc.serverVersion ?? DEFAULT_SERVER_VERSION).v)) add('scenario.brokers', 'count', runs(REFRESH_METADATA.periodMs));
  });
  sc.nameServers.forEach((n, i) => {
    // The shorter of the versions' defaults (5 s on 5.x, 10 s on 4.x): an estimate errs on the side of cost.
    const ms = n.scanNotActiveBrokerIntervalMs;
    add(ms !== undefined ? `scenario.nameServers[${i}].scanNotActiveBrokerIntervalMs` : 'scenario.nameServers', ms !== undefined ? 'interval' : 'count', runs(ms ?? 5000));
  });
  (sc.consumerGroups ?? []).forEach((g) => add('scenario.consumerGroups', 'count', consumerTasks(sc, g, untilMs, brokersOf.get(g.topic) ?? sc.brokers.length)));
  let total = 0;
  let top: [string, { n: number; kind: RunTasks['kind'] }] = ['scenario', { n: -1, kind: 'count' }];
  for (const e of by) {
    total += e[1].n;
    if (e[1].n > top[1].n) top = e;
  }
  return { total: Math.round(total), field: top[0], kind: top[1].kind };
}

/**
 * A consumer group's tasks: per instance its start, heartbeats, offset persists and rebalances; per
 * queue a long-polling pull every 15 s at least; per message delivered about four (the pull's reply,
 * the listener's end, a send back, the retry's put), each message delivered up to 1 + maxReconsumeTimes
 * times when the listener fails; the lag sample and the broker's scan every 10 s. Flow control costs
 * no task per 50 ms check (the model waits for the consumption that ends it).
 */
function consumerTasks(sc: Scenario, g: NonNullable<Scenario['consumerGroups']>[number], untilMs: number, brokers: number): number {
  const runs = (periodMs: number) => untilMs / periodMs;
  const queues = (sc.topics.find((t) => t.name === g.topic)?.queues ?? 4) * brokers + brokers;
  // Heartbeats to each broker and the route poll every 30 s, persisting each queue every 5 s, the rebalances.
  const perInstance = 200 + runs(30000) * (brokers + 1) + runs(5000) * queues + runs(20000) * 2;
  let sends = 0;
  for (const c of sc.clients) if (c.topic === g.topic) sends += c.sendTimesMs?.length ?? (Math.max(c.sendRatePerSec, ...(c.sendRateSteps ?? []).map((s) => s.perSec)) * untilMs) / 1000;
  const l = g.listener;
  const fails = [l, ...(l.changes ?? [])].some((x) => (x.laterShare ?? 0) + (x.throwShare ?? 0) > 0);
  const deliveries = sends * (fails ? 1 + (g.maxReconsumeTimes ?? CONSUMER_DEFAULTS.maxReconsumeTimes) : 1);
  return g.instances.length * perInstance + queues * runs(15000) + 4 * deliveries + 2 * runs(10000);
}
