// Small helpers shared by rules.

import type { RmqEvent } from '../parse/types.js';

/** Nearest-rank percentile of numbers (p in 0..100); null for an empty list. */
export function percentile(values: readonly number[], p: number): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1];
}

/** `799 ms`, `12.4 s`, `11 min 46 s`: durations for titles and explanations. */
export function formatMs(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '-';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60000) return `${(ms / 1000).toFixed(ms < 10000 ? 1 : 0)} s`;
  const total = Math.round(ms / 1000);
  const m = Math.floor(total / 60);
  const s = total % 60;
  return s ? `${m} min ${s} s` : `${m} min`;
}

/**
 * Counts occurrences, not log lines: the same failure told twice (the client log and the
 * application log, a wrapper and its cause) within `windowMs` and with the same key is one.
 */
export class Occurrences<T extends { ts: number | null }> {
  private readonly last = new Map<string, T[]>();
  readonly items: T[] = [];
  constructor(private readonly windowMs = 2000) {}

  /** Adds the item unless the same key was seen within the window; returns true when it is new. */
  add(key: string, item: T): boolean {
    const seen = this.last.get(key);
    if (seen && item.ts !== null) {
      for (const s of seen) if (s.ts !== null && Math.abs(s.ts - item.ts) <= this.windowMs) return false;
    }
    if (seen) {
      seen.push(item);
      if (seen.length > 8) seen.shift();
    } else this.last.set(key, [item]);
    this.items.push(item);
    return true;
  }

  get size(): number {
    return this.items.length;
  }
}

/** Pick up to `n` evidence events: the first, the last, and the most telling in between. */
export function pickEvidence(events: readonly RmqEvent[], n = 5, score?: (e: RmqEvent) => number): RmqEvent[] {
  if (events.length <= n) return [...events];
  const first = events[0];
  const last = events[events.length - 1];
  const middle = events.slice(1, -1);
  const ranked = score ? [...middle].sort((a, b) => score(b) - score(a)) : middle.filter((_, i) => i % Math.ceil(middle.length / (n - 2)) === 0);
  const chosen = [first, ...ranked.slice(0, n - 2), last];
  return chosen.sort((a, b) => (a.ts ?? 0) - (b.ts ?? 0) || a.line - b.line);
}
