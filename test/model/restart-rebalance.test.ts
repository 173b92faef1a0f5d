// A master restarts: its ConsumerManager starts empty. The group's instances find it back in the route
// at their route polls and heartbeat it 1 s later (MQClientInstance's tasks); the broker notifies every
// channel of the group at each new one, the new instance's own too. The first to heartbeat rebalances;
// when it asks the restarted broker for the client ids (a broker of the route picked at random,
// MQClientInstance.findBrokerAddrByTopic) it is alone there, takes every queue and consumes those the
// others still hold until they register: messages consumed twice across instances.

import { describe, expect, it } from 'vitest';
import { runScenario, type Scenario } from '../../src/model/index.js';
import { twoMastersScenario } from './scenarios.js';

/**
 * consumer-slow-listener's cluster with a second master, a fast listener, `instances` consumers and a
 * producer that sends to one queue of broker-b only (so no offset on broker-a is lost in its restart).
 */
function scenario(instances: number, restart: boolean): Scenario {
  const sc = twoMastersScenario();
  const g = sc.consumerGroups![0];
  g.instances = Array.from({ length: instances }, (_, i) => ({ host: `app-stock-0${i + 1}`, ip: `10.213.0.4${i + 1}`, startAtMs: 18000 + i * 3000 }));
  // The last queue of the route, broker-b's queue 3, with or without broker-a's four.
  sc.clients[0].selector = true;
  sc.clients[0].selectorQueue = 7;
  if (restart) sc.faults = [{ atMs: 80000, host: 'mq-broker-a', state: 'down' }, { atMs: 120000, host: 'mq-broker-a', state: 'up' }];
  return sc;
}

const twice = (sc: Scenario, seed: number) => runScenario(sc, { seed, untilMs: 200000, watermark: false, keepTypes: new Set() }).metrics.consumerGroups!.CID_STOCK.duplicates;

describe('a restarted broker knows no instance until each heartbeats it', () => {
  it('three instances: the first to heartbeat it takes every queue, and what it shares with their owners is consumed twice', () => {
    for (const seed of [1, 2, 3]) expect(twice(scenario(3, true), seed)).toBeGreaterThan(0);
  });

  it("each rebalance asks a broker picked at random for the client ids (MQClientInstance.findBrokerAddrByTopic): the first to heartbeat the restarted broker takes every queue only when it asked that broker", () => {
    const dups = Array.from({ length: 10 }, (_, i) => twice(scenario(3, true), i + 1));
    // Asking broker-b, whose book held all three, it took its own share: nothing twice.
    expect(dups.some((n) => n === 0)).toBe(true);
    expect(dups.filter((n) => n > 0).length).toBeGreaterThan(5);
  });

  it('one instance, or no restart: nothing is consumed twice', () => {
    for (const seed of [1, 2, 3]) {
      expect(twice(scenario(1, true), seed)).toBe(0);
      expect(twice(scenario(3, false), seed)).toBe(0);
    }
  });
});
