// Timestamp formats as data: a layout names its format (`yyyy-MM-dd HH:mm:ss,SSS`), and this module
// compiles it once into a reader of fixed positions, so no Date parsing runs per line. `ISO8601` names
// the one variable form: `yyyy-MM-dd[T ]HH:mm:ss`, an optional fraction of 1-9 digits after `.` or
// `,`, and an optional `Z` or offset (`+08:00`, `+0800`, `+08`), as logrus, zap and Spring Boot print it.

export interface TsFields {
  y: number; // 0 when the format has no date
  mo: number;
  d: number;
  h: number;
  mi: number;
  s: number;
  ms: number;
  /** Offset printed in the timestamp (minutes), when the format has one. */
  offsetMin: number | null;
  hasDate: boolean;
}

type Op =
  | { kind: 'num'; field: 'y' | 'y2' | 'mo' | 'd' | 'h' | 'mi' | 's' | 'ms' | 'us' | 'ms10'; width: number }
  | { kind: 'mon' }
  | { kind: 'dow' }
  | { kind: 'offset' }
  | { kind: 'lit' };

const MONTHS: Record<string, number> = {
  Jan: 1,
  Feb: 2,
  Mar: 3,
  Apr: 4,
  May: 5,
  Jun: 6,
  Jul: 7,
  Aug: 8,
  Sep: 9,
  Oct: 10,
  Nov: 11,
  Dec: 12,
};

/** Writes a token of a zoned time (`d` shifted by the zone offset, `ms` its millis, `off` the offset in minutes). */
type TimeWrite = (d: Date, ms: number, off: number, fakeMillis: boolean) => string;

const pad = (n: number, width: number): string => String(n).padStart(width, '0');
const MONTH_NAMES = Object.keys(MONTHS);
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

// Each token is read and written here: the reader (compileTimestamp) and the writer (timeWriter) of a
// layout's `ts` format share one table.
const TOKENS: Array<[string, Op, TimeWrite]> = [
  ['yyyy', { kind: 'num', field: 'y', width: 4 }, (d) => pad(d.getUTCFullYear(), 4)],
  ['yy', { kind: 'num', field: 'y2', width: 2 }, (d) => pad(d.getUTCFullYear() % 100, 2)],
  ['MMM', { kind: 'mon' }, (d) => MONTH_NAMES[d.getUTCMonth()]],
  ['MM', { kind: 'num', field: 'mo', width: 2 }, (d) => pad(d.getUTCMonth() + 1, 2)],
  ['dd', { kind: 'num', field: 'd', width: 2 }, (d) => pad(d.getUTCDate(), 2)],
  ['HH', { kind: 'num', field: 'h', width: 2 }, (d) => pad(d.getUTCHours(), 2)],
  ['mm', { kind: 'num', field: 'mi', width: 2 }, (d) => pad(d.getUTCMinutes(), 2)],
  ['ss', { kind: 'num', field: 's', width: 2 }, (d) => pad(d.getUTCSeconds(), 2)],
  ['SSSSSS', { kind: 'num', field: 'us', width: 6 }, (_d, ms) => `${pad(ms, 3)}000`],
  // NLog's `${longdate}` prints four fraction digits.
  ['SSSS', { kind: 'num', field: 'ms10', width: 4 }, (_d, ms) => `${pad(ms, 3)}0`],
  // The 4.3.0-4.7.1 inner logger printed the seconds where the millis belong.
  ['SSS', { kind: 'num', field: 'ms', width: 3 }, (d, ms, _o, fake) => (fake ? pad(d.getUTCSeconds(), 3) : pad(ms, 3))],
  // Day of the week (`Wed`), as JavaScript's Date#toString prints it: read over, not checked.
  ['EEE', { kind: 'dow' }, (d) => DAYS[d.getUTCDay()]],
  ['XXX', { kind: 'offset' }, (_d, _ms, off) => (off === 0 ? 'Z' : `${off < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(off) / 60), 2)}:${pad(Math.abs(off) % 60, 2)}`)],
];

/** A part of a written time: literal text or a token's writer. */
export type TimeOp = string | TimeWrite;

/**
 * The writer of a `ts` format, split where the fraction of a second starts: the part before changes
 * once a second (writers cache it), the part after on every line.
 */
export function timeWriter(format: string): { perSecond: TimeOp[]; perCall: TimeOp[] } {
  const ops: TimeOp[] = [];
  let i = 0;
  let fractionAt = -1;
  while (i < format.length) {
    if (format[i] === "'") {
      const end = format.indexOf("'", i + 1);
      ops.push(format.slice(i + 1, end));
      i = end + 1;
      continue;
    }
    const tok = TOKENS.find(([t]) => format.startsWith(t, i));
    if (tok) {
      if (tok[0].startsWith('S') && fractionAt < 0) fractionAt = ops.length;
      ops.push(tok[2]);
      i += tok[0].length;
    } else ops.push(format[i++]);
  }
  const cut = fractionAt < 0 ? ops.length : fractionAt;
  return { perSecond: ops.slice(0, cut), perCall: ops.slice(cut) };
}

/**
 * Years below this are damage: no JVM clock of the RocketMQ era prints them, and Date.UTC would read
 * 0-99 as 1900-1999.
 */
const MIN_YEAR = 1000;

function daysInMonth(y: number, mo: number): number {
  if (mo === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return mo === 4 || mo === 6 || mo === 9 || mo === 11 ? 30 : 31;
}

/** A two-digit year as POSIX strptime's %y reads it: 69-99 are 1969-1999, 00-68 are 2000-2068. */
function fullYear(yy: number): number {
  return yy >= 69 ? 1900 + yy : 2000 + yy;
}

export interface TimestampReader {
  format: string;
  /** Read the timestamp text (exactly the `ts` group). Returns null when a field is out of range or the date does not exist. */
  read(text: string): TsFields | null;
  /** True when the characters at `at` have the format's shape (digits where digits belong). Cheap. */
  shape(line: string, at: number): boolean;
  /** Fixed width of the timestamp, or -1 when it varies (offsets). */
  width: number;
  /**
   * A fixed-width dated time whose fraction of a second, if any, comes last: where the fraction starts
   * (the width when there is none); -1 otherwise. Two such times equal up to here are the same second
   * and differ by their fraction alone (the parser keeps the last second's epoch ms).
   */
  secondAt: number;
  /** The fraction's digits, and what their value is divided by to give millis (1 for SSS). */
  fracWidth: number;
  fracDiv: number;
}

const cache = new Map<string, TimestampReader>();

export const ISO8601 = 'ISO8601';

export function compileTimestamp(format: string): TimestampReader {
  const hit = cache.get(format);
  if (hit) return hit;
  if (format === ISO8601) {
    cache.set(format, ISO_READER);
    return ISO_READER;
  }
  const ops: Op[] = [];
  let i = 0;
  while (i < format.length) {
    if (format[i] === "'") {
      const end = format.indexOf("'", i + 1);
      for (let k = i + 1; k < end; k++) ops.push({ kind: 'lit' });
      i = end + 1;
      continue;
    }
    const tok = TOKENS.find(([t]) => format.startsWith(t, i));
    if (tok) {
      ops.push(tok[1]);
      i += tok[0].length;
    } else {
      ops.push({ kind: 'lit' });
      i++;
    }
  }
  let width = 0;
  for (const op of ops) {
    if (op.kind === 'num') width += op.width;
    else if (op.kind === 'mon' || op.kind === 'dow') width += 3;
    else if (op.kind === 'lit') width += 1;
    else width = -Infinity;
  }
  // Shape: the positions of digits, up to the first variable-width part.
  const digitAt: boolean[] = [];
  for (const op of ops) {
    if (op.kind === 'num') for (let k = 0; k < op.width; k++) digitAt.push(true);
    else if (op.kind === 'lit') digitAt.push(false);
    else if (op.kind === 'mon' || op.kind === 'dow') digitAt.push(false, false, false);
    else break;
  }
  const hasDate = ops.some((o) => o.kind === 'num' && (o.field === 'y' || o.field === 'y2'));
  const second = secondOf(ops, hasDate && Number.isFinite(width));

  const reader = makeReader(format, Number.isFinite(width) ? width : -1, makeShape(digitAt), second, (text: string): TsFields | null => {
    const f: TsFields = { y: 0, mo: 1, d: 1, h: 0, mi: 0, s: 0, ms: 0, offsetMin: null, hasDate };
    let p = 0;
    for (const op of ops) {
      if (op.kind === 'lit') {
        p++;
      } else if (op.kind === 'num') {
        let v = 0;
        for (let k = 0; k < op.width; k++) {
          const c = text.charCodeAt(p + k) - 48;
          if (c < 0 || c > 9) return null;
          v = v * 10 + c;
        }
        p += op.width;
        switch (op.field) {
          case 'y':
            f.y = v;
            break;
          case 'y2':
            f.y = fullYear(v);
            break;
          case 'mo':
            f.mo = v;
            break;
          case 'd':
            f.d = v;
            break;
          case 'h':
            f.h = v;
            break;
          case 'mi':
            f.mi = v;
            break;
          case 's':
            f.s = v;
            break;
          case 'ms':
            f.ms = v;
            break;
          case 'us':
            f.ms = Math.floor(v / 1000);
            break;
          case 'ms10':
            f.ms = Math.floor(v / 10);
            break;
        }
      } else if (op.kind === 'dow') {
        p += 3;
      } else if (op.kind === 'mon') {
        const m = MONTHS[text.slice(p, p + 3)];
        if (!m) return null;
        f.mo = m;
        p += 3;
      } else {
        const off = readOffset(text.slice(p));
        if (off === null) return null;
        f.offsetMin = off;
      }
    }
    if (!inRange(f)) return null;
    // An impossible date (Feb 30, Apr 31, year 0000) is damage, not a date to roll over into the next month.
    if (hasDate && (f.y < MIN_YEAR || f.d > daysInMonth(f.y, f.mo))) return null;
    return f;
  });
  cache.set(format, reader);
  return reader;
}

// Every reader is made here, and every shape test by makeShape, so that the parser's calls to them stay
// monomorphic (they run on every line).
function makeReader(
  format: string,
  width: number,
  shape: TimestampReader['shape'],
  second: Pick<TimestampReader, 'secondAt' | 'fracWidth' | 'fracDiv'>,
  read: TimestampReader['read'],
): TimestampReader {
  return { format, read, shape, width, secondAt: second.secondAt, fracWidth: second.fracWidth, fracDiv: second.fracDiv };
}

const NO_SECOND = { secondAt: -1, fracWidth: 0, fracDiv: 1 };

/** Where a format's second ends (TimestampReader.secondAt): only when the fraction, if any, is its last part. */
function secondOf(ops: readonly Op[], fixedAndDated: boolean): Pick<TimestampReader, 'secondAt' | 'fracWidth' | 'fracDiv'> {
  if (!fixedAndDated) return NO_SECOND;
  let at = 0;
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i];
    if (op.kind === 'num' && (op.field === 'ms' || op.field === 'us' || op.field === 'ms10')) {
      if (i !== ops.length - 1) return NO_SECOND;
      return { secondAt: at, fracWidth: op.width, fracDiv: op.field === 'us' ? 1000 : op.field === 'ms10' ? 10 : 1 };
    }
    if (op.kind === 'offset') return NO_SECOND;
    at += op.kind === 'num' ? op.width : op.kind === 'lit' ? 1 : 3;
  }
  return { secondAt: at, fracWidth: 0, fracDiv: 1 };
}

function makeShape(digitAt: readonly boolean[]): TimestampReader['shape'] {
  return (line: string, at: number): boolean => {
    if (line.length < at + digitAt.length) return false;
    for (let k = 0; k < digitAt.length; k++) {
      const c = line.charCodeAt(at + k);
      const isDigit = c >= 48 && c <= 57;
      if (digitAt[k] !== isDigit) return false;
    }
    return true;
  };
}

function inRange(f: TsFields): boolean {
  return !(f.mo < 1 || f.mo > 12 || f.d < 1 || f.d > 31 || f.h > 23 || f.mi > 59 || f.s > 60);
}

/** `Z`, `+08:00`, `+0800` or `+08` -> minutes east of UTC; null for anything else. */
function readOffset(rest: string): number | null {
  if (rest === 'Z' || rest === 'z') return 0;
  const m = /^([+-])(\d{2})(?::?(\d{2}))?$/.exec(rest);
  if (!m) return null;
  const h = Number(m[2]);
  const mi = m[3] === undefined ? 0 : Number(m[3]);
  if (h > 14 || mi > 59) return null;
  return (m[1] === '-' ? -1 : 1) * (h * 60 + mi);
}

const ISO_TEXT = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

// yyyy-MM-dd?HH:mm:ss: digits but at 4, 7, 10, 13, 16.
const ISO_SHAPE = Array.from({ length: 19 }, (_, k) => ![4, 7, 10, 13, 16].includes(k));

const ISO_READER: TimestampReader = makeReader(ISO8601, -1, makeShape(ISO_SHAPE), NO_SECOND, (text: string): TsFields | null => {
  const m = ISO_TEXT.exec(text);
  if (!m) return null;
  const frac = m[7] ?? '';
  const f: TsFields = {
    y: Number(m[1]),
    mo: Number(m[2]),
    d: Number(m[3]),
    h: Number(m[4]),
    mi: Number(m[5]),
    s: Number(m[6]),
    ms: frac === '' ? 0 : Math.floor(Number(frac.slice(0, 3).padEnd(3, '0'))),
    offsetMin: null,
    hasDate: true,
  };
  if (m[8] !== undefined) {
    const off = readOffset(m[8]);
    if (off === null) return null;
    f.offsetMin = off;
  }
  return inRange(f) ? f : null;
});
