// Worker thread: parses the sources it is sent, one at a time, and posts each result back.
import { parentPort } from 'node:worker_threads';
import { parseSource, type ParseJob } from './parse-source.js';

if (!parentPort) throw new Error('worker.ts must run as a worker thread');
const port = parentPort;

port.on('message', (msg: { job: ParseJob } | { exit: true }) => {
  if ('exit' in msg) {
    port.close();
    return;
  }
  let reported = 0;
  parseSource(msg.job, (bytes) => {
    // Progress at most every 8 MiB, to keep messages cheap.
    if (bytes - reported >= 8 << 20) {
      port.postMessage({ progress: bytes - reported });
      reported = bytes;
    }
  }).then(
    (result) => port.postMessage({ result, progressTail: result.bytes - reported }),
    (err: unknown) =>
      port.postMessage({
        error: String(err instanceof Error ? err.message : err),
        // fs errors (a full temporary folder) keep their code, for the main thread to name them
        code: (err as NodeJS.ErrnoException | null)?.code,
        index: msg.job.index,
      }),
  );
});
