// The consumer lines that recur all along a log, as inference reads them: of those collect keeps,
// only the ones inference can read. Two kinds are most of a busy cluster's consumer events, and
// inference reads a few lines of each:
//
// The brokers' book of a group (consumer-changed of a server log: ConsumerGroupInfo, ConsumerManager),
// a line for every channel an instance opens or closes and every heartbeat that changes a
// subscription (100,000 on the bench's 300 MiB mixed set). infer/consumers.ts reads of a group:
// - its topic: the first line naming a topic (not a %RETRY% or %DLQ% one);
// - its subscriptions: per topic, the first SUBS_CITED lines with a subscription (cited) and the
//   first line of each distinct subscription (each is named);
// - an instance run's client id: a connection within CONNECT_NEAR_MS of a consumer start line of the
//   group (the start host's address picks among them); a 5.x gRPC SimpleConsumer's start prints no
//   group, only its client id: every connection of that client id (its group is read from it);
// - a run's end: an unregister or a removed channel of such a connection's client id;
// - its config lines (`create new subscription group`, one per mqadmin updateSubGroup): every one.
//
// The instances' rebalances (`rebalanced result changed`, a line per topic at every change of the
// queues an instance holds: collect kept 44,000 of the bench's 2 GiB mixed set). Inference reads:
// - a group's topic: the first line of a host and group (or of no group) naming a topic;
// - a client host's lines for their times alone: whether the instance logged anything 10 s after
//   the broker removed its channel, up to its next start (infer/consumers.ts: the host's last line
//   before each consumer start, and its last line, tell it);
// - whether every time of a file is a whole second (server logs and old clients print no
//   milliseconds: infer/context.ts, observe.ts): the file's first line with milliseconds tells it.
//
// A line can become wanted after it was read (a start line a few seconds after a connection, a
// connection after a removed channel of its client id; a start after the rebalances before it):
// connections and ends are held for PENDING_MS of the stream's time, a host's latest rebalances
// until later ones come. The stream is in time order (the merge's; a line out of order by more than
// that is judged when it comes). The lines kept go back among the kept events where they were read
// (merge): inference reads the same lines in the same order as when every one was kept.
// Inference reading more of these lines needs more kept here: test/diagnosis/consumer-lines.test.ts
// compares inference over the lines kept with inference over all of them.

import type { RmqEvent } from '../parse/types.js';

/** A connection this near a consumer start line, before or after it, may be the started instance's (infer/consumers.ts, instanceRuns). */
const CONNECT_NEAR_MS = 5000;
/**
 * How long a connection or an end waits to become wanted: a line is wanted at most 2 x CONNECT_NEAR_MS
 * after it (a start after its connection, a connection after its id's end); the rest is room for
 * lines a little out of order.
 */
const PENDING_MS = 60_000;
/** Subscription lines of a group and topic kept before only new subscriptions are: inference cites the first three. */
const SUBS_CITED = 3;

/** A line read: where among the kept events (the count kept before it), in which order; whether it is kept, whether it still waits. */
interface Held {
  at: number;
  seq: number;
  e: RmqEvent;
  kept: boolean;
  done: boolean;
}

export interface ConsumerLines {
  /** A consumer start line that collect kept (a group's `start OK` in a client log): its host, group and time. */
  start(host: string, group: string, ts: number): void;
  /** A SimpleConsumer's start line that collect kept: its client id (the line prints no group). */
  simpleStart(clientId: string): void;
  /** A consumer-changed line of a server log that collect kept; `at`: the count of events kept before it. */
  book(e: RmqEvent, at: number): void;
  /** A rebalance line that collect kept; `at` as for book(). */
  rebalance(e: RmqEvent, at: number): void;
  /** The kept events with the lines kept here put back where they were read. */
  merge(events: RmqEvent[]): RmqEvent[];
}

/** `light`: the copy of a line that collect keeps (collect.ts, lighten). */
export function consumerLines(light: (e: RmqEvent) => RmqEvent): ConsumerLines {
  const kept: Held[] = [];
  let seq = 0;
  const hold = (e: RmqEvent, at: number): Held => ({ at, seq: seq++, e, kept: false, done: false });
  const keep = (h: Held | null) => {
    if (h === null || h.kept) return;
    h.kept = true;
    kept.push({ ...h, e: light(h.e) });
  };
  const book = bookLines(keep);
  const rebalances = rebalanceLines(keep);
  return {
    start(host, group, ts) {
      book.start(group, ts);
      rebalances.start(host, ts);
    },
    simpleStart: (clientId) => book.simpleStart(clientId),
    book: (e, at) => book.visit(hold(e, at)),
    rebalance: (e, at) => rebalances.visit(hold(e, at)),
    merge(events) {
      rebalances.end();
      if (kept.length === 0) return events;
      kept.sort((a, b) => a.seq - b.seq);
      const out: RmqEvent[] = [];
      let j = 0;
      for (let i = 0; i <= events.length; i++) {
        while (j < kept.length && kept[j].at <= i) out.push(kept[j++].e);
        if (i < events.length) out.push(events[i]);
      }
      kept.length = 0;
      return out;
    },
  };
}

/** The brokers' book: see the top of this file. */
function bookLines(keep: (h: Held) => void) {
  let latest = -Infinity;
  const topicNamed = new Set<string>();
  /** Per group and topic: subscription lines read, and the distinct subscriptions. */
  const subs = new Map<string, { n: number; distinct: Set<string> }>();
  /** Per group: its consumer start times, in order. */
  const starts = new Map<string, number[]>();
  /** Per group: the client ids of the connections kept. */
  const clientIds = new Map<string, Set<string>>();
  /** SimpleConsumers' client ids (their start lines print no group). */
  const simple = new Set<string>();
  /** Connections and ends not wanted yet, in the order read (`head`: the first not let go). */
  let pending: Held[] = [];
  let head = 0;

  const nearStart = (group: string, ts: number): boolean => {
    const list = starts.get(group);
    if (!list) return false;
    // The first start at or after ts - CONNECT_NEAR_MS.
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid] < ts - CONNECT_NEAR_MS) lo = mid + 1;
      else hi = mid;
    }
    return lo < list.length && list[lo] <= ts + CONNECT_NEAR_MS;
  };
  /** A connection kept: its client id's ends are wanted, those held included. */
  const connected = (group: string, id: string) => {
    let ids = clientIds.get(group);
    if (!ids) clientIds.set(group, (ids = new Set()));
    if (ids.has(id)) return;
    ids.add(id);
    for (let i = head; i < pending.length; i++) {
      const h = pending[i];
      if (!h.done && isEnd(h.e) && h.e.fields.group === group && h.e.fields.clientId === id) {
        keep(h);
        h.done = true;
      }
    }
  };
  const letGo = () => {
    while (head < pending.length && (pending[head].done || pending[head].e.ts! < latest - PENDING_MS)) head++;
    if (head > 1024 && head * 2 > pending.length) {
      pending = pending.slice(head);
      head = 0;
    }
  };

  return {
    simpleStart(id: string) {
      simple.add(id);
      for (let k = head; k < pending.length; k++) {
        const h = pending[k];
        if (!h.done && h.e.fields.change === 'connected' && h.e.fields.clientId === id && typeof h.e.fields.group === 'string') {
          keep(h);
          h.done = true;
          connected(h.e.fields.group, id);
        }
      }
      letGo();
    },
    start(group: string, ts: number) {
      const list = starts.get(group) ?? [];
      let i = list.length;
      while (i > 0 && list[i - 1] > ts) i--;
      list.splice(i, 0, ts);
      starts.set(group, list);
      latest = Math.max(latest, ts);
      for (let k = head; k < pending.length; k++) {
        const h = pending[k];
        if (!h.done && h.e.fields.change === 'connected' && h.e.fields.group === group && Math.abs(h.e.ts! - ts) <= CONNECT_NEAR_MS) {
          keep(h);
          h.done = true;
          connected(group, h.e.fields.clientId as string);
        }
      }
      letGo();
    },
    visit(h: Held) {
      const f = h.e.fields;
      const group = f.group;
      // Inference reads a group's lines only: one that names none is never read.
      if (typeof group !== 'string') return;
      // A group's config (a line per `mqadmin updateSubGroup`): its retryMaxTimes, a gRPC group's retries.
      let wanted = f.change === 'group-config';
      if (typeof f.topic === 'string' && !f.topic.startsWith('%')) {
        if (!topicNamed.has(group)) {
          topicNamed.add(group);
          wanted = true;
        }
        if (typeof f.subString === 'string') {
          const key = `${group}\u0000${f.topic}`;
          let s = subs.get(key);
          if (!s) subs.set(key, (s = { n: 0, distinct: new Set() }));
          if (s.n < SUBS_CITED) wanted = true;
          s.n++;
          if (!s.distinct.has(f.subString)) {
            s.distinct.add(f.subString);
            wanted = true;
          }
        }
      }
      const id = f.clientId;
      const ts = h.e.ts;
      let near = false;
      if (ts !== null && typeof id === 'string') {
        latest = Math.max(latest, ts);
        if (f.change === 'connected') {
          near = nearStart(group, ts) || simple.has(id);
          if (near) wanted = true;
          // A start line to come may want it, or its client id if it is kept already.
          else pending.push(h);
        } else if (isEnd(h.e) && !wanted) {
          if (clientIds.get(group)?.has(id)) wanted = true;
          else pending.push(h);
        }
      }
      if (wanted) keep(h);
      if (near) connected(group, id as string);
      letGo();
    },
  };
}

/** An instance's end in the broker's book: its unregister (a shutdown) or its channel removed on its close. */
function isEnd(e: RmqEvent): boolean {
  return e.fields.change === 'unregistered' || e.fields.change === 'channel-removed';
}

/** The instances' rebalances: see the top of this file. */
function rebalanceLines(keep: (h: Held | null) => void) {
  /** Per host, kind and group (or none): whether its first line naming a topic was read. */
  const topicNamed = new Set<string>();
  /** Files whose first line with milliseconds was read. */
  const millis = new Set<string>();
  /** Per client host: its latest rebalance, and the latest before that one's time (a start in the same millisecond is after neither). */
  const last = new Map<string, { latest: Held; before: Held | null }>();
  return {
    start(host: string, ts: number) {
      const l = last.get(host);
      if (l) keep(l.latest.e.ts! < ts ? l.latest : l.before !== null && l.before.e.ts! < ts ? l.before : null);
    },
    visit(h: Held) {
      const e = h.e;
      const topic = e.fields.topic;
      if (typeof topic === 'string' && !topic.startsWith('%')) {
        const key = `${e.host}\u0000${e.kind}\u0000${typeof e.fields.group === 'string' ? `=${e.fields.group}` : ''}`;
        if (!topicNamed.has(key)) {
          topicNamed.add(key);
          keep(h);
        }
      }
      if (e.ts === null) return;
      if (e.ts % 1000 !== 0 && !millis.has(e.file)) {
        millis.add(e.file);
        keep(h);
      }
      if (e.kind !== 'client') return;
      const l = last.get(e.host);
      if (!l) last.set(e.host, { latest: h, before: null });
      else if (e.ts > l.latest.e.ts!) {
        l.before = l.latest;
        l.latest = h;
      } else if (e.ts === l.latest.e.ts) l.latest = h;
      else if (l.before === null || e.ts > l.before.e.ts!) l.before = h;
    },
    /** The end of the stream: each host's last rebalance. */
    end() {
      for (const l of last.values()) keep(l.latest);
      last.clear();
    },
  };
}
