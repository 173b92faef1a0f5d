// What a recording's lab.json says, in the terms the scorer checks statements against: the faults as
// the other hosts could see them, the host behind a broker or NameServer address, the settings each
// client really ran with, and the tolerances a statement about a time is held to.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { LabJson } from './labjson.js';
import { clientRanWith, type ClientRanWith } from './defaults.js';
import type { ProducerProcess } from './scenario.js';

// The version facts live in rmq-diag's src/rocketmq (one home); the lab's tsconfig builds lab/src alone,
// so they are read from the built dist/ that `score` runs anyway.
const versions = (await import(new URL('../../dist/rocketmq/versions.js', import.meta.url).href)) as {
  versionAtLeast(a: string, b: string): boolean;
};
export const FACTS = (await import(new URL('../../dist/rocketmq/facts.js', import.meta.url).href)) as {
  CLIENT: Record<'closeSocketIfTimeout' | 'sendMsgMaxTimeoutPerRequest' | 'retriesSystemBusy', { since: string }>;
  brokerVipAddr(addr: string): string;
};
export const { versionAtLeast } = versions;

export type LabFault = LabJson['faults'][number];
export type LabClient = LabJson['clients'][number];
export type LabConsumer = NonNullable<LabJson['consumers']>[number];
export type LabConsumerGroup = NonNullable<LabJson['consumerGroups']>[number];

/** How far a stated time may lie from the lab's: the start and end of a fault, a client's first and last failed send. */
export const TOLERANCE = {
  /** A cause's or an inferred fault's start and end against the fault as peers could see it. */
  faultMs: 10_000,
  /**
   * A claim that a process was down or silent over a window (a finding's) against a fault on its
   * host: the window may begin up to one registration period (30 s) before the fault, since a
   * finding counts from the last heartbeat the broker sent before it.
   */
  claimMs: 30_000,
  /** A client's first and last failed send against the application's. */
  failureMs: 5_000,
  /** Lost sends: within this share of the application's count, or this many, whichever is more. */
  lostShare: 0.1,
  lostAbs: 2,
  /** Replay's lost sends per client: from this share of the application's ... */
  replayLostMin: 0.5,
  /** ... to this one (the lab tests' own bounds: a simulation's Poisson sends and round robin differ from the logs'). */
  replayLostMax: 1.5,
  /** An inferred send rate: within this factor of the lab's. */
  rateFactor: 1.25,
  /**
   * A partition's start and end: a cut is seen only through the requests that cross it, and the
   * sparsest regular ones (a broker's registration, a client's heartbeat and route poll) cross every
   * 30 s, so the first failure can come up to that long after the cut and the last up to that long
   * before the heal; calls on a connection that stayed open fail after the heal while TCP's
   * retransmission timer backs off.
   */
  partitionMs: 30_000,
  /** A hang this short is a stall (a stop-the-world pause), which a stall or an overload with pauses names. */
  stallMs: 5_000,
} as const;

export interface EffectiveClient extends ClientRanWith {
  async: boolean;
  rate: number;
  version: string;
}

/**
 * The settings a client ran with: lab.json's ranWith, or for recordings made before it was written,
 * what the lab's own defaults (lab/src/defaults.ts, the one place they are stated) give for its
 * version, settings and system properties.
 */
export function effectiveClient(c: LabClient): EffectiveClient {
  const ran = c.ranWith ?? clientRanWith({ kind: 'producer', version: c.version, group: c.group, topic: c.topic, rate: c.rate, settings: c.settings, systemProperties: c.systemProperties } as ProducerProcess);
  // Recordings made before lab.json wrote retryTimesWhenSendAsyncFailed ran its default too (LabProducer never sets it).
  return { ...ran, retryTimesWhenSendAsyncFailed: ran.retryTimesWhenSendAsyncFailed ?? clientRanWith({ version: c.version } as ProducerProcess).retryTimesWhenSendAsyncFailed, async: c.async, rate: c.rate, version: c.version };
}

/** A lab fault with its times in epoch ms, as the other hosts could see it. */
export interface TruthFault {
  index: number;
  kind: LabFault['kind'] | 'partition';
  host: string;
  /** Other hosts this fault cut off (a partition's far side). */
  peers: string[];
  start: number;
  end: number;
  /** From when peers could tell: a reboot shows when its link comes up (the first reset). */
  seenStart: number;
  /** Until when peers could tell: a hang that ends in a reboot looks hung until the link comes up. */
  seenEnd: number;
  /**
   * When each server of the host booted again after a restart, crash or reboot (its own boot line):
   * a host's NameServer is often back tens of seconds before its broker, which peers see gone until then.
   */
  backAt: { broker: number | null; namesrv: number | null };
  /**
   * A reboot right after a hang of its host (a frozen host that was reset): when the host stopped
   * answering, which is when a reboot told from its silence starts (the logs cannot tell a power loss
   * from a frozen host that was reset). Null otherwise.
   */
  darkStart: number | null;
  /** A partition's two sides (null for other faults). */
  groups: [string[], string[]] | null;
  /**
   * consume-failures: the first failed delivery a struck instance logged in its window (null: none
   * logged). A listener made to fail fails nothing until a message reaches it (gen-20261211: an orderly
   * group consumed nothing for 12 s after the fault began), so a cause may start there.
   */
  firstEffect: number | null;
  text: string;
}

/**
 * Whether a fault kept `a` and `b` apart: any fault but a partition does (it is the host's own); a
 * partition only when the two are on its opposite sides (a broker cut off from the applications is
 * still reached by the NameServers, which then remove nothing).
 */
export function keptApart(f: TruthFault, a: string, b: string): boolean {
  if (!f.groups) return true;
  const [x, y] = f.groups;
  return (x.includes(a) && y.includes(b)) || (x.includes(b) && y.includes(a));
}

export const ms = (iso: string): number => Date.parse(iso);
const hhmmss = (t: number | null, zone: number) => (t !== null && Number.isFinite(t) ? new Date(t + zone).toISOString().slice(11, 23) : '?');

export class Truth {
  readonly faults: TruthFault[];
  readonly windowEnd: number;
  private readonly zoneMs: number;

  /**
   * When a client or application log of the recording shows a broker's busy reply (BrokerFastFailure's
   * `[TIMEOUT_CLEAN_QUEUE]`, `[PCBUSY_CLEAN_QUEUE]`, `[PC_SYNCHRONIZED]`, `[REJECTREQUEST]`): a broker
   * that said it was busy was busy, whether or not the lab injected a fault then (a cold JVM under the
   * machine's load does it too). Epoch ms, sorted; empty when the logs were not read.
   */
  readonly busyReplies: number[];
  /** The same replies with the broker that gave them, where the line names it (`BROKER: ip:port`). */
  private readonly busyFrom: BusyReply[];

  /**
   * `boots`: the servers' own boot lines in the recording (bootsOf): a process the lab started again
   * is up when it says so (a 5.3.3 broker took 16.8 s), not when it was launched; a restart, crash or
   * reboot is seen by peers until then.
   */
  constructor(readonly lab: LabJson, busyReplies: Array<number | BusyReply> = [], readonly boots: readonly Boot[] = [], failedDeliveries: readonly FailedDelivery[] = []) {
    this.busyFrom = busyReplies.map((x) => (typeof x === 'number' ? { at: x, broker: null } : x)).sort((a, b) => a.at - b.at);
    this.busyReplies = this.busyFrom.map((x) => x.at);
    this.windowEnd = ms(lab.window.end);
    const z = /([+-])(\d\d):(\d\d)$/.exec(lab.timeZone ?? '+08:00');
    this.zoneMs = z ? (z[1] === '-' ? -1 : 1) * (Number(z[2]) * 60 + Number(z[3])) * 60_000 : 0;
    const raw = lab.faults as Array<LabFault & { linkUp?: string; groups?: [string[], string[]]; consumers?: string[] }>;
    this.faults = raw.map((f, index) => {
      const start = ms(f.start);
      const end = f.end ? ms(f.end) : this.windowEnd;
      const seenStart = f.kind === 'reboot' && f.linkUp ? ms(f.linkUp) : start;
      const next = raw.find((x) => x !== f && x.host === f.host && x.kind === 'reboot' && Math.abs(ms(x.start) - end) < 1000);
      const after = f.end && (f.kind === 'restart' || f.kind === 'crash' || f.kind === 'reboot') ? boots.filter((b) => b.host === f.host && b.at >= end - 1000 && b.at <= end + BOOT_MAX_MS).sort((a, b) => a.at - b.at) : [];
      const booted = after[0];
      const backAt = { broker: after.find((b) => b.process !== 'namesrv')?.at ?? null, namesrv: after.find((b) => b.process === 'namesrv')?.at ?? null };
      const seenEnd = f.kind === 'hang' && next?.linkUp ? ms(next.linkUp) : booted ? Math.max(end, booted.at) : end;
      // A partition's far side, the other consumer instances a listener fault struck, or every
      // instance of the group whose offsets an administrator reset (the reset acts on the group).
      const group = f.kind === 'reset-offset' ? lab.consumers?.find((c) => c.host === f.host)?.group : undefined;
      const resetHosts = group ? (lab.consumers ?? []).filter((c) => c.group === group).map((c) => c.host) : [];
      const peers = [...(f.groups?.flat() ?? []), ...(f.consumers ?? []), ...resetHosts].filter((h) => h !== f.host);
      const hungBefore = f.kind === 'reboot' ? raw.find((x) => x !== f && x.host === f.host && x.kind === 'hang' && x.end && Math.abs(ms(x.end) - start) < 1000) : undefined;
      return { index, kind: f.kind, host: f.host, peers, start, end, seenStart, seenEnd, backAt, darkStart: hungBefore ? ms(hungBefore.start) : null, groups: f.groups ?? null, firstEffect: null as number | null, text: '' };
    });
    for (const f of this.faults) {
      f.text = `${f.kind} on ${f.host} ${this.time(f.start)}-${this.time(f.end)}`;
      if (f.kind !== 'consume-failures') continue;
      const struck = [f.host, ...f.peers];
      const first = failedDeliveries.filter((d) => struck.includes(d.host) && d.at >= f.start - 1000 && d.at <= f.end + 1000).sort((a, b) => a.at - b.at)[0];
      f.firstEffect = first ? first.at : null;
    }
  }

  /** The busy replies the logs show within [from - slack, to + slack]. */
  busyRepliesIn(from: number, to: number, slack = 2000): number[] {
    return this.busyReplies.filter((t) => t >= from - slack && t <= to + slack);
  }

  /** The busy replies a broker on `host` gave within [from - slack, to + slack] (by the address the line names). */
  busyRepliesOn(host: string, from: number, to: number, slack = 2000): number[] {
    const masters = new Set(this.lab.servers.brokers.filter((b) => b.host === host && b.brokerId === 0).map((b) => b.brokerName));
    const on = (x: BusyReply) => (x.broker !== null ? this.hostByAddr(x.broker.split(':')[0]) === host : !!x.brokerName && masters.has(x.brokerName));
    return this.busyFrom.filter((x) => on(x) && x.at >= from - slack && x.at <= to + slack).map((x) => x.at);
  }

  /** A time of day in the lab's zone, for the evidence of a statement. */
  time(t: number | null): string {
    return hhmmss(t, this.zoneMs);
  }

  /** The consumer instances and groups of the recording (none in recordings made before the lab ran consumers). */
  consumers(): LabConsumer[] {
    return this.lab.consumers ?? [];
  }

  consumerGroups(): LabConsumerGroup[] {
    return this.lab.consumerGroups ?? [];
  }

  /**
   * A listener fault (slowdown, consume-failures, listener-block) that struck no delivery: no instance
   * it struck received a message from its start to its end (gen-20261210: a lite pull consumer that
   * never pulled a message, its failures drawn for 30 s). Nothing happened to tell: no cause to recall.
   */
  leftNoTrace(f: TruthFault): boolean {
    if (f.kind === 'partition') return this.partitionCrossedByNothing(f);
    if (f.kind !== 'slowdown' && f.kind !== 'consume-failures' && f.kind !== 'listener-block') return false;
    const struck = this.consumers().filter((c) => c.host === f.host || f.peers.includes(c.host));
    // null: the lab counted no delivery at all; absent (a truth that does not say): not known, so counted.
    const none = (c: LabConsumer) => c.firstDelivery === null || (!!c.firstDelivery && !!c.lastDelivery && (ms(c.lastDelivery) < f.start || ms(c.firstDelivery) > f.end));
    return struck.length > 0 && struck.every(none);
  }

  /**
   * A partition between NameServer-only hosts and producer-only hosts none of which was bound to
   * those NameServers (a client asks the one NameServer it chose, MQClientAPIImpl's remoting client,
   * 4.x and 5.x), with no other fault on the NameServers they were bound to while it lasted: no
   * packet would have crossed it, so no log can show it (gen-20261214: mq-ns-1 cut off from two
   * producers bound to mq-ns-2 and mq-ns-3).
   */
  private partitionCrossedByNothing(f: TruthFault): boolean {
    if (!f.groups) return false;
    const hostOf = (name: string) => this.lab.hosts.find((h) => h.name === name);
    const nsOnly = (name: string) => { const h = hostOf(name); return !!h && h.roles.length > 0 && h.roles.every((r) => r === 'namesrv'); };
    const consumerHosts = new Set(this.consumers().map((c) => c.host));
    for (const [ns, far] of [f.groups, [f.groups[1], f.groups[0]]]) {
      if (!ns.length || !far.length || !ns.every(nsOnly)) continue;
      const cut = new Set(this.lab.servers.namesrv.filter((n) => ns.includes(n.host)).map((n) => n.addr));
      const quiet = far.every((name) => {
        const c = this.client(name);
        if (!c || consumerHosts.has(name) || !c.boundNamesrv || cut.has(c.boundNamesrv)) return false;
        const bound = this.namesrvHost(c.boundNamesrv);
        return bound !== undefined && !this.faults.some((x) => x !== f && (x.host === bound || x.peers.includes(bound)) && x.start <= f.end && x.end >= f.start);
      });
      if (quiet) return true;
    }
    return false;
  }

  client(host: string): LabClient | undefined {
    return this.lab.clients.find((c) => c.host === host);
  }

  /** The host of a broker, by its address (a slave has its own) or else its master's name. */
  brokerHost(name?: string, addr?: string): string | undefined {
    const b = this.lab.servers.brokers;
    return (addr && b.find((x) => x.addr === addr)?.host) || (name && b.find((x) => x.brokerName === name && x.brokerId === 0)?.host) || undefined;
  }

  namesrvHost(addr: string): string | undefined {
    return this.lab.servers.namesrv.find((n) => n.addr === addr)?.host;
  }

  hostByAddr(ip: string): string | undefined {
    return this.lab.hosts.find((h) => h.addr === ip)?.name;
  }

  /**
   * Faults on a host (or cutting it off) that overlap [from - slack, to + slack]: from the lab's act
   * (a reboot's power loss too, which peers see as silence) to the end peers could see.
   */
  faultsOn(host: string, from: number, to: number, slack: number, process?: 'broker' | 'namesrv'): TruthFault[] {
    // A claim about one server of the host: gone until that server booted again.
    const back = (f: TruthFault) => (process ? (f.backAt[process] ?? -Infinity) : -Infinity);
    return this.faults.filter((f) => (f.host === host || f.peers.includes(host)) && f.start <= to + slack && Math.max(f.end, f.seenEnd, back(f)) >= from - slack);
  }

  /** Every fault, in one line, for the evidence of a false statement. */
  allFaults(): string {
    return this.faults.length ? this.faults.map((f) => f.text).join('; ') : 'no fault';
  }

  /** Hosts that run a NameServer, and those of them that also run a broker. */
  namesrvPlacement(): { hosts: string[]; withBroker: string[] } {
    const hosts = this.lab.hosts.filter((h) => h.roles.includes('namesrv'));
    return { hosts: hosts.map((h) => h.name), withBroker: hosts.filter((h) => h.roles.some((r) => r.startsWith('broker'))).map((h) => h.name) };
  }

  /** Clients whose logs the recording holds and that lost sends: those analyze can be asked to name. */
  impactedClients(): LabClient[] {
    return this.lab.clients.filter((c) => c.sends.failed > 0 && this.lab.hosts.find((h) => h.name === c.host)?.collected !== false);
  }
}

/**
 * The words analyze and replay use for a fault, as the lab's fault kinds they may name. A stall is a
 * whole-broker pause: a hang of under `TOLERANCE.stallMs` or a JVM held by a CPU quota (an overload).
 * A replay `down` is a process dying on a live host, which the model does not split into planned and not.
 */
export const KIND_WORDS: Record<string, readonly string[]> = {
  hang: ['hang'],
  hung: ['hang'],
  // replay's whole host `hung` (not processesOnly): no connection to it completes, as a host that
  // lost power (a lab reboot's dark time) shows; the lab's hangs stop processes, whose OS still accepts.
  unreachable: ['reboot'],
  reboot: ['reboot'],
  crash: ['crash'],
  restart: ['restart'],
  shutdown: ['restart'],
  down: ['crash', 'restart'],
  // Gone without a shutdown hook and booted again, with no peer to tell how: any stop but a planned one.
  'unclean-stop': ['crash', 'reboot', 'hang'],
  overload: ['overload'],
  stall: ['overload', 'stall'],
  'disk-full': ['disk-full'],
  partition: ['partition'],
  // Faults of consumer applications: lab.json's own kinds, and analyze's words for them.
  'consumer-kill': ['consumer-kill'],
  'consumer-stop': ['consumer-stop'],
  'consumer-start': ['consumer-start'],
  slowdown: ['slowdown', 'listener-block'],
  'consume-failures': ['consume-failures'],
  'listener-block': ['listener-block'],
  'reset-offset': ['reset-offset'],
  // An instance gone without a shutdown: a kill (a crash of its JVM or host would be another fault).
  'consumer-gone': ['consumer-kill'],
  'consumer-stopped': ['consumer-stop'],
  'consumer-joined': ['consumer-start'],
  // A listener slower than before: slowed, or blocked (a blocked call is a slow one while it lasts).
  'slow-listener': ['slowdown', 'listener-block'],
  // A listener whose calls did not return for a whole minute: blocked (a slowdown of seconds a message still consumes).
  'blocked-listener': ['listener-block'],
  'offset-reset': ['reset-offset'],
};

/** The kinds a lab fault answers to: its own, and `stall` for a short hang. */
export function labKinds(f: TruthFault): string[] {
  return f.kind === 'hang' && f.end - f.start < TOLERANCE.stallMs ? ['hang', 'stall'] : [f.kind];
}

/** Kinds of fault behind a claim that a process was gone (removed, crashed, went silent). */
export const DOWN_KINDS = ['hang', 'reboot', 'crash', 'restart', 'partition'] as const;
/** ... and behind a claim that it did not answer in time (a broker starved of CPU does not either). */
export const UNANSWERING_KINDS = [...DOWN_KINDS, 'overload'] as const;

const BUSY_REPLY = /\[(?:TIMEOUT_CLEAN_QUEUE|PCBUSY_CLEAN_QUEUE|PC_SYNCHRONIZED|REJECTREQUEST)\]/;
/** MQBrokerException's message ends with the broker that answered (MQBrokerException, 4.x and 5.x). */
const BUSY_BROKER = / BROKER: (\d+\.\d+\.\d+\.\d+:\d+)/;
/** A failed attempt's line, naming its queue's broker (DefaultMQProducerImpl.sendDefaultImpl, 4.x-5.x). */
const ATTEMPT_BROKER = /sendKernelImpl exception.*brokerName=([\w.-]+)/;

/** A busy reply: when, and from which broker address (null: the line does not say). */
export interface BusyReply {
  at: number;
  broker: string | null;
  /** The broker name of the failed attempt's line above it, where the reply names no address (5.x clients). */
  brokerName?: string | null;
}

/** A server's boot line (`The broker[...] boot success`, `The Name Server boot success`) on a host of the recording. */
export interface Boot {
  host: string;
  at: number;
  /** Which server booted: its log's (broker.log, namesrv.log). */
  process?: 'broker' | 'namesrv';
}
/** A boot later than this after the lab started the process again is not that start's. */
const BOOT_MAX_MS = 120_000;
const BOOT_LINE = /boot success/;
/** NamesrvStartup's line (`The Name Server boot success`); BrokerStartup's names the broker (`The broker[...] boot success`). */
const BOOT_PROCESS = /Name Server boot success/;
/** A record's date at the start of a line: the clients' and the servers' layouts (the 4.x servers' prints no milliseconds). */
const LEADING_TIME = /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d)(?:[,.](\d{3}))?/;

/**
 * Each line of the recording's logs whose file name `name` accepts (plain or gzipped, as the lab
 * writes them or an operator collected them), with the host (the first folder under `dir`) and the
 * time of the last record date above it in the lab's zone (an exception's message is often on a line
 * below its record's date).
 */
function eachLine(dir: string, zone: string, name: RegExp, line: (host: string, at: number, text: string) => void): void {
  const walk = (d: string, host: string | null): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p, host ?? e.name);
      else if (name.test(e.name)) {
        const raw = readFileSync(p);
        const text = (raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw).toString('utf8');
        let last: number | null = null;
        for (const l of text.split('\n')) {
          const m = LEADING_TIME.exec(l);
          if (m) last = Date.parse(`${m[1]}T${m[2]}.${m[3] ?? '000'}${zone}`);
          if (last !== null && Number.isFinite(last)) line(host ?? '', last, l);
        }
      }
    }
  };
  walk(dir, null);
}

/** A failed delivery a consumer logged: when, on which host. */
export interface FailedDelivery {
  host: string;
  at: number;
}
/**
 * The lines of a failed delivery: the Java clients' (ConsumeMessageConcurrentlyService/OrderlyService,
 * 4.x-5.x; rocketmq-client-java's), and the lab consumer's own for a RECONSUME_LATER answer, which the
 * client does not log (LabConsumer, LabGrpcConsumer: `Message deferred`).
 */
const FAILED_DELIVERY = /consumeMessage exception|consumeMessage Orderly return not OK|consumeMessage return null|Message listener raised an exception/;
const DEFERRED = /Message deferred, /;

/** The failed deliveries the consumers' client logs (`rocketmq_client.log`, `rocketmq-client.log`) and the lab consumers' `app.log` show. */
export function failedDeliveriesOf(dir: string, zone: string): FailedDelivery[] {
  const out: FailedDelivery[] = [];
  eachLine(dir, zone, /^rocketmq[_-]client\.log(?:\.gz)?$/, (host, at, text) => {
    if (host && FAILED_DELIVERY.test(text) && LEADING_TIME.test(text)) out.push({ host, at });
  });
  eachLine(dir, zone, /^app\.log(?:\.gz)?$/, (host, at, text) => {
    if (host && DEFERRED.test(text) && LEADING_TIME.test(text)) out.push({ host, at });
  });
  return out;
}

/** The servers' boot lines in a recording's broker and NameServer logs (`broker.log`, `namesrv.log`, their `_default` twins). */
export function bootsOf(dir: string, zone: string): Boot[] {
  const out: Boot[] = [];
  eachLine(dir, zone, /^(?:broker|namesrv)(?:_default)?\.log(?:\.gz)?$/, (host, at, text) => {
    if (host && BOOT_LINE.test(text) && LEADING_TIME.test(text)) out.push({ host, at, process: BOOT_PROCESS.test(text) ? 'namesrv' : 'broker' });
  });
  return out;
}

/** The times of the busy replies in a recording's client and application logs, and the broker each names. */
export function busyRepliesOf(dir: string, zone: string): BusyReply[] {
  const out: BusyReply[] = [];
  // A 5.x client's MQBrokerException names no address; its failed attempt's line just above names the
  // queue's broker (`sendKernelImpl exception, resend at once, ... Broker: MessageQueue [... brokerName=X`).
  let lastName: string | null = null;
  eachLine(dir, zone, /^(?:rocketmq_client|app)(?:\b.*)?\.log/, (_host, at, text) => {
    const named = ATTEMPT_BROKER.exec(text);
    if (named) lastName = named[1];
    if (BUSY_REPLY.test(text)) {
      const broker = BUSY_BROKER.exec(text)?.[1] ?? null;
      out.push({ at, broker, ...(broker === null && lastName ? { brokerName: lastName } : {}) });
      lastName = null;
    } else if (!named && LEADING_TIME.test(text)) lastName = null;
  });
  return out;
}
