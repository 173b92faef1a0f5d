// A multi-keyword substring scan (Wu-Manber). Most log lines hold no RocketMQ message, so the
// question asked of every line is "does it contain any catalogue keyword?", and of a line that does,
// "which, where?". A regex alternation answers them at every character; this skips ahead by up to
// (shortest keyword - block + 1) characters at a time. keywordPlaces asks it of strings (blocks of
// three characters); keywordFinder of ASCII bytes, and keywordStarts (the same loop in WebAssembly)
// of a block of them at once, with blocks of two bytes.

import { hasControlByte } from '../ingest/control-bytes.js';
import { WASM_BASE64 } from './keyword-scan-wasm.js';

type KeywordScanner = (text: string) => boolean;

interface Tables {
  m: number;
  shift: Uint8Array;
  /** Per number of a keyword's block ending at m - 1: the keywords ending their first m characters so. */
  table: Array<string[] | undefined>;
}

/** Blocks of two characters are numbered as their low bytes (the WebAssembly scan reads them so). */
const block2 = (s: string, end: number): number => ((s.charCodeAt(end - 1) & 0xff) << 8) | (s.charCodeAt(end) & 0xff);
/** Blocks of three characters, mixed to 16 bits (the string scan's: fewer common blocks than two characters give). */
const block3 = (s: string, end: number): number =>
  (((s.charCodeAt(end - 2) & 0xff) * 31 + (s.charCodeAt(end - 1) & 0xff)) * 31 + (s.charCodeAt(end) & 0xff)) & 0xffff;

/** Blocks are numbered in 16 bits; a collision only makes a shift smaller, never unsafe. */
function tables(words: readonly string[], m: number, size: 2 | 3 = 2): Tables {
  const hash = size === 2 ? block2 : block3;
  const shift = new Uint8Array(65536).fill(Math.min(255, m - size + 1));
  const table: Array<string[] | undefined> = new Array(65536);
  for (const k of words) {
    for (let j = size - 1; j < m; j++) {
      const h = hash(k, j);
      const s = m - 1 - j;
      if (s < shift[h]) shift[h] = s;
    }
    (table[hash(k, m - 1)] ??= []).push(k);
  }
  return { m, shift, table };
}

export function keywordScanner(keywords: readonly string[]): KeywordScanner {
  const { places, bucketAt } = stringScan(keywords);
  return (text) => {
    for (let at = places(text, 0); at >= 0; at = places(text, at + 1)) {
      const list = bucketAt(text, at);
      for (let i = 0; i < list.length; i++) if (text.startsWith(list[i], at)) return true;
    }
    return false;
  };
}

/**
 * Where a keyword may start in a string, at or after `from`, or -1: every start of a keyword is
 * among the places given, in increasing order, and the caller checks them (a sticky regex, native
 * code, compares a long keyword faster than a loop over its characters can).
 */
export type KeywordPlaces = (text: string, from: number) => number;

export function keywordPlaces(keywords: readonly string[]): KeywordPlaces {
  return stringScan(keywords).places;
}

/**
 * KeywordPlaces by Wu-Manber's skip over a string's characters in blocks of three (in blocks of two,
 * the catalogue's keywords end in so many common pairs that the scan moved under three characters a step): a
 * place is where the block ending m - 1 further on ends the first m characters of some keyword with
 * the same first character. A character above U+00FF counts as its low byte: only a shift is smaller.
 * `bucketAt`: the keywords that may start at a place (every one that does is among them).
 */
function stringScan(keywords: readonly string[]): { places: KeywordPlaces; bucketAt: (text: string, at: number) => readonly string[] } {
  const words = [...new Set(keywords)].filter((k) => k.length > 0);
  const m = words.length ? Math.min(...words.map((k) => k.length)) : 0;
  if (words.length === 0) return { places: () => -1, bucketAt: () => words };
  if (m < 3) return { places: (text, from) => (Math.max(0, from) < text.length ? Math.max(0, from) : -1), bucketAt: () => words };
  const { shift, table } = tables(words, m, 3);
  // Per bucket, the first characters of its keywords (most buckets hold one or two).
  const firsts: Array<number[] | undefined> = table.map((list) => (list === undefined ? undefined : [...new Set(list.map((k) => k.charCodeAt(0)))]));
  const none: readonly string[] = [];
  const places: KeywordPlaces = (text, from) => {
    const n = text.length;
    let pos = Math.max(0, from) + m - 1;
    while (pos < n) {
      const h = block3(text, pos);
      const s = shift[h];
      if (s !== 0) {
        pos += s;
        continue;
      }
      const list = firsts[h];
      if (list !== undefined) {
        const c = text.charCodeAt(pos - m + 1);
        for (let i = 0; i < list.length; i++) if (list[i] === c) return pos - m + 1;
      }
      pos++;
    }
    return -1;
  };
  const bucketAt = (text: string, at: number): readonly string[] => (at + m <= text.length ? (table[block3(text, at + m - 1)] ?? none) : none);
  return { places, bucketAt };
}

/** Where the first occurrence of a keyword wholly inside bytes [from, to) starts, or -1. */
type KeywordFind = (bytes: Uint8Array, from: number, to: number) => number;

/** Whether ASCII `word` is at `start` of `bytes`, wholly before `to`. */
function matchesAt(bytes: Uint8Array, word: string, start: number, to: number): boolean {
  const n = word.length;
  if (start + n > to) return false;
  for (let k = 0; k < n; k++) if (bytes[start + k] !== word.charCodeAt(k)) return false;
  return true;
}

/**
 * The keyword scan over ASCII bytes (a decoded piece's lines, before they are strings): a byte is
 * its character there, and a keyword with another character cannot occur. keywordStarts runs the
 * same loop as WebAssembly; this one is its reference and its way for keywords under four bytes.
 */
export function keywordFinder(keywords: readonly string[]): KeywordFind {
  const words = [...new Set(keywords)].filter((k) => k.length > 0 && /^[\x00-\x7f]*$/.test(k));
  const m = words.length ? Math.min(...words.map((k) => k.length)) : 0;
  if (m < 2) {
    return (bytes, from, to) => {
      for (let at = from; at < to; at++) for (const w of words) if (matchesAt(bytes, w, at, to)) return at;
      return -1;
    };
  }
  const { shift, table } = tables(words, m);
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
        for (let i = 0; i < list.length; i++) if (matchesAt(bytes, list[i], start, to)) return start;
      }
      pos++;
    }
    return -1;
  };
}

/**
 * Every position where a keyword wholly inside bytes [from, to) starts, in increasing order, each
 * followed by the length of the longest keyword starting there: [start, length, start, length, ...],
 * a view valid until the next call (the starts are those of a keywordFinder called from each start + 1).
 * Null when the bytes hold a control byte (src/ingest/control-bytes.ts): the reader, which asks
 * this of its ASCII blocks, then judges the block line by line, and needs no second look at them.
 */
export type KeywordStarts = (bytes: Uint8Array, from: number, to: number) => Int32Array | null;

/** The layout keyword-scan.wat reads: tables, then the keywords' bytes. */
const SHIFT_AT = 0;
const BUCKET_AT = 65536;
const BUCKETS_AT = 131072;
const MAX_BUCKETS = 255;

/** The little of WebAssembly used here (the project's TypeScript libraries do not declare it). */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
};

interface ScanExports {
  mem: { buffer: ArrayBuffer; grow(pages: number): number };
  scan: (from: number, to: number, out: number, m: number, bias: number) => number;
  controls: (from: number, to: number) => number;
}

let wasmModule: object | null = null;

/**
 * keywordFinder's scan run as WebAssembly (keyword-scan.wat) over its tables, for every start of a
 * block at once: the loop has no bounds checks and reads a block in one load, where the JavaScript
 * one checks each typed-array read (the bench's profiles: docs/bench.md). Keywords shorter than
 * four bytes, or more buckets than the tables hold, take keywordFinder instead.
 */
export function keywordStarts(keywords: readonly string[]): KeywordStarts {
  const words = [...new Set(keywords)].filter((k) => k.length > 0 && /^[\x00-\x7f]*$/.test(k));
  const m = words.length ? Math.min(...words.map((k) => k.length)) : 0;
  if (m < 4) return startsOf(keywordFinder(keywords), words);
  const { shift, table } = tables(words, m);
  const buckets = table.reduce((n, list) => n + (list === undefined ? 0 : 1), 0);
  if (buckets > MAX_BUCKETS) return startsOf(keywordFinder(keywords), words);

  const entriesAt = BUCKETS_AT + 8 * (MAX_BUCKETS + 1);
  const wordsAt = entriesAt + 12 * words.length;
  const tablesEnd = wordsAt + words.reduce((n, k) => n + k.length, 0);
  wasmModule ??= new WebAssembly.Module(Buffer.from(WASM_BASE64, 'base64'));
  const { mem, scan, controls } = new WebAssembly.Instance(wasmModule).exports as unknown as ScanExports;
  const input = (tablesEnd + 15) & ~15;
  let capacity = 0;
  let bytesView = new Uint8Array(0);
  let startsView = new Int32Array(0);
  /** Room for `n` input bytes and as many starts. */
  const room = (n: number) => {
    if (n <= capacity) return;
    capacity = (Math.max(n, 1 << 17) + 15) & ~15; // the starts after the input stay 4-byte aligned
    const need = input + capacity + 8 * capacity + 8;
    const pages = Math.ceil((need - mem.buffer.byteLength) / 65536);
    if (pages > 0) mem.grow(pages);
    bytesView = new Uint8Array(mem.buffer);
    startsView = new Int32Array(mem.buffer);
  };
  room(1);
  // tables() numbers a block b0 << 8 | b1; the WebAssembly reads it as one little-endian u16, b0 | b1 << 8.
  const u8 = new Uint8Array(mem.buffer);
  const dv = new DataView(mem.buffer);
  let bucket = 0;
  let entry = entriesAt;
  let at = wordsAt;
  for (let h = 0; h < 65536; h++) {
    const block = (h >>> 8) | ((h & 0xff) << 8);
    u8[SHIFT_AT + block] = shift[h];
    const list = table[h];
    if (list === undefined) continue;
    bucket++;
    u8[BUCKET_AT + block] = bucket;
    dv.setUint32(BUCKETS_AT + 8 * bucket, entry, true);
    dv.setUint32(BUCKETS_AT + 8 * bucket + 4, list.length, true);
    for (const k of list) {
      dv.setUint32(entry, (k.charCodeAt(0) | (k.charCodeAt(1) << 8) | (k.charCodeAt(2) << 16) | (k.charCodeAt(3) << 24)) >>> 0, true);
      dv.setUint32(entry + 4, at, true);
      dv.setUint32(entry + 8, k.length, true);
      entry += 12;
      for (let i = 0; i < k.length; i++) u8[at++] = k.charCodeAt(i);
    }
  }
  return (bytes, from, to) => {
    const n = to - from;
    room(n);
    bytesView.set(bytes.subarray(from, to), input);
    if (controls(input, input + n) !== 0) return null;
    if (n < m) return startsView.subarray(0, 0);
    const out = input + capacity;
    const count = scan(input, input + n, out, m, input - from);
    return startsView.subarray(out >> 2, (out >> 2) + 2 * count);
  };
}

/** KeywordStarts by a keywordFinder, called from each start on (short keywords: few, and tests). */
function startsOf(find: KeywordFind, words: readonly string[]): KeywordStarts {
  let list = new Int32Array(64);
  return (bytes, from, to) => {
    if (hasControlByte(bytes, from, to)) return null;
    let n = 0;
    for (let at = find(bytes, from, to); at >= 0; at = find(bytes, at + 1, to)) {
      if (n + 2 > list.length) {
        const grown = new Int32Array(list.length * 2);
        grown.set(list);
        list = grown;
      }
      let longest = 0;
      for (const w of words) if (w.length > longest && matchesAt(bytes, w, at, to)) longest = w.length;
      list[n++] = at;
      list[n++] = longest;
    }
    return list.subarray(0, n);
  };
}
