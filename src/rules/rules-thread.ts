// A pass's rules on a core of their own: the rules read the merged stream in a thread
// (rules-worker.ts) while this thread reads it for the rest (analyze's milestones and incidents,
// the TUI's store). Both merge the same spill files (Timeline.streams), so each sees every event
// in the same order, and the findings are those of a run in this thread.

import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { EventType } from '../parse/types.js';
import type { Timeline } from '../timeline/build.js';
import { mergeStreams, type SourceStream } from '../timeline/merge.js';
import { RuleRunner, type OmittedFindings } from './engine.js';
import { ALL_RULES } from './index.js';
import type { Finding, Rule, SettingValue, SourceInfo } from './types.js';

/** What the rules' thread is given: the stream, and the rules by id (a thread loads its own). */
export interface RulesJob {
  streams: SourceStream[];
  rules: string[];
  settings: Record<string, SettingValue>;
  sources: SourceInfo[];
}

/** What it answers: RuleRunner.finish() and its omitted counts. */
export interface RulesResult {
  findings: Finding[];
  omitted: OmittedFindings;
}

/** The worker's entry (built next to this file). */
const RULES_WORKER_URL = new URL('./rules-worker.js', import.meta.url);

/**
 * The thread's heap, limited as the parse threads' is (timeline/pool.ts). The rules keep bounded
 * state, but with no limit V8 let the thread's heap grow with the input: analyze's peak RSS at 5 GiB
 * rose to 224 MB (183 MB with the rules in the main thread), 189 MB with these limits
 * (docs/bench.md). A run that needs more fails in the thread and is run here (startRulesThread).
 */
const RULES_THREAD_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 };

/**
 * Timelines with fewer events read the rules in the pass's own thread: starting a thread, and
 * decoding the events it reads a second time there, would cost more than it saves (a thread
 * starts in about 0.1 s).
 */
export const RULES_THREAD_EVENTS = 100_000;

/**
 * Whether a pass over the timeline reads its rules in a thread of their own: `forced` (--jobs), or
 * for RULES_THREAD_EVENTS events or more on a machine of more than one core; only registry rules can
 * (the thread finds them by id).
 */
export function rulesThreadFor(t: Pick<Timeline, 'accounting'>, rules: readonly Rule[], forced?: boolean): boolean {
  if (rules.length === 0 || !rules.every((r) => ALL_RULES.includes(r))) return false;
  if (forced !== undefined) return forced;
  let events = 0;
  for (const a of t.accounting) for (const k in a.events) events += a.events[k as EventType] ?? 0;
  return events >= RULES_THREAD_EVENTS && availableParallelism() > 1;
}

/** `--jobs`'s say on the rules' thread: N > 0 uses it whatever the size, 0 never; not given: rulesThreadFor decides. */
export function rulesThreadOfJobs(jobs: number | undefined): boolean | undefined {
  return jobs === undefined ? undefined : jobs > 0;
}

/** The rules over the merged stream, in this thread (the worker's loop, and the fallback when it fails). */
export function rulesHere(streams: readonly SourceStream[], rules: readonly Rule[], settings: Record<string, SettingValue>, sources: SourceInfo[]): RulesResult {
  const runner = new RuleRunner({ rules, settings, sources });
  const wanted = runner.wanted;
  for (const m of mergeStreams(streams)) if (wanted.has(m.type)) runner.visit(m.event());
  return { findings: runner.finish(), omitted: runner.omitted };
}

/** A run of the rules in their thread: finished() gives its result, stop() ends it (the caller failed or gave up). */
export interface RulesRun {
  finished(): Promise<RulesResult>;
  stop(): void;
}

/** The rules' run in a thread; should the thread fail, finished() runs them here over the same stream. */
export function startRulesThread(streams: SourceStream[], rules: readonly Rule[], settings: Record<string, SettingValue>, sources: SourceInfo[]): RulesRun {
  const thread = rulesInThread({ streams, rules: rules.map((r) => r.meta.id), settings, sources });
  return {
    async finished() {
      try {
        return await thread.result;
      } catch {
        return rulesHere(streams, rules, settings, sources);
      }
    },
    stop: () => thread.stop(),
  };
}

/** The thread itself (`url`: its entry, for tests); its result rejects with the reason it failed. */
export function rulesInThread(job: RulesJob, url: URL = RULES_WORKER_URL): { result: Promise<RulesResult>; stop(): void } {
  let w: Worker;
  try {
    w = new Worker(url, { workerData: job, resourceLimits: RULES_THREAD_LIMITS });
  } catch (err) {
    const result = Promise.reject(err as Error);
    result.catch(() => {});
    return { result, stop() {} };
  }
  let done = false;
  const result = new Promise<RulesResult>((resolve, reject) => {
    w.once('message', (msg: RulesResult | { error: string }) => {
      done = true;
      if ('error' in msg) reject(new Error(msg.error));
      else resolve(msg);
      void w.terminate();
    });
    w.once('error', (err) => {
      done = true;
      reject(err);
    });
    w.once('exit', () => {
      if (!done) reject(new Error('the rules thread stopped before it was done'));
      done = true;
    });
  });
  // The caller may stop before it asks for the result: a failure then is no unhandled rejection.
  result.catch(() => {});
  return {
    result,
    stop() {
      if (!done) void w.terminate();
      done = true;
    },
  };
}
