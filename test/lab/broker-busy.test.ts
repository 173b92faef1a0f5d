// Ground truth: broker busy from a send-queue backlog (samples/lab/broker-busy). broker-b (4.9.4, one
// send thread) is flooded for 45 s by a batch job's asynchronous sends to a topic of its own, while
// its JVM is held to 3 % of a CPU (a cgroup quota, as a container CPU limit); during the flood it
// also stalls for 0.8 s (SIGSTOP), and once more later under the normal load. The batch job's logs
// are not collected (another team's application); app-feed-01 sends synchronously to both brokers.
//
// What RocketMQ must do: BrokerFastFailure (every 10 ms, when the JVM gets CPU) answers the requests
// that waited in the send queue 200 ms or more with SYSTEM_BUSY `[TIMEOUT_CLEAN_QUEUE]`; under the
// quota the broker runs a few ms of every 100 ms period, so the waits come in steps of about 100 ms
// and reach a second. Client 4.9.4 does not retry SYSTEM_BUSY (not in retryResponseCodes before
// 5.3.0): every busy reply to app-feed-01 is a lost send. broker-a is never busy. The stall under the
// normal load finds an empty queue: requests are read only once the JVM runs again
// (RequestTask.createTimestamp), so it rejects nothing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../cli/helpers.js';
import { analyzeReport, client, expectNear, expectReproduced, expectTopology, fault, findingsOf, recording, replayReport } from './recording.js';

const r = recording('broker-busy');
const overload = fault(r, 'overload', 'mq-broker-b');
const stall = fault(r, 'hang', 'mq-broker-b', 0);
const feed = client(r, 'app-feed-01');

describe('lab broker busy: analyze', () => {
  let report: any;
  beforeAll(async () => ({ report } = await analyzeReport(r)));

  it('names broker-b busy, with the rejections app-feed-01 lost and waits far over the limit', () => {
    expect(feed.sends.failuresByException).toEqual({ MQBrokerException: feed.sends.failed });
    const f = findingsOf(report, 'broker-busy');
    expect(f.map((x: any) => x.subject.broker)).toEqual(['broker-b']);
    expect(f[0].subject.brokerAddr).toBe('10.213.0.22:10911');
    expect(f[0].metrics).toMatchObject({ rejections: feed.sends.failed, thresholdMs: 200 });
    expect(f[0].metrics.maxWaitMs).toBeGreaterThan(800);
    expect(f[0].metrics.minWaitMs).toBeGreaterThanOrEqual(200);
    // The broker's own watermark shows the backlog behind the replies.
    expect(f[0].metrics.maxWatermarkQueue).toBeGreaterThan(1000);
    expectNear(f[0].start, overload.startMs, 0, 5000, 'first busy reply');
    expectNear(f[0].end, overload.endMs!, 1000, 5000, 'last busy reply');
  });

  it('every busy reply was a lost send: 4.9.4 does not retry SYSTEM_BUSY', () => {
    const f = findingsOf(report, 'send-no-retry', { host: 'app-feed-01' });
    expect(f).toHaveLength(1);
    expect(f[0].metrics).toMatchObject({ shape: 'not-retried-code', failedSends: feed.sends.failed, code: 2 });
  });

  it('nothing else went wrong', () => {
    for (const rule of ['stale-route', 'namesrv-stuck', 'broker-down-detection', 'send-timeout-budget', 'pagecache-busy', 'disk-full']) {
      expect(findingsOf(report, rule), rule).toEqual([]);
    }
  });
});

describe('lab broker busy: replay', () => {
  let report: any;
  beforeAll(async () => ({ report } = await replayReport(r)));
  const batch = client(r, 'app-batch-01');
  // The flood's rate is the scenario's (lab.json keeps the faults' times, not their load).
  const flood = JSON.parse(readFileSync(join(ROOT, 'lab', 'scenarios', 'broker-busy.json'), 'utf8')).faults.find((f: any) => f.kind === 'overload').load.rate;

  it('infers broker-b overloaded for the whole flood, with the pauses of its throttled JVM on top', () => {
    const faults = report.scenario.faults;
    const over = faults.filter((f: any) => f.broker === 'broker-b' && f.overload);
    expect(over).toHaveLength(1);
    const from = report.scenario.startEpochMs + over[0].atMs;
    expectNear(from, overload.startMs, 2000, 2000, 'inferred overload start');
    expectNear(from + over[0].overload.durationMs, overload.endMs!, 1000, 4000, 'inferred overload end');
    const stalls = faults.filter((f: any) => f.broker === 'broker-b' && f.stall).map((f: any) => report.scenario.startEpochMs + f.atMs);
    expect(stalls.some((t: number) => Math.abs(t - stall.startMs) <= 1000), 'the stall of the flood').toBe(true);
    expect(stalls.every((t: number) => t >= from && t <= from + over[0].overload.durationMs), 'every pause within the flood').toBe(true);
    expect(faults.filter((f: any) => f.broker === 'broker-a')).toEqual([]);
  });

  it('reads the batch job nobody gave logs of from broker-b’s stats.log, as the overload’s background load', () => {
    const over = report.scenario.faults.find((f: any) => f.overload);
    // Stored puts of TopicExport in the flood's minute: above the batch's normal rate, below its flood rate.
    expect(over.overload.backgroundPerSec).toBeGreaterThan(batch.rate);
    expect(over.overload.backgroundPerSec).toBeLessThan(flood);
    expect(report.scenario.clients.map((c: any) => c.host)).toEqual(['app-feed-01']);
    expect(report.provenance['scenario.faults[0]'].evidence.some((e: string) => e.startsWith('mq-broker-b/logs/rocketmqlogs/stats.log:'))).toBe(true);
  });

  it('replays app-feed-01 losing sends from the start of the flood to its end', () => {
    for (const name of ['first-failure', 'outage-end']) {
      const m = report.milestones.find((x: any) => x.name === name && x.subject === 'app-feed-01');
      expect(m.status, name).toBe('ok');
    }
    const o = report.outages.find((x: any) => x.client === 'app-feed-01');
    expect(o.simulatedFailedSends).toBeGreaterThan(feed.sends.failed * 0.5);
    expect(o.simulatedFailedSends).toBeLessThan(feed.sends.failed * 1.5);
    // The one busy window is the overload's; its waits reach far over the limit, as in the logs.
    expect(report.busy).toHaveLength(1);
    expect(report.busy[0].simulated.waitMaxMs).toBeGreaterThan(500);
  });

  it('infers the lab topology and versions', () => expectTopology(r, report));
  it('reproduces every milestone and the longest wait', () => expectReproduced(r, report));

  it('reads the requests the throttled broker read together as a stall that read nothing until then', () => {
    // 18:54:59.915: five replies waited 1199 ms, so broker-b read them in one go at 18:54:58.716.
    const stalls = report.scenario.faults.filter((f: any) => f.broker === 'broker-b' && f.stall?.ioFrozenMs);
    expect(stalls.length).toBeGreaterThan(0);
    const read = Date.parse('2026-12-01T18:54:58.716+08:00');
    const run = Date.parse(report.run.start);
    expect(stalls.some((f: any) => Math.abs(run + f.atMs + f.stall.ioFrozenMs - read) <= 2)).toBe(true);
  });

  it('reproduces the longest wait app-feed-01 saw on other seeds too', async () => {
    for (const seed of ['2', '3', '4']) {
      const { report: other } = await replayReport(r, '--seed', seed);
      const o = other.busy[0];
      expect(Math.abs(o.simulated.waitMaxMs - o.observed.waitMaxMs), `seed ${seed}`).toBeLessThanOrEqual(o.observed.waitMaxMs * 0.1);
    }
  });
});
