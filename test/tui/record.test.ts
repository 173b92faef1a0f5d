// The detail pane's record reader: a record read again from its file, plain and gzipped, up to the
// next record's header; from the record's header when the event's line is a stack line.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { cachedRecord, isRecordHeader, readRecord, RECORD_MAX_LINES } from '../../src/tui/record.js';

const dir = mkdtempSync(join(tmpdir(), 'rmq-diag-record-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A 4.x client log: a record with a stack trace and the blank line the client prints after it.
const LOG = [
  '2020-12-22 14:42:11,044 WARN RocketmqRemoting - invokeSync: wait response timeout exception, the channel[192.168.3.100:10911]',
  '2020-12-22 14:42:11,044 WARN RocketmqClient - sendKernelImpl exception, resend at once, RT: 3003ms',
  'org.apache.rocketmq.remoting.exception.RemotingTimeoutException: wait response on the channel <192.168.3.100:10911> timeout, 2999(ms)',
  '\tat org.apache.rocketmq.remoting.netty.NettyRemotingAbstract.invokeSyncImpl(NettyRemotingAbstract.java:436)',
  '\tat org.apache.rocketmq.client.impl.MQClientAPIImpl.sendMessageSync(MQClientAPIImpl.java:503)',
  '',
  '2020-12-22 14:42:12,000 INFO RocketmqClient - next record \u001b[31mred\u001b[0m',
  '',
].join('\r\n');

const plain = join(dir, 'rocketmq_client.log');
const gz = join(dir, 'rocketmq_client.log.1.gz');
writeFileSync(plain, LOG);
writeFileSync(gz, gzipSync(LOG));

const RECORD = LOG.split('\r\n').slice(1, 5);

describe('readRecord', () => {
  for (const [name, file] of [
    ['plain', plain],
    ['gzipped', gz],
  ] as const) {
    it(`reads a whole record with its stack from a ${name} file, without the blank line or the next record`, async () => {
      expect(await readRecord(file, 2)).toEqual({ kind: 'ok', first: 2, lines: RECORD, truncated: false });
    });

    it(`starts at the record's header when the event is a stack line (${name})`, async () => {
      expect(await readRecord(file, 4)).toEqual({ kind: 'ok', first: 2, lines: RECORD, truncated: false });
    });
  }

  it('reads a one-line record and the last record of the file', async () => {
    expect(await readRecord(plain, 1)).toEqual({ kind: 'ok', first: 1, lines: [LOG.split('\r\n')[0]], truncated: false });
    expect(await readRecord(plain, 7)).toMatchObject({ kind: 'ok', first: 7, lines: ['2020-12-22 14:42:12,000 INFO RocketmqClient - next record \u001b[31mred\u001b[0m'] });
  });

  it('cuts a very long record and says so', async () => {
    const long = join(dir, 'long.log');
    writeFileSync(long, [LOG.split('\r\n')[1], ...Array.from({ length: 1000 }, (_, i) => `\tat a.B.c(B.java:${i})`)].join('\n'));
    const r = await readRecord(long, 1);
    expect(r).toMatchObject({ kind: 'ok', first: 1, truncated: true });
    expect(r.kind === 'ok' && r.lines.length).toBe(RECORD_MAX_LINES);
  });

  it('says why when the record cannot be read: stdin, a missing file, a line past the end', async () => {
    expect(await readRecord('-', 3)).toMatchObject({ kind: 'unavailable', reason: expect.stringMatching(/stdin cannot be read again/) });
    expect(await readRecord(join(dir, 'gone.log'), 3, 'inc/gone.log')).toMatchObject({ kind: 'unavailable', reason: expect.stringMatching(/no such file/) });
    expect(await readRecord(plain, 99, 'inc/x.log')).toMatchObject({ kind: 'unavailable', reason: 'inc/x.log has no line 99 now (the file changed since it was read?)' });
  });

  it('stops when told to, and remembers completed reads', async () => {
    const ctl = new AbortController();
    ctl.abort();
    expect(await readRecord(plain, 2, plain, ctl.signal)).toMatchObject({ kind: 'unavailable', reason: 'reading cancelled' });
    const a = await cachedRecord(gz, 2);
    expect(await cachedRecord(gz, 2)).toBe(a);
  });

  it('knows record headers by the layouts', () => {
    expect(isRecordHeader(LOG.split('\r\n')[1])).toBe(true);
    expect(isRecordHeader('\tat a.B.c(B.java:1)')).toBe(false);
    expect(isRecordHeader('')).toBe(false);
  });
});
