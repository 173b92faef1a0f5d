// rebalance-storm: a consumer group whose queues keep being reassigned, and orderly queues that
// cannot be locked.
//
// Mechanism (RebalanceImpl, RebalanceService, 4.x and 5.x): each consumer rebalances every 20 s and at
// once when a broker tells it the group changed (`receive broker's notification[...], the consumer
// group: G changed, rebalance immediately`; the broker sends it when a consumer connects, leaves or
// changes its subscription: ConsumerManager, ConsumerGroupInfo). A result that differs is logged
// (`rebalanced result changed ... cidAllSize=N`), queues taken and dropped (`doRebalance, G, add a new
// mq` / `remove unnecessary mq`). Each change drops the cache of the queues that move and has the new
// owner start at the committed offset, so messages consumed but not yet committed (offsets are
// committed every 5 s) are delivered again. An orderly consumer must first lock a queue on the broker
// (`lockBatchMQ`); while the previous owner's lock lives (60 s without renewal,
// RebalanceLockManager.REBALANCE_LOCK_MAX_LIVE_TIME) the lock fails (`add a new mq failed, ...,
// because lock failed`) and the queue is consumed by no one until a later rebalance gets it.
//
// Decision: one finding per group. Rebalance lines less than 2 s apart are one rebalance (every
// consumer of a process, every broker, logs its own). A storm is rebalanceStormCount rebalances or
// more within rebalanceStormWindowMs; the trigger is named where the broker's book of the group shows
// consumers coming and going in that window. Lock failures of orderly queues are reported whatever
// their number. Severity: warning.

import type { RmqEvent } from '../parse/types.js';
import type { MetricValue, Rule } from './types.js';
import { num, str } from './send-path.js';
import { BoundedSet, Span, someOf } from './consumer.js';
import { formatMs } from '../util/durations.js';
import { clockOf } from './routing.js';
import { plural } from '../util/text.js';

const MOMENT_GAP_MS = 2000;
/** The lock-failed events' `what`, in words (the catalogue's entries). */
const LOCK_WORDS: Record<string, string> = {
  'add-mq': 'not taken at a rebalance because the lock failed',
  lock: 'lock requests failed',
  'locked-by-other': 'refused by the broker: locked by another client',
  'not-locked': 'put off: not locked',
  'lock-expired': 'put off: lock expired',
  unlock: 'unlock requests failed',
  consuming: 'not unlocked while still consuming',
};
const REBALANCE_ACTIONS = new Set(['result', 'notified', 'add', 'remove', 'cancelled', 'changed']);

interface Group {
  name: string;
  /** Start times of the rebalances in the current window. */
  recent: number[];
  lastLine: number | null;
  rebalances: number;
  best: { count: number; from: number; to: number } | null;
  notified: number;
  added: number;
  removed: number;
  cids: Set<number>;
  firstRebalance: RmqEvent | null;
  locks: BoundedSet;
  lockLines: number;
  lockKinds: Map<string, number>;
  lockedBy: BoundedSet;
  firstLock: RmqEvent | null;
  comings: Array<{ ts: number | null; change: string }>;
  comingEv: RmqEvent | null;
  hosts: Set<string>;
  span: Span;
}

const rule: Rule = {
  meta: {
    id: 'rebalance-storm',
    title: 'Rebalance storm: a group whose queues keep moving; orderly queues not locked',
    severity: 'warning',
    description:
      "Per consumer group: rebalances (notifications of a changed group, changed results, queues added and dropped) coming faster than rebalanceStormCount in rebalanceStormWindowMs, with the consumer count (cidAllSize) and the consumers coming and going the broker logged; orderly queues whose lock on the broker failed.",
    versions: 'All Java consumers 4.x-5.x (RebalanceImpl, every 20 s and on the broker\'s notification); the C++ and Go clients\' lock failures where the catalogue reads them.',
    settings: {
      rebalanceStormCount: { default: 6, description: 'Rebalances (lines less than 2 s apart count once) within the window that make a storm', unit: 'count' },
      rebalanceStormWindowMs: { default: 300000, description: 'The window in which rebalanceStormCount rebalances make a storm', unit: 'ms' },
    },
    events: ['rebalance', 'lock-failed', 'consumer-changed', 'channel-closed', 'startup', 'shutdown'],
  },

  create(ctx) {
    const stormCount = Number(ctx.settings.rebalanceStormCount);
    const windowMs = Number(ctx.settings.rebalanceStormWindowMs);
    const groups = new Map<string, Group>();
    const groupNamed = (name: string): Group => {
      let g = groups.get(name);
      if (!g) {
        groups.set(
          name,
          (g = { name, recent: [], lastLine: null, rebalances: 0, best: null, notified: 0, added: 0, removed: 0, cids: new Set(), firstRebalance: null, locks: new BoundedSet(500), lockLines: 0, lockKinds: new Map(), lockedBy: new BoundedSet(20), firstLock: null, comings: [], comingEv: null, hosts: new Set(), span: new Span() }),
        );
      }
      return g;
    };

    const onRebalance = (e: RmqEvent) => {
      const action = str(e, 'action');
      if (!action || !REBALANCE_ACTIONS.has(action)) return;
      const g = groupNamed(str(e, 'group') ?? `(group not printed, ${e.host})`);
      g.hosts.add(e.host);
      g.span.add(e.ts);
      g.firstRebalance ??= e;
      if (action === 'notified') g.notified++;
      if (action === 'add') g.added++;
      if (action === 'remove' || action === 'cancelled') g.removed++;
      const cid = num(e, 'cidAllSize');
      if (cid !== null && g.cids.size < 50) g.cids.add(cid);
      if (e.ts === null) return;
      const fresh = g.lastLine === null || e.ts - g.lastLine > MOMENT_GAP_MS;
      g.lastLine = e.ts;
      if (!fresh) return;
      g.rebalances++;
      g.recent.push(e.ts);
      while (g.recent.length && g.recent[0] < e.ts - windowMs) g.recent.shift();
      if (g.recent.length >= stormCount && (!g.best || g.recent.length > g.best.count)) g.best = { count: g.recent.length, from: g.recent[0], to: e.ts };
    };

    const onLock = (e: RmqEvent) => {
      const g = groupNamed(str(e, 'group') ?? `(group not printed, ${e.host})`);
      g.hosts.add(e.host);
      g.span.add(e.ts);
      g.lockLines++;
      g.firstLock ??= e;
      const what = str(e, 'what') ?? 'lock';
      g.lockKinds.set(what, (g.lockKinds.get(what) ?? 0) + 1);
      const q = num(e, 'queueId');
      if (q !== null) g.locks.add(`${str(e, 'topic') ?? '?'}@${str(e, 'brokerName') ?? '?'}:${q}`);
      const other = what === 'locked-by-other' ? /OtherClientId: (\S+)|locked client id=([^,\s]+)/.exec(e.text) : null;
      if (other) g.lockedBy.add(other[1] ?? other[2]);
    };

    // A client that closed its channel to a broker after a call timed out (`invokeSync: close socket
    // because of timeout`, NettyRemotingClient 4.x): the broker then drops that instance from its book
    // of the group and notifies the others, and adds it back on the next connection.
    const timeoutCloses: Array<{ ts: number; host: string; addr: string | null; e: RmqEvent }> = [];
    const onClosed = (e: RmqEvent) => {
      if (e.kind !== 'client' || e.ts === null || str(e, 'reason') !== 'timeout' || timeoutCloses.length >= 5000) return;
      timeoutCloses.push({ ts: e.ts, host: e.host, addr: str(e, 'addr'), e });
    };

    // A broker's own boot and shutdown lines, and a consumer's start line: what else moves a group's
    // queues (its connections to the broker close and the route polled every 30 s loses its queues;
    // a started instance joins).
    const brokerStops: Array<{ ts: number; host: string; what: string; e: RmqEvent }> = [];
    const consumerStarts: Array<{ ts: number; host: string; group: string; e: RmqEvent }> = [];
    const onStartup = (e: RmqEvent) => {
      if (e.ts === null) return;
      const role = str(e, 'role');
      if (role === 'broker' && brokerStops.length < 1000) brokerStops.push({ ts: e.ts, host: e.host, what: e.type === 'shutdown' ? 'shut down' : 'booted', e });
      const group = str(e, 'group');
      if (role === 'consumer' && group && e.type === 'startup' && consumerStarts.length < 5000) consumerStarts.push({ ts: e.ts, host: e.host, group, e });
    };

    const onChanged = (e: RmqEvent) => {
      const name = str(e, 'group');
      const change = str(e, 'change');
      // A group's config created or updated (mqadmin updateSubGroup) starts no rebalance.
      if (!name || !change || change.startsWith('subscription') || change.startsWith('topic') || change === 'group-config') return;
      const g = groupNamed(name);
      if (g.comings.length < 1000) g.comings.push({ ts: e.ts, change });
      g.comingEv ??= e;
    };

    const report = (g: Group) => {
      const ex: string[] = [];
      const adv: string[] = [];
      const evidence: RmqEvent[] = [];
      const storm = g.best;
      let joins = 0;
      let leaves = 0;
      // The instances' channels closed after timeouts around the storm (from a minute before it).
      const closes = storm ? timeoutCloses.filter((c) => g.hosts.has(c.host) && c.ts >= storm.from - 60000 && c.ts <= storm.to) : [];
      if (storm) {
        for (const c of g.comings) {
          if (c.ts === null || c.ts < storm.from - 60000 || c.ts > storm.to) continue;
          if (c.change === 'connected') joins++;
          else leaves++;
        }
        const cids = [...g.cids].sort((a, b) => a - b);
        ex.push(
          `Group ${g.name} rebalanced ${plural(storm.count, 'time')} in ${formatMs(storm.to - storm.from)} (${plural(g.rebalances, 'rebalance')} in all${g.notified ? `, ${plural(g.notified, "broker's notification")} that the group changed` : ''}${g.added + g.removed ? `; ${plural(g.added, 'queue')} taken, ${plural(g.removed, 'queue')} dropped` : ''}${cids.length > 1 ? `; the consumer count went between ${cids[0]} and ${cids[cids.length - 1]} (cidAllSize)` : ''}).`,
        );
        ex.push(
          'Each rebalance moves queues between the instances: the new owner starts at the committed offset (committed every 5 s), so messages consumed and not yet committed are delivered again, and a queue is consumed by no one between its release and its next pull.',
        );
        const inStorm = (ts: number) => ts >= storm.from - 60000 && ts <= storm.to;
        const closedTo = [...new Set(closes.map((c) => c.addr ?? 'a broker'))].sort();
        // A broker's boot before the group's first rebalance is the cluster starting, not a change under
        // it; one stop logs its shutdown hook twice (invoked, over): one per host and kind a minute.
        const running = g.firstRebalance?.ts ?? storm.from;
        const servers: typeof brokerStops = [];
        for (const b of brokerStops) {
          if (b.ts > running && b.ts <= storm.to && !servers.some((x) => x.host === b.host && x.what === b.what && b.ts - x.ts < 60000)) servers.push(b);
        }
        const starts = consumerStarts.filter((c) => c.group === g.name && inStorm(c.ts));
        const book = joins || leaves ? `the brokers logged ${plural(joins, 'connection')} and ${plural(leaves, 'channel')} closed, expired or unregistered` : '';
        const told: string[] = [];
        if (closes.length) {
          told.push(
            `The group's instances closed their connection to ${someOf(closedTo)} ${plural(closes.length, 'time')} meanwhile after calls timed out (\`close socket because of timeout\` on ${someOf([...new Set(closes.map((c) => c.host))].sort())}): each close drops the instance from that broker's book of the group and the next connection adds it back, and the broker notifies the group both times. A broker that does not answer is a trigger here.`,
          );
          adv.push(`Look at ${someOf(closedTo)} first: the instances' calls to it timed out, and every reconnection moves the group's queues again.`);
          evidence.push(closes[0].e);
        }
        if (servers.length) {
          const said = [...new Set(servers.map((b) => `${b.host} ${b.what} at ${clockOf(b.e)}`))];
          // Only what the broker's lines show: a shutdown unregisters it (BrokerController.shutdown ->
          // unregisterBrokerAll, 4.x-5.x) and closes its channels; a boot registers it.
          const stopped = servers.some((b) => b.what === 'shut down');
          const booted = servers.some((b) => b.what === 'booted');
          const moved = stopped && booted
            ? "the instances' connections to it closed and came back, and the route they poll every 30 s lost and regained its queues"
            : stopped
              ? "the instances' connections to it closed, and the route they poll every 30 s lost its queues"
              : 'the route the instances poll every 30 s gained its queues';
          told.push(`A broker ${stopped && booted ? 'stopped and started' : stopped ? 'stopped' : 'started'} meanwhile (${someOf(said)}): ${moved}; ${stopped ? 'each of those is' : 'that is'} a rebalance.`);
          adv.push("A broker's restart moves the group's queues when it leaves the route and again when it comes back: expected around a planned restart; make sure the other brokers serve the topic meanwhile.");
          evidence.push(servers[0].e);
        }
        if (starts.length) {
          const startedOn = [...new Set(starts.map((c) => c.host))].sort();
          const who = startedOn.length === starts.length ? `${plural(starts.length, 'instance')} of the group started` : `Instances of the group started ${plural(starts.length, 'time')}`;
          told.push(`${who} meanwhile (on ${someOf(startedOn)}, their client logs' start lines): each start is a join.`);
          adv.push('Instances that start one after another (a deploy, a scale-out) each move the queues: expected during a rolling deploy; if the starts were not planned, find why the instances restarted.');
          evidence.push(starts[0].e);
        }
        if (told.length) ex.push(...told, ...(book ? [`Meanwhile ${book}.`] : []));
        else if (joins || leaves) {
          ex.push(`The broker logged consumers of the group coming and going meanwhile: ${plural(joins, 'connection')}, ${plural(leaves, 'channel')} closed, expired or unregistered: instances restarting or losing their connection are the trigger.`);
          adv.push('Find why the instances come and go (restarts, crashes, a container probe, heartbeats lost for 120 s): every join and leave moves the whole group\'s queues.');
          if (g.comingEv) evidence.push(g.comingEv);
        } else adv.push('The logs read do not show what changed the group: the brokers\' broker.log (`new consumer connected`, `remove not active channel`) would tell consumers coming and going.');
        if (g.firstRebalance) evidence.push(g.firstRebalance);
        adv.push('Make the listener idempotent: rebalances deliver messages again.');
      }
      if (g.lockLines) {
        const kinds = [...g.lockKinds.entries()].map(([k, n]) => `${n} ${LOCK_WORDS[k] ?? k}`).join(', ');
        ex.push(
          `${plural(g.locks.size, 'orderly queue')} of ${g.name} went without their lock (${kinds})${g.locks.size ? `: ${someOf(g.locks.items)}` : ''}. An orderly consumer consumes a queue only while it holds the broker's lock; a queue it could not lock at a rebalance is consumed by no one until a later rebalance (every 20 s) gets it.`,
        );
        if (g.lockedBy.size) ex.push(`The broker said another client holds the lock: ${someOf(g.lockedBy.items)}; a lock lives 60 s after its owner stops renewing it (a stopped instance keeps its queues that long).`);
        adv.push('If the lock failures last beyond a minute, check that the previous owner stopped cleanly (its shutdown unlocks its queues) and that each broker of the topic answers the lock requests.');
        if (g.firstLock) evidence.push(g.firstLock);
      }
      const metrics: Record<string, MetricValue> = {
        rebalances: g.rebalances,
        stormRebalances: storm?.count ?? 0,
        stormMs: storm ? storm.to - storm.from : null,
        notified: g.notified,
        queuesAdded: g.added,
        queuesDropped: g.removed,
        cidAllSize: [...g.cids].sort((a, b) => a - b).map(String),
        joins,
        leaves,
        timeoutCloses: closes.length,
        lockFailures: g.lockLines,
        queuesNotLocked: g.locks.size,
      };
      ctx.report({
        title: storm
          ? `Group ${g.name}: rebalance storm, ${plural(storm.count, 'rebalance')} in ${formatMs(storm.to - storm.from)}${g.lockLines ? `, ${plural(g.locks.size, 'queue')} not locked` : ''}`
          : `Group ${g.name}: ${plural(g.locks.size, 'orderly queue')} not locked (${plural(g.lockLines, 'lock failure')})`,
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
      rebalance: onRebalance,
      'lock-failed': onLock,
      'consumer-changed': onChanged,
      'channel-closed': onClosed,
      startup: onStartup,
      shutdown: onStartup,
      end() {
        // A client's lock lines that print no group (the C++ client's) belong to the one group its other lines name.
        for (const [key, g] of groups) {
          if (!key.startsWith('(group not printed, ') || !g.lockLines) continue;
          const host = key.slice('(group not printed, '.length, -1);
          const named = [...groups.values()].filter((x) => !x.name.startsWith('(') && x.hosts.has(host));
          if (named.length !== 1) continue;
          const into = named[0];
          into.lockLines += g.lockLines;
          for (const q of g.locks.items) into.locks.add(q);
          for (const [k, n] of g.lockKinds) into.lockKinds.set(k, (into.lockKinds.get(k) ?? 0) + n);
          for (const c of g.lockedBy.items) into.lockedBy.add(c);
          into.span.add(g.span.first);
          into.span.add(g.span.last);
          g.lockLines = 0;
        }
        for (const g of groups.values()) if (g.best || g.lockLines) report(g);
      },
    };
  },
};

export default rule;
