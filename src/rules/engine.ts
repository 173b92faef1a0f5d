// Runs every enabled rule in one pass over the merged event stream, then collects findings ordered
// by severity and time. A rule sees only the event types its visitor names.

import type { EventType, RmqEvent } from '../parse/types.js';
import { clientVersionOf } from './versions.js';
import {
  SEVERITIES,
  severityRank,
  type ClientVersion,
  type Evidence,
  type Finding,
  type Rule,
  type RuleContext,
  type SettingValue,
  type Severity,
  type SourceInfo,
  type Visitor,
} from './types.js';

interface EngineOptions {
  rules: readonly Rule[];
  /** `--set name=value`, already typed (see parseSettings). */
  settings?: Record<string, SettingValue>;
  sources: readonly SourceInfo[];
}

export class SettingError extends Error {}

const MAX_EVIDENCE = 5;
/**
 * Findings kept per rule: the most severe, earliest first. Steady trouble all along a week of logs
 * makes a finding per episode (thousands); the rest are counted, so that memory and the report stay
 * bounded whatever the input size.
 */
export const MAX_FINDINGS_PER_RULE = 20;

/** Findings a rule made beyond MAX_FINDINGS_PER_RULE, by severity. */
export type OmittedFindings = Record<string, Partial<Record<Severity, number>>>;

function toEvidence(x: RmqEvent | Evidence): Evidence {
  return { file: x.file, line: x.line, time: 'ts' in x ? x.ts : x.time, text: x.text };
}

/** Type `--set` values against the settings the enabled rules declare. */
export function parseSettings(rules: readonly Rule[], specs: string[]): Record<string, SettingValue> {
  const known = new Map<string, SettingValue>();
  for (const r of rules) for (const [k, m] of Object.entries(r.meta.settings)) known.set(k, m.default);
  const out: Record<string, SettingValue> = {};
  for (const spec of specs) {
    const eq = spec.indexOf('=');
    if (eq <= 0) throw new SettingError(`--set ${spec}: expected NAME=VALUE`);
    const name = spec.slice(0, eq).trim();
    const raw = spec.slice(eq + 1).trim();
    if (!known.has(name)) {
      throw new SettingError(`--set ${spec}: no enabled rule has a setting "${name}" (see rmq-diag rules)`);
    }
    const def = known.get(name)!;
    if (typeof def === 'number') {
      const v = Number(raw.replace(/ms$/, ''));
      if (!Number.isFinite(v)) throw new SettingError(`--set ${spec}: "${raw}" is not a number`);
      out[name] = v;
    } else if (typeof def === 'boolean') {
      if (!/^(true|false)$/i.test(raw)) throw new SettingError(`--set ${spec}: "${raw}" is not true or false`);
      out[name] = raw.toLowerCase() === 'true';
    } else out[name] = raw;
  }
  return out;
}

export class RuleRunner {
  private readonly handlers = new Map<EventType, Array<(e: RmqEvent) => void>>();
  private readonly visitors: Visitor[] = [];
  private readonly kept = new Map<string, Finding[]>();
  /** Findings left out per rule (see MAX_FINDINGS_PER_RULE); filled by finish(), rules in their order, severities in theirs. */
  readonly omitted: OmittedFindings = {};
  private readonly omittedCounts = new Map<string, Map<Severity, number>>();
  private readonly ruleIds: string[] = [];
  private readonly versionCache = new Map<string, ClientVersion>();
  /** Helpers the rules share (RuleContext.shared), and their handlers, which run before the rules'. */
  private readonly helpers = new Map<object, { visitor(): Visitor }>();
  private readonly first = new Map<EventType, Array<(e: RmqEvent) => void>>();
  private readonly helperEnds: Array<() => void> = [];

  constructor(opts: EngineOptions) {
    for (const rule of opts.rules) {
      this.ruleIds.push(rule.meta.id);
      const settings: Record<string, SettingValue> = {};
      for (const [k, m] of Object.entries(rule.meta.settings)) settings[k] = opts.settings?.[k] ?? m.default;
      const ctx: RuleContext = {
        settings,
        sources: opts.sources,
        report: (f) => {
          this.keep({
            rule: rule.meta.id,
            severity: f.severity ?? rule.meta.severity,
            title: f.title,
            start: f.start,
            end: f.end,
            subject: f.subject,
            metrics: f.metrics,
            evidence: f.evidence.slice(0, MAX_EVIDENCE).map(toEvidence),
            explanation: f.explanation,
            advice: f.advice.map((a) => (typeof a === 'string' ? a : a.text)),
            ...(f.advice.some((a) => typeof a !== 'string') ? { adviceTopics: f.advice.map((a) => (typeof a === 'string' ? null : a.topic)) } : {}),
          });
        },
        omit: (severity, n = 1) => this.count(rule.meta.id, severity, n),
        clientVersion: (host) => {
          let v = this.versionCache.get(host);
          if (!v) this.versionCache.set(host, (v = clientVersionOf(host, opts.sources)));
          return v;
        },
        shared: <T extends { visitor(): Visitor }>(key: object, make: () => T): T => {
          let h = this.helpers.get(key) as T | undefined;
          if (!h) {
            this.helpers.set(key, (h = make()));
            const v = h.visitor();
            addHandlers(this.first, v);
            if (v.end) this.helperEnds.push(v.end);
          }
          return h;
        },
      };
      const visitor = rule.create(ctx);
      this.visitors.push(visitor);
      addHandlers(this.handlers, visitor);
    }
  }

  /** Event types some rule (or a helper they share) reads: the others need not be decoded at all. */
  get wanted(): ReadonlySet<EventType> {
    return new Set([...this.first.keys(), ...this.handlers.keys()]);
  }

  visit(e: RmqEvent): void {
    const pre = this.first.get(e.type);
    if (pre) for (const fn of pre) fn(e);
    const list = this.handlers.get(e.type);
    if (list) for (const fn of list) fn(e);
  }

  finish(): Finding[] {
    for (const end of this.helperEnds) end();
    for (const v of this.visitors) v.end?.();
    for (const id of this.ruleIds) {
      const counts = this.omittedCounts.get(id);
      if (!counts) continue;
      const out: Partial<Record<Severity, number>> = {};
      for (const s of SEVERITIES) if (counts.has(s)) out[s] = counts.get(s);
      this.omitted[id] = out;
    }
    return sortFindings([...this.kept.values()].flat());
  }

  private count(rule: string, severity: Severity, n: number): void {
    if (n <= 0) return;
    let counts = this.omittedCounts.get(rule);
    if (!counts) this.omittedCounts.set(rule, (counts = new Map()));
    counts.set(severity, (counts.get(severity) ?? 0) + n);
  }

  private keep(f: Finding): void {
    let list = this.kept.get(f.rule);
    if (!list) this.kept.set(f.rule, (list = []));
    list.push(f);
    if (list.length <= MAX_FINDINGS_PER_RULE) return;
    list.sort(byRank);
    const out = list.pop()!;
    this.count(out.rule, out.severity, 1);
  }
}

function byRank(a: Finding, b: Finding): number {
  return severityRank(a.severity) - severityRank(b.severity) || (a.start ?? Infinity) - (b.start ?? Infinity) || a.rule.localeCompare(b.rule);
}

export function sortFindings(findings: Finding[]): Finding[] {
  return [...findings].sort(byRank);
}

/** Run rules over events (tests and the programmatic API). */
export function runRules(opts: EngineOptions, events: Iterable<RmqEvent>): Finding[] {
  const runner = new RuleRunner(opts);
  for (const e of events) runner.visit(e);
  return runner.finish();
}

/** The visitor's handlers added to `into`, by event type, after those there. */
function addHandlers(into: Map<EventType, Array<(e: RmqEvent) => void>>, visitor: Visitor): void {
  for (const [type, fn] of Object.entries(visitor)) {
    if (type === 'end' || typeof fn !== 'function') continue;
    let list = into.get(type as EventType);
    if (!list) into.set(type as EventType, (list = []));
    list.push(fn as (e: RmqEvent) => void);
  }
}
