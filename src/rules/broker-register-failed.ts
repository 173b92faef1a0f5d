// broker-register-failed: a broker that cannot register with a NameServer (BrokerOuterAPI.registerBrokerAll).
//
// A broker registers with every NameServer every 30 s (registerNameServerPeriod; request timeout
// 6 s in 4.x, 24 s in 5.x). Failures are `registerBroker Exception, <ns>` (4.x, WARN + stack) and
// `Failed to register current broker to name server. TargetHost=<ns>` (5.x, ERROR + stack); the
// exception under the line tells a call that timed out (RemotingTimeoutException: the connection was
// open, no answer came) from a connection that could not be made (RemotingConnectException `connect
// to <ns> failed`, NettyRemotingClient.invokeSync, 4.x and 5.x). That one does not say how the
// connect failed; the createChannel line of the same connect in remoting.log does: refused (nothing
// listening on a live host) or timed out (no answer at all: the host down or dark, or the network
// between dropping packets; a hung NameServer's host still completes connects). gen-715 (5.1.4):
// broker-b cut off from its NameServers logged the RemotingConnectException over
// `ConnectTimeoutException: connection timed out`. Per broker host and NameServer an episode
// runs from the first failure to the next successful registration with that NameServer (or the
// end of the logs). `registerBroker Exception` in a namesrv.log (the NameServer failed to process
// a registration) is reported per NameServer. The 5.x summary lines (`Registration to one or more
// name servers does NOT complete within deadline`, `registerBrokerAll Exception`) name no
// NameServer and are not counted.
//
// Severity: warning; error when the failures span more than brokerChannelExpiredMs (120 s): a
// NameServer that is alive but gets no registration for that long drops the broker.

import type { EventType, RmqEvent } from '../parse/types.js';
import { FindingKeeper, Occurrences } from './util.js';
import { formatMs } from '../util/durations.js';
import type { Rule, Visitor } from './types.js';
import { addressBook, addrKey, BOOK_EVENTS, clockOf, isBrokerEvent, isConnectRefused, isConnectTimeout, orderEvidence, REGISTER_PERIOD_MS, ROUTING_SETTINGS } from './routing.js';
import { about, type TopicAdvice } from './advice.js';

interface Episode {
  host: string;
  ns: string;
  namesrvSide: boolean;
  first: RmqEvent;
  last: RmqEvent;
  failures: number;
  timeouts: number;
  /** Failures whose cause was a connection that could not be made, by what the connect's own line said. */
  connects: Record<ConnectKind, number>;
  /** A connect from the broker's host to the NameServer timed out during the episode or a period before it. */
  connectTimedOut: boolean;
  firstCause: RmqEvent | null;
  recovered: RmqEvent | null;
  /** Successful registrations with other NameServers during the episode (first per NameServer). */
  othersOk: Map<string, RmqEvent>;
  /** Registrations with other NameServers in the round of the first failure, logged before it. */
  sameRound: Map<string, RmqEvent>;
  lastOkBefore: RmqEvent | null;
}

const CAUSE_LINES = 3;
/**
 * The caller's RemotingConnectException (`connect to X failed`, NettyRemotingClient.invokeSync) does
 * not say whether the connect was refused or timed out; the createChannel line of the same connect
 * does (`createChannel: connect remote host[X] timeout 3000ms`, or the exception under `... failed`),
 * logged in remoting.log up to a connect timeout (3 s) before it, or in the same second after it
 * (whole-second times in another file).
 */
const CONNECT_LINK_MS = 5000;
/** createChannel verdicts kept per broker host and address (those of the last registration period). */
const MAX_VERDICTS = 256;

/** A registration answered again this soon after a failed one: the NameServer answered then (server logs print whole seconds). */
const ANSWERED_AT_ONCE_MS = 1000;

/** A registration round's lines lie within the 5.x registration timeout (24 s; 6 s in 4.x) and a second. */
const ROUND_MS = 25000;

type ConnectKind = 'timeout' | 'refused' | 'unknown';

/**
 * What the createChannel lines said of the broker's failed connects to its NameServers, matched to the
 * registrations that failed on them (their RemotingConnectException does not say how the connect
 * failed), and whether a connect of the host to an episode's NameServer timed out.
 */
class Connects {
  /** host|address -> the verdicts of the last registration period. */
  private readonly verdicts = new Map<string, Array<{ ts: number; kind: ConnectKind }>>();
  /** A registration's connect failure whose createChannel line was not read yet (another file, same second). */
  private readonly pending: Array<{ ep: Episode; key: string; ts: number }> = [];

  constructor(private readonly open: Map<string, Episode>) {}

  /** A createChannel line (or any connect failure) of a host. */
  note(e: RmqEvent): void {
    if (e.ts === null) return;
    this.expire(e.ts);
    const a = addrKey(e.fields.addr as string | null);
    const kind: ConnectKind = isConnectTimeout(e) ? 'timeout' : isConnectRefused(e) ? 'refused' : 'unknown';
    if (!a || kind === 'unknown') return;
    const key = `${e.host}|${a}`;
    let list = this.verdicts.get(key);
    if (!list) this.verdicts.set(key, (list = []));
    list.push({ ts: e.ts, kind });
    while (list.length > MAX_VERDICTS || (list.length && e.ts - list[0].ts > REGISTER_PERIOD_MS)) list.shift();
    const i = this.pending.findIndex((p) => p.key === key && Math.abs(e.ts! - p.ts) <= CONNECT_LINK_MS);
    if (i >= 0) settle(this.pending.splice(i, 1)[0].ep, kind);
    if (kind === 'timeout') {
      const ep = this.open.get(key);
      if (ep) ep.connectTimedOut = true;
    }
  }

  /** A registration of the episode failed on a connection that could not be made (its cause line e). */
  failed(e: RmqEvent, ep: Episode): void {
    if (e.ts === null) return;
    // Settled here too, not only by createChannel lines: logs without them (no remoting.log) keep none pending for long.
    this.expire(e.ts);
    // `connect to null failed` (5.x, a NameServer channel not made) names no address: the episode's.
    const key = `${e.host}|${addrKey(e.fields.addr as string | null) ?? addrKey(ep.ns) ?? ''}`;
    const v = (this.verdicts.get(key) ?? []).find((x) => Math.abs(x.ts - e.ts!) <= CONNECT_LINK_MS);
    if (v) settle(ep, v.kind);
    else this.pending.push({ ep, key, ts: e.ts });
  }

  /** A connect of host|address timed out within a registration period before ts. */
  timedOutBefore(key: string, ts: number | null): boolean {
    return ts !== null && (this.verdicts.get(key) ?? []).some((v) => v.kind === 'timeout' && ts - v.ts <= REGISTER_PERIOD_MS);
  }

  /** Connect failures still unmatched CONNECT_LINK_MS after them: no line tells how they failed. */
  expire(now: number): void {
    while (this.pending.length && now - this.pending[0].ts > CONNECT_LINK_MS) settle(this.pending.shift()!.ep, 'unknown');
  }
}

function settle(ep: Episode, kind: ConnectKind): void {
  ep.connects[kind]++;
  if (kind === 'timeout') ep.connectTimedOut = true;
}

const rule: Rule = {
  meta: {
    id: 'broker-register-failed',
    title: 'Broker cannot register with a NameServer',
    severity: 'warning',
    description:
      'A broker whose registrations with a NameServer fail (registerBroker Exception / Failed to register current broker to name server), per broker and NameServer: failures, window, how they failed (a call timed out; a connect refused or timed out, as the createChannel line in remoting.log says), and whether other NameServers still have the broker.',
    versions: '4.x `registerBroker Exception, <ns>`; 5.x `Failed to register current broker to name server. TargetHost=<ns>`',
    settings: { brokerChannelExpiredMs: ROUTING_SETTINGS.brokerChannelExpiredMs },
    events: [...new Set<EventType>([...BOOK_EVENTS, 'register-failed', 'broker-registered', 'rpc-timeout', 'connect-failed'])],
  },
  create(ctx) {
    const expiredMs = ctx.settings.brokerChannelExpiredMs as number;
    const book = addressBook(ctx);
    const open = new Map<string, Episode>();
    // Closed episodes: only those whose finding can be among the kept ones stay (the others are counted).
    const done = new FindingKeeper<Episode>(ctx);
    let closed = 0;
    const occurrences = new Occurrences<RmqEvent>(2000);
    const lastFailure = new Map<string, { e: RmqEvent; ep: Episode; counted: boolean }>();
    const lastOk = new Map<string, Map<string, RmqEvent>>();
    const connects = new Connects(open);

    const closeEp = (key: string, ep: Episode, recovered: RmqEvent | null) => {
      ep.recovered = recovered;
      open.delete(key);
      // One failed registration the same NameServer answered again at once (the same second): the
      // NameServer was answering; the call failed on the broker's side (gen-20261223: broker-b,
      // resuming from a 150 s hang, found its old channel broken, `send request to <ns> failed`, and
      // registered OK in the same second). No NameServer to suspect, and nothing lasted.
      if (!ep.namesrvSide && recovered && ep.failures <= 1 && recovered.ts !== null && ep.last.ts !== null && recovered.ts - ep.last.ts <= ANSWERED_AT_ONCE_MS) return;
      done.offer(ep, isLong(ep) ? 'error' : 'warning', ep.first.ts, closed++);
    };

    const cause = (e: RmqEvent, timeout: boolean) => {
      const f = lastFailure.get(e.host);
      if (!f || f.counted || f.e.file !== e.file || e.line <= f.e.line || e.line > f.e.line + CAUSE_LINES) return;
      f.counted = true;
      if (timeout) f.ep.timeouts++;
      else connects.failed(e, f.ep);
      f.ep.firstCause ??= e;
    };

    const own: Visitor = {
      'register-failed': (e) => {
        const namesrvSide = e.kind === 'namesrv';
        const nsRaw = (e.fields.namesrvAddr as string | null) ?? null;
        if (!namesrvSide && (!nsRaw || !isBrokerEvent(e))) return;
        const ns = namesrvSide ? '' : addrKey(nsRaw)!;
        const key = `${e.host}|${ns}`;
        let ep = open.get(key);
        if (!ep) {
          ep = {
            host: e.host,
            ns: namesrvSide ? '' : (nsRaw as string),
            namesrvSide,
            first: e,
            last: e,
            failures: 0,
            timeouts: 0,
            connects: { timeout: 0, refused: 0, unknown: 0 },
            connectTimedOut: connects.timedOutBefore(key, e.ts),
            firstCause: null,
            recovered: null,
            othersOk: new Map(),
            sameRound: new Map(),
            lastOkBefore: lastOk.get(e.host)?.get(ns) ?? null,
          };
          open.set(key, ep);
          // The same round's registrations with the other NameServers, logged before this failure (it
          // waited up to the registration timeout); not the previous round's, a period earlier.
          for (const [other, ok] of lastOk.get(e.host) ?? []) {
            if (other !== ns && ok.ts !== null && e.ts !== null && e.ts - ok.ts <= ROUND_MS) ep.sameRound.set(other, ok);
          }
        }
        ep.last = e;
        if (occurrences.add(key, e)) ep.failures++;
        lastFailure.set(e.host, { e, ep, counted: false });
      },
      'rpc-timeout': (e) => cause(e, true),
      'connect-failed': (e) => {
        connects.note(e);
        cause(e, false);
      },
      'broker-registered': (e) => {
        const ns = addrKey(e.fields.namesrvAddr as string | null);
        if (!ns || !isBrokerEvent(e)) return;
        let m = lastOk.get(e.host);
        if (!m) lastOk.set(e.host, (m = new Map()));
        m.set(ns, e);
        const key = `${e.host}|${ns}`;
        const ep = open.get(key);
        if (ep) closeEp(key, ep, e);
        for (const other of open.values()) {
          if (other.host === e.host && addrKey(other.ns) !== ns && !other.othersOk.has(ns)) other.othersOk.set(ns, e);
        }
      },
      end() {
        connects.expire(Infinity);
        for (const [key, ep] of [...open]) closeEp(key, ep, null);
        for (const ep of done.take()) report(ep);
      },
    };

    const windowOf = (ep: Episode) => (ep.first.ts !== null && ep.last.ts !== null ? ep.last.ts - ep.first.ts : null);
    /** Failures over more than the expiry: a NameServer that is alive drops the broker. */
    function isLong(ep: Episode): boolean {
      const w = windowOf(ep);
      return w !== null && w > expiredMs;
    }

    function report(ep: Episode) {
      const windowMs = windowOf(ep);
      const long = isLong(ep);
      const times = `${ep.failures} time${ep.failures === 1 ? '' : 's'}`;
      const { connects } = ep;
      const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
      const kinds = [
        ep.timeouts ? plural(ep.timeouts, 'timeout', 'timeouts') : '',
        connects.timeout ? plural(connects.timeout, 'connect timed out', 'connects timed out') : '',
        connects.refused ? plural(connects.refused, 'refused connection', 'refused connections') : '',
        connects.unknown ? plural(connects.unknown, 'failed connection', 'failed connections') : '',
      ].filter(Boolean).join(', ');
      if (ep.namesrvSide) {
        const ns = book.namesrvAddrOfHost(ep.host);
        ctx.report({
          severity: long ? 'error' : 'warning',
          title: `NameServer ${ns ?? `on ${ep.host}`} failed to process ${times} a broker registration ${ep.failures === 1 ? 'at' : 'from'} ${clockOf(ep.first)}${windowMs ? ` over ${formatMs(windowMs)}` : ''}`,
          start: ep.first.ts,
          end: ep.last.ts,
          subject: { host: ep.host, ...(ns ? { namesrvAddr: ns } : {}) },
          metrics: { failures: ep.failures, windowMs, namesrvAddr: ns, timeouts: 0, connectFailures: 0 },
          evidence: orderEvidence([ep.first, ep.last]),
          explanation: `The NameServer on ${ep.host} logged "registerBroker Exception" ${times} from ${clockOf(ep.first)} to ${clockOf(ep.last)}: it received a broker registration and failed to apply it, so the broker's routes there are not refreshed. A broker whose every registration fails is dropped after ${formatMs(expiredMs)}.`,
          advice: ['Read the stack trace under "registerBroker Exception" in namesrv.log (the exception says why), and check the NameServer version against the brokers\'.'],
        });
        return;
      }
      const broker = book.brokerOfHost(ep.host);
      const who = broker.name ?? broker.addr ?? 'the broker';
      // Other NameServers that answered meanwhile, by the episode's last failure: not those first answered
      // after it (gen-715: broker-b's registrations with all three NameServers completed in the same
      // second once its cut healed, which tells nothing of the time it failed with one).
      const answered = new Map([...ep.othersOk].filter(([, ok]) => ok.ts !== null && ep.last.ts !== null && ok.ts <= ep.last.ts));
      for (const [ns, ok] of ep.sameRound) if (!answered.has(ns)) answered.set(ns, ok);
      const others = [...answered.keys()];
      const recovery = ep.recovered ? ` It registered with ${ep.ns} again at ${clockOf(ep.recovered)}.` : ' No later successful registration with it is in the logs.';
      // A connect of the broker's host to the NameServer that timed out, during the episode or a period
      // before it: its registrations' own, or any other (the 5.x NameServer scan, a metadata refresh).
      // A connect of the broker's host to the NameServer that timed out, during the episode or a period
      // before it (its registrations' own, or any other: the 5.x NameServer scan, a metadata refresh),
      // adds the host or the network to what the timeouts may mean; it does not rule out a hang that
      // came first (seed-outage: the NameServer hung, then its host was rebooted).
      const timeoutText = `Timeouts mean ${ep.ns} accepted the connection but did not answer within the registration timeout (6 s in 4.x, 24 s in 5.x): the NameServer or its host was hung or overloaded${ep.connectTimedOut ? ', or the network between dropped the packets' : ''}.`;
      const connectText = `Connects from ${ep.host} to ${ep.ns} timed out around these failures (\`createChannel: connect remote host[${ep.ns}] timeout\`, or a ConnectTimeoutException): no answer at all, neither refused nor reset, which a NameServer process hung or stopped on a live host does not cause (its host still completes or refuses the connect): ${ep.ns}'s host was down or not answering, or the network between dropped the packets.`;
      const kindText = ep.connectTimedOut
        ? `${ep.timeouts ? `${timeoutText} ` : ''}${connectText}`
        : ep.timeouts > connects.refused + connects.unknown
          ? timeoutText
          : connects.refused > 0
            ? `Refused connections mean nothing was listening on ${ep.ns}: the NameServer was down or restarting.`
            : connects.unknown > 0
              ? `Failed connections (\`connect to ${ep.ns} failed\`, RemotingConnectException, which does not say whether the connect was refused or timed out) mean ${ep.ns} could not be reached: the NameServer or its host was down, or the network between dropped the packets.`
              : '';
      const otherText = others.length
        ? ` Meanwhile ${others.join(', ')} kept receiving its registrations, so clients that poll ${others.length === 1 ? 'that NameServer' : 'those NameServers'} still route to ${who}.`
        : '';
      const explanation =
        `${who} on ${ep.host} failed to register with NameServer ${ep.ns} ` +
        (ep.failures === 1 ? `at ${clockOf(ep.first)}` : `${times} from ${clockOf(ep.first)} to ${clockOf(ep.last)}${windowMs !== null ? ` (${formatMs(windowMs)})` : ''}`) +
        `${kinds ? `: ${kinds}` : ''}. ` +
        `A broker registers with every NameServer every ${formatMs(REGISTER_PERIOD_MS)}; a NameServer that is alive but gets no registration from a broker for ${formatMs(expiredMs)} expires it and stops returning it in routes. ` +
        (long
          ? `These failures lasted longer than that, so ${ep.ns}, if it was serving at all, dropped ${who}. `
          : `${ep.failures === 1 ? 'One failure' : 'These failures'} did not last that long, so ${ep.ns} kept ${who} (it drops it only if every registration to it fails for ${formatMs(expiredMs)}). `) +
        kindText +
        otherText +
        recovery;
      const advice: Array<string | TopicAdvice> = [
        about('check-namesrv', `Check NameServer ${ep.ns} around ${clockOf(ep.first)}: is the process up, is its host responsive, does namesrv.log show the broker's connection?`),
        about('check-namesrv', `Check the network path from ${ep.host} to ${ep.ns} (firewall, DNS if the address is a host name).`),
      ];
      // Only where the logs show fewer than two NameServer hosts (its premise).
      if (long && book.namesrvPlacement().hosts < 2) {
        advice.push('Keep at least two NameServers on separate hosts (the logs name only one): clients bound to that NameServer get no fresh routes for this broker while it fails (see namesrv-stuck / stale-route).');
      }
      ctx.report({
        severity: long ? 'error' : 'warning',
        // The host tells a master from its slave (one broker name), the time one episode from the next.
        title: `${who === 'the broker' ? 'The broker' : who} on ${ep.host} failed to register with NameServer ${ep.ns} ${ep.failures === 1 ? `once, at ${clockOf(ep.first)}` : `${times} from ${clockOf(ep.first)}`}${windowMs ? ` over ${formatMs(windowMs)}` : ''}${kinds ? ` (${kinds})` : ''}`,
        start: ep.first.ts,
        end: ep.last.ts,
        subject: { host: ep.host, namesrvAddr: ep.ns, ...(broker.name ? { broker: broker.name } : {}), ...(broker.addr ? { brokerAddr: broker.addr } : {}) },
        metrics: {
          failures: ep.failures,
          windowMs,
          namesrvAddr: ep.ns,
          timeouts: ep.timeouts,
          connectFailures: connects.timeout + connects.refused + connects.unknown,
          otherNamesrvsOk: others,
          recovered: ep.recovered !== null,
        },
        evidence: orderEvidence([ep.first, ep.firstCause, ep.last, answered.get(others[0]) ?? null, ep.recovered]),
        explanation,
        advice,
      });
    }

    return own;
  },
};

export default rule;
