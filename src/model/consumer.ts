// Push consumers (DefaultMQPushConsumer, CLUSTERING, consumed concurrently) as the 4.x client runs
// them (4.9.x; 5.x's remoting client is the same):
// - RebalanceService rebalances every 20 s and when a broker notifies a change of the group
//   (NOTIFY_CONSUMER_IDS_CHANGED after a heartbeat of a new instance or a closed channel); the queues
//   of the topic and of %RETRY%group are shared by AllocateMessageQueueAveragely (rebalance.ts).
// - DefaultMQPushConsumerImpl.pullMessage pulls each queue in a loop: flow control waits 50 ms while
//   the queue caches more than pullThresholdForQueue messages or spans more than
//   consumeConcurrentlyMaxSpan offsets; a failed pull waits pullTimeDelayMillsWhenException (1 s from 4.6.0, 3 s before);
//   the broker holds a pull with nothing new up to brokerSuspendMaxTimeMillis (15 s, long polling)
//   and commits the offset the pull carries (PullMessageProcessor, hasCommitOffsetFlag).
// - ConsumeMessageConcurrentlyService hands each message (consumeMessageBatchMaxSize 1) to its pool;
//   the pool is a ThreadPoolExecutor(consumeThreadMin, consumeThreadMax) over an unbounded
//   LinkedBlockingQueue, so it never grows past consumeThreadMin threads.
// - A failed message (RECONSUME_LATER, an exception, null) is sent back (consumerSendMessageBack):
//   the broker stores it in %RETRY%group after delay level 3 + reconsumeTimes (10 s, 30 s, 1 min ...),
//   or in %DLQ%group once reconsumeTimes reaches maxReconsumeTimes (SendMessageProcessor
//   .consumerSendMsgBack); a send back that fails is consumed again locally 5 s later.
// - RemoteBrokerOffsetStore keeps offsets in memory and persists them every
//   persistConsumerOffsetInterval (5 s, first after 10 s); an instance killed -9 loses what it did
//   not persist, and the queues' next owner consumes those messages again.
// - MQClientInstance polls a NameServer for the topic's route every 30 s: the queues shared are those
//   of the brokers in the route (RebalanceImpl reads topicSubscribeInfoTable at its next run).
// - An orderly group (MessageListenerOrderly) locks its queues on their broker (RebalanceImpl.lock,
//   lockAll every 20 s; RebalanceLockManager keeps a lock 60 s and forgets them on a restart) and
//   pulls only the queues it holds locked.
// - Tags (4.9.4; subscription.ts): an instance subscribes with its own TAG expression. When one of
//   the group names tags, the broker books one subscription per group and topic, the heartbeat's
//   with the newest version (ConsumerGroupInfo.updateSubscription); an instance's version is its
//   subscribe time, raised by each rebalance that changes its queues, which heartbeats at once
//   (RebalancePushImpl.messageQueueChanged). The broker filters every pull by the booked
//   subscription's tag codes (PullMessageProcessor without the subscription flag,
//   DefaultMessageStore.getMessage: unmatched entries are skipped, the next offset moves past them,
//   NO_MATCHED_MESSAGE is answered at once and correctTagsOffset commits it); a pull with a newer
//   version than the booked one is refused (`The broker's subscription is not latest`,
//   SUBSCRIPTION_NOT_LATEST); the client filters FOUND messages again by its own tags
//   (PullAPIWrapper.processPullResult). The group counts what was skipped and never consumed; the
//   broker writes its `subscription changed` and `subscription is not latest` lines.
//   A group whose instances all subscribe '*' keeps no versions and filters nothing.
// - BROADCASTING (4.9.4): every instance takes every queue of the topic (RebalanceImpl.rebalanceByTopic
//   asks for no client ids) and no %RETRY% queue; offsets stay with the instance (LocalFileOffsetStore:
//   offsets.json under the client id `ip@DEFAULT`, persisted every 5 s, read again by a new process
//   on the host; without it a queue starts at its max offset, CONSUME_FROM_LAST_OFFSET); pulls commit
//   nothing; a failed message is dropped (ConsumeMessageConcurrentlyService.processConsumeResult).
// - Lite pull (DefaultLitePullConsumer with autoCommit, 4.9.4): its queues are pulled as a push
//   consumer's (pullBatchSize 10), its pulls commit nothing, and each FOUND pull is one ConsumeRequest
//   that one poll of the application's thread takes; the thread consumes the batch and polls again,
//   and the first poll after each 5 s commits what was polled (maybeAutoCommit, commitAll). A queue
//   that moves, or an instance that stops, leaves what was polled since to be consumed again.
// Not modelled yet: SQL92 and class filters, an orderly queue's one-at-a-time
// consumption and its retries in place, a lite pull consumer's pullThresholdForAll and its own
// flow-control warnings, pop, pullThresholdSizeForQueue (the model's messages have no size), the
// %RETRY% topic's subscription versions (always '*').

import { CONSUMER_DEFAULTS, LITE_PULL_CONSUMER_DEFAULTS, TIMEOUTS } from '../rocketmq/facts.js';
import { renderMessage } from '../parse/message-render.js';
import type { Zone } from '../parse/time.js';
import type { Broker } from './broker.js';
import type { NameServer } from './namesrv.js';
import { assert, Priority, type Kernel, type Timer } from './kernel.js';
import type { LogFile, LogSink } from './log.js';
import { Process, type Host, type Network } from './network.js';
import type { RandomSource, Rng } from './random.js';
import { clientProfile, parseVersion } from './versions.js';
import { allocateMessageQueueAveragely, queueName, type MessageQueue } from './rebalance.js';
import { MESSAGE_DELAY_LEVELS_MS, retryTopic, type MessageStore, type StoredMessage } from './store.js';
import { matchedByConsumeQueue, matchedOnClient, parseSubscription, subscriptionDataText, type Subscription } from './subscription.js';

/**
 * Consume queue entries one filtered pull scans at most: DefaultMessageStore.getMessage stops at
 * maxFilterMessageCount = max(16000, maxMsgNums * 20) bytes of the consume queue, 20 bytes an entry (4.9.x).
 */
const maxFilterEntries = (pullBatchSize: number): number => Math.max(16000, pullBatchSize * 20) / 20;
/** PullRequestHoldService waits 5 s between its checks of the held pulls (long polling, 4.9.x). */
const HOLD_CHECK_INTERVAL_MS = 5000;

/**
 * An orderly queue not locked on its broker is pulled again this much later: the 4.9.4 client's
 * `pull message later because not locked in broker` lines of a queue are 1 s apart
 * (consumer-orderly-broker-crash).
 */
const PULL_LATER_NOT_LOCKED_MS = 1000;
/** ConsumeMessageOrderlyService locks every queue it holds every 20 s (ProcessQueue.REBALANCE_LOCK_INTERVAL), first 1 s after the start. */
const REBALANCE_LOCK_INTERVAL_MS = 20000;

/** MQClientInstance.resetOffset sleeps 10 s between dropping the queues and taking the new offsets (4.9.x). */
const RESET_OFFSET_SLEEP_MS = 10000;

/** Periods and timeouts of the 4.x push consumer and broker that no scenario field sets. */
export const PUSH_CONSUMER_TIMING = {
  /** RebalanceService.waitInterval (-Drocketmq.client.rebalance.waitInterval, 20000 ms). */
  rebalanceIntervalMs: 20000,
  /** ClientConfig.persistConsumerOffsetInterval; MQClientInstance starts it 10 s after the start. */
  persistConsumerOffsetIntervalMs: 5000,
  persistFirstDelayMs: 10000,
  /** ClientConfig.heartbeatBrokerInterval: MQClientInstance sends the heartbeats 1 s after the start, then every 30 s (4.9.4, 5.1.4). */
  heartbeatBrokerIntervalMs: 30000,
  heartbeatFirstDelayMs: 1000,
  /** ClientConfig.pollNameServerInterval: MQClientInstance polls the routes 10 ms after the start, then every 30 s. */
  pollNameServerIntervalMs: 30000,
  pollFirstDelayMs: 10,
  /** DefaultMQPushConsumerImpl.BROKER_SUSPEND_MAX_TIME_MILLIS and CONSUMER_TIMEOUT_MILLIS_WHEN_SUSPEND. */
  brokerSuspendMaxTimeMillis: 15000,
  consumerTimeoutMillisWhenSuspend: 30000,
  /** ClientHousekeepingService: a consumer channel idle for 120 s is closed; scanned every 10 s. */
  channelExpiredTimeoutMs: 120000,
  housekeepingIntervalMs: 10000,
  /** The lab's consumerProgress cadence, and the report's. */
  lagSampleMs: 10000,
} as const;

export interface ListenerChange {
  atMs: number;
  processMs?: number;
  laterShare?: number;
  throwShare?: number;
}

/** The application's MessageListenerConcurrently: time per message, and the share it fails. */
export interface ConsumerListener {
  processMs: number;
  /** Share of messages answered RECONSUME_LATER. */
  laterShare?: number;
  /** Share of messages on which the listener throws (the client takes it as RECONSUME_LATER). */
  throwShare?: number;
  /** From atMs on, the listener takes these values (a slowdown, a burst of failures, its end). */
  changes?: ListenerChange[];
}

export interface ConsumerSettings {
  consumeThreadMin?: number;
  consumeThreadMax?: number;
  pullBatchSize?: number;
  pullThresholdForQueue?: number;
  consumeConcurrentlyMaxSpan?: number;
  maxReconsumeTimes?: number;
}

export interface ConsumerGroupMetrics {
  group: string;
  topic: string;
  instances: string[];
  /** Messages handed to the listener (each redelivery counts). */
  deliveries: number;
  /** Deliveries the listener consumed (CONSUME_SUCCESS). */
  consumed: number;
  /** Deliveries that failed (RECONSUME_LATER, an exception). */
  failed: number;
  /** Messages the broker stored in %RETRY%group. */
  retried: number;
  /** Messages the broker stored in %DLQ%group. */
  dlq: number;
  /** Messages consumed successfully more than once. */
  duplicates: number;
  /** Pulls held back by flow control, and pulls that failed. */
  flowControlled: number;
  pullFailures: number;
  /** The group's lag (broker max offset minus committed offset, topic and retry queues) every 10 s. */
  lag: Array<{ atMs: number; total: number; retry: number }>;
  maxLag: { atMs: number; total: number } | null;
  /**
   * A group whose subscriptions name tags: the messages of its topic its pulls passed over by the tag
   * filter (the broker's, by the group's booked subscription, or the instance's own) and that no
   * instance consumed since, in all and by tag ('' for a message without tags).
   */
  skippedBySubscription?: { total: number; byTag: Record<string, number> };
}

/** `mqadmin resetOffsetByTime`: at `atMs` the group's offsets on its topic go back to the messages stored from `toMs` on. */
export interface OffsetReset {
  atMs: number;
  toMs: number;
}

export interface ConsumerGroupConfig {
  resets?: OffsetReset[];
  /** MessageListenerOrderly: queues locked on their broker before they are pulled. */
  orderly?: boolean;
  /**
   * DefaultLitePullConsumer (autoCommit): what the application polled goes into the offset store only
   * at the first poll after each autoCommitIntervalMillis, and its pulls commit nothing.
   */
  litePull?: boolean;
  /**
   * A 5.x gRPC push consumer (pop through a proxy): a failed message comes back after the retry
   * policy's backoff, not the send back's delay level, and the admin tool's lag is not modelled.
   */
  pop?: boolean;
  /**
   * A pop group of 5.x gRPC SimpleConsumers: a message it does not acknowledge comes back this long
   * after it failed (the invisible time of its receive; the pop revive puts it back), not after the
   * retry policy's backoff.
   */
  invisibleMs?: number;
  /** The NameServers its instances poll for the topic's route (none: the scenario's layout, always). */
  nameServers?: NameServer[];
  group: string;
  topic: string;
  version: string;
  settings: Required<ConsumerSettings>;
  listener: ConsumerListener;
  /** Some instance subscribes with tags: the broker books the group's subscription and pulls are filtered. */
  filtering?: boolean;
  /** MessageModel.BROADCASTING: every instance consumes every queue, offsets kept by the instance. */
  broadcasting?: boolean;
  /** The topic's queues and the brokers holding them (the scenario's layout). */
  queues: MessageQueue[];
  brokers: Map<string, Broker>;
}

/** The settings of a group, the release's defaults where the scenario says nothing (a lite pull group's pulls take DefaultLitePullConsumer's batch). */
export function consumerSettings(s: ConsumerSettings | undefined, litePull = false): Required<ConsumerSettings> {
  return {
    consumeThreadMin: s?.consumeThreadMin ?? CONSUMER_DEFAULTS.consumeThreadMin,
    consumeThreadMax: s?.consumeThreadMax ?? CONSUMER_DEFAULTS.consumeThreadMax,
    pullBatchSize: s?.pullBatchSize ?? (litePull ? LITE_PULL_CONSUMER_DEFAULTS.pullBatchSize : CONSUMER_DEFAULTS.pullBatchSize),
    pullThresholdForQueue: s?.pullThresholdForQueue ?? CONSUMER_DEFAULTS.pullThresholdForQueue,
    consumeConcurrentlyMaxSpan: s?.consumeConcurrentlyMaxSpan ?? CONSUMER_DEFAULTS.consumeConcurrentlyMaxSpan,
    maxReconsumeTimes: s?.maxReconsumeTimes ?? CONSUMER_DEFAULTS.maxReconsumeTimes,
  };
}

/** Whether a consumer on `from` can reach the broker: at once, refused (nobody listens), or no answer. */
function reach(net: Network, from: Host, b: Broker): 'ok' | 'refused' | 'timeout' {
  if (!net.linked(from, b.host) || b.host.state !== 'up') return 'timeout';
  return b.alive ? 'ok' : 'refused';
}

/** A group: its instances, the broker side's book of them, its listener and its metrics. */
export class ConsumerGroup {
  readonly metrics: ConsumerGroupMetrics;
  readonly instances: PushConsumer[] = [];
  readonly retryQueues: MessageQueue[];
  private listenerNow: Required<Omit<ConsumerListener, 'changes'>>;
  /** Offsets consumed successfully per queue at or above the committed offset (duplicates). */
  private readonly consumedOffsets = new Map<string, Set<number>>();
  /** Per queue, the offset an offset reset went back from: what lies below it was consumed before. */
  private readonly consumedBelow = new Map<string, number>();
  /** Per queue, offsets a tag filter passed over and nobody consumed since (at or above the committed offset). */
  private readonly skippedOffsets = new Map<string, Set<number>>();
  /** Per queue, the offset filtered pulls have scanned up to: an offset below it is not counted skipped again. */
  private readonly scannedTo = new Map<string, number>();

  constructor(
    readonly kernel: Kernel,
    readonly net: Network,
    readonly config: ConsumerGroupConfig,
  ) {
    const brokerNames = [...new Set(config.queues.map((q) => q.brokerName))].sort();
    // The broker creates %RETRY%group with one queue when the group's heartbeat arrives (ClientManageProcessor.heartBeat).
    // A BROADCASTING consumer subscribes no %RETRY% topic (DefaultMQPushConsumerImpl.copySubscription).
    this.retryQueues = config.broadcasting ? [] : brokerNames.map((brokerName) => ({ topic: retryTopic(config.group), brokerName, queueId: 0 }));
    const l = config.listener;
    this.listenerNow = { processMs: l.processMs, laterShare: l.laterShare ?? 0, throwShare: l.throwShare ?? 0 };
    this.metrics = { group: config.group, topic: config.topic, instances: [], deliveries: 0, consumed: 0, failed: 0, retried: 0, dlq: 0, duplicates: 0, flowControlled: 0, pullFailures: 0, lag: [], maxLag: null };
    if (config.filtering) this.metrics.skippedBySubscription = { total: 0, byTag: {} };
    for (const c of [...(l.changes ?? [])].sort((a, b) => a.atMs - b.atMs)) {
      kernel.schedule(c.atMs, Priority.app, () => {
        this.listenerNow = { processMs: c.processMs ?? this.listenerNow.processMs, laterShare: c.laterShare ?? this.listenerNow.laterShare, throwShare: c.throwShare ?? this.listenerNow.throwShare };
      });
    }
    // A broker killed before it persisted its offsets goes back to older ones: what lies below the
    // offsets it lost was consumed, and is consumed again (CLUSTERING: the offsets are the broker's).
    if (!config.broadcasting)
      for (const b of config.brokers.values())
        b.store.offsetLostListeners.push((group, topic, queueId, committed) => {
          if (group !== config.group) return;
          const key = queueName({ topic, brokerName: b.store.brokerName, queueId });
          this.consumedBelow.set(key, Math.max(this.consumedBelow.get(key) ?? 0, committed));
        });
    for (const r of config.resets ?? []) {
      for (const b of config.brokers.values()) b.store.keepTimeIndex();
      kernel.schedule(r.atMs, Priority.app, () => this.resetOffsetByTime(r.toMs));
    }
    // A pop consumer's offsets move as it pops (the broker's PopMessageProcessor), which the model's pull does not: no lag.
    if (!config.pop) kernel.every(PUSH_CONSUMER_TIMING.lagSampleMs, PUSH_CONSUMER_TIMING.lagSampleMs, () => this.sampleLag());
    kernel.every(PUSH_CONSUMER_TIMING.housekeepingIntervalMs, PUSH_CONSUMER_TIMING.housekeepingIntervalMs, () => this.scanNotActiveChannel());
  }

  get listener(): Readonly<Required<Omit<ConsumerListener, 'changes'>>> {
    return this.listenerNow;
  }

  broker(name: string): Broker {
    return this.config.brokers.get(name)!;
  }

  reach(from: Host, brokerName: string): 'ok' | 'refused' | 'timeout' {
    return reach(this.net, from, this.broker(brokerName));
  }

  /** The broker's host hung with the broker running on it: a request sent to it waits in its socket (network.ts). */
  heldByHungBroker(from: Host, brokerName: string): boolean {
    const b = this.broker(brokerName);
    return b.alive && b.host.state === 'hung' && this.net.linked(from, b.host);
  }

  get filtering(): boolean {
    return this.config.filtering === true;
  }

  get broadcasting(): boolean {
    return this.config.broadcasting === true;
  }

  /**
   * BROADCASTING: the offsets.json of each host (LocalFileOffsetStore, under the client id, which
   * for a BROADCASTING consumer is `ip@DEFAULT`: DefaultMQPushConsumerImpl.start changes the instance
   * name to the pid only for CLUSTERING). On the host's disk: a new process on the host reads it.
   */
  readonly localOffsetFiles = new Map<string, Map<string, number>>();

  /** The duplicates' book: per queue, or per host and queue for a BROADCASTING group (each instance consumes every message once). */
  private consumedKey(mq: MessageQueue, inst: PushConsumer | null): string {
    return this.broadcasting && inst !== null ? `${inst.host.name} ${queueName(mq)}` : queueName(mq);
  }

  /** A BROADCASTING instance persisted its offset (LocalFileOffsetStore, on its own disk): what it consumed below is done. */
  localOffsetPersisted(inst: PushConsumer, mq: MessageQueue, offset: number): void {
    const set = this.consumedOffsets.get(this.consumedKey(mq, inst));
    if (set !== undefined) for (const o of set) if (o < offset) set.delete(o);
  }

  /**
   * ConsumerManager.registerConsumer: a new client id makes the broker notify every channel of the
   * group, the new instance's own too (ConsumerGroupInfo.getAllChannel, DefaultConsumerIdsChangeListener:
   * 4.9.4, and 5.3.3 with realTimeNotifyConsumerChange, its default): each rebalances at once, the new
   * one with the client ids of the broker it asks then; a group that filters books the heartbeat's subscription of the topic when its version is
   * higher (ConsumerGroupInfo.updateSubscription: the group has one subscription per topic, whichever
   * instance's heartbeat carried the newest version).
   */
  heartbeat(inst: PushConsumer, brokerName: string): void {
    const store = this.broker(brokerName).store;
    const table = store.consumerTable;
    let ids = table.get(this.config.group);
    if (ids === undefined) table.set(this.config.group, (ids = new Map()));
    const isNew = !ids.has(inst.clientId);
    ids.set(inst.clientId, this.kernel.nowMs);
    if (this.filtering) this.bookSubscription(inst, brokerName);
    if (isNew) this.notifyConsumerIdsChanged(brokerName, null);
  }

  /** updateSubscription, and its `subscription changed` lines in broker.log (4.9.4 texts). */
  private bookSubscription(inst: PushConsumer, brokerName: string): void {
    const b = this.broker(brokerName);
    const { group, topic } = this.config;
    const sub = inst.config.subscription ?? parseSubscription('*');
    const old = b.store.groupSubscription(group, topic);
    if (!b.store.updateSubscription(group, topic, sub, inst.subVersion)) return;
    const now = subscriptionDataText(topic, sub, b.epochOf(inst.subVersion));
    if (old === undefined) b.writeConsumerLine('INFO', 'HeartbeatThread_1', renderMessage('consumer-changed/topic-added', { group, sub: now }));
    else b.writeConsumerLine('INFO', 'HeartbeatThread_1', renderMessage('consumer-changed/subscription-changed', { group, old: subscriptionDataText(topic, old.sub, b.epochOf(old.version)), sub: now }));
  }

  /**
   * The instance's channel closed (killed, stopped) or expired: the broker forgets it and notifies the
   * others; with its last channel the group's book goes, subscriptions too (ConsumerManager.unregisterConsumer).
   */
  unregister(clientId: string, brokerName: string): void {
    const store = this.broker(brokerName).store;
    const ids = store.consumerTable.get(this.config.group);
    if (!ids?.delete(clientId)) return;
    if (ids.size === 0) {
      store.consumerTable.delete(this.config.group);
      store.subscriptions.delete(this.config.group);
    }
    this.notifyConsumerIdsChanged(brokerName, null);
  }

  /**
   * Offsets of a queue a tag filter passed over (the broker's or the instance's), counted once: those
   * below what filtered pulls of the queue scanned before are not counted again. `next` is the pull's next offset.
   */
  countSkipped(mq: MessageQueue, store: MessageStore, offsets: readonly number[], next: number): void {
    const m = this.metrics.skippedBySubscription;
    if (m === undefined) return;
    const key = queueName(mq);
    const from = this.scannedTo.get(key) ?? 0;
    let set = this.skippedOffsets.get(key);
    for (const o of offsets) {
      if (o < from) continue;
      if (set === undefined) this.skippedOffsets.set(key, (set = new Set()));
      if (set.has(o)) continue;
      set.add(o);
      const tag = store.tagAt(mq.topic, mq.queueId, o) ?? '';
      m.total++;
      m.byTag[tag] = (m.byTag[tag] ?? 0) + 1;
    }
    if (next > from) this.scannedTo.set(key, next);
  }

  private notifyConsumerIdsChanged(brokerName: string, except: PushConsumer | null): void {
    const b = this.broker(brokerName);
    for (const inst of this.instances) {
      if (inst === except || !inst.alive || !this.net.linked(b.host, inst.host)) continue;
      inst.after(2 * this.net.latencyMs, () => inst.rebalanceImmediately());
    }
  }

  /** ClientHousekeepingService.scanExceptionChannel: consumers silent for 120 s are removed. */
  private scanNotActiveChannel(): void {
    for (const [name, b] of this.config.brokers) {
      if (!b.alive || b.host.state !== 'up') continue;
      const ids = b.store.consumerTable.get(this.config.group);
      if (ids === undefined) continue;
      for (const [cid, lastMs] of [...ids]) if (this.kernel.nowMs - lastMs > PUSH_CONSUMER_TIMING.channelExpiredTimeoutMs) this.unregister(cid, name);
    }
  }

  /**
   * MQClientInstance.findConsumerIdList (4.9.4; the same in 5.x): the client ids of one broker of the
   * topic's route, picked at random (findBrokerAddrByTopic: random.nextInt over the route's brokers),
   * so instances may rebalance on different brokers' books (one that restarted, or that has not had an
   * instance's heartbeat yet). A broker that does not answer gives none (`getConsumerIdListByGroup
   * exception`): the rebalance of the topic changes nothing. `pick` is the draw in [0, 1).
   */
  findConsumerIdList(from: Host, route: ReadonlySet<string> | null, pick: number): string[] | null {
    const names = [...this.config.brokers.keys()].sort().filter((name) => this.config.queues.some((q) => q.brokerName === name) && (route === null || route.has(name)));
    if (names.length === 0) return null;
    const name = names[Math.min(names.length - 1, Math.floor(pick * names.length))];
    if (this.reach(from, name) !== 'ok') return null;
    return [...(this.broker(name).store.consumerTable.get(this.config.group)?.keys() ?? [])];
  }

  commitOffset(mq: MessageQueue, offset: number): void {
    const b = this.broker(mq.brokerName);
    b.store.commitOffset(this.config.group, mq.topic, mq.queueId, offset);
    const set = this.consumedOffsets.get(queueName(mq));
    if (set !== undefined) for (const o of set) if (o < offset) set.delete(o);
    // A skipped offset below the committed one stays skipped (only an offset reset brings it back).
    const skipped = this.skippedOffsets.get(queueName(mq));
    if (skipped !== undefined) for (const o of skipped) if (o < offset) skipped.delete(o);
  }

  /** A delivery's outcome, counted for the group (a success of an offset consumed before, by the instance when BROADCASTING, is a duplicate). */
  countConsumed(mq: MessageQueue, offset: number, inst: PushConsumer | null = null): void {
    this.metrics.consumed++;
    const key = this.consumedKey(mq, inst);
    let set = this.consumedOffsets.get(key);
    if (set === undefined) this.consumedOffsets.set(key, (set = new Set()));
    if (set.has(offset) || offset < (this.consumedBelow.get(key) ?? 0)) this.metrics.duplicates++;
    else {
      set.add(offset);
      if (this.consumedCopyBefore(mq, offset, inst)) this.metrics.duplicates++;
    }
    // A message a filter passed over and consumed after all (pulled again from an older offset).
    const skipped = this.skippedOffsets.get(queueName(mq));
    if (skipped?.delete(offset)) {
      const m = this.metrics.skippedBySubscription!;
      const tag = this.broker(mq.brokerName).store.tagAt(mq.topic, mq.queueId, offset) ?? '';
      m.total--;
      m.byTag[tag]--;
    }
  }

  /**
   * The first success of this copy: another copy of the same message (one send stored twice, see
   * copies.ts) consumed before makes it a duplicate, as the consumers' message id is the send's
   * UNIQ_KEY. The other copy may have been consumed before this one was stored: it counts as consumed
   * when its offset is in the duplicates' book or (CLUSTERING) below its queue's committed offset.
   */
  private consumedCopyBefore(mq: MessageQueue, offset: number, inst: PushConsumer | null): boolean {
    const copies = this.broker(mq.brokerName).copies?.copiesOf(mq.brokerName, mq.topic, mq.queueId, offset);
    if (copies === undefined) return false;
    for (const c of copies) {
      if (c.brokerName === mq.brokerName && c.topic === mq.topic && c.queueId === mq.queueId && c.offset === offset) continue;
      const other: MessageQueue = { topic: c.topic, brokerName: c.brokerName, queueId: c.queueId };
      if (this.consumedOffsets.get(this.consumedKey(other, inst))?.has(c.offset)) return true;
      if (!this.broadcasting && c.offset < Math.max(this.consumedBelow.get(queueName(other)) ?? 0, this.broker(c.brokerName).store.queryOffset(this.config.group, c.topic, c.queueId))) return true;
    }
    return false;
  }

  /**
   * Broker2Client.resetOffset (4.9.x): per queue of the topic, the offset of the first message stored
   * from `toMs` on (when below the committed one), sent to every instance (RESET_CONSUMER_CLIENT_OFFSET);
   * the broker commits nothing itself: the instances persist the new offsets. What was consumed up to
   * the old offset is consumed again: counted as duplicates.
   */
  private resetOffsetByTime(toMs: number): void {
    const targets = new Map<string, number>();
    for (const mq of this.config.queues) {
      const b = this.broker(mq.brokerName);
      if (!b.alive || b.host.state !== 'up') continue;
      const cur = b.store.queryOffset(this.config.group, mq.topic, mq.queueId);
      const to = b.store.offsetByTime(mq.topic, mq.queueId, toMs);
      if (cur < 0 || to >= cur) continue;
      const key = queueName(mq);
      this.consumedBelow.set(key, Math.max(this.consumedBelow.get(key) ?? 0, cur));
      targets.set(key, to);
    }
    if (targets.size === 0) return;
    for (const inst of this.instances) if (inst.alive) inst.after(this.net.latencyMs, () => inst.resetOffset(targets));
  }

  /**
   * SendMessageProcessor.consumerSendMsgBack: to %DLQ%group once reconsumeTimes reached
   * maxReconsumeTimes, else to %RETRY%group after delay level 3 + reconsumeTimes.
   */
  sendMessageBack(brokerName: string, msg: StoredMessage): void {
    const b = this.broker(brokerName);
    const { group } = this.config;
    if (msg.reconsumeTimes >= this.config.settings.maxReconsumeTimes) {
      b.store.putDlq(group);
      this.metrics.dlq++;
      return;
    }
    this.metrics.retried++;
    // Pop: the client's nack waits the group's CUSTOMIZED retry policy (CustomizedRetryPolicy, 5.x: 1 s,
    // 5 s, 10 s, 30 s, 1 min, ...: the delay levels from the first) before the revive puts it back.
    // A SimpleConsumer's message comes back once the invisible time of its receive is over.
    const level = Math.min((this.config.pop ? 1 : 3) + msg.reconsumeTimes, MESSAGE_DELAY_LEVELS_MS.length);
    const delay = this.config.pop && this.config.invisibleMs !== undefined ? this.config.invisibleMs : MESSAGE_DELAY_LEVELS_MS[level - 1];
    const next: StoredMessage = { reconsumeTimes: msg.reconsumeTimes + 1 };
    this.kernel.schedule(this.kernel.nowMs + delay, Priority.process, () => b.store.putRetry(group, next));
  }

  /**
   * consumerProgress: per queue the broker's max offset minus the group's committed offset. A
   * BROADCASTING group commits nothing to the broker (mqadmin consumerProgress has nothing to show):
   * its lag is the largest of its live instances' (max offset minus the instance's own offset).
   */
  private sampleLag(): void {
    if (this.broadcasting) {
      let top = 0;
      for (const inst of this.instances) if (inst.alive) top = Math.max(top, inst.localLag());
      const atMs = this.kernel.nowMs;
      this.metrics.lag.push({ atMs, total: top, retry: 0 });
      if (this.metrics.maxLag === null || top > this.metrics.maxLag.total) this.metrics.maxLag = { atMs, total: top };
      return;
    }
    let total = 0;
    let retry = 0;
    for (const mq of [...this.config.queues, ...this.retryQueues]) {
      const s = this.broker(mq.brokerName).store;
      const d = Math.max(0, s.maxOffset(mq.topic, mq.queueId) - Math.max(0, s.queryOffset(this.config.group, mq.topic, mq.queueId)));
      total += d;
      if (mq.topic.startsWith('%RETRY%')) retry += d;
    }
    const atMs = this.kernel.nowMs;
    this.metrics.lag.push({ atMs, total, retry });
    if (this.metrics.maxLag === null || total > this.metrics.maxLag.total) this.metrics.maxLag = { atMs, total };
  }
}

/** ProcessQueue: the messages pulled from a queue and not yet consumed, by offset. */
class ProcessQueue {
  readonly cached = new Map<number, StoredMessage>();
  dropped = false;
  /** An orderly queue's lock on its broker, as the client last learnt it (ProcessQueue.locked). */
  locked = false;
  /** Highest offset ever cached (queueOffsetMax). */
  queueOffsetMax = -1;
  nextOffset: number;
  /** The queue's pulls wait for consumption (flow control), since when. */
  flow: FlowWait | null = null;
  constructor(
    readonly mq: MessageQueue,
    nextOffset: number,
  ) {
    this.nextOffset = nextOffset;
  }
  /** Offsets are cached in ascending order and a Map keeps insertion order: its first key is the lowest (msgTreeMap.firstKey). */
  minOffset(): number {
    const first = this.cached.keys().next();
    return first.done ? Number.POSITIVE_INFINITY : first.value;
  }
  /** ProcessQueue.getMaxSpan. */
  maxSpan(): number {
    return this.cached.size === 0 ? 0 : this.queueOffsetMax - this.minOffset();
  }
  /** ProcessQueue.removeMessage: the offset to commit (the lowest still cached, else past the highest). */
  removeMessage(offset: number): number {
    this.cached.delete(offset);
    return this.cached.size > 0 ? this.minOffset() : this.queueOffsetMax + 1;
  }
}

interface FlowWait {
  sinceMs: number;
  limit: FlowLimit;
}

type FlowLimit = 'count' | 'span';

/**
 * One of the instance's flow-control counters (DefaultMQPushConsumerImpl.queueFlowControlTimes,
 * queueMaxSpanFlowControlTimes: one per instance, for all its queues): the checks of waits ended, the
 * queues waiting now, the last check that printed the warning, the timer of the next one.
 */
interface FlowCounter {
  settled: number;
  waiting: Set<ProcessQueue>;
  lastLogged: number;
  probe: Timer | null;
}

interface ConsumeRequest {
  pq: ProcessQueue;
  offset: number;
  msg: StoredMessage;
}

/** DefaultLitePullConsumerImpl.ConsumeRequest: one FOUND pull's messages, handed to one poll. */
interface LiteConsumeRequest {
  pq: ProcessQueue;
  msgs: Array<[number, StoredMessage]>;
}

export interface PushConsumerConfig {
  clientId: string;
  pid: number;
  /** Stop (shutdown, offsets persisted) or die (kill -9) at this model time. */
  stopAtMs?: number;
  stop?: 'shutdown' | 'kill';
  /** Stretches its listener blocks (ScenarioConsumerInstance.blocks). */
  blocks?: readonly ListenerBlock[];
  /** Its subscription of the group's topic (default `*`). */
  subscription?: Subscription;
}

/**
 * A stretch in which the instance's listener blocks (a call that waits on a lock or a downstream
 * service without a timeout): every call that enters it from `atMs` on returns no earlier than
 * `untilMs`; calls already running finish as they would.
 */
export interface ListenerBlock {
  atMs: number;
  untilMs: number;
}

/** One instance of a group (a DefaultMQPushConsumer in one JVM). */
export class PushConsumer extends Process {
  readonly clientId: string;
  private processQueueTable = new Map<string, ProcessQueue>();
  /** RemoteBrokerOffsetStore.offsetTable (LocalFileOffsetStore's for BROADCASTING): the offsets consumed, in memory. */
  private offsetTable = new Map<string, number>();
  /**
   * A lite pull instance's consume offsets (AssignedMessageQueue.updateConsumeOffset at each poll),
   * not yet committed to the offset store (offsetTable) by commitAll.
   */
  private polledOffsets = new Map<string, number>();
  /** A lite pull instance's consumeRequestCache: one request per FOUND pull (its messages), in arrival order. */
  private consumeRequestCache: LiteConsumeRequest[] = [];
  /** DefaultLitePullConsumerImpl.nextAutoCommitDeadline (-1: the next poll commits). */
  private nextAutoCommitDeadline = -1;
  /** The polling thread waits in poll for a ConsumeRequest until this timer; null: it is consuming a batch. */
  private pollWait: Timer | null = null;
  /** BROADCASTING: the host's offsets.json (ConsumerGroup.localOffsetFiles), read at the start (LocalFileOffsetStore.load). */
  private get localOffsets(): Map<string, number> {
    let f = this.group.localOffsetFiles.get(this.host.name);
    if (f === undefined) this.group.localOffsetFiles.set(this.host.name, (f = new Map()));
    return f;
  }
  /** The consume pool's queue from consumeHead on (taken slots are cleared, the array compacted now and then). */
  private consumeRequests: Array<ConsumeRequest | undefined> = [];
  private consumeHead = 0;
  private busyThreads = 0;
  private flowCounters: Record<FlowLimit, FlowCounter> = PushConsumer.newFlowCounters();
  private readonly clientLog: LogFile;
  /**
   * The brokers of the topic in the instance's route (topicSubscribeInfoTable), from its last route
   * poll that found the topic; null: the scenario's layout (no NameServer, or none answered yet).
   */
  private route: Set<string> | null = null;
  /**
   * The version of its subscription of the topic (SubscriptionData.subVersion): the time it subscribed
   * (at its start), raised by every rebalance that changes its queues; kept only for a group that filters.
   */
  subVersion = 0;
  /** The release marks an orderly queue's new ProcessQueue locked when its rebalance locked it (4.9.5+). */
  private readonly orderlyNewQueueLocked: boolean;
  /** Its release's pause before a failed pull's queue is pulled again (PULL_RETRY_DELAY). */
  private readonly pullRetryDelayMs: number;
  /** Its first rebalance after the start is still to come (it follows the start's heartbeat). */
  private firstRebalance = true;

  constructor(
    net: Network,
    host: Host,
    readonly group: ConsumerGroup,
    readonly config: PushConsumerConfig,
    sink: LogSink,
    zone: Zone,
    private readonly rng: Rng,
    /** The draws of findConsumerIdList's broker, a stream of their own (the listener's draws stay as they are). */
    private readonly rebalanceRng: Rng,
  ) {
    super(net, host, `consumer:${group.config.group}@${host.name}`);
    this.clientId = config.clientId;
    const profile = clientProfile(group.config.version);
    this.orderlyNewQueueLocked = profile.orderlyNewQueueLocked;
    this.pullRetryDelayMs = profile.pullTimeDelayMillsWhenException;
    const inner = profile.layout === 'inner';
    this.clientLog = sink.file({
      host: host.name,
      name: 'rocketmq_client.log',
      kind: 'client',
      layout: inner ? 'rocketmq-client-inner' : 'rocketmq-client-5x',
      zone,
      fakeMillis: profile.fakeMillis,
      flattenNewlines: inner && profile.flattenNewlines,
      pid: config.pid,
    });
  }

  private static newFlowCounters(): Record<FlowLimit, FlowCounter> {
    return { count: { settled: 0, waiting: new Set(), lastLogged: 0, probe: null }, span: { settled: 0, waiting: new Set(), lastLogged: 0, probe: null } };
  }

  private get settings(): Required<ConsumerSettings> {
    return this.group.config.settings;
  }

  protected boot(): void {
    const t = PUSH_CONSUMER_TIMING;
    // subscribe() makes the SubscriptionData, its version the time (just before start()).
    this.subVersion = this.nowMs;
    this.firstRebalance = true;
    // MQClientInstance.start, then DefaultMQPushConsumerImpl.start: heartbeat to every broker, rebalance at once.
    this.sendHeartbeatToAllBroker();
    if ((this.group.config.nameServers ?? []).length > 0) this.every(t.pollNameServerIntervalMs, t.pollFirstDelayMs, () => this.updateTopicRouteInfoFromNameServer());
    this.every(t.heartbeatBrokerIntervalMs, t.heartbeatFirstDelayMs, () => this.sendHeartbeatToAllBroker());
    this.every(t.persistConsumerOffsetIntervalMs, t.persistFirstDelayMs, () => this.persistAllConsumerOffset());
    this.every(t.rebalanceIntervalMs, t.rebalanceIntervalMs, () => this.doRebalance());
    if (this.group.config.orderly) this.every(REBALANCE_LOCK_INTERVAL_MS, 1000, () => this.lockAll());
    this.rebalanceImmediately();
    if (this.group.config.litePull) {
      // The application's polling thread starts with the consumer; its first poll commits (the deadline is -1).
      this.nextAutoCommitDeadline = -1;
      this.poll();
    }
    if (this.config.stopAtMs !== undefined && this.config.stopAtMs > this.nowMs) {
      const stopAt = this.config.stopAtMs;
      this.at(stopAt, () => (this.config.stop === 'kill' ? this.kill('fin') : this.shutdown()), Priority.fault);
    }
  }

  protected onKilled(): void {
    for (const pq of this.processQueueTable.values()) pq.dropped = true;
    this.processQueueTable.clear();
    this.offsetTable.clear();
    this.polledOffsets.clear();
    this.consumeRequestCache = [];
    this.pollWait = null;
    this.consumeRequests = [];
    this.consumeHead = 0;
    this.busyThreads = 0;
    for (const c of Object.values(this.flowCounters)) c.probe?.cancel();
    this.flowCounters = PushConsumer.newFlowCounters();
    // The OS closes the sockets: each broker that still hears the host drops the client (ConsumerManager.doChannelCloseEvent).
    for (const name of this.group.config.brokers.keys()) if (this.group.reach(this.host, name) === 'ok') this.group.unregister(this.clientId, name);
  }

  /** DefaultMQPushConsumerImpl.shutdown: persist the offsets, unregister from every broker, stop. */
  private shutdown(): void {
    this.persistAllConsumerOffset();
    this.kill('fin');
  }

  /**
   * MQClientInstance.sendHeartbeatToAllBroker: to every broker of its brokerAddrTable, which holds the
   * brokers of the routes it polled; the heartbeat task's cleanOfflineBroker drops one no route holds
   * (4.9.4, 5.1.4). A broker that left the route and came back is heartbeated again only after a route
   * poll found it: until then its (restarted) ConsumerManager does not know the instance.
   */
  private sendHeartbeatToAllBroker(): void {
    for (const name of this.group.config.brokers.keys()) {
      if (!this.group.config.queues.some((q) => q.brokerName === name)) continue;
      if (this.route !== null && !this.route.has(name)) continue;
      if (this.group.reach(this.host, name) === 'ok') this.group.heartbeat(this, name);
    }
  }

  rebalanceImmediately(): void {
    this.doRebalance();
  }

  /**
   * MQClientInstance.updateTopicRouteInfoFromNameServer: the first NameServer that answers gives the
   * topic's brokers; a broker the NameServer dropped leaves the route, and RebalanceImpl's next run
   * (every 20 s, not at once) shares only the queues of the route. No answer, or no route of the
   * topic, keeps the route it had.
   */
  private updateTopicRouteInfoFromNameServer(): void {
    for (const ns of this.group.config.nameServers ?? []) {
      if (!ns.alive || ns.host.state !== 'up' || !this.net.linked(this.host, ns.host)) continue;
      const brokers = ns.topicBrokers(this.group.config.topic);
      if (brokers !== null) this.route = new Set(brokers);
      return;
    }
  }

  /**
   * MQClientInstance.resetOffset (4.9.x): the topic's process queues are dropped, the consumer waits
   * 10 s, then takes the broker's offsets, removes those queues and rebalances (they are added back at
   * the new offsets).
   */
  resetOffset(targets: Map<string, number>): void {
    const dropped: ProcessQueue[] = [];
    for (const [key, pq] of this.processQueueTable) {
      if (!targets.has(key)) continue;
      pq.dropped = true;
      dropped.push(pq);
    }
    this.after(RESET_OFFSET_SLEEP_MS, () => {
      for (const pq of dropped) {
        const key = queueName(pq.mq);
        if (this.processQueueTable.get(key) !== pq) continue;
        this.offsetTable.set(key, targets.get(key)!);
        this.persistOffset(pq.mq);
        this.offsetTable.delete(key);
        this.processQueueTable.delete(key);
        this.endFlowWait(pq);
      }
      this.doRebalance();
    });
  }

  /** RebalanceImpl.doRebalance: the topic's queues, then %RETRY%group's. */
  private doRebalance(): void {
    if (this.group.broadcasting) return this.doRebalanceBroadcasting();
    const inRoute = (q: MessageQueue) => this.route === null || this.route.has(q.brokerName);
    // RebalanceImpl.rebalanceByTopic asks for the client ids once per topic (the topic's, then %RETRY%group's).
    let rebalanced = false;
    for (const queues of [this.group.config.queues, this.group.retryQueues]) {
      const cidAll = this.group.findConsumerIdList(this.host, this.route, this.rebalanceRng.next());
      if (cidAll === null || cidAll.length === 0) continue; // "doRebalance ... get consumer id list failed"
      const mqAll = queues.filter(inRoute);
      const allocated = allocateMessageQueueAveragely(mqAll, cidAll, this.clientId);
      const change = this.updateProcessQueueTableInRebalance(queues[0]?.topic ?? '', allocated);
      if (change.changed && this.group.filtering && queues === this.group.config.queues) this.messageQueueChanged(change.added);
      rebalanced = true;
    }
    if (rebalanced) this.firstRebalance = false;
  }

  /**
   * RebalanceImpl.rebalanceByTopic, BROADCASTING (4.x): the instance takes every queue of the topic in
   * its route, whatever the other instances are (no client id list is asked for).
   */
  private doRebalanceBroadcasting(): void {
    const queues = this.group.config.queues;
    const mine = queues.filter((q) => this.route === null || this.route.has(q.brokerName));
    const change = this.updateProcessQueueTableInRebalance(queues[0]?.topic ?? '', mine);
    if (change.changed && this.group.filtering) this.messageQueueChanged(change.added);
    this.firstRebalance = false;
  }

  /** The instance's lag: per queue it holds, the broker's max offset minus its own offset (BROADCASTING). */
  localLag(): number {
    let n = 0;
    for (const [key, pq] of this.processQueueTable) {
      const b = this.group.broker(pq.mq.brokerName);
      n += Math.max(0, b.store.maxOffset(pq.mq.topic, pq.mq.queueId) - (this.offsetTable.get(key) ?? pq.nextOffset));
    }
    return n;
  }

  /**
   * RebalancePushImpl.messageQueueChanged (4.9.x): a rebalance that changed the topic's queues raises
   * the subscription's version to the time and sends a heartbeat to every broker at once
   * (sendHeartbeatToAllBrokerWithLock), so the broker books this instance's subscription. The model's
   * rebalance takes no time; the client's makes its calls before: findConsumerIdList, one
   * queryConsumerOffset per queue added (computePullFromWhere) and, after a start, the start's
   * heartbeat (DefaultMQPushConsumerImpl.start sends it before rebalanceImmediately): each a round trip.
   * Which instance's version is the newest decides the group's subscription on the broker.
   */
  private messageQueueChanged(added: number): void {
    const hop = this.net.latencyMs;
    const calls = 1 + added + (this.firstRebalance ? 1 : 0);
    const atMs = this.nowMs + 2 * hop * calls;
    this.at(atMs, () => {
      this.subVersion = atMs;
      this.after(hop, () => this.sendHeartbeatToAllBroker());
    });
  }

  private updateProcessQueueTableInRebalance(topic: string, allocated: MessageQueue[]): { changed: boolean; added: number } {
    const keep = new Set(allocated.map(queueName));
    let changed = false;
    let added = 0;
    for (const [key, pq] of this.processQueueTable) {
      if (pq.mq.topic !== topic || keep.has(key)) continue;
      changed = true;
      // removeUnnecessaryMessageQueue: persist the offset, forget it, drop the queue (an orderly one is unlocked on its broker).
      this.persistOffset(pq.mq);
      if (this.group.config.orderly && this.group.reach(this.host, pq.mq.brokerName) === 'ok') this.group.broker(pq.mq.brokerName).store.unlock(this.group.config.group, key, this.clientId);
      this.offsetTable.delete(key);
      this.polledOffsets.delete(key);
      pq.dropped = true;
      this.processQueueTable.delete(key);
      this.endFlowWait(pq);
    }
    for (const mq of allocated) {
      const key = queueName(mq);
      if (this.processQueueTable.has(key)) continue;
      // computePullFromWhere: the broker's committed offset; a group without one starts at 0 (the
      // broker answers 0 while the queue's first message is still in memory, ConsumerManageProcessor 4.9).
      if (this.group.reach(this.host, mq.brokerName) !== 'ok') continue; // "add new mq failed"
      // An orderly queue is locked first: "add a new mq failed, ..., because lock failed".
      if (this.group.config.orderly && !this.lock(mq)) continue;
      const pq = new ProcessQueue(mq, this.computePullFromWhere(mq));
      // 4.9.4 and older: lock(mq) ran before the ProcessQueue existed, so the new one is not marked
      // locked and waits for the next lockAll (ClientProfile.orderlyNewQueueLocked).
      pq.locked = this.group.config.orderly === true && this.orderlyNewQueueLocked;
      this.offsetTable.set(key, pq.nextOffset);
      this.processQueueTable.set(key, pq);
      changed = true;
      added++;
      this.pullMessage(pq);
    }
    return { changed, added };
  }

  /**
   * RebalancePushImpl.computePullFromWhere with CONSUME_FROM_LAST_OFFSET (the default): the offset
   * store's offset; CLUSTERING asks the broker (a group it has none for starts at 0: the broker
   * answers 0 while the queue's first message is still in memory, ConsumerManageProcessor 4.9);
   * BROADCASTING reads its host's offsets file (what it persisted before a restart too), and without
   * one starts at the queue's max offset (maxOffset).
   */
  private computePullFromWhere(mq: MessageQueue): number {
    const store = this.group.broker(mq.brokerName).store;
    if (this.group.broadcasting) return this.localOffsets.get(queueName(mq)) ?? store.maxOffset(mq.topic, mq.queueId);
    return Math.max(0, store.queryOffset(this.group.config.group, mq.topic, mq.queueId));
  }

  /** A dropped queue held by flow control: its checks so far stay counted; it checks no more. */
  private endFlowWait(pq: ProcessQueue): void {
    if (pq.flow === null) return;
    const c = this.flowCounters[pq.flow.limit];
    c.settled += this.checksOf(pq.flow.sinceMs, this.nowMs);
    c.waiting.delete(pq);
    pq.flow = null;
    this.armFlowWarning('count');
    this.armFlowWarning('span');
  }

  /** RebalanceImpl.lock: lockBatchMQ of one queue on its broker (false when the broker does not answer). */
  private lock(mq: MessageQueue): boolean {
    if (this.group.reach(this.host, mq.brokerName) !== 'ok') return false;
    return this.group.broker(mq.brokerName).store.tryLock(this.group.config.group, queueName(mq), this.clientId, this.nowMs);
  }

  /**
   * RebalanceImpl.lockAll: each broker's queues locked again; a queue the broker refused is marked
   * not locked; a broker that does not answer changes nothing (`lockBatchMQ exception`).
   */
  private lockAll(): void {
    for (const pq of this.processQueueTable.values()) {
      if (this.group.reach(this.host, pq.mq.brokerName) !== 'ok') continue;
      pq.locked = this.group.broker(pq.mq.brokerName).store.tryLock(this.group.config.group, queueName(pq.mq), this.clientId, this.nowMs);
    }
  }

  private persistOffset(mq: MessageQueue): void {
    const off = this.offsetTable.get(queueName(mq));
    if (this.group.broadcasting) {
      // LocalFileOffsetStore.persist: the instance's own file, whether a broker answers or not.
      if (off === undefined) return;
      this.localOffsets.set(queueName(mq), off);
      this.group.localOffsetPersisted(this, mq, off);
      return;
    }
    if (off === undefined || this.group.reach(this.host, mq.brokerName) !== 'ok') return;
    this.group.commitOffset(mq, off);
  }

  /**
   * DefaultLitePullConsumerImpl.commitAll (4.9.4): each held queue's consume offset (what the
   * application polled, AssignedMessageQueue.updateConsumeOffset) goes into the offset store
   * (updateOffset, not increase-only), which the 5 s persist and the shutdown send to the broker.
   * What was polled since the last commit is not in the store: a queue that moves, or an instance
   * that stops, leaves it to be consumed again. A queue not polled since it was assigned has no
   * consume offset (`consumerOffset is -1`): nothing is committed for it.
   */
  private commitAll(): void {
    for (const [key, off] of this.polledOffsets) if (this.processQueueTable.has(key)) this.offsetTable.set(key, off);
  }

  // ---- DefaultLitePullConsumerImpl.poll, called by the application's polling thread ----------
  //
  // The application polls and consumes on one thread (RocketMQ's LitePullConsumerSubscribe example:
  // `while (running) { poll(); ... }`; poll is synchronized, so one poll runs at a time anyway): each
  // poll first runs maybeAutoCommit, then takes one ConsumeRequest (one pull's messages, up to
  // pullBatchSize), removes its messages from the process queue and sets the queue's consume offset;
  // the application consumes them one after another and polls again. The commits follow the polls:
  // the first poll at or after each deadline commits and sets the next deadline 5 s from then, so
  // they drift against MQClientInstance's persist every 5 s (the time from the deadline to the next
  // poll: a batch still consuming, or a poll waiting for messages), and how far the broker's offsets
  // trail the consumption moves with that phase.

  /** DefaultLitePullConsumerImpl.poll(pollTimeoutMillis): maybeAutoCommit, then a request, or wait for one. */
  private poll(): void {
    if (this.nowMs >= this.nextAutoCommitDeadline) {
      this.commitAll();
      this.nextAutoCommitDeadline = this.nowMs + LITE_PULL_CONSUMER_DEFAULTS.autoCommitIntervalMillis;
    }
    if (this.takeConsumeRequest()) return;
    this.pollWait = this.after(LITE_PULL_CONSUMER_DEFAULTS.pollTimeoutMillis, () => {
      this.pollWait = null;
      this.poll();
    });
  }

  /**
   * consumeRequestCache.poll: the first request whose queue was not dropped; its messages leave the
   * process queue (ProcessQueue.removeMessage gives the offset: the lowest still cached, else past the
   * highest) and that offset is the queue's consume offset. False when none is waiting.
   */
  private takeConsumeRequest(): boolean {
    while (this.consumeRequestCache.length > 0) {
      const req = this.consumeRequestCache.shift()!;
      const { pq } = req;
      if (pq.dropped) continue;
      let offset = pq.queueOffsetMax + 1;
      for (const [o] of req.msgs) offset = pq.removeMessage(o);
      this.polledOffsets.set(queueName(pq.mq), offset);
      this.resumeAfterFlowControl(pq);
      this.consumeBatch(req, 0);
      return true;
    }
    return false;
  }

  /**
   * The application consumes a polled batch one message after another (the listener's time each; a
   * blocked listener holds the thread), then polls again. A lite pull consumer sends nothing back: a
   * message the application fails is not consumed again (its offset is committed all the same).
   */
  private consumeBatch(req: LiteConsumeRequest, i: number): void {
    if (i >= req.msgs.length) return this.poll();
    const l = this.group.listener;
    this.group.metrics.deliveries++;
    const ok = this.rng.next() >= l.laterShare + l.throwShare;
    this.at(Math.max(this.nowMs + l.processMs, this.blockedUntil()), () => {
      if (ok) this.group.countConsumed(req.pq.mq, req.msgs[i][0], this);
      else this.group.metrics.failed++;
      this.consumeBatch(req, i + 1);
    });
  }

  /** MQClientInstance.persistAllConsumerOffset (updateConsumerOffsetOneway per queue). */
  private persistAllConsumerOffset(): void {
    for (const pq of this.processQueueTable.values()) this.persistOffset(pq.mq);
  }

  // ---- the pull loop -------------------------------------------------------------------------

  private readonly pullFn = (pq: ProcessQueue): void => this.pullMessage(pq);

  private pullLater(pq: ProcessQueue, delayMs: number): void {
    this.post2(this.nowMs + delayMs, this.pullFn, pq, null);
  }

  /** DefaultMQPushConsumerImpl.pullMessage. */
  private pullMessage(pq: ProcessQueue): void {
    if (pq.dropped) return;
    // "pull message later because not locked in broker".
    if (this.group.config.orderly && !pq.locked) return this.pullLater(pq, PULL_LATER_NOT_LOCKED_MS);
    const limit = this.flowControlLimit(pq);
    if (limit !== null) return this.holdForFlowControl(pq, limit);
    const t = PUSH_CONSUMER_TIMING;
    const hop = this.net.latencyMs;
    const offset = pq.nextOffset;
    // Only CLUSTERING carries the offset to commit (PullSysFlag's commit offset flag).
    // Nor does a lite pull consumer's (DefaultLitePullConsumerImpl.pullSyncImpl: buildSysFlag(false, block, true, false, true)).
    const commitOffset = this.group.broadcasting || this.group.config.litePull ? 0 : this.offsetTable.get(queueName(pq.mq)) ?? 0;
    const version = this.subVersion;
    switch (this.group.reach(this.host, pq.mq.brokerName)) {
      case 'timeout':
        if (this.group.heldByHungBroker(this.host, pq.mq.brokerName)) return this.pullToHungBroker(pq, offset, commitOffset, version);
        return this.pullFailed(pq, t.consumerTimeoutMillisWhenSuspend);
      case 'refused':
        return this.pullFailed(pq, Math.min(TIMEOUTS.connectMs, 2 * hop));
    }
    this.kernel.schedule(this.nowMs + hop, Priority.network, () => this.processPull(pq, offset, commitOffset, version));
  }

  /**
   * A pull written to the channel of a broker whose host hung: the request waits in the broker's
   * socket and PullMessageProcessor handles it when the broker runs again, as a hung broker handles
   * every request that reached it (network.ts). The client waits for the answer up to
   * CONSUMER_TIMEOUT_MILLIS_WHEN_SUSPEND (30 s, DefaultMQPushConsumerImpl 4.9.4), then the pull fails
   * and the next one is pullTimeDelayMillsWhenException (1 s from 4.6.0, 3 s before) later; a broker that runs again before
   * then answers it (the messages it stored meanwhile, or long polling until one arrives).
   */
  private pullToHungBroker(pq: ProcessQueue, offset: number, commitOffset: number, version: number): void {
    const b = this.group.broker(pq.mq.brokerName);
    const hop = this.net.latencyMs;
    let state: 'waiting' | 'handled' | 'timed out' = 'waiting';
    this.kernel.schedule(this.nowMs + hop, Priority.network, () => {
      if (b.host.state !== 'hung') {
        // It ran again (or died) while the request was on the wire: the broker handles it now.
        state = 'handled';
        return this.processPull(pq, offset, commitOffset, version);
      }
      const inc = b.incarnation;
      b.host.hold(() => {
        if (state !== 'waiting' || b.incarnation !== inc) return;
        state = 'handled';
        this.processPull(pq, offset, commitOffset, version);
      });
    });
    this.after(PUSH_CONSUMER_TIMING.consumerTimeoutMillisWhenSuspend, () => {
      if (state !== 'waiting') return;
      state = 'timed out';
      this.group.metrics.pullFailures++;
      this.pullLater(pq, this.pullRetryDelayMs);
    });
  }

  /** Which of pullMessage's flow controls holds the queue back, if any (the size threshold is not modelled). */
  private flowControlLimit(pq: ProcessQueue): FlowLimit | null {
    if (pq.cached.size > this.settings.pullThresholdForQueue) return 'count';
    if (pq.maxSpan() > this.settings.consumeConcurrentlyMaxSpan) return 'span';
    return null;
  }

  /**
   * The client checks again every 50 ms while the queue is over a threshold; only consumption lowers
   * it, so the model waits for the consumption that brings it under and pulls at the next 50 ms tick,
   * counting the checks the client made: exact, without a task every 50 ms.
   */
  private holdForFlowControl(pq: ProcessQueue, limit: FlowLimit): void {
    pq.flow = { sinceMs: this.nowMs, limit };
    this.flowCounters[limit].waiting.add(pq);
    this.armFlowWarning(limit);
  }

  /** After a consumption: a queue held by flow control pulls at the first check that finds it under. */
  private resumeAfterFlowControl(pq: ProcessQueue): void {
    const w = pq.flow;
    if (w === null || this.flowControlLimit(pq) !== null) return;
    const k = this.checksOf(w.sinceMs, this.nowMs);
    pq.flow = null;
    const c = this.flowCounters[w.limit];
    c.waiting.delete(pq);
    c.settled += k;
    this.group.metrics.flowControlled += k;
    this.post2(w.sinceMs + k * CONSUMER_DEFAULTS.flowControlDelayMs, this.pullFn, pq, null);
    this.armFlowWarning(w.limit);
  }

  /** Checks a wait from sinceMs has made by atMs (the first at sinceMs). */
  private checksOf(sinceMs: number, atMs: number): number {
    return atMs < sinceMs ? 0 : Math.floor((atMs - sinceMs) / CONSUMER_DEFAULTS.flowControlDelayMs + 1e-9) + 1;
  }

  private flowChecks(limit: FlowLimit, atMs: number): number {
    const c = this.flowCounters[limit];
    let n = c.settled;
    for (const pq of c.waiting) n += this.checksOf(pq.flow!.sinceMs, atMs);
    return n;
  }

  /**
   * The warning is printed at the checks numbered 1, 1001, 2001 ... of the instance's counter
   * (`if ((queueFlowControlTimes++ % 1000) == 0)`, printing the incremented value), for the queue whose
   * check it is: the time of the next is found from the queues waiting now, and found again whenever
   * one starts or ends a wait.
   */
  private armFlowWarning(limit: FlowLimit): void {
    const c = this.flowCounters[limit];
    c.probe?.cancel();
    c.probe = null;
    if (c.waiting.size === 0) return;
    const target = c.lastLogged === 0 ? 1 : c.lastLogged + CONSUMER_DEFAULTS.flowControlLogEvery;
    const step = CONSUMER_DEFAULTS.flowControlDelayMs;
    let lo = this.nowMs;
    if (this.flowChecks(limit, lo) < target) {
      let hi = lo + step * (target - this.flowChecks(limit, lo) + 1);
      for (let i = 0; i < 60 && hi - lo > 1e-6; i++) {
        const mid = (lo + hi) / 2;
        if (this.flowChecks(limit, mid) >= target) hi = mid;
        else lo = mid;
      }
      lo = hi;
    }
    c.probe = this.at(lo, () => {
      c.probe = null;
      let by: ProcessQueue | null = null;
      for (const pq of c.waiting) {
        const r = (lo - pq.flow!.sinceMs) / step;
        if (by === null || Math.abs(r - Math.round(r)) < 1e-6) by = pq;
      }
      c.lastLogged = target;
      if (by !== null) this.logFlowControl(by, limit, target);
      this.armFlowWarning(limit);
    });
  }

  private pullFailed(pq: ProcessQueue, afterMs: number): void {
    this.after(afterMs, () => {
      this.group.metrics.pullFailures++;
      this.pullLater(pq, this.pullRetryDelayMs);
    });
  }

  /** PullMessageProcessor on the broker, then the reply's way back; long polling while nothing is new. */
  private processPull(pq: ProcessQueue, offset: number, commitOffset: number, version: number): void {
    const b = this.group.broker(pq.mq.brokerName);
    const hop = this.net.latencyMs;
    if (!b.alive || b.host.state !== 'up') return this.pullFailed(pq, PUSH_CONSUMER_TIMING.consumerTimeoutMillisWhenSuspend - hop);
    const { topic, queueId } = pq.mq;
    if (this.group.filtering && topic === this.group.config.topic) return this.processFilteredPull(pq, offset, commitOffset, version);
    if (commitOffset > 0) this.group.commitOffset(pq.mq, commitOffset);
    const reply = (): void => {
      const max = b.store.maxOffset(topic, queueId);
      const found: Array<[number, StoredMessage]> = [];
      for (let o = Math.max(offset, b.store.minOffset(topic, queueId)); o < max && found.length < this.settings.pullBatchSize; o++) {
        const msg = b.store.message(topic, queueId, o);
        if (msg !== null) found.push([o, msg]);
      }
      // An offset below a retry queue's kept messages (committed meanwhile) moves on to the first kept one.
      const next = found.length > 0 ? found[found.length - 1][0] + 1 : Math.min(Math.max(offset, 0), max);
      this.at(this.nowMs + hop, () => this.onPullResult(pq, found, next));
    };
    if (offset < b.store.maxOffset(topic, queueId)) return reply();
    let answered = false;
    const release = b.store.hold(topic, queueId, () => {
      if (!answered) {
        answered = true;
        reply();
      }
      return true;
    });
    this.kernel.schedule(this.nowMs + PUSH_CONSUMER_TIMING.brokerSuspendMaxTimeMillis, Priority.process, () => {
      if (answered) return;
      answered = true;
      release();
      if (!b.alive) return this.pullFailed(pq, PUSH_CONSUMER_TIMING.consumerTimeoutMillisWhenSuspend - PUSH_CONSUMER_TIMING.brokerSuspendMaxTimeMillis);
      reply();
    });
  }

  /**
   * A pull of the topic of a group that filters by tags (PullMessageProcessor 4.9.4, without the
   * subscription flag: postSubscriptionWhenPull is false by default, so the broker filters by the
   * group's booked subscription, not by the puller's):
   * - no subscription booked: SUBSCRIPTION_NOT_EXIST; one older than the pull's version (the puller's
   *   heartbeat has not arrived): `The broker's subscription is not latest`, SUBSCRIPTION_NOT_LATEST.
   *   The client takes both as an exception and pulls again pullTimeDelayMillsWhenException later.
   * - DefaultMessageStore.getMessage scans the consume queue from the offset, skipping the entries
   *   whose tags code the subscription does not match (at most maxFilterMessageCount entries), and
   *   answers the next offset past what it scanned: nothing matched, NO_MATCHED_MESSAGE
   *   (PULL_RETRY_IMMEDIATELY), so the consumer moves past the skipped messages.
   * - A held pull is woken by a message that matches (PullRequestHoldService.notifyMessageArriving
   *   checks the tags code); one that does not match waits for the service's next 5 s check.
   */
  private processFilteredPull(pq: ProcessQueue, offset: number, commitOffset: number, version: number): void {
    const b = this.group.broker(pq.mq.brokerName);
    const hop = this.net.latencyMs;
    const { topic, queueId } = pq.mq;
    const { group } = this.group.config;
    const booked = b.store.groupSubscription(group, topic);
    if (booked === undefined) return this.pullFailed(pq, hop);
    if (booked.version < version) {
      b.writeConsumerLine('WARN', 'PullMessageThread_1', renderMessage('pull-failed/broker-subscription-not-latest', { group, subString: booked.sub.subString }));
      return this.pullFailed(pq, hop);
    }
    if (commitOffset > 0) this.group.commitOffset(pq.mq, commitOffset);
    const batch = this.settings.pullBatchSize;
    const reply = (): void => {
      // Woken later, the request runs again (executeRequestWhenWakeup): the booked subscription then.
      const filter = b.store.groupSubscription(group, topic)?.sub ?? booked.sub;
      const max = b.store.maxOffset(topic, queueId);
      const found: Array<[number, StoredMessage]> = [];
      const skipped: number[] = [];
      let o = Math.max(offset, 0);
      const end = Math.min(max, o + maxFilterEntries(batch));
      for (; o < end; o++) {
        if (found.length >= batch) break; // isTheBatchFull: the entry is not scanned
        const msg = b.store.message(topic, queueId, o);
        if (msg === null) continue;
        if (!matchedByConsumeQueue(filter, b.store.tagsCodeAt(topic, queueId, o))) skipped.push(o);
        else found.push([o, msg]);
      }
      const next = o > offset ? o : Math.min(Math.max(offset, 0), max);
      this.at(this.nowMs + hop, () => this.onFilteredPullResult(pq, found, skipped, next));
    };
    if (offset < b.store.maxOffset(topic, queueId)) return reply();
    let answered = false;
    let checkArmed = false;
    const release = b.store.hold(topic, queueId, (tagsCode) => {
      if (answered) return true;
      const filter = b.store.groupSubscription(group, topic)?.sub ?? booked.sub;
      if (matchedByConsumeQueue(filter, tagsCode)) {
        answered = true;
        reply();
        return true;
      }
      // checkHoldRequest: every 5 s the held pulls of a queue with messages past them are woken (no tags code: matched).
      if (!checkArmed) {
        checkArmed = true;
        const atMs = b.bootMs + (Math.floor((this.nowMs - b.bootMs) / HOLD_CHECK_INTERVAL_MS) + 1) * HOLD_CHECK_INTERVAL_MS;
        this.kernel.schedule(atMs, Priority.process, () => {
          if (answered || !b.alive) return;
          answered = true;
          release();
          reply();
        });
      }
      return false;
    });
    this.kernel.schedule(this.nowMs + PUSH_CONSUMER_TIMING.brokerSuspendMaxTimeMillis, Priority.process, () => {
      if (answered) return;
      answered = true;
      release();
      if (!b.alive) return this.pullFailed(pq, PUSH_CONSUMER_TIMING.consumerTimeoutMillisWhenSuspend - PUSH_CONSUMER_TIMING.brokerSuspendMaxTimeMillis);
      reply();
    });
  }

  /**
   * PullCallback.onSuccess: FOUND caches and submits the messages; NO_NEW_MSG pulls again at once. A
   * lite pull instance's PullTaskImpl puts a FOUND pull's messages in the process queue and its
   * consumeRequestCache as one request, which a waiting poll takes at once, and pulls again at once.
   */
  private onPullResult(pq: ProcessQueue, found: Array<[number, StoredMessage]>, next: number): void {
    if (pq.dropped) return;
    pq.nextOffset = next;
    for (const [o, msg] of found) {
      pq.cached.set(o, msg);
      if (o > pq.queueOffsetMax) pq.queueOffsetMax = o;
      if (!this.group.config.litePull) this.consumeRequests.push({ pq, offset: o, msg });
    }
    if (this.group.config.litePull) {
      if (found.length > 0) this.consumeRequestCache.push({ pq, msgs: found });
      if (this.pollWait !== null && this.consumeRequestCache.length > 0) {
        this.pollWait.cancel();
        this.pollWait = null;
        this.takeConsumeRequest();
      }
    } else this.dispatchConsume();
    this.pullMessage(pq);
  }

  /**
   * A filtered pull's result: PullAPIWrapper.processPullResult filters FOUND messages again by the
   * instance's own subscription (its tagsSet, by the tag itself); NO_MATCHED_MSG and NO_NEW_MSG move the
   * offset to the next one and, while nothing of the queue is being consumed, into the offset store
   * (correctTagsOffset), so the skipped messages are committed as consumed.
   */
  private onFilteredPullResult(pq: ProcessQueue, found: Array<[number, StoredMessage]>, skipped: number[], next: number): void {
    if (pq.dropped) return;
    const store = this.group.broker(pq.mq.brokerName).store;
    const own = this.config.subscription;
    let kept = found;
    if (own !== undefined && own.tags.size > 0) {
      kept = [];
      for (const f of found) {
        if (matchedOnClient(own, store.tagAt(pq.mq.topic, pq.mq.queueId, f[0]))) kept.push(f);
        else skipped.push(f[0]);
      }
    }
    this.group.countSkipped(pq.mq, store, skipped, next);
    if (found.length === 0 && pq.cached.size === 0) {
      const key = queueName(pq.mq);
      if (next > (this.offsetTable.get(key) ?? -1)) this.offsetTable.set(key, next);
    }
    this.onPullResult(pq, kept, next);
  }

  // ---- ConsumeMessageConcurrentlyService ---------------------------------------------------

  private dispatchConsume(): void {
    // Only consumeThreadMin threads ever run: the pool's queue is unbounded.
    const threads = Math.min(this.settings.consumeThreadMin, this.settings.consumeThreadMax);
    while (this.busyThreads < threads && this.consumeHead < this.consumeRequests.length) {
      const req = this.consumeRequests[this.consumeHead]!;
      this.consumeRequests[this.consumeHead++] = undefined;
      if (this.consumeHead > 1024 && this.consumeHead * 2 > this.consumeRequests.length) {
        this.consumeRequests = this.consumeRequests.slice(this.consumeHead);
        this.consumeHead = 0;
      }
      if (req.pq.dropped) continue; // ConsumeRequest.run: "the message queue not be able to consume, because it's dropped"
      this.busyThreads++;
      const l = this.group.listener;
      this.group.metrics.deliveries++;
      const u = this.rng.next();
      const ok = u >= l.laterShare + l.throwShare;
      this.post2(Math.max(this.nowMs + l.processMs, this.blockedUntil()), this.consumedFn, req, ok);
    }
  }

  /** The end of the listener block a call entering now waits for, else 0. */
  private blockedUntil(): number {
    for (const b of this.config.blocks ?? []) if (this.nowMs >= b.atMs && this.nowMs < b.untilMs) return b.untilMs;
    return 0;
  }

  private readonly consumedFn = (req: ConsumeRequest, ok: boolean): void => this.consumed(req, ok);

  /** ConsumeRequest.run's end and processConsumeResult (CLUSTERING). */
  private consumed(req: ConsumeRequest, ok: boolean): void {
    this.busyThreads--;
    const m = this.group.metrics;
    const { pq } = req;
    if (ok) this.group.countConsumed(pq.mq, req.offset, this);
    else m.failed++;
    // A dropped queue's result is not processed: its offset stays, the next owner consumes it again.
    if (!pq.dropped) {
      // BROADCASTING drops a failed message (`BROADCASTING, the message consume failed, drop it`): no send back.
      if (!ok && !this.group.broadcasting && !this.sendMessageBack(req)) {
        // The send back failed: consume it again here in 5 s, with reconsumeTimes + 1.
        req.msg = { reconsumeTimes: req.msg.reconsumeTimes + 1 };
        this.after(CONSUMER_DEFAULTS.sendBackFailedRetryMs, () => {
          if (pq.dropped) return;
          this.consumeRequests.push(req);
          this.dispatchConsume();
        });
      } else {
        const offset = pq.removeMessage(req.offset);
        const key = queueName(pq.mq);
        if (offset > (this.offsetTable.get(key) ?? -1)) this.offsetTable.set(key, offset);
        this.resumeAfterFlowControl(pq);
      }
    }
    this.dispatchConsume();
  }

  private sendMessageBack(req: ConsumeRequest): boolean {
    if (this.group.reach(this.host, req.pq.mq.brokerName) !== 'ok') return false;
    this.group.sendMessageBack(req.pq.mq.brokerName, req.msg);
    return true;
  }

  private logFlowControl(pq: ProcessQueue, limit: FlowLimit, times: number): void {
    const { mq } = pq;
    const pullRequest = `PullRequest [consumerGroup=${this.group.config.group}, messageQueue=MessageQueue [topic=${mq.topic}, brokerName=${mq.brokerName}, queueId=${mq.queueId}], nextOffset=${pq.nextOffset}]`;
    const text =
      limit === 'count'
        ? renderMessage('flow-control/cached-count', {
            threshold: this.settings.pullThresholdForQueue,
            minOffset: pq.minOffset(),
            maxOffset: pq.queueOffsetMax,
            count: pq.cached.size,
            sizeMiB: 0,
            pullRequest,
            flowControlTimes: times,
          })
        : renderMessage('flow-control/span', { minOffset: pq.minOffset(), maxOffset: pq.queueOffsetMax, maxSpan: pq.maxSpan(), pullRequest, flowControlTimes: times });
    this.clientLog.write('WARN', 'PullMessageService', 'RocketmqClient', text);
  }
}

export interface ScenarioConsumerInstance {
  host: string;
  /** Default: the host's address from its other processes, else a 10.251.x.y address. */
  ip?: string;
  /** Start, model ms (default 1000 plus a small stagger). */
  startAtMs?: number;
  /** The instance stops then: `shutdown` (offsets persisted, unregistered; default) or `kill` (-9). */
  stopAtMs?: number;
  stop?: 'shutdown' | 'kill';
  /** Its listener blocks in these stretches (a listener-block: every call entering waits to the end). */
  blocks?: ListenerBlock[];
  /** Its own subscription expression (default: the group's). */
  subscription?: string;
}

/** A push consumer group (DefaultMQPushConsumer's fields, consumed concurrently, CLUSTERING). */
export interface ScenarioConsumerGroup extends ConsumerSettings {
  group: string;
  topic: string;
  version: string;
  /** The group's subscription expression of its topic (`*`, `TagA || TagB`); its instances' unless they set their own. Default `*`. */
  subscription?: string;
  /** CLUSTERING (default): the instances share the queues; BROADCASTING: each instance consumes every queue, offsets kept by the instance. */
  messageModel?: 'CLUSTERING' | 'BROADCASTING';
  listener: ConsumerListener;
  instances: ScenarioConsumerInstance[];
  /** Offset resets by time (`mqadmin resetOffsetByTime`), model ms. */
  resets?: OffsetReset[];
  /**
   * `orderly`: MessageListenerOrderly's queue locks (its messages are still consumed concurrently);
   * `pop`: a 5.x gRPC consumer (its retries at the pop backoff; a SimpleConsumer's after `invisibleMs`);
   * `litePull`: DefaultLitePullConsumer's offsets (committed every 5 s, at a poll). Default `concurrently`.
   */
  consumeMode?: 'concurrently' | 'orderly' | 'pop' | 'litePull';
  /**
   * A pop group of 5.x gRPC SimpleConsumers: the invisible time of their receives, ms (a message not
   * acknowledged comes back after it). Absent: a push consumer's retry policy backoff.
   */
  invisibleMs?: number;
}

/** The consumer groups of a scenario, their instances placed on their hosts and started at their times. */
export function consumerGroupsOf(
  groups: ScenarioConsumerGroup[],
  topics: ReadonlyArray<{ name: string; queues?: number; brokers?: string[] }>,
  masters: string[],
  kernel: Kernel,
  net: Network,
  brokers: Map<string, Broker>,
  sink: LogSink,
  zone: Zone,
  random: RandomSource,
  nameServers: NameServer[] = [],
): ConsumerGroup[] {
  return groups.map((g, gi) => {
    parseVersion(g.version);
    const t = topics.find((x) => x.name === g.topic);
    assert(t !== undefined, `consumer group ${g.group} reads unknown topic ${g.topic}`);
    const queues: MessageQueue[] = [];
    for (const brokerName of t.brokers ?? masters) for (let q = 0; q < (t.queues ?? 4); q++) queues.push({ topic: t.name, brokerName, queueId: q });
    // The filter and the versions of subscriptions matter only when some instance names tags.
    const filtering = [g.subscription, ...g.instances.map((x) => x.subscription)].some((x) => x !== undefined && !parseSubscription(x).all);
    const broadcasting = g.messageModel === 'BROADCASTING';
    assert(!(broadcasting && (g.consumeMode === 'orderly' || g.consumeMode === 'pop')), `consumer group ${g.group}: ${g.consumeMode === 'orderly' ? 'an orderly' : 'a pop'} BROADCASTING group is not modelled`);
    const group = new ConsumerGroup(kernel, net, { group: g.group, topic: g.topic, version: g.version, settings: consumerSettings(g, g.consumeMode === 'litePull'), listener: g.listener, queues, brokers, resets: g.resets, nameServers, orderly: g.consumeMode === 'orderly', litePull: g.consumeMode === 'litePull', pop: g.consumeMode === 'pop', ...(g.consumeMode === 'pop' && g.invisibleMs !== undefined ? { invisibleMs: g.invisibleMs } : {}), filtering, broadcasting });
    g.instances.forEach((inst, i) => {
      const host = net.host(inst.host);
      const pid = 30000 + gi * 97 + i * 7;
      const subscription = parseSubscription(inst.subscription ?? g.subscription);
      const c = new PushConsumer(net, host, group, { clientId: `${host.ip}@${pid}`, pid, stopAtMs: inst.stopAtMs, stop: inst.stop, blocks: inst.blocks, subscription }, sink, zone, random.stream(`consumer:${g.group}:${inst.host}:${i}`), random.stream(`rebalance:${g.group}:${inst.host}:${i}`));
      group.instances.push(c);
      group.metrics.instances.push(inst.host);
      kernel.schedule(inst.startAtMs ?? 1000 + ((i * 89) % 1000), Priority.process, () => {
        if (!c.alive && host.state === 'up') c.start();
      });
    });
    return group;
  });
}
