// A worker for test/timeline/pool.test.ts, speaking worker.ts's protocol: { exit } ends it; a
// job answers { result } or { error, code }, or runs out of memory, or ends its thread (quit), or never answers (while it lives, it adds a byte to a file every 10 ms).
import { appendFileSync, statSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';

const port = parentPort;
port.on('message', (msg) => {
  if (msg.exit) {
    port.close();
    return;
  }
  const job = msg.job;
  if (job.fail) {
    // After the file `after` has a byte (another worker is at work), when one is named.
    const t = setInterval(() => {
      if (job.after && statSync(job.after).size === 0) return;
      clearInterval(t);
      port.postMessage({ error: `cannot read ${job.n}`, code: 'ENOENT' });
    }, 5);
  }
  else if (job.quit) process.exit(0); // ends this thread, in the middle of the job
  else if (job.hog) {
    const kept = [];
    for (;;) kept.push(new Array(100000).fill(job.n + 0.5));
  } else if (job.beat) setInterval(() => appendFileSync(job.beat, '.'), 10); // never answers
  else setTimeout(() => port.postMessage({ progress: 1, result: job.n * 10 }), job.delayMs ?? 0);
});
