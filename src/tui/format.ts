// What the TUI's panes say, as lines of styled segments, computed without ink: list rows, the detail
// of an event, a finding's text, the header, the help. Log text goes through escapeText first (a log
// line must never drive the terminal), and every line is cut to its width in terminal cells.

import { formatShort, type Zone } from '../parse/time.js';
import type { EventType, FieldValue, RmqEvent } from '../parse/types.js';
import { escapeText, PLAIN } from '../report/escape.js';
import { INCIDENT_LABEL, incidentHeadLines } from '../report/incident-text.js';
import type { Incident } from '../rules/incident.js';
import { metricText, subjectText, windowText } from '../report/summary.js';
import type { Finding, Severity } from '../rules/types.js';
import { formatMs } from '../util/durations.js';
import type { RecordView } from './record.js';

export type Color = 'red' | 'yellow' | 'green' | 'cyan' | 'blue' | 'magenta' | 'gray' | 'white';

export interface Seg {
  text: string;
  color?: Color;
  bold?: boolean;
  dim?: boolean;
  inverse?: boolean;
  underline?: boolean;
}

export type Line = Seg[];

// --- cells -----------------------------------------------------------------------------------------

// East Asian wide and fullwidth characters take two cells (CJK, Hangul, fullwidth forms, emoji).
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|[\ud83c-\ud83e][\udc00-\udfff]|[\ud840-\ud87f][\udc00-\udfff]/;

/** Cells a character (a code point) takes. */
function charCells(ch: string): number {
  return WIDE.test(ch) ? 2 : 1;
}

/** Terminal cells a string takes (after escaping, so no control characters). */
export function cells(s: string): number {
  // Fast path: plain ASCII and Latin are one cell each.
  // eslint-disable-next-line no-control-regex
  if (/^[\u0000-\u02ff]*$/.test(s)) return s.length;
  let n = 0;
  for (const ch of s) n += charCells(ch);
  return n;
}

/** Cut to `width` cells, with `…` when something was cut. */
export function clipCells(s: string, width: number): string {
  if (width <= 0) return '';
  if (cells(s) <= width) return s;
  let out = '';
  let n = 0;
  for (const ch of s) {
    const w = charCells(ch);
    if (n + w > width - 1) break;
    out += ch;
    n += w;
  }
  return out + '…';
}

/** Cut or pad with spaces to exactly `width` cells. */
export function fit(s: string, width: number): string {
  const c = clipCells(s, width);
  return c + ' '.repeat(Math.max(0, width - cells(c)));
}

/** Cells a line takes. */
export function lineCells(line: Line): number {
  return line.reduce((n, s) => n + cells(s.text), 0);
}

/** Cut a line of segments to `width` cells, and pad it when `pad`. */
export function fitLine(line: Line, width: number, pad = true): Line {
  const out: Line = [];
  let left = width;
  for (const seg of line) {
    if (left <= 0) break;
    const w = cells(seg.text);
    if (w <= left) {
      out.push(seg);
      left -= w;
    } else {
      out.push({ ...seg, text: clipCells(seg.text, left) });
      left = 0;
    }
  }
  if (pad && left > 0) out.push({ text: ' '.repeat(left) });
  return out;
}

/** Word-wrap plain text to `width` cells (words longer than a line are cut into pieces). */
export function wrap(text: string, width: number): string[] {
  const w = Math.max(1, width);
  const out: string[] = [];
  for (const para of text.split('\n')) {
    let line = '';
    for (const word of para.split(' ')) {
      let rest = word;
      if (line && cells(line) + 1 + cells(rest) > w) {
        out.push(line);
        line = '';
      }
      while (cells(rest) > w) {
        const head = takeCells(rest, w) || rest.slice(0, 1);
        out.push(head);
        rest = rest.slice(head.length);
      }
      line = line ? `${line} ${rest}` : rest;
    }
    out.push(line);
  }
  return out;
}

function takeCells(s: string, width: number): string {
  let out = '';
  let n = 0;
  for (const ch of s) {
    const c = charCells(ch);
    if (n + c > width) break;
    out += ch;
    n += c;
  }
  return out;
}

// --- words and colours -----------------------------------------------------------------------------

const SEVERITY_COLOR: Record<Severity, Color> = { critical: 'magenta', error: 'red', warning: 'yellow', info: 'cyan' };
const SEVERITY_SHORT: Record<Severity, string> = { critical: 'CRIT', error: 'ERR', warning: 'WARN', info: 'INFO' };
/** Band glyphs by severity rank, so the strip reads without colour too. */
const SEVERITY_GLYPH = ['█', '▓', '▒', '░'];

/** How an event type is highlighted in the list: failures, connections and held-back pulls, routing and membership, lifecycle, metrics. */
function typeColor(t: EventType): Color | undefined {
  switch (t) {
    case 'busy-reply':
    case 'send-attempt-failed':
    case 'send-failed':
    case 'send-call-timeout':
    case 'rpc-timeout':
    case 'async-timeout':
    case 'send-request-failed':
    case 'connect-failed':
    case 'heartbeat-failed':
    case 'register-failed':
    case 'disk-full':
    case 'no-route':
    case 'route-update-failed':
    case 'consume-failed':
    case 'send-back-failed':
    case 'send-to-dlq':
    case 'pull-failed':
    case 'lock-failed':
    case 'offset-illegal':
      return 'red';
    case 'flow-control':
    case 'offset-reset':
    case 'channel-closed':
    case 'late-response':
    case 'send-async-retry':
    case 'pipeline':
    case 'broker-expired':
    case 'broker-removed':
      return 'yellow';
    case 'namesrv-chosen':
    case 'namesrv-list':
    case 'route-changed':
    case 'broker-registered':
    case 'rebalance':
    case 'consumer-changed':
    case 'dledger':
    case 'controller':
      return 'cyan';
    case 'startup':
    case 'shutdown':
      return 'green';
    case 'watermark':
    case 'offset-commit':
    case 'store-slow':
    case 'broker-jstack':
      return 'blue';
    case 'other':
      return undefined;
  }
}

function levelColor(level: string | null): Color | undefined {
  const l = level?.trim().toUpperCase();
  if (l === 'ERROR' || l === 'FATAL' || l === 'SEVERE') return 'red';
  if (l === 'WARN' || l === 'WARNING') return 'yellow';
  return undefined;
}

/** Kinds in at most six cells. */
const KIND_SHORT: Record<string, string> = {
  client: 'client',
  broker: 'broker',
  namesrv: 'nsrv',
  remoting: 'remot',
  store: 'store',
  watermark: 'wmark',
  stats: 'stats',
  app: 'app',
  unknown: '?',
};

// --- times -----------------------------------------------------------------------------------------

/** `14:42:11.044` when the whole window is one day in the zone, else `12-22 14:42:11.044`. */
function timeCell(e: Pick<RmqEvent, 'ts' | 'clock'>, zone: Zone, sameDay: boolean): string {
  if (e.ts === null) return e.clock ?? '-';
  const s = formatShort(e.ts, zone);
  return sameDay ? s.slice(11) : s.slice(5);
}

/** Short time for the strip's axis: `14:42:11`, or with the date when the window spans days. */
function axisTime(ms: number, zone: Zone, sameDay: boolean): string {
  const s = formatShort(ms, zone);
  return sameDay ? s.slice(11, 19) : s.slice(5, 16);
}

/** `300 ms`, `2.3 s`, `24 min 59 s`. */
function durationText(ms: number): string {
  return formatMs(ms);
}

/**
 * The message of a record, without the time, level, thread and logger its layout put in front:
 * text after the first ` - ` or ` : ` when what comes before it starts with a date or a time.
 * The detail pane shows the whole line.
 */
export function messageOf(text: string): string {
  const t = text.trim();
  if (!/^\[?\d{2,4}[-/:]\d{2}/.test(t)) return t;
  const head = t.slice(0, 200);
  const dash = head.indexOf(' - ');
  const colon = head.indexOf(' : ');
  const at = dash < 0 ? colon : colon < 0 ? dash : Math.min(dash, colon);
  return at < 0 ? t : t.slice(at + 3).trim();
}

// --- the event list --------------------------------------------------------------------------------

interface ListColumns {
  time: number;
  host: number;
  kind: number;
  level: number;
  type: number;
  text: number;
}

/** Column widths of the list for a width: the text gets what the fixed columns leave (at least 10). */
export function listColumns(width: number, sameDay: boolean, hostWidth: number): ListColumns {
  const time = sameDay ? 12 : 18;
  const narrow = width < 100;
  const host = Math.max(4, Math.min(hostWidth, narrow ? 12 : 16));
  const kind = 6;
  const level = 5;
  // Full type names (19 cells) from 84 columns; below, the longest ones are cut.
  const type = width >= 84 ? 19 : 15;
  // A marker cell in front (evidence), and one space between columns.
  const text = Math.max(10, width - 2 - time - host - kind - level - type - 5);
  return { time, host, kind, level, type, text };
}

export function listHeader(c: ListColumns, width: number): Line {
  const t = `  ${fit('TIME', c.time)} ${fit('HOST', c.host)} ${fit('KIND', c.kind)} ${fit('LEVEL', c.level)} ${fit('TYPE', c.type)} TEXT`;
  return fitLine([{ text: t, bold: true }], width);
}

interface RowOptions {
  zone: Zone;
  sameDay: boolean;
  selected: boolean;
  /** The list has the keyboard (the selected row is drawn in reverse video, else underlined). */
  focused: boolean;
  /** Severity of the worst finding this event is evidence for. */
  evidence: Severity | null;
  /** The last search, highlighted in the text. */
  search: string;
}

/** One list row: marker, time, host, kind, level, type, one line of text (escaped). */
export function listRow(e: RmqEvent, c: ListColumns, width: number, o: RowOptions): Line {
  const other = e.type === 'other';
  const base: Partial<Seg> = other ? { dim: true } : {};
  const text = escapeText(messageOf(e.text));
  const segs: Line = [
    o.evidence ? { text: '◆ ', color: SEVERITY_COLOR[o.evidence] } : { text: '  ' },
    { ...base, text: fit(timeCell(e, o.zone, o.sameDay), c.time) + ' ' },
    { ...base, text: fit(escapeText(e.host), c.host) + ' ' },
    { ...base, text: fit(KIND_SHORT[e.kind] ?? e.kind, c.kind) + ' ' },
    { ...base, text: fit(escapeText(e.level ?? '-'), c.level) + ' ', color: levelColor(e.level) },
    other ? { ...base, text: fit('other', c.type) + ' ' } : { text: fit(e.type, c.type) + ' ', color: typeColor(e.type), bold: true },
    ...highlight(clipCells(aroundMatch(text, o.search, c.text), c.text), o.search, base),
  ];
  const line = fitLine(segs, width);
  if (!o.selected) return line;
  return line.map((s) => (o.focused ? { ...s, inverse: true, dim: false } : { ...s, underline: true, dim: false }));
}

/**
 * When the first match of the search lies beyond what the column shows, the text starts a little
 * before it (with `…` in front), so the match is on screen.
 */
function aroundMatch(text: string, query: string, width: number): string {
  if (!query || cells(text) <= width) return text;
  const at = text.toLowerCase().indexOf(escapeText(query).toLowerCase());
  if (at < 0 || cells(text.slice(0, at + query.length)) <= width - 1) return text;
  const from = Math.max(0, Math.min(at - Math.floor(width / 4), text.length - width + 1));
  return '…' + text.slice(from + 1);
}

/** Split text into segments with each case-insensitive occurrence of `query` marked. */
export function highlight(text: string, query: string, base: Partial<Seg> = {}): Line {
  if (!query) return [{ ...base, text }];
  const out: Line = [];
  const lower = text.toLowerCase();
  const q = escapeText(query).toLowerCase();
  let at = 0;
  for (let i = lower.indexOf(q); i >= 0 && q; i = lower.indexOf(q, at)) {
    if (i > at) out.push({ ...base, text: text.slice(at, i) });
    out.push({ text: text.slice(i, i + q.length), color: 'yellow', underline: true, bold: true });
    at = i + q.length;
  }
  if (at < text.length) out.push({ ...base, text: text.slice(at) });
  return out;
}

// --- detail and findings ---------------------------------------------------------------------------

function fieldText(v: FieldValue): string {
  if (v === null) return '-';
  if (Array.isArray(v)) return v.join(', ');
  return String(v);
}

function labelled(label: string, text: string, width: number, labelWidth: number, color?: Color): Line[] {
  const lines = wrap(text, Math.max(10, width - labelWidth - 1));
  return lines.map((l, i) => [
    { text: fit(i === 0 ? label : '', labelWidth) + ' ', dim: true },
    { text: l, color },
  ]);
}

/** Cut into pieces of `width` cells, spaces or not (a stack frame stays on its first line). */
function hardWrap(text: string, width: number): string[] {
  const out: string[] = [];
  let rest = text;
  while (cells(rest) > width) {
    const head = takeCells(rest, width) || rest.slice(0, 1);
    out.push(head);
    rest = rest.slice(head.length);
  }
  out.push(rest);
  return out;
}

/**
 * The whole record as read from its file: a label with its line numbers, then every line escaped and
 * wrapped; `▶` marks the event's own line when the record starts above it (an event in a stack).
 */
function recordLines(r: RecordView & { kind: 'ok' }, eventLine: number, width: number, labelWidth = 7): Line[] {
  const last = r.first + r.lines.length - 1;
  const out: Line[] = [
    [
      { text: fit('record', labelWidth) + ' ', dim: true },
      { text: r.lines.length > 1 ? `lines ${r.first}-${last}` : `line ${r.first}`, dim: true },
      ...(r.truncated ? [{ text: ` (cut at ${r.lines.length} lines; more follows)`, dim: true }] : []),
    ],
  ];
  r.lines.forEach((text, i) => {
    const mark = r.first + i === eventLine && r.first !== eventLine ? '▶ ' : '  ';
    hardWrap(escapeText(text), Math.max(10, width - 2)).forEach((chunk, j) => out.push([{ text: j === 0 ? mark : '  ', color: 'cyan' }, { text: chunk }]));
  });
  return out;
}

/** The detail pane: the record's text, its typed fields, where it is, and the findings it is evidence for. */
export function detailLines(
  e: RmqEvent,
  findings: ReadonlyArray<{ index: number; finding: Finding }>,
  zone: Zone,
  width: number,
  record?: RecordView,
): Line[] {
  const out: Line[] = [];
  const when = e.ts === null ? (e.clock ?? 'no time') : `${formatShort(e.ts, zone)} ${zone.name}`;
  out.push([
    { text: when, bold: true },
    { text: '  ' },
    { text: escapeText(e.host) },
    { text: '  ' },
    { text: e.kind },
    { text: '  ' },
    { text: escapeText(e.level ?? '-'), color: levelColor(e.level) },
    { text: '  ' },
    { text: e.type, color: typeColor(e.type), bold: e.type !== 'other' },
  ]);
  const L = 7;
  const where: Line = [{ text: fit('where', L) + ' ', dim: true }, { text: `${escapeText(e.file)}:${e.line}`, color: 'cyan' }];
  if (e.thread) where.push({ text: '  thread ', dim: true }, { text: escapeText(e.thread) });
  if (e.logger) where.push({ text: '  logger ', dim: true }, { text: escapeText(e.logger) });
  out.push(where);
  if (record?.kind === 'ok') out.push(...recordLines(record, e.line, width, L));
  else {
    out.push(...labelled('text', escapeText(e.text), width, L));
  }
  const fields = Object.entries(e.fields).filter(([, v]) => v !== null && v !== undefined);
  if (fields.length) out.push(...labelled('fields', fields.map(([k, v]) => `${k}=${escapeText(fieldText(v))}`).join('  '), width, L));
  if (e.versionHint) out.push(...labelled('version', escapeText(e.versionHint), width, L));
  if (findings.length) {
    out.push([{ text: 'evidence for', dim: true }]);
    for (const { index, finding: f } of findings) {
      out.push(
        fitLine(
          [
            { text: `  ${index + 1}. ` },
            { text: SEVERITY_SHORT[f.severity], color: SEVERITY_COLOR[f.severity], bold: true },
            { text: ` ${f.rule}  `, bold: true },
            { text: escapeText(f.title) },
          ],
          width,
          false,
        ),
      );
    }
  } else out.push([{ text: 'evidence for no finding', dim: true }]);
  // Why only the first line is shown: last, so the fields and findings stay in view.
  if (record?.kind === 'unavailable') out.push(...labelled('record', escapeText(record.reason), width, L, 'gray'));
  return out.map((l) => fitLine(l, width, false));
}

/** A finding in full: title, subject, window, figures, explanation, advice, evidence. */
export function findingLines(f: Finding, zone: Zone, sameDay: boolean, width: number): Line[] {
  const out: Line[] = [];
  out.push([
    { text: SEVERITY_SHORT[f.severity], color: SEVERITY_COLOR[f.severity], bold: true },
    { text: `  ${f.rule}`, bold: true },
  ]);
  for (const l of wrap(escapeText(f.title), width)) out.push([{ text: l, bold: true }]);
  const L = 8;
  out.push(...labelled('subject', escapeText(subjectText(f.subject)), width, L));
  out.push(...labelled('window', windowText(f, zone, sameDay), width, L));
  const metrics = Object.entries(f.metrics);
  if (metrics.length) {
    out.push([{ text: 'figures', dim: true }]);
    const kw = Math.min(24, Math.max(...metrics.map(([k]) => k.length)));
    for (const [k, v] of metrics) out.push(...labelled(`  ${k}`, escapeText(metricText(k, v, zone)), width, kw + 2));
  }
  out.push([{ text: '' }]);
  for (const l of wrap(escapeText(f.explanation), width)) out.push([{ text: l }]);
  if (f.advice.length) {
    out.push([{ text: '' }]);
    out.push([{ text: 'advice', bold: true }]);
    for (const a of f.advice) {
      wrap(escapeText(a), width - 4).forEach((l, i) => out.push([{ text: i === 0 ? '  - ' : '    ' }, { text: l }]));
    }
  }
  if (f.evidence.length) {
    out.push([{ text: '' }]);
    out.push([{ text: 'evidence', bold: true }]);
    for (const ev of f.evidence) {
      out.push([
        { text: '  ' },
        { text: `${escapeText(ev.file)}:${ev.line}`, color: 'cyan' },
        { text: `  ${ev.time === null ? '-' : formatShort(ev.time, zone).slice(sameDay ? 11 : 0)}` },
      ]);
    }
  }
  return out.map((l) => fitLine(l, width, false));
}

// --- header ----------------------------------------------------------------------------------------

export interface HeaderInfo {
  hosts: readonly string[];
  files: number;
  events: number;
  first: number | null;
  last: number | null;
  zone: Zone;
  /** `times in +08:00` and, when guessed, how sources without a zone were read. */
  zoneNote: string;
  findings: readonly Finding[];
  notes: number;
}

/** Wide enough that no line of the summary wraps. */
const UNWRAPPED = 100_000;

/**
 * The incidents above the findings: what broke and who was hurt, as analyze's report opens (its
 * title, causes and impact); the rest of it is `rmq-diag analyze`'s.
 */
export function incidentSummaryLines(incidents: readonly Incident[], zone: Zone, sameDay: boolean, width: number): Line[] {
  const out: Line[] = [];
  incidents.forEach((inc, i) => {
    // Host and client names come from the input: escaped like every text from the logs.
    // One line each (cut at the width): the title, every cause, every hurt client; Enter on a
    // finding or `rmq-diag analyze` tells the rest.
    incidentHeadLines(inc, i + 1, zone, sameDay, UNWRAPPED, PLAIN).forEach((raw, k) => {
      const text = escapeText(raw);
      out.push(fitLine(k === 0 ? [{ text, bold: true, color: 'yellow' }] : [{ text: text.slice(0, INCIDENT_LABEL), dim: true }, { text: text.slice(INCIDENT_LABEL) }], width));
    });
  });
  return out;
}

/**
 * The incidents folded on a short screen: one line each, the title cut where the key that unfolds
 * it is said.
 */
export function incidentTitleLines(incidents: readonly Incident[], width: number): Line[] {
  const hint = '  i: cause, impact';
  return incidents.map((inc, i) => {
    const title = escapeText(`INCIDENT ${i + 1}  ${inc.title}`);
    const room = Math.max(1, width - hint.length);
    return fitLine([{ text: cells(title) > room ? clipCells(title, room) : title, bold: true, color: 'yellow' }, { text: hint, dim: true }], width);
  });
}

export function headerLines(h: HeaderInfo, width: number): Line[] {
  const sameDay = h.first !== null && h.last !== null && formatShort(h.first, h.zone).slice(0, 10) === formatShort(h.last, h.zone).slice(0, 10);
  const window =
    h.first === null || h.last === null
      ? 'no dated events'
      : `${formatShort(h.first, h.zone).slice(0, 19)} – ${formatShort(h.last, h.zone).slice(sameDay ? 11 : 0, 19)} (${durationText(h.last - h.first)})`;
  const n = (x: number) => x.toLocaleString('en-US');
  const l1: Line = [
    { text: 'rmq-diag', bold: true, color: 'cyan' },
    { text: `  ${window}  ` },
    { text: h.zoneNote, dim: true },
  ];
  const by: Record<Severity, number> = { critical: 0, error: 0, warning: 0, info: 0 };
  for (const f of h.findings) by[f.severity]++;
  // The findings themselves are listed under the header, each title whole when selected: the header
  // only counts them (a title cut here would hide the answer).
  const l2: Line = [{ text: h.findings.length ? `${h.findings.length} finding${h.findings.length === 1 ? '' : 's'}` : 'no findings', bold: true }];
  const sevs = (['critical', 'error', 'warning', 'info'] as const).filter((s) => by[s] > 0);
  if (sevs.length) {
    l2.push({ text: ': ' });
    sevs.forEach((s, i) => l2.push({ text: `${by[s]} ${s}${i < sevs.length - 1 ? ', ' : ''}`, color: SEVERITY_COLOR[s], bold: true }));
  }
  l2.push({ text: ` · ${n(h.hosts.length)} host${h.hosts.length === 1 ? '' : 's'} · ${n(h.files)} file${h.files === 1 ? '' : 's'} · ${n(h.events)} events` });
  if (h.notes) l2.push({ text: ` · ${h.notes} input note${h.notes === 1 ? '' : 's'} (printed on exit)`, dim: true });
  return [fitLine(l1, width), fitLine(l2, width)];
}

/**
 * The findings list under the header: `rows` lines, one per finding, the selected one on two lines
 * (its whole title, cut only past them), scrolled to keep it in view; `▶` marks the finding whose
 * evidence is listed.
 */
export function findingsListLines(findings: readonly Finding[], selected: number, listed: number | null, focused: boolean, width: number, rows: number): Line[] {
  const n = findings.length;
  if (!n || rows <= 0) return [];
  const sel = Math.max(0, Math.min(n - 1, selected));
  // The selected finding takes two lines; when not all fit, the last line says how many more there are.
  const room = Math.max(1, rows - 1);
  const shown = n <= room ? n : Math.max(1, room - 1);
  const first = Math.max(0, Math.min(sel - Math.floor((shown - 1) / 2), n - shown));
  const out: Line[] = [];
  for (let i = first; i < first + shown; i++) {
    const f = findings[i];
    const head: Line = [
      { text: i === listed ? '▶' : ' ', color: 'cyan', bold: true },
      { text: `${String(i + 1).padStart(2)} ` },
      { text: fit(SEVERITY_SHORT[f.severity], 4), color: SEVERITY_COLOR[f.severity], bold: true },
      { text: ` ${fit(f.rule, 22)} `, bold: true },
    ];
    const style = (l: Line): Line => (i !== sel ? l : l.map((x) => (focused ? { ...x, inverse: true } : { ...x, underline: true })));
    if (i !== sel) {
      out.push(fitLine([...head, { text: escapeText(f.title) }], width));
      continue;
    }
    // The selected one: the rule id unpadded, the title on the rest of the line and the next one.
    const own: Line = [...head.slice(0, 3), { text: ` ${f.rule}  `, bold: true }];
    const title = wrap(escapeText(f.title), Math.max(10, width - lineCells(own)));
    out.push(style(fitLine([...own, { text: title[0] ?? '' }], width)));
    out.push(style(fitLine([{ text: '    ' }, { text: title.slice(1).join(' ') }], width)));
  }
  if (n > shown && out.length < rows) out.push(fitLine([{ text: `   ${n - shown} more: ↑ ↓ in the findings`, dim: true }], width));
  return out.slice(0, rows);
}

// --- the time strip --------------------------------------------------------------------------------

const BARS = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
const CLASS_COLOR: Array<Color | undefined> = ['gray', 'green', 'yellow', 'red', undefined];

/** Consecutive cells of the same style become one segment. */
function runs(cols: number, cell: (c: number) => Seg): Line {
  const out: Line = [];
  for (let c = 0; c < cols; c++) {
    const s = cell(c);
    const last = out[out.length - 1];
    if (last && last.color === s.color && !!last.inverse === !!s.inverse && !!last.bold === !!s.bold && !!last.dim === !!s.dim) {
      last.text += s.text;
    } else out.push({ ...s });
  }
  return out;
}

/**
 * The strip as lines: the axis (window start, zoom, window end, `▼` over the cursor), one line per
 * host row (bar height = events in the bucket, log scale per row; colour = the worst level in it),
 * and the findings band (glyph and colour by severity, the selected finding drawn with `━`). The
 * cursor's column is drawn in reverse video.
 */
export function stripLines(
  v: StripViewLike,
  labelWidth: number,
  zone: Zone,
  sameDay: boolean,
  zoomNote: string,
): Line[] {
  const cols = v.cols;
  const axis = new Array<string>(cols).fill(' ');
  const taken = new Uint8Array(cols);
  // Labels go where they fit without touching one already placed (the cursor's goes first).
  const put = (at: number, s: string, force = false) => {
    if (at < 0 || at + s.length > cols) return false;
    if (!force) for (let k = Math.max(0, at - 1); k < Math.min(cols, at + s.length + 1); k++) if (taken[k]) return false;
    for (let k = 0; k < s.length; k++) {
      axis[at + k] = s[k];
      taken[at + k] = 1;
    }
    return true;
  };
  // The cursor's time over its column, on whichever side fits: `▼14:42:11` or `14:42:11▼`.
  let mark = -1;
  let markLen = 0;
  if (v.cursorCol >= 0) {
    const label = Number.isNaN(v.cursorTime) ? '' : axisTime(v.cursorTime, zone, sameDay);
    const right = v.cursorCol + 1 + label.length <= cols;
    mark = right ? v.cursorCol : Math.max(0, v.cursorCol - label.length);
    put(mark, right ? `▼${label}` : `${label}▼`.slice(-(v.cursorCol - mark + 1)), true);
    markLen = Math.min(cols - mark, label.length + 1);
  }
  const left = axisTime(v.from, zone, sameDay);
  const right = axisTime(v.to, zone, sameDay);
  put(0, left);
  put(cols - right.length, right);
  const mid = ` ${zoomNote} `;
  put(Math.floor((cols - mid.length) / 2), mid);
  const text = axis.join('');
  const out: Line[] = [
    mark < 0
      ? [{ text: ' '.repeat(labelWidth + 1) }, { text, dim: true }]
      : [
          { text: ' '.repeat(labelWidth + 1) },
          { text: text.slice(0, mark), dim: true },
          { text: text.slice(mark, mark + markLen), bold: true },
          { text: text.slice(mark + markLen), dim: true },
        ],
  ];
  for (const row of v.rows) {
    out.push([
      { text: fit(escapeText(row.label), labelWidth) + ' ', bold: true },
      ...runs(cols, (c) => {
        const h = row.height[c];
        const cursor = c === v.cursorCol;
        // Events none of which is listed (a filter is on): drawn faint, for the shape of the timeline.
        return { text: h ? BARS[h - 1] : ' ', color: h ? CLASS_COLOR[row.cls[c]] : undefined, dim: row.cls[c] === 4, inverse: cursor };
      }),
    ]);
  }
  out.push([
    { text: fit('findings', labelWidth) + ' ', dim: true },
    ...runs(cols, (c) => {
      const r = v.band[c];
      const cursor = c === v.cursorCol;
      if (r < 0) return { text: v.selected[c] ? '━' : ' ', inverse: cursor };
      const sev = (['critical', 'error', 'warning', 'info'] as const)[r];
      if (v.selected[c]) return { text: '━', color: SEVERITY_COLOR[sev], bold: true, inverse: cursor };
      return { text: SEVERITY_GLYPH[r], color: SEVERITY_COLOR[sev], inverse: cursor };
    }),
  ]);
  return out;
}

/** The parts of the model's StripView the lines need. */
interface StripViewLike {
  from: number;
  to: number;
  cols: number;
  rows: ReadonlyArray<{ label: string; height: Uint8Array; cls: Int8Array }>;
  band: Int8Array;
  selected: Uint8Array;
  cursorCol: number;
  cursorTime: number;
}

/** `zoom 4x · 2.3 s/col` for the axis. */
export function zoomNote(zoom: number, bucketMs: number): string {
  const z = zoom < 1.5 ? 'all' : `zoom ${zoom >= 10 ? Math.round(zoom) : Math.round(zoom * 10) / 10}x`;
  return `${z} · ${durationText(bucketMs)}/col`;
}
