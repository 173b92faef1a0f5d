import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findCuts, countNewlines } from '../../src/ingest/split.js';
import { resolveInputs, type SourceSpec } from '../../src/ingest/sources.js';
import { buildTimeline } from '../../src/timeline/build.js';
import { SourceCursor } from '../../src/timeline/merge.js';
import { parseSource, type FilePart, type ParseJob, type ParsedSource } from '../../src/timeline/parse-source.js';
import { createSpillDir, removeSpillDir } from '../../src/timeline/spill.js';
import { joinParts, joinRefusal } from '../../src/timeline/split.js';
import { ActivityTracker, joinActivity } from '../../src/parse/activity.js';
import { encodeEvent } from '../../src/parse/event-codec.js';

const ROOT = join(__dirname, '..', '..');
const spillDir = createSpillDir();
afterAll(() => removeSpillDir(spillDir));

async function specOf(file: string): Promise<SourceSpec> {
  const { sources } = await resolveInputs([file], {});
  return sources[0];
}

function job(spec: SourceSpec, keepOther: ParseJob['keepOther'] = false, part?: FilePart): ParseJob {
  // spillAt 7: most parts spill, so spill files and tails are joined both.
  return { index: 0, spec, defaultZone: '+08:00', forcedZone: null, keepOther, types: null, spillDir, spillAt: 7, part };
}

function eventsOf(p: ParsedSource): string[] {
  const c = new SourceCursor(0, p.spill, p.tail, p.more?.map((m) => ({ ...m })));
  const out: string[] = [];
  for (let n = 0; c.next(); n++) out.push(`${c.ts}\t${encodeEvent(c.event(n))}`);
  return out;
}

/** What a parsed source says, events included. */
function view(p: ParsedSource) {
  return { accounting: p.accounting, issues: p.issues, count: p.count, firstTs: p.firstTs, lastTs: p.lastTs, bytes: p.bytes, encoding: p.encoding, events: eventsOf(p) };
}

/** Line starts of the file (byte offsets), the first excepted. */
function lineStarts(bytes: Buffer): number[] {
  const out: number[] = [];
  for (let i = bytes.indexOf(10); i !== -1 && i + 1 < bytes.length; i = bytes.indexOf(10, i + 1)) out.push(i + 1);
  return out;
}

async function parts(spec: SourceSpec, cuts: number[], size: number, headEnd: number, keepOther: ParseJob['keepOther'], otherLines = false): Promise<ParsedSource[]> {
  const starts = [0, ...cuts];
  const out: ParsedSource[] = [];
  for (let n = 0; n < starts.length; n++) {
    const part = { n, start: starts[n], end: n + 1 < starts.length ? starts[n + 1] : size, headEnd, last: n + 1 === starts.length };
    out.push(await parseSource({ ...job(spec, keepOther, part), otherLines }));
  }
  return out;
}

const FILES = [
  'samples/healthy-restart/mq-broker-a/broker.log', // server: activity marks, stack traces
  'samples/lab/namesrv-hang/app-pay-01/logs/app.log', // application layout, exceptions
  'samples/healthy-restart/app-stock-01/rocketmq_client.log', // client, CRLF
  'samples/lab/namesrv-hang/mq-node-a/logs/rocketmqlogs/remoting.log',
];

describe('a file parsed in two parts', () => {
  for (const rel of FILES) {
    it(`gives what the whole file gives at every cut it joins, and refuses only cuts inside a record or before the layout is locked: ${rel}`, async () => {
      const file = join(ROOT, rel);
      const bytes = readFileSync(file);
      const spec = await specOf(file);
      for (const keepOther of [false, 'inference', true] as const) {
        // Small files are pastes, whose reorder window a split file never has (split.ts): the
        // reference is the file read whole as one part, which is the whole parse without it.
        const whole = view(await parseSource(job(spec, keepOther, { n: 0, start: 0, end: bytes.length, headEnd: bytes.length, last: true })));
        let accepted = 0;
        const reasons: Record<string, number> = {};
        // Every cut in the default parse; in the other two every third one, where lines of every
        // kind still fall on a cut (each cut costs two parses).
        const starts = lineStarts(bytes);
        const tried = starts.map((cut, i) => ({ cut, i })).filter(({ i }) => keepOther === false || i % 3 === 0);
        for (const { cut } of tried) {
          // headEnd: the whole file (small), or just the cut: the head is only read for the layout.
          const ps = await parts(spec, [cut], bytes.length, bytes.length, keepOther);
          const refusal = joinRefusal(ps);
          if (refusal === null) {
            accepted++;
            expect(view(joinParts(ps)), `cut at byte ${cut}`).toEqual(whole);
          } else reasons[refusal] = (reasons[refusal] ?? 0) + 1;
          // The line numbers of the later part follow on whatever the verdict.
          expect(ps[1].part!.firstLine).toBe(countNewlines(file, cut) + 1);
        }
        // Refused: the cuts up to the line the layout is locked at (its 64th non-blank line) and
        // those inside a record (stack frames, wrapped lines); every other cut is joined.
        const locked = bytes.toString('latin1').split('\n').findIndex((_, i, all) => all.slice(0, i + 1).filter((l) => l.trim() !== '').length === 64) + 1;
        // The cut at index i starts line i + 2: it is before the lock when i < locked - 1.
        const beforeLock = tried.filter(({ i }) => i < locked - 1).length;
        expect(Object.keys(reasons).filter((r) => r !== 'the cut is inside a record')).toEqual(['no clean state at the cut']);
        expect(reasons['no clean state at the cut']).toBe(beforeLock);
        expect(accepted + (reasons['the cut is inside a record'] ?? 0) + beforeLock).toBe(tried.length);
        expect(accepted).toBeGreaterThan(keepOther === false ? 20 : 5);
      }
    });
  }

  it('joins a file whose first part has a note of the parser (4.3.0-4.7.1 fake millis) as the whole', async () => {
    const file = join(ROOT, 'samples/lab/namesrv-hang/app-order-01/logs/rocketmqlogs/rocketmq_client.log');
    const bytes = readFileSync(file);
    const spec = await specOf(file);
    const whole = view(await parseSource(job(spec, false, { n: 0, start: 0, end: bytes.length, headEnd: bytes.length, last: true })));
    expect(whole.issues.map((i) => i.message)).toContainEqual(expect.stringContaining('millisecond field repeats'));
    const starts = lineStarts(bytes);
    let accepted = 0;
    for (let i = 100; i < starts.length; i += 31) {
      const ps = await parts(spec, [starts[i]], bytes.length, bytes.length, false);
      const r = joinRefusal(ps);
      if (r !== null) {
        // Most of this file is stack traces.
        expect(r).toBe('the cut is inside a record');
        continue;
      }
      accepted++;
      expect(view(joinParts(ps)), `cut at line ${i + 2}`).toEqual(whole);
    }
    expect(accepted).toBeGreaterThan(10);
  });

  it('gives the same in three parts', async () => {
    const file = join(ROOT, FILES[0]);
    const bytes = readFileSync(file);
    const spec = await specOf(file);
    const whole = view(await parseSource(job(spec)));
    const starts = lineStarts(bytes);
    let accepted = 0;
    for (let i = 70; i + 40 < starts.length; i += 13) {
      const ps = await parts(spec, [starts[i], starts[i + 37]], bytes.length, bytes.length, false);
      if (joinRefusal(ps) !== null) continue;
      accepted++;
      expect(view(joinParts(ps))).toEqual(whole);
    }
    expect(accepted).toBeGreaterThan(0);
  });

  it('tells in every part where the lines of the records kept as lines are (otherLines)', async () => {
    // The whole file's events with their JSON, and the parts' with most records as the places of their lines.
    const file = join(ROOT, FILES[0]);
    const bytes = readFileSync(file);
    const spec = await specOf(file);
    const whole = eventsOf(await parseSource(job(spec, true)));
    const starts = lineStarts(bytes);
    const ps = await parts(spec, [starts[230], starts[290]], bytes.length, bytes.length, true, true);
    expect(joinRefusal(ps)).toBeNull();
    const joined = joinParts(ps);
    const c = new SourceCursor(0, joined.spill, joined.tail, joined.more?.map((m) => ({ ...m })));
    const header = { kind: '', line: 0, level: null as string | null, type: 'other' as const };
    const line = { thread: null as string | null, logger: null as string | null, byteAt: 0, length: 0 };
    let n = 0;
    const inPart = [0, 0, 0];
    for (; c.next(); n++) {
      const r = c.binary();
      if (!r.isLine) {
        expect(`${c.ts}\t${encodeEvent(c.event(n))}`).toBe(whole[n]);
        continue;
      }
      r.header(header);
      r.line(line);
      inPart[line.byteAt < starts[230] ? 0 : line.byteAt < starts[290] ? 1 : 2]++;
      const text = bytes.toString('latin1', line.byteAt, line.byteAt + line.length);
      const e = { host: spec.host, kind: header.kind, file: spec.display, line: header.line, level: header.level, thread: line.thread, logger: line.logger, type: 'other', fields: {}, text };
      expect(`${c.ts}\t${JSON.stringify(e)}`).toBe(whole[n]);
    }
    expect(n).toBe(whole.length);
    // Some in each part.
    expect(Math.min(...inPart)).toBeGreaterThan(5);
  });

  it('refuses a cut before the layout is locked (the first part holds too few lines)', async () => {
    const file = join(ROOT, FILES[0]);
    const bytes = readFileSync(file);
    const spec = await specOf(file);
    const ps = await parts(spec, [lineStarts(bytes)[5]], bytes.length, bytes.length, false);
    expect(joinRefusal(ps)).toBe('no clean state at the cut');
  });
});

describe('findCuts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rmq-split-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('cuts at line starts that begin as the first line does, in order', () => {
    const file = join(dir, 'a.log');
    const lines: string[] = [];
    for (let i = 0; i < 5000; i++) lines.push(i % 3 ? `\tat frame ${i}` : `2024-05-20 08:00:00,000 INFO record ${i}`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    const size = readFileSync(file).length;
    const found = findCuts(file, size, 3)!;
    expect(found.cuts).toHaveLength(2);
    const text = readFileSync(file, 'latin1');
    for (const c of found.cuts) {
      expect(text[c - 1]).toBe('\n');
      expect(text.slice(c, c + 4)).toBe('2024');
    }
    expect(found.cuts[0]).toBeLessThan(found.cuts[1]);
    expect(found.headEnd).toBe(size);
  });

  it('looks past a UTF-8 byte-order mark for how the first line begins', () => {
    const file = join(dir, 'bom.log');
    const lines: string[] = [];
    for (let i = 0; i < 5000; i++) lines.push(i % 3 ? `\tat frame ${i}` : `2024-05-20 08:00:00,000 INFO record ${i}`);
    writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${lines.join('\n')}\n`)]));
    const size = readFileSync(file).length;
    const found = findCuts(file, size, 3)!;
    const text = readFileSync(file, 'latin1');
    expect(found.cuts).toHaveLength(2);
    for (const c of found.cuts) expect(text.slice(c, c + 4)).toBe('2024');
  });

  it('does not cut gzip or UTF-16 files, or one long line', () => {
    const gz = join(dir, 'b.log');
    writeFileSync(gz, Buffer.concat([Buffer.from([0x1f, 0x8b]), Buffer.alloc(100000, 65)]));
    expect(findCuts(gz, 100002, 2)).toBeNull();
    const one = join(dir, 'c.log');
    writeFileSync(one, Buffer.alloc(3 << 20, 65));
    expect(findCuts(one, 3 << 20, 2)).toBeNull();
  });
});

describe('buildTimeline with a split file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rmq-split-build-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A file over the paste size (8 MiB: pastes keep the reorder window, and are not split): a sample repeated. */
  function big(rel: string, name: string): string {
    const text = readFileSync(join(ROOT, rel));
    const file = join(dir, 'host-a', name);
    mkdirSync(join(dir, 'host-a'), { recursive: true });
    writeFileSync(file, Buffer.concat(Array.from({ length: Math.ceil((9 << 20) / text.length) }, () => text)));
    return file;
  }

  it('merges and accounts a split file as the whole one (cuts accepted or refused)', async () => {
    const files = [big(FILES[0], 'broker.log'), big(FILES[1], 'app.log'), big('samples/lab/namesrv-hang/app-feed-01/logs/rocketmqlogs/rocketmq_client.log', 'rocketmq_client.log')];
    for (const file of files) {
      const inputs = [file, join(ROOT, FILES[2])];
      const read = async (split?: { minBytes: number; parts: number }) => {
        const t = await buildTimeline({ inputs, workers: 0, split, keepOther: 'inference' });
        try {
          return { accounting: t.accounting, issues: t.issues, first: t.first, last: t.last, bytes: t.bytes, events: Array.from(t.encoded(), (m) => `${m.ts}\t${m.source}\t${m.seq}\t${m.json()}`) };
        } finally {
          t.close();
        }
      };
      const whole = await read();
      for (const parts of [2, 3]) expect(await read({ minBytes: 1, parts })).toEqual(whole);
    }
  });
});

describe('joinActivity', () => {
  it('gives what one tracker over the whole file gives, the cap on kept gaps included', () => {
    // Marks 40 s apart with runs of close ones: gaps past the cap of 10,000 are counted, not kept.
    const marks = Array.from({ length: 26000 }, (_, i) => ({ ts: i * 40000 - (i % 7 === 3 ? 25000 : 0) - (i % 11 === 0 ? 30000 : 0), line: i + 1 }));
    const track = (ms: typeof marks) => {
      const t = new ActivityTracker();
      for (const m of ms) t.note(m.ts, m.line);
      return t;
    };
    const whole = track(marks).result();
    expect(whole!.gapsDropped).toBeGreaterThan(0);
    for (const cut of [1, 2, 5000, 10000, 10001, 12345, 25999]) {
      const a = track(marks.slice(0, cut));
      const b = track(marks.slice(cut));
      expect(joinActivity(a.result(), a.edges(), b.result(), b.edges()), `cut ${cut}`).toEqual(whole);
    }
  });
});
