// What the HTML report's timeline draws besides the findings and milestones: per host, its events
// and its sends (delivered and failed) per time bucket, as far as the logs show them (a RocketMQ
// client logs no successful send: only an application's own lines or statistics tell them), and the marks a picture needs (each client's
// NameServer bindings and switches). Read in the same pass as the rules (an observer of
// src/rules/analyze.ts), into a fixed number of buckets and a capped list of marks: bounded whatever
// the size of the input. It also keeps the text of the lines milestones name (the first and last
// few per type and host), so a mark can show its evidence line.

import type { EventType, RmqEvent, SourceAccounting } from '../../parse/types.js';
import { EVENT_TYPES } from '../../parse/types.js';
import { isAppFailure } from '../../parse/send-failure.js';
import { MILESTONE_EVENT_TYPES } from '../../rules/milestones.js';
import { APP_SEND, APP_STATS } from '../../timeline/other-records.js';

/** Time buckets of the timeline (its width in pixels is a multiple of this). */
export const ACTIVITY_BUCKETS = 240;
/** Marks kept per host and kind (the first ones and the last ones: a flapping client still shows its start and its end). */
export const MARKS_PER_HOST = 24;
/** Lines kept per milestone type and host for the marks' evidence: the first HEAD and the last TAIL. */
const LINES_HEAD = 60;
const LINES_TAIL = 20;
/** Log text is kept up to this length (a mark shows one line). */
const TEXT_MAX = 600;

export interface EvidenceLine {
  file: string;
  line: number;
  time: number | null;
  text: string;
}

export interface ActivityMark extends EvidenceLine {
  host: string;
  kind: 'namesrv-bind' | 'namesrv-switch';
  what: string;
}

export interface HostActivity {
  host: string;
  /** Kinds of its sources, as the accounting has them. */
  kinds: string[];
  /** Events (typed RocketMQ events, not other records) per bucket. */
  events: number[];
  /** Of those, at WARN or worse. */
  warnings: number[];
  /**
   * Sends delivered per bucket, as the application logged them (`sentSource`): one line per send
   * (msgId, SEND_OK), or else its statistics lines (`sent=N`, spread over the interval since its
   * previous one). All zero when `sentSource` is null.
   */
  sent: number[];
  /**
   * Where `sent` was counted; null: nowhere, the delivered sends are unknown (the client logs no
   * successful send, DefaultMQProducerImpl.sendKernelImpl; only an application's own lines tell them).
   */
  sentSource: 'app' | 'stats' | null;
  /** Failed sends per bucket: the application's exceptions, or the client's failed attempts without an application log. */
  failed: number[];
  /** Where `failed` was counted. */
  failureSource: 'app' | 'client' | null;
}

export interface Activity {
  from: number;
  to: number;
  bucketMs: number;
  hosts: HostActivity[];
  marks: ActivityMark[];
  /** Marks the cap left out. */
  omittedMarks: number;
  /** Text of lines milestones may name, by `file:line`. */
  lines: Map<string, EvidenceLine>;
}

const zeros = () => new Array<number>(ACTIVITY_BUCKETS).fill(0);
const SEND_FAILURE_TYPES = new Set<EventType>(['send-call-timeout', 'send-failed', 'busy-reply', 'no-route', 'connect-failed', 'rpc-timeout', 'send-request-failed', 'send-attempt-failed']);
const MILESTONE_TYPES = new Set<EventType>(MILESTONE_EVENT_TYPES);

const evidenceOf = (e: RmqEvent): EvidenceLine => ({ file: e.file, line: e.line, time: e.ts, text: e.text.length > TEXT_MAX ? `${e.text.slice(0, TEXT_MAX)}…` : e.text });

/**
 * An observer for analyze's pass (src/rules/analyze.ts `observers`); `first`/`last` are the
 * timeline's window (known before the pass), which the buckets divide.
 */
export function activityCollector(sources: readonly SourceAccounting[], first: number | null, last: number | null) {
  const from = first ?? 0;
  const to = Math.max(last ?? from, from + 1);
  const bucketMs = (to - from) / ACTIVITY_BUCKETS;
  const hosts = new Map<string, HostActivity>();
  const appHosts = new Set(sources.filter((s) => s.kind === 'app').map((s) => s.host));
  for (const s of sources) {
    let h = hosts.get(s.host);
    if (!h) {
      h = { host: s.host, kinds: [], events: zeros(), warnings: zeros(), sent: zeros(), sentSource: null, failed: zeros(), failureSource: null };
      hosts.set(s.host, h);
    }
    if (!h.kinds.includes(s.kind)) h.kinds.push(s.kind);
  }
  const marks: ActivityMark[] = [];
  const markTail = new Map<string, ActivityMark[]>();
  const markCount = new Map<string, number>();
  let omittedMarks = 0;
  /** Per host: sends counted from statistics lines, and the time of its last such line. */
  const stats = new Map<string, { sent: number[]; lastTs: number | null }>();
  const head = new Map<string, EvidenceLine[]>();
  const tail = new Map<string, EvidenceLine[]>();

  const bucketOf = (ts: number) => Math.min(ACTIVITY_BUCKETS - 1, Math.max(0, Math.floor((ts - from) / bucketMs)));
  const addMark = (m: ActivityMark) => {
    const key = `${m.host} ${m.kind}`;
    const n = markCount.get(key) ?? 0;
    markCount.set(key, n + 1);
    if (n < MARKS_PER_HOST) return void marks.push(m);
    // Past the head, the last few are kept in a ring; what falls out of it is counted.
    const ring = markTail.get(key) ?? [];
    ring.push(m);
    if (ring.length > MARKS_PER_HOST / 2) {
      ring.shift();
      omittedMarks++;
    }
    markTail.set(key, ring);
  };
  const keepLine = (e: RmqEvent) => {
    const key = `${e.type} ${e.host}`;
    const h = head.get(key) ?? [];
    if (h.length < LINES_HEAD) {
      h.push(evidenceOf(e));
      head.set(key, h);
      return;
    }
    const t = tail.get(key) ?? [];
    t.push(evidenceOf(e));
    if (t.length > LINES_TAIL) t.shift();
    tail.set(key, t);
  };

  /** `sent=N` of a statistics line: the sends of the interval since the host's previous one (the line's own bucket for the first). */
  const statsLine = (host: string, ts: number, n: number) => {
    const st = stats.get(host) ?? { sent: zeros(), lastTs: null };
    stats.set(host, st);
    const b1 = bucketOf(ts);
    const b0 = st.lastTs !== null && st.lastTs < ts ? bucketOf(st.lastTs) + 1 : b1;
    st.lastTs = ts;
    // Whole sends per bucket, the remainder to the last ones: the sum stays N.
    const k = Math.max(1, b1 - b0 + 1);
    for (let i = 0; i < k; i++) st.sent[b1 - i] += Math.floor(n / k) + (i < n % k ? 1 : 0);
  };

  const visit = (e: RmqEvent): void => {
    if (e.ts === null) return;
    const h = hosts.get(e.host);
    if (!h) return;
    const b = bucketOf(e.ts);
    if (e.type !== 'other') {
      h.events[b]++;
      if (e.level === 'WARN' || e.level === 'ERROR' || e.level === 'FATAL') h.warnings[b]++;
    }
    if (e.kind === 'app') {
      const ok = e.type === 'other' && e.level !== 'ERROR' && e.level !== 'WARN';
      if (ok && APP_SEND.test(e.text)) {
        h.sent[b]++;
        h.sentSource = 'app';
      } else {
        const counted = ok ? APP_STATS.exec(e.text) : null;
        if (counted !== null) statsLine(e.host, e.ts, Number(counted[1]));
        else if (isAppFailure(e)) {
          h.failed[b]++;
          h.failureSource = 'app';
        }
      }
    } else if (e.kind === 'client' && e.type === 'send-attempt-failed' && !appHosts.has(e.host)) {
      h.failed[b]++;
      h.failureSource = 'client';
    }
    if (e.kind === 'client' && e.type === 'namesrv-chosen') {
      const old = e.fields.old;
      const to = String(e.fields.new ?? '?');
      const switched = old !== null && old !== undefined && old !== '';
      addMark({ ...evidenceOf(e), host: e.host, kind: switched ? 'namesrv-switch' : 'namesrv-bind', what: switched ? `switched NameServer ${String(old)} → ${to}` : `bound to NameServer ${to}` });
    }
    if (MILESTONE_TYPES.has(e.type)) keepLine(e);
  };

  return {
    types: new Set<EventType>([...EVENT_TYPES.filter((t) => t !== 'watermark'), ...SEND_FAILURE_TYPES]) as ReadonlySet<EventType>,
    visit,
    finish(): Activity {
      for (const ring of markTail.values()) marks.push(...ring);
      marks.sort((a, b) => (a.time ?? 0) - (b.time ?? 0));
      const lines = new Map<string, EvidenceLine>();
      for (const list of [...head.values(), ...tail.values()]) for (const l of list) lines.set(`${l.file}:${l.line}`, l);
      for (const h of hosts.values()) {
        if (h.failureSource === null && appHosts.has(h.host)) h.failureSource = 'app';
        // Per-send lines when the application writes them; its statistics only without them.
        const st = stats.get(h.host);
        if (h.sentSource === null && st) {
          h.sent = st.sent;
          h.sentSource = 'stats';
        }
      }
      return { from, to, bucketMs, hosts: [...hosts.values()], marks, omittedMarks, lines };
    },
  };
}
