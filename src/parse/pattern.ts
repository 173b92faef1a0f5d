// The user's own application layout, said the way they already know it: a logback or log4j2
// conversion pattern (`%d{yyyy-MM-dd HH:mm:ss.SSS} [%thread] %-5level %logger{36} - %msg%n`), or the
// `logback.xml` / `log4j2.xml` that holds it. It is compiled at run time into a Layout, the same data
// as the built-in layouts (layouts.ts): a header regex with the same named groups and a timestamp
// format for compileTimestamp.

import { closeSync, openSync, readSync, statSync } from 'node:fs';
import type { Layout } from './layouts.js';
import { ZoneError, parseZone } from './time.js';
import { ISO8601 } from './timestamp.js';

export class PatternError extends Error {}

/** WARNING before WARN: a field is matched once, by the first alternative that fits. */
const LEVEL = 'TRACE|DEBUG|INFO|WARNING|WARN|ERROR|FATAL';

/** Named date formats of logback (CoreConstants) and log4j2 (DatePatternConverter.FixedFormat). */
const NAMED_DATES: Record<string, string> = {
  ISO8601: ISO8601,
  ISO8601_BASIC: "yyyyMMdd'T'HHmmss,SSS",
  ISO8601_OFFSET_DATE_TIME_HHMM: ISO8601,
  ISO8601_OFFSET_DATE_TIME_HHCMM: ISO8601,
  DEFAULT: 'yyyy-MM-dd HH:mm:ss,SSS',
  ABSOLUTE: 'HH:mm:ss,SSS',
  DATE: 'dd MMM yyyy HH:mm:ss,SSS',
  COMPACT: 'yyyyMMddHHmmssSSS',
};

/** Date pattern letters read with compileTimestamp, and the text each prints. */
const DATE_TOKENS: Array<[string, string]> = [
  ['yyyy', '\\d{4}'],
  ['yyy', '\\d{4}'],
  ['yy', '\\d{2}'],
  ['MMM', '[A-Z][a-z]{2}'],
  ['MM', '\\d{2}'],
  ['dd', '\\d{2}'],
  ['HH', '\\d{2}'],
  ['mm', '\\d{2}'],
  ['ss', '\\d{2}'],
  ['SSSSSS', '\\d{6}'],
  ['SSSS', '\\d{4}'],
  ['SSS', '\\d{3}'],
  ['XXX', '(?:Z|[+-]\\d{2}:?\\d{2})'],
  ['EEE', '[A-Z][a-z]{2}'],
];

/** Converters that print nothing on the header line (the stack goes on the next lines). */
const SILENT = new Set(['n', 'ex', 'exception', 'throwable', 'wEx', 'wex', 'xEx', 'xex', 'xException', 'xThrowable', 'rEx', 'rootException', 'rThrowable', 'nopex', 'nopexception']);
/** Converters that only colour what they wrap: `%highlight(%-5level)`, Spring Boot's `%clr(...){faint}`. */
const WRAPPERS = new Set(['highlight', 'clr', 'style', 'black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white', 'gray', 'boldRed', 'boldGreen', 'boldYellow', 'boldBlue', 'boldMagenta', 'boldCyan', 'boldWhite']);

/**
 * The longest pattern compiled (a logback.xml's pattern is a line or two): past it a pattern is
 * damage, refused with one line rather than compiled into a regex of that size.
 */
export const MAX_PATTERN_CHARS = 64 * 1024;
/**
 * The most fields a pattern may have (real ones have a dozen): the regex of thousands would be too
 * large for the regex engine, which says so only when it first runs.
 */
export const MAX_PATTERN_FIELDS = 256;
/** The deepest `%highlight(%clr(...))` nesting read: real patterns nest two or three. */
export const MAX_PATTERN_NESTING = 32;
/** The largest logback.xml / log4j2.xml read (real ones are a few KB). */
export const MAX_CONFIG_BYTES = 1024 * 1024;
/**
 * The longest text after the message (`%m [%t]`) and the longest of each field in it: the message is
 * tried to end at each place of the line's last TAIL_CHARS, so a line's test costs at most that many
 * tries of the tail, however long the line.
 */
const TAIL_CHARS = 1024;
const TAIL_FIELD_CHARS = 256;

/**
 * One piece of a compiled pattern. The regex built from them never backtracks into a field: each
 * field is matched atomically (a lookahead captures it, a backreference consumes it), and a field of
 * free text ends at the first place where what follows it in the pattern is found. So a line is
 * tested in time linear in its length, whatever the pattern (`%5t` twenty-five times, ten `%X{a}`
 * side by side), where the regex of lazy groups it replaces backtracked over every split of the line.
 */
type Piece =
  | { k: 'lit'; text: string }
  /** A run of spaces: `req` one or more (literal spaces), else any (padding). */
  | { k: 'sp'; req: boolean }
  /** A field of a fixed shape (date, level, digits); `head`: a bounded regex of how it starts, when it cannot be empty. */
  | { k: 'fixed'; re: string; head: string | null; name: string | null }
  /** A field of free text: `any` character, or a `word` (no spaces); at least `min` characters. */
  | { k: 'var'; cls: 'any' | 'word'; min: 0 | 1; name: string | null };

interface Compiled {
  pieces: Piece[];
  ts: string | null;
  /** Text before the date, when only literal text comes before it. */
  tsPrefix: string | null;
  zone: string | null;
  groups: Set<string>;
  msgSeen: boolean;
  /** Fields so far (MAX_PATTERN_FIELDS). */
  fields: number;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** A pattern as shown in a message: its start, when it is long. */
function shown(p: string): string {
  return p.length > 80 ? `${p.slice(0, 77)}...` : p;
}

/** A date format -> the regex of what it prints (the format itself is read by compileTimestamp). */
function dateRegex(format: string, converter: string): string {
  if (format === ISO8601) return `\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}:\\d{2}(?:[.,]\\d{1,9})?(?:Z|[+-]\\d{2}(?::?\\d{2})?)?`;
  let out = '';
  let i = 0;
  while (i < format.length) {
    const ch = format[i];
    if (ch === "'") {
      const end = format.indexOf("'", i + 1);
      if (end < 0) throw new PatternError(`%${converter}{${shown(format)}}: unclosed quote in the date format`);
      out += escape(format.slice(i + 1, end));
      i = end + 1;
      continue;
    }
    const tok = DATE_TOKENS.find(([t]) => format.startsWith(t, i));
    if (tok) {
      out += tok[1];
      i += tok[0].length;
      continue;
    }
    if (/[A-Za-z]/.test(ch)) {
      throw new PatternError(`%${converter}{${shown(format)}}: the date letter '${ch}' is not supported (supported: yyyy yy MMM MM dd HH mm ss SSS SSSSSS XXX EEE)`);
    }
    out += escape(ch);
    i++;
  }
  return out;
}

/** Read one `{...}` option at `i` (nested braces allowed); returns [text, next index] or null. */
function option(p: string, i: number): [string, number] | null {
  if (p[i] !== '{') return null;
  let depth = 0;
  for (let k = i; k < p.length; k++) {
    if (p[k] === '{') depth++;
    else if (p[k] === '}' && --depth === 0) return [p.slice(i + 1, k), k + 1];
  }
  throw new PatternError(`unclosed '{' at position ${i + 1} of the pattern`);
}

/** Read a `(...)` group at `i`; returns [text, next index]. */
function group(p: string, i: number, name: string): [string, number] {
  let depth = 0;
  for (let k = i; k < p.length; k++) {
    if (p[k] === '(') depth++;
    else if (p[k] === ')' && --depth === 0) return [p.slice(i + 1, k), k + 1];
  }
  throw new PatternError(`%${name}(: unclosed '('`);
}

const CONVERTER = /%(-?\d*)(?:\.-?\d+)?([A-Za-z]+)/y;

function compileInto(p: string, c: Compiled, literalOnlySoFar: { v: boolean; text: string }, depth: number): void {
  const out = c.pieces;
  const sp = (req: boolean) => {
    const last = out[out.length - 1];
    if (last?.k === 'sp') last.req ||= req;
    else out.push({ k: 'sp', req });
  };
  const lit = (s: string) => {
    // Runs of spaces are padding as often as text: one or more.
    for (const m of s.match(/ +|[^ ]+/g) ?? []) {
      if (m[0] === ' ') sp(true);
      else {
        const last = out[out.length - 1];
        if (last?.k === 'lit') last.text += m;
        else out.push({ k: 'lit', text: m });
      }
    }
    if (literalOnlySoFar.v) literalOnlySoFar.text += s;
  };
  const field = (piece: Piece, padded = false) => {
    if (++c.fields > MAX_PATTERN_FIELDS) throw new PatternError(`more than ${MAX_PATTERN_FIELDS} fields`);
    if (padded) sp(false);
    out.push(piece);
    if (padded) sp(false);
    literalOnlySoFar.v = false;
  };
  const named = (g: string): string | null => {
    if (c.groups.has(g)) return null;
    c.groups.add(g);
    return g;
  };
  let i = 0;
  while (i < p.length) {
    const ch = p[i];
    if (ch === '\\' && i + 1 < p.length) {
      lit(p[i + 1]);
      i += 2;
      continue;
    }
    if (ch === '$' && p[i + 1] === '{') {
      // A property (Spring Boot's ${PID:- }, ${LOG_LEVEL_PATTERN}): any text without spaces.
      const end = p.indexOf('}', i);
      if (end < 0) throw new PatternError(`unclosed '\${' at position ${i + 1} of the pattern`);
      const name = p.slice(i + 2, end).split(':')[0];
      if (name === 'PID') field({ k: 'fixed', re: '(?:\\d+)?', head: null, name: named('pid') }, true);
      else field({ k: 'var', cls: 'word', min: 0, name: null });
      i = end + 1;
      continue;
    }
    if (ch !== '%') {
      // The first character is literal whatever it is (a backslash at the end has nothing to escape).
      let k = i + 1;
      while (k < p.length && p[k] !== '%' && p[k] !== '\\' && !(p[k] === '$' && p[k + 1] === '{')) k++;
      lit(p.slice(i, k));
      i = k;
      continue;
    }
    if (p[i + 1] === '%') {
      lit('%');
      i += 2;
      continue;
    }
    // %[-][min][.[-]max]name[(...)][{...}]*
    CONVERTER.lastIndex = i;
    const m = CONVERTER.exec(p);
    if (!m) throw new PatternError(`a '%' with no converter name at position ${i + 1} of the pattern`);
    const padded = m[1] !== '' && m[1] !== '-';
    const name = m[2];
    i += m[0].length;
    if (WRAPPERS.has(name) && p[i] === '(') {
      if (depth >= MAX_PATTERN_NESTING) throw new PatternError(`%${name}(...) nested more than ${MAX_PATTERN_NESTING} deep`);
      const [inner, next] = group(p, i, name);
      i = next;
      while (p[i] === '{') i = option(p, i)![1];
      compileInto(inner, c, literalOnlySoFar, depth + 1);
      continue;
    }
    const opts: string[] = [];
    for (let o = option(p, i); o !== null; o = option(p, i)) {
      opts.push(o[0]);
      i = o[1];
    }
    switch (name) {
      case 'd':
      case 'date': {
        if (c.ts !== null) throw new PatternError(`%${name}: only one date per pattern is supported`);
        const args = (opts[0] ?? '').split(/,\s*(?=[A-Za-z]+[/+-]|GMT|UTC|Z$)/);
        // Spring Boot writes its date format as a property with a default: ${LOG_DATEFORMAT_PATTERN:-yyyy-MM-dd HH:mm:ss.SSS}.
        const fmtName = args[0].trim().replace(/^\$\{[^:}]*:-(.*)\}$/, '$1') || 'DEFAULT';
        const format = NAMED_DATES[fmtName] ?? fmtName;
        const zone = (args[1] ?? opts[1] ?? '').trim();
        c.zone = zone || null;
        c.ts = format;
        if (literalOnlySoFar.v) c.tsPrefix = literalOnlySoFar.text;
        const re = dateRegex(format, name);
        field({ k: 'fixed', re, head: re, name: 'ts' });
        break;
      }
      case 'p':
      case 'le':
      case 'level':
        field({ k: 'fixed', re: LEVEL, head: LEVEL, name: named('level') }, padded);
        break;
      case 't':
      case 'thread':
        field({ k: 'var', cls: 'any', min: 1, name: named('thread') }, padded);
        break;
      case 'c':
      case 'lo':
      case 'logger':
        field({ k: 'var', cls: 'word', min: 1, name: named('logger') }, padded);
        break;
      case 'C':
      case 'class':
        field({ k: 'var', cls: 'word', min: 1, name: null }, padded);
        break;
      case 'M':
      case 'method':
        field({ k: 'var', cls: 'word', min: 1, name: named('method') }, padded);
        break;
      case 'L':
      case 'line':
        field({ k: 'fixed', re: '\\d+|\\?', head: '[\\d?]', name: named('line') }, padded);
        break;
      case 'X':
      case 'mdc':
        field({ k: 'var', cls: 'any', min: 0, name: named('mdc') });
        break;
      case 'pid':
      case 'processId':
        field({ k: 'fixed', re: '\\d+', head: '\\d', name: named('pid') }, padded);
        break;
      case 'r':
      case 'relative':
      case 'sn':
      case 'sequenceNumber':
        field({ k: 'fixed', re: '\\d+', head: '\\d', name: null }, padded);
        break;
      case 'marker':
      case 'markerSimpleName':
        field({ k: 'var', cls: 'word', min: 0, name: null });
        break;
      case 'm':
      case 'msg':
      case 'message':
        c.msgSeen = true;
        field({ k: 'var', cls: 'any', min: 0, name: named('msg') });
        break;
      default:
        if (SILENT.has(name)) break;
        throw new PatternError(
          `%${name} is not supported in --pattern (supported: %d %date, %p %le %level, %t %thread, %c %lo %logger, %C %class, %M %method, %L %line, %X %mdc, %m %msg %message, %n, %ex %throwable %wEx %xEx, %pid, %r, %marker, %highlight(...), and literal text)`,
        );
    }
  }
}

/** Builds the regex of the pieces (see Piece): atomic fields, free text ending where what follows begins. */
class RegexWriter {
  private n = 0;

  constructor(private readonly pieces: Piece[]) {}

  /** `re` matched once, never given back: a lookahead captures it, the backreference consumes it. */
  private atomic(name: string | null, re: string): string {
    const g = name ?? `_${this.n++}`;
    return `(?=(?<${g}>${re}))\\k<${g}>`;
  }

  /** How the piece at `j` starts, as a bounded regex; 'end' past the last piece; null: it may start with anything. */
  private headAt(j: number): string | null | 'end' {
    const q = this.pieces[j];
    if (!q) return 'end';
    if (q.k === 'lit') return escape(q.text);
    if (q.k === 'fixed') return q.head;
    return null;
  }

  /** A free-text field at `i`; `cap`: its longest text (a field after the message). */
  private free(i: number, q: Piece & { k: 'var' }, cap: number | null): string {
    const any = q.cls === 'any';
    const C = any ? '.' : '\\S';
    const NS = any ? '[^ ]' : '\\S';
    const s = this.pieces[i + 1]?.k === 'sp' ? (this.pieces[i + 1] as Piece & { k: 'sp' }) : null;
    const next = this.headAt(s ? i + 2 : i + 1);
    let tok: string | null;
    if (next === 'end') tok = C;
    else if (next === null) tok = s ? NS : null; // up to the spaces before the next field, or as little as it may
    else if (!s) tok = `(?!${next})${C}`;
    else {
      const ns = s.req ? NS : `(?!${next})${NS}`;
      // A run of spaces is taken whole, and only when what follows is not there after it.
      tok = any ? `(?:${ns}| +(?! )(?!${next}))` : ns;
    }
    const rep = cap === null ? '*' : `{0,${cap - q.min}}`;
    const body = tok === null ? (q.min ? C : '') : `${q.min ? C : ''}(?:${tok})${rep}`;
    if (body === '') return q.name ? `(?<${q.name}>)` : '';
    return this.atomic(q.name, body);
  }

  private piece(i: number, cap: number | null, afterLazy: boolean): string {
    const q = this.pieces[i];
    if (q.k === 'lit') return escape(q.text);
    // After the lazy message a run is entered only at its start (else each place in it would read the rest of it).
    if (q.k === 'sp') return `${afterLazy ? '(?<! )' : ''} ${q.req ? '+' : '*'}(?! )`;
    if (q.k === 'fixed') return this.atomic(q.name, q.re);
    return this.free(i, q, cap);
  }

  /**
   * `head`: `^` and the pieces before the message (the message is then the rest of the line); `tail`:
   * when more of the pattern follows the message, the pieces after it, to the end of the line.
   */
  sources(): { head: string; tail: string | null } {
    const ps = this.pieces;
    const mi = ps.findIndex((q) => q.k === 'var' && q.name === 'msg');
    let head = '^';
    for (let i = 0; i < mi; i++) head += this.piece(i, null, false);
    if (ps.slice(mi + 1).every((q) => q.k === 'sp')) return { head, tail: null };
    let tail = '';
    for (let i = mi + 1; i < ps.length; i++) tail += this.piece(i, TAIL_FIELD_CHARS, i === mi + 1);
    return { head, tail: `(?:${tail}) *$` };
  }
}

/**
 * The header of a pattern with text after the message (`%m [%t]%n`): the head is matched, then the
 * message ends at the first place, within the line's last TAIL_CHARS, from which the tail reads to the
 * end of the line. The result is the one a single regex `head(?<msg>.*?)tail` gives (groups of both,
 * `msg` between), found in time linear in the line.
 */
class TailedHeader extends RegExp {
  constructor(
    private readonly head: RegExp,
    private readonly tail: RegExp,
  ) {
    super(`${head.source}(?<msg>.*?)${tail.source}`);
  }

  override exec(s: string): RegExpExecArray | null {
    const h = this.head.exec(s);
    if (!h) return null;
    const from = h[0].length;
    for (let p = Math.max(from, s.length - TAIL_CHARS); p <= s.length; p++) {
      this.tail.lastIndex = p;
      const t = this.tail.exec(s);
      if (!t) continue;
      const m = [s] as unknown as RegExpExecArray;
      m.index = 0;
      m.input = s;
      m.groups = { ...h.groups, msg: s.slice(from, p), ...t.groups };
      return m;
    }
    return null;
  }
}

let counter = 0;

/** Compile a logback or log4j2 conversion pattern into a Layout. Throws PatternError naming what it cannot read. */
export function compilePattern(pattern: string, id?: string): Layout {
  const text = pattern.trim();
  if (text.length > MAX_PATTERN_CHARS) {
    throw new PatternError(`--pattern ${shown(text)}: a pattern of ${text.length.toLocaleString('en-US')} characters is past the limit of ${MAX_PATTERN_CHARS.toLocaleString('en-US')}`);
  }
  if (!text.includes('%')) throw new PatternError(`--pattern ${shown(pattern)}: no %converter in it (give a logback or log4j2 pattern, or a logback.xml/log4j2.xml)`);
  const c: Compiled = { pieces: [], ts: null, tsPrefix: null, zone: null, groups: new Set(), msgSeen: false, fields: 0 };
  try {
    compileInto(text, c, { v: true, text: '' }, 0);
  } catch (e) {
    if (e instanceof PatternError) throw new PatternError(`--pattern ${shown(text)}: ${e.message}`);
    throw e;
  }
  if (!c.msgSeen) throw new PatternError(`--pattern ${shown(pattern)}: no %m/%msg in it, so no message could be read`);
  // The message runs to the end of the line (whatever follows %msg, such as %n or %ex, is on other lines or trailing).
  const sources = new RegexWriter(c.pieces).sources();
  let header: RegExp;
  try {
    const head = new RegExp(sources.head);
    const tail = sources.tail === null ? null : new RegExp(sources.tail, 'y');
    // The engine compiles a regex when it first runs, for one-byte and two-byte text apart, and again
    // when a run makes it native: an error of its size ("too large", "stack overflow") comes then, so
    // it is made to come here, where it is one line, rather than in the middle of a file.
    for (const re of tail ? [head, tail] : [head]) {
      for (const probe of ['2024-05-20 14:03:11.483 [main] WARN  x - m', '2024-05-20 14:03:11.483 [主] WARN  x - m']) {
        for (let k = 0; k < 3; k++) {
          re.lastIndex = 0;
          re.exec(probe);
        }
      }
    }
    header = tail ? new TailedHeader(head, tail) : head;
  } catch (e) {
    const why = (e as Error).message.replace(/^Invalid regular expression: \/[\s\S]*\/\w*: /, '');
    throw new PatternError(`--pattern ${shown(pattern)}: cannot be compiled (${why})`);
  }
  const first = text[0];
  const layout: Layout = {
    id: id ?? `pattern-${++counter}`,
    title: `--pattern ${text}`,
    header,
    ts: c.ts,
    zone: c.ts === ISO8601 ? 'printed' : 'source',
    impliesKind: 'app',
    priority: 0,
    samples: [],
  };
  if (c.zone) {
    try {
      layout.fixedZone = parseZone(c.zone).name;
    } catch (e) {
      if (e instanceof ZoneError) throw new PatternError(`--pattern ${shown(pattern)}: the zone of %d: ${e.message}`);
      throw e;
    }
  }
  if (c.ts !== null && c.tsPrefix !== null) {
    if (c.tsPrefix !== '') layout.tsPrefix = c.tsPrefix;
  } else {
    // No date, or a field before it: let any line be tried (the regex decides).
    layout.starts = first === '%' ? '' : first;
  }
  if (c.ts !== null && !/y/.test(c.ts) && c.ts !== ISO8601) layout.timeOnly = true;
  return layout;
}

/**
 * A configuration file's text: a regular file (not a device such as /dev/zero, a FIFO or a folder,
 * which are refused before anything is opened) of at most MAX_CONFIG_BYTES, of which no more is read.
 */
function readConfig(path: string): string {
  const tooBig = (n: string) => new PatternError(`--pattern ${shown(path)}: ${n} is past the limit of ${MAX_CONFIG_BYTES / 1024 / 1024} MB for a logback.xml or log4j2.xml`);
  let fd: number | undefined;
  try {
    const st = statSync(path);
    if (!st.isFile()) throw new PatternError(`--pattern ${shown(path)}: not a regular file (give a pattern with a %converter, or a logback.xml or log4j2.xml)`);
    if (st.size > MAX_CONFIG_BYTES) throw tooBig(`${st.size.toLocaleString('en-US')} bytes`);
    fd = openSync(path, 'r');
    const buf = Buffer.alloc(MAX_CONFIG_BYTES + 1);
    let n = 0;
    for (let got = -1; got !== 0 && n < buf.length; n += got) got = readSync(fd, buf, n, buf.length - n, null);
    if (n > MAX_CONFIG_BYTES) throw tooBig('the file (it grew while read)');
    return buf.toString('utf8', 0, n);
  } catch (e) {
    if (e instanceof PatternError) throw e;
    throw new PatternError(`--pattern ${shown(path)}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The text with `<!-- ... -->` left out (an unclosed one runs to the end), in one pass. */
function withoutComments(xml: string): string {
  let out = '';
  let at = 0;
  for (let open = xml.indexOf('<!--'); open >= 0; open = xml.indexOf('<!--', at)) {
    out += xml.slice(at, open);
    const close = xml.indexOf('-->', open + 4);
    if (close < 0) return out;
    at = close + 3;
  }
  return out + xml.slice(at);
}

/** An XML text's value: CDATA sections and the five entities, in one pass each. */
function decode(s: string): string {
  let out = '';
  let at = 0;
  for (let open = s.indexOf('<![CDATA['); open >= 0; open = s.indexOf('<![CDATA[', at)) {
    const close = s.indexOf(']]>', open + 9);
    if (close < 0) break;
    out += s.slice(at, open) + s.slice(open + 9, close);
    at = close + 3;
  }
  out += s.slice(at);
  return out.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&').trim();
}

/** The `pattern` attribute of the tag whose attributes start at `i`; `end`: where the scan stopped. */
function patternAttribute(xml: string, i: number): { value: string | null; end: number } {
  const NAME = /\s*([A-Za-z_:][-\w:.]*)\s*=\s*/y;
  for (;;) {
    NAME.lastIndex = i;
    const m = NAME.exec(xml);
    const q = m ? xml[NAME.lastIndex] : undefined;
    if (!m || (q !== '"' && q !== "'")) return { value: null, end: Math.max(i, NAME.lastIndex) };
    const close = xml.indexOf(q, NAME.lastIndex + 1);
    if (close < 0) return { value: null, end: xml.length };
    if (m[1] === 'pattern') return { value: xml.slice(NAME.lastIndex + 1, close), end: close + 1 };
    i = close + 1;
  }
}

/**
 * The patterns of a logback.xml (`<pattern>` of its encoders) or log4j2.xml (`PatternLayout`'s
 * pattern attribute or `<Pattern>` element). Read in one pass: a damaged file (an unclosed tag, a
 * comment or CDATA never closed) costs its length, not its length squared.
 */
export function patternsOfConfig(path: string): string[] {
  const xml = withoutComments(readConfig(path));
  const found: string[] = [];
  const OPEN = /<(?:pattern|Pattern)>/g;
  const CLOSE = /<\/(?:pattern|Pattern)>/g;
  for (let m = OPEN.exec(xml); m !== null; m = OPEN.exec(xml)) {
    CLOSE.lastIndex = OPEN.lastIndex;
    const c = CLOSE.exec(xml);
    if (!c) break; // no close after this one, so none after any later one either
    found.push(decode(xml.slice(OPEN.lastIndex, c.index)));
    OPEN.lastIndex = CLOSE.lastIndex;
  }
  const LAYOUT = /<PatternLayout\b/g;
  for (let m = LAYOUT.exec(xml); m !== null; m = LAYOUT.exec(xml)) {
    const a = patternAttribute(xml, LAYOUT.lastIndex);
    if (a.value !== null) found.push(decode(a.value));
    LAYOUT.lastIndex = Math.max(LAYOUT.lastIndex, a.end);
  }
  const patterns = [...new Set(found.filter((p) => p.includes('%')))];
  if (!patterns.length) throw new PatternError(`--pattern ${shown(path)}: no <pattern> or PatternLayout pattern in it`);
  return patterns;
}

/** `--pattern [GLOB=]PATTERN|CONFIG`: the glob (or null) and the rest. */
function splitPatternArg(value: string): { glob: string | null; rest: string } {
  const pct = value.indexOf('%');
  const eq = value.indexOf('=');
  const hasGlob = eq > 0 && (pct < 0 || eq < pct);
  return { glob: hasGlob ? value.slice(0, eq) : null, rest: hasGlob ? value.slice(eq + 1) : value };
}

/** The config file a `--pattern` value names (a logback.xml, a log4j2.xml), or null for a pattern: an input of the run. */
export function patternFileOf(value: string): string | null {
  const { rest } = splitPatternArg(value);
  return rest.includes('%') ? null : rest;
}

/**
 * `--pattern VALUE`: `PATTERN`, `GLOB=PATTERN`, `CONFIG.xml` or `GLOB=CONFIG.xml`. A glob is the text
 * before an `=` that comes before the first `%` (a pattern always has a `%`).
 */
export function patternArg(value: string): { glob: string | null; patterns: string[] } {
  const { glob, rest } = splitPatternArg(value);
  const patterns = rest.includes('%') ? [rest] : patternsOfConfig(rest);
  for (const p of patterns) compilePattern(p);
  return { glob, patterns };
}
