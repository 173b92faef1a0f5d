// DefaultLitePullConsumer's offsets (4.9.4, autoCommit): what the application polled goes into the
// offset store only at the first poll after each autoCommitIntervalMillis (5 s, commitAll), its pulls
// commit nothing, and its shutdown persists the store: what it polled since the last commit is
// consumed again by the queue's next owner.

import { describe, expect, it } from 'vitest';
import { runScenario, type Scenario } from '../../src/model/index.js';
import { twoMastersScenario } from './scenarios.js';

/** Two instances at 5 sends/s; app-stock-02 shuts down at 100 s (offsets persisted, unregistered). */
function stopScenario(mode: 'concurrently' | 'litePull'): Scenario {
  const sc = twoMastersScenario();
  const g = sc.consumerGroups![0];
  g.consumeMode = mode;
  g.instances[1] = { ...g.instances[1], stopAtMs: 100000, stop: 'shutdown' };
  return sc;
}

const run = (sc: Scenario, seed: number) => Object.values(runScenario(sc, { seed, untilMs: 160000, watermark: false, keepTypes: new Set() }).metrics.consumerGroups!)[0];

describe('a lite pull group', () => {
  for (const seed of [1, 2, 3]) {
    it(`an instance that shuts down leaves what it polled since its last commit to the next owner (seed ${seed})`, () => {
      const push = run(stopScenario('concurrently'), seed);
      const lite = run(stopScenario('litePull'), seed);
      // A push consumer's shutdown persists every offset it consumed: nothing again.
      expect(push.duplicates).toBe(0);
      // Its half of 5 sends/s over up to 5 s since the last commit.
      expect(lite.duplicates).toBeGreaterThan(0);
      expect(lite.duplicates).toBeLessThanOrEqual(15);
    });
  }

  it("the broker's offsets trail what was consumed by up to two periods (commit, then persist): a larger lag than a push group's", () => {
    const push = run(stopScenario('concurrently'), 1);
    const lite = run(stopScenario('litePull'), 1);
    const mean = (g: typeof push) => g.lag.reduce((n, x) => n + x.total, 0) / g.lag.length;
    expect(mean(lite)).toBeGreaterThan(2 * mean(push));
    // 5 sends/s, at most 10 s behind.
    expect(lite.maxLag!.total).toBeLessThanOrEqual(5 * 10 + 5);
  });
});
