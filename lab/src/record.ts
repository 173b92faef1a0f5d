// `npm run lab -- record SCENARIO`: start the scenario's cluster on its own hosts, let it settle,
// inject the faults at their times, copy every host's logs, stop everything, and write the recording
// with lab.json (versions, settings, topology and the true fault schedule).
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, mkdirSync, truncateSync, openSync, readSync, closeSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { dirname, join, relative } from 'node:path';
import { Cluster, removeCpuLimits, removeStaleMounts } from './cluster.js';
import { buildLabJson, type FaultRecord, type SendRecord } from './labjson.js';
import { javaVersion, type Toolchain } from './maven.js';
import { createBridge, createHost, heal, partition, partitionProblem, removeAll, setLink, wipeHost } from './net.js';
import { sleep, stopJvm, type LabJvm } from './procs.js';
import { Consumers } from './consumers.js';
import { brokers, consumers, faultEnd, namesrvHosts, producers, startedByFault, type Fault, type Host, type Scenario } from './scenario.js';

const BIND_ATTEMPTS = 12;

export interface RecordOptions {
  out: string;
  force: boolean;
  keepScratch: boolean;
  /** Gzip every collected log file (as an operator shipping logs would; rmq-diag reads .log.gz). */
  gzip?: boolean;
}

export const LOCK_FILE = join(tmpdir(), 'rmq-lab-recording.lock');

/** Only one recording at a time: they would share the bridge and the addresses. */
export function takeLock(): void {
  if (existsSync(LOCK_FILE)) {
    const pid = Number(readFileSync(LOCK_FILE, 'utf8').trim());
    let alive = false;
    try {
      process.kill(pid, 0);
      alive = true;
    } catch {
      alive = false;
    }
    if (alive && pid !== process.pid) throw new Error(`another recording runs (pid ${pid}); wait for it or stop it`);
    // A dead run's namespaces, bridge, CPU limits and store mounts are ours to remove.
    cleanLeftovers();
  }
  writeFileSync(LOCK_FILE, `${process.pid}\n`);
}

/** Removes what a killed run can leave behind: namespaces, the bridge, CPU cgroups, store mounts. */
export function cleanLeftovers(): string[] {
  removeCpuLimits();
  return [...removeStaleMounts(), ...removeAll()];
}

export function releaseLock(): void {
  try {
    if (readFileSync(LOCK_FILE, 'utf8').trim() === String(process.pid)) unlinkSync(LOCK_FILE);
  } catch {
    // not ours or gone
  }
}

class Recording {
  readonly faults: FaultRecord[] = [];
  readonly cluster: Cluster;
  readonly apps: Consumers;
  readonly startedAt = new Date();
  faultsFrom = new Date();
  boundTo = new Map<string, string>();
  discardedAttempts = new Map<string, number>();

  constructor(
    readonly s: Scenario,
    readonly tool: Toolchain,
    readonly scratch: string,
    readonly log: (line: string) => void,
  ) {
    this.cluster = new Cluster(s, tool, scratch, log);
    this.apps = new Consumers(s, this.cluster, log);
  }

  host(name: string): Host {
    return this.s.hosts.find((h) => h.name === name)!;
  }

  async startHostProcesses(h: Host): Promise<void> {
    for (const p of h.processes) if (p.kind === 'namesrv') await this.cluster.startNamesrv(h, p);
    for (const p of h.processes) if (p.kind === 'broker') await this.cluster.startBroker(h, p);
    for (const p of h.processes) if (p.kind === 'producer') this.cluster.startProducer(h, p);
    // A consumer instance that ran before the host went down runs again (with its last subscription).
    const last = this.apps.runs.get(h.name)?.at(-1);
    if (last) await this.apps.started(h.name, this.apps.start(h.name, last.subscription));
  }

  async startCluster(): Promise<void> {
    createBridge();
    for (const h of this.s.hosts) createHost(h.name, h.addr);
    for (const h of namesrvHosts(this.s)) {
      for (const p of h.processes) if (p.kind === 'namesrv') await this.cluster.startNamesrv(h, p);
      this.log(`${h.name}: NameServer ${this.s.versions.namesrv} up at ${h.addr}:9876`);
    }
    // Masters first: a slave finds its master's HA address through the NameServer.
    const all = brokers(this.s).sort((a, b) => a.broker.brokerId - b.broker.brokerId);
    for (const { host, broker } of all) {
      await this.cluster.startBroker(host, broker);
      this.log(`${host.name}: ${broker.brokerName} ${broker.brokerId === 0 ? 'master' : 'slave'} ${this.s.versions.broker} up at ${host.addr}:10911`);
    }
    await this.cluster.createTopics();
    await this.apps.grpcGroups();
    // Consumers first, so that the group is subscribed before the first message is sent.
    for (const { host } of consumers(this.s)) {
      if (!startedByFault(this.s, host.name)) await this.apps.started(host.name, this.apps.start(host.name));
    }
    this.apps.startSampling();
    for (const { host, producer } of producers(this.s)) await this.startBoundProducer(host, producer);
  }

  private async startBoundProducer(host: Host, p: Scenario['hosts'][number]['processes'][number] & { kind: 'producer' }): Promise<void> {
    const want = p.bindTo ? `${this.host(p.bindTo).addr}:9876` : null;
    for (let attempt = 1; attempt <= BIND_ATTEMPTS; attempt++) {
      const j = this.cluster.startProducer(host, p);
      let bound: string | null = null;
      const until = Date.now() + 40_000;
      while (!bound && Date.now() < until && j.child.exitCode === null) {
        await sleep(250);
        bound = this.cluster.boundNamesrv(host.name);
      }
      if (!bound) throw new Error(`${host.name}: the producer chose no NameServer in 40 s (see ${j.outFile})`);
      if (!want || bound === want) {
        this.boundTo.set(host.name, bound);
        this.log(`${host.name}: producer ${p.group} (client ${p.version}) bound to NameServer ${bound}`);
        return;
      }
      this.discardedAttempts.set(host.name, attempt);
      await this.cluster.discardProducer(j);
    }
    throw new Error(`${host.name}: the client did not bind to ${want} in ${BIND_ATTEMPTS} starts`);
  }

  private at(f: Fault): number {
    return this.faultsFrom.getTime() + f.at * 1000;
  }

  /** Each producer's traffic changes (its scenario's schedule), at their times after the settling. */
  scheduleProducers(): void {
    for (const { host, producer } of producers(this.s)) {
      for (const c of producer.schedule ?? []) {
        const threads = c.threads ?? producer.threads ?? 4;
        setTimeout(() => {
          this.producerJvm(host.name)?.child.stdin?.write(`load ${c.rate} ${threads}${producer.async ? ' async' : ''}\n`);
          this.log(`${host.name}: now ${c.rate}/s on ${threads} threads (schedule)`);
        }, Math.max(0, this.faultsFrom.getTime() + c.at * 1000 - Date.now()));
      }
    }
  }

  private producerJvm(host: string): LabJvm | undefined {
    return this.cluster.jvmsOf(host).find((j) => j.role === 'producer');
  }

  async runFault(f: Fault): Promise<void> {
    await sleep(this.at(f) - Date.now());
    const h = this.host(f.host);
    const rec: FaultRecord = { kind: f.kind, host: f.host, start: new Date(), end: null, detail: {} };
    this.faults.push(rec);
    switch (f.kind) {
      case 'hang': {
        // SIGSTOP freezes the JVMs; the kernel still answers TCP, so peers' calls time out.
        rec.detail.pids = this.cluster.signalHost(f.host, 'SIGSTOP');
        this.log(`fault: ${f.host} hangs (SIGSTOP ${rec.detail.pids.join(' ')})`);
        await sleep(this.at(f) + f.seconds! * 1000 - Date.now());
        rec.end = new Date();
        // A host that reboots out of its hang never runs again before it dies.
        if (this.s.faults.some((g) => g.kind === 'reboot' && g.host === f.host && g.at === f.at + f.seconds!)) return;
        this.cluster.signalHost(f.host, 'SIGCONT');
        this.log(`fault: ${f.host} resumes (SIGCONT)`);
        return;
      }
      case 'reboot': {
        setLink(h.addr, false);
        const list = this.cluster.jvmsOf(f.host);
        rec.detail.pids = list.map((j) => j.pid);
        this.log(`fault: ${f.host} reboots (link down, processes killed)`);
        this.apps.ended(f.host, 'killed');
        await Promise.all(list.map((j) => stopJvm(j, 'SIGKILL', 1000)));
        wipeHost(h.name, h.addr);
        await sleep(this.at(f) + f.downSeconds! * 1000 - Date.now());
        setLink(h.addr, true);
        rec.detail.linkUp = new Date();
        this.log(`fault: ${f.host} back on the network, nothing listening`);
        await sleep((f.bootSeconds ?? 0) * 1000);
        rec.end = new Date();
        await this.startHostProcesses(h);
        this.log(`fault: ${f.host} processes started again`);
        return;
      }
      case 'crash': {
        const list = this.cluster.jvmsOf(f.host).filter((j) => j.role === 'namesrv' || j.role === 'broker');
        rec.detail.pids = list.map((j) => j.pid);
        this.log(`fault: ${f.host} crashes (SIGKILL ${rec.detail.pids.join(' ')})`);
        await Promise.all(list.map((j) => stopJvm(j, 'SIGKILL', 1000)));
        if (f.downSeconds === undefined) return;
        await sleep(this.at(f) + f.downSeconds * 1000 - Date.now());
        rec.end = new Date();
        await this.startServers(h);
        this.log(`fault: ${f.host} started again`);
        return;
      }
      case 'restart': {
        const list = this.cluster.jvmsOf(f.host).filter((j) => j.role === 'namesrv' || j.role === 'broker');
        rec.detail.pids = list.map((j) => j.pid);
        this.log(`fault: ${f.host} planned restart (SIGTERM)`);
        await Promise.all(list.map((j) => stopJvm(j, 'SIGTERM', 60_000)));
        rec.detail.stopped = new Date();
        await sleep(this.at(f) + f.downSeconds! * 1000 - Date.now());
        rec.end = new Date();
        await this.startServers(h);
        this.log(`fault: ${f.host} started again`);
        return;
      }
      case 'overload': {
        const load = f.load!;
        if (f.cpuQuota !== undefined) {
          this.cluster.limitCpu(f.host, f.cpuQuota, f.cpuPeriodMs);
          rec.detail.cpuQuota = f.cpuQuota;
          rec.detail.cpuPeriodMs = f.cpuPeriodMs ?? 100;
        }
        for (const p of load.producers) this.producerJvm(p)?.child.stdin?.write(`load ${load.rate} ${load.threads}${load.async ? ' async' : ''}\n`);
        this.log(`fault: overload of ${f.host} (${load.producers.join(', ')} at ${load.rate}/s on ${load.threads} threads)`);
        await sleep(f.seconds! * 1000);
        for (const p of load.producers) {
          const base = producers(this.s).find((x) => x.host.name === p)!.producer;
          this.producerJvm(p)?.child.stdin?.write(`load ${base.rate} ${base.threads ?? 4}${base.async ? ' async' : ''}\n`);
        }
        if (f.cpuQuota !== undefined) this.cluster.limitCpu(f.host, null);
        rec.end = new Date();
        this.log(`fault: overload of ${f.host} over`);
        return;
      }
      case 'partition': {
        const [a, b] = f.groups!;
        const addrs = (names: string[]) => names.map((n) => this.host(n).addr);
        const id = this.s.faults.indexOf(f);
        rec.detail.groups = [a, b];
        partition(id, addrs(a), addrs(b));
        this.log(`fault: partition between ${a.join(', ')} and ${b.join(', ')} (packets dropped both ways)`);
        await sleep(this.at(f) + f.seconds! * 1000 - Date.now());
        heal(id);
        rec.end = new Date();
        this.log(`fault: partition between ${a.join(', ')} and ${b.join(', ')} healed`);
        return;
      }
      case 'consumer-kill':
      case 'consumer-stop':
      case 'consumer-start':
      case 'slowdown':
      case 'consume-failures':
      case 'listener-block':
      case 'reset-offset':
        return this.runConsumerFault(f, rec);
      case 'disk-full': {
        const filler = this.cluster.fillStore(f.host, 0.97);
        this.log(`fault: ${f.host} store disk full`);
        await sleep(f.seconds! * 1000);
        rmSync(filler, { force: true });
        rec.end = new Date();
        this.log(`fault: ${f.host} store disk freed`);
        return;
      }
    }
  }

  /** A fault that strikes a consumer application (docs/lab.md, "Faults"). */
  private async runConsumerFault(f: Fault, rec: FaultRecord): Promise<void> {
    const hosts = f.consumers ?? [f.host];
    const id = this.s.faults.indexOf(f);
    const until = async (seconds: number) => sleep(this.at(f) + seconds * 1000 - Date.now());
    switch (f.kind) {
      case 'consumer-kill':
      case 'consumer-stop': {
        const j = this.apps.jvm(f.host);
        rec.detail.pids = j ? [j.pid] : [];
        const how = f.kind === 'consumer-kill' ? 'killed' : 'stopped';
        this.log(`fault: ${f.host} consumer ${how} (${f.kind === 'consumer-kill' ? 'SIGKILL' : 'SIGTERM'} ${rec.detail.pids.join(' ')})`);
        if (j) await stopJvm(j, f.kind === 'consumer-kill' ? 'SIGKILL' : 'SIGTERM', 60_000);
        this.apps.ended(f.host, how);
        if (f.kind === 'consumer-stop') rec.detail.stopped = new Date();
        if (f.downSeconds === undefined) return;
        await until(f.downSeconds);
        rec.end = new Date();
        const last = this.apps.runs.get(f.host)?.at(-1);
        await this.apps.started(f.host, this.apps.start(f.host, last?.subscription));
        return;
      }
      case 'consumer-start': {
        rec.detail.subscription = f.subscription;
        const j = this.apps.start(f.host, f.subscription);
        rec.detail.pids = [j.pid];
        rec.end = new Date();
        await this.apps.started(f.host, j);
        this.log(`fault: ${f.host} consumer joined${f.subscription ? ` with subscription ${f.subscription}` : ''}`);
        return;
      }
      case 'slowdown':
      case 'consume-failures': {
        const change = f.kind === 'slowdown' ? { processMs: f.processMs } : { laterShare: f.laterShare ?? 0, throwShare: f.throwShare ?? 0 };
        Object.assign(rec.detail, change, { consumers: hosts });
        const lift = this.apps.overlay(hosts, id, change);
        this.log(`fault: ${f.kind} of ${hosts.join(', ')} (${JSON.stringify(change)})`);
        await until(f.seconds!);
        lift();
        rec.end = new Date();
        this.log(`fault: ${f.kind} of ${hosts.join(', ')} over`);
        return;
      }
      case 'listener-block': {
        rec.detail.consumers = hosts;
        this.apps.block(hosts, f.seconds!);
        this.log(`fault: the listeners of ${hosts.join(', ')} block for ${f.seconds} s`);
        await until(f.seconds!);
        rec.end = new Date();
        return;
      }
      case 'reset-offset': {
        const c = consumers(this.s).find((x) => x.host.name === f.host)!.consumer;
        const to = Date.now() - f.backSeconds! * 1000;
        rec.detail.resetTo = new Date(to);
        // The tool fails (SubCommandException on stderr, exit code 0) when a call of it times out on
        // a loaded machine: the lab tries again, and lab.json keeps the answer of the last try.
        let out = '';
        for (let attempt = 1; attempt <= 3; attempt++) {
          out = await this.apps.resetOffset(c.group, c.topic, to);
          if (!/command failed/.test(out)) break;
          this.log(`fault: mqadmin resetOffsetByTime failed (${out.trim().split('\n').find((l) => /Exception:/.test(l) && !/SubCommandException/.test(l)) ?? 'no reason'}); trying again`);
        }
        rec.detail.adminOutput = out.trim().split('\n').slice(0, 40).join('\n');
        rec.end = new Date();
        this.log(`fault: offsets of ${c.group} on ${c.topic} reset to ${new Date(to).toISOString()}`);
        return;
      }
    }
  }

  private async startServers(h: Host): Promise<void> {
    for (const p of h.processes) if (p.kind === 'namesrv') await this.cluster.startNamesrv(h, p);
    for (const p of h.processes) if (p.kind === 'broker') await this.cluster.startBroker(h, p);
  }

  /** Copies every host's logs/ as a collector would while the cluster runs. */
  collect(dest: string): void {
    for (const h of this.s.hosts) {
      if (h.collect === false) continue;
      const from = join(this.cluster.userHome(h.name), 'logs');
      const to = join(dest, h.name, 'logs');
      if (!existsSync(from)) continue;
      cpSync(from, to, { recursive: true, dereference: false });
      for (const f of walk(to)) dropPartialLastLine(f);
    }
  }

  sends(): Map<string, SendRecord[]> {
    const out = new Map<string, SendRecord[]>();
    for (const { host } of producers(this.s)) {
      const file = this.cluster.sendsFile(host.name);
      const rows = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
      out.set(
        host.name,
        rows.map((r) => {
          const [start, end, outcome, queue, detail, msgId, tag] = r.split('\t');
          return { start: Number(start), end: Number(end), outcome: outcome as SendRecord['outcome'], queue, detail, ...(msgId ? { msgId, tag } : {}) };
        }),
      );
    }
    return out;
  }
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/** Replaces every file under `dir` by its gzipped copy (`name.gz`); no timestamp or name in the header. */
function gzipLogs(dir: string): void {
  for (const f of walk(dir)) {
    if (f.endsWith('.gz')) continue;
    writeFileSync(`${f}.gz`, gzipSync(readFileSync(f), { level: 9 }));
    unlinkSync(f);
  }
}

// A file copied while its writer runs can end inside a line; that part was not written yet.
function dropPartialLastLine(file: string): void {
  if (file.endsWith('.gz')) return;
  const size = statSync(file).size;
  if (size === 0) return;
  const fd = openSync(file, 'r');
  const chunk = Buffer.alloc(Math.min(size, 1 << 20));
  readSync(fd, chunk, 0, chunk.length, size - chunk.length);
  closeSync(fd);
  if (chunk[chunk.length - 1] === 0x0a) return;
  const nl = chunk.lastIndexOf(0x0a);
  truncateSync(file, nl < 0 ? 0 : size - chunk.length + nl + 1);
}

export async function record(s: Scenario, tool: Toolchain, opts: RecordOptions, log: (line: string) => void): Promise<string> {
  if (existsSync(opts.out) && readdirSync(opts.out).length > 0 && !opts.force) {
    throw new Error(`${opts.out} exists; remove it or pass --force to record over it`);
  }
  const problem = s.faults.some((f) => f.kind === 'partition') ? partitionProblem() : null;
  if (problem) throw new Error(problem);
  takeLock();
  const scratch = mkdtempSync(join(tmpdir(), `rmq-lab-${s.scenario}-`));
  const rec = new Recording(s, tool, scratch, log);
  let stopping = false;
  const cleanup = async () => {
    if (stopping) return;
    stopping = true;
    await rec.cluster.stopAll();
    removeCpuLimits();
    rec.cluster.unmountAll();
    removeAll();
    if (!opts.keepScratch) rmSync(scratch, { recursive: true, force: true });
    releaseLock();
  };
  const onSignal = (sig: NodeJS.Signals) => {
    log(`${sig}: stopping the lab and removing its hosts`);
    void cleanup().then(() => process.exit(sig === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    rec.cluster.prepare();
    await rec.startCluster();
    rec.faultsFrom = new Date(Date.now() + s.settleSeconds * 1000);
    log(`settling for ${s.settleSeconds} s; faults from ${rec.faultsFrom.toISOString()}`);
    const ends = [...s.faults.map((f) => faultEnd(f) ?? f.at), ...producers(s).flatMap(({ producer }) => (producer.schedule ?? []).map((c) => c.at))];
    const endAt = rec.faultsFrom.getTime() + (Math.max(0, ...ends) + s.tailSeconds) * 1000;
    rec.apps.schedule(rec.faultsFrom.getTime());
    rec.scheduleProducers();
    await Promise.all(s.faults.map((f) => rec.runFault(f)));
    await sleep(endAt - Date.now());
    await rec.apps.stopSampling();
    // The truth ends where the logs do: the end is taken, the logs copied and the side files read
    // together, before the admin tool's slow count of the dead-letter topics.
    const endedAt = new Date();
    const staging = join(dirname(opts.out), `.${s.scenario}.recording-${process.pid}`);
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    rec.collect(staging);
    const sends = rec.sends();
    const side = rec.apps.sideFiles();
    if (opts.gzip) gzipLogs(staging);
    const dlq = await rec.apps.dlqCounts();
    const labJson = buildLabJson({
      scenario: s,
      javaVersion: javaVersion(tool),
      startedAt: rec.startedAt,
      faultsFrom: rec.faultsFrom,
      endedAt,
      faults: rec.faults,
      boundTo: rec.boundTo,
      discardedAttempts: rec.discardedAttempts,
      sends,
      consumers: { runs: rec.apps.runs, lag: rec.apps.lag, dlq, side },
    });
    writeFileSync(join(staging, 'lab.json'), JSON.stringify(labJson, null, 2) + '\n');
    if (existsSync(opts.out)) rmSync(opts.out, { recursive: true, force: true });
    renameSync(staging, opts.out);
    return relative(process.cwd(), opts.out) || '.';
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await cleanup();
  }
}

