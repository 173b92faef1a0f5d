// A server log's activity: every dated record counts, so a host's silences are found from the
// accounting alone (analyze and replay read the same ones).
import { describe, expect, it } from 'vitest';
import { ACTIVITY_GAPS_KEPT, ACTIVITY_SHORT_GAP_MS, ActivityTracker, hostSilences, joinActivity, type SourceActivity } from '../../src/parse/activity.js';
import { SourceParser } from '../../src/parse/parser.js';
import { GMT8 } from '../../src/parse/time.js';
import type { SourceKind } from '../../src/ingest/kinds.js';

const T0 = Date.parse('2024-05-20T14:00:00+08:00');

function track(times: number[]): SourceActivity {
  const t = new ActivityTracker();
  times.forEach((ts, i) => t.note(T0 + ts, i + 1));
  return t.result()!;
}

function parse(kindHint: SourceKind, lines: string[]) {
  const p = new SourceParser({ file: `h/${kindHint}.log`, host: 'h', sourceIndex: 0, kindHint, kindForced: true, defaultZone: GMT8, keepOther: false }, () => {});
  lines.forEach((l, i) => p.line(l, i + 1));
  return p.end();
}

describe('ActivityTracker', () => {
  it('keeps the gaps of 30 s or more between neighbouring records, with their lines', () => {
    const a = track([0, 1000, 2000, 40000, 41000, 100000]);
    expect(a.records).toBe(6);
    expect(a.first).toEqual({ ts: T0, line: 1 });
    expect(a.last).toEqual({ ts: T0 + 100000, line: 6 });
    expect(a.gaps).toEqual([
      { from: { ts: T0 + 2000, line: 3 }, to: { ts: T0 + 40000, line: 4 } },
      { from: { ts: T0 + 41000, line: 5 }, to: { ts: T0 + 100000, line: 6 } },
    ]);
  });

  it('reads a newest-first paste the same way, the earlier record first', () => {
    const a = track([100000, 41000, 40000, 2000]);
    expect(a.gaps.map((g) => [g.from.ts - T0, g.to.ts - T0])).toEqual([
      [41000, 100000],
      [2000, 40000],
    ]);
    expect(a.first.ts).toBe(T0 + 2000);
    expect(a.last.ts).toBe(T0 + 100000);
  });

  it('keeps the gaps of 10 s to 30 s apart, so that the silences of 30 s or more stay what they were', () => {
    const a = track([0, 1000, 21000, 22000, 60000]);
    expect(a.gaps.map((g) => [g.from.ts - T0, g.to.ts - T0])).toEqual([[22000, 60000]]);
    expect(a.shortGaps!.map((g) => [g.from.ts - T0, g.to.ts - T0])).toEqual([[1000, 21000]]);
    // No short gap: no field (the activity of a file written every second is as it was).
    expect(track([0, 1000, 2000]).shortGaps).toBeUndefined();
    expect(ACTIVITY_SHORT_GAP_MS).toBe(10000);
  });

  it('joins a short gap across a cut as one tracker over the whole file keeps it', () => {
    const first = new ActivityTracker();
    [0, 1000].forEach((t, i) => first.note(T0 + t, i + 1));
    const second = new ActivityTracker();
    [15000, 16000].forEach((t, i) => second.note(T0 + t, i + 3));
    const joined = joinActivity(first.result(), first.edges(), second.result(), second.edges());
    expect(joined!.shortGaps).toEqual([{ from: { ts: T0 + 1000, line: 2 }, to: { ts: T0 + 15000, line: 3 } }]);
    expect(joined!.gaps).toEqual([]);
  });

  it('keeps a bounded number of gaps and counts the rest', () => {
    const a = track(Array.from({ length: ACTIVITY_GAPS_KEPT + 11 }, (_, i) => i * 31000));
    expect(a.gaps).toHaveLength(ACTIVITY_GAPS_KEPT);
    expect(a.gapsDropped).toBe(10);
  });
});

describe('hostSilences', () => {
  it('is silent only where none of the host’s sources wrote', () => {
    // broker.log stops at 10 s and goes on at 100 s; watermark.log writes until 60 s: silent 60-100 s.
    const broker = track([0, 5000, 10000, 100000, 101000]);
    const watermark = track([0, 20000, 40000, 60000]);
    const s = hostSilences('h', [{ index: 0, activity: broker }, { index: 1, activity: watermark }], T0 + 200000);
    expect(s.map((x) => [x.from.source, x.from.mark.ts - T0, x.to && x.to.mark.ts - T0])).toEqual([
      [1, 60000, 100000],
      [0, 101000, null],
    ]);
  });

  it('finds a silence of 10 s or more only when asked for the short ones', () => {
    // watermark.log every second, dark from 20 s to 41 s (gen-702's mq-node-b rebooted for 20 s).
    const wm = track([...Array.from({ length: 21 }, (_, i) => i * 1000), ...Array.from({ length: 10 }, (_, i) => 41000 + i * 1000)]);
    expect(hostSilences('h', [{ index: 0, activity: wm }], T0 + 50000)).toEqual([]);
    const short = hostSilences('h', [{ index: 0, activity: wm }], T0 + 50000, ACTIVITY_SHORT_GAP_MS);
    expect(short.map((x) => [x.from.mark.ts - T0, x.to && x.to.mark.ts - T0])).toEqual([[20000, 41000]]);
  });

  it('finds no silence where the sources take turns', () => {
    const a = track([0, 40000, 80000]);
    const b = track([20000, 60000, 100000]);
    expect(hostSilences('h', [{ index: 0, activity: a }, { index: 1, activity: b }], T0 + 100000)).toEqual([]);
  });
});

describe('the parser', () => {
  const line = (s: number, msg: string) => `2024-05-20 14:${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')} INFO main - ${msg}`;

  it('tracks every record of a server log, also those that are no event', () => {
    const acc = parse('broker', [line(0, 'a'), line(1, 'b'), line(45, 'c'), line(46, 'd')]);
    expect(acc.activity?.records).toBe(4);
    expect(acc.activity?.gaps).toEqual([{ from: { ts: T0 + 1000, line: 2 }, to: { ts: T0 + 45000, line: 3 } }]);
  });

  it('does not track a client log', () => {
    const acc = parse('client', ['2024-05-20 14:00:00,000 INFO RocketmqClient - a', '2024-05-20 14:01:00,000 INFO RocketmqClient - b']);
    expect(acc.activity).toBeUndefined();
  });
});
