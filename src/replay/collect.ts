// One pass over a merged timeline (records that match no RocketMQ message included) keeping what
// inference needs: the typed events it reads, each server host's silences, watermark lines above the
// busy threshold, property dumps of the servers, the addresses brokers print for their producer
// connections, and the applications' own send lines. Bounded whatever the size of the input: what
// recurs all along (registrations, accepted connections, producer connections, statistics lines)
// is kept as the few lines inference cites, and every kept list has a cap (KEEP_CAP per type and
// host, LIMITS.sendTimes send times per host); what a cap dropped is counted in `dropped`.

import type { RmqEvent, SourceAccounting, SourceKind } from '../parse/types.js';
import { decodeEvent } from '../parse/event-codec.js';
import type { MergedEvent } from '../timeline/merge.js';
import { LIMITS } from './file.js';

export const SERVER_KINDS: ReadonlySet<SourceKind> = new Set(['namesrv', 'broker', 'remoting', 'store', 'watermark', 'stats']);

/** Typed events kept (watermark and the store's periodic histogram are summarised instead). */
const KEPT = new Set([
  'busy-reply',
  'send-attempt-failed',
  'send-failed',
  'send-call-timeout',
  'rpc-timeout',
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
]);

/** A silence shorter than this is not looked at. */
export const MIN_SILENCE_MS = 30000;
/** Events of one type kept per host (failures of a long incident fit; a flood is cut). */
export const KEEP_CAP = 20000;
/** Registrations kept per broker host and NameServer: the first ones (inference cites three). */
const REGISTRATIONS_KEPT = 3;
/** A NameServer's accepted connections matter within this long of a client choosing a NameServer. */
const ACCEPT_WINDOW_MS = 2000;

export interface Silence {
  host: string;
  /** Last line before the silence, and the first line after it (null: silent until the end). */
  from: RmqEvent;
  to: RmqEvent | null;
  /** Lines other hosts wrote meanwhile. */
  othersLogged: number;
  /** The host's last own registration with a NameServer before the silence (it sets the expiry). */
  lastRegistration: RmqEvent | null;
}

export interface AppStats {
  count: number;
  /** Sent plus failed over all lines. */
  total: number;
  first: { ts: number; event: RmqEvent };
  last: { ts: number; event: RmqEvent };
  /** Milliseconds between consecutive lines (the first KEEP_CAP). */
  gaps: number[];
}

export interface HostLines {
  count: number;
  first: number;
  last: number;
  lastEvent: RmqEvent;
  /** Global line counter when this host last logged (to count what other hosts wrote meanwhile). */
  mark: number;
}

export interface Collected {
  sources: SourceAccounting[];
  /** Common folder of the inputs, for `file:line` references. */
  base: string;
  first: number | null;
  last: number | null;
  events: RmqEvent[];
  /** Server-log lines per host (every record, typed or not). */
  serverLines: Map<string, HostLines>;
  silences: Silence[];
  /** `Send` watermark lines whose head waited at least 100 ms, per host. */
  watermarkHigh: Map<string, RmqEvent[]>;
  /** Server property dumps (`key=value` lines of a process start), per `host|kind`: key -> last value and line. */
  props: Map<string, Map<string, { value: string; event: RmqEvent }>>;
  /** Broker-side `new producer connected ... L:/local - R:/remote`: the broker's own address on its host. */
  producerLinks: Array<{ host: string; local: string; remoteIp: string; event: RmqEvent }>;
  /** Application lines that report a sent message (`msgId=`, `SEND_OK`), per host. */
  appSends: Map<string, { count: number; firstEvent: RmqEvent; lastEvent: RmqEvent; times: number[] }>;
  /** Application statistics lines `sent=N[, failed=M]`, per host: their count and sum, the first and last, the gaps between them (capped). */
  appStats: Map<string, AppStats>;
  /** Events a cap left out, per `type host`. */
  dropped: Map<string, number>;
  /** Application `key=value` settings of the producer (`sendMsgTimeout=3000`), per host. */
  appProps: Map<string, Map<string, { value: string; event: RmqEvent }>>;
  /** Brokers' stats.log `[TOPIC_PUT_NUMS] [topic] Stats In One Minute, SUM: n`: messages stored per topic, broker host and minute (capped). */
  topicPuts: Array<{ host: string; topic: string; ts: number; sum: number; event: RmqEvent }>;
}

const PROP_LINE = / - ([A-Za-z][A-Za-z0-9]*)=([^\s,;]*)\s*$/;
const PRODUCER_LINK = /new producer connected.*?L:\/?(\d{1,3}(?:\.\d{1,3}){3}:\d+) - R:\/?(\d{1,3}(?:\.\d{1,3}){3}):\d+/;
const APP_SEND = /msgId=|SEND_OK|sendStatus=SEND_OK/;
const APP_STATS = /\bsent=(\d+)(?:,\s*failed=(\d+))?/;
const APP_SETTING = /\b(sendMsgTimeout|retryTimesWhenSendFailed|sendLatencyFaultEnable|namesrvAddr)=([^\s,]+)/g;

const TYPE_AT = '"type":"';
const LINE_AT = '"line":';
const APP_HINT = /msgId=|SEND_OK|\bsent=\d|\b(?:sendMsgTimeout|retryTimesWhenSendFailed|sendLatencyFaultEnable|namesrvAddr)=/;

/**
 * The merged timeline as events for collect(), without decoding what it does not read: a record that
 * is no RocketMQ event (most of them) and holds nothing collect looks for (a server's start-up dump,
 * a producer connection, an application's send, statistics or settings line) becomes a small
 * stand-in with its time, host, kind, file and line only. Decoding every record made most of the
 * garbage (and so most of the memory) of an inference.
 */
export function* leanEvents(merged: Iterable<MergedEvent>, sources: readonly SourceAccounting[]): Generator<RmqEvent> {
  for (const m of merged) {
    const json = m.json;
    const at = json.indexOf(TYPE_AT);
    const isOther = json.startsWith('other"', at + TYPE_AT.length);
    const src = sources[m.source];
    if (isOther && src) {
      const server = SERVER_KINDS.has(src.kind);
      const wanted = server
        ? json.includes('new producer connected') || json.includes('"thread":"main"') || json.includes('"thread":null')
        : src.kind === 'app' && APP_HINT.test(json);
      if (!wanted) {
        const l = json.indexOf(LINE_AT);
        yield {
          ts: m.ts,
          host: src.host,
          kind: src.kind,
          file: src.path,
          line: l >= 0 ? parseInt(json.slice(l + LINE_AT.length, l + LINE_AT.length + 12), 10) : 0,
          level: null,
          thread: null,
          logger: null,
          type: 'other',
          fields: {},
          text: '',
          source: m.source,
          seq: m.seq,
        };
        continue;
      }
    }
    yield decodeEvent(m, m.source, m.seq);
  }
}

export function collect(events: Iterable<RmqEvent>, sources: SourceAccounting[], base: string, first: number | null, last: number | null): Collected {
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
    props: new Map(),
    producerLinks: [],
    appSends: new Map(),
    appStats: new Map(),
    appProps: new Map(),
    dropped: new Map(),
    topicPuts: [],
  };
  /** Each broker host's last registration so far (a silence keeps the one before it). */
  const lastReg = new Map<string, RmqEvent>();
  let counter = 0;
  const perKey = new Map<string, number>();
  /** Kept unless its type already has KEEP_CAP events from this host (then counted as dropped). */
  const keep = (e: RmqEvent, key = `${e.type} ${e.host}`, cap = KEEP_CAP): boolean => {
    const n = perKey.get(key) ?? 0;
    if (n >= cap) {
      if (cap === KEEP_CAP) out.dropped.set(key, (out.dropped.get(key) ?? 0) + 1);
      return false;
    }
    perKey.set(key, n + 1);
    return true;
  };
  // Accepted connections of the last ACCEPT_WINDOW_MS, and until when those that follow are kept.
  let recentAccepts: RmqEvent[] = [];
  let acceptUntil = -Infinity;
  const linked = new Set<string>();
  const lastRoute = new Map<string, string>();
  /**
   * Inference reads the text of start lines and of routes only (fields and file:line otherwise): a
   * kept event drops its text, and a route its text when it repeats the last one of its client and
   * topic (a client logs the same route dump again and again).
   */
  const lighten = (e: RmqEvent): RmqEvent => {
    if (e.type === 'route-changed') {
      const key = `${e.host} ${String(e.fields.topic)}`;
      if (lastRoute.get(key) === e.text) e.text = '';
      else lastRoute.set(key, e.text);
    } else if (e.type !== 'startup') e.text = '';
    return e;
  };
  for (const e of events) {
    // The timeline is in time order: past `last` (the end of what a run covers) nothing is read.
    if (last !== null && e.ts !== null && e.ts > last) break;
    counter++;
    const kind = kindOf.get(e.file) ?? e.kind;
    if (e.ts !== null && SERVER_KINDS.has(kind)) {
      const h = out.serverLines.get(e.host);
      if (!h) out.serverLines.set(e.host, { count: 1, first: e.ts, last: e.ts, lastEvent: e, mark: counter });
      else {
        if (e.ts - h.last >= MIN_SILENCE_MS) {
          out.silences.push({ host: e.host, from: h.lastEvent, to: e, othersLogged: counter - h.mark - 1, lastRegistration: lastReg.get(e.host) ?? null });
        }
        h.count++;
        if (e.ts >= h.last) {
          h.last = e.ts;
          h.lastEvent = e;
        }
        h.mark = counter;
      }
    }
    if (e.type === 'watermark') {
      if (e.fields.queue === 'Send' && typeof e.fields.slowMs === 'number' && e.fields.slowMs >= 100) {
        const list = out.watermarkHigh.get(e.host) ?? [];
        list.push(e);
        out.watermarkHigh.set(e.host, list);
      }
      continue;
    }
    if (e.type === 'store-slow' && e.fields.what === 'pagecachert') continue;
    if (e.type === 'stats') {
      if (e.fields.stat === 'TOPIC_PUT_NUMS' && e.fields.window === 'minute' && e.ts !== null && typeof e.fields.sum === 'number' && keep(e)) {
        out.topicPuts.push({ host: e.host, topic: String(e.fields.key), ts: e.ts, sum: e.fields.sum, event: e });
      }
      continue;
    }
    if (e.type === 'broker-registered') {
      if (e.kind === 'broker') lastReg.set(e.host, e);
      // Every broker re-registers every 30 s: its first registrations at each NameServer say all
      // inference reads, besides the last one before a silence (kept on the silence).
      if (keep(e, `${e.type} ${e.host} ${e.kind} ${String(e.fields.namesrvAddr)} ${String(e.fields.brokerAddr)}`, REGISTRATIONS_KEPT)) out.events.push(e);
      continue;
    }
    if (e.type === 'pipeline' && kind === 'namesrv' && e.fields.event === 'active') {
      // The connections a NameServer accepted matter only next to a client choosing a NameServer.
      if (e.ts !== null && e.ts <= acceptUntil) {
        if (keep(e)) out.events.push(e);
      } else if (e.ts !== null) {
        recentAccepts.push(e);
        while (recentAccepts.length > 4096 || e.ts - recentAccepts[0].ts! > ACCEPT_WINDOW_MS) recentAccepts.shift();
      }
      continue;
    }
    if (e.type === 'namesrv-chosen' && kind === 'client' && e.ts !== null) {
      for (const a of recentAccepts) if (e.ts - a.ts! <= ACCEPT_WINDOW_MS && keep(a)) out.events.push(a);
      recentAccepts = [];
      acceptUntil = e.ts + ACCEPT_WINDOW_MS;
    }
    // Pipeline: resets seen by peers, and the connections clients opened (a silent host that still
    // accepts them only stopped its processes).
    if (KEPT.has(e.type) || (e.type === 'pipeline' && (e.fields.event === 'exception' || (e.fields.side === 'client' && e.fields.event === 'connect')))) {
      if (keep(e)) out.events.push(lighten(e));
      continue;
    }
    if (e.type !== 'other') continue;
    if (SERVER_KINDS.has(kind)) {
      const p = PROP_LINE.exec(e.text);
      if (p && (e.thread === 'main' || e.thread === null)) {
        const key = `${e.host}|${kind}`;
        const map = out.props.get(key) ?? new Map();
        map.set(p[1], { value: p[2], event: e });
        out.props.set(key, map);
        continue;
      }
      const l = PRODUCER_LINK.exec(e.text);
      // A broker logs every producer connection: the first one per host and local address tells the address.
      if (l && !linked.has(`${e.host} ${l[1]}`)) {
        linked.add(`${e.host} ${l[1]}`);
        out.producerLinks.push({ host: e.host, local: l[1], remoteIp: l[2], event: e });
      }
      continue;
    }
    if (kind === 'app') {
      if (APP_SEND.test(e.text) && e.level !== 'ERROR' && e.level !== 'WARN') {
        const s = out.appSends.get(e.host);
        if (!s) out.appSends.set(e.host, { count: 1, firstEvent: e, lastEvent: e, times: e.ts !== null ? [e.ts] : [] });
        else {
          s.count++;
          s.lastEvent = e;
          // Past the limit a run cannot replay them one by one anyway (infer.ts then sends at the rate).
          if (e.ts !== null && s.times.length <= LIMITS.sendTimes) s.times.push(e.ts);
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
  }
  // Silences that last until the end of the logs.
  if (last !== null) {
    for (const [host, h] of out.serverLines) {
      if (last - h.last >= MIN_SILENCE_MS) out.silences.push({ host, from: h.lastEvent, to: null, othersLogged: counter - h.mark, lastRegistration: lastReg.get(host) ?? null });
    }
  }
  return out;
}
