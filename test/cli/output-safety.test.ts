// What rmq-diag never writes (src/ingest/output-safety.ts), for each of its outputs: `-o FILE`
// (analyze, replay), `replay --save-scenario FILE` and `replay --emit-logs DIR`, with and without
// `--force`: a FIFO (which would wait for a reader), a device other than /dev/null, a file of the
// run's inputs (by device and inode: stdin's file, a symbolic or hard link, a file found in a folder
// or by a glob), and a folder of the inputs. Each refusal is one line, exit code 2, and the inputs are
// byte for byte what they were. Through the built CLI: the executable in a child process where the
// process's own stdin or stdout is what is refused, its main() in a host process otherwise (cli()).
// A run that hung on a FIFO is killed after HUNG_MS (far above what a refusal takes) and then fails
// on its exit code, not on a time.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, cpSync, existsSync, linkSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, useHost } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'rmq-diag-outsafe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** A copy of the bundled sample; the runs' working folder is `dir`, so paths are as a user types them. */
const INC = 'inc';
const APP_LOG = 'inc/app-pay-01/app.log';
/** Every file of the copied incident and the scenario, with its digest: compared after each refusal. */
let before: Record<string, string>;

interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

const host = useHost();
/** A run past this is killed (code null): it hung, on a FIFO say. */
const HUNG_MS = 120_000;

/**
 * The CLI in `dir`; stdin from `stdinFile` when given, stdout appended to `appendTo` (`>> F`) when
 * given: then the executable in a process of its own, since what is refused is the process's own
 * stdin or stdout; otherwise its main() in a host process (useHost: far cheaper, the refusals of -o,
 * --save-scenario and --emit-logs look at the paths named, not at the process). A run past HUNG_MS
 * is killed (code null).
 */
async function cli(args: string[], stdinFile?: string, appendTo?: string): Promise<Ran> {
  if (stdinFile === undefined && appendTo === undefined) {
    const r = await host(args, { cwd: dir, timeoutMs: HUNG_MS });
    return { code: r.killed ? null : r.code, signal: r.killed ? 'SIGKILL' : null, stdout: r.stdout, stderr: r.stderr };
  }
  const fd = stdinFile !== undefined ? openSync(join(dir, stdinFile), 'r') : null;
  const out = appendTo !== undefined ? openSync(join(dir, appendTo), 'a') : null;
  try {
    const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'rmq-diag.js'), ...args], {
      cwd: dir,
      env: { PATH: process.env.PATH },
      stdio: [fd ?? 'pipe', out ?? 'pipe', 'pipe'],
      encoding: 'utf8',
      timeout: HUNG_MS,
      maxBuffer: 64 << 20,
    });
    return { code: r.status, signal: r.signal, stdout: r.stdout ?? '', stderr: r.stderr };
  } finally {
    if (fd !== null) closeSync(fd);
    if (out !== null) closeSync(out);
  }
}

function digest(): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(join(dir, d), { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out[p] = createHash('sha1').update(readFileSync(join(dir, p))).digest('hex');
    }
  };
  walk(INC);
  if (existsSync(join(dir, 'ev'))) walk('ev');
  out['s.json'] = createHash('sha1').update(readFileSync(join(dir, 's.json'))).digest('hex');
  out['stdin.log'] = createHash('sha1').update(readFileSync(join(dir, 'stdin.log'))).digest('hex');
  out['logback.xml'] = createHash('sha1').update(readFileSync(join(dir, 'logback.xml'))).digest('hex');
  return out;
}

/** The run was refused with exactly `message` (after `rmq-diag: `), exit code 2, nothing on stdout, the inputs unchanged. */
function refused(r: Ran, message: string): void {
  expect(r.signal, 'the run was killed: it hung').toBeNull();
  expect(r.stderr.split('\n').filter((l) => l.startsWith('rmq-diag:'))).toEqual([`rmq-diag: ${message}`]);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(digest()).toEqual(before);
}

const WITH_AND_WITHOUT_FORCE = [[], ['--force']];
/** Far above what the runs of one case take on a loaded machine; a hung run is killed at 120 s anyway. */
const TIMEOUT = 600_000;

beforeAll(async () => {
  cpSync(join(ROOT, 'samples', 'seed-outage'), join(dir, INC), { recursive: true });
  cpSync(join(ROOT, 'samples', 'seed-outage', 'mq-node-100', 'broker.log'), join(dir, 'stdin.log'));
  writeFileSync(join(dir, 'logback.xml'), '<configuration><appender name="F"><encoder><pattern>%d{yyyy-MM-dd HH:mm:ss.SSS} [%thread] %-5level %logger - %msg%n</pattern></encoder></appender></configuration>\n');
  const r = await cli(['replay', INC, '--save-scenario', 's.json']);
  expect(r.code, r.stderr).toBe(0);
  expect(spawnSync('mkfifo', [join(dir, 'fifo')]).status).toBe(0);
  before = digest();
}, 120_000);

describe('a FIFO with no reader', () => {
  const FIFO = 'a FIFO (named pipe): outputs are files, and opening a FIFO waits for a reader';

  it('-o, --save-scenario, --emit-logs: refused at once', async () => {
    refused(await cli(['analyze', INC, '-o', 'fifo']), `-o fifo: ${FIFO}`);
    for (const force of WITH_AND_WITHOUT_FORCE) {
      refused(await cli(['replay', 's.json', '-o', 'fifo', ...force]), `-o fifo: ${FIFO}`);
      refused(await cli(['replay', 's.json', '--save-scenario', 'fifo', ...force]), `--save-scenario fifo: ${FIFO}`);
      refused(await cli(['replay', 's.json', '--emit-logs', 'fifo', ...force]), `--emit-logs fifo: ${FIFO}`);
    }
    expect(statSync(join(dir, 'fifo')).isFIFO()).toBe(true);
  }, TIMEOUT);

  it('through a symbolic link', async () => {
    symlinkSync('fifo', join(dir, 'fifo-link'));
    refused(await cli(['analyze', INC, '-o', 'fifo-link']), `-o fifo-link: ${FIFO}`);
  }, TIMEOUT);

  it('where --emit-logs --force would replace a file', async () => {
    mkdirSync(join(dir, 'sim', 'app-order-01'), { recursive: true });
    expect(spawnSync('mkfifo', [join(dir, 'sim', 'app-order-01', 'app.log')]).status).toBe(0);
    refused(await cli(['replay', 's.json', '--emit-logs', 'sim']), '--emit-logs sim: sim is not empty (1 entry): give an empty or new folder, or --force to replace files of the same names');
    refused(await cli(['replay', 's.json', '--emit-logs', 'sim', '--force']), `--emit-logs sim: sim/app-order-01/app.log: ${FIFO}`);
    expect(readdirSync(join(dir, 'sim', 'app-order-01'))).toEqual(['app.log']);
  }, TIMEOUT);
});

describe('a device', () => {
  it('a character device other than /dev/null is refused', async () => {
    const dev = 'a character device: outputs are files (or /dev/null)';
    refused(await cli(['analyze', INC, '-o', '/dev/zero']), `-o /dev/zero: ${dev}`);
    for (const force of WITH_AND_WITHOUT_FORCE) {
      refused(await cli(['replay', 's.json', '-o', '/dev/zero', ...force]), `-o /dev/zero: ${dev}`);
      refused(await cli(['replay', 's.json', '--save-scenario', '/dev/zero', ...force]), `--save-scenario /dev/zero: ${dev}`);
      refused(await cli(['replay', 's.json', '--emit-logs', '/dev/zero', ...force]), `--emit-logs /dev/zero: ${dev}`);
    }
  }, TIMEOUT);

  it('/dev/null is written: the report and the scenario are dropped, the exit code and the notes stay', async () => {
    const a = await cli(['analyze', INC, '-o', '/dev/null', '--severity', 'none']);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout).toBe('');
    const r = await cli(['replay', 's.json', '-o', '/dev/null', '--save-scenario', '/dev/null']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(digest()).toEqual(before);
  }, TIMEOUT);
});

describe('a file the run reads', () => {
  const INPUT = (shown: string) => `an input of this run is never written over (${shown})`;

  it("an input file named on the command line, the scenario file, and --pattern's config file", async () => {
    refused(await cli(['analyze', APP_LOG, 'inc/app-pay-01/rocketmq_client.log', '-o', APP_LOG]), `-o ${APP_LOG}: ${INPUT(APP_LOG)}`);
    refused(await cli(['analyze', INC, '--pattern', 'app.log=logback.xml', '-o', 'logback.xml']), `-o logback.xml: ${INPUT('logback.xml')}`);
    refused(await cli(['events', INC, '--pattern', 'logback.xml'], undefined, 'logback.xml'), `stdout is logback.xml, an input of this run: it is never written over (redirect stdout elsewhere)`);
    for (const force of WITH_AND_WITHOUT_FORCE) {
      refused(await cli(['replay', 's.json', '-o', 's.json', ...force]), `-o s.json: ${INPUT('s.json')}`);
      refused(await cli(['replay', 's.json', '--save-scenario', 's.json', ...force]), `--save-scenario s.json: ${INPUT('s.json')}`);
    }
  }, TIMEOUT);

  it("stdin's file when stdin is redirected from one: analyze - -o F < F", async () => {
    refused(await cli(['analyze', '-', '-o', 'stdin.log'], 'stdin.log'), `-o stdin.log: ${INPUT('stdin')}`);
    refused(await cli(['analyze', '-', INC, '-o', 'stdin.log', '--severity', 'none'], 'stdin.log'), `-o stdin.log: ${INPUT('stdin')}`);
  }, TIMEOUT);

  it('stdout appended to an input (>> F), as cat refuses it: events, analyze, replay', async () => {
    const STDOUT = (shown: string) => `stdout is ${shown}, an input of this run: it is never written over (redirect stdout elsewhere)`;
    refused(await cli(['events', APP_LOG], undefined, APP_LOG), STDOUT(APP_LOG));
    refused(await cli(['events', INC, '--format', 'events'], undefined, APP_LOG), STDOUT(APP_LOG));
    refused(await cli(['analyze', INC, '--severity', 'none'], undefined, APP_LOG), STDOUT(APP_LOG));
    refused(await cli(['analyze', '-'], 'stdin.log', 'stdin.log'), STDOUT("stdin's file"));
    for (const force of WITH_AND_WITHOUT_FORCE) refused(await cli(['replay', INC, ...force], undefined, APP_LOG), STDOUT(APP_LOG));
  }, TIMEOUT);

  it('a symbolic link to an input found by a glob', async () => {
    symlinkSync(APP_LOG, join(dir, 'app-link'));
    const glob = 'inc/**/*.log';
    refused(await cli(['analyze', glob, '-o', 'app-link', '--severity', 'none']), `-o app-link: ${INPUT(APP_LOG)}`);
    for (const force of WITH_AND_WITHOUT_FORCE) {
      refused(await cli(['replay', glob, '-o', 'app-link', ...force]), `-o app-link: ${INPUT(APP_LOG)}`);
      refused(await cli(['replay', glob, '--save-scenario', 'app-link', ...force]), `--save-scenario app-link: ${INPUT(APP_LOG)}`);
    }
  }, TIMEOUT);

  it('an events file found by a glob, through a hard link (the file read, not the sources it stands for)', async () => {
    mkdirSync(join(dir, 'ev'));
    writeFileSync(join(dir, 'ev', 'all.events'), '');
    expect((await cli(['events', INC, '--format', 'events'], undefined, 'ev/all.events')).code).toBe(0);
    expect(statSync(join(dir, 'ev', 'all.events')).size).toBeGreaterThan(0);
    linkSync(join(dir, 'ev', 'all.events'), join(dir, 'ev-hard'));
    before = digest();
    const glob = 'ev/*.events';
    refused(await cli(['analyze', glob, '-o', 'ev-hard', '--severity', 'none']), `-o ev-hard: ${INPUT('ev/all.events')}`);
    refused(await cli(['events', glob], undefined, 'ev-hard'), `stdout is ev/all.events, an input of this run: it is never written over (redirect stdout elsewhere)`);
    for (const force of WITH_AND_WITHOUT_FORCE) refused(await cli(['replay', glob, '--save-scenario', 'ev-hard', ...force]), `--save-scenario ev-hard: ${INPUT('ev/all.events')}`);
  }, TIMEOUT);

  it('a hard link to a file of an input folder', async () => {
    linkSync(join(dir, APP_LOG), join(dir, 'app-hard'));
    refused(await cli(['analyze', INC, '-o', 'app-hard', '--severity', 'none']), `-o app-hard: ${INPUT(APP_LOG)}`);
    for (const force of WITH_AND_WITHOUT_FORCE) {
      refused(await cli(['replay', INC, '-o', 'app-hard', ...force]), `-o app-hard: ${INPUT(APP_LOG)}`);
      refused(await cli(['replay', INC, '--save-scenario', 'app-hard', ...force]), `--save-scenario app-hard: ${INPUT(APP_LOG)}`);
    }
  }, TIMEOUT);
});

describe('a folder of the inputs', () => {
  const INSIDE = 'inside the input folder inc, which is never written into';

  it('-o and --save-scenario inside an input folder, new files too', async () => {
    refused(await cli(['analyze', INC, '-o', 'inc/report.txt']), `-o inc/report.txt: ${INSIDE}`);
    for (const force of WITH_AND_WITHOUT_FORCE) {
      refused(await cli(['replay', INC, '-o', 'inc/app-pay-01/report.html', ...force]), `-o inc/app-pay-01/report.html: ${INSIDE}`);
      refused(await cli(['replay', INC, '--save-scenario', 'inc/s.json', ...force]), `--save-scenario inc/s.json: ${INSIDE}`);
      refused(await cli(['replay', INC, '--save-scenario', APP_LOG, ...force]), `--save-scenario ${APP_LOG}: ${INSIDE}`);
    }
  }, TIMEOUT);

  it('--emit-logs into the input folder, a folder below it, or one above it', async () => {
    for (const force of WITH_AND_WITHOUT_FORCE) {
      refused(await cli(['replay', INC, '--emit-logs', INC, ...force]), `--emit-logs inc: ${INSIDE}`);
      refused(await cli(['replay', INC, '--emit-logs', 'inc/sim', ...force]), `--emit-logs inc/sim: ${INSIDE}`);
      refused(await cli(['replay', INC, '--emit-logs', '.', ...force]), '--emit-logs .: holds the input folder inc: give a folder outside the inputs');
    }
    expect(existsSync(join(dir, INC, 'sim'))).toBe(false);
  }, TIMEOUT);

  it('--emit-logs into a folder holding an input found by a glob, or reached through a symbolic link', async () => {
    symlinkSync(join(INC, 'app-pay-01'), join(dir, 'pay-link'));
    for (const force of WITH_AND_WITHOUT_FORCE) {
      refused(await cli(['replay', 'inc/**/*.log', '--emit-logs', 'inc/app-pay-01', ...force]), `--emit-logs inc/app-pay-01: holds an input of this run (inc/app-pay-01/app.log): give a folder outside the inputs`);
      refused(await cli(['replay', 'inc/**/*.log', '--emit-logs', 'pay-link', ...force]), `--emit-logs pay-link: holds an input of this run (inc/app-pay-01/app.log): give a folder outside the inputs`);
      refused(await cli(['replay', INC, '--emit-logs', 'pay-link', ...force]), `--emit-logs pay-link: ${INSIDE}`);
    }
  }, TIMEOUT);

  it("two outputs of one run: never the same file, nor a file inside --emit-logs' folder", async () => {
    for (const force of WITH_AND_WITHOUT_FORCE) {
      refused(await cli(['replay', 's.json', '-o', 'both.json', '--save-scenario', 'both.json', ...force]), '-o both.json and --save-scenario both.json: the same file; give each output its own place');
      refused(await cli(['replay', 's.json', '--save-scenario', 'sim2/s.json', '--emit-logs', 'sim2', ...force]), '--save-scenario sim2/s.json and --emit-logs sim2: a file inside the folder; give each output its own place');
    }
    expect(existsSync(join(dir, 'both.json'))).toBe(false);
    expect(existsSync(join(dir, 'sim2'))).toBe(false);
  }, TIMEOUT);

  it('a folder beside the inputs is written (the refusals are not of every folder)', async () => {
    const r = await cli(['replay', INC, '--emit-logs', 'out', '--save-scenario', 'out.json', '-o', 'out.txt']);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(join(dir, 'out')).sort()).toEqual(['app-order-01', 'app-pay-01', 'mq-node-100', 'mq-node-101']);
    expect(readFileSync(join(dir, 'out.txt'), 'utf8')).toMatch(/replay/i);
    expect(JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8'))).toHaveProperty('scenario');
    expect(digest()).toEqual(before);
  }, TIMEOUT);
});
