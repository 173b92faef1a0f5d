// The user's own application layout, said the way they already know it: a logback or log4j2
// conversion pattern (`%d{yyyy-MM-dd HH:mm:ss.SSS} [%thread] %-5level %logger{36} - %msg%n`), or the
// `logback.xml` / `log4j2.xml` that holds it. It is compiled at run time into a Layout, the same data
// as the built-in layouts (layouts.ts): a header regex with the same named groups and a timestamp
// format for compileTimestamp.

import { readFileSync } from 'node:fs';
import type { Layout } from './layouts.js';
import { ZoneError, parseZone } from './time.js';
import { ISO8601 } from './timestamp.js';

export class PatternError extends Error {}

const LEVEL = 'TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL';

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

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

interface Compiled {
  source: string;
  ts: string | null;
  /** Text before the date, when only literal text comes before it. */
  tsPrefix: string | null;
  zone: string | null;
  groups: Set<string>;
  msgSeen: boolean;
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
      if (end < 0) throw new PatternError(`%${converter}{${format}}: unclosed quote in the date format`);
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
      throw new PatternError(`%${converter}{${format}}: the date letter '${ch}' is not supported (supported: yyyy yy MMM MM dd HH mm ss SSS SSSSSS XXX EEE)`);
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

function compileInto(p: string, c: Compiled, literalOnlySoFar: { v: boolean; text: string }): void {
  let i = 0;
  const lit = (s: string) => {
    // Runs of spaces are padding as often as text: one or more.
    c.source += s.replace(/ +|[^ ]+/g, (m) => (m[0] === ' ' ? ' +' : escape(m)));
    if (literalOnlySoFar.v) literalOnlySoFar.text += s;
  };
  const field = (re: string) => {
    c.source += re;
    literalOnlySoFar.v = false;
  };
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
      field(name === 'PID' ? ' *(?<pid>\\d+)?' : '\\S*');
      i = end + 1;
      continue;
    }
    if (ch !== '%') {
      let k = i;
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
    const m = /^%(-?\d*)(?:\.-?\d+)?([A-Za-z]+)/.exec(p.slice(i));
    if (!m) throw new PatternError(`a '%' with no converter name at position ${i + 1} of the pattern`);
    const padded = m[1] !== '' && m[1] !== '-';
    const name = m[2];
    i += m[0].length;
    if (WRAPPERS.has(name) && p[i] === '(') {
      const [inner, next] = group(p, i, name);
      i = next;
      while (p[i] === '{') i = option(p, i)![1];
      compileInto(inner, c, literalOnlySoFar);
      continue;
    }
    const opts: string[] = [];
    for (let o = option(p, i); o !== null; o = option(p, i)) {
      opts.push(o[0]);
      i = o[1];
    }
    const pad = (re: string) => (padded ? ` *${re} *` : re);
    const named = (g: string, re: string) => {
      if (c.groups.has(g)) return `(?:${re})`;
      c.groups.add(g);
      return `(?<${g}>${re})`;
    };
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
        field(`(?<ts>${dateRegex(format, name)})`);
        break;
      }
      case 'p':
      case 'le':
      case 'level':
        field(pad(named('level', LEVEL)));
        break;
      case 't':
      case 'thread':
        field(pad(named('thread', '.+?')));
        break;
      case 'c':
      case 'lo':
      case 'logger':
        field(pad(named('logger', '\\S+?')));
        break;
      case 'C':
      case 'class':
        field(pad('\\S+?'));
        break;
      case 'M':
      case 'method':
        field(pad(named('method', '\\S+?')));
        break;
      case 'L':
      case 'line':
        field(pad(named('line', '\\d+|\\?')));
        break;
      case 'X':
      case 'mdc':
        field(named('mdc', '.*?'));
        break;
      case 'pid':
      case 'processId':
        field(pad(named('pid', '\\d+')));
        break;
      case 'r':
      case 'relative':
      case 'sn':
      case 'sequenceNumber':
        field(pad('\\d+'));
        break;
      case 'marker':
      case 'markerSimpleName':
        field('\\S*');
        break;
      case 'm':
      case 'msg':
      case 'message':
        c.msgSeen = true;
        field('(?<msg>.*?)');
        break;
      default:
        if (SILENT.has(name)) break;
        throw new PatternError(
          `%${name} is not supported in --pattern (supported: %d %date, %p %le %level, %t %thread, %c %lo %logger, %C %class, %M %method, %L %line, %X %mdc, %m %msg %message, %n, %ex %throwable %wEx %xEx, %pid, %r, %marker, %highlight(...), and literal text)`,
        );
    }
  }
}

let counter = 0;

/** Compile a logback or log4j2 conversion pattern into a Layout. Throws PatternError naming what it cannot read. */
export function compilePattern(pattern: string, id?: string): Layout {
  const text = pattern.trim();
  if (!text.includes('%')) throw new PatternError(`--pattern ${pattern}: no %converter in it (give a logback or log4j2 pattern, or a logback.xml/log4j2.xml)`);
  const c: Compiled = { source: '', ts: null, tsPrefix: null, zone: null, groups: new Set(), msgSeen: false };
  compileInto(text, c, { v: true, text: '' });
  if (!c.msgSeen) throw new PatternError(`--pattern ${pattern}: no %m/%msg in it, so no message could be read`);
  // The message runs to the end of the line (whatever follows %msg, such as %n or %ex, is on other lines or trailing).
  const source = `^${c.source.replace(/\(\?<msg>\.\*\?\)(.*)$/, (_m, rest: string) => (rest.replace(/ \+/g, '') === '' ? '' : `(?<msg>.*?)${rest} *$`))}`;
  let header: RegExp;
  try {
    header = new RegExp(source);
  } catch (e) {
    throw new PatternError(`--pattern ${pattern}: cannot be read (${(e as Error).message})`);
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
      if (e instanceof ZoneError) throw new PatternError(`--pattern ${pattern}: the zone of %d: ${e.message}`);
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

/** The patterns of a logback.xml (`<pattern>` of its encoders) or log4j2.xml (`PatternLayout`). */
export function patternsOfConfig(path: string): string[] {
  let xml: string;
  try {
    xml = readFileSync(path, 'utf8');
  } catch (e) {
    throw new PatternError(`--pattern ${path}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const decode = (s: string) =>
    s
      .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&')
      .trim();
  const found: string[] = [];
  const noComments = xml.replace(/<!--[\s\S]*?-->/g, '');
  for (const m of noComments.matchAll(/<(?:pattern|Pattern)>([\s\S]*?)<\/(?:pattern|Pattern)>/g)) found.push(decode(m[1]));
  for (const m of noComments.matchAll(/<PatternLayout\b[^>]*?\bpattern\s*=\s*"([^"]*)"/g)) found.push(decode(m[1]));
  const patterns = [...new Set(found.filter((p) => p.includes('%')))];
  if (!patterns.length) throw new PatternError(`--pattern ${path}: no <pattern> or PatternLayout pattern in it`);
  return patterns;
}

/**
 * `--pattern VALUE`: `PATTERN`, `GLOB=PATTERN`, `CONFIG.xml` or `GLOB=CONFIG.xml`. A glob is the text
 * before an `=` that comes before the first `%` (a pattern always has a `%`).
 */
export function patternArg(value: string): { glob: string | null; patterns: string[] } {
  const pct = value.indexOf('%');
  const eq = value.indexOf('=');
  const hasGlob = eq > 0 && (pct < 0 || eq < pct);
  const glob = hasGlob ? value.slice(0, eq) : null;
  const rest = hasGlob ? value.slice(eq + 1) : value;
  const patterns = rest.includes('%') ? [rest] : patternsOfConfig(rest);
  for (const p of patterns) compilePattern(p);
  return { glob, patterns };
}
