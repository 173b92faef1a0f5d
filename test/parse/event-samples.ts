// Events for the tests of the event forms: every event of a lab recording's log, and any event at all.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { SourceParser } from '../../src/parse/parser.js';
import { parseZone } from '../../src/parse/time.js';
import type { RmqEvent } from '../../src/parse/types.js';
import type { SourceKind } from '../../src/ingest/kinds.js';

const LAB = join(__dirname, '..', '..', 'samples', 'lab');

/** `rel`: scenario/host/...; records that are no event come too. */
export function recordedEvents(rel: string, kindHint: SourceKind | null): RmqEvent[] {
  const events: RmqEvent[] = [];
  const p = new SourceParser(
    { file: rel, host: rel.split('/')[1], sourceIndex: 3, kindHint, kindForced: false, defaultZone: parseZone('+08:00'), keepOther: true },
    (e) => events.push(e),
  );
  readFileSync(join(LAB, rel), 'utf8').split(/\r?\n/).forEach((l, i) => p.line(l, i + 1));
  p.end();
  return events;
}

/**
 * Any event, odd shapes included: strings of any code units (lone surrogates too), numbers JSON
 * cannot hold, undefined where a string belongs, keys such as `__proto__`, values that are lists.
 */
export function anyEvent(): fc.Arbitrary<RmqEvent> {
  const text = fc.string({ unit: 'binary' });
  const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
  const value = fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null), fc.double(), fc.array(text, { maxLength: 3 }), fc.constant(undefined), fc.array(fc.integer(), { maxLength: 2 }));
  return fc.record({
    ts: fc.oneof(fc.constant(null), fc.integer(), fc.double()),
    clock: maybe(fc.oneof(text, fc.constant(''))),
    host: fc.oneof(text, fc.constant('h')),
    kind: fc.constantFrom('client', 'broker'),
    file: fc.oneof(text, fc.constant('f')),
    line: fc.oneof(fc.integer(), fc.double()),
    level: fc.option(text),
    thread: fc.option(fc.oneof(text, fc.constant(undefined))),
    logger: fc.option(text),
    type: fc.constantFrom('rpc-timeout', 'other', 'made-up'),
    fields: fc.dictionary(fc.oneof(text, fc.constantFrom('__proto__', '1', 'brokerAddr')), value),
    text: fc.oneof(text, fc.string({ unit: 'grapheme', maxLength: 400 })),
    entry: maybe(fc.oneof(text, fc.constant(''))),
    versionHint: maybe(text),
    sendPath: maybe(fc.constantFrom('default', 'select', 'queue', 'async')),
    source: fc.nat(),
    seq: fc.nat(),
  }) as unknown as fc.Arbitrary<RmqEvent>;
}
