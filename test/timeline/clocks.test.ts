// The clock estimate's pieces: one pair's bound, where pairs agree, the lines kept (bounded, runs,
// short connections), pairing by address, solving hosts against the NameServers' majority, and
// the option and the note that say it.
import { describe, expect, it } from 'vitest';
import type { EventFields, RmqEvent } from '../../src/parse/types.js';
import type { SourceKind } from '../../src/ingest/kinds.js';
import {
  bestOverlap,
  CLOCK_OFF_MS,
  clockEdges,
  clockNote,
  clockOption,
  ClockTrains,
  pairBound,
  shiftText,
  solveClocks,
  TRAIN_MAX,
  zoneStep,
  type AddressBook,
  type ClockEdge,
} from '../../src/timeline/clocks.js';

let seq = 0;
function ev(host: string, kind: SourceKind, ts: number, type: RmqEvent['type'], fields: EventFields, entry?: string): RmqEvent {
  return { ts, host, kind, file: `${host}/${kind}.log`, line: ++seq, level: 'INFO', thread: null, logger: null, type, fields, text: '', source: 0, seq, ...(entry ? { entry } : {}) };
}
const connect = (host: string, ts: number, addr: string) => ev(host, 'client', ts, 'pipeline', { side: 'client', event: 'connect', addr });
const accept = (host: string, kind: SourceKind, ts: number, addr: string, event = 'active') => ev(host, kind, ts, 'pipeline', { side: 'server', event, addr });
const registered = (host: string, ts: number, namesrvAddr: string) => ev(host, 'broker', ts, 'broker-registered', { namesrvAddr, brokerAddr: null });
const newBroker = (host: string, ts: number, brokerAddr: string, entry = 'broker-registered/new-broker') => ev(host, 'namesrv', ts, 'broker-registered', { brokerAddr, namesrvAddr: null }, entry);

const IPS: Record<string, string> = { 'app-1': '10.0.0.21', 'mq-a': '10.0.0.11', 'mq-b': '10.0.0.12', 'mq-c': '10.0.0.13' };
const book: AddressBook = {
  hostOfIp: (ip) => Object.keys(IPS).find((h) => IPS[h] === ip) ?? null,
  ipOfHost: (h) => IPS[h] ?? null,
  isNameServer: (addr) => addr.endsWith(':9876'),
};
const T0 = Date.UTC(2026, 11, 1, 11, 10, 0);

describe('pairBound', () => {
  it('bounds the later host minus the earlier by the latency and both resolutions', () => {
    // The server's line 500 ms after the client's (which tells ms), the server telling seconds.
    expect(pairBound({ ts: 1000, res: 1 }, { ts: 1500, res: 1000 }, 3000)).toEqual({ low: 500 - 3000 - 1 - 100, high: 500 + 1000 + 100 });
  });
});

describe('bestOverlap', () => {
  it('finds where most intervals agree, leaving one that agrees with none', () => {
    const r = bestOverlap([
      { low: 0, high: 10 },
      { low: 5, high: 20 },
      { low: 8, high: 30 },
      { low: 500, high: 600 },
    ])!;
    expect(r).toMatchObject({ low: 8, high: 10, count: 3, ambiguous: false });
  });

  it('says two equally good places are ambiguous', () => {
    expect(bestOverlap([
      { low: 0, high: 10 },
      { low: 100, high: 110 },
    ])!.ambiguous).toBe(true);
  });

  it('leaves out the tightest quarter on each side of the agreeing intervals', () => {
    const r = bestOverlap([
      { low: -1000, high: 1000 },
      { low: -1100, high: 900 },
      { low: -900, high: 1100 },
      // A line paired with another process's line: tight, and wrong by 0.8 s.
      { low: 800, high: 850 },
    ])!;
    expect(r.count).toBe(4);
    expect(r.low).toBeLessThanOrEqual(0);
    expect(r.high).toBeGreaterThanOrEqual(0);
  });

  it('is null without intervals', () => {
    expect(bestOverlap([])).toBeNull();
  });
});

describe('ClockTrains', () => {
  it('keeps the first connect of a run of retries, and every accepted connection that stayed open', () => {
    const t = new ClockTrains();
    for (let i = 0; i < 8; i++) t.visit(connect('app-1', T0 + i * 2000, '10.0.0.11:10911'));
    t.visit(connect('app-1', T0 + 60000, '10.0.0.11:10911'));
    expect(t.trains.get('c|app-1|10.0.0.11:10911')!.map((s) => s.ts)).toEqual([T0, T0 + 60000]);
    t.visit(accept('mq-a', 'remoting', T0, '10.0.0.21:50001'));
    t.visit(accept('mq-a', 'remoting', T0 + 1000, '10.0.0.21:50002'));
    t.visit(accept('mq-a', 'remoting', T0 + 1000, '10.0.0.21:50002', 'inactive'));
    t.visit(accept('mq-a', 'remoting', T0 + 9000, '10.0.0.21:50001', 'inactive'));
    // The second closed within a second: an admin tool's, no client's that logs.
    expect(t.trains.get('s|mq-a|broker|10.0.0.21')).toEqual([{ ts: T0, res: 1000 }]);
  });

  it("keeps a broker's first registration of a run, and a NameServer's new-broker lines only", () => {
    const t = new ClockTrains();
    for (let i = 0; i < 5; i++) t.visit(registered('mq-b', T0 + i * 30000, '10.0.0.11:9876'));
    t.visit(registered('mq-b', T0 + 400000, '10.0.0.11:9876'));
    expect(t.trains.get('b|mq-b|10.0.0.11:9876')!.map((s) => s.ts)).toEqual([T0, T0 + 400000]);
    t.visit(newBroker('mq-a', T0, '10.0.0.12:10911'));
    t.visit(newBroker('mq-a', T0 + 30000, '10.0.0.12:10911', 'broker-registered/master-address-change'));
    expect(t.trains.get('n|mq-a|10.0.0.12:10911')!.map((s) => s.ts)).toEqual([T0]);
  });

  it('keeps at most TRAIN_MAX lines per key, and judges resolution before a shift', () => {
    const t = new ClockTrains(() => 300);
    for (let i = 0; i < TRAIN_MAX + 10; i++) t.visit(connect('app-1', T0 + 300 + i * 20000, '10.0.0.11:9876'));
    const list = t.trains.get('c|app-1|10.0.0.11:9876')!;
    expect(list).toHaveLength(TRAIN_MAX);
    // Whole seconds as written, 300 ms later once shifted: still whole seconds.
    expect(list[0].res).toBe(1000);
  });
});

/** A client 8 h ahead, connecting to two servers, which register with each other. */
function eightHoursAhead(): ClockTrains {
  const ahead = 8 * 3600000;
  const t = new ClockTrains();
  const lines: RmqEvent[] = [];
  for (const [i, at] of [0, 120000, 400000].entries()) {
    lines.push(connect('app-1', T0 + at + ahead + 7, '10.0.0.11:10911'));
    lines.push(accept('mq-a', 'remoting', T0 + at + 3, `10.0.0.21:5000${i}`));
    lines.push(connect('app-1', T0 + at + ahead + 9, '10.0.0.12:9876'));
    lines.push(accept('mq-b', 'namesrv', T0 + at + 4, `10.0.0.21:6000${i}`));
  }
  lines.push(newBroker('mq-b', T0 - 5000, '10.0.0.11:10911'), registered('mq-a', T0 - 5000, '10.0.0.12:9876'));
  lines.push(connect('mq-a', T0 - 6000, '10.0.0.12:9876'), accept('mq-b', 'namesrv', T0 - 6000, '10.0.0.11:40000'));
  lines.sort((a, b) => a.ts! - b.ts!);
  for (const e of lines) t.visit(e);
  return t;
}

describe('clockEdges and solveClocks', () => {
  it('pairs lines by address whatever the clocks, and finds a client 8 h ahead', () => {
    const edges = clockEdges(eightHoursAhead().trains, book);
    expect(edges.map((e) => `${e.a}-${e.b}:${e.kinds.join('+')}`)).toEqual(['app-1-mq-a:connections', 'app-1-mq-b:connections', 'mq-a-mq-b:connections+registrations']);
    const clocks = solveClocks(edges, ['mq-b']);
    const app = clocks.find((c) => c.host === 'app-1')!;
    expect(app.reference).toBe('mq-b');
    expect(app.off).toBe(true);
    expect(app.lowMs).toBeLessThanOrEqual(8 * 3600000);
    expect(app.highMs).toBeGreaterThanOrEqual(8 * 3600000);
    expect(app.zoneMs).toBe(8 * 3600000);
    expect(app.fixMs).toBe(-8 * 3600000);
    const a = clocks.find((c) => c.host === 'mq-a')!;
    expect(a.off).toBe(false);
    expect(a.lowMs).toBeLessThanOrEqual(0);
    expect(a.highMs).toBeGreaterThanOrEqual(0);
  });

  it('takes the NameServers’ majority as the reference: the odd one is off, not the others', () => {
    const e = (a: string, b: string, low: number, high: number): ClockEdge => ({ a, b, low, high, pairs: 3, kinds: ['registrations'] });
    // mq-c is 30 s ahead of both others.
    const clocks = solveClocks([e('mq-a', 'mq-b', -1100, 1100), e('mq-a', 'mq-c', 28900, 31100), e('mq-b', 'mq-c', 28900, 31100)], ['mq-a', 'mq-b', 'mq-c']);
    expect(clocks.filter((c) => c.off).map((c) => c.host)).toEqual(['mq-c']);
    const c = clocks.find((x) => x.host === 'mq-c')!;
    expect(c.zoneMs).toBeNull();
    expect(c.fixMs).toBe(-30000);
  });

  it('does not move a host known to within more than 10 s, nor one resting on a single pair', () => {
    const wide = solveClocks([{ a: 'mq-a', b: 'app-1', low: 20000, high: 40000, pairs: 5, kinds: ['connections'] }], ['mq-a']);
    expect(wide.find((c) => c.host === 'app-1')).toMatchObject({ off: true, fixMs: null });
    const one = solveClocks([{ a: 'mq-a', b: 'app-1', low: 20000, high: 21000, pairs: 1, kinds: ['connections'] }], ['mq-a']);
    expect(one.find((c) => c.host === 'app-1')).toMatchObject({ off: true, fixMs: null });
  });

  it('says nothing off within CLOCK_OFF_MS beyond the uncertainty', () => {
    const clocks = solveClocks([{ a: 'mq-a', b: 'app-1', low: CLOCK_OFF_MS - 1000, high: CLOCK_OFF_MS + 3000, pairs: 5, kinds: ['connections'] }], ['mq-a']);
    expect(clocks.find((c) => c.host === 'app-1')!.off).toBe(false);
  });
});

describe('the option and the note', () => {
  it('finds a zone error as whole quarter-hours within the interval', () => {
    expect(zoneStep(8 * 3600000 - 800, 8 * 3600000 + 3000)).toBe(8 * 3600000);
    expect(zoneStep(-19800000 - 500, -19800000 + 500)).toBe(-19800000);
    expect(zoneStep(3000, 9000)).toBeNull();
  });

  it('writes --shift values the option reads', () => {
    expect(shiftText(-8 * 3600000)).toBe('-8h');
    expect(shiftText(3200)).toBe('+3.2s');
    expect(shiftText(-(90 * 60000 + 5500))).toBe('-1h30m5.5s');
  });

  it('suggests the zone the files are in, or a shift', () => {
    const base = { host: 'app-1', offsetMs: 8 * 3600000, lowMs: 8 * 3600000 - 800, highMs: 8 * 3600000 + 3000, pairs: 5, basis: ['connections with mq-a'], reference: 'mq-a', off: true, zoneMs: 8 * 3600000, fixMs: -8 * 3600000 };
    expect(clockOption(base, ['+00:00'], T0)).toBe("--tz '**/app-1/**=+08:00'");
    expect(clockOption(base, ['+00:00', '+08:00'], T0)).toBe('--shift app-1=-8h');
    expect(clockOption({ ...base, offsetMs: 3200, zoneMs: null }, ['+08:00'], T0)).toBe('--shift app-1=-3.2s');
    const note = clockNote(base, { option: clockOption(base, ['+00:00'], T0), applied: true });
    expect(note).toBe(
      "clock of app-1 is 8 h ahead of mq-a's (-0.8s..+3s; 5 pairs of lines: connections with mq-a): times of app-1 moved -8h by the clock estimate (--tz '**/app-1/**=+08:00' does the same); --no-clock-fix to keep them",
    );
    expect(clockNote({ ...base, offsetMs: -7000, lowMs: -8000, highMs: -6000, zoneMs: null }, { option: '--shift app-1=+7s', applied: false })).toMatch(/is 7\.0 s behind mq-a's .*: --shift app-1=\+7s corrects it$/);
  });
});
