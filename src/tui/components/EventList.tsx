// The event list: only the rows on screen are decoded and drawn.
import type { Zone } from '../../parse/time.js';
import { SEVERITIES, severityRank, type Severity } from '../../rules/types.js';
import { listColumns, listHeader, listRow, type Line } from '../format.js';
import type { TuiModel } from '../view-model.js';
import { Lines } from './StyledLine.js';

interface EventListProps {
  model: TuiModel;
  /** Event indices of the rows on screen. */
  rows: readonly number[];
  cursor: number;
  focused: boolean;
  search: string;
  width: number;
  /** Event rows (the column header comes on top of them). */
  height: number;
  zone: Zone;
  sameDay: boolean;
  hostWidth: number;
}

function worstEvidence(model: TuiModel, i: number): Severity | null {
  const fs = model.evidenceFor.get(i);
  if (!fs?.length) return null;
  return SEVERITIES[Math.min(...fs.map((f) => severityRank(model.findings[f].severity)))];
}

export function EventList(p: EventListProps) {
  const cols = listColumns(p.width, p.sameDay, p.hostWidth);
  const lines: Line[] = [listHeader(cols, p.width)];
  for (const i of p.rows) {
    lines.push(
      listRow(p.model.store.get(i), cols, p.width, {
        zone: p.zone,
        sameDay: p.sameDay,
        selected: i === p.cursor,
        focused: p.focused,
        evidence: worstEvidence(p.model, i),
        search: p.search,
      }),
    );
  }
  if (!p.rows.length) lines.push([{ text: '  (no events listed: Esc clears the filters)', dim: true }]);
  return <Lines lines={lines} height={p.height + 1} width={p.width} />;
}
