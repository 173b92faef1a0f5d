// The temporary folders that hold parsed events between the parse and the merge (parse-source.ts),
// and their removal on every way out: a normal end, an exception, process.exit, SIGINT, SIGTERM and
// SIGHUP. What no handler sees (SIGKILL, V8 running out of memory) is removed by the next run: a
// folder's name carries the process id that made it, and a run removes those of processes that are
// gone. A missing, read-only or full temporary folder is a SpillError (one line, exit 2).

import { closeSync, mkdtempSync, openSync, readdirSync, rm, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventWriter, type EventsAsJson } from '../parse/event-binary.js';
import type { RmqEvent } from '../parse/types.js';
import { UsageError } from '../util/errors.js';

const PREFIX = 'rmq-diag-';
/** `rmq-diag-<pid>-XXXXXX`, as spillDir() names them (mkdtemp adds six characters). */
const NAME = /^rmq-diag-(\d+)-[A-Za-z0-9]{6}$/;
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

class SpillError extends UsageError {}

const live = new Set<string>();
let hooked = false;

/** Errors that mean the temporary folder cannot take our files (not a bug of ours). */
const TEMP_TROUBLE = new Set(['ENOENT', 'ENOTDIR', 'EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EDQUOT', 'EFBIG', 'EMFILE', 'ENFILE']);

const WORDS: Record<string, string> = {
  ENOENT: 'it does not exist',
  ENOTDIR: 'it is not a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'file size limit exceeded',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files',
};

/** The error as a SpillError when it is trouble with the temporary folder, else null. */
export function spillErrorOf(code: string | undefined, where = tmpdir()): SpillError | null {
  if (!code || !TEMP_TROUBLE.has(code)) return null;
  return new SpillError(`cannot write temporary files in ${where} (${WORDS[code] ?? code}); set TMPDIR to a folder with room`);
}

/** A new spill folder (under the OS temporary folder by default), removed on every way out of the process. */
export function createSpillDir(parent = tmpdir()): string {
  removeDeadSpills(parent);
  let dir: string;
  try {
    dir = mkdtempSync(join(parent, `${PREFIX}${process.pid}-`));
  } catch (e) {
    throw spillErrorOf((e as NodeJS.ErrnoException).code, parent) ?? e;
  }
  live.add(dir);
  hook();
  return dir;
}

export function removeSpillDir(dir: string): void {
  live.delete(dir);
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    // already gone, or the folder went read-only: nothing more to do
  }
}

/**
 * removeSpillDir in the background (the thread pool unlinks: removing large files takes a while on
 * a file system that discards their blocks). Until it is gone, the exit hooks still remove it.
 */
export function removeSpillDirSoon(dir: string): void {
  rm(dir, { recursive: true, force: true }, () => live.delete(dir));
}

function removeAll(): void {
  for (const dir of [...live]) removeSpillDir(dir);
}

function hook(): void {
  if (hooked) return;
  hooked = true;
  // 'exit' runs on a normal end, process.exit() and an uncaught exception; only sync work is possible there.
  process.on('exit', removeAll);
  for (const sig of SIGNALS) {
    const onSignal = (): void => {
      removeAll();
      process.removeListener(sig, onSignal);
      // Die of the signal as if no handler had been installed (a shell sees 130 for SIGINT), unless
      // someone else handles it.
      if (process.listenerCount(sig) === 0) process.kill(process.pid, sig);
    };
    process.on(sig, onSignal);
  }
}

/** Spill folders of runs whose process is gone (killed with SIGKILL, out of memory). */
function removeDeadSpills(parent: string): void {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return; // createSpillDir reports a missing folder
  }
  for (const name of names) {
    if (!name.startsWith(PREFIX)) continue;
    const m = NAME.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid === process.pid || alive(pid)) continue;
    try {
      rmSync(join(parent, name), { recursive: true, force: true });
    } catch {
      // another user's, or in use: leave it
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Events a source holds before they go to its spill file (tests set fewer)... */
export const SPILL_EVENTS = 1 << 16;
/** ...or this many bytes of them, whichever comes first (long route dumps). */
export const SPILL_BYTES = 256 << 10;

/**
 * One source's events in order, in the binary form (src/parse/event-binary.ts): the latest ones
 * held, the earlier ones appended to a spill file once `maxEvents` or `maxBytes` of them are held
 * (a worker's heap is small, and 500 route dumps of 200 brokers are about 20 MB). At close, what
 * never went to a file is the `tail`. The merge reads the file, then the tail (merge.ts, SourceCursor).
 */
export class SpillWriter {
  private readonly events: EventWriter;
  /** The spill file, once anything went to it. */
  path: string | null = null;
  /** After close(): the events held, when none went to a file. */
  tail: Buffer | null = null;
  private fd = -1;

  constructor(
    private readonly file: string,
    private readonly maxEvents = SPILL_EVENTS,
    private readonly maxBytes = SPILL_BYTES,
    asJson: EventsAsJson = false,
  ) {
    this.events = new EventWriter(64 << 10, asJson);
  }

  add(e: RmqEvent): void {
    this.events.add(e);
    this.held();
  }

  /** An `other` event as the place of its line in its file (EventWriter.addLine). */
  addLine(e: RmqEvent, byteAt: number): void {
    this.events.addLine(e, byteAt);
    this.held();
  }

  /** An event as its JSON text (encodeEvent's). */
  addEncoded(ts: number | null, type: string, json: string): void {
    this.events.addEncoded(ts, type, json);
    this.held();
  }

  private held(): void {
    const w = this.events;
    if (w.count >= this.maxEvents || w.size >= this.maxBytes) this.flush();
  }

  /** The held events to the file, which it opens the first time. */
  flush(): void {
    const w = this.events;
    if (w.size === 0) return;
    if (this.fd < 0) this.fd = openSync((this.path = this.file), 'w');
    const bytes = w.peek();
    for (let at = 0; at < bytes.length; ) at += writeSync(this.fd, bytes, at);
    w.clear();
  }

  /** Done: once a file was started everything goes to it, else the events stay held as the tail. */
  close(): void {
    if (this.path !== null) this.flush();
    else if (this.events.size > 0) this.tail = this.events.take();
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }
}
