// `npm run lab -- score DIR... [--json] [--verbose]`: run rmq-diag's analyze and replay (the built
// bin/rmq-diag.js) on each recording, score their statements against lab.json, print the figures.
import { bootsOf, busyRepliesOf, failedDeliveriesOf } from './score-truth.js';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import type { LabJson } from './labjson.js';
import { scoreAll, scoreRecording, TOLERANCE, CLASSES, type Figures, type RecordingScore } from './score.js';
import type { StatementClass } from './statements-core.js';
import { CONSUMER_TOLERANCE } from './statements-consumer.js';

export const SCORE_USAGE = `  score DIR... [--json] [--verbose]
                 run analyze and replay on each recording (a folder with lab.json, or a folder of
                 them) and check every statement they make against lab.json; --verbose lists every
                 false statement with its evidence, --json prints the figures and every statement`;

/** The recordings under the arguments: folders with lab.json, or folders of such folders. */
export function recordingDirs(args: string[]): string[] {
  const out: string[] = [];
  for (const a of args) {
    const dir = resolve(a);
    if (existsSync(join(dir, 'lab.json'))) out.push(dir);
    else if (existsSync(dir) && statSync(dir).isDirectory()) {
      const subs = readdirSync(dir)
        .map((d) => join(dir, d))
        .filter((d) => existsSync(join(d, 'lab.json')))
        .sort();
      if (!subs.length) throw new Error(`${a}: no lab.json in it or in a folder below it`);
      out.push(...subs);
    } else throw new Error(`${a}: no such folder`);
  }
  return out;
}

/** How the scorer runs rmq-diag: the arguments after `rmq-diag`, and what the run gave. */
export type CliRunner = (args: string[]) => Promise<{ code: number; stdout: string; stderr: string }>;

/** The built bin/rmq-diag.js in a process of its own (the default CliRunner). */
function runCli(repoDir: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const p = spawn(process.execPath, [join(repoDir, 'bin', 'rmq-diag.js'), ...args], { cwd: repoDir, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    p.stdout.on('data', (d: Buffer) => out.push(d));
    p.stderr.on('data', (d: Buffer) => err.push(d));
    p.on('error', fail);
    p.on('close', (code) => done({ code: code ?? -1, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
  });
}

/** The command line the scorer runs for a recording's report (the arguments after `rmq-diag`). */
export function reportArgs(cmd: 'analyze' | 'replay', dir: string): string[] {
  return [cmd, dir, '--json', '--no-progress'];
}

/** The JSON report of `rmq-diag <cmd> DIR --json`, or the reason there is none. */
async function report(run: CliRunner, cmd: 'analyze' | 'replay', dir: string): Promise<{ json: any } | { error: string }> {
  const r = await run(reportArgs(cmd, dir));
  try {
    return { json: JSON.parse(r.stdout) };
  } catch {
    const line = r.stderr.split('\n').find((l) => l.trim() && !l.startsWith('note:')) ?? `exit code ${r.code}, no report`;
    return { error: `${cmd}: ${line.trim()}` };
  }
}

/** `run`: how rmq-diag is run (tests run its main() in a process that stays, scripts/golden.mjs startHost). */
export async function scoreDir(repoDir: string, dir: string, run: CliRunner = (args) => runCli(repoDir, args)): Promise<RecordingScore> {
  const lab = JSON.parse(readFileSync(join(dir, 'lab.json'), 'utf8')) as LabJson;
  const a = await report(run, 'analyze', dir);
  const r = await report(run, 'replay', dir);
  const errors = ['error' in a ? a.error : null, 'error' in r ? r.error : null].filter((x): x is string => x !== null);
  return scoreRecording(basename(dir), lab, 'json' in a ? a.json : null, 'json' in r ? r.json : null, errors, busyRepliesOf(dir, lab.timeZone ?? '+08:00'), bootsOf(dir, lab.timeZone ?? '+08:00'), failedDeliveriesOf(dir, lab.timeZone ?? '+08:00'));
}

const p2 = (p: number | null): string => (p === null ? '-' : p.toFixed(2));
const ratio = (r: { stated: number; present: number }) => `${r.stated}/${r.present}`;

/** The classes the table shows (the others are in the class table and the JSON). */
const COLUMNS: Array<[StatementClass, string]> = [
  ['cause', 'cause'],
  ['went-down', 'down'],
  ['impact', 'imp.'],
  ['advice', 'adv.'],
  ['replay-setting', 'rset'],
];

function row(name: string, f: Figures, replay: string): string {
  const c = f.counts;
  return [
    // Long names keep their end, which tells recordings of one family apart (ns-hang-resume-4x, -5x).
    (name.length > 12 ? `${name.slice(0, 7)}…${name.slice(-4)}` : name).padEnd(12),
    `${c.true}/${c.false}/${c.unknown}`.padStart(10),
    p2(f.precision).padStart(5),
    ...COLUMNS.map(([k]) => p2(f.byClass[k].precision).padStart(5)),
    ratio(f.recall.causes).padStart(5),
    ratio(f.recall.clients).padStart(5),
    replay.padStart(5),
  ].join(' ');
}

const VERDICT_SHORT: Record<string, string> = { reproduced: 'ok', 'not-reproduced': 'no', 'nothing-compared': 'none', 'not-compared': 'none', error: 'error' };

/** The tables: one row per recording and all, then each class over all; both fit 80 columns. */
export function formatTable(scores: RecordingScore[], all: Figures): string {
  const head = ['recording'.padEnd(12), 'true/false/?'.padStart(10), 'prec'.padStart(5), ...COLUMNS.map(([, h]) => h.padStart(5)), 'r-cau'.padStart(5), 'r-cli'.padStart(5), 'rplay'.padStart(5)].join(' ');
  const lines = [head, '-'.repeat(head.length)];
  for (const s of scores) lines.push(row(s.name, s, VERDICT_SHORT[s.replayVerdict] ?? s.replayVerdict));
  lines.push('-'.repeat(head.length));
  const reproduced = scores.filter((s) => s.replayVerdict === 'reproduced').length;
  lines.push(row('all', all, `${reproduced}/${scores.length}`));
  lines.push('', `${'class'.padEnd(17)} ${'true'.padStart(6)} ${'false'.padStart(6)} ${'unknown'.padStart(7)} ${'precision'.padStart(9)}`);
  for (const k of CLASSES) {
    const c = all.byClass[k];
    lines.push(`${k.padEnd(17)} ${String(c.true).padStart(6)} ${String(c.false).padStart(6)} ${String(c.unknown).padStart(7)} ${p2(c.precision).padStart(9)}`);
  }
  lines.push(
    '',
    'prec: true / (true + false), in all and per class (cause, went-down, impact,',
    'advice, replay-setting). r-cau: lab faults a cause names / faults. r-cli:',
    'clients that lost sends and that an incident names / such clients. rplay:',
    "replay's verdict (ok = reproduced). replay-assumed: values replay ran with",
    'because no line gave them (its defaults: a release default, an equal share of',
    "a topic's rate), true when the lab ran them; not claims, so not in prec.",
  );
  for (const s of scores) for (const e of s.errors) lines.push(`${s.name}: ${e}`);
  return lines.join('\n');
}

/** Every false statement with its evidence, and what recall missed: what a developer acts on. */
export function formatFalse(scores: RecordingScore[]): string {
  const lines: string[] = [];
  for (const s of scores) {
    const bad = s.statements.filter((x) => x.verdict === 'false');
    if (!bad.length && !s.missed.length) continue;
    lines.push(`${s.name}:`);
    for (const x of bad) lines.push(`  [${x.cls}] ${x.source} ${x.where}: ${x.claim}`, `      false: ${x.why}`);
    for (const m of s.missed) lines.push(`  [recall] ${m}`);
  }
  return lines.length ? lines.join('\n') : 'no false statement';
}

/** The JSON document (docs/lab.md, "Scoring"). */
export function scoreJson(scores: RecordingScore[], all: Figures, repoDir: string, dirs: string[]) {
  return {
    schemaVersion: 1,
    tolerances: { ...TOLERANCE, consumer: CONSUMER_TOLERANCE },
    recordings: scores.map((s, i) => ({ dir: relative(repoDir, dirs[i]) || '.', ...s })),
    all: { ...all, reproduced: scores.filter((s) => s.replayVerdict === 'reproduced').length, recordings: scores.length },
  };
}

/** The subcommand; returns the exit code (1 when a statement is false, 2 on a usage or input error). */
export async function scoreCommand(repoDir: string, args: string[], log: (line: string) => void): Promise<number> {
  const json = args.includes('--json');
  const verbose = args.includes('--verbose') || args.includes('-v');
  const unknownOpt = args.find((a) => a.startsWith('-') && !['--json', '--verbose', '-v'].includes(a));
  if (unknownOpt) {
    log(`unknown option ${unknownOpt}\n${SCORE_USAGE}`);
    return 2;
  }
  const paths = args.filter((a) => !a.startsWith('-'));
  if (!paths.length) {
    log(`score needs a recording folder (or a folder of them), e.g. samples/lab\n${SCORE_USAGE}`);
    return 2;
  }
  if (!existsSync(join(repoDir, 'dist', 'cli', 'main.js'))) {
    log('rmq-diag is not built: run `npx tsc -p tsconfig.json` first');
    return 2;
  }
  let dirs: string[];
  try {
    dirs = recordingDirs(paths);
  } catch (e) {
    log((e as Error).message);
    return 2;
  }
  const scores: RecordingScore[] = [];
  for (const d of dirs) {
    log(`scoring ${relative(repoDir, d) || d}`);
    scores.push(await scoreDir(repoDir, d));
  }
  const all = scoreAll(scores);
  if (json) process.stdout.write(JSON.stringify(scoreJson(scores, all, repoDir, dirs), null, 2) + '\n');
  else process.stdout.write(formatTable(scores, all) + '\n' + (verbose ? '\n' + formatFalse(scores) + '\n' : ''));
  return all.counts.false > 0 ? 1 : 0;
}
