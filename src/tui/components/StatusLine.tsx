// The status line: the prompt while typing, else feedback or where you are and what is filtered.
import type { Finding } from '../../rules/types.js';
import { filterText, type ViewState } from '../view-model.js';
import { fitLine, lineCells, type Line } from '../format.js';
import { Lines } from './StyledLine.js';

interface StatusLineProps {
  state: ViewState;
  /** Row of the cursor and number of listed rows. */
  row: number;
  listed: number;
  total: number;
  findings: readonly Finding[];
  width: number;
}

function statusLine(p: StatusLineProps): Line {
  const s = p.state;
  const n = (x: number) => x.toLocaleString('en-US');
  if (s.prompt) {
    const label = s.prompt.kind === 'search' ? '/' : 'filter> ';
    const hint = s.prompt.kind === 'search' ? '  Enter search · Esc cancel' : '  type:a,b host:glob kind:k level:warn grep:RE finding:N · Enter apply · Esc cancel';
    const line: Line = [{ text: label, bold: true }, { text: s.prompt.text }, { text: '█' }];
    if (s.message) line.push({ text: `  ${s.message}`, color: 'yellow' });
    line.push({ text: hint, dim: true });
    return fitLine(line, p.width);
  }
  const left: Line = [{ text: `[${s.focus}]`, bold: true }];
  if (s.message) left.push({ text: ` ${s.message}`, color: 'yellow' });
  else {
    left.push({ text: p.listed ? ` ${n(p.row + 1)}/${n(p.listed)}` : ' 0 listed' });
    if (p.listed !== p.total) left.push({ text: ` of ${n(p.total)}`, dim: true });
    // The finding whose evidence is listed, by number and rule: the screen names what `n` chose.
    const fi = s.filter.finding;
    const f = filterText({ ...s.filter, finding: null });
    if (fi !== null && p.findings[fi]) left.push({ text: ` · finding ${fi + 1}/${p.findings.length} ${p.findings[fi].rule}`, color: 'cyan', bold: true });
    if (f) left.push({ text: ` · ${f}`, color: 'cyan' });
    if (s.filter.quiet) left.push({ text: ' · noise hidden (a: all)', dim: true });
    if (s.search) left.push({ text: ` · /${s.search}`, color: 'yellow' });
  }
  const right: Line = [{ text: `${p.findings.length ? 'n/N findings · ' : ''}Tab · / search · f filter · ? help · q quit`, dim: true }];
  const room = p.width - lineCells(left);
  if (room >= lineCells(right) + 2) return fitLine([...left, { text: ' '.repeat(room - lineCells(right)) }, ...right], p.width);
  return fitLine([...left, { text: '  ? help', dim: true }], p.width);
}

export function StatusLine(p: StatusLineProps) {
  return <Lines lines={[statusLine(p)]} height={1} width={p.width} />;
}
