import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CATALOGUE, KEYWORD_PREFILTER } from '../../src/parse/catalogue.js';
import { keywordPlaces, keywordScanner } from '../../src/parse/keyword-scan.js';
import { hasKeyword } from '../../src/parse/parser.js';

const keywords = [...new Set(CATALOGUE.flatMap((e) => e.keywords))];
const REAL = join(__dirname, '..', 'fixtures', 'real');
/** Pieces of random lines: keywords, their heads and tails (overlaps), other text and other scripts. */
const piece = fc.oneof(
  fc.constantFrom(...keywords),
  fc.constantFrom(...keywords).map((k) => k.slice(0, Math.max(1, k.length - 2))),
  fc.constantFrom(...keywords).map((k) => k.slice(2)),
  fc.string({ maxLength: 12 }),
  fc.constantFrom('中文', '\u0100\u0101', 'Ā', '\u2028', '\u4e4e'),
);

describe('keyword scanner', () => {
  it('finds each keyword at the start, middle and end of a line', () => {
    for (const k of keywords) {
      expect(hasKeyword(k), k).toBe(true);
      expect(hasKeyword(`2024-05-20 14:03:07 INFO x - ${k}`), k).toBe(true);
      expect(hasKeyword(`${k} trailing text`), k).toBe(true);
      expect(hasKeyword(k.slice(0, -1)), k).toBe(k.slice(0, -1) !== k && keywords.some((o) => k.slice(0, -1).includes(o)));
    }
  });

  it('agrees with the catalogue prefilter regex on every real excerpt line', () => {
    for (const f of readdirSync(REAL).filter((x) => x.endsWith('.log'))) {
      for (const line of readFileSync(join(REAL, f), 'utf8').split('\n')) {
        expect(hasKeyword(line), line).toBe(KEYWORD_PREFILTER.test(line));
      }
    }
  });

  it('agrees with the regex on random text built from keyword pieces, including non-Latin-1 characters', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        expect(hasKeyword(text)).toBe(KEYWORD_PREFILTER.test(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('handles short keyword sets and empty input', () => {
    expect(keywordScanner([])('anything')).toBe(false);
    expect(keywordScanner(['a'])('xxa')).toBe(true);
    expect(keywordScanner(['ab', 'cd'])('xxcd')).toBe(true);
    expect(keywordScanner(['abc'])('')).toBe(false);
  });
});

/** Every start of a keyword in a text, as the catalogue's alternation finds them. */
function regexStarts(text: string): number[] {
  const re = new RegExp(KEYWORD_PREFILTER.source, 'g');
  const out: number[] = [];
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    out.push(m.index);
    re.lastIndex = m.index + 1;
  }
  return out;
}

const cataloguePlaces = keywordPlaces(keywords);

/** The places keywordPlaces gives, in order (checked increasing). */
function places(text: string, words?: readonly string[]): number[] {
  const next = words === undefined ? cataloguePlaces : keywordPlaces(words);
  const out: number[] = [];
  for (let at = next(text, 0); at >= 0; at = next(text, at + 1)) {
    if (out.length > 0) expect(at).toBeGreaterThan(out[out.length - 1]);
    out.push(at);
  }
  return out;
}

/** Every start is among the places, and every place that holds a keyword start is one. */
function expectPlacesCover(text: string): number {
  const given = new Set(places(text));
  const starts = regexStarts(text);
  for (const s of starts) expect(given.has(s), `${s} in ${JSON.stringify(text)}`).toBe(true);
  return starts.length;
}

describe('keyword places in a string', () => {
  it('gives every keyword start of every real excerpt line, and few other places', () => {
    let found = 0;
    let given = 0;
    for (const f of readdirSync(REAL).filter((x) => x.endsWith('.log'))) {
      for (const line of readFileSync(join(REAL, f), 'utf8').split('\n')) {
        found += expectPlacesCover(line);
        given += places(line).length;
      }
    }
    expect(found).toBeGreaterThan(100);
    // A skip that gave every character would pass the test above: the places must be few.
    expect(given).toBeLessThan(found * 3);
  });

  it('gives every start in random text of keyword pieces, overlapping keywords and other scripts', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
        expectPlacesCover(parts.join(''));
      }),
      { numRuns: 3000 },
    );
  });

  it('starts at `from` and handles short keyword sets and empty input', () => {
    const k = keywords[0];
    const text = `${k} and ${k}`;
    const second = text.lastIndexOf(k);
    const from1 = cataloguePlaces(text, 1);
    expect(from1).toBeGreaterThanOrEqual(1);
    expect(from1).toBeLessThanOrEqual(second);
    expect(places(text)).toContain(second);
    expect(cataloguePlaces('', 0)).toBe(-1);
    expect(places('xxabcdx', ['ab', 'abcd', 'bc'])).toEqual(expect.arrayContaining([2, 3]));
    expect(places('anything', [])).toEqual([]);
  });
});

describe('keyword finder over bytes', () => {
  it('finds where the first keyword of ASCII bytes starts, as hasKeyword tells a line', async () => {
    const { keywordFinder } = await import('../../src/parse/keyword-scan.js');
    const find = keywordFinder(keywords);
    const ascii = (s: string) => /^[\x00-\x7f]*$/.test(s);
    for (const f of readdirSync(REAL).filter((x) => x.endsWith('.log'))) {
      for (const line of readFileSync(join(REAL, f), 'utf8').split('\n').filter(ascii)) {
        const b = Buffer.from(`xx\n${line}\nyy`, 'latin1');
        const at = find(b, 3, 3 + line.length);
        expect(at >= 0, line).toBe(hasKeyword(line));
        if (at >= 0) expect(keywords.some((k) => line.startsWith(k, at - 3)), line).toBe(true);
        if (at >= 0) expect(keywords.some((k) => line.slice(0, at - 3 + k.length - 1).includes(k)), line).toBe(false);
      }
    }
    const piece = fc.oneof(fc.constantFrom(...keywords), fc.constantFrom(...keywords).map((k) => k.slice(1)), fc.string({ maxLength: 8 }).filter(ascii));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }), (parts) => {
        const text = parts.join('');
        expect(find(Buffer.from(text, 'latin1'), 0, text.length) >= 0).toBe(hasKeyword(text));
      }),
      { numRuns: 2000 },
    );
    expect(keywordFinder(['ab'])(Buffer.from('xab'), 0, 2)).toBe(-1); // must end before `to`
    expect(keywordFinder(['a'])(Buffer.from('xxa'), 0, 3)).toBe(2);
  });

  it('gives every keyword start of a block and its longest keyword in WebAssembly, the starts of the finder called from each start on', async () => {
    const { keywordFinder, keywordStarts } = await import('../../src/parse/keyword-scan.js');
    const ascii = (s: string) => /^[\x00-\x7f]*$/.test(s);
    /** The reference: the JavaScript finder, from each start + 1. */
    const chain = (find: (b: Uint8Array, f: number, t: number) => number, b: Uint8Array, from: number, to: number, words = keywords) => {
      const out: number[] = [];
      const text = b.toString('latin1');
      for (let at = find(b, from, to); at >= 0; at = find(b, at + 1, to)) {
        out.push(at, Math.max(...words.filter((k) => text.startsWith(k, at) && at + k.length <= to).map((k) => k.length)));
      }
      return out;
    };
    const find = keywordFinder(keywords);
    const starts = keywordStarts(keywords);
    // Every real excerpt as one block, and cut at odd places (a keyword cut by `to` is not whole).
    for (const f of readdirSync(REAL).filter((x) => x.endsWith('.log'))) {
      const text = readFileSync(join(REAL, f), 'utf8').split('\n').filter(ascii).join('\n');
      const b = Buffer.from(text, 'latin1');
      for (const [from, to] of [[0, b.length], [7, b.length - 5], [b.length >> 1, b.length]]) {
        expect([...starts(b, from, to)], f).toEqual(chain(find, b, from, to));
      }
    }
    // Overlapping keywords, keywords at both ends, and nested ones (a keyword inside another).
    const piece = fc.oneof(fc.constantFrom(...keywords), fc.constantFrom(...keywords).map((k) => k.slice(1)), fc.constantFrom(...keywords).map((k) => k.slice(0, -1)), fc.string({ maxLength: 8 }).filter(ascii));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }), fc.nat(6), fc.nat(6), (parts, a, z) => {
        const b = Buffer.from(parts.join(''), 'latin1');
        const from = Math.min(a, b.length);
        const to = Math.max(from, b.length - z);
        expect([...starts(b, from, to)]).toEqual(chain(find, b, from, to));
      }),
      { numRuns: 3000 },
    );
    // A block larger than the first memory it was given: the memory grows, the answers stay.
    const big = Buffer.from(Array.from({ length: 30000 }, (_, i) => (i % 7 ? `plain line ${i}` : `x ${keywords[i % keywords.length]} y`)).join('\n'), 'latin1');
    expect(big.length).toBeGreaterThan(1 << 18);
    expect([...starts(big, 0, big.length)]).toEqual(chain(find, big, 0, big.length));
    expect([...starts(Buffer.from('short'), 0, 5)]).toEqual([]);
    // Keywords shorter than four bytes take the JavaScript finder: the same answers.
    const few = keywordStarts(['ab', 'abc', 'b']);
    expect([...few(Buffer.from('xabcab b'), 0, 8)]).toEqual([1, 3, 2, 1, 4, 2, 5, 1, 7, 1]);
    expect([...few(Buffer.from('xabc'), 0, 3)]).toEqual([1, 2, 2, 1]); // `abc` does not end before `to`
  });

  it('tells a block that holds a control byte (null), as the reader judges one, in WebAssembly and in JavaScript', async () => {
    const { keywordStarts } = await import('../../src/parse/keyword-scan.js');
    const { CONTROL, hasControlByte } = await import('../../src/ingest/control-bytes.js');
    const wasm = keywordStarts(keywords);
    const js = keywordStarts(['ab', 'abc']); // keywords shorter than four bytes: the JavaScript finder
    const same = (b: Uint8Array, from: number, to: number) => {
      const want = hasControlByte(b, from, to);
      expect(wasm(b, from, to) === null, `${from} ${to}`).toBe(want);
      expect(js(b, from, to) === null).toBe(want);
    };
    // Every byte value at every place of a block, in the 16-byte steps and the tail, and just outside it.
    for (let v = 0; v < 256; v++) {
      for (let at = 0; at < 40; at++) {
        const b = Buffer.alloc(40, 'a');
        b[at] = v;
        same(b, 0, 40);
        same(b, 3, 37);
      }
    }
    expect([...Array(256).keys()].filter((v) => CONTROL[v]).length).toBe(28);
    // Text with a rare other byte, any block.
    const byte = fc.oneof({ arbitrary: fc.integer({ min: 0x20, max: 0x7e }), weight: 30 }, { arbitrary: fc.integer({ min: 0, max: 255 }), weight: 1 });
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 120 }), fc.nat(40), fc.nat(40), (bytes, a, z) => {
        const b = Buffer.from(bytes);
        const from = Math.min(a, b.length);
        same(b, from, Math.max(from, b.length - z));
      }),
      { numRuns: 3000 },
    );
  });

  it('runs the WebAssembly module its source assembles to', () => {
    // scripts/build-wasm.mjs --check: the generated modules are what their .wat files assemble to now.
    const r = spawnSync(process.execPath, [join(__dirname, '..', '..', 'scripts', 'build-wasm.mjs'), '--check'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
