// The programmatic analysis: one pass over a built timeline feeds the rule engine and the milestone
// collector. Events that neither an enabled rule nor the collector reads are not decoded. For a
// large timeline the rules read the stream in a thread of their own (analyzeOnBothCores).

import type { EventType, RmqEvent } from '../parse/types.js';
import { MilestoneCollector, type Milestone } from './milestones.js';
import type { Timeline } from '../timeline/build.js';
import type { MergedEvent } from '../timeline/merge.js';
import { RuleRunner, type OmittedFindings } from './engine.js';
import { rulesThreadFor, startRulesThread, type RulesResult } from './rules-thread.js';
import type { Finding, Rule, SettingValue, Severity, SourceInfo } from './types.js';

interface AnalyzeOptions {
  rules: readonly Rule[];
  settings?: Record<string, SettingValue>;
}

export interface AnalysisOptions extends AnalyzeOptions {
  /** Collect milestones too (default true). */
  milestones?: boolean;
  /** Findings below this severity add no milestones (default info: all do). */
  show?: Severity;
  /** Others that read the same pass (the diagnosis's inference of the causes): they get every event of their types, in time order. */
  observers?: ReadonlyArray<{ readonly types: ReadonlySet<EventType>; visit(e: RmqEvent): void }>;
}

export interface Analysis {
  /** Every finding, ordered by severity then time. */
  findings: Finding[];
  /** Bounded, in time order (src/rules/milestones.ts). */
  milestones: Milestone[];
  /** Milestones left out to keep the list bounded. */
  omittedMilestones: number;
  /** Findings left out per rule, by severity (each rule keeps its MAX_FINDINGS_PER_RULE most severe). */
  omittedFindings: OmittedFindings;
}

export function sourcesOf(t: Timeline): SourceInfo[] {
  return t.accounting.map((a) => ({ path: a.path, host: a.host, kind: a.kind, versionHints: a.versionHints ?? [] }));
}

/** Every setting of the given rules with the value in effect: the default, or the `--set` value. */
export function settingsInEffect(rules: readonly Rule[], settings: Record<string, SettingValue> = {}): Record<string, SettingValue> {
  const out: Record<string, SettingValue> = {};
  for (const r of rules) for (const [k, m] of Object.entries(r.meta.settings)) out[k] = settings[k] ?? m.default;
  return out;
}

/** Findings and milestones in one pass over the timeline. */
export function analyze(t: Timeline, opts: AnalysisOptions): Analysis {
  const runner = new RuleRunner({ rules: opts.rules, settings: opts.settings, sources: sourcesOf(t) });
  const collector = opts.milestones === false ? null : new MilestoneCollector();
  readPass(t.encoded(), readersOf(runner, collector, opts.observers ?? []));
  return analysisOf({ findings: runner.finish(), omitted: runner.omitted }, collector, opts);
}

/**
 * analyze() with its rules in a thread of their own when that pays (rules-thread.ts,
 * rulesThreadFor; `rulesThread` forces it either way): the milestones and the observers read the
 * stream here meanwhile. The result is analyze()'s.
 */
export async function analyzeOnBothCores(t: Timeline, opts: AnalysisOptions & { rulesThread?: boolean }): Promise<Analysis> {
  if (!rulesThreadFor(t, opts.rules, opts.rulesThread)) return analyze(t, opts);
  const run = startRulesThread(t.streams, opts.rules, opts.settings ?? {}, sourcesOf(t));
  try {
    const collector = opts.milestones === false ? null : new MilestoneCollector();
    readPass(t.encoded(), readersOf(null, collector, opts.observers ?? []));
    return analysisOf(await run.finished(), collector, opts);
  } finally {
    run.stop();
  }
}

type Readers = Map<EventType, Array<(e: RmqEvent) => void>>;

/** Per type, who reads it, in this order: the rules, the milestones, the observers. */
function readersOf(runner: RuleRunner | null, collector: MilestoneCollector | null, observers: NonNullable<AnalysisOptions['observers']>): Readers {
  const readers: Readers = new Map();
  const add = (types: ReadonlySet<EventType>, visit: (e: RmqEvent) => void) => {
    for (const type of types) {
      const list = readers.get(type);
      if (list) list.push(visit);
      else readers.set(type, [visit]);
    }
  };
  if (runner) add(runner.wanted, (e) => runner.visit(e));
  if (collector) add(collector.types, (e) => collector.visit(e));
  for (const o of observers) add(o.types, (e) => o.visit(e));
  return readers;
}

/** One pass over the stream: each event to its readers; types no one reads are not decoded. */
function readPass(stream: Iterable<MergedEvent>, readers: Readers): void {
  for (const m of stream) {
    const list = readers.get(m.type);
    if (list === undefined) continue;
    const e = m.event();
    // Rules keep what they read past the visit (evidence, episodes); observers read the same object.
    for (let i = 0; i < list.length; i++) list[i](e);
  }
}

function analysisOf(rules: RulesResult, collector: MilestoneCollector | null, opts: AnalysisOptions): Analysis {
  const ms = collector ? collector.finish(rules.findings, opts.show ?? 'info') : { items: [], omitted: 0 };
  return { findings: rules.findings, milestones: ms.items, omittedMilestones: ms.omitted, omittedFindings: rules.omitted };
}

/** Findings only (the rule tester and callers that need no milestones). */
export function analyzeTimeline(t: Timeline, opts: AnalyzeOptions): Finding[] {
  return analyze(t, { ...opts, milestones: false }).findings;
}
