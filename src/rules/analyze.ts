// The programmatic analysis: one pass of the rule engine over a built timeline. Events that no
// enabled rule reads are not decoded.

import { decodeEvent } from '../parse/event-codec.js';
import type { EventType } from '../parse/types.js';
import type { Timeline } from '../timeline/build.js';
import { RuleRunner } from './engine.js';
import type { Finding, Rule, SettingValue, SourceInfo } from './types.js';

export interface AnalyzeOptions {
  rules: readonly Rule[];
  settings?: Record<string, SettingValue>;
}

export function sourcesOf(t: Timeline): SourceInfo[] {
  return t.accounting.map((a) => ({ path: a.path, host: a.host, kind: a.kind, versionHints: a.versionHints ?? [] }));
}

const TYPE_AT = '"type":"';

export function analyzeTimeline(t: Timeline, opts: AnalyzeOptions): Finding[] {
  const runner = new RuleRunner({ rules: opts.rules, settings: opts.settings, sources: sourcesOf(t) });
  const wanted = runner.wanted;
  for (const m of t.encoded()) {
    // The type sits in the encoded JSON; read it without parsing the rest.
    const at = m.json.indexOf(TYPE_AT);
    const type = m.json.slice(at + TYPE_AT.length, m.json.indexOf('"', at + TYPE_AT.length)) as EventType;
    if (!wanted.has(type)) continue;
    runner.visit(decodeEvent(m, m.source, m.seq));
  }
  return runner.finish();
}
