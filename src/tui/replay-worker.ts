// The replay tab's worker: infers, runs and compares (replay-run.ts) off the TUI's thread.
import { parentPort } from 'node:worker_threads';
import type { BuildOptions } from '../timeline/build.js';
import { replayFromLogs } from './replay-run.js';

parentPort?.once('message', (m: { build: BuildOptions; zone: string }) => {
  void replayFromLogs(m.build, m.zone).then((status) => {
    parentPort?.postMessage(status);
    parentPort?.close();
  });
});
