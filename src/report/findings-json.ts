// `rmq-diag analyze --json`: one JSON document (docs/analyze.md). Times are ISO-8601 with the offset
// of the output zone, or null when unknown. Keys are a stable contract within a schemaVersion.

import { formatIso, type Zone } from '../parse/time.js';
import type { Finding, Rule } from '../rules/types.js';
import { jsonSafe } from './escape.js';
import { inputGaps } from '../ingest/coverage.js';
import { inputToJson } from './events.js';
import { atOrAbove, countBySeverity, hostsOf, totalsOf, type AnalyzeReport, type ClockReport } from './summary.js';
import type { Milestone } from '../rules/milestones.js';
import { findingId, type ConsumerImpact, type Incident } from '../rules/incident.js';

/** 2: `incidents` and finding ids (every key of 1 kept). */
const ANALYZE_SCHEMA_VERSION = 2;

const iso = (ts: number | null, zone: Zone) => (ts === null ? null : formatIso(ts, zone));

function findingToJson(f: Finding, zone: Zone, id?: string): Record<string, unknown> {
  return {
    ...(id !== undefined ? { id } : {}),
    rule: f.rule,
    severity: f.severity,
    title: f.title,
    start: iso(f.start, zone),
    end: iso(f.end, zone),
    subject: { ...f.subject },
    metrics: { ...f.metrics },
    evidence: f.evidence.map((e) => ({ file: e.file, line: e.line, time: iso(e.time, zone), text: e.text })),
    explanation: f.explanation,
    advice: [...f.advice],
  };
}

function milestoneToJson(m: Milestone, zone: Zone): Record<string, unknown> {
  return {
    time: iso(m.time, zone),
    host: m.host,
    kind: m.kind,
    what: m.what,
    file: m.file,
    line: m.line,
    ...(m.rule !== undefined ? { rule: m.rule } : {}),
  };
}

export function analysisToJson(r: AnalyzeReport): Record<string, unknown> {
  const t = r.timeline;
  const all = r.analysis.findings;
  const shown = atOrAbove(all, r.show);
  // Ids number every finding (the incidents name them), so a finding keeps its id under --show.
  const ids = new Map(all.map((f, i) => [f, findingId(i)]));
  const counts = countBySeverity(all, r.analysis.omittedFindings);
  return {
    schemaVersion: ANALYZE_SCHEMA_VERSION,
    inputs: t.accounting.map(inputToJson),
    summary: {
      window: { start: iso(t.first, r.zone), end: iso(t.last, r.zone) },
      zone: r.zone.name,
      defaultZone: t.defaultZone.name,
      hosts: hostsOf(t.accounting),
      partial: inputGaps(t.accounting),
      totals: totalsOf(t.accounting),
      findings: { total: Object.values(counts).reduce((a, b) => a + b, 0), ...counts, shown: shown.length },
      severity: r.severity,
      atOrAboveSeverity: atOrAbove(all, r.severity).length,
      show: r.show,
      rules: [...r.rules],
      settings: { ...r.settings },
      milestonesOmitted: r.analysis.omittedMilestones,
      findingsOmitted: r.analysis.omittedFindings ?? {},
      issues: t.issues,
    },
    ...(r.clocks ? { clocks: r.clocks.map(clockToJson) } : {}),
    incidents: r.incidents.map((inc) => incidentToJson(inc, r.zone, new Set(shown.map((f) => ids.get(f)!)))),
    consumers: (r.consumers ?? []).map((c) => consumerToJson(c, r.zone)),
    findings: shown.map((f) => findingToJson(f, r.zone, ids.get(f))),
    milestones: r.analysis.milestones.map((m) => milestoneToJson(m, r.zone)),
  };
}

/** A consumer group's impact (docs/analyze.md, "The consumers' impact"). */
function consumerToJson(c: ConsumerImpact, zone: Zone): Record<string, unknown> {
  return {
    group: c.group,
    topics: [...c.topics],
    hosts: [...c.hosts],
    failed: c.failed,
    failedHow: c.failedHow,
    redelivered: c.redelivered,
    ...(c.redeliveredAtLeast ? { redeliveredAtLeast: true } : {}),
    ...(c.retryTopic ? { retryTopic: c.retryTopic } : {}),
    dlq: c.dlq,
    dlqHow: c.dlqHow,
    consumedAgain: c.consumedAgain,
    skipped: c.skipped,
    lag: c.lag ? { about: c.lag.about, at: iso(c.lag.at, zone), from: iso(c.lag.from, zone), until: iso(c.lag.until, zone), minutes: c.lag.minutes, how: c.lag.how } : null,
    cachedAtLeast: c.cachedAtLeast ? { count: c.cachedAtLeast.count, at: iso(c.cachedAtLeast.at, zone), host: c.cachedAtLeast.host } : null,
    unknown: [...c.unknown],
  };
}

/** An incident (docs/analyze.md, "The incident"); `shown`: the ids of the findings the document lists. */
function clockToJson(c: ClockReport): Record<string, unknown> {
  return { host: c.host, offsetMs: c.offsetMs, lowMs: c.lowMs, highMs: c.highMs, pairs: c.pairs, basis: c.basis, reference: c.reference, off: c.off, option: c.off ? c.option : null, shiftedMs: c.shiftedMs };
}

function incidentToJson(inc: Incident, zone: Zone, shown: ReadonlySet<string>): Record<string, unknown> {
  return {
    id: inc.id,
    title: inc.title,
    start: iso(inc.start, zone),
    end: iso(inc.end, zone),
    causes: inc.causes.map((c) => ({
      kind: c.kind,
      host: c.host,
      ...(c.group !== undefined ? { group: c.group } : {}),
      namesrvAddrs: [...c.namesrvAddrs],
      brokers: c.brokers.map((b) => ({ ...b })),
      start: iso(c.start, zone),
      end: iso(c.end, zone),
      recognisedBy: c.recognisedBy,
      evidence: [...c.evidence],
      detail: c.detail,
      ...(c.peers !== undefined ? { peers: [...c.peers] } : {}),
      ...(c.silentMs !== undefined ? { silentMs: c.silentMs } : {}),
      ...(c.minuteBounds ? { minuteBounds: true } : {}),
    })),
    impact: inc.impact.map((i) => ({
      client: i.client,
      start: iso(i.start, zone),
      end: iso(i.end, zone),
      durationMs: i.start !== null && i.end !== null ? i.end - i.start : null,
      failedSends: i.failedSends,
      source: i.source,
      timeouts: i.timeouts,
      clientVersion: i.clientVersion,
      lastedBecause: i.lastedBecause,
      before: i.before ? { failedSends: i.before.failedSends, start: iso(i.before.start, zone), end: iso(i.before.end, zone), leadMs: i.before.leadMs } : null,
    })),
    impactUnknown: inc.impactUnknown,
    chain: inc.chain.map((s) => ({ time: iso(s.at, zone), text: s.text, evidence: s.evidence, finding: s.finding !== null && shown.has(s.finding) ? s.finding : null })),
    advice: [...inc.advice],
    findings: inc.findings.filter((id) => shown.has(id)),
  };
}

/** The document as printed: indented two spaces, one trailing newline. */
export function renderFindingsJson(r: AnalyzeReport): string {
  return `${jsonSafe(JSON.stringify(analysisToJson(r), null, 2))}\n`;
}

/** `rules --json` is versioned on its own. */
const RULES_SCHEMA_VERSION = 1;

/** `rmq-diag rules --json`: the rule catalogue. */
export function rulesToJson(rules: readonly Rule[]): Record<string, unknown> {
  return {
    schemaVersion: RULES_SCHEMA_VERSION,
    rules: rules.map((r) => ({
      id: r.meta.id,
      title: r.meta.title,
      severity: r.meta.severity,
      description: r.meta.description,
      versions: r.meta.versions,
      events: [...r.meta.events],
      settings: Object.fromEntries(
        Object.entries(r.meta.settings).map(([k, m]) => [k, { default: m.default, description: m.description, ...(m.unit ? { unit: m.unit } : {}) }]),
      ),
    })),
  };
}
