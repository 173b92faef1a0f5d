// Lines read again from their files by byte offset (the places the reader tells: LineSink.line's
// byteAt): the TUI's store keeps most records of a log as such places instead of their text. Each
// file is opened once, when its first line is asked for, and kept open, so that a log rotated away
// (renamed) afterwards is still the file that was read; a line that is no longer there (the file
// was truncated or rewritten) is told apart by what a line read at the place must be.

import { isUtf8 } from 'node:buffer';
import { closeSync, fstatSync, openSync } from 'node:fs';
import { BlockFile } from './block-file.js';

/** Bytes a file's block holds: a list or a search moves through each source a few lines at a time. */
const LINE_BLOCK = 64 << 10;
/** Files whose blocks are kept at a time (the rest are read again when asked). */
const BLOCKS_KEPT = 32;

interface OpenFile {
  fd: number;
  size: number;
  block: BlockFile | null;
}

export class LineFiles {
  private readonly files = new Map<number, OpenFile | null>();
  /** Files with a block, least recently used first. */
  private readonly blocks = new Map<number, OpenFile>();
  private closed = false;

  /** `pathOf(n)`: where file n is. */
  constructor(private readonly pathOf: (n: number) => string) {}

  /** Opens file n now (when it is read, so that a later rename does not matter); false when it cannot be. */
  open(n: number): boolean {
    return this.file(n) !== null;
  }

  /**
   * The line of file n at `byteAt`, `length` bytes (UTF-8, as the reader read it), or null when the
   * file cannot be read or holds no such line there any more: bytes that are no UTF-8, a line end
   * inside, or no line end after it.
   */
  text(n: number, byteAt: number, length: number): string | null {
    const f = this.file(n);
    if (f === null || byteAt + length >= f.size) return null;
    let block = f.block;
    if (block === null) {
      if (this.blocks.size >= BLOCKS_KEPT) {
        const [oldest, of] = this.blocks.entries().next().value as [number, OpenFile];
        this.blocks.delete(oldest);
        of.block = null;
      }
      block = f.block = new BlockFile(f.fd, f.size, LINE_BLOCK);
    } else this.blocks.delete(n);
    this.blocks.set(n, f);
    // The line and the byte after it, which ends it ('\n', or the '\r' of CRLF).
    const { buf, start, got } = block.bytes(byteAt, length + 1);
    if (got < length + 1) return null;
    const end = buf[start + length];
    if (end !== 10 && end !== 13) return null;
    const line = buf.subarray(start, start + length);
    if (line.indexOf(10) >= 0 || !isUtf8(line)) return null;
    return line.toString('utf8');
  }

  /** Bytes the blocks keep in memory. */
  get retainedBytes(): number {
    let n = 0;
    for (const f of this.blocks.values()) n += f.block?.retainedBytes ?? 0;
    return n;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const f of this.files.values()) if (f !== null) closeSync(f.fd);
    this.files.clear();
    this.blocks.clear();
  }

  private file(n: number): OpenFile | null {
    let f = this.files.get(n);
    if (f !== undefined) return f;
    f = null;
    if (!this.closed) {
      try {
        const fd = openSync(this.pathOf(n), 'r');
        f = { fd, size: fstatSync(fd).size, block: null };
      } catch {
        // gone or unreadable since the parse: its lines are told as not there
      }
    }
    this.files.set(n, f);
    return f;
  }
}
