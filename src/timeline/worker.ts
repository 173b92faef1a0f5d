// Worker thread: parses the sources it is sent (or reads the events files), one at a time, and posts each result back.
import { parentPort } from 'node:worker_threads';
import { parseSource, type ParseJob } from './parse-source.js';
import { readEventsPart, type EventsJob } from './events-input.js';

if (!parentPort) throw new Error('worker.ts must run as a worker thread');
const port = parentPort;

/** A failure as the main thread reads it: fs errors (a full temporary folder) keep their code, for it to name them. */
const failure = (err: unknown) => ({ error: String(err instanceof Error ? err.message : err), code: (err as NodeJS.ErrnoException | null)?.code });

port.on('message', (msg: { job: ParseJob } | { events: EventsJob } | { exit: true }) => {
  if ('exit' in msg) {
    port.close();
    return;
  }
  if ('events' in msg) {
    readEventsPart(msg.events).then(
      (eventsPart) => port.postMessage({ eventsPart }),
      (err: unknown) => port.postMessage(failure(err)),
    );
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
    (err: unknown) => port.postMessage({ ...failure(err), index: msg.job.index }),
  );
});
