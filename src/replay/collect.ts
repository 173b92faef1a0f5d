// One pass over a merged timeline (records that match no RocketMQ message included) keeping what
// inference needs: the typed events it reads, each server host's silences, watermark lines above the
// busy threshold, property dumps of the servers, the addresses brokers print for their producer
// connections, and the applications' own send lines. Bounded by the number of interesting lines,
// not by the size of the input.

import type { RmqEvent, SourceAccounting, SourceKind } from '../parse/types.js';

export const SERVER_KINDS: ReadonlySet<SourceKind> = new Set(['namesrv', 'broker', 'remoting', 'store', 'watermark', 'stats']);

/** Typed events kept (watermark and the store's periodic histogram are summarised instead). */
const KEPT = new Set([
  'busy-reply',
  'send-attempt-failed',
  'send-failed',
  'send-call-timeout',
  'rpc-timeout',
  'connect-failed',
  'channel-closed',
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

export interface Silence {
  host: string;
  /** Last line before the silence, and the first line after it (null: silent until the end). */
  from: RmqEvent;
  to: RmqEvent | null;
  /** Lines other hosts wrote meanwhile. */
  othersLogged: number;
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
  /** Application statistics lines `sent=N[, failed=M]`, per host. */
  appStats: Map<string, Array<{ ts: number; sent: number; failed: number; event: RmqEvent }>>;
  /** Application `key=value` settings of the producer (`sendMsgTimeout=3000`), per host. */
  appProps: Map<string, Map<string, { value: string; event: RmqEvent }>>;
  /** Brokers' stats.log `[TOPIC_PUT_NUMS] [topic] Stats In One Minute, SUM: n`: messages stored per topic, broker host and minute. */
  topicPuts: Array<{ host: string; topic: string; ts: number; sum: number; event: RmqEvent }>;
}

const PROP_LINE = / - ([A-Za-z][A-Za-z0-9]*)=([^\s,;]*)\s*$/;
const PRODUCER_LINK = /new producer connected.*?L:\/?(\d{1,3}(?:\.\d{1,3}){3}:\d+) - R:\/?(\d{1,3}(?:\.\d{1,3}){3}):\d+/;
const APP_SEND = /msgId=|SEND_OK|sendStatus=SEND_OK/;
const APP_STATS = /\bsent=(\d+)(?:,\s*failed=(\d+))?/;
const APP_SETTING = /\b(sendMsgTimeout|retryTimesWhenSendFailed|sendLatencyFaultEnable|namesrvAddr)=([^\s,]+)/g;

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
    topicPuts: [],
  };
  let counter = 0;
  for (const e of events) {
    counter++;
    const kind = kindOf.get(e.file) ?? e.kind;
    if (e.ts !== null && SERVER_KINDS.has(kind)) {
      const h = out.serverLines.get(e.host);
      if (!h) out.serverLines.set(e.host, { count: 1, first: e.ts, last: e.ts, lastEvent: e, mark: counter });
      else {
        if (e.ts - h.last >= MIN_SILENCE_MS) out.silences.push({ host: e.host, from: h.lastEvent, to: e, othersLogged: counter - h.mark - 1 });
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
      if (e.fields.stat === 'TOPIC_PUT_NUMS' && e.fields.window === 'minute' && e.ts !== null && typeof e.fields.sum === 'number') {
        out.topicPuts.push({ host: e.host, topic: String(e.fields.key), ts: e.ts, sum: e.fields.sum, event: e });
      }
      continue;
    }
    // Pipeline: resets seen by peers, the connections a NameServer accepted (who talked to it), and
    // the connections clients opened (a silent host that still accepts them only stopped its processes).
    if (
      KEPT.has(e.type) ||
      (e.type === 'pipeline' && (e.fields.event === 'exception' || (kind === 'namesrv' && e.fields.event === 'active') || (e.fields.side === 'client' && e.fields.event === 'connect')))
    ) {
      out.events.push(e);
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
      if (l) out.producerLinks.push({ host: e.host, local: l[1], remoteIp: l[2], event: e });
      continue;
    }
    if (kind === 'app') {
      if (APP_SEND.test(e.text) && e.level !== 'ERROR' && e.level !== 'WARN') {
        const s = out.appSends.get(e.host);
        if (!s) out.appSends.set(e.host, { count: 1, firstEvent: e, lastEvent: e, times: e.ts !== null ? [e.ts] : [] });
        else {
          s.count++;
          s.lastEvent = e;
          if (e.ts !== null) s.times.push(e.ts);
        }
      }
      const st = APP_STATS.exec(e.text);
      if (st && e.ts !== null) {
        const list = out.appStats.get(e.host) ?? [];
        list.push({ ts: e.ts, sent: Number(st[1]), failed: st[2] ? Number(st[2]) : 0, event: e });
        out.appStats.set(e.host, list);
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
      if (last - h.last >= MIN_SILENCE_MS) out.silences.push({ host, from: h.lastEvent, to: null, othersLogged: counter - h.mark });
    }
  }
  return out;
}
