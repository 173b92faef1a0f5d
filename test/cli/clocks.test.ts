// analyze and the hosts' clocks, on real lab recordings (their hosts share one clock) and on the
// README's own --tz example: no warning where the clocks agree (every estimate holds 0 within its
// uncertainty), a warning with the option that fixes it where a host's files are read in the wrong
// zone or shifted, and the incident named over corrected times (--no-clock-fix keeps them).
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, run } from './helpers.js';
import type { ClockReport } from '../../src/report/summary.js';

const LAB = join(ROOT, 'samples', 'lab');
const SEED_LAB = join(LAB, 'seed-outage');
const SEED = join(ROOT, 'samples', 'seed-outage');

/** A clock as the JSON gives it: the report's own type (docs/json.md). */
type Clock = ClockReport;

async function analyzeJson(args: string[]) {
  const r = await run(['analyze', '--json', '--no-progress', ...args]);
  return { ...r, report: JSON.parse(r.stdout) as { clocks: Clock[]; incidents: Array<Record<string, any>> } };
}

const clockNotes = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('note: clock of '));

describe('analyze: clocks that agree', () => {
  // The lab runs every host in a network namespace of one machine: one clock.
  it.each(readdirSync(LAB).sort())('lab recording %s: every host within its uncertainty of 0, no warning', async (name) => {
    const { report, stderr } = await analyzeJson([join(LAB, name)]);
    expect(report.clocks.length).toBeGreaterThanOrEqual(3);
    for (const c of report.clocks) {
      expect(c.off, c.host).toBe(false);
      expect(c.lowMs, c.host).toBeLessThanOrEqual(0);
      expect(c.highMs, c.host).toBeGreaterThanOrEqual(0);
      expect(c.shiftedMs).toBe(0);
    }
    expect(clockNotes(stderr)).toEqual([]);
  });
});

describe('analyze: a host read in the wrong zone', () => {
  it("finds app-order-01 8 h ahead, says the --tz that reads it right, and names the incident as with its right zone", async () => {
    const plain = await analyzeJson([SEED_LAB]);
    const wrong = await analyzeJson(['--tz', '**/app-order-01/**=+00:00', SEED_LAB]);
    const c = wrong.report.clocks.find((x) => x.host === 'app-order-01')!;
    expect(c.off).toBe(true);
    expect(c.lowMs).toBeLessThanOrEqual(8 * 3600000);
    expect(c.highMs).toBeGreaterThanOrEqual(8 * 3600000);
    expect(c.offsetMs).toBe(8 * 3600000);
    expect(c.option).toBe("--tz '**/app-order-01/**=+08:00'");
    expect(c.shiftedMs).toBe(-8 * 3600000);
    expect(clockNotes(wrong.stderr)).toEqual([
      expect.stringMatching(/^note: clock of app-order-01 is 8 h ahead of mq-node-[ab]'s \(.*\): times of app-order-01 moved -8h by the clock estimate \(--tz '\*\*\/app-order-01\/\*\*=\+08:00' does the same\); --no-clock-fix to keep them$/),
    ]);
    expect(wrong.report.clocks.filter((x) => x.off).map((x) => x.host)).toEqual(['app-order-01']);
    // Moved by exactly the zone's 8 h: the incident is the one of the right zone.
    expect(wrong.report.incidents).toEqual(plain.report.incidents);
    expect(wrong.code).toBe(plain.code);
  });

  it('--no-clock-fix says it and keeps the times', async () => {
    const plain = await analyzeJson([SEED_LAB]);
    const kept = await analyzeJson(['--no-clock-fix', '--tz', '**/app-order-01/**=+00:00', SEED_LAB]);
    expect(kept.report.clocks.find((x) => x.host === 'app-order-01')).toMatchObject({ off: true, shiftedMs: 0 });
    expect(clockNotes(kept.stderr)).toEqual([expect.stringMatching(/: --tz '\*\*\/app-order-01\/\*\*=\+08:00' corrects it$/)]);
    expect(kept.report.incidents).not.toEqual(plain.report.incidents);
  });

  it("the README's --tz example now warns for both applications and names the outage at 14:42 for all", async () => {
    const plain = await analyzeJson([SEED]);
    const readme = await analyzeJson(['--tz', '**/app-*/**=+00:00', SEED]);
    expect(clockNotes(readme.stderr).map((l) => /^note: clock of \S+ is 8 h ahead/.exec(l)?.[0])).toEqual([
      'note: clock of app-order-01 is 8 h ahead',
      'note: clock of app-pay-01 is 8 h ahead',
    ]);
    expect(readme.report.incidents).toEqual(plain.report.incidents);
    expect(readme.code).toBe(plain.code);
    const text = await run(['analyze', '--no-progress', '--tz', '**/app-*/**=+00:00', SEED]);
    // The cause and the impact on one clock: no 22:42 anywhere in the incident.
    expect(text.stdout).toMatch(/impact +app-order-01 +72 sends lost, 14:42:11/);
    expect(text.stdout).not.toMatch(/22:4\d/);
    expect(text.stdout).toMatch(/^clock +clock of app-order-01 is 8 h ahead/m);
  });
});

/** A copy of a recording whose host's clock runs `ms` ahead: every time its log lines print moved by `ms` (the rest of each line kept). */
function skewedCopy(src: string, host: string, ms: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'rmq-skew-'));
  cpSync(src, dir, { recursive: true });
  const stamp = /^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)([,.])(\d{3})/gm;
  const move = (file: string) => {
    const text = readFileSync(file, 'utf8').replace(stamp, (_, t: string, sep: string, frac: string) => {
      // The recording's times are +08:00 (lab.json timeZone); printed again in the same zone.
      const at = new Date(Date.parse(`${t.replace(' ', 'T')}.${frac}+08:00`) + ms + 8 * 3600000).toISOString();
      return `${at.slice(0, 10)} ${at.slice(11, 19)}${sep}${at.slice(20, 23)}`;
    });
    writeFileSync(file, text);
  };
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) (e.isDirectory() ? walk : move)(join(d, e.name));
  };
  walk(join(dir, host));
  return dir;
}

describe('analyze: a host a few seconds off', () => {
  it('finds app-pay-01 running 7 s ahead, moves it back within a second, and says the --shift', async () => {
    const plain = await analyzeJson([SEED_LAB]);
    const dir = skewedCopy(SEED_LAB, 'app-pay-01', 7000);
    try {
      const skewed = await analyzeJson([dir]);
      const c = skewed.report.clocks.find((x) => x.host === 'app-pay-01')!;
      expect(c.off).toBe(true);
      expect(c.lowMs).toBeLessThanOrEqual(7000);
      expect(c.highMs).toBeGreaterThanOrEqual(7000);
      expect(c.option).toBe(`--shift app-pay-01=${c.shiftedMs < 0 ? '-' : '+'}${Math.abs(c.shiftedMs) / 1000}s`);
      expect(Math.abs(c.shiftedMs + 7000)).toBeLessThanOrEqual(Math.max(7000 - c.lowMs, c.highMs - 7000));
      expect(clockNotes(skewed.stderr)).toHaveLength(1);
      // The same incident, its app-pay-01 times within the estimate's uncertainty of the plain run's.
      const times = (r: typeof plain) => JSON.stringify(r.report.incidents).match(/\d{4}-\d\d-\d\dT[\d:.]+\+08:00/g)!.map((s) => Date.parse(s));
      const a = times(plain);
      const b = times(skewed);
      expect(b).toHaveLength(a.length);
      for (let i = 0; i < a.length; i++) expect(Math.abs(a[i] - b[i])).toBeLessThanOrEqual(c.highMs - c.lowMs);
      expect(skewed.code).toBe(plain.code);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("keeps the user's --shift: a host shifted 7 s is said to be off, and its times are not moved back", async () => {
    const shifted = await analyzeJson(['--shift', 'app-pay-01=+7s', SEED_LAB]);
    const c = shifted.report.clocks.find((x) => x.host === 'app-pay-01')!;
    expect(c.off).toBe(true);
    expect(c.shiftedMs).toBe(0);
    const notes = clockNotes(shifted.stderr);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/after the --shift given for it: its times kept as given \(--shift app-pay-01=-[\d.]+s more would correct it\)$/);
  });

  it('--shift is a usage error without a sign or a unit it knows', async () => {
    for (const bad of ['app-1=3s', 'app-1=+3x', '=+3s', 'app-1=+25h']) {
      const r = await run(['analyze', '--shift', bad, SEED]);
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toMatch(/--shift/);
    }
  });
});
