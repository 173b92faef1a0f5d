// server-stopped: a server whose own logs show that it stopped: its scheduled logs went silent, or
// it booted again with no shutdown logged before (killed, crashed, the host reset or lost power).
// It reads one host's logs alone, so that a single broker's folder still tells what it shows.
//
// Scheduled logs (src/rocketmq/facts.ts, SCHEDULED_LOGS): the broker's watermark.log (every 1 s),
// stats.log (every minute) and its registrations in broker.log (every 30 s by default), and a 5.x
// NameServer's watermark lines (every 1 s). Each log's cadence is measured from the log itself:
// its lines are grouped into ticks (lines within half the shortest period a setting allows of a
// tick's first line belong to it: a tick prints a line per queue, per stats item, per NameServer),
// and the cadence is the median interval between ticks. A silence is a stretch in which none of a
// host's scheduled logs wrote, SILENT_TICKS or more of the cadence of a log that spans it, and at
// least MIN_SILENCE_MS (SHORT_SILENCE_MS when a boot with no shutdown ends it). The logs it names
// are those that span it and missed at least one tick.
// Clients log no schedule of theirs (see SCHEDULED_LOGS): a client's log is never judged silent.
//
// Boots and stops: `The broker[NAME, ADDR] boot success` and `The Name Server boot success` end a
// start (BrokerStartup.start, NamesrvStartup.start); on SIGTERM or SIGINT the shutdown hook
// (BrokerStartup's / NamesrvStartup's ShutdownHook thread) logs `Shutdown hook was invoked` and
// `Shutdown hook over` (namesrv: `shutdown hook was invoked, N times.`, `shutdown hook over/done`).
// A boot that follows an earlier life of the same process on the host (an earlier boot of that
// role, or scheduled lines before a silence the boot falls in) with no shutdown line in between:
// the previous process ended without its hook: it was killed (kill -9, the OOM killer), crashed
// (a JVM crash), or the host was reset or lost power; the logs do not tell which, and the finding
// does not guess. With a shutdown line: a restart (info). A silence that ends with no boot: the
// process stood still and went on (a hang of the process or the host, a VM paused, a very long
// pause); said only when the host's broker.log or namesrv.log was read, else it may have booted
// unseen.
//
// Severity: error for a boot with no shutdown before it; warning for a silence that resumed;
// info for a restart after a shutdown.

import type { EventType, RmqEvent } from '../parse/types.js';
import { ACTIVITY_SHORT_GAP_MS } from '../parse/activity.js';
import { SCHEDULED_LOGS, type ScheduledLog } from '../rocketmq/facts.js';
import { formatMs } from '../util/durations.js';
import type { FindingInput, Rule, RuleContext, Visitor } from './types.js';
import { addressBook, BOOK_EVENTS, clockOf, orderEvidence, scheduledLog } from './routing.js';
import { about } from './advice.js';

/** A silence is at least this many of the cadence of a log that spans it... */
const SILENT_TICKS = 5;
/** ... and at least this long (a NameServer scans for expired brokers every 10 s; a pause shorter than this is no stop). */
const MIN_SILENCE_MS = 30000;
/**
 * ... or, when a boot with no shutdown hook before it ends it, this long (and SILENT_TICKS of a
 * log's cadence: a log written every second): the process that booted was gone from the host's
 * last scheduled line (a reboot of 20 s, gen-701's slave: silent 21 s before its boot). The parse
 * keeps such short gaps apart from this length (one value: the diagnosis reads them too).
 */
const SHORT_SILENCE_MS = ACTIVITY_SHORT_GAP_MS;
/** Intervals a log needs before its cadence is trusted. */
const MIN_INTERVALS = 5;
/** Intervals kept per log to measure its cadence (the schedule is steady: the first ones tell it). */
const MAX_INTERVALS = 1001;
/** Gaps kept per host before the short ones are pruned. */
const MAX_GAPS = 1000;
/** Boots and shutdowns kept per host (a process that restarts every minute for a year is not kept). */
const MAX_MARKS = 1000;
/** A boot belongs to a silence when it falls in it or this soon after (its first scheduled lines follow the boot line). */
const BOOT_AFTER_MS = 5000;
/** Boots of a host's processes this close are one episode. */
const BOOTS_TOGETHER_MS = 60000;

type Role = 'broker' | 'namesrv';

interface Log {
  id: ScheduledLog;
  tickStart: number | null;
  intervals: number[];
  first: number;
  last: number;
}

interface Gap {
  from: RmqEvent;
  to: RmqEvent;
}

interface HostState {
  logs: Map<ScheduledLog, Log>;
  last: RmqEvent | null;
  gaps: Gap[];
  boots: RmqEvent[];
  shutdowns: RmqEvent[];
}

/** One stop of a host's processes: a silence, the boots that ended it, or both. */
interface Episode {
  host: string;
  silence: { gap: Gap; logs: Log[] } | null;
  boots: Array<{ boot: RmqEvent; role: Role; shutdown: RmqEvent | null; since: RmqEvent }>;
}

function roleOf(e: RmqEvent): Role | null {
  const r = e.fields.role;
  return r === 'broker' || r === 'namesrv' ? r : null;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

/**
 * The measured cadence of a log, or null when it has too few ticks to tell. A log whose period no
 * setting changes (watermark, stats) and that has too few ticks to measure (a recording shorter
 * than a few minutes of stats.log) is held to its fixed period.
 */
function cadenceOf(l: Log): number | null {
  if (l.intervals.length >= MIN_INTERVALS) return median(l.intervals);
  const f = SCHEDULED_LOGS[l.id];
  return l.intervals.length && f.periodMs === f.minPeriodMs ? f.periodMs : null;
}

/**
 * Whether the logs silent in a gap show the process stood still: a log whose thread waits on no
 * other server, or logs of two threads; the broker's scheduler thread alone may have been waiting
 * for a NameServer or a master that did not answer.
 */
function stoodStill(logs: readonly Log[]): boolean {
  return logs.some((l) => !SCHEDULED_LOGS[l.id].waitsOnPeers) || new Set(logs.map((l) => SCHEDULED_LOGS[l.id].thread)).size > 1;
}

const gapMs = (g: Gap) => g.to.ts! - g.from.ts!;
const spans = (l: Log, g: Gap) => l.first <= g.from.ts! && l.last >= g.to.ts!;

/** The logs that make a gap a silence (they span it, and it is SILENT_TICKS of their cadence), or null; `minMs`: SHORT_SILENCE_MS before an unclean boot. */
function silenceOf(st: HostState, g: Gap, minMs = MIN_SILENCE_MS): { gap: Gap; logs: Log[] } | null {
  const ms = gapMs(g);
  const spanning = [...st.logs.values()].filter((l) => spans(l, g) && cadenceOf(l) !== null);
  if (!spanning.some((l) => ms >= Math.max(minMs, SILENT_TICKS * cadenceOf(l)!))) return null;
  return { gap: g, logs: spanning.filter((l) => ms >= 2 * cadenceOf(l)!) };
}

const rule: Rule = {
  meta: {
    id: 'server-stopped',
    title: 'A server stopped: its scheduled logs went silent, or it booted again with no shutdown',
    severity: 'warning',
    description:
      "From a server host's own logs: a silence of the logs RocketMQ writes on a schedule (watermark.log every second, stats.log every minute, the broker's registrations every 30 s; each log's cadence measured from the log), and a boot with no shutdown hook logged before it (killed, crashed or the host lost power; a boot after a shutdown is a restart, info).",
    versions: 'all: broker and NameServer boot and shutdown-hook lines; watermark and stats lines (NameServer watermark from 5.0)',
    settings: {},
    events: [...new Set<EventType>([...BOOK_EVENTS, 'watermark', 'stats', 'broker-registered', 'startup', 'shutdown'])],
  },
  create(ctx) {
    const book = addressBook(ctx);
    const hosts = new Map<string, HostState>();
    const stateOf = (host: string): HostState => {
      let st = hosts.get(host);
      if (!st) hosts.set(host, (st = { logs: new Map(), last: null, gaps: [], boots: [], shutdowns: [] }));
      return st;
    };

    const scheduled = (e: RmqEvent) => {
      const id = scheduledLog(e);
      if (id === null) return;
      const ts = e.ts!;
      const st = stateOf(e.host);
      let l = st.logs.get(id);
      if (!l) st.logs.set(id, (l = { id, tickStart: null, intervals: [], first: ts, last: ts }));
      if (l.tickStart === null || ts - l.tickStart >= SCHEDULED_LOGS[id].minPeriodMs / 2) {
        if (l.tickStart !== null && l.intervals.length < MAX_INTERVALS) l.intervals.push(ts - l.tickStart);
        l.tickStart = ts;
      }
      l.last = Math.max(l.last, ts);
      // The merged stream is in time order; a line a little behind (a reordered paste) moves nothing back.
      if (st.last !== null && ts < st.last.ts!) return;
      if (st.last !== null && ts - st.last.ts! >= SHORT_SILENCE_MS) {
        st.gaps.push({ from: st.last, to: e });
        if (st.gaps.length > MAX_GAPS) st.gaps = st.gaps.filter((g) => silenceOf(st, g) !== null || g.to === e).slice(-MAX_GAPS);
      }
      st.last = e;
    };
    const mark = (list: 'boots' | 'shutdowns') => (e: RmqEvent) => {
      if (e.ts === null || roleOf(e) === null) return;
      const st = stateOf(e.host);
      if (st[list].length < MAX_MARKS) st[list].push(e);
    };
    const own: Visitor = {
      watermark: scheduled,
      stats: scheduled,
      'broker-registered': scheduled,
      startup: mark('boots'),
      shutdown: mark('shutdowns'),
      end() {
        for (const [host, st] of hosts) for (const ep of episodesOf(host, st)) ctx.report(findingOf(ctx, book, ep));
      },
    };
    return own;
  },
};

/** The stops of one host, in time order. */
function episodesOf(host: string, st: HostState): Episode[] {
  const silences = st.gaps.map((g) => silenceOf(st, g)).filter((s): s is NonNullable<typeof s> => s !== null);
  const boots = [...st.boots].sort((a, b) => a.ts! - b.ts!);
  const out: Episode[] = silences.map((s) => ({ host, silence: s, boots: [] }));
  let loose: Episode | null = null;
  boots.forEach((boot, i) => {
    const role = roleOf(boot)!;
    const before = boots.slice(0, i).filter((b) => roleOf(b) === role).pop() ?? null;
    const ends = (g: Gap) => boot.ts! >= g.from.ts! && boot.ts! <= g.to.ts! + BOOT_AFTER_MS;
    let inSilence = out.find((ep) => ep.silence && ends(ep.silence.gap));
    // A shorter silence this boot ends, when no shutdown hook of its process was logged since its boot before.
    const hooked = st.shutdowns.some((s) => roleOf(s) === role && s.ts! > (before?.ts ?? -Infinity) && s.ts! <= boot.ts!);
    if (!inSilence && !hooked) {
      const short = st.gaps.filter(ends).map((g) => silenceOf(st, g, SHORT_SILENCE_MS)).find((x) => x !== null);
      if (short) out.push((inSilence = { host, silence: short, boots: [] }));
    }
    // No earlier life of this process in the logs: the first start they hold.
    const since = before ?? inSilence?.silence?.gap.from ?? null;
    if (since === null) return;
    const after = before?.ts ?? -Infinity;
    const shutdown = st.shutdowns.find((s) => roleOf(s) === role && s.ts! > after && s.ts! <= boot.ts!) ?? null;
    const b = { boot, role, shutdown, since };
    if (inSilence) inSilence.boots.push(b);
    else if (loose && boot.ts! - loose.boots[0].boot.ts! <= BOOTS_TOGETHER_MS) loose.boots.push(b);
    else out.push((loose = { host, silence: null, boots: [b] }));
  });
  return out.sort((a, b) => startOf(a) - startOf(b));
}

const startOf = (ep: Episode) => ep.silence?.gap.from.ts ?? ep.boots[0].boot.ts!;


/** `broker broker-a (10.0.0.1:10911) and the NameServer`: who booted. */
function whoText(book: ReturnType<typeof addressBook>, host: string, roles: Role[]): string {
  const broker = book.brokerOfHost(host);
  const brokerText = broker.name && broker.addr ? `broker ${broker.name} (${broker.addr})` : broker.name || broker.addr ? `broker ${broker.name ?? broker.addr}` : 'the broker';
  const words = [...new Set(roles)].sort().map((r) => (r === 'broker' ? brokerText : 'the NameServer'));
  return words.join(' and ');
}

/** `1 s`, `30 s`, `1 min`: a cadence in whole seconds where it is one. */
const every = (ms: number) => (ms % 60000 === 0 ? `${ms / 60000} min` : ms % 1000 === 0 ? `${ms / 1000} s` : formatMs(ms));

const logWords = (logs: Log[]) => logs.map((l) => `${SCHEDULED_LOGS[l.id].words} (every ${every(cadenceOf(l)!)})`).join(', ');

function findingOf(ctx: RuleContext, book: ReturnType<typeof addressBook>, ep: Episode): FindingInput {
  const host = ep.host;
  const broker = book.brokerOfHost(host);
  const subject = { host, ...(broker.name ? { broker: broker.name } : {}), ...(broker.addr ? { brokerAddr: broker.addr } : {}) };
  const s = ep.silence;
  const silentMs = s ? gapMs(s.gap) : null;
  const silenceText = s
    ? `${host}'s scheduled logs${s.logs.length ? `, ${logWords(s.logs)},` : ''} wrote nothing from ${clockOf(s.gap.from)} to ${clockOf(s.gap.to)} (${formatMs(silentMs)}). `
    : '';
  const metricsBase = {
    silentMs,
    silentLogs: s ? s.logs.map((l) => SCHEDULED_LOGS[l.id].words) : [],
    cadenceMs: s && s.logs.length ? Math.min(...s.logs.map((l) => cadenceOf(l)!)) : null,
  };
  const unclean = ep.boots.filter((b) => b.shutdown === null);
  if (unclean.length) {
    const first = unclean[0];
    const who = whoText(book, host, unclean.map((b) => b.role));
    const sinceText = first.since === s?.gap.from ? `its last scheduled line at ${clockOf(first.since)}` : `its previous boot at ${clockOf(first.since)}`;
    return {
      severity: 'warning',
      title: `${cap(who)} on ${host} ${s ? `went silent at ${clockOf(s.gap.from)} for ${formatMs(silentMs)} and ` : ''}booted again at ${clockOf(first.boot)} with no shutdown logged before it`,
      start: s ? s.gap.from.ts : first.since.ts,
      end: first.boot.ts,
      subject,
      metrics: { ...metricsBase, stop: 'unclean', bootAt: first.boot.ts, shutdownLogged: false, roles: unclean.map((b) => b.role) },
      evidence: orderEvidence([s?.gap.from, ...unclean.map((b) => b.boot), s?.gap.to]),
      explanation:
        silenceText +
        `${cap(who)} on ${host} logged its boot at ${clockOf(first.boot)} with no shutdown line since ${sinceText}. ` +
        `A broker or NameServer stopped by SIGTERM (mqshutdown, kill, systemctl stop) runs its shutdown hook, which logs "Shutdown hook was invoked" before it exits; none is in the logs, so the previous process ended without it: it was killed (kill -9, the OOM killer), it crashed, or the host was reset or lost power. The logs do not tell which${s ? ', nor whether it stood still before it ended' : ''}.`,
      advice: [
        about('find-cause', `Find what ended the process before ${clockOf(first.boot)} on ${host}: the kernel log (OOM killer: journalctl -k, dmesg), the host's reboot history (last -x), and a JVM crash file (hs_err_pid*.log in the process's working directory).`),
        ...unreadPeers(ctx, unclean.some((b) => b.role === 'broker')),
      ],
    };
  }
  if (ep.boots.length) {
    const first = ep.boots[0];
    const who = whoText(book, host, ep.boots.map((b) => b.role));
    return {
      severity: 'info',
      title: `${cap(who)} on ${host} shut down at ${clockOf(first.shutdown)} and booted again at ${clockOf(first.boot)} (a restart)`,
      start: first.shutdown!.ts,
      end: first.boot.ts,
      subject,
      metrics: { ...metricsBase, stop: 'restart', bootAt: first.boot.ts, shutdownLogged: true, roles: ep.boots.map((b) => b.role) },
      evidence: orderEvidence([first.shutdown, s?.gap.from, ...ep.boots.map((b) => b.boot)]),
      explanation:
        `${cap(who)} on ${host} ran its shutdown hook at ${clockOf(first.shutdown)}, which SIGTERM or SIGINT starts, and booted again at ${clockOf(first.boot)}: a restart, planned or by a supervisor. ` +
        silenceText,
      advice: [],
    };
  }
  // A silence that ended with no boot.
  const g = s!.gap;
  const bootFileRead = ctx.sources.some((x) => x.host === host && (x.kind === 'broker' || x.kind === 'namesrv'));
  const still = stoodStill(s!.logs);
  const stop = !bootFileRead ? 'silent' : still ? 'resumed' : 'scheduler';
  const titles = {
    resumed: `${host}'s scheduled logs went silent at ${clockOf(g.from)} for ${formatMs(silentMs)} and resumed with no boot`,
    silent: `${host}'s scheduled logs went silent at ${clockOf(g.from)} for ${formatMs(silentMs)}`,
    scheduler: `The broker scheduler thread on ${host} logged nothing from ${clockOf(g.from)} for ${formatMs(silentMs)}`,
  };
  const stats = [...s!.logs].some((l) => l.id === 'brokerStats');
  const why = {
    resumed: `Then they went on with no boot line in ${host}'s logs: the same processes stood still and resumed${s!.logs.length > 1 ? ' (the logs named are written by separate threads, so not one thread waited)' : ''}. A process or host that hangs (a frozen VM or disk, a stopped process, a pause of the whole JVM) does that; a crash or a reboot would have logged a boot.`,
    silent: `Neither broker.log nor namesrv.log of ${host} was read, so whether its processes booted again in between is not known: read them to tell a hang from a restart.`,
    scheduler:
      `Then it went on with no boot line in ${host}'s logs. These lines are all written by one thread (BrokerControllerScheduledThread), which also registers the broker with every NameServer (waiting for their answers up to 6 s in 4.x, 24 s in 5.x) and, on a slave, fetches the master's configuration: either the broker stood still, or that thread waited for a NameServer or a master that did not answer. ` +
      (stats ? '' : "stats.log, written by a thread of its own, would tell the two apart; it was not read or is too short to tell."),
  };
  return {
    severity: stop === 'scheduler' ? 'info' : 'warning',
    title: titles[stop],
    start: g.from.ts,
    end: g.to.ts,
    subject,
    metrics: { ...metricsBase, stop, bootAt: null, shutdownLogged: false, roles: [] },
    evidence: orderEvidence([g.from, g.to]),
    explanation: silenceText + why[stop],
    advice: [
      stop === 'scheduler'
        ? about('find-cause', `Find whether ${host} stood still from ${clockOf(g.from)} to ${clockOf(g.to)} (its GC log, the hypervisor's and the kernel's logs) or waited for a peer: the NameServers' and the master's logs of that window.`)
        : about('find-cause', `Find why ${host} stood still from ${clockOf(g.from)} to ${clockOf(g.to)}: the hypervisor's and the kernel's logs (a paused VM, hung task warnings), the disk, and the JVM's GC log for a pause that long.`),
    ],
  };
}

/** Advice to read the logs that tell what the stop cost, where the inputs lack them. */
function unreadPeers(ctx: RuleContext, broker: boolean): string[] {
  const read = (kinds: string[]) => ctx.sources.some((x) => kinds.includes(x.kind));
  const missing = [
    !broker || read(['namesrv']) ? '' : "the NameServers' logs (when they dropped the broker)",
    read(['client', 'app']) ? '' : `the clients' logs (which ${broker ? 'sends' : 'route polls and sends'} failed)`,
  ].filter(Boolean);
  return missing.length ? [`Read ${missing.join(' and ')} of the same window with these: they show what the stop cost.`] : [];
}

const cap = (t: string) => t.charAt(0).toUpperCase() + t.slice(1);

export default rule;
