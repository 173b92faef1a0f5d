// A selected event's whole record, read again from its file when the detail pane opens: the header
// line and the lines that follow it (stack trace, `Caused by:`, the blank line after a 4.x client
// stack) up to the next line that starts a record. The store keeps an event's first line only, so
// this is the one place the TUI goes back to the logs. Plain and gzipped files; never blocks: the read
// runs through the same line reader as the parse and stops as soon as the record is complete.

import { openSync, readSync, closeSync } from 'node:fs';
import { readSource } from '../ingest/reader.js';
import type { SourceSpec } from '../ingest/sources.js';
import { LAYOUTS } from '../parse/layouts.js';

/** Most lines of a record shown, and most characters. */
export const RECORD_MAX_LINES = 400;
const RECORD_MAX_CHARS = 64 * 1024;
/** How far back to look for the header of a record when the event's line is inside it (a stack line). */
const RECORD_LOOKBACK = 200;

const CANCELLED: RecordView = { kind: 'unavailable', reason: 'reading cancelled' };

export type RecordView =
  | { kind: 'reading' }
  | { kind: 'unavailable'; reason: string }
  /** `first`: line number of lines[0]; `truncated`: the record goes on past the limits. */
  | { kind: 'ok'; first: number; lines: string[]; truncated: boolean };

/** A line that starts a record: it matches the header of a known layout. */
export function isRecordHeader(text: string): boolean {
  for (const l of LAYOUTS) if (l.header.test(text)) return true;
  return false;
}

function isGzip(path: string): boolean {
  try {
    const fd = openSync(path, 'r');
    try {
      const b = Buffer.alloc(2);
      return readSync(fd, b, 0, 2, 0) === 2 && b[0] === 0x1f && b[1] === 0x8b;
    } finally {
      closeSync(fd);
    }
  } catch {
    return false; // the reader says what is wrong with the file
  }
}

/**
 * The record at 1-based `line` of the file at `path` (`display` names it in messages; '-' is stdin,
 * which cannot be read again). When `line` is no header (an event found in a stack), the record starts
 * at the nearest header at most RECORD_LOOKBACK lines before it, else at `line` itself.
 */
export async function readRecord(path: string, line: number, display = path, signal?: AbortSignal): Promise<RecordView> {
  if (signal?.aborted) return CANCELLED;
  if (path === '-') return { kind: 'unavailable', reason: 'logs read from stdin cannot be read again: only the first line is kept' };
  const spec: SourceSpec = { path, display, host: '', kindHint: null, kindForced: false, gz: isGzip(path), group: '', rotation: 0 };
  const ctl = new AbortController();
  const cancel = () => ctl.abort();
  signal?.addEventListener('abort', cancel);
  const before: string[] = []; // the lines just before `line`, at most RECORD_LOOKBACK
  let out: string[] | null = null;
  let first = line;
  let chars = 0;
  let truncated = false;
  let done = false;
  const finish = () => {
    done = true;
    ctl.abort();
  };
  const take = (text: string) => {
    if (out!.length >= RECORD_MAX_LINES || chars + text.length > RECORD_MAX_CHARS) {
      truncated = true;
      finish();
      return;
    }
    out!.push(text);
    chars += text.length + 1;
  };
  const sink = {
    line(text: string, n: number) {
      if (done) return;
      if (n < line) {
        if (n >= line - RECORD_LOOKBACK) before.push(text);
        return;
      }
      if (n === line) {
        out = [];
        if (!isRecordHeader(text)) {
          let h = before.length - 1;
          while (h >= 0 && !isRecordHeader(before[h])) h--;
          if (h >= 0) {
            first = line - (before.length - h);
            for (const b of before.slice(h)) take(b);
          }
        }
        before.length = 0;
        take(text);
        return;
      }
      if (isRecordHeader(text)) finish();
      else take(text);
    },
    unreadable(n: number, reason: string) {
      this.line(`(line ${n} unreadable: ${reason})`, n);
    },
  };
  let issues: string[] = [];
  try {
    const r = await readSource(spec, sink, { signal: ctl.signal });
    issues = r.issues.map((i) => i.message);
  } catch (err) {
    if (signal?.aborted) return CANCELLED;
    if (!done) return { kind: 'unavailable', reason: err instanceof Error ? err.message : String(err) };
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
  if (!out) {
    return { kind: 'unavailable', reason: issues[0] ?? `${display} has no line ${line} now (the file changed since it was read?)` };
  }
  const lines: string[] = out;
  // The blank line after a 4.x client stack belongs to the record but says nothing.
  while (lines.length > 1 && lines[lines.length - 1].trim() === '') lines.pop();
  return { kind: 'ok', first, lines, truncated };
}

const CACHE = 8;
const cache = new Map<string, RecordView>();

/**
 * readRecord, remembering the last few records read (moving back and forth reads nothing again). A
 * read stopped by `signal` (the cursor moved on) is not remembered.
 */
export async function cachedRecord(path: string, line: number, display = path, signal?: AbortSignal): Promise<RecordView> {
  const key = `${path}\u0000${line}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const view = await readRecord(path, line, display, signal);
  if (signal?.aborted) return view;
  if (cache.size >= CACHE) cache.delete(cache.keys().next().value as string);
  cache.set(key, view);
  return view;
}
