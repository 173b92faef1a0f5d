import type { ColorMode } from '../report/escape.js';

/** Stands for `-` (stdin) between main() and the commands. */
export const STDIN_ARG = '\u0000stdin';

/** The exit code a command sets; yargs handlers cannot return one. */
export interface CommandResult {
  code: number;
}

export function exitWith(r: CommandResult, code: number): void {
  r.code = Math.max(r.code, code);
}

/** Where a command writes; tests pass their own. */
export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WriteStream | (NodeJS.WritableStream & { isTTY?: boolean });
  env: NodeJS.ProcessEnv;
  /** `--color` (set once the command line is read). */
  color?: ColorMode;
}

export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env };
}

/**
 * The width text output fits: the terminal's on a TTY; off one, `COLUMNS` (a positive whole number)
 * or 80, as `ls` and `rg` do, so that `analyze | less` and CI logs stay readable.
 */
export function widthOf(stream: { isTTY?: boolean; columns?: number }, env: NodeJS.ProcessEnv): number {
  if (stream.isTTY && stream.columns) return stream.columns;
  const c = Number(env.COLUMNS);
  return Number.isInteger(c) && c > 0 ? c : 80;
}
