// The findings: one line each, and the selected one in full (title, figures, explanation, advice).
import type { Zone } from '../../parse/time.js';
import type { Finding } from '../../rules/types.js';
import { findingLines, findingListLine, fitLine, type Line } from '../format.js';
import { Lines } from './StyledLine.js';

export interface FindingsPaneProps {
  findings: readonly Finding[];
  selected: number;
  scroll: number;
  focused: boolean;
  zone: Zone;
  sameDay: boolean;
  width: number;
  height: number;
}

export function FindingsPane(p: FindingsPaneProps) {
  const n = p.findings.length;
  if (!n) return <Lines lines={[[{ text: 'no findings: the rules found nothing wrong in these logs', dim: true }]]} height={p.height} width={p.width} />;
  const listH = Math.min(n, Math.max(3, Math.floor(p.height / 3)));
  const first = Math.max(0, Math.min(p.selected - Math.floor(listH / 2), n - listH));
  const lines: Line[] = [];
  for (let i = first; i < first + listH; i++) lines.push(findingListLine(p.findings[i], i, p.width, i === p.selected, p.focused));
  const textH = p.height - listH - 1;
  const f = p.findings[Math.max(0, p.selected)];
  const text = findingLines(f, p.zone, p.sameDay, p.width);
  const scroll = Math.max(0, Math.min(p.scroll, text.length - textH));
  const more = text.length - scroll - textH;
  lines.push(
    fitLine(
      [
        { text: `── finding ${p.selected + 1}/${n} `, dim: true },
        { text: scroll > 0 || more > 0 ? `(PgUp/PgDn: ${Math.max(0, more)} more lines) ` : '', dim: true },
        { text: '─'.repeat(p.width), dim: true },
      ],
      p.width,
    ),
  );
  lines.push(...text.slice(scroll, scroll + textH));
  return <Lines lines={lines} height={p.height} width={p.width} />;
}
