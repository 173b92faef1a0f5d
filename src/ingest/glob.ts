// A small glob matcher for command-line inputs and --kind/--host overrides (no dependency).
//
// Decisions:
// - Syntax: `*` (any run of characters except '/'), `?` (one character except '/'),
//   `[abc]`, `[a-z]`, `[!abc]` / `[^abc]` (one character from / not from a set, never '/'),
//   `{a,b,c}` (alternatives, may nest and may contain other glob syntax), `**` as a whole path
//   segment (zero or more whole segments), and `\x` to escape one character.
// - `*` and `?` also match a leading dot (dot-files are not special here, unlike a shell).
// - Matching is on '/'-separated paths and is case-sensitive.
// - An unbalanced `[` or `{` is taken literally.

/** True when the text contains glob syntax. */
export function hasGlobMagic(text: string): boolean {
  return /[*?[{]/.test(text);
}

/**
 * Split a pattern into its static directory prefix (segments without glob syntax) and the rest.
 * `logs/a/*.log` -> { prefix: 'logs/a', rest: '*.log' }; `/x/**` -> { prefix: '/x', rest: '**' }.
 * A brace group containing '/' is kept whole in the rest.
 */
export function splitStaticPrefix(pattern: string): { prefix: string; rest: string } {
  const segments = pattern.split('/');
  let i = 0;
  for (; i < segments.length - 1; i++) {
    if (hasGlobMagic(segments[i]) || segments[i].includes('\\')) break;
  }
  // A brace group opened in a static-looking segment cannot happen (the '{' is magic), so the
  // first magic segment starts the rest.
  const prefixSegs = segments.slice(0, i);
  let prefix = prefixSegs.join('/');
  if (prefix === '' && pattern.startsWith('/')) prefix = '/';
  return { prefix, rest: segments.slice(i).join('/') };
}

/** How many path segments a pattern can span at most; Infinity when it contains `**`. */
export function maxDepth(pattern: string): number {
  if (pattern.includes('**')) return Infinity;
  return 1 + maxSeparators(pattern);
}

/** The largest number of '/' over all brace expansions of a pattern. */
function maxSeparators(p: string): number {
  let total = 0;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') {
      i++;
    } else if (c === '/') {
      total++;
    } else if (c === '{') {
      const end = matchingBrace(p, i);
      if (end >= 0) {
        total += Math.max(...splitAlternatives(p.slice(i + 1, end)).map(maxSeparators));
        i = end;
      }
    }
  }
  return total;
}

function matchingBrace(p: string, open: number): number {
  let level = 0;
  for (let i = open; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '{') level++;
    else if (c === '}') {
      level--;
      if (level === 0) return i;
    }
  }
  return -1;
}

function splitAlternatives(body: string): string[] {
  const out: string[] = [];
  let level = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '{') level++;
    else if (c === '}') level--;
    else if (c === ',' && level === 0) {
      out.push(body.slice(start, i));
      start = i + 1;
    }
  }
  out.push(body.slice(start));
  return out;
}

function escapeRe(c: string): string {
  return /[\\^$.*+?()[\]{}|/-]/.test(c) ? '\\' + c : c;
}

function translate(p: string): string {
  let re = '';
  let i = 0;
  while (i < p.length) {
    const c = p[i];
    if (c === '\\') {
      if (i + 1 < p.length) re += escapeRe(p[i + 1]);
      i += 2;
      continue;
    }
    if (c === '*') {
      if (p[i + 1] === '*') {
        // `**` only has its special meaning as a whole segment.
        const atStart = i === 0 || p[i - 1] === '/';
        const next = p[i + 2];
        if (atStart && (next === '/' || next === undefined)) {
          if (next === '/') {
            re += '(?:[^/]*/)*'; // zero or more whole segments
            i += 3;
          } else {
            re += '.*';
            i += 2;
          }
          continue;
        }
      }
      re += '[^/]*';
      while (p[i] === '*') i++;
      continue;
    }
    if (c === '?') {
      re += '[^/]';
      i++;
      continue;
    }
    if (c === '[') {
      const close = findClassEnd(p, i);
      if (close < 0) {
        re += '\\[';
        i++;
        continue;
      }
      let body = p.slice(i + 1, close);
      let negate = false;
      if (body.startsWith('!') || body.startsWith('^')) {
        negate = true;
        body = body.slice(1);
      }
      let cls = '';
      for (let k = 0; k < body.length; k++) {
        const b = body[k];
        if (b === '\\' && k + 1 < body.length) {
          cls += '\\' + body[k + 1];
          k++;
        } else if (b === '-' && k > 0 && k < body.length - 1) {
          cls += '-';
        } else {
          cls += /[\\\]^-]/.test(b) ? '\\' + b : b;
        }
      }
      re += negate ? `[^/${cls}]` : `(?!/)[${cls}]`;
      i = close + 1;
      continue;
    }
    if (c === '{') {
      const end = matchingBrace(p, i);
      if (end < 0) {
        re += '\\{';
        i++;
        continue;
      }
      const alts = splitAlternatives(p.slice(i + 1, end));
      re += '(?:' + alts.map(translate).join('|') + ')';
      i = end + 1;
      continue;
    }
    re += escapeRe(c);
    i++;
  }
  return re;
}

function findClassEnd(p: string, open: number): number {
  let i = open + 1;
  if (p[i] === '!' || p[i] === '^') i++;
  if (p[i] === ']') i++; // a leading ']' is literal
  for (; i < p.length; i++) {
    if (p[i] === '\\') {
      i++;
      continue;
    }
    if (p[i] === ']') return i;
    if (p[i] === '/') return -1;
  }
  return -1;
}

const cache = new Map<string, RegExp>();

/** Compile a glob to an anchored regular expression. */
export function globToRegExp(pattern: string): RegExp {
  let re = cache.get(pattern);
  if (!re) {
    re = new RegExp('^' + translate(pattern) + '$');
    if (cache.size > 1000) cache.clear();
    cache.set(pattern, re);
  }
  return re;
}

/** Does the whole '/'-separated path match the glob? */
export function globMatch(pattern: string, path: string): boolean {
  return globToRegExp(pattern).test(path);
}
