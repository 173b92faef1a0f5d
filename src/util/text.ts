// Counts in words, as every report and note writes them; JSON text made safe to show.

/** `1 send`, `3 sends`, `2 replies` (with `many`): a count with its word. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The same with the digits grouped (`1,234 lines`), for the figures of a run's accounting. */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/**
 * The characters JSON.stringify leaves raw that a terminal must not get raw (it escapes C0 itself):
 * C1 controls and DEL, line and paragraph separators, bidirectional marks, embeddings, overrides
 * and isolates (report/escape.ts says why): a regex character class's text.
 */
export const JSON_RAW_CHARS = '\\u007f-\\u009f\\u2028\\u2029\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';
const JSON_RAW = new RegExp(`[${JSON_RAW_CHARS}]`, 'g');
const HAS_JSON_RAW = new RegExp(`[${JSON_RAW_CHARS}]`);

/**
 * JSON text with those characters written as `\uXXXX` escapes: the same JSON value, but `cat` or a
 * terminal shows the escape, not a reordered line. They can only stand inside strings, where an
 * escape is valid. Applying it twice gives what once gives.
 */
export function jsonSafe(json: string): string {
  // Most text is ASCII without DEL, which holds none of them: two native scans tell it several
  // times faster than the regex (ASCII alone is as long in UTF-8 as in characters).
  if (Buffer.byteLength(json, 'utf8') === json.length && json.indexOf('\x7f') < 0) return json;
  if (!HAS_JSON_RAW.test(json)) return json;
  return json.replace(JSON_RAW, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
