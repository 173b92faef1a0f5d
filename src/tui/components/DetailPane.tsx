// The selected event in full: text, typed fields, file:line, the findings it is evidence for.
import type { Zone } from '../../parse/time.js';
import type { RmqEvent } from '../../parse/types.js';
import type { Finding } from '../../rules/types.js';
import { detailLines, fitLine, type Line } from '../format.js';
import { Lines } from './StyledLine.js';

export interface DetailPaneProps {
  event: RmqEvent | null;
  findings: ReadonlyArray<{ index: number; finding: Finding }>;
  zone: Zone;
  width: number;
  height: number;
}

export function DetailPane({ event, findings, zone, width, height }: DetailPaneProps) {
  const title: Line = fitLine([{ text: '── detail ', dim: true }, { text: '(Enter or Esc closes) ', dim: true }, { text: '─'.repeat(width), dim: true }], width);
  const body = event ? detailLines(event, findings, zone, width) : [[{ text: 'no event selected', dim: true }]];
  const lines = [title, ...body];
  if (lines.length > height && height > 1) {
    lines.length = height - 1;
    lines.push([{ text: '…', dim: true }]);
  }
  return <Lines lines={lines} height={height} width={width} />;
}
