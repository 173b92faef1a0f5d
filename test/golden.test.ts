// The golden outputs (scripts/golden.mjs): the JSON of every bundled sample and real fixture is
// byte-identical to test/golden/. Runs the built CLI (dist/ is built by `npm test`'s pretest): its
// main() in a host process that loads it once (startHost: most of a process's cost on these inputs
// is starting Node), and a few outputs in a process of their own, which must give the same bytes.
// An intended change of output: `node scripts/golden.mjs --write`, and the commit says why.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script, no declarations
import { compare, digest, firstDifference, normalise, outputs, runAll, runOne, write } from '../scripts/golden.mjs';

interface Result {
  name: string;
  cmd: string;
  input: string;
  full: boolean;
  file: string;
  code?: number;
  text?: string;
  error?: string;
}

describe('golden outputs', () => {
  it('every sample and fixture gives the pinned analyze, replay and events output', async () => {
    const results: Result[] = await runAll({ jobs: 2 });
    const diffs: { name: string; what: string }[] = compare(results);
    expect(diffs.map((d) => `${d.name}: ${d.what}`)).toEqual([]);
  }, 600_000);

  it('analyze gives them with the parse in workers and the rules in a thread of their own (--jobs 2)', async () => {
    // Every sample folder and lab recording (many files, where the parse goes to workers), and every
    // fourth real fixture (one small file each: what they add is the rules' thread, which each of
    // them starts the same way; all of them cost a minute of the suite's ten).
    const fixtures = outputs()
      .filter((o: Result) => o.cmd === 'analyze' && o.input.startsWith('test/fixtures/'))
      .map((o: Result) => o.name)
      .sort();
    const some = new Set(fixtures.filter((_: string, i: number) => i % 4 === 0));
    const results: Result[] = await runAll({ jobs: 2, cmds: ['analyze'], extra: ['--jobs', '2'], only: (o: Result) => o.input.startsWith('samples/') || some.has(o.name) });
    expect(results.filter((r) => r.name.startsWith('analyze samples/')).length).toBeGreaterThanOrEqual(28);
    expect(results.filter((r) => r.name.startsWith('analyze test/fixtures/')).length).toBeGreaterThanOrEqual(15);
    const diffs: { name: string; what: string }[] = compare(results, undefined, { partial: true });
    expect(diffs.map((d) => `${d.name}: ${d.what}`)).toEqual([]);
  }, 600_000);

  it('the host gives what bin/rmq-diag.js gives in a process of its own, byte for byte', async () => {
    // One output of each command, a real fixture, and analyze --jobs 2 (worker threads started from
    // the host): if the host ever differed from the executable, these would differ from the pins.
    const pick = ['analyze samples/lab/crash', 'replay samples/broker-busy', 'events samples/healthy-restart'];
    const all: Result[] = outputs();
    const fixture = all.find((o) => o.cmd === 'analyze' && o.input.startsWith('test/fixtures/real/'));
    const chosen = [...all.filter((o) => pick.includes(o.name)), fixture!];
    expect(chosen.length).toBe(4);
    const spawned: Result[] = await Promise.all([...chosen.map((o) => runOne(o)), runOne(chosen[0], undefined, ['--jobs', '2'])]);
    expect(spawned.every((r) => r.text !== undefined && r.text.length > 0)).toBe(true);
    expect(compare(spawned, undefined, { partial: true })).toEqual([]);
  }, 120_000);

  it('cover every sample folder, lab recording and real fixture', () => {
    const names: string[] = outputs().map((o: Result) => o.name);
    for (const n of ['analyze samples/seed-outage', 'replay samples/broker-busy', 'events samples/healthy-restart', 'replay samples/lab/crash', 'events samples/lab/selector']) {
      expect(names).toContain(n);
    }
    expect(names.filter((n) => n.startsWith('analyze test/fixtures/real/')).length).toBeGreaterThanOrEqual(40);
    expect(names.some((n) => n.includes('SOURCES.md'))).toBe(false);
    expect(names.some((n) => n.startsWith('replay test/'))).toBe(false);
  });
});

describe('golden comparison', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const tmp = () => {
    const d = mkdtempSync(join(tmpdir(), 'golden-test-'));
    dirs.push(d);
    return d;
  };
  const result = (cmd: string, input: string, text: string, code = 0): Result => ({ name: `${cmd} ${input}`, cmd, input, full: cmd !== 'events', file: `${input}.${cmd}.json`, code, text });

  it('names the first differing line of a full report', () => {
    expect(firstDifference('a\nb\nc\n', 'a\nb\nc\n')).toBeNull();
    expect(firstDifference('a\nb\nc\n', 'a\nB\nc\n')).toEqual({ line: 2, want: 'b', got: 'B' });
    expect(firstDifference('a\n', 'a\nb\n')).toEqual({ line: 2, want: '<end of file>', got: 'b' });
    expect(firstDifference('a\nb', 'a\nb\n')).toEqual({ line: 2, want: '<no newline at end>', got: '<newline at end>' });
  });

  it('counts lines and hashes the exact bytes', () => {
    expect(digest('x\ny\n').lines).toBe(2);
    expect(digest('x\ny').lines).toBe(2);
    expect(digest('x\n').sha256).not.toBe(digest('x\n\n').sha256);
  });

  it('normalises the repository path only', () => {
    expect(normalise('{"path":"/r/oot/samples/a.log","text":"/tmp/x /r/oot"}', '/r/oot')).toBe('{"path":"<repo>/samples/a.log","text":"/tmp/x <repo>"}');
  });

  it('reports changed, missing, new and stale outputs, and a changed exit code', () => {
    const dir = tmp();
    const pinned = [result('analyze', 'samples/a', '{\n  "x": 1\n}\n', 1), result('events', 'samples/a', '{"e":1}\n'), result('analyze', 'samples/b', '{}\n')];
    write(pinned, dir);
    expect(compare(pinned, dir)).toEqual([]);
    writeFileSync(join(dir, 'samples', 'stale.analyze.json'), '{}\n');
    mkdirSync(join(dir, 'fixtures'), { recursive: true });
    const now = [result('analyze', 'samples/a', '{\n  "x": 2\n}\n', 0), result('events', 'samples/a', '{"e":2}\n'), result('analyze', 'samples/c', '{}\n')];
    expect(compare(now, dir).map((d: { name: string; what: string }) => `${d.name}: ${d.what}`)).toEqual([
      'analyze samples/a: exit code 0, golden 1; line 2: golden "  \\"x\\": 1", now "  \\"x\\": 2"',
      'events samples/a: sha256 differs (1 lines, golden 1)',
      'analyze samples/c: not in the golden files',
      'analyze samples/b: in the golden files, no longer produced',
      'test/golden/samples/b.analyze.json: stale golden file, no output writes it',
      'test/golden/samples/stale.analyze.json: stale golden file, no output writes it',
    ]);
  });

  it('reports a command that failed', () => {
    const dir = tmp();
    write([result('events', 'x', '')], dir);
    expect(compare([{ ...result('events', 'x', ''), error: 'exited 2: rmq-diag: nothing could be read from x' }], dir)).toEqual([{ name: 'events x', what: 'exited 2: rmq-diag: nothing could be read from x' }]);
  });
});
