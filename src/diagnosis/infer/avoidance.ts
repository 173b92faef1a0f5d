// Fault avoidance read from behaviour once the faults are known: a client failed against a broker,
// then sent nothing more to it for a long while although that broker went on refusing or leaving
// unanswered every write and the client's route still listed it. A failed attempt is logged whatever
// the retries (`sendKernelImpl exception, resend at once, ... Broker: MessageQueue [...]`,
// DefaultMQProducerImpl.sendDefaultImpl logs every caught exception), so no more such lines means no
// more attempts there; a one-attempt client's (retryTimesWhenSendFailed 0, or asynchronous) failure
// is also read from its application's line, and an asynchronous send's request that timed out from
// the client's `remove timeout request` (4.x names its broker's address; every one is logged). Without fault avoidance, selectOneMessageQueue's round robin (4.x
// TopicPublishInfo, 5.x) gives that broker its share of the next sends, each of which would have
// failed too; with it, MQFaultStrategy isolates a broker after a failed attempt
// (updateFaultItem(broker, latency, isolation=true) in DefaultMQProducerImpl.sendDefaultImpl, 4.9.x
// and 5.x) and the sends go elsewhere. gen-704's app-stock-01 (4.9.5, retry 0): one failure against
// each of broker-b (restarting) and broker-a (disk full), while the other clients kept failing.

import { hostStateWord, type Fault, type ScenarioBroker, type ScenarioClient } from '../../model/index.js';
import { writableAfter } from '../../parse/route-change.js';
import type { RmqEvent } from '../../parse/types.js';
import type { InferContext } from './context.js';
import { isSendCallbackClass } from '../../parse/record.js';
import { brokerVipAddr } from '../../rocketmq/facts.js';
import { addrInText } from '../../rules/routing.js';

/** How many times EXPECTED_SENDS_MIN a window must hold at a rate no line gave (an equal share may be twice the client's own). */
const ASSUMED_RATE_MARGIN = 2;

/**
 * Sends a client without fault avoidance would have put on the refusing broker in the window, at
 * least: below this the window is too short to tell avoidance from the round robin's luck (none of
 * 5 sends expected to land there does so about once in 150 times).
 */
export const EXPECTED_SENDS_MIN = 5;

/**
 * A refusal's reply reaches the application this long after the store stopped refusing, at most (one
 * round trip, and the exception's way up or the callback): a refusal logged that late is still the window's.
 */
export const REPLY_SLACK_MS = 2000;

/** A window in which a broker refused every write, in epoch ms. */
export interface Refusal {
  broker: string;
  from: number;
  to: number;
  what: string;
  /** Only for the client on this host (a partition between it and the broker's host); else for every client. */
  client?: string;
}

/**
 * Windows where a broker refused or left unanswered every write: its host down or hung (until it is
 * up), its disk full; for one client, its host cut off from the broker's (a partition: its requests
 * get no answer, as from a hung host).
 */
export function refusals(ctx: InferContext, faults: readonly Fault[], brokers: readonly ScenarioBroker[]): Refusal[] {
  const out: Refusal[] = [];
  const epoch = (atMs: number) => ctx.startEpochMs + atMs;
  faults.forEach((f, i) => {
    if ('diskFull' in f) out.push({ broker: f.broker, from: epoch(f.atMs), to: epoch(f.atMs + f.diskFull.durationMs), what: `its disk full (scenario.faults[${i}])` });
    else if ('partition' in f) {
      const to = f.durationMs !== undefined ? epoch(f.atMs + f.durationMs) : ctx.last;
      for (const [side, other] of [f.partition, [f.partition[1], f.partition[0]]]) {
        for (const b of brokers.filter((x) => x.host === side)) out.push({ broker: b.name, from: epoch(f.atMs), to, what: `${side} cut off from ${other} (scenario.faults[${i}])`, client: other });
      }
    }
    else if ('state' in f && (f.state === 'down' || f.state === 'hung')) {
      // Until the host's next change of state (a hang may end in a reboot or a kill).
      const next = faults.find((g, j) => j > i && 'state' in g && g.host === f.host && g.state !== f.state);
      for (const b of brokers.filter((x) => x.host === f.host)) {
        out.push({ broker: b.name, from: epoch(f.atMs), to: next ? epoch(next.atMs) : ctx.last, what: `${f.host} ${hostStateWord(f)} (scenario.faults[${i}])` });
      }
    }
  });
  return out;
}

/**
 * The broker of a failed attempt, else null: the client log's failed attempt (with its broker's
 * name), an application's failed one-attempt send (`Send [1] times ...
 * BrokersSent: [X]`, or for an asynchronous client a broker's error reply given to its SendCallback
 * as it came (MQBrokerException's `BROKER: ip:port`; MQClientAPIImpl.sendMessageAsync).
 */
function failedAt(e: RmqEvent, async: boolean, brokers: readonly ScenarioBroker[]): string | null {
  // Any client's failed attempt, as its client log names it.
  if (e.kind === 'client' && e.type === 'send-attempt-failed') {
    if (typeof e.fields.brokerName === 'string') return e.fields.brokerName;
    // 5.1.0-5.2.0 print the line's placeholders unfilled (`Broker: %s`): its cause names the
    // channel (`wait response on the channel <ip:port> timeout`; gen-20261217's app-pay-01, 5.1.1).
    const addr = addrInText(typeof e.fields.cause === 'string' ? e.fields.cause : null);
    return addr ? (brokers.find((b) => b.addr === addr || brokerVipAddr(b.addr) === addr)?.name ?? null) : null;
  }
  // An ASYNC send's request that timed out, as the client's scanResponseTable removed it (4.x names
  // the channel): sendMessageAsync's InvokeCallback then calls updateFaultItem(broker, cost,
  // isolation=true) (MQClientAPIImpl, 4.3.0-5.3.3), as sendDefaultImpl does for a sync attempt.
  // The channel may be the broker's VIP one (a 4.3.0-4.5.0 client sends through it: port - 2).
  if (isAsyncSendTimeout(e) && typeof e.fields.addr === 'string') return brokers.find((b) => b.addr === e.fields.addr || brokerVipAddr(b.addr) === e.fields.addr)?.name ?? null;
  if (e.kind !== 'app') return null;
  if (e.entry === 'send-failed/still-failed' && Array.isArray(e.fields.brokersSent)) {
    const sent = e.fields.brokersSent as string[];
    return sent.length === 1 && sent[0] !== 'null' ? sent[0] : null;
  }
  if (async && typeof e.fields.brokerAddr === 'string') return brokers.find((b) => b.addr === e.fields.brokerAddr)?.name ?? null;
  return null;
}

function isAsyncSendTimeout(e: RmqEvent): boolean {
  return e.kind === 'client' && e.entry === 'async-timeout/remove-timeout-request' && isSendCallbackClass(e.fields.callback);
}

/**
 * Most a request waits in the response table beyond its timeout before scanResponseTable removes it:
 * its `+ 1000` and the scan's 1 s period, and a second for a loaded JVM. A beginTimestamp further
 * off than that is not read (another clock, a zone read wrongly).
 */
const SCAN_DELAY_MAX_MS = 3000;

/**
 * When a failed attempt began, in epoch ms: a removed ASYNC request's beginTimestamp when it agrees
 * with the line's time (its timeout to SCAN_DELAY_MAX_MS more before it), else the line's time (a
 * sync attempt's line comes when it failed).
 */
function began(ctx: InferContext, e: RmqEvent): number {
  const t = ctx.when(e);
  const begin = e.fields.beginMs;
  if (!isAsyncSendTimeout(e) || typeof begin !== 'number' || e.ts === null) return t;
  const waited = e.ts - begin;
  const timeout = typeof e.fields.timeoutMs === 'number' ? e.fields.timeoutMs : 0;
  return waited >= timeout && waited <= timeout + SCAN_DELAY_MAX_MS ? t - waited : t;
}

/** What a failed attempt was read from, for the provenance. */
function failureText(e: RmqEvent, broker: string): string {
  return isAsyncSendTimeout(e)
    ? `an ASYNC send's request to ${broker} timed out (\`remove timeout request\`, NettyRemotingAbstract.scanResponseTable; its InvokeCallback calls updateFaultItem with isolation)`
    : `a failed attempt on ${broker}`;
}

/**
 * For each client whose sendLatencyFaultEnable is still a default (and no selector, which picks the
 * queue itself): true when a failed attempt on a broker was followed by none on it while the broker
 * refused or left unanswered every write and the
 * client's route held it, over a window where the round robin would have given it
 * EXPECTED_SENDS_MIN sends or more at the client's inferred rate (which the run gives it throughout;
 * a later failed send of its own shows it went on sending, and the provenance says which it was).
 */
export function avoidanceFromBehaviour(ctx: InferContext, clients: ScenarioClient[], faults: readonly Fault[], brokers: readonly ScenarioBroker[]): void {
  const refusing = refusals(ctx, faults, brokers);
  if (!refusing.length) return;
  clients.forEach((c, i) => {
    const path = `scenario.clients[${i}].settings.sendLatencyFaultEnable`;
    const settings = c.settings ?? {};
    if (!(path in ctx.defaults) || settings.sendLatencyFaultEnable) return;
    if (c.selector) return;
    const mine = ctx.events.filter((e) => e.host === c.host && e.ts !== null);
    const at = (e: RmqEvent) => failedAt(e, c.async === true, brokers);
    const failures = mine.filter((e) => at(e) !== null);
    const routes = mine.filter((e) => e.type === 'route-changed' && e.kind === 'client' && String(e.fields.topic) === c.topic);
    for (const f of failures) {
      const broker = at(f)!;
      const t = ctx.when(f);
      const r = refusing.find((x) => x.broker === broker && (x.client === undefined || x.client === c.host) && x.from <= t && t <= x.to);
      if (!r) continue;
      // The client's route at the failure, and when it next dropped the broker.
      const before = routes.filter((e) => ctx.when(e) <= t).pop();
      const held = before ? writableAfter(before) : null;
      if (!held || !held.includes(broker) || held.length < 2) continue;
      const dropped = routes.find((e) => ctx.when(e) > t && !(writableAfter(e) ?? []).includes(broker));
      // Requests already in flight when the failure was known (an ASYNC send's timeout is known a
      // second or two after it: scanResponseTable) show nothing of the choices made after it.
      const again = failures.find((g) => g !== f && began(ctx, g) > t && at(g) === broker);
      const end = Math.min(r.to, dropped ? ctx.when(dropped) : Infinity, again ? ctx.when(again) : Infinity);
      // Still sending after the window: a later failed send of its own shows it; without one, the
      // rate the run gives the client throughout is the premise, and the provenance says so.
      const later = failures.find((e) => ctx.when(e) > end);
      const expected = (c.sendRatePerSec * (end - t)) / 1000 / held.length;
      if (again || expected < EXPECTED_SENDS_MIN) continue;
      c.settings = { ...settings, sendLatencyFaultEnable: true };
      const why = `after ${failureText(f, broker)} the client sent it nothing more for ${Math.round((end - t) / 1000)} s, while ${broker} refused or left unanswered every write (${r.what}) and the client's route still held it among ${held.length} brokers; ${later ? 'it went on sending (a later failed send)' : 'no line shows it stopped sending (taken to send at its inferred rate throughout, as the run does)'}. At ${c.sendRatePerSec} sends/s the round robin of selectOneMessageQueue would have put about ${Math.round(expected)} of them on ${broker}: MQFaultStrategy isolated it after the failed attempt (inferred from behaviour)`;
      // The sends it would have put there are its rate's: a rate no line gave (an equal share of its
      // topic's) may be twice what it sent, and then the window must hold twice as many for the value
      // to be stated; short of that it is an assumption, and listed so (gen-20261225: app-notify-01,
      // assumed at 3.13/s where it sent 1, made no attempt on broker-b for 3 s: 5 sends at the share,
      // one or two at its own rate, which says nothing; it ran without).
      if (`scenario.clients[${i}].sendRatePerSec` in ctx.defaults && expected < ASSUMED_RATE_MARGIN * EXPECTED_SENDS_MIN) {
        ctx.def(path, `true (${why}; its rate is an assumed share, too close to the least that tells to state it)`);
        return;
      }
      delete ctx.defaults[path];
      ctx.prov(path, why, [f, before, later ?? null]);
      return;
    }
  });
}
