// subscription-inconsistent: the instances of one consumer group subscribe differently (other tags,
// or other topics), so the broker's subscription of the group flips at each instance's heartbeat.
//
// Mechanism (broker ConsumerGroupInfo.updateSubscription, 4.x and 5.x): a group has one subscription
// per topic on the broker; a heartbeat whose subscription is newer (subVersion) replaces it and logs
// `subscription changed, group: G OLD: SubscriptionData [... subString=A ...] NEW: ... subString=B`,
// a heartbeat with a topic the group lacks logs `subscription changed, add new topic`, one without a
// topic it has logs `... remove topic`. With instances that differ, every heartbeat (every 30 s from
// each instance) turns it back, and pulls carrying the other version are refused with
// SUBSCRIPTION_NOT_LATEST (25). The group's queues are shared among all its instances
// (AllocateMessageQueueAveragely), and each filters by tags: the broker by the subscription it holds
// at the time of the pull, the client (PullAPIWrapper.processPullResult) by its own tags, and the
// queue's offset moves on past what was filtered out. So the messages of a tag one instance does not
// subscribe to are never consumed on the queues that instance holds, and nothing logs them.
//
// Decision: one finding per group and topic whose subscription the broker changed at least twice and
// that came back to a subscription it had before (a flip), or whose topic was added and removed
// again. A single change is a deliberate change of the subscription and stays silent.
// Severity: error.

import type { RmqEvent } from '../parse/types.js';
import type { MetricValue, Rule } from './types.js';
import { str } from './send-path.js';
import { BoundedSet, Span, someOf } from './consumer.js';
import { CLIENT_DEFAULTS } from '../rocketmq/facts.js';
import { plural } from '../util/text.js';

interface Topic {
  group: string;
  topic: string;
  changes: number;
  subs: Map<string, number>;
  flips: number;
  added: number;
  removed: number;
  last: string | null;
  seen: Set<string>;
  first: RmqEvent;
  flipEv: RmqEvent | null;
  span: Span;
  brokers: Set<string>;
}

const rule: Rule = {
  meta: {
    id: 'subscription-inconsistent',
    title: 'Subscriptions differ inside one consumer group: messages of some tags never consumed',
    severity: 'error',
    description:
      "Per consumer group and topic: the broker's `subscription changed` flipping between subscriptions (or a topic added and removed again) as the group's instances' heartbeats arrive, with the pulls refused SUBSCRIPTION_NOT_LATEST (25) meanwhile; says which subscriptions alternate and that messages of tags an instance does not subscribe to are never consumed on the queues it holds.",
    versions: 'All 4.x and 5.x brokers (ConsumerGroupInfo.updateSubscription); the broker logs the changes in broker.log.',
    settings: {},
    events: ['consumer-changed', 'pull-failed'],
  },

  create(ctx) {
    const topics = new Map<string, Topic>();
    const notLatest = new Map<string, number>();
    const clients = new Map<string, BoundedSet>();

    const topicOf = (group: string, topic: string, e: RmqEvent): Topic => {
      const k = `${group}|${topic}`;
      let t = topics.get(k);
      if (!t) topics.set(k, (t = { group, topic, changes: 0, subs: new Map(), flips: 0, added: 0, removed: 0, last: null, seen: new Set(), first: e, flipEv: null, span: new Span(), brokers: new Set() }));
      t.span.add(e.ts);
      t.brokers.add(e.host);
      return t;
    };

    const sub = (t: Topic, s: string, e: RmqEvent) => {
      t.subs.set(s, (t.subs.get(s) ?? 0) + 1);
      if (t.last !== null && t.last !== s && t.seen.has(s)) {
        t.flips++;
        t.flipEv ??= e;
      }
      t.seen.add(s);
      t.last = s;
    };

    return {
      'consumer-changed': (e) => {
        const group = str(e, 'group');
        if (!group) return;
        const change = str(e, 'change');
        if (change === 'connected') {
          const id = str(e, 'clientId') ?? str(e, 'addr');
          if (id) {
            let c = clients.get(group);
            if (!c) clients.set(group, (c = new BoundedSet(50)));
            c.add(id);
          }
          return;
        }
        const topic = str(e, 'topic');
        if (!topic) return;
        if (change === 'subscription-changed') {
          const t = topicOf(group, topic, e);
          t.changes++;
          const oldSub = str(e, 'oldSubString');
          const newSub = str(e, 'subString');
          if (oldSub !== null && t.last === null) sub(t, oldSub, e);
          if (newSub !== null) sub(t, newSub, e);
        } else if (change === 'topic-added' || change === 'topic-removed') {
          const t = topicOf(group, topic, e);
          if (change === 'topic-added') t.added++;
          else t.removed++;
          if (t.added && t.removed && t.added + t.removed >= 3) t.flipEv ??= e;
        }
      },
      'pull-failed': (e) => {
        const group = str(e, 'group');
        if (group && str(e, 'reason') === 'SUBSCRIPTION_NOT_LATEST') notLatest.set(group, (notLatest.get(group) ?? 0) + 1);
      },
      end() {
        for (const t of topics.values()) {
          const flipping = t.changes >= 2 && t.flips > 0;
          const topicFlips = t.added > 0 && t.removed > 0 && t.added + t.removed >= 3;
          if (!flipping && !topicFlips) continue;
          const ex: string[] = [];
          const subs = [...t.subs.entries()].sort((a, b) => b[1] - a[1]);
          const refused = notLatest.get(t.group) ?? 0;
          const known = clients.get(t.group);
          if (flipping) {
            ex.push(
              `The broker${t.brokers.size > 1 ? 's' : ''} ${someOf(t.brokers)} changed group ${t.group}'s subscription of ${t.topic} ${plural(t.changes, 'time')}, going back and forth between ${subs.map(([s]) => `\`${s}\``).join(' and ')}: instances of the group subscribe differently, and each heartbeat (every ${CLIENT_DEFAULTS.heartbeatBrokerIntervalMs / 1000} s per instance) replaces the others' subscription.`,
            );
          }
          if (topicFlips) ex.push(`The broker added topic ${t.topic} to group ${t.group} ${plural(t.added, 'time')} and removed it ${plural(t.removed, 'time')}: some instances subscribe to it and others do not.`);
          ex.push(
            `The group's queues are shared among all its instances, and each instance's pulls are filtered by tags (by the broker with the subscription it holds at that moment, by the client with its own): the messages of a tag an instance does not subscribe to are passed over on the queues that instance holds, its offset moves on, and they are never consumed. Nothing logs them.`,
          );
          if (refused) ex.push(`Meanwhile the broker refused ${plural(refused, 'pull')} of the group with SUBSCRIPTION_NOT_LATEST (25).`);
          if (known?.size) ex.push(`Instances of the group seen connecting: ${someOf(known.items, 4)}.`);
          const evidence: RmqEvent[] = [t.first];
          if (t.flipEv && t.flipEv !== t.first) evidence.push(t.flipEv);
          const metrics: Record<string, MetricValue> = {
            subscriptionChanges: t.changes,
            subscriptions: subs.map(([s]) => s),
            flips: t.flips,
            topicAdded: t.added,
            topicRemoved: t.removed,
            notLatest: refused,
            instances: known?.size ?? null,
          };
          ctx.report({
            title: `Group ${t.group}: instances subscribe differently to ${t.topic}${subs.length ? ` (${subs.map(([s]) => s).slice(0, 3).join(' / ')})` : ''}`,
            start: t.span.first,
            end: t.span.last,
            subject: { topic: t.topic, ...(t.brokers.size === 1 ? { host: [...t.brokers][0] } : {}) },
            metrics,
            evidence,
            explanation: ex.join(' '),
            advice: [
              `Give every instance of ${t.group} the same subscription (the same topics, the same tag expression), and deploy a change of subscription to all instances at once; a consumer that needs other tags needs a group of its own.`,
              `To find the instance that differs: \`mqadmin consumerStatus -g ${t.group}\` asks each connected client for its running info, its subscription included, and compares them.`,
            ],
          });
        }
      },
    };
  },
};

export default rule;
