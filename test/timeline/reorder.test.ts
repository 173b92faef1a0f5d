import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildTimeline } from '../../src/timeline/build.js';
import { ReorderWindow } from '../../src/timeline/reorder.js';

describe('reorder window', () => {
  it('puts disorder smaller than the window back in time order, equal times in file order', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 60 }), (times) => {
        const out: string[] = [];
        const w = new ReorderWindow(64, (l) => out.push(l));
        times.forEach((t, i) => w.push(t, `${t}:${i}`));
        w.flush();
        const expected = times.map((t, i) => ({ t, i })).sort((a, b) => a.t - b.t || a.i - b.i).map((x) => `${x.t}:${x.i}`);
        expect(out).toEqual(expected);
      }),
    );
  });

  it('keeps an event with no time beside the event before it', () => {
    const out: string[] = [];
    const w = new ReorderWindow(8, (l) => out.push(l));
    w.push(30, 'c');
    w.push(null, 'c-stack');
    w.push(10, 'a');
    w.push(null, 'a-stack');
    w.flush();
    expect(out).toEqual(['a', 'a-stack', 'c', 'c-stack']);
  });

  it('holds no more than its size', () => {
    const out: string[] = [];
    const w = new ReorderWindow(2, (l) => out.push(l));
    for (let i = 5; i > 0; i--) w.push(i, String(i));
    expect(out).toHaveLength(3);
  });
});

describe('a paste copied newest first', () => {
  it('comes out of the timeline in time order, with its window', async () => {
    const file = join(__dirname, '..', 'fixtures', 'real', '79-ons-starter-tbw102-newest-first-code17.log');
    const t = await buildTimeline({ inputs: [file], workers: 0 });
    try {
      const events = [...t.events()];
      expect(events.map((e) => e.line)).toEqual([5, 6, 1, 2]);
      expect(new Date(t.first!).toISOString()).toBe('2021-04-22T03:14:09.000Z');
      expect(new Date(t.last!).toISOString()).toBe('2021-04-22T03:14:23.000Z');
    } finally {
      t.close();
    }
  });
});
