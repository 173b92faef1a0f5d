// Time zones and timestamp fields. RocketMQ never prints a zone: server layouts and the 5.x client
// layout are fixed at GMT+8 by their logback pattern; the 4.3-5.0 client uses the JVM zone and
// applications use theirs. A Zone turns local wall-clock fields into epoch milliseconds.

export class ZoneError extends Error {}

export interface Zone {
  /** As the user wrote it, normalised: `+08:00`, `UTC`, `Asia/Shanghai`. */
  readonly name: string;
  /** Offset from UTC in minutes at the given UTC instant. */
  offsetAt(utcMs: number): number;
  /** Epoch ms for local wall-clock fields in this zone. */
  toUtc(y: number, mo: number, d: number, h: number, mi: number, s: number, ms: number): number;
}

class FixedZone implements Zone {
  private readonly offsetMs: number;
  constructor(
    readonly name: string,
    private readonly offsetMin: number,
  ) {
    this.offsetMs = offsetMin * 60000;
  }
  offsetAt(): number {
    return this.offsetMin;
  }
  toUtc(y: number, mo: number, d: number, h: number, mi: number, s: number, ms: number): number {
    return Date.UTC(y, mo - 1, d, h, mi, s, ms) - this.offsetMs;
  }
}

class IanaZone implements Zone {
  private readonly fmt: Intl.DateTimeFormat;
  // Offsets change at most a few times a year: cache by UTC hour.
  private readonly cache = new Map<number, number>();
  constructor(readonly name: string) {
    this.fmt = new Intl.DateTimeFormat('en-US', {
      timeZone: name,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
  }
  offsetAt(utcMs: number): number {
    const hour = Math.floor(utcMs / 3600000);
    let off = this.cache.get(hour);
    if (off === undefined) {
      const parts: Record<string, number> = {};
      for (const p of this.fmt.formatToParts(new Date(hour * 3600000))) {
        if (p.type !== 'literal') parts[p.type] = Number(p.value);
      }
      const local = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
      off = Math.round((local - hour * 3600000) / 60000);
      this.cache.set(hour, off);
    }
    return off;
  }
  toUtc(y: number, mo: number, d: number, h: number, mi: number, s: number, ms: number): number {
    const local = Date.UTC(y, mo - 1, d, h, mi, s, ms);
    // Two steps settle the offset for all but the skipped/repeated hour of a DST change.
    let utc = local - this.offsetAt(local) * 60000;
    utc = local - this.offsetAt(utc) * 60000;
    return utc;
  }
}

const zoneCache = new Map<string, Zone>();

/**
 * Parse a zone: `+08:00`, `+0800`, `+8`, `-05:30`, `Z`, `UTC`, `GMT`, `GMT+8`, `UTC-3`, or an IANA name
 * (`Asia/Shanghai`). Throws ZoneError with a clear message otherwise.
 */
export function parseZone(spec: string): Zone {
  const key = spec.trim();
  const hit = zoneCache.get(key);
  if (hit) return hit;
  const zone = parseZoneUncached(key);
  zoneCache.set(key, zone);
  return zone;
}

function parseZoneUncached(spec: string): Zone {
  if (/^(z|utc|gmt)$/i.test(spec)) return new FixedZone('+00:00', 0);
  const m = /^(?:utc|gmt)?([+-])(\d{1,2})(?::?(\d{2}))?$/i.exec(spec);
  if (m) {
    const h = Number(m[2]);
    const mi = m[3] ? Number(m[3]) : 0;
    if (h > 14 || mi > 59) throw new ZoneError(`time zone offset out of range: ${spec}`);
    const off = (m[1] === '-' ? -1 : 1) * (h * 60 + mi);
    return new FixedZone(formatOffset(off), off);
  }
  if (/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)+$/.test(spec)) {
    try {
      return new IanaZone(new Intl.DateTimeFormat('en-US', { timeZone: spec }).resolvedOptions().timeZone);
    } catch {
      throw new ZoneError(`unknown time zone: ${spec}`);
    }
  }
  throw new ZoneError(`unknown time zone: ${spec} (use an offset like +08:00, UTC, or a name like Asia/Shanghai)`);
}

function formatOffset(offsetMin: number): string {
  const sign = offsetMin < 0 ? '-' : '+';
  const a = Math.abs(offsetMin);
  return `${sign}${pad2(Math.floor(a / 60))}:${pad2(a % 60)}`;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

function pad3(n: number): string {
  return n < 10 ? `00${n}` : n < 100 ? `0${n}` : String(n);
}

/** ISO-8601 with offset in the given zone, with milliseconds: 2024-05-20T14:03:07.000+08:00 */
export function formatIso(utcMs: number, zone: Zone): string {
  return bySecond(ISO_SECOND, utcMs, zone, 'T', true);
}

/** Short form for tables: `2024-05-20 14:03:07.000` in the zone (the zone is said once in the header). */
export function formatShort(utcMs: number, zone: Zone): string {
  return bySecond(SHORT_SECOND, utcMs, zone, ' ', false);
}

/** The text of the second a format made last, around the place of its millis. */
interface SecondText {
  sec: number;
  zone: Zone | null;
  head: string;
  tail: string;
}
const ISO_SECOND: SecondText = { sec: NaN, zone: null, head: '', tail: '' };
const SHORT_SECOND: SecondText = { sec: NaN, zone: null, head: '', tail: '' };

/**
 * wallText through the second it made last: callers format events in time order, most in the
 * second of the one before (a zone changes its offset on a whole second), so a whole millisecond
 * takes that second's text with its millis put in.
 */
function bySecond(m: SecondText, utcMs: number, zone: Zone, sep: string, withOffset: boolean): string {
  if (!Number.isInteger(utcMs)) return wallText(utcMs, zone, sep, withOffset);
  const sec = Math.floor(utcMs / 1000);
  if (sec !== m.sec || zone !== m.zone) {
    const text = wallText(sec * 1000, zone, sep, withOffset);
    // The millis `000` follow the text's last '.' (an offset holds none).
    const at = text.lastIndexOf('.') + 1;
    m.sec = sec;
    m.zone = zone;
    m.head = text.slice(0, at);
    m.tail = text.slice(at + 3);
  }
  return m.head + pad3(utcMs - sec * 1000) + m.tail;
}

/** `yyyy-MM-dd{sep}HH:mm:ss.SSS` in the zone, and its offset when asked. */
function wallText(utcMs: number, zone: Zone, sep: string, withOffset: boolean): string {
  const off = zone.offsetAt(utcMs);
  const d = new Date(utcMs + off * 60000);
  return (
    `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}` +
    `${sep}${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}.${pad3(d.getUTCMilliseconds())}` +
    (withOffset ? formatOffset(off) : '')
  );
}

export const GMT8: Zone = parseZone('+08:00');
