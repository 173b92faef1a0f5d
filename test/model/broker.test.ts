// Broker busy: BrokerFastFailure's head-only check every 10 ms answers [TIMEOUT_CLEAN_QUEUE] to heads
// that waited 200 ms, so a steady overload reports 200-209 ms; a stall that freezes the send threads
// and the cleaner reports waits as long as the stall.

import { describe, expect, it } from 'vitest';
import type { RmqEvent } from '../../src/parse/types.js';
import { runScenario, type Fault, type Scenario } from '../../src/model/scenario.js';
import { serverProfile } from '../../src/model/versions.js';
import { client } from './scenarios.js';

const START = Date.UTC(2023, 5, 14, 12, 0, 0);

function busyScenario(faults: Fault[], opts: { clientVersion?: string; brokers?: number } = {}): Scenario {
  const n = opts.brokers ?? 1;
  const v = opts.clientVersion ?? '4.9.4';
  return {
    name: 'broker-busy',
    startEpochMs: START,
    serverVersion: '4.9.4',
    nameServers: [{ addr: '192.168.1.5:9876', host: 'mq-ns' }],
    brokers: Array.from({ length: n }, (_, i) => ({
      name: `broker-${String.fromCharCode(98 + i)}`,
      addr: `192.168.1.${12 + i}:10911`,
      host: `mq-broker-${String.fromCharCode(98 + i)}`,
      sendMessageThreadPoolNums: 1,
    })),
    topics: [{ name: 'TopicFeed' }],
    clients: [
      client('app-feed-01', v, 'random', { topic: 'TopicFeed', sendRatePerSec: 200 }),
      client('app-feed-02', v, 'random', { topic: 'TopicFeed', sendRatePerSec: 200 }),
    ],
    faults,
  };
}

/** busy-reply events as the clients log them (the broker itself logs nothing in 4.x). */
function clientBusy(events: RmqEvent[], reason: string, fromMs: number, toMs: number): RmqEvent[] {
  return events.filter(
    (e) =>
      e.type === 'busy-reply' &&
      e.file.endsWith('/rocketmq_client.log') &&
      e.fields.reason === reason &&
      e.ts! >= START + fromMs &&
      e.ts! < START + toMs,
  );
}

describe('Broker send queue and BrokerFastFailure', () => {
  const seed = 614;

  it(`arrivals above capacity give TIMEOUT_CLEAN_QUEUE replies with waits of 200-209 ms (seed ${seed})`, () => {
    // 1 send thread at 4 ms a put serves 250/s; the two producers offer 400/s for 5 s.
    const r = runScenario(busyScenario([{ atMs: 60000, broker: 'broker-b', overload: { durationMs: 5000, serviceMs: 4 } }]), { seed, untilMs: 80000 });
    const busy = clientBusy(r.events, 'TIMEOUT_CLEAN_QUEUE', 60000, 70000);
    expect(busy.length).toBeGreaterThan(100);
    for (const e of busy) {
      expect(e.fields.waitMs).toBeGreaterThanOrEqual(200);
      expect(e.fields.waitMs).toBeLessThan(210);
      expect(e.fields.code).toBe(2);
      expect(e.fields.brokerAddr).toBe('192.168.1.12:10911');
      expect(e.text).toContain('sendKernelImpl exception, resend at once');
    }
    // 4.9.4 does not retry SYSTEM_BUSY: every busy reply reaches the application.
    const m = Object.values(r.metrics.clients);
    expect(m.reduce((a, c) => a + c.failedSends, 0)).toBe(m.reduce((a, c) => a + c.failedAttempts, 0));
    expect(r.events.some((e) => e.type === 'busy-reply' && e.file.endsWith('/app.log'))).toBe(true);
    // watermark.log shows the head waiting about 200 ms.
    const marks = r.events.filter((e) => e.type === 'watermark' && e.fields.queue === 'Send' && (e.fields.slowMs as number) >= 190);
    expect(marks.length).toBeGreaterThan(0);
    expect(r.metrics.brokers['broker-b'].waitMsMax!).toBeLessThan(210);
  });

  it('a 600 ms broker stall gives waits far above the threshold (400-800 ms)', () => {
    const r = runScenario(busyScenario([{ atMs: 120000, broker: 'broker-b', stall: { durationMs: 600 } }]), { seed, untilMs: 125000 });
    const busy = clientBusy(r.events, 'TIMEOUT_CLEAN_QUEUE', 120000, 125000);
    expect(busy.length).toBeGreaterThan(10);
    const waits = busy.map((e) => e.fields.waitMs as number);
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(200);
    expect(Math.max(...waits)).toBeGreaterThanOrEqual(400);
    expect(Math.max(...waits)).toBeLessThanOrEqual(800);
    // No busy replies outside the stall.
    expect(clientBusy(r.events, 'TIMEOUT_CLEAN_QUEUE', 0, 120000)).toEqual([]);
  });

  it('a put holding the lock > 1 s makes the page cache busy: PCBUSY purge, then REJECTREQUEST at admission', () => {
    const r = runScenario(busyScenario([{ atMs: 90000, broker: 'broker-b', slowPut: { durationMs: 2500 } }]), { seed, untilMs: 95000 });
    const pcbusy = clientBusy(r.events, 'PCBUSY_CLEAN_QUEUE', 90000, 95000);
    const reject = clientBusy(r.events, 'REJECTREQUEST', 90000, 95000);
    expect(pcbusy.length).toBeGreaterThan(0);
    expect(reject.length).toBeGreaterThan(0);
    // The purge drains the queue at the first tick after the lock has been held 1 s.
    expect(Math.min(...pcbusy.map((e) => e.ts!))).toBeGreaterThanOrEqual(START + 91000);
    expect(Math.min(...reject.map((e) => e.ts!))).toBeGreaterThanOrEqual(START + 91000);
    expect(Math.max(...reject.map((e) => e.ts!))).toBeLessThanOrEqual(START + 92510);
    expect(r.events.some((e) => e.type === 'store-slow' && e.fields.costMs === 2500)).toBe(true);
  });

  it('5.3.0+ clients retry SYSTEM_BUSY on another broker; 4.9.4 clients throw it', () => {
    const faults: Fault[] = [{ atMs: 60000, broker: 'broker-b', overload: { durationMs: 5000, serviceMs: 6 } }];
    const old = runScenario(busyScenario(faults, { brokers: 2 }), { seed, untilMs: 70000 });
    const fresh = runScenario(busyScenario(faults, { brokers: 2, clientVersion: '5.3.0' }), { seed, untilMs: 70000 });
    const sum = (r: typeof old, k: 'failedSends' | 'failedAttempts') => Object.values(r.metrics.clients).reduce((a, c) => a + c[k], 0);
    expect(sum(old, 'failedAttempts')).toBeGreaterThan(20);
    expect(sum(old, 'failedSends')).toBe(sum(old, 'failedAttempts'));
    expect(sum(fresh, 'failedAttempts')).toBeGreaterThan(20);
    expect(sum(fresh, 'failedSends')).toBeLessThan(sum(fresh, 'failedAttempts') / 10);
  });

  it('producers outside the scenario fill the queue: a stall within their overload adds its length to the head’s 200 ms', () => {
    // 1 send thread at 2.5 ms a put serves 400/s; the background offers 450/s (the two clients, 2/s
    // more), so the queue stays full and its head near the limit; then the broker stops 500 ms.
    const sc = busyScenario([
      { atMs: 60000, broker: 'broker-b', overload: { durationMs: 10000, serviceMs: 2.5, backgroundPerSec: 450 } },
      { atMs: 65000, broker: 'broker-b', stall: { durationMs: 500 } },
    ]);
    sc.clients.forEach((c) => (c.sendRatePerSec = 1));
    const r = runScenario(sc, { seed, untilMs: 80000 });
    const b = r.metrics.brokers['broker-b'];
    // The background's rejections are the broker's, not the clients'.
    const logged = clientBusy(r.events, 'TIMEOUT_CLEAN_QUEUE', 60000, 71000).length;
    expect(b.busyReplies).toBeGreaterThan(10 * Math.max(1, logged));
    expect(b.waitMsMax!).toBeGreaterThanOrEqual(650);
    expect(b.waitMsMax!).toBeLessThanOrEqual(720);
    // Nothing once the overload is over.
    expect(clientBusy(r.events, 'TIMEOUT_CLEAN_QUEUE', 71000, 80000)).toEqual([]);
    // Without the background the same clients never fill the queue.
    const alone = busyScenario([{ atMs: 60000, broker: 'broker-b', overload: { durationMs: 10000, serviceMs: 2.5 } }]);
    alone.clients.forEach((c) => (c.sendRatePerSec = 1));
    expect(runScenario(alone, { seed, untilMs: 80000 }).metrics.brokers['broker-b'].busyReplies).toBe(0);
  });

  it('a logged send goes to the broker its reply names, when the logs say, and the stall its reply shows holds it', () => {
    // The second stall (65000-65500) starts 189.5 ms after broker-b read the last logged send
    // (64810 + the 0.5 ms network): the backlog's send threads have not reached it, and the
    // stopped cleaner answers it at the stall's end with 689 ms. The first stall (61000-64000)
    // holds the others until it ends; round robin alone would have sent half of them to broker-c,
    // which stores them.
    const sc = busyScenario(
      [
        { atMs: 60000, broker: 'broker-b', overload: { durationMs: 10000, serviceMs: 2.5, backgroundPerSec: 450 } },
        { atMs: 61000, broker: 'broker-b', stall: { durationMs: 3000 } },
        { atMs: 65000, broker: 'broker-b', stall: { durationMs: 500 } },
      ],
      { brokers: 2 },
    );
    sc.clients.forEach((c) => (c.sendRatePerSec = 0));
    const early = [61200, 61500, 62000, 62500, 63000, 63500, 63700];
    sc.clients[0].loggedSends = [{ atMs: 64810, broker: 'broker-b' }, ...early.map((atMs) => ({ atMs, broker: 'broker-b' }))];
    const r = runScenario(sc, { seed, untilMs: 80000 });
    const busy = clientBusy(r.events, 'TIMEOUT_CLEAN_QUEUE', 60000, 71000);
    expect(busy.every((e) => e.fields.brokerAddr === '192.168.1.12:10911')).toBe(true);
    // Read half a millisecond after it was sent (the first one later: its connection is made first).
    const waits = busy.map((e) => e.fields.waitMs as number);
    expect(waits).toHaveLength(early.length + 1);
    expect(waits).toContain(689);
    const held = waits.filter((w) => w !== 689).sort((a, b) => b - a);
    early.forEach((t, i) => expect(Math.abs(held[i] - (64000 - t - 1))).toBeLessThanOrEqual(2));
    expect(busy.find((e) => e.fields.waitMs === 689)!.ts).toBe(START + 65500);
    const m = r.metrics.clients['app-feed-01'];
    expect(m.sends).toBe(early.length + 1);
    expect(m.okSends).toBe(0);
    expect(r.metrics.clients['app-feed-02'].sends).toBe(0);
  });

  it("a busy reply that comes after its send's budget is the client's late response, logged with the wait (4.9.4: two WARN lines; 5.3.3: one, with the channel id)", () => {
    for (const [v, twoLines] of [
      ['4.9.4', true],
      ['5.3.3', false],
    ] as const) {
      // broker-b stops 3500 ms: the requests read meanwhile are answered when it runs again, past
      // the clients' 3000 ms budget (their sends already failed with a timeout). The channel stays
      // open (clientCloseSocketIfTimeout false; with true the close drops the response unread).
      const sc = busyScenario([{ atMs: 120000, broker: 'broker-b', stall: { durationMs: 3500 } }], { clientVersion: v });
      sc.clients.forEach((c) => (c.settings = { ...c.settings, clientCloseSocketIfTimeout: false }));
      const r = runScenario(sc, { seed, untilMs: 125000 });
      const late = clientBusy(r.events, 'TIMEOUT_CLEAN_QUEUE', 123000, 124000).filter((e) => (e.fields.waitMs as number) > 3000);
      expect(late.length, v).toBeGreaterThan(10);
      expect(Math.max(...late.map((e) => e.fields.waitMs as number))).toBeGreaterThanOrEqual(3490);
      for (const e of late) {
        // RemotingCommand.toString of the broker's response: its version is 4.9.4's MQVersion ordinal.
        expect(e.text).toContain(`RemotingCommand [code=2, language=JAVA, version=401, opaque=`);
        // The line after the warning naming the channel (4.x) is that channel's response; 5.2+ print
        // the address after the response on the same line. Either way the reply names its broker.
        expect(e.fields.brokerAddr, e.text).toBe('192.168.1.12:10911');
        if (!twoLines) expect(e.text).toMatch(/but not matched any request, address=192\.168\.1\.12:10911, channelId=[0-9a-f]{8}$/);
      }
      // 4.x: each late busy reply's first line is a late response. 5.2+: one line, read as the busy
      // reply; a late response is then another reply that came too late, read with its address.
      const notMatched = r.events.filter((e) => e.type === 'late-response');
      if (twoLines) expect(notMatched.length, v).toBe(late.length);
      else {
        for (const e of notMatched) {
          expect(e.text).not.toContain('[TIMEOUT_CLEAN_QUEUE]');
          expect(e.fields.addr, e.text).toBe('192.168.1.12:10911');
        }
      }
    }
  });

  it('a put slowed past 500 ms is logged in the words of its version: eclipse up to 4.5.1, elapsed to 4.9.8, CommitLog#putMessage cost in 5.x', () => {
    for (const [version, entry] of [
      ['4.4.0', 'store-slow/not-in-lock-eclipse'],
      ['4.9.4', 'store-slow/not-in-lock-elapsed'],
      ['5.1.4', 'store-slow/commitlog-put-cost'],
    ]) {
      const sc = { ...busyScenario([{ atMs: 60000, broker: 'broker-b', overload: { durationMs: 2000, serviceMs: 600, sdMs: 1 } }]), serverVersion: version };
      const r = runScenario(sc, { seed, untilMs: 62000 });
      const slow = r.events.filter((e) => e.type === 'store-slow' && e.fields.what === 'not-in-lock');
      expect(slow.length, version).toBeGreaterThan(0);
      expect(new Set(slow.map((e) => e.entry)), version).toEqual(new Set([entry]));
    }
  });

  it('send threads by version: 1 up to 4.9.0, min(cores, 4) from 4.9.1', () => {
    expect(serverProfile('4.8.0').sendThreadPoolNums(16)).toBe(1);
    expect(serverProfile('4.9.0').sendThreadPoolNums(16)).toBe(1);
    expect(serverProfile('4.9.1').sendThreadPoolNums(16)).toBe(4);
    expect(serverProfile('5.3.3').sendThreadPoolNums(2)).toBe(2);
  });
});
