// The selected event in full: the whole record as read again from its file (stack trace included),
// file:line, typed fields, the findings it is evidence for; scrolled with PgUp PgDn.
import type { Zone } from '../../parse/time.js';
import type { RmqEvent } from '../../parse/types.js';
import type { Finding } from '../../rules/types.js';
import { detailLines, fitLine, type Line } from '../format.js';
import type { RecordView } from '../record.js';
import { Lines } from './StyledLine.js';

interface DetailPaneProps {
  event: RmqEvent | null;
  findings: ReadonlyArray<{ index: number; finding: Finding }>;
  zone: Zone;
  width: number;
  height: number;
  /** The whole record (read on demand); none: the first line the store keeps. */
  record?: RecordView;
  /** First line of the text shown. */
  scroll?: number;
}

/** The pane's text below its title. */
export function detailBody(p: Omit<DetailPaneProps, 'height' | 'scroll'>): Line[] {
  return p.event ? detailLines(p.event, p.findings, p.zone, p.width, p.record) : [[{ text: 'no event selected', dim: true }]];
}

export function DetailPane({ event, findings, zone, width, height, record, scroll = 0 }: DetailPaneProps) {
  const body = detailBody({ event, findings, zone, width, record });
  const room = Math.max(1, height - 1);
  const top = Math.max(0, Math.min(scroll, body.length - room));
  const below = Math.max(0, body.length - top - room);
  const more = top > 0 || below > 0 ? `PgUp/PgDn: ${below ? `${below} more line${below === 1 ? '' : 's'} ` : 'more above '}` : '';
  const reading = record?.kind === 'reading' ? 'reading… ' : '';
  const title: Line = fitLine([{ text: '── detail ', dim: true }, { text: `(Enter or Esc closes) ${reading}${more}`, dim: true }, { text: '─'.repeat(width), dim: true }], width);
  // The title says how many lines are below: every other row shows text.
  const lines = [title, ...body.slice(top, top + room)];
  return <Lines lines={lines} height={height} width={width} />;
}
