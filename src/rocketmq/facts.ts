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
} as const satisfies Record<string, VersionFact>;

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
