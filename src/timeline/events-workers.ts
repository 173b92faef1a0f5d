// Events files read on every core: a fleet ships one file per host (docs/json.md, "Events as
// input"), and reading one is a JSON.parse per line, so the files are read by worker threads, one
// file (or one part of a large file) each at a time, biggest first, as parse-source's jobs are. The
// results come back in input order, each from index 0 (the caller numbers their sources where they
// stand among the inputs).

import { runPool, type WorkerReply } from './pool.js';
import { eventsParts, joinEventsParts, readEventsPart, type EventsInput, type EventsJob, type EventsPart } from './events-input.js';

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
  const order = jobs.map((_, i) => i).sort((a, b) => sizes[b] - sizes[a]);
  return runPool<number, EventsPart>({
    jobs: order,
    workers,
    ask: (i) => ({ events: jobs[i] }),
    resultOf: (msg: WorkerReply & { eventsPart?: EventsPart }) => msg.eventsPart,
    here: (i) => readEventsPart(jobs[i]),
    name: (i) => jobs[i].spec.display,
  }).then((parts) => {
    const out = new Array<EventsPart>(jobs.length);
    order.forEach((i, k) => (out[i] = parts[k]));
    return out;
  });
}
