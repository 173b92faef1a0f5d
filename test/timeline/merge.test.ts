// The merge reads each source's spill file in pieces and its tail from memory; records longer than a
// piece (a route dump of many brokers) and the order of ties across sources must come out right.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeEvent } from '../../src/parse/event-codec.js';
import type { RmqEvent } from '../../src/parse/types.js';
import { mergeEncoded, SourceCursor } from '../../src/timeline/merge.js';
import { createSpillDir, removeSpillDir, SpillWriter } from '../../src/timeline/spill.js';

const dir = createSpillDir();
afterAll(() => removeSpillDir(dir));

function event(ts: number | null, i: number, text = `line ${i}`): RmqEvent {
  return {
    ts,
    host: 'app-1',
    kind: 'client',
    file: 'rocketmq_client.log',
    line: i + 1,
    level: 'INFO',
    thread: null,
    logger: 'RocketmqClient',
    type: 'route-changed',
    fields: { topic: 'TopicTest', brokers: Array.from({ length: i % 3 }, (_, k) => `broker-${k}`) },
    text,
    source: 0,
    seq: i,
  };
}

/** The events spilled as a parse leaves them: `maxEvents` at a time to the file, the rest held. */
function spilled(name: string, events: RmqEvent[], maxEvents: number): { spill: string | null; tail: Buffer | null } {
  const w = new SpillWriter(join(dir, name), maxEvents);
  for (const e of events) w.add(e);
  w.close();
  return { spill: w.path, tail: w.tail };
}

describe('SourceCursor', () => {
  it('reads records longer than its piece from the spill file, before and after short ones', () => {
    // A route dump of thousands of queues is far over the 64 KiB the cursor reads at a time.
    const events = [event(1, 0), event(2, 1, 'x'.repeat(300_000)), event(3, 2), event(4, 3, 'y'.repeat(70_000)), event(5, 4)];
    const { spill, tail } = spilled('long.events', events, 2);
    expect(spill).not.toBeNull();
    const c = new SourceCursor(0, spill, tail);
    const got: string[] = [];
    for (let n = 0; c.next(); n++) got.push(encodeEvent(c.event(n)));
    expect(got).toEqual(events.map(encodeEvent));
  });

  it('says so when a spill file ends inside a record', () => {
    const { spill } = spilled('cut.events', [event(1, 0), event(2, 1, 'z'.repeat(100_000))], 1);
    const whole = readFileSync(spill!);
    writeFileSync(spill!, whole.subarray(0, whole.length - 10));
    const c = new SourceCursor(0, spill, null);
    expect(c.next()).toBe(true);
    expect(() => c.next()).toThrow(/ends inside a record/);
  });
});

describe('mergeEncoded', () => {
  it('orders by time, ties by source then by order within it, and an event without a time stays by its neighbour', () => {
    const a = [event(10, 0), event(20, 1), event(null, 2), event(30, 3)];
    const b = [event(10, 0), event(15, 1), event(20, 2), event(25, 3)];
    const sa = spilled('a.events', a, 3);
    const sb = spilled('b.events', b, 100); // all held: a tail only
    expect(sb.spill).toBeNull();
    const order = Array.from(mergeEncoded([new SourceCursor(0, sa.spill, sa.tail), new SourceCursor(1, sb.spill, sb.tail)]), (m) => `${m.source}:${m.seq}:${m.ts}:${m.event().line}`);
    expect(order).toEqual(['0:0:10:1', '1:0:10:1', '1:1:15:2', '0:1:20:2', '0:2:null:3', '1:2:20:3', '1:3:25:4', '0:3:30:4']);
  });
});
