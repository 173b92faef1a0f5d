#!/usr/bin/env node
// The parse's per-event costs in one thread: `node scripts/bench-binary.mjs FILE [options]`.
//
// Reads the first --mb megabytes of FILE (a plain log) with the reader and the parser of dist/ in
// this thread, keeping the events in memory, then times, each --rounds times (median and best, in
// ns per event, and the process's CPU time for all rounds):
//   - parse: the reader and the parser alone (events dropped as they come);
//   - write: every event into the binary form (src/parse/event-binary.ts, EventWriter.add), the
//     bytes handed on in 256 KiB batches as the spill does;
//   - decode: every record read back into an event object (EventReader.read and event()).
// A whole command's time also holds the spill's writes and reads, the merge, the rules and the
// output; this isolates the parse and the binary form's coders, which the worker profiles of the
// dense set put at the top. Needs dist/ (`npm run build`).
//
// Options:
//   --mb N        megabytes of FILE to read (default 64)
//   --rounds N    rounds of each (default 5)
//   --dist DIR    time the build in DIR instead of this checkout's dist/ (to compare two builds)
//   --json        figures as JSON on stdout

import path from 'node:path';
import { closeSync, openSync, readSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : dflt;
};
const file = args.find((a, i) => !a.startsWith('--') && (i === 0 || !['--mb', '--rounds', '--dist'].includes(args[i - 1])));
if (!file) {
  process.stderr.write('usage: node scripts/bench-binary.mjs FILE [--mb N] [--rounds N] [--dist DIR] [--json]\n');
  process.exit(2);
}
const MB = Number(opt('--mb', '64'));
const ROUNDS = Number(opt('--rounds', '5'));
const DIST = path.resolve(opt('--dist', path.join(ROOT, 'dist')));
const json = args.includes('--json');

const load = (p) => import(pathToFileURL(path.join(DIST, p)).href);
const { readSource } = await load('ingest/reader.js');
const { SourceParser } = await load('parse/parser.js');
const { parseZone } = await load('parse/time.js');
const { EventWriter, EventReader } = await load('parse/event-binary.js');
const { resolveInputs } = await load('ingest/sources.js');

// The first MB megabytes, cut after the last whole line, in a file of their own.
const dir = mkdtempSync(path.join(tmpdir(), 'rmq-diag-bench-binary-'));
const head = path.join(dir, path.basename(file));
{
  let fd;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    process.stderr.write(`bench-binary: cannot read ${file}: ${e.code ?? e.message}\n`);
    process.exit(2);
  }
  const buf = Buffer.allocUnsafe(MB * 1e6);
  const n = readSync(fd, buf, 0, buf.length, 0);
  closeSync(fd);
  const end = n === buf.length ? buf.lastIndexOf(10, n - 1) + 1 : n;
  writeFileSync(head, buf.subarray(0, end));
}

// The source as a run sees it (its kind from its name, as the input's is).
const [spec] = (await resolveInputs([head])).sources;
async function parse(emit) {
  const parser = new SourceParser({ file: spec.display, host: spec.host, sourceIndex: 0, kindHint: spec.kindHint, kindForced: false, defaultZone: parseZone('+08:00'), forcedZone: null, keepOther: false }, emit);
  await readSource(spec, parser);
  parser.end();
}

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
// The median and the best round, in ns per event, and the process's CPU seconds since c0.
const figure = (times, c0) => ({ nsPerEvent: (median(times) * 1e6) / n, bestNsPerEvent: (Math.min(...times) * 1e6) / n, cpuSeconds: cpu() - c0 });

const events = [];
let n = 0;
const figures = { file, mb: MB, events: 0, rounds: ROUNDS, dist: DIST };
try {
  await parse((e) => events.push(e));
  figures.events = n = events.length;
  // parse
  let times = [];
  let c0 = cpu();
  for (let r = 0; r < ROUNDS; r++) {
    const t = performance.now();
    await parse(() => {});
    times.push(performance.now() - t);
  }
  figures.parse = figure(times, c0);

  // write
  const batches = [];
  times = [];
  c0 = cpu();
  for (let r = 0; r < ROUNDS; r++) {
    const w = new EventWriter();
    const keep = r === 0;
    const t = performance.now();
    for (let i = 0; i < n; i++) {
      w.add(events[i]);
      if (w.size >= 256 << 10) {
        if (keep) batches.push(w.take());
        else w.clear();
      }
    }
    if (keep) batches.push(w.take());
    times.push(performance.now() - t);
  }
  const bytes = batches.reduce((a, b) => a + b.length, 0);
  figures.write = { ...figure(times, c0), bytesPerEvent: bytes / n };

  // decode
  times = [];
  c0 = cpu();
  let check = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const rd = new EventReader();
    let seq = 0;
    const t = performance.now();
    for (const b of batches) {
      for (let at = 0; (at = rd.read(b, at)) >= 0; ) check += rd.event(0, seq++).line;
    }
    times.push(performance.now() - t);
    if (seq !== n) throw new Error(`decoded ${seq} events of ${n}`);
  }
  figures.decode = figure(times, c0);
  void check;
} finally {
  rmSync(dir, { recursive: true, force: true });
}

if (json) process.stdout.write(JSON.stringify(figures, null, 2) + '\n');
else {
  const f = (x) => `${x.nsPerEvent.toFixed(0).padStart(6)} (best ${x.bestNsPerEvent.toFixed(0)})`;
  process.stdout.write(
    `${n.toLocaleString('en-US')} events in the first ${MB} MB of ${file} (${DIST}), ${ROUNDS} rounds, ns per event (median, best):\n` +
      `  parse  ${f(figures.parse)}   (CPU ${figures.parse.cpuSeconds.toFixed(2)} s)\n` +
      `  write  ${f(figures.write)}   (CPU ${figures.write.cpuSeconds.toFixed(2)} s, ${figures.write.bytesPerEvent.toFixed(0)} bytes per event)\n` +
      `  decode ${f(figures.decode)}   (CPU ${figures.decode.cpuSeconds.toFixed(2)} s)\n`,
  );
}
