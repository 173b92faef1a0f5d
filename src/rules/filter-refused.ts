// filter-refused: a consumer group subscribes by SQL92 (MessageSelector.bySql, 4.1.0+) and the broker
// refuses it (4.x and 5.x brokers):
// - SYSTEM_ERROR (1) `The broker does not support consumer to filter message by SQL92`: the broker
//   runs with enablePropertyFilter=false (BrokerConfig's default). It answers so to the check a push
//   consumer makes as it starts (MQClientInstance.checkClientInBroker -> ClientManageProcessor.
//   checkClientConfig), where DefaultMQPushConsumer.start() throws it to the application, and to
//   every pull of the subscription (PullMessageProcessor.processRequest);
// - SUBSCRIPTION_PARSE_FAILED (23): the expression does not compile (checkClientConfig; the broker
//   logs `Client ...@G filter message, but failed to compile expression! sub=..., error=...`);
// - FILTER_DATA_NOT_EXIST (27) `The broker's consumer filter data is not exist!Your expression may be
//   wrong!`: a pull by an expression the broker holds no compiled filter of (ConsumerFilterManager
//   registers it from the heartbeat, and drops one that does not compile);
// - FILTER_DATA_NOT_LATEST (28): the pull carries a newer subscription version than the filter the
//   broker compiled, until the heartbeat with it arrives.
// A refused pull is pulled again after pullTimeDelayMillsWhenException (1 s from 4.6.0, 3 s before): nothing of the queue
// is consumed while it lasts.
//
// A running broker takes the setting from `mqadmin updateBrokerConfig` (AdminBrokerProcessor.
// updateBrokerConfig -> Configuration.update, which sets BrokerConfig and persists it), and both
// checks read BrokerConfig.isEnablePropertyFilter() each time.
//
// Decision: one finding per group (the group a line prints; lines that print none are grouped per
// host). Error, but a warning for 28 alone (it ends with the next heartbeat). The advice asks to
// enable the property filter only where a broker said it was off.

import type { RmqEvent } from '../parse/types.js';
import type { Rule } from './types.js';
import { num, str } from './send-path.js';
import { Span, groupOf, someOf } from './consumer.js';
import { PULL_RETRY_DELAY_TEXT } from '../rocketmq/facts.js';
import { formatMs } from '../util/durations.js';
import { plural } from '../util/text.js';

type Reason = 'FILTER_NOT_SUPPORTED' | 'SUBSCRIPTION_PARSE_FAILED' | 'FILTER_DATA_NOT_EXIST' | 'FILTER_DATA_NOT_LATEST';
const CODES: Record<Reason, number> = { FILTER_NOT_SUPPORTED: 1, SUBSCRIPTION_PARSE_FAILED: 23, FILTER_DATA_NOT_EXIST: 27, FILTER_DATA_NOT_LATEST: 28 };
/** Codes that name a filter refusal alone (1 is any SYSTEM_ERROR: only its wording says so). */
const REASON_OF_CODE = new Map<number, Reason>([
  [27, 'FILTER_DATA_NOT_EXIST'],
  [28, 'FILTER_DATA_NOT_LATEST'],
]);

interface Group {
  name: string;
  printed: boolean;
  reasons: Map<Reason, { lines: number; first: RmqEvent }>;
  brokers: Set<string>;
  hosts: Set<string>;
  expressionTypes: Set<string>;
  /** The compiler's error of a SUBSCRIPTION_PARSE_FAILED. */
  error: string | null;
  span: Span;
}

const rule: Rule = {
  meta: {
    id: 'filter-refused',
    title: 'Subscription by SQL92 refused: the broker does not filter by it, or cannot compile it (codes 1, 23, 27, 28)',
    severity: 'error',
    description:
      "Per consumer group: a subscription by SQL92 the broker refused, at the consumer's start or on its pulls: property filtering off (enablePropertyFilter=false, SYSTEM_ERROR 1), an expression that does not compile (23), no compiled filter for it (27) or an older one (28); which brokers, which expression type, and the compiler's error.",
    versions: 'Brokers and Java clients from 4.1.0 (SQL92 filtering), 4.x and 5.x.',
    settings: {},
    events: ['pull-failed'],
  },

  create(ctx) {
    const groups = new Map<string, Group>();

    const reasonOf = (e: RmqEvent): Reason | null => {
      const r = str(e, 'reason');
      if (r !== null && r in CODES) return r as Reason;
      const c = num(e, 'code');
      return c === null ? null : (REASON_OF_CODE.get(c) ?? null);
    };

    const pull = (e: RmqEvent) => {
      const reason = reasonOf(e);
      if (!reason) return;
      const named = groupOf(e);
      const key = named ?? `(group not printed, ${e.host})`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { name: key, printed: named !== null, reasons: new Map(), brokers: new Set(), hosts: new Set(), expressionTypes: new Set(), error: null, span: new Span() }));
      const r = g.reasons.get(reason);
      if (r) r.lines++;
      else g.reasons.set(reason, { lines: 1, first: e });
      g.hosts.add(e.host);
      const addr = str(e, 'addr');
      if (addr && e.kind !== 'broker') g.brokers.add(addr);
      if (e.kind === 'broker') g.brokers.add(e.host);
      const type = str(e, 'expressionType');
      if (type) g.expressionTypes.add(type);
      if (reason === 'SUBSCRIPTION_PARSE_FAILED') g.error ??= str(e, 'cause');
      g.span.add(e.ts);
    };

    const report = (g: Group) => {
      const who = g.printed ? `group ${g.name}` : `a consumer group on ${g.name.slice(g.name.indexOf(', ') + 2, -1)} (its name is not printed)`;
      const groupArg = g.printed ? g.name : '<group>';
      // 4.x and 5.x know two expression types, TAG and SQL92; only SQL92 is ever refused so.
      const type = g.expressionTypes.size ? [...g.expressionTypes].join(', ') : 'SQL92';
      const brokers = [...g.brokers].sort();
      const at = brokers.length ? ` ${someOf(brokers)}` : '';
      const ex: string[] = [];
      const adv: string[] = [];
      const parts = [...g.reasons].map(([reason, r]) => `${reason} (${CODES[reason]}) ${plural(r.lines, 'time')}`);
      ex.push(`The broker${brokers.length > 1 ? 's' : ''}${at} refused the ${type} subscription of ${who}: ${parts.join('; ')}${g.span.ms ? ` over ${formatMs(g.span.ms)}` : ''}.`);
      ex.push(
        `A push consumer asks a broker of its topic to check a ${type} subscription as it starts (MQClientInstance.checkClientInBroker): a refusal there is thrown from DefaultMQPushConsumer.start() to the application; a refused pull is pulled again after ${PULL_RETRY_DELAY_TEXT} and nothing of its queue is consumed meanwhile.`,
      );
      if (g.reasons.has('FILTER_NOT_SUPPORTED')) {
        ex.push(`FILTER_NOT_SUPPORTED: the broker${at} runs with enablePropertyFilter=false (BrokerConfig's default), so it takes no subscription but by tag (ClientManageProcessor.checkClientConfig, PullMessageProcessor).`);
        adv.push(
          `Set enablePropertyFilter=true on every broker that serves the topic${at ? ` (the refusal came from${at})` : ''}: in broker.conf, read at start, or on a running broker with \`mqadmin updateBrokerConfig -b <broker addr> -k enablePropertyFilter -v true\`, which it reads at each check and pull.`,
          `If the filter needs only the messages' tags, subscribe by tag instead (\`subscribe(topic, "TagA || TagB")\`), which every broker filters.`,
        );
      }
      if (g.reasons.has('SUBSCRIPTION_PARSE_FAILED')) {
        ex.push(`SUBSCRIPTION_PARSE_FAILED: the broker could not compile the expression${g.error ? ` (${g.error})` : ''}; the consumer's start fails until it is fixed.`);
        adv.push(`Fix the expression of ${groupArg}: RocketMQ's SQL92 subset takes comparisons (>, >=, <, <=, BETWEEN a AND b, =, <>, IN), IS [NOT] NULL, AND, OR, NOT, on message properties${g.error ? `; the broker's error names where it failed` : ''}.`);
      }
      if (g.reasons.has('FILTER_DATA_NOT_EXIST')) {
        ex.push(`FILTER_DATA_NOT_EXIST: the broker holds no compiled filter of the group's expression for the topic: the expression in its heartbeat did not compile, or no heartbeat with it has arrived since the broker started.`);
        if (!g.reasons.has('SUBSCRIPTION_PARSE_FAILED')) adv.push(`Check the expression of ${groupArg} (the broker logs \`failed to compile expression\` or \`parse error\` for one it cannot compile) and that the consumer's heartbeats reach the broker.`);
      }
      if (g.reasons.has('FILTER_DATA_NOT_LATEST')) ex.push(`FILTER_DATA_NOT_LATEST: the pull carries a newer subscription version than the filter the broker compiled: after the expression changed, until the consumer's next heartbeat arrives.`);
      const only28 = g.reasons.size === 1 && g.reasons.has('FILTER_DATA_NOT_LATEST');
      if (only28) adv.push(`If the refusals outlast a heartbeat period (30 s), check that the group's instances subscribe with the same expression: each heartbeat replaces the broker's filter.`);
      ctx.report({
        severity: only28 ? 'warning' : 'error',
        title: `${type} subscription of ${g.printed ? g.name : 'a group'} refused: ${[...g.reasons.keys()].map((r) => `${r} (${CODES[r]})`).join(', ')}`,
        start: g.span.first,
        end: g.span.last,
        subject: g.hosts.size === 1 ? { [brokers.includes([...g.hosts][0]) ? 'host' : 'client']: [...g.hosts][0] } : {},
        metrics: {
          codes: [...g.reasons.keys()].map((r) => String(CODES[r])),
          refusals: [...g.reasons.values()].reduce((n, r) => n + r.lines, 0),
          expressionType: type,
          brokers,
          refusedMs: g.span.ms,
        },
        evidence: [...g.reasons.values()].map((r) => r.first),
        explanation: ex.join(' '),
        advice: adv,
      });
    };

    return {
      'pull-failed': pull,
      end() {
        for (const g of groups.values()) report(g);
      },
    };
  },
};

export default rule;
