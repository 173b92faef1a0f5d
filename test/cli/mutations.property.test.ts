// Damaged copies of real logs (test/fixtures/real, samples/): cut, swapped and duplicated lines, byte
// flips, inserted NUL blocks, CR/CRLF/LF mixes, gzip damaged at any offset. Whatever the damage:
// exit code 0, 1 or 2, no stack trace, the four counts sum to the file's line count, and every line
// the text (or, for gzip, what inflates before the damage) shows is counted.

import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { expectedLines } from '../ingest/lines.js';
import { ROOT, ndjson, run } from './helpers.js';

// Inputs written for these tests are removed after them (some are tens of MB).
const madeDirs: string[] = [];
const made = (dir: string): string => (madeDirs.push(dir), dir);
afterAll(() => {
  for (const d of madeDirs) rmSync(d, { recursive: true, force: true });
});

const REAL = join(ROOT, 'test', 'fixtures', 'real');
const FIXTURES: Buffer[] = [
  ...readdirSync(REAL)
    .filter((f) => f.endsWith('.log'))
    .map((f) => readFileSync(join(REAL, f))),
  readFileSync(join(ROOT, 'samples', 'seed-outage', 'mq-node-100', 'broker.log')),
  readFileSync(join(ROOT, 'samples', 'seed-outage', 'app-order-01', 'app.log')).subarray(0, 40000),
];

const lines = (b: Buffer): Buffer[] => {
  const out: Buffer[] = [];
  let a = 0;
  for (let i = b.indexOf(10); i >= 0; i = b.indexOf(10, a)) {
    out.push(b.subarray(a, i + 1));
    a = i + 1;
  }
  if (a < b.length) out.push(b.subarray(a));
  return out;
};

type Mutation = (b: Buffer) => Buffer;

const cut = fc.double({ min: 0, max: 1, noNaN: true }).map<Mutation>((f) => (b) => b.subarray(0, Math.floor(b.length * f)));
const swap = fc.tuple(fc.nat(), fc.nat()).map<Mutation>(([i, j]) => (b) => {
  const l = lines(b);
  if (l.length < 2) return b;
  const [x, y] = [i % l.length, j % l.length];
  [l[x], l[y]] = [l[y], l[x]];
  return Buffer.concat(l);
});
const duplicate = fc.tuple(fc.nat(), fc.integer({ min: 1, max: 20 })).map<Mutation>(([i, n]) => (b) => {
  const l = lines(b);
  if (!l.length) return b;
  const k = i % l.length;
  return Buffer.concat([...l.slice(0, k + 1), ...Array(n).fill(l[k]), ...l.slice(k + 1)]);
});
const flips = fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 30 }).map<Mutation>((fl) => (b) => {
  const c = Buffer.from(b);
  for (const [at, x] of fl) if (c.length) c[at % c.length] ^= x;
  return c;
});
const nulBlock = fc.tuple(fc.nat(), fc.integer({ min: 1, max: 100_000 })).map<Mutation>(([at, n]) => (b) => {
  const k = b.length ? at % b.length : 0;
  return Buffer.concat([b.subarray(0, k), Buffer.alloc(n), b.subarray(k)]);
});
const endings = fc.array(fc.constantFrom('\n', '\r\n', '\r'), { minLength: 1, maxLength: 5 }).map<Mutation>((eols) => (b) => {
  let i = 0;
  return Buffer.from(b.toString('latin1').replace(/\r?\n/g, () => eols[i++ % eols.length]), 'latin1');
});
const mutation = fc.oneof(cut, swap, duplicate, flips, nulBlock, endings);

interface Summary {
  inputs: Array<{ lines: number; records: number; continuation: number; unknown: number; unreadable: number }>;
  issues: Array<{ message: string }>;
}

async function check(args: string[], file: string): Promise<Summary> {
  const r = await run([...args, file]);
  expect([0, 1, 2]).toContain(r.code);
  expect(r.stderr).not.toMatch(/\n\s+at |internal error/);
  if (args[0] !== 'events') return { inputs: [], issues: [] };
  if (r.code === 2 && !r.stdout.trim()) {
    // Damage left nothing to diagnose: no report, one line on stderr that still counts the lines read.
    // (Records of an application's layout alone, no RocketMQ event and no record of RocketMQ's layouts, are no RocketMQ log either.)
    const m =
      /: 1 files?, ([\d,]+) lines?, (?:0 records of a known layout|0 RocketMQ events, ([\d,]+) records? of other layouts)/.exec(r.stderr) ??
      /nothing could be read from/.exec(r.stderr);
    expect(m, r.stderr).not.toBeNull();
    const lines = m && m[1] !== undefined ? Number(m[1].replace(/,/g, '')) : 0;
    const records = m && m[2] !== undefined ? Number(m[2].replace(/,/g, '')) : 0;
    return { inputs: [{ lines, records, continuation: 0, unknown: lines - records, unreadable: 0 }], issues: [] };
  }
  const summary = ndjson(r.stdout).pop()!.summary as Summary;
  for (const i of summary.inputs) expect(i.records + i.continuation + i.unknown + i.unreadable).toBe(i.lines);
  return summary;
}

describe('damaged copies of real logs', () => {
  const dir = made(mkdtempSync(join(tmpdir(), 'rmq-mutations-')));

  it('plain: every line counted once, whatever the damage', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(FIXTURES.length - 1), fc.array(mutation, { minLength: 1, maxLength: 3 }), async (k, ms) => {
        const bytes = ms.reduce((b, m) => m(b), FIXTURES[k]);
        const file = join(dir, 'broker.log');
        writeFileSync(file, bytes);
        const s = await check(['events', '--json', '--all'], file);
        expect(s.inputs[0].lines).toBe(expectedLines(bytes));
        await check(['analyze', '--json'], file);
      }),
      { numRuns: 80 },
    );
  });

  it('gzip damaged at any offset: every line inflated before the damage is counted', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(FIXTURES.length - 1),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom('cut', 'flip', 'garbage'),
        async (k, where, how) => {
          const text = Buffer.concat([FIXTURES[k], FIXTURES[k], FIXTURES[k]]);
          const gz = gzipSync(text);
          const at = Math.min(gz.length - 1, Math.max(2, Math.floor(gz.length * where)));
          const bad =
            how === 'cut' ? gz.subarray(0, at) : how === 'garbage' ? Buffer.concat([gz, Buffer.from('trailing junk')]) : Buffer.from(gz).fill(0x5a, at, at + 1);
          // What a decoder shows before the damage: the undamaged prefix inflated (all of it for trailing junk).
          const shown = how === 'garbage' ? text : gunzipSync(gz.subarray(0, at), { finishFlush: constants.Z_SYNC_FLUSH });
          const whole = expectedLines(shown) - (shown.length && shown[shown.length - 1] !== 10 ? 1 : 0);
          const file = join(dir, 'broker.1.log.gz');
          writeFileSync(file, bad);
          const s = await check(['events', '--json', '--all'], file);
          expect(s.inputs[0].lines).toBeGreaterThanOrEqual(whole);
          if (how === 'garbage') expect(s.inputs[0].lines).toBe(expectedLines(text));
          await check(['analyze', '--json'], file);
        },
      ),
      { numRuns: 40 },
    );
  });
});
