// What a client's version range says of its fault strategy (MQFaultStrategy up to 5.1.3 and from
// 5.1.4, read from rocketmq-all-4.9.4, 5.1.3 and 5.1.4), and the premise of the advice to enable it.
import { describe, expect, it } from 'vitest';
import { avoidanceAfterFailure, faultAvoidanceSeen, lateAttempt, latencyFaultAdvice } from '../../src/rules/versions.js';

describe('fault avoidance by client version', () => {
  it('a failed attempt keeps the broker out for 10 min up to 5.1.3 and 10 s from 5.1.4', () => {
    expect(avoidanceAfterFailure('4.9.4')).toBe('avoided for 10 min (client 4.9.4)');
    expect(avoidanceAfterFailure('5.1.3')).toBe('avoided for 10 min (client 5.1.3)');
    expect(avoidanceAfterFailure('5.1.4')).toBe('isolated for 10 s (client 5.1.4)');
    // A range across the rewrite, or no version: both, never one of them as a fact.
    expect(avoidanceAfterFailure('4.3.0-5.3.3')).toMatch(/10 min by clients up to 5\.1\.3, for 10 s from 5\.1\.4/);
    expect(avoidanceAfterFailure('unknown')).toMatch(/10 min by clients up to 5\.1\.3, for 10 s from 5\.1\.4/);
  });

  it('infers the setting off only where a 4.x-5.1.3 client kept failing against the broker well past the attempts in flight', () => {
    const t0 = Date.UTC(2026, 0, 1);
    expect(faultAvoidanceSeen('4.9.4', 'broker-a', t0, t0 + 16_000, 3)).toMatchObject({ state: 'off' });
    expect(faultAvoidanceSeen('4.7.1', 'broker-a', t0, t0 + 120_000, 5)).toMatchObject({ state: 'off', why: expect.stringContaining('2 min') });
    // Attempts already on their way when the first failure came back fail too, with the setting on.
    expect(faultAvoidanceSeen('4.9.4', 'broker-a', t0, t0 + 14_000, 0)).toEqual({ state: 'unknown' });
    // One or two late picks: MQFaultStrategy's fallback (pickOneAtLeast) when every broker was isolated
    // picks an avoided one again (gen-20261219: 4.8.0 with the setting on, one attempt 92 s later).
    expect(faultAvoidanceSeen('4.8.0', 'broker-c', t0, t0 + 92_000, 1)).toEqual({ state: 'unknown' });
    expect(faultAvoidanceSeen('4.8.0', 'broker-c', t0, t0 + 92_000, 2)).toEqual({ state: 'unknown' });
    // 5.1.4+ isolates for 10 s only: failures minutes apart happen with the setting on too.
    expect(faultAvoidanceSeen('5.1.4', 'broker-a', t0, t0 + 120_000, 9)).toEqual({ state: 'unknown' });
    expect(faultAvoidanceSeen('4.3.0-5.3.3', 'broker-a', t0, t0 + 120_000, 9)).toEqual({ state: 'unknown' });
    expect(faultAvoidanceSeen('unknown', 'broker-a', t0, t0 + 120_000, 9)).toEqual({ state: 'unknown' });
    expect(faultAvoidanceSeen('4.9.4', 'broker-a', null, t0, 9)).toEqual({ state: 'unknown' });
    expect([lateAttempt(t0, t0 + 15_001), lateAttempt(t0, t0 + 15_000), lateAttempt(null, t0)]).toEqual([true, false, false]);
  });

  it('states the premise of the advice as seen or as assumed', () => {
    const off = latencyFaultAdvice('4.9.4', { state: 'off', why: 'it kept failing' }, 'app-1');
    expect(off).toMatch(/^Enable sendLatencyFaultEnable on app-1's producer .*off here: it kept failing\)/);
    expect(off).toContain('avoided for 10 min (client 4.9.4)');
    const assumed = latencyFaultAdvice('5.3.3', { state: 'unknown' }, 'app-1');
    expect(assumed).toMatch(/^If app-1's producer runs without sendLatencyFaultEnable \(off by default; the logs do not show the setting\)/);
    expect(assumed).toContain('isolated for 10 s (client 5.3.3)');
  });
});
