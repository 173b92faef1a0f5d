// One running lab cluster: its scratch folder, hosts, JVMs and the commands that start each process
// the way the release's scripts would (mqnamesrv, mqbroker -c, a service with the client inside).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brokerSettings, namesrvSettings, proxySettings } from './conf.js';
import { serverLogbackConfigs } from './logback.js';
import { clientClasspath, extractResource, grpcClientClasspath, proxyClasspath, serverClasspath, type Toolchain } from './maven.js';
import {
  CLIENT_JVM_FLAGS,
  HOST_HOME,
  PROXY_JVM_FLAGS,
  SERVER_JVM_FLAGS,
  isRunning,
  signal,
  sleep,
  startJvm,
  stopJvm,
  tail,
  waitFor,
  type LabJvm,
} from './procs.js';
import { isGrpc, namesrvAddr, proxyHosts, type BrokerProcess, type Host, type NamesrvProcess, type ProducerProcess, type Scenario } from './scenario.js';

const STORE_FS_SIZE = '256m';
const CPU_CGROUP_ROOT = '/sys/fs/cgroup/cpu';

/** Unmounts the broker store file systems a killed run left under its scratch folder. */
export function removeStaleMounts(): string[] {
  const prefix = join(tmpdir(), 'rmq-lab-');
  const gone: string[] = [];
  for (const line of readFileSync('/proc/mounts', 'utf8').split('\n')) {
    const at = line.split(' ')[1];
    if (!at || !at.startsWith(prefix)) continue;
    try {
      execFileSync('umount', ['-l', at], { stdio: 'ignore' });
      gone.push(at);
    } catch {
      // already gone
    }
  }
  return gone;
}

/** Removes the CPU cgroups a run (or a killed one) left, moving their processes back first. */
export function removeCpuLimits(): void {
  if (!existsSync(CPU_CGROUP_ROOT)) return;
  for (const d of readdirSync(CPU_CGROUP_ROOT).filter((x) => x.startsWith('rmqlab-'))) {
    const dir = join(CPU_CGROUP_ROOT, d);
    try {
      for (const pid of readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean)) writeFileSync(join(CPU_CGROUP_ROOT, 'cgroup.procs'), pid);
      rmdirSync(dir);
    } catch {
      // in use or gone
    }
  }
}

/** The folder the binary release unpacks into (rocketmq-all-4.9.4-bin-release), under the host's home. */
function releaseDir(version: string): string {
  return `rocketmq-all-${version}-bin-release`;
}

export function isV4(version: string): boolean {
  return version.startsWith('4.');
}

function properties(entries: Record<string, string | number | boolean | undefined>): string {
  return (
    Object.entries(entries)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n') + '\n'
  );
}

export class Cluster {
  readonly jvms: LabJvm[] = [];
  private readonly mounts: string[] = [];
  private readonly homeDir: string;
  private serverCp = new Map<string, string[]>();
  /** The 5.x proxy's class path, when a broker runs in a local-mode proxy. */
  private proxyCp: string[] | null = null;
  private readonly logbackFiles = new Map<string, string>();

  constructor(
    readonly scenario: Scenario,
    readonly tool: Toolchain,
    /** Scratch folder of this run: everything but the recorded logs. */
    readonly scratch: string,
    readonly log: (line: string) => void,
  ) {
    this.homeDir = join(scratch, 'rocketmq-home');
  }

  /** user.home of a host: its logs/ folder is what the recording keeps. */
  userHome(host: string): string {
    return join(this.scratch, 'hosts', host, 'home');
  }

  hostDir(host: string): string {
    return join(this.scratch, 'hosts', host);
  }

  sendsFile(host: string): string {
    return join(this.hostDir(host), 'sends.tsv');
  }

  /** Resolves and compiles everything before any host exists, so a Maven problem costs nothing. */
  prepare(): void {
    const s = this.scenario;
    mkdirSync(join(this.homeDir, 'conf'), { recursive: true });
    // The mount point each process's home is bound over (in the process's own mount namespace).
    mkdirSync(HOST_HOME, { recursive: true });
    const logback = serverLogbackConfigs(s.versions);
    // The admin tool runs on the lab's side (no host home): its conf/ is in the scratch folder.
    writeFileSync(join(this.homeDir, 'conf', 'logback_tools.xml'), logback['logback_tools.xml']);
    // Each server host has the release unpacked in its home, as ROCKETMQ_HOME (servers print it).
    for (const h of s.hosts.filter((x) => x.processes.some((p) => p.kind === 'namesrv' || p.kind === 'broker'))) {
      for (const [role, v] of [['namesrv', s.versions.namesrv], ['broker', s.versions.broker]] as const) {
        const conf = join(this.userHome(h.name), releaseDir(v), 'conf');
        mkdirSync(conf, { recursive: true });
        if (isV4(v)) writeFileSync(join(conf, `logback_${role}.xml`), logback[`logback_${role}.xml`]);
      }
    }
    for (const v of new Set([s.versions.namesrv, s.versions.broker])) {
      const cp = serverClasspath(this.tool, v);
      this.serverCp.set(v, cp);
      if (!isV4(v)) {
        // The 5.x release copies these resources into conf/ and points -Drmq.logback.configurationFile at them.
        for (const [module, res] of [
          ['rocketmq-namesrv-', 'rmq.namesrv.logback.xml'],
          ['rocketmq-broker-', 'rmq.broker.logback.xml'],
          ['rocketmq-tools-', 'rmq.tools.logback.xml'],
        ]) {
          const jars = cp.filter((j) => j.split('/').pop()!.startsWith(module + v));
          const file = extractResource(this.tool, jars, res, join(this.homeDir, 'conf'));
          if (file) this.logbackFiles.set(res, file);
        }
      }
    }
    if (proxyHosts(s).length) {
      // bin/mqproxy passes -Drmq.logback.configurationFile=$ROCKETMQ_HOME/conf/rmq.proxy.logback.xml: the
      // proxy's file, which also holds the broker's appenders (broker.log, store.log, ...) for local mode.
      this.proxyCp = proxyClasspath(this.tool, s.versions.broker);
      const jars = this.proxyCp.filter((j) => j.split('/').pop()!.startsWith('rocketmq-proxy-'));
      const file = extractResource(this.tool, jars, 'rmq.proxy.logback.xml', join(this.homeDir, 'conf'));
      if (file) this.logbackFiles.set('rmq.proxy.logback.xml', file);
    }
    for (const h of s.hosts) {
      mkdirSync(join(this.userHome(h.name), 'logs'), { recursive: true });
      for (const p of h.processes) {
        if (p.kind === 'consumer' && isGrpc(p)) grpcClientClasspath(this.tool, p.version);
        else if (p.kind === 'producer' || p.kind === 'consumer') clientClasspath(this.tool, p.version);
      }
    }
  }

  private serverFlags(version: string, logback: string, home = `${HOST_HOME}/${releaseDir(version)}`): Record<string, string> {
    const props: Record<string, string> = { 'rocketmq.home.dir': home };
    const file = this.logbackFiles.get(logback);
    if (!isV4(version) && file) props['rmq.logback.configurationFile'] = file;
    return props;
  }

  launch(host: Host, role: LabJvm['role'], version: string, mainClass: string, args: string[], props: Record<string, string>, stdin = false, cp?: string[], flags?: string[]): LabJvm {
    const app = role === 'producer' || role === 'consumer';
    const classpath = cp ?? (app ? clientClasspath(this.tool, version) : this.serverCp.get(version)!);
    const j = startJvm({
      java: this.tool.java,
      host: host.name,
      role,
      inNamespace: true,
      flags: flags ?? (app ? CLIENT_JVM_FLAGS : SERVER_JVM_FLAGS),
      systemProperties: { 'user.home': HOST_HOME, ...props },
      classpath,
      mainClass,
      args,
      outFile: join(this.hostDir(host.name), `${role}.out`),
      cwd: this.hostDir(host.name),
      stdinPipe: stdin,
      home: this.userHome(host.name),
    });
    this.jvms.push(j);
    return j;
  }

  private async waitBoot(j: LabJvm, mark: string, text: string, what: string): Promise<void> {
    const booted = () => {
      const out = existsSync(j.outFile) ? readFileSync(j.outFile, 'utf8') : '';
      const at = out.lastIndexOf(mark);
      return at >= 0 && out.includes(text, at);
    };
    const ok = await waitFor(booted, 90_000, j);
    if (!ok) throw new Error(`${what} on ${j.host} did not start:\n${tail(j.outFile)}`);
  }

  async startNamesrv(host: Host, p: NamesrvProcess): Promise<LabJvm> {
    const v = this.scenario.versions.namesrv;
    // kvConfigPath and configStorePath keep their defaults, under ${user.home}/namesrv/ (not recorded).
    writeFileSync(this.confFile(host.name, 'namesrv.conf'), properties(namesrvSettings(p)));
    const mark = this.markOut(host.name, 'namesrv');
    const j = this.launch(host, 'namesrv', v, 'org.apache.rocketmq.namesrv.NamesrvStartup', ['-c', this.confPath('namesrv.conf')], this.serverFlags(v, 'rmq.namesrv.logback.xml'));
    await this.waitBoot(j, mark, 'The Name Server boot success', 'NameServer');
    return j;
  }

  /** The broker's store: ${user.home}/store, where the release keeps it by default (storePathRootDir). */
  private storeDir(host: string): string {
    return join(this.userHome(host), 'store');
  }

  /** A server's -c file in the host's ~/conf/, by the lab's path to it (the process sees confPath). */
  private confFile(host: string, name: string): string {
    mkdirSync(join(this.userHome(host), 'conf'), { recursive: true });
    return join(this.userHome(host), 'conf', name);
  }

  /** A ~/conf/ file by the path the process sees (its home bound over HOST_HOME). */
  private confPath(name: string): string {
    return `${HOST_HOME}/conf/${name}`;
  }

  async startBroker(host: Host, p: BrokerProcess): Promise<LabJvm> {
    const s = this.scenario;
    const v = s.versions.broker;
    const store = this.storeDir(host.name);
    if (!this.mounts.includes(store)) {
      // Each broker's store on its own small tmpfs: fast on any disk, and a disk-full fault can fill it.
      mkdirSync(store, { recursive: true });
      execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${STORE_FS_SIZE}`, 'tmpfs', store]);
      this.mounts.push(store);
    }
    // storePathRootDir and storePathCommitLog keep their defaults: ${user.home}/store(/commitlog).
    writeFileSync(this.confFile(host.name, 'broker.conf'), properties(brokerSettings(s, host, p)));
    const mark = this.markOut(host.name, 'broker');
    if (p.proxyMode === 'local') {
      // bin/mqproxy -n NAMESRV -pm local -bc broker.conf -pc rmq-proxy.json (what `mqbroker --enable-proxy`
      // runs): ProxyStartup builds the broker from broker.conf (BrokerStartup.createBrokerController) and
      // runs it in its own JVM; its own clients need -n (MQClientAPIFactory refuses an empty NamesrvAddr).
      writeFileSync(this.confFile(host.name, 'rmq-proxy.json'), JSON.stringify(proxySettings(s, p), null, 2) + '\n');
      const args = ['-n', namesrvAddr(s), '-pm', 'local', '-bc', this.confPath('broker.conf'), '-pc', this.confPath('rmq-proxy.json')];
      const j = this.launch(host, 'broker', v, 'org.apache.rocketmq.proxy.ProxyStartup', args, this.serverFlags(v, 'rmq.proxy.logback.xml'), false, this.proxyCp!, PROXY_JVM_FLAGS);
      await this.waitBoot(j, mark, 'rocketmq-proxy startup successfully', 'proxy (local mode)');
      return j;
    }
    const j = this.launch(host, 'broker', v, 'org.apache.rocketmq.broker.BrokerStartup', ['-c', this.confPath('broker.conf')], this.serverFlags(v, 'rmq.broker.logback.xml'));
    await this.waitBoot(j, mark, 'boot success', 'broker');
    return j;
  }

  // Boot messages are searched after a mark, so a restarted JVM is not taken for booted by its
  // previous run's output.
  private markOut(host: string, role: string): string {
    const file = join(this.hostDir(host), `${role}.out`);
    const mark = `\n--- lab: start ${new Date().toISOString()} ---\n`;
    writeFileSync(file, mark, { flag: 'a' });
    return mark;
  }

  /**
   * The java command line of the release's admin tool (mqadmin COMMAND ...), run on the lab's side of
   * the bridge with a home of its own in the scratch folder (its logs are not part of a recording).
   */
  adminArgs(command: string[]): string[] {
    const v = this.scenario.versions.broker;
    const home = join(this.scratch, 'admin');
    mkdirSync(home, { recursive: true });
    const props = { ...this.serverFlags(v, 'rmq.tools.logback.xml', this.homeDir), 'user.home': home, 'user.timezone': 'Asia/Shanghai' };
    return [
      ...SERVER_JVM_FLAGS.filter((f) => !f.startsWith('-Xms')),
      ...Object.entries(props).map(([k, val]) => `-D${k}=${val}`),
      '-cp',
      this.serverCp.get(v)!.join(':'),
      'org.apache.rocketmq.tools.command.MQAdminStartup',
      ...command,
    ];
  }

  /** mqadmin updateTopic for every topic on the cluster, from the lab's side of the bridge. */
  async createTopics(): Promise<void> {
    const s = this.scenario;
    const masterAddrs = () =>
      s.hosts.filter((h) => h.processes.some((p) => p.kind === 'broker' && p.brokerId === 0)).map((h) => `${h.addr}:10911`);
    const masterAddr = (name: string) => {
      const host = s.hosts.find((h) => h.processes.some((p) => p.kind === 'broker' && p.brokerName === name && p.brokerId === 0))!;
      return `${host.addr}:10911`;
    };
    for (const t of s.topics) {
      // `-c cluster`: every master; `-b addr`: one broker.
      const targets = t.brokers ? t.brokers.map((b) => ['-b', masterAddr(b)]) : [['-c', s.brokerClusterName ?? 'DefaultCluster']];
      for (const target of targets) {
        const args = this.adminArgs(['updateTopic', '-n', namesrvAddr(s), ...target, '-t', t.name, '-r', String(t.queues), '-w', String(t.queues)]);
        // `-c` creates the topic on the masters the NameServer knows: one that has not registered
        // yet is missed, so every intended master must be named in the output (else try again).
        const want = t.brokers ? [target[1]] : masterAddrs();
        let out = '';
        for (let attempt = 1; attempt <= 10; attempt++) {
          out = execFileSync(this.tool.java, args, { encoding: 'utf8', env: { ...process.env, TZ: 'Asia/Shanghai' }, stdio: ['ignore', 'pipe', 'pipe'] });
          const missing = want.filter((a) => !out.includes(`create topic to ${a} success`));
          if (!missing.length) break;
          if (attempt === 10) throw new Error(`mqadmin updateTopic ${t.name} did not reach ${missing.join(', ')}:\n${out.trim()}`);
          this.log(`topic ${t.name}: ${missing.join(', ')} not registered yet; trying again`);
          await sleep(3000);
        }
      }
      this.log(`topic ${t.name}: ${t.queues} queues on ${t.brokers ? t.brokers.join(', ') : 'every master'}`);
    }
  }

  startProducer(host: Host, p: ProducerProcess): LabJvm {
    const s = this.scenario;
    const dir = this.hostDir(host.name);
    const conf = join(dir, 'producer.properties');
    writeFileSync(
      conf,
      properties({
        namesrvAddr: namesrvAddr(s, p.namesrvHosts),
        group: p.group,
        topic: p.topic,
        rate: p.rate,
        threads: p.threads ?? 4,
        async: p.async,
        bodySize: p.bodySize ?? 256,
        tags: p.tags?.join(','),
        appLogger: p.appLogger,
        appLogStacks: p.appLogStacks,
        selectorQueue: p.selectorQueue,
        sendsFile: this.sendsFile(host.name),
        ...p.settings,
      }),
    );
    return this.launch(
      host,
      'producer',
      p.version,
      'com.example.lab.LabProducer',
      [conf],
      {
        LOG_FILE: `${HOST_HOME}/logs/app.log`,
        'logback.configurationFile': join(this.tool.labDir, 'client', 'logback-app.xml'),
        ...p.systemProperties,
      },
      true,
    );
  }

  /** The NameServer address the producer's client chose first (`new name server is chosen`), if yet. */
  boundNamesrv(host: string): string | null {
    const logs = join(this.userHome(host), 'logs');
    for (const f of [join(logs, 'rocketmqlogs', 'rocketmq_client.log'), join(logs, 'app.log')]) {
      if (!existsSync(f)) continue;
      const m = /new name server is chosen\. OLD: null , NEW: (\S+)\./.exec(readFileSync(f, 'utf8'));
      if (m) return m[1];
    }
    return null;
  }

  /** Forgets a producer attempt that bound to the wrong NameServer: its JVM, logs and sends. */
  async discardProducer(j: LabJvm): Promise<void> {
    await stopJvm(j, 'SIGKILL', 1000);
    this.jvms.splice(this.jvms.indexOf(j), 1);
    rmSync(join(this.userHome(j.host), 'logs'), { recursive: true, force: true });
    mkdirSync(join(this.userHome(j.host), 'logs'), { recursive: true });
    rmSync(this.sendsFile(j.host), { force: true });
  }

  jvmsOf(host: string): LabJvm[] {
    return this.jvms.filter((j) => j.host === host && isRunning(j));
  }

  signalHost(host: string, sig: NodeJS.Signals): number[] {
    const list = this.jvmsOf(host);
    for (const j of list) signal(j, sig);
    return list.map((j) => j.pid);
  }

  /** Fills the broker's store file system to `ratio` (a disk-full fault); returns the filler's path. */
  fillStore(host: string, ratio: number): string {
    const store = this.storeDir(host);
    const filler = join(store, 'lab-filler');
    const df = execFileSync('df', ['-B1', '--output=size,used', store], { encoding: 'utf8' }).trim().split('\n')[1].trim().split(/\s+/).map(Number);
    const bytes = Math.max(0, Math.floor(df[0] * ratio - df[1]));
    execFileSync('fallocate', ['-l', String(bytes), filler]);
    return filler;
  }

  /**
   * Limits the host's JVMs to `share` of one CPU (cgroup v1 cpu controller, CFS quota per period),
   * as a container CPU limit would; `null` lifts the limit.
   */
  limitCpu(host: string, share: number | null, periodMs = 100): void {
    const dir = join(CPU_CGROUP_ROOT, `rmqlab-${host}`);
    if (share === null) {
      if (!existsSync(dir)) return;
      for (const pid of readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean)) {
        try {
          writeFileSync(join(CPU_CGROUP_ROOT, 'cgroup.procs'), pid);
        } catch {
          // gone
        }
      }
      rmdirSync(dir);
      return;
    }
    if (!existsSync(CPU_CGROUP_ROOT)) throw new Error(`a CPU quota needs the cgroup v1 cpu controller (${CPU_CGROUP_ROOT})`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'cpu.cfs_period_us'), String(periodMs * 1000));
    writeFileSync(join(dir, 'cpu.cfs_quota_us'), String(Math.max(1000, Math.round(share * periodMs * 1000))));
    // Every thread of the JVMs (cgroup.procs moves the whole process).
    for (const j of this.jvmsOf(host)) writeFileSync(join(dir, 'cgroup.procs'), String(j.pid));
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.jvms.map((j) => stopJvm(j, 'SIGKILL', 2000)));
  }

  unmountAll(): void {
    for (const m of this.mounts.splice(0)) {
      try {
        execFileSync('umount', ['-l', m], { stdio: 'ignore' });
      } catch {
        // already gone
      }
    }
  }

}
