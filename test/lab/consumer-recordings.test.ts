// The consumer recordings hold what their descriptions say: lab.json's truth (from the lab's side
// files and the admin tool) adds up, and the logs RocketMQ wrote show the mechanism: the facts the
// consumer rules are held to.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { LabJson } from '../../lab/src/labjson.js';
import { ROOT } from '../cli/helpers.js';

const LAB = join(ROOT, 'samples', 'lab');
const NAMES = readdirSync(LAB).filter((n) => n.startsWith('consumer-'));
const labJson = (name: string) => JSON.parse(readFileSync(join(LAB, name, 'lab.json'), 'utf8')) as LabJson;
/** A host's log as RocketMQ or the application wrote it (gzipped in the recording). */
const log = (name: string, host: string, file: string) => {
  const p = join(LAB, name, host, 'logs', ...file.split('/'));
  return gunzipSync(readFileSync(existsSync(p) ? p : `${p}.gz`)).toString('utf8');
};
const group = (name: string) => labJson(name).consumerGroups![0];
const count = (text: string, needle: string) => text.split(needle).length - 1;

describe('every consumer recording', () => {
  it('is there, gzipped, with a consumer truth that adds up', () => {
    expect(NAMES.length).toBeGreaterThanOrEqual(11);
    for (const name of NAMES) {
      const l = labJson(name);
      expect(l.consumers!.length, name).toBeGreaterThanOrEqual(2);
      for (const g of l.consumerGroups!) {
        const members = l.consumers!.filter((c) => c.group === g.group);
        // Messages consumed whose send the application saw fail (recordings before the field: none).
        const ofFailedSends = g.consumedOfFailedSends ?? 0;
        // The group's deliveries are its instances'.
        expect(g.deliveries, name).toBe(members.reduce((a, c) => a + c.deliveries, 0));
        expect(g.failed, name).toBe(members.reduce((a, c) => a + c.failed, 0));
        expect(g.received, name).toBeGreaterThanOrEqual(g.consumed);
        expect(g.lag.length, name).toBeGreaterThanOrEqual(6);
        if (g.messageModel === 'BROADCASTING') {
          // Each instance consumes every message: what it consumed and what it missed make the sends.
          for (const c of members) {
            expect(c.consumed + g.neverConsumed.byInstance![c.host], `${name} ${c.host}`).toBeGreaterThanOrEqual(g.sent);
            expect(c.consumed + g.neverConsumed.byInstance![c.host], `${name} ${c.host}`).toBeLessThanOrEqual(g.sent + ofFailedSends);
          }
          expect(g.deliveries, name).toBe(members.reduce((a, c) => a + c.consumed + c.duplicateDeliveries + c.failed, 0));
          continue;
        }
        // A message sent OK is consumed or never consumed, not both.
        expect(g.consumed - ofFailedSends + g.neverConsumed.count, name).toBe(g.sent);
        // Every delivery ended OK or not; the OK ones are the messages consumed and their repeats.
        expect(g.deliveries, name).toBe(g.consumed + g.duplicateDeliveries + g.failed);
      }
      for (const h of l.hosts.filter((x) => x.roles.includes('consumer'))) {
        const c = l.consumers!.find((x) => x.host === h.name)!;
        // The remoting client writes rocketmqlogs/rocketmq_client.log, the gRPC client (rocketmq-client-java) rocketmq/rocketmq-client.log.
        const clientLog = c.mode === 'grpcPush' || c.mode === 'grpcSimple' ? join('rocketmq', 'rocketmq-client.log.gz') : join('rocketmqlogs', 'rocketmq_client.log.gz');
        expect(existsSync(join(LAB, name, h.name, 'logs', clientLog)), `${name} ${h.name}`).toBe(true);
        const started = new RegExp(`INFO \\d+ --- \\[ *main\\] com\\.example\\.[a-z]+\\.[A-Za-z]+Listener +: Listener started: group=${c.group}`);
        expect(log(name, h.name, 'app.log'), `${name} ${h.name}`).toMatch(started);
      }
    }
  });
});

describe('what each consumer recording shows', () => {
  it('consumer-grpc-failures-dlq: gRPC push consumers through a local-mode proxy; failures retried by pop, the last ones moved to the DLQ', () => {
    const l = labJson('consumer-grpc-failures-dlq');
    const g = group('consumer-grpc-failures-dlq');
    expect(l.consumers!.map((c) => [c.mode, (c as { client?: string }).client, (c as { endpoints?: string }).endpoints])).toEqual([
      ['grpcPush', 'rocketmq-client-java', '10.213.0.21:8081'],
      ['grpcPush', 'rocketmq-client-java', '10.213.0.21:8081'],
    ]);
    // The proxy runs the broker: its local mode and gRPC address are said.
    expect((l.servers.brokers[0] as { proxy?: unknown }).proxy).toMatchObject({ mode: 'local', grpcAddr: '10.213.0.21:8081' });
    // A gRPC consumer holds no queues (it receives by pop).
    for (const c of l.consumers!) expect(c.queues).toEqual([]);
    expect(g.maxReconsumeTimes).toBe(2);
    expect(g.dlq.byAdminTool).toBe(g.dlq.byDeliveries);
    expect(g.dlq.byDeliveries).toBeGreaterThan(0);
    expect(g.neverConsumed.count).toBe(g.dlq.byDeliveries);
    // Retried deliveries come from the pop retry, not the remoting retry queue: reconsumeTimes up to retryMaxTimes.
    expect(g.retried).toBeGreaterThan(0);
    expect(log('consumer-grpc-failures-dlq', 'mq-broker-a', 'rocketmqlogs/proxy.log')).toMatch(/rocketmq-proxy startup successfully/);
  });

  it('consumer-slow-listener: the lag builds during the slowdown and drains after it; flow control in the client logs', () => {
    const l = labJson('consumer-slow-listener');
    const g = group('consumer-slow-listener');
    const f = l.faults[0];
    const during = g.lag.filter((x) => x.at > f.start && x.at <= f.end!);
    const after = g.lag.filter((x) => Date.parse(x.at) > Date.parse(f.end!) + 15_000);
    expect(Math.max(...during.map((x) => x.total))).toBeGreaterThan(150);
    expect(Math.max(...after.map((x) => x.total))).toBeLessThan(20);
    expect(g).toMatchObject({ failed: 0, duplicates: 0, neverConsumed: { count: 0 } });
    for (const h of ['app-stock-01', 'app-stock-02']) {
      expect(log('consumer-slow-listener', h, 'rocketmqlogs/rocketmq_client.log')).toContain('the cached message count exceeds the threshold 20, so do flow control');
    }
  });

  it('consumer-failures-dlq: the dead-letter queue by the admin tool, by the deliveries, and the messages never consumed agree', () => {
    const g = group('consumer-failures-dlq');
    expect(g.dlq.byAdminTool).toBe(58);
    expect(g.dlq.byDeliveries).toBe(58);
    expect(g.neverConsumed.count).toBe(58);
    expect(new Set(g.neverConsumed.msgIds)).toEqual(new Set(g.dlq.msgIds));
    expect(g.retried).toBeGreaterThan(100);
    const client = log('consumer-failures-dlq', 'app-stock-01', 'rocketmqlogs/rocketmq_client.log');
    expect(client).toMatch(/WARN RocketmqClient - consumeMessage exception: com\.example\.lab\.LabConsumer\$HandlerException: inventory service call failed/);
    expect(log('consumer-failures-dlq', 'mq-broker-a', 'rocketmqlogs/broker.log')).toMatch(/create new topic TopicConfig \[topicName=%DLQ%CID_STOCK/);
  });

  it('consumer-rebalance-kill: the killed instance ran until the kill, the others rebalanced, some messages were consumed twice', () => {
    const l = labJson('consumer-rebalance-kill');
    const killed = l.consumers!.find((c) => c.host === 'app-stock-03')!;
    expect(killed.runs).toEqual([expect.objectContaining({ ended: 'killed', end: expect.any(String) })]);
    expect(group('consumer-rebalance-kill').duplicates).toBeGreaterThan(0);
    expect(group('consumer-rebalance-kill').neverConsumed.count).toBe(0);
    expect(log('consumer-rebalance-kill', 'app-stock-01', 'rocketmqlogs/rocketmq_client.log')).toContain('the consumer group: CID_STOCK changed, rebalance immediately');
    expect(log('consumer-rebalance-kill', 'mq-broker-a', 'rocketmqlogs/broker.log')).toMatch(/NETTY EVENT: remove not active channel\[ClientChannelInfo \[channel=\[id: 0x[0-9a-f]+, L:\/10\.213\.0\.21:10911 ! R:\/10\.213\.0\.43:/);
  });

  it('consumer-subscription-mismatch: only the tag the odd instance left out was lost, and nothing says so', () => {
    const g = group('consumer-subscription-mismatch');
    expect(g.neverConsumed.count).toBeGreaterThan(100);
    expect(Object.keys(g.neverConsumed.byTag)).toEqual(['TagB']);
    expect(g.failed).toBe(0);
    const broker = log('consumer-subscription-mismatch', 'mq-broker-a', 'rocketmqlogs/broker.log');
    expect(broker).toMatch(/subscription changed, group: CID_STOCK OLD: SubscriptionData \[classFilterMode=false, topic=TopicOrder, subString=TagA \|\| TagB/);
    for (const h of ['app-stock-01', 'app-stock-02', 'app-stock-03']) expect(log('consumer-subscription-mismatch', h, 'app.log')).not.toMatch(/ERROR|WARN/);
  });

  it('consumer-offset-reset: the broker reset each instance, and the minute was consumed again', () => {
    const l = labJson('consumer-offset-reset');
    expect(l.faults[0].kind).toBe('reset-offset');
    expect((l.faults[0] as { adminOutput?: string }).adminOutput).toMatch(/^rollback consumer offset by specified group\[CID_STOCK\], topic\[TopicOrder\]/);
    expect(group('consumer-offset-reset').duplicates).toBeGreaterThan(200);
    const broker = log('consumer-offset-reset', 'mq-broker-a', 'rocketmqlogs/broker.log');
    expect(count(broker, '[reset-offset] reset offset success. topic=TopicOrder, group=CID_STOCK')).toBe(2);
    expect(log('consumer-offset-reset', 'app-stock-01', 'rocketmqlogs/rocketmq_client.log')).toContain('invoke reset offset operation from broker. brokerAddr=10.213.0.21:10911, topic=TopicOrder, group=CID_STOCK');
  });

  it('consumer-lite-pull-stop: the stopped instance ran twice, the other held every queue meanwhile', () => {
    const l = labJson('consumer-lite-pull-stop');
    const stopped = l.consumers!.find((c) => c.host === 'app-stock-02')!;
    expect(stopped.mode).toBe('litePull');
    expect(stopped.runs.map((r) => r.ended)).toEqual(['stopped', null]);
    const other = l.consumers!.find((c) => c.host === 'app-stock-01')!;
    expect(other.queues.map((q) => q.queues.length)).toContain(4);
    expect(group('consumer-lite-pull-stop').neverConsumed.count).toBe(0);
  });

  it('consumer-orderly-broker-crash: queues wait for their locks; the suspended messages are the failed deliveries', () => {
    const l = labJson('consumer-orderly-broker-crash');
    const g = group('consumer-orderly-broker-crash');
    expect(l.faults[0]).toMatchObject({ kind: 'crash', host: 'mq-broker-a' });
    expect(Object.keys(g.failedByResult)).toEqual(['suspend']);
    expect(g.neverConsumed.count).toBe(0);
    const c1 = log('consumer-orderly-broker-crash', 'app-stock-01', 'rocketmqlogs/rocketmq_client.log');
    expect(c1).toContain('pull message later because not locked in broker');
    // One WARN per suspended delivery; this recording's truth counts deliveries up to 8 s after its
    // logs were copied (docs/lab.md), so one or two later ones have no line.
    const lines = count(c1, 'consumeMessage Orderly return not OK') + count(log('consumer-orderly-broker-crash', 'app-stock-02', 'rocketmqlogs/rocketmq_client.log'), 'consumeMessage Orderly return not OK');
    expect(lines).toBeLessThanOrEqual(g.failed);
    expect(lines).toBeGreaterThanOrEqual(g.failed - 2);
  });

  it('consumer-broker-hang: pulls on the hung broker fail with the channel its timeouts closed; its stored sends are consumed', () => {
    const name = 'consumer-broker-hang';
    const l = labJson(name);
    const g = group(name);
    const f = l.faults[0];
    expect(f).toMatchObject({ kind: 'hang', host: 'mq-broker-a' });
    expect(Date.parse(f.end!) - Date.parse(f.start)).toBeGreaterThan(70_000);
    // The 19 sends the producer lost were stored on broker-a and consumed once it ran again.
    const producer = l.clients[0].sends;
    expect(producer.failed).toBe(19);
    expect(g.consumedOfFailedSends).toBe(producer.failed);
    expect(g.consumed - g.consumedOfFailedSends! + g.neverConsumed.count).toBe(producer.ok);
    // No lag while broker-a is stopped: the admin tool cannot reach it; samples before and after.
    const during = g.lag.filter((x) => x.at > f.start && x.at < f.end!);
    expect(during.length).toBeGreaterThanOrEqual(4);
    for (const x of during) expect(x.error).toMatch(/ConsumerProgressSubCommand command failed/);
    expect(g.lag.filter((x) => x.at > f.end! && x.error === undefined).length).toBeGreaterThanOrEqual(3);
    // Consumed twice only across instances (queues moved at the rebalances), never by one instance.
    expect(g.duplicates).toBeGreaterThan(0);
    for (const c of l.consumers!) expect(c.duplicates, c.host).toBe(0);
    const c1 = log(name, 'app-stock-01', 'rocketmqlogs/rocketmq_client.log');
    expect(count(c1, 'execute the pull request exception')).toBe(16);
    expect(c1).toContain('org.apache.rocketmq.client.exception.MQClientException: send request failed to 10.213.0.21:10911. Request: RemotingCommand [code=11,');
    expect(c1).toContain('invokeSync: close socket because of timeout, 3000ms, 10.213.0.21:10911');
    expect(log(name, 'app-stock-03', 'rocketmqlogs/rocketmq_client.log')).toMatch(/getConsumerIdListByGroup exception, 10\.213\.0\.21:10911 CID_STOCK\r?\norg\.apache\.rocketmq\.remoting\.exception\.RemotingTimeoutException: wait response on the channel <10\.213\.0\.21:10911> timeout, 3000\(ms\)/);
    // The NameServer never dropped broker-a: the hang was shorter than its 120 s expiry.
    expect(log(name, 'mq-ns-1', 'rocketmqlogs/namesrv.log')).not.toMatch(/The broker channel expired|remove brokerAddr/);
  });

  it('consumer-too-few-threads: the lag follows the producer\'s schedule while one thread per instance consumes at its ceiling; the broadcasting group keeps up', () => {
    const name = 'consumer-too-few-threads';
    const l = labJson(name);
    expect(l.faults).toEqual([]);
    const producer = l.clients[0];
    expect(producer.schedule).toEqual([{ at: 0, rate: 12 }, { at: 90, rate: 3 }]);
    const from = Date.parse(l.window.faultsFrom);
    const stock = l.consumerGroups!.find((g) => g.group === 'CID_STOCK')!;
    const audit = l.consumerGroups!.find((g) => g.group === 'CID_AUDIT')!;
    // The lag grows while the producer sends 12/s, peaks near its step down, and drains after it.
    const at = (x: { at: string }) => Date.parse(x.at) - from;
    const before = stock.lag.filter((x) => at(x) < 0);
    const peak = stock.maxLag!;
    expect(Math.max(...before.map((x) => x.total))).toBeLessThan(20);
    expect(peak.total).toBeGreaterThan(300);
    expect(Date.parse(peak.at) - from).toBeGreaterThan(60_000);
    expect(Date.parse(peak.at) - from).toBeLessThan(110_000);
    expect(stock.lag[stock.lag.length - 1].total).toBeLessThan(20);
    expect(stock).toMatchObject({ messageModel: 'CLUSTERING', failed: 0, duplicates: 0, neverConsumed: { count: 0 } });
    for (const c of l.consumers!.filter((x) => x.group === 'CID_STOCK')) expect(c.settings).toMatchObject({ consumeThreadMin: 1, consumeThreadMax: 1 });
    // Broadcasting: each instance consumed every message, held every queue, and the broker has no offsets to show.
    expect(audit.messageModel).toBe('BROADCASTING');
    expect(audit.neverConsumed.byInstance).toEqual({ 'app-audit-01': 0, 'app-audit-02': 0 });
    for (const c of l.consumers!.filter((x) => x.group === 'CID_AUDIT')) {
      expect(c.consumed, c.host).toBe(audit.sent);
      expect(c.queues[c.queues.length - 1].queues.filter((q) => q.startsWith('TopicOrder@'))).toHaveLength(8);
    }
    for (const x of audit.lag) expect(x.error).toMatch(/ConsumerProgressSubCommand command failed/);
    // The client's own minute stats: one thread at 250 ms a message caps an instance at 4 messages/s.
    for (const h of ['app-stock-01', 'app-stock-02']) {
      const tps = [...log(name, h, 'rocketmqlogs/rocketmq_client.log').matchAll(/\[CONSUME_OK_TPS\] \[TopicOrder@CID_STOCK\] Stats In One Minute, SUM: \d+ TPS: ([\d.]+)/g)].map((m) => Number(m[1]));
      expect(Math.max(...tps), h).toBeLessThanOrEqual(4);
      expect(Math.max(...tps), h).toBeGreaterThan(3.9);
      expect(log(name, h, 'rocketmqlogs/rocketmq_client.log')).not.toContain('so do flow control');
    }
    expect(log(name, 'app-audit-01', 'app.log')).toMatch(/com\.example\.audit\.OrderAuditListener +: Listener started: group=CID_AUDIT/);
  });

  it('consumer-namesrv-hang: consumers bound to the hung NameServer keep their routes and consume on; 4.7.1 keeps the channel, 5.1.4 closes it', () => {
    const name = 'consumer-namesrv-hang';
    const l = labJson(name);
    const g = group(name);
    const f = l.faults[0];
    expect(f).toMatchObject({ kind: 'hang', host: 'mq-ns-1' });
    expect(l.consumers!.map((c) => [c.host, c.version, c.namesrvAddrs])).toEqual([
      ['app-stock-01', '4.7.1', ['10.213.0.11:9876']],
      ['app-stock-02', '5.1.4', ['10.213.0.11:9876']],
    ]);
    expect(g).toMatchObject({ sent: 768, consumed: 768, duplicates: 0, failed: 0, neverConsumed: { count: 0 } });
    expect(l.clients[0].sends.failed).toBe(0);
    expect(Math.max(...g.lag.map((x) => x.total))).toBeLessThanOrEqual(10);
    // The admin tool failed while it used the hung NameServer; never outside the hang.
    for (const x of g.lag.filter((y) => y.error !== undefined)) {
      expect(x.at > f.start && x.at < f.end!, x.at).toBe(true);
    }
    const timeout = 'updateTopicRouteInfoFromNameServer Exception';
    const c471 = log(name, 'app-stock-01', 'rocketmqlogs/rocketmq_client.log');
    const c514 = log(name, 'app-stock-02', 'rocketmqlogs/rocketmq_client.log');
    expect(count(c471, timeout)).toBe(3);
    expect(count(c514, timeout)).toBe(3);
    expect(count(c471, 'close socket because of timeout')).toBe(0);
    expect(count(c471, 'receive response, but not matched any request, 10.213.0.11:9876')).toBe(3);
    expect(count(c514, 'invokeSync: close socket because of timeout, 3000ms, 10.213.0.11:9876')).toBe(3);
    // 5.1.4's own layout: the millisecond field, the pid and the thread.
    expect(c514).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} INFO  \[\d+\] \[[^\]]+\] /m);
    expect(log(name, 'app-order-01', 'rocketmqlogs/rocketmq_client.log')).toContain('new name server is chosen. OLD: 10.213.0.11:9876 , NEW: 10.213.0.12:9876');
    const ns = log(name, 'mq-ns-1', 'rocketmqlogs/namesrv.log');
    expect(count(ns, "the broker's channel destroyed")).toBe(2);
  });

  it('consumer-5x-restart: 5.1.4 consumers pull the unregistered broker until their rebalance drops its queues, and take them back after it registers', () => {
    const name = 'consumer-5x-restart';
    const l = labJson(name);
    const g = group(name);
    expect(l.versions).toMatchObject({ namesrv: '5.3.3', broker: '5.3.3' });
    const f = l.faults[0] as { kind: string; start: string; end: string; stopped?: string };
    expect(f).toMatchObject({ kind: 'restart', host: 'mq-broker-a' });
    expect(l.consumers!.map((c) => c.version)).toEqual(['5.1.4', '5.1.4', '4.9.4']);
    expect(g).toMatchObject({ sent: 589, consumed: 589, failed: 0, neverConsumed: { count: 0 } });
    expect(g.duplicates).toBe(16);
    expect(g.lag.every((x) => x.error === undefined && x.total <= 10)).toBe(true);
    // app-stock-01 held broker-a's queues before the restart, none of them while it was down, and again after.
    const held = (at: string) => [...l.consumers![0].queues].reverse().find((q) => q.at <= at)!.queues.filter((q) => q.startsWith('TopicOrder@broker-a')).length;
    expect(held(f.start)).toBeGreaterThan(0);
    expect(held(new Date(Date.parse(f.end) + 8 * 3600_000).toISOString().replace('Z', '+08:00'))).toBe(0);
    expect(held(l.window.end)).toBeGreaterThan(0);
    const ns = log(name, 'mq-ns-1', 'rocketmqlogs/namesrv.log');
    expect(ns).toMatch(/BatchUnregistrationService - unregisterBroker, remove name from brokerAddrTable OK, broker-a/);
    const c1 = log(name, 'app-stock-01', 'rocketmqlogs/rocketmq_client.log');
    expect(count(c1, 'pullKernelImpl exception')).toBe(64);
    expect(c1).toContain('org.apache.rocketmq.client.exception.MQClientException: The broker[broker-a] not exist');
    expect(c1).toContain('org.apache.rocketmq.remoting.exception.RemotingConnectException: connect to 10.213.0.21:10911 failed');
    // The 4.9.4 instance held only broker-b's queues: nothing after the restart began.
    const c3 = log(name, 'app-stock-03', 'rocketmqlogs/rocketmq_client.log').split(/\r?\n/).filter((x) => x.slice(11, 19) >= f.start.slice(11, 19));
    expect(c3.length).toBeGreaterThan(10);
    expect(c3.filter((x) => / (WARN|ERROR) /.test(x))).toEqual([]);
  });
  it('consumer-listener-block: one instance\'s blocked listener backs up its own queues under flow control while the other consumes on; they drain after the block', () => {
    const name = 'consumer-listener-block';
    const l = labJson(name);
    const g = group(name);
    expect(l.versions).toMatchObject({ namesrv: '5.1.4', broker: '5.1.4' });
    expect(l.consumers!.map((c) => [c.host, c.version, c.settings.consumeThreadMin, c.settings.pullThresholdForQueue])).toEqual([
      ['app-stock-01', '4.9.4', 4, 50],
      ['app-stock-02', '5.1.4', 4, 50],
    ]);
    const f = l.faults[0] as { kind: string; host: string; start: string; end: string; consumers?: string[] };
    expect(l.faults).toHaveLength(1);
    expect(f).toMatchObject({ kind: 'listener-block', host: 'app-stock-02', consumers: ['app-stock-02'] });
    expect(Date.parse(f.end) - Date.parse(f.start)).toBe(120_000);
    // The blocked instance held queues 2 and 3 throughout (no rebalance moved them).
    const blocked = l.consumers!.find((c) => c.host === 'app-stock-02')!;
    expect(blocked.queues).toHaveLength(1);
    expect(blocked.queues[0].queues).toEqual(['TopicOrder@broker-a:2', 'TopicOrder@broker-a:3']);
    // The lag rises sample after sample during the block, all of it on the blocked instance's queues,
    // and is back at a few messages 15 s after it.
    const during = g.lag.filter((x) => x.at > f.start && x.at <= f.end);
    const after = g.lag.filter((x) => Date.parse(x.at) > Date.parse(f.end) + 15_000);
    expect(during.length).toBeGreaterThanOrEqual(10);
    for (let i = 1; i < during.length; i++) expect(during[i].total, during[i].at).toBeGreaterThan(during[i - 1].total);
    expect(g.maxLag!.total).toBeGreaterThan(250);
    expect(g.maxLag!.at > f.start && g.maxLag!.at <= f.end).toBe(true);
    for (const x of during) {
      expect(x.queues['TopicOrder@broker-a:0'] + x.queues['TopicOrder@broker-a:1'], x.at).toBeLessThanOrEqual(4);
    }
    expect(after.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...after.map((x) => x.total))).toBeLessThan(10);
    expect(g).toMatchObject({ failed: 0, duplicates: 0, consumedOfFailedSends: 0 });
    expect(g.neverConsumed.count).toBeLessThanOrEqual(g.neverConsumed.sentInLast10s!);
    expect(l.clients[0].sends.failed).toBe(0);
    // The other instance consumed on during the block and after it.
    const other = l.consumers!.find((c) => c.host === 'app-stock-01')!;
    expect(other.consumed).toBeGreaterThan(500);
    expect(other.lastDelivery! > f.end).toBe(true);
    // Flow control (5.1.4's layout) in the blocked instance's client log only, within the block.
    const flow = 'the cached message count exceeds the threshold 50, so do flow control';
    const c2 = log(name, 'app-stock-02', 'rocketmqlogs/rocketmq_client.log');
    const c1 = log(name, 'app-stock-01', 'rocketmqlogs/rocketmq_client.log');
    const flowLines = c2.split(/\r?\n/).filter((x) => x.includes(flow));
    expect(flowLines.length).toBeGreaterThanOrEqual(3);
    for (const x of flowLines) {
      expect(x).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} WARN  \[\d+\] \[PullMessageService\] \[o\.a\.r\.c\.i\.c\.DefaultMQPushConsumerImpl#\?:\?\] - /);
      expect(x).toMatch(/messageQueue=MessageQueue \[topic=TopicOrder, brokerName=broker-a, queueId=[23]\]/);
      expect(x.slice(11, 19) >= f.start.slice(11, 19) && x.slice(11, 19) <= f.end.slice(11, 19), x).toBe(true);
    }
    expect(c2).toContain('flowControlTimes=1\n');
    expect(c1).not.toContain('so do flow control');
    // The clients' minute statistics: app-stock-02 consumed nothing in the block's only whole minute,
    // app-stock-01 its 2.5 messages/s in every minute.
    const okTps = (text: string) => new Map([...text.matchAll(/(\d\d:\d\d):0\d[.,]\d{3} .*\[CONSUME_OK_TPS\] \[TopicOrder@CID_STOCK\] Stats In One Minute, SUM: (\d+)/g)].map((m) => [m[1], Number(m[2])]));
    const tps2 = okTps(c2);
    const tps1 = okTps(c1);
    // The statistics line printed at the end of the first whole minute inside the block (HH:mm, +08:00).
    const minuteEnd = Math.ceil(Date.parse(f.start) / 60_000) * 60_000 + 60_000;
    expect(minuteEnd).toBeLessThanOrEqual(Date.parse(f.end));
    const blockMinute = new Date(minuteEnd + 8 * 3600_000).toISOString().slice(11, 16);
    expect(tps2.get(blockMinute)).toBe(0);
    expect(tps1.get(blockMinute)).toBeGreaterThanOrEqual(140);
    // The blocked instance committed the same offsets of its queues every 5 s while blocked.
    const committed = c2.split(/\r?\n/).filter((x) => x.includes('updateConsumeOffsetToBroker') && x.includes('queueId=2]') && x.slice(11, 19) > f.start.slice(11, 19) && x.slice(11, 19) < f.end.slice(11, 19));
    expect(committed.length).toBeGreaterThanOrEqual(20);
    expect(new Set(committed.slice(1).map((x) => x.split(' ').pop())).size).toBe(1);
  });
});
