// Ground truth: broker-a's store file system filled to 97 % for 90 s, then freed; two producers
// (4.9.4 and 5.1.4) with default retries; NameServers on their own hosts (samples/lab/disk-full).
//
// What RocketMQ must do: CleanCommitLogService (every 10 s) finds the disk above
// diskSpaceWarningLevelRatio (0.90) and marks it full (`physic disk maybe full soon 0.98, so mark
// disk full`); from then putMessage answers SERVICE_NOT_AVAILABLE (code 14, `the broker's disk is
// full [CL:  0.98 ...]`), which every client retries on another broker, so no application loses a
// send; the next check after the space is freed marks the disk OK again.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeReport, expectNear, expectTopology, fault, findingsOf, recording, replayReport } from './recording.js';

const r = recording('disk-full');
const full = fault(r, 'disk-full', 'mq-broker-a');
const CHECK = 10_500;

describe('lab disk full: analyze', () => {
  let report: any;
  beforeAll(async () => ({ report } = await analyzeReport(r, '--severity', 'critical')));

  it('broker-a refused writes from the check that marked its disk full to the one that marked it OK', () => {
    const f = findingsOf(report, 'disk-full', { broker: 'broker-a' });
    expect(f).toHaveLength(1);
    expect(f[0].subject).toMatchObject({ broker: 'broker-a', brokerAddr: '10.213.0.21:10911' });
    expect(f[0].metrics.maxRatio ?? f[0].metrics.ratio ?? 0.98).toBeGreaterThan(0.9);
    expectNear(f[0].start, full.startMs, 0, CHECK, 'first refusal');
    expectNear(f[0].end, full.endMs!, 0, CHECK, 'last refusal');
  });

  it('no application lost a send: every refusal was retried on broker-b', () => {
    for (const c of r.lab.clients) expect(c.sends.failed, c.host).toBe(0);
    for (const rule of ['stale-route', 'send-no-retry', 'send-timeout-budget', 'retry-same-broker']) expect(findingsOf(report, rule), rule).toEqual([]);
    const inc = report.incidents[0];
    expect(inc.causes.map((c: any) => `${c.kind} ${c.host}`)).toEqual(['disk-full mq-broker-a']);
    expect(inc.impact).toEqual([]);
  });
});

describe('lab disk full: replay', () => {
  let report: any;
  beforeAll(async () => ({ report } = await replayReport(r)));

  it('infers the lab topology and versions', () => expectTopology(r, report));

  it('infers the full disk from the store log, from its mark-full to its mark-OK line', () => {
    const f = report.scenario.faults.find((x: any) => x.diskFull);
    expect(f).toMatchObject({ broker: 'broker-a', diskFull: { ratio: 0.98, okRatio: 0.01 } });
    expectNear(report.scenario.startEpochMs + f.atMs, full.startMs, 0, CHECK, 'marked full');
    expectNear(report.scenario.startEpochMs + f.atMs + f.diskFull.durationMs, full.endMs!, 0, CHECK, 'marked OK');
  });

  it("without the broker's store log, infers it from the clients' code-14 replies, by the broker address they print", async () => {
    const { cpSync, mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'rmq-diag-diskfull-'));
    try {
      cpSync(r.dir, dir, { recursive: true });
      rmSync(join(dir, 'mq-broker-a', 'logs', 'rocketmqlogs', 'store.log'));
      const { report: rep } = await replayReport({ ...r, dir });
      const f = rep.scenario.faults.find((x: any) => x.diskFull);
      expect(f).toMatchObject({ broker: 'broker-a', diskFull: { ratio: 0.98 } });
      // The first and last refused attempts, a little after the marks (a send arrives within the second).
      expectNear(rep.scenario.startEpochMs + f.atMs, full.startMs, 0, CHECK + 1000, 'first refusal');
      expectNear(rep.scenario.startEpochMs + f.atMs + f.diskFull.durationMs, full.endMs!, 0, CHECK + 1000, 'last refusal');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('loses no simulated send either, as in the logs: reproduced by its clients that lost nothing', () => {
    for (const o of report.outages) expect(o.simulated?.failedSends ?? 0, o.client).toBe(0);
    expect(report.outages.map((o: any) => o.observed?.failedSends ?? 0)).toEqual([0, 0]);
    expect(report.verdict).toBe('reproduced');
  });
});
