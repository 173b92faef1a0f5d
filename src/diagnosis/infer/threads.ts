// The application's threads that call send, where its failures show them all busy: a synchronous
// send holds the thread that called it until it returns (DefaultMQProducer.send), so an application
// with N sending threads has at most N sends in flight, and its failed sends are logged on them.

import type { ScenarioClient } from '../../model/index.js';
import { isSendCallbackThread } from '../../rocketmq/facts.js';
import { failuresOf } from '../observe.js';
import type { RmqEvent } from '../../parse/types.js';
import type { InferContext } from './context.js';

/** A thread is seen busy back to back over this many failures in a row, their gaps alike. */
const RUN_GAPS = 4;
/** Gaps of one run differ from their median by at most this share. */
const GAP_SPREAD = 0.1;
/** A gap shorter than this is the application's own pace, not a send's wait. */
const MIN_GAP_MS = 1000;
/** Sends that came in a gap, per thread, for the threads to be the bound: more than one thread could take. */
const ARRIVALS_PER_THREAD = 2;

interface Run {
  thread: string;
  from: RmqEvent;
  to: RmqEvent;
  gapMs: number;
  failures: number;
}

/**
 * The longest run of a thread's failures whose gaps (RUN_GAPS or more in a row) stay within
 * GAP_SPREAD of their median and are MIN_GAP_MS or more: the thread failed again as soon as its last
 * failed send returned, each taking the same wait (a connect or response timeout), so it was never
 * idle in between.
 */
function busyRun(thread: string, fails: RmqEvent[]): Run | null {
  let best: Run | null = null;
  let i = 0;
  while (i + RUN_GAPS < fails.length) {
    const gap0 = fails[i + 1].ts! - fails[i].ts!;
    let j = i + 1;
    // Extend while the next gap is alike the run's first.
    while (j + 1 < fails.length && gap0 >= MIN_GAP_MS && Math.abs(fails[j + 1].ts! - fails[j].ts! - gap0) <= GAP_SPREAD * gap0) j++;
    const gaps = j - i;
    if (gaps >= RUN_GAPS && (best === null || gaps > best.failures - 1)) {
      best = { thread, from: fails[i], to: fails[j], gapMs: Math.round((fails[j].ts! - fails[i].ts!) / gaps), failures: gaps + 1 };
    }
    i = Math.max(i + 1, j);
  }
  return best;
}

/** The rate the client sends at a model time (its steps, else its rate). */
function rateAt(c: ScenarioClient, atMs: number): number {
  let r = c.sendRatePerSec;
  for (const s of c.sendRateSteps ?? []) if (s.atMs <= atMs) r = s.perSec;
  return r;
}

/**
 * sendThreads from the application's failed synchronous sends: when every thread they were logged
 * on failed back to back at the same time (busyRun), and more sends came in each gap than the
 * threads could take (ARRIVALS_PER_THREAD each at the inferred rate), the application made no more
 * sends at once than it had threads. Whether it queued or dropped the rest, no line shows; the run
 * does not make them. An asynchronous client's sends return at once; a traced client's sends are
 * all in the logs: neither is bounded so.
 */
export function inferSendThreads(ctx: InferContext, client: ScenarioClient, mine: readonly RmqEvent[], p: string): void {
  if (client.async || client.sendTimesMs) return;
  if (!boundedBy(ctx, client, mine, p)) ctx.def(`${p}.sendThreads`, "none: a thread per send (no failures show the application's sending threads all busy at once)");
}

/** Sets client.sendThreads where the failures show the bound (inferSendThreads); false where they do not. */
function boundedBy(ctx: InferContext, client: ScenarioClient, mine: readonly RmqEvent[], p: string): boolean {
  const byThread = new Map<string, RmqEvent[]>();
  // One per failed send (a record's failure and its `Caused by:` are one: observe's failuresOf).
  for (const e of failuresOf(mine, client.host, 'app', -Infinity, Infinity)) {
    if (e.thread === null || isSendCallbackThread(e.thread)) continue;
    const list = byThread.get(e.thread);
    if (list) list.push(e);
    else byThread.set(e.thread, [e]);
  }
  if (byThread.size === 0) return false;
  const runs: Run[] = [];
  for (const [thread, fails] of byThread) {
    fails.sort((a, b) => a.ts! - b.ts!);
    const run = busyRun(thread, fails);
    if (run === null) return false;
    runs.push(run);
  }
  // All busy at one time: the runs share an instant.
  const from = Math.max(...runs.map((r) => r.from.ts!));
  const to = Math.min(...runs.map((r) => r.to.ts!));
  if (from > to) return false;
  const gapMs = Math.max(...runs.map((r) => r.gapMs));
  const n = runs.length;
  const rate = rateAt(client, ctx.rel(from));
  const arrivals = (rate * gapMs) / 1000;
  if (arrivals < ARRIVALS_PER_THREAD * n) return false;
  client.sendThreads = n;
  const longest = runs.reduce((a, b) => (b.failures > a.failures ? b : a));
  const why = `the application's failed sends were logged on ${n} thread${n === 1 ? '' : 's'} (${runs.map((r) => r.thread).join(', ')}), each failing again as soon as its last failed send returned (every ${(gapMs / 1000).toFixed(1)} s, ${longest.failures} in a row on ${longest.thread}) while about ${Math.round(arrivals)} sends came in each such gap at the inferred rate: it made no more than ${n} at once (inferred from behaviour; whether it queued or dropped the others, no line shows; the run does not make them)`;
  // The bound rests on the rate: where the rate is itself assumed (an equal share of its topic's),
  // so is the bound, and it is listed with the defaults.
  const rateAssumed = ctx.defaults[`${p}.sendRatePerSec`];
  if (rateAssumed !== undefined) ctx.def(`${p}.sendThreads`, `${n} (assumed: ${why}, the rate being ${rateAssumed})`);
  else ctx.prov(`${p}.sendThreads`, why, runs.flatMap((r) => [r.from, r.to]));
  return true;
}
