// Hosts' clocks against each other (docs/analyze.md, "Clocks"). Two lines on two hosts that RocketMQ
// writes in a known order bound the difference of the hosts' clocks: a client's CONNECT comes before
// the server's channelActive for that connection, a NameServer's `new broker registered` before the
// broker's `register ... OK` for that registration. Each such pair gives an interval for the offset
// of one host's clock relative to the other's; the intervals of a pair of hosts are combined where
// most of them agree (a line paired with the wrong line of the other host agrees with few), and the
// hosts are solved relative to a reference (the NameServer hosts' majority). A host off by more than
// CLOCK_OFF_MS beyond that uncertainty is said, and analyze can move its times (src/timeline/shift.ts).
//
// Pairs are matched by what the lines say (addresses), never by time: a clock 8 h off still pairs.
// Memory is bounded: per host and peer address, the first TRAIN_MAX lines of each kind.

import { SERVER_KINDS } from '../ingest/kinds.js';
import { TIMEOUTS } from '../rocketmq/facts.js';
import { parseZone } from '../parse/time.js';
import type { EventType, RmqEvent } from '../parse/types.js';
import { formatMs } from '../util/durations.js';

/** A host is said to be off when its offset is beyond this, the pairs' uncertainty included. */
export const CLOCK_OFF_MS = 5000;
/** analyze corrects a host only when its offset is known to within this (or is a zone's whole quarter-hours). */
export const CLOCK_FIX_WIDTH_MS = 10000;
/** Lines kept per host, kind and peer (the first ones), and keys kept at most. */
export const TRAIN_MAX = 64;
const TRAINS_MAX = 4096;
/**
 * A client's CONNECT and the server's channelActive of that connection: the connection is made
 * within connectTimeoutMillis (NettyClientConfig, 3000 ms in 4.x and 5.x) of the CONNECT line, which
 * NettyRemotingClient$NettyConnectManageHandler.connect writes before it connects (4.9.4, 5.3.3);
 * NettyRemotingServer$NettyConnectManageHandler.channelActive writes its line once the accepted
 * channel is active.
 */
const CONNECT_MS = TIMEOUTS.connectMs;
/**
 * The NameServer writes `new broker registered` while it handles the REGISTER_BROKER request
 * (RouteInfoManager.registerBroker, 4.9.4 and 5.3.3); the broker writes `register broker[..]to name
 * server .. OK` (4.x) or `Registering current broker to name server completed` (5.x) once the
 * answer is back (BrokerOuterAPI.registerBrokerAll), within registerBrokerTimeoutMills (BrokerConfig:
 * 6000 ms in 4.x, 24000 ms in 5.x; the larger is taken).
 */
const REGISTER_MS = Math.max(TIMEOUTS.registerBroker4xMs, TIMEOUTS.registerBroker5xMs);
/**
 * A broker registers with every NameServer every 30 s (BrokerController, registerNameServerPeriod);
 * a NameServer says `new broker registered` only for a broker it did not hold. Only a broker's first
 * registration after a pause of this long (or its first) can be that one.
 */
const REGISTER_RUN_GAP_MS = 45000;
/**
 * A client retrying a connection every few seconds, a server accepting a burst of them: only the
 * first of a run of connects (or accepts) closer than this is kept. Two such combs would otherwise
 * agree at offsets where no connection was paired, and the first of a run pairs as well as any.
 */
const CONNECT_RUN_GAP_MS = 10000;
/** An accepted connection closed within this was no RocketMQ client's (ClockTrains.accepted). */
const SHORT_MS = 2000;
/** Between a log call and the time it records (thread scheduling), either way. */
const SLACK_MS = 100;
/** Zones differ by whole quarter-hours (UTC+05:45, +08:45 are the finest in use). */
const ZONE_STEP_MS = 15 * 60000;

const ADDR = /^\d{1,3}(?:\.\d{1,3}){3}:\d{1,5}$/;
const ipOf = (addr: string): string => addr.slice(0, addr.lastIndexOf(':'));

/** A line's time and how finely it was written: 1000 for whole seconds (server logs, 4.3.0-4.7.1 clients), else 1. */
interface Stamp {
  ts: number;
  res: number;
}

/** The typed events the estimate reads. */
export const CLOCK_TYPES: ReadonlySet<EventType> = new Set<EventType>(['pipeline', 'broker-registered']);

/** The lines that can pair, kept per host, kind and peer address while the timeline is read. */
export class ClockTrains {
  readonly types = CLOCK_TYPES;
  /** `c|host|addr` connects to addr; `s|host|log|ip` accepts from ip; `b|host|nsAddr` a broker's registrations; `n|host|brokerAddr` a NameServer's new brokers. */
  readonly trains = new Map<string, Stamp[]>();
  /** Accepts not closed yet, by host, log and remote address (SHORT_MS). */
  private readonly open = new Map<string, { list: Stamp[]; stamp: Stamp }>();
  /** The time of each key's last line (kept or not). */
  private readonly last = new Map<string, number>();

  /** `shiftOf`: the ms a source's times were moved already (its lines' own resolution is judged before). */
  constructor(private readonly shiftOf: (source: number) => number = () => 0) {}

  visit(e: RmqEvent): void {
    if (e.ts === null) return;
    const f = e.fields;
    if (e.type === 'pipeline') {
      if (f.side === 'client' && f.event === 'connect' && typeof f.addr === 'string' && ADDR.test(f.addr)) this.runStart(`c|${e.host}|${f.addr}`, e, CONNECT_RUN_GAP_MS);
      else if (f.side === 'server' && typeof f.addr === 'string' && ADDR.test(f.addr)) this.accepted(e, f.event, f.addr);
    } else if (e.type === 'broker-registered') {
      if (e.kind === 'broker' && typeof f.namesrvAddr === 'string' && ADDR.test(f.namesrvAddr)) this.runStart(`b|${e.host}|${f.namesrvAddr}`, e, REGISTER_RUN_GAP_MS);
      else if (e.kind === 'namesrv' && e.entry === 'broker-registered/new-broker' && typeof f.brokerAddr === 'string' && ADDR.test(f.brokerAddr)) {
        this.add(`n|${e.host}|${f.brokerAddr}`, e);
      }
    }
  }

  /**
   * A server's accepted connection; one closed again within SHORT_MS was no client's that logs
   * (an admin tool, a probe, a health check from the same address): its accept is dropped.
   */
  private accepted(e: RmqEvent, event: unknown, addr: string): void {
    const at = `${e.host}|${e.kind}|${addr}`;
    if (event === 'active') {
      const stamp = this.add(`s|${e.host}|${e.kind === 'namesrv' ? 'namesrv' : 'broker'}|${ipOf(addr)}`, e);
      if (stamp && this.open.size < TRAINS_MAX) this.open.set(at, stamp);
    } else if (event === 'inactive') {
      const open = this.open.get(at);
      this.open.delete(at);
      if (!open || e.ts! - open.stamp.ts > SHORT_MS) return;
      const i = open.list.indexOf(open.stamp);
      if (i >= 0) open.list.splice(i, 1);
    }
  }

  /** Keeps a line that follows the previous one of its key by more than gapMs (or is the first). */
  private runStart(key: string, e: RmqEvent, gapMs: number): void {
    const last = this.last.get(key);
    if (last === undefined && this.last.size >= TRAINS_MAX) return;
    this.last.set(key, e.ts!);
    if (last === undefined || e.ts! - last > gapMs) this.add(key, e);
  }

  private add(key: string, e: RmqEvent): { list: Stamp[]; stamp: Stamp } | null {
    let list = this.trains.get(key);
    if (!list) {
      if (this.trains.size >= TRAINS_MAX) return null;
      list = [];
      this.trains.set(key, list);
    }
    if (list.length >= TRAIN_MAX) return null;
    const own = e.ts! - this.shiftOf(e.source);
    // A server log's lines, or a client's whose milliseconds are all .000, tell the second only.
    const res = SERVER_KINDS.has(e.kind) || own % 1000 === 0 ? 1000 : 1;
    const stamp = { ts: e.ts!, res };
    list.push(stamp);
    return { list, stamp };
  }
}

/** Where the lines' addresses are: from the inference's hosts (src/diagnosis/infer/hosts.ts). */
export interface AddressBook {
  /** The host of an IP (null: unknown, or several hosts have it). */
  hostOfIp(ip: string): string | null;
  /** A host's IP. */
  ipOfHost(host: string): string | null;
  /** A NameServer's address (its accepts are in namesrv.log; a broker's in its remoting log). */
  isNameServer(addr: string): boolean;
}

/** The bound one pair of lines gives: off(later) - off(earlier) lies in [low, high]. */
export interface Interval {
  low: number;
  high: number;
}

/**
 * The offset of the later line's host relative to the earlier's, from one pair: the later line was
 * written 0..maxLatency ms after the earlier in true time, each time truncated to its resolution.
 */
export function pairBound(earlier: Stamp, later: Stamp, maxLatencyMs: number): Interval {
  const delta = later.ts - earlier.ts;
  return { low: delta - maxLatencyMs - earlier.res - SLACK_MS, high: delta + later.res + SLACK_MS };
}

/** Where most intervals overlap: that segment, how many, and whether another segment has as many. */
export function bestOverlap(list: readonly Interval[]): { low: number; high: number; count: number; ambiguous: boolean } | null {
  if (!list.length) return null;
  const points: Array<[number, number]> = [];
  for (const i of list) {
    points.push([i.low, 1]);
    points.push([i.high, -1]);
  }
  // Closed intervals: at the same point, starts before ends.
  points.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let count = 0;
  let best = 0;
  let segments: Interval[] = [];
  for (let k = 0; k < points.length; k++) {
    const [x, step] = points[k];
    count += step;
    // The count holds up to the next point (an interval's end always follows a start).
    if (step === 1 && count >= best) {
      if (count > best) segments = [];
      best = count;
      segments.push({ low: x, high: points[k + 1][0] });
    }
  }
  // Segments of the best count that touch are one.
  const merged: Interval[] = [];
  for (const s of segments) {
    const last = merged[merged.length - 1];
    if (last && s.low <= last.high) last.high = Math.max(last.high, s.high);
    else merged.push({ ...s });
  }
  // The intervals that agree there, intersected without the tightest quarter of them on each side:
  // a line paired with another process's (on the same address) agrees too, and would narrow it wrongly.
  const at = (merged[0].low + merged[0].high) / 2;
  const agree = list.filter((i) => i.low <= at && at <= i.high);
  const k = Math.floor(agree.length / 4);
  const lows = agree.map((i) => i.low).sort((a, b) => b - a);
  const highs = agree.map((i) => i.high).sort((a, b) => a - b);
  return { low: lows[k], high: highs[k], count: best, ambiguous: merged.length > 1 };
}

/** Two hosts' clocks: off(b) - off(a) in [low, high], from `pairs` agreeing pairs of lines of these kinds. */
export interface ClockEdge {
  a: string;
  b: string;
  low: number;
  high: number;
  pairs: number;
  kinds: string[];
}

/** The pairs of hosts the trains tie, each with the interval most of its pairs agree on. */
export function clockEdges(trains: ReadonlyMap<string, readonly Stamp[]>, book: AddressBook): ClockEdge[] {
  const byPair = new Map<string, { a: string; b: string; list: Interval[]; kinds: Set<string> }>();
  const add = (earlierHost: string, laterHost: string, earlier: readonly Stamp[], later: readonly Stamp[], max: number, kind: string) => {
    if (earlierHost === laterHost) return;
    const flip = earlierHost > laterHost;
    const [a, b] = flip ? [laterHost, earlierHost] : [earlierHost, laterHost];
    const key = `${a}\n${b}`;
    const e = byPair.get(key) ?? { a, b, list: [], kinds: new Set<string>() };
    byPair.set(key, e);
    const before = e.list.length;
    for (const x of earlier) {
      for (const y of later) {
        const i = pairBound(x, y, max);
        e.list.push(flip ? { low: -i.high, high: -i.low } : i);
      }
    }
    if (e.list.length > before) e.kinds.add(kind);
  };
  // Each broker host's registration trains, by the NameServer address they went to.
  const registrations = new Map<string, Array<[string, readonly Stamp[]]>>();
  for (const [key, stamps] of trains) {
    const [tag, host, nsAddr] = key.split('|');
    if (tag === 'b') registrations.set(host, [...(registrations.get(host) ?? []), [nsAddr, stamps]]);
  }
  for (const [key, stamps] of trains) {
    const [tag, host, ...rest] = key.split('|');
    if (tag === 'c') {
      const addr = rest[0];
      const server = book.hostOfIp(ipOf(addr));
      const ip = book.ipOfHost(host);
      if (server === null || ip === null) continue;
      const accepts = trains.get(`s|${server}|${book.isNameServer(addr) ? 'namesrv' : 'broker'}|${ip}`);
      if (accepts) add(host, server, stamps, accepts, CONNECT_MS, 'connections');
    } else if (tag === 'n') {
      const broker = book.hostOfIp(ipOf(rest[0]));
      const ip = book.ipOfHost(host);
      if (broker === null || ip === null) continue;
      // The broker's registrations with any address of this NameServer's host.
      for (const [nsAddr, oks] of registrations.get(broker) ?? []) if (ipOf(nsAddr) === ip) add(host, broker, stamps, oks, REGISTER_MS, 'registrations');
    }
  }
  const edges: ClockEdge[] = [];
  for (const { a, b, list, kinds } of byPair.values()) {
    const best = bestOverlap(list);
    // Two places as good as each other: the pairs do not tell which (periodic lines); no edge.
    if (!best || best.ambiguous) continue;
    edges.push({ a, b, low: best.low, high: best.high, pairs: best.count, kinds: [...kinds].sort() });
  }
  return edges.sort((x, y) => (x.a < y.a ? -1 : x.a > y.a ? 1 : x.b < y.b ? -1 : x.b > y.b ? 1 : 0));
}

/** One host's clock relative to the reference's: its times read offsetMs (lowMs..highMs) later than the reference's for the same instant. */
export interface ClockEstimate {
  host: string;
  offsetMs: number;
  lowMs: number;
  highMs: number;
  /** Pairs of lines the estimate rests on (over the hosts it goes through). */
  pairs: number;
  /** What was paired, with whom: `connections with mq-node-a`. */
  basis: string[];
  reference: string;
  /** Off by more than CLOCK_OFF_MS beyond its uncertainty. */
  off: boolean;
  /** A whole number of quarter-hours within [lowMs, highMs] (not 0): a zone read wrong. */
  zoneMs: number | null;
  /** The move that corrects it (-offset; -zoneMs for a zone), when well determined enough to apply (null: only said). */
  fixMs: number | null;
}

function solveFrom(ref: string, edges: readonly ClockEdge[]): Map<string, { low: number; high: number; pairs: number; basis: string[] }> {
  const solved = new Map<string, { low: number; high: number; pairs: number; basis: string[] }>([[ref, { low: 0, high: 0, pairs: 0, basis: [] }]]);
  for (;;) {
    let pick: { host: string; low: number; high: number; pairs: number; basis: string[]; edgePairs: number } | null = null;
    // edgePairs: the most pairs of one edge it rests on (where two neighbours disagree, the better paired wins).
    const candidates = new Map<string, { low: number; high: number; pairs: number; basis: string[]; edgePairs: number }>();
    for (const e of edges) {
      for (const [from, to, sign] of [
        [e.a, e.b, 1],
        [e.b, e.a, -1],
      ] as const) {
        const s = solved.get(from);
        if (!s || solved.has(to)) continue;
        const low = s.low + (sign === 1 ? e.low : -e.high);
        const high = s.high + (sign === 1 ? e.high : -e.low);
        const basis = e.kinds.map((k) => `${k} with ${from}`);
        const c = candidates.get(to);
        // Two solved neighbours: where both agree, or the narrower where they do not.
        if (!c) candidates.set(to, { low, high, pairs: s.pairs + e.pairs, basis, edgePairs: e.pairs });
        else {
          const both = { low: Math.max(c.low, low), high: Math.min(c.high, high) };
          if (both.low <= both.high) candidates.set(to, { ...both, pairs: c.pairs + e.pairs, basis: [...c.basis, ...basis], edgePairs: Math.max(c.edgePairs, e.pairs) });
          else if (e.pairs > c.edgePairs || (e.pairs === c.edgePairs && high - low < c.high - c.low)) candidates.set(to, { low, high, pairs: s.pairs + e.pairs, basis, edgePairs: e.pairs });
        }
      }
    }
    for (const [host, c] of candidates) if (!pick || c.high - c.low < pick.high - pick.low || (c.high - c.low === pick.high - pick.low && host < pick.host)) pick = { host, ...c };
    if (!pick) return solved;
    solved.set(pick.host, { low: pick.low, high: pick.high, pairs: pick.pairs, basis: pick.basis });
  }
}

/** A whole number of quarter-hours (not 0) within the interval, the nearest the middle; null: none. */
export function zoneStep(low: number, high: number): number | null {
  const mid = (low + high) / 2;
  const k = Math.round(mid / ZONE_STEP_MS);
  if (k === 0) return null;
  const at = k * ZONE_STEP_MS;
  return at >= low && at <= high ? at : null;
}

function estimateOf(host: string, ref: string, s: { low: number; high: number; pairs: number; basis: string[] }): ClockEstimate {
  const off = s.low > CLOCK_OFF_MS || s.high < -CLOCK_OFF_MS;
  const zoneMs = zoneStep(s.low, s.high);
  const offsetMs = zoneMs ?? Math.round((s.low + s.high) / 2);
  const determined = s.pairs >= 2 && (zoneMs !== null || s.high - s.low <= CLOCK_FIX_WIDTH_MS);
  // Moved by tenths of a second: the pairs tell no finer.
  const fixMs = off && determined ? (zoneMs !== null ? -zoneMs : -Math.round(offsetMs / 100) * 100) : null;
  return { host, offsetMs, lowMs: Math.round(s.low), highMs: Math.round(s.high), pairs: s.pairs, basis: host === ref ? ['reference'] : s.basis, reference: ref, off, zoneMs, fixMs };
}

/**
 * Every host the pairs reach, relative to the reference: of the candidates (the NameServer hosts if
 * any is paired, else every host), the one the fewest hosts are off from (the majority's clock),
 * then the one with the most pairs.
 */
export function solveClocks(edges: readonly ClockEdge[], nameServerHosts: readonly string[]): ClockEstimate[] {
  const pairsOf = new Map<string, number>();
  for (const e of edges) for (const h of [e.a, e.b]) pairsOf.set(h, (pairsOf.get(h) ?? 0) + e.pairs);
  if (!pairsOf.size) return [];
  const hosts = [...pairsOf.keys()];
  const ns = hosts.filter((h) => nameServerHosts.includes(h));
  const byPairs = (list: string[]) => [...list].sort((x, y) => pairsOf.get(y)! - pairsOf.get(x)! || (x < y ? -1 : 1)).slice(0, 16);
  let best: { ref: string; offCount: number; solved: ReturnType<typeof solveFrom> } | null = null;
  for (const ref of byPairs(ns.length ? ns : hosts)) {
    const solved = solveFrom(ref, edges);
    const offCount = [...solved].filter(([h, s]) => estimateOf(h, ref, s).off).length;
    if (!best || offCount < best.offCount) best = { ref, offCount, solved };
  }
  const { ref, solved } = best!;
  return [...solved].map(([h, s]) => estimateOf(h, ref, s)).sort((x, y) => (x.host < y.host ? -1 : x.host > y.host ? 1 : 0));
}

/** `+3.2s`, `-8h`, `-1h30m`, `+2m5.5s`: a --shift value for these ms. */
export function shiftText(ms: number): string {
  const sign = ms < 0 ? '-' : '+';
  let rest = Math.abs(Math.round(ms / 100) * 100);
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60000);
  rest -= m * 60000;
  const s = rest / 1000;
  const parts = [h ? `${h}h` : '', m ? `${m}m` : '', s || (!h && !m) ? `${Number.isInteger(s) ? s : s.toFixed(1)}s` : ''];
  return sign + parts.join('');
}

/** ±HH:MM */
function offsetText(min: number): string {
  const a = Math.abs(min);
  return `${min < 0 ? '-' : '+'}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
}

/**
 * The option that fixes the host's times: a zone error, `--tz` with the zone its files are in (the
 * zone they were read in moved by the error), when all were read in one zone; else `--shift`.
 */
export function clockOption(c: ClockEstimate, readZones: readonly string[], at: number): string {
  if (c.zoneMs !== null && readZones.length === 1 && readZones[0] !== 'printed') {
    try {
      const read = parseZone(readZones[0]).offsetAt(at);
      const right = read + c.zoneMs / 60000;
      if (Math.abs(right) <= 14 * 60) return `--tz '**/${c.host}/**=${offsetText(right)}'`;
    } catch {
      // an unknown zone name: --shift says it as well
    }
  }
  return `--shift ${c.host}=${shiftText(-(c.zoneMs ?? c.offsetMs))}`;
}

/** How far: `8 h`, `3.2 s`, `1 h 30 min`. */
function howFar(ms: number): string {
  const a = Math.abs(ms);
  if (a % ZONE_STEP_MS === 0 && a >= 3_600_000) {
    const h = Math.floor(a / 3_600_000);
    const m = (a % 3_600_000) / 60000;
    return m ? `${h} h ${m} min` : `${h} h`;
  }
  return formatMs(a);
}

/** The note said on stderr and in the report for a host that is off (one line). */
export function clockNote(c: ClockEstimate, o: { option: string; applied: boolean; givenShift?: boolean }): string {
  const dir = c.offsetMs > 0 ? 'ahead of' : 'behind';
  const span = `${shiftText(c.lowMs - c.offsetMs)}..${shiftText(c.highMs - c.offsetMs)}`;
  const head = `clock of ${c.host} is ${howFar(c.offsetMs)} ${dir} ${c.reference}'s (${span}; ${c.pairs} ${c.pairs === 1 ? 'pair' : 'pairs'} of lines: ${c.basis.join(', ')})`;
  if (o.applied && c.fixMs !== null) return `${head}: times of ${c.host} moved ${shiftText(c.fixMs)} by the clock estimate (${o.option} does the same); --no-clock-fix to keep them`;
  if (o.givenShift) return `${head}, after the --shift given for it: its times kept as given (${o.option} more would correct it)`;
  return `${head}: ${o.option} corrects it`;
}

/** A host's clock as the report says it: the estimate, the option that corrects it, the ms its times were moved (0: none). */
export interface ClockReport extends ClockEstimate {
  option: string;
  shiftedMs: number;
  /** The user moved this host's times (`--shift`): the estimate is over the moved times, and never moves them again. */
  givenShift?: boolean;
}

/**
 * Each estimate with the option that corrects it (`--tz` for a zone's whole quarter-hours, else
 * `--shift`), and per source (in `accounting`'s order) the ms its host's times are to be moved:
 * those of the hosts off and well determined (fixMs), unless `fix` is false (--no-clock-fix) or
 * the user shifted that host already (`given`, per source: the user's word wins over the estimate).
 */
export function clockReports(
  estimates: readonly ClockEstimate[],
  accounting: readonly { host: string; zone: string }[],
  first: number,
  fix: boolean,
  given: readonly number[] = [],
): { clocks: ClockReport[]; moved: number[] } {
  const shiftedByUser = new Set(accounting.filter((_, i) => (given[i] ?? 0) !== 0).map((a) => a.host));
  const clocks = estimates.map((c) => {
    const zones = [...new Set(accounting.filter((a) => a.host === c.host).map((a) => a.zone))];
    const user = shiftedByUser.has(c.host);
    const shiftedMs = fix && !user && c.fixMs !== null ? c.fixMs : 0;
    return { ...c, option: clockOption(c, zones, first), shiftedMs, ...(user ? { givenShift: true } : {}) };
  });
  const byHost = new Map(clocks.map((c) => [c.host, c.shiftedMs]));
  return { clocks, moved: accounting.map((a) => byHost.get(a.host) ?? 0) };
}
