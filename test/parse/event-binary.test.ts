import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EventReader, EventWriter } from '../../src/parse/event-binary.js';
import { decodeJson, encodeEvent, isUsualEvent, readHeader, type EncodedHeader } from '../../src/parse/event-codec.js';
import { EVENT_TYPES, type RmqEvent } from '../../src/parse/types.js';
import { jsonSafe } from '../../src/util/text.js';
import { anyEvent, recordedEvents } from './event-samples.js';

/** Every event of the buffers, decoded, each buffer read with the reader where the one before left off. */
function readAll(buffers: Buffer[]): RmqEvent[] {
  const r = new EventReader();
  const out: RmqEvent[] = [];
  for (const b of buffers) {
    let at = 0;
    for (let next = r.read(b, at); next >= 0; next = r.read(b, at)) {
      out.push(r.event(7, out.length));
      at = next;
    }
    expect(at).toBe(b.length);
  }
  return out;
}

/** What the JSON trip gives: the reference the binary form must equal, key order included. */
function viaJson(e: RmqEvent, seq: number): RmqEvent {
  // The time went as text (`${ts}`, read back with Number).
  return decodeJson(encodeEvent(e), e.ts === null ? null : Number(`${e.ts}`), 7, seq);
}

function sameAs(got: RmqEvent[], events: RmqEvent[]): void {
  expect(got.length).toBe(events.length);
  got.forEach((g, i) => {
    const want = viaJson(events[i], i);
    expect(g).toStrictEqual(want);
    expect(JSON.stringify(g)).toBe(JSON.stringify(want));
    expect(Object.keys(g.fields ?? {})).toEqual(Object.keys(want.fields ?? {}));
  });
}

describe('the binary event form', () => {
  const real = [
    ...recordedEvents('broker-busy/app-feed-01/logs/rocketmqlogs/rocketmq_client.log', 'client'),
    ...recordedEvents('broker-busy/mq-broker-b/logs/rocketmqlogs/watermark.log', 'watermark'),
    ...recordedEvents('namesrv-hang/app-pay-01/logs/app.log', 'app'),
  ];

  it('gives back what the JSON trip gives, for every event of real logs, whatever the buffers it is cut into', () => {
    expect(real.length).toBeGreaterThan(400);
    const w = new EventWriter(16);
    const buffers: Buffer[] = [];
    real.forEach((e, i) => {
      w.add(e);
      if (i % 37 === 36) buffers.push(w.take());
    });
    buffers.push(w.take());
    sameAs(readAll(buffers), real);
    // Shared strings: a thread or address is written once per stream, so the stream is smaller than its JSON.
    const bytes = buffers.reduce((n, b) => n + b.length, 0);
    const json = real.reduce((n, e) => n + Buffer.byteLength(encodeEvent(e)), 0);
    expect(bytes).toBeLessThan(json);
  });

  it('gives each event its JSON text, made by the writer when it writes JSON (asJson) or by the reader', () => {
    for (const asJson of [false, true, 'both'] as const) {
      const w = new EventWriter(64, asJson);
      for (const e of real) w.add(e);
      const b = w.take();
      const r = new EventReader();
      let at = 0;
      real.forEach((e, i) => {
        at = r.read(b, at);
        expect([r.ts, r.type]).toEqual([e.ts, e.type]);
        expect(r.json()).toBe(encodeEvent(e));
        expect(r.event(7, i)).toStrictEqual(viaJson(e, i));
      });
      expect(at).toBe(b.length);
    }
  });

  it("makes the JSON text safe to show where it is written when asked ('safe'), and says so", () => {
    const odd = { ...real[0], text: `${real[0].text} \u202e\u2028\u007f end`, fields: { ...real[0].fields, addr: '\u0085x' } } as RmqEvent;
    for (const asJson of [false, true, 'safe', 'both'] as const) {
      const w = new EventWriter(64, asJson);
      for (const e of [...real, odd]) w.add(e);
      w.addEncoded(odd.ts, odd.type, encodeEvent(odd)); // as an events file gives it: never said to be safe
      const b = w.take();
      const r = new EventReader();
      let at = 0;
      [...real, odd, odd].forEach((e, i) => {
        at = r.read(b, at);
        const safe = asJson === 'safe' && i <= real.length;
        expect(r.jsonIsSafe).toBe(safe);
        expect(r.json()).toBe(safe ? jsonSafe(encodeEvent(e)) : encodeEvent(e));
        expect(JSON.parse(r.json())).toEqual(JSON.parse(encodeEvent(e)));
        expect(r.event(7, i)).toStrictEqual(viaJson(e, i));
      });
      expect(at).toBe(b.length);
    }
    expect(jsonSafe(encodeEvent(odd))).not.toBe(encodeEvent(odd));
    expect(jsonSafe(jsonSafe(encodeEvent(odd)))).toBe(jsonSafe(encodeEvent(odd)));
  });

  it('says when a buffer holds no whole event, and how many bytes the record needs', () => {
    const w = new EventWriter();
    w.add(real[0]);
    const b = w.take();
    const r = new EventReader();
    for (let cut = 0; cut < b.length; cut++) {
      expect(new EventReader().read(b.subarray(0, cut), 0)).toBe(-1);
      expect(EventReader.needed(b.subarray(0, cut), 0)).toBe(cut < 4 ? 4 : b.readUInt32LE(0));
    }
    expect(r.read(b, 0)).toBe(b.length);
    expect([r.ts, r.type]).toEqual([real[0].ts, real[0].type]);
  });

  it('gives back what the JSON trip gives for any event, odd shapes and strings included', () => {
    const event = anyEvent();
    fc.assert(
      fc.property(fc.array(event, { minLength: 1, maxLength: 6 }), fc.constantFrom(false as const, 'both' as const), (events, asJson) => {
        const w = new EventWriter(8, asJson);
        const buffers: Buffer[] = [];
        for (const e of events) {
          w.add(e);
          buffers.push(w.take());
        }
        sameAs(readAll(buffers), events);
        // With 'both', the JSON text comes back as encodeEvent made it, beside the event.
        const r = new EventReader();
        buffers.forEach((b, i) => {
          expect(r.read(b, 0)).toBe(b.length);
          expect(r.json()).toBe(encodeEvent(events[i]));
        });
      }),
      { numRuns: 500 },
    );
  });

  it("tells an event's header as readHeader reads its JSON, and where its JSON text lies as UTF-8", () => {
    const event = anyEvent();
    const blank = (): EncodedHeader => ({ kind: '', line: -1, level: 'x', type: 'other' });
    let spans = 0;
    let headers = 0;
    const check = (events: RmqEvent[], asJson: false | true | 'both') => {
      const w = new EventWriter(8, asJson);
      for (const e of events) w.add(e);
      const b = w.take();
      const r = new EventReader();
      let at = 0;
      for (const e of events) {
        at = r.read(b, at);
        const json = encodeEvent(e);
        const h = blank();
        if (r.header(h)) {
          headers++;
          // The level as decoded (readHeader slices the raw text: the two differ only for a level with escapes).
          if (!/["\\\u0000-\u001f]/.test(String(e.level))) expect(h).toEqual(readHeader(json, blank()));
        } else expect(asJson === true || !isUsualEvent(e) || !EVENT_TYPES.includes(e.type), 'a usual event of the binary form has a header').toBe(true);
        if (asJson === true) expect(r.header(blank())).toBe(false);
        if (r.jsonSpan()) {
          spans++;
          // The binary form writes an event it cannot hold (not usual: a thread left undefined, say) as its JSON.
          expect(asJson !== false || !isUsualEvent(e) || !EVENT_TYPES.includes(e.type), 'a JSON record in the binary form is an event it cannot hold').toBe(true);
          expect(r.spanBytes.subarray(r.spanStart, r.spanEnd).equals(Buffer.from(json))).toBe(true);
        } else expect(asJson === false || Buffer.byteLength(json) !== json.length).toBe(true);
      }
    };
    fc.assert(
      fc.property(fc.array(event, { minLength: 1, maxLength: 6 }), fc.constantFrom(false as const, true as const, 'both' as const), (events, asJson) => check(events, asJson)),
      { numRuns: 500 },
    );
    for (const asJson of [false, true, 'both'] as const) check(real, asJson);
    expect(spans).toBeGreaterThan(100);
    expect(headers).toBeGreaterThan(100);
  });

  it('keeps a record that is no event as the place of its line: its header, names and place, among other events', () => {
    // Records of a real log, every third one as a LINE record, the others as events of both forms.
    const others = real.map((e, i) => ({ ...e, type: i % 3 === 0 ? ('other' as const) : e.type, fields: i % 3 === 0 ? {} : e.fields }));
    const w = new EventWriter(8, 'both');
    others.forEach((e, i) => (i % 3 === 0 ? w.addLine(e, 1000 * i) : w.add(e)));
    const b = w.take();
    const r = new EventReader();
    let at = 0;
    let lines = 0;
    others.forEach((e, i) => {
      at = r.read(b, at);
      expect([r.ts, r.type]).toEqual([e.ts, e.type]);
      const h: EncodedHeader = { kind: '', line: -1, level: 'x', type: 'stats' };
      expect(r.header(h)).toBe(true);
      expect(h).toEqual({ kind: e.kind, line: e.line, level: e.level, type: e.type });
      expect(r.isLine).toBe(i % 3 === 0);
      if (!r.isLine) {
        expect(r.event(7, i)).toStrictEqual(viaJson(e, i));
        return;
      }
      lines++;
      expect(r.line({ thread: 'x', logger: 'x', byteAt: -1, length: -1 })).toEqual({ thread: e.thread, logger: e.logger, byteAt: 1000 * i, length: e.text.length });
      expect(r.jsonSpan()).toBe(false);
      // Its text is not in the stream: a reader that cannot read the file again must not make one up.
      expect(() => r.event(7, i)).toThrow(/cannot be decoded without its file/);
      expect(() => r.json()).toThrow(/cannot be decoded without its file/);
    });
    expect(at).toBe(b.length);
    expect(lines).toBeGreaterThan(100);
  });

  it('writes numbers JSON cannot hold as JSON.stringify does, and drops what it drops', () => {
    const e = { ...real[0], ts: Infinity, line: NaN, fields: { zero: -0, nan: NaN, inf: -Infinity, gone: undefined, list: ['a', 'b'], mixed: ['a', 1] } } as unknown as RmqEvent;
    const w = new EventWriter();
    w.add(e);
    const [got] = readAll([w.take()]);
    expect(Object.is(got.fields.zero, 0)).toBe(true);
    expect(got.fields).toStrictEqual({ zero: 0, nan: null, inf: null, list: ['a', 'b'], mixed: ['a', 1] });
    expect([got.ts, got.line]).toEqual([Infinity, null]);
    sameAs([got], [e]);
  });

  it('stops sharing strings past its bound, and still gives every string back', () => {
    const w = new EventWriter();
    const base = real[0];
    // Threads that repeat (shared until the table is full, then written in place) and values that never do.
    const many = Array.from({ length: 20000 }, (_, i) => ({ ...base, thread: `thread-${i % 3000}`, fields: { ...base.fields, msgId: `7F000001${i}`, brokerAddr: `10.0.${(i % 2500) >> 8}.${i & 255}:10911` } }));
    for (const e of many) w.add(e);
    sameAs(readAll([w.take()]), many);
  });
});
