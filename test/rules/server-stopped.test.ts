// server-stopped on lab recordings cut down as an operator would have them: one host's folder, one
// file of it, and the whole recording. Each finding is held to the lab's truth (lab.json): a stop it
// names is a fault on that host then, of a kind its words allow; a host with no fault gets none.
import { describe, expect, it } from 'vitest';
import rule from '../../src/rules/server-stopped.js';
import type { Finding } from '../../src/rules/types.js';
import { generatedFindings, generatedTruth, labFindings, labTruth, LAB } from './lab-findings.js';
import { readdirSync } from 'node:fs';

const at = (iso: string) => Date.parse(iso);
/** Within a few seconds: the logs print whole seconds, and a process's last line comes just before the fault. */
const SLACK = 5000;

const only = async (path: string) => (await labFindings(path, [rule])).filter((f) => f.rule === 'server-stopped');

/** The lab's fault of this kind on this host. */
function fault(name: string, host: string, kind: string) {
  const f = labTruth(name).faults.find((x) => x.host === host && x.kind === kind);
  if (!f) throw new Error(`no ${kind} on ${host} in ${name}`);
  return { start: at(f.start), end: f.end ? at(f.end) : null };
}

describe('one host\'s folder', () => {
  it('hang-5x, mq-broker-a alone: the silence and the boot with no shutdown before it', async () => {
    const [f, ...more] = await only('hang-5x/mq-broker-a');
    expect(more).toEqual([]);
    expect(f.severity).toBe('warning');
    expect(f.metrics.stop).toBe('unclean');
    expect(f.subject.host).toBe('mq-broker-a');
    expect(f.subject.broker).toBe('broker-a');
    const hang = fault('hang-5x', 'mq-broker-a', 'hang');
    const reboot = fault('hang-5x', 'mq-broker-a', 'reboot');
    expect(Math.abs(f.start! - hang.start)).toBeLessThanOrEqual(SLACK);
    // The boot line comes after the reboot's end (the broker's start takes a second or so).
    expect(f.end! - reboot.end!).toBeGreaterThanOrEqual(0);
    expect(f.end! - reboot.end!).toBeLessThanOrEqual(SLACK);
    expect(f.title).toMatch(/^Broker broker-a \(10\.213\.0\.21:10911\) on mq-broker-a went silent at 19:31:33 for 4 min 46 s and booted again at 19:36:09 with no shutdown logged before it$/);
    expect(f.metrics.silentLogs).toEqual(expect.arrayContaining(['watermark.log', 'its registrations in broker.log']));
    // It says what the logs cannot tell rather than guess.
    expect(f.explanation).toMatch(/killed .*crashed.*lost power\. The logs do not tell which/);
    expect(f.explanation).not.toMatch(/\bhung\b/);
  });

  it('hang-5x, broker.log of mq-broker-a alone: the registrations (every 30 s) tell the silence, the boot lines the restart', async () => {
    const [f, ...more] = await only('hang-5x/mq-broker-a/logs/rocketmqlogs/broker.log');
    expect(more).toEqual([]);
    expect(f.metrics.stop).toBe('unclean');
    expect(f.metrics.silentLogs).toEqual(['its registrations in broker.log']);
    expect(f.metrics.cadenceMs).toBe(30000);
  });

  it('watermark.log of mq-broker-a alone: a silence, and no claim about a boot it cannot see', async () => {
    const [f, ...more] = await only('hang-5x/mq-broker-a/logs/rocketmqlogs/watermark.log');
    expect(more).toEqual([]);
    expect(f.metrics.stop).toBe('silent');
    expect(f.metrics.cadenceMs).toBe(1000);
    expect(f.title).not.toMatch(/boot|resumed/);
    expect(f.explanation).toMatch(/Neither broker\.log nor namesrv\.log of mq-broker-a was read/);
  });

  it('crash, mq-broker-a alone: kill -9 is a boot with no shutdown', async () => {
    const [f, ...more] = await only('crash/mq-broker-a');
    expect(more).toEqual([]);
    expect(f.metrics.stop).toBe('unclean');
    expect(Math.abs(f.start! - fault('crash', 'mq-broker-a', 'crash').start)).toBeLessThanOrEqual(SLACK);
  });

  it('restart, mq-broker-a alone: the shutdown hook before the boot makes it a restart (info)', async () => {
    const [f, ...more] = await only('restart/mq-broker-a');
    expect(more).toEqual([]);
    expect(f.severity).toBe('info');
    expect(f.metrics.stop).toBe('restart');
    expect(f.metrics.shutdownLogged).toBe(true);
    expect(Math.abs(f.start! - fault('restart', 'mq-broker-a', 'restart').start)).toBeLessThanOrEqual(SLACK);
    expect(f.title).toMatch(/on mq-broker-a shut down at 19:04:57 and booted again at 19:05:38/);
  });

  it('latency-fault-on-4x, mq-broker-a alone: a 4.9 broker that hung and went on, its stats thread silent too', async () => {
    const [f, ...more] = await only('latency-fault-on-4x/mq-broker-a');
    expect(more).toEqual([]);
    expect(f.metrics.stop).toBe('resumed');
    expect(f.severity).toBe('warning');
    expect(f.metrics.silentLogs).toContain('stats.log');
    const hang = fault('latency-fault-on-4x', 'mq-broker-a', 'hang');
    expect(Math.abs(f.start! - hang.start)).toBeLessThanOrEqual(SLACK);
    expect(Math.abs(f.end! - hang.end!)).toBeLessThanOrEqual(SLACK);
  });

  it('ns-hang-resume-5x, mq-ns-1 alone: a 5.x NameServer\'s watermark lines', async () => {
    const [f, ...more] = await only('ns-hang-resume-5x/mq-ns-1');
    expect(more).toEqual([]);
    expect(f.metrics.stop).toBe('resumed');
    expect(f.metrics.silentLogs).toEqual(["the NameServer's watermark lines"]);
  });

  it('a host with no fault: hang-5x mq-broker-b, mq-slave-b, mq-ns-2 give nothing', async () => {
    for (const h of ['mq-broker-b', 'mq-slave-b', 'mq-ns-2']) expect(await only(`hang-5x/${h}`)).toEqual([]);
  });
});

describe('every lab recording, whole', () => {
  const names = readdirSync(LAB).filter((n) => !n.startsWith('.'));
  const KINDS: Record<string, string[]> = {
    unclean: ['crash', 'reboot', 'hang'],
    restart: ['restart'],
    resumed: ['hang', 'overload'],
    silent: ['hang', 'overload', 'crash', 'reboot', 'restart'],
    // The scheduler thread alone stood still: the host hung, or that thread waited for a peer.
    scheduler: ['hang', 'overload'],
  };

  it.each(names)('%s: each finding names a fault of its kind on its host then', async (name) => {
    const truth = labTruth(name);
    const found: Finding[] = await only(name);
    for (const f of found) {
      const host = f.subject.host!;
      const kinds = KINDS[f.metrics.stop as string];
      const hit = truth.faults.filter(
        (x) => x.host === host && kinds.includes(x.kind) && at(x.start) - SLACK <= f.end! && (x.end ? at(x.end) : Infinity) + SLACK >= f.start!,
      );
      expect(hit.length, `${name}: ${f.title}`).toBeGreaterThan(0);
    }
    // Every crash, restart and reboot of a server in the lab is told.
    for (const x of truth.faults.filter((x) => ['crash', 'restart', 'reboot'].includes(x.kind))) {
      expect(
        found.some((f) => f.subject.host === x.host && f.start! - SLACK <= (x.end ? at(x.end) : Infinity) && f.end! + SLACK >= at(x.start)),
        `${name}: ${x.kind} of ${x.host}`,
      ).toBe(true);
    }
  });
});

describe('a reboot shorter than 30 s', () => {
  // gen-701: the slave mq-broker-a-s rebooted for 20 s (link up after 15 s); its watermark.log wrote
  // every second to 04:50:24 and its broker booted at 04:50:46 with no shutdown hook: 22 s.
  it('gen-701: the slave went silent at its last watermark line and booted with no shutdown: an unclean stop from then', async () => {
    const found = (await generatedFindings('gen-701', [rule])).filter((f) => f.rule === 'server-stopped');
    const reboot = generatedTruth('gen-701').faults.find((x) => x.kind === 'reboot')!;
    const f = found.find((x) => x.subject.host === reboot.host)!;
    expect(f.metrics.stop).toBe('unclean');
    expect(f.metrics.silentLogs).toEqual(['watermark.log']);
    expect(f.metrics.silentMs).toBeLessThan(30000);
    expect(Math.abs(f.start! - at(reboot.start))).toBeLessThanOrEqual(SLACK);
    expect(f.title).toMatch(/went silent at 04:50:24 for 22 s and booted again at 04:50:46 with no shutdown logged before it$/);
  });

  // gen-709: mq-broker-a ran its shutdown hook, wrote its shutting down for 23 s, was silent 20 s and
  // booted: the hook makes it a restart, whatever the silence before the boot.
  it('gen-709: a shutdown hook since the boot before makes it a restart, with no silence', async () => {
    const found = (await generatedFindings('gen-709', [rule])).filter((f) => f.rule === 'server-stopped' && f.subject.host === 'mq-broker-a');
    expect(found.map((f) => [f.metrics.stop, f.metrics.silentMs])).toEqual([['restart', null]]);
  });
});
