// Events another rmq-diag parsed (`rmq-diag events --format events`, or `--json`) as an input: a
// fleet parses where its logs live and ships only the events (docs/json.md, "Events as input").
// Such a file holds the merged events of the sources it was made from, then a summary line with
// their accounting. Each of those sources becomes a source of this timeline again, with its own
// events in their own order, so the merge orders them exactly as it orders parsed logs.

import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { basename, join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { constants as zlibConstants, createGunzip, gunzipSync } from 'node:zlib';
import type { InputIssue, SourceSpec } from '../ingest/sources.js';
import type { SourceActivity } from '../parse/activity.js';
import { isUsualEvent } from '../parse/event-codec.js';
import type { EventType, RmqEvent, SourceAccounting } from '../parse/types.js';
import type { ParsedSource, SourcePart } from './parse-source.js';
import { SpillWriter } from './spill.js';
import { inferenceReader } from './other-records.js';
import type { EventsAsJson } from '../parse/event-binary.js';

/** What the summary line of `--format events` adds to each input of `--json`'s (docs/json.md). */
export interface EventsInputExtra {
  /** Epoch ms of the source's earliest and latest record (null: none dated). */
  firstTs: number | null;
  lastTs: number | null;
  bytes: number;
  activity?: SourceActivity;
}

/** Every input of the summary line, and the parse it came from. */
export interface EventsSummary {
  format?: 'events';
  defaultZone: string;
  defaultZoneChosen?: boolean;
  inputs: Array<Omit<SourceAccounting, 'events'> & Partial<EventsInputExtra> & { events: number; eventsByType?: SourceAccounting['events'] }>;
  issues: InputIssue[];
}

/** An events file read back: its sources, each parsed already, from `firstIndex` on. */
export interface EventsInput {
  specs: SourceSpec[];
  parsed: ParsedSource[];
  issues: InputIssue[];
  /** The default zone and whether its user chose it, as the summary says (null without a summary). */
  defaultZone: string | null;
  defaultZoneChosen: boolean;
}

const FIRST_BYTES = 512;
/** Compressed bytes read to see the first FIRST_BYTES of a gzipped file. */
const FIRST_BYTES_GZ = 16 << 10;

/**
 * Whether a file is events rmq-diag wrote: its first line is an event line of `events --json`
 * (`{"time":...,"host":...`) or a summary line, plain or gzipped (as it is shipped).
 */
export function isEventsFile(spec: SourceSpec): boolean {
  if (spec.path === '-') return false;
  let fd = -1;
  try {
    fd = openSync(spec.path, 'r');
    const buf = Buffer.alloc(spec.gz ? FIRST_BYTES_GZ : FIRST_BYTES);
    const n = readSync(fd, buf, 0, buf.length, 0);
    // The start of a gzip stream inflates on its own (a sync flush takes what is there).
    const head = (spec.gz ? gunzipSync(buf.subarray(0, n), { finishFlush: zlibConstants.Z_SYNC_FLUSH }) : buf.subarray(0, n)).toString('utf8', 0, FIRST_BYTES);
    return /^\{"time":(null|"[^"]*"),("clock":"[^"]*",)?"host":"/.test(head) || head.startsWith('{"type":"summary","schemaVersion":');
  } catch {
    return false; // the reader says what is wrong with the file
  } finally {
    if (fd >= 0) closeSync(fd);
  }
}

/** One source of the file while it is read: its events, held then spilled as a parse's are. */
class SourceEvents {
  readonly spill: SpillWriter;
  count = 0;
  firstTs: number | null = null;
  lastTs: number | null = null;
  readonly types: Partial<Record<EventType, number>> = {};
  constructor(
    readonly file: string,
    readonly host: string,
    readonly kind: SourceAccounting['kind'],
    spillPath: string,
    asJson: EventsAsJson,
  ) {
    this.spill = new SpillWriter(spillPath, undefined, undefined, asJson);
  }

  /** The event, or its JSON text as encodeEvent writes it (its line without the time) when it is of no usual shape. */
  add(ts: number | null, type: EventType, event: RmqEvent | string): void {
    if (typeof event === 'string') this.spill.addEncoded(ts, type, event);
    else this.spill.add(event);
    this.count++;
    this.types[type] = (this.types[type] ?? 0) + 1;
    if (ts !== null) {
      if (this.firstTs === null || ts < this.firstTs) this.firstTs = ts;
      if (this.lastTs === null || ts > this.lastTs) this.lastTs = ts;
    }
  }
}

/** Reading one events file, wherever it runs (a worker thread is sent this). */
export interface EventsJob {
  spec: SourceSpec;
  /** The index of the file's first source in the timeline. */
  firstIndex: number;
  spillDir: string;
  /** Its spill files are `events-<name>-<n>.events`. */
  name: string;
  /** Keep only these types (null: all); records that are no event only with keepOther. */
  types: EventType[] | null;
  keepOther: boolean | 'inference';
  asJson: EventsAsJson;
  /** Bytes [start, end) of a plain file, cut right after a line's end (eventsParts); absent: the whole file. */
  range?: { start: number; end: number };
}

/** One source's events in a part of an events file (or in the whole file). */
interface PartSource {
  file: string;
  host: string;
  kind: SourceAccounting['kind'];
  spill: string | null;
  tail: Uint8Array | null;
  count: number;
  firstTs: number | null;
  lastTs: number | null;
  types: Partial<Record<EventType, number>>;
}

/** What reading a part of an events file gives: its sources' events, the summary if it holds it, its notes (lines counted from the part's start). */
export interface EventsPart {
  sources: PartSource[];
  summary: EventsSummary | null;
  issues: InputIssue[];
  lines: number;
}

/**
 * The sources of an events file, from index `firstIndex` on, their events in spill files of
 * `spillDir` (as a parse leaves them), of the types a parse would keep (records that are no event
 * only when asked). Lines that are neither an event nor the summary are issues.
 */
export async function readEventsFile(job: EventsJob): Promise<EventsInput> {
  return joinEventsParts(job, [await readEventsPart(job)]);
}

/** readEventsFile's reading of the job's part (or whole file), before its sources are put together. */
export async function readEventsPart(job: EventsJob): Promise<EventsPart> {
  const { spec, spillDir, asJson } = job;
  const types = job.types ? new Set<EventType>(job.types) : null;
  const keep = (type: EventType) => (types === null || types.has(type)) && (type !== 'other' || job.keepOther !== false);
  // Events that travel as their JSON text (the output is JSON lines) keep their line's; else the binary form.
  const asText = asJson !== false && asJson !== 'both';
  const sourceOf = (o: EventLine & { file: string; host: string }) =>
    new SourceEvents(o.file, o.host, o.kind ?? 'unknown', join(spillDir, `events-${job.name}-${byFile.size}.events`), asText ? false : asJson);
  const issues: InputIssue[] = [];
  const byFile = new Map<string, SourceEvents>();
  // A timeline for inference holds only the records that are no event that inference reads, as a
  // parse keeps them, also from a file made with all of them (`events --all`); a producer link a
  // part of a large file keeps may repeat an earlier part's (inference reads the first).
  const readsOther = job.keepOther === 'inference' ? otherReader() : null;
  let summary: EventsSummary | null = null;
  let lineNo = 0;
  const line1 = (line: string): void => {
    lineNo++;
    if (line === '') return;
    let o: EventLine;
    try {
      o = JSON.parse(line);
    } catch {
      issues.push({ file: spec.display, line: lineNo, message: 'not an event line of rmq-diag events (not JSON): skipped' });
      return;
    }
    if (o.type === 'summary' && o.summary) {
      summary = o.summary;
      return;
    }
    if (typeof o.file !== 'string' || typeof o.host !== 'string' || typeof o.type !== 'string' || !('time' in o)) {
      issues.push({ file: spec.display, line: lineNo, message: 'not an event line of rmq-diag events (no time, host, file or type): skipped' });
      return;
    }
    const ts = o.time === null || o.time === undefined ? null : Date.parse(o.time);
    if (ts !== null && !Number.isFinite(ts)) {
      issues.push({ file: spec.display, line: lineNo, message: `not an event line of rmq-diag events (time ${JSON.stringify(o.time)}): skipped` });
      return;
    }
    let src = byFile.get(o.file);
    // A source all of whose events the timeline leaves out is still one of its sources.
    if (!keep(o.type as EventType) || (o.type === 'other' && readsOther !== null && !readsOther(o))) {
      if (!src) byFile.set(o.file, sourceOf(o as EventLine & { file: string; host: string }));
      return;
    }
    if (!src) byFile.set(o.file, (src = sourceOf(o as EventLine & { file: string; host: string })));
    // The event in the binary form a parse writes (decoded later without parsing its JSON again); one
    // of another shape, or for JSON output, as a parse encodes it: the line without its time (the
    // keys after it are encodeEvent's).
    const json = () => `{${line.slice(line.indexOf(',', line.indexOf('"time":') + 7) + 1)}`;
    src.add(ts, o.type as EventType, (asText ? null : eventOf(o, ts)) ?? json());
  };
  const range = job.range;
  if (!range || range.end > range.start) {
    const input = range ? createReadStream(spec.path, { start: range.start, end: range.end - 1 }) : createReadStream(spec.path);
    const text = spec.gz ? input.pipe(createGunzip()) : input;
    // A read error of the file ends the inflating too (pipe() does not pass it on).
    if (text !== input) input.on('error', (err) => text.destroy(err));
    try {
      await eachLine(text, line1);
    } catch (err) {
      // As the log reader says it (src/ingest/reader.ts): the lines read before the damage are kept.
      const why = err instanceof Error ? err.message : String(err);
      issues.push({ file: spec.display, line: lineNo || null, message: `${spec.gz ? 'broken gzip data' : 'read error'} after line ${lineNo} (the last whole line): ${why}; the rest is not read` });
    }
  }
  const sources = [...byFile.values()].map((s): PartSource => {
    s.spill.close();
    return { file: s.file, host: s.host, kind: s.kind, spill: s.spill.path, tail: s.spill.tail, count: s.count, firstTs: s.firstTs, lastTs: s.lastTs, types: s.types };
  });
  return { sources, summary, issues, lines: lineNo };
}

/**
 * The parts of an events file (in file order) put together: each source's events part after part
 * (each part's stream its own, as a split log's), the notes' lines counted from the file's start.
 */
export function joinEventsParts(job: EventsJob, parts: readonly EventsPart[]): EventsInput {
  const byFile = new Map<string, Joined>();
  const issues: InputIssue[] = [];
  let summary: EventsSummary | null = null;
  let before = 0;
  for (const part of parts) {
    for (const i of part.issues) issues.push(i.line === null ? i : { ...i, line: i.line + before });
    before += part.lines;
    summary = part.summary ?? summary;
    for (const s of part.sources) {
      const j = byFile.get(s.file);
      if (!j) {
        byFile.set(s.file, { ...s, types: { ...s.types }, more: [] });
        continue;
      }
      j.more.push({ spill: s.spill, tail: s.tail });
      j.count += s.count;
      if (s.firstTs !== null && (j.firstTs === null || s.firstTs < j.firstTs)) j.firstTs = s.firstTs;
      if (s.lastTs !== null && (j.lastTs === null || s.lastTs > j.lastTs)) j.lastTs = s.lastTs;
      for (const [t, n] of Object.entries(s.types) as Array<[EventType, number]>) j.types[t] = (j.types[t] ?? 0) + n;
    }
  }
  if (summary === null) issues.push({ file: job.spec.display, line: null, message: 'no summary line at the end (cut short?): each file it holds events of is counted by its events alone' });
  return assemble(job.spec, job.firstIndex, byFile, summary, issues);
}

/** A source's events over the parts: the first part's, then the others' in `more`. */
type Joined = PartSource & { more: SourcePart[] };

/**
 * Where a plain events file of `size` bytes is cut into `n` parts of about the same size, each cut
 * right after a line's end (null: not worth it, or no cut found). Lines are whole JSON values, so
 * any line's end is a place to cut.
 */
export function eventsParts(path: string, size: number, n: number): Array<{ start: number; end: number }> | null {
  if (n < 2) return null;
  const cuts: number[] = [];
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null; // read whole: the reader says what is wrong with the file
  }
  try {
    const buf = Buffer.allocUnsafe(CUT_LOOK);
    for (let k = 1; k < n; k++) {
      const from = Math.max(Math.floor((size * k) / n), cuts.length ? cuts[cuts.length - 1] : 0);
      const got = readSync(fd, buf, 0, CUT_LOOK, from);
      const nl = buf.subarray(0, got).indexOf(10);
      // A line longer than the look: no cut here (the part before takes it).
      if (nl >= 0 && from + nl + 1 < size) cuts.push(from + nl + 1);
    }
  } finally {
    closeSync(fd);
  }
  const starts = [0, ...new Set(cuts)];
  if (starts.length < 2) return null;
  return starts.map((start, i) => ({ start, end: i + 1 < starts.length ? starts[i + 1] : size }));
}

/** Bytes read at a planned cut to find the end of the line it falls in. */
const CUT_LOOK = 1 << 20;

/** inferenceReader for an events file's lines: its sources told apart by their file. */
function otherReader(): (o: EventLine) => boolean {
  const reads = inferenceReader();
  const sources = new Map<string, number>();
  return (o) => {
    const file = String(o.file);
    let source = sources.get(file);
    if (source === undefined) sources.set(file, (source = sources.size));
    return reads({ source, kind: o.kind ?? 'unknown', thread: o.thread ?? null, text: typeof o.text === 'string' ? o.text : '' });
  };
}

/** A line of an events file as JSON.parse gives it. */
type EventLine = Partial<Omit<RmqEvent, 'ts' | 'type'>> & { time?: string | null; type?: string; summary?: EventsSummary };

/** The keys of an event line: encodeEvent's, after the time. */
const EVENT_KEYS: ReadonlySet<string> = new Set(['time', 'clock', 'host', 'kind', 'file', 'line', 'level', 'thread', 'logger', 'type', 'fields', 'text', 'entry', 'versionHint', 'sendPath']);

/**
 * The event a line of the usual shape holds (with its time `ts`), as a parse would have made it;
 * null for a line with another key or a value of another kind, which keeps its JSON text whole.
 */
function eventOf(o: EventLine, ts: number | null): RmqEvent | null {
  for (const k in o) if (!EVENT_KEYS.has(k)) return null;
  const e = { ts, host: o.host, kind: o.kind, file: o.file, line: o.line, level: o.level, thread: o.thread, logger: o.logger, type: o.type, fields: o.fields, text: o.text, source: 0, seq: 0 } as RmqEvent;
  if (o.clock !== undefined) e.clock = o.clock;
  if (o.entry !== undefined) e.entry = o.entry;
  if (o.versionHint !== undefined) e.versionHint = o.versionHint;
  if (o.sendPath !== undefined) e.sendPath = o.sendPath;
  return isUsualEvent(e) ? e : null;
}

/**
 * Every line of a stream of UTF-8 text to `onLine`, split as readline splits them (`\n`, `\r\n`,
 * and a lone `\r`), without a promise per line.
 */
export async function eachLine(input: NodeJS.ReadableStream, onLine: (line: string) => void): Promise<void> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  const lines = (text: string, last: boolean) => {
    let at = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', at)) {
      pieces(text.slice(at, nl), onLine);
      at = nl + 1;
    }
    rest = text.slice(at);
    if (last && rest !== '') pieces(rest, onLine);
  };
  for await (const chunk of input) lines(rest + decoder.write(chunk as Buffer), false);
  lines(rest + decoder.end(), true);
}

/** A line up to a `\n`, with a `\r` at its end dropped and one inside it ending a line of its own. */
function pieces(line: string, onLine: (line: string) => void): void {
  if (line.indexOf('\r') < 0) {
    onLine(line);
    return;
  }
  const parts = line.split('\r');
  // "a\r" is the line "a" (a \r\n); "a\rb" is two lines.
  const n = parts[parts.length - 1] === '' ? parts.length - 1 : parts.length;
  for (let i = 0; i < n; i++) onLine(parts[i]);
}

/** The sources in the summary's order (the order they were read in), then any it does not name. */
function assemble(spec: SourceSpec, firstIndex: number, byFile: Map<string, Joined>, summary: EventsSummary | null, issues: InputIssue[]): EventsInput {
  const specs: SourceSpec[] = [];
  const parsed: ParsedSource[] = [];
  const add = (accounting: SourceAccounting, events: Joined | undefined, extra: Partial<EventsInputExtra>) => {
    const index = firstIndex + specs.length;
    specs.push({ path: accounting.path, display: accounting.path, host: accounting.host, kindHint: accounting.kind, kindForced: true, gz: false, group: `${accounting.host}/${basename(accounting.path)}`, rotation: 0 });
    parsed.push({
      index,
      accounting,
      issues: [],
      spill: events?.spill ?? null,
      tail: events?.tail ?? null,
      ...(events?.more.length ? { more: events.more } : {}),
      count: events?.count ?? 0,
      firstTs: extra.firstTs !== undefined ? extra.firstTs : (events?.firstTs ?? null),
      lastTs: extra.lastTs !== undefined ? extra.lastTs : (events?.lastTs ?? null),
      bytes: extra.bytes ?? 0,
      encoding: accounting.encoding ?? 'utf-8',
    });
  };
  for (const input of summary?.inputs ?? []) {
    // The summary's `events` is the file's total; the accounting's is by type (`eventsByType`).
    const { firstTs, lastTs, bytes, activity, eventsByType, events: _total, ...rest } = input;
    const accounting: SourceAccounting = { ...rest, events: eventsByType ?? {} };
    if (activity) accounting.activity = activity;
    add(accounting, byFile.get(input.path), { firstTs, lastTs, bytes });
    byFile.delete(input.path);
  }
  for (const s of byFile.values()) {
    add({ path: s.file, kind: s.kind, host: s.host, layout: 'none', zone: 'printed', lines: s.count, records: s.count, continuation: 0, unknown: 0, unreadable: 0, events: s.types }, s, {});
  }
  if (summary !== null && summary.format !== 'events') {
    issues.push({ file: spec.display, line: null, message: 'made by events --json, not --format events: no records that are no event, and no activity of the servers (analyze and replay read less than from the logs)' });
  }
  issues.push(...(summary?.issues ?? []));
  return { specs, parsed, issues, defaultZone: summary?.defaultZone ?? null, defaultZoneChosen: summary?.defaultZoneChosen ?? false };
}
