// network-partition: hosts that could not reach each other while both kept running: the network
// between them dropped packets (a firewall, a security group, iptables/nftables, a switch or route).
//
// What tells a partition from the other faults, by what each leaves in the logs:
// - a connect that times out (`createChannel: connect remote host[X] timeout 3000ms`, or a
//   `ConnectTimeoutException` under `createChannel: connect remote host[X] failed`,
//   NettyRemotingClient.createChannel, 4.x and 5.x up to 5.2) means no SYN-ACK and no RST came
//   back: nothing on X's side answered at the TCP level;
// - a hung process (SIGSTOP, a long GC) leaves its kernel answering: connects complete and only
//   calls time out; and the hung host's own logs stop (watermark.log every second on a broker);
// - a crash or a restart refuses connections (`Connection refused`), a rebooted host resets the old
//   ones, and logs a boot;
// - a host that lost power (a reboot's first phase) also lets connects time out, but its own logs
//   stop then.
// So a connect timeout against a host whose own logs show it running at that time (or that other
// hosts reached meanwhile: a broker's `register broker ... OK` / `Registering current broker to
// name server completed. TargetHost=X`, BrokerOuterAPI.registerBrokerAll) names the network between
// the two. The calls that timed out around it (invokeSync `wait response on the channel <X> timeout`,
// NettyRemotingAbstract.invokeSyncImpl / NettyRemotingClient.invokeSync) belong to the same cut when
// X was running then too. One finding per cut: the host common to the failing pairs (the host cut
// off), its peers, the first and last failed call. Without a connect timeout (clients that keep their
// timed-out channel, 4.x up to 4.9.0, or with NettyClientConfig.clientCloseSocketIfTimeout false)
// the calls alone cannot tell a partition from a broker too busy to answer, unless the broker's own
// watermark says it was not busy: every second of every failed call's wait it printed its send
// queue empty and its head's wait 0 (`[WATERMARK] Send Queue Size: 0 SlowTimeMills: 0`,
// BrokerController.printWaterMark), so the requests never reached it, and a broker whose send thread
// or store is stuck queues them there; across more than one crossing period (a stall of seconds
// times out the calls of seconds), or from several hosts, each with its wait stated (synchronous
// calls, and asynchronous requests removed on timeout: gen-20261218). gen-311: a 5.1.2 client with
// closeSocketIfTimeout false timed out every send and heartbeat on broker-a for 52 s while broker-a
// printed an empty send queue every second and registered with its NameServer.
//
// A partition is seen only through the requests that cross it: brokers register every 30 s
// (registerNameServerPeriod), clients heartbeat and poll routes every 30 s, so the first and last
// failures can lie up to that long inside the cut; calls on a connection that stayed open can fail
// for a while after the heal, while TCP's retransmission backs off.
//
// Severity: error.

import type { EventType, RmqEvent } from '../parse/types.js';
import { formatMs } from '../util/durations.js';
import type { Rule, Visitor } from './types.js';
import { addressBook, addrKey, BOOK_EVENTS, clockOf, ipOf, isConnectTimeout, isLeftoverBudget, orderEvidence, REGISTER_PERIOD_MS } from './routing.js';
import { about } from './advice.js';

/**
 * A connect fails as a timeout after NettyClientConfig.connectTimeoutMillis (3000 ms, 4.x and 5.x);
 * a refused one fails at once. From 5.3 the failure reads `connect to X failed` either way, so one
 * that came this long after the host's own `NETTY CLIENT PIPELINE: CONNECT ... => X` (logged when
 * the connect starts, NettyRemotingClient$NettyConnectManageHandler.connect), with no `ACTIVE` for
 * it (channelActive, logged from 5.2), timed out. Server logs print whole seconds.
 */
const CONNECT_WAIT_MS = 2000;
/** ... and a CONNECT older than this is not the failed one's. */
const CONNECT_MAX_MS = 10000;
/** Records of one host this close together show it running (a broker writes watermark.log every second). */
const RUN_GAP_MS = 10000;
/** Failures this close in time are one cut (its requests cross it every 30 s at the slowest). */
const EPISODE_GAP_MS = 2 * REGISTER_PERIOD_MS;
/** Failures kept per run of the rule (a week of logs stays bounded). */
const MAX_FAILURES = 20000;
/**
 * How long after its shutdown hook began a host counts as stopping: the hook joins each service thread
 * for up to 90 s (ServiceThread.shutdown, `join thread ... elapsed time(ms) ... 90000`). Past that, its
 * own logs say whether a new process runs (a boot line the collection missed).
 */
const STOPPING_MS = 120000;
/** Runs of a host kept whatever the failures (Runs): a record a little out of time order still finds its run. */
const RECENT_RUNS = 4;
/** Other hosts' successful registrations with a NameServer kept per address. */
const MAX_OK = 256;
/** A call's wait when its line does not say (NettyClientConfig's and the clients' usual 3 s). */
const DEFAULT_WAIT_MS = 3000;
/** Seconds of a broker's send-queue watermark kept (the longest wait read: a 5.x registration's 24 s, and slack). */
const WATERMARK_KEPT = 40;
/**
 * A failed call tells of a cut through an idle broker only when its line states a wait this long: a
 * running broker whose send queue is empty answers within milliseconds, while a send's last attempt
 * may get only what its budget had left (hang-5x: retries on a healthy broker-b after broker-a hung
 * timed out with no wait stated).
 */
const QUIET_WAIT_MIN_MS = 1000;
/** Most a watermark line may be late or missing within a wait (it prints every second; whole-second times). */
const WATERMARK_GAP_MS = 2000;
/**
 * A send queue whose head had waited this long: the broker had the requests and could not serve them.
 * A broker cut off from its clients receives nothing, and one cut off from its NameServers serves its
 * clients in milliseconds; one starved of CPU queues thousands (gen-20261208: broker-b under a 3 %
 * quota printed `Send Queue Size: 3758 SlowTimeMills: 12200`, and its own connects to a NameServer
 * timed out because its event loop did not run, while every call to it timed out).
 */
const BUSY_QUEUE_MS = 1000;
/** Calls with their waits stated, from two hosts or more, that tell a quiet cut shorter than a crossing period. */
const QUIET_CALLS_MIN = 4;
/**
 * Or a send queue this long: hundreds of requests that reached the broker and waited (gen-20261226:
 * mq-node-a under a 10 % CPU quota printed `Send Queue Size: 812 SlowTimeMills: 887` and `274 ... 70`
 * as a client's connects and calls to it timed out); a broker cut off from its clients queues nothing.
 */
const BUSY_QUEUE_SIZE = 100;
/** Busy spans kept per host (a week of logs stays bounded). */
const MAX_BUSY_SPANS = 4096;

interface Failure {
  e: RmqEvent;
  ts: number;
  from: string;
  to: string;
  connect: boolean;
  /** A call whose target's watermark showed its send queue empty through the whole wait. */
  quiet: boolean;
  /** Its line states a wait of QUIET_WAIT_MIN_MS or more (`timeout, 2000(ms)`). */
  waited: boolean;
  /** How long it waited: as its line states, else DEFAULT_WAIT_MS (a connect's too). */
  waitMs: number;
}

/** A failed connect or call of `e.host` to `to` (quiet: not known yet), with the wait its line states. */
function failureOf(e: RmqEvent, to: string, connect: boolean): Failure {
  const stated = typeof e.fields.timeoutMs === 'number' && e.fields.timeoutMs > 0 ? e.fields.timeoutMs : null;
  return { e, ts: e.ts!, from: e.host, to, connect, quiet: false, waited: stated !== null && stated >= QUIET_WAIT_MIN_MS, waitMs: stated ?? DEFAULT_WAIT_MS };
}

/**
 * The calls that timed out on a spent budget (isLeftoverBudget: a retry given what its send had left,
 * `wait response on the channel <addr> timeout, 0(ms)`), host|addr|ms: they tell nothing of the
 * network, and neither does the same call's `invokeSync: wait response timeout exception` line, which
 * states no wait (gen-20270105: a 4.6.0 client's retries to two healthy brokers with 0 and 1 ms left
 * read as a cut between them).
 */
class SpentCalls {
  private readonly keys = new Set<string>();
  /**
   * Whether the timed-out call `e` to `addr` is one: its line stating the wait (which takes back
   * the same call's line without a wait, read before it, from `failures`), or that line read after.
   */
  skip(e: RmqEvent, addr: string, failures: Failure[]): boolean {
    if (e.type !== 'rpc-timeout' || e.ts === null) return false;
    const key = `${e.host}|${addr}|${e.ts}`;
    const stated = e.fields.timeoutMs;
    if (typeof stated !== 'number') return this.keys.has(key);
    if (!isLeftoverBudget(stated)) return false;
    if (this.keys.size < MAX_FAILURES) this.keys.add(key);
    for (let k = failures.length - 1; k >= 0 && failures[k].ts >= e.ts - 1; k--) {
      const f = failures[k];
      if (f.from === e.host && f.ts === e.ts && f.e.type === 'rpc-timeout' && typeof f.e.fields.timeoutMs !== 'number' && addrKey(f.e.fields.addr as string | null) === addr) {
        failures.splice(k, 1);
        break;
      }
    }
    return true;
  }
}

/**
 * Each broker host's last seconds of its send queue's watermark: whether a request waited there.
 * The stream is in time order, so when a failed call is read the seconds of its wait were read
 * before it.
 */
class SendQueues {
  private readonly byHost = new Map<string, Array<{ ts: number; idle: boolean }>>();
  /** Per host, the spans its send queue's head had waited BUSY_QUEUE_MS or more, or held BUSY_QUEUE_SIZE requests (merged when they touch). */
  private readonly busy = new Map<string, Array<[number, number]>>();
  note(host: string, ts: number, idle: boolean, slowMs = 0, size = 0): void {
    let list = this.byHost.get(host);
    if (!list) this.byHost.set(host, (list = []));
    list.push({ ts, idle });
    if (list.length > WATERMARK_KEPT) list.shift();
    if (slowMs >= BUSY_QUEUE_MS || size >= BUSY_QUEUE_SIZE) {
      let spans = this.busy.get(host);
      if (!spans) this.busy.set(host, (spans = []));
      const last = spans[spans.length - 1];
      if (last && ts - slowMs <= last[1] + WATERMARK_GAP_MS) last[1] = Math.max(last[1], ts);
      else if (spans.length < MAX_BUSY_SPANS) spans.push([ts - slowMs, ts]);
    }
  }
  /** Whether the host's send queue held a request waiting a second or more at some time in [from, to]. */
  busyIn(host: string, from: number, to: number): boolean {
    return (this.busy.get(host) ?? []).some(([a, b]) => a <= to + WATERMARK_GAP_MS && b >= from - WATERMARK_GAP_MS);
  }
  /** Whether the host printed its send queue empty, every second, from `from` to `to`. */
  idleThrough(host: string, from: number, to: number): boolean {
    const list = this.byHost.get(host);
    if (!list?.length || list[0].ts > from) return false;
    let prev = -Infinity;
    for (const x of list) {
      if (x.ts < from - WATERMARK_GAP_MS) {
        prev = x.ts;
        continue;
      }
      if (x.ts > to + WATERMARK_GAP_MS) break;
      if (x.ts - prev > WATERMARK_GAP_MS || !x.idle) return false;
      prev = x.ts;
    }
    return to - prev <= WATERMARK_GAP_MS;
  }
}

/**
 * What one host's own logs show of it running: runs of records no more than RUN_GAP_MS apart. Only
 * the runs a failure asks about are kept (a host that logs once a minute, as a client's stats do,
 * starts a run each minute: a run per host and minute was two weeks' growth of this rule on the
 * consumer bench set). The stream is in time order: a run is over once a record comes more than
 * RUN_GAP_MS after it, and no later failure can fall in it; it is kept if a failure to its host
 * fell in it, and the last RECENT_RUNS of a host are kept besides.
 */
class Runs {
  private readonly runs = new Map<string, { kept: Array<[number, number]>; recent: Array<[number, number]>; asked: number[] }>();
  note(host: string, ts: number): void {
    let h = this.runs.get(host);
    if (!h) this.runs.set(host, (h = { kept: [], recent: [], asked: [] }));
    const last = h.recent[h.recent.length - 1];
    if (last && ts >= last[0] && ts - last[1] <= RUN_GAP_MS) last[1] = Math.max(last[1], ts);
    else if (!last || ts > last[1]) {
      h.recent.push([ts, ts]);
      if (h.recent.length > RECENT_RUNS) this.close(h, h.recent.shift()!);
    }
  }
  /** A failure to the host at ts: the run it falls in is kept. */
  ask(host: string, ts: number): void {
    const h = this.runs.get(host);
    if (h) h.asked.push(ts);
    else this.runs.set(host, { kept: [], recent: [], asked: [ts] });
  }
  private close(h: { kept: Array<[number, number]>; asked: number[] }, run: [number, number]): void {
    const asked = h.asked.filter((t) => t >= run[0]);
    if (asked.some((t) => t <= run[1])) h.kept.push(run);
    h.asked = asked.filter((t) => t > run[1]);
  }
  /** Whether the host logged records on both sides of ts (within one run). */
  covers(host: string, ts: number): boolean {
    const h = this.runs.get(host);
    return !!h && (h.kept.some(([a, b]) => a <= ts && ts <= b) || h.recent.some(([a, b]) => a <= ts && ts <= b));
  }
  has(host: string): boolean {
    const h = this.runs.get(host);
    return !!h && (h.kept.length > 0 || h.recent.length > 0);
  }
}

/**
 * Calls alone, every one against a broker whose watermark showed its send queue empty through the
 * whole wait, and those that state a wait of a second or more spanning more than a crossing period.
 */
function quietCut(g: Failure[]): boolean {
  const waited = g.filter((f) => f.waited);
  if (!g.every((f) => !f.connect && f.quiet) || waited.length < 2) return false;
  if (waited[waited.length - 1].ts - waited[0].ts > REGISTER_PERIOD_MS) return true;
  // Or several hosts' calls with their waits stated, to a broker that printed an empty send queue
  // through each: what kept the requests from it was between it and each of them, not one client's
  // connection (gen-20261218: four producers' sends to broker-a timed out for 20 s while it printed
  // `Send Queue Size: 0` every second; the 4.9.0 clients kept their channels, so no connect was made).
  const pairs = new Set(waited.map((f) => `${f.from}|${f.to}`));
  return waited.length >= QUIET_CALLS_MIN && new Set(waited.map((f) => f.from)).size >= 2 && pairs.size >= 2;
}

const RUN_EVENTS: EventType[] = ['watermark', 'stats', 'store-slow', 'broker-registered', 'pipeline', 'channel-closed', 'namesrv-chosen', 'broker-expired', 'broker-removed', 'startup', 'route-changed', 'send-attempt-failed', 'heartbeat-failed', 'register-failed'];

const rule: Rule = {
  meta: {
    id: 'network-partition',
    title: 'Network partition between hosts that kept running',
    severity: 'error',
    description:
      'Connects that time out (no answer, no refusal, no reset) and calls that time out between hosts whose own logs show them running, or calls alone to a broker that printed its send queue empty all along: the network between them dropped packets. Names the host cut off, its peers, the first and last failure.',
    versions: 'all: a connect that timed out (NettyRemotingClient: `createChannel: connect remote host[X] timeout` or ConnectTimeoutException up to 5.2; from 5.3 `connect to X failed` 2 s or more after the host\'s own `NETTY CLIENT PIPELINE: CONNECT ... => X`), and invokeSync timeouts; calls alone when the broker\'s watermark.log prints its send queue every second',
    settings: {},
    events: [...new Set<EventType>([...BOOK_EVENTS, ...RUN_EVENTS, 'connect-failed', 'rpc-timeout', 'async-timeout', 'shutdown'])],
  },
  create(ctx) {
    const book = addressBook(ctx);
    const runs = new Runs();
    const failures: Failure[] = [];
    const boots: Array<{ host: string; ts: number }> = [];
    /** Shutdown hooks begun (BrokerStartup's, NamesrvStartup's): the process is going down until a boot. */
    const stops: Array<{ host: string; ts: number }> = [];
    /** NameServer address -> the brokers' registrations it answered (the last MAX_OK). */
    const okWith = new Map<string, Array<{ ts: number; host: string; e: RmqEvent }>>();
    const noteRun = (e: RmqEvent) => {
      if (e.ts !== null) runs.note(e.host, e.ts);
    };
    /** host|addr -> when the host's last connect to addr started, while no ACTIVE followed. */
    const connecting = new Map<string, number>();
    /** A connect failure that timed out: said so, or long after its connect started. */
    const timedOut = (e: RmqEvent): boolean => {
      if (isConnectTimeout(e)) return true;
      if (/refused|reset/i.test(e.text) || e.ts === null) return false;
      const a = addrKey(e.fields.addr as string | null);
      const started = a ? connecting.get(`${e.host}|${a}`) : undefined;
      return started !== undefined && e.ts - started >= CONNECT_WAIT_MS && e.ts - started <= CONNECT_MAX_MS;
    };
    const queues = new SendQueues();
    /**
     * Failures whose address no host was known to have yet: the address book learns a 4.x NameServer's
     * host from connects and accepts it pairs over time (gen-20261211: broker-a's registrations to all
     * three NameServers timed out 2 min after their boots, before the book placed them). Read again at the end.
     */
    const unplaced: Array<{ e: RmqEvent; connect: boolean; addr: string }> = [];
    const spent = new SpentCalls();
    const fail = (e: RmqEvent, connect: boolean) => {
      noteRun(e);
      const a = addrKey(e.fields.addr as string | null);
      if (!a || e.ts === null || failures.length >= MAX_FAILURES) return;
      if (!connect && spent.skip(e, a, failures)) return;
      const to = book.hostOfIp(ipOf(a));
      if (!to) {
        if (unplaced.length < MAX_FAILURES) unplaced.push({ e, connect, addr: a });
        return;
      }
      if (to === e.host) return;
      const f = failureOf(e, to, connect);
      f.quiet = !connect && queues.idleThrough(to, e.ts - f.waitMs, e.ts);
      failures.push(f);
      runs.ask(to, e.ts);
    };
    const visitor: Visitor = {
      'connect-failed': (e) => (timedOut(e) ? fail(e, true) : noteRun(e)),
      pipeline: (e) => {
        noteRun(e);
        const a = addrKey(e.fields.addr as string | null);
        if (e.fields.side !== 'client' || !a || e.ts === null) return;
        const key = `${e.host}|${a}`;
        if (e.fields.event === 'connect') connecting.set(key, e.ts);
        else if (e.fields.event === 'active') connecting.delete(key);
      },
      'rpc-timeout': (e) => fail(e, false),
      // An asynchronous request removed on timeout (`remove timeout request, ResponseFuture [...
      // R:/ip:port], timeoutMillis=N`, NettyRemotingAbstract.scanResponseTable, 4.x and 5.x): a call
      // that waited its whole timeout on that channel.
      'async-timeout': (e) => (typeof e.fields.addr === 'string' ? fail(e, false) : noteRun(e)),
      watermark: (e) => {
        noteRun(e);
        if (e.kind === 'watermark' && e.fields.queue === 'Send' && e.ts !== null) {
          queues.note(e.host, e.ts, e.fields.size === 0 && e.fields.slowMs === 0, typeof e.fields.slowMs === 'number' ? e.fields.slowMs : 0, typeof e.fields.size === 'number' ? e.fields.size : 0);
        }
      },
      startup: (e) => {
        noteRun(e);
        if (e.ts !== null) boots.push({ host: e.host, ts: e.ts });
      },
      shutdown: (e) => {
        if (e.ts !== null && stops.length < MAX_FAILURES) stops.push({ host: e.host, ts: e.ts });
      },
      'broker-registered': (e) => {
        noteRun(e);
        const ns = addrKey(e.fields.namesrvAddr as string | null);
        if (!ns || e.ts === null || e.kind === 'namesrv') return;
        let list = okWith.get(ns);
        if (!list) okWith.set(ns, (list = []));
        list.push({ ts: e.ts, host: e.host, e });
        if (list.length > MAX_OK) list.shift();
      },
      end() {
        for (const ep of episodes()) report(ep);
      },
    };
    for (const t of RUN_EVENTS) if (!(t in visitor)) visitor[t] = noteRun;

    /**
     * The target ran at the failure: its own records around it. A broker's host logs every second
     * (watermark.log, stats), so silence there is a stop. A NameServer alone logs little (a 5.x one
     * does not log a known broker's registration), so there another broker's registration with it
     * within RUN_GAP_MS shows it running.
     */
    const running = (f: Failure): boolean => {
      if (boots.some((b) => b.host === f.to && Math.abs(b.ts - f.ts) <= REGISTER_PERIOD_MS)) return false;
      // Its shutdown had begun and no boot followed before the failure: it was going down or down (gen-709:
      // a 5.3.3 master took 10 s to stop, and a connect to it timed out meanwhile), not cut off.
      const stop = stops.filter((x) => x.host === f.to && x.ts <= f.ts && f.ts - x.ts <= STOPPING_MS).pop();
      if (stop && !boots.some((b) => b.host === f.to && b.ts >= stop.ts && b.ts <= f.ts)) return false;
      if (runs.covers(f.to, f.ts)) return true;
      if (book.hasKind(f.to, 'broker') || book.hasKind(f.to, 'watermark')) return false;
      const ns = book.namesrvAddrOfHost(f.to);
      return ns !== null && (okWith.get(ns) ?? []).some((x) => Math.abs(x.ts - f.ts) <= RUN_GAP_MS);
    };

    interface Episode {
      host: string;
      peers: string[];
      list: Failure[];
    }

    /**
     * Either end of the failure was a broker holding requests it could not serve: starved, not cut off
     * (its queue filled because the requests reached it; its own connects failed because its threads
     * did not run).
     */
    const drowning = (f: Failure): boolean => {
      return queues.busyIn(f.to, f.ts - f.waitMs, f.ts) || queues.busyIn(f.from, f.ts - f.waitMs, f.ts);
    };

    function episodes(): Episode[] {
      for (const u of unplaced) {
        const to = book.hostOfIp(ipOf(u.addr));
        if (!to || to === u.e.host) continue;
        // Its target's send queue was not followed then (quiet needs it in time order): no call alone tells a cut.
        failures.push(failureOf(u.e, to, u.connect));
      }
      const valid = failures.filter((f) => runs.has(f.to) && running(f) && !drowning(f)).sort((a, b) => a.ts - b.ts);
      const groups: Failure[][] = [];
      for (const f of valid) {
        const g = groups[groups.length - 1];
        if (g && f.ts - g[g.length - 1].ts <= EPISODE_GAP_MS) g.push(f);
        else groups.push([f]);
      }
      const out: Episode[] = [];
      for (const g of groups) out.push(...cutsOf(g));
      return out;
    }

    /**
     * The cuts in one group of failures close in time. The host cut off: of the hosts whose failures
     * tell a cut (a connect that timed out, or calls alone to a broker idle throughout), the one with
     * the most peers; a broker's host before another. Its failures are its cut's; what is left may
     * tell another cut. A host whose failures tell none (calls that timed out on a broker too busy to
     * answer) does not hide a cut beside it: gen-715's broker-b, whose connects to the three
     * NameServers timed out for 40 s, was 19 s before the sends to an overloaded broker-a timed out,
     * and broker-a, with more peers, was chosen and dropped with broker-b's connects.
     */
    function cutsOf(g: Failure[]): Episode[] {
      const out: Episode[] = [];
      let left = g;
      // A host's calls alone tell a cut by those of them that waited on an idle broker (quiet): the
      // others (a wait whose watermark seconds are missing, or calls to another broker, overloaded or
      // hung meanwhile: gen-20261219) neither tell it nor hide it.
      const quietOf = (fs: Failure[]) => fs.filter((f) => !f.connect && f.quiet);
      while (left.some((f) => f.connect) || hasQuietHost(left)) {
        const peersOf = new Map<string, Set<string>>();
        for (const f of left) {
          for (const [a, b] of [[f.from, f.to], [f.to, f.from]]) {
            let s = peersOf.get(a);
            if (!s) peersOf.set(a, (s = new Set()));
            s.add(b);
          }
        }
        const rank = (h: string) => peersOf.get(h)!.size * 2 + (book.hasKind(h, 'broker') ? 1 : 0);
        const touching = (h: string) => left.filter((f) => f.from === h || f.to === h);
        const host = [...peersOf.keys()]
          .sort((a, b) => rank(b) - rank(a) || a.localeCompare(b))
          .find((h) => {
            const list = touching(h);
            return list.some((f) => f.connect) || quietCut(quietOf(list));
          });
        if (host === undefined) break;
        const all = touching(host);
        // Without a connect, the cut is what its quiet calls show.
        const list = all.some((f) => f.connect) ? all : quietOf(all);
        out.push({ host, peers: [...new Set(list.flatMap((f) => [f.from, f.to]))].filter((h) => h !== host).sort(), list });
        left = left.filter((f) => f.from !== host && f.to !== host);
      }
      return out;
    }

    /** Whether some host's quiet calls alone tell a cut. */
    function hasQuietHost(fs: Failure[]): boolean {
      const hosts = new Set(fs.flatMap((f) => [f.from, f.to]));
      return [...hosts].some((h) => quietCut(fs.filter((f) => (f.from === h || f.to === h) && !f.connect && f.quiet)));
    }

    /**
     * The NameServers among the peers answered other brokers' registrations during the cut (BrokerOuterAPI
     * `Registering current broker to name server completed` / `register broker ... OK`): they ran and
     * their network to the others worked.
     */
    function namesrvsMeanwhile(ep: Episode, from: number, to: number): string {
      const addrs = ep.peers.map((h) => book.namesrvAddrOfHost(h)).filter((a): a is string => a !== null);
      if (!addrs.length) return '';
      const others = [...new Set(addrs.flatMap((a) => (okWith.get(a) ?? []).filter((x) => x.ts >= from && x.ts <= to && x.host !== ep.host).map((x) => x.host)))].sort();
      if (!others.length) return '';
      return `Meanwhile ${others.join(', ')} registered with ${addrs.length === 1 ? 'that NameServer' : 'those NameServers'}: they answered others. `;
    }

    /** The cut host's first registration answered again by a NameServer peer after the last failure: the cut had healed by then. */
    function registeredAgain(ep: Episode, last: number): string {
      const again = ep.peers
        .map((h) => book.namesrvAddrOfHost(h))
        .flatMap((a) => (a ? (okWith.get(a) ?? []).filter((x) => x.host === ep.host && x.ts >= last) : []))
        .sort((a, b) => a.ts - b.ts)[0];
      return again ? `; ${ep.host}'s registrations were answered again from ${clockOf(again.e)}, so the cut had healed by then` : '';
    }

    function shapeOf(ep: Episode): string {
      const ns = ep.peers.filter((h) => book.hasKind(h, 'namesrv'));
      const brokers = ep.peers.filter((h) => book.hasKind(h, 'broker'));
      const clients = ep.peers.filter((h) => !book.hasKind(h, 'namesrv') && !book.hasKind(h, 'broker'));
      if (ns.length === ep.peers.length) return `from the NameServer${ns.length === 1 ? '' : 's'} on ${ns.join(', ')}`;
      if (clients.length === ep.peers.length) return `from the application${clients.length === 1 ? '' : 's'} ${clients.join(', ')}`;
      const parts = [
        ns.length ? `the NameServer${ns.length === 1 ? '' : 's'} on ${ns.join(', ')}` : '',
        brokers.filter((h) => !ns.includes(h)).length ? `the broker host${brokers.length === 1 ? '' : 's'} ${brokers.filter((h) => !ns.includes(h)).join(', ')}` : '',
        clients.length ? `the application${clients.length === 1 ? '' : 's'} ${clients.join(', ')}` : '',
      ].filter(Boolean);
      return `from ${parts.join(', ')}`;
    }

    function report(ep: Episode) {
      const first = ep.list[0];
      const last = ep.list[ep.list.length - 1];
      // One failure is often logged twice (remoting.log and the caller's log): counted once a second per pair.
      const distinct = (fs: Failure[]) => new Set(fs.map((f) => `${f.from}|${f.to}|${Math.floor(f.ts / 1000)}`)).size;
      const connects = ep.list.filter((f) => f.connect);
      const nConnects = distinct(connects);
      const calls = distinct(ep.list.filter((f) => !f.connect));
      const byHost = distinct(ep.list.filter((f) => f.from === ep.host));
      const against = distinct(ep.list.filter((f) => f.to === ep.host));
      const broker = book.brokerOfHost(ep.host);
      const ns = book.namesrvAddrOfHost(ep.host);
      const runsOn = [ns ? `NameServer ${ns}` : '', broker.name ? `${broker.name}` : broker.addr ? `broker ${broker.addr}` : ''].filter(Boolean).join(' and ');
      const shape = shapeOf(ep);
      const windowMs = last.ts - first.ts;
      const peersText = ep.peers.join(', ');
      const seen = [
        byHost ? `${ep.host} itself failed ${byHost} time${byHost === 1 ? '' : 's'} to reach ${[...new Set(ep.list.filter((f) => f.from === ep.host).map((f) => f.to))].join(', ')}` : '',
        against ? `${[...new Set(ep.list.filter((f) => f.to === ep.host).map((f) => f.from))].join(', ')} failed ${against} time${against === 1 ? '' : 's'} to reach it` : '',
      ].filter(Boolean).join('; ');
      // Calls alone (quietCut): the brokers they went to printed an empty send queue throughout.
      const quietTo = [...new Set(ep.list.map((f) => f.to))].join(', ');
      const nsOnly = book.hasKind(ep.host, 'broker') && !book.hasKind(ep.host, 'namesrv') && ep.peers.every((h) => book.hasKind(h, 'namesrv') && !book.hasKind(h, 'broker'));
      const how = nConnects
        ? `${nConnects} connect${nConnects === 1 ? '' : 's'} timed out`
        : `${calls} call${calls === 1 ? '' : 's'} timed out while ${quietTo} printed ${quietTo.includes(',') ? 'their' : 'its'} send queue empty`;
      const why = nConnects
        ? `${nConnects} connect${nConnects === 1 ? '' : 's'} timed out (no answer at all, neither refused nor reset) and ${calls} call${calls === 1 ? '' : 's'} got no response, `
        : `${calls} call${calls === 1 ? '' : 's'} got no response, while ${quietTo} printed every second of their waits an empty send queue (\`[WATERMARK] Send Queue Size: 0 SlowTimeMills: 0\`: the requests never reached it; a broker too busy to answer queues them there), `;
      ctx.report({
        severity: 'error',
        title: `${ep.host}${runsOn ? ` (${runsOn})` : ''} was cut off ${shape} for ${formatMs(windowMs)} while it kept running: ${how}`,
        start: first.ts,
        end: last.ts,
        subject: { host: ep.host, ...(broker.name ? { broker: broker.name } : {}), ...(broker.addr ? { brokerAddr: broker.addr } : {}), ...(ns ? { namesrvAddr: ns } : {}) },
        metrics: { peers: ep.peers, connectTimeouts: nConnects, callTimeouts: calls, windowMs, hostRunning: true },
        evidence: orderEvidence([first.e, ...connects.slice(0, 1).map((f) => f.e), ...connects.filter((f) => f.from !== connects[0].from).slice(0, 1).map((f) => f.e), last.e]),
        explanation:
          `From ${clockOf(first.e)} to ${clockOf(last.e)} ${seen}: ${why}` +
          `while the logs of both sides show them running (a hung process still accepts connections and stops its own logs; a crashed one refuses them; a rebooted host resets them and logs a boot). ` +
          namesrvsMeanwhile(ep, first.ts, last.ts) +
          `So the network between ${ep.host} and ${peersText} dropped packets. A cut is seen only through the requests that cross it (registrations, heartbeats and route polls every ${formatMs(REGISTER_PERIOD_MS)}, and the sends), so it began up to that long before the first failure and may have ended up to that long before the last` +
          `${registeredAgain(ep, last.ts)}. ` +
          `A connect that times out lost its SYN or the answer to it, and a call its request or the response: the logs do not tell whether packets were dropped one way or both${nsOnly ? ` (a NameServer sends no request of its own to a broker unless notifyMinBrokerIdChanged is on, RouteInfoManager 5.x: only ${ep.host}'s requests tried the cut)` : ''}.`,
        advice: [
          about('find-cause', `Check the network between ${ep.host} and ${peersText} around ${clockOf(first.e)}-${clockOf(last.e)}: firewall and security-group rules, iptables/nftables on both hosts, switches and routes. ${ep.host} kept running meanwhile: restarting it does not mend a network cut.`),
        ],
      });
    }

    return visitor;
  },
};

export default rule;
