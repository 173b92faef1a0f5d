// Push consumers in the model: the allocation, the pull loop's flow control, retries to the DLQ, a
// killed instance's duplicates, and the calibration against two lab recordings (their lab.json truth).

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allocateMessageQueueAveragely, queueName } from '../../src/model/rebalance.js';
import { MessageStore } from '../../src/model/store.js';
import { runScenario, type Scenario } from '../../src/model/index.js';
import { applyVariant, parseAssignments } from '../../src/replay/whatif.js';
import { validateScenario } from '../../src/replay/file.js';

interface ScenarioFile {
  untilMs: number;
  scenario: Scenario;
}
const load = (name: string): ScenarioFile => JSON.parse(readFileSync(`test/fixtures/replay-scenarios/${name}.json`, 'utf8'));
const truth = (name: string) => JSON.parse(readFileSync(`samples/lab/${name}/lab.json`, 'utf8')).consumerGroups[0];
const group = (sc: Scenario, untilMs: number, seed = 1) => runScenario(sc, { seed, untilMs, watermark: false, keepTypes: new Set() }).metrics.consumerGroups!.CID_STOCK;

describe('AllocateMessageQueueAveragely', () => {
  const mqs = [3, 1, 0, 2].map((queueId) => ({ topic: 'TopicOrder', brokerName: 'broker-a', queueId }));
  it('gives consecutive ranges of the sorted queues by the sorted client ids', () => {
    const cids = ['10.213.0.42@30007', '10.213.0.41@30000'];
    expect(allocateMessageQueueAveragely(mqs, cids, '10.213.0.41@30000').map(queueName)).toEqual(['TopicOrder@broker-a:0', 'TopicOrder@broker-a:1']);
    expect(allocateMessageQueueAveragely(mqs, cids, '10.213.0.42@30007').map(queueName)).toEqual(['TopicOrder@broker-a:2', 'TopicOrder@broker-a:3']);
  });
  it('gives the first n % k instances one more, and nothing to an instance past the queues', () => {
    const three = ['a', 'b', 'c'];
    expect(three.map((c) => allocateMessageQueueAveragely(mqs, three, c).length)).toEqual([2, 1, 1]);
    const five = ['a', 'b', 'c', 'd', 'e'];
    expect(five.map((c) => allocateMessageQueueAveragely(mqs, five, c).length)).toEqual([1, 1, 1, 1, 0]);
    expect(allocateMessageQueueAveragely(mqs, three, 'z')).toEqual([]);
  });
});

describe('calibration against the lab recordings', () => {
  it('consumer-slow-listener: the lag peaks within 15 % of the recording (218) and is back to one a queue', () => {
    const f = load('consumer-slow-listener');
    const lab = truth('consumer-slow-listener');
    expect(lab.maxLag.total).toBe(218);
    for (const seed of [1, 2, 3]) {
      const g = group(f.scenario, f.untilMs, seed);
      expect(g.maxLag!.total).toBeGreaterThan(218 * 0.85);
      expect(g.maxLag!.total).toBeLessThan(218 * 1.15);
      // The peak is at the slowdown's end (156 s), as in the recording (19:36:59, 155 s in).
      expect(g.maxLag!.atMs).toBeGreaterThan(140000);
      expect(g.maxLag!.atMs).toBeLessThanOrEqual(160000);
      // Before the slowdown and after the drain: one message a queue, as consumerProgress showed (4).
      expect(g.lag.filter((l) => l.atMs >= 40000 && l.atMs <= 60000).map((l) => l.total)).toEqual([4, 4, 4]);
      expect(g.lag.filter((l) => l.atMs >= 170000).every((l) => l.total <= 5)).toBe(true);
      expect(g.flowControlled).toBeGreaterThan(0);
      expect([g.failed, g.dlq, g.duplicates]).toEqual([0, 0, 0]);
    }
  });

  it("consumer-slow-listener: each instance's log holds the recording's three flow-control warnings (flowControlTimes 1, 1001, 2001)", () => {
    const f = load('consumer-slow-listener');
    const r = runScenario(f.scenario, { seed: 1, untilMs: f.untilMs, watermark: false, keepLines: true });
    for (const host of ['app-stock-01', 'app-stock-02']) {
      const warns = r.logs![`sim:${host}/rocketmq_client.log`].filter((l) => l.includes('so do flow control'));
      expect(warns.map((l) => /flowControlTimes=(\d+)/.exec(l)![1])).toEqual(['1', '1001', '2001']);
      // The recording's: 19:36:03, 19:36:29, 19:36:55 (one counter for the instance's queues, 40 checks a second).
      expect(warns.map((l) => l.slice(11, 16))).toEqual(['19:36', '19:36', '19:36']);
    }
    const events = r.events.filter((e) => e.type === 'flow-control');
    expect(events).toHaveLength(6);
  });

  it('consumer-failures-dlq: the DLQ holds within 20 % of the recording (58), and the failures within 20 % of 381', () => {
    const f = load('consumer-failures-dlq');
    const lab = truth('consumer-failures-dlq');
    expect(lab.dlq.byAdminTool).toBe(58);
    for (const seed of [1, 2, 3]) {
      const g = group(f.scenario, f.untilMs, seed);
      expect(Math.abs(g.dlq - 58) / 58).toBeLessThanOrEqual(0.2);
      expect(Math.abs(g.failed - lab.failed) / lab.failed).toBeLessThanOrEqual(0.2);
      // What was not consumed went to the DLQ: every failure is either sent back to %RETRY% or to the DLQ.
      expect(g.retried + g.dlq).toBe(g.failed);
      expect(g.maxLag!.total).toBeLessThan(10);
    }
  });
});

describe('mechanisms', () => {
  it('more retries (maxReconsumeTimes 16) leave nothing in the DLQ within the run', () => {
    const f = load('consumer-failures-dlq');
    const v = applyVariant(f.scenario, { label: 'm', assignments: parseAssignments('maxReconsumeTimes=16', '--what-if') });
    expect(group(v.scenario, f.untilMs).dlq).toBe(0);
    expect(group(f.scenario, f.untilMs).dlq).toBeGreaterThan(0);
  });

  it('a pop group (5.x gRPC) retries at the pop backoff (1 s, 5 s, ...): more of a failure burst reaches the DLQ, and it keeps no lag', () => {
    const f = load('consumer-failures-dlq');
    const pop: Scenario = structuredClone(f.scenario);
    pop.consumerGroups![0].consumeMode = 'pop';
    expect(() => validateScenario(structuredClone(pop))).not.toThrow();
    const p = group(pop, f.untilMs);
    const c = group(f.scenario, f.untilMs);
    // The remoting retries wait 10 s, 30 s, 1 min: fewer third failures fall inside the burst.
    expect(p.dlq).toBeGreaterThan(c.dlq);
    expect(p.retried + p.dlq).toBe(p.failed);
    expect(p.lag).toEqual([]);
    expect(p.maxLag).toBeNull();
  });

  it("a SimpleConsumer group (pop with invisibleMs) puts a failed message back after its invisible time: a long one keeps a burst's retries out of the DLQ; only a pop group takes it", () => {
    const f = load('consumer-failures-dlq');
    const pop: Scenario = structuredClone(f.scenario);
    pop.consumerGroups![0].consumeMode = 'pop';
    const slow: Scenario = structuredClone(pop);
    slow.consumerGroups![0].invisibleMs = 120_000;
    expect(() => validateScenario(structuredClone(slow))).not.toThrow();
    const p = group(pop, f.untilMs);
    const s = group(slow, f.untilMs);
    // Three failures 2 min apart do not all fall inside the burst: fewer messages reach the DLQ.
    expect(s.dlq).toBeLessThan(p.dlq);
    expect(s.retried + s.dlq).toBe(s.failed);
    const push: Scenario = structuredClone(f.scenario);
    push.consumerGroups![0].invisibleMs = 15_000;
    expect(() => validateScenario(structuredClone(push))).toThrow(/consumerGroups\[0\]\.invisibleMs: only a pop group/);
  });

  it('an instance killed -9 leaves its unpersisted offsets: the next owner consumes those messages again', () => {
    const f = load('consumer-slow-listener');
    const sc = JSON.parse(JSON.stringify(f.scenario)) as Scenario;
    const g0 = sc.consumerGroups![0];
    g0.listener = { processMs: 20 };
    g0.instances[0].stopAtMs = 100000;
    g0.instances[0].stop = 'kill';
    const killed = group(sc, f.untilMs);
    expect(killed.duplicates).toBeGreaterThan(0);
    g0.instances[0].stop = 'shutdown';
    const stopped = group(sc, f.untilMs);
    expect(stopped.duplicates).toBeLessThan(killed.duplicates);
  });

  it('more consume threads keep the slow listener up with the producer', () => {
    const f = load('consumer-slow-listener');
    const v = applyVariant(f.scenario, { label: 't', assignments: parseAssignments('consumeThreadMax=4', '--what-if') });
    expect(v.scenario.consumerGroups![0].consumeThreadMin).toBe(4);
    expect(group(v.scenario, f.untilMs).maxLag!.total).toBeLessThan(group(f.scenario, f.untilMs).maxLag!.total / 4);
  });

  it("one instance's listener blocked for 60 s: its queues fill and stop, the other keeps consuming; the lag drains after the block", () => {
    const f = load('consumer-slow-listener');
    const sc = JSON.parse(JSON.stringify(f.scenario)) as Scenario;
    const g0 = sc.consumerGroups![0];
    g0.listener = { processMs: 20 };
    const free = group(sc, f.untilMs);
    g0.instances[1].blocks = [{ atMs: 60000, untilMs: 120000 }];
    const blocked = group(sc, f.untilMs);
    // Half the queues wait 60 s at 5 messages a second in all: about 150 behind (the other half consumed).
    expect(blocked.maxLag!.total).toBeGreaterThan(100);
    expect(blocked.maxLag!.total).toBeLessThan(200);
    expect(free.maxLag!.total).toBeLessThan(20);
    expect(blocked.maxLag!.atMs).toBeGreaterThanOrEqual(110000);
    expect(blocked.maxLag!.atMs).toBeLessThanOrEqual(130000);
    expect(blocked.lag[blocked.lag.length - 1].total).toBeLessThanOrEqual(5);
    expect([blocked.failed, blocked.duplicates]).toEqual([0, 0]);
  });

  it('a broker down fails the pulls; the lag is consumed once it is back', () => {
    const f = load('consumer-slow-listener');
    const sc = JSON.parse(JSON.stringify(f.scenario)) as Scenario;
    sc.consumerGroups![0].listener = { processMs: 20 };
    sc.faults = [{ atMs: 60000, host: 'mq-broker-a', state: 'down' }, { atMs: 90000, host: 'mq-broker-a', state: 'up' }];
    const g = group(sc, f.untilMs);
    expect(g.pullFailures).toBeGreaterThan(0);
    expect(g.lag[g.lag.length - 1].total).toBeLessThanOrEqual(5);
  });
});

describe('the scenario file', () => {
  it('takes the hand-written files and names a field it cannot take', () => {
    const f = load('consumer-failures-dlq');
    expect(() => validateScenario(f.scenario)).not.toThrow();
    const bad = JSON.parse(JSON.stringify(f.scenario));
    // A subscription names tags joined by ||, or is '*'; an instance may have its own; a producer's tags are single tags.
    bad.consumerGroups[0].subscription = 'TagA || TagB';
    bad.consumerGroups[0].instances[0].subscription = 'TagA';
    bad.clients[0].tags = [{ tag: 'TagA' }, { tag: 'TagB', share: 2 }];
    expect(() => validateScenario(bad)).not.toThrow();
    bad.consumerGroups[0].subscription = ' || ';
    expect(() => validateScenario(bad)).toThrow(/scenario\.consumerGroups\[0\]\.subscription: expected '\*' or tags joined by \|\|/);
    bad.consumerGroups[0].subscription = '*';
    bad.clients[0].tags = [{ tag: 'TagA || TagB' }];
    expect(() => validateScenario(bad)).toThrow(/scenario\.clients\[0\]\.tags\[0\]\.tag: expected one tag/);
    bad.clients[0].tags = [{ tag: 'TagA', share: 0 }];
    expect(() => validateScenario(bad)).toThrow(/scenario\.clients\[0\]\.tags\[0\]\.share/);
    delete bad.clients[0].tags;
    delete bad.consumerGroups[0].instances[0].subscription;
    bad.consumerGroups[0].consumeThreadMin = 30;
    expect(() => validateScenario(bad)).toThrow(/consumeThreadMin: 30 is more than consumeThreadMax 20/);
    bad.consumerGroups[0].consumeThreadMin = 2;
    bad.consumerGroups[0].instances[0].blocks = [{ atMs: 5000, untilMs: 5000 }];
    expect(() => validateScenario(bad)).toThrow(/instances\[0\]\.blocks\[0\]\.untilMs: expected a time after atMs/);
    bad.consumerGroups[0].instances[0].blocks = [{ atMs: 5000, untilMs: 9000, why: 'x' }];
    expect(() => validateScenario(bad)).toThrow(/blocks\[0\]\.why/);
    bad.consumerGroups[0].instances[0].blocks = [{ atMs: 5000, untilMs: 9000 }];
    expect(() => validateScenario(bad)).not.toThrow();
  });
});

describe('bounded', () => {
  it("counts a group's deliveries in the run's tasks: a busy failing group over six hours is refused, naming consumerGroups", async () => {
    const { runSizeProblem } = await import('../../src/replay/file.js');
    const f = load('consumer-failures-dlq');
    const sc = JSON.parse(JSON.stringify(f.scenario)) as Scenario;
    expect(runSizeProblem(sc, f.untilMs, 6 * 3_600_000)).toBeNull();
    sc.clients[0].sendRatePerSec = 20;
    sc.consumerGroups![0].maxReconsumeTimes = 16;
    expect(runSizeProblem(sc, 6 * 3_600_000, 6 * 3_600_000)).toMatch(/^scenario\.consumerGroups: the run would simulate about [\d,]+ tasks .*consumers' pulls and deliveries/);
  });
});

describe("orderly queues' locks on the broker (RebalanceLockManager)", () => {
  it('a queue locked by one instance is refused to another until the holder unlocks it or 60 s pass without a renewal; a broker restart forgets every lock', () => {
    const s = new MessageStore('broker-a');
    const q = 'TopicOrder@broker-a:0';
    expect(s.tryLock('CID', q, 'A', 0)).toBe(true);
    expect(s.tryLock('CID', q, 'B', 1000)).toBe(false);
    expect(s.tryLock('CID', q, 'A', 50000)).toBe(true); // renewed
    expect(s.tryLock('CID', q, 'B', 100000)).toBe(false); // 50 s since the renewal
    expect(s.tryLock('CID', q, 'B', 110001)).toBe(true); // expired
    s.unlock('CID', q, 'A'); // not the holder: nothing
    expect(s.tryLock('CID', q, 'A', 110002)).toBe(false);
    s.unlock('CID', q, 'B');
    expect(s.tryLock('CID', q, 'A', 110003)).toBe(true);
    s.dropHeld();
    expect(s.tryLock('CID', q, 'B', 110004)).toBe(true);
  });

  it('offsetByTime finds the first message stored from a time on, to the second, once the store keeps its index', () => {
    const s = new MessageStore('broker-a');
    s.keepTimeIndex();
    for (const at of [500, 900, 1500, 2100, 2200, 4000]) s.putMessage('T', 0, at);
    expect(s.offsetByTime('T', 0, 0)).toBe(0);
    expect(s.offsetByTime('T', 0, 1200)).toBe(2);
    expect(s.offsetByTime('T', 0, 2000)).toBe(3);
    expect(s.offsetByTime('T', 0, 3000)).toBe(5);
    expect(s.offsetByTime('T', 0, 9000)).toBe(6);
  });
});
