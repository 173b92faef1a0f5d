import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, ndjson, run, runBin } from './helpers.js';

const REAL = join(ROOT, 'test', 'fixtures', 'real');

function lineCount(file: string): number {
  const t = readFileSync(file, 'utf8');
  if (!t.length) return 0;
  return t.split('\n').length - (t.endsWith('\n') ? 1 : 0);
}

describe('rmq-diag events --json', () => {
  it('prints one event per line, then a summary whose counts add up to the file line counts', async () => {
    const r = await run(['events', REAL, '--json']);
    expect(r.code).toBe(0);
    const lines = ndjson(r.stdout);
    const summary = lines.pop()!;
    expect(summary.schemaVersion).toBe(1);
    expect(lines.every((e) => typeof e.type === 'string' && e.type !== 'other')).toBe(true);
    expect(summary.summary.events).toBe(lines.length);
    for (const input of summary.summary.inputs) {
      expect(input.lines, input.path).toBe(lineCount(join(ROOT, input.path)));
      expect(input.records + input.continuation + input.unknown + input.unreadable, input.path).toBe(input.lines);
    }
    const first = lines.find((e) => e.type === 'busy-reply' && e.time !== null)!;
    expect(Object.keys(first)).toEqual(
      expect.arrayContaining(['time', 'host', 'kind', 'file', 'line', 'level', 'thread', 'logger', 'type', 'fields', 'text']),
    );
    expect(first.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+08:00$/);
  });

  it('filters by --type, --since and --until', async () => {
    const r = await run(['events', REAL, '--json', '--type', 'store-slow', '--since', '2018-05-16 09:15', '--until', '2018-05-16T13:00:00+08:00']);
    const events = ndjson(r.stdout).filter((e) => e.type !== 'summary');
    // This paste is newest first: its events are put back in time order.
    expect(events.map((e) => e.fields.costMs)).toEqual([1573, 1310, 1154, 1060, 1111]);
  });

  it('writes times in --tz-out', async () => {
    const r = await run(['events', join(REAL, '05-putmessage-in-lock-eclipse-3.2.6.log'), '--json', '--tz-out', 'UTC']);
    // The earliest event first (the paste is newest first).
    expect(ndjson(r.stdout)[0].time).toBe('2018-05-15T20:38:34.000+00:00');
  });

  it('--all adds other records', async () => {
    const f = join(REAL, '45-namesrv-log-new-broker-registered-ha-mismatch.log');
    const some = ndjson((await run(['events', f, '--json'])).stdout).filter((e) => e.type !== 'summary');
    const all = ndjson((await run(['events', f, '--json', '--all'])).stdout).filter((e) => e.type !== 'summary');
    expect(all.length).toBe(24);
    expect(all.filter((e) => e.type !== 'other')).toEqual(some);
  });
});

describe('rmq-diag events for people', () => {
  it('prints a table on stdout and the accounting in one line on stderr, without colour when not a terminal', async () => {
    const r = await run(['events', join(REAL, '17-canal-wait-response-on-channel.log')], { env: { COLUMNS: '200' } });
    expect(r.stdout).toMatch(/TIME\s+HOST\s+TYPE\s+DETAIL/);
    expect(r.stdout).toMatch(/rpc-timeout\s+addr=192\.168\.253\.38:10911 timeoutMs=3000/);
    expect(r.stdout).not.toMatch(/records/);
    expect(r.stderr).toMatch(/^\d+ lines in 1 file \(0 unknown, 0 unreadable\); \d+ of \d+ events$/m);
    expect(r.stdout + r.stderr).not.toMatch(/\u001b\[/);
  });

  it('fits 80 columns on a terminal, and respects NO_COLOR', async () => {
    const r = await run(['events', REAL], { tty: true, columns: 80, env: { NO_COLOR: '1' } });
    for (const line of r.stdout.split('\n')) expect([...line].length, line).toBeLessThanOrEqual(80);
    expect(r.stdout).not.toMatch(/\u001b\[/);
    const coloured = await run(['events', REAL], { tty: true, columns: 80 });
    expect(coloured.stdout).toMatch(/\u001b\[3\dm/);
  });

  it('never lets log text drive the terminal', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rmq-esc-'));
    const f = join(dir, 'broker.log');
    writeFileSync(f, '2024-05-20 14:03:17 INFO brokerOutApi_thread_1 - register broker[0]to name server 10.0.0.1:9876\u001b[2J\u001b]0;pwned\u0007 OK\n');
    const r = await run(['events', f, '--all'], { tty: true, columns: 200 });
    expect(r.stdout).not.toContain('\u001b[2J');
    expect(r.stdout).not.toContain('\u0007');
    expect(r.stdout).toContain('\\x1b[2J');
  });
});

describe('bad input', () => {
  it('names a missing file, goes on with the rest, exit 0', async () => {
    const r = await run(['events', join(REAL, 'nope.log'), join(REAL, '13-app-message-prefix-timeout-clean-queue.log')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^note: .*nope\.log: no such file or directory: .*nope\.log$/m);
    expect(r.stdout).not.toMatch(/nope\.log/);
    expect(r.stdout).toMatch(/busy-reply/);
  });

  it('exit 2 when nothing could be read, said on stderr, nothing on stdout', async () => {
    const r = await run(['events', join(REAL, 'nope.log')]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^rmq-diag: nothing could be read from .*nope\.log$/m);
  });

  it('exit 2 with a one-line message for usage errors, no stack', async () => {
    for (const args of [['events'], ['events', REAL, '--type', 'nonsense'], ['events', REAL, '--tz', 'Mars/Base'], ['events', REAL, '--kind', 'x=martian'], ['frobnicate']]) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(/^rmq-diag: /);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('reports a broken gzip with the last good line and keeps what it read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rmq-gz-'));
    mkdirSync(join(dir, 'h1'));
    const text = readFileSync(join(REAL, '05-putmessage-in-lock-eclipse-3.2.6.log'));
    const gz = gzipSync(Buffer.concat(Array(200).fill(text)));
    writeFileSync(join(dir, 'h1', 'store.log.gz'), gz.subarray(0, Math.floor(gz.length * 0.6)));
    const r = await run(['events', dir, '--json']);
    const lines = ndjson(r.stdout);
    const summary = lines.pop()!.summary;
    expect(summary.issues.some((i: any) => /broken gzip data at byte \d+, after line \d+/.test(i.message))).toBe(true);
    expect(lines.length).toBeGreaterThan(0);
    expect(summary.inputs[0].host).toBe('h1');
  });
});

describe('the executable', () => {
  it('prints its version and help with examples', () => {
    const v = runBin(['--version']);
    expect(v.code).toBe(0);
    expect(v.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
    const h = runBin(['events', '--help']);
    expect(h.code).toBe(0);
    expect(h.stdout).toMatch(/Examples:/);
    expect(h.stdout).toMatch(/--since/);
  });

  it("says what --jobs gives per command: the rules' thread only where the command runs the rules", () => {
    const jobsHelp = (cmd: string): string => {
      const h = runBin([cmd, '--help']);
      expect(h.code).toBe(0);
      const m = /--jobs\s+([\s\S]*?)\[number\]/.exec(h.stdout);
      expect(m, `${cmd} --help has --jobs`).not.toBeNull();
      return m![1].replace(/\s+/g, ' ').trim();
    };
    for (const cmd of ['events', 'replay']) expect(jobsHelp(cmd)).toBe('worker threads for parsing (default: for large inputs, one per core; 0 = none)');
    for (const cmd of ['analyze', 'tui']) expect(jobsHelp(cmd)).toMatch(/^worker threads for parsing, and one for the rules /);
  });

  it('reads stdin as -', () => {
    const r = runBin(['events', '-', '--json'], readFileSync(join(REAL, '17-canal-wait-response-on-channel.log')));
    expect(r.code).toBe(0);
    const events = ndjson(r.stdout).filter((e) => e.type !== 'summary');
    expect(events[0]).toMatchObject({ file: '-', type: 'rpc-timeout' });
  });
});

describe('closing accounting (--stats, on stderr)', () => {
  it('lists each source with its events by type', async () => {
    const r = await run(['events', join(REAL, '15-sendkernelimpl-1500ms-no-header.log'), join(REAL, '05-putmessage-in-lock-eclipse-3.2.6.log'), '--stats'], { env: { COLUMNS: '200' } });
    expect(r.stdout).not.toMatch(/events by type/);
    expect(r.stderr).toMatch(/events by type:\n/);
    expect(r.stderr).toMatch(/15-sendkernelimpl-1500ms-no-header\.log: rpc-timeout 1, send-attempt-failed 1/);
    expect(r.stderr).toMatch(/05-putmessage-in-lock-eclipse-3\.2\.6\.log: store-slow 8/);
  });
});

describe('stdin with an override', () => {
  it('reads `--kind -=broker` as the kind of stdin, as the README shows', () => {
    const r = runBin(['events', '-', '--kind', '-=store', '--json'], readFileSync(join(REAL, '05-putmessage-in-lock-eclipse-3.2.6.log')));
    expect(r.code, r.stderr).toBe(0);
    const summary = ndjson(r.stdout).pop()!.summary;
    expect(summary.inputs[0]).toMatchObject({ path: '-', kind: 'store' });
  });
});

describe('usage mistakes stop before any input is read', () => {
  it('an unknown option: exit 2, nothing printed on stdout', async () => {
    const r = await run(['analyze', join(ROOT, 'samples', 'broker-busy'), '--bogus']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^rmq-diag: Unknown argument: bogus/);
  });

  it('an empty folder says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rmq-empty-'));
    const r = await run(['events', dir]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`note: ${dir}: no log files in folder: ${dir}\nrmq-diag: nothing could be read from ${dir}\n`);
  });
});

describe('events --format events: hosts named from the folders below an input', () => {
  // One machine's log folder: the client's logs under logs/rocketmqlogs, an application's in a
  // folder of its own (the seed outage's real logs of app-order-01).
  const machine = mkdtempSync(join(tmpdir(), 'rmq-diag-machine-'));
  const app = join(ROOT, 'samples', 'seed-outage', 'app-order-01');
  mkdirSync(join(machine, 'logs', 'rocketmqlogs'), { recursive: true });
  mkdirSync(join(machine, 'order-service'));
  writeFileSync(join(machine, 'logs', 'rocketmqlogs', 'rocketmq_client.log'), readFileSync(join(app, 'rocketmq_client.log')));
  writeFileSync(join(machine, 'order-service', 'app.log'), readFileSync(join(app, 'app.log')));
  afterAll(() => rmSync(machine, { recursive: true, force: true }));
  const notes = (stderr: string) => stderr.split('\n').filter((l) => l.includes('hosts named from the folders below'));

  it('says which hosts the folders below an input folder named, and how to name the machine', async () => {
    const r = await run(['events', machine, '--format', 'events']);
    expect(r.code, r.stderr).toBe(0);
    const base = machine.split('/').pop()!;
    expect(notes(r.stderr)).toEqual([
      `note: ${machine}: hosts named from the folders below it (order-service); events files are merged by host name: if the folder is one machine's, give its parse --set-host '**=NAME'`,
    ]);
    // The two hosts the rule gave: the folder's own name, and the application's folder.
    expect(new Set(ndjson(r.stdout).filter((e) => e.type !== 'summary').map((e) => e.host))).toEqual(new Set([base, 'order-service']));
  });

  it('says nothing with --set-host, for other formats, or when each input folder is a host', async () => {
    const named = await run(['events', machine, '--format', 'events', '--set-host', '**=app-order-01']);
    expect(named.code, named.stderr).toBe(0);
    expect(notes(named.stderr)).toEqual([]);
    expect(new Set(ndjson(named.stdout).filter((e) => e.type !== 'summary').map((e) => e.host))).toEqual(new Set(['app-order-01']));
    expect(notes((await run(['events', machine, '--json'])).stderr)).toEqual([]);
    const hosts = ['mq-node-100', 'app-order-01'].map((h) => join(ROOT, 'samples', 'seed-outage', h));
    const each = await run(['events', ...hosts, '--format', 'events']);
    expect(each.code, each.stderr).toBe(0);
    expect(notes(each.stderr)).toEqual([]);
  });
});
