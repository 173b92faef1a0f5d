// A multi-keyword substring test (Wu-Manber, blocks of three characters). Most log lines hold no
// RocketMQ message, so the question asked of every line is "does it contain any catalogue
// keyword?". A regex alternation answers it at about 2.5 ns per character; this skips ahead by up
// to (shortest keyword - 2) characters at a time and answers it several times faster. Blocks of
// three, not two: with 141 keywords most two-letter pairs of English text occur in some keyword,
// and so stop the skip and cost a look at the bucket (about five times as often, on real logs).
// keywordFinder asks the same of ASCII bytes, for the reader; keywordEach reports every keyword.

type KeywordScanner = (text: string) => boolean;

/**
 * Up to this many keywords, each is looked for with String#includes (V8's own string search): about
 * twice as fast as the skip here for the application hints' seven, whose shortest has 5 characters.
 */
const FEW = 8;

/** Hash of the block of three characters ending at a position (16 bits; see tables). */
const block = (a: number, b: number, c: number): number => (((a & 0xff) << 8) ^ ((b & 0xff) << 4) ^ (c & 0xff) ^ ((a & 0xff) >> 1)) & 0xffff;

interface Tables {
  m: number;
  shift: Uint8Array;
  /** Per hash of a keyword's block at m - 3 .. m - 1: the keywords ending their first m characters so. */
  table: Array<string[] | undefined>;
}

/** Blocks are hashed to 16 bits; a collision only makes a shift smaller or a bucket longer, never unsafe. */
function tables(words: readonly string[], m: number): Tables {
  const shift = new Uint8Array(65536).fill(Math.min(255, m - 2));
  const table: Array<string[] | undefined> = new Array(65536);
  for (const k of words) {
    for (let j = 2; j < m; j++) {
      const h = block(k.charCodeAt(j - 2), k.charCodeAt(j - 1), k.charCodeAt(j));
      const s = m - 1 - j;
      if (s < shift[h]) shift[h] = s;
    }
    const h = block(k.charCodeAt(m - 3), k.charCodeAt(m - 2), k.charCodeAt(m - 1));
    (table[h] ??= []).push(k);
  }
  return { m, shift, table };
}

export function keywordScanner(keywords: readonly string[]): KeywordScanner {
  const words = [...new Set(keywords)].filter((k) => k.length > 0);
  if (!words.length) return () => false;
  const m = Math.min(...words.map((k) => k.length));
  if (m < 3 || words.length <= FEW) {
    return (text) => {
      for (let i = 0; i < words.length; i++) if (text.includes(words[i])) return true;
      return false;
    };
  }
  const { shift, table } = tables(words, m);
  return (text: string): boolean => {
    const n = text.length;
    let pos = m - 1;
    while (pos < n) {
      const h = block(text.charCodeAt(pos - 2), text.charCodeAt(pos - 1), text.charCodeAt(pos));
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

/** Every keyword occurrence in a text, as (keyword's index in the list given, where it starts). */
type KeywordEach = (text: string, found: (word: number, at: number) => void) => void;

/**
 * The same scan reporting every occurrence of every keyword (the catalogue's candidates of a line):
 * at a position where several keywords start, each of them, in the order of the list given.
 */
export function keywordEach(keywords: readonly string[]): KeywordEach {
  const m = keywords.length ? Math.min(...keywords.map((k) => k.length)) : 0;
  if (m < 3 || new Set(keywords).size !== keywords.length) throw new Error('keywordEach: distinct keywords of 3 or more characters');
  const { shift, table } = tables(keywords, m);
  const index = new Map(keywords.map((k, i) => [k, i]));
  const ids = table.map((list) => (list === undefined ? undefined : list.map((k) => index.get(k)!)));
  return (text, found) => {
    const n = text.length;
    let pos = m - 1;
    while (pos < n) {
      const h = block(text.charCodeAt(pos - 2), text.charCodeAt(pos - 1), text.charCodeAt(pos));
      const s = shift[h];
      if (s !== 0) {
        pos += s;
        continue;
      }
      const list = table[h];
      if (list !== undefined) {
        const start = pos - m + 1;
        for (let i = 0; i < list.length; i++) if (text.startsWith(list[i], start)) found(ids[h]![i], start);
      }
      pos++;
    }
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
  if (m < 3) {
    return (bytes, from, to) => {
      for (let at = from; at < to; at++) for (const w of words) if (matchesAt(bytes, w, at, to)) return at;
      return -1;
    };
  }
  const { shift, table } = tables(words, m);
  return (bytes: Uint8Array, from: number, to: number): number => {
    let pos = from + m - 1;
    while (pos < to) {
      const h = block(bytes[pos - 2], bytes[pos - 1], bytes[pos]);
      const s = shift[h];
      if (s !== 0) {
        pos += s;
        continue;
      }
      const list = table[h];
      if (list !== undefined) {
        const start = pos - m + 1;
        for (let i = 0; i < list.length; i++) if (matchesAt(bytes, list[i], start, to)) return start;
      }
      pos++;
    }
    return -1;
  };
}
