// Reading an events file back (src/timeline/events-input.ts): its lines split as readline splits
// them, and each event as the parse that wrote it had it, whether it travels on in the binary form
// (the usual shape) or as its JSON text (any other).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeEvent } from '../../src/parse/event-codec.js';
import type { RmqEvent } from '../../src/parse/types.js';
import { buildTimeline } from '../../src/timeline/build.js';
import { eachLine } from '../../src/timeline/events-input.js';

/** The bytes as chunks cut at the given places. */
function chunked(bytes: Buffer, cuts: number[]): Readable {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const parts: Buffer[] = [];
  let from = 0;
  for (const c of [...at, bytes.length]) {
    parts.push(bytes.subarray(from, c));
    from = c;
  }
  return Readable.from(parts);
}

describe('eachLine', () => {
  it('gives the lines readline gives, wherever the chunks are cut (\\n, \\r\\n, a lone \\r, characters of several bytes)', async () => {
    const piece = fc.constantFrom('a', '{"x":1}', '\n', '\r\n', '\r', '消息', 'é', '\u{1F600}', ' ', '');
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 30 }), fc.array(fc.nat(200), { maxLength: 6 }), async (pieces, cuts) => {
        const bytes = Buffer.from(pieces.join(''));
        const want: string[] = [];
        for await (const l of createInterface({ input: chunked(bytes, cuts), crlfDelay: Infinity })) want.push(l);
        const got: string[] = [];
        await eachLine(chunked(bytes, cuts), (l) => got.push(l));
        expect(got).toEqual(want);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('an events file read back', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rmq-diag-events-input-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const base: RmqEvent = {
    ts: Date.parse('2024-05-20T14:00:00.000+08:00'),
    host: 'app-1',
    kind: 'client',
    file: 'app-1/rocketmq_client.log',
    line: 3,
    level: 'WARN',
    thread: null,
    logger: 'RocketmqRemoting',
    type: 'rpc-timeout',
    fields: { addr: '10.0.0.2:10911', timeoutMs: 3000, list: ['a', 'b'], nested: { deep: [1, null] } },
    text: 'invokeSync: wait response timeout exception, the channel[10.0.0.2:10911]',
    source: 0,
    seq: 0,
  };
  /** The time an event's line gives it: second `line` of the minute. */
  const timeOf = (e: RmqEvent) => `2024-05-20T14:00:0${e.line}.000+08:00`;
  const line = (e: RmqEvent, extra = '') => `{"time":"${timeOf(e)}",${encodeEvent(e).slice(1, -1)}${extra}}`;

  for (const asJson of [false, true, 'both'] as const) it(`gives each event as its line has it, of the usual shape or not, in the order written (asJson ${asJson})`, async () => {
    const events: RmqEvent[] = [
      { ...base, line: 1 },
      { ...base, line: 2, clock: 'jvm', entry: 'rpc-timeout/wait-response', versionHint: '4.9.4', sendPath: 'kernel' },
      // An own key "__proto__" (as JSON.parse makes one), and text past ASCII (beside the type's own fields).
      { ...base, line: 3, fields: JSON.parse('{"__proto__":"x","addr":"é 消息","timeoutMs":null}') },
      { ...base, line: 4 },
    ];
    const lines = events.map((e) => line(e));
    // A key no parse writes (another version's): the line travels whole, as its JSON text.
    lines[3] = line(events[3], ',"later":true');
    const file = join(dir, `one-${asJson}.events`);
    writeFileSync(file, lines.join('\r\n') + '\n');
    const t = await buildTimeline({ inputs: [file], workers: 0, asJson });
    try {
      const got: string[] = [];
      const decoded: RmqEvent[] = [];
      for (const m of t.encoded()) {
        got.push(m.json());
        decoded.push(m.event());
      }
      expect(got.slice(0, 3)).toEqual(events.slice(0, 3).map((e) => encodeEvent(e)));
      expect(decoded.slice(0, 3)).toStrictEqual(events.slice(0, 3).map((e, i) => ({ ...JSON.parse(encodeEvent(e)), ts: Date.parse(timeOf(e)), source: 0, seq: i })));
      expect(JSON.parse(got[3]).later).toBe(true);
      expect(t.issues.filter((i) => i.line !== null)).toEqual([]);
    } finally {
      t.close();
    }
  });
});

describe('events files read by worker threads', () => {
  it('give the timeline one thread gives: the same sources in the same places, the same events', async () => {
    const { runBin } = await import('../cli/helpers.js');
    const dir = mkdtempSync(join(tmpdir(), 'rmq-diag-events-workers-'));
    try {
      // The seed outage's hosts parsed by processes of their own, and a log beside them.
      const files = ['mq-node-100', 'app-order-01', 'app-pay-01'].map((h) => {
        const r = runBin(['events', `samples/seed-outage/${h}`, '--format', 'events']);
        expect(r.code, r.stderr).toBe(0);
        const f = join(dir, `${h}.events`);
        writeFileSync(f, r.stdout);
        return f;
      });
      const inputs = [files[0], join(__dirname, '..', '..', 'samples', 'seed-outage', 'mq-node-101'), files[1], files[2]];
      // The built timeline (dist/, built by npm test's pretest): its workers run the built worker file.
      const built = (await import(join(__dirname, '..', '..', 'dist', 'timeline', 'build.js'))) as { buildTimeline: typeof buildTimeline };
      const read = async (workers: number) => {
        const t = await built.buildTimeline({ inputs, workers, keepOther: 'inference' });
        try {
          const lines: string[] = [];
          for (const m of t.encoded()) lines.push(`${m.source} ${m.ts} ${m.json()}`);
          return { sources: t.sources.map((s) => `${s.host} ${s.path}`), accounting: t.accounting, issues: t.issues, lines };
        } finally {
          t.close();
        }
      };
      const one = await read(0);
      expect(one.sources.length).toBeGreaterThan(8);
      expect(one.lines.length).toBeGreaterThan(1000);
      expect(await read(2)).toEqual(one);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('an events file read in parts', () => {
  it('gives what the whole file gives, wherever it is cut at a line end: the sources, their events in order, the notes and their lines', async () => {
    const { readEventsFile, readEventsPart, joinEventsParts, eventsParts } = await import('../../src/timeline/events-input.js');
    const { SourceCursor } = await import('../../src/timeline/merge.js');
    const { runBin } = await import('../cli/helpers.js');
    const dir = mkdtempSync(join(tmpdir(), 'rmq-diag-events-parts-'));
    try {
      const r = runBin(['events', 'samples/seed-outage', '--format', 'events']);
      expect(r.code, r.stderr).toBe(0);
      const lines = r.stdout.split('\n');
      // Two lines that are no event, to see their notes' line numbers.
      lines.splice(5, 0, 'not json');
      const late = lines.length - 40;
      lines.splice(late, 0, '{"time":"yesterday","host":"h","file":"f","type":"other"}');
      const file = join(dir, 'all.events');
      writeFileSync(file, lines.join('\n'));
      const spec = { path: file, display: file, host: 'x', kindHint: null, kindForced: false, gz: false, group: 'x', rotation: 0 } as unknown as Parameters<typeof readEventsFile>[0]['spec'];
      const job = (name: string) => ({ spec, firstIndex: 3, spillDir: dir, name, types: null, keepOther: 'inference' as const, asJson: false as const });
      const eventsOf = (input: Awaited<ReturnType<typeof readEventsFile>>) =>
        input.parsed.map((p) => {
          const c = new SourceCursor(p.index, p.spill, p.tail, p.more?.map((m) => ({ ...m })));
          const out: string[] = [];
          for (let n = 0; c.next(); n++) out.push(`${c.ts} ${encodeEvent(c.event(n))}`);
          return out;
        });
      const whole = await readEventsFile(job('whole'));
      const want = { specs: whole.specs, issues: whole.issues, counts: whole.parsed.map((p) => [p.index, p.count, p.firstTs, p.lastTs]), events: eventsOf(whole) };
      // The summary's notes of the parse (null lines) come after the file's own.
      expect(want.issues.filter((i) => i.line !== null).map((i) => i.line)).toEqual([6, late + 1]);
      expect(want.events.flat().length).toBeGreaterThan(1000);
      const size = Buffer.byteLength(lines.join('\n'));
      const plans = [2, 3, 7].map((n) => eventsParts(file, size, n));
      // And cuts right after the notes' lines and at the file's first and last line ends.
      const ends: number[] = [];
      for (let at = 0, i = 0; i < lines.length - 1; i++) ends.push((at += Buffer.byteLength(lines[i]) + 1));
      const picked = [ends[0], ends[5], ends[6], ends[late - 1], ends[late], ends[ends.length - 1]];
      plans.push([0, ...picked].map((start, i, all) => ({ start, end: i + 1 < all.length ? all[i + 1] : size })));
      let k = 0;
      for (const plan of plans) {
        expect(plan).not.toBeNull();
        const parts = [];
        for (const range of plan!) parts.push(await readEventsPart({ ...job(`p${k++}`), range }));
        const got = joinEventsParts(job('joined'), parts);
        expect({ specs: got.specs, issues: got.issues, counts: got.parsed.map((p) => [p.index, p.count, p.firstTs, p.lastTs]), events: eventsOf(got) }).toEqual(want);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a broken events file', () => {
  it('keeps the lines before the damage and says where it stopped, in one thread and in workers', async () => {
    const { gzipSync } = await import('node:zlib');
    const { runBin } = await import('../cli/helpers.js');
    const dir = mkdtempSync(join(tmpdir(), 'rmq-diag-events-broken-'));
    try {
      const r = runBin(['events', 'samples/seed-outage/app-order-01', '--format', 'events']);
      expect(r.code, r.stderr).toBe(0);
      const gz = gzipSync(r.stdout);
      // Cut in the middle of the deflated data: gunzip ends early ("unexpected end of file").
      const cut = join(dir, 'cut.events.gz');
      writeFileSync(cut, gz.subarray(0, Math.floor(gz.length / 2)));
      // Another host's file beside it (the same host's would be another reading of its logs: read once).
      const other = runBin(['events', 'samples/seed-outage/app-pay-01', '--format', 'events']);
      expect(other.code, other.stderr).toBe(0);
      const whole = join(dir, 'whole.events');
      writeFileSync(whole, other.stdout);
      const built = (await import(join(__dirname, '..', '..', 'dist', 'timeline', 'build.js'))) as { buildTimeline: typeof buildTimeline };
      const count = (t: Awaited<ReturnType<typeof buildTimeline>>) => {
        let n = 0;
        for (const _ of t.encoded()) n++;
        return n;
      };
      const alone = await buildTimeline({ inputs: [whole], workers: 0 });
      const wholeEvents = count(alone);
      alone.close();
      expect(wholeEvents).toBeGreaterThan(50);
      for (const [make, workers] of [[buildTimeline, 0], [built.buildTimeline, 2]] as const) {
        const t = await make({ inputs: [cut, whole], workers });
        try {
          const note = t.issues.find((i) => i.file === cut && /broken gzip data after line \d+/.test(i.message));
          expect(note, JSON.stringify(t.issues)).toBeDefined();
          // The whole file's events and some of the cut one's: those before the damage.
          const n = count(t);
          expect(n).toBeGreaterThan(wholeEvents);
          expect(n).toBeLessThan(wholeEvents + r.stdout.split('\n').length);
          expect(note!.line).toBeGreaterThan(10);
        } finally {
          t.close();
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
