// Read and parse one source into its ordered events. Runs in the main thread for small inputs and in
// worker threads for large ones (see build.ts). Events beyond a small in-memory batch are spilled to a
// temporary NDJSON file, so memory stays flat however many events a source yields.

import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { readSource } from '../ingest/reader.js';
import type { InputIssue, SourceSpec } from '../ingest/sources.js';
import { SourceParser } from '../parse/parser.js';
import { parseZone } from '../parse/time.js';
import type { EventType, RmqEvent, SourceAccounting } from '../parse/types.js';

export interface ParseJob {
  index: number;
  spec: SourceSpec;
  /** Zone names (serialisable for workers). */
  defaultZone: string;
  forcedZone: string | null;
  keepOther: boolean;
  /** Keep only these types (null: all). Accounting still counts every event. */
  types: EventType[] | null;
  spillDir: string;
  /** Events held in memory before spilling a batch to disk (memory per source is about one batch). */
  spillAt?: number;
}

export interface ParsedSource {
  index: number;
  accounting: SourceAccounting;
  issues: InputIssue[];
  /** Spilled events (one JSON array of events per line, in order), followed by `events`. */
  spill: string | null;
  events: RmqEvent[];
  count: number;
  firstTs: number | null;
  lastTs: number | null;
  bytes: number;
  encoding: string;
}

export async function parseSource(job: ParseJob, onProgress?: (bytes: number) => void): Promise<ParsedSource> {
  const spillAt = job.spillAt ?? 2000;
  const keepTypes = job.types ? new Set<EventType>(job.types) : null;
  let events: RmqEvent[] = [];
  let spillPath: string | null = null;
  let fd = -1;
  let count = 0;

  // Spilled as one JSON array per batch: a few large JSON calls cost far less than many small ones.
  const flush = () => {
    if (!events.length) return;
    if (fd < 0) {
      spillPath = join(job.spillDir, `source-${job.index}.ndjson`);
      fd = openSync(spillPath, 'w');
    }
    writeSync(fd, JSON.stringify(events) + '\n');
    events = [];
  };

  const parser = new SourceParser(
    {
      file: job.spec.display,
      host: job.spec.host,
      sourceIndex: job.index,
      kindHint: job.spec.kindHint,
      kindForced: job.spec.kindForced,
      defaultZone: parseZone(job.defaultZone),
      forcedZone: job.forcedZone ? parseZone(job.forcedZone) : null,
      keepOther: job.keepOther,
    },
    (e) => {
      if (keepTypes && !keepTypes.has(e.type)) return;
      events.push(e);
      count++;
      if (events.length >= spillAt) flush();
    },
  );

  const result = await readSource(job.spec, parser, { onProgress });
  const accounting = parser.end();
  if (spillPath) flush();
  if (fd >= 0) closeSync(fd);
  const issues: InputIssue[] = [...result.issues, ...parser.issues];
  if (result.encoding !== 'utf-8') accounting.encoding = result.encoding;
  return {
    index: job.index,
    accounting,
    issues,
    spill: spillPath,
    events,
    count,
    firstTs: parser.firstTime,
    lastTs: parser.lastTime,
    bytes: result.bytes,
    encoding: result.encoding,
  };
}
