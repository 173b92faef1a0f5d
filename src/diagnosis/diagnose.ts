// analyze's whole diagnosis in one pass over the timeline: the rules and milestones, and the
// inference of the causes (the same collector and the same inferScenario a replay runs), then the
// incidents that tie them together.

import { commonDir } from '../util/paths.js';
import { clientLogsRead } from '../ingest/coverage.js';
import { analyze, analyzeOnBothCores, sourcesOf, type Analysis, type AnalysisOptions } from '../rules/analyze.js';
import type { EventType, RmqEvent } from '../parse/types.js';
import type { ConsumerImpact, Incident } from '../rules/incident.js';
import type { Finding } from '../rules/types.js';
import { clientVersionOf } from '../rules/versions.js';
import type { Timeline } from '../timeline/build.js';
import { ClockTrains, clockEdges, solveClocks, type AddressBook, type ClockEstimate } from '../timeline/clocks.js';
import { collector, type Collected } from './collect.js';
import { inferScenario } from './infer.js';
import { inferContext } from './infer/context.js';
import { inferHosts } from './infer/hosts.js';
import { buildIncidents } from './incident.js';
import { clientFailures } from './observe.js';
import { consumerCollector } from './consumers.js';
import { consumerCauses } from './consumer-causes.js';

interface Diagnosis {
  analysis: Analysis;
  incidents: Incident[];
  /** The consumers' impact per group (src/diagnosis/consumers.ts). */
  consumers: ConsumerImpact[];
  /** The hosts' clocks (asked with `clocks`): src/timeline/clocks.ts. */
  clocks?: ClockEstimate[];
}

/** analyze's own: the hosts' clocks estimated in the same pass. */
interface DiagnoseOptions {
  clocks?: boolean;
}

/**
 * The incidents' part of a pass over the timeline: an observer that collects what the inference
 * reads, and, once the findings are known, the incidents. analyze and the TUI both run it.
 */
interface IncidentPass {
  readonly types: ReadonlySet<EventType>;
  visit(e: RmqEvent): void;
  finish(findings: readonly Finding[]): Incident[];
  /** After finish(): the consumers' impact per group. */
  consumers(): ConsumerImpact[];
  /** After finish(): the hosts' clocks (with `clocks`; else none). */
  clocks(): ClockEstimate[];
}

export function incidentPass(t: Timeline, o: DiagnoseOptions = {}): IncidentPass {
  const base = commonDir(t.accounting.map((a) => a.path));
  // The incidents read how many sends failed, not when each send began (a run replays those).
  const c = collector(t.accounting, base, t.first, t.last, { sendTimes: false, otherRead: t.keepOther === 'inference' });
  // Its types are among the collector's (pipeline, broker-registered).
  const trains = o.clocks ? new ClockTrains((i) => t.shiftMs?.[i] ?? 0) : null;
  let collected: Collected | null = null;
  const consumers = consumerCollector();
  const faults = consumerCauses();
  let consumerImpacts: ConsumerImpact[] = [];
  return {
    types: new Set([...c.types, ...consumers.types, ...faults.types]),
    visit: (e) => {
      if (c.types.has(e.type)) c.visit(e);
      if (consumers.types.has(e.type)) consumers.visit(e);
      faults.visit(e);
      trains?.visit(e);
    },
    consumers: () => consumerImpacts,
    clocks() {
      if (!trains || !collected) return [];
      const ctx = inferContext(collected, { zone: t.defaultZone.name, source: 'analyze' });
      return solveClocks(clockEdges(trains.trains, addressBook(inferHosts(ctx))), ctx.nsHosts);
    },
    finish(findings) {
      collected = c.finish();
      consumerImpacts = consumers.finish();
      const input = inferScenario(collected!, { zone: t.defaultZone.name, source: 'analyze', findings, consumers: consumerImpacts });
      const sources = sourcesOf(t);
      return buildIncidents(input, findings, {
        clientVersion: (h) => clientVersionOf(h, sources),
        failures: (h, source, from, until) => clientFailures(collected!.events, h, source, from, until, collected!.syncTimeouts).figures,
        clientLogsRead: clientLogsRead(t.accounting),
        consumerCauses: faults.finish(findings),
      });
    },
  };
}

/**
 * The timeline must be built with `keepOther: 'inference'` (the records that are no event but that
 * inference reads), as replay builds it, so that both read the same events.
 */
export function diagnose(t: Timeline, opts: AnalysisOptions & DiagnoseOptions): Diagnosis {
  const pass = incidentPass(t, opts);
  const analysis = analyze(t, { ...opts, observers: [...(opts.observers ?? []), pass] });
  const incidents = pass.finish(analysis.findings);
  return { analysis, incidents, consumers: pass.consumers(), ...(opts.clocks ? { clocks: pass.clocks() } : {}) };
}

/** diagnose() with the rules in a thread of their own when the timeline is large (analyzeOnBothCores). */
export async function diagnoseOnBothCores(t: Timeline, opts: AnalysisOptions & DiagnoseOptions & { rulesThread?: boolean }): Promise<Diagnosis> {
  const pass = incidentPass(t, opts);
  const analysis = await analyzeOnBothCores(t, { ...opts, observers: [...(opts.observers ?? []), pass] });
  const incidents = pass.finish(analysis.findings);
  return { analysis, incidents, consumers: pass.consumers(), ...(opts.clocks ? { clocks: pass.clocks() } : {}) };
}

/** Where the lines' addresses are, as the inference placed hosts, NameServers and brokers. */
function addressBook(h: ReturnType<typeof inferHosts>): AddressBook {
  const hostsOfIp = new Map<string, Set<string>>();
  const place = (ip: string, host: string) => hostsOfIp.set(ip, (hostsOfIp.get(ip) ?? new Set<string>()).add(host));
  for (const [host, ip] of h.hostIp) place(ip.value, host);
  for (const [addr, host] of h.nsHost) place(addr.slice(0, addr.lastIndexOf(':')), host.value);
  for (const [name, host] of h.brokerHost) {
    const addr = h.brokerAddr.get(name)?.value;
    if (addr) place(addr.slice(0, addr.lastIndexOf(':')), host.value);
  }
  const ns = new Set(h.nsAddrs);
  return {
    hostOfIp: (ip) => {
      const set = hostsOfIp.get(ip);
      return set && set.size === 1 ? [...set][0] : null;
    },
    ipOfHost: (host) => h.hostIp.get(host)?.value ?? null,
    isNameServer: (addr) => ns.has(addr),
  };
}
