// The faults stage: a hang from a server host's silence and the timeouts against it, and a stall
// from busy replies that waited longer than waitTimeMillsInSendQueue.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Fault } from '../../../src/model/index.js';
import { inferClients } from '../../../src/diagnosis/infer/clients.js';
import type { InferContext } from '../../../src/diagnosis/infer/context.js';
import { inferFaults } from '../../../src/diagnosis/infer/faults.js';
import { inferHosts } from '../../../src/diagnosis/infer/hosts.js';
import { inferServers, inferServerStarts } from '../../../src/diagnosis/infer/servers.js';
import { inferFromLogs } from '../../../src/replay/load.js';
import { contextOf, sampleLines, SAMPLES, type Excerpt } from './fixture.js';

/** The stages before the faults, then the faults. */
function faults(ctx: InferContext): Fault[] {
  const hosts = inferHosts(ctx);
  const servers = inferServers(ctx, hosts);
  const { clients, topics } = inferClients(ctx, hosts, servers);
  const { nameServers, brokers } = inferServerStarts(ctx, servers);
  return inferFaults(ctx, { hosts, serverVersion: servers.serverVersion, nameServers, brokers, topics, clients });
}

const at = (ctx: InferContext, f: Fault) => ctx.startEpochMs + f.atMs;
const HANG = 'lab/hang-5x';

describe('inferFaults', () => {
  // broker-a's watermark.log (a line a second) stops at 19:31:33 and resumes at 19:36:19, while
  // broker-b's goes on; the client's send to broker-a times out at 19:31:36.693 (3000 ms).
  const brokerA: Excerpt = { path: 'mq-broker-a/logs/rocketmqlogs/watermark.log', sample: `${HANG}/mq-broker-a/logs/rocketmqlogs/watermark.log`, lines: [1, 847] };
  const brokerB: Excerpt = { path: 'mq-broker-b/logs/rocketmqlogs/watermark.log', sample: `${HANG}/mq-broker-b/logs/rocketmqlogs/watermark.log`, lines: [700, 3200] };
  const client = (to: number): Excerpt => ({ path: 'app-order-01/logs/rocketmqlogs/rocketmq_client.log', sample: `${HANG}/app-order-01/logs/rocketmqlogs/rocketmq_client.log`, lines: [1, to] });

  it('a silence during which peers timed out against the host is a hang; its first line after is its return', async () => {
    const ctx = await contextOf([brokerA, brokerB, client(46)]);
    const list = faults(ctx);
    expect(list.map((f) => ('state' in f ? `${f.host} ${f.state}` : '?'))).toEqual(['mq-broker-a hung', 'mq-broker-a up']);
    // A regular logger (watermark.log): the hang starts right after its last line, a whole second
    // (19:31:33.999 at the latest), unless a timed-out request was sent earlier.
    expect(at(ctx, list[0])).toBe(Date.parse('2026-12-01T19:31:34.000+08:00'));
    const hang = ctx.provenance['scenario.faults[0]'];
    expect(hang.rule).toMatch(/^the last line mq-broker-a wrote before 286 s of silence while other hosts kept logging; peers timed out against its addresses \(\d+ timeouts\)$/);
    expect(hang.evidence[0]).toBe('mq-broker-a/logs/rocketmqlogs/watermark.log:846');
    expect(hang.evidence[1]).toMatch(/^app-order-01\/logs\/rocketmqlogs\/rocketmq_client\.log:4[45]$/);
    expect(at(ctx, list[1])).toBe(Date.parse('2026-12-01T19:36:19.500+08:00'));
    expect(ctx.provenance['scenario.faults[1]']).toEqual({
      rule: 'the first line mq-broker-a wrote after the silence (no boot line: it resumed)',
      evidence: ['mq-broker-a/logs/rocketmqlogs/watermark.log:847'],
    });
  });

  it('without timeouts against the host, the silence of a regular logger is only noted', async () => {
    const ctx = await contextOf([brokerA, brokerB, client(30)]);
    expect(faults(ctx)).toEqual([]);
    expect(ctx.notes.some((n) => /^mq-broker-a was silent from .* for 286 s, but no peer logged a timeout or a refused connection against it: not replayed$/.test(n))).toBe(true);
  });

  it('busy replies that all waited longer than waitTimeMillsInSendQueue are a stall of their broker, as long as the longest wait', async () => {
    const ctx = await contextOf([
      {
        path: 'app-feed-01/rocketmq_client.log',
        // the routes (broker-b at 192.168.1.12:10911), then four sends refused at once, period in queue 400-401 ms
        text: [...sampleOf(1, 30), ...sampleOf(517, 595)],
      },
    ]);
    const list = faults(ctx);
    expect(list).toEqual([{ atMs: expect.any(Number), broker: 'broker-b', stall: { durationMs: 401 } }]);
    // It ends 1 ms before the first reply.
    expect(at(ctx, list[0])).toBe(Date.parse('2023-06-14T20:13:21.711+08:00') - 401 - 1);
    const p = ctx.provenance['scenario.faults[0]'];
    expect(p.rule).toBe(
      '4 busy replies that waited up to 401 ms, more than waitTimeMillsInSendQueue (200 ms): the broker stood still about 401 ms before answering them (the first request that arrived in it waited as long)',
    );
    expect(p.evidence[0]).toBe('rocketmq_client.log:32');
  });

  // gen-700 (5.x broker-b restarted with SIGTERM): its shutdown hook, then its boot 7 s later, no
  // silence of 30 s between; broker-a's watermark.log goes on beside it.
  describe('a restart too short to leave a silence', () => {
    const boot = (t: string) => `2026-12-05 ${t} INFO main - The broker[broker-b, 10.213.0.22:10911] boot success. serializeType=JSON and name server is 10.213.0.11:9876`;
    const hook = ['2026-12-05 04:47:48 INFO ShutdownHook - Shutdown hook was invoked, 1', '2026-12-05 04:47:50 INFO ShutdownHook - Shutdown hook over, consuming total time(ms): 2437'];
    const watermark = Array.from({ length: 60 }, (_, i) => `2026-12-05 04:47:${String(i).padStart(2, '0')} INFO BrokerControllerScheduledThread - [WATERMARK] Send Queue Size: 0 SlowTimeMills: 0`);
    const brokerA: Excerpt = { path: 'mq-broker-a/logs/rocketmqlogs/watermark.log', text: watermark };

    it('is a shutdown at the hook and the processes up at the boot line', async () => {
      const ctx = await contextOf([brokerA, { path: 'mq-broker-b/logs/rocketmqlogs/broker.log', text: [boot('04:46:22'), ...hook, boot('04:47:55')] }]);
      const list = faults(ctx);
      expect(list.map((f) => ('state' in f ? `${f.host} ${f.state}` : '?'))).toEqual(['mq-broker-b down', 'mq-broker-b up']);
      expect(at(ctx, list[0])).toBe(Date.parse('2026-12-05T04:47:48.500+08:00'));
      expect(at(ctx, list[1])).toBe(Date.parse('2026-12-05T04:47:55.500+08:00'));
      expect(ctx.provenance['scenario.faults[0]']).toEqual({ rule: 'the shutdown hook, then its boot 7 s later', evidence: ['mq-broker-b/logs/rocketmqlogs/broker.log:2'] });
      expect(ctx.provenance['scenario.faults[1]']).toEqual({ rule: 'the processes’ boot lines after the shutdown', evidence: ['mq-broker-b/logs/rocketmqlogs/broker.log:4'] });
    });

    it('is not named where a NameServer beside the broker ran on (a fault stops the whole host)', async () => {
      const broker = (t: string) => boot(t).replace('broker-b, 10.213.0.22', 'broker-b, 10.213.0.21');
      const ns = ['2026-12-05 04:46:15 INFO main - name server address updated. NEW : [10.213.0.21:9876] , OLD: null', '2026-12-05 04:46:15 INFO main - The Name Server boot success. serializeType=JSON, address 0.0.0.0:9876'];
      const ctx = await contextOf([
        brokerA,
        { path: 'mq-node-b/logs/rocketmqlogs/namesrv.log', text: ns },
        { path: 'mq-node-b/logs/rocketmqlogs/broker.log', text: [broker('04:46:22'), ...hook, broker('04:47:55')] },
      ]);
      expect(faults(ctx)).toEqual([]);
    });

    it('is not named without a boot after the hook (the logs may end with an operator\'s stop)', async () => {
      const ctx = await contextOf([brokerA, { path: 'mq-broker-b/logs/rocketmqlogs/broker.log', text: [boot('04:46:22'), ...hook] }]);
      expect(faults(ctx)).toEqual([]);
    });
  });
});

function sampleOf(from: number, to: number): string[] {
  return sampleLines('broker-busy/app-feed-01/rocketmq_client.log', from, to);
}

describe('stalls within an overload under a CPU quota, and the sends they held', () => {
  async function inferred(name: string) {
    const dir = join(SAMPLES, 'generated', name);
    const { input } = await inferFromLogs({ inputs: [dir] }, () => '+08:00', dir);
    const sc = input.scenario;
    const epoch = (ms: number) => new Date(sc.startEpochMs + ms).toISOString();
    return { sc, input, epoch };
  }

  it('an overload under a 5 % quota starts at the first watermark second over half the limit, across the seconds its queue drained (gen-20261224)', async () => {
    const { sc, epoch } = await inferred('gen-20261224');
    const lab = JSON.parse(readFileSync(join(SAMPLES, 'generated', 'gen-20261224', 'lab.json'), 'utf8')).faults.find((f: { kind: string }) => f.kind === 'overload');
    const o = sc.faults.find((f): f is Extract<Fault, { overload: unknown }> => 'overload' in f && f.broker === 'broker-c')!;
    expect(Math.abs(Date.parse(epoch(o.atMs)) - Date.parse(lab.start))).toBeLessThanOrEqual(10_000);
  });

  it("a 4.5.2 client log's whole-second reply takes the application's time of the same failure; one pass's replies are one stall, and its sends are made when the broker read them (gen-719)", async () => {
    const { sc, input, epoch } = await inferred('gen-719');
    // app-pay-01's rocketmq_client.log prints 06:16:51,051 (the 4.3.0-4.7.1 logger's seconds as
    // milliseconds) for the reply that waited 598 ms; its app.log has that failure at 06:16:51.360,
    // 1 ms before app-order-01's 502 ms reply (5.3.2, real milliseconds): one BrokerFastFailure pass.
    const stalls = sc.faults.filter((f): f is Extract<Fault, { stall: unknown }> => 'stall' in f && f.broker === 'broker-b');
    const pass = stalls.find((f) => epoch(f.atMs + f.stall.durationMs + 1) === '2026-12-04T22:16:51.360Z');
    expect(pass).toBeDefined();
    // It stopped one cleaner period (10 ms) before the 598 ms waiter turned 200 ms old.
    expect(pass!.stall.durationMs).toBe(598 - 200 + 10);
    expect(stalls.some((f) => epoch(f.atMs + f.stall.durationMs + 1) === '2026-12-04T22:16:51.000Z')).toBe(false);
    const i = sc.clients.findIndex((c) => c.host === 'app-pay-01');
    const pay = sc.clients[i];
    expect(pay.loggedSends?.map((s) => [epoch(s.atMs), s.broker])).toContainEqual(['2026-12-04T22:16:50.762Z', 'broker-b']);
    // Only the held ones (over 300 ms): 397 and 598 ms, not the 297 ms of the same second.
    expect(pay.loggedSends).toHaveLength(2);
    expect(input.provenance[`scenario.clients[${i}].loggedSends`].rule).toMatch(/^the 2 sends whose busy replies a stall held/);
  });

  it("a lone busy reply with nothing queued behind it is a stall of its wait, whose send is made when the broker read it (gen-702: broker-c's 205 ms, no fault of the lab's)", async () => {
    const { sc, input, epoch } = await inferred('gen-702');
    // app-order-01's client log: `period in queue: 205ms, size of queue: 0 BROKER: 10.213.0.23:10911`,
    // the only busy reply of broker-c: its send threads took nothing for 205 ms.
    const stalls = sc.faults.filter((f): f is Extract<Fault, { stall: unknown }> => 'stall' in f && f.broker === 'broker-c');
    expect(stalls.map((f) => f.stall.durationMs)).toEqual([206]);
    expect(sc.faults.some((f) => 'overload' in f && f.broker === 'broker-c')).toBe(false);
    const i = sc.clients.findIndex((c) => c.host === 'app-order-01');
    expect(sc.clients[i].loggedSends).toHaveLength(1);
    const [send] = sc.clients[i].loggedSends!;
    expect(send.broker).toBe('broker-c');
    // Read inside the stall, 205 ms before the reply, which comes when the stall ends.
    expect(send.atMs).toBeGreaterThan(stalls[0].atMs);
    expect(epoch(stalls[0].atMs + stalls[0].stall.durationMs + 1)).toBe(epoch(send.atMs + 205));
    expect(input.provenance[`scenario.faults[${sc.faults.indexOf(stalls[0])}]`].rule).toMatch(/the only request in its queue \(`size of queue: 0`\) waited as long/);
  });

  it('without held replies no client gets logged sends (gen-700: a broker down, no busy reply)', async () => {
    const { sc } = await inferred('gen-700');
    expect(sc.clients.every((c) => c.loggedSends === undefined)).toBe(true);
  });
});

// gen-20270101: the network cut mq-broker-c-s off from both NameServers (09:20:30-09:23:00) while
// mq-ns-2 answered everyone else. Its slave's registrations timed out, and its reconnects failed with
// `connect to 10.213.0.12:9876 failed` three seconds after `createChannel: ... timeout 3000ms`: a
// connect that timed out, not a port refused. A 4.x NameServer keeps no clock in its log, and one
// peer's timeouts are as well a cut between the two: no hang, no crash of mq-ns-2.
it('gen-20270101: one peer cut off from a NameServer host is neither its hang nor its crash', async () => {
  const dir = join(SAMPLES, 'generated', 'gen-20270101');
  const { input } = await inferFromLogs({ inputs: [dir] }, () => '+08:00', dir);
  const onNs2 = input.scenario.faults.filter((f) => 'host' in f && f.host === 'mq-ns-2');
  expect(onNs2).toEqual([]);
  // The NameServer host that did reboot is still read as such.
  expect(input.scenario.faults.some((f) => 'state' in f && f.host === 'mq-ns-1' && f.state === 'reboot')).toBe(true);
});

// gen-20270104: broker-c under a 10 % CPU quota from 09:37:56.8 to 09:38:41.9 answered no request
// busy (BrokerFastFailure's cleaner got no CPU either); its watermark printed the send queue's head
// waiting up to 2295 ms, and one client's call timed out. The overload is read from the watermark.
it('gen-20270104: an overload no busy reply shows, from the watermark, within 10 s of the lab\'s', async () => {
  const dir = join(SAMPLES, 'generated', 'gen-20270104');
  const { input } = await inferFromLogs({ inputs: [dir] }, () => '+08:00', dir);
  const sc = input.scenario;
  const lab = JSON.parse(readFileSync(join(dir, 'lab.json'), 'utf8')).faults.find((f: { kind: string }) => f.kind === 'overload');
  const o = sc.faults.find((f): f is Extract<Fault, { overload: unknown }> => 'overload' in f && f.broker === 'broker-c')!;
  expect(o).toBeDefined();
  expect(Math.abs(sc.startEpochMs + o.atMs - Date.parse(lab.start))).toBeLessThanOrEqual(10_000);
  expect(Math.abs(sc.startEpochMs + o.atMs + o.overload.durationMs - Date.parse(lab.end))).toBeLessThanOrEqual(10_000);
  const i = sc.faults.indexOf(o);
  expect(input.provenance[`scenario.faults[${i}]`].rule).toMatch(/with no busy reply logged: an overload/);
});
