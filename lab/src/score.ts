// The score of rmq-diag on a recording: every statement of its analyze and replay reports checked
// against lab.json, precision = true / (true + false) overall and per class, and recall of the
// causes (one per lab fault) and of the impacted clients (sends.failed > 0).
import type { LabJson } from './labjson.js';
import { namedFaults, analyzeStatements } from './statements.js';
import { CLASSES, isClaim, type Statement, type StatementClass } from './statements-core.js';
import { replayStatements } from './statements-replay.js';
import { ms, TOLERANCE, Truth, type Boot, type BusyReply, type FailedDelivery } from './score-truth.js';

export interface Counts {
  true: number;
  false: number;
  unknown: number;
}

export interface Ratio {
  stated: number;
  present: number;
}

export interface Figures {
  /** The claims' counts: every statement but the values replay says it assumed (`replay-assumed`). */
  counts: Counts;
  /** true / (true + false) of the claims; null when no claim was decided. */
  precision: number | null;
  byClass: Record<StatementClass, Counts & { precision: number | null }>;
  recall: { causes: Ratio; clients: Ratio };
}

export interface RecordingScore extends Figures {
  name: string;
  /** replay's verdict, or `error` when it gave no report. */
  replayVerdict: string;
  /** Why analyze or replay gave no report (its first line on stderr). */
  errors: string[];
  /** Lab faults no cause names, impacted clients no incident names. */
  missed: string[];
  statements: Statement[];
}

export function count(statements: Statement[]): Counts {
  const c: Counts = { true: 0, false: 0, unknown: 0 };
  for (const s of statements) c[s.verdict]++;
  return c;
}

export const precision = (c: Counts): number | null => (c.true + c.false ? c.true / (c.true + c.false) : null);

function figures(statements: Statement[], recall: Figures['recall']): Figures {
  const counts = count(statements.filter((s) => isClaim(s.cls)));
  const byClass = Object.fromEntries(
    CLASSES.map((k) => {
      const c = count(statements.filter((s) => s.cls === k));
      return [k, { ...c, precision: precision(c) }];
    }),
  ) as Figures['byClass'];
  return { counts, precision: precision(counts), byClass, recall };
}

/** Score one recording's reports (either may be null when its command gave none). */
export function scoreRecording(
  name: string,
  lab: LabJson,
  analyze: any | null,
  replay: any | null,
  errors: string[] = [],
  busyReplies: Array<number | BusyReply> = [],
  boots: readonly Boot[] = [],
  failedDeliveries: readonly FailedDelivery[] = [],
): RecordingScore {
  const truth = new Truth(lab, busyReplies, boots, failedDeliveries);
  const statements = [...(analyze ? analyzeStatements(truth, analyze) : []), ...(replay ? replayStatements(truth, replay) : [])];
  const missed: string[] = [];
  const causes = (analyze?.incidents ?? []).flatMap((i: any) => i.causes ?? []);
  const named = new Set(
    causes.flatMap((c: any) => namedFaults(truth, { kind: c.kind, host: c.host, start: ms(c.start), end: c.end ? ms(c.end) : null, detail: c.detail }).map((f) => f.index)),
  );
  const present = truth.faults.filter((f) => named.has(f.index) || !truth.leftNoTrace(f));
  for (const f of present) if (!named.has(f.index)) missed.push(`no cause names ${f.text}`);
  const impacted = truth.impactedClients();
  const stated = new Set((analyze?.incidents ?? []).flatMap((i: any) => (i.impact ?? []).map((x: any) => x.client)));
  for (const c of impacted) if (!stated.has(c.host)) missed.push(`no incident names ${c.host}'s ${c.sends.failed} lost sends`);
  const recall = {
    causes: { stated: named.size, present: present.length },
    clients: { stated: impacted.filter((c) => stated.has(c.host)).length, present: impacted.length },
  };
  return { name, replayVerdict: replay ? String(replay.verdict) : 'error', errors, missed, ...figures(statements, recall), statements };
}

/** The figures over several recordings: statements and recall summed. */
export function scoreAll(scores: RecordingScore[]): Figures {
  const sum = (f: (s: RecordingScore) => Ratio): Ratio => ({
    stated: scores.reduce((a, s) => a + f(s).stated, 0),
    present: scores.reduce((a, s) => a + f(s).present, 0),
  });
  return figures(
    scores.flatMap((s) => s.statements),
    { causes: sum((s) => s.recall.causes), clients: sum((s) => s.recall.clients) },
  );
}

export { TOLERANCE, CLASSES };
