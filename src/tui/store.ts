// The TUI's event store: a million events in compact columns (typed arrays: position time, source,
// type, level, kind, line), with each event's encoded JSON kept aside (in memory for tests, in a
// spill file for real inputs) and decoded only when a row is drawn. Nothing here knows about ink.

import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { encodeEvent } from '../parse/event-codec.js';
import { EVENT_TYPES, SOURCE_KINDS, type EventType, type RmqEvent } from '../parse/types.js';
import { createSpillDir, removeSpillDir } from '../timeline/spill.js';

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
import { isNoiseEncoded } from '../timeline/event-filter.js';

/** Per event: what the list, the filters and the time strip need without decoding anything. */
export interface EventColumns {
  readonly length: number;
  /**
   * Position time (epoch ms): the event's time; for an event without one (time-only layouts,
   * headerless pastes), the time of the event before it in the merge. Never decreasing, so rows can
   * be found by time with a binary search.
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
  /** 1-based line in the file. */
  readonly line: Uint32Array;
  /** 1 for noise (isNoise of src/timeline/event-filter.ts); absent: none known. */
  readonly noise?: Uint8Array | null;
  /** Level words seen, upper case; index 0 is "no level" (null). */
  readonly levels: readonly (string | null)[];
  readonly sources: readonly StoreSource[];
  /** Distinct hosts, in the order their sources were given. */
  readonly hosts: readonly string[];
  /** Per source: index into `hosts`. */
  readonly hostOfSource: Uint16Array;
  /** True when at least one event carried a date (else `t` is all zero and the strip has one bucket). */
  readonly dated: boolean;
}

/** The encoded JSON of an event by index (src/parse/event-codec.ts, without its time). */
export interface RawReader {
  raw(i: number): string;
  close(): void;
}

const DECODED_CACHE = 4096;

export class EventStore implements EventColumns {
  readonly length: number;
  readonly t: Float64Array;
  readonly source: Uint16Array;
  readonly type: Uint8Array;
  readonly level: Uint8Array;
  readonly kind: Uint8Array;
  readonly line: Uint32Array;
  /** 1 for noise (isNoise of src/timeline/event-filter.ts); null: none known. */
  readonly noise: Uint8Array | null;
  readonly levels: readonly (string | null)[];
  readonly sources: readonly StoreSource[];
  readonly hosts: readonly string[];
  readonly hostOfSource: Uint16Array;
  readonly dated: boolean;
  /** Per event: its real time, NaN when it has none (position time is in `t`). */
  private readonly ts: Float64Array;
  private readonly cache = new Map<number, RmqEvent>();

  constructor(
    cols: EventColumns & { ts: Float64Array },
    private readonly reader: RawReader,
  ) {
    this.length = cols.length;
    this.t = cols.t;
    this.ts = cols.ts;
    this.source = cols.source;
    this.type = cols.type;
    this.level = cols.level;
    this.kind = cols.kind;
    this.line = cols.line;
    this.noise = cols.noise ?? null;
    this.levels = cols.levels;
    this.sources = cols.sources;
    this.hosts = cols.hosts;
    this.hostOfSource = cols.hostOfSource;
    this.dated = cols.dated;
  }

  /** The encoded JSON of event i. */
  raw(i: number): string {
    return this.reader.raw(i);
  }

  /** Event i, decoded (the last few thousand are cached). */
  get(i: number): RmqEvent {
    let e = this.cache.get(i);
    if (e) return e;
    const o = JSON.parse(this.reader.raw(i)) as Omit<RmqEvent, 'ts' | 'source' | 'seq'>;
    const ts = this.ts[i];
    e = { ...o, ts: Number.isNaN(ts) ? null : ts, source: this.source[i], seq: i } as RmqEvent;
    if (this.cache.size >= DECODED_CACHE) this.cache.delete(this.cache.keys().next().value as number);
    this.cache.set(i, e);
    return e;
  }

  fileOf(i: number): string {
    return this.sources[this.source[i]].file;
  }

  /** Where event i's file can be read again ('-': stdin, it cannot). */
  pathOf(i: number): string {
    const s = this.sources[this.source[i]];
    return s.path ?? s.file;
  }

  typeOf(i: number): EventType {
    return EVENT_TYPES[this.type[i]];
  }

  close(): void {
    this.reader.close();
  }
}

// --- building ------------------------------------------------------------------------------------

/** Where the encoded JSON goes while the columns are built. */
export interface RawSink {
  append(json: string): void;
  finish(): RawReader;
}

/** Keeps every JSON string in memory (tests, small inputs). */
export class MemorySink implements RawSink {
  private readonly items: string[] = [];
  append(json: string): void {
    this.items.push(json);
  }
  finish(): RawReader {
    const items = this.items;
    return { raw: (i) => items[i], close: () => {} };
  }
}

const WRITE_CHUNK = 1 << 20;
const READ_BLOCK = 1 << 20;

/**
 * Writes the JSON lines to a file in a fresh temp folder and reads them back by byte offset. Reads
 * go through one 1 MiB block, so a scan in either direction (search) costs one read per block.
 */
export class SpillSink implements RawSink {
  private readonly dir: string;
  private readonly path: string;
  private fd: number;
  private pending: string[] = [];
  private pendingBytes = 0;
  private written = 0;
  private offsets = new Float64Array(1 << 16);
  private n = 0;

  constructor(parent?: string) {
    // Removed on every way out of the process, like the timeline's spill (src/timeline/spill.ts).
    this.dir = createSpillDir(parent);
    this.path = join(this.dir, 'events.jsonl');
    this.fd = openSync(this.path, 'w+');
  }

  append(json: string): void {
    if (this.n + 1 >= this.offsets.length) this.offsets = grow(this.offsets, this.offsets.length * 2);
    const bytes = Buffer.byteLength(json) + 1;
    this.offsets[this.n] = this.written + this.pendingBytes;
    this.n++;
    this.pending.push(json);
    this.pendingBytes += bytes;
    if (this.pendingBytes >= WRITE_CHUNK) this.flush();
  }

  private flush(): void {
    if (!this.pending.length) return;
    const buf = Buffer.from(this.pending.join('\n') + '\n');
    let at = 0;
    while (at < buf.length) at += writeSync(this.fd, buf, at, buf.length - at, this.written + at);
    this.written += buf.length;
    this.pending = [];
    this.pendingBytes = 0;
  }

  finish(): RawReader {
    this.flush();
    this.offsets[this.n] = this.written;
    const offsets = this.offsets;
    const fd = this.fd;
    const dir = this.dir;
    const n = this.n;
    let block = Buffer.alloc(0);
    let blockStart = 0;
    let blockEnd = 0;
    let closed = false;
    const load = (start: number, end: number) => {
      if (block.length < end - start) block = Buffer.allocUnsafe(Math.max(READ_BLOCK, end - start));
      let got = 0;
      while (got < end - start) {
        const r = readSync(fd, block, got, end - start - got, start + got);
        if (r === 0) break;
        got += r;
      }
      blockStart = start;
      blockEnd = start + got;
    };
    return {
      raw(i) {
        if (i < 0 || i >= n) throw new RangeError(`event ${i} of ${n}`);
        const a = offsets[i];
        const b = offsets[i + 1] - 1;
        if (a < blockStart || b > blockEnd) {
          // Reading backwards (a search upwards) wants the block to end here, forwards to start here.
          const backwards = a < blockStart && blockStart - a <= READ_BLOCK;
          const start = backwards ? Math.max(0, offsets[i + 1] - READ_BLOCK) : a;
          load(Math.min(start, a), Math.max(b, Math.min(offsets[n], start + READ_BLOCK)));
        }
        return block.toString('utf8', a - blockStart, b - blockStart);
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

function grow<T extends Float64Array | Uint32Array | Uint16Array | Uint8Array>(a: T, size: number): T {
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a);
  return b;
}

const KEY_KIND = '"kind":"';
const KEY_LINE = '"line":';
const KEY_LEVEL = '"level":';
const KEY_TYPE = '"type":"';

/**
 * Builds the columns from encoded events in merge order. The fields it needs sit at the front of
 * the JSON in a fixed order (encodeEvent), before any free text, and a key with its quotes cannot
 * occur inside a JSON string, so they are read by position without parsing the rest.
 */
export class ColumnsBuilder {
  private n = 0;
  private cap = 1 << 14;
  private t = new Float64Array(this.cap);
  private ts = new Float64Array(this.cap);
  private source = new Uint16Array(this.cap);
  private type = new Uint8Array(this.cap);
  private level = new Uint8Array(this.cap);
  private kind = new Uint8Array(this.cap);
  private noise = new Uint8Array(this.cap);
  private line = new Uint32Array(this.cap);
  private readonly levels: (string | null)[] = [null];
  private readonly levelIndex = new Map<string, number>();
  private lastT = NaN;
  private leadingUndated = 0;

  constructor(
    private readonly sources: readonly StoreSource[],
    private readonly sink: RawSink = new MemorySink(),
  ) {}

  get count(): number {
    return this.n;
  }

  /** Adds one encoded event; returns its type (so callers need not read it again). */
  add(ts: number | null, json: string, source: number): EventType {
    if (this.n === this.cap) this.enlarge();
    const i = this.n++;
    let at = json.indexOf(KEY_KIND);
    let end = json.indexOf('"', at + KEY_KIND.length);
    this.kind[i] = KIND_INDEX.get(json.slice(at + KEY_KIND.length, end)) ?? UNKNOWN_KIND;
    at = json.indexOf(KEY_LINE, end);
    end = json.indexOf(',', at);
    this.line[i] = Number(json.slice(at + KEY_LINE.length, end)) || 0;
    at = json.indexOf(KEY_LEVEL, end) + KEY_LEVEL.length;
    if (json.charCodeAt(at) === 34 /* " */) {
      end = json.indexOf('"', at + 1);
      this.level[i] = this.levelId(json.slice(at + 1, end));
    } else this.level[i] = 0;
    at = json.indexOf(KEY_TYPE, at);
    end = json.indexOf('"', at + KEY_TYPE.length);
    const type = json.slice(at + KEY_TYPE.length, end) as EventType;
    this.type[i] = TYPE_INDEX.get(type) ?? OTHER_TYPE;
    this.noise[i] = isNoiseEncoded(type, json) ? 1 : 0;
    this.source[i] = source;
    if (ts === null) {
      this.ts[i] = NaN;
      if (Number.isNaN(this.lastT)) this.leadingUndated++;
      this.t[i] = this.lastT;
    } else {
      this.ts[i] = ts;
      // Never decreasing: a source that steps back in time keeps its place in the merge.
      this.lastT = Number.isNaN(this.lastT) || ts > this.lastT ? ts : this.lastT;
      this.t[i] = this.lastT;
    }
    this.sink.append(json);
    return type;
  }

  private levelId(word: string): number {
    let id = this.levelIndex.get(word);
    if (id === undefined) {
      // 255 distinct level words is more than any log has; beyond that they share the last slot.
      id = Math.min(this.levels.length, 255);
      if (id === this.levels.length) this.levels.push(word.trim().toUpperCase());
      this.levelIndex.set(word, id);
    }
    return id;
  }

  private enlarge(): void {
    this.cap *= 2;
    this.t = grow(this.t, this.cap);
    this.ts = grow(this.ts, this.cap);
    this.source = grow(this.source, this.cap);
    this.type = grow(this.type, this.cap);
    this.level = grow(this.level, this.cap);
    this.kind = grow(this.kind, this.cap);
    this.line = grow(this.line, this.cap);
    this.noise = grow(this.noise, this.cap);
  }

  finish(): EventStore {
    const n = this.n;
    const t = this.t.subarray(0, n);
    const dated = !Number.isNaN(this.lastT);
    // Events before the first dated one sit at its time; with no date at all, everything is at 0.
    const firstT = dated ? t[this.leadingUndated] : 0;
    for (let i = 0; i < this.leadingUndated; i++) t[i] = firstT;
    if (!dated) t.fill(0);
    const hosts: string[] = [];
    const hostOfSource = new Uint16Array(this.sources.length);
    this.sources.forEach((s, i) => {
      let h = hosts.indexOf(s.host);
      if (h < 0) h = hosts.push(s.host) - 1;
      hostOfSource[i] = h;
    });
    return new EventStore(
      {
        length: n,
        t,
        ts: this.ts.subarray(0, n),
        source: this.source.subarray(0, n),
        type: this.type.subarray(0, n),
        level: this.level.subarray(0, n),
        kind: this.kind.subarray(0, n),
        line: this.line.subarray(0, n),
        noise: this.noise.subarray(0, n),
        levels: this.levels,
        sources: this.sources,
        hosts,
        hostOfSource,
        dated,
      },
      this.sink.finish(),
    );
  }
}

/**
 * A store from event objects (tests): sources are numbered by file in order of appearance, events
 * keep the order given (sort them by time first).
 */
export function storeFromEvents(events: readonly RmqEvent[]): EventStore {
  const sources: StoreSource[] = [];
  const byFile = new Map<string, number>();
  for (const e of events) {
    if (!byFile.has(e.file)) byFile.set(e.file, sources.push({ file: e.file, host: e.host }) - 1);
  }
  const b = new ColumnsBuilder(sources);
  for (const e of events) b.add(e.ts, encodeEvent(e), byFile.get(e.file)!);
  return b.finish();
}
