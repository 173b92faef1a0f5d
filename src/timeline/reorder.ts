// A bounded reorder window for one source's events. Pastes are often out of time order (copied newest
// first, bursts pasted in the order someone found them): events are held in a small heap and let go
// oldest first once more than `size` are held, so a source whose disorder spans fewer events than that
// comes out in time order, with memory bounded by the window whatever the input size. An event with no
// time keeps the place of the event before it; equal times keep their order in the file.

import { Heap } from './heap.js';

interface Held {
  key: number;
  seq: number;
  line: string;
}

export class ReorderWindow {
  private readonly heap = new Heap<Held>(before);
  private lastKey = -Infinity;
  private seq = 0;

  constructor(
    private readonly size: number,
    private readonly out: (line: string) => void,
  ) {}

  push(ts: number | null, line: string): void {
    const key = ts ?? this.lastKey;
    this.lastKey = key;
    this.heap.push({ key, seq: this.seq++, line });
    if (this.heap.size > this.size) this.out(this.heap.pop()!.line);
  }

  /** Let every held event go, oldest first. */
  flush(): void {
    for (let h = this.heap.pop(); h !== undefined; h = this.heap.pop()) this.out(h.line);
  }
}

function before(a: Held, b: Held): boolean {
  return a.key !== b.key ? a.key < b.key : a.seq < b.seq;
}
