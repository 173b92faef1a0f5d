// The consumer side of a 5.x gRPC recording (samples/lab/consumer-grpc-failures-dlq: two
// rocketmq-client-java 5.0.7 PushConsumers of CID_STOCK through a 5.3.3 local-mode proxy, whose
// listener failed a share of messages; lab.json holds the truth). Each catalogue entry these logs
// need, read from their real lines: the client's consume service start (its group), the listener's
// exceptions (group from that start, the exception from the next line, the pop consumer's
// whole-broker queue), the broker's group config (retryMaxTimes) and the DLQ moves.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SourceParser } from '../../src/parse/parser.js';
import { parseZone } from '../../src/parse/time.js';
import type { RmqEvent } from '../../src/parse/types.js';

const REC = join(__dirname, '..', '..', 'samples', 'lab', 'consumer-grpc-failures-dlq');

function parse(rel: string) {
  const events: RmqEvent[] = [];
  const p = new SourceParser({ file: rel, host: rel.split('/')[0], sourceIndex: 0, kindHint: null, kindForced: false, defaultZone: parseZone('+08:00') }, (e) => events.push(e));
  const lines = gunzipSync(readFileSync(join(REC, rel))).toString('utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  lines.forEach((l, i) => p.line(l, i + 1));
  return { events, acc: p.end() };
}

const lab = JSON.parse(readFileSync(join(REC, 'lab.json'), 'utf8'));

describe('rocketmq-client-java 5.0.7 (rocketmq-client.log)', () => {
  const { events, acc } = parse('app-stock-01/logs/rocketmq/rocketmq-client.log.gz');
  const failed = events.filter((e) => e.type === 'consume-failed');

  it("reads the push consumer's start as a consumer startup of its group", () => {
    const starts = events.filter((e) => e.entry === 'startup/grpc-consume-service');
    expect(starts).toHaveLength(1);
    expect(starts[0].fields).toMatchObject({ role: 'consumer', group: 'CID_STOCK' });
    expect(starts[0].line).toBe(12);
  });

  it("reads every listener exception the client logged, as the lab's deliveries that threw, with its group and exception", () => {
    const thrown = lab.consumers.find((c: { host: string }) => c.host === 'app-stock-01').failedByResult.exception;
    expect(failed).toHaveLength(thrown);
    for (const e of failed) {
      expect(e.entry).toBe('consume-failed/grpc-listener');
      // The line prints no group: it is the group the file's push consumer started with.
      expect(e.fields).toMatchObject({ returnType: 'EXCEPTION', group: 'CID_STOCK', topic: 'TopicOrder', brokerName: 'broker-a', queueId: null, reconsumeTimes: null });
      expect(e.fields.cause).toMatch(/LabGrpcConsumer\$HandlerException: inventory service call failed for order evt-\d+/);
      expect(e.fields.msgIds).toHaveLength(1);
    }
    expect(failed[0].fields.msgIds).toEqual(['0AD5001F391C4E0E2F2A21208B15007A']);
  });

  it('is no 5.1+ remoting client, though it writes the same layout', () => {
    expect(acc.layout).toContain('rocketmq-client-5x');
    expect(acc.versionHints).toEqual(['5.x-grpc']);
  });
});

describe('the 5.3.3 broker inside the proxy', () => {
  it("reads the group's config, which holds its retryMaxTimes", () => {
    const cfg = parse('mq-broker-a/logs/rocketmqlogs/broker.log.gz').events.filter((e) => e.type === 'consumer-changed' && e.fields.change === 'group-config');
    expect(cfg.map((e) => e.fields.group)).toEqual(['CID_STOCK']);
    expect(cfg[0].text).toContain('retryMaxTimes=2,');
  });

  it("reads the proxy's DLQ moves of the group's messages, as many as the admin tool counted", () => {
    const dlq = parse('mq-broker-a/logs/rocketmqlogs/broker_default.log.gz').events.filter((e) => e.type === 'send-to-dlq');
    expect(dlq).toHaveLength(lab.consumerGroups[0].dlq.byAdminTool);
    for (const e of dlq) expect(e.fields).toMatchObject({ group: 'CID_STOCK', stored: true });
    expect(dlq.map((e) => e.fields.msgId).sort()).toEqual([...lab.consumerGroups[0].dlq.msgIds].sort());
  });
});
