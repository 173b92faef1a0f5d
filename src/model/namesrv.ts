// NameServer: RouteInfoManager's tables, the registration and route-query handlers, the liveness
// scan, and the Netty server events that remove a broker at once (RouteInfoManager,
// BrokerHousekeepingService).
//
// A broker leaves the route in one of three ways:
// - its channel closes or is reset (FIN/RST): removed at once (onChannelDestroy);
// - its channel stays open but silent: the Netty idle handler closes it after
//   serverChannelMaxIdleTimeSeconds (120 s) without a read or write, which destroys it too;
// - scanNotActiveBroker (every 10 s in 4.x, 5 s in 5.x) finds its last registration older than
//   120 s: `The broker channel expired`. With both at 120 s the idle close usually comes first;
//   raising the idle time (the seed outage ran with 300 s) leaves the expiry path.

import { Priority } from './kernel.js';
import type { JavaException, Level, LogFile, LogSink } from './log.js';
import type { Recorder } from './metrics.js';
import { Process, RequestCode, ResponseCode, type Channel, type Host, type Listener, type Network, type Request } from './network.js';
import { MASTER_ID, type BrokerData, type QueueData, type RegisterBrokerBody, type TopicRouteData, queueDataText } from './route.js';
import { serverProfile, type ServerProfile } from './versions.js';
import { renderMessage } from '../parse/message-render.js';
import type { Zone } from '../parse/time.js';
import { mqVersionOrdinal } from '../rocketmq/versions.js';

interface NameServerConfig {
  /** `ip:port`, e.g. `192.168.3.100:9876`. */
  addr: string;
  version: string;
  /** NettyServerConfig.serverChannelMaxIdleTimeSeconds (120). */
  serverChannelMaxIdleTimeSeconds?: number;
  /** scanNotActiveBroker period; default by version (10 s in 4.x, 5 s in 5.x). */
  scanNotActiveBrokerIntervalMs?: number;
  /** BROKER_CHANNEL_EXPIRED_TIME (120 s). */
  brokerChannelExpiredTimeMs?: number;
}

interface LiveInfo {
  lastUpdateMs: number;
  ch: Channel;
  brokerName: string;
  brokerId: number;
  cluster: string;
}

const FAQ_4X = 'http://rocketmq.apache.org/docs/faq/';

export class NameServer extends Process implements Listener {
  readonly addr: string;
  readonly profile: ServerProfile;
  private readonly idleMs: number;
  private readonly scanMs: number;
  private readonly expiredMs: number;
  private readonly log: LogFile;
  private brokerLiveTable = new Map<string, LiveInfo>();
  private brokerAddrTable = new Map<string, { cluster: string; addrs: Map<number, string> }>();
  private topicQueueTable = new Map<string, Map<string, QueueData>>();
  private codecThread = 0;

  constructor(
    net: Network,
    host: Host,
    readonly config: NameServerConfig,
    sink: LogSink,
    zone: Zone,
    private readonly recorder: Recorder,
  ) {
    super(net, host, `namesrv:${config.addr}`);
    this.addr = config.addr;
    this.profile = serverProfile(config.version);
    this.remotingVersion = mqVersionOrdinal(this.profile.v);
    this.idleMs = (config.serverChannelMaxIdleTimeSeconds ?? 120) * 1000;
    this.scanMs = config.scanNotActiveBrokerIntervalMs ?? this.profile.scanNotActiveBrokerIntervalMs;
    this.expiredMs = config.brokerChannelExpiredTimeMs ?? 120000;
    this.log = sink.file({ host: host.name, name: 'namesrv.log', kind: 'namesrv', layout: 'rocketmq-server', zone });
  }

  private write(level: Level, thread: string, msg: string, exc?: JavaException): void {
    this.log.write(level, thread, null, msg, exc);
  }

  private nettyThread(): string {
    this.codecThread = (this.codecThread % 8) + 1;
    return `NettyServerCodecThread_${this.codecThread}`;
  }

  protected boot(): void {
    const port = Number(this.addr.slice(this.addr.lastIndexOf(':') + 1));
    const tip = this.profile.namesrvBootAddress
      ? renderMessage('startup/namesrv', { serializeType: 'JSON', bindAddress: '0.0.0.0', listenPort: port }, '5.1.0')
      : renderMessage('startup/namesrv', { serializeType: 'JSON' });
    this.write('INFO', 'main', tip);
    this.net.listen(this, port, this);
    this.every(this.scanMs, this.profile.scanInitialDelayMs, () => this.scanNotActiveBroker());
  }

  protected onKilled(): void {
    this.brokerLiveTable = new Map();
    this.brokerAddrTable = new Map();
    this.topicQueueTable = new Map();
  }

  // ---- Netty server events ----------------------------------------------------------------

  onAccept(ch: Channel): void {
    this.write('INFO', this.nettyThread(), renderMessage('pipeline/server-active', { addr: ch.localAddr }));
    this.net.watchIdle(ch, 'server', this.idleMs, () => this.onIdle(ch));
  }

  onInactive(ch: Channel, why: 'fin' | 'rst'): void {
    const t = this.nettyThread();
    if (why === 'rst') {
      this.write('WARN', t, renderMessage('pipeline/server-exception', { addr: ch.localAddr }));
      this.write('WARN', t, 'NETTY SERVER PIPELINE: exceptionCaught exception.', { cls: 'java.io.IOException', msg: 'Connection reset by peer' });
      this.write('INFO', 'NettyEventExecutor', renderMessage('channel-closed/connection-closed', { addr: ch.localAddr, result: true }));
    }
    this.write('INFO', t, renderMessage('pipeline/server-inactive', { addr: ch.localAddr }));
    this.onChannelDestroy(ch, 'closed');
  }

  private onIdle(ch: Channel): void {
    this.write('WARN', this.nettyThread(), renderMessage('pipeline/server-idle', { addr: ch.localAddr }));
    this.net.close(ch, 'server');
    this.write('INFO', 'NettyEventExecutor', renderMessage('channel-closed/connection-closed', { addr: ch.localAddr, result: true }));
    this.write('INFO', this.nettyThread(), renderMessage('pipeline/server-inactive', { addr: ch.localAddr }));
    this.onChannelDestroy(ch, 'idle');
  }

  // ---- requests ---------------------------------------------------------------------------

  onRequest(ch: Channel, req: Request): void {
    switch (req.code) {
      case RequestCode.REGISTER_BROKER:
        this.registerBroker(ch, req.body as RegisterBrokerBody);
        this.net.reply(ch, { opaque: req.opaque, code: ResponseCode.SUCCESS, remark: null, body: null });
        return;
      case RequestCode.GET_ROUTEINFO_BY_TOPIC: {
        const topic = (req.body as { topic: string }).topic;
        const route = this.pickupTopicRouteData(topic);
        if (route === null) {
          const remark = `${renderMessage('route-update-failed/code-17', { topic })}\nSee ${FAQ_4X} for further details.`;
          this.net.reply(ch, { opaque: req.opaque, code: ResponseCode.TOPIC_NOT_EXIST, remark, body: null });
        } else this.net.reply(ch, { opaque: req.opaque, code: ResponseCode.SUCCESS, remark: null, body: route });
        return;
      }
      case RequestCode.GET_BROKER_CLUSTER_INFO:
        // A 5.x broker's metadata refresh (it reads nothing of the answer the model would need).
        this.net.reply(ch, { opaque: req.opaque, code: ResponseCode.SUCCESS, remark: null, body: null });
        return;
      default:
        this.net.reply(ch, { opaque: req.opaque, code: 3, remark: ` request type ${req.code} not supported`, body: null });
    }
  }

  private identity(cluster: string, addr: string): string {
    return `BrokerIdentityInfo [clusterName=${cluster}, brokerAddr=${addr}]`;
  }

  private registerBroker(ch: Channel, b: RegisterBrokerBody): void {
    const thread = `RemotingExecutorThread_${(b.brokerId % 8) + 1}`;
    let brokerData = this.brokerAddrTable.get(b.brokerName);
    if (brokerData === undefined) {
      brokerData = { cluster: b.cluster, addrs: new Map() };
      this.brokerAddrTable.set(b.brokerName, brokerData);
    }
    const oldAddr = brokerData.addrs.get(b.brokerId) ?? null;
    brokerData.addrs.set(b.brokerId, b.brokerAddr);
    if (this.profile.masterAddressChangeLine && b.brokerId === MASTER_ID) {
      const args = { clusterName: b.cluster, brokerName: b.brokerName, oldAddr, brokerAddr: b.brokerAddr };
      this.write('INFO', thread, renderMessage('broker-registered/master-address-change', args));
    }
    if (b.brokerId === MASTER_ID) {
      for (const t of b.topics) {
        let queues = this.topicQueueTable.get(t.topic);
        if (queues === undefined) {
          queues = new Map();
          this.topicQueueTable.set(t.topic, queues);
        }
        queues.set(b.brokerName, { brokerName: b.brokerName, readQueueNums: t.readQueueNums, writeQueueNums: t.writeQueueNums, perm: t.perm });
      }
    }
    const prev = this.brokerLiveTable.get(b.brokerAddr);
    this.brokerLiveTable.set(b.brokerAddr, { lastUpdateMs: this.nowMs, ch, brokerName: b.brokerName, brokerId: b.brokerId, cluster: b.cluster });
    this.recorder.registrations.push({ atMs: this.nowMs, namesrv: this.addr, brokerAddr: b.brokerAddr });
    if (prev === undefined) {
      const text = this.profile.is5
        ? renderMessage('broker-registered/new-broker', { brokerAddrInfo: this.identity(b.cluster, b.brokerAddr), haAddr: b.haAddr }, '5.x')
        : renderMessage('broker-registered/new-broker', { brokerAddr: b.brokerAddr, haAddr: b.haAddr });
      this.write('INFO', thread, text);
    }
  }

  /** The brokers a route of the topic names now (a consumer's route poll; null: TOPIC_NOT_EXIST). */
  topicBrokers(topic: string): string[] | null {
    const route = this.pickupTopicRouteData(topic);
    return route === null ? null : route.brokerDatas.map((b) => b.brokerName);
  }

  private pickupTopicRouteData(topic: string): TopicRouteData | null {
    const queues = this.topicQueueTable.get(topic);
    if (queues === undefined || queues.size === 0) return null;
    const queueDatas = [...queues.values()].sort((a, b) => a.brokerName.localeCompare(b.brokerName)).map((q) => ({ ...q }));
    const brokerDatas: BrokerData[] = [];
    for (const q of queueDatas) {
      const bd = this.brokerAddrTable.get(q.brokerName);
      if (bd === undefined) continue;
      brokerDatas.push({ cluster: bd.cluster, brokerName: q.brokerName, brokerAddrs: [...bd.addrs.entries()].sort((x, y) => x[0] - y[0]) });
    }
    if (brokerDatas.length === 0) return null;
    return { queueDatas, brokerDatas };
  }

  // ---- liveness ---------------------------------------------------------------------------

  private scanNotActiveBroker(): void {
    const thread = this.profile.is5 ? 'NSScanScheduledThread' : 'NSScheduledThread1';
    if (this.profile.is5) this.write('INFO', thread, 'start scanNotActiveBroker');
    for (const [addr, live] of [...this.brokerLiveTable]) {
      if (live.lastUpdateMs + this.expiredMs >= this.nowMs) continue;
      const text = this.profile.is5
        ? renderMessage('broker-expired/identity', { brokerAddrInfo: this.identity(live.cluster, addr), idleMs: this.expiredMs })
        : renderMessage('broker-expired/addr', { brokerAddr: addr, idleMs: this.expiredMs });
      this.write('WARN', thread, text);
      this.net.close(live.ch, 'server');
      this.brokerLiveTable.delete(addr);
      this.recorder.removals.push({ atMs: this.nowMs, namesrv: this.addr, brokerAddr: addr, brokerName: live.brokerName, reason: 'expired' });
      if (this.profile.is5) this.submitUnregister(live, addr);
      else this.removeBroker(addr, live.brokerName, live.brokerId, live.cluster, thread);
      this.after(0, () => this.write('INFO', 'NettyEventExecutor', renderMessage('channel-closed/connection-closed', { addr: live.ch.localAddr, result: true })), Priority.process);
    }
  }

  /** BrokerHousekeepingService.onChannelDestroy: a broker channel closed, failed or went idle. */
  private onChannelDestroy(ch: Channel, reason: 'idle' | 'closed'): void {
    let found: [string, LiveInfo] | null = null;
    for (const e of this.brokerLiveTable) {
      if (e[1].ch === ch) {
        found = e;
        break;
      }
    }
    if (found === null) return; // a client channel, or a broker already removed: nothing in the route
    const [addr, live] = found;
    this.brokerLiveTable.delete(addr);
    this.recorder.removals.push({ atMs: this.nowMs, namesrv: this.addr, brokerAddr: addr, brokerName: live.brokerName, reason });
    if (this.profile.is5) {
      this.submitUnregister(live, addr);
      return;
    }
    this.write('INFO', 'NettyEventExecutor', renderMessage('broker-removed/channel-destroyed', { brokerAddr: addr }));
    this.removeBroker(addr, live.brokerName, live.brokerId, live.cluster, 'NettyEventExecutor');
  }

  /** 5.x: the destroy submits an unregister request; BatchUnregistrationService applies it. */
  private submitUnregister(live: LiveInfo, addr: string): void {
    const hash = (Math.imul(addr.length * 2654435761, live.ch.id) >>> 0).toString(16);
    const unRegisterRequest = `org.apache.rocketmq.remoting.protocol.header.namesrv.UnRegisterBrokerRequestHeader@${hash}`;
    this.write('INFO', 'NettyEventExecutor', renderMessage('broker-removed/channel-destroyed-submit', { unRegisterRequest, result: true }));
    const thread = 'org.apache.rocketmq.namesrv.routeinfo.BatchUnregistrationService';
    this.write('INFO', thread, renderMessage('broker-removed/unregister-live', { result: 'OK', brokerAddrInfo: this.identity(live.cluster, addr) }));
    this.removeTables(addr, live.brokerName, live.brokerId);
    this.write('INFO', thread, renderMessage('broker-removed/unregister-addr', { result: 'OK', brokerAddrInfo: this.identity(live.cluster, addr) }));
  }

  /** 4.x RouteInfoManager.onChannelDestroy's removal lines. */
  private removeBroker(addr: string, brokerName: string, brokerId: number, cluster: string, thread: string): void {
    this.write('INFO', thread, renderMessage('broker-removed/remove-broker-addr', { brokerId, brokerAddr: addr }));
    const { nameRemoved, topics } = this.removeTables(addr, brokerName, brokerId);
    if (!nameRemoved) return;
    this.write('INFO', thread, renderMessage('broker-removed/remove-broker-name', { brokerName }));
    this.write('INFO', thread, `remove brokerName[${brokerName}], clusterName[${cluster}] from clusterAddrTable, because channel destroyed`);
    for (const [topic, removed, empty] of topics) {
      this.write('INFO', thread, `remove topic[${topic} ${removed ? queueDataText(removed) : 'null'}], from topicQueueTable, because channel destroyed`);
      if (empty) this.write('INFO', thread, `remove topic[${topic}] all queue, from topicQueueTable, because channel destroyed`);
    }
  }

  private removeTables(
    addr: string,
    brokerName: string,
    brokerId: number,
  ): { nameRemoved: boolean; topics: Array<[string, QueueData | null, boolean]> } {
    const bd = this.brokerAddrTable.get(brokerName);
    if (bd === undefined) return { nameRemoved: false, topics: [] };
    if (bd.addrs.get(brokerId) === addr) bd.addrs.delete(brokerId);
    if (bd.addrs.size > 0) return { nameRemoved: false, topics: [] };
    this.brokerAddrTable.delete(brokerName);
    const topics: Array<[string, QueueData | null, boolean]> = [];
    for (const [topic, queues] of [...this.topicQueueTable]) {
      const removed = queues.get(brokerName) ?? null;
      queues.delete(brokerName);
      const empty = queues.size === 0;
      if (empty) this.topicQueueTable.delete(topic);
      topics.push([topic, removed, empty]);
    }
    return { nameRemoved: true, topics };
  }

  /** Brokers currently in the live table (for tests and reports). */
  liveBrokers(): string[] {
    return [...this.brokerLiveTable.keys()].sort();
  }
}
