// Issue acceptance at the command line: the bundled samples give the findings they should.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, run } from '../cli/helpers.js';

/**
 * `analyze samples/SAMPLE --json ARGS`. With no ARGS, its golden file and exit code (test/golden/),
 * which test/golden.test.ts holds to the built CLI's output byte for byte: that run is not done twice.
 */
async function analyze(sample: string, ...args: string[]) {
  if (!args.length) {
    const name = `analyze samples/${sample}`;
    const line = readFileSync(join(ROOT, 'test', 'golden', 'outputs.txt'), 'utf8').split('\n').find((l) => l.endsWith(` ${name}`));
    expect(line, `${name} in test/golden/outputs.txt`).toBeDefined();
    return { code: Number(line!.split(' ')[0]), report: JSON.parse(readFileSync(join(ROOT, 'test', 'golden', 'samples', `${sample}.analyze.json`), 'utf8')) };
  }
  const r = await run(['analyze', `samples/${sample}`, '--json', ...args]);
  return { code: r.code, report: JSON.parse(r.stdout) };
}

describe('analyze the seed outage', () => {
  it('names the stuck client, both stale routes, an expiry, and the co-located NameServer', async () => {
    const { code, report } = await analyze('seed-outage');
    expect(code).toBe(1);
    const by = (rule: string) => report.findings.filter((f: any) => f.rule === rule);

    const stuck = by('namesrv-stuck');
    expect(stuck).toHaveLength(1);
    expect(stuck[0]).toMatchObject({ severity: 'critical', subject: { client: 'app-order-01', namesrvAddr: '192.168.3.100:9876' } });
    // About the length of the hang (the host was silent 711 s).
    expect(stuck[0].metrics.stuckMs).toBeGreaterThan(600_000);
    expect(stuck[0].metrics.stuckMs).toBeLessThan(760_000);

    const stale = Object.fromEntries(by('stale-route').map((f: any) => [f.subject.client, f.metrics]));
    expect(stale['app-pay-01'].withinRoutingBound).toBe(true);
    expect(stale['app-pay-01'].staleMs).toBeGreaterThan(120_000);
    expect(stale['app-pay-01'].staleMs).toBeLessThan(170_000);
    expect(stale['app-order-01'].withinRoutingBound).toBe(false);
    expect(stale['app-order-01'].staleMs).toBeGreaterThan(600_000);

    const detection = by('broker-down-detection');
    expect(detection.map((f: any) => f.metrics.detection)).toEqual(['expired']);
    expect(detection[0].subject).toMatchObject({ brokerAddr: '192.168.3.100:10911', namesrvAddr: '192.168.3.101:9876' });

    expect(by('colocated-namesrv').map((f: any) => f.subject.host)).toEqual(['mq-node-100']);

    // Every finding carries evidence as file:line with its time, and times in ISO with offset.
    for (const f of report.findings) {
      expect(f.evidence.length).toBeGreaterThan(0);
      expect(f.start).toMatch(/\+08:00$/);
      for (const e of f.evidence) expect(e).toMatchObject({ file: expect.stringContaining('samples/seed-outage/'), line: expect.any(Number) });
    }
  });
});

describe('analyze a healthy planned restart', () => {
  it('gives no error or critical finding (exit 0 at --severity error)', async () => {
    const { code, report } = await analyze('healthy-restart', '--severity', 'error');
    expect(code).toBe(0);
    expect(report.findings.filter((f: any) => f.severity === 'error' || f.severity === 'critical')).toEqual([]);
    expect(report.findings.filter((f: any) => f.rule === 'broker-down-detection').map((f: any) => f.metrics.detection)).toEqual([
      'unregistered',
      'unregistered',
    ]);
  });
});

describe('analyze the broker-busy sample', () => {
  it('finds the busy broker with its worst wait, rejections counted once across client and app logs', async () => {
    const { report } = await analyze('broker-busy');
    const busy = report.findings.filter((f: any) => f.rule === 'broker-busy');
    expect(busy).toHaveLength(1);
    expect(busy[0].subject).toMatchObject({ broker: 'broker-b', brokerAddr: '192.168.1.12:10911' });
    expect(busy[0].metrics).toMatchObject({ rejections: 73, maxWaitMs: 799, thresholdMs: 200 });
    expect(busy[0].explanation).toMatch(/10 ms/);
  });

  it('--set waitTimeMillsInSendQueue changes the threshold it reports', async () => {
    const { report } = await analyze('broker-busy', '--set', 'waitTimeMillsInSendQueue=300', '--rule', 'broker-busy');
    expect(report.findings[0].metrics.thresholdMs).toBe(300);
  });
});
