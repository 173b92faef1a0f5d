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

describe("a lite pull group's polls (DefaultLitePullConsumerImpl.poll, 4.9.4)", () => {
  const lagMean = (g: ReturnType<typeof run>, fromMs: number) => {
    const xs = g.lag.filter((x) => x.atMs >= fromMs && x.atMs < 100000);
    return xs.reduce((n, x) => n + x.total, 0) / xs.length;
  };

  for (const seed of [1, 2, 3]) {
    it(`commits at the polls, which drift against the 5 s persist: the broker's offsets trail by about 5 s on average, not the aligned timers' 7.5 s (seed ${seed})`, () => {
      const lite = run(stopScenario('litePull'), seed);
      // 5 sends/s; the samples from 30 s (both instances polling) to the stop at 100 s.
      const mean = lagMean(lite, 30000);
      expect(mean).toBeGreaterThan(5 * 3);
      expect(mean).toBeLessThan(5 * 6.5);
    });
  }

  it('one polling thread an instance consumes one message at a time: a listener slower than the rate falls behind where a push pool keeps up', () => {
    const slow = (mode: 'concurrently' | 'litePull') => {
      const sc = stopScenario(mode);
      // 300 ms a message: one thread consumes 3.3 a second, the instance's half of 5 sends/s is 2.5, all of it after the stop.
      sc.consumerGroups![0].listener = { processMs: 300 };
      return run(sc, 1);
    };
    const push = slow('concurrently');
    const lite = slow('litePull');
    expect(push.maxLag!.total).toBeLessThan(30);
    // From the stop at 100 s app-stock-01 alone gets 5 a second and consumes 3.3: about 100 behind 60 s later.
    const at = (g: typeof lite, ms: number) => g.lag.find((x) => x.atMs >= ms)!.total;
    expect(at(lite, 150000) - at(lite, 110000)).toBeGreaterThan(40);
  });
});
