// Reading one source as a stream of lines, with exact line accounting and bounded memory.
//
// Decisions:
// - Accounting: `lines` = number of sink.line() calls + sink.unreadable() calls, and line numbers
//   are 1, 2, 3, ... without gaps. A line ends at '\n', at "\r\n", or at a lone '\r' (classic Mac
//   line ends, which some Windows tools still write): an empty input has 0 lines, a final line
//   without a terminator counts, and an input ending in a terminator has no extra empty line.
// - Terminators: one trailing '\r' is removed from each line (CRLF), also from a last line at end of
//   input; `crlf` is true when any "\r\n" was seen, `cr` when a lone '\r' ended a line. A UTF-8
//   byte-order mark at the start of line 1 is dropped from the text.
// - UTF-16: a UTF-16LE or UTF-16BE byte-order mark at the start (Windows services write these) makes
//   the whole input UTF-16; it is transcoded to UTF-8 before lines are split (`encoding` says which).
//   UTF-16 without a mark is not guessed.
// - Gzip is detected by the magic bytes 1f 8b at the start of the stream (file name ignored), also
//   on stdin. Files are inflated with Node's zlib stream (fast, multi-member files are fine); on a
//   zlib error the file is inflated again from its start by src/ingest/gunzip.ts, which delivers
//   every byte inflated before the damage and names its compressed offset; the bytes already split
//   into lines are skipped. Stdin (it cannot be read twice) goes through gunzip.ts from the start.
//   `bytes` counts raw (compressed) bytes read; `decompressedBytes` counts the bytes split into
//   lines (equal to `bytes` for plain input). onProgress gets the running raw byte count.
// - Memory: chunks of 1 MiB from disk; a partial line is carried across chunks as bytes (copied, so
//   no chunk stays pinned), and never more than maxLineBytes of it. A longer line is reported once,
//   when its end is reached, as unreadable(lineNo, 'line longer than 1 MiB (N bytes)') with the exact
//   N (bytes without the '\n'); its bytes are skipped, not kept. A .gz that inflates a thousandfold
//   streams in the same memory.
// - Speed: for each chunk the complete lines in it form one block. If the block is valid UTF-8
//   (isAscii / isUtf8) and has none of the binary control bytes (one native indexOf per byte
//   value, ~4x faster than a regex), it is decoded once (latin1 when pure ASCII, which is ~10x
//   faster than the UTF-8 decoder; otherwise transcode() to UTF-16, ~2x faster than toString('utf8'))
//   and split on '\n' in the string. Otherwise that block goes line by line (below). Chunks with no
//   '\r' and no NUL (most) skip the normalisation below with two native indexOf calls.
// - Binary data is judged by region, never by file: a crashed, pre-allocated file holds blocks of NUL
//   bytes between its text, a junk line sits in a short log. A run of NUL_RUN or more NUL bytes is
//   cut out of the byte stream (it adds no line; the text glued to it is read), counted and
//   reported once per file. Then, per line, in this order: longer than maxLineBytes -> unreadable;
//   binary (has a NUL byte, or more than 30% of its bytes are control characters other than \t \r
//   \f \x1b; \v and DEL count) -> unreadable(lineNo, 'binary data'); valid UTF-8 -> UTF-8; not
//   UTF-8 in a region (the line and those before it, about the last 64 KiB; never lines after it,
//   so that no verdict depends on how the input was chunked; a file's first 8 KiB of lines are
//   judged together, as they come before any evidence) where more than 30% of the bytes lie
//   in binary lines (a .jar, an image, compressed data) -> unreadable 'binary data'; valid GBK (fatal
//   TextDecoder('gbk')) with at least one double-byte character -> GBK; else UTF-8 with U+FFFD
//   replacement characters (Latin-1 text, say). Clean text lines are never dropped for the company
//   they keep.
// - encoding: 'utf-16le'/'utf-16be' for a UTF-16 input; 'gbk' when GBK lines were seen and no other
//   non-ASCII lines; 'mixed' when GBK lines and UTF-8 (or undecodable) non-ASCII lines were both
//   seen; 'binary' when every line was binary; else 'utf-8'. Issues, at most one of each kind per
//   file: undecodable lines (count and first line), GBK lines in a mixed file (count and first
//   line), NUL blocks cut out (bytes, blocks, lines). Binary and overlong lines are reported only
//   through sink.unreadable(), not as issues.
// - Errors never throw: a missing or unreadable file gives one issue (e.g. "no such file or
//   directory: X") and lines = 0; broken gzip keeps every line inflated before the damage, including
//   a cut-off last line, and adds "broken gzip data at byte N after line L: <zlib message>" (L is the
//   last whole line; the rest of the file is not read); trailing garbage after the last member is
//   ignored, as gzip does, with a note; any other read error after the start adds "read error after
//   line N: <message>". Only an abort via opts.signal rejects (with the signal's reason).

import { isAscii, isUtf8, transcode } from 'node:buffer';
import * as fs from 'node:fs';
import { Readable, pipeline } from 'node:stream';
import { TextDecoder } from 'node:util';
import * as zlib from 'node:zlib';
import { CONTROL, hasControlByte } from './control-bytes.js';
import { ExactGunzip, type GzipStop } from './gunzip.js';
import type { InputIssue, SourceSpec } from './sources.js';
import { fsErrorMessage } from './sources.js';
import { plural } from '../util/text.js';

export interface LineSink {
  /**
   * text without the line terminator (a trailing \r of CRLF is removed); lineNo 1-based. `keyword`,
   * when the sink has keywordStarts and the line came in an ASCII block: whether one of its keywords
   * starts in the line (undefined: not looked for). `keywordAt`, when every other keyword occurrence
   * of the line lies inside the longest keyword at its first (one occurrence alone, most often):
   * where that first one starts in `text`. `byteAt`, for a UTF-8 line of a plain file whose bytes
   * went to the lines unchanged (no gzip, no UTF-16, no NUL run cut out, no byte-order mark taken
   * off) and that a line end follows: the file offset of its first byte, where `text` can be read
   * again (its bytes as UTF-8, Buffer.byteLength(text) of them).
   */
  line(text: string, lineNo: number, keyword?: boolean, keywordAt?: number, byteAt?: number): void;
  /**
   * Every place where one of the sink's keywords starts in ASCII bytes [from, to), increasing, each
   * with the length of the longest keyword starting there ([start, length, ...], a view valid until
   * the next call): asked once per block (src/parse/keyword-scan.ts, keywordStarts). Null when the
   * bytes hold a control byte (control-bytes.ts): the block's lines are then judged one by one.
   */
  keywordStarts?: (bytes: Uint8Array, from: number, to: number) => Int32Array | null;
  /** a line that could not be read as text */
  unreadable(lineNo: number, reason: string): void;
}

export interface ReadOptions {
  /** default 1 MiB */
  maxLineBytes?: number;
  signal?: AbortSignal;
  /** running count of raw bytes read */
  onProgress?: (bytesRead: number) => void;
  /**
   * A plain file's bytes [start, end) only, its first line numbered firstLine: one part of a file
   * split at line starts (src/timeline/split.ts). Not for gzip or stdin.
   */
  range?: { start: number; end: number; firstLine: number };
}

export interface ReadResult {
  lines: number;
  bytes: number;
  decompressedBytes: number;
  encoding: 'utf-8' | 'utf-16le' | 'utf-16be' | 'gbk' | 'mixed' | 'binary';
  issues: InputIssue[];
  crlf: boolean;
  /** A lone '\r' ended a line somewhere. */
  cr: boolean;
}

const MiB = 1 << 20;
const READ_CHUNK = MiB;
const GUNZIP_CHUNK = 256 * 1024;
/** A run of this many NUL bytes or more is a hole in the file (pre-allocated, crashed), not data. */
export const NUL_RUN = 8;

const DECODE_PIECE = 1 << 16;
/** Binary data is judged over about this many bytes (see LineSplitter.note). */
const REGION_BYTES = 1 << 16;
/** A file's first lines, about this many bytes, are judged together (LineSplitter.held). */
const PREFIX_BYTES = 1 << 13;

let gbkDecoder: TextDecoder | null | undefined;
function gbk(): TextDecoder | null {
  if (gbkDecoder === undefined) {
    try {
      gbkDecoder = new TextDecoder('gbk', { fatal: true });
    } catch {
      gbkDecoder = null; // runtime without full ICU: no GBK support
    }
  }
  return gbkDecoder;
}

/** Decode as GBK if valid and it has at least one double-byte character; else null. */
function decodeGbk(bytes: Buffer): string | null {
  const dec = gbk();
  if (!dec) return null;
  let multi = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b >= 0x81 && b <= 0xfe) {
      multi = true;
      break;
    }
  }
  if (!multi) return null;
  try {
    return dec.decode(bytes);
  } catch {
    return null;
  }
}

function isBinaryLine(buf: Buffer, a: number, b: number): boolean {
  let ctrl = 0;
  for (let i = a; i < b; i++) {
    const c = buf[i];
    if (c === 0) return true;
    ctrl += CONTROL[c];
  }
  return ctrl * 10 > (b - a) * 3;
}

/**
 * Decode a block already known to be valid UTF-8. transcode() to UTF-16LE and a UTF-16 string is
 * about twice as fast as toString('utf8') on Node 20 for CJK-heavy text; same result.
 */
function decodeUtf8Block(sub: Buffer): string {
  try {
    return transcode(sub, 'utf8', 'utf16le').toString('utf16le');
  } catch {
    return sub.toString('utf8');
  }
}

function formatBytes(n: number): string {
  if (n >= MiB && n % MiB === 0) return `${n / MiB} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}


const CR = Buffer.from('\r');
const LF = Buffer.from('\n');

/**
 * Before lines are split: a UTF-16 input (by its byte-order mark) is transcoded to UTF-8, lone
 * '\r' line ends become '\n', and runs of NUL_RUN or more NUL bytes are cut out. Chunks that need
 * none of this pass through untouched (the usual case, decided by two native indexOf calls).
 */
class TextStage {
  private head: Buffer | null = Buffer.alloc(0);
  private utf16: { decoder: TextDecoder; be: boolean; odd: number | null } | null = null;
  /** The previous chunk ended in '\r': held back until the next byte says CRLF or lone CR. */
  private pendingCr = false;
  /** NUL bytes at the end of the previous chunk, held back until the run's length is known. */
  private heldNul = 0;
  private crMode: 'unknown' | 'keep' | 'lines' = 'unknown';
  loneCr = false;
  nulBytes = 0;
  nulRuns = 0;
  nulFirstLine = 0;
  nulLastLine = 0;

  constructor(
    private readonly out: (chunk: Buffer) => void,
    /** Line number the next byte handed out belongs to. */
    private readonly lineAt: () => number,
  ) {}

  get encoding(): 'utf-16le' | 'utf-16be' | null {
    return this.utf16 ? (this.utf16.be ? 'utf-16be' : 'utf-16le') : null;
  }

  push(chunk: Buffer): void {
    if (this.head) {
      // The first two bytes decide UTF-16.
      const head = this.head.length ? Buffer.concat([this.head, chunk]) : chunk;
      if (head.length < 2) {
        this.head = Buffer.from(head);
        return;
      }
      this.head = null;
      if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) {
        const be = head[0] === 0xfe;
        this.utf16 = { decoder: new TextDecoder('utf-16le'), be, odd: null };
      }
      chunk = head;
    }
    if (this.utf16) chunk = this.fromUtf16(chunk, false);
    this.normalise(chunk);
  }

  end(): void {
    if (this.head && this.head.length) {
      const h = this.head;
      this.head = null;
      this.normalise(h);
    }
    if (this.utf16) this.normalise(this.fromUtf16(Buffer.alloc(0), true));
    if (this.heldNul > 0) this.flushNul();
    if (this.pendingCr) {
      // A lone '\r' at the very end: it ends the last line.
      this.pendingCr = false;
      this.loneCr = true;
      this.out(LF);
    }
  }

  private fromUtf16(chunk: Buffer, last: boolean): Buffer {
    const u = this.utf16!;
    let bytes = chunk;
    if (u.be) {
      // Swap to little-endian (an odd byte waits for its partner).
      const all = u.odd !== null ? Buffer.concat([Buffer.from([u.odd]), chunk]) : chunk;
      const even = all.length & ~1;
      u.odd = even < all.length ? all[even] : null;
      bytes = Buffer.from(all.subarray(0, even));
      bytes.swap16();
      if (last && u.odd !== null) bytes = Buffer.concat([bytes, Buffer.from([u.odd])]); // decodes to U+FFFD
    }
    const text = u.decoder.decode(bytes, { stream: !last });
    return Buffer.from(text, 'utf8');
  }

  private normalise(chunk: Buffer): void {
    const len = chunk.length;
    if (len === 0) return;
    if (this.crMode === 'unknown') this.decideCr(chunk);
    if (this.pendingCr) {
      // The '\r' that ended the previous chunk: CRLF, or a line end of its own.
      this.pendingCr = false;
      this.out(chunk[0] === 10 ? CR : this.lone());
    }
    const firstNul = chunk.indexOf(0);
    if (firstNul < 0 && this.heldNul === 0) {
      if (this.crMode === 'keep') {
        this.out(chunk);
        return;
      }
      let cr = chunk.indexOf(13);
      if (cr < 0) {
        this.out(chunk);
        return;
      }
      let copy: Buffer | null = null;
      let end = len;
      while (cr >= 0) {
        if (cr === len - 1) {
          this.pendingCr = true;
          end = len - 1;
          break;
        }
        if (chunk[cr + 1] !== 10) {
          if (!copy) copy = Buffer.from(chunk);
          copy[cr] = 10;
          this.loneCr = true;
        }
        cr = chunk.indexOf(13, cr + 1);
      }
      const src = copy ?? chunk;
      if (end > 0) this.out(src.subarray(0, end));
      return;
    }
    this.normaliseSlow(chunk);
  }

  /**
   * Lone '\r' ends lines only in a file whose first line ends so (a classic Mac file): in a file
   * whose first line ends in '\n' or "\r\n", a stray '\r' stays inside its line, so that line
   * numbers agree with grep -n and sed.
   */
  private decideCr(chunk: Buffer): void {
    if (this.pendingCr) {
      this.crMode = chunk[0] === 10 ? 'keep' : 'lines';
      return;
    }
    const nl = chunk.indexOf(10);
    const cr = chunk.indexOf(13);
    if (cr < 0 || (nl >= 0 && nl < cr)) {
      if (nl >= 0) this.crMode = 'keep';
      return;
    }
    if (cr + 1 < chunk.length) this.crMode = chunk[cr + 1] === 10 ? 'keep' : 'lines';
  }

  private lone(): Buffer {
    this.loneCr = true;
    return LF;
  }

  /** A chunk with NUL bytes (or NULs held from the previous one): rebuilt piece by piece. */
  private normaliseSlow(chunk: Buffer): void {
    const len = chunk.length;
    const out = Buffer.allocUnsafe(len + NUL_RUN);
    const crLines = this.crMode !== 'keep';
    let o = 0;
    let i = 0;
    let lines = this.lineAt();
    let counted = 0;
    const lineOf = (pos: number): number => {
      const done = out.subarray(0, pos);
      for (let k = done.indexOf(10, counted); k >= 0; k = done.indexOf(10, k + 1)) lines++;
      counted = pos;
      return lines;
    };
    while (i < len) {
      const c = chunk[i];
      if (c === 0 || this.heldNul > 0) {
        let j = i;
        while (j < len && chunk[j] === 0) j++;
        const run = this.heldNul + (j - i);
        if (j === len) {
          this.heldNul = run;
          i = j;
          break;
        }
        this.heldNul = 0;
        if (run >= NUL_RUN) this.countNul(run, lineOf(o));
        else {
          out.fill(0, o, o + run);
          o += run;
        }
        i = j;
        continue;
      }
      if (c === 13 && crLines) {
        if (i === len - 1) {
          this.pendingCr = true;
          i++;
          break;
        }
        if (chunk[i + 1] !== 10) {
          this.loneCr = true;
          out[o++] = 10;
        } else out[o++] = 13;
        i++;
        continue;
      }
      // Copy up to the next NUL (or CR, when lone CRs end lines).
      let next = len;
      const nul = chunk.indexOf(0, i);
      if (nul >= 0) next = nul;
      if (crLines) {
        const cr = chunk.indexOf(13, i);
        if (cr >= 0 && cr < next) next = cr;
      }
      chunk.copy(out, o, i, next);
      o += next - i;
      i = next;
    }
    if (o > 0) this.out(out.subarray(0, o));
  }

  private flushNul(): void {
    const run = this.heldNul;
    this.heldNul = 0;
    if (run >= NUL_RUN) this.countNul(run, this.lineAt());
    else this.out(Buffer.alloc(run));
  }

  private countNul(run: number, line: number): void {
    this.nulBytes += run;
    if (this.nulRuns++ === 0) this.nulFirstLine = line;
    this.nulLastLine = line;
  }
}

/** A line of the file's first bytes, held until they are judged together; byteAt: see LineSplitter.judge. */
interface HeldLine {
  line: Buffer;
  terminated: boolean;
  byteAt: number;
}

/** Splits byte chunks into lines and feeds the sink. */
class LineSplitter {
  lineNo = 0;
  crlf = false;
  private carry: Buffer[] = [];
  private carryLen = 0;
  private skipping = false;
  private skipLen = 0;
  /** Bytes judged lately, and those in binary lines (halved past REGION_BYTES): the region's verdict. */
  private recentAll = 0;
  private recentBad = 0;
  utf8NonAscii = false;
  gbkLines = 0;
  firstGbk = 0;
  badLines = 0;
  firstBad = 0;
  binaryLines = 0;
  /**
   * The file's first lines, held until PREFIX_BYTES of them (or the end) have been noted and then
   * judged together: a binary file's first lines come before any evidence that it is binary. The
   * prefix ends at a line end counted in bytes, so it is the same however the input was chunked.
   */
  private held: Array<HeldLine | { long: number }> | null = [];
  private heldBytes = 0;
  /**
   * The file offset of the chunk being split (LineSink.line's byteAt), or NaN when lines are not
   * where their bytes are in a file (a stream, gzip, or bytes TextStage changed: `exact` says).
   */
  private chunkAt = NaN;
  private nextChunkAt: number;
  /** Where the carried partial line starts in the file (NaN: not known). */
  private carryAt = NaN;

  constructor(
    private readonly sink: LineSink,
    private readonly max: number,
    /** The file offset of the first byte pushed (a plain file's); null: none (stdin, gzip). */
    fileAt: number | null = null,
    /** Whether the bytes pushed so far are the file's, unchanged. */
    private readonly exact: () => boolean = () => false,
  ) {
    this.nextChunkAt = fileAt ?? NaN;
  }

  private hold(entry: HeldLine | { long: number }, bytes: number): void {
    this.held!.push(entry);
    this.heldBytes += bytes;
    if (this.heldBytes >= PREFIX_BYTES) this.release();
  }

  /** Judge the held prefix (its lines are all in the region's figures by now) and stop holding. */
  private release(): void {
    const held = this.held;
    if (held === null) return;
    this.held = null;
    for (const h of held) {
      if ('long' in h) this.sink.unreadable(++this.lineNo, this.longMessage(h.long));
      else this.judge(h.line, 0, h.line.length, h.terminated, h.byteAt);
    }
  }

  /** A line longer than maxLineBytes, `n` bytes. */
  private long(n: number): void {
    this.note(n + 1, false);
    if (this.held !== null) this.hold({ long: n }, n + 1);
    else this.sink.unreadable(++this.lineNo, this.longMessage(n));
  }

  /** More than 30% of the bytes judged lately lie in binary lines: undecodable lines here are binary too. */
  private get binaryRegion(): boolean {
    return this.recentBad * 10 > this.recentAll * 3;
  }

  private note(bytes: number, bad: boolean): void {
    this.recentAll += bytes;
    if (bad) this.recentBad += bytes;
    if (this.recentAll > REGION_BYTES) {
      this.recentAll /= 2;
      this.recentBad /= 2;
    }
  }

  /** Complete lines so far, the held prefix's included (they are numbered when it is judged). */
  get linesSeen(): number {
    return this.lineNo + (this.held?.length ?? 0);
  }

  /** Line number of the next line (the carried partial line, if any). */
  get nextLine(): number {
    return this.linesSeen + 1;
  }

  push(chunk: Buffer): void {
    const len = chunk.length;
    if (len === 0) return;
    this.chunkAt = this.exact() ? this.nextChunkAt : NaN;
    this.nextChunkAt += len;
    let pos = 0;
    if (this.skipping) {
      const nl = chunk.indexOf(10);
      if (nl < 0) {
        this.skipLen += len;
        return;
      }
      this.skipLen += nl;
      this.finishLong();
      pos = nl + 1;
    } else if (this.carryLen > 0) {
      const nl = chunk.indexOf(10);
      if (nl < 0) {
        this.appendCarry(chunk, 0, len);
        return;
      }
      const total = this.carryLen + nl;
      if (total > this.max) {
        this.carry = [];
        this.carryLen = 0;
        this.long(total);
      } else {
        this.carry.push(chunk.subarray(0, nl));
        const line = Buffer.concat(this.carry, total);
        this.carry = [];
        this.carryLen = 0;
        // Its place only when the read that ends it was the file's bytes too (exact() only turns false).
        this.emitBytes(line, 0, total, true, this.chunkAt === this.chunkAt ? this.carryAt : NaN);
      }
      pos = nl + 1;
    }
    if (pos >= len) return;
    const last = chunk.lastIndexOf(10);
    if (last < pos) {
      this.appendCarry(chunk, pos, len);
      return;
    }
    this.block(chunk, pos, last);
    if (last + 1 < len) this.appendCarry(chunk, last + 1, len);
  }

  /** End of input: flush a last line without '\n', and judge a prefix still held. */
  end(): void {
    if (this.skipping) {
      this.finishLong();
    } else if (this.carryLen > 0) {
      const line = Buffer.concat(this.carry, this.carryLen);
      this.carry = [];
      this.carryLen = 0;
      this.emitBytes(line, 0, line.length, false);
    }
    this.release();
  }

  private longMessage(n: number): string {
    return `line longer than ${formatBytes(this.max)} (${n} bytes)`;
  }

  private finishLong(): void {
    this.long(this.skipLen);
    this.skipping = false;
    this.skipLen = 0;
  }

  private appendCarry(chunk: Buffer, s: number, e: number): void {
    const n = e - s;
    if (this.carryLen === 0) this.carryAt = this.chunkAt + s;
    if (this.carryLen + n > this.max) {
      this.skipping = true;
      this.skipLen = this.carryLen + n;
      this.carry = [];
      this.carryLen = 0;
      return;
    }
    this.carry.push(Buffer.from(chunk.subarray(s, e))); // a copy: do not pin the whole chunk
    this.carryLen += n;
  }

  /**
   * Complete lines in buf[s, e), separated by '\n' (e is the position of the block's last '\n').
   * Decoded in pieces of about 64 KiB: the strings of a piece die young (cheap to collect) instead
   * of living long enough to reach the old generation, which would let memory grow with the input.
   */
  private block(buf: Buffer, s: number, e: number): void {
    while (e - s > DECODE_PIECE) {
      const cut = buf.indexOf(10, s + DECODE_PIECE);
      if (cut < 0 || cut >= e) break;
      this.piece(buf, s, cut);
      s = cut + 1;
    }
    this.piece(buf, s, e);
  }

  private piece(buf: Buffer, s: number, e: number): void {
    const sub = buf.subarray(s, e);
    const ascii = isAscii(sub);
    // ASCII: the lines' keywords are looked for in the bytes, all at once, by a scan that tells a
    // control byte too (null); starts[k] is the next one not yet passed, starts[k + 1] its length
    // (a line's bytes start at `at`).
    const told = ascii && this.held === null && this.sink.keywordStarts !== undefined;
    const starts = told ? this.sink.keywordStarts!(buf, s, e) : null;
    if (this.held === null && (told ? starts !== null : (ascii || isUtf8(sub)) && !hasControlByte(sub))) {
      // Noted line by line, in order, as every other path notes its lines: the region's figures
      // (and so every verdict) must not depend on where the chunks of the input were cut. ASCII
      // lines are as long in bytes as in characters: noted below, as they are handed out.
      // Where each line starts (a non-ASCII block's): the lines' places (LineSink.line's byteAt).
      let starts8: number[] | null = null;
      if (!ascii) {
        starts8 = [];
        for (let a = s; a <= e; ) {
          let nl = buf.indexOf(10, a);
          if (nl < 0 || nl > e) nl = e;
          this.note(nl - a + 1, false);
          starts8.push(a);
          a = nl + 1;
        }
        starts8.push(e + 1);
      }
      let str: string;
      if (ascii) {
        str = sub.toString('latin1');
      } else {
        str = decodeUtf8Block(sub);
        this.utf8NonAscii = true;
      }
      const parts = str.split('\n');
      const checkLen = sub.length > this.max;
      const sink = this.sink;
      let n = this.lineNo;
      const nStarts = starts === null ? 0 : starts.length;
      let k = 0;
      let next = nStarts > 0 ? starts![0] : -1;
      let at = s;
      // Where the block's lines lie in the file (an ASCII block's: a character per byte).
      const fileAt = ascii ? this.chunkAt : NaN;
      for (let i = 0; i < parts.length; i++) {
        let t = parts[i];
        let keyword: boolean | undefined;
        let keywordAt: number | undefined;
        // NaN where the place is not known.
        let byteAt = starts8 === null ? fileAt + at : this.chunkAt + starts8[i];
        if (told) {
          const end = at + t.length;
          keyword = next >= 0 && next < end;
          if (keyword) {
            // Told where the first keyword starts when the line's others lie inside it (a shorter
            // keyword within a longer one tells no entry the longer one does not).
            const outerEnd = next + starts![k + 1];
            let inside = true;
            for (k += 2; k < nStarts && starts![k] < end; k += 2) if (starts![k] + starts![k + 1] > outerEnd) inside = false;
            if (inside) keywordAt = next - at;
            next = k < nStarts ? starts![k] : -1;
          }
        }
        at += t.length + 1;
        if (ascii) this.note(t.length + 1, false);
        if (checkLen && t.length * 3 > this.max) {
          const bytes = Buffer.byteLength(t, 'utf8');
          if (bytes > this.max) {
            sink.unreadable(++n, this.longMessage(bytes));
            continue;
          }
        }
        const tl = t.length;
        if (tl > 0 && t.charCodeAt(tl - 1) === 13) {
          t = t.slice(0, tl - 1);
          this.crlf = true;
        }
        if (n === 0 && t.charCodeAt(0) === 0xfeff) {
          t = t.slice(1);
          byteAt = NaN;
        }
        sink.line(t, ++n, keyword, keywordAt, byteAt === byteAt ? byteAt : undefined);
      }
      this.lineNo = n;
      return;
    }
    // Each line is judged with the lines before it and itself, never with lines after it: a look
    // at the rest of the piece would make a verdict depend on where the input's chunks were cut.
    let a = s;
    for (;;) {
      const nl = buf.indexOf(10, a);
      if (nl < 0 || nl >= e) {
        this.emitBytes(buf, a, e, true, this.chunkAt + a);
        return;
      }
      this.emitBytes(buf, a, nl, true, this.chunkAt + a);
      a = nl + 1;
    }
  }

  /** One line, buf[a, b) without its '\n'; `terminated` = a '\n' followed it. */
  private emitBytes(buf: Buffer, a: number, b: number, terminated: boolean, byteAt = NaN): void {
    if (b - a > this.max) return this.long(b - a);
    this.note(b - a + 1, isBinaryLine(buf, a, b));
    if (this.held !== null) return this.hold({ line: Buffer.from(buf.subarray(a, b)), terminated, byteAt }, b - a + 1);
    this.judge(buf, a, b, terminated, byteAt);
  }

  /**
   * Its verdict: binary, or its text in the encoding it decodes in. `byteAt`: where buf[a] is in the
   * file (NaN: not known), told to the sink for a UTF-8 line with its line end.
   */
  private judge(buf: Buffer, a: number, b: number, terminated: boolean, byteAt = NaN): void {
    let end = b;
    if (end > a && buf[end - 1] === 13) {
      end--;
      if (terminated) this.crlf = true;
    }
    if (isBinaryLine(buf, a, end)) {
      this.binary();
      return;
    }
    const sub = buf.subarray(a, end);
    const lineNo = this.lineNo + 1;
    let text: string;
    // Its place when its text is its bytes as UTF-8 and a line end follows it (LineSink.line).
    let place = NaN;
    if (isUtf8(sub)) {
      text = sub.toString('utf8');
      if (text.length !== sub.length) this.utf8NonAscii = true;
      if (lineNo === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      else if (terminated) place = byteAt;
    } else if (this.binaryRegion) {
      // Not UTF-8 amid binary lines: compressed or binary data, even when it happens to be valid GBK.
      this.binary();
      return;
    } else {
      const g = decodeGbk(sub);
      if (g !== null) {
        text = g;
        if (this.gbkLines++ === 0) this.firstGbk = lineNo;
      } else {
        text = sub.toString('utf8');
        if (this.badLines++ === 0) this.firstBad = lineNo;
      }
    }
    this.lineNo = lineNo;
    if (place === place) this.sink.line(text, lineNo, undefined, undefined, place);
    else this.sink.line(text, lineNo);
  }

  private binary(): void {
    this.binaryLines++;
    this.sink.unreadable(++this.lineNo, 'binary data');
  }
}

function toBuffer(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return Buffer.from(String(chunk), 'utf8');
}

function isZlibError(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && code.startsWith('Z_');
}

function oneLine(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return msg.split('\n')[0];
}

interface InternalReadOptions extends ReadOptions {
  /** The chunks share one buffer (fileChunks): valid only until the next chunk is asked for. */
  recycledChunks?: boolean;
  /** The same bytes again from the start (a file): lets broken gzip be recovered exactly. */
  reopen?: () => AsyncIterable<Buffer>;
  /** The file offset of the first byte read, for a plain file (LineSink.line's byteAt); absent: gzip, stdin. */
  fileAt?: number;
}

/**
 * Inflate with src/ingest/gunzip.ts, handing out the inflated bytes after the first `skip` (those
 * a first pass already handed out). Returns what stopped it early, or null.
 */
async function inflateExact(
  src: AsyncIterable<Buffer>,
  skip: number,
  deliver: (b: Buffer) => void,
  signal: AbortSignal | undefined,
): Promise<GzipStop | null> {
  let seen = 0;
  const gz = new ExactGunzip((b) => {
    const at = seen;
    seen += b.length;
    if (seen <= skip) return;
    deliver(at < skip ? b.subarray(skip - at) : b);
  });
  for await (const b of src) {
    if (signal?.aborted || !gz.push(b)) break;
  }
  gz.end();
  return gz.stop;
}

/** Read a stream (stdin, tests) as lines. Never rejects except on abort. */
export async function readStream(
  stream: NodeJS.ReadableStream,
  display: string,
  sink: LineSink,
  opts: ReadOptions = {},
): Promise<ReadResult> {
  const max = Math.max(1, Math.floor(opts.maxLineBytes ?? MiB));
  const signal = opts.signal;
  const onProgress = opts.onProgress;
  const result: ReadResult = { lines: 0, bytes: 0, decompressedBytes: 0, encoding: 'utf-8', issues: [], crlf: false, cr: false };
  const fileAt = (opts as InternalReadOptions).fileAt ?? null;
  // A file's lines are where their bytes are while no gzip is inflated and TextStage changes no length.
  let inflated = false;
  const splitter: LineSplitter = new LineSplitter(sink, max, fileAt, (): boolean => !inflated && stage.encoding === null && stage.nulBytes === 0);
  if (opts.range) splitter.lineNo = opts.range.firstLine - 1;
  const stage: TextStage = new TextStage(
    (c) => splitter.push(c),
    () => splitter.nextLine,
  );
  signal?.throwIfAborted();

  const it = stream[Symbol.asyncIterator]() as AsyncIterator<unknown>;
  const head: Buffer[] = [];
  let headLen = 0;
  let rawDone = false;
  let gunzip: zlib.Gunzip | null = null;

  const stop = async (): Promise<void> => {
    gunzip?.destroy();
    try {
      await it.return?.();
    } catch {
      // already failed
    }
  };

  // 1. Peek at the first two bytes for the gzip magic.
  try {
    while (headLen < 2) {
      const r = await it.next();
      if (r.done) {
        rawDone = true;
        break;
      }
      const b = toBuffer(r.value);
      result.bytes += b.length;
      onProgress?.(result.bytes);
      head.push(b);
      headLen += b.length;
    }
  } catch (err) {
    result.issues.push({ file: display, line: null, message: fsErrorMessage(err, display) });
    await stop();
    return result;
  }
  const first = head.length > 0 ? Buffer.concat(head, Math.min(headLen, 2)) : Buffer.alloc(0);
  const isGz = first.length === 2 && first[0] === 0x1f && first[1] === 0x8b;
  inflated = isGz;
  const internal = opts as InternalReadOptions;
  const native = isGz && internal.reopen !== undefined;

  // zlib may still read a chunk after the next one arrives: recycled buffers must be copied for it.
  const copyForGunzip = native && internal.recycledChunks === true;
  async function* raw(): AsyncGenerator<Buffer> {
    for (const b of head) yield copyForGunzip ? Buffer.from(b) : b;
    head.length = 0;
    if (rawDone) return;
    for (;;) {
      const r = await it.next();
      if (r.done) return;
      const b = toBuffer(r.value);
      result.bytes += b.length;
      onProgress?.(result.bytes);
      yield copyForGunzip ? Buffer.from(b) : b;
    }
  }

  const deliver = (chunk: Buffer): void => {
    result.decompressedBytes += chunk.length;
    stage.push(chunk);
  };
  let failure: unknown = null;
  let gzStop: GzipStop | null = null;
  try {
    if (!isGz) {
      for await (const c of raw()) {
        if (signal?.aborted) break;
        deliver(c);
      }
    } else if (!native) {
      gzStop = await inflateExact(raw(), 0, deliver, signal);
    } else {
      gunzip = zlib.createGunzip({ chunkSize: GUNZIP_CHUNK });
      pipeline(Readable.from(raw(), { objectMode: false }), gunzip, () => {
        // errors surface through the gunzip iteration below
      });
      try {
        for await (const c of gunzip) {
          if (signal?.aborted) break;
          deliver(toBuffer(c));
        }
      } catch (err) {
        if (!isZlibError(err)) throw err;
        // Node's zlib drops the output of the failing call and does not say where it failed:
        // inflate the file again exactly, skipping what was already split into lines.
        gunzip.destroy();
        gzStop = await inflateExact(internal.reopen!(), result.decompressedBytes, deliver, signal);
      }
    }
  } catch (err) {
    failure = err;
  }
  if (signal?.aborted) {
    await stop();
    throw signal.reason;
  }
  const lastGood = splitter.linesSeen;
  stage.end();
  splitter.end();

  if (gzStop) {
    if (gzStop.kind === 'trailing') {
      result.issues.push({
        file: display,
        line: null,
        message: `trailing data after the gzip data at byte ${gzStop.offset}, ignored (as gzip does)`,
      });
    } else {
      result.issues.push({
        file: display,
        line: lastGood,
        message: `broken gzip data at byte ${gzStop.offset}, after line ${lastGood} (the last good line): ${gzStop.message}`,
      });
    }
    await stop();
  }
  if (failure !== null) {
    if (result.bytes === 0) {
      result.issues.push({ file: display, line: null, message: fsErrorMessage(failure, display) });
    } else {
      result.issues.push({
        file: display,
        line: splitter.lineNo,
        message: `read error after line ${splitter.lineNo}: ${oneLine(failure)}`,
      });
    }
    await stop();
  }

  result.lines = splitter.lineNo;
  result.crlf = splitter.crlf;
  result.cr = stage.loneCr;
  const utf16 = stage.encoding;
  if (utf16) result.encoding = utf16;
  else if (splitter.binaryLines > 0 && splitter.binaryLines === splitter.lineNo) result.encoding = 'binary';
  else if (splitter.gbkLines > 0) {
    result.encoding = splitter.utf8NonAscii || splitter.badLines > 0 ? 'mixed' : 'gbk';
  }
  if (stage.nulRuns > 0) {
    const where = stage.nulFirstLine === stage.nulLastLine ? `line ${stage.nulFirstLine}` : `lines ${stage.nulFirstLine}-${stage.nulLastLine}`;
    result.issues.push({
      file: display,
      line: stage.nulFirstLine,
      message: `${plural(stage.nulBytes, 'NUL byte')} skipped in ${plural(stage.nulRuns, 'block')} (${where}; a pre-allocated or crashed file): the text around them is read`,
    });
  }
  if (splitter.badLines > 0) {
    result.issues.push({
      file: display,
      line: splitter.firstBad,
      message: `${plural(splitter.badLines, 'line')} not valid UTF-8 or GBK (first at line ${splitter.firstBad}), shown with replacement characters`,
    });
  }
  if (result.encoding === 'mixed' && splitter.gbkLines > 0) {
    result.issues.push({
      file: display,
      line: splitter.firstGbk,
      message: `mixed encodings: ${plural(splitter.gbkLines, 'line')} decoded as GBK (first at line ${splitter.firstGbk}), the rest as UTF-8`,
    });
  }
  return result;
}

/** Read one resolved source ('-' = stdin). Never rejects except on abort. */
export async function readSource(src: SourceSpec, sink: LineSink, opts: ReadOptions = {}): Promise<ReadResult> {
  if (src.path === '-') return readStream(process.stdin, src.display, sink, opts);
  const reopen = () => fileChunks(src.path);
  if (opts.range) {
    const { start, end } = opts.range;
    return readStream(fileChunks(src.path, start, end) as unknown as NodeJS.ReadableStream, src.display, sink, { ...opts, recycledChunks: true, fileAt: start } as InternalReadOptions);
  }
  if (!src.gz) {
    const chunks = fileChunks(src.path) as unknown as NodeJS.ReadableStream;
    const internal: InternalReadOptions = { ...opts, recycledChunks: true, reopen, fileAt: 0 };
    return readStream(chunks, src.display, sink, internal);
  }
  const stream = fs.createReadStream(src.path, { highWaterMark: READ_CHUNK });
  const internal: InternalReadOptions = { ...opts, reopen };
  return readStream(stream, src.display, sink, internal);
}

/**
 * A plain file in 1 MiB reads into one recycled buffer. A stream allocates a new buffer per read,
 * and V8 collects those only after tens of MiB of them pile up (per worker thread). Safe because
 * every chunk is consumed (decoded or copied) before the next read. Gzip goes through the stream
 * path instead (its exact recovery pass reads here: it consumes each chunk before the next).
 */
async function* fileChunks(path: string, start = 0, end = Infinity): AsyncGenerator<Buffer> {
  // Synchronous reads: the parse waits for the data either way, and a read that returns at once
  // saves a trip through the thread pool per MiB (the page cache usually has the file).
  const fd = await new Promise<number>((resolve, reject) => fs.open(path, 'r', (err, fdOpen) => (err ? reject(err) : resolve(fdOpen))));
  try {
    const shared = Buffer.allocUnsafe(READ_CHUNK);
    for (let at = start; at < end; ) {
      const bytesRead = fs.readSync(fd, shared, 0, Math.min(READ_CHUNK, end - at), at);
      if (bytesRead === 0) return;
      at += bytesRead;
      yield shared.subarray(0, bytesRead);
    }
  } finally {
    fs.closeSync(fd);
  }
}
