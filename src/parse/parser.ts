// One source's lines -> records -> typed events, with exact accounting.
//
// Every line lands in exactly one count:
//   records       a line that starts a record: a header of a known layout, the first line of an
//                 exception printed without a header (a pasted stack), or an SLS copy's `+N` marker;
//   continuation  a line that belongs to the record above: stack frames, `Caused by:`, `... N more`,
//                 FAQ lines, wrapped message lines, the blank line after a 4.x client stack;
//   unknown       a line outside any record (a paste that starts mid-stack, a header cut off,
//                 a message with an application prefix and no header); still searched for events;
//   unreadable    reported by the reader (binary, over-long).
// Events are found in header messages and in any other line (stack lines included), at the line
// where the text appears; one record yields one event of a kind even when a `Caused by:` chain
// repeats the same text.

import { CLIENT_IMPL, compatibleFields, fillCause, finishedPath, framePath, mergeIntoRecord, pathOpen, type FramesSeen } from './record.js';
import { KEYWORDS, matchMessage, type CatalogueMatch } from './catalogue.js';
import { CONSUMER_CLIENT_WORDS } from './catalogue-consumer.js';
import { keywordScanner, keywordStarts } from './keyword-scan.js';
import { LAYOUTS, LAYOUT_NONE, LAYOUT_SLS, type Layout } from './layouts.js';
import { ISO8601, compileTimestamp, type TimestampReader, type TsFields } from './timestamp.js';
import { GMT8, parseZone, type Zone } from './time.js';
import { ActivityTracker, type ActivityEdges } from './activity.js';
import { type EventFields, type EventType, type RmqEvent, type SourceAccounting } from './types.js';
import { SERVER_KINDS, type SourceKind } from '../ingest/kinds.js';
import { kindFromName } from '../ingest/sources.js';
import { criPrefix, detectPrefix, prefixLength, prefixName, type LinePrefix } from './prefix.js';

interface SourceParserOptions {
  file: string;
  host: string;
  sourceIndex: number;
  kindHint: SourceKind | null;
  kindForced: boolean;
  /** Zone for layouts whose zone is the JVM's/application's. */
  defaultZone: Zone;
  /** Zone forced by `--tz GLOB=ZONE`: applies whatever the layout says. */
  forcedZone?: Zone | null;
  /**
   * Emit `other` events for records that match no catalogue entry; a function emits only those it
   * accepts, decided before the event is built (most records are no event: building each costs).
   */
  keepOther?: boolean | ((kind: SourceKind, text: string) => boolean);
  /** Lines kept to detect the layout before locking on. */
  detectLines?: number;
  /** Layouts of the user (`--pattern`), tried before the built-in ones. */
  layouts?: readonly Layout[];
}

type DetectLine = [text: string, lineNo: number, repeats: number, byteAt: number];

/**
 * Where the parser hands its events. `byteAt`, for an `other` event (a record that is no RocketMQ
 * event) whose text is its header line exactly as the file holds it, at that byte offset (as
 * UTF-8: LineSink.line), with a time of its own (no clock): a consumer may keep that place instead
 * of the text and read the line again from the file (the TUI's store).
 */
export type EmitEvent = (e: RmqEvent, byteAt?: number) => void;

/** SourceParser.stateAtCut: plain data, posted between threads. */
export interface CutState {
  decided: boolean;
  primary: string | null;
  current: string | null;
  lastLayout: string | null;
  sls: boolean;
  zone: string;
  kind: SourceKind;
  activity: boolean;
  fakeMillis: boolean | null;
  fakeVotes: number;
  fakeSeconds: number[];
  held: boolean;
  loose: boolean;
  wrapRun: number;
  timed: boolean;
  /** The prefix cut off each line (prefixName), or null. */
  prefix: string | null;
  /** A CRI partial line waits for the rest of its line. */
  partial: boolean;
}

/** SourceParser.partInfo. */
export interface PartInfo {
  /** The earlier part's state at its end (end(true)); null for the last part. */
  cutState: CutState | null;
  /** A later part: its first line after the cut. */
  afterCut: 'header' | 'other' | null;
  layoutsSeen: string[];
  primary: string | null;
  badTimes: number;
  activityEdges: ActivityEdges | null;
}

export interface ParseIssue {
  file: string;
  line: number | null;
  message: string;
}

interface CompiledLayout {
  layout: Layout;
  ts: TimestampReader | null;
  tsAt: number;
  /** First characters a header may have (char codes < 128), when the time is no fixed-position gate. */
  starts: Uint8Array | null;
  /** First characters a header of this layout can have at all (1 = may). */
  first: Uint8Array;
}

/** The characters a timestamp format can start with: digits, or capitals for `MMM`/`EEE`, or its literal. */
function firstOfFormat(format: string, t: Uint8Array): void {
  const c = format[0];
  if (format.startsWith('MMM') || format.startsWith('EEE')) for (let k = 65; k <= 90; k++) t[k] = 1;
  else if (c === "'") t[format.charCodeAt(1) & 127] = 1;
  else if (/[yMdHmsS]/.test(c) || format === ISO8601) for (let k = 48; k <= 57; k++) t[k] = 1;
  else t[format.charCodeAt(0) & 127] = 1;
}

/** A layout as the parser uses it: its time reader and its cheap first test. */
function compileLayout(layout: Layout): CompiledLayout {
  const startChars = layout.starts ?? (layout.ts ? null : '[');
  let starts: Uint8Array | null = null;
  if (startChars !== null) {
    starts = new Uint8Array(128);
    if (startChars === '') starts.fill(1);
    for (const ch of startChars) starts[ch.charCodeAt(0) & 127] = 1;
  }
  let first = starts;
  if (first === null) {
    first = new Uint8Array(128);
    if (layout.tsPrefix) first[layout.tsPrefix.charCodeAt(0) & 127] = 1;
    else firstOfFormat(layout.ts!, first);
  }
  return { layout, ts: layout.ts ? compileTimestamp(layout.ts) : null, tsAt: layout.tsPrefix?.length ?? 0, starts, first };
}

/** Per first character, the layouts whose header can start with it, in priority order. */
function byFirstChar(layouts: readonly CompiledLayout[]): CompiledLayout[][] {
  const t: CompiledLayout[][] = Array.from({ length: 128 }, () => []);
  for (const l of layouts) for (let c = 0; c < 128; c++) if (l.first[c]) t[c].push(l);
  return t;
}

const byPriority = (a: CompiledLayout, b: CompiledLayout) => a.layout.priority - b.layout.priority;
const BUILT_IN: CompiledLayout[] = LAYOUTS.map(compileLayout).sort(byPriority);

/** Characters a header of some layout can start with (digits and `[` always: a line number or debris may hide one). */
function headerStarts(layouts: readonly CompiledLayout[]): Uint8Array {
  const t = new Uint8Array(128);
  for (let c = 48; c <= 57; c++) t[c] = 1;
  t[91] = 1;
  for (const l of layouts) if (l.starts) for (let c = 0; c < 128; c++) if (l.starts[c]) t[c] = 1;
  return t;
}

const EXCEPTION_START = /^(?:Caused by: )?[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+(?:Exception|Error|Throwable)(?::|$)/;
const NOT_A_TAIL = /^(?:Caused by:|For more information|See http|Message\{|\.\.\. \d)/;
const JAR_VERSION = /rocketmq-(?:client|remoting|common)-(\d+\.\d+\.\d+)[^:]*\.jar/;
/** The version hint of the 5.1+ remoting client's layout (rocketmq-client-5x), which the gRPC Java client shares. */

/** True when a line may hold a catalogue message (same answer as KEYWORD_PREFILTER, faster). */
export const hasKeyword = keywordScanner(KEYWORDS);
/** The same keywords in a block of ASCII bytes (the reader's LineSink.keywordStarts): line(text, n, false) = !hasKeyword(text). */
const KEYWORD_STARTS = keywordStarts(KEYWORDS);
const SLS_MARK = /^\+\d+$/;
const SLS_TS = /^\[(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})\]$/;
const SLS_TS_READER = compileTimestamp('yyyy-MM-dd HH:mm:ss');
/** Layout detection decides early past this much held text or this many held lines. */
const DETECT_MAX_CHARS = 1 << 20;
const DETECT_MAX_ENTRIES = 4096;

interface OpenRecord {
  line: number;
  text: string;
  /** Where `text` is in the file when it is the header line's bytes (LineSink.line's byteAt); -1: not so. */
  byteAt: number;
  /** Epoch ms; undefined until read (see recTs), null when the record has no date. */
  ts: number | null | undefined;
  tsText: string | null;
  tsReader: TimestampReader | null;
  /** Layout of the header, and the header text not yet parsed (null once parsed). */
  layout: CompiledLayout | null;
  matched: string | null;
  /** The header regex's match of `matched`, when openRecord had it made (a header with a keyword). */
  header: RegExpExecArray | null;
  /** The header's message, once parsed. */
  msg: string;
  /** Where `msg` starts in the header line when it is the line's tail as matched (-1: not known so). */
  msgAt: number;
  /** Still looking for a RocketMQ jar version in this record's stack frames. */
  jarCheck: boolean;
  /** The producer's send method seen in this record's stack so far (see framePath). */
  sendPath: FramesSeen;
  fakeCheck: boolean;
  clock: string | undefined;
  level: string | null;
  thread: string | null;
  logger: string | null;
  /**
   * Events of this record, held until the record closes (fields may still be filled from later
   * lines); NO_EVENTS until the first (most records have none: no array each).
   */
  events: RmqEvent[];
  /** Event waiting for its cause from the next exception line. */
  needsCause: RmqEvent | null;
  /** Number of lines since the header (for messageOnNextLine). */
  lines: number;
  matchedAny: boolean;
  /** The last line of text read in this record and its number: a message folded onto the next line is read joined. */
  foldText: string | null;
  foldLine: number;
}

/** A line this long that is followed by a line of text may have been folded (terminal, mail, 80 columns and up). */
const FOLD_MIN = 60;

/** OpenRecord.events of a record with none yet: shared, never pushed to (addHit gives a record its own). */
const NO_EVENTS: RmqEvent[] = [];

export class SourceParser {
  private readonly opts: SourceParserOptions;
  private readonly emit: EmitEvent;
  private readonly detectLimit: number;
  /**
   * Lines held until the layout is known: [text, first line number, repeats, the first's byteAt or
   * -1] (identical lines in a row are held once).
   */
  private detectBuf: DetectLine[] | null = [];
  private detectNonBlank = 0;
  private detectChars = 0;

  private primary: CompiledLayout | null = null;
  private current: CompiledLayout | null = null;
  /** What each line has before its header (src/parse/prefix.ts), decided with the layout; null: nothing. */
  private prefix: LinePrefix | null = null;
  /** The kind the file names of a grep -H prefix say, when they agree. */
  private prefixKind: SourceKind | null = null;
  /** CRI partial lines (`P`) per stream: their text so far, their first line number, how many lines. */
  private partials: Map<string, { text: string; lineNo: number; lines: number }> | null = null;
  private sls = false;
  private zone: Zone = GMT8;
  private zoneName = '+08:00';
  private kind: SourceKind = 'unknown';
  /** Server logs: the time of every record (a host's silences), not only of those with events. */
  private activity: ActivityTracker | null = null;

  private rec: OpenRecord | null = null;
  private lastDated: OpenRecord | null = null;
  /** The last `late-response` (`receive response, but not matched any request, addr`), for the response the next record dumps. */
  private lateResponse: RmqEvent | null = null;
  private lastLayout: CompiledLayout | null = null;
  private loose: RmqEvent | null = null;
  private seq = 0;
  private lastTs: number | null = null;
  private firstTs: number | null = null;
  private badTimes = 0;
  /** The second read last (see sameSecond): its reader, its text up to the fraction, its epoch ms. */
  private secReader: TimestampReader | null = null;
  private secText = '';
  private secMs = 0;
  private firstBadTime: { line: number; text: string } | null = null;
  private wrapRun = 0;

  // Fake millis (4.3.0-4.7.1 inner logger): decided from the first records, events held until then.
  private fakeMillis: boolean | null = null;
  private fakeVotes = 0;
  private fakeSeconds = new Set<number>();
  private held: RmqEvent[] | null = null;

  private readonly versionHints = new Set<string>();
  /** The consumer groups a gRPC client's push consumers started in this file (two at most: then none is assumed). */
  private readonly grpcGroups = new Set<string>();
  /** A later part of a split file: what its first line after the cut was (null: no line yet). */
  private afterCut: 'header' | 'other' | null = null;
  private resumed = false;
  private cutState: CutState | null = null;
  readonly issues: ParseIssue[] = [];
  private readonly acc: SourceAccounting;
  private layoutsSeen = new Set<string>();
  private readonly compiled: readonly CompiledLayout[];
  private readonly starts: Uint8Array;
  private readonly byFirst: CompiledLayout[][];

  constructor(opts: SourceParserOptions, emit: EmitEvent) {
    this.opts = opts;
    this.emit = emit;
    this.compiled = opts.layouts?.length ? [...opts.layouts.map(compileLayout), ...BUILT_IN] : BUILT_IN;
    this.starts = this.compiled === BUILT_IN ? BUILT_IN_STARTS : headerStarts(this.compiled);
    this.byFirst = this.compiled === BUILT_IN ? BUILT_IN_BY_FIRST : byFirstChar(this.compiled);
    this.detectLimit = opts.detectLines ?? 64;
    this.acc = {
      path: opts.file,
      kind: 'unknown',
      host: opts.host,
      layout: LAYOUT_NONE,
      zone: '',
      lines: 0,
      records: 0,
      continuation: 0,
      unknown: 0,
      unreadable: 0,
      events: {},
    };
  }

  /** See LineSink.keywordStarts: the reader says which lines of its ASCII blocks hold a catalogue keyword. */
  readonly keywordStarts = KEYWORD_STARTS;

  /**
   * `keyword`: whether the line holds a catalogue keyword (hasKeyword(text)), when the reader knows;
   * `keywordAt`: where the line's first keyword occurrence starts, when the reader knows every other
   * lies inside the longest keyword starting there (LineSink.line).
   */
  line(text: string, lineNo: number, keyword?: boolean, keywordAt?: number, byteAt?: number): void {
    this.acc.lines++;
    if (this.detectBuf) {
      const blank = text.trim().length === 0;
      if (blank && this.detectNonBlank === 0) {
        // Before the first text no record is open: a blank line is outside any, whatever the layout.
        this.acc.unknown++;
        return;
      }
      const buf = this.detectBuf;
      const last = buf.length ? buf[buf.length - 1] : null;
      if (last && last[0] === text) last[2]++;
      else {
        buf.push([text, lineNo, 1, byteAt ?? -1]);
        this.detectChars += text.length;
      }
      if (!blank) this.detectNonBlank++;
      // Memory stays bounded whatever the first lines hold: decide early on long or many lines.
      if (this.detectNonBlank >= this.detectLimit || this.detectChars > DETECT_MAX_CHARS || buf.length >= DETECT_MAX_ENTRIES) this.decide();
      return;
    }
    if (this.resumed && this.afterCut === null) {
      const records = this.acc.records;
      this.feed(text, lineNo, keyword, keywordAt, byteAt);
      // Only a header starts a part as the unsplit parse goes on there (it closes the record before).
      this.afterCut = this.acc.records > records && this.rec !== null && this.rec.layout !== null ? 'header' : 'other';
      return;
    }
    this.feed(text, lineNo, keyword, keywordAt, byteAt);
  }

  /**
   * A line, its prefix cut off when the file has one (a line without it is read whole). The
   * reader's keyword positions and byte offset are of the whole line: dropped for a cut one.
   */
  private feed(text: string, lineNo: number, keyword?: boolean, keywordAt?: number, byteAt?: number): void {
    const p = this.prefix;
    if (p === null) {
      this.process(text, lineNo, keyword, keywordAt, byteAt);
      return;
    }
    if (p.form === 'cri') {
      this.feedCri(text, lineNo);
      return;
    }
    const cut = prefixLength(p, text);
    if (cut <= 0) this.process(text, lineNo, keyword, keywordAt, byteAt);
    else this.process(text.slice(cut), lineNo);
  }

  /**
   * A CRI line: a partial one (`P`, kubelet splits a line longer than its buffer) waits for the rest
   * of its stream's line, read as one line at the first one's number; the lines it took are
   * continuation (each line counted once).
   */
  private feedCri(text: string, lineNo: number): void {
    const cri = criPrefix(text);
    if (cri === null) {
      this.process(text, lineNo);
      return;
    }
    const body = text.slice(cri.length);
    const parts = (this.partials ??= new Map());
    const open = parts.get(cri.stream);
    if (cri.partial) {
      if (open) {
        open.text += body;
        open.lines++;
      } else parts.set(cri.stream, { text: body, lineNo, lines: 1 });
      return;
    }
    if (!open) {
      this.process(body, lineNo);
      return;
    }
    parts.delete(cri.stream);
    this.process(open.text + body, open.lineNo);
    this.acc.continuation += open.lines;
  }

  /** Partial CRI lines whose rest never came: read as they are. */
  private flushPartials(): void {
    if (!this.partials) return;
    for (const [stream, open] of [...this.partials]) {
      this.partials.delete(stream);
      this.process(open.text, open.lineNo);
      this.acc.continuation += open.lines - 1;
    }
  }

  /** Whether the layout is still being detected (lines are held). */
  get detecting(): boolean {
    return this.detectBuf !== null;
  }

  /**
   * The state that decides how the next line is read (and nothing counted): equal at the end of
   * one part and at the start of the next, the parts read their lines as one parse would.
   */
  stateAtCut(): CutState {
    return {
      decided: this.detectBuf === null,
      primary: this.primary?.layout.id ?? null,
      current: this.current?.layout.id ?? null,
      lastLayout: this.lastLayout?.layout.id ?? null,
      sls: this.sls,
      zone: this.zoneName,
      kind: this.kind,
      activity: this.activity !== null,
      fakeMillis: this.fakeMillis,
      fakeVotes: this.fakeVotes,
      fakeSeconds: [...this.fakeSeconds].sort((a, b) => a - b),
      held: this.held !== null,
      loose: this.loose !== null,
      wrapRun: this.wrapRun,
      timed: this.firstTs !== null,
      prefix: this.prefix ? prefixName(this.prefix) : null,
      partial: (this.partials?.size ?? 0) > 0,
    };
  }

  /**
   * A later part of a split file starts here, its layout detected from the file's first lines
   * (read before this, their events dropped): forget what those lines counted and the record they
   * left open, keep what decides how lines are read (compared with the earlier part's end).
   */
  resumeAtCut(): CutState {
    const state = this.stateAtCut();
    this.rec = null;
    this.loose = null;
    this.lastDated = null;
    this.lateResponse = null;
    this.partials = null;
    this.acc.lines = this.acc.records = this.acc.continuation = this.acc.unknown = this.acc.unreadable = 0;
    this.acc.events = {};
    this.issues.length = 0;
    this.badTimes = 0;
    this.firstBadTime = null;
    this.versionHints.clear();
    this.grpcGroups.clear();
    this.layoutsSeen.clear();
    if (this.activity) this.activity = new ActivityTracker();
    this.resumed = true;
    return state;
  }

  /** What joining this part with its neighbours needs beyond the accounting (src/timeline/split.ts). */
  partInfo(): PartInfo {
    return {
      cutState: this.cutState,
      afterCut: this.afterCut,
      layoutsSeen: [...this.layoutsSeen],
      primary: this.primary?.layout.id ?? null,
      badTimes: this.badTimes,
      activityEdges: this.activity?.edges() ?? null,
    };
  }

  unreadable(lineNo: number, reason: string): void {
    this.acc.lines++;
    this.acc.unreadable++;
    if (this.acc.unreadable <= 3) this.issues.push({ file: this.opts.file, line: lineNo, message: reason });
  }

  /**
   * Close the source: flush the open record and held events; returns the accounting. `atCut`: the
   * source goes on in another part (a file split at a record boundary, src/timeline/split.ts): its
   * last dated record's time is then read where the file really ends, as an unsplit parse does.
   */
  end(atCut = false): SourceAccounting {
    // An earlier part must have locked its layout before the cut, as the unsplit parse has there.
    if (atCut) this.cutState = this.stateAtCut();
    if (this.detectBuf) this.decide();
    this.flushPartials();
    this.closeRecord();
    if (this.lastDated && !atCut) this.recTs(this.lastDated);
    if (this.loose) {
      const ev = this.loose;
      this.loose = null;
      this.deliver(ev);
    }
    if (this.held) this.releaseHeld(this.fakeVotes > 0 && this.fakeSeconds.size > 0);
    if (this.firstBadTime) {
      const { line, text } = this.firstBadTime;
      const n = this.badTimes;
      this.issues.push({
        file: this.opts.file,
        line,
        message: `${n} record${n === 1 ? '' : 's'} with a time that does not exist (first at line ${line}: ${text}), read without a time`,
      });
    }
    if (this.acc.unreadable > 3) {
      this.issues.push({
        file: this.opts.file,
        line: null,
        message: `${this.acc.unreadable} unreadable lines in all (the first 3 are listed)`,
      });
    }
    this.acc.kind = this.kind;
    this.acc.zone = this.zoneName;
    this.acc.layout = this.layoutName();
    // A layout another client writes too (Layout.alsoWrittenBy) pins no version for that client's file.
    for (const l of LAYOUTS) {
      if (l.versionHint && this.layoutsSeen.has(l.id) && l.alsoWrittenBy?.some((h) => this.versionHints.has(h))) this.versionHints.delete(l.versionHint);
    }
    if (this.versionHints.size) this.acc.versionHints = [...this.versionHints];
    const activity = this.activity?.result();
    if (activity) this.acc.activity = activity;
    return this.acc;
  }

  get firstTime(): number | null {
    return this.firstTs;
  }
  get lastTime(): number | null {
    return this.lastTs;
  }

  // ---- layout detection -------------------------------------------------------------------

  private decide(): void {
    const buf = this.detectBuf ?? [];
    this.detectBuf = null;
    let texts = buf.map(([text]) => stripPaste(text));
    let [best, bestCount] = this.bestLayout(buf, texts, false);
    // A prefix before the headers (grep, a container runtime, a trace id: src/parse/prefix.ts) is
    // looked for only when some first lines are no header (a log of headers alone pays nothing; the
    // rest pay a bounded look at their first lines, once), and kept when it explains more of them.
    let nonBlank = 0;
    for (const [text, , n] of buf) if (text.trim().length) nonBlank += n;
    if (bestCount < nonBlank) {
      const headerOf = (t: string) => this.compiled.some((c) => c.layout.fallback !== true && this.isHeader(c, t));
      const found = detectPrefix(
        buf.map(([t]) => t),
        buf.map(([, , n]) => n),
        headerOf,
      );
      if (found && found.count > bestCount) {
        const p = found.prefix;
        this.prefix = p;
        if (p.form === 'grep' && p.files.length) this.prefixKind = agreedKind(p.files);
        texts = buf.map(([t]) => {
          const cut = p.form === 'cri' ? (criPrefix(t)?.length ?? -1) : prefixLength(p, t);
          return stripPaste(cut > 0 ? t.slice(cut) : t);
        });
        [best, bestCount] = this.bestLayout(buf, texts, false);
      }
    }
    // Fallback layouts only when no listed layout matches at all and the text is no SLS copy.
    if (!best) {
      let marks = 0;
      for (let i = 0; i + 1 < buf.length; i++) if (SLS_MARK.test(buf[i][0]) && SLS_TS.test(buf[i + 1][0])) marks++;
      if (marks > 0) this.sls = true;
      else [best] = this.bestLayout(buf, texts, true);
    }
    this.primary = best;
    this.current = best;
    this.setZoneAndKind(buf);
    if (SERVER_KINDS.has(this.kind)) this.activity = new ActivityTracker();
    if (!best && !this.sls && buf.length > 0) {
      this.issues.push({
        file: this.opts.file,
        line: null,
        message: 'no known log layout in the first lines: read as plain text (records have no time)',
      });
    }
    for (const [text, n, repeats, at] of buf) for (let k = 0; k < repeats; k++) this.feed(text, n + k, undefined, undefined, k === 0 && at >= 0 ? at : undefined);
  }

  /**
   * The layout whose headers most of the held lines (`texts`, as cut) are, and how many lines that
   * is; `fallback`: among the fallback layouts only, else among the others.
   */
  private bestLayout(buf: readonly DetectLine[], texts: readonly string[], fallback: boolean): [CompiledLayout | null, number] {
    // A paste numbered by an editor: its headers behind the numbers count too.
    const unnumbered = texts.map(stripLineNumber);
    let best: CompiledLayout | null = null;
    let bestCount = 0;
    for (const c of this.compiled) {
      if ((c.layout.fallback === true) !== fallback) continue;
      let n = 0;
      texts.forEach((text, i) => {
        const bare = unnumbered[i];
        // Identical lines in a row are held once, with how many there were.
        if (this.isHeader(c, text) || (bare !== text && this.isHeader(c, bare))) n += buf[i][2];
      });
      if (n > bestCount) {
        best = c;
        bestCount = n;
      }
    }
    return [best, bestCount];
  }

  private setZoneAndKind(buf: DetectLine[]): void {
    const layout = this.primary?.layout;
    if (this.opts.forcedZone) {
      this.zone = this.opts.forcedZone;
    } else if (layout && layout.zone === 'gmt8') {
      this.zone = GMT8;
    } else if (layout?.fixedZone) {
      this.zone = parseZone(layout.fixedZone);
    } else if (this.sls) {
      this.zone = this.opts.defaultZone;
    } else {
      this.zone = this.opts.defaultZone;
    }
    this.zoneName = layout?.zone === 'printed' && !this.opts.forcedZone ? 'printed' : this.zone.name;
    this.secReader = null; // a second read in another zone is another instant
    if (layout?.versionHint) this.versionHints.add(layout.versionHint);

    if (this.opts.kindForced && this.opts.kindHint) {
      this.kind = this.opts.kindHint;
      return;
    }
    const fromContent = this.kindFromContent(buf);
    // A grep -H paste names the files it came from: their kind when the input's own name says none.
    const hint = this.opts.kindHint ?? this.prefixKind;
    if (hint && (fromContent === null || compatible(hint, fromContent))) this.kind = hint;
    else if (fromContent) {
      if (hint && hint !== fromContent) {
        this.issues.push({
          file: this.opts.file,
          line: null,
          message: `named like a ${hint} log but reads like a ${fromContent} log: treated as ${fromContent}`,
        });
      }
      this.kind = fromContent;
    } else this.kind = hint ?? 'unknown';
  }

  private kindFromContent(buf: DetectLine[]): SourceKind | null {
    const layout = this.primary?.layout;
    const sample = buf.map(([t]) => t).join('\n');
    if (!layout) {
      return /rocketmq|RocketMQ|MQClientException|MQBrokerException/.test(sample) ? 'app' : null;
    }
    switch (layout.id) {
      case 'rocketmq-bare':
        return /\[WATERMARK\]/.test(sample) ? 'watermark' : 'broker';
      case 'rocketmq-server-nothread':
        return 'stats';
      case 'rocketmq-server':
      case 'two-digit-year': {
        if (/ (NSScheduledThread\d*|NSScanScheduledThread) - |Name Server boot success|new broker registered|scanNotActiveBroker/.test(sample))
          return 'namesrv';
        // The client's threads (MQClientInstance, PullMessageService, RebalanceService, and the consumer's own:
        // ConsumeMessageConcurrently/OrderlyService, ProcessQueue's cleaner, the lite pull consumer; 4.x and 5.x).
        if (
          / (?:MQClientFactoryScheduledThread|PullMessageService|RebalanceService|NettyClientPublicExecutor_\d+|PullMessageServiceScheduledThread|ConsumeMessage(?:Scheduled)?Thread_\S*|CleanExpireMsgScheduledThread_\S*|PullMsgThread\S*|MonitorMessageQueueChangeThread\S*) - /.test(sample) &&
          // A broker's own threads, DLedger's among them (QuorumAckChecker, StateMaintainer, EntryDispatcher: dledger 0.2-0.4), whose RPCs run on Netty client threads too.
          !/ (brokerOutApi_thread_|SendMessageThread_|BrokerControllerScheduledThread|QuorumAckChecker-|StateMaintainer|EntryDispatcher-|EntryHandler-)/.test(sample)
        )
          return 'client';
        if (CONSUMER_CLIENT_WORDS.test(sample)) return 'client';
        if (/putMessage|\[PAGECACHERT\]|\[STORETPS\]|CommitLog|AllocateMappedFileService|FlushRealTimeService/.test(sample) &&
          !/ brokerOutApi_thread_/.test(sample))
          return 'store';
        if (/NETTY SERVER PIPELINE/.test(sample) && !/ (brokerOutApi_thread_|BrokerControllerScheduledThread|main) - /.test(sample))
          return 'remoting';
        return 'broker';
      }
      default:
        return layout.impliesKind;
    }
  }

  private layoutName(): string {
    return layoutNameOf(this.primary?.layout.id ?? null, this.layoutsSeen, this.sls);
  }

  // ---- per line -----------------------------------------------------------------------------

  /** The cheap test before a layout's header regex: its first character, or the shape of its time. */
  private mayBeHeader(c: CompiledLayout, text: string): boolean {
    return c.starts ? c.starts[text.charCodeAt(0) & 127] === 1 : c.ts!.shape(text, c.tsAt);
  }

  /** Whether `text` is a header of layout `c`: the cheap test, then a regex test that builds no match object. */
  private isHeader(c: CompiledLayout, text: string): boolean {
    return this.mayBeHeader(c, text) && c.layout.header.test(text);
  }

  /** isHeader, with the match (for a header that is parsed anyway). */
  private execHeader(c: CompiledLayout, text: string): RegExpExecArray | null {
    return this.mayBeHeader(c, text) ? c.layout.header.exec(text) : null;
  }

  /** `keyword`, `keywordAt`, `byteAt`: see line. */
  private process(raw: string, lineNo: number, keyword?: boolean, keywordAt?: number, byteAt?: number): void {
    if (this.loose) this.settleLoose(raw);
    if (this.sls) {
      this.processSls(raw, lineNo);
      return;
    }
    const c0 = raw.charCodeAt(0);
    // Header candidates start with a digit, `[` or another layout's first character, or carry paste
    // debris (backtick, `**`, indent, `> ` quote marks, an editor's line number).
    if (c0 < 128 && (this.starts[c0] === 1 || c0 === 96 || c0 === 42 || c0 === 32 || c0 === 62)) {
      const digit = c0 >= 48 && c0 <= 57;
      let text = digit || this.starts[c0] === 1 ? raw : stripPaste(raw);
      // Most lines are headers of the layout the source is locked on: that test comes first, inline.
      const cur = this.current;
      let header: RegExpExecArray | null = null;
      let layout: CompiledLayout | null;
      if (cur !== null && keyword === true && text === raw) {
        // A header with a keyword is parsed anyway (recHeader): one exec instead of a test and an exec.
        header = this.execHeader(cur, text);
        layout = header !== null ? cur : this.otherLayout(text);
      } else layout = cur !== null && this.isHeader(cur, text) ? cur : this.otherLayout(text);
      if (layout === null && digit) {
        const rest = stripLineNumber(raw);
        if (rest !== raw) {
          layout = this.headerLayout(rest);
          if (layout) text = rest;
        }
      }
      if (layout) {
        if (text === raw) this.openRecord(layout, text, lineNo, keyword, keywordAt, header, byteAt);
        else this.openRecord(layout, text, lineNo);
        return;
      }
    }
    if (this.rec) {
      this.acc.continuation++;
      this.continuation(raw, lineNo, keyword, keywordAt);
      return;
    }
    if (raw.length === 0 || raw.trim().length === 0) {
      this.acc.unknown++;
      return;
    }
    const trimmed = raw.trim();
    if (EXCEPTION_START.test(trimmed)) {
      this.acc.records++;
      this.rec = this.newRecord(lineNo, trimmed, null, undefined, null, null, null);
      this.scan(trimmed, lineNo);
      return;
    }
    // Outside any record: count as unknown, but still find the events it shows.
    this.acc.unknown++;
    this.scanLoose(trimmed, lineNo);
  }

  /** The layout whose header `text` is: the current one first, then the others in priority order. */
  private headerLayout(text: string): CompiledLayout | null {
    if (this.current && this.isHeader(this.current, text)) return this.current;
    return this.otherLayout(text);
  }

  /** A layout other than the current one whose header `text` is (it becomes the current one). */
  private otherLayout(text: string): CompiledLayout | null {
    const c1 = text.charCodeAt(0);
    if (c1 >= 128 || this.starts[c1] !== 1) return null;
    for (const c of this.byFirst[c1]) {
      if (c !== this.current && this.isHeader(c, text)) {
        this.current = c;
        return c;
      }
    }
    return null;
  }

  private processSls(raw: string, lineNo: number): void {
    // Aliyun SLS console copy: `+N` / `[ts]` / `content:` / payload. Each `+N` is a record.
    if (SLS_MARK.test(raw)) {
      this.closeRecord();
      this.acc.records++;
      this.rec = this.newRecord(lineNo, raw, null, undefined, null, null, null);
      return;
    }
    if (this.rec) {
      this.acc.continuation++;
      const m = SLS_TS.exec(raw);
      if (m && this.rec.lines === 0) {
        const f = SLS_TS_READER.read(m[1]);
        if (f) {
          this.rec.ts = this.toUtc(f);
          this.noteTs(this.rec.ts);
        } else this.badTime(lineNo, m[1]);
        this.rec.lines++;
        return;
      }
      this.rec.lines++;
      if (raw === 'content:') return;
      if (this.rec.text === this.rec.text.trimEnd() && SLS_MARK.test(this.rec.text)) this.rec.text = raw;
      this.scan(raw, lineNo);
      return;
    }
    if (raw.trim().length === 0) this.acc.unknown++;
    else {
      this.acc.unknown++;
      this.scanLoose(raw.trim(), lineNo);
    }
  }

  /**
   * `keyword`: hasKeyword(matched), when known; `keywordAt`: where its first keyword starts, when the others lie inside it;
   * `header`: the header regex's match of `matched`, when made already; `byteAt`: where `matched`,
   * the whole line, is in the file (LineSink.line).
   */
  private openRecord(c: CompiledLayout, matched: string, lineNo: number, keyword?: boolean, keywordAt?: number, header: RegExpExecArray | null = null, byteAt?: number): void {
    this.closeRecord();
    this.acc.records++;
    if (c !== this.lastLayout) {
      this.layoutsSeen.add(c.layout.id);
      this.lastLayout = c;
    }
    const rec = this.newRecord(lineNo, this.unwrap(matched), undefined, undefined, null, null, null);
    rec.layout = c;
    rec.matched = matched;
    rec.header = header;
    if (byteAt !== undefined && rec.text === matched) rec.byteAt = byteAt;
    if (c.ts) {
      rec.tsReader = c.ts;
      rec.fakeCheck = c.layout.fakeMillisCheck === true;
      this.lastDated = rec;
    } else rec.ts = null;
    this.rec = rec;
    // The header's fields and time are read lazily: most records yield no event. The first
    // records are read at once (the window's start, the fake-millis vote), and a server's all.
    if (this.activity !== null) {
      const ts = this.quickTs(rec, c);
      if (ts !== null) this.activity.note(ts, lineNo);
    } else if (this.firstTs === null || (rec.fakeCheck && this.fakeMillis === null)) this.recTs(rec);
    if (keyword ?? hasKeyword(matched)) {
      const msg = this.recHeader(rec);
      // The header holds a keyword, almost always in its message: matchMessage is the test.
      if (msg) this.scan(msg, lineNo, true, keywordAt === undefined ? undefined : keywordInMessage(rec, matched, keywordAt));
    }
  }

  /** Parse the record's header (once): level, thread, logger, time text; returns the message. */
  private recHeader(rec: OpenRecord): string {
    const c = rec.layout;
    if (!c || rec.matched === null) return rec.msg;
    const m = rec.header ?? c.layout.header.exec(rec.matched)!;
    rec.matched = null;
    rec.header = null;
    const g = m.groups ?? {};
    rec.level = g.level ?? null;
    rec.thread = g.thread?.trim() || null;
    rec.logger = g.logger ?? null;
    if (c.ts && g.ts) rec.tsText = g.ts;
    const msg = g.msg ?? m.input.slice(m[0].length);
    rec.msg = rec.text !== m.input ? this.headerMsgAfterUnwrap(rec.text, msg) : msg;
    if (g.msg === undefined && rec.text === m.input) rec.msgAt = m[0].length;
    return rec.msg;
  }

  /**
   * The record's time without the header regex when the layout prints it at a fixed place (server
   * layouts do): the same time recTs reads, at a fraction of the cost.
   */
  private quickTs(rec: OpenRecord, c: CompiledLayout): number | null {
    const reader = c.ts;
    const line = rec.matched;
    if (rec.ts === undefined && c.starts === null && reader !== null && reader.width > 0 && line !== null && !rec.fakeCheck) {
      let ts = this.sameSecond(reader, line, c.tsAt);
      if (ts === undefined) {
        const f = reader.read(line.slice(c.tsAt, c.tsAt + reader.width));
        if (f && f.hasDate) ts = this.keepSecond(reader, line, c.tsAt, f, this.toUtc(f));
      }
      if (ts !== undefined) {
        rec.ts = ts;
        this.noteTs(ts);
        return ts;
      }
    }
    return this.recTs(rec);
  }

  /**
   * The epoch ms of the time at `at` in `text` when it is in the second read last (consecutive
   * records share it): the same reader, the same characters up to the fraction (the zone is the
   * source's, set once); undefined when it is not, or when its fraction is no digits (read it in full).
   */
  private sameSecond(reader: TimestampReader, text: string, at: number): number | undefined {
    if (reader !== this.secReader || text.length < at + reader.width || !text.startsWith(this.secText, at)) return undefined;
    const from = at + reader.secondAt;
    let v = 0;
    for (let k = 0; k < reader.fracWidth; k++) {
      const d = text.charCodeAt(from + k) - 48;
      if (d < 0 || d > 9) return undefined;
      v = v * 10 + d;
    }
    return this.secMs + Math.floor(v / reader.fracDiv);
  }

  /** Remember the second of a time just read in full (`ts`, from fields `f`); returns `ts`. */
  private keepSecond(reader: TimestampReader, text: string, at: number, f: TsFields, ts: number): number {
    if (reader.secondAt >= 0 && f.offsetMin === null) {
      this.secReader = reader;
      this.secText = text.slice(at, at + reader.secondAt);
      this.secMs = ts - f.ms;
    }
    return ts;
  }

  /** The record's time, read on first use. */
  private recTs(rec: OpenRecord): number | null {
    if (rec.ts !== undefined) return rec.ts;
    if (rec.matched !== null) this.recHeader(rec);
    rec.ts = null;
    const text = rec.tsText;
    const reader = rec.tsReader;
    if (text !== null && reader) {
      // While the fake millis are being voted on, every time is read in full (the vote reads its fields).
      const voting = rec.fakeCheck && this.fakeMillis === null;
      const same = voting ? undefined : this.sameSecond(reader, text, 0);
      if (same !== undefined) rec.ts = this.fakeMillis === true ? this.secMs : same;
      else {
        const f = reader.read(text);
        if (f) {
          if (voting) this.voteFakeMillis(f);
          if (this.fakeMillis === true) f.ms = 0;
          if (f.hasDate) rec.ts = this.keepSecond(reader, text, 0, f, this.toUtc(f));
          else rec.clock = text;
        } else this.badTime(rec.line, text);
      }
    }
    this.noteTs(rec.ts);
    return rec.ts;
  }

  private headerMsgAfterUnwrap(text: string, msg: string): string {
    // The header regex ran on the wrapped text; take the message from the unwrapped line instead.
    const at = text.indexOf(msg.slice(0, Math.min(msg.length, 12)));
    return at >= 0 ? text.slice(at) : msg;
  }

  private newRecord(
    line: number,
    text: string,
    ts: number | null | undefined,
    clock: string | undefined,
    level: string | null,
    thread: string | null,
    logger: string | null,
  ): OpenRecord {
    return {
      line,
      text,
      byteAt: -1,
      ts,
      tsText: null,
      tsReader: null,
      layout: null,
      matched: null,
      header: null,
      msg: '',
      msgAt: -1,
      jarCheck: true,
      sendPath: undefined,
      fakeCheck: false,
      clock,
      level,
      thread,
      logger,
      events: NO_EVENTS,
      needsCause: null,
      lines: 0,
      matchedAny: false,
      foldText: text,
      foldLine: line,
    };
  }

  /** `keyword`: hasKeyword(raw), when known (false: the line alone holds no message); `keywordAt`: see line. */
  private continuation(raw: string, lineNo: number, keyword?: boolean, keywordAt?: number): void {
    const rec = this.rec!;
    rec.lines++;
    if (raw.length === 0) return;
    if (rec.needsCause && fillCause(rec.needsCause, raw) !== 'wait') rec.needsCause = null;
    const c0 = raw.charCodeAt(0);
    // Stack frames carry no messages; the jar names in them tell the client version.
    if (c0 === 9 || c0 === 32) {
      let i = 1;
      while (i < raw.length && (raw.charCodeAt(i) === 32 || raw.charCodeAt(i) === 9)) i++;
      // `at ...` frames and `... N more` / `... N common frames omitted`.
      if (raw.startsWith('at ', i) || raw.startsWith('... ', i)) {
        if (raw.charCodeAt(i) === 97) this.frame(raw, i + 3);
        return;
      }
    } else if (c0 === 97 /* a */ && raw.startsWith('at ')) {
      this.frame(raw, 3);
      return;
    }
    const prev = rec.foldText;
    const prevLine = rec.foldLine;
    rec.foldText = raw;
    rec.foldLine = lineNo;
    if (prev !== null && prev.length >= FOLD_MIN && c0 !== 32 && c0 !== 9 && prev.charCodeAt(prev.length - 1) !== 32) {
      if (this.scanFolded(prev, raw, prevLine)) return;
    }
    if (keyword !== false) this.scan(raw, lineNo, keyword, keywordAt);
  }

  private frame(raw: string, at: number): void {
    const rec = this.rec!;
    // `rocketmq-` first: most frames name a jar (Spring's `~[spring-aop-5.3.23.jar:5.3.23]`), few RocketMQ's.
    if (rec.jarCheck && raw.includes('rocketmq-', at) && raw.includes('.jar', at)) this.noteJar(raw);
    // `org.apache.rocketmq.client.impl.` first: most frames are not the client's. Read before the
    // record has an event too: its event may be a `Caused by:` below the frames (a 5.x async send's
    // RemotingConnectException under `MQClientException: unknown reason`).
    if (pathOpen(rec.sendPath) && raw.startsWith(CLIENT_IMPL, at)) {
      rec.sendPath = framePath(raw, at, rec.sendPath);
    }
  }

  /**
   * A message folded at the end of a long line (a terminal or a mail at 80 columns, a blog's code box)
   * goes on at the start of the next one: read the two joined. True when the join gave what neither
   * line gives alone (the event is then at the first line).
   */
  private scanFolded(prev: string, raw: string, prevLine: number): boolean {
    // A line that starts a thing of its own (an exception, a FAQ line) is no folded tail.
    if (EXCEPTION_START.test(raw) || NOT_A_TAIL.test(raw)) return false;
    const joined = prev + raw;
    if (!hasKeyword(joined)) return false;
    const hit = matchMessage(joined);
    if (hit === null) return false;
    const alone = hasKeyword(raw) ? matchMessage(raw) : null;
    if (alone !== null && alone.entry === hit.entry) return false;
    const before = hasKeyword(prev) ? matchMessage(prev) : null;
    // The first line alone matched the same wording: the join must only fill what it left out.
    if (before !== null && before.entry === hit.entry && !(compatibleFields(before.fields, hit.fields) && filled(hit.fields) > filled(before.fields))) {
      return false;
    }
    this.addHit(hit, prevLine, joined);
    return true;
  }

  private noteJar(frame: string): void {
    const m = JAR_VERSION.exec(frame);
    if (m) {
      this.versionHints.add(m[1]);
      // One version per stack is enough: the rest of its frames name the same jars.
      this.rec!.jarCheck = false;
    }
  }

  /**
   * Look for catalogue messages in one line of the open record. `keyword`: the line is known to hold
   * a keyword (or may: matchMessage finds none then), so the keyword test is skipped; `keywordAt`:
   * where the text's first keyword starts when the others lie inside it, when known (see matchMessage).
   */
  private scan(text: string, lineNo: number, keyword = false, keywordAt?: number): void {
    if (!keyword && !hasKeyword(text)) return;
    const hit = matchMessage(text, keywordAt);
    if (!hit) return;
    this.addHit(hit, lineNo, text);
  }

  private addHit(hit: CatalogueMatch, lineNo: number, text: string): void {
    const rec = this.rec!;
    rec.matchedAny = true;
    if (mergeIntoRecord(rec.events, hit)) return;
    if (hit.entry.roleFromKind) hit.fields.role = this.kind === 'namesrv' ? 'namesrv' : 'broker';
    this.grpcGroup(hit);
    const ev = this.makeEvent(hit.type, hit.fields, lineNo, rec.text, rec);
    if (hit.entry.id) ev.entry = hit.entry.id;
    if (hit.entry.versionHint) {
      ev.versionHint = hit.entry.versionHint;
      this.versionHints.add(hit.entry.versionHint);
    }
    if (hit.type === 'startup' && typeof hit.fields.version === 'string') this.versionHints.add(hit.fields.version);
    if (hit.entry.causeFromNext) rec.needsCause = ev;
    if (rec.events === NO_EVENTS) rec.events = [ev];
    else rec.events.push(ev);
  }

  /**
   * A 5.x gRPC Java client's consume lines do not print their group (rocketmq-client-java
   * ConsumeTask: `Message listener raised an exception ..., clientId=, mq=, messageId=`); its push
   * consumer's start does (PushConsumerImpl: `Create standard consume service, consumerGroup=G`).
   * When one group started in the file so far, its gRPC consume failures are that group's.
   */
  private grpcGroup(hit: CatalogueMatch): void {
    if (hit.entry.versionHint !== '5.x-grpc') return;
    if (hit.type === 'startup' && hit.fields.role === 'consumer' && typeof hit.fields.group === 'string') {
      if (this.grpcGroups.size < 2) this.grpcGroups.add(hit.fields.group);
    } else if (hit.type === 'consume-failed' && hit.fields.group === null && this.grpcGroups.size === 1) {
      hit.fields.group = [...this.grpcGroups][0];
    }
  }

  /** A line outside any record: its event stands alone, with no time. */
  private scanLoose(text: string, lineNo: number): void {
    if (!hasKeyword(text)) return;
    const hit = matchMessage(text);
    if (!hit) return;
    if (hit.entry.roleFromKind) hit.fields.role = this.kind === 'namesrv' ? 'namesrv' : 'broker';
    const ev = this.makeEvent(hit.type, hit.fields, lineNo, text, null);
    if (hit.entry.id) ev.entry = hit.entry.id;
    if (hit.entry.versionHint) ev.versionHint = hit.entry.versionHint;
    // Its cause may be printed on the next line (a pasted ` sendKernelImpl exception, ...` with the exception under it).
    if (hit.entry.causeFromNext) this.loose = ev;
    else this.deliver(ev);
  }

  /** Fill a loose event's cause from the line after it, then let it go. */
  private settleLoose(raw: string): void {
    const ev = this.loose!;
    this.loose = null;
    fillCause(ev, raw);
    this.deliver(ev);
  }

  private makeEvent(type: EventType, fields: EventFields, line: number, text: string, rec: OpenRecord | null): RmqEvent {
    const ts = rec ? this.recTs(rec) : null;
    if (rec && rec.matched !== null) this.recHeader(rec);
    const level = rec ? rec.level : null;
    const thread = rec ? rec.thread : null;
    const logger = rec ? rec.logger : null;
    // Two literals rather than a spread of the clock (a copy per event): the same keys in the same order.
    if (rec?.clock) {
      return { ts, clock: rec.clock, host: this.opts.host, kind: this.kind, file: this.opts.file, line, level, thread, logger, type, fields, text, source: this.opts.sourceIndex, seq: 0 };
    }
    return { ts, host: this.opts.host, kind: this.kind, file: this.opts.file, line, level, thread, logger, type, fields, text, source: this.opts.sourceIndex, seq: 0 };
  }

  private closeRecord(): void {
    const rec = this.rec;
    if (!rec) return;
    this.rec = null;
    const other = this.opts.keepOther;
    if (rec.events.length === 0 && other && (other === true || other(this.kind, rec.text))) {
      const e = this.makeEvent('other', {}, rec.line, rec.text, rec);
      // Its text is the bytes of its file at byteAt, and it carries no more than its header holds:
      // the consumer may keep the place instead of the text (EmitEvent).
      if (rec.byteAt >= 0 && e.ts !== null && e.clock === undefined) {
        this.deliver(e, rec.byteAt);
        return;
      }
      rec.events = [e];
    }
    const path = finishedPath(rec.sendPath, this.kind === 'app');
    const late = this.lateResponse;
    this.lateResponse = null;
    for (const e of rec.events) {
      if (path) e.sendPath = path;
      // NettyRemotingAbstract.processResponseCommand logs the response it matched to no request on
      // the line after naming its channel: a broker's busy reply to a request the client had
      // already given up (gen-708: 4.x clients print no broker in the reply itself).
      if (e.type === 'late-response') this.lateResponse = e;
      else if (late && e.type === 'busy-reply' && e.fields.brokerAddr == null && late.line === rec.line - 1 && late.thread === e.thread) e.fields.brokerAddr = late.fields.addr;
      this.deliver(e);
    }
  }

  /** `byteAt`: see EmitEvent (lost when the event is held). */
  private deliver(e: RmqEvent, byteAt?: number): void {
    if (e.type !== 'other') this.acc.events[e.type] = (this.acc.events[e.type] ?? 0) + 1;
    if (this.held) {
      this.held.push(e);
      return;
    }
    e.seq = this.seq++;
    this.emit(e, byteAt);
  }

  // ---- time ---------------------------------------------------------------------------------

  private toUtc(f: TsFields): number {
    if (f.offsetMin !== null && !this.opts.forcedZone) {
      return Date.UTC(f.y, f.mo - 1, f.d, f.h, f.mi, f.s, f.ms) - f.offsetMin * 60000;
    }
    return this.zone.toUtc(f.y, f.mo, f.d, f.h, f.mi, f.s, f.ms);
  }

  /** The earliest and latest time read (a paste may be newest first; a clock may step back). */
  private noteTs(ts: number | null): void {
    if (ts === null) return;
    if (this.firstTs === null || ts < this.firstTs) this.firstTs = ts;
    if (this.lastTs === null || ts > this.lastTs) this.lastTs = ts;
  }

  /** A header whose time does not exist (Feb 30, month 13, 24:00:00, year 0000): the record has no time. */
  private badTime(line: number, text: string): void {
    if (this.badTimes++ === 0) this.firstBadTime = { line, text };
  }

  private voteFakeMillis(f: TsFields): void {
    if (this.fakeMillis !== null) return;
    if (this.held === null) this.held = [];
    if (f.ms !== f.s) {
      this.releaseHeld(false);
      return;
    }
    this.fakeVotes++;
    if (f.s !== 0) this.fakeSeconds.add(f.s);
    // Three distinct non-zero seconds all echoed in the millis: 1 in 10^9 by chance.
    if (this.fakeSeconds.size >= 3) this.releaseHeld(true);
  }

  private releaseHeld(fake: boolean): void {
    this.fakeMillis = fake;
    const held = this.held ?? [];
    this.held = null;
    if (fake) {
      this.versionHints.delete('4.3.0-5.0.0');
      this.versionHints.add('4.3.0-4.7.1');
      this.issues.push({
        file: this.opts.file,
        line: null,
        message: 'the millisecond field repeats the seconds (client 4.3.0-4.7.1 logger bug): read as .000',
      });
    }
    for (const e of held) {
      if (fake && e.ts !== null) e.ts -= ((e.ts % 1000) + 1000) % 1000;
      e.seq = this.seq++;
      this.emit(e);
    }
    if (fake && this.rec && typeof this.rec.ts === 'number') this.rec.ts -= ((this.rec.ts % 1000) + 1000) % 1000;
    // The window was noted from the times as printed.
    if (fake && this.firstTs !== null) this.firstTs -= ((this.firstTs % 1000) + 1000) % 1000;
    if (fake && this.lastTs !== null) this.lastTs -= ((this.lastTs % 1000) + 1000) % 1000;
  }

  // ---- paste damage -------------------------------------------------------------------------

  /** Undo a terminal hard wrap: a run of spaces inserted at column 80 (a paste copied off a terminal). */
  private unwrap(text: string): string {
    if (text.length <= 100) return text;
    let out = text;
    for (let col = 80; col < out.length - 20; col += 80) {
      if (out.charCodeAt(col) !== 32 || out.charCodeAt(col + 19) !== 32) continue;
      let end = col;
      while (end < out.length && out.charCodeAt(end) === 32) end++;
      const run = end - col;
      if (run < 20) continue;
      if (this.wrapRun === 0) this.wrapRun = run;
      const remove = Math.min(run, this.wrapRun);
      out = out.slice(0, col) + out.slice(col + remove);
    }
    return out;
  }
}

const BUILT_IN_STARTS = headerStarts(BUILT_IN);
const BUILT_IN_BY_FIRST = byFirstChar(BUILT_IN);

/**
 * A pasted header without its debris: `> ` quote marks (Markdown, mail; nested too), an indent,
 * a leading backtick or `**`, and the same at the end.
 */
function stripPaste(raw: string): string {
  let t = raw;
  if (t.charCodeAt(0) === 62 /* > */) t = t.replace(/^(?:> ?)+/, '');
  if (t.startsWith('**')) t = t.slice(2);
  if (t.startsWith('`')) t = t.slice(1);
  if (t.charCodeAt(0) === 32) t = t.trimStart();
  if (t.endsWith('**')) t = t.slice(0, -2);
  if (t.endsWith('`')) t = t.slice(0, -1);
  return t;
}

/** A line without the number an editor or a blog's code view put before it (`12 `, `12: `, `12 | `, `12.\t`). */
function stripLineNumber(raw: string): string {
  const m = /^\d{1,6}(?:[:|.)]?[ \t]+|[:|]) ?/.exec(raw);
  return m === null ? raw : raw.slice(m[0].length);
}

/** The kind the names of a grep -H paste's files say, when they all say the same. */
function agreedKind(files: readonly string[]): SourceKind | null {
  const kinds = new Set(files.map((f) => kindFromName(f)));
  return kinds.size === 1 ? [...kinds][0] : null;
}

function compatible(hint: SourceKind, content: SourceKind): boolean {
  if (hint === content) return true;
  // Server logback files share one layout: trust the name among server kinds.
  const server: SourceKind[] = ['broker', 'namesrv', 'remoting', 'store', 'stats', 'watermark'];
  if (server.includes(hint) && server.includes(content)) return hint !== 'watermark' || content === 'watermark';
  if (hint === 'client' && content === 'app') return true;
  return false;
}

/** Fields with a value. */
function filled(f: EventFields): number {
  let n = 0;
  for (const v of Object.values(f)) if (v !== null && !(Array.isArray(v) && v.length === 0)) n++;
  return n;
}

/** The accounting's layout: the one locked on, then the others seen in the order first seen. */
export function layoutNameOf(primary: string | null, seen: Iterable<string>, sls: boolean): string {
  if (primary !== null) {
    const others = [...seen].filter((l) => l !== primary);
    return others.length ? `${primary}+${others.join('+')}` : primary;
  }
  return sls ? LAYOUT_SLS : LAYOUT_NONE;
}

export { parseZone };

/**
 * Where a header's first keyword (at `keywordAt` in the header line `matched`, the others inside it)
 * is in its message: undefined when the message is not the line's tail (an unwrapped header) or
 * when the keyword starts before the message (one inside it might start in the message: the
 * message is scanned whole then, as it is without the reader's word).
 */
function keywordInMessage(rec: OpenRecord, matched: string, keywordAt: number): number | undefined {
  if (rec.msgAt >= 0) return keywordAt >= rec.msgAt ? keywordAt - rec.msgAt : undefined;
  const msg = rec.msg;
  const off = matched.length - msg.length;
  if (rec.text !== matched || off < 0 || !matched.endsWith(msg)) return undefined;
  return keywordAt >= off ? keywordAt - off : undefined;
}
