// The timeline's worker threads: one pool for the parse (build.ts) and for events files
// (events-workers.ts). Each worker takes the next job when it is done with one, so that the jobs,
// queued biggest first, end with a small one; a job that a worker's small heap cannot hold is done
// in this thread after the others; the first failure stops every worker (a live one would keep
// the process up after the answer is known).

import { Worker } from 'node:worker_threads';

/**
 * The heap of a worker thread that parses or reads events. A worker keeps one batch of events and
 * one chunk of text (its old generation holds 8-20 MB), so its heap can be small; but at a 32 MB
 * limit V8 marked it about twice as often, and a parse took 10-15% more CPU than at 64 MB
 * (docs/bench.md, issue 14).
 */
export const WORKER_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 };
/** The worker threads' entry (built next to this file). */
export const WORKER_URL = new URL('./worker.js', import.meta.url);

/** What a worker posts back: a job's result, a failure, or something else (progress) for `onMessage`. */
export interface WorkerReply {
  error?: string;
  code?: string;
}

export interface PoolOptions<J, R> {
  /** In the order they are taken. */
  jobs: J[];
  workers: number;
  /** The message that asks a worker for a job (worker.ts). */
  ask: (job: J) => unknown;
  /** The job's result in a worker's message, or undefined when the message is no result. */
  resultOf: (msg: WorkerReply) => R | undefined;
  /** Every message, before its result is taken (progress). */
  onMessage?: (msg: WorkerReply) => void;
  /** A job done in this thread: those a worker ran out of memory on. */
  here: (job: J) => Promise<R>;
  /** What a job reads (a file, a part of one), for the message of a worker that failed on it. */
  name?: (job: J) => string;
  /** The workers' entry (tests): WORKER_URL by default. */
  url?: URL;
}

/**
 * Each job's result, in the order of `jobs`. A worker's failure message rejects with its text and
 * its fs code (`code`, e.g. ENOSPC of a full temporary folder), for the caller to name it.
 */
export function runPool<J, R>(o: PoolOptions<J, R>): Promise<R[]> {
  const results = new Array<R>(o.jobs.length);
  const queue = o.jobs.map((_, i) => i);
  const here: number[] = [];
  return new Promise((resolve, reject) => {
    let running = 0;
    let failed = false;
    const all = new Set<Worker>();
    const fail = (err: Error) => {
      if (failed) return;
      failed = true;
      reject(err);
      for (const w of all) void w.terminate();
    };
    const finish = () => {
      (async () => {
        for (const i of here) results[i] = await o.here(o.jobs[i]);
        return results;
      })().then(resolve, reject);
    };
    const named = (i: number, err: Error) => {
      if (o.name === undefined) return err;
      const out = Object.assign(new Error(`${o.name(o.jobs[i])}: ${err.message}`), { code: (err as NodeJS.ErrnoException).code });
      if (err.stack) out.stack = `${out.message}\n${err.stack.slice(err.stack.indexOf('\n') + 1)}`;
      return out;
    };
    const start = () => {
      const w = new Worker(o.url ?? WORKER_URL, { resourceLimits: WORKER_LIMITS });
      all.add(w);
      running++;
      let current = -1;
      const feed = () => {
        current = queue.shift() ?? -1;
        w.postMessage(current < 0 ? { exit: true } : o.ask(o.jobs[current]));
      };
      w.on('message', (msg: WorkerReply) => {
        if (failed) return;
        if (msg.error !== undefined) {
          fail(Object.assign(new Error(msg.error), { code: msg.code }));
          return;
        }
        o.onMessage?.(msg);
        const r = o.resultOf(msg);
        if (r === undefined) return;
        results[current] = r;
        feed();
      });
      w.on('error', (err) => {
        if ((err as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY' && current >= 0) {
          // A job too big for a worker's small heap (records of megabytes): done here, with this
          // thread's heap, after the others; another worker takes the rest of the queue.
          here.push(current);
          current = -1;
          if (queue.length > 0 && !failed) start();
          return;
        }
        fail(current >= 0 ? named(current, err) : err);
      });
      w.on('exit', () => {
        all.delete(w);
        running--;
        if (current >= 0) fail(named(current, new Error('a worker thread stopped before it was done')));
        if (running === 0 && !failed) finish();
      });
      feed();
    };
    const starts = Math.min(o.workers, queue.length);
    for (let i = 0; i < starts; i++) start();
    if (starts === 0) finish();
  });
}
