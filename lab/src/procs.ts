// The lab's JVMs: started inside their host's namespace, tracked by pid, signalled to inject faults.
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync, readFileSync, existsSync } from 'node:fs';
import { namespaceOf } from './net.js';

export interface LabJvm {
  host: string;
  role: 'namesrv' | 'broker' | 'producer' | 'consumer' | 'admin';
  child: ChildProcess;
  pid: number;
  /** stdout and stderr of the JVM (the release scripts' nohup.out): never part of a recording. */
  outFile: string;
  exited: Promise<number | null>;
}

/** JVM flags for 4.x and 5.x servers on Java 17, with heaps small enough for a dozen JVMs on 2 cores. */
export const SERVER_JVM_FLAGS = [
  '-Xms96m',
  '-Xmx256m',
  '-XX:+UseSerialGC',
  '-XX:MaxDirectMemorySize=128m',
  '-XX:TieredStopAtLevel=1',
  // The 4.x store's MappedFile cleaner and DirectBuffer use JDK internals (MappedFile.clean, UtilAll).
  '--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED',
  '--add-opens=java.base/java.nio=ALL-UNNAMED',
  '--add-opens=java.base/sun.nio.ch=ALL-UNNAMED',
  '--add-exports=java.base/sun.nio.ch=ALL-UNNAMED',
  '--add-opens=java.base/java.lang=ALL-UNNAMED',
];

/**
 * A broker inside a local-mode proxy: every thread that stores a message (the broker's, and the proxy's
 * gRPC threads storing pop checkpoints and retries) holds a direct buffer of maxMessageSize (4 MiB,
 * CommitLog's PutMessageThreadLocal), so 128 MiB of direct memory runs out ("Cannot reserve 4259840
 * bytes of direct buffer memory", measured on 5.3.3); the release's runbroker.sh gives 15 GiB.
 */
export const PROXY_JVM_FLAGS = SERVER_JVM_FLAGS.map((f) => (f.startsWith('-XX:MaxDirectMemorySize=') ? '-XX:MaxDirectMemorySize=512m' : f.startsWith('-Xmx') ? '-Xmx384m' : f));

export const CLIENT_JVM_FLAGS = [
  '-Xms32m',
  '-Xmx128m',
  '-XX:+UseSerialGC',
  '-XX:TieredStopAtLevel=1',
  // Netty 4.0 (clients before 4.9) reads java.nio.Buffer.address by reflection.
  '--add-opens=java.base/java.nio=ALL-UNNAMED',
  '--add-opens=java.base/sun.nio.ch=ALL-UNNAMED',
  '--add-opens=java.base/java.lang=ALL-UNNAMED',
];

/**
 * user.home of every lab process, as on a real host where RocketMQ runs as its own user: the store
 * (${user.home}/store, MessageStoreConfig's default), the NameServer's kvConfig and every log
 * (${user.home}/logs/rocketmqlogs) are under it, and paths in the logs (a 5.4 broker's RocksDB
 * `LOG` file is named after its store path) read as they would there.
 */
export const HOST_HOME = '/home/rocketmq';

/** Every host runs in Asia/Shanghai, as most RocketMQ clusters do. */
export const LAB_TZ = 'Asia/Shanghai';

export function startJvm(opts: {
  java: string;
  host: string;
  role: LabJvm['role'];
  /** Run in the host's namespace; false for the admin tool on the lab's own side of the bridge. */
  inNamespace: boolean;
  flags: string[];
  systemProperties: Record<string, string>;
  classpath: string[];
  mainClass: string;
  args: string[];
  outFile: string;
  cwd: string;
  stdinPipe?: boolean;
  /**
   * The host's home folder, bound over HOST_HOME in the JVM's own mount namespace (the one
   * `ip netns exec` makes), so the process sees the paths of a real installation.
   */
  home?: string;
}): LabJvm {
  const props = Object.entries({ 'user.timezone': LAB_TZ, ...opts.systemProperties }).map(([k, v]) => `-D${k}=${v}`);
  const javaArgs = [...opts.flags, ...props, '-cp', opts.classpath.join(':'), opts.mainClass, ...opts.args];
  // `exec` keeps the pid: the lab signals the JVM itself.
  const bindHome = opts.home ? ['sh', '-c', 'mount --rbind "$1" "$2" && shift 2 && exec "$@"', 'sh', opts.home, HOST_HOME] : [];
  const [cmd, args] = opts.inNamespace ? ['ip', ['netns', 'exec', namespaceOf(opts.host), ...bindHome, opts.java, ...javaArgs]] : [opts.java, javaArgs];
  const fd = openSync(opts.outFile, 'a');
  const child = spawn(cmd, args, {
    cwd: opts.cwd,
    env: { ...process.env, TZ: LAB_TZ },
    stdio: [opts.stdinPipe ? 'pipe' : 'ignore', fd, fd],
    detached: true,
  });
  closeSync(fd);
  if (child.pid === undefined) throw new Error(`could not start ${opts.role} on ${opts.host}`);
  const exited = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => resolve(code));
    child.on('error', () => resolve(null));
  });
  // A control pipe whose reader is gone must not end the lab.
  child.stdin?.on('error', () => undefined);
  return { host: opts.host, role: opts.role, child, pid: child.pid, outFile: opts.outFile, exited };
}

export function isRunning(j: LabJvm): boolean {
  return j.child.exitCode === null && j.child.signalCode === null;
}

export function signal(j: LabJvm, sig: NodeJS.Signals): void {
  if (!isRunning(j)) return;
  try {
    process.kill(j.pid, sig);
  } catch {
    // already gone
  }
}

/** Waits for the JVM to exit; SIGKILL after `graceMs`. */
export async function stopJvm(j: LabJvm, sig: NodeJS.Signals, graceMs: number): Promise<void> {
  if (!isRunning(j)) return;
  signal(j, sig);
  if (sig === 'SIGTERM') signal(j, 'SIGCONT');
  const timer = setTimeout(() => signal(j, 'SIGKILL'), graceMs);
  await j.exited;
  clearTimeout(timer);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, Math.max(0, ms)));
}

/** Waits until `test` holds, checking every 250 ms; false when the JVM died or time ran out. */
export async function waitFor(test: () => boolean, timeoutMs: number, j?: LabJvm): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (test()) return true;
    if (j && !isRunning(j)) return test();
    await sleep(250);
  }
  return test();
}


export function tail(path: string, lines = 15): string {
  if (!existsSync(path)) return '(no output)';
  return readFileSync(path, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}
