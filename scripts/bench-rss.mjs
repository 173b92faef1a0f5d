#!/usr/bin/env node
// Peak memory of every command at two input sizes: `node scripts/bench-rss.mjs [options]` (after
// `npm run build`; `npm run bench` runs it at the end). Memory must not grow with the input: the
// figures at 1 GiB and 5 GiB should be about the same, all under 300 MB.
//
// For each size it generates (once, then reuses) the benchmark log set (scripts/bench-gen.mjs) and
// runs, as child processes with stdout to /dev/null and their peak RSS taken by `/usr/bin/time -f %M`
// (or VmHWM polled from /proc):
//   - rmq-diag events --json, analyze --json, replay --json;
//   - rmq-diag tui in a tmux pseudo-terminal (120x40): until its first screen shows, then the replay
//     tab until the background replay is done, then q. Its figure covers both (the replay runs in a
//     worker of the same process). Skipped, with a note, when tmux is missing. Beside the first
//     screen's time it tells when the loading screen first said it was merging (the parse done: the
//     rest is the store, the rules and the incidents' pass), to a poll of the screen (200 ms).
//
// Options:
//   --sizes LIST   comma-separated sizes (default 1GiB,5GiB)
//   --set NAME     mixed (the default: npm run bench's mixed set) or consumer (a busy consumer
//                  group's client logs and its brokers' stats.log, a week per GiB)
//   --only LIST    events, analyze, replay, tui (default all)
//   --dir PATH     where sets are kept (default: <os temp>/rmq-diag-bench, as npm run bench)
//   --no-keep      delete each generated set after its runs
//   --json         figures as JSON on stdout

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { generate, generateConsumer, parseSize, fmtBytes, GEN_VERSION } from './bench-gen.mjs';
import { TIME_BIN, haveTime, peakOf, timed, vmHWM } from './peak-rss.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'rmq-diag.js');
const TARGET_MB = 300;

function parseArgs(argv) {
  const o = { sizes: ['1GiB', '5GiB'], set: 'mixed', only: null, dir: path.join(os.tmpdir(), 'rmq-diag-bench'), keep: true, json: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      if (i + 1 >= argv.length) fail(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--sizes') o.sizes = val().split(',').filter(Boolean);
    else if (a === '--set') o.set = val();
    else if (a === '--only') o.only = val().split(',').filter(Boolean);
    else if (a === '--dir') o.dir = path.resolve(val());
    else if (a === '--no-keep') o.keep = false;
    else if (a === '--keep') o.keep = true;
    else if (a === '--json') o.json = true;
    else fail(`unknown option ${a}`);
  }
  for (const s of o.sizes) parseSize(s);
  if (o.set !== 'mixed' && o.set !== 'consumer') fail(`--set: unknown set ${o.set} (known: mixed, consumer)`);
  return o;
}

function fail(msg) {
  process.stderr.write(`bench-rss: ${msg}\n`);
  process.exit(2);
}

const opts = parseArgs(process.argv.slice(2));
const wants = (name) => opts.only === null || opts.only.includes(name);
const log = (s) => process.stderr.write(`${s}\n`);
if (!fs.existsSync(path.join(ROOT, 'dist', 'cli', 'main.js'))) fail('dist/ is missing; run `npm run build` first');


/** The set for a size, as npm run bench names it (seed 1, 4 hosts), generated when missing. */
async function dataSet(size) {
  const bytes = parseSize(size);
  const name = size.replace(/[^A-Za-z0-9.]/g, '');
  const setDir = path.join(opts.dir, opts.set === 'consumer' ? `consumer-${name}-seed1` : `${name}-seed1-h4`);
  const dataDir = path.join(setDir, 'data');
  const marker = path.join(setDir, 'manifest.json');
  try {
    const m = JSON.parse(fs.readFileSync(marker, 'utf8'));
    if (m.genVersion === GEN_VERSION && m.size === bytes && (m.set ?? 'mixed') === opts.set) return { setDir, dataDir, manifest: m };
  } catch {
    // not there yet
  }
  fs.rmSync(setDir, { recursive: true, force: true });
  fs.mkdirSync(setDir, { recursive: true });
  log(`bench-rss: generating ${fmtBytes(bytes)} in ${dataDir}`);
  const manifest = opts.set === 'consumer' ? await generateConsumer({ dir: dataDir, size: bytes, seed: 1 }) : await generate({ dir: dataDir, size: bytes, seed: 1, hosts: 4 });
  fs.writeFileSync(marker, `${JSON.stringify(manifest, null, 1)}\n`);
  return { setDir, dataDir, manifest };
}

/** MB from kB, null kept (not measured). */
const mbOf = (kB) => (kB === null ? null : Math.round((kB * 1024) / 1e6));

/** One command, stdout to /dev/null: seconds, peak RSS (kB), exit code. */
async function measure(args, setDir) {
  const timeOut = path.join(setDir, `rss-${process.pid}.txt`);
  const devnull = fs.openSync('/dev/null', 'w');
  const [file, argv] = timed(timeOut, process.execPath, args);
  const t0 = Date.now();
  const child = spawn(file, argv, { cwd: ROOT, stdio: ['ignore', devnull, 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  let hwm = 0;
  const poll = haveTime ? null : setInterval(() => (hwm = Math.max(hwm, vmHWM(child.pid))), 5);
  const [code] = await once(child, 'exit');
  if (poll) clearInterval(poll);
  fs.closeSync(devnull);
  return { seconds: (Date.now() - t0) / 1000, rssKB: haveTime ? peakOf(timeOut) : hwm || null, code, stderr };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const quote = (s) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The TUI in tmux: first screen, then the replay tab until the replay is done, then q. */
async function measureTui(dataDir, setDir) {
  if (spawnSync('tmux', ['-V']).status !== 0) return null;
  const socket = `rmq-diag-bench-${process.pid}`;
  const timeOut = path.join(setDir, `rss-tui-${process.pid}.txt`);
  const env = { ...process.env, TERM: process.env.TERM || 'xterm-256color' };
  delete env.TMUX;
  const tmux = (...a) => spawnSync('tmux', ['-L', socket, ...a], { encoding: 'utf8', env, cwd: ROOT });
  const screen = () => tmux('capture-pane', '-p', '-t', 'b').stdout ?? '';
  const run = [haveTime ? `${TIME_BIN} -f %M -o ${quote(timeOut)}` : '', quote(process.execPath), quote(BIN), 'tui', quote(dataDir)].join(' ');
  const t0 = Date.now();
  tmux('new-session', '-d', '-s', 'b', '-x', '120', '-y', '40', `${run}; sleep 1`);
  const until = async (re, ms) => {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      if (re.test(screen())) return true;
      await sleep(200);
    }
    return false;
  };
  try {
    // The loading screen once the parse is done (Loading.tsx), then the status line of the first
    // screen: the findings have the keys when there are any, else the list.
    const firstScreen = /\[(?:findings|events)\] 1\//;
    const merging = await until(/merging the timeline|\[(?:findings|events)\] 1\//, 600000);
    const mergingSeconds = (Date.now() - t0) / 1000;
    const first = merging && (await until(firstScreen, 600000));
    const firstSeconds = (Date.now() - t0) / 1000;
    tmux('send-keys', '-t', 'b', 'r');
    const replayed = first && (await until(/^replay {2}(?!replaying)/m, 1200000));
    const replaySeconds = (Date.now() - t0) / 1000;
    tmux('send-keys', '-t', 'b', 'q');
    await until(/^$/, 3000);
    // time writes its figure once the TUI has exited: a large run may take a while to quit (its
    // workers end, the store's files go), and read before then the figure would be missing.
    const quitBy = Date.now() + 120000;
    while (haveTime && Date.now() < quitBy && !(fs.existsSync(timeOut) && fs.statSync(timeOut).size > 0)) await sleep(250);
    return { seconds: firstSeconds, parsedSeconds: mergingSeconds, replaySeconds, replayed, rssKB: haveTime ? peakOf(timeOut) : null, code: first ? 0 : 1, stderr: first ? '' : screen() };
  } finally {
    tmux('kill-server');
  }
}

/** A peak for the log: `N MB`, or why there is none. */
const rssText = (mb) => (mb === null ? 'not measured (no figure from /usr/bin/time)' : `${mb} MB`);

const figures = [];
for (const size of opts.sizes) {
  const { setDir, dataDir, manifest } = await dataSet(size);
  const row = { size, set: opts.set, bytes: manifest.bytes, spanDays: manifest.spanDays ?? null, commands: {} };
  for (const [name, args, ok] of [
    ['events', [BIN, 'events', dataDir, '--json'], [0]],
    ['analyze', [BIN, 'analyze', dataDir, '--json'], [0, 1]],
    ['replay', [BIN, 'replay', dataDir, '--json'], [0, 1]],
  ]) {
    if (!wants(name)) continue;
    const m = await measure(args, setDir);
    if (!ok.includes(m.code)) log(`bench-rss: ${name} at ${size} exited with ${m.code}: ${m.stderr.trim().split('\n').slice(-3).join(' | ')}`);
    row.commands[name] = { seconds: Number(m.seconds.toFixed(1)), peakRssMB: mbOf(m.rssKB) };
    log(`bench-rss: ${size} ${name}: ${m.seconds.toFixed(1)} s, peak RSS ${rssText(row.commands[name].peakRssMB)}`);
  }
  if (wants('tui')) {
    const m = await measureTui(dataDir, setDir);
    if (m === null) log('bench-rss: tmux is missing: the TUI is not measured');
    else {
      if (m.code !== 0) log(`bench-rss: the TUI never showed its first screen at ${size}`);
      row.commands.tui = { seconds: Number(m.seconds.toFixed(1)), parsedSeconds: Number(m.parsedSeconds.toFixed(1)), replaySeconds: Number(m.replaySeconds.toFixed(1)), replayDone: m.replayed, peakRssMB: mbOf(m.rssKB) };
      log(`bench-rss: ${size} tui: parsed at ${m.parsedSeconds.toFixed(1)} s, first screen ${m.seconds.toFixed(1)} s, replay tab done at ${m.replaySeconds.toFixed(1)} s, peak RSS ${rssText(row.commands.tui.peakRssMB)}`);
    }
  }
  figures.push(row);
  if (!opts.keep) fs.rmSync(setDir, { recursive: true, force: true });
}

if (opts.json) {
  process.stdout.write(`${JSON.stringify({ targetMB: TARGET_MB, figures }, null, 2)}\n`);
} else {
  const names = ['events', 'analyze', 'replay', 'tui'].filter(wants);
  const out = process.stdout;
  out.write(`${opts.set === 'consumer' ? 'The consumer set. ' : ''}Peak RSS, MB (target: under ${TARGET_MB} MB at every size, about the same at every size)\n\n`);
  out.write(`| command | ${figures.map((f) => f.size).join(' | ')} |\n|---|${figures.map(() => '---').join('|')}|\n`);
  for (const n of names) {
    const cells = figures.map((f) => {
      const c = f.commands[n];
      return c ? `${c.peakRssMB ?? '?'} (${c.parsedSeconds !== undefined ? `parsed ${c.parsedSeconds} s, ` : ''}${c.seconds} s${c.replaySeconds !== undefined ? `, replay ${c.replaySeconds} s` : ''})` : '-';
    });
    out.write(`| ${n} | ${cells.join(' | ')} |\n`);
  }
}
