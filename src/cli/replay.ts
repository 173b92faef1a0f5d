// `rmq-diag replay`: infers a scenario from logs (or reads a scenario file), runs it in the cluster
// model, compares the simulated milestones with the observed ones, and answers what-if questions.
// Exit codes: 0 reproduced (or a scenario file without observations), 1 not reproduced or nothing
// compared, 2 usage or input error.

import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { UsageError } from '../util/errors.js';
import { DEFAULT_MAX_SPAN_MS } from '../replay/file.js';
import { spanText } from '../util/durations.js';
import { parseAssignments, WHAT_IF_KEYS, WhatIfError, type Variant } from '../replay/whatif.js';
import { examples, timeOption, withInputOptions, zoneArg } from './common.js';
import { checkOutputs, formatOfName } from './output.js';
import { exitWith, STDIN_ARG, type CliIo, type CommandResult } from './result.js';
import type { ReplayArgs } from './replay-run.js';

/** A length: `90s`, `25m`, `1h`, `1500000ms`, `2d`; null when the text is none. */
function lengthOf(value: string): number | null {
  const d = /^(\d+(?:\.\d+)?)\s*(ms|s|m|min|h|d)$/i.exec(value.trim());
  if (!d) return null;
  const unit = d[2].toLowerCase();
  return Math.round(Number(d[1]) * (unit === 'ms' ? 1 : unit === 's' ? 1000 : unit === 'h' ? 3600000 : unit === 'd' ? 86400000 : 60000));
}

const REPLAY_FORMATS = ['text', 'json', 'html'] as const;

/** `--json` is `--format json`; both given and different is a usage error. */
function replayFormatArg(json: boolean, format: string | undefined): (typeof REPLAY_FORMATS)[number] {
  if (format !== undefined && !(REPLAY_FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format ${format}: unknown format (one of ${REPLAY_FORMATS.join(', ')})`);
  if (json && format !== undefined && format !== 'json') throw new UsageError(`--json and --format ${format} disagree`);
  return json ? 'json' : ((format ?? 'text') as (typeof REPLAY_FORMATS)[number]);
}

/** `--max-span`: the longest run allowed (a length). */
function maxSpanArg(value: string | undefined): number {
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
        .option('output', { alias: 'o', describe: 'write the report to FILE instead of stdout (created or replaced; never a folder, a FIFO or an input); without --format, .html or .json picks the format', type: 'string', requiresArg: true })
        .option('save-scenario', { describe: 'write the scenario (with provenance and observations) to FILE, to edit and replay', type: 'string', requiresArg: true })
        .option('emit-logs', { describe: 'write the simulated logs as DIR/<host>/<file> (rmq-diag analyze DIR reads them); DIR must be new or empty', type: 'string', requiresArg: true })
        .option('force', { describe: '--emit-logs may write into a folder that is not empty, replacing files of the same names (never an input or an input folder)', type: 'boolean', default: false })
        .option('verbose', { describe: 'list every default and where every inferred value came from, and every note on the inputs', type: 'boolean', default: false })
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
      // Without --format or --json, `-o FILE`'s extension names the format (docs/analyze.md, "Writing to a file").
      const format = replayFormatArg(args.json, args.format ?? (args.json ? undefined : formatOfName(args.output, REPLAY_FORMATS)));
      checkOutputs(args, [
        ['-o', args.output, 'file'],
        ['--save-scenario', args['save-scenario'], 'file'],
        ['--emit-logs', args['emit-logs'], 'folder'],
      ], [], io);
      // The pipeline and the model are loaded only now: `--help` and a bad option need none of it.
      const { runReplay } = await import('./replay-run.js');
      exitWith(result, await runReplay(args, io, { variants, until, maxSpanMs, tzOut, paths, format }));
    },
  };
}
