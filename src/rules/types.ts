// The rule engine's contract, in ESLint's shape: a rule is a module with `meta` and `create(ctx)`,
// which returns a visitor keyed by event type and an `end()` that reports findings. Rule ids,
// finding fields and metric names are public (docs/analyze.md).

import type { EventType, RmqEvent } from '../parse/types.js';
import type { AdviceTopic, TopicAdvice } from './advice.js';

export type Severity = 'critical' | 'error' | 'warning' | 'info';
export const SEVERITIES: readonly Severity[] = ['critical', 'error', 'warning', 'info'];

export function severityRank(s: Severity): number {
  return SEVERITIES.indexOf(s);
}

export type SettingValue = number | boolean | string;

interface SettingMeta {
  default: SettingValue;
  description: string;
  /** Milliseconds, counts, ... shown in `rmq-diag rules`. */
  unit?: string;
}

interface RuleMeta {
  id: string;
  title: string;
  severity: Severity;
  description: string;
  /** RocketMQ versions and settings the rule concerns, in words. */
  versions: string;
  /** Settings the user may know better than the defaults (`--set name=value`). */
  settings: Record<string, SettingMeta>;
  /** Event types the visitor reads (documentation, and the engine skips rules that need none present). */
  events: EventType[];
}

export interface Evidence {
  file: string;
  line: number;
  time: number | null;
  text: string;
}

export interface Subject {
  broker?: string;
  brokerAddr?: string;
  namesrvAddr?: string;
  client?: string;
  host?: string;
  topic?: string;
}

export type MetricValue = number | string | boolean | null | string[];

export interface Finding {
  rule: string;
  severity: Severity;
  title: string;
  start: number | null;
  end: number | null;
  subject: Subject;
  metrics: Record<string, MetricValue>;
  evidence: Evidence[];
  explanation: string;
  advice: string[];
  /** The topic of each advice, where it has one (src/rules/advice.ts); absent: none has. */
  adviceTopics?: Array<AdviceTopic | null>;
}

export type FindingInput = Omit<Finding, 'rule' | 'severity' | 'evidence' | 'advice' | 'adviceTopics'> & {
  severity?: Severity;
  evidence: Array<RmqEvent | Evidence>;
  advice: Array<string | TopicAdvice>;
};

/** What a rule knows about one client host, from the layouts and wording of its logs. */
export interface ClientVersion {
  /** e.g. `4.8.0`, `4.3.0-4.7.1`, `>=5.1.0`, or `unknown`. */
  range: string;
  /** The exact version when a jar name or ClientVersion printed it. */
  exact: string | null;
  /** clientCloseSocketIfTimeout default for that range: false before 4.9.1, true from 4.9.1; null when unknown. */
  closeSocketIfTimeout: boolean | null;
  /**
   * The client's NameServer scan (NettyRemotingClient.scanAvailableNameSrv, 5.0.0-5.2.0) that
   * reconnects every NameServer every 3 s; null when the range straddles it.
   */
  rescansNameServers: boolean | null;
}

export interface SourceInfo {
  path: string;
  host: string;
  kind: string;
  versionHints: string[];
}

export interface RuleContext {
  readonly settings: Readonly<Record<string, SettingValue>>;
  readonly sources: readonly SourceInfo[];
  /** Report a finding; severity defaults to the rule's. Evidence is cut to the first five. */
  report(f: FindingInput): void;
  /**
   * Count findings the rule made but did not report because they could not be among its
   * MAX_FINDINGS_PER_RULE most severe (it chose them itself, so as not to keep every episode).
   */
  omit(severity: Severity, n?: number): void;
  /** The client version range of a host's client logs. */
  clientVersion(host: string): ClientVersion;
  /**
   * One instance per run of a helper that reads events itself (routing.ts, addressBook): made by
   * the first rule that asks for it under `key`, then fed each event of its visitor's types before
   * any rule's handler runs.
   */
  shared<T extends { visitor(): Visitor }>(key: object, make: () => T): T;
}

export type Visitor = { [T in EventType]?: (e: RmqEvent) => void } & { end?: () => void };

export interface Rule {
  meta: RuleMeta;
  create(ctx: RuleContext): Visitor;
}
