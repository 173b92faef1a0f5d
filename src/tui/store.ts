// The TUI's event store. Per event it keeps what the list, the filters and the time strip need
// without decoding anything (position time, real time, source, type, level, kind, line, noise, and
// where its encoded JSON is), in pages of a few thousand events, column by column. For real inputs
// the pages are written to a spill file beside the JSON and read back through a small cache; in
// tests and the benchmark's synthetic timeline they stay in memory. What the store holds in memory
// is bounded whatever the input: the cached pages, the last decoded events, one read block of JSON
// (and of the log files' lines, one for each of at most 32 files), the names of the records kept as
// lines (at most 65,535), and a summary of at most `maxBlocks` blocks of events (a block doubles
// when the input would need more): each block's first and last time and its events per host and
// cell, from which the time strip and the replay lanes are counted. Most records of a log that are no RocketMQ event come
// as the places of their lines (the timeline's otherLines): the store keeps the place and the
// header's thread and logger, and reads the line again from its file when the event is shown.
// Nothing here knows about ink.

import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { decodeJson, encodedText, encodeEvent, readHeader, type EncodedHeader } from '../parse/event-codec.js';
import type { LineRecord } from '../parse/event-binary.js';
import { EVENT_TYPES, type EventType, type RmqEvent } from '../parse/types.js';
import { BlockFile } from '../ingest/block-file.js';
import { SOURCE_KINDS, type SourceKind } from '../ingest/kinds.js';
import { LineFiles } from '../ingest/line-files.js';
import { createSpillDir, removeSpillDir } from '../timeline/spill.js';
import { isNoiseEncoded, levelRank } from '../timeline/event-filter.js';

export const TYPE_INDEX: ReadonlyMap<EventType, number> = new Map(EVENT_TYPES.map((t, i) => [t, i]));
export const OTHER_TYPE = EVENT_TYPES.indexOf('other');
const KIND_INDEX: ReadonlyMap<string, number> = new Map(SOURCE_KINDS.map((k, i) => [k, i]));
const UNKNOWN_KIND = SOURCE_KINDS.indexOf('unknown');

/** Where a source's events come from: its file as the user named it and its host. */
export interface StoreSource {
  file: string;
  host: string;
  /** Where to read the file again (the detail pane's whole record); '-' for stdin; default `file`. */
  path?: string;
}

// Level ranks (for `level:warn` and the colours of the time strip) have one home: the event filter.
export { LEVEL_WORDS, levelRank } from '../timeline/event-filter.js';

/** Sizes of the store's pages, cache and summary (tests use small ones to cross many pages). */
export interface StoreTuning {
  /** Events per page: 2^pageShift. */
  pageShift: number;
  /** Pages the disk form keeps in memory. */
  cachePages: number;
  /** Events of a summary block at first (a power of two); blocks double when there would be more than maxBlocks. */
  blockMin: number;
  maxBlocks: number;
  /** Bytes the per-block host histogram may take: with many hosts there are fewer, larger blocks. */
  histBytes: number;
  /** Listed rows of a filter kept in memory; beyond that they go to a file in the store's folder. */
  rowsInMemory: number;
}

export const TUNING: StoreTuning = { pageShift: 12, cachePages: 32, blockMin: 256, maxBlocks: 16384, histBytes: 2 << 20, rowsInMemory: 1 << 16 };

/**
 * Cells of the summary's histogram, per host: the level class (0 info or none, 1 warn, 2 error)
 * times two, plus 1 for a record that is no RocketMQ event (type `other`).
 */
export const CELLS = 6;

/** Level class of a level word: 0 info (or none, or below), 1 warn, 2 error and worse. */
export function levelClassOf(word: string | null): number {
  const r = levelRank(word);
  return r >= 4 ? 2 : r === 3 ? 1 : 0;
}

// --- pages ---------------------------------------------------------------------------------------

// Column offsets in a page, in bytes per event slot: the 8-byte columns first (a Float64Array view
// needs 8-byte alignment), and the columns a filter reads last, so that a scan reads only the tail of
// each page it needs: 11 bytes an event for a filter, 19 with the time, 23 with the line (the last
// three columns are a record kept as its line's, which a filter does not read, but an 8-byte
// column after them would leave a gap: they are few bytes).
const AT = { ts: 0, off: 8, len: 16, line: 20, t: 24, source: 32, type: 34, level: 35, kind: 36, noise: 37, thread: 38, logger: 40, where: 42 } as const;
/** Bytes per event in a page. */
export const EVENT_BYTES = 43;

/** Where an event's text is (Page.where): its JSON in the store's file, or its line in its own file. */
const IN_JSON = 0;
const IN_LINE = 1;

/** The columns a scan reads: a filter's, with the position time, with the line, or all. */
export type Need = 'filter' | 'time' | 'line' | 'all';
const NEED_AT: Record<Need, number> = { filter: AT.source, time: AT.t, line: AT.line, all: 0 };

/** Events [start, start + length) of the store, column by column. */
export class Page {
  index = -1;
  start = 0;
  length = 0;
  /** Real time (epoch ms), NaN when the event has none. */
  readonly ts: Float64Array;
  /** Where the event's JSON is (byte offset in the spill file, or index in memory), and its bytes. */
  readonly off: Float64Array;
  readonly len: Uint32Array;
  /** 1-based line in the file. */
  readonly line: Uint32Array;
  /**
   * Position time (epoch ms): the event's time; for an event without one (time-only layouts,
   * headerless pastes), the time of the event before it in the merge. Never decreasing, so events
   * can be found by time with a binary search.
   */
  readonly t: Float64Array;
  /** Index into `sources`. */
  readonly source: Uint16Array;
  /** Index into EVENT_TYPES. */
  readonly type: Uint8Array;
  /** Index into `levels`. */
  readonly level: Uint8Array;
  /** Index into SOURCE_KINDS. */
  readonly kind: Uint8Array;
  /** 1 for noise (isNoise of src/timeline/event-filter.ts). */
  readonly noise: Uint8Array;
  /** Of an event kept as its line (IN_LINE): its thread and logger, as indices into the store's `names`. */
  readonly thread: Uint16Array;
  readonly logger: Uint16Array;
  /** IN_JSON: `off` and `len` say where its JSON is; IN_LINE: where its line is in its source's file. */
  readonly where: Uint8Array;
  readonly bytes: Uint8Array;

  constructor(readonly size: number) {
    const buf = new ArrayBuffer(size * EVENT_BYTES);
    this.bytes = new Uint8Array(buf);
    this.ts = new Float64Array(buf, AT.ts * size, size);
    this.off = new Float64Array(buf, AT.off * size, size);
    this.len = new Uint32Array(buf, AT.len * size, size);
    this.line = new Uint32Array(buf, AT.line * size, size);
    this.t = new Float64Array(buf, AT.t * size, size);
    this.source = new Uint16Array(buf, AT.source * size, size);
    this.type = new Uint8Array(buf, AT.type * size, size);
    this.level = new Uint8Array(buf, AT.level * size, size);
    this.kind = new Uint8Array(buf, AT.kind * size, size);
    this.noise = new Uint8Array(buf, AT.noise * size, size);
    this.thread = new Uint16Array(buf, AT.thread * size, size);
    this.logger = new Uint16Array(buf, AT.logger * size, size);
    this.where = new Uint8Array(buf, AT.where * size, size);
  }
}

// --- the summary ---------------------------------------------------------------------------------

/**
 * Per block of `size` consecutive events: the position time of its first and last event and its
 * events per host and cell (`hist[(block * hosts + host) * CELLS + cell]`). At most `max` blocks:
 * when the input needs more, neighbours are merged and blocks get twice as large, so the summary's
 * size depends on the number of hosts only.
 */
export class Blocks {
  size: number;
  count = 0;
  readonly max: number;
  readonly t0: Float64Array;
  readonly t1: Float64Array;
  readonly hist: Uint32Array;

  constructor(
    readonly hosts: number,
    tuning: StoreTuning,
  ) {
    const h = Math.max(1, hosts);
    this.max = Math.max(2, Math.min(tuning.maxBlocks, Math.floor(tuning.histBytes / (h * CELLS * 4)))) & ~1;
    this.size = tuning.blockMin;
    this.t0 = new Float64Array(this.max);
    this.t1 = new Float64Array(this.max);
    this.hist = new Uint32Array(this.max * h * CELLS);
  }

  add(i: number, t: number, host: number, cell: number): void {
    let b = Math.floor(i / this.size);
    if (b >= this.max) {
      this.halve();
      b = Math.floor(i / this.size);
    }
    if (b >= this.count) {
      this.count = b + 1;
      this.t0[b] = t;
    }
    this.t1[b] = t;
    this.hist[(b * this.hosts + host) * CELLS + cell]++;
  }

  private halve(): void {
    const w = this.hosts * CELLS;
    const half = Math.ceil(this.count / 2);
    for (let k = 0; k < half; k++) {
      const a = 2 * k;
      const b = a + 1 < this.count ? a + 1 : a;
      this.t0[k] = this.t0[a];
      this.t1[k] = this.t1[b];
      for (let c = 0; c < w; c++) this.hist[k * w + c] = this.hist[a * w + c] + (b !== a ? this.hist[b * w + c] : 0);
    }
    this.hist.fill(0, half * w);
    this.count = half;
    this.size *= 2;
  }

  /** Blocks that began before the first dated event sit at its time, as their events do. */
  settle(firstT: number): void {
    for (let b = 0; b < this.count; b++) {
      if (Number.isNaN(this.t0[b])) this.t0[b] = firstT;
      if (Number.isNaN(this.t1[b])) this.t1[b] = firstT;
    }
  }

  /** Events in block b of a store of n events. */
  eventsIn(b: number, n: number): number {
    return Math.max(0, Math.min(this.size, n - b * this.size));
  }

  get bytes(): number {
    return this.t0.byteLength + this.t1.byteLength + this.hist.byteLength;
  }
}

// --- the encoded JSON ----------------------------------------------------------------------------

/** Reads back the encoded JSON of an event (src/parse/event-codec.ts, without its time). */
interface RawReader {
  /** The JSON at `at` (as RawSink.append gave it), `bytes` long. */
  raw(at: number, bytes: number): string;
  close(): void;
  /** Bytes the reader keeps in memory (its read block). */
  readonly retainedBytes?: number;
}

/** Where the encoded JSON goes while the store is built. */
export interface RawSink {
  /** Keeps one event's JSON; `at` and `bytes` then say where it is. */
  append(json: string): void;
  /** append() of a JSON text given as its UTF-8 bytes, b[start, end). */
  appendBytes(b: Buffer, start: number, end: number): void;
  readonly at: number;
  readonly bytes: number;
  /** A folder of the sink's own where the store also keeps its pages; null: they stay in memory. */
  readonly dir: string | null;
  finish(): RawReader;
}

/** Keeps every JSON string in memory (tests, small inputs); the pages stay in memory too. */
export class MemorySink implements RawSink {
  private readonly items: string[] = [];
  at = 0;
  readonly bytes = 0;
  readonly dir = null;
  append(json: string): void {
    this.at = this.items.push(json) - 1;
  }
  appendBytes(b: Buffer, start: number, end: number): void {
    this.append(b.toString('utf8', start, end));
  }
  finish(): RawReader {
    const items = this.items;
    return { raw: (at) => items[at], close: () => {} };
  }
}

const WRITE_CHUNK = 1 << 20;

/**
 * Writes the JSON lines to a file in a fresh temp folder (where the store's pages go too) and reads
 * them back by byte offset. Reads go through one 1 MiB block, so a scan in either direction (search)
 * costs one read per block.
 */
export class SpillSink implements RawSink {
  readonly dir: string;
  private readonly fd: number;
  /** The lines not yet written: out[0, used). */
  private out = Buffer.allocUnsafe(WRITE_CHUNK);
  private used = 0;
  private written = 0;
  at = 0;
  bytes = 0;

  constructor(parent?: string) {
    // Removed on every way out of the process, like the timeline's spill (src/timeline/spill.ts).
    this.dir = createSpillDir(parent);
    this.fd = openSync(join(this.dir, 'events.jsonl'), 'w+');
  }

  append(json: string): void {
    // UTF-8 takes at most three bytes per UTF-16 unit.
    this.room(json.length * 3 + 1);
    this.at = this.written + this.used;
    this.bytes = this.out.write(json, this.used);
    this.used += this.bytes;
    this.out[this.used++] = 10;
    if (this.used >= WRITE_CHUNK) this.flush();
  }

  appendBytes(b: Buffer, start: number, end: number): void {
    this.room(end - start + 1);
    this.at = this.written + this.used;
    this.bytes = b.copy(this.out, this.used, start, end);
    this.used += this.bytes;
    this.out[this.used++] = 10;
    if (this.used >= WRITE_CHUNK) this.flush();
  }

  /** Room for `n` more bytes in the buffer (what it holds is written first when needed). */
  private room(n: number): void {
    if (this.used + n <= this.out.length) return;
    this.flush();
    if (n > this.out.length) this.out = Buffer.allocUnsafe(n);
  }

  private flush(): void {
    let at = 0;
    while (at < this.used) at += writeSync(this.fd, this.out, at, this.used - at, this.written + at);
    this.written += this.used;
    this.used = 0;
    // Grown for one long record: back to the usual size once it is written.
    if (this.out.length > WRITE_CHUNK) this.out = Buffer.allocUnsafe(WRITE_CHUNK);
  }

  finish(): RawReader {
    this.flush();
    const { fd, dir } = this;
    const file = new BlockFile(fd, this.written);
    let closed = false;
    return {
      raw(a, bytes) {
        const { buf, start } = file.bytes(a, bytes);
        return buf.toString('utf8', start, start + bytes);
      },
      get retainedBytes() {
        return file.retainedBytes;
      },
      close() {
        if (closed) return;
        closed = true;
        try {
          closeSync(fd);
        } finally {
          removeSpillDir(dir);
        }
      },
    };
  }
}

// --- the store -----------------------------------------------------------------------------------

const DECODED_CACHE = 4096;
/**
 * Characters of JSON the decoded events in the cache may come from: a line of a route dump is tens
 * of KB, and a few thousand of them would cost more than everything else the store keeps.
 */
export const DECODED_CHARS = 8 << 20;

interface StoreParts {
  length: number;
  tuning: StoreTuning;
  /** The pages, when they stay in memory; else `fd` is the page file. */
  pages: Page[] | null;
  fd: number;
  dir: string | null;
  blocks: Blocks;
  levels: readonly (string | null)[];
  sources: readonly StoreSource[];
  hosts: readonly string[];
  hostOfSource: Uint16Array;
  dated: boolean;
  /** Events before the first dated one, which sit at its time. */
  leadingUndated: number;
  firstT: number;
  reader: RawReader;
  /** The header names of the events kept as lines (index 0: null), and each level index's word as the events carry it. */
  names: readonly (string | null)[];
  levelWords: readonly (string | null)[];
  /** The sources' files, for the events kept as lines (null: none is). */
  lines: LineFiles | null;
  linesKept: number;
}

/** The text of a record kept as its line, read again from its file (or said to be gone from it). */
function lineText(lines: LineFiles | null, source: number, file: string, line: number, byteAt: number, length: number): string {
  return lines?.text(source, byteAt, length) ?? `(line ${line} of ${file} could not be read again: the file changed or went away since it was loaded)`;
}

/** The event a record kept as its line is: decodeJson's of the JSON its parse would have made (the same keys in the same order). */
function lineEvent(src: StoreSource, kind: SourceKind, line: number, level: string | null, thread: string | null, logger: string | null, text: string, ts: number | null, source: number, seq: number): RmqEvent {
  return { host: src.host, kind, file: src.file, line, level, thread, logger, type: 'other', fields: {}, text, ts, source, seq };
}

export class EventStore {
  readonly length: number;
  /** Level words seen, upper case; index 0 is "no level" (null). */
  readonly levels: readonly (string | null)[];
  readonly sources: readonly StoreSource[];
  /** Distinct hosts, in the order their sources were given. */
  readonly hosts: readonly string[];
  /** Per source: index into `hosts`. */
  readonly hostOfSource: Uint16Array;
  /** True when at least one event carried a date (else every position time is 0 and the strip has one bucket). */
  readonly dated: boolean;
  readonly blocks: Blocks;
  readonly tuning: StoreTuning;
  /** Per level index: its cell's level part (levelClassOf times two). */
  readonly levelCell: Uint8Array;
  /** A folder of the store's own (the spill), for files of listed rows; null: in memory. */
  readonly dir: string | null;
  /** Events kept as the places of their lines (read again from their files when shown). */
  readonly linesKept: number;
  private readonly shift: number;
  private readonly pageBytes: number;
  private readonly pages: Page[] | null;
  private readonly fd: number;
  private readonly cache = new Map<number, Page>();
  private last: Page;
  private scratch: Page | null = null;
  private readonly leadingUndated: number;
  private readonly firstT: number;
  private readonly reader: RawReader;
  private readonly names: readonly (string | null)[];
  private readonly levelWords: readonly (string | null)[];
  private readonly lines: LineFiles | null;
  private readonly decoded = new Map<number, { e: RmqEvent; chars: number }>();
  private decodedCharsSum = 0;
  private closed = false;

  constructor(p: StoreParts) {
    this.length = p.length;
    this.tuning = p.tuning;
    this.shift = p.tuning.pageShift;
    this.pageBytes = (1 << this.shift) * EVENT_BYTES;
    this.pages = p.pages;
    this.fd = p.fd;
    this.dir = p.dir;
    this.blocks = p.blocks;
    this.levels = p.levels;
    this.levelCell = Uint8Array.from(p.levels, (l) => 2 * levelClassOf(l));
    this.sources = p.sources;
    this.hosts = p.hosts;
    this.hostOfSource = p.hostOfSource;
    this.dated = p.dated;
    this.leadingUndated = p.leadingUndated;
    this.firstT = p.firstT;
    this.reader = p.reader;
    this.names = p.names;
    this.levelWords = p.levelWords;
    this.lines = p.lines;
    this.linesKept = p.linesKept;
    this.last = new Page(0);
    if (this.pages) for (const pg of this.pages) this.settle(pg);
  }

  /** The page holding event i (all its columns), from memory or the cache. */
  pageAt(i: number): Page {
    const p = i >>> this.shift;
    if (this.last.index === p) return this.last;
    if (i < 0 || i >= this.length) throw new RangeError(`event ${i} of ${this.length}`);
    if (this.pages) return (this.last = this.pages[p]);
    let pg = this.cache.get(p);
    if (pg) {
      this.cache.delete(p);
    } else {
      if (this.cache.size >= this.tuning.cachePages) {
        const oldest = this.cache.keys().next().value as number;
        pg = this.cache.get(oldest)!;
        this.cache.delete(oldest);
      } else pg = new Page(1 << this.shift);
      this.read(p, pg, 0);
    }
    this.cache.set(p, pg);
    return (this.last = pg);
  }

  private read(p: number, pg: Page, from: number): void {
    const at = p * this.pageBytes;
    let got = from;
    while (got < this.pageBytes) {
      const r = readSync(this.fd, pg.bytes, got, this.pageBytes - got, at + got);
      if (r === 0) break;
      got += r;
    }
    pg.index = p;
    pg.start = p << this.shift;
    pg.length = Math.min(1 << this.shift, this.length - pg.start);
    if (from <= AT.t * (1 << this.shift)) this.settle(pg);
  }

  /** Events before the first dated one sit at its time (the pages were written before it was known). */
  private settle(pg: Page): void {
    if (pg.start < this.leadingUndated) pg.t.fill(this.firstT, 0, Math.min(pg.length, this.leadingUndated - pg.start));
  }

  /**
   * Calls fn(page, j0, j1) for the events [from, to), page by page (page-relative j0 <= j < j1),
   * with at least the columns `need` names filled. Pages not in the cache are read into one scratch
   * page, tail only, and not cached: a scan of the whole store keeps the cache as it was. The page
   * is only valid during the call. fn returns false to stop.
   */
  scan(from: number, to: number, need: Need, fn: (pg: Page, j0: number, j1: number) => boolean | void): void {
    const a = Math.max(0, from);
    const b = Math.min(this.length, to);
    const size = 1 << this.shift;
    for (let p = a >>> this.shift; p << this.shift < b; p++) {
      const start = p << this.shift;
      let pg: Page | undefined = this.pages ? this.pages[p] : this.cache.get(p);
      if (!pg) {
        pg = this.scratch ??= new Page(size);
        this.read(p, pg, NEED_AT[need] * size);
      }
      if (fn(pg, Math.max(a, start) - start, Math.min(b, start + size) - start) === false) return;
    }
  }

  tAt(i: number): number {
    const pg = this.pageAt(i);
    return pg.t[i - pg.start];
  }
  sourceAt(i: number): number {
    const pg = this.pageAt(i);
    return pg.source[i - pg.start];
  }
  /** Index into EVENT_TYPES. */
  typeAt(i: number): number {
    const pg = this.pageAt(i);
    return pg.type[i - pg.start];
  }
  /** Index into `levels`. */
  levelAt(i: number): number {
    const pg = this.pageAt(i);
    return pg.level[i - pg.start];
  }
  /** Index into SOURCE_KINDS. */
  kindAt(i: number): number {
    const pg = this.pageAt(i);
    return pg.kind[i - pg.start];
  }
  lineAt(i: number): number {
    const pg = this.pageAt(i);
    return pg.line[i - pg.start];
  }
  noiseAt(i: number): boolean {
    const pg = this.pageAt(i);
    return pg.noise[i - pg.start] === 1;
  }
  /** Index into `hosts`. */
  hostAt(i: number): number {
    return this.hostOfSource[this.sourceAt(i)];
  }

  /** The summary cell of event j of a page (see CELLS). */
  cellOf(pg: Page, j: number): number {
    return this.levelCell[pg.level[j]] + (pg.type[j] === OTHER_TYPE ? 1 : 0);
  }

  /** First event whose position time is >= ms (length when none): the summary's block, then the block. */
  indexAtTime(ms: number): number {
    const bl = this.blocks;
    let lo = 0;
    let hi = bl.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (bl.t1[mid] < ms) lo = mid + 1;
      else hi = mid;
    }
    if (lo === bl.count) return this.length;
    let a = lo * bl.size;
    let b = Math.min(this.length, a + bl.size);
    while (a < b) {
      const mid = Math.floor((a + b) / 2);
      if (this.tAt(mid) < ms) a = mid + 1;
      else b = mid;
    }
    return a;
  }

  /** Events per host. */
  hostCounts(): Uint32Array {
    const out = new Uint32Array(this.hosts.length);
    const bl = this.blocks;
    for (let b = 0; b < bl.count; b++) {
      for (let h = 0; h < bl.hosts; h++) {
        const base = (b * bl.hosts + h) * CELLS;
        for (let c = 0; c < CELLS; c++) out[h] += bl.hist[base + c];
      }
    }
    return out;
  }

  /** The encoded JSON of event i (encodeEvent's, without its time). */
  raw(i: number): string {
    const pg = this.pageAt(i);
    const j = i - pg.start;
    // Made anew, not through the cache of decoded events: a search asks this of every event it passes.
    if (pg.where[j] === IN_LINE) return encodeEvent(this.decoded.get(i)?.e ?? this.lineEvent(pg, j, i));
    return this.reader.raw(pg.off[j], pg.len[j]);
  }

  /** Event i, decoded (the last few thousand are cached, at most DECODED_CHARS of JSON or text). */
  get(i: number): RmqEvent {
    const hit = this.decoded.get(i);
    if (hit) return hit.e;
    const pg = this.pageAt(i);
    const j = i - pg.start;
    const ts = pg.ts[j];
    let e: RmqEvent;
    let chars: number;
    if (pg.where[j] === IN_LINE) {
      e = this.lineEvent(pg, j, i);
      chars = e.text.length;
    } else {
      const json = this.reader.raw(pg.off[j], pg.len[j]);
      e = decodeJson(json, Number.isNaN(ts) ? null : ts, pg.source[j], i);
      chars = json.length;
    }
    while (this.decoded.size && (this.decoded.size >= DECODED_CACHE || this.decodedCharsSum + chars > DECODED_CHARS)) {
      const [oldest, { chars: gone }] = this.decoded.entries().next().value as [number, { chars: number }];
      this.decoded.delete(oldest);
      this.decodedCharsSum -= gone;
    }
    this.decoded.set(i, { e, chars });
    this.decodedCharsSum += chars;
    return e;
  }

  /** Event i of page slot j, kept as its line. */
  private lineEvent(pg: Page, j: number, i: number): RmqEvent {
    const source = pg.source[j];
    const ts = pg.ts[j];
    const kind = SOURCE_KINDS[pg.kind[j]] as SourceKind;
    const level = this.levelWords[pg.level[j]];
    return lineEvent(this.sources[source], kind, pg.line[j], level, this.names[pg.thread[j]], this.names[pg.logger[j]], this.lineText(pg, j), Number.isNaN(ts) ? null : ts, source, i);
  }

  private lineText(pg: Page, j: number): string {
    const source = pg.source[j];
    return lineText(this.lines, source, this.sources[source].file, pg.line[j], pg.off[j], pg.len[j]);
  }

  /** Whether event i is kept as the place of its line (its text is read again from its file). */
  keptAsLine(i: number): boolean {
    const pg = this.pageAt(i);
    return pg.where[i - pg.start] === IN_LINE;
  }

  /** The text of event i (a filter's grep), without filling the cache of decoded events. */
  textOf(i: number): string {
    const hit = this.decoded.get(i);
    if (hit) return hit.e.text;
    const pg = this.pageAt(i);
    const j = i - pg.start;
    return pg.where[j] === IN_LINE ? this.lineText(pg, j) : encodedText(this.reader.raw(pg.off[j], pg.len[j]));
  }

  fileOf(i: number): string {
    return this.sources[this.sourceAt(i)].file;
  }

  /** Where event i's file can be read again ('-': stdin, it cannot). */
  pathOf(i: number): string {
    const s = this.sources[this.sourceAt(i)];
    return s.path ?? s.file;
  }

  typeOf(i: number): EventType {
    return EVENT_TYPES[this.typeAt(i)];
  }

  /**
   * Bytes of the arrays the store keeps in memory: the summary, the cached pages (all pages in the
   * memory form), the scratch page and the JSON read block. The decoded events are counted apart
   * (`decodedCount`, at most 4,096, and `decodedChars`, the length of their JSON).
   */
  get retainedBytes(): number {
    let n = this.blocks.bytes + this.levelCell.byteLength + this.hostOfSource.byteLength + (this.reader.retainedBytes ?? 0) + (this.lines?.retainedBytes ?? 0);
    for (const pg of this.pages ?? this.cache.values()) n += pg.bytes.byteLength;
    if (this.scratch) n += this.scratch.bytes.byteLength;
    return n;
  }

  get decodedCount(): number {
    return this.decoded.size;
  }

  /** Characters of JSON the cached decoded events were read from (at most DECODED_CHARS). */
  get decodedChars(): number {
    return this.decodedCharsSum;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      if (this.fd >= 0) closeSync(this.fd);
    } finally {
      this.lines?.close();
      this.reader.close();
    }
  }
}

// --- building ------------------------------------------------------------------------------------

/** Builds the store from encoded events in merge order; the codec reads the columns' keys without decoding. */
export class ColumnsBuilder {
  private n = 0;
  private readonly header: EncodedHeader = { kind: '', line: 0, level: null, type: 'other' };
  private readonly size: number;
  private page: Page;
  private readonly pages: Page[] | null;
  private readonly fd: number;
  private readonly levels: (string | null)[] = [null];
  /** Per level index, the word as the events carry it (the first such word, for the shared last slot). */
  private readonly levelWords: (string | null)[] = [null];
  private readonly levelIndex = new Map<string, number>();
  private readonly names: (string | null)[] = [null];
  private readonly nameIndex = new Map<string, number>();
  private lines: LineFiles | null = null;
  private linesKept = 0;
  private readonly levelCell: number[] = [0];
  private readonly blocks: Blocks;
  private readonly hosts: string[] = [];
  private readonly hostOfSource: Uint16Array;
  private lastT = NaN;
  private leadingUndated = 0;

  constructor(
    private readonly sources: readonly StoreSource[],
    private readonly sink: RawSink = new MemorySink(),
    private readonly tuning: StoreTuning = TUNING,
  ) {
    this.size = 1 << tuning.pageShift;
    this.page = new Page(this.size);
    this.page.index = 0;
    this.pages = sink.dir === null ? [] : null;
    this.fd = sink.dir === null ? -1 : openSync(join(sink.dir, 'columns.bin'), 'w+');
    this.hostOfSource = new Uint16Array(sources.length);
    sources.forEach((s, i) => {
      let h = this.hosts.indexOf(s.host);
      if (h < 0) h = this.hosts.push(s.host) - 1;
      this.hostOfSource[i] = h;
    });
    this.blocks = new Blocks(this.hosts.length, tuning);
  }

  get count(): number {
    return this.n;
  }

  /** Adds one encoded event; returns its type (so callers need not read it again). */
  add(ts: number | null, json: string, source: number): EventType {
    const h = readHeader(json, this.header);
    const kind = KIND_INDEX.get(h.kind) ?? UNKNOWN_KIND;
    const level = h.level === null ? 0 : this.levelId(h.level);
    this.sink.append(json);
    this.push(ts, source, TYPE_INDEX.get(h.type) ?? OTHER_TYPE, level, kind, h.line, isNoiseEncoded(h.type, json), this.sink.at, this.sink.bytes);
    return h.type;
  }

  /**
   * An `other` event kept as the place of its line in its source's file (a LINE record: `h` its
   * header, `r` the rest). Its file is opened now, while it is the file that was read; should it
   * not open, or the store run out of numbers for the names, the text is read now and kept as JSON.
   */
  addLine(ts: number | null, h: EncodedHeader, r: LineRecord, source: number): void {
    const lines = (this.lines ??= new LineFiles((n) => this.sources[n].path ?? this.sources[n].file));
    const kind = KIND_INDEX.get(h.kind);
    const level = this.levelId(h.level);
    const thread = this.nameId(r.thread);
    const logger = this.nameId(r.logger);
    if (kind !== undefined && thread >= 0 && logger >= 0 && this.levelWords[level] === h.level && lines.open(source)) {
      this.push(ts, source, OTHER_TYPE, level, kind, h.line, false, r.byteAt, r.length, IN_LINE, thread, logger);
      this.linesKept++;
      return;
    }
    const src = this.sources[source];
    const text = lineText(lines, source, src.file, h.line, r.byteAt, r.length);
    this.add(ts, encodeEvent(lineEvent(src, h.kind as SourceKind, h.line, h.level, r.thread, r.logger, text, ts, source, 0)), source);
  }

  /** Index of a header name in `names` (null: 0), or -1 when there are as many as a column holds. */
  private nameId(name: string | null): number {
    if (name === null) return 0;
    let id = this.nameIndex.get(name);
    if (id === undefined) {
      if (this.names.length > 0xffff) return -1;
      id = this.names.push(name) - 1;
      this.nameIndex.set(name, id);
    }
    return id;
  }

  /**
   * add() of an event whose header is read already and whose JSON text is given as its UTF-8 bytes,
   * b[start, end) (no string is made of it; a watermark line's is, its noise is read in the text).
   */
  addBytes(ts: number | null, h: EncodedHeader, b: Buffer, start: number, end: number, source: number): void {
    if (h.type === 'watermark') {
      this.add(ts, b.toString('utf8', start, end), source);
      return;
    }
    const kind = KIND_INDEX.get(h.kind) ?? UNKNOWN_KIND;
    const level = h.level === null ? 0 : this.levelId(h.level);
    this.sink.appendBytes(b, start, end);
    this.push(ts, source, TYPE_INDEX.get(h.type) ?? OTHER_TYPE, level, kind, h.line, false, this.sink.at, this.sink.bytes);
  }

  /**
   * Adds one event by its columns (`level` from levelId, `at` and `bytes` where its JSON is; for an
   * event kept as its line, `where` IN_LINE, where the line is and its names' indices).
   */
  push(ts: number | null, source: number, type: number, level: number, kind: number, line: number, noise: boolean, at: number, bytes: number, where = IN_JSON, thread = 0, logger = 0): void {
    const pg = this.page;
    const j = pg.length++;
    const i = this.n++;
    pg.ts[j] = ts ?? NaN;
    pg.off[j] = at;
    pg.len[j] = bytes;
    pg.where[j] = where;
    pg.thread[j] = thread;
    pg.logger[j] = logger;
    pg.line[j] = line;
    pg.source[j] = source;
    pg.type[j] = type;
    pg.level[j] = level;
    pg.kind[j] = kind;
    pg.noise[j] = noise ? 1 : 0;
    if (ts === null) {
      if (Number.isNaN(this.lastT)) this.leadingUndated++;
    } else if (Number.isNaN(this.lastT) || ts > this.lastT) {
      // Never decreasing: a source that steps back in time keeps its place in the merge.
      this.lastT = ts;
    }
    pg.t[j] = this.lastT;
    this.blocks.add(i, this.lastT, this.hostOfSource[source], this.levelCell[level] + (type === OTHER_TYPE ? 1 : 0));
    if (pg.length === this.size) this.flush();
  }

  private flush(): void {
    const pg = this.page;
    if (this.pages) {
      this.pages.push(pg);
      this.page = new Page(this.size);
    } else {
      const bytes = pg.bytes.byteLength;
      const at = pg.index * bytes;
      let done = 0;
      while (done < bytes) done += writeSync(this.fd, pg.bytes, done, bytes - done, at + done);
    }
    this.page.index = pg.index + 1;
    this.page.start = pg.start + this.size;
    this.page.length = 0;
  }

  /** Index of a level word in the store's `levels` (null: 0, no level). */
  levelId(word: string | null): number {
    if (word === null) return 0;
    let id = this.levelIndex.get(word);
    if (id === undefined) {
      // 255 distinct level words is more than any log has; beyond that they share the last slot.
      id = Math.min(this.levels.length, 255);
      if (id === this.levels.length) {
        this.levelWords.push(word);
        this.levels.push(word.trim().toUpperCase());
        this.levelCell.push(2 * levelClassOf(word));
      }
      this.levelIndex.set(word, id);
    }
    return id;
  }

  finish(): EventStore {
    if (this.page.length) this.flush();
    const dated = !Number.isNaN(this.lastT);
    // Events before the first dated one sit at its time; with no date at all, everything is at 0.
    const firstT = dated ? this.firstDatedT() : 0;
    this.blocks.settle(firstT);
    return new EventStore({
      length: this.n,
      tuning: this.tuning,
      pages: this.pages,
      fd: this.fd,
      dir: this.sink.dir,
      blocks: this.blocks,
      levels: this.levels,
      sources: this.sources,
      hosts: this.hosts,
      hostOfSource: this.hostOfSource,
      dated,
      leadingUndated: dated ? this.leadingUndated : this.n,
      firstT,
      reader: this.sink.finish(),
      names: this.names,
      levelWords: this.levelWords,
      lines: this.lines,
      linesKept: this.linesKept,
    });
  }

  /** Position time of the first dated event (the leading undated ones were written with NaN). */
  private firstDatedT(): number {
    const i = this.leadingUndated;
    const p = i >>> this.tuning.pageShift;
    const j = i - (p << this.tuning.pageShift);
    if (this.pages) return this.pages[p].t[j];
    const v = new Float64Array(1);
    readSync(this.fd, new Uint8Array(v.buffer), 0, 8, p * this.size * EVENT_BYTES + AT.t * this.size + j * 8);
    return v[0];
  }
}

/**
 * A store from event objects (tests): sources are numbered by file in order of appearance, events
 * keep the order given (sort them by time first). With a sink that spills, the pages go to its file.
 */
export function storeFromEvents(events: readonly RmqEvent[], sink?: RawSink, tuning?: StoreTuning): EventStore {
  const sources: StoreSource[] = [];
  const byFile = new Map<string, number>();
  for (const e of events) {
    if (!byFile.has(e.file)) byFile.set(e.file, sources.push({ file: e.file, host: e.host }) - 1);
  }
  const b = new ColumnsBuilder(sources, sink, tuning);
  for (const e of events) b.add(e.ts, encodeEvent(e), byFile.get(e.file)!);
  return b.finish();
}
