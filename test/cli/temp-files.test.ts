// The temporary spill folders through the built executable: a missing or full temporary folder is one
// line and exit 2, and no spill outlives its run, whatever ends it (a signal mid-run, or a SIGKILL,
// whose leftovers the next run removes).

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runBin } from './helpers.js';

const BIN = join(ROOT, 'bin', 'rmq-diag.js');
// Inputs and temporary folders of these tests are removed after them.
const madeDirs: string[] = [];
const made = (dir: string): string => (madeDirs.push(dir), dir);
afterAll(() => {
  for (const d of madeDirs) rmSync(d, { recursive: true, force: true });
});

const BROKER = readFileSync(join(ROOT, 'samples', 'seed-outage', 'mq-node-100', 'broker.log'));

function freshTmp(): string {
  return made(mkdtempSync(join(tmpdir(), 'rmq-tmp-test-')));
}

function incident(copies: number): string {
  const dir = made(mkdtempSync(join(tmpdir(), 'rmq-spill-input-')));
  for (const host of ['mq-node-100', 'mq-node-101']) {
    mkdirSync(join(dir, host));
    writeFileSync(join(dir, host, 'broker.log'), Buffer.concat(Array(copies).fill(BROKER)));
  }
  return dir;
}

function listAll(dir: string): string[] {
  return readdirSync(dir, { recursive: true }).map(String);
}

describe('a temporary folder that cannot take the spill', () => {
  it('a missing TMPDIR is one line and exit 2', () => {
    const missing = join(freshTmp(), 'gone');
    const r = runBin(['events', incident(3), '--json'], undefined, { TMPDIR: missing });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`rmq-diag: cannot write temporary files in ${missing} (it does not exist); set TMPDIR to a folder with room\n`);
  });

  it('a full one (here: a file size limit) is one line and exit 2, and leaves nothing behind', () => {
    const input = incident(300); // about 14 MB of events to spill
    for (const jobs of ['0', '2']) {
      const tmp = freshTmp();
      // POSIX sh's ulimit -f: no file of this process may grow past a few hundred KiB.
      const r = spawnSync('sh', ['-c', `ulimit -f 512 && exec "$0" "$@"`, process.execPath, BIN, 'analyze', input, '--json', '--jobs', jobs], {
        env: { PATH: process.env.PATH, TMPDIR: tmp },
        encoding: 'utf8',
      });
      expect(r.status, `--jobs ${jobs}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toBe(`rmq-diag: cannot write temporary files in ${tmp} (file size limit exceeded); set TMPDIR to a folder with room\n`);
      expect(listAll(tmp)).toEqual([]);
    }
  });
});

/** Start `events -` reading stdin that stays open, wait until its spill file exists, then send `sig`. */
async function killMidRun(sig: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null; left: string[]; stderr: string }> {
  const tmp = freshTmp();
  const child = spawn(process.execPath, [BIN, 'events', '-', '--json', '--kind=-=broker'], {
    env: { PATH: process.env.PATH, TMPDIR: tmp },
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('exit', (code, signal) => resolve([code, signal])));
  // enough events for a spill (past the reorder window and SPILL_BYTES of them); stdin stays open,
  // so the run waits for more, mid-parse. What the pipe has not taken when the signal ends the run
  // fails with EPIPE: expected here.
  child.stdin!.on('error', () => {});
  for (let i = 0; i < 40; i++) child.stdin!.write(BROKER);
  const deadline = Date.now() + 15000;
  while (!listAll(tmp).some((f) => f.endsWith('.events'))) {
    if (Date.now() > deadline) throw new Error(`no spill file appeared: ${stderr}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  expect(child.kill(sig)).toBe(true);
  const [code, signal] = await exited;
  child.stdin!.destroy();
  return { code, signal, left: listAll(tmp), stderr };
}

describe('no spill outlives its run', () => {
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    it(`after kill -${sig.slice(3)} mid-run, no temporary file of the run remains`, async () => {
      const r = await killMidRun(sig);
      expect(r.left).toEqual([]);
      // it still dies of the signal (a shell sees 128 + the signal number)
      expect(r.signal).toBe(sig);
      expect(r.stderr).toBe('');
    });
  }

  it('a run removes the spill folders of runs that are gone (SIGKILL), not those of live ones', () => {
    const tmp = freshTmp();
    // a pid that is not running: past the kernel's pid_max
    const dead = join(tmp, 'rmq-diag-99999999-AbC123');
    const mine = join(tmp, `rmq-diag-${process.pid}-XyZ789`);
    const other = join(tmp, 'rmq-diag-bench');
    for (const d of [dead, mine, other]) {
      mkdirSync(d);
      writeFileSync(join(d, 'source-0.events'), 'x\n');
    }
    const r = runBin(['events', incident(1), '--json'], undefined, { TMPDIR: tmp });
    expect(r.code).toBe(0);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(mine)).toBe(true);
    expect(existsSync(other)).toBe(true);
    expect(readdirSync(tmp).sort()).toEqual(['rmq-diag-bench', `rmq-diag-${process.pid}-XyZ789`].sort());
  });
});
