// `rmq-diag events` output: the merged timeline as a table for people or NDJSON for machines,
// then the accounting of every input line. The NDJSON schema is documented in docs/json.md.

import Table from 'cli-table3';
import { formatDuration } from 'date-fns/formatDuration';
import { intervalToDuration } from 'date-fns/intervalToDuration';
import { formatIso, formatShort, type Zone } from '../parse/time.js';
import type { FieldValue, RmqEvent, SourceAccounting } from '../parse/types.js';
import type { Timeline } from '../timeline/build.js';
import type { EventsInputExtra } from '../timeline/events-input.js';
import { EVENTS_SCHEMA_VERSION } from '../timeline/events-check.js';
import { BufferedOut } from './buffered.js';
import { clip, escapeText, jsonSafe, wrapText, type Palette } from './escape.js';

interface EventsOutputOptions {
  json: boolean;
  /** `--format events`: the JSON lines, and a summary with what reading them back as an input needs (docs/json.md). */
  forInput?: boolean;
  zone: Zone;
  since: number | null;
  until: number | null;
  /** Terminal width; Infinity when not a terminal (nothing is cut). */
  width: number;
  palette: Palette;
  /** Called before the first event line is written (e.g. to clear a progress line). */
  beforeFirst?: () => void;
  /** Only the events it keeps (the filters of src/timeline/event-filter.ts); null: all. */
  keep?: ((e: RmqEvent) => boolean) | null;
  /** Events left out unless asked for and counted (isNoise of src/timeline/event-filter.ts); null: none. */
  hide?: ((e: RmqEvent) => boolean) | null;
}

interface Writer {
  write(s: string): unknown;
}

/** The JSON line of an encoded event: its time in the output zone, then the rest as encoded (`safe`: jsonSafe's already). */
export function eventJsonLine(ts: number | null, json: string, zone: Zone, safe = false): string {
  return `{"time":${ts === null ? 'null' : `"${formatIso(ts, zone)}"`},${(safe ? json : jsonSafe(json)).slice(1)}`;
}

export function inputToJson(a: SourceAccounting): Record<string, unknown> {
  const events = Object.values(a.events).reduce((s, n) => s + (n ?? 0), 0);
  return {
    path: a.path,
    kind: a.kind,
    host: a.host,
    layout: a.layout,
    zone: a.zone,
    lines: a.lines,
    records: a.records,
    events,
    eventsByType: a.events,
    continuation: a.continuation,
    unknown: a.unknown,
    unreadable: a.unreadable,
    ...(a.encoding ? { encoding: a.encoding } : {}),
    ...(a.versionHints ? { versionHints: a.versionHints } : {}),
  };
}

function fieldText(v: FieldValue): string {
  if (v === null) return '-';
  if (Array.isArray(v)) return `[${v.join(',')}]`;
  return String(v);
}

/** Key fields of an event, compact: `reason=TIMEOUT_CLEAN_QUEUE waitMs=401 queueSize=34`. */
function eventDetail(e: RmqEvent): string {
  const fields = e.fields;
  let out = '';
  for (const k in fields) {
    const v = fields[k];
    if (v === null || v === undefined) continue;
    out += `${out ? ' ' : ''}${k}=${fieldText(v)}`;
  }
  return out || e.text.trim();
}

function shortFile(file: string): string {
  const i = file.lastIndexOf('/');
  return i >= 0 ? file.slice(i + 1) : file;
}

/** What writeEvents wrote: RocketMQ events, and records that are no event (`other`, with --all); what it hid. */
export interface EventsShown {
  events: number;
  other: number;
  /** Events `hide` left out. */
  hidden: number;
}

export async function writeEvents(timeline: Timeline, sink: Writer, o: EventsOutputOptions): Promise<EventsShown> {
  let n = 0;
  let other = 0;
  const buf = new BufferedOut(sink);
  const out = { write: (s: string) => buf.push(s) };
  const p = o.palette;
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    o.beforeFirst?.();
    if (!o.json) {
      out.write(header(timeline, o));
      out.write(p.bold(row(['TIME', 'HOST', 'TYPE', 'DETAIL', 'WHERE'], o.width)) + '\n');
    }
  };
  const keep = o.keep ?? null;
  const hide = o.hide ?? null;
  let hidden = 0;
  for (const m of timeline.encoded()) {
    if (o.since !== null && (m.ts === null || m.ts < o.since)) continue;
    if (o.until !== null && (m.ts === null || m.ts > o.until)) continue;
    // JSON lines are written as they came (BuildOptions.asJson); an event is decoded only to be filtered or shown as text.
    const e = keep !== null || hide !== null || !o.json ? m.event() : null;
    if (keep !== null && !keep(e!)) continue;
    if (hide !== null && hide(e!)) {
      hidden++;
      continue;
    }
    start();
    n++;
    if (m.type === 'other') other++;
    if (o.json) {
      const wait = out.write(eventJsonLine(m.ts, m.json(), o.zone, m.jsonIsSafe) + '\n');
      if (wait) await wait;
      continue;
    }
    if (e === null) continue;
    const time = e.ts === null ? (e.clock ?? '-') : formatShort(e.ts, o.zone);
    const detail = e.type === 'other' ? e.text.trim() : eventDetail(e);
    const line = row([time, e.host, e.type, detail, `${shortFile(e.file)}:${e.line}`], o.width);
    const wait = out.write(colourFor(e, p)(line) + '\n');
    if (wait) await wait;
  }
  start();
  if (o.json) out.write(jsonSafe(JSON.stringify(o.forInput ? inputSummaryJson(timeline, o.zone, n) : summaryJson(timeline, o.zone, n))) + '\n');
  await buf.flush();
  return { events: n - other, other, hidden };
}

/** `--stats`: the per-file table and each file's events by type. */
export function statsText(t: Pick<Timeline, 'accounting'>, width: number): string {
  return `${accountingTable(t.accounting, width)}\n${eventsByTypeText(t.accounting, width)}`;
}

function colourFor(e: RmqEvent, p: Palette): (s: string) => string {
  if (e.type === 'other') return p.dim;
  if (e.level === 'ERROR' || e.level === 'FATAL') return p.red;
  if (e.level === 'WARN' || e.level === 'WARNING' || e.level === 'warning') return p.yellow;
  return asIs;
}

const asIs = (s: string): string => s;

/**
 * Columns: time, host, type, detail, where. Below 100 columns the time loses its year (the header
 * shows the window) and `where` is left out; detail takes the rest. Not on a terminal: nothing is cut.
 */
function row(cells: string[], width: number): string {
  const [time, host, type, detail, where] = cells;
  const pad = (s: string, w: number) => {
    const c = clip(s, w);
    return c + ' '.repeat(Math.max(0, w - c.length));
  };
  if (!Number.isFinite(width)) return `${pad(time, 23)} ${pad(host, 14)} ${pad(type, 20)} ${escapeText(detail)} ${escapeText(where)}`;
  if (width < 100) {
    const t = /^\d{4}-/.test(time) ? time.slice(5) : time;
    const detailW = Math.max(10, width - 18 - 12 - 19 - 3);
    return `${pad(t, 18)} ${pad(host, 12)} ${pad(type, 19)} ${clip(detail, detailW)}`.trimEnd();
  }
  const whereW = Math.min(32, Math.floor(width / 5));
  const detailW = width - 23 - 14 - 20 - whereW - 4;
  return `${pad(time, 23)} ${pad(host, 14)} ${pad(type, 20)} ${pad(detail, detailW)} ${clip(where, whereW)}`;
}

function header(t: Timeline, o: EventsOutputOptions): string {
  const hosts = [...new Set(t.sources.map((s) => s.host))];
  const lines = [
    `inputs: ${t.sources.length} file${t.sources.length === 1 ? '' : 's'} from ${hosts.length} host${hosts.length === 1 ? '' : 's'} (${clip(hosts.join(', '), Math.max(20, (Number.isFinite(o.width) ? o.width : 200) - 30))})`,
  ];
  if (t.first !== null && t.last !== null) {
    const dur = formatDuration(intervalToDuration({ start: t.first, end: t.last })) || '0 seconds';
    lines.push(`window: ${formatShort(t.first, o.zone)} .. ${formatShort(t.last, o.zone)} (${dur})`);
  }
  const w = Number.isFinite(o.width) ? o.width : Infinity;
  // The zone note is prose: wrapped, not cut.
  return [...lines.map((l) => (Number.isFinite(w) ? clip(l, w) : l)), wrapText(zoneNote(t, o.zone), w)].join('\n') + '\n\n';
}

export function zoneNote(t: Timeline, out: Zone): string {
  const assumed =
    !t.defaultZoneChosen && t.accounting.some((a) => a.zone === t.defaultZone.name && sourceZoneIsAssumed(a));
  return (
    `times in ${out.name}` +
    (assumed ? `; sources whose layout does not fix a zone were read as ${t.defaultZone.name} (default; --tz to change)` : '')
  );
}

const FIXED_ZONE_LAYOUTS = new Set([
  'rocketmq-server',
  'rocketmq-server-nothread',
  'rocketmq-bare',
  'rocketmq-client-5x',
  'two-digit-year',
  'spring-boot-3',
]);

function sourceZoneIsAssumed(a: SourceAccounting): boolean {
  const primary = a.layout.split('+')[0];
  return !FIXED_ZONE_LAYOUTS.has(primary);
}

/** Per source, its events by type (the table has room for the total only). */
function eventsByTypeText(acc: SourceAccounting[], width: number): string {
  const lines: string[] = [];
  for (const a of acc) {
    const parts = Object.entries(a.events)
      .filter(([, n]) => (n ?? 0) > 0)
      .sort((x, y) => (y[1] ?? 0) - (x[1] ?? 0) || x[0].localeCompare(y[0]))
      .map(([t, n]) => `${t} ${n}`);
    if (parts.length) lines.push(wrapText(`${a.path}: ${parts.join(', ')}`, width - 2, 4));
  }
  return lines.length ? `events by type:\n${lines.map((l) => `  ${l.replace(/\n/g, '\n  ')}`).join('\n')}\n` : '';
}

export function accountingTable(acc: SourceAccounting[], width: number): string {
  const narrow = Number.isFinite(width) && width < 110;
  const head = narrow
    ? ['source', 'kind', 'lines', 'records', 'cont.', 'unkn.', 'unrd.', 'events']
    : ['source', 'kind', 'host', 'layout', 'zone', 'lines', 'records', 'cont.', 'unknown', 'unread.', 'events'];
  const fixed = narrow ? [8, 8, 8, 7, 7, 7, 8] : [10, 14, 24, 8, 9, 9, 8, 9, 9, 8];
  const srcW = Number.isFinite(width) ? Math.max(14, width - fixed.reduce((a, b) => a + b, 0) - (head.length + 1)) : 60;
  const table = new Table({
    head,
    colWidths: [srcW, ...fixed],
    wordWrap: true,
    wrapOnWordBoundary: false,
    style: { head: [], border: [] },
  });
  for (const a of acc) {
    const events = Object.values(a.events).reduce((s, n) => s + (n ?? 0), 0);
    const cells = narrow
      ? [escapeText(a.path), a.kind, a.lines, a.records, a.continuation, a.unknown, a.unreadable, events]
      : [escapeText(a.path), a.kind, escapeText(a.host), a.layout, a.zone, a.lines, a.records, a.continuation, a.unknown, a.unreadable, events];
    table.push(cells.map(String));
  }
  return table.toString();
}

/**
 * `--format events`' summary: `--json`'s, and per input the times and sizes a timeline reads of a
 * source besides its events (its first and last record, the bytes read, a server's activity), so
 * that the file read back as an input (src/timeline/events-input.ts) gives the same timeline.
 */
function inputSummaryJson(t: Timeline, zone: Zone, events: number): Record<string, unknown> {
  const s = summaryJson(t, zone, events) as { summary: Record<string, unknown> };
  const inputs = t.accounting.map((a, i) => {
    const span = t.spans?.[i];
    const extra: EventsInputExtra = { firstTs: span?.first ?? null, lastTs: span?.last ?? null, bytes: span?.bytes ?? 0, ...(a.activity ? { activity: a.activity } : {}) };
    return { ...inputToJson(a), ...extra };
  });
  return { ...s, summary: { ...s.summary, format: 'events', defaultZoneChosen: t.defaultZoneChosen, inputs } };
}

function summaryJson(t: Timeline, zone: Zone, events: number): Record<string, unknown> {
  return {
    type: 'summary',
    schemaVersion: EVENTS_SCHEMA_VERSION,
    summary: {
      zone: zone.name,
      defaultZone: t.defaultZone.name,
      window: {
        start: t.first === null ? null : formatIso(t.first, zone),
        end: t.last === null ? null : formatIso(t.last, zone),
      },
      events,
      inputs: t.accounting.map(inputToJson),
      issues: t.issues,
    },
  };
}
