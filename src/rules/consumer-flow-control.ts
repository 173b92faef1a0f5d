// consumer-flow-control: a push (or lite pull) consumer holds back its pulls because its cache of
// messages not yet consumed is full: the listener consumes slower than messages arrive.
//
// Mechanism (DefaultMQPushConsumerImpl.pullMessage, 4.x and 5.x; DefaultLitePullConsumerImpl's pull
// task from 4.6.0): before each pull of a queue the consumer checks its ProcessQueue: more than
// pullThresholdForQueue (1000) messages cached, more than pullThresholdSizeForQueue (100 MiB), or, for
// a concurrently consumed queue, first and last cached offsets more than consumeConcurrentlyMaxSpan
// (2000) apart; over one, the pull is put back for 50 ms (PULL_TIME_DELAY_MILLS_WHEN_FLOW_CONTROL).
// The warning is printed on the 1st, 1001st, 2001st ... time (`queueFlowControlTimes++ % 1000 == 0`),
// with the consumer's counter (`flowControlTimes`, one for count and size, one for the span). 5.x
// pop consumption has its own limit, popThresholdForQueue (96) messages popped and not acknowledged.
// The lite pull consumer also holds back when the batches it fetched and the application has not taken
// with poll() (its consume requests, times pullBatchSize) exceed pullThresholdForAll (`The consume
// request count exceeds threshold`; its format has one placeholder more than arguments, so the
// printed `threshold` is the request count: the catalogue reads it so).
// The span limit trips when one message (the oldest cached) is not done while 2000 later ones are:
// a slow or blocked listener call, or a message retried in place; its queue's committed offset
// cannot pass it. pullThresholdForTopic / pullThresholdSizeForTopic, when set, change the per-queue
// thresholds; the count and size lines print the threshold in effect, the span line does not.
//
// Decision: one finding per group (the group of the printed PullRequest; lite pull lines print none
// and are grouped per host). Severity: warning.

import type { RmqEvent } from '../parse/types.js';
import type { MetricValue, Rule } from './types.js';
import { num, str } from './send-path.js';
import { BoundedSet, Span, groupOf, queueOf, someOf } from './consumer.js';
import { CONSUMER_DEFAULTS } from '../rocketmq/facts.js';
import { formatMs } from '../util/durations.js';
import { plural } from '../util/text.js';

type Limit = 'count' | 'size' | 'span' | 'wait-ack' | 'consume-request';
const LIMITS: readonly Limit[] = ['count', 'size', 'span', 'wait-ack', 'consume-request'];

interface PerLimit {
  lines: number;
  thresholds: Set<number>;
  maxCount: number | null;
  maxSizeMiB: number | null;
  maxSpan: number | null;
  first: RmqEvent;
  worst: RmqEvent;
}

interface Group {
  name: string;
  printed: boolean;
  limits: Map<Limit, PerLimit>;
  queues: BoundedSet;
  hosts: Set<string>;
  /** host|counter -> first and last flowControlTimes printed. */
  counters: Map<string, { first: number; last: number }>;
  span: Span;
  /** Lines of a lite pull consumer (DefaultLitePullConsumerImpl's) were read, and of a push consumer. */
  litePull: boolean;
  push: boolean;
}

const max = (a: number | null, b: number | null) => (b === null ? a : a === null ? b : Math.max(a, b));

const rule: Rule = {
  meta: {
    id: 'consumer-flow-control',
    title: "Consumer flow control: the client's cache of unconsumed messages is full",
    severity: 'warning',
    description:
      'Per consumer group: pulls the consumer held back because a queue had more than pullThresholdForQueue messages or pullThresholdSizeForQueue MiB cached, or (concurrently) a span over consumeConcurrentlyMaxSpan, or (5.x pop) too many messages waiting for their ack; which limit, how often (the printed counter: one line per 1000 flow controls), the queues, and what that says of the listener.',
    versions: 'All Java push consumers 4.x-5.x; the lite pull consumer from 4.6.0 (`The cached message ...`); `messages waiting to ack` is 5.x pop consumption.',
    settings: {
      pullThresholdForQueue: { default: CONSUMER_DEFAULTS.pullThresholdForQueue, description: 'Consumer setting: messages cached per queue above which its pulls wait', unit: 'count' },
      pullThresholdSizeForQueue: { default: CONSUMER_DEFAULTS.pullThresholdSizeForQueueMiB, description: 'Consumer setting: message bodies cached per queue above which its pulls wait', unit: 'MiB' },
      consumeConcurrentlyMaxSpan: { default: CONSUMER_DEFAULTS.consumeConcurrentlyMaxSpan, description: 'Consumer setting: largest distance between the first and last cached offsets of a concurrently consumed queue', unit: 'count' },
    },
    events: ['flow-control'],
  },

  create(ctx) {
    const spanLimit = Number(ctx.settings.consumeConcurrentlyMaxSpan);
    const spanAssumed = spanLimit === CONSUMER_DEFAULTS.consumeConcurrentlyMaxSpan ? ', the default, assumed: the line does not print it' : ', as set';
    const groups = new Map<string, Group>();

    const onFlow = (e: RmqEvent) => {
      const limit = str(e, 'limit') as Limit | null;
      if (!limit || !LIMITS.includes(limit)) return;
      const named = groupOf(e);
      const key = named ?? `(group not printed, ${e.host})`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { name: key, printed: named !== null, limits: new Map(), queues: new BoundedSet(), hosts: new Set(), counters: new Map(), span: new Span(), litePull: false, push: false }));
      g.hosts.add(e.host);
      if (e.fields.litePull === true) g.litePull = true;
      else if (e.fields.litePull === false) g.push = true;
      g.span.add(e.ts);
      const q = queueOf(e);
      if (q) g.queues.add(q);
      let l = g.limits.get(limit);
      if (!l) g.limits.set(limit, (l = { lines: 0, thresholds: new Set(), maxCount: null, maxSizeMiB: null, maxSpan: null, first: e, worst: e }));
      l.lines++;
      const th = num(e, 'threshold');
      if (th !== null && l.thresholds.size < 8) l.thresholds.add(th);
      const measure = limit === 'size' ? num(e, 'sizeMiB') : limit === 'span' ? num(e, 'maxSpan') : num(e, 'count');
      const worstSoFar = limit === 'size' ? l.maxSizeMiB : limit === 'span' ? l.maxSpan : l.maxCount;
      if (measure !== null && (worstSoFar === null || measure > worstSoFar)) l.worst = e;
      l.maxCount = max(l.maxCount, num(e, 'count'));
      l.maxSizeMiB = max(l.maxSizeMiB, num(e, 'sizeMiB'));
      l.maxSpan = max(l.maxSpan, num(e, 'maxSpan'));
      const times = num(e, 'flowControlTimes');
      if (times !== null) {
        const ck = `${e.host}|${limit === 'span' ? 'span' : limit === 'wait-ack' ? 'pop' : 'cache'}`;
        const c = g.counters.get(ck);
        if (!c) g.counters.set(ck, { first: times, last: times });
        else c.last = Math.max(c.last, times);
      }
    };

    const report = (g: Group) => {
      const ex: string[] = [];
      const adv: string[] = [];
      const who = g.printed ? `Group ${g.name}` : `A consumer (group not printed) on ${someOf(g.hosts)}`;
      const parts: string[] = [];
      const c = g.limits.get('count');
      const s = g.limits.get('size');
      const sp = g.limits.get('span');
      const w = g.limits.get('wait-ack');
      const cr = g.limits.get('consume-request');
      const th = (l: PerLimit, fallback: number) => (l.thresholds.size ? [...l.thresholds].join('/') : `${fallback} (assumed)`);
      if (c) parts.push(`over pullThresholdForQueue (${th(c, Number(ctx.settings.pullThresholdForQueue))} messages) on ${plural(c.lines, 'line')}, up to ${c.maxCount ?? '?'} messages cached${c.maxSizeMiB !== null ? ` (${c.maxSizeMiB} MiB)` : ''}`);
      if (s) parts.push(`over pullThresholdSizeForQueue (${th(s, Number(ctx.settings.pullThresholdSizeForQueue))} MiB) on ${plural(s.lines, 'line')}, up to ${s.maxSizeMiB ?? '?'} MiB in ${s.maxCount ?? '?'} messages`);
      if (sp) parts.push(`a span over consumeConcurrentlyMaxSpan (${spanLimit}${spanAssumed}) on ${plural(sp.lines, 'line')}, up to ${sp.maxSpan ?? '?'} offsets between the first and last cached message`);
      if (w) parts.push(`over popThresholdForQueue (${th(w, 96)} messages waiting for their ack) on ${plural(w.lines, 'line')}`);
      if (cr) parts.push(`over pullThresholdForAll in batches fetched and not yet taken by poll() on ${plural(cr.lines, 'line')}, up to ${cr.maxCount ?? '?'} of them`);
      const queues = [...g.queues.items];
      ex.push(`${who} held back its pulls${queues.length ? ` of ${plural(g.queues.size, 'queue')} (${someOf(queues)})` : ''}: ${parts.join('; ')}.`);
      let total = 0;
      let reached = 0;
      for (const v of g.counters.values()) {
        total += v.last - v.first + 1;
        reached = Math.max(reached, v.last);
      }
      if (g.counters.size) {
        ex.push(
          `A line is printed once every ${CONSUMER_DEFAULTS.flowControlLogEvery} flow controls: the counter reached ${reached}${total > 1 ? `, at least ${total} flow controls in these logs` : ''}${g.span.ms ? ` over ${formatMs(g.span.ms)}` : ''}; each puts that queue's next pull back ${CONSUMER_DEFAULTS.flowControlDelayMs} ms.`,
        );
      }
      // A lite pull consumer (DefaultLitePullConsumerImpl's lines) has no consume pool: the application's poll loop consumes.
      const litePull = g.litePull && !g.push;
      if ((c || s) && litePull) {
        ex.push("The application processes what poll() returns slower than messages arrive: they pile up in the pull tasks' cache up to the limit, then on the broker (the group's lag grows) while the pulls wait.");
        adv.push(
          'Make the application faster with each batch poll() returns, or hand the batches to more threads (a lite pull consumer has no consume threads: consumeThreadMin does not apply), or add instances up to the number of queues (an instance beyond that gets none).',
        );
      } else if (c || s) {
        ex.push("The listener consumes slower than messages arrive: they pile up in the client's cache up to the limit, then on the broker (the group's lag grows) while the pulls wait.");
        adv.push(
          `Make the listener faster, or give it more threads: raise consumeThreadMin (${CONSUMER_DEFAULTS.consumeThreadMin} by default; the consume pool's queue is unbounded, so it never grows past consumeThreadMin and consumeThreadMax alone changes nothing), or add instances up to the number of queues (an instance beyond that gets none).`,
        );
      }
      if (c || s) {
        adv.push('Raising pullThresholdForQueue only keeps more messages in the client\'s memory; it does not consume them sooner.');
      }
      if (s) ex.push('The size limit tripped: the messages are large, and the cache holds fewer of them than the count limit allows.');
      if (sp) {
        ex.push(
          "The span limit means one message (the oldest in the queue's cache) is not done while thousands after it are: a listener call that is slow or blocked, or a message failing again and again; the queue's committed offset cannot pass it, so a restart delivers everything after it again.",
        );
        adv.push(
          `Find the message that does not finish: a thread dump of the ConsumeMessageThread_ threads shows the call that blocks (a lock, a remote call without a timeout); give the listener's remote calls timeouts. A message in the listener longer than consumeTimeout (15 min) is sent back and its place freed.`,
        );
      }
      if (cr) {
        ex.push('The application takes messages with poll() slower than the pull threads fetch them.');
        adv.push('Call poll() more often, or hand its messages to more threads: the fetched batches wait for poll() while the pulls stand still.');
      }
      if (w) adv.push('Acknowledge popped messages sooner (the listener\'s time per message), or add consumers: the pop consumer waits while popThresholdForQueue messages are unacknowledged.');
      const evidence: RmqEvent[] = [];
      for (const l of g.limits.values()) for (const e of [l.first, l.worst]) if (!evidence.includes(e)) evidence.push(e);
      const metrics: Record<string, MetricValue> = {
        limits: [...g.limits.keys()],
        lines: [...g.limits.values()].reduce((n, l) => n + l.lines, 0),
        flowControls: g.counters.size ? total : null,
        flowControlTimes: g.counters.size ? reached : null,
        queues: g.queues.size,
        maxCachedCount: max(c?.maxCount ?? null, s?.maxCount ?? null),
        maxCachedMiB: max(c?.maxSizeMiB ?? null, s?.maxSizeMiB ?? null),
        maxSpan: sp?.maxSpan ?? null,
        clients: g.hosts.size,
      };
      ctx.report({
        title: `${g.printed ? g.name : 'A consumer'}: flow control (${[...g.limits.keys()].join(', ')})${g.queues.size ? ` on ${plural(g.queues.size, 'queue')}` : ''}${g.counters.size ? `, counter ${reached}` : ''}`,
        start: g.span.first,
        end: g.span.last,
        subject: g.hosts.size === 1 ? { client: [...g.hosts][0] } : {},
        metrics,
        evidence,
        explanation: ex.join(' '),
        advice: adv,
      });
    };

    return {
      'flow-control': onFlow,
      end() {
        for (const g of groups.values()) report(g);
      },
    };
  },
};

export default rule;
