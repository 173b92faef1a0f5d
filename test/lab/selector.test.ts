// Ground truth: broker-a crashes (SIGKILL) and stays down for 90 s while app-ledger-01 (client 4.8.0)
// sends through a MessageQueueSelector that always picks the first queue of the topic (broker-a's),
// and app-notify-01 (client 4.9.4) sends without one (samples/lab/selector).
//
// What RocketMQ must do: a send through a selector goes through DefaultMQProducerImpl.sendSelectImpl,
// which calls sendKernelImpl once (no retry loop, no "resend at once" line in the client log): each
// refused connection reaches the application. When the route drops broker-a, the queue list has
// only broker-b's queues and the same index lands there, so the failures stop at the route drop.
// The other producer's refused attempts are retried on broker-b and lose nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeReport, client, expectNear, expectLostSends, expectReproduced, expectTopology, fault, findingsOf, milestonesOf, recording, replayReport } from './recording.js';

const r = recording('selector');
const crash = fault(r, 'crash', 'mq-broker-a');
const POLL = 30_000;

describe('lab selector: analyze', () => {
  let report: any;
  beforeAll(async () => ({ report } = await analyzeReport(r)));

  it('the selector producer lost every send to broker-a until its route dropped it, each after one attempt', () => {
    const ledger = client(r, 'app-ledger-01');
    expect(ledger.selectorQueue).toBe(0);
    const f = findingsOf(report, 'send-no-retry', { host: 'app-ledger-01' });
    expect(f).toHaveLength(1);
    expect(f[0].metrics.shape).toBe('selector');
    expect(f[0].metrics.failedSends).toBe(ledger.sends.failed);
    expect(f[0].subject).toMatchObject({ broker: 'broker-a', brokerAddr: '10.213.0.21:10911' });
    expectNear(f[0].start, Date.parse(ledger.sends.firstFailure!), 10, 10, 'first failure');
    expectNear(f[0].end, Date.parse(ledger.sends.lastFailure!), 10, 10, 'last failure');
    const lost = milestonesOf(report, 'route-lost', 'app-ledger-01');
    expect(lost.length).toBeGreaterThanOrEqual(1);
    expectNear(lost[0].time, Date.parse(ledger.sends.lastFailure!), 0, POLL, 'the route drop ends the failures');
  });

  it('the producer without a selector lost nothing', () => {
    expect(client(r, 'app-notify-01').sends.failed).toBe(0);
    for (const rule of ['send-no-retry', 'stale-route', 'send-timeout-budget']) expect(findingsOf(report, rule, { host: 'app-notify-01' }), rule).toEqual([]);
  });

  it('the NameServer removed broker-a on the closed channel at the crash', () => {
    const f = findingsOf(report, 'broker-down-detection', { broker: 'broker-a' });
    expect(f).toHaveLength(1);
    expect(f[0].metrics.path).toBe('close');
    expectNear(f[0].end, crash.startMs, 1000, 2000, 'removal');
  });
});

describe('lab selector: replay', () => {
  let report: any;
  beforeAll(async () => ({ report } = await replayReport(r)));

  it('infers the lab topology and versions', () => expectTopology(r, report));

  it('infers the crash', () => {
    const down = report.scenario.faults.find((f: any) => f.host === 'mq-broker-a' && f.state === 'down');
    expectNear(report.scenario.startEpochMs + down.atMs, crash.startMs, 1000, 1500, 'inferred crash');
  });

  it('reproduces every milestone', () => expectReproduced(r, report));
  it('loses about as many sends as each application counted', () => expectLostSends(r, report));
});
