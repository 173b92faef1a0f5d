// `rmq-diag replay` once its arguments are read: the scenario (inferred or from a file), the runs,
// the report. Loaded by the command's handler only (src/cli/replay.ts), so that `--help` and
// `--version` load neither the pipeline nor the model.
import type { ArgumentsCamelCase } from 'yargs';
import { UsageError } from '../util/errors.js';
import { AssertionError } from '../model/index.js';
import { formatShort, parseZone, type Zone } from '../parse/time.js';
import type { SourceAccounting } from '../parse/types.js';
import { paletteFor } from '../report/escape.js';
import { checkEmitDir, EmitError, emitLogs } from '../replay/emit.js';
import { prettyJson, ScenarioError, scenarioFileJson } from '../replay/file.js';
import { checkInferred, fitRun, inferFromLogs, loadScenarioFile, scenarioArg } from '../replay/load.js';
import { renderReplayHtml } from '../replay/report-html.js';
import { nothingComparedText, renderReplayJson, renderReplayText } from '../replay/report.js';
import { replay } from '../replay/run.js';
import type { ReplayInput } from '../diagnosis/types.js';
import { WhatIfError, type Variant } from '../replay/whatif.js';
import { dominantZone } from '../timeline/zone-out.js';
import { buildOptionsFrom, type InputArgs, resolveTimeOption, sayInputs, type TimeOption } from './common.js';
import { checkOutputs, inputsOfRun, reportStream, writeOutput, writeReport } from './output.js';
import { progressOn } from './progress.js';
import { STDIN_ARG, widthOf, type CliIo } from './result.js';

export interface ReplayArgs extends InputArgs {
  seed: number;
  until?: string;
  set: string[];
  'what-if': string[];
  runs: number;
  json: boolean;
  format?: string;
  output?: string;
  'save-scenario'?: string;
  'emit-logs'?: string;
  force: boolean;
  'max-span'?: string;
  verbose: boolean;
}

/**
 * `--until`: a time (docs: the forms of --since/--until) read against the run: `25m` or `+25m` is a run
 * length from the run's start, `-5m` is before the end of the logs. Returns the run length in ms.
 */
export function untilArg(t: TimeOption, startEpochMs: number, zoneName: string, logsEnd: number | null): number {
  const at = resolveTimeOption(t, parseZone(zoneName), { first: startEpochMs, last: logsEnd });
  if (at <= startEpochMs) throw new UsageError(`--until ${t.value}: at or before the start of the run (${formatShort(startEpochMs, parseZone(zoneName))})`);
  return at - startEpochMs;
}

/** A refused or failed write of the simulated logs is a usage error naming the folder. */
function emitGuard(fn: () => void, dir: string): void {
  try {
    fn();
  } catch (e) {
    if (e instanceof EmitError || typeof (e as NodeJS.ErrnoException).code === 'string') throw new UsageError(`--emit-logs ${dir}: ${(e as Error).message}`);
    throw e;
  }
}

interface ReplayChoices {
  variants: Variant[];
  until: TimeOption | null;
  maxSpanMs: number;
  tzOut: Zone | null;
  paths: string[];
  format: 'text' | 'json' | 'html';
}

/** The run; returns the exit code. */
export async function runReplay(args: ArgumentsCamelCase<ReplayArgs>, io: CliIo, c: ReplayChoices): Promise<number> {
  const { variants, until, maxSpanMs, tzOut, paths, format } = c;
  let accounting: SourceAccounting[] = [];

  let input: ReplayInput;
  // What the run read: never written over (--save-scenario, --emit-logs).
  let inputs: string[] = [];
  let fromFile = false;
  try {
    const file = paths.length === args.paths.length ? scenarioArg(paths) : null;
    if (file) {
      inputs = [file.path];
      fromFile = true;
      input = loadScenarioFile(file.path, file.json);
      if (tzOut) input.zone = tzOut.name;
    } else {
      const opts = buildOptionsFrom(args);
      const progress = progressOn(io.stderr, args.progress);
      const { input: inferred, timeline } = await inferFromLogs(
        { ...opts, onProgress: (d, t) => progress.update(d, t) },
        (t) => (tzOut ?? dominantZone(t.accounting, t.defaultZone)).name,
        args.paths.map((p) => (p === STDIN_ARG ? '-' : p)).join(' '),
        maxSpanMs,
      );
      progress.clear();
      inputs = timeline.files;
      accounting = timeline.accounting;
      if (sayInputs(timeline, io, args.paths, args.verbose) === 2) return 2;
      const problem = checkInferred(inferred, { inputs: opts.inputs, accounting: timeline.accounting });
      if (problem) throw new UsageError(problem);
      input = inferred;
    }
  } catch (e) {
    if (e instanceof ScenarioError) throw new UsageError(e.message);
    throw e;
  }
  const emitDir = args['emit-logs'];
  // Every output is checked against the files read (found in folders, by globs) before the run.
  const read = inputsOfRun(args, inputs);
  checkOutputs(args, [['-o', args.output, 'file'], ['--save-scenario', args['save-scenario'], 'file']], inputs, io);
  if (emitDir !== undefined) emitGuard(() => checkEmitDir(emitDir, args.force, read), emitDir);
  const untilMs = until ? untilArg(until, input.scenario.startEpochMs, input.zone, input.observed?.window.last ?? null) : undefined;
  if (untilMs !== undefined) input.untilMs = untilMs;
  try {
    fitRun(input, maxSpanMs, untilMs !== undefined ? `--until ${args.until}` : fromFile ? 'untilMs' : null);
  } catch (e) {
    if (e instanceof ScenarioError) throw new UsageError(e.message);
    throw e;
  }

  let report;
  try {
    // The runs are synchronous: a line on a terminal (written at once) is how they show progress.
    const progress = progressOn(io.stderr, args.progress, (done, total) => `replay: run ${done}/${total}`);
    try {
      report = replay(input, { seed: args.seed, untilMs, variants, runs: args.runs, keepLines: args['emit-logs'] !== undefined, onRun: (d, t) => progress.update(d, t) });
    } finally {
      progress.clear();
    }
  } catch (e) {
    if (e instanceof WhatIfError) throw new UsageError(e.message);
    if (e instanceof AssertionError) throw new UsageError(`the scenario cannot run: ${e.message}`);
    throw e;
  }
  let saved: string | null = null;
  if (args['save-scenario'] !== undefined) {
    saved = args['save-scenario'];
    writeOutput('--save-scenario', saved, prettyJson(scenarioFileJson(input)) + '\n', read);
  }
  let emitted: { dir: string; files: number } | null = null;
  if (emitDir !== undefined) {
    emitGuard(() => (emitted = { dir: emitDir, files: emitLogs(report.run, emitDir, { force: args.force, inputs: read }) }), emitDir);
  }
  // Colour and width for where the report goes: a file of -o is no terminal.
  const out = reportStream(io, args.output);
  const zone = parseZone(report.input.zone);
  const text =
    format === 'json'
      ? renderReplayJson(report, { emitted, saved })
      : format === 'html'
        ? renderReplayHtml(report, { accounting, nothingCompared: report.verdict === 'nothing-compared' ? nothingComparedText(report, (ms) => formatShort(ms, zone)) : undefined })
        : renderReplayText(report, { palette: paletteFor(out, io.env, io.color), verbose: args.verbose, emitted, saved, width: widthOf(out, io.env) });
    // The scenario just saved is not written over either.
  await writeReport(text, io, args.output, saved !== null ? inputsOfRun(args, [...inputs, saved]) : read);
  // Nothing compared is no reproduction either.
  return report.verdict === 'not-reproduced' || report.verdict === 'nothing-compared' ? 1 : 0;
}
