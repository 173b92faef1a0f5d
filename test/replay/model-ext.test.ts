// What the replay added to the model: start times of NameServers and brokers (the phase of their
// timers) and replayed send times (a trace instead of Poisson arrivals).

import { describe, expect, it } from 'vitest';
import { runScenario, type Scenario } from '../../src/model/index.js';
import { applyVariant, parseAssignments } from '../../src/replay/whatif.js';

const START = Date.UTC(2024, 0, 1, 2, 0, 0);

function scenario(extra: Partial<Scenario['clients'][number]> = {}): Scenario {
  return {
    startEpochMs: START,
    serverVersion: '4.9.4',
    nameServers: [{ addr: '10.0.0.1:9876', host: 'ns-1', startAtMs: 3000 }],
    brokers: [{ name: 'broker-a', addr: '10.0.0.11:10911', host: 'b-1', startAtMs: 17500 }],
    topics: [{ name: 'T' }],
    clients: [{ host: 'app-1', version: '4.9.4', topic: 'T', sendRatePerSec: 50, startAtMs: 20000, ...extra }],
  };
}

describe('model extensions used by the replay', () => {
  it('starts NameServers and brokers when told: registrations follow the broker’s start', () => {
    const r = runScenario(scenario(), { seed: 1, untilMs: 90000 });
    const regs = r.metrics.registrations.map((x) => x.atMs);
    expect(Math.min(...regs)).toBeGreaterThanOrEqual(17500);
    // Then every 30 s from 10 s after the start.
    expect(regs.some((t) => t >= 27500 && t < 27600)).toBe(true);
    expect(regs.some((t) => t >= 57500 && t < 57600)).toBe(true);
  });

  it('sends at each step\'s rate from its time on (a rate that changed), and at sendRatePerSec before the first', () => {
    // 50/s until 40 s, none from 40 s to 70 s, 10/s from 70 s; the client starts at 20 s and sends from 21 s.
    const steps = [
      { atMs: 40000, perSec: 0 },
      { atMs: 70000, perSec: 10 },
    ];
    const r = runScenario(scenario({ sendRateSteps: steps }), { seed: 1, untilMs: 130000 });
    const sends = r.metrics.clients['app-1'].sends;
    // About 19 s at 50/s (950) and 60 s at 10/s (600): Poisson, so within a few standard deviations.
    expect(sends).toBeGreaterThan(1450);
    expect(sends).toBeLessThan(1650);
    const flat = runScenario(scenario(), { seed: 1, untilMs: 130000 }).metrics.clients['app-1'].sends;
    expect(flat).toBeGreaterThan(5200);
  });

  it('a what-if on the rate sends at that rate throughout: the steps go, with a note', () => {
    const base = scenario({ sendRateSteps: [{ atMs: 40000, perSec: 0 }] });
    const v = applyVariant(base, { label: 'r', assignments: parseAssignments('sendRatePerSec=5', '--what-if') });
    expect(v.scenario.clients[0].sendRateSteps).toBeUndefined();
    expect(v.scenario.clients[0].sendRatePerSec).toBe(5);
    expect(v.notes).toContain('app-1: sends at 5/s throughout instead of the rate\'s changes');
    expect(base.clients[0].sendRateSteps).toHaveLength(1);
  });

  it('sends at the traced times instead of at the rate', () => {
    const times = [25000, 25500, 26000, 40000, 41000];
    const r = runScenario(scenario({ sendTimesMs: times }), { seed: 1, untilMs: 60000 });
    expect(r.metrics.clients['app-1'].sends).toBe(times.length);
    expect(r.metrics.clients['app-1'].okSends).toBe(times.length);
  });
});
