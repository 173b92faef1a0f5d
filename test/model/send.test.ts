// The producer's send path: the retry loop and its time budget, lastBrokerName avoidance,
// MessageQueueSelector sends without retry, and the latency fault tables.

import { describe, expect, it } from 'vitest';
import { FAULT_TABLES_4X, FAULT_TABLES_514, isolationMs, notAvailableDuration } from '../../src/rocketmq/facts.js';
import { runScenario, type Fault, type Scenario, type ScenarioClient } from '../../src/model/scenario.js';
import { BROKER_A, client, seedOutage } from './scenarios.js';

const NS_110 = '192.168.3.110:9876';
const FAULT_AT_MS = 300000;

function cluster(clients: ScenarioClient[], faults: Fault[]): Scenario {
  const sc = seedOutage({ separateNameServers: true, clients });
  sc.faults = faults;
  return sc;
}

describe('send retries and the time budget', () => {
  const seed = 77;

  it(`a default send retries on another broker after a fast failure (connection refused) (seed ${seed})`, () => {
    const sc = cluster([client('app-order-01', '4.9.4', NS_110, { sendRatePerSec: 10 })], [{ atMs: FAULT_AT_MS, host: 'mq-node-100', state: 'down' }]);
    const r = runScenario(sc, { seed, untilMs: FAULT_AT_MS + 60000 });
    const m = r.metrics.clients['app-order-01'];
    const attempts = r.events.filter((e) => e.type === 'send-attempt-failed');
    expect(attempts.length).toBeGreaterThan(0);
    for (const e of attempts) {
      expect(e.fields.brokerName).toBe('broker-a');
      expect(e.fields.cause).toBe(`RemotingConnectException: connect to ${BROKER_A} failed`);
      expect(e.fields.rtMs).toBeLessThan(50);
    }
    // Every one of them was retried on broker-b and succeeded: the application saw nothing.
    expect(m.failedAttempts).toBe(attempts.length);
    expect(m.failedSends).toBe(0);
    expect(r.events.filter((e) => e.file.endsWith('/app.log'))).toEqual([]);
  });

  it("an application with 2 sending threads has at most 2 sends in flight: on a hung broker it loses 2 per 3000 ms wait, and the rest of its rate is not sent", () => {
    const faults: Fault[] = [{ atMs: FAULT_AT_MS, host: 'mq-node-100', state: 'hung' }];
    const bounded = runScenario(cluster([client('app-order-01', '4.8.0', NS_110, { sendRatePerSec: 5, selector: true, selectorQueue: 0, sendThreads: 2 })], faults), { seed, untilMs: FAULT_AT_MS + 60000 });
    const free = runScenario(cluster([client('app-order-01', '4.8.0', NS_110, { sendRatePerSec: 5, selector: true, selectorQueue: 0 })], faults), { seed, untilMs: FAULT_AT_MS + 60000 });
    const b = bounded.metrics.clients['app-order-01'];
    const f = free.metrics.clients['app-order-01'];
    // 60 s of 3000 ms waits on 2 threads: about 40 lost, where a thread per send loses the whole rate's.
    expect(b.failedSends).toBeGreaterThanOrEqual(36);
    expect(b.failedSends).toBeLessThanOrEqual(42);
    expect(f.failedSends).toBeGreaterThan(250);
    expect(b.shedSends).toBeGreaterThan(200);
    expect(f.shedSends).toBe(0);
    expect(b.sends + b.shedSends).toBeGreaterThan(0.9 * (f.sends + f.shedSends));
    // Every failure is on one of the 2 threads, and never more than 2 fail within one wait.
    const sc0 = cluster([], []);
    const fails = bounded.events.filter((e) => e.file.endsWith("/app.log") && e.ts! >= sc0.startEpochMs + FAULT_AT_MS);
    expect(new Set(fails.map((e) => e.thread))).toEqual(new Set(['sender-1', 'sender-2']));
    for (let i = 2; i < fails.length; i++) expect(fails[i].ts! - fails[i - 2].ts!).toBeGreaterThanOrEqual(2990);
  });

  it('a read timeout on a hung broker uses the whole 3000 ms: `sendDefaultImpl call timeout`, no second attempt', () => {
    const sc = cluster([client('app-order-01', '4.8.0', NS_110, { sendRatePerSec: 5 })], [{ atMs: FAULT_AT_MS, host: 'mq-node-100', state: 'hung' }]);
    const r = runScenario(sc, { seed, untilMs: FAULT_AT_MS + 60000 });
    const m = r.metrics.clients['app-order-01'];
    const attempts = r.events.filter((e) => e.type === 'send-attempt-failed');
    const timeouts = r.events.filter((e) => e.type === 'send-call-timeout');
    expect(attempts.length).toBeGreaterThan(5);
    expect(timeouts).toHaveLength(attempts.length);
    for (const e of attempts) {
      expect(e.fields.brokerName).toBe('broker-a');
      expect(e.fields.rtMs).toBeGreaterThanOrEqual(3000);
      expect(e.fields.rtMs).toBeLessThanOrEqual(3003);
      expect(String(e.fields.cause)).toMatch(/^RemotingTimeoutException: wait response on the channel <192\.168\.3\.100:10911> timeout, \d+\(ms\)$/);
    }
    for (const e of timeouts) {
      expect(e.fields.api).toBe('sendDefaultImpl');
      expect(e.file).toBe('sim:app-order-01/app.log');
    }
    expect(m.sendCallTimeouts).toBe(m.failedSends);
    expect(m.failedAttempts).toBe(m.failedSends);
    expect(r.events.some((e) => e.type === 'send-failed')).toBe(false);
  });

  it('4.9.1+: the timeout that closes the channel fails the other sends waiting on it at once (failFast), and they go to another broker', () => {
    const sc = cluster([client('app-pay-01', '4.9.4', NS_110, { sendRatePerSec: 10 })], [{ atMs: FAULT_AT_MS, host: 'mq-node-100', state: 'hung' }]);
    const r = runScenario(sc, { seed, untilMs: FAULT_AT_MS + 60000 });
    const attempts = r.events.filter((e) => e.type === 'send-attempt-failed' && e.fields.brokerName === 'broker-a');
    const fast = attempts.filter((e) => String(e.fields.cause).startsWith('RemotingSendRequestException: send request to <192.168.3.100:10911> failed'));
    const timedOut = attempts.filter((e) => String(e.fields.cause).startsWith('RemotingTimeoutException'));
    expect(timedOut.length).toBeGreaterThan(0);
    expect(fast.length).toBeGreaterThan(0);
    // Each fails in the millisecond of a timeout on the same channel, well before its own deadline.
    for (const e of fast) {
      expect(timedOut.some((t) => t.ts === e.ts), `${e.text}`).toBe(true);
      expect(e.fields.rtMs).toBeLessThan(3000);
    }
    // ...and is resent at once on broker-b, with budget left: the application sees none of them.
    const app = r.events.filter((e) => e.file.endsWith('/app.log'));
    expect(app.length).toBeGreaterThan(0);
    expect(app.filter((e) => /RemotingSendRequestException/.test(e.text))).toEqual([]);
  });

  it('when every broker fails fast the send ends with `Send [3] times, still failed`, avoiding the last broker each time', () => {
    const sc = cluster(
      [client('app-order-01', '4.9.4', NS_110, { sendRatePerSec: 5 })],
      [
        { atMs: FAULT_AT_MS, host: 'mq-node-100', state: 'down' },
        { atMs: FAULT_AT_MS, host: 'mq-node-101', state: 'down' },
      ],
    );
    const r = runScenario(sc, { seed, untilMs: FAULT_AT_MS + 20000 });
    const failed = r.events.filter((e) => e.type === 'send-failed');
    expect(failed.length).toBeGreaterThan(0);
    for (const e of failed) {
      expect(e.fields.attempts).toBe(3);
      const sent = e.fields.brokersSent as string[];
      expect(sent).toHaveLength(3);
      expect(sent[1]).not.toBe(sent[0]);
      expect(sent[2]).not.toBe(sent[1]);
      expect(e.fields.costMs).toBeLessThan(100);
    }
  });

  it('a MessageQueueSelector send does not retry: the first failure reaches the application', () => {
    const sel = client('app-sel', '4.9.4', NS_110, { sendRatePerSec: 10, selector: true });
    const dflt = client('app-default', '4.9.4', NS_110, { sendRatePerSec: 10 });
    const r = runScenario(cluster([sel, dflt], [{ atMs: FAULT_AT_MS, host: 'mq-node-100', state: 'down' }]), { seed, untilMs: FAULT_AT_MS + 60000 });
    const s = r.metrics.clients['app-sel'];
    const d = r.metrics.clients['app-default'];
    expect(s.failedSends).toBeGreaterThan(0);
    expect(s.failedAttempts).toBe(0);
    expect(r.events.some((e) => e.host === 'app-sel' && e.type === 'send-attempt-failed')).toBe(false);
    // The application gets the raw connect exception (sendSelectImpl has no "Send [N] times" wrapper).
    const appEvents = r.events.filter((e) => e.file === 'sim:app-sel/app.log');
    expect(appEvents.length).toBe(s.failedSends);
    expect(appEvents.every((e) => e.type === 'connect-failed' && e.fields.addr === BROKER_A)).toBe(true);
    // The default producer, same fault, same time: retried, no application error.
    expect(d.failedAttempts).toBeGreaterThan(0);
    expect(d.failedSends).toBe(0);
  });
});

describe('asynchronous sends (send(msg, SendCallback))', () => {
  const seed = 77;

  it("a broker's error reply (a full disk) reaches the SendCallback as it is: no retry, where a sync send goes to the other broker", () => {
    const a = client('app-async', '4.9.4', NS_110, { sendRatePerSec: 10, async: true });
    const s = client('app-sync', '4.9.4', NS_110, { sendRatePerSec: 10 });
    const full: Fault = { atMs: FAULT_AT_MS, broker: 'broker-a', diskFull: { durationMs: 20000, ratio: 0.96, okRatio: 0.5 } };
    const r = runScenario(cluster([a, s], [full]), { seed, untilMs: FAULT_AT_MS + 30000 });
    const m = r.metrics.clients['app-async'];
    // About half its sends went to broker-a's queues in those 20 s (10/s): each one lost.
    expect(m.failedSends).toBeGreaterThan(60);
    expect(m.failedSends).toBeLessThan(140);
    expect(m.failedAttempts).toBe(m.failedSends);
    const appEvents = r.events.filter((e) => e.file === 'sim:app-async/app.log');
    expect(appEvents.length).toBe(m.failedSends);
    // What the application's callback logs: MQBrokerException code 14 from the InvokeCallback, on the callback executor.
    for (const e of appEvents) {
      expect(e.type).toBe('disk-full');
      expect(e.sendPath).toBe('async');
      expect(e.thread).toMatch(/^NettyClientPublicExecutor_[1-4]$/);
    }
    expect(r.metrics.clients['app-sync'].failedSends).toBe(0);
    // (Its retries move the round robin on, so fewer of its first attempts land on broker-a.)
    expect(r.metrics.clients['app-sync'].failedAttempts).toBeGreaterThan(30);
  });

  it('a request that could not be sent (connection refused) is sent again to another broker, retryTimesWhenSendAsyncFailed times', () => {
    const down: Fault = { atMs: FAULT_AT_MS, host: 'mq-node-100', state: 'down' };
    const retried = runScenario(cluster([client('app-async', '4.9.4', NS_110, { sendRatePerSec: 10, async: true })], [down]), { seed, untilMs: FAULT_AT_MS + 20000 });
    expect(retried.metrics.clients['app-async'].failedAttempts).toBeGreaterThan(0);
    expect(retried.metrics.clients['app-async'].failedSends).toBe(0);
    const none = runScenario(cluster([client('app-async', '4.9.4', NS_110, { sendRatePerSec: 10, async: true }, { retryTimesWhenSendAsyncFailed: 0 })], [down]), { seed, untilMs: FAULT_AT_MS + 20000 });
    const m = none.metrics.clients['app-async'];
    expect(m.failedSends).toBeGreaterThan(0);
    expect(m.failedSends).toBe(m.failedAttempts);
    expect(none.events.filter((e) => e.file === 'sim:app-async/app.log').every((e) => e.type === 'connect-failed' && e.sendPath === 'async')).toBe(true);
  });

  // gen-710 (4.9.4, sendMsgTimeout 1000, sendLatencyFaultEnable): a request to the hung broker is
  // removed by scanResponseTable 2-3 s after it began; its two retries find the budget spent and
  // fail at once, each isolating its broker; the SendCallback gets the last one's exception.
  describe('a request that timed out on a hung broker', () => {
    const hung: Fault = { atMs: FAULT_AT_MS, host: 'mq-node-100', state: 'hung' };
    const run = (version: string, settings: ScenarioClient['settings'] = {}) => {
      const sc = cluster([client('app-async', version, NS_110, { sendRatePerSec: 5, async: true }, { sendMsgTimeoutMs: 1000, ...settings })], [hung]);
      const r = runScenario(sc, { seed, untilMs: FAULT_AT_MS + 30000 });
      const of = (file: string, type: string) => r.events.filter((e) => e.file === `sim:app-async/${file}` && e.type === type && e.ts! >= sc.startEpochMs + FAULT_AT_MS);
      return { r, m: r.metrics.clients['app-async'], of };
    };

    it('4.9.3+: removed by the scan, retried twice at once with nothing left, the SendCallback gets `invokeAsync call the addr[...] timeout`', () => {
      const { m, of } = run('4.9.4');
      const removed = of('rocketmq_client.log', 'async-timeout');
      expect(removed.length).toBeGreaterThan(5);
      for (const e of removed) {
        expect(e.fields.addr).toBe(BROKER_A);
        expect(e.fields.callback).toBe('org.apache.rocketmq.client.impl.MQClientAPIImpl$1');
        // sendMsgTimeout less the little spent before the request; removed at the first scan past its timeout + 1000.
        expect(e.fields.timeoutMs).toBeGreaterThan(990);
        expect(e.fields.timeoutMs).toBeLessThanOrEqual(1000);
        const waited = e.ts! - (e.fields.beginMs as number);
        expect(waited).toBeGreaterThanOrEqual((e.fields.timeoutMs as number) + 1000);
        expect(waited).toBeLessThanOrEqual((e.fields.timeoutMs as number) + 2000);
      }
      // Each timeout's two retries, at once (WARN with the exception from 4.9.3).
      const retries = of('rocketmq_client.log', 'send-async-retry');
      for (const e of removed) expect(retries.filter((r) => r.ts === e.ts).map((r) => [r.fields.times, r.level])).toEqual(expect.arrayContaining([[1, 'WARN'], [2, 'WARN']]));
      // What the SendCallback gets: the last retry's RemotingTooMuchRequestException, on the callback executor.
      const app = of('app.log', 'rpc-timeout');
      expect(app.length).toBeGreaterThanOrEqual(removed.length);
      expect(app.length).toBeLessThanOrEqual(m.failedSends);
      for (const e of app) {
        expect(e.entry).toBe('rpc-timeout/call-the-addr');
        expect(e.sendPath).toBe('async');
        expect(e.thread).toMatch(/^NettyClientPublicExecutor_[1-4]$/);
      }
      // Nothing of invokeSync's: no channel closed for them, and sendDefaultImpl logs no attempt.
      const removedAt = new Set(removed.map((e) => e.ts));
      expect(of('rocketmq_client.log', 'channel-closed').filter((e) => removedAt.has(e.ts))).toEqual([]);
      expect(of('rocketmq_client.log', 'send-attempt-failed')).toEqual([]);
    });

    it('with sendLatencyFaultEnable the broker is isolated once a timeout is known: only the sends begun before are lost', () => {
      const without = run('4.9.4').m;
      const { m, of } = run('4.9.4', { sendLatencyFaultEnable: true });
      // About half the sends of the 2-3 s before the first timeout was known, at 5/s, against a share of every send for 30 s.
      expect(m.failedSends).toBe(of('rocketmq_client.log', 'async-timeout').length);
      expect(m.failedSends).toBeGreaterThan(0);
      expect(m.failedSends).toBeLessThanOrEqual(15);
      expect(without.failedSends).toBeGreaterThan(4 * m.failedSends);
    });

    it('4.7.0-4.9.2: one retry (an INFO line), then the SendCallback gets `invokeAsync call timeout`', () => {
      const { m, of } = run('4.9.2', { sendLatencyFaultEnable: true });
      const removed = of('rocketmq_client.log', 'async-timeout');
      expect(removed.length).toBeGreaterThan(5);
      expect(of('rocketmq_client.log', 'send-async-retry').map((e) => [e.ts, e.fields.times, e.level])).toEqual(removed.map((e) => [e.ts, 1, 'INFO']));
      const app = of('app.log', 'rpc-timeout');
      expect(app.length).toBe(removed.length);
      expect(m.failedSends).toBe(removed.length);
      // RemotingTooMuchRequestException `invokeAsync call timeout` (no address before 4.9.3).
      for (const e of app) expect([e.entry, e.sendPath]).toEqual(['rpc-timeout/invoke-sync-call-timeout', 'async']);
    });

    it('up to 4.6.1 the retry goes out with 0 ms left and a healthy broker answers it: nothing lost', () => {
      const { m, of } = run('4.5.2');
      const removed = of('rocketmq_client.log', 'async-timeout');
      expect(removed.length).toBeGreaterThan(5);
      expect(of('rocketmq_client.log', 'send-async-retry').length).toBe(removed.length);
      expect(m.failedSends).toBe(0);
    });

    it('5.3.2+: no retry without time left: the SendCallback gets `wait response timeout, cost=`', () => {
      const { of } = run('5.3.2', { sendLatencyFaultEnable: true });
      const removed = of('rocketmq_client.log', 'async-timeout');
      expect(removed.length).toBeGreaterThan(5);
      expect(of('rocketmq_client.log', 'send-async-retry')).toEqual([]);
      const app = of('app.log', 'rpc-timeout');
      expect(app.map((e) => [e.ts, e.entry])).toEqual(removed.map((e) => [e.ts, 'rpc-timeout/async-send-wait-response-cost']));
    });
  });

  it('before 4.9.3 a request that could not be sent ends the send: `Send [1] times, still failed` on the async sender executor', () => {
    const down: Fault = { atMs: FAULT_AT_MS, host: 'mq-node-100', state: 'down' };
    const r = runScenario(cluster([client('app-async', '4.9.2', NS_110, { sendRatePerSec: 10, async: true })], [down]), { seed, untilMs: FAULT_AT_MS + 20000 });
    const m = r.metrics.clients['app-async'];
    expect(m.failedSends).toBeGreaterThan(0);
    expect(m.failedSends).toBe(m.failedAttempts);
    // Each record: the MQClientException, and its cause (the connect failure) as an event of its own.
    const app = r.events.filter((e) => e.file === 'sim:app-async/app.log' && e.type === 'send-failed');
    expect(app.length).toBe(m.failedSends);
    expect(r.events.filter((e) => e.file === 'sim:app-async/app.log' && e.type === 'connect-failed').length).toBe(m.failedSends);
    for (const e of app) {
      expect(e.type).toBe('send-failed');
      expect(e.fields.attempts).toBe(1);
      expect(e.fields.brokersSent).toEqual(['broker-a']);
      expect(e.thread).toMatch(/^AsyncSenderExecutor_[1-4]$/);
    }
  });
});

describe('latency fault tolerance (sendLatencyFaultEnable)', () => {
  const seed = 78;

  it('4.x tables: a timeout isolates the broker for 600 s; without it every send keeps trying it', () => {
    const on = client('app-on', '4.9.4', NS_110, { sendRatePerSec: 5 }, { sendLatencyFaultEnable: true });
    const off = client('app-off', '4.9.4', NS_110, { sendRatePerSec: 5 });
    const r = runScenario(cluster([on, off], [{ atMs: FAULT_AT_MS, host: 'mq-node-100', state: 'hung' }]), { seed, untilMs: FAULT_AT_MS + 100000 });
    const mOn = r.metrics.clients['app-on'];
    const mOff = r.metrics.clients['app-off'];
    // Only the sends already on their way to broker-a when the first timeout came back fail.
    expect(mOn.failedAttempts).toBeGreaterThan(0);
    expect(mOn.failedAttempts).toBeLessThanOrEqual(20);
    expect(mOff.failedAttempts).toBeGreaterThan(100);
  });

  it('notAvailableDuration by version (MQFaultStrategy, 4.9.4 and 5.1.4)', () => {
    const t4 = FAULT_TABLES_4X;
    expect(notAvailableDuration(t4, 549)).toBe(0);
    expect(notAvailableDuration(t4, 550)).toBe(30000);
    expect(notAvailableDuration(t4, 3000)).toBe(180000);
    // A failed attempt (a timeout included) is isolation: 10 minutes up to 5.1.3.
    expect(isolationMs(t4)).toBe(600000);
    const t514 = FAULT_TABLES_514;
    expect(isolationMs(t514)).toBe(10000);
    expect(notAvailableDuration(t514, 2000)).toBe(5000);
  });
});
