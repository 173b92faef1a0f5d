// K-way merge of per-source event streams by time. Ties keep input order: by source index, then by
// the order within the source (each source keeps its own order; logs are written in time order).
// An event with no time (a headerless paste, a time-only layout) sorts at the last time seen
// before it in its own source, so it stays beside its neighbours.

import { closeSync, openSync, readSync } from 'node:fs';
import { EventReader } from '../parse/event-binary.js';
import type { EventType, RmqEvent } from '../parse/types.js';
import type { SourcePart } from './parse-source.js';

/** Bytes a cursor reads from its spill file at a time (a record larger than that grows its buffer). */
const PIECE = 64 << 10;

function asBuffer(b: Uint8Array | null): Buffer | null {
  if (b === null || Buffer.isBuffer(b)) return b as Buffer | null;
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength);
}

/**
 * The events of one source in the binary form (src/parse/event-binary.ts): its spill file, then its
 * in-memory tail; a file parsed in parts (split.ts) has one spill and tail per part, each its own
 * stream, read one after the other. After next() is true, `ts` and `type` are the event's and
 * event() decodes it, until the next call.
 */
export class SourceCursor {
  private readonly reader = new EventReader();
  private fd = -1;
  private spill: string | null;
  private tail: Buffer | null;
  /** The bytes read from the spill file and not yet used: buf[at, end). */
  private buf = Buffer.allocUnsafe(0);
  private at = 0;
  private end = 0;
  private inFile: boolean;
  private tailAt = 0;
  /** The current part's events read so far, and those of them to skip (SourcePart.drop). */
  private k = 0;
  private drop: number[] = [];
  private di = 0;
  private readonly more: SourcePart[];
  seq = 0;

  constructor(
    readonly source: number,
    spill: string | null,
    tail: Uint8Array | null,
    more: readonly SourcePart[] = [],
    /** Milliseconds added to every time of the source (SourceStream.shift). */
    private readonly shift = 0,
  ) {
    // Its own copy: it takes the parts off as it reads them, and a stream may be read again (SourceStream).
    this.more = [...more];
    this.spill = spill;
    this.tail = asBuffer(tail);
    this.inFile = spill !== null;
  }

  get ts(): number | null {
    const ts = this.reader.ts;
    return ts === null ? null : ts + this.shift;
  }
  get type(): EventType {
    return this.reader.type;
  }

  /** The event next() found. */
  event(seq: number): RmqEvent {
    const e = this.reader.event(this.source, seq);
    if (this.shift !== 0 && e.ts !== null) e.ts += this.shift;
    return e;
  }

  /** Its JSON text (event-codec.ts, encodeEvent). */
  json(): string {
    return this.reader.json();
  }

  /** The reader at the event next() found (EventReader.header, jsonSpan). */
  binary(): EventReader {
    return this.reader;
  }

  /** Whether json() is jsonSafe's already (BuildOptions.asJson 'safe'). */
  get jsonIsSafe(): boolean {
    return this.reader.jsonIsSafe;
  }

  next(): boolean {
    for (;;) {
      if (!this.nextRecord()) return false;
      const at = this.k++;
      if (this.di < this.drop.length && this.drop[this.di] === at) {
        this.di++;
        continue;
      }
      return true;
    }
  }

  private nextRecord(): boolean {
    for (;;) {
      while (this.inFile) {
        const next = this.reader.read(this.buf, this.at, this.end);
        if (next >= 0) {
          this.at = next;
          return true;
        }
        this.at = this.reader.stopped;
        this.fill();
      }
      if (this.tail !== null) {
        const next = this.reader.read(this.tail, this.tailAt);
        if (next >= 0) {
          this.tailAt = next;
          return true;
        }
      }
      const part = this.more.shift();
      if (!part) return false;
      // Each part was written by its own writer: its shared strings start again.
      this.reader.reset();
      this.spill = part.spill;
      this.tail = asBuffer(part.tail);
      this.tailAt = 0;
      this.inFile = part.spill !== null;
      this.k = 0;
      this.drop = part.drop ?? [];
      this.di = 0;
    }
  }

  /** More of the spill file behind the bytes not yet used (the end of the file: on to the tail). */
  private fill(): void {
    if (this.fd < 0) this.fd = openSync(this.spill!, 'r');
    const left = this.end - this.at;
    const need = Math.max(PIECE, EventReader.needed(this.buf, this.at, this.end));
    // Grown for a long record, back to a piece once it is past (every source holds one at a time).
    if (need > this.buf.length || (need === PIECE && this.buf.length > PIECE)) {
      const next = Buffer.allocUnsafe(need);
      this.buf.copy(next, 0, this.at, this.end);
      this.buf = next;
    } else if (left > 0) this.buf.copy(this.buf, 0, this.at, this.end);
    this.at = 0;
    this.end = left;
    const n = readSync(this.fd, this.buf, left, this.buf.length - left, null);
    this.end += n;
    if (n > 0) return;
    closeSync(this.fd);
    this.fd = -1;
    this.inFile = false;
    this.buf = Buffer.allocUnsafe(0);
    this.end = 0;
    if (left > 0) throw new Error(`${this.spill}: the spill file ends inside a record`);
  }
}

/**
 * One event of the merged stream. Its event() and json() read the cursor's current record: they
 * are valid while the consumer holds the event, before it asks the stream for the next one.
 */
export class MergedEvent {
  constructor(
    readonly ts: number | null,
    readonly type: EventType,
    readonly source: number,
    readonly seq: number,
    readonly key: number,
    readonly cursor: SourceCursor,
  ) {}

  event(): RmqEvent {
    return this.cursor.event(this.seq);
  }

  /** The event's JSON object without its time (event-codec.ts): the output form. */
  json(): string {
    return this.cursor.json();
  }

  /** Whether json() is made safe to show already (util/text.ts, jsonSafe). */
  get jsonIsSafe(): boolean {
    return this.cursor.jsonIsSafe;
  }

  /** What the event's record tells without decoding it (its header, where its JSON text lies): valid until the next event. */
  binary(): EventReader {
    return this.cursor.binary();
  }
}

function less(a: MergedEvent, b: MergedEvent): boolean {
  if (a.key !== b.key) return a.key < b.key;
  if (a.source !== b.source) return a.source < b.source;
  return a.seq < b.seq;
}

class Heap {
  private a: MergedEvent[] = [];
  get size(): number {
    return this.a.length;
  }
  peek(): MergedEvent | undefined {
    return this.a[0];
  }
  push(x: MergedEvent): void {
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
  pop(): MergedEvent | undefined {
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

/**
 * What reading one source's events takes (its spill file, its in-memory tail, a split file's later
 * parts), as plain data: another thread can merge the same stream while the spill files last.
 */
export interface SourceStream {
  index: number;
  spill: string | null;
  tail: Uint8Array | null;
  more?: SourcePart[];
  /** Milliseconds added to each of its times: the host's clock corrected (`--shift`, src/timeline/shift.ts). */
  shift?: number;
}

/** The merged stream of these sources, read from the start (each call reads it anew). */
export function mergeStreams(streams: readonly SourceStream[]): Generator<MergedEvent> {
  return mergeEncoded(streams.map((s) => new SourceCursor(s.index, s.spill, s.tail, s.more, s.shift ?? 0)));
}

/** Merge cursors into one ordered stream (each event valid until the next is asked for: MergedEvent). */
export function* mergeEncoded(cursors: SourceCursor[]): Generator<MergedEvent> {
  const heap = new Heap();
  const load = (cursor: SourceCursor, lastKey: number) => {
    if (!cursor.next()) return;
    const ts = cursor.ts;
    heap.push(new MergedEvent(ts, cursor.type, cursor.source, cursor.seq++, ts ?? lastKey, cursor));
  };
  for (const c of cursors) load(c, -Infinity);
  while (heap.size) {
    let top = heap.pop()!;
    yield top;
    // The same source's next events, as long as they sort before every other source's, go out
    // without a trip through the heap (one source, or a source's run of events between others').
    for (;;) {
      const c = top.cursor;
      if (!c.next()) break;
      const ts = c.ts;
      const m = new MergedEvent(ts, c.type, c.source, c.seq++, ts ?? top.key, c);
      const other = heap.peek();
      if (other !== undefined && less(other, m)) {
        heap.push(m);
        break;
      }
      yield m;
      top = m;
    }
  }
}
