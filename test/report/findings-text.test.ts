import Table from 'cli-table3';
import { describe, expect, it } from 'vitest';
import { parseZone } from '../../src/parse/time.js';
import type { SourceAccounting } from '../../src/parse/types.js';
import { ANSI, PLAIN, paletteFor } from '../../src/report/escape.js';
import { adviceSaid, figuresTable, renderFindingsText, renderRulesText, rulesTableCells } from '../../src/report/findings-text.js';
import type { Incident } from '../../src/rules/incident.js';
import { wrapLines } from '../../src/report/text-layout.js';
import { ALL_RULES } from '../../src/rules/index.js';
import { metricText, subjectText, type AnalyzeReport } from '../../src/report/summary.js';
import { commonDir } from '../../src/util/paths.js';
import type { Milestone } from '../../src/rules/milestones.js';
import { sortFindings } from '../../src/rules/engine.js';
import type { Finding, Rule } from '../../src/rules/types.js';

const zone = parseZone('+08:00');
const T = (hms: string) => Date.parse(`2020-12-22T${hms}+08:00`);
// eslint-disable-next-line no-control-regex
const ANSI_RE = /\u001b\[[0-9;]*m/g;

const acc = (path: string, host: string, kind: SourceAccounting['kind'], lines: number, events: SourceAccounting['events']): SourceAccounting => ({
  path,
  kind,
  host,
  layout: kind === 'client' ? 'rocketmq-client-inner' : 'rocketmq-server',
  zone: '+08:00',
  lines,
  records: lines - 10,
  continuation: 10,
  unknown: 0,
  unreadable: 0,
  events,
});

const finding = (over: Partial<Finding>): Finding => ({
  rule: 'test-rule',
  severity: 'warning',
  title: 'Something happened',
  start: T('14:42:00'),
  end: T('14:43:00'),
  subject: { host: 'app-order-01' },
  metrics: {},
  evidence: [],
  explanation: 'An explanation long enough to be wrapped at eighty columns when the terminal is narrow, word by word.',
  advice: ['Do this first.', 'Then that.'],
  ...over,
});

const stuck = finding({
  rule: 'namesrv-stuck',
  severity: 'critical',
  title: 'app-order-01 stayed bound to NameServer 192.168.3.100:9876, which did not answer, for 11 min 46 s',
  start: T('14:42:19'),
  end: T('14:54:05'),
  subject: { client: 'app-order-01', namesrvAddr: '192.168.3.100:9876' },
  metrics: { stuckMs: 706000, timeouts: 23, detection: 'connection reset', brokersAffected: ['broker-a', 'broker-b'] },
  evidence: [
    { file: 'incident/app-order-01/rocketmq_client.log', line: 120, time: T('14:42:19.281'), text: 'updateTopicRouteInfoFromNameServer Exception\twith tab' },
    { file: 'incident/app-order-01/rocketmq_client.log', line: 2898, time: T('14:53:46.281'), text: 'new name server is chosen \u001b[2J\u001b]0;pwned\u0007 done' },
  ],
});
const busy = finding({
  rule: 'broker-busy',
  severity: 'warning',
  title: 'broker-b refused sends: 73 TIMEOUT_CLEAN_QUEUE replies',
  start: T('14:05:24'),
  end: T('14:13:46'),
  subject: { broker: 'broker-b', brokerAddr: '192.168.1.12:10911' },
  metrics: { rejections: 73, maxWaitMs: 799, maxQueueSize: 2703 },
  evidence: [{ file: 'incident/app-feed-01/app.log', line: 7, time: T('14:05:24.100'), text: 'x'.repeat(300) }],
});
const note = finding({ rule: 'note-rule', severity: 'info', title: 'For information', start: T('14:50:00'), end: null, metrics: { failures: 0 } });

const milestones: Milestone[] = [
  { time: T('14:44:05'), host: 'mq-node-101', kind: 'broker-expired', what: 'NameServer expired broker 192.168.3.100:10911 (no registration for over 120 s)', file: 'x', line: 13 },
  { time: T('14:53:46.281'), host: 'app-order-01', kind: 'namesrv-switch', what: 'client switched NameServer 192.168.3.100:9876 → 192.168.3.101:9876', file: 'y', line: 2898 },
];

function report(over: Partial<AnalyzeReport> = {}, findings: Finding[] = [note, busy, stuck]): AnalyzeReport {
  return {
    timeline: {
      accounting: [
        acc('incident/app-order-01/rocketmq_client.log', 'app-order-01', 'client', 2926, { 'rpc-timeout': 23, 'namesrv-chosen': 2 }),
        acc('incident/mq-node-101/namesrv.log', 'mq-node-101', 'namesrv', 51, { 'broker-expired': 1 }),
      ],
      issues: [],
      first: T('14:35:00'),
      last: T('14:59:59'),
      defaultZone: zone,
      defaultZoneChosen: false,
    },
    incidents: [],
    analysis: { findings: sortFindings(findings), milestones, omittedMilestones: 0 },
    rules: ['broker-busy', 'namesrv-stuck', 'note-rule'],
    settings: { waitTimeMillsInSendQueue: 200 },
    changed: {},
    severity: 'warning',
    show: 'info',
    zone,
    ...over,
  };
}

const render = (r: AnalyzeReport, width = 80, palette = PLAIN, verbose = false) => renderFindingsText(r, { width, palette, verbose });

describe('analyze text report', () => {
  it('starts with the counts, one line per finding, the inputs, the window, the zone note and the accounting', () => {
    const lines = render(report(), 120).split('\n');
    expect(lines[0]).toBe('rmq-diag analyze: 3 findings (1 critical, 1 warning, 1 info)');
    // The list: one line each, in the details' order, before what was read.
    expect(lines.slice(2, 5)).toEqual([
      '1. CRITICAL  namesrv-stuck  app-order-01 stayed bound to NameServer 192.168.3.100:9876, which did not answer, for 11 mi…',
      '2. WARNING  broker-busy  broker-b refused sends: 73 TIMEOUT_CLEAN_QUEUE replies',
      '3. INFO  note-rule  For information',
    ]);
    expect(lines[6]).toMatch(/^inputs /);
    const head = lines.slice(0, 14).join('\n');
    expect(head).toMatch(/^inputs {2}2 files from 2 hosts \(app-order-01, mq-node-101\)$/m);
    expect(head).toMatch(/^window {2}2020-12-22 14:35:00\.000 \.\. 2020-12-22 14:59:59\.000 \(24 min 59 s\)$/m);
    expect(head).toMatch(/^zone {4}times in \+08:00; sources whose layout does not fix a zone were read as/m);
    expect(head).toMatch(/^read {4}2,977 lines: 2,957 records, 20 continuation, 0 unknown, 0 unreadable; 26 events$/m);
    expect(head).toMatch(/^rules {3}3 run; exit code 1 at warning or above/m);
    // The per-file table only with --verbose.
    expect(render(report())).not.toMatch(/│ source/);
    expect(render(report(), 80, PLAIN, true)).toMatch(/│ source\s+│ kind/);
  });

  it('orders findings by severity, then time, each with subject, window, figures, advice and evidence', () => {
    const text = render(report(), 120);
    const at = (s: string) => text.indexOf(s);
    expect(at('1. CRITICAL  namesrv-stuck')).toBeGreaterThan(0);
    expect(at('2. WARNING  broker-busy')).toBeGreaterThan(at('1. CRITICAL'));
    expect(at('3. INFO  note-rule')).toBeGreaterThan(at('2. WARNING'));
    expect(text).toContain('   subject  client app-order-01, NameServer 192.168.3.100:9876');
    expect(text).toContain('   window   14:42:19.000 – 14:54:05.000 (11 min 46 s)');
    expect(text).toContain('   subject  broker broker-b (192.168.1.12:10911)');
    expect(text).toMatch(/│ stuckMs +│ 706000 ms \(11 min 46 s\) +│/);
    expect(text).toMatch(/│ maxWaitMs +│ 799 ms +│/);
    expect(text).toMatch(/│ brokersAffected +│ broker-a, broker-b +│/);
    expect(text).toContain('   - Do this first.');
    // Evidence relative to the folder all inputs share, with the time of day (one-day window).
    expect(text).toContain('   app-order-01/rocketmq_client.log:120  14:42:19.281  updateTopicRouteInfoFromNameServer Exception\\twith tab');
    expect(text).toMatch(/Timeline\n {2}14:44:05 {2}mq-node-101 {3}NameServer expired broker/);
  });

  it('fits 80 columns, coloured or not', () => {
    for (const palette of [PLAIN, ANSI]) {
      for (const verbose of [false, true]) {
        const text = render(report(), 80, palette, verbose).replace(ANSI_RE, '');
        for (const line of text.split('\n')) expect([...line].length, line).toBeLessThanOrEqual(80);
      }
    }
    const narrow = render(report(), 50).split('\n');
    for (const line of narrow) expect([...line].length, line).toBeLessThanOrEqual(50);
    for (const width of [100, 120, 140]) {
      for (const line of render(report(), width, PLAIN, true).split('\n')) expect([...line].length, line).toBeLessThanOrEqual(width);
    }
  });

  it('never lets evidence text drive the terminal', () => {
    for (const palette of [PLAIN, ANSI]) {
      const text = render(report(), 200, palette);
      expect(text).not.toContain('\u0007');
      expect(text).not.toContain('\u001b[2J');
      expect(text).not.toContain('\u001b]0;');
      expect(text).toContain('\\x1b[2J\\x1b]0;pwned\\x07 done');
    }
  });

  it('uses colour only from the palette: none with NO_COLOR or off a terminal', () => {
    expect(paletteFor({ isTTY: true }, { NO_COLOR: '1' })).toBe(PLAIN);
    expect(paletteFor({ isTTY: false }, {})).toBe(PLAIN);
    expect(render(report())).not.toMatch(/\u001b\[/);
    const coloured = render(report(), 80, ANSI);
    expect(coloured).toMatch(/\u001b\[31m1\. CRITICAL/);
    expect(coloured).toMatch(/\u001b\[33m2\. WARNING/);
  });

  it('clips long evidence on a terminal, keeps it whole otherwise', () => {
    expect(render(report(), 120)).toMatch(/^ {3}app-feed-01\/app\.log:7 {2}14:05:24\.100 {2}x{79}…$/m);
    // Narrow: the text goes under its place.
    expect(render(report(), 80)).toMatch(/^ {3}app-order-01\/rocketmq_client\.log:120 {2}14:42:19\.281\n {5}updateTopicRouteInfoFromNameServer/m);
    expect(render(report(), Infinity)).toContain('x'.repeat(300));
  });

  it('shows findings at or above --show and says how many it left out', () => {
    const text = render(report({ show: 'warning' }));
    expect(text).not.toContain('note-rule');
    expect(text).toContain('1 finding below warning not shown');
    expect(render(report({}, []))).toMatch(/^rmq-diag analyze: no findings$/m);
    expect(render(report({}, []))).toMatch(/^No findings\.$/m);
    expect(render(report({ show: 'critical' }, [busy]))).toMatch(/^No findings at critical or above\.$/m);
  });

  it('names --set values in the header, and counts the input notes (they go to stderr)', () => {
    const text = render(report({ changed: { waitTimeMillsInSendQueue: 500 } }));
    expect(text).toMatch(/^rules {3}3 run; --set waitTimeMillsInSendQueue=500;/m);
    const r = report();
    r.timeline.issues = [{ file: 'incident/x.log', line: 3, message: 'binary data skipped' }];
    expect(render(r)).toMatch(/^notes {3}1 about the inputs, on stderr$/m);
    expect(render(r)).not.toContain('binary data skipped');
  });
});

describe('report helpers', () => {
  it('formats metrics: milliseconds also for people, lists, nulls', () => {
    expect(metricText('maxWaitMs', 799)).toBe('799 ms');
    expect(metricText('stuckMs', 706000)).toBe('706000 ms (11 min 46 s)');
    expect(metricText('detectMs', 127000)).toBe('127000 ms (2 min 7 s)');
    expect(metricText('rejections', 73)).toBe('73');
    expect(metricText('ratio', 1 / 3)).toBe('0.33');
    expect(metricText('x', null)).toBe('-');
    expect(metricText('x', ['a', 'b'])).toBe('a, b');
    expect(metricText('x', true)).toBe('true');
    expect(metricText('switchedAt', T('14:53:46.281'), zone)).toBe('2020-12-22 14:53:46.281');
    expect(metricText('switchedAt', T('14:53:46.281'))).toBe(String(T('14:53:46.281')));
    // consumer-backlog's windows: slowFrom, blockedUntil, notLockedUntil are times too; detectFrom is a word.
    expect(metricText('blockedFrom', T('14:53:46.281'), zone)).toBe('2020-12-22 14:53:46.281');
    expect(metricText('notLockedUntil', T('14:53:46.281'), zone)).toBe('2020-12-22 14:53:46.281');
    expect(metricText('detectFrom', 'heartbeat', zone)).toBe('heartbeat');
  });

  it('names the subject', () => {
    expect(subjectText({ broker: 'broker-a', brokerAddr: '1.1.1.1:10911', topic: 'T' })).toBe('broker broker-a (1.1.1.1:10911), topic T');
    expect(subjectText({ brokerAddr: '1.1.1.1:10911', host: 'h', client: 'c' })).toBe('client c, broker 1.1.1.1:10911, host h');
    expect(subjectText({})).toBe('-');
  });

  it('finds the folder inputs share', () => {
    expect(commonDir(['a/b/c.log', 'a/b/d/e.log', 'a/b/f/g.log'])).toBe('a/b/');
    expect(commonDir(['a/x.log', 'b/y.log'])).toBe('');
    expect(commonDir(['/abs/h1/x.log', '/abs/h2/y.log', '-'])).toBe('/abs/');
    expect(commonDir(['x.log'])).toBe('');
    // Inputs inside and outside the working folder: one shown relative, one absolute (this looped).
    expect(commonDir(['/srv/a/x.log', 'logs/b/y.log'])).toBe('');
    expect(commonDir(['logs/b/y.log', '/srv/a/x.log', '/srv/c.log'])).toBe('');
    expect(commonDir(['/x.log', '/a/y.log'])).toBe('/');
  });

  it('wraps to the width, breaking words longer than a line', () => {
    const text = `short ${'y'.repeat(30)} words here and there`;
    const lines = wrapLines(text, 12, 2);
    expect(lines[0].length).toBeLessThanOrEqual(12);
    for (const l of lines.slice(1)) expect(l.length).toBeLessThanOrEqual(10);
    expect(lines.join(' ').replace(/ /g, '')).toBe(text.replace(/ /g, ''));
    expect(wrapLines('a\tb', 80)).toEqual(['a\\tb']);
  });

  it('keeps figures tables within the width and loses nothing', () => {
    const table = figuresTable([['brokersAffected', ['192.168.3.100:10911', '192.168.3.101:10911', 'z'.repeat(60)]]], 40);
    for (const line of table.split('\n')) expect([...line].length, line).toBeLessThanOrEqual(40);
    expect(table.replace(/[│\s]/g, '')).toContain('z'.repeat(20));
    expect(table).not.toContain('…');
  });
});

describe('rmq-diag rules table', () => {
  const rule: Rule = {
    meta: {
      id: 'broker-busy',
      title: 'Broker refuses sends with flow control',
      severity: 'error',
      description: 'd',
      versions: 'all brokers',
      settings: { waitTimeMillsInSendQueue: { default: 200, unit: 'ms', description: 'the broker setting of the same name' } },
      events: ['busy-reply'],
    },
    create: () => ({}),
  };
  it('lists id, severity, title, versions and settings with defaults, within the width', () => {
    const text = renderRulesText([rule], { width: 80, palette: PLAIN });
    expect(text).toMatch(/│ broker-busy\s+│ error\s+│ Broker refuses sends with flow control/);
    expect(text).toContain('versions: all brokers');
    expect(text).toContain('- waitTimeMillsInSendQueue = 200 ms: the broker');
    for (const line of text.split('\n')) expect([...line].length, line).toBeLessThanOrEqual(80);
    expect(renderRulesText([], { width: 80, palette: PLAIN })).toContain('(no rules registered)');
  });

  it('draws what cli-table3 draws for each rule as one row of multi-line cells, at every width', () => {
    // The table is drawn a line per row with the rules' separators added (findings-text.ts says
    // why); cli-table3's own drawing of the same cells is the reference. A rule whose id wraps too.
    const long: Rule = { ...rule, meta: { ...rule.meta, id: 'a-rule-with-a-very-long-identifier' } };
    const rules = [...ALL_RULES.slice(0, 3), long, rule];
    for (const width of [50, 80, 200]) {
      const { colWidths, rows } = rulesTableCells(rules, width);
      const reference = new Table({ head: ['rule', 'severity', 'what it finds'], colWidths, wordWrap: false, style: { head: [], border: [] } });
      for (const cells of rows) reference.push(cells.map((lines) => lines.join('\n')));
      // The cells are the rule's: its id, severity, title, versions and each setting with its default.
      expect(rows.map((cells) => cells[1][0])).toEqual(rules.map((r) => r.meta.severity));
      if (width === 200) expect(rows[4][2]).toEqual(['Broker refuses sends with flow control', 'versions: all brokers', 'settings:', '- waitTimeMillsInSendQueue = 200 ms: the broker setting of the same name']);
      const drawn = renderRulesText(rules, { width, palette: PLAIN });
      expect(drawn.slice(0, drawn.lastIndexOf('┘') + 1), `width ${width}`).toBe(reference.toString());
    }
  });
});

const incident = (over: Partial<Incident> = {}): Incident => ({
  id: 'I1',
  title: 'mq-node-100 hung for 11 min 38 s (a NameServer and broker-a on it): 1 client lost 72 sends',
  start: T('14:42:00'),
  end: T('14:53:38'),
  causes: [
    {
      kind: 'hang',
      host: 'mq-node-100',
      namesrvAddrs: ['192.168.3.100:9876'],
      brokers: [{ name: 'broker-a', addr: '192.168.3.100:10911', role: 'master' }],
      start: T('14:42:00'),
      end: T('14:53:38'),
      recognisedBy: 'the last line mq-node-100 wrote before 698 s of silence',
      evidence: ['mq-node-100/broker.log:12'],
      detail: null,
    },
  ],
  impact: [{ client: 'app-order-01', start: T('14:42:11'), end: T('14:53:10'), failedSends: 72, source: 'app', timeouts: 23, clientVersion: '4.7.1', lastedBecause: null }],
  chain: [{ at: T('14:42:00'), text: 'mq-node-100 hung', evidence: null, finding: null }],
  advice: [
    'Find out why mq-node-100 froze (kernel and hypervisor logs, memory, disk, long GC pauses).',
    'Upgrade app-order-01 (client 4.7.1) to 4.9.1 or later: before 4.9.1 a client never closes a NameServer channel that timed out.',
  ],
  findings: ['F1', 'F2'],
  ...over,
});

describe('the answer on the first and the last screen', () => {
  const upgrade = 'Upgrade app-order-01 (client 4.7.1) to 4.9.1 or later: before 4.9.1 a client never closes a NameServer channel that timed out.';
  const withAdvice = [
    { ...stuck, advice: [upgrade, 'Keep NameServers off broker hosts (see colocated-namesrv).'] },
    { ...busy, advice: [`Fix the NameServer side first (see namesrv-stuck). ${upgrade}`, 'Keep NameServers off broker hosts (see colocated-namesrv).'] },
    { ...note, advice: [upgrade] },
  ];
  const r = report({ incidents: [incident()] }, withAdvice);

  it('opens with the incident\'s cause and impact, then the findings\' list, then how it happened', () => {
    const lines = render(r).split('\n');
    const at = (re: RegExp) => lines.findIndex((l) => re.test(l));
    expect(at(/^INCIDENT 1 {2}mq-node-100 hung/)).toBe(2);
    expect(at(/^ {2}cause {4}14:42:00 – 14:53:38 {2}mq-node-100 hung/)).toBeGreaterThan(2);
    expect(at(/^ {2}impact {3}app-order-01 {2}72 sends lost/)).toBeGreaterThan(at(/^ {2}cause/));
    const list = at(/^1\. CRITICAL {2}namesrv-stuck {2}app-order-01 stayed bound/);
    expect(list).toBeGreaterThan(at(/^ {2}impact/));
    expect(lines[list + 1]).toMatch(/^2\. WARNING {2}broker-busy {2}broker-b refused sends/);
    expect(lines[list + 2]).toMatch(/^3\. INFO {2}note-rule {2}For information$/);
    // The list lines are one line each, cut at the width.
    expect(lines[list]).toHaveLength(80);
    expect(lines[list].endsWith('…')).toBe(true);
    // How it happened and what to change after the list, before the inputs and the details.
    expect(at(/^INCIDENT 1 {2}how it happened, what to change$/)).toBeGreaterThan(list + 2);
    expect(at(/^ {2}change {3}1\. Find out why mq-node-100 froze/)).toBeGreaterThan(list);
    expect(at(/^inputs /)).toBeGreaterThan(at(/^ {2}change/));
    expect(at(/^ {3}subject /)).toBeGreaterThan(at(/^inputs /));
  });

  it('ends with a recap: the cause, what the exit code means, where the details are', () => {
    const tail = render(r).trimEnd().split('\n').slice(-8).join('\n');
    expect(tail).toMatch(/^In short$/m);
    expect(tail).toMatch(/^ {2}cause {4}INCIDENT 1: mq-node-100 hung for 11 min 38 s/m);
    expect(tail).toMatch(/^ {2}exit {5}1: 2 findings at warning or above$/m);
    expect(tail).toMatch(/^ {2}details {2}above: the incident \(how it happened, what to change\), the 3 findings/m);
    expect(render({ ...r, severity: 'none' })).toMatch(/^ {2}exit {5}0: --severity none, findings never set it$/m);
    expect(render({ ...r, severity: 'critical', analysis: { ...r.analysis, findings: sortFindings([busy, note]) } })).toMatch(/^ {2}exit {5}0: no finding at critical or above$/m);
    // Without an incident, the most severe finding stands for the cause.
    expect(render(report())).toMatch(/^ {2}cause {4}no incident named; most severe: 1\. CRITICAL {2}namesrv-stuck/m);
    expect(render(report({}, []))).toMatch(/^ {2}cause {4}no incident named and no finding shown$/m);
  });

  it('says each advice once: the findings refer to the incident and to earlier findings', () => {
    const text = render(r, 200);
    // The incident's advice once, in the incident.
    expect(text.split(upgrade).length - 1).toBe(1);
    expect(text).toMatch(/^ {2}change {3}1\. Find out why/m);
    // Finding 1: the incident's advice by reference, its own advice whole.
    expect(text).toMatch(/^ {3}- see the incident above \(change 2\)$/m);
    expect(text.split('Keep NameServers off broker hosts (see colocated-namesrv).').length - 1).toBe(1);
    // Finding 2 quotes the incident's advice inside its own: its own words stay, the quote is a reference.
    expect(text).toMatch(/^ {3}- Fix the NameServer side first \(see namesrv-stuck\)\. See the incident above \(change 2\)\.$/m);
    expect(text).toMatch(/^ {3}- see finding 1 above$/m);
    // Finding 3: all its advice said before, on one line.
    expect(text).toMatch(/^ {3}advice {2}see the incident above \(change 2\)$/m);
    // Two incidents: each named.
    const two = render(report({ incidents: [incident(), incident({ id: 'I2', advice: ['Something else entirely, said by the second incident only.'] })] }, withAdvice), 200);
    expect(two).toMatch(/^ {3}- see incident 1 above \(change 2\)$/m);
    expect(adviceSaid([incident()]).get(upgrade)).toBe('the incident above (change 2)');
  });

  it('fits the width with an incident, the list and the recap', () => {
    for (const width of [80, 60]) for (const line of render(r, width).split('\n')) expect([...line].length, line).toBeLessThanOrEqual(width);
  });
});

describe('analyze text: the consumers\' impact', () => {
  const group = {
    group: 'CID_STOCK', topics: ['TopicOrder'], hosts: ['app-stock-01', 'app-stock-02'], failed: 381, failedHow: 'SNDBCK_PUT_NUMS in the broker stats', redelivered: 323, dlq: 58,
    dlqHow: 'at least: SNDBCK_PUT_NUMS minus TOPIC_PUT_NUMS [SCHEDULE_TOPIC_XXXX] in the broker stats', consumedAgain: null, skipped: null, lag: null, cachedAtLeast: null,
    unknown: ['consumed twice: no offset reset', 'lag: needs the broker stats'],
  };
  it('one block per group before the findings, a lower bound said so, unknown figures named, within 80 columns', () => {
    const text = render(report({ consumers: [group] }));
    const lines = text.split('\n');
    const at = lines.indexOf('CONSUMERS  impact per group');
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toBe('  group    CID_STOCK on TopicOrder (app-stock-01, app-stock-02)');
    expect(text).toContain('failed     381 deliveries (SNDBCK_PUT_NUMS in the broker stats)');
    expect(text).toContain('DLQ        at least 58 in %DLQ%CID_STOCK (SNDBCK_PUT_NUMS minus');
    expect(text).toContain('unknown    consumed twice, lag');
    expect(text.indexOf('CONSUMERS')).toBeLessThan(text.indexOf('In short'));
    for (const l of lines) expect(l.length, l).toBeLessThanOrEqual(80);
  });
  it('no block without consumers', () => {
    expect(render(report())).not.toContain('CONSUMERS');
  });
});
