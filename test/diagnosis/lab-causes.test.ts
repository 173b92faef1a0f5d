// The causes analyze names on generated lab recordings (samples/generated/gen-N, real RocketMQ),
// against their lab.json: how a host stopped answering is told by what its peers saw at its start
// (refused connections or calls that hung) and at its end (a new boot, its old connections reset).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnosis/diagnose.js';
import type { Incident } from '../../src/rules/incident.js';
import { ALL_RULES } from '../../src/rules/index.js';
import { buildTimeline } from '../../src/timeline/build.js';

const ROOT = join(__dirname, '..', '..');
const GEN = join(ROOT, 'samples', 'generated');

interface LabFault {
  kind: string;
  host: string;
  start: string;
  end: string | null;
  linkUp?: string;
}
const faultsOf = (name: string): LabFault[] => JSON.parse(readFileSync(join(GEN, name, 'lab.json'), 'utf8')).faults;
const ms = (iso: string) => Date.parse(iso);

async function incidentsOf(name: string): Promise<Incident[]> {
  const t = await buildTimeline({ inputs: [join(GEN, name)], keepOther: 'inference', cwd: ROOT, workers: 0 });
  try {
    return diagnose(t, { rules: ALL_RULES }).incidents;
  } finally {
    t.close();
  }
}

const causesOn = (incidents: Incident[], host: string) => incidents.flatMap((i) => i.causes).filter((c) => c.host === host);

describe('a killed process is a crash, not a hang', () => {
  // gen-239: broker-a's JVM killed (SIGKILL): the NameServers saw its channels close at once and the
  // clients' connects were refused; their heartbeats failed on those refused connects
  // (`send heart beat to broker[...] failed` over a RemotingConnectException), which are no timeouts.
  it('gen-239: broker-a crashed and was started again', async () => {
    const [crash] = faultsOf('gen-239').filter((f) => f.host === 'mq-broker-a');
    expect(crash.kind).toBe('crash');
    const causes = causesOn(await incidentsOf('gen-239'), 'mq-broker-a');
    expect(causes.map((c) => c.kind)).toEqual(['crash']);
    expect(Math.abs(causes[0].start - ms(crash.start))).toBeLessThanOrEqual(10000);
    expect(Math.abs(causes[0].end! - ms(crash.end!))).toBeLessThanOrEqual(10000);
  });

  // gen-706: a NameServer killed; the brokers' registrations failed on refused connects
  // (`registerBroker Exception` over a RemotingConnectException). A NameServer writes nothing for
  // seconds while it runs: it went down between its last line and the first refusal, not at its last line.
  it('gen-706: the NameServer on mq-ns-1 crashed, from when its peers were refused', async () => {
    const [crash] = faultsOf('gen-706').filter((f) => f.host === 'mq-ns-1');
    expect(crash.kind).toBe('crash');
    const causes = causesOn(await incidentsOf('gen-706'), 'mq-ns-1');
    expect(causes.map((c) => c.kind)).toEqual(['crash']);
    expect(Math.abs(causes[0].start - ms(crash.start))).toBeLessThanOrEqual(10000);
  });
});

describe('a host that went dark and came back with a new boot is a reboot, not a hang', () => {
  // gen-79: mq-ns-2 rebooted (link down 15 s, then booted). Its peers' calls hung and no new
  // connection completed (the one a broker opened after the link came back was refused at once), so
  // nothing shows the kernel alive: the silent part is told as the start of the reboot.
  it('gen-79: one reboot of mq-ns-2, from when its peers stopped getting answers', async () => {
    const [reboot] = faultsOf('gen-79');
    expect(reboot.kind).toBe('reboot');
    const causes = causesOn(await incidentsOf('gen-79'), 'mq-ns-2');
    expect(causes.map((c) => c.kind)).toEqual(['reboot']);
    expect(causes[0].detail).toMatch(/a power loss, or a frozen host that was reset: the logs cannot tell/);
    expect(Math.abs(causes[0].start - ms(reboot.start))).toBeLessThanOrEqual(10000);
    expect(Math.abs(causes[0].end! - ms(reboot.end!))).toBeLessThanOrEqual(10000);
  });
});

describe('a reboot shorter than 30 s is placed from the last line before its boot', () => {
  // gen-702: mq-node-b rebooted for 20 s (link up after 15 s). Its watermark.log wrote every second
  // up to 04:54:22 and its NameServer's boot lines began at 04:54:43, with no shutdown hook: 21 s of
  // silence, short of the 30 s a silence needs, but ended by a boot.
  it('gen-702: the reboot of mq-node-b is named, from its last line to its boot', async () => {
    const reboot = faultsOf('gen-702').find((f) => f.kind === 'reboot')!;
    expect(reboot.host).toBe('mq-node-b');
    const causes = causesOn(await incidentsOf('gen-702'), 'mq-node-b');
    expect(causes.map((c) => c.kind)).toEqual(['reboot']);
    expect(Math.abs(causes[0].start - ms(reboot.start))).toBeLessThanOrEqual(2000);
    expect(Math.abs(causes[0].end! - ms(reboot.end!))).toBeLessThanOrEqual(5000);
  });

  // gen-709: mq-broker-a ran its shutdown hook at 05:30:24, logged its shutting down until 05:30:47,
  // and booted 20 s later: a restart (the hook since its boot before), not a crash at 05:30:47.
  it('gen-709: a short silence after a shutdown hook is the restart, not a crash', async () => {
    const causes = causesOn(await incidentsOf('gen-709'), 'mq-broker-a');
    expect(causes.map((c) => c.kind)).toEqual(['restart']);
  });

  // A host that logs every second and resumes after a pause with no boot is no stop under 30 s:
  // gen-712's hosts (disk full, no reboot) are named for their disks only.
  it('gen-712: no host is named down or rebooted', async () => {
    const causes = (await incidentsOf('gen-712')).flatMap((i) => i.causes);
    expect(causes.map((c) => c.kind).sort()).toEqual(['disk-full', 'disk-full']);
  });
});
