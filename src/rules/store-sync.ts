// store-sync: a message stored on the master but not made durable or replicated in time, and the
// master/slave (HA) trouble behind it (CommitLog's group commit and HA transfer, SendResult's status; DefaultMQProducerImpl.sendDefaultImpl).
//
// The broker answers FLUSH_DISK_TIMEOUT (SYNC_FLUSH: the flush was not confirmed within
// syncFlushTimeout), FLUSH_SLAVE_TIMEOUT (SYNC_MASTER: the slave did not acknowledge within
// slaveTimeout) and SLAVE_NOT_AVAILABLE (SYNC_MASTER with no slave connected, or one more than
// haSlaveFallbehindMax behind) as a successful send with a non-OK status: the message IS in the
// master's commit log, the client gets a SendResult and no exception, and the producer retries it
// only with retryAnotherBrokerWhenNotStoreOK=true (default false). RocketMQ does not log these
// results on the client; they are seen when the application logs its SendResult. Brokers up to
// 4.9.0 log the flush and slave timeouts in store.log (`do groupcommit, wait for flush failed`,
// `do sync transfer other node, wait return, but failed`); from 4.9.1 the send path is silent.
// SLAVE_NOT_AVAILABLE is never logged by the broker.
//
// Decision: one finding per broker name (the master and slave hosts of a broker together). Send
// results are grouped by the broker of their MessageQueue; broker-side lines by host, tied to a
// broker name by the host's boot line, by a slave's HA line naming the master's IP, or by the host
// folder name (or the only broker host given). One failure can be told twice (the broker's timeout
// line and the application's SendResult), so per kind the larger of the two counts is taken, not
// their sum. A SendResult logged in two files of a host (same msgId) counts once.
//
// HA episodes: HA lines of a broker (connect failures every 5 s in 5.x, housekeeping expiries after
// 20 s without data) less than 30 s apart form one episode; its length is its span plus the silence
// the first expiry reports. 4.x slaves fail to connect silently, so a master that stays down shows
// as one expiry there.
//
// Slave lag: 4.x masters print `Slave fall behind master: N bytes` every 60 s even with no slave
// attached (then N is the whole commit log and only grows); 5.x prints it only while a slave is
// connected. Lag above haSlaveFallbehindMax makes a finding on its own only when a slave is known to
// be attached (5.x wording, a figure that went down, HA lines or slave-related results).
//
// Severity: warning; error when a SLAVE_NOT_AVAILABLE result is seen or an HA episode lasts longer
// than haDownMs (60 s).

import type { RmqEvent } from '../parse/types.js';
import type { MetricValue, Rule, RuleContext, Subject } from './types.js';
import { BrokerHosts, CrossLogDedup, brokerLabel, num, serverVersion, str } from './send-path.js';
import { formatMs } from '../util/durations.js';
import { plural } from '../util/text.js';
import { SERVER } from '../rocketmq/facts.js';
import { factIn } from '../rocketmq/versions.js';

const HA_GAP_MS = 30000;

type Status = 'FLUSH_DISK_TIMEOUT' | 'FLUSH_SLAVE_TIMEOUT' | 'SLAVE_NOT_AVAILABLE';

/** Aggregates of one broker name (client-side results) or one broker host (its own lines). */
interface Agg {
  name: string | null;
  hosts: Set<string>;
  clients: Set<string>;
  topics: Set<string>;
  clientFlush: number;
  clientSlave: number;
  notAvailable: number;
  brokerFlush: number;
  brokerSlave: number;
  ha: number;
  haMasterSide: number;
  haSlaveSide: number;
  haConnectFailed: number;
  haSlaveExpired: number;
  haNotResponding: number;
  /** Longest HA episode. */
  haDownMs: number;
  haDownFirst: RmqEvent | null;
  haDownLast: RmqEvent | null;
  /** Current HA episode (per host; merged groups keep the longest). */
  epFirst: RmqEvent | null;
  epLast: RmqEvent | null;
  epLead: number;
  behindSamples: number;
  maxBehind: number | null;
  maxBehindEv: RmqEvent | null;
  lastBehind: number | null;
  behindWentDown: boolean;
  behind5x: boolean;
  maxFlushCostMs: number | null;
  maxFlushCostEv: RmqEvent | null;
  first: number | null;
  last: number | null;
  firstOf: Partial<Record<Status | 'HA_MASTER' | 'HA_SLAVE', RmqEvent>>;
  /** Hosts that logged master-side lines (lag, master housekeeping, timeout lines) or slave-side HA lines. */
  masterHosts: Set<string>;
  slaveHosts: Set<string>;
  brokerFirstOf: Partial<Record<Status, RmqEvent>>;
  /** The latest send result. */
  lastResult: RmqEvent | null;
}

const newAgg = (): Agg => ({
  name: null,
  hosts: new Set(),
  clients: new Set(),
  topics: new Set(),
  clientFlush: 0,
  clientSlave: 0,
  notAvailable: 0,
  brokerFlush: 0,
  brokerSlave: 0,
  ha: 0,
  haMasterSide: 0,
  haSlaveSide: 0,
  haConnectFailed: 0,
  haSlaveExpired: 0,
  haNotResponding: 0,
  haDownMs: 0,
  haDownFirst: null,
  haDownLast: null,
  epFirst: null,
  epLast: null,
  epLead: 0,
  behindSamples: 0,
  maxBehind: null,
  maxBehindEv: null,
  lastBehind: null,
  behindWentDown: false,
  behind5x: false,
  maxFlushCostMs: null,
  maxFlushCostEv: null,
  first: null,
  last: null,
  firstOf: {},
  brokerFirstOf: {},
  lastResult: null,
  masterHosts: new Set(),
  slaveHosts: new Set(),
});

const span = (a: Agg, ts: number | null) => {
  if (ts === null) return;
  if (a.first === null || ts < a.first) a.first = ts;
  if (a.last === null || ts > a.last) a.last = ts;
};

/** Close the current HA episode of an aggregate, keeping the longest. */
const closeEpisode = (a: Agg) => {
  if (!a.epFirst || !a.epLast) return;
  const spanMs = a.epFirst.ts !== null && a.epLast.ts !== null ? a.epLast.ts - a.epFirst.ts : 0;
  const down = spanMs + a.epLead;
  if (down > a.haDownMs || a.haDownFirst === null) (a.haDownMs = down), (a.haDownFirst = a.epFirst), (a.haDownLast = a.epLast);
  a.epFirst = a.epLast = null;
  a.epLead = 0;
};

const ipOf = (addr: string | null): string | null => {
  if (!addr) return null;
  const i = addr.lastIndexOf(':');
  return i > 0 ? addr.slice(0, i) : addr;
};

const MIB = 1024 * 1024;
const bytes = (n: number) => (n >= MIB ? `${Math.round((n / MIB) * 10) / 10} MiB` : `${n} bytes`);

/** Adds `from` into `into` (both already closed). */
function merge(into: Agg, from: Agg): void {
  into.name ??= from.name;
  for (const h of from.hosts) into.hosts.add(h);
  for (const h of from.masterHosts) into.masterHosts.add(h);
  for (const h of from.slaveHosts) into.slaveHosts.add(h);
  for (const c of from.clients) into.clients.add(c);
  for (const t of from.topics) into.topics.add(t);
  into.clientFlush += from.clientFlush;
  into.clientSlave += from.clientSlave;
  into.notAvailable += from.notAvailable;
  into.brokerFlush += from.brokerFlush;
  into.brokerSlave += from.brokerSlave;
  into.ha += from.ha;
  into.haMasterSide += from.haMasterSide;
  into.haSlaveSide += from.haSlaveSide;
  into.haConnectFailed += from.haConnectFailed;
  into.haSlaveExpired += from.haSlaveExpired;
  into.haNotResponding += from.haNotResponding;
  if (from.haDownFirst && (into.haDownFirst === null || from.haDownMs > into.haDownMs)) {
    into.haDownMs = from.haDownMs;
    into.haDownFirst = from.haDownFirst;
    into.haDownLast = from.haDownLast;
  }
  into.behindSamples += from.behindSamples;
  if (from.maxBehind !== null && (into.maxBehind === null || from.maxBehind > into.maxBehind)) (into.maxBehind = from.maxBehind), (into.maxBehindEv = from.maxBehindEv);
  into.behindWentDown ||= from.behindWentDown;
  into.behind5x ||= from.behind5x;
  if (from.maxFlushCostMs !== null && (into.maxFlushCostMs === null || from.maxFlushCostMs > into.maxFlushCostMs)) {
    into.maxFlushCostMs = from.maxFlushCostMs;
    into.maxFlushCostEv = from.maxFlushCostEv;
  }
  span(into, from.first);
  span(into, from.last);
  for (const k of Object.keys(from.firstOf) as Array<keyof Agg['firstOf']>) {
    const e = from.firstOf[k]!;
    const cur = into.firstOf[k];
    if (!cur || (e.ts ?? Infinity) < (cur.ts ?? Infinity)) into.firstOf[k] = e;
  }
  for (const k of Object.keys(from.brokerFirstOf) as Status[]) into.brokerFirstOf[k] ??= from.brokerFirstOf[k];
  if (from.lastResult && (!into.lastResult || (from.lastResult.ts ?? -Infinity) > (into.lastResult.ts ?? -Infinity))) into.lastResult = from.lastResult;
}

interface SendHit {
  ev: RmqEvent;
  status: Status;
  name: string | null;
  topic: string | null;
}

const rule: Rule = {
  meta: {
    id: 'store-sync',
    title: 'Store sync trouble: flush / slave timeouts, slave not available, HA connection',
    severity: 'warning',
    description:
      'Per broker: sends answered FLUSH_DISK_TIMEOUT, FLUSH_SLAVE_TIMEOUT or SLAVE_NOT_AVAILABLE (application-logged SendResult, and the broker timeout lines up to 4.9.0), master/slave HA connection expiries and connect failures, and slave lag above haSlaveFallbehindMax. These sends are stored on the master and are not retried by the producer.',
    versions:
      'All 4.x and 5.x master/slave brokers; the non-OK results come from flushDiskType=SYNC_FLUSH or brokerRole=SYNC_MASTER; brokers 4.9.1+ no longer log the flush/slave timeouts on the send path; 5.x slaves log HA connect failures every 5 s; clients retry non-OK results only with retryAnotherBrokerWhenNotStoreOK=true.',
    settings: {
      syncFlushTimeout: { default: 5000, description: 'Broker setting: how long a SYNC_FLUSH put waits for the flush before FLUSH_DISK_TIMEOUT', unit: 'ms' },
      slaveTimeout: { default: 3000, description: 'Broker setting (4.9.3+; older brokers use syncFlushTimeout): how long a SYNC_MASTER put waits for the slave before FLUSH_SLAVE_TIMEOUT', unit: 'ms' },
      haSlaveFallbehindMax: { default: 268435456, description: 'Broker setting: a slave further behind than this is not usable, and a SYNC_MASTER answers SLAVE_NOT_AVAILABLE', unit: 'bytes' },
      haDownMs: { default: 60000, description: 'An HA connection episode longer than this makes the finding an error', unit: 'ms' },
    },
    events: ['store-sync', 'store-slow', 'startup'],
  },

  create(ctx) {
    const flushTimeout = Number(ctx.settings.syncFlushTimeout);
    const slaveTimeout = Number(ctx.settings.slaveTimeout);
    const fallbehindMax = Number(ctx.settings.haSlaveFallbehindMax);
    const haDownLimit = Number(ctx.settings.haDownMs);
    const hosts = new BrokerHosts(ctx.sources);
    /** Client-side results by broker name ('' = not named). */
    const byName = new Map<string, Agg>();
    /** Broker-side lines by host. */
    const byHost = new Map<string, Agg>();
    /** host -> broker name, and broker IP -> broker name, from boot lines. */
    const hostName = new Map<string, string>();
    const ipName = new Map<string, string>();
    const hostAddr = new Map<string, string>();
    /** Slave hosts -> master IPs their HA lines name. */
    const slaveMasterIp = new Map<string, string>();

    const hostAgg = (host: string): Agg => {
      let a = byHost.get(host);
      if (!a) {
        byHost.set(host, (a = newAgg()));
        a.hosts.add(host);
      }
      return a;
    };

    const record = (h: SendHit) => {
      const key = h.name ?? '';
      let a = byName.get(key);
      if (!a) byName.set(key, (a = newAgg()));
      a.name ??= h.name;
      a.clients.add(h.ev.host);
      if (h.topic) a.topics.add(h.topic);
      if (h.status === 'FLUSH_DISK_TIMEOUT') a.clientFlush++;
      else if (h.status === 'FLUSH_SLAVE_TIMEOUT') a.clientSlave++;
      else a.notAvailable++;
      a.firstOf[h.status] ??= h.ev;
      if (!a.lastResult || (h.ev.ts ?? -Infinity) >= (a.lastResult.ts ?? -Infinity)) a.lastResult = h.ev;
      span(a, h.ev.ts);
    };
    const dedup = new CrossLogDedup<SendHit>(record);

    const haLine = (a: Agg, e: RmqEvent, status: string) => {
      a.ha++;
      const entry = e.entry ?? '';
      const masterSide = entry === 'store-sync/ha-connection-expired';
      if (masterSide) a.haMasterSide++;
      else a.haSlaveSide++;
      (masterSide ? a.masterHosts : a.slaveHosts).add(e.host);
      a.firstOf[masterSide ? 'HA_MASTER' : 'HA_SLAVE'] ??= e;
      if (status === 'HA_CONNECT_FAILED') a.haConnectFailed++;
      else if (status === 'HA_MASTER_NOT_RESPONDING') a.haNotResponding++;
      else if (!masterSide) a.haSlaveExpired++;
      const addrIp = ipOf(str(e, 'addr'));
      if (addrIp && entry !== 'store-sync/ha-connection-expired') slaveMasterIp.set(e.host, addrIp);
      if (a.epLast && e.ts !== null && a.epLast.ts !== null && e.ts - a.epLast.ts > HA_GAP_MS) closeEpisode(a);
      if (!a.epFirst) {
        a.epFirst = e;
        a.epLead = num(e, 'intervalMs') ?? 0;
      }
      a.epLast = e;
      span(a, e.ts);
    };

    const behindLine = (a: Agg, e: RmqEvent) => {
      const n = num(e, 'behindBytes');
      if (n === null) return;
      a.behindSamples++;
      a.masterHosts.add(e.host);
      if (e.entry === 'store-sync/slave-fall-behind-5x') a.behind5x = true;
      if (a.lastBehind !== null && n < a.lastBehind) a.behindWentDown = true;
      a.lastBehind = n;
      if (a.maxBehind === null || n > a.maxBehind) (a.maxBehind = n), (a.maxBehindEv = e);
    };

    /** Whether the lag figures of an aggregate describe an attached slave. */
    const slaveAttached = (a: Agg) => a.behind5x || a.behindWentDown || a.ha > 0 || a.clientSlave + a.brokerSlave + a.notAvailable > 0;
    const lagCounts = (a: Agg) => a.maxBehind !== null && a.maxBehind > fallbehindMax && slaveAttached(a);

    const work: SyncWork = { ctx, flushTimeout, slaveTimeout, fallbehindMax, haDownLimit, hostAddr, slaveMasterIp, lagCounts };
    return {
      'store-sync': (e) => {
        dedup.tick(e.ts);
        const status = str(e, 'status');
        if (!status) return;
        const result = status === 'FLUSH_DISK_TIMEOUT' || status === 'FLUSH_SLAVE_TIMEOUT' || status === 'SLAVE_NOT_AVAILABLE';
        // A send result (application log) rather than the broker's own timeout line.
        const clientSide = e.entry ? e.entry === 'store-sync/send-result' : e.kind === 'app' || e.kind === 'client';
        if (result && clientSide) {
          const msgId = /msgId=([^,\]\s]+)/.exec(e.text)?.[1] ?? e.text;
          const hit: SendHit = { ev: e, status, name: str(e, 'brokerName'), topic: str(e, 'topic') };
          dedup.add(`${e.host}|${msgId}`, e.ts, e.file, hit);
          return;
        }
        const a = hostAgg(e.host);
        if (status === 'FLUSH_DISK_TIMEOUT' || status === 'FLUSH_SLAVE_TIMEOUT') {
          if (status === 'FLUSH_DISK_TIMEOUT') a.brokerFlush++;
          else a.brokerSlave++;
          a.brokerFirstOf[status] ??= e;
          a.masterHosts.add(e.host);
          const topic = str(e, 'topic');
          if (topic) a.topics.add(topic);
          span(a, e.ts);
        } else if (status === 'SLAVE_BEHIND') behindLine(a, e);
        // `connect to master null failed`: the slave has no master HA address yet (5.x DefaultHAClient.run
        // logs getHaMasterAddress() before the slave's first registration brings it back), which every
        // slave prints at boot; it says nothing about the master or the link.
        else if (status === 'HA_CONNECT_FAILED' && str(e, 'addr') === null) return;
        else if (status.startsWith('HA_')) haLine(a, e, status);
      },
      'store-slow': (e) => {
        const what = str(e, 'what');
        const cost = num(e, 'costMs');
        if (cost === null || (what !== 'flush' && what !== 'in-lock')) return;
        const a = byHost.get(e.host);
        if (!a) {
          // Keep only the figure; the host gets an aggregate of its own (reported only with other trouble).
          const b = hostAgg(e.host);
          b.maxFlushCostMs = cost;
          b.maxFlushCostEv = e;
          return;
        }
        if (a.maxFlushCostMs === null || cost > a.maxFlushCostMs) (a.maxFlushCostMs = cost), (a.maxFlushCostEv = e);
      },
      startup: (e) => {
        hosts.startup(e);
        if (str(e, 'role') !== 'broker') return;
        const name = str(e, 'brokerName');
        if (!name) return;
        hostName.set(e.host, name);
        const bootAddr = str(e, 'brokerAddr');
        if (bootAddr) hostAddr.set(e.host, bootAddr);
        const ip = ipOf(bootAddr);
        if (ip) ipName.set(ip, name);
      },
      end() {
        dedup.flush();
        for (const a of byHost.values()) closeEpisode(a);
        const groups = new Map<string, Agg>();
        for (const [key, a] of byName) groups.set(key ? `n:${key}` : '?', a);
        const named = [...byName.keys()].filter((k) => k !== '');
        // Host -> broker name: its boot line, the master named by a slave's HA lines, or the host folder.
        const resolved = new Map<string, string>();
        for (const n of named) {
          const where = hosts.resolve(n, null, named.length === 1);
          if (where) resolved.set(where.host, n);
        }
        for (const [host, a] of byHost) {
          const masterIp = slaveMasterIp.get(host);
          const name = hostName.get(host) ?? (masterIp ? ipName.get(masterIp) : undefined) ?? resolved.get(host) ?? null;
          const key = name ? `n:${name}` : `h:${host}`;
          const g = groups.get(key);
          if (!g) {
            a.name ??= name;
            groups.set(key, a);
          } else merge(g, a);
        }
        // Broker-side hosts of a named broker whose logs hold none of these lines still count as given.
        for (const [key, g] of groups) {
          if (!key.startsWith('n:')) continue;
          const name = key.slice(2);
          for (const [h, n] of hostName) if (n === name) g.hosts.add(h);
          for (const [h, n] of resolved) if (n === name) g.hosts.add(h);
        }
        for (const g of groups.values()) report(work, g);
      },
    };
  },
};

/** What telling store and replication trouble reads of the rule's settings and state. */
interface SyncWork {
  ctx: RuleContext;
  flushTimeout: number;
  slaveTimeout: number;
  fallbehindMax: number;
  haDownLimit: number;
  hostAddr: Map<string, string>;
  slaveMasterIp: Map<string, string>;
  lagCounts: (a: Agg) => boolean;
}

/** The finding of one broker's (or host's) store and replication trouble. */
function report(w: SyncWork, a: Agg): void {
  const { ctx, flushTimeout, slaveTimeout, fallbehindMax, haDownLimit, hostAddr, slaveMasterIp, lagCounts } = w;
  const flushTimeouts = Math.max(a.clientFlush, a.brokerFlush);
  const slaveTimeouts = Math.max(a.clientSlave, a.brokerSlave);
  const failures = flushTimeouts + slaveTimeouts + a.notAvailable;
  const lag = lagCounts(a);
  if (!failures && !a.ha && !lag) return;

  // The master: the host whose boot address a slave's HA lines name, else one that logged master-side lines.
  const masterIps = new Set([...a.slaveHosts].map((h) => slaveMasterIp.get(h)).filter((x): x is string => !!x));
  const byIp = [...a.hosts].find((h) => masterIps.has(ipOf(hostAddr.get(h) ?? null) ?? ''));
  const primaryHost = byIp ?? [...a.masterHosts][0] ?? [...a.hosts].find((h) => !a.slaveHosts.has(h)) ?? [...a.hosts][0] ?? null;
  const withAddr = [...a.hosts].filter((h) => hostAddr.has(h));
  const addr = primaryHost && hostAddr.has(primaryHost) && (byIp || withAddr.length === 1 || a.masterHosts.has(primaryHost)) ? hostAddr.get(primaryHost)! : null;
  const who = brokerLabel(a.name, addr, primaryHost ? `The broker on ${primaryHost}` : 'A broker (not named in the logs)');
  const subject: Subject = {};
  if (a.name) subject.broker = a.name;
  if (addr) subject.brokerAddr = addr;
  if (primaryHost) subject.host = primaryHost;
  const haDown = a.ha > 0 && a.haDownMs > haDownLimit;
  const severity = a.notAvailable > 0 || haDown ? 'error' : 'warning';

  const ex: string[] = [];
  const parts: string[] = [];
  if (flushTimeouts) parts.push(`${plural(flushTimeouts, 'send')} answered FLUSH_DISK_TIMEOUT`);
  if (slaveTimeouts) parts.push(`${plural(slaveTimeouts, 'send')} answered FLUSH_SLAVE_TIMEOUT`);
  if (a.notAvailable) parts.push(`${plural(a.notAvailable, 'send')} answered SLAVE_NOT_AVAILABLE`);
  if (parts.length) ex.push(`${who}: ${parts.join(', ')}${a.topics.size ? ` (topics ${[...a.topics].slice(0, 5).join(', ')})` : ''}.`);
  else ex.push(`${who}: ${a.ha ? 'master/slave replication trouble' : 'the slave fell far behind'}, no non-OK send result in the logs given.`);

  if (flushTimeouts) {
    ex.push(
      `FLUSH_DISK_TIMEOUT comes only from a broker with flushDiskType=SYNC_FLUSH: the message was written to the master's commit log, but the flush to disk was not confirmed within syncFlushTimeout (${flushTimeout} ms).`,
    );
  }
  if (slaveTimeouts) {
    ex.push(
      `FLUSH_SLAVE_TIMEOUT comes only from a SYNC_MASTER: the message is stored on the master, but the slave did not acknowledge it within slaveTimeout (${slaveTimeout} ms; brokers before 4.9.3 wait syncFlushTimeout, ${flushTimeout} ms).`,
    );
  }
  if (a.notAvailable) {
    ex.push(
      `SLAVE_NOT_AVAILABLE comes from a SYNC_MASTER that has no usable slave: none connected, or the slave more than haSlaveFallbehindMax (${bytes(fallbehindMax)}) behind. The message is stored on the master only; until the slave is back, every send to this broker gets the same answer and nothing is replicated synchronously.`,
    );
  }
  if (failures) {
    ex.push(
      'The broker counts these as successful puts: the client gets a SendResult with that status and no exception, and the producer does not retry unless retryAnotherBrokerWhenNotStoreOK=true (default false). An application that treats a non-OK status as a failure and sends again creates a duplicate, since the first copy is stored.',
    );
  }

  // Which side told it, and what the broker version means for that.
  const brokerSide = a.brokerFlush + a.brokerSlave;
  const clientSide = a.clientFlush + a.clientSlave;
  if (brokerSide && clientSide) {
    ex.push(`The broker logged ${plural(brokerSide, 'timeout')} in store.log and the application logged ${plural(clientSide, 'such SendResult')}; the same send can appear on both sides, so the larger count is used.`);
  } else if (brokerSide) {
    ex.push(
      `The broker logged ${plural(brokerSide, 'timeout')} (\`do groupcommit, wait for flush failed\` / \`do sync transfer other node, wait return, but failed\`), which only brokers up to 4.9.0 do on the send path. No application log given shows the SendResults: the senders got a non-OK status and no exception, and unless the application checks sendStatus it took them as sent.`,
    );
  } else if (clientSide) {
    const bv = primaryHost ? serverVersion(primaryHost, ctx.sources) : 'unknown';
    const storeGiven = ctx.sources.some((src) => src.kind === 'store' && a.hosts.has(src.host));
    if (storeGiven) {
      ex.push(
        `The broker's store.log was given but holds no flush or slave timeout line: brokers from 4.9.1 no longer log these timeouts on the send path${factIn(SERVER.logsSyncTimeouts, bv) === false ? ` (this broker's logs say ${bv})` : ''}, so the application's SendResult is the only trace.`,
      );
    } else {
      ex.push(
        'Only the application logs show these results, and no store.log of this broker was given. Brokers up to 4.9.0 also log the timeouts in store.log (`do groupcommit, wait for flush failed`, `do sync transfer other node, wait return, but failed`); from 4.9.1 they log nothing, so the SendResult may be the only trace.',
      );
    }
  }
  if (a.maxFlushCostMs !== null && flushTimeouts) ex.push(`store.log shows slow writes on this broker: up to ${a.maxFlushCostMs} ms for a put holding the CommitLog lock or a flush.`);

  if (a.ha) {
    const sides: string[] = [];
    if (a.haSlaveSide) {
      const what: string[] = [];
      if (a.haConnectFailed) what.push(`${plural(a.haConnectFailed, 'failed connection')} to the master's HA port`);
      if (a.haSlaveExpired) what.push(`${plural(a.haSlaveExpired, 'housekeeping expiry', 'housekeeping expiries')} (nothing from the master for the HA housekeeping interval, 20 s)`);
      if (a.haNotResponding) what.push(`${plural(a.haNotResponding, 'close')} for "master not response"`);
      sides.push(`on the slave, ${what.join(', ')}`);
    }
    if (a.haMasterSide) sides.push(`on the master, ${plural(a.haMasterSide, 'housekeeping expiry', 'housekeeping expiries')} (nothing from the slave for 20 s)`);
    ex.push(
      `The master/slave (HA) connection had trouble: ${sides.join('; ')}. ${a.haDownMs > 0 ? `The longest episode lasted about ${formatMs(a.haDownMs)}${haDown ? `, longer than ${formatMs(haDownLimit)}` : ''}.` : 'Its lines fall in one moment: how long it lasted is not in them.'} While the slave is not connected, a SYNC_MASTER answers SLAVE_NOT_AVAILABLE and an ASYNC_MASTER's slave falls behind.`,
    );
    if (!a.haConnectFailed) ex.push('4.x slaves retry the connection every 5 s without logging the failures, so an HA outage there can be longer than its lines show.');
  }
  if (a.maxBehind !== null && a.behindSamples) {
    if (lag) {
      ex.push(`The master reported the slave up to ${bytes(a.maxBehind)} behind (\`fall behind master\`), over haSlaveFallbehindMax (${bytes(fallbehindMax)}): the slave is not usable for SYNC_MASTER writes until it catches up.`);
    } else if (a.maxBehind > fallbehindMax) {
      ex.push(
        `The master's \`Slave fall behind master\` figure reached ${bytes(a.maxBehind)} and never went down: 4.x masters print it even with no slave attached, and then it is the whole commit log, so it says only that no slave was reading.`,
      );
    }
  }

  const adv: string[] = [];
  if (failures) adv.push('In the application, check SendResult.getSendStatus(): a non-OK status means stored on the master but not flushed or replicated as configured; do not resend it blindly (that duplicates the message), or set retryAnotherBrokerWhenNotStoreOK=true knowing that it may duplicate too.');
  if (flushTimeouts) {
    adv.push('Check the broker disk latency at those times (iostat await and utilisation, other I/O on the commit-log device, the page cache and swap); give the commit log a fast, dedicated disk.');
    adv.push(`Raise syncFlushTimeout (${flushTimeout} ms) only if the disk is known to be slow in bursts; or use ASYNC_FLUSH and rely on a SYNC_MASTER slave for durability, the usual setup.`);
  }
  // Which end to look at follows from which end complained: a slave that could not connect to or hear
  // from its master points at the master (or the link), a master that heard nothing from its slave,
  // timeouts waiting for the slave and a lagging slave point at the slave.
  const slaveSuspect = slaveTimeouts > 0 || a.notAvailable > 0 || a.haMasterSide > 0 || lag;
  const masterSuspect = a.haSlaveSide > 0;
  if (slaveSuspect) adv.push('Check the slave: is it running, its GC pauses and disk, and the network between master and slave on the HA port (listen port + 1, 10912 by default).');
  if (masterSuspect && !slaveSuspect) {
    adv.push("The slave could not reach its master: check whether the master was running then (see the incident and the master's own logs) and the network between master and slave on the HA port (listen port + 1, 10912 by default).");
  }
  if (slaveTimeouts) adv.push(`Raise slaveTimeout (${slaveTimeout} ms; syncFlushTimeout on brokers before 4.9.3) only if the slave is healthy but far away.`);
  if (a.notAvailable || lag) {
    adv.push(`Watch the slave lag against haSlaveFallbehindMax (${bytes(fallbehindMax)}); a slave that has to catch up a large backlog stays unusable until it has.`);
    adv.push('If availability matters more than a synchronous copy, use brokerRole=ASYNC_MASTER; otherwise run more than one broker group so producers can send elsewhere.');
  }

  // Evidence in order of importance, then the first five shown in time order.
  const evidence: RmqEvent[] = [];
  const add = (e: RmqEvent | null | undefined) => {
    if (e && !evidence.includes(e)) evidence.push(e);
  };
  add(a.firstOf.SLAVE_NOT_AVAILABLE);
  add(a.firstOf.FLUSH_SLAVE_TIMEOUT ?? a.brokerFirstOf.FLUSH_SLAVE_TIMEOUT);
  add(a.firstOf.FLUSH_DISK_TIMEOUT ?? a.brokerFirstOf.FLUSH_DISK_TIMEOUT);
  add(a.haDownFirst);
  if (haDown) add(a.haDownLast);
  if (lag) add(a.maxBehindEv);
  add(a.brokerFirstOf.FLUSH_DISK_TIMEOUT);
  add(a.brokerFirstOf.FLUSH_SLAVE_TIMEOUT);
  add(a.firstOf.HA_MASTER);
  add(a.firstOf.HA_SLAVE);
  add(a.lastResult);
  const shown = evidence.slice(0, 5).sort((x, y) => (x.ts ?? 0) - (y.ts ?? 0) || x.line - y.line);

  let start = a.first;
  let end = a.last;
  if (lag && a.maxBehindEv?.ts != null) {
    const t = a.maxBehindEv.ts;
    if (start === null || t < start) start = t;
    if (end === null || t > end) end = t;
  }

  const titleParts = [...parts];
  if (a.ha) titleParts.push(a.haDownMs > 0 ? `HA connection trouble for ${formatMs(a.haDownMs)}` : 'HA connection trouble (how long, the lines do not show)');
  if (lag) titleParts.push(`slave ${bytes(a.maxBehind!)} behind`);
  const metrics: Record<string, MetricValue> = {
    failures,
    flushTimeouts,
    slaveTimeouts,
    slaveNotAvailable: a.notAvailable,
    maxBehindBytes: a.maxBehind,
    haEvents: a.ha,
    haDownMs: a.ha ? a.haDownMs : null,
    topics: [...a.topics].sort(),
    clients: a.clients.size,
  };
  ctx.report({
    severity,
    title: `${who}: ${titleParts.join(', ')}`,
    start,
    end,
    subject,
    metrics,
    evidence: shown,
    explanation: ex.join(' '),
    advice: adv,
  });
}

export default rule;
