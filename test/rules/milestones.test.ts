import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EventFields, EventType, RmqEvent } from '../../src/parse/types.js';
import { MAX_MILESTONES, MilestoneCollector, type Milestone } from '../../src/rules/milestones.js';
import { analyze, analyzeTimeline } from '../../src/rules/analyze.js';
import type { Finding, Rule } from '../../src/rules/types.js';
import { buildTimeline } from '../../src/timeline/build.js';

const T = (hms: string) => Date.parse(`2020-12-22T${hms}+08:00`);
let seq = 0;
const ev = (type: EventType, hms: string | null, host: string, fields: EventFields): RmqEvent => ({
  ts: hms === null ? null : T(hms),
  host,
  kind: 'client',
  file: `${host}/x.log`,
  line: ++seq,
  level: 'INFO',
  thread: null,
  logger: null,
  type,
  fields,
  text: type,
  source: 0,
  seq,
});

function collect(events: RmqEvent[], findings: Finding[] = [], show: Finding['severity'] = 'info') {
  const c = new MilestoneCollector();
  for (const e of events) c.visit(e);
  return c.finish(findings, show);
}
const whats = (ms: Milestone[]) => ms.map((m) => `${m.host} ${m.what}`);

describe('milestones', () => {
  it('tells broker and NameServer starts and stops, once per process per minute; not clients', () => {
    const { items } = collect([
      ev('startup', '14:00:00', 'app', { role: 'client', version: '4.8.0', group: null, brokerName: null, brokerAddr: null }),
      ev('startup', '14:00:01', 'ns', { role: 'namesrv', version: null, group: null, brokerName: null, brokerAddr: null }),
      ev('shutdown', '14:08:30', 'b', { role: 'broker', version: null }),
      ev('shutdown', '14:08:32', 'b', { role: 'broker', version: null }),
      ev('startup', '14:09:13', 'b', { role: 'broker', version: null, group: null, brokerName: 'broker-a', brokerAddr: '10.0.0.1:10911' }),
    ]);
    expect(whats(items)).toEqual(['ns NameServer started', 'b broker shutting down', 'b broker broker-a (10.0.0.1:10911) started']);
    expect(items.map((m) => m.kind)).toEqual(['startup', 'shutdown', 'startup']);
    expect(items[1]).toMatchObject({ time: T('14:08:30'), file: 'b/x.log' });
  });

  it('tells the first expiry and removal of a broker per NameServer, merging lines of the same second', () => {
    const { items } = collect([
      ev('broker-expired', '14:44:05', 'ns-101', { brokerAddr: '10.0.0.1:10911', idleMs: 120000 }),
      ev('broker-removed', '14:44:05', 'ns-101', { brokerAddr: '10.0.0.1:10911', brokerName: null, reason: 'remove' }),
      ev('broker-removed', '14:44:05', 'ns-101', { brokerAddr: null, brokerName: 'broker-a', reason: 'remove' }),
      ev('broker-removed', '14:44:05', 'ns-101', { brokerAddr: null, brokerName: 'broker-a', reason: 'remove' }),
      ev('broker-removed', '14:44:06', 'ns-102', { brokerAddr: '10.0.0.1:10911', brokerName: null, reason: 'channel-destroyed' }),
      // Again within five minutes: the same absence.
      ev('broker-removed', '14:46:00', 'ns-101', { brokerAddr: '10.0.0.1:10911', brokerName: null, reason: 'remove' }),
      // Much later: a new one.
      ev('broker-removed', '15:10:00', 'ns-101', { brokerAddr: '10.0.0.1:10911', brokerName: null, reason: 'unregister' }),
    ]);
    expect(whats(items)).toEqual([
      'ns-101 NameServer expired broker 10.0.0.1:10911 (no registration for over 120 s)',
      'ns-101 NameServer removed broker 10.0.0.1:10911, broker-a (remove)',
      'ns-102 NameServer removed broker 10.0.0.1:10911 (channel-destroyed)',
      'ns-101 NameServer removed broker 10.0.0.1:10911 (unregister)',
    ]);
  });

  it('tells NameServer switches, not first picks', () => {
    const { items } = collect([
      ev('namesrv-chosen', '14:35:16', 'app', { old: null, new: '10.0.0.1:9876', namesrvIndex: 413 }),
      ev('namesrv-chosen', '14:53:46', 'app', { old: '10.0.0.1:9876', new: '10.0.0.2:9876', namesrvIndex: 414 }),
    ]);
    expect(whats(items)).toEqual(['app client switched NameServer 10.0.0.1:9876 → 10.0.0.2:9876']);
  });

  it('tells brokers leaving and coming back to a route, one line for TBW102 and the app topic', () => {
    const route = (hms: string, host: string, topic: string, before: string[], after: string[]) =>
      ev('route-changed', hms, host, { topic, brokersBefore: before, brokersAfter: after });
    const { items } = collect([
      route('14:35:16.285', 'app', 'TBW102', [], ['broker-b', 'broker-a']),
      route('14:35:21.216', 'app', 'TopicOrder', [], ['broker-b', 'broker-a']),
      route('14:40:00.000', 'app', 'TopicOrder', ['broker-b', 'broker-a'], ['broker-a', 'broker-b']),
      route('14:53:46.285', 'app', 'TopicOrder', ['broker-b', 'broker-a'], ['broker-b']),
      route('14:53:46.288', 'app', 'TBW102', ['broker-b', 'broker-a'], ['broker-b']),
      route('14:53:46.500', 'pay', 'TopicPay', ['broker-b', 'broker-a'], ['broker-b']),
      route('14:54:16.283', 'app', 'TopicOrder', ['broker-b'], ['broker-b', 'broker-a']),
      route('14:54:16.286', 'app', 'TBW102', ['broker-b'], ['broker-b', 'broker-a']),
      route('14:55:00.000', 'app', 'TopicOrder', ['broker-b', 'broker-a'], ['broker-b', 'broker-a', 'broker-c']),
    ]);
    expect(whats(items)).toEqual([
      'app route of TopicOrder, TBW102 lost broker-a',
      'pay route of TopicPay lost broker-a',
      'app route of TopicOrder, TBW102 regained broker-a',
      'app route of TopicOrder gained broker-c',
    ]);
    expect(items[0]).toMatchObject({ kind: 'route-lost', time: T('14:53:46.285') });
  });

  it('tells the first and last busy reply per broker', () => {
    const busy = (hms: string, host: string, brokerAddr: string | null, waitMs: number) =>
      ev('busy-reply', hms, host, { reason: 'TIMEOUT_CLEAN_QUEUE', waitMs, queueSize: 1, code: 2, brokerAddr });
    const { items } = collect([
      busy('20:05:24', 'feed-2', '10.0.0.2:10911', 208),
      busy('20:06:00', 'feed-1', '10.0.0.2:10911', 201),
      busy('20:13:46', 'feed-1', '10.0.0.2:10911', 799),
      busy('20:14:00', 'old-client', null, 300),
    ]);
    expect(whats(items)).toEqual([
      'feed-2 first busy reply from 10.0.0.2:10911 (TIMEOUT_CLEAN_QUEUE, waited 208 ms)',
      'feed-1 last busy reply from 10.0.0.2:10911',
      'old-client first busy reply from a broker (address not logged, seen by old-client) (TIMEOUT_CLEAN_QUEUE, waited 300 ms)',
    ]);
    expect(items.map((m) => m.kind)).toEqual(['busy-first', 'busy-last', 'busy-first']);
  });

  it("adds each finding's start and end, not those below --show", () => {
    const f = (rule: string, severity: Finding['severity'], start: number | null, end: number | null): Finding => ({
      rule,
      severity,
      title: `${rule} title`,
      start,
      end,
      subject: { client: 'app' },
      metrics: {},
      evidence: [],
      explanation: '',
      advice: [],
    });
    const { items } = collect(
      [ev('namesrv-chosen', '14:50:00', 'app', { old: 'a:1', new: 'b:1', namesrvIndex: 1 })],
      [f('stuck', 'critical', T('14:42:00'), T('14:53:00')), f('once', 'warning', T('14:45:00'), T('14:45:00')), f('minor', 'info', T('14:46:00'), null), f('timeless', 'error', null, null)],
      'warning',
    );
    expect(whats(items)).toEqual(['app stuck begins: stuck title', 'app once: once title', 'app client switched NameServer a:1 → b:1', 'app stuck ends']);
    expect(items[0]).toMatchObject({ kind: 'finding-start', rule: 'stuck', file: null, line: null });
  });

  it('stays bounded: keeps findings and rare kinds first, then evenly spread route changes', () => {
    const events: RmqEvent[] = [ev('startup', '10:00:00', 'ns', { role: 'namesrv', version: null, group: null, brokerName: null, brokerAddr: null })];
    const start = T('10:00:01');
    for (let i = 0; i < 5000; i++) {
      const hms = new Date(start + i * 2000 + 8 * 3600_000).toISOString().slice(11, 23);
      const lose = i % 2 === 0;
      events.push(ev('route-changed', hms, `app-${i % 7}`, { topic: 'T', brokersBefore: lose ? ['a', 'b'] : ['b'], brokersAfter: lose ? ['b'] : ['a', 'b'] }));
    }
    const finding: Finding = { rule: 'r', severity: 'error', title: 't', start: T('11:00:00'), end: T('12:00:00'), subject: {}, metrics: {}, evidence: [], explanation: '', advice: [] };
    const { items, omitted } = collect(events, [finding]);
    expect(items.length).toBe(MAX_MILESTONES);
    expect(omitted).toBeGreaterThan(4900);
    expect(items[0].kind).toBe('startup');
    expect(items.filter((m) => m.kind.startsWith('finding')).length).toBe(2);
    // Sorted by time.
    for (let i = 1; i < items.length; i++) expect(items[i].time!).toBeGreaterThanOrEqual(items[i - 1].time!);
    // The last route change is kept.
    expect(items[items.length - 1].time).toBe(start + 4999 * 2000);
  });

  it('sorts records without a date beside the one before them', () => {
    const { items } = collect([
      ev('namesrv-chosen', '14:00:00', 'a', { old: 'x:1', new: 'y:1', namesrvIndex: 1 }),
      ev('namesrv-chosen', null, 'b', { old: 'x:1', new: 'y:1', namesrvIndex: 1 }),
      ev('namesrv-chosen', '14:10:00', 'c', { old: 'x:1', new: 'y:1', namesrvIndex: 1 }),
    ]);
    expect(items.map((m) => m.host)).toEqual(['a', 'b', 'c']);
    expect(items[1].time).toBeNull();
  });
});

describe('one pass: rules and milestones', () => {
  const counting: Rule = {
    meta: { id: 'count-expired', title: 'Expiries', severity: 'warning', description: 'test', versions: 'all', settings: {}, events: ['broker-expired'] },
    create(ctx) {
      const seen: RmqEvent[] = [];
      return {
        'broker-expired': (e) => seen.push(e),
        end() {
          if (seen.length) {
            ctx.report({ title: `${seen.length} expiries`, start: seen[0].ts, end: seen[0].ts, subject: { host: seen[0].host }, metrics: { failures: seen.length }, evidence: seen, explanation: 'x', advice: ['y'] });
          }
        },
      };
    },
  };

  it('finds the seed outage milestones beside the findings', async () => {
    const t = await buildTimeline({ inputs: [join(__dirname, '..', '..', 'samples', 'seed-outage')], workers: 0 });
    try {
      const a = analyze(t, { rules: [counting] });
      expect(a.findings.map((f) => f.rule)).toEqual(['count-expired']);
      const at = (kind: string, host: string) => a.milestones.find((m) => m.kind === kind && m.host === host);
      expect(at('broker-expired', 'mq-node-101')).toMatchObject({ time: Date.parse('2020-12-22T14:44:05+08:00') });
      expect(at('route-lost', 'app-pay-01')).toMatchObject({ time: Date.parse('2020-12-22T14:44:26+08:00'), what: 'route of TopicPay, TBW102 lost broker-a' });
      expect(at('namesrv-switch', 'app-order-01')).toMatchObject({ time: Date.parse('2020-12-22T14:53:46.281+08:00') });
      expect(at('startup', 'mq-node-100')).toMatchObject({ time: Date.parse('2020-12-22T14:53:50+08:00'), what: 'NameServer started' });
      expect(at('finding-start', 'mq-node-101')).toMatchObject({ rule: 'count-expired' });
      expect(a.milestones.length).toBeLessThanOrEqual(MAX_MILESTONES);
    } finally {
      t.close();
    }
  });

  it('analyzeTimeline still gives the findings alone', async () => {
    const t = await buildTimeline({ inputs: [join(__dirname, '..', '..', 'samples', 'seed-outage')], workers: 0 });
    try {
      expect(analyzeTimeline(t, { rules: [counting] }).map((f) => f.metrics)).toEqual([{ failures: 1 }]);
    } finally {
      t.close();
    }
  });
});
