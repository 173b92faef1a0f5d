import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeJson, encodedFieldIs, encodedText, encodeEvent, encodeObject, readHeader, type EncodedHeader } from '../../src/parse/event-codec.js';
import { anyEvent, recordedEvents } from './event-samples.js';

describe('the event codec reads its own format', () => {
  // Real recordings: a client log (stack traces, quotes and braces in text) and a broker's watermarks.
  const events = [...recordedEvents('broker-busy/app-feed-01/logs/rocketmqlogs/rocketmq_client.log', 'client'), ...recordedEvents('broker-busy/mq-broker-b/logs/rocketmqlogs/watermark.log', 'watermark')];

  it('header, type and text without decoding agree with the decoded event, for every event of real logs', () => {
    expect(events.length).toBeGreaterThan(400);
    const h: EncodedHeader = { kind: '', line: 0, level: null, type: 'other' };
    for (const e of events) {
      const json = encodeEvent(e);
      readHeader(json, h);
      expect([h.kind, h.line, h.level, h.type]).toEqual([e.kind, e.line, e.level, e.type]);
      expect(encodedText(json)).toBe(e.text);
      const d = decodeJson(json, e.ts, e.source, e.seq);
      expect(d).toEqual(e);
    }
  });

  it('a field is read as a number only where it is one, not inside text', () => {
    const marks = events.filter((e) => e.type === 'watermark');
    expect(marks.some((e) => e.fields.slowMs === 0) && marks.some((e) => e.fields.slowMs !== 0)).toBe(true);
    for (const e of marks) expect(encodedFieldIs(encodeEvent(e), 'slowMs', 0), e.text).toBe(e.fields.slowMs === 0);
    const fake = { ...marks[0], fields: { ...marks[0].fields, slowMs: 10 }, text: 'a line that says "slowMs":0, in its text' };
    expect(encodedFieldIs(encodeEvent(fake), 'slowMs', 0)).toBe(false);
    expect(encodedFieldIs(encodeEvent({ ...fake, fields: { slowMs: 0 } }), 'slowMs', 0)).toBe(true);
    expect(encodedFieldIs(encodeEvent({ ...fake, fields: { slowMs: 0.5 } }), 'slowMs', 0)).toBe(false);
  });
});

describe('encodeEvent', () => {
  it('writes what JSON.stringify writes for the event object, for real events and any others', () => {
    const real = [...recordedEvents('broker-busy/app-feed-01/logs/rocketmqlogs/rocketmq_client.log', 'client'), ...recordedEvents('broker-busy/mq-broker-b/logs/rocketmqlogs/watermark.log', 'watermark')];
    for (const e of real) expect(encodeEvent(e)).toBe(encodeObject(e));
    const event = anyEvent();
    fc.assert(
      fc.property(fc.array(event, { minLength: 1, maxLength: 4 }), (events) => {
        for (const e of events) expect(encodeEvent(e)).toBe(encodeObject(e));
      }),
      { numRuns: 500 },
    );
    // Texts with what JSON escapes: a lone surrogate of either half (a pair stays as it is), a
    // control, the quote, the backslash; and none of them. Short ones and long ones (a character
    // loop checks the one, a regex scan the other).
    for (const short of ['a \ud800 b', 'a \udfff', '\ud83d\ude00 paired', 'tab\there', 'bell\u0007', 'say "x"', 'C:\\path', 'plain']) {
      for (const text of [short, `${'x'.repeat(40)} ${short}`]) {
        const e = { ...real[0], text };
        expect(encodeEvent(e), text).toBe(encodeObject(e));
      }
    }
  });

  it("writes an event's fields as JSON.stringify does, whatever they hold", () => {
    const base = recordedEvents('broker-busy/app-feed-01/logs/rocketmqlogs/rocketmq_client.log', 'client')[0];
    const inherited = Object.create({ fromProto: 'x' }) as Record<string, unknown>;
    inherited.own = 1;
    const sparse: unknown[] = ['a'];
    sparse[2] = 'c';
    const odd: Array<Record<string, unknown>> = [
      {},
      { b: 1, '1': 'one', a: null, '0': true },
      { ms: NaN, up: Infinity, down: -Infinity, zero: -0, big: 1e21, small: 5e-7, frac: 0.1 },
      { list: ['a"b', 'c\\d', '\u0001', '\ud800'], empty: [] },
      { numbers: [1, 2] },
      { sparse },
      { nested: { a: 1 } },
      { gone: undefined, kept: 'k', fn: () => 1, [Symbol('s')]: 1 },
      { 'key "quoted"\n': 'v', 'ключ': 'значение' },
      inherited,
    ];
    for (const fields of odd) {
      const e = { ...base, fields: fields as typeof base.fields };
      expect(encodeEvent(e)).toBe(encodeObject(e));
      expect(JSON.parse(encodeEvent(e)).fields).toEqual(JSON.parse(JSON.stringify(fields)));
    }
  });
});
