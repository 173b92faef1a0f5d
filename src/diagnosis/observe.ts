// The milestones of an incident, read the same way from the real logs and from a simulated run (the
// model gives events in the parsers' schema): fault starts, each NameServer's removal of a failed
// broker, and per client its first failed send, NameServer switch, route drop and return of the
// broker, and last failed send. Also the send failures and timeouts per client and the busy replies
// per busy fault, for the figures beside the milestones.

import { hostStateWord, type Scenario } from '../model/index.js';
import type { RmqEvent } from '../parse/types.js';
import { routeDelta, writableAfter } from '../parse/route-change.js';
import { isAppFailure } from '../parse/send-failure.js';
import { SERVER_KINDS } from '../ingest/kinds.js';
import type { BusyFigure, ClientFailures, MilestoneTime } from './types.js';

/** Event types a milestone or figure reads (the rest of a timeline can be dropped). */
export const MILESTONE_TYPES: ReadonlySet<string> = new Set([
  'namesrv-chosen',
  'connect-failed',
  'route-changed',
  'broker-expired',
  'broker-removed',
  'busy-reply',
  'send-call-timeout',
  'send-failed',
  'no-route',
  'send-attempt-failed',
  'rpc-timeout',
  'send-request-failed',
  // A full disk's refusal that a one-attempt or asynchronous send threw to the application (isAppFailure).
  'disk-full',
]);

export interface MilestoneContext {
  /** Fault starts, epoch ms, with their subject (`mq-node-100 hung`, `broker-b stall`). */
  faults: Array<{ ts: number; subject: string }>;
  /** The earliest fault, epoch ms; null without faults. */
  faultStart: number | null;
  /** Failures and timeouts after this are not counted (the end of the observed window). */
  untilTs: number;
  /** Where a client's failed sends are read: its application log (`app`) or its client log (`client`: failed attempts). */
  clients: Array<{ host: string; failureSource: 'app' | 'client' }>;
  nameServers: Array<{ addr: string; host: string }>;
  /**
   * Brokers whose host hung, went down, rebooted or was cut off: routes drop them. `since`: the
   * first fault of that host (epoch ms), from which a NameServer's removal of the broker is its
   * failure's.
   */
  faultyBrokers: Array<{ name: string; addr: string; since: number }>;
  busyWindows: Array<{ broker: string; addr: string; kind: 'overload' | 'stall'; from: number; to: number }>;
}

function faultSubject(f: NonNullable<Scenario['faults']>[number]): string {
  if ('state' in f) return `${f.host} ${hostStateWord(f)}`;
  if ('stall' in f) return `${f.broker} stall`;
  if ('overload' in f) return `${f.broker} overload`;
  if ('slowPut' in f) return `${f.broker} slow put`;
  if ('diskFull' in f) return `${f.broker} disk full`;
  if ('partition' in f) return `${f.partition.join(' / ')} partition`;
  return `${f.heal.join(' / ')} heal`;
}

/** The milestone context of a scenario. */
export function contextOf(sc: Scenario, untilTs: number, failureSource: (host: string) => 'app' | 'client'): MilestoneContext {
  // Subjects are keys: the second stall of a broker is `broker-b stall (2)`.
  const seen = new Map<string, number>();
  const faults = [...(sc.faults ?? [])]
    .sort((a, b) => a.atMs - b.atMs)
    .map((f) => {
      const base = faultSubject(f);
      const n = (seen.get(base) ?? 0) + 1;
      seen.set(base, n);
      return { ts: sc.startEpochMs + f.atMs, subject: n === 1 ? base : `${base} (${n})` };
    });
  // Each failed host and its first fault's start.
  const faultHosts = new Map<string, number>();
  const failed = (h: string, atMs: number) => faultHosts.set(h, Math.min(faultHosts.get(h) ?? Infinity, sc.startEpochMs + atMs));
  for (const f of sc.faults ?? []) if ('state' in f && f.state !== 'up') failed(f.host, f.atMs);
  for (const f of sc.faults ?? []) if ('partition' in f) f.partition.forEach((h) => failed(h, f.atMs));
  const busyWindows: MilestoneContext['busyWindows'] = [];
  const overloads = (sc.faults ?? []).filter((f): f is Extract<typeof f, { overload: unknown }> => 'overload' in f);
  for (const f of sc.faults ?? []) {
    const b = sc.brokers.find((x) => 'broker' in f && x.name === f.broker);
    if (!b) continue;
    const from = sc.startEpochMs + f.atMs;
    if ('overload' in f) busyWindows.push({ broker: b.name, addr: b.addr, kind: 'overload', from, to: from + f.overload.durationMs });
    // A stall within an overload of its broker (a throttled or pausing JVM) is compared in the
    // overload's figures: its replies are among them.
    const within = (o: (typeof overloads)[number]) => o.broker === b.name && f.atMs >= o.atMs && f.atMs <= o.atMs + o.overload.durationMs;
    if ('stall' in f && !overloads.some(within)) busyWindows.push({ broker: b.name, addr: b.addr, kind: 'stall', from, to: from + f.stall.durationMs });
  }
  return {
    faults,
    faultStart: faults.length ? Math.min(...faults.map((f) => f.ts)) : null,
    untilTs,
    clients: sc.clients.map((c) => ({ host: c.host, failureSource: failureSource(c.host) })),
    nameServers: sc.nameServers.map((n) => ({ addr: n.addr, host: n.host })),
    faultyBrokers: sc.brokers.filter((b) => faultHosts.has(b.host)).map((b) => ({ name: b.name, addr: b.addr, since: faultHosts.get(b.host)! })),
    busyWindows,
  };
}

export interface Observation {
  milestones: MilestoneTime[];
  clients: Record<string, ClientFailures>;
  busy: BusyFigure[];
}

/** Failed sends of a client: one per record (a record may hold a failure and its cause). */
export function failuresOf(events: readonly RmqEvent[], host: string, source: 'app' | 'client', fromTs: number, untilTs: number): RmqEvent[] {
  const picked = events.filter(
    (e) =>
      e.host === host &&
      e.ts !== null &&
      e.ts >= fromTs &&
      e.ts <= untilTs &&
      (source === 'app' ? e.kind === 'app' && isAppFailure(e) : e.kind === 'client' && e.type === 'send-attempt-failed'),
  );
  // Same file, millisecond and thread: as many failures as the most frequent type among them (a
  // record's failure and its `Caused by:`). Two threads failing in one millisecond are two sends
  // (gen-703: a timeout and a RemotingSendRequestException at 04:59:15.680-681).
  picked.sort((a, b) => a.ts! - b.ts! || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || ((a.thread ?? '') < (b.thread ?? '') ? -1 : (a.thread ?? '') > (b.thread ?? '') ? 1 : 0));
  const out: RmqEvent[] = [];
  let i = 0;
  while (i < picked.length) {
    let j = i;
    while (j < picked.length && picked[j].ts === picked[i].ts && picked[j].file === picked[i].file && picked[j].thread === picked[i].thread) j++;
    const byType = new Map<string, RmqEvent[]>();
    for (let k = i; k < j; k++) byType.set(picked[k].type, [...(byType.get(picked[k].type) ?? []), picked[k]]);
    let best: RmqEvent[] = [];
    for (const list of byType.values()) if (list.length > best.length) best = list;
    out.push(...best);
    i = j;
  }
  return out;
}

/** The invokeSync timeouts a client logged (`rpc-timeout/invoke-sync-wait...`): what ClientFailures counts as `timeouts`. */
export function isSyncTimeout(e: RmqEvent): boolean {
  return e.kind === 'client' && e.type === 'rpc-timeout' && (e.entry ?? '').startsWith('rpc-timeout/invoke-sync-wait');
}

/**
 * The times of each client host's invokeSync timeouts, in time order: where a caller keeps them
 * apart from the events (collect.ts keeps only these of a client's timeouts outside a
 * silence), clientFailures counts them there.
 */
export type SyncTimeouts = ReadonlyMap<string, readonly number[]>;

/** A client's failed sends from `fromTs` to `untilTs`, and its figures (the outage is first to last). */
export function clientFailures(
  events: readonly RmqEvent[],
  host: string,
  source: 'app' | 'client',
  fromTs: number,
  untilTs: number,
  syncTimeouts?: SyncTimeouts,
): { failures: RmqEvent[]; figures: ClientFailures } {
  const failures = failuresOf(events, host, source, fromTs, untilTs);
  const times = syncTimeouts?.get(host);
  const timeouts = syncTimeouts
    ? times
      ? firstAfter(times, untilTs) - firstAtOrAfter(times, fromTs)
      : 0
    : events.filter((e) => e.host === host && e.ts !== null && e.ts <= untilTs && e.ts >= fromTs && isSyncTimeout(e)).length;
  return {
    failures,
    figures: {
      source,
      failedSends: failures.length,
      firstTs: failures.length ? failures[0].ts : null,
      lastTs: failures.length ? failures[failures.length - 1].ts : null,
      timeouts,
    },
  };
}

/** Index of the first time >= t in ascending `times`. */
function firstAtOrAfter(times: readonly number[], t: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first time > t in ascending `times`. */
function firstAfter(times: readonly number[], t: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Files whose every time is a whole second. */
function wholeSecondFiles(events: readonly RmqEvent[]): Set<string> {
  const coarse = new Map<string, boolean>();
  for (const e of events) if (e.ts !== null) coarse.set(e.file, (coarse.get(e.file) ?? true) && e.ts % 1000 === 0);
  return new Set([...coarse].filter(([, v]) => v).map(([f]) => f));
}

/** The milestones and figures of a run (or of the real logs), in time order of the scenario's subjects. */
export function observe(events: readonly RmqEvent[], ctx: MilestoneContext, ref: (e: RmqEvent) => string, syncTimeouts?: SyncTimeouts): Observation {
  const milestones: MilestoneTime[] = [];
  for (const f of ctx.faults) milestones.push({ name: 'fault-start', subject: f.subject, ts: f.ts, evidence: null });
  const from = ctx.faultStart ?? -Infinity;
  // Server logs (and the 4.3.0-4.7.1 client's fake milliseconds) print whole seconds: a line of the
  // fault's own second may have been written after it began.
  const whole = wholeSecondFiles(events);
  const after = events.filter((e) => e.ts !== null && e.ts + (SERVER_KINDS.has(e.kind) || whole.has(e.file) ? 999 : 0) >= from && e.ts <= ctx.untilTs);

  // A removal is the NameServer's answer to the broker's failure only from that failure on: one
  // before it had another cause. A NameServer resuming from a hang (gen-703's mq-ns-3, 5.x) reads at
  // once the channels its brokers closed meanwhile (their registrations timed out) and the
  // registrations they sent on new ones; RouteInfoManager.onChannelDestroy(Channel) unregisters a
  // broker whose registered channel is one of the closed ones, unless a registration on a new one
  // came first: which comes first is a race among its threads (broker-a was removed and registered
  // again within the second, broker-b was not), and it is no answer to broker-b's hang 9 s later.
  for (const ns of ctx.nameServers) {
    for (const b of ctx.faultyBrokers) {
      const e = after.find(
        (x) =>
          x.host === ns.host &&
          x.kind === 'namesrv' &&
          x.ts! + (whole.has(x.file) || SERVER_KINDS.has(x.kind) ? 999 : 0) >= b.since &&
          ((x.type === 'broker-expired' && x.fields.brokerAddr === b.addr) ||
            (x.type === 'broker-removed' && (x.fields.brokerAddr === b.addr || x.fields.brokerName === b.name))),
      );
      if (e) milestones.push({ name: 'namesrv-removal', subject: `${ns.addr} removes ${b.name}`, ts: e.ts!, evidence: ref(e) });
    }
  }

  const clients: Record<string, ClientFailures> = {};
  const faulty = new Set(ctx.faultyBrokers.map((b) => b.name));
  for (const c of ctx.clients) {
    const { failures, figures } = clientFailures(after, c.host, c.failureSource, from, ctx.untilTs, syncTimeouts);
    clients[c.host] = figures;
    if (failures.length) milestones.push({ name: 'first-failure', subject: c.host, ts: failures[0].ts!, evidence: ref(failures[0]) });
    const mine = after.filter((e) => e.host === c.host && e.kind === 'client');
    const sw = mine.find((e) => e.type === 'namesrv-chosen' && e.fields.old !== null);
    if (sw) milestones.push({ name: 'namesrv-switch', subject: c.host, detail: `to ${String(sw.fields.new)}`, ts: sw.ts!, evidence: ref(sw) });
    const drop = mine.find((e) => e.type === 'route-changed' && routeDelta(e).lost.some((b) => faulty.has(b)));
    if (drop) {
      const lost = routeDelta(drop).lost.filter((b) => faulty.has(b));
      milestones.push({ name: 'route-lost', subject: c.host, detail: `drops ${lost.join(', ')}`, ts: drop.ts!, evidence: ref(drop) });
      const back = mine.find((e) => e.type === 'route-changed' && e.ts! >= drop.ts! && lost.some((b) => (writableAfter(e) ?? []).includes(b)));
      if (back) milestones.push({ name: 'route-back', subject: c.host, detail: `regains ${lost.join(', ')}`, ts: back.ts!, evidence: ref(back) });
    }
    if (failures.length) {
      const last = failures[failures.length - 1];
      milestones.push({ name: 'outage-end', subject: c.host, ts: last.ts!, evidence: ref(last) });
    }
  }

  const busy: BusyFigure[] = ctx.busyWindows.map((w) => {
    const replies = events.filter(
      (e) =>
        e.type === 'busy-reply' &&
        e.kind === 'client' &&
        e.ts !== null &&
        e.ts >= w.from &&
        e.ts <= w.to + 3000 &&
        (e.fields.brokerAddr === null || e.fields.brokerAddr === w.addr),
    );
    const waits = replies.map((e) => e.fields.waitMs).filter((v): v is number => typeof v === 'number');
    return {
      broker: w.broker,
      kind: w.kind,
      from: w.from,
      to: w.to,
      replies: replies.length,
      waitMinMs: waits.length ? Math.min(...waits) : null,
      waitMaxMs: waits.length ? Math.max(...waits) : null,
    };
  });
  return { milestones, clients, busy };
}
