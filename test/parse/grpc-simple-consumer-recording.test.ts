// The lines of a 5.x gRPC SimpleConsumer incident (samples/lab/consumer-grpc-simple-failures: two
// rocketmq-client-java 5.0.7 SimpleConsumers of CID_STOCK through a 5.3.3 local-mode proxy, which
// left a share of messages unacknowledged for 60 s; lab.json holds the truth). The client logs its
// start and no failure; the broker shows the failures: the pop revive's creation of the group's pop
// retry topic, its puts there per minute (stats.log), and the proxy's DLQ forwards.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SourceParser } from '../../src/parse/parser.js';
import { parseZone } from '../../src/parse/time.js';
import type { RmqEvent } from '../../src/parse/types.js';

const REC = join(__dirname, '..', '..', 'samples', 'lab', 'consumer-grpc-simple-failures');

function parse(rel: string): RmqEvent[] {
  const events: RmqEvent[] = [];
  const p = new SourceParser({ file: rel, host: rel.split('/')[0], sourceIndex: 0, kindHint: null, kindForced: false, defaultZone: parseZone('+08:00') }, (e) => events.push(e));
  const lines = gunzipSync(readFileSync(join(REC, rel))).toString('utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  lines.forEach((l, i) => p.line(l, i + 1));
  p.end();
  return events;
}

const lab = JSON.parse(readFileSync(join(REC, 'lab.json'), 'utf8'));
const BROKER = 'mq-broker-a/logs/rocketmqlogs';

describe('rocketmq-client-java 5.0.7 SimpleConsumer (rocketmq-client.log)', () => {
  it.each(['app-stock-01', 'app-stock-02'])('%s: its start, a consumer of no printed group, and no failure', (host) => {
    const events = parse(`${host}/logs/rocketmq/rocketmq-client.log.gz`);
    const starts = events.filter((e) => e.entry === 'startup/grpc-simple-consumer');
    expect(starts).toHaveLength(1);
    expect(starts[0].fields).toMatchObject({ role: 'consumer', group: null });
    expect(starts[0].text).toMatch(/clientId=vm@\d+@0@\w+/);
    // The lab's listener failed deliveries on this host; the client logged none of them.
    expect(lab.consumers.find((c: { host: string }) => c.host === host).failed).toBeGreaterThan(0);
    expect(events.filter((e) => e.type === 'consume-failed')).toEqual([]);
  });
});

describe('the 5.3.3 broker inside the proxy', () => {
  const broker = parse(`${BROKER}/broker.log.gz`);

  it("reads the pop revive's creation of the group's pop retry topic, on its PopReviveService thread, and no other topic creation", () => {
    const made = broker.filter((e) => e.type === 'pop-revive');
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ entry: 'pop-revive/retry-topic-created', line: 563, thread: 'PopReviveService_5', fields: { retryTopic: '%RETRY%CID_STOCK_TopicOrder' } });
    // The proxy's send back creates %RETRY%CID_STOCK and %DLQ%CID_STOCK with the unbracketed form: no pop revive.
    expect(broker.find((e) => e.line === 565)?.type).not.toBe('pop-revive');
    // The first revive comes after the failures began (an invisible time after the first failed receive).
    expect(made[0].ts!).toBeGreaterThan(Date.parse(lab.faults[0].start));
  });

  it("reads the group's config, which holds its retryMaxTimes", () => {
    const cfg = broker.filter((e) => e.type === 'consumer-changed' && e.fields.change === 'group-config');
    expect(cfg.map((e) => [e.fields.group, e.fields.retryMaxTimes])).toEqual([['CID_STOCK', lab.consumerGroups[0].maxReconsumeTimes]]);
  });

  it("reads the broker's connections of the SimpleConsumers' client ids, with the group they print", () => {
    const ids = ['app-stock-01', 'app-stock-02'].map((h) => /clientId=([^,\s]+)/.exec(parse(`${h}/logs/rocketmq/rocketmq-client.log.gz`).find((e) => e.entry === 'startup/grpc-simple-consumer')!.text)![1]);
    const conns = broker.filter((e) => e.type === 'consumer-changed' && e.fields.change === 'connected');
    expect(conns.map((e) => [e.fields.group, e.fields.clientId])).toEqual(ids.map((id) => ['CID_STOCK', id]));
  });

  it("reads the proxy's DLQ forwards from the pop retry topic, as many as the admin tool counted", () => {
    const dlq = parse(`${BROKER}/broker_default.log.gz`).filter((e) => e.type === 'send-to-dlq');
    expect(dlq).toHaveLength(lab.consumerGroups[0].dlq.byAdminTool);
    for (const e of dlq) expect(e.fields).toMatchObject({ group: 'CID_STOCK', topic: '%RETRY%CID_STOCK_TopicOrder', stored: true });
    expect(dlq.map((e) => e.fields.msgId).sort()).toEqual([...lab.consumerGroups[0].dlq.msgIds].sort());
  });

  it("counts the pop revive's puts in the retry topic: one per failed delivery the lab counted", () => {
    const puts = parse(`${BROKER}/stats.log.gz`).filter((e) => e.type === 'stats' && e.fields.stat === 'TOPIC_PUT_NUMS' && e.fields.key === '%RETRY%CID_STOCK_TopicOrder');
    expect(puts.reduce((n, e) => n + Number(e.fields.sum), 0)).toBe(lab.consumerGroups[0].failed);
  });
});
