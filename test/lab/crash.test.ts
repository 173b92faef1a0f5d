// Ground truth: broker-a's JVM killed with SIGKILL (its host stays up), started again a minute later;
// NameServers on their own hosts; two 4.9.4 producers with default retries (samples/lab/crash).
//
// What RocketMQ must do: the kernel closes the killed broker's connections at once, so both
// NameServers drop it on the closed channel (BrokerHousekeepingService.onChannelClose), not after the
// 120 s expiry. A refused connection is retried on another broker (DefaultMQProducerImpl
// .sendDefaultImpl), so the applications lose no send; the clients drop broker-a at their next route
// poll (pollNameServerInterval, 30 s) and take it back at the first poll after it registers again.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeReport, expectNear, expectLostSends, expectReproduced, expectTopology, fault, findingsOf, milestonesOf, recording, replayReport } from './recording.js';

const r = recording('crash');
const crash = fault(r, 'crash', 'mq-broker-a');
const POLL = 30_000;

describe('lab crash: analyze', () => {
  let report: any;
  let code: number;
  beforeAll(async () => ({ code, report } = await analyzeReport(r, '--severity', 'error')));

  it('every NameServer removed broker-a on the closed channel, at the crash', () => {
    for (const ns of r.lab.servers.namesrv) {
      const f = findingsOf(report, 'broker-down-detection', { namesrvAddr: ns.addr, broker: 'broker-a' });
      expect(f, ns.addr).toHaveLength(1);
      expect(f[0].subject.brokerAddr).toBe('10.213.0.21:10911');
      expect(f[0].metrics).toMatchObject({ detection: 'destroyed', path: 'close' });
      expectNear(f[0].end, crash.startMs, 1000, 2000, `${ns.addr} removal`);
    }
    expect(findingsOf(report, 'broker-down-detection', { broker: 'broker-b' })).toEqual([]);
  });

  it('the applications lost nothing: no error or critical finding, no send finding', () => {
    for (const c of r.lab.clients) expect(c.sends.failed, `${c.host} failed sends in lab.json`).toBe(0);
    expect(code).toBe(0);
    for (const rule of ['stale-route', 'namesrv-stuck', 'send-timeout-budget', 'send-no-retry', 'colocated-namesrv']) {
      expect(findingsOf(report, rule), rule).toEqual([]);
    }
  });

  it('each client dropped broker-a at its next route poll and took it back after the restart', () => {
    for (const c of r.lab.clients) {
      const lost = milestonesOf(report, 'route-lost', c.host);
      expect(lost.length, `${c.host} route-lost`).toBeGreaterThanOrEqual(1);
      expect(lost[0].what).toContain('broker-a');
      expectNear(lost[0].time, crash.startMs, 0, POLL + 2000, `${c.host} drops broker-a`);
      const back = milestonesOf(report, 'route-back', c.host);
      expect(back.length, `${c.host} route-back`).toBeGreaterThanOrEqual(1);
      expectNear(back[0].time, crash.endMs!, 0, 15_000 + POLL, `${c.host} regains broker-a`);
    }
    const started = milestonesOf(report, 'startup', 'mq-broker-a').filter((m: any) => Date.parse(m.time) > crash.startMs);
    expect(started).toHaveLength(1);
    expectNear(started[0].time, crash.endMs!, 0, 15_000, 'broker-a boots again');
  });
});

describe('lab crash: replay', () => {
  let report: any;
  beforeAll(async () => ({ report } = await replayReport(r)));

  it('infers the lab topology and versions', () => expectTopology(r, report));

  it('infers the crash and the restart at the times the lab acted', () => {
    const faults = report.scenario.faults.filter((f: any) => f.host === 'mq-broker-a');
    const down = faults.find((f: any) => f.state === 'down');
    const up = faults.find((f: any) => f.state === 'up');
    expect(down).toBeDefined();
    expect(up).toBeDefined();
    expectNear(report.scenario.startEpochMs + down.atMs, crash.startMs, 1000, 1500, 'inferred crash');
    expectNear(report.scenario.startEpochMs + up.atMs, crash.endMs!, 0, 15_000, 'inferred restart');
  });

  it('reproduces every milestone', () => expectReproduced(r, report));
  it('loses about as many sends as each application counted', () => expectLostSends(r, report));
});
