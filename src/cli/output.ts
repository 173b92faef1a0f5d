// Where a report goes: stdout, or the one file `-o FILE` names. That file is created or replaced
// (as `> FILE` would), and nothing else is written: no temporary file beside it, no folder. What may
// be written is decided for every output in src/ingest/output-safety.ts (no FIFO or device but
// /dev/null, no input of the run, nothing inside an input folder); here the commands name theirs.

import { clashOf, fileRefusal, folderRefusal, OutputRefused, runInputs, stdoutRefusal, writeOutputFile, type RunInputs } from '../ingest/output-safety.js';
import { patternFileOf } from '../parse/pattern.js';
import { UsageError } from '../util/errors.js';
import { BufferedOut } from '../report/buffered.js';
import { runPager, type PagerCommand } from './pager.js';
import { STDIN_ARG, type CliIo } from './result.js';

/** Formats an output file's extension names: `-o report.html` is HTML unless --format or --json says otherwise. */
const FORMAT_OF_EXTENSION: Record<string, string> = { html: 'html', htm: 'html', json: 'json', md: 'markdown', markdown: 'markdown' };

/**
 * The report format `-o FILE`'s extension names, when the command has that format (one of
 * `formats`); undefined otherwise (then text). Only for a run that names no format itself.
 */
export function formatOfName(path: string | undefined, formats: readonly string[]): string | undefined {
  if (path === undefined || path === '-') return undefined;
  const ext = /\.([A-Za-z]+)$/.exec(path)?.[1].toLowerCase();
  const format = ext !== undefined ? FORMAT_OF_EXTENSION[ext] : undefined;
  return format !== undefined && formats.includes(format) ? format : undefined;
}

/**
 * The stream the report's colour and width are chosen for: stdout, or for `-o FILE` a file (no
 * colour unless --color always, 80 columns or $COLUMNS), whatever stdout is.
 */
export function reportStream(io: CliIo, path: string | undefined): { isTTY?: boolean; columns?: number } {
  return path === undefined || path === '-' ? io.stdout : { isTTY: false };
}

/** What a run was given to read: its paths (STDIN_ARG for stdin) and --pattern values. */
export interface GivenInputs {
  paths: readonly string[];
  pattern?: readonly string[];
}

/** The run's inputs from its arguments as given (the config files --pattern names too) and the files it read. */
export function inputsOfRun(given: GivenInputs, read: readonly string[] = []): RunInputs {
  const configs = (given.pattern ?? []).map(patternFileOf).filter((p): p is string => p !== null);
  return runInputs([...given.paths.map((p) => (p === STDIN_ARG ? '-' : p)), ...configs], read);
}

/**
 * Refuses an output before any input is read (a typo must not cost a read of a large incident):
 * `-o` and `--save-scenario` are FILEs, `--emit-logs` a DIR. Checked against the inputs as named
 * (stdin's file, the files and folders given, --pattern's config files); with `read`, also against
 * the files found in folders and by globs, which are checked again when written. With `io`, stdout
 * too when the report goes there (no `-o FILE`).
 */
export function checkOutputs(named: GivenInputs, outputs: Array<[option: string, path: string | undefined, kind: 'file' | 'folder']>, read: readonly string[] = [], io?: CliIo): void {
  const inputs = inputsOfRun(named, read);
  const report = outputs.find(([option]) => option === '-o');
  if (io && (report === undefined || report[1] === undefined || report[1] === '-')) checkStdout(io, inputs);
  const given = outputs.filter(([option, path]) => path !== undefined && !(option === '-o' && path === '-')) as Array<[string, string, 'file' | 'folder']>;
  for (const [option, path, kind] of given) {
    const why = kind === 'file' ? fileRefusal(path, inputs) : folderRefusal(path, inputs);
    if (why) throw new UsageError(`${option} ${path}: ${why}`);
  }
  // One output never writes over another (`-o s.json --save-scenario s.json`).
  for (let i = 0; i < given.length; i++) {
    for (let j = i + 1; j < given.length; j++) {
      const clash = clashOf({ path: given[i][1], kind: given[i][2] }, { path: given[j][1], kind: given[j][2] });
      if (clash) throw new UsageError(`${given[i][0]} ${given[i][1]} and ${given[j][0]} ${given[j][1]}: ${clash}; give each output its own place`);
    }
  }
}

/**
 * Refuses a stdout redirected onto an input of the run that holds data (`>> F`; src/ingest/output-safety.ts).
 * Only this process's stdout: a test's stream is no file.
 */
export function checkStdout(io: CliIo, inputs: RunInputs): void {
  if (io.stdout !== process.stdout) return;
  const why = stdoutRefusal(inputs);
  if (why) throw new UsageError(why);
}

/** Writes an output FILE (`-o`, `--save-scenario`); a refusal or a failed write is one usage error. */
export function writeOutput(option: string, path: string, text: string, inputs: RunInputs): void {
  try {
    writeOutputFile(path, text, inputs);
  } catch (e) {
    if (e instanceof OutputRefused || typeof (e as NodeJS.ErrnoException).code === 'string') throw new UsageError(`${option} ${path}: ${(e as Error).message}`);
    throw e;
  }
}

/**
 * The report to stdout (honouring backpressure), through the pager when one is given (src/cli/pager.ts;
 * printed directly when it cannot be started), or to the file `-o` names.
 */
export async function writeReport(text: string, io: CliIo, path: string | undefined, inputs: RunInputs, pager: PagerCommand | null = null): Promise<void> {
  if (path === undefined || path === '-') checkStdout(io, inputs);
  if (pager && (path === undefined || path === '-') && (await runPager(text, pager, io.env))) return;
  if (path === undefined || path === '-') {
    const buf = new BufferedOut(io.stdout);
    buf.push(text);
    await buf.flush();
    return;
  }
  writeOutput('-o', path, text, inputs);
}
