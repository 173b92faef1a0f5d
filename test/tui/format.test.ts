import { describe, expect, it } from 'vitest';
import { cells, clipCells, detailLines, fit, highlight, listColumns, listRow, messageOf, stripLines, wrap, zoomNote, type Line } from '../../src/tui/format.js';
import { T0, ZONE, ev, resetLines } from './helpers.js';

const text = (l: Line) => l.map((s) => s.text).join('');

describe('cells', () => {
  it('counts wide characters as two cells, and cuts and pads by cells', () => {
    expect(cells('abc')).toBe(3);
    expect(cells('中文a')).toBe(5);
    expect(clipCells('中文消息', 5)).toBe('中文…');
    expect(clipCells('abcdef', 4)).toBe('abc…');
    expect(fit('中', 4)).toBe('中  ');
    expect(cells(fit('中文消息abc', 7))).toBe(7);
  });

  it('wraps words, and cuts words longer than a line', () => {
    expect(wrap('one two three four', 9)).toEqual(['one two', 'three', 'four']);
    expect(wrap('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    expect(wrap('a\nb', 10)).toEqual(['a', 'b']);
  });
});

describe('messageOf', () => {
  it.each([
    ['2020-12-22 14:42:11,044 WARN RocketmqClient - sendKernelImpl exception', 'sendKernelImpl exception'],
    ['2020-12-22 14:44:05 WARN NSScheduledThread1 - The broker channel expired', 'The broker channel expired'],
    ['2024-05-20 14:03:07.000  INFO 1234 --- [main] o.a.r.Foo : started', 'started'],
    ['04:21:23.861 [thread] ERROR x - boom - again', 'boom - again'],
    ['no header - at all', 'no header - at all'],
  ])('%s', (line, message) => {
    expect(messageOf(line)).toBe(message);
  });
});

describe('list rows', () => {
  it('never lets log text drive the terminal: control characters come out escaped', () => {
    resetLines();
    const e = ev({ at: 0, type: 'send-failed', level: 'ERROR', text: '2020-12-22 14:00:00,000 ERROR x - evil \u001b[2J\u0007 bell\ttab' });
    const cols = listColumns(120, true, 8);
    const line = listRow(e, cols, 120, { zone: ZONE, sameDay: true, selected: false, focused: true, evidence: null, search: '' });
    const t = text(line);
    expect(t).not.toMatch(/[\u0000-\u001f]/);
    expect(t).toContain('evil \\x1b[2J\\x07 bell\\ttab');
    expect(cells(t)).toBe(120);
  });

  it('shows bidirectional overrides and isolates escaped, in the list and the detail pane', () => {
    resetLines();
    const e = ev({ at: 0, type: 'send-failed', level: 'ERROR', host: 'app\u202e-1', text: '2020-12-22 14:00:00,000 ERROR x - pay \u202e1 ot 0001\u2066 isolate\u2069 \u2067\u2068' });
    const cols = listColumns(120, true, 8);
    const row = text(listRow(e, cols, 120, { zone: ZONE, sameDay: true, selected: false, focused: true, evidence: null, search: '' }));
    const detail = detailLines(e, [], ZONE, 100).map(text).join('\n');
    for (const t of [row, detail]) {
      expect(t).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
      expect(t).toContain('pay \\u202e1 ot 0001\\u2066 isolate\\u2069');
    }
    expect(detail).toContain('app\\u202e-1');
  });

  it('dims records that are no RocketMQ event, colours types and levels, marks evidence', () => {
    resetLines();
    const cols = listColumns(100, true, 8);
    const o = { zone: ZONE, sameDay: true, selected: false, focused: true, evidence: null, search: '' };
    const other = listRow(ev({ at: 0 }), cols, 100, o);
    expect(other.filter((s) => s.text.trim()).every((s) => s.dim)).toBe(true);
    const rpc = listRow(ev({ at: 0, type: 'rpc-timeout', level: 'WARN' }), cols, 100, { ...o, evidence: 'critical' });
    expect(rpc[0]).toMatchObject({ text: '◆ ', color: 'magenta' });
    expect(rpc.find((s) => s.text.startsWith('rpc-timeout'))).toMatchObject({ color: 'red', bold: true });
    expect(rpc.find((s) => s.text.startsWith('WARN'))).toMatchObject({ color: 'yellow' });
    expect(text(rpc).slice(2, 14)).toBe('14:00:00.000');
    const sel = listRow(ev({ at: 0 }), cols, 100, { ...o, selected: true });
    expect(sel.every((s) => s.inverse)).toBe(true);
  });

  it('highlights every occurrence of the search, case-insensitively', () => {
    expect(highlight('Timeout then timeout', 'TIMEOUT').map((s) => [s.text, !!s.underline])).toEqual([
      ['Timeout', true],
      [' then ', false],
      ['timeout', true],
    ]);
  });

  it('shows the date in the time column when the window spans days', () => {
    expect(listColumns(100, false, 8).time).toBe(18);
    resetLines();
    const cols = listColumns(100, false, 8);
    const line = listRow(ev({ at: 0 }), cols, 100, { zone: ZONE, sameDay: false, selected: false, focused: true, evidence: null, search: '' });
    expect(text(line).slice(2, 20)).toBe('12-22 14:00:00.000');
  });
});

describe('strip lines', () => {
  const view = (cursorCol: number) => ({
    from: T0,
    to: T0 + 600_000,
    cols: 60,
    rows: [{ label: 'app-1', height: Uint8Array.from({ length: 60 }, (_, c) => c % 9), cls: Int8Array.from({ length: 60 }, (_, c) => (c % 9 ? c % 4 : -1)) }],
    band: Int8Array.from({ length: 60 }, (_, c) => (c >= 20 && c < 30 ? 0 : c >= 40 && c < 45 ? 2 : -1)),
    selected: Uint8Array.from({ length: 60 }, (_, c) => (c >= 20 && c < 30 ? 1 : 0)),
    cursorCol,
    cursorTime: T0 + cursorCol * 10_000,
  });

  it('labels the window, the zoom and the cursor time without overlapping', () => {
    const [axis, host, band] = stripLines(view(30), 8, ZONE, true, 'all · 10 s/col').map(text);
    expect(axis.slice(9)).toMatch(/^14:00:00 .*▼14:05:00.* 14:10:00$/);
    expect(host.slice(0, 9)).toBe('app-1    ');
    expect(host.slice(9, 18)).toBe(' ▁▂▃▄▅▆▇█');
    expect(band.slice(9 + 20, 9 + 30)).toBe('━'.repeat(10));
    expect(band.slice(9 + 40, 9 + 45)).toBe('▒'.repeat(5));
    // At the left edge the cursor's label replaces the window start.
    expect(text(stripLines(view(0), 8, ZONE, true, 'all')[0]).slice(9)).toMatch(/^▼14:00:00 +all +14:10:00$/);
    // At the right edge the label goes to the left of the cursor.
    expect(text(stripLines(view(59), 8, ZONE, true, 'all')[0]).slice(9)).toMatch(/14:09:50▼$/);
  });

  it('draws the cursor column in reverse video on every row', () => {
    const lines = stripLines(view(30), 8, ZONE, true, 'all');
    for (const l of lines.slice(1)) {
      let at = 0;
      const inv: number[] = [];
      for (const s of l) {
        for (let k = 0; k < [...s.text].length; k++) if (s.inverse) inv.push(at + k);
        at += [...s.text].length;
      }
      expect(inv).toEqual([9 + 30]);
    }
  });

  it('says the zoom and the bucket width', () => {
    expect(zoomNote(1, 17_000)).toBe('all · 17 s/col');
    expect(zoomNote(4, 2_300)).toBe('zoom 4x · 2.3 s/col');
    expect(zoomNote(128, 40)).toBe('zoom 128x · 40 ms/col');
  });
});
