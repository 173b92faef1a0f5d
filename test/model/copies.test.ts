// A send stored twice: the attempt its producer gave up on (the hung broker read it when it ran
// again) and its retry. The consumers consume both copies, one message (one UNIQ_KEY) consumed twice.

import { describe, expect, it } from 'vitest';
import { MessageCopies } from '../../src/model/copies.js';
import { runScenario, type Scenario } from '../../src/model/index.js';
import { twoMastersScenario } from './scenarios.js';

/**
 * consumer-slow-listener's cluster with a fast listener, a second master and broker-a frozen
 * (SIGSTOP: its sockets stay open) for 60 s from 80 s on.
 */
function hangScenario(retries: number | null, hang = true): { scenario: Scenario; untilMs: number } {
  const sc = twoMastersScenario();
  if (retries !== null) sc.clients[0].settings = { ...(sc.clients[0].settings ?? {}), retryTimesWhenSendFailed: retries };
  if (hang)
    sc.faults = [
      { atMs: 80000, host: 'mq-broker-a', state: 'hung', processesOnly: true },
      { atMs: 140000, host: 'mq-broker-a', state: 'up' },
    ];
  return { scenario: sc, untilMs: 200000 };
}

const run = (s: { scenario: Scenario; untilMs: number }, seed = 1) => runScenario(s.scenario, { seed, untilMs: s.untilMs, watermark: false, keepTypes: new Set() }).metrics;

describe('MessageCopies', () => {
  it('keeps the copies of a message stored twice, whichever copy came first', () => {
    const c = new MessageCopies();
    const m = c.newMessage();
    c.stored(m, 'broker-b', 'T', 1, 7);
    c.ended(m, true);
    expect(c.copiesOf('broker-b', 'T', 1, 7)).toBeUndefined();
    // The attempt given up on, stored after the send ended.
    c.stored(m, 'broker-a', 'T', 0, 3);
    expect(c.copiesOf('broker-b', 'T', 1, 7)).toEqual([
      { brokerName: 'broker-b', topic: 'T', queueId: 1, offset: 7 },
      { brokerName: 'broker-a', topic: 'T', queueId: 0, offset: 3 },
    ]);
    expect(c.copiesOf('broker-a', 'T', 0, 3)).toBe(c.copiesOf('broker-b', 'T', 1, 7));
    expect(c.storedTwice).toBe(1);
  });

  it('forgets a send that ended without a failed attempt: one copy, and no other can come', () => {
    const c = new MessageCopies();
    const a = c.newMessage();
    const b = c.newMessage();
    expect(b).not.toBe(a);
    c.stored(a, 'broker-a', 'T', 0, 0);
    c.ended(a, false);
    c.stored(b, 'broker-a', 'T', 0, 1);
    expect(c.storedTwice).toBe(0);
    expect(c.copiesOf('broker-a', 'T', 0, 0)).toBeUndefined();
    // An untracked request (-1) is never a copy.
    c.stored(-1, 'broker-a', 'T', 0, 2);
    c.stored(-1, 'broker-a', 'T', 0, 3);
    expect(c.storedTwice).toBe(0);
  });
});

describe('a hung broker stores the attempts its producer gave up on', () => {
  it('the retried sends are consumed twice', () => {
    const m = run(hangScenario(null));
    const g = m.consumerGroups!.CID_STOCK;
    expect(m.clients['app-order-01'].failedAttempts).toBeGreaterThan(0);
    expect(g.duplicates).toBeGreaterThan(0);
    // Nothing else makes duplicates here: no instance stops, the queues stay where they are.
    expect(g.failed).toBe(0);
  });

  it('without retries (retryTimesWhenSendFailed 0) a send is stored once: nothing is consumed twice', () => {
    const m = run(hangScenario(0));
    expect(m.clients['app-order-01'].failedAttempts).toBeGreaterThan(0);
    expect(m.consumerGroups!.CID_STOCK.duplicates).toBe(0);
  });

  it('without the hang nothing is consumed twice', () => {
    const m = run(hangScenario(null, false));
    expect(m.clients['app-order-01'].failedAttempts).toBe(0);
    expect(m.consumerGroups!.CID_STOCK.duplicates).toBe(0);
  });
});

describe('the pulls a hung broker held', () => {
  it('are answered when the broker runs again (PullMessageProcessor handles what its sockets held), not after the 30 s pull timeout: what it stored then is consumed at once', () => {
    const m = run(hangScenario(null));
    const g = Object.values(m.consumerGroups!)[0];
    // broker-a runs again at 140 s and stores at once the attempts it held (about 100). The instances'
    // pulls sent to it in the hang's last 30 s are answered then: by the next samples the lag is a
    // healthy group's. Pulls failed at their 30 s timeout and pulled 3 s later would leave the
    // stored messages there for up to 33 s (the lag over 100 at 150 s and 160 s).
    const at = (ms: number) => g.lag.find((x) => x.atMs === ms)!.total;
    expect(at(150000)).toBeLessThan(10);
    expect(at(160000)).toBeLessThan(10);
    // The pulls sent earlier in the hang still failed at their timeout.
    expect(g.pullFailures).toBeGreaterThan(0);
  });
});
