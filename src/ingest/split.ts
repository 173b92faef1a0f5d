// Where a large plain file can be cut so that its parts are parsed on different cores: at line
// starts that look like a record's header. The parse checks that each cut really fell on one
// (src/timeline/split.ts) and reads the file whole when it did not, so a guess here costs time only.

import fs from 'node:fs';

/** Bytes read from the file's start for a later part's layout detection (the parser holds at most 1 MiB of text). */
export const HEAD_BYTES = 4 << 20;
/** How far past the even cut a header is looked for. */
const SEEK_BYTES = 1 << 20;

export interface FileCuts {
  /** Byte offsets where parts 2..n start (each a line start), increasing. */
  cuts: number[];
  /** End of the first lines a later part detects the layout from (a line start or the file's end, at most HEAD_BYTES in). */
  headEnd: number;
}

/** Cuts for `parts` parts of a file of `size` bytes, or null when none is found (one long line). */
export function findCuts(path: string, size: number, parts: number): FileCuts | null {
  const fd = fs.openSync(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(SEEK_BYTES);
    const headLen = fs.readSync(fd, buf, 0, Math.min(SEEK_BYTES, size), 0);
    // gzip or UTF-16 by their first bytes: read whole.
    if (headLen >= 2 && ((buf[0] === 0x1f && buf[1] === 0x8b) || (buf[0] === 0xff && buf[1] === 0xfe) || (buf[0] === 0xfe && buf[1] === 0xff))) return null;
    if (headLen === 0) return null;
    // A header usually starts as the file's first line does (the year's digit, a bracket), after a
    // UTF-8 byte-order mark if the file has one (no later line starts with it).
    const bom = headLen >= 4 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf;
    const lead = buf[bom ? 3 : 0];
    const headEnd = size <= HEAD_BYTES ? size : lineStartBefore(fd, HEAD_BYTES);
    const cuts: number[] = [];
    for (let k = 1; k < parts; k++) {
      const from = Math.floor((size * k) / parts);
      const n = fs.readSync(fd, buf, 0, SEEK_BYTES, from);
      let at = -1;
      for (let i = buf.indexOf(10); i !== -1 && i + 1 < n; i = buf.indexOf(10, i + 1)) {
        if (at < 0) at = i + 1; // any line start, if no line starts like the first
        if (buf[i + 1] === lead) {
          at = i + 1;
          break;
        }
      }
      if (at < 0) return null;
      const cut = from + at;
      if ((cuts.length && cut <= cuts[cuts.length - 1]) || cut >= size) return null;
      cuts.push(cut);
    }
    return headEnd > 0 ? { cuts, headEnd } : null;
  } finally {
    fs.closeSync(fd);
  }
}

/** The start of the line that holds byte `end - 1`, or `end` itself at the end of the file's data. */
function lineStartBefore(fd: number, end: number): number {
  const buf = Buffer.allocUnsafe(Math.min(end, SEEK_BYTES));
  const n = fs.readSync(fd, buf, 0, buf.length, end - buf.length);
  const nl = buf.lastIndexOf(10, n - 1);
  return nl < 0 ? 0 : end - buf.length + nl + 1;
}

/** Line feeds in the file's bytes [0, end): the line number before a cut, as the reader counts them. */
export function countNewlines(path: string, end: number): number {
  const fd = fs.openSync(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    let lines = 0;
    for (let at = 0; at < end; ) {
      const n = fs.readSync(fd, buf, 0, Math.min(buf.length, end - at), at);
      if (n === 0) break;
      at += n;
      for (let i = buf.indexOf(10); i !== -1 && i < n; i = buf.indexOf(10, i + 1)) lines++;
    }
    return lines;
  } finally {
    fs.closeSync(fd);
  }
}
