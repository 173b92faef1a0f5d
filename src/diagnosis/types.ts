// What inference produces, which replay runs and compares with: a scenario with the provenance of
// every value, the defaults it had to take, the milestones and failures observed (read the same way
// from a simulated run).

import type { Scenario } from '../model/index.js';
import type { ComparedMilestone } from '../rules/milestones.js';

/** Where an inferred value came from: the rule applied and the log lines (`file:line`) it read. */
interface Provenance {
  rule: string;
  evidence: string[];
}

/** Keyed by the value's path in the scenario file, e.g. `scenario.clients[0].namesrv`. */
export type ProvenanceMap = Record<string, Provenance>;

/** Values the logs did not give: path -> `value (why)`. */
export type DefaultsMap = Record<string, string>;

/** One moment of the incident, observed in the logs or in a simulated run. */
export interface MilestoneTime {
  name: ComparedMilestone;
  /** What it is about (the key a simulated milestone is matched on): a fault, a NameServer and broker, a client. */
  subject: string;
  /** What happened, when the subject does not say it: `to 192.168.3.101:9876`, `drops broker-a`. */
  detail?: string;
  /** Epoch ms. */
  ts: number;
  /** `file:line` of the line that shows it (observed side; null for fault starts, which are inferred). */
  evidence: string | null;
}

/** Send failures of one client (first to last failed send is its outage). */
export interface ClientFailures {
  /** Where they were read: the application log, or the client log's failed attempts (no application log). */
  source: 'app' | 'client';
  failedSends: number;
  firstTs: number | null;
  lastTs: number | null;
  /** invokeSync timeouts the client logged. */
  timeouts: number;
}

/** Busy replies of one broker within one busy fault's window. */
export interface BusyFigure {
  broker: string;
  kind: 'overload' | 'stall';
  /** Window of the fault (epoch ms) in which replies are counted. */
  from: number;
  to: number;
  replies: number;
  waitMinMs: number | null;
  waitMaxMs: number | null;
}

/**
 * A consumer group's figures the logs give (src/diagnosis/consumers.ts's ConsumerImpact, reduced to
 * what a run is compared with; null: the logs cannot tell).
 */
export interface ConsumerFigure {
  group: string;
  /** The largest lag at a minute end, above the curve's lowest point, and that minute end (epoch ms). */
  lag: { about: number; at: number } | null;
  failed: number | null;
  dlq: number | null;
  consumedAgain: number | null;
}

/** What the logs showed, kept beside the scenario so that a saved scenario replays to the same comparison. */
export interface Observed {
  window: { first: number; last: number };
  /** Hosts whose logs were read (a milestone of another host cannot have been observed). */
  hosts: string[];
  milestones: MilestoneTime[];
  clients: Record<string, ClientFailures>;
  busy: BusyFigure[];
  /** Consumer groups' figures (absent: none read, as in scenario files saved before they were). */
  consumers?: ConsumerFigure[];
}

/** Everything a replay needs: the scenario and what it is compared with. */
export interface ReplayInput {
  scenario: Scenario;
  /** Default run length, model ms (end of the observed window plus a margin). */
  untilMs: number;
  /** Zone of the times printed. */
  zone: string;
  observed: Observed | null;
  provenance: ProvenanceMap;
  defaults: DefaultsMap;
  notes: string[];
  /** One line: where the scenario came from. */
  source: string;
}
