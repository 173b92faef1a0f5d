import { describe, expect, it } from 'vitest';
import { parseZone } from '../../src/parse/time.js';
import { codeBlock, mdCell, mermaidText, renderFindingsMarkdown, renderRulesMarkdown } from '../../src/report/findings-markdown.js';
import type { AnalyzeReport } from '../../src/report/summary.js';
import { sortFindings } from '../../src/rules/engine.js';
import type { Finding, Rule } from '../../src/rules/types.js';

const zone = parseZone('+08:00');
const T = (hms: string) => Date.parse(`2020-12-22T${hms}+08:00`);

const base = (over: Partial<Finding>): Finding => ({
  rule: 'r',
  severity: 'warning',
  title: 't',
  start: T('14:00:00'),
  end: T('14:10:00'),
  subject: {},
  metrics: {},
  evidence: [],
  explanation: 'Because <b>bold</b> things happen.',
  advice: ['Check `clientCloseSocketIfTimeout`.'],
  ...over,
});

const findings = sortFindings([
  base({
    rule: 'broker-busy',
    title: 'Busy | with `ticks` and *stars*',
    subject: { broker: 'broker_b', brokerAddr: '10.0.0.2:10911' },
    metrics: { maxWaitMs: 799, 'odd|name': 'a|b', list: ['x', 'y'] },
    evidence: [
      { file: 'incident/app/app.log', line: 7, time: T('14:05:24.100'), text: 'CODE: 2 ``` fence \u001b[2J inside' },
      { file: 'incident/app/app.log', line: 9, time: null, text: 'second' },
    ],
  }),
  base({ rule: 'namesrv-stuck', severity: 'critical', title: 'Stuck', start: T('14:42:19'), end: T('14:54:05'), metrics: { stuckMs: 706000 } }),
]);

function report(over: Partial<AnalyzeReport> = {}): AnalyzeReport {
  return {
    timeline: {
      accounting: [
        { path: 'incident/app/app.log', kind: 'app', host: 'app', layout: 'spring-boot', zone: '+08:00', lines: 5, records: 5, continuation: 0, unknown: 0, unreadable: 0, events: {} },
      ],
      issues: [],
      first: T('14:00:00'),
      last: T('14:59:59'),
      defaultZone: zone,
      defaultZoneChosen: false,
    },
    incidents: [],
    analysis: {
      findings,
      milestones: [
        { time: T('14:44:05'), host: 'ns#1', kind: 'broker-expired', what: 'NameServer expired broker 10.0.0.1:10911 (no registration: over 120 s); really', file: 'f', line: 1 },
        { time: T('14:44:05.500'), host: 'ns-2', kind: 'broker-removed', what: 'NameServer removed broker <broker-a>', file: 'f', line: 2 },
        { time: T('14:53:46'), host: 'app', kind: 'namesrv-switch', what: 'client switched NameServer a:9876 → b:9876', file: 'f', line: 3 },
      ],
      omittedMilestones: 0,
    },
    rules: ['broker-busy', 'namesrv-stuck'],
    settings: {},
    changed: {},
    severity: 'warning',
    show: 'info',
    zone,
    ...over,
  };
}

describe('analyze --format markdown', () => {
  const md = renderFindingsMarkdown(report());

  it('has a heading, a summary table, a findings table in severity order, and a section per finding', () => {
    expect(md).toMatch(/^# RocketMQ incident analysis\n/);
    expect(md).toContain('| inputs | 1 file from 1 host: app |');
    expect(md).toContain('| findings | 1 critical, 1 warning |');
    expect(md).toContain('## Findings');
    const rows = md.split('\n').filter((l) => /^\| \d+ \|/.test(l));
    expect(rows[0]).toMatch(/^\| 1 \| CRITICAL \| namesrv-stuck \| Stuck \| 14:42:19\.000 – 14:54:05\.000 \(11 min 46 s\) \| - \|$/);
    expect(rows[1]).toMatch(/^\| 2 \| WARNING \| broker-busy \|/);
    expect(md).toContain('### 1. CRITICAL: Stuck (`namesrv-stuck`)');
    expect(md).toContain('| stuckMs | 706000 ms (11 min 46 s) |');
    expect(md).toContain('**Advice**\n\n- Check `clientCloseSocketIfTimeout`.');
    // Prose keeps no raw HTML.
    expect(md).toContain('Because \\<b\\>bold\\</b\\> things happen.');
  });

  it('escapes | and backticks in table cells', () => {
    expect(md).toContain('| 2 | WARNING | broker-busy | Busy \\| with \\`ticks\\` and \\*stars\\* |');
    expect(md).toContain('broker broker\\_b (10.0.0.2:10911)');
    expect(md).toContain('| odd\\|name | a\\|b |');
    expect(md).toContain('| list | x, y |');
    // Every table row has the number of cells of its header.
    for (const block of md.split('\n\n')) {
      const rows = block.split('\n').filter((l) => l.startsWith('|'));
      if (rows.length < 2) continue;
      const cells = (l: string) => l.replace(/\\\|/g, '').split('|').length;
      for (const r of rows) expect(cells(r), r).toBe(cells(rows[0]));
    }
  });

  it('keeps log text in a code fence longer than any backtick run inside, escaped', () => {
    expect(md).toContain('````text\napp.log:7  14:05:24.100  CODE: 2 ``` fence \\x1b[2J inside\napp.log:9  -  second\n````');
    expect(md).not.toContain('\u001b');
    expect(codeBlock(['plain'])).toBe('```text\nplain\n```');
  });

  it('draws the milestones as a mermaid timeline that mermaid can read', () => {
    const block = /```mermaid\n([\s\S]*?)\n```/.exec(md)![1].split('\n');
    expect(block[0]).toBe('timeline');
    expect(block[1]).toBe('    title Milestones (times in +08:00)');
    // Periods carry no colon; events no `: ` nor `#`.
    expect(block[2]).toBe('    14.44.05 : ns№1 - NameServer expired broker 10.0.0.1∶10911 (no registration - over 120 s), really');
    expect(block[3]).toBe('        : ns-2 - NameServer removed broker ‹broker-a›');
    expect(block[4]).toBe('    14.53.46 : app - client switched NameServer a∶9876 → b∶9876');
    // Mermaid 10 reads no `:`, `#` or `;` in a period or an event (the browser test parses every sample's block with 10 and 11).
    for (const line of block.slice(2)) {
      const [period, ...events] = line.split(/ : /);
      expect(period).not.toMatch(/[:#;]/);
      for (const e of events) expect(e).not.toMatch(/[:#;]|%%/);
    }
    expect(md).toContain('| 14:44:05 | ns#1 | NameServer expired broker');
  });

  it('says when there is nothing to report', () => {
    const empty = renderFindingsMarkdown(report({ analysis: { findings: [], milestones: [], omittedMilestones: 0 } }));
    expect(empty).toContain('No findings.');
    expect(empty).not.toContain('```mermaid');
  });

  it('escapes cells and text for mermaid', () => {
    expect(mdCell('a|b`c\\d\u0007')).toBe('a\\|b\\`c\\\\d\\\\x07');
    expect(mermaidText('a: b #c; <d>: 10.0.0.1:9876 %%x')).toBe('a - b №c, ‹d› - 10.0.0.1∶9876 % %x');
  });
});

describe('rules --format markdown', () => {
  it('is the rules table of docs/analyze.md', () => {
    const rule: Rule = {
      meta: { id: 'r1', title: 'A | B', severity: 'error', description: 'd', versions: '4.x', settings: { s: { default: 200, unit: 'ms', description: 'x' } }, events: [] },
      create: () => ({}),
    };
    expect(renderRulesMarkdown([rule])).toBe(
      '| rule | severity | title | versions | settings (default) |\n|---|---|---|---|---|\n| `r1` | error | A \\| B | 4.x | s (200 ms) |\n',
    );
  });
});
