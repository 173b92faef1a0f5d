// Writing a header in a layout, for what rmq-diag writes itself (the model's simulated logs): the
// layout's `render` template (src/parse/layouts.ts) with its time in the layout's own `ts` format,
// so one definition both reads and writes a layout, and a test parses every rendered header back.

import { LAYOUT_BY_ID, type Layout } from './layouts.js';
import { timeWriter, type TimeOp } from './timestamp.js';

/** What a header can say. */
interface HeaderValues {
  epochMs: number;
  level: string;
  thread: string;
  logger: string;
  pid?: number;
  method?: string;
  line?: string;
}

type Part = string | ((h: HeaderValues) => string);

function runOps(ops: readonly TimeOp[], d: Date, ms: number, off: number, fake: boolean): string {
  let s = '';
  for (const op of ops) s += typeof op === 'string' ? op : op(d, ms, off, fake);
  return s;
}

/** `{name}` or `{name:>N}` / `{name:<N}` (padded right- or left-aligned to N, as logback's %5p, %-40logger). */
const FIELD = /\{(\w+)(?::([<>])(\d+))?\}/g;

function fieldOf(name: string, layout: Layout): (h: HeaderValues) => string {
  switch (name) {
    case 'level':
      return (h) => h.level;
    case 'thread':
      return (h) => h.thread;
    case 'logger':
      return (h) => h.logger;
    case 'pid':
      return (h) => String(h.pid ?? 1);
    case 'method':
      return (h) => h.method ?? '?';
    case 'line':
      return (h) => h.line ?? '?';
    default:
      throw new Error(`layout ${layout.id}: unknown field {${name}} in its render template`);
  }
}

/**
 * Renders headers of one layout for one file: its time in the file's zone (`offsetMin`, ignored by
 * layouts whose pattern fixes GMT+8), the date part cached per second as a log writer's is.
 */
export class HeaderRenderer {
  readonly layout: Layout;
  private readonly parts: Part[] = [];
  private readonly time: { perSecond: TimeOp[]; perCall: TimeOp[] };
  private readonly fixedOffset: number | null;

  constructor(layoutId: string, private readonly zoneOffsetMin: (epochMs: number) => number, private readonly fakeMillis = false) {
    const layout = LAYOUT_BY_ID.get(layoutId);
    if (!layout?.render || !layout.ts) throw new Error(`layout ${layoutId} has no render template`);
    this.layout = layout;
    this.time = timeWriter(layout.ts);
    this.fixedOffset = layout.zone === 'gmt8' ? 480 : null;
    const t = layout.render;
    let at = 0;
    for (const m of t.matchAll(FIELD)) {
      if (m.index! > at) this.parts.push(t.slice(at, m.index));
      const get = m[1] === 'ts' ? null : fieldOf(m[1], layout);
      const [align, width] = [m[2], Number(m[3] ?? 0)];
      if (get === null) this.parts.push((h) => this.timeText(h.epochMs));
      else if (!align) this.parts.push(get);
      else this.parts.push(align === '>' ? (h) => get(h).padStart(width) : (h) => get(h).padEnd(width));
      at = m.index! + m[0].length;
    }
    if (at < t.length) this.parts.push(t.slice(at));
  }

  private cachedSecond = Number.NaN;
  private cachedOffset = 0;
  private cachedDate = new Date(0);
  private cachedText = '';

  private timeText(epochMs: number): string {
    const second = Math.floor(epochMs / 1000);
    if (second !== this.cachedSecond) {
      this.cachedSecond = second;
      this.cachedOffset = this.fixedOffset ?? this.zoneOffsetMin(epochMs);
      this.cachedDate = new Date(second * 1000 + this.cachedOffset * 60000);
      this.cachedText = runOps(this.time.perSecond, this.cachedDate, 0, this.cachedOffset, this.fakeMillis);
    }
    if (this.time.perCall.length === 0) return this.cachedText;
    return this.cachedText + runOps(this.time.perCall, this.cachedDate, Math.floor(epochMs) % 1000, this.cachedOffset, this.fakeMillis);
  }

  header(h: HeaderValues): string {
    let s = '';
    for (const p of this.parts) s += typeof p === 'string' ? p : p(h);
    return s;
  }
}
