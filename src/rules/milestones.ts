// Milestones: the few moments of an incident worth one line each in a report's timeline (process
// starts and stops, a NameServer dropping a broker, a client switching NameServer or losing a broker
// from a route, the first and last busy reply of a broker, where each finding begins and ends).
// Collected in the same pass as the rules (src/rules/analyze.ts), from events already decoded for
// them; bounded whatever the size of the input.

import type { EventType, RmqEvent } from '../parse/types.js';
import { severityRank, type Finding, type Severity } from './types.js';
import { routeDelta, writableAfter, writableBefore } from '../parse/route-change.js';

/**
 * The moments of an incident, one name for each, whoever tells them: analyze's timeline of the
 * logs (TimelineMilestoneKind) and replay's comparison of a run with the logs (ComparedMilestone,
 * src/diagnosis/observe.ts) name the same moment the same way.
 */
const MILESTONE_KINDS = [
  'fault-start',
  'startup',
  'shutdown',
  'broker-expired',
  'broker-removed',
  /** A NameServer dropping a failed broker, either way (broker-expired or broker-removed): what a run is compared on. */
  'namesrv-removal',
  'first-failure',
  'namesrv-switch',
  'route-lost',
  'route-back',
  'busy-first',
  'busy-last',
  'outage-end',
  'finding-start',
  'finding-end',
] as const;
type MilestoneKind = (typeof MILESTONE_KINDS)[number];

/** The moments replay compares, simulated against observed (docs/replay.md). */
export const COMPARED_MILESTONES = ['fault-start', 'namesrv-removal', 'first-failure', 'namesrv-switch', 'route-lost', 'route-back', 'outage-end'] as const satisfies readonly MilestoneKind[];
export type ComparedMilestone = (typeof COMPARED_MILESTONES)[number];

/** The moments of analyze's timeline: what one line of the logs shows (a fault's start and a client's outage are the diagnosis's inference). */
export type TimelineMilestoneKind = Exclude<MilestoneKind, 'fault-start' | 'namesrv-removal' | 'first-failure' | 'outage-end'>;

export interface Milestone {
  /** Epoch ms; null when the record carries no date. */
  time: number | null;
  host: string;
  kind: TimelineMilestoneKind;
  /** One line, generated (names and addresses come from the logs: escape before printing). */
  what: string;
  /** Where the (first merged) line was logged; null for findings. */
  file: string | null;
  line: number | null;
  /** Rule id, for finding milestones. */
  rule?: string;
}

interface MilestoneList {
  items: Milestone[];
  /** Milestones left out to keep the list short. */
  omitted: number;
}

/** At most this many milestones are kept. */
export const MAX_MILESTONES = 60;

/** Event types the collector reads. */
export const MILESTONE_EVENT_TYPES: readonly EventType[] = [
  'startup',
  'shutdown',
  'broker-expired',
  'broker-removed',
  'namesrv-chosen',
  'route-changed',
  'busy-reply',
];

/** Same kind, same host and same subject within this window: one milestone. */
const MERGE_MS = 1000;
/** A NameServer's expiry or removal of a broker is told again only after this long without one. */
const BROKER_REARM_MS = 5 * 60_000;
/** A start or stop of the same process is told again only after this long. */
const PROCESS_REARM_MS = 60_000;
/** Per kind, the first HEAD and the last TAIL milestones are kept while collecting. */
const HEAD = MAX_MILESTONES;
const TAIL = 20;

/** Lower tiers are kept first when there are too many milestones. */
const TIER: Record<TimelineMilestoneKind, number> = {
  'finding-start': 0,
  'finding-end': 0,
  startup: 1,
  shutdown: 1,
  'broker-expired': 1,
  'namesrv-switch': 1,
  'busy-first': 1,
  'busy-last': 1,
  'route-lost': 2,
  'route-back': 2,
  'broker-removed': 3,
};

interface Draft {
  kind: TimelineMilestoneKind;
  time: number | null;
  /** time, or the last time seen before it (records without a date sort beside their neighbours). */
  key: number;
  order: number;
  host: string;
  file: string | null;
  line: number | null;
  /** Merge key beyond kind and host. */
  group: string;
  items: string[];
  notes: string[];
  rule?: string;
}

interface KindStore {
  head: Draft[];
  tail: Draft[];
  dropped: number;
}

interface BusyTrack {
  first: RmqEvent;
  last: RmqEvent;
  firstKey: number;
  lastKey: number;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export class MilestoneCollector {
  readonly types: ReadonlySet<EventType> = new Set(MILESTONE_EVENT_TYPES);
  private readonly stores = new Map<TimelineMilestoneKind, KindStore>();
  private readonly open = new Map<string, Draft>();
  private readonly lastTold = new Map<string, number>();
  private readonly routeLeft = new Map<string, Set<string>>();
  private readonly busy = new Map<string, BusyTrack>();
  private lastTs = -Infinity;
  private order = 0;

  visit(e: RmqEvent): void {
    if (e.ts !== null && e.ts > this.lastTs) this.lastTs = e.ts;
    switch (e.type) {
      case 'startup':
      case 'shutdown':
        return this.process(e);
      case 'broker-expired':
      case 'broker-removed':
        return this.brokerGone(e);
      case 'namesrv-chosen':
        return this.namesrv(e);
      case 'route-changed':
        return this.route(e);
      case 'busy-reply':
        return this.busyReply(e);
      default:
    }
  }

  /** The milestones, with the findings' starts and ends (findings below `show` add none). */
  finish(findings: readonly Finding[] = [], show: Severity = 'info'): MilestoneList {
    for (const [broker, b] of this.busy) {
      const name = broker.startsWith('?@') ? `a broker (address not logged, seen by ${b.first.host})` : broker;
      const reason = str(b.first.fields.reason);
      const wait = typeof b.first.fields.waitMs === 'number' ? `, waited ${b.first.fields.waitMs} ms` : '';
      this.store(this.draftOf('busy-first', b.first, b.firstKey, '', [name], reason ? [`${reason}${wait}`] : []));
      if (b.last !== b.first) this.store(this.draftOf('busy-last', b.last, b.lastKey, '', [name], []));
    }
    const limit = severityRank(show);
    for (const f of findings) {
      if (severityRank(f.severity) > limit || f.start === null) continue;
      const host = f.subject.host ?? f.subject.client ?? f.subject.broker ?? f.subject.brokerAddr ?? f.subject.namesrvAddr ?? '';
      const span = f.end !== null && f.end !== f.start;
      const base = { host, file: null, line: null, group: `${f.rule}|${f.start}`, items: [f.title], rule: f.rule };
      this.store({ ...base, kind: 'finding-start', time: f.start, key: f.start, order: this.order++, notes: span ? [] : ['instant'] });
      if (span) this.store({ ...base, kind: 'finding-end', time: f.end, key: f.end!, order: this.order++, notes: [] });
    }

    const all: Draft[] = [];
    let omitted = 0;
    for (const s of this.stores.values()) {
      all.push(...s.head, ...s.tail);
      omitted += s.dropped;
    }
    let kept = all;
    if (all.length > MAX_MILESTONES) {
      kept = capByTier(all, MAX_MILESTONES);
      omitted += all.length - kept.length;
    }
    kept.sort((a, b) => a.key - b.key || a.order - b.order);
    return { items: kept.map(toMilestone), omitted };
  }

  // --- per event type -------------------------------------------------------------------------

  private process(e: RmqEvent): void {
    const role = str(e.fields.role);
    if (role !== 'broker' && role !== 'namesrv') return;
    const kind: MilestoneKind = e.type === 'startup' ? 'startup' : 'shutdown';
    if (!this.firstIn(`${kind}|${e.host}|${role}`, e, PROCESS_REARM_MS)) return;
    let who = role === 'namesrv' ? 'NameServer' : 'broker';
    if (role === 'broker') {
      const name = str(e.fields.brokerName);
      const addr = str(e.fields.brokerAddr);
      if (name) who += ` ${name}`;
      if (addr) who += name ? ` (${addr})` : ` ${addr}`;
    }
    this.add(kind, e, '', [who], []);
  }

  private brokerGone(e: RmqEvent): void {
    const addr = str(e.fields.brokerAddr);
    const name = e.type === 'broker-removed' ? str(e.fields.brokerName) : null;
    const broker = addr ?? name;
    if (!broker) return;
    const kind: MilestoneKind = e.type === 'broker-expired' ? 'broker-expired' : 'broker-removed';
    if (!this.firstIn(`${kind}|${e.host}|${broker}`, e, BROKER_REARM_MS)) return;
    let note: string;
    if (kind === 'broker-expired') {
      const idle = typeof e.fields.idleMs === 'number' ? e.fields.idleMs : null;
      note = idle !== null ? `no registration for over ${Math.round(idle / 1000)} s` : 'no registration';
    } else note = str(e.fields.reason) ?? 'removed';
    this.add(kind, e, '', [broker], [note]);
  }

  private namesrv(e: RmqEvent): void {
    const old = str(e.fields.old);
    if (old === null) return;
    const now = str(e.fields.new) ?? '?';
    this.add('namesrv-switch', e, '', [`${old} → ${now}`], []);
  }

  private route(e: RmqEvent): void {
    const before = writableBefore(e);
    const after = writableAfter(e);
    if (before === null || after === null) return;
    // Most route changes keep the broker set (queue counts, a new master address): no allocation.
    let same = before.length === after.length;
    if (same) for (const b of before) if (!after.includes(b)) same = false;
    if (same) return;
    const topic = str(e.fields.topic) ?? '?';
    const routeKey = `${e.host}|${topic}`;
    let left = this.routeLeft.get(routeKey);
    const { lost, gained: added } = routeDelta(e);
    if (lost.length) {
      if (!left) this.routeLeft.set(routeKey, (left = new Set()));
      for (const b of lost) left.add(b);
      this.add('route-lost', e, lost.join(', '), [topic], []);
    }
    // The first route of a topic (from nothing) is no event; a broker coming back is.
    const back = added.filter((b) => before.length > 0 || left?.has(b));
    if (back.length) {
      const returned = back.filter((b) => left?.has(b));
      for (const b of back) left?.delete(b);
      this.add('route-back', e, back.join(', '), [topic], [returned.length === back.length ? 'back' : 'added']);
    }
  }

  private busyReply(e: RmqEvent): void {
    const broker = str(e.fields.brokerAddr) ?? `?@${e.host}`;
    const key = e.ts ?? this.lastTs;
    const b = this.busy.get(broker);
    if (!b) this.busy.set(broker, { first: e, last: e, firstKey: key, lastKey: key });
    else {
      b.last = e;
      b.lastKey = key;
    }
  }

  // --- collecting -----------------------------------------------------------------------------

  /** True when `key` was not told within `rearmMs` before this event (then it is told now). */
  private firstIn(key: string, e: RmqEvent, rearmMs: number): boolean {
    const t = e.ts ?? this.lastTs;
    const prev = this.lastTold.get(key);
    this.lastTold.set(key, t);
    return prev === undefined || !(t - prev < rearmMs);
  }

  private draftOf(kind: TimelineMilestoneKind, e: RmqEvent, key: number, group: string, items: string[], notes: string[]): Draft {
    return { kind, time: e.ts, key, order: this.order++, host: e.host, file: e.file, line: e.line, group, items, notes };
  }

  /** Merge into an open milestone of the same kind, host and subject within MERGE_MS, or start one. */
  private add(kind: TimelineMilestoneKind, e: RmqEvent, group: string, items: string[], notes: string[]): void {
    const key = e.ts ?? this.lastTs;
    const mergeKey = `${kind}|${e.host}|${group}`;
    const open = this.open.get(mergeKey);
    if (open && key - open.key <= MERGE_MS) {
      for (const i of items) if (!open.items.includes(i)) open.items.push(i);
      for (const n of notes) if (!open.notes.includes(n)) open.notes.push(n);
      return;
    }
    const d = this.draftOf(kind, e, key, group, items, notes);
    this.open.set(mergeKey, d);
    this.store(d);
  }

  private store(d: Draft): void {
    let s = this.stores.get(d.kind);
    if (!s) this.stores.set(d.kind, (s = { head: [], tail: [], dropped: 0 }));
    if (s.head.length < HEAD) {
      s.head.push(d);
      return;
    }
    // Later merges may still add items to a kept draft; a dropped one is only counted.
    s.tail.push(d);
    if (s.tail.length > TAIL) {
      s.tail.shift();
      s.dropped++;
    }
  }
}

/** Keep whole tiers while they fit; from the tier that does not, keep evenly spaced items (first and last included). */
function capByTier(all: Draft[], max: number): Draft[] {
  const tiers = new Map<number, Draft[]>();
  for (const d of all) {
    const t = TIER[d.kind];
    let list = tiers.get(t);
    if (!list) tiers.set(t, (list = []));
    list.push(d);
  }
  const kept: Draft[] = [];
  for (const t of [...tiers.keys()].sort((a, b) => a - b)) {
    const list = tiers.get(t)!.sort((a, b) => a.key - b.key || a.order - b.order);
    const room = max - kept.length;
    if (room <= 0) break;
    if (list.length <= room) {
      kept.push(...list);
      continue;
    }
    if (room === 1) {
      kept.push(list[0]);
      break;
    }
    for (let i = 0; i < room; i++) kept.push(list[Math.round((i * (list.length - 1)) / (room - 1))]);
    break;
  }
  return kept;
}

function toMilestone(d: Draft): Milestone {
  const m: Milestone = { time: d.time, host: d.host, kind: d.kind, what: whatOf(d), file: d.file, line: d.line };
  if (d.rule !== undefined) m.rule = d.rule;
  return m;
}

function whatOf(d: Draft): string {
  const items = d.items.join(', ');
  const notes = d.notes.length ? ` (${d.notes.join(', ')})` : '';
  switch (d.kind) {
    case 'startup':
      return `${items} started`;
    case 'shutdown':
      return `${items} shutting down`;
    case 'broker-expired':
      return `NameServer expired broker ${items}${notes}`;
    case 'broker-removed':
      return `NameServer removed broker ${items}${notes}`;
    case 'namesrv-switch':
      return `client switched NameServer ${items}`;
    case 'route-lost':
      return `route of ${items} lost ${d.group}`;
    case 'route-back':
      return `route of ${items} ${d.notes.includes('added') ? 'gained' : 'regained'} ${d.group}`;
    case 'busy-first':
      return `first busy reply from ${items}${notes}`;
    case 'busy-last':
      return `last busy reply from ${items}`;
    case 'finding-start':
      return d.notes.includes('instant') ? `${d.rule}: ${items}` : `${d.rule} begins: ${items}`;
    case 'finding-end':
      return `${d.rule} ends`;
  }
}
