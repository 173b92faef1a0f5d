import { spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll } from 'vitest';
// @ts-expect-error plain ESM script, no declarations
import { startHost } from '../../scripts/golden.mjs';
import { main } from '../../src/cli/main.js';

export const ROOT = join(__dirname, '..', '..');

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run the CLI in this process with captured output (not a TTY unless asked). */
export async function run(args: string[], opts: { tty?: boolean; columns?: number; env?: NodeJS.ProcessEnv } = {}): Promise<Run> {
  const out = new PassThrough() as PassThrough & { isTTY?: boolean; columns?: number };
  const err = new PassThrough() as PassThrough & { isTTY?: boolean };
  out.isTTY = opts.tty ?? false;
  out.columns = opts.columns;
  err.isTTY = false;
  let stdout = '';
  let stderr = '';
  out.on('data', (d) => (stdout += d));
  err.on('data', (d) => (stderr += d));
  const code = await main(args, { stdout: out, stderr: err, env: opts.env ?? {} });
  return { code, stdout, stderr };
}

/** Run the built executable (dist/ is built by `npm test`'s pretest). */
export function runBin(args: string[], input?: string | Buffer, env: NodeJS.ProcessEnv = {}): Run {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'rmq-diag.js'), ...args], {
    cwd: ROOT,
    input,
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
    // Whole outputs of large inputs (spawnSync's default of 1 MiB would close the pipe under them).
    maxBuffer: 256 << 20,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

export function ndjson(text: string): Array<Record<string, any>> {
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

export interface SpawnedRun extends Run {
  signal: NodeJS.Signals | null;
}

/**
 * Run the built executable with real pipes. `closeAfter`: close our end of its stdout once that many
 * lines came (what `| head -N` does). `tty`-less, no colour unless env says so.
 */
export function spawnBin(
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; closeAfter?: number; input?: string | Buffer; cwd?: string; stdoutFile?: string } = {},
): Promise<SpawnedRun> {
  return new Promise((resolve, reject) => {
    const fd = opts.stdoutFile !== undefined ? openSync(opts.stdoutFile, 'w') : null;
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'rmq-diag.js'), ...args], {
      cwd: opts.cwd ?? ROOT,
      env: { PATH: process.env.PATH, ...opts.env },
      stdio: ['pipe', fd ?? 'pipe', 'pipe'],
    });
    if (fd !== null) closeSync(fd);
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout?.on('data', (d: string) => {
      stdout += d;
      if (opts.closeAfter !== undefined && stdout.split('\n').length > opts.closeAfter) {
        stdout = stdout.split('\n').slice(0, opts.closeAfter).join('\n') + '\n';
        child.stdout?.destroy();
      }
    });
    child.stdout?.on('error', () => {});
    child.stderr.on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code: code ?? -1, signal, stdout, stderr }));
    child.stdin.on('error', () => {});
    child.stdin.end(opts.input ?? '');
  });
}

/**
 * The built CLI (dist/) as a user's process runs it, without a process per command: its main() in
 * one host process that loads dist/ once (scripts/golden.mjs startHost), commands one after another,
 * each with its own environment (PATH and `env`, as spawnBin gives), working folder (`cwd`, else the
 * repository) and captured stdout and stderr, neither a TTY. For files that run many commands, where
 * starting Node and loading the CLI would cost more than the commands. Call at a test file's top
 * level (the host closes after the file). `timeoutMs`: a command that runs longer is killed with its
 * host (`killed`). What only a process of its own shows (exit codes through process.exitCode, pipes,
 * signals, its own stdin and stdout, help, which yargs writes to the process's stdout) stays with
 * spawnBin; test/golden.test.ts holds the two to the same bytes.
 */
export function useHost(): (args: string[], opts?: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number }) => Promise<Run & { killed?: boolean }> {
  let host: ReturnType<typeof startHost> | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  afterAll(() => host?.close());
  return (args, opts = {}) => {
    const next = queue.then(async () => {
      host ??= startHost(ROOT);
      const h = host;
      // A command past timeoutMs (one that hung) ends its host; the next command starts another.
      let timer: NodeJS.Timeout | undefined;
      let killed = false;
      if (opts.timeoutMs !== undefined) timer = setTimeout(() => ((killed = true), (host = null), h.kill()), opts.timeoutMs);
      const r = (await h.exec(args, { ...opts.env }, opts.cwd ?? null)) as Run;
      clearTimeout(timer);
      return killed ? { ...r, killed } : r;
    });
    queue = next.catch(() => {});
    return next;
  };
}
