// Replay's limits through the built executable: lengths and scenario numbers past them are refused
// with one line naming the field (exit 2), and logs longer than a run may last are replayed for the
// longest run allowed, never grown without bound.

import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runBin } from './helpers.js';

// Inputs written for these tests are removed after them (some are tens of MB).
const madeDirs: string[] = [];
const made = (dir: string): string => (madeDirs.push(dir), dir);
afterAll(() => {
  for (const d of madeDirs) rmSync(d, { recursive: true, force: true });
});

const SEED = join(ROOT, 'samples', 'seed-outage');
const tmp = () => made(mkdtempSync(join(tmpdir(), 'rmq-limits-')));

function savedScenario(): { path: string; json: any } {
  const path = join(tmp(), 's.json');
  const r = runBin(['replay', SEED, '--save-scenario', path]);
  expect(r.code).toBe(0);
  return { path, json: JSON.parse(readFileSync(path, 'utf8')) };
}

function expectRefused(args: string[], message: RegExp): void {
  const r = runBin(args);
  expect(r.code, r.stderr).toBe(2);
  const lines = r.stderr.split('\n').filter((l) => l && !l.startsWith('note: '));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(message);
}

describe('replay limits', () => {
  it('--until 87600h is refused, naming the limit and --max-span', () => {
    expectRefused(['replay', SEED, '--until', '87600h'], /^rmq-diag: --until 87600h: a run of 3,650 days is past the limit of 6 h \(raise it with --max-span\)$/);
    // the limit is the flag's: a run past it is refused, one within it goes
    expectRefused(['replay', SEED, '--until', '40m', '--max-span', '30m'], /^rmq-diag: --until 40m: a run of 40 min is past the limit of 30 min \(raise it with --max-span\)$/);
    const r = runBin(['replay', SEED, '--until', '40m', '--max-span', '45m', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).run.untilMs).toBe(40 * 60000);
  });

  it('a send rate of 1e308 is refused with the field named (scenario file and what-if)', () => {
    const { json } = savedScenario();
    json.scenario.clients[0].sendRatePerSec = 1e308;
    delete json.scenario.clients[0].sendTimesMs;
    const file = join(tmp(), 'rate.json');
    writeFileSync(file, JSON.stringify(json));
    expectRefused(['replay', file], /^rmq-diag: .*rate\.json: scenario\.clients\[0\]\.sendRatePerSec: expected a number from 0 to 10,000 \(got 1e\+308\)$/);
    expectRefused(['replay', SEED, '--what-if', 'sendRatePerSec=1e308'], /sendRatePerSec/);
  });

  it('a scenario with a million clients is refused, not a stack overflow', () => {
    const clients = Array.from({ length: 1_000_000 }, (_, i) => `{"host":"app-${i}","version":"4.9.4","topic":"TBW102","sendRatePerSec":0}`);
    const file = join(tmp(), 'million.json');
    writeFileSync(
      file,
      `{"startEpochMs":1608618840000,"nameServers":[{"addr":"10.0.0.1:9876","host":"ns-1"}],"brokers":[{"name":"broker-a","addr":"10.0.0.2:10911","host":"b-1"}],"topics":[],"clients":[${clients.join(',')}]}`,
    );
    expectRefused(['replay', file], /^rmq-diag: .*million\.json: scenario\.clients: 1,000,000 clients is past the limit of 10,000$/);
  });

  it('one log line dated 2100 does not make the run last 80 years: it is cut to the longest run, with a note', () => {
    const dir = tmp();
    cpSync(SEED, dir, { recursive: true });
    appendFileSync(join(dir, 'mq-node-101', 'broker.log'), '2100-01-01 10:00:00 INFO main - a line from a clock gone wrong\n');
    const r = runBin(['replay', dir, '--json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.run.untilMs).toBe(6 * 3600000);
    expect(doc.verdict).toBe('reproduced');
    expect(doc.notes.join('\n')).toMatch(/the logs span [\d,]+ days \(to 2100-01-01\), longer than a run may last: read and replayed for their first 6 h/);
  });
});
