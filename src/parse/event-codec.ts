// An event's JSON object without its time, the form of `events --json` (docs/json.md) and of the
// TUI's store: output in JSON then needs no parse, the time is formatted in the output zone and put
// in front. Between the parse and the rules events travel in the binary form (event-binary.ts);
// this is where they become JSON. Built strings are fresh (not views into a decoded chunk), so
// keeping them does not keep a whole chunk of input alive.

import type { EventType, RmqEvent } from './types.js';

/** The JSON object of an event, without `time` (keys in the documented order). */
export function encodeEvent(e: RmqEvent): string {
  // The usual event, written directly: what JSON.stringify gives for the object below, without
  // building it (a dense log encodes millions). Anything else takes the general way.
  if (!isUsualEvent(e)) return encodeObject(e);
  const { host, kind, file, line, level, thread, logger, type, fields, text } = e;
  let out = e.clock ? `{"clock":${quote(e.clock)},${sourcePrefix(host, kind, file)}` : `{${sourcePrefix(host, kind, file)}`;
  out += `${Number.isFinite(line) ? line : 'null'},"level":${level === null ? 'null' : quote(level)},"thread":${thread === null ? 'null' : quote(thread)},"logger":${logger === null ? 'null' : quote(logger)},"type":${quote(type)},"fields":${JSON.stringify(fields)},"text":${quote(text)}`;
  if (e.entry) out += `,"entry":${quote(e.entry)}`;
  if (e.versionHint) out += `,"versionHint":${quote(e.versionHint)}`;
  if (e.sendPath) out += `,"sendPath":${quote(e.sendPath)}`;
  return `${out}}`;
}

/** What JSON.stringify escapes in a string: the quote, the backslash, controls, and lone surrogates (a pair is checked there). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
/** Lines are checked by the regex (measured on them: docs/bench.md, issue 14), names by the loop; the cut between is not tuned. */
const SCAN_FROM = 32;

/**
 * JSON.stringify of a string: quotes around it when nothing in it needs an escape (most names and
 * lines), else JSON.stringify's. A call of JSON.stringify has a cost of its own before it looks at a
 * character, and a dense log encodes five names and a line per event (docs/bench.md, issue 14).
 */
function quote(s: string): string {
  if (s.length >= SCAN_FROM) return NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // NEEDS_ESCAPE's characters.
    if (c < 0x20 || c === 34 || c === 92 || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(s);
  }
  return `"${s}"`;
}

/** Whether the event has the shape the parser gives (strings where strings belong): the fast encoders take those. */
export function isUsualEvent(e: RmqEvent): boolean {
  const { fields, level, thread, logger } = e;
  return (
    typeof e.host === 'string' &&
    typeof e.kind === 'string' &&
    typeof e.file === 'string' &&
    typeof e.line === 'number' &&
    typeof e.type === 'string' &&
    typeof e.text === 'string' &&
    typeof fields === 'object' &&
    fields !== null &&
    !Array.isArray(fields) &&
    nullOrString(level) &&
    nullOrString(thread) &&
    nullOrString(logger) &&
    optionalString(e.clock) &&
    optionalString(e.entry) &&
    optionalString(e.versionHint) &&
    optionalString(e.sendPath)
  );
}

function nullOrString(v: unknown): boolean {
  return v === null || typeof v === 'string';
}
function optionalString(v: unknown): boolean {
  return v === undefined || typeof v === 'string';
}

// A source's events share host, kind and file: their JSON is made once per source.
let lastHost = '';
let lastKind = '';
let lastFile = '';
let lastPrefix = '';
function sourcePrefix(host: string, kind: string, file: string): string {
  if (host !== lastHost || kind !== lastKind || file !== lastFile || lastPrefix === '') {
    lastHost = host;
    lastKind = kind;
    lastFile = file;
    lastPrefix = `"host":${JSON.stringify(host)},"kind":${JSON.stringify(kind)},"file":${JSON.stringify(file)},"line":`;
  }
  return lastPrefix;
}

/** encodeEvent the general way: the object, then JSON.stringify (which leaves out undefined values). */
export function encodeObject(e: RmqEvent): string {
  const o: Record<string, unknown> = {};
  if (e.clock) o.clock = e.clock;
  o.host = e.host;
  o.kind = e.kind;
  o.file = e.file;
  o.line = e.line;
  o.level = e.level;
  o.thread = e.thread;
  o.logger = e.logger;
  o.type = e.type;
  o.fields = e.fields;
  o.text = e.text;
  if (e.entry) o.entry = e.entry;
  if (e.versionHint) o.versionHint = e.versionHint;
  if (e.sendPath) o.sendPath = e.sendPath;
  return JSON.stringify(o);
}

const TYPE_KEY = '"type":"';
const KIND_KEY = '"kind":"';
const LINE_KEY = '"line":';
const LEVEL_KEY = '"level":';

// Readers of an encoded event that need one or two keys read them here, in encodeEvent's key order,
// without parsing the rest: a key with its quotes cannot occur inside a JSON string (there its
// quotes are escaped).

/** What a table of events keeps of each: source kind, line, level and type. */
export interface EncodedHeader {
  kind: string;
  line: number;
  level: string | null;
  type: EventType;
}

/** Reads the header keys of an encoded event into `out` (reused, so that a pass allocates nothing per event). */
export function readHeader(json: string, out: EncodedHeader): EncodedHeader {
  let at = json.indexOf(KIND_KEY) + KIND_KEY.length;
  let end = json.indexOf('"', at);
  out.kind = json.slice(at, end);
  at = json.indexOf(LINE_KEY, end) + LINE_KEY.length;
  end = json.indexOf(',', at);
  out.line = Number(json.slice(at, end)) || 0;
  at = json.indexOf(LEVEL_KEY, end) + LEVEL_KEY.length;
  if (json.charCodeAt(at) === 34 /* " */) {
    end = json.indexOf('"', at + 1);
    out.level = json.slice(at + 1, end);
  } else out.level = null;
  at = json.indexOf(TYPE_KEY, at) + TYPE_KEY.length;
  out.type = json.slice(at, json.indexOf('"', at)) as EventType;
  return out;
}

/** Whether a field of the encoded event's `fields` is this number, without decoding it. */
export function encodedFieldIs(json: string, key: string, value: number): boolean {
  const at = json.indexOf(`"${key}":${value}`);
  if (at < 0) return false;
  const next = json.charCodeAt(at + key.length + 3 + String(value).length);
  return next === 44 /* , */ || next === 125 /* } */;
}

/**
 * The event of an encoded JSON object. The parsed object takes the three keys in place, with no
 * spread copy: the copy cost more than the parse on large inputs, where rules read most events.
 */
export function decodeJson(json: string, ts: number | null, source: number, seq: number): RmqEvent {
  const e = JSON.parse(json) as RmqEvent;
  e.ts = ts;
  e.source = source;
  e.seq = seq;
  return e;
}

/** The text of an encoded event. */
export function encodedText(json: string): string {
  return (JSON.parse(json) as { text: string }).text;
}
