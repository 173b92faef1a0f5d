// analyze's whole diagnosis in one pass over the timeline: the rules and milestones, and the
// inference of the causes (the same collector and the same inferScenario a replay runs), then the
// incidents that tie them together.

import { commonDir } from '../util/paths.js';
import { clientLogsRead } from '../ingest/coverage.js';
import { analyze, analyzeOnBothCores, sourcesOf, type Analysis, type AnalysisOptions } from '../rules/analyze.js';
import type { EventType, RmqEvent } from '../parse/types.js';
import type { Incident } from '../rules/incident.js';
import type { Finding } from '../rules/types.js';
import { clientVersionOf } from '../rules/versions.js';
import type { Timeline } from '../timeline/build.js';
import { collector } from './collect.js';
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
  const base = commonDir(t.accounting.map((a) => a.path));
  // The incidents read how many sends failed, not when each send began (a run replays those).
  const c = collector(t.accounting, base, t.first, t.last, { sendTimes: false, otherRead: t.keepOther === 'inference' });
  return {
    types: c.types,
    visit: (e) => c.visit(e),
    finish(findings) {
      const collected = c.finish();
      const input = inferScenario(collected, { zone: t.defaultZone.name, source: 'analyze' });
      const sources = sourcesOf(t);
      return buildIncidents(input, findings, {
        clientVersion: (h) => clientVersionOf(h, sources),
        failures: (h, source, from, until) => clientFailures(collected.events, h, source, from, until, collected.syncTimeouts).figures,
        clientLogsRead: clientLogsRead(t.accounting),
      });
    },
  };
}

/**
 * The timeline must be built with `keepOther: 'inference'` (the records that are no event but that
 * inference reads), as replay builds it, so that both read the same events.
 */
export function diagnose(t: Timeline, opts: AnalysisOptions): Diagnosis {
  const pass = incidentPass(t);
  const analysis = analyze(t, { ...opts, observers: [...(opts.observers ?? []), pass] });
  return { analysis, incidents: pass.finish(analysis.findings) };
}

/** diagnose() with the rules in a thread of their own when the timeline is large (analyzeOnBothCores). */
export async function diagnoseOnBothCores(t: Timeline, opts: AnalysisOptions & { rulesThread?: boolean }): Promise<Diagnosis> {
  const pass = incidentPass(t);
  const analysis = await analyzeOnBothCores(t, { ...opts, observers: [...(opts.observers ?? []), pass] });
  return { analysis, incidents: pass.finish(analysis.findings) };
}
