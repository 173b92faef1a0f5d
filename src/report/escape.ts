// Log text is data: a log line must never drive the terminal. Control characters and ANSI escapes
// inside log text are shown escaped (`\x1b`, `\t`), and long texts are cut to the column budget.
// So are the bidirectional overrides, embeddings, isolates and marks (U+202A-U+202E,
// U+2066-U+2069, U+200E, U+200F, U+061C): they reorder what a terminal or a rendered report shows
// ("Trojan Source", CVE-2021-42574), so a line could show text that is not there.

import { JSON_RAW_CHARS } from '../util/text.js';

/** C0 controls, and what JSON.stringify leaves raw of the rest (util/text.ts). */
const CONTROL = new RegExp(`[\\u0000-\\u001f${JSON_RAW_CHARS}]`, 'g');
/** The same characters, for a test: most texts hold none, and a test costs less than a replace that finds nothing. */
const HAS_CONTROL = new RegExp(CONTROL.source);
// JSON text with those characters escaped: util/text.ts (the parse makes it too, on every core).
export { jsonSafe } from '../util/text.js';

export function escapeText(text: string): string {
  if (!HAS_CONTROL.test(text)) return text;
  return text.replace(CONTROL, (c) => {
    if (c === '\t') return '\\t';
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    const code = c.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** Escape, then cut to `width` columns with an ellipsis. */
export function clip(text: string, width: number): string {
  const t = escapeText(text);
  if (width <= 0) return '';
  return t.length <= width ? t : t.slice(0, Math.max(0, width - 1)) + '…';
}

export interface Palette {
  red(s: string): string;
  yellow(s: string): string;
  green(s: string): string;
  cyan(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

const id = (s: string) => s;
const wrap = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;

export const PLAIN: Palette = { red: id, yellow: id, green: id, cyan: id, dim: id, bold: id };
export const ANSI: Palette = {
  red: wrap(31, 39),
  yellow: wrap(33, 39),
  green: wrap(32, 39),
  cyan: wrap(36, 39),
  dim: wrap(2, 22),
  bold: wrap(1, 22),
};

/** `--color`: `auto` follows the terminal and the environment; `always` and `never` win over both. */
export type ColorMode = 'auto' | 'always' | 'never';

/**
 * Colour: `--color always|never` decides; else never with NO_COLOR (https://no-color.org) or
 * FORCE_COLOR=0, always with another FORCE_COLOR, and otherwise only on a TTY.
 */
export function paletteFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env, mode: ColorMode = 'auto'): Palette {
  if (mode !== 'auto') return mode === 'always' ? ANSI : PLAIN;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return PLAIN;
  if (env.FORCE_COLOR === '0' || env.FORCE_COLOR === 'false') return PLAIN;
  if (env.FORCE_COLOR !== undefined) return ANSI;
  return stream.isTTY ? ANSI : PLAIN;
}

/** Word-wrap escaped text to `width` columns; continuation lines are indented by `indent` spaces. */
export function wrapText(text: string, width: number, indent = 2): string {
  const t = escapeText(text);
  if (!Number.isFinite(width) || t.length <= width) return t;
  const out: string[] = [];
  let line = '';
  for (const word of t.split(' ')) {
    const room = width - (out.length ? indent : 0);
    if (line && line.length + 1 + word.length > room) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
    while (line.length > width - indent) {
      out.push(line.slice(0, width - indent));
      line = line.slice(width - indent);
    }
  }
  if (line) out.push(line);
  return out.map((l, i) => (i ? ' '.repeat(indent) + l : l)).join('\n');
}
