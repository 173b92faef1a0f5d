// Shared helpers for the routing rules (stale-route, namesrv-stuck, broker-down-detection,
// colocated-namesrv, broker-register-failed): address parsing, and an address book that learns
// which broker name owns which address, which addresses are NameServers, and which host (log
// folder) has which IP, from startup, route, registration and connection events.
//
// How a host's address is learned (first that applies):
// - a broker boot line on the host (`The broker[name, ip:port] boot success ...`) gives its IP;
// - a NameServer's log naming its own address (src/parse/namesrv-self.ts: the 5.3.3 boot line's
//   `address ip:port`, 5.x's own client pointed at itself) gives its NameServer address;
// - a client's `Created a new client Instance ... clientIP=...` gives a client host's IP;
// - a host folder named by an IP;
// - a NameServer host is matched to a NameServer address by connections: a client whose IP is
//   known connects to NameServer N (`NETTY CLIENT PIPELINE: CONNECT  UNKNOWN => N`) at t, and the
//   NameServer log of host H shows `channelActive` from that client IP within a second or two
//   of t; an address goes to a host when it has more such matches there than any other open pair
//   of that host or that address (ties stay unknown);
// - at last by elimination: one NameServer host and one NameServer address left over.
// All state is bounded: maps keyed by hosts, brokers and addresses, and capped connection samples.

import type { EventType, RmqEvent } from '../parse/types.js';
import type { RuleContext, SourceInfo, Visitor } from './types.js';
import { namesrvOwnAddress } from '../parse/namesrv-self.js';
import { brokerDatas } from '../parse/route-change.js';
import { isSendCallbackClass } from '../parse/record.js';
import { CLIENT_DEFAULTS, SCHEDULED_LOGS, type ScheduledLog } from '../rocketmq/facts.js';

/** NameServer default port. */
export const NAMESRV_PORT = 9876;
/** 4.x scans for inactive brokers every 10 s (5.x every 5 s): the longer one bounds the wait. */
export const SCAN_NOT_ACTIVE_BROKER_MS = 10000;
/** Default registration period of a broker (registerNameServerPeriod). */
export const REGISTER_PERIOD_MS = SCHEDULED_LOGS.brokerRegistration.periodMs;

export const ROUTING_SETTINGS = {
  brokerChannelExpiredMs: {
    default: 120000,
    description: 'NameServer expiry of a broker that sent no registration (BROKER_CHANNEL_EXPIRED_TIME / heartbeatTimeoutMillis)',
    unit: 'ms',
  },
  pollNameServerInterval: {
    default: CLIENT_DEFAULTS.pollNameServerIntervalMs,
    description: "client route poll period (ClientConfig.pollNameServerInterval)",
    unit: 'ms',
  },
} as const;

const CLIENT_KINDS = new Set(['client', 'app']);
const BROKER_KINDS = new Set(['broker', 'remoting']);

export function isClientEvent(e: RmqEvent): boolean {
  return CLIENT_KINDS.has(e.kind);
}

export function isBrokerEvent(e: RmqEvent): boolean {
  return BROKER_KINDS.has(e.kind);
}

// ---- addresses ------------------------------------------------------------------------------

/**
 * The comparable form of an address: no leading `/`, no `host/` prefix (`rocketmq-ns/10.0.0.1:9876`
 * and RocketMQ's first-letter-lost `ocketmq-ns/10.0.0.1:9876` both give `10.0.0.1:9876`), lower case.
 */
export function addrKey(addr: string | null | undefined): string | null {
  if (!addr) return null;
  // Rules ask for the same few addresses millions of times: the answers are kept (a bounded memo).
  const known = keys.get(addr);
  if (known !== undefined) return known;
  let a = addr.trim();
  const slash = a.lastIndexOf('/');
  if (slash >= 0) a = a.slice(slash + 1);
  a = a.toLowerCase();
  if (keys.size >= MEMO_MAX) keys.clear();
  keys.set(addr, a || null);
  return a || null;
}

const MEMO_MAX = 4096;
const keys = new Map<string, string | null>();
const ports = new Map<string, number | null>();

/** The host part of an address (`10.0.0.1:9876` -> `10.0.0.1`). */
export function ipOf(addr: string | null | undefined): string | null {
  const k = addrKey(addr);
  if (!k) return null;
  const colon = k.lastIndexOf(':');
  return colon > 0 ? k.slice(0, colon) : k;
}

export function portOf(addr: string | null | undefined): number | null {
  const k = addrKey(addr);
  if (!k) return null;
  const known = ports.get(k);
  if (known !== undefined) return known;
  const m = /:(\d+)$/.exec(k);
  if (ports.size >= MEMO_MAX) ports.clear();
  const port = m ? Number(m[1]) : null;
  ports.set(k, port);
  return port;
}

/** The address an exception text names: `<addr>`, `connect to addr failed`, `channel[addr]`. */
export function addrInText(text: string | null | undefined): string | null {
  if (!text) return null;
  const m =
    /<([^<>\s]+)>/.exec(text) ??
    /connect to (\S+) failed/.exec(text) ??
    /send request to (\S+) failed/.exec(text) ??
    /call the addr\[([^\]\s]+)\]/.exec(text) ??
    /channel\[(?:addr=)?([^\],\s]+)/.exec(text);
  if (!m) return null;
  const a = m[1].replace(/^</, '').replace(/>$/, '');
  if (!a || a === 'null' || a.startsWith('[')) return null;
  return a;
}

/**
 * Whether an exception text or cause says a remoting call got no answer in time (not a refused
 * connection, and not a broker's busy or error reply such as `[TIMEOUT_CLEAN_QUEUE]`).
 */
export function isTimeoutCause(cause: string | null | undefined): boolean {
  if (!cause || /MQBrokerException|CODE: ?\d|_CLEAN_QUEUE|ConnectException/.test(cause)) return false;
  return /RemotingTimeoutException|wait response on the channel|call timeout|call the addr\[[^\]]*\] timeout|wait response timeout/.test(cause);
}

/**
 * A connect that timed out (no answer at all: no SYN-ACK, no RST), as NettyRemotingClient.createChannel
 * words it up to 5.2: `createChannel: connect remote host[X] timeout 3000ms`, or a ConnectTimeoutException
 * under `createChannel: connect remote host[X] failed`. The RemotingConnectException a caller gets
 * (`connect to X failed`, NettyRemotingClient.invokeSync) does not say which.
 */
export function isConnectTimeout(e: RmqEvent): boolean {
  return /connect remote host\[[^\]]*\] timeout|ConnectTimeoutException|connection timed out/.test(e.text) && !/refused|reset/i.test(e.text);
}

/** A connect refused (nothing listening on a live host), as the exception under createChannel's line says. */
export function isConnectRefused(e: RmqEvent): boolean {
  return /Connection refused/i.test(e.text);
}

/** Whether an exception text or cause says a connection could not be made. */
export function isConnectCause(cause: string | null | undefined): boolean {
  return !!cause && /RemotingConnectException|connect to \S+ failed|Connection refused|ConnectException/.test(cause);
}

/**
 * What one failed send attempt (`sendKernelImpl exception, resend at once, ... RT: Nms`) says about
 * its broker and its send. DefaultMQProducerImpl.sendDefaultImpl (4.x and 5.x) gives each attempt
 * what is left of sendMsgTimeout and stops when nothing is left (`sendDefaultImpl call timeout`).
 * - `spent`: the call waited for (nearly) all the time it was given: the send is over.
 * - `fast`: it failed at once (a refused connection, a channel closed under it, a 4.9.1+ client's
 *   channel closed after an earlier timeout): the loop tries another broker, the send may succeed.
 * - `leftover`: it was given less than any sendMsgTimeout (`timeout, 140(ms)`: isLeftoverBudget), or
 *   was stopped before the call
 *   (`sendKernelImpl call timeout` and its kin, `invokeSync call the addr[...] timeout`): the send had already
 *   spent its budget on another attempt, and
 *   the attempt says nothing about this broker (a healthy broker's late answer is then logged as
 *   `receive response, but not matched any request`).
 */
export function attemptOutcome(e: RmqEvent): 'spent' | 'fast' | 'leftover' {
  const cause = (e.fields.cause as string | null) ?? '';
  // RemotingTooMuchRequestException `<method> call timeout`: a budget check before the call
  // (sendDefaultImpl, sendKernelImpl, MQClientAPIImpl.sendMessage, sendSelectImpl).
  if (/\b(?:sendKernelImpl|sendDefaultImpl|sendMessage|sendSelectImpl) call timeout/.test(cause)) return 'leftover';
  const rt = typeof e.fields.rtMs === 'number' ? e.fields.rtMs : null;
  // NettyRemotingClient.invokeSync throws this before the request is written when the budget is gone
  // (`invokeSync call timeout` up to 4.9.x, `invokeSync call the addr[...] timeout` later; invokeAsync
  // the same); only a channel that took the budget to open makes it the broker's doing.
  if (/invoke(?:Sync|Async|AsyncImpl) call (?:the addr\[[^\]]*\] )?timeout/.test(cause)) return rt !== null && rt >= SPENT_MIN_MS ? 'spent' : 'leftover';
  if (!isTimeoutCause(cause)) return 'fast';
  // A call given less than any sendMsgTimeout anyone sets was a retry's leftover: not answering
  // within it says nothing of the broker (gen-20270108: a retry to a healthy broker-c given the
  // 140 ms an attempt to an overloaded broker-b had left).
  const budget = givenTimeoutMs(cause);
  if (budget !== null && isLeftoverBudget(budget)) return 'leftover';
  if (rt === null) return 'spent';
  if (budget !== null) return rt >= budget * 0.9 ? 'spent' : 'fast';
  return rt >= SPENT_MIN_MS ? 'spent' : 'fast';
}

/** `wait response on the channel <addr> timeout, 3000(ms)`: the time the call was given (it waited that long). */
export function givenTimeoutMs(cause: string | null | undefined): number | null {
  const m = /timeout, (\d+)\s*\(ms\)/.exec(cause ?? '');
  return m ? Number(m[1]) : null;
}


/**
 * The send budget (sendMsgTimeout) a client's failed attempts show. An attempt is given what is
 * left of the budget (DefaultMQProducerImpl.sendDefaultImpl: `timeout - costTime`), and a timed-out
 * call prints what it was given (`wait response on the channel <addr> timeout, N(ms)`,
 * NettyRemotingAbstract.invokeSyncImpl): a send's first attempt is given the whole budget less its
 * route lookup, so the largest N is the budget to within a few ms (a setting is a round figure: N
 * rounded up to 100 ms). Without N, the longest attempt that timed out (its RT), rounded down. Only
 * timed-out attempts: one that failed at once on a channel closed under it (4.9.1+, `send request
 * to <addr> failed`) says nothing of the budget, though its RT may be seconds. 5.3.3's
 * sendMsgMaxTimeoutPerRequest, when set, caps N: the budget read is then that cap.
 */
export class SendBudgetSeen {
  private given: { n: number; e: RmqEvent } | null = null;
  private rt: { n: number; e: RmqEvent } | null = null;
  /** The longest time an ASYNC send's timed-out request was given (asyncGivenMs). */
  private asyncGiven: { n: number; e: RmqEvent } | null = null;

  /** Reads one event of the client (only failed send attempts count). */
  add(e: RmqEvent): void {
    const a = asyncGivenMs(e);
    if (a !== null && a >= MIN_BUDGET_MS && (!this.asyncGiven || a > this.asyncGiven.n)) this.asyncGiven = { n: a, e };
    if (e.type !== 'send-attempt-failed') return;
    const cause = (e.fields.cause as string | null) ?? null;
    if (!isTimeoutCause(cause)) return;
    const n = givenTimeoutMs(cause);
    if (n !== null && n >= MIN_BUDGET_MS && (!this.given || n > this.given.n)) this.given = { n, e };
    const r = typeof e.fields.rtMs === 'number' ? e.fields.rtMs : null;
    if (r !== null && r >= MIN_BUDGET_MS && (!this.rt || r > this.rt.n)) this.rt = { n: r, e };
  }

  /** The budget read so far (ms), why, and the line that shows it; null: no attempt shows it. */
  get(): { ms: number; why: string; event: RmqEvent } | null {
    const { given, rt, asyncGiven } = this;
    if (asyncGiven && (!given || asyncGiven.n > given.n)) {
      const what = asyncGiven.e.entry === 'async-timeout/remove-timeout-request' ? `\`timeoutMillis=${asyncGiven.n}\` of a request removed by NettyRemotingAbstract.scanResponseTable` : `\`wait response timeout ${asyncGiven.n}ms\``;
      return {
        ms: Math.ceil(asyncGiven.n / 100) * 100,
        why: `the longest time an ASYNC send's request that timed out was given (${what}; MQClientAPIImpl.sendMessageAsync: a first attempt gets the whole sendMsgTimeout less its route lookup, a retry what is left)`,
        event: asyncGiven.e,
      };
    }
    if (given) return { ms: Math.ceil(given.n / 100) * 100, why: `the longest time a timed-out attempt was given (\`timeout, ${given.n}(ms)\`: a first attempt gets the whole budget less its route lookup)`, event: given.e };
    if (rt) return { ms: Math.floor(rt.n / 100) * 100, why: `the longest attempt that timed out (RT ${rt.n} ms)`, event: rt.e };
    return null;
  }
}

/**
 * The time an ASYNC send's request that timed out was given (ResponseFuture.timeoutMillis), else
 * null: `wait response timeout Nms`, which only MQClientAPIImpl.sendMessageAsync's InvokeCallback
 * throws (4.x to 5.1.x; 5.2.0+ print the cost instead), or a request scanResponseTable removed
 * whose callback is sendMessageAsync's (isSendCallbackClass; a pull's is another).
 */
export function asyncGivenMs(e: RmqEvent): number | null {
  if ((e.type !== 'rpc-timeout' && e.type !== 'async-timeout') || typeof e.fields.timeoutMs !== 'number') return null;
  if (e.entry === 'rpc-timeout/async-send-wait-response') return e.fields.timeoutMs;
  if (e.entry === 'async-timeout/remove-timeout-request' && isSendCallbackClass(e.fields.callback)) return e.fields.timeoutMs;
  return null;
}

/** SendBudgetSeen over one client's events. */
export function sendBudgetSeen(events: readonly RmqEvent[]): { ms: number; why: string; event: RmqEvent } | null {
  const seen = new SendBudgetSeen();
  for (const e of events) seen.add(e);
  return seen.get();
}

/** A budget below this is no sendMsgTimeout anyone sets, and an attempt given less was a retry's leftover. */
const MIN_BUDGET_MS = 500;

/** Whether a call given `ms` (its `timeout, N(ms)`) got a retry's leftover of a spent send budget: its timeout says nothing of the broker or the network. */
export function isLeftoverBudget(ms: number): boolean {
  return ms < MIN_BUDGET_MS;
}

/** Without the budget in the text, a timed-out attempt this long took the send's budget. */
const SPENT_MIN_MS = 1000;

/**
 * Timeouts that only echo a leftover attempt (attemptOutcome): the `invokeSync: wait response
 * timeout exception` line of a call that was given no time. The two lines are logged by different
 * threads within a few ms, in either order, so a timeout is held `windowMs` before it counts.
 * Bounded: a few held timeouts and recent leftovers per host.
 */
export class LeftoverEchoes {
  /** Held timeouts in time order: those from `heldAt` on wait (a queue: a dense log holds thousands a second). */
  private held: Array<{ e: RmqEvent; addr: string; commit: () => void }> = [];
  private heldAt = 0;
  private readonly recent: Array<{ e: RmqEvent; addr: string }> = [];

  constructor(private readonly windowMs = 1500) {}

  private near(a: RmqEvent, b: RmqEvent): boolean {
    return a.host === b.host && a.ts !== null && b.ts !== null && Math.abs(a.ts - b.ts) <= this.windowMs;
  }

  /** A leftover attempt against `addr`: timeouts of that address around it are its echoes. */
  leftover(e: RmqEvent, addr: string | null): void {
    const a = addrKey(addr);
    if (!a) return;
    this.held = this.held.slice(this.heldAt).filter((h) => !(h.addr === a && this.near(h.e, e)));
    this.heldAt = 0;
    this.recent.push({ e, addr: a });
    if (this.recent.length > 64) this.recent.shift();
  }

  /** Whether a timeout of `addr` is the echo of a leftover attempt seen before it. */
  isEcho(e: RmqEvent, addr: string | null): boolean {
    const a = addrKey(addr);
    return !!a && this.recent.some((r) => r.addr === a && this.near(r.e, e));
  }

  /** A timeout of `addr`: `commit` runs once it is known not to be an echo. */
  hold(e: RmqEvent, addr: string | null, commit: () => void): void {
    this.tick(e.ts);
    const a = addrKey(addr);
    if (!a || e.ts === null) return commit();
    if (this.isEcho(e, a)) return;
    this.held.push({ e, addr: a, commit });
    if (this.held.length - this.heldAt > 256) this.commitOldest();
  }

  tick(ts: number | null): void {
    if (ts === null) return;
    while (this.heldAt < this.held.length && this.held[this.heldAt].e.ts! < ts - this.windowMs) this.commitOldest();
  }

  flush(): void {
    const rest = this.held.slice(this.heldAt);
    this.held = [];
    this.heldAt = 0;
    for (const h of rest) h.commit();
  }

  /** Take the oldest held timeout off the queue, then let it count. */
  private commitOldest(): void {
    const h = this.held[this.heldAt++];
    if (this.heldAt >= 1024 && this.heldAt * 2 >= this.held.length) {
      this.held = this.held.slice(this.heldAt);
      this.heldAt = 0;
    }
    h.commit();
  }
}

/** `a;b;c`, `[a, b]` or `a,b` -> list. */
export function splitAddrs(s: string): string[] {
  return s
    .replace(/^\[|\]$/g, '')
    .split(/[;,]\s*/)
    .map((x) => x.trim())
    .filter(Boolean);
}

/** Broker name -> addresses printed in a route line's `BrokerData [brokerName=..., brokerAddrs={0=ip:port, ...}` items. */
export function brokerDataIn(text: string): Array<[name: string, addr: string, brokerId: string]> {
  return brokerDatas(text).flatMap((b) => b.addrs.map((a): [string, string, string] => [b.name, a.addr, a.id]));
}

function isIp(s: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(s);
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V, cap: number): void {
  let list = m.get(k);
  if (!list) m.set(k, (list = []));
  if (list.length < cap) list.push(v);
}

function addTo<K, V>(m: Map<K, Set<V>>, k: K, v: V): void {
  let s = m.get(k);
  if (!s) m.set(k, (s = new Set()));
  s.add(v);
}

/**
 * The run's address book: one for all rules, fed each event of BOOK_EVENTS before any rule's
 * handler (the engine does it), so that rules see an up-to-date book. It is a function of the
 * events and the sources alone (rules only ask it), so one book serves every rule.
 */
export function addressBook(ctx: RuleContext): AddressBook {
  return ctx.shared(AddressBook, () => new AddressBook(ctx.sources));
}

/** Event types the address book reads (rules add them to their meta.events). */
export const BOOK_EVENTS: EventType[] = [
  'startup',
  'namesrv-list',
  'namesrv-chosen',
  'route-changed',
  'route-update-failed',
  'heartbeat-failed',
  'send-attempt-failed',
  'broker-registered',
  'register-failed',
  'broker-expired',
  'broker-removed',
  'pipeline',
];

const MAX_CONNECTS_PER_HOST = 64;
const MAX_ACCEPTS_PER_HOST = 512;

export class AddressBook {
  private readonly namesrvs = new Set<string>();
  private readonly nameByAddr = new Map<string, string>();
  private readonly addrsByName = new Map<string, Set<string>>();
  private readonly brokerAddrs = new Set<string>();
  /** Broker address -> its brokerId as the last route line or heartbeat line that listed it gave it. */
  private readonly idByAddr = new Map<string, number>();
  /** host -> IPs known directly (boot lines, folder names). */
  private readonly directIps = new Map<string, Set<string>>();
  /** host -> NameServer address known directly (5.3.3 boot line). */
  private readonly directNs = new Map<string, string>();
  private readonly clientIp = new Map<string, string>();
  /** Broker host -> its broker (boot line). */
  private readonly brokerOnHost = new Map<string, { name: string | null; addr: string }>();
  private readonly connects = new Map<string, Array<{ ts: number; addr: string }>>();
  private readonly accepts = new Map<string, Array<{ ts: number; ip: string }>>();
  private readonly hostKinds = new Map<string, Set<string>>();
  /** Ground for colocation: `name server is a;b` / namesrv-list events seen (first one kept). */
  readonly namesrvListEvent = new Map<string, RmqEvent>();
  private nsOfHost: Map<string, string> | null = null;

  constructor(sources: readonly SourceInfo[]) {
    for (const s of sources) {
      addTo(this.hostKinds, s.host, s.kind);
      if (isIp(s.host)) addTo(this.directIps, s.host, s.host);
    }
  }

  // ---- learning ----

  noteBroker(name: string | null | undefined, addr: string | null | undefined): void {
    const k = addrKey(addr);
    if (!k || this.namesrvs.has(k)) return;
    this.brokerAddrs.add(k);
    if (name && name !== 'null') {
      this.nameByAddr.set(k, name);
      addTo(this.addrsByName, name, k);
    }
  }

  private noteBrokerId(addr: string | null | undefined, id: number): void {
    const k = addrKey(addr);
    if (k && Number.isInteger(id) && id >= 0) this.idByAddr.set(k, id);
  }

  noteNamesrv(addr: string | null | undefined, e?: RmqEvent): void {
    const k = addrKey(addr);
    if (!k || k === 'null') return;
    if (!this.namesrvs.has(k)) {
      this.namesrvs.add(k);
      this.nsOfHost = null;
    }
    if (e && !this.namesrvListEvent.has(k)) this.namesrvListEvent.set(k, e);
  }

  /** A NameServer's log naming its own address (namesrvOwnAddress) places it on that host. */
  private noteOwnNamesrv(e: RmqEvent): void {
    const a = namesrvOwnAddress(e);
    const k = addrKey(a);
    if (!k) return;
    this.noteNamesrv(k);
    this.directNs.set(e.host, k);
    addTo(this.directIps, e.host, ipOf(k)!);
    this.nsOfHost = null;
  }

  private readonly handlers: Visitor = {
    startup: (e) => {
      const f = e.fields;
      if (f.role === 'broker' && typeof f.brokerAddr === 'string') {
        this.noteBroker(f.brokerName as string | null, f.brokerAddr);
        const ip = ipOf(f.brokerAddr);
        if (ip) addTo(this.directIps, e.host, ip);
        this.brokerOnHost.set(e.host, { name: (f.brokerName as string | null) ?? null, addr: addrKey(f.brokerAddr)! });
        const ns = /name server is (\S+)/.exec(e.text);
        if (ns) for (const a of splitAddrs(ns[1])) this.noteNamesrv(a, e);
        this.nsOfHost = null;
      } else if (f.role === 'namesrv') {
        this.noteOwnNamesrv(e);
      } else if (f.role === 'client') {
        const m = /clientIP=([^,\s\]]+)/.exec(e.text) ?? /ClientID:(\d{1,3}(?:\.\d{1,3}){3})@/.exec(e.text);
        if (m) {
          this.clientIp.set(e.host, m[1]);
          this.nsOfHost = null;
        }
      }
    },
    'namesrv-list': (e) => {
      for (const a of (e.fields.addrs as string[]) ?? []) this.noteNamesrv(a, e);
      this.noteOwnNamesrv(e);
    },
    'namesrv-chosen': (e) => {
      this.noteNamesrv(e.fields.new as string | null);
      this.noteNamesrv(e.fields.old as string | null);
    },
    'route-changed': (e) => {
      for (const [name, addr, id] of brokerDataIn(e.text)) {
        this.noteBroker(name, addr);
        this.noteBrokerId(addr, Number(id));
      }
    },
    'route-update-failed': (e) => {
      if (e.fields.addr) this.noteNamesrv(e.fields.addr as string);
    },
    'heartbeat-failed': (e) => {
      this.noteBroker(e.fields.brokerName as string | null, e.fields.brokerAddr as string | null);
      if (typeof e.fields.brokerId === 'number') this.noteBrokerId(e.fields.brokerAddr as string | null, e.fields.brokerId);
    },
    'send-attempt-failed': (e) => {
      const a = addrInText(e.fields.cause as string | null);
      if (a && !this.isNamesrv(a)) this.noteBroker(e.fields.brokerName as string | null, a);
    },
    'broker-registered': (e) => {
      if (e.fields.namesrvAddr) this.noteNamesrv(e.fields.namesrvAddr as string);
      if (e.fields.brokerAddr) this.noteBroker(e.fields.brokerName as string | null, e.fields.brokerAddr as string);
    },
    'register-failed': (e) => {
      if (e.fields.namesrvAddr) this.noteNamesrv(e.fields.namesrvAddr as string);
    },
    'broker-expired': (e) => this.noteBroker(null, e.fields.brokerAddr as string | null),
    'broker-removed': (e) => {
      if (e.fields.brokerAddr) this.noteBroker(e.fields.brokerName as string | null, e.fields.brokerAddr as string);
    },
    pipeline: (e) => {
      if (e.ts === null) return;
      const f = e.fields;
      const addr = f.addr as string | null;
      if (!addr) return;
      if (f.side === 'client' && f.event === 'connect' && isClientEvent(e) && this.isNamesrv(addr)) {
        push(this.connects, e.host, { ts: e.ts, addr: addrKey(addr)! }, MAX_CONNECTS_PER_HOST);
        this.nsOfHost = null;
      } else if (f.side === 'server' && f.event === 'active' && e.kind === 'namesrv') {
        const ip = ipOf(addr);
        if (ip) push(this.accepts, e.host, { ts: e.ts, ip }, MAX_ACCEPTS_PER_HOST);
        this.nsOfHost = null;
      }
    },
  };

  /** The book's handlers; merge them first so that rules see an up-to-date book. */
  visitor(): Visitor {
    return this.handlers;
  }

  // ---- queries ----

  /** A NameServer address: listed as one, or on port 9876. */
  isNamesrv(addr: string | null | undefined): boolean {
    const k = addrKey(addr);
    if (!k) return false;
    return this.namesrvs.has(k) || portOf(k) === NAMESRV_PORT;
  }

  get namesrvAddrs(): string[] {
    return [...this.namesrvs];
  }

  get knownBrokerAddrs(): string[] {
    return [...this.brokerAddrs];
  }

  brokerNameOf(addr: string | null | undefined): string | null {
    const k = addrKey(addr);
    return (k && this.nameByAddr.get(k)) ?? null;
  }

  /**
   * Whether a broker address is a slave's: a brokerId other than 0 (MixAll.MASTER_ID) where a
   * client's route or heartbeat line listed it; null when no such line did.
   */
  isSlaveAddr(addr: string | null | undefined): boolean | null {
    const k = addrKey(addr);
    const id = k ? this.idByAddr.get(k) : undefined;
    return id === undefined ? null : id !== 0;
  }

  brokerAddrsOf(name: string | null | undefined): string[] {
    return name ? [...(this.addrsByName.get(name) ?? [])] : [];
  }

  /**
   * The broker a failed send attempt went to, as name and address: the line's `Broker:` name, and
   * the address its cause names (`wait response on the channel <addr>`); each found from the other
   * when the line lacks it (5.1.0-5.2.0 print a literal `%s` for both).
   */
  brokerOfAttempt(e: RmqEvent): { name: string | null; addr: string | null } {
    const fromCause = addrKey(addrInText(e.fields.cause as string | null));
    const name = (e.fields.brokerName as string | null) ?? this.brokerNameOf(fromCause);
    const addrs = this.brokerAddrsOf(name);
    return { name, addr: fromCause ?? (addrs.length === 1 ? addrs[0] : null) };
  }

  hasKind(host: string, kind: string): boolean {
    return this.hostKinds.get(host)?.has(kind) ?? false;
  }

  hostsOfKind(kind: string): string[] {
    return [...this.hostKinds].filter(([, k]) => k.has(kind)).map(([h]) => h);
  }

  /** NameServer address of a host whose namesrv.log we read (see the header for how). */
  namesrvAddrOfHost(host: string): string | null {
    return this.resolveNamesrvHosts().get(host) ?? null;
  }

  /** IPs of a host: direct, its NameServer address, its client IP. */
  ipsOfHost(host: string): Set<string> {
    const out = new Set(this.directIps.get(host) ?? []);
    const ns = this.namesrvAddrOfHost(host);
    if (ns) out.add(ipOf(ns)!);
    const c = this.clientIp.get(host);
    if (c) out.add(c);
    return out;
  }

  /** The host (log folder) with this IP, preferring server hosts. */
  hostOfIp(ip: string | null | undefined): string | null {
    if (!ip) return null;
    const hosts = new Set<string>([...this.hostKinds.keys(), ...this.directIps.keys()]);
    let clientMatch: string | null = null;
    for (const h of hosts) {
      if (!this.ipsOfHost(h).has(ip)) continue;
      if (this.hasKind(h, 'broker') || this.hasKind(h, 'namesrv') || this.hasKind(h, 'remoting')) return h;
      clientMatch ??= h;
    }
    return clientMatch;
  }

  /** The broker a broker host runs: its boot line, or a known broker address on one of its IPs. */
  brokerOfHost(host: string): { name: string | null; addr: string | null } {
    const boot = this.brokerOnHost.get(host);
    if (boot) return { name: boot.name ?? this.brokerNameOf(boot.addr), addr: boot.addr };
    const ips = this.ipsOfHost(host);
    const candidates = [...this.brokerAddrs].filter((a) => ips.has(ipOf(a)!));
    // Prefer the usual listen port over VIP/HA ports.
    candidates.sort((a, b) => Number(portOf(a) !== 10911) - Number(portOf(b) !== 10911));
    const addr = candidates[0] ?? null;
    return { name: this.brokerNameOf(addr), addr };
  }

  /** Whether a NameServer runs on this IP: a known NameServer address on it, or a host folder with a namesrv.log. */
  isNamesrvIp(ip: string): boolean {
    return [...this.namesrvs].some((a) => ipOf(a) === ip) || this.hostsOfKind('namesrv').some((h) => this.ipsOfHost(h).has(ip));
  }

  /**
   * Whether a NameServer IP runs a broker too: a known broker address (not on the NameServer port)
   * on that IP, or a host folder that holds both a namesrv.log and a broker log.
   */
  sharesHostWithBroker(nsIp: string): boolean {
    if ([...this.brokerAddrs].some((a) => ipOf(a) === nsIp && portOf(a) !== NAMESRV_PORT)) return true;
    return this.hostsOfKind('namesrv').some((h) => this.hasKind(h, 'broker') && this.ipsOfHost(h).has(nsIp));
  }

  /**
   * Where the cluster's NameServers run, as far as the logs tell: `shared` when one shares its host
   * with a broker, `apart` when each known NameServer runs where no broker is known (and some broker
   * address is known), null when the logs name no NameServer or no broker. `hosts`: the NameServers'
   * distinct IPs.
   */
  namesrvPlacement(): { state: 'shared' | 'apart' | null; hosts: number } {
    const ips = new Set([...this.namesrvs].map((a) => ipOf(a)!));
    if (!ips.size || !this.brokerAddrs.size) return { state: null, hosts: ips.size };
    return { state: [...ips].some((ip) => this.sharesHostWithBroker(ip)) ? 'shared' : 'apart', hosts: ips.size };
  }

  /** The host whose broker has this address. */
  hostOfBrokerAddr(addr: string | null | undefined): string | null {
    const k = addrKey(addr);
    if (!k) return null;
    for (const [h, b] of this.brokerOnHost) if (b.addr === k) return h;
    return this.hostOfIp(ipOf(k));
  }

  /** Client IP of a client host, when its startup line printed one. */
  clientIpOf(host: string): string | null {
    return this.clientIp.get(host) ?? null;
  }

  private resolveNamesrvHosts(): Map<string, string> {
    if (this.nsOfHost) return this.nsOfHost;
    const result = new Map<string, string>();
    const taken = new Set<string>();
    const nsHosts = this.hostsOfKind('namesrv');
    // 1. Direct: the host's own boot line or IP.
    for (const h of nsHosts) {
      let ns = this.directNs.get(h) ?? null;
      if (!ns) {
        const ips = this.directIps.get(h) ?? new Set<string>();
        const matches = [...this.namesrvs].filter((a) => ips.has(ipOf(a)!));
        matches.sort((a, b) => Number(portOf(a) !== NAMESRV_PORT) - Number(portOf(b) !== NAMESRV_PORT));
        ns = matches[0] ?? null;
      }
      if (ns && !taken.has(ns)) {
        result.set(h, ns);
        taken.add(ns);
      }
    }
    // 2. Connections: client IP X connected to N at t; host H accepted a channel from X near t.
    const connectsByIp = new Map<string, Array<{ ts: number; addr: string }>>();
    for (const [client, list] of this.connects) {
      const ip = this.clientIp.get(client);
      if (!ip) continue;
      const all = connectsByIp.get(ip) ?? [];
      all.push(...list);
      connectsByIp.set(ip, all);
    }
    const votes: Array<{ host: string; ns: string; n: number }> = [];
    for (const h of nsHosts) {
      if (result.has(h)) continue;
      const tally = new Map<string, number>();
      for (const acc of this.accepts.get(h) ?? []) {
        for (const c of connectsByIp.get(acc.ip) ?? []) {
          // Server times have no milliseconds: the accept is logged in the connect's second or the next.
          if (acc.ts >= c.ts - 1000 && acc.ts <= c.ts + 2000) tally.set(c.addr, (tally.get(c.addr) ?? 0) + 1);
        }
      }
      for (const [ns, n] of tally) votes.push({ host: h, ns, n });
    }
    // A pair is taken only when it beats every other open pair of its host and of its address: a
    // client connects to every NameServer in the same second at start, so ties are the usual case
    // and a tie broken by order names the wrong host (gen-703: mq-ns-2 and mq-ns-3 swapped). What
    // no pair decides stays unknown.
    for (;;) {
      const open = votes.filter((v) => !result.has(v.host) && !taken.has(v.ns));
      const win = open.find((v) => open.every((o) => o === v || (o.host !== v.host && o.ns !== v.ns) || o.n < v.n));
      if (!win) break;
      result.set(win.host, win.ns);
      taken.add(win.ns);
    }
    // 3. Elimination: one NameServer host left and one NameServer address not on another known host.
    const leftHosts = nsHosts.filter((h) => !result.has(h));
    if (leftHosts.length === 1) {
      const otherIps = new Set<string>();
      for (const [h, ips] of this.directIps) if (h !== leftHosts[0]) for (const ip of ips) otherIps.add(ip);
      const leftNs = [...this.namesrvs].filter((a) => !taken.has(a) && !otherIps.has(ipOf(a)!));
      if (leftNs.length === 1) result.set(leftHosts[0], leftNs[0]);
    }
    this.nsOfHost = result;
    return result;
  }
}

/** Sort evidence by time (nulls keep their place), drop duplicates and nulls, cut to five. */
export function orderEvidence(events: Array<RmqEvent | null | undefined>, max = 5): RmqEvent[] {
  const seen = new Set<string>();
  const out: RmqEvent[] = [];
  for (const e of events) {
    if (!e) continue;
    const k = `${e.file}:${e.line}`;
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(e);
  }
  const kept = out.slice(0, max);
  return kept.sort((a, b) => (a.ts ?? 0) - (b.ts ?? 0) || a.source - b.source || a.line - b.line);
}

/**
 * The time of an event as its log printed it (`14:42:11` / `14:42:11,044`), for explanations: the
 * logs' own wall clock reads better than UTC. Falls back to ISO UTC, or "an unknown time".
 */
export function clockOf(e: RmqEvent | null | undefined): string {
  if (!e) return 'an unknown time';
  if (e.clock) return e.clock;
  const m = /\b(\d{2}:\d{2}:\d{2})(?:[,.](\d{3}))?/.exec(e.text.slice(0, 40));
  if (m) return m[1];
  return e.ts === null ? 'an unknown time' : new Date(e.ts).toISOString();
}

/** The scheduled log (SCHEDULED_LOGS) an event is a line of, or null. */
export function scheduledLog(e: RmqEvent): ScheduledLog | null {
  if (e.ts === null) return null;
  if (e.type === 'watermark') return e.kind === 'namesrv' || e.entry === 'watermark/namesrv' ? 'namesrvWatermark' : 'brokerWatermark';
  if (e.type === 'stats') return e.fields.window === 'minute' ? 'brokerStats' : null;
  if (e.type === 'broker-registered') return isBrokerEvent(e) ? 'brokerRegistration' : null;
  return null;
}
