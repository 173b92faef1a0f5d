// A multi-keyword substring test (Wu-Manber, blocks of two characters). Most log lines hold no
// RocketMQ message, so the question asked of every line is "does it contain any catalogue
// keyword?". A regex alternation answers it at about 2.5 ns per character; this skips ahead by up
// to (shortest keyword - 1) characters at a time and answers it several times faster.

type KeywordScanner = (text: string) => boolean;

export function keywordScanner(keywords: readonly string[]): KeywordScanner {
  const words = [...new Set(keywords)].filter((k) => k.length > 0);
  if (!words.length) return () => false;
  const m = Math.min(...words.map((k) => k.length));
  if (m < 2) {
    return (text) => words.some((k) => text.includes(k));
  }
  // Blocks are hashed to 16 bits; a collision only makes a shift smaller, never unsafe.
  const hash = (a: number, b: number) => ((a & 0xff) << 8) | (b & 0xff);
  const defaultShift = m - 1;
  const shift = new Uint8Array(65536).fill(Math.min(255, defaultShift));
  const candidates = new Map<number, string[]>();
  for (const k of words) {
    for (let j = 1; j < m; j++) {
      const h = hash(k.charCodeAt(j - 1), k.charCodeAt(j));
      const s = m - 1 - j;
      if (s < shift[h]) shift[h] = s;
    }
    const h = hash(k.charCodeAt(m - 2), k.charCodeAt(m - 1));
    let list = candidates.get(h);
    if (!list) candidates.set(h, (list = []));
    list.push(k);
  }
  const table: Array<string[] | undefined> = new Array(65536);
  for (const [h, list] of candidates) table[h] = list;

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
