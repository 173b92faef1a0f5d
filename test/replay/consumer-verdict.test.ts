// The consumer groups' figures in replay's verdict (src/replay/consumer-verdict.ts): the run's lag is
// read at the logs' minute ends, above its lowest point there, and held to the logs' figure; counts
// within their tolerance; a figure the logs cannot tell is not compared. The recordings' verdicts are
// held in test/replay/consumer-recordings.test.ts.

import { describe, expect, it } from 'vitest';
import { BACKLOG_MIN, compareConsumers, consumerDivergence } from '../../src/replay/consumer-verdict.js';
import type { ConsumerGroupMetrics } from '../../src/model/index.js';
import type { ConsumerFigure } from '../../src/diagnosis/types.js';

const T0 = Date.UTC(2026, 11, 5, 11, 0, 0);
const MIN = 60_000;

/** A run's metrics with its lag sampled every 10 s from T0 by `lagAt(ms since T0)`. */
function run(lagAt: (ms: number) => number, minutes: number, counts: Partial<Pick<ConsumerGroupMetrics, 'failed' | 'dlq' | 'duplicates'>> = {}): ConsumerGroupMetrics {
  const lag: ConsumerGroupMetrics['lag'] = [];
  for (let ms = 10_000; ms <= minutes * MIN; ms += 10_000) lag.push({ atMs: ms, total: lagAt(ms), retry: 0 });
  return { group: 'CID_STOCK', topic: 'TopicOrder', instances: [], deliveries: 0, consumed: 0, failed: counts.failed ?? 0, retried: 0, dlq: counts.dlq ?? 0, duplicates: counts.duplicates ?? 0, flowControlled: 0, pullFailures: 0, lag, maxLag: null };
}

const figure = (f: Partial<ConsumerFigure>): ConsumerFigure => ({ group: 'CID_STOCK', lag: null, failed: null, dlq: null, consumedAgain: null, ...f });
const window = { first: T0, last: T0 + 10 * MIN };

describe('compareConsumers', () => {
  it('reads the run at the minute ends, above its lowest point there: a peak between two minute ends is in neither figure', () => {
    // 10 in flight all along, 200 more from minute 4 to 6, and a spike of 500 at 7:30 that is gone by 8:00.
    const m = run((ms) => 10 + (ms >= 4 * MIN && ms <= 6 * MIN ? 200 : 0) + (ms === 7.5 * MIN ? 500 : 0), 10);
    const [row] = compareConsumers([figure({ lag: { about: 210, at: T0 + 5 * MIN } })], { CID_STOCK: m }, T0, window);
    expect(row).toMatchObject({ figure: 'lag', observed: 210, simulated: 200, simulatedAt: T0 + 4 * MIN, status: 'ok', incident: true });
  });

  it('holds a backlog to 25 % (3 messages at least) and to its minute within 1 min', () => {
    const backlog = (peak: number, atMin: number) => run((ms) => (ms === atMin * MIN ? peak : 0), 10);
    const obs = [figure({ lag: { about: 200, at: T0 + 5 * MIN } })];
    expect(compareConsumers(obs, { CID_STOCK: backlog(250, 5) }, T0, window)[0].status).toBe('ok');
    expect(compareConsumers(obs, { CID_STOCK: backlog(251, 5) }, T0, window)[0].status).toBe('diverged');
    expect(compareConsumers(obs, { CID_STOCK: backlog(200, 6) }, T0, window)[0].status).toBe('ok');
    expect(compareConsumers(obs, { CID_STOCK: backlog(200, 7) }, T0, window)[0].status).toBe('diverged');
  });

  it('takes two lags under a backlog as agreeing, and a backlog against none as not; neither alone is an incident', () => {
    const small = compareConsumers([figure({ lag: { about: 0, at: T0 + MIN } })], { CID_STOCK: run((ms) => (ms === 3 * MIN ? BACKLOG_MIN - 1 : 0), 10) }, T0, window)[0];
    expect(small).toMatchObject({ status: 'ok', incident: false });
    const rose = compareConsumers([figure({ lag: { about: 4, at: T0 + MIN } })], { CID_STOCK: run((ms) => (ms === 3 * MIN ? BACKLOG_MIN : 0), 10) }, T0, window)[0];
    expect(rose).toMatchObject({ status: 'diverged', incident: false });
    const missed = compareConsumers([figure({ lag: { about: 328, at: T0 + 5 * MIN } })], { CID_STOCK: run(() => 8, 10) }, T0, window)[0];
    expect(missed).toMatchObject({ simulated: 0, status: 'diverged', incident: true });
  });

  it('holds failed deliveries, the DLQ and messages consumed again within 20 % (2 at least); leaves out what the logs cannot tell', () => {
    const rows = compareConsumers([figure({ failed: 381, dlq: 58, consumedAgain: 0 })], { CID_STOCK: run(() => 0, 10, { failed: 458, dlq: 70, duplicates: 3 }) }, T0, window);
    expect(rows.map((r) => [r.figure, r.status, r.incident])).toEqual([
      ['failed', 'diverged', true],
      ['dlq', 'ok', true],
      ['consumed-again', 'diverged', false],
    ]);
    expect(compareConsumers([figure({})], { CID_STOCK: run(() => 0, 10) }, T0, window)).toEqual([]);
  });

  it('says a group the run does not have, and why a figure diverged', () => {
    const [row] = compareConsumers([figure({ failed: 5 })], {}, T0, window);
    expect(row).toMatchObject({ simulated: null, status: 'diverged' });
    expect(consumerDivergence(row, () => '')).toBe('CID_STOCK failed deliveries: no such group in the run vs 5 observed (tolerance 2)');
    const [lag] = compareConsumers([figure({ lag: { about: 328, at: T0 + 5 * MIN } })], { CID_STOCK: run(() => 0, 10) }, T0, window);
    expect(consumerDivergence(lag, (t) => new Date(t).toISOString().slice(11, 19))).toBe('CID_STOCK largest lag at a minute end: 0 at 11:01:00 simulated vs 328 at 11:05:00 observed (tolerance 82; its minute within 1 min)');
  });
});
