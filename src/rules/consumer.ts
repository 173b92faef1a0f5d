// What the consumer rules share: a group's name and queues as RocketMQ prints them, a span of times,
// and the exception a listener threw (RemotingHelper.exceptionSimpleDesc in 4.x, UtilAll's in 5.x:
// the exception's toString, then `, ` and its top stack frame where it has one).

import type { RmqEvent } from '../parse/types.js';
import { num, str } from './send-path.js';

/** `%RETRY%G` and `%DLQ%G` name the group G's retry and dead-letter topics (MixAll.RETRY_GROUP_TOPIC_PREFIX, DLQ_GROUP_TOPIC_PREFIX). */
export const RETRY_PREFIX = '%RETRY%';
export const DLQ_PREFIX = '%DLQ%';

/** The group of a consumer event: its `group` field, else the group a retry topic names. */
export function groupOf(e: RmqEvent): string | null {
  const g = str(e, 'group');
  if (g) return g;
  const t = str(e, 'topic');
  if (t?.startsWith(RETRY_PREFIX)) return t.slice(RETRY_PREFIX.length);
  return null;
}

/** `broker-a:2` for a queue printed with its broker, `TopicPay:2` or null otherwise. */
export function queueOf(e: RmqEvent): string | null {
  const q = num(e, 'queueId');
  if (q === null) return null;
  const b = str(e, 'brokerName');
  const t = str(e, 'topic');
  return `${t ?? '?'}@${b ?? '?'}:${q}`;
}

/** First and last time of a set of events. */
export class Span {
  first: number | null = null;
  last: number | null = null;
  add(ts: number | null): void {
    if (ts === null) return;
    if (this.first === null || ts < this.first) this.first = ts;
    if (this.last === null || ts > this.last) this.last = ts;
  }
  get ms(): number | null {
    return this.first === null || this.last === null ? null : this.last - this.first;
  }
}

/** The exception class and the top frame of a printed exceptionSimpleDesc, e.g. `java.lang.IllegalStateException: x, com.a.B.m(B.java:42)`. */
export function thrown(cause: string | null): { exception: string | null; frame: string | null } {
  if (!cause) return { exception: null, frame: null };
  const frame = /, ((?:[\w$]+\.)+[\w$<>]+\([^()]*\))\s*$/.exec(cause)?.[1] ?? null;
  const exception = /^((?:[\w$]+\.)*[\w$]*(?:Exception|Error|Throwable)[\w$]*)/.exec(cause)?.[1] ?? /^([\w$.]+)/.exec(cause)?.[1] ?? null;
  return { exception, frame };
}

/** A bounded set of distinct strings: the first `max` are kept, the others only counted. */
export class BoundedSet {
  readonly items = new Set<string>();
  overflow = 0;
  constructor(private readonly max = 2000) {}
  add(s: string): boolean {
    if (this.items.has(s)) return false;
    if (this.items.size >= this.max) {
      this.overflow++;
      return true;
    }
    this.items.add(s);
    return true;
  }
  get size(): number {
    return this.items.size + this.overflow;
  }
}

/** A short list of names for prose: `a, b and 3 more`. */
export function someOf(names: Iterable<string>, max = 3): string {
  const all = [...names];
  if (all.length <= max) return all.length > 1 ? `${all.slice(0, -1).join(', ')} and ${all[all.length - 1]}` : (all[0] ?? '');
  return `${all.slice(0, max).join(', ')} and ${all.length - max} more`;
}
