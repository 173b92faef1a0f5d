// Worker thread: the rules' part of a pass (rules-thread.ts). It merges the stream the main thread
// reads too and runs the rules it was given, in their order, as a run in the main thread would.
import { parentPort, workerData } from 'node:worker_threads';
import { ALL_RULES } from './index.js';
import { rulesHere, type RulesJob } from './rules-thread.js';

if (!parentPort) throw new Error('rules-worker.ts must run as a worker thread');
const port = parentPort;
const job = workerData as RulesJob;

try {
  const rules = job.rules.map((id) => {
    const rule = ALL_RULES.find((r) => r.meta.id === id);
    if (!rule) throw new Error(`no rule ${id}`);
    return rule;
  });
  port.postMessage(rulesHere(job.streams, rules, job.settings, job.sources));
} catch (err) {
  port.postMessage({ error: String(err instanceof Error ? (err.stack ?? err.message) : err) });
}
