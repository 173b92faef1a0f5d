// The text report through a pager on a terminal, as git pages its output: `$RMQ_DIAG_PAGER`, else
// `$PAGER`, else `less`; with LESS=FRX when LESS is unset (-F: a report that fits the screen is
// printed and less exits at once, -R: colours pass, -X: the report stays on the screen after q), and
// LV=-c for lv. An empty value or `cat` means no pager. Never off a terminal, never for JSON,
// Markdown or HTML, never with -o FILE, never with --no-pager. A pager that cannot be started leaves
// the report to be printed directly; quitting the pager early is no error and changes no exit code.

import { spawn } from 'node:child_process';

export interface PagerChoice {
  /** stdout is a terminal. */
  isTTY: boolean;
  /** --no-pager. */
  noPager: boolean;
  format: string;
  /** -o FILE (undefined or `-`: stdout). */
  output?: string;
  env: NodeJS.ProcessEnv;
}

export interface PagerCommand {
  /** The command line, as a shell reads it (`less -S`, `most`). */
  command: string;
  /** Variables set for it (LESS, LV when unset). */
  env: Record<string, string>;
}

/** The pager to run, or null to print directly. Pure: the decision only. */
export function pagerFor(c: PagerChoice): PagerCommand | null {
  if (!c.isTTY || c.noPager || c.format !== 'text') return null;
  if (c.output !== undefined && c.output !== '-') return null;
  const set = c.env.RMQ_DIAG_PAGER ?? c.env.PAGER;
  // less on a dumb terminal (an editor's shell buffer) only gets in the way; a pager named is run.
  if (set === undefined && c.env.TERM === 'dumb') return null;
  const command = (set ?? 'less').trim();
  if (command === '' || command === 'cat') return null;
  const env: Record<string, string> = {};
  if (c.env.LESS === undefined) env.LESS = 'FRX';
  if (c.env.LV === undefined) env.LV = '-c';
  return { command, env };
}

/** Characters that make a pager command a shell command line (git's prepare_shell_cmd). */
const SHELL_CHARS = /[|&;<>()$`\\"' \t\n*?[#~=%]/;

/**
 * Writes `text` into the pager and waits for it to end. False when it could not be started (no such
 * command: nothing was shown), for the caller to print the text itself.
 */
export function runPager(text: string, pager: PagerCommand, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  return new Promise((resolve) => {
    const shell = SHELL_CHARS.test(pager.command);
    let child;
    try {
      child = spawn(pager.command, { shell, stdio: ['pipe', 'inherit', 'inherit'], env: { ...env, ...pager.env } });
    } catch {
      resolve(false);
      return;
    }
    // Ctrl-C in less reaches this process too (one process group): the pager handles it, and the
    // run waits for the pager to end rather than leave it on the terminal.
    const ignore = () => {};
    process.on('SIGINT', ignore);
    let settled = false;
    const done = (shown: boolean) => {
      if (settled) return;
      settled = true;
      process.off('SIGINT', ignore);
      resolve(shown);
    };
    // spawn failed (ENOENT, EACCES): nothing was shown.
    child.on('error', () => done(false));
    // The user quit before the end (EPIPE): what was not read is dropped, quietly.
    child.stdin.on('error', ignore);
    child.stdin.end(text);
    child.on('close', (code) => {
      // A shell that found no such command (127) or could not run it (126) showed nothing.
      done(!(shell && (code === 127 || code === 126)));
    });
  });
}
