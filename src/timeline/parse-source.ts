// Read and parse one source into its ordered events. Runs in the main thread for small inputs and in
// worker threads for large ones (see build.ts). Events travel in the binary form
// (src/parse/event-binary.ts); beyond a small in-memory batch they are spilled to a temporary file,
// so memory stays flat however many events a source yields.

import { statSync } from 'node:fs';
import { join } from 'node:path';
import { readSource, type ReadResult } from '../ingest/reader.js';
import { countNewlines } from '../ingest/split.js';
import type { InputIssue, SourceSpec } from '../ingest/sources.js';
import { SourceParser, type CutState, type PartInfo } from '../parse/parser.js';
import { compilePattern } from '../parse/pattern.js';
import { parseZone } from '../parse/time.js';
import { inferenceCandidate, inferenceFilter, inferenceReader } from './other-records.js';
import { ReorderWindow } from './reorder.js';
import type { EventsAsJson } from '../parse/event-binary.js';
import type { EventType, RmqEvent, SourceAccounting } from '../parse/types.js';
import { SPILL_BYTES, SPILL_EVENTS, SpillWriter } from './spill.js';


export interface ParseJob {
  index: number;
  spec: SourceSpec;
  /** Zone names (serialisable for workers). */
  defaultZone: string;
  forcedZone: string | null;
  keepOther: boolean | 'inference';
  /** Keep only these types (null: all). Accounting still counts every event. */
  types: EventType[] | null;
  spillDir: string;
  /** Events held in memory before they are appended to the spill file... */
  spillAt?: number;
  /** Layouts of the user (`--pattern`), as pattern texts: compiled in the thread that parses. */
  patterns?: string[];
  /** ... or this many bytes of them, whichever comes first (long route dumps). */
  spillBytes?: number;
  /** Events travel as their JSON text (the output is JSON lines: BuildOptions.asJson). */
  asJson?: EventsAsJson;
  /**
   * Records that are no event and that inference does not read travel as the place of their line
   * where the parser can tell it (EmitEvent: a plain file's UTF-8 lines): BuildOptions.otherLines.
   */
  otherLines?: boolean;
  /** One part of a large plain file split across workers (src/timeline/split.ts); absent: the whole source. */
  part?: FilePart;
}

/** Bytes [start, end) of the file; a later part reads [0, headEnd) first to detect the layout. */
export interface FilePart {
  /** 0-based, in file order. */
  n: number;
  start: number;
  end: number;
  headEnd: number;
  /** The part that ends at the file's end. */
  last: boolean;
}

/** What joining the parts of a file needs (split.ts). */
export interface PartResult {
  n: number;
  /** The number of the part's first line. */
  firstLine: number;
  info: PartInfo;
  /** A later part: the parser's state where it resumed. */
  resumed: CutState | null;
  /** Lone '\r' line ends, and the number of the last line read. */
  cr: boolean;
  lastLine: number;
  /** Producer links kept by the inference filter: [local address, index of the event in the part]. */
  links: Array<[string, number]>;
  /** Notes of the reader (encoding, binary data), beside those of the parser. */
  readerIssues: number;
}

/** Events of one source held to put a paste that is out of time order back in order. */
const REORDER_WINDOW = 256;
/**
 * Only pastes get the window: stdin and files under this size. A larger file was written by a logger,
 * in time order, and is passed on as it comes (the window would cost a few per cent of the parse).
 */
export const PASTE_MAX_BYTES = 8 << 20;

/** The events of a later part of a split file; `drop`: indices of its events to skip, increasing. */
export interface SourcePart {
  spill: string | null;
  tail: Uint8Array | null;
  drop?: number[];
}

export interface ParsedSource {
  index: number;
  part?: PartResult;
  accounting: SourceAccounting;
  issues: InputIssue[];
  /** Spilled events (the binary form, in order), followed by `tail`; a split file's parts follow in `more`. */
  spill: string | null;
  /** A Buffer, or the Uint8Array a worker's Buffer arrives as. */
  tail: Uint8Array | null;
  more?: SourcePart[];
  count: number;
  firstTs: number | null;
  lastTs: number | null;
  bytes: number;
  encoding: string;
}

export async function parseSource(job: ParseJob, onProgress?: (bytes: number) => void): Promise<ParsedSource> {
  const spillAt = job.spillAt ?? SPILL_EVENTS;
  const spillBytes = job.spillBytes ?? SPILL_BYTES;
  const keepTypes = job.types ? new Set<EventType>(job.types) : null;
  // A part's first producer link per address may be a repeat of an earlier part's: noted with its place.
  const links: Array<[string, number]> = [];
  const inferenceReads = job.keepOther === 'inference' ? inferenceFilter(job.part ? (local) => links.push([local, count]) : undefined) : null;
  const spill = new SpillWriter(join(job.spillDir, job.part ? `source-${job.index}-${job.part.n}.events` : `source-${job.index}.events`), spillAt, spillBytes, job.asJson);
  let count = 0;
  // byteAt: the event travels as the place of its line (job.otherLines).
  const keep = (e: RmqEvent, byteAt: number | undefined) => (byteAt === undefined ? spill.add(e) : spill.addLine(e, byteAt));
  const window = !job.part && isPaste(job.spec) ? new ReorderWindow<[RmqEvent, number | undefined]>(REORDER_WINDOW, ([e, at]) => keep(e, at)) : null;
  // What inference reads keeps its text (the incidents' pass decodes it beside the store), judged as
  // the pass judges a timeline that kept every record.
  const inferenceKeeps = job.otherLines === true && job.keepOther === true ? inferenceReader() : null;
  let muted = false;
  const parser = new SourceParser(
    {
      file: job.spec.display,
      host: job.spec.host,
      sourceIndex: job.index,
      kindHint: job.spec.kindHint,
      kindForced: job.spec.kindForced,
      defaultZone: parseZone(job.defaultZone),
      forcedZone: job.forcedZone ? parseZone(job.forcedZone) : null,
      keepOther: job.keepOther === 'inference' ? inferenceCandidate : job.keepOther,
      layouts: job.patterns?.length ? job.patterns.map((p, i) => compilePattern(p, `pattern-${i + 1}`)) : undefined,
    },
    (e, byteAt) => {
      if (muted) return;
      if (keepTypes && !keepTypes.has(e.type)) return;
      if (e.type === 'other' && inferenceReads !== null && !inferenceReads(e.kind, e.thread, e.text)) return;
      const at = inferenceKeeps !== null && byteAt !== undefined && !inferenceKeeps(e) ? byteAt : undefined;
      if (window) window.push(e.ts, [e, at]);
      else keep(e, at);
      count++;
    },
  );

  let part: PartResult | undefined;
  let result: ReadResult;
  if (job.part) {
    ({ result, part } = await readPart(job.part, job.spec, parser, onProgress, (m) => (muted = m)));
  } else result = await readSource(job.spec, parser, { onProgress });
  const accounting = parser.end(job.part !== undefined && !job.part.last);
  if (part) {
    part.info = parser.partInfo();
    part.cr = result.cr;
    part.links = links;
  }
  window?.flush();
  spill.close();
  const issues: InputIssue[] = [...result.issues, ...parser.issues];
  if (result.encoding !== 'utf-8') accounting.encoding = result.encoding;
  return {
    index: job.index,
    part,
    accounting,
    issues,
    spill: spill.path,
    tail: spill.tail,
    count,
    firstTs: parser.firstTime,
    lastTs: parser.lastTime,
    bytes: result.bytes,
    encoding: result.encoding,
  };
}

/**
 * Read one part of a file. A later part first reads the file's first lines with its events dropped,
 * to lock the layout as the first part does, then forgets what they counted and goes on at its start.
 */
async function readPart(
  p: FilePart,
  spec: SourceSpec,
  parser: SourceParser,
  onProgress: ((bytes: number) => void) | undefined,
  mute: (on: boolean) => void,
): Promise<{ result: ReadResult; part: PartResult }> {
  let resumed: CutState | null = null;
  let firstLine = 1;
  if (p.n > 0) {
    mute(true);
    const head = { line: (t: string, n: number) => parser.detecting && parser.line(t, n), unreadable: (n: number, r: string) => parser.detecting && parser.unreadable(n, r) };
    await readSource(spec, head, { range: { start: 0, end: p.headEnd, firstLine: 1 } });
    resumed = parser.resumeAtCut();
    mute(false);
    firstLine = countNewlines(spec.path, p.start) + 1;
  }
  const result = await readSource(spec, parser, { onProgress, range: { start: p.start, end: p.end, firstLine } });
  const part: PartResult = { n: p.n, firstLine, info: parser.partInfo(), resumed, cr: result.cr, lastLine: result.lines, links: [], readerIssues: result.issues.length };
  return { result, part };
}

function isPaste(spec: SourceSpec): boolean {
  if (spec.path === '-') return true;
  try {
    return statSync(spec.path).size < PASTE_MAX_BYTES;
  } catch {
    return true; // the reader says what is wrong with the file
  }
}
