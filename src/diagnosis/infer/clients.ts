// The producers of the scenario, one per host with a rocketmq_client.log: version, address, the
// NameServer list and the one it was bound to, group and topic, settings, start, send rate or every
// send's time, first send, and whether it sends through a MessageQueueSelector.

import { clientProfile, LIMITS, type RateStep, type ScenarioClient, type ScenarioTopic } from '../../model/index.js';
import { CLIENT, CLIENT_DEFAULTS, isSendCallbackThread } from '../../rocketmq/facts.js';
import { pickVersion, versionAtLeast } from '../../rocketmq/versions.js';
import type { RmqEvent } from '../../parse/types.js';
import { clientVersionOf } from '../../rules/versions.js';
import { sendBudgetSeen } from '../../rules/routing.js';
import type { Collected } from '../collect.js';
import { isAppFailure } from '../../parse/send-failure.js';
import { isSendCallbackClass } from '../../parse/record.js';
import { writableAfter } from '../../parse/route-change.js';
import { failuresOf } from '../observe.js';
import { fileRef, mod, round2, type InferContext } from './context.js';
import type { HostsResult } from './hosts.js';
import type { SharedRate } from './rates.js';
import type { ServersResult } from './servers.js';
import { inferSendThreads } from './threads.js';

const DEFAULT_CLIENT_VERSION = '4.9.8';
const DEFAULT_RATE = 1;
const DEFAULT_TOPIC = 'TopicTest';

type Settings = NonNullable<ScenarioClient['settings']>;
type Sends = NonNullable<ReturnType<Collected['appSends']['get']>>;

interface ClientsResult {
  clients: ScenarioClient[];
  /** The servers' topics, and after them the ones a client sent to with no route in the logs. */
  topics: ScenarioTopic[];
  /** The topics whose stored rate was shared equally among 2 or more clients (infer/rates.ts reads them again once the faults are known). */
  shared: SharedRate[];
}

/** What a client's inference reads of the earlier stages. */
interface Known {
  hosts: HostsResult;
  brokers: ServersResult['brokers'];
  topics: ScenarioTopic[];
}

export function inferClients(ctx: InferContext, hosts: HostsResult, servers: Pick<ServersResult, 'brokers' | 'topics'>, consumersOnly: ReadonlySet<string> = new Set()): ClientsResult {
  const known: Known = { hosts, brokers: servers.brokers, topics: [...servers.topics] };
  /** Clients whose rate is their topic's stored rate: shared once every client's topic is known. */
  const sharedRates: Array<{ client: ScenarioClient; path: string; minuteEnd: number }> = [];
  const clients: ScenarioClient[] = [];
  for (const host of ctx.clientHosts) {
    // A host whose client log starts consumers and no producer of its own sends nothing (infer/consumers.ts).
    if (consumersOnly.has(host)) continue;
    const p = `scenario.clients[${clients.length}]`;
    const { client, sharedRate } = inferClient(ctx, known, host, p);
    if (sharedRate) sharedRates.push({ client, path: `${p}.sendRatePerSec`, minuteEnd: sharedRate.minuteEnd });
    clients.push(client);
  }
  const shared: SharedRate[] = [];
  for (const { client, path, minuteEnd } of sharedRates) {
    const n = clients.filter((x) => x.topic === client.topic).length;
    const total = client.sendRatePerSec;
    if (n > 1) {
      let s = shared.find((x) => x.topic === client.topic);
      if (!s) shared.push((s = { topic: client.topic, total, minuteEnd, clients: [] }));
      s.clients.push(clients.indexOf(client));
    }
    client.sendRatePerSec = round2(total / n);
    if (client.sendRateSteps) client.sendRateSteps = client.sendRateSteps.map((s) => ({ atMs: s.atMs, perSec: round2(s.perSec / n) }));
    if (n > 1) {
      ctx.provenance[path].rule += `, shared by the ${n} clients sending to it`;
      // No line splits a topic's stored messages by producer (stats.log counts a topic's puts, not a
      // group's: BrokerStatsManager TOPIC_PUT_NUMS): each producer's own rate is not in the logs.
      ctx.def(path, `${client.sendRatePerSec} (an equal share of the ${round2(total)}/s of ${client.topic} its masters stored: no line splits a topic's sends by producer)`);
    }
  }
  clients.forEach((client, i) => {
    const mine = ctx.events.filter((e) => e.host === client.host);
    inferSelector(ctx, known, client, `scenario.clients[${i}]`, mine, client.sendRatePerSec);
    inferSendThreads(ctx, client, mine, `scenario.clients[${i}]`);
  });
  selectorsFromStoredCounts(ctx, known, clients);
  return { clients, topics: known.topics, shared };
}

/** One client; `sharedRate`: its rate is its topic's stored rate, to be shared with the topic's other clients. */
function inferClient(ctx: InferContext, known: Known, host: string, p: string): { client: ScenarioClient; sharedRate: { minuteEnd: number } | null } {
  const { prov, def } = ctx;
  const mine = ctx.events.filter((e) => e.host === host);
  const cl = mine.filter((e) => e.kind === 'client');
  prov(`${p}.host`, 'the folder of this rocketmq_client.log', [fileRef(ctx.c.sources.find((s) => s.host === host && s.kind === 'client')!.path)]);
  const client: ScenarioClient = { host, version: clientVersion(ctx, host, cl, p), topic: '', sendRatePerSec: 0 };

  const ip = known.hosts.hostIp.get(host);
  if (ip) {
    client.ip = ip.value;
    prov(`${p}.ip`, ip.rule, ip.events);
  } else def(`${p}.ip`, 'a 10.250.x.y address (not in the logs)');

  const ns = clientNameServers(ctx, cl, p, known.hosts.nsAddrs);
  if (ns.namesrvAddrList) client.namesrvAddrList = ns.namesrvAddrList;
  if (ns.namesrv) client.namesrv = ns.namesrv;

  const producer = cl.find((e) => e.type === 'startup' && e.fields.role === 'producer' && e.fields.group !== 'CLIENT_INNER_PRODUCER' && typeof e.fields.group === 'string');
  if (producer) {
    client.group = producer.fields.group as string;
    prov(`${p}.group`, 'the producer start line', [producer]);
  } else def(`${p}.group`, 'PID_<HOST> (no producer start line)');
  client.topic = clientTopic(ctx, mine, p, known.topics);

  const attempts = attemptsSeen(mine);
  const settings = clientSettings(ctx, host, cl, attempts, p, client.version);
  if (Object.keys(settings).length) client.settings = settings;
  const async = attempts.async;
  if (async) {
    client.async = true;
    ctx.prov(
      `${p}.async`,
      async.kind === 'client'
        ? async.type === 'send-async-retry'
          ? "the client retried a send through MQClientAPIImpl.onExceptionImpl (`async send msg by retry`), which only an asynchronous send (send(msg, SendCallback)) goes through"
          : "a request the client removed on timeout was given sendMessageAsync's InvokeCallback (`remove timeout request, ... invokeCallback=...MQClientAPIImpl$1`): an asynchronous send (send(msg, SendCallback))"
        : async.sendPath === 'async'
          ? "failed sends whose stack trace is MQClientAPIImpl's InvokeCallback: an asynchronous send's SendCallback got them (send(msg, SendCallback))"
          : `failed sends the application caught on ${async.thread}, a thread of RocketMQ's that runs an asynchronous send's SendCallback (send(msg, SendCallback))`,
      [async],
    );
  } else ctx.def(`${p}.async`, 'false (no failed send came through a SendCallback)');

  const start = clientStart(ctx, cl, p, settings);
  if (start.startAtMs !== undefined) client.startAtMs = start.startAtMs;

  const sends = ctx.c.appSends.get(host);
  const rate = sendRate(ctx, known, host, mine, p, client.topic);
  client.sendRatePerSec = rate.rate;
  if (rate.steps) client.sendRateSteps = rate.steps;
  // The application's own send lines give every send's time: replay them as they happened.
  if (sends && sends.count >= 2 && sends.times !== null) {
    const times = sendTimes(ctx, host, mine, p, sends, sends.times, settings.sendMsgTimeoutMs ?? CLIENT_DEFAULTS.sendMsgTimeoutMs, client.startAtMs ?? 0, client.sendRatePerSec);
    if (times) client.sendTimesMs = times;
  }
  if (start.startTs !== null) {
    const first = firstSend(ctx, cl, p, client.topic, start.startTs, sends);
    if (first !== null) client.sendStartMs = first;
  }
  return { client, sharedRate: rate.shared ? { minuteEnd: rate.shared.minuteEnd } : null };
}

/** ClientVersion of the start line or the other version hints (the rules' clientVersionOf); a range gives one picked from it. */
export function clientVersion(ctx: InferContext, host: string, cl: RmqEvent[], p: string): string {
  const vr = clientVersionOf(host, ctx.sourceInfo);
  const picked = pickVersion(vr.range, DEFAULT_CLIENT_VERSION);
  const vEvent = cl.find((e) => e.type === 'startup' && typeof e.fields.version === 'string');
  const sources = ctx.c.sources.filter((s) => s.host === host);
  if (picked.exact) ctx.prov(`${p}.version`, vEvent ? 'ClientVersion in the client’s start line' : 'version hints of the client logs', vEvent ? [vEvent] : sources.map((s) => fileRef(s.path)));
  else ctx.def(`${p}.version`, `${picked.version} (${vr.range === 'unknown' ? 'no version hint in the client logs' : `picked from the range ${vr.range} the client logs allow`})`);
  return picked.version;
}

/**
 * The NameServer list the client was given, and the one it was bound to: the first it chose (OLD
 * null), or the one it switched away from when it started before the logs
 * (NettyRemotingClient.getAndCreateNameserverChannel logs `new name server is chosen`).
 */
function clientNameServers(ctx: InferContext, cl: RmqEvent[], p: string, nsAddrs: string[]): { namesrvAddrList?: string[]; namesrv?: string } {
  const out: { namesrvAddrList?: string[]; namesrv?: string } = {};
  const userList = cl.find((e) => e.type === 'namesrv-list' && e.entry === 'namesrv-list/user-specified') ?? cl.find((e) => e.type === 'namesrv-list');
  if (userList) {
    const list = ((userList.fields.addrs as string[]) ?? []).filter((a) => nsAddrs.includes(a));
    if (list.length) {
      out.namesrvAddrList = list;
      ctx.prov(`${p}.namesrvAddrList`, 'the NameServer list the client was given', [userList]);
    }
  }
  if (!out.namesrvAddrList) ctx.def(`${p}.namesrvAddrList`, 'every NameServer');
  const chosen = cl.find((e) => e.type === 'namesrv-chosen');
  const bound = chosen ? (chosen.fields.old === null ? chosen.fields.new : chosen.fields.old) : null;
  if (typeof bound === 'string' && (out.namesrvAddrList ?? nsAddrs).includes(bound)) {
    out.namesrv = bound;
    ctx.prov(`${p}.namesrv`, chosen!.fields.old === null ? 'the first NameServer the client chose' : 'the NameServer the client switched away from', [chosen]);
  } else ctx.def(`${p}.namesrv`, 'random (the client draws its first index; no choice in the logs)');
  return out;
}

/** The topic the client routed and sent to most; one with no route in the logs is added to `topics`. */
function clientTopic(ctx: InferContext, mine: RmqEvent[], p: string, topics: ScenarioTopic[]): string {
  const topicCount = new Map<string, { n: number; e: RmqEvent }>();
  for (const e of mine) {
    const t = e.fields.topic;
    if ((e.type === 'route-changed' || e.type === 'send-attempt-failed' || e.type === 'send-failed') && typeof t === 'string' && t !== 'TBW102') {
      const cur = topicCount.get(t);
      topicCount.set(t, { n: (cur?.n ?? 0) + 1, e: cur?.e ?? e });
    }
  }
  const topTopic = [...topicCount.entries()].sort((a, b) => b[1].n - a[1].n || a[0].localeCompare(b[0]))[0];
  if (topTopic) {
    const topic = topTopic[0];
    ctx.prov(`${p}.topic`, 'the topic the client routed and sent to most', [topTopic[1].e]);
    if (!topics.some((t) => t.name === topic)) {
      topics.push({ name: topic, queues: 4 });
      ctx.def(`scenario.topics[${topics.length - 1}].queues`, '4 (defaultTopicQueueNums; no route of this topic in the logs)');
      ctx.prov(`scenario.topics[${topics.length - 1}].name`, 'a topic the client sent to', [topTopic[1].e]);
    }
    return topic;
  }
  const topic = topics[0]?.name ?? DEFAULT_TOPIC;
  ctx.def(`${p}.topic`, `${topic} (the client logged no topic)`);
  if (!topics.some((t) => t.name === topic)) {
    topics.push({ name: topic, queues: 4 });
    ctx.def(`scenario.topics[${topics.length - 1}]`, `${topic} with 4 queues on every broker`);
  }
  return topic;
}


/**
 * The ClientConfig the client printed at start, the producer's `key=value` settings in the
 * application log, a send timeout from attempts that used the whole budget; closeSocketIfTimeout
 * false from a timed-out channel the client kept (keptTimedOutChannel), else from the version
 * (NettyClientConfig: hard-coded false before 4.9.1).
 */
function clientSettings(ctx: InferContext, host: string, cl: RmqEvent[], attempts: AttemptsSeen, p: string, version: string): Settings {
  const { prov, def } = ctx;
  const settings: Settings = {};
  const instance = cl.find((e) => e.type === 'startup' && e.entry === 'startup/client-instance');
  if (instance) {
    for (const [key, field] of [
      ['pollNameServerInterval', 'pollNameServerIntervalMs'],
      ['heartbeatBrokerInterval', 'heartbeatBrokerIntervalMs'],
      ['mqClientApiTimeout', 'mqClientApiTimeoutMs'],
    ] as const) {
      const m = new RegExp(`\\b${key}=(\\d+)`).exec(instance.text);
      if (m) {
        settings[field] = Number(m[1]);
        prov(`${p}.settings.${field}`, 'the ClientConfig the client printed at start', [instance]);
      }
    }
  }
  const appProps = ctx.c.appProps.get(host) ?? new Map<string, { value: string; event: RmqEvent }>();
  const budget = sendBudgetSeen(cl);
  if (appProps.get('sendMsgTimeout') && Number(appProps.get('sendMsgTimeout')!.value) > 0) {
    settings.sendMsgTimeoutMs = Number(appProps.get('sendMsgTimeout')!.value);
    prov(`${p}.settings.sendMsgTimeoutMs`, 'sendMsgTimeout in the application log', [appProps.get('sendMsgTimeout')!.event]);
  } else if (budget) {
    settings.sendMsgTimeoutMs = budget.ms;
    prov(`${p}.settings.sendMsgTimeoutMs`, budget.why, [budget.event]);
  } else def(`${p}.settings.sendMsgTimeoutMs`, `${CLIENT_DEFAULTS.sendMsgTimeoutMs} (DefaultMQProducer default)`);
  const retry = appProps.get('retryTimesWhenSendFailed');
  if (retry && /^\d+$/.test(retry.value)) {
    settings.retryTimesWhenSendFailed = Number(retry.value);
    prov(`${p}.settings.retryTimesWhenSendFailed`, 'retryTimesWhenSendFailed in the application log', [retry.event]);
  } else if (attempts.slots) {
    settings.retryTimesWhenSendFailed = attempts.slots.n - 1;
    prov(
      `${p}.settings.retryTimesWhenSendFailed`,
      attempts.slots.n > 1
        ? `a failed send's BrokersSent has ${attempts.slots.n} slots: DefaultMQProducerImpl.sendDefaultImpl gives a synchronous send one per attempt it may make (1 + retryTimesWhenSendFailed)`
        : "a failed send's BrokersSent has 1 slot, and the application caught it on its own thread (no asynchronous send): DefaultMQProducerImpl.sendDefaultImpl gives a synchronous send one per attempt it may make (1 + retryTimesWhenSendFailed)",
      [attempts.slots.e],
    );
  } else if (attempts.async) {
    // An asynchronous send makes one attempt in sendDefaultImpl (timesTotal 1) whatever
    // retryTimesWhenSendFailed is; its retries are MQClientAPIImpl.onExceptionImpl's, up to
    // retryTimesWhenSendAsyncFailed (DefaultMQProducer, 4.x-5.3.3), which no line gives.
    def(`${p}.settings.retryTimesWhenSendAsyncFailed`, `${CLIENT_DEFAULTS.retryTimesWhenSendAsyncFailed} (DefaultMQProducer default)`);
  } else def(`${p}.settings.retryTimesWhenSendFailed`, `${CLIENT_DEFAULTS.retryTimesWhenSendFailed} (DefaultMQProducer default: ${CLIENT_DEFAULTS.retryTimesWhenSendFailed + 1} attempts)`);
  const lfe = appProps.get('sendLatencyFaultEnable');
  if (lfe && /^(true|false)$/.test(lfe.value)) {
    settings.sendLatencyFaultEnable = lfe.value === 'true';
    prov(`${p}.settings.sendLatencyFaultEnable`, 'sendLatencyFaultEnable in the application log', [lfe.event]);
  } else if (attempts.sameBroker) {
    settings.sendLatencyFaultEnable = true;
    const { e, broker, route } = attempts.sameBroker;
    prov(
      `${p}.settings.sendLatencyFaultEnable`,
      `a retry went to ${broker} again right after it failed there, while the client's route of the topic held ${route.filter((b) => b !== broker).join(', ')} too: without fault avoidance the retry picks another broker's queue (selectOneMessageQueue(lastBrokerName)); with it, MQFaultStrategy passes over brokers it holds unavailable (inferred from behaviour)`,
      [e, attempts.sameBroker.routeEvent],
    );
  } else def(`${p}.settings.sendLatencyFaultEnable`, 'false (DefaultMQProducer default)');
  const kept = versionAtLeast(version, CLIENT.closeSocketIfTimeout.since) ? keptTimedOutChannel(ctx, host, version) : null;
  if (kept) {
    settings.clientCloseSocketIfTimeout = false;
    prov(
      `${p}.settings.clientCloseSocketIfTimeout`,
      `a call on ${String(kept.fields.addr)} timed out and the client kept its channel: no \`invokeSync: close socket because of timeout\` before its \`wait response timeout exception\` (NettyRemotingClient.invokeSync closes the channel and logs so first when clientCloseSocketIfTimeout is true, 4.9.1-5.1.3): -Dcom.rocketmq.remoting.client.closeSocketIfTimeout=false (inferred from behaviour)`,
      [kept],
    );
  } else {
    def(
      `${p}.settings.clientCloseSocketIfTimeout`,
      versionAtLeast(version, CLIENT.closeSocketIfTimeout.since) ? `true (the system property’s default from ${CLIENT.closeSocketIfTimeout.since})` : `false (hard-coded before ${CLIENT.closeSocketIfTimeout.since}; client ${version})`,
    );
  }
  return settings;
}

/**
 * A call of the client's whose wait timed out on a channel it did not close (collect's keptTimedOut):
 * NettyRemotingClient.invokeSync (4.9.1-5.3.3) closes the channel and logs `invokeSync: close socket
 * because of timeout, Nms, addr` when clientCloseSocketIfTimeout is true, then logs `invokeSync: wait
 * response timeout exception, the channel[addr]` either way. From 5.1.4 it closes only when more than
 * 100 ms or a quarter of the timeout was left for the wait, which no line shows: only releases that
 * close whatever was left are read (the model's closeGuard). gen-705's app-order-01 (4.9.6, started
 * with the property false): 84 sends timed out on broker-c's channel, never closed.
 */
function keptTimedOutChannel(ctx: InferContext, host: string, version: string): RmqEvent | null {
  if (clientProfile(version).closeGuard) return null;
  return ctx.c.keptTimedOut.get(host) ?? null;
}

interface AttemptsSeen {
  /** A failed send's BrokersSent slots (1 + retryTimesWhenSendFailed). */
  slots: { n: number; e: RmqEvent } | null;
  /** A retry sent back to the broker that had just failed while the route held another: fault avoidance. */
  sameBroker: { e: RmqEvent; broker: string; route: string[]; routeEvent: RmqEvent } | null;
  /** An asynchronous send's failure (the stack of MQClientAPIImpl's InvokeCallback, or caught on a callback thread), or a line only an asynchronous send writes (isAsyncSendLine). */
  async: RmqEvent | null;
}

/**
 * What a client's failed sends show of its retry settings. DefaultMQProducerImpl.sendDefaultImpl (4.x
 * and 5.x) throws `Send [n] times, still failed, cost [..]ms, Topic: T, BrokersSent: [..]` once every
 * attempt failed; BrokersSent is Arrays.toString of an array with a slot per attempt it may make
 * (timesTotal: 1 + retryTimesWhenSendFailed for a synchronous send, 1 for an asynchronous one), so
 * more than one slot gives retryTimesWhenSendFailed, and one slot is either. Each retry asks
 * selectOneMessageQueue(lastBrokerName) for another broker's queue (4.x TopicPublishInfo, 5.x
 * BrokerFilter); only fault avoidance (sendLatencyFaultEnable: MQFaultStrategy skips brokers it holds
 * unavailable) sends it back to the broker that just failed while the route holds a writable other.
 */
function attemptsSeen(mine: readonly RmqEvent[]): AttemptsSeen {
  let slots: { n: number; e: RmqEvent } | null = null;
  let oneSlot: RmqEvent | null = null;
  const async =
    mine.find((e) => e.kind === 'app' && e.sendPath === 'async' && isAppFailure(e)) ??
    mine.find((e) => e.kind === 'app' && isSendCallbackThread(e.thread) && isAppFailure(e)) ??
    mine.find((e) => e.kind === 'client' && isAsyncSendLine(e)) ??
    null;
  let sameBroker: { e: RmqEvent; broker: string; route: string[]; routeEvent: RmqEvent } | null = null;
  /** Per topic, the client's route as it last changed (writable brokers). */
  const routes = new Map<string, { brokers: string[]; e: RmqEvent }>();
  for (const e of mine) {
    if (e.type === 'route-changed' && e.kind === 'client') {
      const w = writableAfter(e);
      if (w) routes.set(String(e.fields.topic), { brokers: w, e });
      continue;
    }
    if (e.entry !== 'send-failed/still-failed' || !Array.isArray(e.fields.brokersSent)) continue;
    const sent = (e.fields.brokersSent as string[]).map((b) => (b === 'null' ? null : b));
    if (sent.length > 1 && !slots) slots = { n: sent.length, e };
    if (sent.length === 1 && !oneSlot && e.kind === 'app' && e.thread !== null && !isSendCallbackThread(e.thread)) oneSlot = e;
    if (sameBroker) continue;
    const route = routes.get(String(e.fields.topic));
    for (let i = 1; i < sent.length && route; i++) {
      const b = sent[i];
      if (b !== null && b === sent[i - 1] && route.brokers.some((x) => x !== b)) {
        sameBroker = { e, broker: b, route: route.brokers, routeEvent: route.e };
        break;
      }
    }
  }
  // One slot is a synchronous send with no retry when the application caught it on its own thread
  // and the client sent nothing asynchronously.
  if (!slots && oneSlot && !async) slots = { n: 1, e: oneSlot };
  return { slots, sameBroker, async };
}

/**
 * A client log line only an asynchronous send writes: its request removed by scanResponseTable with
 * sendMessageAsync's InvokeCallback (`remove timeout request, ResponseFuture [...
 * invokeCallback=...MQClientAPIImpl$1@...]`, 4.x), or MQClientAPIImpl.onExceptionImpl's retry of
 * it (`async send msg by retry N times`), which only sendMessageAsync calls (4.3.0-5.3.3). A
 * synchronous send waits in invokeSyncImpl and has no callback (gen-705's app-stock-01, 4.5.0:
 * three timed-out requests retried on other brokers, no failed send).
 */
export function isAsyncSendLine(e: RmqEvent): boolean {
  return e.type === 'send-async-retry' || (e.entry === 'async-timeout/remove-timeout-request' && isSendCallbackClass(e.fields.callback));
}

/**
 * When the client started: its first route poll (MQClientInstance polls 10 ms after the start)
 * or its start line; one that started before the logs is placed on the phase of its route polls.
 * `startTs`: the epoch time of a start seen in the logs (null: none).
 */
function clientStart(ctx: InferContext, cl: RmqEvent[], p: string, settings: Settings): { startTs: number | null; startAtMs?: number } {
  const { when } = ctx;
  const firstChosen = cl.find((e) => e.type === 'namesrv-chosen' && e.fields.old === null);
  const factory = cl.find((e) => e.type === 'startup' && (e.fields.role === 'client' || e.fields.role === 'producer'));
  const apiTimeout = settings.mqClientApiTimeoutMs ?? CLIENT_DEFAULTS.mqClientApiTimeoutMs;
  const poll = settings.pollNameServerIntervalMs ?? CLIENT_DEFAULTS.pollNameServerIntervalMs;
  let startTs: number | null = null;
  if (firstChosen) {
    startTs = when(firstChosen) - 11;
    const later = ctx.coarse(firstChosen) ? null : laterPoll(ctx, cl, firstChosen, startTs + 10, poll);
    if (later) {
      startTs += later.shiftMs;
      ctx.prov(
        `${p}.startAtMs`,
        `the first route poll (10 ms after the client starts) chose a NameServer; a later poll (every ${poll} ms) puts the timer ${-later.shiftMs} ms earlier: the first poll's line is late by the JVM's warm-up (Netty's first channel)`,
        [firstChosen, later.e, factory],
      );
    } else ctx.prov(`${p}.startAtMs`, 'the first route poll (10 ms after the client starts) chose a NameServer', [firstChosen, factory]);
  } else if (factory) {
    startTs = when(factory);
    ctx.prov(`${p}.startAtMs`, 'the client start line', [factory]);
  } else {
    // Started before the window: the phase of its 30 s route polls.
    const seenTopic = new Set<string>();
    let anchor: { ts: number; e: RmqEvent } | null = null;
    for (const e of cl) {
      if (e.type === 'route-update-failed' && e.entry === 'route-update-failed/exception' && e.ts !== null) {
        anchor = { ts: when(e) - apiTimeout - 2, e };
        break;
      }
      if (e.type === 'route-changed' && e.ts !== null) {
        const t = String(e.fields.topic);
        if (seenTopic.has(t) || ((e.fields.brokersBefore as string[]) ?? []).length) {
          anchor = { ts: when(e) - 3, e };
          break;
        }
        seenTopic.add(t);
      }
    }
    if (anchor) {
      ctx.prov(`${p}.startAtMs`, `started before the logs: placed so that its route polls (every ${poll} ms) fall when the logged ones did`, [anchor.e]);
      return { startTs, startAtMs: 30000 + mod(anchor.ts - 10 - ctx.startEpochMs - 30000, poll) };
    }
    ctx.def(`${p}.startAtMs`, 'about 1 s into the run (no start and no route poll in the logs)');
  }
  return startTs !== null ? { startTs, startAtMs: Math.max(0, ctx.rel(startTs)) } : { startTs };
}

/**
 * The ordering key of selector clients whose failures did not show it, from where their topic's
 * messages were stored: when every client of a topic sends through a selector and the brokers'
 * stats.log show all its messages stored on one broker, while the topic has queues on others whose
 * stats.log is among the inputs and shows none stored there (a broker's TOPIC_PUT_NUMS item of a
 * topic exists from its first put and prints every minute from then, StatsItem.printAtMinutes,
 * 4.9.4: no line, or only SUM 0), the selectors always picked that broker: one key, its first
 * queue (which queue of it is not in the logs). gen-185's app-order-01 sent every message to
 * broker-a though TopicOrder had queues on three brokers.
 */
function selectorsFromStoredCounts(ctx: InferContext, known: Known, clients: ScenarioClient[]): void {
  const { hosts, topics, brokers } = known;
  for (const topic of new Set(clients.map((c) => c.topic))) {
    const mine = clients.filter((c) => c.topic === topic);
    if (!mine.every((c) => c.selector && c.selectorQueue === undefined)) continue;
    const onTopic = [...(hosts.topicInfo.get(topic)?.brokers ?? [])].filter((b) => brokers.some((x) => x.name === b)).sort();
    if (onTopic.length < 2) continue;
    const hostOf = (b: string) => hosts.brokerHost.get(b)?.value;
    if (!onTopic.every((b) => { const h = hostOf(b); return h !== undefined && ctx.c.sources.some((s) => s.host === h && /(^|\/)stats\.log/.test(s.path)); })) continue;
    const puts = ctx.c.topicPuts.filter((x) => x.topic === topic && x.sum > 0);
    const storedOn = new Set(puts.map((x) => x.host));
    if (storedOn.size !== 1 || puts.length < 2) continue;
    const [host] = [...storedOn];
    const name = onTopic.find((b) => hostOf(b) === host);
    if (!name) continue;
    const queues = topics.find((t) => t.name === topic)?.queues ?? 4;
    const total = puts.reduce((n, x) => n + x.sum, 0);
    for (const c of mine) {
      const i = clients.indexOf(c);
      c.selectorQueue = onTopic.indexOf(name) * queues;
      delete ctx.defaults[`scenario.clients[${i}].selectorQueue`];
      ctx.prov(
        `scenario.clients[${i}].selectorQueue`,
        `the brokers' stats.log: all ${total} messages of ${topic} stored on ${name}, none on ${onTopic.filter((b) => b !== name).join(', ')} (their stats.log show none stored), though the topic has queues on each, and every client of it sends through a selector: one ordering key, the first queue of ${name} (which queue is not in the logs)`,
        [puts[0].event, puts[puts.length - 1].event],
      );
    }
  }
}

/** A later poll's line this much before the first poll's phase: the first was late by the JVM's warm-up. */
const WARM_UP_MAX_MS = 1000;

/**
 * A route poll after the first that a line times to the millisecond (a switch of NameServer, which
 * only a poll asks for once the topic's route is known: MQClientInstance.updateTopicRouteInfoFromNameServer
 * on its fixed-rate timer), up to WARM_UP_MAX_MS before the phase the first poll's line gives: the
 * first poll's line comes after loading Netty, the timer's later runs on time (scheduleAtFixedRate).
 */
function laterPoll(ctx: InferContext, cl: readonly RmqEvent[], first: RmqEvent, phase: number, poll: number): { shiftMs: number; e: RmqEvent } | null {
  for (const e of cl) {
    if (e === first || e.type !== 'namesrv-chosen' || e.fields.old === null || e.ts === null || ctx.coarse(e)) continue;
    const at = e.ts - 1;
    const k = Math.round((at - phase) / poll);
    if (k < 1) continue;
    const shift = at - (phase + k * poll);
    return shift < 0 && shift >= -WARM_UP_MAX_MS ? { shiftMs: shift, e } : null;
  }
  return null;
}

/**
 * The send rate, in order: the application's statistics lines, its sent and failed lines, the
 * brokers' stored count of the topic (`shared`: to divide among its clients), twice the failures.
 */
function sendRate(ctx: InferContext, known: Known, host: string, mine: RmqEvent[], p: string, topic: string): { rate: number; shared: { minuteEnd: number } | null; steps?: RateStep[] } {
  const { prov } = ctx;
  const stats = ctx.c.appStats.get(host);
  const sends = ctx.c.appSends.get(host);
  const appFailures = mine.filter((e) => e.kind === 'app' && (e.type === 'send-call-timeout' || e.type === 'send-failed' || e.type === 'busy-reply' || e.type === 'no-route'));
  if (stats && stats.count >= 2) {
    const gaps = [...stats.gaps].sort((a, b) => a - b);
    const period = gaps[Math.floor(gaps.length / 2)];
    if (period > 0) {
      prov(`${p}.sendRatePerSec`, `the application’s statistics lines (sent=N every ${period / 1000} s)`, [stats.first.event, stats.last.event]);
      return { rate: round2(stats.total / stats.count / (period / 1000)), shared: null };
    }
  }
  if (sends && sends.count >= 2 && sends.firstEvent.ts !== null && sends.lastEvent.ts !== null) {
    const failed = appFailures.filter((e) => e.ts! >= sends.firstEvent.ts! && e.ts! <= sends.lastEvent.ts!).length;
    const span = (sends.lastEvent.ts - sends.firstEvent.ts) / 1000;
    if (span > 0) {
      prov(`${p}.sendRatePerSec`, `sends the application logged (${sends.count} sent, ${failed} failed in ${Math.round(span)} s)`, [sends.firstEvent, sends.lastEvent]);
      return { rate: round2((sends.count + failed) / span), shared: null };
    }
  }
  const fromStats = topicRate(ctx, known.hosts, topic);
  if (fromStats) {
    prov(`${p}.sendRatePerSec`, fromStats.rule, fromStats.evidence);
    if (fromStats.steps) prov(`${p}.sendRateSteps`, fromStats.steps.rule, fromStats.steps.evidence);
    return { rate: fromStats.rate, shared: { minuteEnd: fromStats.minuteEnd }, ...(fromStats.steps ? { steps: fromStats.steps.steps } : {}) };
  }
  if (appFailures.length >= 2) {
    const span = (appFailures[appFailures.length - 1].ts! - appFailures[0].ts!) / 1000;
    if (span > 0) {
      prov(`${p}.sendRatePerSec`, 'twice the rate of failed sends (about half the queues were on the failing broker)', [appFailures[0], appFailures[appFailures.length - 1]]);
      return { rate: round2(Math.max(0.1, (appFailures.length / span) * 2)), shared: null };
    }
  }
  ctx.def(`${p}.sendRatePerSec`, `${DEFAULT_RATE} (the logs show no send rate)`);
  return { rate: DEFAULT_RATE, shared: null };
}

/**
 * The brokers' own count of a topic's stored messages (stats.log, per minute): in a minute when
 * every master of the topic logged, their sum is what all its producers sent and had stored. The
 * busiest such minute is a healthy one; the producers of the topic share it equally.
 */
function topicRate(ctx: InferContext, hosts: HostsResult, topic: string): { rate: number; minuteEnd: number; rule: string; evidence: RmqEvent[]; steps: ReturnType<typeof topicRateSteps> } | null {
  const masters = new Set(hosts.brokerNames.map((n) => hosts.brokerHost.get(n)?.value).filter((h): h is string => !!h));
  const lines = ctx.c.topicPuts.filter((x) => x.topic === topic && masters.has(x.host));
  if (!masters.size || !lines.length) return null;
  // Each line counts the minute that ended when it was printed; a line printed late (a hung broker
  // prints the minute before when it runs again) counts the minute before its host's next line's.
  const minuteOf = new Map<(typeof lines)[number], number>();
  const nextOfHost = new Map<string, number>();
  for (const l of [...lines].sort((a, b) => b.ts - a.ts)) {
    const m = Math.min(Math.round(l.ts / 60000), (nextOfHost.get(l.host) ?? Infinity) - 1);
    nextOfHost.set(l.host, m);
    minuteOf.set(l, m);
  }
  const byMinute = new Map<number, typeof lines>();
  for (const l of lines) {
    const m = minuteOf.get(l)!;
    byMinute.set(m, [...(byMinute.get(m) ?? []), l]);
  }
  // Each master's lines of the topic, in time order.
  const byHost = new Map<string, StoredLine[]>();
  for (const l of [...lines].sort((a, b) => a.ts - b.ts)) byHost.set(l.host, [...(byHost.get(l.host) ?? []), l]);
  // A master whose stats.log printed minutes but never a line of this topic stored none of it then
  // (BrokerStatsManager prints an item every minute from its first put): it logged 0 in each.
  const idle = [...masters].filter((h) => !byHost.has(h));
  const loggedNone = (host: string, m: number) => {
    const span = ctx.c.statsSpan.get(host);
    return !!span && m >= Math.round(span.first / 60000) && m <= Math.round(span.last / 60000);
  };
  const complete = (list: ReadonlyArray<{ host: string }>, m: number) => new Set(list.map((l) => l.host)).size + idle.filter((h) => loggedNone(h, m)).length >= masters.size;
  // A master that restarted within the minute of a line: the line counts only what the new process
  // stored since its boot (its stats item is new), the old process's part died with it; its TPS is
  // the rate over what it covers, as for a first line (gen-20261221: broker-a restarted 15 s before
  // its 06:36 line, SUM 25 TPS 2.50, against broker-b's 317).
  // Only where the old process ran in that minute (its shutdown hook in it): a broker down or hung
  // until its boot left its part of the minute to the other masters, which stored it (namesrv-hang:
  // mq-node-a rebooted after a hang, 49 stored in the 50 s of its new process, the rest on mq-node-b).
  const restarts = ctx.events.filter((e) => e.type === 'startup' && e.fields.role === 'broker' && masters.has(e.host) && e.ts !== null && (byHost.get(e.host)?.[0]?.ts ?? Infinity) < e.ts);
  const stops = ctx.events.filter((e) => e.type === 'shutdown' && e.fields.role === 'broker' && masters.has(e.host) && e.ts !== null);
  const rebootedIn = (l: StoredLine) =>
    restarts.some((e) => e.host === l.host && e.ts! <= l.ts && e.ts! > l.ts - 60000 && stops.some((x) => x.host === l.host && x.ts! <= e.ts! && x.ts! > l.ts - 60000));
  // A host's first line of the topic may cover less than a minute (the item was made by the
  // topic's first put there): its TPS is the rate (firstPerSec).
  const firsts = new Set([...byHost.values()].map((own) => own[0]));
  // Only in a minute of first lines alone (the producers started in it, every master stored its
  // first message of the topic then): a broker that starts again later takes only what its clients'
  // routes send it again, not its share of the topic.
  const startLines = new Set([...byMinute.values()].filter((list) => list.every((l) => firsts.has(l))).flat());
  // A line printed late covers the minutes its broker did not run in too: SUM over its span (TPS).
  const perSec = (l: StoredLine) => (startLines.has(l) || rebootedIn(l) ? firstPerSec(l) : printedLate(l.ts) && l.tps > 0 && l.sum / l.tps > 60 + MINUTE_SLACK_S ? l.tps : l.sum / 60);
  const rateOf = (list: ReadonlyArray<StoredLine>) => list.reduce((n, l) => n + perSec(l), 0);
  // A broker that ran again after a hang stores at once the requests its sockets held, sends its
  // producers gave up on and sent again elsewhere (copies.ts): the minute of its next line counts
  // them with the minute's own, and measures no producer's rate.
  const afterLate = new Set<number>();
  for (const own of byHost.values()) for (let i = 0; i + 1 < own.length; i++) if (printedLate(own[i].ts)) afterLate.add(minuteOf.get(own[i + 1])!);
  // The busiest complete minute, preferring one after the first lines and not after a late line in
  // which no client logged a failed or slow send (a fault's minute stores less than was sent, as
  // topicRateSteps reads too), then one after the first lines and not after a late line, then one
  // after the first lines, then any.
  const trouble = sendTroubleOf(ctx);
  const candidates = [...byMinute].filter(([m, list]) => complete(list, m));
  const later = candidates.filter(([, list]) => !list.some((l) => firsts.has(l)));
  const settled = later.filter(([m]) => !afterLate.has(m));
  const calm = settled.filter(([m]) => !trouble.has(m));
  // A minute with a master's line of a new process is read at that line's TPS only where no other will do.
  const whole = (x: typeof candidates) => x.filter(([, list]) => !list.some(rebootedIn));
  let best: typeof lines | null = null;
  let bestMinute = 0;
  for (const [m, list] of [whole(calm), whole(settled), whole(later), calm, settled, later, candidates].find((x) => x.length) ?? []) {
    if (!best || rateOf(list) > rateOf(best)) [best, bestMinute] = [list, m];
  }
  if (!best) return null;
  const skipped = candidates.some(([m, list]) => afterLate.has(m) && rateOf(list) > rateOf(best!));
  const total = best.reduce((n, l) => n + l.sum, 0);
  const rate = rateOf(best);
  if (total <= 0 || rate <= 0) return null;
  const uneven = best.some((l) => perSec(l) !== l.sum / 60);
  return {
    rate,
    minuteEnd: bestMinute * 60000,
    rule: `the brokers’ stats.log: ${total} messages of ${topic} stored in the busiest minute every master logged${uneven ? ` (${round2(rate)}/s: a line that covered more or less than a minute counts at its TPS)` : ''}${idle.length ? ` (${idle.join(', ')} printed minutes but no line of ${topic}: none stored)` : ''}${skipped ? ' (not a busier minute that followed a line printed late: a broker that ran again after a hang stored at once the requests it held)' : ''}`,
    evidence: best.map((l) => l.event),
    steps: topicRateSteps(ctx, byMinute, complete, perSec, rate),
  };
}

/**
 * StatsItem.printAtMinutes runs at each minute's start (its first run is delayed to the next whole
 * minute, UtilAll.computeNextMinutesTimeMillis, 4.9.4 and 5.x): a line printed more than this after
 * one was printed late, by a broker that did not run then (a hang).
 */
const STATS_LINE_LATE_MS = 2000;

function printedLate(ts: number): boolean {
  return ts - Math.floor(ts / 60000) * 60000 > STATS_LINE_LATE_MS;
}

type StoredLine = Collected['topicPuts'][number];

/**
 * The rate of a host's first stats line of a topic. StatsItem.computeStatsData (4.x, 5.x) prints SUM
 * over the snapshots of the last minute and TPS = SUM / their span: a minute in the steady state,
 * less for an item made inside the minute (the topic's first put on that broker, a broker started
 * or restarted). Where SUM / TPS is a minute within 3 s the line counts SUM / 60 (TPS is rounded
 * to 2 decimals), as it does when the span is under 10 s (too few snapshots to say a rate), else at
 * its TPS. A later line covers a minute (SUM / 60), or more when printed late by a broker that ran
 * again after a hang (its TPS, topicRate).
 */
function firstPerSec(l: StoredLine): number {
  if (l.tps <= 0 || l.sum <= 0) return l.sum / 60;
  const span = l.sum / l.tps;
  return Math.abs(span - 60) <= MINUTE_SLACK_S || span < 10 ? l.sum / 60 : l.tps;
}

/** A stats line whose SUM / TPS is a minute within this many seconds covers a minute (TPS is printed to 2 decimals). */
const MINUTE_SLACK_S = 3;

/** A clean minute's rate this many times above or below the level before it is a new level. */
const RATE_STEP_FACTOR = 1.3;
/** Failures that make a minute's stored count say less than what was sent (not stored, or stored late). */
const SEND_TROUBLE: ReadonlySet<string> = new Set(['busy-reply', 'send-call-timeout', 'send-failed', 'no-route', 'send-attempt-failed', 'rpc-timeout', 'send-request-failed', 'disk-full', 'connect-failed']);

const troubledMinutes = new WeakMap<InferContext, Set<number>>();

/**
 * The minutes (as a stats line numbers them: the one ending at minute × 60 s) in which a client
 * logged a failed or slow send; every client's topic asks, so they are read once.
 */
function sendTroubleOf(ctx: InferContext): Set<number> {
  let minutes = troubledMinutes.get(ctx);
  if (!minutes) {
    minutes = new Set<number>();
    for (const e of ctx.events) if (e.ts !== null && SEND_TROUBLE.has(e.type) && (e.kind === 'client' || e.kind === 'app')) minutes.add(Math.ceil(e.ts / 60000));
    troubledMinutes.set(ctx, minutes);
  }
  return minutes;
}

/**
 * The topic's stored rate minute by minute, where it changed: the producers' own traffic (a
 * business's peak), not a fault. Only clean minutes count: every master printed one line of the
 * topic, and no client logged a failed or slow send then (a fault's minute stores less than was
 * sent, or a stall's backlog at once; a host's two lines in one minute: one printed late). The first
 * minute of the stats may be partial. Steps
 * are kept only when a clean minute's rate differs from the level before by RATE_STEP_FACTOR:
 * otherwise the topic sends at one rate, the busiest minute's (null).
 */
function topicRateSteps(
  ctx: InferContext,
  byMinute: ReadonlyMap<number, ReadonlyArray<StoredLine>>,
  /** Whether every master printed its count of the topic for minute m (a line, or none of an idle master's). */
  complete: (list: ReadonlyArray<{ host: string }>, m: number) => boolean,
  perSec: (l: StoredLine) => number,
  busiest: number,
): { steps: RateStep[]; rule: string; evidence: RmqEvent[] } | null {
  // The first minute's count may cover only part of it (a producer started in it); a line is printed at each minute's end.
  const all = [...byMinute.keys()].sort((a, b) => a - b);
  const minutes = all.slice(1);
  if (minutes.length < 2) return null;
  const trouble = sendTroubleOf(ctx);
  const clean: Array<{ minute: number; perSec: number; lines: RmqEvent[] }> = [];
  for (const m of minutes) {
    const list = byMinute.get(m)!;
    if (!complete(list, m) || list.length !== new Set(list.map((l) => l.host)).size) continue;
    if (trouble.has(m)) continue;
    clean.push({ minute: m, perSec: list.reduce((n, l) => n + perSec(l), 0), lines: list.map((l) => l.event) });
  }
  let steps: RateStep[] = [];
  const evidence: RmqEvent[] = [];
  /** The minute (of its line) each step was read from. */
  const stepMinutes: number[] = [];
  let level: number | null = null;
  for (const c of clean) {
    if (level !== null && c.perSec <= level * RATE_STEP_FACTOR && c.perSec >= level / RATE_STEP_FACTOR) continue;
    // The minute's count is what was stored in the minute before its line.
    steps.push({ atMs: Math.max(0, (c.minute - 1) * 60000 - ctx.startEpochMs), perSec: round2(c.perSec) });
    stepMinutes.push(c.minute);
    evidence.push(c.lines[0]);
    level = c.perSec;
  }
  if (steps.length < 2) return null;
  // The first minute, where calm, gives the level before the first clean one (at its TPS: perSec).
  const firstList = byMinute.get(all[0])!;
  const first = complete(firstList, all[0]) && !trouble.has(all[0]) ? { minute: all[0], perSec: round2(firstList.reduce((n, l) => n + perSec(l), 0)) } : null;
  const within = changesWithinMinutes(steps, stepMinutes, new Set(clean.map((c) => c.minute)), first);
  steps = within.steps;
  // Before the first clean minute the rate is the first level's.
  steps[0] = { ...steps[0], atMs: 0 };
  return {
    steps,
    rule: `the brokers’ stats.log, minute by minute: the topic's stored rate changed ${steps.length - 1} times in the minutes every master printed and no send failed (${steps.map((s) => `${s.perSec}/s`).join(', ')}; the busiest ${round2(busiest)}/s)${within.split ? `; ${within.split} of them within a minute whose rate lay between the minutes around it, where the two rates average to it (a change within the minute is assumed to be one)` : ''}`,
    evidence: evidence.slice(0, 6),
  };
}

/**
 * A clean minute whose rate lies strictly between the level before it (its previous minute clean at
 * that level) and the next minute's, is taken as one change within it: the minute's count is the
 * two levels weighted by the time each held, so the change falls where they average to the
 * minute's rate (consumer-too-few-threads: 7.8/s between 3 and 11.7 puts the rise 27 s into the
 * minute, where the producer's schedule put it 20 s in), and the minute is no level of its own.
 */
function changesWithinMinutes(
  steps: readonly RateStep[],
  minutes: readonly number[],
  clean: ReadonlySet<number>,
  first: { minute: number; perSec: number } | null,
): { steps: RateStep[]; split: number } {
  const out: RateStep[] = [];
  let split = 0;
  for (let i = 0; i < steps.length; i++) {
    const m = minutes[i];
    const fromFirst = i === 0 && first !== null && first.minute === m - 1;
    const before = fromFirst ? { atMs: 0, perSec: first!.perSec } : out[out.length - 1];
    const next = steps[i + 1];
    const between = before !== undefined && next !== undefined && minutes[i + 1] === m + 1 && (fromFirst || clean.has(m - 1)) && (steps[i].perSec - before.perSec) * (next.perSec - steps[i].perSec) > 0;
    if (!between) {
      out.push(steps[i]);
      continue;
    }
    const atL1 = (steps[i].perSec - before.perSec) / (next.perSec - before.perSec);
    if (fromFirst) out.push(before);
    out.push({ atMs: Math.round(steps[i].atMs + (1 - atL1) * 60000), perSec: next.perSec });
    split++;
    i++;
  }
  return { steps: out, split };
}

/**
 * Every send the application logged, at the time it began (a sent line 2 ms after, a call timeout
 * the budget + 3 ms after); undefined when there are more than a run replays one by one (a note).
 */
function sendTimes(ctx: InferContext, host: string, mine: RmqEvent[], p: string, sends: Sends, logged: readonly number[], budget: number, startAtMs: number, rate: number): number[] | undefined {
  const failed = failuresOf(mine, host, 'app', -Infinity, Infinity);
  const times = [
    ...logged.map((t) => t - 2),
    ...failed.map((e) => {
      if (e.type === 'send-call-timeout') return ctx.latest(e) - budget - 3;
      if (e.type === 'send-failed' && typeof e.fields.costMs === 'number') return e.ts! - (e.fields.costMs as number);
      return e.ts! - 2;
    }),
  ]
    .map((t) => ctx.rel(t))
    .filter((t) => t >= startAtMs)
    .sort((a, b) => a - b);
  if (times.length > LIMITS.sendTimes) {
    ctx.notes.push(`${host}: the application logged ${times.length.toLocaleString('en-US')} sends, more than a run replays one by one (${LIMITS.sendTimes.toLocaleString('en-US')}): sent at ${rate}/s instead`);
    return undefined;
  }
  if (!times.length) return undefined;
  ctx.prov(`${p}.sendTimesMs`, `every send the application logged (${sends.count} sent, ${failed.length} failed), at the time it began`, [sends.firstEvent, failed[0], sends.lastEvent]);
  return times;
}

/** Milliseconds from the start to the first send: its topic's route fetched on the send path, or the first send the application logged. */
function firstSend(ctx: InferContext, cl: RmqEvent[], p: string, topic: string, startTs: number, sends: Sends | undefined): number | null {
  const { when } = ctx;
  const firstRoute = cl.find((e) => e.type === 'route-changed' && e.fields.topic === topic && !((e.fields.brokersBefore as string[]) ?? []).length);
  const candidates = [firstRoute ? { ts: when(firstRoute) - 3, e: firstRoute } : null, sends ? { ts: when(sends.firstEvent) - 5, e: sends.firstEvent } : null].filter(
    (x): x is { ts: number; e: RmqEvent } => x !== null && x.ts >= startTs,
  );
  candidates.sort((a, b) => a.ts - b.ts);
  if (candidates.length) {
    ctx.prov(`${p}.sendStartMs`, 'the first send (its route fetched on the send path, or the first send the application logged)', [candidates[0].e]);
    return Math.max(0, Math.round(candidates[0].ts - startTs));
  }
  ctx.def(`${p}.sendStartMs`, '1000 (no first send in the logs)');
  return null;
}

/**
 * Sends through a MessageQueueSelector: the stack traces of their failures go through
 * DefaultMQProducerImpl.sendSelectImpl. When every failure hit one broker at about the whole send
 * rate, the selector kept picking one queue (one ordering key): the first of that broker's.
 */
function inferSelector(ctx: InferContext, known: Known, client: ScenarioClient, p: string, mine: readonly RmqEvent[], rate: number): void {
  const { hosts, topics, brokers } = known;
  const brokerOf = (name: string) => brokers.find((b) => b.name === name);
  const selected = mine.filter((e) => e.sendPath === 'select' && (e.kind === 'client' || isAppFailure(e)));
  if (!selected.length) return;
  client.selector = true;
  ctx.prov(`${p}.selector`, 'failed sends whose stack trace goes through DefaultMQProducerImpl.sendSelectImpl (one attempt, no retry)', [selected[0]]);
  const names = new Set(selected.map((e) => hosts.nameOfBrokerAddr.get(String(e.fields.addr ?? e.fields.brokerAddr)) ?? null));
  const span = (selected[selected.length - 1].ts! - selected[0].ts!) / 1000;
  const [name] = [...names];
  if (names.size !== 1 || name === null || selected.length < 3 || span <= 0 || selected.length / span < 0.7 * rate) {
    ctx.def(`${p}.selectorQueue`, 'none (a new ordering key per send: the failures did not take every send to one broker)');
    return;
  }
  const topic = topics.find((t) => t.name === client.topic);
  const onTopic = [...(hosts.topicInfo.get(client.topic)?.brokers ?? hosts.brokerNames)].filter((b) => brokerOf(b)).sort();
  const at = onTopic.indexOf(name);
  if (at < 0) return;
  client.selectorQueue = at * (topic?.queues ?? 4);
  ctx.prov(`${p}.selectorQueue`, `every failed send went to ${name} at about the whole send rate (${selected.length} in ${Math.round(span)} s): one ordering key, the first queue of ${name}`, [selected[0], selected[selected.length - 1]]);
}
