// Listed rows and bucket counts from the store's pages and block summaries, against what a look at
// every event gives.
import { existsSync, readdirSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { AllRows, countBuckets, MatchRows, type RowList } from '../../src/tui/rows.js';
import { CELLS, SpillSink, levelClassOf, storeFromEvents, type EventStore, type Page } from '../../src/tui/store.js';
import { syntheticModel } from '../../src/tui/synthetic.js';
import { TINY, mixed } from './helpers.js';

const open: EventStore[] = [];
afterAll(() => open.forEach((s) => s.close()));
const keep = (s: EventStore) => (open.push(s), s);

const events = mixed(2000);
const stores: Array<[string, EventStore]> = [
  ['in memory', keep(storeFromEvents(events))],
  ['on disk, small pages and blocks', keep(storeFromEvents(events, new SpillSink(), TINY))],
];

/** The event indices for which test(i) holds, by looking at every one. */
const every = (s: EventStore, test: (i: number) => boolean) => Array.from({ length: s.length }, (_, i) => i).filter(test);
const rowsOf = (r: RowList) => Array.from({ length: r.length }, (_, k) => r.at(k));
const cellOf = (s: EventStore, i: number) => 2 * levelClassOf(s.levels[s.levelAt(i)]) + (s.typeOf(i) === 'other' ? 1 : 0);

describe.each(stores)('rows, %s', (_, s) => {
  const tests: Array<[string, (pg: Page, j: number) => boolean, (i: number) => boolean]> = [
    ['every third', (pg, j) => (pg.start + j) % 3 === 0, (i) => i % 3 === 0],
    ['none', () => false, () => false],
    ['all', () => true, () => true],
    ['rpc-timeout on app-1', (pg, j) => s.typeOf(pg.start + j) === 'rpc-timeout' && s.hostOfSource[pg.source[j]] === 0, (i) => s.typeOf(i) === 'rpc-timeout' && s.hostAt(i) === 0],
    ['noise', (pg, j) => pg.noise[j] === 1, (i) => s.noiseAt(i)],
  ];

  it.each(tests)('lists what a look at every event lists: %s', (_, ok, want) => {
    const rows = MatchRows.select(s, { need: 'filter', ok });
    const expected = every(s, want);
    expect(rowsOf(rows)).toEqual(expected);
    // rowOf: the first row at or after each event, and past the ends.
    const first = (i: number) => {
      const r = expected.findIndex((x) => x >= i);
      return r < 0 ? expected.length : r;
    };
    for (let i = -1; i <= s.length + 1; i++) expect(rows.rowOf(i)).toBe(first(i));
    // Per block: the rows it lists, and their events per host and cell.
    const bl = s.blocks;
    const hist = new Uint32Array(bl.hist.length);
    for (const i of expected) hist[(Math.floor(i / bl.size) * bl.hosts + s.hostAt(i)) * CELLS + cellOf(s, i)]++;
    expect([...rows.hist]).toEqual([...hist]);
    for (let b = 0; b < bl.count; b++) expect(rows.inBlock(b)).toBe(expected.filter((i) => Math.floor(i / bl.size) === b).length);
    rows.close();
  });

  it('adds extra events (a finding quotes them) inside, before and after the range, once each', () => {
    const extra = Int32Array.from([3, 3, 50, 700, 701, 701, 1500, 1999]);
    const rows = MatchRows.select(s, { from: 600, to: 1200, need: 'filter', ok: (pg, j) => (pg.start + j) % 5 === 0, extra, extraOk: (pg, j) => pg.start + j !== 50 });
    const want = [...new Set([3, 700, 701, 1500, 1999, ...every(s, (i) => i >= 600 && i < 1200 && i % 5 === 0)])].sort((a, b) => a - b);
    expect(rowsOf(rows)).toEqual(want);
    expect(rows.rowOf(1200)).toBe(want.indexOf(1500));
    const none = MatchRows.select(s, { from: 0, to: 0, need: 'filter', ok: () => true, extra, extraOk: () => true });
    expect(rowsOf(none)).toEqual([3, 50, 700, 701, 1500, 1999]);
  });

  it('counts events per bucket, lane and cell as a look at every listed event does', () => {
    const all = new AllRows(s);
    const some = MatchRows.select(s, { need: 'filter', ok: (pg, j) => pg.type[j] !== 0 && (pg.start + j) % 2 === 0 });
    const t0 = s.tAt(0);
    const t1 = s.tAt(s.length - 1);
    const laneOfHost = [0, 1, 1, 2];
    for (const rows of [all, some]) {
      const listed = rowsOf(rows);
      for (const [from, to, n] of [
        [t0, t1 + 1, 100],
        [t0, t1 + 1, 7],
        [t0, t1 + 1, 1],
        [t0 - 60_000, t1 + 60_000, 130],
        [t0 + 123_456, t0 + 300_000, 64],
        [t0 + 100_000, t0 + 100_500, 10],
        [t1 + 10, t1 + 20, 5],
      ]) {
        const want = new Uint32Array(3 * CELLS * n);
        const w = (to - from) / n;
        for (const i of listed) {
          const t = s.tAt(i);
          if (t < from || t >= to) continue;
          want[(laneOfHost[s.hostAt(i)] * CELLS + cellOf(s, i)) * n + Math.min(n - 1, Math.floor((t - from) / w))]++;
        }
        expect([from - t0, n, [...countBuckets(s, rows, from, to, n, laneOfHost, 3)]]).toEqual([from - t0, n, [...want]]);
      }
    }
  });
});

describe('rows on disk', () => {
  it('go to a file in the store folder beyond the limit, read back a chunk at a time, removed on close', () => {
    const { model } = syntheticModel({ events: 60_000, disk: true, tuning: { ...TINY, pageShift: 10, cachePages: 4, rowsInMemory: 1000 } });
    const s = keep(model.store);
    const rows = MatchRows.select(s, { need: 'filter', ok: (pg, j) => (pg.start + j) % 3 !== 0 });
    expect(rows.onFile).toBe(true);
    expect(readdirSync(s.dir!).filter((f) => f.startsWith('rows-'))).toHaveLength(1);
    expect(rows.length).toBe(40_000);
    for (const r of [0, 1, 16383, 16384, 39_999, 20_000, 5, 33_333]) expect(rows.at(r)).toBe(r + Math.floor(r / 2) + 1);
    for (const i of [0, 1, 2, 3, 30_000, 59_999]) expect(rows.rowOf(i)).toBe(i - Math.ceil(i / 3));
    // A list at most a chunk and a few cached chunks in memory, whatever its length.
    expect(rows.retainedBytes).toBeLessThan(6 * 65536 + rows.hist.byteLength + 8 * (s.blocks.max + 1));
    const small = MatchRows.select(s, { need: 'filter', ok: (pg, j) => pg.start + j < 500 });
    expect(small.onFile).toBe(false);
    rows.close();
    expect(readdirSync(s.dir!).filter((f) => f.startsWith('rows-'))).toHaveLength(0);
    s.close();
    expect(existsSync(s.dir!)).toBe(false);
  });
});
