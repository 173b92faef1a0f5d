import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readStream, type LineSink, type ReadOptions, type ReadResult } from '../../src/ingest/reader.js';
import { expectedLines } from './lines.js';

type Ev = [kind: 'l' | 'u', lineNo: number, text: string];

async function run(bytes: Uint8Array, sizes: number[], opts?: ReadOptions): Promise<{ res: ReadResult; events: Ev[] }> {
  const buf = Buffer.from(bytes);
  const chunks: Buffer[] = [];
  let pos = 0;
  let i = 0;
  while (pos < buf.length) {
    const n = sizes.length > 0 ? sizes[i++ % sizes.length] : buf.length;
    chunks.push(buf.subarray(pos, pos + n));
    pos += n;
  }
  const events: Ev[] = [];
  const sink: LineSink = {
    line: (text, n) => events.push(['l', n, text]),
    unreadable: (n, reason) => events.push(['u', n, reason]),
  };
  const res = await readStream(Readable.from(chunks), 'prop', sink, opts);
  return { res, events };
}

/** Bytes biased towards text, with \r, \n, NUL, controls, invalid UTF-8 and multi-byte UTF-8. */
const textyByte = fc.oneof(
  { weight: 30, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((b) => [b]) },
  { weight: 6, arbitrary: fc.constant([0x0a]) },
  { weight: 2, arbitrary: fc.constant([0x0d]) },
  { weight: 2, arbitrary: fc.constant([0x0d, 0x0a]) },
  { weight: 1, arbitrary: fc.constant([0x00]) },
  { weight: 1, arbitrary: fc.integer({ min: 0x01, max: 0x1f }).map((b) => [b]) },
  { weight: 2, arbitrary: fc.integer({ min: 0x80, max: 0xff }).map((b) => [b]) },
  { weight: 1, arbitrary: fc.constant([0xd6, 0xd0, 0xce, 0xc4]) }, // 中文 in GBK
  { weight: 1, arbitrary: fc.constant([0xef, 0xbb, 0xbf]) }, // BOM
  {
    weight: 3,
    arbitrary: fc
      .constantFrom('é', '中', '文', '😀', '\u2028', '\ufffd')
      .map((ch) => [...Buffer.from(ch, 'utf8')]),
  },
);
const texty = fc.array(textyByte, { maxLength: 400 }).map((parts) => Uint8Array.from(parts.flat()));
const anyBytes = fc.uint8Array({ maxLength: 400 });
const input = fc.oneof({ weight: 3, arbitrary: texty }, { weight: 1, arbitrary: anyBytes });
const sizes = fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 0, maxLength: 8 });
const maxLine = fc.option(fc.integer({ min: 1, max: 80 }), { nil: undefined });

describe('reader properties', () => {
  it('accounts for every line exactly, whatever the bytes and chunking', async () => {
    await fc.assert(
      fc.asyncProperty(input, sizes, maxLine, async (bytes, sz, max) => {
        const { res, events } = await run(bytes, sz, max === undefined ? {} : { maxLineBytes: max });
        expect(res.lines).toBe(events.length);
        expect(events.map((e) => e[1])).toEqual(events.map((_, i) => i + 1));
        expect(res.bytes).toBe(bytes.length);
        // Binary data is counted too (as unreadable lines), never dropped with its file.
        expect(res.lines).toBe(expectedLines(bytes));
        if (res.encoding === 'binary') expect(events.every((e) => e[0] === 'u')).toBe(true);
        for (const e of events) {
          if (e[0] === 'l') expect(e[2]).not.toContain('\n');
        }
      }),
      { numRuns: 400 },
    );
  });

  it('judges a line after a binary one the same whether its chunks were cut before it or not (a case fast-check found)', async () => {
    const bytes = Uint8Array.from([10, 32, 13, 10, 1, 32, 10, 128, 32]);
    const whole = await run(bytes, []);
    expect(whole.events.map((e) => e[0])).toEqual(['l', 'l', 'u', 'l']);
    expect((await run(bytes, [1])).events).toEqual(whole.events);
  });

  it('gives the same events for any chunking as for one chunk, plain or gzip', async () => {
    await fc.assert(
      fc.asyncProperty(input, sizes, maxLine, async (bytes, sz, max) => {
        const opts = max === undefined ? {} : { maxLineBytes: max };
        const whole = await run(bytes, [], opts);
        const parts = await run(bytes, sz, opts);
        expect(parts.events).toEqual(whole.events);
        expect({ ...parts.res, bytes: 0 }).toEqual({ ...whole.res, bytes: 0 });
        if (bytes.length > 0) {
          const gz = await run(gzipSync(bytes), sz, opts);
          expect(gz.events).toEqual(whole.events);
          expect(gz.res.decompressedBytes).toBe(bytes.length);
          expect(gz.res.issues).toEqual(whole.res.issues);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('returns the text exactly for clean UTF-8 (LF or CRLF)', async () => {
    const line = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', '\t', 'é', '中', '😀', '\x1b', '[', '\r'), maxLength: 30 });
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 30 }), fc.boolean(), fc.boolean(), sizes, async (lines, crlf, lastNl, sz) => {
        // a line's own trailing \r would be taken as part of a CRLF, so keep it off the end; and a
        // '\r' on the first line would make it a file with classic Mac line ends
        const clean = lines.map((l, i) => (i === 0 ? l.replace(/\r/g, '') : l.replace(/\r+$/, '')));
        const eol = crlf ? '\r\n' : '\n';
        let text = clean.join(eol);
        if (lastNl && clean.length > 0) text += eol;
        const { res, events } = await run(Buffer.from(text, 'utf8'), sz);
        const expected = text === '' ? [] : clean;
        const got = events.map((e) => e[2]);
        // an empty last line is no line at all
        expect(got).toEqual(!lastNl && expected.length > 0 && expected[expected.length - 1] === '' ? expected.slice(0, -1) : expected);
        expect(res.encoding).toBe('utf-8');
        expect(res.issues).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
