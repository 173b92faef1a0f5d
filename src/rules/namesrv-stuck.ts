// namesrv-stuck: a client whose route polls keep timing out against one NameServer while other
// NameServers are listed, and which does not move to another one.
//
// Mechanism (NettyRemotingClient.getAndCreateNameserverChannel, invokeSync): NettyRemotingClient reuses the cached channel to the chosen
// NameServer as long as the channel is active, and only picks the next NameServer (logging
// `new name server is chosen`) when there is none. A timed-out call closes the channel only when
// clientCloseSocketIfTimeout is true: hard-coded false in 4.0.0-4.9.0, true by default from 4.9.1
// (-Dcom.rocketmq.remoting.client.closeSocketIfTimeout). So a NameServer that hangs with its TCP
// connection open keeps an older client on it, poll after poll, until the connection breaks
// (typically a reset when the host comes back).
//
// Per client host, an episode opens at the first route-poll timeout against NameServer N
// (`updateTopicRouteInfoFromNameServer Exception` with RemotingTimeoutException <N>, or a
// `wait response ... <N>` / 4.x `invokeSync: wait response timeout exception, the channel[null]`
// timeout while N is the chosen NameServer) and closes at `new name server is chosen. OLD: N`.
// One failed poll is logged twice (the per-topic ERROR and the ScheduledTask wrapper): counted once.
// Reported when at least `minTimeouts` polls timed out before a switch (default 2: with
// close-on-timeout the second poll already goes elsewhere), and the client lists another NameServer
// (or its list is not in the logs). Severity: critical.

import type { EventType, RmqEvent } from '../parse/types.js';
import { FindingKeeper, Occurrences } from './util.js';
import { formatMs } from '../util/durations.js';
import type { Rule, Visitor } from './types.js';
import { closeTimedOutChannelAdvice } from './versions.js';
import { addressBook, addrKey, BOOK_EVENTS, clockOf, ipOf, isClientEvent, isTimeoutCause, orderEvidence } from './routing.js';
import { about } from './advice.js';

interface Episode {
  host: string;
  ns: string;
  first: RmqEvent;
  last: RmqEvent;
  timeouts: number;
  /** The channel to the NameServer closing (reset, close, inactive, idle) after the first timeout. */
  freedBy: RmqEvent | null;
  /** `invokeSync: close socket because of timeout`: the client closes on timeout. */
  closedOnTimeout: RmqEvent | null;
  /**
   * NettyRemotingClient's own `invokeSync: wait response timeout exception` lines of the episode: a log
   * that prints them prints the WARN that closes the channel right before each (NettyRemotingClient.
   * invokeSync, 4.9.1 and 5.0.0: `invokeSync: close socket because of timeout` when
   * clientCloseSocketIfTimeout is true, then the wait line).
   */
  waitLines: number;
  switchEvent: RmqEvent | null;
  list: RmqEvent | null;
}

interface ClientState {
  chosen: string | null;
  list: RmqEvent | null;
  listAddrs: string[];
  ep: Episode | null;
}

const rule: Rule = {
  meta: {
    id: 'namesrv-stuck',
    title: 'Client stuck on a NameServer that times out',
    severity: 'critical',
    description:
      'A client whose route updates keep timing out against one NameServer while others are listed, and which never switches because a timed-out channel is not closed (clientCloseSocketIfTimeout false, the default before 4.9.1).',
    versions: 'clients 4.0.0-4.9.0 by default (clientCloseSocketIfTimeout hard-coded false); 5.0.0-5.2.0 while the hung host still accepts connections (the NameServer scan reconnects the closed channel); 4.9.1-4.9.x and 5.3.0+ only with -Dcom.rocketmq.remoting.client.closeSocketIfTimeout=false',
    settings: {
      minTimeouts: { default: 2, description: 'route-poll timeouts against one NameServer before the client counts as stuck', unit: 'count' },
    },
    events: [...new Set<EventType>([...BOOK_EVENTS, 'route-update-failed', 'rpc-timeout', 'namesrv-chosen', 'namesrv-list', 'channel-closed', 'pipeline'])],
  },
  create(ctx) {
    const minTimeouts = ctx.settings.minTimeouts as number;
    const book = addressBook(ctx);
    const clients = new Map<string, ClientState>();
    // Closed episodes: only those whose finding can be among the kept ones stay (the others are counted).
    const done = new FindingKeeper<Episode>(ctx);
    let closed = 0;
    const polls = new Occurrences<RmqEvent>(2000);

    const stateOf = (host: string): ClientState => {
      let s = clients.get(host);
      if (!s) clients.set(host, (s = { chosen: null, list: null, listAddrs: [], ep: null }));
      return s;
    };

    const timeout = (e: RmqEvent, ns: string) => {
      const s = stateOf(e.host);
      if (s.ep && s.ep.ns !== ns) close(s, null);
      if (!s.ep) s.ep = { host: e.host, ns, first: e, last: e, timeouts: 0, freedBy: null, closedOnTimeout: null, waitLines: 0, switchEvent: null, list: s.list };
      const ep = s.ep;
      ep.last = e;
      if (polls.add(`${e.host}|${ns}`, e)) ep.timeouts++;
      else if (ep.first.type !== 'route-update-failed' && e.type === 'route-update-failed' && ep.timeouts === 1) ep.first = e;
    };

    const close = (s: ClientState, sw: RmqEvent | null) => {
      if (!s.ep) return;
      s.ep.switchEvent = sw;
      if (reported(s.ep)) done.offer(s.ep, rule.meta.severity, s.ep.first.ts, closed);
      closed++;
      s.ep = null;
    };

    const own: Visitor = {
      'namesrv-list': (e) => {
        if (!isClientEvent(e)) return;
        const s = stateOf(e.host);
        s.list = e;
        s.listAddrs = ((e.fields.addrs as string[]) ?? []).map((a) => addrKey(a)!).filter(Boolean);
      },
      'namesrv-chosen': (e) => {
        if (!isClientEvent(e)) return;
        const s = stateOf(e.host);
        const old = addrKey(e.fields.old as string | null);
        if (s.ep && old === s.ep.ns) close(s, e);
        s.chosen = addrKey(e.fields.new as string | null);
      },
      'route-update-failed': (e) => {
        if (!isClientEvent(e)) return;
        const cause = (e.fields.cause as string | null) ?? null;
        const ns = addrKey(e.fields.addr as string | null) ?? stateOf(e.host).chosen;
        if (!ns || !isTimeoutCause(cause)) return;
        timeout(e, ns);
      },
      'rpc-timeout': (e) => {
        if (!isClientEvent(e)) return;
        const s = stateOf(e.host);
        const addr = addrKey(e.fields.addr as string | null);
        // 4.x prints `channel[null]` for NameServer calls (addr = null).
        const ns = addr ? (book.isNamesrv(addr) ? addr : null) : e.entry === 'rpc-timeout/invoke-sync-wait' ? s.chosen : null;
        if (ns) timeout(e, ns);
        if (ns && e.entry === 'rpc-timeout/invoke-sync-wait' && s.ep && s.ep.ns === ns) s.ep.waitLines++;
      },
      'channel-closed': (e) => {
        if (!isClientEvent(e)) return;
        const s = stateOf(e.host);
        if (!s.ep || addrKey(e.fields.addr as string | null) !== s.ep.ns) return;
        if (e.fields.reason === 'timeout') s.ep.closedOnTimeout ??= e;
        else s.ep.freedBy ??= e;
      },
      pipeline: (e) => {
        if (!isClientEvent(e) || e.fields.side !== 'client') return;
        const s = stateOf(e.host);
        if (!s.ep || addrKey(e.fields.addr as string | null) !== s.ep.ns) return;
        if (['exception', 'close', 'inactive', 'idle', 'disconnect'].includes(e.fields.event as string)) {
          // The first sign that the channel broke (an exception before the close it causes).
          s.ep.freedBy ??= e;
        }
      },
      end() {
        for (const s of clients.values()) close(s, null);
        for (const ep of done.take()) report(ep);
      },
    };

    function othersListed(ep: Episode): string[] {
      const listed = ep.list ? ((ep.list.fields.addrs as string[]) ?? []).map((a) => addrKey(a)!) : [];
      return listed.filter((a) => a !== ep.ns);
    }

    /** Whether the closed episode makes a finding: enough timeouts, and another NameServer to switch to. */
    function reported(ep: Episode): boolean {
      return ep.timeouts >= minTimeouts && !(ep.list && othersListed(ep).length === 0);
    }

    function report(ep: Episode) {
      const others = othersListed(ep);
      const endEvent = ep.switchEvent ?? ep.last;
      const stuckMs = ep.first.ts !== null && endEvent.ts !== null ? endEvent.ts - ep.first.ts : null;
      const v = ctx.clientVersion(ep.host);
      const switchedTo = ep.switchEvent ? ((ep.switchEvent.fields.new as string | null) ?? null) : null;
      // One timeout, then another NameServer: what a client that closes a timed-out channel does
      // (NettyRemotingClient.invokeSync closes it; the next poll finds no channel and picks the next
      // address). Only two or more timeouts on one channel show a client that did not close it.
      const closedAsDefault = v.closeSocketIfTimeout === true && v.rescansNameServers !== true && ep.timeouts === 1 && !!ep.switchEvent;
      // Two timeouts or more, each with NettyRemotingClient's own line and no `close socket because of
      // timeout` before it: this client ran with the channel left open, whatever its version's default
      // (gen-705: a 4.9.6 client started with -Dcom.rocketmq.remoting.client.closeSocketIfTimeout=false).
      const leftOpen = ep.waitLines >= 2 && !ep.closedOnTimeout;
      const closeText = leftOpen && v.closeSocketIfTimeout !== false
        ? `Client ${v.range} closes a timed-out channel by default, but this one logged ${ep.waitLines} timeouts on it (\`invokeSync: wait response timeout exception\`) and never \`close socket because of timeout\`, which invokeSync logs as it closes: it ran with -Dcom.rocketmq.remoting.client.closeSocketIfTimeout=false`
        : closedAsDefault
        ? `Client ${v.range} closes a timed-out channel by default (4.9.1+), and this one behaved so: after its one timeout it chose another NameServer at its next route poll`
        : v.closeSocketIfTimeout === false
          ? `Client ${v.range} does not close a channel on timeout (clientCloseSocketIfTimeout is false before 4.9.1 and cannot be configured there)`
          : v.rescansNameServers === true
            ? `Client ${v.range} closes a timed-out channel, but its NameServer scan (NettyRemotingClient.scanAvailableNameSrv, 5.0.0-5.2.0, every 3 s) connects every listed NameServer again, and a hung host whose kernel still accepts connections gets a fresh channel that stays chosen`
            : v.closeSocketIfTimeout === true
            ? `Client ${v.range} closes a timed-out channel by default (4.9.1+), so it must run with -Dcom.rocketmq.remoting.client.closeSocketIfTimeout=false, or the timeouts did not come through invokeSync`
            : `The client version is ${v.range === 'unknown' ? 'unknown' : v.range}; clientCloseSocketIfTimeout is false before 4.9.1 and true by default from 4.9.1`;
      const freed = ep.switchEvent
        ? ep.freedBy
          ? ` It was freed when the connection to ${ep.ns} broke at ${clockOf(ep.freedBy)} (${ep.freedBy.type === 'pipeline' ? `NETTY CLIENT PIPELINE: ${ep.freedBy.fields.event}` : 'channel closed'}; typically the hung host coming back and resetting its connections), and at ${clockOf(ep.switchEvent)} it chose ${switchedTo ?? 'another NameServer'}.`
          : ` At ${clockOf(ep.switchEvent)} it finally chose ${switchedTo ?? 'another NameServer'}.`
        : ` It never switched in these logs (last timeout at ${clockOf(ep.last)}).`;
      const explanation =
        `${ep.host} polled its routes from NameServer ${ep.ns}, and ${ep.timeouts} poll${ep.timeouts === 1 ? '' : 's'} timed out from ${clockOf(ep.first)} to ${clockOf(ep.last)}` +
        (others.length ? ` while ${others.join(', ')} ${others.length === 1 ? 'was' : 'were'} listed.` : ' (the NameServer list of this client is not in the logs).') +
        ` The client keeps using the cached channel while it is active and picks another NameServer only when there is none; a timeout does not make it inactive. ${closeText}.` +
        freed +
        ` Stuck for ${stuckMs !== null ? formatMs(stuckMs) : 'an unknown time (the lines have no dates)'}: all that time the client kept its old route, so it could not learn that brokers went away (see stale-route).` +
        (ep.closedOnTimeout ? ` The channel was closed on timeout at ${clockOf(ep.closedOnTimeout)}, yet the client stayed on ${ep.ns}.` : '');
      const nsIp = ipOf(ep.ns);
      const advice = [
        about(
          'close-timed-out-channel',
          leftOpen && v.closeSocketIfTimeout === true
            ? `${ep.host} (client ${v.range}) left its timed-out NameServer channel open: remove -Dcom.rocketmq.remoting.client.closeSocketIfTimeout=false from its start command${v.rescansNameServers === true ? ', and upgrade it to 5.3.0 or later: 5.0.0-5.2.0 clients connect a closed NameServer channel again at once (their NameServer scan, every 3 s) while the host still accepts connections' : ''}.`
            : closeTimedOutChannelAdvice(v, ep.host),
        ),
        // Only where that NameServer shares its host with a broker (its premise).
        ...(nsIp && book.sharesHostWithBroker(nsIp)
          ? [about('namesrv-placement', `Keep NameServers off broker hosts: ${ep.ns} runs beside a broker, and a host that hangs then takes a broker and the NameServer its clients ask about that broker down together (see colocated-namesrv).`)]
          : []),
        about('find-cause', `Find why NameServer ${ep.ns} stopped answering before ${clockOf(ep.first)} (the first timeout) while keeping its connections open: host freeze, reboot with a long self-test, long GC.`),
      ];
      ctx.report({
        title: `${ep.host} stuck on NameServer ${ep.ns}${stuckMs !== null ? ` for ${formatMs(stuckMs)}` : ''} (${ep.timeouts} route-poll timeout${ep.timeouts === 1 ? '' : 's'}${switchedTo ? `, then switched to ${switchedTo}` : ', never switched'})`,
        start: ep.first.ts,
        end: endEvent.ts,
        subject: { client: ep.host, host: ep.host, namesrvAddr: ep.ns },
        metrics: {
          timeouts: ep.timeouts,
          stuckMs,
          namesrvAddr: ep.ns,
          switchedTo,
          switchedAt: ep.switchEvent?.ts ?? null,
          clientVersion: v.range,
          // The client's own value where the logs bear it out: false before 4.9.1 (hard-coded), true
          // on 5.0.0-5.2.0 (its NameServer scan explains the stay) or after one timeout and a
          // switch. A 4.9.1+ or 5.3.0+ client that stayed through several ran against its default
          // of true (the property set to false, or calls outside invokeSync): its value is not
          // known, and the default would be a false statement.
          closeSocketIfTimeout: leftOpen ? false : v.closeSocketIfTimeout === true && v.rescansNameServers !== true && !closedAsDefault ? null : v.closeSocketIfTimeout,
          rescansNameServers: v.rescansNameServers,
        },
        evidence: orderEvidence([ep.first, ep.switchEvent, ep.list, ep.freedBy, ep.last]),
        explanation,
        advice,
      });
    }

    return own;
  },
};

export default rule;
