// `rmq-diag analyze --format markdown`: the report as a postmortem draft (GitHub-flavoured
// Markdown): a summary, a findings table, one section per finding, and a mermaid timeline of the
// milestones. Log text stays inside code fences; table cells are escaped.

import { consumerFigures } from './consumers-text.js';
import { inputGaps } from '../ingest/coverage.js';
import { formatShort, type Zone } from '../parse/time.js';
import type { Finding, Rule } from '../rules/types.js';
import { formatMs } from '../util/durations.js';
import type { Timeline } from '../timeline/build.js';
import { escapeText } from './escape.js';
import { zoneNote } from './events.js';
import { oneDay, timeText } from './text-layout.js';
import { clockNotes, EVIDENCE_SHOWN, atOrAbove, countBySeverity, hostsOf, metricText, omittedFindingsText, severityWord, subjectText, totalsOf, windowText, type AnalyzeReport } from './summary.js';
import { commonDir, relativeTo } from '../util/paths.js';
import type { Milestone } from '../rules/milestones.js';
import { lostCellText } from './incident-text.js';
import type { Incident } from '../rules/incident.js';
import { plural } from '../util/text.js';

/**
 * A table cell: one line, with the characters that would end the cell or start markup escaped
 * (links and images, emphasis, code, HTML and entities, strikethrough): names from the input (a host
 * folder named `[x](javascript:...)`) stay text.
 */
export function mdCell(text: string): string {
  return escapeText(text).replace(/[\\|`*_[\]<>&~]/g, (c) => `\\${c}`);
}

/**
 * Inline prose from the rules: one paragraph. It names hosts, brokers and topics from the input, so
 * it is escaped like a cell, except the rules' own code spans (`sendMsgTimeout`), which Markdown
 * shows as they are (nothing inside a code span is markup).
 */
function mdText(text: string): string {
  const t = escapeText(text);
  let out = '';
  let at = 0;
  for (const m of t.matchAll(/`[^`\n]+`/g)) {
    out += mdCell(t.slice(at, m.index)) + m[0];
    at = m.index + m[0].length;
  }
  return out + mdCell(t.slice(at));
}

/** A fenced code block whose fence is longer than any backtick run inside. */
export function codeBlock(lines: string[], info = 'text'): string {
  const body = lines.map(escapeText).join('\n');
  let longest = 0;
  for (const m of body.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${body}\n${fence}`;
}

const num = (n: number) => n.toLocaleString('en-US');

export function renderFindingsMarkdown(r: AnalyzeReport): string {
  const t = r.timeline;
  const zone = r.zone;
  const sameDay = oneDay(t.first, t.last, zone);
  const all = r.analysis.findings;
  const shown = atOrAbove(all, r.show);
  const counts = countBySeverity(all, r.analysis.omittedFindings);
  const base = commonDir(t.accounting.map((a) => a.path));
  const out: string[] = [];

  out.push('# RocketMQ incident analysis', '');
  // What happened comes first, as in the text report.
  r.incidents.forEach((inc, i) => out.push(...incidentSection(inc, i + 1, zone, sameDay)));
  if (r.consumers?.length) {
    out.push('## Consumers', '');
    for (const c of r.consumers) {
      out.push(`### ${mdCell(c.group)}${c.hosts.length ? ` (${mdCell(c.hosts.join(', '))})` : ''}`, '');
      for (const f of consumerFigures(c, zone, sameDay)) out.push(`- ${mdCell(f.replace(/ +/, ': '))}`);
      for (const u of c.unknown) out.push(`- unknown: ${mdCell(u)}`);
      out.push('');
    }
  }
  const hosts = hostsOf(t.accounting);
  const tot = totalsOf(t.accounting);
  out.push('| | |', '|---|---|');
  out.push(`| inputs | ${mdCell(`${plural(t.accounting.length, 'file')} from ${plural(hosts.length, 'host')}: ${hosts.join(', ')}`)} |`);
  for (const gap of inputGaps(t.accounting)) out.push(`| partial | ${mdCell(gap)} |`);
  if (t.first !== null && t.last !== null) {
    out.push(`| window | ${mdCell(`${formatShort(t.first, zone)} .. ${formatShort(t.last, zone)} (${formatMs(t.last - t.first)})`)} |`);
  }
  out.push(`| times | ${mdCell(zoneNote(t as Timeline, zone))} |`);
  for (const note of clockNotes(r)) out.push(`| clock | ${mdCell(note)} |`);
  out.push(
    `| lines read | ${mdCell(`${num(tot.lines)}: ${num(tot.records)} records, ${num(tot.continuation)} continuation, ${num(tot.unknown)} unknown, ${num(tot.unreadable)} unreadable; ${num(tot.events)} events`)} |`,
  );
  const changed = Object.entries(r.changed).map(([k, v]) => `${k}=${v}`);
  out.push(`| rules | ${mdCell(`${r.rules.length} run${changed.length ? `; --set ${changed.join(', ')}` : ''}`)} |`);
  out.push(`| findings | ${mdCell(all.length ? Object.entries(counts).filter(([, n]) => n > 0).map(([s, n]) => `${n} ${s}`).join(', ') : 'none')} |`);
  out.push('');
  if (t.issues.length) {
    out.push('Input notes:', '');
    for (const i of t.issues) out.push(`- ${mdCell(`${i.file}${i.line !== null ? `:${i.line}` : ''}: ${i.message}`)}`);
    out.push('');
  }

  out.push('## Findings', '');
  if (!shown.length) out.push(all.length ? `No findings at ${r.show} or above.` : 'No findings.', '');
  else {
    out.push('| # | severity | rule | title | window | subject |', '|---|---|---|---|---|---|');
    shown.forEach((f, i) => {
      out.push(
        `| ${i + 1} | ${severityWord(f.severity)} | ${mdCell(f.rule)} | ${mdCell(f.title)} | ${mdCell(windowText(f, zone, sameDay))} | ${mdCell(subjectText(f.subject))} |`,
      );
    });
    out.push('');
  }
  const hidden = all.length - shown.length;
  if (hidden > 0) out.push(`${hidden} finding${hidden === 1 ? '' : 's'} below ${r.show} not shown.`, '');

  shown.forEach((f, i) => out.push(...findingSection(f, i + 1, zone, sameDay, base)));
  const omitted = omittedFindingsText(r.analysis.omittedFindings);
  if (omitted) out.push(mdText(omitted), '');

  if (r.analysis.milestones.length) {
    out.push('## Timeline', '');
    out.push(...milestoneTable(r.analysis.milestones, zone, sameDay), '');
    out.push(mermaidTimeline(r.analysis.milestones, zone, sameDay), '');
    if (r.analysis.omittedMilestones > 0) out.push(`${r.analysis.omittedMilestones} more milestones not shown.`, '');
  }
  return out.join('\n');
}

function incidentSection(inc: Incident, n: number, zone: Zone, sameDay: boolean): string[] {
  const at = (ts: number | null) => timeText(ts, zone, sameDay, false);
  const span = (a: number | null, b: number | null) => (b === null ? `${at(a)} –` : `${at(a)} – ${at(b)}`);
  const out: string[] = [`## Incident ${n}: ${mdText(inc.title)}`, ''];
  out.push('| cause | when | what ran there | how it was recognised |', '|---|---|---|---|');
  for (const c of inc.causes) {
    const on = [...c.namesrvAddrs.map((a) => `NameServer ${a}`), ...c.brokers.map((b) => `${b.name} ${b.role} ${b.addr}`)].join(', ') || '-';
    const how = `${c.recognisedBy}${c.detail ? ` (${c.detail})` : ''}${c.evidence.length ? `: ${c.evidence.slice(0, 3).join(', ')}` : ''}`;
    out.push(`| ${mdCell(`${c.host} ${c.kind}`)} | ${mdCell(span(c.start, c.end))} | ${mdCell(on)} | ${mdCell(how)} |`);
  }
  out.push('');
  if (inc.impact.length) {
    out.push('| client | lost | from – to | timed-out calls | why it lasted |', '|---|---|---|---|---|');
    for (const i of inc.impact) {
      const dur = i.start !== null && i.end !== null && i.end > i.start ? ` (${formatMs(i.end - i.start)})` : '';
      out.push(`| ${mdCell(i.client)} | ${lostCellText(i)} | ${mdCell(`${span(i.start, i.end)}${dur}`)} | ${i.timeouts} | ${mdCell(i.lastedBecause ?? '-')} |`);
    }
  } else out.push('No failed send in the logs.');
  out.push('');
  if (inc.chain.length) {
    out.push('**How it unfolded**', '');
    for (const s of inc.chain) out.push(`1. ${mdText(`${at(s.at)} ${s.text}`)}${s.finding ? ` (finding ${s.finding.slice(1)})` : ''}`);
    out.push('');
  }
  if (inc.advice.length) {
    out.push('**What to change**', '');
    for (const a of inc.advice) out.push(`- ${mdText(a)}`);
    out.push('');
  }
  if (inc.findings.length) out.push(`Findings: ${inc.findings.map((id) => id.slice(1)).join(', ')}.`, '');
  return out;
}

function findingSection(f: Finding, n: number, zone: Zone, sameDay: boolean, base: string): string[] {
  const out: string[] = [];
  out.push(`### ${n}. ${severityWord(f.severity)}: ${mdText(f.title)} (\`${f.rule.replace(/`/g, '')}\`)`, '');
  out.push(`- **Subject:** ${mdCell(subjectText(f.subject))}`);
  out.push(`- **Window:** ${mdCell(windowText(f, zone, sameDay))}`, '');
  const metrics = Object.entries(f.metrics);
  if (metrics.length) {
    out.push('| metric | value |', '|---|---|');
    for (const [k, v] of metrics) out.push(`| ${mdCell(k)} | ${mdCell(metricText(k, v, zone))} |`);
    out.push('');
  }
  if (f.explanation) out.push(mdText(f.explanation), '');
  if (f.advice.length) {
    out.push('**Advice**', '');
    for (const a of f.advice) out.push(`- ${mdText(a)}`);
    out.push('');
  }
  if (f.evidence.length) {
    out.push('**Evidence**', '');
    out.push(
      codeBlock(f.evidence.slice(0, EVIDENCE_SHOWN).map((e) => `${relativeTo(e.file, base)}:${e.line}  ${timeText(e.time, zone, sameDay)}  ${e.text.trim()}`)),
      '',
    );
  }
  return out;
}

function milestoneTable(ms: readonly Milestone[], zone: Zone, sameDay: boolean): string[] {
  const out = ['| time | host | what |', '|---|---|---|'];
  for (const m of ms) out.push(`| ${timeText(m.time, zone, sameDay, false)} | ${mdCell(m.host)} | ${mdCell(m.what)} |`);
  return out;
}

/**
 * Text for a mermaid timeline, read alike by mermaid 10 and 11. Mermaid 10's timeline lexer takes a
 * period as `[^#:\n;]+` and an event as `:\s[^#:\n;]+` (11 allows a `:` not followed by a space), so
 * no `:` may stand in either: `: ` becomes ` -`, and the colon of an `ip:port` becomes `∶` (U+2236,
 * which reads the same). `#` (a comment), `;` and `%%` (a comment in 10) are replaced too, and
 * angle brackets and backticks, which renderers read as markup.
 */
export function mermaidText(text: string): string {
  return escapeText(text)
    .replace(/#/g, '№')
    .replace(/;/g, ',')
    .replace(/%%/g, '% %')
    .replace(/</g, '‹')
    .replace(/>/g, '›')
    .replace(/:(?=\s|$)/g, ' -')
    .replace(/:/g, '∶')
    .replace(/`/g, "'");
}

function mermaidTimeline(ms: readonly Milestone[], zone: Zone, sameDay: boolean): string {
  const lines = ['```mermaid', 'timeline', `    title Milestones (times in ${zone.name})`];
  let period: string | null = null;
  for (const m of ms) {
    const p = timeText(m.time, zone, sameDay, false).replace(/:/g, '.');
    // The table above has the finding titles; the diagram stays short.
    const what = m.kind === 'finding-start' && m.rule ? (m.what.startsWith(`${m.rule} begins`) ? `${m.rule} begins` : m.rule) : m.what;
    const event = mermaidText(`${m.host} - ${what}`);
    if (p === period) lines.push(`        : ${event}`);
    else lines.push(`    ${p === '-' ? 'unknown time' : p} : ${event}`);
    period = p;
  }
  lines.push('```');
  return lines.join('\n');
}

/** `rmq-diag rules --format markdown`: the rule table of docs/analyze.md. */
export function renderRulesMarkdown(rules: readonly Rule[]): string {
  const out = ['| rule | severity | title | versions | settings (default) |', '|---|---|---|---|---|'];
  for (const r of rules) {
    const m = r.meta;
    const settings = Object.entries(m.settings)
      .map(([k, s]) => `${mdCell(k)} (${mdCell(String(s.default))}${s.unit ? ` ${mdCell(s.unit)}` : ''})`)
      .join(', ');
    out.push(`| \`${m.id.replace(/`/g, '')}\` | ${m.severity} | ${mdCell(m.title)} | ${mdCell(m.versions)} | ${settings || '-'} |`);
  }
  return `${out.join('\n')}\n`;
}
