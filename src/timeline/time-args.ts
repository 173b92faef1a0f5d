// `--since` / `--until` values: ISO-8601 (`2024-05-20T14:42:00+08:00`), a local date-time in the output
// zone (`2024-05-20 14:42`, seconds and millis optional), or a time of day (`14:42:10`) on the date
// the timeline starts (in the output zone).

import type { Zone } from '../parse/time.js';

export class TimeArgError extends Error {}

const FULL = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,3}))?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,3}))?)?$/;

export function parseTimeArg(value: string, zone: Zone, anchor: number | null): number {
  const v = value.trim();
  let m = FULL.exec(v);
  if (m) {
    const ms = m[7] ? Number(m[7].padEnd(3, '0')) : 0;
    const fields = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0), ms] as const;
    if (m[8]) {
      const off = m[8].toUpperCase() === 'Z' ? 0 : offsetMinutes(m[8]);
      return Date.UTC(fields[0], fields[1] - 1, fields[2], fields[3], fields[4], fields[5], fields[6]) - off * 60000;
    }
    return zone.toUtc(...fields);
  }
  m = DATE.exec(v);
  if (m) return zone.toUtc(Number(m[1]), Number(m[2]), Number(m[3]), 0, 0, 0, 0);
  m = TIME.exec(v);
  if (m) {
    if (anchor === null) throw new TimeArgError(`"${value}" has no date and the inputs have no dated records to take one from`);
    const local = new Date(anchor + zone.offsetAt(anchor) * 60000);
    return zone.toUtc(
      local.getUTCFullYear(),
      local.getUTCMonth() + 1,
      local.getUTCDate(),
      Number(m[1]),
      Number(m[2]),
      Number(m[3] ?? 0),
      m[4] ? Number(m[4].padEnd(3, '0')) : 0,
    );
  }
  throw new TimeArgError(`cannot read "${value}" as a time (use 2024-05-20T14:42:00+08:00, "2024-05-20 14:42" or 14:42:10)`);
}

function offsetMinutes(s: string): number {
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(s)!;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}
