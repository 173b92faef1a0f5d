// Which events to show: one syntax for the `events` command's flags (`--type '!watermark'`,
// `--host 'app-*'`, `--kind broker`, `--level warn`, `--grep REGEX`) and the TUI's filter prompt
// (`type:!watermark host:app-* kind:broker level:warn grep:REGEX`). Lists are globs; an entry starting
// with `!` excludes. A level means that level and worse; records without a level count as INFO.

import { globMatch } from '../ingest/glob.js';
import { encodedFieldIs } from '../parse/event-codec.js';
import { EVENT_TYPES } from '../parse/types.js';
import { SOURCE_KINDS } from '../ingest/kinds.js';

/** Level ranks; unknown words and records without a level rank as INFO. */
export function levelRank(level: string | null): number {
  switch (level) {
    case 'TRACE':
    case 'FINEST':
    case 'FINER':
    case 'FINE':
      return 0;
    case 'DEBUG':
    case 'CONFIG':
      return 1;
    case 'WARN':
    case 'WARNING':
      return 3;
    case 'ERROR':
    case 'SEVERE':
      return 4;
    case 'FATAL':
    case 'CRITICAL':
      return 5;
    default:
      return 2;
  }
}

/** Level words as typed (`warn`, `WARN`, `warn+`), to their rank. */
export const LEVEL_WORDS: Readonly<Record<string, number>> = {
  trace: 0,
  debug: 1,
  info: 2,
  warn: 3,
  warning: 3,
  error: 4,
  fatal: 5,
};

export const LEVEL_NAMES = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;

export function levelOfWord(word: string): number | null {
  return LEVEL_WORDS[word.toLowerCase().replace(/\+$/, '')] ?? null;
}

const GLOB = /[*?[{]/;

/** The first name of a list that is no event type (globs are let through), or null. */
export function unknownType(values: readonly string[]): string | null {
  for (const v of values) {
    const name = v.replace(/^!/, '');
    if (!GLOB.test(name) && !(EVENT_TYPES as readonly string[]).includes(name)) return name;
  }
  return null;
}

/** The first name of a list that is no source kind (globs are let through), or null. */
export function unknownKind(values: readonly string[]): string | null {
  for (const v of values) {
    const name = v.replace(/^!/, '');
    if (!GLOB.test(name) && !(SOURCE_KINDS as readonly string[]).includes(name)) return name;
  }
  return null;
}

/** A test of names against a list: empty lets all through; `!glob` excludes. */
export function listMatcher(list: readonly string[]): (name: string) => boolean {
  const inc = list.filter((p) => !p.startsWith('!'));
  const exc = list.filter((p) => p.startsWith('!')).map((p) => p.slice(1));
  if (!inc.length && !exc.length) return () => true;
  return (n) => (inc.length === 0 || inc.some((p) => globMatch(p, n))) && !exc.some((p) => globMatch(p, n));
}

export interface EventFilter {
  types: readonly string[];
  hosts: readonly string[];
  kinds: readonly string[];
  /** That rank and worse (levelRank), or null. */
  minLevel: number | null;
  /** Tested on the record's text. */
  grep: RegExp | null;
}

export function isEventFiltered(f: EventFilter): boolean {
  return f.types.length > 0 || f.hosts.length > 0 || f.kinds.length > 0 || f.minLevel !== null || f.grep !== null;
}

/** What a filter looks at in an event. */
interface Filterable {
  type: string;
  host: string;
  kind: string;
  level: string | null;
  text: string;
}

export function eventMatcher(f: EventFilter): (e: Filterable) => boolean {
  const type = listMatcher(f.types);
  const host = listMatcher(f.hosts);
  const kind = listMatcher(f.kinds);
  return (e) =>
    type(e.type) &&
    host(e.host) &&
    kind(e.kind) &&
    (f.minLevel === null || levelRank(e.level) >= f.minLevel) &&
    (f.grep === null || f.grep.test(e.text));
}

/** A `--grep` / `grep:` value as a regular expression; a message when it is not one. */
export function grepOf(source: string, ignoreCase = false): RegExp | string {
  try {
    return new RegExp(source, ignoreCase ? 'i' : '');
  } catch (e) {
    return `not a regular expression: ${(e as Error).message.replace(/^Invalid regular expression: /, '')}`;
  }
}

/**
 * Noise: rows that tell nothing about an incident, hidden by the TUI until asked for. A watermark row
 * whose queue head has not waited (SlowTimeMills 0: BrokerController's headSlowTimeMills of an
 * empty or just-served queue, printed every second for every queue) is noise; records that are no
 * RocketMQ event (`other`) are left out by the same switch (TuiModel).
 */
export function isNoise(type: string, fields: Readonly<Record<string, unknown>>): boolean {
  return type === 'watermark' && fields.slowMs === 0;
}

/** isNoise on an encoded event (src/parse/event-codec.ts), without decoding it. */
export function isNoiseEncoded(type: string, json: string): boolean {
  return type === 'watermark' && encodedFieldIs(json, 'slowMs', 0);
}
