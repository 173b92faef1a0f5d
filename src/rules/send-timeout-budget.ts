// send-timeout-budget: `RemotingTooMuchRequestException: sendDefaultImpl call timeout`. The
// synchronous send gives all its attempts one budget, sendMsgTimeout (3000 ms by default; a client's
// own, when its timed-out attempts print it: SendBudgetSeen); before each further
// attempt it checks the clock and, when the budget is spent, throws this instead of retrying
// (DefaultMQProducerImpl.sendDefaultImpl). With the defaults, one attempt that uses the whole 3 s (a broker or host that
// accepts the connection but never answers) leaves no time for a retry on another broker.
//
// When the last allowed attempt is the one that times out, the loop ends before the clock check, so
// the caller gets `Send [N] times, still failed, cost [C]ms` instead, with C at or past the budget
// (DefaultMQProducerImpl.sendDefaultImpl, 4.x and 5.x): the same spent budget, counted here too, so
// that failedSends is every send the budget lost.
//
// Decision: one finding per client host. The call timeout is thrown to the caller (only the
// application logs it); the client log holds the failed attempt just before it (`sendKernelImpl
// exception, resend at once, ... RT: 3003ms`), which names the broker. Each call timeout is joined
// with the latest unjoined attempt of the same host that ended within 1.5 s before it (4.3.0-4.7.1
// clients print fake milliseconds, so a client line can read up to a second early). Copies of one
// failure in two files of a host (within 2 s) count once.

import type { RmqEvent } from '../parse/types.js';
import type { MetricValue, Rule } from './types.js';
import { addressBook, attemptOutcome, BOOK_EVENTS, clockOf, givenTimeoutMs, SendBudgetSeen } from './routing.js';
import { AttemptIndex, CrossLogDedup, clientVersions, num, str } from './send-path.js';
import { formatMs } from '../util/durations.js';
import { plural } from '../util/text.js';
import { CLIENT, CLIENT_DEFAULTS, CLIENT_THREADS } from '../rocketmq/facts.js';

const DEFAULT_SEND_MSG_TIMEOUT_MS = CLIENT_DEFAULTS.sendMsgTimeoutMs;
import { factIn, versionSide } from '../rocketmq/versions.js';
import { about, type TopicAdvice } from './advice.js';
import { faultAvoidanceSeen, lateAttempt, latencyFaultAdvice } from './versions.js';

interface Hit {
  ev: RmqEvent;
  host: string;
  attempt: RmqEvent | null;
  /** `Send [N] times, still failed` at the budget, not the call timeout. */
  retried: boolean;
}

interface Group {
  host: string;
  n: number;
  /** Of n, the sends whose last attempt spent the budget (`Send [N] times, still failed`). */
  retried: number;
  joined: number;
  brokers: Map<string, number>;
  /** Address of each broker name (the subject carries both). */
  addrs: Map<string, string>;
  maxRt: number | null;
  first: RmqEvent;
  last: RmqEvent;
  firstAttempt: RmqEvent | null;
  maxRtAttempt: RmqEvent | null;
  /** Of n, the sends the application made asynchronously (the record's thread is the producer's AsyncSenderExecutor). */
  async: number;
  /** Of n, the sends more than an attempt's flight after the first (lateAttempt). */
  late: number;
}

/** How far before the call timeout its last attempt may be logged. */
const BEFORE_MS = 1500;
/** How far after (lines of one millisecond can come in either order). */
const AFTER_MS = 100;
/** A busy reply this close to the failures says the broker answered then. */
const BUSY_NEAR_MS = 30000;
/** Busy replies kept per broker. */
const BUSY_KEPT = 256;
/**
 * Failures this soon after the producer started are its first sends': the first send to a topic
 * also waits, inside its budget, for the route query (mqClientApiTimeout, 3 s) and the first
 * connect to the broker (connectTimeoutMillis, 3 s), in a JVM that is still loading classes.
 */
const COLD_START_MS = 10000;
/** Client starts kept per host. */
const STARTS_KEPT = 8;

const rule: Rule = {
  meta: {
    id: 'send-timeout-budget',
    title: 'Send budget spent: sendDefaultImpl call timeout',
    severity: 'error',
    description:
      'Finds sends that ended with "sendDefaultImpl call timeout": an attempt used up the whole sendMsgTimeout, so no retry could go to another broker; joins the failed attempt and the broker it went to.',
    versions: 'All client versions (DefaultMQProducerImpl.sendDefaultImpl); 5.x adds sendMsgMaxTimeoutPerRequest.',
    settings: {
      sendMsgTimeout: { default: DEFAULT_SEND_MSG_TIMEOUT_MS, description: 'Producer setting: time budget of one send, all attempts included', unit: 'ms' },
    },
    events: [...new Set([...BOOK_EVENTS, 'send-call-timeout', 'send-failed', 'send-attempt-failed', 'busy-reply', 'startup'] as const)],
  },

  create(ctx) {
    const setting = Number(ctx.settings.sendMsgTimeout);
    const assumed = setting === DEFAULT_SEND_MSG_TIMEOUT_MS;
    const seen = new Map<string, SendBudgetSeen>();
    /**
     * A client's budget: the value given with --set, else what its timed-out attempts show
     * (SendBudgetSeen), else the default, said to be assumed (a client may run any sendMsgTimeout).
     */
    const budgetOf = (host: string): { ms: number; known: boolean; words: string } => {
      if (!assumed) return { ms: setting, known: true, words: `${setting} ms` };
      const s = seen.get(host)?.get();
      if (s) return { ms: s.ms, known: true, words: `${s.ms} ms, as its timed-out attempts show` };
      return { ms: setting, known: false, words: `${setting} ms by default; the logs do not show this client's` };
    };
    const book = addressBook(ctx);
    const groups = new Map<string, Group>();
    /** host -> its latest client starts (the producer's `startup` lines), bounded. */
    const starts = new Map<string, RmqEvent[]>();
    const startBefore = (host: string, ts: number | null): RmqEvent | null => {
      if (ts === null) return null;
      let best: RmqEvent | null = null;
      for (const e of starts.get(host) ?? []) if (e.ts! <= ts && (!best || e.ts! > best.ts!)) best = e;
      return best;
    };
    // Busy replies per broker name (the clients' `[TIMEOUT_CLEAN_QUEUE]broker busy` and kin): a
    // broker that answered them was slow, not silent. Bounded: the latest per broker.
    const attemptRecords = new AttemptIndex();
    const busyAt = new Map<string, number[]>();
    const answeredBusy = (broker: string, from: number | null, to: number | null) =>
      from !== null && to !== null && (busyAt.get(broker) ?? []).some((t) => t >= from - BUSY_NEAR_MS && t <= to + BUSY_NEAR_MS);
    // Recent attempts per host not yet joined to a call timeout (bounded).
    const recent = new Map<string, RmqEvent[]>();
    const used = new WeakSet<RmqEvent>();

    const record = (h: Hit) => {
      // The sends of a producer's first seconds are a finding of their own (cold: no fault anywhere),
      // apart from later ones (gen-20261224: a 529 ms first attempt on broker-a, then broker-c's overload).
      const started = startBefore(h.host, h.ev.ts);
      const key = started !== null && h.ev.ts !== null && h.ev.ts - started.ts! <= COLD_START_MS ? `${h.host}|cold` : h.host;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { host: h.host, n: 0, retried: 0, joined: 0, brokers: new Map(), addrs: new Map(), maxRt: null, first: h.ev, last: h.ev, firstAttempt: null, maxRtAttempt: null, async: 0, late: 0 }));
      g.n++;
      // DefaultMQProducerImpl's async sender executor runs sendDefaultImpl with the same one budget.
      if ((h.ev.thread ?? '').startsWith(CLIENT_THREADS.asyncSender)) g.async++;
      if (h.retried) g.retried++;
      if (lateAttempt(g.first.ts, h.ev.ts)) g.late++;
      if (h.ev.ts !== null && (g.first.ts === null || h.ev.ts < g.first.ts)) g.first = h.ev;
      if (h.ev.ts !== null && (g.last.ts === null || h.ev.ts >= g.last.ts)) g.last = h.ev;
      const a = h.attempt;
      if (!a) return;
      g.joined++;
      g.firstAttempt ??= a;
      const { name: b, addr } = book.brokerOfAttempt(a);
      // Only an attempt that waited out the budget says the broker did not answer: one given what
      // was left of a spent budget (`timeout, 0(ms)`) or one that failed at once says nothing of it.
      if (b && attemptOutcome(a) === 'spent') {
        g.brokers.set(b, (g.brokers.get(b) ?? 0) + 1);
        if (addr) g.addrs.set(b, addr);
      }
      // Without an RT (`RT: %sms`), the timeout its cause names is how long it waited.
      const rt = num(a, 'rtMs') ?? givenTimeoutMs(a.fields.cause as string | null);
      if (rt !== null && (g.maxRt === null || rt > g.maxRt)) (g.maxRt = rt), (g.maxRtAttempt = a);
    };
    const dedup = new CrossLogDedup<Hit>(record);

    // The send's own thread logged its attempts (the application calls send() on it), all with the
    // send's InvokeID (spender() picks the one that spent the budget). Without threads in the log,
    // the latest attempt of the host.
    const takeAttempt = (host: string, ts: number | null, thread: string | null): RmqEvent | null => {
      const ring = recent.get(host);
      if (!ring || ts === null) return null;
      const near = (a: RmqEvent) => a.ts !== null && !used.has(a) && a.ts <= ts + AFTER_MS && a.ts >= ts - BEFORE_MS;
      const own = thread ? ring.filter((a) => a.thread === thread && near(a)) : [];
      if (own.length) {
        const invokeId = own[own.length - 1].fields.invokeId ?? null;
        // 5.1.0-5.2.0 print `InvokeID: %s`: a thread runs one synchronous send at a time, so its attempts just before are this send's.
        const send = invokeId === null ? own : own.filter((a) => a.fields.invokeId === invokeId);
        for (const a of send) used.add(a);
        return spender(send);
      }
      // The latest that waited its budget out, else the latest that was not given mere leftovers
      // (those say nothing of the broker), else the latest.
      const rank = { spent: 2, fast: 1, leftover: 0 } as const;
      let pick: RmqEvent | null = null;
      for (let i = ring.length - 1; i >= 0; i--) {
        if (near(ring[i]) && (pick === null || rank[attemptOutcome(ring[i])] > rank[attemptOutcome(pick)])) pick = ring[i];
      }
      if (pick) used.add(pick);
      return pick;
    };

    const report = (g: Group) => {
      const cv = clientVersions(ctx, [g.host]);
      const b = budgetOf(g.host);
      const budget = b.ms;
      const counted = [...g.brokers.entries()].sort((a, b) => b[1] - a[1]);
      const brokers = counted.map(([b]) => b);
      // The broker that spent (nearly) every budget is the subject: in a log without threads an
      // attempt of another send can be joined now and then.
      const spentJoined = counted.reduce((n, [, k]) => n + k, 0);
      const main = counted.length && counted[0][1] >= 0.8 * spentJoined ? counted[0][0] : null;
      const to = main ?? counted.map(([b, n]) => `${b} (${n})`).join(', ');
      const whole = g.maxRt !== null && g.maxRt >= 0.9 * budget;
      const ex: string[] = [];
      const timeouts = g.n - g.retried;
      ex.push(
        g.retried === 0
          ? `${plural(g.n, 'send')} on ${g.host} gave up with RemotingTooMuchRequestException: sendDefaultImpl call timeout.`
          : `${plural(g.n, 'send')} on ${g.host} ran out of time: ${timeouts} gave up with RemotingTooMuchRequestException: sendDefaultImpl call timeout, and ${g.retried} with "Send [N] times, still failed" after their whole budget (the last allowed attempt timed out on what was left of it).`,
      );
      // DefaultMQProducerImpl (4.x): send(msg, SendCallback) submits sendDefaultImpl(ASYNC) to the
      // AsyncSenderExecutor with what is left of sendMsgTimeout; in ASYNC mode its loop makes one
      // attempt (timesTotal 1), and the clock is checked before it, after the route lookup.
      ex.push(
        g.async === g.n
          ? `An asynchronous send (with a SendCallback) runs sendDefaultImpl on the producer's AsyncSenderExecutor with the same one budget, sendMsgTimeout (${b.words}), counted from the send() call, and makes one attempt in it (retryTimesWhenSendAsyncFailed retries in the callback): before the attempt the producer checks the clock, and when the wait in the executor and the route lookup used the budget up it throws "sendDefaultImpl call timeout" without sending.`
          : `A synchronous send has one time budget for all its attempts, sendMsgTimeout (${b.words}). Each attempt gets what is left of it, and before a retry the producer checks the clock: once the budget is spent it throws "sendDefaultImpl call timeout" instead of trying another broker (the retry loop's "Send [N] times" error is dropped).`,
      );
      const started = startBefore(g.host, g.first.ts);
      const cold = started !== null && g.last.ts !== null && g.last.ts - started.ts! <= COLD_START_MS;
      // A send cannot begin before start() (makeSureStateOK throws "The producer service state not
      // OK"): a call timeout this soon after the start bounds the budget from above.
      const atMostMs = cold && !b.known && g.first.ts! - started.ts! < budget ? g.first.ts! - started.ts! : null;
      if (cold) {
        ex.push(
          `${g.n === 1 ? 'It' : 'They'} came ${formatMs(g.last.ts! - started.ts!)} after the producer started (${clockOf(started)}): a producer's first send to a topic asks a NameServer for the route and connects to the broker inside its budget, in a JVM that is still loading classes, so the first sends can run out of a short budget with no fault anywhere.` +
            (atMostMs !== null ? ` This client's sendMsgTimeout was at most ${formatMs(atMostMs)}, shorter than the default: no send begins before the producer has started.` : ''),
        );
      }
      if (g.joined) {
        ex.push(
          whole
            ? `The failed attempt${to ? ` to ${to}` : ''} took up to ${g.maxRt} ms (RT in the client log), the whole budget, so no retry was possible: the broker or its host did not answer in time (a hung host, a stalled broker, a network black hole, or a connect that hung). A refused connection, by contrast, fails fast and is retried.`
            : `The attempts${to ? ` to ${to}` : ''} took up to ${g.maxRt ?? '?'} ms each; together with route lookups and earlier attempts they used up the budget.`,
        );
      } else ex.push(`The client log with the failed attempt is not among the logs given (or has no matching line), so the broker it went to is not known.`);
      if (g.n > 1 && brokers.length <= 1 && g.first.ts !== null && g.last.ts !== null && g.last.ts > g.first.ts) {
        ex.push(`The failures span ${formatMs(g.last.ts - g.first.ts)}: the broker stayed in the producer's route all that time (a route drops a broker only after the NameServer removes it and the client polls again).`);
      }

      const adv: Array<string | TopicAdvice> = [];
      if (cold) {
        adv.push(
          about(
            'find-cause',
            `Warm ${g.host}'s producer up before its first sends: fetch the topic's route after start() (DefaultMQProducer.fetchPublishMessageQueues(topic)) so the first send does not pay for the route query and the connect, or give the first sends a budget longer than ${b.known ? `${budget} ms` : atMostMs !== null ? `its sendMsgTimeout (at most ${formatMs(atMostMs)})` : `sendMsgTimeout (${DEFAULT_SEND_MSG_TIMEOUT_MS} ms by default)`}.`,
          ),
        );
      } else {
        adv.push(about('find-cause', `Find out why ${brokers.length ? brokers.join(', ') : 'the broker'} did not answer within ${b.known ? `${budget} ms` : `the send budget (sendMsgTimeout, ${DEFAULT_SEND_MSG_TIMEOUT_MS} ms by default)`}: its host, its GC and store logs, and the network between them; then check whether the NameServer still listed it.`));
        // DefaultMQProducer.sendMsgMaxTimeoutPerRequest caps one attempt's share of the budget, from client 5.3.3 only.
        const perRequest = `sendMsgMaxTimeoutPerRequest (e.g. ${Math.round(budget / 3)} ms with sendMsgTimeout ${budget}${b.known ? '' : ', the default'})`;
        const capped = factIn(CLIENT.sendMsgMaxTimeoutPerRequest, cv);
        const why = 'so one attempt cannot use the whole budget and a retry can go to another broker';
        if (capped === true) adv.push(`Set ${perRequest} ${why}.`);
        else if (capped === null) adv.push(`On client 5.3.3 or later, set ${perRequest} ${why}.`);
        else if (versionSide(cv, '5.0.0') === 'atLeast') adv.push(`Client 5.3.3 and later can cap one attempt with ${perRequest}, ${why}; ${cv} has no such setting.`);
        // Every one of these sends had an attempt time out on this one broker: spread far apart, they show the client kept picking it.
        const seen = brokers.length === 1 ? faultAvoidanceSeen(cv, brokers[0], g.first.ts, g.last.ts, g.late) : ({ state: 'unknown' } as const);
        adv.push(about('latency-fault', latencyFaultAdvice(cv, seen, g.host)));
        // Only for a broker that gave no answer at all: one that answered other sends busy meanwhile
        // was slow (an overload), and its late answers to these came after the budget.
        const busy = brokers.filter((x) => answeredBusy(x, g.first.ts, g.last.ts));
        if (busy.length) ex.push(`${busy.join(', ')} answered other sends busy meanwhile (flow control): it was slow, not silent.`);
        else if (main && whole) adv.push('A larger sendMsgTimeout alone does not help against a broker that never answers: the first attempt waits for the whole budget either way.');
      }

      const evidence: RmqEvent[] = [];
      for (const e of [g.maxRtAttempt, g.first, g.firstAttempt, g.last]) if (e && !evidence.includes(e)) evidence.push(e);

      const metrics: Record<string, MetricValue> = {
        failedSends: g.n,
        callTimeouts: timeouts,
        retriesSpent: g.retried,
        // Stated only when known: a default the logs do not bear out is no fact about this client.
        sendMsgTimeoutMs: b.known ? budget : null,
        brokers,
        attemptsJoined: g.joined,
        maxAttemptRtMs: g.maxRt,
        clientVersion: cv,
        ...(cold ? { sinceStartMs: g.last.ts! - started.ts! } : {}),
      };
      ctx.report({
        title: `${plural(g.n, 'send')} on ${g.host} ran out of ${b.known ? `the ${budget} ms` : 'their'} send budget (${g.retried ? `${timeouts} sendDefaultImpl call timeout, ${g.retried} after their last retry` : 'sendDefaultImpl call timeout'})${main ? ` after an attempt to ${main}` : to ? ` after attempts to ${to}` : ''}${cold ? ` ${formatMs(g.last.ts! - started.ts!)} after its start` : ''}`,
        ...(cold ? { severity: 'warning' as const } : {}),
        start: g.first.ts,
        end: g.last.ts,
        subject: main ? { host: g.host, broker: main, ...(g.addrs.has(main) ? { brokerAddr: g.addrs.get(main) } : {}) } : { host: g.host },
        metrics,
        evidence,
        explanation: ex.join(' '),
        advice: adv,
      });
    };

    return {
      'busy-reply': (e) => {
        dedup.tick(e.ts);
        if (e.kind !== 'client' && e.kind !== 'app') return;
        const addr = str(e, 'brokerAddr');
        const own = attemptRecords.sameRecord(e);
        const name = (addr ? book.brokerNameOf(addr) : null) ?? (own ? str(own, 'brokerName') : null);
        if (!name || e.ts === null) return;
        let list = busyAt.get(name);
        if (!list) busyAt.set(name, (list = []));
        list.push(e.ts);
        if (list.length > BUSY_KEPT) list.shift();
      },
      'send-attempt-failed': (e) => {
        dedup.tick(e.ts);
        attemptRecords.add(e);
        let s = seen.get(e.host);
        if (!s) seen.set(e.host, (s = new SendBudgetSeen()));
        s.add(e);
        // An attempt logged just after the call timeout (same millisecond, other file first).
        let late = false;
        dedup.forEachPending((h, ts) => {
          const sameThread = h.ev.thread === null || e.thread === null || h.ev.thread === e.thread;
          if (!late && !h.attempt && sameThread && h.host === e.host && e.ts !== null && e.ts >= ts && e.ts <= ts + AFTER_MS) {
            h.attempt = e;
            used.add(e);
            late = true;
          }
        });
        if (late) return;
        let ring = recent.get(e.host);
        if (!ring) recent.set(e.host, (ring = []));
        ring.push(e);
        if (ring.length > 64) ring.shift();
      },
      startup: (e) => {
        if ((e.kind !== 'client' && e.kind !== 'app') || e.ts === null || (e.fields.role !== 'client' && e.fields.role !== 'producer')) return;
        let ring = starts.get(e.host);
        if (!ring) starts.set(e.host, (ring = []));
        ring.push(e);
        if (ring.length > STARTS_KEPT) ring.shift();
      },
      'send-call-timeout': (e) => {
        dedup.tick(e.ts);
        if (str(e, 'api') !== 'sendDefaultImpl') return;
        const hit: Hit = { ev: e, host: e.host, attempt: takeAttempt(e.host, e.ts, e.thread), retried: false };
        dedup.add(`${e.host}|sendDefaultImpl`, e.ts, e.file, hit, (kept, dup) => {
          kept.attempt ??= dup.attempt;
        });
      },
      'send-failed': (e) => {
        dedup.tick(e.ts);
        const cost = num(e, 'costMs');
        if (cost === null || cost < budgetOf(e.host).ms) return;
        const hit: Hit = { ev: e, host: e.host, attempt: takeAttempt(e.host, e.ts, e.thread), retried: true };
        dedup.add(`${e.host}|still-failed`, e.ts, e.file, hit, (kept, dup) => {
          kept.attempt ??= dup.attempt;
        });
      },
      end() {
        dedup.flush();
        for (const g of groups.values()) report(g);
      },
    };
  },
};

/**
 * The attempt of one send that spent its budget: the slowest that waited it out (attemptOutcome
 * `spent`); else the first that was not given mere leftovers (attempt 1 gets the whole budget, and a
 * channel closed under a waiting request fails it late with no RT printed in 5.1.0-5.2.0).
 */
function spender(send: RmqEvent[]): RmqEvent {
  const waited = (a: RmqEvent) => num(a, 'rtMs') ?? givenTimeoutMs(a.fields.cause as string | null) ?? -1;
  const spent = send.filter((a) => attemptOutcome(a) === 'spent');
  if (spent.length) return spent.reduce((best, a) => (waited(a) > waited(best) ? a : best));
  return send.find((a) => attemptOutcome(a) !== 'leftover') ?? send[0];
}

export default rule;
