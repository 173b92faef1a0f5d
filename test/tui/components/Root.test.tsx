// Loading: progress while the logs are read and merged, then the TUI.
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import type { LoadPhase } from '../../../src/tui/components/Loading.js';
import { loadingLine } from '../../../src/tui/components/Loading.js';
import { Root, type LoadTask, type Ready } from '../../../src/tui/components/Root.js';
import { headerOf, incident } from '../helpers.js';
import { ready, screen } from './harness.js';

function task() {
  const listeners = new Set<(p: LoadPhase) => void>();
  let resolve!: (r: Ready | null) => void;
  const t: LoadTask & { emit(p: LoadPhase): void; done(r: Ready | null): void; aborted: boolean } = {
    phase: { kind: 'reading', done: 0, total: 10 * 1048576 },
    onPhase: (fn) => (listeners.add(fn), () => listeners.delete(fn)),
    promise: new Promise((r) => (resolve = r)),
    aborted: false,
    abort() {
      t.aborted = true;
    },
    emit(p) {
      for (const fn of listeners) fn(p);
    },
    done: (r) => resolve(r),
  };
  return t;
}

describe('loading', () => {
  it('says what it is doing and how far it got', () => {
    expect(loadingLine({ kind: 'reading', done: 3 * 1048576, total: 12 * 1048576 })).toBe('reading logs: 3.0 / 12.0 MB (25%)');
    expect(loadingLine({ kind: 'merging', events: 120000, estimate: 400000 })).toBe('merging the timeline and running the rules: 120,000 events (~30%)');
  });

  it('shows progress, then the TUI as soon as the load is done', async () => {
    const t = task();
    const app = render(<Root task={t} color={false} size={{ columns: 80, rows: 24 }} />);
    try {
      expect(screen(app)).toMatch(/rmq-diag {2}loading\n\nreading logs: 0\.0 \/ 10\.0 MB \(0%\)\n\nq quits/);
      await new Promise((r) => setTimeout(r, 110));
      t.emit({ kind: 'merging', events: 5000, estimate: 10000 });
      await ready();
      expect(screen(app)).toMatch(/merging the timeline and running the rules: 5,000 events \(~50%\)/);
      const { model } = incident();
      t.done({ model, header: headerOf(model) });
      const end = Date.now() + 2000;
      while (!/\[events\]/.test(screen(app)) && Date.now() < end) await ready();
      expect(screen(app)).toMatch(/^rmq-diag {2}2020-12-22 14:00:00/);
      expect(screen(app).split('\n')).toHaveLength(23);
    } finally {
      app.unmount();
    }
  });

  it('q while loading stops the load and quits', async () => {
    const t = task();
    const app = render(<Root task={t} color={false} size={{ columns: 80, rows: 24 }} />);
    await ready();
    app.stdin.write('q');
    await ready();
    expect(t.aborted).toBe(true);
    app.unmount();
  });
});
