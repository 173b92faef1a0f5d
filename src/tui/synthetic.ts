// A synthetic timeline of any size for the TUI's benchmark and tests: the columns are filled
// directly (no files, no parsing) and each event's JSON is made up from its index when a row is
// drawn. The pages stay in memory, or go to a spill file as a real input's do (`disk`), so the
// benchmark measures the store users get. Deterministic.

import { encodeEvent } from '../parse/event-codec.js';
import { parseZone, type Zone } from '../parse/time.js';
import type { EventType, RmqEvent } from '../parse/types.js';
import { SOURCE_KINDS, type SourceKind } from '../ingest/kinds.js';
import type { Finding } from '../rules/types.js';
import { createSpillDir, removeSpillDir } from '../timeline/spill.js';
import { ColumnsBuilder, OTHER_TYPE, TYPE_INDEX, type EventStore, type RawSink, type StoreSource, type StoreTuning } from './store.js';
import { TuiModel } from './view-model.js';
import type { HeaderInfo } from './format.js';

interface SyntheticOptions {
  events: number;
  hosts?: number;
  /** Window, ms (default one hour). */
  spanMs?: number;
  /** Share of records that are no RocketMQ event (default 0.9). */
  otherShare?: number;
  start?: number;
  /** The store's pages in a spill file (as for real inputs) instead of in memory. */
  disk?: boolean;
  tuning?: StoreTuning;
}

/** A 32-bit integer hash: the same index always makes the same event. */
function hash(i: number, salt = 0): number {
  let x = (i ^ (salt * 0x9e3779b9)) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}

const RMQ_TYPES: EventType[] = ['rpc-timeout', 'send-attempt-failed', 'busy-reply', 'route-changed', 'namesrv-chosen', 'watermark', 'channel-closed', 'broker-registered'];
const LEVELS = [null, 'INFO', 'WARN', 'ERROR'];

interface Synthetic {
  model: TuiModel;
  header: HeaderInfo;
}

export function syntheticModel(o: SyntheticOptions): Synthetic {
  const n = o.events;
  const nHosts = o.hosts ?? 6;
  const span = o.spanMs ?? 3600_000;
  const start = o.start ?? Date.UTC(2020, 11, 22, 6, 0, 0);
  const otherShare = o.otherShare ?? 0.9;
  const zone: Zone = parseZone('+08:00');
  const hosts = Array.from({ length: nHosts }, (_, h) => (h < nHosts / 2 ? `app-${String(h + 1).padStart(2, '0')}` : `mq-node-${100 + h}`));
  const sources: StoreSource[] = [];
  const kinds: SourceKind[] = [];
  for (const h of hosts) {
    const app = h.startsWith('app');
    sources.push({ file: `incident/${h}/${app ? 'rocketmq_client.log' : 'broker.log'}`, host: h });
    kinds.push(app ? 'client' : 'broker');
    sources.push({ file: `incident/${h}/${app ? 'app.log' : 'namesrv.log'}`, host: h });
    kinds.push(app ? 'app' : 'namesrv');
  }
  const lines = new Uint32Array(sources.length);
  // The JSON is made up from the store's columns when a row is drawn (after the store is built).
  const dir = o.disk ? createSpillDir() : null;
  const sink: RawSink = {
    at: 0,
    bytes: 0,
    dir,
    append: () => {
      throw new Error('synthetic events are pushed as columns');
    },
    appendBytes: () => {
      throw new Error('synthetic events are pushed as columns');
    },
    finish: () => ({ raw: (at) => encodeEvent(eventAt(at)), close: () => dir && removeSpillDir(dir) }),
  };
  const b = new ColumnsBuilder(sources, sink, o.tuning);
  const levelIds = LEVELS.map((l) => b.levelId(l));
  // A burst of failures in the middle tenth of the window.
  const burstFrom = start + span * 0.45;
  const burstTo = start + span * 0.55;
  for (let i = 0; i < n; i++) {
    const h = hash(i);
    const at = start + Math.floor((i * span) / n);
    const src = h % sources.length;
    const burst = at >= burstFrom && at < burstTo;
    const r = (h >>> 8) / 0x1000000;
    const rmq = r >= otherShare || (burst && r > otherShare / 2);
    const type = rmq ? TYPE_INDEX.get(RMQ_TYPES[(h >>> 4) % (burst ? 3 : RMQ_TYPES.length)])! : OTHER_TYPE;
    const lv = hash(i, 1) % 100;
    const level = burst && rmq ? 3 : lv < 3 ? 3 : lv < 10 ? 2 : 1;
    b.push(at, src, type, levelIds[level], SOURCE_KINDS.indexOf(kinds[src]), ++lines[src], false, i, 0);
  }
  const st: EventStore = b.finish();
  const eventAt = (i: number): RmqEvent => {
    const ty = st.typeOf(i);
    const src = st.sources[st.sourceAt(i)];
    const lv = st.levels[st.levelAt(i)];
    const h = hash(i, 2);
    const msg =
      ty === 'other'
        ? `processed order ${h % 100000} in ${h % 997} ms (batch ${i})`
        : `${ty} against 192.168.3.${100 + (h % 4)}:10911 after ${h % 3000} ms, invokeId ${i}`;
    return {
      ts: st.tAt(i),
      host: src.host,
      kind: SOURCE_KINDS[st.kindAt(i)],
      file: src.file,
      line: st.lineAt(i),
      level: lv,
      thread: `worker-${h % 16}`,
      logger: ty === 'other' ? 'com.example.OrderService' : 'RocketmqClient',
      type: ty,
      fields: ty === 'other' ? {} : { addr: `192.168.3.${100 + (h % 4)}:10911`, elapsedMs: h % 3000 },
      text: `2020-12-22 14:00:00,000 ${lv ?? 'INFO'} ${ty === 'other' ? 'OrderService' : 'RocketmqClient'} - ${msg}`,
      source: st.sourceAt(i),
      seq: i,
    };
  };
  // Findings over the burst, quoting a few events of it as evidence.
  const evidenceIn = (from: number, to: number, k: number) => {
    const out: number[] = [];
    const a = Math.floor(((from - start) / span) * n);
    const b = Math.floor(((to - start) / span) * n);
    for (let i = a; i < b && out.length < k; i += Math.max(1, Math.floor((b - a) / (k * 4)))) if (st.typeAt(i) !== OTHER_TYPE) out.push(i);
    return out.map((i) => ({ file: st.fileOf(i), line: st.lineAt(i), time: st.tAt(i), text: eventAt(i).text }));
  };
  const finding = (rule: string, severity: Finding['severity'], from: number, to: number, title: string): Finding => ({
    rule,
    severity,
    title,
    start: from,
    end: to,
    subject: { client: hosts[0], brokerAddr: '192.168.3.100:10911' },
    metrics: { failures: 97, staleMs: to - from },
    evidence: evidenceIn(from, to, 5),
    explanation: 'A synthetic finding over the burst of failures in the middle of the window.',
    advice: ['Nothing to do: this timeline is made up for the benchmark.'],
  });
  const findings = [
    finding('stale-route', 'critical', burstFrom, burstTo, 'app-01 kept using broker-a after it stopped answering'),
    finding('namesrv-stuck', 'critical', burstFrom + span * 0.01, burstTo - span * 0.01, 'app-01 stuck on a NameServer'),
    finding('broker-busy', 'error', start + span * 0.2, start + span * 0.25, 'broker-a busy'),
    finding('send-no-retry', 'warning', start + span * 0.7, start + span * 0.72, 'sends not retried'),
  ];
  const ruleEvents = new Map<string, readonly EventType[]>(findings.map((f) => [f.rule, RMQ_TYPES.slice(0, 3)]));
  const model = new TuiModel({ store: st, findings, zone, ruleEvents });
  const header: HeaderInfo = {
    hosts,
    files: sources.length,
    events: n,
    first: n ? st.tAt(0) : null,
    last: n ? st.tAt(n - 1) : null,
    zone,
    zoneNote: 'times in +08:00',
    findings,
    notes: 0,
  };
  return { model, header };
}
