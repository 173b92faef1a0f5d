// analyze's whole diagnosis in one pass over the timeline: the rules and milestones, and replay's
// inference of the causes (the same collector and the same inferScenario a replay runs), then the
// incidents that tie them together.

import { commonDir } from '../util/paths.js';
import { analyze, sourcesOf, type Analysis, type AnalysisOptions } from '../rules/analyze.js';
import type { EventType, RmqEvent } from '../parse/types.js';
import type { Incident } from '../rules/incident.js';
import type { Finding } from '../rules/types.js';
import { clientVersionOf } from '../rules/versions.js';
import type { Timeline } from '../timeline/build.js';
import { availableParallelism } from 'node:os';
import { collector, type Collected, type CollectOptions } from './collect.js';
import { collectInThread } from './collect-thread.js';
import { inferScenario } from './infer.js';
import { buildIncidents } from './incident.js';
import { clientFailures } from './observe.js';

interface Diagnosis {
  analysis: Analysis;
  incidents: Incident[];
}

/**
 * The incidents' part of a pass over the timeline: an observer that collects what the inference
 * reads, and, once the findings are known, the incidents. analyze and the TUI both run it.
 */
interface IncidentPass {
  readonly types: ReadonlySet<EventType>;
  visit(e: RmqEvent): void;
  finish(findings: readonly Finding[]): Incident[];
}

export function incidentPass(t: Timeline): IncidentPass {
  const c = collector(t.accounting, commonDir(t.accounting.map((a) => a.path)), t.first, t.last, collectOptions(t));
  return {
    types: c.types,
    visit: (e) => c.visit(e),
    finish: (findings) => incidentsOf(t, c.finish(), findings),
  };
}

/** The incidents read how many sends failed, not when each send began (a run replays those). */
function collectOptions(t: Timeline): CollectOptions {
  return { sendTimes: false, otherRead: t.keepOther === 'inference' };
}

function incidentsOf(t: Timeline, collected: Collected, findings: readonly Finding[]): Incident[] {
  const input = inferScenario(collected, { zone: t.defaultZone.name, source: 'analyze' });
  const sources = sourcesOf(t);
  return buildIncidents(input, findings, {
    clientVersion: (h) => clientVersionOf(h, sources),
    failures: (h, source, from, until) => clientFailures(collected.events, h, source, from, until, collected.syncTimeouts).figures,
  });
}

/** Below this many bytes read, the incidents are collected in the rules' pass: a thread costs more than it saves. */
const THREAD_MIN_BYTES = 32 << 20;

interface DiagnoseHow {
  /** Collect the incidents in a thread of their own beside the rules' pass (default: for inputs of THREAD_MIN_BYTES or more, on a machine of two cores or more). */
  thread?: boolean;
  /** Told where they were collected (tests). */
  onCollected?: (where: 'pass' | 'thread' | 'here') => void;
}

/**
 * The timeline must be built with `keepOther: 'inference'` (the records that are no event but that
 * inference reads), as replay builds it, so that both read the same events.
 */
export async function diagnose(t: Timeline, opts: AnalysisOptions, how: DiagnoseHow = {}): Promise<Diagnosis> {
  const thread = how.thread ?? (t.bytes >= THREAD_MIN_BYTES && availableParallelism() > 1);
  if (!thread || t.streams === undefined) {
    const pass = incidentPass(t);
    const analysis = analyze(t, { ...opts, observers: [...(opts.observers ?? []), pass] });
    how.onCollected?.('pass');
    return { analysis, incidents: pass.finish(analysis.findings) };
  }
  const collecting = collectInThread({
    streams: t.streams(),
    sources: t.accounting,
    base: commonDir(t.accounting.map((a) => a.path)),
    first: t.first,
    last: t.last,
    opts: collectOptions(t),
  });
  const analysis = analyze(t, opts);
  const { collected, where } = await collecting.done();
  how.onCollected?.(where);
  return { analysis, incidents: incidentsOf(t, collected, analysis.findings) };
}
