import { describe, expect, it } from 'vitest';
import { parseZone } from '../../src/parse/time.js';
import { analysisToJson, renderFindingsJson, rulesToJson } from '../../src/report/findings-json.js';
import type { AnalyzeReport } from '../../src/report/summary.js';
import type { Finding, Rule } from '../../src/rules/types.js';

const zone = parseZone('+08:00');
const T = (hms: string) => Date.parse(`2020-12-22T${hms}+08:00`);

const findings: Finding[] = [
  {
    rule: 'namesrv-stuck',
    severity: 'critical',
    title: 'stuck',
    start: T('14:42:19.281'),
    end: T('14:54:05'),
    subject: { client: 'app-order-01', namesrvAddr: '10.0.0.1:9876' },
    metrics: { stuckMs: 706000, timeouts: 23 },
    evidence: [
      { file: 'incident/app/rocketmq_client.log', line: 12, time: T('14:42:19.281'), text: 'raw \u001b[31m text' },
      { file: '-', line: 3, time: null, text: 'no date' },
    ],
    explanation: 'because',
    advice: ['do this'],
  },
  { rule: 'minor', severity: 'info', title: 'minor', start: null, end: null, subject: {}, metrics: {}, evidence: [], explanation: 'e', advice: [] },
];

function report(over: Partial<AnalyzeReport> = {}): AnalyzeReport {
  return {
    timeline: {
      accounting: [
        {
          path: 'incident/app/rocketmq_client.log',
          kind: 'client',
          host: 'app',
          layout: 'rocketmq-client-inner',
          zone: '+08:00',
          lines: 10,
          records: 6,
          continuation: 3,
          unknown: 1,
          unreadable: 0,
          events: { 'rpc-timeout': 2, 'namesrv-chosen': 1 },
        },
      ],
      issues: [{ file: 'incident/gone.log', line: null, message: 'no such file or directory' }],
      first: T('14:35:00'),
      last: T('14:59:59'),
      defaultZone: zone,
      defaultZoneChosen: false,
    },
    incidents: [],
    analysis: {
      findings,
      milestones: [
        { time: T('14:53:46.281'), host: 'app', kind: 'namesrv-switch', what: 'client switched NameServer a → b', file: 'incident/app/rocketmq_client.log', line: 2898 },
        { time: T('14:42:19.281'), host: 'app', kind: 'finding-start', what: 'namesrv-stuck begins: stuck', file: null, line: null, rule: 'namesrv-stuck' },
      ],
      omittedMilestones: 3,
    },
    rules: ['namesrv-stuck', 'minor'],
    settings: { routeTimeoutMs: 3000 },
    changed: {},
    severity: 'warning',
    show: 'info',
    zone,
    ...over,
  };
}

describe('analyze --json', () => {
  it('has the documented shape', () => {
    const doc = JSON.parse(renderFindingsJson(report()));
    expect(Object.keys(doc)).toEqual(['schemaVersion', 'inputs', 'summary', 'incidents', 'consumers', 'findings', 'milestones']);
    expect(doc.consumers).toEqual([]);
    expect(doc.schemaVersion).toBe(2);
    expect(doc.incidents).toEqual([]);
    expect(doc.inputs[0]).toMatchObject({
      path: 'incident/app/rocketmq_client.log',
      kind: 'client',
      host: 'app',
      layout: 'rocketmq-client-inner',
      zone: '+08:00',
      lines: 10,
      records: 6,
      events: 3,
      continuation: 3,
      unknown: 1,
      unreadable: 0,
    });
    expect(doc.summary).toEqual({
      window: { start: '2020-12-22T14:35:00.000+08:00', end: '2020-12-22T14:59:59.000+08:00' },
      zone: '+08:00',
      defaultZone: '+08:00',
      hosts: ['app'],
      partial: ["only one host read (app): the servers' logs (broker.log, namesrv.log, watermark.log) would tell the cause"],
      totals: { files: 1, lines: 10, records: 6, continuation: 3, unknown: 1, unreadable: 0, events: 3 },
      findings: { total: 2, critical: 1, error: 0, warning: 0, info: 1, shown: 2 },
      severity: 'warning',
      atOrAboveSeverity: 1,
      show: 'info',
      rules: ['namesrv-stuck', 'minor'],
      settings: { routeTimeoutMs: 3000 },
      milestonesOmitted: 3,
      findingsOmitted: {},
      issues: [{ file: 'incident/gone.log', line: null, message: 'no such file or directory' }],
    });
    expect(doc.findings[0]).toEqual({
      id: 'F1',
      rule: 'namesrv-stuck',
      severity: 'critical',
      title: 'stuck',
      start: '2020-12-22T14:42:19.281+08:00',
      end: '2020-12-22T14:54:05.000+08:00',
      subject: { client: 'app-order-01', namesrvAddr: '10.0.0.1:9876' },
      metrics: { stuckMs: 706000, timeouts: 23 },
      evidence: [
        { file: 'incident/app/rocketmq_client.log', line: 12, time: '2020-12-22T14:42:19.281+08:00', text: 'raw \u001b[31m text' },
        { file: '-', line: 3, time: null, text: 'no date' },
      ],
      explanation: 'because',
      advice: ['do this'],
    });
    expect(doc.findings[1]).toMatchObject({ start: null, end: null, subject: {} });
    expect(doc.milestones[0]).toEqual({
      time: '2020-12-22T14:53:46.281+08:00',
      host: 'app',
      kind: 'namesrv-switch',
      what: 'client switched NameServer a → b',
      file: 'incident/app/rocketmq_client.log',
      line: 2898,
    });
    expect(doc.milestones[1]).toMatchObject({ kind: 'finding-start', rule: 'namesrv-stuck', file: null });
  });

  it('writes times in the output zone and lists only findings at or above --show', () => {
    const doc = analysisToJson(report({ zone: parseZone('UTC'), show: 'warning' })) as any;
    expect(doc.summary.window.start).toBe('2020-12-22T06:35:00.000+00:00');
    expect(doc.findings.map((f: any) => f.rule)).toEqual(['namesrv-stuck']);
    expect(doc.summary.findings).toMatchObject({ total: 2, shown: 1 });
  });

  it('is one document ending in a newline (log text stays raw: JSON escapes it)', () => {
    const text = renderFindingsJson(report());
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).not.toContain('\u001b');
    expect(text).toContain('raw \\u001b[31m text');
  });
});

describe('rules --json', () => {
  it('lists ids, severities, versions and settings', () => {
    const rule: Rule = {
      meta: {
        id: 'r1',
        title: 'T',
        severity: 'error',
        description: 'D',
        versions: 'all',
        settings: { a: { default: 3, description: 'a setting', unit: 'ms' }, b: { default: true, description: 'b' } },
        events: ['busy-reply'],
      },
      create: () => ({}),
    };
    expect(rulesToJson([rule])).toEqual({
      schemaVersion: 1,
      rules: [
        {
          id: 'r1',
          title: 'T',
          severity: 'error',
          description: 'D',
          versions: 'all',
          events: ['busy-reply'],
          settings: { a: { default: 3, description: 'a setting', unit: 'ms' }, b: { default: true, description: 'b' } },
        },
      ],
    });
  });
});

describe('analyze --json: the consumers\' impact', () => {
  it('every figure of a group, times in the output zone, unknown ones null with the reasons', () => {
    const doc = JSON.parse(
      renderFindingsJson(
        report({
          consumers: [
            {
              group: 'CID_STOCK', topics: ['TopicOrder'], hosts: ['app-stock-01'], failed: 381, failedHow: 'SNDBCK_PUT_NUMS in the broker stats', redelivered: 323, dlq: 58,
              dlqHow: 'at least: x', consumedAgain: null, skipped: null, lag: { about: 208, at: T('14:37:00'), from: T('14:36:00'), until: T('14:37:00'), minutes: 4, how: 'h' },
              cachedAtLeast: null, unknown: ['consumed twice: no offset reset'],
            },
          ],
        }),
      ),
    );
    expect(doc.consumers).toEqual([
      {
        group: 'CID_STOCK', topics: ['TopicOrder'], hosts: ['app-stock-01'], failed: 381, failedHow: 'SNDBCK_PUT_NUMS in the broker stats', redelivered: 323, dlq: 58, dlqHow: 'at least: x',
        consumedAgain: null, skipped: null, lag: { about: 208, at: '2020-12-22T14:37:00.000+08:00', from: '2020-12-22T14:36:00.000+08:00', until: '2020-12-22T14:37:00.000+08:00', minutes: 4, how: 'h' },
        cachedAtLeast: null, unknown: ['consumed twice: no offset reset'],
      },
    ]);
  });
});
