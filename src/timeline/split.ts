// One large plain file parsed in parts on several cores, joined back into what one parse of the
// whole file gives: the same events in the same order, the same accounting, line numbers and notes.
//
// Each part is read by its own parser (parse-source.ts, FilePart). A later part locks its layout
// from the file's first lines, then resumes at its cut. The join accepts the parts only when every
// cut fell where one parse would have read the next line the same way: the earlier part's state at
// its end equals the later part's where it resumed (layout, zone, kind, the fake-millis vote, no
// open paste fragment), the later part's first line is a header (so the earlier record ends there
// in both), its line numbers follow on, and nothing was noted that a split could change (encoding,
// unreadable or binary lines, lone '\r' line ends; any note of a later part). Otherwise the file is
// parsed whole again (build.ts): a split only ever costs time.

import { findCuts } from '../ingest/split.js';
import type { SourceSpec } from '../ingest/sources.js';
import { joinActivity, type ActivityEdges } from '../parse/activity.js';
import { layoutNameOf } from '../parse/parser.js';
import type { SourceAccounting } from '../parse/types.js';
import { PASTE_MAX_BYTES, type FilePart, type ParsedSource, type SourcePart } from './parse-source.js';

/** Files under this size are not split: the worker start-up and the layout's second detection would cost more. */
export const SPLIT_MIN_BYTES = 64 << 20;

/** The parts to parse a source in, or null to parse it whole. */
export function planParts(spec: SourceSpec, size: number, total: number, workers: number, minBytes = SPLIT_MIN_BYTES): FilePart[] | null {
  // Only a file that alone would keep one core busy past its fair share is worth splitting.
  // A paste gets the reorder window, which may move events across a cut.
  if (workers < 2 || spec.path === '-' || spec.gz || size < Math.max(minBytes, PASTE_MAX_BYTES) || size * workers <= total) return null;
  let found;
  try {
    found = findCuts(spec.path, size, workers);
  } catch {
    return null; // the reader says what is wrong with the file
  }
  if (!found) return null;
  const starts = [0, ...found.cuts];
  return starts.map((start, n) => ({
    n,
    start,
    end: n + 1 < starts.length ? starts[n + 1] : size,
    headEnd: found.headEnd,
    last: n + 1 === starts.length,
  }));
}

/** Why the parts cannot be joined, or null when they can (parts in file order). */
export function joinRefusal(parts: readonly ParsedSource[]): string | null {
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    const info = p.part?.info;
    if (!p.part || !info) return 'not a part';
    if (p.part.n !== i) return 'parts out of order';
    // The reader's judgement of binary data carries across a cut, so its notes anywhere refuse the
    // join; the parser's notes of the first part are the whole file's (its layout, the fake millis).
    if (p.part.readerIssues > 0 || p.accounting.unreadable > 0) return 'notes in a part';
    if (i > 0 && (p.issues.length > 0 || info.badTimes > 0)) return 'notes in a later part';
    if (p.encoding !== 'utf-8' || p.part.cr) return 'encoding or line ends';
    if (i === 0) continue;
    const before = parts[i - 1].part!;
    const cut = before.info.cutState;
    const resumed = p.part.resumed;
    if (!cut || !resumed || !cut.decided || cut.held || cut.loose || cut.sls || cut.partial) return 'no clean state at the cut';
    if (JSON.stringify(cut) !== JSON.stringify(resumed)) return 'state differs at the cut';
    if (p.part.info.afterCut !== 'header') return 'the cut is inside a record';
    if (p.part.firstLine !== before.lastLine + 1) return 'line numbers do not follow on';
  }
  return null;
}

/** The parts of one source as one parsed source (joinRefusal(parts) must be null). */
export function joinParts(parts: readonly ParsedSource[]): ParsedSource {
  const first = parts[0];
  const acc: SourceAccounting = { ...first.accounting, events: { ...first.accounting.events } };
  delete acc.versionHints;
  delete acc.activity;
  const hints = new Set(first.accounting.versionHints ?? []);
  const seen = new Set(first.part!.info.layoutsSeen);
  let activity = first.accounting.activity ?? null;
  let edges: ActivityEdges | null = first.part!.info.activityEdges;
  // A producer link is kept once per address in the file: a later part's repeat of an earlier one goes.
  const links = new Set(first.part!.links.map(([local]) => local));
  const more: SourcePart[] = [];
  let dropped = 0;
  let firstTs = first.firstTs;
  let lastTs = first.lastTs;
  for (const p of parts.slice(1)) {
    const a = p.accounting;
    acc.lines += a.lines;
    acc.records += a.records;
    acc.continuation += a.continuation;
    acc.unknown += a.unknown;
    acc.unreadable += a.unreadable;
    for (const [type, n] of Object.entries(a.events) as Array<[keyof typeof a.events, number]>) acc.events[type] = (acc.events[type] ?? 0) + n;
    for (const h of a.versionHints ?? []) hints.add(h);
    for (const l of p.part!.info.layoutsSeen) seen.add(l);
    const drop: number[] = [];
    for (const [local, at] of p.part!.links) {
      if (links.has(local)) drop.push(at);
      else links.add(local);
    }
    dropped += drop.length;
    more.push(drop.length ? { spill: p.spill, tail: p.tail, drop } : { spill: p.spill, tail: p.tail });
    const e = p.part!.info.activityEdges;
    activity = joinActivity(activity, edges, a.activity ?? null, e);
    edges = edges && e ? { first: edges.first, last: e.last } : (edges ?? e);
    if (p.firstTs !== null && (firstTs === null || p.firstTs < firstTs)) firstTs = p.firstTs;
    if (p.lastTs !== null && (lastTs === null || p.lastTs > lastTs)) lastTs = p.lastTs;
  }
  const last = parts[parts.length - 1];
  acc.layout = layoutNameOf(last.part!.info.primary, seen, false);
  // The keys in the order SourceParser.end() adds them.
  if (hints.size) acc.versionHints = [...hints];
  if (activity) acc.activity = activity;
  return {
    index: first.index,
    accounting: acc,
    issues: first.issues,
    spill: first.spill,
    tail: first.tail,
    more,
    count: parts.reduce((n, p) => n + p.count, 0) - dropped,
    firstTs,
    lastTs,
    bytes: parts.reduce((n, p) => n + p.bytes, 0),
    encoding: first.encoding,
  };
}
