// Broker: registration with every NameServer, the send thread pool and its queue, BrokerFastFailure,
// page-cache-busy and whole-broker stalls (BrokerController, BrokerFastFailure, BrokerOuterAPI,
// DefaultMessageStore).
//
// Send path: a request is refused at admission while the page cache is busy ([REJECTREQUEST]) or
// when the queue is full ([OVERLOAD]); otherwise it waits in the send queue (capacity 10000) for one
// of the send threads. BrokerFastFailure looks at the *head* of the queue every 10 ms: while the
// page cache is busy it drains the queue ([PCBUSY_CLEAN_QUEUE]); then it removes heads that waited
// at least waitTimeMillsInSendQueue (200 ms) ([TIMEOUT_CLEAN_QUEUE]). In a steady overload the
// reported waits are therefore 200-209 ms; a stall that freezes the workers and the cleaner (GC,
// safepoint) reports waits as long as the stall.

import { Priority, type Timer } from './kernel.js';
import type { JavaException, Level, LogFile, LogSink } from './log.js';
import { Process, RequestCode, ResponseCode, type Channel, type Host, type Listener, type Network, type Request } from './network.js';
import type { Rng } from './random.js';
import { RemotingClient } from './remoting.js';
import { type Co, Signal, spawn, wait } from './coroutine.js';
import { ScheduledThread } from './scheduled.js';
import { MessageStore } from './store.js';
import type { MessageCopies } from './copies.js';
import { MASTER_ID, type RegisterBrokerBody, type TopicConfig } from './route.js';
import { serverProfile, type ServerProfile } from './versions.js';
import { CONSUMER_OFFSET_FLUSH, FAST_FAILURE, REFRESH_METADATA, SERVER, TIMEOUTS } from '../rocketmq/facts.js';
import { factHolds, mqVersionOrdinal } from '../rocketmq/versions.js';
import { renderMessage, responseExceptionMessage } from '../parse/message-render.js';
import type { Zone } from '../parse/time.js';

/** The body of a successful send response (nobody reads or changes it; one object for all). */
const SEND_RESULT_BODY = Object.freeze({ queueOffset: 0 });

export interface ServiceTime {
  /** Mean time a send thread spends on one put, ms. */
  meanMs: number;
  sdMs: number;
}

export interface BrokerConfig {
  name: string;
  /** `ip:port` (listen port, 10911). */
  addr: string;
  version: string;
  role: 'master' | 'slave';
  cluster: string;
  namesrvAddrs: string[];
  topics: TopicConfig[];
  /** Cores of the host (send threads are min(cores, 4) from 4.9.1). */
  cores?: number;
  sendMessageThreadPoolNums?: number;
  sendThreadPoolQueueCapacity?: number;
  waitTimeMillsInSendQueue?: number;
  brokerFastFailureEnable?: boolean;
  osPageCacheBusyTimeOutMills?: number;
  registerNameServerPeriodMs?: number;
  registerBrokerTimeoutMills?: number;
  /** Normal put service time. */
  service?: ServiceTime;
  /** Write watermark.log (every second after 10 s). */
  watermark?: boolean;
}

interface SendTask {
  createMs: number;
  /** Null for a send of a producer outside the scenario (its reply goes nowhere). */
  ch: Channel | null;
  req: Request;
}

/** The request of a send from a producer outside the scenario (one object for all). */
const BACKGROUND_SEND: Request = Object.freeze({ opaque: -1, code: RequestCode.SEND_MESSAGE, body: Object.freeze({ topic: 'background' }) }) as Request;

/** BrokerFastFailure's remark for a request it drops from the send queue. */
function busyText(entryId: 'busy-reply/timeout-clean-queue' | 'busy-reply/pcbusy-clean-queue', waitMs: number, size: number): string {
  return renderMessage(entryId, { waitMs: Math.floor(waitMs), queueSize: size });
}

/** CommitLog's warning for a put that held the lock over 500 ms (the model's puts are 5 bytes). */
function inLockText(costMs: number): string {
  return renderMessage('store-slow/in-lock', { costMs, bodyLength: 5, appendMessageResult: 'AppendMessageResult{status=PUT_OK}' });
}

/** storePathRootDir's default for a broker run as user rocketmq (user.home + /store). */
const STORE_PATH = '/home/rocketmq/store';

/**
 * The period of registerBrokerAll: BrokerController (4.x, 5.x) schedules it every
 * `Math.max(10000, Math.min(brokerConfig.getRegisterNameServerPeriod(), 60000))` ms (default 30 s).
 */
export function registerPeriodMs(configured: number | undefined): number {
  return Math.max(10000, Math.min(configured ?? 30000, 60000));
}

export class Broker extends Process implements Listener {
  readonly profile: ServerProfile;
  readonly addr: string;
  readonly port: number;
  readonly threads: number;
  private readonly capacity: number;
  private readonly waitMaxMs: number;
  private readonly pcBusyMs: number;
  private readonly fastFailure: boolean;
  private normal: ServiceTime;
  private overload: { untilMs: number; service: ServiceTime } | null = null;
  /** The store marked its disk full (until it marks it OK): putMessage refuses every write. */
  private diskFull: { untilMs: number; ratio: number; refused: number } | null = null;
  private readonly remoting: RemotingClient;
  private readonly brokerLog: LogFile;
  private readonly remotingLog: LogFile;
  private readonly storeLog: LogFile;
  private readonly watermarkLog: LogFile | null;

  // send pool
  /** The send queue from head on; the slots before head are cleared (a task taken is not kept alive). */
  private queue: Array<SendTask | undefined> = [];
  private head = 0;
  private busyWorkers = 0;
  private cleanerBaseMs = 0;
  /** When it last started: PullRequestHoldService's 5 s checks run from then (the consumers' pulls, consumer.ts). */
  bootMs = 0;
  private cleanerTimer: Timer | null = null;
  private lastCleanerMs = Number.NEGATIVE_INFINITY;
  private lastJstackMs = Number.NEGATIVE_INFINITY;
  // stalls and the page cache
  private stalledUntilMs = 0;
  /** Netty reads nothing until then (a JVM that gets no CPU); arrivals wait in the socket. */
  private ioFrozenUntilMs = 0;
  private heldArrivals: Array<() => void> = [];
  private lockBeginMs = 0;
  private lockUntilMs = 0;
  private outThread = 0;
  private codecThread = 0;
  private producers = new Set<Channel>();
  private readonly epochMs: number;
  /** BrokerController's scheduledExecutorService: registrations, the metadata refresh, watermarks, offset persists. */
  private readonly scheduled = new ScheduledThread(this);
  /** The consume queues, retry topics and consumer offsets (kept on disk across a restart). */
  readonly store: MessageStore;
  /** The run's book of messages stored more than once (none: not kept). */
  copies: MessageCopies | null = null;

  /** Busy replies sent, by reason (tests, reports). */
  readonly busyReplies: Array<{ atMs: number; reason: string; waitMs: number | null; size: number | null }> = [];

  constructor(
    net: Network,
    host: Host,
    readonly config: BrokerConfig,
    sink: LogSink,
    zone: Zone,
    private readonly rng: Rng,
  ) {
    super(net, host, `broker:${config.name}`);
    this.profile = serverProfile(config.version);
    this.remotingVersion = mqVersionOrdinal(this.profile.v);
    this.store = new MessageStore(config.name);
    this.epochMs = sink.startEpochMs;
    this.addr = config.addr;
    this.port = Number(config.addr.slice(config.addr.lastIndexOf(':') + 1));
    this.threads = config.sendMessageThreadPoolNums ?? this.profile.sendThreadPoolNums(config.cores ?? 8);
    this.capacity = config.sendThreadPoolQueueCapacity ?? 10000;
    this.waitMaxMs = config.waitTimeMillsInSendQueue ?? 200;
    this.pcBusyMs = config.osPageCacheBusyTimeOutMills ?? 1000;
    this.fastFailure = config.brokerFastFailureEnable ?? true;
    this.normal = config.service ?? { meanMs: 0.5, sdMs: 0.2 };
    const file = (name: string, kind: 'broker' | 'remoting' | 'store' | 'watermark', layout: 'rocketmq-server' | 'rocketmq-bare' = 'rocketmq-server') =>
      sink.file({ host: host.name, name, kind, layout, zone });
    this.brokerLog = file('broker.log', 'broker');
    this.remotingLog = file('remoting.log', 'remoting');
    this.storeLog = file('store.log', 'store');
    this.watermarkLog = config.watermark === false ? null : file('watermark.log', 'watermark', 'rocketmq-bare');
    this.remoting = new RemotingClient({
      proc: this,
      profile: this.profile.remoting,
      log: (level, msg, exc) => this.remotingLog.write(level, 'brokerOutApi_thread_1', null, msg, exc),
      closeSocketIfTimeout: this.profile.closeSocketIfTimeout,
      connectTimeoutMs: TIMEOUTS.connectMs,
      channelMaxIdleMs: 120000,
      rng,
    });
  }

  private get brokerId(): number {
    return this.config.role === 'master' ? MASTER_ID : 1;
  }

  private writeBroker(level: Level, thread: string, msg: string, exc?: JavaException): void {
    this.brokerLog.write(level, thread, null, msg, exc);
  }

  /** A line of the broker's consumer book or pull processor (ConsumerGroupInfo, PullMessageProcessor), written for a consumer group. */
  writeConsumerLine(level: Level, thread: string, msg: string): void {
    this.writeBroker(level, thread, msg);
  }

  /** Epoch ms of a model time (a client's SubscriptionData version is its clock's). */
  epochOf(ms: number): number {
    return Math.floor(this.epochMs + ms);
  }

  // ---- life -------------------------------------------------------------------------------

  protected boot(): void {
    this.bootMs = this.nowMs;
    this.cleanerBaseMs = this.nowMs + FAST_FAILURE.firstDelayMs;
    this.remoting.updateNameServerAddressList(this.config.namesrvAddrs, false);
    this.net.listen(this, this.port, this);
    this.net.listen(this, this.port - 2, this); // fastRemotingServer (the VIP channel)
    const ns = this.config.namesrvAddrs.join(';');
    const tip = renderMessage('startup/broker', { brokerName: this.config.name, brokerAddr: this.addr, serializeType: 'JSON', namesrvAddr: ns }, 'namesrv');
    this.writeBroker('INFO', 'main', tip);
    this.registerBrokerAll();
    // One thread runs them all, in the order BrokerController schedules them (initialize's persists
    // and watermark before start's registration and metadata refresh): a registration or a refresh
    // that waits on a NameServer holds back the others (ScheduledThread).
    const t = this.scheduled;
    t.reset();
    t.scheduleAtFixedRate(CONSUMER_OFFSET_FLUSH.firstDelayMs, CONSUMER_OFFSET_FLUSH.intervalMs, () => this.store.flushOffsets());
    if (this.watermarkLog) t.scheduleAtFixedRate(10000, 1000, () => this.printWaterMark());
    t.scheduleAtFixedRate(10000, registerPeriodMs(this.config.registerNameServerPeriodMs), () => this.registerRound());
    if (factHolds(REFRESH_METADATA, this.profile.v)) t.scheduleAtFixedRate(REFRESH_METADATA.firstDelayMs, REFRESH_METADATA.periodMs, () => this.refreshMetadata());
  }

  /** The JVM's shutdown hook (SIGTERM): BrokerController.shutdown persists the consumer offsets before the process ends. */
  shutdownHook(): void {
    if (this.alive && this.host.state === 'up') this.store.flushOffsets();
  }

  protected onKilled(): void {
    this.scheduled.reset();
    this.store.dropHeld();
    // What it committed since its last persist is gone (a shutdown hook persisted just before).
    this.store.restoreFlushedOffsets();
    this.remoting.reset();
    this.queue = [];
    this.head = 0;
    this.busyWorkers = 0;
    this.cleanerTimer?.cancel();
    this.cleanerTimer = null;
    this.stalledUntilMs = 0;
    this.ioFrozenUntilMs = 0;
    this.heldArrivals = [];
    this.lockUntilMs = 0;
    this.producers = new Set();
    this.overload = null;
  }

  // ---- registration (BrokerOuterAPI.registerBrokerAll) ------------------------------------

  /**
   * A scheduled registration: BrokerOuterAPI.registerBrokerAll hands each NameServer's call to its
   * brokerOuterExecutor and waits on a CountDownLatch for all of them, up to registerBrokerTimeoutMills
   * (4.3.0-5.3.3); 5.x warns when the wait ran out. The scheduled thread is held meanwhile.
   */
  private *registerRound(): Co<void> {
    const timeoutMs = this.registerTimeoutMs();
    const all = this.registerBrokerAll();
    const timedOut = new Signal<boolean>();
    all.then(() => timedOut.resolve(false));
    if (!timedOut.settled) this.after(timeoutMs, () => timedOut.resolve(true), Priority.timer);
    if ((yield* wait(timedOut)) && this.profile.is5) {
      this.writeBroker('WARN', 'BrokerControllerScheduledThread1', renderMessage('register-failed/deadline', { timeoutMills: timeoutMs }));
    }
  }

  private registerTimeoutMs(): number {
    return this.config.registerBrokerTimeoutMills ?? this.profile.registerBrokerTimeoutMills;
  }

  /** One registration with every NameServer; the signal resolves when every call has ended. */
  private registerBrokerAll(): Signal<void> {
    const body: RegisterBrokerBody = {
      cluster: this.config.cluster,
      brokerName: this.config.name,
      brokerAddr: this.addr,
      brokerId: this.brokerId,
      haAddr: `${this.host.ip}:${this.port + 1}`,
      topics: this.config.topics,
    };
    const timeoutMs = this.registerTimeoutMs();
    const all = new Signal<void>();
    let left = this.config.namesrvAddrs.length;
    if (left === 0) all.resolve();
    for (const ns of this.config.namesrvAddrs) {
      this.outThread = (this.outThread % 4) + 1;
      const thread = `brokerOutApi_thread_${this.outThread}`;
      spawn(this.remoting.invokeSync(ns, RequestCode.REGISTER_BROKER, body, timeoutMs)).then((r) => {
        if (r.ok && r.resp.code === ResponseCode.SUCCESS) {
          const text = this.profile.is5
            ? renderMessage('broker-registered/registering-completed', { namesrvAddr: ns })
            : this.profile.registerOkBrokerId
              ? renderMessage('broker-registered/register-broker-id', { brokerId: this.brokerId, namesrvAddr: ns })
              : renderMessage('broker-registered/register-broker', { namesrvAddr: ns });
          this.writeBroker('INFO', thread, text);
        } else {
          const exc: JavaException = r.ok
            ? { cls: 'org.apache.rocketmq.client.exception.MQBrokerException', msg: responseExceptionMessage(r.resp.code, r.resp.remark) }
            : r.exc;
          if (this.profile.is5) this.writeBroker('ERROR', thread, renderMessage('register-failed/failed-to-register', { namesrvAddr: ns }), exc);
          else this.writeBroker('WARN', thread, renderMessage('register-failed/register-broker-exception', { namesrvAddr: ns }), exc);
        }
        if (--left === 0) all.resolve();
      });
    }
    return all;
  }

  /** 5.x BrokerOuterAPI.refreshMetadata: the cluster's info from the chosen NameServer (REFRESH_METADATA). */
  private *refreshMetadata(): Co<void> {
    const r = yield* this.remoting.invokeSync(null, RequestCode.GET_BROKER_CLUSTER_INFO, null, REFRESH_METADATA.timeoutMs);
    if (r.ok && r.resp.code === ResponseCode.SUCCESS) return;
    const exc: JavaException = r.ok ? { cls: 'org.apache.rocketmq.client.exception.MQBrokerException', msg: responseExceptionMessage(r.resp.code, r.resp.remark) } : r.exc;
    this.writeBroker('ERROR', 'BrokerControllerScheduledThread1', 'ScheduledTask refresh metadata exception', exc);
  }

  // ---- Netty server events -----------------------------------------------------------------

  private nettyThread(): string {
    this.codecThread = (this.codecThread % 8) + 1;
    return `NettyServerCodecThread_${this.codecThread}`;
  }

  onAccept(ch: Channel): void {
    this.remotingLog.write('INFO', this.nettyThread(), null, renderMessage('pipeline/server-active', { addr: ch.localAddr }));
  }

  onInactive(ch: Channel, why: 'fin' | 'rst'): void {
    const t = this.nettyThread();
    if (why === 'rst') {
      this.remotingLog.write('WARN', t, null, renderMessage('pipeline/server-exception', { addr: ch.localAddr }));
      this.remotingLog.write('WARN', t, null, 'NETTY SERVER PIPELINE: exceptionCaught exception.', { cls: 'java.io.IOException', msg: 'Connection reset by peer' });
    }
    this.remotingLog.write('INFO', t, null, renderMessage('pipeline/server-inactive', { addr: ch.localAddr }));
    this.producers.delete(ch);
  }

  onRequest(ch: Channel, req: Request): void {
    if (this.isIoFrozen()) {
      this.heldArrivals.push(() => this.onRequest(ch, req));
      return;
    }
    switch (req.code) {
      case RequestCode.SEND_MESSAGE:
        this.admitSend(ch, req);
        return;
      case RequestCode.HEART_BEAT: {
        if (!this.producers.has(ch)) {
          this.producers.add(ch);
          const hb = req.body as { group: string; clientId: string };
          const info = `ClientChannelInfo [channel=[id: 0x${ch.shortId}, L:/${this.addr} - R:/${ch.localAddr}], clientId=${hb.clientId}, language=JAVA, version=0, lastUpdateTimestamp=${Math.floor(this.epochMs + this.nowMs)}]`;
          this.writeBroker('INFO', 'HeartbeatThread_1', `new producer connected, group: ${hb.group} channel: ${info}`);
        }
        this.net.reply(ch, { opaque: req.opaque, code: ResponseCode.SUCCESS, remark: null, body: null });
        return;
      }
      default:
        this.net.reply(ch, { opaque: req.opaque, code: 3, remark: ` request type ${req.code} not supported`, body: null });
    }
  }

  // ---- send queue ---------------------------------------------------------------------------

  private get queueSize(): number {
    return this.queue.length - this.head;
  }

  private isStalled(): boolean {
    return this.nowMs < this.stalledUntilMs;
  }

  private isIoFrozen(): boolean {
    return this.nowMs < this.ioFrozenUntilMs;
  }

  /** DefaultMessageStore.isOSPageCacheBusy: one put holds the CommitLog lock for more than 1 s. */
  isOSPageCacheBusy(): boolean {
    const now = this.nowMs;
    return now < this.lockUntilMs && now - this.lockBeginMs > this.pcBusyMs;
  }

  private busyReply(ch: Channel | null, req: Request, code: number, remark: string, reason: string, waitMs: number | null, size: number | null): void {
    this.busyReplies.push({ atMs: this.nowMs, reason, waitMs, size });
    if (ch !== null) this.net.reply(ch, { opaque: req.opaque, code, remark, body: null });
  }

  private admitSend(ch: Channel | null, req: Request): void {
    if (this.isOSPageCacheBusy()) {
      this.busyReply(ch, req, ResponseCode.SYSTEM_BUSY, renderMessage('busy-reply/rejectrequest'), 'REJECTREQUEST', null, null);
      return;
    }
    if (this.queueSize >= this.capacity) {
      this.busyReply(ch, req, ResponseCode.SYSTEM_BUSY, renderMessage('busy-reply/overload'), 'OVERLOAD', null, null);
      return;
    }
    this.queue.push({ createMs: this.nowMs, ch, req });
    this.armCleaner();
    this.dispatch();
  }

  private shift(): SendTask | undefined {
    if (this.head >= this.queue.length) return undefined;
    const t = this.queue[this.head];
    this.queue[this.head++] = undefined;
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    return t;
  }

  private peek(): SendTask | undefined {
    return this.head < this.queue.length ? this.queue[this.head] : undefined;
  }

  private drawService(): number {
    const s = this.overload !== null && this.nowMs < this.overload.untilMs ? this.overload.service : this.normal;
    return Math.max(0.05, this.rng.normal(s.meanMs, s.sdMs));
  }

  private dispatch(): void {
    while (!this.isStalled() && this.busyWorkers < this.threads) {
      const task = this.shift();
      if (task === undefined) return;
      this.busyWorkers++;
      const startMs = this.nowMs;
      if (this.diskFull !== null && this.nowMs < this.diskFull.untilMs) {
        this.refuseOnFullDisk(task);
        continue;
      }
      if (this.isOSPageCacheBusy()) {
        // The store checks the page cache before taking the lock.
        const code = factHolds(SERVER.pcSynchronizedBusy, this.profile.v) ? ResponseCode.SYSTEM_BUSY : ResponseCode.SYSTEM_ERROR;
        this.after(0.05, () => this.finish(task, code, renderMessage('busy-reply/pc-synchronized')));
        continue;
      }
      let doneAt = startMs + this.drawService();
      if (this.lockUntilMs > startMs) doneAt = Math.max(doneAt, this.lockUntilMs + this.drawService());
      this.post2(doneAt, this.completeFn, task, startMs);
    }
  }

  private readonly completeFn = (task: SendTask, startMs: number): void => this.complete(task, startMs);

  private complete(task: SendTask, startMs: number): void {
    if (this.isStalled()) {
      this.at(this.stalledUntilMs, () => this.complete(task, startMs));
      return;
    }
    if (this.nowMs < this.lockUntilMs) {
      this.at(this.lockUntilMs + this.drawService(), () => this.complete(task, startMs));
      return;
    }
    const elapsedMs = this.nowMs - startMs;
    if (elapsedMs > 500) {
      const t = `SendMessageThread_${(this.busyWorkers % this.threads) + 1}`;
      const ms = Math.floor(elapsedMs);
      this.storeLog.write('WARN', t, null, inLockText(ms));
      const notInLock = this.profile.is5
        ? renderMessage('store-slow/commitlog-put-cost', { costMs: ms, topic: (task.req.body as { topic: string }).topic, bodyLength: 5 })
        : renderMessage(this.profile.notInLockEclipse ? 'store-slow/not-in-lock-eclipse' : 'store-slow/not-in-lock-elapsed', { costMs: ms, bodyLength: 5 });
      this.storeLog.write('WARN', t, null, notInLock);
    }
    this.finish(task, ResponseCode.SUCCESS, null);
  }

  private finish(task: SendTask, code: number, remark: string | null): void {
    this.busyWorkers--;
    if (code !== ResponseCode.SUCCESS && code !== ResponseCode.SERVICE_NOT_AVAILABLE) this.busyReplies.push({ atMs: this.nowMs, reason: 'PC_SYNCHRONIZED', waitMs: null, size: null });
    if (task.ch !== null) {
      if (code === ResponseCode.SUCCESS) {
        const body = task.req.body as { topic: string; queueId: number; tag?: string };
        const offset = this.store.putMessage(body.topic, body.queueId, this.nowMs, body.tag ?? null);
        // Stored even when its producer gave up on the attempt (a request read after a hang): copies.ts.
        this.copies?.stored(task.req.msgKey ?? -1, this.config.name, body.topic, body.queueId, offset);
      }
      this.net.reply(task.ch, { opaque: task.req.opaque, code, remark, body: code === ResponseCode.SUCCESS ? SEND_RESULT_BODY : null });
    }
    this.dispatch();
  }

  // ---- BrokerFastFailure --------------------------------------------------------------------

  /** The cleaner runs every 10 ms from 1 s after boot; only ticks that can find work are scheduled. */
  private armCleaner(): void {
    if (!this.fastFailure || this.cleanerTimer !== null) return;
    const period = FAST_FAILURE.periodMs;
    const base = this.cleanerBaseMs;
    let t = this.nowMs <= base ? base : base + Math.ceil((this.nowMs - base) / period) * period;
    if (t <= this.lastCleanerMs) t = this.lastCleanerMs + period;
    this.cleanerTimer = this.at(t, this.cleanerTickFn, Priority.timer);
  }

  private readonly cleanerTickFn = (): void => this.cleanerTick();

  private cleanerTick(): void {
    this.cleanerTimer = null;
    if (this.isStalled()) return; // the resume runs it
    this.lastCleanerMs = this.nowMs;
    this.cleanExpiredRequest();
    if (this.queueSize > 0 || this.isOSPageCacheBusy()) this.armCleaner();
  }

  private cleanExpiredRequest(): void {
    while (this.isOSPageCacheBusy()) {
      const t = this.shift();
      if (t === undefined) break;
      const waitMs = this.nowMs - t.createMs;
      const size = this.queueSize;
      this.busyReply(t.ch, t.req, ResponseCode.SYSTEM_BUSY, busyText('busy-reply/pcbusy-clean-queue', waitMs, size), 'PCBUSY_CLEAN_QUEUE', waitMs, size);
    }
    let cleaned = false;
    for (;;) {
      const t = this.peek();
      if (t === undefined) break;
      const behind = this.nowMs - t.createMs;
      if (behind < this.waitMaxMs) break;
      this.shift();
      const size = this.queueSize;
      cleaned = true;
      this.busyReply(t.ch, t.req, ResponseCode.SYSTEM_BUSY, busyText('busy-reply/timeout-clean-queue', behind, size), 'TIMEOUT_CLEAN_QUEUE', behind, size);
    }
    if (cleaned && this.profile.jstackOnClean && this.nowMs - this.lastJstackMs >= 15000) {
      this.lastJstackMs = this.nowMs;
      this.writeBroker('WARN', 'BrokerFastFailureScheduledThread1', renderMessage('broker-jstack/jstack', { jstack: '"main"                                  TID: 1 STATE: WAITING' }));
    }
  }

  // ---- watermark ----------------------------------------------------------------------------

  private printWaterMark(): void {
    if (this.isStalled() || this.watermarkLog === null) return;
    const head = this.peek();
    const slow = head === undefined ? 0 : Math.max(0, Math.floor(this.nowMs - head.createMs));
    const names = this.profile.is5 ? ['Send', 'Pull', 'Query', 'Lite Pull', 'Transaction', 'ClientManager', 'Heartbeat', 'Ack', 'Admin'] : ['Send', 'Pull', 'Query', 'Transaction'];
    for (const n of names) {
      const size = n === 'Send' ? this.queueSize : 0;
      this.watermarkLog.write('INFO', null, null, renderMessage('watermark/broker', { queue: n, size, slowMs: n === 'Send' ? slow : 0 }));
    }
  }

  // ---- faults -------------------------------------------------------------------------------

  /**
   * A whole-broker stall (GC, safepoint, a JVM out of CPU quota): send threads and the cleaner stop
   * for durationMs. For its first ioFrozenMs the Netty threads stop too: arrivals wait in the socket
   * and enter the send queue together when it ends, with that time as their start
   * (NettyRemotingAbstract.processRequestCommand stamps a RequestTask when it reads the request);
   * after that requests keep entering the send queue and age until the stall ends.
   */
  stall(durationMs: number, ioFrozenMs = 0): void {
    const until = this.nowMs + durationMs;
    if (ioFrozenMs > 0) {
      const ioUntil = this.nowMs + Math.min(ioFrozenMs, durationMs);
      if (ioUntil > this.ioFrozenUntilMs) {
        this.ioFrozenUntilMs = ioUntil;
        // At the stall's end resume() lets them in, after the cleaner's catch-up.
        if (ioUntil < until) this.at(ioUntil, () => this.releaseArrivals(), Priority.fault);
      }
    }
    if (until <= this.stalledUntilMs) return;
    this.stalledUntilMs = until;
    this.at(until, () => this.resume(), Priority.fault);
  }

  /** Netty reads what waited in the sockets, in the order it came. */
  private releaseArrivals(): void {
    if (this.isIoFrozen()) return; // extended by a later stall
    const held = this.heldArrivals;
    this.heldArrivals = [];
    for (const a of held) a();
  }

  private resume(): void {
    if (this.isStalled()) return; // extended by a later stall
    // The fixed-rate cleaner catches up first, then the workers take what is left.
    this.cleanerTimer?.cancel();
    this.cleanerTimer = null;
    this.lastCleanerMs = this.nowMs;
    this.cleanExpiredRequest();
    this.dispatch();
    this.releaseArrivals();
    if (this.queueSize > 0) this.armCleaner();
  }

  /**
   * The store's disk above diskSpaceWarningLevelRatio (0.90) for durationMs, from the moment
   * CleanCommitLogService marked it full (it checks every 10 s): DefaultMessageStore.putMessage
   * answers SERVICE_NOT_AVAILABLE (code 14, retried on another broker by every client) until the
   * check marks the disk OK. 4.x and 5.x.
   */
  setDiskFull(durationMs: number, ratio: number, okRatio: number): void {
    this.diskFull = { untilMs: this.nowMs + durationMs, ratio, refused: 0 };
    const storePathPhysic = `${STORE_PATH}/commitlog`;
    this.storeLog.write('ERROR', 'StoreScheduledThread1', null, renderMessage('disk-full/physic', { ratio, storePathPhysic }));
    this.after(durationMs, () => {
      this.diskFull = null;
      this.storeLog.write('INFO', 'StoreScheduledThread1', null, renderMessage('disk-ok/physic', { ratio: okRatio, storePathPhysic }));
    });
  }

  private refuseOnFullDisk(task: SendTask): void {
    const d = this.diskFull!;
    // DefaultMessageStore.putMessage warns once per 50000 refusals (printTimes).
    if (d.refused++ % 50000 === 0) {
      this.storeLog.write('WARN', 'SendMessageThread_1', null, renderMessage('disk-full/not-writable'));
    }
    // SendMessageProcessor.diskUtil: `CL: %5.2f CQ: %5.2f INDEX: %5.2f`.
    const r = d.ratio.toFixed(2).padStart(5);
    const remark = renderMessage('disk-full/service-not-available', { diskUtil: `CL: ${r} CQ: ${r} INDEX: ${r}` });
    this.after(0.05, () => this.finish(task, ResponseCode.SERVICE_NOT_AVAILABLE, remark));
  }

  /**
   * A slow store: puts take `service` for durationMs (queue builds up when arrivals exceed capacity).
   * `backgroundPerSec` adds sends from producers outside the scenario (Poisson arrivals, replies
   * dropped): on a shared broker they are most of what fills the send queue.
   */
  setOverload(durationMs: number, service: ServiceTime, backgroundPerSec = 0): void {
    const untilMs = this.nowMs + durationMs;
    this.overload = { untilMs, service };
    if (backgroundPerSec <= 0) return;
    const meanGapMs = 1000 / backgroundPerSec;
    const arrive = (): void => {
      if (this.nowMs >= untilMs) return;
      // Netty reads them like any request: held while the broker's IO is frozen.
      if (this.isIoFrozen()) this.heldArrivals.push(() => this.admitSend(null, BACKGROUND_SEND));
      else this.admitSend(null, BACKGROUND_SEND);
      this.after(this.rng.exponential(meanGapMs), arrive);
    };
    this.after(this.rng.exponential(meanGapMs), arrive);
  }

  /** One put holds the CommitLog lock for durationMs; after osPageCacheBusyTimeOutMills the page cache is busy. */
  slowPut(durationMs: number): void {
    this.lockBeginMs = this.nowMs;
    this.lockUntilMs = this.nowMs + durationMs;
    this.busyWorkers++;
    this.at(this.pcBusyMs + 0.001 + this.nowMs, () => this.armCleaner());
    this.at(this.lockUntilMs, () => {
      this.storeLog.write('WARN', 'SendMessageThread_1', null, inLockText(Math.floor(durationMs)));
      this.busyWorkers--;
      this.dispatch();
    });
  }
}
