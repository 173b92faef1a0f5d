// The consumer faults an incident names as its causes, each from the lines that show it
// (docs/analyze.md, "The incident"):
// - an instance gone: the broker removed its channel (`NETTY EVENT: remove not active channel`,
//   ConsumerManager.doChannelCloseEvent) or expired it (no heartbeat for 120 s) with no unregister,
//   and the instance's own log went silent then: it was killed, crashed or lost its host (the logs
//   cannot tell which); back when it connects again;
// - an instance stopped: the broker's `unregister a consumer[G] from consumerGroupInfo` (the client's
//   shutdown, MQClientInstance.unregisterConsumer); back when it connects again;
// - an instance joined: a new instance connected (`new consumer connected`) after the group had
//   already consumed (a committed offset moved), with the subscription the broker then took from it
//   when that differs from the group's before;
// - a burst of consume failures: at least 20 deliveries that failed (`consumeMessage exception`,
//   `return null`, orderly `return not OK`), none more than 30 s from the next, at least one every
//   2 s on average (a listener that fails now and then is no fault of a moment);
// - an offset reset: the administrator's reset of the group (`[reset-offset]` on the broker,
//   `invoke reset offset operation` on the instances), told by the instances' own lines;
// - a slow listener: the consumer-backlog finding's (CONSUME_RT rising, its window from the commits);
// - a burst of failures of 5.x gRPC SimpleConsumers, which log none: the broker's pop revive puts
//   of the group's retry topic (simple-consumer-causes.ts).
// A clientId is placed on the host whose log prints it (`ClientId: ...` of its commits, `ClientID:`
// of its start) or, failing that, whose client IP it starts with.

import type { EventType, RmqEvent } from '../parse/types.js';
import type { Cause } from '../rules/incident.js';
import type { Finding } from '../rules/types.js';
import { formatMs } from '../util/durations.js';
import { plural } from '../util/text.js';
import { backlogGroup, blockedListenersOf } from '../rules/consumer-backlog.js';
import { SIMPLE_CONSUMER_TYPES, simpleConsumerCauses } from './simple-consumer-causes.js';
import { statsFailureCauses } from './stats-failure-causes.js';

const TYPES: ReadonlySet<EventType> = new Set<EventType>(['consumer-changed', 'startup', 'offset-commit', 'offset-reset', 'consume-failed', ...SIMPLE_CONSUMER_TYPES]);
/** A client's lines that may print its id with no clientId field (`ClientId: ...`), or its address (`clientIP=`, the instance's start). */
const ID_TYPES: ReadonlySet<EventType> = new Set<EventType>(['startup', 'rebalance', 'consume-failed', 'flow-control', 'pull-failed', 'offset-reset', 'lock-failed', 'offset-commit']);
/** A client host whose log has no line for this long is silent (it commits offsets every 5 s). */
const SILENT_MS = 15_000;
const BURST_MIN = 20;
const BURST_GAP_MS = 30_000;
const BURST_RATE_PER_S = 0.5;
/** The same instance's connection lines from several brokers within this are one. */
const SAME_CHANGE_MS = 10_000;
const KEPT = 5000;

interface Change {
  ts: number;
  change: string;
  group: string;
  clientId: string | null;
  ip: string | null;
  ev: RmqEvent;
}

interface HostLife {
  first: number;
  last: number;
  firstEv: RmqEvent;
  /** Stretches with no line of SILENT_MS or more: [from, to]. */
  gaps: Array<[number, number]>;
  /**
   * It committed offsets to the broker ([persistAll], every 5 s): its log keeps a clock, so a silence
   * means something. A BROADCASTING instance (LocalFileOffsetStore) logs no commit and may say nothing
   * for minutes (gen-20261212's app-billing-02, 5 lines in a minute).
   */
  commits: boolean;
}

interface ConsumerCauses {
  readonly types: ReadonlySet<EventType>;
  visit(e: RmqEvent): void;
  finish(findings: readonly Finding[]): Cause[];
}

const ref = (e: Pick<RmqEvent, 'file' | 'line'>) => `${e.file}:${e.line}`;

/**
 * A failed delivery as the bursts read it: its time, host and line, not its event (a busy failing
 * group logs a failure per delivery: 100,000 events held 76 MB on the consumer bench set).
 */
interface Failure {
  ts: number;
  host: string;
  file: string;
  line: number;
  /** Its line is the listener's exception (`consumeMessage exception`). */
  thrown: boolean;
}

/**
 * A group's failures since the last gap of more than BURST_GAP_MS, summed as they come: the stream
 * is in time order, so a run is over, and judged a burst or not, at the first failure after such a
 * gap. Only the runs that are bursts are kept (a group failing all week long kept a row per failure:
 * 93,000 rows at two weeks of the consumer bench set).
 */
interface FailureRun {
  first: Failure;
  last: Failure;
  count: number;
  byHost: Map<string, number>;
  /** Of `count`, failures a 5.x gRPC client logged (its messages are retried by pop, not sent back). */
  grpc: number;
}
const ipOf = (id: string | null) => (id ? (/^(\d+\.\d+\.\d+\.\d+)/.exec(id)?.[1] ?? null) : null);

export function consumerCauses(): ConsumerCauses {
  const changes: Change[] = [];
  const subs: Array<{ ts: number; group: string; topic: string; sub: string }> = [];
  const idHost = new Map<string, string>();
  const ipHosts = new Map<string, Set<string>>();
  const lives = new Map<string, HostLife>();
  /** Per group: the first time a committed offset moved (the group was consuming). */
  const consuming = new Map<string, number>();
  const lastOffset = new Map<string, number>();
  const resets = new Map<string, RmqEvent[]>();
  /** Per group: its run of failures under way, and the bursts found so far (in time order). */
  const failures = new Map<string, { run: FailureRun | null; bursts: Cause[] }>();
  const simple = simpleConsumerCauses();
  const counted = statsFailureCauses();

  const visit = (e: RmqEvent): void => {
    if (e.ts === null) return;
    simple.visit(e);
    counted.visit(e);
    const f = e.fields as Record<string, unknown>;
    if (e.kind === 'client' || e.kind === 'app') {
      const l = lives.get(e.host);
      if (!l) lives.set(e.host, { first: e.ts, last: e.ts, firstEv: e, gaps: [], commits: e.type === 'offset-commit' });
      else {
        if (e.type === 'offset-commit') l.commits = true;
        if (e.ts - l.last >= SILENT_MS && l.gaps.length < KEPT) l.gaps.push([l.last, e.ts]);
        l.last = Math.max(l.last, e.ts);
      }
      // A client's id and address: read once per id and host (every offset commit prints the id:
      // reading its text again for each is most of this pass's cost on a busy group's logs).
      const fid = typeof f.clientId === 'string' ? f.clientId : null;
      if (fid !== null ? idHost.get(fid) !== e.host : ID_TYPES.has(e.type)) {
        const id = fid ?? /ClientI[dD]:\s*([^,\s]+)/.exec(e.text)?.[1] ?? null;
        if (id && !idHost.has(id) && idHost.size < KEPT) idHost.set(id, e.host);
        const ip = (e.type === 'startup' ? /clientIP=(\d+\.\d+\.\d+\.\d+)/.exec(e.text)?.[1] : undefined) ?? ipOf(id);
        if (ip) ipHosts.set(ip, (ipHosts.get(ip) ?? new Set<string>()).add(e.host));
      }
    }
    const group = typeof f.group === 'string' ? f.group : null;
    if (!group) return;
    if (e.type === 'consumer-changed' && e.kind === 'broker') {
      const change = String(f.change);
      if (change === 'subscription-changed' || change === 'topic-added') {
        if (typeof f.topic === 'string' && typeof f.subString === 'string' && !f.topic.startsWith('%RETRY%') && subs.length < KEPT) subs.push({ ts: e.ts, group, topic: f.topic, sub: f.subString });
        return;
      }
      const clientId = typeof f.clientId === 'string' ? f.clientId : null;
      const ip = ipOf(clientId) ?? (typeof f.addr === 'string' ? (f.addr.split(':')[0] ?? null) : null);
      if (changes.length < KEPT) changes.push({ ts: e.ts, change, group, clientId, ip, ev: e });
    } else if (e.type === 'offset-commit' && e.kind === 'client' && typeof f.offset === 'number') {
      // Only the first move of a group's offsets is wanted.
      if (consuming.has(group)) return;
      const q = `${group}|${String(f.topic)}|${String(f.brokerName)}|${String(f.queueId)}`;
      const before = lastOffset.get(q);
      if (before !== undefined && f.offset > before) consuming.set(group, e.ts);
      if (lastOffset.size < KEPT || lastOffset.has(q)) lastOffset.set(q, f.offset);
    } else if (e.type === 'offset-reset' && e.kind === 'client') {
      const list = resets.get(group) ?? [];
      if (list.length < KEPT) list.push(e);
      resets.set(group, list);
    } else if (e.type === 'consume-failed' && e.kind === 'client') {
      // One delivery told twice (the exception, then `return null`) counts once: the exception line alone.
      let g = failures.get(group);
      if (!g) failures.set(group, (g = { run: null, bursts: [] }));
      const last = g.run?.last;
      if (f.returnType === 'RETURNNULL' && typeof f.cause !== 'string' && last && last.host === e.host && e.ts - last.ts <= 2000 && last.thrown) return;
      const x: Failure = { ts: e.ts, host: e.host, file: e.file, line: e.line, thrown: f.returnType === 'EXCEPTION' };
      if (g.run && x.ts - g.run.last.ts > BURST_GAP_MS) closeRun(group, g);
      if (!g.run) g.run = { first: x, last: x, count: 0, byHost: new Map(), grpc: 0 };
      g.run.count++;
      if (e.entry?.startsWith('consume-failed/grpc-')) g.run.grpc++;
      g.run.byHost.set(x.host, (g.run.byHost.get(x.host) ?? 0) + 1);
      if (x.ts >= g.run.last.ts) g.run.last = x;
    }
  };

  const hostOf = (c: Change): string | null => {
    if (c.clientId) {
      const exact = idHost.get(c.clientId) ?? idHost.get(c.clientId.replace(/@STREAM$/, ''));
      if (exact) return exact;
    }
    const hs = c.ip ? ipHosts.get(c.ip) : undefined;
    return hs && hs.size === 1 ? [...hs][0] : null;
  };

  return {
    types: TYPES,
    visit,
    finish(findings) {
      return [
        ...instanceCauses(changes, subs, hostOf, lives, consuming),
        ...resetCauses(resets),
        ...[...failures].flatMap(([group, g]) => {
          closeRun(group, g);
          return g.bursts;
        }),
        ...slowCauses(findings),
        // Groups whose clients logged failures are the bursts' above.
        ...simple.finish(new Set(failures.keys()), { min: BURST_MIN, ratePerS: BURST_RATE_PER_S }),
        // Groups whose listeners failed without a line (RECONSUME_LATER): their clients' stats count them.
        ...counted.finish(new Set(failures.keys()), BURST_MIN),
      ].sort((a, b) => a.start - b.start || a.host.localeCompare(b.host));
    },
  };
}

const base = (host: string, group: string) => ({ host, group, namesrvAddrs: [], brokers: [] });

/** A channel closed this close to the instance's unregistering from another broker is its shutdown's. */
const UNREGISTER_NEAR_MS = 10_000;

/** Instances that left (gone or stopped, and back when they connect again) or joined a consuming group. */
function instanceCauses(
  changes: readonly Change[],
  subs: ReadonlyArray<{ ts: number; group: string; topic: string; sub: string }>,
  hostOf: (c: Change) => string | null,
  lives: ReadonlyMap<string, HostLife>,
  consuming: ReadonlyMap<string, number>,
): Cause[] {
  const out: Cause[] = [];
  const seen = new Set<string>();
  /** Per group and host: the leave not yet followed by a connection. */
  const open = new Map<string, Cause>();
  const lastConnect = new Map<string, number>();
  /** Per group and host: when the brokers logged the instance unregistering (its shutdown). */
  const unregistered = new Map<string, number[]>();
  for (const c of changes) {
    const host = c.change === 'unregistered' ? hostOf(c) : null;
    if (host) unregistered.set(`${c.group}|${host}`, [...(unregistered.get(`${c.group}|${host}`) ?? []), c.ts]);
  }
  for (const c of [...changes].sort((a, b) => a.ts - b.ts)) {
    const host = hostOf(c);
    if (!host) continue;
    const key = `${c.group}|${host}`;
    // A heartbeat the broker handled after its channel had closed (a broker resuming from a stall) is
    // no instance coming back (its line prints the channel closed).
    if (c.change === 'connected' && c.ev.fields.channelActive === false) continue;
    if (c.change === 'connected') {
      const prev = lastConnect.get(key);
      lastConnect.set(key, c.ts);
      if (prev !== undefined && c.ts - prev <= SAME_CHANGE_MS) continue;
      const left = open.get(key);
      if (left) {
        // Back: the stop or the loss ends when it connects again (its own start line, if read, is earlier).
        const back = lives.get(host)?.gaps.find(([from, to]) => from <= left.start + 5000 && to <= c.ts && to >= left.start)?.[1];
        left.end = Math.min(c.ts, back ?? c.ts);
        left.detail = `${left.detail ?? ''}; it connected again after ${formatMs(left.end - left.start)}`.replace(/^; /, '');
        left.evidence.push(ref(c.ev));
        open.delete(key);
        continue;
      }
      if (seen.has(key)) continue;
      seen.add(key);
      const since = consuming.get(c.group);
      if (since === undefined || since > c.ts - 5000) continue;
      // Its own first line (the client's start) is when it began; the broker's line is when it joined.
      const life = lives.get(host);
      const start = life && life.first <= c.ts + 1000 && c.ts - life.first <= 60000 ? Math.min(life.first, c.ts) : c.ts;
      // The subscription the broker took at its connection, where it differs from the group's before.
      let other: (typeof subs)[number] | null = null;
      let before: (typeof subs)[number] | undefined;
      for (const s of subs.filter((x) => x.group === c.group && Math.abs(x.ts - c.ts) <= 2000)) {
        before = [...subs].reverse().find((x) => x.group === c.group && x.topic === s.topic && x.ts < c.ts - 2000);
        if (before && before.sub !== s.sub) {
          other = s;
          break;
        }
      }
      out.push({
        ...base(host, c.group),
        kind: 'consumer-joined',
        start,
        end: c.ts,
        recognisedBy: `a new instance of group ${c.group} connected to the broker (\`new consumer connected\`) after the group had been consuming: every instance rebalanced`,
        evidence: [...(life && start === life.first && start !== c.ts ? [ref(life.firstEv)] : []), ref(c.ev)],
        detail: other && before ? `with subscription ${other.sub} to ${other.topic}, where the group had ${before.sub}` : null,
      });
      continue;
    }
    if (c.change !== 'channel-removed' && c.change !== 'expired' && c.change !== 'unregistered') continue;
    if (open.has(key)) continue;
    seen.add(key);
    if (c.change === 'unregistered') {
      const cause: Cause = {
        ...base(host, c.group),
        kind: 'consumer-stopped',
        start: c.ts,
        end: null,
        recognisedBy: `the broker unregistered an instance of group ${c.group} (\`unregister a consumer\`): its shutdown, which persisted its offsets; the others rebalanced`,
        evidence: [ref(c.ev)],
        detail: null,
      };
      out.push(cause);
      open.set(key, cause);
      continue;
    }
    // Gone without an unregister: not when it unregistered from another broker within seconds (its
    // shutdown; this broker's channel closed for a reason of its own, gen-20261227: a slave restarting
    // closed the channel a second before the instance's own shutdown unregistered it from the masters).
    if ((unregistered.get(key) ?? []).some((t) => Math.abs(t - c.ts) <= UNREGISTER_NEAR_MS)) continue;
    // Only when its own log went silent then (else its connection was lost, not the process).
    const life = lives.get(host);
    const silent = life && life.commits && (life.last <= c.ts + 5000 || life.gaps.some(([from]) => from >= c.ts - SILENT_MS && from <= c.ts + 5000));
    if (!silent) continue;
    const lastLine = life.last <= c.ts + 5000 ? life.last : life.gaps.find(([from]) => from >= c.ts - SILENT_MS && from <= c.ts + 5000)![0];
    const cause: Cause = {
      ...base(host, c.group),
      kind: 'consumer-gone',
      start: Math.min(c.ts, lastLine),
      end: null,
      recognisedBy: `the broker removed the closed channel of an instance of group ${c.group} (${c.change === 'expired' ? 'expired: no heartbeat for 120 s' : '`remove not active channel`'}) with no unregister, and its own log went silent then: killed, crashed or its host lost (the logs cannot tell which); the others rebalanced`,
      evidence: [ref(c.ev)],
      detail: 'messages consumed since its last commit (every 5 s) are consumed again by the new owners',
    };
    out.push(cause);
    open.set(key, cause);
  }
  // A gone instance no broker saw connect again, whose own log resumed after its silence: a new
  // process (gen-20261220: app-billing-03 killed, started again 63 s later; no broker logged its
  // connection while one of them was overloaded).
  for (const left of open.values()) {
    if (left.kind !== 'consumer-gone' || left.end !== null) continue;
    const gap = lives.get(left.host)?.gaps.find(([from, to]) => from <= left.start + 5000 && to > left.start);
    if (!gap) continue;
    left.end = gap[1];
    left.detail = `${left.detail ?? ''}; its own log resumed after ${formatMs(gap[1] - left.start)} (a new process)`.replace(/^; /, '');
  }
  return out;
}

/** An administrator's offset reset of a group, as its instances logged it. */
function resetCauses(resets: ReadonlyMap<string, RmqEvent[]>): Cause[] {
  const out: Cause[] = [];
  for (const [group, list] of resets) {
    let cur: RmqEvent[] = [];
    const flush = () => {
      if (!cur.length) return;
      const hosts = [...new Set(cur.map((e) => e.host))].sort();
      out.push({
        ...base(hosts[0], group),
        kind: 'offset-reset',
        start: cur[0].ts!,
        end: cur[cur.length - 1].ts!,
        recognisedBy: `the instances of group ${group} logged an administrator's offset reset (\`invoke reset offset operation\`, from mqadmin resetOffsetByTime or the console)`,
        evidence: cur.slice(0, 4).map(ref),
        detail: `on ${hosts.join(', ')}: messages after the reset point are consumed again`,
      });
      cur = [];
    };
    for (const e of [...list].sort((a, b) => a.ts! - b.ts!)) {
      if (cur.length && e.ts! - cur[cur.length - 1].ts! > 60000) flush();
      cur.push(e);
    }
    flush();
  }
  return out;
}

/** A group's run of failures, over: a burst when BURST_MIN or more came at BURST_RATE_PER_S on average (none more than BURST_GAP_MS apart). */
function closeRun(group: string, g: { run: FailureRun | null; bursts: Cause[] }): void {
  const run = g.run;
  g.run = null;
  if (!run) return;
  const secs = Math.max(1, (run.last.ts - run.first.ts) / 1000);
  if (run.count < BURST_MIN || run.count / secs < BURST_RATE_PER_S || g.bursts.length >= KEPT) return;
  const hosts = [...run.byHost].sort((a, b) => b[1] - a[1]);
  g.bursts.push({
    ...base(hosts[0][0], group),
    kind: 'consume-failures',
    start: run.first.ts,
    end: run.last.ts,
    recognisedBy:
      run.grpc === run.count
        ? `the listener of group ${group} failed ${plural(run.count, 'delivery', 'deliveries')} in ${formatMs(run.last.ts - run.first.ts)} (a 5.x gRPC client's \`Message listener raised an exception\`): each is made invisible and received again from the group's retry topic, until its attempts run out`
        : `the listener of group ${group} failed ${plural(run.count, 'delivery', 'deliveries')} in ${formatMs(run.last.ts - run.first.ts)} (\`consumeMessage exception\`, \`return null\`, orderly \`return not OK\`): each is sent back to %RETRY%${group} or retried in place`,
    evidence: [ref(run.first), ref(run.last)],
    detail: `on ${hosts.map(([h, n]) => `${h} (${n})`).join(', ')}`,
  });
}

/** A slow listener, as the consumer-backlog finding placed it. */
function slowCauses(findings: readonly Finding[]): Cause[] {
  const out: Cause[] = [];
  for (const f of findings) {
    const m = f.metrics;
    const group = backlogGroup(f);
    if (!group || m.cause !== 'slow-listener' || typeof m.slowFrom !== 'number') continue;
    const hosts = Array.isArray(m.slowHosts) ? m.slowHosts : [];
    out.push({
      ...base(hosts[0] ?? f.subject.client ?? '?', group),
      kind: 'slow-listener',
      start: m.slowFrom,
      end: typeof m.slowUntil === 'number' ? m.slowUntil : null,
      recognisedBy:
        typeof m.rtDuringMs === 'number'
          ? `the listener of group ${group} took ${String(m.rtDuringMs)} ms a message instead of ${String(m.rtBeforeMs)} (the client's CONSUME_RT per minute), and the offsets it committed every 5 s fell behind the arrivals (consumer-backlog)`
          : `the application of group ${group} consumed under half its earlier rate (the offsets it committed every 5 s) while its cache was full (flow control): it prints no CONSUME_RT, so its time per message is not told (consumer-backlog)`,
      evidence: f.evidence.map((e) => `${e.file}:${e.line}`),
      detail: `on ${hosts.join(', ')}`,
    });
  }
  for (const b of blockedListenersOf(findings)) {
    // From the last commit round that moved its offsets, else the backlog's start.
    const start = b.from ?? b.finding.start;
    if (start === null || !b.hosts.length) continue;
    out.push({
      ...base(b.hosts[0], b.group),
      kind: 'blocked-listener',
      start,
      end: b.until,
      recognisedBy: `the instances of group ${b.group} on ${b.hosts.join(', ')} consumed nothing for a whole minute (the client's CONSUME_RT and CONSUME_OK_TPS per minute) while messages waited for them, and their committed offsets stood still (consumer-backlog)`,
      evidence: b.finding.evidence.map((e) => `${e.file}:${e.line}`),
      detail: `on ${b.hosts.join(', ')}`,
    });
  }
  return out.filter((c) => c.host !== '?');
}
