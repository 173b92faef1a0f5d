// The detail pane on the bundled sample: the selected record is read again from its file and shown
// whole, its stack trace included, scrolled with PgUp PgDn.
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { parseZone } from '../../../src/parse/time.js';
import { ALL_RULES } from '../../../src/rules/index.js';
import { buildTimeline } from '../../../src/timeline/build.js';
import { App } from '../../../src/tui/components/App.js';
import { loadTimeline } from '../../../src/tui/load.js';
import { TuiModel } from '../../../src/tui/view-model.js';
import { headerOf } from '../../../src/tui/run.js';
import { KEY, press, ready, screen, type Rendered } from './harness.js';
import { allListed } from '../helpers.js';

async function until(app: Rendered, re: RegExp, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!re.test(screen(app)) && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
}

describe('the detail pane on the bundled sample', () => {
  it('shows the whole record of the selected event, stack frames included', async () => {
    const ROOT = join(__dirname, '..', '..', '..');
    const t = await buildTimeline({ inputs: [join(ROOT, 'samples', 'seed-outage')], cwd: ROOT, workers: 0, keepOther: true });
    const loaded = await loadTimeline(t, { rules: ALL_RULES, inMemory: true, sliceMs: 0 });
    const zone = parseZone('+08:00');
    const { store, findings } = loaded!;
    const model = new TuiModel({ store, findings, zone });
    const header = headerOf(t, model, zone);
    t.close();
    // sendKernelImpl exception at line 34 of app-order-01's client log, its stack from line 35.
    let at = -1;
    for (let i = 0; i < store.length && at < 0; i++) {
      if (store.lineAt(i) === 34 && store.fileOf(i).endsWith(join('app-order-01', 'rocketmq_client.log'))) at = i;
    }
    expect(at).toBeGreaterThanOrEqual(0);
    const app = render(
      <App model={model} header={header} color={false} size={{ columns: 80, rows: 24 }} initial={(m, d) => ({ ...allListed(m, d), cursor: at, detail: true })} />,
    );
    try {
      await ready();
      await until(app, /record +lines 34-/);
      let text = screen(app);
      expect(text).toMatch(/record +lines 34-\d+/);
      expect(text).toMatch(/ {2}2020-12-22 14:42:11,044 WARN RocketmqClient - sendKernelImpl exception/);
      expect(text).toMatch(/── detail \(Enter or Esc closes\) PgUp\/PgDn: \d+ more lines/);
      // The frames are further down: PgDn scrolls the pane, not the list.
      await press(app, KEY.pageDown);
      text = screen(app);
      expect(text).toMatch(/^ {2}\\tat org\.apache\.rocketmq\.remoting\.netty\.NettyRemotingAbstract\.invokeSyncImpl\(N\n {2}ettyRemotingAbstract\.java:436\)$/m);
      expect(text).toMatch(/^ {2}\\tat org\.apache\.rocketmq\.remoting\.netty\.NettyRemotingClient\.invokeSync\(/m);
      expect(text).not.toContain('\t');
      expect(text).toMatch(/\[events\] /);
      // Moving to another event starts its text at the top again.
      await press(app, KEY.down);
      expect(screen(app)).toMatch(/── detail \(Enter or Esc closes\)/);
      expect(screen(app)).toMatch(/^\d{4}-\d{2}-\d{2} [\d:.]+ \+08:00 {2}app-order-01/m);
    } finally {
      app.unmount();
      store.close();
    }
  }, 30000);
});
