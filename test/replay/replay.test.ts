// Replays of the bundled samples: the seed outage and the broker-busy sample reproduce; the what-ifs
// of the seed outage free the client bound to the hung NameServer; same seed, same output.

import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { inferFromLogs } from '../../src/replay/load.js';
import { PLAIN } from '../../src/report/escape.js';
import { renderReplayJson, renderReplayText } from '../../src/replay/report.js';
import { replay, type ReplayReport } from '../../src/replay/run.js';
import type { ReplayInput } from '../../src/diagnosis/types.js';
import { parseAssignments, WhatIfError } from '../../src/replay/whatif.js';

const ROOT = join(__dirname, '..', '..');
const SEED = join(ROOT, 'samples', 'seed-outage');
const BUSY = join(ROOT, 'samples', 'broker-busy');

async function infer(dir: string): Promise<ReplayInput> {
  return (await inferFromLogs({ inputs: [dir] }, () => '+08:00', dir)).input;
}

const variant = (text: string) => ({ label: text, assignments: parseAssignments(text, '--what-if') });
const outageOf = (r: ReplayReport['whatIf'][number], client: string) => r.clients.find((c) => c.client === client)!.outageMs;

describe('replay of the seed outage', () => {
  let input: ReplayInput;
  let report: ReplayReport;
  beforeAll(async () => {
    input = await infer(SEED);
    report = replay(input, { seed: 1, variants: [variant('clientCloseSocketIfTimeout=true'), variant('namesrvOnOwnHosts=true')], runs: 0 });
  });

  it('is reproduced: every milestone within max(10 s, 10%)', () => {
    expect(report.divergences).toEqual([]);
    expect(report.verdict).toBe('reproduced');
    const compared = report.milestones.filter((m) => m.observed && m.simulated);
    expect(compared.length).toBeGreaterThanOrEqual(10);
    for (const m of compared) expect(Math.abs(m.deltaMs!)).toBeLessThanOrEqual(m.toleranceMs!);
    for (const name of ['first-failure', 'namesrv-removal', 'namesrv-switch', 'route-lost', 'route-back', 'outage-end']) {
      expect(compared.some((m) => m.name === name)).toBe(true);
    }
  });

  it('simulates app-order-01 stuck for about the length of the hang, app-pay-01 for about 140 s', () => {
    const order = report.outages.find((o) => o.client === 'app-order-01')!;
    const pay = report.outages.find((o) => o.client === 'app-pay-01')!;
    expect(order.observedMs).toBeGreaterThan(650000);
    expect(order.simulatedMs).toBeGreaterThan(600000);
    expect(pay.simulatedMs).toBeLessThan(170000);
  });

  it('with clientCloseSocketIfTimeout=true app-order-01 recovers within about 150 s', () => {
    const v = report.whatIf[0];
    expect(outageOf(v, 'app-order-01')).toBeLessThanOrEqual(165000);
    expect(outageOf(report.baseline, 'app-order-01')).toBeGreaterThan(600000);
    expect(v.failedSends).toBeLessThan(report.baseline.failedSends / 2);
    // 4.8.0 hard-codes false: the variant says it runs the client as 4.9.1.
    expect(v.notes.some((n) => n.includes('app-order-01') && n.includes('4.9.1'))).toBe(true);
  });

  it('with the NameServers on their own hosts app-order-01 recovers within about 150 s', () => {
    const v = report.whatIf[1];
    expect(outageOf(v, 'app-order-01')).toBeLessThanOrEqual(165000);
    expect(v.notes.some((n) => n.includes('moved from mq-node-100'))).toBe(true);
  });

  it('gives byte-identical output for the same seed, and another run for another seed', () => {
    const again = replay(input, { seed: 1, variants: [variant('clientCloseSocketIfTimeout=true'), variant('namesrvOnOwnHosts=true')], runs: 0 });
    expect(renderReplayJson(again)).toBe(renderReplayJson(report));
    const other = replay(input, { seed: 2, variants: [], runs: 0 });
    expect(renderReplayJson(other)).not.toBe(renderReplayJson(again));
  });

  it('--runs draws the bindings per seed and gives p50/p95', () => {
    const r = replay(input, { seed: 1, variants: [variant('clientCloseSocketIfTimeout=true')], runs: 4 });
    expect(r.runs!.seeds).toEqual([1, 2, 3, 4]);
    expect(r.runs!.variants.map((v) => v.label)).toEqual(['baseline', 'clientCloseSocketIfTimeout=true']);
    const fixed = r.runs!.variants[1].clients.find((c) => c.client === 'app-order-01')!;
    expect(fixed.outageMs.p95!).toBeLessThanOrEqual(170000);
    expect(fixed.outageMs.p50!).toBeLessThanOrEqual(fixed.outageMs.p95!);
  });
});

describe('replay of the broker-busy sample', () => {
  let report: ReplayReport;
  beforeAll(async () => {
    report = replay(await infer(BUSY), { seed: 1, variants: [], runs: 0 });
  });

  it('is reproduced', () => {
    expect(report.divergences).toEqual([]);
    expect(report.verdict).toBe('reproduced');
  });

  it('gives busy replies of 200-210 ms in the overload and long waits in the stalls', () => {
    const overload = report.busy.filter((b) => b.kind === 'overload');
    const stalls = report.busy.filter((b) => b.kind === 'stall');
    expect(overload).toHaveLength(1);
    expect(overload[0].simulated.replies).toBeGreaterThan(0);
    expect(overload[0].simulated.waitMinMs!).toBeGreaterThanOrEqual(200);
    expect(overload[0].simulated.waitMaxMs!).toBeLessThan(210);
    expect(stalls).toHaveLength(3);
    const observedMax = stalls.map((s) => s.observed!.waitMaxMs!);
    expect(observedMax).toEqual([401, 612, 799]);
    stalls.forEach((s, i) => {
      expect(s.simulated.replies).toBeGreaterThan(0);
      expect(Math.abs(s.simulated.waitMaxMs! - observedMax[i])).toBeLessThanOrEqual(s.toleranceMs!);
    });
  });
});

describe('replay of an overload under a CPU quota (gen-23: broker-b at 10 % of a CPU, a flood of producers whose logs were not given)', () => {
  let input: ReplayInput;
  beforeAll(async () => {
    input = await infer(join(ROOT, 'samples', 'generated', 'gen-23'));
  });

  it('reproduces the longest wait a stall held (800 ms) whatever the seed: the send it held is made when the broker read it', () => {
    for (const seed of [1, 2, 3]) {
      const report = replay(input, { seed, variants: [], runs: 0 });
      const [w] = report.busy;
      expect(w.observed!.waitMaxMs).toBe(800);
      expect(Math.abs(w.simulated.waitMaxMs! - 800)).toBeLessThanOrEqual(w.toleranceMs!);
      expect(report.verdict, `seed ${seed}`).toBe('reproduced');
    }
    // The client's 10 held replies (over 300 ms; one of 595 ms came after its 1000 ms budget, a
    // late response) are its logged sends.
    expect(input.scenario.clients[0].loggedSends).toHaveLength(10);
  });
});

describe('what-if keys', () => {
  it('are checked before anything runs', () => {
    expect(() => parseAssignments('clientCloseSocketIfTimout=true', '--set')).toThrow(WhatIfError);
    expect(() => parseAssignments('sendMsgTimeout=fast', '--set')).toThrow(/expected a positive number/);
    expect(() => parseAssignments('clientVersion=4.2.0', '--set')).toThrow(/before 4\.3\.0/);
    expect(parseAssignments('app-order-01.clientVersion=4.9.4,sendMsgTimeoutMs=5000', '--what-if')).toEqual([
      { subject: 'app-order-01', key: 'clientVersion', value: '4.9.4' },
      { subject: null, key: 'sendMsgTimeout', value: '5000' },
    ]);
    expect(parseAssignments('192.168.3.101:9876.serverChannelMaxIdleTimeSeconds=120', '--set')[0].subject).toBe('192.168.3.101:9876');
  });
});

describe('the text report with --verbose', () => {
  it("keeps every evidence reference of the provenance whole: wrapped lines joined again hold each file:line, with no space put inside", async () => {
    const input = await infer(join(ROOT, 'samples', 'lab', 'crash'));
    const report = replay(input, { seed: 1, variants: [], runs: 0 });
    const refs = Object.values(input.provenance).flatMap((v) => v.evidence);
    // Long enough that the narrow first line of some values cannot take them.
    expect(refs.filter((r) => r.length > 50).length).toBeGreaterThan(3);
    const text = renderReplayText(report, { palette: PLAIN, verbose: true, width: 80 });
    for (const l of text.split('\n')) expect(l.length, l).toBeLessThanOrEqual(80);
    // Continuation lines joined without their indent: a reference broken only at a line's end reads whole.
    const joined = text.split('\n').map((l) => l.trim()).join('');
    for (const r of refs) expect(joined, r).toContain(r);
  });
});
