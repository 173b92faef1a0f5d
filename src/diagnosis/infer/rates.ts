// A producer's own send rate read from the writes a broker refused, once the faults are known. The
// brokers count a topic's puts, not a producer's (stats.log TOPIC_PUT_NUMS), so the clients of a
// topic start with equal shares of its stored rate (infer/clients.ts). While a broker's store refuses
// every write (its disk full: DefaultMessageStore.putMessage answers SERVICE_NOT_AVAILABLE, code 14,
// until CleanCommitLogService finds the disk under diskMaxUsedSpaceRatio again), the round robin of
// selectOneMessageQueue (4.x TopicPublishInfo.sendWhichQueue, 5.x) puts the broker's share of a
// client's sends there, and each is refused. A client that makes one attempt per send makes as many
// refusals as sends it put there: an asynchronous one (MQClientAPIImpl.sendMessageAsync hands a
// broker's error reply to the SendCallback with needRetry false, 4.5.0-5.3.3: no retry), and one
// whose retryTimesWhenSendFailed its logs showed to be 0, and a selector whose key is known (all its
// sends go to that queue, once: sendSelectImpl). Its application logs each. Such a client's rate is
// its refusals over the time the refusing queues were a share of its route; the topic's other
// clients share what is left of the stored rate, to which the sends refused in its minute and lost
// are added (a refused put is neither stored nor counted). gen-712's app-order-01 (4.6.0, async): 29
// refusals while broker-a and broker-c refused for 30 s and 60 s, a third of its route each: 0.97/s
// (it sent 1/s), where the equal share of the topic's 3.96/s was 1.98/s.

import { brokerFaultMs, type Fault, type ScenarioBroker, type ScenarioClient, type ScenarioTopic } from '../../model/index.js';
import { writableAfter } from '../../parse/route-change.js';
import { isAppFailure } from '../../parse/send-failure.js';
import type { RmqEvent } from '../../parse/types.js';
import { round2, type InferContext } from './context.js';
import { REPLY_SLACK_MS } from './avoidance.js';
import { firstQueueOf, selectorBrokers } from './selectors.js';

/**
 * Refusals below this say too little of a rate (each one more or less moves it by a fifth), and
 * refusing time below this (seconds, the refusing queues' share of the route times the window) too.
 */
const REFUSALS_MIN = 5;
/**
 * Refusals from which the rate is stated, not assumed: which queue each send takes is as good as a
 * draw (the round robin's index is per sending thread, ThreadLocalIndex, and starts at random), so
 * n refusals out of a third of the route spread by about sqrt(n * 2/3); from 25 on that is a sixth
 * of n or less. Fewer give a rate that is listed as assumed (gen-714's app-pay-01: 13 where 10 were
 * due at the 1/s it sent).
 */
const REFUSALS_STATED = 25;
const EXPOSURE_MIN_S = 5;

/** A topic's stored rate that inferClients shared equally among its clients. */
export interface SharedRate {
  topic: string;
  /** The topic's stored rate, before it was shared. */
  total: number;
  /** The end (epoch ms) of the minute whose stored count gave it. */
  minuteEnd: number;
  /** Indexes of the clients (in the scenario) that share it. */
  clients: number[];
}

/** One client's rate read from its refusals. */
interface Measured {
  index: number;
  rate: number;
  refusals: RmqEvent[];
  exposureS: number;
  windows: string[];
  /**
   * Set for an asynchronous client not known to use a selector whose refusals all came from one
   * broker: the rate it would have if a MessageQueueSelector had sent every message to that broker.
   * An asynchronous send's failure reaches the SendCallback from the reply's thread
   * (MQClientAPIImpl.sendMessageAsync, 4.x; its stack holds no sendSelectImpl), so its logs cannot
   * tell a selector's send from the round robin's, and the two readings differ by the route's share.
   */
  ifSelector?: { rate: number; broker: string };
  /** A broker's stats line that stored less than the round robin would have put there: the selector's reading holds. */
  notRoundRobin?: RmqEvent;
}

/** Below this share of what the round robin would put on a broker, its stored count rules the round robin out. */
const ROUND_ROBIN_SHARE = 0.75;

/**
 * For each topic whose stored rate was shared: each one-attempt client's rate from its refusals
 * while a broker's disk was full, and the rest of the stored rate shared by the others (none when
 * the measured rates leave nothing, which would say the measure is off: the equal shares stay).
 */
export function ratesFromRefusals(ctx: InferContext, clients: ScenarioClient[], shared: readonly SharedRate[], faults: readonly Fault[], brokers: readonly ScenarioBroker[], topics: readonly ScenarioTopic[]): void {
  for (const s of shared) {
    const lost = lostIn(ctx, clients, s);
    const total = s.total + lost.length / 60;
    const measured = s.clients.map((i) => measure(ctx, clients[i], i, faults, brokers, topics)).filter((m): m is Measured => m !== null);
    if (!measured.length && !lost.length) continue;
    const rest = s.clients.filter((i) => !measured.some((m) => m.index === i));
    const left = total - measured.reduce((n, m) => n + m.rate, 0);
    if (rest.length && left <= 0) continue;
    for (const m of measured) {
      const c = clients[m.index];
      const path = `scenario.clients[${m.index}].sendRatePerSec`;
      if (m.ifSelector && m.notRoundRobin) {
        // Its sends all went to the refusing broker (measure took the selector's rate): a key there.
        const queue = firstQueueOf(topics, brokers, c.topic, m.ifSelector.broker);
        if (queue !== null) {
          c.selector = true;
          c.selectorQueue = queue;
          ctx.prov(`scenario.clients[${m.index}].selector`, `every send it failed was refused by ${m.ifSelector.broker}, and ${m.notRoundRobin.host} stored less of ${c.topic} in a minute before than the round robin would have put there from this client alone: a MessageQueueSelector (inferred from behaviour)`, [m.refusals[0], m.notRoundRobin]);
          ctx.def(`scenario.clients[${m.index}].selectorQueue`, `${c.selectorQueue} (the first queue of ${m.ifSelector.broker}: which key the selector used is not in the logs)`);
        }
      }
      c.sendRatePerSec = m.rate;
      delete c.sendRateSteps;
      delete ctx.defaults[`scenario.clients[${m.index}].sendRateSteps`];
      const few = m.refusals.length < REFUSALS_STATED ? `, fewer than ${REFUSALS_STATED}: too few to state a rate` : '';
      if (m.ifSelector && !m.notRoundRobin) ctx.def(path, `${m.rate} (from its ${m.refusals.length} refused writes${few}, if the round robin spread its sends over its route; ${m.ifSelector.rate} if a MessageQueueSelector sent each to ${m.ifSelector.broker}: every refusal was ${m.ifSelector.broker}'s, and an asynchronous send's failure does not show which of the two picked the queue)`);
      else if (m.refusals.length >= REFUSALS_STATED) delete ctx.defaults[path];
      else ctx.def(path, `${m.rate} (from ${m.refusals.length} refused writes${few})`);
      ctx.prov(
        path,
        `${m.refusals.length} of its sends refused while ${m.windows.join(' and ')}: a client that makes one attempt per send ` +
          `(${c.selector && !m.notRoundRobin ? 'a selector: sendSelectImpl does not retry' : c.async ? 'asynchronous: a broker’s error reply goes to the SendCallback, not retried' : 'retryTimesWhenSendFailed 0'}) had as many sends on the refusing queues, ` +
          (m.ifSelector && m.notRoundRobin
            ? `every one of its sends for ${round2(m.exposureS)} s: every refusal was ${m.ifSelector.broker}'s, and ${m.notRoundRobin.host} stored less of ${c.topic} in a minute before than the round robin would have put there from this client alone, so its sends went to ${m.ifSelector.broker} (a MessageQueueSelector's key; inferred from behaviour)`
            : c.selector
              ? `every one of its sends for ${round2(m.exposureS)} s`
              : `${round2(m.exposureS)} s of its whole route's sends by the round robin of selectOneMessageQueue`),
        [m.refusals[0], m.refusals[m.refusals.length - 1], ...(m.notRoundRobin ? [m.notRoundRobin] : [])],
      );
    }
    const each = rest.length ? round2(left / rest.length) : 0;
    const names = measured.map((m) => clients[m.index].host).join(', ');
    const stored = `the ${round2(s.total)}/s of ${s.topic} its masters stored${lost.length ? ` and the ${lost.length} sends of it they refused that minute, lost (${round2(total)}/s)` : ''}`;
    const after = measured.length ? ` leaves after ${names}, ${measured.length === 1 ? 'whose rate its' : 'whose rates their'} refused writes gave` : '';
    for (const i of rest) {
      const c = clients[i];
      const path = `scenario.clients[${i}].sendRatePerSec`;
      const was = c.sendRatePerSec;
      c.sendRatePerSec = each;
      if (c.sendRateSteps && was > 0) c.sendRateSteps = c.sendRateSteps.map((x) => ({ atMs: x.atMs, perSec: round2((x.perSec * each) / was) }));
      ctx.def(path, `${each} (an equal share of ${measured.length ? 'what ' : ''}${stored}${after}: no line splits a topic's sends by producer)`);
      if (lost.length && ctx.provenance[path]) ctx.provenance[path].rule += `; with the ${lost.length} sends of that minute the brokers refused (SERVICE_NOT_AVAILABLE) and their applications lost: a refused put is not stored, nor counted`;
    }
  }
}

/** The client's rate from its refusals in the disk-full windows of its route's brokers, or null. */
function measure(ctx: InferContext, c: ScenarioClient, i: number, faults: readonly Fault[], brokers: readonly ScenarioBroker[], topics: readonly ScenarioTopic[]): Measured | null {
  if (c.sendTimesMs) return null;
  const topic = topics.find((t) => t.name === c.topic);
  const onTopic = topic?.brokers ?? brokers.map((b) => b.name);
  // A selector with one key sends every message to its queue, once (sendSelectImpl: no retry); its
  // queue's broker is the route it has. One with a new key per send is no round robin.
  const keyed = c.selector && c.selectorQueue !== undefined && !(`scenario.clients[${i}].selectorQueue` in ctx.defaults);
  const sel = selectorBrokers(topics, brokers, c.topic);
  const keyBroker = keyed ? sel.names[Math.floor(c.selectorQueue! / sel.queues)] : undefined;
  if (c.selector && !keyBroker) return null;
  if (!c.selector && c.settings?.sendLatencyFaultEnable) return null;
  const retryKnown = !(`scenario.clients[${i}].settings.retryTimesWhenSendFailed` in ctx.defaults);
  if (!c.selector && !c.async && !(retryKnown && c.settings?.retryTimesWhenSendFailed === 0)) return null;
  // The application logs every send that failed (its SendCallback's onException, or the exception
  // send threw); without its log a one-attempt client's refusals are not all in the client's.
  if (!ctx.roles.get(c.host)?.has('app')) return null;
  const mine = ctx.events.filter((e) => e.host === c.host && e.ts !== null);
  const routes = mine.filter((e) => e.type === 'route-changed' && e.kind === 'client' && String(e.fields.topic) === c.topic);
  const start = ctx.startEpochMs + (c.startAtMs ?? 0);
  let exposureS = 0;
  const windows: Array<{ from: number; to: number; broker: string; s: number }> = [];
  const said: string[] = [];
  faults.forEach((f) => {
    if (!('diskFull' in f) || !onTopic.includes(f.broker)) return;
    const from = ctx.startEpochMs + f.atMs;
    const to = from + f.diskFull.durationMs;
    const before = routes.filter((e) => ctx.when(e) <= from).pop();
    const held = keyBroker ? [keyBroker] : ((before ? writableAfter(before) : null) ?? onTopic);
    if (!held.includes(f.broker) || from < start) return;
    exposureS += (to - from) / 1000 / held.length;
    windows.push({ from, to: to + REPLY_SLACK_MS, broker: f.broker, s: (to - from) / 1000 });
    said.push(`${f.broker} refused every write for ${Math.round((to - from) / 1000)} s (its disk full), ${keyBroker ? 'the broker of its selector’s queue' : `1 of ${held.length} brokers of its route`}`);
  });
  if (!windows.length || exposureS < EXPOSURE_MIN_S) return null;
  const refusals = mine.filter((e) => e.kind === 'app' && e.type === 'disk-full' && e.fields.code === 14 && windows.some((w) => e.ts! >= w.from && e.ts! <= w.to));
  if (refusals.length < REFUSALS_MIN) return null;
  const measured: Measured = { index: i, rate: round2(refusals.length / exposureS), refusals, exposureS, windows: said };
  const struck = windows.filter((w) => refusals.some((e) => e.ts! >= w.from && e.ts! <= w.to));
  const struckBrokers = new Set(struck.map((w) => w.broker));
  if (!keyBroker && c.async && struckBrokers.size === 1 && !sentElsewhere(mine, [...struckBrokers][0], brokers)) {
    const selectorS = struck.reduce((n, w) => n + w.s, 0);
    const broker = [...struckBrokers][0];
    measured.ifSelector = { rate: round2(refusals.length / selectorS), broker };
    const short = storedShort(ctx, c, measured.rate, broker, onTopic, brokers, faults, routes, start, Math.min(...struck.map((w) => w.from)));
    if (short) {
      measured.notRoundRobin = short;
      measured.rate = measured.ifSelector.rate;
      measured.exposureS = selectorS;
    }
  }
  return measured;
}

/**
 * A broker of the client's topic that stored, in a whole minute before the refusals while the client
 * sent, less than ROUND_ROBIN_SHARE of what the round robin would have put there from this client
 * alone at `rate` (its share of the topic's brokers, the most there could be): then the client's
 * sends did not go round the route, and its refusals were all its sends (a selector's key). stats.log
 * counts a topic's puts per broker (TOPIC_PUT_NUMS), every producer's together, so more than the
 * share says nothing. Only a minute the broker was in the client's route all along and no fault of
 * the scenario touched it (a broker down, stalled, overloaded or cut off stores less for its own reasons).
 */
function storedShort(
  ctx: InferContext,
  c: ScenarioClient,
  rate: number,
  refusing: string,
  onTopic: readonly string[],
  brokers: readonly ScenarioBroker[],
  faults: readonly Fault[],
  routes: readonly RmqEvent[],
  start: number,
  before: number,
): RmqEvent | null {
  const share = (rate * 60) / Math.max(1, onTopic.length);
  for (const name of onTopic) {
    if (name === refusing) continue;
    const host = brokers.find((b) => b.name === name)?.host;
    const line = ctx.c.topicPuts.find(
      (x) => x.host === host && x.topic === c.topic && x.ts <= before && x.ts - 60000 >= start && x.sum < share * ROUND_ROBIN_SHARE && heldAllMinute(ctx, routes, name, x.ts) && !faultIn(ctx, faults, name, host, x.ts - 60000, x.ts),
    );
    if (line) return line.event;
  }
  return null;
}

/** Whether the client's route held the broker writable from a minute before `end` to `end` (its last route line before, and none between that dropped it). */
function heldAllMinute(ctx: InferContext, routes: readonly RmqEvent[], broker: string, end: number): boolean {
  const before = routes.filter((e) => ctx.when(e) <= end - 60000).pop();
  if (!before || !(writableAfter(before) ?? []).includes(broker)) return false;
  return !routes.some((e) => ctx.when(e) > end - 60000 && ctx.when(e) <= end && !(writableAfter(e) ?? []).includes(broker));
}

/** Whether a fault of the scenario on the broker or its host overlaps [from, to] (epoch ms). */
function faultIn(ctx: InferContext, faults: readonly Fault[], broker: string, host: string | undefined, from: number, to: number): boolean {
  return faults.some((f, i) => {
    const at = ctx.startEpochMs + f.atMs;
    if ('state' in f) {
      if (f.host !== host) return false;
      const next = faults.slice(i + 1).find((g) => 'state' in g && g.host === f.host);
      return at <= to && (f.state === 'up' ? at >= from : next ? ctx.startEpochMs + next.atMs >= from : true);
    }
    if ('partition' in f) return (f.partition as readonly string[]).includes(host ?? '') && at <= to && (f.durationMs === undefined || at + f.durationMs >= from);
    if (!('broker' in f) || f.broker !== broker) return false;
    return at <= to && at + brokerFaultMs(f) >= from;
  });
}

/** Whether a line of the client places one of its sends or attempts on a broker other than this one. */
function sentElsewhere(mine: readonly RmqEvent[], broker: string, brokers: readonly ScenarioBroker[]): boolean {
  const addr = brokers.find((b) => b.name === broker)?.addr;
  return mine.some((e) => {
    if (!((e.kind === 'app' && isAppFailure(e)) || (e.kind === 'client' && /^(send|busy-reply|async-timeout)/.test(e.type)))) return false;
    const at = e.fields.addr ?? e.fields.brokerAddr ?? e.fields.brokerName;
    return typeof at === 'string' && at !== addr && at !== broker && brokers.some((b) => b.addr === at || b.name === at);
  });
}

/**
 * Sends to the topic lost to a broker's refusal (code 14, SERVICE_NOT_AVAILABLE: the store did not
 * put them, and stats.log's TOPIC_PUT_NUMS counts puts) in the minute whose stored count gave the
 * topic's rate: what the producers sent that minute is the stored count and these. Only the
 * applications' own lines: a failed send is one the application got back after every attempt.
 */
function lostIn(ctx: InferContext, clients: readonly ScenarioClient[], s: SharedRate): RmqEvent[] {
  const hosts = new Set(clients.filter((c) => c.topic === s.topic).map((c) => c.host));
  return ctx.events.filter((e) => hosts.has(e.host) && e.kind === 'app' && e.type === 'disk-full' && e.fields.code === 14 && e.ts !== null && e.ts > s.minuteEnd - 60000 && e.ts <= s.minuteEnd);
}
