// When a server's log was written: its dated records as spans of activity, kept as the gaps of
// ACTIVITY_GAP_MS or more between consecutive records. Every record counts (not only the ones that
// are RocketMQ events), so a host's silence can be found without keeping its lines: analyze and
// replay read the same silences from the accounting, however the timeline was built.

/** A record: its time and 1-based line. */
export interface ActivityMark {
  ts: number;
  line: number;
}

export interface SourceActivity {
  /** Dated records seen. */
  records: number;
  /** The earliest and the latest record. */
  first: ActivityMark;
  last: ActivityMark;
  /** Gaps of ACTIVITY_GAP_MS or more between consecutive records, in file order, `from` before `to` in time. */
  gaps: Array<{ from: ActivityMark; to: ActivityMark }>;
  /** Gaps past ACTIVITY_GAPS_KEPT, not kept. */
  gapsDropped: number;
  /** Gaps of ACTIVITY_SHORT_GAP_MS to ACTIVITY_GAP_MS, the first ACTIVITY_GAPS_KEPT (absent: none). */
  shortGaps?: Array<{ from: ActivityMark; to: ActivityMark }>;
}

/** A silence shorter than this is not a silence (a NameServer 4.x logs nothing for minutes anyway). */
export const ACTIVITY_GAP_MS = 30000;
/**
 * Shorter gaps are kept apart, from this long: a host that writes every second and is silent this
 * long before a boot line with no shutdown hook stopped then (a reboot of 20 s: collect.ts's short
 * silences), the only use of them.
 */
export const ACTIVITY_SHORT_GAP_MS = 10000;
/** Gaps kept per source (and short gaps apart): a log written every 31 s for a year would have a million. */
export const ACTIVITY_GAPS_KEPT = 10000;

/** The first and the last record noted, in file order (where a part of a split file meets the next). */
export interface ActivityEdges {
  first: ActivityMark;
  last: ActivityMark;
}

export class ActivityTracker {
  private records = 0;
  private firstNoted: ActivityMark | null = null;
  private first: ActivityMark | null = null;
  private last: ActivityMark | null = null;
  private prev: ActivityMark | null = null;
  private readonly gaps: SourceActivity['gaps'] = [];
  private gapsDropped = 0;
  private readonly shortGaps: SourceActivity['gaps'] = [];

  note(ts: number, line: number): void {
    this.records++;
    const prev = this.prev;
    const mark = { ts, line };
    this.prev = mark;
    if (this.firstNoted === null) this.firstNoted = mark;
    if (this.first === null || ts < this.first.ts) this.first = mark;
    if (this.last === null || ts >= this.last.ts) this.last = mark;
    if (prev === null) return;
    // A paste may be newest first: a gap is the distance between neighbours either way.
    const gap = Math.abs(ts - prev.ts);
    if (gap < ACTIVITY_GAP_MS) {
      if (gap >= ACTIVITY_SHORT_GAP_MS && this.shortGaps.length < ACTIVITY_GAPS_KEPT) this.shortGaps.push(ts > prev.ts ? { from: prev, to: mark } : { from: mark, to: prev });
      return;
    }
    if (this.gaps.length >= ACTIVITY_GAPS_KEPT) {
      this.gapsDropped++;
      return;
    }
    this.gaps.push(ts > prev.ts ? { from: prev, to: mark } : { from: mark, to: prev });
  }

  edges(): ActivityEdges | null {
    return this.firstNoted && this.prev ? { first: this.firstNoted, last: this.prev } : null;
  }

  result(): SourceActivity | null {
    if (this.first === null || this.last === null) return null;
    return { records: this.records, first: this.first, last: this.last, gaps: this.gaps, gapsDropped: this.gapsDropped, ...(this.shortGaps.length ? { shortGaps: this.shortGaps } : {}) };
  }
}

/**
 * The activity of a file read in two parts (a before b), as one tracker over the whole file would
 * have it: the gap across the cut is between a's last record and b's first, and the cap on kept
 * gaps applies to them all in file order.
 */
export function joinActivity(
  a: SourceActivity | null,
  aEdges: ActivityEdges | null,
  b: SourceActivity | null,
  bEdges: ActivityEdges | null,
): SourceActivity | null {
  if (!a || !aEdges) return b;
  if (!b || !bEdges) return a;
  const gaps = [...a.gaps];
  const shortGaps = [...(a.shortGaps ?? [])];
  const prev = aEdges.last;
  const mark = bEdges.first;
  const across = Math.abs(mark.ts - prev.ts);
  const cut = mark.ts > prev.ts ? { from: prev, to: mark } : { from: mark, to: prev };
  if (across >= ACTIVITY_GAP_MS) gaps.push(cut);
  else if (across >= ACTIVITY_SHORT_GAP_MS) shortGaps.push(cut);
  gaps.push(...b.gaps);
  shortGaps.push(...(b.shortGaps ?? []));
  const over = Math.max(0, gaps.length - ACTIVITY_GAPS_KEPT);
  return {
    records: a.records + b.records,
    first: b.first.ts < a.first.ts ? b.first : a.first,
    last: b.last.ts >= a.last.ts ? b.last : a.last,
    gaps: over ? gaps.slice(0, ACTIVITY_GAPS_KEPT) : gaps,
    gapsDropped: a.gapsDropped + b.gapsDropped + over,
    ...(shortGaps.length ? { shortGaps: shortGaps.slice(0, ACTIVITY_GAPS_KEPT) } : {}),
  };
}

/** A stretch of time in which none of a host's server sources wrote a record. */
interface HostSilence {
  host: string;
  /** The last record before (its source's index and mark), and the first after (null: silent to the end). */
  from: { source: number; mark: ActivityMark };
  to: { source: number; mark: ActivityMark } | null;
}

/**
 * The silences of one host of `minMs` or more (ACTIVITY_GAP_MS, or down to ACTIVITY_SHORT_GAP_MS
 * with the short gaps), from the activity of its sources (index, activity): a time is silent when
 * it is in no source's span of activity. `end` is the end of all logs (a host silent from its last
 * record to there is silent to the end).
 */
export function hostSilences(host: string, sources: ReadonlyArray<{ index: number; activity: SourceActivity }>, end: number | null, minMs = ACTIVITY_GAP_MS): HostSilence[] {
  // Each source's spans of activity, then their union in time order.
  const spans: Array<{ from: { source: number; mark: ActivityMark }; to: { source: number; mark: ActivityMark } }> = [];
  for (const { index, activity: a } of sources) {
    const gaps = [...a.gaps, ...(minMs < ACTIVITY_GAP_MS ? (a.shortGaps ?? []) : [])].sort((x, y) => x.from.ts - y.from.ts);
    let start = a.first;
    for (const g of gaps) {
      if (g.from.ts >= start.ts) spans.push({ from: { source: index, mark: start }, to: { source: index, mark: g.from } });
      if (g.to.ts > start.ts) start = g.to;
    }
    spans.push({ from: { source: index, mark: start }, to: { source: index, mark: a.last } });
  }
  spans.sort((x, y) => x.from.mark.ts - y.from.mark.ts || x.to.mark.ts - y.to.mark.ts);
  const out: HostSilence[] = [];
  let cur: (typeof spans)[number] | null = null;
  for (const s of spans) {
    if (cur === null) cur = { ...s };
    else if (s.from.mark.ts - cur.to.mark.ts >= minMs) {
      out.push({ host, from: cur.to, to: s.from });
      cur = { ...s };
    } else if (s.to.mark.ts > cur.to.mark.ts) cur.to = s.to;
  }
  if (cur !== null && end !== null && end - cur.to.mark.ts >= minMs) out.push({ host, from: cur.to, to: null });
  return out;
}
