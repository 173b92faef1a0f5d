// Laying text out for the terminal: word-wrapping to a width (log text escaped first), hanging
// indents, and times in the output zone. Shared by the findings and the incident.

import { formatShort, type Zone } from '../parse/time.js';
import { escapeText } from './escape.js';

/** True when the window lies within one calendar day of the zone: times can drop the date. */
export function oneDay(first: number | null, last: number | null, zone: Zone): boolean {
  if (first === null || last === null) return true;
  return formatShort(first, zone).slice(0, 10) === formatShort(last, zone).slice(0, 10);
}

/** `14:42:11.000` within one day, else `2020-12-22 14:42:11.000`; `-` when unknown. */
export function timeText(ts: number | null, zone: Zone, sameDay: boolean, millis = true): string {
  if (ts === null) return '-';
  const s = formatShort(ts, zone);
  const t = sameDay ? s.slice(11) : s;
  return millis ? t : t.slice(0, -4);
}

/**
 * Escape, then word-wrap: the first line to `width`, the others to `width - indent` (the caller
 * indents them). Words longer than a line are broken.
 */
export function wrapLines(text: string, width: number, indent = 0): string[] {
  const t = escapeText(text);
  const out: string[] = [];
  let line = '';
  const room = () => (out.length ? width - indent : width);
  for (const word of t.split(' ')) {
    if (line && line.length + 1 + word.length > room()) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
    while (line.length > room()) {
      const r = room();
      out.push(line.slice(0, r));
      line = line.slice(r);
    }
  }
  if (line || !out.length) out.push(line);
  return out;
}

/** Word-wrapped, continuation lines indented by `indent` spaces; no line longer than `width`. */
export function wrapIndented(text: string, width: number, indent = 2): string {
  return wrapLines(text, width, indent)
    .map((l, i) => (i ? ' '.repeat(indent) + l : l))
    .join('\n');
}

/** `prefix` then `text` word-wrapped to the width, continuation lines aligned under the text. */
export function hang(prefix: string, text: string, width: number): string {
  const room = Math.max(20, width - prefix.length);
  const lines = wrapLines(text, room);
  return lines.map((l, i) => (i ? ' '.repeat(prefix.length) : prefix) + l).join('\n');
}
