// `--emit-logs DIR`: the simulated run written as real log files, DIR/<host>/<file>, in the layouts of
// the versions that run there (the 4.x client inner logger with CRLF line ends, the others LF), so
// that `rmq-diag events` and `rmq-diag analyze` read them like collected logs.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RunResult } from '../model/index.js';

const INNER_CLIENT = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} /;

/** Writes every rendered file of the run; returns how many. The run must have been made with keepLines. */
export function emitLogs(run: RunResult, dir: string): number {
  const logs = run.logs ?? {};
  let n = 0;
  for (const path of Object.keys(logs).sort()) {
    const rel = path.replace(/^sim:/, '');
    const parts = rel.split('/');
    if (parts.some((p) => p === '' || p === '.' || p === '..')) throw new Error(`cannot write a simulated log named ${rel}`);
    const lines = logs[path];
    const target = join(dir, ...parts);
    mkdirSync(dirname(target), { recursive: true });
    const eol = parts[parts.length - 1] === 'rocketmq_client.log' && INNER_CLIENT.test(lines[0] ?? '') ? '\r\n' : '\n';
    writeFileSync(target, lines.length ? lines.join(eol) + eol : '');
    n++;
  }
  return n;
}
