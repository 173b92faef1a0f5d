// Behaviours that change between RocketMQ releases and that more than one part of rmq-diag reads
// (the rules, the model, replay's inference and what-ifs): each written once, with the source that
// shows it. A fact holds for the releases from `since` (inclusive) until `until` (exclusive).

import type { VersionFact } from './versions.js';

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
  /**
   * An ASYNC send is retried in its callback (MQClientAPIImpl.onExceptionImpl, up to
   * retryTimesWhenSendAsyncFailed, 2 by default); a request that could not even be sent (invokeAsync
   * threw: a refused connection) is retried that way too from 4.9.3 (ISSUE #3556, the catch around
   * invokeAsync in sendMessageAsync); before, the exception went back to sendDefaultImpl, whose
   * ASYNC pass is a single attempt.
   */
  asyncRetriesUnsentRequest: { since: '4.9.3', until: null },
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
