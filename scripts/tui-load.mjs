#!/usr/bin/env node
// The TUI's load, phase by phase, without a terminal: `node scripts/tui-load.mjs PATH [--no-other]
// [--dist DIR]` (after `npm run build`). It builds the timeline and loads the store as
// src/tui/run.tsx does (every record kept, as the TUI's default --other; --no-other: the events and
// the records inference reads) and prints the parse's and the load's wall seconds, the load's CPU
// seconds (the main thread's and the rules' thread's), the findings and the bytes the run's
// temporary folders held after the parse and after the load; with every record kept, also how the
// records that are no event are kept (the places of their lines, or their JSON: from gzip, or read
// by inference, or else), counted after the timing. For profiles: run it under
// `node --cpu-prof`; to compare two builds, alternate it with `--dist`.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const distAt = args.indexOf('--dist');
const DIST = distAt >= 0 ? path.resolve(args[distAt + 1]) : path.join(ROOT, 'dist');
const input = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--dist');
if (!input) {
  process.stderr.write('usage: node scripts/tui-load.mjs PATH [--no-other] [--dist DIR]\n');
  process.exit(2);
}
const other = !args.includes('--no-other');
const load = (p) => import(pathToFileURL(path.join(DIST, p)).href);
const { buildTimeline } = await load('timeline/build.js');
const { loadTimeline } = await load('tui/load.js');
const { incidentPass } = await load('diagnosis/diagnose.js');
const { ALL_RULES } = await load('rules/index.js');

/** Bytes in this process's temporary folders (the timeline's spill, the store's files). */
function tempBytes() {
  const mine = fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith(`rmq-diag-${process.pid}-`));
  let n = 0;
  const walk = (p) => {
    for (const d of fs.readdirSync(p, { withFileTypes: true })) {
      const q = path.join(p, d.name);
      if (d.isDirectory()) walk(q);
      else n += fs.statSync(q).size;
    }
  };
  for (const d of mine) walk(path.join(os.tmpdir(), d));
  return n;
}

const t0 = performance.now();
const t = await buildTimeline({ inputs: [input], keepOther: other ? true : 'inference', otherLines: other, asJson: 'both' });
const t1 = performance.now();
const spilled = tempBytes();
const pass = incidentPass(t);
const c0 = process.cpuUsage();
const loaded = await loadTimeline(t, { rules: ALL_RULES, observer: pass, otherInStore: other });
const t2 = performance.now();
const cpu = process.cpuUsage(c0);
const stored = tempBytes();
pass.finish(loaded.findings);
const s = (ms) => (ms / 1000).toFixed(2);
process.stdout.write(
  `tui-load: ${loaded.store.length} ${other ? 'records (every one)' : 'events'} in the store; parse ${s(t1 - t0)} s, load ${s(t2 - t1)} s (CPU ${s((cpu.user + cpu.system) / 1000)} s), ${loaded.findings.length} findings; temporary files ${(spilled / 1e9).toFixed(2)} GB after the parse, ${(stored / 1e9).toFixed(2)} GB after the load\n`,
);
if (other) {
  // How the store keeps the records that are no event (src/tui/store.ts, keptAsLine).
  const store = loaded.store;
  let events = 0;
  let gz = 0;
  let rest = 0;
  for (let i = 0; i < store.length; i++) {
    if (store.typeOf(i) !== 'other') events++;
    else if (!store.keptAsLine(i)) {
      if (t.sources[store.sourceAt(i)].gz) gz++;
      else rest++;
    }
  }
  process.stdout.write(`tui-load: of them ${events} events, ${store.linesKept} records kept as the places of their lines, ${gz} with their JSON from gzip, ${rest} with their JSON otherwise (inference reads them, or their line could not be told)\n`);
}
loaded.store.close();
t.close();
