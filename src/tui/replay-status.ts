// What the TUI keeps of a replay (the replay tab's state in the view model): whether it runs, failed
// or is done, and what the tab shows then. Apart from the tab's drawing (replay.ts), which reads the
// view model: the model holds this state and the drawing reads the model, without a circle.
import type { MilestoneStatus, ReplayReport } from '../replay/run.js';

interface ReplayMilestone {
  name: string;
  subject: string;
  /** Host whose lanes carry its marks (a client, the faulty host, the NameServer's host), null when unknown. */
  host: string | null;
  observed: number | null;
  simulated: number | null;
  deltaMs: number | null;
  status: MilestoneStatus;
}

interface ReplayOutage {
  client: string;
  observedMs: number | null;
  simulatedMs: number;
  observedFailedSends: number | null;
  simulatedFailedSends: number;
}

/** What the replay tab shows: plain data (structured-cloneable). */
export interface ReplayView {
  verdict: ReplayReport['verdict'];
  divergences: string[];
  seed: number;
  milestones: ReplayMilestone[];
  outages: ReplayOutage[];
  /** Clients that lost no send in the logs and none in the run (compared in the verdict: run.ts unharmedClients). */
  unharmed: number;
  /** Hosts of the simulated cluster; each simulated RocketMQ event's time (epoch ms) and host (index). */
  simHosts: string[];
  simT: Float64Array;
  simHost: Uint16Array;
}

/** Where the replay is: not available here, under way, failed (why, in one line), done. */
export type ReplayStatus = { kind: 'off' } | { kind: 'running' } | { kind: 'failed'; reason: string } | { kind: 'done'; view: ReplayView };

export const REPLAY_OFF: ReplayStatus = { kind: 'off' };

/**
 * Lines of the tab's scrolling text, as replayText (replay.ts) draws them: its length does not depend
 * on the width (one line an item). The model clamps the scroll with it.
 */
export function replayTextRows(status: ReplayStatus): number {
  if (status.kind !== 'done') return 0;
  const v = status.view;
  return (v.divergences.length ? v.divergences.length + 1 : 0) + 1 + Math.max(1, v.milestones.length) + 1 + 1 + v.outages.length;
}
