// analyze's whole diagnosis in one pass over the timeline: the rules and milestones, and replay's
// inference of the causes (the same collector and the same inferScenario a replay runs), then the
// incidents that tie them together.

import { commonDir } from '../report/findings-text.js';
import { analyze, sourcesOf, type Analysis, type AnalysisOptions } from '../rules/analyze.js';
import type { Incident } from '../rules/incident.js';
import { clientVersionOf } from '../rules/versions.js';
import type { Timeline } from '../timeline/build.js';
import { collector } from './collect.js';
import { inferScenario } from './infer.js';
import { buildIncidents } from './incident.js';
import { clientFailures } from './observe.js';

export interface Diagnosis {
  analysis: Analysis;
  incidents: Incident[];
}

/**
 * The timeline must be built with `keepOther: 'inference'` (the records that are no event but that
 * inference reads), as replay builds it, so that both read the same events.
 */
export function diagnose(t: Timeline, opts: AnalysisOptions): Diagnosis {
  const base = commonDir(t.accounting.map((a) => a.path));
  const c = collector(t.accounting, base, t.first, t.last);
  const analysis = analyze(t, { ...opts, observers: [...(opts.observers ?? []), c] });
  const collected = c.finish();
  const input = inferScenario(collected, { zone: t.defaultZone.name, source: 'analyze' });
  const sources = sourcesOf(t);
  const incidents = buildIncidents(input, analysis.findings, {
    clientVersion: (h) => clientVersionOf(h, sources),
    failures: (h, source, from, until) => clientFailures(collected.events, h, source, from, until).figures,
  });
  return { analysis, incidents };
}
