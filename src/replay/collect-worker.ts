// Worker thread: collects, for analyze's incidents, over the merged stream it is sent (collect-thread.ts).
import { parentPort } from 'node:worker_threads';
import { collectStreams, type CollectJob } from './collect-thread.js';

if (!parentPort) throw new Error('collect-worker.ts must run as a worker thread');
const port = parentPort;

port.once('message', (job: CollectJob) => {
  try {
    port.postMessage({ collected: collectStreams(job) });
  } catch (err) {
    port.postMessage({ error: String(err instanceof Error ? err.message : err) });
  }
});
