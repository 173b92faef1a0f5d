// Inputs with nothing to diagnose (a wrong folder, a missing file, an empty folder, a binary file)
// are said plainly on stderr, with exit code 2 and no report on stdout, in every command. Through
// the built CLI, its main() in a host process that loads dist/ once (useHost).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useHost } from './helpers.js';

const cli = useHost();

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
      const r = await cli([cmd[0], etc, ...cmd.slice(1)]);
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
        const r = await cli([cmd, input]);
        expect(r.code, `${cmd} ${input}`).toBe(2);
        expect(r.stdout, `${cmd} ${input}`).toBe('');
        expect(r.stderr.trimEnd().split('\n'), `${cmd} ${input}`).toEqual(stderr);
      }
    }
  });

  it('a wrong folder beside a real incident: a note per file, the report of the rest', async () => {
    const r = await cli(['analyze', 'samples/broker-busy/', empty, '--severity', 'critical']);
    expect(r.stdout).toMatch(/^rmq-diag analyze: 1 incident; \d+ findings/);
    expect(r.stderr).toContain(`note: ${empty}: no log files in folder: ${empty}\n`);
    expect(r.stderr).not.toMatch(/^rmq-diag:/m);
  });

  it('an application log with no RocketMQ message: no RocketMQ log, exit 2 in every command', async () => {
    const app = join(dir, 'app.log');
    writeFileSync(app, '2024-05-20 14:42:00.123  INFO 4242 --- [main] com.example.Shop : started in 3.2 seconds\n');
    for (const cmd of ['events', 'analyze', 'replay']) {
      const r = await cli([cmd, app]);
      expect(r.code, cmd).toBe(2);
      expect(r.stdout, cmd).toBe('');
      expect(r.stderr, cmd).toBe(`rmq-diag: no RocketMQ log found in ${app}: 1 file, 1 line, 0 RocketMQ events, 1 record of other layouts (none of RocketMQ's)\n`);
    }
  });

  it("a folder like /var/log (dated lines of dpkg, apt, a README): one line, exit 2, a few notes", async () => {
    const varlog = join(dir, 'varlog');
    mkdirSync(join(varlog, 'apt'), { recursive: true });
    // As dpkg.log and alternatives.log print them: a full date first (the fallback layout reads it).
    writeFileSync(join(varlog, 'dpkg.log'), '2025-06-24 14:36:25 startup archives unpack\n2025-06-24 14:36:25 install tzdata:all <none> 2025b-0ubuntu0.24.04\n');
    writeFileSync(join(varlog, 'README'), 'You are looking for the traditional text log files in /var/log,\nand they are gone?\n');
    writeFileSync(join(varlog, 'apt', 'history.log'), '\nStart-Date: 2025-06-24  14:36:21\nCommandline: apt-get install -y tzdata\n');
    writeFileSync(join(varlog, 'apt', 'term.log'), '\nLog started: 2025-06-24  14:36:21\nSelecting previously unselected package tzdata.\n');
    writeFileSync(join(varlog, 'fontconfig.log'), '/usr/share/fonts: caching, new cache contents: 0 fonts, 1 dirs\n');
    for (const cmd of ['events', 'analyze', 'replay']) {
      const r = await cli([cmd, varlog]);
      expect(r.code, cmd).toBe(2);
      expect(r.stdout, cmd).toBe('');
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines.pop(), cmd).toBe(`rmq-diag: no RocketMQ log found in ${varlog}: 5 files, 11 lines, 0 RocketMQ events, 2 records of other layouts (none of RocketMQ's)`);
      // 4 files with no known layout: 3 notes, then 1 line for the rest.
      expect(lines.length, r.stderr).toBe(4);
      expect(lines.slice(0, 3).every((l) => l.endsWith(': no known log layout in the first lines: read as plain text (records have no time)'))).toBe(true);
      expect(lines[3]).toBe('note: 1 more note like "no known log layout in the first lines" (1 file); --verbose lists them');
    }
  });

  it('a folder like /etc (hundreds of files): a few notes, the rest counted, one line; --verbose lists every note', async () => {
    const many = join(dir, 'many');
    mkdirSync(join(many, 'ssl'), { recursive: true });
    for (let i = 0; i < 300; i++) writeFileSync(join(many, i % 2 ? 'ssl' : '', `conf${i}`), `# setting ${i}\nkey${i} = value\n`);
    writeFileSync(join(many, 'localtime'), Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)));
    const r = await cli(['analyze', many]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.pop()).toBe(`rmq-diag: no RocketMQ log found in ${many}: 301 files, 617 lines, 0 records of a known layout`);
    // 3 notes of each kind (no known layout; binary data; the binary file's count), 1 line for the rest of each.
    expect(lines.filter((l) => l.includes(': no known log layout in the first lines'))).toHaveLength(3);
    expect(lines).toContain('note: 297 more notes like "no known log layout in the first lines" (297 files); --verbose lists them');
    expect(lines.length).toBeLessThanOrEqual(10);
    const v = await cli(['events', many, '--verbose']);
    expect(v.code).toBe(2);
    expect(v.stderr.split('\n').filter((l) => l.includes(': no known log layout in the first lines'))).toHaveLength(300);
    expect(v.stderr).not.toContain('--verbose lists them');
  });

  it('a quiet broker.log (records of RocketMQ\'s layout, no message rmq-diag knows): a note, and the run goes on', async () => {
    const quiet = join(dir, 'broker.log');
    writeFileSync(quiet, '2024-05-20 14:42:00 INFO main - some line no catalogue entry knows\n');
    const r = await cli(['analyze', quiet]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\nNo findings\.\n\nIn short\n/);
    expect(r.stderr).toBe(`note: no RocketMQ event in ${quiet}: 1 file, 1 record of a known layout, none of them a RocketMQ message rmq-diag knows\n`);
  });
});
