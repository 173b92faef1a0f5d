// `--emit-logs DIR`: the simulated run written as real log files, DIR/<host>/<file>, in the layouts of
// the versions that run there (the 4.x client inner logger with CRLF line ends, the others LF), so
// that `rmq-diag events` and `rmq-diag analyze` read them like collected logs.
//
// What is written stays inside DIR and replaces nothing the user did not give up:
// - DIR must be empty or new; `force` allows a folder with files in it (files of the same names are
//   then replaced). With or without `force`, DIR is never a FIFO or a device, never inside a folder
//   named as an input, never one that holds an input, and no file written is a FIFO, a device or an
//   input of the run (src/ingest/output-safety.ts decides, for every output of rmq-diag).
// - Host names come from the logs or from a scenario file: they are names, not paths. A name that is
//   not a plain file name (`..`, `a/b`, control characters) is written percent-encoded.
// - Nothing is written through a symbolic link inside DIR (DIR itself may be one: the user named it).

import { closeSync, constants, lstatSync, mkdirSync, openSync, readdirSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fileRefusal, folderRefusal, type RunInputs } from '../ingest/output-safety.js';
import type { RunResult } from '../model/index.js';

const INNER_CLIENT = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} /;

/** Why the simulated logs were not written; the message is for the user as is. */
export class EmitError extends Error {}

interface EmitOptions {
  /** Write into a folder that is not empty, replacing files of the same names. */
  force?: boolean;
  /** The run's inputs: never written over, and DIR may not hold one (src/ingest/output-safety.ts). */
  inputs?: RunInputs;
}

/** A host or file name as one safe path component: plain names stay, anything else is %-encoded. */
function safeName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const enc = name.replace(/[%/\\\u0000-\u001f\u007f]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  if (enc === '' || /^\.+$/.test(enc)) return enc.replace(/\./g, '%2E') || '%00';
  return enc;
}

/** Writes every rendered file of the run; returns how many. The run must have been made with keepLines. */
export function emitLogs(run: RunResult, dir: string, o: EmitOptions = {}): number {
  const inputs = o.inputs ?? { files: [], folders: [] };
  checkEmitDir(dir, o.force ?? false, inputs);
  mkdirSync(dir, { recursive: true });
  const logs = run.logs ?? {};
  const files = Object.keys(logs)
    .sort()
    .map((path) => {
      const rel = path.replace(/^sim:/, '');
      const slash = rel.lastIndexOf('/');
      const host = safeName(rel.slice(0, slash));
      const name = safeName(rel.slice(slash + 1));
      return { lines: logs[path], host, name, target: join(dir, host, name) };
    });
  // Everything is checked before the first byte is written.
  for (const f of files) {
    const hostDir = join(dir, f.host);
    if (isLink(hostDir)) throw new EmitError(`${hostDir} is a symbolic link: nothing is written through one`);
    if (isLink(f.target)) throw new EmitError(`${f.target} is a symbolic link: nothing is written through one`);
    const why = fileRefusal(f.target, inputs);
    if (why) throw new EmitError(`${f.target}: ${why}`);
  }
  for (const f of files) {
    mkdirSync(join(dir, f.host), { recursive: true });
    const eol = f.name === 'rocketmq_client.log' && INNER_CLIENT.test(f.lines[0] ?? '') ? '\r\n' : '\n';
    writeNew(f.target, f.lines.length ? f.lines.join(eol) + eol : '', o.force ?? false);
  }
  return files.length;
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * DIR may be new or an empty folder; with `force` any folder, but never one output-safety refuses
 * (inside an input folder, holding an input, a FIFO or a device). Called before the run too, so that
 * a wrong DIR costs no simulation.
 */
export function checkEmitDir(dir: string, force: boolean, inputs: RunInputs): void {
  const why = folderRefusal(dir, inputs);
  // After `--emit-logs DIR: ` (src/cli/replay-run.ts), as the other outputs' refusals.
  if (why) throw new EmitError(why);
  let entries: string[] | null = null;
  try {
    entries = readdirSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new EmitError(`${dir}: ${(e as Error).message}`);
  }
  if (entries === null || force) return;
  if (entries.length) throw new EmitError(`${dir} is not empty (${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}): give an empty or new folder, or --force to replace files of the same names`);
}

/** Creates the file; replaces an existing one only with `force`; never follows a symbolic link. */
function writeNew(path: string, text: string, force: boolean): void {
  // O_NONBLOCK: a FIFO put there after the check fails at once (ENXIO) instead of waiting for a reader.
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK | (force ? constants.O_TRUNC : constants.O_EXCL);
  let fd: number;
  try {
    fd = openSync(path, flags, 0o644);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new EmitError(`${path} exists: it is not written over (--force replaces it)`);
    if (code === 'ELOOP') throw new EmitError(`${path} is a symbolic link: nothing is written through one`);
    throw new EmitError(`${path}: ${(e as Error).message}`);
  }
  try {
    const buf = Buffer.from(text);
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
  } finally {
    closeSync(fd);
  }
}
