// Seeded randomness with labelled streams. One explicit seed drives a run; every component draws
// from its own stream (`rng.stream('client:app-order-01')`), so adding a component or changing how
// often one draws does not shift any other component's numbers.
//
// The generator is xoshiro128** (Blackman and Vigna), seeded through splitmix32 from a 32-bit hash of
// (seed, label). Nothing here reads the wall clock or Math.random.

import { assert, fail } from './kernel.js';

function fnv1a(text: string, basis: number): number {
  let h = basis >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

function splitmix32(state: { s: number }): number {
  state.s = (state.s + 0x9e3779b9) >>> 0;
  let z = state.s;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
  return (z ^ (z >>> 16)) >>> 0;
}

/** Rotate left, as a signed 32-bit integer. */
function rotl32(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/** One stream: xoshiro128**. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  /** Box-Muller's second value, when hasSpare (a number field that is never null stays unboxed). */
  private spareNormal = 0;
  private hasSpare = false;

  constructor(seed32: number) {
    const st = { s: seed32 >>> 0 };
    // The state is kept as signed 32-bit integers (small integers to V8, no boxing); the bits are
    // those of the unsigned algorithm.
    this.a = splitmix32(st) | 0;
    this.b = splitmix32(st) | 0;
    this.c = splitmix32(st) | 0;
    this.d = splitmix32(st) | 0;
    if ((this.a | this.b | this.c | this.d) === 0) this.a = 1;
  }

  /** Uniform 32-bit unsigned integer. */
  uint32(): number {
    const b = this.b;
    const result = Math.imul(rotl32(Math.imul(b, 5), 7), 9) >>> 0;
    const t = b << 9;
    this.c ^= this.a;
    this.d ^= b;
    this.b = b ^ this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl32(this.d, 11);
    return result;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    if (!(Number.isInteger(n) && n > 0)) fail(`int: bound must be a positive integer, got ${n}`);
    return Math.floor(this.next() * n);
  }

  /** Uniform in [lo, hi). */
  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  /** Normal (Box-Muller). */
  normal(mean: number, sd: number): number {
    if (sd === 0) return mean;
    if (this.hasSpare) {
      this.hasSpare = false;
      return mean + sd * this.spareNormal;
    }
    let u = this.next();
    while (u === 0) u = this.next();
    const v = this.next();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spareNormal = r * Math.sin(2 * Math.PI * v);
    this.hasSpare = true;
    return mean + sd * r * Math.cos(2 * Math.PI * v);
  }

  /** Exponential with the given mean (inter-arrival times of a Poisson process). */
  exponential(mean: number): number {
    let u = this.next();
    while (u === 0) u = this.next();
    return -Math.log(u) * mean;
  }

  /** A Java `long` as decimal text (RocketMQ's InvokeID is `random.nextLong()`, may be negative). */
  javaLong(): string {
    const hi = BigInt.asIntN(32, BigInt(this.uint32()));
    const lo = BigInt(this.uint32());
    return BigInt.asIntN(64, (hi << 32n) | lo).toString();
  }

  /** A Java `int` (signed 32-bit). */
  javaInt(): number {
    return this.uint32() | 0;
  }

  /** Fisher-Yates, in place (Collections.shuffle's effect, not its exact draws). */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const t = items[i];
      items[i] = items[j];
      items[j] = t;
    }
    return items;
  }
}

/** The run's randomness: one seed, one stream per label. */
export class RandomSource {
  private readonly streams = new Map<string, Rng>();
  readonly seed: number;

  constructor(seed: number) {
    assert(Number.isInteger(seed) && seed >= 0 && seed <= 0xffffffff, `seed must be a 32-bit unsigned integer, got ${seed}`);
    this.seed = seed;
  }

  /** The stream for a label; the same label always gives the same sequence for a seed. */
  stream(label: string): Rng {
    let s = this.streams.get(label);
    if (s === undefined) {
      const h = fnv1a(label, fnv1a(String(this.seed), 0x811c9dc5) ^ Math.imul(this.seed, 0x9e3779b1));
      s = new Rng(h);
      this.streams.set(label, s);
    }
    return s;
  }
}
