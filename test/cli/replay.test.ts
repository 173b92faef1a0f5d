// `rmq-diag replay` end to end: the seed outage reproduces (exit 0), what-ifs, JSON schema,
// determinism, scenario files (save, replay, bad fields), simulated logs read back by analyze, usage errors.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, run, runBin, type Run } from './helpers.js';

const SEED = join(ROOT, 'samples', 'seed-outage');
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+08:00$/;

describe('rmq-diag replay on the seed outage', () => {
  let dir: string;
  let text: Run;
  let json: Run;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rmq-replay-'));
    // Wide, so that each table row is one line (test/cli/widths.test.ts checks the fitting).
    text = await run(['replay', SEED, '--set', 'clientCloseSocketIfTimeout=true', '--what-if', 'namesrvOnOwnHosts=true', '--save-scenario', join(dir, 's.json')], { env: { COLUMNS: '200' } });
    json = await run(['replay', SEED, '--json', '--set', 'clientCloseSocketIfTimeout=true', '--what-if', 'namesrvOnOwnHosts=true']);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints the verdict, the seed, milestones side by side and the what-if table; exit 0', () => {
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^rmq-diag replay: reproduced \(seed 1\)/);
    expect(text.stdout).toMatch(/fault start\s+mq-node-100 unreachable\s+14:42:00\.000\s+14:42:00\.000/);
    expect(text.stdout).toMatch(/NameServer switch\s+app-order-01 to 192\.168\.3\.101:9876/);
    expect(text.stdout).toMatch(/verdict\s+reproduced/);
    expect(text.stdout).toMatch(/what-if .*\n\s+baseline\s+clientCloseSocketIfTimeout=true\s+namesrvOnOwnHosts=true/);
    expect(text.stdout).toContain(`scenario written to ${join(dir, 's.json')}`);
  });

  it('--json follows the documented schema', () => {
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.stdout);
    expect(doc.schemaVersion).toBe(1);
    expect(doc.seed).toBe(1);
    expect(doc.verdict).toBe('reproduced');
    expect(doc.scenario.clients.map((c: { host: string }) => c.host)).toEqual(['app-order-01', 'app-pay-01']);
    for (const m of doc.milestones) {
      expect(Object.keys(m)).toEqual(expect.arrayContaining(['name', 'subject', 'observed', 'simulated', 'deltaMs']));
      if (m.observed !== null) expect(m.observed).toMatch(ISO);
      if (m.simulated !== null) expect(m.simulated).toMatch(ISO);
    }
    expect(doc.outages).toEqual(
      expect.arrayContaining([expect.objectContaining({ client: 'app-order-01', observedMs: expect.any(Number), simulatedMs: expect.any(Number) })]),
    );
    expect(doc.whatIf).toHaveLength(2);
    expect(doc.whatIf[0].set).toEqual({ clientCloseSocketIfTimeout: 'true' });
    const order = doc.whatIf[0].outages.find((o: { client: string }) => o.client === 'app-order-01');
    expect(order.simulatedMs).toBeLessThanOrEqual(165000);
    expect(doc.whatIf[1].outages.find((o: { client: string }) => o.client === 'app-order-01').simulatedMs).toBeLessThanOrEqual(165000);
    expect(typeof doc.whatIf[0].failedSends).toBe('number');
    expect(doc.provenance['scenario.faults[0]'].evidence.length).toBeGreaterThan(0);
  });

  it('is deterministic: the same seed gives the same bytes', async () => {
    const again = await run(['replay', SEED, '--json', '--set', 'clientCloseSocketIfTimeout=true', '--what-if', 'namesrvOnOwnHosts=true']);
    expect(again.stdout).toBe(json.stdout);
    const seeded = await run(['replay', SEED, '--json', '--seed', '7']);
    expect(JSON.parse(seeded.stdout).seed).toBe(7);
  });

  it('replays a saved scenario file to the same result', async () => {
    const r = await run(['replay', join(dir, 's.json'), '--json', '--set', 'clientCloseSocketIfTimeout=true', '--what-if', 'namesrvOnOwnHosts=true']);
    expect(r.code).toBe(0);
    const a = JSON.parse(json.stdout);
    const b = JSON.parse(r.stdout);
    for (const k of ['scenario', 'milestones', 'verdict', 'outages', 'whatIf', 'busy']) expect(b[k]).toEqual(a[k]);
    expect(b.source).toContain('s.json');
  });

  it('reports a bad field of an edited scenario file in one line, exit 2', async () => {
    const file = JSON.parse(readFileSync(join(dir, 's.json'), 'utf8'));
    file.scenario.clients[1].namesrvAddrList = '192.168.3.101:9876';
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify(file));
    const r = await run(['replay', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`rmq-diag: ${bad}: scenario.clients[1].namesrvAddrList: expected an array of addresses\n`);
    writeFileSync(bad, '{ "scenario": ');
    const broken = await run(['replay', bad]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/not valid JSON/);
  });

  it('an edited scenario that no longer matches the logs is not reproduced: exit 1', async () => {
    const file = JSON.parse(readFileSync(join(dir, 's.json'), 'utf8'));
    file.scenario.clients[0].namesrv = '192.168.3.101:9876';
    const edited = join(dir, 'edited.json');
    writeFileSync(edited, JSON.stringify(file));
    const r = await run(['replay', edited]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/verdict\s+not reproduced/);
    expect(r.stdout).toMatch(/- namesrv-switch app-order-01: in the logs, not in the simulation/);
  });

  it('--emit-logs writes logs that analyze reads back: namesrv-stuck and stale-route', async () => {
    const out = join(dir, 'sim');
    const r = await run(['replay', join(dir, 's.json'), '--emit-logs', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/simulated logs: \d+ files under/);
    expect(readFileSync(join(out, 'app-order-01', 'rocketmq_client.log'), 'utf8')).toContain('\r\n');
    const a = await run(['analyze', out, '--json']);
    const rules = new Set(JSON.parse(a.stdout).findings.map((f: { rule: string }) => f.rule));
    expect(rules.has('namesrv-stuck')).toBe(true);
    expect(rules.has('stale-route')).toBe(true);
  });
});

describe('rmq-diag replay usage', () => {
  it('documents its options with examples', () => {
    // Help goes to the process's stdout: the built executable (npm test builds it first).
    const r = runBin(['replay', '--help']);
    expect(r.code).toBe(0);
    for (const o of ['--seed', '--until', '--set', '--what-if', '--runs', '--json', '--save-scenario', '--emit-logs']) expect(r.stdout).toContain(o);
    expect(r.stdout).toContain('Examples:');
  });

  it.each([
    [['replay', SEED, '--set', 'closeSocket=true'], /--set closeSocket=true: unknown setting closeSocket/],
    [['replay', SEED, '--set', 'app-x.clientVersion=4.9.4'], /no client app-x \(clients: app-order-01, app-pay-01\)/],
    [['replay', SEED, '--runs', '-1'], /--runs must be a whole number/],
    [['replay', SEED, '--until', 'soon'], /--until soon/],
    [['replay'], /no input/],
  ])('exit 2 for %j', async (args, message) => {
    const r = await run(args as string[]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});
