// pull-refused: the broker refuses a consumer group's pulls because it does not know the group or
// its subscription (PullMessageProcessor.processRequest, 4.x and 5.x):
// - SUBSCRIPTION_GROUP_NOT_EXIST (26) `subscription group [G] does not exist`: no subscription group
//   config for G and autoCreateSubscriptionGroup=false;
// - SUBSCRIPTION_NOT_EXIST (24) `the consumer's group info not exist` / `the consumer's subscription
//   not exist`: the broker holds no heartbeat of G (ConsumerManager), or G's heartbeat does not
//   subscribe to the topic. A consumer registers with every broker by its heartbeat, at start and every
//   heartbeatBrokerInterval (30 s); the table is in memory, so a restarted broker, a heartbeat that did
//   not arrive, or a channel closed or expired (120 s without heartbeat) leaves the group unknown;
// - SUBSCRIPTION_NOT_LATEST (25) `the consumer's subscription not latest`: the pull carries a newer
//   subVersion than the subscription the broker holds: until the newer heartbeat arrives (a push
//   consumer raises subVersion after each rebalance that changes its queues:
//   RebalancePushImpl.messageQueueChanged), or for good while instances of the group subscribe
//   differently and overwrite each other's subscription (the broker's `subscription changed` lines
//   then show another subString each time; after a rebalance only subVersion differs).
// The client (DefaultMQPushConsumerImpl.pullMessage's PullCallback.onException) logs `execute the pull
// request exception` with `CODE: N DESC: ...` (not for %RETRY% queues) and pulls the queue again after
// pullTimeDelayMillsWhenException (1 s from 4.6.0, 3 s before); the broker logs its own line for 24 and 25.
//
// Decision: one finding per group (the group a line prints; client lines that print none are grouped
// per host). A broker's printed response (`RemotingCommand [code=24 ... remark=...]`) within 2 s of its
// own refusal line is the same refusal. Severity: error for 24 and 26 (the queues are not consumed),
// warning for 25 alone.

import type { RmqEvent } from '../parse/types.js';
import type { MetricValue, Rule } from './types.js';
import { num, str } from './send-path.js';
import { clockOf } from './routing.js';
import { Span, groupOf, someOf } from './consumer.js';
import { CLIENT_DEFAULTS, LITE_PULL, PULL_RETRY_DELAY_TEXT } from '../rocketmq/facts.js';
import { formatMs } from '../util/durations.js';
import { plural } from '../util/text.js';

type Reason = 'SUBSCRIPTION_NOT_EXIST' | 'SUBSCRIPTION_NOT_LATEST' | 'SUBSCRIPTION_GROUP_NOT_EXIST' | 'REQUEST_CODE_NOT_SUPPORTED';
const CODES: Record<Reason, number> = { SUBSCRIPTION_NOT_EXIST: 24, SUBSCRIPTION_NOT_LATEST: 25, SUBSCRIPTION_GROUP_NOT_EXIST: 26, REQUEST_CODE_NOT_SUPPORTED: 3 };
const REASON_OF_CODE = new Map<number, Reason>(Object.entries(CODES).map(([r, c]) => [c, r as Reason]));
/** The broker's book of a group losing a consumer (ConsumerGroupInfo, ConsumerManager), in words. */
const REMOVED_WORDS: Record<string, string> = {
  'group-removed': 'removed the group: its last consumer connection had closed or expired',
  expired: "expired a consumer's channel of the group (no heartbeat for 120 s)",
  'channel-removed': "removed a consumer's closed channel from the group",
  unregistered: 'unregistered a consumer of the group (its shutdown)',
};
const SERVER_KINDS = new Set(['broker', 'store', 'remoting']);
/** A broker's boot this recent (two heartbeat periods) explains a refusal of a group it does not know yet. */
const BOOT_RECENT_MS = 2 * CLIENT_DEFAULTS.heartbeatBrokerIntervalMs;
/** Broker hosts' boots and groups' removal lines kept (the oldest let go). */
const KEPT = 10000;

/** Sets the key's value as the newest, letting the oldest go past KEPT. */
function keepLast<V>(m: Map<string, V>, key: string, value: V): void {
  m.delete(key);
  m.set(key, value);
  if (m.size > KEPT) m.delete(m.keys().next().value!);
}

interface PerReason {
  brokerLines: number;
  clientLines: number;
  first: RmqEvent;
  span: Span;
}

interface Group {
  name: string;
  printed: boolean;
  reasons: Map<Reason, PerReason>;
  brokers: Set<string>;
  clients: Set<string>;
  span: Span;
  /**
   * What the broker that first refused with 24 did just before, on that broker: its boot (its book of
   * heartbeats is in memory, empty until each consumer's next heartbeat), or its own `group removed`
   * / channel closed / expired / unregistered line for the group.
   */
  before: { what: 'boot' | 'removed'; e: RmqEvent } | null;
  subscriptionChanges: number;
  /** Changes whose expression (subString) differs from the one before: instances subscribing differently. */
  expressionChanges: number;
  /** Changes of the version alone (the same subString before and after): a rebalance's heartbeat. */
  versionChanges: number;
  firstChange: RmqEvent | null;
  /** The first change logged after a refusal of the group (the heartbeat that ends a 25's wait). */
  changeAfter: RmqEvent | null;
}

const rule: Rule = {
  meta: {
    id: 'pull-refused',
    title: "Pulls refused: the broker does not know the group, its subscription (codes 24, 25, 26) or the lite pull request (3)",
    severity: 'error',
    description:
      "Per consumer group: pulls the broker refused with SUBSCRIPTION_NOT_EXIST (24), SUBSCRIPTION_NOT_LATEST (25) or SUBSCRIPTION_GROUP_NOT_EXIST (26), from the broker's lines and the client's `execute the pull request exception`, and a 5.x lite pull consumer's pulls a broker before 5.0.0 does not know (REQUEST_CODE_NOT_SUPPORTED, 3: `request type 361 not supported`); which brokers, how long, and what the broker's book of the group shows at the time.",
    versions: 'All 4.x and 5.x brokers and Java clients (and the Go client\'s remark); 26 only with autoCreateSubscriptionGroup=false; 3 with a 5.x DefaultLitePullConsumer and a 4.x broker.',
    settings: {},
    events: ['pull-failed', 'consumer-changed', 'startup'],
  },

  create(ctx) {
    const groups = new Map<string, Group>();
    /** Per broker host, its last boot line; per `host|group`, the broker's last removal line of the group. */
    const boots = new Map<string, RmqEvent>();
    const removals = new Map<string, RmqEvent>();
    const lastBrokerLine = new Map<string, { ts: number | null; group: Group }>();

    const groupNamed = (name: string | null, host: string): Group => {
      const key = name ?? `(group not printed, ${host})`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { name: key, printed: name !== null, reasons: new Map(), brokers: new Set(), clients: new Set(), span: new Span(), before: null, subscriptionChanges: 0, expressionChanges: 0, versionChanges: 0, firstChange: null, changeAfter: null }));
      return g;
    };

    const reasonOf = (e: RmqEvent): Reason | null => {
      const r = str(e, 'reason');
      if (r === 'SUBSCRIPTION_NOT_EXIST' || r === 'SUBSCRIPTION_NOT_LATEST' || r === 'SUBSCRIPTION_GROUP_NOT_EXIST' || r === 'REQUEST_CODE_NOT_SUPPORTED') return r;
      const c = num(e, 'code');
      // Code 3 answers any request a broker does not know: only the catalogue's pull entry (LITE_PULL_MESSAGE) says it was a pull.
      if (c === CODES.REQUEST_CODE_NOT_SUPPORTED) return null;
      return c === null ? null : (REASON_OF_CODE.get(c) ?? null);
    };

    const pull = (e: RmqEvent) => {
      const reason = reasonOf(e);
      if (!reason) return;
      const server = SERVER_KINDS.has(e.kind);
      const named = groupOf(e);
      const k = `${e.host}|${reason}`;
      let g: Group;
      if (server && !(e.entry ?? '').startsWith('pull-failed/broker-') && !named) {
        // The broker's printed response of a refusal it logged just before.
        const last = lastBrokerLine.get(k);
        if (last && last.ts !== null && e.ts !== null && e.ts - last.ts <= 2000) return;
        g = groupNamed(null, e.host);
      } else g = groupNamed(named, e.host);
      if (server) lastBrokerLine.set(k, { ts: e.ts, group: g });
      let r = g.reasons.get(reason);
      if (!r) g.reasons.set(reason, (r = { brokerLines: 0, clientLines: 0, first: e, span: new Span() }));
      if (server) {
        if (reason === 'SUBSCRIPTION_NOT_EXIST' && !r.brokerLines && g.name !== null) g.before = beforeRefusal(e, g.name);
        r.brokerLines++;
        g.brokers.add(e.host);
      } else {
        r.clientLines++;
        g.clients.add(e.host);
        const addr = str(e, 'addr');
        if (addr) g.brokers.add(addr);
      }
      r.span.add(e.ts);
      g.span.add(e.ts);
    };

    /** The later of the host's boot (within BOOT_RECENT_MS) and its removal line of the group, before a refusal. */
    const beforeRefusal = (e: RmqEvent, group: string): Group['before'] => {
      const boot = boots.get(e.host);
      const removed = removals.get(`${e.host}|${group}`);
      const recent = boot && boot.ts !== null && e.ts !== null && e.ts - boot.ts <= BOOT_RECENT_MS ? boot : undefined;
      if (recent && (!removed || (removed.ts ?? 0) <= (recent.ts ?? 0))) return { what: 'boot', e: recent };
      return removed ? { what: 'removed', e: removed } : null;
    };

    const started = (e: RmqEvent) => {
      if (str(e, 'role') === 'broker' && SERVER_KINDS.has(e.kind)) keepLast(boots, e.host, e);
    };

    const changed = (e: RmqEvent) => {
      const name = str(e, 'group');
      if (!name) return;
      const g = groups.get(name);
      const change = str(e, 'change');
      if (change === 'subscription-changed') {
        const h = g ?? groupNamed(name, e.host);
        h.subscriptionChanges++;
        const before = str(e, 'oldSubString');
        const after = str(e, 'subString');
        if (before !== null && after !== null) {
          if (before === after) h.versionChanges++;
          else h.expressionChanges++;
        }
        h.firstChange ??= e;
        if (h.reasons.size) h.changeAfter ??= e;
      } else if (change === 'group-removed' || change === 'expired' || change === 'channel-removed' || change === 'unregistered') {
        keepLast(removals, `${e.host}|${name}`, e);
      }
    };

    const report = (g: Group) => {
      const ex: string[] = [];
      const adv: string[] = [];
      const who = g.printed ? `group ${g.name}` : `a consumer group (its name is not printed; client ${g.name.slice(g.name.indexOf(', ') + 2, -1)})`;
      const brokers = [...g.brokers];
      const parts: string[] = [];
      for (const [reason, r] of g.reasons) {
        const lines = [r.brokerLines ? `${plural(r.brokerLines, 'refusal')} in the broker's log` : '', r.clientLines ? `${plural(r.clientLines, 'failed pull')} in the client's log` : ''].filter(Boolean).join(', ');
        const long = r.span.ms;
        parts.push(`${reason} (${CODES[reason]}): ${lines}${long ? ` over ${formatMs(long)}` : ''}`);
      }
      ex.push(`The broker${brokers.length > 1 ? 's' : ''}${brokers.length ? ` ${someOf(brokers)}` : ''} refused pulls of ${who}: ${parts.join('; ')}.`);
      ex.push(`The Java client pulls each refused queue again after ${PULL_RETRY_DELAY_TEXT} and consumes nothing from it meanwhile; it does not log refusals of its %RETRY% queues.`);
      const heartbeat = CLIENT_DEFAULTS.heartbeatBrokerIntervalMs;
      const r26 = g.reasons.get('SUBSCRIPTION_GROUP_NOT_EXIST');
      if (r26) {
        ex.push(`SUBSCRIPTION_GROUP_NOT_EXIST: the broker has no subscription group config for ${g.printed ? g.name : 'the group'} and does not create one (autoCreateSubscriptionGroup=false), so every pull fails until it is created.`);
        adv.push(`Create the group on every broker of the cluster: \`mqadmin updateSubGroup -n <namesrv> -c <cluster> -g ${g.printed ? g.name : '<group>'}\` (or -b <broker addr>); or set autoCreateSubscriptionGroup=true on the brokers.`);
      }
      const r3 = g.reasons.get('REQUEST_CODE_NOT_SUPPORTED');
      if (r3) {
        ex.push(
          `REQUEST_CODE_NOT_SUPPORTED: the broker does not know request code ${LITE_PULL.requestCode} (LITE_PULL_MESSAGE), which a DefaultLitePullConsumer of client ${LITE_PULL.since} or later sends for every pull (MQClientAPIImpl.pullMessage); brokers before ${LITE_PULL.since} answer \` request type ${LITE_PULL.requestCode} not supported\`. No pull of that consumer ever succeeds on ${brokers.length ? someOf(brokers) : 'that broker'}: it consumes nothing there, and the group's lag grows with every message stored.`,
        );
        adv.push(
          `Run the lite pull consumer on a 4.x client (4.9.x pulls with PULL_MESSAGE, which every broker serves) until the brokers run ${LITE_PULL.since} or later, or upgrade the brokers first; a push consumer of the same client is not affected.`,
        );
      }
      const r24 = g.reasons.get('SUBSCRIPTION_NOT_EXIST');
      if (r24) {
        const long = r24.span.ms ?? 0;
        ex.push(
          `SUBSCRIPTION_NOT_EXIST: the broker holds no heartbeat of the group (\`group info not exist\`) or none subscribing to the topic (\`subscription not exist\`). A consumer registers with each broker by its heartbeat, at start and every heartbeatBrokerInterval (${heartbeat / 1000} s by default); the broker keeps them in memory, so a restarted broker, a heartbeat that did not reach it, or a connection closed or expired (120 s without a heartbeat) leaves the group unknown until the next heartbeat arrives.`,
        );
        if (g.before?.what === 'boot') ex.push(`${g.before.e.host} booted at ${clockOf(g.before.e)}, just before its first refusal (in the evidence): a broker that has just started knows no consumer until each one's next heartbeat.`);
        else if (g.before) ex.push(`Before, ${g.before.e.host} ${REMOVED_WORDS[str(g.before.e, 'change') ?? ''] ?? 'dropped a consumer of the group'} (in the evidence).`);
        if (long > heartbeat) ex.push(`The refusals lasted ${formatMs(long)}, longer than a heartbeat period: the consumer's heartbeats are not registering on that broker.`);
        else if (long > 0) ex.push(`The refusals lasted ${formatMs(long)}, less than a heartbeat period.`);
        else ex.push('The logs show the refusals at one moment only: how long they went on is not shown.');
        adv.push(
          long > heartbeat
            ? `Check that the consumer's heartbeats reach ${brokers.length ? someOf(brokers) : 'the broker'} (heartbeat failures in the client's log; \`new consumer connected, group: ...\` in the broker's), and that the consumer subscribes to the topic it pulls.`
            : `If the refusals go on past a heartbeat period (${heartbeat / 1000} s), check that the consumer's heartbeats reach the broker (heartbeat failures in the client's log, \`new consumer connected\` in the broker's) and that it subscribes to the topic it pulls; refusals that end within one end with the next heartbeat (after a broker restart or a consumer start).`,
        );
      }
      const r25 = g.reasons.get('SUBSCRIPTION_NOT_LATEST');
      if (r25) {
        ex.push(
          `SUBSCRIPTION_NOT_LATEST: the pull carries a newer subscription version than the one the broker holds for the group: briefly after a consumer starts or rebalances, until its heartbeat arrives; for good when instances of the group subscribe differently, each heartbeat overwriting the others' subscription.`,
        );
        if (g.expressionChanges > 1) {
          ex.push(`The broker logged the group's subscription expression changing ${plural(g.expressionChanges, 'time')} (\`subscription changed\` with another subString): the instances' heartbeats keep replacing each other's subscription.`);
          adv.push(`Give every instance of ${g.printed ? g.name : 'the group'} the same subscription (topics and tags): messages of tags one instance does not subscribe to are never consumed by the queues it takes.`);
        } else if (g.versionChanges > 0 && g.versionChanges >= g.subscriptionChanges - g.expressionChanges) {
          // RebalancePushImpl.messageQueueChanged (4.x-5.x): a rebalance that changes the queues sets
          // subVersion to the current time and sends a heartbeat; pulls that reach a broker first carry
          // the newer version.
          ex.push(
            `The broker logged the group's subscription changing ${plural(g.subscriptionChanges, 'time')} (\`subscription changed\`)${g.expressionChanges ? `, ${plural(g.versionChanges, 'time')}` : ''} with the same expression: only its version rose. A push consumer raises the version after every rebalance that changes its queues and then sends its heartbeat; a pull that reaches a broker before that heartbeat is refused. These refusals follow the group's rebalances, not subscriptions that differ.`,
          );
          adv.push(`The subscriptions need no change: the refusals stop when ${g.printed ? g.name : 'the group'} stops rebalancing. Find why it rebalanced (instances starting or stopping, or a broker leaving or joining the topic's route).`);
        } else {
          if (g.changeAfter) ex.push(`The broker logged the group's subscription changing after them (in the evidence): a heartbeat with the newer subscription arrived.`);
          adv.push(`If the refusals repeat, compare the subscriptions of the group's instances (topics and tags): they must be the same in every instance of a group.`);
        }
      }
      const evidence: RmqEvent[] = [...g.reasons.values()].map((r) => r.first);
      if (g.before) evidence.push(g.before.e);
      if (g.changeAfter) evidence.push(g.changeAfter);
      else if (g.firstChange) evidence.push(g.firstChange);
      const codes = [...g.reasons.keys()].map((r) => CODES[r]);
      const metrics: Record<string, MetricValue> = {
        codes: codes.map(String),
        refusals: [...g.reasons.values()].reduce((n, r) => n + r.brokerLines, 0),
        failedPulls: [...g.reasons.values()].reduce((n, r) => n + r.clientLines, 0),
        refusedMs: g.span.ms,
        brokers: brokers,
        clients: g.clients.size,
        subscriptionChanges: g.subscriptionChanges,
        expressionChanges: g.expressionChanges,
        // What the first broker to refuse with 24 did just before (in the explanation): its boot, or its removal of a consumer.
        before: g.before ? `${g.before.e.host} ${g.before.what === 'boot' ? 'boot' : str(g.before.e, 'change') ?? 'removal'}` : null,
      };
      ctx.report({
        severity: r24 || r26 || r3 ? 'error' : 'warning',
        title: `Pulls of ${g.printed ? g.name : g.clients.size ? `a group on ${someOf([...g.clients].sort())}` : 'a group'} refused: ${[...g.reasons.keys()].map((r) => `${r} (${CODES[r]})`).join(', ')}${g.span.ms ? ` for ${formatMs(g.span.ms)}` : ''}`,
        start: g.span.first,
        end: g.span.last,
        subject: g.clients.size === 1 ? { client: [...g.clients][0] } : brokers.length === 1 && g.brokers.size === 1 ? { host: brokers[0] } : {},
        metrics,
        evidence,
        explanation: ex.join(' '),
        advice: adv,
      });
    };

    return {
      'pull-failed': pull,
      'consumer-changed': changed,
      startup: started,
      end() {
        for (const g of groups.values()) if (g.reasons.size) report(g);
      },
    };
  },
};

export default rule;
