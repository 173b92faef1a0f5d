// BROADCASTING push consumers in the model (no lab recording has one replayed yet): every instance
// takes every queue and consumes every message, offsets stay with the instance (LocalFileOffsetStore,
// on its host: nothing is committed on the broker, a process started again reads them), a first start
// begins at the queues' max offset, a failed message is dropped rather than sent back, and no %RETRY%
// queue is pulled.

import { describe, expect, it } from 'vitest';
import { runScenario, type Scenario, type ScenarioConsumerGroup } from '../../src/model/index.js';
import { validateScenario } from '../../src/replay/file.js';

/** Sends every 200 ms from 10 s to 70 s: 300 messages over 8 queues of two brokers. */
const SENDS = Array.from({ length: 300 }, (_, i) => 10000 + i * 200);

function cluster(group: Partial<ScenarioConsumerGroup>): Scenario {
  return {
    name: 'broadcasting',
    startEpochMs: Date.UTC(2026, 11, 5, 2, 0, 0),
    serverVersion: '4.9.4',
    nameServers: [{ addr: '10.1.0.11:9876', host: 'ns-1' }],
    brokers: [
      { name: 'broker-a', addr: '10.1.0.21:10911', host: 'mq-a' },
      { name: 'broker-b', addr: '10.1.0.22:10911', host: 'mq-b' },
    ],
    topics: [{ name: 'TopicAudit', queues: 4 }],
    clients: [{ host: 'app-order-01', version: '4.9.4', topic: 'TopicAudit', sendRatePerSec: 5, startAtMs: 2000, sendTimesMs: SENDS }],
    consumerGroups: [
      {
        group: 'CID_AUDIT',
        topic: 'TopicAudit',
        version: '4.9.4',
        messageModel: 'BROADCASTING',
        listener: { processMs: 5 },
        instances: [
          { host: 'app-audit-01', startAtMs: 3000 },
          { host: 'app-audit-02', startAtMs: 3500 },
          { host: 'app-audit-03', startAtMs: 4000 },
        ],
        ...group,
      },
    ],
  };
}

const run = (sc: Scenario, untilMs = 90000) => runScenario(sc, { seed: 1, untilMs, watermark: false, keepTypes: new Set() }).metrics.consumerGroups!.CID_AUDIT;

describe('BROADCASTING consumers', () => {
  it('every instance consumes every message once; CLUSTERING shares them', () => {
    const b = run(cluster({}));
    expect(b.consumed).toBe(3 * SENDS.length);
    expect(b.duplicates).toBe(0);
    expect(b.lag[b.lag.length - 1].total).toBe(0);
    const c = run(cluster({ messageModel: 'CLUSTERING' }));
    expect(c.consumed - c.duplicates).toBe(SENDS.length);
  });

  it('a failed message is dropped, not sent back: nothing goes to %RETRY% or the DLQ, and it is not delivered again', () => {
    const g = run(cluster({ listener: { processMs: 5, laterShare: 0.2 } }));
    expect(g.failed).toBeGreaterThan(0.1 * 3 * SENDS.length);
    expect([g.retried, g.dlq]).toEqual([0, 0]);
    // One delivery per message and instance: the failed ones are not tried again.
    expect(g.deliveries).toBe(3 * SENDS.length);
    expect(g.lag.every((l) => l.retry === 0)).toBe(true);
  });

  it('an instance started late begins at the max offset (no offsets file on its host)', () => {
    const sc = cluster({});
    // app-audit-03 starts at 40 s: it misses the 150 messages sent before.
    sc.consumerGroups![0].instances[2].startAtMs = 40000;
    const late = run(sc);
    const before = SENDS.filter((t) => t < 40000).length;
    expect(late.consumed).toBeGreaterThanOrEqual(3 * SENDS.length - before - 5);
    expect(late.consumed).toBeLessThanOrEqual(3 * SENDS.length - before + 5);
  });

  it("a killed instance started again on its host goes on from its offsets file: it misses nothing, and consumes again what it had not persisted", () => {
    // app-audit-02 is killed at 30 s and comes back at 50 s (client id ip@DEFAULT: the same file).
    const sc = cluster({});
    sc.consumerGroups![0].instances.push({ host: 'app-audit-02', startAtMs: 50000 });
    sc.consumerGroups![0].instances[1].stopAtMs = 30000;
    sc.consumerGroups![0].instances[1].stop = 'kill';
    const g = run(sc);
    expect(g.consumed - g.duplicates).toBe(3 * SENDS.length);
    // Persisted every 5 s: at most 5 s of its consumption (5 messages a second) again.
    expect(g.duplicates).toBeGreaterThan(0);
    expect(g.duplicates).toBeLessThanOrEqual(26);
    // Shut down instead (offsets persisted first): nothing again.
    sc.consumerGroups![0].instances[1].stop = 'shutdown';
    const s = run(sc);
    expect(s.duplicates).toBe(0);
    expect(s.consumed).toBe(3 * SENDS.length);
  });

  it('the scenario file takes BROADCASTING and refuses it orderly', () => {
    const sc = cluster({});
    expect(() => validateScenario(sc)).not.toThrow();
    sc.consumerGroups![0].consumeMode = 'orderly';
    expect(() => validateScenario(sc)).toThrow(/consumerGroups\[0\]\.consumeMode: an orderly BROADCASTING group is not modelled/);
  });
});
