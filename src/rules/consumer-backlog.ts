// consumer-backlog: a consumer group falls behind (its lag grows), and why, where the logs tell it.
//
// Mechanism (Java push consumer, 4.x and 5.x): the consumer pulls ahead of its listener into a
// ProcessQueue per queue and consumes it on its consume threads (ConsumeMessageConcurrentlyService:
// a pool of consumeThreadMin threads: it never grows past that, its queue being unbounded; an
// orderly consumer, ConsumeMessageOrderlyService, consumes each queue on one thread at a time, and
// only while it holds the queue's lock on the broker). When the listener is slower than the
// arrivals the ProcessQueue fills and the pulls are held back (`the cached message count exceeds the
// threshold ...`, consumer-flow-control): the lag is then in the broker. The client prints per
// minute, per `topic@group` (ConsumerStatsManager): CONSUME_OK_TPS and CONSUME_FAILED_TPS (messages
// consumed), CONSUME_RT (the listener's average time per call: RTStatsItem `TIMES: n AVGRT: ms` in
// clients that have it, else `AVGPT`), PULL_TPS and PULL_RT. Consumed messages times CONSUME_RT over
// the minute is the average number of consume threads busy (Little's law).
//
// Decision: a group is behind when its client logs show flow control (the cache full), orderly
// queues put off because they are not locked in the broker for at least 30 s, minutes in which its
// instances consumed fewer messages than the brokers stored (TOPIC_PUT_NUMS against the clients'
// CONSUME_OK_TPS and CONSUME_FAILED_TPS, every instance's log read), or, where none of these shows
// (or their cause is unknown), a listener that slowed or stood still within minutes whose totals
// kept up (listenerEpisode: its CONSUME_RT rose, its commit rounds stood still or slowed). The
// cause, the first that the logs support, else `unknown` with what is missing:
// - a blocked listener: a minute in which an instance consumed nothing (CONSUME_RT `TIMES: 0`) while
//   messages waited for it (blockedListener below); first, since the minute after holds the blocked
//   calls' whole waits in its CONSUME_RT and would read as a slow listener with impossible threads;
// - a slow listener: a host's CONSUME_RT during the backlog at least 3 times its own lowest minute
//   (and at least 100 ms); its window is read from the committed offsets ([persistAll], every 5 s):
//   from the last commit before the host's consumption per commit fell below half its earlier
//   median to the last commit before it recovered;
// - a broker fault: the instances' calls to one broker address refused or timed out during the
//   backlog (connects, calls, pulls that failed with no response code; at least 3): its messages wait
//   there until it answers; orderly queues of it stay unlocked until a rebalance (every 20 s) after it
//   answers again. The finding names the address (the incident ties it to that broker's fault: a
//   consequence, not a cause of its own);
// - the consume threads: CONSUME_RT unchanged while the group fell behind: the threads were busy all
//   the time at about the same time per message, at least one busy on average (the pool size is not
//   printed: it is said assumed);
// - subscriptions that differ: the broker's subscription of the group to a topic went back and forth
//   during the backlog (the messages of a tag a pull was filtered out by are passed over, never
//   consumed: the title counts them, not a backlog);
// - a rebalance storm: rebalanceStormCount rebalances or more within the backlog.
// Severity: warning.

import type { RmqEvent } from '../parse/types.js';
import type { Finding, FindingInput, MetricValue, Rule } from './types.js';
import { num, str } from './send-path.js';
import { Span, groupOf, someOf } from './consumer.js';
import { formatMs } from '../util/durations.js';
import { clockOf } from './routing.js';
import { plural } from '../util/text.js';

/** A listener this many times slower than its own best minute is slow. */
const SLOW_FACTOR = 3;
const SLOW_MIN_MS = 100;
/**
 * Not-locked lines this close are one stretch (a queue dropped and taken again waits for the next
 * rebalance, every 20 s, RebalanceService); a stretch this long is a backlog (an orderly consumer's
 * first rebalance puts its queues off for a few seconds to half a minute while the locks are taken).
 */
const LOCK_GAP_MS = 22_000;
const LOCK_MIN_MS = 30_000;
/** Commit rounds of a host (every persistConsumerOffsetInterval, 5 s) kept past RECENT_ROUNDS_MS. */
const ROUNDS_KEPT = 20_000;
/**
 * A host's CONSUME_RT lines kept to cite besides the cited minutes' (a day of minutes): a decoded line
 * per host and minute was what two weeks of a busy group's logs outgrew the rules' thread with
 * (docs/bench.md). A minute older than that can still be read, from its figures; its line is cited
 * only if it could name a cause when it was read.
 */
const LINES_KEPT = 1440;
/**
 * A host's minutes kept as they are (besides the cited ones): a day. An older minute is folded into
 * its host's summary (Folded): the best minutes slowListener and threadsLimit measure against, and
 * per hour the minutes they could take for the worst or the busiest of a backlog. A minute per host
 * kept all along was the rules' thread's growth with the length of the logs (docs/bench.md).
 */
const MINUTES_KEPT = 1440;
const HOUR_MS = 3_600_000;
/** Cited minutes per host at most (a listener that slows and recovers every other minute for weeks). */
const CITED_MAX = 5000;
/**
 * A host's commit rounds are read only around the minutes that can name a cause (a minute slow
 * against the host's best so far; the first minute that consumed nothing after one that did, and the
 * first that did again): the windows read them from 2 min before such a minute (slowWindow, 30 s of
 * rounds before that) to the release of a block after it. A round is kept while it is this recent,
 * and after only inside such a window: the state is the windows', not the log's length (a week of
 * rounds every 5 s on 16 queues held hundreds of MB).
 */
const RECENT_ROUNDS_MS = 240_000;
/**
 * A minute's consumption is compared with the brokers' stored count once the stream is this far past
 * it: every host prints a minute's stats lines at its end (ConsumerStatsManager on the clients,
 * BrokerStatsManager on the brokers), within seconds of each other, clocks apart included. The
 * figures of the minutes compared are summed and let go, so weeks of minutes cost what one does.
 */
const LAG_OPEN_MS = 600_000;
/** Sets of hosts printing a minute (LateSum) kept per group: instances that come and go make a few. */
const LATE_SETS_KEPT = 64;
const ROUNDS_BEFORE_MS = 180_000;
const ROUNDS_AFTER_MS = 120_000;

/**
 * A minute whose pulls brought this many more messages than it consumed, and at least twice as many,
 * piled them up in the client's cache: its listener fell behind its own pulls (with flow control they
 * stop; in a whole minute of normal running the two are about equal).
 */
const PILED_MIN = 30;
/** Commit rounds that moved no offset for this long while messages piled up: the listener stood still. */
const STILL_MIN_MS = 30_000;
/** A broker's failed calls end at most this long before a backlog's start to be its cause (the minute ends of the clients and brokers are seconds apart). */
const FAIL_REACH_MS = 5000;
/** Refused or timed-out calls kept per client host (a flood is cut). */
const REFUSED_MAX = 5000;
/**
 * A backlog's window reads the calls from a minute before its start (brokerFault), and its start is
 * the earliest of its flow control, its orderly queues put off and its late minutes: each known
 * within a minute of its time, a late minute once the lag is compared (LAG_OPEN_MS). A call's line
 * is kept while a start could still come before it (this much before the oldest minute not yet
 * compared and before the stream's time, a reordered line included).
 */
const REFUSED_LINE_MS = 240_000;

/** A client's call to a broker address that was refused or timed out, as brokerFault reads it. */
interface Refused {
  ts: number;
  addr: string;
  pull: boolean;
  host: string;
  /** Its place among its host's calls. */
  i: number;
}

/**
 * The refused and timed-out calls of each client host: every call's time, address and kind (up to
 * REFUSED_MAX), and the line of only those a backlog's failures can cite (the first call to each
 * address from a minute before each start a backlog can take: `start()`). A decoded line per call,
 * kept to the end, was the rules' thread's growth with the length of a busy group's logs.
 */
class RefusedCalls {
  private readonly hosts = new Map<string, RefusedHost>();

  add(e: RmqEvent, addr: string, pull: boolean): void {
    let h = this.hosts.get(e.host);
    if (!h) this.hosts.set(e.host, (h = { ts: [], addr: [], addrs: new Map(), pull: [], recent: [], lines: new Map(), since: -Infinity, cited: new Set() }));
    if (h.ts.length >= REFUSED_MAX) return;
    let a = h.addrs.get(addr);
    if (a === undefined) h.addrs.set(addr, (a = addr));
    const i = h.ts.length;
    h.ts.push(e.ts!);
    h.addr.push(a);
    h.pull.push(pull);
    h.recent.push({ i, ev: e });
    // The first call to an address since the latest start is cited by a backlog that starts there.
    if (e.ts! >= h.since && !h.cited.has(a)) {
      h.cited.add(a);
      h.lines.set(i, e);
    }
  }

  /** A backlog may start at `start` (the calls from a minute before it are read): the first call to each address from then on keeps its line. */
  start(start: number): void {
    const from = start - 60000;
    for (const h of this.hosts.values()) {
      // Per address, its earliest call from then on (the first read of those at the same time).
      const first = new Map<string, { i: number; ev: RmqEvent }>();
      for (const r of h.recent) {
        const x = first.get(h.addr[r.i]);
        if (h.ts[r.i] >= from && (!x || h.ts[r.i] < h.ts[x.i])) first.set(h.addr[r.i], r);
      }
      for (const r of first.values()) h.lines.set(r.i, r.ev);
      // Calls yet to come are the first since the latest start for the addresses not called since it.
      if (from >= h.since) {
        h.since = from;
        h.cited = new Set(first.keys());
      }
    }
  }

  /** No start can come before `bound` any more: the lines of the calls before it that no start cites are let go. */
  settle(bound: number): void {
    for (const h of this.hosts.values()) {
      let k = 0;
      while (k < h.recent.length && h.ts[h.recent[k].i] < bound) k++;
      if (k) h.recent.splice(0, k);
    }
  }

  /** A host's calls within [from, to], in the order read. */
  between(host: string, from: number, to: number): Refused[] {
    const h = this.hosts.get(host);
    const out: Refused[] = [];
    if (h) for (let i = 0; i < h.ts.length; i++) if (h.ts[i] >= from && h.ts[i] <= to) out.push({ ts: h.ts[i], addr: h.addr[i], pull: h.pull[i], host, i });
    return out;
  }

  /** A call's line, where it was kept. */
  line(r: Refused): RmqEvent | null {
    return this.hosts.get(r.host)?.lines.get(r.i) ?? null;
  }
}

interface RefusedHost {
  ts: number[];
  addr: string[];
  /** One copy of each address. */
  addrs: Map<string, string>;
  pull: boolean[];
  /** The calls whose line a start yet to come may cite (REFUSED_LINE_MS), oldest first. */
  recent: Array<{ i: number; ev: RmqEvent }>;
  /** The lines kept, by the call's place. */
  lines: Map<number, RmqEvent>;
  /** The latest start's window (a minute before it), and the addresses of the calls cited since. */
  since: number;
  cited: Set<string>;
}

interface Minute {
  at: number;
  rtMs: number | null;
  calls: number | null;
  consumed: number;
  /** Messages its pulls brought in the minute (PULL_TPS SUM; null: no such line read). */
  pulled: number | null;
  /** Whether its CONSUME_RT line was read. */
  rt: boolean;
  /** The CONSUME_RT line, to cite: kept for the last LINES_KEPT minutes and the minutes that can name a cause (null: let go). */
  rtEv: RmqEvent | null;
  /** A minute that can name a cause (its line is kept). */
  cited: boolean;
}

/**
 * The minutes of a host older than MINUTES_KEPT and not cited, summed: the lowest CONSUME_RT and the
 * count of the minutes slowListener reads (5 calls or more) and of those threadsLimit reads (5
 * consumed or more), whether any printed CONSUME_RT, and per hour the minute with the highest
 * CONSUME_RT of each kind and the one that consumed the most. Of an hour that a backlog's window cuts
 * only its extremes are known, wherever they fell in it.
 */
interface Folded {
  slowBest: number;
  slowN: number;
  threadsBest: number;
  threadsN: number;
  anyRt: boolean;
  hours: Array<{ hour: number; slowWorst: Minute | null; threadsWorst: Minute | null; busiest: Minute | null }>;
}

interface Round {
  at: number;
  n: number;
  ev: RmqEvent;
}

interface HostState {
  /** The minutes of the last MINUTES_KEPT and the cited ones, by minute end. */
  minutes: Map<number, Minute>;
  /** The minutes of the last MINUTES_KEPT, oldest first: past it a minute not cited is folded. */
  order: Minute[];
  folded: Folded;
  /** The minutes whose line is kept and not cited, oldest first: past LINES_KEPT their lines are let go. */
  lined: Minute[];
  /** Cited minutes so far (at most CITED_MAX). */
  cited: number;
  /**
   * Per queue, the last committed offset: nested maps of topic, broker and queue id as the events
   * carry them (every commit line is read: a key made of the three is a new string to hash each time).
   */
  offsets: Map<string, Map<string, Map<number, number>>>;
  /** Commit rounds kept (read after the last line): time, messages consumed since the previous round, its first line. */
  rounds: Round[];
  /** The rounds of the last RECENT_ROUNDS_MS, in time order: each then kept or let go. */
  recent: Round[];
  /** Windows whose rounds are kept (around the minutes that can name a cause), in time order, merged. */
  keep: Array<[number, number]>;
  /** The lowest CONSUME_RT so far of a minute with 5 calls or more. */
  bestRt: number;
  roundAt: number | null;
  roundN: number;
  roundEv: RmqEvent | null;
  /** This host's flow-control warnings (its cache full). */
  flow: Span;
  /** Its flow-control lines are DefaultLitePullConsumerImpl's: a lite pull consumer, which prints no CONSUME_RT. */
  litePull: boolean;
}

interface Group {
  name: string;
  hosts: Map<string, HostState>;
  flow: Span;
  flowHosts: Set<string>;
  flowEv: RmqEvent | null;
  maxCached: number | null;
  /** Stretches of orderly queues put off, not locked in the broker. */
  locks: Array<{ from: number; to: number; brokers: Set<string>; queues: Set<string>; ev: RmqEvent; hosts: Set<string> }>;
  rebalances: number[];
  /** The topics whose consumption its clients' stats print (`topic@group`). */
  topics: Set<string>;
  /** The broker's subscription changes of the group: time and the subscription it took, per topic. */
  subs: Array<{ ts: number; topic: string; sub: string }>;
  /** Per minute end not yet compared (LAG_OPEN_MS): messages consumed (OK and failed) on all its client hosts, and which printed it. */
  consumedAt: Map<number, { n: number; hosts: Set<string> }>;
  /** Every client host that printed the group's consumption. */
  lagHosts: Set<string>;
  /**
   * The minutes compared so far in which the group consumed less than the brokers stored (lateMinute),
   * summed per set of hosts that printed the minute: behind() reads the sum of the set that is every
   * host's (a minute one instance's log misses would look like a backlog), known only at the end.
   */
  late: Map<string, LateSum>;
}

/** Late minutes summed: the first and last minute end, the messages stored and consumed in them. */
interface LateSum {
  first: number;
  last: number;
  puts: number;
  consumed: number;
}

const rule: Rule = {
  meta: {
    id: 'consumer-backlog',
    title: 'Consumer backlog: a group falls behind, with its cause where the logs show it',
    severity: 'warning',
    description:
      "Per consumer group: a backlog (flow control, orderly queues not locked in the broker for 30 s or more, minutes in which the instances consumed fewer messages than the brokers stored, or a listener whose CONSUME_RT rose while its committed offsets stood still or slowed within minutes that kept up) and its cause: a blocked listener (a minute that consumed nothing while messages waited), a slow listener (the client's CONSUME_RT per minute rising), a broker fault (the client's connections to the broker refused or timed out while its queues were not locked), the consume threads (CONSUME_RT unchanged while the group fell behind), subscriptions that differ between instances, a rebalance storm; else the cause is said unknown.",
    versions:
      'Java push consumers 4.x-5.x (ConsumerStatsManager per-minute lines: CONSUME_RT printed as `TIMES: n AVGRT: ms` by clients with RTStatsItem, 4.9.4 among them, else as `AVGPT`); the orderly lock from ConsumeMessageOrderlyService, all versions.',
    settings: {
      rebalanceStormCount: { default: 6, description: 'Rebalances (lines less than 2 s apart count once) within the backlog that name a rebalance storm its cause', unit: 'count' },
    },
    events: ['stats', 'flow-control', 'offset-commit', 'lock-failed', 'connect-failed', 'rpc-timeout', 'pull-failed', 'rebalance', 'consumer-changed'],
  },

  create(ctx) {
    const stormCount = Number(ctx.settings.rebalanceStormCount);
    const groups = new Map<string, Group>();
    /** Per client host: failed connects and timeouts to a broker address. */
    const refused = new RefusedCalls();
    // A group's late minutes, its flow control and its orderly queues put off each may start a backlog.
    const lag = new LagMinutes((at) => refused.start(at - 60000));
    const group = (name: string): Group => {
      let g = groups.get(name);
      if (!g) groups.set(name, (g = { name, hosts: new Map(), flow: new Span(), flowHosts: new Set(), flowEv: null, maxCached: null, locks: [], rebalances: [], topics: new Set(), consumedAt: new Map(), lagHosts: new Set(), late: new Map(), subs: [] }));
      return g;
    };
    const host = (g: Group, h: string): HostState => {
      let s = g.hosts.get(h);
      if (!s) g.hosts.set(h, (s = { minutes: new Map(), order: [], folded: { slowBest: Infinity, slowN: 0, threadsBest: Infinity, threadsN: 0, anyRt: false, hours: [] }, lined: [], cited: 0, offsets: new Map(), rounds: [], recent: [], keep: [], bestRt: Infinity, roundAt: null, roundN: 0, roundEv: null, flow: new Span(), litePull: false }));
      return s;
    };
    const kept = (s: HostState, ts: number): boolean => {
      for (let i = s.keep.length - 1; i >= 0; i--) if (s.keep[i][0] <= ts) return ts <= s.keep[i][1];
      return false;
    };
    /** Rounds older than RECENT_ROUNDS_MS before `now` leave the recent ones: kept inside a window, else let go. */
    const age = (s: HostState, now: number) => {
      while (s.recent.length && s.recent[0].at < now - RECENT_ROUNDS_MS) {
        const r = s.recent.shift()!;
        if (kept(s, r.at) && s.rounds.length < ROUNDS_KEPT) s.rounds.push(r);
      }
    };
    const closeRound = (s: HostState) => {
      if (s.roundAt !== null && s.roundEv) {
        s.recent.push({ at: s.roundAt, n: s.roundN, ev: s.roundEv });
        age(s, s.roundAt);
      }
      s.roundAt = null;
      s.roundN = 0;
      s.roundEv = null;
    };
    /** Per client host, the groups it committed offsets of (a few at most). */
    const committedBy = new Map<string, Set<string>>();
    /** After the last line: the recent rounds join the kept ones. */
    const flushRounds = (s: HostState) => {
      const last = s.order[s.order.length - 1];
      if (last) closeMinute(s, last);
      closeRound(s);
      for (const r of s.recent) if (s.rounds.length < ROUNDS_KEPT) s.rounds.push(r);
      s.recent = [];
    };

    const onStats = (e: RmqEvent) => {
      if (e.ts === null || str(e, 'window') !== 'minute') return;
      lag.close(e.ts, groups.values());
      refused.settle(Math.min(lag.oldestOpen, e.ts) - REFUSED_LINE_MS);
      const key = str(e, 'key') ?? '';
      if (e.kind !== 'client') {
        // The broker's stats.log: the messages of a topic it stored in the minute.
        const sum = num(e, 'sum');
        if (str(e, 'stat') === 'TOPIC_PUT_NUMS' && sum !== null && !key.startsWith('%')) lag.stored(key, Math.round(e.ts / 60000) * 60000, sum);
        return;
      }
      const at = key.lastIndexOf('@');
      if (at < 0 || key.startsWith('%RETRY%')) return;
      const stat = str(e, 'stat');
      const s = host(group(key.slice(at + 1)), e.host);
      const minute = Math.round(e.ts / 60000) * 60000;
      // A host's minute is whole once its next one begins: one whose messages piled up can name a cause.
      const last = s.order[s.order.length - 1];
      if (last && last.at < minute) closeMinute(s, last);
      const m = minuteOf(s, minute);
      if (stat === 'CONSUME_RT') {
        m.rtMs = num(e, 'avgpt');
        m.calls = num(e, 'times');
        m.rt = true;
        if (m.rtEv === null) s.lined.push(m);
        m.rtEv = e;
        while (s.lined.length > LINES_KEPT) {
          const old = s.lined.shift()!;
          if (!old.cited) old.rtEv = null;
        }
        // Slow as slowListener reads it (against the best minute so far: a listener steadily at 150 ms
        // keeps nothing), or the first minute that consumed nothing after one that did, or the first
        // that did again (blockedListener: its start and its release; an idle instance keeps nothing).
        const rt = m.rtMs ?? 0;
        if (rt > 0 && (m.calls ?? 5) >= 5) s.bestRt = Math.min(s.bestRt, rt);
        const prev = s.minutes.get(minute - 60000);
        if ((rt >= SLOW_MIN_MS && rt >= SLOW_FACTOR * s.bestRt) || (prev?.rt && stoppedMinute(prev) !== stoppedMinute(m))) {
          keepAround(s, minute);
          if (!m.cited && s.cited < CITED_MAX) {
            m.cited = true;
            s.cited++;
          }
        }
      } else if (stat === 'PULL_TPS') {
        m.pulled = num(e, 'sum');
      } else if (stat === 'CONSUME_OK_TPS' || stat === 'CONSUME_FAILED_TPS') {
        const n = num(e, 'sum') ?? 0;
        m.consumed += n;
        const g = group(key.slice(at + 1));
        g.topics.add(key.slice(0, at));
        lag.consumed(g, minute, e.host, n);
      }
    };

    const onFlow = (e: RmqEvent) => {
      // The lite pull consumer's line prints no group: the one group its host commits offsets of, if one.
      const own = committedBy.get(e.host);
      const name = groupOf(e) ?? (own?.size === 1 ? [...own][0] : `(group not printed, ${e.host})`);
      if (e.ts === null) return;
      const g = group(name);
      // A lite pull consumer prints no consume statistics: its commit rounds around the full cache are what
      // can tell a slower application (slowListener).
      if (e.fields.litePull === true) {
        const hs = host(g, e.host);
        hs.litePull = true;
        keepAround(hs, Math.round(e.ts / 60000) * 60000);
      }
      if (g.flow.first === null || e.ts < g.flow.first) refused.start(e.ts);
      g.flow.add(e.ts);
      g.flowHosts.add(e.host);
      host(g, e.host).flow.add(e.ts);
      g.flowEv ??= e;
      // Only the push consumer's `count` limit counts messages cached on one queue; the lite pull
      // consumer's counts pulled batches (consume requests), the others MiB, offsets or pops.
      const c = str(e, 'limit') === 'count' ? num(e, 'count') : null;
      if (c !== null && (g.maxCached === null || c > g.maxCached)) g.maxCached = c;
    };

    const onCommit = (e: RmqEvent) => {
      const name = groupOf(e);
      const topic = str(e, 'topic');
      const off = num(e, 'offset');
      if (!name || e.kind !== 'client' || e.ts === null || off === null || !topic || topic.startsWith('%RETRY%') || e.fields.ok === false) return;
      let own = committedBy.get(e.host);
      if (!own) committedBy.set(e.host, (own = new Set()));
      if (own.size < 8) own.add(name);
      const s = host(group(name), e.host);
      if (s.roundAt !== null && e.ts - s.roundAt > 1000) closeRound(s);
      s.roundAt ??= e.ts;
      s.roundEv ??= e;
      let byBroker = s.offsets.get(topic);
      if (!byBroker) s.offsets.set(topic, (byBroker = new Map()));
      const broker = str(e, 'brokerName') ?? '?';
      let byQueue = byBroker.get(broker);
      if (!byQueue) byBroker.set(broker, (byQueue = new Map()));
      const q = num(e, 'queueId') ?? -1;
      const before = byQueue.get(q);
      if (before !== undefined && off > before) s.roundN += off - before;
      byQueue.set(q, off);
    };

    const onLock = (e: RmqEvent) => {
      const name = groupOf(e);
      if (!name || e.ts === null || str(e, 'what') !== 'not-locked') return;
      const g = group(name);
      const last = g.locks[g.locks.length - 1];
      const cur = last && e.ts - last.to <= LOCK_GAP_MS ? last : null;
      const l = cur ?? { from: e.ts, to: e.ts, brokers: new Set<string>(), queues: new Set<string>(), ev: e, hosts: new Set<string>() };
      if (!cur) {
        g.locks.push(l);
        refused.start(e.ts);
      }
      l.to = e.ts;
      l.hosts.add(e.host);
      const b = str(e, 'brokerName');
      if (b) l.brokers.add(b);
      const q = num(e, 'queueId');
      if (q !== null && l.queues.size < 100) l.queues.add(`${str(e, 'topic') ?? '?'}@${b ?? '?'}:${q}`);
    };

    const onRefused = (e: RmqEvent) => {
      if (e.kind !== 'client' || e.ts === null) return;
      const addrs = e.type === 'connect-failed' ? ((e.fields.addrs as string[] | undefined) ?? []) : [str(e, 'addr')].filter((a): a is string => !!a);
      for (const addr of addrs) if (!addr.endsWith(':9876')) refused.add(e, addr, e.type === 'pull-failed');
      refused.settle(Math.min(lag.oldestOpen, e.ts) - REFUSED_LINE_MS);
    };

    const onRebalance = (e: RmqEvent) => {
      const name = str(e, 'group');
      if (!name || e.ts === null) return;
      const g = group(name);
      const last = g.rebalances[g.rebalances.length - 1];
      if ((last === undefined || e.ts - last > 2000) && g.rebalances.length < 5000) g.rebalances.push(e.ts);
    };

    return {
      stats: onStats,
      'flow-control': onFlow,
      'offset-commit': onCommit,
      'lock-failed': onLock,
      'connect-failed': onRefused,
      'rpc-timeout': onRefused,
      // A pull that failed with no response code (a timeout, a closed channel); a refusal (code 24, 25) is pull-refused's.
      'pull-failed': (e) => {
        if (num(e, 'code') === null) onRefused(e);
      },
      rebalance: onRebalance,
      'consumer-changed': (e) => {
        const name = str(e, 'group');
        const topic = str(e, 'topic');
        const sub = str(e, 'subString');
        if (!name || !topic || sub === null || e.ts === null || topic.startsWith('%RETRY%') || str(e, 'change') !== 'subscription-changed') return;
        const g = group(name);
        if (g.subs.length < 5000) g.subs.push({ ts: e.ts, topic, sub });
      },
      end() {
        lag.close(Infinity, groups.values());
        for (const g of groups.values()) {
          for (const s of g.hosts.values()) flushRounds(s);
          // Late minutes whose cause the lines do not tell give way to a listener fault the commit
          // rounds show elsewhere (gen-20270103: 40 short in the minute to 09:32 with no cause, a
          // listener blocked 45 s from 09:33:05 whose backlog drained within its minute).
          const lagged = judge(g, refused, stormCount, behind(g));
          const alone = lagged?.metrics.cause === 'unknown' ? judge(g, refused, stormCount, null) : null;
          const apart = alone && lagged && (alone.start! > lagged.end! || alone.end! < lagged.start!);
          const f = alone && apart && alone.metrics.cause !== 'unknown' ? alone : lagged;
          if (f) ctx.report(f);
        }
      },
    };
  },
};

type Report = FindingInput;

/** A minute that can name a cause: the rounds around it are kept. */
function keepAround(s: HostState, minute: number): void {
  const from = minute - ROUNDS_BEFORE_MS;
  const to = minute + ROUNDS_AFTER_MS;
  const last = s.keep[s.keep.length - 1];
  if (last && from <= last[1]) last[1] = Math.max(last[1], to);
  else if (s.keep.length < 10_000) s.keep.push([from, to]);
}

/** A host's minute that is whole: one whose messages piled up in the cache keeps its rounds and line (piledListener). */
function closeMinute(s: HostState, m: Minute): void {
  if (!piledMinute(m) || m.cited) return;
  keepAround(s, m.at);
  if (s.cited < CITED_MAX) {
    m.cited = true;
    s.cited++;
  }
}

/** The minute of a host, made if new: past MINUTES_KEPT the oldest not cited is folded. */
function minuteOf(s: HostState, minute: number): Minute {
  let m = s.minutes.get(minute);
  if (m) return m;
  s.minutes.set(minute, (m = { at: minute, rtMs: null, calls: null, consumed: 0, pulled: null, rt: false, rtEv: null, cited: false }));
  s.order.push(m);
  while (s.order.length > MINUTES_KEPT) {
    const old = s.order.shift()!;
    if (old.cited) continue;
    s.minutes.delete(old.at);
    fold(s.folded, old);
  }
  return m;
}

/**
 * The brokers' stored counts and the groups' consumption of the minutes not yet compared, compared
 * (lateMinute) and let go once the stream is LAG_OPEN_MS past them.
 */
class LagMinutes {
  /** Minute end -> topic -> messages the brokers stored in that minute (TOPIC_PUT_NUMS). */
  private readonly puts = new Map<number, Map<string, number>>();
  /** The oldest minute end not yet compared (of a group's consumption or the stored counts). */
  private openFrom = Infinity;
  /** `late(at)`: a late minute that is the first of its sum so far (a backlog may start a minute before it). */
  constructor(private readonly late: (at: number) => void) {}
  get oldestOpen(): number {
    return this.openFrom;
  }
  stored(topic: string, at: number, sum: number): void {
    let byTopic = this.puts.get(at);
    if (!byTopic) this.puts.set(at, (byTopic = new Map()));
    byTopic.set(topic, (byTopic.get(topic) ?? 0) + sum);
    this.openFrom = Math.min(this.openFrom, at);
  }
  consumed(g: Group, at: number, host: string, n: number): void {
    let c = g.consumedAt.get(at);
    if (!c) g.consumedAt.set(at, (c = { n: 0, hosts: new Set<string>() }));
    c.n += n;
    c.hosts.add(host);
    g.lagHosts.add(host);
    this.openFrom = Math.min(this.openFrom, at);
  }
  /** The minutes LAG_OPEN_MS or more before `now` are compared and let go (Infinity: all). */
  close(now: number, groups: Iterable<Group>): void {
    if (this.openFrom >= now - LAG_OPEN_MS) return;
    const before = now - LAG_OPEN_MS;
    let open = Infinity;
    for (const g of groups) {
      for (const [at, c] of g.consumedAt) {
        if (at >= before) open = Math.min(open, at);
        else {
          if (lateMinute(g, at, c, this.puts.get(at))) this.late(at);
          g.consumedAt.delete(at);
        }
      }
    }
    for (const at of this.puts.keys()) {
      if (at < before) this.puts.delete(at);
      else open = Math.min(open, at);
    }
    this.openFrom = open;
  }
}

/** A host's minutes slowListener measures, in time order, and its best CONSUME_RT (the folded minutes' too); null with fewer than two. */
function slowMeasuredOf(s: HostState): { ms: Minute[]; best: number } | null {
  const ms = [...s.minutes.values()].filter(slowMeasured).sort((a, b) => a.at - b.at);
  if (ms.length + s.folded.slowN < 2) return null;
  return { ms, best: Math.min(s.folded.slowBest, ...ms.map((m) => m.rtMs!)) };
}

/** A measured minute slow against the host's best: SLOW_FACTOR times it, and SLOW_MIN_MS or more. */
const slowAgainst = (m: Minute, best: number): boolean => m.rtMs! >= SLOW_MIN_MS && m.rtMs! >= SLOW_FACTOR * best;

/** A minute slowListener measures: its CONSUME_RT over 5 calls or more. */
const slowMeasured = (m: Minute): boolean => m.rtMs !== null && (m.calls ?? m.consumed) >= 5;
/** A minute threadsLimit measures: its CONSUME_RT over 5 messages consumed or more. */
const threadsMeasured = (m: Minute): boolean => m.rtMs !== null && m.consumed >= 5;

/** A minute older than MINUTES_KEPT, not cited, into its host's summary. */
function fold(f: Folded, m: Minute): void {
  if (m.rtMs !== null) f.anyRt = true;
  const hour = Math.floor(m.at / HOUR_MS);
  let h = f.hours[f.hours.length - 1];
  if (!h || h.hour !== hour) f.hours.push((h = { hour, slowWorst: null, threadsWorst: null, busiest: null }));
  if (slowMeasured(m)) {
    f.slowBest = Math.min(f.slowBest, m.rtMs!);
    f.slowN++;
    if (!h.slowWorst || m.rtMs! > h.slowWorst.rtMs!) h.slowWorst = m;
  }
  if (threadsMeasured(m)) {
    f.threadsBest = Math.min(f.threadsBest, m.rtMs!);
    f.threadsN++;
    if (!h.threadsWorst || m.rtMs! > h.threadsWorst.rtMs!) h.threadsWorst = m;
    if (!h.busiest || m.consumed > h.busiest.consumed) h.busiest = m;
  }
}

/** The backlog of a group and its cause, or null when the logs show none. */
function judge(g: Group, refused: RefusedCalls, stormCount: number, lag: Behind | null): Report | null {
  const stuck = g.locks.filter((l) => l.to - l.from >= LOCK_MIN_MS);
  const episode = g.flow.first === null && !stuck.length && !lag ? listenerEpisode(g) : null;
  if (g.flow.first === null && !stuck.length && !lag && !episode) return null;
  const from = Math.min(...[g.flow.first, lag?.from ?? null, episode?.from ?? null, ...stuck.map((l) => l.from)].filter((x): x is number => x !== null));
  const to = Math.max(...[g.flow.last, lag?.to ?? null, episode?.to ?? null, ...stuck.map((l) => l.to)].filter((x): x is number => x !== null));
  const ex: string[] = [];
  if (episode) {
    ex.push(
      `${g.name.startsWith('(') ? `A group ${g.name}` : `Group ${g.name}`} fell behind on ${episode.host} for ${formatMs(episode.to - episode.from)}: the offsets it committed (every 5 s) ${episode.still ? 'stood still' : 'moved less than half as fast as before'}, and caught up within the minute's totals (no minute it fell in consumed fewer than the brokers stored).`,
    );
  }
  const adv: string[] = [];
  const evidence: RmqEvent[] = [];
  const metrics: Record<string, MetricValue> = { cause: 'unknown', maxCached: g.maxCached, flowControlHosts: [...g.flowHosts].sort(), notLockedMs: stuck.length ? stuck.reduce((n, l) => n + (l.to - l.from), 0) : null };
  if (g.flow.first !== null) {
    const held = (g.flow.last ?? g.flow.first) - g.flow.first;
    // A client logs one flow-control warning per 1000 pauses of a queue (DefaultMQPushConsumerImpl,
    // DefaultLitePullConsumerImpl): one line tells a pause, not how long the cache stayed full.
    const during = held > 0 ? `for ${formatMs(held)}` : '(one warning logged: a client logs one per 1000 pauses of 50 ms, so how long is not told)';
    ex.push(`${g.name.startsWith('(') ? `A group ${g.name}` : `Group ${g.name}`}: its consumers on ${someOf([...g.flowHosts].sort())} held their pulls back ${during}: their cache of messages not yet consumed was full${g.maxCached !== null ? ` (up to ${g.maxCached} messages on one queue)` : ''}, so the lag grew in the broker.`);
    if (g.flowEv) evidence.push(g.flowEv);
  }
  const lagAt = ex.length;
  if (lag) {
    metrics.lagGrewBy = lag.grew;
    ex.push(`The brokers stored ${plural(lag.puts, 'message')} of ${lag.topic} in the minutes its instances consumed ${lag.consumed} of them (TOPIC_PUT_NUMS in the brokers' stats.log against CONSUME_OK_TPS and CONSUME_FAILED_TPS in every instance's log): the lag grew by about ${lag.grew}.`);
  }
  // A host whose calls to a broker failed in a minute consumed nothing then for want of messages,
  // not because its listener blocked (gen-20261223: app-billing-02 held broker-b's queues while
  // broker-b was cut off and then hung; its pulls timed out).
  const pullsFailed = (host: string, minuteEnd: number) => refused.between(host, minuteEnd - 60000, minuteEnd).length > 0;
  const blocked = blockedListener(g, from, to, lag, pullsFailed) ?? piledListener(g, from, to, pullsFailed);
  // A listener that slowed only after the backlog's last late minute did not make it (gen-20270103:
  // a lag of 40 in the minute to 09:32, a listener blocked from 09:33:05).
  const slowRead = blocked ? null : slowListener(g, from, to);
  const slow = slowRead && (slowRead.from === null || slowRead.from <= to) ? slowRead : null;
  const hosts = new Set([...g.flowHosts, ...stuck.flatMap((l) => [...l.hosts]), ...g.hosts.keys()]);
  const broker = brokerFault(from, to, hosts, stuck, refused);
  if (blocked) {
    Object.assign(metrics, { cause: 'blocked-listener', blockedHosts: blocked.hosts, blockedFrom: blocked.from, blockedUntil: blocked.until, rtAfterMs: blocked.after?.rtMs ?? null });
    const held = blocked.flow ? 'its cache was full (flow control)' : 'its committed offsets stood still and the group fell behind';
    const still = blocked.fromEv ? ` Its committed offsets stood still from ${clockOf(blocked.fromEv)}${blocked.untilEv ? ` until ${clockOf(blocked.untilEv)}` : ' to the end of the logs'}.` : '';
    // Only an average that rose says the blocked calls' waits are in it (a call that returns counts its whole time).
    const a = blocked.after;
    const after =
      a && (a.rtMs ?? 0) >= SLOW_MIN_MS
        ? ` The first minute that consumed again (to ${clockOf(a.rtEv)}) counted ${plural(a.calls ?? a.consumed, 'call')} at an average of ${Math.round(a.rtMs ?? 0)} ms: the blocked calls' whole waits are in that average, so it is no time per message.`
        : '';
    // What the line printed: `TIMES: 0` where the client has RTStatsItem, else an average of 0.
    const printed = blocked.printedTimes ? 'CONSUME_RT TIMES: 0' : 'CONSUME_RT AVGPT: 0, CONSUME_OK_TPS SUM: 0';
    const p = blocked.piled;
    if (p) ex.push(`Cause: a blocked listener. ${someOf(blocked.hosts)} consumed ${p.consumed} in the minute to ${clockOf(blocked.ev)} while its pulls brought ${p.pulled} (PULL_TPS): they piled up in its cache, and its committed offsets stood still meanwhile: every consume thread was inside a listener call that did not return.${still}`);
    else ex.push(`Cause: a blocked listener. ${someOf(blocked.hosts)} consumed nothing in the minute to ${clockOf(blocked.ev)} (${printed}) while ${held}: every consume thread was inside a listener call that did not return.${still}${after}`);
    evidence.push(blocked.ev, ...(blocked.fromEv ? [blocked.fromEv] : []));
    adv.push(
      `Find where the listener blocks on ${someOf(blocked.hosts)}: a thread dump (jstack) while it happens shows the ConsumeMessageThread_ threads' stacks (a downstream call without a timeout, a lock, a deadlock); give every call the listener makes a timeout. More consume threads would block the same way.`,
    );
  } else if (slow) {
    Object.assign(metrics, { cause: 'slow-listener', slowHosts: slow.hosts, rtBeforeMs: slow.before, rtDuringMs: slow.during, busyThreads: slow.busy, slowFrom: slow.from, slowUntil: slow.until });
    if (slow.perRound) {
      const pr = slow.perRound;
      ex.push(
        `Cause: a slower consumer application on ${someOf(slow.hosts)}. Its cache was full (flow control) while the offsets it committed moved ${pr.during} messages a round (every 5 s) at the lowest, against ${pr.before} before${slow.until !== null ? `, for ${formatMs(slow.until - (slow.from ?? slow.until))}` : ' to the end of the logs'}: with the cache full the application was the limit, and it consumed slower than it had. It prints no CONSUME_RT (a lite pull consumer's application consumes what poll() returns), so its time per message is not told.`,
      );
      if (slow.round) evidence.push(slow.round);
      adv.push(`Find what slowed the application on ${someOf(slow.hosts)} (a downstream call, a lock, GC pauses) where it handles what poll() returns; a lite pull consumer has no consume threads to add.`);
    } else ex.push(
      `Cause: a slow listener. CONSUME_RT (the listener's average time per message, printed each minute by the client) rose from ${slow.before} ms to ${slow.during} ms on ${someOf(slow.hosts)}${slow.from !== null ? `; the consumption per commit (every 5 s) fell below half its earlier rate${slow.until !== null ? ` for ${formatMs(slow.until - slow.from)}` : ' to the end of the logs'}` : ''}.${slow.busy !== null ? ` About ${slow.busy} consume threads were busy on average then (consumed times CONSUME_RT over the minute): every thread of the pool was taken by the slow calls.` : ''}`,
    );
    if (!slow.perRound) {
      evidence.push(slow.ev, ...(slow.round ? [slow.round] : []));
      adv.push(`Find what slowed the listener on ${someOf(slow.hosts)} (a downstream call, a lock, GC pauses): its time per message went from ${slow.before} ms to ${slow.during} ms.`);
    }
    if (slow.busy !== null) adv.push(`If the listener waits (I/O) rather than works, more consume threads (consumeThreadMin: the pool never grows past it) let more messages wait at once; about ${slow.busy} were busy.`);
  } else if (broker) {
    Object.assign(metrics, { cause: 'broker-fault', brokerAddr: broker.addr, brokerFailures: broker.failures, brokerFailedFrom: broker.failFrom, ...(broker.lock ? { brokers: [...broker.lock.brokers].sort(), notLockedUntil: broker.lock.to } : {}) });
    const failed = `the instances' calls to ${broker.addr} failed (${plural(broker.failures, 'refused or timed-out call')}${broker.pulls ? `, ${plural(broker.pulls, 'pull')} among them` : ''}) for ${formatMs(broker.failTo - broker.failFrom)}`;
    if (broker.lock) {
      ex.push(
        `Cause: a broker fault. Orderly queues of ${someOf([...broker.lock.brokers])} were not locked in the broker for ${formatMs(broker.lock.to - Math.max(broker.lock.from, broker.failFrom))} from the first failed call, while ${failed}: an orderly consumer consumes a queue only while it holds the broker's lock, and takes it again at a rebalance (every 20 s) once the broker answers, so the queues stayed unconsumed ${formatMs(Math.max(0, broker.lock.to - broker.failTo))} after the last failed call.`,
      );
      evidence.push(broker.lock.ev);
    } else ex.push(`Cause: a broker fault. While the group fell behind, ${failed}: the messages stored there are consumed only once it answers pulls again.`);
    evidence.push(broker.failEv);
    adv.push(`Nothing to change in the consumer for this: it consumes ${broker.addr}'s queues again once that broker answers; the broker's fault is the cause to look at.`);
  } else {
    const threads = threadsLimit(g, from, to);
    const storm = g.rebalances.filter((t) => t >= from - 60000 && t <= to).length;
    if (threads && threads.busy >= 0.9 && (g.flow.first !== null || lag)) {
      Object.assign(metrics, { cause: 'consume-threads', rtDuringMs: threads.rt, busyThreads: threads.busy });
      ex.push(
        `Cause: the consume threads. CONSUME_RT stayed about ${threads.rt} ms while the group fell behind: the listener did not slow, the instances consumed as fast as their consume threads allow (about ${threads.busy} busy on average, consumed times CONSUME_RT over the minute); the pool size (consumeThreadMin, 20 by default) is not printed: assumed the number busy.`,
      );
      evidence.push(threads.ev);
      adv.push(`Raise consumeThreadMin (the pool never grows past it; consumeThreadMax alone changes nothing) or add instances up to the number of queues: the threads were all busy at an unchanged time per message.`);
    } else if (differing(g, from, to)) {
      const d = differing(g, from, to)!;
      Object.assign(metrics, { cause: 'subscription', subscriptions: d.subs });
      // Filtered messages are passed over, not left waiting: the broker filters a pull by the
      // subscription it holds (DefaultMessageStore.getMessage, NO_MATCHED_MESSAGE) and the client by its
      // own (PullAPIWrapper.processPullResult), and the offset moves on past them.
      if (lag) ex[lagAt] = `The brokers stored ${plural(lag.puts, 'message')} of ${lag.topic} in the minutes its instances consumed ${lag.consumed} of them (TOPIC_PUT_NUMS in the brokers' stats.log against CONSUME_OK_TPS and CONSUME_FAILED_TPS in every instance's log): about ${lag.grew} were not consumed.`;
      ex.push(`Cause: the instances subscribe differently: the broker's subscription of ${g.name} to ${d.topic} went back and forth between ${d.subs.join(' and ')} meanwhile (see subscription-inconsistent); the messages of a tag left out by the subscription a pull was filtered with are passed over, the queue's offset moves on past them, and the group never consumes them: they are not waiting in the lag.`);
      adv.push(`Give every instance of ${g.name} the same subscription (see subscription-inconsistent). The messages passed over meanwhile are consumed only if the group's offsets are reset to before them (mqadmin resetOffsetByTime), which delivers again what it consumed since.`);
    } else if (storm >= stormCount) {
      Object.assign(metrics, { cause: 'rebalance', rebalances: storm });
      ex.push(`Cause: a rebalance storm: ${plural(storm, 'rebalance')} during the backlog; each drops the cache of the queues that move and has their new owner start again from the committed offset (see rebalance-storm).`);
    } else {
      const missing = [...g.hosts.values()].some((s) => s.folded.anyRt || [...s.minutes.values()].some((m) => m.rtMs !== null)) ? 'the listener\'s time per message (CONSUME_RT) did not rise and the threads\' share cannot be told' : 'no CONSUME_RT line was read (the client\'s per-minute stats)';
      ex.push(`Cause unknown: ${missing}; no broker connection failed and no rebalance storm came meanwhile.`);
      adv.push("Read the client log's per-minute CONSUME_RT and CONSUME_OK_TPS lines beside the broker's stats.log to tell a slower listener from more arrivals.");
    }
  }
  if (stuck.length && !broker?.lock) ex.push(`Orderly queues were put off, not locked in the broker, for ${formatMs(stuck.reduce((n, l) => n + (l.to - l.from), 0))} (${someOf([...new Set(stuck.flatMap((l) => [...l.queues]))])}).`);
  return {
    title: `${g.name.startsWith('(') ? `A group ${g.name}` : `Group ${g.name}`}: ${what(from, to, metrics.cause === 'subscription' ? lag : null)}, cause: ${CAUSE_WORDS[String(metrics.cause)] ?? String(metrics.cause)}`,
    start: from,
    end: to,
    subject: hosts.size === 1 ? { client: [...hosts][0] } : {},
    metrics,
    evidence,
    explanation: ex.join(' '),
    advice: adv,
  };
}

/**
 * A listener that slowed or stood still inside minutes whose totals still kept up (no late minute,
 * no flow control, no orderly queue put off): a minute whose CONSUME_RT rose SLOW_FACTOR times the
 * host's best and SLOW_MIN_MS or more, with its commit rounds standing still STILL_MIN_MS or more in
 * that minute, or falling below half their earlier median around it (slowWindow). The window is
 * the rounds'. gen-20270103: app-billing-02's listener blocked 45 s and its 4 threads then took the
 * minute's 377 other messages at 5 ms (CONSUME_RT 476 ms); gen-20270102: a 30 s slowdown to 1.5 s a
 * message behind which a single instance caught up in the same minute.
 */
function listenerEpisode(g: Group): { host: string; from: number; to: number; still: boolean } | null {
  let first: { host: string; from: number; to: number; still: boolean } | null = null;
  for (const [h, s] of g.hosts) {
    const measured = slowMeasuredOf(s);
    if (!measured) continue;
    for (const m of measured.ms) {
      if (!slowAgainst(m, measured.best)) continue;
      const run = stillRun(s.rounds, m.at - 60000, m.at);
      const w = run ? { from: run.from, until: run.until?.at ?? null } : slowWindow(s, m.at - 120000, m.at + 60000);
      if (!w) continue;
      const ep = { host: h, from: w.from, to: w.until ?? m.at, still: run !== null };
      if (!first || ep.from < first.from) first = ep;
      break;
    }
  }
  return first;
}

/** What the finding is about: a backlog, pulls held back, or (subscriptions that differ) messages passed over. */
function what(from: number, to: number, passedOver: Behind | null): string {
  if (passedOver) return `about ${plural(passedOver.grew, 'message')} not consumed in ${formatMs(to - from)}`;
  return to > from ? `backlog for ${formatMs(to - from)}` : 'pulls held back by flow control';
}

/** Two or more subscriptions of one topic the broker took in turn during the backlog (a return to an earlier one included). */
function differing(g: Group, from: number, to: number): { topic: string; subs: string[] } | null {
  const byTopic = new Map<string, string[]>();
  for (const x of g.subs) if (x.ts >= from - 120000 && x.ts <= to) byTopic.set(x.topic, [...(byTopic.get(x.topic) ?? []), x.sub]);
  for (const [topic, list] of byTopic) {
    const distinct = [...new Set(list)];
    const returned = list.some((x, i) => i > 1 && list.slice(0, i - 1).includes(x) && list[i - 1] !== x);
    if (distinct.length > 1 && returned) return { topic, subs: distinct };
  }
  return null;
}

interface Behind {
  topic: string;
  from: number;
  to: number;
  puts: number;
  consumed: number;
  grew: number;
}

/**
 * A minute compared: late when the group consumed fewer messages than the brokers stored, at least a
 * tenth fewer and 30 or more; summed with the late minutes printed by the same hosts. A group with
 * more than one topic is not compared (behind() reads none: its topics only grow).
 */
function lateMinute(g: Group, at: number, c: { n: number; hosts: Set<string> }, puts: ReadonlyMap<string, number> | undefined): boolean {
  if (g.topics.size !== 1) return false;
  const put = puts?.get([...g.topics][0]);
  if (put === undefined || put - c.n < Math.max(30, 0.1 * put)) return false;
  const key = [...c.hosts].sort().join('\n');
  const sum = g.late.get(key);
  if (sum) {
    const first = at < sum.first;
    sum.first = Math.min(sum.first, at);
    sum.last = Math.max(sum.last, at);
    sum.puts += put;
    sum.consumed += c.n;
    return first;
  }
  if (g.late.size >= LATE_SETS_KEPT) return false;
  g.late.set(key, { first: at, last: at, puts: put, consumed: c.n });
  return true;
}

/**
 * Minutes in which the group consumed fewer messages than the brokers stored (lateMinute), with
 * every instance that prints stats printing that minute (a missing log would look like a backlog).
 * A broadcasting group consumes every message on each instance: never behind.
 */
function behind(g: Group): Behind | null {
  if (g.topics.size !== 1) return null;
  const late = g.late.get([...g.lagHosts].sort().join('\n'));
  if (!late) return null;
  return { topic: [...g.topics][0], from: late.first - 60000, to: late.last, puts: late.puts, consumed: late.consumed, grew: late.puts - late.consumed };
}

/** A minute whose pulls brought PILED_MIN or more messages than it consumed, and at least twice as many (PULL_TPS against CONSUME_OK_TPS and CONSUME_FAILED_TPS). */
function piledMinute(m: Minute): boolean {
  return m.pulled !== null && m.pulled - m.consumed >= PILED_MIN && m.pulled >= 2 * m.consumed;
}

/** A minute whose CONSUME_RT line says nothing was consumed (TIMES: 0; in the older wording, no time). */
function stoppedMinute(m: Minute): boolean {
  return m.calls !== null ? m.calls === 0 : (m.rtMs ?? 0) === 0;
}

interface Blocked {
  hosts: string[];
  /** The first stopped minute's CONSUME_RT line. */
  ev: RmqEvent;
  /** Whether the host's cache was full meanwhile (flow control), else its offsets stood still while the group fell behind. */
  flow: boolean;
  from: number | null;
  until: number | null;
  fromEv: RmqEvent | null;
  untilEv: RmqEvent | null;
  /** The first minute that consumed again. */
  after: Minute | null;
  /** Whether the stopped minute's CONSUME_RT printed TIMES (RTStatsItem), else the older AVGPT wording. */
  printedTimes: boolean;
  /** A block within a minute that still consumed some (piledListener): its messages pulled and consumed. */
  piled: { pulled: number; consumed: number } | null;
}

/**
 * A host whose listener stopped: a minute in which it consumed nothing (CONSUME_RT printed with
 * TIMES: 0, or SUM 0 in the older wording: ConsumerStatsManager prints every key it has each
 * minute, so the scheduled thread ran and the process was alive) while messages waited for it: its
 * cache full (flow control on that host over the minute), or its commit rounds all unmoved while its
 * pulls brought messages (PULL_TPS) and the group fell behind. Every consume thread was then inside a
 * call that did not return. Its window is read from its commit rounds: the offsets stop at the last round that moved them and move again at
 * the first round after (ConsumeMessageConcurrentlyService commits a queue's lowest offset not yet
 * consumed, so one blocked message holds its queue's offset).
 */
function blockedListener(g: Group, from: number, to: number, lag: Behind | null, pullsFailed: (host: string, minuteEnd: number) => boolean): Blocked | null {
  const found: Array<{ host: string; m: Minute; s: HostState; flow: boolean }> = [];
  for (const [h, s] of g.hosts) {
    const ms = [...s.minutes.values()].sort((a, b) => a.at - b.at);
    for (const m of ms) {
      // A minute's line is printed at its end: it covers [at - 60 s, at].
      if (!m.rt || m.at <= from || m.at - 60000 > to) continue;
      if (!stoppedMinute(m) || m.consumed > 0) continue;
      const flow = s.flow.first !== null && s.flow.first <= m.at && s.flow.last! >= m.at - 60000;
      const inMinute = s.rounds.filter((r) => r.at > m.at - 60000 && r.at <= m.at);
      // Its pulls brought messages that minute (PULL_TPS counts the messages of the pulls that found
      // some, ConsumerStatsManager.incPullTPS): a host that pulled nothing had nothing waiting for it,
      // whatever the group's lag (gen-20261228: app-billing-01 held broker-a's queues while the only
      // producer was cut off from broker-a).
      const waited = m.pulled === null || m.pulled > 0;
      const still = inMinute.length >= 3 && inMinute.every((r) => r.n === 0) && waited && lag !== null && m.at > lag.from && m.at - 60000 < lag.to && !pullsFailed(h, m.at);
      if (!flow && !still) continue;
      // A minute older than the lines kept that could name no cause when it was read: nothing to cite.
      if (m.rtEv === null) continue;
      found.push({ host: h, m, s, flow });
      break;
    }
  }
  if (!found.length) return null;
  found.sort((a, b) => a.m.at - b.m.at);
  const first = found[0];
  const r = first.s.rounds;
  // The last round that moved an offset before the stopped minute, and the first after it.
  let k = -1;
  for (let i = 0; i < r.length && r[i].at <= first.m.at - 60000; i++) if (r[i].n > 0) k = i;
  let j = -1;
  for (let i = Math.max(k + 1, 0); i < r.length; i++) {
    if (r[i].at > first.m.at - 60000 && r[i].n > 0) {
      j = i;
      break;
    }
  }
  const after = [...first.s.minutes.values()].filter((m) => m.at > first.m.at && (m.calls ?? m.consumed) > 0).sort((a, b) => a.at - b.at)[0] ?? null;
  return {
    hosts: [...new Set(found.map((x) => x.host))].sort(),
    ev: first.m.rtEv!,
    flow: first.flow,
    from: k >= 0 ? r[k].at : null,
    until: j >= 0 ? r[j].at : null,
    fromEv: k >= 0 ? r[k].ev : null,
    untilEv: j >= 0 ? r[j].ev : null,
    after,
    printedTimes: first.m.calls !== null,
    piled: null,
  };
}

/**
 * A host whose listener stopped within a minute that still consumed some (a block shorter than a
 * minute, or one that began or ended inside it): its pulls brought messages that piled up in its
 * cache (piledMinute), not for want of answers from a broker, while its commit rounds moved no
 * offset for STILL_MIN_MS or more around that minute (gen-20261218: app-billing-01 consumed 44 and
 * pulled 165 in the minute its listener blocked 45 s; its offsets stood still 50 s). A slow listener
 * moves its offsets, however slowly, and a host with nothing to consume pulls nothing.
 */
function piledListener(g: Group, from: number, to: number, pullsFailed: (host: string, minuteEnd: number) => boolean): Blocked | null {
  const found: Array<{ host: string; m: Minute; run: StillRun }> = [];
  for (const [h, s] of g.hosts) {
    const ms = [...s.minutes.values()].filter((m) => m.rtEv !== null && m.at > from && m.at - 60000 <= to && piledMinute(m) && !pullsFailed(h, m.at)).sort((a, b) => a.at - b.at);
    for (const m of ms) {
      const run = stillRun(s.rounds, m.at - 60000, m.at);
      if (!run) continue;
      found.push({ host: h, m, run });
      break;
    }
  }
  if (!found.length) return null;
  found.sort((a, b) => a.run.from - b.run.from);
  const { m, run } = found[0];
  return {
    hosts: [...new Set(found.map((x) => x.host))].sort(),
    ev: m.rtEv!,
    flow: false,
    from: run.from,
    until: run.until?.at ?? null,
    fromEv: run.fromEv,
    untilEv: run.until?.ev ?? null,
    after: null,
    printedTimes: m.calls !== null,
    piled: { pulled: m.pulled!, consumed: m.consumed },
  };
}

interface StillRun {
  /** The last round that moved an offset before the run. */
  from: number;
  fromEv: RmqEvent;
  /** The first that moved one again (null: none in the logs). */
  until: Round | null;
}

/** Commit rounds that moved no offset for STILL_MIN_MS or more, from the last that moved one to the first that did again, overlapping [lo, hi]. */
function stillRun(r: readonly Round[], lo: number, hi: number): StillRun | null {
  let k = -1;
  for (let i = 0; i < r.length; i++) {
    if (r[i].n === 0) continue;
    if (k >= 0 && i > k + 1 && r[i].at - r[k].at >= STILL_MIN_MS && r[k].at < hi && r[i].at > lo) return { from: r[k].at, fromEv: r[k].ev, until: r[i] };
    k = i;
  }
  // Still to the end of the logs: the rounds after the last that moved span STILL_MIN_MS or more.
  const end = r[r.length - 1];
  if (k >= 0 && end && end.n === 0 && end.at - r[k].at >= STILL_MIN_MS && r[k].at < hi) return { from: r[k].at, fromEv: r[k].ev, until: null };
  return null;
}

interface Slow {
  hosts: string[];
  /** CONSUME_RT before and during (null: a host that prints none, a lite pull consumer). */
  before: number | null;
  during: number | null;
  /** Without CONSUME_RT: the messages committed per round (5 s) before the fall and at its lowest. */
  perRound: { before: number; during: number } | null;
  busy: number | null;
  from: number | null;
  until: number | null;
  ev: RmqEvent;
  /** The first commit round of the slow window. */
  round: RmqEvent | null;
}

/** A host whose listener took SLOW_FACTOR times its best minute during the backlog. */
function slowListener(g: Group, from: number, to: number): Slow | null {
  const slow: Array<{ host: string; before: number; during: number; busy: number | null; m: Minute; s: HostState }> = [];
  for (const [h, s] of g.hosts) {
    const measured = slowMeasuredOf(s);
    if (!measured) continue;
    const { ms, best } = measured;
    // A minute's line is printed at its end: it covers [at - 60 s, at]. Of the folded minutes, each hour's worst.
    const folded = s.folded.hours.flatMap((h) => (h.slowWorst ? [h.slowWorst] : []));
    const during = [...ms, ...folded].filter((m) => m.at > from && m.at - 60000 <= to + 60000);
    const worst = during.reduce<Minute | null>((a, b) => (a === null || b.rtMs! > a.rtMs! ? b : a), null);
    if (!worst || !slowAgainst(worst, best)) continue;
    const busy = worst.consumed ? Math.round(((worst.consumed * worst.rtMs!) / 60000) * 10) / 10 : null;
    slow.push({ host: h, before: Math.round(best), during: Math.round(worst.rtMs!), busy, m: worst, s });
  }
  if (!slow.length) return unstatedSlow(g, from, to);
  slow.sort((a, b) => b.during - a.during);
  const windows = slow.map((x) => slowWindow(x.s, x.m.at - 120000, x.m.at + 60000)).filter((w): w is { from: number; until: number | null } => w !== null);
  const w = windows.sort((a, b) => a.from - b.from)[0] ?? null;
  const ev = slow[0].m.rtEv;
  if (!ev) return null;
  const round = slow[0].s.rounds.find((r) => w && r.at >= w.from)?.ev ?? null;
  return {
    round, hosts: slow.map((x) => x.host), before: Math.min(...slow.map((x) => x.before)), during: slow[0].during, perRound: null, busy: slow[0].busy, from: w?.from ?? null, until: w?.until ?? null, ev };
}

/**
 * A lite pull consumer's host (its flow-control lines are DefaultLitePullConsumerImpl's), which prints
 * no CONSUME_RT (its application consumes what poll() returns, and ConsumerStatsManager counts
 * nothing of it; a push consumer's log without the lines is an excerpt, not told so), whose cache was full (flow control) while
 * its consumption per commit round fell below half its earlier rate: with the cache full the
 * application was the limit, so it consumed slower than it had (more arrivals would not lower what
 * it consumed). gen-20261209: a 4.9.3 lite pull application slowed to 1.5 s a message.
 */
function unstatedSlow(g: Group, from: number, to: number): Slow | null {
  for (const [h, s] of g.hosts) {
    if (!s.litePull || s.folded.anyRt || [...s.minutes.values()].some((m) => m.rt) || s.flow.first === null) continue;
    if (s.flow.last! < from || s.flow.first > to) continue;
    const w = slowWindow(s, s.flow.first - ROUNDS_BEFORE_MS, s.flow.last! + 60000);
    if (!w || w.from > s.flow.last!) continue;
    const r = s.rounds;
    const i = r.findIndex((x) => x.at > w.from);
    const before = r.slice(Math.max(0, i - 6), i).map((x) => x.n).sort((a, b) => a - b);
    const during = r.filter((x) => x.at > w.from && (w.until === null || x.at <= w.until)).map((x) => x.n);
    if (!before.length || !during.length) continue;
    const round = r[i]?.ev ?? null;
    return {
      hosts: [h], before: null, during: null,
      perRound: { before: before[Math.floor(before.length / 2)], during: Math.min(...during) },
      busy: null, from: w.from, until: w.until, ev: round ?? r[0].ev, round,
    };
  }
  return null;
}

/**
 * From the commit rounds of a host: the last round before its consumption fell (to under half the
 * median of the rounds before, within [lo, hi]), and the last round before it was back at the median.
 */
function slowWindow(s: HostState, lo: number, hi: number): { from: number; until: number | null } | null {
  const r = s.rounds;
  for (let i = 4; i < r.length; i++) {
    if (r[i].at < lo || r[i].at > hi) continue;
    const before = r.slice(Math.max(0, i - 6), i).map((x) => x.n).sort((a, b) => a - b);
    const median = before[Math.floor(before.length / 2)];
    if (median < 4 || r[i].n > median / 2 + 1e-9) continue;
    // It began in the first round of the fall (a round that consumed under three quarters of the median).
    let k = i;
    while (k > 1 && r[k - 1].n < 0.75 * median && r[k - 1].at >= lo) k--;
    // Slow from the round before; back when a round consumed the median again (the cache drained).
    const back = r.slice(i + 1).find((x) => x.n >= median);
    const j = back ? r.indexOf(back) : -1;
    return { from: r[k - 1].at, until: j > 0 ? r[j - 1].at : null };
  }
  return null;
}

/** CONSUME_RT unchanged (within 1.5 times) while the cache was full: the threads were the limit. */
function threadsLimit(g: Group, from: number, to: number): { rt: number; busy: number; ev: RmqEvent } | null {
  for (const [, s] of g.hosts) {
    const ms = [...s.minutes.values()].filter(threadsMeasured);
    // Of the folded minutes, each hour's worst and busiest.
    const folded = s.folded.hours.flatMap((h) => [h.threadsWorst, h.busiest].filter((m): m is Minute => m !== null));
    const during = [...ms, ...folded].filter((m) => m.at > from && m.at - 60000 <= to);
    if (!during.length || ms.length + s.folded.threadsN < 2) continue;
    const best = Math.min(s.folded.threadsBest, ...ms.map((m) => m.rtMs!));
    const worst = Math.max(...during.map((m) => m.rtMs!));
    if (worst > 1.5 * best) continue;
    // The busiest minute: the threads' count is the consumed times the time per message over it.
    const m = during.reduce((a, b) => (b.consumed > a.consumed ? b : a));
    const ev = m.rtEv;
    if (!ev) continue;
    return { rt: Math.round(worst), busy: Math.round(((m.consumed * m.rtMs!) / 60000) * 10) / 10, ev };
  }
  return null;
}

interface BrokerFault {
  addr: string;
  failures: number;
  pulls: number;
  failFrom: number;
  failTo: number;
  failEv: RmqEvent;
  /** The stretch of orderly queues not locked that the failures fall in, if one does. */
  lock: Group['locks'][number] | null;
}

/**
 * The broker address the group's instances failed to reach (refused connects, timed-out calls,
 * pulls that failed with no response code) during the backlog: at least 3 failures, the most on
 * that address.
 */
function brokerFault(from: number, to: number, hosts: ReadonlySet<string>, stuck: Group['locks'], refused: RefusedCalls): BrokerFault | null {
  const fails = [...hosts].flatMap((h) => refused.between(h, from - 60000, to));
  const byAddr = new Map<string, typeof fails>();
  for (const x of fails) byAddr.set(x.addr, [...(byAddr.get(x.addr) ?? []), x]);
  const top = [...byAddr].sort((a, b) => b[1].length - a[1].length)[0];
  if (!top || top[1].length < 3) return null;
  const [addr, list] = top;
  list.sort((a, b) => a.ts - b.ts);
  const failFrom = list[0].ts;
  const failTo = list[list.length - 1].ts;
  // Failures that ended before the backlog began left nothing behind it: once the broker answered,
  // the consumers pulled what it had stored at once (gen-20261228: broker-b's restart failed calls
  // until 30 s before the group's first late minute; its instances caught up meanwhile).
  if (failTo < from - FAIL_REACH_MS) return null;
  const lock = stuck.find((l) => l.from <= failTo && l.to >= failFrom) ?? null;
  // The first call's line is kept (RefusedCalls.start: the window begins a minute before a start).
  const failEv = refused.line(list[0]) ?? list.map((x) => refused.line(x)).find((x) => x !== null);
  if (!failEv) return null;
  return { addr, failures: list.length, pulls: list.filter((x) => x.pull).length, failFrom, failTo, failEv, lock };
}

/** A blocked listener this rule found, as the other layers read it (the incident's cause, replay's inference). */
export interface BlockedListener {
  group: string;
  hosts: string[];
  /** The last commit round that moved the offsets before the block, and the first after it (null: not in the logs). */
  from: number | null;
  until: number | null;
  finding: Finding;
}

/** The group a finding of this rule is about (its title: `Group X: ...`). */
export function backlogGroup(f: Finding): string | null {
  return f.rule === rule.meta.id ? (/^Group (\S+):/.exec(f.title)?.[1] ?? null) : null;
}

/** The blocked listeners among the findings. */
export function blockedListenersOf(findings: readonly Finding[]): BlockedListener[] {
  const out: BlockedListener[] = [];
  for (const f of findings) {
    const group = backlogGroup(f);
    const m = f.metrics;
    if (!group || m.cause !== 'blocked-listener') continue;
    out.push({
      group,
      hosts: Array.isArray(m.blockedHosts) ? m.blockedHosts.map(String) : [],
      from: typeof m.blockedFrom === 'number' ? m.blockedFrom : null,
      until: typeof m.blockedUntil === 'number' ? m.blockedUntil : null,
      finding: f,
    });
  }
  return out;
}

const CAUSE_WORDS: Record<string, string> = {
  'slow-listener': 'a slow listener',
  'blocked-listener': 'a blocked listener',
  'broker-fault': 'a broker fault',
  'consume-threads': 'the consume threads',
  rebalance: 'a rebalance storm',
  subscription: 'subscriptions that differ',
  unknown: 'unknown',
};

export default rule;
