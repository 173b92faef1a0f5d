// A broker's consume queues as the consumers of the model see them: each queue's max offset (a
// producer's successful put appends one message), the retry topics' messages (a consumer's send back,
// delivered after its delay level), the dead-letter count, each group's committed offsets
// (ConsumerOffsetManager), the pulls held by long polling (PullRequestHoldService) and the group's
// connected instances and their subscription (ConsumerManager). Memory: a topic message is only an
// offset, and its tag (an index into the store's tags) when a producer sent one; a retry message is kept
// until its group's committed offset passes it.

import { tagsCodeOf, type Subscription } from './subscription.js';

/** The delay levels of the broker (MessageStoreConfig.messageDelayLevel, 4.x and 5.x), ms. */
export const MESSAGE_DELAY_LEVELS_MS = [1000, 5000, 10000, 30000, 60000, 120000, 180000, 240000, 300000, 360000, 420000, 480000, 540000, 600000, 1200000, 1800000, 3600000, 7200000];

/** MixAll.RETRY_GROUP_TOPIC_PREFIX and MixAll.DLQ_GROUP_TOPIC_PREFIX. */
export const retryTopic = (group: string): string => `%RETRY%${group}`;
export const dlqTopic = (group: string): string => `%DLQ%${group}`;

/** A message as the consumer gets it: how often it was consumed before (its identity is its queue and offset). */
export interface StoredMessage {
  readonly reconsumeTimes: number;
}

/** Every message of a topic queue (never consumed before): one object for all. */
const FIRST_DELIVERY: StoredMessage = Object.freeze({ reconsumeTimes: 0 });

interface RetryQueue {
  /** Offset of messages[0]. */
  base: number;
  messages: StoredMessage[];
}

/**
 * A held pull, called with the tags code of a message that arrived in its queue; it answers true when
 * it is done (released), false to stay held (its filter did not match the message).
 */
type Waiter = (tagsCode: number | null) => boolean;

/** A group's subscription of a topic on the broker (ConsumerGroupInfo.subscriptionTable) and its version. */
export interface BookedSubscription {
  sub: Subscription;
  version: number;
}

/** The tags of a queue's messages: an index per offset into the store's tag names (0: no tag). */
interface QueueTags {
  idx: Uint16Array;
}

/** RebalanceLockManager.REBALANCE_LOCK_MAX_LIVE_TIME (-Drocketmq.broker.rebalance.lockMaxLiveTime, 60 s). */
const REBALANCE_LOCK_MAX_LIVE_TIME_MS = 60000;

export class MessageStore {
  /** Max offset per `topic:queueId` (the next offset to be written). */
  private readonly maxOffsets = new Map<string, number>();
  private readonly retry = new Map<string, RetryQueue>();
  /** Messages put in `%DLQ%group`, per group. */
  readonly dlq = new Map<string, number>();
  /** Committed offsets per `group@topic:queueId`. */
  private readonly offsets = new Map<string, number>();
  /** The committed offsets as the broker last persisted them (consumerOffset.json). */
  private flushedOffsets = new Map<string, number>();
  /** Told of every committed offset a kill took back (the group's book of what was consumed: duplicates). */
  readonly offsetLostListeners: Array<(group: string, topic: string, queueId: number, committed: number) => void> = [];
  /** Pulls held until a message arrives (PullRequestHoldService), per `topic:queueId`. */
  private readonly held = new Map<string, Set<Waiter>>();
  /**
   * When kept (`keepTimeIndex`: a scenario that resets offsets by time), per `topic:queueId` the offset
   * of the first message stored in each second, as [second, offset] pairs: what
   * getOffsetInQueueByTime finds, to the second. At most one pair a second of the run per queue.
   */
  private timeIndex: Map<string, number[]> | null = null;
  /** Orderly consumers' queue locks per `group@queue` (RebalanceLockManager.mqLockTable), in memory. */
  private readonly locks = new Map<string, { clientId: string; lastMs: number }>();
  /** Connected consumers per group: client id -> last heartbeat, ms (ConsumerManager.consumerTable). */
  readonly consumerTable = new Map<string, Map<string, number>>();
  /** Per group, per topic: the subscription of the instance whose heartbeat carried the highest version. */
  readonly subscriptions = new Map<string, Map<string, BookedSubscription>>();
  /** Tag names by index (index 0: a message without tags), and their indexes. */
  private readonly tagNames: Array<string | null> = [null];
  private readonly tagIndex = new Map<string, number>();
  /** Per `topic:queueId`, its messages' tags: kept only once a message with a tag was put in it. */
  private readonly queueTags = new Map<string, QueueTags>();

  constructor(readonly brokerName: string) {}

  maxOffset(topic: string, queueId: number): number {
    const r = this.retry.get(`${topic}:${queueId}`);
    if (r !== undefined) return r.base + r.messages.length;
    return this.maxOffsets.get(`${topic}:${queueId}`) ?? 0;
  }

  /** The lowest offset still held (a retry queue drops what its group committed). */
  minOffset(topic: string, queueId: number): number {
    return this.retry.get(`${topic}:${queueId}`)?.base ?? 0;
  }

  keepTimeIndex(): void {
    this.timeIndex ??= new Map();
  }

  /** A producer's message stored at model time `atMs`: its offset (DefaultMessageStore.putMessage, then ReputMessageService). */
  putMessage(topic: string, queueId: number, atMs = 0, tag: string | null = null): number {
    const key = `${topic}:${queueId}`;
    const off = this.maxOffsets.get(key) ?? 0;
    this.maxOffsets.set(key, off + 1);
    if (tag !== null || this.queueTags.has(key)) this.putTag(key, off, tag);
    if (this.timeIndex !== null) {
      let idx = this.timeIndex.get(key);
      if (idx === undefined) this.timeIndex.set(key, (idx = []));
      const sec = Math.floor(atMs / 1000);
      if (idx.length === 0 || idx[idx.length - 2] < sec) idx.push(sec, off);
    }
    this.notifyMessageArriving(key, tagsCodeOf(tag));
    return off;
  }

  private putTag(key: string, off: number, tag: string | null): void {
    let i = 0;
    if (tag !== null && tag.length > 0) {
      i = this.tagIndex.get(tag) ?? 0;
      if (i === 0) {
        i = this.tagNames.length;
        if (i > 0xffff) throw new Error(`more than ${0xffff} distinct tags`);
        this.tagNames.push(tag);
        this.tagIndex.set(tag, i);
      }
    }
    let q = this.queueTags.get(key);
    if (q === undefined) this.queueTags.set(key, (q = { idx: new Uint16Array(Math.max(64, off + 1)) }));
    if (off >= q.idx.length) {
      const grown = new Uint16Array(Math.max(off + 1, q.idx.length * 2));
      grown.set(q.idx);
      q.idx = grown;
    }
    q.idx[off] = i;
  }

  /** The tag of a topic queue's message (null: none, or no producer sent tags to the queue). */
  tagAt(topic: string, queueId: number, offset: number): string | null {
    const q = this.queueTags.get(`${topic}:${queueId}`);
    if (q === undefined || offset < 0 || offset >= q.idx.length) return null;
    return this.tagNames[q.idx[offset]];
  }

  /** The consume queue's tags code of a message (CommitLog: the hash code of its tags, 0 without). */
  tagsCodeAt(topic: string, queueId: number, offset: number): number {
    return tagsCodeOf(this.tagAt(topic, queueId, offset));
  }

  /**
   * ConsumerGroupInfo.updateSubscription (4.9.4) for one topic of a heartbeat: a topic the group had
   * no subscription of is added; else the heartbeat's replaces it only when its version is higher
   * (`sub.getSubVersion() > old.getSubVersion()`). Returns whether the booked subscription changed.
   */
  updateSubscription(group: string, topic: string, sub: Subscription, version: number): boolean {
    let byTopic = this.subscriptions.get(group);
    if (byTopic === undefined) this.subscriptions.set(group, (byTopic = new Map()));
    const old = byTopic.get(topic);
    if (old !== undefined && version <= old.version) return false;
    byTopic.set(topic, { sub, version });
    return true;
  }

  groupSubscription(group: string, topic: string): BookedSubscription | undefined {
    return this.subscriptions.get(group)?.get(topic);
  }

  /** A retry message whose delay level has passed, put back in `%RETRY%group` (ScheduleMessageService). */
  putRetry(group: string, msg: StoredMessage): void {
    const key = `${retryTopic(group)}:0`;
    let r = this.retry.get(key);
    if (r === undefined) this.retry.set(key, (r = { base: 0, messages: [] }));
    r.messages.push(msg);
    this.notifyMessageArriving(key, 0);
  }

  putDlq(group: string): void {
    this.dlq.set(group, (this.dlq.get(group) ?? 0) + 1);
  }

  /** The message at an offset of a queue (`null` past the max offset). */
  message(topic: string, queueId: number, offset: number): StoredMessage | null {
    const r = this.retry.get(`${topic}:${queueId}`);
    if (r !== undefined) return offset >= r.base && offset < r.base + r.messages.length ? r.messages[offset - r.base] : null;
    if (topic.startsWith('%RETRY%')) return null;
    return offset >= 0 && offset < this.maxOffset(topic, queueId) ? FIRST_DELIVERY : null;
  }

  /**
   * DefaultMessageStore.getOffsetInQueueByTime (to the second): the first message stored at or after
   * `atMs`, or the max offset when none was.
   */
  offsetByTime(topic: string, queueId: number, atMs: number): number {
    const key = `${topic}:${queueId}`;
    const idx = this.timeIndex?.get(key) ?? [];
    const sec = Math.floor(atMs / 1000);
    for (let i = 0; i < idx.length; i += 2) if (idx[i] >= sec) return idx[i + 1];
    return this.maxOffset(topic, queueId);
  }

  /** ConsumerOffsetManager.queryOffset: -1 when the group never committed one. */
  queryOffset(group: string, topic: string, queueId: number): number {
    return this.offsets.get(`${group}@${topic}:${queueId}`) ?? -1;
  }

  /** ConsumerOffsetManager.commitOffset; a retry queue drops the messages below it. */
  commitOffset(group: string, topic: string, queueId: number, offset: number): void {
    this.offsets.set(`${group}@${topic}:${queueId}`, offset);
    const r = this.retry.get(`${topic}:${queueId}`);
    if (r !== undefined && offset > r.base) {
      const n = Math.min(offset - r.base, r.messages.length);
      r.messages.splice(0, n);
      r.base += n;
    }
  }

  /** Hold a pull until a message arrives in the queue; returns the release (the hold's timeout). */
  hold(topic: string, queueId: number, fn: Waiter): () => boolean {
    const key = `${topic}:${queueId}`;
    let s = this.held.get(key);
    if (s === undefined) this.held.set(key, (s = new Set()));
    s.add(fn);
    return () => s!.delete(fn);
  }

  /** PullRequestHoldService.notifyMessageArriving: each held pull is told of the message; those that answer leave. */
  private notifyMessageArriving(key: string, tagsCode: number): void {
    const s = this.held.get(key);
    if (s === undefined || s.size === 0) return;
    const waiters = [...s];
    s.clear();
    for (const w of waiters) if (!w(tagsCode)) s.add(w);
  }


  /**
   * RebalanceLockManager.tryLockBatch for one queue: free, expired (60 s without a renewal:
   * REBALANCE_LOCK_MAX_LIVE_TIME) or already the client's: locked (renewed) for it.
   */
  tryLock(group: string, queue: string, clientId: string, nowMs: number): boolean {
    const key = `${group}@${queue}`;
    const held = this.locks.get(key);
    if (held !== undefined && held.clientId !== clientId && nowMs - held.lastMs <= REBALANCE_LOCK_MAX_LIVE_TIME_MS) return false;
    this.locks.set(key, { clientId, lastMs: nowMs });
    return true;
  }

  /** RebalanceLockManager.unlockBatch: only the holder's lock is released. */
  unlock(group: string, queue: string, clientId: string): void {
    const key = `${group}@${queue}`;
    if (this.locks.get(key)?.clientId === clientId) this.locks.delete(key);
  }

  /** ConsumerOffsetManager.persist: the committed offsets as they are now survive the broker's death. */
  flushOffsets(): void {
    this.flushedOffsets = new Map(this.offsets);
  }

  /** The broker was killed: the offsets committed since its last persist are lost (it reads consumerOffset.json when it boots). */
  restoreFlushedOffsets(): void {
    for (const [k, committed] of this.offsets) {
      if ((this.flushedOffsets.get(k) ?? -1) >= committed) continue;
      const at = k.indexOf('@');
      const colon = k.lastIndexOf(':');
      for (const l of this.offsetLostListeners) l(k.slice(0, at), k.slice(at + 1, colon), Number(k.slice(colon + 1)), committed);
    }
    this.offsets.clear();
    for (const [k, v] of this.flushedOffsets) this.offsets.set(k, v);
  }

  /** The broker died: held pulls are dropped with their channels, and the queue locks with its memory (messages and offsets are on disk). */
  dropHeld(): void {
    this.held.clear();
    this.consumerTable.clear();
    this.subscriptions.clear();
    this.locks.clear();
  }
}
