// consumer-subscription-mismatch replayed from its logs: the instances' subscriptions inferred from
// the broker's lines, the producer's tags assumed (and said so), the TagB messages the group's
// flipped subscription skipped against lab.json's neverConsumed, and the what-if
// consistentSubscription, under which none is skipped.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { inferFromLogs } from '../../src/replay/load.js';
import { replay, type ReplayReport } from '../../src/replay/run.js';
import { applyVariant, parseAssignments, WhatIfError } from '../../src/replay/whatif.js';
import { renderReplayText } from '../../src/replay/report.js';
import { renderReplayHtml } from '../../src/replay/report-html.js';
import { PLAIN } from '../../src/report/escape.js';

const DIR = join(__dirname, '..', '..', 'samples', 'lab', 'consumer-subscription-mismatch');
const lab = JSON.parse(readFileSync(join(DIR, 'lab.json'), 'utf8'));
const truth = lab.consumerGroups[0];

describe('consumer-subscription-mismatch replayed', () => {
  let report: ReplayReport;
  beforeAll(async () => {
    const input = (await inferFromLogs({ inputs: [DIR] }, () => '+08:00', DIR)).input;
    report = replay(input, { seed: 1, variants: [{ label: 'consistentSubscription=true', assignments: parseAssignments('consistentSubscription=true', '--what-if') }], runs: 0 });
  });

  it("infers each instance's subscription from the broker's lines, as the lab ran them", () => {
    const g = report.input.scenario.consumerGroups![0];
    expect(g.subscription).toBe('TagA || TagB');
    const labSubs = Object.fromEntries((lab.consumers as Array<{ host: string; subscription: string }>).map((c) => [c.host, c.subscription]));
    for (const [i, inst] of g.instances.entries()) {
      expect(inst.subscription ?? g.subscription).toBe(labSubs[inst.host]);
      // Only the one that differs carries its own, with the broker's lines it came from.
      if (inst.subscription !== undefined) {
        const p = report.input.provenance[`scenario.consumerGroups[0].instances[${i}].subscription`];
        expect(p.evidence.every((e) => e.startsWith('mq-broker-a/logs/rocketmqlogs/broker.log'))).toBe(true);
        expect(p.evidence).toHaveLength(2);
      }
    }
    expect(g.instances.filter((x) => x.subscription !== undefined).map((x) => x.host)).toEqual(['app-stock-03']);
  });

  it("assumes the producer's tags from the subscriptions and says so (no line shows them)", () => {
    const c = report.input.scenario.clients.find((x) => x.host === 'app-order-01')!;
    expect(c.tags).toEqual([{ tag: 'TagA' }, { tag: 'TagB' }]);
    expect(report.input.defaults['scenario.clients[0].tags']).toMatch(/^TagA, TagB in turn, equal shares \(assumed: /);
    expect(report.input.provenance['scenario.clients[0].tags']).toBeUndefined();
    expect(report.input.notes.some((n) => n.startsWith('app-order-01: the tags of its messages are not in the logs'))).toBe(true);
  });

  it("skips TagB messages only, about as many as lab.json's neverConsumed (169), and the verdict does not compare them", () => {
    const s = report.run.metrics.consumerGroups!.CID_STOCK.skippedBySubscription!;
    expect(truth.neverConsumed.byTag).toEqual({ TagB: 169 });
    expect(Object.keys(s.byTag)).toEqual(['TagB']);
    // The run's sends are Poisson draws at the logged rate: within 15 % of the recording's.
    expect(Math.abs(s.total - 169) / 169).toBeLessThanOrEqual(0.15);
    expect(report.consumers.map((c) => c.figure)).not.toContain('skipped');
    const text = renderReplayText(report, { palette: PLAIN, verbose: false, width: 200 });
    expect(text).toMatch(/skipped by subscription/);
    expect(text).toMatch(/\b\d+ \(TagB \d+\), simulated/);
    const html = renderReplayHtml(report);
    expect(html).toContain(`${s.total} (TagB ${s.total}), simulated`);
    expect(html).toContain('skipped by subscription (simulated)');
  });

  it('with consistentSubscription every instance subscribes TagA || TagB and nothing is skipped', () => {
    const v = report.whatIf[0];
    const g = v.consumers.find((x) => x.group === 'CID_STOCK')!;
    expect(g.skippedBySubscription).toEqual({ total: 0, byTag: {} });
    expect(report.baseline.consumers[0].skippedBySubscription!.total).toBeGreaterThan(100);
    // What was skipped is consumed instead.
    expect(g.consumed).toBeGreaterThanOrEqual(report.baseline.consumers[0].consumed + report.baseline.consumers[0].skippedBySubscription!.total - 5);
    expect(v.notes).toEqual(["CID_STOCK: app-stock-03 ('TagA') subscribes 'TagA || TagB' like the group"]);
  });

  it('consistentSubscription takes true or false, and false changes nothing', () => {
    expect(() => parseAssignments('consistentSubscription=yes', '--set')).toThrow(WhatIfError);
    const same = applyVariant(report.input.scenario, { label: 'x', assignments: parseAssignments('consistentSubscription=false', '--set') });
    expect(same.scenario.consumerGroups![0].instances.map((x) => x.subscription)).toEqual(report.input.scenario.consumerGroups![0].instances.map((x) => x.subscription));
    expect(() => applyVariant(report.input.scenario, { label: 'x', assignments: parseAssignments('CID_OTHER.consistentSubscription=true', '--set') })).toThrow(/no consumer group CID_OTHER/);
  });
});
