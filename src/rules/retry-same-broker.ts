// retry-same-broker: a send whose retry went to the broker that had just failed it. On a retry,
// sendDefaultImpl passes the failed broker as lastBrokerName and the queue selector avoids it
// (MQFaultStrategy.selectOneMessageQueue): with the fault strategy off (default) it takes the first queue of another
// broker and falls back to plain round robin only when there is none (a single-broker route);
// with sendLatencyFaultEnable=true, clients up to 4.7.1 PREFERRED the same broker on a retry, and
// 4.8.0-5.1.3 ignore lastBrokerName in favour of the fault table.
//
// How one send is recognised: consecutive send-attempt-failed lines of one host, file and thread
// (4.x client logs print no thread), same topic, with the same InvokeID where the lines print one,
// else where each next attempt ended about its own RT after the previous one ("resend at once"); or a `Send [N] times ... BrokersSent: [broker-a,
// broker-a, ...]` that repeats a broker. A chain and the send-failed of the same send count once.
//
// Decision: one finding per client host and broker. Severity error when some of those sends finally
// failed (a send-failed, or every allowed attempt failed), else warning (a later attempt may have
// succeeded).

import type { RmqEvent } from '../parse/types.js';
import type { MetricValue, Rule } from './types.js';
import { CLIENT } from '../rocketmq/facts.js';
import { factIn, factOver, parseRange } from '../rocketmq/versions.js';
import { clientVersions, num, str, strs } from './send-path.js';
import { plural } from '../util/text.js';
import { writableAfter } from '../parse/route-change.js';
import { about, type TopicAdvice } from './advice.js';

interface Attempt {
  ev: RmqEvent;
  broker: string | null;
  topic: string | null;
}

interface Chain {
  host: string;
  key: string;
  topic: string | null;
  attempts: Attempt[];
  /** The repeated broker, once seen. */
  same: string | null;
  counted: Flagged | null;
}

interface Flagged {
  host: string;
  broker: string;
  topic: string | null;
  first: RmqEvent;
  last: RmqEvent;
  attempts: number;
  failed: boolean;
  hasChain: boolean;
  hasSendFailed: boolean;
}

interface Group {
  host: string;
  broker: string;
  n: number;
  failed: number;
  topics: Set<string>;
  maxAttempts: number;
  first: RmqEvent;
  last: RmqEvent;
  samples: RmqEvent[];
}

/** Attempts a default producer may make (1 + retryTimesWhenSendFailed). */
const DEFAULT_ATTEMPTS = 3;
const MATCH_MS = 2000;

const rule: Rule = {
  meta: {
    id: 'retry-same-broker',
    title: 'Send retried on the broker that had just failed it',
    severity: 'warning',
    description:
      'Finds sends whose retry went to the same broker as the failed attempt (chains of failed attempts, or BrokersSent repeating a broker), and explains lastBrokerName avoidance, the fault strategy of clients up to 4.7.1, and single-broker routes.',
    versions: 'All clients; with sendLatencyFaultEnable=true, clients up to 4.7.1 prefer the same broker on a retry (changed in 4.8.0); 5.1.4+ rewrote the selector.',
    settings: {},
    events: ['send-attempt-failed', 'send-failed', 'route-changed'],
  },

  create(ctx) {
    const open = new Map<string, Chain>();
    const flagged: Flagged[] = [];
    const groups = new Map<string, Group>();
    const routes = new Map<string, string[]>();
    // Recent send-failed events that repeat a broker and await a chain (bounded).
    const waiting: Flagged[] = [];

    const count = (f: Flagged) => {
      const key = `${f.host}|${f.broker}`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { host: f.host, broker: f.broker, n: 0, failed: 0, topics: new Set(), maxAttempts: 0, first: f.first, last: f.last, samples: [] }));
      g.n++;
      if (f.failed) g.failed++;
      if (f.topic) g.topics.add(f.topic);
      g.maxAttempts = Math.max(g.maxAttempts, f.attempts);
      if (f.first.ts !== null && (g.first.ts === null || f.first.ts < g.first.ts)) g.first = f.first;
      if (f.last.ts !== null && (g.last.ts === null || f.last.ts >= g.last.ts)) g.last = f.last;
      if (g.samples.length < 4) g.samples.push(f.first, f.last);
    };

    const linked = (prev: Attempt, next: Attempt): boolean => {
      if (prev.topic && next.topic && prev.topic !== next.topic) return false;
      const a = prev.ev;
      const b = next.ev;
      // sendDefaultImpl draws one InvokeID per send and prints it on each failed attempt (not
      // 5.1.0-5.2.0's literal `%s`): two ids are two sends, one id is one send whatever the timing.
      const ida = a.fields.invokeId ?? null;
      const idb = b.fields.invokeId ?? null;
      if (ida !== null && idb !== null) return ida === idb;
      if (a.ts === null || b.ts === null) return a.ts === null && b.ts === null && b.line > a.line && b.line - a.line < 80;
      const rt = num(b, 'rtMs');
      if (rt === null) return false;
      // A retry starts as soon as the failure is logged ("resend at once"), so the next attempt ends
      // its own RT later: much sooner means a concurrent send of another thread. 4.3.0-4.7.1 print
      // the seconds again in place of the milliseconds: allow a second either way.
      const fake = a.ts % 1000 === 0 && b.ts % 1000 === 0 ? 1000 : 0;
      const gap = b.ts - a.ts;
      return gap >= rt - 5 - fake && gap <= rt + 100 + fake;
    };

    /** Whether the client retries after this attempt's failure: a broker code outside retryResponseCodes is thrown at once. */
    const retried = (a: Attempt): boolean => {
      const m = /MQBrokerException: CODE: (-?\d+)/.exec(str(a.ev, 'cause') ?? '');
      if (!m) return true;
      const code = Number(m[1]);
      if ([1, 14, 16, 17, 204, 205].includes(code)) return true;
      const retries = factIn(code === 1500 ? CLIENT.retriesGoAway : CLIENT.retriesSystemBusy, ctx.clientVersion(a.ev.host).range);
      return (code === 2 || code === 1500) && retries !== false;
    };

    const flag = (c: Chain) => {
      const first = c.attempts[0].ev;
      const last = c.attempts[c.attempts.length - 1].ev;
      if (c.counted) {
        c.counted.last = last;
        c.counted.attempts = c.attempts.length;
        if (c.attempts.length >= DEFAULT_ATTEMPTS) c.counted.failed = true;
        return;
      }
      // A send-failed of the same send may have come first (the application line sorted before it).
      const i = waiting.findIndex((w) => w.host === c.host && w.broker === c.same && (!w.topic || !c.topic || w.topic === c.topic) && w.first.ts !== null && last.ts !== null && Math.abs(w.first.ts - last.ts) <= MATCH_MS);
      if (i >= 0) {
        const w = waiting.splice(i, 1)[0];
        w.hasChain = true;
        w.attempts = Math.max(w.attempts, c.attempts.length);
        c.counted = w;
        return;
      }
      const f: Flagged = { host: c.host, broker: c.same!, topic: c.topic, first, last, attempts: c.attempts.length, failed: c.attempts.length >= DEFAULT_ATTEMPTS, hasChain: true, hasSendFailed: false };
      c.counted = f;
      flagged.push(f);
      if (flagged.length > 64) count(flagged.shift()!);
    };

    const report = (g: Group) => {
      const cv = clientVersions(ctx, [g.host]);
      const route = [...g.topics].map((t) => routes.get(`${g.host}|${t}`)).find((r) => r !== undefined) ?? null;
      const single = route !== null && route.length === 1;
      const b = parseRange(cv);
      const upTo471 = b !== null && factOver(CLIENT.faultPrefersLastBroker, b) === true;
      const ex: string[] = [];
      ex.push(
        `${plural(g.n, 'send')} on ${g.host} retried on ${g.broker}, the broker that had just failed ${g.n === 1 ? 'it' : 'them'}` +
          `${g.failed ? ` (${g.failed} of them failed in the end)` : ''}; up to ${g.maxAttempts} attempts went to it.`,
      );
      ex.push(
        'On a retry the producer passes the failed broker as lastBrokerName, and the queue selector skips that broker: with the fault strategy off (the default) it takes the first queue of another broker, and only when there is none falls back to plain round robin, which can land on the same broker again.',
      );
      if (single) ex.push(`The route of ${[...g.topics].join(', ')} on this client lists only ${route![0]}: there was nowhere else to go.`);
      else if (route) ex.push(`The last route seen for the topic lists ${route.join(', ')}.`);
      if (upTo471) {
        ex.push(
          `This client (${cv}) is 4.7.1 or older: with sendLatencyFaultEnable=true its fault strategy returned a queue on a retry only if it was on the SAME broker as lastBrokerName, so retries preferred the failing broker (fixed in 4.8.0).`,
        );
      } else {
        ex.push(
          `With sendLatencyFaultEnable=true, clients up to 4.7.1 preferred the same broker on a retry, and 4.8.0-5.1.3 ignore lastBrokerName in favour of the fault table (a failed broker is then avoided only once it is marked unavailable)${cv !== 'unknown' ? `; this client is ${cv}` : ''}.`,
        );
      }
      const adv: Array<string | TopicAdvice> = [];
      if (single || route === null) adv.push('Give the topic write queues on at least two brokers, so a retry has another broker to go to.');
      if (upTo471 || factIn(CLIENT.faultPrefersLastBroker, cv) === null) adv.push('If sendLatencyFaultEnable=true on a client 4.7.1 or older, upgrade the client to 4.8.0 or later, or turn the fault strategy off.');
      adv.push(about('find-cause', `Find why ${g.broker} failed the attempts (the exception under each "sendKernelImpl exception" line).`));
      const evidence: RmqEvent[] = [];
      for (const e of g.samples) if (!evidence.includes(e)) evidence.push(e);
      const metrics: Record<string, MetricValue> = {
        failedSends: g.n,
        finallyFailed: g.failed,
        broker: g.broker,
        maxAttempts: g.maxAttempts,
        routeBrokers: route ? route.length : null,
        clientVersion: cv,
      };
      ctx.report({
        severity: g.failed ? 'error' : 'warning',
        title: `${plural(g.n, 'send')} on ${g.host} retried on the same broker ${g.broker}${single ? ' (the only broker in the route)' : ''}`,
        start: g.first.ts,
        end: g.last.ts,
        subject: { host: g.host, broker: g.broker },
        metrics,
        evidence,
        explanation: ex.join(' '),
        advice: adv,
      });
    };

    return {
      'route-changed': (e) => {
        const t = str(e, 'topic');
        const after = writableAfter(e) ?? [];
        if (t && after.length) routes.set(`${e.host}|${t}`, after);
      },
      'send-attempt-failed': (e) => {
        const key = `${e.host}|${e.file}|${e.thread ?? ''}`;
        const a: Attempt = { ev: e, broker: str(e, 'brokerName'), topic: str(e, 'topic') };
        const c = open.get(key);
        if (c && retried(c.attempts[c.attempts.length - 1]) && linked(c.attempts[c.attempts.length - 1], a) && c.attempts.length < 16) {
          const prev = c.attempts[c.attempts.length - 1];
          c.attempts.push(a);
          c.topic ??= a.topic;
          if (a.broker && prev.broker === a.broker) c.same ??= a.broker;
          if (c.same) flag(c);
          return;
        }
        open.set(key, { host: e.host, key, topic: a.topic, attempts: [a], same: null, counted: null });
        if (open.size > 4096) open.delete(open.keys().next().value!);
      },
      'send-failed': (e) => {
        const used = strs(e, 'brokersSent').filter((b) => b !== 'null');
        let repeated: string | null = null;
        for (let i = 1; i < used.length; i++) if (used[i] === used[i - 1]) repeated ??= used[i];
        if (!repeated) return;
        const topic = str(e, 'topic');
        // The chain of this send, if its attempts are in the client log.
        const f = flagged.find((x) => x.host === e.host && x.broker === repeated && !x.hasSendFailed && (!x.topic || !topic || x.topic === topic) && x.last.ts !== null && e.ts !== null && e.ts - x.last.ts <= MATCH_MS && e.ts - x.last.ts >= -100);
        if (f) {
          f.hasSendFailed = true;
          f.failed = true;
          f.attempts = Math.max(f.attempts, num(e, 'attempts') ?? 0);
          if (e.ts !== null && (f.last.ts === null || e.ts >= f.last.ts)) f.last = e;
          return;
        }
        const w: Flagged = { host: e.host, broker: repeated, topic, first: e, last: e, attempts: num(e, 'attempts') ?? used.length, failed: true, hasChain: false, hasSendFailed: true };
        flagged.push(w);
        waiting.push(w);
        if (waiting.length > 64) waiting.shift();
        if (flagged.length > 64) count(flagged.shift()!);
      },
      end() {
        for (const f of flagged) count(f);
        for (const g of groups.values()) report(g);
      },
    };
  },
};

export default rule;
