// What the TUI opens on: the findings (the first one selected, its title whole), the events that
// matter under them (noise hidden, `a` shows all), and after `n` the screen names the finding.
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../../src/tui/components/App.js';
import { DEFAULT_FILTER, NO_FILTER } from '../../../src/tui/view-model.js';
import { T0, ev, finding, headerOf, incident, modelOf, resetLines, sorted } from '../helpers.js';
import { KEY, lines, press, ready, screen, status, type Rendered } from './harness.js';

let app: Rendered | null = null;
afterEach(() => {
  app?.unmount();
  app = null;
});

describe('the opening screen', () => {
  it('is the findings, the first selected, over the events that matter', async () => {
    const { model } = incident();
    app = render(<App model={model} header={headerOf(model)} size={{ columns: 80, rows: 24 }} />);
    await ready();
    const l = lines(app);
    expect(l[1]).toMatch(/^2 findings: 1 critical, 1 warning/);
    // The first finding is selected (the keys are on the findings) and whole.
    expect(l[2]).toMatch(/^ {2}1 CRIT stale-route +app-1 kept using broker-a/);
    expect(l[4]).toMatch(/^ {2}2 WARN broker-down-detection/);
    expect(status(app)).toMatch(/^\[findings\] 1\/162 of 282 · noise hidden \(a: all\)/);
    // The 120 `other` records (application lines) are noise: none is listed.
    expect(screen(app)).not.toMatch(/ other +order \d+/);
    expect(l[12]).toMatch(/^ {2}14:00:00\.001 broker-a +broker - +watermark/);

    await press(app, 'a');
    expect(status(app)).toMatch(/^\[findings\] all records listed \(a hides the noise\)/);
    expect(screen(app)).toMatch(/ other +order \d+/);
    // ↓ in the findings: the next finding, its evidence listed and named.
    await press(app, 'j');
    expect(status(app)).toMatch(/^\[findings\] 1\/1 of 282 · finding 2\/2 broker-down-detection /);
  });

  it('after n, names the finding whose evidence is listed', async () => {
    const { model } = incident();
    app = render(<App model={model} header={headerOf(model)} size={{ columns: 80, rows: 24 }} />);
    await ready();
    await press(app, 'n');
    expect(status(app)).toMatch(/^\[findings\] 1\/40 of 282 · finding 1\/2 stale-route · noise hidden/);
    expect(lines(app)[2]).toMatch(/^▶ 1 CRIT stale-route/);
    await press(app, KEY.enter);
    expect(screen(app)).toMatch(/── finding 1\/2/);
    await press(app, KEY.escape);
    expect(screen(app)).not.toMatch(/── finding 1\/2/);
  });

  it('opens on the event list when there is no finding', async () => {
    resetLines();
    const model = modelOf([ev({ at: 0, type: 'startup' })]);
    app = render(<App model={model} header={headerOf(model)} size={{ columns: 80, rows: 24 }} />);
    await ready();
    expect(status(app)).toMatch(/^\[events\] 1\/1/);
    expect(lines(app)[1]).toMatch(/^no findings · 1 host/);
  });
});

describe('noise', () => {
  it('hides idle watermark rows (SlowTimeMills 0) and other records, keeps the ones where a request waited', () => {
    resetLines();
    const events = sorted([
      ev({ at: 0, host: 'b', kind: 'watermark', type: 'watermark', fields: { queue: 'Send', size: 0, slowMs: 0 } }),
      ev({ at: 1, host: 'b', kind: 'watermark', type: 'watermark', fields: { queue: 'Pull', size: 3, slowMs: 0 } }),
      ev({ at: 2, host: 'b', kind: 'watermark', type: 'watermark', fields: { queue: 'Send', size: 41, slowMs: 380 } }),
      ev({ at: 3, host: 'a', type: 'other' }),
      ev({ at: 4, host: 'a', type: 'busy-reply', level: 'WARN' }),
    ]);
    const model = modelOf(events, [finding({ rule: 'broker-busy', start: T0, end: T0 + 4 })]);
    const listed = (f: typeof NO_FILTER) => {
      const rows = model.rows(f);
      return Array.from({ length: rows.length }, (_, i) => model.store.get(rows.at(i)));
    };
    expect(listed(NO_FILTER)).toHaveLength(5);
    const quiet = listed(DEFAULT_FILTER);
    expect(quiet.map((e) => [e.type, e.fields.slowMs ?? null])).toEqual([
      ['watermark', 380],
      ['busy-reply', null],
    ]);
    expect(model.initial({ listRows: 10, stripCols: 50 })).toMatchObject({ focus: 'findings', finding: 0, filter: DEFAULT_FILTER });
  });
});

describe('the opening screen of a real incident', () => {
  it('sums the incident up first: its title, causes and hurt clients, then the findings', async () => {
    const { join } = await import('node:path');
    const { ALL_RULES } = await import('../../../src/rules/index.js');
    const { buildTimeline } = await import('../../../src/timeline/build.js');
    const { loadTimeline } = await import('../../../src/tui/load.js');
    const { TuiModel } = await import('../../../src/tui/view-model.js');
    const { incidentPass } = await import('../../../src/diagnosis/diagnose.js');
    const { headerOf: headerOfTimeline } = await import('../../../src/tui/run.js');
    const root = join(__dirname, '..', '..', '..');
    const t = await buildTimeline({ inputs: [join(root, 'samples', 'seed-outage')], keepOther: 'inference', cwd: root, workers: 0 });
    const pass = incidentPass(t);
    const loaded = (await loadTimeline(t, { rules: ALL_RULES, observer: pass, otherInStore: false, inMemory: true, sliceMs: 0 }))!;
    const model = new TuiModel({ store: loaded.store, findings: loaded.findings, incidents: pass.finish(loaded.findings), zone: t.defaultZone });
    const header = headerOfTimeline(t, model, t.defaultZone);
    t.close();
    try {
      // At 80x30 there is room for the incident unfolded.
      app = render(<App model={model} header={header} size={{ columns: 80, rows: 30 }} />);
      await ready();
      let l = lines(app);
      // Its logs show no connection completing while it was silent: a frozen host and a power loss
      // look alike, so the cause is one reboot from the start of the silence.
      expect(l[2]).toMatch(/^INCIDENT 1 {2}mq-node-100 went dark for 11 min 38 s/);
      expect(l[3]).toMatch(/^ {2}cause {4}14:42:00 – 14:53:50 {2}mq-node-100 rebooted/);
      expect(l[4]).toMatch(/^ {2}impact {3}app-order-01 {2}72 sends lost/);
      expect(l[5]).toMatch(/^ {11}app-pay-01 {4}11 sends lost/);
      expect(l[6]).toMatch(/^ {2}1 CRIT stale-route/);
      for (const x of l) expect(x.length).toBeLessThanOrEqual(80);
      app.unmount();
      // At 80x24 it is folded to its title, which says how to unfold it; `i` does, and folds it again.
      app = render(<App model={model} header={header} size={{ columns: 80, rows: 24 }} />);
      await ready();
      l = lines(app);
      expect(l[2]).toMatch(/^INCIDENT 1 {2}mq-node-100 went dark for 11 min 38 s .*… {2}i: cause, impact$/);
      expect(l[3]).toMatch(/^ {2}1 CRIT stale-route/);
      expect(screen(app)).not.toMatch(/^ {2}cause /m);
      await press(app, 'i');
      l = lines(app);
      expect(l[3]).toMatch(/^ {2}cause {4}14:42:00 – 14:53:50 {2}mq-node-100 rebooted/);
      expect(l[4]).toMatch(/^ {2}impact {3}app-order-01 {2}72 sends lost/);
      for (const x of l) expect(x.length).toBeLessThanOrEqual(80);
      await press(app, 'i');
      expect(lines(app)[3]).toMatch(/^ {2}1 CRIT stale-route/);
      expect(status(app)).toMatch(/^\[findings\] 1\//);
    } finally {
      loaded.store.close();
    }
  });
});
