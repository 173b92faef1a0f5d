// What real pastes put before a log line's own header, read off so that the header is found:
//   grep -n / -H   `1234:LINE` (a match), `1234-LINE` (a context line of -A/-B/-C), `FILE:LINE`,
//                  `FILE:1234:LINE`, `FILE-1234-LINE` (GNU grep's output: the file name, the line
//                  number, then `:` for a matching line and `-` for a context line);
//   Kubernetes     `2024-05-01T10:00:00.123456789Z stdout F LINE`: the CRI log format kubelet
//                  writes under /var/log/pods (time RFC 3339 with nanoseconds, the stream, `F` for a
//                  full line, `P` for a partial one that the next line of the same stream goes on);
//   docker logs -t `2024-05-01T10:00:00.123456789Z LINE` (RFC 3339 with nanoseconds);
//   trace ids      `[traceId] LINE`, `[a1b2c3][app] LINE` (an MDC field a log pattern prints first);
//   log consoles   `content: LINE`: the field name Aliyun SLS shows before each log line copied
//                  from its console (test/fixtures/real/127-*; 09-* is its multi-line form).
// A file's prefix is decided from its first lines (SourceParser.decide): the form under which the
// most of them are headers of a known layout, when more than without a prefix. Each line is then cut
// by a scan of its first characters (no regular expression: bounded, linear); a line without the
// prefix is read whole, as it would be in a file without one.

/** A prefix form, as decided for a file. */
export type LinePrefix =
  | { form: 'cri' }
  | { form: 'docker' }
  /** `files`: the file names grep printed (-H), none for grep -n alone; `numbered`: -n was given. */
  | { form: 'grep'; files: readonly string[]; numbered: boolean }
  /** `groups`: how many bracketed fields come before the header. */
  | { form: 'bracket'; groups: number }
  | { form: 'content' };

/** The log console's field name before a copied line. */
const CONTENT = 'content: ';

/** A file name grep prints is at most this long (a longer `NAME:` is no grep prefix). */
const MAX_FILE = 255;
/** Bracketed fields before the header: at most this many, each at most this long. */
const MAX_GROUPS = 3;
const MAX_GROUP = 100;
/** grep -H with many files: the names kept (more are no single file's paste). */
const MAX_FILES = 16;

const isDigit = (c: number) => c >= 48 && c <= 57;

function digits(text: string, at: number, n: number): boolean {
  for (let k = at; k < at + n; k++) if (!isDigit(text.charCodeAt(k))) return false;
  return true;
}

/**
 * The end of an RFC 3339 time at `at` (`yyyy-MM-ddTHH:mm:ss`, a fraction of 1-9 digits, `Z` or
 * `+hh:mm`), or -1.
 */
function rfc3339End(text: string, at: number): number {
  if (text.length < at + 20) return -1;
  if (!digits(text, at, 4) || text[at + 4] !== '-' || !digits(text, at + 5, 2) || text[at + 7] !== '-' || !digits(text, at + 8, 2)) return -1;
  if (text[at + 10] !== 'T' || !digits(text, at + 11, 2) || text[at + 13] !== ':' || !digits(text, at + 14, 2) || text[at + 16] !== ':' || !digits(text, at + 17, 2)) return -1;
  let i = at + 19;
  if (text[i] === '.') {
    let n = 0;
    while (n < 9 && isDigit(text.charCodeAt(i + 1 + n))) n++;
    if (n === 0) return -1;
    i += 1 + n;
  }
  if (text[i] === 'Z') return i + 1;
  if ((text[i] === '+' || text[i] === '-') && digits(text, i + 1, 2) && text[i + 3] === ':' && digits(text, i + 4, 2)) return i + 6;
  return -1;
}

/** The CRI prefix's length and whether the line is partial (`P`), or null. */
export function criPrefix(text: string): { length: number; partial: boolean; stream: string } | null {
  const e = rfc3339End(text, 0);
  if (e < 0 || text[e] !== ' ') return null;
  const stream = text.startsWith('stdout ', e + 1) ? 'stdout' : text.startsWith('stderr ', e + 1) ? 'stderr' : null;
  if (stream === null) return null;
  const tag = text[e + 8];
  if ((tag !== 'F' && tag !== 'P') || (text.length > e + 9 && text[e + 9] !== ' ')) return null;
  return { length: Math.min(text.length, e + 10), partial: tag === 'P', stream };
}

/** `docker logs -t`: the time and one space. */
function dockerPrefix(text: string): number {
  const e = rfc3339End(text, 0);
  return e > 0 && text[e] === ' ' ? e + 1 : -1;
}

/** A grep line number and its separator at `at` (`1234:` or `1234-`): the end, or -1. */
function grepNumber(text: string, at: number): number {
  let i = at;
  while (i < at + 10 && isDigit(text.charCodeAt(i))) i++;
  if (i === at) return -1;
  const c = text[i];
  return c === ':' || c === '-' ? i + 1 : -1;
}

function grepPrefix(text: string, files: readonly string[], numbered: boolean): number {
  let at = 0;
  if (files.length) {
    at = -1;
    for (const f of files) {
      if (text.startsWith(f)) {
        const c = text[f.length];
        if (c === ':' || c === '-') {
          at = f.length + 1;
          break;
        }
      }
    }
    if (at < 0) return -1;
  }
  return numbered ? grepNumber(text, at) : at;
}

function bracketPrefix(text: string, groups: number): number {
  let i = 0;
  for (let g = 0; g < groups; g++) {
    if (text[i] !== '[') return -1;
    const close = text.indexOf(']', i + 1);
    if (close < 0 || close - i > MAX_GROUP) return -1;
    const open = text.indexOf('[', i + 1);
    if (open >= 0 && open < close) return -1;
    i = close + 1;
    if (text[i] === ' ') i++;
  }
  return i;
}

/** The length of `p`'s prefix at the start of `text`, or -1 when the line does not have it. */
export function prefixLength(p: LinePrefix, text: string): number {
  switch (p.form) {
    case 'cri':
      return criPrefix(text)?.length ?? -1;
    case 'docker':
      return dockerPrefix(text);
    case 'grep':
      return grepPrefix(text, p.files, p.numbered);
    case 'bracket':
      return bracketPrefix(text, p.groups);
    case 'content':
      return text.startsWith(CONTENT) ? CONTENT.length : -1;
  }
}

/** A short name for the accounting and the state at a cut: `cri`, `grep -n -H`, `bracket 1`. */
export function prefixName(p: LinePrefix): string {
  if (p.form === 'grep') return `grep${p.numbered ? ' -n' : ''}${p.files.length ? ' -H' : ''}`;
  if (p.form === 'bracket') return `bracket ${p.groups}`;
  return p.form;
}

/**
 * The prefix most of `lines` have before a header (`isHeader`), with the lines it explains, or null.
 * `weights`: how many lines each stands for (identical lines in a row are held once). Bounded: a
 * few cuts per line, each tested with `isHeader` once.
 */
export function detectPrefix(lines: readonly string[], weights: readonly number[], isHeader: (text: string) => boolean): { prefix: LinePrefix; count: number } | null {
  const votes = new Map<string, { prefix: LinePrefix; count: number }>();
  const files = new Set<string>();
  const vote = (key: string, prefix: LinePrefix, w: number) => {
    const v = votes.get(key);
    if (v) v.count += w;
    else votes.set(key, { prefix, count: w });
  };
  lines.forEach((text, i) => {
    const w = weights[i];
    const cri = criPrefix(text);
    if (cri && isHeader(text.slice(cri.length))) return vote('cri', { form: 'cri' }, w);
    const d = dockerPrefix(text);
    if (d > 0 && isHeader(text.slice(d))) return vote('docker', { form: 'docker' }, w);
    if (text.startsWith(CONTENT) && isHeader(text.slice(CONTENT.length))) return vote('content', { form: 'content' }, w);
    if (text[0] === '[') {
      for (let g = 1; g <= MAX_GROUPS; g++) {
        const b = bracketPrefix(text, g);
        if (b < 0) break;
        if (isHeader(text.slice(b))) return vote(`bracket ${g}`, { form: 'bracket', groups: g }, w);
      }
    }
    // grep -n alone: `1234:` or `1234-`.
    const n = grepNumber(text, 0);
    if (n > 0 && isHeader(text.slice(n))) return vote('grep -n', { form: 'grep', files: [], numbered: true }, w);
    // grep -H: the file name up to a `:` (a matching line) or a `-` (a context line), then perhaps a number.
    for (let i = 0, seen = 0; i < Math.min(text.length, MAX_FILE + 1) && seen < 8; i++) {
      const c = text[i];
      if (c !== ':' && c !== '-') continue;
      seen++;
      if (i === 0) break;
      const name = text.slice(0, i);
      if (isHeader(text.slice(i + 1))) {
        if (files.size < MAX_FILES) files.add(name);
        return vote('grep -H', { form: 'grep', files: [], numbered: false }, w);
      }
      const m = grepNumber(text, i + 1);
      if (m > 0 && isHeader(text.slice(m))) {
        if (files.size < MAX_FILES) files.add(name);
        return vote('grep -n -H', { form: 'grep', files: [], numbered: true }, w);
      }
    }
  });
  let best: { prefix: LinePrefix; count: number } | null = null;
  for (const v of votes.values()) if (best === null || v.count > best.count) best = v;
  if (best && best.prefix.form === 'grep' && (best.prefix.numbered || files.size > 0)) {
    // The names grep printed; context lines (`FILE-12-`) are cut by them too.
    const named = votes.get(best.prefix.numbered ? 'grep -n -H' : 'grep -H');
    if (named === best) best = { prefix: { form: 'grep', files: [...files].sort((a, b) => b.length - a.length), numbered: best.prefix.numbered }, count: best.count };
  }
  return best;
}
