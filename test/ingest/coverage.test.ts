// What a report says its inputs lack: one host, the servers alone, the applications alone.
import { describe, expect, it } from 'vitest';
import { clientLogsRead, IMPACT_UNKNOWN, inputGaps } from '../../src/ingest/coverage.js';
import type { SourceKind } from '../../src/ingest/kinds.js';

const src = (host: string, ...kinds: SourceKind[]) => kinds.map((kind) => ({ host, kind }));

describe('inputGaps', () => {
  it('one broker host: the NameServers and the clients would add', () => {
    expect(inputGaps(src('mq-broker-a', 'broker', 'watermark', 'stats', 'store'))).toEqual([
      "only one host read (mq-broker-a): the NameServers' logs would show when the broker was dropped, the clients' logs the failed sends",
    ]);
  });

  it('one NameServer host, one client host, one host with everything', () => {
    expect(inputGaps(src('mq-ns-1', 'namesrv'))).toEqual([
      "only one host read (mq-ns-1): the brokers' logs would show why they stopped registering, the clients' logs the failed sends",
    ]);
    expect(inputGaps(src('app-1', 'client', 'app'))).toEqual([
      "only one host read (app-1): the servers' logs (broker.log, namesrv.log, watermark.log) would tell the cause",
    ]);
    expect(inputGaps(src('box', 'namesrv', 'broker', 'client'))).toEqual(['only one host read (box)']);
  });

  it('servers alone: the impact is unknown and where to fetch it', () => {
    const g = inputGaps([...src('mq-ns-1', 'namesrv'), ...src('mq-broker-a', 'broker')]);
    expect(g).toHaveLength(1);
    expect(g[0]).toMatch(/^no client or application log among the inputs: impact on producers unknown; .*~\/logs\/rocketmqlogs\/rocketmq_client\.log and their application logs/);
  });

  it('applications alone: the servers\' logs would tell the cause', () => {
    expect(inputGaps([...src('app-1', 'client'), ...src('app-2', 'app')])).toEqual([
      "no broker or NameServer log among the inputs: the servers' broker.log, namesrv.log and watermark.log would tell the cause",
    ]);
  });

  it('servers and clients of several hosts: nothing to say; no input: nothing', () => {
    expect(inputGaps([...src('mq-ns-1', 'namesrv'), ...src('app-1', 'app')])).toEqual([]);
    expect(inputGaps([])).toEqual([]);
  });
});

it('clientLogsRead: a client or an application log', () => {
  expect(clientLogsRead(src('a', 'broker', 'namesrv'))).toBe(false);
  expect(clientLogsRead(src('a', 'broker', 'app'))).toBe(true);
  expect(IMPACT_UNKNOWN).toMatch(/^unknown: /);
});
