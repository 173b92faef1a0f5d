// Tags and subscriptions of the TAG expression type as the 4.9.x code has them:
// - FilterAPI.buildSubscriptionData parses a subscription expression: `*` (or empty) takes every
//   message; else the expression is split at `||`, each trimmed tag goes into tagsSet and its
//   String.hashCode() into codeSet.
// - The broker filters a pull by the consume queue's tags code (CommitLog puts the hash code of the
//   message's tags there, 0 for a message without tags): ExpressionMessageFilter.isMatchedByConsumeQueue
//   matches `*` and a null code (a held pull woken by PullRequestHoldService's 5 s check), else
//   codeSet.contains(code).
// - The client filters again by the tag itself (PullAPIWrapper.processPullResult: a subscription
//   with tags keeps a message whose tags are in tagsSet; a message without tags is dropped), so a
//   hash collision the broker let through does not reach the listener.
// - A producer's messages take the tags it sends in turn, in proportion to their shares (the lab's
//   producer takes `tags[id % tags.length]`): a smooth weighted round robin, without randomness.

/** A push consumer's subscription of one topic (SubscriptionData of expressionType TAG). */
export interface Subscription {
  /** As the client wrote it (SubscriptionData.subString; `*` for every message). */
  readonly subString: string;
  /** subString is `*`: every message matches (tagsSet empty). */
  readonly all: boolean;
  readonly tags: ReadonlySet<string>;
  readonly codes: ReadonlySet<number>;
}

/** java.lang.String.hashCode (UTF-16 code units, 32-bit wrap). */
export function javaStringHashCode(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return h;
}

/** The consume queue's tags code of a message (CommitLog: 0 when it has no tags). */
export function tagsCodeOf(tag: string | null): number {
  return tag === null || tag.length === 0 ? 0 : javaStringHashCode(tag);
}

/** SubscriptionData.SUB_ALL. */
export const SUB_ALL = '*';

/** FilterAPI.buildSubscriptionData (4.9.x). */
export function parseSubscription(subString: string | undefined | null): Subscription {
  const s = subString ?? '';
  if (s.length === 0 || s === SUB_ALL) return { subString: SUB_ALL, all: true, tags: new Set(), codes: new Set() };
  const tags = new Set<string>();
  const codes = new Set<number>();
  for (const part of s.split('||')) {
    const t = part.trim();
    if (t.length === 0) continue;
    tags.add(t);
    codes.add(javaStringHashCode(t));
  }
  // `TagA || *`-like expressions are not `*` to the broker: it compares subString with SUB_ALL only.
  return { subString: s, all: false, tags, codes };
}

/** ExpressionMessageFilter.isMatchedByConsumeQueue for a TAG subscription (`null`: no code given, as PullRequestHoldService's check). */
export function matchedByConsumeQueue(sub: Subscription, tagsCode: number | null): boolean {
  if (tagsCode === null || sub.subString === SUB_ALL) return true;
  return sub.codes.has(tagsCode);
}

/** PullAPIWrapper.processPullResult's filter: kept when the subscription has no tags or names the message's. */
export function matchedOnClient(sub: Subscription, tag: string | null): boolean {
  if (sub.tags.size === 0) return true;
  return tag !== null && sub.tags.has(tag);
}

/**
 * The iteration order of a java.util.HashSet of these hash codes (HashMap: bucket
 * `(h ^ (h >>> 16)) & (n - 1)`, n the table size, 16 doubled while the set is over 3/4 of it; within
 * a bucket in insertion order): how SubscriptionData.toString prints tagsSet and codeSet.
 */
export function javaHashSetOrder<T>(items: readonly T[], hash: (x: T) => number): T[] {
  let n = 16;
  while (items.length > n * 0.75) n *= 2;
  const bucket = (x: T) => {
    const h = hash(x);
    return (h ^ (h >>> 16)) & (n - 1);
  };
  return items.map((x, i) => ({ x, i, b: bucket(x) })).sort((a, b) => a.b - b.b || a.i - b.i).map((e) => e.x);
}

/** SubscriptionData.toString (4.9.x) of a TAG subscription of `topic` at `version` (epoch ms). */
export function subscriptionDataText(topic: string, sub: Subscription, version: number): string {
  const tags = javaHashSetOrder([...sub.tags], javaStringHashCode);
  const codes = javaHashSetOrder([...sub.codes], (c) => c);
  return `SubscriptionData [classFilterMode=false, topic=${topic}, subString=${sub.subString}, tagsSet=[${tags.join(', ')}], codeSet=[${codes.join(', ')}], subVersion=${version}, expressionType=TAG]`;
}

/** One tag a producer sends and its share of its messages. */
export interface TagShare {
  tag: string;
  /** Relative weight (default 1). */
  share?: number;
}

/** The tags of a producer's messages in turn (smooth weighted round robin over the shares). */
export class TagRotation {
  private readonly weights: number[];
  private readonly current: number[];
  private readonly total: number;
  constructor(private readonly tags: readonly TagShare[]) {
    this.weights = tags.map((t) => t.share ?? 1);
    for (const w of this.weights) if (!(w > 0)) throw new Error(`a tag's share must be positive, got ${w}`);
    this.current = tags.map(() => 0);
    this.total = this.weights.reduce((a, b) => a + b, 0);
  }
  next(): string {
    let best = 0;
    for (let i = 0; i < this.weights.length; i++) {
      this.current[i] += this.weights[i];
      if (this.current[i] > this.current[best]) best = i;
    }
    this.current[best] -= this.total;
    return this.tags[best].tag;
  }
}
