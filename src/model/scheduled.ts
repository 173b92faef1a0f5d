// A ScheduledThreadPoolExecutor with one thread and fixed-rate tasks, as BrokerController's
// scheduledExecutorService (`BrokerControllerScheduledThread`, one thread in 4.3.0-5.3.3): a task
// that blocks (a registration waiting for a NameServer, a call waiting for a connect) holds back
// every other task on the thread. scheduleAtFixedRate puts a task's next run a period after its last
// scheduled time, not after its end, so the runs that fell due meanwhile follow one another at once
// when the thread is free again; the thread takes the earliest due first, and of two due at the same
// time the one scheduled first (ScheduledFutureTask's sequence number). gen-715: broker-b's
// watermark.log stopped from 05:54:57 to 05:55:30 while registerBrokerAll waited 24 s for a
// NameServer cut off, then printed 35 lines in a second.

import { spawn, type Co } from './coroutine.js';
import { Priority, type Timer } from './kernel.js';
import type { Process } from './network.js';

interface Task {
  nextMs: number;
  readonly periodMs: number;
  readonly seq: number;
  /** A task that returns a generator holds the thread until the generator ends. */
  readonly run: () => Co<void> | void;
}

export class ScheduledThread {
  private tasks: Task[] = [];
  private busy = false;
  private timer: Timer | null = null;
  private seq = 0;
  /** Bumped by reset: a run of an earlier incarnation that ends later frees nothing. */
  private epoch = 0;

  constructor(private readonly proc: Process) {}

  /** Forget every task (the process died or boots again). */
  reset(): void {
    this.tasks = [];
    this.busy = false;
    this.timer?.cancel();
    this.timer = null;
    this.epoch++;
  }

  scheduleAtFixedRate(initialDelayMs: number, periodMs: number, run: () => Co<void> | void): void {
    this.tasks.push({ nextMs: this.proc.nowMs + initialDelayMs, periodMs, seq: this.seq++, run });
    this.pump();
  }

  /** Whether a task holds the thread now (tests). */
  get running(): boolean {
    return this.busy;
  }

  private pump(): void {
    if (this.busy) return;
    for (;;) {
      const t = this.earliest();
      if (t === null) return;
      if (t.nextMs > this.proc.nowMs) {
        if (this.timer !== null && !this.timer.cancelled && this.timer.atMs <= t.nextMs) return;
        this.timer?.cancel();
        this.timer = this.proc.at(t.nextMs, this.tickFn, Priority.timer);
        return;
      }
      t.nextMs += t.periodMs;
      const gen = t.run();
      if (gen === undefined) continue;
      const done = spawn(gen);
      if (done.settled) continue;
      this.busy = true;
      const epoch = this.epoch;
      done.then(() => {
        if (epoch !== this.epoch) return;
        this.busy = false;
        this.pump();
      });
      return;
    }
  }

  private readonly tickFn = (): void => {
    this.timer = null;
    this.pump();
  };

  private earliest(): Task | null {
    let best: Task | null = null;
    for (const t of this.tasks) if (best === null || t.nextMs < best.nextMs || (t.nextMs === best.nextMs && t.seq < best.seq)) best = t;
    return best;
  }
}
