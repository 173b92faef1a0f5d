// Timestamp formats as data: a layout names its format (`yyyy-MM-dd HH:mm:ss,SSS`), and this module
// compiles it once into a reader of fixed positions, so no Date parsing runs per line.

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
  | { kind: 'num'; field: 'y' | 'y2' | 'mo' | 'd' | 'h' | 'mi' | 's' | 'ms' | 'us'; width: number }
  | { kind: 'mon' }
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

const TOKENS: Array<[string, Op]> = [
  ['yyyy', { kind: 'num', field: 'y', width: 4 }],
  ['yy', { kind: 'num', field: 'y2', width: 2 }],
  ['MMM', { kind: 'mon' }],
  ['MM', { kind: 'num', field: 'mo', width: 2 }],
  ['dd', { kind: 'num', field: 'd', width: 2 }],
  ['HH', { kind: 'num', field: 'h', width: 2 }],
  ['mm', { kind: 'num', field: 'mi', width: 2 }],
  ['ss', { kind: 'num', field: 's', width: 2 }],
  ['SSSSSS', { kind: 'num', field: 'us', width: 6 }],
  ['SSS', { kind: 'num', field: 'ms', width: 3 }],
  ['XXX', { kind: 'offset' }],
];

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
}

const cache = new Map<string, TimestampReader>();

export function compileTimestamp(format: string): TimestampReader {
  const hit = cache.get(format);
  if (hit) return hit;
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
    else if (op.kind === 'mon') width += 3;
    else if (op.kind === 'lit') width += 1;
    else width = -Infinity;
  }
  // Shape: the positions of digits, up to the first variable-width part.
  const digitAt: boolean[] = [];
  for (const op of ops) {
    if (op.kind === 'num') for (let k = 0; k < op.width; k++) digitAt.push(true);
    else if (op.kind === 'lit') digitAt.push(false);
    else if (op.kind === 'mon') digitAt.push(false, false, false);
    else break;
  }
  const hasDate = ops.some((o) => o.kind === 'num' && (o.field === 'y' || o.field === 'y2'));

  const reader: TimestampReader = {
    format,
    width: Number.isFinite(width) ? width : -1,
    shape(line: string, at: number): boolean {
      if (line.length < at + digitAt.length) return false;
      for (let k = 0; k < digitAt.length; k++) {
        const c = line.charCodeAt(at + k);
        const isDigit = c >= 48 && c <= 57;
        if (digitAt[k] !== isDigit) return false;
      }
      return true;
    },
    read(text: string): TsFields | null {
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
          }
        } else if (op.kind === 'mon') {
          const m = MONTHS[text.slice(p, p + 3)];
          if (!m) return null;
          f.mo = m;
          p += 3;
        } else {
          const rest = text.slice(p);
          if (rest === 'Z') f.offsetMin = 0;
          else {
            const m = /^([+-])(\d{2}):?(\d{2})$/.exec(rest);
            if (!m) return null;
            f.offsetMin = (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
          }
        }
      }
      if (f.mo < 1 || f.mo > 12 || f.d < 1 || f.h > 23 || f.mi > 59 || f.s > 60) return null;
      // An impossible date (Feb 30, Apr 31, year 0000) is damage, not a date to roll over into the next month.
      if (hasDate && (f.y < MIN_YEAR || f.d > daysInMonth(f.y, f.mo))) return null;
      return f;
    },
  };
  cache.set(format, reader);
  return reader;
}
