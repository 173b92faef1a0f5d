// Turning command-line inputs into an ordered list of log sources.
//
// Inputs are files, folders (walked recursively), globs and '-' (stdin). Every source gets a host,
// a kind hint from its file name, a rotation group and a rotation number, and the list comes back
// sorted by host, then group, then oldest to newest, so that a rotated set reads as one log.
//
// Decisions (the rules, in one place):
//
// Inputs
// - An argument that exists is taken literally, even if it contains glob characters. Otherwise, if it
//   has glob syntax (see glob.ts), it is expanded by walking from its static prefix; else it is a
//   missing path ("no such file or directory: X"). A glob that matches nothing is an issue too.
// - A folder a glob matches is walked like a folder argument (with the walk's log-name filter;
//   the glob itself does not descend into it), with the glob's static prefix as the input folder
//   for the host rule: `incident/host*` gives hosts hostA, hostB. Files a glob matches count as
//   named.
// - Files named on the command line (or matched by a glob) are always included, whatever their
//   name. Named FIFOs and character devices (e.g. `<(zcat x.gz)`) are accepted too.
// - A folder walk follows symbolic links but never enters a directory twice (visited real paths
//   are tracked across all inputs), so symlink loops terminate. A broken symlink is an issue.
//   The walk skips version-control and packaging folders (.git .svn .hg node_modules __MACOSX).
// - In a walk, a file is included when its name looks like a log: *.log, *.log.N, *.log.N.gz,
//   *.log.YYYY-MM-DD, *.gz (but not *.tar.gz / *.tgz), *.txt, *.out, or no extension at all.
//   Skipped: hidden files without a log extension (.DS_Store, ._AppleDouble), RocketMQ store
//   files (20-digit names, checkpoint, abort, lock) and everything with another extension
//   (.jar .class .json .xml .properties .md, images, archives, ...).
// - The same file reached twice (same real path) is read once; the first input that reached it wins.
// - `gz` is decided by the magic bytes 1f 8b, read from the file; a file that cannot be opened is
//   an issue ("permission denied: X") and is dropped. FIFOs are not sniffed (gz=false); the reader
//   detects gzip by magic bytes anyway.
//
// Host ("generic" folder names: rocketmqlogs, logs, log, otherdays, other_days, case-insensitive)
// - File found by walking input folder F: the first folder of its path below F, unless that folder
//   is generic or the file sits directly in F; then the host comes from F itself.
// - Host from a folder (F, or the parent folder of a named file): its name, unless it is generic;
//   then go up until a non-generic name (so rocketmqlogs/otherdays/x.log.gz and rocketmqlogs/x.log
//   of the same machine get the same host). If every folder up to the root is generic, the nearest
//   folder name is used.
// - stdin: host '-'.
// - `--host GLOB=NAME` and `--kind GLOB=KIND`: GLOB is matched against the display path and the
//   absolute path; a GLOB without '/' is also matched against the file name. First match wins.
//   --kind sets kindForced; an unknown KIND is a UsageError listing the valid kinds.
//
// Rotation groups
// - group = `${host}/${subdirs}${baseName}`: baseName is the live file name the rotated name
//   belongs to (rotation suffixes and .gz removed). subdirs are the folders between the host folder
//   and the file with generic names removed. It is empty in the usual layouts, so
//   `hostA/rocketmqlogs/rocketmq_client.log` and `hostA/rocketmqlogs/other_days/rocketmq_client-1.log.gz`
//   share the group `hostA/rocketmq_client.log`. It is kept so that two brokers with isolated log
//   folders on one host do not mix (4.x `otherdays/brokerA_0/broker.1.log.gz`, 5.x
//   `brokerA_0/otherdays/broker.1.log.gz` and live `brokerA_0/broker.log` all end up in
//   `hostA/brokerA_0/broker.log`).
//
// Rotated name patterns (checked on the file name, case-insensitive, first match wins):
//
//   | name                              | base     | rotation (higher = older)   | who writes it                  |
//   |-----------------------------------|----------|-----------------------------|--------------------------------|
//   | X.log                             | X.log    | 0 (live)                    | everyone                       |
//   | X-YYYY-MM-DD-N.log[.gz]           | X.log    | by date, then N (see below) | log4j2 client 4.0-4.2 (%d-%i)  |
//   | X-YYYY-MM-DD.log[.gz]             | X.log    | by date                     | log4j2 daily                   |
//   | X.log.YYYY-MM-DD[.gz]             | X.log    | by date                     | log4j DailyRollingFileAppender |
//   | X.log.N[.gz]                      | X.log    | N  (.1 newest)              | client 4.3-5.0, log4j, generic |
//   | X.N.log.gz                        | X.log    | N  (.1 newest)              | broker/namesrv otherdays       |
//   | X-N.log.gz                        | X.log    | N  (-1 newest)              | client 5.1+ other_days         |
//   | X.N.log, X-N.log (no .gz)         | X.log    | N, only inside otherdays/   | client 4.0-4.2 logback, pop.log|
//   |                                   |          | or other_days/, else literal|                                |
//   | X.gz (none of the above)          | X        | as X                        | a gzipped copy                 |
//   | anything else                     | the name | 0                           |                                |
//
//   Dated names: older date = older; within one date a higher N is newer (log4j2's %i counts up).
//   They are ranked after grouping and get rotations above every numeric rotation of the group
//   (newest dated = max N + 1), since the two schemes never share a live file in practice.
//
// Order of the returned list: host, then group (natural order: host2 < host10), then rotation
// descending (oldest first, live file last), then display path. stdin sorts as host '-'.
//
// Kind from name (on the base name, case-insensitive): rocketmq_client* -> client; broker.log and
// broker_default* -> broker; namesrv* -> namesrv; remoting* -> remoting; store* (incl. storeerror)
// -> store; watermark* -> watermark; stats* -> stats; anything else -> null (content decides).

import { constants as fsConstants } from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { UsageError } from '../util/errors.js';
import { SOURCE_KINDS, type SourceKind } from './kinds.js';
import { globMatch, globToRegExp, hasGlobMagic, maxDepth, splitStaticPrefix } from './glob.js';

export interface SourceSpec {
  /** absolute path, or '-' for stdin */
  path: string;
  /** the path as the user would recognise it: relative to cwd if under cwd, else absolute; '-' for stdin */
  display: string;
  host: string;
  /** from the file name (null when the name says nothing); content confirms later */
  kindHint: SourceKind | null;
  /** true when set by a --kind override */
  kindForced: boolean;
  /** by magic bytes 1f 8b, not by the extension */
  gz: boolean;
  /** rotation group key: host + dir-independent base log name, e.g. 'hostA/rocketmq_client.log' */
  group: string;
  /** order within the group: higher = older; live file = 0 */
  rotation: number;
  /**
   * The input folder whose first folder below named the host (`data/host-1` for
   * `data/host-1/order-service/app.log`: host `order-service`); absent when the host came from the
   * input folder itself, a file's own folder, or an override.
   */
  hostBelow?: string;
}

export interface InputIssue {
  file: string;
  line: number | null;
  /** one line, user-facing, no stack */
  message: string;
}

interface ResolveOptions {
  kind?: Array<[glob: string, kind: SourceKind]>;
  host?: Array<[glob: string, name: string]>;
  cwd?: string;
}

const GENERIC_DIRS = new Set(['rocketmqlogs', 'logs', 'log', 'otherdays', 'other_days']);
const ROLLED_DIRS = new Set(['otherdays', 'other_days']);
const SKIP_DIRS = new Set(['.git', '.svn', '.hg', 'node_modules', '__macosx']);
const STORE_FILES = new Set(['checkpoint', 'abort', 'lock']);

function isGeneric(name: string): boolean {
  return GENERIC_DIRS.has(name.toLowerCase());
}

// ---------------------------------------------------------------------------------------------
// Names

interface NameInfo {
  base: string;
  rotation: number;
  dated: { date: string; index: number } | null;
}

/** Map a (possibly rotated) file name to its live base name and rotation. See the table above. */
export function parseRotatedName(fileName: string, inRolledDir = false): NameInfo {
  let s = fileName;
  let gz = false;
  if (/\.gz$/i.test(s) && s.length > 3) {
    s = s.slice(0, -3);
    gz = true;
  }
  let m: RegExpMatchArray | null;
  if ((m = s.match(/^(.+)-(\d{4}-\d{2}-\d{2})-(\d+)\.log$/i))) {
    return { base: `${m[1]}.log`, rotation: 0, dated: { date: m[2], index: Number(m[3]) } };
  }
  if ((m = s.match(/^(.+)-(\d{4}-\d{2}-\d{2})\.log$/i))) {
    return { base: `${m[1]}.log`, rotation: 0, dated: { date: m[2], index: 0 } };
  }
  if ((m = s.match(/^(.+\.log)\.(\d{4}-\d{2}-\d{2})$/i))) {
    return { base: m[1], rotation: 0, dated: { date: m[2], index: 0 } };
  }
  if ((m = s.match(/^(.+\.log)\.(\d+)$/i))) {
    return { base: m[1], rotation: Number(m[2]), dated: null };
  }
  if (gz || inRolledDir) {
    if ((m = s.match(/^(.+)[.-](\d+)\.log$/i))) {
      return { base: `${m[1]}.log`, rotation: Number(m[2]), dated: null };
    }
  }
  return { base: s, rotation: 0, dated: null };
}

/** Kind of log from the file name alone, or null when the name says nothing. */
export function kindFromName(fileName: string): SourceKind | null {
  const name = fileName.split(/[\\/]/).pop() ?? fileName;
  const base = parseRotatedName(name, true).base.toLowerCase();
  const stem = base.replace(/\.(log|txt|out)$/, '');
  if (stem.startsWith('rocketmq_client')) return 'client';
  if (stem === 'broker' || stem.startsWith('broker_default')) return 'broker';
  if (stem.startsWith('namesrv')) return 'namesrv';
  if (stem.startsWith('remoting')) return 'remoting';
  if (stem.startsWith('store')) return 'store';
  if (stem.startsWith('watermark')) return 'watermark';
  if (stem.startsWith('stats')) return 'stats';
  return null;
}

/** Does a file found in a folder walk look like a log? (Named files are always taken.) */
export function looksLikeLog(fileName: string): boolean {
  const lower = fileName.toLowerCase();
  if (/\.(tar\.gz|tgz)$/.test(lower)) return false;
  if (/\.(log|txt|out|gz)$/.test(lower)) return true;
  if (/\.log\.(\d+|\d{4}-\d{2}-\d{2})$/.test(lower)) return true;
  if (lower.startsWith('.')) return false; // hidden, no log extension: .DS_Store, ._x (AppleDouble)
  if (/^\d{20}$/.test(lower) || STORE_FILES.has(lower)) return false; // RocketMQ store files
  return !lower.includes('.');
}

/** 'GLOB=VALUE' -> [GLOB, VALUE]. The last '=' separates, so a glob may itself contain '='. */
export function parseOverride(spec: string): [string, string] {
  const eq = spec.lastIndexOf('=');
  if (eq < 0) throw new UsageError(`expected GLOB=VALUE, got '${spec}' (no '=')`);
  const glob = spec.slice(0, eq);
  const value = spec.slice(eq + 1).trim();
  if (glob.trim() === '') throw new UsageError(`expected GLOB=VALUE, got '${spec}' (empty GLOB)`);
  if (value === '') throw new UsageError(`expected GLOB=VALUE, got '${spec}' (empty VALUE)`);
  return [glob, value];
}

/**
 * For events files meant to be merged with other machines' (`events --format events`): the input
 * folders whose first folders below named hosts, and those hosts. Run on one machine over its log
 * folder, the rule names its applications' folders as hosts (`order-service`), the same names on
 * every machine, which the merge then takes for one host (one such folder as much as several).
 */
export function hostsNamedBelow(sources: readonly SourceSpec[]): Array<{ folder: string; hosts: string[] }> {
  const byFolder = new Map<string, Set<string>>();
  for (const s of sources) {
    if (s.hostBelow === undefined) continue;
    let hosts = byFolder.get(s.hostBelow);
    if (hosts === undefined) byFolder.set(s.hostBelow, (hosts = new Set()));
    hosts.add(s.host);
  }
  return [...byFolder].map(([folder, hosts]) => ({ folder, hosts: [...hosts].sort(naturalCompare) }));
}

// ---------------------------------------------------------------------------------------------
// Paths

function toPosix(p: string): string {
  return path.sep === '/' ? p : p.split(path.sep).join('/');
}

function displayOf(abs: string, cwd: string): string {
  const rel = path.relative(cwd, abs);
  if (rel === '') return '.';
  if (rel === '..' || rel.startsWith('..' + path.sep) || path.isAbsolute(rel)) return toPosix(abs);
  return toPosix(rel);
}

/** Host from a folder: its name, or the first non-generic ancestor's name. */
function hostFromDir(dir: string): string {
  let d = path.resolve(dir);
  const nearest = path.basename(d);
  for (;;) {
    const name = path.basename(d);
    if (name === '') return nearest || 'localhost';
    if (!isGeneric(name)) return name;
    const up = path.dirname(d);
    if (up === d) return nearest || 'localhost';
    d = up;
  }
}

function naturalCompare(a: string, b: string): number {
  const re = /(\d+)|(\D+)/g;
  const pa = a.match(re) ?? [];
  const pb = b.match(re) ?? [];
  const n = Math.min(pa.length, pb.length);
  for (let i = 0; i < n; i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === y) continue;
    const dx = /^\d/.test(x);
    const dy = /^\d/.test(y);
    if (dx && dy) {
      const nx = BigInt(x);
      const ny = BigInt(y);
      if (nx !== ny) return nx < ny ? -1 : 1;
      if (x.length !== y.length) return x.length < y.length ? -1 : 1;
      continue;
    }
    return x < y ? -1 : 1;
  }
  return pa.length - pb.length;
}

// ---------------------------------------------------------------------------------------------
// Resolution

interface Candidate {
  abs: string;
  real: string;
  /** the input folder a walk found this file under (for the host rule), or null when named directly */
  walkRoot: string | null;
  special: boolean; // FIFO / character device: not sniffed
}

interface Ctx {
  cwd: string;
  issues: InputIssue[];
  visitedDirs: Set<string>;
  byReal: Map<string, Candidate>;
  order: Candidate[];
  /** Log files met by folder walks, including ones already listed by another input. */
  logFilesSeen: number;
}

/** A one-line, user-facing message for a file-system error on `display`. */
export function fsErrorMessage(err: unknown, display: string): string {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  switch (code) {
    case 'ENOENT':
      return `no such file or directory: ${display}`;
    case 'EACCES':
    case 'EPERM':
      return `permission denied: ${display}`;
    case 'ELOOP':
      return `too many levels of symbolic links: ${display}`;
    case 'ENOTDIR':
      return `not a directory: ${display}`;
    case 'EISDIR':
      return `is a directory: ${display}`;
    default: {
      const msg = err instanceof Error ? err.message.split('\n')[0] : String(err);
      return `cannot read ${display}: ${msg}`;
    }
  }
}

/** The real path, or null after recording why it could not be had. */
async function realpathOrIssue(abs: string, ctx: Ctx): Promise<string | null> {
  try {
    return await fsp.realpath(abs);
  } catch (err) {
    const d = displayOf(abs, ctx.cwd);
    ctx.issues.push({ file: d, line: null, message: fsErrorMessage(err, d) });
    return null;
  }
}

function addCandidate(ctx: Ctx, c: Candidate): void {
  if (ctx.byReal.has(c.real)) return;
  ctx.byReal.set(c.real, c);
  ctx.order.push(c);
}

async function walkFolder(ctx: Ctx, root: string, hostRoot: string = root): Promise<void> {
  let rootReal: string;
  try {
    rootReal = await fsp.realpath(root);
  } catch (err) {
    ctx.issues.push({ file: displayOf(root, ctx.cwd), line: null, message: fsErrorMessage(err, displayOf(root, ctx.cwd)) });
    return;
  }
  if (ctx.visitedDirs.has(rootReal)) return;
  ctx.visitedDirs.add(rootReal);
  const stack: string[] = [root];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch (err) {
      const d = displayOf(dir, ctx.cwd);
      ctx.issues.push({ file: d, line: null, message: fsErrorMessage(err, d) });
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: string[] = [];
    for (const e of entries) {
      const abs = path.join(dir, e.name);
      let isDir = e.isDirectory();
      let isFile = e.isFile();
      if (e.isSymbolicLink()) {
        try {
          const st = await fsp.stat(abs);
          isDir = st.isDirectory();
          isFile = st.isFile();
        } catch (err) {
          const d = displayOf(abs, ctx.cwd);
          const code = (err as NodeJS.ErrnoException).code;
          ctx.issues.push({
            file: d,
            line: null,
            message: code === 'ENOENT' ? `broken symbolic link: ${d}` : fsErrorMessage(err, d),
          });
          continue;
        }
      }
      if (isDir) {
        if (SKIP_DIRS.has(e.name.toLowerCase())) continue;
        const real = await realpathOrIssue(abs, ctx);
        if (real === null) continue;
        if (ctx.visitedDirs.has(real)) continue;
        ctx.visitedDirs.add(real);
        subdirs.push(abs);
      } else if (isFile && looksLikeLog(e.name)) {
        const real = await realpathOrIssue(abs, ctx);
        if (real === null) continue;
        ctx.logFilesSeen++;
        addCandidate(ctx, { abs, real, walkRoot: hostRoot, special: false });
      }
    }
    // depth-first, in name order
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]);
  }
}

async function addNamed(ctx: Ctx, abs: string, display: string): Promise<void> {
  let st: import('node:fs').Stats;
  try {
    st = await fsp.stat(abs);
  } catch (err) {
    ctx.issues.push({ file: display, line: null, message: fsErrorMessage(err, display) });
    return;
  }
  if (st.isDirectory()) {
    // A folder already walked as part of another input is not empty.
    const walked = ctx.visitedDirs.has(await fsp.realpath(abs).catch(() => abs));
    const before = ctx.logFilesSeen;
    await walkFolder(ctx, abs);
    if (!walked && ctx.logFilesSeen === before) {
      ctx.issues.push({ file: display, line: null, message: `no log files in folder: ${display}` });
    }
    return;
  }
  const special = st.isFIFO() || st.isCharacterDevice();
  if (!st.isFile() && !special) {
    ctx.issues.push({ file: display, line: null, message: `not a regular file: ${display}` });
    return;
  }
  let real = abs;
  try {
    real = await fsp.realpath(abs);
  } catch {
    // keep abs
  }
  addCandidate(ctx, { abs, real, walkRoot: null, special });
}

async function expandGlob(ctx: Ctx, arg: string): Promise<void> {
  const absPattern = toPosix(path.resolve(ctx.cwd, arg));
  const { prefix, rest } = splitStaticPrefix(absPattern);
  const re = globToRegExp(rest);
  const depthLimit = maxDepth(rest);
  const matchedFiles: string[] = [];
  const matchedDirs: string[] = [];
  const seen = new Set<string>();
  try {
    const rootReal = await fsp.realpath(prefix);
    seen.add(rootReal);
  } catch {
    ctx.issues.push({ file: arg, line: null, message: `no files match: ${arg}` });
    return;
  }
  // Breadth-first over (dir, relative path, depth).
  const queue: Array<[string, string, number]> = [[prefix, '', 0]];
  while (queue.length > 0) {
    const [dir, rel, depth] = queue.shift()!;
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const abs = path.join(dir, e.name);
      const relPath = rel === '' ? e.name : `${rel}/${e.name}`;
      let isDir = e.isDirectory();
      let isFile = e.isFile() || e.isFIFO() || e.isCharacterDevice();
      if (e.isSymbolicLink()) {
        try {
          const st = await fsp.stat(abs);
          isDir = st.isDirectory();
          isFile = st.isFile() || st.isFIFO();
        } catch {
          continue;
        }
      }
      const matches = re.test(relPath);
      if (isDir) {
        if (matches) {
          matchedDirs.push(abs);
          continue; // walked as a folder; no need to descend for the glob
        }
        if (depth + 1 < depthLimit) {
          let real: string;
          try {
            real = await fsp.realpath(abs);
          } catch {
            continue;
          }
          if (seen.has(real)) continue;
          seen.add(real);
          queue.push([abs, relPath, depth + 1]);
        }
      } else if (isFile && matches) {
        matchedFiles.push(abs);
      }
    }
  }
  if (matchedFiles.length === 0 && matchedDirs.length === 0) {
    ctx.issues.push({ file: arg, line: null, message: `no files match: ${arg}` });
    return;
  }
  for (const f of matchedFiles) await addNamed(ctx, f, displayOf(f, ctx.cwd));
  for (const d of matchedDirs) await walkFolder(ctx, d, prefix);
}

async function sniffGz(abs: string): Promise<boolean> {
  const fh = await fsp.open(abs, fsConstants.O_RDONLY);
  try {
    const buf = Buffer.alloc(2);
    const { bytesRead } = await fh.read(buf, 0, 2, 0);
    return bytesRead === 2 && buf[0] === 0x1f && buf[1] === 0x8b;
  } finally {
    await fh.close();
  }
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  });
  await Promise.all(workers);
  return out;
}

function matchOverride<T>(list: Array<[string, T]> | undefined, abs: string, display: string): T | undefined {
  if (!list) return undefined;
  for (const [rawGlob, value] of list) {
    const g = rawGlob.startsWith('./') ? rawGlob.slice(2) : rawGlob;
    if (globMatch(g, display) || globMatch(g, toPosix(abs))) return value;
    if (!g.includes('/') && globMatch(g, path.basename(abs))) return value;
  }
  return undefined;
}

function validateOverrides(opts: ResolveOptions): void {
  for (const [glob, kind] of opts.kind ?? []) {
    if (!(SOURCE_KINDS as readonly string[]).includes(kind)) {
      throw new UsageError(`unknown kind '${kind}' in --kind ${glob}=${kind}; valid kinds: ${SOURCE_KINDS.join(', ')}`);
    }
  }
  for (const [glob, name] of opts.host ?? []) {
    if (typeof name !== 'string' || name.trim() === '') {
      throw new UsageError(`empty host name in --host ${glob}=`);
    }
  }
}

/**
 * Resolve command-line inputs to sources, ordered by host, group and oldest-to-newest rotation.
 * Problems with single inputs become issues; only malformed overrides throw (UsageError).
 */
export async function resolveInputs(
  args: string[],
  opts: ResolveOptions = {},
): Promise<{ sources: SourceSpec[]; issues: InputIssue[] }> {
  validateOverrides(opts);
  const cwd = path.resolve(opts.cwd ?? process.cwd());
  const ctx: Ctx = { cwd, issues: [], visitedDirs: new Set(), byReal: new Map(), order: [], logFilesSeen: 0 };
  let stdin = false;

  for (const arg of args) {
    if (arg === '-') {
      stdin = true;
      continue;
    }
    if (arg === '') {
      ctx.issues.push({ file: arg, line: null, message: 'empty path argument' });
      continue;
    }
    const abs = path.resolve(cwd, arg);
    let exists = true;
    try {
      await fsp.lstat(abs);
    } catch {
      exists = false;
    }
    if (exists || !hasGlobMagic(arg)) {
      await addNamed(ctx, abs, exists ? displayOf(abs, cwd) : arg);
    } else {
      await expandGlob(ctx, arg);
    }
  }

  const built = await mapLimit(ctx.order, 16, async (c): Promise<(SourceSpec & { dated: NameInfo['dated'] }) | null> => {
    const display = displayOf(c.abs, cwd);
    let gz = false;
    if (!c.special) {
      try {
        gz = await sniffGz(c.abs);
      } catch (err) {
        ctx.issues.push({ file: display, line: null, message: fsErrorMessage(err, display) });
        return null;
      }
    }
    const name = path.basename(c.abs);
    const parent = path.dirname(c.abs);
    let host: string;
    let hostBelow: string | undefined;
    let subdirs: string[];
    let dirsAbove: string[]; // parent, grandparent names (for the rolled-folder rule)
    if (c.walkRoot !== null) {
      const relDirs = toPosix(path.relative(c.walkRoot, parent)).split('/').filter((s) => s !== '' && s !== '.');
      if (relDirs.length > 0 && !isGeneric(relDirs[0])) {
        host = relDirs[0];
        hostBelow = displayOf(c.walkRoot, cwd);
        subdirs = relDirs.slice(1);
      } else {
        host = hostFromDir(c.walkRoot);
        subdirs = relDirs;
      }
      dirsAbove = [path.basename(parent), path.basename(path.dirname(parent))];
    } else {
      host = hostFromDir(parent);
      subdirs = [];
      dirsAbove = [path.basename(parent), path.basename(path.dirname(parent))];
    }
    const inRolledDir = dirsAbove.some((d) => ROLLED_DIRS.has(d.toLowerCase()));
    const info = parseRotatedName(name, inRolledDir);
    const hostSet = matchOverride(opts.host, c.abs, display);
    if (hostSet !== undefined) {
      host = hostSet;
      hostBelow = undefined;
    }
    const forced = matchOverride(opts.kind, c.abs, display);
    const disc = subdirs.filter((s) => !isGeneric(s));
    return {
      path: c.abs,
      display,
      host,
      kindHint: forced ?? kindFromName(name),
      kindForced: forced !== undefined,
      gz,
      group: `${host}/${disc.length > 0 ? disc.join('/') + '/' : ''}${info.base}`,
      rotation: info.rotation,
      dated: info.dated,
      ...(hostBelow !== undefined ? { hostBelow } : {}),
    };
  });

  const list = built.filter((s): s is NonNullable<typeof s> => s !== null);

  // Rank dated names inside their group, above the group's numeric rotations.
  const byGroup = new Map<string, typeof list>();
  for (const s of list) {
    let g = byGroup.get(s.group);
    if (!g) byGroup.set(s.group, (g = []));
    g.push(s);
  }
  for (const g of byGroup.values()) {
    const dated = g.filter((s) => s.dated !== null);
    if (dated.length === 0) continue;
    const maxNumeric = Math.max(0, ...g.filter((s) => s.dated === null).map((s) => s.rotation));
    dated.sort((a, b) => {
      // newest first: later date, then higher index
      if (a.dated!.date !== b.dated!.date) return a.dated!.date < b.dated!.date ? 1 : -1;
      return b.dated!.index - a.dated!.index;
    });
    dated.forEach((s, i) => (s.rotation = maxNumeric + 1 + i));
  }

  const sources: SourceSpec[] = list.map(({ dated: _dated, ...s }) => s);
  if (stdin) {
    const display = '-';
    const forced = matchOverride(opts.kind, '-', display);
    const host = matchOverride(opts.host, '-', display) ?? '-';
    sources.push({
      path: '-',
      display,
      host,
      kindHint: forced ?? null,
      kindForced: forced !== undefined,
      gz: false,
      group: `${host}/-`,
      rotation: 0,
    });
  }
  sources.sort(
    (a, b) =>
      naturalCompare(a.host, b.host) ||
      naturalCompare(a.group, b.group) ||
      b.rotation - a.rotation ||
      naturalCompare(a.display, b.display),
  );
  return { sources, issues: ctx.issues };
}
