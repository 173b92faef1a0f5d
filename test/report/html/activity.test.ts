import { describe, expect, it } from 'vitest';
import type { RmqEvent, SourceAccounting } from '../../../src/parse/types.js';
import { ACTIVITY_BUCKETS, MARKS_PER_HOST, activityCollector } from '../../../src/report/html/activity.js';

const source = (host: string, kind: SourceAccounting['kind'], path: string): SourceAccounting =>
  ({ path, kind, host, layout: 'x', zone: '+08:00', lines: 0, records: 0, continuation: 0, unknown: 0, unreadable: 0, events: {} }) as SourceAccounting;

const ev = (o: Partial<RmqEvent>): RmqEvent =>
  ({ ts: 0, host: 'app', kind: 'app', file: 'app/app.log', line: 1, level: 'INFO', thread: null, logger: null, type: 'other', fields: {}, text: '', source: 0, seq: 0, ...o }) as RmqEvent;

describe('the HTML timeline\'s activity', () => {
  const sources = [source('app', 'app', 'app/app.log'), source('app', 'client', 'app/rocketmq_client.log')];

  it('counts sends delivered and failed per bucket, in a fixed number of buckets whatever the input', () => {
    const c = activityCollector(sources, 0, 1_000_000);
    for (let i = 0; i < 200_000; i++) c.visit(ev({ ts: i * 5, line: i + 1, text: `order sent, msgId=${i}` }));
    c.visit(ev({ ts: 999_999, type: 'send-failed', level: 'ERROR', text: 'MQClientException: Send [3] times, still failed' }));
    const a = c.finish();
    const app = a.hosts.find((h) => h.host === 'app')!;
    expect(app.sent).toHaveLength(ACTIVITY_BUCKETS);
    expect(app.sent.reduce((x, y) => x + y, 0)).toBe(200_000);
    expect(app.failed[ACTIVITY_BUCKETS - 1]).toBe(1);
    expect(app.failureSource).toBe('app');
    expect(app.sentSource).toBe('app');
    expect(app.kinds.sort()).toEqual(['app', 'client']);
  });

  it('says the delivered sends are unknown when the application logs only its failures (a client logs no successful send)', () => {
    // As samples/lab/seed-outage/app-order-01/logs/app.log: a start line, then only failures.
    const c = activityCollector(sources, 0, 1_000_000);
    c.visit(ev({ ts: 1000, text: 'Publisher started: group=PID_ORDER, topic=TopicOrder, namesrvAddr=10.213.0.11:9876;10.213.0.12:9876' }));
    for (let i = 0; i < 5; i++) c.visit(ev({ ts: 2000 + i, line: i + 2, level: 'ERROR', type: 'send-failed', text: 'Failed to publish event, topic=TopicOrder, key=evt-157' }));
    // A late response the client logs with its msgId is no send the application saw delivered.
    c.visit(ev({ ts: 3000, kind: 'client', file: 'app/rocketmq_client.log', level: 'WARN', text: 'RemotingCommand [code=0, extFields={msgId=0AD5000C00002A9F0000000000010B32}]' }));
    const app = c.finish().hosts.find((h) => h.host === 'app')!;
    expect(app.sentSource).toBeNull();
    expect(app.sent.every((n) => n === 0)).toBe(true);
    expect(app.failed.reduce((x, y) => x + y, 0)).toBe(5);
  });

  it('counts the sends of statistics lines over the interval since the previous one, without lines per send', () => {
    // As samples/broker-busy/app-feed-01/app.log: `feed publisher stats: sent=N, failed=M` every 10 s.
    const c = activityCollector(sources, 0, 240_000);
    c.visit(ev({ ts: 10_000, text: 'feed publisher stats: sent=2024, failed=0, avgRt=4ms' }));
    c.visit(ev({ ts: 20_000, text: 'feed publisher stats: sent=1721, failed=0, avgRt=4ms' }));
    const app = c.finish().hosts.find((h) => h.host === 'app')!;
    expect(app.sentSource).toBe('stats');
    expect(app.sent.reduce((x, y) => x + y, 0)).toBe(2024 + 1721);
    // 1 s per bucket: the second line's 1721 over the 10 buckets after the first line's.
    expect(app.sent[10]).toBe(2024);
    expect(app.sent.slice(11, 21).reduce((x, y) => x + y, 0)).toBe(1721);
    expect(Math.min(...app.sent.slice(11, 21))).toBe(172);
    expect(app.sent[21]).toBe(0);
  });

  it('prefers lines per send to statistics lines (no send counted twice)', () => {
    const c = activityCollector(sources, 0, 240_000);
    c.visit(ev({ ts: 1000, text: 'order sent, msgId=1' }));
    c.visit(ev({ ts: 10_000, text: 'stats: sent=50, failed=0' }));
    const app = c.finish().hosts.find((h) => h.host === 'app')!;
    expect(app.sentSource).toBe('app');
    expect(app.sent.reduce((x, y) => x + y, 0)).toBe(1);
  });

  it('keeps the first and the last NameServer bindings of a client, and counts the others', () => {
    const c = activityCollector(sources, 0, 100_000);
    const n = 500;
    for (let i = 0; i < n; i++) {
      c.visit(ev({ ts: i * 100, kind: 'client', file: 'app/rocketmq_client.log', line: i + 1, type: 'namesrv-chosen', fields: { old: i ? `10.0.0.${i % 2}:9876` : null, new: `10.0.0.${(i + 1) % 2}:9876` }, text: `new name server is chosen ${i}` }));
    }
    const a = c.finish();
    expect(a.marks.length).toBe(MARKS_PER_HOST + MARKS_PER_HOST / 2 + 1);
    expect(a.marks.length + a.omittedMarks).toBe(n);
    expect(a.marks[0]).toMatchObject({ kind: 'namesrv-bind', what: 'bound to NameServer 10.0.0.1:9876', line: 1 });
    expect(a.marks[a.marks.length - 1]).toMatchObject({ kind: 'namesrv-switch', line: n });
  });

  it('keeps the text of the lines milestones name, bounded per type and host', () => {
    const c = activityCollector([source('ns', 'namesrv', 'ns/namesrv.log')], 0, 100_000);
    for (let i = 0; i < 10_000; i++) c.visit(ev({ ts: i, host: 'ns', kind: 'namesrv', file: 'ns/namesrv.log', line: i + 1, type: 'broker-expired', text: `line ${i}` }));
    const a = c.finish();
    expect(a.lines.size).toBe(80);
    expect(a.lines.get('ns/namesrv.log:1')?.text).toBe('line 0');
    expect(a.lines.get('ns/namesrv.log:10000')?.text).toBe('line 9999');
  });
});
