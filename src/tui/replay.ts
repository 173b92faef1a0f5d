// The replay tab's view model, pure and without ink: the incident replayed in the simulated cluster
// (src/replay) beside the logs. A replay report becomes a small plain value (`ReplayView`: the
// verdict, the milestones observed vs simulated, the outages, and the simulated events' times and
// hosts) that crosses a worker boundary; the lanes (observed and simulated events per bucket of the
// strip's window, one pair of rows per host, milestones marked) and the pane's lines are computed
// from it and the store.

import { formatShort, type Zone } from '../parse/time.js';
import type { MilestoneStatus, ReplayReport } from '../replay/run.js';
import { signedMs, unharmedClients } from '../replay/run.js';
import { escapeText } from '../report/escape.js';
import { formatMs } from '../util/durations.js';
import { fit, fitLine, type Color, type Line, type Seg } from './format.js';
import type { TuiModel } from './view-model.js';
import type { ReplayStatus, ReplayView } from './replay-status.js';
import { countBuckets } from './rows.js';
import { CELLS } from './store.js';

/** The host a milestone is about: the first word of its subject, a NameServer's or broker's host. */
function milestoneHost(subject: string, report: ReplayReport): string | null {
  const sc = report.input.scenario;
  const word = subject.split(' ')[0] ?? '';
  const ns = sc.nameServers.find((n) => n.addr === word);
  if (ns) return ns.host;
  const b = sc.brokers.find((x) => x.name === word || x.addr === word);
  if (b) return b.host;
  return word || null;
}

export function replayViewOf(report: ReplayReport): ReplayView {
  const lanes = report.lanes;
  if (!lanes) throw new Error('replayViewOf needs a replay run with lanes');
  return {
    verdict: report.verdict,
    divergences: [...report.divergences],
    seed: report.seed,
    milestones: report.milestones.map((m) => ({
      name: m.name,
      subject: m.subject,
      host: milestoneHost(m.subject, report),
      observed: m.observed?.ts ?? null,
      simulated: m.simulated?.ts ?? null,
      deltaMs: m.deltaMs,
      status: m.status,
    })),
    outages: report.outages.map((o) => ({ ...o })),
    unharmed: unharmedClients(report.outages, report.firstFaultAt, report.input.scenario.startEpochMs + report.untilMs).length,
    simHosts: lanes.hosts,
    simT: lanes.t,
    simHost: lanes.h,
  };
}

// --- lanes -----------------------------------------------------------------------------------------

/** Marks at a lane's columns: none, a milestone within tolerance, one that diverged or is missing, another. */
export const MARK_NONE = -1;
export const MARK_OK = 0;
export const MARK_BAD = 1;
const MARK_OTHER = 2;

interface ReplayLanes {
  labels: string[];
  /** Per lane, per column: glyph height 0..8 (log scale per row). */
  observed: Uint8Array[];
  simulated: Uint8Array[];
  /** Per lane, per column: a milestone mark (MARK_*). */
  observedMarks: Int8Array[];
  simulatedMarks: Int8Array[];
}

/** Hosts of the lanes: the logs' hosts, then simulated hosts the logs do not have. */
export function laneHosts(model: TuiModel, view: ReplayView): string[] {
  const out = [...model.store.hosts];
  for (const h of view.simHosts) if (!out.includes(h)) out.push(h);
  return out;
}

/** Most pairs of lane rows for a pane of this many lines (the rest is the milestone list). */
export function maxLanePairs(paneRows: number): number {
  return Math.max(1, Math.min(8, Math.floor((paneRows - 9) / 2)));
}

/** Lines above the scrolling text: the verdict, and when done the axis and the lanes. */
export function replayHeadRows(status: ReplayStatus, lanes: number, paneRows: number): number {
  if (status.kind !== 'done') return 1;
  return 2 + 2 * Math.min(lanes, maxLanePairs(paneRows));
}

const markRank = (m: number) => (m === MARK_BAD ? 3 : m === MARK_OK ? 2 : m === MARK_OTHER ? 1 : 0);

function heights(counts: Uint32Array): Uint8Array {
  let max = 0;
  for (const c of counts) if (c > max) max = c;
  const out = new Uint8Array(counts.length);
  for (let b = 0; b < counts.length; b++) if (counts[b]) out[b] = Math.max(1, Math.ceil((8 * Math.log1p(counts[b])) / Math.log1p(max)));
  return out;
}

function markOf(status: MilestoneStatus): number {
  if (status === 'ok') return MARK_OK;
  if (status === 'diverged' || status === 'not-simulated' || status === 'not-observed') return MARK_BAD;
  return MARK_OTHER;
}

/**
 * The lanes over [from, to) in `cols` buckets: RocketMQ events (records of type `other` are not
 * counted, the model writes none) per host, observed (the store) and simulated, with the milestones
 * marked on both rows of their host. More hosts than `maxPairs`: the first ones get a pair and the
 * rest share a `+N hosts` pair.
 */
export function replayLanes(model: TuiModel, view: ReplayView, from: number, to: number, cols: number, maxPairs: number): ReplayLanes {
  const n = Math.max(1, cols);
  const hosts = laneHosts(model, view);
  const pairs = Math.max(1, Math.min(hosts.length, maxPairs));
  const laneOf = new Map<string, number>();
  hosts.forEach((h, i) => laneOf.set(h, Math.min(i, pairs - 1)));
  const labels = hosts.slice(0, pairs);
  if (hosts.length > pairs) labels[pairs - 1] = `+${hosts.length - pairs + 1} hosts`;
  const obs = Array.from({ length: pairs }, () => new Uint32Array(n));
  const sim = Array.from({ length: pairs }, () => new Uint32Array(n));
  const w = (to - from) / n;
  const col = (ms: number) => Math.min(n - 1, Math.floor((ms - from) / w));
  const s = model.store;
  const storeLane = Int32Array.from(s.hosts, (h) => laneOf.get(h) ?? pairs - 1);
  const all = model.rows({ types: [], hosts: [], kinds: [], minLevel: null, grep: null, finding: null });
  const cells = countBuckets(s, all, from, to, n, storeLane, pairs);
  for (let lane = 0; lane < pairs; lane++) {
    // Even cells are RocketMQ events (odd ones: records of type other).
    for (let cell = 0; cell < CELLS; cell += 2) {
      const base = (lane * CELLS + cell) * n;
      for (let c = 0; c < n; c++) obs[lane][c] += cells[base + c];
    }
  }
  const simLane = view.simHosts.map((h) => laneOf.get(h) ?? pairs - 1);
  for (let k = 0; k < view.simT.length; k++) {
    const t = view.simT[k];
    if (t < from || t >= to) continue;
    sim[simLane[view.simHost[k]]][col(t)]++;
  }
  const observedMarks = Array.from({ length: pairs }, () => new Int8Array(n).fill(MARK_NONE));
  const simulatedMarks = Array.from({ length: pairs }, () => new Int8Array(n).fill(MARK_NONE));
  const put = (marks: Int8Array[], lane: number, ms: number | null, m: number) => {
    if (ms === null || ms < from || ms >= to) return;
    const c = col(ms);
    if (markRank(m) > markRank(marks[lane][c])) marks[lane][c] = m;
  };
  for (const m of view.milestones) {
    if (m.host === null || !laneOf.has(m.host)) continue;
    const lane = laneOf.get(m.host)!;
    const mark = markOf(m.status);
    put(observedMarks, lane, m.observed, mark);
    put(simulatedMarks, lane, m.simulated, mark);
  }
  return { labels, observed: obs.map(heights), simulated: sim.map(heights), observedMarks, simulatedMarks };
}

// --- lines -----------------------------------------------------------------------------------------

const BARS = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
const MILESTONE_MARK = '◆';
const MARK_COLOR: Array<Color | undefined> = ['green', 'red', 'gray'];

function laneCells(height: Uint8Array, marks: Int8Array, cursorCol: number, color: Color): Line {
  const out: Line = [];
  for (let c = 0; c < height.length; c++) {
    const m = marks[c];
    const seg: Seg =
      m !== MARK_NONE
        ? { text: MILESTONE_MARK, color: MARK_COLOR[m], bold: true, inverse: c === cursorCol }
        : { text: height[c] ? BARS[height[c] - 1] : ' ', color: height[c] ? color : undefined, inverse: c === cursorCol };
    const last = out[out.length - 1];
    if (last && last.color === seg.color && last.bold === seg.bold && last.inverse === seg.inverse) last.text += seg.text;
    else out.push(seg);
  }
  return out;
}

/** The lane rows: per host `host ▁▃█◆…` (observed) and `  simulated ▁▂◆…` (`  sim` when narrow). */
export function laneLines(lanes: ReplayLanes, labelWidth: number, cursorCol: number): Line[] {
  const out: Line[] = [];
  lanes.labels.forEach((label, i) => {
    out.push([{ text: fit(escapeText(label), labelWidth) + ' ', bold: true }, ...laneCells(lanes.observed[i], lanes.observedMarks[i], cursorCol, 'green')]);
    out.push([{ text: fit(labelWidth >= 11 ? '  simulated' : '  sim', labelWidth) + ' ', dim: true }, ...laneCells(lanes.simulated[i], lanes.simulatedMarks[i], cursorCol, 'blue')]);
  });
  return out;
}

const VERDICT_WORD: Record<ReplayView['verdict'], string> = {
  reproduced: 'reproduced',
  'not-reproduced': 'not reproduced',
  'nothing-compared': 'nothing compared (no fault in the run)',
  'not-compared': 'ran (nothing observed to compare with)',
};

/** The first line of the tab: what the replay is doing, why it cannot run, or its verdict. */
export function verdictLine(status: ReplayStatus, width: number): Line {
  const title: Seg = { text: 'replay  ', bold: true, color: 'cyan' };
  switch (status.kind) {
    case 'off':
      return fitLine([title, { text: 'no replay here: the replay runs when the TUI is opened on logs (rmq-diag tui PATHS)', dim: true }], width);
    case 'running':
      return fitLine([title, { text: 'replaying… (the incident in the simulated cluster, seed 1; the other tabs work meanwhile)', dim: true }], width);
    case 'failed':
      return fitLine([title, { text: `cannot replay: ${status.reason}`, color: 'yellow' }], width);
    case 'done': {
      const v = status.view;
      const ok = v.milestones.filter((m) => m.status === 'ok').length;
      const line: Line = [title, { text: VERDICT_WORD[v.verdict], bold: true, color: v.verdict === 'reproduced' ? 'green' : v.verdict === 'not-reproduced' ? 'red' : undefined }];
      if (v.verdict === 'reproduced') line.push({ text: `: ${ok} milestone${ok === 1 ? '' : 's'} within tolerance${v.unharmed ? `, ${v.unharmed} client${v.unharmed === 1 ? '' : 's'} with no failed send as in the logs` : ''}` });
      else if (v.divergences.length) line.push({ text: `: ${escapeText(v.divergences[0])}${v.divergences.length > 1 ? ` (+${v.divergences.length - 1} more)` : ''}` });
      line.push({ text: ` · seed ${v.seed}`, dim: true });
      return fitLine(line, width);
    }
  }
}

const STATUS_WORD: Record<MilestoneStatus, string> = {
  ok: 'ok',
  diverged: 'diverged',
  'not-simulated': 'not simulated',
  'not-observed': 'not in logs',
  unobservable: 'no logs of host',
  'simulated-only': 'simulated',
  'beyond-run': 'after the run',
};

function timeText(ms: number | null, zone: Zone, sameDay: boolean): string {
  if (ms === null) return '-';
  const s = formatShort(ms, zone);
  return sameDay ? s.slice(11) : s.slice(5);
}

/** The scrolling text under the lanes: what diverged, the milestones, the outages. */
export function replayText(status: ReplayStatus, width: number, zone: Zone, sameDay: boolean): Line[] {
  if (status.kind !== 'done') return [];
  const v = status.view;
  const out: Line[] = [];
  for (const d of v.divergences) out.push(fitLine([{ text: 'diverged  ', color: 'red' }, { text: escapeText(d) }], width));
  if (v.divergences.length) out.push([{ text: '' }]);
  const tw = sameDay ? 12 : 18;
  const nameW = 16;
  const deltaW = 8;
  // The status is the last column (cut at the edge when long); the subject takes what is left.
  const subjectW = Math.max(10, width - 2 - nameW - 2 * (tw + 1) - (deltaW + 1) - 1 - (width >= 100 ? 15 : 9));
  out.push(
    fitLine(
      [{ text: `  ${fit('milestone', nameW)}${fit('subject', subjectW)} ${fit('observed', tw)} ${fit('simulated', tw)} ${fit('delta', deltaW)} status`, dim: true }],
      width,
    ),
  );
  if (!v.milestones.length) out.push([{ text: '  (no milestones: no fault was inferred)', dim: true }]);
  for (const m of v.milestones) {
    const mark = markOf(m.status);
    const word = m.status === 'not-observed' && m.name === 'fault-start' ? '' : STATUS_WORD[m.status];
    out.push(
      fitLine(
        [
          { text: MILESTONE_MARK + ' ', color: MARK_COLOR[mark] },
          { text: fit(m.name, nameW) },
          { text: fit(escapeText(m.subject), subjectW) + ' ' },
          { text: fit(timeText(m.observed, zone, sameDay), tw) + ' ' },
          { text: fit(timeText(m.simulated, zone, sameDay), tw) + ' ' },
          { text: fit(m.deltaMs === null ? '' : signedMs(m.deltaMs), deltaW) + ' ' },
          { text: word, color: MARK_COLOR[mark], bold: mark === MARK_BAD },
        ],
        width,
      ),
    );
  }
  out.push([{ text: '' }]);
  const cw = Math.min(20, Math.max(6, ...v.outages.map((o) => o.client.length))) + 2;
  const ow = Math.max(12, Math.floor((width - cw - 2) / 2));
  const outage = (ms: number | null, n: number | null) => (ms === null || n === null ? '-' : n ? `${formatMs(ms)} (${n} failed)` : 'no failed send');
  out.push(fitLine([{ text: `  ${fit('outage', cw)}${fit('observed', ow)}simulated`, dim: true }], width));
  for (const o of v.outages) {
    out.push(
      fitLine(
        [
          { text: `  ${fit(escapeText(o.client), cw)}` },
          { text: fit(outage(o.observedMs, o.observedFailedSends), ow) },
          { text: outage(o.simulatedMs, o.simulatedFailedSends) },
        ],
        width,
      ),
    );
  }
  return out;
}
