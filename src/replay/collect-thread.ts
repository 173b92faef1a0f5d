// Replay's collector over a timeline's merged stream in a thread of its own (collect-worker.ts), so
// that analyze's incidents are collected on the second core while the rules read the same stream on
// this one (diagnose.ts): the collector was about 40% of analyze's pass after the parse on the mixed
// bench set (docs/bench.md, issue 14). Both threads merge the stream again from where the parse left
// it (Timeline.streams), so both see the same events in the same order.

import { Worker } from 'node:worker_threads';
import type { SourceAccounting } from '../parse/types.js';
import { mergeStreams, type EncodedStream } from '../timeline/merge.js';
import { collector, type Collected, type CollectOptions } from './collect.js';

/** What the thread is sent: plain data (structured clone). */
export interface CollectJob {
  streams: EncodedStream[];
  sources: SourceAccounting[];
  base: string;
  first: number | null;
  last: number | null;
  opts: CollectOptions;
}

/** The collector over the job's stream, in this thread. */
export function collectStreams(job: CollectJob): Collected {
  const c = collector(job.sources, job.base, job.first, job.last, job.opts);
  for (const m of mergeStreams(job.streams)) if (c.types.has(m.type)) c.visit(m.event());
  return c.finish();
}

const WORKER_URL = new URL('./collect-worker.js', import.meta.url);

/**
 * collectStreams in a worker thread, started at once (it goes on while this thread is busy); when
 * the thread cannot do it (no thread, out of memory), done() does it here (`where` says which). The spill
 * files must stay until it resolves.
 */
export function collectInThread(job: CollectJob): { done: () => Promise<{ collected: Collected; where: 'thread' | 'here' }> } {
  let w: Worker;
  let answer: Promise<Collected | null>;
  try {
    w = new Worker(WORKER_URL);
    answer = new Promise((resolve) => {
      w.once('message', (msg: { collected?: Collected; error?: string }) => {
        resolve(msg.collected ?? null);
        void w.terminate();
      });
      w.once('error', () => resolve(null));
      w.once('exit', () => resolve(null));
    });
    w.postMessage(job);
  } catch {
    answer = Promise.resolve(null);
  }
  return {
    done: async () => {
      const collected = await answer;
      return collected !== null ? { collected, where: 'thread' } : { collected: collectStreams(job), where: 'here' };
    },
  };
}
