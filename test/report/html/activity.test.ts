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
    expect(app.kinds.sort()).toEqual(['app', 'client']);
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
