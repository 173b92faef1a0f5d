// SimPy-style processes: a component's logic is a generator that yields the signals it waits for
// (a response, a timeout, a connect), so RocketMQ's blocking Java code reads almost line for line.
// A signal resolves once; the generator resumes inside the callback that resolved it, which is a
// process callback of the kernel, so virtual time is the only time.

export class Signal<T> {
  private done = false;
  private result: T | undefined;
  private waiters: Array<(v: T) => void> | null = null;

  get settled(): boolean {
    return this.done;
  }

  get value(): T {
    return this.result as T;
  }

  resolve(v: T): void {
    if (this.done) return;
    this.done = true;
    this.result = v;
    const ws = this.waiters;
    this.waiters = null;
    if (ws) for (const w of ws) w(v);
  }

  then(cb: (v: T) => void): void {
    if (this.done) cb(this.result as T);
    else (this.waiters ??= []).push(cb);
  }
}

export type Co<T> = Generator<Signal<unknown>, T, unknown>;

/** Wait for a signal inside a generator: `const r = yield* wait(sig)`. */
export function* wait<T>(s: Signal<T>): Co<T> {
  if (s.settled) return s.value;
  return (yield s as Signal<unknown>) as T;
}

/** Run a generator to completion; returns a signal with its result. */
export function spawn<T>(gen: Co<T>): Signal<T> {
  const out = new Signal<T>();
  const step = (input: unknown): void => {
    let next: unknown = input;
    for (;;) {
      const r = gen.next(next);
      if (r.done) {
        out.resolve(r.value);
        return;
      }
      const sig = r.value;
      if (sig.settled) {
        next = sig.value;
        continue;
      }
      sig.then(step);
      return;
    }
  };
  step(undefined);
  return out;
}

/** A lock with a FIFO of waiters (ReentrantLock without reentrance, enough for the model). */
export class Mutex {
  private locked = false;
  private readonly queue: Array<Signal<void>> = [];

  acquire(): Signal<void> {
    const s = new Signal<void>();
    if (!this.locked) {
      this.locked = true;
      s.resolve();
    } else this.queue.push(s);
    return s;
  }

  release(): void {
    const next = this.queue.shift();
    if (next) next.resolve();
    else this.locked = false;
  }
}
