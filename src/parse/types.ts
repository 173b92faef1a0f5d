// Types shared by the whole pipeline: what a parsed record and a typed event look like.
// Event type names and field names are a public contract (users script against --json).

import type { SourceKind } from '../ingest/kinds.js';
import type { SourceActivity } from './activity.js';

export type EventType =
  | 'busy-reply'
  | 'send-attempt-failed'
  | 'send-failed'
  | 'send-call-timeout'
  | 'send-async-retry'
  | 'rpc-timeout'
  | 'async-timeout'
  | 'late-response'
  | 'send-request-failed'
  | 'connect-failed'
  | 'channel-closed'
  | 'namesrv-chosen'
  | 'namesrv-list'
  | 'route-update-failed'
  | 'route-changed'
  | 'no-route'
  | 'broker-registered'
  | 'broker-expired'
  | 'broker-removed'
  | 'watermark'
  | 'store-slow'
  | 'pipeline'
  | 'startup'
  | 'shutdown'
  | 'heartbeat-failed'
  | 'register-failed'
  | 'disk-full'
  | 'disk-ok'
  | 'broker-jstack'
  | 'store-sync'
  | 'stats'
  | 'consume-failed'
  | 'send-back-failed'
  | 'send-to-dlq'
  | 'pop-revive'
  | 'pull-failed'
  | 'flow-control'
  | 'rebalance'
  | 'lock-failed'
  | 'offset-illegal'
  | 'offset-reset'
  | 'offset-commit'
  | 'consumer-changed'
  | 'dledger'
  | 'controller'
  | 'other';

export const EVENT_TYPES: readonly EventType[] = [
  'busy-reply',
  'send-attempt-failed',
  'send-failed',
  'send-call-timeout',
  'send-async-retry',
  'rpc-timeout',
  'async-timeout',
  'late-response',
  'send-request-failed',
  'connect-failed',
  'channel-closed',
  'namesrv-chosen',
  'namesrv-list',
  'route-update-failed',
  'route-changed',
  'no-route',
  'broker-registered',
  'broker-expired',
  'broker-removed',
  'watermark',
  'store-slow',
  'pipeline',
  'startup',
  'shutdown',
  'heartbeat-failed',
  'register-failed',
  'disk-full',
  'disk-ok',
  'broker-jstack',
  'store-sync',
  'stats',
  'consume-failed',
  'send-back-failed',
  'send-to-dlq',
  'pop-revive',
  'pull-failed',
  'flow-control',
  'rebalance',
  'lock-failed',
  'offset-illegal',
  'offset-reset',
  'offset-commit',
  'consumer-changed',
  'dledger',
  'controller',
  'other',
];

export type FieldValue = string | number | boolean | null | string[];
export type EventFields = Record<string, FieldValue>;

/** A typed event, as produced by the parsers (and, later, by the model). */
export interface RmqEvent {
  /** Epoch milliseconds (UTC), or null where the record carries no date (headerless pastes, time-only layouts). */
  ts: number | null;
  /** Time of day as printed, for records whose layout has no date (e.g. `04:21:23.861`). */
  clock?: string;
  host: string;
  kind: SourceKind;
  /** File as the user named it (or `-` for stdin). */
  file: string;
  /** 1-based line where the event's text appears (a stack line when the event was found inside a stack). */
  line: number;
  level: string | null;
  thread: string | null;
  logger: string | null;
  type: EventType;
  fields: EventFields;
  /** First line of the record (the header line, message included). Raw: escape before printing. */
  text: string;
  /** Catalogue entry id that matched (for debugging and `--json`). */
  entry?: string;
  /** Version hint from the layout or message wording, e.g. `4.3.0-4.7.1`. */
  versionHint?: string;
  /**
   * The producer's send method the record's stack trace went through (DefaultMQProducerImpl):
   * `default` (sendDefaultImpl, the retry loop), `select` (sendSelectImpl, a MessageQueueSelector:
   * one attempt), `queue` (send to an explicit MessageQueue: one attempt), `async` (an ASYNC send's
   * response callback, MQClientAPIImpl.sendMessageAsync: what reaches the application's
   * SendCallback.onException, its retries done). Absent without such a stack.
   */
  sendPath?: 'default' | 'select' | 'queue' | 'async';
  /** Index of the source in input order (ties in the merge keep this order). */
  source: number;
  /** Sequence number within the source (stable order). */
  seq: number;
}

/** Counts per source. lines = records + continuation + unknown + unreadable. */
export interface SourceAccounting {
  path: string;
  kind: SourceKind;
  host: string;
  layout: string;
  zone: string;
  lines: number;
  records: number;
  continuation: number;
  unknown: number;
  unreadable: number;
  events: Partial<Record<EventType, number>>;
  encoding?: string;
  versionHints?: string[];
  /** When a server log (SERVER_KINDS) was written: its spans of activity (src/parse/activity.ts). */
  activity?: SourceActivity;
}
