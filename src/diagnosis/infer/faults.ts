// The fault schedule: a server host's silence while others kept logging is a hang or a crash, and
// its end a reboot or a return; busy replies are an overload or stalls of their broker; the store's
// disk-full marks (or the clients' code-14 replies) a full disk. Faults are recorded in time order.

import { serverProfile, type Fault, type LoggedSend, type ScenarioBroker, type ScenarioClient, type ScenarioNameServer, type ScenarioTopic } from '../../model/index.js';
import { formatIso } from '../../parse/time.js';
import { brokerVipAddr, BUSY_STALL_MARGIN_MS, FAST_FAILURE, TIMEOUTS } from '../../rocketmq/facts.js';
import type { RmqEvent } from '../../parse/types.js';
import type { Silence } from '../collect.js';
import { fileRef, ipOf, modelled, round2, split, type InferContext } from './context.js';
import { formatMs } from '../../util/durations.js';
import { plural } from '../../util/text.js';
import { isConnectTimeout } from '../../rules/routing.js';
import type { HostsResult } from './hosts.js';

/** Defaults of the model (docs/model.md) that inference states when the logs are silent. */
const DEFAULT_BOOT = { namesrvMs: 12000, brokerMs: 25000 };
/** A busy reply that waited more than waitTimeMillsInSendQueue + this was held by a stall. */
const STALL_MARGIN_MS = BUSY_STALL_MARGIN_MS;
/** How much longer the oldest queued request waited than the stall lasted: the model answers it when the stall ends (a real broker adds up to its 10 ms cleaner tick). */
const STALL_EXTRA_MS = 0;
/** A connect that fails within this (NettyClientConfig.connectTimeoutMillis, 3 s, and a second of logging) did not complete. */
const CONNECT_FAILS_WITHIN_MS = 4000;
/** A connect failure this close to the same host's connect timeout to the same address is that timeout (whole-second 4.x broker lines). */
const CONNECT_TIMEOUT_SAME_MS = 1500;
/** Busy replies closer than this came from one BrokerFastFailure pass (it answers a whole run of expired heads at once). */
const RELEASE_GAP_MS = 50;
/**
 * A broker whose watermark printed every second this long with its send queue's head over half the
 * limit ran and could not keep up: an overload, whatever its busy replies waited (a stall stops the
 * watermark's thread too, and a stall's backlog clears within a second or two of it; gen-708: 35 s
 * of such seconds under a CPU quota, every busy reply 1.2-2.8 s).
 */
const SUSTAINED_MS = 10000;
/** A shutdown hook this long before a silence starts is that silence's start (silenceEvidence). */
const SHUTDOWN_BEFORE_SILENCE_MS = 10000;
/** A boot this soon after a shutdown hook makes the two a restart. */
const RESTART_BOOT_WITHIN_MS = 5 * 60_000;
/** Watermark seconds this close are one run (the watermark prints every second; a busy second may print late). */
const WATERMARK_GAP_MS = 3000;
/** An overload's watermark seconds over half the limit this far apart are one overload (a starved broker drains its queue between). */
const OVERLOAD_JOIN_MS = 8000;
/** Watermark seconds over the limit itself that an overload no busy reply shows needs (markedOverloads). */
const MARKS_OVER_MIN = 3;
/** Busy replies of a broker this close to a watermark run make it their episode's (busyFaults). */
const BUSY_NEAR_MS = 30_000;

/** What the faults are read against: the earlier stages' results. */
interface FaultsInput {
  hosts: Pick<HostsResult, 'nameOfBrokerAddr'>;
  serverVersion: string;
  nameServers: ScenarioNameServer[];
  brokers: ScenarioBroker[];
  topics: ScenarioTopic[];
  clients: ScenarioClient[];
}

/** A fault with its provenance, recorded once the faults are in time order. */
interface Pending {
  fault: Fault;
  rule: string;
  evidence: Array<RmqEvent | null | undefined>;
  defaults: Array<[string, string]>;
  /** The logged sends a stall held (its only witnesses): each client's loggedSends. */
  held?: Array<{ host: string; send: LoggedSend; e: RmqEvent }>;
}

type Boot = NonNullable<Extract<Fault, { state: string }>['boot']>;

/** Every fault, in time order, with its provenance (`scenario.faults[i]`) and defaults recorded. */
export function inferFaults(ctx: InferContext, input: FaultsInput): Fault[] {
  const pending: Pending[] = [...silenceFaults(ctx, input), ...restartFaults(ctx, input), ...busyFaults(ctx, input), ...diskFullFaults(ctx, input), ...partitionFaults(ctx, input)];
  pending.sort((a, b) => a.fault.atMs - b.fault.atMs);
  heldSends(ctx, input.clients, pending.flatMap((x) => x.held ?? []));
  return pending.map((x, i) => {
    ctx.prov(`scenario.faults[${i}]`, x.rule, x.evidence);
    for (const [k, v] of x.defaults) ctx.def(`scenario.faults[${i}].${k}`, v);
    return x.fault;
  });
}

/**
 * A stall is seen only through the sends it held: the stall's length comes from their waits, and
 * whether a simulated send meets it is chance (a client sends a few a second, the stall holds what
 * arrived in the last fraction of a second before it). The sends whose busy replies a stall held
 * are made as the logs show them: when the broker read each (its reply's time less its wait in the
 * send queue; BrokerFastFailure measures from the stamp NettyRemotingAbstract gives a request it
 * reads), to the broker that answered, beside the sends of the client's rate. A client whose every
 * send the application logged (sendTimesMs) makes them already.
 */
function heldSends(ctx: InferContext, clients: ScenarioClient[], held: Array<{ host: string; send: LoggedSend; e: RmqEvent }>): void {
  clients.forEach((c, i) => {
    const mine = held.filter((h) => h.host === c.host).sort((a, b) => a.send.atMs - b.send.atMs);
    if (!mine.length || c.sendTimesMs) return;
    c.loggedSends = mine.map((h) => h.send);
    ctx.prov(
      `scenario.clients[${i}].loggedSends`,
      `${mine.length === 1 ? 'the send' : `the ${mine.length} sends`} whose busy replies a stall held (waits over waitTimeMillsInSendQueue + ${STALL_MARGIN_MS} ms, or a lone reply with nothing queued behind it), made when the broker read each (the reply's time less its wait) to the broker that answered, beside the sends of the rate: a stall is seen only through the sends it held`,
      mine.map((h) => h.e),
    );
  });
}

// ---- silences -----------------------------------------------------------------------------------

function silenceFaults(ctx: InferContext, input: FaultsInput): Pending[] {
  const out: Pending[] = [];
  for (const s of [...ctx.c.silences].sort((a, b) => a.from.ts! - b.from.ts! || a.host.localeCompare(b.host))) {
    if (s.othersLogged === 0) continue;
    out.push(...silenceFault(ctx, input, s));
  }
  return out;
}

/**
 * A host that logs at least every 5 s: its silence starts right after its last line. Only watermark
 * lines are written on a clock (SCHEDULED_LOGS: a broker's printWaterMark, and a 5.x NameServer's in
 * namesrv_default.log, every second); a 4.x NameServer logs in bursts (its boot, registrations of
 * new brokers) and may say nothing for minutes while it runs, however many lines it wrote in all.
 */
function regular(ctx: InferContext, h: string): boolean {
  const l = ctx.c.serverLines.get(h);
  return l !== undefined && ctx.c.clocked.has(h) && l.count / Math.max(1, (l.last - l.first) / 1000) >= 0.2;
}

/** What peers logged against a silent host's addresses. */
interface SilenceEvidence {
  /** Requests to it that timed out during the silence: it hung. */
  timeouts: RmqEvent[];
  /** Its shutdown hook just before the silence. */
  shutdown: RmqEvent | undefined;
  /** Refused connections and destroyed channels at its start: its ports closed. */
  refused: RmqEvent[];
  /** Connections it reset: its new TCP stack answering old connections after a reboot. */
  resets: RmqEvent[];
  /** Its servers' boot lines after the silence. */
  boots: RmqEvent[];
  /** Its NameServers' and brokers' addresses. */
  addrs: Set<string>;
}

/** Whether `e` is another host's line within the silence (up to `slack` ms after it). */
type InGap = (e: RmqEvent, slack?: number) => boolean;

function silenceEvidence(ctx: InferContext, input: FaultsInput, s: Silence, inGap: InGap): SilenceEvidence {
  const { events, coarse } = ctx;
  const h = s.host;
  const addrs = addrsOn(input, h);
  const names = brokersOn(input, h);
  const fromTs = s.from.ts!;
  // MQClientInstance (`send heart beat to broker[...] failed`) and BrokerOuterAPI (`registerBroker
  // Exception, addr`) log any exception, printed under the line: a RemotingConnectException there
  // (a connect failure on the record's next line) is a refused connection, not a timeout.
  // RemotingConnectException (`connect to X failed`) is thrown for a connect that timed out too
  // (NettyRemotingClient.createChannel waits connectTimeoutMillis, then logs `createChannel: connect
  // remote host[X] timeout 3000ms` in remoting.log): such a failure is no refusal (gen-20270101: a
  // slave cut off from a NameServer read as the NameServer's ports closed).
  const connectTimeouts = new Map<string, number[]>();
  for (const e of events) {
    if (e.type !== 'connect-failed' || !connectTimedOut(e) || e.ts === null) continue;
    for (const a of (e.fields.addrs as string[]) ?? []) {
      const list = connectTimeouts.get(`${e.host}|${a}`) ?? [];
      list.push(e.ts);
      connectTimeouts.set(`${e.host}|${a}`, list);
    }
  }
  const timedOut = (e: RmqEvent) => e.ts !== null && ((e.fields.addrs as string[]) ?? []).some((a) => (connectTimeouts.get(`${e.host}|${a}`) ?? []).some((t) => Math.abs(t - e.ts!) <= CONNECT_TIMEOUT_SAME_MS));
  const refusedRecords = new Set(events.filter((e) => e.type === 'connect-failed' && e.host !== h && !timedOut(e)).map((e) => `${e.file}|${e.line - 1}`));
  const refusedRecord = (e: RmqEvent) => refusedRecords.has(`${e.file}|${e.line}`);
  const timeouts = events.filter(
    (e) =>
      inGap(e, 0) &&
      ((e.type === 'rpc-timeout' && addrs.has(String(e.fields.addr))) ||
        (e.type === 'route-update-failed' && e.entry === 'route-update-failed/exception' && addrs.has(String(e.fields.addr)) && /Timeout/.test(String(e.fields.cause))) ||
        (e.type === 'send-attempt-failed' && names.has(String(e.fields.brokerName)) && (e.fields.rtMs as number) >= 1000) ||
        (e.type === 'heartbeat-failed' && addrs.has(String(e.fields.brokerAddr)) && !refusedRecord(e)) ||
        (e.type === 'register-failed' && addrs.has(String(e.fields.namesrvAddr)) && !refusedRecord(e))),
  );
  const shutdown = events.find((e) => e.type === 'shutdown' && e.host === h && e.ts !== null && e.ts >= fromTs - SHUTDOWN_BEFORE_SILENCE_MS && e.ts <= fromTs);
  // A whole-second line of the silence's first second may be later than the host's last line.
  const refused = events.filter(
    (e) =>
      (inGap(e, 0) || (e.host !== h && e.ts === fromTs && coarse(e))) &&
      e.ts! <= fromTs + 15000 &&
      ((e.type === 'connect-failed' && ((e.fields.addrs as string[]) ?? []).some((a) => addrs.has(a)) && !connectTimedOut(e) && !timedOut(e)) ||
        (e.type === 'broker-removed' && e.fields.reason !== 'remove' && (names.has(String(e.fields.brokerName)) || addrs.has(String(e.fields.brokerAddr))))),
  );
  const resets = events.filter((e) => inGap(e) && e.type === 'pipeline' && e.fields.event === 'exception' && addrs.has(String(e.fields.addr)));
  const boots = s.to ? events.filter((e) => e.type === 'startup' && e.host === h && e.ts !== null && e.ts >= s.to!.ts! && e.ts <= s.to!.ts! + 120000 && (e.fields.role === 'broker' || e.fields.role === 'namesrv')) : [];
  return { timeouts, shutdown, refused, resets, boots, addrs };
}

/** A connect that timed out, by its entry (the kept events' text may be cut) or its text (routing's reading). */
const connectTimedOut = (e: RmqEvent): boolean => e.entry === 'connect-failed/create-channel-timeout' || isConnectTimeout(e);

const addrsOn = (input: FaultsInput, h: string): Set<string> =>
  new Set([...input.nameServers.filter((n) => n.host === h).map((n) => n.addr), ...input.brokers.filter((b) => b.host === h).map((b) => b.addr)]);
const brokersOn = (input: FaultsInput, h: string): Set<string> => new Set(input.brokers.filter((b) => b.host === h).map((b) => b.name));

/** The fault a silence starts (hung or down) and, if it ended in the logs, the one that ends it. */
function silenceFault(ctx: InferContext, input: FaultsInput, s: Silence): Pending[] {
  const h = s.host;
  if (!addrsOn(input, h).size) return [];
  const fromTs = s.from.ts!;
  const endTs = s.to ? s.to.ts! : ctx.last;
  const inGap: InGap = (e, slack = 5000) => e.host !== h && e.ts !== null && e.ts > fromTs && e.ts <= endTs + slack;
  const ev = silenceEvidence(ctx, input, s, inGap);
  const start = silenceStart(ctx, s, ev, endTs);
  if (!start) return [];
  const { state, startTs, startEvidence } = start;
  // A frozen OS leaves new connects unanswered (`connect ... timeout`); stopped processes on a live
  // OS let them complete (peers reconnect, as 4.9.1+ clients do after closing a timed-out channel,
  // and 5.0.0-5.2.0 clients' name server scan every 3 s).
  const reconnected = state === 'hung' ? reconnectedDuring(ctx, addrsOn(input, h), inGap, Math.max(startTs, start.unansweredFrom ?? startTs)) : undefined;
  if (reconnected) startEvidence.push(reconnected);
  const processesOnly = reconnected !== undefined;
  const lastLine = `the last line ${h} wrote before ${Math.round((endTs - fromTs) / 1000)} s of silence while other hosts kept logging`;
  const out: Pending[] = [];
  out.push({
    // A shutdown hook (SIGTERM) persisted the broker's consumer offsets; a stop without one lost what was committed since its last persist.
    fault: { atMs: ctx.rel(startTs), host: h, state, ...(processesOnly ? { processesOnly } : {}), ...(state === 'down' && ev.shutdown ? { graceful: true } : {}) },
    defaults: [],
    rule:
      state === 'hung'
        ? `${lastLine}; peers timed out against its addresses (${ev.timeouts.length} timeouts)${processesOnly ? '; new connections to it still completed, so only its processes froze' : ''}`
        : ev.shutdown
          ? `the shutdown hook, then ${Math.round((endTs - fromTs) / 1000)} s of silence`
          : `${lastLine}; peers found its ports closed (refused connections, destroyed channels)${start.answeredAt ? `; it answered a broker's registration at ${formatIso(start.answeredAt.ts!, ctx.outZone).slice(11, 19)}, after its last line, so it went down after that` : ''}`,
    evidence: startEvidence,
  });
  if (!s.to) return out;
  out.push(returnFault(ctx, input, s, state, startTs, ev));
  return out;
}

/**
 * down: a shutdown hook, or refused connections and no timeout (its start: the hook, or the first
 * refusal). hung: timeouts (its start: right after the last line of a regular logger, else the
 * earliest timed-out request's send). null: no peer evidence (noted for a regular logger).
 */
function silenceStart(
  ctx: InferContext,
  s: Silence,
  ev: SilenceEvidence,
  endTs: number,
): { state: 'hung' | 'down'; startTs: number; startEvidence: RmqEvent[]; unansweredFrom?: number; answeredAt?: RmqEvent } | null {
  const { when, latest } = ctx;
  const h = s.host;
  const fromTs = s.from.ts!;
  const startEvidence: RmqEvent[] = [s.from];
  const { shutdown, refused, timeouts } = ev;
  if (shutdown || (refused.length && !timeouts.length)) {
    startEvidence.push(...(shutdown ? [shutdown] : refused.slice(0, 2)));
    // It went down between its last line and the first refusal: halfway, so that the estimate is
    // off by at most half that gap (a broker's watermark.log leaves a second or two, a NameServer,
    // which prints every 10 s and is called every 30 s by each broker and client, more).
    const firstRefusal = Math.min(...refused.map((e) => when(e)));
    // A broker's registration it answered after its last line says it was still up then
    // (BrokerOuterAPI logs `register broker ... OK` on the answer): a NameServer prints every 10 s
    // at most, and a crash seconds after its last line is placed from the brokers' calls.
    const answered = [...ev.addrs].map((a) => s.registeredAfter.get(a)).filter((e): e is RmqEvent => !!e && e.ts! < firstRefusal);
    const lastAnswer = answered.length ? answered.reduce((a, b) => (b.ts! > a.ts! ? b : a)) : null;
    const lastPlus = Math.max(latest(s.from) + 1, lastAnswer ? lastAnswer.ts! : -Infinity);
    if (lastAnswer && !shutdown) startEvidence.push(lastAnswer);
    const answeredAt = lastAnswer && !shutdown && lastAnswer.ts! > latest(s.from) ? lastAnswer : undefined;
    const downAt = shutdown ? when(shutdown) : firstRefusal <= lastPlus ? firstRefusal : Math.round((lastPlus + firstRefusal) / 2);
    return { state: 'down', startTs: downAt, startEvidence, ...(answeredAt ? { answeredAt } : {}) };
  }
  // A host that logs on no clock (a 4.x NameServer) is silent while it runs: its silence says nothing,
  // and one peer's timeouts are as well a cut between the two (gen-20270101: a slave cut off from a
  // NameServer that answered everyone else). Two peers or more are needed.
  const peers = new Set(timeouts.map((e) => e.host));
  if (timeouts.length && !regular(ctx, h) && peers.size < 2) {
    ctx.notes.push(`${h} was silent from ${formatIso(fromTs, ctx.outZone)} for ${Math.round((endTs - fromTs) / 1000)} s and only ${[...peers][0]} timed out against it (its logs keep no clock, and one peer's timeouts may be a cut between the two): not replayed as a hang`);
    return null;
  }
  if (timeouts.length) {
    const lastPlus = ctx.coarse(s.from) ? s.from.ts! + 1000 : s.from.ts! + 1;
    const starts = timeouts
      .map((e) => {
        const took = e.type === 'rpc-timeout' ? (e.fields.timeoutMs as number | null) : e.type === 'send-attempt-failed' ? (e.fields.rtMs as number) : null;
        return took ? latest(e) - took : null;
      })
      .filter((x): x is number => x !== null);
    const evStart = starts.length ? Math.min(...starts) : null;
    let startTs = regular(ctx, h) ? Math.min(lastPlus, evStart ?? Infinity) : (evStart ?? lastPlus);
    startTs = Math.max(startTs, s.from.ts! + 1);
    startEvidence.push(timeouts[0]);
    // From the earliest timed-out request's send on, it certainly did not answer: only a connection
    // opened after that says how it failed (one opened before, while it still ran, says nothing).
    return { state: 'hung', startTs, startEvidence, ...(evStart !== null ? { unansweredFrom: evStart } : {}) };
  }
  if (regular(ctx, h)) {
    ctx.notes.push(`${h} was silent from ${formatIso(fromTs, ctx.outZone)} for ${Math.round((endTs - fromTs) / 1000)} s, but no peer logged a timeout or a refused connection against it: not replayed`);
  }
  return null;
}

/**
 * A connection a peer opened to the hung host a second or more into the hang, with no connect
 * timing out before it: only the host's processes froze. Connects that time out after one completed
 * are the host going down for its reboot (its link is down), not the hang.
 */
function reconnectedDuring(ctx: InferContext, addrs: Set<string>, inGap: InGap, startTs: number): RmqEvent | undefined {
  const { events } = ctx;
  // NettyRemotingClient logs `NETTY CLIENT PIPELINE: CONNECT` as it starts to connect: a connect
  // that failed soon after (refused by a host back on the network with nothing listening, or timed
  // out) did not complete.
  const failedSoon = (c: RmqEvent) =>
    events.some(
      (e) => e.type === 'connect-failed' && e.host === c.host && e.ts !== null && e.ts >= c.ts! && e.ts <= c.ts! + CONNECT_FAILS_WITHIN_MS && ((e.fields.addrs as string[]) ?? []).includes(String(c.fields.addr)),
    );
  const reconnected = events.find(
    (e) => inGap(e, 0) && e.ts! > startTs + 1000 && e.type === 'pipeline' && e.fields.side === 'client' && e.fields.event === 'connect' && addrs.has(String(e.fields.addr)) && !failedSoon(e),
  );
  const connectTimeouts = events.some(
    (e) =>
      inGap(e, 0) &&
      (reconnected === undefined || e.ts! < reconnected.ts!) &&
      e.type === 'connect-failed' &&
      e.entry === 'connect-failed/create-channel-timeout' &&
      ((e.fields.addrs as string[]) ?? []).some((a) => addrs.has(a)),
  );
  return reconnected && !connectTimeouts ? reconnected : undefined;
}

/**
 * How the silence ended: a hung host that reset connections rebooted then (boot delays from its
 * boot lines); boot lines alone place a reboot (after a hang) or the processes' return (after a
 * crash); lines again without a boot: it resumed.
 */
function returnFault(ctx: InferContext, input: FaultsInput, s: Silence, state: 'hung' | 'down', startTs: number, ev: SilenceEvidence): Pending {
  const { when, rel } = ctx;
  const h = s.host;
  const { resets, boots } = ev;
  const bootOf = (role: string) => boots.find((e) => e.fields.role === role);
  const nsBoot = bootOf('namesrv');
  const brBoot = bootOf('broker');
  const hasNs = input.nameServers.some((n) => n.host === h);
  const hasBroker = input.brokers.some((b) => b.host === h);
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
    return {
      fault: { atMs: rel(at), host: h, state: 'reboot', boot },
      rule: 'the first connection reset by the host (its new TCP stack answers old connections with RST); boot delays from its boot lines',
      evidence,
      defaults: defs,
    };
  }
  if (boots.length && state === 'hung') {
    const delays = boots.map((e) => when(e) - (e.fields.role === 'namesrv' ? DEFAULT_BOOT.namesrvMs : DEFAULT_BOOT.brokerMs));
    const at = Math.max(startTs + 1, Math.min(...delays));
    const boot: Boot = {};
    if (nsBoot) boot.namesrvMs = Math.round(when(nsBoot) - at);
    if (brBoot) boot.brokerMs = Math.round(when(brBoot) - at);
    return {
      fault: { atMs: rel(at), host: h, state: 'reboot', boot },
      rule: 'boot lines after the silence and no connection reset seen: the reboot is placed the default boot delay before them',
      evidence: boots,
      defaults: [],
    };
  }
  if (boots.length) return upFault(ctx, h, boots, 'the processes’ boot lines after the silence');
  return {
    fault: { atMs: rel(when(s.to!)), host: h, state: 'up' },
    rule: `the first line ${h} wrote after the silence (no boot line: it resumed)`,
    evidence: [s.to],
    defaults: [],
  };
}

/** The processes of host `h` back up: at their first boot line, each process's delay after it. */
function upFault(ctx: InferContext, h: string, boots: RmqEvent[], rule: string): Pending {
  const at = ctx.when(boots[0]);
  const nsBoot = boots.find((e) => e.fields.role === 'namesrv');
  const brBoot = boots.find((e) => e.fields.role === 'broker');
  const boot: Boot = { namesrvMs: 0, brokerMs: 0 };
  if (nsBoot) boot.namesrvMs = Math.max(0, Math.round(ctx.when(nsBoot) - at));
  if (brBoot) boot.brokerMs = Math.max(0, Math.round(ctx.when(brBoot) - at));
  return { fault: { atMs: ctx.rel(at), host: h, state: 'up', boot }, rule, evidence: boots, defaults: [] };
}

// ---- restarts shorter than a silence -------------------------------------------------------------

/**
 * A planned restart too short to leave a silence (collect.ts: 30 s): a server's shutdown hook
 * (`Shutdown hook was invoked`: the JVM hook BrokerStartup and NamesrvStartup register), then a
 * boot line of the same host within RESTART_BOOT_WITHIN_MS. A shutdown the logs show no boot after
 * is not named (the logs may end with an operator's stop); one a silence starts with is the
 * silence's (silenceFault).
 */
function restartFaults(ctx: InferContext, input: FaultsInput): Pending[] {
  const { when } = ctx;
  const out: Pending[] = [];
  const hosts = [...new Set([...input.nameServers.map((n) => n.host), ...input.brokers.map((b) => b.host)])].sort();
  for (const h of hosts) {
    const own = ctx.events.filter((e) => e.host === h && e.ts !== null && (e.type === 'shutdown' || (e.type === 'startup' && (e.fields.role === 'broker' || e.fields.role === 'namesrv'))));
    let until = -Infinity;
    for (const hook of own) {
      if (hook.type !== 'shutdown' || when(hook) <= until) continue;
      if (ctx.c.silences.some((s) => s.host === h && s.from.ts! >= hook.ts! && s.from.ts! <= hook.ts! + SHUTDOWN_BEFORE_SILENCE_MS)) continue;
      const boots = own.filter((e) => e.type === 'startup' && e.ts! > hook.ts! && e.ts! <= hook.ts! + RESTART_BOOT_WITHIN_MS);
      if (!boots.length) continue;
      // One boot per process: the first of each role after the hook, in time order.
      const firsts = ['namesrv', 'broker']
        .map((r) => boots.find((e) => e.fields.role === r))
        .filter((e): e is RmqEvent => e !== undefined)
        .sort((a, b) => when(a) - when(b));
      until = Math.max(...firsts.map((e) => when(e)));
      // A fault stops the whole host (the model's): every server process on it must have run its
      // hook, or only one of them restarted (a broker beside a NameServer that kept running).
      const hooked = new Set(own.filter((e) => e.type === 'shutdown' && e.ts! >= hook.ts! && e.ts! < firsts[0].ts!).map((e) => e.fields.role));
      const runs = [...(input.nameServers.some((n) => n.host === h) ? ['namesrv'] : []), ...(input.brokers.some((b) => b.host === h) ? ['broker'] : [])];
      if (!runs.every((r) => hooked.has(r))) continue;
      out.push({
        fault: { atMs: ctx.rel(when(hook)), host: h, state: 'down', graceful: true },
        rule: `the shutdown hook, then its boot ${Math.round((when(firsts[0]) - when(hook)) / 1000)} s later`,
        evidence: [hook],
        defaults: [],
      });
      out.push(upFault(ctx, h, firsts, 'the processes’ boot lines after the shutdown'));
    }
  }
  return out;
}

// ---- busy replies -------------------------------------------------------------------------------

/**
 * Busy replies (BrokerFastFailure's `[TIMEOUT_CLEAN_QUEUE]broker busy`): per broker, episodes at
 * gaps over 30 s; steady waits near waitTimeMillsInSendQueue are an overload, longer ones a stall
 * of the whole broker.
 */
function busyFaults(ctx: InferContext, input: FaultsInput): Pending[] {
  const out: Pending[] = [];
  const replies = busyRepliesByBroker(ctx, input);
  out.push(...markedOverloads(ctx, input, replies));
  for (const name of [...replies.keys()].sort()) {
    const b = input.brokers.find((x) => x.name === name)!;
    const waitLimit = b.waitTimeMillsInSendQueue ?? 200;
    for (const ep of split(replies.get(name)!, 30000)) {
      const clusters = split(ep, 2000);
      const held = (cl: RmqEvent[]) => maxWait(cl) > waitLimit + STALL_MARGIN_MS;
      const lone = ep.length === 1 && ep[0].fields.queueSize === 0 && typeof ep[0].fields.waitMs === 'number' ? ep[0].fields.waitMs : null;
      if (lone !== null && !sustainedQueue(ctx, b, ep, waitLimit)) {
        // One reply with nothing queued behind it (`size of queue: 0`) and no backlog in the
        // watermark: no send thread took the queue's only request for its whole wait, so the broker
        // stood still that long (a GC pause, a JVM out of CPU), not a queue that stayed full.
        // BrokerFastFailure answered it when it ran again (gen-712, gen-702: one reply each, 201 and
        // 205 ms, on a broker under the lab machine's load).
        out.push(stallFault(ctx, b, ep, lone, lone + 1, 'the only request in its queue (`size of queue: 0`) waited as long', ep[0].ts!, true));
        continue;
      }
      if (clusters.some((cl) => !held(cl)) || sustainedQueue(ctx, b, ep, waitLimit)) {
        out.push(...overloadWithStalls(ctx, input, b, ep, waitLimit));
        continue;
      }
      for (const cl of clusters) {
        const max = maxWait(cl);
        out.push(stallFault(ctx, b, cl, max, Math.max(1, max - STALL_EXTRA_MS), 'the first request that arrived in it waited as long'));
      }
    }
  }
  return out;
}

/**
 * An overload its watermark alone shows: the send queue's head over half waitTimeMillsInSendQueue in
 * seconds no more than OVERLOAD_JOIN_MS apart for SUSTAINED_MS or more, over the limit itself in
 * MARKS_OVER_MIN of them, and no busy reply of that broker logged within BUSY_NEAR_MS (an episode of
 * those is busyFaults'). A broker starved of CPU may answer no request busy: BrokerFastFailure's
 * cleaner runs on a scheduled thread that gets no CPU either, and the requests wait until a send
 * thread takes them (gen-20270104: broker-c under a 10 % quota for 45 s, its queue's head up to
 * 2295 ms, one client's call timed out and none was answered busy).
 */
function markedOverloads(ctx: InferContext, input: FaultsInput, replies: ReadonlyMap<string, RmqEvent[]>): Pending[] {
  const out: Pending[] = [];
  for (const b of input.brokers) {
    if (b.role === 'slave') continue;
    const waitLimit = b.waitTimeMillsInSendQueue ?? 200;
    const marks = (ctx.c.watermarkHigh.get(b.host) ?? []).filter((e) => (e.fields.slowMs as number) >= waitLimit / 2).sort((x, y) => x.ts! - y.ts!);
    const busy = replies.get(b.name) ?? [];
    for (const run of split(marks, OVERLOAD_JOIN_MS)) {
      const from = run[0].ts!;
      const to = run[run.length - 1].ts!;
      if (to - from < SUSTAINED_MS || run.filter((e) => (e.fields.slowMs as number) >= waitLimit).length < MARKS_OVER_MIN) continue;
      if (busy.some((e) => e.ts! >= from - BUSY_NEAR_MS && e.ts! <= to + BUSY_NEAR_MS)) continue;
      out.push(overloadFault(ctx, input, b, [], waitLimit, run));
    }
  }
  return out;
}

/** The broker's watermark run around an episode (overloadFault's), when it lasts SUSTAINED_MS or more. */
function sustainedQueue(ctx: InferContext, b: ScenarioBroker, ep: RmqEvent[], waitLimit: number): boolean {
  // One unbroken run (runAround joins every run the episode overlaps): marks seconds apart around
  // separate stalls are no overload.
  const run = watermarkRun(ctx, b, ep, waitLimit);
  return !!run && split(run, WATERMARK_GAP_MS).some((r) => r[r.length - 1].ts! - r[0].ts! >= SUSTAINED_MS);
}

/** The broker's watermark seconds with the send queue's head over half the limit, in one run around the busy replies, or null. */
function watermarkRun(ctx: InferContext, b: ScenarioBroker, reps: RmqEvent[], waitLimit: number): RmqEvent[] | null {
  const firstTs = reps[0].ts!;
  const lastTs = reps[reps.length - 1].ts!;
  const marks = (ctx.c.watermarkHigh.get(b.host) ?? []).filter((e) => e.ts! >= firstTs - 60000 && e.ts! <= lastTs + 60000 && (e.fields.slowMs as number) >= waitLimit / 2);
  return marks.length ? runAround(marks, firstTs, lastTs, ctx.c.watermarkGaps.get(b.host) ?? []) : null;
}

const maxWait = (cl: RmqEvent[]): number => Math.max(0, ...cl.map((e) => e.fields.waitMs).filter((w): w is number => typeof w === 'number'));

/**
 * The clients' busy replies per broker: by the ` BROKER: addr` they print, or the broker of the
 * attempt that failed with it. A reply a whole-second client log printed (the 4.3.0-4.7.1 logger
 * that repeats the seconds as milliseconds) takes its time from the application's record of the
 * same failure (the same wait and queue size, in that second), when the application logged it: a
 * synchronous send's busy reply is thrown to it at once (SYSTEM_BUSY is not among
 * DefaultMQProducerImpl.sendDefaultImpl's retried codes up to 4.9.x).
 */
function busyRepliesByBroker(ctx: InferContext, input: FaultsInput): Map<string, RmqEvent[]> {
  const lastAttempt = new Map<string, RmqEvent>();
  const replies = new Map<string, RmqEvent[]>();
  const appRecords = ctx.events.filter((e) => e.type === 'busy-reply' && e.kind === 'app' && e.ts !== null && typeof e.fields.waitMs === 'number');
  const taken = new Set<RmqEvent>();
  for (const e of ctx.events) {
    if (e.type === 'send-attempt-failed') lastAttempt.set(e.host, e);
    if (e.type !== 'busy-reply' || e.kind !== 'client' || e.ts === null) continue;
    const byAddr = typeof e.fields.brokerAddr === 'string' ? input.hosts.nameOfBrokerAddr.get(e.fields.brokerAddr) : undefined;
    const attempt = lastAttempt.get(e.host);
    const name = byAddr ?? (attempt && attempt.ts === e.ts ? String(attempt.fields.brokerName) : undefined);
    if (!name || !input.brokers.some((x) => x.name === name)) continue;
    let list = replies.get(name);
    if (!list) replies.set(name, (list = []));
    const same = ctx.coarse(e)
      ? appRecords.find((a) => !taken.has(a) && a.host === e.host && a.ts! >= e.ts! && a.ts! <= ctx.latest(e) && a.fields.waitMs === e.fields.waitMs && a.fields.queueSize === e.fields.queueSize)
      : undefined;
    if (same) taken.add(same);
    list.push(same ? { ...e, ts: same.ts } : e);
  }
  for (const list of replies.values()) list.sort((a, b) => a.ts! - b.ts!);
  return replies;
}

/**
 * Replies near the limit mean a queue that stayed full (an overload) for the whole episode; longer
 * waits within it (a CPU-throttled or pausing JVM) are stalls on top of it. The replies one cleaner
 * pass sends come out together; its queue head had already waited up to the limit when the broker
 * stopped, so it stood still about (wait - limit) ms.
 */
function overloadWithStalls(ctx: InferContext, input: FaultsInput, b: ScenarioBroker, ep: RmqEvent[], waitLimit: number): Pending[] {
  const out: Pending[] = [overloadFault(ctx, input, b, ep, waitLimit)];
  const held = (cl: RmqEvent[]) => maxWait(cl) > waitLimit + STALL_MARGIN_MS;
  // Each held pass says the cleaner did not run from its longest waiter's arrival + the limit
  // until the pass: that head would have been answered then. Spans that overlap were one stop: a
  // pass the CPU quota cut short (cleanExpiredRequest runs only while the JVM gets CPU) leaves
  // expired heads for the next, whose longest wait shows that the stop went on.
  const spans: Array<{ from: number; to: number; reps: RmqEvent[]; max: number }> = [];
  for (const pass of split(ep, RELEASE_GAP_MS)) {
    if (!held(pass)) continue;
    const max = maxWait(pass);
    const to = pass[0].ts!;
    // The last pass before the stop found that waiter younger than the limit: it ran at most one
    // cleaner period before the waiter reached it. The stop is put there, when the backlog's
    // send threads (which reach a request as it turns the limit old) had not taken it either.
    const from = to - (max - waitLimit) - FAST_FAILURE.periodMs;
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
    const why = `the queue head of the overload had waited up to ${waitLimit} ms, less a cleaner period (${FAST_FAILURE.periodMs} ms), when it stopped`;
    const p = stallFault(ctx, b, s.reps, s.max, Math.round(s.to - s.from), why, s.to);
    const read = Math.max(0, ...bursts.filter((t) => t > s.from && t < s.to));
    if (read > 0 && 'stall' in p.fault) {
      p.fault.stall.ioFrozenMs = Math.round(read - s.from);
      const together = ep.filter((e) => typeof e.fields.waitMs === 'number' && e.ts! - e.fields.waitMs >= read - 1 && e.ts! - e.fields.waitMs <= read);
      p.rule += `; ${together.length} replies started waiting in the same millisecond, ${p.fault.stall.ioFrozenMs} ms into it: it had read no request before then`;
      p.evidence.push(together[0]);
    }
    out.push(p);
  }
  return out;
}

/**
 * A stall of durationMs that ends 1 ms before releasedAt (by default the first reply's time), with
 * the sends it held: each read by the broker its wait before its reply (the model's network adds
 * half a millisecond each way, so that the stall finds it younger than the limit and holds it).
 */
function stallFault(ctx: InferContext, b: ScenarioBroker, reps: RmqEvent[], max: number, durationMs: number, why: string, releasedAt = reps[0].ts!, heldAll = false): Pending {
  const waitLimit = b.waitTimeMillsInSendQueue ?? 200;
  const at = releasedAt - durationMs - 1;
  const held = reps
    .filter((e) => typeof e.fields.waitMs === 'number' && (heldAll || e.fields.waitMs > waitLimit + STALL_MARGIN_MS))
    .map((e) => ({ host: e.host, send: { atMs: ctx.rel(e.ts! - (e.fields.waitMs as number)), broker: b.name }, e }));
  const put = ctx.events.find((e) => e.type === 'store-slow' && e.host === b.host && e.fields.what === 'in-lock' && e.ts !== null && Math.abs(e.ts - reps[0].ts!) <= 2000);
  return {
    fault: { atMs: ctx.rel(at), broker: b.name, stall: { durationMs } },
    rule:
      `${reps.length === 1 ? '1 busy reply that' : `${reps.length} busy replies that`} waited up to ${max} ms, more than waitTimeMillsInSendQueue (${waitLimit} ms): ` +
      `the broker stood still about ${durationMs} ms before answering ${reps.length === 1 ? 'it' : 'them'} (${why})`,
    evidence: [reps[0], reps.find((e) => e.fields.waitMs === max), put],
    defaults: [],
    held,
  };
}

function overloadFault(ctx: InferContext, input: FaultsInput, b: ScenarioBroker, reps: RmqEvent[], waitLimit: number, marksOnly?: RmqEvent[]): Pending {
  const firstTs = marksOnly ? marksOnly[0].ts! - (marksOnly[0].fields.slowMs as number) : reps[0].ts!;
  const lastTs = marksOnly ? marksOnly[marksOnly.length - 1].ts! : reps[reps.length - 1].ts!;
  // The watermark shows when the send queue's head started waiting (if the broker's watermark.log was given).
  let from = marksOnly ? firstTs : firstTs - waitLimit - 1000;
  let to = lastTs + 1000;
  const evidence: RmqEvent[] = marksOnly ? [] : [reps[0], reps[reps.length - 1]];
  const run = marksOnly ?? watermarkRun(ctx, b, reps, waitLimit);
  if (run) {
    // Back through the seconds over half the limit before the run, while they come no more than
    // OVERLOAD_JOIN_MS apart: a broker starved of CPU drains its queue now and then between them
    // (gen-20261224: under a 5 % quota from 06:48:27, its queue head waited 193 ms at 06:48:30, 199 ms
    // at 06:48:41, then 401 ms and on from 06:48:46).
    const before = (ctx.c.watermarkHigh.get(b.host) ?? []).filter((e) => e.ts! < run[0].ts! && (e.fields.slowMs as number) >= waitLimit / 2).sort((x, y) => y.ts! - x.ts!);
    let head = run[0];
    for (const e of before) {
      if (head.ts! - e.ts! > OVERLOAD_JOIN_MS) break;
      head = e;
    }
    if (head !== run[0]) run.unshift(head);
    from = Math.min(from, run[0].ts!);
    to = Math.max(to, run[run.length - 1].ts! + 1000);
    evidence.push(run[0], run[run.length - 1]);
  }
  // Arrivals the simulated clients send to this broker; the service time makes the broker serve a
  // little less than that, so that the queue head reaches the wait limit as in the logs.
  let arrival = 0;
  for (const cl of input.clients) {
    const t = input.topics.find((x) => x.name === cl.topic);
    const on = t?.brokers ?? input.brokers.map((x) => x.name);
    if (on.includes(b.name)) arrival += cl.sendRatePerSec / on.length;
  }
  const background = backgroundOf(ctx, input, b, from, to);
  if (background) evidence.push(...background.evidence);
  const total = arrival + (background?.rate ?? 0);
  const version = b.version ?? input.serverVersion;
  // A server of 4 cores or more: the default pool is the most it can be.
  const threads = b.sendMessageThreadPoolNums ?? serverProfile(modelled(version)).sendThreadPoolNums(4);
  const seconds = Math.max(1, (to - from) / 1000);
  // The replies that stalls held are theirs; the steady ones say by how much the senders overran it.
  const steady = reps.filter((e) => typeof e.fields.waitMs !== 'number' || e.fields.waitMs <= waitLimit + STALL_MARGIN_MS).length;
  const excess = Math.min(0.3, Math.max(0.002, steady / Math.max(1, arrival * seconds)));
  const serviceMs = total > 0 ? round2((threads * 1000) / (total * (1 - excess))) : 50;
  if (total === 0) ctx.notes.push(`no simulated client sends to ${b.name}: its overload cannot be reproduced`);
  const waits = reps.map((e) => e.fields.waitMs).filter((w): w is number => typeof w === 'number');
  const overload: Extract<Fault, { overload: unknown }>['overload'] = { durationMs: Math.round(to - from), serviceMs };
  if (background) overload.backgroundPerSec = background.rate;
  const over = marksOnly?.filter((e) => (e.fields.slowMs as number) >= waitLimit) ?? [];
  const seen = marksOnly
    ? `its watermark printed the send queue's head waiting over half the limit (${waitLimit} ms) ${plural(marksOnly.length, 'time')} in ${formatMs(lastTs - marksOnly[0].ts!)}, ${over.length} of them over it (up to ${Math.max(...marksOnly.map((e) => e.fields.slowMs as number))} ms), with no busy reply logged: an overload, from the first to the last such second (its start less the first head's wait)`
    : `${reps.length === 1 ? '1 busy reply that' : `${reps.length} busy replies that`} waited ${Math.min(...waits) === Math.max(...waits) ? Math.max(...waits) : `${Math.min(...waits)}-${Math.max(...waits)}`} ms (the limit is ${waitLimit} ms): an overload` +
      `${run ? ', from the first to the last watermark second over half the limit' : ''}`;
  return {
    fault: { atMs: ctx.rel(from), broker: b.name, overload },
    rule:
      `${seen}; ${background ? `${background.rule}; ` : ''}` +
      `puts slowed to ${serviceMs} ms on ${threads} send thread${threads === 1 ? '' : 's'} so that the senders (${round2(total)} sends/s to this broker) overrun it by ` +
      `${round2(excess * 100)}%, as many as the ${steady} logged replies near the limit suggest`,
    evidence,
    defaults: [],
  };
}

/**
 * Producers whose logs were not given: the broker's stats.log counts what it stored of topics no
 * simulated client sends. Their busiest minute that overlaps the overload is its background load
 * (stored puts: the sends it rejected are not counted, so this is a floor).
 */
function backgroundOf(ctx: InferContext, input: FaultsInput, b: ScenarioBroker, from: number, to: number): { rate: number; rule: string; evidence: RmqEvent[] } | null {
  const sent = new Set(input.clients.map((cl) => cl.topic));
  const lines = ctx.c.topicPuts.filter((x) => x.host === b.host && !sent.has(x.topic) && x.ts > from && x.ts - 60000 < to);
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

/**
 * The runs of consecutive watermark seconds (gaps up to WATERMARK_GAP_MS) that overlap [from, to],
 * joined. Two runs one silence of the watermark apart (`silent`: consecutive lines further apart)
 * are one: the broker's scheduled thread did not run in between, so neither did it serve the queue
 * (gen-20261208: broker-b under a 3 % CPU quota printed a head age of 901 ms, nothing for 18 s, then
 * 12200 ms).
 */
function runAround(marks: RmqEvent[], from: number, to: number, silent: ReadonlyArray<readonly [number, number]> = []): RmqEvent[] | null {
  const runs: RmqEvent[][] = [];
  for (const r of split(marks, WATERMARK_GAP_MS)) {
    const prev = runs[runs.length - 1];
    if (prev && silent.some(([a, b]) => a === prev[prev.length - 1].ts && b === r[0].ts)) prev.push(...r);
    else runs.push(r);
  }
  const hit = runs.filter((r) => r[r.length - 1].ts! >= from - 5000 && r[0].ts! <= to);
  if (!hit.length) return null;
  return hit.flat();
}

// ---- full disks ---------------------------------------------------------------------------------

/**
 * A full store disk, per broker: from the store's `mark disk full` line to its `mark disk ok` line
 * (CleanCommitLogService checks every 10 s and logs each change once); without the store log, the
 * clients' code-14 replies that name it.
 */
function diskFullFaults(ctx: InferContext, input: FaultsInput): Pending[] {
  const { events, rel } = ctx;
  const out: Pending[] = [];
  for (const b of input.brokers) {
    const marks = events.filter((e) => e.host === b.host && e.kind === 'store' && e.ts !== null && (e.type === 'disk-full' || e.type === 'disk-ok') && (e.type === 'disk-ok' || e.fields.ratio !== null));
    // The clients' code-14 replies naming a full disk, by the broker address they print.
    const replies = events.filter(
      (e) =>
        e.type === 'disk-full' && e.kind === 'client' && e.ts !== null && e.fields.code === 14 && typeof e.fields.brokerAddr === 'string' && input.hosts.nameOfBrokerAddr.get(e.fields.brokerAddr) === b.name,
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

// ---- partitions ---------------------------------------------------------------------------------

/**
 * Network partitions: what rule network-partition recognised (connects that timed out, no refusal
 * and no reset, between hosts whose own logs show them running) is asked of it, not recognised
 * again. A cut is seen only through the requests that cross it, so its window is the first and last
 * failed call: the first call waited NettyClientConfig.connectTimeoutMillis (3 s) before it failed,
 * so the cut is placed that long before it; its end is the last failed call (a request every 30 s
 * crosses it at the slowest, so either end may be up to that late or early), or sooner the first
 * reset the peer's client got from the cut-off host (resetAcross). A request of the pair that
 * crossed it again before the episode's last failure (crossedAcross: a broker's registration a
 * NameServer across it answered) bounds the heal from above, and the pair's last failed registration
 * before it from below: the heal is placed between the two (nothing tells where; the middle is at
 * most half their gap off, 15 s for registrations every 30 s). The episode's later failures were
 * another pair's (gen-185: broker-c's registration with the NameServer on mq-node-a answered at
 * 02:02:17, 14 s after the heal, while app-order-01's heartbeats on the channel it kept to broker-c
 * timed out until 02:02:21 as TCP's retransmission backed off). One partition per peer the rule
 * named that the scenario runs (the model drops packets between two hosts).
 */
function partitionFaults(ctx: InferContext, input: FaultsInput): Pending[] {
  const hosts = new Set<string>([...input.nameServers.map((n) => n.host), ...input.brokers.map((b) => b.host), ...input.clients.map((c) => c.host)]);
  const out: Pending[] = [];
  for (const f of ctx.opts.findings ?? []) {
    const host = f.subject.host;
    if (f.rule !== 'network-partition' || f.start === null || host === undefined || !hosts.has(host)) continue;
    const peers = (Array.isArray(f.metrics.peers) ? f.metrics.peers : []).filter((p): p is string => typeof p === 'string' && p !== host && hosts.has(p));
    const from = f.start - TIMEOUTS.connectMs;
    const last = f.end ?? f.start;
    const evidence = f.evidence.slice(0, 6).map((e) => ({ ...fileRef(e.file), line: e.line }));
    for (const peer of peers) {
      const reset = resetAcross(ctx, input, host, peer, from, last);
      const crossed = reset ? null : crossedAcross(ctx, input, host, peer, from, last);
      const end = reset ? ctx.when(reset) : crossed ? (crossed.failed + ctx.when(crossed.ok)) / 2 : last;
      const durationMs = Math.max(1000, end - from);
      const how = reset
        ? `, and ends when ${peer} got a connection reset from ${String(reset.fields.addr)} (a packet crossed: TCP answered from across it)`
        : crossed
          ? `, and ends halfway between the pair's last failed registration (${formatIso(crossed.failed, ctx.outZone)}) and its first request that crossed again (${formatIso(ctx.when(crossed.ok), ctx.outZone)}: ${crossed.what})`
          : '';
      out.push({
        fault: { atMs: ctx.rel(from), partition: [host, peer], durationMs },
        rule: `rule network-partition: calls between ${host} and ${peer} timed out while both ran, from ${formatIso(f.start, ctx.outZone)} to ${formatIso(last, ctx.outZone)}; the cut is placed one connect timeout (3 s) before the first${how}`,
        evidence: reset ? [...evidence, reset] : crossed ? [...evidence, crossed.ok] : evidence,
        defaults: reset
          ? [['durationMs', 'to the first reset from across the cut (the heal may be up to one retransmission of TCP earlier: the reset answered one)']]
          : crossed
            ? [['durationMs', `halfway between the last failed registration and the first one answered again (the heal may be up to ${Math.round((ctx.when(crossed.ok) - crossed.failed) / 2000)} s either way)`]]
            : [['durationMs', 'to the last failed call (the heal may be up to 30 s later: nothing crossed the cut in between)']],
      });
    }
  }
  return out;
}

/**
 * The first connection reset a client on `peer` got from an address of `host` (a NameServer's or a
 * broker's, or a broker's VIP channel) after the cut began and by its last failed call: nothing
 * crosses a cut, so the path was back. A side that closed its channel meanwhile (a NameServer's or
 * a broker's idle close, whose FIN was lost) answers the other side's retransmitted request with a
 * RST (`NETTY CLIENT PIPELINE: exceptionCaught`, `Connection reset`): gen-705's app-order-01 got it
 * from the NameServer on mq-node-c 0.4 s after the heal, while its sends on broker-c's channel, kept
 * open, went on timing out for 20 s as TCP's retransmission backed off.
 */
function resetAcross(ctx: InferContext, input: FaultsInput, host: string, peer: string, from: number, until: number): RmqEvent | null {
  const addrs = new Set<string>([...input.nameServers.filter((n) => n.host === host).map((n) => n.addr), ...input.brokers.filter((b) => b.host === host).flatMap((b) => [b.addr, brokerVipAddr(b.addr)])]);
  return (
    ctx.events.find(
      (e) =>
        e.host === peer &&
        e.kind === 'client' &&
        e.type === 'pipeline' &&
        e.fields.side === 'client' &&
        e.fields.event === 'exception' &&
        typeof e.fields.addr === 'string' &&
        addrs.has(e.fields.addr) &&
        e.ts !== null &&
        e.ts > from &&
        e.ts <= until,
    ) ?? null
  );
}

/**
 * The first registration between `host` and `peer` that a NameServer answered again after the cut
 * began, by the episode's last failure, with the broker's last failed registration there before it
 * (Collected.registrationsBack: `registerBroker Exception, X` then `register broker[0]to name server
 * X OK`, BrokerOuterAPI, 4.x; 5.x `Failed to register current broker to name server. TargetHost=X`,
 * then `Registering current broker to name server completed`): between the two the path came back.
 * A broker registers every 30 s (registerNameServerPeriod), so the two are that far apart at most.
 */
function crossedAcross(ctx: InferContext, input: FaultsInput, host: string, peer: string, from: number, until: number): { ok: RmqEvent; failed: number; what: string } | null {
  const nsIps = (h: string) => new Set(input.nameServers.filter((n) => n.host === h).map((n) => ipOf(n.addr)));
  const across = (broker: string, ns: string) => (x: { ok: RmqEvent }) => x.ok.host === broker && nsIps(ns).has(ipOf(String(x.ok.fields.namesrvAddr)));
  const back = ctx.c.registrationsBack
    .filter((x) => x.failed.ts! > from && x.ok.ts! <= until && (across(host, peer)(x) || across(peer, host)(x)))
    .sort((a, b) => a.ok.ts! - b.ok.ts!)[0];
  if (!back) return null;
  return { ok: back.ok, failed: ctx.when(back.failed), what: `${back.ok.host}'s registration with ${String(back.ok.fields.namesrvAddr)} answered` };
}
