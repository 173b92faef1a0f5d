// Who runs where: the NameServer addresses, the brokers and topics the routes name, each host's
// address, and the host of each broker and NameServer (docs/replay.md, "host of a broker", "host of
// a NameServer"). Nothing here is a scenario value yet: the servers stage records their provenance.

import type { RmqEvent } from '../../parse/types.js';
import { namesrvOwnAddress } from '../../parse/namesrv-self.js';
import { brokerDatas } from '../../parse/route-change.js';
import { ADDR, cmpAddr, dashed, ipOf, type InferContext, type Named } from './context.js';

interface TopicInfo {
  /** The largest writeQueueNums of its QueueData (0: none seen). */
  queues: number;
  brokers: Set<string>;
  events: RmqEvent[];
}

interface RoutesResult {
  /** Master broker name -> address, with the rule and lines that gave it. */
  brokerAddr: Map<string, Named<string>>;
  brokerNames: string[];
  nameOfBrokerAddr: Map<string, string>;
  topicInfo: Map<string, TopicInfo>;
}

export interface HostsResult extends RoutesResult {
  /** NameServer address -> the (up to 3) lines that named it. */
  nsSeen: Map<string, RmqEvent[]>;
  nsAddrs: string[];
  /** Host -> its IP. */
  hostIp: Map<string, Named<string>>;
  brokerHost: Map<string, Named<string>>;
  nsHost: Map<string, Named<string>>;
}

export function inferHosts(ctx: InferContext): HostsResult {
  const ns = nameServerAddresses(ctx);
  const routes = brokersFromRoutes(ctx);
  const hostIp = hostAddresses(ctx);
  const brokerHost = brokersOnHosts(ctx, routes, hostIp);
  const nsHost = nameServersOnHosts(ctx, ns.nsAddrs, hostIp);
  return { ...ns, ...routes, hostIp, brokerHost, nsHost };
}

/** The addresses clients were given or chose, brokers booted with, and brokers registered with. */
function nameServerAddresses(ctx: InferContext): { nsSeen: Map<string, RmqEvent[]>; nsAddrs: string[] } {
  const nsSeen = new Map<string, RmqEvent[]>();
  const addNs = (addr: unknown, e: RmqEvent): void => {
    if (typeof addr !== 'string' || !ADDR.test(addr)) return;
    const list = nsSeen.get(addr) ?? [];
    if (list.length < 3) list.push(e);
    nsSeen.set(addr, list);
  };
  for (const e of ctx.events) {
    if (e.type === 'namesrv-list') for (const a of (e.fields.addrs as string[]) ?? []) addNs(a, e);
    else if (e.type === 'namesrv-chosen') {
      addNs(e.fields.new, e);
      addNs(e.fields.old, e);
    } else if (e.type === 'startup' && e.fields.role === 'broker') {
      const m = /name server is ([\d.:;,\s]+)/.exec(e.text);
      if (m) for (const a of m[1].split(/[;,\s]+/)) addNs(a, e);
    } else if ((e.type === 'broker-registered' || e.type === 'register-failed') && e.kind === 'broker') addNs(e.fields.namesrvAddr, e);
  }
  return { nsSeen, nsAddrs: [...nsSeen.keys()].sort(cmpAddr) };
}

/**
 * Master brokers and topics: the BrokerData and QueueData of the routes clients logged (a
 * TopicRouteData dump), the broker boot line (which wins over a route), client heartbeats.
 */
function brokersFromRoutes(ctx: InferContext): RoutesResult {
  const brokerAddr = new Map<string, Named<string>>();
  const setBroker = (name: string, addr: string, e: RmqEvent, rule: string, strong = false): void => {
    if (!ADDR.test(addr)) return;
    const prev = brokerAddr.get(name);
    if (!prev || (strong && prev.rule !== rule)) brokerAddr.set(name, { value: addr, events: [e], rule });
    else if (prev.value === addr && prev.events.length < 3 && !prev.events.includes(e)) prev.events.push(e);
  };
  const topicInfo = new Map<string, TopicInfo>();
  const slaves = new Set<string>();
  for (const e of ctx.events) {
    if (e.type === 'route-changed') {
      for (const b of brokerDatas(e.text)) {
        for (const { id, addr } of b.addrs) {
          // brokerId 0 is the master (MixAll.MASTER_ID).
          if (id === '0' && addr) setBroker(b.name, addr, e, 'BrokerData of a route the client logged');
          else if (addr) slaves.add(`${b.name} ${addr}`);
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
  if (slaves.size) ctx.notes.push(`slave brokers are not replayed: ${[...slaves].sort().join(', ')}`);
  const brokerNames = [...brokerAddr.keys()].sort();
  const nameOfBrokerAddr = new Map(brokerNames.map((n) => [brokerAddr.get(n)!.value, n]));
  return { brokerAddr, brokerNames, nameOfBrokerAddr, topicInfo };
}

/** A host's IP, first rule first: broker boot line, brokerIP1, a producer connection's local address, the client ID, the NameServer boot line. */
function hostAddresses(ctx: InferContext): Map<string, Named<string>> {
  const hostIp = new Map<string, Named<string>>();
  for (const e of ctx.events) {
    if (e.type === 'startup' && e.fields.role === 'broker' && typeof e.fields.brokerAddr === 'string' && ADDR.test(e.fields.brokerAddr)) {
      setIp(hostIp, e.host, ipOf(e.fields.brokerAddr), e, 'the broker boot line on this host');
    }
  }
  for (const host of ctx.brokerHosts) {
    const p = ctx.propsOf(host, 'broker').get('brokerIP1');
    if (p && /^\d{1,3}(\.\d{1,3}){3}$/.test(p.value)) setIp(hostIp, host, p.value, p.event, 'brokerIP1 in the broker configuration dump');
  }
  for (const l of ctx.c.producerLinks) setIp(hostIp, l.host, ipOf(l.local), l.event, 'the local address of a producer connection the broker logged');
  for (const e of ctx.events) {
    if (e.type !== 'startup' || e.kind !== 'client') continue;
    const m = /ClientID:(\d{1,3}(?:\.\d{1,3}){3})@/.exec(e.text) ?? /clientIP=(\d{1,3}(?:\.\d{1,3}){3})/.exec(e.text);
    if (m) setIp(hostIp, e.host, m[1], e, 'the client ID at start');
  }
  for (const e of ctx.events) {
    const own = namesrvOwnAddress(e);
    if (own && ADDR.test(own)) setIp(hostIp, e.host, ipOf(own), e, e.type === 'startup' ? 'the NameServer boot line' : 'the NameServer’s own address, which its remoting client was pointed at as it started, 5.x');
  }
  return hostIp;
}

/** The first rule that gives a host its address wins. */
function setIp(hostIp: Map<string, Named<string>>, host: string, ip: string, e: RmqEvent | null, rule: string): void {
  if (!hostIp.has(host)) hostIp.set(host, { value: ip, events: e ? [e] : [], rule });
}

/**
 * Each broker's host, in order: its boot line's folder, brokerName in a configuration dump, a broker
 * host with its address, a free host whose name contains its name, the only one left, a host with
 * its address, `host-<ip>`. A host still without an address takes its broker's (added to `hostIp`).
 */
function brokersOnHosts(ctx: InferContext, routes: RoutesResult, hostIp: Map<string, Named<string>>): Map<string, Named<string>> {
  const { brokerAddr, brokerNames } = routes;
  const { brokerHosts, propsOf } = ctx;
  const brokerHost = new Map<string, Named<string>>();
  for (const name of brokerNames) {
    const addr = brokerAddr.get(name)!.value;
    const boot = ctx.events.find((e) => e.type === 'startup' && e.fields.role === 'broker' && e.fields.brokerName === name);
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
    if (!hostIp.has(h)) setIp(hostIp, h, ipOf(brokerAddr.get(name)!.value), brokerAddr.get(name)!.events[0] ?? null, `the address of ${name}, which runs there`);
  }
  return brokerHost;
}

/**
 * Each NameServer's host: a namesrv.log host with its IP, another host with its IP, the namesrv.log
 * that accepted a client's connection as it chose this NameServer, the only one left, `host-<ip>`.
 * A host still without an address takes its NameServer's (added to `hostIp`).
 */
function nameServersOnHosts(ctx: InferContext, nsAddrs: string[], hostIp: Map<string, Named<string>>): Map<string, Named<string>> {
  const { events, nsHosts, clientHosts } = ctx;
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
  // A client that chose a NameServer connected to it at once (NettyRemotingClient logs the choice
  // as it creates the channel): the namesrv.log that accepted a connection from that client's address
  // at that moment is the chosen NameServer's.
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
    else if (left.length && free.length) ctx.notes.push(`NameServers ${left.join(', ')} could not be placed on ${free.join(', ')}: give their hosts in a scenario file`);
  }
  for (const addr of nsAddrs) {
    if (nsHost.has(addr)) continue;
    const h = dashed(ipOf(addr));
    nsHost.set(addr, { value: h, events: [], rule: 'default' });
  }
  for (const addr of nsAddrs) {
    const h = nsHost.get(addr)!.value;
    if (!hostIp.has(h)) setIp(hostIp, h, ipOf(addr), null, `the address of NameServer ${addr}`);
  }
  return nsHost;
}
