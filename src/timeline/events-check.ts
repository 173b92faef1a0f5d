// The lines of an events file checked against their schema (docs/json.md; the fields are
// src/parse/event-fields.ts's, which docs/events.md's tables equal) as they are read: a file shipped
// from another host may be cut, edited, damaged or made by another version, and a line the rules
// would read wrongly (a `fields` missing, a number where a string belongs) is one to skip with a
// note, not one to pass on. The checks are cheap beside the JSON.parse of the line.

import { SOURCE_KINDS } from '../ingest/kinds.js';
import { EVENT_FIELD_TABLE, type FieldKind } from '../parse/event-fields.js';
import { parseZone } from '../parse/time.js';
import { EVENT_TYPES, type EventType } from '../parse/types.js';

/** The `schemaVersion` of the summary line of `events --json` and `--format events`. */
export const EVENTS_SCHEMA_VERSION = 1;

const S: readonly FieldKind[] = ['string'];
const SN: readonly FieldKind[] = ['string', 'null'];
const N: readonly FieldKind[] = ['number'];
const NN: readonly FieldKind[] = ['number', 'null'];
const L: readonly FieldKind[] = ['string[]'];

/**
 * The type of every field of every event type (event-fields.ts's table, which docs/events.md's
 * tables are held equal to).
 */
export const FIELD_TYPES: Readonly<Record<Exclude<EventType, 'other'>, Readonly<Record<string, readonly FieldKind[]>>>> = Object.fromEntries(
  Object.entries(EVENT_FIELD_TABLE).map(([t, fields]) => [t, Object.fromEntries(Object.entries(fields).map(([n, f]) => [n, f.kinds]))]),
) as Record<Exclude<EventType, 'other'>, Record<string, readonly FieldKind[]>>;

/** A value's kind as a bit (maskOf), and a field's kinds as the bits of each. */
const BIT: Readonly<Record<FieldKind, number>> = { null: 1, string: 2, number: 4, boolean: 8, 'string[]': 16 };
/** A field a line may leave out (EVENT_FIELDS' optional ones): its mask has this bit too. */
const ABSENT = 32;

function maskOf(v: unknown): number {
  switch (typeof v) {
    case 'string':
      return 2;
    case 'number':
      return Number.isFinite(v) ? 4 : 0;
    case 'boolean':
      return 8;
    case 'undefined':
      return ABSENT;
    case 'object':
      if (v === null) return 1;
      if (!Array.isArray(v)) return 0;
      for (let i = 0; i < v.length; i++) if (typeof v[i] !== 'string') return 0;
      return 16;
    default:
      return 0;
  }
}

/** Each type's fields: their names and the masks of the kinds each may be ('other': none checked). */
const SCHEMA = new Map<string, { names: string[]; masks: number[] }>(
  EVENT_TYPES.map((t) => {
    if (t === 'other') return [t, { names: [], masks: [] }];
    const fields = EVENT_FIELD_TABLE[t];
    const names = Object.keys(fields);
    return [t, { names, masks: names.map((n) => fields[n].kinds.reduce((m, k) => m | BIT[k], fields[n].optional ? ABSENT : 0)) }];
  }),
);
const KINDS: ReadonlySet<string> = new Set(SOURCE_KINDS);

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return v.every((x) => typeof x === 'string') ? 'string[]' : 'a list of other values';
  return typeof v;
}

function isKind(v: unknown, kinds: readonly FieldKind[]): boolean {
  for (const k of kinds) {
    if (k === 'null' ? v === null : k === 'string[]' ? Array.isArray(v) && v.every((x) => typeof x === 'string') : typeof v === k && (k !== 'number' || Number.isFinite(v))) return true;
  }
  return false;
}

/** `key` is a string, a string or null, ... as docs/json.md says, else why not. */
function wrong(what: string, v: unknown, kinds: readonly FieldKind[]): string {
  return `${what} is ${v === undefined ? 'missing' : kindOf(v)}, not ${kinds.join(' or ')}`;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Why a parsed line is no event line of the schema (docs/json.md, "Event line"; its type's fields as
 * docs/events.md gives them), or null when it is one. `ts` is its time, parsed already (NaN: no date).
 */
export function eventLineProblem(o: Record<string, unknown>, ts: number | null): string | null {
  if (typeof o.type !== 'string') return wrong('type', o.type, S);
  const schema = SCHEMA.get(o.type);
  if (schema === undefined) return `event type ${JSON.stringify(o.type).slice(0, 60)} is none of docs/events.md`;
  if (o.time !== null && typeof o.time !== 'string') return wrong('time', o.time, SN);
  if (ts !== null && !Number.isFinite(ts)) return `time ${JSON.stringify(o.time).slice(0, 60)} is no date`;
  if (typeof o.host !== 'string') return wrong('host', o.host, S);
  if (typeof o.file !== 'string') return wrong('file', o.file, S);
  if (typeof o.kind !== 'string' || !KINDS.has(o.kind)) return typeof o.kind === 'string' ? `kind ${JSON.stringify(o.kind).slice(0, 60)} is none of ${SOURCE_KINDS.join(', ')}` : wrong('kind', o.kind, S);
  if (typeof o.line !== 'number' || !Number.isInteger(o.line) || o.line < 1) return typeof o.line === 'number' ? `line ${o.line} is no line number` : wrong('line', o.line, N);
  if (o.level !== null && typeof o.level !== 'string') return wrong('level', o.level, SN);
  if (o.thread !== null && typeof o.thread !== 'string') return wrong('thread', o.thread, SN);
  if (o.logger !== null && typeof o.logger !== 'string') return wrong('logger', o.logger, SN);
  if (typeof o.text !== 'string') return wrong('text', o.text, S);
  // sendPath: a value the rules do not know (a later version's) is one they pass by.
  for (const k of ['clock', 'entry', 'versionHint', 'sendPath'] as const) if (o[k] !== undefined && typeof o[k] !== 'string') return wrong(k, o[k], S);
  const fields = o.fields;
  if (!isObject(fields)) return fields === undefined ? 'fields is missing' : `fields is ${kindOf(fields)}, not an object`;
  const { names, masks } = schema;
  for (let i = 0; i < names.length; i++) {
    if ((maskOf(fields[names[i]]) & masks[i]) === 0) {
      const t = o.type as keyof typeof FIELD_TYPES;
      return wrong(`fields.${names[i]} of ${t}`, fields[names[i]], FIELD_TYPES[t][names[i]]);
    }
  }
  return null;
}

/** What a summary line's `summary` must hold: each input's accounting and each note. */
const INPUT_NUMBERS = ['lines', 'records', 'continuation', 'unknown', 'unreadable', 'events'] as const;

/**
 * Why a summary line's `summary` is not one of the schema (docs/json.md, "Summary line", and what
 * `--format events` adds), or null when it is one.
 */
export function summaryProblem(s: unknown): string | null {
  if (!isObject(s)) return s === undefined ? 'summary is missing' : `summary is ${kindOf(s)}, not an object`;
  if (typeof s.defaultZone !== 'string' || !isZone(s.defaultZone)) return typeof s.defaultZone === 'string' ? `defaultZone ${JSON.stringify(s.defaultZone).slice(0, 60)} is no time zone` : wrong('defaultZone', s.defaultZone, S);
  if (s.defaultZoneChosen !== undefined && typeof s.defaultZoneChosen !== 'boolean') return wrong('defaultZoneChosen', s.defaultZoneChosen, ['boolean']);
  if (s.format !== undefined && s.format !== 'events') return `format ${JSON.stringify(s.format).slice(0, 60)} is not "events"`;
  if (!Array.isArray(s.inputs)) return `inputs is ${s.inputs === undefined ? 'missing' : kindOf(s.inputs)}, not a list`;
  for (let i = 0; i < s.inputs.length; i++) {
    const why = inputProblem(s.inputs[i]);
    if (why !== null) return `inputs[${i}]${why.startsWith(' ') ? '' : '.'}${why}`;
  }
  if (!Array.isArray(s.issues)) return `issues is ${s.issues === undefined ? 'missing' : kindOf(s.issues)}, not a list`;
  for (let i = 0; i < s.issues.length; i++) {
    const n = s.issues[i];
    if (!isObject(n)) return `issues[${i}] is ${kindOf(n)}, not an object`;
    if (typeof n.file !== 'string') return wrong(`issues[${i}].file`, n.file, S);
    if (n.line !== null && !(typeof n.line === 'number' && Number.isInteger(n.line) && n.line >= 0)) return wrong(`issues[${i}].line`, n.line, NN);
    if (typeof n.message !== 'string') return wrong(`issues[${i}].message`, n.message, S);
  }
  return null;
}

function inputProblem(a: unknown): string | null {
  if (!isObject(a)) return ` is ${kindOf(a)}, not an object`;
  for (const k of ['path', 'host', 'layout'] as const) if (typeof a[k] !== 'string') return wrong(k, a[k], S);
  if (typeof a.kind !== 'string' || !KINDS.has(a.kind)) return typeof a.kind === 'string' ? `kind ${JSON.stringify(a.kind).slice(0, 60)} is none of ${SOURCE_KINDS.join(', ')}` : wrong('kind', a.kind, S);
  if (typeof a.zone !== 'string' || (a.zone !== 'printed' && !isZone(a.zone))) return typeof a.zone === 'string' ? `zone ${JSON.stringify(a.zone).slice(0, 60)} is no time zone` : wrong('zone', a.zone, S);
  for (const k of INPUT_NUMBERS) if (!isCount(a[k])) return wrong(k, a[k], N);
  if (a.lines !== (a.records as number) + (a.continuation as number) + (a.unknown as number) + (a.unreadable as number)) return 'lines is not records + continuation + unknown + unreadable';
  if (a.eventsByType !== undefined) {
    if (!isObject(a.eventsByType)) return wrong('eventsByType', a.eventsByType, ['number']);
    for (const [t, n] of Object.entries(a.eventsByType)) {
      if (!SCHEMA.has(t)) return `eventsByType names ${JSON.stringify(t).slice(0, 60)}, none of the event types`;
      if (!isCount(n)) return wrong(`eventsByType.${t}`, n, N);
    }
  }
  if (a.encoding !== undefined && typeof a.encoding !== 'string') return wrong('encoding', a.encoding, S);
  if (a.versionHints !== undefined && !isKind(a.versionHints, L)) return wrong('versionHints', a.versionHints, L);
  for (const k of ['firstTs', 'lastTs'] as const) if (a[k] !== undefined && a[k] !== null && !isTime(a[k])) return wrong(k, a[k], NN);
  if (a.bytes !== undefined && !isCount(a.bytes)) return wrong('bytes', a.bytes, N);
  if (a.activity !== undefined && !isActivity(a.activity)) return 'activity is not {records, first, last, gaps, gapsDropped} of times and lines';
  return null;
}

function isCount(v: unknown): boolean {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

/** Epoch ms a Date holds (±8.64e15). */
function isTime(v: unknown): boolean {
  return typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= 8.64e15;
}

function isMark(v: unknown): boolean {
  return isObject(v) && isTime(v.ts) && isCount(v.line);
}

function isActivity(v: unknown): boolean {
  if (!isObject(v) || !isCount(v.records) || !isCount(v.gapsDropped) || !isMark(v.first) || !isMark(v.last) || !Array.isArray(v.gaps)) return false;
  const gapsOk = (list: unknown[]) => list.every((g) => isObject(g) && isMark(g.from) && isMark(g.to));
  return gapsOk(v.gaps) && (v.shortGaps === undefined || (Array.isArray(v.shortGaps) && gapsOk(v.shortGaps)));
}

function isZone(z: string): boolean {
  try {
    parseZone(z);
    return true;
  } catch {
    return false;
  }
}
