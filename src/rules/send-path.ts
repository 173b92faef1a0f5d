// Helpers shared by the send-path rules (broker-busy, pagecache-busy, send-timeout-budget,
// send-no-retry, retry-same-broker, disk-full): field access, version ranges, cross-log
// de-duplication, joining replies to send attempts, broker host maps and broker-side figures.

import type { RmqEvent } from '../parse/types.js';
import { clientVersionOf } from './versions.js';
import type { RuleContext, SourceInfo } from './types.js';
import { brokerDataIn } from './routing.js';


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
  /** name -> addr learned from replies, boot lines and routes (a route's master wins: a slave boots under its master's name). */
  readonly alias = new Map<string, string>();
  private readonly routed = new Set<string>();
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
    if (name && addr && !this.routed.has(name)) this.alias.set(name, addr);
  }

  /** A route the client logged: its masters' addresses (brokerId 0, MixAll.MASTER_ID), which busy replies come from. */
  route(e: RmqEvent): void {
    for (const [name, addr, id] of brokerDataIn(e.text)) {
      if (id !== '0' || this.routed.has(name)) continue;
      this.routed.add(name);
      this.alias.set(name, addr);
    }
  }

  learn(name: string | null, addr: string | null): void {
    if (name && addr && !this.alias.has(name)) this.alias.set(name, addr);
  }

  /** One key per broker: its address when known (directly or through its name), else its name. */
  key(name: string | null, addr: string | null): string {
    if (addr) return `a:${addr}`;
    if (name && this.alias.has(name)) return `a:${this.alias.get(name)}`;
    return name ? `n:${name}` : '?';
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

/** Merge broker-side figures into `out` (the larger figure and its line; jstack dumps add up). */
export function mergeSide(out: SideBucket, b: SideBucket): void {
  if (b.wmSize > out.wmSize) (out.wmSize = b.wmSize), (out.wmSizeEv = b.wmSizeEv);
  if (b.wmSlow > out.wmSlow) (out.wmSlow = b.wmSlow), (out.wmSlowEv = b.wmSlowEv);
  if (b.store > out.store) (out.store = b.store), (out.storeEv = b.storeEv);
  if (b.inLock > out.inLock) (out.inLock = b.inLock), (out.inLockEv = b.inLockEv);
  out.jstack += b.jstack;
  out.jstackEv ??= b.jstackEv;
}

export const emptySide = (): SideBucket => emptyBucket();

export class BrokerSide {
  private readonly hosts = new Map<string, Map<number, SideBucket>>();
  private pruned = 0;

  /**
   * Drop buckets more than three minutes old that no kept episode's window needs: `kept` gives
   * the minutes still wanted (bounded state; asked once a minute of the logs).
   */
  prune(now: number | null, kept: () => ReadonlySet<number>): void {
    if (now === null || now - this.pruned < 60000) return;
    this.pruned = now;
    const limit = Math.floor(now / 60000) - 3;
    const keep = kept();
    for (const m of this.hosts.values()) {
      for (const k of m.keys()) if (k >= 0 && k < limit && !keep.has(k)) m.delete(k);
    }
  }

  /** Hosts with broker-side figures. */
  get hostNames(): string[] {
    return [...this.hosts.keys()];
  }

  /** Buckets in memory (tests: the state stays bounded). */
  get buckets(): number {
    let n = 0;
    for (const m of this.hosts.values()) n += m.size;
    return n;
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
      if (b) mergeSide(out, b);
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

/** `broker-b (192.168.1.12:10911)`, `broker-b`, `192.168.1.12:10911`, or a fallback. */
export function brokerLabel(name: string | null, addr: string | null, fallback = 'a broker'): string {
  if (name && addr) return `${name} (${addr})`;
  return name ?? addr ?? fallback;
}


/** Unique, non-unknown client version ranges of hosts, joined. */
export function clientVersions(ctx: RuleContext, hosts: Iterable<string>): string {
  const r = [...new Set([...hosts].map((h) => ctx.clientVersion(h).range))];
  const known = r.filter((x) => x !== 'unknown');
  return known.length ? known.join(', ') : 'unknown';
}

