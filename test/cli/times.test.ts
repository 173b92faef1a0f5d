// `--since` / `--until` read the same way in every command: impossible and reversed times are usage
// errors (before any input is read), relative and ISO times work; a replay whose run holds no fault
// says so and is never called reproduced. Through the built CLI, its main() in a host process that
// loads dist/ once (useHost).
import { describe, expect, it } from 'vitest';
import { ndjson, useHost } from './helpers.js';

const cli = useHost();

const SAMPLE = 'samples/seed-outage/';
const events = (stdout: string) => ndjson(stdout).filter((l) => l.schemaVersion === undefined && l.type !== 'summary');

describe('times on the command line', () => {
  it('an impossible time is a usage error, said before any input is read', async () => {
    for (const [args, msg] of [
      [['events', 'nope/', '--since', '25:99'], 'rmq-diag: --since 25:99: "25:99" is not a time: hour 25 (00-23)'],
      [['events', 'nope/', '--until', '2020-02-30 10:00'], 'rmq-diag: --until 2020-02-30 10:00: "2020-02-30 10:00" is not a date: 2020-02 has 29 days'],
      [['replay', 'nope/', '--until', '99:99'], 'rmq-diag: --until 99:99: "99:99" is not a time: hour 99 (00-23)'],
    ] as const) {
      const r = await cli([...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      // `nope/` does not exist: no note about it means nothing was read.
      expect(r.stderr).toBe(`${msg}\n`);
    }
  });

  it('a reversed window is a usage error', async () => {
    const r = await cli(['events', SAMPLE, '--since', '14:40', '--until', '14:30']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^rmq-diag: --since 14:40 is after --until 14:30: nothing can be between them$/m);
  });

  it('relative, ISO and local times select the same events', async () => {
    const rel = await cli(['events', SAMPLE, '--json', '--since', '+5m', '--until', '-10m']);
    const iso = await cli(['events', SAMPLE, '--json', '--since', '2020-12-22T06:40:00Z', '--until', '2020-12-22T14:49:59+08:00']);
    const local = await cli(['events', SAMPLE, '--json', '--since', '14:40', '--until', '2020-12-22 14:49:59']);
    expect(rel.code).toBe(0);
    const a = events(rel.stdout);
    expect(a.length).toBeGreaterThan(100);
    expect(a[0].time >= '2020-12-22T14:40:00.000+08:00').toBe(true);
    expect(a[a.length - 1].time <= '2020-12-22T14:49:59.000+08:00').toBe(true);
    expect(events(iso.stdout)).toEqual(a);
    expect(events(local.stdout)).toEqual(a);
  });

  it('replay --until accepts the same forms; a run that ends before the fault is not called reproduced', async () => {
    for (const until of ['5m', '+5m', '14:39', '-20m']) {
      const r = await cli(['replay', SAMPLE, '--until', until], { env: { COLUMNS: '200' } });
      expect(r.code, until).toBe(1);
      expect(r.stdout).toMatch(/^rmq-diag replay: nothing compared \(seed 1\)$/m);
      expect(r.stdout).toMatch(/^verdict {2}nothing compared: the run \(14:34:00\.000 \.\. 14:39:(00|59)\.000\) holds no fault: the first starts at 14:42:00\.000/m);
      expect(r.stdout).not.toMatch(/(verdict|replay:) +reproduced/);
    }
    const j = await cli(['replay', SAMPLE, '--until', '5m', '--json']);
    expect(JSON.parse(j.stdout).verdict).toBe('nothing-compared');
    const iso = await cli(['replay', SAMPLE, '--until', '2020-12-22T07:00:00Z'], { env: { COLUMNS: '200' } });
    expect(iso.code).toBe(0);
    expect(iso.stdout).toMatch(/^verdict {2}reproduced: 12 milestones within tolerance$/m);
  });
});
