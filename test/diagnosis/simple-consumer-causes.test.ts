// A burst of failures of 5.x gRPC SimpleConsumers, which log none (src/diagnosis/simple-consumer-causes.ts):
// named from the broker's pop revive puts of the group's retry topic when the group's instances
// started as SimpleConsumers, its start the revive's creation of that topic less the proxy's
// minInvisibleTimeMillsForRecv, its end unknown. Lines built from the real ones of
// samples/lab/consumer-grpc-simple-failures (rocketmq-client-java 5.0.7, a 5.3.3 broker).
import { describe, expect, it } from 'vitest';
import { simpleConsumerCauses } from '../../src/diagnosis/simple-consumer-causes.js';
import type { EventFields, EventType, RmqEvent } from '../../src/parse/types.js';

const T0 = Date.parse('2026-12-07T13:02:00+08:00');
let line = 0;
const ev = (kind: 'client' | 'broker', host: string, sec: number, type: EventType, fields: EventFields, extra: Partial<RmqEvent> = {}): RmqEvent => ({
  ts: T0 + sec * 1000, host, kind, file: `${host}/x.log`, line: ++line, level: 'INFO', thread: null, logger: null, type, fields, text: '', source: 0, seq: line, ...extra,
});
const start = (host: string, id: string) => ev('client', host, 29, 'startup', { role: 'consumer', group: null }, { entry: 'startup/grpc-simple-consumer', text: `Begin to start the rocketmq simple consumer, clientId=${id}` });
const connected = (id: string) => ev('broker', 'mq-broker-a', 31, 'consumer-changed', { change: 'connected', group: 'CID_STOCK', clientId: id });
const puts = (sec: number, key: string, sum: number, stat = 'TOPIC_PUT_NUMS') => ev('broker', 'mq-broker-a', sec, 'stats', { stat, key, window: 'minute', sum, tps: 0, avgpt: 1 });
const created = (sec: number) => ev('broker', 'mq-broker-a', sec, 'pop-revive', { retryTopic: '%RETRY%CID_STOCK_TopicOrder' }, { thread: 'PopReviveService_5' });
const dlq = (sec: number) => ev('broker', 'mq-broker-a', sec, 'send-to-dlq', { group: 'CID_STOCK', topic: '%RETRY%CID_STOCK_TopicOrder', msgId: `M${sec}`, stored: true });
const BURST = { min: 20, ratePerS: 0.5 };

function run(events: RmqEvent[], logged: string[] = []) {
  const c = simpleConsumerCauses();
  for (const e of events) c.visit(e);
  return c.finish(new Set(logged), BURST);
}

const incident = () => [
  start('app-stock-01', 'vm@19941@0@a'),
  start('app-stock-02', 'vm@19994@0@b'),
  connected('vm@19941@0@a'),
  connected('vm@19994@0@b'),
  puts(60, 'TopicOrder@CID_STOCK', 66, 'GROUP_GET_NUMS'),
  created(91),
  puts(120, '%RETRY%CID_STOCK_TopicOrder', 47),
  puts(120, '%RETRY%CID_STOCK_TopicOrder@CID_STOCK', 47, 'GROUP_GET_NUMS'),
  dlq(122),
  dlq(148),
  puts(180, '%RETRY%CID_STOCK_TopicOrder', 78),
];

describe('SimpleConsumer failures from the broker', () => {
  it('names a burst on the group\'s hosts, from the revive that created the retry topic less 10 s, with no end', () => {
    const [c, ...more] = run(incident());
    expect(more).toEqual([]);
    expect(c).toMatchObject({ kind: 'consume-failures', host: 'app-stock-01', group: 'CID_STOCK', start: T0 + 81_000, end: null, simpleConsumer: true });
    expect(c.recognisedBy).toContain('125 deliveries');
    expect(c.recognisedBy).toContain('2 messages');
    expect(c.detail).toContain('on app-stock-01, app-stock-02');
    expect(c.detail).toContain('the end is not in the logs');
    expect(c.evidence).toEqual(['mq-broker-a/x.log:6', 'mq-broker-a/x.log:7', 'mq-broker-a/x.log:9', 'mq-broker-a/x.log:10']);
  });

  it('without the creation line, starts at the first stats minute with puts', () => {
    const [c] = run(incident().filter((e) => e.type !== 'pop-revive'));
    expect(c.start).toBe(T0 + 60_000);
    expect(c.detail).toContain('from the first stats minute with puts');
  });

  it('names nothing under 20 puts, for a group whose clients logged failures (a PushConsumer\'s), or whose instances are no SimpleConsumers', () => {
    const few = incident().map((e) => (e.type === 'stats' && e.fields.key === '%RETRY%CID_STOCK_TopicOrder' ? { ...e, fields: { ...e.fields, sum: 9 } } : e));
    expect(run(few)).toEqual([]);
    expect(run(incident(), ['CID_STOCK'])).toEqual([]);
    expect(run(incident().filter((e) => e.entry !== 'startup/grpc-simple-consumer'))).toEqual([]);
  });

  it('does not take a topic creation on another thread for a pop revive', () => {
    const [c] = run(incident().map((e) => (e.type === 'pop-revive' ? { ...e, thread: 'AdminBrokerThread_1' } : e)));
    expect(c.start).toBe(T0 + 60_000);
  });
});
