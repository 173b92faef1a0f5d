// A shared harness for the TUI's component tests: render, press keys, read the frame as text.
import type { render } from 'ink-testing-library';

export type Rendered = ReturnType<typeof render>;

export const KEY = {
  up: '\u001b[A',
  down: '\u001b[B',
  right: '\u001b[C',
  left: '\u001b[D',
  pageDown: '\u001b[6~',
  pageUp: '\u001b[5~',
  home: '\u001b[H',
  end: '\u001b[F',
  enter: '\r',
  tab: '\t',
  escape: '\u001b',
  backspace: '\u007f',
};

const turn = () => new Promise((r) => setImmediate(r));

/** Let ink subscribe to input (it does so in an effect after the first frame). */
export async function ready(): Promise<void> {
  await turn();
  await turn();
}

/**
 * Press keys one at a time, each waiting for its frame (ink reads input a turn or two of the event
 * loop later; a lone Esc one turn later still). Text is typed one character a key.
 */
export async function press(app: Rendered, ...keys: string[]): Promise<void> {
  for (const key of keys) {
    const before = app.frames.length;
    app.stdin.write(key);
    const end = Date.now() + 500;
    while (app.frames.length === before && Date.now() < end) await turn();
  }
}

export async function type(app: Rendered, text: string): Promise<void> {
  await press(app, ...text);
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** The last frame as plain text. */
export function screen(app: Rendered): string {
  return (app.lastFrame() ?? '').replace(ANSI, '');
}

export function lines(app: Rendered): string[] {
  return screen(app).split('\n');
}

/** Cells a line takes (wide characters count two). */
export function width(line: string): number {
  let n = 0;
  for (const ch of line) n += /[\u1100-\u115f\u2e80-\u9fff\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60\uffe0-\uffe6]/.test(ch) ? 2 : 1;
  return n;
}

/** The status line (the last line drawn). */
export function status(app: Rendered): string {
  const l = lines(app);
  return l[l.length - 1].trimEnd();
}
