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

export type Task = () => void;

/**
 * Decides whether a callback may run now (a process gate: dropped when its process died, held while
 * its host is hung). Returning false means the gate dropped or kept the task.
 */
export interface Gate {
  admit(inc: number, fn: Task): boolean;
}

/** A scheduled callback; cancel() makes it a no-op (it stays in the heap until its time). */
export interface Timer {
  readonly atMs: number;
  readonly cancelled: boolean;
  cancel(): void;
}

class Entry implements Timer {
  constructor(
    readonly atMs: number,
    readonly priority: number,
    readonly seq: number,
    public fn: Task | null,
    readonly gate: Gate | null,
    readonly inc: number,
  ) {}
  get cancelled(): boolean {
    return this.fn === null;
  }
  cancel(): void {
    this.fn = null;
  }
}

function before(a: Entry, b: Entry): boolean {
  if (a.atMs !== b.atMs) return a.atMs < b.atMs;
  if (a.priority !== b.priority) return a.priority < b.priority;
  return a.seq < b.seq;
}

/** A periodic task's handle: cancel() stops all later runs. */
export class Periodic implements Timer {
  private next: Timer | null = null;
  private stopped = false;
  constructor(
    private readonly kernel: Kernel,
    readonly periodMs: number,
    firstAtMs: number,
    private readonly priority: number,
    private readonly fn: Task,
  ) {
    this.arm(firstAtMs, 0);
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
  private arm(atMs: number, runs: number): void {
    // Fixed rate: the k-th run is due at first + k * period, however long the runs take.
    this.next = this.kernel.schedule(atMs, this.priority, () => {
      if (this.stopped) return;
      this.arm(atMs + this.periodMs, runs + 1);
      this.fn();
    });
  }
}

export class Kernel {
  private readonly heap: Entry[] = [];
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
    return this.heap.length;
  }

  /** Run fn at atMs; with a gate, only if the gate admits it then (see Gate). */
  schedule(atMs: number, priority: number, fn: Task, gate: Gate | null = null, inc = 0): Timer {
    if (!(atMs >= this.now)) fail(`schedule: time ${atMs} is before now ${this.now} (or not a number)`);
    if (atMs === Number.POSITIVE_INFINITY) fail('schedule: time must be finite');
    const e = new Entry(atMs, priority, this.seqNext++, fn, gate, inc);
    this.push(e);
    return e;
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
      while (heap.length > 0 && heap[0].atMs <= untilMs) {
        const e = this.pop();
        if (e.fn === null) continue;
        this.now = e.atMs;
        const fn = e.fn;
        e.fn = null;
        if (e.gate !== null && !e.gate.admit(e.inc, fn)) continue;
        this.executed++;
        fn();
      }
      this.now = untilMs;
    } finally {
      this.running = false;
    }
  }

  private push(e: Entry): void {
    const heap = this.heap;
    let i = heap.length;
    heap.push(e);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(e, heap[parent])) break;
      heap[i] = heap[parent];
      i = parent;
    }
    heap[i] = e;
  }

  private pop(): Entry {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop()!;
    const n = heap.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && before(heap[r], heap[l]) ? r : l;
        if (!before(heap[c], last)) break;
        heap[i] = heap[c];
        i = c;
      }
      heap[i] = last;
    }
    return top;
  }
}
