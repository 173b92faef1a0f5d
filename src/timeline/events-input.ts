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
import { UsageError } from '../util/errors.js';
import { EVENTS_SCHEMA_VERSION, eventLineProblem, summaryProblem } from './events-check.js';

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
  /** What tells each source from the others (null: the events file's own lines skipped): dropRepeats. */
  seen: Array<SourceSeen | null>;
  /** The default zones its files were parsed with and whether a user chose one, as their summaries say. */
  defaultZones: string[];
  defaultZoneChosen: boolean;
}

/** Bytes of a file's start looked at: enough for the start of the first few lines. */
const FIRST_BYTES = 4096;
/** Compressed bytes read to see the first FIRST_BYTES of a gzipped file. */
const FIRST_BYTES_GZ = 16 << 10;
/** Lines before the first event or summary line that may be something else (a log line, a shell's). */
const FIRST_LINES = 5;
const EVENT_LINE_START = /^\{"time":(null|"[^"]*"),("clock":"[^"]*",)?"host":"/;

/**
 * Whether a file is events rmq-diag wrote: one of its first lines is an event line of `events --json`
 * (`{"time":...,"host":...`) or a summary line, plain or gzipped (as it is shipped). The lines before
 * it (a line a script or a shell wrote first) are notes when the file is read.
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
    return head
      .split('\n', FIRST_LINES)
      .some((line) => EVENT_LINE_START.test(line) || line.startsWith('{"type":"summary","schemaVersion":'));
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
  /** The place in its log of its first line read; of its last (time, line), and that line's type and length. */
  first: LinePlace | null = null;
  atTs: number | null = null;
  atLine = 0;
  atType = '';
  atLength = -1;
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

/** Where an event line stands in its log: its time (null: none) and line. */
interface LinePlace {
  ts: number | null;
  line: number;
}

/**
 * Whether an event at `next` may follow one at `prev` in its source's events. A parse writes a log's
 * events in the order of their lines, a paste's (parse-source.ts, isPaste) in time order within a
 * window, equal times in line order, an undated event after the one before it in the file: so an
 * event before the previous one by line comes after it in time, or the lines were moved.
 */
function mayFollow(prevTs: number | null, prevLine: number, ts: number | null, line: number): boolean {
  return line >= prevLine || (ts !== null && prevTs !== null && ts > prevTs);
}

/** Counts of the lines of a part read with a note, and the first line (of the part) of each. */
export interface LineTally {
  n: number;
  first: number | null;
}

function tally(t: LineTally, line: number): void {
  if (t.n++ === 0) t.first = line;
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
  first: LinePlace | null;
  last: LinePlace | null;
}

/**
 * The events of one file an events file holds several of (`cat a.events b.events`, a gzip of
 * several members): its sources, and the summary line that ends it (null: none, or a damaged one;
 * `ended` says whether a summary line ended it, else it goes on in the next part or was cut short).
 */
interface PartMember {
  sources: PartSource[];
  summary: EventsSummary | null;
  ended: boolean;
  /** The summary line (counted from the part's start). */
  endLine: number | null;
}

/** What reading a part of an events file gives: its members' events, its notes (lines counted from the part's start). */
export interface EventsPart {
  members: PartMember[];
  issues: InputIssue[];
  lines: number;
  /** Lines skipped as no line of the schema; lines out of their log's order; a line repeated right after itself. */
  damaged: LineTally;
  unordered: LineTally;
  repeated: LineTally;
  /** Why the file is not read (a schemaVersion of another version), or null. */
  refused: string | null;
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
  let spills = 0;
  const sourceOf = (o: EventLine & { file: string; host: string }) =>
    new SourceEvents(o.file, o.host, o.kind ?? 'unknown', join(spillDir, `events-${job.name}-${spills++}.events`), asText ? false : asJson);
  const part: EventsPart = { members: [], issues: [], lines: 0, damaged: { n: 0, first: null }, unordered: { n: 0, first: null }, repeated: { n: 0, first: null }, refused: null };
  const { issues } = part;
  // The sources of the file being read, by file, and by host and file where files of several hosts
  // share a name (a key made per line would cost a string and its hash per line).
  let byFile = new Map<string, SourceEvents>();
  let byHostFile = new Map<string, SourceEvents>();
  const close = (summary: EventsSummary | null, ended: boolean, endLine: number | null) => {
    part.members.push({ sources: [...byFile.values(), ...byHostFile.values()].map(partSource), summary, ended, endLine });
    byFile = new Map();
    byHostFile = new Map();
  };
  // A timeline for inference holds only the records that are no event that inference reads, as a
  // parse keeps them, also from a file made with all of them (`events --all`); a producer link a
  // part of a large file keeps may repeat an earlier part's (inference reads the first).
  let readsOther = job.keepOther === 'inference' ? otherReader() : null;
  let lineNo = 0;
  const damaged = (why: string) => {
    tally(part.damaged, lineNo);
    issues.push({ file: spec.display, line: lineNo, message: `not a line of rmq-diag events (${why}): skipped` });
  };
  const line1 = (line: string): void => {
    lineNo++;
    if (line === '' || part.refused !== null) return;
    let o: EventLine;
    try {
      o = JSON.parse(line);
    } catch {
      return damaged('not JSON');
    }
    if (typeof o !== 'object' || o === null || Array.isArray(o)) return damaged(`${o === null ? 'null' : Array.isArray(o) ? 'a list' : typeof o}, not an object`);
    if (o.type === 'summary') {
      if (o.schemaVersion !== EVENTS_SCHEMA_VERSION) {
        const v = o.schemaVersion === undefined ? 'no schemaVersion' : `schemaVersion ${JSON.stringify(o.schemaVersion).slice(0, 20)}`;
        part.refused = `${spec.display} line ${lineNo}: ${v} in its summary line, and this rmq-diag reads events files of schemaVersion ${EVENTS_SCHEMA_VERSION} (made by another version of rmq-diag?)`;
        return;
      }
      const why = summaryProblem(o.summary);
      if (why !== null) {
        tally(part.damaged, lineNo);
        issues.push({ file: spec.display, line: lineNo, message: `a damaged summary line (${why}): the accounting of the files above it is not read, each is counted by its events` });
      }
      close(why === null ? o.summary! : null, true, lineNo);
      // Inference tells the sources of each file apart anew.
      if (readsOther !== null) readsOther = otherReader();
      return;
    }
    const ts = o.time === null || o.time === undefined ? null : typeof o.time === 'string' ? Date.parse(o.time) : NaN;
    const why = eventLineProblem(o as Record<string, unknown>, ts);
    if (why !== null) return damaged(why);
    const at = o.line!;
    let src = byFile.get(o.file!);
    if (src !== undefined && src.host !== o.host) src = byHostFile.get(`${o.host}\0${o.file}`);
    if (src === undefined) {
      src = sourceOf(o as EventLine & { file: string; host: string });
      if (byFile.has(src.file)) byHostFile.set(`${src.host}\0${src.file}`, src);
      else byFile.set(src.file, src);
      src.first = { ts, line: at };
    } else {
      // The same line twice in a row (a line repeated): read once. A record gives one event of a
      // type (docs/events.md), so the same time, line, type and length is the same line.
      if (at === src.atLine && ts === src.atTs && o.type === src.atType && line.length === src.atLength) {
        tally(part.repeated, lineNo);
        return;
      }
      if (!mayFollow(src.atTs, src.atLine, ts, at)) tally(part.unordered, lineNo);
    }
    src.atTs = ts;
    src.atLine = at;
    src.atType = o.type!;
    src.atLength = line.length;
    // A source all of whose events the timeline leaves out is still one of its sources.
    if (!keep(o.type as EventType) || (o.type === 'other' && readsOther !== null && !readsOther(o))) return;
    // The event in the binary form a parse writes (decoded later without parsing its JSON again); one
    // of another shape, or for JSON output, as a parse encodes it: the line without its time (the
    // keys after it are encodeEvent's).
    const json = () => `{${line.slice(line.indexOf(',', line.indexOf('"time":') + 7) + 1)}`;
    src.add(ts, o.type as EventType, (asText ? null : eventOf(o, ts)) ?? json());
  };
  const range = job.range;
  if (!range || range.end > range.start) {
    const input = range ? createReadStream(spec.path, { start: range.start, end: range.end - 1 }) : createReadStream(spec.path);
    // A gzip of several members (`cat a.gz b.gz`, `gzip -c a b`) inflates to all of them.
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
  if (byFile.size > 0 || part.members.length === 0) close(null, false, null);
  part.lines = lineNo;
  return part;
}

function partSource(s: SourceEvents): PartSource {
  s.spill.close();
  return { file: s.file, host: s.host, kind: s.kind, spill: s.spill.path, tail: s.spill.tail, count: s.count, firstTs: s.firstTs, lastTs: s.lastTs, types: s.types, first: s.first, last: s.first === null ? null : { ts: s.atTs, line: s.atLine } };
}

/** A file of an events file once its parts are put together: its sources, by host and file. */
interface JoinedMember {
  sources: Map<string, Joined>;
  summary: EventsSummary | null;
  ended: boolean;
  endLine: number | null;
}

/**
 * The parts of an events file (in file order) put together: each source's events part after part
 * (each part's stream its own, as a split log's), the notes' lines counted from the file's start,
 * and each file it holds (ended by its summary line) a file again.
 */
export function joinEventsParts(job: EventsJob, parts: readonly EventsPart[]): EventsInput {
  const issues: InputIssue[] = [];
  const members: JoinedMember[] = [];
  let open: JoinedMember = { sources: new Map(), summary: null, ended: false, endLine: null };
  const tallies = { damaged: { n: 0, first: null as number | null }, unordered: { n: 0, first: null as number | null }, repeated: { n: 0, first: null as number | null } };
  let before = 0;
  for (const part of parts) {
    if (part.refused !== null) throw new UsageError(part.refused);
    for (const i of part.issues) issues.push(i.line === null ? i : { ...i, line: i.line + before });
    for (const k of ['damaged', 'unordered', 'repeated'] as const) {
      if (part[k].n > 0 && tallies[k].n === 0) tallies[k].first = part[k].first! + before;
      tallies[k].n += part[k].n;
    }
    for (const m of part.members) {
      for (const s of m.sources) joinSource(open, s, tallies.unordered, before);
      if (!m.ended) continue;
      members.push({ ...open, summary: m.summary, ended: true, endLine: m.endLine! + before });
      open = { sources: new Map(), summary: null, ended: false, endLine: null };
    }
    before += part.lines;
  }
  if (open.sources.size > 0 || members.length === 0) {
    members.push(open);
    issues.push({ file: job.spec.display, line: null, message: 'no summary line at the end (cut short?): each file it holds events of is counted by its events alone' });
  }
  const { display } = job.spec;
  const more = (t: LineTally) => (t.n > 1 ? ` (and ${t.n - 1} more line${t.n > 2 ? 's' : ''} below)` : '');
  if (tallies.unordered.n > 0) issues.push({ file: display, line: tallies.unordered.first, message: `an event before the one above it in its log${more(tallies.unordered)} (lines moved or shuffled?): read where it stands, so the report may differ from the logs'` });
  if (tallies.repeated.n > 0) issues.push({ file: display, line: tallies.repeated.first, message: `the line above it again${more(tallies.repeated)}: read once` });
  return assemble(job, members, tallies.damaged.n, issues);
}

/** A part's source added to the file it belongs to: a source of the part before goes on. */
function joinSource(into: JoinedMember, s: PartSource, unordered: LineTally, before: number): void {
  const key = `${s.host}\0${s.file}`;
  const j = into.sources.get(key);
  if (!j) {
    into.sources.set(key, { ...s, types: { ...s.types }, more: [] });
    return;
  }
  // Where a part meets the next, a line out of order is seen here (each part sees its own).
  if (j.last !== null && s.first !== null && !mayFollow(j.last.ts, j.last.line, s.first.ts, s.first.line)) tally(unordered, before + 1);
  j.more.push({ spill: s.spill, tail: s.tail });
  j.count += s.count;
  j.last = s.last ?? j.last;
  if (s.firstTs !== null && (j.firstTs === null || s.firstTs < j.firstTs)) j.firstTs = s.firstTs;
  if (s.lastTs !== null && (j.lastTs === null || s.lastTs > j.lastTs)) j.lastTs = s.lastTs;
  for (const [t, n] of Object.entries(s.types) as Array<[EventType, number]>) j.types[t] = (j.types[t] ?? 0) + n;
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
type EventLine = Partial<Omit<RmqEvent, 'ts' | 'type'>> & { time?: string | null; type?: string; summary?: EventsSummary; schemaVersion?: unknown };

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

/**
 * Each file the events file holds, its sources in its summary's order (the order they were read
 * in), then any the summary does not name; then, when lines were skipped, the events file itself
 * as a source of that many unreadable lines (every line is accounted for).
 */
function assemble(job: EventsJob, members: JoinedMember[], damaged: number, issues: InputIssue[]): EventsInput {
  const { spec, firstIndex } = job;
  const out: EventsInput = { specs: [], parsed: [], seen: [], issues, defaultZones: [], defaultZoneChosen: false };
  const add = (accounting: SourceAccounting, events: Joined | undefined, extra: Partial<EventsInputExtra>, seen: SourceSeen | null) => {
    const index = firstIndex + out.specs.length;
    out.specs.push({ path: accounting.path, display: accounting.path, host: accounting.host, kindHint: accounting.kind, kindForced: true, gz: false, group: `${accounting.host}/${basename(accounting.path)}`, rotation: 0 });
    out.seen.push(seen);
    out.parsed.push({
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
  const notes: InputIssue[] = [];
  let fromJson = false;
  for (const { sources, summary, endLine } of members) {
    // Which of the files it holds, where it holds several.
    const where = members.length < 2 ? '' : endLine === null ? ' (at its end, without a summary line)' : ` (the file summed up at line ${endLine})`;
    for (const input of summary?.inputs ?? []) {
      // The summary's `events` is the file's total; the accounting's is by type (`eventsByType`).
      const { firstTs, lastTs, bytes, activity, eventsByType, events: _total, ...rest } = input;
      const accounting: SourceAccounting = { ...rest, events: eventsByType ?? {} };
      if (activity) accounting.activity = activity;
      const key = `${input.host}\0${input.path}`;
      const print = JSON.stringify([rest.layout, rest.lines, rest.records, _total, bytes ?? null, firstTs ?? null, lastTs ?? null]);
      add(accounting, sources.get(key), { firstTs, lastTs, bytes }, { id: `${key}\0${input.kind}`, print, lines: input.lines, where });
      sources.delete(key);
    }
    for (const [key, s] of sources) {
      const print = JSON.stringify(['events', s.count, s.firstTs, s.lastTs]);
      const accounting: SourceAccounting = { path: s.file, kind: s.kind, host: s.host, layout: 'none', zone: 'printed', lines: s.count, records: s.count, continuation: 0, unknown: 0, unreadable: 0, events: s.types };
      add(accounting, s, {}, { id: `${key}\0${s.kind}`, print, lines: s.count, where });
    }
    if (summary === null) continue;
    fromJson ||= summary.format !== 'events';
    if (!out.defaultZones.includes(summary.defaultZone)) out.defaultZones.push(summary.defaultZone);
    out.defaultZoneChosen ||= summary.defaultZoneChosen ?? false;
    notes.push(...summary.issues);
  }
  if (damaged > 0) {
    // Of the host its events are of (where they are one host's, as a host's file is).
    const hosts = new Set(out.specs.map((s) => s.host));
    const host = hosts.size === 1 ? [...hosts][0] : spec.host;
    const accounting: SourceAccounting = { path: spec.display, kind: 'unknown', host, layout: 'none', zone: 'printed', lines: damaged, records: 0, continuation: 0, unknown: 0, unreadable: damaged, events: {} };
    add(accounting, undefined, {}, null);
  }
  if (fromJson) {
    issues.push({ file: spec.display, line: null, message: 'made by events --json, not --format events: no records that are no event, and no activity of the servers (analyze and replay read less than from the logs)' });
  }
  issues.push(...notes);
  return out;
}

/** What tells a source of an events file from another (dropRepeats): the log, its reading, where it is. */
interface SourceSeen {
  /** Host, path and kind of the log. */
  id: string;
  /** Its accounting (or its events, without a summary): equal for two readings of the same log. */
  print: string;
  lines: number;
  where: string;
}

/**
 * The events files read (in input order, `displays` their names) with each log given twice kept
 * once: the same file given twice, joined twice (`cat a b a`), or copied under another name gives
 * the same host, file and accounting again (read once, one note per file); two different readings
 * of the same log (parsed at two times while it grew) keep the one of more lines, with a note.
 * Sources are numbered again from 0 in each file.
 */
export function dropRepeats(files: EventsInput[], displays: readonly string[]): InputIssue[] {
  const issues: InputIssue[] = [];
  const kept = new Map<string, { file: number; at: number; print: string; lines: number }>();
  const drop = files.map(() => new Set<number>());
  // Per file: the files whose logs it gave again, and how many.
  const again = files.map(() => new Map<number, number>());
  files.forEach((f, i) =>
    f.seen.forEach((s, at) => {
      if (s === null) return;
      const k = kept.get(s.id);
      if (!k) {
        kept.set(s.id, { file: i, at, print: s.print, lines: s.lines });
        return;
      }
      if (k.print === s.print) {
        drop[i].add(at);
        again[i].set(k.file, (again[i].get(k.file) ?? 0) + 1);
        return;
      }
      const [host, path] = s.id.split('\0');
      const keepNew = s.lines > k.lines;
      const other = files[k.file].seen[k.at]!;
      issues.push({
        file: displays[i],
        line: null,
        message: `${host} ${path}: two different readings of this log (${k.lines} lines in ${displays[k.file]}${other.where}, ${s.lines} here${s.where}): the one of ${Math.max(k.lines, s.lines)} lines is read, the other left out`,
      });
      if (keepNew) {
        drop[k.file].add(k.at);
        kept.set(s.id, { file: i, at, print: s.print, lines: s.lines });
      } else drop[i].add(at);
    }),
  );
  again.forEach((by, i) => {
    for (const [from, n] of by) {
      const logs = `${n} log${n === 1 ? '' : 's'}`;
      const message =
        from === i
          ? `holds the events of ${logs} twice (the same host, file and accounting: joined twice?): read once`
          : `holds the events of ${logs} that ${displays[from]} holds too (the same host, file and accounting): read once`;
      issues.push({ file: displays[i], line: null, message });
    }
  });
  files.forEach((f, i) => {
    if (drop[i].size === 0) return;
    const keep = (_: unknown, at: number) => !drop[i].has(at);
    f.specs = f.specs.filter(keep);
    f.seen = f.seen.filter(keep);
    f.parsed = f.parsed.filter(keep);
    f.parsed.forEach((p, at) => (p.index = at));
  });
  return issues;
}
