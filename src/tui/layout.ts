// Where each pane goes for a terminal size: pure, so a resize is a new layout and nothing else.
//
//   header (2 lines)
//   summary: the incidents' causes and impact, above everything they sum up (up to 45 % of the
//         room; none when no cause was found). On a short screen, where it would leave the body
//         fewer than MIN_BODY_ROWS, it is folded to each incident's title (`i` unfolds it)
//   findings list: one line per finding, the selected one on two (its whole title), as many as fit
//         in about a third of the room; on every pane but the replay tab
//   time strip: axis line, one line per host (or the busiest and "+N hosts"), the findings band
//   body: below 120 columns one pane at a time (the event list, with the detail pane under it when
//         open; or the selected finding in full, after Enter in the findings, which on a short
//         screen also takes the findings list's rows: its own title names it); from 120 columns the
//         list on the left and the event's detail or the selected finding in full on the right
//   status line (1 line)
// The replay tab takes the place of the strip and the body, at every width.
//
// The last terminal line stays empty: ink keeps its cursor there, and a frame as tall as the
// terminal would be redrawn from a cleared screen on every key.

import type { Pane } from './view-model.js';

const WIDE_COLUMNS = 120;
export const MIN_COLUMNS = 60;
export const MIN_ROWS = 16;
/**
 * Rows the body keeps before the incident summary is folded: the event list's header and 9 events
 * (or 9 lines of a finding in full). At 80x24 the summary unfolded would leave it 6.
 */
export const MIN_BODY_ROWS = 10;
/** Terminal rows from which the findings list stays above a finding shown in full (narrow layout). */
const FULL_FINDING_ROWS = 40;

export interface ScreenLayout {
  width: number;
  /** Lines drawn (terminal rows - 1). */
  height: number;
  /** Too small to draw anything useful. */
  tooSmall: boolean;
  wide: boolean;
  headerRows: number;
  /** Lines of the incident summary above the findings (0: there is none yet). */
  summaryRows: number;
  /** The summary shows each incident's title only (a short screen, or `i`). */
  summaryFolded: boolean;
  /** Lines of the findings list (0 without findings). */
  findingListRows: number;
  /** Most host rows the strip may use (see TuiModel.hostRows). */
  maxHostRows: number;
  /** Host rows the strip uses. */
  hostRows: number;
  labelWidth: number;
  stripCols: number;
  stripRows: number;
  bodyRows: number;
  listWidth: number;
  /** Width of the right-hand pane (wide layout only, else 0). */
  sideWidth: number;
  /** Event rows of the list (its column header not counted); 0 when the list is hidden. */
  listRows: number;
  /** Lines of the detail pane under the list (narrow layout, when open). */
  detailRows: number;
  /** Lines of the selected finding in full (the whole body, or the right-hand pane). */
  findingRows: number;
  /** Lines of the replay tab (it takes the strip's and the body's place, full width). */
  replayRows: number;
}

interface LayoutInput {
  columns: number;
  rows: number;
  hosts: readonly string[];
  focus: Pane;
  detail: boolean;
  /** How many findings there are (the findings list is as long as it needs, up to its share). */
  findings?: number;
  /** Lines of the incident summary (it gets them, up to 45 % of the room). */
  summary?: number;
  /** Incidents: the summary folded is one line each. */
  incidents?: number;
  /** `i`: the summary unfolded (true) or folded (false) whatever the height; undefined: by the height. */
  incidentOpen?: boolean;
}

export function layoutFor(i: LayoutInput): ScreenLayout {
  const width = Math.max(1, i.columns);
  const height = Math.max(1, i.rows - 1);
  const tooSmall = i.columns < MIN_COLUMNS || i.rows < MIN_ROWS;
  const wide = width >= WIDE_COLUMNS;
  const headerRows = 2;
  // The strip leaves the body room on a short screen: 4 host rows at 80x24 (with more hosts, the
  // busiest three and `+N hosts`), 8 from 32 rows.
  const maxHostRows = Math.max(1, Math.min(8, Math.floor((height - 15) / 2)));
  const hostRows = Math.min(i.hosts.length || 1, maxHostRows);
  const longest = Math.max(8, ...i.hosts.slice(0, hostRows).map((h) => h.length), i.hosts.length > hostRows ? 9 : 0);
  const labelWidth = Math.min(wide ? 16 : 13, longest);
  const stripCols = Math.max(1, width - labelWidth - 1);
  const stripRows = hostRows + 2;
  const n = i.findings ?? 0;
  const listFor = (room: number) => (n ? Math.min(n + 1, Math.max(3, Math.floor(room / 3))) : 0);
  const roomWith = (summaryRows: number) => height - headerRows - summaryRows - stripRows - 1;
  // The answer first: the summary may take nearly half of the room, unless that leaves the body
  // too little to read; then each incident keeps its title (`i` unfolds it).
  const unfolded = Math.min(i.summary ?? 0, Math.max(0, Math.floor(((height - headerRows - stripRows - 1) * 9) / 20)));
  const short = roomWith(unfolded) - listFor(roomWith(unfolded)) < MIN_BODY_ROWS;
  const incidents = Math.min(i.incidents ?? 0, unfolded);
  const summaryFolded = incidents > 0 && (i.incidentOpen === undefined ? short : !i.incidentOpen);
  const summaryRows = summaryFolded ? incidents : unfolded;
  const room = roomWith(summaryRows);
  // A finding in full on a narrow screen under 40 rows takes the list's rows too (its title names
  // it, ↑ ↓ still choose it): at 80x24 that is 13 lines of it instead of 9.
  const inFull = !wide && i.focus === 'findings' && i.detail;
  const findingListRows = inFull && i.rows < FULL_FINDING_ROWS ? 0 : listFor(room);
  const bodyRows = Math.max(2, room - findingListRows);
  let listWidth = width;
  let sideWidth = 0;
  let listRows = bodyRows - 1;
  let detailRows = 0;
  let findingRows = bodyRows;
  if (wide) {
    listWidth = Math.floor(width * 0.6);
    sideWidth = width - listWidth - 1;
  } else if (i.focus === 'findings' && i.detail) {
    listRows = 0;
  } else if (i.detail && i.focus === 'events') {
    // The detail pane gets most of the room; the list keeps a few rows around the selected one.
    detailRows = Math.min(bodyRows - 2, Math.max(8, Math.floor((bodyRows * 3) / 5)));
    listRows = bodyRows - 1 - detailRows;
  }
  return {
    width,
    height,
    tooSmall,
    wide,
    headerRows,
    summaryRows,
    summaryFolded,
    findingListRows,
    maxHostRows,
    hostRows,
    labelWidth,
    stripCols,
    stripRows,
    bodyRows,
    listWidth,
    sideWidth,
    listRows: Math.max(0, listRows),
    detailRows,
    findingRows,
    replayRows: Math.max(2, height - headerRows - 1),
  };
}
