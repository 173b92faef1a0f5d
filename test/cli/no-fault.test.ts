// Logs of a healthy cluster (the lab's crash recording up to 30 s before its crash, every host's
// files cut there): analyze names no incident, and replay says there is nothing to reproduce
// instead of calling anything reproduced.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, run } from './helpers.js';

const SRC = join(ROOT, 'samples', 'lab', 'crash');
/** 30 s before the crash (lab.json: 19:01:40.567 +08:00); every layout of the recording starts lines with this date form. */
const CUT = '2026-12-01 19:01:10';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]));
}

describe('logs that hold no fault', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rmq-diag-healthy-'));
    for (const f of files(SRC).filter((f) => f.endsWith('.log'))) {
      const lines = readFileSync(f, 'utf8').split('\n');
      // Keep each record before the cut with its continuation lines.
      const end = lines.findIndex((l) => /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/.test(l) && l.slice(0, CUT.length) >= CUT);
      const out = join(dir, relative(SRC, f));
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, (end < 0 ? lines : lines.slice(0, end)).join('\n'));
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('analyze names no incident', async () => {
    const r = await run(['analyze', dir, '--json']);
    const doc = JSON.parse(r.stdout);
    expect(doc.summary.totals.events).toBeGreaterThan(100);
    expect(doc.incidents).toEqual([]);
    const text = await run(['analyze', dir]);
    expect(text.stdout).not.toMatch(/INCIDENT/);
  });

  it('replay says the logs show no fault, and never that something was reproduced', async () => {
    const r = await run(['replay', dir]);
    expect(r.stdout).toMatch(/^rmq-diag replay: nothing compared/m);
    const unwrapped = r.stdout.replace(/\n {9}/g, ' ');
    expect(unwrapped).toMatch(/^verdict {2}nothing compared: the logs show no fault \(no hang, crash, restart, overload or stall was inferred\)/m);
    expect(r.stdout).not.toMatch(/reproduced:/);
    const j = JSON.parse((await run(['replay', dir, '--json'])).stdout);
    expect(j.scenario.faults).toEqual([]);
    expect(j.verdict).toBe('nothing-compared');
  });
});
