// A host's clock corrected: every time read from its files moved by a fixed amount (`--shift
// HOST=±DURATION`, or analyze's clock estimate, src/diagnosis/clocks.ts). The events are not parsed
// again: the view merges the same spill files with each source's times moved as they are read
// (SourceStream.shift), and moves what else the timeline holds of a source's times (its first and
// last record, a server log's activity), so that every later layer sees one corrected timeline.

import { globMatch } from '../ingest/glob.js';
import type { ActivityMark, SourceActivity } from '../parse/activity.js';
import type { SourceAccounting } from '../parse/types.js';
import { UsageError } from '../util/errors.js';
import { mergeStreams, type MergedEvent, type SourceStream } from './merge.js';
import type { RmqEvent } from '../parse/types.js';

/** What a timeline (build.ts) holds of its sources' times: the view moves these. */
export interface Shiftable {
  accounting: SourceAccounting[];
  streams: SourceStream[];
  spans?: Array<{ first: number | null; last: number | null; bytes: number }>;
  first: number | null;
  last: number | null;
  shiftMs?: number[];
  encoded(): Generator<MergedEvent>;
  events(): Generator<RmqEvent>;
}

/** A `--shift` value: the hosts it names (a host name or a glob over host names) and the milliseconds added. */
export interface HostShift {
  host: string;
  ms: number;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60000, min: 60000, h: 3600000 };

/**
 * `HOST=+3.2s`, `HOST=-8h`, `HOST=-1500ms`, `HOST=+1h30m`: the sign is required (which way is the
 * point); units ms, s, m (or min), h. A bare number is seconds.
 */
export function parseShift(value: string): HostShift {
  const eq = value.lastIndexOf('=');
  const host = eq > 0 ? value.slice(0, eq).trim() : '';
  const amount = eq > 0 ? value.slice(eq + 1).trim() : '';
  if (!host || !amount) throw new UsageError(`--shift ${value}: give HOST=±DURATION (e.g. app-order-01=+3.2s, app-order-01=-8h)`);
  const m = /^([+-])((?:\d+(?:\.\d+)?(?:ms|min|s|m|h)?)+)$/.exec(amount);
  if (!m) throw new UsageError(`--shift ${value}: ${amount} is no signed duration (e.g. +3.2s, -8h, -1500ms, +1h30m)`);
  let ms = 0;
  const parts = [...m[2].matchAll(/(\d+(?:\.\d+)?)(ms|min|s|m|h)?/g)];
  if (parts.length > 1 && parts.some((p) => p[2] === undefined)) throw new UsageError(`--shift ${value}: give each part of ${amount} its unit`);
  for (const p of parts) ms += Number(p[1]) * UNIT_MS[p[2] ?? 's'];
  ms = Math.round(ms);
  // Beyond a day it is no clock error but another date: --tz or the logs themselves are wrong.
  if (ms > 86_400_000) throw new UsageError(`--shift ${value}: at most 24h`);
  return { host, ms: m[1] === '-' ? -ms : ms };
}

/** Milliseconds added to each source's times: the first `--shift` whose host (or glob) matches the source's host. */
export function shiftsOf(t: Pick<Shiftable, 'accounting'>, shifts: readonly HostShift[]): number[] {
  return t.accounting.map((a) => shifts.find((s) => s.host === a.host || globMatch(s.host, a.host))?.ms ?? 0);
}

function movedMark(m: ActivityMark, ms: number): ActivityMark {
  return { ts: m.ts + ms, line: m.line };
}

function movedActivity(a: SourceActivity, ms: number): SourceActivity {
  const moved = (gaps: SourceActivity['gaps']) => gaps.map((g) => ({ from: movedMark(g.from, ms), to: movedMark(g.to, ms) }));
  return { ...a, first: movedMark(a.first, ms), last: movedMark(a.last, ms), gaps: moved(a.gaps), ...(a.shortGaps ? { shortGaps: moved(a.shortGaps) } : {}) };
}

/**
 * The timeline with each source's times moved by `byIndex[i]` ms (added to what the timeline
 * already moved). It reads the same spill files: close either (not both) when done; the view can be
 * read once, as any timeline.
 */
export function shiftTimeline<T extends Shiftable>(t: T, byIndex: readonly number[]): T {
  const before = t.shiftMs ?? t.accounting.map(() => 0);
  const shiftMs = before.map((ms, i) => ms + (byIndex[i] ?? 0));
  const add = (i: number) => byIndex[i] ?? 0;
  const streams = t.streams.map((s) => ({ ...s, shift: (s.shift ?? 0) + add(s.index) }));
  const accounting: SourceAccounting[] = t.accounting.map((a, i) => (a.activity && add(i) !== 0 ? { ...a, activity: movedActivity(a.activity, add(i)) } : a));
  const spans = t.spans?.map((s, i) => ({ ...s, first: s.first === null ? null : s.first + add(i), last: s.last === null ? null : s.last + add(i) }));
  let first: number | null = null;
  let last: number | null = null;
  if (spans) {
    for (const s of spans) {
      if (s.first !== null && (first === null || s.first < first)) first = s.first;
      if (s.last !== null && (last === null || s.last > last)) last = s.last;
    }
  } else {
    // Without spans the window moves as far as its sources moved at most (a bound, not exact).
    first = t.first === null ? null : t.first + Math.min(0, ...byIndex);
    last = t.last === null ? null : t.last + Math.max(0, ...byIndex);
  }
  let used = false;
  const encoded = () => {
    if (used) throw new Error('the timeline can be read once');
    used = true;
    return mergeStreams(streams);
  };
  return {
    ...t,
    accounting,
    spans,
    first,
    last,
    streams,
    shiftMs,
    encoded,
    *events() {
      for (const m of encoded()) yield m.event();
    },
  };
}
