import type { Timeline } from '../timeline/build.js';

/** The exit code a command sets; yargs handlers cannot return one. */
export interface CommandResult {
  code: number;
}

export function exitWith(r: CommandResult, code: number): void {
  r.code = Math.max(r.code, code);
}

/** 2 when nothing could be read at all (every input missing or unreadable), else 0. */
export function inputExitCode(t: Timeline): number {
  const read = t.accounting.reduce((n, a) => n + a.lines, 0);
  return t.sources.length === 0 || (read === 0 && t.issues.length > 0) ? 2 : 0;
}
