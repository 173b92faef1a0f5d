// MQClientInstance with one DefaultMQProducer: the scheduled tasks (route poll, cleanOfflineBroker,
// heartbeats) on one scheduler thread, the producer's send loop with its time budget, queue
// selection with lastBrokerName avoidance and the latency fault tables, and MessageQueueSelector
// sends (MQClientInstance, DefaultMQProducerImpl, MQFaultStrategy; 4.x and 5.x).
//
// The send budget (DefaultMQProducerImpl.sendDefaultImpl): attempts share sendMsgTimeout (3000 ms). An attempt that fails fast
// (connection refused, a retryable broker code) leaves time for the next one, on another broker;
// an attempt that uses the whole budget (a read timeout on a hung broker) leaves none, and the send
// ends with `sendDefaultImpl call timeout` instead of `Send [N] times, still failed`.

import { type Co, Signal, spawn, wait } from './coroutine.js';
import { assert, fail, Priority } from './kernel.js';
import { exceptionText, thrownThrough, type JavaException, type Level, type LogFile, type LogSink } from './log.js';

/** DefaultMQProducerImpl frames of a send through a MessageQueueSelector (rocketmq-client 4.8.0). */
const SELECT_FRAMES = [
  'org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendKernelImpl(DefaultMQProducerImpl.java:854)',
  'org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendSelectImpl(DefaultMQProducerImpl.java:1126)',
  'org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.send(DefaultMQProducerImpl.java:1092)',
];
import type { ClientMetrics, Recorder } from './metrics.js';
import type { MessageCopies } from './copies.js';
import { Process, RequestCode, ResponseCode, type Host, type Network, type Response } from './network.js';
import type { Rng } from './random.js';
import { CachedCall, Exceptions, RemotingClient, type RpcResult } from './remoting.js';
import { brokerNames, DEFAULT_TOPIC, MASTER_ID, PERM_WRITE, routeText, sameRoute, type TopicRouteData } from './route.js';
import { clientProfile, type ClientProfile } from './versions.js';
import { TagRotation, type TagShare } from './subscription.js';
import { renderMessage, responseExceptionMessage } from '../parse/message-render.js';
import type { Zone } from '../parse/time.js';
import { brokerVipAddr, FAULT_TABLES_4X, FAULT_TABLES_514, isolationMs, notAvailableDuration, CLIENT_DEFAULTS, CLIENT_THREADS, TIMEOUTS, type FaultTables } from '../rocketmq/facts.js';

export interface ClientSettings {
  /** ClientConfig.pollNameServerInterval (30 s). */
  pollNameServerIntervalMs?: number;
  /** ClientConfig.heartbeatBrokerInterval (30 s). */
  heartbeatBrokerIntervalMs?: number;
  /** ClientConfig.mqClientApiTimeout (3000 ms): route queries and heartbeats. */
  mqClientApiTimeoutMs?: number;
  /** DefaultMQProducer.sendMsgTimeout (3000 ms). */
  sendMsgTimeoutMs?: number;
  /** DefaultMQProducer.retryTimesWhenSendFailed (2: at most 3 attempts). */
  retryTimesWhenSendFailed?: number;
  /** DefaultMQProducer.retryTimesWhenSendAsyncFailed (2): retries of an asynchronous send whose request could not be sent. */
  retryTimesWhenSendAsyncFailed?: number;
  /** DefaultMQProducer.sendLatencyFaultEnable (false). */
  sendLatencyFaultEnable?: boolean;
  /** NettyClientConfig.connectTimeoutMillis (3000 ms). */
  connectTimeoutMs?: number;
  /** Client channel ALL_IDLE time (120 s). */
  clientChannelMaxIdleTimeSeconds?: number;
  /** -Dcom.rocketmq.remoting.client.closeSocketIfTimeout (4.9.1+ only; earlier versions ignore it). */
  clientCloseSocketIfTimeout?: boolean;
}

/** A change of an application's send rate: from `atMs` (model time) on, `perSec` sends a second. */
export interface RateStep {
  atMs: number;
  perSec: number;
}

/**
 * A send the logs show on its own (a busy reply a stalled broker held): at `atMs` (model time, when
 * the broker read its request) to `broker`, beside the sends of the rate.
 */
export interface LoggedSend {
  atMs: number;
  broker: string;
}

export interface ClientConfig {
  /** Client name: its host. */
  name: string;
  version: string;
  namesrvAddrList: string[];
  /** Name server the first selection lands on, or 'random' (namesrvIndex drawn like the client does). */
  namesrv: string;
  group: string;
  topic: string;
  /** Application send rate (Poisson arrivals), sends per second; each send runs on its own thread. */
  sendRatePerSec: number;
  /** Sends go through a MessageQueueSelector (sendSelectImpl: one attempt, no retry). */
  selector: boolean;
  /** Sends are asynchronous (send(msg, SendCallback)): see startSend. */
  async: boolean;
  /** The selector always picks this index of the topic's queue list (one ordering key); unset: a new key per send. */
  selectorQueue?: number;
  /** First application send, ms after the client starts. */
  sendStartMs: number;
  /** Application sends at these model times (ascending) instead of Poisson arrivals: a replayed trace. */
  sendTimesMs?: readonly number[];
  /** The Poisson rate from each step's time on (ascending); before the first, sendRatePerSec. */
  sendRateSteps?: readonly RateStep[];
  /** Sends the logs show one by one, made beside the rate's (ascending by atMs). */
  loggedSends?: readonly LoggedSend[];
  /**
   * The application's threads that call send: a synchronous send holds one until it returns, and a
   * send of the rate that comes while all are busy is not made (counted in shedSends). Unset: each
   * send has a thread of its own. Sends the logs show (sendTimesMs, loggedSends) are always made.
   */
  sendThreads?: number;
  pid: number;
  settings: ClientSettings;
  /** The tags its messages carry, taken in turn by their shares (none: messages without tags). */
  tags?: readonly TagShare[];
}

interface MessageQueue {
  topic: string;
  brokerName: string;
  queueId: number;
  /** The send request body for this queue, made once (nobody changes it); set from the start so that every queue has one shape. */
  body: SendBody | undefined;
}

/** What the model's SEND_MESSAGE request carries: the queue, the group, and the message's tag if it has one. */
interface SendBody {
  topic: string;
  queueId: number;
  producerGroup: string;
  tag?: string;
}

interface TopicPublishInfo {
  queues: MessageQueue[];
  /** sendWhichQueue: a new publish info starts from a random index. */
  index: number;
}

interface FaultItem {
  latencyMs: number;
  startMs: number;
  reachable: boolean;
}

type Attempt =
  | { ok: true }
  | { ok: false; kind: 'remoting' | 'client'; exc: JavaException; timeout: boolean }
  | { ok: false; kind: 'broker'; code: number; exc: JavaException; timeout: false };

type SendOutcome = { ok: true } | { ok: false; exc: JavaException; callTimeout: boolean };

const ATTEMPT_OK: Attempt = { ok: true };
const SENDER_THREADS = Array.from({ length: 9 }, (_, i) => `sender-${i}`);
/** An asynchronous send's InvokeCallback (MQClientAPIImpl.sendMessageAsync, 4.9.x line numbers). */
const ASYNC_CALLBACK_FRAMES = [
  'org.apache.rocketmq.client.impl.MQClientAPIImpl$1.operationComplete(MQClientAPIImpl.java:564)',
  'org.apache.rocketmq.remoting.netty.ResponseFuture.executeInvokeCallback(ResponseFuture.java:54)',
  'org.apache.rocketmq.remoting.netty.NettyRemotingAbstract$2.run(NettyRemotingAbstract.java:321)',
];
/** Where invokeAsync's RemotingTooMuchRequestException is thrown on a retry onExceptionImpl makes (4.9.4 line numbers). */
const ASYNC_RETRY_FRAMES = [
  'org.apache.rocketmq.remoting.netty.NettyRemotingClient.invokeAsync(NettyRemotingClient.java:538)',
  'org.apache.rocketmq.client.impl.MQClientAPIImpl.sendMessageAsync(MQClientAPIImpl.java:542)',
  'org.apache.rocketmq.client.impl.MQClientAPIImpl.onExceptionImpl(MQClientAPIImpl.java:634)',
];
const PROCESS_SEND_RESPONSE_FRAME = 'org.apache.rocketmq.client.impl.MQClientAPIImpl.processSendResponse(MQClientAPIImpl.java:675)';
/** NettyClientConfig.clientCallbackExecutorThreads: the cores of the client's host (4 assumed). */
const CALLBACK_THREADS = 4;
/** DefaultMQProducerImpl's default async sender executor: a thread per core (4 assumed). */
const ASYNC_SENDER_THREADS = 4;
const SEND_OK: SendOutcome = { ok: true };

/**
 * The state of one sendDefaultImpl in callback form; it is also the continuation of its invokes.
 * Once the send is done nothing refers to it (the response table dropped it before resolving it), so
 * the client reuses it for a later send (Client.newSend, Client.opDone).
 */
class DefaultSend extends CachedCall {
  times = 0;
  /** The first attempt's broker; the list of all (sendDefaultImpl's brokersSent) is made on the first retry. */
  private firstBroker: string | null = null;
  private sent: Array<string | null> | null = null;
  mq: MessageQueue | null = null;
  lastExc: JavaException | null = null;
  invokeId: string | null = null;
  /** Start of the current attempt. */
  beginPrev = 0;
  /** Broker address of the current attempt. */
  addr = '';
  /** Done and waiting for reuse (nothing may resolve it then). */
  free = false;
  /** An asynchronous send: the retries onExceptionImpl has left (null: a synchronous send). */
  asyncLeft: number | null = null;
  /** The time the current attempt's request was given, ms. */
  givenMs = 0;
  /** The message's tag (null: none). */
  tag: string | null = null;
  /** The message (its UNIQ_KEY, the same in every attempt: copies.ts); -1: not tracked. */
  msgKey = -1;
  /** A logged send: the broker its first attempt went to (null: the one selectOneMessageQueue picks). */
  toBroker: string | null = null;
  constructor(
    private readonly client: Client,
    public thread: string,
    public tp: TopicPublishInfo,
    public begin: number,
    public timesTotal: number,
  ) {
    super();
  }
  /** The state of a new send, as the constructor leaves it. */
  reuse(thread: string, tp: TopicPublishInfo, begin: number, timesTotal: number): void {
    this.thread = thread;
    this.tp = tp;
    this.begin = begin;
    this.timesTotal = timesTotal;
    this.times = 0;
    this.firstBroker = null;
    this.sent = null;
    this.mq = null;
    this.lastExc = null;
    this.invokeId = null;
    this.beginPrev = 0;
    this.addr = '';
    this.free = false;
    this.asyncLeft = null;
    this.givenMs = 0;
    this.tag = null;
    this.msgKey = -1;
    this.toBroker = null;
  }
  /** brokersSent[times] = brokerName. */
  setBroker(times: number, brokerName: string): void {
    if (times === 0 && this.sent === null) {
      this.firstBroker = brokerName;
      return;
    }
    this.sent ??= this.brokersSent();
    this.sent[times] = brokerName;
  }
  /** brokersSent: the broker of each attempt so far, null for the attempts not made. */
  brokersSent(): Array<string | null> {
    if (this.sent !== null) return this.sent;
    const out: Array<string | null> = [this.firstBroker];
    for (let i = 1; i < this.timesTotal; i++) out.push(null);
    return out;
  }
  onResponse(resp: Response): void {
    this.client.attemptDone(this, this.client.attemptOfResponse(resp, this.addr));
  }
  onFailure(r: RpcResult & { ok: false }): void {
    this.client.attemptDone(this, this.client.attemptOf(r, this.addr));
  }
  /** The result of an invokeSync coroutine (when the channel was not ready). */
  rpcDone(r: RpcResult): void {
    this.client.attemptDone(this, this.client.attemptOf(r, this.addr));
  }
}


const MQ_CLIENT_EXCEPTION = 'org.apache.rocketmq.client.exception.MQClientException';
const MQ_BROKER_EXCEPTION = 'org.apache.rocketmq.client.exception.MQBrokerException';

/**
 * Defaults of the client's periodic tasks (ClientConfig: pollNameServerInterval, heartbeatBrokerInterval
 * 30 s; NettyClientConfig.connectTimeoutMillis 3 s, the period of 5.0.0-5.2.0's scanAvailableNameSrv).
 */
export const CLIENT_PERIODS = {
  pollNameServerIntervalMs: CLIENT_DEFAULTS.pollNameServerIntervalMs,
  heartbeatBrokerIntervalMs: CLIENT_DEFAULTS.heartbeatBrokerIntervalMs,
  connectTimeoutMs: TIMEOUTS.connectMs,
} as const;

/** Serial scheduled thread (MQClientFactoryScheduledThread): one task at a time, late ticks coalesce. */
class SchedulerThread {
  private busy = false;
  private readonly queue: Array<[string, () => Co<void>]> = [];
  private readonly queued = new Set<string>();

  submit(key: string, task: () => Co<void>): void {
    if (this.queued.has(key)) return;
    this.queued.add(key);
    this.queue.push([key, task]);
    if (!this.busy) this.runNext();
  }

  private runNext(): void {
    const next = this.queue.shift();
    if (next === undefined) {
      this.busy = false;
      return;
    }
    this.busy = true;
    this.queued.delete(next[0]);
    spawn(next[1]()).then(() => this.runNext());
  }
}

export class Client extends Process {
  readonly profile: ClientProfile;
  readonly metrics: ClientMetrics;
  private readonly s: Required<Omit<ClientSettings, 'clientCloseSocketIfTimeout'>> & { closeSocketIfTimeout: boolean };
  private readonly remoting: RemotingClient;
  private readonly clientLog: LogFile;
  private readonly appLog: LogFile;
  private readonly clientId: string;
  private sched = new SchedulerThread();
  private topicRouteTable = new Map<string, TopicRouteData>();
  private brokerAddrTable = new Map<string, Map<number, string>>();
  private publishInfo = new Map<string, TopicPublishInfo>();
  private routeInFlight = new Map<string, Signal<{ abort: JavaException | null }>>();
  private faultItems = new Map<string, FaultItem>();
  private whichItemWorst = 0;
  private heartbeatTimes = 0;
  private senderTurn = 0;
  /** The application's sending threads in a synchronous send now (with config.sendThreads). */
  private readonly busySenders = new Set<string>();
  private msgKey = 0;
  /** The tags of its messages in turn (null: its messages carry none). */
  private readonly tagRotation: TagRotation | null;
  /** The run's book of messages stored more than once (none: the sends' messages are not tracked). */
  copies: MessageCopies | null = null;

  constructor(
    net: Network,
    host: Host,
    readonly config: ClientConfig,
    sink: LogSink,
    zone: Zone,
    private readonly recorder: Recorder,
    private readonly rng: Rng,
    private readonly appRng: Rng,
  ) {
    super(net, host, `client:${config.name}`);
    this.profile = clientProfile(config.version);
    const st = config.settings;
    this.s = {
      pollNameServerIntervalMs: st.pollNameServerIntervalMs ?? CLIENT_PERIODS.pollNameServerIntervalMs,
      heartbeatBrokerIntervalMs: st.heartbeatBrokerIntervalMs ?? CLIENT_PERIODS.heartbeatBrokerIntervalMs,
      mqClientApiTimeoutMs: st.mqClientApiTimeoutMs ?? CLIENT_DEFAULTS.mqClientApiTimeoutMs,
      sendMsgTimeoutMs: st.sendMsgTimeoutMs ?? CLIENT_DEFAULTS.sendMsgTimeoutMs,
      retryTimesWhenSendFailed: st.retryTimesWhenSendFailed ?? CLIENT_DEFAULTS.retryTimesWhenSendFailed,
      retryTimesWhenSendAsyncFailed: st.retryTimesWhenSendAsyncFailed ?? CLIENT_DEFAULTS.retryTimesWhenSendAsyncFailed,
      sendLatencyFaultEnable: st.sendLatencyFaultEnable ?? false,
      connectTimeoutMs: st.connectTimeoutMs ?? CLIENT_PERIODS.connectTimeoutMs,
      clientChannelMaxIdleTimeSeconds: st.clientChannelMaxIdleTimeSeconds ?? 120,
      // Before 4.9.1 the field is hard-coded false; from 4.9.1 the system property decides (default true).
      closeSocketIfTimeout: this.profile.closeSocketIfTimeout ? st.clientCloseSocketIfTimeout ?? true : false,
    };
    this.metrics = recorder.client(config.name, config.version);
    this.publisherLogger = `com.example.${config.group.toLowerCase()}.Publisher`;
    this.sendFailedText = `send message failed, topic=${config.topic}`;
    this.tagRotation = config.tags !== undefined && config.tags.length > 0 ? new TagRotation(config.tags) : null;
    this.clientId = `${host.ip}@${config.pid}`;
    const inner = this.profile.layout === 'inner';
    this.clientLog = sink.file({
      host: host.name,
      name: 'rocketmq_client.log',
      kind: 'client',
      layout: inner ? 'rocketmq-client-inner' : 'rocketmq-client-5x',
      zone,
      fakeMillis: this.profile.fakeMillis,
      flattenNewlines: inner && this.profile.flattenNewlines,
      pid: config.pid,
    });
    this.appLog = sink.file({ host: host.name, name: 'app.log', kind: 'app', layout: 'logback-app', zone });
    this.remoting = new RemotingClient({
      proc: this,
      profile: this.profile,
      log: (level, msg, exc) => this.clientLog.write(level, 'NettyClientWorkerThread_1', 'RocketmqRemoting', msg, exc),
      closeSocketIfTimeout: this.s.closeSocketIfTimeout,
      connectTimeoutMs: this.s.connectTimeoutMs,
      channelMaxIdleMs: this.s.clientChannelMaxIdleTimeSeconds * 1000,
      rng,
      onTimeout: () => this.metrics.timeouts++,
      onNamesrvChosen: (_old, addr, index) => this.metrics.namesrvChosen.push({ atMs: this.nowMs, addr, namesrvIndex: index }),
      startEpochMs: sink.startEpochMs,
    });
  }

  private logClient(level: Level, msg: string, exc?: JavaException, logger5 = 'o.a.r.c.i.f.MQClientInstance', thread5 = 'MQClientFactoryScheduledThread'): void {
    this.clientLog.write(level, thread5, this.profile.layout === 'inner' ? 'RocketmqClient' : logger5, msg, exc);
  }

  // ---- life -------------------------------------------------------------------------------

  protected boot(): void {
    const c = this.config;
    this.remoting.reset();
    this.remoting.updateNameServerAddressList(c.namesrvAddrList, true);
    const list = this.remoting.namesrvAddrList;
    const r = this.rng.int(999);
    if (c.namesrv === 'random') this.remoting.namesrvIndex = r;
    else {
      const p = list.indexOf(c.namesrv);
      assert(p >= 0, `client ${c.name}: name server ${c.namesrv} is not in its list ${list.join(';')}`);
      this.remoting.namesrvIndex = r + ((((p - (r + 1)) % list.length) + list.length) % list.length);
    }
    this.logClient('INFO', renderMessage('namesrv-list/user-specified', { addrs: c.namesrvAddrList }));
    const cfg = `ClientConfig [namesrvAddr=${c.namesrvAddrList.join(';')}, clientIP=${this.host.ip}, instanceName=${c.pid}, clientCallbackExecutorThreads=8, pollNameServerInterval=${this.s.pollNameServerIntervalMs}, heartbeatBrokerInterval=${this.s.heartbeatBrokerIntervalMs}, persistConsumerOffsetInterval=5000, pullTimeDelayMillsWhenException=1000, unitMode=false, unitName=null, vipChannelEnabled=${this.profile.vipChannel}, useTLS=false, language=JAVA, namespace=null, mqClientApiTimeout=${this.s.mqClientApiTimeoutMs}]`;
    const instance = { instanceIndex: 0, clientId: this.clientId, clientConfig: cfg, clientVersion: this.profile.versionConstant, serializerType: 'JSON' };
    this.logClient('INFO', renderMessage('startup/client-instance', instance));
    this.logClient('INFO', renderMessage('startup/client-factory', { clientId: this.clientId }));
    const producer = renderMessage('startup/producer', { group: c.group, sendMessageWithVIPChannel: this.profile.vipChannel });
    this.logClient('INFO', producer, undefined, 'o.a.r.c.i.p.DefaultMQProducerImpl', 'main');
    this.publishInfo.set(DEFAULT_TOPIC, { queues: [], index: 0 });
    if (this.profile.scanAvailableNameSrv) this.every(this.s.connectTimeoutMs, 0, () => this.remoting.scanAvailableNameSrv());
    this.every(this.s.pollNameServerIntervalMs, 10, () => this.sched.submit('route', () => this.pollRoutes()));
    this.every(this.s.heartbeatBrokerIntervalMs, 1000, () => this.sched.submit('heartbeat', () => this.cleanAndHeartbeat()));
    if (c.sendTimesMs !== undefined) this.nextTraced(0);
    else if (c.sendRatePerSec > 0) this.after(c.sendStartMs, () => this.nextArrival(), Priority.app);
    if (c.loggedSends?.length) this.nextLogged(0);
  }

  protected onKilled(): void {
    this.remoting.reset();
    this.sched = new SchedulerThread();
    this.topicRouteTable = new Map();
    this.brokerAddrTable = new Map();
    this.publishInfo = new Map();
    this.routeInFlight = new Map();
    this.faultItems = new Map();
    this.busySenders.clear();
  }

  /** The next traced send at or after now (a client that restarts skips what it missed). */
  private nextTraced(from: number): void {
    const times = this.config.sendTimesMs!;
    let i = from;
    while (i < times.length && times[i] < this.nowMs) i++;
    if (i >= times.length) return;
    const next = (): void => {
      this.startSend();
      this.nextTraced(i + 1);
    };
    this.after(times[i] - this.nowMs, next, Priority.app);
  }

  /** The next logged send at or after now (a client that restarts skips what it missed). */
  private nextLogged(from: number): void {
    const sends = this.config.loggedSends!;
    let i = from;
    while (i < sends.length && sends[i].atMs < this.nowMs) i++;
    if (i >= sends.length) return;
    this.after(
      sends[i].atMs - this.nowMs,
      () => {
        this.startSend(sends[i].broker);
        this.nextLogged(i + 1);
      },
      Priority.app,
    );
  }

  private readonly nextArrivalFn = (_a: null, _b: null): void => this.nextArrival();
  /** The first of sendRateSteps not yet in force. */
  private stepAt = 0;

  private nextArrival(): void {
    this.startSend(null, true);
    const steps = this.config.sendRateSteps;
    if (!steps?.length) {
      this.post2(this.nowMs + this.appRng.exponential(1000 / this.config.sendRatePerSec), this.nextArrivalFn, null, null, Priority.app);
      return;
    }
    // Poisson arrivals are memoryless: a draw that runs past the next change of rate starts again
    // there at the new rate (none while the rate is 0).
    // Time only moves on: the steps passed are passed for good (a run may hold a week of minutes).
    let from = this.nowMs;
    for (;;) {
      while (this.stepAt < steps.length && steps[this.stepAt].atMs <= from) this.stepAt++;
      const rate = this.stepAt > 0 ? steps[this.stepAt - 1].perSec : this.config.sendRatePerSec;
      const next = this.stepAt < steps.length ? steps[this.stepAt].atMs : null;
      const at = rate > 0 ? from + this.appRng.exponential(1000 / rate) : Infinity;
      if (next !== null && at > next) {
        from = next;
        continue;
      }
      if (at !== Infinity) this.post2(at, this.nextArrivalFn, null, null, Priority.app);
      return;
    }
  }

  // ---- route (MQClientInstance.updateTopicRouteInfoFromNameServer) -------------------------

  private *pollRoutes(): Co<void> {
    for (const topic of [...this.publishInfo.keys()]) {
      const abort = yield* this.updateTopicRoute(topic);
      if (abort !== null) {
        // The IllegalStateException aborts the round (the other topics wait for the next one).
        this.logClient('ERROR', renderMessage('route-update-failed/scheduled-task'), {
          cls: 'java.lang.IllegalStateException',
          msg: exceptionText(abort),
          cause: abort,
        });
        return;
      }
    }
  }

  /** Returns the remoting exception that aborts the caller (IllegalStateException), else null. */
  private *updateTopicRoute(topic: string): Co<JavaException | null> {
    const inFlight = this.routeInFlight.get(topic);
    if (inFlight !== undefined) return (yield* wait(inFlight)).abort;
    const done = new Signal<{ abort: JavaException | null }>();
    this.routeInFlight.set(topic, done);
    const abort = yield* this.fetchRoute(topic);
    this.routeInFlight.delete(topic);
    done.resolve({ abort });
    return abort;
  }

  private *fetchRoute(topic: string): Co<JavaException | null> {
    const r = yield* this.remoting.invokeSync(null, RequestCode.GET_ROUTEINFO_BY_TOPIC, { topic }, this.s.mqClientApiTimeoutMs);
    if (!r.ok) {
      this.metrics.routeUpdateFailures++;
      if (!this.profile.routeRemotingAborts) {
        if (topic !== DEFAULT_TOPIC) this.logClient('WARN', renderMessage('route-update-failed/exception'), r.exc);
        return null;
      }
      this.logClient('ERROR', renderMessage('route-update-failed/exception'), r.exc);
      return r.exc;
    }
    if (r.resp.code !== ResponseCode.SUCCESS) {
      if (topic !== DEFAULT_TOPIC) {
        this.metrics.routeUpdateFailures++;
        this.logClient('WARN', renderMessage('route-update-failed/exception'), this.clientException(responseExceptionMessage(r.resp.code, r.resp.remark)));
      }
      return null;
    }
    const route = r.resp.body as TopicRouteData;
    const old = this.topicRouteTable.get(topic);
    const routeChanged = !sameRoute(old, route);
    if (routeChanged) this.logClient('INFO', renderMessage('route-changed/changed', { topic, old: routeText(old), new: routeText(route) }));
    const tp = this.publishInfo.get(topic);
    if (!routeChanged && tp !== undefined && tp.queues.length > 0) return null;
    for (const bd of route.brokerDatas) this.brokerAddrTable.set(bd.brokerName, new Map(bd.brokerAddrs));
    this.publishInfo.set(topic, this.toPublishInfo(topic, route));
    this.logClient('INFO', `topicRouteTable.put. Topic = ${topic}, TopicRouteData[${routeText(route)}]`);
    this.topicRouteTable.set(topic, route);
    if (routeChanged) {
      this.metrics.routeChanges.push({ atMs: this.nowMs, topic, brokersBefore: brokerNames(old), brokersAfter: brokerNames(route) });
    }
    return null;
  }

  /** topicRouteData2TopicPublishInfo: writable queues of brokers that have a master. */
  private toPublishInfo(topic: string, route: TopicRouteData): TopicPublishInfo {
    const queues: MessageQueue[] = [];
    const qds = [...route.queueDatas].sort((a, b) => a.brokerName.localeCompare(b.brokerName));
    for (const q of qds) {
      if ((q.perm & PERM_WRITE) === 0) continue;
      const bd = route.brokerDatas.find((b) => b.brokerName === q.brokerName);
      if (bd === undefined || !bd.brokerAddrs.some(([id]) => id === MASTER_ID)) continue;
      for (let i = 0; i < q.writeQueueNums; i++) queues.push({ topic, brokerName: q.brokerName, queueId: i, body: undefined });
    }
    return { queues, index: this.rng.int(0x7fffffff) };
  }

  private addrInRoutes(addr: string): boolean {
    for (const r of this.topicRouteTable.values()) {
      for (const bd of r.brokerDatas) if (bd.brokerAddrs.some(([, a]) => a === addr)) return true;
    }
    return false;
  }

  // ---- cleanOfflineBroker + heartbeats -----------------------------------------------------

  private *cleanAndHeartbeat(): Co<void> {
    for (const [name, addrs] of [...this.brokerAddrTable]) {
      for (const [id, addr] of [...addrs]) {
        if (this.addrInRoutes(addr)) continue;
        addrs.delete(id);
        this.logClient('INFO', `the broker addr[${name} ${addr}] is offline, remove it`);
      }
      if (addrs.size === 0) {
        this.brokerAddrTable.delete(name);
        this.logClient('INFO', `the broker[${name}] name's host is offline, remove it`);
      }
    }
    const times = this.heartbeatTimes++;
    for (const [name, addrs] of [...this.brokerAddrTable]) {
      const addr = addrs.get(MASTER_ID);
      if (addr === undefined) continue; // a producer-only client heartbeats masters only
      const r = yield* this.remoting.invokeSync(addr, RequestCode.HEART_BEAT, { group: this.config.group, clientId: this.clientId }, this.s.mqClientApiTimeoutMs);
      const broker = { brokerName: name, brokerId: MASTER_ID, brokerAddr: addr };
      if (r.ok) {
        if (times % 20 === 0) this.logClient('INFO', `send heart beat to broker[${name} ${MASTER_ID} ${addr}] success`);
      } else if (this.addrInRoutes(addr)) this.logClient(this.profile.heartbeatFailLevel, renderMessage('heartbeat-failed/failed', broker), r.exc);
      else this.logClient(this.profile.heartbeatFailLevel, renderMessage('heartbeat-failed/not-up', broker), r.exc);
    }
  }

  // ---- fault strategy (MQFaultStrategy) ----------------------------------------------------

  private get tables(): FaultTables {
    return this.profile.faultTables === 'latency-514' ? FAULT_TABLES_514 : FAULT_TABLES_4X;
  }

  private updateFaultItem(brokerName: string, latencyMs: number, isolation: boolean, reachable: boolean): void {
    if (!this.s.sendLatencyFaultEnable) return;
    const t = this.tables;
    const duration = isolation ? isolationMs(t) : notAvailableDuration(t, latencyMs);
    const prev = this.faultItems.get(brokerName);
    if (this.profile.faultTables === 'latency-514') {
      const startMs = Math.max(prev?.startMs ?? 0, this.nowMs + duration);
      this.faultItems.set(brokerName, { latencyMs, startMs, reachable });
    } else this.faultItems.set(brokerName, { latencyMs, startMs: this.nowMs + duration, reachable: true });
  }

  private isAvailable(brokerName: string): boolean {
    const f = this.faultItems.get(brokerName);
    return f === undefined || this.nowMs >= f.startMs;
  }

  private isReachable(brokerName: string): boolean {
    return this.faultItems.get(brokerName)?.reachable ?? true;
  }

  /**
   * A logged send's first queue: the next of the broker its attempt went to (the logs say where, not
   * which of sendWhichQueue's per-thread indexes picked it); null when the route has no queue there.
   */
  private nextQueueOf(tp: TopicPublishInfo, brokerName: string): MessageQueue | null {
    const size = tp.queues.length;
    for (let i = 0; i < size; i++) {
      tp.index = (tp.index + 1) | 0;
      const mq = tp.queues[Math.abs(tp.index) % size];
      if (mq.brokerName === brokerName) return mq;
    }
    return null;
  }

  private roundRobin(tp: TopicPublishInfo, lastBrokerName: string | null): MessageQueue {
    const size = tp.queues.length;
    if (lastBrokerName !== null) {
      for (let i = 0; i < size; i++) {
        tp.index = (tp.index + 1) | 0;
        const mq = tp.queues[Math.abs(tp.index) % size];
        if (mq.brokerName !== lastBrokerName) return mq;
      }
    }
    tp.index = (tp.index + 1) | 0;
    return tp.queues[Math.abs(tp.index) % size];
  }

  private selectOneMessageQueue(tp: TopicPublishInfo, lastBrokerName: string | null, retry: boolean): MessageQueue | null {
    const size = tp.queues.length;
    if (size === 0) return null;
    if (this.profile.faultTables === 'latency-514') {
      if (this.s.sendLatencyFaultEnable && retry) tp.index = this.rng.int(0x7fffffff);
      const probe = (ok: (mq: MessageQueue) => boolean): MessageQueue | null => {
        for (let i = 0; i < size; i++) {
          tp.index = (tp.index + 1) | 0;
          const mq = tp.queues[Math.abs(tp.index) % size];
          if (ok(mq)) return mq;
        }
        return null;
      };
      const notLast = (mq: MessageQueue): boolean => mq.brokerName !== lastBrokerName;
      if (this.s.sendLatencyFaultEnable) {
        return (
          probe((mq) => this.isAvailable(mq.brokerName) && notLast(mq)) ??
          probe((mq) => this.isReachable(mq.brokerName) && notLast(mq)) ??
          this.roundRobin(tp, null)
        );
      }
      return probe(notLast) ?? this.roundRobin(tp, null);
    }
    if (!this.s.sendLatencyFaultEnable) return this.roundRobin(tp, lastBrokerName);
    // 4.x enabled: an available broker (≤4.7.1: preferring the last one), else pickOneAtLeast.
    tp.index = (tp.index + 1) | 0;
    let index = tp.index;
    for (let i = 0; i < size; i++) {
      const mq = tp.queues[Math.abs(index++) % size];
      if (this.isAvailable(mq.brokerName)) {
        if (!this.profile.faultPrefersLastBroker || lastBrokerName === null || mq.brokerName === lastBrokerName) return mq;
      }
    }
    const notBest = this.pickOneAtLeast();
    if (notBest !== null) {
      const writeQueueNums = tp.queues.filter((q) => q.brokerName === notBest).length;
      if (writeQueueNums > 0) {
        tp.index = (tp.index + 1) | 0;
        return { topic: tp.queues[0].topic, brokerName: notBest, queueId: Math.abs(tp.index) % writeQueueNums, body: undefined };
      }
      this.faultItems.delete(notBest);
    }
    return this.roundRobin(tp, null);
  }

  private pickOneAtLeast(): string | null {
    const items = this.rng.shuffle([...this.faultItems.entries()]);
    if (items.length === 0) return null;
    const now = this.nowMs;
    items.sort(([, a], [, b]) => {
      const aa = now >= a.startMs ? 0 : 1;
      const bb = now >= b.startMs ? 0 : 1;
      if (aa !== bb) return aa - bb;
      if (a.latencyMs !== b.latencyMs) return a.latencyMs - b.latencyMs;
      return a.startMs - b.startMs;
    });
    const half = Math.floor(items.length / 2);
    if (half <= 0) return items[0][0];
    this.whichItemWorst = (this.whichItemWorst + 1) | 0;
    return items[Math.abs(this.whichItemWorst) % half][0];
  }

  // ---- send ---------------------------------------------------------------------------------

  private clientException(msg: string, cause?: JavaException): JavaException {
    const text = msg.includes('\nSee ') ? msg : `${msg}\nFor more information, please visit the url, ${this.profile.faqUrl}`;
    return { cls: MQ_CLIENT_EXCEPTION, msg: text, ...(cause ? { cause } : {}) };
  }

  private brokerException(code: number, remark: string | null, addr: string): JavaException {
    let msg = responseExceptionMessage(code, remark, this.profile.brokerAddrInException ? addr : null);
    if (!msg.includes('\nSee ')) msg += `\nFor more information, please visit the url, ${this.profile.faqUrl}`;
    return { cls: MQ_BROKER_EXCEPTION, msg };
  }

  /**
   * One application send (DefaultMQProducer.send). sendDefaultImpl's attempt loop has one form, in
   * callbacks (no coroutine per send): a route to fetch first, an attempt whose broker address or
   * channel is not ready yet, run as coroutines and come back into it.
   */
  private startSend(toBroker: string | null = null, fromRate = false): void {
    const m = this.metrics;
    const thread = this.senderThread(fromRate);
    if (thread === null) {
      m.shedSends++;
      return;
    }
    m.sends++;
    // The application's message: its tag is taken when it is made (new Message(topic, tags, ...)).
    const tag = this.tagRotation?.next() ?? null;
    if (this.config.selector) {
      spawn(this.sendSelectImpl(tag)).then((r) => this.sendDone(thread, r));
      return;
    }
    const begin = this.nowMs;
    // sendDefaultImpl: `timesTotal = SYNC ? 1 + retryTimesWhenSendFailed : 1`; an asynchronous
    // send's retries are MQClientAPIImpl's (onExceptionImpl, retryTimesWhenSendAsyncFailed).
    const timesTotal = this.config.async ? 1 : 1 + this.s.retryTimesWhenSendFailed;
    const tp = this.readyPublishInfo(this.config.topic);
    if (tp !== null) return this.sendAttempt(this.newSend(thread, tp, begin, timesTotal, tag, toBroker));
    spawn(this.publishInfoForSend(this.config.topic)).then((r) => {
      if ('exc' in r) this.sendDone(thread, { ok: false, exc: r.exc, callTimeout: false });
      else this.sendAttempt(this.newSend(thread, r.tp, begin, timesTotal, tag, toBroker));
    });
  }

  /**
   * The application thread a send runs on, or null when the send is not made: every one of the
   * application's sendThreads is in a synchronous send and the send comes from the rate (a send the
   * logs show was made, on a thread beside them). An asynchronous send returns at once
   * (DefaultMQProducerImpl.sendDefaultImpl hands it to the async sender executor): it holds none.
   */
  private senderThread(fromRate: boolean): string | null {
    const n = this.config.sendThreads;
    if (n === undefined || this.config.async) {
      this.senderTurn = (this.senderTurn % 8) + 1;
      return SENDER_THREADS[this.senderTurn];
    }
    for (let i = 1; i <= n; i++) {
      const name = `sender-${i}`;
      if (!this.busySenders.has(name)) {
        this.busySenders.add(name);
        return name;
      }
    }
    return fromRate ? null : `sender-${n + 1}`;
  }

  private readonly freeSends: DefaultSend[] = [];
  private callbackThreads = 0;
  private asyncSenderThreads = 0;
  /** The application's logger and message for a failed send (made once: each failure's event keeps the logger). */
  private publisherLogger = '';
  private sendFailedText = '';

  private newSend(thread: string, tp: TopicPublishInfo, begin: number, timesTotal: number, tag: string | null, toBroker: string | null): DefaultSend {
    let op = this.freeSends.pop();
    if (op === undefined) op = new DefaultSend(this, thread, tp, begin, timesTotal);
    else op.reuse(thread, tp, begin, timesTotal);
    op.tag = tag;
    op.toBroker = toBroker;
    op.msgKey = this.copies?.newMessage() ?? -1;
    if (this.config.async) op.asyncLeft = this.s.retryTimesWhenSendAsyncFailed;
    return op;
  }

  /** The send ends: its outcome is told, and its state is free for the next send. */
  private opDone(op: DefaultSend, r: SendOutcome): void {
    this.copies?.ended(op.msgKey, op.times > 0 || !r.ok);
    this.sendDone(op.thread, r);
    op.free = true;
    this.freeSends.push(op);
  }

  private sendDone(thread: string, r: SendOutcome): void {
    const m = this.metrics;
    this.busySenders.delete(thread);
    if (r.ok) {
      m.okSends++;
      return;
    }
    if (r.callTimeout) m.sendCallTimeouts++;
    this.appLog.write('ERROR', thread, this.publisherLogger, this.sendFailedText, r.exc);
    this.recorder.sendFailed(m, this.nowMs);
  }

  /** The attempt loop of sendDefaultImpl in callback form (from the first selection on). */
  private sendAttempt(op: DefaultSend): void {
    const timeout = this.s.sendMsgTimeoutMs;
    if (op.times >= op.timesTotal) return this.opDone(op, this.sendFailedOutcome(op.begin, op.times, op.brokersSent(), op.lastExc, false));
    const lastBrokerName: string | null = op.mq === null ? null : op.mq.brokerName;
    const selected = (op.times === 0 && op.toBroker !== null ? this.nextQueueOf(op.tp, op.toBroker) : null) ?? this.selectOneMessageQueue(op.tp, lastBrokerName, op.times > 0);
    if (selected === null) return this.opDone(op, this.sendFailedOutcome(op.begin, op.times, op.brokersSent(), op.lastExc, false));
    const mq = selected;
    op.mq = mq;
    op.setBroker(op.times, mq.brokerName);
    op.beginPrev = this.nowMs;
    const costTime = op.beginPrev - op.begin;
    if (timeout < costTime) return this.opDone(op, this.sendFailedOutcome(op.begin, op.times, op.brokersSent(), op.lastExc, true));
    this.invokeAttempt(op, mq, timeout - costTime);
  }

  /** One attempt's request to mq's broker, given `left` ms (sendKernelImpl; an ASYNC send's goes out through invokeAsync). */
  private invokeAttempt(op: DefaultSend, mq: MessageQueue, left: number): void {
    const async = op.asyncLeft !== null;
    op.givenMs = left;
    let addr = this.brokerAddrTable.get(mq.brokerName)?.get(MASTER_ID) ?? null;
    if (addr === null) {
      spawn(this.sendKernelImpl(mq, left, op.tag, op.msgKey, async)).then((a) => this.attemptDone(op, a));
      return;
    }
    if (this.profile.vipChannel) addr = brokerVipAddr(addr);
    const body = op.tag === null ? (mq.body ??= { topic: mq.topic, queueId: mq.queueId, producerGroup: this.config.group }) : this.sendBody(mq, op.tag);
    op.addr = addr;
    if (!this.remoting.invokeCached(addr, RequestCode.SEND_MESSAGE, body, left, op, op.msgKey, async)) {
      spawn(this.remoting.invokeSync(addr, RequestCode.SEND_MESSAGE, body, left, op.msgKey, async)).then((r) => op.rpcDone(r));
    }
  }

  /** @internal (DefaultSend) */
  attemptDone(op: DefaultSend, a: Attempt): void {
    if (op.free) fail(`${this.config.name}: a send that is done got an attempt's result`);
    const mq = op.mq!;
    const rtMs = this.nowMs - op.beginPrev;
    if (a.ok) {
      this.updateFaultItem(mq.brokerName, rtMs, false, true);
      return this.opDone(op, SEND_OK);
    }
    this.metrics.failedAttempts++;
    // 4.x isolates on any exception; 5.1.4+ isolates on remoting and broker errors only, and marks
    // a broker error unreachable (the detector, off by default, would make it reachable again).
    if (a.kind === 'broker') this.updateFaultItem(mq.brokerName, rtMs, true, false);
    else if (a.kind === 'remoting') this.updateFaultItem(mq.brokerName, rtMs, true, true);
    else this.updateFaultItem(mq.brokerName, rtMs, this.profile.faultTables === 'latency-4x', true);
    // An ASYNC send's failure is its InvokeCallback's (or sendMessageAsync's catch): sendDefaultImpl logs nothing of it.
    if (op.asyncLeft !== null) return this.asyncAttemptFailed(op, a, rtMs);
    op.invokeId ??= this.rng.javaLong();
    this.logAttemptFailure(op.thread, op.invokeId, rtMs, mq, a.exc);
    op.lastExc = a.exc;
    if (a.kind === 'broker' && !this.profile.retryResponseCodes.includes(a.code)) return this.opDone(op, { ok: false, exc: a.exc, callTimeout: false });
    op.times++;
    this.sendAttempt(op);
  }

  /**
   * An asynchronous send's failed attempt, as MQClientAPIImpl.sendMessageAsync's InvokeCallback
   * handles it (4.x and 5.x): a broker's error reply goes to the SendCallback's onException as it is
   * (processSendResponse throws it, onExceptionImpl with needRetry false); a request that timed out
   * (`wait response timeout`) or could not be sent is sent again through onExceptionImpl, up to
   * retryTimesWhenSendAsyncFailed times, to the queue selectOneMessageQueue(lastBrokerName) picks
   * (asyncRetry). Before 4.9.3 a first request that could not be sent leaves sendKernelImpl instead.
   */
  private asyncAttemptFailed(op: DefaultSend, a: Exclude<Attempt, { ok: true }>, rtMs: number): void {
    // A request the channel's close failed (failFast) reaches the callback; a connect failure is thrown by invokeAsync.
    const unsent = a.exc.cls.endsWith('RemotingSendRequestException');
    if (a.kind !== 'broker' && !a.timeout && !unsent && !this.profile.asyncRetriesUnsent && op.times === 0) {
      // Before 4.9.3 the exception leaves sendKernelImpl: sendDefaultImpl logs it, and its one attempt is over.
      op.invokeId ??= this.rng.javaLong();
      this.logAttemptFailure(op.thread, op.invokeId, rtMs, op.mq!, a.exc);
      op.lastExc = a.exc;
      this.asyncSenderThreads = (this.asyncSenderThreads % ASYNC_SENDER_THREADS) + 1;
      op.thread = `${CLIENT_THREADS.asyncSender}${this.asyncSenderThreads}`;
      op.times++;
      return this.opDone(op, this.sendFailedOutcome(op.begin, op.times, op.brokersSent(), op.lastExc, false));
    }
    // The callback makes its own exception of a timeout (4.x-5.1.x: the time the request was given;
    // 5.2.0+: its cost) and of a request that was not sent (`send request failed`); what invokeAsync
    // threw (a connect failure) it takes as it is.
    const exc =
      a.kind === 'broker' || !a.timeout
        ? unsent
          ? this.clientException('send request failed', a.exc)
          : a.exc
        : this.profile.asyncTimeoutCost
          ? this.clientException(renderMessage('rpc-timeout/async-send-wait-response-cost', { cost: Math.floor(rtMs) }), a.exc)
          : this.clientException(renderMessage('rpc-timeout/async-send-wait-response', { timeoutMs: Math.floor(op.givenMs) }));
    if (a.kind === 'broker') return this.asyncCallback(op, exc, [PROCESS_SEND_RESPONSE_FRAME, ...ASYNC_CALLBACK_FRAMES]);
    // 5.3.2+ onExceptionImpl retries only with time left (`timeoutMillis > 0`): never after a timeout.
    const spent = this.s.sendMsgTimeoutMs - (this.nowMs - op.begin) <= 0;
    if (op.asyncLeft! <= 0 || (spent && this.profile.asyncTimeoutRetry === 'none')) return this.asyncCallback(op, exc, ASYNC_CALLBACK_FRAMES);
    this.asyncRetry(op, exc);
  }

  /** The SendCallback's onException, on the client's callback executor (NettyRemotingClient's publicExecutor). */
  private asyncCallback(op: DefaultSend, exc: JavaException, frames: readonly string[]): void {
    this.callbackThreads = (this.callbackThreads % CALLBACK_THREADS) + 1;
    op.thread = `${CLIENT_THREADS.callback}${this.callbackThreads}`;
    this.opDone(op, { ok: false, exc: { ...exc, frames: [...frames] }, callTimeout: false });
  }

  /**
   * MQClientAPIImpl.onExceptionImpl's retry of an ASYNC send (a retry left): the queue
   * selectOneMessageQueue(lastBrokerName) picks, its `async send msg by retry` line, and the request
   * with what is left of the budget (asyncTimeoutRetry: 0 ms up to 4.6.1). After a timeout nothing
   * is left: invokeAsync throws RemotingTooMuchRequestException before the call, which each release
   * handles its way (ClientProfile.asyncTimeoutRetry).
   */
  private asyncRetry(op: DefaultSend, exc: JavaException): void {
    op.asyncLeft!--;
    op.times++;
    op.timesTotal++;
    const mq = this.selectOneMessageQueue(op.tp, op.mq!.brokerName, true);
    if (mq === null) return this.asyncCallback(op, exc, ASYNC_CALLBACK_FRAMES);
    op.mq = mq;
    op.setBroker(op.times, mq.brokerName);
    const addr = this.brokerAddrTable.get(mq.brokerName)?.get(MASTER_ID) ?? null;
    this.logAsyncRetry(op, mq, addr, exc);
    const mode = this.profile.asyncTimeoutRetry;
    const left = mode === 'zero-budget' ? 0 : this.s.sendMsgTimeoutMs - (this.nowMs - op.begin);
    op.beginPrev = this.nowMs;
    if (left >= 0) return this.invokeAttempt(op, mq, left);
    const tooMuch: JavaException = { ...this.remoting.callTimeout(addr, true), frames: [...ASYNC_RETRY_FRAMES, ...ASYNC_CALLBACK_FRAMES] };
    if (mode === 'spent-stops') return this.asyncCallback(op, tooMuch, tooMuch.frames!);
    // sendMessageAsync's catch (4.9.3+) or the callback's operationFail (5.3.0-5.3.1) isolates the retry's broker.
    this.updateFaultItem(mq.brokerName, 0, true, mode === 'spent-callback');
    if (mode === 'spent-callback') return this.asyncCallback(op, this.clientException('unknown reason', tooMuch), ASYNC_CALLBACK_FRAMES);
    if (op.asyncLeft! <= 0) return this.asyncCallback(op, tooMuch, tooMuch.frames!);
    this.asyncRetry(op, tooMuch);
  }

  /** onExceptionImpl's line: INFO without the exception up to 4.9.2, WARN with it from 4.9.3 (whose String.format left the placeholders). */
  private logAsyncRetry(op: DefaultSend, mq: MessageQueue, addr: string | null, exc: JavaException): void {
    this.callbackThreads = (this.callbackThreads % CALLBACK_THREADS) + 1;
    const thread = `${CLIENT_THREADS.callback}${this.callbackThreads}`;
    const warn = this.profile.asyncRetriesUnsent;
    const args = this.profile.asyncRetryLiteral ? { times: '{}', topic: '{}', brokerAddr: '{}', brokerName: '{}' } : { times: op.times, topic: mq.topic, brokerAddr: addr, brokerName: mq.brokerName };
    const text = renderMessage('send-async-retry/by-retry', args);
    this.logClient(warn ? 'WARN' : 'INFO', text, warn ? { ...exc, frames: exc.frames ?? ASYNC_CALLBACK_FRAMES } : undefined, 'o.a.r.c.i.MQClientAPIImpl', thread);
  }

  /** How sendDefaultImpl ends when no attempt succeeded. */
  private sendFailedOutcome(begin: number, times: number, brokersSent: Array<string | null>, lastExc: JavaException | null, callTimeout: boolean): SendOutcome {
    if (callTimeout) return { ok: false, exc: Exceptions.tooMuch(renderMessage('send-call-timeout/producer')), callTimeout: true };
    const topic = this.config.topic;
    const failed = renderMessage('send-failed/still-failed', { attempts: times, costMs: Math.floor(this.nowMs - begin), topic, brokersSent });
    const info = `${failed}\nSee ${this.profile.faqUrl} for further details.`;
    return { ok: false, exc: this.clientException(info, lastExc ?? undefined), callTimeout: false };
  }

  private readyPublishInfo(topic: string): TopicPublishInfo | null {
    const tp = this.publishInfo.get(topic);
    return tp !== undefined && tp.queues.length > 0 ? tp : null;
  }

  /** tryToFindTopicPublishInfo: a topic seen for the first time is fetched on the send path. */
  private *tryToFindTopicPublishInfo(topic: string): Co<{ tp: TopicPublishInfo | null } | { exc: JavaException }> {
    let tp = this.publishInfo.get(topic);
    if (tp === undefined || tp.queues.length === 0) {
      if (tp === undefined) this.publishInfo.set(topic, { queues: [], index: 0 });
      const abort = yield* this.updateTopicRoute(topic);
      if (abort !== null) return { exc: { cls: 'java.lang.IllegalStateException', msg: exceptionText(abort), cause: abort } };
      tp = this.publishInfo.get(topic);
    }
    return { tp: tp !== undefined && tp.queues.length > 0 ? tp : null };
  }

  /** sendDefaultImpl before its first attempt: the topic's route, fetched if not known yet; none ends the send. */
  private *publishInfoForSend(topic: string): Co<{ tp: TopicPublishInfo } | { exc: JavaException }> {
    const found = yield* this.tryToFindTopicPublishInfo(topic);
    if ('exc' in found) return found;
    if (found.tp !== null) return { tp: found.tp };
    const text = renderMessage(this.profile.noRouteColon ? 'no-route/of-this-topic-colon' : 'no-route/of-this-topic-comma', { topic });
    return { exc: this.clientException(`${text}\nSee ${this.profile.faqUrl} for further details.`) };
  }

  private logAttemptFailure(thread: string, invokeId: string, rtMs: number, mq: MessageQueue, exc: JavaException): void {
    const mqText = `MessageQueue [topic=${mq.topic}, brokerName=${mq.brokerName}, queueId=${mq.queueId}]`;
    const text = this.profile.sendKernelUnformatted
      ? renderMessage('send-attempt-failed/unformatted')
      : renderMessage('send-attempt-failed/resend', { invokeId, rtMs: Math.floor(rtMs), mq: mqText });
    const logger = 'o.a.r.c.i.p.DefaultMQProducerImpl';
    this.logClient('WARN', text, exc, logger, thread);
    if (this.profile.logMessageBody) {
      this.logClient('WARN', `Message{topic='${mq.topic}', flag=0, properties={WAIT=true}, body=[104, 101, 108, 108, 111], transactionId='null'}`, undefined, logger, thread);
    }
  }

  /** sendSelectImpl: one attempt on the queue the selector picks; no retry, no fault update. */
  private *sendSelectImpl(tag: string | null): Co<SendOutcome> {
    const topic = this.config.topic;
    const begin = this.nowMs;
    const found = yield* this.tryToFindTopicPublishInfo(topic);
    if ('exc' in found) return { ok: false, exc: found.exc, callTimeout: false };
    if (found.tp === null) {
      const text = renderMessage('no-route/for-this-topic', { topic });
      return { ok: false, exc: this.clientException(`${text}\nSee ${this.profile.faqUrl} for further details.`), callTimeout: false };
    }
    const queues = found.tp.queues;
    const key = this.config.selectorQueue ?? this.msgKey++;
    const mq = queues[key % queues.length];
    const costTime = this.nowMs - begin;
    if (this.s.sendMsgTimeoutMs < costTime) return { ok: false, exc: Exceptions.tooMuch(renderMessage('send-call-timeout/producer', {}, 'sendSelectImpl')), callTimeout: true };
    const a = yield* this.sendKernelImpl(mq, this.s.sendMsgTimeoutMs - costTime, tag);
    if (a.ok) return { ok: true };
    // Thrown to the application as it is: its stack goes through sendKernelImpl and sendSelectImpl.
    return { ok: false, exc: thrownThrough(a.exc, SELECT_FRAMES), callTimeout: false };
  }

  /** The request body of a message with a tag (a body per message: the tag is the message's). */
  private sendBody(mq: MessageQueue, tag: string | null): SendBody {
    const body: SendBody = { topic: mq.topic, queueId: mq.queueId, producerGroup: this.config.group };
    if (tag !== null) body.tag = tag;
    return body;
  }

  private *sendKernelImpl(mq: MessageQueue, timeoutMs: number, tag: string | null, msgKey = -1, async = false): Co<Attempt> {
    let addr = this.brokerAddrTable.get(mq.brokerName)?.get(MASTER_ID) ?? null;
    if (addr === null) {
      yield* this.tryToFindTopicPublishInfo(mq.topic);
      addr = this.brokerAddrTable.get(mq.brokerName)?.get(MASTER_ID) ?? null;
    }
    if (addr === null) return { ok: false, kind: 'client', exc: this.clientException(`The broker[${mq.brokerName}] not exist`), timeout: false };
    if (this.profile.vipChannel) addr = brokerVipAddr(addr);
    const body = this.sendBody(mq, tag);
    const r = yield* this.remoting.invokeSync(addr, RequestCode.SEND_MESSAGE, body, timeoutMs, msgKey, async);
    return this.attemptOf(r, addr);
  }

  /** The outcome of one attempt from its invokeSync result. */
  /** @internal (DefaultSend) */
  attemptOf(r: RpcResult, addr: string): Attempt {
    if (!r.ok) return { ok: false, kind: 'remoting', exc: r.exc, timeout: r.why === 'timeout' };
    return this.attemptOfResponse(r.resp, addr);
  }

  /** @internal (DefaultSend) The outcome of one attempt from the broker's response. */
  attemptOfResponse(resp: Response, addr: string): Attempt {
    const code = resp.code;
    // FLUSH_DISK_TIMEOUT (10), SLAVE_NOT_AVAILABLE (11), FLUSH_SLAVE_TIMEOUT (12) return a SendResult.
    if (code === ResponseCode.SUCCESS || code === 10 || code === 11 || code === 12) return ATTEMPT_OK;
    return { ok: false, kind: 'broker', code, exc: this.brokerException(code, resp.remark, addr), timeout: false };
  }

  /** The name server the client currently uses (tests). */
  get chosenNamesrv(): string | null {
    return this.remoting.namesrvAddrChoosed;
  }
}
