// `rmq-diag analyze` for people: what was read, then each finding (severity, rule, title, subject,
// window, figures, explanation, advice, evidence), then a short timeline of milestones. Fits the
// terminal width; colour comes from the palette (none off a terminal or with NO_COLOR). Text from the
// logs is escaped everywhere (src/report/escape.ts).

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
import { incidentCount, incidentLines } from './incident-text.js';
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
  // What happened comes first: the first screen shows the cause and the impact.
  r.incidents.forEach((inc, i) => out.push(...incidentLines(inc, i + 1, r.zone, sameDay, W, p), ''));
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
  out.push('');

  // Findings.
  if (!shown.length) {
    out.push(total ? p.dim(`No findings at ${r.show} or above.`) : p.green('No findings.'));
  }
  const base = commonDir(t.accounting.map((a) => a.path));
  shown.forEach((f, i) => {
    out.push(...findingText(f, i + 1, r.zone, sameDay, base, W, cut, p), '');
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
  // Every line ends with a newline, the last one too (a report with no milestone ends on its findings).
  const text = out.join('\n');
  return text.endsWith('\n') ? text : `${text}\n`;
}

function sevColour(s: Severity, p: Palette): (x: string) => string {
  if (s === 'critical') return (x) => p.bold(p.red(x));
  if (s === 'error') return p.red;
  if (s === 'warning') return p.yellow;
  return p.cyan;
}

function findingText(f: Finding, n: number, zone: Zone, sameDay: boolean, base: string, W: number, cut: boolean, p: Palette): string[] {
  const out: string[] = [];
  const head = wrapIndented(`${n}. ${severityWord(f.severity)}  ${f.rule}  ${f.title}`, W, 3);
  out.push(...head.split('\n').map((l) => sevColour(f.severity, p)(l)));
  out.push(hang('   subject  ', subjectText(f.subject), W));
  out.push(hang('   window   ', windowText(f, zone, sameDay), W));
  const metrics = Object.entries(f.metrics);
  if (metrics.length) out.push(indent(figuresTable(metrics, W - 3, zone), 3));
  if (f.explanation) out.push('', indent(wrapLines(f.explanation, W - 3).join('\n'), 3));
  if (f.advice.length) {
    out.push('', `   ${p.bold('advice')}`);
    for (const a of f.advice) out.push(hang('   - ', a, W));
  }
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
