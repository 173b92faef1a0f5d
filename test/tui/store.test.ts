import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeEvent } from '../../src/parse/event-codec.js';
import { EVENT_TYPES } from '../../src/parse/types.js';
import { ColumnsBuilder, SpillSink, levelRank, storeFromEvents } from '../../src/tui/store.js';
import { T0, ev, resetLines } from './helpers.js';

describe('ColumnsBuilder', () => {
  it('reads kind, line, level and type from the front of the JSON without parsing it', () => {
    resetLines();
    const events = [
      ev({ at: 0, type: 'rpc-timeout', level: 'WARN', kind: 'client', line: 34 }),
      ev({ at: 1, host: 'b', kind: 'broker', file: 'b/broker.log', level: null, type: 'watermark', line: 7 }),
      // A host and text that look like keys must not confuse the reader.
      ev({ at: 2, host: 'h"kind":"x', file: 'odd "line":9 file', level: 'ERROR', type: 'other', text: '"type":"startup" "level":"WARN"' }),
    ];
    const s = storeFromEvents(events);
    expect(s.length).toBe(3);
    expect([...s.kind].map((k) => ['client', 'broker', 'namesrv', 'remoting', 'store', 'watermark', 'stats', 'app', 'unknown'][k])).toEqual(['client', 'broker', 'client']);
    expect([...s.line]).toEqual([34, 7, events[2].line]);
    expect([...s.level].map((l) => s.levels[l])).toEqual(['WARN', null, 'ERROR']);
    expect([...s.type].map((t) => EVENT_TYPES[t])).toEqual(['rpc-timeout', 'watermark', 'other']);
    expect(s.get(2)).toMatchObject({ host: 'h"kind":"x', text: '"type":"startup" "level":"WARN"', ts: T0 + 2 });
  });

  it('keeps position times non-decreasing; events without a time sit at the time before them', () => {
    resetLines();
    const s = storeFromEvents([
      ev({ at: 0, ts: null, clock: '13:59:59.000' }),
      ev({ at: 1000 }),
      ev({ at: 0, ts: null }),
      ev({ at: 500 }), // a source stepping back keeps its place
      ev({ at: 2000 }),
    ]);
    expect([...s.t].map((t) => t - T0)).toEqual([1000, 1000, 1000, 1000, 2000]);
    expect(s.get(0).ts).toBeNull();
    expect(s.get(3).ts).toBe(T0 + 500);
    expect(s.dated).toBe(true);
  });

  it('puts everything at 0 when nothing has a date', () => {
    resetLines();
    const s = storeFromEvents([ev({ at: 0, ts: null }), ev({ at: 0, ts: null })]);
    expect([...s.t]).toEqual([0, 0]);
    expect(s.dated).toBe(false);
  });

  it('ranks levels', () => {
    expect(['DEBUG', 'INFO', 'WARN', 'WARNING', 'ERROR', 'FATAL', null, 'NOISE'].map(levelRank)).toEqual([1, 2, 3, 3, 4, 5, 2, 2]);
  });
});

describe('SpillSink', () => {
  it('reads back every event by index, forwards, backwards and at random, across blocks', () => {
    resetLines();
    const sink = new SpillSink();
    const b = new ColumnsBuilder([{ file: 'inc/app-1/rocketmq_client.log', host: 'app-1' }], sink);
    const jsons: string[] = [];
    for (let i = 0; i < 6000; i++) {
      // Some long, some non-ASCII: byte offsets are not character offsets.
      const text = i % 7 === 0 ? `消息 ${i} ` + 'x'.repeat(900) : `line ${i} é`;
      const json = encodeEvent(ev({ at: i, text }));
      jsons.push(json);
      b.add(T0 + i, json, 0);
    }
    const s = b.finish();
    try {
      for (let i = 0; i < 6000; i += 1) expect(s.raw(i)).toBe(jsons[i]);
      for (let i = 5999; i >= 0; i -= 1) expect(s.raw(i)).toBe(jsons[i]);
      for (const i of [3, 5998, 17, 4000, 0, 2999]) expect(s.get(i).text).toBe(JSON.parse(jsons[i]).text);
    } finally {
      s.close();
    }
    expect(() => s.close()).not.toThrow();
  });

  it('keeps its file in a temp folder of its own, removed on close', () => {
    resetLines();
    const parent = mkdtempSync(join(tmpdir(), 'rmq-diag-test-'));
    try {
      const b = new ColumnsBuilder([{ file: 'f', host: 'h' }], new SpillSink(parent));
      b.add(T0, encodeEvent(ev({ at: 0 })), 0);
      const s = b.finish();
      expect(readdirSync(parent)).toHaveLength(1);
      expect(s.get(0).host).toBe('app-1');
      s.close();
      expect(readdirSync(parent)).toHaveLength(0);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});
