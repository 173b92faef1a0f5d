// What rmq-diag may write, decided in one place for its three outputs: `-o FILE` (analyze, replay),
// `replay --save-scenario FILE` and `replay --emit-logs DIR`. An output is refused, with or without
// `--force`, when it is:
//
// - a FIFO, a socket, a block device or a character device other than /dev/null. Opening a FIFO for
//   writing waits until a reader opens it (open(2)): without one the run would hang with nothing said.
//   The kind is read with stat before the open, and the open itself is non-blocking (O_NONBLOCK: a
//   FIFO without a reader fails at once with ENXIO), so a FIFO made in between cannot hang it either.
//   /dev/null is allowed: `-o /dev/null` is the usual way to keep only the exit code and the notes.
// - one of the files the run reads, by device and inode (the same file under any name: a symbolic
//   link, a hard link, a file found in an input folder or by a glob, and stdin's file when stdin is
//   redirected from one: `analyze - -o F < F`);
// - inside a folder named as an input (read recursively, so what is written there would be read as
//   part of the incident the next time), or, for a folder, one that holds an input.
//
// Stdout redirected to a file is checked too (stdoutRefusal), as cat(1) does.
//
// The identity of files belongs with the inputs: this module knows what a run reads, the commands
// name the outputs (src/cli/output.ts, src/replay/emit.ts).

import { closeSync, constants, fstatSync, ftruncateSync, lstatSync, openSync, readlinkSync, realpathSync, statSync, writeSync, type Stats } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

interface FileId {
  dev: number;
  ino: number;
}

/** What a run reads, as the outputs are checked against it. */
export interface RunInputs {
  /** Files read (or to be read): `shown` as the user named or the run found them; stdin's file as `stdin`. */
  files: Array<{ shown: string; id: FileId; real: string | null }>;
  /** Folders named as inputs (walked recursively): nothing is written inside one. */
  folders: Array<{ shown: string; real: string }>;
}

/** Why an output is refused; the message is for the user as is, after the option and the path. */
export class OutputRefused extends Error {}

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/**
 * The inputs of a run: `named` as given on the command line ('-' for stdin: its file, when stdin is
 * redirected from one; a folder: its files' folder), `read` the files the run read or will read.
 * A name that does not exist (a glob, a file gone) adds nothing: the files it matched are in `read`.
 */
export function runInputs(named: readonly string[], read: readonly string[] = []): RunInputs {
  const files: RunInputs['files'] = [];
  const folders: RunInputs['folders'] = [];
  const addFile = (shown: string, s: Stats, real: string | null) => {
    if (!files.some((f) => f.id.dev === s.dev && f.id.ino === s.ino)) files.push({ shown, id: { dev: s.dev, ino: s.ino }, real });
  };
  for (const p of named) {
    if (p === '-') {
      let s: Stats | null = null;
      try {
        s = fstatSync(0);
      } catch {
        // No stdin at all.
      }
      if (s?.isFile()) addFile('stdin', s, null);
      continue;
    }
    const s = statOrNull(p);
    if (!s) continue;
    const real = realOrNull(p);
    if (s.isDirectory()) {
      if (real !== null) folders.push({ shown: p, real });
    } else addFile(p, s, real);
  }
  for (const p of read) {
    if (p === '-') continue;
    const s = statOrNull(p);
    if (s) addFile(shownPath(p), s, realOrNull(p));
  }
  return { files, folders };
}

/** A path the run found (absolute) as the user would name it: relative to the working folder when below it. */
function shownPath(p: string): string {
  const rel = relative(process.cwd(), p);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : p;
}

let devNull: number | null | undefined;

/** The device number of /dev/null (null where there is none). */
function devNullRdev(): number | null {
  if (devNull === undefined) devNull = statOrNull('/dev/null')?.rdev ?? null;
  return devNull;
}

/** Why a file of this kind is never written; null for a regular file, a folder and /dev/null. */
function kindRefusal(s: Stats): string | null {
  if (s.isFIFO()) return 'a FIFO (named pipe): outputs are files, and opening a FIFO waits for a reader';
  if (s.isSocket()) return 'a socket: outputs are files (or /dev/null)';
  if (s.isBlockDevice()) return 'a block device: outputs are files (or /dev/null)';
  if (s.isCharacterDevice() && s.rdev !== devNullRdev()) return 'a character device: outputs are files (or /dev/null)';
  return null;
}

function isDevNull(s: Stats): boolean {
  return s.isCharacterDevice() && s.rdev === devNullRdev();
}

function isDevNullPath(path: string): boolean {
  const s = statOrNull(path);
  return s !== null && isDevNull(s);
}

/**
 * Where `path` is or would be created, with symbolic links resolved: its real path when it exists,
 * else the real path of its nearest existing folder joined with the rest (a dangling link followed
 * to what `open(O_CREAT)` would create).
 */
function landingOf(path: string): string {
  let p = resolve(path);
  for (let hops = 0; hops < 40; hops++) {
    const real = realOrNull(p);
    if (real !== null) return real;
    let link = false;
    try {
      link = lstatSync(p).isSymbolicLink();
    } catch {
      // Not there at all.
    }
    if (!link) break;
    p = resolve(dirname(p), readlinkSync(p));
  }
  const rest: string[] = [];
  let dir = p;
  for (;;) {
    const real = realOrNull(dir);
    if (real !== null) return join(real, ...rest.reverse());
    const up = dirname(dir);
    if (up === dir) return p;
    rest.push(basename(dir));
    dir = up;
  }
}

/**
 * Why two outputs of one run may not both be written: the same file, or a file inside the folder
 * another output fills (what --emit-logs --force would replace); null when they are apart.
 */
export function clashOf(a: { path: string; kind: 'file' | 'folder' }, b: { path: string; kind: 'file' | 'folder' }): string | null {
  const la = landingOf(a.path);
  const lb = landingOf(b.path);
  // /dev/null takes any number of outputs: nothing is kept to be written over.
  if (a.kind === 'file' && b.kind === 'file') return la === lb && !isDevNullPath(la) ? 'the same file' : null;
  if (a.kind === 'folder' && b.kind === 'folder') return within(la, lb) || within(lb, la) ? 'the same folder or one inside the other' : null;
  const [file, folder] = a.kind === 'file' ? [la, lb] : [lb, la];
  return within(file, folder) ? 'a file inside the folder' : null;
}

function within(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

/** The input that `s` is (by device and inode), if any. */
function sameAs(s: Stats, inputs: RunInputs): string | null {
  return inputs.files.find((f) => f.id.dev === s.dev && f.id.ino === s.ino)?.shown ?? null;
}

/**
 * Why an output FILE (`-o`, `--save-scenario`, a file `--emit-logs` writes) is refused; null when it
 * may be written. `-o DIR` is refused here too (name the file to write).
 */
export function fileRefusal(path: string, inputs: RunInputs): string | null {
  const s = statOrNull(path);
  if (s) {
    const kind = kindRefusal(s);
    if (kind) return kind;
    if (isDevNull(s)) return null;
    if (s.isDirectory()) return 'a folder; name the file to write';
    const input = sameAs(s, inputs);
    if (input) return `an input of this run is never written over (${input})`;
  } else if (path.endsWith('/')) return 'a folder; name the file to write';
  const at = landingOf(path);
  const folder = inputs.folders.find((f) => within(at, f.real));
  if (folder) return `inside the input folder ${folder.shown}, which is never written into`;
  return null;
}

/**
 * Why an output FOLDER (`--emit-logs DIR`) is refused: not a folder, inside an input folder, or
 * holding an input (a file read, or a folder named as an input); null when it may be written into.
 */
export function folderRefusal(path: string, inputs: RunInputs): string | null {
  const s = statOrNull(path);
  if (s) {
    const kind = kindRefusal(s);
    if (kind) return kind;
    if (!s.isDirectory()) return 'not a folder';
  }
  const at = landingOf(path);
  const folder = inputs.folders.find((f) => within(at, f.real) || within(f.real, at));
  if (folder) {
    return within(at, folder.real)
      ? `inside the input folder ${folder.shown}, which is never written into`
      : `holds the input folder ${folder.shown}: give a folder outside the inputs`;
  }
  const held = inputs.files.find((f) => f.real !== null && within(f.real, at));
  if (held) return `holds an input of this run (${held.shown}): give a folder outside the inputs`;
  return null;
}

/**
 * Why stdout may not be written: it is redirected to a file the run reads, and that file holds
 * data (`rmq-diag events broker.log >> broker.log`: the output would be appended to the log being
 * read), as cat(1) refuses "input file is output file". An empty one (`> F`, which the shell has
 * already emptied before the run starts) is written: nothing of it was read.
 */
export function stdoutRefusal(inputs: RunInputs): string | null {
  let s: Stats;
  try {
    s = fstatSync(1);
  } catch {
    return null;
  }
  if (!s.isFile() || s.size === 0) return null;
  const input = sameAs(s, inputs);
  if (input === null) return null;
  return `stdout is ${input === 'stdin' ? "stdin's file" : input}, an input of this run: it is never written over (redirect stdout elsewhere)`;
}

/**
 * Opens an output FILE for writing after fileRefusal allowed it, and checks again what was opened
 * (a FIFO or an input put there in between): non-blocking, not truncated until then. Returns the fd.
 */
function openChecked(path: string, inputs: RunInputs): number {
  const why = fileRefusal(path, inputs);
  if (why) throw new OutputRefused(why);
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_NONBLOCK | constants.O_NOCTTY, 0o666);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENXIO') throw new OutputRefused(kindRefusal(statSync(path)) ?? (e as Error).message);
    throw e;
  }
  try {
    const s = fstatSync(fd);
    const why2 = kindRefusal(s) ?? (s.isFile() && sameAs(s, inputs) ? `an input of this run is never written over (${sameAs(s, inputs)})` : null);
    if (why2) throw new OutputRefused(why2);
    if (s.isFile()) ftruncateSync(fd, 0);
    return fd;
  } catch (e) {
    closeSync(fd);
    throw e;
  }
}

/**
 * Writes `text` to the output FILE `path` (created, or replaced as `> FILE` would), or throws
 * OutputRefused (nothing written) or the system's error.
 */
export function writeOutputFile(path: string, text: string, inputs: RunInputs): void {
  const fd = openChecked(path, inputs);
  try {
    const buf = Buffer.from(text);
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
  } finally {
    closeSync(fd);
  }
}
