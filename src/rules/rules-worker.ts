// Worker thread: the rules' part of analyze's pass (rules-thread.ts). It merges the stream the main
// thread reads too and runs the rules it was given, in their order, as analyze() runs them.
import { parentPort, workerData } from 'node:worker_threads';
import { mergeStreams } from '../timeline/merge.js';
import { RuleRunner } from './engine.js';
import { ALL_RULES } from './index.js';
import type { RulesJob, RulesResult } from './rules-thread.js';

if (!parentPort) throw new Error('rules-worker.ts must run as a worker thread');
const port = parentPort;
const job = workerData as RulesJob;

try {
  const rules = job.rules.map((id) => {
    const rule = ALL_RULES.find((r) => r.meta.id === id);
    if (!rule) throw new Error(`no rule ${id}`);
    return rule;
  });
  const runner = new RuleRunner({ rules, settings: job.settings, sources: job.sources });
  const wanted = runner.wanted;
  for (const m of mergeStreams(job.streams)) if (wanted.has(m.type)) runner.visit(m.event());
  const findings = runner.finish();
  port.postMessage({ findings, omitted: runner.omitted } satisfies RulesResult);
} catch (err) {
  port.postMessage({ error: String(err instanceof Error ? (err.stack ?? err.message) : err) });
}
