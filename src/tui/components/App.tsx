// The TUI once the timeline is loaded: holds the view state, maps keys to view-model actions, lays
// the panes out for the terminal's size (following resizes) and draws them. All decisions are in
// the view model (src/tui/view-model.ts) and the key table (src/tui/keys.ts); this only wires them.
import { Box, Text, useApp, useInput, useStdout } from 'ink';
import { useEffect, useRef, useState } from 'react';
import { oneDay } from '../../report/text-layout.js';
import type { HeaderInfo } from '../format.js';
import { keyAction, splitInput } from '../keys.js';
import { findingLines, incidentSummaryLines, incidentTitleLines, zoomNote } from '../format.js';
import { layoutFor, MIN_COLUMNS, MIN_ROWS, type ScreenLayout } from '../layout.js';
import type { Action, Dims, TuiModel, ViewState } from '../view-model.js';
import type { ReplayStatus } from '../replay-status.js';
import { laneHosts, replayHeadRows } from '../replay.js';
import { ColorContext } from '../theme.js';
import { cachedRecord, type RecordView } from '../record.js';
import { DetailPane, detailBody } from './DetailPane.js';
import { EventList } from './EventList.js';
import { FindingsList, FindingText } from './FindingsPane.js';
import { Header } from './Header.js';
import { Help } from './Help.js';
import { StatusLine } from './StatusLine.js';
import { ReplayPane } from './ReplayPane.js';
import { Lines } from './StyledLine.js';
import { TimeStrip } from './TimeStrip.js';

export interface Size {
  columns: number;
  rows: number;
}

/** The terminal's size, following resizes; or the fixed size given (tests). */
export function useTerminalSize(fixed?: Size): Size {
  const { stdout } = useStdout();
  const read = (): Size => ({ columns: stdout.columns || 80, rows: stdout.rows || 24 });
  const [size, setSize] = useState(read);
  useEffect(() => {
    if (fixed) return;
    const onResize = () => setSize(read());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stdout, fixed]);
  return fixed ?? size;
}

interface AppProps {
  model: TuiModel;
  header: HeaderInfo;
  /** Colour on (default) or off (NO_COLOR). */
  color?: boolean;
  /** A fixed size instead of the terminal's (tests). */
  size?: Size;
  /** Called when the user quits, before ink exits. */
  onQuit?: () => void;
  /** Start from this state (tests, bench). */
  initial?: (model: TuiModel, dims: Dims) => ViewState;
  /** The replay under way (the replay tab shows 'replaying…' until it settles); none: no replay tab. */
  replay?: Promise<ReplayStatus>;
  /** Milliseconds the cursor must rest before the detail pane reads its record (held keys read nothing). */
  recordDelayMs?: number;
}

/** The model's dims for a layout: the list's rows as the events pane would show them. */
function dimsOf(l: ScreenLayout, size: Size, hosts: readonly string[]): Dims {
  const listRows = l.listRows || layoutFor({ columns: size.columns, rows: size.rows, hosts, focus: 'events', detail: false }).listRows;
  return { listRows: Math.max(1, listRows), stripCols: l.stripCols, findingRows: l.findingRows };
}

/** Lines of the replay tab's scrolling text for a layout and a replay status. */
function replayPaneRows(l: ScreenLayout, model: TuiModel, status: ReplayStatus): number {
  const lanes = status.kind === 'done' ? laneHosts(model, status.view).length : 0;
  return Math.max(1, l.replayRows - replayHeadRows(status, lanes, l.replayRows) - 1);
}

const READING: RecordView = { kind: 'reading' };

export function App({ model, header, color = true, size, onQuit, initial, replay, recordDelayMs = 40 }: AppProps) {
  const term = useTerminalSize(size);
  const { exit } = useApp();
  const hosts = model.store.hosts;
  // The selected event's whole record, read from its file while the detail pane is open.
  const [record, setRecord] = useState<{ cursor: number; view: RecordView } | null>(null);
  const recordRef = useRef(record);
  recordRef.current = record;
  const recordOf = (cursor: number): RecordView => (recordRef.current?.cursor === cursor ? recordRef.current.view : READING);
  const nFindings = model.findings.length;
  const summary = incidentSummaryLines(model.incidents, header.zone, oneDay(header.first, header.last, header.zone), Math.max(1, term.columns));
  const nIncidents = model.incidents.length;
  const layoutOf = (s: ViewState) =>
    layoutFor({ columns: term.columns, rows: term.rows, hosts, focus: s.focus, detail: s.detail, findings: nFindings, summary: summary.length, incidents: nIncidents, incidentOpen: s.incidentOpen });
  const detailWidth = (l: ScreenLayout) => (l.wide ? l.sideWidth : l.width);
  const detailRows = (l: ScreenLayout) => (l.wide ? l.bodyRows : l.detailRows);
  const dimsFor = (s: ViewState): Dims => {
    const l = layoutOf(s);
    const selected = model.findings[Math.max(0, Math.min(nFindings - 1, s.finding))];
    const dims: Dims = {
      ...dimsOf(l, term, hosts),
      replayRows: replayPaneRows(l, model, s.replay),
      ...(selected ? { findingLines: findingLines(selected, header.zone, oneDay(header.first, header.last, header.zone), detailWidth(l)).length } : {}),
      ...(nIncidents ? { incidentFolded: l.summaryFolded } : {}),
    };
    if (!s.detail || s.focus !== 'events' || s.cursor < 0) return dims;
    const evidence = (model.evidenceFor.get(s.cursor) ?? []).map((index) => ({ index, finding: model.findings[index] }));
    const body = detailBody({ event: model.store.get(s.cursor), findings: evidence, zone: header.zone, width: detailWidth(l), record: recordOf(s.cursor) });
    return { ...dims, detailRows: detailRows(l), detailLines: body.length };
  };
  const [state, setState] = useState<ViewState>(() => {
    const probe = layoutFor({ columns: term.columns, rows: term.rows, hosts, focus: 'events', detail: false, findings: nFindings, summary: summary.length, incidents: nIncidents });
    const dims = dimsOf(probe, term, hosts);
    const s0 = initial ? initial(model, dims) : model.initial(dims);
    return replay ? { ...s0, replay: { kind: 'running' } } : s0;
  });
  // Keys can come faster than renders (a paste, a held key): each one starts from the last result.
  const latest = useRef(state);

  const dispatch = (action: Action) => {
    const cur = model.fit(latest.current, dimsFor(latest.current));
    const reduced = model.reduce(cur, action, dimsFor(cur));
    const next = model.fit(reduced, dimsFor(reduced));
    latest.current = next;
    setState(next);
  };

  useInput((input, key) => {
    for (const [i, k] of splitInput(input, key)) {
      const action = keyAction(latest.current, i, k);
      if (!action) continue;
      if (action.type === 'quit') {
        onQuit?.();
        exit();
        return;
      }
      dispatch(action);
    }
  });

  // The replay settles in the background; the tab shows it when it does.
  useEffect(() => {
    if (!replay) return;
    let live = true;
    replay.then(
      (status) => live && dispatch({ type: 'replay', status }),
      (err: unknown) => live && dispatch({ type: 'replay', status: { kind: 'failed', reason: err instanceof Error ? err.message : String(err) } }),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [replay]);

  // The detail pane reads the selected record from its file once the cursor rests; moving on stops it.
  const wantRecord = state.detail && state.focus === 'events' && state.cursor >= 0 ? state.cursor : -1;
  useEffect(() => {
    if (wantRecord < 0 || recordRef.current?.cursor === wantRecord) return;
    const ctl = new AbortController();
    const store = model.store;
    const id = setTimeout(() => {
      cachedRecord(store.pathOf(wantRecord), store.lineAt(wantRecord), store.fileOf(wantRecord), ctl.signal).then(
        (view) => !ctl.signal.aborted && setRecord({ cursor: wantRecord, view }),
        (err: unknown) => !ctl.signal.aborted && setRecord({ cursor: wantRecord, view: { kind: 'unavailable', reason: err instanceof Error ? err.message : String(err) } }),
      );
    }, recordDelayMs);
    return () => {
      clearTimeout(id);
      ctl.abort();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [wantRecord, model]);

  // A long search goes on a step at a time, with a frame (its progress) and the keys in between.
  const job = state.searching;
  useEffect(() => {
    if (!job) return;
    const id = setImmediate(() => dispatch({ type: 'searchStep' }));
    return () => clearImmediate(id);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [job]);

  const s = model.fit(state, dimsFor(state));
  const L = layoutOf(s);
  const zone = header.zone;
  const sameDay = oneDay(header.first, header.last, zone);

  if (L.tooSmall) {
    return (
      <Text>
        The terminal is {term.columns}x{term.rows}: rmq-diag tui needs at least {MIN_COLUMNS}x{MIN_ROWS} (80x24 or more is best). q quits.
      </Text>
    );
  }
  if (s.help) {
    return (
      <ColorContext.Provider value={color}>
        <Help width={L.width} height={L.height} />
      </ColorContext.Provider>
    );
  }

  const dims = dimsFor(s);
  const rows = model.rows(s.filter);
  const visible = model.visible(s, dims);
  const strip = model.strip(s, L.stripCols, L.maxHostRows);
  const hostWidth = Math.max(4, ...hosts.map((h) => h.length));
  const event = s.cursor >= 0 ? model.store.get(s.cursor) : null;
  const evidenceFor = (model.evidenceFor.get(s.cursor) ?? []).map((index) => ({ index, finding: model.findings[index] }));
  const list = (width: number, height: number) => (
    <EventList
      model={model}
      rows={visible.slice(0, height)}
      cursor={s.cursor}
      focused={s.focus === 'events'}
      search={s.search}
      width={width}
      height={height}
      zone={zone}
      sameDay={sameDay}
      hostWidth={hostWidth}
    />
  );
  const findingsList = (
    <FindingsList findings={model.findings} selected={Math.max(0, s.finding)} listed={s.filter.finding} focused={s.focus === 'findings'} width={L.width} height={L.findingListRows} />
  );
  const findingText = (width: number, height: number) => (
    <FindingText findings={model.findings} selected={Math.max(0, s.finding)} scroll={s.findingScroll} zone={zone} sameDay={sameDay} width={width} height={height} />
  );
  const detail = (width: number, height: number) => (
    <DetailPane event={event} findings={evidenceFor} zone={zone} width={width} height={height} record={recordOf(s.cursor)} scroll={s.detailScroll ?? 0} />
  );

  let body;
  if (s.focus === 'replay') {
    return (
      <ColorContext.Provider value={color}>
        <Box flexDirection="column" width={L.width} height={L.height}>
          <Header info={header} width={L.width} />
          <ReplayPane
            model={model}
            status={s.replay}
            strip={strip}
            axisNote={zoomNote(strip.zoom, strip.bucketMs)}
            labelWidth={L.labelWidth}
            scroll={s.replayScroll}
            width={L.width}
            height={L.replayRows}
            zone={zone}
            sameDay={sameDay}
          />
          <StatusLine state={s} row={model.cursorRow(s)} listed={rows.length} total={model.store.length} findings={model.findings} width={L.width} />
        </Box>
      </ColorContext.Provider>
    );
  }
  if (L.wide) {
    const side = s.detail && s.focus === 'events' ? detail(L.sideWidth, L.bodyRows) : findingText(L.sideWidth, L.bodyRows);
    body = (
      <Box flexDirection="row" height={L.bodyRows}>
        {list(L.listWidth, L.bodyRows - 1)}
        <Lines lines={Array.from({ length: L.bodyRows }, () => [{ text: '│', dim: true }])} height={L.bodyRows} width={1} />
        {side}
      </Box>
    );
  } else if (s.focus === 'findings' && s.detail) {
    body = findingText(L.width, L.bodyRows);
  } else {
    body = (
      <Box flexDirection="column" height={L.bodyRows}>
        {list(L.width, L.listRows)}
        {s.detail && s.focus === 'events' ? detail(L.width, L.detailRows) : null}
      </Box>
    );
  }

  return (
    <ColorContext.Provider value={color}>
      <Box flexDirection="column" width={L.width} height={L.height}>
        <Header info={header} width={L.width} />
        {L.summaryRows ? <Lines lines={L.summaryFolded ? incidentTitleLines(model.incidents, L.width) : summary.slice(0, L.summaryRows)} height={L.summaryRows} width={L.width} /> : null}
        {L.findingListRows ? findingsList : null}
        <TimeStrip view={strip} labelWidth={L.labelWidth} width={L.width} zone={zone} sameDay={sameDay} />
        {body}
        <StatusLine state={s} row={model.cursorRow(s)} listed={rows.length} total={model.store.length} findings={model.findings} width={L.width} />
      </Box>
    </ColorContext.Provider>
  );
}
