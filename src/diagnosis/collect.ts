// One pass over a merged timeline keeping what inference needs: the typed events it reads, watermark
// lines above the busy threshold, property dumps of the servers, the addresses brokers print for
// their producer connections, and the applications' own send lines (the records that are no event
// but that inference reads: src/timeline/other-records.ts); each server host's silences come from
// the sources' activity. Bounded whatever the size of the input: what recurs all along
// (registrations, accepted connections, producer connections, statistics lines) is kept as the few
// lines inference cites, as are the instances' rebalances and the brokers' book of consumer groups
// (consumer-lines.ts); what it reads only near something else (peers' resets and
// timeouts during a silence, slow puts beside a busy reply) only there; kept events lose what
// nothing reads (see `lighten`); a client's flow-control warnings are read for their minute, and
// only the first FLOW_LINES_KEPT per host kept as lines; and every kept list has a cap (KEEP_CAP per
// type and host, LIMITS.sendTimes send times per host); what a cap dropped is counted in `dropped`.

import { ACTIVITY_GAP_MS, ACTIVITY_SHORT_GAP_MS, hostSilences, type ActivityMark } from '../parse/activity.js';
import { type EventType, type RmqEvent, type SourceAccounting } from '../parse/types.js';
import { SERVER_KINDS } from '../ingest/kinds.js';
import { APP_SEND, APP_SETTING, APP_STATS, PRODUCER_LINK, inferenceReader, propLine } from '../timeline/other-records.js';
import { LIMITS } from '../model/index.js';
import { isSyncTimeout } from './observe.js';
import { isAppFailure } from '../parse/send-failure.js';
import { isSendCallbackClass } from '../parse/record.js';
import { consumerLines } from './consumer-lines.js';

/** Typed events kept (watermark and the store's periodic histogram are summarised instead). */
const KEPT = new Set<EventType>([
  'busy-reply',
  'send-attempt-failed',
  'send-failed',
  'send-call-timeout',
  'rpc-timeout',
  'async-timeout',
  'send-request-failed',
  'connect-failed',
  'namesrv-chosen',
  'namesrv-list',
  'route-update-failed',
  'route-changed',
  'no-route',
  'broker-registered',
  'broker-expired',
  'broker-removed',
  'startup',
  'shutdown',
  'heartbeat-failed',
  'register-failed',
  'store-slow',
  'disk-full',
  'disk-ok',
]);

/**
 * The consumer side that inference reads (infer/consumers.ts): the clients' rebalances, failed
 * consumptions, flow-control warnings, offset resets and queue locks, and the brokers' book of a
 * group's instances (connected, unregistered, channel removed, their subscriptions). Of the
 * rebalances and the brokers' book, which recur all along, only the lines inference reads
 * (consumer-lines.ts).
 */
const CONSUMER_KEPT = new Set<EventType>(['consume-failed', 'flow-control', 'rebalance', 'offset-reset', 'lock-failed', 'consumer-changed']);
/** A client's statistics of one minute per `topic@group` that inference reads (CONSUME_RT, CONSUME_OK_TPS, CONSUME_FAILED_TPS). */
const CONSUMER_STATS = new Set(['CONSUME_RT', 'CONSUME_OK_TPS', 'CONSUME_FAILED_TPS']);

/** Events of one type kept per host (failures of a long incident fit; a flood is cut). */
export const KEEP_CAP = 20000;
/** A broker's watermark prints its send queue every second (BrokerController.printWaterMark): a longer pause is the scheduled thread's. */
const WATERMARK_SILENT_MS = 3000;
/**
 * A client's flow-control warnings kept as lines per host (to cite, and for what reads a host's
 * lines); every warning is read for the minute it fell in (FlowWarnings). Kept as events up to
 * KEEP_CAP, a busy group's warnings (a few thousand a week per instance) were what grew analyze's
 * main thread from the second week of the consumer bench set on (docs/bench.md).
 */
export const FLOW_LINES_KEPT = 1000;
/** Failed deliveries kept as events per host, group and reconsumeTimes: what inference cites. */
const CITED_FAILURES = 3;
/** Registrations kept per broker host and NameServer: the first ones (inference cites three). */
const REGISTRATIONS_KEPT = 3;
/** How long after a silence began the brokers' registrations are kept, per NameServer, on it. */
const REGISTERED_AFTER_MS = 60000;
/** How long after a silence's end the peers' resets and reconnects still tell about it (inference reads 5 s). */
const PAST_SILENCE_MS = 10000;
/**
 * A short silence (ACTIVITY_SHORT_GAP_MS to ACTIVITY_GAP_MS) is a stop when a boot of the host's
 * broker or NameServer follows within this of its end: the first lines after it are the new
 * process's start (its property dump), its `boot success` comes once it has loaded (a 5.1.4 broker
 * of gen-702 logged it 7 s after its first line).
 */
const BOOT_AFTER_SHORT_SILENCE_MS = 20000;
/** A broker's slow puts matter within this long of a client's busy reply (infer/faults.ts). */
const STORE_WINDOW_MS = 2000;
/** A client's invokeSync timeouts whose times are kept per host. */
const SYNC_TIMEOUTS_KEPT = 1_000_000;
/** A NameServer's accepted connections matter within this long of a client choosing a NameServer. */
const ACCEPT_WINDOW_MS = 2000;
/** Times the text of one route dump is kept per client and topic (inference reads the first three lines naming a broker). */
const ROUTE_TEXTS_KEPT = 3;
/** Distinct strings shared among kept events (past it, new strings are kept as they are). */
const INTERNED_MAX = 65536;
/** Field values up to this long are shared (longer ones are causes and dumps, seldom the same). */
const INTERNED_LENGTH = 200;

export interface Silence {
  host: string;
  /** Last line before the silence, and the first line after it (null: silent until the end): file, line and time. */
  from: RmqEvent;
  to: RmqEvent | null;
  /** Events and server logs of other hosts meanwhile (0: everyone was silent, nothing to tell). */
  othersLogged: number;
  /** The host's last own registration with a NameServer before the silence (it sets the expiry). */
  lastRegistration: RmqEvent | null;
  /**
   * Per NameServer address, the last registration any broker logged with it in the minute after the
   * silence began: a NameServer that answered then was still up (when it went down, infer/faults.ts).
   */
  registeredAfter: Map<string, RmqEvent>;
}

interface AppStats {
  count: number;
  /** Sent plus failed over all lines. */
  total: number;
  first: { ts: number; event: RmqEvent };
  last: { ts: number; event: RmqEvent };
  /** Milliseconds between consecutive lines (the first KEEP_CAP). */
  gaps: number[];
}

/**
 * A client's consume statistics of one minute and one `topic@group` key, as inference reads them
 * (infer/consumers.ts): the figures of its CONSUME_RT, CONSUME_OK_TPS and CONSUME_FAILED_TPS lines,
 * not the lines (a line per host, key, statistic and minute, kept as events, was two thirds of
 * analyze's heap at two weeks of the consumer bench set, docs/bench.md). The CONSUME_RT line is kept
 * by its place, to cite.
 */
export interface ConsumeStatMinute {
  host: string;
  key: string;
  /** The minute's end: its lines' time, to the nearest minute. */
  at: number;
  /** The latest time of its lines. */
  lastTs: number;
  file: string;
  /** Its first line's number. */
  line: number;
  /** Whether every one of its lines' times is a whole second (context.ts: a file that prints whole seconds). */
  whole: boolean;
  /** Listener calls: CONSUME_RT's TIMES where printed (RTStatsItem), else its SUM over its AVGPT. */
  times: number;
  /** CONSUME_RT's SUM: the calls' total time, ms. */
  rtSum: number;
  ok: number;
  failed: number;
  /** The CONSUME_RT line: its line number, and its place among the stream's CONSUME_RT lines (to cite in the stream's order); null: none read. */
  rtLine: number | null;
  rtSeq: number;
}

/**
 * A client host's flow-control warnings of one consumer group (null: the line names none), as
 * inference reads them (infer/consumers.ts): the minutes that held one, each by its end as the
 * consume statistics' rows name it (a warning at t falls in the minute ending at t rounded up to the
 * minute), up to KEEP_CAP, and the first warning's line (kept among the events).
 */
export interface FlowWarnings {
  host: string;
  group: string | null;
  first: RmqEvent;
  /** Minute ends, in the order read. */
  minutes: number[];
  /** Of those, the minute ends with two warnings or more (a second one says 1000 more pauses: the cache stayed full). */
  repeated: number[];
  /** Minutes past KEEP_CAP, left out. */
  left: number;
  /** Whether a warning of the count limit with its threshold is among the kept lines. */
  threshold: boolean;
}

/** A client's failed delivery as inference reads it (infer/consumers.ts). */
export interface ConsumeFailure {
  ts: number;
  /** The consumer group the line names, null where it names none. */
  group: string | null;
  /** The listener threw (`consumeMessage exception`), rather than returning RECONSUME_LATER or null. */
  thrown: boolean;
  /** The message's reconsumeTimes where the line prints it. */
  reconsumeTimes: number | null;
}

interface HostLines {
  count: number;
  first: number;
  last: number;
}

export interface Collected {
  sources: SourceAccounting[];
  /** Common folder of the inputs, for `file:line` references. */
  base: string;
  first: number | null;
  last: number | null;
  events: RmqEvent[];
  /** Server-log records per host (every record, typed or not, from the sources' activity). */
  serverLines: Map<string, HostLines>;
  silences: Silence[];
  /** `Send` watermark lines whose head waited at least 100 ms, per host (the first KEEP_CAP). */
  watermarkHigh: Map<string, RmqEvent[]>;
  /**
   * Per host, the times of consecutive `Send` watermark lines more than WATERMARK_SILENT_MS apart
   * (the first KEEP_CAP): the broker's scheduled thread, which prints every second, did not run
   * between them.
   */
  watermarkGaps: Map<string, Array<[number, number]>>;
  /**
   * Hosts that wrote watermark lines, which their servers print on a clock (SCHEDULED_LOGS: a
   * broker's watermark.log, a 5.x NameServer's namesrv_default.log, every second).
   */
  clocked: Set<string>;
  /**
   * The clients' failed deliveries per host (up to KEEP_CAP), as rows, not events: a busy group's
   * week of them as events was most of analyze's memory (docs/bench.md, the consumer set). The first
   * CITED_FAILURES of each host, group and reconsumeTimes are kept as events too, to cite.
   */
  consumeFailures: Map<string, ConsumeFailure[]>;
  consumeFailureLines: RmqEvent[];
  /** The clients' consume statistics per host, key and minute (up to KEEP_CAP lines per host and statistic), in the order they were read. */
  consumeStats: ConsumeStatMinute[];
  /** The clients' flow-control warnings per host and group, in the order of their first warning. */
  flowWarnings: FlowWarnings[];
  /** Flow-control warnings past FLOW_LINES_KEPT per host, read for their minute only (not kept as lines). */
  flowLinesLeft: Map<string, number>;
  /** Server property dumps (`key=value` lines of a process start), per `host|kind`: key -> last value and line. */
  props: Map<string, Map<string, { value: string; event: RmqEvent }>>;
  /** Broker-side `new producer connected ... L:/local - R:/remote`: the broker's own address on its host. */
  producerLinks: Array<{ host: string; local: string; remoteIp: string; event: RmqEvent }>;
  /** Application lines that report a sent message (`msgId=`, `SEND_OK`), per host. */
  /** `times`: every send's time (up to LIMITS.sendTimes + 1), or null when the collector was told not to keep them. */
  appSends: Map<string, { count: number; firstEvent: RmqEvent; lastEvent: RmqEvent; times: number[] | null }>;
  /** Application statistics lines `sent=N[, failed=M]`, per host: their count and sum, the first and last, the gaps between them (capped). */
  appStats: Map<string, AppStats>;
  /** The times of each client host's invokeSync timeouts (their events are kept only during a silence). */
  syncTimeouts: Map<string, number[]>;
  /**
   * A broker's registrations answered again by a NameServer after failed ones (BrokerOuterAPI's
   * `register broker[0]to name server X OK` after its `registerBroker Exception, X`): the first one
   * answered, with the last failure before it. Between the two the path to that NameServer came
   * back (a network partition's heal: infer/faults.ts); the registrations themselves recur all
   * along and are kept only as the first few.
   */
  registrationsBack: Array<{ failed: RmqEvent; ok: RmqEvent }>;
  /**
   * Per client host, its first invokeSync timeout on a channel it did not close: no `invokeSync:
   * close socket because of timeout` of that address just before its `wait response timeout
   * exception` (NettyRemotingClient.invokeSync logs the close first, in the same catch block).
   */
  keptTimedOut: Map<string, RmqEvent>;
  /** Events a cap left out, per `type host`. */
  dropped: Map<string, number>;
  /** Application `key=value` settings of the producer (`sendMsgTimeout=3000`), per host. */
  appProps: Map<string, Map<string, { value: string; event: RmqEvent }>>;
  /** Brokers' stats.log `[TOPIC_PUT_NUMS] [topic] Stats In One Minute, SUM: n`: messages stored per topic, broker host and minute (capped). */
  topicPuts: Array<{ host: string; topic: string; ts: number; sum: number; tps: number; event: RmqEvent }>;
  /**
   * Brokers' stats.log `[SNDBCK_PUT_NUMS] [%RETRY%group_topic@group]` per minute: a pop group's
   * messages the proxy forwarded to its DLQ past their attempts (5.x; capped as topicPuts).
   */
  popDlqPuts: Array<{ host: string; key: string; ts: number; sum: number; event: RmqEvent }>;
  /**
   * Per broker host, the first and last minute end its stats.log printed a per-minute line of any
   * statistic: BrokerStatsManager prints every item each minute from its first use, so a topic with
   * no line of its own in that span stored nothing there.
   */
  statsSpan: Map<string, { first: number; last: number }>;
}

/** The event types collect reads: a timeline pass decodes these for it (and only these are counted). */
const COLLECTED_TYPES: ReadonlySet<EventType> = new Set<EventType>([...KEPT, ...CONSUMER_KEPT, 'watermark', 'stats', 'pipeline', 'other', 'channel-closed', 'send-async-retry']);

/**
 * A `close socket because of timeout` this long before its call's `wait response timeout exception`,
 * at most: one catch block logs both, on the calling thread, but a client starved of CPU takes its
 * time between them (gen-20270108: 85 ms on a 5.1.0 client). Only a client that closes on timeout
 * logs the first line at all.
 */
const CLOSE_BEFORE_WAIT_MS = 1000;

interface CollectOptions {
  /**
   * Keep the time of every send an application logged (default), for a run to replay them as they
   * happened; analyze's incidents read the counts only.
   */
  sendTimes?: boolean;
  /**
   * The stream's records that are no event are only those inference reads (a timeline built with
   * keepOther 'inference', as analyze's): they are not judged again. Otherwise (the TUI's timeline
   * keeps every record) each is judged as that timeline's parse would have (inferenceReader).
   */
  otherRead?: boolean;
}

interface Collector {
  readonly types: ReadonlySet<EventType>;
  /** One event of the timeline, in time order (other types are ignored). */
  visit(e: RmqEvent): void;
  finish(): Collected;
}

/** collect() over a whole stream. */
export function collect(events: Iterable<RmqEvent>, sources: SourceAccounting[], base: string, first: number | null, last: number | null, opts: CollectOptions = {}): Collected {
  const c = collector(sources, base, first, last, opts);
  for (const e of events) c.visit(e);
  return c.finish();
}

/**
 * The summary inference reads, built one event at a time (analyze feeds it from the same pass as
 * its rules, replay from its own): see the top of this file.
 */
export function collector(sources: SourceAccounting[], base: string, first: number | null, last: number | null, opts: CollectOptions = {}): Collector {
  const keepTimes = opts.sendTimes ?? true;
  const kindOf = new Map(sources.map((s) => [s.path, s.kind]));
  const out: Collected = {
    sources,
    base,
    first,
    last,
    events: [],
    serverLines: new Map(),
    silences: [],
    watermarkHigh: new Map(),
    watermarkGaps: new Map(),
    clocked: new Set(),
    consumeFailures: new Map(),
    consumeFailureLines: [],
    consumeStats: [],
    flowWarnings: [],
    flowLinesLeft: new Map(),
    props: new Map(),
    producerLinks: [],
    appSends: new Map(),
    appStats: new Map(),
    appProps: new Map(),
    dropped: new Map(),
    topicPuts: [],
    popDlqPuts: [],
    statsSpan: new Map(),
    syncTimeouts: new Map(),
    keptTimedOut: new Map(),
    registrationsBack: [],
  };
  const silences = serverSilences(sources, last);
  out.silences = silences.list;
  out.serverLines = silences.lines;
  // Short silences are kept at the end only if a boot ended them (shortStops); meanwhile the peers'
  // lines in them are kept as in a silence, and left out again with the silences that are not.
  const shortSilences = silences.short;
  const shortKept = new Map<string, Silence[]>();
  // Silences in order of their start, and those under way at the current event's time.
  const pendingSilences = [...out.silences].sort((a, b) => a.from.ts! - b.from.ts!);
  let nextSilence = 0;
  let underWay: Silence[] = [];
  const perKey = new Map<string, number>();
  /** Per host, the time of its last `Send` watermark line. */
  const lastSendMark = new Map<string, number>();
  // The usual key of a type and a host, made once: a dense log asks for it millions of times.
  const usualKeys = new Map<string, Map<string, string>>();
  const usualKey = (e: RmqEvent): string => {
    let byHost = usualKeys.get(e.type);
    if (byHost === undefined) usualKeys.set(e.type, (byHost = new Map()));
    let key = byHost.get(e.host);
    if (key === undefined) byHost.set(e.host, (key = `${e.type} ${e.host}`));
    return key;
  };
  /** Kept unless its type already has KEEP_CAP events from this host (then counted as dropped). */
  const keep = (e: RmqEvent, key = usualKey(e), cap = KEEP_CAP): boolean => {
    const n = perKey.get(key) ?? 0;
    if (n >= cap) {
      if (cap === KEEP_CAP) out.dropped.set(key, (out.dropped.get(key) ?? 0) + 1);
      return false;
    }
    perKey.set(key, n + 1);
    return true;
  };
  /** Per `host namesrvAddr`, a broker's last failed registration there since one was answered. */
  const regFailed = new Map<string, RmqEvent>();
  // Accepted connections of the last ACCEPT_WINDOW_MS, and until when those that follow are kept.
  let recentAccepts: RmqEvent[] = [];
  let acceptUntil = -Infinity;
  const linked = new Set<string>();
  const lighten = lightener();
  // The brokers' book of consumer groups and the instances' rebalances: the few lines inference reads of them (consumer-lines.ts).
  const consumerKept = consumerLines(lighten);
  /** Within a silence of another host, or up to PAST_SILENCE_MS after it. */
  const within = (e: RmqEvent, x: Silence) => x.host !== e.host && e.ts! > x.from.ts! && (x.to === null || e.ts! <= x.to.ts! + PAST_SILENCE_MS);
  const duringSilence = (e: RmqEvent): boolean => e.ts !== null && out.silences.some((x) => within(e, x));
  /**
   * Kept for the short silences it falls in: left out again unless one of them is kept. Asked only
   * of an event in no other silence (its callers tried duringSilence first).
   */
  const keptForShort = (e: RmqEvent): boolean => {
    if (e.ts === null || !shortSilences.length) return false;
    const list = shortSilences.filter((x) => within(e, x));
    if (list.length) shortKept.set(`${e.file}|${e.line}|${e.seq}`, list);
    return list.length > 0;
  };
  const wanted = wantedReader(out, keep, lighten, duringSilence, keptForShort, regFailed);
  const clientChannel = clientChannelReader(out, keep, usualKey, lighten);
  const { consumeFailure, flowWarning, consumeStat } = consumerReaders(out, lighten);
  let past = false;
  // Of the records that are no event, only those a timeline for inference keeps: a timeline that
  // kept them all (the TUI's) would otherwise count the rest as another host's lines during a
  // silence, and find a fault analyze does not.
  const readsOther = opts.otherRead === true ? null : inferenceReader();
  const visit = (e: RmqEvent): void => {
    // The timeline is in time order: past `last` (the end of what a run covers) nothing is read.
    if (past || !COLLECTED_TYPES.has(e.type) || (e.type === 'other' && readsOther !== null && !readsOther(e))) return;
    if (last !== null && e.ts !== null && e.ts > last) {
      past = true;
      return;
    }
    if (e.ts !== null) {
      // What other hosts wrote while a host was silent.
      while (nextSilence < pendingSilences.length && pendingSilences[nextSilence].from.ts! < e.ts) underWay.push(pendingSilences[nextSilence++]);
      if (underWay.length) {
        underWay = underWay.filter((x) => x.to === null || x.to.ts! > e.ts!);
        for (const x of underWay) if (x.host !== e.host) x.othersLogged++;
      }
    }
    const kind = kindOf.get(e.file) ?? e.kind;
    if (clientChannel(e, kind)) return;
    if (e.type === 'watermark') {
      out.clocked.add(e.host);
      if (e.fields.queue === 'Send' && e.ts !== null) {
        const last = lastSendMark.get(e.host);
        if (last !== undefined && e.ts - last > WATERMARK_SILENT_MS) {
          const gaps = out.watermarkGaps.get(e.host) ?? [];
          if (gaps.length < KEEP_CAP) gaps.push([last, e.ts]);
          out.watermarkGaps.set(e.host, gaps);
        }
        if (last === undefined || e.ts > last) lastSendMark.set(e.host, e.ts);
      }
      if (e.fields.queue === 'Send' && typeof e.fields.slowMs === 'number' && e.fields.slowMs >= 100) {
        const list = out.watermarkHigh.get(e.host) ?? [];
        // Read for their times and cited by file:line, as the kept events are.
        if (list.length < KEEP_CAP) list.push(lighten(e));
        out.watermarkHigh.set(e.host, list);
      }
      return;
    }
    if (e.type === 'store-slow' && e.fields.what === 'pagecachert') return;
    if (e.type === 'stats') {
      if (kind === 'client' && CONSUMER_STATS.has(String(e.fields.stat)) && e.fields.window === 'minute') {
        if (keep(e, `stats ${e.host} ${String(e.fields.stat)}`)) consumeStat(e);
        return;
      }
      if (kind === 'stats' && e.fields.window === 'minute' && e.ts !== null) {
        const span = out.statsSpan.get(e.host);
        if (!span) out.statsSpan.set(e.host, { first: e.ts, last: e.ts });
        else span.last = Math.max(span.last, e.ts);
      }
      if (e.fields.stat === 'TOPIC_PUT_NUMS' && e.fields.window === 'minute' && e.ts !== null && typeof e.fields.sum === 'number' && keep(e)) {
        out.topicPuts.push({ host: e.host, topic: String(e.fields.key), ts: e.ts, sum: e.fields.sum, tps: typeof e.fields.tps === 'number' ? e.fields.tps : e.fields.sum / 60, event: lighten(e) });
      }
      // Of the group statistics only a pop retry topic's sends back (%RETRY%G_T@G or %RETRY%G+T@G): its DLQ forwards.
      else if (e.fields.stat === 'SNDBCK_PUT_NUMS' && e.fields.window === 'minute' && e.ts !== null && typeof e.fields.sum === 'number' && /^%RETRY%([^@]+)[_+][^@]*@\1$/.test(String(e.fields.key)) && keep(e)) {
        out.popDlqPuts.push({ host: e.host, key: String(e.fields.key), ts: e.ts, sum: e.fields.sum, event: lighten(e) });
      }
      return;
    }
    if (e.type === 'broker-registered') {
      // The last registration before a silence sets the NameServers' expiry.
      if (e.kind === 'broker' && e.ts !== null) {
        for (const list of [out.silences, shortSilences])
          for (const x of list) {
            if (x.host === e.host && x.from.ts! >= e.ts) x.lastRegistration = e;
            else if (x.host !== e.host && e.ts > x.from.ts! && e.ts <= x.from.ts! + REGISTERED_AFTER_MS && typeof e.fields.namesrvAddr === 'string') x.registeredAfter.set(e.fields.namesrvAddr, lighten(e));
          }
      }
      const back = e.kind === 'broker' && typeof e.fields.namesrvAddr === 'string' ? `${e.host} ${e.fields.namesrvAddr}` : null;
      const failed = back === null ? undefined : regFailed.get(back);
      if (failed !== undefined && back !== null) {
        regFailed.delete(back);
        if (out.registrationsBack.length < KEEP_CAP) out.registrationsBack.push({ failed, ok: lighten(e) });
      }
      // Every broker re-registers every 30 s: its first registrations at each NameServer say all
      // inference reads, besides the last one before a silence (kept on the silence).
      if (keep(e, `${e.type} ${e.host} ${e.kind} ${String(e.fields.namesrvAddr)} ${String(e.fields.brokerAddr)}`, REGISTRATIONS_KEPT)) out.events.push(e);
      return;
    }
    if (e.type === 'pipeline' && kind === 'namesrv' && e.fields.event === 'active') {
      // The connections a NameServer accepted matter only next to a client choosing a NameServer.
      if (e.ts !== null && e.ts <= acceptUntil) {
        if (keep(e)) out.events.push(e);
      } else if (e.ts !== null) {
        recentAccepts.push(e);
        while (recentAccepts.length > 4096 || e.ts - recentAccepts[0].ts! > ACCEPT_WINDOW_MS) recentAccepts.shift();
      }
      return;
    }
    if (e.type === 'namesrv-chosen' && kind === 'client' && e.ts !== null) {
      for (const a of recentAccepts) if (e.ts - a.ts! <= ACCEPT_WINDOW_MS && keep(a)) out.events.push(a);
      recentAccepts = [];
      acceptUntil = e.ts + ACCEPT_WINDOW_MS;
    }
    // Pipeline: resets seen by peers, and the connections clients opened (a silent host that still
    // accepts them only stopped its processes).
    if (CONSUMER_KEPT.has(e.type)) {
      if (e.type === 'flow-control') {
        flowWarning(e);
        return;
      }
      // Counted against the cap as every kept line is (the note of what a cap left out is the same).
      if (!keep(e)) return;
      if (e.type === 'consume-failed') {
        consumeFailure(e);
        return;
      }
      if (e.type === 'consumer-changed' && SERVER_KINDS.has(kind) && SERVER_KINDS.has(e.kind)) consumerKept.book(e, out.events.length);
      else if (e.type === 'rebalance') consumerKept.rebalance(e, out.events.length);
      else out.events.push(lighten(e));
      return;
    }
    if (KEPT.has(e.type) || (e.type === 'pipeline' && (e.fields.event === 'exception' || (e.fields.side === 'client' && e.fields.event === 'connect')))) {
      // Resets and reconnects tell inference about a silent host (infer/faults.ts reads them from a
      // silence's start to 5 s past its end): elsewhere they are the ordinary churn of channels, but
      // for the resets a client got, which end a network partition (partitionFaults).
      const clientReset = kind === 'client' && e.fields.side === 'client' && e.fields.event === 'exception';
      if (e.type === 'pipeline' && !duringSilence(e) && !clientReset && !keptForShort(e)) return;
      if (!wanted(e)) return;
      if (!keep(e)) return;
      out.events.push(lighten(e));
      // A consumer's start line, as inference takes them (infer/consumers.ts): it tells which of the book's connections and the host's rebalances are read.
      if (e.type === 'startup' && e.kind === 'client' && e.fields.role === 'consumer' && typeof e.fields.group === 'string' && e.ts !== null) consumerKept.start(e.host, e.fields.group, e.ts);
      // A SimpleConsumer's start prints its client id, not its group: the broker's connections of that id name it.
      if (e.type === 'startup' && e.kind === 'client' && e.entry === 'startup/grpc-simple-consumer') {
        const id = /clientId=([^,\s]+)/.exec(e.text)?.[1];
        if (id) consumerKept.simpleStart(id);
      }
      return;
    }
    if (e.type !== 'other') return;
    if (SERVER_KINDS.has(kind)) serverRecord(out, e, kind, linked);
    else if (kind === 'app') appRecord(out, e, keepTimes);
  };
  const finish = (): Collected => {
    const stops = shortStops(out, shortSilences);
    if (stops.length) out.silences = [...out.silences, ...stops].sort((a, b) => a.from.ts! - b.from.ts! || a.host.localeCompare(b.host));
    // (The consumer lines are merged in by the kept events' indexes: before any is left out.)
    out.events = consumerKept.merge(out.events);
    if (shortKept.size) out.events = out.events.filter((e) => !(shortKept.get(`${e.file}|${e.line}|${e.seq}`)?.every((x) => !stops.includes(x)) ?? false));
    return out;
  };
  return { types: COLLECTED_TYPES, visit, finish };
}


/**
 * A client's channels closed on timeout, and the timeouts that closed none (keptTimedOut); the
 * first `async send msg by retry` of each client (an asynchronous sender's: infer/clients.ts).
 * The reader returns true when the event is read here and nowhere else.
 */
function clientChannelReader(out: Collected, keep: (e: RmqEvent, key?: string, cap?: number) => boolean, usualKey: (e: RmqEvent) => string, lighten: (e: RmqEvent) => RmqEvent): (e: RmqEvent, kind: string) => boolean {
  /** Per `host addr`, a client's last `close socket because of timeout`. */
  const timeoutCloses = new Map<string, number>();
  return (e: RmqEvent, kind: string): boolean => {
    if (e.type !== 'channel-closed' && e.type !== 'send-async-retry' && e.entry !== 'rpc-timeout/invoke-sync-wait') return false;
    if (kind !== 'client' || e.ts === null) return e.type !== 'rpc-timeout';
    if (e.entry === 'channel-closed/timeout') timeoutCloses.set(`${e.host} ${e.thread ?? ''} ${String(e.fields.addr)}`, e.ts);
    else if (e.type === 'send-async-retry') {
      if (keep(e, usualKey(e), 1)) out.events.push(lighten(e));
    } else if (e.type === 'rpc-timeout' && !out.keptTimedOut.has(e.host)) {
      const closed = timeoutCloses.get(`${e.host} ${e.thread ?? ''} ${String(e.fields.addr)}`);
      if (closed === undefined || e.ts - closed > CLOSE_BEFORE_WAIT_MS) out.keptTimedOut.set(e.host, lighten(e));
    }
    return e.type !== 'rpc-timeout';
  };
}

/**
 * Of some types inference reads only what is near something else (infer/faults.ts, infer/hosts.ts):
 * elsewhere they recur all along a long log and tell it nothing. A client's invokeSync timeouts
 * are counted outside a silence, so their times are kept (`syncTimeouts`) instead.
 */
function wantedReader(
  out: Collected,
  keep: (e: RmqEvent, key?: string, cap?: number) => boolean,
  lighten: (e: RmqEvent) => RmqEvent,
  duringSilence: (e: RmqEvent) => boolean,
  keptForShort: (e: RmqEvent) => boolean,
  regFailed: Map<string, RmqEvent>,
): (e: RmqEvent) => boolean {
  // Store lines of the last STORE_WINDOW_MS, and until when those that follow are kept.
  let recentStore: RmqEvent[] = [];
  let storeUntil = -Infinity;
  return (e: RmqEvent): boolean => {
    switch (e.type) {
      case 'rpc-timeout':
      case 'send-request-failed':
        // Timeouts against a silent host tell how it failed; a client's are also counted for its impact.
        if (isSyncTimeout(e) && e.ts !== null) {
          const times = out.syncTimeouts.get(e.host);
          if (!times) out.syncTimeouts.set(e.host, [e.ts]);
          else if (times.length < SYNC_TIMEOUTS_KEPT) times.push(e.ts);
        }
        // An application's failed one-attempt or async send (a request timed out or could not be
        // written): a send it lost, counted for its impact; else the retry loop's, which it retried.
        return duringSilence(e) || (e.kind === 'app' && isAppFailure(e)) || keptForShort(e);
      case 'async-timeout':
        // An ASYNC send's request that timed out (infer/avoidance.ts, the send budget); a pull's tells only of a silent host.
        return isSendCallbackClass(e.fields.callback) || duringSilence(e) || keptForShort(e);
      case 'register-failed':
        // The last failure to each NameServer, until a registration there is answered again (registrationsBack).
        if (e.kind === 'broker' && e.ts !== null && typeof e.fields.namesrvAddr === 'string' && regFailed.size < KEEP_CAP) regFailed.set(`${e.host} ${e.fields.namesrvAddr}`, lighten(e));
        // A broker's failed registrations: against a silent NameServer, or the first few naming each NameServer's address.
        return duringSilence(e) || keep(e, `${e.type} ${e.host} ${e.kind} ${String(e.fields.namesrvAddr)}`, REGISTRATIONS_KEPT);
      case 'store-slow':
        // A put slow in the commit log's lock is read beside a client's busy reply (within STORE_WINDOW_MS).
        if (e.fields.what !== 'in-lock' || e.ts === null) return false;
        if (e.ts <= storeUntil) return true;
        recentStore.push(e);
        while (recentStore.length > 4096 || e.ts - recentStore[0].ts! > STORE_WINDOW_MS) recentStore.shift();
        return false;
      case 'busy-reply':
        if (e.kind === 'client' && e.ts !== null) {
          for (const x of recentStore) if (e.ts - x.ts! <= STORE_WINDOW_MS && keep(x)) out.events.push(lighten(x));
          recentStore = [];
          storeUntil = e.ts + STORE_WINDOW_MS;
        }
        return true;
      default:
        return true;
    }
  };
}

/**
 * The consumer side's readers of the collect pass: consume failures (each kept as a row, the first
 * CITED_FAILURES lines of each host, group and reconsume count cited), flow-control warnings (their
 * minutes and their lines up to FLOW_LINES_KEPT a host) and the clients' consume statistics (a
 * minute's lines joined into one).
 */
function consumerReaders(out: Collected, lighten: (e: RmqEvent) => RmqEvent): { consumeFailure: (e: RmqEvent) => void; flowWarning: (e: RmqEvent) => void; consumeStat: (e: RmqEvent) => void } {
  const cited = new Map<string, number>();
  const consumeFailure = (e: RmqEvent): void => {
    if (e.ts === null || e.kind !== 'client') return;
    const group = typeof e.fields.group === 'string' ? e.fields.group : null;
    const reconsumeTimes = typeof e.fields.reconsumeTimes === 'number' ? e.fields.reconsumeTimes : null;
    const rows = out.consumeFailures.get(e.host);
    const row = { ts: e.ts, group, thrown: e.entry === 'consume-failed/exception', reconsumeTimes };
    if (rows) rows.push(row);
    else out.consumeFailures.set(e.host, [row]);
    const key = `${e.host}|${group}|${reconsumeTimes}`;
    const n = cited.get(key) ?? 0;
    if (n < CITED_FAILURES) {
      cited.set(key, n + 1);
      out.consumeFailureLines.push(lighten(e));
    }
  };
  /** Per host and group: its flow-control warnings; per host: the lines kept of them. */
  const flowOf = new Map<string, FlowWarnings>();
  const flowLines = new Map<string, number>();
  /**
   * A flow-control warning: its minute, and its line while the host has fewer than FLOW_LINES_KEPT
   * (besides the first of each host and group, and its first of the count limit that prints the
   * threshold: inference cites those).
   */
  const flowWarning = (e: RmqEvent): void => {
    let f: FlowWarnings | undefined;
    let first = false;
    if (e.kind === 'client' && e.ts !== null) {
      const group = typeof e.fields.group === 'string' ? e.fields.group : null;
      const key = group === null ? e.host : `${e.host}\n${group}`;
      f = flowOf.get(key);
      if (!f) {
        first = true;
        flowOf.set(key, (f = { host: e.host, group, first: e, minutes: [], repeated: [], left: 0, threshold: false }));
        out.flowWarnings.push(f);
      }
      const end = Math.ceil(e.ts / 60000) * 60000;
      if (f.minutes[f.minutes.length - 1] !== end) {
        if (f.minutes.length < KEEP_CAP) f.minutes.push(end);
        else f.left++;
      } else if (f.repeated[f.repeated.length - 1] !== end && f.repeated.length < KEEP_CAP) f.repeated.push(end);
    }
    const threshold = f !== undefined && !f.threshold && e.fields.limit === 'count' && typeof e.fields.threshold === 'number';
    const n = flowLines.get(e.host) ?? 0;
    if (n >= FLOW_LINES_KEPT && !first && !threshold) {
      out.flowLinesLeft.set(e.host, (out.flowLinesLeft.get(e.host) ?? 0) + 1);
      return;
    }
    flowLines.set(e.host, n + 1);
    const light = lighten(e);
    if (f && first) f.first = light;
    if (f && threshold) f.threshold = true;
    out.events.push(light);
  };
  /** Per `host key`: its minute being read (a minute's three lines come together). */
  const statMinutes = new Map<string, ConsumeStatMinute>();
  let rtSeq = 0;
  /** Hosts, keys and files of the statistics, one string each (weeks of minutes name the same few). */
  const statStrings = new Map<string, string>();
  const one = (x: string): string => {
    const y = statStrings.get(x);
    if (y !== undefined) return y;
    statStrings.set(x, x);
    return x;
  };
  const consumeStat = (e: RmqEvent): void => {
    if (e.ts === null) return;
    const key = String(e.fields.key);
    const at = Math.round(e.ts / 60000) * 60000;
    const hk = `${e.host} ${key}`;
    let m = statMinutes.get(hk);
    if (!m || m.at !== at || m.file !== e.file) {
      m = { host: one(e.host), key: one(key), at, lastTs: e.ts, file: one(e.file), line: e.line, whole: true, times: 0, rtSum: 0, ok: 0, failed: 0, rtLine: null, rtSeq: 0 };
      statMinutes.set(hk, m);
      out.consumeStats.push(m);
    }
    m.lastTs = Math.max(m.lastTs, e.ts);
    m.whole &&= e.ts % 1000 === 0;
    const sum = Number(e.fields.sum ?? 0);
    if (e.fields.stat === 'CONSUME_RT') {
      // stats/in-one reads CONSUME_RT as StatsItem's older wording: `sum` the total ms, `avgpt` the
      // average; `times` is the count where the client printed it (RTStatsItem: `TIMES: n AVGRT:`),
      // else the total over the average.
      const avg = Number(e.fields.avgpt ?? 0);
      m.times += typeof e.fields.times === 'number' ? e.fields.times : avg > 0 ? Math.round(sum / avg) : 0;
      m.rtSum += sum;
      if (m.rtLine === null) {
        m.rtLine = e.line;
        m.rtSeq = rtSeq++;
      }
    } else if (e.fields.stat === 'CONSUME_OK_TPS') m.ok += sum;
    else m.failed += sum;
  };
  return { consumeFailure, flowWarning, consumeStat };
}

/**
 * What inference reads of a kept event, in as few bytes as it can be (a copy: the event may also
 * be a rule's evidence, analyze feeds both from one pass). Inference reads the text of start
 * lines and of routes only (fields and file:line otherwise). A client logs the same route dumps
 * again and again (a route that flaps between two states): a dump's text is kept the first
 * ROUTE_TEXTS_KEPT times its client logs it for its topic, which are all the readers take (the
 * first three lines naming a broker's address; the union of the dumps' brokers and queues). The
 * strings that repeat from event to event (names, threads, loggers, catalogue entries, short
 * field values) are shared, not one copy per event.
 */
function lightener(): (e: RmqEvent) => RmqEvent {
  const routeDumps = new Map<string, number>();
  const shared = interner();
  const strings = shared.string;
  return (e: RmqEvent): RmqEvent => {
    let text = '';
    // An offset reset's text holds the time it resets to (`timestamp=`): no field carries it.
    if (e.type === 'startup' || e.type === 'offset-reset') text = e.text;
    else if (e.type === 'route-changed') {
      const key = `${e.host} ${String(e.fields.topic)} ${routeDumpKey(e.text)}`;
      const n = routeDumps.get(key) ?? 0;
      if (n < ROUTE_TEXTS_KEPT) {
        routeDumps.set(key, n + 1);
        text = e.text;
      }
    }
    const out: RmqEvent = {
      ts: e.ts,
      host: strings(e.host),
      kind: e.kind,
      file: strings(e.file),
      line: e.line,
      level: e.level === null ? null : strings(e.level),
      thread: e.thread === null ? null : strings(e.thread),
      logger: e.logger === null ? null : strings(e.logger),
      type: e.type,
      fields: sharedFields(e.fields, shared),
      text,
      source: e.source,
      seq: e.seq,
    };
    if (e.clock !== undefined) out.clock = strings(e.clock);
    if (e.entry !== undefined) out.entry = strings(e.entry);
    if (e.versionHint !== undefined) out.versionHint = strings(e.versionHint);
    if (e.sendPath !== undefined) out.sendPath = e.sendPath;
    return out;
  };
}

/** A server's record that is no event: a line of its property dump, or a producer connection it logged. */
function serverRecord(out: Collected, e: RmqEvent, kind: string, linked: Set<string>): void {
  const p = propLine(e.text);
  if (p && (e.thread === 'main' || e.thread === null)) {
    const key = `${e.host}|${kind}`;
    const map = out.props.get(key) ?? new Map();
    map.set(p[1], { value: p[2], event: e });
    out.props.set(key, map);
    return;
  }
  const l = PRODUCER_LINK.exec(e.text);
  // A broker logs every producer connection: the first one per host and local address tells the address.
  if (l && !linked.has(`${e.host} ${l[1]}`)) {
    linked.add(`${e.host} ${l[1]}`);
    out.producerLinks.push({ host: e.host, local: l[1], remoteIp: l[2], event: e });
  }
}

/** An application's record that is no event: a sent message, its statistics, its producer settings. */
function appRecord(out: Collected, e: RmqEvent, keepTimes: boolean): void {
  if (APP_SEND.test(e.text) && e.level !== 'ERROR' && e.level !== 'WARN') {
    const s = out.appSends.get(e.host);
    if (!s) out.appSends.set(e.host, { count: 1, firstEvent: e, lastEvent: e, times: !keepTimes ? null : e.ts !== null ? [e.ts] : [] });
    else {
      s.count++;
      s.lastEvent = e;
      // Past the limit a run cannot replay them one by one anyway (inference then sends at the rate).
      if (s.times !== null && e.ts !== null && s.times.length <= LIMITS.sendTimes) s.times.push(e.ts);
    }
  }
  const st = APP_STATS.exec(e.text);
  if (st && e.ts !== null) {
    const n = Number(st[1]) + (st[2] ? Number(st[2]) : 0);
    const a = out.appStats.get(e.host);
    if (!a) out.appStats.set(e.host, { count: 1, total: n, first: { ts: e.ts, event: e }, last: { ts: e.ts, event: e }, gaps: [] });
    else {
      if (a.gaps.length < KEEP_CAP) a.gaps.push(e.ts - a.last.ts);
      a.count++;
      a.total += n;
      a.last = { ts: e.ts, event: e };
    }
  }
  for (const m of e.text.matchAll(APP_SETTING)) {
    const map = out.appProps.get(e.host) ?? new Map();
    if (!map.has(m[1])) map.set(m[1], { value: m[2], event: e });
    out.appProps.set(e.host, map);
  }
}

/**
 * Each server host's silences of 30 s or more, from its sources' activity (every record they wrote,
 * src/parse/activity.ts): the same whether the timeline kept records that are no event or not. A
 * silence that goes past `last` (the end of what a run covers) lasts to the end. `othersLogged`
 * starts with the other hosts' server logs that wrote meanwhile; collect() adds the events.
 */
function serverSilences(sources: readonly SourceAccounting[], last: number | null): { list: Silence[]; short: Silence[]; lines: Map<string, HostLines> } {
  const byHost = new Map<string, Array<{ index: number; activity: NonNullable<SourceAccounting['activity']> }>>();
  sources.forEach((s, index) => {
    if (!SERVER_KINDS.has(s.kind) || !s.activity) return;
    const list = byHost.get(s.host) ?? [];
    list.push({ index, activity: s.activity });
    byHost.set(s.host, list);
  });
  const lines = new Map<string, HostLines>();
  const list: Silence[] = [];
  const short: Silence[] = [];
  const stand = (source: number, m: ActivityMark): RmqEvent => {
    const src = sources[source];
    return { ts: m.ts, host: src.host, kind: src.kind, file: src.path, line: m.line, level: null, thread: null, logger: null, type: 'other', fields: {}, text: '', source, seq: 0 };
  };
  for (const [host, own] of byHost) {
    let count = 0;
    let first = Infinity;
    let lastTs = -Infinity;
    for (const { activity: a } of own) {
      count += a.records;
      first = Math.min(first, a.first.ts);
      lastTs = Math.max(lastTs, a.last.ts);
    }
    lines.set(host, { count, first, last: lastTs });
    // The silences of 30 s or more, and apart the shorter ones (from the short gaps too) that end.
    const long = hostSilences(host, own, last).map((h) => ({ h, isShort: false }));
    const shorter = hostSilences(host, own, last, ACTIVITY_SHORT_GAP_MS)
      .filter((h) => h.to !== null && h.to.mark.ts - h.from.mark.ts < ACTIVITY_GAP_MS)
      .map((h) => ({ h, isShort: true }));
    for (const { h, isShort } of [...long, ...shorter]) {
      if (last !== null && h.from.mark.ts > last) continue;
      const to = h.to && (last === null || h.to.mark.ts <= last) ? stand(h.to.source, h.to.mark) : null;
      if (!isShort && to === null && last !== null && last - h.from.mark.ts < ACTIVITY_GAP_MS) continue;
      // A short silence that does not end in the logs is the logs' end, not a stop.
      if (isShort && to === null) continue;
      const s: Silence = { host, from: stand(h.from.source, h.from.mark), to, othersLogged: 0, lastRegistration: null, registeredAfter: new Map() };
      const until = to?.ts ?? last ?? Infinity;
      for (const [other, theirs] of byHost) {
        if (other === host) continue;
        if (theirs.some(({ activity: a }) => activeWithin(a, s.from.ts!, until))) s.othersLogged++;
      }
      (isShort ? short : list).push(s);
    }
  }
  return { list, short, lines };
}

/**
 * The short silences that were a stop: of a host that writes every second (its watermark), ended
 * by its broker's or NameServer's boot (BrokerStartup / NamesrvStartup `boot success`) within
 * BOOT_AFTER_SHORT_SILENCE_MS, with no shutdown hook logged since the host's boot before (a
 * restart's hook: restartFaults places those; gen-709's broker ran its hook 23 s before it fell
 * silent, shutting down, and booted 20 s later). A host that logs every second and boots again was
 * gone from its last line on (gen-702's mq-node-b, rebooted for 20 s: silent 21 s, then its
 * NameServer's boot). A pause that resumes with no boot is no stop: only 30 s or more make a
 * silence of it.
 */
function shortStops(out: Collected, short: readonly Silence[]): Silence[] {
  if (!short.length) return [];
  return short.filter((s) => {
    if (!out.clocked.has(s.host) || s.to === null) return false;
    const from = s.from.ts!;
    const to = s.to.ts!;
    const boots = out.events.filter((e) => e.host === s.host && e.type === 'startup' && (e.fields.role === 'broker' || e.fields.role === 'namesrv') && e.ts !== null);
    const boot = boots.find((e) => e.ts! >= to && e.ts! <= to + BOOT_AFTER_SHORT_SILENCE_MS);
    if (!boot) return false;
    const since = Math.max(-Infinity, ...boots.filter((e) => e.ts! < from).map((e) => e.ts!));
    return !out.events.some((e) => e.host === s.host && e.type === 'shutdown' && e.ts !== null && e.ts > since && e.ts <= boot.ts!);
  });
}

/** Whether a source wrote a record strictly between `from` and `to`. */
function activeWithin(a: NonNullable<SourceAccounting['activity']>, from: number, to: number): boolean {
  if (a.last.ts <= from || a.first.ts >= to) return false;
  // Silent in between only if one gap covers the whole stretch.
  return !a.gaps.some((g) => g.from.ts <= from && g.to.ts >= to);
}

/** One shared copy of each short string and list of names it is given (up to INTERNED_MAX of each). */
interface Interner {
  string(v: string): string;
  list<T extends readonly unknown[]>(v: T): T;
}

function interner(): Interner {
  const strings = new Map<string, string>();
  const lists = new Map<string, readonly unknown[]>();
  const string = (v: string): string => {
    const had = strings.get(v);
    if (had !== undefined) return had;
    if (strings.size < INTERNED_MAX && v.length <= INTERNED_LENGTH) strings.set(v, v);
    return v;
  };
  return {
    string,
    // Routes repeat the same few lists of brokers; none is changed after parsing.
    list<T extends readonly unknown[]>(v: T): T {
      const key = v.join('\u0000');
      const had = lists.get(key);
      if (had !== undefined && had.length === v.length && had.every((x, i) => x === v[i])) return had as T;
      const copy = v.map((x) => (typeof x === 'string' ? string(x) : x)) as unknown as T;
      if (lists.size < INTERNED_MAX && key.length <= INTERNED_LENGTH * 4) lists.set(key, copy);
      return copy;
    },
  };
}

/**
 * An event's fields with their short strings and lists of names shared. A send's InvokeID is
 * dropped: unique to each send, and nothing of inference reads it.
 */
function sharedFields(fields: RmqEvent['fields'], shared: Interner): RmqEvent['fields'] {
  const out: RmqEvent['fields'] = {};
  for (const [k, v] of Object.entries(fields)) {
    if (k === 'invokeId') continue;
    if (typeof v === 'string') out[k] = shared.string(v);
    else if (Array.isArray(v)) out[k] = shared.list(v);
    else out[k] = v;
  }
  return out;
}

/**
 * What tells one route dump from another: its text after the first TopicRouteData (the header
 * before it holds the time), as two 32-bit FNV-1a style hashes and the length (the text itself
 * would cost what it saves). Two characters a step: dumps run to kilobytes, and a client logs
 * thousands.
 */
function routeDumpKey(text: string): string {
  const at = text.indexOf('TopicRouteData');
  let a = 0x811c9dc5;
  let b = 0x01000193;
  const end = text.length;
  let i = at < 0 ? 0 : at;
  for (; i + 1 < end; i += 2) {
    const w = text.charCodeAt(i) | (text.charCodeAt(i + 1) << 16);
    a = Math.imul(a ^ w, 0x01000193);
    b = Math.imul(b ^ w, 0x5bd1e995);
  }
  if (i < end) {
    a = Math.imul(a ^ text.charCodeAt(i), 0x01000193);
    b = Math.imul(b ^ text.charCodeAt(i), 0x5bd1e995);
  }
  return `${text.length - at} ${a >>> 0} ${b >>> 0}`;
}
