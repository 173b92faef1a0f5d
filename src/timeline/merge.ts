// K-way merge of per-source event streams by time. Ties keep input order: by source index, then by
// the order within the source. An event with no time (a headerless paste, a time-only layout) sorts
// at the last time seen before it in its own source, so it stays beside its neighbours.

import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { RmqEvent } from '../parse/types.js';

export interface EventCursor {
  /** Next event, or null at the end. */
  next(): Promise<RmqEvent | null>;
}

/** Events from a spill file (one JSON array per line) and then an in-memory tail. */
export function cursorOf(spill: string | null, tail: RmqEvent[]): EventCursor {
  let lines: AsyncIterator<string> | null = null;
  let spillDone = spill === null;
  let batch: RmqEvent[] = [];
  let b = 0;
  let i = 0;
  return {
    async next() {
      while (!spillDone) {
        if (b < batch.length) return batch[b++];
        if (!lines) {
          const rl = createInterface({ input: createReadStream(spill!, { highWaterMark: 1 << 20 }), crlfDelay: Infinity });
          lines = rl[Symbol.asyncIterator]();
        }
        const r = await lines.next();
        if (r.done) {
          spillDone = true;
          batch = [];
        } else {
          batch = JSON.parse(r.value) as RmqEvent[];
          b = 0;
        }
      }
      return i < tail.length ? tail[i++] : null;
    },
  };
}

interface HeapItem {
  key: number;
  source: number;
  seq: number;
  event: RmqEvent;
  cursor: EventCursor;
  lastKey: number;
}

function less(a: HeapItem, b: HeapItem): boolean {
  if (a.key !== b.key) return a.key < b.key;
  if (a.source !== b.source) return a.source < b.source;
  return a.seq < b.seq;
}

class Heap {
  private a: HeapItem[] = [];
  get size(): number {
    return this.a.length;
  }
  push(x: HeapItem): void {
    const a = this.a;
    a.push(x);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(a[i], a[p])) break;
      [a[i], a[p]] = [a[p], a[i]];
      i = p;
    }
  }
  pop(): HeapItem | undefined {
    const a = this.a;
    if (!a.length) return undefined;
    const top = a[0];
    const last = a.pop()!;
    if (a.length) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && less(a[l], a[m])) m = l;
        if (r < a.length && less(a[r], a[m])) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m], a[i]];
        i = m;
      }
    }
    return top;
  }
}

/** Merge cursors into one ordered stream. */
export async function* mergeEvents(cursors: EventCursor[]): AsyncGenerator<RmqEvent> {
  const heap = new Heap();
  const load = async (cursor: EventCursor, lastKey: number) => {
    const e = await cursor.next();
    if (!e) return;
    const key = e.ts ?? lastKey;
    heap.push({ key, source: e.source, seq: e.seq, event: e, cursor, lastKey: key });
  };
  await Promise.all(cursors.map((c) => load(c, -Infinity)));
  while (heap.size) {
    const top = heap.pop()!;
    yield top.event;
    await load(top.cursor, top.lastKey);
  }
}
