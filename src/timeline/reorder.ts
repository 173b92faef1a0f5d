// A bounded reorder window for one source's events. Pastes are often out of time order (copied newest
// first, bursts pasted in the order someone found them): events are held in a small heap and let go
// oldest first once more than `size` are held, so a source whose disorder spans fewer events than that
// comes out in time order, with memory bounded by the window whatever the input size. An event with no
// time keeps the place of the event before it; equal times keep their order in the file.

interface Held {
  key: number;
  seq: number;
  line: string;
}

export class ReorderWindow {
  private readonly heap: Held[] = [];
  private lastKey = -Infinity;
  private seq = 0;

  constructor(
    private readonly size: number,
    private readonly out: (line: string) => void,
  ) {}

  push(ts: number | null, line: string): void {
    const key = ts ?? this.lastKey;
    this.lastKey = key;
    const h = this.heap;
    h.push({ key, seq: this.seq++, line });
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(h[i], h[p])) break;
      [h[i], h[p]] = [h[p], h[i]];
      i = p;
    }
    if (h.length > this.size) this.out(this.pop());
  }

  /** Let every held event go, oldest first. */
  flush(): void {
    while (this.heap.length) this.out(this.pop());
  }

  private pop(): string {
    const h = this.heap;
    const top = h[0];
    const last = h.pop()!;
    if (h.length) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && before(h[l], h[m])) m = l;
        if (r < h.length && before(h[r], h[m])) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m], h[i]];
        i = m;
      }
    }
    return top.line;
  }
}

function before(a: Held, b: Held): boolean {
  return a.key !== b.key ? a.key < b.key : a.seq < b.seq;
}
