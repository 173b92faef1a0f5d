// Gzip inflation that keeps every byte inflated before damage and knows where the damage is.
//
// Node's zlib streams drop the output of the inflate call that fails (and a stream iterator drops
// what was buffered), and they do not say at which compressed byte the failure was found. This
// drives zlib's own algorithm (pako, a port of zlib 1.3) by hand: the output written before an
// error is delivered, and the offset is the count of compressed bytes consumed. Members follow one
// another (multi-member files, as `cat a.gz b.gz` makes); zero bytes after a member are padding
// (as zlib and gzip treat them); anything else after a member is trailing garbage, ignored like
// gzip does ("decompression OK, trailing garbage ignored"). It is about 2.5x slower than Node's
// native zlib, so files take the native path and come here only to recover after damage.

import { ZStream, zlibInflate, zlibInflateEnd, zlibInflateInit2, zlibInflateReset } from 'pako';

/** What stopped the inflation early. `offset`: compressed bytes read before it was found. */
export interface GzipStop {
  kind: 'damaged' | 'truncated' | 'trailing';
  offset: number;
  message: string;
}

const OUT_CHUNK = 256 * 1024;
const Z_NO_FLUSH = 0;
const Z_OK = 0;
const Z_STREAM_END = 1;
const Z_BUF_ERROR = -5;
/** windowBits 15 + 16: gzip wrapper only (the magic bytes were checked by the caller). */
const GZIP_WINDOW = 31;

export class ExactGunzip {
  private readonly strm = new ZStream();
  private readonly out = new Uint8Array(OUT_CHUNK);
  /** Compressed bytes consumed before the current input chunk. */
  private consumed = 0;
  /** Between two members: looking for the next magic. */
  private between = false;
  /** Inside a member, some of its bytes have been read. */
  private started = false;
  stop: GzipStop | null = null;
  /** Inflated bytes delivered. */
  outBytes = 0;

  /** `onData` gets a view that is valid only until it returns (the buffer is reused). */
  constructor(private readonly onData: (bytes: Buffer) => void) {
    zlibInflateInit2(this.strm, GZIP_WINDOW);
  }

  get done(): boolean {
    return this.stop !== null;
  }

  /** Inflate one chunk of compressed bytes. Returns false once inflation has stopped. */
  push(input: Uint8Array): boolean {
    if (this.stop) return false;
    let pos = 0;
    while (pos < input.length && !this.stop) {
      if (this.between) {
        while (pos < input.length && input[pos] === 0) pos++;
        if (pos >= input.length) break;
        if (input[pos] !== 0x1f || (pos + 1 < input.length && input[pos + 1] !== 0x8b)) {
          this.finish('trailing', this.consumed + pos, 'trailing data after the gzip data');
          break;
        }
        zlibInflateReset(this.strm);
        this.between = false;
      }
      pos = this.inflate(input, pos);
    }
    this.consumed += input.length;
    return !this.stop;
  }

  /** End of the compressed input: a member cut short is reported as truncated. */
  end(): void {
    if (this.stop) return;
    if (this.started && !this.between) this.finish('truncated', this.consumed, 'unexpected end of file');
    else zlibInflateEnd(this.strm);
  }

  /** Inflate input[pos..] until it is used up, the member ends or an error; returns the new position. */
  private inflate(input: Uint8Array, pos: number): number {
    const s = this.strm;
    s.input = input;
    s.next_in = pos;
    s.avail_in = input.length - pos;
    this.started = true;
    for (;;) {
      s.output = this.out as Uint8Array<ArrayBuffer>;
      s.next_out = 0;
      s.avail_out = OUT_CHUNK;
      const status = zlibInflate(s, Z_NO_FLUSH);
      if (s.next_out > 0) this.deliver(s.next_out);
      if (status === Z_STREAM_END) {
        this.between = true;
        this.started = false;
        return s.next_in;
      }
      if (status !== Z_OK && status !== Z_BUF_ERROR) {
        this.finish('damaged', this.consumed + s.next_in, s.msg || `zlib error ${status}`);
        return input.length;
      }
      if (s.avail_in === 0 && s.avail_out > 0) return input.length;
    }
  }

  private deliver(n: number): void {
    this.outBytes += n;
    const view = this.out.subarray(0, n);
    this.onData(Buffer.from(view.buffer, view.byteOffset, n));
  }

  private finish(kind: GzipStop['kind'], offset: number, message: string): void {
    this.stop = { kind, offset, message };
    zlibInflateEnd(this.strm);
  }
}
