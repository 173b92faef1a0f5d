// lab.json: what a recording is, written from the lab's own knowledge (never from the logs): the
// versions, settings, topology, the true fault schedule, and what every application's sends really
// gave. docs/lab.md documents its shape.
import { brokerSettings, namesrvSettings, proxySettings } from './conf.js';
import { CLIENT_DEFAULTS_FROM, clientRanWith } from './defaults.js';
import { consumerTruth, type ConsumerSide } from './labjson-consumers.js';
import { brokers, GRPC_SERVER_PORT, namesrvAddr, namesrvHosts, producers, type Fault, type FaultKind, type Scenario } from './scenario.js';

export interface FaultRecord {
  kind: FaultKind;
  host: string;
  start: Date;
  end: Date | null;
  detail: {
    pids?: number[];
    linkUp?: Date;
    stopped?: Date;
    /** An offset reset's target and the admin tool's answer. */
    resetTo?: Date;
    adminOutput?: string;
  } & Pick<Fault, 'cpuQuota' | 'cpuPeriodMs' | 'groups' | 'consumers' | 'processMs' | 'laterShare' | 'throwShare' | 'subscription'>;
}

export interface SendRecord {
  start: number;
  end: number;
  outcome: 'ok' | 'fail' | 'shed';
  /** brokerName:queueId of a successful send. */
  queue: string;
  /** The send status, or the exception's class and message. */
  detail: string;
  /** A sent message's msgId (its unique key) and tag. */
  msgId?: string;
  tag?: string;
}

/** ISO-8601 with milliseconds in the lab's zone (+08:00), the zone every host's logs are in. */
export function isoLab(d: Date | number): string {
  const ms = typeof d === 'number' ? d : d.getTime();
  return new Date(ms + 8 * 3600_000).toISOString().replace('Z', '+08:00');
}

function sendSummary(rows: SendRecord[]) {
  const failed = rows.filter((r) => r.outcome === 'fail');
  const byException: Record<string, number> = {};
  for (const r of failed) {
    const cls = r.detail.split(':')[0].split('.').pop()!;
    byException[cls] = (byException[cls] ?? 0) + 1;
  }
  const byBroker: Record<string, number> = {};
  for (const r of rows.filter((x) => x.outcome === 'ok')) {
    const b = r.queue.split(':')[0];
    byBroker[b] = (byBroker[b] ?? 0) + 1;
  }
  return {
    total: rows.filter((r) => r.outcome !== 'shed').length,
    ok: rows.length - failed.length - rows.filter((r) => r.outcome === 'shed').length,
    failed: failed.length,
    shed: rows.filter((r) => r.outcome === 'shed').length,
    firstFailure: failed.length ? isoLab(failed[0].end) : null,
    lastFailure: failed.length ? isoLab(failed[failed.length - 1].end) : null,
    failuresByException: byException,
    okByBroker: byBroker,
  };
}

export function buildLabJson(r: {
  scenario: Scenario;
  javaVersion: string;
  startedAt: Date;
  faultsFrom: Date;
  endedAt: Date;
  faults: FaultRecord[];
  boundTo: Map<string, string>;
  discardedAttempts: Map<string, number>;
  sends: Map<string, SendRecord[]>;
  consumers?: ConsumerSide;
}) {
  const s = r.scenario;
  const sent = producers(s).flatMap(({ host, producer }) =>
    (r.sends.get(host.name) ?? []).filter((x) => x.outcome === 'ok' && x.msgId).map((x) => ({ msgId: x.msgId!, topic: producer.topic, tag: x.tag ?? '', at: x.end })),
  );
  const consumerSide = r.consumers ? consumerTruth(s, r.consumers, sent, isoLab, r.endedAt.getTime()) : { consumers: [], groups: [] };
  const clientVersions = [...new Set(producers(s).map((p) => p.producer.version))].sort();
  return {
    scenario: s.scenario,
    description: s.description,
    versions: { namesrv: s.versions.namesrv, broker: s.versions.broker, client: clientVersions },
    java: r.javaVersion,
    timeZone: '+08:00',
    window: { start: isoLab(r.startedAt), faultsFrom: isoLab(r.faultsFrom), end: isoLab(r.endedAt) },
    brokerClusterName: s.brokerClusterName ?? 'DefaultCluster',
    namesrvAddr: namesrvAddr(s),
    topics: s.topics,
    hosts: s.hosts.map((h) => {
      const roles: string[] = [];
      let brokerName: string | undefined;
      for (const p of h.processes) {
        if (p.kind === 'namesrv') roles.push('namesrv');
        if (p.kind === 'broker') {
          roles.push(p.brokerId === 0 ? 'broker-master' : 'broker-slave');
          brokerName = p.brokerName;
        }
        if (p.kind === 'producer') roles.push('producer');
        if (p.kind === 'consumer') roles.push('consumer');
      }
      return { name: h.name, addr: h.addr, roles, ...(brokerName ? { brokerName } : {}), collected: h.collect !== false };
    }),
    servers: {
      namesrv: namesrvHosts(s).map((h) => {
        const p = h.processes.find((x) => x.kind === 'namesrv')!;
        // ranWith: the scenario's settings and the lab's own in the -c file (scratch paths left out).
        return { host: h.name, addr: `${h.addr}:9876`, version: s.versions.namesrv, settings: p.settings ?? {}, ranWith: namesrvSettings(p) };
      }),
      brokers: brokers(s).map(({ host, broker }) => ({
        host: host.name,
        brokerName: broker.brokerName,
        brokerId: broker.brokerId,
        addr: `${host.addr}:10911`,
        version: s.versions.broker,
        settings: broker.settings ?? {},
        ranWith: brokerSettings(s, host, broker),
        // The broker inside a local-mode proxy (`mqproxy -pm local`): its rmq-proxy.json and gRPC address.
        ...(broker.proxyMode === 'local'
          ? { proxy: { mode: 'local', ranWith: proxySettings(s, broker), grpcAddr: `${host.addr}:${broker.proxySettings?.grpcServerPort ?? GRPC_SERVER_PORT}` } }
          : {}),
      })),
    },
    clientDefaultsFrom: CLIENT_DEFAULTS_FROM,
    clients: producers(s).map(({ host, producer: p }) => ({
      host: host.name,
      version: p.version,
      group: p.group,
      topic: p.topic,
      namesrvAddrs: namesrvAddr(s, p.namesrvHosts).split(';'),
      boundNamesrv: r.boundTo.get(host.name) ?? null,
      restartsToBind: r.discardedAttempts.get(host.name) ?? 0,
      rate: p.rate,
      threads: p.threads ?? 4,
      /** The application's traffic changes (seconds after the settling), [] when none. */
      schedule: p.schedule ?? [],
      async: p.async ?? false,
      selectorQueue: p.selectorQueue ?? null,
      /** Sends through a MessageQueueSelector (sendSelectImpl: one attempt, no retry). */
      selector: p.selectorQueue !== undefined,
      settings: p.settings ?? {},
      systemProperties: p.systemProperties ?? {},
      /** Every setting the generated space varies, as this client ran with it (the release default where not given). */
      ranWith: clientRanWith(p),
      sends: sendSummary(r.sends.get(host.name) ?? []),
    })),
    /** Each consumer instance: its settings, runs, what its listener was handed and did, its queues over time. */
    consumers: consumerSide.consumers,
    /** Each consumer group: the same counted over its instances, its dead-letter messages, the messages never consumed, its lag over time. */
    consumerGroups: consumerSide.groups,
    faults: r.faults.map((f) => ({
      kind: f.kind,
      host: f.host,
      start: isoLab(f.start),
      end: f.end ? isoLab(f.end) : null,
      ...(f.detail.linkUp ? { linkUp: isoLab(f.detail.linkUp) } : {}),
      ...(f.detail.stopped ? { stopped: isoLab(f.detail.stopped) } : {}),
      ...(f.detail.cpuQuota !== undefined ? { cpuQuota: f.detail.cpuQuota, cpuPeriodMs: f.detail.cpuPeriodMs } : {}),
      ...(f.detail.groups ? { groups: f.detail.groups } : {}),
      ...(f.detail.consumers ? { consumers: f.detail.consumers } : {}),
      ...(f.detail.processMs !== undefined ? { processMs: f.detail.processMs } : {}),
      ...(f.detail.laterShare !== undefined ? { laterShare: f.detail.laterShare, throwShare: f.detail.throwShare } : {}),
      ...(f.detail.subscription !== undefined ? { subscription: f.detail.subscription } : {}),
      ...(f.detail.resetTo ? { resetTo: isoLab(f.detail.resetTo), adminOutput: f.detail.adminOutput } : {}),
      pids: f.detail.pids ?? [],
    })),
  };
}

type Written = ReturnType<typeof buildLabJson>;
type Optional<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;

/**
 * lab.json as the tests read it: what buildLabJson writes, with the fields that recordings made
 * before them lack (the servers' version and ranWith, the clients' ranWith and selector) optional.
 */
export type LabJson = Optional<Omit<Written, 'servers' | 'clients'>, 'clientDefaultsFrom' | 'consumers' | 'consumerGroups'> & {
  servers: {
    namesrv: Optional<Written['servers']['namesrv'][number], 'version' | 'ranWith'>[];
    brokers: Optional<Written['servers']['brokers'][number], 'version' | 'ranWith'>[];
  };
  clients: Optional<Written['clients'][number], 'ranWith' | 'selector'>[];
};
