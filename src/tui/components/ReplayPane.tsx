// The replay tab: the verdict, the observed and simulated lanes over the strip's window with the
// milestones marked on both, then the milestones (observed, simulated, delta, ok or diverged) and
// the outages per client, scrolling.
import type { Zone } from '../../parse/time.js';
import { fitLine, stripLines, type Line } from '../format.js';
import type { StripView, TuiModel } from '../view-model.js';
import type { ReplayStatus } from '../replay-status.js';
import { laneHosts, laneLines, maxLanePairs, replayHeadRows, replayLanes, replayText, verdictLine } from '../replay.js';
import { Lines } from './StyledLine.js';

interface ReplayPaneProps {
  model: TuiModel;
  status: ReplayStatus;
  /** The strip's window, columns and cursor (the lanes share its axis). */
  strip: StripView;
  axisNote: string;
  labelWidth: number;
  scroll: number;
  width: number;
  height: number;
  zone: Zone;
  sameDay: boolean;
}

/** Every line of the tab (exactly `height`). */
function replayPaneLines(p: ReplayPaneProps): Line[] {
  const lines: Line[] = [verdictLine(p.status, p.width)];
  if (p.status.kind === 'done') {
    const view = p.status.view;
    const pairs = maxLanePairs(p.height);
    const lanes = replayLanes(p.model, view, p.strip.from, p.strip.to, p.strip.cols, pairs);
    const noBand = { ...p.strip, rows: [] };
    lines.push(stripLines(noBand, p.labelWidth, p.zone, p.sameDay, p.axisNote)[0]);
    lines.push(...laneLines(lanes, p.labelWidth, p.strip.cursorCol));
    const head = replayHeadRows(p.status, laneHosts(p.model, view).length, p.height);
    const text = replayText(p.status, p.width, p.zone, p.sameDay);
    const rows = Math.max(0, p.height - head - 1);
    const scroll = Math.max(0, Math.min(p.scroll, text.length - rows));
    const more = text.length - scroll - rows;
    lines.push(
      fitLine(
        [
          { text: '── milestones: observed vs simulated ', dim: true },
          { text: scroll > 0 || more > 0 ? `(↑↓ PgUp/PgDn: ${Math.max(0, more)} more lines) ` : '', dim: true },
          { text: '─'.repeat(p.width), dim: true },
        ],
        p.width,
      ),
    );
    lines.push(...text.slice(scroll, scroll + rows));
  } else if (p.status.kind !== 'off') {
    lines.push([{ text: '' }], fitLine([{ text: 'r or Esc goes back to the event list; Tab cycles the panes', dim: true }], p.width));
  }
  return lines.slice(0, p.height);
}

export function ReplayPane(p: ReplayPaneProps) {
  return <Lines lines={replayPaneLines(p)} height={p.height} width={p.width} />;
}
