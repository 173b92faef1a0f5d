import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import * as zlib from 'node:zlib';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readSource, readStream, type LineSink, type ReadOptions, type ReadResult } from '../../src/ingest/reader.js';
import type { SourceSpec } from '../../src/ingest/sources.js';
import { expectedLines } from './lines.js';

type Ev = ['line', number, string] | ['unreadable', number, string];

/** Bytes from a linear congruential generator (Numerical Recipes' constants): random-looking, reproducible. */
function seededBytes(seed: number, n: number): Buffer {
  let x = seed >>> 0;
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    b[i] = x >>> 24;
  }
  return b;
}

function collector(): { sink: LineSink; events: Ev[] } {
  const events: Ev[] = [];
  return {
    events,
    sink: {
      line: (text, n) => events.push(['line', n, text]),
      unreadable: (n, reason) => events.push(['unreadable', n, reason]),
    },
  };
}

function chunked(buf: Buffer, sizes: number[] = []): Readable {
  const chunks: Buffer[] = [];
  let pos = 0;
  let i = 0;
  while (pos < buf.length) {
    const n = sizes.length > 0 ? Math.max(1, sizes[i++ % sizes.length]) : buf.length;
    chunks.push(buf.subarray(pos, pos + n));
    pos += n;
  }
  return Readable.from(chunks);
}

async function read(input: Buffer | string, opts?: ReadOptions, sizes?: number[]) {
  const { sink, events } = collector();
  const buf = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  const res = await readStream(chunked(buf, sizes), 'test.log', sink, opts);
  return { res, events, texts: events.filter((e) => e[0] === 'line').map((e) => e[2]) };
}

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rmq-reader-'));
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

function spec(p: string, display = path.basename(p)): SourceSpec {
  return { path: p, display, host: 'h', kindHint: null, kindForced: false, gz: false, group: 'h/x', rotation: 0 };
}

describe('line accounting', () => {
  it.each([
    ['', []],
    ['a', ['a']],
    ['a\n', ['a']],
    ['a\nb', ['a', 'b']],
    ['a\nb\n', ['a', 'b']],
    ['\n', ['']],
    ['\n\n', ['', '']],
    ['a\n\nb\n', ['a', '', 'b']],
  ])('%j -> %j', async (input, expected) => {
    const { res, texts, events } = await read(input);
    expect(texts).toEqual(expected);
    expect(res.lines).toBe(expected.length);
    expect(events.map((e) => e[1])).toEqual(expected.map((_, i) => i + 1));
    expect(res.bytes).toBe(Buffer.byteLength(input));
    expect(res.decompressedBytes).toBe(Buffer.byteLength(input));
  });

  it('is the same whatever the chunk boundaries (incl. split UTF-8 characters)', async () => {
    const text = 'héllo wörld 中文\r\nsecond 😀 line\nthird';
    const whole = await read(text);
    for (const size of [1, 2, 3, 5, 7]) {
      const part = await read(text, {}, [size]);
      expect(part.events).toEqual(whole.events);
      expect(part.res.encoding).toBe('utf-8');
    }
    expect(whole.texts).toEqual(['héllo wörld 中文', 'second 😀 line', 'third']);
  });
});

describe('terminators and encodings', () => {
  it('strips the \\r of CRLF and reports crlf', async () => {
    const { res, texts } = await read('a\r\nb\r\nc\r\n');
    expect(texts).toEqual(['a', 'b', 'c']);
    expect(res.crlf).toBe(true);
    const lf = await read('a\nb\r x\n');
    expect(lf.texts).toEqual(['a', 'b\r x']);
    expect(lf.res.crlf).toBe(false);
  });

  it('drops a UTF-8 byte-order mark from line 1', async () => {
    const { texts, res } = await read(Buffer.from([0xef, 0xbb, 0xbf, 0x61, 0x0a, 0x62]));
    expect(texts).toEqual(['a', 'b']);
    expect(res.lines).toBe(2);
  });

  it('decodes a GBK line (中文 = d6 d0 ce c4)', async () => {
    const gbkLine = Buffer.concat([Buffer.from('INFO '), Buffer.from([0xd6, 0xd0, 0xce, 0xc4]), Buffer.from('\n')]);
    const { res, texts } = await read(Buffer.concat([Buffer.from('plain ascii\n'), gbkLine]));
    expect(texts).toEqual(['plain ascii', 'INFO 中文']);
    expect(res.encoding).toBe('gbk');
    expect(res.issues).toEqual([]);
  });

  it('reports mixed UTF-8 and GBK once per file', async () => {
    const gbkLine = Buffer.from([0xd6, 0xd0, 0xce, 0xc4, 0x0a]);
    const { res, texts } = await read(Buffer.concat([Buffer.from('utf8 中文\n'), gbkLine, gbkLine]));
    expect(texts).toEqual(['utf8 中文', '中文', '中文']);
    expect(res.encoding).toBe('mixed');
    expect(res.issues).toEqual([
      {
        file: 'test.log',
        line: 2,
        message: 'mixed encodings: 2 lines decoded as GBK (first at line 2), the rest as UTF-8',
      },
    ]);
  });

  it('decodes invalid UTF-8 with replacement characters and one issue', async () => {
    const bad = Buffer.from([0x61, 0xff, 0x62, 0x0a]); // 0xff is neither UTF-8 nor GBK
    const latin1 = Buffer.from('caf\xe9 au lait\n', 'latin1'); // e9 20 is not GBK either
    const { res, texts } = await read(Buffer.concat([Buffer.from('ok\n'), bad, Buffer.from('fine\n'), bad, latin1]));
    expect(texts).toEqual(['ok', 'a\ufffdb', 'fine', 'a\ufffdb', 'caf\ufffd au lait']);
    expect(res.encoding).toBe('utf-8');
    expect(res.issues).toEqual([
      {
        file: 'test.log',
        line: 2,
        message: '3 lines not valid UTF-8 or GBK (first at line 2), shown with replacement characters',
      },
    ]);
  });

  it('marks binary lines unreadable (NUL, or >30% control bytes)', async () => {
    const input = Buffer.concat([
      Buffer.from('good\n'),
      Buffer.from([0x61, 0x00, 0x62, 0x0a]),
      Buffer.from('\x01\x02\x03abcd\n'),
      Buffer.from('\x1b[31mred\x1b[0m\ttab\f\n'),
      Buffer.from('end'),
    ]);
    const { res, events } = await read(input);
    expect(events).toEqual([
      ['line', 1, 'good'],
      ['unreadable', 2, 'binary data'],
      ['unreadable', 3, 'binary data'],
      ['line', 4, '\x1b[31mred\x1b[0m\ttab\f'],
      ['line', 5, 'end'],
    ]);
    expect(res.lines).toBe(5);
  });

  it('counts a binary file line by line as unreadable, never drops it whole', async () => {
    const f = path.join(tmp, 'lib.jar');
    // Seeded, so that the file is the same in every run (a verdict on random data is a draw).
    const bytes = seededBytes(20261201, 200_000);
    fs.writeFileSync(f, bytes);
    const { sink, events } = collector();
    const res = await readSource(spec(f), sink);
    expect(res.lines).toBe(expectedLines(bytes));
    expect(events.length).toBe(res.lines);
    // random bytes: the region is binary, so even lines with no NUL are unreadable; the file's
    // first lines are judged with the rest of its first 8 KiB, so they are too
    expect(events.findIndex((e) => e[0] === 'unreadable')).toBe(0);
    expect(events.filter((e) => e[0] === 'unreadable').length / res.lines).toBeGreaterThan(0.97);
    expect(res.encoding === 'binary' || res.encoding === 'utf-8').toBe(true);
  });

  it('reads a gzipped binary file to its end, every line counted', async () => {
    const bytes = randomBytes(300_000);
    const { res, events } = await read(gzipSync(bytes), {}, [4096]);
    expect(res.decompressedBytes).toBe(300_000);
    expect(res.lines).toBe(expectedLines(bytes));
    expect(events.filter((e) => e[0] === 'line').length).toBeLessThan(res.lines * 0.03);
  });

  it('counts a control-heavy file as binary lines', async () => {
    const bytes = Buffer.alloc(1000);
    for (let i = 0; i < bytes.length; i++) bytes[i] = i % 3 === 0 ? 0x41 : 0x01;
    const { res, events } = await read(bytes);
    expect(events).toEqual([['unreadable', 1, 'binary data']]);
    expect(res.encoding).toBe('binary');
  });

  it('reads the log after a block of NUL bytes (a crashed, pre-allocated file)', async () => {
    const before = '2024-05-20 14:03:18 INFO main - before the crash\n';
    const after = '2024-05-20 14:09:01 INFO main - after the restart\nsecond line\n';
    const input = Buffer.concat([Buffer.from(before), Buffer.alloc(3 << 20), Buffer.from(after)]);
    for (const sizes of [[], [4096], [1 << 20], [7]]) {
      const { res, events } = await read(input, {}, sizes);
      expect(events).toEqual([
        ['line', 1, before.trimEnd()],
        ['line', 2, '2024-05-20 14:09:01 INFO main - after the restart'],
        ['line', 3, 'second line'],
      ]);
      expect(res.issues).toEqual([
        {
          file: 'test.log',
          line: 2,
          message: `${3 << 20} NUL bytes skipped in 1 block (line 2; a pre-allocated or crashed file): the text around them is read`,
        },
      ]);
    }
  });

  it('keeps the text lines of a short file with one junk line', async () => {
    const junk = Buffer.from([0x00, 0x9c, 0x01, 0x02, 0xff, 0x10, 0x0a]);
    const input = Buffer.concat([Buffer.from('2024-05-20 14:03:18 INFO main - one\n'), junk, Buffer.from('2024-05-20 14:03:19 INFO main - two\n')]);
    const { events } = await read(input);
    expect(events).toEqual([
      ['line', 1, '2024-05-20 14:03:18 INFO main - one'],
      ['unreadable', 2, 'binary data'],
      ['line', 3, '2024-05-20 14:03:19 INFO main - two'],
    ]);
  });

  it('decodes UTF-16LE and UTF-16BE with a byte-order mark', async () => {
    const text = '2024-05-20 14:03:18 INFO main - 中文 one\r\nsecond 😀\r\n';
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const be = Buffer.from(le);
    be.swap16();
    for (const [input, enc] of [
      [le, 'utf-16le'],
      [be, 'utf-16be'],
    ] as const) {
      for (const sizes of [[], [1], [3], [4096]]) {
        const { res, texts } = await read(input, {}, sizes);
        expect(texts).toEqual(['2024-05-20 14:03:18 INFO main - 中文 one', 'second 😀']);
        expect(res.encoding).toBe(enc);
        expect(res.issues).toEqual([]);
      }
    }
  });

  it('ends lines at lone CRs in a file whose line ends are lone CRs', async () => {
    const lines = Array.from({ length: 435 }, (_, i) => `2024-05-20 14:03:${String(i % 60).padStart(2, '0')} INFO main - line ${i}`);
    for (const sizes of [[], [1], [13], [4096]]) {
      const { res, texts } = await read(lines.join('\r') + '\r', {}, sizes);
      expect(texts).toEqual(lines);
      expect(res.cr).toBe(true);
    }
    // In a file whose first line ends in LF, a stray CR stays inside its line (grep -n agrees).
    const { texts } = await read('a\nb\rc\n');
    expect(texts).toEqual(['a', 'b\rc']);
  });
});

describe('long lines', () => {
  it('reports a line longer than maxLineBytes once and skips it', async () => {
    const input = `short\n${'x'.repeat(100)}\nafter\n${'y'.repeat(11)}`;
    for (const sizes of [[], [1], [7], [33]]) {
      const { res, events } = await read(input, { maxLineBytes: 10 }, sizes);
      expect(events).toEqual([
        ['line', 1, 'short'],
        ['unreadable', 2, 'line longer than 10 bytes (100 bytes)'],
        ['line', 3, 'after'],
        ['unreadable', 4, 'line longer than 10 bytes (11 bytes)'],
      ]);
      expect(res.lines).toBe(4);
    }
  });

  it('uses 1 MiB by default', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024 + 5, 0x61);
    const input = Buffer.concat([Buffer.from('a\n'), big, Buffer.from('\nb\n')]);
    const { res, events } = await read(input, {}, [1 << 20]);
    expect(events).toEqual([
      ['line', 1, 'a'],
      ['unreadable', 2, `line longer than 1 MiB (${big.length} bytes)`],
      ['line', 3, 'b'],
    ]);
    expect(res.lines).toBe(3);
  });

  it('accepts a line of exactly maxLineBytes', async () => {
    const { events } = await read(`${'z'.repeat(10)}\n`, { maxLineBytes: 10 }, [3]);
    expect(events).toEqual([['line', 1, 'z'.repeat(10)]]);
  });
});

describe('gzip', () => {
  it('reads gzip detected by magic bytes, with or without .gz, in any chunking', async () => {
    const text = 'one\ntwo\r\nthree';
    const gz = gzipSync(text);
    for (const sizes of [[], [1], [5]]) {
      const { res, texts } = await read(gz, {}, sizes);
      expect(texts).toEqual(['one', 'two', 'three']);
      expect(res.bytes).toBe(gz.length);
      expect(res.decompressedBytes).toBe(Buffer.byteLength(text));
    }
    const f = path.join(tmp, 'no-extension');
    fs.writeFileSync(f, gz);
    const { sink, events } = collector();
    const res = await readSource(spec(f), sink);
    expect(events.map((e) => e[2])).toEqual(['one', 'two', 'three']);
    expect(res.issues).toEqual([]);
  });

  it('reads multi-member gzip', async () => {
    const { texts } = await read(Buffer.concat([gzipSync('a\nb'), gzipSync('c\n')]));
    expect(texts).toEqual(['a', 'bc']);
  });

  it('keeps the lines of a truncated gzip and names the last line', async () => {
    const lines = Array.from({ length: 20000 }, (_, i) => `line ${i} ${(i * 7919) % 10007}`);
    const gz = gzipSync(lines.join('\n') + '\n');
    const f = path.join(tmp, 'broker.1.log.gz');
    fs.writeFileSync(f, gz.subarray(0, Math.floor(gz.length / 2)));
    const { sink, events } = collector();
    const res = await readSource(spec(f, 'otherdays/broker.1.log.gz'), sink);
    expect(res.lines).toBeGreaterThan(1000);
    expect(res.lines).toBe(events.length);
    // every complete line is intact; the last one may be cut short
    for (let i = 0; i < events.length - 1; i++) expect(events[i]).toEqual(['line', i + 1, lines[i]]);
    expect(lines[events.length - 1].startsWith(events[events.length - 1][2])).toBe(true);
    expect(res.issues).toEqual([
      {
        file: 'otherdays/broker.1.log.gz',
        line: res.lines - 1,
        message: `broken gzip data at byte ${Math.floor(gz.length / 2)}, after line ${res.lines - 1} (the last good line): unexpected end of file`,
      },
    ]);
  });

  it('reports corrupt gzip data without throwing', async () => {
    const gz = gzipSync(Array.from({ length: 5000 }, (_, i) => `row ${i}`).join('\n'));
    const bad = Buffer.from(gz);
    for (let i = 200; i < 260; i++) bad[i] ^= 0x5a;
    const { res } = await read(bad);
    expect(res.issues).toHaveLength(1);
    expect(res.issues[0].message).toMatch(/^broken gzip data at byte \d+, after line \d+ \(the last good line\): \S.*$/);
    expect(res.issues[0].line).toBeGreaterThanOrEqual(res.lines - 1);
  });

  it('keeps every line inflated before damage, from a file (native zlib, then the exact pass) or stdin', async () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `2024-05-20 14:03:18 INFO main - row ${i} ${(i * 7919) % 10007}`);
    const text = Buffer.from(lines.join('\n') + '\n');
    const gz = gzipSync(text);
    const at = Math.floor(gz.length * 0.7);
    const bad = Buffer.from(gz);
    for (let i = at; i < at + 40; i++) bad[i] ^= 0x5a;
    // What any decoder can show before the damage: the undamaged prefix, inflated.
    const shown = inflatePrefix(gz.subarray(0, at)).toString('latin1').split('\n').slice(0, -1);
    expect(shown.length).toBeGreaterThan(1000);
    const f = path.join(tmp, 'broker.1.log.gz');
    fs.writeFileSync(f, bad);
    const file = collector();
    const fromFile = await readSource({ ...spec(f), gz: true }, file.sink);
    const fromStream = await read(bad, {}, [1000]);
    for (const [res, events] of [
      [fromFile, file.events],
      [fromStream.res, fromStream.events],
    ] as const) {
      expect(events.slice(0, shown.length).map((e) => e[2])).toEqual(shown);
      const issue = res.issues[0];
      expect(issue.message).toMatch(/^broken gzip data at byte (\d+), after line (\d+) \(the last good line\): /);
      const [, byte, line] = /at byte (\d+), after line (\d+)/.exec(issue.message)!.map(Number);
      // zlib finds the damage where the bits stop making sense: at it or some way after it.
      expect(byte).toBeGreaterThanOrEqual(at);
      expect(byte).toBeLessThanOrEqual(gz.length);
      expect(line).toBeGreaterThanOrEqual(shown.length);
      expect(issue.line).toBe(line);
    }
    expect(file.events).toEqual(fromStream.events);
  });

  it('keeps every line of a gzip with trailing garbage, and says it was ignored', async () => {
    const text = Array.from({ length: 4000 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const input = Buffer.concat([gzipSync(text), Buffer.from('GARBAGE after the member')]);
    const f = path.join(tmp, 'trailing.log.gz');
    fs.writeFileSync(f, input);
    const file = collector();
    const res = await readSource({ ...spec(f), gz: true }, file.sink);
    expect(res.lines).toBe(4000);
    expect(res.issues).toEqual([
      { file: 'trailing.log.gz', line: null, message: `trailing data after the gzip data at byte ${input.length - 24}, ignored (as gzip does)` },
    ]);
    const stream = await read(input, {}, [333]);
    expect(stream.res.lines).toBe(4000);
    expect(stream.res.issues.map((i) => i.message)).toEqual(res.issues.map((i) => i.message));
  });

  it('streams a thousandfold .gz in bounded memory', async () => {
    const gc = exposeGc();
    const lineBlock = Buffer.from('2024-01-01 00:00:00,000 INFO main - compressible line of text\n'.repeat(16384)); // ~1 MiB
    const member = gzipSync(lineBlock, { level: 9 });
    const members = 50;
    const gz = Buffer.concat(Array.from({ length: members }, () => member)); // ~50 MiB inflated
    expect((lineBlock.length * members) / gz.length).toBeGreaterThan(300);
    const giant = Buffer.concat(Array.from({ length: members }, () => gzipSync(Buffer.alloc(1 << 20, 0x61), { level: 9 })));
    expect((members << 20) / giant.length).toBeGreaterThan(900); // ~ thousandfold

    for (const [input, expectLines, inflated] of [
      [gz, 16384 * members, members * lineBlock.length],
      [giant, 1, members * (1 << 20)], // one 50 MiB line: must be skipped, not accumulated
    ] as const) {
      gc();
      const base = memory();
      const samples: number[] = [];
      const sample = (): void => {
        gc();
        samples.push(memory() - base);
      };
      let count = 0;
      const sink: LineSink = {
        line: () => {
          if (++count % 50_000 === 0) sample();
        },
        unreadable: () => {
          count++;
          sample();
        },
      };
      // A stream is inflated by gunzip.ts (in this thread: sampled as the bytes come), a file by
      // Node's zlib on the thread pool (sampled by a timer).
      let chunks = 0;
      const onProgress = () => {
        if (++chunks % 2 === 0) sample();
      };
      const f = path.join(tmp, 'big.gz');
      fs.writeFileSync(f, input);
      for (const how of ['stream', 'file']) {
        samples.length = 0;
        const timer = setInterval(sample, 5);
        let res: ReadResult;
        try {
          res =
            how === 'stream'
              ? await readStream(chunked(input, [4096]), 'big.gz', sink, { onProgress })
              : await readSource({ ...spec(f), gz: true }, sink);
        } finally {
          clearInterval(timer);
        }
        expect(res.lines).toBe(expectLines);
        expect(res.decompressedBytes).toBe(inflated);
        // Freed buffers can be released a little after a GC on a busy machine, so a single sample may
        // be high; holding the data (50 MiB) would lift most samples far above these bounds.
        samples.sort((a, b) => a - b);
        expect(samples.length, how).toBeGreaterThanOrEqual(4);
        expect(samples[Math.floor(samples.length / 2)], how).toBeLessThan(16 * 1024 * 1024);
        expect(samples[samples.length - 1], how).toBeLessThan(40 * 1024 * 1024);
      }
    }
  });
});

/** Inflate a cut-off gzip as far as its bytes go (what zcat shows before the cut). */
function inflatePrefix(gz: Buffer): Buffer {
  return zlib.gunzipSync(gz, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
}

function exposeGc(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

function memory(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

describe('files, stdin, progress, abort', () => {
  it('reports a missing file as an issue with 0 lines', async () => {
    const { sink, events } = collector();
    const res = await readSource(spec(path.join(tmp, 'gone.log'), 'gone.log'), sink);
    expect(events).toEqual([]);
    expect(res.lines).toBe(0);
    expect(res.issues).toEqual([{ file: 'gone.log', line: null, message: 'no such file or directory: gone.log' }]);
  });

  it('reports a directory given as a file', async () => {
    const { sink } = collector();
    const res = await readSource(spec(tmp, 'somedir'), sink);
    expect(res.issues).toEqual([{ file: 'somedir', line: null, message: 'is a directory: somedir' }]);
  });

  it('reads stdin for "-" (gzip detection included)', async () => {
    const stdin = Readable.from([gzipSync('from\nstdin\n')]);
    const spy = vi.spyOn(process, 'stdin', 'get').mockReturnValue(stdin as unknown as typeof process.stdin);
    try {
      const { sink, events } = collector();
      const res = await readSource(spec('-', '-'), sink);
      expect(events).toEqual([
        ['line', 1, 'from'],
        ['line', 2, 'stdin'],
      ]);
      expect(res.lines).toBe(2);
    } finally {
      spy.mockRestore();
    }
  });

  it('reports progress in raw bytes', async () => {
    const f = path.join(tmp, 'p.log');
    const data = Buffer.from('abc\n'.repeat(1_000_000));
    fs.writeFileSync(f, data);
    const seen: number[] = [];
    const { sink } = collector();
    const res = await readSource(spec(f), sink, { onProgress: (n) => seen.push(n) });
    expect(seen.length).toBeGreaterThan(1);
    expect(seen[seen.length - 1]).toBe(data.length);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    expect(res.lines).toBe(1_000_000);
  });

  it('rejects when aborted', async () => {
    const ac = new AbortController();
    let n = 0;
    const sink: LineSink = {
      line: () => {
        if (++n === 10) ac.abort();
      },
      unreadable: () => {},
    };
    const chunks = Array.from({ length: 200 }, () => Buffer.from('x\n'.repeat(40_000)));
    await expect(readStream(Readable.from(chunks), 'x', sink, { signal: ac.signal })).rejects.toThrow(/abort/i);
  });
});

describe('plain files read into a recycled buffer', () => {
  it('gives the same lines as a stream for a multi-chunk file, and reads a gzip file named without .gz', async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const zlib = await import('node:zlib');
    const { readSource, readStream } = await import('../../src/ingest/reader.js');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rmq-recycle-'));
    const lines = Array.from({ length: 60000 }, (_, i) => `2024-05-20 14:03:07 INFO t_${i} - line ${i} ${'x'.repeat(i % 97)}`);
    const text = lines.join('\n') + '\n';
    const plain = path.join(dir, 'broker.log');
    fs.writeFileSync(plain, text);
    expect(fs.statSync(plain).size).toBeGreaterThan(3 << 20);
    const collect = () => {
      const got: string[] = [];
      return { got, sink: { line: (t: string) => got.push(t), unreadable: () => got.push('<unreadable>') } };
    };
    const a = collect();
    await readSource({ path: plain, display: 'broker.log', host: 'h', kindHint: null, kindForced: false, gz: false, group: 'g', rotation: 0 }, a.sink);
    const b = collect();
    await readStream(fs.createReadStream(plain), 'broker.log', b.sink);
    expect(a.got).toEqual(lines);
    expect(b.got).toEqual(lines);
    // A gzip file whose spec says plain (renamed after the inputs were listed): still inflated correctly.
    // Random hex compresses poorly, so the gzip file spans several 1 MiB reads.
    const crypto = await import('node:crypto');
    const noisy = lines.map((l, i) => `${l} ${crypto.createHash('sha256').update(String(i)).digest('hex')}`);
    const gz = path.join(dir, 'store.log');
    fs.writeFileSync(gz, zlib.gzipSync(noisy.join('\n') + '\n'));
    expect(fs.statSync(gz).size).toBeGreaterThan(2 << 20);
    const c = collect();
    await readSource({ path: gz, display: 'store.log', host: 'h', kindHint: null, kindForced: false, gz: false, group: 'g', rotation: 0 }, c.sink);
    expect(c.got).toEqual(noisy);
  });
});

describe('keywords looked for in ASCII blocks', () => {
  it("tells each line whether it holds one of the sink's keywords, whatever the chunks, and nothing for other lines", async () => {
    const { keywordStarts } = await import('../../src/parse/keyword-scan.js');
    const words = ['connect to ', 'closeChannel: close the connection', '[WATERMARK]', 'send heart beat to broker[', 'close the connection to', 'the connection'];
    const lines: string[] = [];
    for (let i = 0; i < 10000; i++) {
      const w = words[i % words.length];
      const kind = (i * 7919) % 6;
      if (kind === 0) lines.push(i % 3 ? `2024-05-20 10:00:00 INFO t - ${w}x${i}` : `2024-05-20 10:00:00 INFO t - ${w} and ${words[(i + 1) % words.length]}`);
      else if (kind === 5 && i % 5 === 0) lines.push(`2024-05-20 10:00:00 INFO t - ${i % 2 ? 'closeChannel: close the connection to' : 'x connect to '}`); // one keyword inside another
      else if (kind === 1) lines.push(`${w.slice(0, -1)}|${w.slice(-1)} ${i}\r`); // cut by a byte: no keyword
      else if (kind === 2) lines.push(`${'y'.repeat(i % 200)}${w}`);
      else if (kind === 3 && i > 9900) lines.push(`中文 ${w}`); // not ASCII: its block is decoded as UTF-8, not looked at
      else if (kind === 4) lines.push('');
      else lines.push(`plain ${i}`);
    }
    const text = lines.join('\n') + '\n';
    for (const sizes of [[], [4096], [97, 1 << 16], [70000]]) {
      const got: Array<[string, boolean | undefined, number | undefined]> = [];
      const sink: LineSink = { line: (t, _n, k, at) => got.push([t, k, at]), unreadable: () => undefined, keywordStarts: keywordStarts(words) };
      await readStream(chunked(Buffer.from(text, 'utf8'), sizes), 'k.log', sink);
      expect(got.map(([t]) => t)).toEqual(lines.map((l) => l.replace(/\r$/, '')));
      for (const [t, k, at] of got) {
        if (k !== undefined) expect(k, t).toBe(words.some((w) => t.includes(w)));
        if (k === undefined) expect(at, t).toBeUndefined();
        if (!k) continue;
        // Told where the first keyword starts exactly when every other occurrence in the line lies
        // inside the longest keyword starting there.
        const starts = [...t].flatMap((_, i) => {
          const n = Math.max(0, ...words.filter((w) => t.startsWith(w, i)).map((w) => w.length));
          return n > 0 ? [[i, n]] : [];
        });
        const [first, len] = starts[0];
        expect(at, t).toBe(starts.every(([i, n]) => i + n <= first + len) ? first : undefined);
      }
      // The first block (its first lines are judged together) and UTF-8 blocks go without: those lines are not told.
      expect(got.filter(([, k]) => k !== undefined).length).toBeGreaterThan(3000);
    }
  });
});

describe('the places of lines (LineSink.line byteAt)', () => {
  /** Every line with its byteAt, read from a file (whole, or the part [start, end) with `firstLine`). */
  async function places(file: string, withKeywords: boolean, range?: ReadOptions['range'], gz = false) {
    const { keywordStarts } = await import('../../src/parse/keyword-scan.js');
    const got: Array<[string, number | undefined]> = [];
    const sink: LineSink = { line: (t, _n, _k, _at, byteAt) => got.push([t, byteAt]), unreadable: () => undefined };
    if (withKeywords) sink.keywordStarts = keywordStarts(['WARN', 'connect to ']);
    const res = await readSource({ ...spec(file), gz }, sink, { range });
    return { got, res };
  }

  /** Holds for every line told: its text is the file's bytes there as UTF-8, a line end after them. */
  function expectExact(bytes: Buffer, got: Array<[string, number | undefined]>): number {
    let told = 0;
    for (const [t, at] of got) {
      if (at === undefined) continue;
      told++;
      const n = Buffer.byteLength(t, 'utf8');
      expect(bytes.toString('utf8', at, at + n), t).toBe(t);
      expect([10, 13]).toContain(bytes[at + n]);
    }
    return told;
  }

  // ASCII lines, CRLF lines, lines past ASCII, a line across two reads (of 1 MiB), a blank line,
  // and no line end at the very end: read in blocks of both kinds (ASCII, and not), held first lines included.
  const lines: string[] = [];
  for (let i = 0; i < 40000; i++) {
    if (i % 997 === 5) lines.push(`2024-05-20 10:00:00 INFO t - 中文 ${i}`);
    else if (i % 5 === 1) lines.push(`2024-05-20 10:00:00 WARN t - connect to ${i}\r`);
    else if (i === 25000) lines.push(`2024-05-20 10:00:00 INFO t - ${'z'.repeat(900_000)}`);
    else if (i % 7 === 3) lines.push('');
    else lines.push(`2024-05-20 10:00:00 INFO t - line ${i}`);
  }
  const text = `${lines.join('\n')}\nlast line without an end`;

  for (const withKeywords of [true, false]) {
    it(`tells where each line of a plain file is${withKeywords ? '' : ' (a sink with no keywords)'}`, async () => {
      const file = path.join(tmp, 'a.log');
      fs.writeFileSync(file, text);
      const bytes = fs.readFileSync(file);
      const { got } = await places(file, withKeywords);
      expect(got.length).toBe(lines.length + 1);
      const told = expectExact(bytes, got);
      // Not told: the last one (no line end after it).
      expect(told).toBe(lines.length);
      expect(got[got.length - 1][1]).toBeUndefined();
    });
  }

  it('tells places in the file of a part read alone (a split file)', async () => {
    const file = path.join(tmp, 'a.log');
    fs.writeFileSync(file, text);
    const bytes = fs.readFileSync(file);
    const start = bytes.indexOf(10, 500_000) + 1;
    const end = bytes.indexOf(10, 2_000_000) + 1;
    const { got } = await places(file, true, { start, end, firstLine: 2 });
    expect(expectExact(bytes, got)).toBeGreaterThan(10000);
    expect(got[0][1]).toBe(start);
  });

  it('tells none for gzip, UTF-16 or stdin, nor after NUL bytes were cut out, nor for GBK, bad UTF-8 or a byte-order mark', async () => {
    const gz = path.join(tmp, 'a.log.gz');
    fs.writeFileSync(gz, gzipSync(Buffer.from(text)));
    expect((await places(gz, true, undefined, true)).got.every(([, at]) => at === undefined)).toBe(true);
    // Gzip in a file not named so.
    const disguised = path.join(tmp, 'b.log');
    fs.writeFileSync(disguised, gzipSync(Buffer.from(text)));
    expect((await places(disguised, true)).got.every(([, at]) => at === undefined)).toBe(true);
    const utf16 = path.join(tmp, 'c.log');
    fs.writeFileSync(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('line one\nline two\n'.repeat(5000), 'utf16le')]));
    const u = await places(utf16, true);
    expect(u.got.length).toBe(10000);
    expect(u.got.every(([, at]) => at === undefined)).toBe(true);
    const got: Array<number | undefined> = [];
    await readStream(chunked(Buffer.from('a\nb\n')), '-', { line: (_t, _n, _k, _at, at) => got.push(at), unreadable: () => undefined });
    expect(got).toEqual([undefined, undefined]);
    // A pre-allocated file's NUL block: the lines before it are told, those after it not.
    const holed = path.join(tmp, 'd.log');
    // (The stage cuts a read's NULs before the lines are split: the lines before them must be a read earlier.)
    const before = 'before the hole\n'.repeat(70000);
    fs.writeFileSync(holed, Buffer.concat([Buffer.from(before), Buffer.alloc(4096), Buffer.from('after the hole\n'.repeat(3000))]));
    const h = await places(holed, true);
    expect(expectExact(fs.readFileSync(holed), h.got)).toBeGreaterThan(2000);
    expect(h.got.filter(([t, at]) => t.includes('after') && at !== undefined)).toEqual([]);
    // Lines whose text is not their bytes as UTF-8: GBK (中文 = d6 d0 ce c4), invalid UTF-8, a BOM taken off.
    const odd = path.join(tmp, 'e.log');
    const good = 'a good line\n'.repeat(2000);
    fs.writeFileSync(odd, Buffer.concat([Buffer.from('\ufefffirst line\n'), Buffer.from(good), Buffer.from([0xd6, 0xd0, 0xce, 0xc4, 10, 0x41, 0xff, 0x42, 10]), Buffer.from(good)]));
    const o = await places(odd, true);
    expect(o.got.length).toBe(4003);
    expect(o.got[0]).toEqual(['first line', undefined]);
    expect(o.got[2001]).toEqual(['中文', undefined]);
    expect(o.got[2002][1]).toBeUndefined();
    expect(expectExact(fs.readFileSync(odd), o.got)).toBe(4000);
  });
});
