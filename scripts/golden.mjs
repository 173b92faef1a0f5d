#!/usr/bin/env node
// Golden outputs: pins the JSON output of every bundled sample and real fixture, so that a refactor
// or speed work can show that no output changed.
//
//   node scripts/golden.mjs            check: run the built CLI, compare with test/golden/, exit 1 on a difference
//   node scripts/golden.mjs --write    rewrite test/golden/ (only when an output change is intended)
//   node scripts/golden.mjs --jobs=N   run N commands at once (default 2)
//
// Runs the built CLI (build first: `npm run build`) from the repository root with relative paths: its
// main() in host processes that load dist/ once (startHost; runOne runs bin/rmq-diag.js in a process
// of its own, and the golden test requires both to give the same bytes on a few outputs).
// Per sample folder: `analyze --json`, `replay --json` (default seed) and `events --json`; per file of
// test/fixtures/real: `analyze --json` and `events --json`. The analyze and replay reports are kept in
// full (test/golden/<input>.<command>.json); `events` output is large, so only its sha256 and line
// count are kept. test/golden/outputs.txt lists every output with its exit code, line count and sha256.
//
// What is normalised: the absolute path of the repository, should one ever be printed (it is not
// today). Two runs, and a run with another TZ, TMPDIR, COLUMNS and LANG, gave byte-identical output:
// the JSON outputs hold no wall-clock figures (durations in replay are simulated time), so nothing
// else is touched. Log text that names temp folders of the lab's recordings is input data and stays.

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { finished } from 'node:stream/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const GOLDEN = 'test/golden';
const MANIFEST = 'outputs.txt';

/** Every output the golden files pin, in a fixed order: { name, cmd, input, full }. */
export function outputs(root = ROOT) {
  const dirs = ['samples/broker-busy', 'samples/healthy-restart', 'samples/seed-outage'];
  for (const d of fs.readdirSync(path.join(root, 'samples/lab'), { withFileTypes: true }).sort(byName)) {
    if (d.isDirectory()) dirs.push(`samples/lab/${d.name}`);
  }
  const fixtures = fs
    .readdirSync(path.join(root, 'test/fixtures/real'), { withFileTypes: true })
    .sort(byName)
    .filter((f) => f.isFile() && !f.name.endsWith('.md')) // SOURCES.md says where they come from
    .map((f) => `test/fixtures/real/${f.name}`);
  const out = [];
  const add = (input, cmd) => out.push({ name: `${cmd} ${input}`, cmd, input, full: cmd !== 'events', file: goldenFile(input, cmd) });
  for (const d of dirs) for (const cmd of ['analyze', 'replay', 'events']) add(d, cmd);
  for (const f of fixtures) for (const cmd of ['analyze', 'events']) add(f, cmd);
  return out;
}

function byName(a, b) {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** test/golden/samples/lab/crash.analyze.json, test/golden/fixtures/real/01-x.log.analyze.json */
function goldenFile(input, cmd) {
  return `${input.replace(/^test\//, '')}.${cmd}.json`;
}

/** Replaces what may legitimately differ between runs and machines (see the header). */
export function normalise(text, root = ROOT) {
  return text.split(root + path.sep).join('<repo>/').split(root).join('<repo>');
}

export function digest(text) {
  return { sha256: createHash('sha256').update(text).digest('hex'), lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0) };
}

/** The first line where two texts differ (1-based), with both versions, or null when equal. */
export function firstDifference(want, got) {
  if (want === got) return null;
  const lines = (t) => (t.endsWith('\n') ? t.slice(0, -1) : t).split('\n');
  const a = lines(want);
  const b = lines(got);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return { line: i + 1, want: a[i] ?? '<end of file>', got: b[i] ?? '<end of file>' };
  }
  // Same lines: only the newline at the end differs.
  return { line: a.length, want: want.endsWith('\n') ? '<newline at end>' : '<no newline at end>', got: got.endsWith('\n') ? '<newline at end>' : '<no newline at end>' };
}

/** The environment of every run: the caller's colour, zone or width settings must not reach the outputs. */
function fixedEnv() {
  const env = { PATH: process.env.PATH, NO_COLOR: '1' };
  if (process.env.TMPDIR) env.TMPDIR = process.env.TMPDIR;
  return env;
}

/** The command line of one output (`extra`: arguments after --json). */
export function commandArgs(o, extra = []) {
  return [o.cmd, o.input, '--json', ...extra];
}

/** A run's result: stdout kept for exit codes 0 and 1 (findings, not reproduced). */
function resultOf(o, root, code, signal, stdout, stderr) {
  if (code !== 0 && code !== 1) return { ...o, error: `exited ${code ?? signal}: ${stderr.trim().split('\n').pop() ?? ''}` };
  return { ...o, code, text: normalise(stdout, root) };
}

/** Runs one command of the built CLI in a process of its own (bin/rmq-diag.js), as a user does. */
export function runOne(o, root = ROOT, extra = []) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/rmq-diag.js', ...commandArgs(o, extra)], { cwd: root, env: fixedEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    child.stdout.on('data', (b) => out.push(b));
    child.stderr.on('data', (b) => err.push(b));
    child.on('close', (code, signal) => resolve(resultOf(o, root, code, signal, Buffer.concat(out).toString('utf8'), Buffer.concat(err).toString('utf8'))));
  });
}

/**
 * A host: one Node process (same executable, folder and fixed environment as runOne's) that loads
 * the built CLI (dist/cli/main.js) once and runs commands one after another through its main(), with
 * stdout and stderr captured, as bin/rmq-diag.js runs one. Why: starting Node and loading the CLI's
 * modules costs about 0.4 s of CPU per run, most of a run on the small inputs; the golden check runs
 * some 300 commands. What a process of its own adds (the launcher, exit codes through
 * process.exitCode, pipes) is tested on the executable elsewhere (test/cli, test/e2e), and the golden
 * test runs a few outputs both ways and requires the same bytes (test/golden.test.ts). Anything the
 * CLI wrote to the host's own stdout or stderr (a write past main()'s streams) fails the run.
 */
export function startHost(root = ROOT) {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--host'], { cwd: root, env: fixedEnv(), stdio: ['ignore', 'pipe', 'pipe', 'ipc'], serialization: 'advanced' });
  let stray = '';
  child.stdout.on('data', (b) => (stray += b));
  child.stderr.on('data', (b) => (stray += b));
  let pending = null;
  let exited = null;
  child.on('message', (m) => {
    const p = pending;
    pending = null;
    p?.(m);
  });
  child.on('exit', (code, signal) => {
    exited = `host exited ${code ?? signal}: ${stray.trim().split('\n').pop() ?? ''}`;
    pending?.({ code: 70, stdout: '', stderr: exited });
    pending = null;
  });
  /**
   * Runs one command line (arguments after `rmq-diag`): { code, stdout, stderr }; one at a time per
   * host. `env`: the command's environment instead of the host's fixed one (PATH is kept), as a
   * process of its own started with that environment would have it; `cwd`: its working folder
   * instead of the repository.
   */
  const exec = (args, env = null, cwd = null) => {
    if (exited) return Promise.resolve({ code: 70, stdout: '', stderr: exited });
    return new Promise((resolve) => {
      stray = '';
      pending = (m) => resolve(stray ? { code: 70, stdout: '', stderr: `wrote past its streams: ${stray.trim().split('\n')[0]}` } : m);
      child.send({ args, env, cwd });
    });
  };
  return {
    exec,
    /** Runs one output's command. */
    async run(o, extra = []) {
      const m = await exec(commandArgs(o, extra));
      return resultOf(o, root, m.code, null, m.stdout, m.stderr);
    },
    close() {
      if (child.connected) child.disconnect();
    },
    /** Ends the host at once (a command that hung): what it was running answers with code 70. */
    kill() {
      child.kill('SIGKILL');
    },
  };
}

/** The host's side (startHost): each message is one command line; the answer its exit code and output. */
async function serveHost() {
  const { main } = await import(pathToFileURL(path.join(process.cwd(), 'dist/cli/main.js')).href);
  const home = process.cwd();
  process.on('message', async ({ args, env, cwd }) => {
    process.chdir(cwd ?? home);
    const capture = () => {
      const s = new PassThrough();
      s.isTTY = false;
      const chunks = [];
      s.on('data', (b) => chunks.push(b));
      return { s, text: async () => (s.end(), await finished(s), Buffer.concat(chunks).toString('utf8')) };
    };
    const out = capture();
    const err = capture();
    let code;
    try {
      code = await main(args, { stdout: out.s, stderr: err.s, env: env ? { PATH: process.env.PATH, ...env } : process.env });
    } catch (e) {
      // What bin/rmq-diag.js says and exits with on an error main() lets through.
      err.s.write(`rmq-diag: internal error: ${e && e.stack ? e.stack : e}\n`);
      code = 70;
    }
    process.send({ code, stdout: await out.text(), stderr: await err.text() });
  });
}

/**
 * Runs every output, `jobs` at a time (a host each, startHost); the slow ones (replay) start first so
 * the pool ends together. `cmds`: only the outputs of these commands; `extra`: arguments given to each
 * (the same output is expected, e.g. with --jobs); `only`: a filter on the outputs.
 */
export async function runAll({ root = ROOT, jobs = 2, cmds = null, extra = [], only = null } = {}) {
  const list = outputs(root).filter((o) => (cmds === null || cmds.includes(o.cmd)) && (only === null || only(o)));
  const order = [...list.filter((o) => o.cmd === 'replay'), ...list.filter((o) => o.cmd !== 'replay')];
  const results = new Map();
  let next = 0;
  const worker = async () => {
    const host = startHost(root);
    try {
      while (next < order.length) {
        const o = order[next++];
        results.set(o.name, await host.run(o, extra));
      }
    } finally {
      host.close();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, order.length)) }, worker));
  return list.map((o) => results.get(o.name));
}

function manifestLine(r) {
  const d = digest(r.text);
  return `${r.code} ${d.lines} ${d.sha256} ${r.name}`;
}

function readManifest(dir) {
  const file = path.join(dir, MANIFEST);
  const map = new Map();
  if (!fs.existsSync(file)) return map;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const m = /^(\d+) (\d+) ([0-9a-f]{64}) (\S+ .+)$/.exec(line);
    if (m) map.set(m[4], { code: Number(m[1]), lines: Number(m[2]), sha256: m[3] });
  }
  return map;
}

/** Every golden file under dir, relative to it (the manifest excluded). */
function goldenFiles(dir) {
  const out = [];
  const walk = (rel) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(r);
      else if (r !== MANIFEST) out.push(r);
    }
  };
  if (fs.existsSync(dir)) walk('');
  return out.sort();
}

/**
 * Compares the results with the golden files. Returns one entry per differing output:
 * { name, what } where `what` says how it differs (for a full report, its first differing line).
 * `partial`: the results are some of the outputs (runAll's cmds): the others are not looked for.
 */
export function compare(results, dir = path.join(ROOT, GOLDEN), { partial = false } = {}) {
  const manifest = readManifest(dir);
  const diffs = [];
  for (const r of results) {
    if (r.error) {
      diffs.push({ name: r.name, what: r.error });
      continue;
    }
    const want = manifest.get(r.name);
    if (!want) {
      diffs.push({ name: r.name, what: 'not in the golden files' });
      continue;
    }
    const got = digest(r.text);
    const what = [];
    if (want.code !== r.code) what.push(`exit code ${r.code}, golden ${want.code}`);
    if (r.full) {
      const file = path.join(dir, r.file);
      const d = fs.existsSync(file) ? firstDifference(fs.readFileSync(file, 'utf8'), r.text) : { missing: true };
      if (d?.missing) what.push(`${GOLDEN}/${r.file} is missing`);
      else if (d) what.push(`line ${d.line}: golden ${JSON.stringify(d.want)}, now ${JSON.stringify(d.got)}`);
    }
    if (want.sha256 !== got.sha256 && !(r.full && what.length)) what.push(`sha256 differs (${got.lines} lines, golden ${want.lines})`);
    if (what.length) diffs.push({ name: r.name, what: what.join('; ') });
  }
  if (partial) return diffs;
  const names = new Set(results.map((r) => r.name));
  for (const name of manifest.keys()) if (!names.has(name)) diffs.push({ name, what: 'in the golden files, no longer produced' });
  const files = new Set(results.filter((r) => r.full).map((r) => r.file));
  for (const f of goldenFiles(dir)) if (!files.has(f)) diffs.push({ name: `${GOLDEN}/${f}`, what: 'stale golden file, no output writes it' });
  return diffs;
}

/** Rewrites the golden folder from the results; removes files no output writes any more. */
export function write(results, dir = path.join(ROOT, GOLDEN)) {
  const files = new Set();
  for (const r of results) {
    if (!r.full) continue;
    files.add(r.file);
    fs.mkdirSync(path.dirname(path.join(dir, r.file)), { recursive: true });
    fs.writeFileSync(path.join(dir, r.file), r.text);
  }
  for (const f of goldenFiles(dir)) if (!files.has(f)) fs.rmSync(path.join(dir, f));
  fs.writeFileSync(path.join(dir, MANIFEST), results.map(manifestLine).join('\n') + '\n');
}

async function main(argv) {
  const jobsArg = argv.find((a) => a.startsWith('--jobs='));
  const jobs = jobsArg ? Number(jobsArg.slice(7)) : 2;
  if (!fs.existsSync(path.join(ROOT, 'dist/cli/main.js'))) {
    process.stderr.write('golden: dist/ is missing: run `npm run build` first\n');
    return 2;
  }
  const results = await runAll({ jobs });
  const errors = results.filter((r) => r.error);
  if (argv.includes('--write')) {
    for (const r of errors) process.stderr.write(`golden: ${r.name}: ${r.error}\n`);
    if (errors.length) return 2; // never pin a failed run
    write(results);
    process.stdout.write(`golden: wrote ${results.length} outputs to ${GOLDEN}/\n`);
    return 0;
  }
  const diffs = compare(results);
  for (const d of diffs) process.stdout.write(`differs: ${d.name}: ${d.what}\n`);
  process.stdout.write(`golden: ${results.length - diffs.filter((d) => results.some((r) => r.name === d.name)).length} of ${results.length} outputs as pinned${diffs.length ? `, ${diffs.length} differences` : ''}\n`);
  return errors.length ? 2 : diffs.length ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url) && process.argv[2] === '--host') {
  serveHost();
} else if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
