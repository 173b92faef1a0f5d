// The consumers' impact analyze reads per group (src/diagnosis/consumers.ts) on the lab's consumer
// recordings (samples/lab/consumer-*, real RocketMQ 4.9.4), against their lab.json: every figure
// within the tolerance of the truth the lab counted, a lower bound never above it, the lag an estimate near the admin tool's, and unknown where
// the logs cannot tell. Then the parts of the reading on hand-made events in the recordings' formats.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { consumerCollector } from '../../src/diagnosis/consumers.js';
import { diagnose } from '../../src/diagnosis/diagnose.js';
import type { RmqEvent } from '../../src/parse/types.js';
import type { ConsumerImpact } from '../../src/rules/incident.js';
import { ALL_RULES } from '../../src/rules/index.js';
import { buildTimeline } from '../../src/timeline/build.js';

const ROOT = join(__dirname, '..', '..');
const LAB = join(ROOT, 'samples', 'lab');
const truthOf = (name: string) => JSON.parse(readFileSync(join(LAB, name, 'lab.json'), 'utf8')).consumerGroups[0];
/** Within 10 % of the truth or 2 messages (docs/lab.md, "Scoring"). */
const within = (stated: number, truth: number) => expect(Math.abs(stated - truth)).toBeLessThanOrEqual(Math.max(2, 0.1 * truth));
/** The lab's largest lag sampled within 15 s of a time. */
const lagNear = (g: any, at: number) => Math.max(...g.lag.filter((x: any) => Math.abs(Date.parse(x.at) - at) <= 15000).map((x: any) => x.total));

async function consumersAt(dir: string): Promise<ConsumerImpact[]> {
  const t = await buildTimeline({ inputs: [dir], keepOther: 'inference', cwd: ROOT, workers: 0 });
  try {
    return diagnose(t, { rules: ALL_RULES }).consumers;
  } finally {
    t.close();
  }
}
const consumersOf = (name: string): Promise<ConsumerImpact[]> => consumersAt(join(LAB, name));

describe('the consumers\' impact on the lab\'s consumer recordings', () => {
  it("gen-20261211: an orderly group's exception and its `return not OK` are one failure, and its in-place retries are not %RETRY%'s", async () => {
    const dir = join(ROOT, 'samples', 'generated', 'gen-20261211');
    const [c] = await consumersAt(dir);
    const g = JSON.parse(readFileSync(join(dir, 'lab.json'), 'utf8')).consumerGroups[0];
    // 54 exceptions among 118 `return not OK` lines: the lab counted 118 failed deliveries.
    within(c.failed!, g.failed);
    expect(c.redelivered).toBeNull();
    expect(c.unknown.join(' ')).toMatch(/orderly group retries in place/);
    // The reset moved the offsets back by 34 (broker-b 10, broker-a 12, broker-c 12) as the listener
    // began failing 70 % of its calls: 34 delivered again, 22 of them consumed OK twice (the lab).
    expect(c.consumedAgain).toBe(34);
    expect(g.duplicates).toBeLessThan(34);
    expect(c.unknown.join(' ')).toMatch(/consumed twice: \d+ deliveries failed in the minutes after the offset reset; how many of the 34 delivered again were consumed OK a second time is not in the logs/);
  });

  it('gen-20261220: failures up to 57 s before the last stats minute leave their retries uncounted: the redelivered figure is a lower bound', async () => {
    const dir = join(ROOT, 'samples', 'generated', 'gen-20261220');
    const [c] = await consumersAt(dir);
    const g = JSON.parse(readFileSync(join(dir, 'lab.json'), 'utf8')).consumerGroups[0];
    expect(c.redeliveredAtLeast).toBe(true);
    // 117 retry puts counted, 168 deliveries beyond the first by the end.
    expect(c.redelivered!).toBeLessThan(g.deliveries - g.received);
  });

  it('consumer-failures-dlq: failed, redelivered and the DLQ from the broker stats; duplicates unknown', async () => {
    const [c] = await consumersOf('consumer-failures-dlq');
    const g = truthOf('consumer-failures-dlq');
    expect(c.group).toBe('CID_STOCK');
    expect(c.hosts).toEqual(['app-stock-01', 'app-stock-02']);
    within(c.failed!, g.failed);
    within(c.redelivered!, g.deliveries - g.received);
    within(c.dlq!, g.dlq.byAdminTool);
    expect(c.dlqHow).toMatch(/^at least: SNDBCK_PUT_NUMS minus/);
    expect(c.consumedAgain).toBeNull();
    expect(c.unknown.join('\n')).toMatch(/consumed twice: no offset reset/);
  });

  it('consumer-grpc-failures-dlq: a pop group\'s failed deliveries, redeliveries and DLQ from its retry topic\'s stats; its lag unknown', async () => {
    const [c] = await consumersOf('consumer-grpc-failures-dlq');
    const g = truthOf('consumer-grpc-failures-dlq');
    expect(c.group).toBe('CID_STOCK');
    expect(c.hosts).toEqual(['app-stock-01', 'app-stock-02']);
    within(c.failed!, g.failed);
    expect(c.failedHow).toMatch(/^TOPIC_PUT_NUMS \[%RETRY%CID_STOCK_TopicOrder\]/);
    within(c.redelivered!, g.deliveries - g.received);
    expect(c.retryTopic).toBe('%RETRY%CID_STOCK_TopicOrder');
    expect(c.dlq).toBe(g.dlq.byAdminTool);
    expect(c.lag).toBeNull();
    expect(c.unknown.join('\n')).toMatch(/lag: a pop consumer commits no offsets/);
  });

  it('consumer-grpc-simple-failures: SimpleConsumers, which name their group on no line of their own: placed by the broker\'s connections of their client ids; failures and DLQ from the retry topic\'s stats', async () => {
    const [c, ...more] = await consumersOf('consumer-grpc-simple-failures');
    const g = truthOf('consumer-grpc-simple-failures');
    expect(more).toEqual([]);
    expect(c.group).toBe('CID_STOCK');
    expect(c.hosts).toEqual(['app-stock-01', 'app-stock-02']);
    expect(c.failed).toBe(g.failed);
    expect(c.failedHow).toMatch(/^TOPIC_PUT_NUMS \[%RETRY%CID_STOCK_TopicOrder\]/);
    expect(c.dlq).toBe(g.dlq.byAdminTool);
    expect(c.lag).toBeNull();
  });

  it('consumer-offset-reset: the messages consumed again are the offsets the reset moved back', async () => {
    const [c] = await consumersOf('consumer-offset-reset');
    within(c.consumedAgain!, truthOf('consumer-offset-reset').duplicates);
    expect(c.failed).toBeNull();
    expect(c.dlq).toBeNull();
  });

  it('consumer-slow-listener: the largest lag, a lower bound near the admin tool\'s, when it was above 0, and flow control', async () => {
    const [c] = await consumersOf('consumer-slow-listener');
    const g = truthOf('consumer-slow-listener');
    const lab = lagNear(g, c.lag!.at);
    expect(Math.abs(c.lag!.about - lab)).toBeLessThanOrEqual(Math.max(10, 0.25 * lab));
    expect(c.lag!.about).toBeGreaterThanOrEqual(0.9 * g.maxLag.total);
    expect(c.lag!.from).not.toBeNull();
    expect(c.lag!.until! - c.lag!.from!).toBe(60000);
    expect(c.cachedAtLeast!.count).toBeLessThanOrEqual(lagNear(g, c.cachedAtLeast!.at));
    expect(c.failed).toBeNull();
  });

  it('the other recordings: no lag above the admin tool\'s, failures of the orderly consumer from its log, duplicates unknown without a reset', async () => {
    for (const name of ['consumer-rebalance-kill', 'consumer-subscription-mismatch', 'consumer-orderly-broker-crash', 'consumer-lite-pull-stop']) {
      const [c] = await consumersOf(name);
      const g = truthOf(name);
      if (name === 'consumer-orderly-broker-crash') {
        // broker-a crashed: its stats miss minutes, so the puts cannot be summed and the lag is unknown.
        expect(c.lag).toBeNull();
        expect(c.unknown.join('\n')).toMatch(/lag: a broker's stats miss minutes of TopicOrder/);
        within(c.failed!, g.failed);
        continue;
      }
      // An estimate (docs/lab.md "Scoring"): within 25 % or 10 messages of the admin tool's lag then.
      expect(c.lag!.about, name).toBeLessThanOrEqual(lagNear(g, c.lag!.at) + Math.max(10, 0.25 * lagNear(g, c.lag!.at)));
      expect(c.consumedAgain, name).toBeNull();
    }
  });
});

describe('the consumers\' impact: the reading', () => {
  let seq = 0;
  const ev = (type: RmqEvent['type'], time: string, fields: Record<string, unknown>, host = 'app-1', kind: RmqEvent['kind'] = 'client'): RmqEvent =>
    ({ ts: Date.parse(`2026-12-01T${time}+08:00`), host, kind, file: 'f', line: ++seq, level: 'INFO', thread: null, logger: null, type, fields, text: '', source: 0, seq }) as RmqEvent;
  const stat = (time: string, stat: string, key: string, sum: number) => ev('stats', time, { stat, key, window: 'minute', sum, tps: 0, avgpt: 0 }, 'broker', 'stats');
  const commit = (time: string, queueId: number, offset: number) => ev('offset-commit', time, { ok: true, group: 'G', topic: 'T', brokerName: 'b', queueId, offset });
  const read = (events: RmqEvent[]) => {
    const c = consumerCollector();
    events.forEach((e) => c.visit(e));
    return c.finish();
  };

  it('the lag is the puts so far minus the commits, raised so that its lowest minute end is 0', () => {
    const [c] = read([
      commit('10:00:59.000', 0, 100), commit('10:00:59.000', 1, 100), stat('10:01:00.000', 'TOPIC_PUT_NUMS', 'T', 10),
      commit('10:01:59.000', 0, 105), commit('10:01:59.000', 1, 105), stat('10:02:00.000', 'TOPIC_PUT_NUMS', 'T', 60),
      commit('10:02:59.000', 0, 160), commit('10:02:59.000', 1, 160), stat('10:03:00.000', 'TOPIC_PUT_NUMS', 'T', 30),
    ]);
    // rel: 10-200, 70-210, 100-320 -> -190, -140, -220: lowest -220, so at least 80 at 10:02.
    expect(c.lag).toMatchObject({ about: 80, at: Date.parse('2026-12-01T10:02:00+08:00'), minutes: 3 });
  });

  it('the lag reads the minute ends of the most queues: queue 0 of two brokers, then a second queue of one of them', () => {
    const on = (time: string, brokerName: string, queueId: number, offset: number) => ev('offset-commit', time, { ok: true, group: 'G', topic: 'T', brokerName, queueId, offset });
    const events: RmqEvent[] = [];
    // Puts of each minute; the second queue (broker a's queue 1) is committed from the fourth minute on.
    const putsOf = [200, 200, 200, 250, 300, 250];
    const secondQueue = [0, 0, 0, 50, 70, 200];
    for (let m = 1; m <= 6; m++) {
      events.push(on(`10:0${m - 1}:59.000`, 'a', 0, 100 * m), on(`10:0${m - 1}:59.000`, 'b', 0, 100 * m));
      if (m >= 4) events.push(on(`10:0${m - 1}:59.000`, 'a', 1, secondQueue[m - 1]));
      events.push(stat(`10:0${m}:00.000`, 'TOPIC_PUT_NUMS', 'T', putsOf[m - 1]));
    }
    // Three queues at minutes 4-6: puts so far minus commits 850-850, 1150-1070, 1400-1400.
    expect(read(events)[0].lag).toMatchObject({ about: 80, at: Date.parse('2026-12-01T10:05:00+08:00'), minutes: 3 });
  });

  it('a pop retry topic (%RETRY%group_topic) named by the group stats is that group\'s: its puts are failures, its sends back DLQ moves', () => {
    const fail = ev('consume-failed', '10:00:30.000', { returnType: 'EXCEPTION', group: 'G', msgIds: ['m'] });
    const [c] = read([
      fail,
      stat('10:01:00.000', 'TOPIC_PUT_NUMS', '%RETRY%G_T', 30),
      stat('10:01:00.000', 'GROUP_GET_NUMS', '%RETRY%G_T@G', 30),
      stat('10:02:00.000', 'TOPIC_PUT_NUMS', '%RETRY%G_T', 10),
      stat('10:02:00.000', 'SNDBCK_PUT_NUMS', '%RETRY%G_T@G', 4),
    ]);
    expect(c).toMatchObject({ group: 'G', failed: 40, redelivered: 36, dlq: 4, retryTopic: '%RETRY%G_T' });
    // No group G_T made of the retry topic's name.
    expect(read([stat('10:01:00.000', 'GROUP_GET_NUMS', '%RETRY%G_T@G', 3), stat('10:01:00.000', 'TOPIC_PUT_NUMS', '%RETRY%G_T', 3), fail]).map((x) => x.group)).toEqual(['G']);
  });

  it('no lag from a single minute end, nor DLQ without SCHEDULE_TOPIC_XXXX puts beside the sends back', () => {
    const [c] = read([commit('10:00:59.000', 0, 1), stat('10:01:00.000', 'TOPIC_PUT_NUMS', 'T', 10), stat('10:01:00.000', 'SNDBCK_PUT_NUMS', 'T@G', 5)]);
    expect(c.lag).toBeNull();
    expect(c.failed).toBe(5);
    expect(c.dlq).toBeNull();
    expect(c.unknown.join('\n')).toMatch(/DLQ: no SCHEDULE_TOPIC_XXXX puts/);
  });

  it('a month of minute ends on four topics: the lag of the whole curve, with no list of its points kept', () => {
    // 4 topics x 43,200 minutes: more points than a spread of one array takes (about 120,000).
    const c = consumerCollector();
    const t0 = Date.parse('2026-11-01T00:00:00+08:00');
    const topics = ['T0', 'T1', 'T2', 'T3'];
    const committed = [0, 0, 0, 0];
    const minutes = 30 * 1440;
    // The lag is 0 but for minutes 20,000-20,009 of T2, when it climbs to 90 (10 a minute) and is
    // then consumed at once.
    for (let m = 1; m <= minutes; m++) {
      const at = t0 + m * 60000;
      topics.forEach((topic, i) => {
        const behind = i === 2 && m >= 20000 && m < 20010 ? (m - 19999) * 10 : 0;
        committed[i] = m * 100 - behind;
        c.visit(ev('offset-commit', '00:00:00.000', { ok: true, group: 'G', topic, brokerName: 'b', queueId: 0, offset: committed[i] }, 'app-1'));
      });
      for (const topic of topics) {
        const e = stat('00:00:00.000', 'TOPIC_PUT_NUMS', topic, 100);
        c.visit({ ...e, ts: at });
      }
    }
    const [g] = c.finish();
    expect(g.lag).toMatchObject({ about: 100, at: t0 + 20009 * 60000, from: t0 + 20000 * 60000, until: t0 + 20009 * 60000 });
  });

  it('a broker that missed one minute weeks before the end leaves the puts unsummed (lag unknown)', () => {
    const c = consumerCollector();
    const t0 = Date.parse('2026-11-01T00:00:00+08:00');
    for (let m = 1; m <= 20000; m++) {
      c.visit({ ...commit('00:00:00.000', 0, m * 20), ts: t0 + m * 60000 - 1000 });
      for (const host of ['broker-a', 'broker-b']) {
        if (host === 'broker-b' && m === 100) continue;
        c.visit({ ...stat('00:00:00.000', 'TOPIC_PUT_NUMS', 'T', 10), host, ts: t0 + m * 60000 });
      }
    }
    const [g] = c.finish();
    expect(g.lag).toBeNull();
    expect(g.unknown.join('\n')).toMatch(/lag: a broker's stats miss minutes of T/);
  });

  it('an offset moved back long after a reset is not counted; an illegal offset moved forward is skipped', () => {
    const [c] = read([
      ev('offset-reset', '10:00:00.000', { why: 'reset', group: 'G', topic: 'T' }),
      commit('10:00:01.000', 0, 50), commit('10:00:02.000', 0, 40), commit('10:05:00.000', 0, 30),
      ev('offset-illegal', '10:06:00.000', { status: 'OFFSET_ILLEGAL', group: 'G', topic: 'T', brokerName: 'b', queueId: 0, offset: 30, nextBeginOffset: 130 }),
    ]);
    expect(c.consumedAgain).toBe(10);
    expect(c.skipped).toBe(100);
  });
});
