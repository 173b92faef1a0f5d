// Opens the TUI for `rmq-diag tui` and `analyze --tui`: checks that there is a terminal to draw on
// and keys to read, then hands over to src/tui/run.tsx, loaded only here so that the other commands
// never load ink or React. Not a command module: both commands import it.
import { openSync } from 'node:fs';
import { ReadStream } from 'node:tty';
import { ANSI, paletteFor } from '../report/escape.js';
import type { Rule, SettingValue } from '../rules/types.js';
import { buildOptionsFrom, type InputArgs, zoneArg } from './common.js';
import type { CliIo } from './result.js';

/** What the TUI needs besides the CLI's io; tests pass their own. */
export interface TuiDeps {
  stdin?: NodeJS.ReadStream & { isTTY?: boolean };
}

const NOT_A_TERMINAL = (what: string) =>
  `rmq-diag tui: the TUI needs an interactive terminal, and ${what} is not one.\n` +
  'Without a terminal, the same findings and events come from:\n' +
  '  rmq-diag analyze PATHS...   findings with figures, evidence and advice (--json, --format markdown)\n' +
  '  rmq-diag events PATHS...    the merged event timeline (--json for NDJSON, --all for every record)\n';

/** Keys come from stdin, or from the terminal itself when stdin carries the logs (`-`). */
function keyboard(deps: TuiDeps): { stream: NodeJS.ReadStream; close(): void } | null {
  const stdin = deps.stdin ?? process.stdin;
  if (stdin.isTTY) return { stream: stdin as NodeJS.ReadStream, close() {} };
  try {
    const tty = new ReadStream(openSync('/dev/tty', 'r'));
    return { stream: tty as unknown as NodeJS.ReadStream, close: () => tty.destroy() };
  } catch {
    return null;
  }
}

/** ink draws only the last frame when it thinks it runs in CI; on a terminal it is interactive. */
async function importTui() {
  const saved = { CI: process.env.CI, CONTINUOUS_INTEGRATION: process.env.CONTINUOUS_INTEGRATION };
  delete process.env.CI;
  delete process.env.CONTINUOUS_INTEGRATION;
  try {
    return await import('../tui/run.js');
  } finally {
    for (const [k, v] of Object.entries(saved)) if (v !== undefined) process.env[k] = v;
  }
}

/** Opens the TUI on the inputs; returns the exit code (2 without a terminal). */
export async function openTui(
  args: InputArgs,
  io: CliIo,
  rules: readonly Rule[],
  settings: Record<string, SettingValue>,
  other: boolean,
  deps: TuiDeps = {},
): Promise<number> {
  // Arguments first: a typo is a usage error whether or not there is a terminal.
  const build = buildOptionsFrom(args);
  const zoneOut = args['tz-out'] !== undefined ? zoneArg(args['tz-out'], '--tz-out') : null;
  if (!io.stdout.isTTY) {
    io.stderr.write(NOT_A_TERMINAL('stdout'));
    return 2;
  }
  const keys = keyboard(deps);
  if (!keys) {
    io.stderr.write(NOT_A_TERMINAL('stdin'));
    return 2;
  }
  try {
    const { runTui } = await importTui();
    return await runTui({
      build,
      rules,
      settings,
      zoneOut,
      other,
      color: paletteFor(io.stdout, io.env, io.color) === ANSI,
      verbose: args.verbose,
      stdin: keys.stream,
      stdout: io.stdout as NodeJS.WriteStream,
      stderr: io.stderr as NodeJS.WriteStream,
    });
  } finally {
    keys.close();
  }
}
