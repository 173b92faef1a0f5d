// The findings: the list under the header (one line each, the selected one on two), and the selected
// finding in full (title, figures, explanation, advice, evidence), scrolling.
import type { Zone } from '../../parse/time.js';
import type { Finding } from '../../rules/types.js';
import { findingLines, findingsListLines, fitLine, type Line } from '../format.js';
import { Lines } from './StyledLine.js';

interface FindingsListProps {
  findings: readonly Finding[];
  selected: number;
  /** The finding whose evidence the event list shows, or null. */
  listed: number | null;
  focused: boolean;
  width: number;
  height: number;
}

export function FindingsList(p: FindingsListProps) {
  return <Lines lines={findingsListLines(p.findings, p.selected, p.listed, p.focused, p.width, p.height)} height={p.height} width={p.width} />;
}

interface FindingTextProps {
  findings: readonly Finding[];
  selected: number;
  scroll: number;
  zone: Zone;
  sameDay: boolean;
  width: number;
  height: number;
}

export function FindingText(p: FindingTextProps) {
  const n = p.findings.length;
  if (!n) return <Lines lines={[[{ text: 'no findings: the rules found nothing wrong in these logs', dim: true }]]} height={p.height} width={p.width} />;
  const f = p.findings[Math.max(0, Math.min(n - 1, p.selected))];
  const text = findingLines(f, p.zone, p.sameDay, p.width);
  const textH = p.height - 1;
  const scroll = Math.max(0, Math.min(p.scroll, text.length - textH));
  const more = text.length - scroll - textH;
  const lines: Line[] = [
    fitLine(
      [
        { text: `── finding ${p.selected + 1}/${n} `, dim: true },
        { text: scroll > 0 || more > 0 ? `(PgUp/PgDn: ${Math.max(0, more)} more lines) ` : '', dim: true },
        { text: '─'.repeat(p.width), dim: true },
      ],
      p.width,
    ),
    ...text.slice(scroll, scroll + textH),
  ];
  return <Lines lines={lines} height={p.height} width={p.width} />;
}
