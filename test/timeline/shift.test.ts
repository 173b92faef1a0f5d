// --shift: its values, and the timeline view that moves one host's times (its events as merged,
// its span, a server log's activity) and nothing else.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTimeline } from '../../src/timeline/build.js';
import { parseShift, shiftsOf, shiftTimeline } from '../../src/timeline/shift.js';
import { UsageError } from '../../src/util/errors.js';

const SEED = join(__dirname, '..', '..', 'samples', 'seed-outage');

describe('parseShift', () => {
  it('reads signed durations in ms, s, m, h and their sums', () => {
    expect(parseShift('app-order-01=+3.2s')).toEqual({ host: 'app-order-01', ms: 3200 });
    expect(parseShift('app-*=-8h')).toEqual({ host: 'app-*', ms: -28800000 });
    expect(parseShift('a=-1500ms')).toEqual({ host: 'a', ms: -1500 });
    expect(parseShift('a=+1h30m')).toEqual({ host: 'a', ms: 5400000 });
    expect(parseShift('a=+2m5.5s')).toEqual({ host: 'a', ms: 125500 });
    expect(parseShift('a=+4')).toEqual({ host: 'a', ms: 4000 });
  });

  it('refuses what it cannot read, in one line naming the value', () => {
    for (const bad of ['a=3s', 'a=+3x', '=+3s', 'a=', 'a', 'a=+1h30', 'a=+25h']) expect(() => parseShift(bad), bad).toThrow(UsageError);
    expect(() => parseShift('a=3s')).toThrow(/--shift a=3s: 3s is no signed duration/);
  });
});

describe('shiftTimeline', () => {
  it("moves only the named host's events, span and activity, reading the same spill files", async () => {
    const plain = await buildTimeline({ inputs: [SEED], workers: 0 });
    const before = [...plain.events()].map((e) => [e.host, e.ts] as const);
    plain.close();
    const t = await buildTimeline({ inputs: [SEED], workers: 0, shifts: [{ host: 'mq-node-1*', ms: 0 }, { host: 'app-order-01', ms: 3200 }] });
    try {
      const moved = t.accounting.map((a, i) => [a.host, t.shiftMs![i]] as const);
      for (const [host, ms] of moved) expect(ms).toBe(host === 'app-order-01' ? 3200 : 0);
      const after = [...t.events()].map((e) => [e.host, e.ts] as const);
      expect(after).toHaveLength(before.length);
      const sum = (list: typeof before, host: string) => list.filter(([h]) => h === host).reduce((n, [, ts]) => n + (ts ?? 0), 0);
      const n = before.filter(([h]) => h === 'app-order-01').length;
      expect(n).toBeGreaterThan(0);
      expect(sum(after, 'app-order-01') - sum(before, 'app-order-01')).toBe(3200 * n);
      expect(sum(after, 'mq-node-100')).toBe(sum(before, 'mq-node-100'));
      // Still one time order.
      for (let i = 1; i < after.length; i++) expect(after[i][1]! >= after[i - 1][1]!).toBe(true);
    } finally {
      t.close();
    }
  });

  it("adds to what was moved already, and moves a server log's activity and the window", async () => {
    const t = await buildTimeline({ inputs: [SEED], workers: 0 });
    try {
      const i = t.accounting.findIndex((a) => a.host === 'mq-node-100' && a.activity);
      const by = shiftsOf(t, [{ host: 'mq-node-100', ms: -5000 }]);
      const once = shiftTimeline(t, by);
      const twice = shiftTimeline(once, by);
      expect(twice.shiftMs![i]).toBe(-10000);
      expect(twice.accounting[i].activity!.first.ts).toBe(t.accounting[i].activity!.first.ts - 10000);
      expect(twice.accounting[i].activity!.gaps.map((g) => g.from.ts)).toEqual(t.accounting[i].activity!.gaps.map((g) => g.from.ts - 10000));
      expect(twice.spans![i].last).toBe(t.spans![i].last! - 10000);
      expect(twice.first).toBe(Math.min(...twice.spans!.filter((s) => s.first !== null).map((s) => s.first!)));
      // The original is untouched.
      expect(t.shiftMs).toBeUndefined();
    } finally {
      t.close();
    }
  });
});
