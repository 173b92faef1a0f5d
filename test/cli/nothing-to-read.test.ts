// Inputs with nothing to diagnose (a wrong folder, a missing file, an empty folder, a binary file)
// are said plainly on stderr, with exit code 2 and no report on stdout, in every command. Through
// the built binary.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnBin } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'rmq-diag-nothing-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A folder like /etc: text files, none of them a log.
const etc = join(dir, 'etc');
mkdirSync(join(etc, 'ssh'), { recursive: true });
writeFileSync(join(etc, 'hosts'), '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost\n');
writeFileSync(join(etc, 'fstab'), '# <file system> <mount point> <type> <options>\nUUID=1234 / ext4 errors=remount-ro 0 1\n');
writeFileSync(join(etc, 'ssh', 'sshd_config'), 'Port 22\nPermitRootLogin no\nX11Forwarding yes\n');
const empty = join(dir, 'empty');
mkdirSync(empty);
const binary = join(dir, 'core.log');
writeFileSync(binary, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)));

const commands = [['events'], ['events', '--json'], ['analyze'], ['analyze', '--json'], ['analyze', '--format', 'markdown'], ['replay'], ['replay', '--json']];

describe('nothing to diagnose', () => {
  for (const cmd of commands) {
    it(`${cmd.join(' ')} on a folder of non-logs: says so on stderr, exit 2, no report`, async () => {
      const r = await spawnBin([cmd[0], etc, ...cmd.slice(1)]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n').pop()).toBe(`rmq-diag: no RocketMQ log found in ${etc}: 3 files, 7 lines, 0 records of a known layout`);
    });
  }

  it('a missing file, an empty folder, a binary file: each note, then one line, exit 2', async () => {
    const cases: Array<[string, string[]]> = [
      [join(dir, 'nope.log'), [`note: ${join(dir, 'nope.log')}: no such file or directory: ${join(dir, 'nope.log')}`, `rmq-diag: nothing could be read from ${join(dir, 'nope.log')}`]],
      [empty, [`note: ${empty}: no log files in folder: ${empty}`, `rmq-diag: nothing could be read from ${empty}`]],
      // Binary data is judged by region: its lines are read and counted as unreadable.
      [
        binary,
        [
          `note: ${binary}:1: binary data`,
          `note: ${binary}:2: binary data`,
          `note: ${binary}:3: binary data`,
          `note: ${binary}: 17 unreadable lines in all (the first 3 are listed)`,
          `rmq-diag: no RocketMQ log found in ${binary}: 1 file, 17 lines, 0 records of a known layout`,
        ],
      ],
    ];
    for (const [input, stderr] of cases) {
      for (const cmd of ['events', 'analyze', 'replay']) {
        const r = await spawnBin([cmd, input]);
        expect(r.code, `${cmd} ${input}`).toBe(2);
        expect(r.stdout, `${cmd} ${input}`).toBe('');
        expect(r.stderr.trimEnd().split('\n'), `${cmd} ${input}`).toEqual(stderr);
      }
    }
  });

  it('a wrong folder beside a real incident: a note per file, the report of the rest', async () => {
    const r = await spawnBin(['analyze', 'samples/broker-busy/', empty, '--severity', 'critical']);
    expect(r.stdout).toMatch(/^rmq-diag analyze: 1 incident; \d+ findings/);
    expect(r.stderr).toContain(`note: ${empty}: no log files in folder: ${empty}\n`);
    expect(r.stderr).not.toMatch(/^rmq-diag:/m);
  });

  it('records of a known layout, none of them a RocketMQ message: said, and the run goes on', async () => {
    const app = join(dir, 'app.log');
    writeFileSync(app, '2024-05-20 14:42:00.123  INFO 4242 --- [main] com.example.Shop : started in 3.2 seconds\n');
    const r = await spawnBin(['analyze', app]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/No findings\.\n$/);
    expect(r.stderr).toBe(`note: no RocketMQ event in ${app}: 1 file, 1 record of a known layout, none of them a RocketMQ message\n`);
  });
});
