// The rmq-diag command line: yargs wiring only. Exit codes: 0 clean, 1 findings at or above the
// chosen severity, 2 usage or input error.

import { createRequire } from 'node:module';
import yargs, { type Argv } from 'yargs';
import { UsageError } from '../util/errors.js';
import { isClosedOutput } from '../report/buffered.js';
import { ALL_RULES } from '../rules/index.js';
import type { Rule } from '../rules/types.js';
import { TimeArgError } from '../timeline/time-args.js';
import { analyzeCommand } from './analyze.js';
import { eventsCommand } from './events.js';
import { replayCommand } from './replay.js';
import { rulesCommand } from './rules.js';
import { tuiCommand } from './tui.js';
import { STDIN_ARG, processIo, widthOf, type CliIo, type CommandResult } from './result.js';
import { examples } from './common.js';

const require = createRequire(import.meta.url);
const pkg = require('../../package.json') as { version: string };

/** What main() runs with; tests pass their own rules. */
interface MainDeps {
  rules?: readonly Rule[];
}

/**
 * Arguments as yargs should see them: a lone `-` (which yargs drops) becomes a sentinel (see
 * STDIN_ARG), and `--no-rule` (which yargs would read as the negation of `--rule`) becomes
 * `--skip-rule` (not after `--`).
 */
export function normaliseArgv(argv: string[]): string[] {
  const end = argv.indexOf('--');
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-') out.push(STDIN_ARG);
    else if (end >= 0 && i >= end) out.push(a);
    else if (a === '--no-rule' || a.startsWith('--no-rule=')) out.push(`--skip-rule${a.slice('--no-rule'.length)}`);
    else if (GLOB_VALUE_OPTIONS.has(a) && i + 1 < argv.length && argv[i + 1].startsWith('-') && argv[i + 1] !== '--') {
      // `--kind -=broker` (stdin): a value starting with `-` would be read as flags.
      out.push(`${a}=${argv[++i]}`);
    } else out.push(a);
  }
  return out;
}

/** Options whose GLOB=VALUE may start with `-` (the stdin source). */
const GLOB_VALUE_OPTIONS = new Set(['--kind', '--host', '--set-kind', '--set-host', '--tz']);

/** A usage mistake yargs found (unknown option, missing command). */
class YargsUsage extends Error {}

/**
 * The exit code of a run whose stdout reader went away (`| head`): 128 + SIGPIPE, what a shell shows
 * for any program a closed pipe ends (`yes | head -1`), so that `set -o pipefail` scripts see the
 * same as with coreutils.
 */
const CLOSED_OUTPUT_CODE = 141;

/**
 * A closed stdout must end the run quietly: its write errors are noted here (not thrown from an event
 * handler), and the command stops at its next write (src/report/buffered.ts). Errors on stderr are
 * dropped: there is nowhere left to say them. The listeners stay: an error can come after the run.
 */
function watchOutput(io: CliIo): { closed(): boolean; failed(): Error | null } {
  let closed = false;
  let failed: Error | null = null;
  const onOut = (err: Error) => {
    if (isClosedOutput(err)) closed = true;
    else failed ??= err;
  };
  const onErr = () => {};
  io.stdout.on('error', onOut);
  io.stderr.on('error', onErr);
  return { closed: () => closed, failed: () => failed };
}

export async function main(argv: string[], io: CliIo = processIo(), deps: MainDeps = {}): Promise<number> {
  const watch = watchOutput(io);
  let code: number;
  try {
    code = await runMain(argv, io, deps);
  } catch (err) {
    if (watch.closed() || isClosedOutput(err)) return CLOSED_OUTPUT_CODE;
    if (!watch.failed()) throw err;
    code = 2;
  }
  if (watch.closed()) return CLOSED_OUTPUT_CODE;
  const failed = watch.failed();
  if (failed) {
    // A full disk under `> report.txt`: the output is incomplete, and that must not look like success.
    io.stderr.write(`rmq-diag: cannot write the output: ${failed.message}\n`);
    return 2;
  }
  return code;
}

/** Edit distance with transpositions (`tyep` is one from `type`), for did-you-mean on options. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** `Unknown argument: tyep` gets `; did you mean --type?` when one known option is close. */
function suggestOption(msg: string, known: readonly string[], argv: readonly string[] = []): string {
  const m = /^Unknown arguments?: (.+)$/.exec(msg);
  if (!m) return msg;
  const hints: string[] = [];
  for (const word of m[1].split(', ')) {
    const w = word.replace(/^-+/, '');
    let best: string | null = null;
    let bestD = Infinity;
    for (const k of known) {
      const dd = distance(w, k);
      if (dd < bestD) [best, bestD] = [k, dd];
    }
    // yargs reads `--no-rul` as the negation of `rul`: the hint keeps the `no-`.
    const negated = argv.some((x) => x === `--no-${w}` || x.startsWith(`--no-${w}=`));
    if (best !== null && bestD <= Math.max(1, Math.floor(w.length / 3))) hints.push(`--${negated ? 'no-' : ''}${best}`);
  }
  return hints.length ? `${msg}; did you mean ${hints.join(', ')}?` : msg;
}

const COLOR_MODES = ['auto', 'always', 'never'] as const;

/** Whether the command line may ask for help: `--help`, `-h` (alone or among other short flags), or a `help` word. */
function asksHelp(argv: readonly string[]): boolean {
  for (const a of argv) {
    if (a === '--') return false;
    if (a === 'help' || a === '--help' || a.startsWith('--help=') || /^-[A-Za-z]*h[A-Za-z]*$/.test(a)) return true;
  }
  return false;
}

async function runMain(argv: string[], io0: CliIo, deps: MainDeps): Promise<number> {
  // The commands get this object; `--color` is set on it once the command line is read.
  const io: CliIo = { ...io0 };
  const result: CommandResult = { code: 0 };
  const rules = deps.rules ?? ALL_RULES;
  let usageFailure: string | null = null;
  const cli: Argv = yargs(normaliseArgv(argv))
    .scriptName('rmq-diag')
    .usage('$0 <command> [options]\n\nReads RocketMQ client, broker and NameServer logs, merges them into one timeline, and names what happened.')
    .command(eventsCommand(result, io))
    .command(analyzeCommand(result, io, rules))
    .command(rulesCommand(result, io, rules))
    .command(replayCommand(result, io))
    .command(tuiCommand(result, io, rules))
    // `--` ends the options: what follows is paths, even when it starts with `-`.
    .parserConfiguration({ 'populate--': true })
    .middleware((a) => {
      const rest = a['--'];
      if (Array.isArray(rest)) {
        a.paths = [...((a.paths as string[] | undefined) ?? []), ...rest.map(String)];
        delete a['--'];
      }
    })
    .option('color', {
      describe: 'colour: auto (a terminal, unless NO_COLOR; FORCE_COLOR forces it), always, never',
      type: 'string',
      choices: COLOR_MODES as unknown as string[],
      default: 'auto',
      requiresArg: true,
      global: true,
    })
    .middleware((a) => {
      io.color = a.color as CliIo['color'];
    })
    .completion('completion', 'print a shell completion script: rmq-diag completion >> ~/.bashrc (or ~/.zshrc)')
    .demandCommand(1, 'name a command: events, analyze, rules, replay, tui, completion')
    .strict()
    .recommendCommands()
    .help()
    .alias('help', 'h')
    .version(pkg.version)
    // yargs renders the whole help text as a command starts (for a failure it might show it on:
    // about 40 ms, most of it wrapping the lines); ours never shows it (the fail handler prints one
    // line), so the text is laid out to the terminal only when help is asked for.
    .wrap(asksHelp(argv) ? Math.min(100, widthOf(io.stdout, io.env)) : null)
    .epilogue(
      examples([
        ['$0 analyze samples/seed-outage/', 'what happened in the bundled outage: findings, evidence, advice'],
        ["$0 events samples/seed-outage/ --type '!watermark' --level warn", 'the merged timeline, filtered'],
        ['$0 replay samples/seed-outage/', 'the outage replayed in a simulated cluster'],
        ['$0 tui samples/seed-outage/', 'all of it in a terminal UI'],
      ]),
    )
    .epilogue(
      '\nExit codes: 0 clean, 1 findings at or above --severity (replay: not reproduced), 2 usage or input error, 141 stdout closed.\n' +
        'Docs: README.md, docs/analyze.md, docs/replay.md, docs/json.md, docs/events.md, docs/tui.md',
    )
    .exitProcess(false)
    .fail((msg, err) => {
      if (err) throw err;
      // Throw, so that yargs stops here: returning would let it run the command anyway (an unknown
      // option would only be reported after the whole input was read). The options known here are
      // those of the command being parsed (yargs re-populates its instance for each command).
      const known = Object.keys((cli as unknown as { getOptions(): { key: Record<string, unknown> } }).getOptions().key);
      usageFailure = suggestOption(msg, known, argv);
      throw new YargsUsage(usageFailure);
    });
  try {
    await cli.parseAsync();
  } catch (err) {
    if (err instanceof YargsUsage) {
      io.stderr.write(`rmq-diag: ${usageFailure}\nRun 'rmq-diag --help' for usage.\n`);
      return 2;
    }
    if (err instanceof UsageError || err instanceof TimeArgError) {
      io.stderr.write(`rmq-diag: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  if (usageFailure !== null) {
    io.stderr.write(`rmq-diag: ${usageFailure}\nRun 'rmq-diag --help' for usage.\n`);
    return 2;
  }
  return result.code;
}
