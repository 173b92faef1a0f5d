// Version profiles: what a RocketMQ release does differently, as data the components read.
// Facts that the rules and replay read too are in src/rocketmq/facts.ts; the rest are the model's own.

import { CLIENT, PULL_RETRY_DELAY, SERVER, TIMEOUTS } from '../rocketmq/facts.js';
import { atLeast, factHolds, OLDEST_MODELLED, parseVersion as parseVersionText, type Version } from '../rocketmq/versions.js';
import { assert } from './kernel.js';

export type { Version };

/** A version the model can run, or an assertion failure naming it. */
export function parseVersion(text: string): Version {
  const v = parseVersionText(text);
  assert(v !== null, `version must look like 4.9.8, got '${text}'`);
  return v;
}

/** Client log layout: the 4.3.0-5.0.0 inner logger (CRLF, JVM zone) or the 5.1.0+ shaded logback. */
type ClientLayout = 'inner' | 'logback';

type FaultTables = 'latency-4x' | 'latency-514';

export interface ClientProfile {
  readonly version: string;
  readonly v: Version;
  readonly layout: ClientLayout;
  /** 4.3.0-4.7.1: the millis field repeats the seconds (LoggingBuilder.DefaultLayout's `HH:mm:ss,sss`; `,SSS` from 4.8.0). */
  readonly fakeMillis: boolean;
  /** 4.3.0-4.9.2 print `\n` in messages raw; 4.9.3+ flatten them to spaces (LoggingEvent.getRenderedMessage). */
  readonly flattenNewlines: boolean;
  /** false up to 4.9.0 (hard-coded), true from 4.9.1 (NettySystemConfig's system property default). */
  readonly closeSocketIfTimeout: boolean;
  /** An asynchronous send whose request could not be sent is sent again (CLIENT.asyncRetriesUnsent, 4.9.3+). */
  readonly asyncRetriesUnsent: boolean;
  /**
   * What an ASYNC send's callback does with a request that timed out (MQClientAPIImpl.sendMessageAsync
   * and onExceptionImpl; the timeout is known 1-2 s after the budget ran out, scanResponseTable):
   * - `zero-budget` (up to 4.6.1): retried with a budget of 0 ms (`onExceptionImpl(..., 0L, ...)`),
   *   which invokeAsync still sends; the next scan removes it unless its answer came first.
   * - `spent-stops` (4.7.0-4.9.2): retried with what is left, less than nothing: invokeAsync throws
   *   RemotingTooMuchRequestException at once, onExceptionImpl's catch gives it to the SendCallback.
   * - `spent-retries` (4.9.3-5.2.x): the same exception, caught in sendMessageAsync, isolates the
   *   retry's broker (updateFaultItem) and is retried again while retries are left; the SendCallback
   *   gets the last one.
   * - `spent-callback` (5.3.0-5.3.1): invokeAsync reports it through the callback's operationFail,
   *   which isolates the broker and gives the SendCallback `unknown reason`, not retried.
   * - `none` (5.3.2+): onExceptionImpl retries only with time left: the SendCallback gets the timeout.
   */
  readonly asyncTimeoutRetry: 'zero-budget' | 'spent-stops' | 'spent-retries' | 'spent-callback' | 'none';
  /** 4.9.3 only: onExceptionImpl's retry line went through String.format, which left its `{}` placeholders as they are. */
  readonly asyncRetryLiteral: boolean;
  /** 5.2.0+: an ASYNC send's timeout is `wait response timeout, cost=N` (operationFail), before `wait response timeout Nms`. */
  readonly asyncTimeoutCost: boolean;
  /** 5.1.4+: close on timeout only if enough of the timeout was left (NettyRemotingClient.invokeSync). */
  readonly closeGuard: boolean;
  /**
   * 5.0.0-5.2.0: NettyRemotingClient.scanAvailableNameSrv connects every name server of the list
   * every connectTimeoutMillis (3 s), so a channel closed after a timeout is opened again to a host
   * that still accepts connections, and the chosen name server stays chosen. 5.3.0's MQClientInstance
   * turns the scan off (setScanAvailableNameSrv(false)).
   */
  readonly scanAvailableNameSrv: boolean;
  /** < 5.3.0 loops over every name server when the chosen one has no usable channel; 5.3.0+ picks one per call (NettyRemotingClient.getAndCreateNameserverChannel). */
  readonly namesrvLoopAll: boolean;
  /** < 5.3.0 logs createChannel success/failed/timeout; 5.3.0+ only `begin to connect` (NettyRemotingClient.createChannel). */
  readonly createChannelOutcomeLogs: boolean;
  /** 4.x logs the connect failure with its stack; 5.x without (NettyRemotingClient.createChannel). */
  readonly createChannelFailedStack: boolean;
  /** ≤4.5.2 `connect to <addr> failed`; 4.6.0+ `connect to addr failed` (RemotingConnectException). */
  readonly connectExceptionAngle: boolean;
  /**
   * 4.6.0+: a RemotingException in a topic's route update is logged at ERROR and rethrown as
   * IllegalStateException, which ends the scheduled round (the other topics wait for the next one);
   * up to 4.5.2 one catch (Exception) logs it at WARN and the round goes on with the next topic, whose
   * call may choose another NameServer at once (MQClientInstance.updateTopicRouteInfoFromNameServer).
   */
  readonly routeRemotingAborts: boolean;
  /** 5.3.1+ `channel[addr=…, id=…]` forms (NettyRemotingClient's closeChannel and invokeSync logs). */
  readonly channelIdForm: boolean;
  /**
   * NettyRemotingAbstract.processResponseCommand's warning for a response whose request was given up
   * (timed out): `receive response, but not matched any request, addr` and then the response
   * (RemotingCommand.toString) up to 5.1.x; from 5.2.0 one line, `receive response, cmd=..., but not
   * matched any request, address=...`, with `, channelId=...` from 5.3.1.
   */
  readonly lateResponseForm: 'two-lines' | 'cmd' | 'cmd-channel';
  /** invokeSync's `send request exception, so close the channel[...]` takes that form a release later, from 5.3.2. */
  readonly sendExceptionIdForm: boolean;
  /** 5.1.1+ invokeSync warnings print the resolved channel address instead of the addr argument (NettyRemotingClient.invokeSync). */
  readonly invokeWarnsChannelAddr: boolean;
  /** 5.2.0+ RemotingTimeoutException prints `</ip:port>` (the channel's remote address as InetSocketAddress prints it). */
  readonly timeoutAddrSlash: boolean;
  /** 5.1.3+ log `NETTY CLIENT PIPELINE: channelInactive` when the peer closes (NettyConnectManageHandler.channelInactive). */
  readonly channelInactiveLog: boolean;
  /** 4.9.3+ name the address when invokeSync's budget is spent before the call (`invokeSync call the addr[a] timeout`); earlier `invokeSync call timeout` (NettyRemotingClient.invokeSync). */
  readonly callTimeoutNamesAddr: boolean;
  /** Heartbeat failure level: INFO up to 5.0.0, WARN from 5.1.0 (MQClientInstance.sendHeartbeatToAllBroker). */
  readonly heartbeatFailLevel: 'INFO' | 'WARN';
  /** 5.1.0-5.2.0 print `sendKernelImpl exception, resend at once, InvokeID: %s, …` literally (DefaultMQProducerImpl.sendDefaultImpl). */
  readonly sendKernelUnformatted: boolean;
  /** The `Message{…}` WARN after a failed attempt: 4.x-5.1.1 (DefaultMQProducerImpl.sendDefaultImpl). */
  readonly logMessageBody: boolean;
  /** MQBrokerException text ends with ` BROKER: addr` from 4.8.0 (MQBrokerException's brokerAddr). */
  readonly brokerAddrInException: boolean;
  readonly faqUrl: string;
  /** Response codes that make the SYNC send loop retry (DefaultMQProducer.retryResponseCodes). */
  readonly retryResponseCodes: readonly number[];
  readonly faultTables: FaultTables;
  /** ≤4.7.1: the latency-fault step 1 prefers the *same* broker on a retry (MQFaultStrategy.selectOneMessageQueue). */
  readonly faultPrefersLastBroker: boolean;
  /** 4.3.0-4.5.0 send through the VIP channel (broker port - 2; ClientConfig.vipChannelEnabled, true by default up to 4.5.0). */
  readonly vipChannel: boolean;
  /** `No route info of this topic: T` (4.6.0+) or `No route info of this topic, T` (DefaultMQProducerImpl.sendDefaultImpl). */
  readonly noRouteColon: boolean;
  /**
   * 4.9.5+ (5.x too): RebalanceImpl.updateProcessQueueTableInRebalance marks the ProcessQueue of an
   * orderly queue it just locked as locked (pq.setLocked(true)). Up to 4.9.4 it does not: lock(mq)
   * marks only the queues already in processQueueTable, and the new ProcessQueue starts not locked
   * (ProcessQueue.locked = false), so its pulls wait (`pull message later because not locked in
   * broker`) until ConsumeMessageOrderlyService's lockMQPeriodically (lockAll every 20 s) marks it.
   */
  readonly orderlyNewQueueLocked: boolean;
  /** A push consumer's pause before it pulls a queue again after a failed pull (PULL_RETRY_DELAY). */
  readonly pullTimeDelayMillsWhenException: number;
  /** `ClientVersion:V4_8_0`. */
  readonly versionConstant: string;
}

export function clientProfile(version: string): ClientProfile {
  const v = parseVersion(version);
  assert(atLeast(v, OLDEST_MODELLED), `client versions before ${OLDEST_MODELLED} are not modelled (got ${version})`);
  const is5 = v[0] >= 5;
  const codes = [17, 14, 1, 16, 204, 205];
  if (factHolds(CLIENT.retriesSystemBusy, v)) codes.push(2);
  if (factHolds(CLIENT.retriesGoAway, v)) codes.push(1500);
  return {
    version,
    v,
    layout: atLeast(v, '5.1.0') ? 'logback' : 'inner',
    fakeMillis: !atLeast(v, '4.8.0'),
    flattenNewlines: atLeast(v, '4.9.3'),
    closeSocketIfTimeout: factHolds(CLIENT.closeSocketIfTimeout, v),
    asyncRetriesUnsent: factHolds(CLIENT.asyncRetriesUnsent, v),
    asyncTimeoutRetry: !atLeast(v, '4.7.0')
      ? 'zero-budget'
      : !factHolds(CLIENT.asyncRetriesUnsent, v)
        ? 'spent-stops'
        : !atLeast(v, '5.3.0')
          ? 'spent-retries'
          : !atLeast(v, '5.3.2')
            ? 'spent-callback'
            : 'none',
    asyncRetryLiteral: atLeast(v, '4.9.3') && !atLeast(v, '4.9.4'),
    asyncTimeoutCost: atLeast(v, '5.2.0'),
    closeGuard: atLeast(v, '5.1.4'),
    scanAvailableNameSrv: factHolds(CLIENT.scanAvailableNameSrv, v),
    namesrvLoopAll: !atLeast(v, '5.3.0'),
    createChannelOutcomeLogs: !atLeast(v, '5.3.0'),
    createChannelFailedStack: !is5,
    connectExceptionAngle: !atLeast(v, '4.6.0'),
    routeRemotingAborts: atLeast(v, '4.6.0'),
    channelIdForm: atLeast(v, '5.3.1'),
    lateResponseForm: atLeast(v, '5.3.1') ? 'cmd-channel' : atLeast(v, '5.2.0') ? 'cmd' : 'two-lines',
    sendExceptionIdForm: atLeast(v, '5.3.2'),
    invokeWarnsChannelAddr: atLeast(v, '5.1.1'),
    timeoutAddrSlash: atLeast(v, '5.2.0'),
    channelInactiveLog: atLeast(v, '5.1.3'),
    callTimeoutNamesAddr: atLeast(v, '4.9.3'),
    heartbeatFailLevel: atLeast(v, '5.1.0') ? 'WARN' : 'INFO',
    sendKernelUnformatted: atLeast(v, '5.1.0') && !atLeast(v, '5.3.0'),
    logMessageBody: !atLeast(v, '5.1.2'),
    brokerAddrInException: atLeast(v, '4.8.0'),
    faqUrl: atLeast(v, '5.1.0') ? 'https://rocketmq.apache.org/docs/bestPractice/06FAQ' : 'http://rocketmq.apache.org/docs/faq/',
    retryResponseCodes: codes,
    faultTables: factHolds(CLIENT.faultStrategy514, v) ? 'latency-514' : 'latency-4x',
    faultPrefersLastBroker: factHolds(CLIENT.faultPrefersLastBroker, v),
    vipChannel: !atLeast(v, '4.5.1'),
    orderlyNewQueueLocked: atLeast(v, '4.9.5'),
    pullTimeDelayMillsWhenException: atLeast(v, PULL_RETRY_DELAY.configurableSince) ? PULL_RETRY_DELAY.defaultMs : PULL_RETRY_DELAY.untilMs,
    noRouteColon: atLeast(v, '4.6.0'),
    versionConstant: `V${v[0]}_${v[1]}_${v[2]}`,
  };
}

export interface ServerProfile {
  readonly version: string;
  readonly v: Version;
  readonly is5: boolean;
  /** Broker send threads: 1 in 4.4.0-4.9.0, min(cores, 4) from 4.9.1 (BrokerConfig.sendMessageThreadPoolNums). */
  sendThreadPoolNums(cores: number): number;
  /** 6000 in 4.x, 24000 in 5.x (BrokerConfig.registerBrokerTimeoutMills). */
  readonly registerBrokerTimeoutMills: number;
  /** NameServer liveness scan: every 10 s after 5 s (4.x), every 5 s after 5 ms (5.x) (NamesrvController's scanNotActiveBroker schedule). */
  readonly scanNotActiveBrokerIntervalMs: number;
  readonly scanInitialDelayMs: number;
  /** 4.9.4-4.9.8 NameServers log `master address change` on every registration (RouteInfoManager.registerBroker). */
  readonly masterAddressChangeLine: boolean;
  /** The broker's own remoting client closes the socket on timeout (same history as the client). */
  readonly closeSocketIfTimeout: boolean;
  /** 4.5.0+ name the broker id in `register broker[0]to name server a OK`; 4.4.0 and earlier `register broker to name server a OK` (BrokerOuterAPI.registerBrokerAll). */
  readonly registerOkBrokerId: boolean;
  /** 5.1.0+ NameServers add `, address <bind>:<port>` to `The Name Server boot success.` (NamesrvStartup). */
  readonly namesrvBootAddress: boolean;
  /** Up to 4.5.1 the slow put is `putMessage not in lock eclipse time(ms)`, 4.5.2-4.9.8 `elapsed` (DefaultMessageStore.putMessage). */
  readonly notInLockEclipse: boolean;
  /** 5.x BrokerFastFailure dumps a jstack after a TIMEOUT_CLEAN_QUEUE purge, at most every 15 s (BrokerFastFailure.cleanExpiredRequest). */
  readonly jstackOnClean: boolean;
  /** The client-side texts of the server's own remoting client. */
  readonly remoting: ClientProfile;
}

export function serverProfile(version: string): ServerProfile {
  const v = parseVersion(version);
  assert(atLeast(v, OLDEST_MODELLED), `server versions before ${OLDEST_MODELLED} are not modelled (got ${version})`);
  const is5 = v[0] >= 5;
  return {
    version,
    v,
    is5,
    sendThreadPoolNums: (cores) => (factHolds(SERVER.sendThreadsFromCores, v) ? Math.min(cores, 4) : 1),
    registerBrokerTimeoutMills: is5 ? TIMEOUTS.registerBroker5xMs : TIMEOUTS.registerBroker4xMs,
    scanNotActiveBrokerIntervalMs: is5 ? 5000 : 10000,
    scanInitialDelayMs: is5 ? 5 : 5000,
    masterAddressChangeLine: atLeast(v, '4.9.4') && !is5,
    closeSocketIfTimeout: factHolds(CLIENT.closeSocketIfTimeout, v),
    notInLockEclipse: !atLeast(v, '4.5.2'),
    registerOkBrokerId: atLeast(v, '4.5.0'),
    namesrvBootAddress: atLeast(v, '5.1.0'),
    jstackOnClean: factHolds(SERVER.jstackOnClean, v),
    remoting: clientProfile(version),
  };
}
