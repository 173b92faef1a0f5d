// send-no-retry: sends that failed after ONE attempt, so neither a retry nor the avoidance of the
// failed broker could help (DefaultMQProducerImpl.sendDefaultImpl, sendSelectImpl; DefaultMQProducer.retryResponseCodes). Three shapes:
//   - `Send [1] times, still failed, ... BrokersSent: [...]`. The length of BrokersSent is the number
//     of attempts allowed: one slot means retryTimesWhenSendFailed=0 or an ASYNC/ONEWAY send
//     (sendDefaultImpl makes a single pass for them; async retries happen in the response callback,
//     and from 4.9.3 also for a request that could not go out, e.g. a refused connection:
//     CLIENT.asyncRetriesUnsent); several slots with one used mean the time budget (sendMsgTimeout) was spent by the
//     first attempt (clients that end the loop without "call timeout", e.g. 3.x).
//   - `sendSelectImpl call timeout`: a send with a MessageQueueSelector (orderly send) makes one
//     attempt, with no retry loop at all.
//   - a broker reply whose code that client version does not retry: SYSTEM_BUSY (code 2, every
//     flow-control reply) before 5.3.0. The MQBrokerException is thrown at once. Reported only when
//     the client version range is known to be below 5.3.0.
//
// Decision: one finding per client host and shape. Copies of one failure in two files of a host
// (client log and application log, within 2 s) count once.

import type { RmqEvent } from '../parse/types.js';
import { addressBook, BOOK_EVENTS } from './routing.js';
import type { MetricValue, Rule, Subject } from './types.js';
import { AttemptIndex, CrossLogDedup, clientVersions, num, str, strs } from './send-path.js';
import { plural } from '../util/text.js';
import { factIn, rangeOverlaps } from '../rocketmq/versions.js';
import { CLIENT, CLIENT_DEFAULTS } from '../rocketmq/facts.js';
import { about, type TopicAdvice } from './advice.js';
import { latencyFaultAdvice } from './versions.js';

/** Whether an ASYNC send whose request could not go out is retried, for a client version range. */
function asyncUnsentRetryText(cv: string): string {
  const retried = factIn(CLIENT.asyncRetriesUnsent, cv);
  if (retried === true) return `A request that could not be sent (a refused connection) is retried there too (client ${cv}; from 4.9.3).`;
  if (retried === false) return `Before 4.9.3 (client ${cv}) a request that could not be sent at all, such as a refused connection, is not retried.`;
  return 'A request that could not be sent at all, such as a refused connection, is retried there from client 4.9.3 on, not before.';
}

type Shape = 'single-pass' | 'budget' | 'stopped' | 'selector' | 'queue' | 'not-retried-code';

/** What the application got from a one-attempt send, by event type. */
const ONE_ATTEMPT_REASONS: Partial<Record<string, string>> = {
  'connect-failed': 'connection refused',
  'rpc-timeout': 'timeout',
  'send-request-failed': 'request not sent',
  'send-call-timeout': 'call timeout',
  'busy-reply': 'broker busy',
  'send-attempt-failed': 'failed attempt',
};

interface Hit {
  ev: RmqEvent;
  host: string;
  shape: Shape;
  brokers: string[];
  slots: number | null;
  costMs: number | null;
  reason: string | null;
  code: number | null;
  /** The reply ended a synchronous send: its record is the retry loop's `resend at once` or its stack went through sendDefaultImpl. */
  sync?: boolean;
}

interface Group {
  host: string;
  shape: Shape;
  n: number;
  brokers: Map<string, number>;
  reasons: Map<string, number>;
  slots: Set<number>;
  maxCost: number | null;
  first: RmqEvent;
  last: RmqEvent;
  samples: RmqEvent[];
  /** Refusals seen on the synchronous path (Hit.sync). */
  sync: number;
}

/** Flow-control replies that carry SYSTEM_BUSY (code 2) whatever the broker version prints. */
const ADDR = /^[^\s:]+:\d+$/;

const CODE2 = new Set(['TIMEOUT_CLEAN_QUEUE', 'PCBUSY_CLEAN_QUEUE', 'REJECTREQUEST', 'OVERLOAD']);

const rule: Rule = {
  meta: {
    id: 'send-no-retry',
    title: 'Sends that failed after a single attempt',
    severity: 'error',
    description:
      'Finds sends that failed after one attempt: "Send [1] times", "sendSelectImpl call timeout" (MessageQueueSelector), and broker replies whose code the client version does not retry (SYSTEM_BUSY before 5.3.0), so no retry and no broker avoidance happened.',
    versions: 'All clients; SYSTEM_BUSY (code 2) is retried from client 5.3.0; ASYNC sends retry only in the response callback.',
    settings: {
      sendMsgTimeout: { default: CLIENT_DEFAULTS.sendMsgTimeoutMs, description: 'Producer setting: time budget of one send, all attempts included', unit: 'ms' },
    },
    events: [...new Set([...BOOK_EVENTS, 'send-failed', 'send-call-timeout', 'busy-reply', 'send-attempt-failed', 'connect-failed', 'rpc-timeout', 'send-request-failed'] as const)],
  },

  create(ctx) {
    const budget = Number(ctx.settings.sendMsgTimeout);
    const book = addressBook(ctx);
    const attempts = new AttemptIndex();
    const groups = new Map<string, Group>();

    const record = (h: Hit) => {
      const key = `${h.host}|${h.shape}`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { host: h.host, shape: h.shape, n: 0, brokers: new Map(), reasons: new Map(), slots: new Set(), maxCost: null, first: h.ev, last: h.ev, samples: [], sync: 0 }));
      g.n++;
      if (h.sync) g.sync++;
      for (const b of h.brokers) g.brokers.set(b, (g.brokers.get(b) ?? 0) + 1);
      if (h.reason) g.reasons.set(h.reason, (g.reasons.get(h.reason) ?? 0) + 1);
      if (h.slots !== null) g.slots.add(h.slots);
      if (h.costMs !== null && (g.maxCost === null || h.costMs > g.maxCost)) g.maxCost = h.costMs;
      if (h.ev.ts !== null && (g.first.ts === null || h.ev.ts < g.first.ts)) g.first = h.ev;
      if (h.ev.ts !== null && (g.last.ts === null || h.ev.ts >= g.last.ts)) g.last = h.ev;
      if (g.samples.length < 3) g.samples.push(h.ev);
    };
    const dedup = new CrossLogDedup<Hit>(record);
    const add = (key: string, h: Hit) =>
      dedup.add(key, h.ev.ts, h.ev.file, h, (kept, dup) => {
        if (!kept.brokers.length) kept.brokers = dup.brokers;
        if (dup.ev.kind === 'client' && kept.ev.kind !== 'client') kept.ev = dup.ev;
        if (dup.sync) kept.sync = true;
      });

    const report = (g: Group) => {
      const cv = clientVersions(ctx, [g.host]);
      const brokers = [...g.brokers.entries()].sort((a, b) => b[1] - a[1]).map(([b]) => b);
      const subject: Subject = { host: g.host };
      if (brokers.length === 1) {
        // One-attempt failures name the broker by address: give its name too, from the routes.
        const name = ADDR.test(brokers[0]) ? book.brokerNameOf(brokers[0]) : brokers[0];
        if (name) subject.broker = name;
        if (ADDR.test(brokers[0])) subject.brokerAddr = brokers[0];
        else if (book.brokerAddrsOf(name).length === 1) subject.brokerAddr = book.brokerAddrsOf(name)[0];
      }
      const ex: string[] = [];
      const adv: Array<string | TopicAdvice> = [];
      let title = '';
      const sends = plural(g.n, 'send');
      if (g.shape === 'single-pass') {
        title = `${sends} on ${g.host} failed after a single attempt (Send [1] times, one attempt allowed): no retry, no other broker tried`;
        ex.push(`${sends} failed with "Send [1] times, still failed" and BrokersSent holding a single slot${brokers.length ? ` (${brokers.join(', ')})` : ''}: the producer was allowed one attempt.`);
        ex.push(
          'sendDefaultImpl makes 1 + retryTimesWhenSendFailed attempts (3 by default) only for SYNC sends, each retry avoiding the broker that just failed. One slot means retryTimesWhenSendFailed=0, or an ASYNC or ONEWAY send: those get a single pass there, and ASYNC retries happen in the response callback (retryTimesWhenSendAsyncFailed, 2 by default). ' +
            asyncUnsentRetryText(cv),
        );
        adv.push('For SYNC sends, keep retryTimesWhenSendFailed at 2 or more so a failed attempt is retried on another broker.');
        adv.push('For ASYNC sends, handle onException in the callback (retry, or fall back to a synchronous send) and set retryTimesWhenSendAsyncFailed; check the failed broker (here the attempt failed in ' + (g.maxCost ?? '?') + ' ms).');
      } else if (g.shape === 'budget') {
        title = `${sends} on ${g.host} failed after a single attempt that used the whole ${budget} ms send budget (Send [1] times)`;
        ex.push(`${sends} failed with "Send [1] times, still failed" after ${g.maxCost ?? '?'} ms, with the other BrokersSent slots unused (null)${brokers.length ? `; the one attempt went to ${brokers.join(', ')}` : ''}.`);
        ex.push(
          `The retries were allowed, but all attempts share one budget, sendMsgTimeout (${budget} ms): the first attempt used it up, so the loop ended before a retry could go to another broker (newer clients report this case as "sendDefaultImpl call timeout").`,
        );
        adv.push(about('find-cause', `Find why ${brokers.length ? brokers.join(', ') : 'the broker'} did not answer within ${budget} ms (a broker that was down or not started, a hung host, a network black hole).`));
        adv.push(about('latency-fault', latencyFaultAdvice(cv, { state: 'unknown' }, g.host)));
      } else if (g.shape === 'stopped') {
        title = `${sends} on ${g.host} failed after a single attempt although retries were allowed (Send [1] times)`;
        ex.push(`${sends} failed with "Send [1] times, still failed" after ${g.maxCost ?? '?'} ms, with the other BrokersSent slots unused (null)${brokers.length ? `; the one attempt went to ${brokers.join(', ')}` : ''}.`);
        ex.push('Retries were allowed (several slots) and the time budget was not spent, yet the retry loop ended after the first attempt, so no other broker was tried; the failed attempt in the client log ("sendKernelImpl exception ...") and the cause under this exception tell why.');
        adv.push('Read the cause under the "Send [1] times" exception and the client log around it; check the topic route on this client (route changes) and the broker the attempt went to.');
      } else if (g.shape === 'selector' || g.shape === 'queue') {
        const rs = [...g.reasons.entries()].map(([r, c]) => `${c} ${r}`).join(', ');
        const how = g.shape === 'selector' ? 'a MessageQueueSelector' : 'an explicit MessageQueue';
        title = `${sends} on ${g.host} through ${how} failed after their single attempt (${rs}): such sends are never retried`;
        ex.push(`${sends} sent through ${how}${brokers.length ? ` to ${brokers.join(', ')}` : ''} failed and reached the application (${rs}); their stack traces go through DefaultMQProducerImpl.${g.shape === 'selector' ? 'sendSelectImpl' : 'send(Message, MessageQueue)'}.`);
        ex.push(
          `That path calls sendKernelImpl once: no retry loop, no avoidance of a failed broker, no fault-table update. The queue is chosen by the application${g.shape === 'selector' ? ' (orderly send)' : ''}, so the client cannot move the message elsewhere; until the route drops a dead broker, every send to its queues fails.`,
        );
        adv.push('Retry in the application (the selector keeps the same queue, so ordering is kept), and find why the chosen broker did not answer.');
        adv.push('If strict ordering is not needed, send without a selector so the client can retry on another broker.');
      } else {
        const rs = [...g.reasons.entries()].map(([r, c]) => `${c} [${r}]`).join(', ');
        title = `${sends} on ${g.host} failed at the first broker refusal: client ${cv} does not retry SYSTEM_BUSY (code 2)`;
        ex.push(`${sends} got a flow-control reply with code 2 (SYSTEM_BUSY) from ${brokers.length ? brokers.join(', ') : 'the broker'}: ${rs}.`);
        // Only the synchronous loop (sendDefaultImpl) logs `resend at once` and checks
        // retryResponseCodes; an asynchronous send's reply is read in its callback
        // (MQClientAPIImpl.sendMessageAsync), which hands a broker error to onException without a
        // retry (onExceptionImpl with needRetry false, 4.x and 5.x). Which of the two the logs show.
        const how =
          g.sync === g.n
            ? 'So each refusal was thrown to the application at once as MQBrokerException, without trying another broker, although the client log says "resend at once" (that line is written before the decision).'
            : g.sync > 0
              ? `So each refusal ended its send at once as MQBrokerException, without trying another broker: ${g.sync} of them thrown by a synchronous send (its client log says "resend at once", written before the decision); one handed to an asynchronous send's callback (onException) is not retried either.`
              : "So each refusal ended its send at once as MQBrokerException, without trying another broker; the logs do not show whether the sends were synchronous (thrown to the caller) or asynchronous (handed to the callback's onException, which never retries a broker's error reply).";
        ex.push(
          `The client (${cv}) retries a broker error in a synchronous send only when its code is in retryResponseCodes (TOPIC_NOT_EXIST, SERVICE_NOT_AVAILABLE, SYSTEM_ERROR, NO_PERMISSION, NO_BUYER_ID, NOT_IN_CURRENT_UNIT); SYSTEM_BUSY joined it in 5.3.0. ${how}`,
        );
        adv.push('Treat MQBrokerException code 2 in the application: back off and retry, or send to another topic/broker.');
        adv.push(
          'Upgrade the producers to client 5.3.0 or later (SYSTEM_BUSY is retried on another broker)' +
            (rangeOverlaps(cv.split(', ')[0], '4.9.2', '5.2.0') !== false ? ', or, on 4.9.2-5.2.0, add code 2 with DefaultMQProducer.addRetryResponseCode.' : '.'),
        );
        adv.push('Fix the cause on the broker side (see broker-busy / pagecache-busy).');
      }
      const metrics: Record<string, MetricValue> = {
        failedSends: g.n,
        shape: g.shape,
        brokers,
        clientVersion: cv,
      };
      if (g.shape === 'single-pass' || g.shape === 'budget' || g.shape === 'stopped') {
        metrics.attemptsAllowed = g.slots.size === 1 ? [...g.slots][0] : null;
        metrics.maxCostMs = g.maxCost;
      }
      if (g.shape === 'budget') metrics.sendMsgTimeoutMs = budget;
      if (g.shape === 'not-retried-code') {
        metrics.code = 2;
        metrics.syncSends = g.sync;
      }
      const evidence = [...g.samples];
      if (!evidence.includes(g.last)) evidence.push(g.last);
      ctx.report({ title, start: g.first.ts, end: g.last.ts, subject, metrics, evidence, explanation: ex.join(' '), advice: adv });
    };

    /**
     * A failure whose stack went through sendSelectImpl or send(msg, mq): the one attempt such sends
     * get. Counted from the record that holds the stack (the application's, or the client's).
     */
    const oneAttempt = (e: RmqEvent): boolean => {
      if (e.sendPath !== 'select' && e.sendPath !== 'queue') return false;
      const reason = ONE_ATTEMPT_REASONS[e.type] ?? e.type;
      const addr = str(e, 'addr') ?? str(e, 'brokerAddr');
      add(`${e.host}|${e.sendPath}|${e.file}:${e.line}`, { ev: e, host: e.host, shape: e.sendPath === 'select' ? 'selector' : 'queue', brokers: addr ? [addr] : [], slots: null, costMs: null, reason, code: null });
      return true;
    };

    return {
      'send-attempt-failed': (e) => {
        dedup.tick(e.ts);
        attempts.add(e);
      },
      'send-failed': (e) => {
        dedup.tick(e.ts);
        if (num(e, 'attempts') !== 1) return;
        const sent = strs(e, 'brokersSent');
        const used = sent.filter((b) => b !== 'null');
        const cost = num(e, 'costMs');
        // An empty list was cut off: fall back on the cost.
        const spent = cost !== null && cost >= 0.9 * budget;
        const shape: Shape = sent.length === 1 || (!sent.length && !spent) ? 'single-pass' : spent ? 'budget' : 'stopped';
        add(`${e.host}|send-failed|${str(e, 'topic')}|${cost}`, { ev: e, host: e.host, shape, brokers: used, slots: sent.length || null, costMs: cost, reason: null, code: null });
      },
      'send-call-timeout': (e) => {
        dedup.tick(e.ts);
        if (oneAttempt(e)) return;
        if (str(e, 'api') !== 'sendSelectImpl') return;
        add(`${e.host}|sendSelectImpl`, { ev: e, host: e.host, shape: 'selector', brokers: [], slots: null, costMs: null, reason: 'call timeout', code: null });
      },
      'connect-failed': (e) => {
        dedup.tick(e.ts);
        oneAttempt(e);
      },
      'rpc-timeout': (e) => {
        dedup.tick(e.ts);
        oneAttempt(e);
      },
      'send-request-failed': (e) => {
        dedup.tick(e.ts);
        oneAttempt(e);
      },
      'busy-reply': (e) => {
        dedup.tick(e.ts);
        if (oneAttempt(e)) return;
        const reason = str(e, 'reason');
        const code = num(e, 'code') ?? (reason && CODE2.has(reason) ? 2 : null);
        if (code !== 2 || !reason) return;
        if (factIn(CLIENT.retriesSystemBusy, ctx.clientVersion(e.host).range) !== false) return;
        const own = attempts.sameRecord(e);
        const name = own ? str(own, 'brokerName') : null;
        const broker = str(e, 'brokerAddr') ?? name;
        const sync = !!own || e.sendPath === 'default';
        add(`${e.host}|busy|${reason}|${num(e, 'waitMs')}|${num(e, 'queueSize')}`, { ev: e, host: e.host, shape: 'not-retried-code', brokers: broker ? [name ?? broker] : [], slots: null, costMs: null, reason, code, sync });
      },
      end() {
        dedup.flush();
        for (const g of groups.values()) report(g);
      },
    };
  },
};

export default rule;
