// The simulation kernel: a virtual clock in milliseconds and an event queue ordered by
// (time, priority, sequence). Nothing here reads the wall clock: the same schedule gives the same
// order of callbacks, whatever the machine.
//
// Times are numbers of milliseconds since the start of the run (fractions allowed: a 0.3 ms
// network hop is fine). Same-time events run in priority order (lower first), then in the order
// they were scheduled.

export class AssertionError extends Error {}

/** Fails loudly when something that must hold does not (TigerBeetle style: assert what you rely on). */
export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new AssertionError(`model assertion failed: ${message}`);
}

/** For hot paths: `if (!cond) fail(...)` builds the message only when it fails. */
export function fail(message: string): never {
  throw new AssertionError(`model assertion failed: ${message}`);
}

/** Priorities for same-time events. Faults land before anything else at their instant. */
export const Priority = {
  fault: 0,
  network: 10,
  process: 20,
  timer: 30,
  app: 40,
} as const;

type Task = () => void;

/** A callback with up to two arguments, scheduled without a closure (schedule2). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Call = (a: any, b: any) => void;

/**
 * Decides whether a callback may run now (a process gate: dropped when its process died, held while
 * its host is hung). Returning false means the gate dropped or kept the task.
 */
export interface Gate {
  /** `fn(a, b)` is the task (plain tasks ignore the arguments). */
  admit(inc: number, fn: Call, a: unknown, b: unknown): boolean;
}

/** A scheduled callback; cancel() makes it a no-op (it stays in the heap until its time). */
export interface Timer {
  readonly atMs: number;
  readonly cancelled: boolean;
  cancel(): void;
}

class Entry implements Timer {
  constructor(
    public atMs: number,
    public priority: number,
    public seq: number,
    public fn: Call | null,
    public gate: Gate | null,
    public inc: number,
    public a: unknown,
    public b: unknown,
    /** Posted (post2): nobody holds it, so run() recycles it once taken. */
    readonly pooled: boolean,
  ) {}
  get cancelled(): boolean {
    return this.fn === null;
  }
  cancel(): void {
    this.fn = null;
    this.a = undefined;
    this.b = undefined;
  }
}

/** Sequence numbers stay below 2^40, so priority * 2^40 + seq orders by priority, then sequence. */
const KEY_SCALE = 2 ** 40;
/** The order key of a lane entry is LANE_KEY + seq (the lane holds Priority.network only). */
const LANE_KEY = Priority.network * KEY_SCALE;

/** A periodic task's handle: cancel() stops all later runs. */
class Periodic implements Timer {
  private next: Timer | null = null;
  private stopped = false;
  constructor(
    private readonly kernel: Kernel,
    readonly periodMs: number,
    firstAtMs: number,
    private readonly priority: number,
    private readonly fn: Task,
  ) {
    this.arm(firstAtMs);
  }
  get atMs(): number {
    return this.next?.atMs ?? Number.POSITIVE_INFINITY;
  }
  get cancelled(): boolean {
    return this.stopped;
  }
  cancel(): void {
    this.stopped = true;
    this.next?.cancel();
    this.next = null;
  }
  private arm(atMs: number): void {
    // Fixed rate: the k-th run is due at first + k * period, however long the runs take.
    this.next = this.kernel.schedule2(atMs, this.priority, Periodic.tick, this, atMs);
  }

  private static tick(p: Periodic, atMs: number): void {
    if (p.stopped) return;
    p.arm(atMs + p.periodMs);
    p.fn();
  }
}

export class Kernel {
  private readonly heap: Entry[] = [];
  private hAt = new Float64Array(1024);
  private hKey = new Float64Array(1024);
  /**
   * A FIFO lane beside the heap for network deliveries (schedule2 at Priority.network): they are
   * mostly scheduled at now + the same hop, i.e. in (time, priority, sequence) order, so they can wait
   * in arrival order instead of going through the heap. An entry that would not keep the lane sorted
   * goes to the heap; run() takes the earlier of the two heads, so the order of callbacks is the same.
   * Like the heap, the lane keeps its entries' times and sequence numbers in typed arrays, so that
   * choosing between the heads reads no entry.
   */
  private lane: Array<Entry | undefined> = new Array<Entry | undefined>(1024).fill(undefined);
  private laneAt = new Float64Array(1024);
  private laneSeq = new Float64Array(1024);
  private laneTailAt = 0;
  private laneMask = 1023;
  private laneHead = 0;
  private laneSize = 0;
  /** Entries of post2 that ran, for reuse. */
  private readonly free: Entry[] = [];
  private seqNext = 0;
  private now = 0;
  private executed = 0;
  private running = false;

  get nowMs(): number {
    return this.now;
  }

  /** Callbacks run so far (cancelled ones are not counted). */
  get executedCount(): number {
    return this.executed;
  }

  /** Entries in the queue, cancelled ones included. */
  get pendingCount(): number {
    return this.heap.length + this.laneSize;
  }

  /** Run fn at atMs; with a gate, only if the gate admits it then (see Gate). */
  schedule(atMs: number, priority: number, fn: Task, gate: Gate | null = null, inc = 0): Timer {
    this.checkTime(atMs);
    const e = new Entry(atMs, priority, this.seqNext++, fn, gate, inc, undefined, undefined, false);
    this.push(e);
    return e;
  }

  /** schedule(atMs, priority, () => fn(a, b), gate, inc) without allocating the closure (hot paths). */
  schedule2<A, B>(atMs: number, priority: number, fn: (a: A, b: B) => void, a: A, b: B, gate: Gate | null = null, inc = 0): Timer {
    this.checkTime(atMs);
    const e = new Entry(atMs, priority, this.seqNext++, fn as Call, gate, inc, a, b, false);
    this.enqueue(e);
    return e;
  }

  /**
   * schedule2 for a callback nobody cancels: no Timer is handed out, so its entry is taken from and
   * returned to a free list (a run's millions of sends and deliveries allocate no entry each).
   */
  post2<A, B>(atMs: number, priority: number, fn: (a: A, b: B) => void, a: A, b: B, gate: Gate | null = null, inc = 0): void {
    this.checkTime(atMs);
    const seq = this.seqNext++;
    let e = this.free.pop();
    if (e === undefined) e = new Entry(atMs, priority, seq, fn as Call, gate, inc, a, b, true);
    else {
      e.atMs = atMs;
      e.priority = priority;
      e.seq = seq;
      e.fn = fn as Call;
      e.gate = gate;
      e.inc = inc;
      e.a = a;
      e.b = b;
    }
    this.enqueue(e);
  }

  /** A callback's time: not before now, and finite. */
  private checkTime(atMs: number): void {
    if (!(atMs >= this.now)) fail(`schedule: time ${atMs} is before now ${this.now} (or not a number)`);
    if (atMs === Number.POSITIVE_INFINITY) fail('schedule: time must be finite');
  }

  private enqueue(e: Entry): void {
    // Not before the lane's tail: a later sequence number at the same time comes after it.
    if (e.priority === Priority.network && (this.laneSize === 0 || e.atMs >= this.laneTailAt)) this.lanePush(e);
    else this.push(e);
  }

  after(delayMs: number, priority: number, fn: Task): Timer {
    if (!(delayMs >= 0)) fail(`after: negative delay ${delayMs}`);
    return this.schedule(this.now + delayMs, priority, fn);
  }

  /** Run fn every periodMs, the first time initialDelayMs from now (fixed rate). */
  every(periodMs: number, initialDelayMs: number, fn: Task, priority: number = Priority.timer): Periodic {
    assert(periodMs > 0, `every: period must be positive, got ${periodMs}`);
    assert(initialDelayMs >= 0, `every: negative initial delay ${initialDelayMs}`);
    return new Periodic(this, periodMs, this.now + initialDelayMs, priority, fn);
  }

  /** Run every event due at or before untilMs, then leave the clock at untilMs. */
  run(untilMs: number): void {
    assert(!this.running, 'run: the kernel is already running (re-entrant run)');
    assert(untilMs >= this.now, `run: until ${untilMs} is before now ${this.now}`);
    this.running = true;
    try {
      const heap = this.heap;
      for (;;) {
        let e: Entry;
        const h = this.laneHead;
        const lat = this.laneAt[h];
        if (this.laneSize > 0 && (heap.length === 0 || lat < this.hAt[0] || (lat === this.hAt[0] && LANE_KEY + this.laneSeq[h] < this.hKey[0]))) {
          if (lat > untilMs) break;
          e = this.lane[h]!;
          this.lane[h] = undefined;
          this.laneHead = (this.laneHead + 1) & this.laneMask;
          this.laneSize--;
        } else {
          if (heap.length === 0 || this.hAt[0] > untilMs) break;
          e = this.pop();
        }
        if (e.fn === null) continue;
        this.now = e.atMs;
        const fn = e.fn;
        const a = e.a;
        const b = e.b;
        const gate = e.gate;
        const inc = e.inc;
        e.fn = null;
        e.a = undefined;
        e.b = undefined;
        if (e.pooled) {
          e.gate = null;
          this.free.push(e);
        }
        if (gate !== null && !gate.admit(inc, fn, a, b)) continue;
        this.executed++;
        fn(a, b);
      }
      this.now = untilMs;
    } finally {
      this.running = false;
    }
  }

  /** Append to the lane (a ring buffer that doubles when full). */
  private lanePush(e: Entry): void {
    if (this.laneSize === this.lane.length) {
      const n = this.lane.length * 2;
      const grown = new Array<Entry | undefined>(n).fill(undefined);
      const at = new Float64Array(n);
      const seq = new Float64Array(n);
      for (let i = 0; i < this.laneSize; i++) {
        const j = (this.laneHead + i) & this.laneMask;
        grown[i] = this.lane[j];
        at[i] = this.laneAt[j];
        seq[i] = this.laneSeq[j];
      }
      this.lane = grown;
      this.laneAt = at;
      this.laneSeq = seq;
      this.laneMask = n - 1;
      this.laneHead = 0;
    }
    const i = (this.laneHead + this.laneSize) & this.laneMask;
    this.lane[i] = e;
    this.laneAt[i] = e.atMs;
    this.laneSeq[i] = e.seq;
    this.laneTailAt = e.atMs;
    this.laneSize++;
  }

  // The heap's order keys sit in typed arrays beside it (time; priority * 2^40 + sequence), so that
  // sifting compares numbers in contiguous memory instead of loading each entry.

  private growKeys(): void {
    const at = new Float64Array(this.hAt.length * 2);
    const key = new Float64Array(this.hKey.length * 2);
    at.set(this.hAt);
    key.set(this.hKey);
    this.hAt = at;
    this.hKey = key;
  }

  private push(e: Entry): void {
    const heap = this.heap;
    let i = heap.length;
    heap.push(e);
    if (i >= this.hAt.length) this.growKeys();
    const hAt = this.hAt;
    const hKey = this.hKey;
    const at = e.atMs;
    const key = e.priority * KEY_SCALE + e.seq;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pa = hAt[parent];
      if (pa < at || (pa === at && hKey[parent] < key)) break;
      heap[i] = heap[parent];
      hAt[i] = pa;
      hKey[i] = hKey[parent];
      i = parent;
    }
    heap[i] = e;
    hAt[i] = at;
    hKey[i] = key;
  }

  private pop(): Entry {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop()!;
    const n = heap.length;
    if (n > 0) {
      const hAt = this.hAt;
      const hKey = this.hKey;
      const la = hAt[n];
      const lk = hKey[n];
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        let c = l;
        if (r < n) {
          const ra = hAt[r];
          const lat = hAt[l];
          if (ra < lat || (ra === lat && hKey[r] < hKey[l])) c = r;
        }
        const ca = hAt[c];
        if (ca > la || (ca === la && hKey[c] > lk)) break;
        heap[i] = heap[c];
        hAt[i] = ca;
        hKey[i] = hKey[c];
        i = c;
      }
      heap[i] = last;
      hAt[i] = la;
      hKey[i] = lk;
    }
    return top;
  }
}
