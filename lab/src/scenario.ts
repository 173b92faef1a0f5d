// A lab scenario: the hosts of a real RocketMQ cluster, what runs on each, and the faults to inject.
// Scenario files are JSON in lab/scenarios/; docs/lab.md documents every field.
import { readFileSync } from 'node:fs';

export type ProcessKind = 'namesrv' | 'broker' | 'producer' | 'consumer';

export interface NamesrvProcess {
  kind: 'namesrv';
  /** NamesrvConfig / NettyServerConfig properties, e.g. serverChannelMaxIdleTimeSeconds. */
  settings?: Record<string, string | number | boolean>;
}

export interface BrokerProcess {
  kind: 'broker';
  brokerName: string;
  /** 0 = master, 1 = slave. */
  brokerId: number;
  /** BrokerConfig / MessageStoreConfig / NettyServerConfig properties. */
  settings?: Record<string, string | number | boolean>;
  /**
   * `local`: the host runs `mqproxy -pm local` instead of `mqbroker` (5.x only): ProxyStartup with the
   * broker inside the proxy's JVM, gRPC on `grpcServerPort` (ProxyConfig: 8081) for the 5.x gRPC clients.
   */
  proxyMode?: 'local';
  /** ProxyConfig properties, written to the proxy's rmq-proxy.json (e.g. grpcServerPort). */
  proxySettings?: Record<string, string | number | boolean>;
}

export interface ProducerProcess {
  kind: 'producer';
  /** The RocketMQ Java client version of this application. */
  version: string;
  group: string;
  topic: string;
  /** Sends per second in steady state, and the application's sending threads. */
  rate: number;
  threads?: number;
  /** Send with a SendCallback (many requests in flight), as batch jobs do. */
  async?: boolean;
  bodySize?: number;
  /** The messages' tags, taken in turn (default one tag, `lab`): what consumers' subscriptions select on. */
  tags?: string[];
  /** The application's logger for its own failures (app.log). */
  appLogger?: string;
  /** false: the application logs a failure on one line, without its stack trace (default true). */
  appLogStacks?: boolean;
  /** DefaultMQProducer settings: sendMsgTimeout, retryTimesWhenSendFailed, sendLatencyFaultEnable, pollNameServerInterval, heartbeatBrokerInterval. */
  settings?: Record<string, string | number | boolean>;
  /** JVM system properties, e.g. com.rocketmq.remoting.client.closeSocketIfTimeout. */
  systemProperties?: Record<string, string>;
  /** Send through a MessageQueueSelector that always picks this index of the topic's queue list. */
  selectorQueue?: number;
  /** Restart the application before the faults until its client is bound to this NameServer host. */
  bindTo?: string;
  /** Only these NameServer hosts in its namesrvAddr (default: all, in host order). */
  namesrvHosts?: string[];
  /**
   * Changes of the application's own traffic at set times (seconds after the settling), as a
   * business's load rises and falls: not a fault of any server.
   */
  schedule?: { at: number; rate: number; threads?: number }[];
}

/** What the consumer application's listener does with each message. */
export interface ListenerBehaviour {
  /** Milliseconds spent on each message (default 10). */
  processMs?: number;
  /** Share of messages answered RECONSUME_LATER (SUSPEND_CURRENT_QUEUE_A_MOMENT when orderly). */
  laterShare?: number;
  /** Share of messages whose handling throws (the application logs it; the client takes it as a failure). */
  throwShare?: number;
}

/**
 * concurrently, orderly, litePull: the remoting clients (rocketmq-client); grpcPush, grpcSimple: a
 * PushConsumer or SimpleConsumer of the 5.x gRPC client (rocketmq-client-java) through a proxy.
 */
export const CONSUMER_MODES = ['concurrently', 'orderly', 'litePull', 'grpcPush', 'grpcSimple'] as const;

/** A consumer of the 5.x gRPC client (rocketmq-client-java), through a proxy. */
export function isGrpc(c: { mode?: (typeof CONSUMER_MODES)[number] }): boolean {
  return c.mode === 'grpcPush' || c.mode === 'grpcSimple';
}
/** The remoting consumers' settings a gRPC consumer does not have (it receives by pop, through a proxy). */
const REMOTING_ONLY = ['consumeThreadMin', 'consumeThreadMax', 'pullBatchSize', 'pullThresholdForQueue', 'consumeFromWhere', 'messageModel', 'namesrvHosts'] as const;
export const MESSAGE_MODELS = ['CLUSTERING', 'BROADCASTING'] as const;
/** ConsumeFromWhere's constants that 4.x and 5.x clients both accept (the others are deprecated). */
export const CONSUME_FROM = ['CONSUME_FROM_LAST_OFFSET', 'CONSUME_FROM_FIRST_OFFSET', 'CONSUME_FROM_TIMESTAMP'] as const;
/** DefaultLitePullConsumer is in the Java client from 4.6.0. */
export const LITE_PULL_SINCE = '4.6.0';

export interface ConsumerProcess {
  kind: 'consumer';
  /** The RocketMQ Java client version of this application. */
  version: string;
  group: string;
  topic: string;
  /** The tags expression it subscribes with (default `*`). */
  subscription?: string;
  messageModel?: (typeof MESSAGE_MODELS)[number];
  /** DefaultMQPushConsumer with a MessageListenerConcurrently or MessageListenerOrderly, or DefaultLitePullConsumer (default concurrently). */
  mode?: (typeof CONSUMER_MODES)[number];
  consumeThreadMin?: number;
  consumeThreadMax?: number;
  pullBatchSize?: number;
  pullThresholdForQueue?: number;
  maxReconsumeTimes?: number;
  consumeFromWhere?: (typeof CONSUME_FROM)[number];
  /** The listener from the start. */
  listener?: ListenerBehaviour;
  /** Planned changes of the listener, at seconds after the settling (a deploy, a slower dependency). */
  schedule?: (ListenerBehaviour & { at: number })[];
  /** The application's logger for its own failures (app.log). */
  appLogger?: string;
  /** ClientConfig settings: pollNameServerInterval, heartbeatBrokerInterval. */
  settings?: Record<string, string | number | boolean>;
  /** JVM system properties. */
  systemProperties?: Record<string, string>;
  /** Only these NameServer hosts in its namesrvAddr (default: all, in host order). */
  namesrvHosts?: string[];
  /** grpcPush, grpcSimple: the host whose proxy it connects to (default: the first host with `proxyMode: local`). */
  proxyHost?: string;
  /** grpcPush: PushConsumerBuilder.setConsumptionThreadCount (client default 20); grpcSimple: its receiving threads (default 1). */
  consumptionThreadCount?: number;
  /** grpcPush: PushConsumerBuilder.setMaxCacheMessageCount (client default 1024). */
  maxCacheMessageCount?: number;
  /** grpcSimple: SimpleConsumer.receive's maxMessageNum (default 16, rocketmq-clients' SimpleConsumerExample). */
  receiveBatchSize?: number;
  /** grpcSimple: receive's invisibleDuration, seconds (default 15): a message not acked is received again after it. */
  invisibleSeconds?: number;
  /** grpcSimple: SimpleConsumerBuilder.setAwaitDuration, seconds (default 30): a receive's long polling. */
  awaitSeconds?: number;
}

export type LabProcess = NamesrvProcess | BrokerProcess | ProducerProcess | ConsumerProcess;

export interface Host {
  name: string;
  /** IPv4 address on the lab's bridge (10.213.0.0/24). */
  addr: string;
  processes: LabProcess[];
  /** false: its logs are not part of the recording (another team's application, whose logs an operator would not have). */
  collect?: boolean;
}

export type ServerFaultKind = 'hang' | 'reboot' | 'crash' | 'restart' | 'overload' | 'disk-full' | 'partition';
/** Faults that strike a consumer application (its host runs a consumer). */
export type ConsumerFaultKind = 'consumer-kill' | 'consumer-stop' | 'consumer-start' | 'slowdown' | 'consume-failures' | 'listener-block' | 'reset-offset';
export type FaultKind = ServerFaultKind | ConsumerFaultKind;

/** The faults of hosts and servers (the generated space draws from these). */
export const FAULT_KINDS: readonly ServerFaultKind[] = ['hang', 'reboot', 'crash', 'restart', 'overload', 'disk-full', 'partition'];
export const CONSUMER_FAULT_KINDS: readonly ConsumerFaultKind[] = ['consumer-kill', 'consumer-stop', 'consumer-start', 'slowdown', 'consume-failures', 'listener-block', 'reset-offset'];

export interface Fault {
  kind: FaultKind;
  /** The host the fault strikes; for a partition, a host of its first group (the side it cuts off). */
  host: string;
  /** Seconds after the end of the settling phase. */
  at: number;
  /** hang, overload, disk-full, partition: how long it lasts. */
  seconds?: number;
  /** reboot, restart, crash: seconds the host (reboot) or its processes (restart, crash) stay down; crash without it stays down. */
  downSeconds?: number;
  /** reboot: seconds between the link coming back and the processes starting again (the boot). */
  bootSeconds?: number;
  /** overload: the load the named producers put on the host's broker meanwhile. */
  load?: { producers: string[]; rate: number; threads: number; async?: boolean };
  /**
   * overload: the share of one CPU the host's JVMs may use meanwhile (a cgroup CPU quota, as a
   * container CPU limit would), so that the load exceeds what the broker can serve.
   */
  cpuQuota?: number;
  /** The quota's period in ms (cpu.cfs_period_us; default 100, as Kubernetes uses). */
  cpuPeriodMs?: number;
  /**
   * partition: two groups of hosts; every packet between a host of one and a host of the other is
   * dropped, both ways, for `seconds` (no RST, no ICMP: a cut cable between two switches).
   */
  groups?: [string[], string[]];
  /** slowdown, consume-failures, listener-block: the consumer hosts it strikes (default: `host` alone). */
  consumers?: string[];
  /** slowdown: the listener's time per message meanwhile. */
  processMs?: number;
  /** consume-failures: the shares of RECONSUME_LATER and of exceptions meanwhile. */
  laterShare?: number;
  throwShare?: number;
  /** consumer-start: the instance starts with this subscription instead of its own. */
  subscription?: string;
  /** reset-offset: the group's offsets are reset to this many seconds before the fault (mqadmin resetOffsetByTime). */
  backSeconds?: number;
}

export interface Scenario {
  scenario: string;
  description: string;
  versions: { namesrv: string; broker: string };
  brokerClusterName?: string;
  /** Topics created before the applications start: on every master, or on the named brokers only. */
  topics: { name: string; queues: number; brokers?: string[] }[];
  /** Seconds from the last application start to the first fault. */
  settleSeconds: number;
  /** Seconds from the end of the last fault to the end of the recording. */
  tailSeconds: number;
  hosts: Host[];
  faults: Fault[];
}

/** -1, 0 or 1 as `a` is an older, the same or a newer release than `b` (x.y.z). */
export function compareVersions(a: string, b: string): number {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) < (y[i] ?? 0) ? -1 : 1;
  return 0;
}

export class ScenarioError extends Error {}

const HOST_NAME = /^[a-z][a-z0-9-]{0,30}$/;
const LAB_ADDR = /^10\.213\.0\.(\d{1,3})$/;
const VERSION = /^\d+\.\d+\.\d+$/;

function fail(where: string, what: string): never {
  throw new ScenarioError(`${where}: ${what}`);
}

function checkSettings(where: string, s: unknown): void {
  if (s === undefined) return;
  if (typeof s !== 'object' || s === null || Array.isArray(s)) fail(where, 'must be an object');
  for (const [k, v] of Object.entries(s)) {
    if (!/^[A-Za-z][A-Za-z0-9.]*$/.test(k)) fail(`${where}.${k}`, 'not a property name');
    if (!['string', 'number', 'boolean'].includes(typeof v)) fail(`${where}.${k}`, 'must be a string, number or boolean');
    if (typeof v === 'string' && /[\r\n]/.test(v)) fail(`${where}.${k}`, 'must be one line');
  }
}

function checkProcess(where: string, p: LabProcess, hostNames: Set<string>): void {
  if (p.kind === 'namesrv') return checkSettings(`${where}.settings`, p.settings);
  if (p.kind === 'broker') {
    if (!/^[A-Za-z0-9_-]{1,40}$/.test(p.brokerName ?? '')) fail(`${where}.brokerName`, 'missing or not a name');
    if (!Number.isInteger(p.brokerId) || p.brokerId < 0 || p.brokerId > 9) fail(`${where}.brokerId`, 'must be 0 (master) to 9');
    if (p.proxyMode !== undefined && p.proxyMode !== 'local') fail(`${where}.proxyMode`, 'must be local');
    if (p.proxySettings !== undefined && p.proxyMode === undefined) fail(`${where}.proxySettings`, 'only with proxyMode local');
    checkSettings(`${where}.proxySettings`, p.proxySettings);
    return checkSettings(`${where}.settings`, p.settings);
  }
  if (p.kind === 'producer') {
    if (!VERSION.test(p.version ?? '')) fail(`${where}.version`, 'must be a version such as 4.9.4');
    if (!/^[A-Za-z0-9_%-]{1,64}$/.test(p.group ?? '')) fail(`${where}.group`, 'missing or not a group name');
    if (!/^[A-Za-z0-9_%-]{1,64}$/.test(p.topic ?? '')) fail(`${where}.topic`, 'missing or not a topic name');
    if (!(typeof p.rate === 'number' && p.rate >= 0 && p.rate <= 5000)) fail(`${where}.rate`, 'must be 0 to 5000 sends per second');
    if (p.threads !== undefined && !(Number.isInteger(p.threads) && p.threads >= 1 && p.threads <= 256)) fail(`${where}.threads`, 'must be 1 to 256');
    if (p.bindTo !== undefined && !hostNames.has(p.bindTo)) fail(`${where}.bindTo`, `no host ${p.bindTo}`);
    if (p.tags !== undefined && !(Array.isArray(p.tags) && p.tags.length > 0 && p.tags.every((t) => typeof t === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(t)))) {
      fail(`${where}.tags`, 'must be a list of tags (letters, digits, _ and -)');
    }
    for (const h of p.namesrvHosts ?? []) if (!hostNames.has(h)) fail(`${where}.namesrvHosts`, `no host ${h}`);
    if (p.schedule !== undefined && !Array.isArray(p.schedule)) fail(`${where}.schedule`, 'must be a list');
    for (const [i, c] of (p.schedule ?? []).entries()) {
      if (!(typeof c.at === 'number' && c.at >= 0 && c.at <= 3600)) fail(`${where}.schedule[${i}].at`, 'must be 0 to 3600 seconds');
      if (!(typeof c.rate === 'number' && c.rate >= 0 && c.rate <= 5000)) fail(`${where}.schedule[${i}].rate`, 'must be 0 to 5000 sends per second');
      if (c.threads !== undefined && !(Number.isInteger(c.threads) && c.threads >= 1 && c.threads <= 256)) fail(`${where}.schedule[${i}].threads`, 'must be 1 to 256');
    }
    checkSettings(`${where}.settings`, p.settings);
    checkSettings(`${where}.systemProperties`, p.systemProperties);
    return;
  }
  if (p.kind === 'consumer') return checkConsumer(where, p, hostNames);
  fail(`${where}.kind`, 'must be namesrv, broker, producer or consumer');
}

const TAGS = /^[A-Za-z0-9_*| -]{1,128}$/;

function checkListener(where: string, b: ListenerBehaviour | undefined): void {
  if (b === undefined) return;
  if (typeof b !== 'object' || b === null) fail(where, 'must be an object');
  if (b.processMs !== undefined && !(Number.isInteger(b.processMs) && b.processMs >= 0 && b.processMs <= 600_000)) fail(`${where}.processMs`, 'must be 0 to 600000 ms');
  for (const k of ['laterShare', 'throwShare'] as const) {
    const v = b[k];
    if (v !== undefined && !(typeof v === 'number' && v >= 0 && v <= 1)) fail(`${where}.${k}`, 'must be a share from 0 to 1');
  }
  if ((b.laterShare ?? 0) + (b.throwShare ?? 0) > 1) fail(where, 'laterShare and throwShare add up to more than 1');
}

function checkConsumer(where: string, p: ConsumerProcess, hostNames: Set<string>): void {
  if (!VERSION.test(p.version ?? '')) fail(`${where}.version`, 'must be a version such as 4.9.4');
  if (!/^[A-Za-z0-9_%-]{1,64}$/.test(p.group ?? '')) fail(`${where}.group`, 'missing or not a group name');
  if (!/^[A-Za-z0-9_%-]{1,64}$/.test(p.topic ?? '')) fail(`${where}.topic`, 'missing or not a topic name');
  if (p.subscription !== undefined && !TAGS.test(p.subscription)) fail(`${where}.subscription`, 'must be a tags expression such as * or TagA || TagB');
  if (p.messageModel !== undefined && !MESSAGE_MODELS.includes(p.messageModel)) fail(`${where}.messageModel`, `must be ${MESSAGE_MODELS.join(' or ')}`);
  if (p.mode !== undefined && !CONSUMER_MODES.includes(p.mode)) fail(`${where}.mode`, `must be ${CONSUMER_MODES.join(', ')}`);
  if (p.mode === 'litePull' && compareVersions(p.version, LITE_PULL_SINCE) < 0) fail(`${where}.mode`, `litePull needs client ${LITE_PULL_SINCE} or later (DefaultLitePullConsumer), not ${p.version}`);
  if (p.consumeFromWhere !== undefined && !CONSUME_FROM.includes(p.consumeFromWhere)) fail(`${where}.consumeFromWhere`, `must be ${CONSUME_FROM.join(', ')}`);
  const int = (k: 'consumeThreadMin' | 'consumeThreadMax' | 'pullBatchSize' | 'pullThresholdForQueue' | 'maxReconsumeTimes', min: number, max: number) => {
    const v = p[k];
    if (v !== undefined && !(Number.isInteger(v) && v >= min && v <= max)) fail(`${where}.${k}`, `must be ${min} to ${max}`);
  };
  int('consumeThreadMin', 1, 1000);
  int('consumeThreadMax', 1, 1000);
  int('pullBatchSize', 1, 1024);
  int('pullThresholdForQueue', 1, 65535);
  int('maxReconsumeTimes', -1, 16);
  const simpleOnly = ['receiveBatchSize', 'invisibleSeconds', 'awaitSeconds'] as const;
  if (isGrpc(p)) {
    for (const k of REMOTING_ONLY) if (p[k] !== undefined) fail(`${where}.${k}`, 'a gRPC consumer has no such setting (it receives by pop, through a proxy)');
    if (p.mode === 'grpcSimple' && p.maxCacheMessageCount !== undefined) fail(`${where}.maxCacheMessageCount`, 'a PushConsumer setting (mode grpcPush)');
    if (p.mode === 'grpcPush') for (const k of simpleOnly) if (p[k] !== undefined) fail(`${where}.${k}`, 'a SimpleConsumer setting (mode grpcSimple)');
    if (p.receiveBatchSize !== undefined && !(Number.isInteger(p.receiveBatchSize) && p.receiveBatchSize >= 1 && p.receiveBatchSize <= 32)) fail(`${where}.receiveBatchSize`, 'must be 1 to 32');
    for (const k of ['invisibleSeconds', 'awaitSeconds'] as const) {
      const v = p[k];
      if (v !== undefined && !(Number.isInteger(v) && v >= 1 && v <= 43_200)) fail(`${where}.${k}`, 'must be 1 to 43200 seconds');
    }
    if (p.proxyHost !== undefined && !hostNames.has(p.proxyHost)) fail(`${where}.proxyHost`, `no host ${p.proxyHost}`);
    if (p.maxReconsumeTimes === -1) fail(`${where}.maxReconsumeTimes`, "a gRPC consumer's retries are its group's retryMaxTimes, 0 to 16");
    for (const k of ['consumptionThreadCount', 'maxCacheMessageCount'] as const) {
      const v = p[k];
      if (v !== undefined && !(Number.isInteger(v) && v >= 1 && v <= 65535)) fail(`${where}.${k}`, 'must be 1 to 65535');
    }
  } else {
    for (const k of ['proxyHost', 'consumptionThreadCount', 'maxCacheMessageCount', ...simpleOnly] as const) if (p[k] !== undefined) fail(`${where}.${k}`, 'only for a gRPC consumer (mode grpcPush or grpcSimple)');
  }
  if ((p.consumeThreadMin ?? 20) > (p.consumeThreadMax ?? 20)) fail(`${where}.consumeThreadMin`, 'above consumeThreadMax (both default to 20)');
  if (p.mode === 'litePull' && (p.consumeThreadMin !== undefined || p.consumeThreadMax !== undefined || p.maxReconsumeTimes !== undefined)) {
    fail(`${where}.mode`, 'a lite pull consumer has no consume threads or retries (consumeThreadMin/Max, maxReconsumeTimes)');
  }
  checkListener(`${where}.listener`, p.listener);
  if (p.schedule !== undefined && !Array.isArray(p.schedule)) fail(`${where}.schedule`, 'must be a list');
  for (const [i, c] of (p.schedule ?? []).entries()) {
    if (!(typeof c.at === 'number' && c.at >= 0 && c.at <= 3600)) fail(`${where}.schedule[${i}].at`, 'must be 0 to 3600 seconds');
    checkListener(`${where}.schedule[${i}]`, c);
  }
  for (const h of p.namesrvHosts ?? []) if (!hostNames.has(h)) fail(`${where}.namesrvHosts`, `no host ${h}`);
  checkSettings(`${where}.settings`, p.settings);
  checkSettings(`${where}.systemProperties`, p.systemProperties);
}

function checkFault(where: string, f: Fault, hosts: Map<string, Host>): void {
  const host = hosts.get(f.host);
  if (!host) fail(`${where}.host`, `no host ${f.host}`);
  if (!(typeof f.at === 'number' && f.at >= 0 && f.at <= 3600)) fail(`${where}.at`, 'must be 0 to 3600 seconds');
  const seconds = (name: keyof Fault, required: boolean) => {
    const v = f[name];
    if (v === undefined) {
      if (required) fail(`${where}.${String(name)}`, 'missing');
      return;
    }
    if (!(typeof v === 'number' && v >= 0 && v <= 3600)) fail(`${where}.${String(name)}`, 'must be 0 to 3600 seconds');
  };
  switch (f.kind) {
    case 'hang':
    case 'disk-full':
      return seconds('seconds', true);
    case 'overload': {
      seconds('seconds', true);
      if (!host.processes.some((p) => p.kind === 'broker')) fail(`${where}.host`, 'an overload needs a broker on the host');
      const load = f.load;
      if (!load || !Array.isArray(load.producers) || load.producers.length === 0) fail(`${where}.load.producers`, 'missing');
      for (const p of load.producers) {
        if (!hosts.get(p)?.processes.some((x) => x.kind === 'producer')) fail(`${where}.load.producers`, `${p} runs no producer`);
        // The overload's end sets the producer's base rate again, which would undo its schedule.
        if (hosts.get(p)?.processes.some((x) => x.kind === 'producer' && (x.schedule ?? []).length > 0)) fail(`${where}.load.producers`, `${p} has a traffic schedule`);
      }
      if (!(load.rate > 0 && load.rate <= 5000)) fail(`${where}.load.rate`, 'must be 1 to 5000');
      if (!(Number.isInteger(load.threads) && load.threads >= 1 && load.threads <= 256)) fail(`${where}.load.threads`, 'must be 1 to 256');
      if (f.cpuQuota !== undefined && !(f.cpuQuota >= 0.01 && f.cpuQuota <= 1)) fail(`${where}.cpuQuota`, 'must be 0.01 to 1 (a share of one CPU)');
      if (f.cpuPeriodMs !== undefined && !(Number.isInteger(f.cpuPeriodMs) && f.cpuPeriodMs >= 1 && f.cpuPeriodMs <= 1000)) fail(`${where}.cpuPeriodMs`, 'must be 1 to 1000 ms');
      return;
    }
    case 'reboot':
      seconds('downSeconds', true);
      return seconds('bootSeconds', false);
    case 'restart':
      return seconds('downSeconds', true);
    case 'crash':
      return seconds('downSeconds', false);
    case 'partition': {
      seconds('seconds', true);
      const g = f.groups;
      if (!Array.isArray(g) || g.length !== 2 || !g.every((x) => Array.isArray(x) && x.length > 0)) fail(`${where}.groups`, 'must be two non-empty lists of hosts');
      const seen = new Set<string>();
      for (const [i, group] of g.entries()) {
        for (const h of group) {
          if (!hosts.has(h)) fail(`${where}.groups[${i}]`, `no host ${h}`);
          if (seen.has(h)) fail(`${where}.groups[${i}]`, `${h} in both groups or twice`);
          seen.add(h);
        }
      }
      if (!g[0].includes(f.host)) fail(`${where}.host`, `${f.host} is not in the first group`);
      return;
    }
    default:
      if (!CONSUMER_FAULT_KINDS.includes(f.kind)) fail(`${where}.kind`, `must be one of ${[...FAULT_KINDS, ...CONSUMER_FAULT_KINDS].join(', ')}`);
      return checkConsumerFault(where, f, hosts);
  }
}

function consumerOf(h: Host | undefined): ConsumerProcess | undefined {
  return h?.processes.find((p): p is ConsumerProcess => p.kind === 'consumer');
}

function checkConsumerFault(where: string, f: Fault, hosts: Map<string, Host>): void {
  const c = consumerOf(hosts.get(f.host));
  if (!c) fail(`${where}.host`, `a ${f.kind} strikes a consumer and ${f.host} runs none`);
  const dur = (name: 'seconds' | 'downSeconds' | 'backSeconds', required: boolean) => {
    const v = f[name];
    if (v === undefined) {
      if (required) fail(`${where}.${name}`, 'missing');
    } else if (!(typeof v === 'number' && v >= 0 && v <= 86_400)) fail(`${where}.${name}`, 'must be 0 to 86400 seconds');
  };
  if (f.consumers !== undefined) {
    if (!['slowdown', 'consume-failures', 'listener-block'].includes(f.kind)) fail(`${where}.consumers`, `not a field of ${f.kind}`);
    if (!Array.isArray(f.consumers) || !f.consumers.includes(f.host)) fail(`${where}.consumers`, `must be a list of hosts that includes ${f.host}`);
    for (const h of f.consumers) if (!consumerOf(hosts.get(h))) fail(`${where}.consumers`, `${h} runs no consumer`);
  }
  switch (f.kind) {
    case 'consumer-kill':
    case 'consumer-stop':
      return dur('downSeconds', false);
    case 'consumer-start':
      if (f.subscription !== undefined && !TAGS.test(f.subscription)) fail(`${where}.subscription`, 'must be a tags expression such as * or TagA || TagB');
      return;
    case 'slowdown':
      dur('seconds', true);
      if (!(Number.isInteger(f.processMs) && f.processMs! >= 0 && f.processMs! <= 600_000)) fail(`${where}.processMs`, 'must be 0 to 600000 ms');
      return;
    case 'consume-failures':
      dur('seconds', true);
      return checkListener(where, { laterShare: f.laterShare, throwShare: f.throwShare });
    case 'listener-block':
      return dur('seconds', true);
    case 'reset-offset':
      if (c.mode === 'litePull' || isGrpc(c) || c.messageModel === 'BROADCASTING') fail(`${where}.host`, 'resetOffsetByTime resets a clustering push consumer group on its broker');
      return dur('backSeconds', true);
  }
}

/** Checks a parsed scenario; throws a ScenarioError that names the field. */
export function validateScenario(s: Scenario): Scenario {
  if (!/^[a-z][a-z0-9-]{0,40}$/.test(s.scenario ?? '')) fail('scenario', 'missing or not a lower-case name');
  if (!VERSION.test(s.versions?.namesrv ?? '')) fail('versions.namesrv', 'must be a version such as 4.9.4');
  if (!VERSION.test(s.versions?.broker ?? '')) fail('versions.broker', 'must be a version such as 4.9.4');
  if (!(s.settleSeconds >= 10 && s.settleSeconds <= 600)) fail('settleSeconds', 'must be 10 to 600');
  if (!(s.tailSeconds >= 0 && s.tailSeconds <= 1800)) fail('tailSeconds', 'must be 0 to 1800');
  if (!Array.isArray(s.hosts) || s.hosts.length === 0) fail('hosts', 'missing');
  if (s.hosts.length > 16) fail('hosts', 'at most 16 hosts');
  if (!Array.isArray(s.topics) || s.topics.length === 0) fail('topics', 'missing');
  for (const [i, t] of s.topics.entries()) {
    if (!/^[A-Za-z0-9_%-]{1,64}$/.test(t.name ?? '')) fail(`topics[${i}].name`, 'missing or not a topic name');
    if (!(Number.isInteger(t.queues) && t.queues >= 1 && t.queues <= 64)) fail(`topics[${i}].queues`, 'must be 1 to 64');
  }
  const brokerNames = new Set(s.hosts.flatMap((h) => h.processes.filter((p): p is BrokerProcess => p.kind === 'broker').map((p) => p.brokerName)));
  for (const [i, t] of s.topics.entries()) for (const b of t.brokers ?? []) if (!brokerNames.has(b)) fail(`topics[${i}].brokers`, `no broker ${b}`);
  const names = new Set<string>();
  const addrs = new Set<string>();
  for (const [i, h] of s.hosts.entries()) {
    if (!HOST_NAME.test(h.name ?? '')) fail(`hosts[${i}].name`, 'must be a lower-case host name');
    if (names.has(h.name)) fail(`hosts[${i}].name`, `${h.name} twice`);
    names.add(h.name);
    const m = LAB_ADDR.exec(h.addr ?? '');
    if (!m || Number(m[1]) < 2 || Number(m[1]) > 254) fail(`hosts[${i}].addr`, 'must be 10.213.0.2 to 10.213.0.254');
    if (addrs.has(h.addr)) fail(`hosts[${i}].addr`, `${h.addr} twice`);
    addrs.add(h.addr);
    if (!Array.isArray(h.processes) || h.processes.length === 0) fail(`hosts[${i}].processes`, 'missing');
  }
  const byName = new Map(s.hosts.map((h) => [h.name, h]));
  for (const [i, h] of s.hosts.entries()) {
    const kinds = h.processes.map((p) => p.kind);
    for (const k of ['namesrv', 'broker', 'producer', 'consumer'] as const) {
      if (kinds.filter((x) => x === k).length > 1) fail(`hosts[${i}].processes`, `one ${k} per host (they would share its ports or logs)`);
    }
    if (kinds.includes('consumer') && kinds.some((k) => k !== 'consumer')) fail(`hosts[${i}].processes`, 'a consumer runs on a host of its own (its app.log and rocketmq_client.log are its own)');
    for (const [j, p] of h.processes.entries()) checkProcess(`hosts[${i}].processes[${j}]`, p, names);
    for (const p of h.processes) {
      if (p.kind === 'producer' && p.bindTo && !byName.get(p.bindTo)!.processes.some((x) => x.kind === 'namesrv')) {
        fail(`hosts[${i}].processes.bindTo`, `${p.bindTo} runs no NameServer`);
      }
    }
  }
  if (!s.hosts.some((h) => h.processes.some((p) => p.kind === 'namesrv'))) fail('hosts', 'no NameServer');
  checkProxies(s, byName);
  const masters = new Set(brokers(s).filter((b) => b.broker.brokerId === 0).map((b) => b.broker.brokerName));
  for (const b of brokers(s)) {
    if (b.broker.brokerId !== 0 && !masters.has(b.broker.brokerName)) fail(`hosts.${b.host.name}`, `slave of ${b.broker.brokerName} without its master`);
  }
  if (!Array.isArray(s.faults)) fail('faults', 'missing');
  for (const [i, f] of s.faults.entries()) checkFault(`faults[${i}]`, f, byName);
  checkFaultOverlaps(s.faults, byName);
  return s;
}

/** A local-mode proxy is a 5.x release's; a gRPC consumer needs one to connect to. */
function checkProxies(s: Scenario, byName: Map<string, Host>): void {
  for (const { host, broker } of brokers(s)) {
    if (broker.proxyMode && compareVersions(s.versions.broker, '5.0.0') < 0) fail(`hosts.${host.name}.proxyMode`, `the proxy is in 5.x releases, not ${s.versions.broker}`);
  }
  for (const { host, consumer } of consumers(s)) {
    if (!isGrpc(consumer)) continue;
    const target = consumer.proxyHost ? byName.get(consumer.proxyHost) : proxyHosts(s)[0];
    if (!target || !target.processes.some((p) => p.kind === 'broker' && p.proxyMode === 'local')) fail(`hosts.${host.name}.proxyHost`, 'a gRPC consumer needs a host whose broker runs in a local-mode proxy');
    // The proxy refuses a receive whose invisible time is below ProxyConfig.minInvisibleTimeMillsForRecv
    // (10 s in 5.x: `the invisibleTime is too small. min is 10000`, code 40011, measured on 5.3.3).
    const proxy = target.processes.find((p): p is BrokerProcess => p.kind === 'broker')!;
    const min = Number(proxy.proxySettings?.minInvisibleTimeMillsForRecv ?? MIN_INVISIBLE_MS);
    if (consumer.invisibleSeconds !== undefined && consumer.invisibleSeconds * 1000 < min) fail(`hosts.${host.name}.invisibleSeconds`, `the proxy refuses an invisible time under ${min} ms (minInvisibleTimeMillsForRecv)`);
  }
}

/** Hosts whose broker runs inside a local-mode proxy. */
export function proxyHosts(s: Scenario): Host[] {
  return brokers(s).filter((b) => b.broker.proxyMode === 'local').map((b) => b.host);
}

/** A gRPC consumer's endpoints: its proxy's address and grpcServerPort (ProxyConfig's default 8081). */
export function grpcEndpoints(s: Scenario, c: ConsumerProcess): string {
  const host = c.proxyHost ? s.hosts.find((h) => h.name === c.proxyHost)! : proxyHosts(s)[0];
  const b = host.processes.find((p): p is BrokerProcess => p.kind === 'broker')!;
  return `${host.addr}:${b.proxySettings?.grpcServerPort ?? GRPC_SERVER_PORT}`;
}

/** ProxyConfig.minInvisibleTimeMillsForRecv's default (5.x): the shortest invisible time a receive may ask. */
export const MIN_INVISIBLE_MS = 10_000;

/** ProxyConfig.grpcServerPort's default (5.0.0-5.3.3). */
export const GRPC_SERVER_PORT = 8081;

// Faults that stop a host's processes. A crash or planned restart strikes the servers only.
const STOPS: readonly FaultKind[] = ['reboot', 'crash', 'restart'];
/**
 * Seconds a host's servers take to boot again after a stop ends (a 5.x broker on a loaded lab machine
 * needs up to ~20 s): a later fault on that host must not strike while they boot (a crash then kills
 * a broker the lab is still waiting for, and the recording fails: generated seed 146).
 */
export const BOOT_MARGIN_SECONDS = 30;

/**
 * Faults on one host must make sense together: a host whose processes are down (a reboot, crash or
 * restart) cannot hang, overload or fill its disk meanwhile, nor go down again, and no fault overlaps
 * another of its kind. A partition only drops packets between hosts, so it may overlap any other
 * kind; a reboot at the very end of a hang is the hung machine being power-cycled.
 */
function checkFaultOverlaps(faults: Fault[], hosts: Map<string, Host>): void {
  for (const [i, f] of faults.entries()) {
    if ((f.kind === 'crash' || f.kind === 'restart') && !hosts.get(f.host)!.processes.some((p) => p.kind === 'namesrv' || p.kind === 'broker')) {
      fail(`faults[${i}].host`, `a ${f.kind} strikes the servers and ${f.host} runs none`);
    }
    const end = (faultEnd(f) ?? Infinity) + (STOPS.includes(f.kind) ? BOOT_MARGIN_SECONDS : 0);
    for (const [j, g] of faults.entries()) {
      if (j <= i || g.host !== f.host) continue;
      const gEnd = (faultEnd(g) ?? Infinity) + (STOPS.includes(g.kind) ? BOOT_MARGIN_SECONDS : 0);
      if (!(f.at < gEnd && g.at < end)) continue;
      // One fault of a kind at a time on a host: a second SIGSTOP, fill or cut would end with the first.
      if (f.kind === g.kind) fail(`faults[${j}]`, `overlaps faults[${i}], another ${f.kind} of ${f.host}`);
      if (f.kind === 'partition' || g.kind === 'partition') continue;
      // A consumer that is down is not stopped, started or steered again meanwhile (an offset reset
      // is the group's, on the broker, and may come while one instance is down).
      const consumerDown = (x: Fault) => x.kind === 'consumer-kill' || x.kind === 'consumer-stop';
      if ((consumerDown(f) || consumerDown(g)) && CONSUMER_FAULT_KINDS.includes(f.kind as ConsumerFaultKind) && CONSUMER_FAULT_KINDS.includes(g.kind as ConsumerFaultKind) && f.kind !== 'reset-offset' && g.kind !== 'reset-offset') {
        fail(`faults[${j}]`, `overlaps faults[${i}] on ${f.host}, whose consumer is down in a ${consumerDown(f) ? f.kind : g.kind}`);
      }
      if (STOPS.includes(f.kind) || STOPS.includes(g.kind)) {
        fail(`faults[${j}]`, `overlaps faults[${i}] on ${f.host}, whose processes are down in a ${STOPS.includes(f.kind) ? f.kind : g.kind}`);
      }
    }
  }
}

export function loadScenario(path: string): Scenario {
  let parsed: Scenario;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8')) as Scenario;
  } catch (e) {
    throw new ScenarioError(`${path}: ${(e as Error).message}`);
  }
  try {
    return validateScenario(parsed);
  } catch (e) {
    if (e instanceof ScenarioError) throw new ScenarioError(`${path}: ${e.message}`);
    throw e;
  }
}

export function namesrvHosts(s: Scenario): Host[] {
  return s.hosts.filter((h) => h.processes.some((p) => p.kind === 'namesrv'));
}

export function brokers(s: Scenario): { host: Host; broker: BrokerProcess }[] {
  return s.hosts.flatMap((host) => host.processes.filter((p): p is BrokerProcess => p.kind === 'broker').map((broker) => ({ host, broker })));
}

export function consumers(s: Scenario): { host: Host; consumer: ConsumerProcess }[] {
  return s.hosts.flatMap((host) => host.processes.filter((p): p is ConsumerProcess => p.kind === 'consumer').map((consumer) => ({ host, consumer })));
}

/** A consumer a `consumer-start` fault starts is not started with the cluster. */
export function startedByFault(s: Scenario, host: string): boolean {
  return s.faults.some((f) => f.kind === 'consumer-start' && f.host === host);
}

export function producers(s: Scenario): { host: Host; producer: ProducerProcess }[] {
  return s.hosts.flatMap((host) => host.processes.filter((p): p is ProducerProcess => p.kind === 'producer').map((producer) => ({ host, producer })));
}

/** The namesrvAddr a process on the lab uses: `ip:9876;ip:9876`. */
export function namesrvAddr(s: Scenario, only?: string[]): string {
  const hosts = namesrvHosts(s).filter((h) => !only || only.includes(h.name));
  return hosts.map((h) => `${h.addr}:9876`).join(';');
}

/** When a fault ends, in seconds after the settling phase (null: it never ends within the recording). */
export function faultEnd(f: Fault): number | null {
  switch (f.kind) {
    case 'hang':
    case 'overload':
    case 'disk-full':
    case 'partition':
      return f.at + (f.seconds ?? 0);
    case 'reboot':
      return f.at + (f.downSeconds ?? 0) + (f.bootSeconds ?? 0);
    case 'restart':
      return f.at + (f.downSeconds ?? 0);
    case 'crash':
    case 'consumer-kill':
    case 'consumer-stop':
      return f.downSeconds === undefined ? (f.kind === 'crash' ? null : f.at) : f.at + f.downSeconds;
    case 'slowdown':
    case 'consume-failures':
    case 'listener-block':
      return f.at + (f.seconds ?? 0);
    case 'consumer-start':
    case 'reset-offset':
      return f.at;
  }
}
