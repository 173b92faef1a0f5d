// The seed outage: two hosts, each with a NameServer and a broker; host A (192.168.3.100) hangs for
// 600 s with its TCP connections open, then reboots. A client bound to A's NameServer keeps timing
// out on route polls and never switches (clientCloseSocketIfTimeout is false before 4.9.1) until
// the reboot resets the connection; a client bound to B sees the route change within ~150 s.

import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/model/scenario.js';
import { runScenario } from '../../src/model/scenario.js';
import { client, NS_A, NS_B, SEED_START_EPOCH_MS, seedOutage } from './scenarios.js';

const HANG_AT_MS = 420000;
const HANG_MS = 600000;
const REBOOT_AT_MS = HANG_AT_MS + HANG_MS;

function drops(r: RunResult, name: string): number[] {
  return r.metrics.clients[name].routeChanges
    .filter((c) => c.topic === 'TopicOrder' && c.brokersBefore.includes('broker-a') && !c.brokersAfter.includes('broker-a'))
    .map((c) => c.atMs);
}

describe('seed outage, NameServer and broker on each host, host A hangs 600 s', () => {
  const seed = 20201222;
  const r = runScenario(seedOutage({ hangAtMs: HANG_AT_MS, hangMs: HANG_MS }), { seed, untilMs: REBOOT_AT_MS + 120000 });
  const order = r.metrics.clients['app-order-01'];
  const pay = r.metrics.clients['app-pay-01'];

  it(`4.8.0 client bound to A's NameServer is stuck until the reboot (seed ${seed})`, () => {
    expect(order.namesrvChosen[0].addr).toBe(NS_A);
    // Route polls time out every 30 s for the whole hang, on the same (active) channel.
    const polls = r.events.filter((e) => e.host === 'app-order-01' && e.entry === 'route-update-failed/exception');
    expect(polls.length).toBeGreaterThanOrEqual(19);
    expect(polls.every((e) => e.fields.addr === NS_A && String(e.fields.cause).startsWith('RemotingTimeoutException'))).toBe(true);
    // No switch during the hang: the second choice comes only after the reboot reset the channel.
    expect(order.namesrvChosen).toHaveLength(2);
    expect(order.namesrvChosen[1].addr).toBe(NS_B);
    expect(order.namesrvChosen[1].atMs).toBeGreaterThan(REBOOT_AT_MS);
    expect(order.namesrvChosen[1].atMs - REBOOT_AT_MS).toBeLessThanOrEqual(31000);
    expect(drops(r, 'app-order-01')[0]).toBeGreaterThan(REBOOT_AT_MS);
    // Sends to broker-a use the whole 3 s budget: `sendDefaultImpl call timeout`, for ~600 s.
    expect(order.outageMs).toBeGreaterThan(570000);
    expect(order.outageMs).toBeLessThan(640000);
    expect(order.sendCallTimeouts).toBe(order.failedSends);
    // The reboot shows up as a connection reset on the NameServer channel, then the switch.
    expect(r.events.some((e) => e.host === 'app-order-01' && e.type === 'pipeline' && e.fields.event === 'exception' && e.fields.addr === NS_A)).toBe(true);
  });

  it('4.6.0 client bound to B sees the route change within ~150 s of the hang', () => {
    expect(pay.namesrvChosen[0].addr).toBe(NS_B);
    expect(pay.namesrvChosen).toHaveLength(1);
    const seen = drops(r, 'app-pay-01')[0] - HANG_AT_MS;
    expect(seen).toBeGreaterThan(90000);
    expect(seen).toBeLessThanOrEqual(160000);
    expect(pay.outageMs).toBeLessThanOrEqual(160000);
    expect(pay.lastFailedSendAtMs!).toBeLessThan(HANG_AT_MS + 165000);
  });

  it('broker-b keeps failing to register with the hung NameServer (6000 ms timeouts)', () => {
    const failed = r.events.filter((e) => e.host === 'mq-node-101' && e.type === 'register-failed');
    expect(failed.length).toBeGreaterThanOrEqual(19);
    expect(r.events.some((e) => e.host === 'mq-node-101' && e.type === 'rpc-timeout' && e.fields.timeoutMs === 6000)).toBe(true);
    // Host A writes nothing while hung.
    const during = r.events.filter(
      (e) => e.host === 'mq-node-100' && e.ts! > SEED_START_EPOCH_MS + HANG_AT_MS + 1 && e.ts! < SEED_START_EPOCH_MS + REBOOT_AT_MS,
    );
    expect(during).toEqual([]);
  });
});

describe('seed outage variants', () => {
  const seed = 4242;

  it(`with closeSocketIfTimeout (4.9.4 client) the client bound to A switches after its first timeout and recovers in ~150 s (seed ${seed})`, () => {
    const r = runScenario(seedOutage({ clients: [client('app-order-01', '4.9.4', NS_A)] }), { seed, untilMs: REBOOT_AT_MS });
    const m = r.metrics.clients['app-order-01'];
    expect(m.namesrvChosen[0].addr).toBe(NS_A);
    expect(m.namesrvChosen[1].addr).toBe(NS_B);
    // First poll after the hang times out (3 s) and closes the channel; the next poll picks B.
    expect(m.namesrvChosen[1].atMs - HANG_AT_MS).toBeLessThanOrEqual(65000);
    expect(r.events.some((e) => e.host === 'app-order-01' && e.entry === 'channel-closed/timeout' && e.fields.addr === null)).toBe(true);
    const seen = drops(r, 'app-order-01')[0] - HANG_AT_MS;
    expect(seen).toBeLessThanOrEqual(160000);
    expect(m.outageMs).toBeLessThanOrEqual(165000);
  });

  it('the same with the system property forced off behaves like 4.8.0 (stuck)', () => {
    const c = client('app-order-01', '4.9.4', NS_A, {}, { clientCloseSocketIfTimeout: false });
    const r = runScenario(seedOutage({ clients: [c] }), { seed, untilMs: REBOOT_AT_MS + 60000 });
    const m = r.metrics.clients['app-order-01'];
    expect(m.namesrvChosen[1].atMs).toBeGreaterThan(REBOOT_AT_MS);
    expect(m.outageMs).toBeGreaterThan(570000);
  });

  it('with the NameServers on their own hosts, a 4.8.0 client recovers in ~150 s whichever it is bound to', () => {
    const clients = [client('app-order-01', '4.8.0', '192.168.3.110:9876'), client('app-pay-01', '4.8.0', '192.168.3.111:9876')];
    const r = runScenario(seedOutage({ separateNameServers: true, clients }), { seed, untilMs: REBOOT_AT_MS });
    for (const name of ['app-order-01', 'app-pay-01']) {
      const m = r.metrics.clients[name];
      expect(m.namesrvChosen).toHaveLength(1);
      expect(drops(r, name)[0] - HANG_AT_MS).toBeLessThanOrEqual(160000);
      expect(m.failedSends).toBeGreaterThan(0);
      expect(m.outageMs).toBeLessThanOrEqual(165000);
    }
  });
});
