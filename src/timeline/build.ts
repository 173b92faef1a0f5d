// Inputs -> sources -> parsed (in parallel) -> one merged, time-ordered event stream.
//
// Sources are parsed whole before the merge starts (phase 1), each into a small in-memory batch
// plus a spill file; the merge (phase 2) streams from those, so memory holds only a window of
// events per source. Large inputs are parsed by worker threads (one per core), biggest file first;
// a file too large for its share is parsed in parts, one per core, and joined (split.ts).

import { statSync, unlinkSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename } from 'node:path';
import { globMatch } from '../ingest/glob.js';
import { resolveInputs, type InputIssue, type SourceSpec } from '../ingest/sources.js';
import { dropRepeats, isEventsFile, readEventsFile, type EventsJob } from './events-input.js';
import { readEventsFiles } from './events-workers.js';
import { runPool, type WorkerReply } from './pool.js';
import type { EventsAsJson } from '../parse/event-binary.js';
import type { EventType, RmqEvent, SourceAccounting } from '../parse/types.js';
import { parseZone, type Zone } from '../parse/time.js';
import { mergeStreams, type MergedEvent, type SourceStream } from './merge.js';
import { parseSource, type ParseJob, type ParsedSource } from './parse-source.js';
import { shiftsOf, shiftTimeline, type HostShift } from './shift.js';
import { createSpillDir, removeSpillDir, removeSpillDirSoon, spillErrorOf } from './spill.js';
import { joinParts, joinRefusal, planParts } from './split.js';

export interface BuildOptions {
  inputs: string[];
  kind?: Array<[string, string]>;
  host?: Array<[string, string]>;
  /** `--tz ZONE` (default for sources whose layout does not fix the zone). */
  tzDefault?: string;
  /** `--tz GLOB=ZONE` (forces the zone of matching sources). */
  tzRules?: Array<[string, string]>;
  /** `--shift HOST=±DURATION`: the times of the matching hosts' sources moved (src/timeline/shift.ts). */
  shifts?: HostShift[];
  /** Keep records that are no RocketMQ event (`other`): all, or only those replay's inference reads (src/timeline/other-records.ts). */
  keepOther?: boolean | 'inference';
  /** `--pattern`: the user's layouts, each for the sources its glob matches (null: every source). */
  patterns?: Array<{ glob: string | null; patterns: string[] }>;
  types?: EventType[] | null;
  /**
   * Events travel as their JSON text, made where they are parsed: for output as JSON lines
   * (MergedEvent.json()); 'safe': made safe to show too (util/text.ts, jsonSafe); 'both': beside
   * the binary form, for a consumer that keeps the text and decodes the event as well (the TUI).
   */
  asJson?: EventsAsJson;
  /**
   * With keepOther true: the records that are no event and that inference does not read travel as
   * the place of their line in their file (the binary form's LINE records), where the parser can
   * tell it, for a consumer that reads those files again (the TUI's store): most of a log's records,
   * whose text and JSON would otherwise be written to the spill and read back. Plain files only,
   * the first OTHER_LINE_SOURCES of them (the consumer keeps each open).
   */
  otherLines?: boolean;
  /** Worker threads: 0 = parse in this thread; default: one per core for inputs over 32 MiB. */
  workers?: number;
  onProgress?: (bytesDone: number, bytesTotal: number) => void;
  cwd?: string;
  /** Split files of at least minBytes into this many parts, also with no workers (tests; default: 64 MiB, one part per worker). */
  split?: { minBytes: number; parts: number };
}

/** Sources at most whose records travel as the places of their lines (BuildOptions.otherLines). */
export const OTHER_LINE_SOURCES = 256;

export interface Timeline {
  sources: SourceSpec[];
  /**
   * The files the inputs resolved to, as read: an events file itself, where `sources` holds the
   * sources it stands for. No output of the run is written over one (src/ingest/output-safety.ts).
   */
  files: string[];
  accounting: SourceAccounting[];
  issues: InputIssue[];
  /** Zone used for sources whose layout does not fix one, and whether the user chose it. */
  defaultZone: Zone;
  defaultZoneChosen: boolean;
  first: number | null;
  last: number | null;
  bytes: number;
  /** Per source: its earliest and latest record, and the bytes read (`events --format events` writes them). */
  spans?: Array<{ first: number | null; last: number | null; bytes: number }>;
  /** Per source: the milliseconds its times were moved by (`--shift`, a clock estimate); absent: none. */
  shiftMs?: number[];
  /** Which records that are no event it holds (BuildOptions.keepOther): 'inference', those inference reads, and no other. */
  keepOther?: boolean | 'inference';
  /**
   * The merged stream in the binary form (src/parse/event-binary.ts): each event's time and type,
   * decoded only when asked (MergedEvent, valid until the next); call once (or events() once).
   */
  encoded(): Generator<MergedEvent>;
  /**
   * The sources of the merged stream, for another thread to read it too (src/rules/rules-thread.ts,
   * mergeStreams): valid until close().
   */
  streams: SourceStream[];
  /** The merged stream as event objects; call once. */
  events(): Generator<RmqEvent>;
  /** Remove spill files: now, or in the background (the caller goes on at once; see removeSpillDirSoon). */
  close(when?: 'now' | 'background'): void;
}

const WORKER_THRESHOLD = 32 << 20;

export async function buildTimeline(opts: BuildOptions): Promise<Timeline> {
  const tzRules = (opts.tzRules ?? []).map(([g, z]) => [g, parseZone(z).name] as const);
  const resolved = await resolveInputs(opts.inputs, {
    kind: opts.kind as Array<[string, never]> | undefined,
    host: opts.host,
    cwd: opts.cwd,
  });
  const issues = resolved.issues;

  const spillDir = createSpillDir();
  let given: Awaited<ReturnType<typeof eventsInputs>>;
  try {
    given = await eventsInputs(resolved.sources, { spillDir, types: opts.types ?? null, keepOther: opts.keepOther ?? false, asJson: opts.asJson ?? false }, opts.workers);
  } catch (err) {
    removeSpillDir(spillDir);
    throw spillErrorOf((err as NodeJS.ErrnoException).code) ?? err;
  }
  const sources = given.sources;
  issues.push(...given.issues);
  // Without --tz, events parsed elsewhere keep the default zone they were parsed with.
  const defaultZone = parseZone(opts.tzDefault ?? given.defaultZone ?? '+08:00');
  let lineSources = 0;
  const jobs: ParseJob[] = sources.flatMap((spec, index) => {
    if (given.parsed.has(index)) return [];
    const otherLines = opts.otherLines === true && spec.path !== '-' && !spec.gz && lineSources++ < OTHER_LINE_SOURCES;
    const rule = tzRules.find(([g]) => matchesSource(g, spec));
    return {
      index,
      spec,
      defaultZone: defaultZone.name,
      forcedZone: rule ? rule[1] : null,
      keepOther: opts.keepOther ?? false,
      types: opts.types ?? null,
      spillDir,
      asJson: opts.asJson,
      otherLines,
      patterns: (opts.patterns ?? []).filter((p) => p.glob === null || matchesSource(p.glob, spec)).flatMap((p) => p.patterns),
    } satisfies ParseJob;
  });

  const sizes = sources.map((s, i) => (given.parsed.has(i) ? 0 : sizeOf(s)));
  const total = sizes.reduce((a, b) => a + b, 0);
  let done = 0;
  const progress = (bytes: number) => {
    done += bytes;
    opts.onProgress?.(done, total);
  };
  const cores = opts.workers ?? availableParallelism();
  const work: ParseJob[] = [];
  const split = new Set<number>();
  for (const job of jobs) {
    // Tests set the parts (opts.split); otherwise one per core, none when parsing in this thread.
    const parts = planParts(job.spec, sizes[job.index], total, opts.split?.parts ?? (opts.workers === 0 ? 0 : cores), opts.split?.minBytes);
    if (parts) split.add(job.index);
    for (const part of parts ?? [undefined]) work.push(part ? { ...job, part } : job);
  }
  const nWorkers = opts.workers ?? (total >= WORKER_THRESHOLD && work.length > 1 ? Math.min(cores, work.length) : 0);

  let parsed: ParsedSource[];
  // Sources a worker ran out of memory on (parsed here instead): said in a note, since it is slower.
  const inThisThread = new Set<number>();
  try {
    parsed = nWorkers > 0 ? await runInWorkers(work, sizes, nWorkers, progress, inThisThread) : await runHere(work, progress);
    if (split.size) parsed = await joinSplit(parsed, jobs, split);
    parsed.push(...given.parsed.values());
  } catch (err) {
    removeSpillDir(spillDir);
    throw spillErrorOf((err as NodeJS.ErrnoException).code) ?? err;
  }
  parsed.sort((a, b) => a.index - b.index);

  for (const index of inThisThread) {
    issues.push({ file: sources[index].display, line: null, message: 'a parse thread ran out of memory on it: parsed on the main thread after the others (slower; the same result)' });
  }
  let first: number | null = null;
  let last: number | null = null;
  let bytes = 0;
  for (const p of parsed) {
    issues.push(...p.issues);
    bytes += p.bytes;
    if (p.firstTs !== null && (first === null || p.firstTs < first)) first = p.firstTs;
    if (p.lastTs !== null && (last === null || p.lastTs > last)) last = p.lastTs;
  }

  let used = false;
  const streams: SourceStream[] = parsed.map((p) => ({ index: p.index, spill: p.spill, tail: p.tail, more: p.more }));
  const encoded = () => {
    if (used) throw new Error('the timeline can be read once');
    used = true;
    return mergeStreams(streams);
  };
  const timeline: Timeline = {
    sources,
    files: resolved.sources.map((s) => s.path),
    accounting: parsed.map((p) => p.accounting),
    issues,
    defaultZone,
    defaultZoneChosen: opts.tzDefault !== undefined || given.defaultZoneChosen,
    first,
    last,
    bytes,
    spans: parsed.map((p) => ({ first: p.firstTs, last: p.lastTs, bytes: p.bytes })),
    keepOther: opts.keepOther ?? false,
    encoded,
    streams,
    *events() {
      for (const m of encoded()) yield m.event();
    },
    close(when = 'now') {
      if (when === 'background') removeSpillDirSoon(spillDir);
      else removeSpillDir(spillDir);
    },
  };
  const shifts = opts.shifts?.length ? shiftsOf(timeline, opts.shifts) : [];
  return shifts.some((ms) => ms !== 0) ? shiftTimeline(timeline, shifts) : timeline;
}

/**
 * The sources once events files (src/timeline/events-input.ts) stand for the sources they were
 * made from, in their place among the inputs: those are parsed already (`parsed`, by index).
 */
async function eventsInputs(
  specs: SourceSpec[],
  how: Omit<EventsJob, 'spec' | 'firstIndex' | 'name'>,
  workers: number | undefined,
): Promise<{ sources: SourceSpec[]; parsed: Map<number, ParsedSource>; issues: InputIssue[]; defaultZone: string | null; defaultZoneChosen: boolean }> {
  const files = specs.flatMap((spec, at) => (isEventsFile(spec) ? [{ spec, at }] : []));
  // Each read from index 0; numbered below where they stand among the inputs.
  const jobs: EventsJob[] = files.map(({ spec }, n) => ({ ...how, spec, firstIndex: 0, name: String(n) }));
  const sizes = jobs.map((j) => sizeOf(j.spec));
  const n = workers ?? (sizes.reduce((a, b) => a + b, 0) >= WORKER_THRESHOLD ? availableParallelism() : 0);
  const got = n > 0 && jobs.length > 0 ? await readEventsFiles(jobs, sizes, n) : [];
  for (let i = got.length; i < jobs.length; i++) got.push(await readEventsFile(jobs[i]));
  const sources: SourceSpec[] = [];
  const parsed = new Map<number, ParsedSource>();
  // A log whose events are given twice is read once (events-input.ts, dropRepeats).
  const issues: InputIssue[] = dropRepeats(got, files.map((f) => f.spec.display));
  const zones = new Set<string>();
  let chosen = false;
  let next = 0;
  specs.forEach((spec, at) => {
    if (next >= files.length || files[next].at !== at) {
      sources.push(spec);
      return;
    }
    const file = got[next++];
    for (const p of file.parsed) parsed.set((p.index += sources.length), p);
    sources.push(...file.specs);
    issues.push(...file.issues);
    for (const zone of file.defaultZones) zones.add(zone);
    chosen ||= file.defaultZoneChosen;
  });
  // Files parsed with different default zones: the usual default (each source keeps its own zone).
  return { sources, parsed, issues, defaultZone: zones.size === 1 ? [...zones][0] : null, defaultZoneChosen: chosen };
}

function matchesSource(glob: string, spec: SourceSpec): boolean {
  return globMatch(glob, spec.display) || globMatch(glob, spec.path) || globMatch(glob, basename(spec.path));
}

function sizeOf(spec: SourceSpec): number {
  if (spec.path === '-') return 0;
  try {
    return statSync(spec.path).size;
  } catch {
    return 0;
  }
}

/** The parts of each split source joined, or the source parsed again whole where they cannot be (split.ts). */
async function joinSplit(parsed: ParsedSource[], jobs: ParseJob[], split: Set<number>): Promise<ParsedSource[]> {
  const out = parsed.filter((p) => !split.has(p.index));
  for (const index of split) {
    const parts = parsed.filter((p) => p.index === index).sort((a, b) => a.part!.n - b.part!.n);
    if (joinRefusal(parts) === null) {
      out.push(joinParts(parts));
      continue;
    }
    for (const p of parts) if (p.spill) unlinkSync(p.spill);
    // jobs are by source, without the sources events files stand for: find the source's.
    out.push(...(await runHere([jobs.find((j) => j.index === index)!], () => {})));
  }
  return out;
}

async function runHere(jobs: ParseJob[], progress: (n: number) => void): Promise<ParsedSource[]> {
  const out: ParsedSource[] = [];
  for (const job of jobs) {
    let last = 0;
    const r = await parseSource(job, (b) => {
      progress(b - last);
      last = b;
    });
    progress(r.bytes - last);
    out.push(r);
  }
  return out;
}

/**
 * The jobs (files, parts of files) parsed by n worker threads, biggest first; stdin is read in this
 * thread. `inThisThread` gets the sources of the jobs a worker ran out of memory on.
 */
async function runInWorkers(jobs: ParseJob[], sizes: number[], n: number, progress: (n: number) => void, inThisThread: Set<number>): Promise<ParsedSource[]> {
  const size = (j: ParseJob) => (j.part ? j.part.end - j.part.start : sizes[j.index]);
  const queue = jobs.filter((j) => j.spec.path !== '-').sort((a, b) => size(b) - size(a));
  type Reply = WorkerReply & { progress?: number; result?: ParsedSource; progressTail?: number };
  const parsed = await runPool<ParseJob, ParsedSource>({
    jobs: queue,
    workers: n,
    ask: (job) => ({ job }),
    onMessage: (msg: Reply) => progress((msg.progress ?? 0) + (msg.progressTail ?? 0)),
    resultOf: (msg: Reply) => msg.result,
    here: async (job) => {
      inThisThread.add(job.index);
      return (await runHere([job], progress))[0];
    },
    name: (job) => (job.part ? `${job.spec.display} (bytes ${job.part.start}-${job.part.end})` : job.spec.display),
  });
  return [...parsed, ...(await runHere(jobs.filter((j) => j.spec.path === '-'), progress))];
}
