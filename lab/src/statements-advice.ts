// The premise of a piece of advice, checked against the lab: advice is right only where what it
// assumes holds in this cluster (the client runs without the setting it asks to enable, the
// NameServers share hosts with brokers, the host it asks about failed). One statement per piece of
// advice: false when any premise the scorer reads is false, true when every one holds, unknown when
// it reads none.
import { DOWN_KINDS, effectiveClient, FACTS, labKinds, TOLERANCE, Truth, UNANSWERING_KINDS, versionAtLeast, type LabClient } from './score-truth.js';
import { say, type Statement } from './statements-core.js';

/** What a piece of advice is about: the window and the clients, hosts, brokers of its finding or incident. */
export interface Scope {
  start: number;
  end: number;
  clients: string[];
  hosts: string[];
  brokers: string[];
  namesrvAddr?: string;
}

interface Premise {
  text: string;
  ok: boolean;
  why: string;
}

/** The kinds of fault behind the words advice uses for what happened to a process. */
const VERBS: Record<string, readonly string[]> = {
  froze: ['hang', 'stall', 'overload'],
  died: ['crash', 'reboot'],
  'went down': DOWN_KINDS,
  'went silent': ['hang', 'reboot', 'partition'],
  'stopped answering': UNANSWERING_KINDS,
  'did not answer': UNANSWERING_KINDS,
};

const VERSION = String.raw`(\d+\.\d+\.\d+)`;

/** A host named in advice: a host, a broker's name, a NameServer's or broker's address. */
function resolve(truth: Truth, name: string): string | undefined {
  // `broker-a (10.213.0.24:10911)`: the address says which of the broker's processes (a slave has its own).
  const inParens = /\((\d+\.\d+\.\d+\.\d+:\d+)\)$/.exec(name.trim());
  if (inParens) {
    const byAddr = truth.brokerHost(undefined, inParens[1]) ?? truth.namesrvHost(inParens[1]);
    if (byAddr) return byAddr;
  }
  const n = name.replace(/^(?:the processes on|NameServer|broker)\s+/, '').replace(/\s*\(.*\)$/, '').trim();
  if (truth.lab.hosts.some((h) => h.name === n)) return n;
  if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(n)) return truth.namesrvHost(n) ?? truth.brokerHost(undefined, n) ?? truth.brokerHost(undefined, listenAddrOfVip(truth, n));
  if (/^\d+\.\d+\.\d+\.\d+$/.test(n)) return truth.hostByAddr(n);
  return truth.brokerHost(n);
}

/** The broker address whose VIP channel `addr` is (a client with vipChannelEnabled sends there), or `addr`. */
function listenAddrOfVip(truth: Truth, addr: string): string {
  return truth.lab.servers.brokers.find((x) => FACTS.brokerVipAddr(x.addr) === addr)?.addr ?? addr;
}

export function adviceStatements(truth: Truth, advice: string, scope: Scope, where: string): Statement {
  const premises: Premise[] = [];
  const p = (text: string, ok: boolean, whyTrue: string, whyFalse = whyTrue) => premises.push({ text, ok, why: ok ? whyTrue : whyFalse });
  const clients: LabClient[] = scope.clients.map((c) => truth.client(c)).filter((c): c is LabClient => !!c);
  const concerned = clients.length ? clients : truth.lab.clients;
  const names = (cs: LabClient[]) => cs.map((c) => c.host).join(', ');
  const faultOn = (host: string | undefined, kinds: readonly string[]) =>
    host ? truth.faultsOn(host, scope.start, scope.end, TOLERANCE.claimMs).filter((f) => labKinds(f).some((k) => kinds.includes(k))) : [];
  const failed = (label: string, host: string | undefined, kinds: readonly string[]) => {
    const fs = faultOn(host, kinds);
    p(`${label} ${host ? `(${host}) ` : ''}had a ${kinds.join('/')} fault`, fs.length > 0, fs.length ? fs.map((f) => f.text).join('; ') : host ? `no such fault on ${host} then; the lab's faults: ${truth.allFaults()}` : `the lab has no host for ${label}`);
  };

  for (const m of advice.matchAll(new RegExp(String.raw`Upgrade (\S+) \(client ${VERSION}\)`, 'g'))) {
    // A producer's application, or a consumer instance (its client version is in lab.json too).
    const c = truth.client(m[1]) ?? truth.consumers().find((k) => k.host === m[1]);
    p(`${m[1]} runs client ${m[2]}`, c?.version === m[2], c ? `it ran client ${c.version}` : `no application ${m[1]}`);
  }
  if (/(?:Enable|Consider|enable) (?:sendLatencyFaultEnable|latency fault tolerance)|sendLatencyFaultEnable=true|setSendLatencyFaultEnable\(true\)/.test(advice)) {
    // Advice that names its producer (`on app-1's producer`) is about that one.
    const named = /on (\S+)'s producer/.exec(advice);
    const about = named && truth.client(named[1]) ? [truth.client(named[1])!] : concerned;
    const without = about.filter((c) => !effectiveClient(c).sendLatencyFaultEnable);
    p(`${names(about)} run without sendLatencyFaultEnable`, without.length > 0, without.length ? `${names(without)} ran with it off` : `${names(about)} already ran with sendLatencyFaultEnable=true`);
  }
  if (/NameServers? (?:on hosts of their own|off broker hosts|on other hosts than brokers)|Run the NameServers on hosts .*without brokers/.test(advice)) {
    const { hosts, withBroker } = truth.namesrvPlacement();
    p('a NameServer shares a host with a broker', withBroker.length > 0, withBroker.length ? `${withBroker.join(', ')} run both` : `the NameServers run on hosts of their own (${hosts.join(', ')})`);
  }
  if (/at least two NameServers on separate hosts/.test(advice)) {
    const { hosts } = truth.namesrvPlacement();
    p('fewer than two NameServer hosts', hosts.length < 2, '', `the cluster already runs NameServers on ${hosts.length} hosts (${hosts.join(', ')})`);
  }
  const why = new RegExp(String.raw`Find (?:out )?why (.+?) (${Object.keys(VERBS).join('|')})`).exec(advice);
  const brokerHosts = truth.lab.hosts.filter((h) => h.roles.some((r) => r.startsWith('broker'))).map((h) => h.name);
  // `the broker` (a finding that could not name it): some broker host had such a fault then.
  const anyBroker = (kinds: readonly string[]) => {
    const fs = brokerHosts.flatMap((h) => faultOn(h, kinds));
    p(`a broker had a ${kinds.join('/')} fault`, fs.length > 0, fs.map((f) => f.text).join('; '), `no broker host had one then; the lab's faults: ${truth.allFaults()}`);
  };
  if (why) for (const name of why[1].split(/,\s*/)) (name === 'the broker' ? anyBroker(VERBS[why[2]]) : failed(name, resolve(truth, name), VERBS[why[2]]));
  // `Find what froze broker-b (addr) on host`: that broker; `the broker` (a finding that could not name it): each of its scope's.
  const froze = /Find what froze (?:the broker|(\S+?)(?: \((\d+\.\d+\.\d+\.\d+:\d+)\))?(?: on \S+)?) at the stall times/.exec(advice);
  // A broker that froze: a fault that froze it, or its own busy replies then (a wait far over the limit
  // is a stall whatever caused it: gen-707's broker-c, warming up before any fault, held puts 857 ms).
  const frozen = (label: string, host: string | undefined) => {
    const said = host && !faultOn(host, VERBS.froze).length ? truth.busyRepliesOn(host, scope.start, scope.end) : [];
    if (said.length) p(`${label} (${host}) stalled`, true, `its busy replies then (${said.length}, the first at ${truth.time(said[0])}), with no fault injected`, '');
    else failed(label, host, VERBS.froze);
  };
  if (froze && !froze[1]) for (const b of scope.brokers) frozen(`broker ${b}`, truth.brokerHost(b));
  else if (froze) frozen(`broker ${froze[1]}`, froze[2] ? truth.brokerHost(undefined, froze[2]) : truth.brokerHost(froze[1], froze[1]));
  const what = /Find out what happened to (\S+)/.exec(advice);
  if (what) failed(what[1], resolve(truth, what[1]), [...UNANSWERING_KINDS, 'disk-full', 'stall']);
  const check = /Check NameServer (\S+) around/.exec(advice);
  if (check) failed(`NameServer ${check[1]}`, truth.namesrvHost(check[1]), UNANSWERING_KINDS);
  const path = /Check the network path from (\S+) to (\S+?) \(/.exec(advice);
  if (path) failed(`the path from ${path[1]} to ${path[2]}`, resolve(truth, path[2]) ?? resolve(truth, path[1]), UNANSWERING_KINDS);
  const between = /Check the network between (\S+) and (.+?) (?:around|\()/.exec(advice);
  if (between) failed(`the network between ${between[1]} and ${between[2]}`, resolve(truth, between[1]), ['partition']);
  if (/^Check the slave/.test(advice)) {
    // A finding whose subject is the master's address scopes its host, not the broker's name: the name is that host's broker's.
    const names = scope.brokers.length ? scope.brokers : [...new Set(truth.lab.servers.brokers.filter((b) => scope.hosts.includes(b.host)).map((b) => b.brokerName))];
    const slaves = truth.lab.servers.brokers.filter((b) => names.includes(b.brokerName) && b.brokerId !== 0);
    const fs = slaves.flatMap((s) => faultOn(s.host, [...UNANSWERING_KINDS, 'disk-full']));
    p(`a slave of ${names.join(', ') || '(no broker named)'} failed`, fs.length > 0, fs.length ? fs.map((f) => f.text).join('; ') : `no fault on the slaves (${slaves.map((s) => s.host).join(', ') || 'none'}); the lab's faults: ${truth.allFaults()}`);
  }
  for (const m of advice.matchAll(/retryTimesWhenSendFailed=(\d+)/g)) {
    const off = concerned.filter((c) => effectiveClient(c).retryTimesWhenSendFailed !== Number(m[1]));
    p(`${names(concerned)} run retryTimesWhenSendFailed=${m[1]}`, off.length === 0, off.map((c) => `${c.host} ran ${effectiveClient(c).retryTimesWhenSendFailed}`).join(', '));
  }
  // `(sendMsgTimeout, 3000 ms by default)` states the default, not this client's value.
  for (const m of advice.matchAll(/sendMsgTimeout,? (\d+) ms(?! by default)/g)) {
    const off = concerned.filter((c) => effectiveClient(c).sendMsgTimeout !== Number(m[1]));
    p(`${names(concerned)} run sendMsgTimeout=${m[1]}`, off.length === 0, off.map((c) => `${c.host} ran ${effectiveClient(c).sendMsgTimeout} ms`).join(', '));
  }
  const range = new RegExp(String.raw`If the broker runs ${VERSION}-${VERSION}`).exec(advice);
  if (range) {
    const v = truth.lab.versions.broker;
    p(`the brokers run ${range[1]}-${range[2]}`, versionAtLeast(v, range[1]) && versionAtLeast(range[2], v), `they ran ${v}`);
  }
  const newer = new RegExp(String.raw`(?:move the producers to client ${VERSION}\+|Upgrade the producers to client ${VERSION} or later)`).exec(advice);
  if (newer) {
    const min = newer[1] ?? newer[2];
    const older = concerned.filter((c) => !versionAtLeast(c.version, min));
    p(`${names(concerned)} run a client before ${min}`, older.length > 0, `${names(concerned)} ran ${concerned.map((c) => c.version).join(', ')}`);
  }
  if (/sendMsgMaxTimeoutPerRequest/.test(advice)) {
    const cap = new RegExp(String.raw`Client ${VERSION} and later can cap.*; ${VERSION} has no such setting`).exec(advice);
    if (cap) {
      const has = concerned.filter((c) => c.version === cap[2]);
      p(`${names(concerned)} include a client ${cap[2]}`, has.length > 0, `${names(concerned)} ran ${concerned.map((c) => c.version).join(', ')}`);
    } else {
      const since = FACTS.CLIENT.sendMsgMaxTimeoutPerRequest.since;
      const can = concerned.filter((c) => versionAtLeast(c.version, since));
      p(`${names(concerned)} include a client with sendMsgMaxTimeoutPerRequest (${since}+)`, can.length > 0, `${names(concerned)} ran ${concerned.map((c) => c.version).join(', ')}`);
    }
  }
  const closing = new RegExp(String.raw`Run clients ${VERSION}-(\d+\.\d+)\.x or ${VERSION} and later`).exec(advice);
  if (closing) {
    const good = (v: string) => (versionAtLeast(v, closing[1]) && !versionAtLeast(v, `${closing[2]}.9999`)) || versionAtLeast(v, closing[3]);
    const older = concerned.filter((c) => !good(c.version));
    p(`${names(concerned)} include a client outside ${closing[1]}-${closing[2]}.x and ${closing[3]}+`, older.length > 0, `${names(concerned)} ran ${concerned.map((c) => c.version).join(', ')}`);
  }
  if (/Treat MQBrokerException code 2 in the application/.test(advice)) {
    const since = FACTS.CLIENT.retriesSystemBusy.since;
    const older = concerned.filter((c) => !versionAtLeast(c.version, since));
    p(`${names(concerned)} include a client that does not retry SYSTEM_BUSY (before ${since})`, older.length > 0, `${names(concerned)} ran ${concerned.map((c) => c.version).join(', ')}`);
  }
  if (/without a selector|the selector keeps the same queue/.test(advice)) {
    const sel = concerned.filter((c) => c.selectorQueue !== null);
    p(`${names(concerned)} send through a selector`, sel.length > 0, sel.length ? `${names(sel)} pick queue ${sel.map((c) => c.selectorQueue).join(', ')}` : 'none sends through a selector');
  }
  const scopeHosts = [...scope.hosts, ...scope.brokers.map((b) => truth.brokerHost(b)).filter((h): h is string => !!h)];
  const onScope = (kinds: readonly string[]) => [...new Set(scopeHosts)].flatMap((h) => faultOn(h, kinds));
  if (/^Planned shutdown/.test(advice)) {
    const fs = onScope(['restart']);
    p('the stop was planned (SIGTERM)', fs.length > 0, fs.length ? fs.map((f) => f.text).join('; ') : `no restart on ${scopeHosts.join(', ')}; the lab's faults: ${truth.allFaults()}`);
  }
  if (/For planned restarts use mqshutdown/.test(advice)) {
    const planned = onScope(['restart']);
    const other = onScope(['crash', 'reboot', 'hang']);
    p('the stop was not planned', other.length > 0 && planned.length === 0, other.map((f) => f.text).join('; '), planned.length ? `${planned.map((f) => f.text).join('; ')}: a planned restart` : `no unplanned fault on ${scopeHosts.join(', ')}`);
  }
  if (/the store's disk .* or the broker's CPU/.test(advice)) {
    const slow = onScope(['disk-full', 'overload', 'hang', 'stall']);
    // A broker that answered busy then was held, fault injected or not (a cold JVM under the lab
    // machine's own load), as for a cause (statements.ts): its busy replies bear the premise out.
    const busy = slow.length ? [] : [...new Set(scopeHosts)].flatMap((h) => truth.busyRepliesOn(h, scope.start, scope.end)).sort((x, y) => x - y);
    const why = slow.length
      ? slow.map((f) => f.text).join('; ')
      : `the broker answered busy ${busy.length} time${busy.length === 1 ? '' : 's'} then (first at ${truth.time(busy[0] ?? null)}), with no fault injected`;
    p('the disk or the CPU was held', slow.length > 0 || busy.length > 0, why, `no disk, overload or stall fault then on ${scopeHosts.join(', ')}, and no busy reply from it`);
  } else if (/check the disk/.test(advice)) {
    const disk = onScope(['disk-full']);
    const other = onScope([...UNANSWERING_KINDS, 'stall']);
    p('the disk was slow or full', disk.length > 0, disk.map((f) => f.text).join('; '), `the lab's stores are on tmpfs and no disk fault ran; the fault then was ${other.map((f) => f.text).join('; ') || 'none'}${other.some((f) => f.kind === 'overload') ? ' (CPU held by a quota)' : ''}`);
  }
  if (/Free or add disk space|fileReservedTime|disk usage/.test(advice)) {
    // A finding that could not name its broker (a client's code-14 reply without its address) says
    // "a broker": any broker host's full disk is its premise.
    const hosts = scopeHosts.length ? [...new Set(scopeHosts)] : brokerHosts;
    const disk = hosts.flatMap((h) => faultOn(h, ['disk-full']));
    p('a broker disk filled', disk.length > 0, disk.map((f) => f.text).join('; '), `no disk-full fault on ${hosts.join(', ')}`);
  }
  if (/against a broker that never answers/.test(advice)) {
    const silent = onScope(['hang', 'reboot', 'partition']);
    p('a broker never answered (hung)', silent.length > 0, silent.map((f) => f.text).join('; '), `no hang on ${scopeHosts.join(', ')}; the lab's faults: ${truth.allFaults()}`);
  }

  const s = say('analyze', 'advice', where, advice.length > 140 ? `${advice.slice(0, 137)}...` : advice);
  if (!premises.length) return s.unknown('no premise about this cluster that the scorer reads');
  const bad = premises.filter((x) => !x.ok);
  return bad.length
    ? s.is(false, '', bad.map((x) => `premise "${x.text}": ${x.why}`).join('; '))
    : s.is(true, premises.map((x) => `${x.text}: ${x.why}`).join('; '), '');
}
