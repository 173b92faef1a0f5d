import { afterEach, describe, expect, it, vi } from 'vitest';
import { progressOn } from '../../src/cli/progress.js';

function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  return { isTTY, writes, write: (s: string) => (writes.push(s), true) } as unknown as NodeJS.WriteStream & { writes: string[] };
}

describe('progress on stderr', () => {
  afterEach(() => vi.useRealTimers());

  it('stays quiet for the first second, then shows MB and percent, and clears its line', () => {
    vi.useFakeTimers();
    const s = fakeStream(true);
    const p = progressOn(s);
    p.update(10 << 20, 100 << 20);
    expect(s.writes).toEqual([]);
    vi.advanceTimersByTime(1500);
    p.update(50 << 20, 100 << 20);
    expect(s.writes.join('')).toMatch(/reading 50\/100 MB 50%/);
    p.clear();
    expect(s.writes[s.writes.length - 1]).toBe('\r\u001b[2K');
  });

  it('never writes when stderr is not a terminal or progress is off', () => {
    vi.useFakeTimers();
    for (const [tty, on] of [[false, true], [true, false]] as const) {
      const s = fakeStream(tty);
      const p = progressOn(s, on);
      vi.advanceTimersByTime(5000);
      p.update(1, 2);
      p.clear();
      expect(s.writes).toEqual([]);
    }
  });
});
