import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { helpLines } from '../../src/tui/components/Help.js';
import { KEYS, keyAction, splitInput, type KeyInfo } from '../../src/tui/keys.js';
import { NO_FILTER, type ViewState } from '../../src/tui/view-model.js';

const BASE: ViewState = {
  filter: NO_FILTER,
  cursor: 0,
  top: 0,
  from: 0,
  to: 1000,
  focus: 'events',
  detail: false,
  help: false,
  finding: 0,
  findingScroll: 0,
  prompt: null,
  search: '',
  searching: null,
  message: null,
};
const k = (p: KeyInfo = {}) => p;

describe('keyAction', () => {
  it.each([
    ['j', k(), { type: 'move', by: 1 }],
    ['', k({ downArrow: true }), { type: 'move', by: 1 }],
    ['k', k(), { type: 'move', by: -1 }],
    ['', k({ upArrow: true }), { type: 'move', by: -1 }],
    ['', k({ pageDown: true }), { type: 'page', by: 1 }],
    ['f', k({ ctrl: true }), { type: 'page', by: 1 }],
    ['', k({ pageUp: true }), { type: 'page', by: -1 }],
    ['g', k(), { type: 'home' }],
    ['', k({ home: true }), { type: 'home' }],
    ['G', k({ shift: true }), { type: 'end' }],
    ['', k({ end: true }), { type: 'end' }],
    ['', k({ leftArrow: true }), { type: 'step', by: -1 }],
    ['l', k(), { type: 'step', by: 1 }],
    ['+', k(), { type: 'zoom', by: 1 }],
    ['-', k(), { type: 'zoom', by: -1 }],
    ['n', k(), { type: 'finding', by: 1 }],
    ['N', k({ shift: true }), { type: 'finding', by: -1 }],
    ['/', k(), { type: 'prompt', kind: 'search' }],
    [']', k(), { type: 'prompt', kind: 'search' }],
    ['f', k(), { type: 'prompt', kind: 'filter' }],
    ['', k({ tab: true }), { type: 'focus' }],
    ['', k({ return: true }), { type: 'detail' }],
    ['', k({ escape: true }), { type: 'clear' }],
    ['?', k(), { type: 'help', open: true }],
    ['q', k(), { type: 'quit' }],
    ['c', k({ ctrl: true }), { type: 'quit' }],
    ['x', k(), null],
  ])('%j %j in the event list', (input, key, action) => {
    expect(keyAction(BASE, input, key)).toEqual(action);
  });

  it('in the findings, up and down choose a finding from the selected one, pages scroll it, Enter shows it in full', () => {
    const s = { ...BASE, focus: 'findings' as const };
    expect(keyAction(s, 'j', {})).toEqual({ type: 'finding', by: 1, from: 'selected' });
    expect(keyAction(s, '', { upArrow: true })).toEqual({ type: 'finding', by: -1, from: 'selected' });
    expect(keyAction(s, 'n', {})).toEqual({ type: 'finding', by: 1 });
    // A page of the finding: the model knows how many lines show (view-model.test.ts).
    expect(keyAction(s, '', { pageDown: true })).toEqual({ type: 'scrollFinding', by: 1 });
    expect(keyAction(s, 'b', { ctrl: true })).toEqual({ type: 'scrollFinding', by: -1 });
    expect(keyAction(s, 'i', {})).toEqual({ type: 'incident' });
    expect(keyAction(s, 'G', {})).toEqual({ type: 'selectFinding', index: -1 });
    expect(keyAction(s, '', { return: true })).toEqual({ type: 'detail' });
    expect(keyAction({ ...s, detail: true }, '', { escape: true })).toEqual({ type: 'detail', open: false });
    expect(keyAction(s, 'a', {})).toEqual({ type: 'noise' });
  });

  it('while typing in a prompt, keys are text; Enter, Esc and Backspace edit', () => {
    const s = { ...BASE, prompt: { kind: 'search' as const, text: 'ab' } };
    expect(keyAction(s, 'q', {})).toEqual({ type: 'type', text: 'q' });
    expect(keyAction(s, 'n', {})).toEqual({ type: 'type', text: 'n' });
    expect(keyAction(s, '', { return: true })).toEqual({ type: 'submit' });
    expect(keyAction(s, '', { escape: true })).toEqual({ type: 'cancel' });
    expect(keyAction(s, '', { backspace: true })).toEqual({ type: 'backspace' });
    expect(keyAction(s, '', { upArrow: true })).toBeNull();
  });

  it('Esc closes the detail pane before it clears filters; any key closes help', () => {
    expect(keyAction({ ...BASE, detail: true }, '', { escape: true })).toEqual({ type: 'detail', open: false });
    expect(keyAction({ ...BASE, help: true }, 'j', {})).toEqual({ type: 'help', open: false });
  });

  it('PgUp PgDn scroll the open detail pane; the arrows still move the cursor', () => {
    const s = { ...BASE, detail: true };
    expect(keyAction(s, '', { pageDown: true })).toEqual({ type: 'scrollDetail', by: 1 });
    expect(keyAction(s, 'b', { ctrl: true })).toEqual({ type: 'scrollDetail', by: -1 });
    expect(keyAction(s, '', { downArrow: true })).toEqual({ type: 'move', by: 1 });
    expect(keyAction(BASE, '', { pageDown: true })).toEqual({ type: 'page', by: 1 });
  });

  it('repeats the last search with ] and [', () => {
    const s = { ...BASE, search: 'timeout' };
    expect(keyAction(s, ']', {})).toEqual({ type: 'search', query: 'timeout', by: 1 });
    expect(keyAction(s, '[', {})).toEqual({ type: 'search', query: 'timeout', by: -1 });
  });

  it('during a long search only Esc (stop) and q (quit) do anything', () => {
    const s = { ...BASE, searching: { query: 'x', by: 1 as const, origin: 0, done: 10 } };
    expect(keyAction(s, 'j', {})).toBeNull();
    expect(keyAction(s, '', { escape: true })).toEqual({ type: 'cancel' });
    expect(keyAction(s, 'q', {})).toEqual({ type: 'quit' });
  });
});

describe('splitInput', () => {
  it('splits keys that came in one read back into keys', () => {
    expect(splitInput('jj\r', {})).toEqual([
      ['j', { shift: false }],
      ['j', { shift: false }],
      ['', { return: true }],
    ]);
    expect(splitInput('aB\t\u007f', {})).toEqual([
      ['a', { shift: false }],
      ['B', { shift: true }],
      ['', { tab: true }],
      ['', { backspace: true }],
    ]);
    expect(splitInput('中文', {})).toEqual([
      ['中', { shift: false }],
      ['文', { shift: false }],
    ]);
  });

  it('leaves single keys and special keys alone', () => {
    expect(splitInput('j', {})).toEqual([['j', {}]]);
    expect(splitInput('', { upArrow: true })).toEqual([['', { upArrow: true }]]);
    expect(splitInput('[A', { meta: true })).toEqual([['[A', { meta: true }]]);
  });
});

describe('the key table', () => {
  it('is on the help screen, every key', () => {
    const text = helpLines(100)
      .map((l) => l.map((s) => s.text).join(''))
      .join('\n');
    for (const key of KEYS) expect(text).toContain(key.keys);
  });

  it('is in docs/tui.md, every key', () => {
    const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'tui.md'), 'utf8');
    for (const key of KEYS) expect(doc).toContain(`| ${key.keys} |`);
  });
});
