// JSON text made safe to show: the same JSON value, with what a terminal must not get raw escaped.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonSafe } from '../../src/util/text.js';

const RAW = /[\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe('jsonSafe', () => {
  it('escapes DEL, C1 controls, separators and bidirectional marks, and nothing else', () => {
    expect(jsonSafe('{"a":"x\u007fy"}')).toBe('{"a":"x\\u007fy"}');
    expect(jsonSafe('{"a":"\u0085\u2028\u202e\u2066"}')).toBe('{"a":"\\u0085\\u2028\\u202e\\u2066"}');
    expect(jsonSafe('{"a":"plain ascii ~ } 中文 é"}')).toBe('{"a":"plain ascii ~ } 中文 é"}');
    expect(jsonSafe('')).toBe('');
  });

  it('keeps the JSON value, leaves nothing raw, and gives the same the second time, for any string', () => {
    const piece = fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.constantFrom('\u007f', '\u0080', '\u009f', '\u00a0', '\u061c', '\u200e', '\u2028', '\u202a', '\u2069', '\ud800', 'é', '中'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (parts) => {
        const value = { text: parts.join('') };
        const json = JSON.stringify(value);
        const safe = jsonSafe(json);
        expect(JSON.parse(safe)).toEqual(value);
        expect(RAW.test(safe)).toBe(false);
        expect(jsonSafe(safe)).toBe(safe);
        if (!RAW.test(json)) expect(safe).toBe(json);
      }),
      { numRuns: 3000 },
    );
  });
});
