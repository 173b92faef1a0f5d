// broker-busy: sends rejected with `[TIMEOUT_CLEAN_QUEUE]` by a broker's BrokerFastFailure.
//
// Mechanism (BrokerFastFailure.cleanExpiredRequest): a scheduled thread (BrokerFastFailureScheduledThread1) looks at the
// HEAD of the send queue every 10 ms and rejects it once it has waited waitTimeMillsInSendQueue
// (200 ms). Worker threads never check a task's age. So a steady backlog shows as waits of
// 200-210 ms; a much longer wait means the check itself did not run for that long: the broker JVM
// stalled (GC pause, CPU starvation), or on brokers 4.7.1-4.9.2 a CompletableFuture callback at the
// queue head stopped the check.
//
// Decision: ONE FINDING PER BROKER, not per episode. The episodes (split when no rejection for more
// than 60 s) are told apart in the explanation and in the metrics (`episodes`, `episodeKinds`,
// `stalls`, `backlogRejections`), so one incident does not flood the report with look-alike findings.
//
// Which broker: the ` BROKER: addr` suffix (clients 4.8.0+), else the brokerName of the
// send-attempt-failed of the same record (or of a recent one on the same host that quotes the same
// reply), else the only broker host whose logs were given. A reply that appears both in the client
// log and in the application log is one rejection (same host, waitMs and queueSize, in different
// files, within 2 s).
//

import type { RmqEvent } from '../parse/types.js';
import type { MetricValue, Rule, RuleContext, Subject } from './types.js';
import { type SideBucket, num, str, serverVersion, CrossLogDedup, AttemptIndex, BrokerHosts, BrokerSide, clock, brokerLabel, clientVersions, emptySide, mergeSide } from './send-path.js';
import { factIn, rangeContains, rangeOverlaps } from '../rocketmq/versions.js';
import { formatMs } from '../util/durations.js';
import { plural } from '../util/text.js';
import { BUSY_STALL_MARGIN_MS, CLIENT, CLIENT_DEFAULTS, SERVER } from '../rocketmq/facts.js';

// ---------------------------------------------------------------------------------------------
// The rule
// ---------------------------------------------------------------------------------------------

/** A rejection this far above the threshold cannot come from a steady backlog (the cleaner runs every 10 ms). */
const STALL_MARGIN_MS = BUSY_STALL_MARGIN_MS;

interface Hit {
  ev: RmqEvent;
  host: string;
  wait: number | null;
  size: number | null;
  name: string | null;
  addr: string | null;
}

interface Episode {
  start: number;
  end: number;
  n: number;
  minWait: number | null;
  maxWait: number | null;
  stalls: number;
  maxQueue: number | null;
  rep: RmqEvent;
  repWait: number;
  firstEv: RmqEvent;
  lastEv: RmqEvent;
}

/** Stall rejections within a second of each other: one pause of the broker. */
interface Burst {
  start: number;
  end: number;
  n: number;
  max: number;
  ev: RmqEvent;
}

const MAX_BURSTS = 200;

/**
 * Episodes told one by one per broker: the first HEAD_EPISODES and the latest TAIL_EPISODES.
 * Those between are folded into one summary as they close (steady trouble over days makes
 * hundreds), and the finding says how many (`episodesFolded`).
 */
const HEAD_EPISODES = 12;
const TAIL_EPISODES = 12;

type EpisodeKind = 'backlog' | 'stall' | 'backlog+stall';

/** Episodes folded together: their sums and extremes, and the broker-side figures of their windows. */
interface Folded {
  n: number;
  rejections: number;
  stalls: number;
  start: number;
  end: number;
  minWait: number | null;
  maxWait: number | null;
  maxQueue: number | null;
  kinds: Record<EpisodeKind, number>;
  firstEv: RmqEvent;
  lastEv: RmqEvent;
  /** Per broker host (which one is this broker's is known at the end): all windows, and the backlog episodes' only. */
  side: Map<string, SideBucket>;
  sideBacklog: Map<string, SideBucket>;
}

interface Group {
  name: string | null;
  addr: string | null;
  n: number;
  bursts: Burst[];
  extraBursts: number;
  untimed: number;
  hist: Map<number, number>;
  minWait: number | null;
  maxWait: number | null;
  maxQueue: number | null;
  stalls: number;
  clients: Set<string>;
  /** Told one by one, in time order: the first HEAD_EPISODES, then the latest. */
  episodes: Episode[];
  folded: Folded | null;
  first: RmqEvent;
  maxEv: RmqEvent;
  maxEvWait: number;
}

const minN = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));
const maxN = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

function coalesce(eps: Episode[], gap: number): Episode[] {
  const sorted = [...eps].sort((a, b) => a.start - b.start);
  const out: Episode[] = [];
  for (const e of sorted) {
    const last = out[out.length - 1];
    if (last && e.start - last.end <= gap) {
      last.end = Math.max(last.end, e.end);
      last.n += e.n;
      last.minWait = minN(last.minWait, e.minWait);
      last.maxWait = maxN(last.maxWait, e.maxWait);
      last.stalls += e.stalls;
      last.maxQueue = maxN(last.maxQueue, e.maxQueue);
      if (e.repWait > last.repWait) (last.rep = e.rep), (last.repWait = e.repWait);
      if ((e.lastEv.ts ?? 0) >= (last.lastEv.ts ?? 0)) last.lastEv = e.lastEv;
    } else out.push({ ...e });
  }
  return out;
}

function mergeFolded(a: Folded | null, b: Folded | null): Folded | null {
  if (!a || !b) return a ?? b;
  const out: Folded = {
    ...a,
    n: a.n + b.n,
    rejections: a.rejections + b.rejections,
    stalls: a.stalls + b.stalls,
    minWait: minN(a.minWait, b.minWait),
    maxWait: maxN(a.maxWait, b.maxWait),
    maxQueue: maxN(a.maxQueue, b.maxQueue),
    kinds: { backlog: a.kinds.backlog + b.kinds.backlog, stall: a.kinds.stall + b.kinds.stall, 'backlog+stall': a.kinds['backlog+stall'] + b.kinds['backlog+stall'] },
  };
  if (b.start < a.start) (out.start = b.start), (out.firstEv = b.firstEv);
  if (b.end > a.end) (out.end = b.end), (out.lastEv = b.lastEv);
  for (const [which, from] of [['side', b.side], ['sideBacklog', b.sideBacklog]] as const) {
    for (const [host, sb] of from) {
      const mine = out[which].get(host);
      if (mine) mergeSide(mine, sb);
      else out[which].set(host, sb);
    }
  }
  return out;
}

/** The folded episodes in one part of the explanation: how many, when, and their sums. */
function foldedText(f: Folded): string {
  const from = clock(f.firstEv);
  const to = clock(f.lastEv);
  const kinds = [
    f.kinds.backlog ? `${f.kinds.backlog} steady overload` : '',
    f.kinds.stall ? `${f.kinds.stall} broker stalls` : '',
    f.kinds['backlog+stall'] ? `${f.kinds['backlog+stall']} backlog with stalls` : '',
  ].filter(Boolean).join(', ');
  return (
    `${plural(f.n, 'more episode')} ${from && to ? `${from}-${to} ` : ''}not told one by one (${HEAD_EPISODES + 1}-${HEAD_EPISODES + f.n}): ${plural(f.rejections, 'rejection')}, ` +
    `${f.minWait === f.maxWait ? `wait ${f.maxWait} ms` : `waits ${f.minWait}-${f.maxWait} ms`}${f.maxQueue !== null ? `, queue up to ${f.maxQueue}` : ''}: ${kinds}`
  );
}

function addBurst(g: Group, b: Burst): void {
  const near = g.bursts.find((x) => b.start <= x.end + 1000 && b.end >= x.start - 1000);
  if (near) {
    near.start = Math.min(near.start, b.start);
    near.end = Math.max(near.end, b.end);
    near.n += b.n;
    if (b.max > near.max) (near.max = b.max), (near.ev = b.ev);
    return;
  }
  if (g.bursts.length >= MAX_BURSTS) {
    g.extraBursts++;
    return;
  }
  g.bursts.push(b);
}

function histPercentile(hist: Map<number, number>, p: number): number | null {
  let total = 0;
  for (const c of hist.values()) total += c;
  if (!total) return null;
  const rank = Math.min(total, Math.max(1, Math.ceil((p / 100) * total)));
  let seen = 0;
  for (const v of [...hist.keys()].sort((a, b) => a - b)) {
    seen += hist.get(v)!;
    if (seen >= rank) return v;
  }
  return null;
}

const rule: Rule = {
  meta: {
    id: 'broker-busy',
    title: 'Broker busy: sends rejected with [TIMEOUT_CLEAN_QUEUE]',
    severity: 'error',
    description:
      'Finds sends that a broker rejected because they waited too long in its send queue ([TIMEOUT_CLEAN_QUEUE]), per broker: episodes, waits, queue sizes, and whether the broker was steadily overloaded or stalled; joins the broker watermark, store and jstack logs when given.',
    versions: 'All broker versions (BrokerFastFailure); clients 4.8.0+ name the broker in the reply; brokers 4.7.1-4.9.2 can hold the check up behind callbacks; clients 5.3.0+ retry SYSTEM_BUSY.',
    settings: {
      waitTimeMillsInSendQueue: { default: 200, description: 'Broker setting: how long a send may wait in the send queue before BrokerFastFailure rejects it', unit: 'ms' },
      busyEpisodeGapMs: { default: 60000, description: 'A pause in rejections longer than this starts a new episode', unit: 'ms' },
    },
    events: ['busy-reply', 'send-attempt-failed', 'watermark', 'store-slow', 'broker-jstack', 'startup', 'route-changed'],
  },

  create(ctx) {
    const threshold = Number(ctx.settings.waitTimeMillsInSendQueue);
    const gap = Number(ctx.settings.busyEpisodeGapMs);
    const attempts = new AttemptIndex();
    const hosts = new BrokerHosts(ctx.sources);
    const side = new BrokerSide();
    const groups = new Map<string, Group>();

    const record = (h: Hit) => {
      hosts.learn(h.name, h.addr);
      const key = hosts.key(h.name, h.addr);
      let g = groups.get(key);
      if (!g) {
        g = { name: h.name, addr: h.addr, n: 0, bursts: [], extraBursts: 0, untimed: 0, hist: new Map(), minWait: null, maxWait: null, maxQueue: null, stalls: 0, clients: new Set(), episodes: [], folded: null, first: h.ev, maxEv: h.ev, maxEvWait: h.wait ?? -1 };
        groups.set(key, g);
      }
      g.name ??= h.name;
      g.addr ??= h.addr;
      g.n++;
      g.clients.add(h.host);
      const stall = h.wait !== null && h.wait > threshold + STALL_MARGIN_MS;
      if (h.wait !== null) {
        g.hist.set(h.wait, (g.hist.get(h.wait) ?? 0) + 1);
        g.minWait = minN(g.minWait, h.wait);
        g.maxWait = maxN(g.maxWait, h.wait);
        if (h.wait > g.maxEvWait) (g.maxEv = h.ev), (g.maxEvWait = h.wait);
      }
      g.maxQueue = maxN(g.maxQueue, h.size);
      if (stall) g.stalls++;
      const ts = h.ev.ts;
      if (ts === null) {
        g.untimed++;
        return;
      }
      if (g.first.ts === null || ts < g.first.ts) g.first = h.ev;
      if (stall) addBurst(g, { start: ts, end: ts, n: 1, max: h.wait!, ev: h.ev });
      let ep: Episode | undefined;
      for (let i = g.episodes.length - 1; i >= 0 && !ep; i--) if (ts >= g.episodes[i].start - gap && ts <= g.episodes[i].end + gap) ep = g.episodes[i];
      if (ep) {
        if (ts < ep.start) ep.firstEv = h.ev;
        if (ts >= ep.end) ep.lastEv = h.ev;
        ep.start = Math.min(ep.start, ts);
        ep.end = Math.max(ep.end, ts);
        ep.n++;
        ep.minWait = minN(ep.minWait, h.wait);
        ep.maxWait = maxN(ep.maxWait, h.wait);
        ep.maxQueue = maxN(ep.maxQueue, h.size);
        if (stall) ep.stalls++;
        if ((h.wait ?? -1) > ep.repWait) (ep.rep = h.ev), (ep.repWait = h.wait ?? -1);
      } else {
        g.episodes.push({ start: ts, end: ts, n: 1, minWait: h.wait, maxWait: h.wait, stalls: stall ? 1 : 0, maxQueue: h.size, rep: h.ev, repWait: h.wait ?? -1, firstEv: h.ev, lastEv: h.ev });
        foldMiddle(g);
      }
    };

    const win = (e: Episode): [number, number] => [e.start - 60000, e.end + 60000];

    /** Fold the episodes between the first HEAD_EPISODES and the latest TAIL_EPISODES (closed: later ones began since). */
    const foldMiddle = (g: Group) => {
      while (g.episodes.length > HEAD_EPISODES + TAIL_EPISODES) {
        const [e] = g.episodes.splice(HEAD_EPISODES, 1);
        const kind = kindOf(e.minWait, e.maxWait);
        const f = (g.folded ??= {
          n: 0, rejections: 0, stalls: 0, start: e.start, end: e.end, minWait: null, maxWait: null, maxQueue: null,
          kinds: { backlog: 0, stall: 0, 'backlog+stall': 0 }, firstEv: e.firstEv, lastEv: e.lastEv, side: new Map(), sideBacklog: new Map(),
        });
        f.n++;
        f.rejections += e.n;
        f.stalls += e.stalls;
        if (e.start < f.start) (f.start = e.start), (f.firstEv = e.firstEv);
        if (e.end >= f.end) (f.end = e.end), (f.lastEv = e.lastEv);
        f.minWait = minN(f.minWait, e.minWait);
        f.maxWait = maxN(f.maxWait, e.maxWait);
        f.maxQueue = maxN(f.maxQueue, e.maxQueue);
        f.kinds[kind]++;
        // Its window's broker-side figures now, before the buckets go (BrokerSide.prune).
        for (const host of side.hostNames) {
          const b = side.over(host, [win(e)]);
          mergeInto(f.side, host, b);
          if (kind !== 'stall') mergeInto(f.sideBacklog, host, b);
        }
      }
    };

    const mergeInto = (m: Map<string, SideBucket>, host: string, b: SideBucket) => {
      let out = m.get(host);
      if (!out) m.set(host, (out = emptySide()));
      mergeSide(out, b);
    };

    /** Minutes of broker-side figures the told episodes' windows need (and the old rule's two-minute margin). */
    const keptMinutes = (): Set<number> => {
      const out = new Set<number>();
      for (const g of groups.values()) {
        for (const e of g.episodes) for (let k = Math.floor(e.start / 60000) - 2; k <= Math.floor(e.end / 60000) + 2; k++) out.add(k);
      }
      return out;
    };

    const dedup = new CrossLogDedup<Hit>(record);

    const kindOf = (minW: number | null, maxW: number | null): EpisodeKind => {
      const line = threshold + STALL_MARGIN_MS;
      if (maxW === null || maxW <= line) return 'backlog';
      if (minW !== null && minW > line) return 'stall';
      return 'backlog+stall';
    };

    const busy: Busy = { ctx, threshold, gap, hosts, side, foldMiddle, kindOf, win };
    return {
      'send-attempt-failed': (e) => {
        dedup.tick(e.ts);
        attempts.add(e);
      },
      'busy-reply': (e) => {
        if (str(e, 'reason') !== 'TIMEOUT_CLEAN_QUEUE') {
          dedup.tick(e.ts);
          return;
        }
        const wait = num(e, 'waitMs');
        const size = num(e, 'queueSize');
        const addr = str(e, 'brokerAddr');
        let name: string | null = null;
        const own = attempts.sameRecord(e);
        if (own) name = str(own, 'brokerName');
        if (!name && !addr && wait !== null) {
          const quoted = attempts.recentWithCause(e.host, e.ts, `period in queue: ${wait}ms, size of queue: ${size}`);
          if (quoted) name = str(quoted, 'brokerName');
        }
        const hit: Hit = { ev: e, host: e.host, wait, size, name, addr };
        dedup.add(`${e.host}|${wait}|${size}`, e.ts, e.file, hit, (kept, dup) => {
          kept.name ??= dup.name;
          kept.addr ??= dup.addr;
          // Prefer the client log's record as evidence (it names the broker and the attempt).
          if (dup.ev.kind === 'client' && kept.ev.kind !== 'client') kept.ev = dup.ev;
        });
      },
      watermark: (e) => {
        dedup.tick(e.ts);
        side.prune(e.ts, keptMinutes);
        side.watermark(e);
      },
      'store-slow': (e) => {
        side.prune(e.ts, keptMinutes);
        side.storeSlow(e);
      },
      'broker-jstack': (e) => side.jstack(e),
      startup: (e) => hosts.startup(e),
      'route-changed': (e) => hosts.route(e),
      end() {
        dedup.flush();
        // Merge groups known only by name into the group of their address.
        for (const [key, g] of [...groups]) {
          if (!key.startsWith('n:') || !g.name) continue;
          const addr = hosts.alias.get(g.name);
          if (!addr) continue;
          const into = groups.get(`a:${addr}`);
          groups.delete(key);
          if (!into) {
            g.addr = addr;
            groups.set(`a:${addr}`, g);
            continue;
          }
          into.name ??= g.name;
          into.n += g.n;
          into.untimed += g.untimed;
          for (const [v, c] of g.hist) into.hist.set(v, (into.hist.get(v) ?? 0) + c);
          into.minWait = minN(into.minWait, g.minWait);
          into.maxWait = maxN(into.maxWait, g.maxWait);
          into.maxQueue = maxN(into.maxQueue, g.maxQueue);
          into.stalls += g.stalls;
          for (const c of g.clients) into.clients.add(c);
          into.episodes.push(...g.episodes);
          into.folded = mergeFolded(into.folded, g.folded);
          for (const b of g.bursts) addBurst(into, b);
          into.extraBursts += g.extraBursts;
          if (g.first.ts !== null && (into.first.ts === null || g.first.ts < into.first.ts)) into.first = g.first;
          if (g.maxEvWait > into.maxEvWait) (into.maxEv = g.maxEv), (into.maxEvWait = g.maxEvWait);
        }
        for (const g of groups.values()) {
          if (!g.name && g.addr) g.name = hosts.nameOf(g.addr);
        }
        const onlyGroup = groups.size === 1;
        for (const g of groups.values()) report(busy, g, onlyGroup);
      },
    };
  },
};

/** What telling a broker's busy episodes reads of the rule's settings and state. */
interface Busy {
  ctx: RuleContext;
  /** waitTimeMillsInSendQueue: a wait at most this much over it is a backlog, more a stall. */
  threshold: number;
  /** busyEpisodeGapMs: replies this close are one episode. */
  gap: number;
  hosts: BrokerHosts;
  side: BrokerSide;
  foldMiddle: (g: Group) => void;
  kindOf: (minW: number | null, maxW: number | null) => EpisodeKind;
  win: (e: Episode) => [number, number];
}

/** The finding of a broker's busy replies: its episodes told one by one, the folded ones summed. */
function report(b: Busy, g: Group, onlyGroup: boolean): void {
  const { ctx, threshold, gap, hosts, side, foldMiddle, kindOf, win } = b;
  const timed = g.episodes.length > 0;
  g.episodes = coalesce(g.episodes, gap);
  foldMiddle(g);
  const episodes = g.episodes;
  const folded = g.folded;
  const where = hosts.resolve(g.name, g.addr, onlyGroup);
  const joined = where && side.has(where.host) ? where.host : null;
  const kinds = episodes.map((e) => kindOf(e.minWait, e.maxWait));
  const sideOf = (eps: Episode[]) => (joined ? side.over(joined, timed ? eps.map(win) : null) : null);
  // Over the told episodes and the folded ones, in time order (an equal figure keeps its first line).
  const sideOver = (keep: (i: number) => boolean, m: Map<string, SideBucket> | undefined) => {
    const pick = (from: number, to: number) => episodes.filter((_, i) => i >= from && i < to && keep(i));
    if (!folded) return sideOf(pick(0, episodes.length));
    const out = sideOf(pick(0, HEAD_EPISODES));
    const b = joined ? m?.get(joined) : undefined;
    if (out && b) mergeSide(out, b);
    const tail = sideOf(pick(HEAD_EPISODES, episodes.length));
    if (out && tail) mergeSide(out, tail);
    return out;
  };
  const sideAll = sideOver(() => true, folded?.side);
  const sideBacklog = sideOver((i) => kinds[i] !== 'stall', folded?.sideBacklog);
  const p50 = histPercentile(g.hist, 50);
  const p99 = histPercentile(g.hist, 99);
  const overall = kindOf(g.minWait, g.maxWait);
  const hasStall = g.stalls > 0;
  const hasBacklog = g.n > g.stalls;
  const cv = clientVersions(ctx, g.clients);
  const bv = joined ? serverVersion(joined, ctx.sources) : 'unknown';
  const cbBug = rangeOverlaps(bv, '4.7.1', '4.9.2') !== false;
  const who = brokerLabel(g.name, g.addr, where ? `The broker on ${where.host}` : 'A broker (not named in the logs)');
  const subject: Subject = {};
  if (g.name) subject.broker = g.name;
  if (g.addr) subject.brokerAddr = g.addr;
  if (where) subject.host = where.host;

  // --- explanation ---
  const ex: string[] = [];
  ex.push(
    `${who} answered ${plural(g.n, 'send')} with SYSTEM_BUSY (code 2) [TIMEOUT_CLEAN_QUEUE]` +
      (g.maxWait === null ? '' : g.minWait === g.maxWait ? `, after ${g.n === 1 ? 'a wait' : 'waits'} of ${g.maxWait} ms in its send queue` : `, after waits in its send queue of ${g.minWait}-${g.maxWait} ms (p50 ${p50} ms, p99 ${p99} ms)`) +
      (g.maxQueue !== null ? ` with up to ${g.maxQueue} requests still queued` : '') +
      `, as seen by ${plural(g.clients.size, 'client host')}.`,
  );
  ex.push(
    `BrokerFastFailure's own thread looks at the HEAD of the send queue every 10 ms and rejects it once it has waited waitTimeMillsInSendQueue (${threshold} ms); worker threads never check a task's age. ` +
      `So waits of ${threshold}-${threshold + 10} ms mean a steady backlog (sends arrive faster than the send threads store them), while a wait far above that means the check itself did not run for that long: the broker JVM stalled (GC pause, CPU starvation)` +
      (cbBug ? ', or, on brokers 4.7.1-4.9.2, a CompletableFuture callback at the queue head stopped the check' : '') +
      '.',
  );
  const sideText = (sb: SideBucket | null): string => {
    if (!sb) return '';
    const bits: string[] = [];
    if (sb.wmSize || sb.wmSlow) bits.push(`watermark send queue up to ${sb.wmSize}, head age up to ${sb.wmSlow} ms`);
    if (sb.inLock) bits.push(`a put held the CommitLog lock ${sb.inLock} ms`);
    if (sb.store && sb.store !== sb.inLock) {
      bits.push(sb.storeEv && str(sb.storeEv, 'what') === 'pagecachert' ? `slowest puts in the ${sb.store} ms+ bucket of [PAGECACHERT]` : `put latency up to ${sb.store} ms`);
    }
    if (sb.jstack) bits.push(plural(sb.jstack, 'broker jstack dump'));
    return bits.length ? ` (broker: ${bits.join(', ')})` : '';
  };
  if (episodes.length) {
    // With folded episodes, the latest ones keep their numbers in the whole list.
    const numberOf = (i: number) => (folded && i >= HEAD_EPISODES ? i + folded.n + 1 : i + 1);
    const parts = episodes.map((e, i) => {
      const k = kinds[i];
      const prevEnd = folded && i === HEAD_EPISODES ? folded.end : i > 0 ? episodes[i - 1].end : null;
      const after = prevEnd !== null ? `, ${formatMs(e.start - prevEnd)} after the previous one` : '';
      const from = clock(e.firstEv);
      const to = clock(e.lastEv);
      const when = from && to ? (from === to ? ` at ${from}` : ` ${from}-${to}`) : '';
      const what = k === 'backlog' ? 'steady overload (backlog)' : k === 'stall' ? 'broker stalls' : 'backlog with stalls';
      return (
        `${i === 0 ? 'Episode' : 'episode'} ${numberOf(i)}${when} (${formatMs(e.end - e.start)}${after}): ${plural(e.n, 'rejection')}, ${e.minWait === e.maxWait ? `wait ${e.maxWait} ms` : `waits ${e.minWait}-${e.maxWait} ms`}` +
        `${e.maxQueue !== null ? `, queue up to ${e.maxQueue}` : ''}: ${what}${sideText(sideOf([e]))}`
      );
    });
    if (folded) parts.splice(HEAD_EPISODES, 0, foldedText(folded));
    ex.push(`${parts.join('; ')}.`);
  } else if (sideAll) ex.push(`No rejection has a time${sideText(sideAll)}.`);
  const bursts = [...g.bursts].sort((a, b) => a.start - b.start);
  const nBursts = bursts.length + g.extraBursts;
  if (hasStall) {
    const listed = bursts.slice(0, 6).map((b) => `${clock(b.ev) ? `at ${clock(b.ev)} ` : ''}up to ${b.max} ms (${plural(b.n, 'rejection')})`);
    ex.push(
      `${plural(g.stalls, 'rejection')} waited more than ${threshold + STALL_MARGIN_MS} ms (up to ${g.maxWait} ms): the broker stalled, it did not just fall behind` +
        (nBursts ? `; ${plural(nBursts, 'stall')}: ${listed.join(', ')}${nBursts > listed.length ? ', ...' : ''}` : '') +
        '. Every request queued across a pause is rejected as soon as the broker resumes, with a wait about as long as the pause.',
    );
  }
  if (where?.how === 'only') ex.push(`${where.host} is the only broker host given, so its logs are taken as this broker's.`);
  if (hasStall && sideAll && sideAll.inLock && g.maxWait !== null && sideAll.inLock >= 0.8 * (g.maxWait - threshold) && sideAll.inLock < 1000) {
    ex.push(
      `A put held the CommitLog lock about as long as the longest wait (${sideAll.inLock} ms): had only the disk been slow, the cleaner would still have rejected requests at ${threshold}-${threshold + 10} ms, so the whole process stopped: a JVM-wide pause (GC) or CPU starvation.`,
    );
  }
  if (factIn(CLIENT.retriesSystemBusy, cv) === false) ex.push(`The clients (${cv}) do not retry SYSTEM_BUSY (it joins retryResponseCodes in 5.3.0), so each rejection went straight to the application.`);

  // --- advice by cause ---
  const adv: string[] = [];
  if (hasStall) {
    adv.push(
      `Find what froze ${(g.name ?? g.addr) ? `${brokerLabel(g.name, g.addr, '')}${where ? ` on ${where.host}` : ''}` : 'the broker'} at the stall times: GC logs (long stop-the-world pauses), CPU starvation or steal on the host, swapping${factIn(SERVER.jstackOnClean, bv) === true ? '; the "broker jstack" dumps in broker.log show the threads' : ''}.`,
    );
    // Only where the premise shows: the release known to be 4.7.1-4.9.2, or its sign in the watermark
    // (requests queued with a head age of 0: the head is a CompletableFuture callback, not a
    // RequestTask, so BrokerFastFailure and the watermark read no age; fixed in 4.9.3).
    const known = /^\d+\.\d+\.\d+$/.test(bv) && rangeContains('4.7.1-4.9.2', bv);
    const sign = !known && !!sideAll && sideAll.wmSize > 0 && sideAll.wmSlow === 0;
    if (cbBug && (known || sign)) {
      adv.push(
        known
          ? `Upgrade the broker (${bv}) to 4.9.3 or later: on 4.7.1-4.9.2, callbacks in the send queue block BrokerFastFailure and zero the watermark head age.`
          : 'The watermark shows requests queued with a head age of 0, the sign of brokers 4.7.1-4.9.2, where callbacks in the send queue block BrokerFastFailure: if the broker runs one of them, upgrade it to 4.9.3 or later.',
      );
    }
  }
  if (sideAll && sideAll.inLock >= 1000) {
    adv.push(`A put held the CommitLog lock for ${sideAll.inLock} ms (page cache busy, see pagecache-busy): check disk latency and free memory for the page cache; consider transientStorePoolEnable=true.`);
  } else if (hasBacklog && sideBacklog && sideBacklog.store >= 500) {
    // A slow put is the disk's or the CPU's: a broker held to a CPU quota puts as slowly as one on a slow disk.
    adv.push(`Puts were slow during the backlog (up to ${sideBacklog.store} ms in store.log): the store's disk (iowait, utilisation, other I/O on the same device) or the broker's CPU (throttling by a container quota, steal, long GC), before adding load.`);
  }
  if (hasBacklog) adv.push('Spread the send load: give the topic write queues on more brokers (or add brokers) so no single send queue backs up, and smooth bursty producers.');
  adv.push(`Do not just raise waitTimeMillsInSendQueue: requests would only wait longer in the same queue, and the client's send budget (sendMsgTimeout, ${CLIENT_DEFAULTS.sendMsgTimeoutMs} ms by default) still runs out.`);
  if (factIn(CLIENT.retriesSystemBusy, cv) !== true) adv.push('Catch MQBrokerException code 2 in the application and retry later, or move the producers to client 5.3.0+, which retries SYSTEM_BUSY on another broker.');

  // --- evidence: the longest wait, the first rejection, the broker side, then the other episodes ---
  const evidence: RmqEvent[] = [];
  const push = (e: RmqEvent | null | undefined) => {
    if (e && !evidence.includes(e)) evidence.push(e);
  };
  push(g.maxEv);
  push(g.first);
  if (sideAll) {
    push(sideAll.inLockEv ?? sideAll.storeEv);
    push(sideAll.wmSlow >= threshold ? sideAll.wmSlowEv : sideAll.wmSizeEv);
    push(sideAll.jstackEv);
  }
  for (const e of episodes) push(e.rep);
  if (sideAll) push(sideAll.wmSizeEv);

  const metrics: Record<string, MetricValue> = {
    rejections: g.n,
    maxWaitMs: g.maxWait,
    minWaitMs: g.minWait,
    p50WaitMs: p50,
    p99WaitMs: p99,
    maxQueueSize: g.maxQueue,
    thresholdMs: threshold,
    episodes: episodes.length + (folded?.n ?? 0),
    episodeKinds: kinds,
    // The episodes not told one by one (nor in episodeKinds): their sums are in the explanation.
    ...(folded ? { episodesFolded: folded.n } : {}),
    cause: overall,
    stalls: g.stalls,
    stallBursts: nBursts,
    backlogRejections: g.n - g.stalls,
    clients: g.clients.size,
    clientVersion: cv,
    maxWatermarkQueue: sideAll && sideAll.wmSize ? sideAll.wmSize : null,
    maxWatermarkSlowMs: sideAll && sideAll.wmSlow ? sideAll.wmSlow : null,
    maxStoreCostMs: sideAll && sideAll.store ? sideAll.store : null,
    maxInLockMs: sideAll && sideAll.inLock ? sideAll.inLock : null,
    jstacks: sideAll ? sideAll.jstack : null,
    brokerVersion: joined ? bv : null,
  };
  const stallNote = !hasStall ? '' : g.stalls === g.n ? (g.n === 1 ? ', after a broker stall' : ', all after broker stalls') : `, ${g.stalls} after broker stalls`;
  const waits = g.maxWait === null ? '' : g.n === 1 ? `: waited ${g.maxWait} ms` : `: waits up to ${g.maxWait} ms`;
  ctx.report({
    title: `${who} rejected ${plural(g.n, 'send')} with [TIMEOUT_CLEAN_QUEUE]${waits} (threshold ${threshold} ms)${stallNote}`,
    start: episodes.length ? episodes[0].start : null,
    end: episodes.length ? episodes[episodes.length - 1].end : null,
    subject,
    metrics,
    evidence: evidence.slice(0, 5),
    explanation: ex.join(' '),
    advice: adv,
  });
}

export default rule;
