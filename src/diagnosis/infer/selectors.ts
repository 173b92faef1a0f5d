// A producer that picks its queues itself (a MessageQueueSelector) read from what it did not do: it
// sent nothing to a broker its route held while that broker left unanswered or refused every write
// of its, over a window where the round robin would have put many of its sends there, and it failed
// no send at all. selectOneMessageQueue's round robin (4.x TopicPublishInfo.sendWhichQueue, 5.x)
// walks every writable queue of the route, so each of its sends there would have failed and been
// logged (DefaultMQProducerImpl.sendDefaultImpl logs every failed attempt, `sendKernelImpl
// exception, resend at once`; an asynchronous send's timed-out request is removed and logged by
// scanResponseTable); fault avoidance needs a failed attempt first (MQFaultStrategy isolates a
// broker in updateFaultItem, after an attempt). A selector's send (sendSelectImpl) goes to the queue
// it picks, whatever the broker. gen-705's app-pay-01 (4.9.8, selector on queue 0, broker-a): cut off
// from broker-c for 2 min 30 s, it failed nothing while the round-robin clients lost sends there.

import type { Fault, ScenarioBroker, ScenarioClient, ScenarioTopic } from '../../model/index.js';
import { writableAfter } from '../../parse/route-change.js';
import { isAppFailure } from '../../parse/send-failure.js';
import type { RmqEvent } from '../../parse/types.js';
import type { InferContext } from './context.js';
import { refusals, REPLY_SLACK_MS, type Refusal } from './avoidance.js';

/**
 * A topic's brokers in the order the model numbers a selector's queues (by name: queue i is on the
 * broker at floor(i / queues)), and the queues each has.
 */
export function selectorBrokers(topics: readonly ScenarioTopic[], brokers: readonly ScenarioBroker[], topicName: string): { names: string[]; queues: number } {
  const topic = topics.find((t) => t.name === topicName);
  return { names: (topic?.brokers ?? brokers.map((b) => b.name)).filter((b) => brokers.some((x) => x.name === b)).sort(), queues: topic?.queues ?? 4 };
}

/** The first queue of `broker` among the topic's, or null when the topic has none there. */
export function firstQueueOf(topics: readonly ScenarioTopic[], brokers: readonly ScenarioBroker[], topicName: string, broker: string): number | null {
  const { names, queues } = selectorBrokers(topics, brokers, topicName);
  const at = names.indexOf(broker);
  return at < 0 ? null : at * queues;
}

/**
 * Sends the round robin would have put on the broker in the window, at least, at the client's
 * inferred rate: twice fault avoidance's EXPECTED_SENDS_MIN, since a client's rate is often its
 * equal share of the topic's (a client sending a third of that still puts 3 or more there).
 */
const EXPECTED_SENDS_SELECTOR_MIN = 10;

/** Lines of the client that tell a send or an attempt of it failed, whichever broker it was on. */
const FAILURE_TYPES: ReadonlySet<string> = new Set(['send-attempt-failed', 'send-failed', 'send-call-timeout', 'async-timeout', 'send-async-retry', 'busy-reply', 'no-route']);

function failedSomething(e: RmqEvent): boolean {
  return (e.kind === 'client' && FAILURE_TYPES.has(e.type)) || (e.kind === 'app' && isAppFailure(e));
}

/**
 * For each client not known to send through a selector, whose logs show no failed send or attempt
 * at all: a selector when a refusal window of a broker its route held (among 2 or more) would have
 * taken EXPECTED_SENDS_SELECTOR_MIN or more of its sends. Its ordering key is not in the logs: the
 * first queue of the first broker (by name) of the topic that never refused it is taken, and listed
 * in the defaults.
 */
export function selectorsFromSilence(ctx: InferContext, clients: ScenarioClient[], faults: readonly Fault[], brokers: readonly ScenarioBroker[], topics: readonly ScenarioTopic[]): void {
  const refusing = refusals(ctx, faults, brokers);
  if (!refusing.length) return;
  clients.forEach((c, i) => {
    if (c.selector || c.sendTimesMs) return;
    // A cap of the collect pass left some of its failures out: their absence says nothing.
    if ([...ctx.c.dropped.keys()].some((k) => k.endsWith(` ${c.host}`) && FAILURE_TYPES.has(k.slice(0, k.indexOf(' '))))) return;
    const mine = ctx.events.filter((e) => e.host === c.host && e.ts !== null);
    if (mine.some(failedSomething)) return;
    const mineRefusals = refusing.filter((r) => r.client === undefined || r.client === c.host);
    const routes = mine.filter((e) => e.type === 'route-changed' && e.kind === 'client' && String(e.fields.topic) === c.topic);
    for (const r of mineRefusals) {
      const before = routes.filter((e) => ctx.when(e) <= r.from).pop();
      const held = before ? writableAfter(before) : null;
      if (!held || !held.includes(r.broker) || held.length < 2) continue;
      const dropped = routes.find((e) => ctx.when(e) > r.from && !(writableAfter(e) ?? []).includes(r.broker));
      const end = Math.min(r.to, dropped ? ctx.when(dropped) : Infinity);
      const expected = (c.sendRatePerSec * (end - r.from)) / 1000 / held.length;
      if (expected < EXPECTED_SENDS_SELECTOR_MIN) continue;
      const queue = keyQueue(c, mineRefusals, brokers, topics);
      if (queue === null) continue;
      c.selector = true;
      c.selectorQueue = queue.index;
      const p = `scenario.clients[${i}]`;
      ctx.prov(
        `${p}.selector`,
        `no send of the client failed while ${r.broker} refused or left unanswered every write of its (${r.what}) for ${Math.round((end - r.from) / 1000)} s and its route held ${r.broker} among ${held.length} brokers: at ${c.sendRatePerSec} sends/s the round robin of selectOneMessageQueue would have put about ${Math.round(expected)} there, each failed and logged, and fault avoidance needs a failed attempt first; a MessageQueueSelector picks its queue itself (sendSelectImpl) (inferred from behaviour)`,
        [before],
      );
      ctx.def(`${p}.selectorQueue`, `${queue.index} (the first queue of ${queue.broker}, the first broker of ${c.topic} that never refused the client: which key the selector used is not in the logs)`);
      return;
    }
  });
}

/**
 * The ordering key of a client known to send through a selector (its failures went through
 * sendSelectImpl) whose failures did not show it at the send rate: every failed send of its hit one
 * broker, but a failed send holds a sending thread for its whole timeout (a connect that times out
 * after 3 s), so failures come at the rate the application's threads free up, not at the send rate
 * (gen-716's app-stock-01: 84 failures on broker-a in 143 s, two threads failing every 3.5 s). Its
 * key is one when it also failed nothing while another broker of its route refused or left
 * unanswered every write over a window where new keys would have put EXPECTED_SENDS_SELECTOR_MIN or
 * more of its sends there (sendSelectImpl sends to the queue the key picks, one attempt, and the
 * application gets every failure): app-stock-01 failed nothing during broker-b's 30 s of full disk,
 * while the round-robin clients did. The key is taken on the first queue of the broker it failed on.
 */
export function selectorKeysFromSilence(ctx: InferContext, clients: ScenarioClient[], faults: readonly Fault[], brokers: readonly ScenarioBroker[], topics: readonly ScenarioTopic[]): void {
  const refusing = refusals(ctx, faults, brokers);
  if (!refusing.length) return;
  const nameOf = (addr: unknown) => brokers.find((b) => b.addr === addr)?.name ?? null;
  clients.forEach((c, i) => {
    if (!c.selector || c.selectorQueue !== undefined) return;
    if ([...ctx.c.dropped.keys()].some((k) => k.endsWith(` ${c.host}`) && FAILURE_TYPES.has(k.slice(0, k.indexOf(' '))))) return;
    const mine = ctx.events.filter((e) => e.host === c.host && e.ts !== null);
    const selected = mine.filter((e) => e.sendPath === 'select' && (e.kind === 'client' || isAppFailure(e)));
    const names = new Set(selected.map((e) => nameOf(e.fields.addr ?? e.fields.brokerAddr)));
    const [name] = [...names];
    if (names.size !== 1 || name === null || selected.length < 3) return;
    const routes = mine.filter((e) => e.type === 'route-changed' && e.kind === 'client' && String(e.fields.topic) === c.topic);
    for (const r of refusing.filter((x) => x.broker !== name && (x.client === undefined || x.client === c.host))) {
      const before = routes.filter((e) => ctx.when(e) <= r.from).pop();
      const held = before ? writableAfter(before) : null;
      if (!held || !held.includes(r.broker) || !held.includes(name)) continue;
      const dropped = routes.find((e) => ctx.when(e) > r.from && !(writableAfter(e) ?? []).includes(r.broker));
      const end = Math.min(r.to, dropped ? ctx.when(dropped) : Infinity);
      const expected = (c.sendRatePerSec * (end - r.from)) / 1000 / held.length;
      if (expected < EXPECTED_SENDS_SELECTOR_MIN || mine.some((e) => failedSomething(e) && e.ts! >= r.from && e.ts! <= end)) continue;
      const queue = firstQueueOf(topics, brokers, c.topic, name);
      if (queue === null) return;
      c.selectorQueue = queue;
      const p = `scenario.clients[${i}].selectorQueue`;
      delete ctx.defaults[p];
      ctx.prov(
        p,
        `every failed send went to ${name} (${selected.length}), and none failed while ${r.broker} refused or left unanswered every write (${r.what}) for ${Math.round((end - r.from) / 1000)} s though its route held it: new keys at ${c.sendRatePerSec} sends/s would have put about ${Math.round(expected)} there, each failed and given to the application (sendSelectImpl, one attempt); one ordering key, the first queue of ${name} (which queue is not in the logs; inferred from behaviour)`,
        [selected[0], selected[selected.length - 1], before],
      );
      return;
    }
  });
}

/** The first queue of the first broker (by name) of the client's topic that refused it in no window. */
function keyQueue(c: ScenarioClient, mine: readonly Refusal[], brokers: readonly ScenarioBroker[], topics: readonly ScenarioTopic[]): { index: number; broker: string } | null {
  const { names, queues } = selectorBrokers(topics, brokers, c.topic);
  const at = names.findIndex((b) => !mine.some((r) => r.broker === b));
  return at < 0 ? null : { index: at * queues, broker: names[at] };
}

/**
 * For each client known to send through a selector (its failed sends' stack traces go through
 * sendSelectImpl) whose key the failures did not place (no broker address in them: a 4.x client's
 * MQBrokerException names none): its key is on broker B when every send it failed was refused by
 * B's full disk (code 14, in a window when B alone had a full disk) and it failed nothing while
 * another broker of its route refused or left unanswered every write over a window where sends
 * picked anew would have put EXPECTED_SENDS_SELECTOR_MIN or more there. One ordering key sends every
 * message to one queue (sendSelectImpl, no retry). gen-702's app-stock-01 (4.5.1, queue 0): 180
 * sends refused by broker-a's full disk, none failed while mq-node-b rebooted.
 */
export function selectorKeysFromRefusals(ctx: InferContext, clients: ScenarioClient[], faults: readonly Fault[], brokers: readonly ScenarioBroker[], topics: readonly ScenarioTopic[]): void {
  const refusing = refusals(ctx, faults, brokers);
  const full = refusing.filter((r) => r.what.startsWith('its disk full'));
  if (!full.length) return;
  clients.forEach((c, i) => {
    const p = `scenario.clients[${i}]`;
    if (!c.selector || c.selectorQueue !== undefined || c.sendTimesMs || !(`${p}.selectorQueue` in ctx.defaults)) return;
    if ([...ctx.c.dropped.keys()].some((k) => k.endsWith(` ${c.host}`) && FAILURE_TYPES.has(k.slice(0, k.indexOf(' '))))) return;
    const mine = ctx.events.filter((e) => e.host === c.host && e.ts !== null);
    const failed = mine.filter(failedSomething);
    // Each failure a full disk's refusal, in a window of one broker's full disk and no other's.
    const on = failed.map((e) => {
      if (e.type !== 'disk-full' || e.fields.code !== 14) return null;
      const t = ctx.when(e);
      const at = full.filter((r) => t >= r.from && t <= r.to + REPLY_SLACK_MS);
      return at.length === 1 ? at[0].broker : null;
    });
    const broker = on[0];
    if (!broker || failed.length < 3 || on.some((b) => b !== broker)) return;
    // A window of another broker of its route that its sends, were each key new, would have hit.
    const routes = mine.filter((e) => e.type === 'route-changed' && e.kind === 'client' && String(e.fields.topic) === c.topic);
    const quiet = refusing.find((r) => {
      if (r.broker === broker || (r.client !== undefined && r.client !== c.host)) return false;
      const before = routes.filter((e) => ctx.when(e) <= r.from).pop();
      const held = before ? writableAfter(before) : null;
      if (!held || !held.includes(r.broker) || !held.includes(broker)) return false;
      const expected = (c.sendRatePerSec * (r.to - r.from)) / 1000 / held.length;
      // Every failure of the client is the full disk's: none was there.
      return expected >= EXPECTED_SENDS_SELECTOR_MIN;
    });
    if (!quiet) return;
    const queue = firstQueueOf(topics, brokers, c.topic, broker);
    if (queue === null) return;
    c.selectorQueue = queue;
    delete ctx.defaults[`${p}.selectorQueue`];
    ctx.prov(
      `${p}.selectorQueue`,
      `every send it failed (${failed.length}) was refused by ${broker}'s full disk, and none failed while ${quiet.broker} refused or left unanswered every write (${quiet.what}) for ${Math.round((quiet.to - quiet.from) / 1000)} s: one ordering key, on ${broker} (sendSelectImpl sends each message to the queue the selector picks, with no retry); the first of ${broker}'s queues (which of them the key picks is not in the logs) (inferred from behaviour)`,
      [failed[0], failed[failed.length - 1]],
    );
  });
}
