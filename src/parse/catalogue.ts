// The message catalogue: which RocketMQ log message texts become which typed events.
//
// The entries themselves are data (catalogue-data.ts; their shape in catalogue-entry.ts): literal
// keywords, a pattern, the versions and class that produce the text, a converter from regex groups
// to typed fields, and sample lines that the tests run. This module indexes them and matches lines
// against them.
//
// Matching cost: a line that contains no keyword costs one regex test (KEYWORD_PREFILTER, or the
// scan at the top of matchMessage). A line that contains keywords runs only the patterns of the
// entries that own those keywords, in catalogue order (the order decides precedence).

import { EVENT_TYPES, type EventFields, type EventType } from './types.js';
import { fieldNames } from './event-fields.js';
import { ENTRIES, normAddr } from './catalogue-data.js';
import { CLIENT_ENTRIES } from './catalogue-clients.js';
import { CONSUMER_ENTRIES } from './catalogue-consumer.js';
import { DLEDGER_ENTRIES } from './catalogue-dledger.js';
import type { CatalogueEntry } from './catalogue-entry.js';
import { keywordPlaces } from './keyword-scan.js';

export interface CatalogueMatch {
  type: EventType;
  fields: EventFields;
  entry: CatalogueEntry;
}

/**
 * Catalogue entries in precedence order (the first entry whose pattern matches wins): the Java
 * client's producer side and the servers, the Java client's consumer side and the broker's book of
 * consumers, DLedger, then the other clients.
 */
export const CATALOGUE: readonly CatalogueEntry[] = Object.freeze([...ENTRIES, ...CONSUMER_ENTRIES, ...DLEDGER_ENTRIES, ...CLIENT_ENTRIES]);

/**
 * Field names per event type: the public `--json` contract. Every event of a type carries all of
 * its `required` fields (null when unknown); `optional` fields appear only on some entries. Read
 * from event-fields.ts's table, the one home of the fields and their kinds.
 */
export const EVENT_FIELDS: Readonly<Record<EventType, { required: readonly string[]; optional?: readonly string[] }>> = Object.fromEntries(
  EVENT_TYPES.map((t) => [t, fieldNames(t)]),
) as Record<EventType, { required: readonly string[]; optional?: readonly string[] }>;

// ---------------------------------------------------------------------------------------------
// Keyword index

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

interface TrieNode {
  kids: Map<string, TrieNode>;
  end: boolean;
}

/**
 * A regex source that matches any of `words`, written as a trie so that at each position the
 * engine follows one branch per character instead of trying every keyword in turn. Where one
 * keyword is a prefix of another, the longer one is preferred (greedy optional group).
 */
function trieSource(words: readonly string[]): string {
  const root: TrieNode = { kids: new Map(), end: false };
  for (const w of words) {
    let node = root;
    for (const ch of w) {
      let next = node.kids.get(ch);
      if (next === undefined) {
        next = { kids: new Map(), end: false };
        node.kids.set(ch, next);
      }
      node = next;
    }
    node.end = true;
  }
  const emit = (node: TrieNode): string => {
    const alts: string[] = [];
    for (const [ch, kid] of node.kids) alts.push(escapeRegExp(ch) + emit(kid));
    if (alts.length === 0) return '';
    const body = alts.length === 1 ? alts[0] : `(?:${alts.join('|')})`;
    if (!node.end) return body;
    return `(?:${alts.join('|')})?`;
  };
  return emit(root);
}

/** Every catalogue keyword, once each (sorted): what the keyword scans look for. */
export const KEYWORDS: readonly string[] = [...new Set(CATALOGUE.flatMap((e) => e.keywords))].sort();

/**
 * keyword -> indexes of the entries to try when that keyword is found. A found keyword also
 * implies every keyword that is a substring of it (the scan reports only the longest keyword at
 * each position), so those entries are included too. Indexes are sorted (catalogue order).
 */
const CANDIDATES: ReadonlyMap<string, readonly number[]> = (() => {
  const map = new Map<string, number[]>();
  for (const kw of KEYWORDS) {
    const ids: number[] = [];
    CATALOGUE.forEach((e, i) => {
      if (e.keywords.some((k) => kw.includes(k))) ids.push(i);
    });
    map.set(kw, ids);
  }
  return map;
})();

const KEYWORD_SOURCE = trieSource(KEYWORDS);

/** True iff a line may match some entry (it contains at least one catalogue keyword). No g flag. */
export const KEYWORD_PREFILTER: RegExp = new RegExp(KEYWORD_SOURCE);

/** The alternation at one place (sticky): the longest keyword starting there, as KEYWORD_PREFILTER finds it. */
const KEYWORD_AT = new RegExp(KEYWORD_SOURCE, 'y');
/** Where a keyword may start (checked with KEYWORD_AT): a skip over the text instead of the alternation at every character. */
const KEYWORD_PLACES = keywordPlaces(KEYWORDS);

/** A keyword told by its length and its first and last characters (a number: no string to hash). */
const shapeOf = (len: number, first: number, last: number): number => (len << 16) | ((first & 0xff) << 8) | (last & 0xff);

/** CANDIDATES by the shape of the keyword, where no other keyword has that shape. */
const BY_SHAPE: ReadonlyMap<number, readonly number[]> = (() => {
  const count = new Map<number, number>();
  const shape = (k: string) => shapeOf(k.length, k.charCodeAt(0), k.charCodeAt(k.length - 1));
  for (const k of KEYWORDS) count.set(shape(k), (count.get(shape(k)) ?? 0) + 1);
  const map = new Map<number, readonly number[]>();
  for (const k of KEYWORDS) if (count.get(shape(k)) === 1) map.set(shape(k), CANDIDATES.get(k)!);
  return map;
})();

/** The candidates of the longest keyword starting at `at` of `text`, or null when none starts there. */
function candidatesAt(text: string, at: number): readonly number[] | null {
  KEYWORD_AT.lastIndex = at;
  if (!KEYWORD_AT.test(text)) return null;
  const n = KEYWORD_AT.lastIndex - at;
  return BY_SHAPE.get(shapeOf(n, text.charCodeAt(at), text.charCodeAt(at + n - 1))) ?? CANDIDATES.get(text.slice(at, at + n))!;
}

/**
 * Unions of two candidate lists, by the lists: each is CANDIDATES' or an earlier union's, so a line
 * with several keywords makes no list (a message of the model's and many a client line hold two).
 * Bounded: cleared when full.
 */
const UNIONS = new Map<readonly number[], Map<readonly number[], readonly number[]>>();
let unionCount = 0;
const MAX_UNIONS = 4096;

function union(a: readonly number[], b: readonly number[]): readonly number[] {
  let byB = UNIONS.get(a);
  let u = byB?.get(b);
  if (u !== undefined) return u;
  const set = new Set(a);
  for (const id of b) set.add(id);
  u = set.size === a.length ? a : set.size === b.length ? b : [...set].sort((x, y) => x - y);
  if (unionCount >= MAX_UNIONS) {
    UNIONS.clear();
    unionCount = 0;
  }
  if (byB === undefined) UNIONS.set(a, (byB = new Map()));
  byB.set(b, u);
  unionCount++;
  return u;
}

/** Candidate entry indexes for a line, in catalogue order; null when the line has no keyword. */
function candidatesOf(text: string): readonly number[] | null {
  let result: readonly number[] | null = null;
  for (let at = KEYWORD_PLACES(text, 0); at >= 0; at = KEYWORD_PLACES(text, at + 1)) {
    const ids = candidatesAt(text, at);
    if (ids === null || ids === result) continue;
    result = result === null ? ids : union(result, ids);
  }
  return result;
}

/**
 * candidatesOf a text whose first keyword occurrence starts at `at`, every other lying inside the
 * longest keyword starting there: a keyword inside another is a substring of it, so its entries are
 * among the longer one's CANDIDATES.
 */
function candidatesOfOnly(text: string, at: number): readonly number[] | null {
  return candidatesAt(text, at) ?? candidatesOf(text); // not as told: scan it all
}

/**
 * Match one line of text (a message, or a stack/continuation line). Returns the first matching
 * entry in catalogue order, or null. A line with no keyword costs one skip over it. `keywordAt`, when
 * known: where the text's first keyword occurrence starts, every other lying inside the longest
 * keyword starting there (the reader found them all, src/ingest/reader.ts); the entries are then
 * told by that keyword alone, without a scan.
 */
export function matchMessage(text: string, keywordAt?: number): CatalogueMatch | null {
  const cands = keywordAt === undefined ? candidatesOf(text) : candidatesOfOnly(text, keywordAt);
  if (cands === null) return null;
  for (const i of cands) {
    const entry = CATALOGUE[i];
    const m = entry.pattern.exec(text);
    if (m !== null) {
      return { type: entry.type, fields: entry.fields(m.groups ?? {}, text), entry };
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Addresses inside exception lines

const CAUSE_ADDR_PATTERNS: readonly RegExp[] = [
  /wait response on the channel <(.*?)> timeout/,
  /wait response on the channel (\S*) timeout/,
  /\bconnect to <(.*?)> failed/,
  /\bconnect to (?!master )(.*?) failed/,
  /send request to <(.*?)> failed/,
  /call the addr\[([^\]]*)\] timeout/,
  /wait response from (\S+?) timeout/,
  /send request failed to (\S+?)\.? Request:/,
  /connect remote host\[([^\]]*)\]/,
  /the channel\[(.*)\] is not writable/,
  /\bBROKER:\s*(\S+)/,
];

/**
 * Extract an address from an exception line (for cause/addr filling), e.g. from
 * 'RemotingTimeoutException: wait response on the channel <10.0.0.1:9876> timeout, 3000(ms)'
 * -> '10.0.0.1:9876'; null if none.
 */
export function addrFromCause(text: string): string | null {
  for (const re of CAUSE_ADDR_PATTERNS) {
    const m = re.exec(text);
    if (m === null) continue;
    let raw = m[1] ?? '';
    // Netty Channel.toString(): `[id: 0x.., /local => /remote]` (3.x/4.0) or `[id: 0x.., L:/local - R:/remote]`.
    const arrow = raw.lastIndexOf('=>');
    const remote = raw.lastIndexOf('R:');
    if (arrow >= 0 || remote >= 0) {
      raw = raw.slice(arrow >= 0 ? arrow + 2 : remote + 2).replace(/\]+$/, '');
    }
    const addr = normAddr(raw);
    if (addr !== null) return addr;
  }
  return null;
}
