// Events files read on every core: a fleet ships one file per host (docs/json.md, "Events as
// input"), and reading one is a JSON.parse per line, so the files are read by worker threads, one
// file (or one part of a large file) each at a time, biggest first, as parse-source's jobs are. The
// results come back in input order, each from index 0 (the caller numbers their sources where they
// stand among the inputs).
// The heap limits and the entry of every worker thread of the timeline live here too (build.ts's
// parse workers are the same threads, sent parse jobs).

import { Worker } from 'node:worker_threads';
import { eventsParts, joinEventsParts, readEventsPart, type EventsInput, type EventsJob, type EventsPart } from './events-input.js';

/**
 * The heap of a worker thread that parses or reads events (build.ts's workers and these). A worker
 * keeps one batch of events and one chunk of text (its old generation holds 8-20 MB), so its heap
 * can be small; but at a 32 MB limit V8 marked it about twice as often, and a parse took 10-15%
 * more CPU than at 64 MB (docs/bench.md, issue 14).
 */
export const WORKER_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 };
/** The worker threads' entry (built next to this file). */
export const WORKER_URL = new URL('./worker.js', import.meta.url);

/** Below this size an events file is read whole by one worker. */
const SPLIT_MIN_BYTES = 64 << 20;

/**
 * Each file's EventsInput, in the order of `jobs`, read by `workers` threads: one file each, biggest
 * first, and a file that alone would keep one core busy past its fair share in parts, one per
 * worker, cut at line ends (eventsParts) and put together again (joinEventsParts).
 */
export async function readEventsFiles(jobs: EventsJob[], sizes: number[], workers: number): Promise<EventsInput[]> {
  const total = sizes.reduce((a, b) => a + b, 0);
  const partJobs: EventsJob[] = [];
  const partSizes: number[] = [];
  const partsOf: number[][] = jobs.map((job, i) => {
    const size = sizes[i];
    const cut = !job.spec.gz && size >= SPLIT_MIN_BYTES && size * workers > total ? eventsParts(job.spec.path, size, workers) : null;
    const ranges = cut ?? [null];
    return ranges.map((range, k) => {
      partSizes.push(range ? range.end - range.start : size);
      return partJobs.push(range ? { ...job, name: `${job.name}.${k}`, range } : job) - 1;
    });
  });
  const read = await readParts(partJobs, partSizes, workers);
  return jobs.map((job, i) => joinEventsParts(job, partsOf[i].map((k) => read[k])));
}

/** Each job's part, in the order of `jobs`; `sizes` orders the queue (largest first). */
function readParts(jobs: EventsJob[], sizes: number[], workers: number): Promise<EventsPart[]> {
  const results: Array<EventsPart | undefined> = new Array<EventsPart | undefined>(jobs.length);
  const queue = jobs.map((_, i) => i).sort((a, b) => sizes[b] - sizes[a]);
  // A file a worker could not read (out of memory: lines of megabytes) is read in this thread after.
  const here: number[] = [];
  return new Promise((resolve, reject) => {
    let running = 0;
    let failed = false;
    const all: Worker[] = [];
    // The first failure is the answer; the other workers stop (a live one would keep the process up).
    const fail = (err: Error) => {
      if (failed) return;
      failed = true;
      reject(err);
      for (const x of all) void x.terminate();
    };
    const done = () => {
      running--;
      if (running > 0 || failed) return;
      (async () => {
        // And those no worker took (every worker ended on one of those).
        for (const i of [...here, ...queue.splice(0)]) results[i] = await readEventsPart(jobs[i]);
        return results as EventsPart[];
      })().then(resolve, reject);
    };
    const start = () => {
      const w = new Worker(WORKER_URL, { resourceLimits: WORKER_LIMITS });
      all.push(w);
      running++;
      let current = -1;
      const feed = () => {
        current = queue.shift() ?? -1;
        if (current < 0) w.postMessage({ exit: true });
        else w.postMessage({ events: jobs[current] });
      };
      w.on('message', (msg: { eventsPart?: EventsPart; error?: string; code?: string }) => {
        if (msg.eventsPart) {
          results[current] = msg.eventsPart;
          feed();
        } else if (msg.error !== undefined) fail(Object.assign(new Error(msg.error), { code: msg.code }));
      });
      w.on('error', (err) => {
        if ((err as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY' && current >= 0) {
          here.push(current);
          current = -1;
          return;
        }
        fail(err);
      });
      w.on('exit', done);
      feed();
    };
    for (let i = 0; i < Math.max(1, Math.min(workers, jobs.length)); i++) start();
  });
}
