// What-if variants: `--set KEY=VALUE` (all together, one variant) and `--what-if 'k=v,k2=v2'` (one
// variant each). A key applies to every client, broker or NameServer it belongs to, or to one when
// prefixed with its name: `app-order-01.clientVersion=4.9.4`, `broker-b.waitTimeMillsInSendQueue=500`,
// `192.168.3.101:9876.serverChannelMaxIdleTimeSeconds=120`. The table of keys is in docs/replay.md.

import type { Scenario, ScenarioBroker, ScenarioClient, ScenarioNameServer } from '../model/index.js';
import { CLIENT } from '../rocketmq/facts.js';
import { OLDEST_MODELLED, parseVersion, versionAtLeast } from '../rocketmq/versions.js';

export class WhatIfError extends Error {}

interface Assignment {
  /** Client host, broker name or NameServer address the key is limited to; null: all of them. */
  subject: string | null;
  key: string;
  value: string;
}

export interface Variant {
  /** As the user wrote it: `clientCloseSocketIfTimeout=true`. */
  label: string;
  assignments: Assignment[];
}

type Target = 'client' | 'broker' | 'namesrv' | 'scenario' | 'consumer';
type ValueKind = 'bool' | 'ms' | 'int' | 'number' | 'version' | 'binding';

interface KeySpec {
  target: Target;
  kind: ValueKind;
  /** Field written (settings.* for client settings). */
  field: string;
  describe: string;
}

/** Every key `--set` and `--what-if` accept (names as in RocketMQ's configuration, ms for times). */
export const WHAT_IF_KEYS: Record<string, KeySpec> = {
  clientVersion: { target: 'client', kind: 'version', field: 'version', describe: 'client release (its defaults and log layout follow)' },
  clientCloseSocketIfTimeout: {
    target: 'client',
    kind: 'bool',
    field: 'settings.clientCloseSocketIfTimeout',
    describe: '-Dcom.rocketmq.remoting.client.closeSocketIfTimeout; read from 4.9.1 (older clients are run as 4.9.1 to honour true)',
  },
  sendLatencyFaultEnable: { target: 'client', kind: 'bool', field: 'settings.sendLatencyFaultEnable', describe: 'producer latency fault tolerance' },
  sendMsgTimeout: { target: 'client', kind: 'ms', field: 'settings.sendMsgTimeoutMs', describe: 'send budget, ms' },
  retryTimesWhenSendFailed: { target: 'client', kind: 'int', field: 'settings.retryTimesWhenSendFailed', describe: 'retries of a sync send' },
  retryTimesWhenSendAsyncFailed: { target: 'client', kind: 'int', field: 'settings.retryTimesWhenSendAsyncFailed', describe: 'retries of an async send whose request could not be sent' },
  async: { target: 'client', kind: 'bool', field: 'async', describe: 'send asynchronously (send(msg, SendCallback))' },
  pollNameServerInterval: { target: 'client', kind: 'ms', field: 'settings.pollNameServerIntervalMs', describe: 'route poll period, ms' },
  heartbeatBrokerInterval: { target: 'client', kind: 'ms', field: 'settings.heartbeatBrokerIntervalMs', describe: 'heartbeat period, ms' },
  mqClientApiTimeout: { target: 'client', kind: 'ms', field: 'settings.mqClientApiTimeoutMs', describe: 'route query and heartbeat timeout, ms' },
  connectTimeoutMillis: { target: 'client', kind: 'ms', field: 'settings.connectTimeoutMs', describe: 'connect timeout, ms' },
  clientChannelMaxIdleTimeSeconds: { target: 'client', kind: 'int', field: 'settings.clientChannelMaxIdleTimeSeconds', describe: 'client channel idle close, s' },
  sendRatePerSec: { target: 'client', kind: 'number', field: 'sendRatePerSec', describe: 'application sends per second' },
  sendThreads: { target: 'client', kind: 'int', field: 'sendThreads', describe: "the application's threads that call send (a send that finds them all busy is not made)" },
  namesrv: { target: 'client', kind: 'binding', field: 'namesrv', describe: "the NameServer the client binds to at start, or 'random'" },
  waitTimeMillsInSendQueue: { target: 'broker', kind: 'ms', field: 'waitTimeMillsInSendQueue', describe: 'send queue wait before [TIMEOUT_CLEAN_QUEUE], ms' },
  sendMessageThreadPoolNums: { target: 'broker', kind: 'int', field: 'sendMessageThreadPoolNums', describe: 'send threads' },
  sendThreadPoolQueueCapacity: { target: 'broker', kind: 'int', field: 'sendThreadPoolQueueCapacity', describe: 'send queue capacity' },
  osPageCacheBusyTimeOutMills: { target: 'broker', kind: 'ms', field: 'osPageCacheBusyTimeOutMills', describe: 'page cache busy threshold, ms' },
  registerNameServerPeriod: { target: 'broker', kind: 'ms', field: 'registerNameServerPeriodMs', describe: 'registration period, ms (10000-60000)' },
  registerBrokerTimeoutMills: { target: 'broker', kind: 'ms', field: 'registerBrokerTimeoutMills', describe: 'registration timeout, ms' },
  brokerVersion: { target: 'broker', kind: 'version', field: 'version', describe: 'broker release' },
  serverChannelMaxIdleTimeSeconds: { target: 'namesrv', kind: 'int', field: 'serverChannelMaxIdleTimeSeconds', describe: 'NameServer idle close of a channel, s' },
  scanNotActiveBrokerInterval: { target: 'namesrv', kind: 'ms', field: 'scanNotActiveBrokerIntervalMs', describe: 'NameServer expiry scan period, ms' },
  brokerChannelExpiredTime: { target: 'namesrv', kind: 'ms', field: 'brokerChannelExpiredTimeMs', describe: 'NameServer broker expiry, ms' },
  namesrvVersion: { target: 'namesrv', kind: 'version', field: 'version', describe: 'NameServer release' },
  consumeThreadMax: {
    target: 'consumer',
    kind: 'int',
    field: 'consumeThreadMax',
    describe: 'consume threads of each instance; sets consumeThreadMin too (the pool never grows past consumeThreadMin: its queue is unbounded)',
  },
  consumeThreadMin: { target: 'consumer', kind: 'int', field: 'consumeThreadMin', describe: 'consume threads that run (at most consumeThreadMax)' },
  pullThresholdForQueue: { target: 'consumer', kind: 'int', field: 'pullThresholdForQueue', describe: 'messages cached per queue before flow control' },
  maxReconsumeTimes: { target: 'consumer', kind: 'int', field: 'maxReconsumeTimes', describe: 'retries of a failed message before %DLQ%group' },
  invisibleMs: { target: 'consumer', kind: 'ms', field: 'invisibleMs', describe: "a SimpleConsumer group's invisible time per receive (no log prints it), ms" },
  consumerInstances: { target: 'consumer', kind: 'int', field: 'instances', describe: "instances of the group (more copy the last one's start on new hosts; fewer drop the last)" },
  processMs: { target: 'consumer', kind: 'number', field: 'listener.processMs', describe: "the listener's time per message until a change of the listener sets another, ms" },
  consistentSubscription: {
    target: 'consumer',
    kind: 'bool',
    field: 'instances.subscription',
    describe: "every instance subscribes with the group's subscription (the first the broker booked) instead of its own",
  },
  serverVersion: { target: 'scenario', kind: 'version', field: 'serverVersion', describe: 'default release of NameServers and brokers' },
  latencyMs: { target: 'scenario', kind: 'number', field: 'latencyMs', describe: 'one-way network latency, ms' },
  namesrvOnOwnHosts: { target: 'scenario', kind: 'bool', field: '', describe: 'move NameServers that share a host with a broker or client to hosts of their own' },
};

/** Model field names accepted too (`sendMsgTimeoutMs`). */
const ALIASES: Record<string, string> = {
  sendMsgTimeoutMs: 'sendMsgTimeout',
  pollNameServerIntervalMs: 'pollNameServerInterval',
  heartbeatBrokerIntervalMs: 'heartbeatBrokerInterval',
  mqClientApiTimeoutMs: 'mqClientApiTimeout',
  connectTimeoutMs: 'connectTimeoutMillis',
  registerNameServerPeriodMs: 'registerNameServerPeriod',
  scanNotActiveBrokerIntervalMs: 'scanNotActiveBrokerInterval',
  brokerChannelExpiredTimeMs: 'brokerChannelExpiredTime',
  version: 'clientVersion',
};

function canonical(key: string): string | null {
  if (key in WHAT_IF_KEYS) return key;
  if (key in ALIASES) return ALIASES[key];
  const lower = key.toLowerCase();
  const hit = Object.keys(WHAT_IF_KEYS).find((k) => k.toLowerCase() === lower);
  return hit ?? null;
}

/** `k=v,k2=v2` (or one `k=v`) into assignments; `flag` names the option in messages. */
export function parseAssignments(text: string, flag: string): Assignment[] {
  const out: Assignment[] = [];
  for (const part of text.split(',').map((s) => s.trim()).filter(Boolean)) {
    const eq = part.indexOf('=');
    if (eq <= 0) throw new WhatIfError(`${flag} ${part}: expected KEY=VALUE`);
    const full = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    const dot = full.lastIndexOf('.');
    const rawKey = dot >= 0 ? full.slice(dot + 1) : full;
    const subject = dot >= 0 ? full.slice(0, dot) : null;
    const key = canonical(rawKey);
    if (key === null) throw new WhatIfError(`${flag} ${part}: unknown setting ${rawKey} (one of ${Object.keys(WHAT_IF_KEYS).join(', ')})`);
    if (value === '') throw new WhatIfError(`${flag} ${part}: no value`);
    checkValue(WHAT_IF_KEYS[key], value, `${flag} ${part}`);
    out.push({ subject, key, value });
  }
  if (!out.length) throw new WhatIfError(`${flag}: expected KEY=VALUE`);
  return out;
}

function checkValue(spec: KeySpec, v: string, where: string): void {
  switch (spec.kind) {
    case 'bool':
      if (v !== 'true' && v !== 'false') throw new WhatIfError(`${where}: expected true or false`);
      return;
    case 'ms':
    case 'number':
      if (!/^\d+(\.\d+)?$/.test(v) || Number(v) <= 0) throw new WhatIfError(`${where}: expected a positive number${spec.kind === 'ms' ? ' of ms' : ''}`);
      return;
    case 'int':
      if (!/^\d+$/.test(v)) throw new WhatIfError(`${where}: expected a whole number`);
      return;
    case 'version': {
      if (parseVersion(v) === null) throw new WhatIfError(`${where}: expected a version like 4.9.4`);
      if (!versionAtLeast(v, OLDEST_MODELLED)) throw new WhatIfError(`${where}: versions before ${OLDEST_MODELLED} are not modelled`);
      return;
    }
    case 'binding':
      if (v !== 'random' && !/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(v)) throw new WhatIfError(`${where}: expected a NameServer address or random`);
  }
}

function convert(spec: KeySpec, v: string): boolean | number | string {
  if (spec.kind === 'bool') return v === 'true';
  if (spec.kind === 'ms' || spec.kind === 'int' || spec.kind === 'number') return Number(v);
  return v;
}

function setPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let cur = obj;
  for (const p of parts.slice(0, -1)) {
    if (typeof cur[p] !== 'object' || cur[p] === null) cur[p] = {};
    cur = cur[p] as Record<string, unknown>;
  }
  cur[parts[parts.length - 1]] = value;
}

/** The scenario with the variant applied (a copy), and notes on what it had to adapt. */
export function applyVariant(base: Scenario, v: Variant): { scenario: Scenario; notes: string[] } {
  const sc = JSON.parse(JSON.stringify(base)) as Scenario;
  const notes: string[] = [];
  let ownHosts = false;
  for (const a of v.assignments) {
    const spec = WHAT_IF_KEYS[a.key];
    const value = convert(spec, a.value);
    const where = a.subject === null ? a.key : `${a.subject}.${a.key}`;
    if (spec.target === 'scenario') {
      if (a.subject !== null) throw new WhatIfError(`${where}=${a.value}: ${a.key} applies to the whole scenario, not to ${a.subject}`);
      if (a.key === 'namesrvOnOwnHosts') ownHosts = value === true;
      else setPath(sc as unknown as Record<string, unknown>, spec.field, value);
      continue;
    }
    if (spec.target === 'consumer') {
      applyConsumerKey(sc, a, value as number | boolean, where, notes);
      continue;
    }
    const all: Array<ScenarioClient | ScenarioBroker | ScenarioNameServer> =
      spec.target === 'client' ? sc.clients : spec.target === 'broker' ? sc.brokers : sc.nameServers;
    const nameOf = (x: ScenarioClient | ScenarioBroker | ScenarioNameServer): string =>
      spec.target === 'client' ? (x as ScenarioClient).host : spec.target === 'broker' ? (x as ScenarioBroker).name : (x as ScenarioNameServer).addr;
    const targets = a.subject === null ? all : all.filter((x) => nameOf(x) === a.subject);
    if (!targets.length) {
      const names = all.map(nameOf).join(', ');
      throw new WhatIfError(`${where}=${a.value}: no ${spec.target === 'namesrv' ? 'NameServer' : spec.target} ${a.subject} (${spec.target}s: ${names || 'none'})`);
    }
    for (const t of targets) {
      if (a.key === 'namesrv' && value !== 'random') {
        const c = t as ScenarioClient;
        const list = c.namesrvAddrList ?? sc.nameServers.map((n) => n.addr);
        if (!list.includes(value as string)) throw new WhatIfError(`${where}=${a.value}: ${a.value} is not in ${c.host}'s NameServer list (${list.join(', ')})`);
      }
      setPath(t as unknown as Record<string, unknown>, spec.field, value);
      if (a.key === 'sendRatePerSec' && (t as ScenarioClient).sendTimesMs) {
        delete (t as ScenarioClient).sendTimesMs;
        notes.push(`${(t as ScenarioClient).host}: sends at ${a.value}/s (Poisson) instead of the logged send times`);
      }
      if (a.key === 'sendRatePerSec' && (t as ScenarioClient).sendRateSteps) {
        delete (t as ScenarioClient).sendRateSteps;
        notes.push(`${(t as ScenarioClient).host}: sends at ${a.value}/s throughout instead of the rate's changes`);
      }
    }
  }
  // clientCloseSocketIfTimeout is hard-coded false before its release: honouring true needs that one.
  const since = CLIENT.closeSocketIfTimeout.since;
  for (const c of sc.clients) {
    if (c.settings?.clientCloseSocketIfTimeout === true && !versionAtLeast(c.version, since)) {
      const touched = v.assignments.some((a) => a.key === 'clientCloseSocketIfTimeout' && (a.subject === null || a.subject === c.host));
      if (touched) {
        notes.push(`${c.host}: client ${c.version} hard-codes clientCloseSocketIfTimeout=false (the property is read from ${since}); run as ${since}`);
        c.version = since;
      }
    }
  }
  if (ownHosts) notes.push(...moveNameServers(sc));
  return { scenario: sc, notes };
}

/** A consumer group's key on every group, or on the one the subject names. */
function applyConsumerKey(sc: Scenario, a: Assignment, v: number | boolean, where: string, notes: string[]): void {
  const value = v as number;
  const all = sc.consumerGroups ?? [];
  const targets = a.subject === null ? all : all.filter((g) => g.group === a.subject);
  if (!targets.length) throw new WhatIfError(`${where}=${a.value}: no consumer group ${a.subject ?? ''} (groups: ${all.map((g) => g.group).join(', ') || 'none'})`.replace('group  (', 'group ('));
  for (const g of targets) {
    // The application polls and consumes a lite pull group's messages (DefaultLitePullConsumer has no consume pool).
    if ((a.key === 'consumeThreadMax' || a.key === 'consumeThreadMin') && g.consumeMode === 'litePull') throw new WhatIfError(`${where}=${a.value}: ${g.group} is a lite pull group (consumeMode "litePull"): the application's polling thread consumes, it has no consume threads`);
    switch (a.key) {
      case 'consumeThreadMax':
        g.consumeThreadMax = value;
        g.consumeThreadMin = value;
        break;
      case 'consumeThreadMin':
        g.consumeThreadMin = value;
        if (g.consumeThreadMax !== undefined && g.consumeThreadMax < value) g.consumeThreadMax = value;
        break;
      case 'processMs':
        g.listener.processMs = value;
        break;
      case 'invisibleMs':
        // Only a pop group receives with an invisible time (a remoting push consumer's retries follow the delay levels).
        if (g.consumeMode !== 'pop') throw new WhatIfError(`${where}=${a.value}: ${g.group} is no pop group (consumeMode "pop"): it has no invisible time`);
        g.invisibleMs = value;
        break;
      case 'consistentSubscription': {
        if (v !== true) break;
        const own = g.instances.filter((x) => x.subscription !== undefined && x.subscription !== g.subscription).map((x) => `${x.host} ('${x.subscription}')`);
        for (const x of g.instances) delete x.subscription;
        if (own.length === 0) notes.push(`${g.group}: every instance already subscribes '${g.subscription ?? '*'}'`);
        else notes.push(`${g.group}: ${own.join(', ')} subscribe${own.length === 1 ? 's' : ''} '${g.subscription ?? '*'}' like the group`);
        break;
      }
      case 'consumerInstances': {
        if (value < 1) throw new WhatIfError(`${where}=${a.value}: a group needs at least one instance`);
        const last = g.instances[g.instances.length - 1];
        const hosts = new Set([...sc.clients.map((c) => c.host), ...all.flatMap((x) => x.instances.map((i) => i.host))]);
        while (g.instances.length > value) g.instances.pop();
        for (let k = g.instances.length + 1; g.instances.length < value; k++) {
          const host = `${g.group.toLowerCase()}-${k}`;
          if (hosts.has(host)) continue;
          hosts.add(host);
          g.instances.push({ host, startAtMs: last.startAtMs, stopAtMs: last.stopAtMs, stop: last.stop });
        }
        break;
      }
      default:
        (g as unknown as Record<string, number>)[a.key] = value;
    }
  }
}

/** Moves each NameServer that shares its host with another process to a host of its own (a free IP in the same /24). */
function moveNameServers(sc: Scenario): string[] {
  const notes: string[] = [];
  const used = new Set<string>();
  const ipOf = (addr: string) => addr.slice(0, addr.lastIndexOf(':'));
  for (const n of sc.nameServers) used.add(ipOf(n.addr));
  for (const b of sc.brokers) used.add(ipOf(b.addr));
  for (const c of sc.clients) if (c.ip) used.add(c.ip);
  const hostNames = new Set([...sc.nameServers.map((n) => n.host), ...sc.brokers.map((b) => b.host), ...sc.clients.map((c) => c.host)]);
  const rename = new Map<string, string>();
  for (const n of sc.nameServers) {
    const shared = sc.brokers.some((b) => b.host === n.host) || sc.clients.some((c) => c.host === n.host) || sc.nameServers.some((o) => o !== n && o.host === n.host);
    if (!shared) continue;
    const ip = ipOf(n.addr);
    const prefix = ip.slice(0, ip.lastIndexOf('.') + 1);
    let last = 250;
    while (last > 1 && used.has(`${prefix}${last}`)) last--;
    const newIp = `${prefix}${last}`;
    used.add(newIp);
    let host = `${n.host}-namesrv`;
    for (let k = 2; hostNames.has(host); k++) host = `${n.host}-namesrv${k}`;
    hostNames.add(host);
    const addr = `${newIp}:${n.addr.slice(n.addr.lastIndexOf(':') + 1)}`;
    notes.push(`NameServer ${n.addr} moved from ${n.host} to its own host ${host} (${addr})`);
    rename.set(n.addr, addr);
    n.addr = addr;
    n.host = host;
  }
  if (!rename.size) notes.push('namesrvOnOwnHosts: every NameServer already has a host of its own');
  const map = (a: string) => rename.get(a) ?? a;
  for (const b of sc.brokers) if (b.namesrvAddrs) b.namesrvAddrs = b.namesrvAddrs.map(map);
  for (const c of sc.clients) {
    if (c.namesrvAddrList) c.namesrvAddrList = c.namesrvAddrList.map(map);
    if (c.namesrv && c.namesrv !== 'random') c.namesrv = map(c.namesrv);
  }
  return notes;
}
