// The statements an analyze report makes about consumers, checked against lab.json's consumer truth
// (docs/lab.md, "Scoring"): each group's impact (failed, redelivered, DLQ, consumed again, lag,
// cached) and the consumer rules' findings (the group, and for consume-failed that deliveries
// failed). A group the lab did not run is one false statement; a figure the truth does not count is
// unknown.
import { say, type Statement } from './statements-core.js';
import { ms, TOLERANCE, type LabConsumerGroup, type Truth } from './score-truth.js';

/** A count within this share of the truth's, or this many, whichever is more. */
export const CONSUMER_TOLERANCE = {
  countShare: 0.1,
  countMin: 2,
  /** A lag stated at a minute end against the lab's samples (every 10 s) this close to it. */
  lagMs: 15_000,
  /** A lag sample's `mqadmin consumerProgress` queried the broker within this after its stamp (at most; before the next sample's stamp). */
  lagQueryMs: 20_000,
  /** A lag estimated at a minute end: within this share of the lab's samples then, or this many messages, whichever is more. */
  lagShare: 0.25,
  lagMin: 10,
};

const near = (stated: number, truth: number) => Math.abs(stated - truth) <= Math.max(CONSUMER_TOLERANCE.countMin, CONSUMER_TOLERANCE.countShare * truth);
/** A lower bound holds when it is not above the truth (beyond the tolerance). */
const atMost = (stated: number, truth: number) => stated <= truth + Math.max(CONSUMER_TOLERANCE.countMin, CONSUMER_TOLERANCE.countShare * truth);

/** The lab's lag samples within the tolerance of a time. */
function lagsNear(g: LabConsumerGroup, at: number): number[] {
  // A sample is stamped when its `mqadmin consumerProgress` started (lab/src/consumers.ts): the JVM
  // queried the broker some time before the next sample's stamp (the sampler waits for it; 3-18 s on a
  // loaded lab machine), so a sample stands for its stamp up to the next one's, lagQueryMs at most
  // (gen-20270114: stamped 10:49:42 at 125, the group's committed offsets still that far behind at 10:49:58).
  const samples = (g.lag ?? []) as any[];
  return samples
    .filter((x: any, i: number) => {
      if (x.error !== undefined) return false;
      const from = ms(x.at);
      // Recordings that say when the admin tool answered (`done`) bound it so.
      const to = x.done ? ms(x.done) : Math.max(from, Math.min(i + 1 < samples.length ? ms(samples[i + 1].at) : from, from + CONSUMER_TOLERANCE.lagQueryMs));
      return at >= from - CONSUMER_TOLERANCE.lagMs && at <= to + CONSUMER_TOLERANCE.lagMs;
    })
    .map((x: any) => x.total as number);
}

/** The lab's largest lag sampled within the tolerance of a time (null: no sample there). */
function lagNear(g: LabConsumerGroup, at: number): number | null {
  const xs = lagsNear(g, at);
  return xs.length ? Math.max(...xs) : null;
}

/** An estimate holds when it lies within the tolerance of the samples' range then. */
function lagHolds(stated: number, xs: number[]): boolean {
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  const slack = (x: number) => Math.max(CONSUMER_TOLERANCE.lagMin, CONSUMER_TOLERANCE.lagShare * x);
  return stated >= lo - slack(lo) && stated <= hi + slack(hi);
}

function impactStatements(truth: Truth, c: any): Statement[] {
  const where = `consumers ${c.group}`;
  const s = (claim: string) => say('analyze', 'consumer', where, claim);
  const g = truth.consumerGroups().find((x) => x.group === c.group);
  if (!g) {
    const groups = truth.consumerGroups().map((x) => x.group);
    return [s(`consumer group ${c.group}`).is(false, '', `the lab ran ${groups.length ? groups.join(', ') : 'no consumer group'}`)];
  }
  const out: Statement[] = [];
  if (c.failed !== null && c.failed !== undefined) out.push(s(`${c.failed} deliveries failed`).is(near(c.failed, g.failed), `the lab counted ${g.failed}`, `the lab counted ${g.failed} failed deliveries`));
  if (c.redelivered !== null && c.redelivered !== undefined) {
    const again = g.deliveries - g.received;
    if (c.redeliveredAtLeast) out.push(s(`at least ${c.redelivered} redelivered through %RETRY%`).is(atMost(c.redelivered, again), `the lab counted ${again} deliveries beyond the first`, `the lab counted ${again} deliveries beyond each message's first`));
    else out.push(s(`${c.redelivered} redelivered through %RETRY%`).is(near(c.redelivered, again), `the lab counted ${again} deliveries beyond the first`, `the lab counted ${again} deliveries beyond each message's first`));
  }
  if (c.dlq !== null && c.dlq !== undefined) {
    const dlq = g.dlq.byAdminTool ?? g.dlq.byDeliveries;
    out.push(s(`at least ${c.dlq} in %DLQ%${c.group}`).is(atMost(c.dlq, dlq) && (c.dlq > 0) === (dlq > 0), `the lab counted ${dlq}`, `the lab counted ${dlq} in the DLQ`));
  }
  if (c.consumedAgain !== null && c.consumedAgain !== undefined) {
    // Delivered again: consumed OK twice (the lab's duplicates), or delivered again and failed, which
    // the lab counts among its failed deliveries. With no failure in the run the two are one figure.
    const held = near(c.consumedAgain, g.duplicates) || (c.consumedAgain >= g.duplicates && atMost(c.consumedAgain, g.duplicates + g.failed));
    const why = g.failed ? `the lab counted ${g.duplicates} messages consumed twice and ${g.failed} failed deliveries` : `the lab counted ${g.duplicates} messages consumed twice`;
    out.push(s(`${c.consumedAgain} delivered again`).is(held, why, why));
  }
  if (c.lag) {
    const at = ms(c.lag.at);
    const xs = lagsNear(g, at);
    const claim = `largest lag about ${c.lag.about} at ${truth.time(at)}`;
    if (!xs.length) out.push(s(claim).unknown(`no lag sample within ${CONSUMER_TOLERANCE.lagMs / 1000} s`));
    else out.push(s(claim).is(lagHolds(c.lag.about, xs), `the admin tool's lag then: ${xs.join(', ')}`, `the admin tool's lag then was ${xs.join(', ')}`));
  }
  if (c.cachedAtLeast) {
    const at = ms(c.cachedAtLeast.at);
    const lab = lagNear(g, at);
    const claim = `${c.cachedAtLeast.count} messages cached at ${truth.time(at)}`;
    out.push(lab === null ? s(claim).unknown('no lag sample then') : s(claim).is(atMost(c.cachedAtLeast.count, lab), `the lag then: ${lab}`, `the lag then was ${lab}, below the cached count`));
  }
  return out;
}

/** The consumer rules' findings: the group they name, and consume-failed's failures. */
function findingStatements(truth: Truth, f: any): Statement[] {
  const group = f.subject?.group ?? (/Group (\S+?):/.exec(f.title ?? '')?.[1] ?? null);
  if (!group || !['consume-failed', 'pull-refused', 'consumer-backlog'].includes(f.rule)) return [];
  const where = `${f.id} ${f.rule}`;
  const g = truth.consumerGroups().find((x) => x.group === group);
  const groups = truth.consumerGroups().map((x) => x.group);
  const out = [say('analyze', 'consumer', where, `consumer group ${group}`).is(!!g, 'the lab ran it', `the lab ran ${groups.join(', ') || 'no consumer group'}`)];
  if (g && f.rule === 'consume-failed') out.push(say('analyze', 'consumer', where, `${group}'s deliveries failed`).is(g.failed > 0, `the lab counted ${g.failed} failed`, 'the lab counted no failed delivery'));
  if (g && f.rule === 'consumer-backlog') out.push(...backlogCause(truth, f, g));
  return out;
}

/** The listener faults of the lab (a slowed or blocked listener). */
const LISTENER_KINDS = ['slowdown', 'listener-block'];

/**
 * consumer-backlog's cause: a slow listener is a listener fault on one of the hosts it names; a broker
 * fault is a fault of the host of the broker address it names; the consume threads are the limit
 * when no listener fault came then and an instance of the group ran with about as many consume
 * threads as the finding counted busy (consumeThreadMin, 20 when not set).
 */
function backlogCause(truth: Truth, f: any, g: LabConsumerGroup): Statement[] {
  const m = f.metrics ?? {};
  const where = `${f.id} ${f.rule}`;
  const from = ms(f.start);
  const to = f.end ? ms(f.end) : from;
  const s = (claim: string) => say('analyze', 'consumer', where, claim);
  const listener = (hosts: string[]) => hosts.flatMap((h) => truth.faultsOn(h, from, to, TOLERANCE.claimMs)).filter((x) => LISTENER_KINDS.includes(x.kind));
  if (m.cause === 'slow-listener') {
    const hosts: string[] = m.slowHosts ?? [];
    const fs = listener(hosts);
    return [s(`${g.group}'s listener slowed on ${hosts.join(', ')}`).is(fs.length > 0, fs.map((x) => x.text).join('; '), `no listener fault on ${hosts.join(', ')} then; the lab's faults: ${truth.allFaults()}`)];
  }
  if (m.cause === 'blocked-listener') {
    const hosts: string[] = m.blockedHosts ?? [];
    const fs = listener(hosts).filter((x) => x.kind === 'listener-block');
    return [s(`${g.group}'s listener blocked on ${hosts.join(', ')}`).is(fs.length > 0, fs.map((x) => x.text).join('; '), `no blocked listener on ${hosts.join(', ')} then; the lab's faults: ${truth.allFaults()}`)];
  }
  if (m.cause === 'broker-fault' && typeof m.brokerAddr === 'string') {
    const host = truth.brokerHost(undefined, m.brokerAddr);
    const fs = host ? truth.faultsOn(host, from, to, TOLERANCE.claimMs) : [];
    const claim = s(`broker ${m.brokerAddr} failed the calls of ${g.group}`);
    return [host ? claim.is(fs.length > 0, fs.map((x) => x.text).join('; '), `no fault on ${host} then; the lab's faults: ${truth.allFaults()}`) : claim.unknown(`the lab does not know ${m.brokerAddr}`)];
  }
  if (m.cause === 'subscription') {
    // An instance of the group that ran with a subscription of its own then (a consumer-start with `subscription`, or its own setting).
    const mine = truth.consumers().filter((c) => c.group === g.group);
    const own = new Set(mine.map((c) => c.subscription));
    const started = (truth.lab.faults as any[]).filter((x) => x.kind === 'consumer-start' && x.subscription && mine.some((c) => c.host === x.host) && Date.parse(x.start) <= to + TOLERANCE.claimMs);
    const differs = own.size > 1 || started.some((x) => !own.has(x.subscription));
    return [s(`${g.group}'s instances subscribed differently`).is(differs, `subscriptions ${[...own, ...started.map((x) => x.subscription)].join(', ')}`, `every instance subscribed ${[...own].join(', ')}`)];
  }
  if (m.cause === 'consume-threads' && typeof m.busyThreads === 'number') {
    const mine = truth.consumers().filter((c) => c.group === g.group);
    const fs = listener(mine.map((c) => c.host));
    // A gRPC push consumer's pool is consumptionThreadCount (PushConsumerBuilder, default 20).
    const pools = mine.map((c) => c.settings?.consumeThreadMin ?? c.settings?.consumptionThreadCount ?? 20);
    const fits = pools.some((p) => Math.abs(p - m.busyThreads) <= Math.max(0.5, 0.25 * p));
    return [
      s(`${g.group}'s consume threads were the limit, about ${m.busyThreads} busy`).is(
        fits && fs.length === 0,
        `its instances ran ${pools.join(', ')} consume threads and no listener fault came then`,
        fs.length ? `a listener fault came then: ${fs.map((x) => x.text).join('; ')}` : `its instances ran ${pools.join(', ')} consume threads`,
      ),
    ];
  }
  return [];
}

export function consumerStatements(truth: Truth, report: any): Statement[] {
  return [...(report.consumers ?? []).flatMap((c: any) => impactStatements(truth, c)), ...(report.findings ?? []).flatMap((f: any) => findingStatements(truth, f))];
}
