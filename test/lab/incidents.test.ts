// The incident analyze names first, on every lab recording, against what really happened (lab.json:
// the faults the lab injected by its own clock, and what each application counted of its sends), and
// against replay: both read one inference, so analyze's causes are replay's faults.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeReport, expectNear, ms, recording, replayReport, type Recording } from './recording.js';

const RECORDINGS = ['crash', 'restart', 'selector', 'hang-5x', 'seed-outage', 'broker-busy', 'namesrv-hang', 'disk-full'];

/** The lab's fault kinds as the incident names them. */
const KIND: Record<string, string> = { crash: 'crash', hang: 'hang', reboot: 'reboot', restart: 'restart', overload: 'overload', 'disk-full': 'disk-full' };

/**
 * A cause is placed from the logs: its start by the last line before a silence or the first busy
 * reply (a second or two), its end by the first line after (a host's boot or its next log line).
 */
const START_EARLY = 2000;
const START_LATE = 2000;
const END_EARLY = 5000;
const END_LATE = 25_000;
/** DefaultMessageStore's CleanCommitLogService looks at the disk every 10 s (cleanResourceInterval). */
const DISK_CHECK_MS = 10_500;

/** The lab's pauses of a broker inside its overload: the incident names them in the overload's detail. */
function nested(r: Recording, f: Recording['lab']['faults'][number]): boolean {
  return f.kind === 'hang' && r.lab.faults.some((o) => o.kind === 'overload' && o.host === f.host && ms(o.start) <= ms(f.start) && ms(f.start) <= ms(o.end!));
}

for (const name of RECORDINGS) {
  describe(`lab ${name}: the incident`, () => {
    const r = recording(name);
    let report: any;
    let replay: any;
    beforeAll(async () => {
      ({ report } = await analyzeReport(r, '--severity', 'none'));
      ({ report: replay } = await replayReport(r));
    });

    it('is one incident whose causes are the faults the lab injected, on their hosts, at their times', () => {
      expect(report.incidents).toHaveLength(1);
      const causes = report.incidents[0].causes;
      const expected = r.lab.faults.filter((f) => !nested(r, f) && hasTrace(r, f));
      expect(causes.map((c: any) => `${c.kind} ${c.host}`)).toEqual(expected.map((f) => `${KIND[f.kind]} ${f.host}`));
      expected.forEach((f, i) => {
        const c = causes[i];
        // A reboot's start is the hang's end, and both are known only up to the host's first sign of
        // life (its first connection reset or boot line).
        // A full disk is what the store's check (every 10 s) marked: full, then OK, up to 10 s late.
        const late = f.kind === 'reboot' ? END_LATE : f.kind === 'disk-full' ? DISK_CHECK_MS : START_LATE;
        expectNear(c.start, ms(f.start), START_EARLY, late, `${f.kind} ${f.host} start`);
        if (f.end) expectNear(c.end, ms(f.end), f.kind === 'disk-full' ? 0 : END_EARLY, f.kind === 'disk-full' ? DISK_CHECK_MS : END_LATE, `${f.kind} ${f.host} end`);
        expect(c.recognisedBy.length, 'how it was recognised').toBeGreaterThan(20);
        expect(c.evidence.length, 'its lines').toBeGreaterThan(0);
        for (const e of c.evidence) expect(e).toMatch(/^[\w./-]+:\d+$/);
      });
      for (const f of r.lab.faults.filter((x) => nested(r, x))) {
        expect(causes.find((c: any) => c.kind === 'overload' && c.host === f.host).detail, `${f.host} pause inside its overload`).toMatch(/\d+ pauses?, the longest (\d+ ms|\d+(\.\d)? s)/);
      }
    });

    it('names each hurt application with the sends it lost, as it counted them, and no other', () => {
      const impact = report.incidents[0].impact;
      const collected = new Set(r.lab.hosts.filter((h) => h.collected).map((h) => h.name));
      const hurt = r.lab.clients.filter((c) => c.sends.failed > 0 && collected.has(c.host));
      expect(impact.map((i: any) => i.client).sort()).toEqual(hurt.map((c) => c.host).sort());
      for (const c of hurt) {
        const i = impact.find((x: any) => x.client === c.host);
        expect(i.failedSends, `${c.host} lost sends`).toBe(c.sends.failed);
        expect(i.source, `${c.host} counted from its application log`).toBe('app');
        // The producer takes its own time of a failure when it catches the exception; its log line
        // follows within a few milliseconds.
        expectNear(i.start, ms(c.sends.firstFailure), 5, 50, `${c.host} first failed send`);
        expectNear(i.end, ms(c.sends.lastFailure), 5, 50, `${c.host} last failed send`);
        expect(i.clientVersion).toBe(c.version);
        expect(i.lastedBecause?.length, `${c.host}: why it lasted`).toBeGreaterThan(30);
      }
    });

    it('tells the chain in time order from the first cause, and each piece of advice once', () => {
      const inc = report.incidents[0];
      // Server logs print whole seconds: a cause placed inside its second leads the lines of that second.
      const times: number[] = inc.chain.map((s: any) => Date.parse(s.time));
      times.forEach((t, i) => expect(t, inc.chain[i].text).toBeGreaterThanOrEqual((times[i - 1] ?? t) - 1000));
      expect(times[0]).toBe(Date.parse(inc.causes[0].start));
      expect(inc.advice.length).toBeGreaterThan(0);
      expect(new Set(inc.advice).size).toBe(inc.advice.length);
      const ids = new Set(report.findings.map((f: any) => f.id));
      for (const id of inc.findings) expect(ids.has(id), id).toBe(true);
      for (const s of inc.chain) if (s.finding !== null) expect(inc.findings).toContain(s.finding);
    });

    it('names a broker by its name and its address in every finding (one identity across sources)', () => {
      // A master's or a slave's address: a slave registers under its master's brokerName.
      const addrs = (name: string) => r.lab.servers.brokers.filter((b) => b.brokerName === name).map((b) => b.addr);
      for (const f of report.findings) {
        const s = f.subject;
        if (s.broker === undefined && s.brokerAddr === undefined) continue;
        expect(s.broker, `${f.id} ${f.rule}`).toBeDefined();
        expect(addrs(s.broker), `${f.id} ${f.rule}`).toContain(s.brokerAddr);
      }
    });

    it("are replay's faults: the same hosts at the same times (one inference)", () => {
      const sc = replay.scenario;
      const hostOfBroker = new Map(sc.brokers.map((b: any) => [b.name, b.host]));
      const faults = sc.faults.map((f: any) => ({ at: sc.startEpochMs + f.atMs, host: f.host ?? hostOfBroker.get(f.broker), f }));
      const causes = report.incidents[0].causes.map((c: any) => ({ ...c, startMs: Date.parse(c.start), endMs: c.end === null ? null : Date.parse(c.end) }));
      for (const c of causes) expect(faults.some((f: any) => f.host === c.host && f.at === c.startMs), `${c.kind} ${c.host} at ${c.start} in replay`).toBe(true);
      for (const { at, host, f } of faults) {
        const placed = causes.some(
          (c: any) => c.host === host && (c.startMs === at || c.endMs === at || (f.stall && c.kind === 'overload' && c.startMs <= at && at <= c.endMs)),
        );
        expect(placed, `replay fault ${JSON.stringify(f)} named by analyze`).toBe(true);
      }
    });
  });
}

/**
 * A hang that hurt a client. The broker-busy recording's second pause (1.2 s at 18:55:30, after its
 * producers' burst) rejected no send: the broker logged one slow put and skipped one watermark
 * second, and no client failed, so it is no cause of the impact (docs/lab.md, fidelity).
 */
function hasTrace(r: Recording, f: Recording['lab']['faults'][number]): boolean {
  if (f.kind !== 'hang') return true;
  return r.lab.clients.some((c) => c.sends.firstFailure !== null && ms(c.sends.firstFailure) <= ms(f.end!) && ms(c.sends.lastFailure!) >= ms(f.start));
}
