// NO_COLOR: the TUI draws no colour, only attributes (reverse video for the cursor, bold, dim).
// Colour is forced on for ink before it is loaded, so the frames carry the escapes to look at.
// Only dynamic imports here: ink's colour support is decided when it is first loaded.
import { afterAll, describe, expect, it } from 'vitest';

const saved = process.env.FORCE_COLOR;
process.env.FORCE_COLOR = '1';
afterAll(() => {
  if (saved === undefined) delete process.env.FORCE_COLOR;
  else process.env.FORCE_COLOR = saved;
});

// SGR colour codes (foreground and background), as opposed to attributes like 1, 2, 7.
const COLOUR = /\u001b\[(3[0-79]|9[0-7]|4[0-79]|10[0-7])m/;

describe('colour', () => {
  it('keeps attributes and drops colours without colour', async () => {
    const { segProps } = await import('../../../src/tui/components/StyledLine.js');
    const seg = { text: 'x', color: 'red' as const, bold: true, inverse: true, dim: true, underline: true };
    expect(segProps(seg, false)).toEqual({ color: undefined, bold: true, dimColor: true, inverse: true, underline: true });
    expect(segProps(seg, true).color).toBe('red');
  });

  it('draws colours with colour on, none with NO_COLOR, and the cursor in reverse video either way', async () => {
    const { render } = await import('ink-testing-library');
    const { App } = await import('../../../src/tui/components/App.js');
    const { headerOf, incident } = await import('../helpers.js');
    const { model } = incident();
    const on = render(<App model={model} header={headerOf(model)} size={{ columns: 100, rows: 30 }} color />);
    const off = render(<App model={model} header={headerOf(model)} size={{ columns: 100, rows: 30 }} color={false} />);
    try {
      expect(on.lastFrame()).toMatch(COLOUR);
      expect(off.lastFrame()).not.toMatch(COLOUR);
      expect(off.lastFrame()).toContain('\u001b[7m');
    } finally {
      on.unmount();
      off.unmount();
    }
  });
});
