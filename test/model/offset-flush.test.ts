// A broker persists its consumer offsets every 5 s (ConsumerOffsetManager.persist,
// flushConsumerOffsetInterval) and in its shutdown hook: killed (-9), it boots with the offsets of its
// last persist and the group consumes again what it had committed since; stopped (SIGTERM), nothing.

import { describe, expect, it } from 'vitest';
import { MessageStore } from '../../src/model/store.js';
import { runScenario, type Scenario } from '../../src/model/index.js';
import { twoMastersScenario } from './scenarios.js';

describe('MessageStore offsets across a kill', () => {
  it('goes back to the offsets of its last persist and tells what each queue lost', () => {
    const s = new MessageStore('broker-a');
    const lost: Array<[string, string, number, number]> = [];
    s.offsetLostListeners.push((g, t, q, c) => lost.push([g, t, q, c]));
    s.commitOffset('CID_STOCK', 'TopicOrder', 0, 10);
    s.commitOffset('CID_STOCK', 'TopicOrder', 1, 7);
    s.flushOffsets();
    s.commitOffset('CID_STOCK', 'TopicOrder', 0, 14);
    s.commitOffset('CID_STOCK', '%RETRY%CID_STOCK', 0, 2);
    s.restoreFlushedOffsets();
    expect(s.queryOffset('CID_STOCK', 'TopicOrder', 0)).toBe(10);
    expect(s.queryOffset('CID_STOCK', 'TopicOrder', 1)).toBe(7);
    expect(s.queryOffset('CID_STOCK', '%RETRY%CID_STOCK', 0)).toBe(-1);
    expect(lost).toEqual([
      ['CID_STOCK', 'TopicOrder', 0, 14],
      ['CID_STOCK', '%RETRY%CID_STOCK', 0, 2],
    ]);
    // Persisted just before (a shutdown hook): nothing is lost.
    s.commitOffset('CID_STOCK', 'TopicOrder', 0, 20);
    s.flushOffsets();
    lost.length = 0;
    s.restoreFlushedOffsets();
    expect(s.queryOffset('CID_STOCK', 'TopicOrder', 0)).toBe(20);
    expect(lost).toEqual([]);
  });
});

/**
 * consumer-slow-listener's cluster with a second master and a fast listener; broker-a stopped 60 s
 * from 100 s on, killed or with its shutdown hook. Its queues leave the route, so the instances drop
 * them and read their offsets from broker-a when it is back.
 */
function stopped(graceful: boolean): { scenario: Scenario; untilMs: number } {
  const sc = twoMastersScenario();
  sc.faults = [
    { atMs: 100000, host: 'mq-broker-a', state: 'down', ...(graceful ? { graceful: true } : {}) },
    { atMs: 160000, host: 'mq-broker-a', state: 'up' },
  ];
  return { scenario: sc, untilMs: 220000 };
}

const twice = (s: { scenario: Scenario; untilMs: number }, seed: number) => runScenario(s.scenario, { seed, untilMs: s.untilMs, watermark: false, keepTypes: new Set() }).metrics.consumerGroups!.CID_STOCK.duplicates;

describe('a broker killed loses the offsets committed since its last persist', () => {
  it('killed, the group consumes more again than when the broker ran its shutdown hook', () => {
    for (const seed of [1, 2, 3]) {
      const killed = twice(stopped(false), seed);
      const hooked = twice(stopped(true), seed);
      expect(killed).toBeGreaterThan(hooked);
    }
  });
});
