// Tags and subscriptions in the model: FilterAPI's parsing and hash codes, the broker's and the
// client's filters, the producers' tags in turn, the broker's book of a group's subscription by
// version, and a group whose subscription flips when an instance with a narrower one joins
// (consumer-subscription-mismatch's cluster).

import { describe, expect, it } from 'vitest';
import { javaHashSetOrder, javaStringHashCode, matchedByConsumeQueue, matchedOnClient, parseSubscription, subscriptionDataText, TagRotation } from '../../src/model/subscription.js';
import { MessageStore } from '../../src/model/store.js';
import { runScenario, type Scenario, type ScenarioConsumerInstance } from '../../src/model/index.js';

describe('subscriptions (FilterAPI.buildSubscriptionData)', () => {
  it("gives the tags' String.hashCode codes the broker logs (codeSet=[2598919, 2598920] for TagA, TagB)", () => {
    const s = parseSubscription('TagA || TagB');
    expect(s.all).toBe(false);
    expect([...s.tags]).toEqual(['TagA', 'TagB']);
    expect([...s.codes]).toEqual([2598919, 2598920]);
    // Java's 32-bit wrap: a long tag's code is negative.
    expect(javaStringHashCode('TagWithAVeryLongName')).toBe(-1243878914);
  });
  it("takes '*' and an empty expression as every message", () => {
    for (const e of ['*', '', undefined]) {
      const s = parseSubscription(e);
      expect(s.all).toBe(true);
      expect(matchedByConsumeQueue(s, javaStringHashCode('TagB'))).toBe(true);
      expect(matchedOnClient(s, null)).toBe(true);
    }
  });
  it('the broker matches by code, the client again by the tag: a hash collision reaches the client and stops there', () => {
    // "Aa" and "BB" have the same String.hashCode (2112).
    expect(javaStringHashCode('Aa')).toBe(javaStringHashCode('BB'));
    const s = parseSubscription('Aa');
    expect(matchedByConsumeQueue(s, javaStringHashCode('BB'))).toBe(true);
    expect(matchedOnClient(s, 'BB')).toBe(false);
    expect(matchedOnClient(s, 'Aa')).toBe(true);
    // A message without tags: code 0 on the broker, dropped by a client that names tags.
    expect(matchedByConsumeQueue(s, 0)).toBe(false);
    expect(matchedOnClient(s, null)).toBe(false);
    // PullRequestHoldService's check gives no code: matched.
    expect(matchedByConsumeQueue(s, null)).toBe(true);
  });
});

describe('SubscriptionData.toString', () => {
  it("prints tagsSet and codeSet in java.util.HashSet's order, as the broker logs them", () => {
    // The broker's line: tagsSet=[TagA, TagB], codeSet=[2598919, 2598920] (TagA in bucket 0, TagB in 15).
    expect(subscriptionDataText('TopicOrder', parseSubscription('TagB || TagA'), 1796470805090)).toBe(
      'SubscriptionData [classFilterMode=false, topic=TopicOrder, subString=TagB || TagA, tagsSet=[TagA, TagB], codeSet=[2598919, 2598920], subVersion=1796470805090, expressionType=TAG]',
    );
    // Buckets by (h ^ h >>> 16) & 15, then insertion order; 13 entries double the table to 32.
    expect(javaHashSetOrder([17, 1, 33], (x) => x)).toEqual([17, 1, 33]);
    expect(javaHashSetOrder([2, 1], (x) => x)).toEqual([1, 2]);
    const many = Array.from({ length: 13 }, (_, i) => 16 * i);
    expect(javaHashSetOrder(many, (x) => x)).toEqual([0, 32, 64, 96, 128, 160, 192, 16, 48, 80, 112, 144, 176]);
  });
});

describe("producers' tags in turn", () => {
  it('alternates equal shares and spreads unequal ones', () => {
    const r = new TagRotation([{ tag: 'TagA' }, { tag: 'TagB' }]);
    expect(Array.from({ length: 6 }, () => r.next())).toEqual(['TagA', 'TagB', 'TagA', 'TagB', 'TagA', 'TagB']);
    const w = new TagRotation([{ tag: 'A', share: 3 }, { tag: 'B', share: 1 }]);
    const seq = Array.from({ length: 400 }, () => w.next());
    expect(seq.filter((t) => t === 'B')).toHaveLength(100);
    // Never two B in a row.
    expect(seq.some((t, i) => t === 'B' && seq[i + 1] === 'B')).toBe(false);
  });
});

describe("the broker's store", () => {
  it("keeps a queue's tags (0 for a message without) and only from the first tagged message on", () => {
    const st = new MessageStore('broker-a');
    st.putMessage('T', 0);
    st.putMessage('T', 0, 0, 'TagA');
    st.putMessage('T', 0, 0, null);
    st.putMessage('T', 0, 0, 'TagB');
    expect([0, 1, 2, 3].map((o) => st.tagAt('T', 0, o))).toEqual([null, 'TagA', null, 'TagB']);
    expect(st.tagsCodeAt('T', 0, 3)).toBe(2598920);
    expect(st.tagsCodeAt('T', 0, 2)).toBe(0);
    // Thousands of messages: the index grows.
    for (let i = 0; i < 5000; i++) st.putMessage('T', 1, 0, i % 2 ? 'TagB' : 'TagA');
    expect(st.tagAt('T', 1, 4999)).toBe('TagB');
    expect(st.tagAt('T', 2, 0)).toBe(null);
  });
  it("books a group's subscription by version: a heartbeat with an older version changes nothing (ConsumerGroupInfo.updateSubscription)", () => {
    const st = new MessageStore('broker-a');
    expect(st.updateSubscription('G', 'T', parseSubscription('TagA || TagB'), 100)).toBe(true);
    expect(st.updateSubscription('G', 'T', parseSubscription('TagA'), 200)).toBe(true);
    expect(st.groupSubscription('G', 'T')!.sub.subString).toBe('TagA');
    // The same version again, or an older one, is not booked.
    expect(st.updateSubscription('G', 'T', parseSubscription('TagA || TagB'), 200)).toBe(false);
    expect(st.updateSubscription('G', 'T', parseSubscription('TagA || TagB'), 150)).toBe(false);
    expect(st.groupSubscription('G', 'T')!.sub.subString).toBe('TagA');
    expect(st.updateSubscription('G', 'T', parseSubscription('TagA || TagB'), 201)).toBe(true);
    expect(st.groupSubscription('G', 'T')!.version).toBe(201);
  });
});

/**
 * consumer-subscription-mismatch's cluster: one broker, a producer sending TagA and TagB in turn at
 * 4 a second, two instances subscribing TagA || TagB, and a third with TagA from 70 s to 160 s.
 */
function mismatch(newcomer: Partial<ScenarioConsumerInstance> | null, sendTimesMs?: number[]): Scenario {
  const instances: ScenarioConsumerInstance[] = [
    { host: 'app-stock-01', ip: '10.213.0.41', startAtMs: 24000 },
    { host: 'app-stock-02', ip: '10.213.0.42', startAtMs: 26000 },
  ];
  if (newcomer) instances.push({ host: 'app-stock-03', ip: '10.213.0.43', startAtMs: 70000, stopAtMs: 160000, stop: 'shutdown', subscription: 'TagA', ...newcomer });
  return {
    name: 'subscription-flip',
    startEpochMs: Date.UTC(2026, 11, 5, 11, 38, 50),
    serverVersion: '4.9.4',
    nameServers: [{ addr: '10.213.0.11:9876', host: 'mq-ns-1' }],
    brokers: [{ name: 'broker-a', addr: '10.213.0.21:10911', host: 'mq-broker-a' }],
    topics: [{ name: 'TopicOrder', queues: 4 }],
    clients: [
      {
        host: 'app-order-01',
        ip: '10.213.0.31',
        version: '4.9.4',
        group: 'PID_ORDER',
        topic: 'TopicOrder',
        sendRatePerSec: 4,
        startAtMs: 20000,
        tags: [{ tag: 'TagA' }, { tag: 'TagB' }],
        ...(sendTimesMs ? { sendTimesMs } : {}),
      },
    ],
    consumerGroups: [{ group: 'CID_STOCK', topic: 'TopicOrder', version: '4.9.4', subscription: 'TagA || TagB', listener: { processMs: 20 }, instances }],
  };
}

/** Sends every 250 ms from 21 s to 200 s: the TagB messages are the odd ones, two a second. */
const SENDS = Array.from({ length: 716 }, (_, i) => 21000 + i * 250);
const tagBSentBetween = (fromMs: number, toMs: number) => SENDS.filter((t, i) => i % 2 === 1 && t >= fromMs && t < toMs).length;

const groupAt = (sc: Scenario, untilMs: number) => runScenario(sc, { seed: 1, untilMs, watermark: false, keepTypes: new Set() }).metrics.consumerGroups!.CID_STOCK;

describe("a group's subscription flipping (consumer-subscription-mismatch's cluster)", () => {
  // `consumed` counts a message consumed again (a queue handed over before its offset was persisted)
  // each time: every message not skipped is consumed at least once, and the final lag is 0.
  const lagAtEnd = (g: ReturnType<typeof groupAt>) => g.lag[g.lag.length - 1].total;
  it('with one subscription for every instance nothing is skipped and every message is consumed', () => {
    const g = groupAt(mismatch({ subscription: 'TagA || TagB' }, SENDS), 215000);
    expect(g.skippedBySubscription).toEqual({ total: 0, byTag: {} });
    expect(g.consumed).toBeGreaterThanOrEqual(SENDS.length);
    expect(lagAtEnd(g)).toBe(0);
  });

  it("skips TagB messages from the narrower instance's join to its leave, and only then", () => {
    const sc = mismatch({}, SENDS);
    // Before the join nothing is skipped.
    expect(groupAt(sc, 69000).skippedBySubscription!.total).toBe(0);
    const during = groupAt(sc, 120000).skippedBySubscription!;
    expect(during.total).toBeGreaterThan(0);
    expect(Object.keys(during.byTag)).toEqual(['TagB']);
    const end = groupAt(sc, 215000);
    const s = end.skippedBySubscription!;
    // The group's booked subscription was TagA while app-stock-03 ran (its rebalance's version was
    // the newest): about every TagB message sent then, on every queue, was skipped; none after it left.
    const window = tagBSentBetween(70000, 160000);
    expect(s.total).toBeGreaterThan(window * 0.9);
    expect(s.total).toBeLessThanOrEqual(tagBSentBetween(69000, 166000));
    expect(groupAt(sc, 170000).skippedBySubscription!.total).toBe(s.total);
    expect(Object.keys(s.byTag)).toEqual(['TagB']);
    // Every other message was consumed, none failed; the skipped ones are behind the committed offsets.
    expect(end.consumed).toBeGreaterThanOrEqual(SENDS.length - s.total);
    expect(end.consumed).toBeLessThan(SENDS.length - s.total + 10);
    expect(lagAtEnd(end)).toBe(0);
    expect(end.failed).toBe(0);
  });

  it("the broker's log shows the flip: the narrower subscription booked last at the join, the broader one after the leave", () => {
    const r = runScenario(mismatch({}, SENDS), { seed: 1, untilMs: 215000, watermark: false });
    const changes = r.events.filter((e) => e.type === 'consumer-changed' && e.host === 'mq-broker-a');
    expect(changes[0].fields).toMatchObject({ change: 'topic-added', group: 'CID_STOCK', topic: 'TopicOrder', subString: 'TagA || TagB' });
    const t0 = Date.UTC(2026, 11, 5, 11, 38, 50);
    const last = (beforeMs: number) => changes.filter((e) => e.ts! < t0 + beforeMs).at(-1)!.fields.subString;
    // Within the join's second it goes TagA, TagA || TagB, TagA (the newcomer's rebalance is the last version).
    expect(changes.filter((e) => e.ts! >= t0 + 70000 && e.ts! < t0 + 71000).map((e) => e.fields.subString)).toEqual(['TagA', 'TagA || TagB', 'TagA']);
    expect(last(150000)).toBe('TagA');
    expect(last(215000)).toBe('TagA || TagB');
  });

  it("an instance with a broader subscription ('*') joining skips nothing: the filter then passes every tag", () => {
    const g = groupAt(mismatch({ subscription: '*' }, SENDS), 215000);
    expect(g.skippedBySubscription!.total).toBe(0);
    expect(g.consumed).toBeGreaterThanOrEqual(SENDS.length);
  });

  it('a group whose instances all subscribe * runs as before tags existed: no filter, no count', () => {
    const sc = mismatch(null, SENDS);
    sc.consumerGroups![0].subscription = '*';
    const g = groupAt(sc, 215000);
    expect(g.skippedBySubscription).toBeUndefined();
    expect(g.consumed).toBeGreaterThanOrEqual(SENDS.length);
  });
});
