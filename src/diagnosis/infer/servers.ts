// The servers of the scenario: their version, the NameServers (idle time), the brokers (settings of
// their configuration dump, own version), the topics of the routes; and, once the clients are known,
// the phase of the servers' timers (their start times).

import { serverProfile, type ScenarioBroker, type ScenarioNameServer, type ScenarioTopic } from '../../model/index.js';
import { pickVersion, rangeContains } from '../../rocketmq/versions.js';
import { SCHEDULED_LOGS } from '../../rocketmq/facts.js';
import type { SourceKind } from '../../ingest/kinds.js';
import { clientVersionOf } from '../../rules/versions.js';
import type { SourceInfo } from '../../rules/types.js';
import { SERVER_KINDS } from '../../ingest/kinds.js';
import { fileRef, mod, modelled, type InferContext } from './context.js';
import type { HostsResult } from './hosts.js';

const DEFAULT_SERVER_VERSION = '4.9.8';

export interface ServersResult {
  serverVersion: string;
  nameServers: ScenarioNameServer[];
  brokers: ScenarioBroker[];
  /** The topics of the routes (the clients stage may add the ones only sent to). */
  topics: ScenarioTopic[];
}

export function inferServers(ctx: InferContext, hosts: HostsResult): ServersResult {
  const serverHints = ctx.sourceInfo.filter((s) => SERVER_KINDS.has(s.kind as SourceKind));
  const serverVersion = inferServerVersion(ctx, serverHints);
  const nameServers = inferNameServers(ctx, hosts);
  const brokers = inferBrokers(ctx, hosts, serverHints, serverVersion);
  const topics = inferTopics(ctx, hosts, brokers);
  return { serverVersion, nameServers, brokers, topics };
}

/** The version range clientVersionOf reads from these hints (it reads wording and jar names alike). */
const rangeOf = (hints: string[]): string => clientVersionOf('-', [{ path: '', host: '-', kind: 'client', versionHints: hints }]).range;

/**
 * The server logs' version hints; if they give a range only, the clients' exact version when it
 * lies in it (a cluster and its clients are often one release); otherwise one picked from the range.
 */
function inferServerVersion(ctx: InferContext, serverHints: SourceInfo[]): string {
  const clientRanges = ctx.clientHosts.map((h) => clientVersionOf(h, ctx.sourceInfo));
  const serverRange = rangeOf(serverHints.flatMap((s) => s.versionHints));
  const sameAsClients = clientRanges.find((r) => r.exact !== null && rangeContains(serverRange, r.exact));
  if (/^\d+\.\d+\.\d+$/.test(serverRange)) {
    const withHint = serverHints.filter((s) => s.versionHints.length);
    ctx.prov('scenario.serverVersion', 'version hints of the server logs (wording, jar names in stack frames)', withHint.map((s) => fileRef(s.path)));
    return serverRange;
  }
  if (sameAsClients) {
    ctx.prov('scenario.serverVersion', `the clients’ version, within the range the server logs allow (${serverRange})`, []);
    return sameAsClients.exact!;
  }
  const serverVersion = pickVersion(serverRange, DEFAULT_SERVER_VERSION).version;
  ctx.def('scenario.serverVersion', `${serverVersion} (${serverRange === 'unknown' ? 'no version hint in the server logs' : `picked from the range ${serverRange} the server logs allow`})`);
  return serverVersion;
}

function inferNameServers(ctx: InferContext, hosts: HostsResult): ScenarioNameServer[] {
  const { prov, def } = ctx;
  const nameServers: ScenarioNameServer[] = hosts.nsAddrs.map((addr, i) => {
    const p = `scenario.nameServers[${i}]`;
    prov(`${p}.addr`, 'NameServer address the clients and brokers were given', hosts.nsSeen.get(addr)!);
    const h = hosts.nsHost.get(addr)!;
    if (h.rule === 'default') def(`${p}.host`, `${h.value} (no log folder holds this NameServer)`);
    else prov(`${p}.host`, h.rule, h.events);
    const ns: ScenarioNameServer = { addr, host: h.value };
    const props = ctx.propsOf(h.value, 'namesrv');
    const idle = props.get('serverChannelMaxIdleTimeSeconds');
    if (idle && Number(idle.value) > 0) {
      ns.serverChannelMaxIdleTimeSeconds = Number(idle.value);
      prov(`${p}.serverChannelMaxIdleTimeSeconds`, 'the NameServer configuration dump', [idle.event]);
    }
    return ns;
  });
  // A NameServer that expired a broker by its scan (RouteInfoManager.scanNotActiveBroker) kept the
  // channel longer than the expiry: its idle time is above 120 s. Without its own dump, take the
  // value another NameServer dumped.
  nameServers.forEach((ns, i) => {
    if (ns.serverChannelMaxIdleTimeSeconds !== undefined) return;
    const p = `scenario.nameServers[${i}].serverChannelMaxIdleTimeSeconds`;
    const expiry = ctx.events.find((e) => e.type === 'broker-expired' && e.host === ns.host && e.kind === 'namesrv');
    const peer = nameServers.find((o) => o.serverChannelMaxIdleTimeSeconds !== undefined);
    if (expiry && peer) {
      ns.serverChannelMaxIdleTimeSeconds = peer.serverChannelMaxIdleTimeSeconds;
      const peerPath = `scenario.nameServers[${nameServers.indexOf(peer)}].serverChannelMaxIdleTimeSeconds`;
      prov(p, `this NameServer removed a broker by expiry (its idle close did not come first); the value NameServer ${peer.addr} dumped`, [expiry]);
      ctx.provenance[p].evidence.push(...(ctx.provenance[peerPath]?.evidence ?? []));
    } else if (expiry) {
      ns.serverChannelMaxIdleTimeSeconds = 150;
      prov(p, 'this NameServer removed a broker by expiry, so its idle close (120 s by default) did not come first: taken as 150 s', [expiry]);
    } else def(p, '120 (NettyServerConfig default)');
  });
  return nameServers;
}

function inferBrokers(ctx: InferContext, hosts: HostsResult, serverHints: SourceInfo[], serverVersion: string): ScenarioBroker[] {
  const { prov, def } = ctx;
  return hosts.brokerNames.map((name, i) => {
    const p = `scenario.brokers[${i}]`;
    const a = hosts.brokerAddr.get(name)!;
    const h = hosts.brokerHost.get(name)!;
    prov(`${p}.name`, a.rule, a.events);
    prov(`${p}.addr`, a.rule, a.events);
    if (h.rule === 'default') def(`${p}.host`, `${h.value} (no log folder holds this broker)`);
    else prov(`${p}.host`, h.rule, h.events);
    const b: ScenarioBroker = { name, addr: a.value, host: h.value };
    const props = ctx.propsOf(h.value, 'broker');
    const num = (key: string, field: keyof ScenarioBroker, label = key) => {
      const v = props.get(key);
      if (v && Number(v.value) > 0) {
        (b as unknown as Record<string, number>)[field] = Number(v.value);
        prov(`${p}.${field}`, `${label} in the broker configuration dump`, [v.event]);
        return true;
      }
      return false;
    };
    if (!num('sendMessageThreadPoolNums', 'sendMessageThreadPoolNums')) def(`${p}.sendMessageThreadPoolNums`, 'by version: 1 up to 4.9.0, min(cores, 4) from 4.9.1 (cores: 8)');
    if (!num('waitTimeMillsInSendQueue', 'waitTimeMillsInSendQueue')) def(`${p}.waitTimeMillsInSendQueue`, '200 (BrokerConfig default)');
    num('sendThreadPoolQueueCapacity', 'sendThreadPoolQueueCapacity');
    num('osPageCacheBusyTimeOutMills', 'osPageCacheBusyTimeOutMills');
    num('registerNameServerPeriod', 'registerNameServerPeriodMs');
    num('registerBrokerTimeoutMills', 'registerBrokerTimeoutMills');
    const hostHints = serverHints.filter((s) => s.host === h.value).flatMap((s) => s.versionHints);
    const own = rangeOf(hostHints);
    if (/^\d+\.\d+\.\d+$/.test(own) && own !== serverVersion) {
      b.version = own;
      prov(`${p}.version`, 'version hints of this host’s server logs', serverHints.filter((s) => s.host === h.value && s.versionHints.length).map((s) => fileRef(s.path)));
    }
    return b;
  });
}

function inferTopics(ctx: InferContext, hosts: HostsResult, brokers: ScenarioBroker[]): ScenarioTopic[] {
  const topics: ScenarioTopic[] = [];
  for (const name of [...hosts.topicInfo.keys()].sort()) {
    const t = hosts.topicInfo.get(name)!;
    const i = topics.length;
    const onBrokers = [...t.brokers].filter((b) => brokers.some((x) => x.name === b)).sort();
    const topic: ScenarioTopic = { name, queues: t.queues || 4 };
    ctx.prov(`scenario.topics[${i}].name`, 'a route the client logged', t.events);
    if (t.queues) ctx.prov(`scenario.topics[${i}].queues`, 'writeQueueNums in the route’s QueueData', t.events);
    else ctx.def(`scenario.topics[${i}].queues`, '4 (defaultTopicQueueNums)');
    if (onBrokers.length && onBrokers.length < brokers.length) {
      topic.brokers = onBrokers;
      ctx.prov(`scenario.topics[${i}].brokers`, 'the brokers in the route’s QueueData', t.events);
    }
    topics.push(topic);
  }
  return topics;
}

/**
 * The phase of the servers' timers, read after the clients (their provenance comes after the
 * clients'): the NameServers and brokers again, with `startAtMs` where the logs place it.
 */
export function inferServerStarts(ctx: InferContext, servers: Pick<ServersResult, 'serverVersion' | 'nameServers' | 'brokers'>): { nameServers: ScenarioNameServer[]; brokers: ScenarioBroker[] } {
  const { events, prov, def, rel, when } = ctx;
  const nameServers = servers.nameServers.map((ns, i) => {
    const p = `scenario.nameServers[${i}].startAtMs`;
    const v = ns.version ?? servers.serverVersion;
    const profile = serverProfile(modelled(v));
    const scanMs = profile.scanNotActiveBrokerIntervalMs;
    const initial = profile.scanInitialDelayMs;
    const expiry = events.find((e) => e.type === 'broker-expired' && e.host === ns.host && e.kind === 'namesrv');
    if (expiry) {
      prov(p, `placed so that its scan (every ${scanMs / 1000} s) runs when the logged expiry did`, [expiry]);
      return { ...ns, startAtMs: mod(rel(when(expiry)) - initial, scanMs) };
    }
    def(p, '0 (the phase of its scan is not in the logs)');
    return ns;
  });
  const brokers = servers.brokers.map((b, i) => {
    const p = `scenario.brokers[${i}].startAtMs`;
    const period = b.registerNameServerPeriodMs ?? SCHEDULED_LOGS.brokerRegistration.periodMs;
    const regs = events.filter((e) => e.type === 'broker-registered' && e.kind === 'broker' && e.host === b.host && e.ts !== null);
    // A NameServer expires a broker 120 s after its last registration of any kind (the periodic
    // one, or one a topic creation triggered): the one before the broker went silent sets the
    // expiry, so the model's periodic registrations are placed on it.
    const silence = ctx.c.silences.filter((x) => x.host === b.host).sort((x, y) => x.from.ts! - y.from.ts!)[0];
    const before = silence?.lastRegistration ?? null;
    const reg = before ?? regs[regs.length - 1];
    if (reg) {
      prov(p, `placed so that its registrations (every ${period / 1000} s) include the last one logged${before ? ' before it went silent' : ''}`, [reg]);
      return { ...b, startAtMs: 10000 + mod(rel(when(reg)) - 20000, period) };
    }
    def(p, '100 ms into the run (the phase of its registrations is not in the logs)');
    return b;
  });
  return { nameServers, brokers };
}
