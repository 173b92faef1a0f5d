import { describe, expect, it } from 'vitest';
import { LAYOUTS } from '../../src/parse/layouts.js';
import { compileTimestamp } from '../../src/parse/timestamp.js';

describe('layouts as data', () => {
  it('have unique ids', () => {
    const ids = LAYOUTS.map((l) => l.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  for (const layout of LAYOUTS) {
    describe(layout.id, () => {
      it('has samples', () => expect(layout.samples.length).toBeGreaterThan(0));
      for (const sample of layout.samples) {
        it(`matches its sample: ${sample.slice(0, 60)}`, () => {
          const m = layout.header.exec(sample);
          expect(m, sample).not.toBeNull();
          const g = m!.groups!;
          const msg = g.msg ?? sample.slice(m![0].length);
          expect(typeof msg).toBe('string');
          if (layout.ts) {
            const f = compileTimestamp(layout.ts).read(g.ts);
            expect(f, `timestamp ${g.ts}`).not.toBeNull();
          }
        });
        it(`is the first layout by priority to match its sample: ${sample.slice(0, 40)}`, () => {
          const first = [...LAYOUTS].sort((a, b) => a.priority - b.priority).find((l) => l.header.test(sample));
          expect(first?.id).toBe(layout.id);
        });
      }
    });
  }
});

describe('timestamp formats', () => {
  it('reads the server format without millis', () => {
    expect(compileTimestamp('yyyy-MM-dd HH:mm:ss').read('2024-05-20 14:03:07')).toMatchObject({ y: 2024, mo: 5, d: 20, h: 14, mi: 3, s: 7, ms: 0 });
  });
  it('reads cpp month names and microseconds', () => {
    expect(compileTimestamp('yyyy-MMM-dd HH:mm:ss.SSSSSS').read('2020-May-17 07:41:38.780542')).toMatchObject({ y: 2020, mo: 5, d: 17, ms: 780 });
  });
  it('reads two-digit years as 20yy', () => {
    expect(compileTimestamp('yy-MM-dd HH:mm:ss').read('16-11-02 10:56:03')).toMatchObject({ y: 2016, mo: 11, d: 2 });
  });
  it('reads a printed offset', () => {
    expect(compileTimestamp("yyyy-MM-dd'T'HH:mm:ss.SSSXXX").read('2024-01-15T10:00:01.123+08:00')).toMatchObject({ offsetMin: 480, ms: 123 });
  });
  it('rejects out-of-range fields', () => {
    expect(compileTimestamp('yyyy-MM-dd HH:mm:ss').read('2024-13-20 14:03:07')).toBeNull();
    expect(compileTimestamp('yyyy-MM-dd HH:mm:ss').read('2024-12-20 25:03:07')).toBeNull();
  });
  it('checks shape by character class', () => {
    const r = compileTimestamp('yyyy-MM-dd HH:mm:ss');
    expect(r.shape('2024-05-20 14:03:07 INFO', 0)).toBe(true);
    expect(r.shape('\tat org.apache', 0)).toBe(false);
    expect(r.shape('[2024-05-20 14:03:07]', 1)).toBe(true);
  });
});
