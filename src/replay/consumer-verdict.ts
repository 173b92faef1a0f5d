// A consumer group's figures in the verdict: what the logs show of it (src/diagnosis/consumers.ts:
// the largest lag at the brokers' minute ends, failed deliveries, messages in the DLQ, messages
// consumed again after an offset reset) against the same figures of the run.
//
// The logs' lag is the brokers' TOPIC_PUT_NUMS minus the offsets the consumers committed, at each
// minute end, above the lowest point of that curve (the offsets before the stats began are not in
// the logs). The run's lag is sampled every 10 s (consumerProgress's figure); it is read the same
// way: at the same minute ends, above its lowest point there. A peak between two minute ends is in
// neither.

import type { ConsumerGroupMetrics } from '../model/index.js';
import type { ConsumerFigure } from '../diagnosis/types.js';

/** A lag below this at every minute end is no backlog (docs/replay.md's calibration: an episode rises over 20). */
export const BACKLOG_MIN = 20;
/** The largest lags agree within this share of the observed one, or LAG_TOLERANCE_MIN messages when that is more. */
const LAG_TOLERANCE = 0.25;
const LAG_TOLERANCE_MIN = 3;
/** A backlog's largest minute-end lag falls in the same minute, or the one before or after. */
const PEAK_TOLERANCE_MS = 60_000;
/** Counts (failed deliveries, DLQ, consumed again) agree within this share, or COUNT_TOLERANCE_MIN when that is more. */
const COUNT_TOLERANCE = 0.2;
const COUNT_TOLERANCE_MIN = 2;

/** The tolerances in words, for the report's heading. */
export const CONSUMER_TOLERANCE_TEXT = `lag at the minute ends within max(${LAG_TOLERANCE_MIN}, ${LAG_TOLERANCE * 100}%), counts within max(${COUNT_TOLERANCE_MIN}, ${COUNT_TOLERANCE * 100}%)`;

export type ConsumerFigureName = 'lag' | 'failed' | 'dlq' | 'consumed-again';

export interface ConsumerRow {
  group: string;
  figure: ConsumerFigureName;
  observed: number;
  /** Null: the run has no such group. */
  simulated: number | null;
  /** Epoch ms of the largest minute-end lag (lag rows only). */
  observedAt: number | null;
  simulatedAt: number | null;
  tolerance: number;
  status: 'ok' | 'diverged';
  /** The logs show something wrong with the group here (a backlog, failures, the DLQ, messages consumed again): an incident to reproduce. */
  incident: boolean;
}

/** The run's lag at each minute end of [first, last] (the last sample at or before it), above the lowest of them. */
function minuteEndLag(m: ConsumerGroupMetrics, startEpochMs: number, first: number, last: number): { about: number; at: number } | null {
  const points: Array<{ at: number; total: number }> = [];
  let i = 0;
  for (let end = Math.ceil(first / 60_000) * 60_000; end <= last; end += 60_000) {
    while (i + 1 < m.lag.length && startEpochMs + m.lag[i + 1].atMs <= end) i++;
    const s = m.lag[i];
    if (s === undefined || startEpochMs + s.atMs > end) continue;
    points.push({ at: end, total: s.total });
  }
  if (points.length < 2) return null;
  const low = Math.min(...points.map((p) => p.total));
  const top = points.reduce((a, b) => (b.total > a.total ? b : a));
  return { about: top.total - low, at: top.at };
}

const within = (o: number, s: number, share: number, min: number) => Math.abs(s - o) <= Math.max(min, Math.round(o * share));

/**
 * Rows for every figure the logs give of a group (a figure the logs cannot tell is not compared).
 * `window`: the logs' first and last line (epoch ms).
 */
export function compareConsumers(observed: readonly ConsumerFigure[], simulated: Readonly<Record<string, ConsumerGroupMetrics>>, startEpochMs: number, window: { first: number; last: number }): ConsumerRow[] {
  const rows: ConsumerRow[] = [];
  for (const o of observed) {
    const m = simulated[o.group];
    if (o.lag) {
      const s = m ? minuteEndLag(m, startEpochMs, window.first, window.last) : null;
      const backlog = o.lag.about >= BACKLOG_MIN;
      const sim = s?.about ?? (m ? 0 : null);
      let ok = sim !== null && ((!backlog && sim < BACKLOG_MIN) || within(o.lag.about, sim, LAG_TOLERANCE, LAG_TOLERANCE_MIN));
      if (ok && backlog && s && Math.abs(s.at - o.lag.at) > PEAK_TOLERANCE_MS) ok = false;
      rows.push({
        group: o.group,
        figure: 'lag',
        observed: o.lag.about,
        simulated: sim,
        observedAt: o.lag.at,
        simulatedAt: s?.at ?? null,
        tolerance: Math.max(LAG_TOLERANCE_MIN, Math.round(o.lag.about * LAG_TOLERANCE)),
        status: ok ? 'ok' : 'diverged',
        incident: backlog,
      });
    }
    const counts: Array<[ConsumerFigureName, number | null, number | undefined]> = [
      ['failed', o.failed, m?.failed],
      ['dlq', o.dlq, m?.dlq],
      ['consumed-again', o.consumedAgain, m?.duplicates],
    ];
    for (const [figure, ov, sv] of counts) {
      if (ov === null) continue;
      const sim = sv ?? null;
      rows.push({
        group: o.group,
        figure,
        observed: ov,
        simulated: sim,
        observedAt: null,
        simulatedAt: null,
        tolerance: Math.max(COUNT_TOLERANCE_MIN, Math.round(ov * COUNT_TOLERANCE)),
        status: sim !== null && within(ov, sim, COUNT_TOLERANCE, COUNT_TOLERANCE_MIN) ? 'ok' : 'diverged',
        incident: ov > 0,
      });
    }
  }
  return rows;
}

const FIGURE_TEXT: Record<ConsumerFigureName, string> = {
  lag: 'largest lag at a minute end',
  failed: 'failed deliveries',
  dlq: 'messages in the DLQ',
  'consumed-again': 'messages consumed again',
};

export function consumerFigureText(f: ConsumerFigureName): string {
  return FIGURE_TEXT[f];
}

/** One line of the verdict's divergences. */
export function consumerDivergence(r: ConsumerRow, time: (t: number) => string): string {
  const at = (t: number | null) => (r.figure === 'lag' && t !== null ? ` at ${time(t)}` : '');
  const sim = r.simulated === null ? 'no such group in the run' : `${r.simulated}${at(r.simulatedAt)} simulated`;
  return `${r.group} ${FIGURE_TEXT[r.figure]}: ${sim} vs ${r.observed}${at(r.observedAt)} observed (tolerance ${r.tolerance}${r.figure === 'lag' && r.observed >= BACKLOG_MIN ? '; its minute within 1 min' : ''})`;
}
