// The report model: what every analyze format (text, JSON, Markdown, HTML) and the TUI say about a
// run, and the figures they share (counts by severity, totals of the accounting, a finding's
// subject, window and metrics in words). The renderers ask it; none of it draws.

import { formatShort, type Zone } from '../parse/time.js';
import type { SourceAccounting } from '../parse/types.js';
import type { Analysis } from '../rules/analyze.js';
import { MAX_FINDINGS_PER_RULE, type OmittedFindings } from '../rules/engine.js';
import type { ConsumerImpact, Incident } from '../rules/incident.js';
import { severityRank, type Finding, type MetricValue, type SettingValue, type Severity, type Subject } from '../rules/types.js';
import { formatMs } from '../util/durations.js';
import type { Timeline } from '../timeline/build.js';
import { clockNote, type ClockReport } from '../timeline/clocks.js';
import type { Activity } from './html/activity.js';
import { timeText } from './text-layout.js';

/** What the timeline tells the report: the accounting and the window. */
type ReportTimeline = Pick<Timeline, 'accounting' | 'issues' | 'first' | 'last' | 'defaultZone' | 'defaultZoneChosen'>;

/** Everything an analyze report shows, whatever its format. */
export interface AnalyzeReport {
  timeline: ReportTimeline;
  analysis: Analysis;
  /** What happened, before the findings (src/rules/incident.ts); none when no cause was found. */
  incidents: Incident[];
  /** The consumers' impact per group (src/diagnosis/consumers.ts); absent or empty: no consumer in the logs. */
  consumers?: ConsumerImpact[];
  /** Ids of the rules that ran. */
  rules: string[];
  /** Every setting of the rules that ran, with the value in effect. */
  settings: Record<string, SettingValue>;
  /** The `--set` values. */
  changed: Record<string, SettingValue>;
  /** Exit code 1 when a finding at or above it exists; `none`: never (`--severity none`). */
  severity: Severity | 'none';
  /** Findings below it are counted but not shown. */
  show: Severity;
  /** Zone of the times shown. */
  zone: Zone;
  /** The hosts' clocks estimated (src/timeline/clocks.ts), with the option that corrects each and the move applied; none: not estimated. */
  clocks?: ClockReport[];
  /** What the HTML timeline draws (sends and events per bucket, bindings), read in the same pass; only for `--format html`. */
  activity?: Activity;
}

export type { ClockReport } from '../timeline/clocks.js';

/** One line per host whose clock is off (stderr and the report say the same). */
export function clockNotes(r: Pick<AnalyzeReport, 'clocks'>): string[] {
  return (r.clocks ?? []).filter((c) => c.off).map((c) => clockNote(c, { option: c.option, applied: c.shiftedMs !== 0, givenShift: c.givenShift }));
}

export const EVIDENCE_SHOWN = 5;
export function atOrAbove(findings: readonly Finding[], level: Severity | 'none'): Finding[] {
  if (level === 'none') return [];
  const rank = severityRank(level);
  return findings.filter((f) => severityRank(f.severity) <= rank);
}

export function countBySeverity(findings: readonly Finding[], omitted: OmittedFindings = {}): Record<Severity, number> {
  const out = { critical: 0, error: 0, warning: 0, info: 0 } as Record<Severity, number>;
  for (const f of findings) out[f.severity]++;
  for (const bySeverity of Object.values(omitted)) for (const [sev, n] of Object.entries(bySeverity)) out[sev as Severity] += n ?? 0;
  return out;
}

/** One line on the findings each rule left out (it keeps its MAX_FINDINGS_PER_RULE most severe), or null. */
export function omittedFindingsText(omitted: OmittedFindings = {}): string | null {
  const parts = Object.entries(omitted).map(([rule, bySeverity]) => {
    const n = Object.values(bySeverity).reduce((a, b) => a + (b ?? 0), 0);
    return `${n.toLocaleString('en-US')} more ${rule}`;
  });
  if (!parts.length) return null;
  return `${parts.join(', ')} findings not listed: each rule lists its ${MAX_FINDINGS_PER_RULE} most severe, earliest first (the counts above include them all).`;
}

interface Totals {
  files: number;
  lines: number;
  records: number;
  continuation: number;
  unknown: number;
  unreadable: number;
  events: number;
}

export function totalsOf(acc: readonly SourceAccounting[]): Totals {
  const t: Totals = { files: acc.length, lines: 0, records: 0, continuation: 0, unknown: 0, unreadable: 0, events: 0 };
  for (const a of acc) {
    t.lines += a.lines;
    t.records += a.records;
    t.continuation += a.continuation;
    t.unknown += a.unknown;
    t.unreadable += a.unreadable;
    for (const n of Object.values(a.events)) t.events += n ?? 0;
  }
  return t;
}

export function hostsOf(acc: readonly SourceAccounting[]): string[] {
  return [...new Set(acc.map((a) => a.host))];
}

/** `client app-1, broker broker-a (10.0.0.1:10911), NameServer 10.0.0.1:9876, topic T, host h`. */
export function subjectText(s: Subject): string {
  const parts: string[] = [];
  if (s.client) parts.push(`client ${s.client}`);
  if (s.broker && s.brokerAddr) parts.push(`broker ${s.broker} (${s.brokerAddr})`);
  else if (s.broker || s.brokerAddr) parts.push(`broker ${s.broker ?? s.brokerAddr}`);
  if (s.namesrvAddr) parts.push(`NameServer ${s.namesrvAddr}`);
  if (s.topic) parts.push(`topic ${s.topic}`);
  if (s.host && s.host !== s.client) parts.push(`host ${s.host}`);
  return parts.join(', ') || '-';
}

/**
 * Metric names ending in `Ms` are milliseconds: `799 ms`, `706000 ms (11 min 46 s)`; names ending in
 * `At`, `From` or `Until` holding epoch milliseconds are times (`slowFrom`, `notLockedUntil`), shown
 * in the output zone.
 */
export function metricText(name: string, v: MetricValue, zone?: Zone): string {
  if (v === null) return '-';
  if (Array.isArray(v)) return v.length ? v.join(', ') : '-';
  if (typeof v === 'number' && zone && /(At|From|Until)$/.test(name) && Number.isInteger(v) && v > 1e11) return formatShort(v, zone);
  if (typeof v === 'number') {
    const n = Number.isInteger(v) ? String(v) : String(Math.round(v * 100) / 100);
    if (/Ms$/.test(name) && Number.isFinite(v)) return Math.abs(v) < 1000 ? `${n} ms` : `${n} ms (${formatMs(v)})`;
    return n;
  }
  return String(v);
}

export function windowText(f: Finding, zone: Zone, sameDay: boolean): string {
  if (f.start === null && f.end === null) return 'unknown';
  if (f.end === null || f.end === f.start) return timeText(f.start ?? f.end, zone, sameDay);
  const dur = f.start !== null ? ` (${formatMs(f.end - f.start)})` : '';
  return `${timeText(f.start, zone, sameDay)} – ${timeText(f.end, zone, sameDay)}${dur}`;
}

export function severityWord(s: Severity): string {
  return s.toUpperCase();
}
