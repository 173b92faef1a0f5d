// Performance smoke: a 10-minute incident with 4 brokers, 2 NameServers and 50 producers at 20 sends/s
// each. Prints the wall time; asserts behaviour only (timing depends on the machine).

import { expect, it } from 'vitest';
import { loadIncident } from '../../src/model/load-incident.js';
import { runScenario, type Scenario } from '../../src/model/scenario.js';

const seed = 31337;

it(`10-minute incident, 4 brokers, 2 NameServers, 50 producers x 20 sends/s completes (seed ${seed})`, () => {
  const scenario: Scenario = loadIncident();
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
