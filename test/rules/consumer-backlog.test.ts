// consumer-backlog on the lab's consumer recordings (samples/lab/consumer-*, their truth in lab.json)
// and on lines built from the 4.9.4 client's formats: a backlog is claimed only where the client's
// cache filled, orderly queues stayed unlocked or the group consumed less than the brokers stored,
// and its cause only where the lines show it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { RmqEvent } from '../../src/parse/types.js';
import rule from '../../src/rules/consumer-backlog.js';
import { RuleRunner } from '../../src/rules/engine.js';
import { ruleTester } from './rule-tester.js';
import { generatedFindings, generatedTruth, labFindings, labTruth } from './lab-findings.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const CRLF = '\r\n';
const client = (lines: string[]) => lines.join(CRLF) + CRLF;
const rec = (time: string, level: string, msg: string) => `2024-12-05 ${time} ${level} RocketmqClient - ${msg}`;
const rt = (time: string, times: number, avg: string) => rec(time, 'INFO', `[CONSUME_RT] [TopicPay@GroupPay] Stats In One Minute, TIMES: ${times} AVGRT: ${avg}`);
const ok = (time: string, sum: number) => rec(time, 'INFO', `[CONSUME_OK_TPS] [TopicPay@GroupPay] Stats In One Minute, SUM: ${sum} TPS: ${(sum / 60).toFixed(2)} AVGPT: 1.00`);
const flow = (time: string, count: number) =>
  rec(time, 'WARN', `the cached message count exceeds the threshold 1000, so do flow control, minOffset=100, maxOffset=${100 + count}, count=${count}, size=0 MiB, pullRequest=PullRequest [consumerGroup=GroupPay, messageQueue=MessageQueue [topic=TopicPay, brokerName=broker-a, queueId=0], nextOffset=${101 + count}], flowControlTimes=1`);

/** A line of minute `min` after 2024-12-05 09:00 (whole days and more). */
const atMinute = (min: number, msg: string, sec = '00,001', level = 'INFO') => {
  const d = new Date(Date.UTC(2024, 11, 5, 9, 0) + min * 60000).toISOString();
  return `${d.slice(0, 10)} ${d.slice(11, 17)}${sec} ${level} RocketmqClient - ${msg}`;
};
/** Minutes `from` to `to` consuming 1200 messages at 20 ms each. */
const steady = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => [
    atMinute(from + i, '[CONSUME_RT] [TopicPay@GroupPay] Stats In One Minute, TIMES: 1200 AVGRT: 20.00'),
    atMinute(from + i, '[CONSUME_OK_TPS] [TopicPay@GroupPay] Stats In One Minute, SUM: 1200 TPS: 20.00 AVGPT: 1.00', '00,002'),
  ]).flat();

/**
 * A 4.9.3 lite pull consumer's client log (gen-20261209's lines): [persistAll] every 5 s from 03:22:35
 * for 40 rounds, its one queue's offset moving `perRound(i)` a round, and its `The cached message
 * count ...` flow control (no group printed, no CONSUME_RT ever).
 */
const litePull = (perRound: (i: number) => number) => {
  const lines: string[] = [];
  let off = 0;
  for (let i = 0; i < 40; i++) {
    const t = new Date(Date.UTC(2026, 11, 8, 3, 22, 35) + i * 5000).toISOString();
    off += perRound(i);
    lines.push(`${t.slice(0, 10)} ${t.slice(11, 19)},134 INFO RocketmqClient - [persistAll] Group: CID_BILLING ClientId: 10.213.0.41@32731#20227931105726 updateConsumeOffsetToBroker MessageQueue [topic=TopicOrder, brokerName=broker-a, queueId=0] ${off}`);
    if (i === 24 || i === 29) lines.push(`${t.slice(0, 10)} ${t.slice(11, 19)},500 WARN RocketmqClient - The cached message count exceeds the threshold 20, so do flow control, minOffset=${off}, maxOffset=${off + 20}, count=21, size=0 MiB, flowControlTimes=${i === 24 ? 1 : 1001}`);
  }
  return { 'app-billing-01/logs/rocketmqlogs/rocketmq_client.log': lines.join('\n') + '\n' };
};

ruleTester(rule, {
  valid: [
    {
      name: 'the listener took longer but the cache never filled: no backlog claimed',
      files: { 'app-pay-01/logs/rocketmq_client.log': client([rt('17:00:00,001', 100, '20.00'), ok('17:00:00,002', 100), rt('17:01:00,001', 100, '900.00'), ok('17:01:00,002', 100)]) },
    },
    {
      name: 'an instance that consumed nothing in a minute with no message waiting (no flow control, no backlog): no blocked listener claimed',
      files: { 'app-pay-01/logs/rocketmq_client.log': client([rt('17:00:00,001', 100, '20.00'), ok('17:00:00,002', 100), rt('17:01:00,001', 0, '0.00'), ok('17:01:00,002', 0)]) },
    },
  ],
  invalid: [
    {
      // gen-20261209: the application slowed to 1.5 s a message from round 20: its cache filled.
      name: "a lite pull consumer (no CONSUME_RT) whose commits fell below half their rate while its cache was full: a slower application, named on its host's group",
      files: litePull((i) => (i >= 20 && i < 36 ? 1 : 15)),
      findings: [
        {
          severity: 'warning',
          metrics: { cause: 'slow-listener', slowHosts: ['app-billing-01'], rtDuringMs: null },
          mentions: ['Group CID_BILLING', 'a slower consumer application on app-billing-01', '1 messages a round', 'against 15 before', 'no CONSUME_RT'],
          adviceOmits: ['consumeThreadMin'],
        },
      ],
    },
    {
      // The same full cache with its commits at their rate: more arrivals, not a slower application.
      name: 'a lite pull consumer whose cache filled while its commits kept their rate: cause unknown, no slow application claimed',
      files: litePull(() => 15),
      findings: [{ metrics: { cause: 'unknown' } }],
    },
    {
      name: 'a blocked minute more than a day before the end: its line is kept to cite (a minute that can name a cause), though older minutes\' lines are let go',
      files: {
        'app-pay-01/logs/rocketmq_client.log': client([
          ...steady(0, 0),
          atMinute(0, flow('', 1001).replace(/^.* RocketmqClient - /, ''), '40,000', 'WARN'),
          atMinute(1, '[CONSUME_RT] [TopicPay@GroupPay] Stats In One Minute, TIMES: 0 AVGRT: 0.00'),
          atMinute(1, '[CONSUME_OK_TPS] [TopicPay@GroupPay] Stats In One Minute, SUM: 0 TPS: 0.00 AVGPT: 0.00', '00,002'),
          atMinute(1, flow('', 1001).replace(/^.* RocketmqClient - /, ''), '30,000', 'WARN'),
          atMinute(2, '[CONSUME_RT] [TopicPay@GroupPay] Stats In One Minute, TIMES: 900 AVGRT: 5000.00'),
          atMinute(2, '[CONSUME_OK_TPS] [TopicPay@GroupPay] Stats In One Minute, SUM: 900 TPS: 15.00 AVGPT: 1.00', '00,002'),
          ...steady(3, 2000),
        ]),
      },
      findings: [{ metrics: { cause: 'blocked-listener', blockedHosts: ['app-pay-01'] }, mentions: ['Cause: a blocked listener. app-pay-01 consumed nothing in the minute to 09:01:00'] }],
    },
    {
      name: 'a minute with TIMES: 0 while the cache was full: a blocked listener, no threads figure from the minute after (its average holds the blocked calls\' waits)',
      files: {
        'app-pay-01/logs/rocketmq_client.log': client([
          rt('17:00:00,001', 1200, '20.00'),
          ok('17:00:00,002', 1200),
          flow('17:00:40,000', 1001),
          rt('17:01:00,001', 0, '0.00'),
          ok('17:01:00,002', 0),
          flow('17:01:30,000', 1001),
          rt('17:02:00,001', 900, '5000.00'),
          ok('17:02:00,002', 900),
        ]),
      },
      findings: [
        {
          metrics: { cause: 'blocked-listener', blockedHosts: ['app-pay-01'], rtAfterMs: 5000 },
          mentions: ['Cause: a blocked listener. app-pay-01 consumed nothing in the minute to 17:01:00', 'while its cache was full (flow control)', 'no time per message', 'jstack', 'The first minute that consumed again (to 17:02:00'],
          explanationOmits: ['consume threads were busy', 'slow listener'],
          adviceOmits: ['more consume threads (consumeThreadMin'],
        },
      ],
    },
    {
      name: 'the same in the older wording (StatsItem: SUM, TPS, AVGPT, no TIMES): the finding quotes what the lines printed',
      files: {
        'app-pay-01/logs/rocketmq_client.log': client([
          rec('17:00:00,001', 'INFO', '[CONSUME_RT] [TopicPay@GroupPay] Stats In One Minute, SUM: 24000 TPS: 20.00 AVGPT: 20.00'),
          ok('17:00:00,002', 1200),
          flow('17:00:40,000', 1001),
          rec('17:01:00,001', 'INFO', '[CONSUME_RT] [TopicPay@GroupPay] Stats In One Minute, SUM: 0 TPS: 0.00 AVGPT: 0.00'),
          ok('17:01:00,002', 0),
          flow('17:01:30,000', 1001),
        ]),
      },
      findings: [{ metrics: { cause: 'blocked-listener' }, mentions: ['(CONSUME_RT AVGPT: 0, CONSUME_OK_TPS SUM: 0)'], explanationOmits: ['TIMES: 0', 'first minute that consumed again'] }],
    },
    {
      name: 'real lite pull consumer (apache/rocketmq#7969): its batches not taken by poll(), no group and no stats printed: cause unknown',
      files: { 'app/app.log': readFileSync(join(__dirname, '..', 'fixtures', 'real', '149-litepull-consume-request-flow-control-pid-layout.log'), 'utf8') },
      findings: [{ metrics: { cause: 'unknown' }, evidence: ['app/app.log:1'], mentions: ['group not printed, app', 'Cause unknown', 'one warning logged'], adviceOmits: ['consumeThreadMin'], explanationOmits: ['messages on one queue', 'for 0 ms'] }],
    },
    {
      name: 'flow control with CONSUME_RT unchanged: the consume threads, with the pool size assumed',
      files: {
        'app-pay-01/logs/rocketmq_client.log': client([rt('17:00:00,001', 1200, '50.00'), ok('17:00:00,002', 1200), flow('17:00:30,000', 1001), rt('17:01:00,001', 1200, '50.00'), ok('17:01:00,002', 1200)]),
      },
      findings: [{ metrics: { cause: 'consume-threads', busyThreads: 1, rtDuringMs: 50 }, mentions: ['consumeThreadMin, 20 by default', 'is not printed'] }],
    },
    {
      name: 'flow control and no CONSUME_RT line: the cause is said unknown, no threads advice',
      files: { 'app-pay-01/logs/rocketmq_client.log': client([flow('17:00:30,000', 1001)]) },
      findings: [{ metrics: { cause: 'unknown' }, mentions: ['Cause unknown', 'no CONSUME_RT line was read'], adviceOmits: ['consumeThreadMin', 'consumeThreadMax'] }],
    },
  ],
});

describe('consumer-backlog on the lab recordings', () => {
  it('consumer-slow-listener: a slow listener, its window within 10 s of the lab\'s slowdown', async () => {
    const f = (await labFindings('consumer-slow-listener', [rule])).filter((x) => x.rule === 'consumer-backlog');
    expect(f).toHaveLength(1);
    expect(f[0].metrics.cause).toBe('slow-listener');
    expect(f[0].metrics.rtBeforeMs).toBeLessThan(100);
    expect(f[0].metrics.rtDuringMs).toBeGreaterThan(1400);
    const fault = labTruth('consumer-slow-listener').faults[0];
    expect(Math.abs(Number(f[0].metrics.slowFrom) - Date.parse(fault.start))).toBeLessThanOrEqual(10_000);
    expect(Math.abs(Number(f[0].metrics.slowUntil) - Date.parse(fault.end!))).toBeLessThanOrEqual(10_000);
    // Two threads per instance in the lab (consumeThreadMin 2): the estimate says so.
    expect(f[0].metrics.busyThreads).toBeCloseTo(2, 0);
  });

  it('consumer-orderly-broker-crash: queues not locked while broker-a was down and after, tied to its address', async () => {
    const f = (await labFindings('consumer-orderly-broker-crash', [rule])).filter((x) => x.rule === 'consumer-backlog');
    expect(f).toHaveLength(1);
    expect(f[0].metrics.cause).toBe('broker-fault');
    const truth = labTruth('consumer-orderly-broker-crash');
    const a = truth.servers.brokers.find((b) => b.brokerName === 'broker-a')!;
    expect(f[0].metrics.brokerAddr).toBe(a.addr);
    // Not locked until about 50 s after broker-a was back (lab.json's crash end).
    const back = Date.parse(truth.faults[0].end!);
    expect(f[0].end! - back).toBeGreaterThan(30_000);
    expect(f[0].end! - back).toBeLessThan(70_000);
  });

  it('consumer-too-few-threads: the consume threads, about one busy per instance, no slow listener', async () => {
    const f = (await labFindings('consumer-too-few-threads', [rule])).filter((x) => x.rule === 'consumer-backlog');
    const stock = f.filter((x) => x.title.includes('CID_STOCK'));
    expect(stock).toHaveLength(1);
    expect(stock[0].metrics.cause).toBe('consume-threads');
    expect(stock[0].metrics.busyThreads).toBeCloseTo(1, 0);
    // The broadcasting group keeps up: no backlog claimed for it.
    expect(f.filter((x) => x.title.includes('CID_AUDIT'))).toHaveLength(0);
  });

  it('consumer-subscription-mismatch: the messages of the other tag left behind, the cause the differing subscriptions', async () => {
    const f = (await labFindings('consumer-subscription-mismatch', [rule])).filter((x) => x.rule === 'consumer-backlog');
    expect(f).toHaveLength(1);
    expect(f[0].metrics.cause).toBe('subscription');
    expect(f[0].metrics.subscriptions).toEqual(expect.arrayContaining(['TagA', 'TagA || TagB']));
  });

  it('consumer-listener-block: a blocked listener on the one instance the lab blocked, its window within 10 s of the block', async () => {
    const f = (await labFindings('consumer-listener-block', [rule])).filter((x) => x.rule === 'consumer-backlog');
    expect(f).toHaveLength(1);
    expect(f[0].metrics.cause).toBe('blocked-listener');
    const fault = labTruth('consumer-listener-block').faults[0];
    expect(f[0].metrics.blockedHosts).toEqual([fault.host]);
    expect(Math.abs(Number(f[0].metrics.blockedFrom) - Date.parse(fault.start))).toBeLessThanOrEqual(10_000);
    expect(Math.abs(Number(f[0].metrics.blockedUntil) - Date.parse(fault.end!))).toBeLessThanOrEqual(10_000);
    // The lab ran 4 consume threads: no busy-threads figure from the minute whose average holds 2 min waits.
    expect(f[0].metrics.busyThreads).toBeUndefined();
  });

  it.each([
    ['consumer-slow-listener', 'slow-listener'],
    ['consumer-too-few-threads', 'consume-threads'],
  ])('%s: its own cause (%s), no blocked listener: the listener slowed or the threads were few, every minute consumed', async (name, cause) => {
    const f = (await labFindings(name, [rule])).filter((x) => x.rule === 'consumer-backlog');
    expect(f.map((x) => x.metrics.cause)).toContain(cause);
    expect(f.filter((x) => x.metrics.cause === 'blocked-listener')).toEqual([]);
  });

  it.each(['consumer-failures-dlq', 'consumer-offset-reset', 'consumer-rebalance-kill', 'consumer-subscription-mismatch', 'consumer-namesrv-hang', 'consumer-broker-hang', 'consumer-orderly-broker-crash', 'consumer-5x-restart', 'consumer-lite-pull-stop', 'crash', 'hang-5x', 'broker-busy'])(
    '%s: no slow or blocked listener or threads claimed where the lab slowed or blocked no listener (a blocked one only where it blocked)',
    async (name) => {
      const f = (await labFindings(name, [rule])).filter((x) => x.rule === 'consumer-backlog');
      expect(f.filter((x) => x.metrics.cause === 'slow-listener' || x.metrics.cause === 'consume-threads' || x.metrics.cause === 'blocked-listener')).toEqual([]);
    },
  );
});

// A month of a busy group's minutes, made as events (one host, one broker): what the rule holds must
// not grow with the weeks, and a backlog in the month's last day must still be read, its cause told.
describe('consumer-backlog over weeks of minutes', () => {
  const DAY = 1440;
  const T0 = Date.UTC(2024, 11, 1, 0, 0);
  const stat = (host: string, kind: 'client' | 'stats', min: number, stat: string, key: string, fields: Record<string, unknown>, line: number): RmqEvent => ({
    ts: T0 + min * 60000 + (kind === 'client' ? 1 : 0),
    host,
    kind,
    file: `${host}/${kind === 'client' ? 'rocketmq_client.log' : 'stats.log'}`,
    line,
    level: 'INFO',
    thread: null,
    logger: null,
    type: 'stats',
    fields: { stat, key, window: 'minute', ...fields },
    text: '',
    source: kind === 'client' ? 0 : 1,
    seq: line,
  });
  /**
   * `days` of minutes consuming all that is stored at 20 ms a message, but for the 30 minutes from
   * `lateAt` (if any): 3000 stored a minute, 1200 consumed at 200 ms.
   */
  function* month(days: number, lateAt: number | null): Generator<RmqEvent> {
    for (let min = 1; min <= days * DAY; min++) {
      const late = lateAt !== null && min >= lateAt && min < lateAt + 30;
      yield stat('mq-broker-a', 'stats', min, 'TOPIC_PUT_NUMS', 'TopicPay', { sum: late ? 3000 : 1200 }, min);
      yield stat('app-pay-01', 'client', min, 'CONSUME_RT', 'TopicPay@GroupPay', { sum: late ? 240000 : 24000, times: 1200, avgpt: late ? 200 : 20 }, 2 * min);
      yield stat('app-pay-01', 'client', min, 'CONSUME_OK_TPS', 'TopicPay@GroupPay', { sum: 1200 }, 2 * min + 1);
    }
  }
  const sources = [
    { path: 'app-pay-01/rocketmq_client.log', host: 'app-pay-01', kind: 'client', versionHints: [] },
    { path: 'mq-broker-a/stats.log', host: 'mq-broker-a', kind: 'stats', versionHints: [] },
  ];
  /** The heap the rule's state holds after `days` of minutes (the runner alive, garbage collected). */
  function held(days: number): number {
    gc();
    const before = process.memoryUsage().heapUsed;
    const runner = new RuleRunner({ rules: [rule], sources });
    for (const e of month(days, null)) runner.visit(e);
    gc();
    const after = process.memoryUsage().heapUsed;
    expect(runner.finish()).toEqual([]);
    return after - before;
  }

  it('holds about the same after four weeks of minutes as after one (a minute per host kept all along held 150 bytes each)', () => {
    held(7);
    const week = held(7);
    const fourWeeks = held(28);
    // 21 more days of a host's minutes held as they were is about 4.5 MB.
    expect(fourWeeks - week).toBeLessThan(1_500_000);
  }, 120000);

  it("reads a backlog in the month's last day: the minutes that consumed less than was stored, and the slower listener", () => {
    const lateAt = 30 * DAY - 200;
    const runner = new RuleRunner({ rules: [rule], sources });
    for (const e of month(30, lateAt)) runner.visit(e);
    const f = runner.finish();
    expect(f).toHaveLength(1);
    expect(f[0].start).toBe(T0 + (lateAt - 1) * 60000);
    expect(f[0].end).toBe(T0 + (lateAt + 29) * 60000);
    expect(f[0].metrics).toMatchObject({ cause: 'slow-listener', lagGrewBy: 30 * 1800, rtBeforeMs: 20, rtDuringMs: 200 });
  }, 120000);

  /** A pull to broker-a that timed out (its text a stack, as the client prints it), at minute `min` and `sec` seconds. */
  const pullFailed = (min: number, sec: number, line: number): RmqEvent => ({
    ts: T0 + min * 60000 + sec * 1000,
    host: 'app-pay-01',
    kind: 'client',
    file: 'app-pay-01/rocketmq_client.log',
    line,
    level: 'WARN',
    thread: null,
    logger: null,
    type: 'pull-failed',
    fields: { addr: '10.0.0.2:10911' },
    text: `execute the pull request exception ${line}\n${'\tat org.apache.rocketmq.client.impl.MQClientAPIImpl.pullMessageSync(MQClientAPIImpl.java:1000)\n'.repeat(12)}`,
    source: 0,
    seq: line,
  });
  /**
   * A month's minutes at 20 ms a message all along (late from `lateAt` for 30 minutes, if given, the
   * listener no slower), with a pull timed out every 10 minutes and the extra ones given (as [minute,
   * second]), and 30 minutes of flow control from `flowAt`, in time order.
   */
  function* withRefusals(days: number, lateAt: number | null, extra: Array<[number, number]> = [], flowAt: number | null = null): Generator<RmqEvent> {
    let line = 10_000_000;
    for (const e of month(days, lateAt)) {
      const min = Math.round((e.ts! - T0) / 60000);
      yield e.fields.stat === 'CONSUME_RT' ? { ...e, fields: { ...e.fields, sum: 24000, avgpt: 20 } } : e;
      if (e.fields.stat !== 'CONSUME_OK_TPS') continue;
      if (min % 10 === 0) yield pullFailed(min, 20, ++line);
      for (const [m, sec] of extra) if (m === min) yield pullFailed(m, sec, ++line);
      if (flowAt !== null && min >= flowAt && min < flowAt + 30) yield { ...pullFailed(min, 40, ++line), type: 'flow-control', fields: { group: 'GroupPay', limit: 'count', count: 1001 }, text: 'flow' };
    }
  }

  it('holds about the same after four weeks of refused pulls as after one (a decoded line per call was kept to the end)', () => {
    const heldWith = (days: number) => {
      gc();
      const before = process.memoryUsage().heapUsed;
      const runner = new RuleRunner({ rules: [rule], sources });
      for (const e of withRefusals(days, null)) runner.visit(e);
      gc();
      const after = process.memoryUsage().heapUsed;
      expect(runner.finish()).toEqual([]);
      return after - before;
    };
    heldWith(7);
    const week = heldWith(7);
    const fourWeeks = heldWith(28);
    // 21 more days of a call every 10 minutes, each with its line, is about 4 MB.
    expect(fourWeeks - week).toBeLessThan(1_500_000);
  }, 120000);

  it.each([
    ['its late minutes (known 10 min after them)', 'late'],
    ['its flow control', 'flow'],
  ])("reads a broker fault in the month's last day from the calls refused meanwhile, and cites the first of them from a minute before the backlog began: %s", (_, how) => {
    const at = 30 * DAY - 200;
    const extra: Array<[number, number]> = [[at + 3, 5], [at + 6, 5], [at + 9, 5]];
    const runner = new RuleRunner({ rules: [rule], sources });
    const events = [...withRefusals(30, how === 'late' ? at : null, extra, how === 'flow' ? at : null)];
    for (const e of events) runner.visit(e);
    const f = runner.finish();
    expect(f).toHaveLength(1);
    const start = f[0].start!;
    const to = f[0].end!;
    const calls = events.filter((e) => e.type === 'pull-failed' && e.ts! >= start - 60000 && e.ts! <= to);
    expect(f[0].metrics).toMatchObject({ cause: 'broker-fault', brokerAddr: '10.0.0.2:10911', brokerFailures: calls.length, brokerFailedFrom: calls[0].ts });
    expect(f[0].evidence.map((x) => x.line)).toContain(calls[0].line);
    expect(f[0].evidence.find((x) => x.line === calls[0].line)!.text).toBe(calls[0].text);
  }, 120000);

  it('reads a slow listener against its best minute weeks before (folded), and cites a minute it kept', () => {
    // The best minutes (10 ms) are all in the first week; the month's last day is slow at 200 ms.
    function* withBest(): Generator<RmqEvent> {
      for (const e of month(30, 30 * DAY - 200)) {
        const min = Math.round((e.ts! - T0) / 60000);
        if (e.fields.stat === 'CONSUME_RT' && min < 7 * DAY && e.fields.avgpt === 20) yield { ...e, fields: { ...e.fields, avgpt: 10, sum: 12000 } };
        else yield e;
      }
    }
    const runner = new RuleRunner({ rules: [rule], sources });
    for (const e of withBest()) runner.visit(e);
    const f = runner.finish();
    expect(f).toHaveLength(1);
    expect(f[0].metrics).toMatchObject({ cause: 'slow-listener', rtBeforeMs: 10, rtDuringMs: 200 });
    expect(f[0].evidence.length).toBeGreaterThan(0);
  }, 120000);
});

// gen-20261223: app-billing-02 held broker-b's queues while broker-b was cut off and then hung; its
// pulls timed out and it consumed nothing. That is the broker's fault, not a blocked listener.
it('gen-20261223: an instance whose pulls to a failed broker timed out is not called blocked', async () => {
  const [f] = (await generatedFindings('gen-20261223', [rule])).filter((x) => x.metrics.cause !== undefined);
  expect(f.metrics.cause).toBe('broker-fault');
  expect(f.metrics.blockedHosts).toBeUndefined();
});

// gen-20261228: app-billing-01 held broker-a's queues while the only producer was cut off from
// broker-a: it pulled nothing (PULL_TPS SUM: 0) and consumed nothing, which is no blocked listener;
// broker-b's restart failed calls until 30 s before the group's first late minute, so it is no cause
// either. The late minutes are the messages the TagX instance's subscription had filtered out.
it('gen-20261228: an instance that pulled nothing is not blocked, a broker fault over before the backlog is not its cause', async () => {
  const [f] = (await generatedFindings('gen-20261228', [rule])).filter((x) => x.metrics.cause !== undefined);
  expect(f.metrics.cause).toBe('subscription');
  expect(f.metrics.blockedHosts).toBeUndefined();
  expect(f.metrics.brokerAddr).toBeUndefined();
  // Passed over, never consumed: the title counts them and says no backlog, the advice no catch-up.
  expect(f.title).toMatch(/^Group CID_BILLING: about \d+ messages not consumed in /);
  expect(f.explanation).toContain('they are not waiting in the lag');
  expect(f.advice.join(' ')).toContain('consumed only if the group');
});

// gen-20261218: app-billing-01's one consume thread blocked 45 s (06:21:16-06:22:01) inside a minute
// that still consumed 44 before it: its pulls brought 165 that minute and its offsets stood still 50 s.
it('gen-20261218: a block shorter than a minute, read from the messages piled up and the offsets standing still', async () => {
  const [f] = (await generatedFindings('gen-20261218', [rule])).filter((x) => x.metrics.cause !== undefined);
  const fault = generatedTruth('gen-20261218').faults.find((x) => x.kind === 'listener-block')!;
  expect(f.metrics.cause).toBe('blocked-listener');
  expect(f.metrics.blockedHosts).toEqual([fault.host]);
  expect(Math.abs(Number(f.metrics.blockedFrom) - Date.parse(fault.start))).toBeLessThanOrEqual(10_000);
  expect(Math.abs(Number(f.metrics.blockedUntil) - Date.parse(fault.end!))).toBeLessThanOrEqual(10_000);
  expect(f.explanation).toContain('consumed 44 in the minute to 06:22:00 while its pulls brought 165 (PULL_TPS)');
});

// A listener that slowed or blocked inside minutes whose totals still kept up: the commit rounds
// show it, around the minute whose CONSUME_RT rose (gen-20270103: a 45 s block, the 4 threads then
// took the minute's 377 other messages at 5 ms; gen-20270102: a 30 s slowdown to 1.5 s a message).
it.each([
  ['gen-20270103', 'listener-block'],
  ['gen-20270102', 'slowdown'],
])('%s: a listener fault whose backlog drained within the minute, placed within 10 s by the commit rounds', async (name, kind) => {
  const fault = generatedTruth(name).faults.find((x) => x.kind === kind)!;
  const [f] = (await generatedFindings(name, [rule])).filter((x) => x.metrics.cause !== undefined);
  expect(f.metrics.cause).toBe('slow-listener');
  expect(f.metrics.slowHosts).toEqual([fault.host]);
  expect(Math.abs(Number(f.metrics.slowFrom) - Date.parse(fault.start))).toBeLessThanOrEqual(10_000);
  expect(Math.abs(f.start! - Date.parse(fault.start))).toBeLessThanOrEqual(10_000);
  expect(f.explanation).toMatch(/caught up within the minute's totals/);
});
