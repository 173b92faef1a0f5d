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

describe('gen-715: broker-b (5.1.4) cut off from its three NameServers for 45 s', () => {
  let r: ReplayReport;
  beforeAll(async () => {
    const dir = join(ROOT, 'samples', 'generated', 'gen-715');
    const { input } = await inferFromLogs({ inputs: [dir] }, () => '+08:00', dir);
    r = replay(input, { seed: 1, variants: [], runs: 0, keepLines: true });
  }, 60_000);

  it('registers broker-b again right after the heal, from the round its scheduled thread ran late, as broker.log shows (05:55:31)', () => {
    const sc = r.input.scenario;
    const heal = Math.max(...(sc.faults ?? []).filter((f): f is Partition => 'partition' in f).map((f) => sc.startEpochMs + f.atMs + f.durationMs!));
    const after = r.run.metrics.registrations.filter((x) => x.brokerAddr === '10.213.0.22:10911' && sc.startEpochMs + x.atMs >= heal);
    // One with each NameServer, the first within 2 s of broker.log's `Registering current broker to
    // name server completed` at 05:55:31 (a second's resolution) and long before the round due at
    // 05:55:57: the one due at 05:55:27 waited behind the metadata refresh's connects.
    const first = new Map<string, number>();
    for (const x of after) if (!first.has(x.namesrv)) first.set(x.namesrv, sc.startEpochMs + x.atMs);
    expect([...first.keys()].sort()).toEqual(['10.213.0.11:9876', '10.213.0.12:9876', '10.213.0.13:9876']);
    for (const t of first.values()) {
      expect(t).toBeGreaterThanOrEqual(Date.parse('2026-12-05T05:55:30+08:00'));
      expect(t).toBeLessThan(Date.parse('2026-12-05T05:55:32+08:00'));
    }
  });

  it('removes broker-b at no NameServer: the channels it closed in the cut close there 8-18 s after the heal, by the retransmitted FIN, on channels it no longer holds', () => {
    expect(r.run.metrics.removals.filter((x) => x.brokerAddr === '10.213.0.22:10911')).toEqual([]);
    expect(r.milestones.filter((m) => m.name === 'namesrv-removal' || m.name === 'route-lost')).toEqual([]);
    // namesrv.log: broker-b's old channels went inactive at 05:55:43-51, 13-21 s after lab.json's heal
    // (TCP's backoff from the requests the cut dropped); the model's, at 200 ms a step, 8-18 s after its.
    const sc = r.input.scenario;
    const heal = Math.max(...(sc.faults ?? []).filter((f): f is Partition => 'partition' in f).map((f) => sc.startEpochMs + f.atMs + f.durationMs!));
    const closes: number[] = [];
    for (const [file, lines] of Object.entries(r.run.logs ?? {})) {
      if (!file.endsWith('namesrv.log')) continue;
      for (const l of lines) if (/channelInactive, the channel\[10\.213\.0\.22:/.test(l)) closes.push(Date.parse(`${l.slice(0, 10)}T${l.slice(11, 19)}+08:00`));
    }
    expect(closes.length).toBe(3);
    for (const t of closes) {
      expect(t - heal).toBeGreaterThanOrEqual(7000);
      expect(t - heal).toBeLessThanOrEqual(19_000);
    }
  });
});
