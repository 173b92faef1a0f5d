// stale-route: a client keeps sending to (and heartbeating) a broker that stopped answering, until
// its route drops the broker or the broker answers again.
//
// Per client host and broker address, an episode opens at the first failure (a failed send
// attempt, a failed heartbeat, or a timeout / refused connection to the broker address that
// neither explains) and closes when a route change of that client drops the broker
// (the producer wrote to it before and not after: parse/route-change), or, when no drop comes, at the last failure
// (the broker recovered, or the logs end). A gap longer than the routing bound between two
// failures also closes it.
//
// Routing bound: the NameServer drops a silent broker after brokerChannelExpiredMs (120 s) found by
// a scan (every 10 s in 4.x, 5 s in 5.x), and the client polls the NameServer every
// pollNameServerInterval (30 s): 160 s with the defaults. A crash (connection closed) or a
// graceful shutdown is removed at once, so the client follows within one poll.
//
// Severity: critical when the stale window exceeds the bound (the route could not be refreshed,
// typically because the route polls failed: see namesrv-stuck); warning when within the bound but
// longer than one poll; windows within one poll (a restart or crash the retries cover) are not
// reported. Heartbeat failures are counted here (no separate heartbeat rule).
//
// Counting: one failed send is logged as `invokeSync: wait response timeout exception`, then
// `sendKernelImpl exception ...` with the RemotingTimeoutException under it; one failed
// heartbeat likewise. The send or heartbeat line is the occurrence; a timeout or connect failure
// to the broker within 1.5 s of one (or of another such line) is part of it.

import type { EventType, RmqEvent } from '../parse/types.js';
import { FindingKeeper, Occurrences } from './util.js';
import { formatMs } from '../util/durations.js';
import type { Rule, RuleContext, Severity, Visitor } from './types.js';
import { closeTimedOutChannelAdvice, faultAvoidanceSeen, lateAttempt, latencyFaultAdvice } from './versions.js';
import { routeDelta, writableAfter } from '../parse/route-change.js';
import {
  addressBook,
  AddressBook,
  addrInText,
  addrKey,
  attemptOutcome,
  BOOK_EVENTS,
  clockOf,
  isClientEvent,
  isConnectCause,
  isTimeoutCause,
  LeftoverEchoes,
  orderEvidence,
  ROUTING_SETTINGS,
  SCAN_NOT_ACTIVE_BROKER_MS,
} from './routing.js';
import { about, type TopicAdvice } from './advice.js';

const NEAR_MS = 1500;
const DROP_GRACE_MS = 3500;
/** An application's lost send follows the failed attempt that lost it within a send budget (and a margin). */
const SEND_WINDOW_MS = 4000;
/** ... or precedes its client line by this much at most (other file, same moment). */
const APP_LAG_MS = 1000;
const NEAR_LINES = 40;
const MAX_DROPS_PER_HOST = 32;

interface Episode {
  host: string;
  addr: string | null;
  name: string | null;
  first: RmqEvent;
  last: RmqEvent;
  /** A failure of the middle, for evidence. */
  middle: RmqEvent | null;
  failures: number;
  /** Failed send attempts (each `sendKernelImpl exception` once). */
  failedAttempts: number;
  /** When the first and the last failed send attempt were logged. */
  firstAttemptMs: number | null;
  lastAttemptMs: number | null;
  /** Failed attempts more than an attempt's flight after the first (lateAttempt). */
  lateAttempts: number;
  /** Sends that failed in the end: a timed-out attempt (it waited for the whole remaining budget) or a `throw exception` attempt. */
  failedSends: number;
  /** Failed sends as the application logged them (its exceptions), tied to this episode by the attempt before them. */
  appFailures: number;
  /**
   * Failures that show the broker itself not answering: an attempt that waited out its time, a
   * refused or failed connect, a failed heartbeat. Quick failures alone (a channel the client closed
   * under its requests: 4.9.1-5.1.3 close a healthy broker's channel on a leftover timeout) are not.
   */
  evidence: number;
  heartbeats: number;
  timeouts: number;
  connectFailures: number;
  /** Timeout / connect lines not yet tied to a send or heartbeat. */
  pending: RmqEvent | null;
  lastPrimary: RmqEvent | null;
  /** Whether the last send/heartbeat has been counted as a timeout or a connect failure. */
  lastClassified: boolean;
  recentSends: Array<{ id: string | null; ts: number | null; file: string }>;
  routePolls: number;
  routePollNs: string | null;
  firstRoutePoll: RmqEvent | null;
  end: RmqEvent | null;
  endReason: 'route-lost' | 'failures-stopped';
  /** Its place in the order episodes close (the order their findings are told). */
  seq: number;
}

function near(a: RmqEvent, b: RmqEvent, ms = NEAR_MS): boolean {
  if (a.ts !== null && b.ts !== null) return Math.abs(a.ts - b.ts) <= ms;
  return a.file === b.file && Math.abs(a.line - b.line) <= NEAR_LINES;
}

function gap(a: RmqEvent, b: RmqEvent): number | null {
  return a.ts !== null && b.ts !== null ? b.ts - a.ts : null;
}

const rule: Rule = {
  meta: {
    id: 'stale-route',
    title: 'Client kept using a broker that stopped answering',
    severity: 'critical',
    description:
      'A client keeps sending to (or heartbeating) a broker after the broker stopped answering, until its route drops the broker or the broker comes back. Compares the stale window with what routing allows (NameServer expiry + scan + one client poll).',
    versions: 'all (4.x and 5.x clients; heartbeat failures are INFO up to 5.0.0, WARN from 5.1.0)',
    settings: { ...ROUTING_SETTINGS },
    events: [...new Set<EventType>([...BOOK_EVENTS, 'send-attempt-failed', 'send-call-timeout', 'send-failed', 'heartbeat-failed', 'rpc-timeout', 'connect-failed', 'route-changed', 'route-update-failed', 'broker-expired', 'broker-removed'])],
  },
  create(ctx) {
    const expiredMs = ctx.settings.brokerChannelExpiredMs as number;
    const pollMs = ctx.settings.pollNameServerInterval as number;
    const boundMs = expiredMs + SCAN_NOT_ACTIVE_BROKER_MS + pollMs;
    const book = addressBook(ctx);
    const open = new Map<string, Map<string, Episode>>();
    // Closed episodes: only those whose finding can be among the kept ones stay (the others are counted).
    const done = new FindingKeeper<Episode>(ctx);
    let closed = 0;
    const drops = new Map<string, Array<{ name: string; e: RmqEvent }>>();
    const routePolls = new Occurrences<RmqEvent>(2000);
    /** First NameServer-side removal of each broker address (evidence and explanation). */
    const removals = new Map<string, RmqEvent>();

    const episodesOf = (host: string) => {
      let m = open.get(host);
      if (!m) open.set(host, (m = new Map()));
      return m;
    };

    /**
     * Episodes just closed by a route drop: sends begun before the drop still belong to them, so an
     * episode is judged once the next drop of its client and broker takes its place (or at the end).
     */
    const dropped = new Map<string, Episode>();
    const close = (ep: Episode, end: RmqEvent | null, reason: Episode['endReason']) => {
      flushPending(ep);
      ep.end = end;
      ep.endReason = reason;
      ep.seq = closed++;
      const key = ep.addr ?? `name:${ep.name}`;
      episodesOf(ep.host).delete(key);
      if (reason !== 'route-lost') return finished(ep);
      const prev = dropped.get(`${ep.host}|${key}`);
      dropped.set(`${ep.host}|${key}`, ep);
      if (prev) finished(prev);
    };

    /** An episode nothing can change any more: kept for the report if its finding can be among the kept ones. */
    const finished = (ep: Episode) => {
      const j = judge(w, ep);
      if (j) done.offer(ep, j.severity, ep.first.ts, ep.seq);
    };

    function flushPending(ep: Episode) {
      if (!ep.pending) return;
      ep.failures++;
      classify(ep, ep.pending.type === 'rpc-timeout' ? 'timeout' : 'RemotingConnectException');
      ep.pending = null;
    }

    const episodeFor = (e: RmqEvent, addr: string | null, name: string | null): Episode | null => {
      const a = addrKey(addr) ?? (name ? book.brokerAddrsOf(name).length === 1 ? book.brokerAddrsOf(name)[0] : null : null);
      const n = name ?? book.brokerNameOf(a);
      if (!a && !n) return null;
      const key = a ?? `name:${n}`;
      const eps = episodesOf(e.host);
      let ep = eps.get(key);
      // A send that began before its route dropped the broker (it logs when it ends: RT after).
      const gone = ep ? undefined : dropped.get(`${e.host}|${key}`);
      if (gone && gone.end?.ts != null && e.ts !== null) {
        // A send tells its RT; the timeout line logged just before it does not: it may be that
        // send's (DROP_GRACE_MS, the default send budget and a margin).
        const began = e.type === 'send-attempt-failed' && typeof e.fields.rtMs === 'number' ? e.ts - e.fields.rtMs : e.ts - DROP_GRACE_MS;
        if (began <= gone.end.ts) return gone;
      }
      if (ep) {
        const g = gap(ep.last, e);
        if (g !== null && g > boundMs) {
          close(ep, null, 'failures-stopped');
          ep = undefined;
        }
      }
      if (!ep) {
        ep = newEpisode(e, a, n);
        eps.set(key, ep);
      }
      if (!ep.name && n) ep.name = n;
      return ep;
    };

    const touch = (ep: Episode, e: RmqEvent) => {
      if (ep.failures === 3 && e !== ep.pending) ep.middle = e;
      ep.last = e;
    };

    const primary = (e: RmqEvent, addr: string | null, name: string | null, kind: 'send' | 'heartbeat') => {
      // An attempt given no time is the tail of a send that already failed elsewhere.
      const outcome = kind === 'send' ? attemptOutcome(e) : null;
      if (outcome === 'leftover') {
        forgetLeftover(e, addr, name);
        return;
      }
      const ep = episodeFor(e, addr, name);
      if (!ep) return;
      const cause = (e.fields.cause as string | null) ?? null;
      if (kind === 'send') {
        const id = (e.fields.invokeId as string | null) ?? null;
        // The same attempt told twice (client log and an application log that carries it).
        const dup = ep.recentSends.some((s) => (id !== null ? s.id === id : s.file !== e.file && s.ts !== null && e.ts !== null && Math.abs(s.ts - e.ts) <= 100));
        ep.recentSends.push({ id, ts: e.ts, file: e.file });
        if (ep.recentSends.length > 16) ep.recentSends.shift();
        if (dup) return;
        ep.failedAttempts++;
        if (e.ts !== null) {
          ep.firstAttemptMs ??= e.ts;
          ep.lastAttemptMs = e.ts;
          if (lateAttempt(ep.firstAttemptMs, e.ts)) ep.lateAttempts++;
        }
        // A sync send waits for what is left of its budget, so an attempt that waited it out ends
        // the send; one that failed at once is retried on another broker unless it was the last
        // (`throw exception`).
        if (outcome === 'spent' || e.entry === 'send-attempt-failed/throw') ep.failedSends++;
        if (outcome === 'spent' || isConnectCause(cause)) ep.evidence++;
        losses.attempt(ep, e);
      } else {
        if (ep.lastPrimary && ep.lastPrimary.type === 'heartbeat-failed' && ep.lastPrimary.file !== e.file && near(ep.lastPrimary, e, 2000)) return;
        ep.heartbeats++;
        ep.evidence++;
      }
      let classified = classify(ep, cause);
      // A timeout line that announced this send or heartbeat is part of it.
      if (ep.pending && near(ep.pending, e)) {
        if (ep.failures === 0) ep.first = e;
        if (!classified) classified = classify(ep, ep.pending.type === 'rpc-timeout' ? 'timeout' : 'RemotingConnectException');
        ep.pending = null;
      }
      flushPending(ep);
      ep.failures++;
      ep.lastPrimary = e;
      ep.lastClassified = classified;
      touch(ep, e);
    };

    // The `invokeSync: wait response timeout` line that announced a leftover attempt is part of it.
    // (the two lines come in either order: they are logged by different threads).
    const echoes = new LeftoverEchoes();
    function forgetLeftover(e: RmqEvent, addr: string | null, name: string | null) {
      const a = addrKey(addr) ?? (name && book.brokerAddrsOf(name).length === 1 ? book.brokerAddrsOf(name)[0] : null);
      echoes.leftover(e, a);
      const eps = episodesOf(e.host);
      const key = a ?? (name ? `name:${name}` : null);
      const ep = key ? eps.get(key) : undefined;
      if (!ep || !ep.pending || !near(ep.pending, e)) return;
      ep.pending = null;
      if (ep.failures === 0) eps.delete(key!);
    }

    function classify(ep: Episode, cause: string | null): boolean {
      if (isConnectCause(cause)) ep.connectFailures++;
      else if (isTimeoutCause(cause)) ep.timeouts++;
      else return false;
      return true;
    }

    const secondary = (e: RmqEvent, addr: string, timeout: boolean) => {
      if (book.isNamesrv(addr)) return;
      if (timeout && echoes.isEcho(e, addr)) return;
      const ep = episodeFor(e, addr, null);
      if (!ep) return;
      if (ep.lastPrimary && near(ep.lastPrimary, e)) {
        if (!ep.lastClassified) ep.lastClassified = classify(ep, timeout ? 'timeout' : 'RemotingConnectException');
        return;
      }
      if (ep.pending && near(ep.pending, e)) return;
      flushPending(ep);
      if (!timeout) ep.evidence++;
      ep.pending = e;
      touch(ep, e);
    };

    const losses = new AppLosses();
    const w: Window = { ctx, book, expiredMs, pollMs, boundMs, removals, appHosts: losses.hosts };
    const appFailure = (e: RmqEvent) => losses.failure(e);

    const own: Visitor = {
      'send-call-timeout': appFailure,
      'send-failed': appFailure,
      'send-attempt-failed': (e) => {
        if (!isClientEvent(e)) return;
        const cause = (e.fields.cause as string | null) ?? null;
        // Only a broker that does not answer: a busy or error reply (MQBrokerException) is an answer.
        if (!isTimeoutCause(cause) && !isConnectCause(cause) && !/SendRequestException/.test(cause ?? '')) return;
        primary(e, addrInText(cause), (e.fields.brokerName as string | null) ?? null, 'send');
      },
      'heartbeat-failed': (e) => {
        if (!isClientEvent(e)) return;
        // `... exception, because the broker not up, forget it`: the broker is no longer in any route.
        if (e.entry?.endsWith('not-up')) return;
        primary(e, (e.fields.brokerAddr as string | null) ?? null, (e.fields.brokerName as string | null) ?? null, 'heartbeat');
      },
      'rpc-timeout': (e) => {
        if (!isClientEvent(e) || !e.fields.addr) return;
        secondary(e, e.fields.addr as string, true);
      },
      'connect-failed': (e) => {
        if (!isClientEvent(e)) return;
        const addrs = (e.fields.addrs as string[]) ?? [];
        if (addrs.length === 1) secondary(e, addrs[0], false);
      },
      'route-update-failed': (e) => {
        if (isClientEvent(e)) routePollFailed(e, routePolls, episodesOf(e.host));
      },
      'route-changed': (e) => {
        if (isClientEvent(e)) routeChanged(e, book, episodesOf(e.host), (ep) => close(ep, e, 'route-lost'), drops);
      },
      'broker-expired': (e) => {
        const k = addrKey(e.fields.brokerAddr as string | null);
        if (k && !removals.has(k)) removals.set(k, e);
      },
      'broker-removed': (e) => {
        const k = addrKey(e.fields.brokerAddr as string | null);
        if (k && e.fields.reason !== 'unregister' && !removals.has(k)) removals.set(k, e);
      },
      end() {
        for (const eps of open.values()) for (const ep of [...eps.values()]) closeAtEnd(ep, book, drops, close);
        for (const ep of dropped.values()) finished(ep);
        dropped.clear();
        for (const ep of done.take()) report(w, ep);
      },
    };

    return own;
  },
};

// The application's own record of a lost send (its exception in app.log) is the count that
// matters: a client log cannot always tell a spent attempt from a quick one (5.1.0-5.2.0 print
// `RT: %sms`). Each is tied to the episode of the attempt that lost it, logged just before.
class AppLosses {
  /** Recent failed attempts per host (the send an application failure ends is among them). */
  private readonly lastAttempts = new Map<string, Array<{ ep: Episode; e: RmqEvent }>>();
  /** Application failures logged before the client's line of their attempt (same millisecond, other file first). */
  private readonly pending = new Map<string, { ts: number | null; n: number }>();
  private readonly seen = new Map<string, string[]>();
  /** Client hosts with an application log. */
  readonly hosts = new Set<string>();

  /** A failed attempt of an episode: it may lose a send the application logged just before. */
  attempt(ep: Episode, e: RmqEvent): void {
    const ring = this.lastAttempts.get(e.host) ?? [];
    ring.push({ ep, e });
    if (ring.length > 8) ring.shift();
    this.lastAttempts.set(e.host, ring);
    const waiting = this.pending.get(e.host);
    if (waiting !== undefined && waiting.ts !== null && e.ts !== null && e.ts - waiting.ts <= APP_LAG_MS) {
      ep.appFailures += waiting.n;
      this.pending.delete(e.host);
    }
  }

  /** A send the application logged as failed. */
  failure(e: RmqEvent): void {
    if (e.kind !== 'app' || e.ts === null) return;
    // One record, one lost send (a wrapper and the cause under it are two events of one record).
    const seen = this.seen.get(e.host) ?? [];
    const key = `${e.file}|${e.text}`;
    if (seen.includes(key)) return;
    seen.push(key);
    if (seen.length > 16) seen.shift();
    this.seen.set(e.host, seen);
    this.hosts.add(e.host);
    // A failed attempt of this host within a send budget before it lost this send: the latest one
    // against a broker that did fail (a quick failure on a healthy broker's closed channel may
    // come last in a send whose time went to the failed broker).
    const recent = (this.lastAttempts.get(e.host) ?? []).filter((a) => a.e.ts !== null && e.ts! - a.e.ts <= SEND_WINDOW_MS);
    const last = [...recent].reverse().find((a) => a.ep.evidence > 0) ?? recent[recent.length - 1];
    if (last) last.ep.appFailures++;
    else {
      const p = this.pending.get(e.host);
      this.pending.set(e.host, { ts: p?.ts ?? e.ts, n: (p?.n ?? 0) + 1 });
    }
  }
}

/**
 * A client's route changed: each broker it lost ends the episodes against it; a loss no episode
 * takes yet is kept (`drops`) for an episode whose broker's name is learnt later.
 */
function routeChanged(e: RmqEvent, book: AddressBook, eps: Map<string, Episode>, end: (ep: Episode) => void, drops: Map<string, Array<{ name: string; e: RmqEvent }>>): void {
  const after = writableAfter(e) ?? [];
  if (!after.length && !e.text.includes(',new[')) return;
  for (const name of routeDelta(e).lost) {
    const addrs = book.brokerAddrsOf(name);
    let matched = false;
    for (const ep of [...eps.values()]) {
      if (ep.name === name || (ep.addr && addrs.includes(ep.addr))) {
        end(ep);
        matched = true;
      }
    }
    if (!matched) {
      let list = drops.get(e.host);
      if (!list) drops.set(e.host, (list = []));
      if (list.length < MAX_DROPS_PER_HOST) list.push({ name, e });
    }
  }
}

/** A route poll of a client that timed out or was refused: every episode of the client under way counts it. */
function routePollFailed(e: RmqEvent, routePolls: Occurrences<RmqEvent>, eps: Map<string, Episode>): void {
  const cause = (e.fields.cause as string | null) ?? null;
  if (!isTimeoutCause(cause) && !isConnectCause(cause)) return;
  if (!routePolls.add(e.host, e)) return;
  for (const ep of eps.values()) {
    ep.routePolls++;
    ep.routePollNs ??= (e.fields.addr as string | null) ?? null;
    ep.firstRoutePoll ??= e;
  }
}

/** An episode still open when the logs end: by a route drop seen before the broker's name was known, or where its failures stopped. */
function closeAtEnd(ep: Episode, book: AddressBook, drops: Map<string, Array<{ name: string; e: RmqEvent }>>, close: (ep: Episode, end: RmqEvent | null, reason: Episode['endReason']) => void): void {
  const name = ep.name ?? book.brokerNameOf(ep.addr);
  const drop = (drops.get(ep.host) ?? []).find((d) => d.name === name && (d.e.ts ?? 0) >= (ep.first.ts ?? 0));
  ep.name = name;
  close(ep, drop?.e ?? null, drop ? 'route-lost' : 'failures-stopped');
}

/** An episode begun by a client's failure against a broker (its address `a`, its name `n`). */
function newEpisode(e: RmqEvent, a: string | null, n: string | null): Episode {
  return {
    host: e.host,
    addr: a,
    name: n,
    first: e,
    last: e,
    middle: null,
    failures: 0,
    failedAttempts: 0,
    firstAttemptMs: null,
    lastAttemptMs: null,
    lateAttempts: 0,
    failedSends: 0,
    appFailures: 0,
    evidence: 0,
    heartbeats: 0,
    timeouts: 0,
    connectFailures: 0,
    pending: null,
    lastPrimary: null,
    lastClassified: false,
    recentSends: [],
    routePolls: 0,
    routePollNs: null,
    firstRoutePoll: null,
    end: null,
    endReason: 'failures-stopped',
    seq: -1,
  };
}

/** What judging and telling an episode reads of the rule's settings and state. */
interface Window {
  ctx: RuleContext;
  book: AddressBook;
  expiredMs: number;
  pollMs: number;
  /** expiry + scan + poll: the longest a client can keep a dead broker in its route. */
  boundMs: number;
  /** The latest NameServer removal of each broker address. */
  removals: Map<string, RmqEvent>;
  /** Client hosts with an application log (failed sends are counted from it). */
  appHosts: Set<string>;
}

/**
 * Whether a closed episode makes a finding, and its severity: reported when it lasted longer
 * than one poll and the broker itself failed to answer; critical beyond the routing bound.
 */
function judge(w: Window, ep: Episode): { severity: Severity; staleMs: number } | null {
  const { pollMs, boundMs } = w;
  const staleMs = gap(ep.first, ep.end ?? ep.last);
  if (staleMs === null || staleMs <= pollMs || ep.evidence === 0) return null;
  return { severity: staleMs <= boundMs ? 'warning' : 'critical', staleMs };
}

/** The finding of an episode that judge() keeps. */
function report(w: Window, ep: Episode): void {
  const { ctx, book, removals, appHosts, expiredMs, pollMs, boundMs } = w;
  const endEvent = ep.end ?? ep.last;
  const staleMs = judge(w, ep)!.staleMs;
  const within = staleMs <= boundMs;
  const name = ep.name ?? book.brokerNameOf(ep.addr);
  const broker = name ?? ep.addr ?? 'a broker';
  const who = name && ep.addr ? `${name} (${ep.addr})` : broker;
  const removal = ep.addr ? (removals.get(ep.addr) ?? null) : null;
  const removalInWindow = removal && removal.ts !== null && ep.first.ts !== null && removal.ts >= ep.first.ts && (endEvent.ts === null || removal.ts <= endEvent.ts) ? removal : null;
  const version = ctx.clientVersion(ep.host);

  const others = ep.failures - ep.failedAttempts - ep.heartbeats;
  const counted = [
    ep.failedAttempts ? `${ep.failedAttempts} failed send attempt${ep.failedAttempts === 1 ? '' : 's'} (${appHosts.has(ep.host) ? `${ep.appFailures} sends lost, as the application logged them` : `${ep.failedSends} lost the send`})` : '',
    ep.heartbeats ? `${ep.heartbeats} failed heartbeat${ep.heartbeats === 1 ? '' : 's'}` : '',
    others > 0 ? `${others} other timeout${others === 1 ? '' : 's'} or refused connection${others === 1 ? '' : 's'}` : '',
  ].filter(Boolean);
  const how = ep.timeouts >= ep.connectFailures ? 'timed out (the broker accepted connections but did not answer)' : 'were refused (nothing listening)';
  const endText =
    ep.endReason === 'route-lost'
      ? `until its route dropped ${broker} at ${clockOf(ep.end)}`
      : `until the failures stopped at ${clockOf(ep.last)} (no route change dropped the broker: it answered again, or the logs end)`;

  let reason = '';
  if (!within) {
    if (ep.routePolls > 0) {
      reason = ` The route could not be refreshed: ${ep.routePolls} route poll${ep.routePolls === 1 ? '' : 's'} of this client to NameServer ${ep.routePollNs ?? '(unknown)'} failed during the window (first at ${clockOf(ep.firstRoutePoll)}), so it kept its old route (see namesrv-stuck).`;
      if (removalInWindow) {
        const ns = book.namesrvAddrOfHost(removalInWindow.host);
        reason += ` ${ns ? `NameServer ${ns}` : `The NameServer on ${removalInWindow.host}`} had removed the broker at ${clockOf(removalInWindow)}, ${formatMs(gap(removalInWindow, endEvent))} before this client learned it.`;
      }
    } else if (removalInWindow) {
      reason = ` A NameServer removed ${broker} at ${clockOf(removalInWindow)}, yet this client kept the broker for ${formatMs(gap(removalInWindow, endEvent))} more: its NameServer may not have removed it, or its route polls were not logged.`;
    } else {
      reason = ' No NameServer removal of the broker was seen: it may have kept registering while not serving clients (half-alive), or the NameServer logs are missing.';
    }
  }
  const explanation =
    `${ep.host} first failed against ${who} at ${clockOf(ep.first)} and kept sending to it ${endText}: ${formatMs(staleMs)}, ` +
    `${ep.failures} failure${ep.failures === 1 ? '' : 's'}: ${counted.join(', ') || 'timeouts'}. The calls ${how}` +
    (ep.failedAttempts ? '; a timed-out attempt spends what is left of the send budget, so that send fails, while a refused one is retried on another broker. ' : '. ') +
    `A client only stops using a broker when its route (polled every ${formatMs(pollMs)}) no longer lists it, and a NameServer drops a silent broker only after ${formatMs(expiredMs)} without registration (found by a scan every 5-10 s): ` +
    `${formatMs(boundMs)} at most. This window is ${within ? 'within' : `${formatMs(staleMs - boundMs)} longer than`} that bound.` +
    reason +
    (version.range !== 'unknown' ? ` Client version: ${version.range}.` : '');

  const advice: Array<string | TopicAdvice> = [];
  if (!within && ep.routePolls > 0) {
    advice.push(about('close-timed-out-channel', `Fix the NameServer side first (see the namesrv-stuck finding for ${ep.host}). ${closeTimedOutChannelAdvice(version, ep.host)}`));
  }
  advice.push(about('find-cause', `Find why ${who} stopped answering at ${clockOf(ep.first)} (host freeze, long GC, network loss): a hang with the TCP connection open is only noticed after the ${formatMs(expiredMs)} expiry, a crash at once.`));
  if (ep.timeouts > 0 && ep.failedAttempts > 0) {
    advice.push(about('latency-fault', latencyFaultAdvice(version.range, faultAvoidanceSeen(version.range, broker, ep.firstAttemptMs, ep.lastAttemptMs, ep.lateAttempts), ep.host)));
  }
  if (!within && ep.routePolls === 0) advice.push('Collect the NameServer logs (namesrv.log) of the cluster to see when, and whether, each NameServer removed the broker.');

  const severity: Severity = within ? 'warning' : 'critical';
  ctx.report({
    severity,
    title: `${ep.host} kept using ${broker} for ${formatMs(staleMs)} after it stopped answering (${ep.failures} failure${ep.failures === 1 ? '' : 's'}; ${within ? 'within' : 'beyond'} the ${formatMs(boundMs)} routing bound)`,
    start: ep.first.ts,
    end: endEvent.ts,
    subject: { client: ep.host, host: ep.host, ...(name ? { broker: name } : {}), ...(ep.addr ? { brokerAddr: ep.addr } : {}) },
    metrics: {
      staleMs,
      failures: ep.failures,
      failedSends: appHosts.has(ep.host) ? ep.appFailures : ep.failedSends,
      failedAttempts: ep.failedAttempts,
      heartbeatFailures: ep.heartbeats,
      routePollFailures: ep.routePolls,
      withinRoutingBound: within,
      boundMs,
    },
    evidence: orderEvidence([ep.first, ep.end, ep.firstRoutePoll, removalInWindow, ep.last, ep.middle]),
    explanation,
    advice,
  });
}

export default rule;
