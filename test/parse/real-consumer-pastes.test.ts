// The consumer side of the real pastes (test/fixtures/real 93-153, sources in its SOURCES.md): per
// paste, the consumer events an engineer needs from it, its line, type and key fields, written from
// the text of each excerpt. The consumer types only: the other events of a paste are the producer
// tests' (real-pastes.test.ts). Where no consumer event is right (141), the case says so.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SourceParser } from '../../src/parse/parser.js';
import { parseZone } from '../../src/parse/time.js';
import type { EventType, RmqEvent } from '../../src/parse/types.js';

const REAL = join(__dirname, '..', 'fixtures', 'real');

/** The consumer-side types, store-sync for a broker's replication (HA) and dledger for its elections. */
const CONSUMER: ReadonlySet<EventType> = new Set<EventType>([
  'consume-failed',
  'send-back-failed',
  'send-to-dlq',
  'pull-failed',
  'flow-control',
  'rebalance',
  'lock-failed',
  'offset-illegal',
  'offset-reset',
  'consumer-changed',
  'offset-commit',
  'store-sync',
  'dledger',
]);

function parse(name: string) {
  const events: RmqEvent[] = [];
  const p = new SourceParser(
    { file: name, host: 'h', sourceIndex: 0, kindHint: null, kindForced: false, defaultZone: parseZone('+08:00') },
    (e) => events.push(e),
  );
  const lines = readFileSync(join(REAL, name), 'utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  lines.forEach((l, i) => p.line(l.endsWith('\r') ? l.slice(0, -1) : l, i + 1));
  const acc = p.end();
  return { events, acc };
}

const file = (nn: number) => {
  const f = readdirSync(REAL).find((x) => x.startsWith(`${nn}-`));
  if (f === undefined) throw new Error(`no fixture ${nn}`);
  return f;
};

type Want = [line: number, type: EventType, fields: Record<string, unknown>];

/** The paste's consumer events are exactly these, in order: line, type, and the fields named. */
function expectConsumerEvents(nn: number, want: Want[]): RmqEvent[] {
  const got = parse(file(nn)).events.filter((e) => CONSUMER.has(e.type));
  expect(
    got.map((e) => [e.line, e.type]),
    file(nn),
  ).toEqual(want.map(([l, t]) => [l, t]));
  want.forEach(([, , fields], i) => expect(got[i].fields, `${file(nn)}:${got[i].line}`).toMatchObject(fields));
  return got;
}

const iso = (e: RmqEvent) => (e.ts === null ? null : new Date(e.ts).toISOString());
const MQ = (topic: string, brokerName: string, queueId: number) => ({ topic, brokerName, queueId });

describe('Java 3.x (com.alibaba.rocketmq) consumer pastes', () => {
  it('93: the orderly listener throws, then returns not OK for the same message', () => {
    const [thrown, notOk] = expectConsumerEvents(93, [
      [1, 'consume-failed', { returnType: 'EXCEPTION', group: 'GolukConsumerGroup', ...MQ('Message', 'broker-a', 0), reconsumeTimes: 0 }],
      [2, 'consume-failed', { returnType: 'FAILED', group: 'GolukConsumerGroup', topic: 'Message', reconsumeTimes: 0 }],
    ]);
    expect(thrown.fields.cause).toContain('java.lang.StackOverflowError');
    expect(thrown.fields.msgIds).toEqual(notOk.fields.msgIds);
    expect(iso(thrown)).toBe('2016-05-10T12:19:31.318Z');
  });

  it('95: a pull of adjsms queue 2 at 15619 is answered OFFSET_ILLEGAL (the queue ends at 7358); adjpush commits 87', () => {
    expectConsumerEvents(95, [
      [5, 'offset-illegal', { status: 'OFFSET_ILLEGAL', group: 'adjsms', ...MQ('adjsms', 'broker-1', 2), offset: 15619, nextBeginOffset: 0, minOffset: 0, maxOffset: 7358 }],
      [7, 'offset-commit', { ok: true, group: 'adjpush', clientId: '121.43.59.215@1148', ...MQ('adjpush', 'broker-1', 2), offset: 87 }],
    ]);
  });

  it('97: the 3.5.8 slave moves consumers that ask past its end (the master was killed)', () => {
    const moved = { status: 'PULL_OFFSET_MOVED', group: 'CID_SERVER_APPLICATION_CREATED_test', topic: 'goeasy_test' };
    expectConsumerEvents(97, [
      [1, 'offset-illegal', { status: 'OFFSET_OVERFLOW_BADLY', offset: 101254, maxOffset: 7157, addr: '192.168.31.51:33411' }],
      [2, 'offset-illegal', { ...moved, offset: 101254 }],
      [3, 'offset-illegal', { status: 'OFFSET_OVERFLOW_BADLY', offset: 102309, maxOffset: 7361, addr: '192.168.31.51:33411' }],
      [4, 'offset-illegal', { ...moved, offset: 102309 }],
    ]);
  });

  it('99: the broker refuses a pull of an unknown group (code 24); its folded response dump is no second refusal', () => {
    expectConsumerEvents(99, [[1, 'pull-failed', { reason: 'SUBSCRIPTION_NOT_EXIST', group: 'TmpConsumer0406_3' }]]);
  });
});

describe('Java 4.x and 5.x remoting client consumer pastes', () => {
  it('101: the listener throws on a message redelivered from the retry topic (9th time); thread and logger read', () => {
    const { acc, events } = parse(file(101));
    expect(acc.layout).toBe('thread-logger-line');
    expect(events[0]).toMatchObject({ thread: 'ConsumeMessageThread_1', logger: 'RocketmqClient', level: 'WARN' });
    const [e] = expectConsumerEvents(101, [
      [
        1,
        'consume-failed',
        { returnType: 'EXCEPTION', group: 'CG-creation-video_key_produce_event_message', ...MQ('%RETRY%CG-creation-video_key_produce_event_message', 'broker-2', 0), reconsumeTimes: 9 },
      ],
    ]);
    expect(e.fields.cause).toContain('java.lang.NullPointerException');
    expect(e.fields.msgIds).toHaveLength(1);
  });

  it('103: every pull fails with CODE: 24, the group is not on the broker', () => {
    expectConsumerEvents(103, [[1, 'pull-failed', { reason: 'SUBSCRIPTION_NOT_EXIST', code: 24 }]]);
  });

  it('105: the connect worker pulls with a group the broker does not have (CODE: 26)', () => {
    expectConsumerEvents(105, [[1, 'pull-failed', { reason: 'SUBSCRIPTION_GROUP_NOT_EXIST', code: 26, group: 'StatusManage-DEFAULT_WORKER_1' }]]);
  });

  it('111: the lite pull consumer has no committed offset for queues 3 and 2', () => {
    expectConsumerEvents(111, [
      [1, 'offset-illegal', { status: 'NO_OFFSET', ...MQ('TopicTest', 'broker-a', 3), offset: -1 }],
      [2, 'offset-illegal', { status: 'NO_OFFSET', ...MQ('TopicTest', 'broker-a', 2), offset: -1 }],
    ]);
  });

  it('145: a pull refused as CODE: 25 (subscription not latest), in an application layout read with its thread', () => {
    const { acc, events } = parse(file(145));
    expect(acc.layout).toBe('level-dash-thread-pipe');
    expect(events[0]).toMatchObject({ thread: 'NettyClientPublicExecutor_2', logger: 'RocketmqClient' });
    expect(iso(events[0])).toBe('2018-07-18T02:26:55.092Z');
    expectConsumerEvents(145, [[1, 'pull-failed', { reason: 'SUBSCRIPTION_NOT_LATEST', code: 25 }]]);
  });

  it('107: 4.7.1 lite pull: two threads cancel the pull task of the same queue at once', () => {
    const q = MQ('t', 'rmq-b5', 3);
    expectConsumerEvents(107, [
      [1, 'rebalance', { action: 'cancelled', ...q }],
      [2, 'rebalance', { action: 'cancelled', ...q }],
    ]);
  });

  it('109: SeaTunnel: three offsets committed, then the broker tells the group it changed, five times; its layout read after the trace id', () => {
    const { acc, events } = parse(file(109));
    expect(acc).toMatchObject({ layout: 'logger-thread-brackets', records: 8, unknown: 0 });
    expect(events[0]).toMatchObject({ logger: 'RocketmqClient', thread: 'RocketMq Source Data Consumer' });
    const group = 'b2c_front_track_report_group';
    const committed = (l: number, queueId: number, offset: number): Want => [l, 'offset-commit', { ok: true, group, topic: 'b2c_front_track_report', brokerName: 'broker-g0', queueId, offset }];
    expectConsumerEvents(109, [
      committed(1, 3, 4725),
      committed(2, 5, 4708),
      committed(3, 12, 4650),
      ...[4, 5, 6, 7, 8].map((l): Want => [l, 'rebalance', { action: 'notified', group }]),
    ]);
  });

  it('113: 5.1 pop consumer: the broker notifies the group change twice', () => {
    expectConsumerEvents(113, [
      [1, 'rebalance', { action: 'notified', group: 'CID_JODIE_1' }],
      [6, 'rebalance', { action: 'notified', group: 'CID_JODIE_1' }],
    ]);
  });

  it('149: the lite pull consumer holds back on its request cache (the line misprints its arguments)', () => {
    // `threshold 101` is the cache's size and `count=1` the flow-control count (two arguments for three placeholders).
    expectConsumerEvents(149, [[1, 'flow-control', { limit: 'consume-request', count: 101, flowControlTimes: 1, threshold: null }]]);
  });

  it('151, 153: a consumer subscribing by SQL92 refused at its start, the broker`s property filter off (a bare exception line; a Spring Boot console)', () => {
    const refused = { reason: 'FILTER_NOT_SUPPORTED', code: 1, expressionType: 'SQL92' };
    expectConsumerEvents(151, [[1, 'pull-failed', refused]]);
    // The FAQ line is the first record's; the binder's retry names no RocketMQ event.
    expectConsumerEvents(153, [[1, 'pull-failed', refused]]);
  });
});

describe('broker side: the book of consumers, replication', () => {
  it('115: the slave finds its HA connection to the master expired and closes it', () => {
    expectConsumerEvents(115, [
      [2, 'store-sync', { status: 'HA_CONNECTION_EXPIRED', addr: '146.196.79.10:10912' }],
      [3, 'store-sync', { status: 'HA_MASTER_NOT_RESPONDING' }],
    ]);
  });

  it('117: the slave says the master pushed an offset it does not hold', () => {
    expectConsumerEvents(117, [[2, 'store-sync', { status: 'SLAVE_OFFSET_MISMATCH' }]]);
  });

  it('119: DLedger: n0 misses n1`s heartbeat, stands for term 116, votes for itself, n2 has voted already', () => {
    expectConsumerEvents(119, [
      [3, 'dledger', { event: 'HeartBeatTimeOut', member: 'n0', leader: 'n1' }],
      [4, 'dledger', { event: 'ChangeRoleToCandidate', member: 'n0', term: 115 }],
      [5, 'dledger', { event: 'INCREASE_TERM', member: 'n0', term: 116 }],
      [6, 'dledger', { event: 'GetVoteResponse', term: 116, peer: 'n0', result: 'ACCEPT', group: 'RaftNode00' }],
      [7, 'dledger', { event: 'GetVoteResponse', term: 116, peer: 'n2', result: 'REJECT_ALREADY_VOTED', group: 'RaftNode00' }],
    ]);
  });

  it('121: DLedger leader n0: pushes to n1 fail on the network, then as repeated pushes every second', () => {
    const push = (l: number, result: string): Want => [l, 'dledger', { event: 'PushError', peer: 'n1', term: 2, result, group: 'rocketmq-broker-23' }];
    expectConsumerEvents(121, [push(1, 'NETWORK_ERROR'), push(6, 'REPEATED_PUSH'), push(8, 'REPEATED_PUSH'), push(10, 'REPEATED_PUSH')]);
  });

  it('123: a consumer channel is removed as not active (its folded group unread), and a group goes with its last connection', () => {
    expectConsumerEvents(123, [
      [6, 'consumer-changed', { change: 'channel-removed', addr: 'security.33.65:51290', clientId: 'security.33.65@tp2-perf-mid-mqn0201:9876;tp2-perf-mid-mqn0202:9876;tp2-perf-mid-mqn0203:9876#security.33.65@30053' }],
      [10, 'consumer-changed', { change: 'group-removed', group: 'security-GROUP' }],
    ]);
  });

  it('125: the group is removed with its last consumer, then a consumer connects again', () => {
    expectConsumerEvents(125, [
      [1, 'consumer-changed', { change: 'group-removed', group: 'real_db_consumer_group-dsp_error' }],
      // The clientId as printed: the application's unresolved `${clientIP}` placeholder.
      [2, 'consumer-changed', { change: 'connected', group: 'real_db_consumer_group-dsp_error', addr: '192.168.1.61:56222', clientId: '${clientIP}@26917#5261547777682927' }],
    ]);
  });

  it('147: the broker refuses eight pulls of a group whose members subscribe differently, then a heartbeat changes its subscription', () => {
    const group = 'real_db_consumer_group-dsp_error';
    expectConsumerEvents(147, [
      ...[1, 2, 3, 4, 5, 6, 7, 8].map((l): Want => [l, 'pull-failed', { reason: 'SUBSCRIPTION_NOT_LATEST', group }]),
      // The line is cut before its NEW subscription: the expression after the change is not known.
      [9, 'consumer-changed', { change: 'subscription-changed', group, topic: 'real_bigdata_topic', subString: null }],
    ]);
  });
});

describe('rocketmq-client-go 2.x consumer pastes', () => {
  it('127: a pull refused as the subscription not existing, behind a log console`s `content: `', () => {
    expectConsumerEvents(127, [[1, 'pull-failed', { reason: 'SUBSCRIPTION_NOT_EXIST' }]]);
  });

  it('129: orderly: the broker refuses the lock and the queue is not taken', () => {
    const lockRefused = { group: 'GID_ADX01', ...MQ('ADX', 'broker-a', 1) };
    expectConsumerEvents(129, [
      [1, 'lock-failed', { what: 'lock', ...lockRefused }],
      [2, 'lock-failed', { what: 'add-mq', ...lockRefused }],
    ]);
  });

  it('131: the master is down: a queue cannot be added and the retry topic has no route', () => {
    const got = expectConsumerEvents(131, [
      [5, 'rebalance', { action: 'exception', group: 'slave-test', ...MQ('slave-test', 'rocketmq-broker-0', 2) }],
      [6, 'rebalance', { action: 'topic-not-exist', group: 'slave-test', topic: '%RETRY%slave-test' }],
    ]);
    expect(iso(got[0])).toBe('2022-08-18T07:37:55.000Z');
  });
});

describe('rocketmq-client-cpp consumer pastes (also the Python 2.x client`s log)', () => {
  it('133: the pull request expired, the rebalance drops the queue and commits its offset', () => {
    const [drop] = expectConsumerEvents(133, [
      [3, 'rebalance', { action: 'remove', ...MQ('browser', 'broker-1', 2) }],
      [4, 'offset-commit', { ok: true, ...MQ('browser', 'broker-1', 2), offset: 268305037 }],
    ]);
    expect(iso(drop)).toBe('2020-03-28T00:42:42.124Z');
  });

  it('135: a pull fails, then the rebalance finds no consumer list and drops the queue', () => {
    expectConsumerEvents(135, [
      [1, 'pull-failed', { ...MQ('browser', 'broker-CuhDxsHLYZA-1', 10), addr: '10.10.10.11:10911' }],
      [2, 'pull-failed', { ...MQ('browser', 'broker-CuhDxsHLYZA-1', 10) }],
      [5, 'rebalance', { action: 'no-consumer-ids' }],
      [6, 'rebalance', { action: 'result', topic: 'browser', queues: [] }],
      [7, 'rebalance', { action: 'remove', ...MQ('browser', 'broker-CuhDxsHLYZA-1', 8) }],
    ]);
  });

  it('137: re_dev orderly: every queue locked on the broker is released locally and not taken', () => {
    const q = (n: number) => MQ('321321', 'broker-a', n);
    expectConsumerEvents(137, [
      [1, 'lock-failed', { what: 'add-mq', group: 'myGroup', ...q(1) }],
      [3, 'lock-failed', { what: 'lock', ...q(2) }],
      [4, 'lock-failed', { what: 'add-mq', group: 'myGroup', ...q(2) }],
      [6, 'lock-failed', { what: 'lock', ...q(3) }],
      [7, 'lock-failed', { what: 'add-mq', group: 'myGroup', ...q(3) }],
    ]);
  });

  it('139: the Python callback returns no ConsumeStatus: consumed again, the traceback printed (twice in the paste)', () => {
    const cause = "ValueError: Consume status error, please use enum 'ConsumeStatus' as response";
    expectConsumerEvents(139, [
      [5, 'consume-failed', { returnType: 'EXCEPTION', cause }],
      [7, 'consume-failed', { returnType: 'EXCEPTION', cause }],
    ]);
  });
});

describe('5.x gRPC clients (Rust, Node.js)', () => {
  it('141: the Rust push consumer`s warnings on an empty queue are no failure; its layout is read', () => {
    const { acc } = parse(file(141));
    expect(acc).toMatchObject({ layout: 'rust-tracing', records: 3, unknown: 0, kind: 'client' });
    expectConsumerEvents(141, []);
  });

  it('143: the Node.js simple consumer`s receive fails with the proxy`s INTERNAL_SERVER_ERROR', () => {
    const [e] = expectConsumerEvents(143, [[1, 'pull-failed', { reason: 'INTERNAL_SERVER_ERROR', code: 50001 }]]);
    expect(e.fields.cause).toContain('ReceiveMessageActivity');
  });
});
