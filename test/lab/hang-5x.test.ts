// Ground truth: the seed outage's hang on 5.3.3 servers with NameServers on their own hosts
// (samples/lab/hang-5x). mq-broker-a (broker-a's master) hangs with its TCP connections open for
// four minutes, then reboots. Clients 5.3.3 and 5.1.4.
//
// What RocketMQ must do: both NameServers stay healthy and drop the silent master after 120 s, by
// the idle handler or by the scan (every 5 s in 5.x), each logging it through the
// BatchUnregistrationService. The clients' routes lose broker-a's master at their next poll (30 s),
// its slave still listed; until then their sends to broker-a time out. Nobody is stuck on a
// NameServer, and broker-b never fails although retries after a spent budget time out against it
// at once (`invokeSync call the addr[...] timeout`).
import { beforeAll, describe, expect, it } from 'vitest';
import {
  analyzeReport,
  client,
  expectNear,
  expectLostSends,
  expectReproduced,
  expectTopology,
  fault,
  findingsOf,
  milestonesOf,
  recording,
  replayReport,
} from './recording.js';

const r = recording('hang-5x');
const hang = fault(r, 'hang', 'mq-broker-a');
const reboot = fault(r, 'reboot', 'mq-broker-a');
const POLL = 30_000;

describe('lab hang on 5.x: analyze', () => {
  let report: any;
  beforeAll(async () => ({ report } = await analyzeReport(r)));

  it('both NameServers expired broker-a after 120 s of silence', () => {
    for (const ns of r.lab.servers.namesrv) {
      const f = findingsOf(report, 'broker-down-detection', { namesrvAddr: ns.addr, brokerAddr: '10.213.0.21:10911' });
      expect(f, ns.addr).toHaveLength(1);
      expect(f[0].metrics.detection).toBe('expired');
      expect(['idle', 'scan']).toContain(f[0].metrics.path);
      expectNear(f[0].end, hang.startMs, -90_000, 126_000, `${ns.addr} removal`);
    }
    expect(findingsOf(report, 'broker-down-detection', { brokerAddr: '10.213.0.23:10911' })).toEqual([]);
  });

  it('each client kept broker-a within the routing bound and lost the sends it lost', () => {
    for (const c of r.lab.clients) {
      const f = findingsOf(report, 'stale-route', { client: c.host, broker: 'broker-a' });
      expect(f, c.host).toHaveLength(1);
      expect(f[0].severity).toBe('warning');
      expect(f[0].metrics.withinRoutingBound).toBe(true);
      expect(f[0].metrics.failedSends, c.host).toBe(client(r, c.host).sends.failed);
      const lost = milestonesOf(report, 'route-lost', c.host);
      expect(lost.length).toBeGreaterThanOrEqual(1);
      expectNear(lost[0].time, hang.startMs + 120_000, 0, 5_000 + POLL + 2000, `${c.host} drops broker-a`);
      const back = milestonesOf(report, 'route-back', c.host);
      expect(back.length).toBeGreaterThanOrEqual(1);
      expectNear(back[0].time, reboot.endMs!, 0, POLL + 20_000, `${c.host} regains broker-a`);
    }
  });

  it('every send each client lost ran out of its budget against broker-a, also where 5.1.4 prints `%s`', () => {
    // lab.json: every failure was a RemotingTooMuchRequestException (the call timeout) or an
    // MQClientException `Send [3] times, still failed, cost [3000+]ms` (the last retry timed out).
    for (const c of r.lab.clients) {
      const f = findingsOf(report, 'send-timeout-budget', { host: c.host });
      expect(f, c.host).toHaveLength(1);
      expect(f[0].metrics.failedSends, c.host).toBe(c.sends.failed);
      expect(f[0].metrics.callTimeouts, c.host).toBe(c.sends.failuresByException.RemotingTooMuchRequestException);
      expect(f[0].metrics.retriesSpent, c.host).toBe(c.sends.failuresByException.MQClientException);
      // app-pay-01 (5.1.4) prints `InvokeID: %s, RT: %sms, Broker: %s`: the broker comes from the cause's address.
      expect(f[0].subject, c.host).toEqual({ host: c.host, broker: 'broker-a', brokerAddr: '10.213.0.21:10911' });
    }
  });

  it('nothing against broker-b, the NameServers or co-location', () => {
    expect(findingsOf(report, 'stale-route', { broker: 'broker-b' })).toEqual([]);
    for (const rule of ['namesrv-stuck', 'colocated-namesrv', 'broker-register-failed']) expect(findingsOf(report, rule), rule).toEqual([]);
  });
});

describe('lab hang on 5.x: replay', () => {
  let report: any;
  beforeAll(async () => ({ report } = await replayReport(r)));

  it('infers the lab topology and versions', () => expectTopology(r, report));

  it('infers the hang, and a reboot between the hang and the boot lines', () => {
    const faults = report.scenario.faults.filter((f: any) => f.host === 'mq-broker-a');
    const hung = faults.find((f: any) => f.state === 'hung');
    const back = faults.find((f: any) => f.state === 'reboot');
    expectNear(report.scenario.startEpochMs + hung.atMs, hang.startMs, 1000, 3000, 'inferred hang');
    // Nobody had a connection to the host left to be reset (the clients and NameServers had closed
    // theirs; the 5.x slave's HA client only logs "connect to master failed" either way), so the
    // return of the host is placed by the boot lines: after the hang, before the processes started.
    expectNear(report.scenario.startEpochMs + back.atMs, reboot.startMs, 0, reboot.endMs! - reboot.startMs, 'inferred reboot');
  });

  it('reproduces every milestone', () => expectReproduced(r, report));
  it('loses about as many sends as each application counted', () => expectLostSends(r, report));
});
