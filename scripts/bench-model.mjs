#!/usr/bin/env node
// The model benchmark: `node scripts/bench-model.mjs [options]` (also run at the end of `npm run bench`).
//
// Runs the cluster model (src/model, see docs/model.md) on a 10-minute incident: 4 brokers,
// 2 NameServers, 50 producers at 20 sends/s each (Poisson), half of them 4.8.0 and half 4.9.4
// clients, with a seed-outage-like fault: broker-2's host hangs with its connections open from 120 s
// to 300 s and then reboots, and broker-3 stalls for 600 ms at 420 s. It times:
//   - one run (seed 31337), three times in this process; the median (and best) wall time, the
//     simulated seconds per wall second and the events (RmqEvents the model's logs give) per second;
//   - 100 runs with seeds 1..100, spread over worker processes (one per core by default, each taking
//     the next seed when it is done); the wall time of the whole batch.
// Targets from the replay issue: one run under 2 s, 100 seeded runs under 60 s.
// Needs dist/ (`npm run build`).
//
// Options:
//   --runs N       seeded runs in the batch (default 100; 0 skips the batch)
//   --threads N    worker processes for the batch (default: os.availableParallelism())
//   --dist DIR     time the build in DIR instead of this checkout's dist/ (to compare two builds)
//   --keep none    the runs keep no event (what keeping them costs; default: every event)
//   --json         figures as JSON on stdout
// Each run also reports its CPU time (user + system of the process, GC and compiler threads
// included): on a machine shared with other work it moves less than the wall time.

import os from 'node:os';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fork } from 'node:child_process';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const distArg = process.argv.indexOf('--dist');
const DIST = distArg >= 0 && distArg + 1 < process.argv.length ? path.resolve(process.argv[distArg + 1]) : path.join(ROOT, 'dist');
const MODEL = path.join(DIST, 'model', 'index.js');
/** --keep none: runs that keep no event (keepTypes: the empty set). */
const KEEP_TYPES = process.argv.includes('--keep') && process.argv[process.argv.indexOf('--keep') + 1] === 'none' ? new Set() : null;

const UNTIL_MS = 600000;
const SINGLE_SEED = 31337;
const TARGETS = { singleRunSeconds: 2, batchSeconds: 60, batchRuns: 100 };
const WORKER_FLAGS = ['--single-threaded-gc'];

/** The incident: src/model/load-incident.ts (also the model's performance smoke test). */
let incident = null;

/** One run: wall and CPU ms, and the size of what it produced. */
function runOnce(runScenario, seed) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = runScenario(incident(), { seed, untilMs: UNTIL_MS, keepTypes: KEEP_TYPES });
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  let sends = 0;
  let failedSends = 0;
  for (const c of Object.values(r.metrics.clients)) {
    sends += c.sends;
    failedSends += c.failedSends;
  }
  return { seed, wallMs, cpuMs, events: r.events.length, steps: r.steps, sends, failedSends };
}

// ---- worker: take seeds from the main process until it says stop -------------------------------

if (process.argv[2] === '--worker') {
  const model = await import(pathToFileURL(MODEL).href);
  const { runScenario } = model;
  incident = model.loadIncident;
  process.on('message', (seed) => {
    if (seed === null) process.exit(0);
    process.send(runOnce(runScenario, seed));
  });
  process.send('ready');
} else {
  await main();
}

async function main() {
  const args = process.argv.slice(2);
  const opt = (name, def) => {
    const i = args.indexOf(name);
    return i >= 0 && i + 1 < args.length ? args[i + 1] : def;
  };
  const json = args.includes('--json');
  const runs = Number(opt('--runs', String(TARGETS.batchRuns)));
  const threads = Number(opt('--threads', String(os.availableParallelism())));
  const keepAt = args.indexOf('--keep');
  if (!Number.isInteger(runs) || runs < 0 || !Number.isInteger(threads) || threads < 1 || (keepAt >= 0 && args[keepAt + 1] !== 'none')) {
    process.stderr.write('usage: node scripts/bench-model.mjs [--runs N] [--threads N] [--dist DIR] [--keep none] [--json]\n');
    process.exit(2);
  }
  if (!existsSync(MODEL)) {
    process.stderr.write(`bench-model: ${MODEL} is missing, run \`npm run build\` first\n`);
    process.exit(2);
  }
  const model = await import(pathToFileURL(MODEL).href);
  const { runScenario } = model;
  incident = model.loadIncident;

  // One run, three times: the first includes the JIT's warm-up, the median is the figure.
  const singles = [];
  for (let i = 0; i < 3; i++) singles.push(runOnce(runScenario, SINGLE_SEED));
  const deterministic = singles.every((s) => s.events === singles[0].events && s.steps === singles[0].steps);
  const wall = singles.map((s) => s.wallMs).sort((a, b) => a - b);
  const median = wall[1];
  const cpuMedian = singles.map((s) => s.cpuMs).sort((a, b) => a - b)[1];
  const one = singles[0];
  const simSeconds = UNTIL_MS / 1000;

  const single = {
    seed: SINGLE_SEED,
    wallSecondsMedian: round(median / 1000, 3),
    wallSecondsBest: round(wall[0] / 1000, 3),
    wallSecondsRuns: singles.map((s) => round(s.wallMs / 1000, 3)),
    cpuSecondsMedian: round(cpuMedian / 1000, 3),
    cpuSecondsRuns: singles.map((s) => round(s.cpuMs / 1000, 3)),
    simSecondsPerWallSecond: round(simSeconds / (median / 1000), 1),
    eventsPerSecond: Math.round(one.events / (median / 1000)),
    stepsPerSecond: Math.round(one.steps / (median / 1000)),
    sendsPerSecond: Math.round(one.sends / (median / 1000)),
    events: one.events,
    steps: one.steps,
    sends: one.sends,
    failedSends: one.failedSends,
    deterministic,
  };

  let batch = null;
  if (runs > 0) {
    const t0 = performance.now();
    const results = await runBatch(runs, Math.min(threads, runs));
    const wallMs = performance.now() - t0;
    const events = results.reduce((a, r) => a + r.events, 0);
    const steps = results.reduce((a, r) => a + r.steps, 0);
    const per = results.map((r) => r.wallMs).sort((a, b) => a - b);
    const perCpu = results.map((r) => r.cpuMs).sort((a, b) => a - b);
    batch = {
      runs,
      threads: Math.min(threads, runs),
      wallSeconds: round(wallMs / 1000, 2),
      simSecondsPerWallSecond: round((runs * simSeconds) / (wallMs / 1000), 1),
      eventsPerSecond: Math.round(events / (wallMs / 1000)),
      stepsPerSecond: Math.round(steps / (wallMs / 1000)),
      runSecondsMedian: round(per[Math.floor(per.length / 2)] / 1000, 3),
      runSecondsMax: round(per[per.length - 1] / 1000, 3),
      runCpuSecondsMedian: round(perCpu[Math.floor(perCpu.length / 2)] / 1000, 3),
      cpuSeconds: round(perCpu.reduce((a, x) => a + x, 0) / 1000, 1),
      eventsPerRunMin: Math.min(...results.map((r) => r.events)),
      eventsPerRunMax: Math.max(...results.map((r) => r.events)),
    };
  }

  const targets = [{ name: 'one 10-minute incident', target: `< ${TARGETS.singleRunSeconds} s`, value: single.wallSecondsMedian, pass: single.wallSecondsMedian < TARGETS.singleRunSeconds }];
  if (batch && runs === TARGETS.batchRuns) {
    targets.push({ name: `${TARGETS.batchRuns} seeded runs`, target: `< ${TARGETS.batchSeconds} s`, value: batch.wallSeconds, pass: batch.wallSeconds < TARGETS.batchSeconds });
  }
  const figures = {
    keptEvents: KEEP_TYPES ? 'none' : 'all',
    scenario: { durationSeconds: simSeconds, brokers: 4, nameServers: 2, producers: 50, sendsPerSecondEach: 20, faults: 'broker-2 host hung 120-300 s then reboot; broker-3 stall 600 ms at 420 s' },
    machine: { cores: os.availableParallelism(), cpu: os.cpus()[0]?.model ?? 'unknown', node: process.version, loadAverage: os.loadavg().map((x) => round(x, 2)) },
    single,
    batch,
    targets,
  };

  if (json) {
    process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
    return;
  }
  const n = (x, d = 0) => x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
  const L = [];
  L.push(`rmq-diag model benchmark: ${simSeconds} s incident, 4 brokers, 2 NameServers, 50 producers x 20 sends/s, node ${process.version}${KEEP_TYPES ? ', keeping no event' : ''}`);
  L.push(`  one run (seed ${SINGLE_SEED})   median ${n(single.wallSecondsMedian, 2)} s (best ${n(single.wallSecondsBest, 2)} s, runs ${single.wallSecondsRuns.map((s) => n(s, 2)).join(', ')})${deterministic ? '' : ' NOT DETERMINISTIC'}`);
  L.push(`                       CPU median ${n(single.cpuSecondsMedian, 2)} s (runs ${single.cpuSecondsRuns.map((s) => n(s, 2)).join(', ')})`);
  L.push(`                       ${n(single.simSecondsPerWallSecond, 1)} simulated s per wall s, ${n(single.eventsPerSecond)} events/s, ${n(single.stepsPerSecond)} steps/s, ${n(single.sendsPerSecond)} sends/s`);
  L.push(`                       ${n(single.sends)} sends (${n(single.failedSends)} failed), ${n(single.steps)} steps, ${n(single.events)} events`);
  if (batch) {
    L.push(`  ${batch.runs} seeded runs       ${n(batch.wallSeconds, 1)} s on ${batch.threads} worker process${batch.threads === 1 ? '' : 'es'} (per run median ${n(batch.runSecondsMedian, 2)} s, max ${n(batch.runSecondsMax, 2)} s; CPU per run median ${n(batch.runCpuSecondsMedian, 2)} s)`);
    L.push(`                       ${n(batch.simSecondsPerWallSecond, 1)} simulated s per wall s, ${n(batch.eventsPerSecond)} events/s, ${n(batch.stepsPerSecond)} steps/s`);
  }
  for (const t of targets) L.push(`  target: ${t.name} ${t.target}: ${n(t.value, 2)} s ${t.pass ? 'PASS' : 'FAIL'}`);
  L.push(`  load average at the end: ${figures.machine.loadAverage.join(', ')}`);
  process.stdout.write(`${L.join('\n')}\n`);
}

/**
 * Seeds 1..runs over `threads` worker processes, each taking the next seed when it is done. The
 * workers collect garbage on their own thread (WORKER_FLAGS): with every core running a model, V8's
 * parallel GC helpers only take time from the other worker (measured: per-run median 1.36 s instead
 * of 1.52 s with two workers on 2 cores).
 */
function runBatch(runs, threads) {
  return new Promise((resolve, reject) => {
    const results = [];
    let next = 1;
    let live = threads;
    for (let i = 0; i < threads; i++) {
      const w = fork(fileURLToPath(import.meta.url), ['--worker', '--dist', DIST, ...(KEEP_TYPES ? ['--keep', 'none'] : [])], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], execArgv: [...process.execArgv, ...WORKER_FLAGS] });
      const feed = () => w.send(next <= runs ? next++ : null);
      w.on('message', (m) => {
        if (m !== 'ready') results.push(m);
        feed();
      });
      w.on('error', reject);
      w.on('exit', (code, signal) => {
        if (code !== 0) reject(new Error(`bench-model: a worker exited with ${signal ?? code}`));
        else if (--live === 0) resolve(results.sort((a, b) => a.seed - b.seed));
      });
    }
  });
}

function round(x, d) {
  const f = 10 ** d;
  return Math.round(x * f) / f;
}
