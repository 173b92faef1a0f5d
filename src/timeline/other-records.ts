// Records that are no RocketMQ event but that replay's inference reads (and analyze's causes, which
// are the same inference): a server's start-up property dump, a broker's producer connections, an
// application's sent, statistics and settings lines. A timeline built with `keepOther: 'inference'`
// keeps these and drops the other records, so both commands read the same events, and far fewer.

import { SERVER_KINDS, type SourceKind } from '../ingest/kinds.js';
import type { RmqEvent } from '../parse/types.js';

/** A server's property dump at start-up (BrokerStartup, NamesrvStartup: `key=value`, thread main or none). */
const PROP_LINE = / - ([A-Za-z][A-Za-z0-9]*)=([^\s,;]*)\s*$/y;

/**
 * PROP_LINE's match in a line. Its `name=value` is the line's last run of characters that are no
 * space, `,` or `;` (trailing spaces aside), right after a ` - `: so the regex is tried there alone,
 * found from the line's end, instead of at every character. A character past ASCII in that tail
 * (a space of another script, say) has the regex tried at the last ` - ` instead, where any match
 * starts (what follows it holds no other).
 */
export function propLine(text: string): RegExpExecArray | null {
  let end = text.length;
  for (let c = text.charCodeAt(end - 1); end > 0 && (c === 32 || (c >= 9 && c <= 13)); c = text.charCodeAt(--end - 1));
  let at = end;
  for (; at > 0; at--) {
    const c = text.charCodeAt(at - 1);
    if (c >= 128) return propLineAt(text, text.lastIndexOf(' - '));
    if (c === 32 || (c >= 9 && c <= 13) || c === 44 || c === 59) break;
  }
  return at >= 3 && text.startsWith(' - ', at - 3) ? propLineAt(text, at - 3) : null;
}

function propLineAt(text: string, at: number): RegExpExecArray | null {
  if (at < 0) return null;
  PROP_LINE.lastIndex = at;
  return PROP_LINE.exec(text);
}
/** ProducerManager `new producer connected ... L:/local - R:/remote`: the broker's own address. */
export const PRODUCER_LINK = /new producer connected.*?L:\/?(\d{1,3}(?:\.\d{1,3}){3}:\d+) - R:\/?(\d{1,3}(?:\.\d{1,3}){3}):\d+/;
/** An application line that reports a sent message. */
export const APP_SEND = /msgId=|SEND_OK|sendStatus=SEND_OK/;
/** An application's statistics line. */
export const APP_STATS = /\bsent=(\d+)(?:,\s*failed=(\d+))?/;
/** The producer settings an application may log (DefaultMQProducer's names). */
const SETTING_NAMES = ['sendMsgTimeout', 'retryTimesWhenSendFailed', 'sendLatencyFaultEnable', 'namesrvAddr'];
/** An application's producer settings. */
export const APP_SETTING = new RegExp(`\\b(${SETTING_NAMES.join('|')})=([^\\s,]+)`, 'g');
const APP_HINT = new RegExp(`msgId=|SEND_OK|\\bsent=\\d|\\b(?:${SETTING_NAMES.join('|')})=`);
/** The names APP_HINT needs before a `=`. */
const APP_NAMES = ['msgId', 'sent', ...SETTING_NAMES];

/**
 * Whether a line holds what APP_HINT needs (SEND_OK, or one of APP_NAMES right before a `=`), looked
 * for before the regex, which tries at every character: most application records have none. The
 * `=` are found by the native search, and only the names that end there are compared.
 */
function appWords(text: string): boolean {
  if (text.includes('SEND_OK')) return true;
  for (let eq = text.indexOf('='); eq !== -1; eq = text.indexOf('=', eq + 1)) {
    for (let i = 0; i < APP_NAMES.length; i++) {
      const name = APP_NAMES[i];
      if (eq >= name.length && text.startsWith(name, eq - name.length)) return true;
    }
  }
  return false;
}

function appHint(text: string): boolean {
  return appWords(text) && APP_HINT.test(text);
}

/**
 * The records inferenceFilter() can keep, judged by their text alone: the parser builds an `other`
 * event only for these (it needs the thread, which costs, for the rest of the filter).
 */
export function inferenceCandidate(kind: SourceKind, text: string): boolean {
  if (SERVER_KINDS.has(kind)) return text.includes('new producer connected') || propLine(text) !== null;
  return kind === 'app' && appHint(text);
}

/**
 * Which records of one source that are no event inference reads. A broker logs every producer
 * connection again (every heartbeat channel): the first one per local address tells all. `onLink`
 * hears each one kept (a part of a split file keeps its own first ones: split.ts drops the repeats).
 */
export function inferenceFilter(onLink?: (local: string) => void): (kind: SourceKind, thread: string | null, text: string) => boolean {
  const links = new Set<string>();
  return (kind, thread, text) => {
    if (SERVER_KINDS.has(kind)) {
      if (thread === 'main' || thread === null) return true;
      if (!text.includes('new producer connected')) return false;
      const l = PRODUCER_LINK.exec(text);
      if (!l || links.has(l[1])) return false;
      links.add(l[1]);
      onLink?.(l[1]);
      return true;
    }
    return kind === 'app' && appHint(text);
  };
}

/**
 * Whether inference reads a record that is no event, as a timeline built with keepOther
 * 'inference' judges it (inferenceCandidate, then inferenceFilter per source): for a reader fed
 * every record (the TUI's timeline keeps them all, an events file may hold them all), so that it
 * reads what analyze reads. One per stream: a source's repeated producer links are dropped as its
 * parse drops them. On a stream that kept only these it keeps every one (each link comes once).
 */
export function inferenceReader(): (e: Pick<RmqEvent, 'source' | 'kind' | 'thread' | 'text'>) => boolean {
  const bySource = new Map<number, ReturnType<typeof inferenceFilter>>();
  return (e) => {
    if (!inferenceCandidate(e.kind, e.text)) return false;
    let reads = bySource.get(e.source);
    if (reads === undefined) bySource.set(e.source, (reads = inferenceFilter()));
    return reads(e.kind, e.thread, e.text);
  };
}
