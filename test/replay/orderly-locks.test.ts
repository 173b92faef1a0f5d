// consumer-orderly-broker-crash replayed from its logs: when broker-a is back in the route, the
// rebalance adds its queues, locking each on broker-a (RebalanceImpl.lock). In 4.9.4 that lock marks
// only the ProcessQueues already in the table: the new one starts not locked, its pulls wait
// (`pull message later because not locked in broker`, app-stock-01 from 19:53:08 to 19:53:27) until
// ConsumeMessageOrderlyService's lockAll (every 20 s) marks it, and the group's lag peaks then (the
// lab's 115 at 19:53:22). From 4.9.5 the rebalance marks the new ProcessQueue locked (pq.setLocked(true)).

import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { inferFromLogs } from '../../src/replay/load.js';
import { replay } from '../../src/replay/run.js';
import type { ReplayInput } from '../../src/diagnosis/types.js';

const DIR = join(__dirname, '..', '..', 'samples', 'lab', 'consumer-orderly-broker-crash');

describe("consumer-orderly-broker-crash: a 4.9.4 orderly queue added by a rebalance waits for lockAll", () => {
  let input: ReplayInput;
  beforeAll(async () => {
    input = (await inferFromLogs({ inputs: [DIR] }, () => '+08:00', DIR)).input;
  });

  const peak = (version: string | null) => {
    const copy: ReplayInput = JSON.parse(JSON.stringify(input));
    if (version !== null) for (const g of copy.scenario.consumerGroups!) g.version = version;
    const r = replay(copy, { seed: 1, variants: [], runs: 0 });
    return r.run.metrics.consumerGroups!.CID_STOCK.maxLag!;
  };

  it("the recording's clients (4.9.4): broker-a's queues wait for the next lockAll after its return, the lag peaks as the lab's (115 at 19:53:22)", () => {
    expect(input.scenario.consumerGroups![0].version).toBe('4.9.4');
    const p = peak(null);
    expect(Math.abs(p.total - 115)).toBeLessThanOrEqual(0.25 * 115);
    // Within 15 s of the lab's peak (19:53:22 +08:00).
    expect(Math.abs(input.scenario.startEpochMs + p.atMs - Date.parse('2026-12-05T19:53:22+08:00'))).toBeLessThanOrEqual(15000);
  });

  it('a 4.9.5 client marks the queue locked when its rebalance locked it: broker-a is consumed at once and the lag stays lower', () => {
    expect(peak('4.9.5').total).toBeLessThan(0.75 * peak(null).total);
  });
});
