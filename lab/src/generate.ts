// `npm run lab -- generate --seed N [--count K] [--out DIR]`: scenarios drawn from the declared space
// (space.ts), the same files for the same seed. Each draw is checked by validateScenario, whose rules
// on faults that share a host (a host whose processes are down cannot hang, fill its disk or go down
// again meanwhile) keep the combinations meaningful; a draw that breaks one is drawn again.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLOSE_SOCKET_IF_TIMEOUT } from './defaults.js';
import { SPACE, type PartitionShape } from './space.js';
import { LITE_PULL_SINCE, ScenarioError, compareVersions, consumers, faultEnd, validateScenario, type ConsumerFaultKind, type ConsumerProcess, type Fault, type ServerFaultKind as FaultKind, type Host, type ProducerProcess, type Scenario } from './scenario.js';

/**
 * mulberry32: a small seeded generator, the same numbers on every machine and Node release. The seed
 * goes through murmur3's finaliser first: neighbouring seeds (1, 2, 3, ...) would otherwise start
 * from neighbouring states, and their first draws would favour some values.
 */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  a = Math.imul(a ^ (a >>> 16), 0x85ebca6b) >>> 0;
  a = Math.imul(a ^ (a >>> 13), 0xc2b2ae35) >>> 0;
  a = (a ^ (a >>> 16)) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Draw {
  constructor(readonly next: () => number) {}
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)];
  }
}

const APPS = [
  { name: 'order', logger: 'com.example.order.OrderEventPublisher' },
  { name: 'pay', logger: 'com.example.pay.PaymentNotifier' },
  { name: 'stock', logger: 'com.example.stock.StockEventPublisher' },
  { name: 'notify', logger: 'com.example.notify.NoticeSender' },
];
const TOPIC = 'TopicOrder';
const BATCH_HOST = 'app-batch-01';
const BATCH_TOPIC = 'TopicExport';
const LETTERS = 'abc';

interface Topology {
  hosts: Host[];
  namesrvHosts: string[];
  masterHosts: string[];
  serverHosts: string[];
  appHosts: string[];
}

function topology(d: Draw): Topology {
  const t = SPACE.topology;
  const namesrvs = d.pick(t.namesrvs);
  const masters = d.pick(t.masters);
  const slaves = d.pick(t.slaves);
  const beside = d.pick(t.namesrvPlacement) === 'beside-brokers' && namesrvs <= masters;
  const hosts: Host[] = [];
  if (!beside) for (let i = 1; i <= namesrvs; i++) hosts.push({ name: `mq-ns-${i}`, addr: `10.213.0.${10 + i}`, processes: [{ kind: 'namesrv' }] });
  for (let i = 0; i < masters; i++) {
    const l = LETTERS[i];
    const withNs = beside && i < namesrvs;
    hosts.push({
      name: withNs ? `mq-node-${l}` : `mq-broker-${l}`,
      addr: `10.213.0.${21 + i}`,
      processes: [...(withNs ? [{ kind: 'namesrv' as const }] : []), { kind: 'broker', brokerName: `broker-${l}`, brokerId: 0 }],
    });
  }
  if (slaves) {
    for (let i = 0; i < masters; i++) {
      hosts.push({ name: `mq-broker-${LETTERS[i]}-s`, addr: `10.213.0.${24 + i}`, processes: [{ kind: 'broker', brokerName: `broker-${LETTERS[i]}`, brokerId: 1 }] });
    }
  }
  const serverHosts = hosts.map((h) => h.name);
  const apps = d.pick(t.applications);
  const appHosts: string[] = [];
  for (let i = 0; i < apps; i++) {
    const name = `app-${APPS[i].name}-01`;
    hosts.push({ name, addr: `10.213.0.${31 + i}`, processes: [application(d, i, masters)] });
    appHosts.push(name);
  }
  return {
    hosts,
    namesrvHosts: hosts.filter((h) => h.processes.some((p) => p.kind === 'namesrv')).map((h) => h.name),
    masterHosts: hosts.filter((h) => h.processes.some((p) => p.kind === 'broker' && p.brokerId === 0)).map((h) => h.name),
    serverHosts,
    appHosts,
  };
}

function application(d: Draw, i: number, masters: number): ProducerProcess {
  const c = SPACE.client;
  const version = d.pick(SPACE.clientVersions);
  const settings: Record<string, number | boolean> = {};
  for (const k of ['sendLatencyFaultEnable', 'retryTimesWhenSendFailed', 'sendMsgTimeout', 'pollNameServerInterval'] as const) {
    const v = d.pick<number | boolean | null>(c[k]);
    if (v !== null) settings[k] = v;
  }
  const close = d.pick(c.closeSocketIfTimeout);
  // Clients before 4.9.1 hard-code clientCloseSocketIfTimeout=false (NettyClientConfig): nothing to set.
  const systemProperties: Record<string, string> = close !== null && compareVersions(version, '4.9.1') >= 0 ? { [CLOSE_SOCKET_IF_TIMEOUT]: String(close) } : {};
  const async = d.pick(c.async);
  const selector = d.pick(c.selector);
  const p: ProducerProcess = {
    kind: 'producer',
    version,
    group: `PID_${APPS[i].name.toUpperCase()}`,
    topic: TOPIC,
    rate: d.pick(c.rate),
    threads: d.pick(c.threads),
    appLogger: APPS[i].logger,
    settings,
    systemProperties,
  };
  if (async) p.async = true;
  // The index in the topic's queue list (queues sorted by broker name), so any master may be the one picked.
  if (selector) p.selectorQueue = Math.floor(d.next() * masters * 2);
  return p;
}

function partitionGroups(t: Topology, host: string, shape: PartitionShape): [string[], string[]] | null {
  const others = t.hosts.map((h) => h.name).filter((h) => h !== host);
  const b =
    shape === 'isolated' ? others : shape === 'from-namesrvs' ? t.namesrvHosts.filter((h) => h !== host) : t.appHosts.filter((h) => h !== host);
  return b.length ? [[host], b] : null;
}

function drawFault(d: Draw, t: Topology, kind: FaultKind, at: number, hasOverload: boolean): Fault | null {
  const f = SPACE.faults;
  switch (kind) {
    case 'hang':
      return { kind, host: d.pick(t.serverHosts), at, seconds: d.pick(f.hang.seconds) };
    case 'reboot':
      return { kind, host: d.pick(t.serverHosts), at, downSeconds: d.pick(f.reboot.downSeconds), bootSeconds: d.pick(f.reboot.bootSeconds) };
    case 'crash': {
      const down = d.pick(f.crash.downSeconds);
      return { kind, host: d.pick(t.serverHosts), at, ...(down === null ? {} : { downSeconds: down }) };
    }
    case 'restart':
      return { kind, host: d.pick(t.serverHosts), at, downSeconds: d.pick(f.restart.downSeconds) };
    case 'overload':
      // One overload per incident: the batch job's load is one setting at a time.
      if (hasOverload) return null;
      return {
        kind,
        host: d.pick(t.masterHosts),
        at,
        seconds: d.pick(f.overload.seconds),
        cpuQuota: d.pick(f.overload.cpuQuota),
        load: { producers: [BATCH_HOST], rate: d.pick(f.overload.loadRate), threads: 1, async: true },
      };
    case 'disk-full':
      return { kind, host: d.pick(t.masterHosts), at, seconds: d.pick(f['disk-full'].seconds) };
    case 'partition': {
      const shape = d.pick(f.partition.shapes);
      // Applications talk to NameServers and masters only: cutting a slave off from them changes nothing.
      const host = d.pick(shape === 'from-clients' ? [...new Set([...t.namesrvHosts, ...t.masterHosts])] : t.serverHosts);
      const groups = partitionGroups(t, host, shape);
      return groups ? { kind, host, at, seconds: d.pick(f.partition.seconds), groups } : null;
    }
  }
}

/** The batch job an overload needs: uncollected, asynchronous, its topic on the overloaded master only. */
function addBatchJob(s: Scenario, overloaded: string): void {
  const broker = s.hosts.find((h) => h.name === overloaded)!.processes.find((p) => p.kind === 'broker');
  if (broker?.kind !== 'broker') return;
  s.topics.push({ name: BATCH_TOPIC, queues: 4, brokers: [broker.brokerName] });
  s.hosts.push({
    name: BATCH_HOST,
    addr: '10.213.0.39',
    collect: false,
    processes: [
      { kind: 'producer', version: '4.9.4', group: 'PID_BATCH', topic: BATCH_TOPIC, rate: SPACE.faults.overload.batchRate, threads: 1, async: true, appLogStacks: false, appLogger: 'com.example.batch.BatchExporter' },
    ],
  });
}

export function describeScenario(s: Scenario, seed: number): string {
  const masters = s.hosts.filter((h) => h.processes.some((p) => p.kind === 'broker' && p.brokerId === 0)).length;
  const slaves = s.hosts.some((h) => h.processes.some((p) => p.kind === 'broker' && p.brokerId > 0));
  const ns = s.hosts.filter((h) => h.processes.some((p) => p.kind === 'namesrv'));
  const beside = ns.some((h) => h.processes.length > 1);
  const apps = s.hosts.filter((h) => h.collect !== false && h.processes.some((p) => p.kind === 'producer'));
  const faults = s.faults.map((f) => `${f.kind} of ${f.host} at ${f.at} s${f.groups ? ` (from ${f.groups[1].join(', ')})` : ''}`).join('; ');
  const groups = new Map<string, ConsumerProcess[]>();
  for (const { consumer } of consumers(s)) groups.set(consumer.group, [...(groups.get(consumer.group) ?? []), consumer]);
  const cg = [...groups].map(([g, cs]) => `${g}: ${cs.length} ${cs[0].mode ?? 'concurrently'}${cs[0].messageModel === 'BROADCASTING' ? ' broadcasting' : ''} instance${cs.length > 1 ? 's' : ''}, client ${cs[0].version}`);
  return (
    `Generated from seed ${seed}: ${faults}. ${masters} masters${slaves ? ' with slaves' : ''}, ${ns.length} NameServer${ns.length > 1 ? 's' : ''} ` +
    `${beside ? 'beside the brokers' : 'on hosts of their own'}, servers ${s.versions.broker}, ${apps.length} application${apps.length > 1 ? 's' : ''} ` +
    `(clients ${apps.map((h) => (h.processes[0] as ProducerProcess).version).join(', ')})` +
    (cg.length ? `; consumer group${cg.length > 1 ? 's' : ''} ${cg.join('; ')}.` : '.')
  );
}

/** The latest second after the settling at which a fault starts, so that a recording stays a few minutes long. */
export const LAST_FAULT_START = 180;

function addFault(d: Draw, t: Topology, s: Scenario, kind: FaultKind, count: number): boolean {
  const prev = s.faults[s.faults.length - 1];
  let at = 0;
  if (prev) {
    const prevEnd = faultEnd(prev) ?? prev.at;
    const apart = prevEnd + d.pick(SPACE.faults.gapSeconds);
    const overlapping = d.pick(SPACE.faults.timing) === 'overlapping' || apart > LAST_FAULT_START;
    at = overlapping && prevEnd > prev.at ? prev.at + Math.floor(d.next() * Math.min(prevEnd - prev.at, LAST_FAULT_START - prev.at)) : apart;
    if (at > LAST_FAULT_START) return false;
  }
  const f = drawFault(d, t, kind, at, s.faults.some((x) => x.kind === 'overload'));
  if (!f) return false;
  const faults = [f];
  if (f.kind === 'hang' && d.pick(SPACE.faults.hangThenReboot)) {
    faults.push({ kind: 'reboot', host: f.host, at: f.at + f.seconds!, downSeconds: d.pick(SPACE.faults.reboot.downSeconds), bootSeconds: d.pick(SPACE.faults.reboot.bootSeconds) });
  }
  if (s.faults.length + faults.length > count) return false;
  s.faults.push(...faults);
  if (f.kind === 'overload') addBatchJob(s, f.host);
  try {
    validateScenario(s);
    return true;
  } catch (e) {
    if (!(e instanceof ScenarioError)) throw e;
    s.faults.splice(s.faults.length - faults.length);
    if (f.kind === 'overload') {
      s.hosts = s.hosts.filter((h) => h.name !== BATCH_HOST);
      s.topics = s.topics.filter((x) => x.name !== BATCH_TOPIC);
    }
    return false;
  }
}

const GROUPS = [
  { name: 'billing', logger: 'com.example.billing.OrderEventListener' },
  { name: 'audit', logger: 'com.example.audit.OrderAuditListener' },
];
/** The lab's host limit (validateScenario). */
const MAX_HOSTS = 16;

/** A group's instances, alike but for their hosts; the last one joins later when the draw says so. */
function consumerGroup(d: Draw, s: Scenario, g: number, room: number): Host[] {
  const c = SPACE.consumers;
  const n = Math.min(d.pick(c.instances), room);
  const version = d.pick(SPACE.clientVersions);
  let mode = d.pick(c.mode);
  if (mode === 'litePull' && compareVersions(version, LITE_PULL_SINCE) < 0) mode = 'concurrently';
  // BROADCASTING with the concurrent push consumer only: an orderly one is refused by the model and
  // a lite pull one's offsets are its own file's, as a push one's (a combination nobody runs).
  const messageModel = mode === 'concurrently' ? d.pick(c.messageModel) : 'CLUSTERING';
  const threads = d.pick(c.consumeThreads);
  const pullThreshold = d.pick(c.pullThresholdForQueue);
  const reconsume = d.pick(c.maxReconsumeTimes);
  const p: ConsumerProcess = {
    kind: 'consumer',
    version,
    group: `CID_${GROUPS[g].name.toUpperCase()}`,
    topic: TOPIC,
    appLogger: GROUPS[g].logger,
    listener: { processMs: d.pick(c.processMs) },
  };
  if (mode !== 'concurrently') p.mode = mode;
  if (messageModel !== 'CLUSTERING') p.messageModel = messageModel;
  if (mode !== 'litePull') {
    if (threads !== null) Object.assign(p, { consumeThreadMin: threads, consumeThreadMax: threads });
    if (reconsume !== null) p.maxReconsumeTimes = reconsume;
  }
  if (pullThreshold !== null) p.pullThresholdForQueue = pullThreshold;
  const hosts: Host[] = [];
  for (let i = 0; i < n; i++) hosts.push({ name: `app-${GROUPS[g].name}-0${i + 1}`, addr: `10.213.0.${41 + 10 * g + i}`, processes: [{ ...p, listener: { ...p.listener } }] });
  if (n > 1 && d.pick(c.joinsLater)) {
    const sub = d.pick(c.lateSubscription);
    const at = Math.floor(d.next() * LAST_FAULT_START);
    s.faults.push({ kind: 'consumer-start', host: hosts[n - 1].name, at, ...(sub === null ? {} : { subscription: sub }) });
  }
  return hosts;
}

function drawConsumerFault(d: Draw, s: Scenario, kind: Exclude<ConsumerFaultKind, 'consumer-start'>, at: number): Fault {
  const f = SPACE.consumers.faults;
  // Not an instance that joins later: a fault before its start would strike nothing.
  const late = new Set(s.faults.filter((x) => x.kind === 'consumer-start').map((x) => x.host));
  const host = d.pick(consumers(s).map((c) => c.host.name).filter((h) => !late.has(h)));
  switch (kind) {
    case 'consumer-kill':
    case 'consumer-stop': {
      const down = d.pick(f.down.downSeconds);
      return { kind, host, at, ...(down === null ? {} : { downSeconds: down }) };
    }
    case 'slowdown':
      return { kind, host, at, seconds: d.pick(f.slowdown.seconds), processMs: d.pick(f.slowdown.processMs) };
    case 'consume-failures': {
      const [laterShare, throwShare] = d.pick(f['consume-failures'].shares);
      return { kind, host, at, seconds: d.pick(f['consume-failures'].seconds), laterShare, throwShare };
    }
    case 'listener-block':
      return { kind, host, at, seconds: d.pick(f['listener-block'].seconds) };
    case 'reset-offset':
      return { kind, host, at, backSeconds: d.pick(f['reset-offset'].backSeconds) };
  }
}

/**
 * Consumer groups and their faults, from the seed's second stream. A consumer fault starts while a
 * server fault lasts or anywhere before the last one ends, so that some strike a group already hurt.
 * A draw the lab's rules refuse (an offset reset of a broadcasting group, a fault while the instance
 * is down) is dropped.
 */
function addConsumers(d: Draw, s: Scenario): void {
  const c = SPACE.consumers;
  const groups = d.pick(c.groups);
  for (let g = 0; g < groups; g++) {
    const room = MAX_HOSTS - s.hosts.length;
    if (room <= 0) break;
    s.hosts.push(...consumerGroup(d, s, g, room));
  }
  if (!consumers(s).length) return;
  const last = Math.min(LAST_FAULT_START, Math.max(...s.faults.map((f) => faultEnd(f) ?? f.at)));
  const count = d.pick(c.faults.count);
  for (let i = 0; i < count; i++) {
    const f = drawConsumerFault(d, s, d.pick(c.faults.kinds), Math.floor(d.next() * (last + 1)));
    s.faults.push(f);
    try {
      validateScenario(s);
    } catch (e) {
      if (!(e instanceof ScenarioError)) throw e;
      s.faults.pop();
    }
  }
}

/** The seed's second stream: consumers are drawn from it, so that adding them changed nothing else of a seed. */
const CONSUMER_STREAM = 0x9e3779b9;

/** The scenario of one seed: always the same for the same seed, and always valid. */
export function generateScenario(seed: number): Scenario {
  const d = new Draw(random(seed));
  const version = d.pick(SPACE.serverVersions);
  const t = topology(d);
  const s: Scenario = {
    scenario: `gen-${seed}`,
    description: '',
    versions: { namesrv: version, broker: version },
    topics: [{ name: TOPIC, queues: d.pick(SPACE.topology.queues) }],
    settleSeconds: d.pick(SPACE.timing.settleSeconds),
    tailSeconds: d.pick(SPACE.timing.tailSeconds),
    hosts: t.hosts,
    faults: [],
  };
  const count = d.pick(SPACE.faults.count);
  // A kind is drawn first, then its host and lengths until they fit (a bounded number of times), so
  // that kinds with few valid places are not drawn less often than the others.
  for (let slot = 0; s.faults.length < count && slot < 20; slot++) {
    const kind = d.pick(SPACE.faults.kinds);
    for (let tries = 0; tries < 20; tries++) if (addFault(d, t, s, kind, count)) break;
  }
  addConsumers(new Draw(random((seed ^ CONSUMER_STREAM) >>> 0)), s);
  s.description = describeScenario(s, seed);
  return validateScenario(s);
}

/** Writes the scenarios of seeds seed..seed+count-1 into `dir` as gen-SEED.json; returns their paths. */
export function writeGenerated(seed: number, count: number, dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const s = generateScenario(seed + i);
    const file = join(dir, `${s.scenario}.json`);
    writeFileSync(file, JSON.stringify(s, null, 2) + '\n');
    out.push(file);
  }
  return out;
}
