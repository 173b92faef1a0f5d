// Damaged and unusual inputs through the built executable: nothing read is lost, every line is
// counted, and the run ends with exit code 0, 1 or 2 and no stack trace.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, ndjson, runBin } from './helpers.js';

// Inputs written for these tests are removed after them (some are tens of MB).
const madeDirs: string[] = [];
const made = (dir: string): string => (madeDirs.push(dir), dir);
afterAll(() => {
  for (const d of madeDirs) rmSync(d, { recursive: true, force: true });
});

const SEED = join(ROOT, 'samples', 'seed-outage');
const BROKER = readFileSync(join(SEED, 'mq-node-100', 'broker.log'));
const CLIENT = readFileSync(join(SEED, 'app-order-01', 'rocketmq_client.log'));

function incident(files: Record<string, Buffer | string>): string {
  const dir = made(mkdtempSync(join(tmpdir(), 'rmq-damaged-')));
  for (const [rel, data] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), data);
  }
  return dir;
}

interface Summary {
  events: number;
  inputs: Array<{ path: string; lines: number; records: number; continuation: number; unknown: number; unreadable: number; events: number; encoding?: string }>;
  issues: Array<{ file: string; line: number | null; message: string }>;
}

function events(dir: string, ...args: string[]): { code: number; stderr: string; events: Array<Record<string, any>>; summary: Summary } {
  const r = runBin(['events', dir, '--json', ...args]);
  expect(r.stderr).not.toMatch(/\n\s+at |internal error/);
  const lines = ndjson(r.stdout);
  const summary = lines.pop()!.summary as Summary;
  for (const i of summary.inputs) expect(i.records + i.continuation + i.unknown + i.unreadable, i.path).toBe(i.lines);
  return { code: r.code, stderr: r.stderr, events: lines, summary };
}

const lineCount = (b: Buffer): number => b.toString('latin1').split('\n').length - (b[b.length - 1] === 10 ? 1 : 0);
const plain = events(incident({ 'mq-node-100/broker.log': BROKER }));

describe('gzip damage', () => {
  const text = Buffer.concat(Array(40).fill(CLIENT)); // ~13 MB: the native inflater hands out many chunks first
  const gz = gzipSync(text);

  it('keeps every line of a .gz with trailing garbage, and says the garbage was ignored', () => {
    const small = Buffer.concat(Array(2).fill(BROKER)); // over 40 KB, one member, as in a rolled log
    const dir = incident({ 'mq-node-100/broker.1.log.gz': Buffer.concat([gzipSync(small), Buffer.from('GARBAGEGARBAGE')]) });
    const r = events(dir);
    expect(r.code).toBe(0);
    expect(r.summary.inputs[0].lines).toBe(lineCount(small));
    expect(r.summary.events).toBe(2 * plain.summary.events);
    expect(r.summary.issues.map((i) => i.message)).toEqual([expect.stringMatching(/^trailing data after the gzip data at byte \d+, ignored/)]);
  });

  it('keeps every line inflated before a corrupt block, and names the byte and the last good line', () => {
    const at = Math.floor(gz.length * 0.7);
    const bad = Buffer.from(gz);
    for (let i = at; i < at + 64; i++) bad[i] ^= 0x55;
    // What zcat shows before the damage: the undamaged prefix, inflated as far as it goes.
    const before = gunzipSync(gz.subarray(0, at), { finishFlush: constants.Z_SYNC_FLUSH });
    const whole = lineCount(before) - 1;
    expect(whole).toBeGreaterThan(10000);
    const dir = incident({ 'app-order-01/rocketmq_client.log.gz': bad, 'mq-node-100/broker.log': BROKER });
    const r = events(dir, '--type', 'startup'); // the output stays small; the summary counts everything
    expect(r.code).toBe(0);
    const input = r.summary.inputs.find((i) => i.path.endsWith('.gz'))!;
    expect(input.lines).toBeGreaterThanOrEqual(whole);
    const issue = r.summary.issues.find((i) => i.file.endsWith('.gz'))!;
    const m = /^broken gzip data at byte (\d+), after line (\d+) \(the last good line\): \S/.exec(issue.message)!;
    expect(m).not.toBeNull();
    expect(Number(m[1])).toBeGreaterThanOrEqual(at);
    expect(Number(m[2])).toBeGreaterThanOrEqual(whole);
    expect(issue.line).toBe(Number(m[2]));
    // the next file is read as usual
    expect(r.summary.inputs.find((i) => i.path.endsWith('broker.log'))!.events).toBe(plain.summary.events);
  });

  it('reads the same lines from a damaged .gz on stdin', () => {
    const at = Math.floor(gz.length * 0.4);
    const bad = Buffer.from(gz);
    for (let i = at; i < at + 64; i++) bad[i] ^= 0x55;
    const before = gunzipSync(gz.subarray(0, at), { finishFlush: constants.Z_SYNC_FLUSH });
    const r = runBin(['events', '-', '--json', '--kind', '-=client', '--type', 'startup'], bad);
    expect(r.code).toBe(0);
    const summary = ndjson(r.stdout).pop()!.summary as Summary;
    expect(summary.inputs[0].lines).toBeGreaterThanOrEqual(lineCount(before) - 1);
    expect(summary.issues[0].message).toMatch(/^broken gzip data at byte \d+, after line \d+/);
  });
});

describe('binary regions, UTF-16, line ends', () => {
  it('reads a log after a block of NUL bytes (a crashed, pre-allocated file)', () => {
    const dir = incident({ 'mq-node-100/broker.log': Buffer.concat([Buffer.alloc(2 << 20), BROKER, Buffer.alloc(100_000), BROKER]) });
    const r = events(dir);
    expect(r.summary.events).toBe(2 * plain.summary.events);
    expect(r.summary.inputs[0].lines).toBe(2 * plain.summary.inputs[0].lines);
    expect(r.summary.issues.map((i) => i.message)).toEqual([expect.stringMatching(/^2197152 NUL bytes skipped in 2 blocks/)]);
  });

  it('keeps a short log with one junk line', () => {
    const lines = BROKER.toString('latin1').split('\n').slice(0, 4);
    // a few hundred bytes of junk (a half-written record), more than the text beside it
    const junk = Buffer.from(Array.from({ length: 600 }, (_, i) => (i * 37) % 256).filter((b) => b !== 10));
    const dir = incident({ 'mq-node-100/broker.log': Buffer.concat([Buffer.from(lines.slice(0, 2).join('\n') + '\n'), junk, Buffer.from('\n' + lines.slice(2).join('\n') + '\n')]) });
    const r = events(dir);
    const input = r.summary.inputs[0];
    expect(input.records).toBe(4);
    expect(input.unreadable).toBe(1);
    expect(r.summary.issues).toEqual([{ file: expect.stringMatching(/broker\.log$/), line: 3, message: 'binary data' }]);
  });

  it('decodes a UTF-16LE log with a byte-order mark (Windows services)', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(BROKER.toString('utf8').replace(/\n/g, '\r\n'), 'utf16le')]);
    const r = events(incident({ 'mq-node-100/broker.log': le }));
    expect(r.summary.events).toBe(plain.summary.events);
    expect(r.summary.inputs[0].encoding).toBe('utf-16le');
    expect(r.events.map((e) => e.text)).toEqual(plain.events.map((e) => e.text));
  });

  it('reads lone CR line ends as line ends', () => {
    const cr = Buffer.from(CLIENT.toString('latin1').replace(/\r?\n/g, '\r'), 'latin1');
    const lf = events(incident({ 'app-order-01/rocketmq_client.log': CLIENT }));
    expect(lf.summary.events).toBeGreaterThan(400);
    const r = events(incident({ 'app-order-01/rocketmq_client.log': cr }));
    expect(r.summary.events).toBe(lf.summary.events);
    expect(r.summary.inputs[0].lines).toBe(lf.summary.inputs[0].lines);
  });
});

describe('large and odd first lines do not crash a worker', () => {
  it('40 MB of blank lines before the first record (two inputs: parsed in workers)', () => {
    const dir = incident({ 'mq-node-100/broker.log': Buffer.concat([Buffer.alloc(40 << 20, 10), BROKER]), 'mq-node-101/broker.log': BROKER });
    const r = events(dir, '--type', 'startup');
    expect(r.code).toBe(0);
    const input = r.summary.inputs.find((i) => i.path.includes('mq-node-100'))!;
    expect(input.lines).toBe((40 << 20) + plain.summary.inputs[0].lines);
    expect(input.unknown).toBe(40 << 20);
    expect(input.records).toBe(plain.summary.inputs[0].records);
    expect(input.events).toBe(plain.summary.events);
  });

  it('route dumps of 200 brokers (tens of KB a line) in inputs over 32 MiB', () => {
    const queues = Array.from({ length: 200 }, (_, i) => `QueueData [brokerName=broker-${i}, readQueueNums=8, writeQueueNums=8, perm=6, topicSysFlag=0]`);
    const brokers = Array.from({ length: 200 }, (_, i) => `BrokerData [cluster=c1, brokerName=broker-${i}, brokerAddrs={0=10.0.${i >> 8}.${i & 255}:10911}]`);
    const route = `TopicRouteData [orderTopicConf=null, queueDatas=[${queues.join(', ')}], brokerDatas=[${brokers.join(', ')}], filterServerTable={}]`;
    const line = (k: number) =>
      // Milliseconds unlike the seconds (a 4.3.0-4.7.1 client repeats the seconds there: a note).
      `2024-05-20 14:03:${String(k % 60).padStart(2, '0')},${String((k * 7 + 123) % 1000).padStart(3, '0')} INFO RocketmqClient - the topic[T${k % 7}] route info changed, old[${route}] ,new[${route}]\n`;
    // over 500 of them: a batch of 500 encoded events used to sit in a 32 MiB worker heap
    const file = Buffer.from(Array.from({ length: 520 }, (_, k) => line(k)).join(''));
    expect(file.length * 2).toBeGreaterThan(32 << 20);
    const dir = incident({ 'app-1/rocketmq_client.log': file, 'app-2/rocketmq_client.log': file });
    // analyze: every event is kept by the parse (events --type would drop them there), little is printed
    const r = runBin(['analyze', dir, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).inputs.map((i: { events: number }) => i.events)).toEqual([520, 520]);
  });
});

describe('times that do not exist', () => {
  const header = (ts: string) => `${ts} WARN NettyClientWorkerThread_3 - NETTY CLIENT PIPELINE: IDLE exception [10.0.0.1:9876]`;

  it('reads Feb 30, month 13, 24:00:00 and year 0000 as no time, and says so', () => {
    const dir = incident({
      'mq-node-100/broker.log': ['2024-02-30 14:03:18', '2024-13-01 14:03:18', '2024-05-01 24:00:00', '0000-05-01 10:00:00', '2024-04-31 10:00:00', '2024-05-01 10:00:00'].map(header).join('\n') + '\n',
    });
    const r = events(dir);
    expect(r.events.map((e) => e.time)).toEqual([null, null, null, null, null, '2024-05-01T10:00:00.000+08:00']);
    expect(r.summary.issues.map((i) => i.message)).toEqual(['5 records with a time that does not exist (first at line 1: 2024-02-30 14:03:18), read without a time']);
  });

  it('reads a two-digit year 99 as 1999 and 16 as 2016', () => {
    const dir = incident({ 'app-1/client.log': ['99-11-02 10:56:03', '16-11-02 10:56:03'].map(header).join('\n') + '\n' });
    expect(events(dir).events.map((e) => e.time)).toEqual(['1999-11-02T10:56:03.000+08:00', '2016-11-02T10:56:03.000+08:00']);
  });

  it('window.start is the earliest time, not the first one read', () => {
    // a paste newest first
    const dir = incident({ 'mq-node-100/broker.log': ['2024-05-01 10:05:00', '2024-05-01 10:03:00', '2024-05-01 10:01:00'].map(header).join('\n') + '\n' });
    const r = runBin(['events', dir, '--json']);
    const summary = ndjson(r.stdout).pop()!.summary;
    expect(summary.window).toEqual({ start: '2024-05-01T10:01:00.000+08:00', end: '2024-05-01T10:05:00.000+08:00' });
  });
});
