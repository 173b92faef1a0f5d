// Ground truth: a host running a NameServer and broker-a's master hangs with its TCP connections
// open (SIGSTOP: the kernel still accepts connections) for three minutes, then reboots; three
// producers of three client lines are all bound to its NameServer (samples/lab/namesrv-hang).
//
// What RocketMQ must do (NettyRemotingClient.invokeSync and getAndCreateNameserverChannel):
// - app-order-01 (4.7.1) never closes the timed-out NameServer channel (clientCloseSocketIfTimeout
//   is false before 4.9.1): it keeps asking the hung NameServer until the rebooted host resets it.
// - app-pay-01 (4.9.4) closes it after the first timed-out route poll; the next poll finds no
//   channel and picks the other NameServer, whose route drops broker-a after its 120 s expiry.
// - app-feed-01 (5.1.4) closes it too, but its NameServer scan (scanAvailableNameSrv, 5.0.0-5.2.0,
//   every 3 s) connects the hung host again within a second, so the chosen NameServer keeps an
//   active channel and stays chosen: stuck like 4.7.1 (5.3.0 turns the scan off in the client).
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeReport, client, expectNear, expectLostSends, expectReproduced, expectTopology, fault, findingsOf, milestonesOf, recording, replayReport } from './recording.js';

const r = recording('namesrv-hang');
const hang = fault(r, 'hang', 'mq-node-a');
const POLL = 30_000;
const API_TIMEOUT = 3_000;
const HUNG_NS = '10.213.0.11:9876';

describe('lab NameServer hang, three client lines: analyze', () => {
  let report: any;
  beforeAll(async () => ({ report } = await analyzeReport(r)));

  it('4.7.1 and 5.1.4 stay on the hung NameServer, each for its own reason; 4.9.4 leaves it', () => {
    const stuck = findingsOf(report, 'namesrv-stuck');
    expect(stuck.map((f: any) => f.subject.client).sort()).toEqual(['app-feed-01', 'app-order-01']);
    for (const f of stuck) {
      expect(f.subject.namesrvAddr).toBe(HUNG_NS);
      expect(f.severity).toBe('critical');
      expectNear(f.start, hang.startMs, 0, POLL + API_TIMEOUT + 1000, `${f.subject.client} first route-poll timeout`);
    }
    const order = stuck.find((f: any) => f.subject.client === 'app-order-01');
    const feed = stuck.find((f: any) => f.subject.client === 'app-feed-01');
    expect(order.metrics).toMatchObject({ clientVersion: '4.7.1', closeSocketIfTimeout: false, rescansNameServers: false });
    expect(feed.metrics).toMatchObject({ clientVersion: '5.1.4', closeSocketIfTimeout: true, rescansNameServers: true });
    expect(feed.explanation).toContain('scanAvailableNameSrv');
    expect(feed.advice.join(' ')).not.toMatch(/closeSocketIfTimeout=false from its start command/);
    const sw = milestonesOf(report, 'namesrv-switch', 'app-pay-01');
    expect(sw).toHaveLength(1);
    expectNear(sw[0].time, hang.startMs, 0, 2 * POLL + API_TIMEOUT, 'app-pay-01 switch');
  });

  it('stale routes: the stuck clients beyond the routing bound, app-pay-01 within it, each with the sends it lost', () => {
    for (const host of ['app-order-01', 'app-feed-01', 'app-pay-01']) {
      const f = findingsOf(report, 'stale-route', { client: host, broker: 'broker-a' });
      expect(f, host).toHaveLength(1);
      expect(f[0].metrics.withinRoutingBound, host).toBe(host === 'app-pay-01');
      expect(f[0].metrics.failedSends, host).toBe(client(r, host).sends.failed);
      expect(f[0].subject.brokerAddr).toBe('10.213.0.11:10911');
    }
  });

  it('no retry is said to go back to the broker that failed it (each attempt prints its send’s InvokeID)', () => {
    expect(findingsOf(report, 'retry-same-broker')).toEqual([]);
  });

  it('advises sendMsgMaxTimeoutPerRequest by version: 5.1.4 has no such setting (DefaultMQProducer has it from 5.3.3)', () => {
    const advice = findingsOf(report, 'send-timeout-budget').flatMap((f: any) => f.advice as string[]);
    const perRequest = advice.filter((a) => a.includes('sendMsgMaxTimeoutPerRequest'));
    expect(perRequest.length).toBeGreaterThan(0);
    for (const a of perRequest) expect(a).toMatch(/^Client 5\.3\.3 and later can cap one attempt .* 5\.1\.4 has no such setting\.$/);
  });

  it('the incident tells each client why it lasted, by its version', () => {
    const inc = report.incidents[0];
    const why = Object.fromEntries(inc.impact.map((i: any) => [i.client, i.lastedBecause]));
    expect(why['app-order-01']).toMatch(/before 4\.9\.1 a client never closes/);
    expect(why['app-feed-01']).toMatch(/NameServer scan .* connects it again/);
    expect(why['app-pay-01']).toMatch(/NameServer removed it .* next route poll/);
    const advice = inc.advice.join('\n');
    expect(advice).toMatch(/Upgrade app-order-01 \(client 4\.7\.1\) to 4\.9\.1 or later/);
    expect(advice).toMatch(/Upgrade app-feed-01 \(client 5\.1\.4\) to 5\.3\.0 or later/);
    expect(advice).not.toMatch(/app-pay-01 \(client 4\.9\.4\)/);
  });
});

describe('lab NameServer hang, three client lines: replay', () => {
  let report: any;
  beforeAll(async () => ({ report } = await replayReport(r)));

  it('infers the lab topology and versions', () => expectTopology(r, report));

  it('infers a hang of the processes only (new connections to the host still completed)', () => {
    const hung = report.scenario.faults.find((f: any) => f.host === 'mq-node-a' && f.state === 'hung');
    expect(hung).toMatchObject({ processesOnly: true });
    expectNear(report.scenario.startEpochMs + hung.atMs, hang.startMs, 1000, 3000, 'inferred hang');
  });

  it('reproduces every milestone, 5.1.4 staying on the hung NameServer included', () => expectReproduced(r, report));
  it('loses about as many sends as each application counted', () => expectLostSends(r, report));
});
