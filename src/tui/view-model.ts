// The TUI's view model, pure and without ink: what is selected, what is listed, what the time strip
// shows. State is an immutable value; `reduce(state, action, dims)` returns the next one, and the
// selectors (`rows`, `visible`, `strip`) compute what the components draw. Everything a key press
// touches is proportional to what is on screen, except filter changes (one pass over the store's
// pages), zooming (a block of events per strip column, src/tui/rows.ts) and search (a scan that
// stops at the first match).

import type { Zone } from '../parse/time.js';
import { EVENT_TYPES, type EventType, type RmqEvent } from '../parse/types.js';
import { SOURCE_KINDS } from '../ingest/kinds.js';
import { grepOf, LEVEL_NAMES, levelOfWord, listMatcher, unknownKind, unknownType } from '../timeline/event-filter.js';
import type { Incident } from '../rules/incident.js';
import { severityRank, type Finding } from '../rules/types.js';
import { REPLAY_OFF, replayTextRows, type ReplayStatus } from './replay-status.js';
import { AllRows, countBuckets, MatchRows, type RowList } from './rows.js';
import { CELLS, OTHER_TYPE, levelRank, type EventStore, type Page } from './store.js';

export type { RowList } from './rows.js';

export type Pane = 'events' | 'findings' | 'replay';

/** What the list shows (the syntax of src/timeline/event-filter.ts). Lists are globs; `!` excludes. */
interface Filter {
  types: readonly string[];
  hosts: readonly string[];
  kinds: readonly string[];
  /** Only events at this level rank or worse (see levelRank). */
  minLevel: number | null;
  /** Only events whose text matches this regular expression. */
  grep: string | null;
  /** Only the evidence of this finding (index into the findings). */
  finding: number | null;
  /** Noise hidden: records that are no RocketMQ event and isNoise rows (`a` shows them). */
  quiet?: boolean;
}

/** Everything listed. */
export const NO_FILTER: Filter = { types: [], hosts: [], kinds: [], minLevel: null, grep: null, finding: null };
/** What the TUI opens on (and Esc goes back to): the RocketMQ events that matter, noise hidden. */
export const DEFAULT_FILTER: Filter = { ...NO_FILTER, quiet: true };

/** The key of a filter for memos: its prompt text and the noise switch. */
function filterKey(f: Filter): string {
  return `${f.quiet ? 'quiet ' : ''}${filterText(f)}`;
}

interface Prompt {
  kind: 'search' | 'filter';
  text: string;
}

export interface ViewState {
  filter: Filter;
  /** Selected event (index into the store), always one of the listed rows; -1 when none is listed. */
  cursor: number;
  /** First listed row on screen. */
  top: number;
  /** The time strip's window, epoch ms, [from, to). */
  from: number;
  to: number;
  focus: Pane;
  /** The detail pane of the selected event is open. */
  detail: boolean;
  help: boolean;
  /** Selected finding in the findings pane (-1 when there are none). */
  finding: number;
  /** First line of the findings pane's text shown. */
  findingScroll: number;
  prompt: Prompt | null;
  /** Last search ('' for none): highlighted in the list, repeated by `]` and `[`. */
  search: string;
  /** A search under way (it scans SEARCH_CHUNK rows per step, between key presses and frames). */
  searching: SearchJob | null;
  /** One-line feedback in the status line, until the next key. */
  message: string | null;
  /** The replay tab: off (no replay here), under way, failed (why), or its result. */
  replay: ReplayStatus;
  /** First line of the replay tab's text (milestones, outages) shown. */
  replayScroll: number;
  /** First line of the detail pane's text shown (back to 0 when the cursor moves); none: 0. */
  detailScroll?: number;
  /** `i`: the incident summary unfolded (true) or folded (false); none: as the height allows (src/tui/layout.ts). */
  incidentOpen?: boolean;
}

interface SearchJob {
  query: string;
  by: 1 | -1;
  /** Row the search started from, and rows looked at so far. */
  origin: number;
  done: number;
}

/** Most rows a search step looks at. */
export const SEARCH_CHUNK = 10000;
/** A search step also stops after this long, so a frame (and Esc) comes at least this often. */
const SEARCH_STEP_MS = 20;

/** Screen sizes the model needs: rows of the list on screen, columns of the time strip. */
export interface Dims {
  listRows: number;
  stripCols: number;
  /** Lines of the findings pane on screen (its title included, for paging it), and of the selected finding's text. */
  findingRows?: number;
  findingLines?: number;
  /** The incident summary is folded to its titles now (none: no incident). */
  incidentFolded?: boolean;
  /** Lines of the replay tab's scrolling text on screen. */
  replayRows?: number;
  /** Lines of the detail pane on screen (its title included), and of its whole text. */
  detailRows?: number;
  detailLines?: number;
}

export type Action =
  | { type: 'move'; by: number }
  | { type: 'page'; by: 1 | -1 }
  | { type: 'home' }
  | { type: 'end' }
  | { type: 'step'; by: 1 | -1 }
  | { type: 'zoom'; by: 1 | -1 }
  | { type: 'finding'; by: 1 | -1; from?: 'selected' }
  | { type: 'selectFinding'; index: number } // negative: from the end
  | { type: 'scrollFinding'; by: number } // pages of the finding in full
  | { type: 'scrollReplay'; by: number; unit?: 'page' } // lines (or pages); ±Infinity: to the top / bottom
  | { type: 'incident' } // fold or unfold the incident summary
  | { type: 'replay'; status: ReplayStatus }
  | { type: 'focus'; pane?: Pane }
  | { type: 'detail'; open?: boolean }
  | { type: 'scrollDetail'; by: number } // pages of the detail pane
  | { type: 'help'; open?: boolean }
  | { type: 'prompt'; kind: 'search' | 'filter' }
  | { type: 'type'; text: string }
  | { type: 'backspace' }
  | { type: 'submit' }
  | { type: 'cancel' }
  | { type: 'search'; query: string; by: 1 | -1 }
  | { type: 'searchStep' }
  | { type: 'filter'; filter: Filter }
  | { type: 'noise' } // hide or show the noise
  | { type: 'clear' };

/** Smallest window the strip zooms to. */
export const MIN_SPAN_MS = 1000;
/** Classes of the time strip: records that are no RocketMQ event, events, warnings, errors. */
export const CLASSES = 4;
export const CLASS_OTHER = 0;
export const CLASS_INFO = 1;
export const CLASS_WARN = 2;
export const CLASS_ERROR = 3;
/** Strip cells with events of which none is listed (a filter is on). */
export const CLASS_UNLISTED = 4;
/** Glyph heights of a strip cell: 0 (nothing) to 8 (the busiest bucket of the row). */
const GLYPH_LEVELS = 8;
/** The strip's class of each cell of the store's summary (level class x RocketMQ event or other). */
const CLASS_OF_CELL = [CLASS_INFO, CLASS_OTHER, CLASS_WARN, CLASS_WARN, CLASS_ERROR, CLASS_ERROR];

interface StripRow {
  label: string;
  /** Per column: glyph height 0..GLYPH_LEVELS. */
  height: Uint8Array;
  /** Per column: worst class of the listed events, CLASS_UNLISTED when none is listed, -1 when empty. */
  cls: Int8Array;
}

export interface StripView {
  from: number;
  to: number;
  cols: number;
  bucketMs: number;
  /** Full window / shown window. */
  zoom: number;
  rows: StripRow[];
  /** Per column: the severity rank (0 critical .. 3 info) of the worst finding whose window covers it, -1 none. */
  band: Int8Array;
  /** Per column: 1 where the selected finding's window is. */
  selected: Uint8Array;
  /** Column of the selected event, -1 when outside the window. */
  cursorCol: number;
  /** Position time of the selected event (NaN when none). */
  cursorTime: number;
}

interface ModelData {
  store: EventStore;
  /** In the order the findings pane lists them (severity, then time). */
  findings: readonly Finding[];
  /** What happened, summed up above the findings (analyze's incidents). */
  incidents?: readonly Incident[];
  zone: Zone;
  /** Rule id → event types the rule reads (rule meta), for a finding's evidence filter. */
  ruleEvents?: ReadonlyMap<string, readonly EventType[]>;
  /** Milliseconds, for the time budget of a search step (tests pass a clock that stands still). */
  now?: () => number;
}

const EMPTY = new Int32Array(0);
/** Filtered row lists kept (the current filter's and the one before, which a frame may still hold). */
const ROWS_KEPT = 2;

export class TuiModel {
  readonly store: EventStore;
  readonly findings: readonly Finding[];
  readonly incidents: readonly Incident[];
  readonly zone: Zone;
  /** Per finding: the events it quotes as evidence (by file:line), ascending. */
  readonly evidence: readonly Int32Array[];
  /** Event index → findings quoting it. */
  readonly evidenceFor: ReadonlyMap<number, readonly number[]>;
  /** Events per host. */
  readonly hostCounts: Uint32Array;
  /** First and last position time. */
  readonly t0: number;
  readonly t1: number;
  private readonly ruleEvents: ReadonlyMap<string, readonly EventType[]>;
  private readonly now: () => number;
  private readonly levelRanks: Uint8Array;
  private readonly allRows: AllRows;
  private rowsMemo: Array<{ key: string; rows: MatchRows }> = [];
  private countsMemo: Array<{ key: string; counts: Uint32Array }> = [];

  constructor(d: ModelData) {
    this.store = d.store;
    this.findings = d.findings;
    this.incidents = d.incidents ?? [];
    this.zone = d.zone;
    this.ruleEvents = d.ruleEvents ?? new Map();
    this.now = d.now ?? (() => performance.now());
    const s = d.store;
    this.t0 = s.length ? s.tAt(0) : 0;
    this.t1 = s.length ? s.tAt(s.length - 1) : 0;
    this.levelRanks = Uint8Array.from(s.levels, (l) => levelRank(l));
    this.allRows = new AllRows(s);
    this.hostCounts = s.hostCounts();
    const { evidence, evidenceFor } = this.matchEvidence();
    this.evidence = evidence;
    this.evidenceFor = evidenceFor;
  }

  /** Evidence lines are `file:line` of events: find them with one pass over the line column. */
  private matchEvidence() {
    const s = this.store;
    const sourcesOfFile = new Map<string, number[]>();
    s.sources.forEach((src, i) => {
      const list = sourcesOfFile.get(src.file);
      if (list) list.push(i);
      else sourcesOfFile.set(src.file, [i]);
    });
    const wanted = new Map<number, Map<number, number[]>>();
    this.findings.forEach((f, fi) => {
      for (const ev of f.evidence) {
        for (const src of sourcesOfFile.get(ev.file) ?? []) {
          let lines = wanted.get(src);
          if (!lines) wanted.set(src, (lines = new Map()));
          const list = lines.get(ev.line);
          if (!list) lines.set(ev.line, [fi]);
          else if (!list.includes(fi)) list.push(fi);
        }
      }
    });
    const perFinding: number[][] = this.findings.map(() => []);
    const evidenceFor = new Map<number, number[]>();
    if (wanted.size) {
      s.scan(0, s.length, 'line', (pg, j0, j1) => {
        for (let j = j0; j < j1; j++) {
          const lines = wanted.get(pg.source[j]);
          if (!lines) continue;
          const fs = lines.get(pg.line[j]);
          if (!fs) continue;
          evidenceFor.set(pg.start + j, fs);
          for (const fi of fs) perFinding[fi].push(pg.start + j);
        }
      });
    }
    return { evidence: perFinding.map((l) => Int32Array.from(l)), evidenceFor };
  }

  // --- rows ------------------------------------------------------------------------------------

  /** The window a finding's filter lists: its own, else that of its evidence (null: none). */
  private findingWindow(fi: number): [number, number] | null {
    const f = this.findings[fi];
    const ev = this.evidence[fi] ?? EMPTY;
    const start = f.start ?? (ev.length ? this.store.tAt(ev[0]) : null);
    const end = f.end ?? (ev.length ? this.store.tAt(ev[ev.length - 1]) : null);
    return start === null || end === null ? null : [start, end];
  }

  /** The listed rows for a filter (the last two filters' are kept). */
  rows(f: Filter): RowList {
    if (!isFiltered(f)) return this.allRows;
    const key = filterKey(f);
    const hit = this.rowsMemo.find((m) => m.key === key);
    if (hit) return hit.rows;
    const rows = this.computeRows(f);
    this.rowsMemo = [{ key, rows }, ...this.rowsMemo];
    for (const old of this.rowsMemo.splice(ROWS_KEPT)) old.rows.close();
    return rows;
  }

  private computeRows(f: Filter): MatchRows {
    const s = this.store;
    const typeOk = listMask(f.types, EVENT_TYPES);
    if (f.quiet) typeOk[OTHER_TYPE] = 0;
    const quiet = f.quiet === true;
    const hostOk = listMask(f.hosts, s.hosts);
    const kindOk = listMask(f.kinds, SOURCE_KINDS);
    const srcOk = Uint8Array.from(s.hostOfSource, (h) => hostOk[h]);
    const lvlOk = Uint8Array.from(this.levelRanks, (r) => (f.minLevel === null || r >= f.minLevel ? 1 : 0));
    // The text is only in the encoded events: a grep decodes every event the other terms let through.
    const grep = f.grep === null ? null : new RegExp(f.grep);
    const typeOk2 = quiet ? listMask(f.types, EVENT_TYPES) : typeOk;
    const text = (pg: Page, j: number) => grep === null || grep.test(s.textOf(pg.start + j));
    // ok2: the filter without the noise switch.
    const ok2 = (pg: Page, j: number) => (typeOk2[pg.type[j]] & srcOk[pg.source[j]] & lvlOk[pg.level[j]] & kindOk[pg.kind[j]]) === 1 && text(pg, j);
    const ok = (pg: Page, j: number) =>
      (typeOk[pg.type[j]] & srcOk[pg.source[j]] & lvlOk[pg.level[j]] & kindOk[pg.kind[j]]) === 1 && (!quiet || pg.noise[j] === 0) && text(pg, j);
    if (f.finding === null) return MatchRows.select(s, { need: 'filter', ok });
    // A finding lists its quoted evidence, and inside its window the events of the types its rule
    // reads from the hosts its evidence comes from.
    const fi = f.finding;
    const ev = this.evidence[fi] ?? EMPTY;
    const relHost = new Uint8Array(s.hosts.length);
    for (const i of ev) relHost[s.hostAt(i)] = 1;
    if (!ev.length) relHost.fill(1);
    const relSrc = Uint8Array.from(s.hostOfSource, (h) => relHost[h]);
    const relType = new Uint8Array(EVENT_TYPES.length);
    for (const t of this.ruleEvents.get(this.findings[fi].rule) ?? []) relType[EVENT_TYPES.indexOf(t)] = 1;
    const win = this.findingWindow(fi);
    return MatchRows.select(s, {
      from: win ? s.indexAtTime(win[0]) : 0,
      to: win ? s.indexAtTime(win[1] + 1) : 0,
      need: 'filter',
      ok: (pg, j) => (relType[pg.type[j]] & relSrc[pg.source[j]]) === 1 && ok(pg, j),
      // A record the finding quotes is listed even when it is noise.
      extra: ev,
      extraOk: (pg, j) => ok(pg, j) || (quiet && ok2(pg, j)),
    });
  }

  /** First row whose position time is >= ms (rows.length when none). */
  rowByTime(rows: RowList, ms: number): number {
    // Position times never decrease with the event index, nor then with the row.
    return rows.rowOf(this.store.indexAtTime(ms));
  }

  /** Row of the selected event in the listed rows (0 when none). */
  cursorRow(s: ViewState): number {
    if (s.cursor < 0) return 0;
    return this.rows(s.filter).rowOf(s.cursor);
  }

  /** Event indices of the rows on screen. */
  visible(s: ViewState, dims: Dims): number[] {
    const rows = this.rows(s.filter);
    const out: number[] = [];
    for (let r = s.top; r < Math.min(rows.length, s.top + dims.listRows); r++) out.push(rows.at(r));
    return out;
  }

  // --- state -------------------------------------------------------------------------------------

  get span(): number {
    return Math.max(MIN_SPAN_MS, this.t1 - this.t0 + 1);
  }

  initial(dims: Dims): ViewState {
    const listed = this.rows(DEFAULT_FILTER);
    const s: ViewState = {
      filter: DEFAULT_FILTER,
      cursor: listed.length ? listed.at(0) : -1,
      top: 0,
      from: this.t0,
      to: this.t0 + this.span,
      // The answer first: the findings list has the keys, the first finding selected.
      focus: this.findings.length ? 'findings' : 'events',
      detail: false,
      help: false,
      finding: this.findings.length ? 0 : -1,
      findingScroll: 0,
      prompt: null,
      search: '',
      searching: null,
      message: null,
      replay: REPLAY_OFF,
      replayScroll: 0,
      detailScroll: 0,
    };
    return this.scroll(s, dims, 'minimal');
  }

  /** The same state with the selected row on screen for these dims (after a resize or a layout change). */
  fit(s: ViewState, dims: Dims): ViewState {
    return this.scroll(s, dims, 'minimal');
  }

  reduce(s0: ViewState, a: Action, dims: Dims): ViewState {
    const next = this.reduceOnce(s0, a, dims);
    // The detail pane's text starts at its top for every event and every opening.
    if ((next.cursor !== s0.cursor || next.detail !== s0.detail) && next.detailScroll) return { ...next, detailScroll: 0 };
    return next;
  }

  private reduceOnce(s0: ViewState, a: Action, dims: Dims): ViewState {
    const s: ViewState = s0.message === null ? s0 : { ...s0, message: null };
    const rows = this.rows(s.filter);
    const row = this.cursorRow(s);
    switch (a.type) {
      case 'move':
        return this.moveTo(s, row + a.by, dims, 'minimal');
      case 'page':
        return this.moveTo(s, row + a.by * Math.max(1, dims.listRows - 1), dims, 'minimal');
      case 'home':
        return this.moveTo(s, 0, dims, 'minimal');
      case 'end':
        return this.moveTo(s, rows.length - 1, dims, 'minimal');
      case 'step':
        return this.step(s, a.by, dims);
      case 'zoom':
        return this.zoom(s, a.by);
      case 'finding': {
        const n = this.findings.length;
        if (!n) return { ...s, message: 'no findings' };
        // n/N: from the finding listed, else from the ends (the first `n` lists finding 1);
        // ↑ ↓ in the findings: from the one selected there.
        const cur = a.from === 'selected' && s.finding >= 0 && s.finding < n ? s.finding : (s.filter.finding ?? (a.by > 0 ? -1 : n));
        return this.selectFinding(s, (((cur + a.by) % n) + n) % n, dims);
      }
      case 'selectFinding': {
        // Negative indices count from the end: -1 is the last finding.
        const i = a.index < 0 ? this.findings.length + a.index : a.index;
        if (i < 0 || i >= this.findings.length) return s;
        return this.selectFinding(s, i, dims);
      }
      case 'scrollFinding': {
        // A page is what the pane shows (its title line aside).
        const page = Math.max(1, (dims.findingRows ?? 11) - 1);
        const max = dims.findingLines === undefined ? Infinity : Math.max(0, dims.findingLines - page);
        return { ...s, findingScroll: Math.max(0, Math.min(max, s.findingScroll + a.by * page)) };
      }
      case 'incident':
        if (dims.incidentFolded === undefined) return { ...s, message: 'no incident named' };
        return { ...s, incidentOpen: dims.incidentFolded };
      case 'focus': {
        const replay = s.replay.kind !== 'off';
        let pane = a.pane;
        if (!pane) {
          // Tab cycles findings → events → replay; a pane with nothing to show is left out.
          const cycle: Pane[] = [...(this.findings.length ? ['findings' as const] : []), 'events', ...(replay ? ['replay' as const] : [])];
          if (cycle.length === 1) return { ...s, message: 'no findings' };
          pane = cycle[(cycle.indexOf(s.focus) + 1) % cycle.length];
        }
        if (pane === 'findings' && !this.findings.length) return { ...s, message: 'no findings' };
        if (pane === 'replay' && !replay) return { ...s, message: 'no replay here' };
        // The detail belongs to the pane it was opened in.
        return { ...s, focus: pane, detail: pane === s.focus ? s.detail : false };
      }
      case 'scrollReplay': {
        const max = Math.max(0, replayTextRows(s.replay) - (dims.replayRows ?? 1));
        const step = a.unit === 'page' ? Math.max(1, dims.replayRows ?? 10) : 1;
        return { ...s, replayScroll: Math.max(0, Math.min(max, s.replayScroll + a.by * step)) };
      }
      case 'replay': {
        const next = { ...s, replay: a.status, replayScroll: 0 };
        return a.status.kind === 'off' && s.focus === 'replay' ? { ...next, focus: 'events' } : next;
      }
      case 'detail':
        return { ...s, detail: a.open ?? !s.detail };
      case 'scrollDetail': {
        // A page is what the pane shows below its title.
        const page = Math.max(1, (dims.detailRows ?? 10) - 1);
        const max = Math.max(0, (dims.detailLines ?? 0) - Math.max(1, (dims.detailRows ?? 10) - 1));
        return { ...s, detailScroll: Math.max(0, Math.min(max, (s.detailScroll ?? 0) + a.by * page)) };
      }
      case 'help':
        return { ...s, help: a.open ?? !s.help };
      case 'prompt':
        return { ...s, prompt: { kind: a.kind, text: a.kind === 'filter' ? filterText(s.filter) : '' } };
      case 'type':
        if (!s.prompt) return s;
        // eslint-disable-next-line no-control-regex
        return { ...s, prompt: { ...s.prompt, text: s.prompt.text + a.text.replace(/[\u0000-\u001f\u007f]/g, '') } };
      case 'backspace':
        if (!s.prompt) return s;
        return { ...s, prompt: { ...s.prompt, text: s.prompt.text.slice(0, -1) } };
      case 'cancel':
        return s.searching ? { ...s, searching: null, message: `search cancelled: "${s.searching.query}"` } : { ...s, prompt: null };
      case 'submit': {
        if (!s.prompt) return s;
        const { kind, text } = s.prompt;
        if (kind === 'search') return this.search({ ...s, prompt: null }, text.trim() || s.search, 1, dims);
        const f = parseFilter(text, this.findings.length);
        if (typeof f === 'string') return { ...s, message: f };
        return this.setFilter({ ...s, prompt: null }, { ...f, quiet: s.filter.quiet }, dims);
      }
      case 'search':
        return this.search(s, a.query, a.by, dims);
      case 'searchStep':
        return s.searching ? this.searchStep(s, dims) : s;
      case 'filter':
        return this.setFilter(s, a.filter, dims);
      case 'clear':
        return { ...this.setFilter(s, DEFAULT_FILTER, dims, 'center'), search: '', message: 'filters cleared (noise hidden: a shows all)' };
      case 'noise': {
        const quiet = !s.filter.quiet;
        const next = this.setFilter(s, { ...s.filter, quiet }, dims, 'center');
        return { ...next, message: next.message ?? (quiet ? 'noise hidden (a shows all)' : 'all records listed (a hides the noise)') };
      }
    }
  }

  /** Select row r (clamped), scroll the list to show it and the strip to show its time. */
  private moveTo(s: ViewState, r: number, dims: Dims, how: 'minimal' | 'center'): ViewState {
    const rows = this.rows(s.filter);
    if (!rows.length) return { ...s, cursor: -1, top: 0 };
    const row = Math.max(0, Math.min(rows.length - 1, r));
    const cursor = rows.at(row);
    return this.follow(this.scroll({ ...s, cursor }, dims, how), how);
  }

  /** Keep the selected row on screen: just enough (minimal) or a third down from the top (center). */
  private scroll(s: ViewState, dims: Dims, how: 'minimal' | 'center'): ViewState {
    const rows = this.rows(s.filter);
    const h = Math.max(1, dims.listRows);
    const row = this.cursorRow(s);
    let top = s.top;
    if (how === 'center' || row < top || row >= top + h) {
      top = how === 'center' ? row - Math.floor(h / 3) : row < top ? row : row - h + 1;
    }
    top = Math.max(0, Math.min(top, Math.max(0, rows.length - h)));
    return top === s.top ? s : { ...s, top };
  }

  /** Keep the selected event's time inside the strip's window. */
  private follow(s: ViewState, how: 'minimal' | 'center'): ViewState {
    if (s.cursor < 0) return s;
    const t = this.store.tAt(s.cursor);
    if (t >= s.from && t < s.to) return s;
    const span = s.to - s.from;
    const from = how === 'center' ? t - span / 2 : t < s.from ? t - span * 0.1 : t - span * 0.9;
    return this.clampView(s, from, span);
  }

  private clampView(s: ViewState, from: number, span: number): ViewState {
    const total = this.span;
    const w = Math.max(MIN_SPAN_MS, Math.min(total, span));
    const f = Math.max(this.t0, Math.min(from, this.t0 + total - w));
    return f === s.from && f + w === s.to ? s : { ...s, from: f, to: f + w };
  }

  private step(s: ViewState, by: 1 | -1, dims: Dims): ViewState {
    const rows = this.rows(s.filter);
    if (s.cursor < 0) return s;
    const t = (i: number) => this.store.tAt(i);
    const w = (s.to - s.from) / Math.max(1, dims.stripCols);
    const bucketOf = (ms: number) => Math.floor((ms - s.from) / w);
    const row = this.cursorRow(s);
    const start = s.from + bucketOf(t(s.cursor)) * w;
    let r: number;
    if (by > 0) {
      r = this.rowByTime(rows, start + w);
      if (r <= row) r = row + 1;
      if (r >= rows.length) return { ...s, message: 'last event' };
    } else {
      const first = Math.min(row, this.rowByTime(rows, start));
      if (first === 0) return row === 0 ? { ...s, message: 'first event' } : this.moveTo(s, 0, dims, 'minimal');
      const prev = first - 1;
      r = Math.min(prev, this.rowByTime(rows, s.from + bucketOf(t(rows.at(prev))) * w));
    }
    return this.moveTo(s, r, dims, 'minimal');
  }

  private zoom(s: ViewState, by: 1 | -1): ViewState {
    const span = s.to - s.from;
    const next = by > 0 ? span / 2 : span * 2;
    if (by > 0 && span <= MIN_SPAN_MS) return { ...s, message: 'zoomed in as far as it goes' };
    if (by < 0 && span >= this.span) return { ...s, message: 'the whole window is shown' };
    const c = s.cursor >= 0 ? this.store.tAt(s.cursor) : (s.from + s.to) / 2;
    return this.clampView(s, c - Math.min(next, this.span) / 2, next);
  }

  private selectFinding(s: ViewState, fi: number, dims: Dims): ViewState {
    const f = this.findings[fi];
    const filter: Filter = { ...NO_FILTER, finding: fi, quiet: s.filter.quiet };
    const rows = this.rows(filter);
    const ev = this.evidence[fi] ?? EMPTY;
    const start = f.start ?? (ev.length ? this.store.tAt(ev[0]) : null);
    const end = f.end ?? (ev.length ? this.store.tAt(ev[ev.length - 1]) : start);
    let next: ViewState = { ...s, filter, finding: fi, findingScroll: 0, top: 0 };
    if (start !== null && end !== null) {
      const pad = Math.max((end - start) * 0.1, MIN_SPAN_MS / 2);
      next = this.clampView(next, start - pad, end - start + 2 * pad);
    }
    if (!rows.length) return { ...next, cursor: -1, message: `finding ${fi + 1}: no listed evidence` };
    const r = start === null ? 0 : Math.min(rows.length - 1, this.rowByTime(rows, start));
    return this.moveTo({ ...next, cursor: rows.at(r) }, r, dims, 'center');
  }

  private setFilter(s: ViewState, filter: Filter, dims: Dims, how: 'minimal' | 'center' = 'center'): ViewState {
    const rows = this.rows(filter);
    const next: ViewState = { ...s, filter, finding: filter.finding ?? s.finding };
    if (!rows.length) return { ...next, cursor: -1, top: 0, message: 'nothing matches the filter' };
    // Stay at the same place in the timeline: the first listed event at or after the selected one.
    const r = s.cursor < 0 ? 0 : Math.min(rows.length - 1, rows.rowOf(s.cursor));
    return this.moveTo(next, r, dims, how);
  }

  /**
   * Starts a search for the next listed event (by = 1) or the previous one (-1) whose record contains
   * the query, wrapping once, and takes its first step: on a short list it is done at once; on a long
   * one `searching` stays set and each 'searchStep' looks at SEARCH_CHUNK more rows.
   */
  private search(s: ViewState, query: string, by: 1 | -1, dims: Dims): ViewState {
    if (!query) return { ...s, message: 'no search yet: press / and type' };
    return this.searchStep({ ...s, search: query, searching: { query, by, origin: this.cursorRow(s), done: 0 } }, dims);
  }

  private matchers = new Map<string, (store: EventStore, i: number) => boolean>();

  private searchStep(s: ViewState, dims: Dims): ViewState {
    const job = s.searching!;
    const rows = this.rows(s.filter);
    const n = rows.length;
    let m = this.matchers.get(job.query);
    if (!m) {
      this.matchers.clear();
      this.matchers.set(job.query, (m = matcher(job.query)));
    }
    let end = Math.min(n, job.done + SEARCH_CHUNK);
    const deadline = this.now() + SEARCH_STEP_MS;
    for (let k = job.done + 1; k <= end; k++) {
      if ((k & 511) === 0 && k < end && this.now() > deadline) end = k;
      const r = (((job.origin + job.by * k) % n) + n) % n;
      if (m(this.store, rows.at(r))) {
        const wrapped = job.by > 0 ? r <= job.origin : r >= job.origin;
        const next = this.moveTo({ ...s, searching: null }, r, dims, 'center');
        return wrapped ? { ...next, message: `search wrapped: "${job.query}"` } : next;
      }
    }
    if (end >= n) {
      return { ...s, searching: null, message: `no match for "${job.query}"${isFiltered(s.filter) ? ' in the listed events' : ''}` };
    }
    return { ...s, searching: { ...job, done: end }, message: `searching "${job.query}": ${Math.floor((100 * end) / n)}% (Esc stops)` };
  }

  /** Bytes of the arrays the model and its store keep in memory (the sizes do not grow with the input). */
  get retainedBytes(): number {
    let n = this.store.retainedBytes + this.hostCounts.byteLength;
    for (const m of this.rowsMemo) n += m.rows.retainedBytes;
    for (const m of this.countsMemo) n += m.counts.byteLength;
    for (const e of this.evidence) n += e.byteLength;
    return n;
  }

  // --- the time strip ----------------------------------------------------------------------------

  /** Which strip row each host is drawn in: every host its own, or the busiest and one row for the rest. */
  hostRows(maxRows: number): { rowOfHost: Uint8Array; labels: string[] } {
    const hosts = this.store.hosts;
    const rowOfHost = new Uint8Array(hosts.length);
    const cap = Math.max(1, Math.min(maxRows, 255));
    if (hosts.length <= cap) {
      hosts.forEach((_, i) => (rowOfHost[i] = i));
      return { rowOfHost, labels: [...hosts] };
    }
    const keep = new Set(
      hosts
        .map((_, i) => i)
        .sort((a, b) => this.hostCounts[b] - this.hostCounts[a] || a - b)
        .slice(0, cap - 1),
    );
    const labels: string[] = [];
    hosts.forEach((h, i) => {
      if (keep.has(i)) rowOfHost[i] = labels.push(h) - 1;
    });
    hosts.forEach((_, i) => {
      if (!keep.has(i)) rowOfHost[i] = labels.length;
    });
    labels.push(`+${hosts.length - keep.size} hosts`);
    return { rowOfHost, labels };
  }

  /**
   * Events per bucket of [from, to) split in `n` buckets, per strip row and class: index
   * `(row * CLASSES + class) * n + bucket`. One pass over the listed rows inside the window.
   */
  bucketCounts(rows: RowList, from: number, to: number, n: number, rowOfHost: Uint8Array, nRows: number): Uint32Array {
    const cells = countBuckets(this.store, rows, from, to, n, rowOfHost, nRows);
    const counts = new Uint32Array(nRows * CLASSES * n);
    for (let r = 0; r < nRows; r++) {
      for (let cell = 0; cell < CELLS; cell++) {
        const src = (r * CELLS + cell) * n;
        const dst = (r * CLASSES + CLASS_OF_CELL[cell]) * n;
        for (let b = 0; b < n; b++) counts[dst + b] += cells[src + b];
      }
    }
    return counts;
  }

  /** Bucket counts, remembered for the last two windows (all events and the listed ones). */
  private counts(f: Filter, from: number, to: number, n: number, rowOfHost: Uint8Array, labels: string[]): Uint32Array {
    const key = `${filterKey(f)}|${from}|${to}|${n}|${labels.join('\n')}`;
    const hit = this.countsMemo.find((m) => m.key === key);
    if (hit) return hit.counts;
    const counts = this.bucketCounts(this.rows(f), from, to, n, rowOfHost, labels.length);
    this.countsMemo = [{ key, counts }, ...this.countsMemo.slice(0, 1)];
    return counts;
  }

  /**
   * The strip: bar heights count every event (the shape of the whole timeline stays when filtering),
   * colours come from the listed events only.
   */
  strip(s: ViewState, cols: number, maxRows: number): StripView {
    const n = Math.max(1, cols);
    const { rowOfHost, labels } = this.hostRows(maxRows);
    const all = this.counts(NO_FILTER, s.from, s.to, n, rowOfHost, labels);
    const listed = isFiltered(s.filter) ? this.counts(s.filter, s.from, s.to, n, rowOfHost, labels) : all;
    const stripRows: StripRow[] = labels.map((label, hr) => {
      const total = new Uint32Array(n);
      const cls = new Int8Array(n).fill(-1);
      for (let c = 0; c < CLASSES; c++) {
        const base = (hr * CLASSES + c) * n;
        for (let b = 0; b < n; b++) {
          total[b] += all[base + b];
          if (listed[base + b]) cls[b] = c;
        }
      }
      let max = 0;
      for (let b = 0; b < n; b++) if (total[b] > max) max = total[b];
      const height = new Uint8Array(n);
      for (let b = 0; b < n; b++) {
        if (!total[b]) continue;
        height[b] = Math.max(1, Math.ceil((GLYPH_LEVELS * Math.log1p(total[b])) / Math.log1p(max)));
        if (cls[b] < 0) cls[b] = CLASS_UNLISTED;
      }
      return { label, height, cls };
    });
    const w = (s.to - s.from) / n;
    const colOf = (ms: number) => Math.floor((ms - s.from) / w);
    const band = new Int8Array(n).fill(-1);
    const selected = new Uint8Array(n);
    const sel = s.filter.finding ?? s.finding;
    this.findings.forEach((f, fi) => {
      const a = f.start ?? f.end;
      const b = f.end ?? f.start;
      if (a === null || b === null || b < s.from || a >= s.to) return;
      const rank = severityRank(f.severity);
      for (let c = Math.max(0, colOf(a)); c <= Math.min(n - 1, colOf(b)); c++) {
        if (band[c] < 0 || rank < band[c]) band[c] = rank;
        if (fi === sel) selected[c] = 1;
      }
    });
    const ct = s.cursor >= 0 ? this.store.tAt(s.cursor) : NaN;
    return {
      from: s.from,
      to: s.to,
      cols: n,
      bucketMs: w,
      zoom: this.span / (s.to - s.from),
      rows: stripRows,
      band,
      selected,
      cursorCol: ct >= s.from && ct < s.to ? colOf(ct) : -1,
      cursorTime: ct,
    };
  }
}

// --- filters and search ---------------------------------------------------------------------------

function isFiltered(f: Filter): boolean {
  return f.types.length > 0 || f.hosts.length > 0 || f.kinds.length > 0 || f.minLevel !== null || f.grep !== null || f.finding !== null || f.quiet === true;
}

/** 1 for each name the list lets through (empty list: all). */
function listMask(list: readonly string[], names: readonly string[]): Uint8Array {
  const ok = listMatcher(list);
  return Uint8Array.from(names, (n) => (ok(n) ? 1 : 0));
}

/** The filter as the `f` prompt shows and reads it: `type:a,b host:app-* kind:broker level:warn grep:RE finding:2`. */
export function filterText(f: Filter): string {
  const parts: string[] = [];
  if (f.types.length) parts.push(`type:${f.types.join(',')}`);
  if (f.hosts.length) parts.push(`host:${f.hosts.join(',')}`);
  if (f.kinds.length) parts.push(`kind:${f.kinds.join(',')}`);
  if (f.minLevel !== null) parts.push(`level:${LEVEL_NAMES[f.minLevel] ?? f.minLevel}`);
  if (f.grep !== null) parts.push(`grep:${/[\s"]/.test(f.grep) ? `"${f.grep}"` : f.grep}`);
  if (f.finding !== null) parts.push(`finding:${f.finding + 1}`);
  return parts.join(' ');
}

/** Space-separated terms; a value in double quotes may hold spaces (`grep:"wait response"`). */
function filterTerms(text: string): string[] {
  return [...text.matchAll(/(?:[^\s"]+|"[^"]*"?)+/g)].map((m) => m[0].replace(/"([^"]*)"?/g, '$1'));
}

/** Reads the `f` prompt: space-separated `key:value[,value]` terms. Returns a message when it cannot. */
export function parseFilter(text: string, findings: number): Filter | string {
  const f = {
    types: [] as string[],
    hosts: [] as string[],
    kinds: [] as string[],
    minLevel: null as number | null,
    grep: null as string | null,
    finding: null as number | null,
  };
  const keys = 'type, host, kind, level, grep, finding';
  for (const term of filterTerms(text)) {
    const colon = term.indexOf(':');
    const key = colon < 0 ? '' : term.slice(0, colon).toLowerCase();
    const raw = term.slice(colon + 1);
    const values = raw
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
    if (colon < 0 || !values.length) return `filter: "${term}": expected key:value (${keys})`;
    switch (key) {
      case 'type':
      case 't': {
        const unknown = unknownType(values);
        if (unknown !== null) return `filter: unknown event type "${unknown}"`;
        f.types.push(...values);
        break;
      }
      case 'host':
      case 'h':
        f.hosts.push(...values);
        break;
      case 'kind':
      case 'k': {
        const unknown = unknownKind(values);
        if (unknown !== null) return `filter: unknown kind "${unknown}" (${SOURCE_KINDS.join(', ')})`;
        f.kinds.push(...values);
        break;
      }
      case 'level':
      case 'l': {
        const rank = levelOfWord(values[0]);
        if (rank === null) return `filter: unknown level "${values[0]}" (trace, debug, info, warn, error, fatal)`;
        f.minLevel = rank;
        break;
      }
      case 'grep':
      case 'g': {
        const re = grepOf(raw);
        if (typeof re === 'string') return `filter: grep:${raw}: ${re}`;
        f.grep = raw;
        break;
      }
      case 'finding':
      case 'f': {
        const k = Number(values[0]);
        if (!Number.isInteger(k) || k < 1 || k > findings) return `filter: no finding ${values[0]} (1..${findings})`;
        f.finding = k - 1;
        break;
      }
      default:
        return `filter: unknown key "${key}" (${keys})`;
    }
  }
  return f;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** What a search looks in: the record's text, its field values, host, file, thread, logger, type, level. */
function searchText(e: RmqEvent): string {
  const parts = [e.text, e.host, e.file, e.thread ?? '', e.logger ?? '', e.type, e.level ?? ''];
  for (const v of Object.values(e.fields)) if (v !== null) parts.push(Array.isArray(v) ? v.join(',') : String(v));
  return parts.join('\n');
}

/**
 * A case-insensitive substring test on an event. The encoded JSON holds every searched value, escaped
 * the way JSON.stringify escapes the query, so a miss there is a miss: most events are rejected
 * without being decoded.
 */
export function matcher(query: string): (store: EventStore, i: number) => boolean {
  const inText = new RegExp(escapeRegExp(query), 'i');
  const inJson = new RegExp(escapeRegExp(JSON.stringify(query).slice(1, -1)), 'i');
  return (store, i) => inJson.test(store.raw(i)) && inText.test(searchText(store.get(i)));
}
