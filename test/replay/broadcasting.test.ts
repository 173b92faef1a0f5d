// consumer-too-few-threads replayed from its logs: its group CID_AUDIT connected as BROADCASTING (the
// broker's `new consumer connected` lines), so each of its instances consumes every message, as
// lab.json counts (1476 each, none twice), while CID_STOCK's instances share them.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { inferFromLogs } from '../../src/replay/load.js';
import { replay, type ReplayReport } from '../../src/replay/run.js';

const DIR = join(__dirname, '..', '..', 'samples', 'lab', 'consumer-too-few-threads');
const lab = JSON.parse(readFileSync(join(DIR, 'lab.json'), 'utf8'));

describe('consumer-too-few-threads: a BROADCASTING group beside a CLUSTERING one', () => {
  let report: ReplayReport;
  beforeAll(async () => {
    report = replay((await inferFromLogs({ inputs: [DIR] }, () => '+08:00', DIR)).input, { seed: 1, variants: [], runs: 0 });
  });

  it("reads each group's message model from the broker's `new consumer connected` lines", () => {
    const labModels = Object.fromEntries((lab.consumers as Array<{ group: string; messageModel: string }>).map((c) => [c.group, c.messageModel]));
    const groups = report.input.scenario.consumerGroups!;
    expect(Object.fromEntries(groups.map((g) => [g.group, g.messageModel]))).toEqual(labModels);
    groups.forEach((g, i) => {
      const p = report.input.provenance[`scenario.consumerGroups[${i}].messageModel`];
      expect(p.evidence.length).toBeGreaterThan(0);
      expect(p.evidence.every((e) => /mq-broker-[ab]\/logs\/rocketmqlogs\/broker\.log/.test(e))).toBe(true);
      expect(report.input.defaults[`scenario.consumerGroups[${i}].messageModel`]).toBeUndefined();
    });
  });

  it('each BROADCASTING instance consumes every message once; the CLUSTERING instances share them', () => {
    const m = report.run.metrics.consumerGroups!;
    const audit = m.CID_AUDIT;
    const stock = m.CID_STOCK;
    const sent = report.run.metrics.clients['app-order-01'].okSends;
    expect(lab.consumerGroups.find((g: { group: string }) => g.group === 'CID_AUDIT').duplicates).toBe(0);
    expect(audit.duplicates).toBe(0);
    expect(audit.retried).toBe(0);
    // Two instances, each every message (those sent before the run's end was reached may still be in flight).
    expect(audit.consumed).toBeGreaterThan(2 * sent - 10);
    expect(audit.consumed).toBeLessThanOrEqual(2 * sent);
    expect(stock.consumed - stock.duplicates).toBeLessThanOrEqual(sent);
    expect(stock.consumed - stock.duplicates).toBeGreaterThan(sent - 400);
  });
});
