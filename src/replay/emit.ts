// `--emit-logs DIR`: the simulated run written as real log files, DIR/<host>/<file>, in the layouts of
// the versions that run there (the 4.x client inner logger with CRLF line ends, the others LF), so
// that `rmq-diag events` and `rmq-diag analyze` read them like collected logs.
//
// What is written stays inside DIR and replaces nothing the user did not give up:
// - DIR must be empty or new; `force` allows a folder with files in it (files of the same names are
//   then replaced), but never one of the run's inputs (the logs it was inferred from, the scenario file).
// - Host names come from the logs or from a scenario file: they are names, not paths. A name that is
//   not a plain file name (`..`, `a/b`, control characters) is written percent-encoded.
// - Nothing is written through a symbolic link inside DIR (DIR itself may be one: the user named it).

import { closeSync, constants, lstatSync, mkdirSync, openSync, readdirSync, realpathSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { RunResult } from '../model/index.js';

const INNER_CLIENT = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} /;

/** Why the simulated logs were not written; the message is for the user as is. */
export class EmitError extends Error {}

interface EmitOptions {
  /** Write into a folder that is not empty, replacing files of the same names. */
  force?: boolean;
  /** Paths of the run's inputs: never written over, and DIR may not hold one unless `force`. */
  inputs?: readonly string[];
}

/** A host or file name as one safe path component: plain names stay, anything else is %-encoded. */
function safeName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const enc = name.replace(/[%/\\\u0000-\u001f\u007f]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  if (enc === '' || /^\.+$/.test(enc)) return enc.replace(/\./g, '%2E') || '%00';
  return enc;
}

interface FileId {
  dev: number;
  ino: number;
}

function idOf(path: string): FileId | null {
  try {
    const s = statSync(path);
    return { dev: s.dev, ino: s.ino };
  } catch {
    return null;
  }
}

/** Writes every rendered file of the run; returns how many. The run must have been made with keepLines. */
export function emitLogs(run: RunResult, dir: string, o: EmitOptions = {}): number {
  const inputs = (o.inputs ?? []).filter((p) => p !== '-').map((p) => ({ path: p, id: idOf(p) }));
  checkEmitDir(dir, o.force ?? false, inputs.map((i) => i.path));
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
    const id = idOf(f.target);
    const input = id && inputs.find((i) => i.id && i.id.dev === id.dev && i.id.ino === id.ino);
    if (input) throw new EmitError(`${f.target} is an input of this run (${input.path}): it is never written over`);
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
 * DIR may be new or an empty folder; with `force` any folder. A folder holding an input needs `force`.
 * Called before the run too, so that a wrong DIR costs no simulation.
 */
export function checkEmitDir(dir: string, force: boolean, inputs: readonly string[]): void {
  let entries: string[] | null = null;
  try {
    if (!statSync(dir).isDirectory()) throw new EmitError(`${dir} is not a folder`);
    entries = readdirSync(dir);
  } catch (e) {
    if (e instanceof EmitError) throw e;
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new EmitError(`${dir}: ${(e as Error).message}`);
  }
  if (entries === null || force) return;
  const real = realpathSync(dir);
  const held = inputs.find((p) => {
    try {
      const r = realpathSync(p);
      return r === real || r.startsWith(real.endsWith('/') ? real : `${real}/`);
    } catch {
      return false;
    }
  });
  if (held) throw new EmitError(`${dir} holds an input of this run (${held}): give an empty or new folder (or --force to write beside it)`);
  if (entries.length) throw new EmitError(`${dir} is not empty (${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}): give an empty or new folder, or --force to replace files of the same names`);
}

/** Creates the file; replaces an existing one only with `force`; never follows a symbolic link. */
function writeNew(path: string, text: string, force: boolean): void {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | (force ? constants.O_TRUNC : constants.O_EXCL);
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
