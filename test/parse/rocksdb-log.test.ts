// A 5.x broker's RocksDB info log (ConfigHelper.getDBLogDir: ~/logs/rocketmqlogs/<db path>_LOG),
// read from a lab recording of 5.5.0 brokers: every line accounted, each record with its time.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTimeline } from '../../src/timeline/build.js';

const FILE = join(__dirname, '..', '..', 'samples', 'generated', 'gen-703', 'mq-broker-a', 'logs', 'rocketmqlogs', 'home_rocketmq_store_rocksdbstore_LOG.gz');

describe("RocksDB's info log", () => {
  it('is read in its own layout: the indented option lines are continuations, no line unknown, times from the broker start on', async () => {
    const timeline = await buildTimeline({ inputs: [FILE], types: null });
    try {
      const [a] = timeline.accounting;
      expect(a.layout).toBe('rocksdb-info-log');
      expect(a.unknown).toBe(0);
      expect(a.records).toBeGreaterThan(400);
      expect(a.records + a.continuation).toBe(a.lines);
      // The first record is the broker's RocksDB start, 04:55:33.774105 in the recording's +08:00:
      // the second its rocksdb.log prints `RocksDB [/home/rocketmq/store/rocksdbstore] starts OK`.
      expect(new Date(timeline.first!).toISOString()).toBe('2026-12-04T20:55:33.774Z');
      expect(timeline.last!).toBeGreaterThan(timeline.first!);
    } finally {
      timeline.close();
    }
  });
});
