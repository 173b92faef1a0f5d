// analyze's pass on two cores: the rules read the merged stream in a thread of their own
// (rules-worker.ts) while this thread reads it for the milestones and replay's inference. Both
// merge the same spill files (Timeline.streams), so each sees every event in the same order.

import { Worker } from 'node:worker_threads';
import type { SourceStream } from '../timeline/merge.js';
import type { OmittedFindings } from './engine.js';
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
 * Timelines with fewer events read the rules in this thread: starting a thread, and decoding the
 * events it reads a second time there, would cost more than it saves (a thread starts in about 0.1 s).
 */
export const RULES_THREAD_EVENTS = 100_000;

/** Whether these rules can run in a thread: every one is a registry rule (the thread finds them by id). */
export function inRegistry(rules: readonly Rule[]): boolean {
  return rules.every((r) => ALL_RULES.includes(r));
}

/** The rules' run in a thread (`url`: its entry, for tests); stop() ends it if it is still running (the caller failed or gave up). */
export function rulesInThread(job: RulesJob, url: URL = RULES_WORKER_URL): { result: Promise<RulesResult>; stop(): void } {
  let w: Worker;
  try {
    w = new Worker(url, { workerData: job });
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
