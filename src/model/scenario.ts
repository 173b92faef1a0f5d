// A scenario is data (JSON-serialisable): the cluster, the clients and a fault schedule. runScenario
// builds the model from it and runs it with one explicit seed; the result is the event timeline the
// components' logs would give (same types and fields as the parsers), plus metrics.

import { parseZone, type Zone } from '../parse/time.js';
import type { RmqEvent } from '../parse/types.js';
import { Broker, type ServiceTime } from './broker.js';
import { Client, type ClientSettings, type LoggedSend, type RateStep } from './client.js';
import { MessageCopies } from './copies.js';
import { consumerGroupsOf, type ConsumerGroupMetrics, type ScenarioConsumerGroup } from './consumer.js';
export type { ScenarioConsumerGroup, ScenarioConsumerInstance } from './consumer.js';
import { assert, Kernel, Priority } from './kernel.js';
import { LogSink } from './log.js';
import { Recorder, type ClientMetrics, type NamesrvRemoval } from './metrics.js';
import { NameServer } from './namesrv.js';
import { Network, type Host } from './network.js';
import { RandomSource } from './random.js';
import { DEFAULT_TOPIC, type TopicConfig } from './route.js';
import { parseVersion } from './versions.js';
import type { TagShare } from './subscription.js';

export interface ScenarioNameServer {
  /** `ip:port`. */
  addr: string;
  host: string;
  version?: string;
  serverChannelMaxIdleTimeSeconds?: number;
  scanNotActiveBrokerIntervalMs?: number;
  brokerChannelExpiredTimeMs?: number;
  /** When the NameServer starts, model ms (default 0). */
  startAtMs?: number;
}

export interface ScenarioBroker {
  name: string;
  /** `ip:port` (10911). */
  addr: string;
  host: string;
  role?: 'master' | 'slave';
  cluster?: string;
  version?: string;
  /** Default: every NameServer of the scenario. */
  namesrvAddrs?: string[];
  cores?: number;
  sendMessageThreadPoolNums?: number;
  sendThreadPoolQueueCapacity?: number;
  waitTimeMillsInSendQueue?: number;
  osPageCacheBusyTimeOutMills?: number;
  registerNameServerPeriodMs?: number;
  registerBrokerTimeoutMills?: number;
  service?: ServiceTime;
  /** When the broker starts (and registers), model ms (default 100). */
  startAtMs?: number;
}

export interface ScenarioTopic {
  name: string;
  /** Read and write queues per broker (4). */
  queues?: number;
  /** Brokers (names) that host it; default every master. */
  brokers?: string[];
}

export interface ScenarioClient {
  host: string;
  /** Default: a 10.250.x.y address. */
  ip?: string;
  version: string;
  /** Default: every NameServer, in scenario order (the client shuffles it). */
  namesrvAddrList?: string[];
  /** The name server the client binds to at start, or 'random' (default). */
  namesrv?: string;
  group?: string;
  topic: string;
  sendRatePerSec: number;
  /** Send through a MessageQueueSelector (no retry). */
  selector?: boolean;
  /** With `selector`: the selector always picks this index of the topic's queue list (queues sorted by broker name). */
  selectorQueue?: number;
  /** Send asynchronously (send(msg, SendCallback)): retries only of requests that could not be sent (retryTimesWhenSendAsyncFailed). */
  async?: boolean;
  /** Client start, ms (default 1000 plus a small stagger). */
  startAtMs?: number;
  /** First send, ms after the start (default 1000). */
  sendStartMs?: number;
  /** Send at these model times (a trace of the application's sends) instead of Poisson arrivals at sendRatePerSec. */
  sendTimesMs?: number[];
  /** The Poisson rate changes at these model times (ascending): from `atMs` on it is `perSec`; before the first, sendRatePerSec. */
  sendRateSteps?: RateStep[];
  /** Sends the logs show one by one (a busy reply a stall held), made beside the rate's: when the broker read each, and to which broker. */
  loggedSends?: LoggedSend[];
  /** The application's threads that call send (synchronous sends): a send of the rate that comes while all are in a send is not made. Default: a thread per send. */
  sendThreads?: number;
  settings?: ClientSettings;
  /** The tags of its messages, taken in turn by their shares (`[{ tag: 'TagA' }, { tag: 'TagB' }]`: one each in turn); none: messages without tags. */
  tags?: TagShare[];
}

/** Delays from a host's return to each process's boot (the seed outage: 12 s and 25 s). */
export interface BootDelays {
  namesrvMs?: number;
  brokerMs?: number;
  clientMs?: number;
}

export type Fault =
  | {
      atMs: number;
      host: string;
      state: 'hung' | 'up' | 'down' | 'reboot';
      boot?: BootDelays;
      /** With `hung`: only the processes froze (SIGSTOP, a stop-the-world pause); the OS still completes new TCP connections, which then get no answer. */
      processesOnly?: boolean;
      /**
       * With `down`: the servers ran their shutdown hook (SIGTERM, a planned stop): a broker persists
       * its consumer offsets first. Without it (kill -9, a crash) a broker loses the offsets committed
       * since its last persist (every 5 s).
       */
      graceful?: boolean;
    }
  | { atMs: number; broker: string; stall: { durationMs: number; ioFrozen?: boolean; ioFrozenMs?: number } }
  | {
      atMs: number;
      broker: string;
      /** backgroundPerSec: sends per second from producers outside the scenario (whose logs were not given). */
      overload: { durationMs: number; serviceMs: number; sdMs?: number; backgroundPerSec?: number };
    }
  | { atMs: number; broker: string; slowPut: { durationMs: number } }
  /** The store marked its disk full at atMs and OK again durationMs later (ratios as the store log prints them). */
  | { atMs: number; broker: string; diskFull: { durationMs: number; ratio: number; okRatio: number } }
  | { atMs: number; partition: [string, string]; durationMs?: number }
  | { atMs: number; heal: [string, string] };

/** How long a broker's fault lasts (a stall, an overload, slow puts, a full disk); 0 for the other faults, which are moments or last until their heal. */
export function brokerFaultMs(f: Fault): number {
  return 'stall' in f ? f.stall.durationMs : 'overload' in f ? f.overload.durationMs : 'slowPut' in f ? f.slowPut.durationMs : 'diskFull' in f ? f.diskFull.durationMs : 0;
}

/**
 * A host state's word in the reports: a whole host `hung` (its OS too) is `unreachable`: no
 * connection to it completes, as a host without power shows; `hung` is a host whose processes
 * stopped (processesOnly: SIGSTOP, a pause), whose OS still completes connections.
 */
export function hostStateWord(f: Extract<Fault, { state: string }>): string {
  return f.state === 'hung' && !f.processesOnly ? 'unreachable' : f.state;
}

export interface Scenario {
  name?: string;
  /** Epoch ms of model time 0. */
  startEpochMs: number;
  /** Zone of client and application logs (the JVM default zone); default `+08:00`. */
  zone?: string;
  /** Default version of NameServers and brokers. */
  serverVersion?: string;
  /** One-way network latency between hosts, ms (default 0.5). */
  latencyMs?: number;
  /** Brokers announce TBW102 (autoCreateTopicEnable, default true). */
  autoCreateTopicEnable?: boolean;
  nameServers: ScenarioNameServer[];
  brokers: ScenarioBroker[];
  topics: ScenarioTopic[];
  clients: ScenarioClient[];
  consumerGroups?: ScenarioConsumerGroup[];
  faults?: Fault[];
}

export interface RunOptions {
  /** The run's only source of randomness (32-bit unsigned). */
  seed: number;
  /** Model time to stop at, ms. */
  untilMs: number;
  /** Keep the rendered log lines per file (for writing simulated logs). */
  keepLines?: boolean;
  /** Write the brokers' watermark.log (default true). */
  watermark?: boolean;
  /** Keep only events of these types in the result (default: all; see LogSinkOptions). */
  keepTypes?: ReadonlySet<string> | null;
  /** Sees every event of the run as it happens. */
  onEvent?: (ev: RmqEvent) => void;
}

export interface BrokerSummary {
  busyReplies: number;
  byReason: Record<string, number>;
  waitMsMin: number | null;
  waitMsMax: number | null;
}

export interface RunResult {
  scenario: string;
  seed: number;
  untilMs: number;
  events: RmqEvent[];
  metrics: {
    clients: Record<string, ClientMetrics>;
    removals: NamesrvRemoval[];
    /** Every successful registration (broker at NameServer). */
    registrations: Array<{ atMs: number; namesrv: string; brokerAddr: string }>;
    brokers: Record<string, BrokerSummary>;
    /** Per consumer group (present when the scenario has consumers). */
    consumerGroups?: Record<string, ConsumerGroupMetrics>;
  };
  /** Rendered lines per file path (`sim:<host>/<file>`), when keepLines was set. */
  logs?: Record<string, string[]>;
  /** Kernel callbacks executed (a size measure, not a time). */
  steps: number;
}

/** The servers' version when the scenario names none. */
export const DEFAULT_SERVER_VERSION = '4.9.8';

const DEFAULT_BOOT: Required<BootDelays> = { namesrvMs: 12000, brokerMs: 25000, clientMs: 30000 };

function ipOf(addr: string): string {
  const i = addr.lastIndexOf(':');
  assert(i > 0, `address must be ip:port, got '${addr}'`);
  return addr.slice(0, i);
}

/** The IP of the `i`th client when neither the scenario nor another process of its host gives one. */
export function autoClientIp(i: number): string {
  return `10.250.${(i >> 8) & 255}.${(i & 255) + 1}`;
}

export function runScenario(scenario: Scenario, opts: RunOptions): RunResult {
  assert(opts.untilMs > 0, 'untilMs must be positive');
  const kernel = new Kernel();
  const random = new RandomSource(opts.seed);
  const zone = parseZone(scenario.zone ?? '+08:00');
  const sink = new LogSink({ startEpochMs: scenario.startEpochMs, nowMs: () => kernel.nowMs, keepLines: opts.keepLines, keepTypes: opts.keepTypes, onEvent: opts.onEvent });
  const net = new Network(kernel, { latencyMs: scenario.latencyMs ?? 0.5 });
  const recorder = new Recorder();
  const serverVersion = scenario.serverVersion ?? DEFAULT_SERVER_VERSION;

  // Hosts: one IP each, from the addresses placed on them.
  const hostIps = new Map<string, string>();
  const place = (host: string, ip: string): void => {
    const prev = hostIps.get(host);
    assert(prev === undefined || prev === ip, `host ${host} has two addresses: ${prev} and ${ip}`);
    hostIps.set(host, ip);
  };
  for (const ns of scenario.nameServers) place(ns.host, ipOf(ns.addr));
  for (const b of scenario.brokers) place(b.host, ipOf(b.addr));
  scenario.clients.forEach((c, i) => {
    const ip = c.ip ?? hostIps.get(c.host) ?? autoClientIp(i);
    place(c.host, ip);
  });
  (scenario.consumerGroups ?? []).forEach((g, gi) =>
    g.instances.forEach((inst, i) => {
      const ip = inst.ip ?? hostIps.get(inst.host) ?? `10.251.${gi & 255}.${(i & 255) + 1}`;
      place(inst.host, ip);
    }),
  );
  for (const [name, ip] of hostIps) net.addHost(name, ip);
  /** Bumped by every down/reboot, so that boots scheduled by an earlier one are dropped. */
  const hostEpochs: Record<string, number> = Object.fromEntries([...net.hosts.keys()].map((h) => [h, 0]));

  const nsAddrs = scenario.nameServers.map((n) => n.addr);
  const nameServers = scenario.nameServers.map(
    (n) =>
      new NameServer(
        net,
        net.host(n.host),
        {
          addr: n.addr,
          version: n.version ?? serverVersion,
          serverChannelMaxIdleTimeSeconds: n.serverChannelMaxIdleTimeSeconds,
          scanNotActiveBrokerIntervalMs: n.scanNotActiveBrokerIntervalMs,
          brokerChannelExpiredTimeMs: n.brokerChannelExpiredTimeMs,
        },
        sink,
        zone,
        recorder,
      ),
  );

  const brokers = brokersOf(scenario, net, nsAddrs, serverVersion, sink, zone, random, opts.watermark ?? true);

  const clients = clientsOf(scenario, net, nsAddrs, sink, zone, recorder, random);
  // Which messages a send stored twice is kept only where consumers can consume them twice.
  if ((scenario.consumerGroups ?? []).length > 0) {
    const copies = new MessageCopies();
    for (const b of brokers.values()) b.copies = copies;
    for (const c of clients) c.copies = copies;
  }

  // Boot: NameServers first, then brokers (they register at once), then clients.
  // A start time (startAtMs) sets the phase of the process's timers; a fault may have booted it first.
  scenario.nameServers.forEach((n, i) => {
    const ns = nameServers[i];
    kernel.schedule(n.startAtMs ?? 0, Priority.process, () => {
      if (!ns.alive) ns.start();
    });
  });
  for (const b of scenario.brokers) {
    const broker = brokers.get(b.name)!;
    kernel.schedule(b.startAtMs ?? 100, Priority.process, () => {
      if (!broker.alive) broker.start();
    });
  }
  scenario.clients.forEach((c, i) => {
    const at = c.startAtMs ?? 1000 + ((i * 97) % 1000);
    kernel.schedule(at, Priority.process, () => clients[i].start());
  });

  const consumerGroups = consumerGroupsOf(scenario.consumerGroups ?? [], scenario.topics, scenario.brokers.filter((b) => (b.role ?? 'master') === 'master').map((b) => b.name), kernel, net, brokers, sink, zone, random, nameServers);

  for (const f of scenario.faults ?? []) scheduleFault(f);

  function scheduleFault(f: Fault): void {
    assert(f.atMs >= 0, 'fault time must not be negative');
    kernel.schedule(f.atMs, Priority.fault, () => applyFault(f));
  }

  /** Boot the host's processes after their delays; the host is 'up' once all of them run. */
  function startLater(host: Host, boot: BootDelays | undefined): void {
    const d = { ...DEFAULT_BOOT, ...boot };
    host.state = 'rebooting';
    const epoch = ++hostEpochs[host.name];
    let left = host.processes.length;
    if (left === 0) host.state = 'up';
    for (const p of host.processes) {
      const delay = p instanceof NameServer ? d.namesrvMs : p instanceof Broker ? d.brokerMs : d.clientMs;
      kernel.after(delay, Priority.process, () => {
        if (hostEpochs[host.name] !== epoch || host.state !== 'rebooting') return; // hung or down again meanwhile
        if (!p.alive) p.start();
        if (--left === 0) host.state = 'up';
      });
    }
  }

  function applyFault(f: Fault): void {
    if ('state' in f) {
      const host = net.host(f.host);
      switch (f.state) {
        case 'hung':
          host.hang(kernel.nowMs, f.processesOnly === true);
          return;
        case 'up': {
          const was = host.state;
          if (was === 'hung') {
            host.state = 'up';
            host.hungSinceMs = null;
            for (const fn of host.takeHeld()) fn();
          } else if (was === 'down') startLater(host, f.boot ?? { namesrvMs: 0, brokerMs: 0, clientMs: 0 });
          return;
        }
        case 'down':
          if (f.graceful === true) for (const p of host.processes) if (p instanceof Broker) p.shutdownHook();
          host.dropHeld();
          host.state = 'down';
          host.hungSinceMs = null;
          hostEpochs[host.name]++;
          for (const p of host.processes) p.kill('fin');
          return;
        case 'reboot':
          host.dropHeld();
          for (const p of host.processes) p.kill('rst');
          host.hungSinceMs = null;
          startLater(host, f.boot);
          return;
      }
    }
    if ('stall' in f) return broker(f.broker).stall(f.stall.durationMs, f.stall.ioFrozen ? f.stall.durationMs : (f.stall.ioFrozenMs ?? 0));
    if ('overload' in f) {
      const o = f.overload;
      return broker(f.broker).setOverload(o.durationMs, { meanMs: o.serviceMs, sdMs: o.sdMs ?? o.serviceMs / 10 }, o.backgroundPerSec ?? 0);
    }
    if ('slowPut' in f) return broker(f.broker).slowPut(f.slowPut.durationMs);
    if ('diskFull' in f) return broker(f.broker).setDiskFull(f.diskFull.durationMs, f.diskFull.ratio, f.diskFull.okRatio);
    if ('partition' in f) {
      const [a, b] = f.partition;
      net.host(a);
      net.host(b);
      net.partition(a, b);
      if (f.durationMs !== undefined) kernel.after(f.durationMs, Priority.fault, () => net.heal(a, b));
      return;
    }
    if ('heal' in f) net.heal(f.heal[0], f.heal[1]);
  }

  function broker(name: string): Broker {
    const b = brokers.get(name);
    assert(b !== undefined, `fault names unknown broker ${name}`);
    return b;
  }

  kernel.run(opts.untilMs);

  const brokerSummaries = summariesOf(brokers);
  const result: RunResult = {
    scenario: scenario.name ?? 'scenario',
    seed: opts.seed,
    untilMs: opts.untilMs,
    events: sink.events,
    metrics: {
      clients: Object.fromEntries([...recorder.clients].map(([k, v]) => [k, v])),
      removals: recorder.removals,
      registrations: recorder.registrations,
      brokers: brokerSummaries,
      ...(consumerGroups.length > 0 ? { consumerGroups: Object.fromEntries(consumerGroups.map((g) => [g.config.group, g.metrics])) } : {}),
    },
    steps: kernel.executedCount,
  };
  if (opts.keepLines) {
    result.logs = {};
    for (const f of sink.files.values()) result.logs[f.path] = f.lines ?? [];
  }
  return result;
}

/** The brokers of a scenario, each with its topics' queues (TBW102 where topics are created automatically). */
function brokersOf(scenario: Scenario, net: Network, nsAddrs: string[], serverVersion: string, sink: LogSink, zone: Zone, random: RandomSource, watermark: boolean): Map<string, Broker> {
  const masters = scenario.brokers.filter((b) => (b.role ?? 'master') === 'master').map((b) => b.name);
  const brokers = new Map<string, Broker>();
  for (const b of scenario.brokers) {
    const topics: TopicConfig[] = [];
    if (scenario.autoCreateTopicEnable ?? true) topics.push({ topic: DEFAULT_TOPIC, readQueueNums: 8, writeQueueNums: 8, perm: 7 });
    for (const t of scenario.topics) {
      const on = t.brokers ?? masters;
      if (!on.includes(b.name)) continue;
      const q = t.queues ?? 4;
      topics.push({ topic: t.name, readQueueNums: q, writeQueueNums: q, perm: 6 });
    }
    assert(!brokers.has(b.name), `broker ${b.name} defined twice`);
    brokers.set(
      b.name,
      new Broker(
        net,
        net.host(b.host),
        {
          name: b.name,
          addr: b.addr,
          version: b.version ?? serverVersion,
          role: b.role ?? 'master',
          cluster: b.cluster ?? 'DefaultCluster',
          namesrvAddrs: b.namesrvAddrs ?? nsAddrs,
          topics,
          cores: b.cores,
          sendMessageThreadPoolNums: b.sendMessageThreadPoolNums,
          sendThreadPoolQueueCapacity: b.sendThreadPoolQueueCapacity,
          waitTimeMillsInSendQueue: b.waitTimeMillsInSendQueue,
          osPageCacheBusyTimeOutMills: b.osPageCacheBusyTimeOutMills,
          registerNameServerPeriodMs: b.registerNameServerPeriodMs,
          registerBrokerTimeoutMills: b.registerBrokerTimeoutMills,
          service: b.service,
          watermark,
        },
        sink,
        zone,
        random.stream(`broker:${b.name}`),
      ),
    );
  }

  return brokers;
}

/** The producers of a scenario, with the defaults of a client the scenario leaves unsaid. */
function clientsOf(scenario: Scenario, net: Network, nsAddrs: string[], sink: LogSink, zone: Zone, recorder: Recorder, random: RandomSource): Client[] {
  return scenario.clients.map((c, i) => {
    parseVersion(c.version);
    return new Client(
      net,
      net.host(c.host),
      {
        name: c.host,
        version: c.version,
        namesrvAddrList: c.namesrvAddrList ?? nsAddrs,
        namesrv: c.namesrv ?? 'random',
        group: c.group ?? `PID_${c.host.replace(/[^A-Za-z0-9]/g, '_').toUpperCase()}`,
        topic: c.topic,
        sendRatePerSec: c.sendRatePerSec,
        selector: c.selector ?? false,
        selectorQueue: c.selectorQueue,
        async: c.async ?? false,
        sendStartMs: c.sendStartMs ?? 1000,
        sendTimesMs: c.sendTimesMs ? [...c.sendTimesMs].sort((a, b) => a - b) : undefined,
        sendRateSteps: c.sendRateSteps ? [...c.sendRateSteps].sort((a, b) => a.atMs - b.atMs) : undefined,
        loggedSends: c.loggedSends ? [...c.loggedSends].sort((a, b) => a.atMs - b.atMs) : undefined,
        sendThreads: c.sendThreads,
        pid: 20000 + i * 7,
        settings: c.settings ?? {},
        tags: c.tags,
      },
      sink,
      zone,
      recorder,
      random.stream(`client:${c.host}`),
      random.stream(`app:${c.host}`),
    );
  });

}

/** Each broker's busy replies: how many, by reason, and the shortest and longest wait. */
function summariesOf(brokers: Map<string, Broker>): Record<string, BrokerSummary> {
  const brokerSummaries: Record<string, BrokerSummary> = {};
  for (const [name, b] of brokers) {
    const byReason: Record<string, number> = {};
    let min: number | null = null;
    let max: number | null = null;
    for (const r of b.busyReplies) {
      byReason[r.reason] = (byReason[r.reason] ?? 0) + 1;
      if (r.waitMs !== null) {
        min = min === null ? r.waitMs : Math.min(min, r.waitMs);
        max = max === null ? r.waitMs : Math.max(max, r.waitMs);
      }
    }
    brokerSummaries[name] = { busyReplies: b.busyReplies.length, byReason, waitMsMin: min, waitMsMax: max };
  }
  return brokerSummaries;
}
