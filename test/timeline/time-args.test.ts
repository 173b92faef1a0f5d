import { describe, expect, it } from 'vitest';
import { parseZone } from '../../src/parse/time.js';
import { parseTimeArg, parseTimeSpec, TimeArgError } from '../../src/timeline/time-args.js';

const Z8 = parseZone('+08:00');
const iso = (s: string) => Date.parse(s);
const day = { first: iso('2020-12-22T14:35:00+08:00'), last: iso('2020-12-22T14:59:59+08:00') };

describe('--since / --until values', () => {
  it('reads ISO times with a zone, local date-times and dates in the output zone', () => {
    expect(parseTimeArg('2020-12-22T14:40:00+08:00', Z8, day)).toBe(iso('2020-12-22T14:40:00+08:00'));
    expect(parseTimeArg('2020-12-22T06:40Z', Z8, day)).toBe(iso('2020-12-22T14:40:00+08:00'));
    expect(parseTimeArg('2020-12-22T14:40:00.25-0130', Z8, day)).toBe(iso('2020-12-22T16:10:00.250Z'));
    expect(parseTimeArg('2020-12-22 14:40', Z8, day)).toBe(iso('2020-12-22T14:40:00+08:00'));
    expect(parseTimeArg('2020-12-22', Z8, day)).toBe(iso('2020-12-22T00:00:00+08:00'));
  });

  it('reads a time of day on the first day of the window, or the next day across midnight', () => {
    expect(parseTimeArg('14:40', Z8, day)).toBe(iso('2020-12-22T14:40:00+08:00'));
    expect(parseTimeArg('9:05:01.5', Z8, day)).toBe(iso('2020-12-22T09:05:01.500+08:00'));
    const night = { first: iso('2020-12-22T23:50:00+08:00'), last: iso('2020-12-23T00:20:00+08:00') };
    expect(parseTimeArg('23:55', Z8, night)).toBe(iso('2020-12-22T23:55:00+08:00'));
    expect(parseTimeArg('00:05', Z8, night)).toBe(iso('2020-12-23T00:05:00+08:00'));
  });

  it('reads relative times: from the start, or before the end with -', () => {
    expect(parseTimeArg('10m', Z8, day)).toBe(day.first + 600000);
    expect(parseTimeArg('+5m', Z8, day)).toBe(day.first + 300000);
    expect(parseTimeArg('+1h30m', Z8, day)).toBe(day.first + 5400000);
    expect(parseTimeArg('-90s', Z8, day)).toBe(day.last - 90000);
    expect(parseTimeArg('1500ms', Z8, day)).toBe(day.first + 1500);
  });

  it('says what is wrong with an impossible time', () => {
    const cases: Array<[string, RegExp]> = [
      ['25:99', /"25:99" is not a time: hour 25 \(00-23\)/],
      ['14:60', /minute 60 \(00-59\)/],
      ['14:59:61', /second 61 \(00-59\)/],
      ['2024-02-30', /"2024-02-30" is not a date: 2024-02 has 29 days/],
      ['2023-13-01 10:00', /month 13 \(01-12\)/],
      ['2024-05-20T10:00+15:00', /no such zone offset/],
      ['soon', /cannot read "soon" as a time/],
      ['5', /cannot read "5" as a time/],
    ];
    for (const [v, msg] of cases) {
      expect(() => parseTimeSpec(v), v).toThrow(TimeArgError);
      expect(() => parseTimeSpec(v), v).toThrow(msg);
    }
  });

  it('needs dated records for a time of day or a relative time', () => {
    expect(() => parseTimeArg('14:40', Z8, { first: null, last: null })).toThrow(/no date/);
    expect(() => parseTimeArg('-5m', Z8, { first: null, last: null })).toThrow(/counts from the end of the logs/);
  });
});
