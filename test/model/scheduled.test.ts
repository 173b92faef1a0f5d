import { describe, expect, it } from 'vitest';
import { wait, Signal, type Co } from '../../src/model/coroutine.js';
import { Kernel } from '../../src/model/kernel.js';
import { Network, Process } from '../../src/model/network.js';
import { ScheduledThread } from '../../src/model/scheduled.js';

class Proc extends Process {
  protected boot(): void {}
  protected onKilled(): void {}
}

function world() {
  const kernel = new Kernel();
  const net = new Network(kernel, { latencyMs: 1 });
  const proc = new Proc(net, net.addHost('broker', '10.0.0.2'), 'broker');
  proc.start();
  return { kernel, proc, thread: new ScheduledThread(proc) };
}

describe('ScheduledThread (BrokerController.scheduledExecutorService)', () => {
  it('runs fixed-rate tasks on one thread: a task that blocks holds the others back, which then run at once in order of their due times (gen-715)', () => {
    const { kernel, proc, thread } = world();
    const ticks: number[] = [];
    const rounds: Array<[number, number]> = [];
    thread.scheduleAtFixedRate(10_000, 1000, () => {
      ticks.push(kernel.nowMs);
    });
    // A registration round every 30 s that, at 40 s, waits 24 s (registerBrokerTimeoutMills).
    thread.scheduleAtFixedRate(10_000, 30_000, function* (): Co<void> {
      const start = kernel.nowMs;
      if (start >= 40_000 && start < 41_000) {
        const s = new Signal<void>();
        proc.after(24_000, () => s.resolve());
        yield* wait(s);
      }
      rounds.push([start, kernel.nowMs]);
    });
    kernel.run(100_000);
    expect(rounds).toEqual([
      [10_000, 10_000],
      [40_000, 64_000],
      [70_000, 70_000],
      [100_000, 100_000],
    ]);
    // The watermark stopped from 40 s to 64 s, then printed the 24 runs it owed at 64 s.
    expect(ticks.filter((t) => t > 40_000 && t < 64_000)).toEqual([]);
    expect(ticks.filter((t) => t === 64_000).length).toBe(24);
    expect(ticks.length).toBe(91);
    expect(thread.running).toBe(false);
  });

  it('a run late behind a blocked one keeps its schedule: the next falls a period after the one it owed, not after its run', () => {
    const { kernel, proc, thread } = world();
    const runs: number[] = [];
    thread.scheduleAtFixedRate(0, 5000, function* (): Co<void> {
      runs.push(kernel.nowMs);
      if (runs.length === 1) {
        const s = new Signal<void>();
        proc.after(12_000, () => s.resolve());
        yield* wait(s);
      }
    });
    kernel.run(21_000);
    // Due at 0 (ran until 12 s), 5 and 10 s (run at 12 s), then 15 and 20 s on time.
    expect(runs).toEqual([0, 12_000, 12_000, 15_000, 20_000]);
  });

  it('forgets its tasks when reset (the process died)', () => {
    const { kernel, thread } = world();
    const runs: number[] = [];
    thread.scheduleAtFixedRate(1000, 1000, () => {
      runs.push(kernel.nowMs);
    });
    kernel.run(2500);
    thread.reset();
    kernel.run(10_000);
    expect(runs).toEqual([1000, 2000]);
  });
});
