// The seed article's figures, default settings: a hung broker (TCP open) leaves the route about 120 s
// after its last registration and clients see it by about 150 s; a crashed broker (connections
// closed) leaves at once and clients see it at their next poll.

import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/model/scenario.js';
import { runScenario } from '../../src/model/scenario.js';
import { BROKER_A, client, seedOutage } from './scenarios.js';

const NS_110 = '192.168.3.110:9876';
const NS_111 = '192.168.3.111:9876';

function lastRegistration(r: RunResult, ns: string, beforeMs: number): number {
  const regs = r.metrics.registrations.filter((x) => x.brokerAddr === BROKER_A && x.namesrv === ns && x.atMs <= beforeMs);
  expect(regs.length).toBeGreaterThan(0);
  return regs[regs.length - 1].atMs;
}

/** When the client's route for TopicOrder first lost broker-a after t. */
function routeDrop(r: RunResult, clientName: string, afterMs: number): number {
  const c = r.metrics.clients[clientName].routeChanges.find(
    (x) => x.topic === 'TopicOrder' && x.atMs > afterMs && x.brokersBefore.includes('broker-a') && !x.brokersAfter.includes('broker-a'),
  );
  expect(c, `${clientName} never dropped broker-a`).toBeDefined();
  return c!.atMs;
}

function hungBroker(hangAtMs: number, opts: { idleSeconds?: number; serverVersion?: string } = {}) {
  // NameServers on their own hosts: only the broker host hangs.
  return seedOutage({
    separateNameServers: true,
    hangAtMs,
    hangMs: 400000,
    serverChannelMaxIdleTimeSeconds: opts.idleSeconds,
    serverVersion: opts.serverVersion,
    clients: [client('app-order-01', '4.8.0', NS_110), client('app-pay-01', '4.9.4', NS_111)],
  });
}

describe('NameServer and route discovery, hung broker (TCP open)', () => {
  const seed = 101;
  // Different hang instants put the hang at different points of the 30 s registration cycle.
  for (const hangAtMs of [300000, 311000, 322500, 329900]) {
    it(`hang at ${hangAtMs / 1000} s (seed ${seed}): removed 120-130 s after the last registration, clients see it by 160 s`, () => {
      const r = runScenario(hungBroker(hangAtMs), { seed, untilMs: 600000 });
      for (const ns of [NS_110, NS_111]) {
        const removal = r.metrics.removals.find((x) => x.namesrv === ns && x.brokerAddr === BROKER_A);
        expect(removal).toBeDefined();
        const since = removal!.atMs - lastRegistration(r, ns, hangAtMs);
        expect(since).toBeGreaterThanOrEqual(120000);
        expect(since).toBeLessThanOrEqual(130000);
        // With the default idle time (120 s) the Netty idle handler closes the silent channel first.
        expect(removal!.reason).toBe('idle');
      }
      const lastReg = lastRegistration(r, NS_110, hangAtMs);
      for (const name of ['app-order-01', 'app-pay-01']) {
        const seen = routeDrop(r, name, hangAtMs) - lastReg;
        expect(seen).toBeGreaterThanOrEqual(120000);
        expect(seen).toBeLessThanOrEqual(160000);
      }
      // The NameServers log the removal with the real texts.
      const removed = r.events.filter((e) => e.type === 'broker-removed' && e.fields.brokerAddr === BROKER_A);
      expect(removed.map((e) => e.fields.reason)).toContain('channel-destroyed');
      expect(r.events.some((e) => e.type === 'pipeline' && e.fields.event === 'idle' && e.kind === 'namesrv')).toBe(true);
    });
  }

  it('with serverChannelMaxIdleTimeSeconds=300 the 10 s scan expires it: `The broker channel expired`, 120-130 s', () => {
    const hangAtMs = 305000;
    const r = runScenario(hungBroker(hangAtMs, { idleSeconds: 300 }), { seed, untilMs: 600000 });
    const expired = r.events.filter((e) => e.type === 'broker-expired');
    expect(expired).toHaveLength(2);
    expect(expired[0].fields).toEqual({ brokerAddr: BROKER_A, idleMs: 120000 });
    for (const ns of [NS_110, NS_111]) {
      const removal = r.metrics.removals.find((x) => x.namesrv === ns)!;
      expect(removal.reason).toBe('expired');
      const since = removal.atMs - lastRegistration(r, ns, hangAtMs);
      expect(since).toBeGreaterThan(120000);
      expect(since).toBeLessThanOrEqual(130000);
    }
    // 4.x expiry prints no "channel destroyed" line, only the removals.
    expect(r.events.some((e) => e.entry === 'broker-removed/channel-destroyed')).toBe(false);
    expect(r.events.some((e) => e.entry === 'broker-removed/remove-broker-addr')).toBe(true);
  });

  it('a 5.x NameServer scans every 5 s: expired 120-125 s after the last registration', () => {
    const hangAtMs = 305000;
    const r = runScenario(hungBroker(hangAtMs, { idleSeconds: 300, serverVersion: '5.3.3' }), { seed, untilMs: 600000 });
    for (const ns of [NS_110, NS_111]) {
      const removal = r.metrics.removals.find((x) => x.namesrv === ns)!;
      expect(removal.reason).toBe('expired');
      const since = removal.atMs - lastRegistration(r, ns, hangAtMs);
      expect(since).toBeGreaterThan(120000);
      expect(since).toBeLessThanOrEqual(125000);
    }
    expect(r.events.filter((e) => e.entry === 'broker-expired/identity')).toHaveLength(2);
  });
});

describe('NameServer and route discovery, crashed broker (connections closed)', () => {
  const seed = 102;
  it(`removed at once, clients see it within one poll (seed ${seed})`, () => {
    const sc = hungBroker(0);
    const crashAtMs = 300000;
    sc.faults = [{ atMs: crashAtMs, host: 'mq-node-100', state: 'down' }];
    const r = runScenario(sc, { seed, untilMs: 400000 });
    for (const ns of [NS_110, NS_111]) {
      const removal = r.metrics.removals.find((x) => x.namesrv === ns)!;
      expect(removal.reason).toBe('closed');
      expect(removal.atMs - crashAtMs).toBeLessThan(10);
    }
    for (const name of ['app-order-01', 'app-pay-01']) {
      const seen = routeDrop(r, name, crashAtMs) - crashAtMs;
      expect(seen).toBeGreaterThan(0);
      expect(seen).toBeLessThanOrEqual(30000);
    }
    expect(r.events.filter((e) => e.entry === 'broker-removed/channel-destroyed')).toHaveLength(2);
  });
});
