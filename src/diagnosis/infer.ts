// A scenario inferred from the logs (docs/replay.md, "How a scenario is inferred"): the NameServers,
// brokers, topics and clients the logs name, where each runs, how each client is configured and
// which NameServer it was bound to, and the fault schedule: when a host hung (the last line before
// a silence while others kept logging, and the timeouts against its addresses), when it came back
// (connection resets, boot lines), crashes (refused connections, destroyed channels), busy windows
// (the waits in the busy replies). Every value records the lines it came from; what the logs do not
// give takes a stated default.
//
// The stages are in src/diagnosis/infer/, one per thing inferred; each reads the earlier ones' results.
// They run in this order because provenance, defaults and notes are listed in the order recorded.

import type { Scenario } from '../model/index.js';
import { FLOW_LINES_KEPT, KEEP_CAP, type Collected } from './collect.js';
import { clientVersion, inferClients } from './infer/clients.js';
import { assumeProducerTags, consumerOnlyHosts, inferConsumers } from './infer/consumers.js';
import { inferContext, LEAD_MS, MARGIN_MS, type InferOptions } from './infer/context.js';
import { inferFaults } from './infer/faults.js';
import { avoidanceFromBehaviour } from './infer/avoidance.js';
import { ratesFromRefusals } from './infer/rates.js';
import { selectorKeysFromRefusals, selectorKeysFromSilence, selectorsFromSilence } from './infer/selectors.js';
import { inferHosts } from './infer/hosts.js';
import { inferServers, inferServerStarts } from './infer/servers.js';
import { contextOf, observe } from './observe.js';
import type { ReplayInput } from './types.js';

export { LEAD_MS, MARGIN_MS, type InferOptions };

export function inferScenario(c: Collected, opts: InferOptions): ReplayInput {
  const ctx = inferContext(c, opts);
  const hosts = inferHosts(ctx);
  const servers = inferServers(ctx, hosts);
  const consumersOnly = consumerOnlyHosts(ctx);
  const { clients, topics, shared } = inferClients(ctx, hosts, servers, consumersOnly);
  const consumers = inferConsumers(ctx, hosts, topics, (host, p) => clientVersion(ctx, host, ctx.events.filter((e) => e.host === host && e.kind === 'client'), p));
  assumeProducerTags(ctx, clients, consumers.groups);
  // The phase of the servers' timers is recorded after the clients.
  const { nameServers, brokers } = inferServerStarts(ctx, servers);
  const faults = inferFaults(ctx, { hosts, serverVersion: servers.serverVersion, nameServers, brokers, topics, clients });
  // What the clients did while a broker refused writes tells whether they avoided it.
  avoidanceFromBehaviour(ctx, clients, faults, brokers);
  // ... where a selector's key is, from the broker that refused it and the one that did not ...
  selectorKeysFromRefusals(ctx, clients, faults, brokers, topics);
  // ... and, for one that makes one attempt per send, its own share of its topic's rate.
  ratesFromRefusals(ctx, clients, shared, faults, brokers, topics);
  // ... and whether one that failed nothing there picks its queues itself.
  selectorsFromSilence(ctx, clients, faults, brokers, topics);
  // ... and, for one that does, whether it keeps to one key.
  selectorKeysFromSilence(ctx, clients, faults, brokers, topics);

  const { startEpochMs, first, last, notes } = ctx;
  const scenario: Scenario = {
    name: 'inferred',
    startEpochMs,
    zone: opts.zone,
    serverVersion: servers.serverVersion,
    nameServers,
    brokers,
    topics,
    clients,
    faults,
    ...(consumers.groups.length > 0 ? { consumerGroups: consumers.groups } : {}),
  };
  ctx.prov('scenario.startEpochMs', `${LEAD_MS / 1000} s before the first line, so that every process runs when the logs begin`, []);
  ctx.def('scenario.latencyMs', '0.5 (one-way network latency)');
  brokers.forEach((_, i) => ctx.def(`scenario.brokers[${i}].cores`, '8'));

  const untilMs = last - startEpochMs + MARGIN_MS;
  const hasApp = (h: string) => c.sources.some((s) => s.host === h && s.kind === 'app');
  const obsCtx = contextOf(scenario, last, (h) => (hasApp(h) ? 'app' : 'client'));
  const obs = observe(c.events, obsCtx, ctx.ref, c.syncTimeouts);
  for (const cl of clients) if (!hasApp(cl.host)) notes.push(`${cl.host}: no application log; failed sends are counted from the client's failed attempts`);
  for (const [key, n] of c.dropped) {
    const [type, host] = key.split(' ');
    notes.push(`${host}: only the first ${KEEP_CAP.toLocaleString('en-US')} ${type} events were read (${n.toLocaleString('en-US')} more left out, to keep memory bounded)`);
  }
  for (const [host, n] of c.flowLinesLeft) {
    notes.push(`${host}: only the first ${FLOW_LINES_KEPT.toLocaleString('en-US')} flow-control lines were kept to cite (${n.toLocaleString('en-US')} more read for the minute they fell in only, to keep memory bounded)`);
  }
  for (const f of c.flowWarnings) {
    if (f.left) notes.push(`${f.host}: only the first ${KEEP_CAP.toLocaleString('en-US')} minutes with a flow-control warning${f.group !== null ? ` of ${f.group}` : ''} were read (${f.left.toLocaleString('en-US')} more left out, to keep memory bounded)`);
  }
  return {
    scenario,
    untilMs,
    zone: opts.zone,
    observed: { window: { first, last }, hosts: [...ctx.roles.keys()].sort(), ...obs },
    provenance: ctx.provenance,
    defaults: ctx.defaults,
    notes,
    source: opts.source,
  };
}
