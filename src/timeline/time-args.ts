// Times given on the command line (`--since`, `--until`), the same in every command:
//
// - ISO-8601 with a zone: `2024-05-20T14:42:00+08:00`, `2024-05-20T06:42Z` (seconds and millis optional);
// - a local date-time or a date in the output zone: `2024-05-20 14:42`, `2024-05-20T14:42:10.5`, `2024-05-20`;
// - a time of day in the output zone: `14:42`, `14:42:10`, `14:42:10.250`, on the first day of the
//   window, or on the next day when it falls before the window's start and the window reaches it
//   (a window across midnight);
// - a time relative to the window: `+5m` or `5m` from its start, `-10m` before its end; units
//   `ms`, `s`, `m` (or `min`), `h`, `d`, combinable (`1h30m`).
//
// What the window is belongs to the command (events: the first and last record; replay: the run's
// start and the end of the logs). Values are checked when the command line is read, before any input
// is (an impossible time such as `25:99` or `2024-02-30` is a usage error), and resolved once the
// window is known.

import type { Zone } from '../parse/time.js';

export class TimeArgError extends Error {}

type Clock = { h: number; mi: number; s: number; ms: number };

export type TimeSpec =
  | { kind: 'instant'; utcMs: number }
  | { kind: 'local'; y: number; mo: number; d: number; clock: Clock }
  | { kind: 'clock'; clock: Clock }
  | { kind: 'relative'; from: 'start' | 'end'; ms: number };

/** The span a relative time or a time of day is read against (epoch ms; null when unknown). */
export interface TimeWindow {
  first: number | null;
  last: number | null;
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,3}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;
const CLOCK = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,3}))?)?$/;
const RELATIVE = /^([+-]?)((?:\d+(?:\.\d+)?\s*(?:ms|s|sec|m|min|h|d)\s*)+)$/i;
const PART = /(\d+(?:\.\d+)?)\s*(ms|s|sec|m|min|h|d)/gi;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, sec: 1000, m: 60000, min: 60000, h: 3600000, d: 86400000 };

const HELP = 'use 14:42, 14:42:10.250, 2024-05-20 14:42, 2024-05-20T14:42:00+08:00, +5m (from the start) or -10m (before the end)';

function clockOf(h: string, mi: string, s: string | undefined, ms: string | undefined, value: string): Clock {
  const c = { h: Number(h), mi: Number(mi), s: Number(s ?? 0), ms: ms ? Number(ms.padEnd(3, '0')) : 0 };
  if (c.h > 23) throw new TimeArgError(`"${value}" is not a time: hour ${h} (00-23)`);
  if (c.mi > 59) throw new TimeArgError(`"${value}" is not a time: minute ${mi} (00-59)`);
  if (c.s > 59) throw new TimeArgError(`"${value}" is not a time: second ${s} (00-59)`);
  return c;
}

function daysIn(y: number, mo: number): number {
  return new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

/** Reads a time value; throws TimeArgError (saying what is wrong) for an impossible or unreadable one. */
export function parseTimeSpec(value: string): TimeSpec {
  const v = value.trim();
  let m = DATE_TIME.exec(v);
  if (m) {
    const y = Number(m[1]);
    const mo = Number(m[2]);
    const d = Number(m[3]);
    if (mo < 1 || mo > 12) throw new TimeArgError(`"${value}" is not a date: month ${m[2]} (01-12)`);
    if (d < 1 || d > daysIn(y, mo)) throw new TimeArgError(`"${value}" is not a date: ${y}-${m[2]} has ${daysIn(y, mo)} days`);
    const clock = m[4] !== undefined ? clockOf(m[4], m[5], m[6], m[7], value) : { h: 0, mi: 0, s: 0, ms: 0 };
    if (!m[8]) return { kind: 'local', y, mo, d, clock };
    const off = m[8].toUpperCase() === 'Z' ? 0 : offsetMinutes(m[8], value);
    return { kind: 'instant', utcMs: Date.UTC(y, mo - 1, d, clock.h, clock.mi, clock.s, clock.ms) - off * 60000 };
  }
  m = CLOCK.exec(v);
  if (m) return { kind: 'clock', clock: clockOf(m[1], m[2], m[3], m[4], value) };
  m = RELATIVE.exec(v);
  if (m) {
    let ms = 0;
    for (const p of m[2].matchAll(PART)) ms += Number(p[1]) * UNIT_MS[p[2].toLowerCase()];
    return { kind: 'relative', from: m[1] === '-' ? 'end' : 'start', ms: Math.round(ms) };
  }
  throw new TimeArgError(`cannot read "${value}" as a time (${HELP})`);
}

function offsetMinutes(s: string, value: string): number {
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(s)!;
  const h = Number(m[2]);
  const mi = Number(m[3]);
  if (h > 14 || mi > 59) throw new TimeArgError(`"${value}" has no such zone offset: ${s} (-14:00 to +14:00)`);
  return (m[1] === '-' ? -1 : 1) * (h * 60 + mi);
}

/** Epoch ms of a time value in the output zone, against the window. */
export function resolveTime(spec: TimeSpec, value: string, zone: Zone, w: TimeWindow): number {
  switch (spec.kind) {
    case 'instant':
      return spec.utcMs;
    case 'local':
      return zone.toUtc(spec.y, spec.mo, spec.d, spec.clock.h, spec.clock.mi, spec.clock.s, spec.clock.ms);
    case 'relative': {
      const base = spec.from === 'start' ? w.first : w.last;
      if (base === null) throw new TimeArgError(`"${value}" counts from the ${spec.from} of the logs, and they have no dated record`);
      return spec.from === 'start' ? base + spec.ms : base - spec.ms;
    }
    case 'clock': {
      if (w.first === null) throw new TimeArgError(`"${value}" has no date and the inputs have no dated record to take one from`);
      const at = (dayOffset: number) => {
        const local = new Date(w.first! + zone.offsetAt(w.first!) * 60000 + dayOffset * 86400000);
        const c = spec.clock;
        return zone.toUtc(local.getUTCFullYear(), local.getUTCMonth() + 1, local.getUTCDate(), c.h, c.mi, c.s, c.ms);
      };
      const first = at(0);
      if (first >= w.first || w.last === null) return first;
      // Before the start on the first day: the next day, when the window goes past midnight to it.
      const next = at(1);
      return next <= w.last ? next : first;
    }
  }
}

/** Reads and resolves in one step (for values known only once the window is). */
export function parseTimeArg(value: string, zone: Zone, w: TimeWindow): number {
  return resolveTime(parseTimeSpec(value), value, zone, w);
}
