// Behaviours that change between RocketMQ releases and that more than one part of rmq-diag reads
// (the rules, the model, replay's inference and what-ifs): each written once, with the source that
// shows it. A fact holds for the releases from `since` (inclusive) until `until` (exclusive).

import type { VersionFact } from './versions.js';

/**
 * A broker's VIP channel address: its port minus 2 (MixAll.brokerVIPChannel, 4.x and 5.x; the
 * broker's fastRemotingServer listens there). Clients that send through it (vipChannelEnabled, true
 * by default up to 4.5.0) name that address in what they log of a send's request.
 */
export function brokerVipAddr(addr: string): string {
  const i = addr.lastIndexOf(':');
  return `${addr.slice(0, i)}:${Number(addr.slice(i + 1)) - 2}`;
}

/** Client (and a broker's own remoting client) behaviours. */
export const CLIENT = {
  /**
   * NettyRemotingClient.invokeSync closes the channel after a timeout: NettyClientConfig's
   * clientCloseSocketIfTimeout is hard-coded false up to 4.9.0; from 4.9.1 it is the system property
   * com.rocketmq.remoting.client.closeSocketIfTimeout, true by default (NettySystemConfig).
   */
  closeSocketIfTimeout: { since: '4.9.1', until: null },
  /**
   * NettyRemotingClient.scanAvailableNameSrv connects every NameServer of the list every
   * connectTimeoutMillis (3 s), so a channel closed after a timeout is opened again to a host that
   * still accepts connections; 5.3.0's MQClientInstance turns the scan off.
   */
  scanAvailableNameSrv: { since: '5.0.0', until: '5.3.0' },
  /**
   * MQClientAPIImpl.sendMessageAsync catches what invokeAsync throws (a connection that cannot be
   * made) and sends the request again through onExceptionImpl from 4.9.3; before, the exception
   * leaves sendKernelImpl, and sendDefaultImpl (one attempt for an asynchronous send) ends the send
   * with `Send [1] times, still failed`, which DefaultMQProducerImpl's async sender executor gives to
   * the SendCallback (gen-713: a 4.7.0 client, `AsyncSenderExecutor_2`). From 4.9.3 (ISSUE #3556, the
   * catch around invokeAsync) such a request is retried in the callback as a failed answer is, up to
   * retryTimesWhenSendAsyncFailed (2 by default).
   */
  asyncRetriesUnsent: { since: '4.9.3', until: null },
  /** DefaultMQProducer.retryResponseCodes holds SYSTEM_BUSY (2) from 5.3.0: a busy reply is retried on another broker. */
  retriesSystemBusy: { since: '5.3.0', until: null },
  /** ... and code 1500 (GO_AWAY) from 5.3.1. */
  retriesGoAway: { since: '5.3.1', until: null },
  /** DefaultMQProducer.sendMsgMaxTimeoutPerRequest caps one attempt's share of sendMsgTimeout (5.3.3, ISSUE #8997). */
  sendMsgMaxTimeoutPerRequest: { since: '5.3.3', until: null },
  /** MQFaultStrategy up to 4.7.1: a retry's first pick prefers the broker that just failed (lastBrokerName). */
  faultPrefersLastBroker: { since: null, until: '4.8.0' },
  /**
   * MQFaultStrategy rewritten in 5.1.4: new latency tables (FAULT_TABLES_514), a failed attempt
   * isolates its broker for 10 s instead of 10 min, a broker error marks it unreachable, and a
   * retry starts from a random queue.
   */
  faultStrategy514: { since: '5.1.4', until: null },
} as const satisfies Record<string, VersionFact>;

/**
 * MQFaultStrategy's tables (client latency/MQFaultStrategy.java): with sendLatencyFaultEnable a
 * broker is avoided for notAvailable[i] after an attempt that took at least latencyMax[i] (the
 * highest such i). An attempt that failed with an exception is counted as isolationLatencyMs
 * (`updateFaultItem(broker, latency, isolation=true)` computes `isolation ? 30000 : latency`).
 */
export interface FaultTables {
  readonly latencyMax: readonly number[];
  readonly notAvailable: readonly number[];
  readonly isolationLatencyMs: number;
}

/**
 * 4.x to 5.1.3 (rocketmq-all-4.9.4 and 5.1.3 MQFaultStrategy): any RemotingException (a timeout
 * included), MQClientException or MQBrokerException isolates (DefaultMQProducerImpl.sendDefaultImpl),
 * and 30000 ms maps to the last step: the broker is avoided for 600 s.
 */
export const FAULT_TABLES_4X: FaultTables = {
  latencyMax: [50, 100, 550, 1000, 2000, 3000, 15000],
  notAvailable: [0, 0, 30000, 60000, 120000, 180000, 600000],
  isolationLatencyMs: 30000,
};

/**
 * 5.1.4+ (rocketmq-all-5.1.4 and 5.3.3 MQFaultStrategy): isolation counts as 10000 ms, which maps
 * to 10 s; an MQClientException no longer isolates (its latency alone counts).
 */
export const FAULT_TABLES_514: FaultTables = {
  latencyMax: [50, 100, 550, 1800, 3000, 5000, 15000],
  notAvailable: [0, 0, 2000, 5000, 6000, 10000, 30000],
  isolationLatencyMs: 10000,
};

/** MQFaultStrategy.computeNotAvailableDuration. */
export function notAvailableDuration(t: FaultTables, latencyMs: number): number {
  for (let i = t.latencyMax.length - 1; i >= 0; i--) if (latencyMs >= t.latencyMax[i]) return t.notAvailable[i];
  return 0;
}

/** How long a broker is avoided after an attempt that failed with an exception (isolation). */
export function isolationMs(t: FaultTables): number {
  return notAvailableDuration(t, t.isolationLatencyMs);
}

/** Broker behaviours. */
export const SERVER = {
  /** BrokerConfig.sendMessageThreadPoolNums: 1 in 4.4.0-4.9.0, min(cores, 4) from 4.9.1. */
  sendThreadsFromCores: { since: '4.9.1', until: null },
  /** CommitLog up to 4.9.0 logs a group commit's flush timeout and a slave's transfer timeout on the send path. */
  logsSyncTimeouts: { since: null, until: '4.9.1' },
  /** 5.x BrokerFastFailure dumps a jstack after a TIMEOUT_CLEAN_QUEUE purge (at most every 15 s). */
  jstackOnClean: { since: '5.0.0', until: null },
  /** SendMessageProcessor answers OS_PAGE_CACHE_BUSY (`[PC_SYNCHRONIZED]`) with SYSTEM_BUSY from 5.3.0, SYSTEM_ERROR before. */
  pcSynchronizedBusy: { since: '5.3.0', until: null },
} as const satisfies Record<string, VersionFact>;

/**
 * The Java client's defaults that more than one layer reads (rules' settings, the diagnosis's assumed
 * values, the model, the replay reports): the same in every release from 4.5.0 to 5.3.3.
 * ClientConfig: pollNameServerInterval, heartbeatBrokerInterval (30 s), mqClientApiTimeout (3 s);
 * DefaultMQProducer: sendMsgTimeout (3 s), retryTimesWhenSendFailed and retryTimesWhenSendAsyncFailed (2).
 */
export const CLIENT_DEFAULTS = {
  pollNameServerIntervalMs: 30000,
  heartbeatBrokerIntervalMs: 30000,
  mqClientApiTimeoutMs: 3000,
  sendMsgTimeoutMs: 3000,
  retryTimesWhenSendFailed: 2,
  retryTimesWhenSendAsyncFailed: 2,
} as const;

/**
 * The Java push consumer's defaults that the consumer rules read (their settings, their advice), the
 * same from 4.x to 5.3 (DefaultMQPushConsumer, DefaultMQPushConsumerImpl, ConsumeMessage*Service):
 * - maxReconsumeTimes: -1 means 16 for a concurrently consumed message (getMaxReconsumeTimes); the
 *   broker sends a failed message to %DLQ%group once its reconsumeTimes reaches it
 *   (SendMessageProcessor.consumerSendMsgBack in 4.x, AbstractSendMessageProcessor in 5.x: `>=`);
 *   an orderly consumer's -1 means Integer.MAX_VALUE: it retries the message in place for ever.
 * - pullThresholdForQueue 1000 messages, pullThresholdSizeForQueue 100 MiB, consumeConcurrentlyMaxSpan
 *   2000 offsets (not checked for orderly queues): over one, the queue's next pull waits
 *   PULL_TIME_DELAY_MILLS_WHEN_FLOW_CONTROL (50 ms); the warning is printed once every 1000 times.
 * - pullTimeDelayMillsWhenException: a pull that failed is tried again after it (PULL_RETRY_DELAY, by release).
 * - A message whose send back failed is consumed again locally after 5000 ms (submitConsumeRequestLater).
 * - suspendCurrentQueueTimeMillis 1000 ms: an orderly queue whose listener did not return SUCCESS waits it.
 * - consumeThreadMin 20: the consume pool's queue is unbounded, so it never grows past consumeThreadMin.
 * - An OFFSET_ILLEGAL pull's nextBeginOffset is persisted 10000 ms later (`fix the pull request offset`).
 * - consumeThreadMax 20, pullBatchSize 32 messages a pull, consumeMessageBatchMaxSize 1 message a
 *   listener call (DefaultMQPushConsumer, 4.9.x and 5.x).
 */
export const CONSUMER_DEFAULTS = {
  maxReconsumeTimes: 16,
  pullThresholdForQueue: 1000,
  pullThresholdSizeForQueueMiB: 100,
  consumeConcurrentlyMaxSpan: 2000,
  flowControlDelayMs: 50,
  flowControlLogEvery: 1000,
  sendBackFailedRetryMs: 5000,
  suspendCurrentQueueTimeMillis: 1000,
  consumeThreadMin: 20,
  offsetFixDelayMs: 10000,
  consumeThreadMax: 20,
  pullBatchSize: 32,
  consumeMessageBatchMaxSize: 1,
} as const;

/**
 * The pause before a push consumer pulls a queue again after its pull failed
 * (DefaultMQPushConsumerImpl.executePullRequestLater): up to 4.5.2 the constant
 * PULL_TIME_DELAY_MILLS_WHEN_EXCEPTION, 3000 ms; from 4.6.0 ClientConfig.pullTimeDelayMillsWhenException,
 * 1000 ms by default, which DefaultMQPushConsumerImpl's constructor takes over its own field's 3000
 * (4.6.0-5.3.3; the clients print it in their ClientConfig line).
 */
export const PULL_RETRY_DELAY = { untilMs: 3000, configurableSince: '4.6.0', defaultMs: 1000 } as const;

/**
 * A DefaultLitePullConsumer pulls with its own request code from 5.0.0 (RequestCode.LITE_PULL_MESSAGE
 * = 361; MQClientAPIImpl.pullMessage picks it when the sysFlag has PullSysFlag's lite pull flag, 5.0.0
 * to 5.3.3); brokers before 5.0.0 do not register it and answer REQUEST_CODE_NOT_SUPPORTED (3,
 * NettyRemotingAbstract.processRequestCommand, 4.9.7). Seen in gen-20261210: a 5.3.0 lite pull
 * consumer against 4.9.7 brokers consumed nothing.
 */
export const LITE_PULL = { requestCode: 361, since: '5.0.0' } as const;

/** The words for PULL_RETRY_DELAY, for a text that does not know the client's release. */
export const PULL_RETRY_DELAY_TEXT = `${PULL_RETRY_DELAY.defaultMs / 1000} s by default (pullTimeDelayMillsWhenException; ${PULL_RETRY_DELAY.untilMs / 1000} s, fixed, before ${PULL_RETRY_DELAY.configurableSince})`;

/**
 * DefaultLitePullConsumer's defaults (4.9.4; the same from 4.6.0 to 4.9.x):
 * - pullBatchSize 10 messages a pull; each FOUND pull is one ConsumeRequest of consumeRequestCache,
 *   and one poll hands one ConsumeRequest to the application (DefaultLitePullConsumerImpl.poll).
 * - autoCommitIntervalMillis 5000: with autoCommit, poll first runs maybeAutoCommit, which commits
 *   (commitAll: each queue's consume offset into the offset store) when now >= nextAutoCommitDeadline
 *   and sets the deadline to now + 5000; nextAutoCommitDeadline starts at -1 (the first poll commits).
 *   The commits so follow the application's polls, not a timer of their own.
 * - pollTimeoutMillis 5000: poll() waits this long for a ConsumeRequest before it returns nothing.
 */
export const LITE_PULL_CONSUMER_DEFAULTS = {
  pullBatchSize: 10,
  autoCommitIntervalMillis: 5000,
  pollTimeoutMillis: 5000,
} as const;

/**
 * The 5.x proxy's defaults for its gRPC consumers (ProxyConfig, 5.0-5.3.3):
 * - minInvisibleTimeMillsForRecv: the shortest invisible time a receive may ask (ReceiveMessageActivity
 *   refuses a shorter one with code 40011 `the invisibleTime is too small`), so a message the pop
 *   revive puts back was received at least this long before;
 * - defaultInvisibleTimeMills: the invisible time of a receive that asks none.
 * A SimpleConsumer's own invisible time is an argument of each receive() call: no log prints it.
 */
export const PROXY_DEFAULTS = {
  minInvisibleTimeMillsForRecv: 10_000,
  defaultInvisibleTimeMills: 60_000,
} as const;

/**
 * BrokerFastFailure.start: cleanExpiredRequest at a fixed rate, 1 s after the start and every 10 ms
 * (`scheduleAtFixedRate(..., 1000, 10, TimeUnit.MILLISECONDS)`, 4.x and 5.x, read at 4.9.4 and 5.3.3).
 */
export const FAST_FAILURE = { firstDelayMs: 1000, periodMs: 10 } as const;

/**
 * How far past waitTimeMillsInSendQueue a busy reply's wait goes while the broker still runs:
 * BrokerFastFailure.cleanExpiredRequest runs every 10 ms on a scheduled thread of its own (4.x and
 * 5.x), so a steady backlog answers its heads within about 10 ms of the limit, and a loaded JVM
 * delays that thread by some tens of ms more (safepoints, a busy CPU: gen-239, a cold 5.1.0 broker
 * answered 223 ms behind a 200 ms put). A wait beyond the limit plus this held the cleaner itself:
 * the broker stood still (a GC pause, CPU starvation, a frozen process). Rule broker-busy and the
 * diagnosis's busy faults both read it.
 */
export const BUSY_STALL_MARGIN_MS = 100;

/**
 * The client's threads that run an asynchronous send's work (4.x and 5.x; rules, inference and the
 * model read them): DefaultMQProducerImpl's default async sender executor runs sendDefaultImpl for
 * send(msg, SendCallback) (`new Thread(r, "AsyncSenderExecutor_" + n)`, 5.x ThreadFactoryImpl), and
 * NettyRemotingClient's callback executor runs an InvokeCallback (`NettyClientPublicExecutor_` + n).
 * A SendCallback's onException runs on one of them; a failure an application caught on another
 * thread was a synchronous send's.
 */
export const CLIENT_THREADS = {
  asyncSender: 'AsyncSenderExecutor_',
  callback: 'NettyClientPublicExecutor_',
} as const;

/** Whether a record's thread is one that runs a SendCallback (CLIENT_THREADS). */
export function isSendCallbackThread(thread: string | null): boolean {
  return thread !== null && (thread.startsWith(CLIENT_THREADS.asyncSender) || thread.startsWith(CLIENT_THREADS.callback));
}

/**
 * BrokerController's ConsumerOffsetManager.persist (consumerOffset.json): every
 * flushConsumerOffsetInterval (5 s) from 10 s after the start, and in its shutdown (the JVM's hook on
 * SIGTERM); what was committed since the last one is lost when the broker is killed (4.9.4, 5.3.3).
 */
export const CONSUMER_OFFSET_FLUSH = {
  firstDelayMs: 10000,
  intervalMs: 5000,
} as const;

/**
 * BrokerController.start (5.0.0-5.3.3) schedules BrokerOuterAPI.refreshMetadata every 5 s from 10 s
 * after the start on scheduledExecutorService, the one thread that runs registerBrokerAll:
 * getBrokerClusterInfo asks the chosen NameServer (`invokeSync(null, GET_BROKER_CLUSTER_INFO, 3000)`)
 * and a failure is logged as `ScheduledTask refresh metadata exception`. While the NameServers are
 * out of reach each run waits its call's timeout, or a connect timeout per NameServer tried
 * (NettyRemotingClient.getAndCreateNameserverChannel), and the registration due meanwhile waits
 * behind it (gen-715, 5.1.4: the round due at 05:55:27 ran at 05:55:31, after the heal). Not in 4.x.
 */
export const REFRESH_METADATA = { since: '5.0.0', until: null, firstDelayMs: 10000, periodMs: 5000, timeoutMs: 3000 } as const;

/** Remoting timeouts that more than one layer reads (the model's calls, the clock estimate's pairs). */
export const TIMEOUTS = {
  /** NettyClientConfig.connectTimeoutMillis: 3000 ms in 4.x and 5.x clients and brokers. */
  connectMs: 3000,
  /** BrokerConfig.registerBrokerTimeoutMills: 6000 ms in 4.x, 24000 ms in 5.x. */
  registerBroker4xMs: 6000,
  registerBroker5xMs: 24000,
} as const;

/**
 * What RocketMQ's servers log on a schedule, whatever happens: while such a log keeps its cadence
 * the thread that writes it runs; a gap of many periods is a silence (rule server-stopped, which
 * measures each log's own cadence). `minPeriodMs`: the shortest period a setting allows (equal to
 * `periodMs` where no setting changes it). `thread`: the thread that writes it; `waitsOnPeers`: that
 * thread also makes calls that wait for another server, so its silence alone may be a wait, not a
 * stop.
 *
 * Clients log none of their schedules: MQClientInstance.startScheduledTask polls routes every
 * pollNameServerInterval (30 s) and heartbeats every heartbeatBrokerInterval (30 s), but logs a
 * successful heartbeat only every 20th time (4.x `send heart beat to broker[...] success`, every
 * 10 min) and a route poll only when the route changed, so a client's log has no cadence to judge.
 */
export const SCHEDULED_LOGS = {
  /**
   * Broker watermark.log: BrokerController.initialize (4.x; initializeBrokerScheduledTasks in 5.x)
   * runs printWaterMark every 1 s (`[WATERMARK] Send Queue Size: ...`, a line per queue) on its
   * single scheduledExecutorService thread, which also runs registerBrokerAll (it waits for every
   * NameServer's answer up to registerBrokerTimeoutMills: 6 s in 4.x, 24 s in 5.x) and, on a slave,
   * SlaveSynchronize.syncAll (calls to the master, 3 s timeout each).
   */
  brokerWatermark: { periodMs: 1000, minPeriodMs: 1000, thread: 'BrokerControllerScheduledThread', waitsOnPeers: true, words: 'watermark.log' },
  /**
   * Broker registrations in broker.log: BrokerController.start schedules registerBrokerAll on the
   * same thread every registerNameServerPeriod (30 s by default, held to 10-60 s), logged per
   * NameServer (4.x `register broker[0]to name server X OK`, 5.x `Registering current broker to name
   * server completed`).
   */
  brokerRegistration: { periodMs: 30000, minPeriodMs: 10000, thread: 'BrokerControllerScheduledThread', waitsOnPeers: true, words: 'its registrations in broker.log' },
  /**
   * Broker stats.log: BrokerStatsManager's StatsItemSets print their items at the start of every
   * minute (StatsItemSet.init schedules printAtMinutes every 60 s on the BrokerStatsThread), and
   * only items that have been used: a broker that took no message yet may print none.
   */
  brokerStats: { periodMs: 60000, minPeriodMs: 60000, thread: 'BrokerStatsThread', waitsOnPeers: false, words: 'stats.log' },
  /** NameServer 5.x namesrv_default.log: NamesrvController.startScheduleService runs printWaterMark every 1 s (its scheduler calls no other server). */
  namesrvWatermark: { periodMs: 1000, minPeriodMs: 1000, thread: 'NSScheduledThread', waitsOnPeers: false, words: "the NameServer's watermark lines" },
} as const;

export type ScheduledLog = keyof typeof SCHEDULED_LOGS;
