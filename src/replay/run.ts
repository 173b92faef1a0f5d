// Running a replay: the scenario with one seed (NameServer bindings as inferred), its milestones
// beside the observed ones and the verdict; then each what-if variant with the same seed; with
// --runs, every variant again over N seeds with the bindings drawn per seed, as p50/p95.

import { runScenario, type RunResult, type Scenario } from '../model/index.js';
import type { RmqEvent } from '../parse/types.js';
import { percentile } from '../rules/util.js';
import { formatMs } from '../util/durations.js';
import { contextOf, MILESTONE_TYPES, observe, type MilestoneContext, type Observation } from '../diagnosis/observe.js';
import type { ComparedMilestone } from '../rules/milestones.js';
import type { BusyFigure, ClientFailures, MilestoneTime, ReplayInput } from '../diagnosis/types.js';
import { runSizeProblem, ScenarioError, validateScenario } from './file.js';
import { applyVariant, WhatIfError, type Variant } from './whatif.js';
import { compareConsumers, consumerDivergence, type ConsumerRow } from './consumer-verdict.js';
import { formatIso, parseZone } from '../parse/time.js';

/** A milestone is reproduced within max(10 s, 10% of its observed offset from the fault start). */
const TOLERANCE_MIN_MS = 10000;
const TOLERANCE_FRACTION = 0.1;
/** A busy window's longest wait is reproduced within max(10 ms, 10%). */
const WAIT_TOLERANCE_MIN_MS = 10;

/**
 * The clients that lost no send in the logs and none in the run, where a fault of the scenario falls
 * in the run: the verdict counts each as compared (its outage row says no failed send on both sides).
 */
export function unharmedClients(outages: ReplayReport['outages'], firstFaultAt: number | null, runEnd: number): string[] {
  if (firstFaultAt === null || firstFaultAt > runEnd) return [];
  return outages.filter((x) => x.observedFailedSends === 0 && x.simulatedFailedSends === 0).map((x) => x.client);
}

interface ReplayOptions {
  seed: number;
  /** Model ms to run; default: the input's (end of the observed window plus a margin). */
  untilMs?: number;
  variants: Variant[];
  /** Seeds for the distribution (0: none). */
  runs: number;
  /** Keep the rendered lines of the baseline run (for --emit-logs). */
  keepLines?: boolean;
  /** Called after each simulated run (baseline, variants, seeded runs) with how many of how many. */
  onRun?: (done: number, total: number) => void;
  /** Record the time and host of every event of the baseline run (the TUI's lanes). */
  lanes?: boolean;
}

/** Every event of the baseline run as time and host (host: an index into `hosts`). */
interface RunLanes {
  hosts: string[];
  t: Float64Array;
  h: Uint16Array;
}

export type MilestoneStatus = 'ok' | 'diverged' | 'not-simulated' | 'not-observed' | 'unobservable' | 'simulated-only' | 'beyond-run';

export interface MilestoneRow {
  name: ComparedMilestone;
  subject: string;
  observed: MilestoneTime | null;
  simulated: MilestoneTime | null;
  deltaMs: number | null;
  toleranceMs: number | null;
  status: MilestoneStatus;
}

interface BusyRow {
  broker: string;
  kind: 'overload' | 'stall';
  observed: BusyFigure | null;
  simulated: BusyFigure;
  toleranceMs: number | null;
  status: 'ok' | 'diverged' | 'simulated-only';
}

interface ClientOutcome {
  client: string;
  outageMs: number;
  failedSends: number;
  timeouts: number;
}

/** A consumer group's outcome: its largest lag (sampled every 10 s) and what went to the DLQ or twice to the listener. */
export interface ConsumerOutcome {
  group: string;
  maxLag: number;
  maxLagAtMs: number | null;
  consumed: number;
  failed: number;
  retried: number;
  dlq: number;
  duplicates: number;
  /** A group whose subscriptions name tags: the messages a tag filter passed over and nobody consumed (simulated only: no log shows them). */
  skippedBySubscription?: { total: number; byTag: Record<string, number> };
}

export interface VariantResult {
  label: string;
  set: Record<string, string>;
  notes: string[];
  clients: ClientOutcome[];
  consumers: ConsumerOutcome[];
  failedSends: number;
  timeouts: number;
}

export interface Stat {
  p50: number | null;
  p95: number | null;
}

interface RunsResult {
  seeds: number[];
  variants: Array<{
    label: string;
    set: Record<string, string>;
    /** `outageBySeedMs`: each seed's outage, in the order of `seeds` (the spread the HTML report draws). */
    clients: Array<{ client: string; outageMs: Stat; failedSends: Stat; outageBySeedMs: number[] }>;
    failedSends: Stat;
  }>;
}

export interface ReplayReport {
  input: ReplayInput;
  seed: number;
  untilMs: number;
  milestones: MilestoneRow[];
  busy: BusyRow[];
  /** The consumer groups' figures, observed vs simulated (src/replay/consumer-verdict.ts). */
  consumers: ConsumerRow[];
  /**
   * `nothing-compared`: there were observations, but no milestone of them fell in the run (a run that
   * ends before the fault, say): nothing is reproduced then. `not-compared`: no observations at all.
   */
  verdict: 'reproduced' | 'not-reproduced' | 'nothing-compared' | 'not-compared';
  /** Start of the scenario's first fault (epoch ms), or null without faults. */
  firstFaultAt: number | null;
  /** What diverged, one line each. */
  divergences: string[];
  outages: Array<{ client: string; observedMs: number | null; simulatedMs: number; observedFailedSends: number | null; simulatedFailedSends: number }>;
  baseline: VariantResult;
  whatIf: VariantResult[];
  runs: RunsResult | null;
  /** The baseline run (its logs when keepLines was set); its events are those milestones read (MILESTONE_TYPES). */
  run: RunResult;
  /** With the `lanes` option. */
  lanes: RunLanes | null;
}

/**
 * Time and host of every event, in typed arrays that grow by doubling: a long run has millions of
 * events, and the run itself keeps only those milestones read.
 */
function laneRecorder(): { add: (e: RmqEvent) => void; done: () => RunLanes } {
  const hosts: string[] = [];
  const index = new Map<string, number>();
  let t = new Float64Array(1 << 12);
  let h = new Uint16Array(1 << 12);
  let n = 0;
  return {
    add(e) {
      if (e.type === 'other' || e.ts === null) return;
      let i = index.get(e.host);
      if (i === undefined) index.set(e.host, (i = hosts.push(e.host) - 1));
      if (n === t.length) {
        const t2 = new Float64Array(n * 2);
        t2.set(t);
        t = t2;
        const h2 = new Uint16Array(n * 2);
        h2.set(h);
        h = h2;
      }
      t[n] = e.ts;
      h[n++] = i;
    },
    done: () => ({ hosts, t: t.slice(0, n), h: h.slice(0, n) }),
  };
}

/** `+24 s`, `-3 min 15 s`, `-500 ms`. */
export function signedMs(ms: number): string {
  if (ms === 0) return '0 ms';
  return `${ms > 0 ? '+' : '-'}${formatMs(Math.abs(ms))}`;
}

const outage = (c: ClientFailures): number => (c.firstTs !== null && c.lastTs !== null ? c.lastTs - c.firstTs : 0);

function simRef(e: RmqEvent): string {
  return `${e.file.replace(/^sim:/, '')}:${e.line}`;
}

function contextFor(input: ReplayInput, sc: Scenario, untilMs: number): MilestoneContext {
  const untilTs = input.observed ? input.observed.window.last : sc.startEpochMs + untilMs;
  const source = (host: string) => input.observed?.clients[host]?.source ?? 'app';
  return contextOf(sc, untilTs, source);
}

function consumersOf(r: RunResult): ConsumerOutcome[] {
  return Object.values(r.metrics.consumerGroups ?? {}).map((g) => ({
    group: g.group,
    maxLag: g.maxLag?.total ?? 0,
    maxLagAtMs: g.maxLag?.atMs ?? null,
    consumed: g.consumed,
    failed: g.failed,
    retried: g.retried,
    dlq: g.dlq,
    duplicates: g.duplicates,
    ...(g.skippedBySubscription ? { skippedBySubscription: g.skippedBySubscription } : {}),
  }));
}

function outcome(sc: Scenario, r: RunResult, obs: Observation): Pick<VariantResult, 'clients' | 'consumers' | 'failedSends' | 'timeouts'> {
  const clients = sc.clients.map((c) => {
    const o = obs.clients[c.host];
    return { client: c.host, outageMs: o ? outage(o) : 0, failedSends: o?.failedSends ?? 0, timeouts: r.metrics.clients[c.host]?.timeouts ?? 0 };
  });
  return { clients, consumers: consumersOf(r), failedSends: clients.reduce((n, c) => n + c.failedSends, 0), timeouts: clients.reduce((n, c) => n + c.timeouts, 0) };
}

function setOf(v: Variant): Record<string, string> {
  return Object.fromEntries(v.assignments.map((a) => [a.subject === null ? a.key : `${a.subject}.${a.key}`, a.value]));
}

/** Bindings drawn per seed: every client's `namesrv` becomes random. */
function randomBindings(sc: Scenario): Scenario {
  return { ...sc, clients: sc.clients.map((c) => ({ ...c, namesrv: 'random' })) };
}

export function replay(input: ReplayInput, opts: ReplayOptions): ReplayReport {
  const untilMs = opts.untilMs ?? input.untilMs;
  const sc = input.scenario;
  const totalRuns = (1 + opts.variants.length) * (1 + Math.max(0, opts.runs));
  let runsDone = 0;
  const ran = () => opts.onRun?.(++runsDone, totalRuns);
  // Every variant within the limits before anything runs (a what-if rate of 1e308 is refused).
  const variants = opts.variants.map((v) => {
    const applied = applyVariant(sc, v);
    try {
      validateScenario(applied.scenario);
    } catch (e) {
      if (e instanceof ScenarioError) throw new WhatIfError(`${v.label}: ${e.message}`);
      throw e;
    }
    const problem = runSizeProblem(applied.scenario, untilMs, Infinity);
    if (problem) throw new WhatIfError(`${v.label}: ${problem}`);
    return { v, ...applied };
  });
  const lanes = opts.lanes ? laneRecorder() : null;
  const run = runScenario(sc, { seed: opts.seed, untilMs, keepLines: opts.keepLines, keepTypes: MILESTONE_TYPES, onEvent: lanes?.add });
  ran();
  const ctx = contextFor(input, sc, untilMs);
  const sim = observe(run.events, ctx, simRef);
  // Faults after the end of the run did not happen in it.
  const runEnd = sc.startEpochMs + untilMs;
  sim.milestones = sim.milestones.filter((m) => m.name !== 'fault-start' || m.ts <= runEnd);

  // Milestones side by side.
  const observed = input.observed;
  const faultStartObserved = observed ? Math.min(...observed.milestones.filter((m) => m.name === 'fault-start').map((m) => m.ts)) : null;
  const rows: MilestoneRow[] = [];
  const key = (m: MilestoneTime) => `${m.name}\u0000${m.subject}`;
  const simBy = new Map(sim.milestones.map((m) => [key(m), m]));
  const used = new Set<string>();
  for (const o of observed?.milestones ?? []) {
    const s = simBy.get(key(o)) ?? null;
    used.add(key(o));
    let deltaMs: number | null = null;
    let toleranceMs: number | null = null;
    const beyond = o.ts > runEnd;
    let status: MilestoneStatus = beyond ? 'beyond-run' : 'not-simulated';
    if (s && !beyond) {
      deltaMs = s.ts - o.ts;
      const offset = faultStartObserved !== null && Number.isFinite(faultStartObserved) ? Math.abs(o.ts - faultStartObserved) : 0;
      toleranceMs = Math.max(TOLERANCE_MIN_MS, Math.round(offset * TOLERANCE_FRACTION));
      status = Math.abs(deltaMs) <= toleranceMs ? 'ok' : 'diverged';
    }
    rows.push({ name: o.name, subject: o.subject, observed: o, simulated: s, deltaMs, toleranceMs, status });
  }
  for (const s of sim.milestones) {
    if (used.has(key(s))) continue;
    let status: MilestoneStatus = observed ? 'not-observed' : 'simulated-only';
    if (observed && s.name === 'namesrv-removal') {
      const ns = sc.nameServers.find((n) => s.subject.startsWith(`${n.addr} `));
      if (ns && !observed.hosts.includes(ns.host)) status = 'unobservable';
    }
    if (observed && s.name === 'fault-start') status = 'not-observed';
    rows.push({ name: s.name, subject: s.subject, observed: null, simulated: s, deltaMs: null, toleranceMs: null, status });
  }
  const at = (r: MilestoneRow) => r.observed?.ts ?? r.simulated?.ts ?? 0;
  rows.sort((a, b) => at(a) - at(b) || a.name.localeCompare(b.name) || a.subject.localeCompare(b.subject));

  // Busy windows: replies and their longest wait.
  const busy: BusyRow[] = sim.busy.map((s, i) => {
    const o = observed?.busy.find((b, k) => k === i && b.broker === s.broker && b.kind === s.kind) ?? null;
    if (!o) return { broker: s.broker, kind: s.kind, observed: null, simulated: s, toleranceMs: null, status: 'simulated-only' };
    const tol = o.waitMaxMs === null ? null : Math.max(WAIT_TOLERANCE_MIN_MS, Math.round(o.waitMaxMs * TOLERANCE_FRACTION));
    const ok = o.replies === 0 ? s.replies === 0 : s.replies > 0 && (tol === null || (s.waitMaxMs !== null && Math.abs(s.waitMaxMs - o.waitMaxMs!) <= tol));
    return { broker: s.broker, kind: s.kind, observed: o, simulated: s, toleranceMs: tol, status: ok ? 'ok' : 'diverged' };
  });

  const divergences: string[] = [];
  for (const r of rows) {
    if (r.status === 'diverged') divergences.push(`${r.name} ${r.subject}: ${signedMs(r.deltaMs!)} off (tolerance ${formatMs(r.toleranceMs)})`);
    if (r.status === 'not-simulated') divergences.push(`${r.name} ${r.subject}: in the logs, not in the simulation`);
    if (r.status === 'not-observed' && r.name !== 'fault-start') divergences.push(`${r.name} ${r.subject}: in the simulation, not in the logs`);
  }
  for (const b of busy) {
    if (b.status !== 'diverged') continue;
    const o = b.observed!;
    divergences.push(
      `${b.broker} ${b.kind} busy replies: ${b.simulated.replies} simulated (longest wait ${b.simulated.waitMaxMs ?? '-'} ms) vs ${o.replies} observed (longest wait ${o.waitMaxMs ?? '-'} ms)`,
    );
  }
  const consumers = observed?.consumers?.length ? compareConsumers(observed.consumers, run.metrics.consumerGroups ?? {}, sc.startEpochMs, observed.window) : [];
  const zone = parseZone(input.zone);
  for (const c of consumers) if (c.status === 'diverged') divergences.push(consumerDivergence(c, (t) => formatIso(t, zone).slice(11, 19)));
  const faultTimes = (sc.faults ?? []).map((f) => sc.startEpochMs + f.atMs);
  const firstFaultAt = faultTimes.length ? Math.min(...faultTimes) : null;
  const outages = sc.clients.map((c) => {
    const o = observed?.clients[c.host] ?? null;
    const s = sim.clients[c.host];
    return {
      client: c.host,
      observedMs: o ? outage(o) : null,
      simulatedMs: s ? outage(s) : 0,
      observedFailedSends: o ? o.failedSends : null,
      simulatedFailedSends: s?.failedSends ?? 0,
    };
  });
  // A fault's start is where the inference placed it: it always matches and proves nothing. A
  // client that lost no send in the logs and none in a run that holds a fault is compared as the
  // clients that lost some are by their first and last failed send (whether each lost sends).
  const compared =
    rows.filter((r) => r.name !== 'fault-start' && (r.status === 'ok' || r.status === 'diverged')).length +
    busy.filter((b) => b.observed).length +
    consumers.length +
    unharmedClients(outages, firstFaultAt, runEnd).length;
  // An incident: a fault of the servers, or a consumer group the logs show in trouble (its listener's
  // faults are in the scenario's groups, not its faults).
  const incident = (sc.faults?.length ?? 0) > 0 || consumers.some((c) => c.incident);
  const verdict: ReplayReport['verdict'] = !observed
    ? 'not-compared'
    : divergences.length
      ? 'not-reproduced'
      : compared === 0 || !incident
        ? // A healthy cluster's bindings and routes match, but no incident was reproduced.
          'nothing-compared'
        : 'reproduced';


  const baseline: VariantResult = { label: 'baseline', set: {}, notes: [], ...outcome(sc, run, sim) };
  const whatIf: VariantResult[] = variants.map(({ v, scenario, notes }) => {
    const r = runScenario(scenario, { seed: opts.seed, untilMs, keepTypes: MILESTONE_TYPES });
    ran();
    const o = observe(r.events, contextFor(input, scenario, untilMs), simRef);
    return { label: v.label, set: setOf(v), notes, ...outcome(scenario, r, o) };
  });

  let runs: RunsResult | null = null;
  if (opts.runs > 0) {
    const seeds = Array.from({ length: opts.runs }, (_, i) => (opts.seed + i) >>> 0);
    const all = [{ label: 'baseline', set: {} as Record<string, string>, scenario: sc, explicit: new Set<string>() }, ...variants.map(({ v, scenario }) => ({
      label: v.label,
      set: setOf(v),
      scenario,
      explicit: new Set(v.assignments.filter((a) => a.key === 'namesrv').map((a) => a.subject ?? '*')),
    }))];
    runs = {
      seeds,
      variants: all.map((x) => {
        // Bindings drawn per seed, unless the variant sets them.
        const drawn = x.explicit.has('*') ? x.scenario : { ...randomBindings(x.scenario), clients: x.scenario.clients.map((c) => (x.explicit.has(c.host) ? c : { ...c, namesrv: 'random' })) };
        const per = seeds.map((seed) => {
          const r = runScenario(drawn, { seed, untilMs, keepTypes: MILESTONE_TYPES });
          ran();
          return outcome(drawn, r, observe(r.events, contextFor(input, drawn, untilMs), simRef));
        });
        const stat = (values: number[]): Stat => ({ p50: percentile(values, 50), p95: percentile(values, 95) });
        return {
          label: x.label,
          set: x.set,
          clients: drawn.clients.map((c, i) => ({
            client: c.host,
            outageMs: stat(per.map((p) => p.clients[i].outageMs)),
            outageBySeedMs: per.map((p) => p.clients[i].outageMs),
            failedSends: stat(per.map((p) => p.clients[i].failedSends)),
          })),
          failedSends: stat(per.map((p) => p.failedSends)),
        };
      }),
    };
  }

  return { input, seed: opts.seed, untilMs, milestones: rows, busy, consumers, verdict, firstFaultAt, divergences, outages, baseline, whatIf, runs, run, lanes: lanes?.done() ?? null };
}
