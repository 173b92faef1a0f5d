// Keys: one table (the help screen and docs/tui.md list it) and the mapping from a key press to a
// view-model action. Pure: tested without ink.

import type { Action, ViewState } from './view-model.js';

/** The parts of ink's Key this mapping reads. */
export interface KeyInfo {
  upArrow?: boolean;
  downArrow?: boolean;
  leftArrow?: boolean;
  rightArrow?: boolean;
  pageUp?: boolean;
  pageDown?: boolean;
  home?: boolean;
  end?: boolean;
  return?: boolean;
  escape?: boolean;
  tab?: boolean;
  backspace?: boolean;
  delete?: boolean;
  ctrl?: boolean;
  meta?: boolean;
  shift?: boolean;
}

interface KeyHelp {
  keys: string;
  does: string;
}

/** Every key, as the help screen shows it. */
export const KEYS: readonly KeyHelp[] = [
  { keys: '↑ ↓  j k', does: 'previous / next event (findings: finding)' },
  { keys: 'PgUp PgDn  ctrl-b ctrl-f', does: 'page up / down by what shows (findings, replay, detail: scroll)' },
  { keys: 'Home End  g G', does: 'first / last event (or finding; replay: top, end)' },
  { keys: '← →  h l', does: 'previous / next bucket of the time strip' },
  { keys: '+ -', does: 'zoom the time strip in / out around the cursor' },
  { keys: 'n N', does: 'next / previous finding: its window and evidence' },
  { keys: '/', does: 'search; Enter jumps to the next listed match' },
  { keys: '] [', does: 'next / previous match; Esc stops a long search' },
  { keys: 'f', does: 'filter: type: host: kind: level: grep: finding:' },
  { keys: 'a', does: 'show all records / hide the noise again' },
  { keys: 'Esc', does: 'close help, prompt or detail; else clear filters' },
  { keys: 'Tab', does: 'cycle findings, event list, replay tab' },
  { keys: 'i', does: 'unfold / fold the incident (its title only on a short screen)' },
  { keys: 'r', does: 'replay tab: observed vs simulated lanes, milestones' },
  { keys: 'Enter', does: 'open / close the detail (findings: in full)' },
  { keys: '?', does: 'this help' },
  { keys: 'q  ctrl-c', does: 'quit' },
];

type KeyResult = Action | { type: 'quit' } | null;

/**
 * ink hands over keys that arrive in one read (key repeat, a busy terminal, a paste) as one string:
 * split it back into keys, Enter, Tab and Backspace included.
 */
export function splitInput(input: string, key: KeyInfo): Array<[string, KeyInfo]> {
  const chars = Array.from(input);
  const special = key.upArrow || key.downArrow || key.leftArrow || key.rightArrow || key.pageUp || key.pageDown || key.home || key.end || key.escape || key.ctrl || key.meta;
  if (chars.length <= 1 || special) return [[input, key]];
  return chars.map((ch): [string, KeyInfo] => {
    if (ch === '\r' || ch === '\n') return ['', { return: true }];
    if (ch === '\t') return ['', { tab: true }];
    if (ch === '\u007f' || ch === '\b') return ['', { backspace: true }];
    return [ch, { shift: /[A-Z]/.test(ch) }];
  });
}

export function keyAction(s: ViewState, input: string, key: KeyInfo): KeyResult {
  if (key.ctrl && input === 'c') return { type: 'quit' };
  if (s.searching) {
    if (key.escape) return { type: 'cancel' };
    return input === 'q' && !key.ctrl ? { type: 'quit' } : null;
  }
  if (s.prompt) {
    if (key.return) return { type: 'submit' };
    if (key.escape) return { type: 'cancel' };
    if (key.backspace || key.delete) return { type: 'backspace' };
    if (key.ctrl || key.meta || key.tab || key.upArrow || key.downArrow || key.leftArrow || key.rightArrow) return null;
    return input ? { type: 'type', text: input } : null;
  }
  if (s.help) return { type: 'help', open: false };
  const findings = s.focus === 'findings';
  if (s.focus === 'replay') {
    if (key.escape || key.return || (input === 'r' && !key.ctrl && !key.meta)) return { type: 'focus', pane: 'events' };
    if (key.upArrow || (input === 'k' && !key.ctrl)) return { type: 'scrollReplay', by: -1 };
    if (key.downArrow || (input === 'j' && !key.ctrl)) return { type: 'scrollReplay', by: 1 };
    if (key.pageUp || (key.ctrl && input === 'b')) return { type: 'scrollReplay', by: -1, unit: 'page' };
    if (key.pageDown || (key.ctrl && input === 'f')) return { type: 'scrollReplay', by: 1, unit: 'page' };
    if (key.home || input === 'g') return { type: 'scrollReplay', by: -Infinity };
    if (key.end || input === 'G') return { type: 'scrollReplay', by: Infinity };
  }
  if (key.escape) {
    if (s.detail) return { type: 'detail', open: false };
    return { type: 'clear' };
  }
  if (key.tab) return { type: 'focus' };
  if (key.return) return { type: 'detail' };
  if (key.upArrow || (input === 'k' && !key.ctrl)) return findings ? { type: 'finding', by: -1, from: 'selected' } : { type: 'move', by: -1 };
  if (key.downArrow || (input === 'j' && !key.ctrl)) return findings ? { type: 'finding', by: 1, from: 'selected' } : { type: 'move', by: 1 };
  const detail = s.detail && !findings;
  // In the findings, the pages scroll the finding's text (Enter shows it in full).
  if (key.pageUp || (key.ctrl && input === 'b')) return detail ? { type: 'scrollDetail', by: -1 } : findings ? { type: 'scrollFinding', by: -1 } : { type: 'page', by: -1 };
  if (key.pageDown || (key.ctrl && input === 'f')) return detail ? { type: 'scrollDetail', by: 1 } : findings ? { type: 'scrollFinding', by: 1 } : { type: 'page', by: 1 };
  if (key.home || input === 'g') return findings ? { type: 'selectFinding', index: 0 } : { type: 'home' };
  if (key.end || input === 'G') return findings ? { type: 'selectFinding', index: -1 } : { type: 'end' };
  if (key.leftArrow || input === 'h') return { type: 'step', by: -1 };
  if (key.rightArrow || input === 'l') return { type: 'step', by: 1 };
  if (key.ctrl || key.meta) return null;
  switch (input) {
    case 'q':
      return { type: 'quit' };
    case 'r':
      return { type: 'focus', pane: 'replay' };
    case 'i':
      return { type: 'incident' };
    case 'a':
      return { type: 'noise' };
    case '+':
    case '=':
      return { type: 'zoom', by: 1 };
    case '-':
    case '_':
      return { type: 'zoom', by: -1 };
    case 'n':
      return { type: 'finding', by: 1 };
    case 'N':
      return { type: 'finding', by: -1 };
    case '/':
      return { type: 'prompt', kind: 'search' };
    case 'f':
      return { type: 'prompt', kind: 'filter' };
    case ']':
      return s.search ? { type: 'search', query: s.search, by: 1 } : { type: 'prompt', kind: 'search' };
    case '[':
      return s.search ? { type: 'search', query: s.search, by: -1 } : { type: 'prompt', kind: 'search' };
    case '?':
      return { type: 'help', open: true };
    default:
      return null;
  }
}
