// lab.json's truth about consumers, from the lab's own side files (never from the logs): every
// message each instance's listener was handed and what came of it, the queues each instance held,
// the group's lag sampled by the release's admin tool, and its dead-letter topic counted by it.
// docs/lab.md ("lab.json") documents the shape.
import type { InstanceRun, LagSample } from './consumers.js';
import { consumers, grpcEndpoints, isGrpc, namesrvAddr, type ConsumerProcess, type Scenario } from './scenario.js';

/** One hand-over of a message to the listener, as LabConsumer writes it (consumed.tsv). */
export interface Delivery {
  at: number;
  host: string;
  msgId: string;
  topic: string;
  /** brokerName:queueId the message was pulled from (a retried one: its retry queue). */
  queue: string;
  queueOffset: number;
  reconsumeTimes: number;
  result: 'ok' | 'later' | 'suspend' | 'exception';
  keys: string;
}

export interface ConsumerSide {
  runs: Map<string, InstanceRun[]>;
  lag: Map<string, LagSample[]>;
  /** Messages in %DLQ%<group> by `mqadmin topicStatus` at the end (null: no such topic). */
  dlq: Map<string, number | null>;
  /** Per host: the consumed.tsv and queues.tsv rows. */
  side: Map<string, { consumed: string[]; queues: string[] }>;
}

/** A message sent by a lab producer: its msgId and topic, for "never consumed". */
export interface SentMessage {
  msgId: string;
  topic: string;
  tag: string;
  /** When the send returned (epoch ms). */
  at: number;
}

/** Messages sent this close to the end of a recording may still be on their way to a listener when the logs are collected. */
export const IN_FLIGHT_MS = 10_000;

/** DefaultMQPushConsumer.maxReconsumeTimes: -1 means 16 for a concurrent listener (4.x and 5.x). */
export const DEFAULT_MAX_RECONSUME_TIMES = 16;

export function parseDeliveries(host: string, rows: string[]): Delivery[] {
  return rows.map((r) => {
    const [at, msgId, topic, queue, offset, times, result, keys] = r.split('\t');
    return { at: Number(at), host, msgId, topic, queue, queueOffset: Number(offset), reconsumeTimes: Number(times), result: result as Delivery['result'], keys: keys ?? '' };
  });
}

function parseQueues(rows: string[], iso: (t: number) => string): { at: string; queues: string[] }[] {
  return rows.map((r) => {
    const [at, list] = r.split('\t');
    return { at: iso(Number(at)), queues: list ? list.split(',') : [] };
  });
}

const failedResult = (d: Delivery) => d.result !== 'ok';

/** Counts over a set of deliveries (one instance's, or a group's). */
function counts(ds: Delivery[]) {
  const ok = new Map<string, number>();
  for (const d of ds) if (d.result === 'ok') ok.set(d.msgId, (ok.get(d.msgId) ?? 0) + 1);
  const failedBy: Record<string, number> = {};
  for (const d of ds.filter(failedResult)) failedBy[d.result] = (failedBy[d.result] ?? 0) + 1;
  return {
    /** Every hand-over to the listener. */
    deliveries: ds.length,
    /** Distinct messages handed over. */
    received: new Set(ds.map((d) => d.msgId)).size,
    /** Distinct messages the listener consumed OK. */
    consumed: ok.size,
    /** Hand-overs that did not end OK (RECONSUME_LATER, SUSPEND_CURRENT_QUEUE_A_MOMENT, an exception). */
    failed: ds.filter(failedResult).length,
    failedByResult: failedBy,
    /** Distinct messages handed over again by the client's retry (reconsumeTimes > 0). */
    retried: new Set(ds.filter((d) => d.reconsumeTimes > 0).map((d) => d.msgId)).size,
    /** Distinct messages consumed OK more than once, and the extra OK hand-overs. */
    duplicates: [...ok.values()].filter((n) => n > 1).length,
    duplicateDeliveries: [...ok.values()].reduce((a, n) => a + Math.max(0, n - 1), 0),
  };
}

/**
 * Messages that went to the dead-letter topic by the deliveries: the last hand-over failed with
 * reconsumeTimes at maxReconsumeTimes, and no later one was OK (the broker's consumerSendMsgBack
 * puts a message whose reconsumeTimes reached the group's maximum into %DLQ%<group>).
 */
function dlqByDeliveries(ds: Delivery[], maxReconsume: number): string[] {
  const byMsg = new Map<string, Delivery[]>();
  for (const d of ds) byMsg.set(d.msgId, [...(byMsg.get(d.msgId) ?? []), d]);
  const out: string[] = [];
  for (const [id, list] of byMsg) {
    if (list.some((d) => d.result === 'ok')) continue;
    const last = list.reduce((a, b) => (b.reconsumeTimes >= a.reconsumeTimes ? b : a));
    if (failedResult(last) && last.reconsumeTimes >= maxReconsume) out.push(id);
  }
  return out.sort();
}

/**
 * How an instance reaches the cluster: a remoting consumer's NameServers (the scenario's namesrvHosts,
 * or all); a gRPC consumer's client (rocketmq-client-java) and endpoints (its proxy's gRPC address).
 */
function consumerClient(s: Scenario, p: ConsumerProcess) {
  if (isGrpc(p)) return { client: 'rocketmq-client-java', endpoints: grpcEndpoints(s, p) };
  return { namesrvAddrs: namesrvAddr(s, p.namesrvHosts).split(';') };
}

/**
 * The settings the scenario gave (null: the client's default). A gRPC consumer's maxReconsumeTimes is
 * its group's retryMaxTimes (set with mqadmin updateSubGroup), which the proxy gives it as maxAttempts - 1.
 */
interface ConsumerSettings {
  consumeThreadMin?: number | null;
  consumeThreadMax?: number | null;
  pullBatchSize?: number | null;
  pullThresholdForQueue?: number | null;
  consumeFromWhere?: string | null;
  consumptionThreadCount?: number | null;
  maxCacheMessageCount?: number | null;
  maxReconsumeTimes: number | null;
  [setting: string]: string | number | boolean | null | undefined;
}

function consumerSettings(p: ConsumerProcess): ConsumerSettings {
  if (isGrpc(p)) {
    return {
      consumptionThreadCount: p.consumptionThreadCount ?? null,
      ...(p.mode === 'grpcSimple'
        ? { receiveBatchSize: p.receiveBatchSize ?? null, invisibleSeconds: p.invisibleSeconds ?? null, awaitSeconds: p.awaitSeconds ?? null }
        : { maxCacheMessageCount: p.maxCacheMessageCount ?? null }),
      maxReconsumeTimes: p.maxReconsumeTimes ?? null,
      ...(p.settings ?? {}),
    };
  }
  return {
    consumeThreadMin: p.consumeThreadMin ?? null,
    consumeThreadMax: p.consumeThreadMax ?? null,
    pullBatchSize: p.pullBatchSize ?? null,
    pullThresholdForQueue: p.pullThresholdForQueue ?? null,
    maxReconsumeTimes: p.maxReconsumeTimes ?? null,
    consumeFromWhere: p.consumeFromWhere ?? null,
    ...(p.settings ?? {}),
  };
}

export function consumerTruth(s: Scenario, side: ConsumerSide, sent: SentMessage[], iso: (t: number) => string, endedAt: number) {
  const deliveries = new Map<string, Delivery[]>();
  for (const { host } of consumers(s)) deliveries.set(host.name, parseDeliveries(host.name, side.side.get(host.name)?.consumed ?? []));
  const window = (ds: Delivery[]) => ({ firstDelivery: ds.length ? iso(ds[0].at) : null, lastDelivery: ds.length ? iso(ds[ds.length - 1].at) : null });
  const instances = consumers(s).map(({ host, consumer: p }) => {
    const ds = deliveries.get(host.name)!;
    return {
      host: host.name,
      version: p.version,
      group: p.group,
      topic: p.topic,
      subscription: p.subscription ?? '*',
      ...consumerClient(s, p),
      messageModel: p.messageModel ?? 'CLUSTERING',
      mode: p.mode ?? 'concurrently',
      settings: consumerSettings(p),
      listener: p.listener ?? {},
      schedule: p.schedule ?? [],
      runs: (side.runs.get(host.name) ?? []).map((r) => ({ start: iso(r.start), end: r.end === null ? null : iso(r.end), ended: r.ended, subscription: r.subscription })),
      ...counts(ds),
      ...window(ds),
      queues: parseQueues(side.side.get(host.name)?.queues ?? [], iso),
    };
  });
  const groups = [...new Set(consumers(s).map((c) => c.consumer.group))].map((group) => {
    const members = consumers(s).filter((c) => c.consumer.group === group);
    const topic = members[0].consumer.topic;
    const ds = members.flatMap((m) => deliveries.get(m.host.name)!).sort((a, b) => a.at - b.at);
    const max = members.map((m) => m.consumer.maxReconsumeTimes).find((x) => x !== undefined && x >= 0) ?? DEFAULT_MAX_RECONSUME_TIMES;
    const consumedOk = new Set(ds.filter((d) => d.result === 'ok').map((d) => d.msgId));
    const sentHere = sent.filter((m) => m.topic === topic);
    // BROADCASTING (DefaultMQPushConsumer's messageModel): every instance consumes every message
    // (RebalanceImpl gives each all the queues, offsets in a local file), so a message is consumed
    // only when each instance consumed it, and two instances consuming it is no duplicate.
    const broadcasting = members.some((m) => m.consumer.messageModel === 'BROADCASTING');
    const okBy = members.map((m) => new Set(deliveries.get(m.host.name)!.filter((d) => d.result === 'ok').map((d) => d.msgId)));
    const never = sentHere.filter((m) => (broadcasting ? okBy.some((ok) => !ok.has(m.msgId)) : !consumedOk.has(m.msgId)));
    const sentIds = new Set(sentHere.map((m) => m.msgId));
    const groupCounts = counts(ds);
    if (broadcasting) {
      const each = members.map((m) => counts(deliveries.get(m.host.name)!));
      groupCounts.duplicates = each.reduce((a, c) => a + c.duplicates, 0);
      groupCounts.duplicateDeliveries = each.reduce((a, c) => a + c.duplicateDeliveries, 0);
    }
    const dlq = dlqByDeliveries(ds, max);
    const lag = side.lag.get(group) ?? [];
    const peak = lag.reduce<LagSample | null>((a, x) => (x.error === undefined && (!a || x.total > a.total) ? x : a), null);
    return {
      group,
      topic,
      instances: members.map((m) => m.host.name),
      maxReconsumeTimes: max,
      messageModel: broadcasting ? 'BROADCASTING' : 'CLUSTERING',
      /** Messages the lab's producers sent OK to the topic. */
      sent: sentHere.length,
      /** BROADCASTING: duplicates are an instance's own; `consumed` counts a message consumed by any instance. */
      ...groupCounts,
      /**
       * Of `consumed`, messages no send of the lab's producers returned OK for: sends the
       * application saw fail (its timeout ran out) though the broker stored the message, e.g. a
       * hung broker that wrote it when it ran again. consumed - this + neverConsumed.count = sent.
       */
      consumedOfFailedSends: [...consumedOk].filter((id) => !sentIds.has(id)).length,
      ...window(ds),
      dlq: { byAdminTool: side.dlq.get(group) ?? null, byDeliveries: dlq.length, msgIds: dlq.slice(0, 50) },
      /** Sent OK by the lab's producers, never consumed OK by an instance of the group (by tag, and the first msgIds). */
      neverConsumed: {
        count: never.length,
        /** Of those, sent in the last IN_FLIGHT_MS before the end: possibly still on their way. */
        sentInLast10s: never.filter((m) => m.at >= endedAt - IN_FLIGHT_MS).length,
        byTag: never.reduce<Record<string, number>>((a, m) => ((a[m.tag] = (a[m.tag] ?? 0) + 1), a), {}),
        msgIds: never.slice(0, 50).map((m) => m.msgId),
        /** BROADCASTING: messages each instance did not consume OK (a group's `count` is those some instance missed). */
        ...(broadcasting ? { byInstance: Object.fromEntries(members.map((m, i) => [m.host.name, sentHere.filter((x) => !okBy[i].has(x.msgId)).length])) } : {}),
      },
      maxLag: peak ? { at: iso(peak.at), total: peak.total } : null,
      lag: lag.map((x) => ({ at: iso(x.at), ...(x.done !== undefined ? { done: iso(x.done) } : {}), total: x.total, retry: x.retry, queues: x.queues, ...(x.error ? { error: x.error } : {}) })),
    };
  });
  return { consumers: instances, groups };
}
