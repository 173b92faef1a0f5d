// The lab's consumers without root: their scenario fields and faults, the admin tool's answers the
// lab reads (real 4.9.4 output, captured from a lab cluster), and lab.json's consumer truth from the
// side files LabConsumer writes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConsumerProgress, parseTopicStatus } from '../../lab/src/consumers.js';
import { consumerTruth, type ConsumerSide } from '../../lab/src/labjson-consumers.js';
import { isoLab } from '../../lab/src/labjson.js';
import { faultEnd, grpcEndpoints, proxyHosts, startedByFault, validateScenario, type Scenario } from '../../lab/src/scenario.js';
import { ROOT } from '../cli/helpers.js';

const fixtures = join(ROOT, 'test', 'fixtures', 'lab-mqadmin');

const base = (): Scenario => ({
  scenario: 't',
  description: 'A test.',
  versions: { namesrv: '4.9.4', broker: '4.9.4' },
  topics: [{ name: 'T', queues: 4 }],
  settleSeconds: 30,
  tailSeconds: 10,
  hosts: [
    { name: 'ns', addr: '10.213.0.11', processes: [{ kind: 'namesrv' }] },
    { name: 'b', addr: '10.213.0.21', processes: [{ kind: 'broker', brokerName: 'broker-a', brokerId: 0 }] },
    { name: 'app', addr: '10.213.0.31', processes: [{ kind: 'producer', version: '4.9.4', group: 'P', topic: 'T', rate: 1, tags: ['TagA', 'TagB'] }] },
    { name: 'c1', addr: '10.213.0.41', processes: [{ kind: 'consumer', version: '4.9.4', group: 'C', topic: 'T', maxReconsumeTimes: 2, listener: { processMs: 20 } }] },
    { name: 'c2', addr: '10.213.0.42', processes: [{ kind: 'consumer', version: '4.9.4', group: 'C', topic: 'T', mode: 'orderly', subscription: 'TagA || TagB' }] },
  ],
  faults: [
    { kind: 'consumer-kill', host: 'c1', at: 0, downSeconds: 20 },
    { kind: 'slowdown', host: 'c1', consumers: ['c1', 'c2'], at: 30, seconds: 60, processMs: 1500 },
  ],
});

const bad = (mutate: (s: any) => void) => {
  const s: any = base();
  mutate(s);
  return () => validateScenario(s);
};

describe('consumer scenario fields', () => {
  it('accepts consumers, their listener schedule and their faults', () => {
    expect(() => validateScenario(base())).not.toThrow();
    const traffic = base();
    (traffic.hosts[2].processes[0] as { schedule?: unknown }).schedule = [{ at: 0, rate: 12 }, { at: 90, rate: 3, threads: 2 }];
    traffic.faults = [];
    expect(() => validateScenario(traffic)).not.toThrow();
    const s = base();
    s.faults.push({ kind: 'consumer-start', host: 'c2', at: 100, subscription: 'TagA' }, { kind: 'reset-offset', host: 'c1', at: 120, backSeconds: 60 });
    expect(() => validateScenario(s)).not.toThrow();
    expect(startedByFault(s, 'c2')).toBe(true);
    expect(startedByFault(s, 'c1')).toBe(false);
  });

  it('names the consumer field that is wrong', () => {
    const c = (s: any) => s.hosts[3].processes[0];
    expect(bad((s) => (c(s).mode = 'push'))).toThrow(/hosts\[3\]\.processes\[0\]\.mode: must be concurrently, orderly, litePull/);
    expect(bad((s) => Object.assign(c(s), { mode: 'litePull', version: '4.5.2', maxReconsumeTimes: undefined }))).toThrow(/litePull needs client 4\.6\.0 or later/);
    expect(bad((s) => Object.assign(c(s), { mode: 'litePull' }))).toThrow(/lite pull consumer has no consume threads or retries/);
    expect(bad((s) => (c(s).messageModel = 'CLUSTER'))).toThrow(/messageModel: must be CLUSTERING or BROADCASTING/);
    expect(bad((s) => (c(s).consumeFromWhere = 'CONSUME_FROM_MAX_OFFSET'))).toThrow(/consumeFromWhere/);
    expect(bad((s) => Object.assign(c(s), { consumeThreadMin: 30, consumeThreadMax: 10 }))).toThrow(/consumeThreadMin: above consumeThreadMax/);
    expect(bad((s) => (c(s).consumeThreadMin = 30))).toThrow(/above consumeThreadMax \(both default to 20\)/);
    expect(bad((s) => (c(s).pullThresholdForQueue = 0))).toThrow(/pullThresholdForQueue: must be 1 to 65535/);
    expect(bad((s) => (c(s).maxReconsumeTimes = 17))).toThrow(/maxReconsumeTimes: must be -1 to 16/);
    expect(bad((s) => (c(s).subscription = 'TagA; rm'))).toThrow(/subscription: must be a tags expression/);
    expect(bad((s) => (c(s).listener = { laterShare: 0.7, throwShare: 0.5 }))).toThrow(/listener: laterShare and throwShare add up to more than 1/);
    expect(bad((s) => (c(s).listener = { processMs: -1 }))).toThrow(/listener\.processMs/);
    expect(bad((s) => (c(s).schedule = [{ at: -5, processMs: 10 }]))).toThrow(/schedule\[0\]\.at/);
    expect(bad((s) => (c(s).schedule = [{ at: 5, throwShare: 2 }]))).toThrow(/schedule\[0\]\.throwShare: must be a share/);
    expect(bad((s) => (s.hosts[2].processes[0].tags = ['a b']))).toThrow(/tags: must be a list of tags/);
    expect(bad((s) => (s.hosts[2].processes[0].schedule = [{ at: 0, rate: 6000 }]))).toThrow(/hosts\[2\]\.processes\[0\]\.schedule\[0\]\.rate: must be 0 to 5000/);
    expect(bad((s) => (s.hosts[2].processes[0].schedule = [{ at: 10, rate: 5, threads: 0 }]))).toThrow(/schedule\[0\]\.threads: must be 1 to 256/);
    expect(bad((s) => (s.hosts[2].processes[0].schedule = { at: 10, rate: 5 }))).toThrow(/processes\[0\]\.schedule: must be a list/);
    expect(
      bad((s) => {
        s.hosts[2].processes[0].schedule = [{ at: 10, rate: 5 }];
        s.faults = [{ kind: 'overload', host: 'b', at: 0, seconds: 30, load: { producers: ['app'], rate: 50, threads: 8 } }];
      }),
    ).toThrow(/faults\[0\]\.load\.producers: app has a traffic schedule/);
    expect(bad((s) => s.hosts[3].processes.push({ kind: 'producer', version: '4.9.4', group: 'P2', topic: 'T', rate: 1 }))).toThrow(/a consumer runs on a host of its own/);
  });

  it('names the consumer fault that is wrong', () => {
    expect(bad((s) => (s.faults[0].host = 'app'))).toThrow(/faults\[0\]\.host: a consumer-kill strikes a consumer and app runs none/);
    expect(bad((s) => (s.faults[1].consumers = ['c2']))).toThrow(/faults\[1\]\.consumers: must be a list of hosts that includes c1/);
    expect(bad((s) => (s.faults[1].consumers = ['c1', 'app']))).toThrow(/app runs no consumer/);
    expect(bad((s) => delete s.faults[1].processMs)).toThrow(/faults\[1\]\.processMs/);
    expect(bad((s) => delete s.faults[1].seconds)).toThrow(/faults\[1\]\.seconds: missing/);
    expect(bad((s) => s.faults.push({ kind: 'consume-failures', host: 'c1', at: 200, seconds: 10, laterShare: 0.8, throwShare: 0.8 }))).toThrow(/add up to more than 1/);
    expect(bad((s) => s.faults.push({ kind: 'reset-offset', host: 'c1', at: 200 }))).toThrow(/backSeconds: missing/);
    expect(bad((s) => s.faults.push({ kind: 'consumer-kill', host: 'c1', at: 200, consumers: ['c1'] }))).toThrow(/consumers: not a field of consumer-kill/);
    expect(bad((s) => s.faults.push({ kind: 'consumer-stop', host: 'c1', at: 10 }))).toThrow(/faults\[2\]: overlaps faults\[0\] on c1, whose consumer is down in a consumer-kill/);
    expect(bad((s) => s.faults.push({ kind: 'consumer-stop', host: 'c1', at: 21 }))).not.toThrow();
    expect(bad((s) => s.faults.push({ kind: 'reset-offset', host: 'c1', at: 10, backSeconds: 30 }))).not.toThrow();
    expect(bad((s) => s.faults.push({ kind: 'consumer-kill', host: 'c1', at: 10 }))).toThrow(/overlaps faults\[0\], another consumer-kill of c1/);
    expect(bad((s) => s.faults.push({ kind: 'crash', host: 'c1', at: 200 }))).toThrow(/a crash strikes the servers and c1 runs none/);
    expect(bad((s) => s.faults.push({ kind: 'unplug', host: 'c1', at: 200 }))).toThrow(/must be one of .*consumer-kill.*reset-offset/);
    expect(
      bad((s) => {
        Object.assign(s.hosts[3].processes[0], { mode: 'litePull', maxReconsumeTimes: undefined });
        s.faults.push({ kind: 'reset-offset', host: 'c1', at: 200, backSeconds: 30 });
      }),
    ).toThrow(/resetOffsetByTime resets a clustering push consumer group/);
  });

  it('ends each consumer fault where the lab waits for it', () => {
    const f = base().faults;
    expect(faultEnd(f[0])).toBe(20);
    expect(faultEnd(f[1])).toBe(90);
    expect(faultEnd({ kind: 'consumer-kill', host: 'c1', at: 7 })).toBe(7);
    expect(faultEnd({ kind: 'reset-offset', host: 'c1', at: 9, backSeconds: 60 })).toBe(9);
  });
});

describe('gRPC consumers and the local-mode proxy', () => {
  /** The base scenario on 5.3.3 servers, broker-a in a local-mode proxy, c1 a gRPC push consumer. */
  const grpc = (): any => {
    const s: any = base();
    s.versions = { namesrv: '5.3.3', broker: '5.3.3' };
    s.hosts[1].processes[0].proxyMode = 'local';
    s.hosts[3].processes[0] = { kind: 'consumer', mode: 'grpcPush', version: '5.0.7', group: 'C', topic: 'T', maxReconsumeTimes: 2, consumptionThreadCount: 4, listener: { processMs: 20 } };
    return s;
  };
  const check = (mutate: (s: any) => void) => () => {
    const s = grpc();
    mutate(s);
    return validateScenario(s);
  };

  it('accepts a gRPC push consumer on a local-mode proxy, and gives its endpoints and its truth', () => {
    const s = grpc();
    expect(() => validateScenario(s)).not.toThrow();
    expect(proxyHosts(s).map((h) => h.name)).toEqual(['b']);
    expect(grpcEndpoints(s, s.hosts[3].processes[0])).toBe('10.213.0.21:8081');
    s.hosts[1].processes[0].proxySettings = { grpcServerPort: 18081 };
    expect(grpcEndpoints(s, s.hosts[3].processes[0])).toBe('10.213.0.21:18081');
    const side: ConsumerSide = { runs: new Map(), lag: new Map(), dlq: new Map([['C', 1]]), side: new Map([['c1', { consumed: [`1000\tm1\tT\tbroker-a:0\t3\t0\tlater\t`, `3000\tm1\tT\tbroker-a:0\t3\t1\texception\t`, `9000\tm1\tT\tbroker-a:0\t3\t2\tlater\t`], queues: [] }]]) };
    const t = consumerTruth(s, side, [], isoLab, 20_000);
    const c1 = t.consumers.find((c) => c.host === 'c1')!;
    expect(c1).toMatchObject({ mode: 'grpcPush', client: 'rocketmq-client-java', endpoints: '10.213.0.21:18081', queues: [] });
    expect(c1.settings).toEqual({ consumptionThreadCount: 4, maxCacheMessageCount: null, maxReconsumeTimes: 2 });
    expect('namesrvAddrs' in c1).toBe(false);
    // The third failure (reconsumeTimes 2 = the group's retryMaxTimes) sent it to the DLQ.
    expect(t.groups[0].dlq).toMatchObject({ byAdminTool: 1, byDeliveries: 1, msgIds: ['m1'] });
  });

  it('names the gRPC or proxy field that is wrong', () => {
    const c = (s: any) => s.hosts[3].processes[0];
    expect(check((s) => (c(s).consumeThreadMin = 4))).toThrow(/consumeThreadMin: a gRPC consumer has no such setting/);
    expect(check((s) => (c(s).namesrvHosts = ['ns']))).toThrow(/namesrvHosts: a gRPC consumer has no such setting/);
    expect(check((s) => (c(s).maxReconsumeTimes = -1))).toThrow(/retryMaxTimes, 0 to 16/);
    expect(check((s) => (c(s).consumptionThreadCount = 0))).toThrow(/consumptionThreadCount: must be 1 to 65535/);
    expect(check((s) => (c(s).proxyHost = 'ns'))).toThrow(/needs a host whose broker runs in a local-mode proxy/);
    expect(check((s) => delete s.hosts[1].processes[0].proxyMode)).toThrow(/needs a host whose broker runs in a local-mode proxy/);
    expect(check((s) => (s.versions.broker = '4.9.4'))).toThrow(/the proxy is in 5\.x releases, not 4\.9\.4/);
    expect(check((s) => (s.hosts[1].processes[0].proxyMode = 'cluster'))).toThrow(/proxyMode: must be local/);
    expect(check((s) => (s.hosts[4].processes[0].consumptionThreadCount = 4))).toThrow(/only for a gRPC consumer/);
    expect(check((s) => s.faults.push({ kind: 'reset-offset', host: 'c1', at: 200, backSeconds: 30 }))).toThrow(/resetOffsetByTime resets a clustering push consumer group/);
    expect(check((s) => (c(s).invisibleSeconds = 15))).toThrow(/invisibleSeconds: a SimpleConsumer setting \(mode grpcSimple\)/);
  });

  it('accepts a gRPC simple consumer with its receive settings, and says them in its truth', () => {
    const simple = (mutate: (c: any) => void = () => undefined) => {
      const s = grpc();
      Object.assign(s.hosts[3].processes[0], { mode: 'grpcSimple', receiveBatchSize: 8, invisibleSeconds: 20, awaitSeconds: 10 });
      mutate(s.hosts[3].processes[0]);
      return s;
    };
    expect(() => validateScenario(simple())).not.toThrow();
    expect(() => validateScenario(simple((c) => (c.maxCacheMessageCount = 100)))).toThrow(/maxCacheMessageCount: a PushConsumer setting \(mode grpcPush\)/);
    expect(() => validateScenario(simple((c) => (c.receiveBatchSize = 33)))).toThrow(/receiveBatchSize: must be 1 to 32/);
    expect(() => validateScenario(simple((c) => (c.invisibleSeconds = 0)))).toThrow(/invisibleSeconds: must be 1 to 43200 seconds/);
    // The proxy's minInvisibleTimeMillsForRecv (10 s) unless its settings lower it.
    expect(() => validateScenario(simple((c) => (c.invisibleSeconds = 5)))).toThrow(/the proxy refuses an invisible time under 10000 ms/);
    const lowered = simple((c) => (c.invisibleSeconds = 5));
    lowered.hosts[1].processes[0].proxySettings = { minInvisibleTimeMillsForRecv: 5000 };
    expect(() => validateScenario(lowered)).not.toThrow();
    expect(() => validateScenario(simple((c) => (c.consumeThreadMax = 4)))).toThrow(/a gRPC consumer has no such setting/);
    const s = simple();
    const side: ConsumerSide = { runs: new Map(), lag: new Map(), dlq: new Map(), side: new Map() };
    const c1 = consumerTruth(s, side, [], isoLab, 1000).consumers.find((c) => c.host === 'c1')!;
    expect(c1).toMatchObject({ mode: 'grpcSimple', client: 'rocketmq-client-java', endpoints: '10.213.0.21:8081' });
    expect(c1.settings).toEqual({ consumptionThreadCount: 4, receiveBatchSize: 8, invisibleSeconds: 20, awaitSeconds: 10, maxReconsumeTimes: 2 });
  });
});

describe('the admin tool as the lab reads it', () => {
  it('reads the lag per queue from consumerProgress (4.9.4)', () => {
    const out = readFileSync(join(fixtures, 'mqadmin-4.9.4-consumerProgress.txt'), 'utf8');
    const s = parseConsumerProgress(out, 'CID_STOCK', 1000);
    // Four queues of TopicOrder one behind each, the retry queue one behind: the tool's own "Diff Total: 5".
    expect(s).toEqual({
      at: 1000,
      total: 4,
      retry: 1,
      queues: { '%RETRY%CID_STOCK@broker-a:0': 1, 'TopicOrder@broker-a:0': 1, 'TopicOrder@broker-a:1': 1, 'TopicOrder@broker-a:2': 1, 'TopicOrder@broker-a:3': 1 },
    });
    expect(out).toMatch(/Diff Total: 5/);
  });

  it('keeps the first line of an answer that has no table', () => {
    const s = parseConsumerProgress('org.apache.rocketmq.tools.command.SubCommandException: ConsumerProgressSubCommand command failed\n', 'G', 5);
    expect(s.error).toMatch(/ConsumerProgressSubCommand command failed/);
    expect(s.total).toBe(0);
  });

  it('counts the messages of the dead-letter topic from topicStatus (4.9.4)', () => {
    expect(parseTopicStatus(readFileSync(join(fixtures, 'mqadmin-4.9.4-topicStatus-dlq.txt'), 'utf8'))).toBe(14);
    expect(parseTopicStatus('org.apache.rocketmq.client.exception.MQClientException: CODE: 17  DESC: No topic route info in name server for the topic: %DLQ%G\n')).toBeNull();
  });
});

describe('lab.json consumer truth', () => {
  const row = (at: number, msgId: string, queue: string, offset: number, times: number, result: string) => `${at}\tmsg-${msgId}\tT\t${queue}\t${offset}\t${times}\t${result}\tevt-${msgId}`;
  const side = (): ConsumerSide => ({
    runs: new Map([['c1', [{ start: 0, end: 50, ended: 'killed', subscription: '*' }]], ['c2', [{ start: 0, end: null, ended: null, subscription: 'TagA || TagB' }]]]),
    lag: new Map([['C', [{ at: 10, total: 3, retry: 0, queues: {} }, { at: 20, total: 9, retry: 1, queues: {} }, { at: 30, total: 0, retry: 0, queues: {}, error: 'x' }]]]),
    dlq: new Map([['C', 1]]),
    side: new Map([
      [
        'c1',
        {
          consumed: [row(1, '1', 'broker-a:0', 0, 0, 'ok'), row(2, '2', 'broker-a:1', 0, 0, 'later'), row(3, '3', 'broker-a:2', 0, 0, 'exception'), row(4, '2', 'broker-a:0', 5, 1, 'ok'), row(5, '3', 'broker-a:0', 6, 1, 'later'), row(6, '3', 'broker-a:0', 7, 2, 'exception')],
          queues: ['1\tT@broker-a:0,T@broker-a:1', '40\t'],
        },
      ],
      ['c2', { consumed: [row(8, '1', 'broker-a:0', 0, 0, 'ok'), row(9, '4', 'broker-a:3', 1, 0, 'ok')], queues: [] }],
    ]),
  });
  const sent = ['1', '2', '3', '4', '5'].map((id, i) => ({ msgId: `msg-${id}`, topic: 'T', tag: i % 2 ? 'TagB' : 'TagA', at: i * 10_000 }));

  it('counts per instance and per group: received, consumed, failed, retried, the DLQ, duplicates, never consumed', () => {
    const t = consumerTruth(base(), side(), sent, isoLab, 45_000);
    const [c1, c2] = t.consumers;
    expect(c1).toMatchObject({ host: 'c1', deliveries: 6, received: 3, consumed: 2, failed: 4, failedByResult: { later: 2, exception: 2 }, retried: 2, duplicates: 0 });
    expect(c1.runs).toEqual([{ start: isoLab(0), end: isoLab(50), ended: 'killed', subscription: '*' }]);
    expect(c1.queues).toEqual([{ at: isoLab(1), queues: ['T@broker-a:0', 'T@broker-a:1'] }, { at: isoLab(40), queues: [] }]);
    expect(c2).toMatchObject({ mode: 'orderly', subscription: 'TagA || TagB', consumed: 2, failed: 0, namesrvAddrs: ['10.213.0.11:9876'] });
    const [g] = t.groups;
    expect(g).toMatchObject({ group: 'C', instances: ['c1', 'c2'], maxReconsumeTimes: 2, sent: 5, received: 4, consumed: 3, failed: 4, retried: 2 });
    // msg-1 consumed OK on c1 and again on c2 (after c1 was killed): one duplicate.
    expect(g.duplicates).toBe(1);
    expect(g.duplicateDeliveries).toBe(1);
    // msg-3 failed at reconsumeTimes 2 = maxReconsumeTimes: the broker's consumerSendMsgBack put it in the DLQ.
    expect(g.dlq).toEqual({ byAdminTool: 1, byDeliveries: 1, msgIds: ['msg-3'] });
    // msg-5 was sent 5 s before the end: it may still have been on its way.
    expect(g.neverConsumed).toEqual({ count: 2, sentInLast10s: 1, byTag: { TagA: 2 }, msgIds: ['msg-3', 'msg-5'] });
    // The peak of the samples the tool answered, not the one it gave no table for.
    expect(g.maxLag).toEqual({ at: isoLab(20), total: 9 });
    expect(g.lag.map((x) => x.total)).toEqual([3, 9, 0]);
    expect(g.lag[2].error).toBe('x');
  });

  it('BROADCASTING: a message is consumed when every instance consumed it, and two instances consuming it is no duplicate', () => {
    const s = base();
    for (const i of [3, 4]) Object.assign(s.hosts[i].processes[0], { messageModel: 'BROADCASTING', mode: 'concurrently', subscription: undefined, maxReconsumeTimes: undefined });
    s.faults = [];
    const b: ConsumerSide = {
      runs: new Map([['c1', [{ start: 0, end: null, ended: null, subscription: '*' }]], ['c2', [{ start: 0, end: null, ended: null, subscription: '*' }]]]),
      lag: new Map(),
      dlq: new Map([['C', null]]),
      side: new Map([
        // c1 consumed msg-1 to msg-4 (msg-2 twice) and msg-9, whose send failed at the producer; c2 msg-1 to msg-3.
        ['c1', { consumed: [row(1, '1', 'broker-a:0', 0, 0, 'ok'), row(2, '2', 'broker-a:1', 0, 0, 'ok'), row(3, '2', 'broker-a:1', 0, 0, 'ok'), row(4, '3', 'broker-a:2', 0, 0, 'ok'), row(5, '4', 'broker-a:3', 0, 0, 'ok'), row(6, '9', 'broker-a:3', 1, 0, 'ok')], queues: [] }],
        ['c2', { consumed: [row(1, '1', 'broker-a:0', 0, 0, 'ok'), row(2, '2', 'broker-a:1', 0, 0, 'ok'), row(4, '3', 'broker-a:2', 0, 0, 'ok')], queues: [] }],
      ]),
    };
    const [g] = consumerTruth(s, b, sent, isoLab, 45_000).groups;
    expect(g).toMatchObject({ messageModel: 'BROADCASTING', sent: 5, deliveries: 9, consumed: 5, consumedOfFailedSends: 1, duplicates: 1, duplicateDeliveries: 1 });
    // msg-5 neither consumed; msg-4 only c1: two messages some instance missed.
    expect(g.neverConsumed).toMatchObject({ count: 2, msgIds: ['msg-4', 'msg-5'], byInstance: { c1: 1, c2: 2 } });
    const clustering = consumerTruth(base(), side(), sent, isoLab, 45_000).groups[0];
    expect(clustering.messageModel).toBe('CLUSTERING');
    expect(clustering.consumedOfFailedSends).toBe(0);
    expect('byInstance' in clustering.neverConsumed).toBe(false);
  });

  it('does not count a message still being retried as dead-lettered', () => {
    const s = side();
    s.side.get('c1')!.consumed.pop();
    const [g] = consumerTruth(base(), s, sent, isoLab, 45_000).groups;
    expect(g.dlq.byDeliveries).toBe(0);
  });
});
