// offset-moved: a consumer group's offset of a queue set other than by consuming, so messages are
// delivered again (moved back) or never (moved forward).
//
// Mechanism (PullMessageProcessor.processRequest and DefaultMessageStore.getMessage, 4.x and 5.x): a
// pull for an offset the queue does not hold is answered PULL_OFFSET_MOVED: below the queue's first
// offset (`the request offset too small`: the messages were deleted, fileReservedTime), past its end
// (`over flow badly`: a store rebuilt or replaced, a slave behind its master), or a queue with no data
// (`the broker store no queue data, fix the request offset X to Y`). A master (or a slave with
// offsetCheckInSlave) then moves the consumer (`PULL_OFFSET_MOVED:correction offset ... newOffset`):
// to the first offset, or, past the end, to the end unless the queue starts at 0, where it restarts
// at 0. A slave without offsetCheckInSlave does not (`none correction`): it tells the consumer to pull
// from the master (suggestBrokerId) at once. The push consumer logs `the pull request offset illegal,
// PullRequest [... nextOffset=X] PullResult [... nextBeginOffset=Y, minOffset, maxOffset]`, drops the
// queue's cache and 10 s later persists Y (`fix the pull request offset`, DefaultMQPushConsumerImpl).
// Other moves: an orderly queue's first pull finding the broker's offset behind the client's
// (`[NOTIFYME]the first time to pull message ...`: from the client's to the broker's), an
// administrator's reset (`invoke reset offset operation from broker`, mqadmin resetOffsetByTime). The
// lite pull consumer's `consumerOffset is -1 in messageQueue` (4.9.4+) moves nothing: it has no offset
// of the queue to commit (nothing polled from it yet) and skips that queue's commit.
//
// Decision: one finding per group. One move told by the broker and by the client (same group, topic
// and starting offset within 15 s) counts once. Severity: error when messages were skipped, warning
// when moved back or not moved (a slave's loop), info for an administrator's reset or commits
// skipped alone.

import type { RmqEvent } from '../parse/types.js';
import type { MetricValue, Rule, Severity } from './types.js';
import { num, str } from './send-path.js';
import { Span, someOf } from './consumer.js';
import { CONSUMER_DEFAULTS } from '../rocketmq/facts.js';
import { formatMs } from '../util/durations.js';
import { plural } from '../util/text.js';

interface Move {
  status: string;
  topic: string | null;
  queue: string | null;
  from: number | null;
  to: number | null;
  min: number | null;
  max: number | null;
  ev: RmqEvent;
}

interface Group {
  name: string;
  printed: boolean;
  moves: Move[];
  movesOmitted: number;
  back: number;
  backMessages: number;
  forward: number;
  skipped: number;
  notMoved: number;
  notMovedFirst: RmqEvent | null;
  resets: RmqEvent[];
  noOffset: Set<string>;
  noOffsetFirst: RmqEvent | null;
  fixed: number;
  span: Span;
  hosts: Set<string>;
}

const MAX_MOVES = 50;
const SERVER_KINDS = new Set(['broker', 'store', 'remoting']);
/** Broker lines that name the reason of a PULL_OFFSET_MOVED logged right after them on the same thread. */
const REASONS = new Set(['OFFSET_TOO_SMALL', 'OFFSET_OVERFLOW_BADLY', 'NO_MESSAGE_IN_QUEUE']);

const rule: Rule = {
  meta: {
    id: 'offset-moved',
    title: "Offsets moved: a group's queues set back (messages again) or forward (messages skipped)",
    severity: 'warning',
    description:
      "Per consumer group: queues whose offset the broker or the client moved (OFFSET_ILLEGAL, PULL_OFFSET_MOVED, request offset too small or over flow badly, no queue data, an orderly queue's first pull, an administrator's reset), from which offset to which, and the messages that are delivered again or skipped; a slave that does not correct the offset (`none correction`); the lite pull consumer's `consumerOffset is -1` (a commit skipped, no move).",
    versions: 'All 4.x and 5.x brokers and Java clients; `fix to` in `over flow badly` from 5.0; `consumerOffset is -1` from 4.9.4 (lite pull).',
    settings: {},
    events: ['offset-illegal', 'offset-reset'],
  },

  create(ctx) {
    const groups = new Map<string, Group>();
    /** The broker's reason line per host and thread, waiting for its PULL_OFFSET_MOVED line. */
    const reasons = new Map<string, Move>();
    /** Moves already counted: group|topic|from -> time, to merge the broker's and the client's telling. */
    const told = new Map<string, number | null>();
    /** The last OFFSET_ILLEGAL per queue: its `fix the pull request offset` follows 10 s later. */
    const illegal = new Map<string, number | null>();

    const groupNamed = (name: string | null, host: string): Group => {
      const key = name ?? `(group not printed, ${host})`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { name: key, printed: name !== null, moves: [], movesOmitted: 0, back: 0, backMessages: 0, forward: 0, skipped: 0, notMoved: 0, notMovedFirst: null, resets: [], noOffset: new Set(), noOffsetFirst: null, fixed: 0, span: new Span(), hosts: new Set() }));
      return g;
    };

    const queueOf = (e: RmqEvent): string | null => {
      const q = num(e, 'queueId');
      if (q === null) return null;
      return `${str(e, 'brokerName') ?? str(e, 'topic') ?? '?'}:${q}`;
    };

    const record = (group: string | null, m: Move) => {
      const g = groupNamed(group, m.ev.host);
      g.span.add(m.ev.ts);
      g.hosts.add(m.ev.host);
      const key = `${g.name}|${m.topic ?? ''}|${m.from}`;
      const seen = told.get(key);
      if (seen !== undefined && (seen === null || m.ev.ts === null || Math.abs(m.ev.ts - seen) <= 15000)) {
        // The same move told again (the client after the broker): keep what it adds.
        const kept = g.moves.find((x) => x.from === m.from && x.topic === m.topic);
        if (kept) {
          kept.queue ??= m.queue;
          kept.max ??= m.max;
          kept.min ??= m.min;
        }
        return;
      }
      told.set(key, m.ev.ts);
      if (told.size > 4096) told.delete(told.keys().next().value as string);
      if (m.to === null) {
        g.notMoved++;
        g.notMovedFirst ??= m.ev;
      } else if (m.from !== null && m.to < m.from) {
        g.back++;
        const top = m.max !== null ? Math.min(m.from, m.max) : m.from;
        g.backMessages += Math.max(0, top - m.to);
      } else if (m.from !== null && m.to > m.from) {
        g.forward++;
        g.skipped += m.to - m.from;
      }
      if (g.moves.length < MAX_MOVES) g.moves.push(m);
      else g.movesOmitted++;
    };

    const onIllegal = (e: RmqEvent) => {
      const status = str(e, 'status') ?? '';
      const server = SERVER_KINDS.has(e.kind);
      const m: Move = { status, topic: str(e, 'topic'), queue: queueOf(e), from: num(e, 'offset'), to: num(e, 'nextBeginOffset'), min: num(e, 'minOffset'), max: num(e, 'maxOffset'), ev: e };
      const thread = `${e.host}|${e.thread ?? ''}`;
      if (status === 'NO_OFFSET') {
        const g = groupNamed(str(e, 'group'), e.host);
        g.span.add(e.ts);
        g.hosts.add(e.host);
        g.noOffset.add(m.queue ? `${m.topic ?? '?'}@${m.queue}` : e.text.slice(0, 80));
        g.noOffsetFirst ??= e;
        return;
      }
      if (server && REASONS.has(status)) {
        // Told again by the PULL_OFFSET_MOVED line that follows on the same thread, which says whether it moved.
        const left = reasons.get(thread);
        if (left && left.to !== null) record(str(left.ev, 'group'), left);
        reasons.set(thread, m);
        if (reasons.size > 1024) reasons.delete(reasons.keys().next().value as string);
        return;
      }
      if (status === 'PULL_OFFSET_MOVED') {
        const r = reasons.get(thread);
        reasons.delete(thread);
        const before = r && r.from === m.from ? r : null;
        const to = m.to ?? null;
        record(str(e, 'group'), { ...m, status: before?.status ?? status, queue: m.queue ?? before?.queue ?? null, min: before?.min ?? null, max: before?.max ?? null, to, ev: before?.ev ?? e });
        return;
      }
      if (status === 'OFFSET_ILLEGAL') {
        if (m.queue) illegal.set(`${str(e, 'group')}|${m.topic}|${m.queue}`, m.to);
        record(str(e, 'group'), m);
      }
    };

    const onReset = (e: RmqEvent) => {
      const why = str(e, 'why');
      const group = str(e, 'group');
      const g = groupNamed(group, e.host);
      if (why === 'fix') {
        const q = queueOf(e);
        const k = `${group}|${str(e, 'topic')}|${q}`;
        if (illegal.has(k)) {
          g.fixed++;
          return;
        }
        record(group, { status: 'OFFSET_ILLEGAL', topic: str(e, 'topic'), queue: q, from: null, to: num(e, 'offset'), min: null, max: null, ev: e });
        return;
      }
      if (why === 'first-pull') {
        const from = Number(/nextOffset=(\d+)/.exec(e.text)?.[1] ?? NaN);
        record(group, { status: 'FIRST_PULL', topic: str(e, 'topic'), queue: queueOf(e), from: Number.isFinite(from) ? from : null, to: num(e, 'offset'), min: null, max: null, ev: e });
        return;
      }
      g.span.add(e.ts);
      g.hosts.add(e.host);
      if (g.resets.length < 5) g.resets.push(e);
    };

    const line = (m: Move) => {
      const where = `${m.topic ?? 'a topic'}${m.queue ? ` queue ${m.queue}` : ''}`;
      if (m.to === null) return `${where}: ${m.from} asked, not moved${m.max !== null ? ` (the broker holds up to ${m.max})` : ''}`;
      if (m.from === null) return `${where}: set to ${m.to}`;
      const range = m.min !== null || m.max !== null ? ` (the queue holds ${m.min ?? '?'}..${m.max ?? '?'})` : '';
      return `${where}: ${m.from} -> ${m.to}${range}`;
    };

    const report = (g: Group) => {
      const ex: string[] = [];
      const adv: string[] = [];
      const who = g.printed ? `group ${g.name}` : `a consumer group (not printed; host ${[...g.hosts].join(', ')})`;
      const moved = g.moves.filter((m) => m.to !== null);
      if (moved.length) {
        ex.push(`The offsets of ${who} were moved on ${plural(moved.length + (g.movesOmitted || 0), 'queue pull', 'queue pulls')}: ${moved.slice(0, 4).map(line).join('; ')}${moved.length > 4 ? `; and ${moved.length - 4} more` : ''}.`);
      }
      const statuses = new Set(g.moves.map((m) => m.status));
      if (statuses.has('OFFSET_OVERFLOW_BADLY') || g.moves.some((m) => m.max !== null && m.from !== null && m.from > m.max)) {
        ex.push("An offset past the queue's end means the queue's offsets went back under the consumer: a store rebuilt or replaced, or a slave that was behind its master serving the pulls.");
      }
      if (statuses.has('OFFSET_TOO_SMALL')) ex.push('An offset below the queue\'s first one means the messages before it were deleted (fileReservedTime) before this group consumed them.');
      if (g.back) {
        ex.push(`Moved back on ${plural(g.back, 'queue pull')}: up to ${plural(g.backMessages, 'message')} are delivered again (those the group had consumed before: duplicates the listener must tolerate).`);
      }
      if (g.forward) ex.push(`Moved forward on ${plural(g.forward, 'queue pull')}: ${plural(g.skipped, 'message')} skipped, never consumed by this group.`);
      if (g.fixed) ex.push(`The push consumer persisted the new offset ${plural(g.fixed, 'time')} (\`fix the pull request offset\`, ${CONSUMER_DEFAULTS.offsetFixDelayMs / 1000} s after the illegal pull).`);
      if (g.notMoved) {
        const m = g.moves.find((x) => x.to === null);
        ex.push(
          `${plural(g.notMoved, 'pull')} of ${who} for offsets the broker does not hold were answered \`none correction\`${m ? ` (${line(m)})` : ''}: a slave without offsetCheckInSlave does not move the offset and tells the consumer to pull from the master at once; while the master is down the consumer keeps asking the slave, and the slave logs the lines at every pull${g.span.ms ? ` (${plural(g.notMoved, 'time')} in ${formatMs(g.span.ms)})` : ''}.`,
        );
        adv.push('Bring the master back, or let the slave serve these offsets only once it has caught up: a slave behind the consumers cannot serve them (check the slave\'s replication: `Slave fall behind master`).');
      }
      if (g.resets.length) ex.push(`An administrator reset the group's offsets (${plural(g.resets.length, 'reset')}, \`mqadmin resetOffsetByTime\`): its queues restart at the offsets of the time given, delivering again or skipping the messages between.`);
      if (g.noOffset.size) {
        ex.push(
          `The lite pull consumer had no offset to commit for ${plural(g.noOffset.size, 'queue')} (${someOf(g.noOffset)}; \`consumerOffset is -1\`): nothing polled from them yet since it took them, so their commit was skipped; this line moves no offset and loses no message.`,
        );
      }
      if (g.back) adv.push('Make the listener idempotent (a business key checked before acting): moved-back offsets and rebalances deliver messages again.');
      if (!g.notMoved && (statuses.has('OFFSET_OVERFLOW_BADLY') || g.moves.some((m) => m.max !== null && m.from !== null && m.from > m.max))) {
        adv.push("Find why the queue's offsets went back on that broker (a store deleted or restored, a slave promoted or read while behind) before restarting consumers.");
      }
      if (g.forward) adv.push(`Consume faster than fileReservedTime deletes (or keep the commit log longer): the skipped messages are gone${statuses.has('OFFSET_TOO_SMALL') ? '' : ' from this group\'s view'}.`);
      if (!adv.length) adv.push(g.noOffset.size && !moved.length && !g.notMoved ? 'Nothing to do for `consumerOffset is -1` alone: commit after poll returns messages of the queue.' : 'Check with the team that reset the offsets which time they chose: messages after it are delivered again, those before it skipped.');

      const severity: Severity = g.forward ? 'error' : g.back || g.notMoved ? 'warning' : moved.length ? 'warning' : 'info';
      const evidence: RmqEvent[] = [];
      for (const e of [g.moves[0]?.ev, g.moves.find((m) => m.to !== null && m.from !== null && m.to > m.from)?.ev, g.notMovedFirst, g.resets[0], g.noOffsetFirst]) if (e && !evidence.includes(e)) evidence.push(e);
      const metrics: Record<string, MetricValue> = {
        movedBack: g.back,
        redeliveredAtMost: g.backMessages,
        movedForward: g.forward,
        skipped: g.skipped,
        notMoved: g.notMoved,
        resets: g.resets.length,
        commitsSkipped: g.noOffset.size,
        queues: [...new Set(g.moves.map((m) => `${m.topic ?? '?'}${m.queue ? `@${m.queue}` : ''}`))],
        moves: moved.slice(0, 10).map((m) => `${m.from ?? '?'}->${m.to}`),
      };
      const headline = g.forward
        ? `${plural(g.skipped, 'message')} skipped`
        : g.back
          ? `moved back, up to ${plural(g.backMessages, 'message')} again`
          : g.notMoved
            ? `${plural(g.notMoved, 'pull')} past the slave's end, not moved`
            : g.resets.length
              ? 'reset by an administrator'
              : moved.length
                ? `${plural(moved.length, 'queue')} set`
                : `${plural(g.noOffset.size, 'queue commit')} skipped (consumerOffset is -1)`;
      ctx.report({
        severity,
        title: `Offsets of ${g.printed ? g.name : 'a group'}: ${headline}`,
        start: g.span.first,
        end: g.span.last,
        subject: g.hosts.size === 1 ? { host: [...g.hosts][0] } : {},
        metrics,
        evidence,
        explanation: ex.join(' '),
        advice: adv,
      });
    };

    return {
      'offset-illegal': onIllegal,
      'offset-reset': onReset,
      end() {
        // Reason lines never followed by their PULL_OFFSET_MOVED line (a paste cut short) that name both offsets.
        for (const m of reasons.values()) if (m.to !== null) record(str(m.ev, 'group'), m);
        for (const g of groups.values()) if (g.moves.length || g.resets.length || g.noOffset.size || g.fixed) report(g);
      },
    };
  },
};

export default rule;
