#!/usr/bin/env node
// The TUI benchmark: `node scripts/bench-tui.mjs [options]` (also run at the end of `npm run bench`).
//
// Builds a synthetic timeline (src/tui/synthetic.ts: the store's columns written to a spill file as
// for a real input, or kept in memory with --memory; each event's JSON made up from its index when
// drawn), renders the TUI with ink-testing-library in React's production mode, and times:
//   - building the view model (the columns, evidence matching, per-host counts);
//   - the first screen (render until the first frame is written);
//   - 100 key presses, each from the key until its frame is written: moves, pages, Home/End,
//     strip steps, zoom, next/previous finding, Tab, Enter (detail), and a filter typed into the
//     `f` prompt and applied (a pass over every event);
//   - one search that matches nothing: it scans every event in steps, a frame after each; the
//     total and the longest wait for a frame are reported apart.
// Each time runs from writing the key to the frame it produces (ink reads input a turn or two of the
// event loop later; that wait is included). Keys that change nothing draw no frame: they are listed,
// and their time is the 2 s wait, so the sequence avoids them.
// Needs dist/ (`npm run build`).
//
// Options:
//   --events N     events in the timeline (default 1000000)
//   --size CxR     terminal size (default 120x40)
//   --memory       the store's pages in memory instead of a spill file
//   --json         figures as JSON on stdout

process.env.NODE_ENV = 'production';

import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : def;
};
const events = Number(opt('--events', '1000000'));
const [columns, rows] = opt('--size', '120x40').split('x').map(Number);
const json = args.includes('--json');
const memory = args.includes('--memory');
if (!Number.isInteger(events) || events < 1 || !(columns > 0) || !(rows > 0)) {
  process.stderr.write('usage: node scripts/bench-tui.mjs [--events N] [--size CxR] [--memory] [--json]\n');
  process.exit(2);
}
if (!existsSync(path.join(ROOT, 'dist', 'tui', 'synthetic.js'))) {
  process.stderr.write('bench-tui: dist/ is missing; run `npm run build` first\n');
  process.exit(2);
}

const React = (await import('react')).default;
const { render } = await import('ink-testing-library');
const { syntheticModel } = await import(path.join(ROOT, 'dist', 'tui', 'synthetic.js'));
const { App } = await import(path.join(ROOT, 'dist', 'tui', 'components', 'App.js'));

const ms = (a, b) => Number(b - a) / 1e6;
const now = () => process.hrtime.bigint();
const tick = () => new Promise((r) => setImmediate(r));

let t0 = now();
const { model, header } = syntheticModel({ events, disk: !memory });
const buildMs = ms(t0, now());

t0 = now();
const app = render(React.createElement(App, { model, header, color: true, size: { columns, rows } }));
const firstFrame = app.frames.length;
const firstScreenMs = ms(t0, now());
if (!firstFrame) throw new Error('no first frame');
await tick(); // ink subscribes to input in an effect

/** Wait (one event-loop turn at a time, at most 5 s) until a frame passes the test. */
async function until(test) {
  const end = Date.now() + 5000;
  while (!test() && Date.now() < end) await tick();
  return test();
}

// A search that matches nothing scans every event (not a redraw; reported apart).
app.stdin.write('/');
for (const ch of 'no-such-text-anywhere') app.stdin.write(ch);
await until(() => /no-such-text-anywhere/.test(app.lastFrame()));
let a = now();
app.stdin.write('\r');
// The search runs in steps with a frame after each: the longest wait for a frame is what a user feels.
let searchGapMs = 0;
let seen = app.frames.length;
let lastFrameAt = a;
const searchEnd = Date.now() + 30000;
while (!/no match/.test(app.lastFrame()) && Date.now() < searchEnd) {
  await tick();
  if (app.frames.length !== seen) {
    const t = now();
    searchGapMs = Math.max(searchGapMs, ms(lastFrameAt, t));
    lastFrameAt = t;
    seen = app.frames.length;
  }
}
if (!/no match/.test(app.lastFrame())) throw new Error('the search did not finish');
const searchMs = ms(a, now());

const KEY = {
  down: '\u001b[B',
  up: '\u001b[A',
  left: '\u001b[D',
  right: '\u001b[C',
  pgdn: '\u001b[6~',
  pgup: '\u001b[5~',
  home: '\u001b[H',
  end: '\u001b[F',
  tab: '\t',
  enter: '\r',
  backspace: '\u007f',
};
const seq = [];
const add = (name, key, n = 1) => {
  for (let i = 0; i < n; i++) seq.push([name, key]);
};
// The TUI opens on the findings: Tab first, to move in the event list.
add('tab', KEY.tab, 1);
add('down', KEY.down, 14);
add('j', 'j', 10);
add('up', KEY.up, 5);
add('pgdn', KEY.pgdn, 8);
add('pgup', KEY.pgup, 3);
add('right', KEY.right, 6);
add('left', KEY.left, 4);
add('zoom+', '+', 5);
add('zoom-', '-', 3);
add('n', 'n', 5);
add('N', 'N', 2);
add('enter', KEY.enter, 2);
add('end', KEY.end, 1);
add('home', KEY.home, 1);
add('tab', KEY.tab, 2);
add('G', 'G', 1);
add('g', 'g', 1);
add('esc', '\u001b', 1); // clears the finding filter n/N set
add('f', 'f', 1);
for (const ch of 'type:rpc-timeout') add('type', ch);
add('filter-apply', KEY.enter, 1);
add('down', KEY.down, 7);
if (seq.length !== 100) throw new Error(`expected 100 keys, have ${seq.length}`);

const times = [];
const byKey = new Map();
const noRedraw = [];
for (const [name, key] of seq) {
  const before = app.frames.length;
  const a = now();
  app.stdin.write(key);
  // ink handles input a turn or two of the event loop later: wait for the frame (at most 2 s).
  const end = Date.now() + 2000;
  while (app.frames.length === before && Date.now() < end) await tick();
  const t = ms(a, now());
  if (app.frames.length === before) noRedraw.push(name);
  times.push(t);
  if (!byKey.has(name)) byKey.set(name, []);
  byKey.get(name).push(t);
  await tick();
}

if (!(await until(() => /\[events\].*type:rpc-timeout/.test(app.lastFrame())))) throw new Error('the filter was not applied');
app.unmount();
model.store.close();

const sorted = [...times].sort((x, y) => x - y);
const q = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
const round = (x) => Math.round(x * 10) / 10;
const figures = {
  events,
  size: `${columns}x${rows}`,
  store: memory ? 'memory' : 'disk',
  node: process.version,
  buildModelMs: round(buildMs),
  firstScreenMs: round(firstScreenMs),
  keys: times.length,
  keyMs: { median: round(q(0.5)), p95: round(q(0.95)), max: round(sorted[sorted.length - 1]), mean: round(times.reduce((s, x) => s + x, 0) / times.length) },
  keyMsByKind: Object.fromEntries([...byKey].map(([k, v]) => [k, round(Math.max(...v))])),
  keysWithoutRedraw: noRedraw,
  searchNoMatchMs: round(searchMs),
  searchLongestFrameGapMs: round(searchGapMs),
  target: { keyMsMax: 100, pass: sorted[sorted.length - 1] < 100 },
};

if (json) {
  process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
} else {
  const n = (x) => x.toLocaleString('en-US');
  const L = [];
  L.push(`rmq-diag tui benchmark: ${n(events)} synthetic events (store ${figures.store}), ${columns}x${rows}, node ${process.version}, React production mode`);
  L.push(`  view model built     ${figures.buildModelMs} ms`);
  L.push(`  first screen         ${figures.firstScreenMs} ms`);
  L.push(`  100 key presses      median ${figures.keyMs.median} ms, p95 ${figures.keyMs.p95} ms, max ${figures.keyMs.max} ms (target: every key under 100 ms: ${figures.target.pass ? 'PASS' : 'FAIL'})`);
  L.push(`  slowest per key      ${Object.entries(figures.keyMsByKind).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  L.push(`  search, no match     ${figures.searchNoMatchMs} ms to scan every event, in steps: longest wait for a frame ${figures.searchLongestFrameGapMs} ms`);
  if (noRedraw.length) L.push(`  keys that changed nothing (no frame): ${noRedraw.join(', ')}`);
  process.stdout.write(`${L.join('\n')}\n`);
}
