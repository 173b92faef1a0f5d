// The lab's consumer applications while a recording runs: starting and stopping each instance
// (LabConsumer.java), steering its listener (the scenario's schedule and the consumer faults), and the
// release's admin tool from the lab's side of the bridge: the group's lag every 10 s
// (`mqadmin consumerProgress`), an offset reset (`mqadmin resetOffsetByTime`) and, at the end, the
// messages in the group's dead-letter topic (`mqadmin topicStatus -t %DLQ%<group>`).
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Cluster } from './cluster.js';
import { grpcClientClasspath } from './maven.js';
import { HOST_HOME, isRunning, type LabJvm } from './procs.js';
import { consumers, grpcEndpoints, isGrpc, namesrvAddr, type ConsumerProcess, type Host, type ListenerBehaviour, type Scenario } from './scenario.js';

const run = promisify(execFile);

/** How often the group's lag is sampled (the issue: the release's admin tool every 10 s). */
export const LAG_SAMPLE_MS = 10_000;

/** One consumerProgress sample: the lag per queue (`topic@broker:queueId`, broker offset minus consumer offset) and in all. */
export interface LagSample {
  at: number;
  /** Lag of the subscribed topic's queues, summed. */
  total: number;
  /** Lag of the group's retry topic (%RETRY%<group>), summed. */
  retry: number;
  queues: Record<string, number>;
  /** Set when the admin tool gave no table (its first line of output). */
  error?: string;
  /** When the admin tool had answered: it queried the broker between `at` and this (its JVM takes seconds to start). */
  done?: number;
}

/** One run of an instance: when its JVM started, when and how it ended, what it subscribed. */
export interface InstanceRun {
  start: number;
  end: number | null;
  ended: 'killed' | 'stopped' | null;
  subscription: string;
}

const DEFAULT_LISTENER: Required<ListenerBehaviour> = { processMs: 10, laterShare: 0, throwShare: 0 };

/**
 * Reads `mqadmin consumerProgress -g GROUP`: rows of `#Topic #Broker Name #QID #Broker Offset
 * #Consumer Offset #Client IP #Diff ...` (ConsumerProgressSubCommand, 4.x and 5.x), one per queue.
 */
export function parseConsumerProgress(out: string, group: string, at: number): LagSample {
  const queues: Record<string, number> = {};
  let total = 0;
  let retry = 0;
  let rows = 0;
  for (const line of out.split('\n')) {
    const t = line.trim().split(/\s+/);
    if (t.length < 7 || !/^\d+$/.test(t[2]) || !/^-?\d+$/.test(t[3]) || !/^-?\d+$/.test(t[4])) continue;
    const diff = Math.max(0, Number(t[3]) - Number(t[4]));
    rows++;
    queues[`${t[0]}@${t[1]}:${t[2]}`] = diff;
    if (t[0] === `%RETRY%${group}`) retry += diff;
    else total += diff;
  }
  const sample: LagSample = { at, total, retry, queues };
  if (!rows) sample.error = out.trim().split('\n').find((l) => l.trim()) ?? 'no output';
  return sample;
}

/** Reads `mqadmin topicStatus`: `#Broker Name #QID #Min Offset #Max Offset #Last Updated`; the messages the topic holds. */
export function parseTopicStatus(out: string): number | null {
  let n = 0;
  let rows = 0;
  for (const line of out.split('\n')) {
    const t = line.trim().split(/\s+/);
    if (t.length < 4 || !/^\d+$/.test(t[1]) || !/^\d+$/.test(t[2]) || !/^\d+$/.test(t[3])) continue;
    rows++;
    n += Number(t[3]) - Number(t[2]);
  }
  return rows ? n : null;
}

export class Consumers {
  readonly runs = new Map<string, InstanceRun[]>();
  readonly lag = new Map<string, LagSample[]>();
  /** The listener each instance runs now without the faults: the scenario's, then its schedule's changes. */
  private readonly base = new Map<string, ListenerBehaviour>();
  /** The faults changing an instance's listener now, in the order they began. */
  private readonly overlays = new Map<string, { id: number; b: ListenerBehaviour }[]>();
  private sampling = false;
  private sampler: Promise<void> | null = null;

  constructor(
    readonly s: Scenario,
    readonly cluster: Cluster,
    readonly log: (line: string) => void,
  ) {
    for (const { host, consumer } of consumers(s)) this.base.set(host.name, consumer.listener ?? {});
  }

  consumedFile(host: string): string {
    return join(this.cluster.hostDir(host), 'consumed.tsv');
  }

  queuesFile(host: string): string {
    return join(this.cluster.hostDir(host), 'queues.tsv');
  }

  private consumer(host: string): { host: Host; consumer: ConsumerProcess } {
    return consumers(this.s).find((c) => c.host.name === host)!;
  }

  jvm(host: string): LabJvm | undefined {
    return this.cluster.jvmsOf(host).find((j) => j.role === 'consumer');
  }

  /** The listener an instance runs now: its base with the faults' changes over it. */
  private current(host: string): Required<ListenerBehaviour> {
    const out = { ...DEFAULT_LISTENER, ...stripUndefined(this.base.get(host) ?? {}) };
    for (const o of this.overlays.get(host) ?? []) Object.assign(out, stripUndefined(o.b));
    return out;
  }

  private push(host: string): void {
    const b = this.current(host);
    const j = this.jvm(host);
    if (j && isRunning(j)) j.child.stdin?.write(`listener ${b.processMs} ${b.laterShare} ${b.throwShare}\n`);
  }

  /** Starts the instance of a host (again), with the listener it should run now. */
  start(hostName: string, subscription?: string): LabJvm {
    const { host, consumer: p } = this.consumer(hostName);
    const b = this.current(host.name);
    const sub = subscription ?? p.subscription ?? '*';
    if (isGrpc(p)) return this.startGrpc(host, p, sub, b);
    const j = this.launchApp(host, p, sub, b, 'com.example.lab.LabConsumer', {
      namesrvAddr: namesrvAddr(this.s, p.namesrvHosts),
      group: p.group,
      topic: p.topic,
      subscription: sub,
      mode: p.mode ?? 'concurrently',
      messageModel: p.messageModel,
      consumeThreadMin: p.consumeThreadMin,
      consumeThreadMax: p.consumeThreadMax,
      pullBatchSize: p.pullBatchSize,
      pullThresholdForQueue: p.pullThresholdForQueue,
      maxReconsumeTimes: p.maxReconsumeTimes,
      consumeFromWhere: p.consumeFromWhere,
    });
    this.log(`${host.name}: consumer ${p.group} (client ${p.version}, ${p.mode ?? 'concurrently'}, subscription ${sub}) started`);
    return j;
  }

  /**
   * Writes an instance's consumer.properties (the application's own `props`, then the listener's
   * schedule and the side files every consumer application writes) and starts `mainClass` with the
   * application logback file; the run is recorded.
   */
  private launchApp(host: Host, p: ConsumerProcess, sub: string, b: Required<ListenerBehaviour>, mainClass: string, own: Record<string, string | number | boolean | undefined>, cp?: string[]): LabJvm {
    const conf = join(this.cluster.hostDir(host.name), 'consumer.properties');
    const props = {
      ...own,
      processMs: b.processMs,
      laterShare: b.laterShare,
      throwShare: b.throwShare,
      appLogger: p.appLogger,
      consumedFile: this.consumedFile(host.name),
      queuesFile: this.queuesFile(host.name),
      ...p.settings,
    };
    writeFileSync(conf, Object.entries(props).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${v}`).join('\n') + '\n');
    const j = this.cluster.launch(host, 'consumer', p.version, mainClass, [conf], {
      LOG_FILE: `${HOST_HOME}/logs/app.log`,
      'logback.configurationFile': join(this.cluster.tool.labDir, 'client', 'logback-app.xml'),
      ...p.systemProperties,
    }, true, cp);
    const list = this.runs.get(host.name) ?? [];
    list.push({ start: Date.now(), end: null, ended: null, subscription: sub });
    this.runs.set(host.name, list);
    return j;
  }

  /** A gRPC push or simple consumer (LabGrpcConsumer, compiled against rocketmq-client-java), connected to its proxy. */
  private startGrpc(host: Host, p: ConsumerProcess, sub: string, b: Required<ListenerBehaviour>): LabJvm {
    const endpoints = grpcEndpoints(this.s, p);
    const own = {
      endpoints,
      mode: p.mode,
      group: p.group,
      topic: p.topic,
      subscription: sub,
      consumptionThreadCount: p.consumptionThreadCount,
      maxCacheMessageCount: p.maxCacheMessageCount,
      receiveBatchSize: p.receiveBatchSize,
      invisibleSeconds: p.invisibleSeconds,
      awaitSeconds: p.awaitSeconds,
    };
    const j = this.launchApp(host, p, sub, b, 'com.example.lab.LabGrpcConsumer', own, grpcClientClasspath(this.cluster.tool, p.version));
    this.log(`${host.name}: gRPC ${p.mode === 'grpcSimple' ? 'simple' : 'push'} consumer ${p.group} (rocketmq-client-java ${p.version}, ${endpoints}, subscription ${sub}) started`);
    return j;
  }

  /**
   * The retry policy of the gRPC consumers' groups: the proxy gives a gRPC consumer its group's
   * retryMaxTimes (SubscriptionGroupConfig, default 16) as maxAttempts - 1, so a scenario's
   * maxReconsumeTimes is set on the group with `mqadmin updateSubGroup -r`, as a 5.x operator does.
   */
  async grpcGroups(): Promise<void> {
    const done = new Set<string>();
    for (const { consumer: p } of consumers(this.s)) {
      if (!isGrpc(p) || p.maxReconsumeTimes === undefined || done.has(p.group)) continue;
      done.add(p.group);
      const out = await this.admin(['updateSubGroup', '-n', namesrvAddr(this.s), '-c', this.s.brokerClusterName ?? 'DefaultCluster', '-g', p.group, '-r', String(p.maxReconsumeTimes)]);
      if (!/create subscription group to .* success/.test(out)) throw new Error(`mqadmin updateSubGroup ${p.group} failed:\n${out.trim()}`);
      this.log(`group ${p.group}: retryMaxTimes ${p.maxReconsumeTimes} (mqadmin updateSubGroup)`);
    }
  }

  /** Waits until the instance's application says its listener started (app.log), or throws. */
  async started(hostName: string, j: LabJvm): Promise<void> {
    const app = join(this.cluster.userHome(hostName), 'logs', 'app.log');
    const until = Date.now() + 60_000;
    while (Date.now() < until && isRunning(j)) {
      if (existsSync(app) && readFileSync(app, 'utf8').includes('Listener started')) return;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`${hostName}: the consumer did not start in 60 s (see ${j.outFile})`);
  }

  /** Marks the instance's current run as ended (the lab killed or stopped it). */
  ended(host: string, how: 'killed' | 'stopped'): void {
    const r = this.runs.get(host)?.at(-1);
    if (r && r.end === null) {
      r.end = Date.now();
      r.ended = how;
    }
  }

  /** The scenario's planned listener changes, at their times after `faultsFrom`. */
  schedule(faultsFrom: number): Promise<void>[] {
    return consumers(this.s).flatMap(({ host, consumer }) =>
      (consumer.schedule ?? []).map(async (c) => {
        await new Promise((r) => setTimeout(r, Math.max(0, faultsFrom + c.at * 1000 - Date.now())));
        const { at: _at, ...b } = c;
        this.base.set(host.name, { ...this.base.get(host.name), ...b });
        this.push(host.name);
        this.log(`${host.name}: listener now ${JSON.stringify(this.current(host.name))} (schedule)`);
      }),
    );
  }

  /** A fault's change of the listener on these hosts, until `lift` is called. */
  overlay(hosts: string[], id: number, b: ListenerBehaviour): () => void {
    for (const h of hosts) {
      this.overlays.set(h, [...(this.overlays.get(h) ?? []), { id, b }]);
      this.push(h);
    }
    return () => {
      for (const h of hosts) {
        this.overlays.set(h, (this.overlays.get(h) ?? []).filter((o) => o.id !== id));
        this.push(h);
      }
    };
  }

  block(hosts: string[], seconds: number): void {
    for (const h of hosts) this.jvm(h)?.child.stdin?.write(`block ${seconds}\n`);
  }

  groups(): { group: string; topic: string }[] {
    const seen = new Map<string, string>();
    for (const { consumer } of consumers(this.s)) if (consumer.messageModel !== 'BROADCASTING' && consumer.mode !== 'litePull') seen.set(consumer.group, consumer.topic);
    for (const { consumer } of consumers(this.s)) if (!seen.has(consumer.group)) seen.set(consumer.group, consumer.topic);
    return [...seen].map(([group, topic]) => ({ group, topic }));
  }

  async admin(command: string[]): Promise<string> {
    const args = this.cluster.adminArgs(command);
    try {
      // The tool prints a failed command's exception on stderr and still exits with 0.
      const r = await run(this.cluster.tool.java, args, { encoding: 'utf8', env: { ...process.env, TZ: 'Asia/Shanghai' }, maxBuffer: 16 << 20, timeout: 60_000 });
      return `${r.stdout}${r.stderr}`;
    } catch (e) {
      const x = e as { stdout?: string; stderr?: string; message: string };
      return `${x.stdout ?? ''}${x.stderr ?? ''}` || x.message;
    }
  }

  /** Samples every group's lag every LAG_SAMPLE_MS until stopSampling. */
  startSampling(): void {
    if (this.sampling || !consumers(this.s).length) return;
    this.sampling = true;
    const loop = async () => {
      while (this.sampling) {
        const next = Date.now() + LAG_SAMPLE_MS;
        for (const { group } of this.groups()) {
          const at = Date.now();
          const out = await this.admin(['consumerProgress', '-n', namesrvAddr(this.s), '-g', group]);
          const list = this.lag.get(group) ?? [];
          list.push({ ...parseConsumerProgress(out, group, at), done: Date.now() });
          this.lag.set(group, list);
        }
        while (this.sampling && Date.now() < next) await new Promise((r) => setTimeout(r, 200));
      }
    };
    this.sampler = loop();
  }

  async stopSampling(): Promise<void> {
    this.sampling = false;
    await this.sampler;
  }

  /** `mqadmin resetOffsetByTime`: the group's offsets on the topic back to `timestamp` (ms); the tool's output. */
  async resetOffset(group: string, topic: string, timestamp: number): Promise<string> {
    return this.admin(['resetOffsetByTime', '-n', namesrvAddr(this.s), '-g', group, '-t', topic, '-s', String(timestamp)]);
  }

  /** The messages in each group's dead-letter topic, by the admin tool (null: no such topic). */
  async dlqCounts(): Promise<Map<string, number | null>> {
    const out = new Map<string, number | null>();
    for (const { group } of this.groups()) out.set(group, parseTopicStatus(await this.admin(['topicStatus', '-n', namesrvAddr(this.s), '-t', `%DLQ%${group}`])));
    return out;
  }

  /** The side files of every instance: each delivery to the listener, and its queues when they changed. */
  sideFiles(): Map<string, { consumed: string[]; queues: string[] }> {
    const read = (f: string) => (existsSync(f) ? readFileSync(f, 'utf8').split('\n').filter(Boolean) : []);
    return new Map(consumers(this.s).map(({ host }) => [host.name, { consumed: read(this.consumedFile(host.name)), queues: read(this.queuesFile(host.name)) }]));
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
