// A lab scenario: the hosts of a real RocketMQ cluster, what runs on each, and the faults to inject.
// Scenario files are JSON in lab/scenarios/; docs/lab.md documents every field.
import { readFileSync } from 'node:fs';

export type ProcessKind = 'namesrv' | 'broker' | 'producer';

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
}

export type LabProcess = NamesrvProcess | BrokerProcess | ProducerProcess;

export interface Host {
  name: string;
  /** IPv4 address on the lab's bridge (10.213.0.0/24). */
  addr: string;
  processes: LabProcess[];
  /** false: its logs are not part of the recording (another team's application, whose logs an operator would not have). */
  collect?: boolean;
}

export type FaultKind = 'hang' | 'reboot' | 'crash' | 'restart' | 'overload' | 'disk-full' | 'partition';

export const FAULT_KINDS: readonly FaultKind[] = ['hang', 'reboot', 'crash', 'restart', 'overload', 'disk-full', 'partition'];

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
    return checkSettings(`${where}.settings`, p.settings);
  }
  if (p.kind === 'producer') {
    if (!VERSION.test(p.version ?? '')) fail(`${where}.version`, 'must be a version such as 4.9.4');
    if (!/^[A-Za-z0-9_%-]{1,64}$/.test(p.group ?? '')) fail(`${where}.group`, 'missing or not a group name');
    if (!/^[A-Za-z0-9_%-]{1,64}$/.test(p.topic ?? '')) fail(`${where}.topic`, 'missing or not a topic name');
    if (!(typeof p.rate === 'number' && p.rate >= 0 && p.rate <= 5000)) fail(`${where}.rate`, 'must be 0 to 5000 sends per second');
    if (p.threads !== undefined && !(Number.isInteger(p.threads) && p.threads >= 1 && p.threads <= 256)) fail(`${where}.threads`, 'must be 1 to 256');
    if (p.bindTo !== undefined && !hostNames.has(p.bindTo)) fail(`${where}.bindTo`, `no host ${p.bindTo}`);
    for (const h of p.namesrvHosts ?? []) if (!hostNames.has(h)) fail(`${where}.namesrvHosts`, `no host ${h}`);
    checkSettings(`${where}.settings`, p.settings);
    checkSettings(`${where}.systemProperties`, p.systemProperties);
    return;
  }
  fail(`${where}.kind`, 'must be namesrv, broker or producer');
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
      fail(`${where}.kind`, `must be one of ${FAULT_KINDS.join(', ')}`);
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
    for (const k of ['namesrv', 'broker', 'producer'] as const) {
      if (kinds.filter((x) => x === k).length > 1) fail(`hosts[${i}].processes`, `one ${k} per host (they would share its ports or logs)`);
    }
    for (const [j, p] of h.processes.entries()) checkProcess(`hosts[${i}].processes[${j}]`, p, names);
    for (const p of h.processes) {
      if (p.kind === 'producer' && p.bindTo && !byName.get(p.bindTo)!.processes.some((x) => x.kind === 'namesrv')) {
        fail(`hosts[${i}].processes.bindTo`, `${p.bindTo} runs no NameServer`);
      }
    }
  }
  if (!s.hosts.some((h) => h.processes.some((p) => p.kind === 'namesrv'))) fail('hosts', 'no NameServer');
  const masters = new Set(brokers(s).filter((b) => b.broker.brokerId === 0).map((b) => b.broker.brokerName));
  for (const b of brokers(s)) {
    if (b.broker.brokerId !== 0 && !masters.has(b.broker.brokerName)) fail(`hosts.${b.host.name}`, `slave of ${b.broker.brokerName} without its master`);
  }
  if (!Array.isArray(s.faults)) fail('faults', 'missing');
  for (const [i, f] of s.faults.entries()) checkFault(`faults[${i}]`, f, byName);
  checkFaultOverlaps(s.faults, byName);
  return s;
}

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
    if ((f.kind === 'crash' || f.kind === 'restart') && !hosts.get(f.host)!.processes.some((p) => p.kind !== 'producer')) {
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
      return f.downSeconds === undefined ? null : f.at + f.downSeconds;
  }
}
