// Where a report goes: stdout, or the one file `-o FILE` names. That file is created or replaced
// (as `> FILE` would), and nothing else is written: no temporary file beside it, no folder. A folder,
// or a file the run read, is refused before anything is written.

import { statSync, writeFileSync } from 'node:fs';
import { UsageError } from '../util/errors.js';
import { BufferedOut } from '../report/buffered.js';
import { runPager, type PagerCommand } from './pager.js';
import type { CliIo } from './result.js';

/** True when `path` is one of the files the run read (the same file, whatever the name or link). */
export function isInput(path: string, inputs: readonly string[]): boolean {
  let target;
  try {
    target = statSync(path);
  } catch {
    return false;
  }
  return inputs.some((p) => {
    try {
      const s = statSync(p);
      return s.dev === target.dev && s.ino === target.ino;
    } catch {
      return false;
    }
  });
}

/** Refuses an `-o` target that is a folder or an input of the run (before the report is built). */
export function checkOutput(path: string | undefined, inputs: readonly string[]): void {
  if (path === undefined || path === '-') return;
  let isDir = false;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    // A new file.
  }
  if (isDir || path.endsWith('/')) throw new UsageError(`-o ${path}: a folder; name the file to write`);
  if (isInput(path, inputs)) throw new UsageError(`-o ${path}: an input of this run is never written over`);
}

/**
 * The report to stdout (honouring backpressure), through the pager when one is given (src/cli/pager.ts;
 * printed directly when it cannot be started), or to the file `-o` names.
 */
export async function writeReport(text: string, io: CliIo, path: string | undefined, inputs: readonly string[], pager: PagerCommand | null = null): Promise<void> {
  if (pager && (path === undefined || path === '-') && (await runPager(text, pager, io.env))) return;
  if (path === undefined || path === '-') {
    const buf = new BufferedOut(io.stdout);
    buf.push(text);
    await buf.flush();
    return;
  }
  checkOutput(path, inputs);
  try {
    writeFileSync(path, text);
  } catch (e) {
    throw new UsageError(`-o ${path}: ${(e as Error).message}`);
  }
}
