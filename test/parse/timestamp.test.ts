// The timestamp reader's decisions, each on the edge where a wrong constant or sign would read a real
// time wrongly: printed offsets west of UTC, the strptime century of two-digit years, the calendar
// (leap years, 30-day months), the range of each field, and where the second ends for the parser's
// per-second cache. Times are those of the real pastes (test/fixtures/real) and lab recordings
// (samples/lab) these formats come from, moved onto the edge under test.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SourceParser } from '../../src/parse/parser.js';
import { parseZone } from '../../src/parse/time.js';
import { ISO8601, compileTimestamp, timeWriter, type TimeOp } from '../../src/parse/timestamp.js';
import type { RmqEvent } from '../../src/parse/types.js';

const REAL = join(__dirname, '..', 'fixtures', 'real');

/** The events of one pasted log, read with `tz` as the zone for times that print none. */
function parseLines(lines: string[], tz = 'UTC'): RmqEvent[] {
  const events: RmqEvent[] = [];
  const p = new SourceParser({ file: 'x.log', host: 'h', sourceIndex: 0, kindHint: null, kindForced: false, defaultZone: parseZone(tz) }, (e) => events.push(e));
  lines.forEach((l, i) => p.line(l, i + 1));
  p.end();
  return events;
}

const realLine = (name: string) => readFileSync(join(REAL, name), 'utf8').split('\n')[0];
const iso = (ts: number | null) => (ts === null ? null : new Date(ts).toISOString());

describe('printed UTC offsets', () => {
  // 69-go-zap-quoted-conn-error-offset.log: `2023-12-05T10:33:03+08:00` (02:33:03 UTC).
  const zap = realLine('69-go-zap-quoted-conn-error-offset.log');
  // 71-go5-zap-begin-start-offset-no-colon.log: `2024-09-18T16:30:57.524+0800` (08:30:57.524 UTC).
  const zap5 = realLine('71-go5-zap-begin-start-offset-no-colon.log');

  it('the real pastes east of UTC give their instant whatever the default zone', () => {
    for (const tz of ['UTC', '-05:00']) {
      expect(iso(parseLines([zap], tz)[0].ts)).toBe('2023-12-05T02:33:03.000Z');
      expect(iso(parseLines([zap5], tz)[0].ts)).toBe('2024-09-18T08:30:57.524Z');
    }
  });

  it('the same instants printed west of UTC (an installation in the Americas) give the same instant', () => {
    const west = zap.replace('2023-12-05T10:33:03+08:00', '2023-12-04T21:33:03-05:00');
    expect(iso(parseLines([west])[0].ts)).toBe('2023-12-05T02:33:03.000Z');
    const west5 = zap5.replace('2024-09-18T16:30:57.524+0800', '2024-09-18T05:00:57.524-0330');
    expect(iso(parseLines([west5])[0].ts)).toBe('2024-09-18T08:30:57.524Z');
    const hours = zap.replace('2023-12-05T10:33:03+08:00', '2023-12-04T21:33:03-05');
    expect(iso(parseLines([hours])[0].ts)).toBe('2023-12-05T02:33:03.000Z');
  });

  it('reads every offset form, east and west, into minutes east of UTC', () => {
    const iso8601 = compileTimestamp(ISO8601);
    const xxx = compileTimestamp("yyyy-MM-dd'T'HH:mm:ss.SSSXXX");
    const cases: Array<[string, number]> = [
      ['Z', 0],
      ['z', 0],
      ['+08:00', 480],
      ['-05:00', -300],
      ['-0330', -210],
      ['+0545', 345],
      ['-03', -180],
      ['+14:00', 840],
      ['-12:00', -720],
    ];
    for (const [off, min] of cases) {
      expect(iso8601.read(`2024-09-18T16:30:57.524${off}`)?.offsetMin, off).toBe(min);
      expect(xxx.read(`2024-09-18T16:30:57.524${off}`)?.offsetMin, off).toBe(min);
    }
  });

  it('refuses an offset no zone has (over 14 hours, over 59 minutes) or a broken one', () => {
    for (const off of ['+15:00', '-15:00', '+08:60', '+8:00', '+08:0', 'UTC', '+08:00 ', 'UTC+08:00']) {
      expect(compileTimestamp(ISO8601).read(`2024-09-18T16:30:57.524${off}`), off).toBeNull();
      expect(compileTimestamp("yyyy-MM-dd'T'HH:mm:ss.SSSXXX").read(`2024-09-18T16:30:57.524${off}`), off).toBeNull();
    }
  });

  it('writes the offset the reader reads: Z at UTC, the sign and both parts elsewhere', () => {
    const { perSecond, perCall } = timeWriter("yyyy-MM-dd'T'HH:mm:ss.SSSXXX");
    const write = (ops: TimeOp[], d: Date, ms: number, off: number) => ops.map((o) => (typeof o === 'string' ? o : o(d, ms, off, false))).join('');
    for (const off of [0, 480, -300, -210, 345]) {
      const at = Date.parse('2024-09-18T08:30:57.524Z');
      const d = new Date(at + off * 60000);
      const text = write(perSecond, d, 524, off) + write(perCall, d, 524, off);
      const f = compileTimestamp("yyyy-MM-dd'T'HH:mm:ss.SSSXXX").read(text)!;
      expect(f, text).not.toBeNull();
      expect(f.offsetMin, text).toBe(off);
      expect(Date.UTC(f.y, f.mo - 1, f.d, f.h, f.mi, f.s, f.ms) - off * 60000, text).toBe(at);
    }
    expect(write(perCall, new Date(0), 5, 0)).toBe('005Z');
    expect(write(perCall, new Date(0), 5, -330)).toBe('005-05:30');
  });
});

describe('two-digit years (POSIX %y: 69-99 are 19yy, 00-68 are 20yy)', () => {
  // 47-alibaba-3.4.6-yy-date-channel-not-writable.log: `16-11-02 10:56:03` (2016).
  const yy = compileTimestamp('yy-MM-dd HH:mm:ss');
  it('reads the real paste as 2016 and the edges of the century on either side', () => {
    expect(realLine('47-alibaba-3.4.6-yy-date-channel-not-writable.log').startsWith('16-11-02 10:56:03')).toBe(true);
    expect(yy.read('16-11-02 10:56:03')?.y).toBe(2016);
    expect(yy.read('68-11-02 10:56:03')?.y).toBe(2068);
    expect(yy.read('69-11-02 10:56:03')?.y).toBe(1969);
    expect(yy.read('99-11-02 10:56:03')?.y).toBe(1999);
    expect(yy.read('00-11-02 10:56:03')?.y).toBe(2000);
  });
});

describe('the calendar: a date that does not exist is damage', () => {
  // The server layout of samples/lab (`2026-12-01 19:00:13`), moved onto the month ends.
  const srv = compileTimestamp('yyyy-MM-dd HH:mm:ss');
  const client = compileTimestamp('yyyy-MM-dd HH:mm:ss,SSS');
  it('February has 29 days in leap years only (every 4th year, not centuries, but every 400th)', () => {
    expect(srv.read('2024-02-29 19:00:13')).toMatchObject({ y: 2024, mo: 2, d: 29 });
    expect(srv.read('2000-02-29 19:00:13')).toMatchObject({ y: 2000, mo: 2, d: 29 });
    expect(srv.read('2026-02-29 19:00:13')).toBeNull();
    expect(srv.read('2025-02-29 19:00:13')).toBeNull();
    expect(srv.read('1900-02-29 19:00:13')).toBeNull();
    expect(srv.read('2100-02-29 19:00:13')).toBeNull();
    expect(srv.read('2026-02-28 19:00:13')).toMatchObject({ d: 28 });
    expect(srv.read('2024-02-30 19:00:13')).toBeNull();
  });
  it('April, June, September and November have 30 days; the others 31', () => {
    for (const mo of ['04', '06', '09', '11']) {
      expect(client.read(`2026-${mo}-30 19:00:24,084`), mo).toMatchObject({ d: 30, ms: 84 });
      expect(client.read(`2026-${mo}-31 19:00:24,084`), mo).toBeNull();
    }
    for (const mo of ['01', '03', '05', '07', '08', '10', '12']) expect(client.read(`2026-${mo}-31 19:00:24,084`), mo).toMatchObject({ d: 31 });
    // A time-only format has no calendar to check (the day is the default 1).
    expect(compileTimestamp('HH:mm:ss.SSS').read('19:00:24.084')).toMatchObject({ hasDate: false, h: 19, ms: 84 });
  });
  it('years before 1000 are damage; 1000 is read', () => {
    expect(srv.read('0999-12-01 19:00:13')).toBeNull();
    expect(srv.read('0000-12-01 19:00:13')).toBeNull();
    expect(srv.read('1000-12-01 19:00:13')).toMatchObject({ y: 1000 });
  });
});

describe('the range of each field', () => {
  const srv = compileTimestamp('yyyy-MM-dd HH:mm:ss');
  it('takes each field up to its last value (a leap second included) and refuses the next', () => {
    expect(srv.read('2026-12-31 23:59:60')).toMatchObject({ mo: 12, d: 31, h: 23, mi: 59, s: 60 });
    expect(srv.read('2026-01-01 00:00:00')).toMatchObject({ mo: 1, d: 1, h: 0, mi: 0, s: 0 });
    for (const bad of ['2026-00-01 19:00:13', '2026-13-01 19:00:13', '2026-12-00 19:00:13', '2026-12-32 19:00:13', '2026-12-01 24:00:13', '2026-12-01 19:60:13', '2026-12-01 19:00:61']) {
      expect(srv.read(bad), bad).toBeNull();
    }
  });
  it('checks the ISO form the same way', () => {
    const r = compileTimestamp(ISO8601);
    expect(r.read('2026-12-31T23:59:60Z')).toMatchObject({ h: 23, mi: 59, s: 60, offsetMin: 0 });
    for (const bad of ['2026-13-01T19:00:13Z', '2026-12-32T19:00:13Z', '2026-12-01T24:00:13Z', '2026-12-01T19:60:13Z', '2026-12-01T19:00:61Z']) expect(r.read(bad), bad).toBeNull();
  });
  it('refuses a letter where a digit belongs, and a month name it does not know', () => {
    expect(srv.read('2026-12-0l 19:00:13')).toBeNull();
    // Characters just below and above the digits ('/' and ':'), where the value they would add stays in range.
    expect(srv.read('2026-12-01 1/:00:13')).toBeNull();
    expect(srv.read('2026-12-01 0::00:13')).toBeNull();
    expect(compileTimestamp('yyyy-MMM-dd HH:mm:ss.SSSSSS').read('2020-Mai-17 07:41:38.780542')).toBeNull();
    expect(compileTimestamp('yyyy-MMM-dd HH:mm:ss.SSSSSS').read('2020-Dec-17 07:41:38.780542')).toMatchObject({ mo: 12 });
  });
});

describe('fractions of a second', () => {
  it('microseconds (cpp client), four digits (NLog) and the ISO fraction of 1-9 digits give millis', () => {
    expect(compileTimestamp('yyyy-MM-dd HH:mm:ss.SSSSSS').read('2020-05-17 07:41:38.780542')?.ms).toBe(780);
    expect(compileTimestamp('yyyy-MM-dd HH:mm:ss.SSSS').read('2026-12-01 19:00:24.0849')?.ms).toBe(84);
    const r = compileTimestamp(ISO8601);
    expect(r.read('2024-09-18T16:30:57.5+08:00')?.ms).toBe(500);
    expect(r.read('2024-09-18T16:30:57,52Z')?.ms).toBe(520);
    expect(r.read('2024-09-18T16:30:57.524999999Z')?.ms).toBe(524);
    expect(r.read('2024-09-18 16:30:57')).toMatchObject({ ms: 0, offsetMin: null, hasDate: true });
  });

  it('tells the parser where the fraction starts (the second ends), and what the fraction is worth', () => {
    const at = (f: string) => {
      const r = compileTimestamp(f);
      return [r.width, r.secondAt, r.fracWidth, r.fracDiv];
    };
    expect(at('yyyy-MM-dd HH:mm:ss,SSS')).toEqual([23, 20, 3, 1]);
    expect(at('yyyy-MM-dd HH:mm:ss.SSSSSS')).toEqual([26, 20, 6, 1000]);
    expect(at('yyyy-MM-dd HH:mm:ss.SSSS')).toEqual([24, 20, 4, 10]);
    expect(at('yyyy-MMM-dd HH:mm:ss')).toEqual([20, 20, 0, 1]);
    expect(at('EEE yyyy-MM-dd HH:mm:ss')).toEqual([23, 23, 0, 1]);
    // The fraction not last, an offset, or no date: no second for the cache.
    expect(at('yyyy-MM-dd HH:mm:ss.SSS]')).toEqual([24, -1, 0, 1]);
    expect(at("yyyy-MM-dd'T'HH:mm:ss.SSSXXX")).toEqual([-1, -1, 0, 1]);
    expect(at('HH:mm:ss.SSS')).toEqual([12, -1, 0, 1]);
    expect(compileTimestamp(ISO8601).width).toBe(-1);
  });
});

describe('the shape test', () => {
  it('needs the whole timestamp on the line and digits exactly where the format has them', () => {
    const r = compileTimestamp('yyyy-MM-dd HH:mm:ss,SSS');
    expect(r.shape('2026-12-01 19:00:24,084 DEBUG', 0)).toBe(true);
    expect(r.shape('2026-12-01 19:00:24,084', 0)).toBe(true);
    expect(r.shape('2026-12-01 19:00:24,08', 0)).toBe(false);
    expect(r.shape('2026-12-01 19:00:24.084', 0)).toBe(true);
    expect(r.shape('2026-12-01 19:00:24084', 0)).toBe(false);
    expect(r.shape('x2026-12-01 19:00:24,084', 1)).toBe(true);
    // A format that ends in a literal (the bracket of `[%d{yyyy-MM-dd HH:mm:ss.SSS}]`): a line cut before it.
    const bracket = compileTimestamp('yyyy-MM-dd HH:mm:ss.SSS]');
    expect(bracket.shape('2026-12-01 19:00:24.084]', 0)).toBe(true);
    expect(bracket.shape('2026-12-01 19:00:24.084', 0)).toBe(false);
    const mon = compileTimestamp('yyyy-MMM-dd HH:mm:ss.SSSSSS');
    expect(mon.shape('2020-May-17 07:41:38.780542', 0)).toBe(true);
    expect(mon.shape('2020-005-17 07:41:38.780542', 0)).toBe(false);
    const iso = compileTimestamp(ISO8601);
    expect(iso.shape('2024-09-18T16:30:57.524+0800', 0)).toBe(true);
    expect(iso.shape('2024-09-18T16:30', 0)).toBe(false);
  });
});

describe('the writer of each token (what replay --emit-logs prints), read back by the reader', () => {
  // A time of samples/lab/crash (`2026-12-01 19:00:24,084` at +08:00), written in every token the
  // layouts of other clients use, including the 4.3.0-4.7.1 inner logger that printed the seconds
  // where the millis belong.
  const at = Date.parse('2026-12-01T19:00:24.084+08:00');
  const write = (format: string, off: number, fake = false) => {
    const { perSecond, perCall } = timeWriter(format);
    const d = new Date(at + off * 60000);
    const run = (ops: TimeOp[]) => ops.map((o) => (typeof o === 'string' ? o : o(d, at % 1000, off, fake))).join('');
    return { perSecond: run(perSecond), perCall: run(perCall) };
  };
  it('writes each token as the layouts print it, split where the fraction starts', () => {
    expect(write('yyyy-MM-dd HH:mm:ss,SSS', 480)).toEqual({ perSecond: '2026-12-01 19:00:24,', perCall: '084' });
    expect(write('yyyy-MM-dd HH:mm:ss,SSS', 480, true)).toEqual({ perSecond: '2026-12-01 19:00:24,', perCall: '024' });
    expect(write('yy-MM-dd HH:mm:ss', 480)).toEqual({ perSecond: '26-12-01 19:00:24', perCall: '' });
    expect(write('yyyy-MMM-dd HH:mm:ss.SSSSSS', 480)).toEqual({ perSecond: '2026-Dec-01 19:00:24.', perCall: '084000' });
    expect(write("EEE yyyy-MM-dd'T'HH:mm:ss.SSSS", -300)).toEqual({ perSecond: 'Tue 2026-12-01T06:00:24.', perCall: '0840' });
    expect(write("yyyy-MM-dd'T'HH:mm:ss.SSSXXX", -300)).toEqual({ perSecond: '2026-12-01T06:00:24.', perCall: '084-05:00' });
  });
  it('reads back the instant it wrote, for each token', () => {
    for (const format of ['yyyy-MMM-dd HH:mm:ss.SSSSSS', 'EEE yyyy-MM-dd HH:mm:ss.SSSS', "yyyy-MM-dd'T'HH:mm:ss.SSSXXX", 'yy-MM-dd HH:mm:ss,SSS']) {
      for (const off of [480, 0, -300]) {
        const w = write(format, off);
        const f = compileTimestamp(format).read(w.perSecond + w.perCall)!;
        expect(f, `${format} ${off}`).not.toBeNull();
        expect(Date.UTC(f.y, f.mo - 1, f.d, f.h, f.mi, f.s, f.ms) - off * 60000, `${format} ${off}`).toBe(at);
      }
    }
  });
});
