// The view model without ink: cursor, scrolling, zoom, filters, search, finding jump, bucket counts.
import { afterAll, describe, expect, it } from 'vitest';
import {
  CLASS_ERROR,
  CLASS_INFO,
  CLASS_OTHER,
  CLASS_UNLISTED,
  CLASS_WARN,
  CLASSES,
  MIN_SPAN_MS,
  DEFAULT_FILTER,
  NO_FILTER,
  SEARCH_CHUNK,
  filterText,
  parseFilter,
  type Action,
  type Dims,
  TuiModel,
  type ViewState,
} from '../../src/tui/view-model.js';
import { replayLanes } from '../../src/tui/replay.js';
import { SpillSink, storeFromEvents } from '../../src/tui/store.js';
import { T0, TINY, ZONE, allListed, ev, incident, modelOf, resetLines, stubView } from './helpers.js';

const DIMS: Dims = { listRows: 10, stripCols: 100 };

function run(model: TuiModel, actions: Action[], s: ViewState = allListed(model, DIMS), dims = DIMS): ViewState {
  for (const a of actions) s = model.reduce(s, a, dims);
  return s;
}

const typeOf = (m: TuiModel, s: ViewState) => m.store.typeOf(s.cursor);
const secondsOf = (m: TuiModel, s: ViewState) => (m.store.tAt(s.cursor) - T0) / 1000;

describe('cursor and scrolling', () => {
  const { model } = incident();

  it('starts (everything listed) at the first event with the whole window in the strip', () => {
    const s = allListed(model, DIMS);
    expect(model.store.length).toBe(282);
    expect(s).toMatchObject({ cursor: 0, top: 0, from: T0, focus: 'events', filter: NO_FILTER, finding: 0, prompt: null });
    expect(s.to - s.from).toBe(595002);
  });

  it('moves by rows and pages, clamps at both ends, and scrolls just enough', () => {
    let s = run(model, [{ type: 'move', by: 1 }]);
    expect(s.cursor).toBe(1);
    s = run(model, [{ type: 'move', by: -5 }], s);
    expect(s.cursor).toBe(0);
    s = run(model, [{ type: 'move', by: 12 }], s);
    expect([s.cursor, s.top]).toEqual([12, 3]);
    s = run(model, [{ type: 'page', by: 1 }], s);
    expect([s.cursor, s.top]).toEqual([21, 12]);
    s = run(model, [{ type: 'page', by: -1 }], s);
    expect([s.cursor, s.top]).toEqual([12, 12]);
    s = run(model, [{ type: 'end' }], s);
    expect([s.cursor, s.top]).toEqual([281, 272]);
    s = run(model, [{ type: 'move', by: 1 }], s);
    expect(s.cursor).toBe(281);
    s = run(model, [{ type: 'home' }], s);
    expect([s.cursor, s.top]).toEqual([0, 0]);
  });

  it('keeps the selected row on screen when the list gets shorter (fit)', () => {
    const s = run(model, [{ type: 'move', by: 9 }]);
    expect(s.top).toBe(0);
    expect(model.fit(s, { ...DIMS, listRows: 4 }).top).toBe(6);
  });

  it('pans the strip to keep the cursor inside it', () => {
    let s = run(model, [{ type: 'zoom', by: 1 }, { type: 'zoom', by: 1 }, { type: 'zoom', by: 1 }]);
    const span = s.to - s.from;
    s = run(model, [{ type: 'end' }], s);
    const t = model.store.tAt(s.cursor);
    expect(t >= s.from && t < s.to).toBe(true);
    expect(s.to - s.from).toBe(span);
  });

  it('steps to the next and previous non-empty bucket of the strip', () => {
    // 100 columns over 595 s: 5.95 s a bucket. Events at 0 s, 0.001 s, 5 s, 5.001 s, 10 s...
    let s = run(model, [{ type: 'step', by: 1 }]);
    expect(secondsOf(model, s)).toBe(10);
    s = run(model, [{ type: 'step', by: 1 }], s);
    expect(secondsOf(model, s)).toBe(15);
    s = run(model, [{ type: 'step', by: -1 }], s);
    expect(secondsOf(model, s)).toBe(10);
    s = run(model, [{ type: 'step', by: -1 }], s);
    expect(secondsOf(model, s)).toBe(0);
    s = run(model, [{ type: 'step', by: -1 }], s);
    expect([s.cursor, s.message]).toEqual([0, 'first event']);
  });
});

describe('zoom', () => {
  const { model } = incident();

  it('halves and doubles the window around the cursor, within the data', () => {
    let s = run(model, [{ type: 'move', by: 130 }]);
    const c = model.store.tAt(s.cursor);
    s = run(model, [{ type: 'zoom', by: 1 }], s);
    expect(s.to - s.from).toBe(595002 / 2);
    expect(s.from).toBe(c - 595002 / 4);
    s = run(model, [{ type: 'zoom', by: 1 }, { type: 'zoom', by: -1 }, { type: 'zoom', by: -1 }], s);
    expect([s.from, s.to - s.from]).toEqual([T0, 595002]);
    s = run(model, [{ type: 'zoom', by: -1 }], s);
    expect(s.message).toBe('the whole window is shown');
  });

  it('stops at the smallest window', () => {
    let s = allListed(model, DIMS);
    for (let i = 0; i < 20; i++) s = run(model, [{ type: 'zoom', by: 1 }], s);
    expect(s.to - s.from).toBeGreaterThanOrEqual(MIN_SPAN_MS);
    expect(s.to - s.from).toBeLessThan(2 * MIN_SPAN_MS);
    expect(s.message).toBe('zoomed in as far as it goes');
  });
});

describe('filters', () => {
  const { model } = incident();
  const listed = (text: string) => {
    const f = parseFilter(text, model.findings.length);
    if (typeof f === 'string') throw new Error(f);
    return model.rows(f).length;
  };

  it('filter by type, host and level, with globs and exclusions', () => {
    expect(listed('type:rpc-timeout')).toBe(40);
    expect(listed('host:app-*')).toBe(161);
    expect(listed('type:!other')).toBe(162);
    expect(listed('level:warn')).toBe(42);
    expect(listed('level:error')).toBe(1);
    expect(listed('host:app-1 type:rpc-timeout,send-failed')).toBe(40);
    expect(listed('host:broker-a level:warn')).toBe(0);
    expect(listed('type:send-*')).toBe(1);
  });

  it('filter by kind and by a regular expression on the text, the syntax of events --kind/--grep', () => {
    const all = listed('');
    expect(listed('kind:client') + listed('kind:!client')).toBe(all);
    expect(listed('kind:broker')).toBe(model.rows(NO_FILTER).length - listed('kind:!broker'));
    const rpc = listed('type:rpc-timeout');
    expect(listed('grep:"wait response timeout"')).toBe(rpc);
    expect(listed('grep:"^2020-12-22 [0-9:,]+ WARN RocketmqRemoting - invokeSync.*s=[0-9]+$"')).toBe(rpc);
    // s = 240, 243, ... 357: those from 300 on.
    expect(listed('grep:s=3[0-9][0-9]$ type:rpc-timeout')).toBe(20);
    expect(listed('g:WAIT')).toBe(0);
    expect(parseFilter('grep:(x', 2)).toMatch(/^filter: grep:\(x: not a regular expression/);
    expect(parseFilter('kind:martian', 2)).toMatch(/^filter: unknown kind "martian"/);
    expect(filterText(parseFilter('grep:"a b"', 2) as never)).toBe('grep:"a b"');
    const text = 'kind:broker,!app grep:a,b';
    expect(filterText(parseFilter(text, 2) as never)).toBe(text);
  });

  it('reads and writes the prompt syntax', () => {
    const text = 'type:rpc-timeout,!other host:app-* level:warn finding:2';
    expect(filterText(parseFilter(text, 2) as never)).toBe(text);
    expect(parseFilter('t:watermark h:broker-a l:error+ f:1', 2)).toEqual({ types: ['watermark'], hosts: ['broker-a'], kinds: [], minLevel: 4, grep: null, finding: 0 });
    expect(parseFilter('', 2)).toEqual(NO_FILTER);
    expect(parseFilter('type:nope', 2)).toBe('filter: unknown event type "nope"');
    expect(parseFilter('colour:red', 2)).toMatch(/unknown key "colour"/);
    expect(parseFilter('level:loud', 2)).toMatch(/unknown level "loud"/);
    expect(parseFilter('finding:3', 2)).toBe('filter: no finding 3 (1..2)');
    expect(parseFilter('rpc', 2)).toMatch(/expected key:value/);
  });

  it('applies through the prompt and keeps the place in the timeline', () => {
    let s = run(model, [{ type: 'move', by: 100 }]); // 245 s, in the burst
    const before = model.store.tAt(s.cursor);
    s = run(model, [{ type: 'prompt', kind: 'filter' }, { type: 'type', text: 'type:rpc-timeoutx' }, { type: 'backspace' }, { type: 'submit' }], s);
    expect(s.prompt).toBeNull();
    expect(filterText(s.filter)).toBe('type:rpc-timeout');
    expect(typeOf(model, s)).toBe('rpc-timeout');
    expect(model.store.tAt(s.cursor)).toBeGreaterThanOrEqual(before);
    expect(secondsOf(model, s)).toBe(246.002);
    // The prompt starts from the filter in effect.
    s = run(model, [{ type: 'prompt', kind: 'filter' }], s);
    expect(s.prompt).toEqual({ kind: 'filter', text: 'type:rpc-timeout' });
  });

  it('keeps the prompt open on a mistake, and says so', () => {
    const s = run(model, [{ type: 'prompt', kind: 'filter' }, { type: 'type', text: 'type:nope' }, { type: 'submit' }]);
    expect(s.prompt).toEqual({ kind: 'filter', text: 'type:nope' });
    expect(s.message).toBe('filter: unknown event type "nope"');
    expect(s.filter).toEqual(NO_FILTER);
  });

  it('empties the list when nothing matches, and Esc (clear) brings everything back', () => {
    let s = run(model, [{ type: 'move', by: 7 }, { type: 'filter', filter: { ...NO_FILTER, hosts: ['nobody'] } }]);
    expect([s.cursor, s.message]).toEqual([-1, 'nothing matches the filter']);
    // Esc goes back to what the TUI opens on: the noise (here the `other` records) hidden.
    s = run(model, [{ type: 'clear' }], s);
    expect(s.filter).toEqual(DEFAULT_FILTER);
    expect(model.store.typeOf(s.cursor)).toBe('watermark');
    expect(s.message).toBe('filters cleared (noise hidden: a shows all)');
    s = run(model, [{ type: 'noise' }], s);
    expect(s.filter).toEqual({ ...NO_FILTER, quiet: false });
    expect(model.rows(s.filter).length).toBe(282);
    expect(s.message).toBe('all records listed (a hides the noise)');
  });
});

describe('search', () => {
  const { model, events } = incident();
  const search = (q: string, s = allListed(model, DIMS)) => run(model, [{ type: 'prompt', kind: 'search' }, { type: 'type', text: q }, { type: 'submit' }], s);

  it('jumps to the next event containing the text, case-insensitively, in text and fields', () => {
    let s = search('S=249');
    expect(model.store.get(s.cursor).text).toMatch(/s=249$/);
    expect(s.search).toBe('S=249');
    s = search('3000'); // only in the timeoutMs field
    expect(typeOf(model, s)).toBe('rpc-timeout');
    s = search('中文');
    expect(typeOf(model, s)).toBe('send-failed');
  });

  it('repeats forwards and backwards, wraps once, and reports no match', () => {
    let s = search('invokeSync');
    const first = s.cursor;
    s = run(model, [{ type: 'search', query: 'invokeSync', by: 1 }], s);
    expect(s.cursor).toBeGreaterThan(first);
    s = run(model, [{ type: 'search', query: 'invokeSync', by: -1 }], s);
    expect(s.cursor).toBe(first);
    s = run(model, [{ type: 'search', query: 'invokeSync', by: -1 }], s);
    expect(model.store.get(s.cursor).text).toMatch(/s=357$/);
    expect(s.message).toBe('search wrapped: "invokeSync"');
    // An empty prompt repeats the last search.
    s = run(model, [{ type: 'prompt', kind: 'search' }, { type: 'submit' }], s);
    expect(model.store.get(s.cursor).text).toMatch(/s=240$/);
    s = search('no such thing', s);
    expect(s.message).toBe('no match for "no such thing"');
    expect(s.searching).toBeNull();
    expect(events.length).toBe(282);
  });

  it('searches only the listed events', () => {
    const s = run(model, [{ type: 'filter', filter: { ...NO_FILTER, hosts: ['broker-a'] } }, { type: 'search', query: 'invokeSync', by: 1 }]);
    expect(s.message).toBe('no match for "invokeSync" in the listed events');
  });

  it('matches text with quotes and backslashes (escaped in the JSON it pre-filters on)', () => {
    resetLines();
    const m = modelOf([ev({ at: 0 }), ev({ at: 1, text: 'say "hi" to C:\\temp' })]);
    const s = run(m, [{ type: 'search', query: '"hi" to c:\\', by: 1 }]);
    expect(s.cursor).toBe(1);
  });

  it('scans a long list in steps, and Esc stops it', () => {
    resetLines();
    const n = SEARCH_CHUNK * 2 + 500;
    const m = modelOf(Array.from({ length: n }, (_, i) => ev({ at: i, text: `n=${i};` })));
    const dims = { listRows: 5, stripCols: 50 };
    let s = run(m, [{ type: 'search', query: `n=${n - 10};`, by: 1 }], allListed(m, dims), dims);
    expect(s.searching).toMatchObject({ done: SEARCH_CHUNK });
    expect(s.message).toMatch(/^searching "n=\d+;": 48% \(Esc stops\)$/);
    expect(s.cursor).toBe(0);
    const cancelled = run(m, [{ type: 'cancel' }], s, dims);
    expect([cancelled.searching, cancelled.message]).toEqual([null, `search cancelled: "n=${n - 10};"`]);
    s = run(m, [{ type: 'searchStep' }, { type: 'searchStep' }], s, dims);
    expect([s.searching, s.cursor]).toEqual([null, n - 10]);
  });

  it('ends a step when its time is up, so a frame comes soon whatever the rows cost', () => {
    resetLines();
    let clock = 0;
    const events = Array.from({ length: SEARCH_CHUNK }, (_, i) => ev({ at: i, text: `n=${i};` }));
    const m = new TuiModel({ store: storeFromEvents(events), findings: [], zone: ZONE, now: () => (clock += 10) });
    const s = run(m, [{ type: 'search', query: 'nowhere', by: 1 }], allListed(m, DIMS));
    expect(s.searching!.done).toBeGreaterThan(0);
    expect(s.searching!.done).toBeLessThan(SEARCH_CHUNK);
    expect(s.searching!.done % 512).toBe(0);
  });
});

describe('findings', () => {
  const { model } = incident();

  it('knows which events each finding quotes', () => {
    expect(model.evidence.map((e) => e.length)).toEqual([2, 1]);
    const [a, b] = model.evidence[0];
    expect(model.evidenceFor.get(a)).toEqual([0]);
    expect(model.evidenceFor.get(b)).toEqual([0]);
    expect(model.store.typeOf(model.evidence[1][0])).toBe('broker-expired');
  });

  it('n jumps to the first finding: its window in the strip, its evidence in the list, the cursor at its start', () => {
    const s = run(model, [{ type: 'finding', by: 1 }]);
    expect(s.filter).toEqual({ ...NO_FILTER, finding: 0 });
    expect(s.finding).toBe(0);
    // The evidence filter: the quoted events, and the rule's event types from the quoted hosts in the window.
    const rows = model.rows(s.filter);
    expect(rows.length).toBe(40);
    expect(secondsOf(model, s)).toBe(240.002);
    const f = model.findings[0];
    expect(s.from).toBeLessThanOrEqual(f.start!);
    expect(s.to).toBeGreaterThan(f.end!);
    expect(s.to - s.from).toBeCloseTo((f.end! - f.start!) * 1.2, 3);
  });

  it('n and N go round the findings in the pane order', () => {
    let s = run(model, [{ type: 'finding', by: 1 }, { type: 'finding', by: 1 }]);
    expect(s.filter.finding).toBe(1);
    expect(typeOf(model, s)).toBe('broker-expired');
    expect(model.rows(s.filter).length).toBe(1);
    expect(s.to - s.from).toBe(MIN_SPAN_MS);
    s = run(model, [{ type: 'finding', by: 1 }], s);
    expect(s.filter.finding).toBe(0);
    s = run(model, [{ type: 'finding', by: -1 }], s);
    expect(s.filter.finding).toBe(1);
    s = run(model, [{ type: 'clear' }, { type: 'finding', by: -1 }], s);
    expect(s.filter.finding).toBe(1);
    s = run(model, [{ type: 'selectFinding', index: -2 }], s);
    expect(s.filter.finding).toBe(0);
  });

  it('Tab goes to the findings pane, and says so when there are none', () => {
    expect(run(model, [{ type: 'focus' }]).focus).toBe('findings');
    expect(run(model, [{ type: 'focus' }, { type: 'focus' }]).focus).toBe('events');
    resetLines();
    const bare = modelOf([ev({ at: 0 })]);
    expect(run(bare, [{ type: 'focus' }], allListed(bare, DIMS))).toMatchObject({ focus: 'events', message: 'no findings' });
    expect(run(bare, [{ type: 'finding', by: 1 }], allListed(bare, DIMS)).message).toBe('no findings');
  });
});

describe('time strip', () => {
  const { model } = incident();

  it('counts events per bucket, per host row and class, from one pass over the window', () => {
    const { rowOfHost, labels } = model.hostRows(8);
    expect(labels).toEqual(['app-1', 'broker-a', 'ns-1', 'app-2']);
    const n = 50;
    const counts = model.bucketCounts(model.rows(NO_FILTER), model.t0, model.t0 + model.span, n, rowOfHost, labels.length);
    const sum = (row: number, cls: number) => counts.slice((row * CLASSES + cls) * n, (row * CLASSES + cls + 1) * n).reduce((a, b) => a + b, 0);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(282);
    expect([sum(0, CLASS_OTHER), sum(0, CLASS_WARN), sum(0, CLASS_INFO)]).toEqual([120, 40, 0]);
    expect(sum(1, CLASS_INFO)).toBe(120);
    expect(sum(2, CLASS_WARN)).toBe(1);
    expect(sum(3, CLASS_ERROR)).toBe(1);
    // The burst (240-357 s) falls in buckets 20..30 of 50 (11.9 s each).
    const warnBuckets = [...counts.slice((0 * CLASSES + CLASS_WARN) * n, (0 * CLASSES + CLASS_WARN + 1) * n)].map((c, b) => (c ? b : -1)).filter((b) => b >= 0);
    expect(warnBuckets[0]).toBe(20);
    expect(warnBuckets[warnBuckets.length - 1]).toBe(30);
  });

  it('counts only the window shown', () => {
    const { rowOfHost, labels } = model.hostRows(8);
    const counts = model.bucketCounts(model.rows(NO_FILTER), T0 + 240_000, T0 + 250_000, 10, rowOfHost, labels.length);
    // 240..249 s: app-1 at 240, 245; broker-a at 240.001, 245.001; rpc-timeouts at 240..249 step 3 (4).
    expect(counts.reduce((a, b) => a + b, 0)).toBe(8);
  });

  it('folds the quietest hosts into one row when there is no room', () => {
    expect(model.hostRows(2).labels).toEqual(['app-1', '+3 hosts']);
    expect([...model.hostRows(2).rowOfHost]).toEqual([0, 1, 1, 1]);
    expect(model.hostRows(3).labels).toEqual(['app-1', 'broker-a', '+2 hosts']);
  });

  it('draws heights on a log scale per row, the worst class, findings as bands, and the cursor column', () => {
    const s = run(model, [{ type: 'move', by: 100 }]);
    const v = model.strip(s, 100, 8);
    expect(v.rows.map((r) => r.label)).toEqual(['app-1', 'broker-a', 'ns-1', 'app-2']);
    const app1 = v.rows[0];
    expect(Math.max(...app1.height)).toBe(8);
    expect(app1.cls[0]).toBe(CLASS_OTHER);
    expect(app1.cls[Math.floor(300_000 / v.bucketMs)]).toBe(CLASS_WARN);
    expect(v.rows[3].cls[Math.floor(300_000 / v.bucketMs)]).toBe(CLASS_ERROR);
    const col = (sec: number) => Math.floor((sec * 1000) / v.bucketMs);
    expect(v.band[col(200)]).toBe(-1);
    expect(v.band[col(300)]).toBe(0); // critical
    expect(v.selected[col(300)]).toBe(1);
    expect(v.selected[col(200)]).toBe(0);
    expect(v.cursorCol).toBe(col((model.store.tAt(s.cursor) - T0) / 1000));
    expect(v.zoom).toBe(1);
  });

  it('keeps the shape of everything when filtered, marking buckets with nothing listed', () => {
    const s = run(model, [{ type: 'filter', filter: { ...NO_FILTER, types: ['rpc-timeout'] } }]);
    const v = model.strip(s, 100, 8);
    const full = model.strip(allListed(model, DIMS), 100, 8);
    expect([...v.rows[0].height]).toEqual([...full.rows[0].height]);
    expect(v.rows[0].cls[0]).toBe(CLASS_UNLISTED);
    expect(v.rows[0].cls[Math.floor(300_000 / v.bucketMs)]).toBe(CLASS_WARN);
    expect(v.rows[1].cls.every((c) => c === CLASS_UNLISTED || c === -1)).toBe(true);
  });
});

describe('the same on disk, with small pages and blocks', () => {
  // The in-memory store with its default sizes (blocks of 256 events: the strip counts event by
  // event here) against pages of 16 events and blocks of 64 in a spill file.
  const mem = incident().model;
  const disk = incident((events) => storeFromEvents(events, new SpillSink(), TINY)).model;
  afterAll(() => disk.store.close());

  it('moves, filters, jumps to findings, searches and draws the strip and the replay lanes as in memory', () => {
    const actions: Action[] = [
      { type: 'move', by: 1 },
      { type: 'page', by: 1 },
      { type: 'end' },
      { type: 'step', by: -1 },
      { type: 'home' },
      ...Array.from({ length: 3 }, () => ({ type: 'zoom', by: 1 }) as const),
      ...Array.from({ length: 6 }, () => ({ type: 'step', by: 1 }) as const),
      { type: 'zoom', by: -1 },
      { type: 'finding', by: 1 },
      { type: 'move', by: 3 },
      { type: 'finding', by: 1 },
      { type: 'finding', by: -1 },
      { type: 'noise' },
      { type: 'clear' },
      { type: 'filter', filter: { ...NO_FILTER, types: ['rpc-timeout', 'send-failed'] } },
      { type: 'page', by: 1 },
      { type: 'step', by: -1 },
      { type: 'filter', filter: { ...NO_FILTER, hosts: ['app-*'], minLevel: 3 } },
      { type: 'filter', filter: { ...NO_FILTER, grep: 's=3[0-9]{2}$' } },
      { type: 'end' },
      { type: 'filter', filter: { ...NO_FILTER, kinds: ['broker'], quiet: true } },
      { type: 'noise' },
      { type: 'search', query: 'wait response', by: 1 },
      { type: 'search', query: 'wait response', by: -1 },
      { type: 'search', query: '中文', by: 1 },
      { type: 'clear' },
      { type: 'selectFinding', index: -1 },
      { type: 'zoom', by: 1 },
    ];
    let a = mem.initial(DIMS);
    let b = disk.initial(DIMS);
    const same = (what: string) => {
      expect([what, b]).toEqual([what, a]);
      expect([what, disk.visible(b, DIMS)]).toEqual([what, mem.visible(a, DIMS)]);
      expect([what, disk.rows(b.filter).length]).toEqual([what, mem.rows(a.filter).length]);
      for (const cols of [100, 37, 3, 1]) expect([what, disk.strip(b, cols, 3)]).toEqual([what, mem.strip(a, cols, 3)]);
      expect([what, replayLanes(disk, stubView(disk), b.from, b.to, 50, 8)]).toEqual([what, replayLanes(mem, stubView(mem), a.from, a.to, 50, 8)]);
    };
    expect(disk.store.blocks.size).toBe(64);
    same('initial');
    for (const act of actions) {
      a = mem.reduce(a, act, DIMS);
      b = disk.reduce(b, act, DIMS);
      while (a.searching) a = mem.reduce(a, { type: 'searchStep' }, DIMS);
      while (b.searching) b = disk.reduce(b, { type: 'searchStep' }, DIMS);
      same(JSON.stringify(act));
    }
    expect(disk.evidence.map((e) => [...e])).toEqual(mem.evidence.map((e) => [...e]));
    expect([...disk.evidenceFor]).toEqual([...mem.evidenceFor]);
  });
});

describe('paging by what shows, and the incident folded', () => {
  const { model } = incident();

  it('PgDn PgUp move a finding in full by the lines its pane shows, within its text', () => {
    // 80x24 with the finding in full: a 15-row pane, its title and 14 lines of text.
    const dims: Dims = { ...DIMS, findingRows: 15, findingLines: 40 };
    const s0 = { ...allListed(model, DIMS), focus: 'findings' as const, detail: true };
    expect(run(model, [{ type: 'scrollFinding', by: 1 }], s0, dims).findingScroll).toBe(14);
    expect(run(model, [{ type: 'scrollFinding', by: 1 }, { type: 'scrollFinding', by: 1 }], s0, dims).findingScroll).toBe(26);
    expect(run(model, [{ type: 'scrollFinding', by: 1 }, { type: 'scrollFinding', by: 1 }, { type: 'scrollFinding', by: 1 }], s0, dims).findingScroll).toBe(26);
    expect(run(model, [{ type: 'scrollFinding', by: 1 }, { type: 'scrollFinding', by: -1 }], s0, dims).findingScroll).toBe(0);
    // A 4-row pane pages by 3.
    expect(run(model, [{ type: 'scrollFinding', by: 1 }], s0, { ...dims, findingRows: 4 }).findingScroll).toBe(3);
  });

  it('i unfolds the incident folded on a short screen, and folds it again', () => {
    const s0 = allListed(model, DIMS);
    expect(s0.incidentOpen).toBeUndefined();
    const open = run(model, [{ type: 'incident' }], s0, { ...DIMS, incidentFolded: true });
    expect(open.incidentOpen).toBe(true);
    expect(run(model, [{ type: 'incident' }], open, { ...DIMS, incidentFolded: false }).incidentOpen).toBe(false);
    // No incident: nothing to fold, and the status line says so.
    const none = run(model, [{ type: 'incident' }], s0, DIMS);
    expect(none.incidentOpen).toBeUndefined();
    expect(none.message).toBe('no incident named');
  });
});
