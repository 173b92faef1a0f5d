// Ground truth: the seed outage on real 4.9.4 servers (samples/lab/seed-outage). mq-node-a runs
// NameServer 10.213.0.11:9876 and broker-a's master; it hangs with its TCP connections open (SIGSTOP)
// for five minutes, then reboots. app-order-01 (client 4.7.1) is bound to that NameServer,
// app-pay-01 (client 4.9.4) to the other one.
//
// What RocketMQ must do:
// - NameServer mq-node-b hears nothing from broker-a's master: its idle handler (IdleStateHandler,
//   serverChannelMaxIdleTimeSeconds 120 s) closes the channel 120 s after the last registration,
//   a few seconds before the 10 s expiry scan would (RouteInfoManager.scanNotActiveBroker), and the
//   master leaves the route; broker-a's slave stays listed.
// - app-pay-01 polls mq-node-b every 30 s: at the first poll after the removal its route has no
//   master for broker-a, so it stops writing there (topicRouteData2TopicPublishInfo skips brokers
//   without a master). Until then its sends to broker-a time out.
// - app-order-01's route polls to the hung NameServer time out; client 4.7.1 never closes a
//   timed-out channel (NettyRemotingClient, clientCloseSocketIfTimeout false before 4.9.1), so it
//   never tries mq-node-b and keeps the stale route until the rebooted host resets the connection.
// - A send whose attempt on broker-a timed out has spent its 3 s budget: the retry on broker-b gets
//   almost no time and times out too, although broker-b is healthy.
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

const r = recording('seed-outage');
const hang = fault(r, 'hang', 'mq-node-a');
const reboot = fault(r, 'reboot', 'mq-node-a');
const linkUp = Date.parse(reboot.linkUp!);
const POLL = 30_000;
const API_TIMEOUT = 3_000;

describe('lab seed outage: analyze', () => {
  let report: any;
  beforeAll(async () => ({ report } = await analyzeReport(r)));

  it('app-order-01 is stuck on the hung NameServer until the host comes back', () => {
    const stuck = findingsOf(report, 'namesrv-stuck');
    expect(stuck.map((f: any) => f.subject.client)).toEqual(['app-order-01']);
    const f = stuck[0];
    expect(f.severity).toBe('critical');
    expect(f.subject.namesrvAddr).toBe(client(r, 'app-order-01').boundNamesrv);
    expectNear(f.start, hang.startMs, 0, POLL + API_TIMEOUT + 1000, 'first route-poll timeout');
    expectNear(f.end, linkUp, 0, POLL + API_TIMEOUT + 1000, 'switch to the other NameServer');
    expect(f.metrics.stuckMs).toBeGreaterThan(linkUp - hang.startMs - POLL - API_TIMEOUT);
  });

  it('stale routes to broker-a: app-order-01 beyond the routing bound, app-pay-01 within it, with the sends they lost', () => {
    const order = findingsOf(report, 'stale-route', { client: 'app-order-01', broker: 'broker-a' });
    expect(order).toHaveLength(1);
    expect(order[0].severity).toBe('critical');
    expect(order[0].metrics.failedSends).toBe(client(r, 'app-order-01').sends.failed);
    expectNear(order[0].start, hang.startMs, 0, API_TIMEOUT + 1500, 'app-order-01 first failure');
    const pay = findingsOf(report, 'stale-route', { client: 'app-pay-01', broker: 'broker-a' });
    expect(pay).toHaveLength(1);
    expect(pay[0].severity).toBe('warning');
    expect(pay[0].metrics.failedSends).toBe(client(r, 'app-pay-01').sends.failed);
    // It ends when the route drops broker-a; the last send begun before that fails up to 3 s later.
    expectNear(pay[0].end, Date.parse(client(r, 'app-pay-01').sends.lastFailure!), 3500, 1000, 'app-pay-01 end of the stale route');
  });

  it('the sends that ran out of budget are laid on broker-a alone: a retry to broker-b given what was left (`timeout, 0(ms)`) says nothing of it', () => {
    for (const c of r.lab.clients) {
      const [f] = findingsOf(report, 'send-timeout-budget', { host: c.host });
      expect(f, c.host).toBeDefined();
      expect(f.metrics.brokers, c.host).toEqual(['broker-a']);
      expect(f.advice.join(' '), c.host).not.toMatch(/broker-b/);
    }
  });

  it('broker-b never failed: no stale route to it, and mq-node-b is not a failed co-located host', () => {
    expect(findingsOf(report, 'stale-route', { broker: 'broker-b' })).toEqual([]);
    expect(findingsOf(report, 'colocated-namesrv', { host: 'mq-node-b' })).toEqual([]);
    expect(findingsOf(report, 'colocated-namesrv', { host: 'mq-node-a' })).toHaveLength(1);
  });

  it('mq-node-b removed broker-a on its idle timer, 120 s after the last registration', () => {
    const f = findingsOf(report, 'broker-down-detection', { namesrvAddr: '10.213.0.12:9876', brokerAddr: '10.213.0.11:10911' });
    expect(f).toHaveLength(1);
    expect(f[0].metrics.path).toBe('idle');
    expectNear(f[0].end, hang.startMs, -90_000, 121_000, 'idle close of broker-a');
    // The slave was never removed, and the hung NameServer removed nothing.
    expect(findingsOf(report, 'broker-down-detection', { brokerAddr: '10.213.0.13:10911' })).toEqual([]);
    expect(findingsOf(report, 'broker-down-detection', { namesrvAddr: '10.213.0.11:9876' })).toEqual([]);
  });

  it('app-pay-01 stops writing to broker-a when its master leaves the route, although its slave is listed', () => {
    const removal = findingsOf(report, 'broker-down-detection', { namesrvAddr: '10.213.0.12:9876', brokerAddr: '10.213.0.11:10911' })[0];
    const lost = milestonesOf(report, 'route-lost', 'app-pay-01');
    expect(lost.length).toBeGreaterThanOrEqual(1);
    expect(lost[0].what).toContain('broker-a');
    expectNear(lost[0].time, Date.parse(removal.end), 0, POLL + 2000, 'app-pay-01 route drops broker-a');
    const back = milestonesOf(report, 'route-back', 'app-pay-01').filter((m: any) => Date.parse(m.time) > Date.parse(lost[0].time));
    expect(back.length).toBeGreaterThanOrEqual(1);
    expectNear(back[0].time, reboot.endMs!, 0, POLL + 20_000, 'app-pay-01 regains broker-a');
  });

  it('app-order-01 switches NameServer only after the rebooted host reset its connection', () => {
    const sw = milestonesOf(report, 'namesrv-switch', 'app-order-01');
    expect(sw).toHaveLength(1);
    expect(sw[0].what).toContain('10.213.0.12:9876');
    expectNear(sw[0].time, linkUp, 0, POLL + API_TIMEOUT + 1000, 'switch');
  });
});

describe('lab seed outage: replay', () => {
  let report: any;
  beforeAll(async () => ({ report } = await replayReport(r)));

  it('infers the lab topology and versions', () => expectTopology(r, report));

  it('infers the hang, and the reboot when the host came back', () => {
    const faults = report.scenario.faults.filter((f: any) => f.host === 'mq-node-a');
    const hung = faults.find((f: any) => f.state === 'hung');
    const back = faults.find((f: any) => f.state === 'reboot');
    expect(hung).toBeDefined();
    expect(back).toBeDefined();
    expectNear(report.scenario.startEpochMs + hung.atMs, hang.startMs, 1000, 3000, 'inferred hang');
    expectNear(report.scenario.startEpochMs + back.atMs, linkUp, 1000, 2000, 'inferred return of the host');
  });

  it('reproduces every milestone', () => expectReproduced(r, report));
  it('loses about as many sends as each application counted', () => expectLostSends(r, report));
});
