// A network partition replayed from the logs: replay runs rule network-partition beside its reading
// and inference turns its finding into the model's partition faults (src/diagnosis/infer/faults.ts,
// partitionFaults), one per peer, held here to lab.json's cut.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { inferFromLogs } from '../../src/replay/load.js';
import { replay, type ReplayReport } from '../../src/replay/run.js';
import type { Fault } from '../../src/model/index.js';

const ROOT = join(__dirname, '..', '..');
/** A cut is seen only through the requests that cross it, every 30 s at the slowest (registerNameServerPeriod, the clients' heartbeats). */
const CROSSING_MS = 30_000;

interface LabPartition {
  kind: string;
  host: string;
  start: string;
  end: string;
  groups: string[][];
}

type Partition = Extract<Fault, { partition: [string, string] }>;

function labPartitions(dir: string): LabPartition[] {
  return (JSON.parse(readFileSync(join(dir, 'lab.json'), 'utf8')).faults as LabPartition[]).filter((f) => f.kind === 'partition');
}

async function replayOf(dir: string): Promise<ReplayReport> {
  const { input } = await inferFromLogs({ inputs: [dir] }, () => '+08:00', dir);
  return replay(input, { seed: 1, variants: [], runs: 0 });
}

describe.each(['gen-145', 'gen-716', 'gen-705'])('the partition of %s', (name) => {
  const dir = join(ROOT, 'samples', 'generated', name);
  let report: ReplayReport;
  beforeAll(async () => {
    report = await replayOf(dir);
  }, 60_000);

  it("is replayed between the host cut off and each of its peers, within a crossing of lab.json's window", () => {
    const sc = report.input.scenario;
    const lab = labPartitions(dir);
    const inferred = (sc.faults ?? []).map((f, i) => ({ f, i })).filter((x): x is { f: Partition; i: number } => 'partition' in x.f);
    expect(inferred.length).toBeGreaterThan(0);
    for (const { f, i } of inferred) {
      const [host, peer] = f.partition;
      const cut = lab.find((p) => p.host === host && p.groups.some((g) => g.includes(peer) && !g.includes(host)));
      expect(cut, `${host} / ${peer}`).toBeDefined();
      const start = sc.startEpochMs + f.atMs;
      expect(Math.abs(start - Date.parse(cut!.start))).toBeLessThanOrEqual(CROSSING_MS);
      expect(Math.abs(start + f.durationMs! - Date.parse(cut!.end))).toBeLessThanOrEqual(CROSSING_MS);
      expect(report.input.provenance[`scenario.faults[${i}]`].rule).toMatch(/^rule network-partition: /);
      expect(report.input.provenance[`scenario.faults[${i}]`].evidence.length).toBeGreaterThan(0);
    }
  });
});

describe('gen-145: broker-c cut off from the only NameServer', () => {
  it("is reproduced: the NameServer's removal of broker-c 120 s after its last registration, and no client fails", async () => {
    const r = await replayOf(join(ROOT, 'samples', 'generated', 'gen-145'));
    expect(r.verdict).toBe('reproduced');
    const removal = r.milestones.find((m) => m.name === 'namesrv-removal');
    expect(removal?.status).toBe('ok');
    expect(removal?.subject).toMatch(/removes broker-c$/);
    // The one failed send of the logs came before the cut (a cold start): not the partition's.
    expect(r.milestones.filter((m) => m.name === 'first-failure')).toEqual([]);
  }, 60_000);
});

describe('gen-705: mq-node-c cut off from the three clients for 2 min 30 s', () => {
  let r: ReplayReport;
  beforeAll(async () => {
    r = await replayOf(join(ROOT, 'samples', 'generated', 'gen-705'));
  }, 60_000);

  it("ends app-order-01's cut at the reset it got from the NameServer across it, within 1 s of lab.json's heal", () => {
    const lab = labPartitions(join(ROOT, 'samples', 'generated', 'gen-705'))[0];
    const sc = r.input.scenario;
    const i = (sc.faults ?? []).findIndex((f) => 'partition' in f && f.partition[1] === 'app-order-01');
    const f = sc.faults![i] as Partition;
    expect(Math.abs(sc.startEpochMs + f.atMs + f.durationMs! - Date.parse(lab.end))).toBeLessThanOrEqual(1000);
    expect(r.input.provenance[`scenario.faults[${i}]`].rule).toMatch(/ends when app-order-01 got a connection reset from 10\.213\.0\.23:9876/);
  });

  it('is reproduced: app-order-01 keeps its timed-out channels and switches NameServer at the poll after the reset; the selector and the async client lose nothing, as in the lab', () => {
    expect(r.verdict).toBe('reproduced');
    const sw = r.milestones.find((m) => m.name === 'namesrv-switch' && m.subject.startsWith('app-order-01'));
    expect(sw?.status).toBe('ok');
    expect(Math.abs(sw!.deltaMs!)).toBeLessThan(1000);
    const lost = Object.fromEntries(r.outages.map((o) => [o.client, o.simulatedFailedSends]));
    expect(lost['app-pay-01']).toBe(0);
    expect(lost['app-stock-01']).toBe(0);
    expect(lost['app-order-01']).toBeGreaterThan(42);
  });
});

describe('gen-185: broker-c cut off from mq-node-a (NameServer and broker-a) and app-order-01 for 90 s', () => {
  it("ends the NameServer's cut between broker-c's last failed registration and the first one answered again, within 15 s of lab.json's heal; app-order-01's, whose heartbeats on a kept channel timed out past the heal, at the last of them", async () => {
    const dir = join(ROOT, 'samples', 'generated', 'gen-185');
    const lab = labPartitions(dir)[0];
    const { input } = await inferFromLogs({ inputs: [dir] }, () => '+08:00', dir);
    const sc = input.scenario;
    const end = (peer: string) => {
      const i = (sc.faults ?? []).findIndex((f) => 'partition' in f && f.partition[1] === peer);
      const f = sc.faults![i] as Partition;
      return { ts: sc.startEpochMs + f.atMs + f.durationMs!, rule: input.provenance[`scenario.faults[${i}]`].rule };
    };
    const ns = end('mq-node-a');
    // broker.log: `registerBroker Exception` at 02:01:49, `register broker[0]to name server 10.213.0.21:9876 OK` at 02:02:17.
    expect(ns.ts).toBeGreaterThan(Date.parse('2026-12-05T02:01:49+08:00'));
    expect(ns.ts).toBeLessThan(Date.parse('2026-12-05T02:02:17+08:00'));
    expect(Math.abs(ns.ts - Date.parse(lab.end))).toBeLessThanOrEqual(15_000);
    expect(ns.rule).toMatch(/ends halfway between the pair's last failed registration .* and its first request that crossed again .*mq-broker-c's registration with 10\.213\.0\.21:9876 answered/);
    const app = end('app-order-01');
    expect(new Date(app.ts).toISOString()).toBe('2026-12-04T18:02:21.824Z');
  }, 60_000);
});
