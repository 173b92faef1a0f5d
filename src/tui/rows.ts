// The rows a filter lists, and the counts per bucket of the time strip, without one entry per event
// in memory. A filter's matches are found in one pass over the store's pages; their event indices
// go to a file in the store's folder once there are more than a few tens of thousands (read back a
// chunk at a time), and what stays in memory is per summary block of the store: how many rows it
// lists and their events per host and cell. Bucket counts add whole blocks from those summaries and
// look at single events only in the blocks a bucket edge cuts, so a strip costs about a block per
// column however large the input.

import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { CELLS, type EventStore, type Need, type Page } from './store.js';

/** Listed rows: all events, or the indices a filter lets through (ascending). */
export interface RowList {
  readonly length: number;
  /** Event index of row r. */
  at(r: number): number;
  /** First row whose event index is >= i (length when none). */
  rowOf(i: number): number;
  /** Rows listed in summary block b of the store, and their events per host and cell (the layout of Blocks.hist). */
  inBlock(b: number): number;
  readonly hist: Uint32Array;
  /** Bytes kept in memory. */
  readonly retainedBytes: number;
}

export class AllRows implements RowList {
  readonly length: number;
  readonly hist: Uint32Array;
  constructor(private readonly store: EventStore) {
    this.length = store.length;
    this.hist = store.blocks.hist;
  }
  at(r: number): number {
    return r;
  }
  rowOf(i: number): number {
    return Math.max(0, Math.min(i, this.length));
  }
  inBlock(b: number): number {
    return this.store.blocks.eventsIn(b, this.length);
  }
  get retainedBytes(): number {
    return 0;
  }
}

const CHUNK_SHIFT = 14;
const CHUNK = 1 << CHUNK_SHIFT;
const CACHED_CHUNKS = 4;

/** Ascending event indices, in memory up to a limit, then in a file (a chunk at a time in memory). */
class IndexList {
  length = 0;
  private chunks: Int32Array[] = [];
  private fd = -1;
  private path = '';
  private readonly cache = new Map<number, Int32Array>();

  constructor(
    private readonly dir: string | null,
    private readonly inMemory: number,
  ) {}

  push(i: number): void {
    const c = this.length >>> CHUNK_SHIFT;
    if (c === this.chunks.length) this.chunks.push(new Int32Array(this.fd >= 0 ? CHUNK : Math.min(CHUNK, Math.max(256, this.inMemory))));
    let chunk = this.chunks[c];
    const k = this.length & (CHUNK - 1);
    if (k === chunk.length) {
      const bigger = new Int32Array(Math.min(CHUNK, chunk.length * 2));
      bigger.set(chunk);
      chunk = this.chunks[c] = bigger;
    }
    chunk[k] = i;
    this.length++;
    if ((this.length & (CHUNK - 1)) === 0) {
      if (this.fd < 0 && this.dir !== null && this.length > this.inMemory) this.spill();
      if (this.fd >= 0) this.writeChunk(c);
    }
  }

  private spill(): void {
    this.path = join(this.dir!, `rows-${process.hrtime.bigint()}.bin`);
    this.fd = openSync(this.path, 'w+');
    for (let c = 0; c < this.chunks.length - 1; c++) this.writeChunk(c);
  }

  private writeChunk(c: number): void {
    const chunk = this.chunks[c];
    const bytes = new Uint8Array(chunk.buffer, 0, chunk.byteLength);
    let done = 0;
    while (done < bytes.length) done += writeSync(this.fd, bytes, done, bytes.length - done, c * CHUNK * 4 + done);
    this.chunks[c] = EMPTY;
  }

  /** The last chunk stays in memory; on file, the others are read back as needed. */
  at(r: number): number {
    const c = r >>> CHUNK_SHIFT;
    let chunk = this.chunks[c];
    if (chunk.length === 0) {
      const hit = this.cache.get(c);
      if (hit) chunk = hit;
      else {
        chunk = this.cache.size >= CACHED_CHUNKS ? this.evict() : new Int32Array(CHUNK);
        const bytes = new Uint8Array(chunk.buffer);
        let got = 0;
        while (got < bytes.length) {
          const n = readSync(this.fd, bytes, got, bytes.length - got, c * CHUNK * 4 + got);
          if (n === 0) break;
          got += n;
        }
        this.cache.set(c, chunk);
      }
    }
    return chunk[r & (CHUNK - 1)];
  }

  private evict(): Int32Array {
    const oldest = this.cache.keys().next().value as number;
    const chunk = this.cache.get(oldest)!;
    this.cache.delete(oldest);
    return chunk;
  }

  get retainedBytes(): number {
    let n = 0;
    for (const c of this.chunks) n += c.byteLength;
    for (const c of this.cache.values()) n += c.byteLength;
    return n;
  }

  get onFile(): boolean {
    return this.fd >= 0;
  }

  close(): void {
    if (this.fd < 0) return;
    closeSync(this.fd);
    this.fd = -1;
    rmSync(this.path, { force: true });
  }
}

const EMPTY = new Int32Array(0);

/** The rows a filter lists, as MatchRows.select found them. */
export class MatchRows implements RowList {
  /** Per block: rows listed in the blocks before it (prefix[count] = length). */
  private readonly prefix: Float64Array;
  readonly hist: Uint32Array;

  private constructor(
    private readonly store: EventStore,
    private readonly list: IndexList,
    counts: Uint32Array,
    hist: Uint32Array,
  ) {
    this.prefix = new Float64Array(counts.length + 1);
    for (let b = 0; b < counts.length; b++) this.prefix[b + 1] = this.prefix[b] + counts[b];
    this.hist = hist;
  }

  /**
   * The events of [from, to) for which ok(page, j) holds (reading the columns `need` names), and
   * the `extra` events (ascending, anywhere) for which extraOk holds: one pass over those pages.
   */
  static select(
    store: EventStore,
    o: { from?: number; to?: number; need: Need; ok: (pg: Page, j: number) => boolean; extra?: ArrayLike<number>; extraOk?: (pg: Page, j: number) => boolean },
  ): MatchRows {
    const bl = store.blocks;
    const counts = new Uint32Array(bl.max);
    const hist = new Uint32Array(bl.hist.length);
    const list = new IndexList(store.dir, store.tuning.rowsInMemory);
    const hostOf = store.hostOfSource;
    const H = bl.hosts;
    const emit = (pg: Page, j: number) => {
      const i = pg.start + j;
      const b = Math.floor(i / bl.size);
      list.push(i);
      counts[b]++;
      hist[(b * H + hostOf[pg.source[j]]) * CELLS + store.cellOf(pg, j)]++;
    };
    const extra = o.extra ?? EMPTY;
    const extraOk = o.extraOk ?? o.ok;
    const from = Math.max(0, o.from ?? 0);
    const to = Math.max(from, Math.min(store.length, o.to ?? store.length));
    let k = 0;
    // The extra events outside the range, each from its page (never during the scan: the page
    // the scan holds could be the one the cache gives away).
    const outside = (below: number) => {
      for (; k < extra.length && extra[k] < below; k++) {
        if (k > 0 && extra[k - 1] === extra[k]) continue;
        const pg = store.pageAt(extra[k]);
        if (extraOk(pg, extra[k] - pg.start)) emit(pg, extra[k] - pg.start);
      }
    };
    outside(from);
    store.scan(from, to, o.need, (pg, j0, j1) => {
      for (let j = j0; j < j1; j++) {
        const i = pg.start + j;
        let isExtra = false;
        while (k < extra.length && extra[k] === i) {
          k++;
          isExtra = true;
        }
        if (o.ok(pg, j) || (isExtra && extraOk(pg, j))) emit(pg, j);
      }
    });
    outside(Infinity);
    return new MatchRows(store, list, counts, hist);
  }

  get length(): number {
    return this.list.length;
  }

  at(r: number): number {
    return this.list.at(r);
  }

  rowOf(i: number): number {
    if (i <= 0) return 0;
    if (i >= this.store.length) return this.length;
    // The rows of the blocks before i's are all before it, those of the blocks after it all after it.
    const b = Math.floor(i / this.store.blocks.size);
    let lo = this.prefix[b];
    let hi = this.prefix[b + 1];
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      if (this.list.at(mid) < i) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  inBlock(b: number): number {
    return this.prefix[b + 1] - this.prefix[b];
  }

  /** True when the indices went to a file. */
  get onFile(): boolean {
    return this.list.onFile;
  }

  get retainedBytes(): number {
    return this.prefix.byteLength + this.hist.byteLength + this.list.retainedBytes;
  }

  /** Removes the file of the indices (the store's close removes its whole folder anyway). */
  close(): void {
    this.list.close();
  }
}

/**
 * Listed events per bucket of [from, to) split in `n` buckets, per lane and cell: index
 * `(lane * CELLS + cell) * n + bucket`, lanes by host (`laneOfHost`). A block that lies inside one
 * bucket is added from its summary; the events of the others are looked at one by one.
 */
export function countBuckets(store: EventStore, rows: RowList, from: number, to: number, n: number, laneOfHost: ArrayLike<number>, lanes: number): Uint32Array {
  const counts = new Uint32Array(lanes * CELLS * n);
  const i0 = store.indexAtTime(from);
  const i1 = store.indexAtTime(to);
  if (i0 >= i1) return counts;
  const bl = store.blocks;
  const w = (to - from) / n;
  const col = (t: number) => Math.min(n - 1, Math.floor((t - from) / w));
  const hostOf = store.hostOfSource;
  const H = bl.hosts;
  for (let b = Math.floor(i0 / bl.size); b * bl.size < i1; b++) {
    const listed = rows.inBlock(b);
    if (!listed) continue;
    const a = Math.max(i0, b * bl.size);
    const z = Math.min(i1, (b + 1) * bl.size, store.length);
    const whole = a === b * bl.size && z === Math.min((b + 1) * bl.size, store.length);
    if (whole && col(bl.t0[b]) === col(bl.t1[b])) {
      const c = col(bl.t0[b]);
      for (let h = 0; h < H; h++) {
        const src = (b * H + h) * CELLS;
        const dst = laneOfHost[h] * CELLS * n + c;
        for (let cell = 0; cell < CELLS; cell++) counts[dst + cell * n] += rows.hist[src + cell];
      }
      continue;
    }
    // Walk the block's events and its listed rows side by side.
    let r = rows.rowOf(a);
    let next = r < rows.length ? rows.at(r) : Infinity;
    if (next >= z) continue;
    store.scan(a, z, 'time', (pg, j0, j1) => {
      for (let j = j0; j < j1; j++) {
        if (pg.start + j !== next) continue;
        counts[(laneOfHost[hostOf[pg.source[j]]] * CELLS + store.cellOf(pg, j)) * n + col(pg.t[j])]++;
        next = ++r < rows.length ? rows.at(r) : Infinity;
        if (next >= z) return false;
      }
    });
  }
  return counts;
}
