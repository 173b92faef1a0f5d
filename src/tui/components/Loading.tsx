// While the logs are read and merged: what is being done and how far it got.
import { fitLine, type Line } from '../format.js';
import { Lines } from './StyledLine.js';

export type LoadPhase =
  | { kind: 'reading'; done: number; total: number }
  | { kind: 'merging'; events: number; estimate: number };

export function loadingLine(p: LoadPhase): string {
  const n = (x: number) => x.toLocaleString('en-US');
  if (p.kind === 'reading') {
    const mb = (b: number) => (b / 1048576).toFixed(1);
    const pct = p.total > 0 ? ` (${Math.min(100, Math.floor((100 * p.done) / p.total))}%)` : '';
    return `reading logs: ${mb(p.done)} / ${mb(p.total)} MB${pct}`;
  }
  const pct = p.estimate > 0 ? ` (~${Math.min(99, Math.floor((100 * p.events) / p.estimate))}%)` : '';
  return `merging the timeline and running the rules: ${n(p.events)} events${pct}`;
}

export function Loading({ phase, width, height }: { phase: LoadPhase; width: number; height: number }) {
  const lines: Line[] = [
    [{ text: 'rmq-diag', bold: true, color: 'cyan' }, { text: '  loading' }],
    [{ text: '' }],
    [{ text: loadingLine(phase) }],
    [{ text: '' }],
    [{ text: 'q quits', dim: true }],
  ];
  return <Lines lines={lines.map((l) => fitLine(l, width, false))} height={Math.min(height, lines.length)} width={width} />;
}
