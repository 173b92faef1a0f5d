// broker-down-detection: how each NameServer learned that a broker was gone (RouteInfoManager.scanNotActiveBroker, BrokerHousekeepingService).
//
// - `expired`: silence. The broker sent no registration for brokerChannelExpiredMs (120 s):
//   either the inactive-broker scan found it (`The broker channel expired, addr 120000ms`, then the
//   `remove ...` lines without "the broker's channel destroyed"), or the idle timer closed the
//   broker's connection after 120 s without traffic (`NETTY SERVER PIPELINE: IDLE exception [ip:port]`,
//   then `the broker's channel destroyed, addr, clean it's data structure at once`; with the
//   default serverChannelMaxIdleTimeSeconds=120 this comes a few seconds before the scan would).
//   The broker hung (or the network dropped silently) with its TCP connection open.
// - `destroyed`: the connection was closed from the broker's side (channelInactive or
//   exceptionCaught, then "the broker's channel destroyed"): a crash, kill, restart or reboot.
// - `unregistered`: graceful shutdown (`unregisterBroker, remove from brokerLiveTable OK, addr`).
//   In 5.x the BatchUnregistrationService logs the same lines after a destroyed or expired channel:
//   those stay `destroyed` / `expired`.
// A destroyed channel whose cause was not logged is classified by the time since the broker's last
// heartbeat: about the expiry time or more means silence (`expired`), never a crash.
//
// How the NameServer learned it is one thing; whether the broker was gone is another. A NameServer
// also drops brokers that kept running: after a stall of its own (resumed, its scan finds every
// registration older than 120 s and its idle timer fires, RouteInfoManager.scanNotActiveBroker,
// NettyRemotingServer's IdleStateHandler), when a 4.9.1+ broker closed the channel after a
// registration timed out (NettyRemotingClient.invokeSync, clientCloseSocketIfTimeout), or when the
// network between them lost its registrations. The broker's own log tells: a registration after a
// `destroyed` removal with no boot around it, or registrations to other NameServers (or failures to
// this one) during an `expired` removal's silence up to its last registration period, mean the
// broker was running (metrics.brokerAlive true). Where the broker's log shows neither but the
// NameServer's own watermark lines (5.x, every second) stood still just before the removal, the
// removal says nothing of the broker (metrics.brokerAlive null): it is told as the NameServer's
// resume, not as the broker's crash or hang (gen-703: a hung NameServer, on resuming, dropped a
// slave whose registration to it had timed out and closed its channel).
//
// detectMs runs from the last heartbeat (the broker's own `register broker ... to name server N OK`
// line for that NameServer, or the NameServer's `new broker registered` line), or else from the
// first client failure against the broker, to the removal.
//
// With no NameServer log, a broker's own shutdown (`Shutdown hook was invoked`, or its NameServer
// channels closed on the `ShutdownHook` thread) means its hook unregistered it from every NameServer:
// reported as `unregistered`, inferred, with the NameServers it registered with (`a;b`).
//
// Severity: info for unregistered, warning for destroyed (a crash or kill: clients follow within
// one poll), error for expired (a hang: clients time out for up to expiry + scan + poll, ~160 s).

import type { EventType, RmqEvent } from '../parse/types.js';
import { FindingKeeper } from './util.js';
import { formatMs } from '../util/durations.js';
import type { FindingInput, Rule, Severity, Visitor } from './types.js';
import {
  addressBook,
  AddressBook,
  addrInText,
  addrKey,
  BOOK_EVENTS,
  clockOf,
  ipOf,
  isBrokerEvent,
  isClientEvent,
  isConnectCause,
  isTimeoutCause,
  NAMESRV_PORT,
  orderEvidence,
  portOf,
  ROUTING_SETTINGS,
  scheduledLog,
} from './routing.js';
import { SCHEDULED_LOGS, TIMEOUTS } from '../rocketmq/facts.js';
import { about, type TopicAdvice } from './advice.js';

type Detection = 'expired' | 'destroyed' | 'unregistered';
type Path = 'scan' | 'idle' | 'close' | 'exception' | 'unregister' | 'silence' | 'unknown';

interface Removal {
  nsHost: string;
  addr: string | null;
  name: string | null;
  detection: Detection | null;
  path: Path;
  first: RmqEvent;
  lines: RmqEvent[];
  pipe: RmqEvent | null;
  /** 5.x `the broker's channel destroyed, submit the unregister request` without an address yet. */
  submitted: boolean;
  /** The brokers' last registrations when the removal began; dropped once it is judged. */
  brokerRegs: Map<string, Map<string, RmqEvent>> | null;
  nsReg: RmqEvent | null;
  /** Its place in the order removals begin (the order their findings are told). */
  seq: number;
}

interface Shutdown {
  host: string;
  signal: RmqEvent;
  namesrvs: Set<string>;
  lastReg: RmqEvent | null;
  /** Brokers (address, name) a NameServer removed from 10 s before to 120 s after the signal. */
  removedNear: Map<string, { addr: string | null; name: string | null }>;
  seq: number;
}

const GROUP_MS = 15000;
/** A removal is judged once the lines read are this far past its first (later lines cannot join it). */
const SETTLE_MS = 60000;
/** A shutdown the NameServers' logs show: their removal of that broker from 10 s before to 120 s after. */
const SHUTDOWN_BEFORE_MS = 10000;
const SHUTDOWN_AFTER_MS = 120000;
/** Lines within this of a broker's shutdown signal belong to that shutdown (its hook closing channels). */
const SHUTDOWN_OPEN_MS = 300000;
const PIPE_RING = 64;
/** A channel closed this long before an unregistration (whole-second server logs) was its cause. */
const CLOSED_BEFORE_MS = 1000;
const FAIL_EPISODE_GAP_MS = 300000;

const rule: Rule = {
  meta: {
    id: 'broker-down-detection',
    title: 'How each NameServer learned a broker was gone',
    severity: 'warning',
    description:
      "Classifies each NameServer's removal of a broker: expired (silence: scan expiry or idle channel; a hang with TCP open), destroyed (connection closed: crash, kill, restart) or unregistered (graceful shutdown), with the time from the last heartbeat to the removal; a removal of a broker whose own log shows it running (registrations after it with no boot, or elsewhere during the silence) is told as the NameServer's side or the network (metrics.brokerAlive true), and one a 5.x NameServer made as it ran again after a stall of its own, of a broker whose log shows nothing either way, as not telling (metrics.brokerAlive null, namesrvStallMs).",
    versions: '4.x (expiry scan every 10 s, `the broker\'s channel destroyed, addr, ...`) and 5.x (scan every 5 s, `... submit the unregister request at once` then BatchUnregistrationService lines)',
    settings: { brokerChannelExpiredMs: ROUTING_SETTINGS.brokerChannelExpiredMs },
    events: [...new Set<EventType>([...BOOK_EVENTS, 'broker-expired', 'broker-removed', 'broker-registered', 'pipeline', 'shutdown', 'channel-closed', 'send-attempt-failed', 'heartbeat-failed', 'rpc-timeout', 'connect-failed', 'register-failed', 'startup', 'watermark'])],
  },
  create(ctx) {
    const expiredMs = ctx.settings.brokerChannelExpiredMs as number;
    const book = addressBook(ctx);
    const pipes = new Map<string, RmqEvent[]>();
    /** Removals that later lines may still join (the latest per NameServer, and those under SETTLE_MS old). */
    const pending = new Set<Removal>();
    /** Judged removals of the last few minutes, for shutdowns noted after them. */
    const settled: Array<{ ts: number; addr: string | null; name: string | null }> = [];
    let begun = 0;
    let lastSweep = -Infinity;
    // Each removal's finding is made when it is judged; only those that can be kept stay.
    const kept = new FindingKeeper<FindingInput & { severity: Severity }>(ctx);
    const recent = new Map<string, Removal>();
    /** broker host -> NameServer -> last `register broker ... OK`. */
    const brokerRegs = new Map<string, Map<string, RmqEvent>>();
    /** `${nsHost}|${brokerAddr}` -> last `new broker registered`. */
    const nsRegs = new Map<string, RmqEvent>();
    const failStarts = new Map<string, RmqEvent[]>();
    const lastFail = new Map<string, number>();
    const life = new BrokerLife();
    const stalls = new NamesrvStalls();
    /** NameServers' own shutdown hooks (the last NS_STOPS_KEPT). */
    const nsStops: RmqEvent[] = [];
    const judge: Judge = { book, expiredMs, failStarts, life, stalls, nsStops };
    /** Shutdowns not judged yet: later lines may still join them, or a NameServer's removal may show them. */
    const shutdowns: Shutdown[] = [];
    let shutdownsBegun = 0;
    const openShutdown = new Map<string, Shutdown>();

    const snapshot = () => new Map([...brokerRegs].map(([h, m]) => [h, new Map(m)]));

    const within = (a: RmqEvent, b: RmqEvent, ms: number) => a.ts === null || b.ts === null || Math.abs(b.ts - a.ts) <= ms;

    const classifyByPipe = (r: Removal) => classifyByPipeOf(pipes, r);
    // The ring holds only lines read before this one: a match was logged before the removal.
    const closedJustBefore = (r: Removal) => {
      const p = pipeFor(pipes, r.nsHost, r.addr, r.first);
      return !!p && p.ts !== null && r.first.ts !== null && r.first.ts - p.ts <= CLOSED_BEFORE_MS;
    };

    const start = (e: RmqEvent, addr: string | null, name: string | null, detection: Detection | null, path: Path): Removal => {
      const r: Removal = {
        nsHost: e.host,
        addr,
        name,
        detection,
        path,
        first: e,
        lines: [],
        pipe: null,
        submitted: false,
        brokerRegs: snapshot(),
        nsReg: addr ? (nsRegs.get(`${e.host}|${addr}`) ?? null) : null,
        seq: begun++,
      };
      const prev = recent.get(e.host);
      recent.set(e.host, r);
      pending.add(r);
      // The removal before is complete, unless it began within the grouping window: a NameServer's
      // removals of several brokers interleave then, and later lines may still join it (current()).
      if (prev && !within(prev.first, e, GROUP_MS)) settle(prev);
      return r;
    };

    /** Judge a complete removal (with what the logs told so far), keep its finding if it can be kept, drop its detail. */
    const settle = (r: Removal) => {
      if (!pending.delete(r)) return;
      const f = removalFinding(judge, r);
      kept.offer(f, f.severity, f.start, r.seq);
      r.brokerRegs = null;
      if (r.first.ts === null) return;
      for (const s of shutdowns) noteRemovedNear(s, r.first.ts, r.addr, r.name);
      settled.push({ ts: r.first.ts, addr: r.addr, name: r.name });
    };

    const noteRemovedNear = (s: Shutdown, ts: number, addr: string | null, name: string | null) => {
      if (s.signal.ts === null || ts < s.signal.ts - SHUTDOWN_BEFORE_MS || ts > s.signal.ts + SHUTDOWN_AFTER_MS) return;
      s.removedNear.set(`${addr}|${name}`, { addr, name });
    };

    const settleShutdown = (s: Shutdown) => {
      const f = shutdownFinding(judge, s);
      // After every removal, in the order they began: the order their findings were told.
      if (f) kept.offer(f, f.severity, f.start, Number.MAX_SAFE_INTEGER / 2 + s.seq);
    };

    /** Judge the removals no later line can join. */
    const sweep = (now: number | null) => {
      if (now === null || now - lastSweep < 5000) return;
      lastSweep = now;
      for (const r of pending) if (r.first.ts !== null && now - r.first.ts > SETTLE_MS) settle(r);
      // A shutdown once no line can join it and every removal that could show it is judged.
      for (let i = 0; i < shutdowns.length; i++) {
        const s = shutdowns[i];
        if (s.signal.ts === null || now - s.signal.ts <= SHUTDOWN_OPEN_MS + SETTLE_MS) continue;
        shutdowns.splice(i--, 1);
        settleShutdown(s);
      }
      while (settled.length && settled[0].ts < now - SETTLE_MS - SHUTDOWN_BEFORE_MS - SHUTDOWN_AFTER_MS) settled.shift();
    };

    /** The removal this line belongs to: same NameServer, within the grouping window, same broker. */
    const current = (e: RmqEvent, addr: string | null, name: string | null): Removal | null => {
      // A removal's broker name: logged, or known for its address (a name-only line must not join another broker's).
      const nameOf = (x: Removal) => x.name ?? book.brokerNameOf(x.addr);
      const r = recent.get(e.host);
      if (r && within(r.first, e, GROUP_MS) && !(addr && r.addr && r.addr !== addr) && !(name && nameOf(r) && nameOf(r) !== name)) return r;
      // The lines of several removals interleave when a 5.x NameServer runs again after a stall (its
      // scans, its idle timer and the BatchUnregistrationService, all in one second): this broker's.
      if (!addr && !name) return null;
      let mine: Removal | null = null;
      for (const p of pending) {
        if (p.nsHost !== e.host || !within(p.first, e, GROUP_MS) || (addr ? p.addr !== addr : nameOf(p) !== name)) continue;
        if (!mine || p.seq > mine.seq) mine = p;
      }
      return mine;
    };

    const attach = (r: Removal, e: RmqEvent, addr: string | null, name: string | null) => {
      if (addr && !r.addr) {
        r.addr = addr;
        r.nsReg = nsRegs.get(`${r.nsHost}|${addr}`) ?? null;
      }
      if (name && !r.name) r.name = name;
      if (r.lines.length < 3) r.lines.push(e);
    };

    const clientFailure = (e: RmqEvent, addr: string | null) => {
      const k = addrKey(addr);
      if (!k || e.ts === null || book.isNamesrv(k)) return;
      const prev = lastFail.get(k);
      lastFail.set(k, e.ts);
      if (prev !== undefined && e.ts - prev <= FAIL_EPISODE_GAP_MS) return;
      let list = failStarts.get(k);
      if (!list) failStarts.set(k, (list = []));
      if (list.length < 16) list.push(e);
    };

    const noteShutdown = (e: RmqEvent, nsAddr: string | null) => {
      let s = openShutdown.get(e.host);
      if (s && !within(s.signal, e, SHUTDOWN_OPEN_MS)) s = undefined;
      if (!s) {
        const regs = brokerRegs.get(e.host);
        let lastReg: RmqEvent | null = null;
        for (const r of regs?.values() ?? []) if (!lastReg || (r.ts ?? 0) > (lastReg.ts ?? 0)) lastReg = r;
        s = { host: e.host, signal: e, namesrvs: new Set(regs?.keys() ?? []), lastReg, removedNear: new Map(), seq: shutdownsBegun++ };
        openShutdown.set(e.host, s);
        shutdowns.push(s);
        for (const r of settled) noteRemovedNear(s, r.ts, r.addr, r.name);
      }
      if (nsAddr) s.namesrvs.add(nsAddr);
    };

    const own: Visitor = {
      pipeline: (e) => {
        if (e.kind !== 'namesrv' || e.fields.side !== 'server') return;
        if (!['idle', 'inactive', 'exception'].includes(e.fields.event as string)) return;
        let ring = pipes.get(e.host);
        if (!ring) pipes.set(e.host, (ring = []));
        ring.push(e);
        if (ring.length > PIPE_RING) ring.shift();
      },
      'broker-registered': (e) => {
        const ns = addrKey(e.fields.namesrvAddr as string | null);
        const addr = addrKey(e.fields.brokerAddr as string | null);
        if (ns && isBrokerEvent(e)) {
          let m = brokerRegs.get(e.host);
          if (!m) brokerRegs.set(e.host, (m = new Map()));
          m.set(ns, e);
          life.note('reg', e);
        } else if (addr && e.kind === 'namesrv') nsRegs.set(`${e.host}|${addr}`, e);
      },
      'broker-expired': (e) => {
        const addr = addrKey(e.fields.brokerAddr as string | null);
        // A 5.x NameServer that runs again after a stall catches up on its missed scans back to back
        // (scheduleAtFixedRate), expiring a broker again before the BatchUnregistrationService has
        // removed it (ns-hang-resume-5x: 20 expiries of broker-b in one second): one removal.
        for (const p of pending) {
          if (p.nsHost === e.host && p.detection === 'expired' && addr && p.addr === addr && within(p.first, e, GROUP_MS)) return attach(p, e, addr, null);
        }
        const r = current(e, addr, null);
        if (r && r.detection === null) {
          r.detection = 'expired';
          r.path = 'scan';
          attach(r, e, addr, null);
          return;
        }
        start(e, addr, null, 'expired', 'scan');
      },
      'broker-removed': (e) => brokerRemoved({ current, attach, start, classifyByPipe, closedJustBefore }, e),
      shutdown: (e) => {
        if (e.fields.role === 'namesrv' && e.ts !== null) {
          nsStops.push(e);
          if (nsStops.length > NS_STOPS_KEPT) nsStops.shift();
        }
        if (e.fields.role === 'broker' && isBrokerEvent(e)) {
          noteShutdown(e, null);
          life.note('stop', e);
        }
      },
      startup: (e) => {
        if (e.fields.role === 'broker' && isBrokerEvent(e)) life.note('boot', e);
      },
      watermark: (e) => {
        if (scheduledLog(e) === 'namesrvWatermark') stalls.tick(e);
      },
      'register-failed': (e) => {
        if (isBrokerEvent(e)) life.note('fail', e);
      },
      'channel-closed': (e) => {
        // The broker's hook closes its NameServer channels after unregistering (BrokerOuterAPI.shutdown).
        if (!isBrokerEvent(e) || e.thread !== 'ShutdownHook') return;
        const a = e.fields.addr as string | null;
        if (a && (book.isNamesrv(a) || portOf(a) === NAMESRV_PORT)) noteShutdown(e, addrKey(a));
      },
      'send-attempt-failed': (e) => {
        if (!isClientEvent(e)) return;
        const cause = (e.fields.cause as string | null) ?? null;
        if (isTimeoutCause(cause) || isConnectCause(cause)) clientFailure(e, addrInText(cause));
      },
      'heartbeat-failed': (e) => {
        if (isClientEvent(e) && !e.entry?.endsWith('not-up')) clientFailure(e, e.fields.brokerAddr as string | null);
      },
      'rpc-timeout': (e) => {
        if (isClientEvent(e)) clientFailure(e, e.fields.addr as string | null);
      },
      'connect-failed': (e) => {
        const addrs = (e.fields.addrs as string[]) ?? [];
        if (isClientEvent(e) && addrs.length === 1) clientFailure(e, addrs[0]);
      },
      end() {
        for (const r of [...pending]) settle(r);
        for (const s of shutdowns.splice(0)) settleShutdown(s);
        for (const f of kept.take()) ctx.report(f);
      },
    };
    // Every line read moves the clock that judges the removals no later line can join.
    sweepFirst(own, sweep);

    return own;
  },
};

/** The latest pipeline line of this NameServer for the broker's IP before a removal: idle wins. */
function pipeFor(pipes: Map<string, RmqEvent[]>, nsHost: string, addr: string | null, at: RmqEvent): RmqEvent | null {
  const ip = ipOf(addr);
  const ring = pipes.get(nsHost) ?? [];
  let best: RmqEvent | null = null;
  for (let i = ring.length - 1; i >= 0; i--) {
    const p = ring[i];
    if (at.ts !== null && p.ts !== null && (p.ts > at.ts + 2000 || p.ts < at.ts - GROUP_MS)) continue;
    if (ip && ipOf(p.fields.addr as string | null) !== ip) continue;
    if (p.fields.event === 'idle') return p;
    best ??= p;
  }
  return best;
}

/** A removal's detection from the NameServer's pipeline line before it: the idle timer, or a closed connection. */
function classifyByPipeOf(pipes: Map<string, RmqEvent[]>, r: Removal): void {
  const p = pipeFor(pipes, r.nsHost, r.addr, r.first);
  if (!p) return;
  r.pipe = p;
  if (p.fields.event === 'idle') {
    r.detection = 'expired';
    r.path = 'idle';
  } else {
    r.detection = 'destroyed';
    r.path = p.fields.event === 'exception' ? 'exception' : 'close';
  }
}

/** What a NameServer's removal line does to the removals under way. */
interface RemovalOps {
  current: (e: RmqEvent, addr: string | null, name: string | null) => Removal | null;
  attach: (r: Removal, e: RmqEvent, addr: string | null, name: string | null) => void;
  start: (e: RmqEvent, addr: string | null, name: string | null, detection: Detection | null, path: Path) => Removal;
  classifyByPipe: (r: Removal) => void;
  /** Whether the NameServer logged the broker's channel closing (inactive, exception, idle) just before the removal's first line. */
  closedJustBefore: (r: Removal) => boolean;
}

/** A `broker-removed` line: a destroyed channel, an unregister, or the table removal after either. */
function brokerRemoved(ops: RemovalOps, e: RmqEvent): void {
  const { current, attach, start, classifyByPipe } = ops;
    const addr = addrKey(e.fields.brokerAddr as string | null);
    const name = (e.fields.brokerName as string | null) ?? null;
    const reason = e.fields.reason as string;
    if (e.entry === 'broker-removed/channel-destroyed' || e.entry === 'broker-removed/channel-destroyed-submit') {
      const r = current(e, addr, name);
      if (r) {
        // The expiry scan of 5.x submits the unregister too; a graceful unregister may be followed by the close.
        attach(r, e, addr, name);
        if (e.entry.endsWith('submit') && !r.addr) r.submitted = true;
        // 5.x: the BatchUnregistrationService may log its `unregisterBroker` lines before the
        // submit line that caused them (other threads, same second): the channel was destroyed.
        if (e.entry.endsWith('submit') && r.detection === 'unregistered' && r.path === 'unregister') {
          r.submitted = true;
          r.detection = null;
          r.path = 'unknown';
          if (r.addr) classifyByPipe(r);
        }
        return;
      }
      const n = start(e, addr, name, null, 'unknown');
      n.submitted = e.entry.endsWith('submit');
      if (addr) classifyByPipe(n);
      return;
    }
    if (reason === 'unregister') {
      const r = current(e, addr, name);
      if (r) {
        const hadAddr = !!r.addr;
        attach(r, e, addr, name);
        if (!hadAddr && r.addr && r.detection === null) classifyByPipe(r);
        return;
      }
      const n = start(e, addr, name, 'unregistered', 'unregister');
      // 5.x: the BatchUnregistrationService logs the same `unregisterBroker` lines for a channel
      // destroyed as for an UNREGISTER_BROKER request (DefaultRequestProcessor.unregisterBroker and
      // BrokerHousekeepingService both submit to it). A graceful broker unregisters on its open
      // channel and closes it after; a channel that closed first (its `channelInactive` already
      // logged, within the second) was destroyed: the submit lines, which name no broker, may have
      // joined another broker's removal when several brokers' channels closed at once.
      if (addr && ops.closedJustBefore(n)) classifyByPipe(n);
      return;
    }
    // `remove brokerAddr[...] / brokerName[...] from brokerAddrTable, because channel destroyed`
    const r = current(e, addr, name);
    if (r) {
      attach(r, e, addr, name);
      return;
    }
    // 4.x prints the destroyed line before these; without it this is the expiry path.
    start(e, addr, name, null, 'unknown');
}

/** Each handler of `own` but `end` calls `sweep` with the line's time first. */
function sweepFirst(own: Visitor, sweep: (now: number | null) => void): void {
  for (const [type, fn] of Object.entries(own)) {
    if (type === 'end' || typeof fn !== 'function') continue;
    const handler = fn as (e: RmqEvent) => void;
    (own as Record<string, (e: RmqEvent) => void>)[type] = (e) => {
      sweep(e.ts);
      handler(e);
    };
  }
}

/** What judging a removal or a shutdown reads of the rule's state. */
interface Judge {
  book: AddressBook;
  expiredMs: number;
  /** The first failed client sends to each broker address (of each run of failures). */
  failStarts: Map<string, RmqEvent[]>;
  life: BrokerLife;
  stalls: NamesrvStalls;
  nsStops: RmqEvent[];
}

/** NameServer shutdowns kept to judge the removals they make. */
const NS_STOPS_KEPT = 256;
/**
 * A removal this soon after its NameServer's own shutdown hook began is that shutdown's: the hook
 * closes the NameServer's server channels, and each broker's closed channel is removed
 * (RouteInfoManager.onChannelDestroy; 5.x BatchUnregistrationService). Logs print whole seconds.
 */
const NS_STOP_REMOVES_MS = 5000;

/** How long a broker host's registrations, failed registrations and boots are kept. */
const LIFE_KEEP_MS = 600000;
const LIFE_RING = 64;
/** A broker registers every 30 s (BrokerController, registerNameServerPeriod): one after a removal comes within this. */
const REG_AFTER_MS = 35000;
/**
 * A restarted broker registers around its boot line (4.x in BrokerController.start, before
 * BrokerStartup logs `boot success`; 5.3.3 about 10 s after it): a boot this close to a
 * registration makes it a new process's.
 */
const BOOT_NEAR_REG_MS = 15000;

/** What each broker host's own log says of its life: registrations, failed registrations, boots, shutdowns begun. */
class BrokerLife {
  private readonly marks = { reg: new Map<string, RmqEvent[]>(), fail: new Map<string, RmqEvent[]>(), boot: new Map<string, RmqEvent[]>(), stop: new Map<string, RmqEvent[]>() };

  note(kind: keyof BrokerLife['marks'], e: RmqEvent): void {
    if (e.ts === null) return;
    const m = this.marks[kind];
    let ring = m.get(e.host);
    if (!ring) m.set(e.host, (ring = []));
    ring.push(e);
    while (ring.length > LIFE_RING || (ring.length && ring[0].ts! < e.ts - LIFE_KEEP_MS)) ring.shift();
  }

  within(kind: keyof BrokerLife['marks'], host: string, from: number, to: number): RmqEvent[] {
    return (this.marks[kind].get(host) ?? []).filter((e) => e.ts! >= from && e.ts! <= to);
  }
}

/**
 * A NameServer whose watermark lines stood still this long let a broker's registration time out
 * (the shorter registerBrokerTimeoutMills, 4.x's): after such a stall a removal may be the
 * NameServer's own doing.
 */
const NS_STALL_MS = TIMEOUTS.registerBroker4xMs;
/** A removal this close to the end of a NameServer's stall was made as it ran again (whole-second server logs). */
const RESUMED_NEAR_MS = 5000;
const STALL_RING = 16;

/** A gap in a NameServer's watermark lines: its last line before and its first after. */
interface Stall {
  from: RmqEvent;
  to: RmqEvent;
}

/** Each 5.x NameServer host's stalls: gaps in its watermark lines (SCHEDULED_LOGS.namesrvWatermark). */
class NamesrvStalls {
  private readonly last = new Map<string, RmqEvent>();
  private readonly gaps = new Map<string, Stall[]>();

  tick(e: RmqEvent): void {
    const prev = this.last.get(e.host);
    this.last.set(e.host, e);
    if (!prev || e.ts! - prev.ts! < NS_STALL_MS + SCHEDULED_LOGS.namesrvWatermark.periodMs) return;
    let ring = this.gaps.get(e.host);
    if (!ring) this.gaps.set(e.host, (ring = []));
    ring.push({ from: prev, to: e });
    if (ring.length > STALL_RING) ring.shift();
  }

  /** The stall of this NameServer host that ended within RESUMED_NEAR_MS of t, or null. */
  endingNear(host: string, t: number): Stall | null {
    return (this.gaps.get(host) ?? []).find((g) => g.from.ts! < t && Math.abs(g.to.ts! - t) <= RESUMED_NEAR_MS) ?? null;
  }
}

/** What the broker's own log shows of it running through a removal, or null when it shows nothing of it. */
interface Alive {
  /** `after`: it registered again soon after a closed connection, with no boot; `meanwhile`: it registered elsewhere or kept trying during the silence. */
  how: 'after' | 'meanwhile';
  text: string;
  evidence: RmqEvent[];
}

function brokerAlive(j: Judge, r: Removal, addr: string | null, ns: string | null, detection: Detection, hb: RmqEvent | null): Alive | null {
  const host = j.book.hostOfBrokerAddr(addr);
  const t = r.first.ts;
  if (!host || t === null || detection === 'unregistered') return null;
  if (detection === 'destroyed') {
    // A registration after the close, or a failed one (gen-599: the NameServer's host went dark
    // after a partition, and the broker's next registration to it failed), is the same process's
    // when no boot comes near it.
    const tries = [...j.life.within('reg', host, t + 1, t + REG_AFTER_MS), ...j.life.within('fail', host, t + 1, t + REG_AFTER_MS)].sort((a, b) => a.ts! - b.ts!);
    for (const reg of tries) {
      if (j.life.within('boot', host, t - 1000, reg.ts! + BOOT_NEAR_REG_MS).length) continue;
      const ns = reg.fields.namesrvAddr ? ` (with ${reg.fields.namesrvAddr})` : '';
      const what = reg.type === 'register-failed' ? `it tried to register again at ${clockOf(reg)}${ns} and failed` : `it registered again at ${clockOf(reg)}${ns}`;
      return { how: 'after', text: `${what}, ${formatMs(reg.ts! - t)} later, with no boot of a new broker process`, evidence: [reg] };
    }
    // A shutdown hook that began a second or more after the close (BrokerStartup's hook, the first
    // thing a SIGTERM runs) was run by the process whose connection closed: it still ran then. The
    // channel closed for another reason, such as a NameServer resuming from a stall and dropping
    // every channel at once (gen-710: the slave's planned restart came 5 s after it).
    for (const stop of j.life.within('stop', host, t + 1000, t + REG_AFTER_MS)) {
      if (j.life.within('boot', host, t - 1000, stop.ts!).length) break;
      return { how: 'after', text: `it began a clean shutdown at ${clockOf(stop)}, ${formatMs(stop.ts! - t)} later, so its process still ran when the connection closed`, evidence: [stop] };
    }
    return null;
  }
  // expired: the silence this NameServer saw, from its last heartbeat (or the expiry time) to the removal.
  const from = hb?.ts ?? t - j.expiredMs;
  // A boot just after that heartbeat is the same process's (it registers before its boot line): a
  // later one means a new process, which the silence does not tell apart from a restart.
  if (j.life.within('boot', host, from + BOOT_NEAR_REG_MS, t).length) return null;
  const elsewhere = j.life.within('reg', host, from + 1, t).filter((e) => addrKey(e.fields.namesrvAddr as string | null) !== ns);
  const failedHere = j.life.within('fail', host, from + 1, t).filter((e) => { const a = addrKey(e.fields.namesrvAddr as string | null); return a === null || a === ns; });
  // Running through the silence means running until its end: a broker registers every period, so
  // its last sign must fall within one of the removal. Registrations that stopped long before it
  // show a broker that ran for a while and then hung (gen-703: registered elsewhere at 04:59:03,
  // hung at 04:59:12, expired at 05:00:55).
  const lastSign = Math.max(...[...elsewhere, ...failedHere].map((e) => e.ts!));
  if (!(lastSign >= t - REG_AFTER_MS)) return null;
  const parts: string[] = [];
  if (elsewhere.length) {
    const others = [...new Set(elsewhere.map((e) => String(e.fields.namesrvAddr)))];
    parts.push(`it registered with ${others.length === 1 ? `NameServer ${others[0]}` : `NameServers ${others.join(', ')}`} ${elsewhere.length} time${elsewhere.length === 1 ? '' : 's'} meanwhile (last at ${clockOf(elsewhere[elsewhere.length - 1])})`);
  }
  if (failedHere.length) parts.push(`its registrations to this NameServer failed ${failedHere.length} time${failedHere.length === 1 ? '' : 's'} (first at ${clockOf(failedHere[0])})`);
  return { how: 'meanwhile', text: parts.join(', and '), evidence: [elsewhere[elsewhere.length - 1], failedHere[0]].filter((e): e is RmqEvent => !!e) };
}

function lastHeartbeat(j: Judge, r: Removal, ns: string | null, addr: string | null): RmqEvent | null {
  const { book } = j;
  const cands: RmqEvent[] = [];
  if (r.nsReg) cands.push(r.nsReg);
  const host = book.hostOfBrokerAddr(addr);
  const regs = host ? r.brokerRegs?.get(host) : undefined;
  if (regs) {
    const exact = ns ? regs.get(ns) : undefined;
    if (exact) cands.push(exact);
    else for (const v of regs.values()) cands.push(v);
  }
  // An expiry says no registration came for 120 s: a registration logged in the removal's own second
  // is the NameServer taking up what waited while it stalled (or the broker's next one), not the last.
  const latest = r.first.ts === null ? null : r.detection === 'expired' ? r.first.ts - 1000 : r.first.ts;
  let best: RmqEvent | null = null;
  for (const c of cands) {
    if (c.ts === null || latest === null || c.ts > latest) continue;
    if (!best || c.ts > best.ts!) best = c;
  }
  return best;
}

function firstClientFailure(j: Judge, addr: string | null, before: RmqEvent): RmqEvent | null {
  const { failStarts } = j;
  const list = addr ? (failStarts.get(addr) ?? []) : [];
  let best: RmqEvent | null = null;
  for (const f of list) {
    if (f.ts === null || before.ts === null || f.ts > before.ts || before.ts - f.ts > 600000) continue;
    if (!best || f.ts > best.ts!) best = f;
  }
  return best;
}

/**
 * What a slave's removal means for producers: MQClientInstance.findBrokerAddressInPublish takes a
 * broker name's brokerId 0 (MixAll.MASTER_ID) address only (4.6.0-5.3.3), so none writes to a slave.
 */
const NO_SENDS_TO_SLAVE = "It is a slave (a brokerId other than 0 in the clients' routes): producers write to masters only, so no send went to it.";

/** The finding of a removal, once no later line can join it. */
function removalFinding(j: Judge, r: Removal): FindingInput & { severity: Severity } {
  const { book, expiredMs } = j;
  const addr = r.addr ?? (book.brokerAddrsOf(r.name).length === 1 ? book.brokerAddrsOf(r.name)[0] : null);
  const name = r.name ?? book.brokerNameOf(addr);
  const ns = book.namesrvAddrOfHost(r.nsHost);
  const hb = lastHeartbeat(j, r, ns, addr);
  const fail = hb ? null : firstClientFailure(j, addr, r.first);
  const from = hb ?? fail;
  const detectMs = from && from.ts !== null && r.first.ts !== null ? r.first.ts - from.ts : null;
  let detection = r.detection;
  let path = r.path;
  if (detection === null) {
    const silent = hb && detectMs !== null && detectMs >= expiredMs - GROUP_MS;
    const removeOnly = r.first.type === 'broker-removed' && r.first.fields.reason === 'remove';
    if (silent || (removeOnly && detectMs === null)) {
      detection = 'expired';
      path = 'silence';
    } else {
      detection = 'destroyed';
      path = 'unknown';
    }
  }
  // A slave's address (brokerId > 0 in a client's route): no producer writes to it.
  const slave = book.isSlaveAddr(addr) === true;
  const who = name && addr ? `${name}${slave ? "'s slave" : ''} (${addr})` : (name ?? (addr && slave ? `the slave ${addr}` : addr) ?? 'a broker');
  const nsText = ns ? `NameServer ${ns} (${r.nsHost})` : `The NameServer on ${r.nsHost}`;
  const since = from
    ? `${formatMs(detectMs)} after ${hb ? `its last heartbeat (registration at ${clockOf(hb)})` : `the first client failure against it (${clockOf(fail)})`}`
    : 'with no earlier heartbeat or client failure in the logs';
  let how: string;
  let advice: Array<string | TopicAdvice>;
  let severity: Severity;
  const removedAt = clockOf(r.first);
  const alive = brokerAlive(j, r, addr, ns, detection, hb);
  const facts: RemovalFacts = { who, ns, nsText, since, removedAt, detection, path, detectMs, hb, fail, from, addr, name };
  const own = detection !== 'unregistered' && r.first.ts !== null ? j.nsStops.find((e) => e.host === r.nsHost && e.ts! <= r.first.ts! + 1000 && r.first.ts! - e.ts! <= NS_STOP_REMOVES_MS) : undefined;
  if (own) return namesrvStoppingFinding(r, facts, own);
  if (alive) return aliveFinding(r, facts, alive);
  const stall = detection === 'unregistered' || r.first.ts === null ? null : j.stalls.endingNear(r.nsHost, r.first.ts);
  // An expiry is the NameServer's own only when the broker's silence began in its stall (or within
  // a registration period before it); a broker silent long before the NameServer stopped was silent.
  const ownStall = stall && (detection === 'destroyed' || !hb || hb.ts! >= stall.from.ts! - REG_AFTER_MS);
  if (stall && ownStall) return resumedFinding(r, facts, stall);
  if (detection === 'expired') {
    severity = 'error';
    const why =
      path === 'scan'
        ? `its inactive-broker scan (every 10 s in 4.x, 5 s in 5.x) found no registration for more than ${formatMs(expiredMs)} ("The broker channel expired")`
        : path === 'idle'
          ? `its idle timer closed the broker's connection after it carried no traffic for serverChannelMaxIdleTimeSeconds (120 s by default): "NETTY SERVER PIPELINE: IDLE exception" at ${clockOf(r.pipe)}, then "the broker's channel destroyed". The NameServer words it as a destroyed channel, but the cause is silence, not a closed connection`
          : `the removal came about the ${formatMs(expiredMs)} expiry after the last heartbeat, with no closed connection logged`;
    how = `${nsText} removed ${who} at ${removedAt}, ${since}: ${why}. The broker stopped registering while its TCP connection stayed open, so it hung (process or host freeze, long GC, reboot stuck in a self-test) or the network dropped silently; a crash or a shutdown closes the connection and is removed at once. ${slave ? NO_SENDS_TO_SLAVE : 'Until the removal, and for up to one client route poll after it, clients keep sending to the broker and time out (see stale-route).'}`;
    advice = [about('find-cause', `Find why ${who} went silent around ${clockOf(hb ?? fail ?? r.first)} while its connections stayed open: check the host (freeze, memory fault, reboot), GC logs and the network.`)];
    // Only where a NameServer shares the broker's host: one on a host of its own is not hung with it.
    const brokerIp = ipOf(addr);
    if (brokerIp && book.isNamesrvIp(brokerIp)) {
      advice.push(
        about(
          'namesrv-placement',
          `${slave ? 'Its host' : 'A hung broker costs clients up to expiry + scan + poll (about 160 s) of timeouts, and its host'} runs a NameServer too, which hangs with it; keep NameServers on other hosts than brokers (see colocated-namesrv).`,
        ),
      );
    }
  } else if (detection === 'destroyed') {
    severity = 'warning';
    const cause = r.pipe ? `the broker's connection closed (NETTY SERVER PIPELINE: ${r.pipe.fields.event === 'exception' ? 'exceptionCaught' : 'channelInactive'} at ${clockOf(r.pipe)})` : "the broker's connection closed (the NameServer logged \"the broker's channel destroyed\"; the close itself was not in the logs)";
    how = `${nsText} removed ${who} at ${removedAt}, ${since}: ${cause}, and the NameServer dropped the broker at once. The broker process or host went away without unregistering: a crash, kill -9, restart or reboot. ${slave ? NO_SENDS_TO_SLAVE : `Clients follow at their next route poll (within ${formatMs(ROUTING_SETTINGS.pollNameServerInterval.default)}); sends in between fail fast and are retried on another broker.`}`;
    advice = [
      about('find-cause', `Find why ${who} went down at ${removedAt}: the broker's hs_err_pid*.log and stdout, the kernel log (OOM killer), and the host's reboot history.`),
      'For planned restarts use mqshutdown (SIGTERM) so that the broker unregisters first.',
    ];
  } else {
    severity = 'info';
    how = `${nsText} removed ${who} at ${removedAt}, ${since}, because the broker unregistered ("unregisterBroker, remove from brokerLiveTable OK"): a graceful shutdown, whose hook sends UNREGISTER_BROKER to every NameServer. ${slave ? NO_SENDS_TO_SLAVE : 'Clients drop the broker at their next route poll; sends to it in between are refused and retried on another broker.'}`;
    // What the producers ran with is not in the NameServer's log: the retries are the condition, not a fact about them.
    advice = [
      slave
        ? `Planned shutdown of a slave: nothing to fix for producers, which write to ${name ? `${name}'s` : 'its'} master only.`
        : 'Planned shutdown: nothing to fix. Producers that retry ride through it (retryTimesWhenSendFailed, 2 by default, sends a refused attempt to another broker); make sure other brokers serve the same topics.',
    ];
  }
  return {
    severity,
    title:
      `${ns ? `NameServer ${ns}` : `NameServer on ${r.nsHost}`} learned ${who} was gone at ${removedAt} by ` +
      `${detection === 'expired' ? (path === 'idle' ? 'expiry (idle channel)' : 'expiry') : detection === 'destroyed' ? 'a closed connection' : 'unregistration'}` +
      (detectMs !== null ? `, ${formatMs(detectMs)} after ${hb ? 'its last heartbeat' : 'the first client failure'}` : ''),
    start: from?.ts ?? r.first.ts,
    end: r.first.ts,
    subject: { host: r.nsHost, ...(name ? { broker: name } : {}), ...(addr ? { brokerAddr: addr } : {}), ...(ns ? { namesrvAddr: ns } : {}) },
    metrics: { detection, detectMs, namesrvAddr: ns, path, detectFrom: hb ? 'heartbeat' : fail ? 'client-failure' : null, brokerAlive: detection === 'unregistered' ? null : false },
    evidence: orderEvidence([r.first, r.pipe, from, ...r.lines]),
    explanation: how,
    advice,
  };
}

/** What removalFinding worked out of a removal, for the finding of one whose broker kept running. */
interface RemovalFacts {
  who: string;
  ns: string | null;
  nsText: string;
  since: string;
  removedAt: string;
  detection: Detection;
  path: Path;
  detectMs: number | null;
  hb: RmqEvent | null;
  fail: RmqEvent | null;
  from: RmqEvent | null;
  addr: string | null;
  name: string | null;
}

/** A removal of a broker that its own log shows running: the NameServer's side or the network, not the broker. */
function aliveFinding(r: Removal, x: RemovalFacts, alive: Alive): FindingInput & { severity: Severity } {
  const by = x.detection === 'expired' ? (x.path === 'idle' ? 'expiry (idle channel)' : 'expiry') : 'a closed connection';
  const nsName = x.ns ? `NameServer ${x.ns}` : `the NameServer on ${r.nsHost}`;
  const why = x.detection === 'expired' ? `no registration had reached it for ${formatMs(x.detectMs)}` : "it saw the broker's connection closed";
  const explanation =
    `${x.nsText} removed ${x.who} at ${x.removedAt}, ${x.since}: ${why}. Yet ${x.who} kept running: ${alive.text}. ` +
    `So the broker did not go away; its registrations did not reach this NameServer: the NameServer host stalled (a freeze or a long GC pause; when it runs again, its scan and its idle timer drop every broker it has not heard from for 120 s), or the network between them lost packets` +
    (x.detection === 'destroyed' ? ', or the broker closed the channel itself after a registration to it timed out (4.9.1+ close a channel whose request timed out)' : '') +
    `. ${routesMiss(nsName, x.who)}`;
  return {
    severity: 'warning',
    title: `${x.ns ? `NameServer ${x.ns}` : `NameServer on ${r.nsHost}`} dropped ${x.who} at ${x.removedAt} by ${by} while the broker kept running`,
    start: x.from?.ts ?? r.first.ts,
    end: r.first.ts,
    subject: { host: r.nsHost, ...(x.name ? { broker: x.name } : {}), ...(x.addr ? { brokerAddr: x.addr } : {}), ...(x.ns ? { namesrvAddr: x.ns } : {}) },
    metrics: { detection: x.detection, detectMs: x.detectMs, namesrvAddr: x.ns, path: x.path, detectFrom: x.hb ? 'heartbeat' : x.fail ? 'client-failure' : null, brokerAlive: true },
    evidence: orderEvidence([r.first, r.pipe, ...alive.evidence, x.from, ...r.lines]),
    explanation,
    advice: [
      about('find-cause', `Find why ${nsName} did not take ${x.who}'s registrations before ${x.removedAt}: the NameServer host (gaps in namesrv.log, GC pauses, a freeze) and the network between ${r.nsHost} and the broker's host. Nothing is to be fixed on ${x.who} itself.`),
    ],
  };
}

/** What a removal of a running broker costs its clients (the period is a default: the broker's dump may set it). */
function routesMiss(nsName: string, who: string): string {
  return `Clients that poll ${nsName} may miss ${who} in their routes until it registers again (every registerNameServerPeriod, 30 s by default).`;
}

/**
 * A removal a NameServer made as it ran again after a stall of its own, of a broker whose log shows
 * nothing either way: the logs do not tell whether the broker went away.
 */
function resumedFinding(r: Removal, x: RemovalFacts, stall: Stall): FindingInput & { severity: Severity } {
  const nsName = x.ns ? `NameServer ${x.ns}` : `the NameServer on ${r.nsHost}`;
  const by = x.detection === 'expired' ? (x.path === 'idle' ? 'expiry (idle channel)' : 'expiry') : 'a closed connection';
  const stallMs = stall.to.ts! - stall.from.ts!;
  const stallText = `its own watermark lines stood still for ${formatMs(stallMs)} before (from ${clockOf(stall.from)} to ${clockOf(stall.to)})`;
  const mechanism =
    x.detection === 'expired'
      ? 'A NameServer that stands still hears no registration meanwhile, and on running again its scan and its idle timer drop every broker it has not heard from for 120 s'
      : "While a NameServer stands still, a broker's registration to it times out and a 4.9.1+ or 5.x broker closes that channel (NettyRemotingClient.invokeSync, clientCloseSocketIfTimeout); the NameServer sees the close when it runs again";
  return {
    severity: 'warning',
    title: `${x.ns ? `NameServer ${x.ns}` : `NameServer on ${r.nsHost}`} dropped ${x.who} at ${x.removedAt} by ${by} as it ran again after a stall of ${formatMs(stallMs)}`,
    start: stall.from.ts,
    end: r.first.ts,
    subject: { host: r.nsHost, ...(x.name ? { broker: x.name } : {}), ...(x.addr ? { brokerAddr: x.addr } : {}), ...(x.ns ? { namesrvAddr: x.ns } : {}) },
    metrics: { detection: x.detection, detectMs: x.detectMs, namesrvAddr: x.ns, path: x.path, detectFrom: x.hb ? 'heartbeat' : x.fail ? 'client-failure' : null, brokerAlive: null, namesrvStallMs: stallMs },
    evidence: orderEvidence([r.first, r.pipe, stall.from, stall.to, x.from]),
    explanation:
      `${x.nsText} removed ${x.who} at ${x.removedAt}, ${x.since}, as it ran again: ${stallText}. ${mechanism}. ` +
      `So this removal does not tell whether ${x.who} went away. ` +
      routesMiss(nsName, x.who),
    advice: [
      about('find-cause', `Find why ${nsName} stood still before ${x.removedAt} (GC pauses, a freeze of its host, CPU starvation), and check ${x.who}'s own log around ${x.removedAt} before acting on the broker.`),
    ],
  };
}

/**
 * A removal the NameServer made as it shut down: closing its own connections removed the brokers on
 * them, whatever they were doing (gen-20261212: a NameServer and broker-a on one host, SIGTERMed
 * together; the NameServer removed broker-a at 03:56:57 in its own hook, and broker-a's hook began 12 s
 * later). It tells nothing of the broker.
 */
function namesrvStoppingFinding(r: Removal, x: RemovalFacts, stop: RmqEvent): FindingInput & { severity: Severity } {
  const nsName = x.ns ? `NameServer ${x.ns}` : `the NameServer on ${r.nsHost}`;
  return {
    severity: 'info',
    title: `${x.ns ? `NameServer ${x.ns}` : `NameServer on ${r.nsHost}`} dropped ${x.who} at ${x.removedAt} as it shut down itself`,
    start: stop.ts,
    end: r.first.ts,
    subject: { host: r.nsHost, ...(x.name ? { broker: x.name } : {}), ...(x.addr ? { brokerAddr: x.addr } : {}), ...(x.ns ? { namesrvAddr: x.ns } : {}) },
    metrics: { detection: x.detection, detectMs: x.detectMs, namesrvAddr: x.ns, path: x.path, detectFrom: x.hb ? 'heartbeat' : x.fail ? 'client-failure' : null, brokerAlive: null, namesrvStopping: true },
    evidence: orderEvidence([stop, r.first]),
    explanation:
      `${x.nsText} began its own shutdown at ${clockOf(stop)} (its shutdown hook) and removed ${x.who} at ${x.removedAt}: a NameServer going down closes its connections, and each broker on a closed one is removed. ` +
      `So this removal does not tell whether ${x.who} went away; the NameServer's own stop is what its clients and brokers saw. ` +
      routesMiss(nsName, x.who),
    advice: [],
  };
}

/** The finding of a broker's shutdown hook, unless a NameServer's log showed its removal. */
function shutdownFinding(j: Judge, s: Shutdown): (FindingInput & { severity: Severity }) | null {
  const { book, expiredMs } = j;
  const broker = book.brokerOfHost(s.host);
  // A NameServer log that shows the removal wins.
  const covered = [...s.removedNear.values()].some((r) => {
    const addr = r.addr ?? (book.brokerAddrsOf(r.name).length === 1 ? book.brokerAddrsOf(r.name)[0] : null);
    return (broker.addr && addr === broker.addr) || (addr && book.hostOfBrokerAddr(addr) === s.host);
  });
  if (covered) return null;
  const ns = [...s.namesrvs];
  const nsText = ns.length ? ns.join(';') : null;
  const who = broker.name && broker.addr ? `${broker.name} (${broker.addr})` : (broker.name ?? broker.addr ?? `the broker on ${s.host}`);
  const detectMs = s.lastReg && s.lastReg.ts !== null && s.signal.ts !== null ? s.signal.ts - s.lastReg.ts : null;
  return {
    severity: 'info',
    title: `${who} shut down gracefully and unregistered from ${ns.length ? `${ns.length} NameServer${ns.length === 1 ? '' : 's'}` : 'its NameServers'} (inferred from the broker log)`,
    start: s.lastReg?.ts ?? s.signal.ts,
    end: s.signal.ts,
    subject: { host: s.host, ...(broker.name ? { broker: broker.name } : {}), ...(broker.addr ? { brokerAddr: broker.addr } : {}), ...(nsText ? { namesrvAddr: nsText } : {}) },
    metrics: { detection: 'unregistered', detectMs, namesrvAddr: nsText, path: 'inferred', detectFrom: s.lastReg ? 'heartbeat' : null },
    evidence: orderEvidence([s.signal, s.lastReg]),
    explanation:
      `${who} ran its shutdown hook at ${clockOf(s.signal)}${s.lastReg ? `, ${formatMs(detectMs)} after its last registration (${clockOf(s.lastReg)})` : ''}. ` +
      `The hook unregisters the broker from every NameServer (${nsText ?? 'the ones it registered with'}) before it closes its connections, so the NameServers dropped it at once ("unregisterBroker, remove from brokerLiveTable OK") rather than after the ${formatMs(expiredMs)} expiry. No NameServer log was given to confirm it.`,
    advice: [
      'Planned shutdown: nothing to fix if it was intended. If it was not, find who sent the signal (the hook runs on SIGTERM/SIGINT or System.exit, not on kill -9).',
    ],
  };
}

export default rule;
