// broker-register-failed: a broker that cannot register with a NameServer (BrokerOuterAPI.registerBrokerAll).
//
// A broker registers with every NameServer every 30 s (registerNameServerPeriod; request timeout
// 6 s in 4.x, 24 s in 5.x). Failures are `registerBroker Exception, <ns>` (4.x, WARN + stack) and
// `Failed to register current broker to name server. TargetHost=<ns>` (5.x, ERROR + stack); the
// exception under the line tells a timeout (the NameServer accepted the connection but did not
// answer) from a refused connection (nothing listening). Per broker host and NameServer an episode
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
import { addressBook, addrKey, BOOK_EVENTS, clockOf, isBrokerEvent, orderEvidence, REGISTER_PERIOD_MS, ROUTING_SETTINGS } from './routing.js';
import { about, type TopicAdvice } from './advice.js';

interface Episode {
  host: string;
  ns: string;
  namesrvSide: boolean;
  first: RmqEvent;
  last: RmqEvent;
  failures: number;
  timeouts: number;
  connectFailures: number;
  firstCause: RmqEvent | null;
  recovered: RmqEvent | null;
  /** Successful registrations with other NameServers during the episode (first per NameServer). */
  othersOk: Map<string, RmqEvent>;
  lastOkBefore: RmqEvent | null;
}

const CAUSE_LINES = 3;

const rule: Rule = {
  meta: {
    id: 'broker-register-failed',
    title: 'Broker cannot register with a NameServer',
    severity: 'warning',
    description:
      'A broker whose registrations with a NameServer fail (registerBroker Exception / Failed to register current broker to name server), per broker and NameServer: failures, window, timeout or refused, and whether other NameServers still have the broker.',
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

    const closeEp = (key: string, ep: Episode, recovered: RmqEvent | null) => {
      ep.recovered = recovered;
      open.delete(key);
      done.offer(ep, isLong(ep) ? 'error' : 'warning', ep.first.ts, closed++);
    };

    const cause = (e: RmqEvent, timeout: boolean) => {
      const f = lastFailure.get(e.host);
      if (!f || f.counted || f.e.file !== e.file || e.line <= f.e.line || e.line > f.e.line + CAUSE_LINES) return;
      f.counted = true;
      if (timeout) f.ep.timeouts++;
      else f.ep.connectFailures++;
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
            connectFailures: 0,
            firstCause: null,
            recovered: null,
            othersOk: new Map(),
            lastOkBefore: lastOk.get(e.host)?.get(ns) ?? null,
          };
          open.set(key, ep);
        }
        ep.last = e;
        if (occurrences.add(key, e)) ep.failures++;
        lastFailure.set(e.host, { e, ep, counted: false });
      },
      'rpc-timeout': (e) => cause(e, true),
      'connect-failed': (e) => cause(e, false),
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
      const kinds = [ep.timeouts ? `${ep.timeouts} timeout${ep.timeouts === 1 ? '' : 's'}` : '', ep.connectFailures ? `${ep.connectFailures} refused connection${ep.connectFailures === 1 ? '' : 's'}` : ''].filter(Boolean).join(', ');
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
      const others = [...ep.othersOk.keys()];
      const recovery = ep.recovered ? ` It registered with ${ep.ns} again at ${clockOf(ep.recovered)}.` : ' No later successful registration with it is in the logs.';
      const kindText = ep.timeouts > ep.connectFailures
        ? `Timeouts mean ${ep.ns} accepted the connection but did not answer within the registration timeout (6 s in 4.x, 24 s in 5.x): the NameServer or its host was hung or overloaded.`
        : ep.connectFailures > 0
          ? `Refused connections mean nothing was listening on ${ep.ns}: the NameServer was down or restarting.`
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
          connectFailures: ep.connectFailures,
          otherNamesrvsOk: others,
          recovered: ep.recovered !== null,
        },
        evidence: orderEvidence([ep.first, ep.firstCause, ep.last, ep.othersOk.get(others[0]) ?? null, ep.recovered]),
        explanation,
        advice,
      });
    }

    return own;
  },
};

export default rule;
