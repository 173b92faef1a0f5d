// Performance smoke: a 10-minute incident with 4 brokers, 2 NameServers and 50 producers at 20 sends/s
// each. Prints the wall time; asserts behaviour only (timing depends on the machine).

import { expect, it } from 'vitest';
import { runScenario, type Scenario } from '../../src/model/scenario.js';

const seed = 31337;

it(`10-minute incident, 4 brokers, 2 NameServers, 50 producers x 20 sends/s completes (seed ${seed})`, () => {
  const scenario: Scenario = {
    name: 'load-smoke',
    startEpochMs: Date.UTC(2024, 2, 12, 2, 0, 0),
    serverVersion: '4.9.4',
    nameServers: [
      { addr: '10.10.1.11:9876', host: 'mq-ns-1' },
      { addr: '10.10.1.12:9876', host: 'mq-ns-2' },
    ],
    brokers: [1, 2, 3, 4].map((i) => ({ name: `broker-${i}`, addr: `10.10.1.${20 + i}:10911`, host: `mq-broker-${i}` })),
    topics: [{ name: 'TopicLoad', queues: 8 }],
    clients: Array.from({ length: 50 }, (_, i) => ({
      host: `app-${String(i + 1).padStart(2, '0')}`,
      version: i % 2 === 0 ? '4.8.0' : '4.9.4',
      topic: 'TopicLoad',
      sendRatePerSec: 20,
    })),
    faults: [
      { atMs: 120000, host: 'mq-broker-2', state: 'hung' },
      { atMs: 300000, host: 'mq-broker-2', state: 'reboot' },
      { atMs: 420000, broker: 'broker-3', stall: { durationMs: 600 } },
    ],
  };
  const wallStart = performance.now();
  const r = runScenario(scenario, { seed, untilMs: 600000 });
  const wallMs = performance.now() - wallStart;
  const clients = Object.values(r.metrics.clients);
  const sends = clients.reduce((a, c) => a + c.sends, 0);
  console.log(`load-smoke: ${sends} sends, ${r.steps} steps, ${r.events.length} events in ${wallMs.toFixed(0)} ms of wall time`);
  expect(sends).toBeGreaterThan(50 * 20 * 590 * 0.95);
  expect(clients.every((c) => c.failedSends > 0)).toBe(true);
  // Hung broker-2 leaves both NameServers' routes; the stall of broker-3 gives busy replies.
  expect(r.metrics.removals.filter((x) => x.brokerName === 'broker-2')).toHaveLength(2);
  expect(r.metrics.brokers['broker-3'].byReason.TIMEOUT_CLEAN_QUEUE).toBeGreaterThan(0);
  expect(r.metrics.brokers['broker-3'].waitMsMin!).toBeGreaterThanOrEqual(200);
});
