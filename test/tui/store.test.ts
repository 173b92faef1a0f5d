import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeEvent, readHeader } from '../../src/parse/event-codec.js';
import { EVENT_TYPES } from '../../src/parse/types.js';
import { SOURCE_KINDS } from '../../src/ingest/kinds.js';
import { CELLS, ColumnsBuilder, DECODED_CHARS, EVENT_BYTES, EventStore, SpillSink, TUNING, levelRank, storeFromEvents } from '../../src/tui/store.js';
import { DEFAULT_FILTER, NO_FILTER, type Dims } from '../../src/tui/view-model.js';
import { syntheticModel } from '../../src/tui/synthetic.js';
import { T0, TINY, ev, mixed, resetLines } from './helpers.js';

const open: EventStore[] = [];
afterAll(() => open.forEach((s) => s.close()));
const keep = (s: EventStore) => (open.push(s), s);

const all = <T>(s: EventStore, f: (i: number) => T) => Array.from({ length: s.length }, (_, i) => f(i));
const columnsOf = (s: EventStore) => all(s, (i) => [s.tAt(i), s.sourceAt(i), s.typeAt(i), s.levelAt(i), s.kindAt(i), s.lineAt(i), s.noiseAt(i), s.hostAt(i)]);

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
    const all = <T>(f: (i: number) => T) => Array.from({ length: s.length }, (_, i) => f(i));
    expect(all((i) => SOURCE_KINDS[s.kindAt(i)])).toEqual(['client', 'broker', 'client']);
    expect(all((i) => s.lineAt(i))).toEqual([34, 7, events[2].line]);
    expect(all((i) => s.levels[s.levelAt(i)])).toEqual(['WARN', null, 'ERROR']);
    expect(all((i) => EVENT_TYPES[s.typeAt(i)])).toEqual(['rpc-timeout', 'watermark', 'other']);
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
    expect(Array.from({ length: 5 }, (_, i) => s.tAt(i) - T0)).toEqual([1000, 1000, 1000, 1000, 2000]);
    expect(s.get(0).ts).toBeNull();
    expect(s.get(3).ts).toBe(T0 + 500);
    expect(s.dated).toBe(true);
  });

  it('puts everything at 0 when nothing has a date', () => {
    resetLines();
    const s = storeFromEvents([ev({ at: 0, ts: null }), ev({ at: 0, ts: null })]);
    expect([s.tAt(0), s.tAt(1)]).toEqual([0, 0]);
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
      // Every third as its UTF-8 bytes (the TUI's load takes them so from the parse), within a larger buffer.
      if (i % 3 === 0) {
        const bytes = Buffer.from(`xx${json}yy`);
        b.addBytes(T0 + i, readHeader(json, { kind: '', line: 0, level: null, type: 'other' }), bytes, 2, bytes.length - 2, 0);
      } else b.add(T0 + i, json, 0);
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

  it('reads back a record longer than its write buffer, and the records after it', () => {
    resetLines();
    const b = new ColumnsBuilder([{ file: 'f', host: 'h' }], new SpillSink());
    const jsons = [0, 1, 2, 3].map((i) => encodeEvent(ev({ at: i, text: i === 1 ? 'y'.repeat(3 << 20) : `line ${i}` })));
    jsons.forEach((json, i) => b.add(T0 + i, json, 0));
    const s = b.finish();
    try {
      jsons.forEach((json, i) => expect(s.raw(i)).toBe(json));
    } finally {
      s.close();
    }
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

describe('the store on disk', () => {
  const events = mixed(1500);
  const mem = keep(storeFromEvents(events));
  const disk = keep(storeFromEvents(events, new SpillSink(), TINY));

  it('has the same columns, JSON and events as in memory, in any order of reading', () => {
    expect(disk.length).toBe(1500);
    expect(columnsOf(disk)).toEqual(columnsOf(mem));
    expect(disk.levels).toEqual(mem.levels);
    const order = [...Array(1500).keys()];
    for (const idx of [order, [...order].reverse(), order.map((i) => (i * 7919) % 1500)]) {
      for (const i of idx) expect(disk.raw(i)).toBe(mem.raw(i));
    }
    for (const i of [0, 39, 40, 41, 777, 1499]) expect(disk.get(i)).toEqual(mem.get(i));
    expect(disk.get(3).ts).toBeNull();
    expect(disk.get(44).ts).toBe(T0 + 44 * 250 - 5000);
    expect(() => disk.tAt(1500)).toThrow(RangeError);
    expect(() => disk.raw(-1)).toThrow(RangeError);
  });

  it('puts the undated events before the first dated one at its time, on every page', () => {
    const first = disk.tAt(40);
    expect(first).toBe(T0 + 40 * 250);
    expect(all(disk, (i) => disk.tAt(i)).slice(0, 41)).toEqual(Array(41).fill(first));
    const t = all(disk, (i) => disk.tAt(i));
    expect(t.every((x, i) => i === 0 || x >= t[i - 1])).toBe(true);
    resetLines();
    const undated = keep(storeFromEvents([ev({ at: 0, ts: null }), ...Array.from({ length: 40 }, () => ev({ at: 0, ts: null }))], new SpillSink(), TINY));
    expect(undated.dated).toBe(false);
    expect(all(undated, (i) => undated.tAt(i))).toEqual(Array(41).fill(0));
  });

  it('finds events by time as a search over every event would', () => {
    const t = all(mem, (i) => mem.tAt(i));
    const first = (ms: number) => {
      const i = t.findIndex((x) => x >= ms);
      return i < 0 ? t.length : i;
    };
    for (const ms of [-Infinity, 0, T0, t[40], t[40] + 1, t[700], t[700] - 1, t[1499], t[1499] + 1, Infinity, ...Array.from({ length: 50 }, (_, k) => T0 + k * 7777)]) {
      expect([ms, disk.indexAtTime(ms)]).toEqual([ms, first(ms)]);
      expect([ms, mem.indexAtTime(ms)]).toEqual([ms, first(ms)]);
    }
  });

  it('summarises blocks of events: their first and last time, their events per host and cell; blocks grow instead of multiplying', () => {
    const b = disk.blocks;
    // 1500 events in at most 8 blocks of 4 << k events: 256 a block.
    expect([b.max, b.size, b.count]).toEqual([8, 256, 6]);
    const cellOf = (i: number) => 2 * (levelRank(disk.levels[disk.levelAt(i)]) >= 4 ? 2 : levelRank(disk.levels[disk.levelAt(i)]) === 3 ? 1 : 0) + (disk.typeOf(i) === 'other' ? 1 : 0);
    const want = new Uint32Array(b.hist.length);
    for (let i = 0; i < disk.length; i++) want[(Math.floor(i / b.size) * b.hosts + disk.hostAt(i)) * CELLS + cellOf(i)]++;
    expect([...b.hist]).toEqual([...want]);
    for (let k = 0; k < b.count; k++) {
      expect(b.t0[k]).toBe(disk.tAt(k * b.size));
      expect(b.t1[k]).toBe(disk.tAt(Math.min(disk.length, (k + 1) * b.size) - 1));
    }
    expect([...disk.hostCounts()]).toEqual(disk.hosts.map((_, h) => all(disk, (i) => disk.hostAt(i)).filter((x) => x === h).length));
    // The memory form with the default sizes: one block of 256 events at first, six blocks.
    expect([mem.blocks.size, mem.blocks.count]).toEqual([TUNING.blockMin, 6]);
    expect([...mem.hostCounts()]).toEqual([...disk.hostCounts()]);
  });

  it('scans pages for the columns asked for without changing what is cached', () => {
    disk.scan(0, 1, 'all', () => {}); // its scratch page, once
    disk.tAt(5);
    disk.tAt(700);
    const before = disk.retainedBytes;
    const seen: number[][] = [];
    disk.scan(3, 1497, 'time', (pg, j0, j1) => {
      for (let j = j0; j < j1; j++) seen.push([pg.start + j, pg.t[j], pg.source[j], pg.type[j], pg.level[j], pg.kind[j], pg.noise[j]]);
    });
    expect(seen).toEqual(all(mem, (i) => [i, mem.tAt(i), mem.sourceAt(i), mem.typeAt(i), mem.levelAt(i), mem.kindAt(i), mem.noiseAt(i) ? 1 : 0]).slice(3, 1497));
    expect(disk.retainedBytes).toBe(before);
    let pages = 0;
    disk.scan(0, 1500, 'filter', () => ++pages < 3);
    expect(pages).toBe(3);
  });

  it('keeps its pages and JSON in its own temp folder, removed on close', () => {
    const parent = mkdtempSync(join(tmpdir(), 'rmq-diag-test-'));
    try {
      const s = storeFromEvents(events.slice(0, 100), new SpillSink(parent), TINY);
      const [dir] = readdirSync(parent);
      expect(readdirSync(join(parent, dir)).sort()).toEqual(['columns.bin', 'events.jsonl']);
      s.close();
      expect(readdirSync(parent)).toHaveLength(0);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

describe('memory', () => {
  it('keeps at most DECODED_CHARS of decoded JSON: a few hundred route-dump lines, not thousands', () => {
    resetLines();
    // A route dump of 200 brokers prints about 41 KB on one line.
    const dump = (i: number) => `Route ${i}: ` + 'brokerDatas=[BrokerData [brokerName=broker-a, brokerAddrs={0=10.0.0.1:10911}], '.repeat(500);
    const events = Array.from({ length: 1000 }, (_, i) => ev({ at: i, type: 'route-changed', text: dump(i) }));
    const s = keep(storeFromEvents(events, new SpillSink(), TINY));
    const e0 = s.get(0);
    for (let i = 0; i < s.length; i++) expect(s.get(i).text).toBe(events[i].text);
    expect(s.decodedChars).toBeLessThanOrEqual(DECODED_CHARS);
    expect(s.decodedChars).toBeGreaterThan(DECODED_CHARS - 2 * s.raw(999).length);
    const kept = s.decodedCount;
    expect(kept).toBeLessThan(300);
    expect(kept).toBeGreaterThan(100);
    // The newest are the ones kept: event 999 comes from the cache (the same object), event 0 was
    // given away and is decoded again.
    expect(s.get(999)).toBe(s.get(999));
    const again = s.get(0);
    expect(again).not.toBe(e0);
    expect(again).toEqual(e0);
    expect(s.decodedCount).toBeLessThanOrEqual(kept);
  });

  const DIMS: Dims = { listRows: 30, stripCols: 100 };
  /** Opens the TUI's model on n synthetic events and goes through what a session does. */
  function session(events: number, disk: boolean) {
    const { model } = syntheticModel({ events, disk, tuning: { ...TUNING, cachePages: 8 } });
    let s = model.initial(DIMS);
    const go = (a: Parameters<typeof model.reduce>[1]) => {
      s = model.reduce(s, a, DIMS);
      model.strip(s, 100, 8);
      model.visible(s, DIMS).forEach((i) => model.store.get(i));
    };
    go({ type: 'focus', pane: 'events' });
    for (const a of [{ type: 'end' }, { type: 'home' }, { type: 'page', by: 1 }, { type: 'zoom', by: 1 }, { type: 'step', by: 1 }, { type: 'finding', by: 1 }, { type: 'zoom', by: -1 }] as const) go(a);
    go({ type: 'filter', filter: { ...NO_FILTER, minLevel: 2 } }); // nearly every event
    go({ type: 'end' });
    go({ type: 'filter', filter: { ...NO_FILTER, types: ['rpc-timeout'] } });
    go({ type: 'filter', filter: DEFAULT_FILTER });
    for (let k = 0; k < 40; k++) go({ type: 'page', by: 1 });
    go({ type: 'search', query: 'invokeId 7', by: 1 });
    const total = model.retainedBytes;
    // A filter that lists nearly every event, read end to end.
    const rows = model.rows({ ...NO_FILTER, minLevel: 2 });
    for (let r = 0; r < rows.length; r += 1000) rows.at(r);
    const out = { total, store: model.store.retainedBytes, rows: rows.retainedBytes, listed: rows.length, onFile: (rows as { onFile?: boolean }).onFile };
    model.store.close();
    return out;
  }

  it('keeps the same bytes in memory for 100,000 and 1,000,000 events on disk', () => {
    const small = session(100_000, true);
    const large = session(1_000_000, true);
    expect(large.store).toBe(small.store);
    // Rows listed: 90,000 and 900,000, both in a file; in memory the same summary and chunks.
    expect([small.listed, large.listed]).toEqual([expect.any(Number), expect.any(Number)]);
    expect(small.listed).toBeGreaterThan(80_000);
    expect(large.listed).toBeGreaterThan(800_000);
    expect([small.onFile, large.onFile]).toEqual([true, true]);
    expect(large.rows).toBe(small.rows);
    // Everything the model holds: the store's summary and the summaries of its last two filters'
    // rows (about 2 MiB each), the cached pages (8 of 156 KB here), the strip's counts.
    expect(small.total).toBeLessThan(12 << 20);
    expect(large.total).toBeLessThan(12 << 20);
    // In memory the pages alone are EVENT_BYTES an event: what the disk form does not keep.
    const inMemory = syntheticModel({ events: 1_000_000 }).model.store;
    expect(inMemory.retainedBytes).toBeGreaterThan(1_000_000 * EVENT_BYTES);
    inMemory.close();
  });
});
