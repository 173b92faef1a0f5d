// K-way merge of per-source event streams by time. Ties keep input order: by source index, then by
// the order within the source (each source keeps its own order; logs are written in time order).
// An event with no time (a headerless paste, a time-only layout) sorts at the last time seen
// before it in its own source, so it stays beside its neighbours.

import { closeSync, openSync, readSync } from 'node:fs';
import { decodeLine, type EncodedEvent } from '../parse/event-codec.js';
import type { SourcePart } from './parse-source.js';

export interface MergedEvent extends EncodedEvent {
  source: number;
  seq: number;
}

/**
 * Encoded events of one source: its spill file (read in 8 KiB pieces), then its in-memory tail; a
 * file parsed in parts (split.ts) has one spill and tail per part, read one after the other.
 */
export class SourceCursor {
  private fd = -1;
  private lines: string[] = [];
  private li = 0;
  private partial = '';
  private spill: string | null;
  private tail: string[];
  private spillDone: boolean;
  private ti = 0;
  /** The current part's events read so far, and those of them to skip (SourcePart.drop). */
  private k = 0;
  private drop: number[] = [];
  private di = 0;
  private readonly buf = Buffer.allocUnsafe(1 << 13);
  seq = 0;

  constructor(
    readonly source: number,
    spill: string | null,
    tail: string[],
    private readonly more: SourcePart[] = [],
  ) {
    this.spill = spill;
    this.tail = tail;
    this.spillDone = spill === null;
  }

  next(): EncodedEvent | null {
    for (;;) {
      const line = this.nextLine();
      if (line === null) return null;
      const at = this.k++;
      if (this.di < this.drop.length && this.drop[this.di] === at) {
        this.di++;
        continue;
      }
      return decodeLine(line);
    }
  }

  private nextLine(): string | null {
    for (;;) {
      while (!this.spillDone) {
        if (this.li < this.lines.length) return this.lines[this.li++];
        this.fill();
      }
      if (this.ti < this.tail.length) return this.tail[this.ti++];
      const next = this.more.shift();
      if (!next) return null;
      this.spill = next.spill;
      this.tail = next.tail;
      this.spillDone = next.spill === null;
      this.ti = 0;
      this.k = 0;
      this.drop = next.drop ?? [];
      this.di = 0;
    }
  }

  private fill(): void {
    if (this.fd < 0) this.fd = openSync(this.spill!, 'r');
    const n = readSync(this.fd, this.buf, 0, this.buf.length, null);
    if (n === 0) {
      closeSync(this.fd);
      this.fd = -1;
      this.spillDone = true;
      this.lines = [];
      return;
    }
    // Encoded lines are JSON: UTF-8 without raw newlines. A piece may end inside a character;
    // cut at the last newline and keep the rest as bytes-safe text for the next piece.
    const last = this.buf.lastIndexOf(10, n - 1);
    if (last < 0) {
      this.partial += this.buf.toString('utf8', 0, n);
      this.lines = [];
      this.li = 0;
      return;
    }
    const text = this.partial + this.buf.toString('utf8', 0, last);
    this.partial = last + 1 < n ? this.buf.toString('utf8', last + 1, n) : '';
    this.lines = text.split('\n');
    this.li = 0;
  }
}

interface HeapItem {
  key: number;
  source: number;
  seq: number;
  ev: EncodedEvent;
  cursor: SourceCursor;
}

function less(a: HeapItem, b: HeapItem): boolean {
  if (a.key !== b.key) return a.key < b.key;
  if (a.source !== b.source) return a.source < b.source;
  return a.seq < b.seq;
}

class Heap {
  private a: HeapItem[] = [];
  get size(): number {
    return this.a.length;
  }
  push(x: HeapItem): void {
    const a = this.a;
    a.push(x);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(a[i], a[p])) break;
      [a[i], a[p]] = [a[p], a[i]];
      i = p;
    }
  }
  pop(): HeapItem | undefined {
    const a = this.a;
    if (!a.length) return undefined;
    const top = a[0];
    const last = a.pop()!;
    if (a.length) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && less(a[l], a[m])) m = l;
        if (r < a.length && less(a[r], a[m])) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m], a[i]];
        i = m;
      }
    }
    return top;
  }
}

/** Merge cursors into one ordered stream of encoded events. */
export function* mergeEncoded(cursors: SourceCursor[]): Generator<MergedEvent> {
  const heap = new Heap();
  const load = (cursor: SourceCursor, lastKey: number) => {
    const ev = cursor.next();
    if (!ev) return;
    const key = ev.ts ?? lastKey;
    heap.push({ key, source: cursor.source, seq: cursor.seq++, ev, cursor });
  };
  for (const c of cursors) load(c, -Infinity);
  while (heap.size) {
    const top = heap.pop()!;
    yield { ts: top.ev.ts, json: top.ev.json, source: top.source, seq: top.seq };
    load(top.cursor, top.key);
  }
}
