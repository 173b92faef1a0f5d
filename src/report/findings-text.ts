// `rmq-diag analyze` for people: the answer first (each incident's cause and impact, one line per
// finding), then how the incident happened and what to change, what was read, each finding in detail
// (severity, rule, title, subject, window, figures, explanation, advice, evidence), a short timeline
// of milestones, and a recap of a few lines (the cause, the exit code, where the details are), so
// that the first screen and the last both carry the answer. Fits the terminal width; colour comes from the palette (none off a terminal or with NO_COLOR). Text from the
// logs is escaped everywhere (src/report/escape.ts).

import { consumerLines } from './consumers-text.js';
import Table from 'cli-table3';
import { formatShort, type Zone } from '../parse/time.js';
import type { Milestone } from '../rules/milestones.js';
import { SEVERITIES, type Finding, type MetricValue, type Rule, type Severity } from '../rules/types.js';
import { formatMs } from '../util/durations.js';
import type { Timeline } from '../timeline/build.js';
import { commonDir, relativeTo } from '../util/paths.js';
import { clip, escapeText, type Palette } from './escape.js';
import { inputGaps } from '../ingest/coverage.js';
import { accountingTable, zoneNote } from './events.js';
import { incidentCount, incidentDetailLines, incidentHeadLines } from './incident-text.js';
import type { Incident } from '../rules/incident.js';
import { atOrAbove, clockNotes, countBySeverity, EVIDENCE_SHOWN, hostsOf, metricText, omittedFindingsText, severityWord, subjectText, totalsOf, windowText, type AnalyzeReport } from './summary.js';
import { hang, oneDay, timeText, wrapIndented, wrapLines } from './text-layout.js';

interface TextOptions {
  /** Terminal width; Infinity when not a terminal (prose is then wrapped at 100, log text is not cut). */
  width: number;
  palette: Palette;
  /** Also the per-file accounting table. */
  verbose: boolean;
}

const PROSE_WIDTH = 100;

const num = (n: number) => n.toLocaleString('en-US');

// --- text ------------------------------------------------------------------------------------

export function renderFindingsText(r: AnalyzeReport, o: TextOptions): string {
  const W = Number.isFinite(o.width) ? Math.max(40, o.width) : PROSE_WIDTH;
  const cut = Number.isFinite(o.width);
  const p = o.palette;
  const t = r.timeline;
  const sameDay = oneDay(t.first, t.last, r.zone);
  const shown = atOrAbove(r.analysis.findings, r.show);
  const counts = countBySeverity(r.analysis.findings, r.analysis.omittedFindings);
  const out: string[] = [];

  // Header.
  const total = SEVERITIES.reduce((n, s) => n + counts[s], 0);
  const bySev = SEVERITIES.filter((s) => counts[s] > 0).map((s) => `${counts[s]} ${s}`);
  out.push(p.bold(wrapIndented(`rmq-diag analyze: ${incidentCount(r.incidents)}${total === 0 ? 'no findings' : `${total} finding${total === 1 ? '' : 's'} (${bySev.join(', ')})`}`, W)));
  out.push('');
  // The answer comes first: what broke and who was hurt, then one line per finding, so that the
  // first screen (24 lines of 80 columns) holds the cause, the impact and the list.
  r.incidents.forEach((inc, i) => out.push(...incidentHeadLines(inc, i + 1, r.zone, sameDay, W, p), ''));
  if (r.consumers?.length) out.push(...consumerLines(r.consumers, r.zone, sameDay, W, p), '');
  if (shown.length) out.push(...findingListLines(shown, W, p), '');
  // How it happened and what to change; the findings below refer to this advice rather than repeat it.
  r.incidents.forEach((inc, i) => out.push(...incidentDetailLines(inc, i + 1, r.zone, sameDay, W, p), ''));
  out.push(...inputLines(r, W, o), '');

  // Findings.
  if (!shown.length) {
    out.push(total ? p.dim(`No findings at ${r.show} or above.`) : p.green('No findings.'), '');
  }
  const base = commonDir(t.accounting.map((a) => a.path));
  const advice = adviceSaid(r.incidents);
  shown.forEach((f, i) => {
    out.push(...findingText(f, i + 1, r.zone, sameDay, base, W, cut, p, advice), '');
  });
  const hidden = r.analysis.findings.length - shown.length;
  if (hidden > 0) out.push(p.dim(wrapIndented(`${hidden} finding${hidden === 1 ? '' : 's'} below ${r.show} not shown (--show info shows all).`, W)), '');
  const omitted = omittedFindingsText(r.analysis.omittedFindings);
  if (omitted) out.push(p.dim(wrapIndented(omitted, W)), '');

  // Timeline.
  if (r.analysis.milestones.length) {
    out.push(p.bold('Timeline'));
    out.push(...milestoneLines(r.analysis.milestones, r.zone, sameDay, W));
    if (r.analysis.omittedMilestones > 0) out.push(p.dim(`  (${r.analysis.omittedMilestones} more milestones not shown)`));
    out.push('');
  }
  // The last screen holds the answer too (a report read without a pager ends here).
  out.push(...recapLines(r, shown, W, p));
  return `${out.join('\n')}\n`;
}

/** What was read: files, hosts, window, zone, lines, rules (and the accounting table with -v). */
function inputLines(r: AnalyzeReport, W: number, o: TextOptions): string[] {
  const t = r.timeline;
  const out: string[] = [];
  const hosts = hostsOf(t.accounting);
  const field = (name: string, text: string) => hang(`${name.padEnd(8)}`, text, W);
  out.push(field('inputs', `${t.accounting.length} file${t.accounting.length === 1 ? '' : 's'} from ${hosts.length} host${hosts.length === 1 ? '' : 's'} (${hosts.join(', ')})`));
  for (const gap of inputGaps(t.accounting)) out.push(field('partial', gap));
  if (t.first !== null && t.last !== null) {
    out.push(field('window', `${formatShort(t.first, r.zone)} .. ${formatShort(t.last, r.zone)} (${formatMs(t.last - t.first)})`));
  }
  out.push(field('zone', zoneNote(t as Timeline, r.zone)));
  for (const note of clockNotes(r)) out.push(field('clock', note));
  const tot = totalsOf(t.accounting);
  out.push(
    field(
      'read',
      `${num(tot.lines)} lines: ${num(tot.records)} records, ${num(tot.continuation)} continuation, ${num(tot.unknown)} unknown, ${num(tot.unreadable)} unreadable; ${num(tot.events)} events`,
    ),
  );
  const changed = Object.entries(r.changed).map(([k, v]) => `${k}=${v}`);
  out.push(
    field(
      'rules',
      `${r.rules.length ? r.rules.length : 'no rules'} run${changed.length ? `; --set ${changed.join(', ')}` : ''}; ${r.severity === 'none' ? 'exit code 0 whatever is found' : `exit code 1 at ${r.severity} or above`}; showing ${r.show} and above`,
    ),
  );
  // The accounting table has a narrow form (76 columns and up) below 110 columns, and a wide one
  // that needs 134: between the two, the narrow one fits.
  if (o.verbose && t.accounting.length) out.push('', accountingTable(t.accounting, o.width >= 134 ? o.width : Math.min(o.width, 109)));
  if (t.issues.length) out.push(field('notes', `${t.issues.length} about the inputs, on stderr`));
  return out;
}

/** A finding's head line: `1. CRITICAL  stale-route  title` (the list and the details share it). */
function findingHead(f: Finding, n: number, numW = 0): string {
  return `${`${n}.`.padStart(numW)} ${severityWord(f.severity)}  ${f.rule}  ${f.title}`;
}

/** Up to this many findings, the list has a line each; beyond, a run of one rule's is one line. */
export const LIST_EACH = 8;

/**
 * One line per finding (its head cut at the width), before the findings in detail. A long list folds
 * each run of findings of one rule and severity (the same finding on several hosts) into one line,
 * `8-10. ERROR  rule  3 findings: <the first's title>`, so that it stays on the first screen.
 */
export function findingListLines(shown: readonly Finding[], W: number, p: Palette): string[] {
  const fold = shown.length > LIST_EACH;
  const runs: Array<{ from: number; to: number; label: string }> = [];
  for (let i = 0; i < shown.length; ) {
    let j = i + 1;
    while (fold && j < shown.length && shown[j].rule === shown[i].rule && shown[j].severity === shown[i].severity) j++;
    runs.push({ from: i, to: j, label: j - i === 1 ? `${i + 1}.` : `${i + 1}-${j}.` });
    i = j;
  }
  const numW = Math.max(...runs.map((r) => r.label.length));
  return runs.map(({ from, to, label }) => {
    const f = shown[from];
    const head = to - from === 1 ? findingHead(f, from + 1, numW) : `${label.padStart(numW)} ${severityWord(f.severity)}  ${f.rule}  ${to - from} findings: ${f.title}`;
    return sevColour(f.severity, p)(clip(head, W));
  });
}

/**
 * The last lines: the incident's one-line cause (its title), what the exit code means, and where the
 * details are, so that the end of a report read without a pager still carries the answer.
 */
export function recapLines(r: AnalyzeReport, shown: readonly Finding[], W: number, p: Palette): string[] {
  const field = (name: string, text: string) => hang(`  ${name.padEnd(8)} `, text, W);
  const out = [p.bold('In short')];
  if (r.incidents.length) r.incidents.forEach((inc, i) => out.push(field(i === 0 ? 'cause' : '', `INCIDENT ${i + 1}: ${inc.title}`)));
  else out.push(field('cause', shown.length ? `no incident named; most severe: ${findingHead(shown[0], 1)}` : 'no incident named and no finding shown'));
  const over = atOrAbove(r.analysis.findings, r.severity).length;
  out.push(
    field(
      'exit',
      r.severity === 'none'
        ? '0: --severity none, findings never set it'
        : over
          ? `1: ${over} finding${over === 1 ? '' : 's'} at ${r.severity} or above`
          : `0: no finding at ${r.severity} or above`,
    ),
  );
  const parts = [
    ...(r.incidents.length ? ['the incident (how it happened, what to change)'] : []),
    ...(shown.length ? [`${shown.length === 1 ? 'the finding' : `the ${shown.length} findings`} (figures, explanation, advice, evidence)`] : []),
    ...(r.analysis.milestones.length ? ['the timeline'] : []),
  ];
  out.push(field('details', `${parts.length ? `above: ${parts.join(', ')}; ` : ''}rmq-diag tui with the same inputs to browse them, --format html for one page`));
  return out;
}

function sevColour(s: Severity, p: Palette): (x: string) => string {
  if (s === 'critical') return (x) => p.bold(p.red(x));
  if (s === 'error') return p.red;
  if (s === 'warning') return p.yellow;
  return p.cyan;
}

function findingText(f: Finding, n: number, zone: Zone, sameDay: boolean, base: string, W: number, cut: boolean, p: Palette, said: AdviceSaid): string[] {
  const out: string[] = [];
  const head = wrapIndented(findingHead(f, n), W, 3);
  out.push(...head.split('\n').map((l) => sevColour(f.severity, p)(l)));
  out.push(hang('   subject  ', subjectText(f.subject), W));
  out.push(hang('   window   ', windowText(f, zone, sameDay), W));
  const metrics = Object.entries(f.metrics);
  if (metrics.length) out.push(indent(figuresTable(metrics, W - 3, zone), 3));
  if (f.explanation) out.push('', indent(wrapLines(f.explanation, W - 3).join('\n'), 3));
  out.push(...adviceLines(f, n, W, p, said));
  if (f.evidence.length) {
    out.push('', `   ${p.bold('evidence')}`);
    for (const e of f.evidence.slice(0, EVIDENCE_SHOWN)) {
      const loc = `${escapeText(relativeTo(e.file, base))}:${e.line}`;
      const prefix = `   ${loc}  ${timeText(e.time, zone, sameDay)}  `;
      const text = e.text.trim();
      // On a narrow terminal the text goes under its place, so that more of it shows.
      if (!cut) out.push(p.dim(prefix) + escapeText(text));
      else if (W - prefix.length >= 40) out.push(p.dim(prefix) + clip(text, W - prefix.length));
      else out.push(p.dim(clip(prefix.trimEnd(), W)), `     ${clip(text, W - 5)}`);
    }
  }
  return out;
}

/**
 * Advice already said, by its text: where it was said (`the incident above (change 3)`, `finding 1
 * above`). The incident takes its advice from its findings' (src/diagnosis/incident.ts, adviceOf),
 * often word for word: a finding then refers to it instead of saying it again.
 */
type AdviceSaid = Map<string, string>;

/** The incidents' advice, each with where it is said. */
export function adviceSaid(incidents: readonly Incident[]): AdviceSaid {
  const said: AdviceSaid = new Map();
  incidents.forEach((inc, i) => {
    const which = incidents.length === 1 ? 'the incident above' : `incident ${i + 1} above`;
    inc.advice.forEach((a, j) => {
      if (!said.has(a)) said.set(a, `${which} (change ${j + 1})`);
    });
  });
  return said;
}

/** Shortest advice that is looked for inside a longer one (a whole sentence, not a phrase). */
const QUOTED_ADVICE = 60;

/**
 * A finding's advice: what was said before (by an incident or an earlier finding) as a reference to
 * it; advice that quotes one said before keeps its own words and refers for the rest. Records what it
 * says in `said`.
 */
function adviceLines(f: Finding, n: number, W: number, p: Palette, said: AdviceSaid): string[] {
  if (!f.advice.length) return [];
  const items = f.advice.map((a) => {
    const where = said.get(a);
    if (where) return { ref: where, text: null };
    const quoted = [...said.keys()].find((k) => k.length >= QUOTED_ADVICE && a.includes(k));
    const text = quoted ? a.replace(quoted, `See ${said.get(quoted)}.`).trim() : a;
    said.set(a, `finding ${n} above`);
    return { ref: null, text };
  });
  // Everything said before: one line.
  if (items.every((x) => x.ref !== null)) {
    const refs = [...new Set(items.map((x) => x.ref))];
    return ['', hang(`   ${p.bold('advice')}  `, refs.map((r) => `see ${r}`).join('; '), W)];
  }
  return ['', `   ${p.bold('advice')}`, ...items.map((x) => hang('   - ', x.text ?? `see ${x.ref}`, W))];
}

/** A two-column table of figures (metric | value), at most `width` columns wide, nothing cut. */
export function figuresTable(metrics: Array<[string, MetricValue]>, width: number, zone?: Zone): string {
  const rows = metrics.map(([k, v]) => [escapeText(k), escapeText(metricText(k, v, zone))]);
  const nameW = Math.min(Math.max(6, ...rows.map((r) => r[0].length)), Math.max(8, Math.floor((width - 7) / 3)));
  const valueW = Math.max(8, Math.min(Math.max(5, ...rows.map((r) => r[1].length)), width - 7 - nameW));
  const table = new Table({
    head: ['metric', 'value'],
    colWidths: [nameW + 2, valueW + 2],
    wordWrap: false,
    style: { head: [], border: [] },
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
  });
  // Rows of one line each (see lineRows): the table draws no line between rows, so it looks the same.
  for (const [k, v] of rows) table.push(...lineRows([wrapLines(k, nameW), wrapLines(v, valueW)]));
  return table.toString();
}

/**
 * A row of multi-line cells (each its lines) as rows of one line each, which cli-table3 draws the
 * same way when it draws no line between rows. cli-table3 (0.6.5, Cell.draw) truncates a cell's
 * whole text for a debug message on every line it draws, in time that grows with the square of
 * the text's length: a rules table or a long list of brokers as multi-line cells took seconds.
 */
function lineRows(cells: string[][]): string[][] {
  const n = Math.max(...cells.map((c) => c.length));
  const out: string[][] = [];
  for (let i = 0; i < n; i++) out.push(cells.map((c) => c[i] ?? ''));
  return out;
}

function milestoneLines(ms: readonly Milestone[], zone: Zone, sameDay: boolean, W: number): string[] {
  const hostW = Math.min(16, Math.max(4, ...ms.map((m) => m.host.length)));
  return ms.map((m) => {
    const host = clip(m.host, hostW);
    return hang(`  ${timeText(m.time, zone, sameDay, false)}  ${host.padEnd(hostW)}  `, m.what, W);
  });
}

function indent(text: string, n: number): string {
  const pad = ' '.repeat(n);
  return text
    .split('\n')
    .map((l) => pad + l)
    .join('\n');
}

// --- `rmq-diag rules` ------------------------------------------------------------------------

/** Setting lines of a rule: `name = default unit: description`. */
function settingLines(rule: Rule): string[] {
  return Object.entries(rule.meta.settings).map(
    ([k, m]) => `${k} = ${String(m.default)}${m.unit ? ` ${m.unit}` : ''}: ${m.description}`,
  );
}

/**
 * The rules table's column widths (as cli-table3 takes them) and, per rule, its cells' lines: id,
 * default severity, then title, versions and settings.
 */
export function rulesTableCells(rules: readonly Rule[], W: number): { colWidths: number[]; rows: string[][][] } {
  const idW = Math.min(Math.max(4, ...rules.map((r) => r.meta.id.length)), Math.floor(W / 3));
  const sevW = 8;
  const restW = W - idW - sevW - 10;
  const rows = rules.map((r) => {
    const m = r.meta;
    const text = [m.title, `versions: ${m.versions}`];
    const settings = settingLines(r);
    if (settings.length) text.push('settings:', ...settings.map((s) => `- ${s}`));
    return [wrapLines(m.id, idW), [m.severity], text.flatMap((l) => wrapIndented(l, restW, 2).split('\n'))];
  });
  return { colWidths: [idW + 2, sevW + 2, restW + 2], rows };
}

/** The rule catalogue as a table (rulesTableCells). */
export function renderRulesText(rules: readonly Rule[], o: { width: number; palette: Palette }): string {
  if (!rules.length) return `${o.palette.dim('(no rules registered)')}\n`;
  const W = Number.isFinite(o.width) ? Math.max(50, o.width) : 120;
  const { colWidths, rows } = rulesTableCells(rules, W);
  // A rule's lines are rows of their own (lineRows), and the lines between rules are drawn here:
  // the table's top border with its corners and crossings turned into those of a line between
  // rows (the characters cli-table3 draws there).
  const table = new Table({
    head: ['rule', 'severity', 'what it finds'],
    colWidths,
    wordWrap: false,
    style: { head: [], border: [] },
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
  });
  /** The table row each rule starts at. */
  const starts = new Set<number>();
  for (const cells of rows) {
    starts.add(table.length);
    table.push(...lineRows(cells));
  }
  const [top, head, ...drawnRows] = table.toString().split('\n');
  const mid = top.replace('┌', '├').replace(/┬/g, '┼').replace('┐', '┤');
  // drawnRows: one line per row, then the bottom border.
  const body = drawnRows.flatMap((l, i) => (starts.has(i) ? [mid, l] : [l]));
  const drawn = [top, head, ...body].join('\n');
  return `${drawn}\n${o.palette.dim(wrapIndented('Change a setting with --set NAME=VALUE; run only some rules with --rule ID, skip some with --no-rule ID.', W))}\n`;
}
