// The scenario file (docs/replay.md): a JSON document holding the scenario to run, the observed
// milestones it is compared with, where every inferred value came from and which values are defaults.
// `replay PATHS --save-scenario s.json` writes one; `replay s.json` reads it back. A bare scenario
// (an object with nameServers, brokers, clients) is accepted too. Every problem is one line naming
// the field: `scenario.clients[1].namesrvAddrList: expected an array of addresses`.

import { formatIso, parseZone, ZoneError } from '../parse/time.js';
import { autoClientIp, brokerFaultMs, LIMITS, runTasks, topicQueues, type Scenario } from '../model/index.js';
import { parseSubscription } from '../model/subscription.js';
import { COMPARED_MILESTONES } from '../rules/milestones.js';
import { type BusyFigure, type ConsumerFigure, type ClientFailures, type MilestoneTime, type Observed, type ReplayInput } from '../diagnosis/types.js';
import { OLDEST_MODELLED, parseVersion, versionAtLeast } from '../rocketmq/versions.js';
import { CONSUMER_DEFAULTS } from '../rocketmq/facts.js';
import { spanText } from '../util/durations.js';

const SCENARIO_FILE_VERSION = 1;

/**
 * The largest scenario file read: the most it can hold within LIMITS is about five million logged
 * send times (sendsPerRun), some 64 MB of JSON.
 */
export const MAX_SCENARIO_FILE_BYTES = 128 * 1024 * 1024;

export class ScenarioError extends Error {}

/** Two hosts of the scenario with one IP (the model gives each host its own). */
export class SharedIpError extends ScenarioError {
  constructor(
    message: string,
    readonly ip: string,
    readonly hosts: [string, string],
  ) {
    super(message);
  }
}

type Json = unknown;
type Obj = Record<string, Json>;

const isObj = (v: Json): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const ADDR = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3}):(\d{1,5})$/;
const IP = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function fail(path: string, msg: string): never {
  throw new ScenarioError(`${path}: ${msg}`);
}

/** A string past `max` characters is damage (a name of megabytes), refused before anything prints it. */
function checkLength(v: string, path: string, max: number): void {
  if (v.length > max) fail(path, `${v.length.toLocaleString('en-US')} characters is past the limit of ${max.toLocaleString('en-US')}`);
}

/** An array of strings each of at most `max` characters, at most `count` of them. */
function strings(v: Json, path: string, what: string, max: number, count: number): string[] {
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) fail(path, `expected an array of ${what}`);
  if (v.length > count) fail(path, `${v.length.toLocaleString('en-US')} ${what} is past the limit of ${count.toLocaleString('en-US')}`);
  v.forEach((x, i) => checkLength(x as string, `${path}[${i}]`, max));
  return v as string[];
}

function isAddr(v: Json): v is string {
  if (typeof v !== 'string') return false;
  const m = ADDR.exec(v);
  return m !== null && [1, 2, 3, 4].every((i) => Number(m[i]) <= 255) && Number(m[5]) > 0 && Number(m[5]) < 65536;
}

/** Reads the fields of one object, checking types and that no unknown field is left. */
class Fields {
  private readonly seen = new Set<string>();
  constructor(
    readonly o: Obj,
    readonly path: string,
  ) {}

  private get(key: string): Json {
    this.seen.add(key);
    return this.o[key];
  }

  has(key: string): boolean {
    return this.o[key] !== undefined;
  }

  /** A non-empty string of at most `max` characters (a name, by default). */
  str(key: string, required: boolean, what = 'a non-empty string', max: number = LIMITS.nameChars): string | undefined {
    const v = this.get(key);
    if (v === undefined && !required) return undefined;
    if (typeof v !== 'string' || v.trim() === '') fail(`${this.path}.${key}`, `expected ${what}`);
    checkLength(v, `${this.path}.${key}`, max);
    return v;
  }

  num(key: string, required: boolean, opts: { min?: number; max?: number; int?: boolean; what?: string } = {}): number | undefined {
    const v = this.get(key);
    if (v === undefined && !required) return undefined;
    const range =
      opts.max !== undefined ? ` from ${opts.min ?? 0} to ${opts.max.toLocaleString('en-US')}` : opts.min !== undefined ? ` >= ${opts.min}` : '';
    const what = opts.what ?? `${opts.int ? 'a whole number' : 'a number'}${range}`;
    if (
      typeof v !== 'number' ||
      !Number.isFinite(v) ||
      (opts.int && !Number.isInteger(v)) ||
      (opts.min !== undefined && v < opts.min) ||
      (opts.max !== undefined && v > opts.max)
    ) {
      fail(`${this.path}.${key}`, `expected ${what}${typeof v === 'number' ? ` (got ${v})` : ''}`);
    }
    return v;
  }

  bool(key: string): boolean | undefined {
    const v = this.get(key);
    if (v === undefined) return undefined;
    if (typeof v !== 'boolean') fail(`${this.path}.${key}`, 'expected true or false');
    return v;
  }

  addr(key: string, required: boolean): string | undefined {
    const v = this.get(key);
    if (v === undefined && !required) return undefined;
    if (!isAddr(v)) fail(`${this.path}.${key}`, 'expected an address ip:port');
    return v;
  }

  addrs(key: string): string[] | undefined {
    const v = this.get(key);
    if (v === undefined) return undefined;
    if (!Array.isArray(v) || v.length === 0 || !v.every(isAddr)) fail(`${this.path}.${key}`, 'expected an array of addresses');
    return v as string[];
  }

  version(key: string, required: boolean): string | undefined {
    const v = this.str(key, required, 'a version like 4.9.4');
    if (v === undefined) return undefined;
    if (parseVersion(v) === null) fail(`${this.path}.${key}`, 'expected a version like 4.9.4');
    if (!versionAtLeast(v, OLDEST_MODELLED)) fail(`${this.path}.${key}`, `versions before ${OLDEST_MODELLED} are not modelled (got ${v})`);
    return v;
  }

  oneOf<T extends string>(key: string, values: readonly T[]): T | undefined {
    const v = this.get(key);
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) fail(`${this.path}.${key}`, `expected one of ${values.join(', ')}`);
    return v as T;
  }

  obj(key: string, required: boolean): Fields | undefined {
    const v = this.get(key);
    if (v === undefined && !required) return undefined;
    if (!isObj(v)) fail(`${this.path}.${key}`, 'expected an object');
    return new Fields(v, `${this.path}.${key}`);
  }

  arr(key: string, required: boolean, what: string, max = Infinity): Json[] | undefined {
    const v = this.get(key);
    if (v === undefined && !required) return undefined;
    if (!Array.isArray(v)) fail(`${this.path}.${key}`, `expected an array of ${what}`);
    if (v.length > max) fail(`${this.path}.${key}`, `${v.length.toLocaleString('en-US')} ${what} is past the limit of ${max.toLocaleString('en-US')}`);
    return v;
  }

  any(key: string): Json {
    return this.get(key);
  }

  /** Unknown fields are mistakes (a misspelt setting would silently take its default). */
  done(): void {
    for (const k of Object.keys(this.o)) if (!this.seen.has(k)) fail(`${this.path}.${k}`, 'unknown field');
  }
}

function eachObj(list: Json[], path: string, fn: (f: Fields, i: number) => void): void {
  list.forEach((v, i) => {
    if (!isObj(v)) fail(`${path}[${i}]`, 'expected an object');
    const f = new Fields(v, `${path}[${i}]`);
    fn(f, i);
    f.done();
  });
}

/**
 * The longest run by default (--max-span raises it). The model keeps what every simulated process
 * logged, so memory follows the simulated span: logs that span longer are replayed for this long
 * from their start.
 */
export const DEFAULT_MAX_SPAN_MS = 6 * 3_600_000;

const CLIENT_SETTINGS: Record<string, 'ms' | 'int' | 'bool' | 'seconds'> = {
  pollNameServerIntervalMs: 'ms',
  heartbeatBrokerIntervalMs: 'ms',
  mqClientApiTimeoutMs: 'ms',
  sendMsgTimeoutMs: 'ms',
  retryTimesWhenSendFailed: 'int',
  retryTimesWhenSendAsyncFailed: 'int',
  sendLatencyFaultEnable: 'bool',
  connectTimeoutMs: 'ms',
  clientChannelMaxIdleTimeSeconds: 'seconds',
  clientCloseSocketIfTimeout: 'bool',
};

/** Checks a scenario object; returns it typed, or throws ScenarioError naming the first bad field. */
export function validateScenario(v: Json, path = 'scenario'): Scenario {
  if (!isObj(v)) fail(path, 'expected an object');
  const f = new Fields(v, path);
  f.str('name', false);
  f.num('startEpochMs', true, { min: 0, max: LIMITS.epochMs, what: `epoch milliseconds up to ${LIMITS.epochMs} (2100-01-01)` });
  const zone = f.str('zone', false, 'a zone like +08:00');
  if (zone !== undefined) {
    try {
      parseZone(zone);
    } catch (e) {
      if (e instanceof ZoneError) fail(`${path}.zone`, e.message);
      throw e;
    }
  }
  f.version('serverVersion', false);
  f.num('latencyMs', false, { min: 0, max: 60000 });
  f.bool('autoCreateTopicEnable');

  const hostIp = new Map<string, { ip: string; at: string }>();
  const ipHost = new Map<string, { host: string; at: string }>();
  /** `at`: the field naming the host; `ipAt`: the one giving its IP. */
  const place = (host: string, ip: string, at: string, ipAt = at) => {
    const prev = hostIp.get(host);
    if (prev && prev.ip !== ip) fail(at, `host ${host} already has the address ${prev.ip} (${prev.at}); one host has one IP`);
    const other = ipHost.get(ip);
    // The model's network gives each host its own IP (as the logs' addresses do): two hosts on one IP
    // are two clusters' logs together, or a mistake.
    if (other && other.host !== host) throw new SharedIpError(`${ipAt}: ${ip} is also the IP of ${other.at} (host ${other.host}); two hosts cannot share an IP`, ip, [other.host, host]);
    if (!prev) hostIp.set(host, { ip, at });
    if (!other) ipHost.set(ip, { host, at: ipAt });
  };
  const ipOf = (addr: string) => addr.slice(0, addr.lastIndexOf(':'));

  const nsList = f.arr('nameServers', true, 'NameServers', LIMITS.nameServers)!;
  if (nsList.length === 0) fail(`${path}.nameServers`, 'expected an array of NameServers (at least one)');
  const nsAddrs = new Set<string>();
  eachObj(nsList, `${path}.nameServers`, (n, i) => {
    const addr = n.addr('addr', true)!;
    if (nsAddrs.has(addr)) fail(`${path}.nameServers[${i}].addr`, `${addr} is listed twice`);
    nsAddrs.add(addr);
    const host = n.str('host', true)!;
    place(host, ipOf(addr), `${path}.nameServers[${i}].host`, `${path}.nameServers[${i}].addr`);
    n.version('version', false);
    n.num('serverChannelMaxIdleTimeSeconds', false, { min: 1, max: LIMITS.settingMs / 1000 });
    n.num('scanNotActiveBrokerIntervalMs', false, { min: 1, max: LIMITS.settingMs });
    n.num('brokerChannelExpiredTimeMs', false, { min: 1, max: LIMITS.settingMs });
    n.num('startAtMs', false, { min: 0, max: LIMITS.modelMs });
  });

  const brokerList = f.arr('brokers', true, 'brokers', LIMITS.brokers)!;
  if (brokerList.length === 0) fail(`${path}.brokers`, 'expected an array of brokers (at least one)');
  const brokerNames = new Set<string>();
  const brokerAddrs = new Set<string>();
  eachObj(brokerList, `${path}.brokers`, (b, i) => {
    const p = `${path}.brokers[${i}]`;
    const name = b.str('name', true)!;
    if (brokerNames.has(name)) fail(`${p}.name`, `broker ${name} is defined twice`);
    brokerNames.add(name);
    const addr = b.addr('addr', true)!;
    if (brokerAddrs.has(addr) || nsAddrs.has(addr)) fail(`${p}.addr`, `${addr} is used twice`);
    brokerAddrs.add(addr);
    const host = b.str('host', true)!;
    place(host, ipOf(addr), `${p}.host`, `${p}.addr`);
    b.oneOf('role', ['master', 'slave'] as const);
    b.str('cluster', false);
    b.version('version', false);
    const ns = b.addrs('namesrvAddrs');
    ns?.forEach((a, k) => nsAddrs.has(a) || fail(`${p}.namesrvAddrs[${k}]`, `${a} is not one of scenario.nameServers`));
    b.num('cores', false, { min: 1, max: LIMITS.threads, int: true });
    b.num('sendMessageThreadPoolNums', false, { min: 1, max: LIMITS.threads, int: true });
    b.num('sendThreadPoolQueueCapacity', false, { min: 1, max: LIMITS.queueCapacity, int: true });
    b.num('waitTimeMillsInSendQueue', false, { min: 1, max: LIMITS.settingMs });
    b.num('osPageCacheBusyTimeOutMills', false, { min: 1, max: LIMITS.settingMs });
    b.num('registerNameServerPeriodMs', false, { min: 1, max: LIMITS.settingMs });
    b.num('registerBrokerTimeoutMills', false, { min: 1, max: LIMITS.settingMs });
    b.num('startAtMs', false, { min: 0, max: LIMITS.modelMs });
    const svc = b.obj('service', false);
    if (svc) {
      svc.num('meanMs', true, { min: 0, max: LIMITS.settingMs });
      svc.num('sdMs', true, { min: 0, max: LIMITS.settingMs });
      svc.done();
    }
  });

  const topicList = f.arr('topics', true, 'topics', LIMITS.topics)!;
  const topicNames = new Set<string>(['TBW102']);
  eachObj(topicList, `${path}.topics`, (t, i) => {
    topicNames.add(t.str('name', true)!);
    t.num('queues', false, { min: 1, max: LIMITS.queues, int: true });
    const on = t.any('brokers');
    if (on !== undefined) {
      if (!Array.isArray(on) || on.length === 0 || !on.every((x) => typeof x === 'string')) fail(`${path}.topics[${i}].brokers`, 'expected an array of broker names');
      (on as string[]).forEach((n, k) => brokerNames.has(n) || fail(`${path}.topics[${i}].brokers[${k}]`, `unknown broker ${n}`));
    }
  });

  const queues = topicQueues(v as unknown as Scenario);
  if (queues.total > LIMITS.topicQueues) {
    fail(
      `${path}.topics`,
      `${topicList.length.toLocaleString('en-US')} topics on their brokers hold ${queues.total.toLocaleString('en-US')} queues in all, past the limit of ${LIMITS.topicQueues.toLocaleString('en-US')} (fewer topics, queues or brokers; ${path}.topics[${queues.top}] holds the most)`,
    );
  }

  const clientList = f.arr('clients', true, 'clients', LIMITS.clients)!;
  const clientHosts = new Set<string>();
  eachObj(clientList, `${path}.clients`, (c, i) => {
    const p = `${path}.clients[${i}]`;
    const host = c.str('host', true)!;
    if (clientHosts.has(host)) fail(`${p}.host`, `client ${host} is defined twice (one client per host)`);
    clientHosts.add(host);
    const ip = c.str('ip', false, 'an IPv4 address');
    if (ip !== undefined) {
      if (!IP.test(ip)) fail(`${p}.ip`, 'expected an IPv4 address');
      place(host, ip, `${p}.ip`);
    } else if (!hostIp.has(host)) {
      // The model gives a client of a host without an address one of its own (autoClientIp).
      place(host, autoClientIp(i), `${p}.ip (not given: ${autoClientIp(i)})`);
    }
    c.version('version', true);
    const list = c.addrs('namesrvAddrList');
    list?.forEach((a, k) => nsAddrs.has(a) || fail(`${p}.namesrvAddrList[${k}]`, `${a} is not one of scenario.nameServers`));
    const bound = c.str('namesrv', false, "an address from namesrvAddrList or 'random'");
    if (bound !== undefined && bound !== 'random') {
      if (!isAddr(bound)) fail(`${p}.namesrv`, "expected an address from namesrvAddrList or 'random'");
      if (!(list ?? [...nsAddrs]).includes(bound)) fail(`${p}.namesrv`, `${bound} is not in the client's NameServer list`);
    }
    c.str('group', false);
    const topic = c.str('topic', true)!;
    if (!topicNames.has(topic)) fail(`${p}.topic`, `topic ${topic} is not in scenario.topics`);
    c.num('sendRatePerSec', true, { min: 0, max: LIMITS.sendRatePerSec });
    c.bool('selector');
    c.bool('async');
    c.num('selectorQueue', false, { min: 0, int: true, max: 65535 });
    c.num('sendThreads', false, { min: 1, int: true, max: LIMITS.sendThreads });
    c.num('startAtMs', false, { min: 0, max: LIMITS.modelMs });
    c.num('sendStartMs', false, { min: 0, max: LIMITS.modelMs });
    const times = c.any('sendTimesMs');
    if (times !== undefined && (!Array.isArray(times) || !times.every((t) => typeof t === 'number' && Number.isFinite(t) && t >= 0 && t <= LIMITS.modelMs))) {
      fail(`${p}.sendTimesMs`, `expected an array of model times (ms from 0 to ${LIMITS.modelMs.toLocaleString('en-US')})`);
    }
    if (Array.isArray(times) && times.length > LIMITS.sendTimes) {
      fail(`${p}.sendTimesMs`, `${times.length.toLocaleString('en-US')} send times is past the limit of ${LIMITS.sendTimes.toLocaleString('en-US')}`);
    }
    const logged = c.arr('loggedSends', false, 'logged sends', LIMITS.sendTimes);
    if (logged) {
      eachObj(logged, `${p}.loggedSends`, (s) => {
        s.num('atMs', true, { min: 0, max: LIMITS.modelMs });
        const b = s.str('broker', true)!;
        if (!brokerNames.has(b)) fail(`${s.path}.broker`, `unknown broker ${b}`);
      });
    }
    const steps = c.arr('sendRateSteps', false, 'rate steps', LIMITS.rateSteps);
    if (steps) {
      eachObj(steps, `${p}.sendRateSteps`, (s) => {
        s.num('atMs', true, { min: 0, max: LIMITS.modelMs });
        s.num('perSec', true, { min: 0, max: LIMITS.sendRatePerSec });
      });
    }
    const tags = c.arr('tags', false, 'tags', MAX_TAGS);
    if (tags) {
      eachObj(tags, `${p}.tags`, (t) => {
        const tag = t.str('tag', true)!;
        if (tag.includes('||') || tag.trim() !== tag || tag === '*') fail(`${t.path}.tag`, "expected one tag (no '||', no surrounding blanks, not '*')");
        t.num('share', false, { min: Number.MIN_VALUE, max: 1e6 });
      });
    }
    const s = c.obj('settings', false);
    if (s) {
      for (const [key, kind] of Object.entries(CLIENT_SETTINGS)) {
        if (kind === 'bool') s.bool(key);
        else if (kind === 'int') s.num(key, false, { min: 0, max: LIMITS.retryTimesWhenSendFailed, int: true });
        else s.num(key, false, { min: 1, max: kind === 'seconds' ? LIMITS.settingMs / 1000 : LIMITS.settingMs });
      }
      s.done();
    }
  });

  const groups = f.arr('consumerGroups', false, 'consumer groups', LIMITS.consumerGroups);
  if (groups) checkConsumerGroups(groups, path, topicNames, place, hostIp);

  const faults = f.arr('faults', false, 'faults', LIMITS.faults);
  const hosts = new Set<string>(hostIp.keys());
  for (const h of clientHosts) hosts.add(h);
  if (faults) {
    eachObj(faults, `${path}.faults`, (x, i) => {
      const p = `${path}.faults[${i}]`;
      x.num('atMs', true, { min: 0, max: LIMITS.modelMs });
      const dur = (o: Fields, key: string, required: boolean) => o.num(key, required, { min: 0, max: LIMITS.modelMs });
      const knownHost = (key: string, v: string) => hosts.has(v) || fail(`${p}.${key}`, `unknown host ${v}`);
      const knownBroker = (v: string) => brokerNames.has(v) || fail(`${p}.broker`, `unknown broker ${v}`);
      if (x.has('state')) {
        knownHost('host', x.str('host', true)!);
        x.oneOf('state', ['hung', 'up', 'down', 'reboot'] as const);
        x.bool('processesOnly');
        x.bool('graceful');
        const boot = x.obj('boot', false);
        if (boot) {
          dur(boot, 'namesrvMs', false);
          dur(boot, 'brokerMs', false);
          dur(boot, 'clientMs', false);
          boot.done();
        }
      } else if (x.has('stall')) {
        knownBroker(x.str('broker', true)!);
        const s = x.obj('stall', true)!;
        dur(s, 'durationMs', true);
        s.bool('ioFrozen');
        dur(s, 'ioFrozenMs', false);
        s.done();
      } else if (x.has('overload')) {
        knownBroker(x.str('broker', true)!);
        const o = x.obj('overload', true)!;
        dur(o, 'durationMs', true);
        o.num('serviceMs', true, { min: 0, max: LIMITS.settingMs });
        o.num('sdMs', false, { min: 0, max: LIMITS.settingMs });
        o.num('backgroundPerSec', false, { min: 0, max: LIMITS.sendRatePerSec });
        o.done();
      } else if (x.has('slowPut')) {
        knownBroker(x.str('broker', true)!);
        const o = x.obj('slowPut', true)!;
        dur(o, 'durationMs', true);
        o.done();
      } else if (x.has('diskFull')) {
        knownBroker(x.str('broker', true)!);
        const o = x.obj('diskFull', true)!;
        dur(o, 'durationMs', true);
        o.num('ratio', true, { min: 0, max: 1 });
        o.num('okRatio', true, { min: 0, max: 1 });
        o.done();
      } else if (x.has('partition') || x.has('heal')) {
        const key = x.has('partition') ? 'partition' : 'heal';
        const pair = x.any(key);
        if (!Array.isArray(pair) || pair.length !== 2 || !pair.every((h) => typeof h === 'string')) fail(`${p}.${key}`, 'expected two host names');
        (pair as string[]).forEach((h) => knownHost(key, h));
        if (key === 'partition') dur(x, 'durationMs', false);
      } else {
        fail(p, 'expected a fault: state (hung, up, down, reboot), stall, overload, slowPut, diskFull, partition or heal');
      }
    });
  }
  f.done();
  return v as unknown as Scenario;
}

/** The push consumer groups (DefaultMQPushConsumer's fields; see docs/replay.md, "Consumers"). */
/** Distinct tags a producer may send (the model's store keeps a tag as a 16-bit index). */
const MAX_TAGS = 1000;

/** A TAG subscription expression: `*`, or tags joined by `||` (FilterAPI.buildSubscriptionData). */
function checkSubscription(o: Fields, path: string): void {
  const sub = o.str('subscription', false, "a subscription expression ('*' or tags joined by ||)");
  if (sub === undefined) return;
  const parsed = parseSubscription(sub);
  if (!parsed.all && parsed.tags.size === 0) fail(path, "expected '*' or tags joined by ||");
}

function checkConsumerGroups(groups: Json[], path: string, topicNames: Set<string>, place: (host: string, ip: string, field: string) => void, hostIp: Map<string, unknown>): void {
  const names = new Set<string>();
  let instances = 0;
  eachObj(groups, `${path}.consumerGroups`, (g, i) => {
    const p = `${path}.consumerGroups[${i}]`;
    const name = g.str('group', true)!;
    if (names.has(name)) fail(`${p}.group`, `group ${name} is defined twice`);
    names.add(name);
    const topic = g.str('topic', true)!;
    if (!topicNames.has(topic)) fail(`${p}.topic`, `topic ${topic} is not in scenario.topics`);
    g.version('version', true);
    checkSubscription(g, `${p}.subscription`);
    const model = g.oneOf('messageModel', ['CLUSTERING', 'BROADCASTING'] as const);
    const mode = g.oneOf('consumeMode', ['concurrently', 'orderly', 'pop', 'litePull'] as const);
    if (model === 'BROADCASTING' && mode !== undefined && mode !== 'concurrently') fail(`${p}.consumeMode`, `${mode === 'orderly' ? 'an orderly' : mode === 'pop' ? 'a pop' : 'a lite pull'} BROADCASTING group is not modelled`);
    // A SimpleConsumer's receive asks at least the proxy's minInvisibleTimeMillsForRecv (10 s) and at most its maxInvisibleTimeMills (12 h).
    if (g.num('invisibleMs', false, { min: 1, max: 43_200_000 }) !== undefined && mode !== 'pop') fail(`${p}.invisibleMs`, 'only a pop group (consumeMode "pop") has an invisible time');
    const threads = { min: 1, max: LIMITS.threads, int: true };
    const min = g.num('consumeThreadMin', false, threads);
    const max = g.num('consumeThreadMax', false, threads);
    // DefaultMQPushConsumerImpl.checkConfig refuses consumeThreadMin > consumeThreadMax.
    if ((min ?? CONSUMER_DEFAULTS.consumeThreadMin) > (max ?? CONSUMER_DEFAULTS.consumeThreadMax)) fail(`${p}.consumeThreadMin`, `${min ?? CONSUMER_DEFAULTS.consumeThreadMin} is more than consumeThreadMax ${max ?? CONSUMER_DEFAULTS.consumeThreadMax}`);
    // checkConfig's ranges: pullBatchSize 1-1024, pullThresholdForQueue 1-65535, consumeConcurrentlyMaxSpan 1-65535.
    g.num('pullBatchSize', false, { min: 1, max: 1024, int: true });
    g.num('pullThresholdForQueue', false, { min: 1, max: 65535, int: true });
    g.num('consumeConcurrentlyMaxSpan', false, { min: 1, max: 65535, int: true });
    g.num('maxReconsumeTimes', false, { min: 0, max: LIMITS.maxReconsumeTimes, int: true });
    const l = g.obj('listener', true)!;
    const share = { min: 0, max: 1 };
    const listenerValues = (o: Fields) => {
      o.num('laterShare', false, share);
      o.num('throwShare', false, share);
      if ((Number(o.o.laterShare ?? 0) + Number(o.o.throwShare ?? 0)) > 1) fail(`${o.path}.throwShare`, 'laterShare and throwShare add up to more than 1');
    };
    l.num('processMs', true, { min: 0, max: LIMITS.settingMs });
    listenerValues(l);
    const changes = l.arr('changes', false, 'listener changes', LIMITS.faults);
    if (changes) {
      eachObj(changes, `${l.path}.changes`, (c) => {
        c.num('atMs', true, { min: 0, max: LIMITS.modelMs });
        c.num('processMs', false, { min: 0, max: LIMITS.settingMs });
        listenerValues(c);
      });
    }
    l.done();
    const resets = g.arr('resets', false, 'offset resets', LIMITS.faults);
    if (resets) {
      eachObj(resets, `${p}.resets`, (r) => {
        r.num('atMs', true, { min: 0, max: LIMITS.modelMs });
        r.num('toMs', true, { min: 0, max: LIMITS.modelMs });
      });
    }
    const list = g.arr('instances', true, 'instances', LIMITS.clients)!;
    instances += list.length;
    if (instances > LIMITS.clients) fail(`${p}.instances`, `${instances.toLocaleString('en-US')} consumer instances in all is past the limit of ${LIMITS.clients.toLocaleString('en-US')}`);
    eachObj(list, `${p}.instances`, (x, k) => {
      const host = x.str('host', true)!;
      const ip = x.str('ip', false, 'an IPv4 address');
      if (ip !== undefined) {
        if (!IP.test(ip)) fail(`${p}.instances[${k}].ip`, 'expected an IPv4 address');
        place(host, ip, `${p}.instances[${k}].ip`);
      } else if (!hostIp.has(host)) {
        const auto = `10.251.${i & 255}.${(k & 255) + 1}`;
        place(host, auto, `${p}.instances[${k}].ip (not given: ${auto})`);
      }
      x.num('startAtMs', false, { min: 0, max: LIMITS.modelMs });
      x.num('stopAtMs', false, { min: 0, max: LIMITS.modelMs });
      x.oneOf('stop', ['shutdown', 'kill'] as const);
      checkSubscription(x, `${p}.instances[${k}].subscription`);
      const blocks = x.arr('blocks', false, 'listener blocks', LIMITS.faults);
      if (blocks) {
        eachObj(blocks, `${p}.instances[${k}].blocks`, (b) => {
          const at = b.num('atMs', true, { min: 0, max: LIMITS.modelMs })!;
          const until = b.num('untilMs', true, { min: 0, max: LIMITS.modelMs })!;
          if (until <= at) fail(`${b.path}.untilMs`, 'expected a time after atMs');
        });
      }
    });
  });
}

// ---- the file -----------------------------------------------------------------------------------

/** Does this parsed JSON look like a scenario file (as opposed to some other JSON)? */
export function looksLikeScenario(v: Json): boolean {
  return isObj(v) && ('rmqDiagScenario' in v || 'scenario' in v || ('nameServers' in v && 'clients' in v));
}

function isoOrFail(v: Json, path: string): number {
  const t = typeof v === 'string' ? Date.parse(v) : Number.NaN;
  if (!Number.isFinite(t)) fail(path, 'expected an ISO time with an offset, like 2020-12-22T14:42:00.000+08:00');
  return t;
}

function readObserved(v: Json, path: string): Observed {
  if (!isObj(v)) fail(path, 'expected an object');
  const f = new Fields(v, path);
  const w = f.obj('window', true)!;
  const window = { first: isoOrFail(w.any('first'), `${w.path}.first`), last: isoOrFail(w.any('last'), `${w.path}.last`) };
  w.done();
  const hostList = strings(f.any('hosts'), `${path}.hosts`, 'host names', LIMITS.nameChars, LIMITS.clients + LIMITS.brokers + LIMITS.nameServers);
  const milestones: MilestoneTime[] = [];
  eachObj(f.arr('milestones', true, 'milestones', LIMITS.milestones)!, `${path}.milestones`, (m) => {
    // Files saved before analyze and replay shared one vocabulary of moments called route-lost route-drop.
    const name = m.any('name') === 'route-drop' ? 'route-lost' : m.oneOf('name', COMPARED_MILESTONES)!;
    if (name === undefined) fail(`${m.path}.name`, `expected one of ${COMPARED_MILESTONES.join(', ')}`);
    const subject = m.str('subject', true)!;
    const ts = isoOrFail(m.any('time'), `${m.path}.time`);
    const ev = m.any('evidence');
    if (ev !== null && ev !== undefined && typeof ev !== 'string') fail(`${m.path}.evidence`, 'expected file:line or null');
    if (typeof ev === 'string') checkLength(ev, `${m.path}.evidence`, LIMITS.textChars);
    const detail = m.str('detail', false, undefined, LIMITS.textChars);
    milestones.push({ name, subject, ...(detail !== undefined ? { detail } : {}), ts, evidence: (ev as string | null | undefined) ?? null });
  });
  const clients: Record<string, ClientFailures> = {};
  const c = f.obj('clients', true)!;
  const keys = Object.keys(c.o);
  if (keys.length > LIMITS.clients) fail(c.path, `${keys.length.toLocaleString('en-US')} clients is past the limit of ${LIMITS.clients.toLocaleString('en-US')}`);
  for (const key of keys) {
    checkLength(key, `${c.path} key`, LIMITS.nameChars);
    const x = c.obj(key, true)!;
    const first = x.any('first');
    const last = x.any('last');
    clients[key] = {
      source: x.oneOf('source', ['app', 'client'] as const) ?? 'app',
      failedSends: x.num('failedSends', true, { min: 0, int: true })!,
      firstTs: first === null ? null : isoOrFail(first, `${x.path}.first`),
      lastTs: last === null ? null : isoOrFail(last, `${x.path}.last`),
      timeouts: x.num('timeouts', true, { min: 0, int: true })!,
    };
    x.done();
  }
  c.done();
  const busy: BusyFigure[] = [];
  eachObj(f.arr('busy', false, 'busy windows', LIMITS.milestones) ?? [], `${path}.busy`, (b) => {
    const wait = (key: string) => {
      const v = b.any(key);
      if (v === null) return null;
      if (typeof v !== 'number') fail(`${b.path}.${key}`, 'expected a number or null');
      return v;
    };
    busy.push({
      broker: b.str('broker', true)!,
      kind: b.oneOf('kind', ['overload', 'stall'] as const)!,
      from: isoOrFail(b.any('from'), `${b.path}.from`),
      to: isoOrFail(b.any('to'), `${b.path}.to`),
      replies: b.num('replies', true, { min: 0, int: true })!,
      waitMinMs: wait('waitMinMs'),
      waitMaxMs: wait('waitMaxMs'),
    });
  });
  const consumers: ConsumerFigure[] = [];
  const groups = f.arr('consumers', false, 'consumer groups', LIMITS.consumerGroups);
  eachObj(groups ?? [], `${path}.consumers`, (g) => {
    const count = (key: string) => {
      const v = g.any(key);
      if (v === null || v === undefined) return null;
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) fail(`${g.path}.${key}`, 'expected a whole number of messages or null');
      return v;
    };
    const lag = g.any('lag');
    let lagFigure: ConsumerFigure['lag'] = null;
    if (lag !== null && lag !== undefined) {
      if (!isObj(lag)) fail(`${g.path}.lag`, 'expected an object or null');
      const l = new Fields(lag, `${g.path}.lag`);
      lagFigure = { about: l.num('about', true, { min: 0, int: true })!, at: isoOrFail(l.any('at'), `${l.path}.at`) };
      l.done();
    }
    consumers.push({ group: g.str('group', true)!, lag: lagFigure, failed: count('failed'), dlq: count('dlq'), consumedAgain: count('consumedAgain') });
  });
  f.done();
  return { window, hosts: hostList, milestones, clients, busy, ...(groups ? { consumers } : {}) };
}

/** Reads a scenario file (already JSON-parsed); `name` is used in the `source` line. */
export function readScenarioFile(v: Json, name: string): ReplayInput {
  if (!isObj(v)) fail('file', 'expected a JSON object');
  if (!('rmqDiagScenario' in v) && !('scenario' in v)) {
    // A bare scenario.
    const scenario = validateScenario(v, 'scenario');
    return { scenario, untilMs: defaultUntil(scenario), zone: scenario.zone ?? '+08:00', observed: null, provenance: {}, defaults: {}, notes: [], source: `scenario file ${name}` };
  }
  const f = new Fields(v, 'file');
  const version = f.num('rmqDiagScenario', false, { int: true, min: 1 });
  if (version !== undefined && version > SCENARIO_FILE_VERSION) fail('rmqDiagScenario', `this rmq-diag reads version ${SCENARIO_FILE_VERSION}, not ${version}`);
  f.str('about', false, undefined, LIMITS.textChars);
  const source = f.str('source', false, undefined, LIMITS.textChars);
  const zone = f.str('zone', false, 'a zone like +08:00') ?? '+08:00';
  try {
    parseZone(zone);
  } catch (e) {
    if (e instanceof ZoneError) fail('zone', e.message);
    throw e;
  }
  const scenario = validateScenario(f.any('scenario'), 'scenario');
  const untilMs = f.num('untilMs', false, { min: 1, max: LIMITS.modelMs }) ?? defaultUntil(scenario);
  const obs = f.any('observed');
  const observed = obs === undefined || obs === null ? null : readObserved(obs, 'observed');
  const provenance = f.any('provenance') ?? {};
  if (!isObj(provenance)) fail('provenance', 'expected an object');
  const entries = Object.entries(provenance);
  if (entries.length > LIMITS.milestones) fail('provenance', `${entries.length.toLocaleString('en-US')} values is past the limit of ${LIMITS.milestones.toLocaleString('en-US')}`);
  for (const [k, p] of entries) {
    const at = `provenance.${k.length > 80 ? `${k.slice(0, 77)}...` : k}`;
    checkLength(k, at, LIMITS.nameChars);
    if (!isObj(p) || typeof p.rule !== 'string' || !Array.isArray(p.evidence) || !p.evidence.every((e) => typeof e === 'string')) {
      fail(at, 'expected { rule, evidence: [file:line, ...] }');
    }
    checkLength(p.rule, `${at}.rule`, LIMITS.nameChars);
    strings(p.evidence, `${at}.evidence`, 'file:line places', LIMITS.textChars, LIMITS.milestones);
  }
  const defaults = f.any('defaults') ?? {};
  if (!isObj(defaults) || !Object.values(defaults).every((d) => typeof d === 'string')) fail('defaults', 'expected an object of strings');
  const defaultEntries = Object.entries(defaults);
  if (defaultEntries.length > LIMITS.milestones) fail('defaults', `${defaultEntries.length.toLocaleString('en-US')} values is past the limit of ${LIMITS.milestones.toLocaleString('en-US')}`);
  for (const [k, d] of defaultEntries) {
    const at = `defaults.${k.length > 80 ? `${k.slice(0, 77)}...` : k}`;
    checkLength(k, at, LIMITS.nameChars);
    checkLength(d as string, at, LIMITS.textChars);
  }
  const notes = strings(f.any('notes') ?? [], 'notes', 'notes', LIMITS.textChars, LIMITS.notes);
  f.done();
  return {
    scenario,
    untilMs,
    zone,
    observed,
    provenance: provenance as ReplayInput['provenance'],
    defaults: defaults as ReplayInput['defaults'],
    notes,
    source: source ? `${source} (scenario file ${name})` : `scenario file ${name}`,
  };
}

/** Without a stated length: five minutes after the last fault ends (a broker fault at its end) or client starts, at least ten minutes. */
function defaultUntil(sc: Scenario): number {
  // A loop, not Math.max(...list): a spread of ten thousand values can overflow the stack.
  let latest = 0;
  for (const f of sc.faults ?? []) latest = Math.max(latest, f.atMs + brokerFaultMs(f));
  for (const c of sc.clients) latest = Math.max(latest, c.startAtMs ?? 0);
  return Math.max(600000, latest + 300000);
}

/** Sends a run of `untilMs` would make: the logged send times, or the rate over the time the client sends. */
function sendsOf(c: Scenario['clients'][number], untilMs: number): number {
  if (c.sendTimesMs) return c.sendTimesMs.length;
  // With steps, at the highest rate the client ever sends at: a bound, not a count.
  const rate = Math.max(c.sendRatePerSec, ...(c.sendRateSteps ?? []).map((s) => s.perSec));
  return (rate * Math.max(0, untilMs - (c.startAtMs ?? 0) - (c.sendStartMs ?? 0))) / 1000;
}

/**
 * The run's size within LIMITS: its length (at most `maxSpanMs`, which --max-span sets) and its sends
 * in all. Returns the problem in one line naming the field, or null.
 */
export function runSizeProblem(sc: Scenario, untilMs: number, maxSpanMs: number, untilField = 'untilMs'): string | null {
  if (!(untilMs <= maxSpanMs)) return `${untilField}: a run of ${spanText(untilMs)} is past the limit of ${spanText(maxSpanMs)} (raise it with --max-span)`;
  let total = 0;
  let top = -1;
  let topSends = -1;
  sc.clients.forEach((c, i) => {
    const n = sendsOf(c, untilMs);
    total += n;
    if (n > topSends) [top, topSends] = [i, n];
  });
  (sc.faults ?? []).forEach((f, i) => {
    if (!('overload' in f) || !f.overload.backgroundPerSec) return;
    const n = (f.overload.backgroundPerSec * Math.max(0, Math.min(f.overload.durationMs, untilMs - f.atMs))) / 1000;
    total += n;
    if (n > topSends) [top, topSends] = [-1 - i, n];
  });
  if (total > LIMITS.sendsPerRun) {
    if (top < 0) {
      const field = `scenario.faults[${-1 - top}].overload.backgroundPerSec`;
      return `${field}: the run would make about ${Math.round(total).toLocaleString('en-US')} sends in ${spanText(untilMs)}, past the limit of ${LIMITS.sendsPerRun.toLocaleString('en-US')} (lower the rate or shorten the overload)`;
    }
    const c = sc.clients[top];
    const field = c.sendTimesMs ? `scenario.clients[${top}].sendTimesMs` : `scenario.clients[${top}].sendRatePerSec`;
    return `${field}: the run would make about ${Math.round(total).toLocaleString('en-US')} sends in ${spanText(untilMs)}, past the limit of ${LIMITS.sendsPerRun.toLocaleString('en-US')} (lower the rate or shorten the run with --until)`;
  }
  const tasks = runTasks(sc, untilMs);
  if (tasks.total > LIMITS.tasksPerRun) {
    const lower = tasks.kind === 'interval' ? 'raise this interval' : `fewer ${tasks.field.slice(tasks.field.lastIndexOf('.') + 1)}`;
    return `${tasks.field}: the run would simulate about ${tasks.total.toLocaleString('en-US')} tasks (clients running, route polls, heartbeats, registrations, watermark prints, NameServer scans, consumers' pulls and deliveries) in ${spanText(untilMs)}, past the limit of ${LIMITS.tasksPerRun.toLocaleString('en-US')} (${lower}, or shorten the run with --until)`;
  }
  return null;
}


/** The scenario file for an input (what --save-scenario writes). */
export function scenarioFileJson(input: ReplayInput): Record<string, unknown> {
  const zone = parseZone(input.zone);
  const iso = (t: number | null) => (t === null ? null : formatIso(t, zone));
  const o = input.observed;
  return {
    rmqDiagScenario: SCENARIO_FILE_VERSION,
    about: 'rmq-diag replay scenario (docs/replay.md). Edit scenario.* and run: rmq-diag replay THIS_FILE. Times in scenario are model ms from scenario.startEpochMs.',
    // The inputs' names may be many (a glob of thousands of files): kept within what the file's reader takes.
    source: input.source.length > LIMITS.textChars ? `${input.source.slice(0, LIMITS.textChars - 3)}...` : input.source,
    zone: input.zone,
    untilMs: input.untilMs,
    scenario: input.scenario,
    observed: o
      ? {
          window: { first: iso(o.window.first), last: iso(o.window.last) },
          hosts: o.hosts,
          milestones: o.milestones.map((m) => ({ name: m.name, subject: m.subject, ...(m.detail !== undefined ? { detail: m.detail } : {}), time: iso(m.ts), evidence: m.evidence })),
          clients: Object.fromEntries(
            Object.entries(o.clients).map(([k, c]) => [k, { source: c.source, failedSends: c.failedSends, first: iso(c.firstTs), last: iso(c.lastTs), timeouts: c.timeouts }]),
          ),
          busy: o.busy.map((b) => ({ ...b, from: iso(b.from), to: iso(b.to) })),
          ...(o.consumers ? { consumers: o.consumers.map((c) => ({ ...c, lag: c.lag ? { about: c.lag.about, at: iso(c.lag.at) } : null })) } : {}),
        }
      : null,
    provenance: input.provenance,
    defaults: input.defaults,
    notes: input.notes,
  };
}

/** JSON indented two spaces, with arrays of numbers and strings on one line (sendTimesMs stays readable). */
export function prettyJson(value: unknown, indent = ''): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (!value.length) return '[]';
    if (value.every((v) => v === null || typeof v !== 'object')) return `[${value.map((v) => JSON.stringify(v) ?? 'null').join(', ')}]`;
    return `[\n${value.map((v) => inner + prettyJson(v, inner)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  if (!entries.length) return '{}';
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${prettyJson(v, inner)}`).join(',\n')}\n${indent}}`;
}
