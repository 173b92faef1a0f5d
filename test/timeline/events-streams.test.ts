// Events files as they arrive from a fleet (src/timeline/events-input.ts): several hosts' files in one
// stream (`cat`, a gzip of several members), a host's given twice, a file of another schemaVersion,
// damaged lines: each read as the files they are, or said in a note (docs/json.md, "Events as input").
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { run, runBin } from '../cli/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'rmq-diag-events-streams-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Each host of the hang-5x recording parsed on its own, as a fleet does. */
const hosts = ['app-order-01', 'app-pay-01', 'mq-broker-a', 'mq-ns-1', 'mq-ns-2'];
const texts = hosts.map((h) => {
  const r = runBin(['events', `samples/lab/hang-5x/${h}`, '--format', 'events']);
  if (r.code !== 0) throw new Error(r.stderr);
  return r.stdout;
});
const files = hosts.map((h, i) => {
  const f = join(dir, `${h}.events`);
  writeFileSync(f, texts[i]);
  return f;
});
const file = (name: string, content: string | Buffer) => {
  const f = join(dir, name);
  writeFileSync(f, content);
  return f;
};
const analyze = (...inputs: string[]) => run(['analyze', ...inputs, '--json']);
const notes = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('note: '));
/** The report without its notes (they are on stderr too). */
const report = (stdout: string) => JSON.stringify(JSON.parse(stdout, (k, v) => (k === 'issues' ? undefined : v)));

describe("several hosts' events files", () => {
  it('joined with cat, or in a gzip of several members, give the report the files give one by one, without a note', async () => {
    const apart = await analyze(...files);
    expect(apart.code).toBe(1);
    expect(JSON.parse(apart.stdout).findings.length).toBeGreaterThan(2);
    const joined = file('all.events', texts.join(''));
    const members = file('all.events.gz', Buffer.concat(texts.map((t) => gzipSync(t))));
    for (const f of [joined, members]) {
      const r = await analyze(f);
      expect(r.stdout, f).toBe(apart.stdout);
      expect(notes(r.stderr), f).toEqual(notes(apart.stderr));
    }
  });

  it('given twice (a copy of a file, or the same content joined twice) are read once, with one note', async () => {
    const once = await analyze(...files);
    const twice = await analyze(...files, file('copy.events', texts[1]));
    expect(report(twice.stdout)).toBe(report(once.stdout));
    expect(notes(twice.stderr)).toEqual([...notes(once.stderr), expect.stringMatching(/copy\.events: holds the events of 2 logs that .*app-pay-01\.events holds too .*: read once$/)]);
    const doubled = file('doubled.events', texts.join('') + texts.join(''));
    const r = await analyze(doubled);
    expect(report(r.stdout)).toBe(report(once.stdout));
    expect(notes(r.stderr)).toEqual([...notes(once.stderr), expect.stringMatching(/doubled\.events: holds the events of \d+ logs twice .*: read once$/)]);
  });

  it('two readings of the same log that differ keep the longer, with a note', async () => {
    // The same host parsed again after its log was cut short: fewer lines.
    const lines = texts[1].trimEnd().split('\n');
    const summary = JSON.parse(lines[lines.length - 1]);
    const input = summary.summary.inputs[1];
    input.lines -= 1;
    input.continuation -= 1;
    const older = file('older.events', [...lines.slice(0, -1), JSON.stringify(summary)].join('\n') + '\n');
    const once = await analyze(...files);
    const r = await analyze(...files, older);
    expect(report(r.stdout)).toBe(report(once.stdout));
    expect(notes(r.stderr).filter((n) => n.includes('two different readings'))).toEqual([expect.stringContaining(`app-pay-01 ${input.path}: two different readings of this log`)]);
  });
});

describe('an events file of another version or damaged', () => {
  const lines = texts[1].trimEnd().split('\n');
  it('of another schemaVersion (or none) is refused with one line, exit 2', async () => {
    for (const v of [0, 2, 99, undefined]) {
      const summary = JSON.parse(lines[lines.length - 1]);
      summary.schemaVersion = v;
      const f = file(`v${v}.events`, [...lines.slice(0, -1), JSON.stringify(summary)].join('\n') + '\n');
      const r = await analyze(f);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(new RegExp(`^rmq-diag: .*v${v}\\.events line ${lines.length}: .*schemaVersion.* reads events files of schemaVersion 1`))]);
    }
  });

  it('has each damaged line said with its file and line, the rest read, and the lines counted as unreadable', async () => {
    const bad = [...lines];
    const at = [4, 9, 30];
    const e = JSON.parse(bad[at[0] - 1]);
    delete e.fields;
    bad[at[0] - 1] = JSON.stringify(e);
    bad[at[1] - 1] = 'null';
    bad[at[2] - 1] = bad[at[2] - 1].slice(0, 40);
    const f = file('damaged.events', bad.join('\n') + '\n');
    const r = await analyze(f);
    expect([0, 1]).toContain(r.code);
    expect(r.stderr).not.toMatch(/internal error|TypeError|undefined|NaN|\n\s+at /);
    expect(notes(r.stderr)).toEqual([
      `note: ${f}:4: not a line of rmq-diag events (fields is missing): skipped`,
      `note: ${f}:9: not a line of rmq-diag events (null, not an object): skipped`,
      `note: ${f}:30: not a line of rmq-diag events (not JSON): skipped`,
    ]);
    const report = JSON.parse(r.stdout);
    const own = report.inputs.find((i: { path: string }) => i.path === f);
    expect(own).toMatchObject({ lines: 3, unreadable: 3, records: 0 });
    // Every other line read: the intact file's events less the three.
    const intact = JSON.parse((await analyze(files[1])).stdout);
    const count = (rep: { inputs: Array<{ path: string; events: number }> }) => rep.inputs.filter((i) => i.path !== f).reduce((a, i) => a + i.events, 0);
    expect(count(report)).toBe(count(intact));
  });

  it('with a line before the events (a shell wrote one) is read as events, that line a note', async () => {
    const f = file('prefixed.events', `+ rmq-diag events logs --format events\n${texts[1]}`);
    const r = await analyze(f);
    expect(notes(r.stderr)).toEqual([`note: ${f}:1: not a line of rmq-diag events (not JSON): skipped`]);
    expect(JSON.parse(r.stdout).findings).toEqual(JSON.parse((await analyze(files[1])).stdout).findings);
  });

  it('with lines moved out of their log\'s order, or a line repeated, says so', async () => {
    // Two events of the same log swapped, and a line given twice.
    const src = JSON.parse(lines[0]).file;
    const same = lines.map((l, i) => [l, i] as const).filter(([l]) => l.includes(`"file":${JSON.stringify(src)}`) && !l.includes('"time":null'));
    const [a, b] = [same[10][1], same[11][1]];
    const moved = [...lines];
    [moved[a], moved[b]] = [moved[b], moved[a]];
    moved.splice(40, 0, moved[40]);
    const f = file('moved.events', moved.join('\n') + '\n');
    const r = await analyze(f);
    const said = notes(r.stderr);
    expect(said).toContainEqual(expect.stringMatching(new RegExp(`^note: .*moved\\.events:${Math.min(a, b) + 2}: an event before the one above it in its log`)));
    expect(said).toContainEqual(`note: ${f}:${a < 40 && b < 40 ? 42 : 41}: the line above it again: read once`);
  });
});
