// The released RocketMQ jars, by their Maven coordinates: Maven resolves each version's class path
// (into the local repository), and the lab compiles its producer against each client version.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { compareVersions, LITE_PULL_SINCE } from './scenario.js';

export interface Toolchain {
  /** lab/ of the checkout. */
  labDir: string;
  /** lab/.cache: resolved class paths and compiled classes (not committed). */
  cacheDir: string;
  java: string;
  javac: string;
  jar: string;
  log: (line: string) => void;
}

export function toolchain(labDir: string, log: (line: string) => void): Toolchain {
  const home = process.env.JAVA_HOME;
  const bin = (name: string) => (home ? join(home, 'bin', name) : name);
  return { labDir, cacheDir: join(labDir, '.cache'), java: bin('java'), javac: bin('javac'), jar: bin('jar'), log };
}

/** Why Java or Maven cannot be used here, or null. */
export function toolchainProblem(t: Toolchain): string | null {
  for (const [cmd, args] of [
    [t.java, ['-version']],
    [t.javac, ['-version']],
    ['mvn', ['-v']],
  ] as const) {
    try {
      execFileSync(cmd, [...args], { stdio: 'ignore' });
    } catch {
      return `the lab needs ${cmd} (Java 17 and Maven, with Maven Central)`;
    }
  }
  return null;
}

export function javaVersion(t: Toolchain): string {
  // -XshowSettings prints to stderr.
  const r = spawnSync(t.java, ['-XshowSettings:properties', '-version'], { encoding: 'utf8' });
  return `${r.stderr}`.match(/java\.runtime\.version = (\S+)/)?.[1] ?? 'unknown';
}

/** lab/<module>/pom.xml: the servers, the proxy (5.x), the remoting client, the gRPC client (rocketmq-client-java). */
type Module = 'server' | 'proxy' | 'client' | 'client-grpc';

function classpath(t: Toolchain, module: Module, version: string): string[] {
  mkdirSync(t.cacheDir, { recursive: true });
  const file = join(t.cacheDir, `${module}-${version}.classpath`);
  const pom = join(t.labDir, module, 'pom.xml');
  if (!existsSync(file) || statSync(file).mtimeMs < statSync(pom).mtimeMs) {
    t.log(`resolving RocketMQ ${version} (${module}) from Maven Central`);
    try {
      execFileSync('mvn', ['-q', '-B', '-f', pom, `-Drocketmq.version=${version}`, 'dependency:build-classpath', `-Dmdep.outputFile=${file}`], {
        stdio: ['ignore', 'pipe', 'pipe'],
        encoding: 'utf8',
      });
    } catch (e) {
      const out = `${(e as { stdout?: string }).stdout ?? ''}`;
      const why = out.split('\n').find((l) => l.includes('[ERROR]')) ?? (e as Error).message;
      throw new Error(`Maven could not resolve RocketMQ ${version} (${module}): ${why.replace(/\x1b\[[0-9;]*m/g, '').trim()}`);
    }
  }
  return readFileSync(file, 'utf8').trim().split(':').filter(Boolean);
}

export function serverClasspath(t: Toolchain, version: string): string[] {
  return classpath(t, 'server', version);
}

/**
 * The applications' class path for one client version: LabProducer and LabConsumer (and LabMain and
 * LabListener, what they share) compiled against that version (LabLitePull too from 4.6.0, the first client with
 * DefaultLitePullConsumer).
 */
export function clientClasspath(t: Toolchain, version: string): string[] {
  const jars = classpath(t, 'client', version);
  const classes = join(t.cacheDir, `client-${version}`, 'classes');
  const dir = join(t.labDir, 'client', 'src', 'main', 'java', 'com', 'example', 'lab');
  const names = ['LabMain', 'LabListener', 'LabProducer', 'LabConsumer', ...(compareVersions(version, LITE_PULL_SINCE) >= 0 ? ['LabLitePull'] : [])];
  const stale = names.some((n) => {
    const built = join(classes, 'com', 'example', 'lab', `${n}.class`);
    return !existsSync(built) || statSync(built).mtimeMs < statSync(join(dir, `${n}.java`)).mtimeMs;
  });
  if (stale) {
    t.log(`compiling the lab applications against client ${version}`);
    mkdirSync(classes, { recursive: true });
    execFileSync(t.javac, ['--release', '11', '-nowarn', '-cp', jars.join(':'), '-d', classes, ...names.map((n) => join(dir, `${n}.java`))], { stdio: ['ignore', 'pipe', 'pipe'] });
  }
  return [classes, ...jars];
}

/** The 5.x proxy's class path (rocketmq-proxy, which brings the broker it runs in local mode). */
export function proxyClasspath(t: Toolchain, version: string): string[] {
  return classpath(t, 'proxy', version);
}

/**
 * The gRPC consumer application's class path for one rocketmq-client-java version: LabGrpcConsumer
 * (and LabMain, LabListener) compiled against it. The client jar shades its own gRPC, protobuf and logback.
 */
export function grpcClientClasspath(t: Toolchain, version: string): string[] {
  const jars = classpath(t, 'client-grpc', version);
  const classes = join(t.cacheDir, `client-grpc-${version}`, 'classes');
  // The lab's shared classes (LabMain, LabListener) are compiled beside it from the remoting client's folder.
  const shared = join(t.labDir, 'client', 'src', 'main', 'java', 'com', 'example', 'lab');
  const sources = [join(shared, 'LabMain.java'), join(shared, 'LabListener.java'), join(t.labDir, 'client-grpc', 'src', 'main', 'java', 'com', 'example', 'lab', 'LabGrpcConsumer.java')];
  const built = join(classes, 'com', 'example', 'lab', 'LabGrpcConsumer.class');
  if (!existsSync(built) || sources.some((f) => statSync(built).mtimeMs < statSync(f).mtimeMs)) {
    t.log(`compiling the gRPC consumer against rocketmq-client-java ${version}`);
    mkdirSync(classes, { recursive: true });
    execFileSync(t.javac, ['--release', '11', '-nowarn', '-cp', jars.join(':'), '-d', classes, ...sources], { stdio: ['ignore', 'pipe', 'pipe'] });
  }
  return [classes, ...jars];
}

/** Extracts one resource from the first jar that has it (5.x servers' rmq.*.logback.xml) into destDir. */
export function extractResource(t: Toolchain, jars: string[], resource: string, destDir: string): string | null {
  for (const jar of jars.filter((j) => j.endsWith('.jar'))) {
    const listing = execFileSync(t.jar, ['tf', jar], { encoding: 'utf8', maxBuffer: 64 << 20 });
    if (!listing.split('\n').includes(resource)) continue;
    execFileSync(t.jar, ['xf', jar, resource], { cwd: destDir, stdio: 'ignore' });
    return join(destDir, resource);
  }
  return null;
}
