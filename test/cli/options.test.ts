// Options take one value each (repeat the flag for more), so paths may follow any of them; `--`
// ends the options. Through the built CLI, its main() in a host process that loads dist/ once
// (useHost).
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, ndjson, useHost } from './helpers.js';

const cli = useHost();

const SAMPLE = 'samples/seed-outage/';
const summaryOf = (stdout: string) => ndjson(stdout).find((l) => l.type === 'summary' || l.schemaVersion !== undefined)!;

describe('options take one value each', () => {
  it("`analyze --tz '**/app-*/**=+00:00' incident/` reads the folder as the input", async () => {
    const r = await cli(['analyze', '--tz', '**/app-*/**=+00:00', SAMPLE, '--json']);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(doc.summary.hosts).toEqual(['app-order-01', 'app-pay-01', 'mq-node-100', 'mq-node-101']);
    // The app hosts' client logs were read as UTC: their first events are 8 hours later.
    const e = await cli(['events', '--tz', '**/app-*/**=+00:00', '--type', 'send-attempt-failed', SAMPLE, '--json']);
    const first = ndjson(e.stdout).find((x) => x.host === 'app-pay-01')!;
    expect(first.time).toMatch(/^2020-12-22T22:42:03/);
  });

  const cases: Array<[string, string[]]> = [
    ['--kind', ['events', '--kind', '**/broker.log=broker', SAMPLE, '--json']],
    ['--host', ['events', '--host', '**/mq-node-100/**=node-a', SAMPLE, '--json']],
    ['--tz', ['events', '--tz', '+08:00', SAMPLE, '--json']],
    ['--type', ['events', '--type', 'busy-reply', SAMPLE, '--json']],
    ['--rule', ['analyze', '--rule', 'stale-route', SAMPLE, '--json']],
    ['--no-rule', ['analyze', '--no-rule', 'stale-route', SAMPLE, '--json']],
    ['--set', ['analyze', '--set', 'minTimeouts=3', SAMPLE, '--json']],
  ];
  for (const [flag, args] of cases) {
    it(`${flag} VALUE PATH reads PATH`, async () => {
      const r = await cli(args);
      expect(r.code, r.stderr).toBeLessThanOrEqual(1);
      const doc = args[0] === 'analyze' ? JSON.parse(r.stdout) : summaryOf(r.stdout).summary;
      expect(args[0] === 'analyze' ? doc.summary.totals.files : doc.inputs.length).toBe(14);
    });
  }

  it('--set and --what-if of replay, then a path', async () => {
    const r = await cli(['replay', '--what-if', 'namesrvOnOwnHosts=true', '--set', 'clientCloseSocketIfTimeout=true', SAMPLE, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).whatIf.map((v: { label: string }) => v.label)).toEqual(['clientCloseSocketIfTimeout=true', 'namesrvOnOwnHosts=true']);
  });

  it('repeating a flag gives more values', async () => {
    const r = await cli(['events', '--type', 'send-attempt-failed', '--type', 'rpc-timeout', SAMPLE, '--json']);
    const types = new Set(ndjson(r.stdout).filter((x) => x.type !== 'summary' && x.schemaVersion === undefined).map((x) => x.type));
    expect([...types].sort()).toEqual(['rpc-timeout', 'send-attempt-failed']);
  });
});

describe('--', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rmq-diag-dashdash-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  copyFileSync(join(ROOT, 'samples', 'seed-outage', 'mq-node-101', 'broker.log'), join(dir, '--odd.log'));

  it('ends the options: a path that starts with - is read', async () => {
    const r = await cli(['events', '--json', '--', '--odd.log'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(summaryOf(r.stdout).summary.inputs.map((i: { path: string }) => i.path)).toEqual(['--odd.log']);
    const bare = await cli(['events', '--odd.log'], { cwd: dir });
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/^rmq-diag: Unknown argument: odd$/m);
  });
});
