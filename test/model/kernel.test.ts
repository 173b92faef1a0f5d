import { describe, expect, it } from 'vitest';
import { AssertionError, Kernel, Priority } from '../../src/model/kernel.js';
import { RandomSource } from '../../src/model/random.js';
import { runScenario, type Scenario } from '../../src/model/scenario.js';
import { client, NS_A, NS_B, seedOutage } from './scenarios.js';

describe('Kernel', () => {
  it('orders events by time, then priority, then scheduling order', () => {
    const k = new Kernel();
    const seen: string[] = [];
    k.schedule(10, Priority.timer, () => seen.push('t10-timer-1'));
    k.schedule(10, Priority.fault, () => seen.push('t10-fault'));
    k.schedule(5, Priority.app, () => seen.push('t5-app'));
    k.schedule(10, Priority.timer, () => seen.push('t10-timer-2'));
    k.schedule(10, Priority.network, () => {
      seen.push('t10-network');
      // Scheduled for "now" from inside a callback: runs in this same instant, after its peers.
      k.schedule(10, Priority.fault, () => seen.push('t10-fault-late'));
    });
    k.run(100);
    expect(seen).toEqual(['t5-app', 't10-fault', 't10-network', 't10-fault-late', 't10-timer-1', 't10-timer-2']);
    expect(k.nowMs).toBe(100);
  });

  it('keeps the (time, priority, sequence) order across the network lane and the heap', () => {
    // schedule2 at Priority.network goes to a FIFO lane while it stays sorted, else to the heap; the
    // callbacks must come out exactly as if everything were in one queue. Compare with a sort.
    const k = new Kernel();
    const rng = new RandomSource(7).stream('kernel-lane');
    const expected: Array<{ at: number; prio: number; seq: number }> = [];
    const seen: number[] = [];
    let seq = 0;
    const add = (at: number, prio: number, viaLane: boolean): void => {
      const id = seq++;
      expected.push({ at, prio, seq: id });
      if (viaLane) k.schedule2(at, prio, (x: number) => seen.push(x), id, null);
      else k.schedule(at, prio, () => seen.push(id));
    };
    let t = 0;
    for (let i = 0; i < 3000; i++) {
      t += rng.int(3) === 0 ? 0 : rng.uniform(0, 2);
      const r = rng.int(10);
      if (r < 6) add(t + 0.5, Priority.network, true); // a hop: mostly in order
      else if (r < 7) add(t + rng.uniform(0, 1), Priority.network, true); // out of order: the heap
      else add(t + rng.uniform(0, 5), [Priority.fault, Priority.process, Priority.timer][rng.int(3)], false);
    }
    // A cancelled lane entry is skipped.
    const cancelled = k.schedule2(t + 0.5, Priority.network, () => seen.push(-1), 0, 0);
    cancelled.cancel();
    k.run(t + 10);
    expected.sort((a, b) => a.at - b.at || a.prio - b.prio || a.seq - b.seq);
    expect(seen).toEqual(expected.map((e) => e.seq));
    expect(k.pendingCount).toBe(0);
  });

  it('post2 keeps the same order as schedule2 while it reuses the entries of callbacks that ran', () => {
    // Callbacks post more (later) callbacks as they run, so that posted entries are taken from the
    // free list while others still wait in the lane and the heap; the order must be that of a sort.
    const k = new Kernel();
    const rng = new RandomSource(11).stream('kernel-post2');
    const expected: Array<{ at: number; prio: number; seq: number }> = [];
    const seen: number[] = [];
    let seq = 0;
    const PRIOS = [Priority.fault, Priority.network, Priority.process, Priority.timer];
    const post = (at: number, prio: number): void => {
      const id = seq++;
      expected.push({ at, prio, seq: id });
      k.post2(at, prio, fire, id, at);
    };
    const fire = (id: number, at: number): void => {
      seen.push(id);
      if (seen.length < 4000) for (let n = rng.int(3); n > 0; n--) post(at + (rng.int(2) === 0 ? 0.5 : rng.uniform(0.01, 3)), PRIOS[rng.int(4)]);
    };
    for (let i = 0; i < 200; i++) {
      const id = seq++;
      const at = rng.uniform(0, 5);
      expected.push({ at, prio: Priority.timer, seq: id });
      k.schedule(at, Priority.timer, () => seen.push(id));
      post(rng.uniform(0, 5), PRIOS[rng.int(4)]);
    }
    k.run(1e9);
    expected.sort((a, b) => a.at - b.at || a.prio - b.prio || a.seq - b.seq);
    expect(seen.length).toBeGreaterThan(1000);
    expect(seen).toEqual(expected.map((e) => e.seq));
    expect(k.pendingCount).toBe(0);
  });

  it('runs fixed-rate tasks at initial + k * period and stops them on cancel', () => {
    const k = new Kernel();
    const at: number[] = [];
    const p = k.every(30000, 10, () => at.push(k.nowMs));
    k.run(95000);
    expect(at).toEqual([10, 30010, 60010, 90010]);
    p.cancel();
    k.run(200000);
    expect(at).toHaveLength(4);
  });

  it('leaves events after the horizon for the next run, and skips cancelled ones', () => {
    const k = new Kernel();
    const seen: number[] = [];
    const t = k.schedule(50, Priority.timer, () => seen.push(50));
    k.schedule(150, Priority.timer, () => seen.push(150));
    t.cancel();
    k.run(100);
    expect(seen).toEqual([]);
    k.run(200);
    expect(seen).toEqual([150]);
  });

  it('refuses to schedule in the past', () => {
    const k = new Kernel();
    k.run(100);
    expect(() => k.schedule(99, Priority.timer, () => {})).toThrow(AssertionError);
    expect(() => k.after(-1, Priority.timer, () => {})).toThrow(AssertionError);
  });
});

describe('RandomSource', () => {
  it('gives each label its own stream, unaffected by other streams', () => {
    const a = new RandomSource(42);
    const seqA = Array.from({ length: 5 }, () => a.stream('client:x').uint32());
    const b = new RandomSource(42);
    for (let i = 0; i < 100; i++) b.stream('client:other').uint32();
    const seqB = Array.from({ length: 5 }, () => b.stream('client:x').uint32());
    expect(seqB).toEqual(seqA);
    expect(new RandomSource(43).stream('client:x').uint32()).not.toBe(seqA[0]);
    expect(a.stream('client:y').uint32()).not.toBe(seqA[0]);
  });

  it('draws uniform numbers in range and Java longs as decimal text', () => {
    const r = new RandomSource(7).stream('t');
    for (let i = 0; i < 1000; i++) {
      const x = r.next();
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
    }
    const longs = Array.from({ length: 200 }, () => r.javaLong());
    expect(longs.every((l) => /^-?\d+$/.test(l))).toBe(true);
    expect(longs.some((l) => l.startsWith('-'))).toBe(true);
    expect(longs.some((l) => BigInt(l) > 2n ** 53n)).toBe(true);
  });
});

describe('determinism', () => {
  const seed = 20201222;
  it(`same seed (${seed}), same scenario: byte-identical events and metrics`, () => {
    const sc = seedOutage({ hangMs: 120000 });
    const a = runScenario(sc, { seed, untilMs: 700000 });
    const b = runScenario(JSON.parse(JSON.stringify(sc)) as Scenario, { seed, untilMs: 700000 });
    expect(a.events.length).toBeGreaterThan(1000);
    expect(JSON.stringify(b.events)).toBe(JSON.stringify(a.events));
    expect(JSON.stringify(b.metrics)).toBe(JSON.stringify(a.metrics));
  });

  function bindings(s: number, n: number): string[] {
    const clients = Array.from({ length: n }, (_, i) => client(`app-${i}`, '4.9.4', 'random', { sendRatePerSec: 0 }));
    const r = runScenario(seedOutage({ clients, extraFaults: [] }), { seed: s, untilMs: 5000 });
    return clients.map((c) => r.metrics.clients[c.host].namesrvChosen[0].addr);
  }

  it('different seeds give different name server bindings (seeds 1 and 2)', () => {
    const one = bindings(1, 40);
    const two = bindings(2, 40);
    expect(two).not.toEqual(one);
    for (const b of [one, two]) {
      // Random binding spreads clients over both name servers.
      expect(b.filter((x) => x === NS_A).length).toBeGreaterThan(5);
      expect(b.filter((x) => x === NS_B).length).toBeGreaterThan(5);
    }
    expect(bindings(1, 40)).toEqual(one);
  });

  it('adding a client does not change the draws of the others (labelled streams)', () => {
    const few = bindings(5, 10);
    const more = bindings(5, 11);
    expect(more.slice(0, 10)).toEqual(few);
  });
});
