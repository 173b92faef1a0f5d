// Ground truth: a planned restart of broker-a (SIGTERM, started again 40 s later) on 4.9.4 servers,
// with a 4.9.4 and a 5.1.4 producer (samples/lab/restart).
//
// What RocketMQ must do: the broker's shutdown hook (BrokerController.shutdown) unregisters from
// every NameServer (UNREGISTER_BROKER), so they drop it at once ("unregisterBroker, remove from
// brokerLiveTable OK"), neither by expiry nor by a closed channel. Sends that pick broker-a before
// the next route poll are refused and retried on broker-b: the applications lose nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeReport, expectNear, expectLostSends, expectReproduced, expectTopology, fault, findingsOf, milestonesOf, recording, replayReport } from './recording.js';

const r = recording('restart');
const restart = fault(r, 'restart', 'mq-broker-a');
const stopped = Date.parse(restart.stopped!);
const POLL = 30_000;

describe('lab restart: analyze', () => {
  let report: any;
  let code: number;
  beforeAll(async () => ({ code, report } = await analyzeReport(r, '--severity', 'error')));

  it('every NameServer dropped broker-a because it unregistered, while it shut down', () => {
    for (const ns of r.lab.servers.namesrv) {
      const f = findingsOf(report, 'broker-down-detection', { namesrvAddr: ns.addr, broker: 'broker-a' });
      expect(f, ns.addr).toHaveLength(1);
      expect(f[0].severity).toBe('info');
      expect(f[0].metrics.detection).toBe('unregistered');
      expectNear(f[0].end, restart.startMs, 0, stopped - restart.startMs + 1000, `${ns.addr} unregistration`);
    }
  });

  it('nothing for the applications to worry about', () => {
    for (const c of r.lab.clients) expect(c.sends.failed, `${c.host} failed sends in lab.json`).toBe(0);
    expect(code).toBe(0);
    for (const rule of ['stale-route', 'namesrv-stuck', 'send-timeout-budget', 'send-no-retry', 'retry-same-broker']) expect(findingsOf(report, rule), rule).toEqual([]);
  });

  it('both clients (4.9.4 and 5.1.4) drop broker-a at their next poll and take it back after the restart', () => {
    for (const c of r.lab.clients) {
      const lost = milestonesOf(report, 'route-lost', c.host);
      expect(lost.length, c.host).toBeGreaterThanOrEqual(1);
      expectNear(lost[0].time, stopped, 1000, POLL + 2000, `${c.host} drops broker-a`);
      const back = milestonesOf(report, 'route-back', c.host);
      expect(back.length, c.host).toBeGreaterThanOrEqual(1);
      expectNear(back[0].time, restart.endMs!, 0, 15_000 + POLL, `${c.host} regains broker-a`);
    }
  });
});

describe('lab restart: replay', () => {
  let report: any;
  beforeAll(async () => ({ report } = await replayReport(r)));

  it('infers the lab topology and versions', () => expectTopology(r, report));

  it('infers the shutdown and the new start', () => {
    const faults = report.scenario.faults.filter((f: any) => f.host === 'mq-broker-a');
    const down = faults.find((f: any) => f.state === 'down');
    const up = faults.find((f: any) => f.state === 'up');
    expectNear(report.scenario.startEpochMs + down.atMs, restart.startMs, 1000, 1500, 'inferred shutdown');
    expectNear(report.scenario.startEpochMs + up.atMs, restart.endMs!, 0, 15_000, 'inferred start');
  });

  it('reproduces every milestone', () => expectReproduced(r, report));
  it('loses about as many sends as each application counted', () => expectLostSends(r, report));
});
