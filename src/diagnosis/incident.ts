// analyze's incident (src/rules/incident.ts) from the inference replay runs too: the causes are the
// faults the inferred scenario holds, with the rule and the lines that placed each (so analyze and
// replay never disagree about what happened); the impact is what observe() reads per client; the
// chain ties the findings and the observed milestones to the causes in time order; the advice is
// said once.

import { brokerFaultMs, type Fault, type Scenario } from '../model/index.js';
import type { Cause, ChainStep, Impact, Incident } from '../rules/incident.js';
import { findingId } from '../rules/incident.js';
import type { AdviceTopic } from '../rules/advice.js';
import type { ClientVersion, Finding } from '../rules/types.js';
import { formatMs } from '../util/durations.js';
import { closeTimedOutChannelAdvice, stuckOnNamesrvReason } from '../rules/versions.js';
import type { ClientFailures, MilestoneTime, ReplayInput } from './types.js';
import { plural } from '../util/text.js';
import { IMPACT_UNKNOWN } from '../ingest/coverage.js';

/** Causes this close (or overlapping) are one incident. */
const JOIN_MS = 5 * 60000;
/** Causes on one host this close are one incident (a broker busy again, a host back and down again). */
const SAME_HOST_JOIN_MS = 15 * 60000;
/**
 * A client's failures this long before the first incident's first cause are told with it, apart (a
 * fault no cause names, a cause placed late): as long as causes this close are joined into one.
 */
const BEFORE_MS = JOIN_MS;
/** Steps of the chain are read up to this long after the incident's causes ended. */
const IMPACT_AFTER_MS = 10 * 60000;
/** A finding belongs to an incident when it overlaps the incident's window widened by this. */
const FINDING_SLACK_MS = 5 * 60000;
/**
 * ... but one that ended this long before the incident began is not its consequence (a broker's
 * registration period: a finding counted from the last heartbeat before a fault starts up to that
 * much earlier).
 */
const ENDED_BEFORE_MS = 30000;
/** Steps of a chain (the findings say the rest). */
const MAX_STEPS = 16;
/**
 * A client's failed send overlaps a busy broker's episode when it falls within this of it: a send
 * fails at most sendMsgTimeout after it was sent (3 s by default, DefaultMQProducer 4.x-5.x), and
 * the broker logs a busy reply when it answers, not when the request arrived.
 */
const BUSY_SLACK_MS = 10_000;

interface IncidentOptions {
  /** The version a client's logs tell (rules/versions.ts). */
  clientVersion: (host: string) => ClientVersion;
  /** A client's failed sends in a window, counted as observe() counts them. */
  failures: (host: string, source: 'app' | 'client', fromTs: number, untilTs: number) => ClientFailures;
  /** Whether any client or application log was read (without one the impact is unknown, not nil). */
  clientLogsRead: boolean;
  /** The consumer applications' faults (src/diagnosis/consumer-causes.ts). */
  consumerCauses?: Cause[];
}

/** The incidents of an analysis: `findings` in the report's order (their index is their id). */
export function buildIncidents(input: ReplayInput, findings: readonly Finding[], opts: IncidentOptions): Incident[] {
  const causes = [...causesOf(input.scenario, input), ...partitionsOf(findings), ...slaveStopsOf(findings, input.scenario), ...(opts.consumerCauses ?? [])].sort((a, b) => a.start - b.start || a.host.localeCompare(b.host));
  if (!causes.length) return [];
  const groups = groupCauses(causes);
  const observed = input.observed;
  const incidents: Incident[] = groups.map((g, i) => ({
    id: `I${i + 1}`,
    title: '',
    start: Math.min(...g.map((c) => c.start)),
    end: g.some((c) => c.end === null) ? null : Math.max(...g.map((c) => c.end!)),
    causes: g,
    impact: [],
    impactUnknown: opts.clientLogsRead ? null : IMPACT_UNKNOWN,
    chain: [],
    advice: [],
    findings: [],
  }));
  // Each incident hurt the clients that failed from its start to the next one's; the first also says
  // what they lost in the BEFORE_MS before it, apart.
  incidents.forEach((inc, k) => {
    const from = inc.start - 1000;
    const until = k + 1 < incidents.length ? incidents[k + 1].start - 1001 : Infinity;
    for (const [client, all] of Object.entries(observed?.clients ?? {})) {
      const f = opts.failures(client, all.source, from, until);
      const b = k === 0 ? opts.failures(client, all.source, from - BEFORE_MS, from - 1) : null;
      const before = b && b.failedSends > 0 && b.firstTs !== null && b.lastTs !== null ? { failedSends: b.failedSends, start: b.firstTs, end: b.lastTs, leadMs: inc.start - b.firstTs } : null;
      if (f.failedSends === 0 && f.timeouts === 0 && !before) continue;
      const v = opts.clientVersion(client);
      inc.impact.push({
        client,
        start: f.firstTs,
        end: f.lastTs,
        failedSends: f.failedSends,
        source: f.source,
        timeouts: f.timeouts,
        clientVersion: v.range === 'unknown' ? null : v.range,
        lastedBecause: null,
        before,
      });
    }
  });
  // A finding over two incidents (a broker's busy replies in two episodes) is listed under both.
  findings.forEach((f, i) => {
    for (const inc of incidents) if (belongsTo(f, inc, input.scenario)) inc.findings.push(findingId(i));
  });
  const milestones = observed?.milestones ?? [];
  for (const inc of incidents) {
    const mine = inc.findings.map((id) => ({ id, f: findings[Number(id.slice(1)) - 1] }));
    inc.impact.sort((a, b) => b.failedSends - a.failedSends || a.client.localeCompare(b.client));
    for (const im of inc.impact) im.lastedBecause = lastedBecause(im, inc, mine, milestones, opts);
    inc.chain = chainOf(inc, mine, milestones);
    inc.advice = adviceOf(inc, mine, opts);
    inc.title = titleOf(inc);
  }
  return incidents;
}

// ---- causes ----------------------------------------------------------------------------------

type HostFault = Extract<Fault, { state: string }>;

function onHost(sc: Scenario, host: string): Pick<Cause, 'namesrvAddrs' | 'brokers'> {
  return {
    namesrvAddrs: sc.nameServers.filter((n) => n.host === host).map((n) => n.addr),
    brokers: sc.brokers.filter((b) => b.host === host).map((b) => ({ name: b.name, addr: b.addr, role: b.role ?? 'master' })),
  };
}

/**
 * A reboot's boot delays: the host is back when its first process booted (the reboot's end; a 5.x
 * broker may take half a minute more to finish booting, gen-599), and the text names each.
 */
function bootsOf(f: HostFault): { first: number; text: string | null } {
  const ns = f.boot?.namesrvMs;
  const br = f.boot?.brokerMs;
  const present = [ns, br].filter((x): x is number => typeof x === 'number' && x > 0);
  if (!present.length) return { first: 0, text: null };
  const first = Math.min(...present);
  if (present.length === 1 || ns === br) return { first, text: `its processes were up again ${formatMs(first)} later` };
  return { first, text: `its NameServer was up again ${formatMs(ns!)} later and its broker ${formatMs(br!)} later` };
}

/** The causes: host faults as episodes (a hang and the reboot after it are two causes), busy brokers, full disks. */
function causesOf(sc: Scenario, input: Pick<ReplayInput, 'provenance'>): Cause[] {
  const faults = sc.faults ?? [];
  const at = (f: Fault) => sc.startEpochMs + f.atMs;
  const prov = (i: number) => input.provenance[`scenario.faults[${i}]`] ?? { rule: 'given in the scenario', evidence: [] };
  const out: Cause[] = [];
  const told = new Set<Fault>();
  faults.forEach((f, i) => {
    if (!('state' in f) || f.state === 'up' || told.has(f)) return;
    const next = faults.slice(i + 1).find((x): x is HostFault => 'state' in x && x.host === f.host);
    const p = prov(i);
    const base = { host: f.host, ...onHost(sc, f.host), start: at(f), recognisedBy: p.rule, evidence: p.evidence };
    if (f.state === 'hung' && !f.processesOnly && next?.state === 'reboot') {
      // Silent with its connections open, no new connection completing, then back with a new TCP
      // stack and a boot: what the peers see of a power loss (the link goes down, then the machine
      // boots). A frozen machine that was reset looks the same, so the silent part is told as the
      // start of the reboot with both readings, not as a hang.
      told.add(next);
      const j = faults.indexOf(next);
      const pn = prov(j);
      const b = bootsOf(next);
      const dark = `it had not answered for ${formatMs(at(next) - at(f))} before (a power loss, or a frozen host that was reset: the logs cannot tell)`;
      out.push({
        ...base,
        kind: 'reboot',
        end: at(next) + b.first,
        recognisedBy: `${p.rule}; then ${pn.rule}`,
        evidence: [...p.evidence, ...pn.evidence],
        detail: `${dark}${b.text ? `, and ${b.text}` : ''}`,
        silentMs: at(next) - at(f),
      });
      return;
    }
    if (f.state === 'hung') {
      out.push({ ...base, kind: 'hang', end: next ? at(next) : null, detail: f.processesOnly ? 'only its processes froze: the host still accepted new connections' : null });
    } else if (f.state === 'reboot') {
      const b = bootsOf(f);
      out.push({ ...base, kind: 'reboot', end: at(f) + b.first, detail: b.text });
    } else {
      const planned = /shutdown hook/.test(p.rule);
      const back = next && next.state === 'up' ? at(next) : null;
      out.push({ ...base, kind: planned ? (back !== null ? 'restart' : 'shutdown') : 'crash', end: back, detail: back !== null ? `started again after ${formatMs(back - at(f))}` : null });
    }
  });
  // A busy broker: its overload with the stalls within it, or stalls alone (close ones together).
  const byBroker = new Map<string, Array<{ f: Fault; i: number }>>();
  faults.forEach((f, i) => {
    if (!('broker' in f) || !('overload' in f || 'stall' in f)) return;
    byBroker.set(f.broker, [...(byBroker.get(f.broker) ?? []), { f, i }]);
  });
  for (const [name, list] of byBroker) {
    const b = sc.brokers.find((x) => x.name === name);
    if (!b) continue;
    const base = { host: b.host, namesrvAddrs: [], brokers: [{ name, addr: b.addr, role: b.role ?? 'master' }] };
    const endOf = (f: Fault) => at(f) + brokerFaultMs(f);
    let cur: { start: number; end: number; overload: { f: Fault; i: number } | null; stalls: Array<{ f: Fault; i: number }> } | null = null;
    const flush = () => {
      if (!cur) return;
      const stallMs = cur.stalls.map((s) => ('stall' in s.f ? s.f.stall.durationMs : 0));
      const pauses = cur.stalls.length ? `${cur.stalls.length} pause${cur.stalls.length === 1 ? '' : 's'}, the longest ${formatMs(Math.max(...stallMs))}` : null;
      const lead = cur.overload ?? cur.stalls[0];
      const p = prov(lead.i);
      out.push({
        ...base,
        kind: cur.overload ? 'overload' : 'stall',
        start: cur.start,
        end: cur.end,
        // How the simulation is tuned to it (put times, overrun) is replay's business.
        recognisedBy: p.rule.split('; ').filter((x) => !x.startsWith('puts slowed')).join('; '),
        evidence: [...new Set([...p.evidence, ...cur.stalls.slice(0, 2).flatMap((s) => prov(s.i).evidence.slice(0, 1))])].slice(0, 6),
        detail: cur.overload && pauses ? `${pauses} within it (a CPU-throttled or pausing JVM)` : pauses,
      });
      cur = null;
    };
    for (const x of list) {
      const s = at(x.f);
      const e = endOf(x.f);
      if (cur && (s <= cur.end || (!cur.overload && !('overload' in x.f) && s - cur.end <= 30000))) {
        cur.end = Math.max(cur.end, e);
        if ('overload' in x.f && !cur.overload) cur.overload = x;
        else cur.stalls.push(x);
        continue;
      }
      flush();
      cur = { start: s, end: e, overload: 'overload' in x.f ? x : null, stalls: 'stall' in x.f ? [x] : [] };
    }
    flush();
  }
  // A full disk: from the store's mark-full line to its mark-OK line, as the inference placed it.
  // A synchronous send retries its refusal (code 14 is in retryResponseCodes); an asynchronous send
  // does not retry a broker's reply (MQClientAPIImpl.sendMessageAsync: onExceptionImpl with
  // needRetry=false, 4.x and 5.x), so its SendCallback gets it. Clients the inference saw send
  // asynchronously (their failures came through the SendCallback) are named.
  const asyncHosts = sc.clients.filter((c) => c.async === true).map((c) => c.host);
  const refused =
    asyncHosts.length === 0
      ? 'which clients retry on another broker'
      : `which a synchronous send retries on another broker; an asynchronous send, as ${asyncHosts.length === 1 ? `${asyncHosts[0]} makes` : `${asyncHosts.slice(0, -1).join(', ')} and ${asyncHosts[asyncHosts.length - 1]} make`}, is not retried`;
  faults.forEach((f, i) => {
    if (!('diskFull' in f)) return;
    const b = sc.brokers.find((x) => x.name === f.broker);
    if (!b) return;
    const p = prov(i);
    out.push({
      kind: 'disk-full',
      host: b.host,
      namesrvAddrs: [],
      brokers: [{ name: b.name, addr: b.addr, role: b.role ?? 'master' }],
      start: at(f),
      end: at(f) + f.diskFull.durationMs,
      recognisedBy: p.rule,
      evidence: p.evidence,
      detail: `${Math.round(f.diskFull.ratio * 100)} % used: every write refused (SERVICE_NOT_AVAILABLE, ${refused})`,
    });
  });
  return out.sort((a, b) => a.start - b.start || a.host.localeCompare(b.host));
}

/**
 * Network partitions: the network-partition rule's findings (connect timeouts between hosts whose own
 * logs show them running). The inference's scenario has no partition fault, so they come from the
 * rule, with its window (first and last failed call) and its peers.
 */
function partitionsOf(findings: readonly Finding[]): Cause[] {
  return findings
    .filter((f) => f.rule === 'network-partition' && f.start !== null && f.subject.host !== undefined)
    .map((f) => {
      const peers = Array.isArray(f.metrics.peers) ? f.metrics.peers : [];
      return {
        kind: 'partition' as const,
        host: f.subject.host!,
        namesrvAddrs: f.subject.namesrvAddr ? [f.subject.namesrvAddr] : [],
        // The rule does not tell a master from a slave: the host's broker is named in the detail.
        brokers: [],
        start: f.start!,
        end: f.end,
        recognisedBy:
          f.metrics.connectTimeouts === 0
            ? `calls to it timed out while it printed its send queue empty every second (the requests never reached it) and its own logs and its peers' show them running: the network dropped packets between it and ${peers.join(', ')} (network-partition)`
            : `connects to or from it timed out (no refusal, no reset) while its own logs and its peers' show them running: the network dropped packets between it and ${peers.join(', ')} (network-partition)`,
        evidence: f.evidence.map((e) => `${e.file}:${e.line}`),
        detail: `from ${peers.join(', ')}, while ${f.subject.broker ? `${f.subject.broker} on it` : 'it'} kept running`,
        peers,
      };
    });
}

/**
 * A slave broker's stops, from the `server-stopped` findings: the inference reads peers' calls to
 * tell a hang from a crash, and nothing calls a slave (it connects to its master, clients never send
 * to it), so a slave's host is not in the scenario. Its shutdown hook and a boot again is a restart;
 * a silence ended by a boot with no shutdown hook before it is an `unclean-stop` (a crash, kill -9,
 * or its host hung or lost power). A boot with no silence before it says nothing of when it stopped.
 */
function slaveStopsOf(findings: readonly Finding[], sc: Scenario): Cause[] {
  const scenarioHosts = new Set([...sc.brokers.map((b) => b.host), ...sc.nameServers.map((n) => n.host)]);
  const masters = new Set(sc.brokers.map((b) => b.addr));
  const out: Cause[] = [];
  for (const f of findings) {
    const { host, broker, brokerAddr } = f.subject;
    const stop = f.metrics.stop;
    if (f.rule !== 'server-stopped' || !host || scenarioHosts.has(host) || !broker || !brokerAddr || masters.has(brokerAddr)) continue;
    if (f.start === null || typeof f.metrics.bootAt !== 'number') continue;
    if (stop !== 'restart' && !(stop === 'unclean' && typeof f.metrics.silentMs === 'number')) continue;
    const back = f.metrics.bootAt;
    out.push({
      kind: stop === 'restart' ? 'restart' : 'unclean-stop',
      host,
      namesrvAddrs: [],
      brokers: [{ name: broker, addr: brokerAddr, role: 'slave' }],
      start: f.start,
      end: back,
      recognisedBy:
        stop === 'restart'
          ? 'its shutdown hook, then its boot line (server-stopped)'
          : 'its last line before a silence while other hosts kept logging, then its boot line with no shutdown hook before it (server-stopped)',
      evidence: f.evidence.map((e) => `${e.file}:${e.line}`),
      detail:
        stop === 'restart'
          ? `started again after ${formatMs(back - f.start)}`
          : `a crash, kill -9, or its host hung or lost power: no peer calls a slave, so the logs cannot tell which; booted again after ${formatMs(back - f.start)}`,
    });
  }
  return out;
}

function groupCauses(causes: Cause[]): Cause[][] {
  const groups: Cause[][] = [];
  let end = -Infinity;
  for (const c of causes) {
    const g = groups[groups.length - 1];
    const sameHost = g?.some((x) => x.host === c.host && (x.end === null || c.start - x.end <= SAME_HOST_JOIN_MS));
    if (g && (sameHost || c.start <= end + JOIN_MS)) g.push(c);
    else groups.push([c]);
    end = Math.max(end, c.end ?? Infinity);
  }
  return groups;
}

// ---- findings ----------------------------------------------------------------------------------

/** A finding follows from an incident when it is about one of its hosts, brokers, NameServers or hurt clients, within its window. */
function belongsTo(f: Finding, inc: Incident, sc: Scenario): boolean {
  const from = inc.start - FINDING_SLACK_MS;
  const to = (inc.end ?? Infinity) + FINDING_SLACK_MS;
  if (f.start !== null && (f.start > to || (f.end ?? f.start) < Math.max(from, inc.start - ENDED_BEFORE_MS))) return false;
  const hosts = new Set(inc.causes.map((c) => c.host));
  const brokers = new Set(inc.causes.flatMap((c) => c.brokers.map((b) => b.name)));
  const addrs = new Set(inc.causes.flatMap((c) => [...c.namesrvAddrs, ...c.brokers.map((b) => b.addr)]));
  const clients = new Set(inc.impact.map((i) => i.client));
  const s = f.subject;
  if (s.host !== undefined && hosts.has(s.host)) return true;
  if (s.broker !== undefined && brokers.has(s.broker)) return true;
  if ((s.brokerAddr !== undefined && addrs.has(s.brokerAddr)) || (s.namesrvAddr !== undefined && addrs.has(s.namesrvAddr))) return true;
  if (s.client !== undefined && clients.has(s.client)) return true;
  if (s.host !== undefined && clients.has(s.host)) return true;
  // A consumer group's backlog whose cause is a broker of the incident (consumer-backlog).
  if (typeof f.metrics.brokerAddr === 'string' && addrs.has(f.metrics.brokerAddr)) return true;
  // A broker that failed to register with a NameServer on a failed host.
  return s.host !== undefined && sc.brokers.some((b) => b.host === s.host) && s.namesrvAddr !== undefined && addrs.has(s.namesrvAddr);
}

// ---- why it lasted ------------------------------------------------------------------------------

type Mine = ReadonlyArray<{ id: string; f: Finding }>;

/** Sends already on their way when the route dropped a broker may fail up to a send's budget later. */
const DROP_SLACK_MS = 10_000;

function lastedBecause(im: Impact, inc: Incident, mine: Mine, milestones: readonly MilestoneTime[], opts: IncidentOptions): string | null {
  const stuck = mine.find((x) => x.f.rule === 'namesrv-stuck' && x.f.subject.client === im.client);
  if (stuck) {
    const ns = String(stuck.f.subject.namesrvAddr);
    const why = stuckOnNamesrvReason(opts.clientVersion(im.client)) ?? 'its timed-out NameServer channel stayed open';
    const until = stuck.f.metrics.switchedTo ? `until it switched to ${String(stuck.f.metrics.switchedTo)}` : 'to the end of the logs';
    // Only a cause that took a broker away makes the stale route hurt; a NameServer alone that hangs
    // leaves routes unchanged, and the client merely learned nothing meanwhile.
    const brokerFailed = inc.causes.some((c) => c.brokers.some((b) => b.role === 'master'));
    return `it kept asking NameServer ${ns}, which did not answer, ${until} (${why}), so ${brokerFailed ? 'its route kept the failed broker' : 'it learned no route change meanwhile'}`;
  }
  // A client whose failed sends all came before any broker went away (a busy reply in the warm-up,
  // then a restart: consumer-5x-restart) did not lose them to a stale route.
  // A slave going away takes nothing from a producer (it never sends to one).
  const away = inc.causes.filter((c) => c.brokers.some((b) => b.role === 'master') && ['hang', 'crash', 'reboot', 'restart', 'shutdown'].includes(c.kind));
  const beforeAway = im.end !== null && away.length > 0 && im.end < Math.min(...away.map((c) => c.start));
  // The route's drop explains the losses only when they began before it (gen-20261220: a client
  // dropped broker-c at its restart and lost sends two minutes later, to an overloaded broker-a).
  const drop = beforeAway ? undefined : milestones.find((m) => m.name === 'route-lost' && m.subject === im.client && (im.start === null || im.start <= m.ts + DROP_SLACK_MS));
  const removal = milestones.filter((m) => m.name === 'namesrv-removal').sort((a, b) => a.ts - b.ts)[0];
  const silent = inc.causes.find((c) => c.kind === 'hang' || c.silentMs !== undefined);
  // Timed from the silent host's own stop: an incident may begin earlier with another cause (gen-599:
  // a partition of the host, then its reboot), and a removal before the stop was not the silence's.
  if (drop && removal && silent && removal.ts >= silent.start) {
    const what = silent.kind === 'hang' ? 'a hung broker keeps' : 'a broker that went dark (a power loss, a frozen host) leaves';
    return `${what} its connections open: the NameServer removed it ${formatMs(removal.ts - silent.start)} after it stopped answering (no registration for 120 s), and the client dropped it at its next route poll`;
  }
  if (drop) return `it sent to the failed broker until its route dropped it (its next route poll after a NameServer removed the broker)`;
  // The busy broker whose episode the client's failures overlap: an overload an hour before says nothing of them.
  const during = (c: Cause): boolean => im.start === null || im.end === null || (c.start <= im.end + BUSY_SLACK_MS && (c.end ?? Infinity) >= im.start - BUSY_SLACK_MS);
  const busy = inc.causes.find((c) => (c.kind === 'overload' || c.kind === 'stall') && during(c));
  if (busy && (beforeAway || !inc.causes.some((c) => c.kind === 'hang' || c.kind === 'crash' || c.kind === 'reboot'))) {
    const noRetry = mine.find((x) => x.f.rule === 'send-no-retry' && x.f.subject.host === im.client);
    return `it lost sends while ${busy.brokers.map((b) => b.name).join(', ')} was busy${noRetry ? ', and it does not retry a busy reply (see send-no-retry)' : ''}`;
  }
  return null;
}

// ---- the chain ----------------------------------------------------------------------------------


/** The cause as a step of the chain: what it did to the others (the cause section says what ran there). */
function causeStep(c: Cause): string {
  const brokers = c.brokers.map((b) => b.name).join(', ');
  const named = c.brokers.map((b) => (b.role === 'slave' ? `${b.name}'s slave` : b.name)).join(', ');
  switch (c.kind) {
    case 'hang':
      return `${c.host} hung: ${c.detail ? 'its processes' : 'it'} stopped answering while its TCP connections stayed open`;
    case 'reboot':
      return `${c.host} rebooted: its old connections were reset${c.detail ? `, and ${c.detail}` : ''}`;
    case 'crash':
      return `${c.host} crashed: its ports closed at once`;
    case 'restart':
      return `${c.host} was shut down: its shutdown hook unregistered ${named || 'it'}${c.detail ? `; ${c.detail}` : ''}`;
    case 'shutdown':
      return `${c.host} was shut down and not started again in these logs`;
    case 'unclean-stop':
      return `${c.host} went away without a shutdown${brokers ? ` (${brokers} slave)` : ''}`;
    case 'overload':
      return `${brokers} overloaded: its send queue stayed full${c.detail ? `, with ${c.detail}` : ''}`;
    case 'stall':
      return `${brokers} stood still${c.detail ? ` (${c.detail})` : ''}`;
    case 'disk-full':
      return `the disk of ${c.host} filled up`;
    case 'partition':
      return `${c.host} was cut off by the network ${c.detail ?? ''}: calls across the cut timed out, with no refusal and no reset`;
    case 'slow-listener':
      return `the listener of ${c.group} slowed ${c.detail ?? `on ${c.host}`}: the consume threads were all taken and the group fell behind`;
    case 'blocked-listener':
      return `the listener of ${c.group} blocked ${c.detail ?? `on ${c.host}`}: its consume threads were all inside calls that did not return, its queues' offsets stood still and the group fell behind`;
    case 'consume-failures':
      return c.simpleConsumer
        ? `the SimpleConsumers of ${c.group} did not acknowledge deliveries ${c.detail ?? `on ${c.host}`}: each came back after its invisible time, through the group's pop retry topic`
        : `the listener of ${c.group} failed deliveries ${c.detail ?? `on ${c.host}`}: each went back to the broker for a later retry`;
    case 'consumer-gone':
      return `the ${c.group} instance on ${c.host} was gone without a shutdown: the broker closed its channel and the others took its queues`;
    case 'consumer-stopped':
      return `the ${c.group} instance on ${c.host} shut down (unregistered): the others took its queues`;
    case 'consumer-joined':
      return `a new ${c.group} instance joined on ${c.host}${c.detail ? ` ${c.detail}` : ''}: every instance rebalanced`;
    case 'offset-reset':
      return `an administrator reset the offsets of ${c.group} (${c.detail ?? c.host})`;
  }
}

/** `NameServer 10.0.0.1:9876`, or `the NameServer on HOST` where its address is not in the logs (a NameServer's own log does not print it). */
function namesrvText(f: Finding): string {
  const addr = f.subject.namesrvAddr ?? (typeof f.metrics.namesrvAddr === 'string' ? f.metrics.namesrvAddr : null);
  if (addr) return `NameServer ${addr}`;
  return f.subject.host ? `the NameServer on ${f.subject.host}` : 'a NameServer (address unknown)';
}

function chainOf(inc: Incident, mine: Mine, milestones: readonly MilestoneTime[]): ChainStep[] {
  const steps: ChainStep[] = [];
  const add = (at: number | null, text: string, evidence: string | null, finding: string | null = null) => steps.push({ at, text, evidence, finding });
  for (const c of inc.causes) {
    if (c.kind === 'reboot' && c.silentMs !== undefined) {
      // A reboot told from its silence: the silence first, the reset when it came.
      add(c.start, `${c.host} stopped answering while its TCP connections stayed open (a power loss, or a frozen host: the logs cannot tell)`, c.evidence[0] ?? null);
      add(c.start + c.silentMs, `${c.host} was back on the network with a new TCP stack: it had rebooted, its old connections were reset`, c.evidence[c.evidence.length - 1] ?? null);
    } else add(c.start, causeStep(c), c.evidence[0] ?? null);
  }
  const from = inc.start - 10000;
  const to = (inc.end ?? Infinity) + IMPACT_AFTER_MS;
  const inWindow = (m: MilestoneTime) => m.ts >= from && m.ts <= to;
  const hurt = new Set(inc.impact.map((i) => i.client));
  for (const im of inc.impact) {
    if (im.start !== null) add(im.start, `${im.client}: first failed send`, milestones.find((m) => m.name === 'first-failure' && m.subject === im.client)?.evidence ?? null);
  }
  for (const { id, f } of mine) {
    const m = f.metrics;
    if (f.rule === 'broker-down-detection') {
      const how =
        m.path === 'close'
          ? 'on its closed connection, at once'
          : m.path === 'unregister'
            ? 'when it unregistered on shutdown'
            : m.path === 'idle'
              ? `when its idle connection timed out (${m.detectMs !== null ? formatMs(Number(m.detectMs)) : '120 s'} without a registration)`
              : `by its scan, ${m.detectMs !== null ? formatMs(Number(m.detectMs)) : '120 s'} after the last registration`;
      // The finding runs from the broker's last registration to the removal.
      const alive =
        m.brokerAlive === true
          ? ', while the broker kept running (its own log shows it)'
          : m.brokerAlive === null && m.namesrvStallMs != null
            ? `, as it ran again after a stall of its own (${formatMs(Number(m.namesrvStallMs))})`
            : '';
      // A slave's removal (one of the incident's causes is that slave) leaves its master in the routes.
      const slave = inc.causes.some((c) => c.brokers.some((b) => b.role === 'slave' && b.addr === f.subject.brokerAddr));
      const whom = f.subject.broker ? `${f.subject.broker}${slave ? "'s slave" : ''}` : (f.subject.brokerAddr ?? 'a broker');
      add(f.end ?? f.start, `${namesrvText(f)} removed ${whom} ${how}${alive}`, lastRef(f), id);
    } else if (f.rule === 'namesrv-stuck') {
      const v = m.clientVersion && m.clientVersion !== 'unknown' ? ` (client ${String(m.clientVersion)})` : '';
      add(f.start, `${f.subject.client ?? f.subject.host ?? 'a client'}${v} kept asking ${namesrvText(f)} for routes: ${plural(Number(m.timeouts), 'poll')} timed out and it did not switch`, ref(f), id);
    } else if (f.rule === 'broker-busy') {
      add(f.start, `${f.subject.broker ?? f.subject.brokerAddr ?? 'a broker'} answered ${plural(Number(m.rejections), 'send')} with [TIMEOUT_CLEAN_QUEUE] broker busy (waits ${String(m.minWaitMs)}-${String(m.maxWaitMs)} ms)`, ref(f), id);
    } else if (f.rule === 'stale-route' && m.withinRoutingBound === false) {
      add(f.end, `${String(f.subject.client)} had sent to ${String(f.subject.broker)} for ${formatMs(Number(m.staleMs))}, ${formatMs(Number(m.staleMs) - Number(m.boundMs))} past the ${formatMs(Number(m.boundMs))} a route takes to drop a hung broker`, ref(f), id);
    } else if (f.rule === 'consumer-backlog' && m.cause === 'broker-fault') {
      add(typeof m.brokerFailedFrom === 'number' ? m.brokerFailedFrom : f.start, consumerBacklogStep(f, inc), lastRef(f), id);
    } else if (f.rule === 'send-no-retry') {
      add(f.start, `${String(f.subject.host)} sends fail after one attempt (${noRetryText(String(m.shape))}): each failure is a lost send`, ref(f), id);
    }
  }
  for (const m of milestones) {
    if (!inWindow(m)) continue;
    if (m.name === 'route-lost' && hurt.has(m.subject)) add(m.ts, `${m.subject}: its route ${m.detail ?? 'dropped the failed broker'} (a route poll)`, m.evidence);
    if (m.name === 'namesrv-switch') add(m.ts, `${m.subject} switched NameServer ${m.detail ?? ''}`.trim(), m.evidence);
    if (m.name === 'route-back' && hurt.has(m.subject)) add(m.ts, `${m.subject}: its route ${m.detail ?? 'regained the broker'}`, m.evidence);
  }
  for (const im of inc.impact) {
    if (im.end !== null && im.end !== im.start) add(im.end, `${im.client}: last failed send`, milestones.find((m) => m.name === 'outage-end' && m.subject === im.client)?.evidence ?? null);
  }
  // A cause leads the steps of its own second (server logs print whole seconds).
  const key = (x: ChainStep) => (x.at ?? Infinity) - (x.finding === null && inc.causes.some((c) => c.start === x.at) ? 1000 : 0);
  steps.sort((a, b) => key(a) - key(b));
  if (steps.length <= MAX_STEPS) return steps;
  // Keep the causes and the first steps; the findings tell the rest.
  return steps.slice(0, MAX_STEPS);
}

/** A consumer group's backlog from a broker of the incident: how long its orderly queues stayed unlocked after the broker was back. */
function consumerBacklogStep(f: Finding, inc: Incident): string {
  const group = /^Group (\S+):/.exec(f.title)?.[1] ?? 'a consumer group';
  const addr = String(f.metrics.brokerAddr);
  const back = inc.causes.find((c) => c.end !== null && c.brokers.some((b) => b.addr === addr))?.end ?? null;
  const until = typeof f.metrics.notLockedUntil === 'number' ? f.metrics.notLockedUntil : null;
  const locks = until !== null ? `; its orderly queues stayed unlocked${back !== null && until > back ? ` until ${formatMs(until - back)} after the broker was back` : ''} (the lock is taken again at a rebalance, every 20 s)` : '';
  return `${group} fell behind: its instances' calls to ${addr} failed${locks}`;
}

function noRetryText(shape: string): string {
  if (shape === 'selector') return 'a MessageQueueSelector: sendSelectImpl makes one attempt';
  if (shape === 'queue') return 'sent to one MessageQueue: one attempt';
  if (shape === 'not-retried-code') return 'a response code the client does not retry';
  return 'retries disabled';
}

const ref = (f: Finding): string | null => (f.evidence[0] ? `${f.evidence[0].file}:${f.evidence[0].line}` : null);
const lastRef = (f: Finding): string | null => {
  const e = f.evidence[f.evidence.length - 1];
  return e ? `${e.file}:${e.line}` : null;
};

// ---- advice and title ---------------------------------------------------------------------------

function adviceOf(inc: Incident, mine: Mine, opts: IncidentOptions): string[] {
  const out: string[] = [];
  const said: Array<Set<string>> = [];
  const add = (a: string) => {
    // Two rules often give the same advice in other words: what names nothing new is left out.
    const names = adviceNames(a);
    if (out.includes(a) || (names.size && said.some((s) => [...names].every((n) => s.has(n))))) return;
    out.push(a);
    said.push(names);
  };
  for (const c of inc.causes) {
    if (c.kind === 'hang') add(`Find out why ${c.host} froze (kernel and hypervisor logs, memory, disk, long GC pauses): a host that hangs with its connections open is the slowest failure for RocketMQ to notice.`);
    if (c.kind === 'partition') add(`Check the network between ${c.host} and ${c.peers?.join(', ') ?? 'its peers'} (firewall and security-group rules, iptables/nftables, switches, routes): ${c.host} kept running, so restarting it does not mend the cut.`);
    if (c.kind === 'crash') add(`Find out why the processes on ${c.host} died (kill -9, OOM killer, JVM crash files hs_err_pid*.log).`);
    if ((c.kind === 'hang' || c.kind === 'crash' || c.kind === 'reboot') && c.namesrvAddrs.length && c.brokers.length) {
      add(`Run the NameServers on hosts of their own: ${c.host} took NameServer ${c.namesrvAddrs.join(', ')} and ${c.brokers.map((b) => b.name).join(', ')} down together, and clients bound to that NameServer could not learn that the broker was gone.`);
    }
  }
  for (const { f } of mine) if (f.rule === 'namesrv-stuck') add(closeTimedOutChannelAdvice(opts.clientVersion(String(f.subject.client)), String(f.subject.client)));
  const topics = (f: Finding): Array<AdviceTopic | null> => f.adviceTopics ?? f.advice.map(() => null);
  // The fault strategy's advice as the findings word it: with its premise (the setting seen off, or
  // assumed) and the avoidance of the client's version. One is enough: the first that saw it off.
  const latency = mine.flatMap(({ f }) => topics(f).flatMap((t, i) => (t === 'latency-fault' ? [f.advice[i]] : [])));
  if (latency.length) add(latency.find((a) => a.startsWith('Enable ')) ?? latency[0]);
  // The rest of what the findings advise, once each. Advice with a topic is what the items above
  // say in the incident's own words (why each cause's host failed, where NameServers run, the
  // client version, the fault strategy), or looks for a cause the incident has already named (the
  // NameServer a broker could not register with): it is left out.
  const rules = new Set(mine.map(({ f }) => f.rule));
  for (const { f } of mine) {
    const t = topics(f);
    f.advice.forEach((a, i) => {
      if (t[i] === null && !pointsInside(a, rules)) add(a);
    });
  }
  return out.slice(0, 8);
}

/** Advice that only points at other rules' findings (`Fix the cause (see broker-busy)`) when one is in the incident. */
function pointsInside(a: string, rules: ReadonlySet<string>): boolean {
  const see = /\s*\(see ([\w-]+(?: \/ [\w-]+)*)\)\.?$/.exec(a);
  return see !== null && see[1].split(' / ').some((r) => rules.has(r));
}

/**
 * The technical names an advice turns on: identifiers (`MQBrokerException`, `sendLatencyFaultEnable`,
 * `-Dcom.rocketmq...`), response codes and versions. Advice whose names another advice already gave
 * says nothing new.
 */
export function adviceNames(a: string): Set<string> {
  const out = new Set<string>();
  for (const m of a.matchAll(/-D[\w.]+|\b[a-z]+[A-Z]\w*|\b[A-Z][a-z]+[A-Z]\w*|\b[A-Z]{2,}[a-z]\w*|\b[A-Z]{2,}[A-Z_]*\b|\bcode \d+|\b\d+\.\d+\.\d+\b/g)) out.add(m[0]);
  return out;
}

function titleOf(inc: Incident): string {
  // `broker-b overloaded, then stalled`: the brokers once.
  const brokersOf = (c: Cause, i: number) => {
    const names = c.brokers.map((b) => b.name).join(', ');
    const before = i > 0 ? inc.causes[i - 1].brokers.map((b) => b.name).join(', ') : null;
    return names === before ? '' : `${names} `;
  };
  const parts = inc.causes.map((c, i) => {
    const dur = c.end !== null ? ` for ${formatMs(c.end - c.start)}` : '';
    // `mq-node-a hung for 5 min, then rebooted`: the host once.
    const who = i > 0 && inc.causes[i - 1].host === c.host ? '' : `${c.host} `;
    switch (c.kind) {
      case 'hang':
        return `${who}hung${dur}${c.namesrvAddrs.length || c.brokers.length ? ` (${onHostShort(c)})` : ''}`;
      case 'reboot':
        return c.silentMs !== undefined
          ? `${who}went dark for ${formatMs(c.silentMs)}${c.namesrvAddrs.length || c.brokers.length ? ` (${onHostShort(c)})` : ''}, then rebooted`
          : `${who}rebooted`;
      case 'crash':
        return `${c.host} crashed${c.brokers.length ? ` (${onHostShort(c)})` : ''}${c.end !== null ? `, back after ${formatMs(c.end - c.start)}` : ''}`;
      case 'restart':
        return `${c.host} restarted${c.brokers.length ? ` (${onHostShort(c)})` : ''}`;
      case 'shutdown':
        return `${c.host} shut down`;
      case 'unclean-stop':
        return `${c.host} went away without a shutdown${c.brokers.length ? ` (${onHostShort(c)})` : ''}${c.end !== null ? `, back after ${formatMs(c.end - c.start)}` : ''}`;
      case 'overload':
        return `${brokersOf(c, i)}overloaded${dur}`;
      case 'stall':
        return `${brokersOf(c, i)}stalled`;
      case 'disk-full':
        return `disk full on ${c.host}`;
      case 'partition':
        return `${who}cut off by the network${dur}`;
      case 'slow-listener':
        return `${c.group} listener slow${dur} (${c.host})`;
      case 'blocked-listener':
        return `${c.group} listener blocked${dur} (${c.host})`;
      case 'consume-failures':
        return `${c.group} consume failures${dur} (${c.host})`;
      case 'consumer-gone':
        return `${c.group} instance on ${c.host} gone${c.end !== null ? `, back after ${formatMs(c.end - c.start)}` : ''}`;
      case 'consumer-stopped':
        return `${c.group} instance on ${c.host} stopped${c.end !== null ? `, back after ${formatMs(c.end - c.start)}` : ''}`;
      case 'consumer-joined':
        return `${c.group} instance joined on ${c.host}`;
      case 'offset-reset':
        return `${c.group} offsets reset`;
    }
  });
  // Lost sends as the applications counted them; clients without an application log show failed attempts.
  const hurt = inc.impact.filter((i) => i.failedSends > 0 && i.source === 'app');
  const lost = hurt.reduce((n, i) => n + i.failedSends, 0);
  const tried = inc.impact.filter((i) => i.failedSends > 0 && i.source === 'client');
  const attempts = tried.reduce((n, i) => n + i.failedSends, 0);
  const impact = [
    hurt.length ? `${plural(hurt.length, 'client')} lost ${plural(lost, 'send')}` : '',
    tried.length ? `${plural(attempts, 'failed attempt')} on ${plural(tried.length, 'client')} without an application log` : '',
  ].filter(Boolean);
  return `${parts.join(', then ')}${impact.length ? `: ${impact.join('; ')}` : ''}`;
}

function onHostShort(c: Cause): string {
  const ns = c.namesrvAddrs.length ? [c.namesrvAddrs.length === 1 ? 'a NameServer' : `${c.namesrvAddrs.length} NameServers`] : [];
  return `${[...ns, ...c.brokers.map((b) => (b.role === 'slave' ? `${b.name} slave` : b.name))].join(' and ')} on it`;
}
