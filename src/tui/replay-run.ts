// Runs the replay for the TUI's replay tab: the scenario inferred from the same inputs, run in the
// cluster model with seed 1, compared with the logs (what `rmq-diag replay` does without what-ifs).
// It runs in a worker thread when the compiled worker is there, so the screen never waits for it;
// otherwise (tests on the sources) in this thread after a turn of the event loop.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { AssertionError } from '../model/index.js';
import { checkInferred, DEFAULT_MAX_SPAN_MS, fitRun, inferFromLogs } from '../replay/load.js';
import { replay } from '../replay/run.js';
import type { BuildOptions } from '../timeline/build.js';
import type { ReplayStatus } from './replay-status.js';
import { replayViewOf } from './replay.js';

/** The replay's result as the tab shows it; failures become a one-line reason, never an exception. */
export async function replayFromLogs(build: BuildOptions, zone: string): Promise<ReplayStatus> {
  if (build.inputs.includes('-')) return { kind: 'failed', reason: 'the logs came on stdin and cannot be read a second time (rmq-diag replay FILES replays saved logs)' };
  try {
    // Parsed in this (background) thread, with no parse workers of its own: the TUI holds its
    // timeline meanwhile, and more threads would add their heaps to it for a result nobody waits on.
    const { input, timeline } = await inferFromLogs({ ...build, workers: 0, onProgress: undefined }, () => zone, build.inputs.join(' '));
    const read = timeline.accounting.reduce((n, a) => n + a.lines, 0);
    if (timeline.sources.length === 0 || read === 0) return { kind: 'failed', reason: 'nothing could be read' };
    // The same checks as rmq-diag replay, the inputs' too: two recordings' folders given together
    // (one cluster twice, or two clusters whose hosts share addresses) are said as such.
    const problem = checkInferred(input, { inputs: build.inputs, accounting: timeline.accounting });
    if (problem) return { kind: 'failed', reason: problem };
    // The same limits as rmq-diag replay: logs longer than a run may last are replayed from their start.
    fitRun(input, DEFAULT_MAX_SPAN_MS, null);
    const report = replay(input, { seed: 1, variants: [], runs: 0, lanes: true });
    return { kind: 'done', view: replayViewOf(report) };
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    return { kind: 'failed', reason: e instanceof AssertionError ? `the scenario cannot run: ${msg}` : msg.split('\n')[0] };
  }
}

export interface ReplayTask {
  promise: Promise<ReplayStatus>;
  /** Stops the worker (the user quit). */
  cancel(): void;
}

/** Old-generation heap of the replay worker, MB. */
const REPLAY_HEAP_MB = 64;
/**
 * Young generation of the replay worker, MB. The worker runs beside the TUI's own heap, still at its
 * load's size; V8's default young generation grows to 48 MB on 64-bit (three 16 MB semi-spaces, V8's
 * Heap), which costs the parse's short-lived strings peak memory and buys the replay no speed.
 */
const REPLAY_YOUNG_MB = 8;

/** Starts the replay in the background. */
export function startReplay(build: BuildOptions, zone: string): ReplayTask {
  const { onProgress: _drop, ...options } = build;
  const url = new URL('./replay-worker.js', import.meta.url);
  if (!existsSync(fileURLToPath(url))) {
    let cancelled = false;
    const promise = new Promise<void>((r) => setImmediate(r)).then(() =>
      cancelled ? ({ kind: 'failed', reason: 'cancelled' } as ReplayStatus) : replayFromLogs(options, zone),
    );
    return { promise, cancel: () => (cancelled = true) };
  }
  // A bounded heap: the replay's summary and run are small, and V8 then collects early instead of
  // growing beside the TUI's own.
  const worker = new Worker(url, { resourceLimits: { maxOldGenerationSizeMb: REPLAY_HEAP_MB, maxYoungGenerationSizeMb: REPLAY_YOUNG_MB } });
  const promise = new Promise<ReplayStatus>((resolve) => {
    worker.once('message', (m: ReplayStatus) => resolve(m));
    worker.once('error', (e) =>
      resolve({
        kind: 'failed',
        reason: (e as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY' ? `the replay needs more than ${REPLAY_HEAP_MB} MB (rmq-diag replay runs it without this limit)` : e.message.split('\n')[0],
      }),
    );
    worker.once('exit', () => resolve({ kind: 'failed', reason: 'the replay stopped' }));
  }).finally(() => void worker.terminate());
  worker.postMessage({ build: options, zone });
  return { promise, cancel: () => void worker.terminate() };
}
