// A multi-keyword substring test (Wu-Manber, blocks of two characters). Most log lines hold no
// RocketMQ message, so the question asked of every line is "does it contain any catalogue
// keyword?". A regex alternation answers it at about 2.5 ns per character; this skips ahead by up
// to (shortest keyword - 1) characters at a time and answers it several times faster.
// keywordFinder asks the same of ASCII bytes, for the reader.

type KeywordScanner = (text: string) => boolean;

interface Tables {
  m: number;
  shift: Uint8Array;
  /** Per hash of a keyword's block at m - 2, m - 1: the keywords ending their first m characters so. */
  table: Array<string[] | undefined>;
}

/** Blocks are hashed to 16 bits; a collision only makes a shift smaller, never unsafe. */
function tables(words: readonly string[], m: number): Tables {
  const hash = (a: number, b: number) => ((a & 0xff) << 8) | (b & 0xff);
  const shift = new Uint8Array(65536).fill(Math.min(255, m - 1));
  const table: Array<string[] | undefined> = new Array(65536);
  for (const k of words) {
    for (let j = 1; j < m; j++) {
      const h = hash(k.charCodeAt(j - 1), k.charCodeAt(j));
      const s = m - 1 - j;
      if (s < shift[h]) shift[h] = s;
    }
    const h = hash(k.charCodeAt(m - 2), k.charCodeAt(m - 1));
    (table[h] ??= []).push(k);
  }
  return { m, shift, table };
}

export function keywordScanner(keywords: readonly string[]): KeywordScanner {
  const words = [...new Set(keywords)].filter((k) => k.length > 0);
  if (!words.length) return () => false;
  const m = Math.min(...words.map((k) => k.length));
  if (m < 2) {
    return (text) => words.some((k) => text.includes(k));
  }
  const { shift, table } = tables(words, m);
  return (text: string): boolean => {
    const n = text.length;
    let pos = m - 1;
    while (pos < n) {
      const h = ((text.charCodeAt(pos - 1) & 0xff) << 8) | (text.charCodeAt(pos) & 0xff);
      const s = shift[h];
      if (s !== 0) {
        pos += s;
        continue;
      }
      const list = table[h];
      if (list !== undefined) {
        const start = pos - m + 1;
        for (let i = 0; i < list.length; i++) if (text.startsWith(list[i], start)) return true;
      }
      pos++;
    }
    return false;
  };
}

/** Where the first occurrence of a keyword wholly inside bytes [from, to) starts, or -1. */
type KeywordFind = (bytes: Uint8Array, from: number, to: number) => number;

/**
 * The keyword scan over ASCII bytes (a decoded piece's lines, before they are strings): a byte is
 * its character there, and a keyword with another character cannot occur. Reading bytes is cheaper
 * than reading a line string's characters, and one pass serves all the lines of a piece.
 */
export function keywordFinder(keywords: readonly string[]): KeywordFind {
  const words = [...new Set(keywords)].filter((k) => k.length > 0 && /^[\x00-\x7f]*$/.test(k));
  const matchesAt = (bytes: Uint8Array, word: string, start: number, to: number): boolean => {
    const n = word.length;
    if (start + n > to) return false;
    for (let k = 0; k < n; k++) if (bytes[start + k] !== word.charCodeAt(k)) return false;
    return true;
  };
  const m = words.length ? Math.min(...words.map((k) => k.length)) : 0;
  if (m < 2) {
    return (bytes, from, to) => {
      for (let at = from; at < to; at++) for (const w of words) if (matchesAt(bytes, w, at, to)) return at;
      return -1;
    };
  }
  const { shift, table } = tables(words, m);
  // A stop (shift 0) comes every 30 bytes or so of log text: each keyword of its bucket is first
  // told by its first bytes (up to four, as many as the shortest keyword has) read as one number,
  // before it is compared byte by byte.
  const n3 = m > 2 ? 1 : 0;
  const n4 = m > 3 ? 1 : 0;
  const headOf = (k: string) => k.charCodeAt(0) | (k.charCodeAt(1) << 8) | ((k.charCodeAt(2) * n3) << 16) | ((k.charCodeAt(3) * n4) << 24);
  const heads = table.map((list) => (list === undefined ? undefined : Int32Array.from(list, headOf)));
  return (bytes: Uint8Array, from: number, to: number): number => {
    let pos = from + m - 1;
    while (pos < to) {
      const h = (bytes[pos - 1] << 8) | bytes[pos];
      const s = shift[h];
      if (s !== 0) {
        pos += s;
        continue;
      }
      const list = table[h];
      if (list !== undefined) {
        const start = pos - m + 1;
        const head = bytes[start] | (bytes[start + 1] << 8) | ((bytes[start + 2] * n3) << 16) | ((bytes[start + 3] * n4) << 24);
        const hs = heads[h]!;
        for (let i = 0; i < hs.length; i++) if (hs[i] === head && matchesAt(bytes, list[i], start, to)) return start;
      }
      pos++;
    }
    return -1;
  };
}
