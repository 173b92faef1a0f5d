// A burst of consume failures of 5.x gRPC SimpleConsumers, as the broker alone shows it.
//
// rocketmq-client-java's SimpleConsumerImpl (5.0.x) logs no failure: the application receives
// (receive(maxMessageNum, invisibleDuration)), handles and acknowledges; a message it does not
// acknowledge comes back once its invisible time is over. The broker's pop revive (PopReviveService,
// RocketMQ 5.x: reviveRetry) puts such a message back into the group's pop retry topic
// %RETRY%<group>_<topic> (KeyBuilder.buildPopRetryTopic; %RETRY%<group>+<topic> with
// enableRetryTopicV2), counting each put in its stats (`TOPIC_PUT_NUMS [%RETRY%<group>_<topic>]`,
// stats.log, per minute); its first put creates that topic (`create new topic [TopicConfig
// [topicName=%RETRY%...` in broker.log, thread PopReviveService_N). The proxy moves a message
// received past its attempts (the group's retryMaxTimes + 1: GrpcClientSettingsManager, 5.x) to the
// DLQ (ConsumerProcessor.popMessage, PopMessageResultFilterImpl: `send msg to DLQ %DLQ%<group>, ...
// originalTopic=%RETRY%<group>_<topic>` in broker_default.log).
//
// So: a group whose instances started as SimpleConsumers (`Begin to start the rocketmq simple
// consumer, clientId=C` on the host; the broker's `new consumer connected, group: G ... clientId=C`)
// and whose pop retry topic took at least `min` puts in a run of stats minutes, at `ratePerS` on
// average, had that many deliveries not acknowledged within their invisible time: a burst of
// failures. Its start: the revive that created the retry topic, less the proxy's
// minInvisibleTimeMillsForRecv (a delivery is revived no sooner than that after its receive), else
// the start of the first stats minute with puts; its end is not in the logs (the puts are per minute,
// and the last failures are revived an invisible time later). Which instance failed which delivery
// is not in the logs either.

import type { EventType, RmqEvent } from '../parse/types.js';
import type { Cause } from '../rules/incident.js';
import { PROXY_DEFAULTS } from '../rocketmq/facts.js';
import { plural } from '../util/text.js';

const RETRY = '%RETRY%';
const DLQ = '%DLQ%';
const MINUTE_MS = 60_000;
/** Stats lines of one minute a little late still follow each other: a longer gap ends a run. */
const RUN_GAP_MS = 90_000;
const KEPT = 5000;

export const SIMPLE_CONSUMER_TYPES: ReadonlySet<EventType> = new Set<EventType>(['startup', 'consumer-changed', 'stats', 'send-to-dlq', 'pop-revive']);

interface Seen {
  ts: number;
  ref: string;
}

interface Minute extends Seen {
  sum: number;
}

export interface SimpleConsumerCauses {
  visit(e: RmqEvent): void;
  /** The causes of groups not in `logged` (groups whose clients logged failures themselves). */
  finish(logged: ReadonlySet<string>, burst: { min: number; ratePerS: number }): Cause[];
}

const ref = (e: Pick<RmqEvent, 'file' | 'line'>) => `${e.file}:${e.line}`;

/** Stats minutes in runs, in time order: a gap of more than RUN_GAP_MS between two ends a run. */
export function minuteRuns<T extends { ts: number }>(minutes: Iterable<T>): T[][] {
  const runs: T[][] = [];
  for (const m of [...minutes].sort((a, b) => a.ts - b.ts)) {
    const run = runs[runs.length - 1];
    if (run && m.ts - run[run.length - 1].ts <= RUN_GAP_MS) run.push(m);
    else runs.push([m]);
  }
  return runs;
}

/** The group a pop retry topic is of: %RETRY%<group>_<topic> or %RETRY%<group>+<topic>. */
export function isPopRetryOf(topic: string, group: string): boolean {
  return topic.startsWith(`${RETRY}${group}_`) || topic.startsWith(`${RETRY}${group}+`);
}

export function simpleConsumerCauses(): SimpleConsumerCauses {
  /** A SimpleConsumer's client id (its start line) and its host. */
  const simple = new Map<string, string>();
  /** Per group: the client ids the broker connected. */
  const connected = new Map<string, Set<string>>();
  /** Pop retry topics and their group (from the group stats' keys `%RETRY%G_T@G` and the DLQ lines). */
  const popRetry = new Map<string, string>();
  /** Per retry topic: its puts per stats minute. */
  const puts = new Map<string, Minute[]>();
  /** Per retry topic: the pop revive's creation of it. */
  const created = new Map<string, Seen>();
  /** Per group: the messages the proxy stored in its DLQ from its pop retry topic. */
  const dlq = new Map<string, Seen[]>();

  const visit = (e: RmqEvent): void => {
    if (e.ts === null) return;
    const f = e.fields as Record<string, unknown>;
    if (e.type === 'startup' && e.kind === 'client' && e.entry === 'startup/grpc-simple-consumer') {
      const id = /clientId=([^,\s]+)/.exec(e.text)?.[1];
      if (id && simple.size < KEPT) simple.set(id, e.host);
    } else if (e.type === 'consumer-changed' && e.kind === 'broker' && f.change === 'connected' && typeof f.group === 'string' && typeof f.clientId === 'string') {
      const ids = connected.get(f.group) ?? new Set<string>();
      if (ids.size < KEPT) ids.add(f.clientId);
      connected.set(f.group, ids);
    } else if (e.type === 'stats' && f.window === 'minute' && typeof f.key === 'string' && typeof f.sum === 'number') {
      const key = f.key;
      const at = key.lastIndexOf('@');
      if (f.stat === 'TOPIC_PUT_NUMS' && key.startsWith(RETRY) && at < 0) {
        const list = puts.get(key) ?? [];
        if (list.length < KEPT) list.push({ ts: e.ts, ref: ref(e), sum: f.sum });
        puts.set(key, list);
      } else if (at > 0 && key.startsWith(RETRY) && isPopRetryOf(key.slice(0, at), key.slice(at + 1)) && popRetry.size < KEPT) {
        popRetry.set(key.slice(0, at), key.slice(at + 1));
      }
    } else if (e.type === 'send-to-dlq' && e.kind === 'broker' && f.stored === true && typeof f.group === 'string' && typeof f.topic === 'string' && isPopRetryOf(f.topic, f.group)) {
      if (popRetry.size < KEPT) popRetry.set(f.topic, f.group);
      const list = dlq.get(f.group) ?? [];
      if (list.length < KEPT) list.push({ ts: e.ts, ref: ref(e) });
      dlq.set(f.group, list);
    } else if (e.type === 'pop-revive' && e.kind === 'broker' && typeof f.retryTopic === 'string' && (e.thread ?? '').startsWith('PopReviveService')) {
      if (!created.has(f.retryTopic) && created.size < KEPT) created.set(f.retryTopic, { ts: e.ts, ref: ref(e) });
    }
  };

  const finish = (logged: ReadonlySet<string>, burst: { min: number; ratePerS: number }): Cause[] => {
    const out: Cause[] = [];
    for (const [topic, group] of popRetry) {
      if (logged.has(group)) continue;
      const hosts = [...new Set([...(connected.get(group) ?? [])].map((id) => simple.get(id)).filter((h): h is string => h !== undefined))].sort();
      if (!hosts.length) continue;
      for (const r of minuteRuns(puts.get(topic) ?? [])) {
        const sum = r.reduce((n, m) => n + m.sum, 0);
        const from = r[0].ts - MINUTE_MS;
        const to = r[r.length - 1].ts;
        if (sum < burst.min || sum / ((to - from) / 1000) < burst.ratePerS) continue;
        const made = created.get(topic);
        const madeIn = made !== undefined && made.ts > from - 5000 && made.ts <= r[0].ts ? made : null;
        const moved = (dlq.get(group) ?? []).filter((d) => d.ts > from && d.ts <= to + MINUTE_MS);
        const min = PROXY_DEFAULTS.minInvisibleTimeMillsForRecv / 1000;
        out.push({
          host: hosts[0],
          group,
          namesrvAddrs: [],
          brokers: [],
          kind: 'consume-failures',
          simpleConsumer: true,
          start: madeIn ? madeIn.ts - PROXY_DEFAULTS.minInvisibleTimeMillsForRecv : from,
          end: null,
          recognisedBy:
            `the broker's pop revive put ${plural(sum, 'delivery', 'deliveries')} of group ${group} back into ${topic} (stats.log TOPIC_PUT_NUMS, ${plural(r.length, 'minute')}): ` +
            `each a message received and not acknowledged within its invisible time` +
            `${moved.length ? `, and the proxy moved ${plural(moved.length, 'message')} past their attempts on to ${DLQ}${group} (\`send msg to DLQ\`)` : ''}; ` +
            `the group's instances are 5.x gRPC SimpleConsumers (\`Begin to start the rocketmq simple consumer\`), which log no failure`,
          evidence: [...(madeIn ? [madeIn.ref] : []), r[0].ref, ...(moved.length ? [moved[0].ref, moved[moved.length - 1].ref] : [])].filter((x, i, a) => a.indexOf(x) === i),
          detail:
            `on ${hosts.join(', ')} (which instance failed which delivery is not in the logs); ` +
            (madeIn
              ? `the first was received by this start at the latest: the pop revive's creation of ${topic} less the proxy's minInvisibleTimeMillsForRecv (${min} s by default), the shortest invisible time it takes`
              : `from the first stats minute with puts (when the first was received is not in the logs)`) +
            '; the end is not in the logs',
        });
      }
    }
    return out;
  };

  return { visit, finish };
}
