// What every inference stage shares: the collected input, the record of where each value came from
// (provenance, defaults, notes), the times of the run and of a line, and the hosts by role. The
// stages (hosts, servers, clients, faults) read it and record into it; what they infer they return.

import { OLDEST_MODELLED, versionAtLeast } from '../../rocketmq/versions.js';
import { parseZone, type Zone } from '../../parse/time.js';
import type { RmqEvent } from '../../parse/types.js';
import { relativeTo } from '../../util/paths.js';
import type { Finding, SourceInfo } from '../../rules/types.js';
import type { ConsumerImpact } from '../../rules/incident.js';
import { SERVER_KINDS, type SourceKind } from '../../ingest/kinds.js';
import type { Collected } from '../collect.js';
import type { DefaultsMap, ProvenanceMap } from '../types.js';

/** Model time 0 is this long before the first line, so that every process runs when the window opens. */
export const LEAD_MS = 60000;
/** The run goes this long past the last line. */
export const MARGIN_MS = 60000;

export interface InferOptions {
  /** Zone of the client and application logs (the JVM zone they were read in). */
  zone: string;
  /** One line for the report: what was read. */
  source: string;
  /**
   * The rules' findings over the same logs, where the run has them (analyze's; replay runs
   * consumer-backlog beside its reading): what a rule recognised is asked of it, not recognised again.
   */
  findings?: readonly Finding[];
  /** The consumer groups' impact over the same logs (analyze's consumers), where the run has it. */
  consumers?: readonly ConsumerImpact[];
}

/** A value with the rule that gave it and the lines it read. */
export interface Named<T> {
  value: T;
  events: RmqEvent[];
  rule: string;
}

type Props = Map<string, { value: string; event: RmqEvent }>;

export interface InferContext {
  readonly c: Collected;
  readonly opts: InferOptions;
  readonly events: RmqEvent[];
  readonly provenance: ProvenanceMap;
  readonly defaults: DefaultsMap;
  readonly notes: string[];
  /** Records where the value at `path` came from: the rule and up to six distinct `file:line`. */
  prov(path: string, rule: string, events: readonly (RmqEvent | null | undefined)[]): void;
  /** Records that the value at `path` is a default, and why. */
  def(path: string, text: string): void;
  /** `file:line` of an event, relative to the inputs' common folder. */
  ref(e: RmqEvent): string;
  readonly outZone: Zone;
  /** Times of the first and last line. */
  readonly first: number;
  readonly last: number;
  /** Epoch time of model time 0. */
  readonly startEpochMs: number;
  /** Model time of an epoch time. */
  rel(ts: number): number;
  /** Whether the line's time is the start of a whole second (server logs, 4.3.0-4.7.1 fake millis). */
  coarse(e: RmqEvent): boolean;
  /** Best estimate of when the line was written: mid-second for whole-second layouts. */
  when(e: RmqEvent): number;
  /** Latest time it can have been written. */
  latest(e: RmqEvent): number;
  /** The kinds of log each host gave. */
  readonly roles: Map<string, Set<SourceKind>>;
  /** Hosts with a broker-side log, a namesrv.log, a rocketmq_client.log (sorted). */
  readonly brokerHosts: string[];
  readonly nsHosts: string[];
  readonly clientHosts: string[];
  readonly sourceInfo: SourceInfo[];
  /** The property dump (`key=value` at process start) of a host's server log of this kind. */
  propsOf(host: string, kind: SourceKind): Props;
}

export function inferContext(c: Collected, opts: InferOptions): InferContext {
  const provenance: ProvenanceMap = {};
  const defaults: DefaultsMap = {};
  const ref = (e: RmqEvent): string => `${relativeTo(e.file, c.base)}:${e.line}`;
  const first = c.first ?? 0;
  const last = c.last ?? first;
  const startEpochMs = Math.floor(first / 1000) * 1000 - LEAD_MS;

  // Which files print whole seconds (server logs, the 4.3.0-4.7.1 fake millis): their times are the
  // start of a second, the event happened within it.
  const wholeSeconds = new Map<string, boolean>();
  for (const e of c.events) {
    if (e.ts === null) continue;
    wholeSeconds.set(e.file, (wholeSeconds.get(e.file) ?? true) && e.ts % 1000 === 0);
  }
  for (const m of c.consumeStats) wholeSeconds.set(m.file, (wholeSeconds.get(m.file) ?? true) && m.whole);
  const kindOf = new Map(c.sources.map((s) => [s.path, s.kind]));
  const coarse = (e: RmqEvent): boolean => SERVER_KINDS.has(kindOf.get(e.file) ?? e.kind) || (wholeSeconds.get(e.file) ?? false);

  const roles = new Map<string, Set<SourceKind>>();
  for (const s of c.sources) {
    const set = roles.get(s.host) ?? new Set<SourceKind>();
    set.add(s.kind);
    roles.set(s.host, set);
  }
  const hasRole = (h: string, ...kinds: SourceKind[]): boolean => kinds.some((k) => roles.get(h)?.has(k) ?? false);

  return {
    c,
    opts,
    events: c.events,
    provenance,
    defaults,
    notes: [],
    prov(path, rule, events) {
      const seen = new Set<string>();
      const evidence: string[] = [];
      for (const e of events) {
        if (!e) continue;
        const r = ref(e);
        if (!seen.has(r) && evidence.length < 6) {
          seen.add(r);
          evidence.push(r);
        }
      }
      provenance[path] = { rule, evidence };
    },
    def(path, text) {
      defaults[path] = text;
    },
    ref,
    outZone: parseZone(opts.zone),
    first,
    last,
    startEpochMs,
    rel: (ts) => Math.round(ts - startEpochMs),
    coarse,
    when: (e) => e.ts! + (coarse(e) ? 500 : 0),
    latest: (e) => e.ts! + (coarse(e) ? 999 : 0),
    roles,
    brokerHosts: [...roles.keys()].filter((h) => hasRole(h, 'broker', 'remoting', 'store', 'watermark')).sort(),
    nsHosts: [...roles.keys()].filter((h) => hasRole(h, 'namesrv')).sort(),
    clientHosts: [...roles.keys()].filter((h) => hasRole(h, 'client')).sort(),
    sourceInfo: c.sources.map((s) => ({ path: s.path, host: s.host, kind: s.kind, versionHints: s.versionHints ?? [] })),
    propsOf: (host, kind) => c.props.get(`${host}|${kind}`) ?? new Map<string, { value: string; event: RmqEvent }>(),
  };
}

/** A pseudo event so that a whole file can be cited (line 1). */
export function fileRef(path: string): RmqEvent {
  return { ts: null, host: '', kind: 'unknown', file: path, line: 1, level: null, thread: null, logger: null, type: 'other', fields: {}, text: '', source: 0, seq: 0 };
}

/** The model runs releases from OLDEST_MODELLED: an older one runs as that. */
export const modelled = (v: string): string => (versionAtLeast(v, OLDEST_MODELLED) ? v : OLDEST_MODELLED);

export const ADDR = /^\d{1,3}(?:\.\d{1,3}){3}:\d{1,5}$/;
export const ipOf = (addr: string): string => addr.slice(0, addr.lastIndexOf(':'));
/** The host name a component gets when no log folder holds it. */
export const dashed = (ip: string): string => `host-${ip.replace(/\./g, '-')}`;
export const mod = (a: number, m: number): number => ((a % m) + m) % m;

export function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

/** Orders `ip:port` addresses numerically. */
export function cmpAddr(a: string, b: string): number {
  const pa = a.split(/[.:]/).map(Number);
  const pb = b.split(/[.:]/).map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

/** Splits time-ordered events where the gap exceeds `gapMs`. */
export function split(list: RmqEvent[], gapMs: number): RmqEvent[][] {
  const out: RmqEvent[][] = [];
  for (const e of list) {
    const cur = out[out.length - 1];
    if (cur && e.ts! - cur[cur.length - 1].ts! <= gapMs) cur.push(e);
    else out.push([e]);
  }
  return out;
}
