// The consumer faults the incident names as its causes (src/diagnosis/consumer-causes.ts), on the
// lab's consumer recordings (samples/lab/consumer-*, real RocketMQ 4.9.4) against lab.json: each
// lab consumer fault is named on its host (or, for a listener fault or a reset, one of the group's
// instances), by the kind the scorer maps to it, its start within 10 s; and no consumer cause where
// the lab injected none (a broker crash, a broker hang, a NameServer hang, the producer recordings).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { consumerCauses as consumerCausesOf } from '../../src/diagnosis/consumer-causes.js';
import { diagnose } from '../../src/diagnosis/diagnose.js';
import type { RmqEvent } from '../../src/parse/types.js';
import type { Cause, Incident } from '../../src/rules/incident.js';
import { ALL_RULES } from '../../src/rules/index.js';
import { buildTimeline } from '../../src/timeline/build.js';

const ROOT = join(__dirname, '..', '..');
const LAB = join(ROOT, 'samples', 'lab');
interface LabFault {
  kind: string;
  host: string;
  start: string;
  end: string | null;
  consumers?: string[];
}
const faultsOf = (name: string): LabFault[] => JSON.parse(readFileSync(join(LAB, name, 'lab.json'), 'utf8')).faults;
const groupHosts = (name: string): string[] => JSON.parse(readFileSync(join(LAB, name, 'lab.json'), 'utf8')).consumers.map((c: { host: string }) => c.host);

/** The lab's kind each consumer cause names (lab/src/score-truth.ts's KIND_WORDS, analyze's words). */
const NAMES: Record<string, string[]> = {
  'slow-listener': ['slowdown', 'listener-block'],
  'consume-failures': ['consume-failures'],
  'consumer-gone': ['consumer-kill'],
  'consumer-stopped': ['consumer-stop'],
  'consumer-joined': ['consumer-start'],
  'offset-reset': ['reset-offset'],
};
const CONSUMER_KINDS = new Set(Object.keys(NAMES));

async function incidentsAt(dir: string): Promise<Incident[]> {
  const t = await buildTimeline({ inputs: [dir], keepOther: 'inference', cwd: ROOT, workers: 0 });
  try {
    return diagnose(t, { rules: ALL_RULES }).incidents;
  } finally {
    t.close();
  }
}
const incidentsOf = (name: string): Promise<Incident[]> => incidentsAt(join(LAB, name));
const consumerCauses = (incs: Incident[]): Cause[] => incs.flatMap((i) => i.causes).filter((c) => CONSUMER_KINDS.has(c.kind));

describe('consumer faults named as incident causes', () => {
  // gen-20261212: broker-a's restart closed the channels of CID_BILLING's BROADCASTING instances. Such an
  // instance commits nothing to the broker, so its log keeps no 5 s clock: app-billing-02 printed 5 lines
  // in the minute and ran on; its quiet is no sign that it went away.
  it('gen-20261212: a broadcasting instance whose channel closed is not called gone for its quiet log', async () => {
    const incs = await incidentsAt(join(ROOT, 'samples', 'generated', 'gen-20261212'));
    expect(consumerCauses(incs).filter((c) => c.host === 'app-billing-02')).toEqual([]);
  });

  // gen-20261228: app-billing-01's listener answered RECONSUME_LATER to 30 % of its deliveries from
  // 07:50:16 to 07:51:16; the client logs no line for such an answer, only CONSUME_FAILED_TPS (23 in
  // the minute to 07:52:00: no message reached it before its broker's producer came back at 07:50:48).
  it('gen-20261228: failures only the client\'s stats count, placed within their minute', async () => {
    const dir = join(ROOT, 'samples', 'generated', 'gen-20261228');
    const incs = await incidentsAt(dir);
    const fault = (JSON.parse(readFileSync(join(dir, 'lab.json'), 'utf8')).faults as LabFault[]).find((f) => f.kind === 'consume-failures')!;
    const [c] = consumerCauses(incs).filter((x) => x.kind === 'consume-failures');
    expect(c).toMatchObject({ host: fault.host, group: 'CID_BILLING', minuteBounds: true });
    expect(c.end! - c.start).toBe(60_000);
    // The first failure (07:51:06 in the lab consumer's log) lies within the minute stated.
    expect(c.start).toBeLessThanOrEqual(Date.parse('2026-12-08T07:51:06.102+08:00'));
    expect(c.end!).toBeGreaterThanOrEqual(Date.parse('2026-12-08T07:51:06.102+08:00'));
    expect(c.detail).toContain('(23)');
  });

  // gen-20261220: app-billing-03 killed at 06:31:35 and started again at 06:32:35. A slave that had hung
  // for 150 s handled the killed process's queued heartbeat as it resumed at 06:32:07, on a channel
  // already closed (`L:... ! R:...`); no broker logged the new process's connection.
  it('gen-20261220: a late heartbeat on a closed channel is no return; the instance is back when its own log resumes', async () => {
    const dir = join(ROOT, 'samples', 'generated', 'gen-20261220');
    const incs = await incidentsAt(dir);
    const kill = (JSON.parse(readFileSync(join(dir, 'lab.json'), 'utf8')).faults as LabFault[]).find((f) => f.kind === 'consumer-kill')!;
    const [gone] = consumerCauses(incs).filter((c) => c.host === 'app-billing-03');
    expect(gone.kind).toBe('consumer-gone');
    expect(Math.abs(gone.start - Date.parse(kill.start))).toBeLessThanOrEqual(10_000);
    expect(Math.abs(gone.end! - Date.parse(kill.end!))).toBeLessThanOrEqual(10_000);
    expect(gone.detail).toMatch(/its own log resumed after 1 min 3 s \(a new process\)/);
  });

  // gen-20261227: a slave's restart closed app-billing-01's channel to it a second before the instance's
  // own shutdown unregistered it from the masters: a stop, not an instance gone.
  it('gen-20261227: a channel closed beside the instance\'s unregistering from the other brokers is its shutdown', async () => {
    const dir = join(ROOT, 'samples', 'generated', 'gen-20261227');
    const incs = await incidentsAt(dir);
    const stop = (JSON.parse(readFileSync(join(dir, 'lab.json'), 'utf8')).faults as LabFault[]).find((f) => f.kind === 'consumer-stop')!;
    const mine = consumerCauses(incs).filter((c) => c.host === 'app-billing-01');
    expect(mine.map((c) => c.kind)).toEqual(['consumer-stopped']);
    expect(Math.abs(mine[0].start - Date.parse(stop.start))).toBeLessThanOrEqual(10_000);
  });

  it.each(['consumer-slow-listener', 'consumer-failures-dlq', 'consumer-lite-pull-stop', 'consumer-offset-reset', 'consumer-rebalance-kill', 'consumer-subscription-mismatch', 'consumer-grpc-simple-failures'])(
    '%s: every lab fault named on its host, of its kind, from within 10 s, with its group and evidence',
    async (name) => {
      const causes = consumerCauses(await incidentsOf(name));
      const faults = faultsOf(name);
      expect(causes).toHaveLength(faults.length);
      for (const f of faults) {
        const hosts = f.kind === 'reset-offset' ? groupHosts(name) : [f.host, ...(f.consumers ?? [])];
        const c = causes.find((x) => NAMES[x.kind].includes(f.kind) && hosts.includes(x.host));
        expect(c, `${f.kind} on ${f.host}`).toBeDefined();
        expect(Math.abs(c!.start - Date.parse(f.start))).toBeLessThanOrEqual(10_000);
        if (c!.end !== null && f.end !== null) expect(Math.abs(c!.end - Date.parse(f.end))).toBeLessThanOrEqual(10_000);
        expect(c!.group).toBe('CID_STOCK');
        expect(c!.evidence.length).toBeGreaterThan(0);
        for (const ev of c!.evidence) expect(ev).toMatch(/\.log(\.gz)?:\d+$/);
      }
    },
  );

  it('consumer-subscription-mismatch: the joining instance named with its other subscription', async () => {
    const joined = consumerCauses(await incidentsOf('consumer-subscription-mismatch')).find((c) => c.kind === 'consumer-joined');
    expect(joined?.detail).toContain('with subscription TagA');
    expect(joined?.detail).toContain('TagA || TagB');
  });

  it.each(['consumer-orderly-broker-crash', 'consumer-broker-hang', 'consumer-namesrv-hang', 'consumer-too-few-threads', 'crash', 'hang-5x', 'namesrv-hang'])(
    '%s: no consumer cause where the lab injected no consumer fault',
    async (name) => {
      expect(consumerCauses(await incidentsOf(name))).toEqual([]);
    },
  );

  it('consumer-orderly-broker-crash: the group\'s backlog is a step of broker-a\'s crash, not a cause of its own', async () => {
    const [inc] = await incidentsOf('consumer-orderly-broker-crash');
    expect(inc.causes.map((c) => c.kind)).toEqual(['crash']);
    const step = inc.chain.find((s) => s.text.startsWith('CID_STOCK fell behind'));
    expect(step?.text).toMatch(/stayed unlocked until \d+ s after the broker was back/);
    expect(step?.finding).not.toBeNull();
  });
});

// A group that fails now and then for a month, then in a burst: the burst is named, and what the
// pass holds does not grow with the month (a row per failure was kept, up to 100,000 per group).
describe('consume failures over weeks', () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const T0 = Date.UTC(2024, 11, 1);
  const failed = (ts: number, line: number): RmqEvent => ({
    ts, host: 'app-01', kind: 'client', file: 'app-01/rocketmq_client.log', line, level: 'WARN', thread: null, logger: null, type: 'consume-failed',
    fields: { group: 'CID', returnType: 'EXCEPTION' }, text: '', source: 0, seq: line,
  });
  /** A failure every 20 s for `days` (no burst: 0.05 a second), then 40 in 20 s. */
  function* failing(days: number): Generator<RmqEvent> {
    const n = days * 4320;
    for (let i = 0; i < n; i++) yield failed(T0 + i * 20_000, i + 1);
    for (let i = 0; i < 40; i++) yield failed(T0 + n * 20_000 + 60_000 + i * 500, n + i + 1);
  }
  const run = (days: number) => {
    gc();
    const before = process.memoryUsage().heapUsed;
    const c = consumerCausesOf();
    for (const e of failing(days)) c.visit(e);
    gc();
    const held = process.memoryUsage().heapUsed - before;
    return { held, causes: c.finish([]) };
  };

  it('names the burst at the end of a month, and holds about the same as after a week', () => {
    run(7);
    const week = run(7);
    const month = run(28);
    expect(month.causes).toHaveLength(1);
    const end = T0 + 28 * 4320 * 20_000 + 60_000;
    expect(month.causes[0]).toMatchObject({ kind: 'consume-failures', group: 'CID', host: 'app-01', start: end, end: end + 39 * 500 });
    expect(month.causes[0].recognisedBy).toContain('failed 40 deliveries');
    // 90,720 more failures held as rows is about 6 MB.
    expect(month.held - week.held).toBeLessThan(1_000_000);
  }, 120000);
});
