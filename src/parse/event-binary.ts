// The binary form events travel in between the parse and the rules (issue 14): records in a byte
// stream, numbers as numbers, repeated strings (threads, loggers, addresses, topics) sent once per
// stream and then by number. It replaces JSON between the layers: a parse writes no JSON text and
// the rules parse none; a consumer reads an event's type and time without decoding the rest, and
// JSON is made only where it is the output (event-codec.ts, encodeEvent).
//
// Decoding gives the object decodeJson(encodeEvent(e)) gives, key order included (a property test
// holds the two equal): numbers that JSON cannot hold become null or 0 as JSON.stringify makes
// them, keys with undefined values are left out, and an event of an unusual shape travels as its
// JSON text. Strings are written as Latin-1 when they are ASCII, else as UTF-16, so every string
// comes back as it was (UTF-8 would turn a lone surrogate into U+FFFD).
//
// A stream: records, each `u32 length` (the whole record's, little-endian), `u8 tag`, then:
//   STRING  a string, which gets the stream's next number;
//   EVENT   u8 type, f64 ts, [the event's JSON text], f64 line (NaN: null), u8 flags (which
//           optional keys follow), host, kind, file, level, thread, logger, [clock], [entry],
//           [versionHint], [sendPath], u8 field count, each field (key, value), text;
//   JSON    u8 type, f64 ts, the event's JSON text (encodeEvent);
//   LINE    u8 type (other), f64 ts, f64 line, kind, level, thread, logger, f64 byteAt, u32 length:
//           a record that is no event, whose text is the `length` bytes of its file at byteAt
//           (the parser's EmitEvent); only a reader that can read the file again takes these.
// An event's tag has NO_TS set when its time is null; a JSON record's has SAFE set when its text
// was made safe to show (jsonSafe) where it was parsed; an EVENT record's has WITH_JSON set when
// it carries its JSON text too (asJson 'both': a consumer that keeps the text and reads the event).
// A value that may be a shared string is `u16 number`, or NONE (null) or INLINE followed by the
// string. A string is `u8 coding, u32 bytes, bytes`.

import { encodeEvent, isUsualEvent, type EncodedHeader } from './event-codec.js';
import { jsonSafe } from '../util/text.js';
import { EVENT_TYPES, type EventFields, type EventType, type FieldValue, type RmqEvent } from './types.js';

const STRING = 1;
const EVENT = 2;
const JSON_EVENT = 3;
const LINE = 4;
/** Set in an event's tag when it has no time. */
const NO_TS = 0x80;
/** Set in a JSON record's tag when its text is jsonSafe's already. */
const SAFE = 0x40;
/** Set in an EVENT record's tag when its JSON text follows its time. */
const WITH_JSON = 0x20;
const TAG_FLAGS = NO_TS | SAFE | WITH_JSON;

/**
 * How events travel (BuildOptions.asJson): false, the binary form; true, their JSON text; 'safe',
 * their JSON text made safe to show (jsonSafe); 'both', the binary form with the JSON text beside it.
 */
export type EventsAsJson = boolean | 'safe' | 'both';

const NONE = 0xffff;
const INLINE = 0xfffe;
/**
 * Strings numbered per stream; past this many, new ones are written in place. The reader of every
 * source holds its stream's table while the merge runs, so it is small: names (hosts, threads,
 * loggers, addresses, topics, groups) are far fewer.
 */
const MAX_SHARED = 1024;
/** Longer strings are written in place: sharing pays for names, not for messages. */
const MAX_SHARED_CHARS = 64;
/**
 * A string is shared the second time it is seen: a value that never repeats (a msgId, an offset) is
 * written in place and takes no number. What was seen is a table of SEEN_SLOTS hashes, each new one
 * in its slot (a collision only numbers a string early; no string is kept, so no piece of input is).
 */
const SEEN_SLOTS = 4096;

const LATIN1 = 0;
const UTF16 = 1;

// Field values.
const V_NULL = 0;
const V_FALSE = 1;
const V_TRUE = 2;
const V_NUMBER = 3;
const V_STRING = 4;
const V_LIST = 5;
const V_JSON = 6;

const F_CLOCK = 1;
const F_ENTRY = 2;
const F_HINT = 4;
const F_PATH = 8;

const TYPE_NUMBER = new Map<EventType, number>(EVENT_TYPES.map((t, i) => [t, i]));

/** Buffer's own coders, without write()'s argument checks (present on every Buffer since Node 0.x). */
interface RawBuffer {
  latin1Write(s: string, offset: number): number;
  ucs2Write(s: string, offset: number): number;
  latin1Slice(start: number, end: number): string;
  ucs2Slice(start: number, end: number): string;
}

// Little-endian numbers written and read byte by byte: Buffer's writeUInt16LE and the like check
// their arguments on every call, a cost per field here (the offsets are in range by construction).
const F64 = new Float64Array(1);
const F64_BYTES = new Uint8Array(F64.buffer);
/** The byte of F64_BYTES that is the i-th of the little-endian form (the platform's own order may differ). */
const LE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? [0, 1, 2, 3, 4, 5, 6, 7] : [7, 6, 5, 4, 3, 2, 1, 0];
const [L0, L1, L2, L3, L4, L5, L6, L7] = LE;

function putF64(b: Uint8Array, at: number, v: number): number {
  F64[0] = v;
  b[at] = F64_BYTES[L0];
  b[at + 1] = F64_BYTES[L1];
  b[at + 2] = F64_BYTES[L2];
  b[at + 3] = F64_BYTES[L3];
  b[at + 4] = F64_BYTES[L4];
  b[at + 5] = F64_BYTES[L5];
  b[at + 6] = F64_BYTES[L6];
  b[at + 7] = F64_BYTES[L7];
  return at + 8;
}

function getF64(b: Uint8Array, at: number): number {
  F64_BYTES[L0] = b[at];
  F64_BYTES[L1] = b[at + 1];
  F64_BYTES[L2] = b[at + 2];
  F64_BYTES[L3] = b[at + 3];
  F64_BYTES[L4] = b[at + 4];
  F64_BYTES[L5] = b[at + 5];
  F64_BYTES[L6] = b[at + 6];
  F64_BYTES[L7] = b[at + 7];
  return F64[0];
}

function putU32(b: Uint8Array, at: number, v: number): number {
  b[at] = v & 0xff;
  b[at + 1] = (v >>> 8) & 0xff;
  b[at + 2] = (v >>> 16) & 0xff;
  b[at + 3] = v >>> 24;
  return at + 4;
}

function getU32(b: Uint8Array, at: number): number {
  return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16)) + b[at + 3] * 0x1000000;
}

/** Writes events into a growing buffer; `take()` hands the bytes on and starts a new buffer of the same stream. */
export class EventWriter {
  private buf: Buffer;
  private at = 0;
  private readonly shared = new Map<string, number>();
  private readonly seen = new Uint32Array(SEEN_SLOTS);
  /** The shared strings by number, as flat copies (fresh). */
  private readonly names: string[] = [];
  // Reused per event: the fields' keys and the numbers of the strings they share.
  private readonly keys: string[] = [];
  private readonly refs: number[] = [];
  private readonly lastOf: Array<string | null | undefined> = new Array<undefined>(6).fill(undefined);
  private readonly refOf: number[] = new Array<number>(6).fill(NONE);
  /** Events written since the last take(). */
  count = 0;

  /**
   * `asJson`: every event as its JSON text (JSON records), for a run whose output is JSON lines
   * ('safe': made safe to show as well, jsonSafe, which the output then need not do on one core;
   * 'both': beside the binary form, for a consumer that keeps the text and reads the event too):
   * the text is then made where the parse runs, on every core, and written out as it comes.
   */
  constructor(
    initial = 64 << 10,
    private readonly asJson: EventsAsJson = false,
  ) {
    this.buf = Buffer.allocUnsafe(initial);
  }

  /** Bytes written since the last take(). */
  get size(): number {
    return this.at;
  }

  add(e: RmqEvent): void {
    const type = TYPE_NUMBER.get(e.type);
    const both = this.asJson === 'both';
    if ((this.asJson && !both) || type === undefined || !isUsualEvent(e)) {
      if (this.asJson === 'safe') this.addEncoded(e.ts, e.type, jsonSafe(encodeEvent(e)), true);
      else this.addEncoded(e.ts, e.type, encodeEvent(e));
      return;
    }
    // Shared strings first: each new one is a record of its own, before the event that uses it.
    const host = this.slot(0, e.host);
    const kind = this.slot(1, e.kind);
    const file = this.slot(2, e.file);
    const level = this.slot(3, e.level);
    const thread = this.slot(4, e.thread);
    const logger = this.slot(5, e.logger);
    let flags = 0;
    let clock = NONE;
    let entry = NONE;
    let hint = NONE;
    let path = NONE;
    if (e.clock) (flags |= F_CLOCK), (clock = this.ref(e.clock));
    if (e.entry) (flags |= F_ENTRY), (entry = this.ref(e.entry));
    if (e.versionHint) (flags |= F_HINT), (hint = this.ref(e.versionHint));
    if (e.sendPath) (flags |= F_PATH), (path = this.ref(e.sendPath));
    const fields = e.fields;
    const keys = this.keys;
    const refs = this.refs;
    let nkeys = 0;
    let nrefs = 0;
    for (const k in fields) {
      if (!Object.prototype.hasOwnProperty.call(fields, k)) continue;
      const v = fields[k];
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue; // JSON leaves them out
      keys[nkeys++] = k;
      refs[nrefs++] = this.ref(k);
      if (typeof v === 'string') refs[nrefs++] = this.ref(v);
      else if (isStringList(v)) for (const s of v) refs[nrefs++] = this.ref(s);
    }
    if (nkeys > 255) {
      this.addEncoded(e.ts, e.type, encodeEvent(e));
      return;
    }
    const start = this.begin(EVENT | (e.ts === null ? NO_TS : 0) | (both ? WITH_JSON : 0), 1 + 8 + 8 + 1);
    this.buf[this.at++] = type;
    this.at = putF64(this.buf, this.at, tsOf(e.ts));
    if (both) {
      this.str(encodeEvent(e));
      this.ensure(9);
    }
    const b = this.buf;
    this.at = putF64(b, this.at, Number.isFinite(e.line) ? e.line || 0 : NaN); // JSON: -0 is 0, NaN null
    b[this.at++] = flags;
    this.u16ref(host, e.host);
    this.u16ref(kind, e.kind);
    this.u16ref(file, e.file);
    this.u16ref(level, e.level);
    this.u16ref(thread, e.thread);
    this.u16ref(logger, e.logger);
    if (flags & F_CLOCK) this.u16ref(clock, e.clock!);
    if (flags & F_ENTRY) this.u16ref(entry, e.entry!);
    if (flags & F_HINT) this.u16ref(hint, e.versionHint!);
    if (flags & F_PATH) this.u16ref(path, e.sendPath!);
    this.ensure(1);
    this.buf[this.at++] = nkeys;
    let r = 0;
    for (let i = 0; i < nkeys; i++) {
      this.u16ref(refs[r++], keys[i]);
      r = this.value(fields[keys[i]], refs, r);
    }
    this.str(e.text);
    this.end(start);
    this.count++;
  }

  /**
   * An `other` event whose text is the bytes of its file at `byteAt` (EmitEvent), as a LINE record:
   * its header's names and the place of its text (the text itself, its JSON, and its fields, which
   * are none, stay out). `e.ts` is a time (not null).
   */
  addLine(e: RmqEvent, byteAt: number): void {
    const kind = this.slot(1, e.kind);
    const level = this.slot(3, e.level);
    const thread = this.slot(4, e.thread);
    const logger = this.slot(5, e.logger);
    const start = this.begin(LINE, 1 + 8 + 8);
    this.buf[this.at++] = TYPE_NUMBER.get(e.type)!;
    this.at = putF64(this.buf, this.at, tsOf(e.ts));
    this.at = putF64(this.buf, this.at, e.line);
    this.u16ref(kind, e.kind);
    this.u16ref(level, e.level);
    this.u16ref(thread, e.thread);
    this.u16ref(logger, e.logger);
    this.ensure(12);
    this.at = putF64(this.buf, this.at, byteAt);
    this.at = putU32(this.buf, this.at, Buffer.byteLength(e.text, 'utf8'));
    this.end(start);
    this.count++;
  }

  /** The bytes written since the last call (a copy the caller owns); the stream's shared strings go on. */
  take(): Buffer {
    const out = Buffer.from(this.buf.subarray(0, this.at));
    this.clear();
    return out;
  }

  /** The bytes written since the last take(), as a view valid until the next add(). */
  peek(): Buffer {
    return this.buf.subarray(0, this.at);
  }

  /** Forget what was written since the last take() (after it was handed on through peek()). */
  clear(): void {
    this.at = 0;
    this.count = 0;
  }

  /**
   * An event as its JSON text (encodeEvent's): an event of a shape the record does not hold, or
   * asJson's. `safe`: the text is jsonSafe's (the reader tells it, and output need not look again).
   */
  addEncoded(ts: number | null, type: string, json: string, safe = false): void {
    const n = TYPE_NUMBER.get(type as EventType);
    const start = this.begin(JSON_EVENT | (ts === null ? NO_TS : 0) | (safe ? SAFE : 0), 1 + 8);
    this.buf[this.at++] = n ?? 255;
    if (n === undefined) this.str(type);
    this.ensure(8);
    this.at = putF64(this.buf, this.at, tsOf(ts));
    this.str(json);
    this.end(start);
    this.count++;
  }

  private value(v: FieldValue, refs: number[], r: number): number {
    this.ensure(9);
    const b = this.buf;
    if (v === null || (typeof v === 'number' && !Number.isFinite(v))) b[this.at++] = V_NULL;
    else if (v === true) b[this.at++] = V_TRUE;
    else if (v === false) b[this.at++] = V_FALSE;
    else if (typeof v === 'number') {
      b[this.at++] = V_NUMBER;
      this.at = putF64(b, this.at, v === 0 ? 0 : v); // -0 is 0 in JSON
    } else if (typeof v === 'string') {
      b[this.at++] = V_STRING;
      this.u16ref(refs[r++], v);
    } else if (isStringList(v)) {
      b[this.at++] = V_LIST;
      this.at = putU32(b, this.at, v.length);
      for (const s of v) this.u16ref(refs[r++], s);
    } else {
      b[this.at++] = V_JSON;
      this.str(JSON.stringify(v));
    }
    return r;
  }

  /** ref() of a key the events of a source mostly share (host, kind, file, level...): the last one is kept beside its number. */
  private slot(i: number, s: string | null): number {
    if (s === this.lastOf[i]) return this.refOf[i];
    const r = this.ref(s);
    // The table's copy, never `s` itself (a view of a piece of input); one written in place is not kept.
    this.lastOf[i] = s === null ? null : r < MAX_SHARED ? this.names[r] : undefined;
    this.refOf[i] = r;
    return r;
  }

  /** The number of a shared string (written first as a STRING record when new), NONE for null, INLINE for one written in place. */
  private ref(s: string | null): number {
    if (s === null) return NONE;
    const n = this.shared.get(s);
    if (n !== undefined) return n;
    if (s.length > MAX_SHARED_CHARS || this.shared.size >= MAX_SHARED) return INLINE;
    const h = hashOf(s);
    const slot = h & (SEEN_SLOTS - 1);
    if (this.seen[slot] !== h) {
      this.seen[slot] = h;
      return INLINE;
    }
    const start = this.begin(STRING, 0);
    this.str(s);
    this.end(start);
    const id = this.shared.size;
    const copy = fresh(s);
    this.shared.set(copy, id);
    this.names.push(copy);
    return id;
  }

  private u16ref(ref: number, s: string | null): void {
    if (this.at + 2 > this.buf.length) this.ensure(2);
    const b = this.buf;
    b[this.at] = ref & 0xff;
    b[this.at + 1] = ref >>> 8;
    this.at += 2;
    if (ref === INLINE) this.str(s!);
  }

  private str(s: string): void {
    this.ensure(5 + s.length * 2);
    const b = this.buf as Buffer & RawBuffer;
    // ASCII (one UTF-8 byte per character) as Latin-1, anything else as UTF-16: both exact.
    if (Buffer.byteLength(s, 'utf8') === s.length) {
      b[this.at] = LATIN1;
      putU32(b, this.at + 1, s.length);
      this.at += 5 + b.latin1Write(s, this.at + 5);
    } else {
      b[this.at] = UTF16;
      putU32(b, this.at + 1, s.length * 2);
      this.at += 5 + b.ucs2Write(s, this.at + 5);
    }
  }

  private ensure(room: number): void {
    if (this.at + room <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + room));
    this.buf.copy(next, 0, 0, this.at);
    this.buf = next;
  }

  /** Start a record (length, tag) with room for `room` more bytes; returns its start. */
  private begin(tag: number, room: number): number {
    this.ensure(5 + room);
    const start = this.at;
    this.buf[start + 4] = tag;
    this.at = start + 5;
    return start;
  }

  private end(start: number): void {
    putU32(this.buf, start, this.at - start);
  }
}

/**
 * A flat copy of a string the writer keeps (its tables): a substring of a line is a view of the
 * whole decoded piece of input, which it would keep alive (V8 makes such views from 13 characters on).
 */
function fresh(s: string): string {
  return s.length < 13 ? s : Buffer.from(s, 'utf16le').toString('utf16le');
}

/** FNV-1a over the string's code units (what the seen table keeps of a string). */
function hashOf(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

function isStringList(v: unknown): v is string[] {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== 'string') return false;
  return true;
}

/** The time as the text form carried it (`${ts}` read back: -0 came back 0); null is the tag's NO_TS. */
function tsOf(ts: number | null): number {
  return ts === null || ts === 0 ? 0 : ts;
}

/** What a LINE record holds beside its header (EventReader.line). */
export interface LineRecord {
  thread: string | null;
  logger: string | null;
  /** Where the text is in the file, and its length in bytes (UTF-8). */
  byteAt: number;
  length: number;
}

/**
 * Reads a stream's records from buffers handed to it in order (read()), keeping the shared strings.
 * After read() finds an event, `ts` and `type` are set and event() decodes it, until the next read().
 */
export class EventReader {
  private readonly shared: string[] = [];
  private buf: Buffer = Buffer.alloc(0);
  private at = 0;
  private rec = -1;
  ts: number | null = null;
  type: EventType = 'other';
  /** Where read() stopped when it returned -1. */
  stopped = 0;

  /**
   * The next event of `buf` from `offset` (strings on the way are taken in): the offset after it,
   * or -1 when `buf` up to `end` holds no whole record from `stopped` on (the strings before it
   * are taken: go on from there once more bytes are in; `needed()` says how many the record takes).
   */
  read(buf: Buffer, offset: number, end = buf.length): number {
    let at = offset;
    for (;;) {
      this.stopped = at;
      if (at + 4 > end) return -1;
      const len = getU32(buf, at);
      if (at + len > end) return -1;
      const tag = buf[at + 4];
      if (tag === STRING) {
        this.buf = buf;
        this.at = at + 5;
        this.shared.push(this.str());
        at += len;
        continue;
      }
      this.buf = buf;
      this.rec = at;
      const t = buf[at + 5];
      let p = at + 6;
      if (t === 255) {
        this.at = p;
        this.type = this.str() as EventType;
        p = this.at;
      } else this.type = EVENT_TYPES[t];
      this.ts = tag & NO_TS ? null : getF64(buf, p);
      return at + len;
    }
  }

  /** Bytes the record at `offset` of `buf` takes (at least its length's 4 bytes), of those up to `end`. */
  static needed(buf: Buffer, offset: number, end = buf.length): number {
    return offset + 4 > end ? 4 : getU32(buf, offset);
  }

  /** Forget the shared strings: the next buffer starts another stream. */
  reset(): void {
    this.shared.length = 0;
  }

  /** Whether json() of the event read last is jsonSafe's already (made so where it was parsed). */
  get jsonIsSafe(): boolean {
    return (this.buf[this.rec + 4] & SAFE) !== 0;
  }

  /** Where the record read last goes on after its type and time (a type it names in place skipped). */
  private afterTs(): number {
    const at = this.rec + 6;
    return (this.buf[this.rec + 5] === 255 ? at + 5 + getU32(this.buf, at + 1) : at) + 8;
  }

  /** afterTs(), past the JSON text an EVENT record carries beside its fields (WITH_JSON). */
  private afterJson(): number {
    const at = this.afterTs();
    return this.buf[this.rec + 4] & WITH_JSON ? at + 5 + getU32(this.buf, at + 1) : at;
  }

  /** Where the JSON text of the record read last starts, or -1 when it carries none. */
  private jsonAt(): number {
    const tag = this.buf[this.rec + 4];
    return (tag & ~TAG_FLAGS) === JSON_EVENT || tag & WITH_JSON ? this.afterTs() : -1;
  }

  /** The JSON text of the event read last (encodeEvent's), as it travelled or made now. */
  json(): string {
    const at = this.jsonAt();
    if (at < 0) return encodeEvent(this.event(0, 0));
    this.at = at;
    return this.str();
  }

  /** After jsonSpan() was true: the event's JSON text is spanBytes[spanStart, spanEnd). */
  spanBytes: Buffer = this.buf;
  spanStart = 0;
  spanEnd = 0;

  /**
   * Where the JSON text of the event read last lies as UTF-8 bytes (a text that travelled as ASCII
   * is written as Latin-1, the same bytes): true, and spanBytes, spanStart and spanEnd say where
   * (valid until the next read()); false when it did not travel so (UTF-16, or no text: json()).
   */
  jsonSpan(): boolean {
    const at = this.jsonAt();
    if (at < 0 || this.buf[at] !== LATIN1) return false;
    this.spanBytes = this.buf;
    this.spanStart = at + 5;
    this.spanEnd = this.spanStart + getU32(this.buf, at + 1);
    return true;
  }

  /**
   * The kind, line and level of the event read last into `out` (readHeader's answer without its
   * JSON text; the level as decoded, where readHeader slices the text raw), when it travelled in
   * the binary form: false for a JSON record.
   */
  header(out: EncodedHeader): boolean {
    const tag = this.buf[this.rec + 4] & ~TAG_FLAGS;
    if (tag === LINE) {
      this.at = this.rec + 6 + 8;
      out.line = getF64(this.buf, this.at);
      this.at += 8;
      out.kind = this.ref() ?? '';
      out.level = this.ref();
      out.type = this.type;
      return true;
    }
    if (tag !== EVENT) return false;
    this.at = this.afterJson();
    const line = getF64(this.buf, this.at);
    this.at += 9;
    this.ref(); // host
    out.kind = this.ref() ?? '';
    this.ref(); // file
    out.level = this.ref();
    out.line = line || 0; // null (NaN) reads 0, as readHeader reads it
    out.type = this.type;
    return true;
  }

  /** Whether the record read last is a LINE record (EventWriter.addLine): its text is in its file. */
  get isLine(): boolean {
    return (this.buf[this.rec + 4] & ~TAG_FLAGS) === LINE;
  }

  /** Of a LINE record read last (isLine): its header's thread and logger, and where its text is. */
  line(out: LineRecord): LineRecord {
    this.at = this.rec + 6 + 16;
    this.ref(); // kind
    this.ref(); // level
    out.thread = this.ref();
    out.logger = this.ref();
    out.byteAt = getF64(this.buf, this.at);
    out.length = getU32(this.buf, this.at + 8);
    return out;
  }

  /** The event read last, as decodeJson(encodeEvent(e), ts, source, seq) gives it. */
  event(source: number, seq: number): RmqEvent {
    const b = this.buf;
    const tag = b[this.rec + 4] & ~TAG_FLAGS;
    // Its text is in its file, which only the TUI's store reads again (and asks for isLine first).
    if (tag === LINE) throw new Error(`a record kept as the place of its line (source ${source}) cannot be decoded without its file`);
    this.at = this.afterJson();
    if (tag === JSON_EVENT) {
      const e = JSON.parse(this.str()) as RmqEvent;
      e.ts = this.ts;
      e.source = source;
      e.seq = seq;
      return e;
    }
    const line = getF64(b, this.at);
    const flags = b[this.at + 8];
    this.at += 9;
    const host = this.ref()!;
    const kind = this.ref() as RmqEvent['kind'];
    const file = this.ref()!;
    const level = this.ref();
    const thread = this.ref();
    const logger = this.ref();
    const clock = flags & F_CLOCK ? this.ref()! : undefined;
    const entry = flags & F_ENTRY ? this.ref()! : undefined;
    const versionHint = flags & F_HINT ? this.ref()! : undefined;
    const sendPath = flags & F_PATH ? (this.ref() as RmqEvent['sendPath']) : undefined;
    const n = b[this.at++];
    const fields: EventFields = {};
    for (let i = 0; i < n; i++) {
      const k = this.ref()!;
      const v = this.value();
      // JSON.parse makes "__proto__" an own key; an assignment would set the prototype.
      if (k === '__proto__') Object.defineProperty(fields, k, { value: v, enumerable: true, writable: true, configurable: true });
      else fields[k] = v;
    }
    const text = this.str();
    const lineOrNull = Number.isNaN(line) ? (null as unknown as number) : line;
    // The keys in the order JSON.parse(encodeEvent(e)) gives them, then decodeJson's three. The
    // usual shapes as literals: one allocation of the object's final shape, not one step per key.
    if (clock === undefined && versionHint === undefined && sendPath === undefined) {
      const type = this.type;
      const ts = this.ts;
      return entry === undefined
        ? { host, kind, file, line: lineOrNull, level, thread, logger, type, fields, text, ts, source, seq }
        : { host, kind, file, line: lineOrNull, level, thread, logger, type, fields, text, entry, ts, source, seq };
    }
    const e = (clock !== undefined ? { clock, host } : { host }) as RmqEvent;
    e.kind = kind;
    e.file = file;
    e.line = lineOrNull;
    e.level = level;
    e.thread = thread;
    e.logger = logger;
    e.type = this.type;
    e.fields = fields;
    e.text = text;
    if (entry !== undefined) e.entry = entry;
    if (versionHint !== undefined) e.versionHint = versionHint;
    if (sendPath !== undefined) e.sendPath = sendPath;
    e.ts = this.ts;
    e.source = source;
    e.seq = seq;
    return e;
  }

  private value(): FieldValue {
    const b = this.buf;
    const tag = b[this.at++];
    switch (tag) {
      case V_NULL:
        return null;
      case V_FALSE:
        return false;
      case V_TRUE:
        return true;
      case V_NUMBER: {
        const v = getF64(b, this.at);
        this.at += 8;
        return v;
      }
      case V_STRING:
        return this.ref()!;
      case V_LIST: {
        const n = getU32(b, this.at);
        this.at += 4;
        const out: string[] = new Array(n);
        for (let i = 0; i < n; i++) out[i] = this.ref()!;
        return out;
      }
      default:
        return JSON.parse(this.str()) as FieldValue;
    }
  }

  private ref(): string | null {
    const b = this.buf;
    const n = b[this.at] | (b[this.at + 1] << 8);
    this.at += 2;
    if (n === NONE) return null;
    if (n === INLINE) return this.str();
    return this.shared[n];
  }

  private str(): string {
    const b = this.buf;
    const coding = b[this.at];
    const len = getU32(b, this.at + 1);
    const start = this.at + 5;
    this.at = start + len;
    const raw = b as Buffer & RawBuffer;
    return coding === LATIN1 ? raw.latin1Slice(start, start + len) : raw.ucs2Slice(start, start + len);
  }
}
