// The milestones read the same way from the logs and from a run (src/diagnosis/observe.ts), here a
// NameServer's removal of a failed broker: counted from that broker's own failure on.

import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { inferFromLogs } from '../../src/replay/load.js';
import { replay, type ReplayReport } from '../../src/replay/run.js';

const ROOT = join(__dirname, '..', '..');

describe('gen-703: NameServer mq-ns-3 hung 90 s, then broker-b hung 2 min 30 s', () => {
  const dir = join(ROOT, 'samples', 'generated', 'gen-703');
  let r: ReplayReport;
  beforeAll(async () => {
    const { input } = await inferFromLogs({ inputs: [dir] }, () => '+08:00', dir);
    r = await replay(input, { seed: 1, variants: [], runs: 0 });
  }, 60_000);

  it("reads mq-ns-3's removal of broker-b at its idle close 2 min after broker-b hung, not at its own resume before it", () => {
    const sc = r.input.scenario;
    const hang = (sc.faults ?? []).find((f) => 'state' in f && f.host === 'mq-broker-b' && f.state === 'hung')!;
    const removal = r.milestones.find((m) => m.name === 'namesrv-removal' && m.subject === '10.213.0.13:9876 removes broker-b')!;
    expect(removal.status).toBe('ok');
    // The logs: 05:01:03, when mq-ns-3 closed broker-b's idle channel (its last registration read at 04:59:03).
    expect(new Date(removal.observed!.ts).toISOString()).toBe('2026-12-04T21:01:03.000Z');
    expect(removal.simulated!.ts).toBeGreaterThan(sc.startEpochMs + hang.atMs);
  });

  it('is reproduced', () => {
    expect(r.divergences).toEqual([]);
    expect(r.verdict).toBe('reproduced');
  });
});
