// Every key, from the one table the key mapping documents itself with.
import { fit, fitLine, wrap, type Line } from '../format.js';
import { KEYS } from '../keys.js';
import { Lines } from './StyledLine.js';

export function helpLines(width: number): Line[] {
  const kw = Math.min(26, Math.max(...KEYS.map((k) => k.keys.length)) + 2);
  const out: Line[] = [[{ text: 'rmq-diag tui: keys', bold: true, color: 'cyan' }, { text: '   (any key closes this help)', dim: true }], [{ text: '' }]];
  for (const k of KEYS) {
    wrap(k.does, Math.max(20, width - kw - 2)).forEach((l, i) => out.push([{ text: '  ' + fit(i ? '' : k.keys, kw), bold: true }, { text: l }]));
  }
  out.push([{ text: '' }]);
  out.push([{ text: 'filters  ', dim: true }, { text: 'type:rpc-timeout,send-failed  host:app-*  level:warn' }]);
  out.push([{ text: '         ', dim: true }, { text: 'type:!other (! excludes)  finding:2  (empty clears)' }]);
  out.push([{ text: 'search   ', dim: true }, { text: 'case-insensitive, in the text, fields, host, file' }]);
  return out.map((l) => fitLine(l, width, false));
}

export function Help({ width, height }: { width: number; height: number }) {
  return <Lines lines={helpLines(width)} height={height} width={width} />;
}
