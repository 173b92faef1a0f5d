// Small helpers shared by rules.

import { MAX_FINDINGS_PER_RULE } from './engine.js';
import { severityRank, type RuleContext, type Severity } from './types.js';

/** Nearest-rank percentile of numbers (p in 0..100); null for an empty list. */
export function percentile(values: readonly number[], p: number): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1];
}


/**
 * Counts occurrences, not log lines: the same failure told twice (the client log and the
 * application log, a wrapper and its cause) within `windowMs` and with the same key is one.
 * Bounded: it keeps the times of each key's last 8 occurrences, and forgets keys (a send's
 * InvokeID names one send) once they are PRUNE_AFTER_MS older than the line read now.
 */
export class Occurrences<T extends { ts: number | null }> {
  private readonly last = new Map<string, Array<number | null>>();
  private pruneAt = PRUNE_MIN_KEYS;
  constructor(private readonly windowMs = 2000) {}

  /** Adds the item unless the same key was seen within the window; returns true when it is new. */
  add(key: string, item: T): boolean {
    const ts = item.ts;
    const seen = this.last.get(key);
    if (seen && ts !== null) {
      for (const s of seen) if (s !== null && Math.abs(s - ts) <= this.windowMs) return false;
    }
    if (seen) {
      seen.push(ts);
      if (seen.length > 8) seen.shift();
    } else {
      this.last.set(key, [ts]);
      if (this.last.size >= this.pruneAt) this.prune(ts);
    }
    return true;
  }

  /** Keys in memory (tests: the state stays bounded). */
  get keys(): number {
    return this.last.size;
  }

  private prune(now: number | null): void {
    if (now !== null) {
      // Lines of one moment come within seconds of each other even across files; a key this much
      // older can no longer match anything (the merged stream is in time order).
      const before = now - this.windowMs - PRUNE_AFTER_MS;
      for (const [k, times] of this.last) if (times.every((t) => t === null || t < before)) this.last.delete(k);
    }
    this.pruneAt = Math.max(PRUNE_MIN_KEYS, this.last.size * 2);
  }
}

const PRUNE_MIN_KEYS = 1024;
const PRUNE_AFTER_MS = 600000;

/**
 * The findings a rule keeps of its closed episodes: the MAX_FINDINGS_PER_RULE that the engine
 * would keep (most severe, then earliest start, then the order the rule would have reported them),
 * so that the detail of the others is dropped as soon as they are closed; each dropped one is
 * counted (ctx.omit), as the engine counts the findings it leaves out.
 */
export class FindingKeeper<T> {
  private readonly kept: Array<{ item: T; severity: Severity; rank: number; start: number; seq: number }> = [];
  constructor(
    private readonly ctx: Pick<RuleContext, 'omit'>,
    private readonly max = MAX_FINDINGS_PER_RULE,
  ) {}

  /** An episode that will be reported with this severity and start; `seq` is its place in the rule's report order. */
  offer(item: T, severity: Severity, start: number | null, seq: number): void {
    this.kept.push({ item, severity, rank: severityRank(severity), start: start ?? Infinity, seq });
    if (this.kept.length <= this.max) return;
    let worst = 0;
    for (let i = 1; i < this.kept.length; i++) {
      const a = this.kept[i];
      const b = this.kept[worst];
      if (a.rank > b.rank || (a.rank === b.rank && (a.start > b.start || (a.start === b.start && a.seq > b.seq)))) worst = i;
    }
    const [out] = this.kept.splice(worst, 1);
    this.ctx.omit(out.severity);
  }

  /** The kept episodes, in report order. */
  take(): T[] {
    return [...this.kept].sort((a, b) => a.seq - b.seq).map((k) => k.item);
  }

  get size(): number {
    return this.kept.length;
  }
}

