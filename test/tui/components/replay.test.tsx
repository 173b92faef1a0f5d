// The replay tab: the verdict, observed and simulated lanes with milestones marked, the milestone
// list and the outages; with a stubbed replay at 80x24 and 120x40, and the real one on the sample.
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { ALL_RULES } from '../../../src/rules/index.js';
import { parseZone } from '../../../src/parse/time.js';
import { buildTimeline } from '../../../src/timeline/build.js';
import { App } from '../../../src/tui/components/App.js';
import { loadTimeline } from '../../../src/tui/load.js';
import { TuiModel } from '../../../src/tui/view-model.js';
import type { ReplayStatus } from '../../../src/tui/replay-status.js';
import { startReplay } from '../../../src/tui/replay-run.js';
import { headerOf as runHeaderOf } from '../../../src/tui/run.js';
import { headerOf, incident, stubView } from '../helpers.js';
import { KEY, lines, press, ready, screen, status, width } from './harness.js';

async function until(app: ReturnType<typeof render>, re: RegExp, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!re.test(screen(app)) && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
}

describe('the replay tab (stubbed replay)', () => {
  for (const [columns, rows] of [
    [80, 24],
    [120, 40],
  ] as const) {
    it(`shows the verdict, lanes with marks, milestones and outages at ${columns}x${rows}`, async () => {
      const { model } = incident();
      let settle!: (s: ReplayStatus) => void;
      const replay = new Promise<ReplayStatus>((r) => (settle = r));
      const app = render(<App model={model} header={headerOf(model)} color={false} size={{ columns, rows }} replay={replay} />);
      try {
        await ready();
        await press(app, 'r');
        expect(screen(app)).toMatch(/replay {2}replaying…/);
        expect(status(app)).toMatch(/^\[replay\]/);
        settle({ kind: 'done', view: stubView(model) });
        await until(app, /not reproduced/);
        const f = lines(app);
        expect(f).toHaveLength(rows - 1);
        for (const l of f) expect(width(l)).toBeLessThanOrEqual(columns);
        expect(f[2]).toMatch(/^replay {2}not reproduced: outage-end app-1: \+40 s off/);
        // The axis is the strip's: the window's start and end.
        expect(f[3]).toMatch(/14:00:00.*14:09:5\d/);
        const host = f.findIndex((l) => l.startsWith('app-1 '));
        expect(host).toBeGreaterThan(3);
        expect(f[host + 1]).toMatch(/^ {2}sim /);
        // first-failure at minute 4 on app-1: marked on both lanes, at the same column.
        const obsCol = f[host].indexOf('◆');
        expect(obsCol).toBeGreaterThan(13);
        expect(f[host + 1].indexOf('◆')).toBe(obsCol);
        // outage-end diverged by 40 s: a mark further right on the simulated lane.
        expect(f[host + 1].lastIndexOf('◆')).toBeGreaterThan(f[host].lastIndexOf('◆'));
        const text = f.join('\n');
        expect(text).toMatch(/── milestones: observed vs simulated/);
        expect(text).toMatch(/◆ first-failure +app-1 +14:04:00\.002 +14:04:00\.502 +\+500 ms +ok/);
        if (rows >= 40) {
          expect(text).toMatch(/◆ outage-end +app-1 +14:05:57\.002 +14:06:37\.002 +\+40 s +diverged/);
          expect(text).toMatch(/outage +observed +simulated/);
          expect(text).toMatch(/app-1 +1 min 57 s \(40 failed\) +2 min 37 s \(52 failed\)/);
        } else {
          // The text scrolls under the lanes.
          expect(text).toMatch(/more lines\)/);
          await press(app, 'G');
          expect(screen(app)).toMatch(/app-1 +1 min 57 s \(40 failed\) +2 min 37 s \(52 failed\)/);
          await press(app, 'g');
          expect(screen(app)).toMatch(/diverged {2}outage-end app-1/);
        }
        await press(app, 'r');
        expect(status(app)).toMatch(/^\[events\]/);
      } finally {
        app.unmount();
      }
    });
  }

  it('Tab cycles through it; a failed replay says why in one line; ? lists r', async () => {
    const { model } = incident();
    const app = render(
      <App model={model} header={headerOf(model)} color={false} size={{ columns: 80, rows: 24 }} replay={Promise.resolve({ kind: 'failed', reason: 'no NameServer address in the logs' })} />,
    );
    try {
      await ready();
      // It opens on the findings; Tab: the event list, the replay tab, the findings again.
      expect(status(app)).toMatch(/^\[findings\]/);
      await press(app, KEY.tab);
      expect(status(app)).toMatch(/^\[events\]/);
      await press(app, KEY.tab);
      expect(status(app)).toMatch(/^\[replay\]/);
      await until(app, /cannot replay/);
      expect(lines(app)[2]).toBe('replay  cannot replay: no NameServer address in the logs');
      await press(app, KEY.tab);
      expect(status(app)).toMatch(/^\[findings\]/);
      await press(app, '?');
      expect(screen(app)).toMatch(/\n {2}r +replay tab: observed vs simulated lanes, milestones/);
    } finally {
      app.unmount();
    }
  });

  it('without a replay there is no tab: r says so, Tab skips it', async () => {
    const { model } = incident();
    const app = render(<App model={model} header={headerOf(model)} color={false} size={{ columns: 80, rows: 24 }} />);
    try {
      await ready();
      await press(app, 'r');
      expect(status(app)).toMatch(/^\[findings\] no replay here/);
      await press(app, KEY.tab, KEY.tab);
      expect(status(app)).toMatch(/^\[findings\]/);
    } finally {
      app.unmount();
    }
  });
});

describe('the replay tab on the bundled sample', () => {
  it('runs the real replay after the TUI loader and shows it reproduced', async () => {
    const ROOT = join(__dirname, '..', '..', '..');
    const build = { inputs: [join(ROOT, 'samples', 'seed-outage')], cwd: ROOT, workers: 0 };
    const t = await buildTimeline({ ...build, keepOther: true });
    const loaded = await loadTimeline(t, { rules: ALL_RULES, inMemory: true, sliceMs: 0 });
    const zone = parseZone('+08:00');
    const model = new TuiModel({ store: loaded!.store, findings: loaded!.findings, zone });
    const header = runHeaderOf(t, model, zone);
    t.close();
    const task = startReplay(build, zone.name);
    const app = render(<App model={model} header={header} color={false} size={{ columns: 120, rows: 40 }} replay={task.promise} />);
    try {
      await ready();
      await press(app, 'r');
      await until(app, /reproduced/, 20000);
      const text = screen(app);
      expect(lines(app)[2]).toMatch(/^replay {2}reproduced: 12 milestones within tolerance · seed 1/);
      expect(text).toMatch(/^mq-node-100 .*◆/m);
      expect(text).toMatch(/◆ fault-start +mq-node-100 unreachable +14:42:00\.000 +14:42:00\.000 +0 ms +ok/);
      expect(text).toMatch(/app-order-01 +11 min \(72 failed\) +11 min 24 s \(145 failed\)/);
    } finally {
      app.unmount();
      loaded!.store.close();
    }
  }, 30000);
});
