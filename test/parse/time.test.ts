import { describe, expect, it } from 'vitest';
import { formatIso, parseZone } from '../../src/parse/time.js';

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
