// A bounded reorder window for one source's events. Pastes are often out of time order (copied newest
// first, bursts pasted in the order someone found them): events are held in a small heap and let go
// oldest first once more than `size` are held, so a source whose disorder spans fewer events than that
// comes out in time order, with memory bounded by the window whatever the input size. An event with no
// time keeps the place of the event before it; equal times keep their order in the file.

interface Held {
  key: number;
  line: string;
}

export class ReorderWindow {
  // Held events sorted by key from `head` on; a file in time order only appends (one comparison per
  // event), so the window costs next to nothing where it is not needed.
  private held: Held[] = [];
  private head = 0;
  private lastKey = -Infinity;

  constructor(
    private readonly size: number,
    private readonly out: (line: string) => void,
  ) {}

  push(ts: number | null, line: string): void {
    const key = ts ?? this.lastKey;
    this.lastKey = key;
    const h = this.held;
    let i = h.length;
    // After the last held event with a key <= this one: equal keys keep their order in the file.
    while (i > this.head && h[i - 1].key > key) i--;
    if (i === h.length) h.push({ key, line });
    else h.splice(i, 0, { key, line });
    if (h.length - this.head > this.size) this.out(this.take());
  }

  /** Let every held event go, oldest first. */
  flush(): void {
    while (this.head < this.held.length) this.out(this.take());
  }

  private take(): string {
    const line = this.held[this.head++].line;
    if (this.head >= 1024 && this.head * 2 >= this.held.length) {
      this.held = this.held.slice(this.head);
      this.head = 0;
    }
    return line;
  }
}
