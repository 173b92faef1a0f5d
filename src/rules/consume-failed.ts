// consume-failed: a consumer group's listener fails messages, which RocketMQ retries and finally moves
// to the group's dead-letter queue.
//
// Mechanism (Java push consumer, 4.x and 5.x): ConsumeMessageConcurrentlyService.ConsumeRequest.run
// logs `consumeMessage exception: <exceptionSimpleDesc> Group: G Msgs: [...] MQ: ...` when the
// listener throws, then `consumeMessage return null` (status null: RECONSUME_LATER) for the same
// delivery; a listener that returns null logs only the second. processConsumeResult sends each failed
// message back (CONSUMER_SEND_MSG_BACK); the broker (SendMessageProcessor.consumerSendMsgBack in 4.x,
// AbstractSendMessageProcessor in 5.x) redelivers it through %RETRY%G at delay level
// 3 + reconsumeTimes (10 s up to 2 h), or stores it in %DLQ%G when its reconsumeTimes is already
// `>=` maxReconsumeTimes (16 when the consumer leaves it at -1). A send back that fails both ways
// (`sendMessageBack exception`) leaves the message in the client, consumed again 5 s later. 5.x
// brokers log the DLQ move (`send msg to DLQ`, logger RocketmqDLQ); 4.x brokers do not, and create
// %DLQ%G write-only (PermName.PERM_WRITE; 5.x: read and write). An orderly listener's failure
// (`consumeMessage Orderly return not OK`) suspends the queue suspendCurrentQueueTimeMillis (1 s)
// and retries the same message in place, holding every later message of the queue; orderly's
// maxReconsumeTimes -1 is Integer.MAX_VALUE, so by default it never reaches the DLQ.
// A broadcasting consumer drops a failed message (`BROADCASTING, the message consume failed, drop it`).
//
// A 5.x gRPC consumer's group (rocketmq-client-java through a proxy) receives by pop: the proxy
// forwards a message received past its attempts (the group's retryMaxTimes + 1) to the DLQ from the
// pop retry topic (`send msg to DLQ ... originalTopic=%RETRY%G_T`: ConsumerProcessor.popMessage,
// PopMessageResultFilterImpl, 5.x proxy), and the broker's `create new subscription group,
// SubscriptionGroupConfig{... retryMaxTimes=N ...}` prints its retryMaxTimes. A SimpleConsumer
// (SimpleConsumerImpl, rocketmq-client-java 5.0.x) logs no failure at all: such a group's finding
// has DLQ forwards and no failure logged.
//
// Decision: one finding per group. One delivery told twice (the exception, then `return null` or
// `Orderly return not OK`) counts once (same group, messages and reconsumeTimes within 2 s).
// Severity: error when the logs show messages stored in the DLQ or dropped, else warning.

import type { RmqEvent } from '../parse/types.js';
import type { MetricValue, Rule } from './types.js';
import type { TopicAdvice } from './advice.js';
import { num, str, strs, clientVersions } from './send-path.js';
import { BoundedSet, DLQ_PREFIX, RETRY_PREFIX, Span, groupOf, someOf, thrown } from './consumer.js';
import { Occurrences } from './util.js';
import { CONSUMER_DEFAULTS } from '../rocketmq/facts.js';
import { plural } from '../util/text.js';

interface Thrown {
  count: number;
  frame: string | null;
  first: RmqEvent;
}

interface Group {
  name: string;
  topics: Set<string>;
  clients: Set<string>;
  brokers: Set<string>;
  failures: number;
  retried: number;
  exceptions: Map<string, Thrown>;
  unnamedExceptions: number;
  returnedNull: number;
  orderlyNotOk: number;
  expired: number;
  broadcastDropped: number;
  maxReconsume: number | null;
  maxReconsumeEv: RmqEvent | null;
  /** Failures of messages whose reconsumeTimes had reached maxReconsumeTimes: their send back stores them in the DLQ. */
  atMax: BoundedSet;
  dlqStored: BoundedSet;
  dlqFailed: number;
  sendBackLocal: number;
  sendBackDirect: number;
  span: Span;
  firstFailure: RmqEvent | null;
  firstNull: RmqEvent | null;
  firstDlq: RmqEvent | null;
  firstSendBack: RmqEvent | null;
  firstDrop: RmqEvent | null;
  /** Failures logged by a 5.x gRPC client (rocketmq-clients): retried by pop, not sent back. */
  grpc: number;
  /** The pop retry topic (%RETRY%G_T) the DLQ forwards came from: a pop (gRPC) group's. */
  popRetry: string | null;
  /** The group's retryMaxTimes by the broker's subscription group config line, and that line. */
  retryMaxTimes: number | null;
  retryMaxTimesEv: RmqEvent | null;
}

const MAX_CLASSES = 20;
/** Failures that a dependency coming back would end: the only case where waiting longer (maxReconsumeTimes) helps. */
const TRANSIENT = /Timeout|Connect|Unavailable|Unreachable|Interrupted|Busy|Throttl/i;

const newGroup = (name: string): Group => ({
  name,
  topics: new Set(),
  clients: new Set(),
  brokers: new Set(),
  failures: 0,
  retried: 0,
  exceptions: new Map(),
  unnamedExceptions: 0,
  returnedNull: 0,
  orderlyNotOk: 0,
  expired: 0,
  broadcastDropped: 0,
  maxReconsume: null,
  maxReconsumeEv: null,
  atMax: new BoundedSet(),
  dlqStored: new BoundedSet(),
  dlqFailed: 0,
  sendBackLocal: 0,
  sendBackDirect: 0,
  span: new Span(),
  firstFailure: null,
  firstNull: null,
  firstDlq: null,
  firstSendBack: null,
  firstDrop: null,
  grpc: 0,
  popRetry: null,
  retryMaxTimes: null,
  retryMaxTimesEv: null,
});

const rule: Rule = {
  meta: {
    id: 'consume-failed',
    title: 'Consume failures: messages retried through %RETRY%group and moved to %DLQ%group',
    severity: 'warning',
    description:
      "Per consumer group: the listener's failures (exceptions with their class and first frame, null returned, orderly SUSPEND, consumeTimeout), the highest reconsumeTimes seen against maxReconsumeTimes, messages the broker stored in %DLQ%group, send backs that failed, and broadcasting messages dropped.",
    versions:
      'All Java push consumers (3.x-5.x: `consumeMessage exception`, `consumeMessage return null`, `consumeMessage Orderly return not OK`; the 5.x gRPC client: `Message listener raised an exception`); the broker logs the DLQ move from 5.0 (`send msg to DLQ`), 4.x brokers do it silently and create %DLQ%group write-only.',
    settings: {
      maxReconsumeTimes: {
        default: CONSUMER_DEFAULTS.maxReconsumeTimes,
        description: 'Consumer setting: failed deliveries of a concurrently consumed message before the broker stores it in %DLQ%group (-1 means 16)',
        unit: 'count',
      },
    },
    events: ['consume-failed', 'send-back-failed', 'send-to-dlq', 'consumer-changed'],
  },

  create(ctx) {
    const maxReconsume = Number(ctx.settings.maxReconsumeTimes);
    const assumed = maxReconsume === CONSUMER_DEFAULTS.maxReconsumeTimes ? ' (the default, assumed: the logs do not print the setting)' : ' (as set)';
    const groups = new Map<string, Group>();
    const deliveries = new Occurrences<RmqEvent>(2000);

    /** A group's config line read before any other line of the group. */
    const pendingRetryMax = new Map<string, RmqEvent>();
    const groupFor = (e: RmqEvent): Group => {
      const name = groupOf(e) ?? `(group not printed, ${e.host})`;
      let g = groups.get(name);
      if (!g) {
        groups.set(name, (g = newGroup(name)));
        const cfg = pendingRetryMax.get(name);
        if (cfg) (g.retryMaxTimes = num(cfg, 'retryMaxTimes')), (g.retryMaxTimesEv = cfg);
      }
      g.span.add(e.ts);
      return g;
    };

    const failed = (e: RmqEvent) => {
      const g = groupFor(e);
      const rt = str(e, 'returnType');
      const entry = e.entry ?? '';
      const ids = strs(e, 'msgIds');
      const reconsume = num(e, 'reconsumeTimes');
      if (entry === 'consume-failed/orderly-not-ok') g.orderlyNotOk++;
      // The exception line and the `return null` / `Orderly return not OK` line of one delivery.
      const key = `${e.host}|${g.name}|${ids.join(',') || e.text.slice(0, 200)}|${reconsume}`;
      if (!deliveries.add(key, e)) return;
      g.failures++;
      if (entry.startsWith('consume-failed/grpc-')) g.grpc++;
      g.firstFailure ??= e;
      g.clients.add(e.host);
      const topic = str(e, 'topic');
      if (topic) g.topics.add(topic);
      const broker = str(e, 'brokerName');
      if (broker) g.brokers.add(broker);
      if ((reconsume !== null && reconsume > 0) || topic?.startsWith(RETRY_PREFIX)) g.retried++;
      if (reconsume !== null && (g.maxReconsume === null || reconsume > g.maxReconsume)) (g.maxReconsume = reconsume), (g.maxReconsumeEv = e);
      if (rt === 'EXCEPTION') {
        const { exception, frame } = thrown(str(e, 'cause'));
        if (!exception) g.unnamedExceptions++;
        else {
          const t = g.exceptions.get(exception);
          if (t) {
            t.count++;
            t.frame ??= frame;
          } else if (g.exceptions.size < MAX_CLASSES) g.exceptions.set(exception, { count: 1, frame, first: e });
          else g.unnamedExceptions++;
        }
      } else if (rt === 'RETURNNULL') {
        g.returnedNull++;
        g.firstNull ??= e;
      } else if (rt === 'TIME_OUT') g.expired++;
      else if (entry === 'consume-failed/broadcasting-drop') {
        g.broadcastDropped++;
        g.firstDrop ??= e;
      }
      if (reconsume !== null && reconsume >= maxReconsume && entry !== 'consume-failed/orderly-not-ok' && entry !== 'consume-failed/broadcasting-drop') {
        for (const id of ids.length ? ids : [key]) g.atMax.add(id);
      }
    };

    const report = (g: Group) => {
      const printed = !g.name.startsWith('(group not printed');
      /** The group in prose, and in the names of its retry and dead-letter topics. */
      const G = printed ? g.name : '<group>';
      const who = printed ? `Group ${g.name}'s listener` : `A listener on host ${g.name.slice('(group not printed, '.length, -1)} (its group is not printed)`;
      const orderly = g.orderlyNotOk > 0;
      /** Every failure is a 5.x gRPC client's: its retries are the group's retry policy, not maxReconsumeTimes. */
      const grpc = g.grpc > 0 && g.grpc === g.failures;
      /** DLQ forwards of a pop group whose clients logged no failure (a SimpleConsumer logs none). */
      const popOnly = g.popRetry !== null && g.failures === 0;
      const dlq = g.dlqStored.size;
      const severity = dlq > 0 || g.broadcastDropped > 0 ? 'error' : 'warning';
      const classes = [...g.exceptions.entries()].sort((a, b) => b[1].count - a[1].count);
      const ex: string[] = [];
      const kinds: string[] = [];
      if (classes.length) kinds.push(`${plural(classes.reduce((n, [, t]) => n + t.count, 0), 'exception')} (${classes.slice(0, 3).map(([c, t]) => `${c}${t.frame ? `, top frame ${t.frame}` : ''}`).join('; ')}${classes.length > 3 ? `; ${classes.length - 3} more classes` : ''})`);
      if (g.unnamedExceptions) kinds.push(`${plural(g.unnamedExceptions, 'other exception')}`);
      if (g.returnedNull) kinds.push(`${plural(g.returnedNull, 'null return')} (taken as RECONSUME_LATER)`);
      if (g.expired) kinds.push(`${plural(g.expired, 'message')} in the listener longer than consumeTimeout, sent back`);
      if (g.broadcastDropped) kinds.push(`${plural(g.broadcastDropped, 'broadcast message')} dropped`);
      const topics = [...g.topics];
      if (g.failures) {
        ex.push(
          // A listener's RECONSUME_LATER answer is not logged (ConsumeMessageConcurrentlyService,
          // 4.x-5.x): only the client's CONSUME_FAILED_TPS and the broker's SNDBCK_PUT_NUMS count it.
          `${who} failed ${plural(g.failures, 'delivery', 'deliveries')} that the client logged${topics.length ? ` of ${someOf(topics)}` : ''} on ${plural(g.clients.size, 'client host')}${kinds.length ? `: ${kinds.join(', ')}` : ''}.${orderly ? '' : ` A ${grpc ? 'ConsumeResult.FAILURE' : 'RECONSUME_LATER'} answer is not logged: the failures in all are at least these.`}`,
        );
      } else if (popOnly) {
        const attempts =
          g.retryMaxTimes !== null
            ? `the group's retryMaxTimes + 1; its retryMaxTimes is ${g.retryMaxTimes} by the broker's subscription group config, so ${plural(g.retryMaxTimes + 1, 'attempt')}`
            : "the group's retryMaxTimes + 1; retryMaxTimes is 16 unless set on the group, and no line here prints it";
        ex.push(
          `The proxy moved messages of group ${G} to ${DLQ_PREFIX}${G} from its pop retry topic ${g.popRetry}: the group's consumers are 5.x gRPC consumers (they receive by pop through a proxy), and none of these messages was acknowledged on any of its attempts (${attempts}). No client log among the inputs logged a failure of the group: a 5.x gRPC SimpleConsumer logs none (the application receives, handles and acknowledges; a message it does not acknowledge comes back after the invisible time of its receive, which no log prints), and a PushConsumer logs only a listener that throws; how many deliveries failed is counted by the broker's pop revive (stats.log TOPIC_PUT_NUMS [${g.popRetry}]), not here.`,
        );
      } else {
        // Absent client logs, or clients that do not log a failure: a listener's RECONSUME_LATER (Java
        // remoting), a 5.x gRPC SimpleConsumer's unacknowledged message (the application's own code).
        ex.push(`The broker stored messages of group ${G} in its dead-letter queue; no client log among the inputs logged a failure of the group's listener (its clients' logs are missing, or they do not log one: a RECONSUME_LATER answer, a 5.x gRPC SimpleConsumer's message left unacknowledged).`);
      }
      if (grpc) {
        // rocketmq-clients java ProcessQueueImpl (5.0.x): a failed message is nacked (changeInvisibleDuration
        // by the retry policy's backoff); the broker's pop revive stores it in %RETRY%<group>_<topic>, and the
        // proxy moves one received again past its attempts to the DLQ (5.x proxy PopMessageResultFilterImpl).
        ex.push(
          `These are 5.x gRPC consumers (they receive by pop through a proxy): a failed message is not sent back; the client makes it invisible for the backoff of the group's retry policy (by default 1 s, 5 s, 10 s, 30 s, then minutes), the broker's pop revive delivers it again through ${RETRY_PREFIX}${G}_${topics.length === 1 ? topics[0] : "<topic>"}, and once it has used its attempts (maxAttempts, the group's retryMaxTimes + 1; retryMaxTimes is 16 unless set on the group, and the client log does not print it) the proxy stores it in ${DLQ_PREFIX}${G}, which no consumer reads unless one subscribes to it.`,
        );
      } else if (g.failures && !orderly && g.failures > g.broadcastDropped) {
        ex.push(
          `A failed message is sent back to the broker, which delivers it again through ${RETRY_PREFIX}${G} after a delay growing from 10 s to 2 h (delay level 3 + reconsumeTimes); once its reconsumeTimes has reached maxReconsumeTimes, ${maxReconsume}${assumed}, the next failure stores it in ${DLQ_PREFIX}${G}, which no consumer reads unless one subscribes to it.`,
        );
      }
      if (g.maxReconsume !== null && !orderly) {
        const left = maxReconsume - g.maxReconsume;
        ex.push(
          left > 0
            ? maxReconsume === CONSUMER_DEFAULTS.maxReconsumeTimes
              ? `The highest reconsumeTimes seen is ${g.maxReconsume}: with maxReconsumeTimes at its default, that message goes to the DLQ after ${plural(left, 'more failure')}; a group set lower (the logs do not print it) sends it there sooner.`
              : `The highest reconsumeTimes seen is ${g.maxReconsume}: that message goes to the DLQ after ${plural(left, 'more failure')} (a delivery with reconsumeTimes ${maxReconsume} that fails).`
            : `The highest reconsumeTimes seen is ${g.maxReconsume}: ${plural(g.atMax.size, 'message')} failed at or past maxReconsumeTimes, so the broker stores ${g.atMax.size === 1 ? 'it' : 'them'} in ${DLQ_PREFIX}${G} unless the send back failed.`,
        );
      }
      if (dlq) ex.push(`The broker logged ${plural(dlq, 'message')} stored in ${DLQ_PREFIX}${G}${g.dlqFailed ? ` and ${plural(g.dlqFailed, 'DLQ store')} that failed` : ''}.`);
      else if (g.dlqFailed) ex.push(`The broker failed to store ${plural(g.dlqFailed, 'message')} in ${DLQ_PREFIX}${G}.`);
      if (g.sendBackLocal) ex.push(`${plural(g.sendBackLocal, 'send back')} failed (to the broker and by the client's own producer): those messages stay in the client and are consumed again there ${CONSUMER_DEFAULTS.sendBackFailedRetryMs / 1000} s later, holding their queue's committed offset meanwhile.`);
      if (g.sendBackDirect && !g.sendBackLocal) ex.push(`${plural(g.sendBackDirect, 'send back')} to the broker failed; the client then sends the message to ${RETRY_PREFIX}${G} with its own producer.`);
      if (orderly) {
        ex.push(
          `The group consumes orderly (${plural(g.orderlyNotOk, 'delivery', 'deliveries')} logged \`Orderly return not OK\`). An orderly queue whose listener does not return SUCCESS is suspended ${CONSUMER_DEFAULTS.suspendCurrentQueueTimeMillis} ms (suspendCurrentQueueTimeMillis) and the same message is delivered again in place: every later message of that queue waits behind it; with maxReconsumeTimes left at -1 an orderly message is never moved to the DLQ, so a message that always fails holds its queue for good.`,
        );
      }
      if (g.broadcastDropped) ex.push('A broadcasting consumer does not retry: each failed message is lost for that instance.');

      const adv: Array<string | TopicAdvice> = [];
      for (const [c, t] of classes.slice(0, 3).filter(([, x]) => !/ConsumeStatus/.test(x.first.text))) adv.push(`Fix the listener's ${c}${t.frame ? ` (top frame ${t.frame})` : ' (the stack printed after the line shows where)'}; a message that can never be processed should be logged and acknowledged, not ${orderly ? 'retried in place' : grpc ? "retried until its attempts run out (the group's retryMaxTimes + 1)" : `retried up to maxReconsumeTimes (${maxReconsume}${maxReconsume === CONSUMER_DEFAULTS.maxReconsumeTimes ? ' by default' : ''}) times`}.`);
      if (classes.some(([, t]) => /ConsumeStatus/.test(t.first.text))) adv.push('The listener returned something other than a ConsumeStatus: return ConsumeStatus.CONSUME_SUCCESS or RECONSUME_LATER on every path.');
      if (g.returnedNull && g.returnedNull > classes.length) adv.push('The listener returned null: return CONSUME_SUCCESS or RECONSUME_LATER explicitly on every path (a null is taken as RECONSUME_LATER).');
      if (dlq || g.atMax.size) {
        adv.push(
          `After the fix, read the messages in ${DLQ_PREFIX}${G} again (a consumer subscribed to it, or resend them); a 4.x broker creates it write-only: \`mqadmin updateTopic -t ${DLQ_PREFIX}${G} -p 6\` first.`,
        );
      }
      const transient = classes.length > 0 && classes.every(([c]) => TRANSIENT.test(c));
      if (transient && (dlq || g.atMax.size)) adv.push(`Every exception seen is a timeout or lost connection: if the dependency comes back, a larger maxReconsumeTimes gives it longer before messages reach the DLQ.`);
      if (g.sendBackLocal || g.sendBackDirect) adv.push(`Check the broker${g.brokers.size ? ` ${someOf(g.brokers)}` : ''} that refused the send backs (the cause on the \`sendMessageBack\` line).`);
      if (orderly) adv.push('In an orderly listener return SUSPEND_CURRENT_QUEUE_A_MOMENT only for failures that can pass; store or skip a message that can never succeed, or its queue stays stuck.');
      if (g.broadcastDropped) adv.push('Broadcasting consumers do not retry: make the listener retry itself, or use clustering if the messages must not be lost.');
      if (popOnly) adv.unshift("No client log shows why the messages were not acknowledged: find it in the application's own log (a SimpleConsumer acknowledges only what its code handled), then fix that path.");
      if (!adv.length) adv.push('Read the stack printed after the first failure to find what the listener could not do.');

      const evidence: RmqEvent[] = [];
      for (const e of [g.firstFailure, g.maxReconsumeEv, g.firstDlq, g.firstSendBack, g.firstNull, g.firstDrop, popOnly ? g.retryMaxTimesEv : null]) if (e && !evidence.includes(e)) evidence.push(e);
      const metrics: Record<string, MetricValue> = {
        failures: g.failures,
        exceptions: classes.map(([c]) => c),
        returnedNull: g.returnedNull,
        orderlyNotOk: g.orderlyNotOk,
        expired: g.expired,
        broadcastDropped: g.broadcastDropped,
        retried: g.retried,
        maxReconsumeTimesSeen: g.maxReconsume,
        // A gRPC consumer has no maxReconsumeTimes: the group's retryMaxTimes, which its log does not print.
        maxReconsumeTimes: grpc || popOnly ? null : maxReconsume,
        failedAtMax: g.atMax.size,
        sentToDlq: dlq,
        dlqStoreFailed: g.dlqFailed,
        sendBackFailed: g.sendBackLocal + g.sendBackDirect,
        topics,
        clients: g.clients.size,
        clientVersion: g.clients.size ? clientVersions(ctx, g.clients) : null,
      };
      const what = classes.length ? classes[0][0].replace(/^.*\./, '') : g.returnedNull ? 'null returned' : orderly ? 'orderly not OK' : null;
      ctx.report({
        severity,
        title: popOnly
          ? `Group ${g.name}: ${plural(dlq, 'message')} moved to ${DLQ_PREFIX}${G} from its pop retry topic, no consume failure logged`
          : `${printed ? `Group ${g.name}` : 'A consumer group'}: ${plural(g.failures, 'consume failure')} logged${what ? ` (${what})` : ''}${dlq ? `, ${plural(dlq, 'message')} in ${DLQ_PREFIX}${G}` : g.atMax.size ? `, ${plural(g.atMax.size, 'message')} past maxReconsumeTimes` : ''}${g.broadcastDropped ? `, ${g.broadcastDropped} dropped` : ''}`,
        start: g.span.first,
        end: g.span.last,
        subject: g.clients.size === 1 ? { client: [...g.clients][0], ...(topics.length === 1 ? { topic: topics[0] } : {}) } : topics.length === 1 ? { topic: topics[0] } : {},
        metrics,
        evidence,
        explanation: ex.join(' '),
        advice: adv,
      });
    };

    return {
      'consume-failed': failed,
      'send-back-failed': (e) => {
        const g = groupFor(e);
        g.clients.add(e.host);
        g.firstSendBack ??= e;
        if (e.entry === 'send-back-failed/direct') g.sendBackDirect++;
        else g.sendBackLocal++;
      },
      'consumer-changed': (e) => {
        // Only a group this rule reports on reads it (the groupFor of its other lines).
        const rmt = num(e, 'retryMaxTimes');
        const name = str(e, 'group');
        if (rmt === null || !name) return;
        const g = groups.get(name);
        if (g) (g.retryMaxTimes = rmt), (g.retryMaxTimesEv = e);
        else pendingRetryMax.set(name, e);
      },
      'send-to-dlq': (e) => {
        const g = groupFor(e);
        const topic = str(e, 'topic');
        if (topic && (topic.startsWith(`${RETRY_PREFIX}${g.name}_`) || topic.startsWith(`${RETRY_PREFIX}${g.name}+`))) g.popRetry ??= topic;
        if (e.fields.stored === false) {
          g.dlqFailed++;
          g.firstDlq ??= e;
          return;
        }
        g.dlqStored.add(str(e, 'msgId') ?? `${e.file}:${e.line}`);
        g.firstDlq ??= e;
      },
      end() {
        for (const g of groups.values()) if (g.failures || g.dlqStored.size || g.dlqFailed) report(g);
      },
    };
  },
};

export default rule;
