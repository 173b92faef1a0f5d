// Lines read again by their places (src/ingest/line-files.ts), through blocks (block-file.ts).
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlockFile } from '../../src/ingest/block-file.js';
import { LineFiles } from '../../src/ingest/line-files.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rmq-line-files-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A file of numbered lines; returns each line's text and offset. */
function numbered(name: string, n: number, end = '\n'): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  let at = 0;
  let text = '';
  for (let i = 0; i < n; i++) {
    const line = `2024-05-20 10:00:00 INFO t - ${name} line ${i} ${'x'.repeat(i % 50)}`;
    out.push([line, at]);
    text += line + end;
    at += line.length + end.length;
  }
  writeFileSync(join(dir, name), text);
  return out;
}

describe('LineFiles', () => {
  it('reads each line again at its place, forwards, backwards and across files, with bounded blocks', () => {
    const names = Array.from({ length: 40 }, (_, i) => `f${i}.log`);
    const lines = names.map((n, i) => numbered(n, 3000, i % 2 ? '\r\n' : '\n'));
    const files = new LineFiles((n) => join(dir, names[n]));
    try {
      // Interleaved as a merge reads them, then one file backwards (a search upwards).
      for (let k = 0; k < 3000; k += 7) for (let f = 0; f < names.length; f++) expect(files.text(f, lines[f][k][1], lines[f][k][0].length)).toBe(lines[f][k][0]);
      for (let k = 2999; k >= 0; k--) expect(files.text(3, lines[3][k][1], lines[3][k][0].length)).toBe(lines[3][k][0]);
      expect(files.retainedBytes).toBeLessThanOrEqual(32 * (64 << 10));
      expect(files.retainedBytes).toBeGreaterThan(0);
    } finally {
      files.close();
    }
  });

  it('tells a place that holds no such line any more, and a file that is gone', () => {
    const lines = numbered('a.log', 100);
    writeFileSync(join(dir, 'b.log'), Buffer.concat([Buffer.from('caf\u00e9 au lait\nno end\n'), Buffer.from([0x41, 0xff, 0x42, 10]), Buffer.from('no end')]));
    const paths = [join(dir, 'a.log'), join(dir, 'b.log'), join(dir, 'missing.log')];
    const files = new LineFiles((n) => paths[n]);
    try {
      const [text, at] = lines[10];
      expect(files.text(0, at, text.length)).toBe(text);
      expect(files.text(0, at + 1, text.length)).toBeNull(); // no line end after it
      expect(files.text(0, at, text.length + 5)).toBeNull(); // a line end inside
      expect(files.text(0, 1e9, 10)).toBeNull(); // past the end
      expect(files.text(1, 0, 13)).toBe('caf\u00e9 au lait'); // UTF-8, 13 bytes
      expect(files.text(1, 0, 12)).toBeNull(); // ends inside it
      expect(files.text(1, 21, 3)).toBeNull(); // no UTF-8
      expect(files.text(1, 25, 6)).toBeNull(); // the last line, no line end at all
      expect(files.open(2)).toBe(false);
      expect(files.text(2, 0, 3)).toBeNull();
    } finally {
      files.close();
    }
  });

  it('keeps reading the file it opened after the name is given to another', () => {
    const lines = numbered('a.log', 100);
    const files = new LineFiles(() => join(dir, 'a.log'));
    try {
      expect(files.open(0)).toBe(true);
      rmSync(join(dir, 'a.log'));
      writeFileSync(join(dir, 'a.log'), 'something else\n'.repeat(1000));
      for (const [text, at] of lines) expect(files.text(0, at, text.length)).toBe(text);
    } finally {
      files.close();
    }
  });
});

describe('BlockFile', () => {
  it('gives any span of the file, however the reads move, and no more than the file holds', () => {
    const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 251));
    writeFileSync(join(dir, 'b.bin'), bytes);
    const fd = openSync(join(dir, 'b.bin'), 'r');
    try {
      const file = new BlockFile(fd, bytes.length, 4096);
      let x = 1;
      for (let k = 0; k < 2000; k++) {
        x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
        const at = x % bytes.length;
        const n = k % 10 === 0 ? 10_000 : (x >>> 8) % 300;
        const got = file.bytes(at, n);
        expect(got.got).toBe(Math.min(n, bytes.length - at));
        expect(got.buf.subarray(got.start, got.start + got.got).equals(bytes.subarray(at, at + got.got))).toBe(true);
      }
      // A block grown for a long span is back to its size after the next read elsewhere.
      file.bytes(0, 50_000);
      expect(file.retainedBytes).toBe(50_000);
      file.bytes(200_000, 10);
      expect(file.retainedBytes).toBe(4096);
    } finally {
      closeSync(fd);
    }
  });
});
