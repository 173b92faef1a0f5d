// The compact form events travel in between parsing and output: one line per event,
// `<ts>\t<json>`, where <ts> is epoch ms or empty, and <json> is the event's stable JSON object
// without its time (docs/json.md). Output in JSON then needs no parse: the time is formatted in the
// output zone and put in front. Built strings are fresh (not views into a decoded chunk), so keeping
// them does not keep a whole chunk of input alive.

import type { EventType, RmqEvent } from './types.js';

export interface EncodedEvent {
  ts: number | null;
  /** JSON object text, starting with `{"host":`. */
  json: string;
}

/** The JSON object of an event, without `time` (keys in the documented order). */
export function encodeEvent(e: RmqEvent): string {
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

/**
 * The event type of an encoded event, read without parsing the rest: `type` comes before any free
 * text (encodeEvent's key order), and a key with its quotes cannot occur inside a JSON string.
 */
export function encodedType(json: string): EventType {
  const at = json.indexOf(TYPE_KEY) + TYPE_KEY.length;
  return json.slice(at, json.indexOf('"', at)) as EventType;
}

export function encodeLine(e: RmqEvent): string {
  return `${e.ts === null ? '' : e.ts}\t${encodeEvent(e)}`;
}

export function decodeLine(line: string): EncodedEvent {
  const tab = line.indexOf('\t');
  const t = line.slice(0, tab);
  return { ts: t === '' ? null : Number(t), json: line.slice(tab + 1) };
}

/** Back to an event object (for rules and tables). */
export function decodeEvent(enc: EncodedEvent, source: number, seq: number): RmqEvent {
  const o = JSON.parse(enc.json) as Omit<RmqEvent, 'ts' | 'source' | 'seq'>;
  return { ...o, ts: enc.ts, source, seq } as RmqEvent;
}
