// The incident analyze names before its findings: what broke (causes on hosts), who was hurt and
// for how long (impact per client), why it lasted that long (the mechanism, step by step), and what
// to change, each once. Data only: the diagnosis's inference finds the causes
// (src/diagnosis/incident.ts builds these), the reports print them. docs/analyze.md ("The
// incident") describes every field.

/** What happened to a host or a broker. */
type CauseKind =
  | 'hang'
  | 'reboot'
  | 'crash'
  | 'restart'
  | 'shutdown'
  // A process gone without its shutdown hook and booted again, where no peer's logs tell how (a slave's host).
  | 'unclean-stop'
  | 'overload'
  | 'stall'
  | 'disk-full'
  | 'partition'
  // A consumer application's faults (src/diagnosis/consumer-causes.ts): on the host of the instance.
  | 'slow-listener'
  | 'blocked-listener'
  | 'consume-failures'
  | 'consumer-gone'
  | 'consumer-stopped'
  | 'consumer-joined'
  | 'offset-reset';

export interface Cause {
  kind: CauseKind;
  host: string;
  /** What ran on the host: its NameServers' addresses and its brokers. */
  namesrvAddrs: string[];
  brokers: Array<{ name: string; addr: string; role: 'master' | 'slave' }>;
  start: number;
  /** When it ended (the host answered again, the broker was back); null: not in the logs. */
  end: number | null;
  /** How it was recognised: the inference's rule, in words. */
  recognisedBy: string;
  /** `file:line` of the lines read. */
  evidence: string[];
  /** What else is known: `only its processes froze`, `12 pauses, the longest 1202 ms`. */
  detail: string | null;
  /** A consumer fault's group. */
  group?: string;
  /** A consumer fault's group of 5.x gRPC SimpleConsumers: the application receives and acknowledges, no listener. */
  simpleConsumer?: boolean;
  /** Start and end are the bounds of the stats minutes that counted it: it came within them, when in them is not in the logs. */
  minuteBounds?: boolean;
  /** A partition's other side: the hosts it could not reach or be reached from. */
  peers?: string[];
  /**
   * A reboot told from its silence: how long the host had not answered, its connections open, before
   * its old connections were reset (a power loss, or a frozen host that was reset).
   */
  silentMs?: number;
}

export interface Impact {
  client: string;
  /** First and last failed send (epoch ms). */
  start: number | null;
  end: number | null;
  /** Sends the application lost (its exceptions), or the client's failed attempts without an application log. */
  failedSends: number;
  /** Where they were counted. */
  source: 'app' | 'client';
  /** Timed-out calls the client logged (invokeSync). */
  timeouts: number;
  /** The client version, when the logs tell it. */
  clientVersion: string | null;
  /** Why it lasted that long, in one sentence (null: the chain says it). */
  lastedBecause: string | null;
  /**
   * The first incident's only: what the client lost (counted as `failedSends` is) in the minutes
   * before the incident's first cause began: a fault the logs do not show as a cause, or a cause
   * whose start is placed late (the logs cannot tell which); `leadMs` from its first failure to the
   * incident's start.
   */
  before: { failedSends: number; start: number; end: number; leadMs: number } | null;
}

/**
 * What one consumer group suffered (src/diagnosis/consumers.ts reads it): every figure a count the
 * logs hold, a lower bound said so in its `how`, or null with the reason in `unknown`.
 */
export interface ConsumerImpact {
  group: string;
  /** The topics whose offsets its consumers committed. */
  topics: string[];
  /** The client hosts whose logs show the group. */
  hosts: string[];
  /** Deliveries that failed (the larger of the broker's sends back and the client's logged failures). */
  failed: number | null;
  failedHow: string | null;
  /** Messages put back for another delivery through %RETRY%group. */
  redelivered: number | null;
  /** `redelivered` is a lower bound: failures came so late that the broker's stats had not counted all their retries. */
  redeliveredAtLeast?: boolean;
  /** The retry topic when it is not %RETRY%<group>: a pop consumer's %RETRY%<group>_<topic> (5.x). */
  retryTopic?: string;
  /** Messages stored in %DLQ%group. */
  dlq: number | null;
  dlqHow: string | null;
  /** Messages delivered again because an offset reset moved the committed offset back. */
  consumedAgain: number | null;
  /** Messages deleted before they were consumed: an illegal offset below the queue's first moved to nextBeginOffset. */
  skipped: number | null;
  /** The largest lag (messages the group had not committed), with when it was above zero (minute ends). */
  lag: { about: number; at: number; from: number | null; until: number | null; minutes: number; how: string } | null;
  /** The most messages one queue's cache held, from the client's flow-control lines. */
  cachedAtLeast: { count: number; at: number; host: string } | null;
  /** The figures the logs cannot tell, each with why. */
  unknown: string[];
}

/** One step of the mechanism, in time order. */
export interface ChainStep {
  at: number | null;
  text: string;
  /** `file:line` of the line that shows it, or null for a step the inference placed. */
  evidence: string | null;
  /** Id of the finding that tells it (`F3`), if one does. */
  finding: string | null;
}

export interface Incident {
  /** `I1`, `I2`, ... in time order. */
  id: string;
  title: string;
  start: number;
  end: number | null;
  causes: Cause[];
  impact: Impact[];
  /** Why the impact is not known (no client or application log was read); null: the impact says it. */
  impactUnknown: string | null;
  chain: ChainStep[];
  /** What to change, each once. */
  advice: string[];
  /** Ids of the findings that follow from its causes (`F1`, ...). */
  findings: string[];
}

/** Finding ids: `F1`, `F2`, ... in the report's order (severity, then time). */
export function findingId(index: number): string {
  return `F${index + 1}`;
}
