// Ground truth from the lab: a recording's lab.json (what really happened, from the lab's own clock)
// and the reports rmq-diag gives on its logs.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { LabJson } from '../../lab/src/labjson.js';
import { ROOT, run } from '../cli/helpers.js';

export interface Recording {
  name: string;
  dir: string;
  lab: LabJson;
}

export function recording(name: string): Recording {
  const dir = join(ROOT, 'samples', 'lab', name);
  const file = join(dir, 'lab.json');
  if (!existsSync(file)) throw new Error(`no recording ${name}: samples/lab/${name}/lab.json is missing`);
  return { name, dir, lab: JSON.parse(readFileSync(file, 'utf8')) as LabJson };
}

export const ms = (iso: string | null): number => {
  if (iso === null) throw new Error('no time');
  return Date.parse(iso);
};

type Fault = LabJson['faults'][number];

/** The n-th fault of a kind (on a host), as recorded by the lab. */
export function fault(r: Recording, kind: Fault['kind'], host?: string, n = 0): Fault & { startMs: number; endMs: number | null } {
  const f = r.lab.faults.filter((x) => x.kind === kind && (!host || x.host === host))[n];
  if (!f) throw new Error(`${r.name}: no ${kind} fault${host ? ` on ${host}` : ''}`);
  return { ...f, startMs: ms(f.start), endMs: f.end ? ms(f.end) : null };
}

export function client(r: Recording, host: string): LabJson['clients'][number] {
  const c = r.lab.clients.find((x) => x.host === host);
  if (!c) throw new Error(`${r.name}: no client ${host}`);
  return c;
}

export function hostOf(r: Recording, name: string): LabJson['hosts'][number] {
  const h = r.lab.hosts.find((x) => x.name === name);
  if (!h) throw new Error(`${r.name}: no host ${name}`);
  return h;
}

/** `analyze --json` on the whole recording. */
export async function analyzeReport(r: Recording, ...args: string[]): Promise<{ code: number; report: any }> {
  const out = await run(['analyze', r.dir, '--json', ...args]);
  if (!out.stdout.trim()) throw new Error(`analyze gave no report: ${out.stderr}`);
  return { code: out.code, report: JSON.parse(out.stdout) };
}

/** `replay --json` on the whole recording. */
export async function replayReport(r: Recording, ...args: string[]): Promise<{ code: number; report: any }> {
  const out = await run(['replay', r.dir, '--json', ...args]);
  if (!out.stdout.trim()) throw new Error(`replay gave no report: ${out.stderr}`);
  return { code: out.code, report: JSON.parse(out.stdout) };
}

export function findingsOf(report: any, rule: string, subject: Record<string, unknown> = {}): any[] {
  return report.findings.filter((f: any) => f.rule === rule && Object.entries(subject).every(([k, v]) => f.subject[k] === v));
}

/** `ts` (ISO or epoch ms) lies in [from - before, from + after]. */
export function expectNear(ts: string | number | null, from: number, beforeMs: number, afterMs: number, what: string): void {
  expect(ts, what).not.toBeNull();
  const t = typeof ts === 'number' ? ts : Date.parse(ts!);
  expect(t, `${what}: ${new Date(t).toISOString()} vs ${new Date(from).toISOString()}`).toBeGreaterThanOrEqual(from - beforeMs);
  expect(t, `${what}: ${new Date(t).toISOString()} vs ${new Date(from).toISOString()}`).toBeLessThanOrEqual(from + afterMs);
}

/** The milestones of an analyze report of one kind (and host). */
export function milestonesOf(report: any, kind: string, host?: string): any[] {
  return report.milestones.filter((m: any) => m.kind === kind && (!host || m.host === host));
}

/**
 * What replay must show on every recording: `reproduced`, every observed milestone within its
 * tolerance, and an inferred topology that is the lab's.
 */
export function expectReproduced(r: Recording, report: any): void {
  const off = report.milestones.filter((m: any) => m.status !== 'ok' && m.status !== 'unobservable' && m.status !== 'beyond-run');
  expect(off.map((m: any) => `${m.name} ${m.subject}: ${m.status} ${m.deltaMs ?? ''}`), `${r.name}: milestones off`).toEqual([]);
  expect(report.verdict).toBe('reproduced');
}

/**
 * Each collected client loses about as many sends in the replay as its application counted: within
 * 0.5-1.5x. (Before the model failed fast the sends waiting on a channel a 4.9.1+ client closed on a
 * timeout, it lost 2-4x as many.)
 */
export function expectLostSends(r: Recording, report: any): void {
  for (const c of r.lab.clients.filter((x) => hostOf(r, x.host).collected !== false)) {
    const o = report.outages.find((x: any) => x.client === c.host);
    const lost = o?.simulatedFailedSends ?? 0;
    if (c.sends.failed === 0) expect(lost, `${c.host} simulated failed sends`).toBe(0);
    else {
      expect(lost, `${c.host}: ${lost} simulated vs ${c.sends.failed} failed sends`).toBeGreaterThanOrEqual(c.sends.failed * 0.5);
      expect(lost, `${c.host}: ${lost} simulated vs ${c.sends.failed} failed sends`).toBeLessThanOrEqual(c.sends.failed * 1.5);
    }
  }
}

/** The inferred scenario has the lab's NameServers, master brokers, hosts, addresses and versions. */
export function expectTopology(r: Recording, report: any): void {
  const sc = report.scenario;
  const ns = r.lab.servers.namesrv.map((n) => ({ addr: n.addr, host: n.host })).sort((a, b) => a.addr.localeCompare(b.addr));
  expect(sc.nameServers.map((n: any) => ({ addr: n.addr, host: n.host })).sort((a: any, b: any) => a.addr.localeCompare(b.addr))).toEqual(ns);
  const masters = r.lab.servers.brokers
    .filter((b) => b.brokerId === 0)
    .map((b) => ({ name: b.brokerName, addr: b.addr, host: b.host }))
    .sort((a, b) => a.name.localeCompare(b.name));
  expect(sc.brokers.map((b: any) => ({ name: b.name, addr: b.addr, host: b.host })).sort((a: any, b: any) => a.name.localeCompare(b.name))).toEqual(masters);
  expect(sc.serverVersion).toBe(r.lab.versions.broker);
  // A client whose logs the lab did not collect (another team's) can only show as load.
  for (const c of r.lab.clients.filter((x) => hostOf(r, x.host).collected !== false)) {
    const inferred = sc.clients.find((x: any) => x.host === c.host);
    expect(inferred, `client ${c.host} inferred`).toBeDefined();
    expect(inferred.version, `${c.host} version`).toBe(c.version);
    expect(inferred.ip, `${c.host} address`).toBe(hostOf(r, c.host).addr);
    expect(inferred.topic, `${c.host} topic`).toBe(c.topic);
    expect(inferred.namesrv, `${c.host} bound NameServer`).toBe(c.boundNamesrv);
    expect([...inferred.namesrvAddrList].sort(), `${c.host} namesrvAddr`).toEqual([...c.namesrvAddrs].sort());
    // The send budget the client ran with (none of today's recordings sets it: the default, 3000 ms),
    // not the RT of an attempt that failed at once on a channel closed under it.
    const ran = c.ranWith?.sendMsgTimeout ?? Number(c.settings.sendMsgTimeout ?? 3000);
    expect(inferred.settings.sendMsgTimeoutMs ?? 3000, `${c.host} sendMsgTimeout`).toBe(ran);
  }
}
