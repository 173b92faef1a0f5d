import { describe, expect, it } from 'vitest';
import type { RmqEvent, SourceAccounting } from '../../src/parse/types.js';
import { FLOW_LINES_KEPT, KEEP_CAP, collect, collector } from '../../src/diagnosis/collect.js';
import { sourceOf } from './sources.js';

const T0 = Date.parse('2024-05-20T14:00:00+08:00');

function ev(p: Partial<RmqEvent> & { at: number }): RmqEvent {
  return {
    ts: T0 + p.at,
    host: 'h',
    kind: 'broker',
    file: 'h/broker.log',
    line: 1,
    level: 'INFO',
    thread: 'main',
    logger: null,
    type: 'other',
    fields: {},
    text: 'x',
    source: 0,
    seq: 0,
    ...p,
  } as RmqEvent;
}

const sources = (): SourceAccounting[] =>
  (['broker', 'namesrv', 'client'] as const).map((kind) => sourceOf(`${kind === 'client' ? 'app' : 'h'}/${kind}.log`, kind === 'client' ? 'app' : kind === 'namesrv' ? 'ns' : 'h', kind));

/** A day of a broker that re-registers, accepts connections and logs producer connections all along. */
function* steadyDay(n: number): Generator<RmqEvent> {
  for (let i = 0; i < n; i++) {
    const at = i * 1000;
    yield ev({ at, type: 'broker-registered', fields: { namesrvAddr: '10.0.0.1:9876', brokerAddr: '10.0.0.2:10911' } });
    yield ev({ at, host: 'ns', kind: 'namesrv', file: 'ns/namesrv.log', type: 'pipeline', fields: { side: 'server', event: 'active', addr: `10.0.1.${i % 250}:5000${i % 10}` } });
    yield ev({ at, text: `2024-05-20 14:00:00 INFO NettyServerCodecThread_1 - new producer connected, group: P, channel: [id: 0x1, L:/10.0.0.2:10911 - R:/10.0.1.${i % 250}:40000]` });
    yield ev({ at, host: 'app', kind: 'client', file: 'app/client.log', type: 'send-attempt-failed', fields: { brokerName: 'broker-a', rtMs: 3001 } });
    if (i === n - 100) yield ev({ at, host: 'app', kind: 'client', file: 'app/client.log', type: 'namesrv-chosen', fields: { old: null, new: '10.0.0.1:9876' } });
  }
}

describe('collect keeps a bounded summary of the timeline', () => {
  it('keeps the few registrations, accepted connections and producer connections inference reads, and caps the rest', () => {
    const n = 60000;
    const c = collect(steadyDay(n), sources(), '', T0, T0 + n * 1000);
    const byType = (t: string) => c.events.filter((e) => e.type === t);
    expect(byType('broker-registered')).toHaveLength(3);
    // only the accepted connections within 2 s of the client choosing a NameServer
    const accepts = byType('pipeline');
    expect(accepts.length).toBeGreaterThanOrEqual(3);
    expect(accepts.length).toBeLessThanOrEqual(5);
    expect(accepts.every((e) => Math.abs(e.ts! - (T0 + (n - 100) * 1000)) <= 2000)).toBe(true);
    expect(c.producerLinks).toHaveLength(1);
    expect(byType('send-attempt-failed')).toHaveLength(KEEP_CAP);
    expect(c.dropped.get('send-attempt-failed app')).toBe(n - KEEP_CAP);
  });

  it('keeps what inference reads only near something else only there: timeouts in silences (a client’s counted all along), slow puts beside busy replies, the first failed registrations per NameServer', () => {
    const src = sources();
    // the broker host h wrote nothing from 100 s to 200 s
    src[0].activity = { records: 2, first: { ts: T0, line: 1 }, last: { ts: T0 + 300000, line: 3 }, gaps: [{ from: { ts: T0 + 100000, line: 1 }, to: { ts: T0 + 200000, line: 2 } }], gapsDropped: 0 };
    const client = { host: 'app', kind: 'client' as const, file: 'app/client.log' };
    const day = function* (): Generator<RmqEvent> {
      for (let at = 0; at < 300000; at += 10000) {
        yield ev({ at, ...client, type: 'rpc-timeout', entry: 'rpc-timeout/invoke-sync-wait', fields: { addr: '10.0.0.2:10911', timeoutMs: 3000 } });
        yield ev({ at, host: 'ns', kind: 'namesrv', file: 'ns/namesrv.log', type: 'rpc-timeout', fields: { addr: '10.0.0.2:10911' } });
        yield ev({ at, type: 'register-failed', fields: { namesrvAddr: at % 20000 ? '10.0.0.1:9876' : '10.0.0.3:9876' } });
        yield ev({ at: at + 500, kind: 'store', file: 'h/store.log', type: 'store-slow', fields: { what: 'in-lock', costMs: 600 } });
        if (at === 250000) yield ev({ at: at + 1500, ...client, type: 'busy-reply', fields: { reason: 'TIMEOUT_CLEAN_QUEUE', waitMs: 400 } });
      }
    };
    const c = collect(day(), src, '', T0, T0 + 300000);
    const at = (type: string, host?: string) => c.events.filter((e) => e.type === type && (host === undefined || e.host === host)).map((e) => (e.ts! - T0) / 1000);
    // another host's timeouts during h's silence (and up to 10 s after it), every one of the client's counted
    expect(at('rpc-timeout', 'app')).toEqual([110, 120, 130, 140, 150, 160, 170, 180, 190, 200, 210]);
    expect(at('rpc-timeout', 'ns')).toEqual([110, 120, 130, 140, 150, 160, 170, 180, 190, 200, 210]);
    expect(c.syncTimeouts.get('app')).toHaveLength(30);
    // the slow puts within 2 s of the busy reply (at 251.5 s): before it, and after it
    expect(at('store-slow')).toEqual([250.5]);
    // h's own failed registrations: never in its own silence; the first three for each address
    expect(at('register-failed')).toEqual([0, 10, 20, 30, 40, 50]);
  });

  it("keeps each registration a NameServer answered again after failed ones, with the last failure before it, however many registrations there were (a partition's heal: infer/faults.ts)", () => {
    const day = function* (): Generator<RmqEvent> {
      for (let at = 0; at < 600000; at += 30000) {
        // registrations with 10.0.0.1 fail from 120 s to 210 s, then are answered again; 10.0.0.3 never fails
        const failing = at >= 120000 && at <= 210000;
        yield ev({ at, type: failing ? 'register-failed' : 'broker-registered', fields: { namesrvAddr: '10.0.0.1:9876' } });
        yield ev({ at, type: 'broker-registered', fields: { namesrvAddr: '10.0.0.3:9876' } });
      }
    };
    const c = collect(day(), sources(), '', T0, T0 + 600000);
    expect(c.registrationsBack.map((x) => [x.failed.type, (x.failed.ts! - T0) / 1000, x.ok.type, (x.ok.ts! - T0) / 1000, x.ok.fields.namesrvAddr])).toEqual([
      ['register-failed', 210, 'broker-registered', 240, '10.0.0.1:9876'],
    ]);
    // the registrations themselves: still the first three per NameServer
    expect(c.events.filter((e) => e.type === 'broker-registered')).toHaveLength(6);
  });

  it('keeps a route dump’s text the first three times a client logs it for its topic, and every new dump', () => {
    const dump = (brokers: string[]) =>
      `old[TopicRouteData [queueDatas=[], brokerDatas=[]]], new[TopicRouteData [queueDatas=[${brokers.map((b) => `QueueData [brokerName=${b}, readQueueNums=4, writeQueueNums=4, perm=6]`).join(', ')}]]]`;
    // A route that flaps between two states all day, and a third state once at the end.
    const flapping = function* (): Generator<RmqEvent> {
      for (let i = 0; i < 200; i++) {
        const brokers = i % 2 ? ['broker-a'] : ['broker-a', 'broker-b'];
        yield ev({ at: i * 1000, host: 'app', kind: 'client', file: 'app/client.log', type: 'route-changed', fields: { topic: 'T' }, text: `2024-05-20 14:00:${i} INFO - the topic[T] route info changed, ${dump(brokers)}` });
      }
      yield ev({ at: 300000, host: 'app', kind: 'client', file: 'app/client.log', type: 'route-changed', fields: { topic: 'T' }, text: `2024-05-20 14:05:00 INFO - the topic[T] route info changed, ${dump(['broker-c'])}` });
      // The same dump for another topic is another route.
      yield ev({ at: 301000, host: 'app', kind: 'client', file: 'app/client.log', type: 'route-changed', fields: { topic: 'U' }, text: `2024-05-20 14:05:01 INFO - the topic[U] route info changed, ${dump(['broker-a'])}` });
    };
    const c = collect(flapping(), sources(), '', T0, T0 + 400000);
    const routes = c.events.filter((e) => e.type === 'route-changed');
    expect(routes).toHaveLength(202);
    const withText = routes.filter((e) => e.text !== '');
    // three of each state (the header's time differs, the dump does not), the third state, the other topic
    expect(withText.map((e) => e.ts! - T0)).toEqual([0, 1000, 2000, 3000, 4000, 5000, 300000, 301000]);
  });

  it('shares the lists of names that repeat from event to event and drops what inference never reads', () => {
    const fails = function* (): Generator<RmqEvent> {
      for (let i = 0; i < 3; i++) {
        // each event with lists of its own, as the parser makes them
        yield ev({ at: i, host: 'app', kind: 'client', file: 'app/client.log', type: 'route-changed', fields: { topic: 'T', brokersAfter: ['broker-a', 'broker-b'], writableAfter: i < 2 ? ['broker-a'] : ['broker-b'] } });
        yield ev({ at: i, host: 'app', kind: 'client', file: 'app/client.log', type: 'send-attempt-failed', fields: { invokeId: String(1000 + i), brokerName: 'broker-a', rtMs: 3001 }, text: 'a whole line' });
      }
    };
    const c = collect(fails(), sources(), '', T0, T0 + 10);
    const routes = c.events.filter((e) => e.type === 'route-changed');
    const failed = c.events.filter((e) => e.type === 'send-attempt-failed');
    expect(failed.map((e) => e.fields)).toEqual([0, 1, 2].map(() => ({ brokerName: 'broker-a', rtMs: 3001 })));
    expect(failed.every((e) => e.text === '')).toBe(true);
    expect(routes.map((e) => e.fields.writableAfter)).toEqual([['broker-a'], ['broker-a'], ['broker-b']]);
    expect(routes[0].fields.brokersAfter).toBe(routes[2].fields.brokersAfter);
    expect(routes[0].fields.writableAfter).toBe(routes[1].fields.writableAfter);
    expect(routes[1].fields.writableAfter).not.toBe(routes[2].fields.writableAfter);
  });

  it('keeps a busy watermark line and a broker\'s minute of puts without their text, as the events (inference reads their times and cites file:line)', () => {
    const lines = function* (): Generator<RmqEvent> {
      yield ev({ at: 0, kind: 'watermark', file: 'h/watermark.log', type: 'watermark', fields: { queue: 'Send', slowMs: 400 }, text: '[WATERMARK] Send: 12 SlowTimeMills: 400' });
      yield ev({ at: 1, kind: 'stats', file: 'h/stats.log', type: 'stats', fields: { stat: 'TOPIC_PUT_NUMS', key: 'T', window: 'minute', sum: 60 }, text: '[TOPIC_PUT_NUMS] [T] Stats In One Minute, SUM: 60' });
    };
    const c = collect(lines(), sources(), '', T0, T0 + 10);
    const [mark] = c.watermarkHigh.get('h')!;
    const [put] = c.topicPuts;
    expect([mark.file, mark.line, mark.ts, mark.fields.slowMs, mark.text]).toEqual(['h/watermark.log', 1, T0, 400, '']);
    expect([put.event.file, put.event.ts, put.sum, put.event.text]).toEqual(['h/stats.log', T0 + 1, 60, '']);
  });

  it('keeps every send time of an application unless told not to (analyze reads the counts only)', () => {
    const src: SourceAccounting[] = [{ ...sources()[2], path: 'app/app.log', kind: 'app' }];
    const sends = () => [0, 10, 20].map((at) => ev({ at, host: 'app', kind: 'app', file: 'app/app.log', level: 'INFO', text: `send ok msgId=7F00000100002A9F0000000000000${at} SEND_OK` }));
    const replay = collector(src, '', T0, T0 + 100);
    const counts = collector(src, '', T0, T0 + 100, { sendTimes: false });
    for (const e of sends()) {
      replay.visit(e);
      counts.visit(e);
    }
    expect(replay.finish().appSends.get('app')).toMatchObject({ count: 3, times: [T0, T0 + 10, T0 + 20] });
    expect(counts.finish().appSends.get('app')).toMatchObject({ count: 3, times: null });
  });

  it("keeps a client's failed deliveries as rows, and the first three of each group and reconsumeTimes as events to cite", () => {
    const c = collector([sources()[2]], '', T0, T0 + 1_000_000);
    const failed = (at: number, reconsumeTimes: number, thrown: boolean, group: string | null = 'CID') =>
      ev({ at, host: 'app', kind: 'client', file: 'app/client.log', line: at + 1, type: 'consume-failed', entry: thrown ? 'consume-failed/exception' : 'consume-failed/return-later', fields: { group, reconsumeTimes } } as Partial<RmqEvent> & { at: number });
    for (let i = 0; i < 10; i++) c.visit(failed(i * 100, i < 6 ? 0 : 1, i % 2 === 0));
    c.visit(failed(2000, 0, true, null));
    const out = c.finish();
    expect(out.events.filter((e) => e.type === 'consume-failed')).toEqual([]);
    const rows = out.consumeFailures.get('app')!;
    expect(rows).toHaveLength(11);
    expect(rows[0]).toEqual({ ts: T0, group: 'CID', thrown: true, reconsumeTimes: 0 });
    expect(rows[7]).toEqual({ ts: T0 + 700, group: 'CID', thrown: false, reconsumeTimes: 1 });
    expect(rows[10]).toMatchObject({ group: null });
    // Three of reconsumeTimes 0, three of 1, the one without a group.
    expect(out.consumeFailureLines.map((e) => e.line)).toEqual([1, 101, 201, 601, 701, 801, 2001]);
  });

  it("keeps a client's consume statistics as one row of figures per host, key and minute, not as events, and at most KEEP_CAP lines per host and statistic", () => {
    const c = collector([sources()[2]], '', T0, T0 + 30 * 86_400_000);
    const stat = (min: number, stat: string, fields: Record<string, unknown>, line: number) =>
      ev({ at: min * 60000 + 1, host: 'app', kind: 'client', file: 'app/client.log', line, type: 'stats', fields: { stat, key: 'TopicPay@GroupPay', window: 'minute', ...fields } } as Partial<RmqEvent> & { at: number });
    const minutes = KEEP_CAP + 100;
    for (let i = 0; i < minutes; i++) {
      c.visit(stat(i, 'CONSUME_RT', { sum: 24000, times: 1200, avgpt: 20 }, 3 * i + 1));
      c.visit(stat(i, 'CONSUME_OK_TPS', { sum: 1190 }, 3 * i + 2));
      c.visit(stat(i, 'CONSUME_FAILED_TPS', { sum: 10 }, 3 * i + 3));
    }
    const out = c.finish();
    expect(out.events.filter((e) => e.type === 'stats')).toEqual([]);
    expect(out.consumeStats).toHaveLength(KEEP_CAP);
    expect(out.consumeStats[1]).toMatchObject({ host: 'app', key: 'TopicPay@GroupPay', at: T0 + 60000, file: 'app/client.log', line: 4, times: 1200, rtSum: 24000, ok: 1190, failed: 10, rtLine: 4, whole: false });
    expect(out.dropped.get('stats app CONSUME_RT')).toBe(100);
    // The older wording (no TIMES): the calls are the total over the average.
    const older = collector([sources()[2]], '', T0, T0 + 1_000_000);
    older.visit(stat(0, 'CONSUME_RT', { sum: 3000, avgpt: 25 }, 1));
    expect(older.finish().consumeStats[0]).toMatchObject({ times: 120, rtSum: 3000, ok: 0, rtLine: 1 });
  });

  it("reads every flow-control warning of a client for its minute, and keeps FLOW_LINES_KEPT of them per host as lines (the first of each group and its first threshold besides)", () => {
    const c = collector([sources()[2]], '', T0, T0 + 30 * 86_400_000);
    const flow = (at: number, group: string | null, limit: string, line: number) =>
      ev({ at, host: 'app', kind: 'client', file: 'app/client.log', line, type: 'flow-control', fields: { group, limit, ...(limit === 'count' ? { threshold: 1000, count: 1001 } : {}) } } as Partial<RmqEvent> & { at: number });
    // A week of warnings, two a minute (one at the minute's end itself), of the size limit; then a count one, and one of another group.
    const minutes = 7 * 1440;
    let line = 0;
    for (let i = 0; i < minutes; i++) {
      c.visit(flow(i * 60000 + 1, 'CID', 'size', ++line));
      c.visit(flow((i + 1) * 60000, 'CID', 'size', ++line));
    }
    c.visit(flow(minutes * 60000 + 5, 'CID', 'count', ++line));
    c.visit(flow(minutes * 60000 + 6, 'OTHER', 'size', ++line));
    const out = c.finish();
    const lines = out.events.filter((e) => e.type === 'flow-control');
    // The first FLOW_LINES_KEPT, then CID's first of the count limit (it prints the threshold) and the first of OTHER.
    expect(lines.map((e) => e.line)).toEqual([...Array.from({ length: FLOW_LINES_KEPT }, (_, i) => i + 1), 2 * minutes + 1, 2 * minutes + 2]);
    expect(out.flowLinesLeft.get('app')).toBe(2 * minutes - FLOW_LINES_KEPT);
    const [cid, other] = out.flowWarnings;
    expect(cid).toMatchObject({ host: 'app', group: 'CID', left: 0, threshold: true });
    expect(cid.first).toBe(lines[0]);
    // Each minute once, by its end: both warnings of minute i fall in the minute that ends at (i + 1) min.
    expect(cid.minutes).toHaveLength(minutes + 1);
    expect(cid.minutes.slice(0, 2)).toEqual([T0 + 60000, T0 + 120000]);
    expect(cid.minutes[minutes]).toBe(T0 + (minutes + 1) * 60000);
    expect(other).toMatchObject({ group: 'OTHER', minutes: [T0 + (minutes + 1) * 60000] });
    expect(out.dropped.size).toBe(0);
  });
});

describe('silences come from the sources’ activity', () => {
  it('a broker host silent while the client logged: its last registration before it, and what others wrote', () => {
    const src = sources();
    // broker.log of host h: a record every second to 60 s, then nothing until 200 s.
    src[0].activity = { records: 62, first: { ts: T0, line: 1 }, last: { ts: T0 + 200000, line: 62 }, gaps: [{ from: { ts: T0 + 60000, line: 61 }, to: { ts: T0 + 200000, line: 62 } }], gapsDropped: 0 };
    // The NameServer on host ns wrote all along.
    src[1].activity = { records: 300, first: { ts: T0, line: 1 }, last: { ts: T0 + 299000, line: 300 }, gaps: [], gapsDropped: 0 };
    const reg = (at: number) => ev({ at, type: 'broker-registered', fields: { namesrvAddr: '10.0.0.1:9876', brokerAddr: '10.0.0.2:10911' } });
    const events = [reg(30000), reg(59000), ev({ at: 90000, host: 'app', kind: 'client', file: 'app/client.log', type: 'rpc-timeout', fields: { addr: '10.0.0.2:10911' } }), reg(201000)];
    const c = collect(events, src, '', T0, T0 + 220000);
    expect(c.silences).toHaveLength(1);
    const s = c.silences[0];
    expect(s.host).toBe('h');
    expect([s.from.ts, s.from.file, s.from.line]).toEqual([T0 + 60000, 'h/broker.log', 61]);
    expect([s.to?.ts, s.to?.line]).toEqual([T0 + 200000, 62]);
    // the NameServer's log and the client's timeout
    expect(s.othersLogged).toBe(2);
    expect(s.lastRegistration?.ts).toBe(T0 + 59000);
    expect(c.serverLines.get('h')).toEqual({ count: 62, first: T0, last: T0 + 200000 });
  });

  describe('a silence of 10-30 s is kept only as a stop before a boot', () => {
    // broker.log of host h written every second to 40 s, then from 61 s (21 s of silence); the
    // NameServer on ns all along; a client's timeout against h's broker during it.
    const shortRun = (after: RmqEvent[]) => {
      const src = sources();
      src[0].activity = { records: 100, first: { ts: T0, line: 1 }, last: { ts: T0 + 120000, line: 100 }, gaps: [], gapsDropped: 0, shortGaps: [{ from: { ts: T0 + 40000, line: 41 }, to: { ts: T0 + 61000, line: 42 } }] };
      src[1].activity = { records: 120, first: { ts: T0, line: 1 }, last: { ts: T0 + 120000, line: 120 }, gaps: [], gapsDropped: 0 };
      const wm = (at: number) => ev({ at, type: 'watermark', fields: { queue: 'Send', size: 0, slowMs: 0 } });
      const timeout = ev({ at: 50000, host: 'app', kind: 'client', file: 'app/client.log', line: 7, type: 'rpc-timeout', fields: { addr: '10.0.0.2:10911', timeoutMs: 3000 } });
      return collect([wm(39000), wm(40000), timeout, ...after, wm(70000)], src, '', T0, T0 + 120000);
    };
    const boot = (at: number) => ev({ at, type: 'startup', fields: { role: 'broker', brokerName: 'broker-a', brokerAddr: '10.0.0.2:10911', version: null, group: null } });

    it('a boot with no shutdown hook within 20 s of its end: the host stopped at its last line, and the peers’ timeouts in it are kept', () => {
      const c = shortRun([boot(66000)]);
      expect(c.silences.map((s) => [s.host, s.from.ts! - T0, s.to!.ts! - T0])).toEqual([['h', 40000, 61000]]);
      expect(c.events.some((e) => e.type === 'rpc-timeout' && e.host === 'app')).toBe(true);
    });

    it('no boot (a pause that resumed), or a boot after a shutdown hook (a restart): no silence, and the peers’ timeouts in it are left out as before', () => {
      for (const after of [[], [ev({ at: 40000, type: 'shutdown', fields: { role: 'broker' } }), boot(66000)]]) {
        const c = shortRun(after);
        expect(c.silences).toEqual([]);
        expect(c.events.some((e) => e.type === 'rpc-timeout' && e.host === 'app')).toBe(false);
      }
    });
  });

  it('a silence past the end of what is read lasts to the end', () => {
    const src = sources();
    src[0].activity = { records: 3, first: { ts: T0, line: 1 }, last: { ts: T0 + 400000, line: 3 }, gaps: [{ from: { ts: T0 + 10000, line: 2 }, to: { ts: T0 + 400000, line: 3 } }], gapsDropped: 0 };
    const c = collect([], src, '', T0, T0 + 100000);
    expect(c.silences.map((s) => [s.from.ts, s.to])).toEqual([[T0 + 10000, null]]);
  });
});
