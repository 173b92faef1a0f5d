// Ground truth: a NameServer that hangs and runs again, and a producer with fault avoidance on.
//
// samples/lab/ns-hang-resume-4x (servers 4.9.4) and ns-hang-resume-5x (5.3.3): mq-ns-1, a NameServer
// on a host of its own, is stopped for 150 s and resumes. Both brokers keep running: they register
// with mq-ns-2 every 30 s and their registrations to mq-ns-1 time out. When mq-ns-1 runs again its
// scan (and, in 5.x, its idle timer and the catch-up of missed scans, many in one second) drops both
// brokers as expired, and they register again at once. No broker went down; the removals are the
// NameServer's doing.
//
// samples/lab/latency-fault-on-4x (4.9.4): broker-a hangs for 150 s; app-order-01 runs with
// sendLatencyFaultEnable=true and loses 1 send, app-pay-01 without it and loses 32.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeReport, fault, findingsOf, recording, replayReport } from './recording.js';

for (const name of ['ns-hang-resume-4x', 'ns-hang-resume-5x']) {
  describe(`lab ${name}: a NameServer that ran again after a hang dropped brokers that kept running`, () => {
    const r = recording(name);
    const hang = fault(r, 'hang', 'mq-ns-1');
    let report: any;
    beforeAll(async () => ({ report } = await analyzeReport(r)));

    it('one removal per broker, each told as the NameServer side, with the broker running', () => {
      const ns1 = r.lab.servers.namesrv.find((n) => n.host === 'mq-ns-1')!.addr;
      const removals = findingsOf(report, 'broker-down-detection');
      expect(removals.map((f) => f.subject.broker).sort()).toEqual(['broker-a', 'broker-b']);
      for (const f of removals) {
        expect(f.subject.namesrvAddr, f.title).toBe(ns1);
        expect(f.metrics.brokerAlive, f.title).toBe(true);
        expect(f.metrics.detection, f.title).toBe('expired');
        // Dropped when the NameServer ran again, not while it was stopped.
        expect(Date.parse(f.end), f.title).toBeGreaterThanOrEqual(hang.endMs! - 2000);
        expect(f.title).toMatch(/while the broker kept running/);
        const said = `${f.explanation} ${f.advice.join(' ')}`;
        expect(said).not.toMatch(/went down|a crash, kill -9|so it hung|Find why broker-\w+ went silent/);
      }
    });

    it('replays: the connections the NameServer accepts when it runs again are idle from then (no model assertion)', async () => {
      const { code, report: replay } = await replayReport(r);
      expect(code).toBeLessThanOrEqual(1);
      expect(['reproduced', 'not-reproduced']).toContain(replay.verdict);
    });

    it('no NameServer is told a broker unregistered (a graceful shutdown nobody made)', () => {
      expect(findingsOf(report, 'broker-down-detection').filter((f) => f.metrics.detection === 'unregistered')).toEqual([]);
    });
  });
}

describe('lab latency-fault-on-4x: the advice to enable fault avoidance only where the client ran without it', () => {
  const r = recording('latency-fault-on-4x');
  let report: any;
  beforeAll(async () => ({ report } = await analyzeReport(r)));

  const adviceOn = (host: string) =>
    report.findings.filter((f: any) => f.subject.host === host).flatMap((f: any) => f.advice.filter((a: string) => /sendLatencyFaultEnable/.test(a)));

  it('app-pay-01 (off) kept sending to the hung broker: the setting is said to be off, from its behaviour', () => {
    const off = r.lab.clients.find((c) => c.host === 'app-pay-01')!;
    expect(off.ranWith?.sendLatencyFaultEnable).toBe(false);
    const said = adviceOn('app-pay-01');
    expect(said.length).toBeGreaterThan(0);
    expect(said.every((a: string) => /^Enable sendLatencyFaultEnable on app-pay-01's producer .*off here: its attempts to broker-a kept failing/.test(a))).toBe(true);
  });

  it('app-order-01 (on) is never told the setting is off: its advice stays conditional', () => {
    const on = r.lab.clients.find((c) => c.host === 'app-order-01')!;
    expect(on.ranWith?.sendLatencyFaultEnable).toBe(true);
    for (const a of adviceOn('app-order-01')) expect(a).toMatch(/^If app-order-01's producer runs without sendLatencyFaultEnable/);
    expect(JSON.stringify(report.incidents)).not.toMatch(/app-order-01's producer \(setSendLatencyFaultEnable\(true\); off by default, and off here/);
  });
});
