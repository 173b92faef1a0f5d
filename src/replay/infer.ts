// A scenario inferred from the logs (docs/replay.md, "How a scenario is inferred"): the NameServers,
// brokers, topics and clients the logs name, where each runs, how each client is configured and
// which NameServer it was bound to, and the fault schedule: when a host hung (the last line before
// a silence while others kept logging, and the timeouts against its addresses), when it came back
// (connection resets, boot lines), crashes (refused connections, destroyed channels), busy windows
// (the waits in the busy replies). Every value records the lines it came from; what the logs do not
// give takes a stated default.

import { serverProfile, type Fault, type Scenario, type ScenarioBroker, type ScenarioClient, type ScenarioNameServer, type ScenarioTopic } from '../model/index.js';
import { CLIENT } from '../rocketmq/facts.js';
import { OLDEST_MODELLED, pickVersion, rangeContains, versionAtLeast } from '../rocketmq/versions.js';
import { formatIso, parseZone } from '../parse/time.js';
import type { RmqEvent, SourceKind } from '../parse/types.js';
import { relativeTo } from '../report/findings-text.js';
import { clientVersionOf } from '../rules/versions.js';
import type { SourceInfo } from '../rules/types.js';
import { KEEP_CAP, SERVER_KINDS, type Collected, type Silence } from './collect.js';
import { LIMITS } from './file.js';
import { contextOf, failuresOf, isAppFailure, observe } from './observe.js';
import type { DefaultsMap, ProvenanceMap, ReplayInput } from './types.js';

/** The model runs releases from OLDEST_MODELLED: an older one runs as that. */
const modelled = (v: string): string => (versionAtLeast(v, OLDEST_MODELLED) ? v : OLDEST_MODELLED);

/** Model time 0 is this long before the first line, so that every process runs when the window opens. */
export const LEAD_MS = 60000;
/** The run goes this long past the last line. */
export const MARGIN_MS = 60000;
/** Defaults of the model (docs/model.md) that inference states when the logs are silent. */
const DEFAULT_BOOT = { namesrvMs: 12000, brokerMs: 25000 };
const DEFAULT_CLIENT_VERSION = '4.9.8';
const DEFAULT_SERVER_VERSION = '4.9.8';
const DEFAULT_RATE = 1;
const DEFAULT_TOPIC = 'TopicTest';
/** A busy reply that waited more than waitTimeMillsInSendQueue + this was held by a stall. */
const STALL_MARGIN_MS = 15;
/** How much longer the oldest queued request waited than the stall lasted: the model answers it when the stall ends (a real broker adds up to its 10 ms cleaner tick). */
const STALL_EXTRA_MS = 0;
/** Busy replies closer than this came from one BrokerFastFailure pass (it answers a whole run of expired heads at once). */
const RELEASE_GAP_MS = 50;

const ADDR = /^\d{1,3}(?:\.\d{1,3}){3}:\d{1,5}$/;
const ipOf = (addr: string): string => addr.slice(0, addr.lastIndexOf(':'));
const dashed = (ip: string): string => `host-${ip.replace(/\./g, '-')}`;
const mod = (a: number, m: number): number => ((a % m) + m) % m;

function cmpAddr(a: string, b: string): number {
  const pa = a.split(/[.:]/).map(Number);
  const pb = b.split(/[.:]/).map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

interface Named<T> {
  value: T;
  events: RmqEvent[];
  rule: string;
}

export interface InferOptions {
  /** Zone of the client and application logs (the JVM zone they were read in). */
  zone: string;
  /** One line for the report: what was read. */
  source: string;
}

export function inferScenario(c: Collected, opts: InferOptions): ReplayInput {
  const provenance: ProvenanceMap = {};
  const defaults: DefaultsMap = {};
  const notes: string[] = [];
  const ref = (e: RmqEvent): string => `${relativeTo(e.file, c.base)}:${e.line}`;
  const prov = (path: string, rule: string, events: readonly (RmqEvent | null | undefined)[]): void => {
    const seen = new Set<string>();
    const evidence: string[] = [];
    for (const e of events) {
      if (!e) continue;
      const r = ref(e);
      if (!seen.has(r) && evidence.length < 6) {
        seen.add(r);
        evidence.push(r);
      }
    }
    provenance[path] = { rule, evidence };
  };
  const def = (path: string, text: string): void => {
    defaults[path] = text;
  };

  const events = c.events;
  const outZone = parseZone(opts.zone);
  const first = c.first ?? 0;
  const last = c.last ?? first;
  const startEpochMs = Math.floor(first / 1000) * 1000 - LEAD_MS;
  const rel = (ts: number): number => Math.round(ts - startEpochMs);

  // Which files print whole seconds (server logs, the 4.3.0-4.7.1 fake millis): their times are the
  // start of a second, the event happened within it.
  const wholeSeconds = new Map<string, boolean>();
  for (const e of events) {
    if (e.ts === null) continue;
    wholeSeconds.set(e.file, (wholeSeconds.get(e.file) ?? true) && e.ts % 1000 === 0);
  }
  const kindOf = new Map(c.sources.map((s) => [s.path, s.kind]));
  const coarse = (e: RmqEvent): boolean => SERVER_KINDS.has(kindOf.get(e.file) ?? e.kind) || (wholeSeconds.get(e.file) ?? false);
  /** Best estimate of when the line was written: mid-second for whole-second layouts. */
  const when = (e: RmqEvent): number => e.ts! + (coarse(e) ? 500 : 0);
  /** Latest time it can have been written. */
  const latest = (e: RmqEvent): number => e.ts! + (coarse(e) ? 999 : 0);

  // ---- hosts and their roles ------------------------------------------------------------------
  const roles = new Map<string, Set<SourceKind>>();
  for (const s of c.sources) {
    const set = roles.get(s.host) ?? new Set<SourceKind>();
    set.add(s.kind);
    roles.set(s.host, set);
  }
  const hasRole = (h: string, ...kinds: SourceKind[]): boolean => kinds.some((k) => roles.get(h)?.has(k) ?? false);
  const brokerHosts = [...roles.keys()].filter((h) => hasRole(h, 'broker', 'remoting', 'store', 'watermark')).sort();
  const nsHosts = [...roles.keys()].filter((h) => hasRole(h, 'namesrv')).sort();
  const clientHosts = [...roles.keys()].filter((h) => hasRole(h, 'client')).sort();
  const sourceInfo: SourceInfo[] = c.sources.map((s) => ({ path: s.path, host: s.host, kind: s.kind, versionHints: s.versionHints ?? [] }));
  const propsOf = (host: string, kind: SourceKind) => c.props.get(`${host}|${kind}`) ?? new Map<string, { value: string; event: RmqEvent }>();

  // ---- NameServer addresses -------------------------------------------------------------------
  const nsSeen = new Map<string, RmqEvent[]>();
  const addNs = (addr: unknown, e: RmqEvent): void => {
    if (typeof addr !== 'string' || !ADDR.test(addr)) return;
    const list = nsSeen.get(addr) ?? [];
    if (list.length < 3) list.push(e);
    nsSeen.set(addr, list);
  };
  for (const e of events) {
    if (e.type === 'namesrv-list') for (const a of (e.fields.addrs as string[]) ?? []) addNs(a, e);
    else if (e.type === 'namesrv-chosen') {
      addNs(e.fields.new, e);
      addNs(e.fields.old, e);
    } else if (e.type === 'startup' && e.fields.role === 'broker') {
      const m = /name server is ([\d.:;,\s]+)/.exec(e.text);
      if (m) for (const a of m[1].split(/[;,\s]+/)) addNs(a, e);
    } else if ((e.type === 'broker-registered' || e.type === 'register-failed') && e.kind === 'broker') addNs(e.fields.namesrvAddr, e);
  }
  const nsAddrs = [...nsSeen.keys()].sort(cmpAddr);

  // ---- brokers and topics from the routes -----------------------------------------------------
  const brokerAddr = new Map<string, Named<string>>();
  const setBroker = (name: string, addr: string, e: RmqEvent, rule: string, strong = false): void => {
    if (!ADDR.test(addr)) return;
    const prev = brokerAddr.get(name);
    if (!prev || (strong && prev.rule !== rule)) brokerAddr.set(name, { value: addr, events: [e], rule });
    else if (prev.value === addr && prev.events.length < 3 && !prev.events.includes(e)) prev.events.push(e);
  };
  const topicInfo = new Map<string, { queues: number; brokers: Set<string>; events: RmqEvent[] }>();
  const slaves = new Set<string>();
  for (const e of events) {
    if (e.type === 'route-changed') {
      for (const m of e.text.matchAll(/brokerName=([^,\]\s]+), brokerAddrs=\{([^}]*)\}/g)) {
        for (const pair of m[2].split(/,\s*/)) {
          const [id, addr] = pair.split('=');
          if (id === '0' && addr) setBroker(m[1], addr.trim(), e, 'BrokerData of a route the client logged');
          else if (addr) slaves.add(`${m[1]} ${addr.trim()}`);
        }
      }
      const topic = e.fields.topic;
      if (typeof topic === 'string' && topic !== 'TBW102') {
        const t = topicInfo.get(topic) ?? { queues: 0, brokers: new Set<string>(), events: [] };
        for (const m of e.text.matchAll(/QueueData \[brokerName=([^,\]]+), readQueueNums=(\d+), writeQueueNums=(\d+)/g)) {
          t.brokers.add(m[1]);
          t.queues = Math.max(t.queues, Number(m[3]));
        }
        if (t.events.length < 2) t.events.push(e);
        topicInfo.set(topic, t);
      }
    } else if (e.type === 'startup' && e.fields.role === 'broker' && typeof e.fields.brokerName === 'string' && typeof e.fields.brokerAddr === 'string') {
      setBroker(e.fields.brokerName, e.fields.brokerAddr, e, 'the broker boot line', true);
    } else if (e.type === 'heartbeat-failed' && e.fields.brokerId === 0 && typeof e.fields.brokerName === 'string' && typeof e.fields.brokerAddr === 'string') {
      setBroker(e.fields.brokerName, e.fields.brokerAddr, e, 'a client heartbeat to the broker');
    }
  }
  if (slaves.size) notes.push(`slave brokers are not replayed: ${[...slaves].sort().join(', ')}`);
  const brokerNames = [...brokerAddr.keys()].sort();
  const nameOfBrokerAddr = new Map(brokerNames.map((n) => [brokerAddr.get(n)!.value, n]));

  // ---- host addresses -------------------------------------------------------------------------
  const hostIp = new Map<string, Named<string>>();
  const setIp = (host: string, ip: string, e: RmqEvent | null, rule: string): void => {
    if (!hostIp.has(host)) hostIp.set(host, { value: ip, events: e ? [e] : [], rule });
  };
  for (const e of events) {
    if (e.type === 'startup' && e.fields.role === 'broker' && typeof e.fields.brokerAddr === 'string' && ADDR.test(e.fields.brokerAddr)) {
      setIp(e.host, ipOf(e.fields.brokerAddr), e, 'the broker boot line on this host');
    }
  }
  for (const host of brokerHosts) {
    const p = propsOf(host, 'broker').get('brokerIP1');
    if (p && /^\d{1,3}(\.\d{1,3}){3}$/.test(p.value)) setIp(host, p.value, p.event, 'brokerIP1 in the broker configuration dump');
  }
  for (const l of c.producerLinks) setIp(l.host, ipOf(l.local), l.event, 'the local address of a producer connection the broker logged');
  for (const e of events) {
    if (e.type !== 'startup' || e.kind !== 'client') continue;
    const m = /ClientID:(\d{1,3}(?:\.\d{1,3}){3})@/.exec(e.text) ?? /clientIP=(\d{1,3}(?:\.\d{1,3}){3})/.exec(e.text);
    if (m) setIp(e.host, m[1], e, 'the client ID at start');
  }
  for (const e of events) {
    if (e.type !== 'startup' || e.fields.role !== 'namesrv') continue;
    const m = /address (\d{1,3}(?:\.\d{1,3}){3}):\d+/.exec(e.text);
    if (m && m[1] !== '0.0.0.0') setIp(e.host, m[1], e, 'the NameServer boot line');
  }

  // ---- brokers on hosts -----------------------------------------------------------------------
  const brokerHost = new Map<string, Named<string>>();
  for (const name of brokerNames) {
    const addr = brokerAddr.get(name)!.value;
    const boot = events.find((e) => e.type === 'startup' && e.fields.role === 'broker' && e.fields.brokerName === name);
    if (boot) {
      brokerHost.set(name, { value: boot.host, events: [boot], rule: 'the broker boot line is in this host’s broker.log' });
      continue;
    }
    const dump = brokerHosts.find((h) => propsOf(h, 'broker').get('brokerName')?.value === name);
    if (dump) {
      brokerHost.set(name, { value: dump, events: [propsOf(dump, 'broker').get('brokerName')!.event], rule: 'brokerName in this host’s configuration dump' });
      continue;
    }
    const byIp = brokerHosts.find((h) => hostIp.get(h)?.value === ipOf(addr));
    if (byIp) {
      brokerHost.set(name, { value: byIp, events: hostIp.get(byIp)!.events, rule: `the host’s address (${hostIp.get(byIp)!.rule}) is the broker’s` });
      continue;
    }
  }
  const taken = () => new Set([...brokerHost.values()].map((v) => v.value));
  for (const name of brokerNames) {
    if (brokerHost.has(name)) continue;
    const free = brokerHosts.filter((h) => !taken().has(h));
    const byName = free.filter((h) => h.toLowerCase().includes(name.toLowerCase()));
    if (byName.length === 1) brokerHost.set(name, { value: byName[0], events: [], rule: `the host name contains the broker name` });
  }
  {
    const left = brokerNames.filter((n) => !brokerHost.has(n));
    const free = brokerHosts.filter((h) => !taken().has(h) && !(hostIp.has(h) && left.every((n) => ipOf(brokerAddr.get(n)!.value) !== hostIp.get(h)!.value)));
    if (left.length === 1 && free.length === 1) brokerHost.set(left[0], { value: free[0], events: [], rule: 'the only broker host left for the only broker left' });
  }
  for (const name of brokerNames) {
    if (brokerHost.has(name)) continue;
    const ip = ipOf(brokerAddr.get(name)!.value);
    const sameIp = [...hostIp.entries()].find(([, v]) => v.value === ip);
    brokerHost.set(name, sameIp ? { value: sameIp[0], events: sameIp[1].events, rule: 'a host with the broker’s address' } : { value: dashed(ip), events: [], rule: 'default' });
  }
  for (const name of brokerNames) {
    const h = brokerHost.get(name)!.value;
    if (!hostIp.has(h)) setIp(h, ipOf(brokerAddr.get(name)!.value), brokerAddr.get(name)!.events[0] ?? null, `the address of ${name}, which runs there`);
  }

  // ---- NameServers on hosts -------------------------------------------------------------------
  const nsHost = new Map<string, Named<string>>();
  for (const addr of nsAddrs) {
    const ip = ipOf(addr);
    const own = nsHosts.find((h) => hostIp.get(h)?.value === ip);
    if (own) {
      nsHost.set(addr, { value: own, events: hostIp.get(own)!.events, rule: `this host’s namesrv.log, and its address (${hostIp.get(own)!.rule})` });
      continue;
    }
    const any = [...hostIp.entries()].find(([h, v]) => v.value === ip && !clientHosts.includes(h));
    if (any) nsHost.set(addr, { value: any[0], events: any[1].events, rule: `a host with the NameServer’s address (${any[1].rule}); its namesrv.log was not given` });
  }
  // A client that chose a NameServer connected to it at once: the namesrv.log that accepted a
  // connection from that client's address at that moment is the chosen NameServer's.
  for (const chosen of events) {
    if (chosen.type !== 'namesrv-chosen' || chosen.kind !== 'client' || chosen.ts === null) continue;
    const addr = chosen.fields.new;
    if (typeof addr !== 'string' || nsHost.has(addr) || !nsAddrs.includes(addr)) continue;
    const clientIp = hostIp.get(chosen.host)?.value;
    if (!clientIp) continue;
    const taken = new Set([...nsHost.values()].map((v) => v.value));
    const accepted = events.filter(
      (e) =>
        e.type === 'pipeline' &&
        e.kind === 'namesrv' &&
        e.fields.event === 'active' &&
        !taken.has(e.host) &&
        typeof e.fields.addr === 'string' &&
        ipOf(e.fields.addr) === clientIp &&
        e.ts !== null &&
        Math.abs(e.ts - chosen.ts!) <= 2000,
    );
    const hosts = [...new Set(accepted.map((e) => e.host))];
    if (hosts.length === 1) {
      nsHost.set(addr, {
        value: hosts[0],
        events: [chosen, accepted[0]],
        rule: `${chosen.host} chose this NameServer and this host’s namesrv.log accepted its connection at that moment`,
      });
    }
  }
  {
    const used = () => new Set([...nsHost.values()].map((v) => v.value));
    const left = nsAddrs.filter((a) => !nsHost.has(a));
    const free = nsHosts.filter((h) => !used().has(h) && !hostIp.has(h));
    if (left.length === 1 && free.length === 1) nsHost.set(left[0], { value: free[0], events: [], rule: 'the only namesrv.log host left for the only NameServer address left' });
    else if (left.length && free.length) notes.push(`NameServers ${left.join(', ')} could not be placed on ${free.join(', ')}: give their hosts in a scenario file`);
  }
  for (const addr of nsAddrs) {
    if (nsHost.has(addr)) continue;
    const h = dashed(ipOf(addr));
    nsHost.set(addr, { value: h, events: [], rule: 'default' });
  }
  for (const addr of nsAddrs) {
    const h = nsHost.get(addr)!.value;
    if (!hostIp.has(h)) setIp(h, ipOf(addr), null, `the address of NameServer ${addr}`);
  }

  // ---- versions -------------------------------------------------------------------------------
  const serverHints = sourceInfo.filter((s) => SERVER_KINDS.has(s.kind as SourceKind));
  const rangeOf = (hints: string[]) => clientVersionOf('-', [{ path: '', host: '-', kind: 'client', versionHints: hints }]).range;
  const clientRanges = clientHosts.map((h) => clientVersionOf(h, sourceInfo));
  const serverRange = rangeOf(serverHints.flatMap((s) => s.versionHints));
  const sameAsClients = clientRanges.find((r) => r.exact !== null && rangeContains(serverRange, r.exact));
  let serverVersion: string;
  if (/^\d+\.\d+\.\d+$/.test(serverRange)) {
    serverVersion = serverRange;
    const withHint = serverHints.filter((s) => s.versionHints.length);
    prov('scenario.serverVersion', 'version hints of the server logs (wording, jar names in stack frames)', withHint.map((s) => fileRef(s.path)));
  } else if (sameAsClients) {
    serverVersion = sameAsClients.exact!;
    prov('scenario.serverVersion', `the clients’ version, within the range the server logs allow (${serverRange})`, []);
  } else {
    serverVersion = pickVersion(serverRange, DEFAULT_SERVER_VERSION).version;
    def('scenario.serverVersion', `${serverVersion} (${serverRange === 'unknown' ? 'no version hint in the server logs' : `picked from the range ${serverRange} the server logs allow`})`);
  }
  function fileRef(path: string): RmqEvent {
    // A pseudo event so that a whole file can be cited (line 1).
    return { ts: null, host: '', kind: 'unknown', file: path, line: 1, level: null, thread: null, logger: null, type: 'other', fields: {}, text: '', source: 0, seq: 0 };
  }

  // ---- NameServers ----------------------------------------------------------------------------
  const nameServers: ScenarioNameServer[] = nsAddrs.map((addr, i) => {
    const p = `scenario.nameServers[${i}]`;
    prov(`${p}.addr`, 'NameServer address the clients and brokers were given', nsSeen.get(addr)!);
    const h = nsHost.get(addr)!;
    if (h.rule === 'default') def(`${p}.host`, `${h.value} (no log folder holds this NameServer)`);
    else prov(`${p}.host`, h.rule, h.events);
    const ns: ScenarioNameServer = { addr, host: h.value };
    const props = propsOf(h.value, 'namesrv');
    const idle = props.get('serverChannelMaxIdleTimeSeconds');
    if (idle && Number(idle.value) > 0) {
      ns.serverChannelMaxIdleTimeSeconds = Number(idle.value);
      prov(`${p}.serverChannelMaxIdleTimeSeconds`, 'the NameServer configuration dump', [idle.event]);
    }
    return ns;
  });
  // A NameServer that expired a broker by its scan kept the channel longer than the expiry: its idle
  // time is above 120 s. Without its own dump, take the value another NameServer dumped.
  nameServers.forEach((ns, i) => {
    if (ns.serverChannelMaxIdleTimeSeconds !== undefined) return;
    const p = `scenario.nameServers[${i}].serverChannelMaxIdleTimeSeconds`;
    const expiry = events.find((e) => e.type === 'broker-expired' && e.host === ns.host && e.kind === 'namesrv');
    const peer = nameServers.find((o) => o.serverChannelMaxIdleTimeSeconds !== undefined);
    if (expiry && peer) {
      ns.serverChannelMaxIdleTimeSeconds = peer.serverChannelMaxIdleTimeSeconds;
      const peerPath = `scenario.nameServers[${nameServers.indexOf(peer)}].serverChannelMaxIdleTimeSeconds`;
      prov(p, `this NameServer removed a broker by expiry (its idle close did not come first); the value NameServer ${peer.addr} dumped`, [expiry]);
      provenance[p].evidence.push(...(provenance[peerPath]?.evidence ?? []));
    } else if (expiry) {
      ns.serverChannelMaxIdleTimeSeconds = 150;
      prov(p, 'this NameServer removed a broker by expiry, so its idle close (120 s by default) did not come first: taken as 150 s', [expiry]);
    } else def(p, '120 (NettyServerConfig default)');
  });

  // ---- brokers --------------------------------------------------------------------------------
  const brokers: ScenarioBroker[] = brokerNames.map((name, i) => {
    const p = `scenario.brokers[${i}]`;
    const a = brokerAddr.get(name)!;
    const h = brokerHost.get(name)!;
    prov(`${p}.name`, a.rule, a.events);
    prov(`${p}.addr`, a.rule, a.events);
    if (h.rule === 'default') def(`${p}.host`, `${h.value} (no log folder holds this broker)`);
    else prov(`${p}.host`, h.rule, h.events);
    const b: ScenarioBroker = { name, addr: a.value, host: h.value };
    const props = propsOf(h.value, 'broker');
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
  const brokerOf = (name: string) => brokers.find((b) => b.name === name);

  // ---- topics ---------------------------------------------------------------------------------
  const topics: ScenarioTopic[] = [];
  for (const name of [...topicInfo.keys()].sort()) {
    const t = topicInfo.get(name)!;
    const i = topics.length;
    const onBrokers = [...t.brokers].filter((b) => brokerOf(b)).sort();
    const topic: ScenarioTopic = { name, queues: t.queues || 4 };
    prov(`scenario.topics[${i}].name`, 'a route the client logged', t.events);
    if (t.queues) prov(`scenario.topics[${i}].queues`, 'writeQueueNums in the route’s QueueData', t.events);
    else def(`scenario.topics[${i}].queues`, '4 (defaultTopicQueueNums)');
    if (onBrokers.length && onBrokers.length < brokers.length) {
      topic.brokers = onBrokers;
      prov(`scenario.topics[${i}].brokers`, 'the brokers in the route’s QueueData', t.events);
    }
    topics.push(topic);
  }

  // The brokers' own count of a topic's stored messages (stats.log, per minute): in a minute when
  // every master of the topic logged, their sum is what all its producers sent and had stored. The
  // busiest such minute is a healthy one; the producers of the topic share it equally.
  function topicRate(topic: string): { rate: number; rule: string; evidence: RmqEvent[] } | null {
    const masters = new Set(brokerNames.map((n) => brokerHost.get(n)?.value).filter((h): h is string => !!h));
    const lines = c.topicPuts.filter((x) => x.topic === topic && masters.has(x.host));
    if (!masters.size || !lines.length) return null;
    const byMinute = new Map<number, typeof lines>();
    for (const l of lines) {
      const m = Math.round(l.ts / 60000);
      byMinute.set(m, [...(byMinute.get(m) ?? []), l]);
    }
    let best: typeof lines | null = null;
    for (const list of byMinute.values()) {
      if (new Set(list.map((l) => l.host)).size < masters.size) continue;
      if (!best || list.reduce((n, l) => n + l.sum, 0) > best.reduce((n, l) => n + l.sum, 0)) best = list;
    }
    if (!best) return null;
    const total = best.reduce((n, l) => n + l.sum, 0);
    if (total <= 0) return null;
    return {
      rate: total / 60,
      rule: `the brokers’ stats.log: ${total} messages of ${topic} stored in the busiest minute every master logged`,
      evidence: best.map((l) => l.event),
    };
  }
  // Sends through a MessageQueueSelector: the stack traces of their failures go through
  // DefaultMQProducerImpl.sendSelectImpl. When every failure hit one broker at about the whole send
  // rate, the selector kept picking one queue (one ordering key): the first of that broker's.
  function inferSelector(client: ScenarioClient, p: string, mine: readonly RmqEvent[], rate: number): void {
    const selected = mine.filter((e) => e.sendPath === 'select' && (e.kind === 'client' || isAppFailure(e)));
    if (!selected.length) return;
    client.selector = true;
    prov(`${p}.selector`, 'failed sends whose stack trace goes through DefaultMQProducerImpl.sendSelectImpl (one attempt, no retry)', [selected[0]]);
    const names = new Set(selected.map((e) => nameOfBrokerAddr.get(String(e.fields.addr ?? e.fields.brokerAddr)) ?? null));
    const span = (selected[selected.length - 1].ts! - selected[0].ts!) / 1000;
    const [name] = [...names];
    if (names.size !== 1 || name === null || selected.length < 3 || span <= 0 || selected.length / span < 0.7 * rate) {
      def(`${p}.selectorQueue`, 'none (a new ordering key per send: the failures did not take every send to one broker)');
      return;
    }
    const topic = topics.find((t) => t.name === client.topic);
    const onTopic = [...(topicInfo.get(client.topic)?.brokers ?? brokerNames)].filter((b) => brokerOf(b)).sort();
    const at = onTopic.indexOf(name);
    if (at < 0) return;
    client.selectorQueue = at * (topic?.queues ?? 4);
    prov(`${p}.selectorQueue`, `every failed send went to ${name} at about the whole send rate (${selected.length} in ${Math.round(span)} s): one ordering key, the first queue of ${name}`, [selected[0], selected[selected.length - 1]]);
  }

  /** Clients whose rate is their topic's stored rate: shared once every client's topic is known. */
  const sharedRates: Array<{ client: ScenarioClient; path: string }> = [];

  // ---- clients --------------------------------------------------------------------------------
  const clientSources = (h: string) => c.sources.filter((s) => s.host === h);
  const clients: ScenarioClient[] = [];
  for (const host of clientHosts) {
    const i = clients.length;
    const p = `scenario.clients[${i}]`;
    const mine = events.filter((e) => e.host === host);
    const cl = mine.filter((e) => e.kind === 'client');
    prov(`${p}.host`, 'the folder of this rocketmq_client.log', [fileRef(clientSources(host).find((s) => s.kind === 'client')!.path)]);

    // Version.
    const vr = clientVersionOf(host, sourceInfo);
    const picked = pickVersion(vr.range, DEFAULT_CLIENT_VERSION);
    const vEvent = cl.find((e) => e.type === 'startup' && typeof e.fields.version === 'string');
    if (picked.exact) prov(`${p}.version`, vEvent ? 'ClientVersion in the client’s start line' : 'version hints of the client logs', vEvent ? [vEvent] : clientSources(host).map((s) => fileRef(s.path)));
    else def(`${p}.version`, `${picked.version} (${vr.range === 'unknown' ? 'no version hint in the client logs' : `picked from the range ${vr.range} the client logs allow`})`);
    const client: ScenarioClient = { host, version: picked.version, topic: '', sendRatePerSec: 0 };

    const ip = hostIp.get(host);
    if (ip) {
      client.ip = ip.value;
      prov(`${p}.ip`, ip.rule, ip.events);
    } else def(`${p}.ip`, 'a 10.250.x.y address (not in the logs)');

    // NameServer list and binding.
    const userList = cl.find((e) => e.type === 'namesrv-list' && e.entry === 'namesrv-list/user-specified') ?? cl.find((e) => e.type === 'namesrv-list');
    if (userList) {
      const list = ((userList.fields.addrs as string[]) ?? []).filter((a) => nsAddrs.includes(a));
      if (list.length) {
        client.namesrvAddrList = list;
        prov(`${p}.namesrvAddrList`, 'the NameServer list the client was given', [userList]);
      }
    }
    if (!client.namesrvAddrList) def(`${p}.namesrvAddrList`, 'every NameServer');
    const chosen = cl.find((e) => e.type === 'namesrv-chosen');
    const bound = chosen ? (chosen.fields.old === null ? chosen.fields.new : chosen.fields.old) : null;
    if (typeof bound === 'string' && (client.namesrvAddrList ?? nsAddrs).includes(bound)) {
      client.namesrv = bound;
      prov(`${p}.namesrv`, chosen!.fields.old === null ? 'the first NameServer the client chose' : 'the NameServer the client switched away from', [chosen]);
    } else def(`${p}.namesrv`, 'random (the client draws its first index; no choice in the logs)');

    // Group and topic.
    const producer = cl.find((e) => e.type === 'startup' && e.fields.role === 'producer' && e.fields.group !== 'CLIENT_INNER_PRODUCER' && typeof e.fields.group === 'string');
    if (producer) {
      client.group = producer.fields.group as string;
      prov(`${p}.group`, 'the producer start line', [producer]);
    } else def(`${p}.group`, 'PID_<HOST> (no producer start line)');
    const topicCount = new Map<string, { n: number; e: RmqEvent }>();
    for (const e of mine) {
      const t = e.fields.topic;
      if ((e.type === 'route-changed' || e.type === 'send-attempt-failed' || e.type === 'send-failed') && typeof t === 'string' && t !== 'TBW102') {
        const cur = topicCount.get(t);
        topicCount.set(t, { n: (cur?.n ?? 0) + 1, e: cur?.e ?? e });
      }
    }
    const topTopic = [...topicCount.entries()].sort((a, b) => b[1].n - a[1].n || a[0].localeCompare(b[0]))[0];
    if (topTopic) {
      client.topic = topTopic[0];
      prov(`${p}.topic`, 'the topic the client routed and sent to most', [topTopic[1].e]);
      if (!topics.some((t) => t.name === client.topic)) {
        topics.push({ name: client.topic, queues: 4 });
        def(`scenario.topics[${topics.length - 1}].queues`, '4 (defaultTopicQueueNums; no route of this topic in the logs)');
        prov(`scenario.topics[${topics.length - 1}].name`, 'a topic the client sent to', [topTopic[1].e]);
      }
    } else {
      client.topic = topics[0]?.name ?? DEFAULT_TOPIC;
      def(`${p}.topic`, `${client.topic} (the client logged no topic)`);
      if (!topics.some((t) => t.name === client.topic)) {
        topics.push({ name: client.topic, queues: 4 });
        def(`scenario.topics[${topics.length - 1}]`, `${client.topic} with 4 queues on every broker`);
      }
    }

    // Settings.
    const settings: NonNullable<ScenarioClient['settings']> = {};
    const instance = cl.find((e) => e.type === 'startup' && e.entry === 'startup/client-instance');
    if (instance) {
      for (const [key, field] of [
        ['pollNameServerInterval', 'pollNameServerIntervalMs'],
        ['heartbeatBrokerInterval', 'heartbeatBrokerIntervalMs'],
        ['mqClientApiTimeout', 'mqClientApiTimeoutMs'],
      ] as const) {
        const m = new RegExp(`\\b${key}=(\\d+)`).exec(instance.text);
        if (m) {
          settings[field] = Number(m[1]);
          prov(`${p}.settings.${field}`, 'the ClientConfig the client printed at start', [instance]);
        }
      }
    }
    const appProps = c.appProps.get(host) ?? new Map<string, { value: string; event: RmqEvent }>();
    const attempts = cl.filter((e) => e.type === 'send-attempt-failed' && typeof e.fields.rtMs === 'number' && (e.fields.rtMs as number) >= 1000);
    const callTimeouts = mine.filter((e) => e.type === 'send-call-timeout');
    if (appProps.get('sendMsgTimeout') && Number(appProps.get('sendMsgTimeout')!.value) > 0) {
      settings.sendMsgTimeoutMs = Number(appProps.get('sendMsgTimeout')!.value);
      prov(`${p}.settings.sendMsgTimeoutMs`, 'sendMsgTimeout in the application log', [appProps.get('sendMsgTimeout')!.event]);
    } else if (attempts.length && callTimeouts.length) {
      const rts = attempts.map((e) => e.fields.rtMs as number).sort((a, b) => a - b);
      const median = rts[Math.floor(rts.length / 2)];
      settings.sendMsgTimeoutMs = Math.floor(median / 100) * 100;
      prov(`${p}.settings.sendMsgTimeoutMs`, `attempts that used the whole budget (RT ${median} ms, then \`sendDefaultImpl call timeout\`)`, [attempts[0], callTimeouts[0]]);
    } else def(`${p}.settings.sendMsgTimeoutMs`, '3000 (DefaultMQProducer default)');
    const retry = appProps.get('retryTimesWhenSendFailed');
    if (retry && /^\d+$/.test(retry.value)) {
      settings.retryTimesWhenSendFailed = Number(retry.value);
      prov(`${p}.settings.retryTimesWhenSendFailed`, 'retryTimesWhenSendFailed in the application log', [retry.event]);
    } else def(`${p}.settings.retryTimesWhenSendFailed`, '2 (DefaultMQProducer default: 3 attempts)');
    const lfe = appProps.get('sendLatencyFaultEnable');
    if (lfe && /^(true|false)$/.test(lfe.value)) {
      settings.sendLatencyFaultEnable = lfe.value === 'true';
      prov(`${p}.settings.sendLatencyFaultEnable`, 'sendLatencyFaultEnable in the application log', [lfe.event]);
    } else def(`${p}.settings.sendLatencyFaultEnable`, 'false (DefaultMQProducer default)');
    def(
      `${p}.settings.clientCloseSocketIfTimeout`,
      versionAtLeast(client.version, CLIENT.closeSocketIfTimeout.since) ? `true (the system property’s default from ${CLIENT.closeSocketIfTimeout.since})` : `false (hard-coded before ${CLIENT.closeSocketIfTimeout.since}; client ${client.version})`,
    );
    if (Object.keys(settings).length) client.settings = settings;

    // Start, first send.
    const firstChosen = cl.find((e) => e.type === 'namesrv-chosen' && e.fields.old === null);
    const factory = cl.find((e) => e.type === 'startup' && (e.fields.role === 'client' || e.fields.role === 'producer'));
    const apiTimeout = settings.mqClientApiTimeoutMs ?? 3000;
    const poll = settings.pollNameServerIntervalMs ?? 30000;
    let startTs: number | null = null;
    if (firstChosen) {
      startTs = when(firstChosen) - 11;
      prov(`${p}.startAtMs`, 'the first route poll (10 ms after the client starts) chose a NameServer', [firstChosen, factory]);
    } else if (factory) {
      startTs = when(factory);
      prov(`${p}.startAtMs`, 'the client start line', [factory]);
    } else {
      // Started before the window: the phase of its 30 s route polls.
      const seenTopic = new Set<string>();
      let anchor: { ts: number; e: RmqEvent } | null = null;
      for (const e of cl) {
        if (e.type === 'route-update-failed' && e.entry === 'route-update-failed/exception' && e.ts !== null) {
          anchor = { ts: when(e) - apiTimeout - 2, e };
          break;
        }
        if (e.type === 'route-changed' && e.ts !== null) {
          const t = String(e.fields.topic);
          if (seenTopic.has(t) || ((e.fields.brokersBefore as string[]) ?? []).length) {
            anchor = { ts: when(e) - 3, e };
            break;
          }
          seenTopic.add(t);
        }
      }
      if (anchor) {
        client.startAtMs = 30000 + mod(anchor.ts - 10 - startEpochMs - 30000, poll);
        prov(`${p}.startAtMs`, `started before the logs: placed so that its route polls (every ${poll} ms) fall when the logged ones did`, [anchor.e]);
      } else def(`${p}.startAtMs`, 'about 1 s into the run (no start and no route poll in the logs)');
    }
    if (startTs !== null) client.startAtMs = Math.max(0, rel(startTs));

    // Send rate and first send.
    const stats = c.appStats.get(host);
    const sends = c.appSends.get(host);
    const appFailures = mine.filter((e) => e.kind === 'app' && (e.type === 'send-call-timeout' || e.type === 'send-failed' || e.type === 'busy-reply' || e.type === 'no-route'));
    let rate: number | null = null;
    if (stats && stats.count >= 2) {
      const gaps = [...stats.gaps].sort((a, b) => a - b);
      const period = gaps[Math.floor(gaps.length / 2)];
      if (period > 0) {
        rate = round2(stats.total / stats.count / (period / 1000));
        prov(`${p}.sendRatePerSec`, `the application’s statistics lines (sent=N every ${period / 1000} s)`, [stats.first.event, stats.last.event]);
      }
    }
    if (rate === null && sends && sends.count >= 2 && sends.firstEvent.ts !== null && sends.lastEvent.ts !== null) {
      const failed = appFailures.filter((e) => e.ts! >= sends.firstEvent.ts! && e.ts! <= sends.lastEvent.ts!).length;
      const span = (sends.lastEvent.ts - sends.firstEvent.ts) / 1000;
      if (span > 0) {
        rate = round2((sends.count + failed) / span);
        prov(`${p}.sendRatePerSec`, `sends the application logged (${sends.count} sent, ${failed} failed in ${Math.round(span)} s)`, [sends.firstEvent, sends.lastEvent]);
      }
    }
    if (rate === null) {
      const fromStats = topicRate(client.topic);
      if (fromStats) {
        rate = fromStats.rate;
        sharedRates.push({ client, path: `${p}.sendRatePerSec` });
        prov(`${p}.sendRatePerSec`, fromStats.rule, fromStats.evidence);
      }
    }
    if (rate === null && appFailures.length >= 2) {
      const span = (appFailures[appFailures.length - 1].ts! - appFailures[0].ts!) / 1000;
      if (span > 0) {
        rate = round2(Math.max(0.1, (appFailures.length / span) * 2));
        prov(`${p}.sendRatePerSec`, 'twice the rate of failed sends (about half the queues were on the failing broker)', [appFailures[0], appFailures[appFailures.length - 1]]);
      }
    }
    if (rate === null) {
      rate = DEFAULT_RATE;
      def(`${p}.sendRatePerSec`, `${DEFAULT_RATE} (the logs show no send rate)`);
    }
    client.sendRatePerSec = rate;
    // The application's own send lines give every send's time: replay them as they happened.
    if (sends && sends.count >= 2) {
      const budget = settings.sendMsgTimeoutMs ?? 3000;
      const failed = failuresOf(mine, host, 'app', -Infinity, Infinity);
      const times = [
        ...sends.times.map((t) => t - 2),
        ...failed.map((e) => {
          if (e.type === 'send-call-timeout') return latest(e) - budget - 3;
          if (e.type === 'send-failed' && typeof e.fields.costMs === 'number') return e.ts! - (e.fields.costMs as number);
          return e.ts! - 2;
        }),
      ]
        .map((t) => rel(t))
        .filter((t) => t >= (client.startAtMs ?? 0))
        .sort((a, b) => a - b);
      if (times.length > LIMITS.sendTimes) {
        notes.push(`${host}: the application logged ${times.length.toLocaleString('en-US')} sends, more than a run replays one by one (${LIMITS.sendTimes.toLocaleString('en-US')}): sent at ${client.sendRatePerSec}/s instead`);
      } else if (times.length) {
        client.sendTimesMs = times;
        prov(`${p}.sendTimesMs`, `every send the application logged (${sends.count} sent, ${failed.length} failed), at the time it began`, [sends.firstEvent, failed[0], sends.lastEvent]);
      }
    }
    if (startTs !== null) {
      const firstRoute = cl.find((e) => e.type === 'route-changed' && e.fields.topic === client.topic && !((e.fields.brokersBefore as string[]) ?? []).length);
      const candidates = [firstRoute ? { ts: when(firstRoute) - 3, e: firstRoute } : null, sends ? { ts: when(sends.firstEvent) - 5, e: sends.firstEvent } : null].filter(
        (x): x is { ts: number; e: RmqEvent } => x !== null && x.ts >= startTs!,
      );
      candidates.sort((a, b) => a.ts - b.ts);
      if (candidates.length) {
        client.sendStartMs = Math.max(0, Math.round(candidates[0].ts - startTs));
        prov(`${p}.sendStartMs`, 'the first send (its route fetched on the send path, or the first send the application logged)', [candidates[0].e]);
      } else def(`${p}.sendStartMs`, '1000 (no first send in the logs)');
    }
    clients.push(client);
  }
  for (const { client, path } of sharedRates) {
    const n = clients.filter((x) => x.topic === client.topic).length;
    client.sendRatePerSec = round2(client.sendRatePerSec / n);
    if (n > 1) provenance[path].rule += `, shared by the ${n} clients sending to it`;
  }
  clients.forEach((client, i) => inferSelector(client, `scenario.clients[${i}]`, events.filter((e) => e.host === client.host), client.sendRatePerSec));

  // ---- start times of the servers (the phase of their timers) ---------------------------------
  nameServers.forEach((ns, i) => {
    const p = `scenario.nameServers[${i}].startAtMs`;
    const v = ns.version ?? serverVersion;
    const profile = serverProfile(modelled(v));
    const scanMs = profile.scanNotActiveBrokerIntervalMs;
    const initial = profile.scanInitialDelayMs;
    const expiry = events.find((e) => e.type === 'broker-expired' && e.host === ns.host && e.kind === 'namesrv');
    if (expiry) {
      ns.startAtMs = mod(rel(when(expiry)) - initial, scanMs);
      prov(p, `placed so that its scan (every ${scanMs / 1000} s) runs when the logged expiry did`, [expiry]);
    } else def(p, '0 (the phase of its scan is not in the logs)');
  });
  brokers.forEach((b, i) => {
    const p = `scenario.brokers[${i}].startAtMs`;
    const period = b.registerNameServerPeriodMs ?? 30000;
    const regs = events.filter((e) => e.type === 'broker-registered' && e.kind === 'broker' && e.host === b.host && e.ts !== null);
    // A NameServer expires a broker 120 s after its last registration of any kind (the periodic
    // one, or one a topic creation triggered): the one before the broker went silent sets the
    // expiry, so the model's periodic registrations are placed on it.
    const silence = c.silences.filter((x) => x.host === b.host).sort((x, y) => x.from.ts! - y.from.ts!)[0];
    const before = silence?.lastRegistration ?? null;
    const reg = before ?? regs[regs.length - 1];
    if (reg) {
      b.startAtMs = 10000 + mod(rel(when(reg)) - 20000, period);
      prov(p, `placed so that its registrations (every ${period / 1000} s) include the last one logged${before ? ' before it went silent' : ''}`, [reg]);
    } else def(p, '100 ms into the run (the phase of its registrations is not in the logs)');
  });

  // ---- faults ---------------------------------------------------------------------------------
  /** Faults with their provenance, keyed once they are in time order. */
  interface Pending {
    fault: Fault;
    rule: string;
    evidence: Array<RmqEvent | null | undefined>;
    defaults: Array<[string, string]>;
  }
  const pending: Pending[] = [];
  const addrsOn = (h: string): Set<string> => new Set([...nameServers.filter((n) => n.host === h).map((n) => n.addr), ...brokers.filter((b) => b.host === h).map((b) => b.addr)]);
  const brokersOn = (h: string): Set<string> => new Set(brokers.filter((b) => b.host === h).map((b) => b.name));
  const regular = (h: string): boolean => {
    const l = c.serverLines.get(h);
    return l !== undefined && l.count / Math.max(1, (l.last - l.first) / 1000) >= 0.2;
  };
  for (const s of [...c.silences].sort((a, b) => a.from.ts! - b.from.ts! || a.host.localeCompare(b.host))) {
    if (s.othersLogged === 0) continue;
    pending.push(...silenceFault(s));
  }

  function silenceFault(s: Silence): Pending[] {
    const h = s.host;
    const addrs = addrsOn(h);
    const names = brokersOn(h);
    if (!addrs.size) return [];
    const fromTs = s.from.ts!;
    const endTs = s.to ? s.to.ts! : last;
    const inGap = (e: RmqEvent, slack = 5000) => e.host !== h && e.ts !== null && e.ts > fromTs && e.ts <= endTs + slack;
    const timeouts = events.filter(
      (e) =>
        inGap(e, 0) &&
        ((e.type === 'rpc-timeout' && addrs.has(String(e.fields.addr))) ||
          (e.type === 'route-update-failed' && e.entry === 'route-update-failed/exception' && addrs.has(String(e.fields.addr)) && /Timeout/.test(String(e.fields.cause))) ||
          (e.type === 'send-attempt-failed' && names.has(String(e.fields.brokerName)) && (e.fields.rtMs as number) >= 1000) ||
          (e.type === 'heartbeat-failed' && addrs.has(String(e.fields.brokerAddr))) ||
          (e.type === 'register-failed' && addrs.has(String(e.fields.namesrvAddr)))),
    );
    const shutdown = events.find((e) => e.type === 'shutdown' && e.host === h && e.ts !== null && e.ts >= fromTs - 10000 && e.ts <= fromTs);
    // A whole-second line of the silence's first second may be later than the host's last line.
    const refused = events.filter(
      (e) =>
        (inGap(e, 0) || (e.host !== h && e.ts === fromTs && coarse(e))) &&
        e.ts! <= fromTs + 15000 &&
        ((e.type === 'connect-failed' && ((e.fields.addrs as string[]) ?? []).some((a) => addrs.has(a)) && e.entry !== 'connect-failed/create-channel-timeout') ||
          (e.type === 'broker-removed' && e.fields.reason !== 'remove' && (names.has(String(e.fields.brokerName)) || addrs.has(String(e.fields.brokerAddr))))),
    );
    const resets = events.filter((e) => inGap(e) && e.type === 'pipeline' && e.fields.event === 'exception' && addrs.has(String(e.fields.addr)));
    const boots = s.to ? events.filter((e) => e.type === 'startup' && e.host === h && e.ts !== null && e.ts >= s.to!.ts! && e.ts <= s.to!.ts! + 120000 && (e.fields.role === 'broker' || e.fields.role === 'namesrv')) : [];
    const lastLine = `the last line ${h} wrote before ${Math.round((endTs - fromTs) / 1000)} s of silence while other hosts kept logging`;

    let state: 'hung' | 'down';
    let startTs: number;
    const startEvidence: RmqEvent[] = [s.from];
    if (shutdown || (refused.length && !timeouts.length)) {
      state = 'down';
      startTs = shutdown ? when(shutdown) : Math.min(latest(s.from) + 1, ...refused.map((e) => when(e)));
      startEvidence.push(...(shutdown ? [shutdown] : refused.slice(0, 2)));
    } else if (timeouts.length) {
      state = 'hung';
      const lastPlus = coarse(s.from) ? s.from.ts! + 1000 : s.from.ts! + 1;
      const starts = timeouts
        .map((e) => {
          const took = e.type === 'rpc-timeout' ? (e.fields.timeoutMs as number | null) : e.type === 'send-attempt-failed' ? (e.fields.rtMs as number) : null;
          return took ? latest(e) - took : null;
        })
        .filter((x): x is number => x !== null);
      const evStart = starts.length ? Math.min(...starts) : null;
      startTs = regular(h) ? Math.min(lastPlus, evStart ?? Infinity) : (evStart ?? lastPlus);
      startTs = Math.max(startTs, s.from.ts! + 1);
      startEvidence.push(timeouts[0]);
    } else {
      if (regular(h)) {
        notes.push(`${h} was silent from ${formatIso(fromTs, outZone)} for ${Math.round((endTs - fromTs) / 1000)} s, but no peer logged a timeout or a refused connection against it: not replayed`);
      }
      return [];
    }
    // A frozen OS leaves new connects unanswered (`connect ... timeout`); stopped processes on a live
    // OS let them complete (peers reconnect, as 4.9.1+ clients do after closing a timed-out channel,
    // and 5.0.0-5.2.0 clients' name server scan every 3 s). Connects that time out after one completed
    // are the host going down for its reboot (its link is down), not the hang.
    let processesOnly = false;
    if (state === 'hung') {
      const reconnected = events.find((e) => inGap(e, 0) && e.ts! > startTs + 1000 && e.type === 'pipeline' && e.fields.side === 'client' && e.fields.event === 'connect' && addrs.has(String(e.fields.addr)));
      const connectTimeouts = events.some(
        (e) =>
          inGap(e, 0) &&
          (reconnected === undefined || e.ts! < reconnected.ts!) &&
          e.type === 'connect-failed' &&
          e.entry === 'connect-failed/create-channel-timeout' &&
          ((e.fields.addrs as string[]) ?? []).some((a) => addrs.has(a)),
      );
      if (reconnected && !connectTimeouts) {
        processesOnly = true;
        startEvidence.push(reconnected);
      }
    }
    const out: Pending[] = [];
    out.push({
      fault: { atMs: rel(startTs), host: h, state, ...(processesOnly ? { processesOnly } : {}) },
      defaults: [],
      rule:
        state === 'hung'
        ? `${lastLine}; peers timed out against its addresses (${timeouts.length} timeouts)${processesOnly ? '; new connections to it still completed, so only its processes froze' : ''}`
        : shutdown
          ? `the shutdown hook, then ${Math.round((endTs - fromTs) / 1000)} s of silence`
          : `${lastLine}; peers found its ports closed (refused connections, destroyed channels)`,
      evidence: startEvidence,
    });
    if (!s.to) return out;
    const bootOf = (role: string) => boots.find((e) => e.fields.role === role);
    const nsBoot = bootOf('namesrv');
    const brBoot = bootOf('broker');
    const hasNs = nameServers.some((n) => n.host === h);
    const hasBroker = brokers.some((b) => b.host === h);
    type Boot = NonNullable<Extract<Fault, { state: string }>['boot']>;
    if (resets.length && state === 'hung') {
      const at = resets[0].ts!;
      const boot: Boot = {};
      const evidence: RmqEvent[] = [resets[0]];
      const defs: Array<[string, string]> = [];
      if (hasNs) {
        if (nsBoot && when(nsBoot) > at) {
          boot.namesrvMs = Math.round(when(nsBoot) - at);
          evidence.push(nsBoot);
        } else defs.push(['boot.namesrvMs', `${DEFAULT_BOOT.namesrvMs} (no NameServer boot line after the reboot)`]);
      }
      if (hasBroker) {
        if (brBoot && when(brBoot) > at) {
          boot.brokerMs = Math.round(when(brBoot) - at);
          evidence.push(brBoot);
        } else defs.push(['boot.brokerMs', `${DEFAULT_BOOT.brokerMs} (no broker boot line after the reboot)`]);
      }
      out.push({
        fault: { atMs: rel(at), host: h, state: 'reboot', boot },
        rule: 'the first connection reset by the host (its new TCP stack answers old connections with RST); boot delays from its boot lines',
        evidence,
        defaults: defs,
      });
    } else if (boots.length) {
      if (state === 'hung') {
        const delays = boots.map((e) => when(e) - (e.fields.role === 'namesrv' ? DEFAULT_BOOT.namesrvMs : DEFAULT_BOOT.brokerMs));
        const at = Math.max(startTs + 1, Math.min(...delays));
        const boot: Boot = {};
        if (nsBoot) boot.namesrvMs = Math.round(when(nsBoot) - at);
        if (brBoot) boot.brokerMs = Math.round(when(brBoot) - at);
        out.push({
          fault: { atMs: rel(at), host: h, state: 'reboot', boot },
          rule: 'boot lines after the silence and no connection reset seen: the reboot is placed the default boot delay before them',
          evidence: boots,
          defaults: [],
        });
      } else {
        const at = when(boots[0]);
        const boot: Boot = { namesrvMs: 0, brokerMs: 0 };
        if (nsBoot) boot.namesrvMs = Math.max(0, Math.round(when(nsBoot) - at));
        if (brBoot) boot.brokerMs = Math.max(0, Math.round(when(brBoot) - at));
        out.push({ fault: { atMs: rel(at), host: h, state: 'up', boot }, rule: 'the processes’ boot lines after the silence', evidence: boots, defaults: [] });
      }
    } else {
      out.push({
        fault: { atMs: rel(when(s.to)), host: h, state: 'up' },
        rule: `the first line ${h} wrote after the silence (no boot line: it resumed)`,
        evidence: [s.to],
        defaults: [],
      });
    }
    return out;
  }

  // Busy replies: per broker, episodes; steady waits near waitTimeMillsInSendQueue are an overload,
  // longer ones a stall of the whole broker.
  const lastAttempt = new Map<string, RmqEvent>();
  const replies = new Map<string, RmqEvent[]>();
  for (const e of events) {
    if (e.type === 'send-attempt-failed') lastAttempt.set(e.host, e);
    if (e.type !== 'busy-reply' || e.kind !== 'client' || e.ts === null) continue;
    const byAddr = typeof e.fields.brokerAddr === 'string' ? nameOfBrokerAddr.get(e.fields.brokerAddr) : undefined;
    const attempt = lastAttempt.get(e.host);
    const name = byAddr ?? (attempt && attempt.ts === e.ts ? String(attempt.fields.brokerName) : undefined);
    if (!name || !brokerOf(name)) continue;
    let list = replies.get(name);
    if (!list) replies.set(name, (list = []));
    list.push(e);
  }
  for (const name of [...replies.keys()].sort()) {
    const b = brokerOf(name)!;
    const list = replies.get(name)!;
    const waitLimit = b.waitTimeMillsInSendQueue ?? 200;
    for (const ep of split(list, 30000)) {
      const clusters = split(ep, 2000);
      const maxWait = (cl: RmqEvent[]) => Math.max(0, ...cl.map((e) => e.fields.waitMs).filter((w): w is number => typeof w === 'number'));
      const held = (cl: RmqEvent[]) => maxWait(cl) > waitLimit + STALL_MARGIN_MS;
      if (clusters.some((cl) => !held(cl))) {
        // Replies near the limit mean a queue that stayed full (an overload) for the whole episode;
        // longer waits within it (a CPU-throttled or pausing JVM) are stalls on top of it. The
        // replies one cleaner pass sends come out together; its queue head had already waited up to
        // the limit when the broker stopped, so it stood still about (wait - limit) ms.
        pending.push(overloadFault(b, ep, waitLimit));
        // Each held pass says the cleaner did not run from its longest waiter's arrival + the limit
        // until the pass: that head would have been answered then. Spans that overlap were one stop:
        // a pass the CPU quota cut short (cleanExpiredRequest runs only while the JVM gets CPU)
        // leaves expired heads for the next, whose longest wait shows that the stop went on.
        const spans: Array<{ from: number; to: number; reps: RmqEvent[]; max: number }> = [];
        for (const pass of split(ep, RELEASE_GAP_MS)) {
          if (!held(pass)) continue;
          const max = maxWait(pass);
          const to = pass[0].ts!;
          const from = to - (max - waitLimit);
          const last = spans[spans.length - 1];
          if (last && from <= last.to) {
            last.to = to;
            last.reps.push(...pass);
            last.max = Math.max(last.max, max);
          } else spans.push({ from, to, reps: [...pass], max });
        }
        // Replies that started waiting in the same millisecond were read together: Netty got no CPU
        // either, and the requests waited in the socket until it read them.
        const readAt = new Map<number, number>();
        for (const e of ep) if (typeof e.fields.waitMs === 'number') readAt.set(e.ts! - e.fields.waitMs, (readAt.get(e.ts! - e.fields.waitMs) ?? 0) + 1);
        const bursts = [...readAt].filter(([t, n]) => n + (readAt.get(t - 1) ?? 0) >= 2).map(([t]) => t);
        for (const s of spans) {
          const why = `the queue head of the overload had waited up to ${waitLimit} ms when it stopped`;
          const p = stallFault(b, s.reps, s.max, Math.round(s.to - s.from), why, s.to);
          const read = Math.max(0, ...bursts.filter((t) => t > s.from && t < s.to));
          if (read > 0 && 'stall' in p.fault) {
            p.fault.stall.ioFrozenMs = Math.round(read - s.from);
            const together = ep.filter((e) => typeof e.fields.waitMs === 'number' && e.ts! - e.fields.waitMs >= read - 1 && e.ts! - e.fields.waitMs <= read);
            p.rule += `; ${together.length} replies started waiting in the same millisecond, ${p.fault.stall.ioFrozenMs} ms into it: it had read no request before then`;
            p.evidence.push(together[0]);
          }
          pending.push(p);
        }
        continue;
      }
      for (const cl of clusters) {
        const max = maxWait(cl);
        pending.push(stallFault(b, cl, max, Math.max(1, max - STALL_EXTRA_MS), 'the first request that arrived in it waited as long'));
      }
    }
  }

  pending.push(...diskFullFaults());

  /**
   * A full store disk, per broker: from the store's `mark disk full` line to its `mark disk ok` line
   * (CleanCommitLogService checks every 10 s and logs each change once); without the store log, the
   * clients' code-14 replies that name it.
   */
  function diskFullFaults(): Pending[] {
    const out: Pending[] = [];
    for (const b of brokers) {
      const marks = events.filter((e) => e.host === b.host && e.kind === 'store' && e.ts !== null && (e.type === 'disk-full' || e.type === 'disk-ok') && (e.type === 'disk-ok' || e.fields.ratio !== null));
      // The clients' code-14 replies naming a full disk, by the broker address they print.
      const replies = events.filter(
        (e) => e.type === 'disk-full' && e.kind === 'client' && e.ts !== null && e.fields.code === 14 && typeof e.fields.brokerAddr === 'string' && nameOfBrokerAddr.get(e.fields.brokerAddr) === b.name,
      );
      let i = 0;
      while (i < marks.length) {
        const full = marks.slice(i).find((e) => e.type === 'disk-full');
        if (!full) break;
        const ok = marks.slice(marks.indexOf(full)).find((e) => e.type === 'disk-ok') ?? null;
        const endTs = ok?.ts ?? Math.max(full.ts!, ...replies.map((e) => e.ts!).filter((t) => t >= full.ts!));
        const ratio = Number(full.fields.ratio);
        out.push({
          fault: { atMs: rel(full.ts!), broker: b.name, diskFull: { durationMs: Math.max(1, endTs - full.ts!), ratio, okRatio: ok ? Number(ok.fields.ratio ?? ratio) : ratio } },
          rule: `the store marked its disk full (${Math.round(ratio * 100)} % used)${ok ? ' and OK again' : ', and no line marked it OK again (the last refused write ends it)'}`,
          evidence: [full, ok],
          defaults: ok ? [] : [['durationMs', 'to the last SERVICE_NOT_AVAILABLE reply']],
        });
        i = ok ? marks.indexOf(ok) + 1 : marks.length;
      }
      if (out.some((p) => 'diskFull' in p.fault && p.fault.broker === b.name) || !replies.length) continue;
      for (const run of split(replies, 30000)) {
        const first = run[0];
        const last = run[run.length - 1];
        const ratio = typeof first.fields.ratio === 'number' ? first.fields.ratio : 0.95;
        out.push({
          fault: { atMs: rel(first.ts!), broker: b.name, diskFull: { durationMs: Math.max(1, last.ts! - first.ts!), ratio, okRatio: ratio } },
          rule: `${run.length} SERVICE_NOT_AVAILABLE replies that name a full disk, from the first to the last (the broker's store log was not given)`,
          evidence: [first, last],
          defaults: [],
        });
      }
    }
    return out;
  }

  /** A stall of durationMs that ends 1 ms before releasedAt (by default the first reply's time). */
  function stallFault(b: ScenarioBroker, reps: RmqEvent[], max: number, durationMs: number, why: string, releasedAt = reps[0].ts!): Pending {
    const waitLimit = b.waitTimeMillsInSendQueue ?? 200;
    const at = releasedAt - durationMs - 1;
    const put = events.find((e) => e.type === 'store-slow' && e.host === b.host && e.fields.what === 'in-lock' && e.ts !== null && Math.abs(e.ts - reps[0].ts!) <= 2000);
    return {
      fault: { atMs: rel(at), broker: b.name, stall: { durationMs } },
      rule:
        `${reps.length} busy replies that waited up to ${max} ms, more than waitTimeMillsInSendQueue (${waitLimit} ms): ` +
        `the broker stood still about ${durationMs} ms before answering them (${why})`,
      evidence: [reps[0], reps.find((e) => e.fields.waitMs === max), put],
      defaults: [],
    };
  }

  function overloadFault(b: ScenarioBroker, reps: RmqEvent[], waitLimit: number): Pending {
    const firstTs = reps[0].ts!;
    const lastTs = reps[reps.length - 1].ts!;
    // The watermark shows when the send queue's head started waiting (if the broker's watermark.log was given).
    const marks = (c.watermarkHigh.get(b.host) ?? []).filter((e) => e.ts! >= firstTs - 60000 && e.ts! <= lastTs + 60000 && (e.fields.slowMs as number) >= waitLimit / 2);
    let from = firstTs - waitLimit - 1000;
    let to = lastTs + 1000;
    const evidence: RmqEvent[] = [reps[0], reps[reps.length - 1]];
    const run = marks.length ? runAround(marks, firstTs, lastTs) : null;
    if (run) {
      from = Math.min(from, run[0].ts!);
      to = Math.max(to, run[run.length - 1].ts! + 1000);
      evidence.push(run[0], run[run.length - 1]);
    }
    // Arrivals the simulated clients send to this broker; the service time makes the broker serve a
    // little less than that, so that the queue head reaches the wait limit as in the logs.
    let arrival = 0;
    for (const cl of clients) {
      const t = topics.find((x) => x.name === cl.topic);
      const on = t?.brokers ?? brokers.map((x) => x.name);
      if (on.includes(b.name)) arrival += cl.sendRatePerSec / on.length;
    }
    const background = backgroundOf(b, from, to);
    if (background) evidence.push(...background.evidence);
    const total = arrival + (background?.rate ?? 0);
    const version = b.version ?? serverVersion;
    // A server of 4 cores or more: the default pool is the most it can be.
    const threads = b.sendMessageThreadPoolNums ?? serverProfile(modelled(version)).sendThreadPoolNums(4);
    const seconds = Math.max(1, (to - from) / 1000);
    // The replies that stalls held are theirs; the steady ones say by how much the senders overran it.
    const steady = reps.filter((e) => typeof e.fields.waitMs !== 'number' || e.fields.waitMs <= waitLimit + STALL_MARGIN_MS).length;
    const excess = Math.min(0.3, Math.max(0.002, steady / Math.max(1, arrival * seconds)));
    const serviceMs = total > 0 ? round2((threads * 1000) / (total * (1 - excess))) : 50;
    if (total === 0) notes.push(`no simulated client sends to ${b.name}: its overload cannot be reproduced`);
    const waits = reps.map((e) => e.fields.waitMs).filter((w): w is number => typeof w === 'number');
    const overload: Extract<Fault, { overload: unknown }>['overload'] = { durationMs: Math.round(to - from), serviceMs };
    if (background) overload.backgroundPerSec = background.rate;
    return {
      fault: { atMs: rel(from), broker: b.name, overload },
      rule:
        `${reps.length} busy replies that waited ${Math.min(...waits)}-${Math.max(...waits)} ms (the limit is ${waitLimit} ms): an overload` +
        `${run ? ', from the first to the last watermark second over half the limit' : ''}; ${background ? `${background.rule}; ` : ''}` +
        `puts slowed to ${serviceMs} ms on ${threads} send thread${threads === 1 ? '' : 's'} so that the senders (${round2(total)} sends/s to this broker) overrun it by ` +
        `${round2(excess * 100)}%, as many as the ${steady} logged replies near the limit suggest`,
      evidence,
      defaults: [],
    };
  }

  // Producers whose logs were not given: the broker's stats.log counts what it stored of topics no
  // simulated client sends. Their busiest minute that overlaps the overload is its background load
  // (stored puts: the sends it rejected are not counted, so this is a floor).
  function backgroundOf(b: ScenarioBroker, from: number, to: number): { rate: number; rule: string; evidence: RmqEvent[] } | null {
    const sent = new Set(clients.map((cl) => cl.topic));
    const lines = c.topicPuts.filter((x) => x.host === b.host && !sent.has(x.topic) && x.ts > from && x.ts - 60000 < to);
    const byMinute = new Map<number, typeof lines>();
    for (const l of lines) byMinute.set(l.ts, [...(byMinute.get(l.ts) ?? []), l]);
    let best: typeof lines = [];
    let bestSum = 0;
    for (const list of byMinute.values()) {
      const sum = list.reduce((n, l) => n + l.sum, 0);
      if (sum > bestSum) [best, bestSum] = [list, sum];
    }
    if (bestSum <= 0) return null;
    const topicNames = [...new Set(best.map((l) => l.topic))].sort();
    return {
      rate: round2(bestSum / 60),
      rule: `its stats.log stored ${bestSum} messages of ${topicNames.join(', ')} in the busiest minute, which no client of the scenario sends: producers whose logs were not given, ${round2(bestSum / 60)} sends/s`,
      evidence: best.map((l) => l.event),
    };
  }

  pending.sort((a, b) => a.fault.atMs - b.fault.atMs);
  const faults: Fault[] = pending.map((x, i) => {
    prov(`scenario.faults[${i}]`, x.rule, x.evidence);
    for (const [k, v] of x.defaults) def(`scenario.faults[${i}].${k}`, v);
    return x.fault;
  });

  const scenario: Scenario = {
    name: 'inferred',
    startEpochMs,
    zone: opts.zone,
    serverVersion,
    nameServers,
    brokers,
    topics,
    clients,
    faults,
  };
  prov('scenario.startEpochMs', `${LEAD_MS / 1000} s before the first line, so that every process runs when the logs begin`, []);
  def('scenario.latencyMs', '0.5 (one-way network latency)');
  brokers.forEach((_, i) => def(`scenario.brokers[${i}].cores`, '8'));

  const untilMs = last - startEpochMs + MARGIN_MS;
  const hasApp = (h: string) => c.sources.some((s) => s.host === h && s.kind === 'app');
  const ctx = contextOf(scenario, last, (h) => (hasApp(h) ? 'app' : 'client'));
  const obs = observe(events, ctx, ref);
  for (const cl of clients) if (!hasApp(cl.host)) notes.push(`${cl.host}: no application log; failed sends are counted from the client's failed attempts`);
  for (const [key, n] of c.dropped) {
    const [type, host] = key.split(' ');
    notes.push(`${host}: only the first ${KEEP_CAP.toLocaleString('en-US')} ${type} events were read (${n.toLocaleString('en-US')} more left out, to keep memory bounded)`);
  }
  return {
    scenario,
    untilMs,
    zone: opts.zone,
    observed: { window: { first, last }, hosts: [...roles.keys()].sort(), ...obs },
    provenance,
    defaults,
    notes,
    source: opts.source,
  };
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

/** Splits time-ordered events where the gap exceeds `gapMs`. */
function split(list: RmqEvent[], gapMs: number): RmqEvent[][] {
  const out: RmqEvent[][] = [];
  for (const e of list) {
    const cur = out[out.length - 1];
    if (cur && e.ts! - cur[cur.length - 1].ts! <= gapMs) cur.push(e);
    else out.push([e]);
  }
  return out;
}

/** The run of consecutive watermark seconds (gaps up to 3 s) that overlaps [from, to]. */
function runAround(marks: RmqEvent[], from: number, to: number): RmqEvent[] | null {
  const runs = split(marks, 3000);
  const hit = runs.filter((r) => r[r.length - 1].ts! >= from - 5000 && r[0].ts! <= to);
  if (!hit.length) return null;
  return hit.flat();
}
