// colocated-namesrv: a host that runs both a NameServer and a broker, reported when that host is
// involved in a failure (the seed outage: one host hung and took its broker and the NameServer
// that its clients asked about that broker down together).
//
// Colocation is found from addresses (a NameServer address `ip:port` whose IP is also a broker
// address's IP: NameServer lists of clients and brokers, `... and name server is a;b` boot lines,
// route lines, registrations) and from logs (one host folder with both a namesrv.log and a
// broker.log, once its IP is known). Failures against an IP are counted per role: NameServer
// (route-poll failures, timeouts and refused connections to the NameServer address, failed broker
// registrations) and broker (failed sends and heartbeats, timeouts and refused connections, the
// broker expired or its channel destroyed on a NameServer).
//
// Severity: warning when only one role on that host failed; error when both did (the host itself
// failed, and with it the NameServer that should have noticed).

import type { EventType, RmqEvent } from '../parse/types.js';
import { Occurrences } from './util.js';
import { formatMs } from '../util/durations.js';
import type { Rule, Visitor } from './types.js';
import {
  addressBook,
  addrInText,
  addrKey,
  attemptOutcome,
  BOOK_EVENTS,
  clockOf,
  ipOf,
  isConnectCause,
  isTimeoutCause,
  LeftoverEchoes,
  NAMESRV_PORT,
  orderEvidence,
  portOf,
} from './routing.js';
import { about } from './advice.js';
import { clientVersionOf } from './versions.js';

interface RoleFailures {
  /** Occurrences of the telling events: failed sends, heartbeats, route polls, registrations, expiries. */
  count: number;
  /** Bare timeouts / refused connections, counted only when no telling event names the failures. */
  bare: number;
  first: RmqEvent | null;
  last: RmqEvent | null;
  addr: string | null;
}

interface IpFailures {
  ns: RoleFailures;
  broker: RoleFailures;
}

/** Failed calls against one role of the host that make it a failed role (fewer tell nothing of the host). */
const MIN_FAILURES = 2;
const rule: Rule = {
  meta: {
    id: 'colocated-namesrv',
    title: 'NameServer and broker on the same host',
    severity: 'warning',
    description:
      'A host that runs both a NameServer and a broker (same IP in NameServer and broker addresses, or both logs in one host folder), reported when that host is involved in a failure: a hang there takes the broker and the NameServer that should notice its absence down together.',
    versions: 'all',
    settings: {},
    events: [...new Set<EventType>([...BOOK_EVENTS, 'route-update-failed', 'rpc-timeout', 'connect-failed', 'register-failed', 'send-attempt-failed', 'heartbeat-failed', 'broker-expired', 'broker-removed'])],
  },
  create(ctx) {
    const book = addressBook(ctx);
    const byIp = new Map<string, IpFailures>();
    const occ = new Occurrences<RmqEvent>(2000);

    const newRole = (): RoleFailures => ({ count: 0, bare: 0, first: null, last: null, addr: null });

    /**
     * One failure against an address. `key` names the occurrence (a send's InvokeID, or a kind and
     * host whose repeats within 2 s are one); `bare` marks timeout / connect lines, which usually
     * accompany a send, a heartbeat or a poll and count only when nothing else does.
     */
    const fail = (e: RmqEvent, addr: string | null | undefined, role: 'ns' | 'broker', key: string, bare = false) => {
      const k = addrKey(addr);
      const ip = ipOf(k);
      if (!k || !ip || ip === 'null') return;
      let f = byIp.get(ip);
      if (!f) byIp.set(ip, (f = { ns: newRole(), broker: newRole() }));
      const r = f[role];
      r.first ??= e;
      r.last = e;
      r.addr ??= k;
      if (occ.add(`${ip}|${role}|${key}`, e)) {
        if (bare) r.bare++;
        else r.count++;
      }
    };

    const roleOf = (addr: string): 'ns' | 'broker' => (book.isNamesrv(addr) ? 'ns' : 'broker');
    const echoes = new LeftoverEchoes();

    const own: Visitor = {
      'route-update-failed': (e) => {
        const cause = (e.fields.cause as string | null) ?? null;
        // One failed poll is logged twice (per topic, and by the scheduled task): one occurrence.
        if (e.fields.addr && (isTimeoutCause(cause) || isConnectCause(cause))) fail(e, e.fields.addr as string, 'ns', `poll|${e.host}`);
      },
      'rpc-timeout': (e) => {
        const a = e.fields.addr as string | null;
        if (a) echoes.hold(e, a, () => fail(e, a, roleOf(a), `bare|${e.host}`, true));
      },
      'connect-failed': (e) => {
        for (const a of (e.fields.addrs as string[]) ?? []) fail(e, a, roleOf(a), `bare|${e.host}`, true);
      },
      'register-failed': (e) => {
        if (e.fields.namesrvAddr) fail(e, e.fields.namesrvAddr as string, 'ns', `register|${e.host}`);
      },
      'send-attempt-failed': (e) => {
        const cause = (e.fields.cause as string | null) ?? null;
        echoes.tick(e.ts);
        // An attempt given no time, or one that failed at once (a channel the client closed under
        // it), says nothing about its broker; nor does the timeout line it was logged with.
        const outcome = attemptOutcome(e);
        if (outcome === 'leftover' || (outcome === 'fast' && !isConnectCause(cause))) return echoes.leftover(e, addrInText(cause));
        if (isTimeoutCause(cause) || isConnectCause(cause)) {
          const a = addrInText(cause);
          if (a) fail(e, a, roleOf(a), `send|${(e.fields.invokeId as string | null) ?? `${e.file}:${e.line}`}`);
        }
      },
      'heartbeat-failed': (e) => {
        if (!e.entry?.endsWith('not-up')) fail(e, e.fields.brokerAddr as string | null, 'broker', `heartbeat|${e.host}`);
      },
      'broker-expired': (e) => fail(e, e.fields.brokerAddr as string | null, 'broker', `expired|${e.host}`),
      'broker-removed': (e) => {
        if (e.fields.reason === 'channel-destroyed') fail(e, e.fields.brokerAddr as string | null, 'broker', `destroyed|${e.host}`);
      },
      end() {
        echoes.flush();
        const brokerByIp = new Map<string, string[]>();
        for (const a of book.knownBrokerAddrs) {
          const ip = ipOf(a)!;
          const list = brokerByIp.get(ip) ?? [];
          list.push(a);
          brokerByIp.set(ip, list);
        }
        const nsByIp = new Map<string, string[]>();
        for (const a of book.namesrvAddrs) {
          const ip = ipOf(a)!;
          const list = nsByIp.get(ip) ?? [];
          list.push(a);
          nsByIp.set(ip, list);
        }
        // Hosts whose folder holds both logs: their IPs count as colocated too.
        const folderIps = new Map<string, string>();
        for (const h of book.hostsOfKind('namesrv')) {
          if (!book.hasKind(h, 'broker')) continue;
          for (const ip of book.ipsOfHost(h)) folderIps.set(ip, h);
        }
        for (const [ip, f] of [...byIp].sort((a, b) => (a[1].ns.first?.ts ?? 0) - (b[1].ns.first?.ts ?? 0))) {
          const nsAddrs = nsByIp.get(ip) ?? [];
          const brokerAddrs = (brokerByIp.get(ip) ?? []).filter((a) => portOf(a) !== NAMESRV_PORT);
          const byAddress = nsAddrs.length > 0 && brokerAddrs.length > 0;
          const folderHost = folderIps.get(ip) ?? null;
          if (!byAddress && !folderHost) continue;
          for (const r of [f.ns, f.broker]) if (r.count === 0) r.count = r.bare;
          // One failed call is no failed process: a cold client's first send may wait less than its
          // budget on a broker still warming up (gen-20261224: 529 ms of a 1000 ms budget, a minute
          // before any fault), and one poll may be lost to a slow moment.
          for (const r of [f.ns, f.broker]) if (r.count < MIN_FAILURES) r.count = 0;
          if (f.ns.count === 0 && f.broker.count === 0) continue;
          report(ip, f, nsAddrs, brokerAddrs, byAddress, folderHost);
        }
      },
    };

    /** Every client log read is of a version known to close a timed-out NameServer channel and not connect it again (4.9.1-4.9.x, 5.3.0+). */
    function everyClientLeavesTimedOutNamesrv(): boolean {
      const hosts = [...new Set(ctx.sources.filter((x) => x.kind === 'client').map((x) => x.host))];
      return hosts.length > 0 && hosts.every((h) => {
        const v = clientVersionOf(h, ctx.sources);
        return v.closeSocketIfTimeout === true && v.rescansNameServers === false;
      });
    }

    function report(ip: string, f: IpFailures, nsAddrs: string[], brokerAddrs: string[], byAddress: boolean, folderHost: string | null) {
      const prefer = (list: string[], port: number) => [...list].sort((a, b) => Number(portOf(a) !== port) - Number(portOf(b) !== port))[0] ?? null;
      const nsAddr = f.ns.addr ?? prefer(nsAddrs, NAMESRV_PORT) ?? `${ip}:${NAMESRV_PORT}`;
      const brokerAddr = f.broker.addr ?? prefer(brokerAddrs, 10911);
      const brokerName = book.brokerNameOf(brokerAddr);
      const host = folderHost ?? book.hostOfIp(ip);
      const both = f.ns.count > 0 && f.broker.count > 0;
      const firsts = [f.ns.first, f.broker.first].filter((x): x is RmqEvent => !!x && x.ts !== null);
      const lasts = [f.ns.last, f.broker.last].filter((x): x is RmqEvent => !!x && x.ts !== null);
      const start = firsts.length ? Math.min(...firsts.map((x) => x.ts!)) : null;
      const end = lasts.length ? Math.max(...lasts.map((x) => x.ts!)) : null;
      const where = host ? `${host} (${ip})` : ip;
      const brokerText = brokerName ? `broker ${brokerName} (${brokerAddr})` : brokerAddr ? `broker ${brokerAddr}` : 'a broker';
      const found = [
        byAddress ? `NameServer address ${nsAddr} and broker address ${brokerAddr} share the IP` : '',
        folderHost ? `the log folder ${folderHost} holds both namesrv.log and broker.log` : '',
      ].filter(Boolean).join('; ');
      const failedText = [
        f.ns.count ? `${f.ns.count} failed call${f.ns.count === 1 ? '' : 's'} to the NameServer (route polls, registrations; first at ${clockOf(f.ns.first)})` : '',
        f.broker.count ? `${f.broker.count} to the broker (sends, heartbeats, expiry; first at ${clockOf(f.broker.first)})` : '',
      ].filter(Boolean).join(' and ');
      const explanation =
        `${where} runs both NameServer ${nsAddr} and ${brokerText} (${found}). ` +
        `Calls against that host failed: ${failedText}${start !== null && end !== null ? `, over ${formatMs(end - start)}` : ''}. ` +
        (both
          ? 'Both roles failed together, as when the host hangs: the broker stops answering and so does the NameServer that clients bound to it ask for routes, so those clients keep the dead broker in their route (4.x clients do not leave a NameServer that times out: see namesrv-stuck) instead of dropping it within about 150 s.'
          : `Only the ${f.ns.count ? 'NameServer' : 'broker'} side failed here, but a failure of the host would take both down: the broker and the NameServer that should notice its absence.`) +
        ' With NameServers on hosts of their own, the other NameServers expire a hung broker after 120 s and clients follow at their next poll.';
      ctx.report({
        severity: both ? 'error' : 'warning',
        title: `${where} runs NameServer ${nsAddr} and ${brokerText}${both ? ': both failed together' : `: its ${f.ns.count ? 'NameServer' : 'broker'} failed`}`,
        start,
        end,
        subject: { host: host ?? ip, namesrvAddr: nsAddr, ...(brokerAddr ? { brokerAddr } : {}), ...(brokerName ? { broker: brokerName } : {}) },
        metrics: { host: ip, namesrvAddr: nsAddr, brokerAddr, namesrvFailures: f.ns.count, brokerFailures: f.broker.count },
        evidence: orderEvidence([f.ns.first, f.broker.first, book.namesrvListEvent.get(nsAddr) ?? null, f.ns.last, f.broker.last]),
        explanation,
        advice: [
          about('namesrv-placement', 'Run the NameServers on hosts (or VMs/containers on other machines) without brokers; two or three small dedicated NameServers are enough.'),
          // Only where a client's version is unknown or one that stays on a NameServer that times out.
          ...(everyClientLeavesTimedOutNamesrv()
            ? []
            : [
                about(
                  'close-timed-out-channel',
                  'Run clients 4.9.1-4.9.x or 5.3.0 and later: before 4.9.1 a client never leaves a NameServer that times out (no setting changes that); from 4.9.1 it closes the timed-out channel by default (-Dcom.rocketmq.remoting.client.closeSocketIfTimeout=true), but 5.0.0-5.2.0 clients connect it again at once (their NameServer scan) while the host still accepts connections.',
                ),
              ]),
          about('find-cause', `Find out what happened to ${where} around ${clockOf(f.ns.first ?? f.broker.first)}.`),
        ],
      });
    }

    return own;
  },
};

export default rule;
