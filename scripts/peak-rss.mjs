// Peak RSS of a child process, for the benchmarks (scripts/bench.mjs, scripts/bench-rss.mjs): from
// `/usr/bin/time -f %M` when it is there, else by polling VmHWM in /proc/<pid>/status. A figure that
// could not be had is null, never 0: a 0 would pass a memory target unmeasured.

import fs from 'node:fs';

export const TIME_BIN = '/usr/bin/time';

export const haveTime = (() => {
  try {
    fs.accessSync(TIME_BIN, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
})();

/** The file and arguments that run `cmd args` under time, its figure written to `timeOut` (without time: as they are). */
export function timed(timeOut, cmd, args) {
  return haveTime ? [TIME_BIN, ['-f', '%M', '-o', timeOut, cmd, ...args]] : [cmd, args];
}

/** The peak RSS (kB) time wrote to `timeOut`, or null when it wrote none; the file is removed. */
export function peakOf(timeOut) {
  try {
    const lines = fs.readFileSync(timeOut, 'utf8').trim().split('\n');
    const kB = Number(lines[lines.length - 1]);
    return kB > 0 ? kB : null;
  } catch {
    return null;
  } finally {
    fs.rmSync(timeOut, { force: true });
  }
}

/** VmHWM of a live process in kB (0 once it is gone). */
export function vmHWM(pid) {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}
