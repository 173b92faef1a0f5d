// The consumer lines collect keeps of the busiest kinds (src/diagnosis/consumer-lines.ts): the few
// consumer-changed lines of a server log and rebalance lines that inference reads, in the order they
// were read; and inference over them is inference over every line (the lab's consumer recordings,
// and random streams of them).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KEEP_CAP, collect, collector, type Collected } from '../../src/diagnosis/collect.js';
import { inferScenario } from '../../src/diagnosis/infer.js';
import type { RmqEvent } from '../../src/parse/types.js';
import { SERVER_KINDS } from '../../src/ingest/kinds.js';
import { buildTimeline } from '../../src/timeline/build.js';
import { commonDir } from '../../src/util/paths.js';
import { sourceOf } from './sources.js';

const ROOT = join(__dirname, '..', '..');
const LAB = join(ROOT, 'samples', 'lab');
const T0 = Date.parse('2024-05-20T14:00:00+08:00');

const source = sourceOf;
const SOURCES = [source('b/broker.log', 'b', 'broker'), source('c1/client.log', 'c1', 'client'), source('c2/client.log', 'c2', 'client')];

let line = 0;
/** A consumer-changed line of broker b, `at` ms after T0. */
function changed(at: number, change: string, f: { group?: string; clientId?: string; topic?: string; subString?: string } = {}): RmqEvent {
  const { group = 'G', clientId = null, topic = null, subString = null } = f;
  return {
    ts: T0 + at,
    host: 'b',
    kind: 'broker',
    file: 'b/broker.log',
    line: ++line,
    level: 'INFO',
    thread: 'HeartbeatThread_1',
    logger: null,
    type: 'consumer-changed',
    fields: { change, group, clientId, addr: null, topic, subString, oldSubString: null },
    text: `${change} ${group}`,
    source: 0,
    seq: 0,
  };
}
/** Client `host`'s consumer start line of group G, `at` ms after T0. */
function start(at: number, host = 'c1', group = 'G'): RmqEvent {
  const ip = host === 'c1' ? '10.0.0.1' : '10.0.0.2';
  return {
    ts: T0 + at,
    host,
    kind: 'client',
    file: `${host}/client.log`,
    line: ++line,
    level: 'INFO',
    thread: 'main',
    logger: 'RocketmqClient',
    type: 'startup',
    fields: { role: 'consumer', group },
    text: `the consumer [${group}] start OK. ClientID:${ip}@100`,
    source: host === 'c1' ? 1 : 2,
    seq: 0,
  };
}

/** Client `host`'s rebalance line, `at` ms after T0. */
function rebalance(at: number, host = 'c1', group: string | null = 'G', topic: string | null = 'T'): RmqEvent {
  return {
    ts: T0 + at,
    host,
    kind: 'client',
    file: `${host}/client.log`,
    line: ++line,
    level: 'INFO',
    thread: null,
    logger: 'RocketmqClient',
    type: 'rebalance',
    fields: { action: 'result', group, topic, clientId: null, queues: ['broker-a:0'] },
    text: `rebalanced result changed. group=${String(group)}, topic=${String(topic)}`,
    source: host === 'c1' ? 1 : 2,
    seq: 0,
  };
}

const isBookLine = (e: RmqEvent) => e.type === 'consumer-changed' && SERVER_KINDS.has(e.kind);
/** The lines consumer-lines.ts keeps a few of. */
const isThinned = (e: RmqEvent) => isBookLine(e) || e.type === 'rebalance';
const bookLines = (c: Collected) => c.events.filter(isBookLine).map((e) => `${(e.ts! - T0) / 1000} ${String(e.fields.change)} ${String(e.fields.clientId ?? e.fields.subString)}`);

describe('the brokers\' book keeps the lines inference reads', () => {
  it('a group\'s first topic, its first subscriptions and each new one, the connections near its starts and their ends', () => {
    const events = [
      changed(1000, 'connected', { clientId: '10.0.0.9@1' }),
      changed(2000, 'topic-added', { topic: '%RETRY%G', subString: '*' }),
      ...[3000, 4000, 5000, 6000].map((at) => changed(at, 'subscription-changed', { topic: 'T', subString: '*' })),
      // an end read before its connection, the connection before the start it belongs to
      changed(96000, 'channel-removed', { clientId: '10.0.0.1@100' }),
      changed(97000, 'connected', { clientId: '10.0.0.1@100' }),
      changed(99000, 'connected', { clientId: '10.0.0.2@7', group: 'other' }),
      start(100000),
      changed(104000, 'connected', { clientId: '10.0.0.2@200' }),
      changed(105000, 'connected', { clientId: '10.0.0.2@201' }),
      changed(105001, 'connected', { clientId: '10.0.0.2@300' }),
      // a topic with no subscription (a line cut before it): the group's topic when it comes first
      changed(105500, 'topic-removed', { group: 'H', topic: 'U' }),
      changed(105600, 'topic-removed', { group: 'H', topic: 'U' }),
      changed(200000, 'subscription-changed', { topic: 'T', subString: 'TagA' }),
      changed(210000, 'subscription-changed', { topic: 'T', subString: '*' }),
      changed(300000, 'unregistered', { clientId: '10.0.0.2@200' }),
      changed(300000, 'unregistered', { clientId: '10.0.0.2@300' }),
      changed(400000, 'channel-removed', { clientId: '10.0.0.1@100' }),
      changed(401000, 'channel-removed', { clientId: '10.0.0.9@1' }),
    ];
    const c = collect(events, SOURCES, '', T0, T0 + 500000);
    expect(bookLines(c)).toEqual([
      '3 subscription-changed *',
      '4 subscription-changed *',
      '5 subscription-changed *',
      '96 channel-removed 10.0.0.1@100',
      '97 connected 10.0.0.1@100',
      '104 connected 10.0.0.2@200',
      '105 connected 10.0.0.2@201',
      '105.5 topic-removed null',
      '200 subscription-changed TagA',
      '300 unregistered 10.0.0.2@200',
      '400 channel-removed 10.0.0.1@100',
    ]);
    // in the order read, among the other kept events
    expect(c.events.map((e) => e.type).indexOf('startup')).toBe(5);
    expect(c.events.every((e) => e.text === '' || e.type === 'startup')).toBe(true);
  });

  it('counts every line against the cap, kept or not', () => {
    const events = Array.from({ length: KEEP_CAP + 5 }, (_, i) => changed(i, 'connected', { clientId: `10.0.0.9@${i}` }));
    const c = collect(events, SOURCES, '', T0, T0 + 30000);
    expect(c.dropped.get('consumer-changed b')).toBe(5);
    expect(bookLines(c)).toEqual([]);
  });

  it('keeps every line of a log that is no server\'s (its times are judged with its other lines)', () => {
    const pasted = [1000, 2000].map((at) => ({ ...changed(at, 'connected', { clientId: '10.0.0.9@1' }), host: 'c2', kind: 'client' as const, file: 'c2/client.log' }));
    const c = collect(pasted, SOURCES, '', T0, T0 + 3000);
    expect(c.events.map((e) => e.line)).toEqual(pasted.map((e) => e.line));
  });
});

/**
 * Inference over what collect kept, and over the same with every line of those kinds (lightened or
 * not: inference reads none of their texts; after the others: it reads them apart from the others).
 */
function bothWays(c: Collected, every: readonly RmqEvent[]) {
  const all = { ...c, events: [...c.events.filter((e) => !isThinned(e)), ...every] };
  const of = (x: Collected) => {
    const r = inferScenario(x, { zone: '+08:00', source: 'test' });
    return { scenario: r.scenario, provenance: r.provenance, defaults: r.defaults, notes: r.notes };
  };
  return { kept: of(c), every: of(all) };
}

describe('the instances\' rebalances keep the lines inference reads', () => {
  it('a host and group\'s first naming a topic, a file\'s first with milliseconds, a host\'s last before each consumer start and its last', () => {
    const events = [
      start(100000),
      rebalance(100500, 'c1', 'G', '%RETRY%G'),
      ...Array.from({ length: 200 }, (_, i) => rebalance(101000 + i * 1000)),
      rebalance(150500, 'c1', 'G', null),
      rebalance(160000, 'c1', null),
      // read before the start of its millisecond: not before it
      rebalance(400000),
      start(400000, 'c1', 'H'),
      rebalance(450000),
      rebalance(460000, 'c1', 'G', null),
      rebalance(470000, 'c2', 'G', null),
    ].sort((a, b) => a.ts! - b.ts!);
    const c = collect(events, SOURCES, '', T0, T0 + 500000);
    const kept = c.events.filter((e) => e.type === 'rebalance').map((e) => `${e.host} ${(e.ts! - T0) / 1000} ${String(e.fields.group)} ${String(e.fields.topic)}`);
    // 100.5: the file's first time with milliseconds; 101 and 160: the first naming a topic of G and
    // of no group; 300: the last before the start at 400; 460 and 470: each host's last
    expect(kept).toEqual(['c1 100.5 G %RETRY%G', 'c1 101 G T', 'c1 160 null T', 'c1 300 G T', 'c1 460 G null', 'c2 470 G null']);
    // in the order read, among the other kept events
    expect(c.events.map((e) => e.type)).toEqual(['startup', 'rebalance', 'rebalance', 'rebalance', 'rebalance', 'startup', 'rebalance', 'rebalance']);
    expect(c.events.find((e) => e.type === 'startup' && e.fields.group === 'H')?.ts).toBe(T0 + 400000);
  });
});

describe('inference over the lines kept is inference over all of them', () => {
  const recordings = readdirSync(LAB).filter((d) => d.startsWith('consumer-'));

  it.each(recordings)('%s', async (name) => {
    const t = await buildTimeline({ inputs: [join(LAB, name)], keepOther: 'inference', cwd: ROOT, workers: 0 });
    try {
      const c = collector(t.accounting, commonDir(t.accounting.map((a) => a.path)), t.first, t.last, { otherRead: true });
      const every: RmqEvent[] = [];
      for (const e of t.events()) {
        c.visit(e);
        if (isThinned(e)) every.push(e);
      }
      const kept = c.finish();
      expect(every.length).toBeGreaterThan(0);
      expect(kept.events.filter(isThinned).length).toBeLessThanOrEqual(every.length);
      const { kept: a, every: b } = bothWays(kept, every);
      expect(a).toEqual(b);
    } finally {
      t.close();
    }
  });

  it('random streams: starts, connections, ends, subscriptions and rebalances of two groups on two hosts within seconds', () => {
    const id = fc.constantFrom('10.0.0.1@100', '10.0.0.1@101', '10.0.0.2@200', '10.0.0.3@300');
    const line = fc.oneof(
      fc.record({ kind: fc.constant('start' as const), host: fc.constantFrom('c1', 'c2'), group: fc.constantFrom('G', 'H') }),
      fc.record({ kind: fc.constantFrom('connected', 'unregistered', 'channel-removed'), clientId: id, group: fc.constantFrom('G', 'H') }),
      fc.record({ kind: fc.constantFrom('topic-added', 'subscription-changed', 'topic-removed'), topic: fc.constantFrom('T', 'U', '%RETRY%G'), subString: fc.constantFrom('*', 'TagA', 'TagB', undefined), group: fc.constantFrom('G', 'H') }),
      fc.record({ kind: fc.constant('rebalance' as const), host: fc.constantFrom('c1', 'c2'), group: fc.constantFrom('G', 'H', null), topic: fc.constantFrom('T', '%RETRY%G', null) }),
    );
    fc.assert(
      // Gaps of half seconds: lines exactly as far from a start as a connection may be, and just past it.
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 12 }), line), { minLength: 1, maxLength: 60 }), (steps) => {
        let at = 0;
        const events = steps.map(([gap, l]) => {
          at += gap * 500;
          if (l.kind === 'start') return start(at, l.host, l.group);
          if (l.kind === 'rebalance') return rebalance(at, l.host, l.group, l.topic);
          if ('clientId' in l) return changed(at, l.kind, { clientId: l.clientId, group: l.group });
          return changed(at, l.kind, { topic: l.topic, subString: l.subString, group: l.group });
        });
        const c = collect(events, SOURCES, '', T0, T0 + at);
        const { kept, every } = bothWays(c, events.filter(isThinned));
        expect(kept).toEqual(every);
      }),
      { numRuns: 1000 },
    );
  });
});
