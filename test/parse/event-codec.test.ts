import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeJson, encodedFieldIs, encodedText, encodeEvent, encodeObject, readHeader, type EncodedHeader } from '../../src/parse/event-codec.js';
import { SourceParser } from '../../src/parse/parser.js';
import { parseZone } from '../../src/parse/time.js';
import type { RmqEvent } from '../../src/parse/types.js';
import type { SourceKind } from '../../src/ingest/kinds.js';

const LAB = join(__dirname, '..', '..', 'samples', 'lab', 'broker-busy');

function eventsOf(rel: string, kindHint: SourceKind | null): RmqEvent[] {
  const events: RmqEvent[] = [];
  const p = new SourceParser(
    { file: rel, host: rel.split('/')[0], sourceIndex: 3, kindHint, kindForced: false, defaultZone: parseZone('+08:00'), keepOther: true },
    (e) => events.push(e),
  );
  readFileSync(join(LAB, rel), 'utf8').split(/\r?\n/).forEach((l, i) => p.line(l, i + 1));
  p.end();
  return events;
}

describe('the event codec reads its own format', () => {
  // Real recordings: a client log (stack traces, quotes and braces in text) and a broker's watermarks.
  const events = [...eventsOf('app-feed-01/logs/rocketmqlogs/rocketmq_client.log', 'client'), ...eventsOf('mq-broker-b/logs/rocketmqlogs/watermark.log', 'watermark')];

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
    const real = [...eventsOf('app-feed-01/logs/rocketmqlogs/rocketmq_client.log', 'client'), ...eventsOf('mq-broker-b/logs/rocketmqlogs/watermark.log', 'watermark')];
    for (const e of real) expect(encodeEvent(e)).toBe(encodeObject(e));
    const text = fc.string({ unit: 'binary' });
    const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
    const event = fc.record({
      ts: fc.constant(null),
      clock: maybe(fc.oneof(text, fc.constant(''))),
      host: fc.oneof(text, fc.constant('h')),
      kind: fc.constantFrom('client', 'broker'),
      file: fc.oneof(text, fc.constant('f')),
      line: fc.oneof(fc.integer(), fc.double()),
      level: fc.option(text),
      thread: fc.option(fc.oneof(text, fc.constant(undefined))),
      logger: fc.option(text),
      type: fc.constantFrom('rpc-timeout', 'other'),
      fields: fc.dictionary(text, fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null), fc.double())),
      text,
      entry: maybe(fc.oneof(text, fc.constant(''))),
      versionHint: maybe(text),
      sendPath: maybe(fc.constantFrom('default', 'select', 'queue')),
      source: fc.nat(),
      seq: fc.nat(),
    });
    fc.assert(
      fc.property(fc.array(event, { minLength: 1, maxLength: 4 }), (events) => {
        for (const e of events) expect(encodeEvent(e as unknown as RmqEvent)).toBe(encodeObject(e as unknown as RmqEvent));
      }),
      { numRuns: 500 },
    );
  });
});
