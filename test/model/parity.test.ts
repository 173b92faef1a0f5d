// The model's events are the parsers' events: render every simulated log file, parse it with the
// project's SourceParser, and compare event by event (type, fields, line, level, thread, logger,
// text, catalogue entry, kind, time at the layout's precision).

import { describe, expect, it } from 'vitest';
import { SourceParser } from '../../src/parse/parser.js';
import { parseZone } from '../../src/parse/time.js';
import type { RmqEvent } from '../../src/parse/types.js';
import type { SourceKind } from '../../src/ingest/kinds.js';
import { runScenario } from '../../src/model/scenario.js';
import { client, NS_A, NS_B, seedOutage } from './scenarios.js';

const KIND_BY_NAME: Record<string, SourceKind> = {
  'rocketmq_client.log': 'client',
  'app.log': 'app',
  'broker.log': 'broker',
  'remoting.log': 'remoting',
  'store.log': 'store',
  'watermark.log': 'watermark',
  'namesrv.log': 'namesrv',
};

function parse(path: string, lines: string[]): RmqEvent[] {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const out: RmqEvent[] = [];
  const p = new SourceParser(
    { file: path, host: path.slice(4, path.lastIndexOf('/')), sourceIndex: 0, kindHint: KIND_BY_NAME[name], kindForced: false, defaultZone: parseZone('+08:00') },
    (e) => out.push(e),
  );
  lines.forEach((l, i) => p.line(l, i + 1));
  p.end();
  return out;
}

function key(e: RmqEvent, precisionMs: number): string {
  const ts = e.ts === null ? null : e.ts - (e.ts % precisionMs);
  return JSON.stringify([e.line, e.type, e.fields, e.level, e.thread, e.logger, e.text, e.entry, e.kind, e.host, ts]);
}

describe('parity with the parsers', () => {
  const seed = 9;
  const clients = [
    client('app-order-01', '4.8.0', NS_A),
    client('app-pay-01', '4.6.0', NS_B),
    client('app-shop-01', '4.9.4', NS_A),
    client('app-stock-01', '5.1.4', NS_B),
    client('app-cart-01', '5.3.3', NS_A, { selector: true }),
  ];
  const sc = seedOutage({ hangAtMs: 200000, hangMs: 150000, clients });
  sc.brokers[1].version = '5.3.3';
  sc.nameServers[1].version = '5.3.3';
  sc.faults!.push({ atMs: 100000, broker: 'broker-b', stall: { durationMs: 700 } }, { atMs: 150000, broker: 'broker-b', slowPut: { durationMs: 1500 } });
  const r = runScenario(sc, { seed, untilMs: 420000, keepLines: true });

  it(`every simulated file parses back to the same events (seed ${seed})`, () => {
    const byFile = new Map<string, RmqEvent[]>();
    for (const e of r.events) {
      const list = byFile.get(e.file) ?? [];
      list.push(e);
      byFile.set(e.file, list);
    }
    const files = Object.keys(r.logs!);
    expect(files.length).toBeGreaterThanOrEqual(20);
    let compared = 0;
    for (const path of files) {
      const lines = r.logs![path];
      const sim = byFile.get(path) ?? [];
      const layoutHasMs = /rocketmq_client\.log$|app\.log$/.test(path) && !/app-pay-01\/rocketmq_client/.test(path);
      const precision = layoutHasMs ? 1 : 1000;
      const parsed = parse(path, lines);
      expect(parsed.map((e) => key(e, precision)), path).toEqual(sim.map((e) => key(e, precision)));
      compared += sim.length;
    }
    expect(compared).toBe(r.events.length);
  });

  it('covers the event types of the outage', () => {
    const types = new Set(r.events.map((e) => e.type));
    for (const t of [
      'busy-reply',
      'send-attempt-failed',
      'send-call-timeout',
      'rpc-timeout',
      'connect-failed',
      'channel-closed',
      'namesrv-chosen',
      'namesrv-list',
      'route-update-failed',
      'route-changed',
      'broker-registered',
      'broker-removed',
      'watermark',
      'store-slow',
      'pipeline',
      'startup',
      'heartbeat-failed',
      'register-failed',
      'broker-jstack',
    ] as const) {
      expect(types.has(t), t).toBe(true);
    }
  });

  it('events come in time order with epoch-ms times, host, kind and a sim: file', () => {
    let last = -Infinity;
    for (const e of r.events) {
      expect(e.ts).not.toBeNull();
      expect(e.ts!).toBeGreaterThanOrEqual(last);
      last = e.ts!;
      expect(e.file).toMatch(/^sim:[^/]+\/[a-z_]+\.log$/);
      expect(e.file.slice(4, e.file.lastIndexOf('/'))).toBe(e.host);
    }
    expect(r.events[0].ts!).toBeGreaterThanOrEqual(sc.startEpochMs);
  });
});
