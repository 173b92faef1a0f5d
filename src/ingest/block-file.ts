// Random reads of a file through one block: a run of reads near each other, forwards or backwards
// (a list scrolled, a search upwards), costs one read of the file per block.

import { readSync } from 'node:fs';

/** Bytes a block holds (a longer span gets a block of its own size). */
export const READ_BLOCK = 1 << 20;

export class BlockFile {
  private block = Buffer.alloc(0);
  private blockStart = 0;
  private blockEnd = 0;

  constructor(
    private readonly fd: number,
    /** The file's size: reads go no further. */
    private readonly size: number,
    private readonly blockBytes = READ_BLOCK,
  ) {}

  /**
   * The bytes [at, at + n) of the file, as `buf[start, start + n)` of a block valid until the next
   * call; fewer than n when the file ends before (`got` says how many).
   */
  bytes(at: number, n: number): { buf: Buffer; start: number; got: number } {
    const b = at + n;
    if (at < this.blockStart || b > this.blockEnd) {
      // Reading backwards wants the block to end here, forwards to start here.
      const backwards = at < this.blockStart && this.blockStart - at <= this.blockBytes;
      const start = backwards ? Math.max(0, b - this.blockBytes) : at;
      this.load(Math.min(start, at), Math.max(b, Math.min(this.size, start + this.blockBytes)));
    }
    return { buf: this.block, start: at - this.blockStart, got: Math.max(0, Math.min(n, this.blockEnd - at)) };
  }

  /** Bytes the block keeps in memory. */
  get retainedBytes(): number {
    return this.block.length;
  }

  private load(start: number, end: number): void {
    // Grown for one long span (a line of up to 1 MiB): back to the usual size once it is read.
    const size = Math.max(this.blockBytes, end - start);
    if (this.block.length < size || (this.block.length > this.blockBytes && size === this.blockBytes)) this.block = Buffer.allocUnsafe(size);
    let got = 0;
    while (got < end - start) {
      const r = readSync(this.fd, this.block, got, end - start - got, start + got);
      if (r === 0) break;
      got += r;
    }
    this.blockStart = start;
    this.blockEnd = start + got;
  }
}
