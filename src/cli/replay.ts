// `rmq-diag replay`: infers a scenario from logs (or reads a scenario file), runs it in the cluster
// model, compares the simulated milestones with the observed ones, and answers what-if questions.
// Exit codes: 0 reproduced (or a scenario file without observations), 1 not reproduced or nothing
// compared, 2 usage or input error.

import { writeFileSync } from 'node:fs';
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { UsageError } from '../util/errors.js';
import { AssertionError } from '../model/index.js';
import { formatShort, parseZone } from '../parse/time.js';
import { paletteFor } from '../report/escape.js';
import { checkEmitDir, EmitError, emitLogs } from '../replay/emit.js';
import { prettyJson, ScenarioError, scenarioFileJson, spanText } from '../replay/file.js';
import { checkInferred, DEFAULT_MAX_SPAN_MS, fitRun, inferFromLogs, loadScenarioFile, scenarioArg } from '../replay/load.js';
import { renderReplayHtml } from '../replay/report-html.js';
import type { SourceAccounting } from '../parse/types.js';
import { nothingComparedText, renderReplayJson, renderReplayText } from '../replay/report.js';
import { replay } from '../replay/run.js';
import type { ReplayInput } from '../replay/types.js';
import { parseAssignments, WHAT_IF_KEYS, WhatIfError, type Variant } from '../replay/whatif.js';
import { dominantZone } from '../timeline/zone-out.js';
import { buildOptionsFrom, examples, type InputArgs, resolveTimeOption, sayInputs, timeOption, type TimeOption, withInputOptions, zoneArg } from './common.js';
import { checkOutput, isInput, writeReport } from './output.js';
import { progressOn } from './progress.js';
import { exitWith, STDIN_ARG, widthOf, type CliIo, type CommandResult } from './result.js';

interface ReplayArgs extends InputArgs {
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

/** A length: `90s`, `25m`, `1h`, `1500000ms`, `2d`; null when the text is none. */
function lengthOf(value: string): number | null {
  const d = /^(\d+(?:\.\d+)?)\s*(ms|s|m|min|h|d)$/i.exec(value.trim());
  if (!d) return null;
  const unit = d[2].toLowerCase();
  return Math.round(Number(d[1]) * (unit === 'ms' ? 1 : unit === 's' ? 1000 : unit === 'h' ? 3600000 : unit === 'd' ? 86400000 : 60000));
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

export const REPLAY_FORMATS = ['text', 'json', 'html'] as const;

/** `--json` is `--format json`; both given and different is a usage error. */
function replayFormatArg(json: boolean, format: string | undefined): (typeof REPLAY_FORMATS)[number] {
  if (format !== undefined && !(REPLAY_FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format ${format}: unknown format (one of ${REPLAY_FORMATS.join(', ')})`);
  if (json && format !== undefined && format !== 'json') throw new UsageError(`--json and --format ${format} disagree`);
  return json ? 'json' : ((format ?? 'text') as (typeof REPLAY_FORMATS)[number]);
}

/** `--max-span`: the longest run allowed (a length). */
export function maxSpanArg(value: string | undefined): number {
  if (value === undefined) return DEFAULT_MAX_SPAN_MS;
  const length = lengthOf(value);
  if (length === null || length <= 0) throw new UsageError(`--max-span ${value}: expected a length (6h, 90m, 2d)`);
  return length;
}

function variantsFrom(set: string[], whatIf: string[]): Variant[] {
  const out: Variant[] = [];
  try {
    if (set.length) {
      const assignments = set.flatMap((s) => parseAssignments(s, '--set'));
      out.push({ label: set.join(','), assignments });
    }
    for (const w of whatIf) out.push({ label: w, assignments: parseAssignments(w, '--what-if') });
  } catch (e) {
    if (e instanceof WhatIfError) throw new UsageError(e.message);
    throw e;
  }
  return out;
}

export function replayCommand(result: CommandResult, io: CliIo): CommandModule<object, ReplayArgs> {
  return {
    command: 'replay [paths..]',
    describe: 'replay the incident in a simulated cluster, compare it with the logs, and answer what-if questions',
    builder: (y: Argv) =>
      withInputOptions(y)
        .positional('paths', {
          describe: 'log files, folders, globs (a scenario is inferred from them), or one scenario file (.json)',
          type: 'string',
          array: true,
          default: [] as string[],
        })
        .option('seed', { describe: 'seed of the run (the model’s only randomness)', type: 'number', default: 1, requiresArg: true })
        .option('until', {
          describe: 'end of the run: a time (14:55, ISO), a length from the run’s start (25m, +1500s) or before the end of the logs (-2m); default: end of the logs plus 1 min',
          type: 'string',
          requiresArg: true,
        })
        .option('set', {
          describe: 'what-if: KEY=VALUE (repeatable; all together form one variant); prefix a client, broker or NameServer to limit it: app-1.clientVersion=4.9.4',
          type: 'string',
          array: true,
          nargs: 1,
          default: [] as string[],
          requiresArg: true,
        })
        .option('what-if', {
          describe: "what-if: one variant 'k=v,k2=v2' (repeatable: one variant each)",
          type: 'string',
          array: true,
          nargs: 1,
          default: [] as string[],
          requiresArg: true,
        })
        .option('max-span', {
          describe: `the longest run allowed (default ${spanText(DEFAULT_MAX_SPAN_MS)}; the model keeps what it simulates, so memory grows with it): longer logs are replayed for this long from their start`,
          type: 'string',
          requiresArg: true,
        })
        .option('runs', {
          describe: 'also run every variant with N seeds (from --seed), NameServer bindings drawn per seed: p50 / p95',
          type: 'number',
          default: 0,
          requiresArg: true,
        })
        .option('json', { describe: 'one JSON document (docs/replay.md); same as --format json', type: 'boolean', default: false })
        .option('format', { describe: 'report format: text (for people), json (docs/replay.md), html (one self-contained page: milestones observed vs simulated, what-if, runs)', type: 'string', choices: REPLAY_FORMATS as unknown as string[], requiresArg: true })
        .option('output', { alias: 'o', describe: 'write the report to FILE (created or replaced; never a folder or an input) instead of stdout', type: 'string', requiresArg: true })
        .option('save-scenario', { describe: 'write the scenario (with provenance and observations) to FILE, to edit and replay', type: 'string', requiresArg: true })
        .option('emit-logs', { describe: 'write the simulated logs as DIR/<host>/<file> (rmq-diag analyze DIR reads them); DIR must be new or empty', type: 'string', requiresArg: true })
        .option('force', { describe: '--emit-logs may write into a folder that is not empty, replacing files of the same names (never an input)', type: 'boolean', default: false })
        .option('verbose', { alias: 'v', describe: 'list every default and where every inferred value came from', type: 'boolean', default: false })
        .epilogue(
          examples([
            ['$0 replay incident/', 'infer a scenario, replay it, compare the milestones'],
            ['$0 replay incident/ --set clientCloseSocketIfTimeout=true', 'what if the clients closed a timed-out channel'],
            ['$0 replay incident/ --what-if clientVersion=4.9.4,sendMsgTimeout=5000', 'one variant of two settings'],
            ['$0 replay incident/ --what-if namesrvOnOwnHosts=true --runs 20', 'one variant, 20 seeds: p50 / p95'],
            ['$0 replay incident/ --save-scenario s.json && $0 replay s.json', 'save the scenario, edit it, replay it'],
            ['$0 replay incident/ --emit-logs sim/ && $0 analyze sim/', 'the simulated logs, read back'],
            ['$0 replay incident/ --runs 5 --format html -o replay.html', 'the replay as one page (what-if bars, the runs spread)'],
          ]),
        )
        .epilogue(`\nwhat-if keys: ${Object.keys(WHAT_IF_KEYS).join(', ')} (docs/replay.md)`) as unknown as Argv<ReplayArgs>,
    handler: async (args: ArgumentsCamelCase<ReplayArgs>) => {
      // Arguments first: a typo must not cost a read of a large incident.
      if (!Number.isInteger(args.seed) || args.seed < 0 || args.seed > 0xffffffff) throw new UsageError('--seed must be a whole number from 0 to 4294967295');
      if (!Number.isInteger(args.runs) || args.runs < 0 || args.runs > 1000) throw new UsageError('--runs must be a whole number from 0 to 1000');
      const variants = variantsFrom(args.set, args['what-if']);
      const until = timeOption('--until', args.until);
      const maxSpanMs = maxSpanArg(args['max-span']);
      const tzOut = args['tz-out'] !== undefined ? zoneArg(args['tz-out'], '--tz-out') : null;
      const paths = args.paths.filter((p) => p !== STDIN_ARG);
      const format = replayFormatArg(args.json, args.format);
      checkOutput(args.output, []);
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
          inputs = timeline.sources.map((s) => s.path);
          accounting = timeline.accounting;
          if (sayInputs(timeline, io, args.paths) === 2) return exitWith(result, 2);
          const problem = checkInferred(inferred);
          if (problem) throw new UsageError(problem);
          input = inferred;
        }
      } catch (e) {
        if (e instanceof ScenarioError) throw new UsageError(e.message);
        throw e;
      }
      const emitDir = args['emit-logs'];
      if (emitDir !== undefined) emitGuard(() => checkEmitDir(emitDir, args.force, inputs), emitDir);
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
        if (isInput(saved, inputs)) throw new UsageError(`--save-scenario ${saved}: an input of this run is never written over`);
        try {
          writeFileSync(saved, prettyJson(scenarioFileJson(input)) + '\n');
        } catch (e) {
          throw new UsageError(`--save-scenario ${saved}: ${(e as Error).message}`);
        }
      }
      let emitted: { dir: string; files: number } | null = null;
      if (emitDir !== undefined) {
        emitGuard(() => (emitted = { dir: emitDir, files: emitLogs(report.run, emitDir, { force: args.force, inputs }) }), emitDir);
      }
      const out = io.stdout;
      const zone = parseZone(report.input.zone);
      const text =
        format === 'json'
          ? renderReplayJson(report, { emitted, saved })
          : format === 'html'
            ? renderReplayHtml(report, { accounting, nothingCompared: report.verdict === 'nothing-compared' ? nothingComparedText(report, (ms) => formatShort(ms, zone)) : undefined })
            : renderReplayText(report, { palette: paletteFor(out, io.env, io.color), verbose: args.verbose, emitted, saved, width: widthOf(out, io.env) });
      await writeReport(text, io, args.output, [...inputs, ...(saved !== null ? [saved] : [])]);
      // Nothing compared is no reproduction either.
      exitWith(result, report.verdict === 'not-reproduced' || report.verdict === 'nothing-compared' ? 1 : 0);
    },
  };
}
