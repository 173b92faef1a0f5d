#!/usr/bin/env node
// The throughput benchmark: `npm run bench [-- options]`.
//
// Generates (once, then reused) two RocketMQ log sets of about --size bytes each under the OS temp
// folder (scripts/bench-gen.mjs): the mixed set (hosts with every kind of log, about 5% of the lines
// events) and the dense set (one client log, about 80% events). On each it times, as child
// processes with stdout to /dev/null:
//   - floor:  a plain Node line count over the same files (1 MiB reads, '\n' counted with
//             indexOf, gunzip for .gz), i.e. the cost of just reading the bytes in Node;
//   - each command of COMMANDS below (rmq-diag events --json, rmq-diag analyze --json);
//   - lnav, headless, when it is on PATH;
// and then runs scripts/bench-tui.mjs (the TUI's first screen and per-key redraw on a synthetic
// 1M-event timeline) and scripts/bench-model.mjs (the cluster model: one 10-minute incident and
// 100 seeded runs) unless --json is given or --only leaves them out.
// It prints, per tool, wall-clock seconds (process start to exit), MB/s, peak RSS, the ratios
// events/floor and analyze/events, and the targets. --json writes the figures as JSON to stdout (the table then goes
// to stderr).
//
// Options:
//   --size 1GiB       size of each set on disk (e.g. 200MiB for a quick run; default 1GiB)
//   --set LIST        which sets, comma-separated (default mixed,dense): mixed (hosts with every kind of
//                     log, a few per cent of the lines events), dense (one client log, about 80% events),
//                     consumer (four consumer instances' client logs and two masters' stats.log, a week
//                     per GiB of a busy group)
//   --seed N          generator seed (default 1)
//   --hosts N         host folders in the set (default 4)
//   --runs N          timed runs per tool (default 5, in rounds; figures are min and median). 0 = generate only
//   --only LIST       only these tools, comma-separated: floor, lnav, a command name (events, analyze),
//                     tui (the TUI's redraw times, scripts/bench-tui.mjs; no data set needed)
//                     or model (the cluster model, scripts/bench-model.mjs; no data set needed)
//                     or rss (peak RSS of events, analyze, replay, tui at 1 GiB and 5 GiB,
//                     scripts/bench-rss.mjs; generates its own sets)
//                     or startup (`node -e 0` against `rmq-diag --version`, `--help`, `events --help`)
//   --keep            keep the generated set for the next run (the default)
//   --no-keep         delete the set after the run
//   --clean           delete every generated set and exit
//   --no-warmup       skip the untimed read that warms the page cache
//   --verify          one extra untimed events run that reads back the summary line and compares
//                     its line count with the generator's
//   --json            figures as JSON on stdout (use `npm run -s bench -- --json`: npm itself
//                     prints a banner on stdout without -s)
//   --dir PATH        where sets are kept (default: <os temp>/rmq-diag-bench)
//
// MB = 10^6 bytes. Throughput = bytes on disk / wall-clock seconds of the whole process;
// decompressed throughput is reported beside it. Peak RSS comes from `/usr/bin/time -f %M` when
// it exists, else from polling VmHWM in /proc/<pid>/status.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { TIME_BIN, haveTime, peakOf, timed, vmHWM } from './peak-rss.mjs';

const SELF = fileURLToPath(import.meta.url);
const ROOT = path.resolve(path.dirname(SELF), '..');
const BIN = path.join(ROOT, 'bin', 'rmq-diag.js');

// ---------------------------------------------------------------------------------------------
/** The log sets bench can generate (scripts/bench-gen.mjs), with what each holds. */
const SET_TITLES = {
  mixed: 'hosts with every kind of log, a few per cent of the lines events',
  dense: 'one client log, most lines events',
  consumer: "a busy consumer group's client logs and its masters' stats.log, a week per GiB",
};

// Commands to time. Each row gets the data folder and returns the arguments after `node`.
// To time another command, add a row (its name can then be used with --only). The first row is
// the one the targets and the events/floor ratio are computed for. `okCodes`: exit codes that are
// no failure (analyze exits 1 when it has findings).
// ---------------------------------------------------------------------------------------------

const COMMANDS = [
  { name: 'events', label: 'rmq-diag events --json', argv: (data) => [BIN, 'events', data, '--json'] },
  { name: 'analyze', label: 'rmq-diag analyze --json', argv: (data) => [BIN, 'analyze', data, '--json'], okCodes: [0, 1] },
];

// analyzeRatio: issue 14 (analyze at half the floor's speed, on both sets).
const TARGETS = { mbPerSec: 150, ratio: 0.25, rssMB: 200, analyzeVsEvents: 1.3, analyzeRatio: 0.5 };

// ---------------------------------------------------------------------------------------------
// The floor, run as a child: `node bench.mjs --floor-child LISTFILE` (one path a line, a
// trailing ' gz' marks gzip). Prints the counts on stderr.
// ---------------------------------------------------------------------------------------------

if (process.argv[2] === '--floor-child') {
  const list = fs
    .readFileSync(process.argv[3], 'utf8')
    .split('\n')
    .filter((l) => l !== '');
  let lines = 0;
  let bytes = 0;
  for (const entry of list) {
    const gz = entry.endsWith(' gz');
    const file = gz ? entry.slice(0, -3) : entry;
    const raw = fs.createReadStream(file, { highWaterMark: 1 << 20 });
    const src = gz ? raw.pipe(zlib.createGunzip()) : raw;
    for await (const buf of src) {
      bytes += buf.length;
      for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) lines++;
    }
  }
  process.stderr.write(`lines=${lines} bytes=${bytes}\n`);
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------

const { generate, generateDense, generateConsumer, parseSize, fmtBytes, GEN_VERSION } = await import('./bench-gen.mjs');

function usage(msg) {
  if (msg) process.stderr.write(`bench: ${msg}\n`);
  const head = fs.readFileSync(SELF, 'utf8').split('\n');
  const start = head.findIndex((l) => l.startsWith('// Options:'));
  const end = head.findIndex((l, i) => i > start && !l.startsWith('//   '));
  process.stderr.write(`usage: npm run bench -- [options]\n${head.slice(start + 1, end).map((l) => l.slice(3)).join('\n')}\n`);
  process.exit(msg ? 2 : 0);
}

function parseArgs(argv) {
  const o = { size: '1GiB', sets: ['mixed', 'dense'], seed: 1, hosts: 4, runs: 5, only: null, keep: true, clean: false, warmup: true, verify: false, json: false, dir: path.join(os.tmpdir(), 'rmq-diag-bench') };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const val = () => {
      if (inline !== undefined) return inline;
      if (i + 1 >= argv.length) usage(`${flag} needs a value`);
      return argv[++i];
    };
    const int = (v, name) => {
      if (!/^\d+$/.test(v)) usage(`${name} must be a whole number, not ${v}`);
      return Number(v);
    };
    switch (flag) {
      case '--size':
        o.size = val();
        break;
      case '--set':
        o.sets = val()
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean);
        for (const x of o.sets) if (!SET_TITLES[x]) usage(`--set: unknown set ${x} (known: ${Object.keys(SET_TITLES).join(', ')})`);
        if (o.sets.length === 0) usage(`--set needs at least one of ${Object.keys(SET_TITLES).join(', ')}`);
        break;
      case '--seed':
        o.seed = int(val(), '--seed');
        break;
      case '--hosts':
        o.hosts = Math.max(1, int(val(), '--hosts'));
        break;
      case '--runs':
        o.runs = int(val(), '--runs');
        break;
      case '--only':
        o.only = val()
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        break;
      case '--keep':
        o.keep = true;
        break;
      case '--no-keep':
        o.keep = false;
        break;
      case '--clean':
        o.clean = true;
        break;
      case '--no-warmup':
        o.warmup = false;
        break;
      case '--verify':
        o.verify = true;
        break;
      case '--json':
        o.json = true;
        break;
      case '--dir':
        o.dir = path.resolve(val());
        break;
      case '--help':
      case '-h':
        usage();
        break;
      default:
        usage(`unknown option ${a}`);
    }
  }
  try {
    o.bytes = parseSize(o.size);
  } catch (e) {
    usage(e.message);
  }
  const known = ['floor', 'lnav', 'tui', 'model', 'rss', 'startup', ...COMMANDS.map((c) => c.name)];
  for (const t of o.only ?? []) if (!known.includes(t)) usage(`--only: unknown tool ${t} (known: ${known.join(', ')})`);
  return o;
}

const opts = parseArgs(process.argv.slice(2));
const out = opts.json ? process.stderr : process.stdout; // the table
const log = (s) => process.stderr.write(`${s}\n`); // progress
const wants = (name) => opts.only === null || opts.only.includes(name);

// The TUI's figures (scripts/bench-tui.mjs): a synthetic 1M-event timeline, no files. Run at the
// end of the table (not with --json, whose stdout is one JSON document).
const TUI_BENCH = path.join(ROOT, 'scripts', 'bench-tui.mjs');
function benchTui() {
  if (!wants('tui') || opts.json || opts.clean) return;
  out.write('\n');
  const r = spawnSync(process.execPath, [TUI_BENCH], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) log(`bench: ${path.relative(ROOT, TUI_BENCH)} exited with ${r.signal ?? r.status}`);
}
// Peak memory of events, analyze, replay and tui at 1 GiB and 5 GiB (scripts/bench-rss.mjs).
const RSS_BENCH = path.join(ROOT, 'scripts', 'bench-rss.mjs');
function benchRss() {
  if (!wants('rss') || opts.json || opts.clean) return;
  out.write('\n');
  const r = spawnSync(process.execPath, [RSS_BENCH, '--dir', opts.dir, ...(opts.keep ? [] : ['--no-keep'])], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) log(`bench: ${path.relative(ROOT, RSS_BENCH)} exited with ${r.signal ?? r.status}`);
}
// The model's figures (scripts/bench-model.mjs): a 10-minute incident, one run and 100 seeded runs.
const MODEL_BENCH = path.join(ROOT, 'scripts', 'bench-model.mjs');
function benchModel() {
  if (!wants('model') || opts.json || opts.clean) return;
  out.write('\n');
  const r = spawnSync(process.execPath, [MODEL_BENCH], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) log(`bench: ${path.relative(ROOT, MODEL_BENCH)} exited with ${r.signal ?? r.status}`);
}
// Start-up cost: what a command costs before it reads anything, against starting Node alone; rounds
// alternate between the four so that the machine's load falls on all alike. Target: --version within
// 2x of `node -e 0`.
const STARTUP = [
  { label: 'node -e 0', args: ['-e', '0'] },
  { label: 'rmq-diag --version', args: [BIN, '--version'] },
  { label: 'rmq-diag --help', args: [BIN, '--help'] },
  { label: 'rmq-diag events --help', args: [BIN, 'events', '--help'] },
];
function benchStartup() {
  if (!wants('startup') || opts.json || opts.clean) return;
  const rounds = 11;
  const times = STARTUP.map(() => []);
  for (let r = 0; r < rounds; r++) {
    STARTUP.forEach((c, i) => {
      const t0 = process.hrtime.bigint();
      const res = spawnSync(process.execPath, c.args, { cwd: ROOT, stdio: 'ignore' });
      if (res.status !== 0) log(`bench: ${c.label} exited with ${res.signal ?? res.status}`);
      times[i].push(Number(process.hrtime.bigint() - t0) / 1e6);
    });
  }
  const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  const base = median(times[0]);
  const L = ['', `start-up, median of ${rounds} rounds (ms; x node -e 0)`];
  STARTUP.forEach((c, i) => L.push(`  ${c.label.padEnd(26)}${median(times[i]).toFixed(0).padStart(6)}  ${(median(times[i]) / base).toFixed(2)}x`));
  const ratio = median(times[1]) / base;
  L.push(`  target: --version <= 2x of node -e 0: ${ratio.toFixed(2)}x ${ratio <= 2 ? 'PASS' : 'FAIL'}`);
  out.write(`${L.join('\n')}\n`);
}
if (opts.only && opts.only.every((t) => t === 'tui' || t === 'model' || t === 'rss' || t === 'startup')) {
  benchStartup();
  benchTui();
  benchModel();
  benchRss();
  process.exit(0);
}

if (opts.clean) {
  fs.rmSync(opts.dir, { recursive: true, force: true });
  log(`bench: deleted ${opts.dir}`);
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------
// The data set: generated once per (size, seed, hosts, generator version), marked complete by
// its manifest, reused by later runs.
// ---------------------------------------------------------------------------------------------

const MB = 1e6;

// One set: generate (or reuse) it, time every tool on it, print its table; returns its figures.
async function benchSet(kind) {
  const set = await prepareSet(kind);
  const timed = await timeTools(set);
  const figs = figuresOf(set, timed);
  const doc = report(kind, set, timed, figs);
  if (!opts.keep) {
    fs.rmSync(set.setDir, { recursive: true, force: true });
    log(`bench: deleted ${set.setDir}`);
  }
  return doc;
}

// The set: generated once per (kind, size, seed, hosts, generator version), marked complete by
// its manifest, reused by later runs.
async function prepareSet(kind) {
  const sizeName = opts.size.replace(/[^A-Za-z0-9.]/g, '');
  const setName = kind === 'mixed' ? `${sizeName}-seed${opts.seed}-h${opts.hosts}` : `${kind}-${sizeName}-seed${opts.seed}`;
  const setDir = path.join(opts.dir, setName);
  const dataDir = path.join(setDir, 'data');
  const marker = path.join(setDir, 'manifest.json');

  function readManifest() {
    try {
      const m = JSON.parse(fs.readFileSync(marker, 'utf8'));
      if (m.genVersion !== GEN_VERSION || (m.set ?? 'mixed') !== kind || m.size !== opts.bytes || m.seed !== opts.seed || (kind === 'mixed' && m.hosts !== opts.hosts)) return null;
      for (const f of m.files) if (fs.statSync(path.join(dataDir, f.path)).size !== f.bytes) return null;
      return m;
    } catch {
      return null;
    }
  }

  let manifest = readManifest();
  let generated = false;
  if (manifest === null) {
    fs.rmSync(setDir, { recursive: true, force: true });
    fs.mkdirSync(setDir, { recursive: true });
    log(`bench: generating ${fmtBytes(opts.bytes)} (${kind === 'mixed' ? `${opts.hosts} hosts` : SET_TITLES[kind]}, seed ${opts.seed}) in ${dataDir}`);
    let last = -1;
    manifest = await ({ mixed: generate, dense: generateDense, consumer: generateConsumer })[kind]({
      dir: dataDir,
      size: opts.bytes,
      seed: opts.seed,
      hosts: opts.hosts,
      onProgress: (done, total) => {
        const pct = Math.floor((100 * done) / total / 10) * 10;
        if (pct !== last && process.stderr.isTTY) process.stderr.write(`\r  ${pct}%`);
        last = pct;
      },
    });
    if (process.stderr.isTTY) process.stderr.write('\r');
    fs.writeFileSync(marker, `${JSON.stringify(manifest, null, 1)}\n`);
    generated = true;
    log(`bench: generated ${manifest.files.length} files in ${manifest.genSeconds.toFixed(1)} s`);
  } else {
    log(`bench: reusing ${dataDir}`);
  }

  const files = manifest.files.map((f) => ({ ...f, abs: path.join(dataDir, f.path) }));
  const listFile = path.join(setDir, 'files.txt');
  fs.writeFileSync(listFile, files.map((f) => (f.gz ? `${f.abs} gz` : f.abs)).join('\n') + '\n');
  return { setDir, dataDir, manifest, generated, files, listFile };
}

// ---------------------------------------------------------------------------------------------
// Running one child process: wall clock around spawn..exit, peak RSS, stderr captured
// ---------------------------------------------------------------------------------------------

function onPath(name) {
  for (const d of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!d) continue;
    const p = path.join(d, name);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      if (fs.statSync(p).isFile()) return p;
    } catch {
      // not here
    }
  }
  return null;
}

/** Run `cmd args` with stdout to /dev/null; returns { seconds, rssKB, code, signal, stderr }. */
async function measure(cmd, args, setDir) {
  const devnull = fs.openSync('/dev/null', 'w');
  const timeOut = path.join(setDir, `time-${process.pid}.txt`);
  const [file, argv] = timed(timeOut, cmd, args);
  let stderr = '';
  let hwm = 0;
  const t0 = process.hrtime.bigint();
  const child = spawn(file, argv, { cwd: ROOT, stdio: ['ignore', devnull, 'pipe'] });
  const exited = once(child, 'exit');
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d) => {
    if (stderr.length < 1 << 16) stderr += d;
  });
  let poll = null;
  if (!haveTime) {
    poll = setInterval(() => {
      hwm = Math.max(hwm, vmHWM(child.pid));
    }, 5);
  }
  const [code, signal] = await exited;
  const t1 = process.hrtime.bigint();
  if (poll) clearInterval(poll);
  fs.closeSync(devnull);
  // null when there is no figure (peak-rss.mjs): a 0 would pass the memory target unmeasured.
  const rssKB = haveTime ? peakOf(timeOut) : hwm || null;
  return { seconds: Number(t1 - t0) / 1e9, rssKB, code, signal, stderr };
}

// The tools, timed in rounds (each round runs every tool once, so that load falls on all alike).
async function timeTools({ setDir, dataDir, files, listFile }) {
  // ---------------------------------------------------------------------------------------------
  // The tools
  // ---------------------------------------------------------------------------------------------

  const lnavPath = onPath('lnav');
  const tools = [];
  if (wants('floor')) tools.push({ name: 'floor', label: 'floor (node line count)', cmd: process.execPath, args: [SELF, '--floor-child', listFile] });
  for (const c of COMMANDS) if (wants(c.name)) tools.push({ name: c.name, label: c.label, cmd: process.execPath, args: c.argv(dataDir), okCodes: c.okCodes ?? [0] });
  if (wants('lnav') && lnavPath) tools.push({ name: 'lnav', label: 'lnav -n -q', cmd: lnavPath, args: ['-n', '-q', ...files.map((f) => f.abs)] });

  if (!fs.existsSync(path.join(ROOT, 'dist', 'cli', 'main.js')) && tools.some((t) => COMMANDS.some((c) => c.name === t.name))) {
    log('bench: dist/ is missing; run `npm run build` first');
    process.exit(2);
  }

  const results = new Map(tools.map((t) => [t.name, { runs: [] }]));

  if (opts.runs > 0 && tools.length > 0) {
    if (opts.warmup) {
      log('bench: warming the page cache (untimed line count)');
      await measure(process.execPath, [SELF, '--floor-child', listFile], setDir);
    }
    for (let r = 1; r <= opts.runs; r++) {
      const parts = [];
      for (const t of tools) {
        const m = await measure(t.cmd, t.args, setDir);
        results.get(t.name).runs.push(m);
        if (!(t.okCodes ?? [0]).includes(m.code) || m.signal) {
          const tail = m.stderr.trim().split('\n').slice(-5).join('\n    ');
          log(`bench: ${t.label} exited with ${m.signal ?? m.code}${tail ? `:\n    ${tail}` : ''}`);
        }
        parts.push(`${t.name} ${m.seconds.toFixed(2)} s`);
      }
      log(`bench: run ${r}/${opts.runs}: ${parts.join(', ')}`);
    }
  }

  let verify = null;
  if (opts.verify && COMMANDS.length > 0) {
    log('bench: verifying (untimed events run, reading back the summary line)');
    verify = await readSummary(COMMANDS[0].argv(dataDir));
  }

  /** Run a command with stdout piped, keep only its last line (the NDJSON summary). */
  async function readSummary(args) {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let tail = '';
    let eventLines = 0;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d) => {
      for (let i = d.indexOf('\n'); i !== -1; i = d.indexOf('\n', i + 1)) eventLines++;
      tail = (tail + d).slice(-(1 << 22));
    });
    const [code] = await once(child, 'close');
    const last = tail.trimEnd().split('\n').pop();
    try {
      const s = JSON.parse(last).summary;
      const sum = (k) => s.inputs.reduce((a, i) => a + (i[k] ?? 0), 0);
      return { code, inputs: s.inputs.length, lines: sum('lines'), events: s.events, ndjsonLines: eventLines, issues: s.issues.length };
    } catch {
      return { code, error: 'no summary line' };
    }
  }
  return { tools, results, verify, lnavPath };
}

function figuresOf({ manifest, generated, files, dataDir }, { tools, results, lnavPath }) {
  // ---------------------------------------------------------------------------------------------
  // Figures
  // ---------------------------------------------------------------------------------------------

  const median = (a) => {
    const s = [...a].sort((x, y) => x - y);
    const n = s.length;
    return n === 0 ? NaN : n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  };
  const round = (x, d = 3) => (Number.isFinite(x) ? Number(x.toFixed(d)) : null);

  const figures = {};
  for (const t of tools) {
    const runs = results.get(t.name).runs;
    if (runs.length === 0) continue;
    const secs = runs.map((r) => r.seconds);
    const rss = runs.map((r) => (r.rssKB === null ? null : (r.rssKB * 1024) / MB));
    const measured = rss.filter((x) => x !== null);
    const min = Math.min(...secs);
    const med = median(secs);
    figures[t.name] = {
      label: t.label,
      wallSeconds: secs.map((s) => round(s)),
      wallSecondsMin: round(min),
      wallSecondsMedian: round(med),
      mbPerSecBest: round(manifest.bytes / MB / min, 1),
      mbPerSecMedian: round(manifest.bytes / MB / med, 1),
      decompressedMbPerSecMedian: round(manifest.rawBytes / MB / med, 1),
      peakRssMB: rss.map((x) => (x === null ? null : round(x, 1))),
      peakRssMBMax: measured.length ? round(Math.max(...measured), 1) : null,
      peakRssMBMedian: measured.length ? round(median(measured), 1) : null,
      exitCodes: runs.map((r) => r.signal ?? r.code),
    };
  }

  const main = COMMANDS.length > 0 ? figures[COMMANDS[0].name] : undefined;
  const floor = figures.floor;
  const ratio =
    main && floor
      ? { median: round(main.mbPerSecMedian / floor.mbPerSecMedian, 3), best: round(main.mbPerSecBest / floor.mbPerSecBest, 3) }
      : null;
  // Issue 14's measure: analyze (and lnav, for comparison) as a share of the floor in the same run.
  const ofFloor = (f) => (f && floor ? { median: round(f.mbPerSecMedian / floor.mbPerSecMedian, 3), best: round(f.mbPerSecBest / floor.mbPerSecBest, 3) } : null);
  const analyzeFloor = ofFloor(figures.analyze);
  const lnavFloor = ofFloor(figures.lnav);
  // analyze reads what events reads and runs the rules in the same pass: its cost over events.
  const analyzeVsEvents =
    figures.analyze && figures.events
      ? { median: round(figures.analyze.wallSecondsMedian / figures.events.wallSecondsMedian, 3), best: round(figures.analyze.wallSecondsMin / figures.events.wallSecondsMin, 3) }
      : null;
  const targets = [];
  if (main) {
    targets.push({ name: `${COMMANDS[0].name} throughput (median)`, target: `>= ${TARGETS.mbPerSec} MB/s`, value: main.mbPerSecMedian, unit: 'MB/s', pass: main.mbPerSecMedian >= TARGETS.mbPerSec });
    if (ratio) targets.push({ name: `${COMMANDS[0].name}/floor ratio (median)`, target: `>= ${TARGETS.ratio}`, value: ratio.median, unit: '', pass: ratio.median >= TARGETS.ratio });
    targets.push({ name: `${COMMANDS[0].name} peak RSS (max)`, target: `< ${TARGETS.rssMB} MB`, value: main.peakRssMBMax, unit: 'MB', pass: main.peakRssMBMax === null ? null : main.peakRssMBMax < TARGETS.rssMB });
  }
  if (analyzeFloor) targets.push({ name: 'analyze/floor ratio (median)', target: `>= ${TARGETS.analyzeRatio}`, value: analyzeFloor.median, unit: '', pass: analyzeFloor.median >= TARGETS.analyzeRatio });
  if (analyzeVsEvents) {
    targets.push({ name: 'analyze/events wall clock (median)', target: `<= ${TARGETS.analyzeVsEvents}`, value: analyzeVsEvents.median, unit: '', pass: analyzeVsEvents.median <= TARGETS.analyzeVsEvents });
  }

  const gzFiles = files.filter((f) => f.gz);
  const machine = {
    cores: os.availableParallelism(),
    cpu: os.cpus()[0]?.model?.trim() ?? 'unknown',
    memoryGiB: round(os.totalmem() / 1024 ** 3, 1),
    platform: `${process.platform} ${process.arch}`,
    kernel: os.release(),
    node: process.version,
    rssSource: haveTime ? `${TIME_BIN} -f %M` : '/proc/<pid>/status VmHWM (polled)',
    lnav: lnavPath ? lnavVersion(lnavPath) : null,
  };
  function lnavVersion(p) {
    const r = spawnSync(p, ['-V'], { encoding: 'utf8', timeout: 5000 });
    return (r.stdout ?? '').split('\n')[0].trim() || p;
  }

  const data = {
    dir: dataDir,
    generated,
    genSeconds: round(manifest.genSeconds, 2),
    seed: manifest.seed,
    hosts: manifest.hosts,
    files: files.length,
    bytesOnDisk: manifest.bytes,
    bytesDecompressed: manifest.rawBytes,
    gzFiles: gzFiles.length,
    gzBytesOnDisk: manifest.gzBytes,
    gzBytesDecompressed: manifest.gzRawBytes,
    lines: manifest.lines,
    eventLines: manifest.eventLines,
  };
  return { figures, ratio, analyzeFloor, lnavFloor, analyzeVsEvents, targets, machine, data };
}

function report(kind, { generated, files }, { tools, verify, lnavPath }, { figures, ratio, analyzeFloor, lnavFloor, analyzeVsEvents, targets, machine, data }) {
  // ---------------------------------------------------------------------------------------------
  // Report
  // ---------------------------------------------------------------------------------------------

  const n = (x, d = 1) => (x === null || x === undefined || Number.isNaN(x) ? '-' : x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d }));
  const pad = (s, w) => String(s).padEnd(w);
  const lpad = (s, w) => String(s).padStart(w);

  const L = [];
  L.push(`rmq-diag benchmark: the ${kind} set (${SET_TITLES[kind]})`);
  L.push(`machine  ${machine.cores} cores (os.availableParallelism), ${machine.cpu}, ${machine.memoryGiB} GiB RAM, ${machine.platform}, node ${machine.node}`);
  L.push(`data     ${data.dir} (${generated ? `generated in ${n(data.genSeconds)} s` : 'reused'})`);
  L.push(`         ${data.files} files, ${data.hosts} hosts: ${n(data.bytesOnDisk / MB)} MB on disk, ${n(data.bytesDecompressed / MB)} MB decompressed`);
  L.push(`         ${data.gzFiles} .gz files: ${n(data.gzBytesOnDisk / MB)} MB on disk, ${n(data.gzBytesDecompressed / MB)} MB decompressed (${n((100 * data.gzBytesDecompressed) / data.bytesDecompressed)}% of the content)`);
  L.push(`         ${data.lines.toLocaleString('en-US')} lines, ${n((100 * data.eventLines) / data.lines, 2)}% of them RocketMQ event lines (as generated)`);
  if (opts.runs > 0) L.push(`runs     ${opts.runs} per tool; wall clock = process start to exit; peak RSS from ${machine.rssSource}`);
  if (opts.runs === 0) L.push('runs     0: generated only');
  if (Object.keys(figures).length > 0 || (opts.runs > 0 && wants('lnav') && !lnavPath)) L.push('');
  const W = [26, 17, 23, 16, 18];
  const row = (cells) => cells.map((c, i) => (i === 0 ? pad(c, W[0]) : lpad(c, W[i]))).join('');
  if (Object.keys(figures).length > 0) L.push(row(['tool', 'wall s min/med', 'MB/s best/med', 'raw MB/s med', 'peak RSS MB max']));
  for (const t of tools) {
    const f = figures[t.name];
    if (!f) continue;
    L.push(row([f.label, `${n(f.wallSecondsMin, 2)} / ${n(f.wallSecondsMedian, 2)}`, `${n(f.mbPerSecBest)} / ${n(f.mbPerSecMedian)}`, n(f.decompressedMbPerSecMedian), n(f.peakRssMBMax)]));
  }
  if (opts.runs > 0 && wants('lnav') && !lnavPath) L.push('lnav: not installed');
  if (ratio) {
    L.push('');
    L.push(`ratio ${COMMANDS[0].name}/floor: ${n(ratio.median, 3)} (median MB/s), ${n(ratio.best, 3)} (best)`);
  }
  if (analyzeFloor) L.push(`ratio analyze/floor: ${n(analyzeFloor.median, 3)} (median MB/s), ${n(analyzeFloor.best, 3)} (best)`);
  if (lnavFloor) L.push(`ratio lnav/floor: ${n(lnavFloor.median, 3)} (median MB/s), ${n(lnavFloor.best, 3)} (best)`);
  if (analyzeVsEvents) {
    if (!ratio && !analyzeFloor) L.push('');
    L.push(`ratio analyze/events: ${n(analyzeVsEvents.median, 3)} (median wall clock), ${n(analyzeVsEvents.best, 3)} (best)`);
  }
  if (targets.length) {
    L.push('');
    L.push('targets');
    for (const t of targets) L.push(`  ${pad(t.name, 40)}${pad(t.target, 14)}${lpad(`${n(t.value, t.unit ? 1 : 3)} ${t.unit}`, 14)}  ${t.pass === null ? 'not measured' : t.pass ? 'PASS' : 'FAIL'}`);
  }
  if (verify) {
    L.push('');
    if (verify.error) L.push(`verify   ${verify.error} (exit ${verify.code})`);
    else
      L.push(
        `verify   ${COMMANDS[0].name}: exit ${verify.code}, ${verify.inputs} inputs (${files.length} files), ${verify.lines.toLocaleString('en-US')} lines read (generated ${data.lines.toLocaleString('en-US')}${verify.lines === data.lines ? ', equal' : ', DIFFERENT'}), ${verify.events.toLocaleString('en-US')} events, ${verify.issues} issues`,
      );
  }
  L.push('');
  L.push('MB = 10^6 bytes. MB/s = bytes on disk / wall-clock seconds; raw = decompressed bytes / seconds.');
  out.write(`${L.join('\n')}\n`);
  return { schemaVersion: 1, set: kind, machine, data, runs: opts.runs, tools: figures, lnav: lnavPath ? 'timed' : 'not installed', ratio, analyzeFloor, lnavFloor, analyzeVsEvents, targets, verify };
}

const docs = [];
for (const kind of opts.sets) {
  if (docs.length) out.write('\n');
  docs.push(await benchSet(kind));
}
if (opts.json) {
  // One set: its document as before; several: one document holding each.
  const doc = docs.length === 1 ? docs[0] : { schemaVersion: 2, sets: docs };
  process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
}

if (opts.runs > 0) {
  benchStartup();
  benchTui();
  benchModel();
  benchRss();
}
