// A bounded reorder window for one source's events. Pastes are often out of time order (copied newest
// first, bursts pasted in the order someone found them): events are held in a small heap and let go
// oldest first once more than `size` are held, so a source whose disorder spans fewer events than that
// comes out in time order, with memory bounded by the window whatever the input size. An event with no
// time keeps the place of the event before it; equal times keep their order in the file.

export class ReorderWindow<T> {
  // Held events, sorted by key from `head` on, in two parallel arrays (no object per event); a file in
  // time order only appends (one comparison per event), so the window costs next to nothing there.
  private keys: number[] = [];
  private items: Array<T | undefined> = [];
  private head = 0;
  private lastKey = -Infinity;

  constructor(
    private readonly size: number,
    private readonly out: (item: T) => void,
  ) {}

  push(ts: number | null, item: T): void {
    const key = ts ?? this.lastKey;
    this.lastKey = key;
    const keys = this.keys;
    let i = keys.length;
    // After the last held event with a key <= this one: equal keys keep their order in the file.
    while (i > this.head && keys[i - 1] > key) i--;
    if (i === keys.length) {
      keys.push(key);
      this.items.push(item);
    } else {
      keys.splice(i, 0, key);
      this.items.splice(i, 0, item);
    }
    if (keys.length - this.head > this.size) this.out(this.take());
  }

  /** Let every held event go, oldest first. */
  flush(): void {
    while (this.head < this.keys.length) this.out(this.take());
  }

  private take(): T {
    const item = this.items[this.head] as T;
    this.items[this.head++] = undefined;
    if (this.head >= 1024 && this.head * 2 >= this.keys.length) {
      this.keys = this.keys.slice(this.head);
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}
