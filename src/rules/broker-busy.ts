// broker-busy: sends rejected with `[TIMEOUT_CLEAN_QUEUE]` by a broker's BrokerFastFailure.
//
// Mechanism (server facts §2): a scheduled thread (BrokerFastFailureScheduledThread1) looks at the
// HEAD of the send queue every 10 ms and rejects it once it has waited waitTimeMillsInSendQueue
// (200 ms). Worker threads never check a task's age. So a steady backlog shows as waits of
// 200-210 ms; a much longer wait means the check itself did not run for that long: the broker JVM
// stalled (GC pause, CPU starvation), or on brokers 4.7.1-4.9.2 a CompletableFuture callback at the
// queue head stopped the check (§2.6).
//
// Decision: ONE FINDING PER BROKER, not per episode. The episodes (split when no rejection for more
// than 60 s) are told apart in the explanation and in the metrics (`episodes`, `episodeKinds`,
// `stalls`, `backlogRejections`), so one incident does not flood the report with look-alike findings.
//
// Which broker: the ` BROKER: addr` suffix (clients 4.8.0+), else the brokerName of the
// send-attempt-failed of the same record (or of a recent one on the same host that quotes the same
// reply), else the only broker host whose logs were given. A reply that appears both in the client
// log and in the application log is one rejection (same host, waitMs and queueSize, in different
// files, within 2 s).
//
// This file also holds small helpers shared by the send-path rules (CrossLogDedup, AttemptIndex,
// BrokerHosts, version ranges); they are candidates for util.ts.

import type { RmqEvent } from '../parse/types.js';
import { clientVersionOf } from './versions.js';
import type { MetricValue, Rule, RuleContext, SourceInfo, Subject } from './types.js';
import { formatMs } from './util.js';

// ---------------------------------------------------------------------------------------------
// Shared helpers
// ---------------------------------------------------------------------------------------------

export function num(e: RmqEvent, k: string): number | null {
  const v = e.fields[k];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export function str(e: RmqEvent, k: string): string | null {
  const v = e.fields[k];
  return typeof v === 'string' && v !== '' && v !== 'null' ? v : null;
}

export function strs(e: RmqEvent, k: string): string[] {
  const v = e.fields[k];
  return Array.isArray(v) ? v : [];
}

type V3 = [number, number, number];
const TOP: V3 = [99, 0, 0];

function parseV(s: string): V3 | null {
  const m = /^(\d+)\.(\d+)\.(\d+)$/.exec(s);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

export function cmpV(a: V3, b: V3): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** Inclusive bounds of a ClientVersion.range (`4.9.4`, `4.3.0-4.7.1`, `>=5.1.0`, `<=4.7.1`); null when unknown. */
export function rangeBounds(range: string): [V3, V3] | null {
  const exact = parseV(range);
  if (exact) return [exact, exact];
  let m = /^(\d+\.\d+\.\d+)-(\d+\.\d+\.\d+)$/.exec(range);
  if (m) return [parseV(m[1])!, parseV(m[2])!];
  m = /^>=(\d+\.\d+\.\d+)$/.exec(range);
  if (m) return [parseV(m[1])!, TOP];
  m = /^<=(\d+\.\d+\.\d+)$/.exec(range);
  if (m) return [[0, 0, 0], parseV(m[1])!];
  return null;
}

/** Whether a whole version range is below `v`, at or above it, or straddles it / is unknown. */
export function versionSide(range: string, v: string): 'below' | 'atLeast' | 'unknown' {
  const b = rangeBounds(range);
  const x = parseV(v)!;
  if (!b) return 'unknown';
  if (cmpV(b[1], x) < 0) return 'below';
  if (cmpV(b[0], x) >= 0) return 'atLeast';
  return 'unknown';
}

/** Whether a version range can overlap [lo, hi]: true, false, or null when the range is unknown. */
export function rangeOverlaps(range: string, lo: string, hi: string): boolean | null {
  const b = rangeBounds(range);
  if (!b) return null;
  return cmpV(b[0], parseV(hi)!) <= 0 && cmpV(b[1], parseV(lo)!) >= 0;
}

const SERVER_KINDS = new Set(['broker', 'store', 'watermark', 'remoting', 'stats']);

/** Version range of a broker host, from the hints of its own logs (the engine only offers client ranges). */
export function serverVersion(host: string, sources: readonly SourceInfo[]): string {
  const own = sources.filter((s) => s.host === host && SERVER_KINDS.has(s.kind)).map((s) => ({ ...s, kind: 'client' }));
  return clientVersionOf(host, own).range;
}

/**
 * Counts occurrences across logs: the same failure told in two files of one host (the client log
 * and the application log) within `windowMs` and with the same key is one. Unlike util's
 * Occurrences it holds items only for the window (bounded) and lets the later copy add what it knows
 * (the application copy may come first in the merged stream and lack the broker name).
 */
export class CrossLogDedup<T> {
  private pending: Array<{ key: string; ts: number; files: string[]; item: T }> = [];
  constructor(
    private readonly done: (item: T) => void,
    private readonly windowMs = 2000,
    private readonly max = 4096,
  ) {}

  tick(ts: number | null): void {
    if (ts === null) return;
    while (this.pending.length && this.pending[0].ts < ts - this.windowMs) this.done(this.pending.shift()!.item);
  }

  /** Returns true when the item is a new occurrence. Items without a time cannot be matched. */
  add(key: string, ts: number | null, file: string, item: T, merge?: (kept: T, dup: T) => void): boolean {
    if (ts === null) {
      this.done(item);
      return true;
    }
    this.tick(ts);
    for (const p of this.pending) {
      if (p.key === key && Math.abs(p.ts - ts) <= this.windowMs && !p.files.includes(file)) {
        p.files.push(file);
        merge?.(p.item, item);
        return false;
      }
    }
    this.pending.push({ key, ts, files: [file], item });
    if (this.pending.length > this.max) this.done(this.pending.shift()!.item);
    return true;
  }

  /** Items still in the window (to attach late evidence). */
  forEachPending(fn: (item: T, ts: number) => void): void {
    for (const p of this.pending) fn(p.item, p.ts);
  }

  flush(): void {
    const rest = this.pending;
    this.pending = [];
    for (const p of rest) this.done(p.item);
  }
}

/** The send-attempt-failed of a record, and recent ones per host (bounded). */
export class AttemptIndex {
  private readonly byFile = new Map<string, RmqEvent>();
  private readonly byHost = new Map<string, RmqEvent[]>();

  add(e: RmqEvent): void {
    this.byFile.set(e.file, e);
    let ring = this.byHost.get(e.host);
    if (!ring) this.byHost.set(e.host, (ring = []));
    ring.push(e);
    if (ring.length > 32) ring.shift();
  }

  /** The attempt whose record carries `e` (the WARN line and the exception under it are one record). */
  sameRecord(e: RmqEvent): RmqEvent | null {
    const a = this.byFile.get(e.file);
    return a && a.text === e.text && a.line <= e.line ? a : null;
  }

  /** The latest attempt on the host, within `windowMs` of `ts`, whose cause contains `needle`. */
  recentWithCause(host: string, ts: number | null, needle: string, windowMs = 2000): RmqEvent | null {
    const ring = this.byHost.get(host);
    if (!ring || ts === null) return null;
    for (let i = ring.length - 1; i >= 0; i--) {
      const a = ring[i];
      if (a.ts === null || Math.abs(a.ts - ts) > windowMs) continue;
      if ((str(a, 'cause') ?? '').includes(needle)) return a;
    }
    return null;
  }

  recent(host: string): readonly RmqEvent[] {
    return this.byHost.get(host) ?? [];
  }
}

/** Maps broker names and addresses to the host folders whose broker-side logs were given. */
export class BrokerHosts {
  private readonly byName = new Map<string, string>();
  private readonly byAddr = new Map<string, string>();
  /** name -> addr learned from replies and boot lines. */
  readonly alias = new Map<string, string>();
  readonly serverHosts: string[];

  constructor(sources: readonly SourceInfo[]) {
    this.serverHosts = [...new Set(sources.filter((s) => SERVER_KINDS.has(s.kind)).map((s) => s.host))];
  }

  /** `The broker[name, addr] boot success` ties a host to its broker. */
  startup(e: RmqEvent): void {
    if (str(e, 'role') !== 'broker') return;
    const name = str(e, 'brokerName');
    const addr = str(e, 'brokerAddr');
    if (name) this.byName.set(name, e.host);
    if (addr) this.byAddr.set(addr, e.host);
    if (name && addr) this.alias.set(name, addr);
  }

  learn(name: string | null, addr: string | null): void {
    if (name && addr && !this.alias.has(name)) this.alias.set(name, addr);
  }

  nameOf(addr: string): string | null {
    for (const [n, a] of this.alias) if (a === addr) return n;
    return null;
  }

  /** The broker-side host of a broker, and how it was found. */
  resolve(name: string | null, addr: string | null, onlyGroup: boolean): { host: string; how: 'boot' | 'name' | 'only' } | null {
    if (addr && this.byAddr.has(addr)) return { host: this.byAddr.get(addr)!, how: 'boot' };
    if (name && this.byName.has(name)) return { host: this.byName.get(name)!, how: 'boot' };
    const token = (s: string) => new RegExp(`(^|[^A-Za-z0-9])${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^A-Za-z0-9])`);
    const ip = addr ? addr.split(':')[0] : null;
    const named = this.serverHosts.filter((h) => (name && token(name).test(h)) || (ip && ip.length > 6 && h.includes(ip)));
    if (named.length === 1) return { host: named[0], how: 'name' };
    if (onlyGroup && this.serverHosts.length === 1) return { host: this.serverHosts[0], how: 'only' };
    return null;
  }
}

/** Minute buckets of broker-side figures per host, so joins can look at an episode's window only. */
export interface SideBucket {
  wmSize: number;
  wmSizeEv: RmqEvent | null;
  wmSlow: number;
  wmSlowEv: RmqEvent | null;
  store: number;
  storeEv: RmqEvent | null;
  inLock: number;
  inLockEv: RmqEvent | null;
  jstack: number;
  jstackEv: RmqEvent | null;
}

const emptyBucket = (): SideBucket => ({ wmSize: 0, wmSizeEv: null, wmSlow: 0, wmSlowEv: null, store: 0, storeEv: null, inLock: 0, inLockEv: null, jstack: 0, jstackEv: null });

export class BrokerSide {
  private readonly hosts = new Map<string, Map<number, SideBucket>>();
  /** Minutes with a rejection: only buckets near them are kept once they are old. */
  private readonly hot = new Set<number>();
  private pruned = 0;

  /** A client saw a rejection at `ts`: keep the broker-side minutes around it. */
  noteRejection(ts: number | null): void {
    if (ts !== null) this.hot.add(Math.floor(ts / 60000));
  }

  /** Drop buckets more than three minutes old that no rejection came near (bounded state). */
  prune(now: number | null): void {
    if (now === null || now - this.pruned < 60000) return;
    this.pruned = now;
    const limit = Math.floor(now / 60000) - 3;
    for (const m of this.hosts.values()) {
      for (const k of m.keys()) {
        if (k < 0 || k >= limit) continue;
        let near = false;
        for (let d = -2; d <= 2 && !near; d++) near = this.hot.has(k + d);
        if (!near) m.delete(k);
      }
    }
  }

  private bucket(e: RmqEvent): SideBucket {
    let m = this.hosts.get(e.host);
    if (!m) this.hosts.set(e.host, (m = new Map()));
    const k = e.ts === null ? -1 : Math.floor(e.ts / 60000);
    let b = m.get(k);
    if (!b) m.set(k, (b = emptyBucket()));
    return b;
  }

  watermark(e: RmqEvent): void {
    if (str(e, 'queue') !== 'Send' || e.kind === 'namesrv') return;
    const size = num(e, 'size') ?? 0;
    const slow = num(e, 'slowMs') ?? 0;
    if (size <= 0 && slow <= 0) return;
    const b = this.bucket(e);
    if (size > b.wmSize) (b.wmSize = size), (b.wmSizeEv = e);
    if (slow > b.wmSlow) (b.wmSlow = slow), (b.wmSlowEv = e);
  }

  storeSlow(e: RmqEvent): void {
    const what = str(e, 'what');
    const cost = num(e, 'costMs');
    if (cost === null || !what || !['in-lock', 'not-in-lock', 'pagecachert'].includes(what)) return;
    const b = this.bucket(e);
    if (cost > b.store) (b.store = cost), (b.storeEv = e);
    if (what === 'in-lock' && cost > b.inLock) (b.inLock = cost), (b.inLockEv = e);
  }

  jstack(e: RmqEvent): void {
    const b = this.bucket(e);
    b.jstack++;
    b.jstackEv ??= e;
  }

  has(host: string): boolean {
    return this.hosts.has(host);
  }

  /** Figures of a host over time windows ([from, to] epoch ms); all of them when `windows` is null. */
  over(host: string, windows: Array<[number, number]> | null): SideBucket {
    const out = emptyBucket();
    const m = this.hosts.get(host);
    if (!m) return out;
    const keys = new Set<number>();
    if (windows === null) for (const k of m.keys()) keys.add(k);
    else {
      keys.add(-1);
      for (const [a, b] of windows) for (let k = Math.floor(a / 60000); k <= Math.floor(b / 60000); k++) keys.add(k);
    }
    for (const k of [...keys].sort((x, y) => x - y)) {
      const b = m.get(k);
      if (!b) continue;
      if (b.wmSize > out.wmSize) (out.wmSize = b.wmSize), (out.wmSizeEv = b.wmSizeEv);
      if (b.wmSlow > out.wmSlow) (out.wmSlow = b.wmSlow), (out.wmSlowEv = b.wmSlowEv);
      if (b.store > out.store) (out.store = b.store), (out.storeEv = b.storeEv);
      if (b.inLock > out.inLock) (out.inLock = b.inLock), (out.inLockEv = b.inLockEv);
      out.jstack += b.jstack;
      out.jstackEv ??= b.jstackEv;
    }
    return out;
  }
}

/** Time of day of an event as its log printed it (`20:05:24`), for explanations. */
export function clock(e: RmqEvent | null | undefined): string | null {
  if (!e) return null;
  if (e.clock) return e.clock.replace(/[.,]\d+$/, '');
  const m = /\b(\d{2}:\d{2}:\d{2})\b/.exec(e.text.slice(0, 48));
  return m ? m[1] : null;
}

/** formatMs, rounded to whole seconds from a minute on (formatMs can print `10 min 60 s`). */
export function duration(ms: number): string {
  return formatMs(ms >= 60000 ? Math.round(ms / 1000) * 1000 : ms);
}

/** `broker-b (192.168.1.12:10911)`, `broker-b`, `192.168.1.12:10911`, or a fallback. */
export function brokerLabel(name: string | null, addr: string | null, fallback = 'a broker'): string {
  if (name && addr) return `${name} (${addr})`;
  return name ?? addr ?? fallback;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Unique, non-unknown client version ranges of hosts, joined. */
export function clientVersions(ctx: RuleContext, hosts: Iterable<string>): string {
  const r = [...new Set([...hosts].map((h) => ctx.clientVersion(h).range))];
  const known = r.filter((x) => x !== 'unknown');
  return known.length ? known.join(', ') : 'unknown';
}

// ---------------------------------------------------------------------------------------------
// The rule
// ---------------------------------------------------------------------------------------------

/** A rejection this far above the threshold cannot come from a steady backlog (the cleaner runs every 10 ms). */
const STALL_MARGIN_MS = 100;

interface Hit {
  ev: RmqEvent;
  host: string;
  wait: number | null;
  size: number | null;
  name: string | null;
  addr: string | null;
}

interface Episode {
  start: number;
  end: number;
  n: number;
  minWait: number | null;
  maxWait: number | null;
  stalls: number;
  maxQueue: number | null;
  rep: RmqEvent;
  repWait: number;
  firstEv: RmqEvent;
  lastEv: RmqEvent;
}

/** Stall rejections within a second of each other: one pause of the broker. */
interface Burst {
  start: number;
  end: number;
  n: number;
  max: number;
  ev: RmqEvent;
}

const MAX_BURSTS = 200;

interface Group {
  name: string | null;
  addr: string | null;
  n: number;
  bursts: Burst[];
  extraBursts: number;
  untimed: number;
  hist: Map<number, number>;
  minWait: number | null;
  maxWait: number | null;
  maxQueue: number | null;
  stalls: number;
  clients: Set<string>;
  episodes: Episode[];
  first: RmqEvent;
  maxEv: RmqEvent;
  maxEvWait: number;
}

const minN = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));
const maxN = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

function coalesce(eps: Episode[], gap: number): Episode[] {
  const sorted = [...eps].sort((a, b) => a.start - b.start);
  const out: Episode[] = [];
  for (const e of sorted) {
    const last = out[out.length - 1];
    if (last && e.start - last.end <= gap) {
      last.end = Math.max(last.end, e.end);
      last.n += e.n;
      last.minWait = minN(last.minWait, e.minWait);
      last.maxWait = maxN(last.maxWait, e.maxWait);
      last.stalls += e.stalls;
      last.maxQueue = maxN(last.maxQueue, e.maxQueue);
      if (e.repWait > last.repWait) (last.rep = e.rep), (last.repWait = e.repWait);
      if ((e.lastEv.ts ?? 0) >= (last.lastEv.ts ?? 0)) last.lastEv = e.lastEv;
    } else out.push({ ...e });
  }
  return out;
}

function addBurst(g: Group, b: Burst): void {
  const near = g.bursts.find((x) => b.start <= x.end + 1000 && b.end >= x.start - 1000);
  if (near) {
    near.start = Math.min(near.start, b.start);
    near.end = Math.max(near.end, b.end);
    near.n += b.n;
    if (b.max > near.max) (near.max = b.max), (near.ev = b.ev);
    return;
  }
  if (g.bursts.length >= MAX_BURSTS) {
    g.extraBursts++;
    return;
  }
  g.bursts.push(b);
}

function histPercentile(hist: Map<number, number>, p: number): number | null {
  let total = 0;
  for (const c of hist.values()) total += c;
  if (!total) return null;
  const rank = Math.min(total, Math.max(1, Math.ceil((p / 100) * total)));
  let seen = 0;
  for (const v of [...hist.keys()].sort((a, b) => a - b)) {
    seen += hist.get(v)!;
    if (seen >= rank) return v;
  }
  return null;
}

const rule: Rule = {
  meta: {
    id: 'broker-busy',
    title: 'Broker busy: sends rejected with [TIMEOUT_CLEAN_QUEUE]',
    severity: 'error',
    description:
      'Finds sends that a broker rejected because they waited too long in its send queue ([TIMEOUT_CLEAN_QUEUE]), per broker: episodes, waits, queue sizes, and whether the broker was steadily overloaded or stalled; joins the broker watermark, store and jstack logs when given.',
    versions: 'All broker versions (BrokerFastFailure); clients 4.8.0+ name the broker in the reply; brokers 4.7.1-4.9.2 can hold the check up behind callbacks; clients 5.3.0+ retry SYSTEM_BUSY.',
    settings: {
      waitTimeMillsInSendQueue: { default: 200, description: 'Broker setting: how long a send may wait in the send queue before BrokerFastFailure rejects it', unit: 'ms' },
      busyEpisodeGapMs: { default: 60000, description: 'A pause in rejections longer than this starts a new episode', unit: 'ms' },
    },
    events: ['busy-reply', 'send-attempt-failed', 'watermark', 'store-slow', 'broker-jstack', 'startup'],
  },

  create(ctx) {
    const threshold = Number(ctx.settings.waitTimeMillsInSendQueue);
    const gap = Number(ctx.settings.busyEpisodeGapMs);
    const attempts = new AttemptIndex();
    const hosts = new BrokerHosts(ctx.sources);
    const side = new BrokerSide();
    const groups = new Map<string, Group>();

    const keyOf = (name: string | null, addr: string | null) => {
      if (addr) return `a:${addr}`;
      if (name && hosts.alias.has(name)) return `a:${hosts.alias.get(name)}`;
      return name ? `n:${name}` : '?';
    };

    const record = (h: Hit) => {
      hosts.learn(h.name, h.addr);
      const key = keyOf(h.name, h.addr);
      let g = groups.get(key);
      if (!g) {
        g = { name: h.name, addr: h.addr, n: 0, bursts: [], extraBursts: 0, untimed: 0, hist: new Map(), minWait: null, maxWait: null, maxQueue: null, stalls: 0, clients: new Set(), episodes: [], first: h.ev, maxEv: h.ev, maxEvWait: h.wait ?? -1 };
        groups.set(key, g);
      }
      g.name ??= h.name;
      g.addr ??= h.addr;
      g.n++;
      g.clients.add(h.host);
      const stall = h.wait !== null && h.wait > threshold + STALL_MARGIN_MS;
      if (h.wait !== null) {
        g.hist.set(h.wait, (g.hist.get(h.wait) ?? 0) + 1);
        g.minWait = minN(g.minWait, h.wait);
        g.maxWait = maxN(g.maxWait, h.wait);
        if (h.wait > g.maxEvWait) (g.maxEv = h.ev), (g.maxEvWait = h.wait);
      }
      g.maxQueue = maxN(g.maxQueue, h.size);
      if (stall) g.stalls++;
      const ts = h.ev.ts;
      if (ts === null) {
        g.untimed++;
        return;
      }
      if (g.first.ts === null || ts < g.first.ts) g.first = h.ev;
      if (stall) addBurst(g, { start: ts, end: ts, n: 1, max: h.wait!, ev: h.ev });
      let ep: Episode | undefined;
      for (let i = g.episodes.length - 1; i >= 0 && !ep; i--) if (ts >= g.episodes[i].start - gap && ts <= g.episodes[i].end + gap) ep = g.episodes[i];
      if (ep) {
        if (ts < ep.start) ep.firstEv = h.ev;
        if (ts >= ep.end) ep.lastEv = h.ev;
        ep.start = Math.min(ep.start, ts);
        ep.end = Math.max(ep.end, ts);
        ep.n++;
        ep.minWait = minN(ep.minWait, h.wait);
        ep.maxWait = maxN(ep.maxWait, h.wait);
        ep.maxQueue = maxN(ep.maxQueue, h.size);
        if (stall) ep.stalls++;
        if ((h.wait ?? -1) > ep.repWait) (ep.rep = h.ev), (ep.repWait = h.wait ?? -1);
      } else {
        g.episodes.push({ start: ts, end: ts, n: 1, minWait: h.wait, maxWait: h.wait, stalls: stall ? 1 : 0, maxQueue: h.size, rep: h.ev, repWait: h.wait ?? -1, firstEv: h.ev, lastEv: h.ev });
      }
    };

    const dedup = new CrossLogDedup<Hit>(record);

    const kindOf = (minW: number | null, maxW: number | null): 'backlog' | 'stall' | 'backlog+stall' => {
      const line = threshold + STALL_MARGIN_MS;
      if (maxW === null || maxW <= line) return 'backlog';
      if (minW !== null && minW > line) return 'stall';
      return 'backlog+stall';
    };

    const report = (g: Group, onlyGroup: boolean) => {
      const episodes = coalesce(g.episodes, gap);
      const where = hosts.resolve(g.name, g.addr, onlyGroup);
      const joined = where && side.has(where.host) ? where.host : null;
      const win = (e: Episode): [number, number] => [e.start - 60000, e.end + 60000];
      const kinds = episodes.map((e) => kindOf(e.minWait, e.maxWait));
      const sideOf = (eps: Episode[]) => (joined ? side.over(joined, g.episodes.length ? eps.map(win) : null) : null);
      const sideAll = sideOf(episodes);
      const sideBacklog = sideOf(episodes.filter((_, i) => kinds[i] !== 'stall'));
      const p50 = histPercentile(g.hist, 50);
      const p99 = histPercentile(g.hist, 99);
      const overall = kindOf(g.minWait, g.maxWait);
      const hasStall = g.stalls > 0;
      const hasBacklog = g.n > g.stalls;
      const cv = clientVersions(ctx, g.clients);
      const bv = joined ? serverVersion(joined, ctx.sources) : 'unknown';
      const cbBug = rangeOverlaps(bv, '4.7.1', '4.9.2') !== false;
      const who = brokerLabel(g.name, g.addr, where ? `The broker on ${where.host}` : 'A broker (not named in the logs)');
      const subject: Subject = {};
      if (g.name) subject.broker = g.name;
      if (g.addr) subject.brokerAddr = g.addr;
      if (where) subject.host = where.host;

      // --- explanation ---
      const ex: string[] = [];
      ex.push(
        `${who} answered ${plural(g.n, 'send')} with SYSTEM_BUSY (code 2) [TIMEOUT_CLEAN_QUEUE]` +
          (g.maxWait === null ? '' : g.minWait === g.maxWait ? `, after ${g.n === 1 ? 'a wait' : 'waits'} of ${g.maxWait} ms in its send queue` : `, after waits in its send queue of ${g.minWait}-${g.maxWait} ms (p50 ${p50} ms, p99 ${p99} ms)`) +
          (g.maxQueue !== null ? ` with up to ${g.maxQueue} requests still queued` : '') +
          `, as seen by ${plural(g.clients.size, 'client host')}.`,
      );
      ex.push(
        `BrokerFastFailure's own thread looks at the HEAD of the send queue every 10 ms and rejects it once it has waited waitTimeMillsInSendQueue (${threshold} ms); worker threads never check a task's age. ` +
          `So waits of ${threshold}-${threshold + 10} ms mean a steady backlog (sends arrive faster than the send threads store them), while a wait far above that means the check itself did not run for that long: the broker JVM stalled (GC pause, CPU starvation)` +
          (cbBug ? ', or, on brokers 4.7.1-4.9.2, a CompletableFuture callback at the queue head stopped the check' : '') +
          '.',
      );
      const sideText = (sb: SideBucket | null): string => {
        if (!sb) return '';
        const bits: string[] = [];
        if (sb.wmSize || sb.wmSlow) bits.push(`watermark send queue up to ${sb.wmSize}, head age up to ${sb.wmSlow} ms`);
        if (sb.inLock) bits.push(`a put held the CommitLog lock ${sb.inLock} ms`);
        if (sb.store && sb.store !== sb.inLock) {
          bits.push(sb.storeEv && str(sb.storeEv, 'what') === 'pagecachert' ? `slowest puts in the ${sb.store} ms+ bucket of [PAGECACHERT]` : `put latency up to ${sb.store} ms`);
        }
        if (sb.jstack) bits.push(plural(sb.jstack, 'broker jstack dump'));
        return bits.length ? ` (broker: ${bits.join(', ')})` : '';
      };
      if (episodes.length) {
        const parts = episodes.map((e, i) => {
          const k = kinds[i];
          const after = i > 0 ? `, ${duration(e.start - episodes[i - 1].end)} after the previous one` : '';
          const from = clock(e.firstEv);
          const to = clock(e.lastEv);
          const when = from && to ? (from === to ? ` at ${from}` : ` ${from}-${to}`) : '';
          const what = k === 'backlog' ? 'steady overload (backlog)' : k === 'stall' ? 'broker stalls' : 'backlog with stalls';
          return (
            `${i === 0 ? 'Episode' : 'episode'} ${i + 1}${when} (${duration(e.end - e.start)}${after}): ${plural(e.n, 'rejection')}, ${e.minWait === e.maxWait ? `wait ${e.maxWait} ms` : `waits ${e.minWait}-${e.maxWait} ms`}` +
            `${e.maxQueue !== null ? `, queue up to ${e.maxQueue}` : ''}: ${what}${sideText(sideOf([e]))}`
          );
        });
        ex.push(`${parts.join('; ')}.`);
      } else if (sideAll) ex.push(`No rejection has a time${sideText(sideAll)}.`);
      const bursts = [...g.bursts].sort((a, b) => a.start - b.start);
      const nBursts = bursts.length + g.extraBursts;
      if (hasStall) {
        const listed = bursts.slice(0, 6).map((b) => `${clock(b.ev) ? `at ${clock(b.ev)} ` : ''}up to ${b.max} ms (${plural(b.n, 'rejection')})`);
        ex.push(
          `${plural(g.stalls, 'rejection')} waited more than ${threshold + STALL_MARGIN_MS} ms (up to ${g.maxWait} ms): the broker stalled, it did not just fall behind` +
            (nBursts ? `; ${plural(nBursts, 'stall')}: ${listed.join(', ')}${nBursts > listed.length ? ', ...' : ''}` : '') +
            '. Every request queued across a pause is rejected as soon as the broker resumes, with a wait about as long as the pause.',
        );
      }
      if (where?.how === 'only') ex.push(`${where.host} is the only broker host given, so its logs are taken as this broker's.`);
      if (hasStall && sideAll && sideAll.inLock && g.maxWait !== null && sideAll.inLock >= 0.8 * (g.maxWait - threshold) && sideAll.inLock < 1000) {
        ex.push(
          `A put held the CommitLog lock about as long as the longest wait (${sideAll.inLock} ms): had only the disk been slow, the cleaner would still have rejected requests at ${threshold}-${threshold + 10} ms, so the whole process stopped: a JVM-wide pause (GC) or CPU starvation.`,
        );
      }
      if (versionSide(cv, '5.3.0') === 'below') ex.push(`The clients (${cv}) do not retry SYSTEM_BUSY (it joins retryResponseCodes in 5.3.0), so each rejection went straight to the application.`);

      // --- advice by cause ---
      const adv: string[] = [];
      if (hasStall) {
        adv.push(
          `Find what froze the broker at the stall times: GC logs (long stop-the-world pauses), CPU starvation or steal on the host, swapping${versionSide(bv, '5.0.0') === 'atLeast' ? '; the "broker jstack" dumps in broker.log show the threads' : ''}.`,
        );
        if (cbBug) adv.push('If the broker runs 4.7.1-4.9.2, upgrade it to 4.9.3 or later: there, callbacks in the send queue block BrokerFastFailure and zero the watermark head age.');
      }
      if (sideAll && sideAll.inLock >= 1000) {
        adv.push(`A put held the CommitLog lock for ${sideAll.inLock} ms (page cache busy, see pagecache-busy): check disk latency and free memory for the page cache; consider transientStorePoolEnable=true.`);
      } else if (hasBacklog && sideBacklog && sideBacklog.store >= 500) {
        adv.push(`Puts were slow during the backlog (up to ${sideBacklog.store} ms in store.log): check the disk (iowait, utilisation, other I/O on the same device) before adding load.`);
      }
      if (hasBacklog) adv.push('Spread the send load: give the topic write queues on more brokers (or add brokers) so no single send queue backs up, and smooth bursty producers.');
      adv.push(`Do not just raise waitTimeMillsInSendQueue: requests would only wait longer in the same queue, and the client's send budget (sendMsgTimeout, 3000 ms) still runs out.`);
      if (versionSide(cv, '5.3.0') !== 'atLeast') adv.push('Catch MQBrokerException code 2 in the application and retry later, or move the producers to client 5.3.0+, which retries SYSTEM_BUSY on another broker.');

      // --- evidence: the longest wait, the first rejection, the broker side, then the other episodes ---
      const evidence: RmqEvent[] = [];
      const push = (e: RmqEvent | null | undefined) => {
        if (e && !evidence.includes(e)) evidence.push(e);
      };
      push(g.maxEv);
      push(g.first);
      if (sideAll) {
        push(sideAll.inLockEv ?? sideAll.storeEv);
        push(sideAll.wmSlow >= threshold ? sideAll.wmSlowEv : sideAll.wmSizeEv);
        push(sideAll.jstackEv);
      }
      for (const e of episodes) push(e.rep);
      if (sideAll) push(sideAll.wmSizeEv);

      const metrics: Record<string, MetricValue> = {
        rejections: g.n,
        maxWaitMs: g.maxWait,
        minWaitMs: g.minWait,
        p50WaitMs: p50,
        p99WaitMs: p99,
        maxQueueSize: g.maxQueue,
        thresholdMs: threshold,
        episodes: episodes.length,
        episodeKinds: kinds,
        cause: overall,
        stalls: g.stalls,
        stallBursts: nBursts,
        backlogRejections: g.n - g.stalls,
        clients: g.clients.size,
        clientVersion: cv,
        maxWatermarkQueue: sideAll && sideAll.wmSize ? sideAll.wmSize : null,
        maxWatermarkSlowMs: sideAll && sideAll.wmSlow ? sideAll.wmSlow : null,
        maxStoreCostMs: sideAll && sideAll.store ? sideAll.store : null,
        maxInLockMs: sideAll && sideAll.inLock ? sideAll.inLock : null,
        jstacks: sideAll ? sideAll.jstack : null,
        brokerVersion: joined ? bv : null,
      };
      const stallNote = !hasStall ? '' : g.stalls === g.n ? (g.n === 1 ? ', after a broker stall' : ', all after broker stalls') : `, ${g.stalls} after broker stalls`;
      const waits = g.maxWait === null ? '' : g.n === 1 ? `: waited ${g.maxWait} ms` : `: waits up to ${g.maxWait} ms`;
      ctx.report({
        title: `${who} rejected ${plural(g.n, 'send')} with [TIMEOUT_CLEAN_QUEUE]${waits} (threshold ${threshold} ms)${stallNote}`,
        start: episodes.length ? episodes[0].start : null,
        end: episodes.length ? episodes[episodes.length - 1].end : null,
        subject,
        metrics,
        evidence: evidence.slice(0, 5),
        explanation: ex.join(' '),
        advice: adv,
      });
    };

    return {
      'send-attempt-failed': (e) => {
        dedup.tick(e.ts);
        attempts.add(e);
      },
      'busy-reply': (e) => {
        if (str(e, 'reason') !== 'TIMEOUT_CLEAN_QUEUE') {
          dedup.tick(e.ts);
          return;
        }
        side.noteRejection(e.ts);
        const wait = num(e, 'waitMs');
        const size = num(e, 'queueSize');
        const addr = str(e, 'brokerAddr');
        let name: string | null = null;
        const own = attempts.sameRecord(e);
        if (own) name = str(own, 'brokerName');
        if (!name && !addr && wait !== null) {
          const quoted = attempts.recentWithCause(e.host, e.ts, `period in queue: ${wait}ms, size of queue: ${size}`);
          if (quoted) name = str(quoted, 'brokerName');
        }
        const hit: Hit = { ev: e, host: e.host, wait, size, name, addr };
        dedup.add(`${e.host}|${wait}|${size}`, e.ts, e.file, hit, (kept, dup) => {
          kept.name ??= dup.name;
          kept.addr ??= dup.addr;
          // Prefer the client log's record as evidence (it names the broker and the attempt).
          if (dup.ev.kind === 'client' && kept.ev.kind !== 'client') kept.ev = dup.ev;
        });
      },
      watermark: (e) => {
        dedup.tick(e.ts);
        side.prune(e.ts);
        side.watermark(e);
      },
      'store-slow': (e) => {
        side.prune(e.ts);
        side.storeSlow(e);
      },
      'broker-jstack': (e) => side.jstack(e),
      startup: (e) => hosts.startup(e),
      end() {
        dedup.flush();
        // Merge groups known only by name into the group of their address.
        for (const [key, g] of [...groups]) {
          if (!key.startsWith('n:') || !g.name) continue;
          const addr = hosts.alias.get(g.name);
          if (!addr) continue;
          const into = groups.get(`a:${addr}`);
          groups.delete(key);
          if (!into) {
            g.addr = addr;
            groups.set(`a:${addr}`, g);
            continue;
          }
          into.name ??= g.name;
          into.n += g.n;
          into.untimed += g.untimed;
          for (const [v, c] of g.hist) into.hist.set(v, (into.hist.get(v) ?? 0) + c);
          into.minWait = minN(into.minWait, g.minWait);
          into.maxWait = maxN(into.maxWait, g.maxWait);
          into.maxQueue = maxN(into.maxQueue, g.maxQueue);
          into.stalls += g.stalls;
          for (const c of g.clients) into.clients.add(c);
          into.episodes.push(...g.episodes);
          for (const b of g.bursts) addBurst(into, b);
          into.extraBursts += g.extraBursts;
          if (g.first.ts !== null && (into.first.ts === null || g.first.ts < into.first.ts)) into.first = g.first;
          if (g.maxEvWait > into.maxEvWait) (into.maxEv = g.maxEv), (into.maxEvWait = g.maxEvWait);
        }
        for (const g of groups.values()) {
          if (!g.name && g.addr) g.name = hosts.nameOf(g.addr);
        }
        const onlyGroup = groups.size === 1;
        for (const g of groups.values()) report(g, onlyGroup);
      },
    };
  },
};

export default rule;
