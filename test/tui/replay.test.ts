// The replay tab's view model, without ink: lanes and marks, the text, the state and the keys.
import { describe, expect, it } from 'vitest';
import { keyAction } from '../../src/tui/keys.js';
import type { Action, Dims, TuiModel, ViewState } from '../../src/tui/view-model.js';
import {
  MARK_BAD,
  MARK_NONE,
  MARK_OK,
  maxLanePairs,
  replayLanes,
  replayText,
  verdictLine,
} from '../../src/tui/replay.js';
import { replayTextRows, type ReplayStatus } from '../../src/tui/replay-status.js';
import { T0, ZONE, allListed, incident, stubView } from './helpers.js';

const DIMS: Dims = { listRows: 10, stripCols: 100, replayRows: 5 };
const run = (model: TuiModel, actions: Action[], s: ViewState = allListed(model, DIMS)) => actions.reduce((x, a) => model.reduce(x, a, DIMS), s);
const text = (l: ReturnType<typeof verdictLine>) => l.map((s) => s.text).join('').trimEnd();

describe('replay lanes', () => {
  it('counts observed and simulated RocketMQ events per host and bucket, and marks milestones on both', () => {
    const { model } = incident();
    const view = stubView(model);
    const lanes = replayLanes(model, view, T0, T0 + 600000, 60, 8);
    expect(lanes.labels).toEqual(model.store.hosts);
    const app = lanes.labels.indexOf('app-1');
    const broker = lanes.labels.indexOf('broker-a');
    // app-1 logs only `other` records before minute 4 (not counted), rpc-timeouts from minute 4 to 6.
    expect(lanes.observed[app][10]).toBe(0);
    expect(lanes.observed[app][30]).toBeGreaterThan(0);
    expect(lanes.simulated[app][10]).toBeGreaterThan(0);
    expect(lanes.simulated[broker][0]).toBeGreaterThan(0);
    // first-failure (ok) at 240 s: column 24 on both; outage-end (diverged) at 357 s and 397 s.
    expect(lanes.observedMarks[app][24]).toBe(MARK_OK);
    expect(lanes.simulatedMarks[app][24]).toBe(MARK_OK);
    expect(lanes.observedMarks[app][35]).toBe(MARK_BAD);
    expect(lanes.simulatedMarks[app][39]).toBe(MARK_BAD);
    expect(lanes.simulatedMarks[app][35]).toBe(MARK_NONE);
    // Not simulated: marked on the observed lane of ns-1 only.
    const ns = lanes.labels.indexOf('ns-1');
    expect(lanes.observedMarks[ns][25]).toBe(MARK_BAD);
    expect([...lanes.simulatedMarks[ns]].every((m) => m === MARK_NONE)).toBe(true);
  });

  it('shares a row among the hosts beyond the room, and follows the window', () => {
    const { model } = incident();
    const view = { ...stubView(model), simHosts: ['app-1', 'broker-a', 'sim-only'] };
    const lanes = replayLanes(model, view, T0, T0 + 600000, 10, 2);
    expect(lanes.labels).toEqual([model.store.hosts[0], '+4 hosts']);
    const zoomed = replayLanes(model, view, T0 + 240000, T0 + 250000, 10, 8);
    expect(zoomed.observedMarks[zoomed.labels.indexOf('app-1')][0]).toBe(MARK_OK);
    expect(maxLanePairs(20)).toBe(5);
    expect(maxLanePairs(10)).toBe(1);
  });
});

describe('replay text', () => {
  it('says the verdict, why it cannot run, or that it is under way, in one line', () => {
    const { model } = incident();
    expect(text(verdictLine({ kind: 'running' }, 80))).toMatch(/^replay {2}replaying…/);
    expect(text(verdictLine({ kind: 'failed', reason: 'no broker in the logs' }, 80))).toBe('replay  cannot replay: no broker in the logs');
    expect(text(verdictLine({ kind: 'done', view: stubView(model) }, 200))).toBe(
      'replay  not reproduced: outage-end app-1: +40 s off (tolerance 11.7 s) (+1 more) · seed 1',
    );
    const ok = { ...stubView(model), verdict: 'reproduced' as const, divergences: [] };
    expect(text(verdictLine({ kind: 'done', view: ok }, 200))).toBe('replay  reproduced: 2 milestones within tolerance · seed 1');
    // Clients with no failed send in the logs or the run count in the verdict, as the text report says.
    expect(text(verdictLine({ kind: 'done', view: { ...ok, unharmed: 2 } }, 200))).toBe('replay  reproduced: 2 milestones within tolerance, 2 clients with no failed send as in the logs · seed 1');
  });

  it('lists the milestones (observed, simulated, delta, status) and the outages', () => {
    const { model } = incident();
    const status: ReplayStatus = { kind: 'done', view: stubView(model) };
    const lines = replayText(status, 120, ZONE, true).map(text);
    expect(lines).toHaveLength(replayTextRows(status));
    expect(lines).toContainEqual(expect.stringMatching(/^◆ namesrv-removal +10\.0\.0\.9:9876 removes broker-a +14:04:10\.000 +- +not simulated$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}app-2 +0 ms \(1 failed\) +no failed send$/));
    expect(lines[0]).toBe('diverged  outage-end app-1: +40 s off (tolerance 11.7 s)');
    expect(replayText({ kind: 'running' }, 80, ZONE, true)).toEqual([]);
  });
});

describe('replay state and keys', () => {
  it('Tab cycles through the replay tab once there is one; r goes there and back', () => {
    const { model } = incident();
    // From the event list: findings, then the list again; with a replay, the replay tab after the list.
    expect(run(model, [{ type: 'focus' }, { type: 'focus' }]).focus).toBe('events');
    const s = run(model, [{ type: 'replay', status: { kind: 'running' } }]);
    expect(run(model, [{ type: 'focus' }], s).focus).toBe('replay');
    expect(run(model, [{ type: 'focus' }, { type: 'focus' }], s).focus).toBe('findings');
    expect(run(model, [{ type: 'focus' }, { type: 'focus' }, { type: 'focus' }], s).focus).toBe('events');
    expect(run(model, [{ type: 'focus', pane: 'replay' }]).message).toBe('no replay here');
    expect(keyAction(s, 'r', {})).toEqual({ type: 'focus', pane: 'replay' });
    const onTab = run(model, [{ type: 'focus', pane: 'replay' }], s);
    expect(keyAction(onTab, 'r', {})).toEqual({ type: 'focus', pane: 'events' });
    expect(keyAction(onTab, '', { escape: true })).toEqual({ type: 'focus', pane: 'events' });
    expect(keyAction(onTab, 'j', {})).toEqual({ type: 'scrollReplay', by: 1 });
    expect(keyAction(onTab, 'G', { shift: true })).toEqual({ type: 'scrollReplay', by: Infinity });
    // The result arrives: shown, scrolled within the text.
    const done = run(model, [{ type: 'replay', status: { kind: 'done', view: stubView(model) } }], onTab);
    expect(done).toMatchObject({ focus: 'replay', replayScroll: 0 });
    const max = replayTextRows(done.replay) - DIMS.replayRows!;
    expect(run(model, [{ type: 'scrollReplay', by: Infinity }], done).replayScroll).toBe(max);
    expect(run(model, [{ type: 'scrollReplay', by: 3 }, { type: 'scrollReplay', by: -10 }], done).replayScroll).toBe(0);
    // PgDn PgUp: by the rows the tab's text shows.
    expect(keyAction(onTab, '', { pageDown: true })).toEqual({ type: 'scrollReplay', by: 1, unit: 'page' });
    expect(keyAction(onTab, 'b', { ctrl: true })).toEqual({ type: 'scrollReplay', by: -1, unit: 'page' });
    const page = DIMS.replayRows!;
    expect(max).toBeGreaterThan(page);
    expect(run(model, [{ type: 'scrollReplay', by: 1, unit: 'page' }], done).replayScroll).toBe(page);
    expect(run(model, [{ type: 'scrollReplay', by: 1, unit: 'page' }, { type: 'scrollReplay', by: -1, unit: 'page' }], done).replayScroll).toBe(0);
  });
});

describe('replayFromLogs', () => {
  it('says in one line why inputs cannot be replayed', async () => {
    const { join } = await import('node:path');
    const { replayFromLogs } = await import('../../src/tui/replay-run.js');
    const ROOT = join(__dirname, '..', '..');
    const one = await replayFromLogs({ inputs: [join(ROOT, 'samples', 'seed-outage', 'mq-node-101')], cwd: ROOT, workers: 0 }, '+08:00');
    expect(one).toEqual({ kind: 'failed', reason: expect.stringMatching(/^no producer client in the logs/) });
    const stdin = await replayFromLogs({ inputs: ['-'] }, '+08:00');
    expect(stdin).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/stdin/) });
  });

  it('refuses two recordings given together with the check rmq-diag replay makes', async () => {
    const { join } = await import('node:path');
    const { cpSync, mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { replayFromLogs } = await import('../../src/tui/replay-run.js');
    const dir = mkdtempSync(join(tmpdir(), 'rmq-diag-tui-two-'));
    try {
      // One cluster recorded twice: the same hosts on the same addresses, which the scenario's
      // checks alone cannot tell from one recording; the words are rmq-diag replay's (twoIncidents).
      for (const d of ['a', 'b']) cpSync(join(__dirname, '..', '..', 'samples', 'seed-outage'), join(dir, d), { recursive: true });
      const inputs = [join(dir, 'a'), join(dir, 'b')];
      const two = await replayFromLogs({ inputs, workers: 0 }, '+08:00');
      expect(two).toEqual({ kind: 'failed', reason: expect.stringMatching(new RegExp(`^${inputs[0]} and ${inputs[1]} both hold \\S+ of host \\S+: they are two recordings or incidents; replay one incident at a time$`)) });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
