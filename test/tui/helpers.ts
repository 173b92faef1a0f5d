import type { EventType, RmqEvent } from '../../src/parse/types.js';
import type { SourceKind } from '../../src/ingest/kinds.js';
import { parseZone } from '../../src/parse/time.js';
import type { Finding } from '../../src/rules/types.js';
import { storeFromEvents, type EventStore, type StoreTuning } from '../../src/tui/store.js';
import { NO_FILTER, TuiModel, type Dims, type ViewState } from '../../src/tui/view-model.js';
import type { HeaderInfo } from '../../src/tui/format.js';
import type { ReplayView } from '../../src/tui/replay-status.js';

export const ZONE = parseZone('+08:00');
/** 2020-12-22 14:00:00 +08:00 */
export const T0 = Date.UTC(2020, 11, 22, 6, 0, 0);

const lines = new Map<string, number>();

export function ev(p: Partial<RmqEvent> & { at: number; host?: string }): RmqEvent {
  const host = p.host ?? 'app-1';
  const file = p.file ?? `inc/${host}/rocketmq_client.log`;
  const line = p.line ?? (lines.get(file) ?? 0) + 1;
  lines.set(file, line);
  const type: EventType = p.type ?? 'other';
  return {
    ts: p.ts === undefined ? T0 + p.at : p.ts,
    host,
    kind: (p.kind ?? 'client') as SourceKind,
    file,
    line,
    level: p.level === undefined ? 'INFO' : p.level,
    thread: p.thread ?? null,
    logger: p.logger ?? null,
    type,
    fields: p.fields ?? {},
    text: p.text ?? `2020-12-22 14:00:00,000 ${p.level ?? 'INFO'} RocketmqClient - ${type} number ${line}`,
    source: 0,
    seq: 0,
    ...(p.clock ? { clock: p.clock } : {}),
  };
}

/** Resets line numbering (each test file builds its own events). */
export function resetLines(): void {
  lines.clear();
}

export function finding(p: Partial<Finding> & { rule: string }): Finding {
  return {
    severity: 'error',
    title: `${p.rule} happened`,
    start: null,
    end: null,
    subject: {},
    metrics: {},
    evidence: [],
    explanation: 'Because.',
    advice: ['Do something.'],
    ...p,
  };
}

/** Events sorted by time, stable. */
export function sorted(events: RmqEvent[]): RmqEvent[] {
  return events.map((e, i) => [e, i] as const).sort((a, b) => (a[0].ts ?? 0) - (b[0].ts ?? 0) || a[1] - b[1]).map(([e]) => e);
}

export function modelOf(events: RmqEvent[], findings: Finding[] = [], ruleEvents: Record<string, EventType[]> = {}, store = storeFromEvents(sorted(events))) {
  // A clock that stands still: search steps are bounded by rows only, so tests are deterministic.
  return new TuiModel({ store, findings, zone: ZONE, ruleEvents: new Map(Object.entries(ruleEvents)), now: () => 0 });
}

export function headerOf(model: TuiModel): HeaderInfo {
  const s = model.store;
  return {
    hosts: s.hosts,
    files: s.sources.length,
    events: s.length,
    first: s.length ? s.tAt(0) : null,
    last: s.length ? s.tAt(s.length - 1) : null,
    zone: ZONE,
    zoneNote: 'times in +08:00',
    findings: model.findings,
    notes: 0,
  };
}

/**
 * A small incident: four hosts over 10 minutes, a burst of rpc-timeouts on app-1 from minute 4 to 6,
 * and two findings quoting some of them.
 */
export function incident(store?: (events: RmqEvent[]) => EventStore) {
  resetLines();
  const events: RmqEvent[] = [];
  const S = 1000;
  for (let s = 0; s < 600; s += 5) {
    events.push(ev({ at: s * S, host: 'app-1', text: `2020-12-22 14:00:00,000 INFO OrderService - order ${s}` }));
    events.push(ev({ at: s * S + 1, host: 'broker-a', kind: 'broker', file: 'inc/broker-a/broker.log', type: 'watermark', level: null, fields: { queue: 'Send', size: s } }));
  }
  for (let s = 240; s < 360; s += 3) {
    events.push(ev({ at: s * S + 2, host: 'app-1', type: 'rpc-timeout', level: 'WARN', fields: { addr: '10.0.0.1:10911', timeoutMs: 3000 }, text: `2020-12-22 14:04:00,000 WARN RocketmqRemoting - invokeSync: wait response timeout exception, the channel[10.0.0.1:10911] s=${s}` }));
  }
  events.push(ev({ at: 250 * S, host: 'ns-1', kind: 'namesrv', file: 'inc/ns-1/namesrv.log', type: 'broker-expired', level: 'WARN', text: '2020-12-22 14:04:10 WARN NSScheduledThread1 - The broker channel expired, 10.0.0.1:10911 120000ms' }));
  events.push(ev({ at: 300 * S, host: 'app-2', type: 'send-failed', level: 'ERROR', text: '2020-12-22 14:05:00,000 ERROR RocketmqClient - send failed: 中文消息 \u001b[31mred\u001b[0m' }));
  const all = sorted(events);
  const timeouts = all.filter((e) => e.type === 'rpc-timeout');
  const quote = (e: RmqEvent) => ({ file: e.file, line: e.line, time: e.ts, text: e.text });
  const findings: Finding[] = [
    finding({ rule: 'stale-route', severity: 'critical', title: 'app-1 kept using broker-a', start: T0 + 240 * S, end: T0 + 357 * S + 2, evidence: [quote(timeouts[0]), quote(timeouts[timeouts.length - 1])], metrics: { failures: 40, staleMs: 117002 } }),
    finding({ rule: 'broker-down-detection', severity: 'warning', title: 'ns-1 noticed broker-a late', start: T0 + 250 * S, end: T0 + 250 * S, evidence: [quote(all.find((e) => e.type === 'broker-expired')!)] }),
  ];
  const model = modelOf(all, findings, { 'stale-route': ['rpc-timeout', 'send-failed'], 'broker-down-detection': ['broker-expired'] }, store?.(all));
  return { model, events: all, findings };
}

/**
 * A replay result for the incident above (a stub of what src/tui/replay-run.ts computes): broker-a
 * hangs at minute 3:50, app-1's first failure is reproduced 500 ms late, its last one 40 s late
 * (diverged), ns-1's removal of broker-a is not simulated.
 */
export function stubView(model: TuiModel): ReplayView {
  const S = 1000;
  const simT: number[] = [];
  const simHost: number[] = [];
  for (let s = 0; s < 600; s += 10) {
    simT.push(T0 + s * S, T0 + s * S + 1);
    simHost.push(0, 1);
  }
  void model;
  return {
    verdict: 'not-reproduced',
    divergences: ['outage-end app-1: +40 s off (tolerance 11.7 s)', 'namesrv-removal 10.0.0.9:9876 removes broker-a: in the logs, not in the simulation'],
    seed: 1,
    milestones: [
      { name: 'fault-start', subject: 'broker-a hung', host: 'broker-a', observed: T0 + 230 * S, simulated: T0 + 230 * S, deltaMs: 0, status: 'ok' },
      { name: 'first-failure', subject: 'app-1', host: 'app-1', observed: T0 + 240 * S + 2, simulated: T0 + 240 * S + 502, deltaMs: 500, status: 'ok' },
      { name: 'namesrv-removal', subject: '10.0.0.9:9876 removes broker-a', host: 'ns-1', observed: T0 + 250 * S, simulated: null, deltaMs: null, status: 'not-simulated' },
      { name: 'outage-end', subject: 'app-1', host: 'app-1', observed: T0 + 357 * S + 2, simulated: T0 + 397 * S + 2, deltaMs: 40000, status: 'diverged' },
    ],
    outages: [
      { client: 'app-1', observedMs: 117000, simulatedMs: 157000, observedFailedSends: 40, simulatedFailedSends: 52 },
      { client: 'app-2', observedMs: 0, simulatedMs: 0, observedFailedSends: 1, simulatedFailedSends: 0 },
    ],
    unharmed: 0,
    simHosts: ['app-1', 'broker-a'],
    simT: Float64Array.from(simT),
    simHost: Uint16Array.from(simHost),
  };
}

/**
 * The state most view-model tests start from: every record listed, the event list focused (the TUI
 * opens on the findings with the noise hidden; test/tui/opening.test.ts tests that).
 */
export function allListed(model: TuiModel, dims: Dims): ViewState {
  const s = model.initial(dims);
  return model.reduce({ ...s, focus: 'events', filter: NO_FILTER, cursor: model.store.length ? 0 : -1, top: 0 }, { type: 'move', by: 0 }, dims);
}

/** Pages of 16 events, two of them cached, blocks of 4 events at first and at most 8 blocks: everything crosses pages and blocks. */
export const TINY: StoreTuning = { pageShift: 4, cachePages: 2, blockMin: 4, maxBlocks: 8, histBytes: 1 << 20, rowsInMemory: 16 };

/** A mixed timeline: undated events first, a source stepping back, hosts, levels, noise, long and non-ASCII text. */
export function mixed(n: number): RmqEvent[] {
  resetLines();
  const out: RmqEvent[] = [];
  const hosts = ['app-1', 'app-2', 'broker-a', 'ns-1'];
  const types = ['other', 'rpc-timeout', 'watermark', 'send-failed', 'other'] as const;
  const levels = [null, 'INFO', 'WARN', 'ERROR', 'DEBUG', 'info '];
  for (let i = 0; i < n; i++) {
    const host = hosts[(i * 7) % hosts.length];
    const type = types[(i * 3) % types.length];
    const at = i < 40 ? null : i * 250 - (i % 11 === 0 ? 5000 : 0);
    out.push(
      ev({
        at: at ?? 0,
        ts: at === null ? null : T0 + at,
        host,
        kind: host.startsWith('app') ? 'client' : host === 'ns-1' ? 'namesrv' : 'broker',
        file: `inc/${host}/${i % 2 ? 'a' : 'b'}.log`,
        type,
        level: levels[i % levels.length],
        fields: type === 'watermark' ? { queue: 'Send', slowMs: i % 4 === 0 ? 0 : 12 } : {},
        text: i % 13 === 0 ? `消息 ${i} ` + 'x'.repeat(700) : `line ${i} é`,
      }),
    );
  }
  return out;
}
