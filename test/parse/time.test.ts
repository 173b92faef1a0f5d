import { describe, expect, it } from 'vitest';
import { formatIso, formatShort, parseZone } from '../../src/parse/time.js';

describe('zones', () => {
  it('parses offsets in several spellings', () => {
    for (const s of ['+08:00', '+0800', '+8', 'GMT+8', 'UTC+08:00']) expect(parseZone(s).name).toBe('+08:00');
    expect(parseZone('UTC').name).toBe('+00:00');
    expect(parseZone('-05:30').offsetAt(0)).toBe(-330);
  });
  it('rejects nonsense', () => {
    expect(() => parseZone('Mars/Olympus')).toThrow(/unknown time zone/);
    expect(() => parseZone('+25')).toThrow(/out of range/);
  });
  it('converts GMT+8 wall clock to UTC', () => {
    const z = parseZone('+08:00');
    expect(new Date(z.toUtc(2024, 5, 20, 14, 3, 7, 0)).toISOString()).toBe('2024-05-20T06:03:07.000Z');
  });
  it('handles IANA zones with DST', () => {
    const z = parseZone('Europe/Berlin');
    expect(new Date(z.toUtc(2024, 7, 1, 12, 0, 0, 0)).toISOString()).toBe('2024-07-01T10:00:00.000Z');
    expect(new Date(z.toUtc(2024, 1, 1, 12, 0, 0, 0)).toISOString()).toBe('2024-01-01T11:00:00.000Z');
  });
  it('formats ISO with the offset of the output zone', () => {
    expect(formatIso(Date.UTC(2024, 4, 20, 6, 3, 7, 5), parseZone('+08:00'))).toBe('2024-05-20T14:03:07.005+08:00');
  });
});

/** The wall clock of `t` in `zone`, field by field (what formatIso and formatShort must say, whatever they kept). */
function wall(t: number, zone: ReturnType<typeof parseZone>, sep: string): string {
  const d = new Date(t + zone.offsetAt(t) * 60000);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())}${sep}${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.${p(d.getUTCMilliseconds(), 3)}`;
}

describe('formatShort', () => {
  it('is formatIso without its T and offset, for times in order and out of it, across zones and a DST change', () => {
    // formatShort keeps the text of the second it formatted last: times within a second, a second
    // apart, going back, before 1970, fractions, and the same second in another zone.
    const zones = [parseZone('+08:00'), parseZone('America/New_York'), parseZone('-05:30'), parseZone('UTC')];
    const dst = Date.UTC(2024, 2, 10, 7, 0, 0); // 2024-03-10 02:00 in New York: clocks go forward
    const times: number[] = [];
    for (let t = dst - 2500; t <= dst + 2500; t += 137) times.push(t, t + 1);
    times.push(dst - 1, dst, dst + 999, dst + 1000, dst - 1000, -1, -1000, -1001, 0, 999, 1000, -86400001, 1.5, -0.5, 1e12 + 0.25);
    let seed = 7;
    for (let i = 0; i < 2000; i++) times.push((seed = (seed * 48271) % 2147483647) * 1000 + (i % 1000) - 1e12);
    for (const zone of zones) {
      for (const t of times) {
        const iso = formatIso(t, zone);
        expect(formatShort(t, zone), `${t} in ${zone.name}`).toBe(iso.slice(0, iso.length - 6).replace('T', ' '));
        // Both keep the second they made last: each is held to the wall clock read field by field.
        expect(formatShort(t, zone), `${t} in ${zone.name}`).toBe(wall(t, zone, ' '));
        expect(iso.slice(0, iso.length - 6), `${t} in ${zone.name}`).toBe(wall(t, zone, 'T'));
        const off = zone.offsetAt(t);
        expect(iso.slice(-6)).toBe(`${off < 0 ? '-' : '+'}${String(Math.floor(Math.abs(off) / 60)).padStart(2, '0')}:${String(Math.abs(off) % 60).padStart(2, '0')}`);
      }
    }
    // Two zones taking turns on one second.
    for (const t of [dst, dst + 5, dst + 10]) {
      for (const zone of zones) {
        expect(formatShort(t, zone)).toBe(formatIso(t, zone).slice(0, 23).replace('T', ' '));
        expect(formatShort(t, zone), `${t} in ${zone.name}, zones taking turns`).toBe(wall(t, zone, ' '));
        expect(formatIso(t, zone).slice(0, 23), `${t} in ${zone.name}, zones taking turns`).toBe(wall(t, zone, 'T'));
      }
    }
  });
});
