// The whole TUI, drawn by ink into a fake terminal: the frame is the spec.
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../../src/tui/components/App.js';
import { allListed, headerOf, incident } from '../helpers.js';
import { KEY, lines, press, ready, screen, status, type, width, type Rendered } from './harness.js';

let app: Rendered | null = null;
afterEach(() => {
  app?.unmount();
  app = null;
});

// These tests start with every record listed and the event list focused; what the TUI opens on (the
// findings, the noise hidden) is test/tui/components/opening.test.tsx's. The findings list takes
// lines 2-4 (two findings, the selected one on two lines), the strip 5-10, the list from 11.
async function open(columns: number, rows: number, onQuit?: () => void) {
  const { model } = incident();
  app = render(<App model={model} header={headerOf(model)} size={{ columns, rows }} onQuit={onQuit} initial={allListed} />);
  await ready();
  return app;
}

function expectFits(a: Rendered, columns: number, rows: number) {
  const l = lines(a);
  expect(l.length).toBe(rows - 1);
  for (const line of l) expect(width(line)).toBeLessThanOrEqual(columns);
}

describe('at 80x24', () => {
  it('shows the header, the strip with a row per host and the findings band, the list and the status line', async () => {
    const a = await open(80, 24);
    expectFits(a, 80, 24);
    const l = lines(a);
    expect(l[0]).toMatch(/^rmq-diag {2}2020-12-22 14:00:00 – 14:09:55 \(9 min 55 s\) {2}times in \+08:00/);
    expect(l[1]).toMatch(/^2 findings: 1 critical, 1 warning · 4 hosts · 4 files · 282 events *$/);
    expect(l[2]).toMatch(/^ {2}1 CRIT stale-route {2}app-1 kept using broker-a/);
    expect(l[4]).toMatch(/^ {2}2 WARN broker-down-detection  ns-1 noticed broker-a late/);
    expect(l[5]).toMatch(/^ {9}▼14:00:00 +all · 8\.4 s\/col +14:09:55$/);
    expect(l.slice(6, 10).map((x) => x.slice(0, 9))).toEqual(['app-1    ', 'broker-a ', 'ns-1     ', 'app-2    ']);
    expect(l[10]).toMatch(/^findings +━+ *$/);
    expect(l[11]).toMatch(/^ {2}TIME +HOST +KIND +LEVEL +TYPE +TEXT *$/);
    expect(l[12]).toMatch(/^ {2}14:00:00\.000 app-1 +client INFO +other +order 0 *$/);
    expect(status(a)).toMatch(/^\[events\] 1\/282 .*\? help · q quit$/);
  });

  it('moves with j, k, arrows, pages, g and G, and the strip cursor follows', async () => {
    const a = await open(80, 24);
    await press(a, 'j', 'j', KEY.down);
    expect(status(a)).toMatch(/^\[events\] 4\/282/);
    await press(a, 'k');
    expect(status(a)).toMatch(/^\[events\] 3\/282/);
    await press(a, KEY.pageDown);
    expect(status(a)).toMatch(/^\[events\] 12\/282/);
    await press(a, 'G');
    expect(status(a)).toMatch(/^\[events\] 282\/282/);
    expect(lines(a)[5]).toMatch(/14:09:55▼$/);
    expect(lines(a)[21]).toMatch(/^ {2}14:09:55\.001 broker-a/);
    await press(a, 'g');
    expect(status(a)).toMatch(/^\[events\] 1\/282/);
    await press(a, KEY.right);
    expect(lines(a)[5]).toMatch(/^ {10}▼14:00:10/);
  });

  it('filters with f: the list and the status line say what is listed', async () => {
    const a = await open(80, 24);
    await press(a, 'f');
    expect(status(a)).toMatch(/^filter> █ {2}type:a,b host:glob/);
    await type(a, 'type:rpc-timeout');
    await press(a, KEY.enter);
    expect(status(a)).toMatch(/^\[events\] 1\/40 of 282 · type:rpc-timeout/);
    const rows = lines(a).slice(12, 22);
    for (const r of rows) expect(r).toMatch(/ rpc-timeout +invokeSync: wait response/);
    await press(a, KEY.escape);
    expect(status(a)).toMatch(/^\[events\] filters cleared \(noise hidden: a shows all\)/);
  });

  it('says what is wrong with a filter and keeps it for editing', async () => {
    const a = await open(80, 24);
    await press(a, 'f');
    await type(a, 'type:nope');
    await press(a, KEY.enter);
    expect(status(a)).toMatch(/^filter> type:nope█ {2}filter: unknown event type "nope"/);
    await press(a, KEY.escape);
    expect(status(a)).toMatch(/^\[events\] 1\/282/);
  });

  it('n jumps to the first finding: its evidence listed, its window in the strip, the finding named; Tab, Enter show it in full', async () => {
    const a = await open(80, 24);
    await press(a, 'n');
    expect(status(a)).toMatch(/^\[events\] 1\/40 of 282 · finding 1\/2 stale-route/);
    const l = lines(a);
    expect(l[2]).toMatch(/^▶ 1 CRIT stale-route {2}app-1 kept using broker-a/);
    expect(l[5]).toMatch(/^ {14}▼14:04:00 +zoom 4\.2x · 2\.0 s\/col +14:06:08$/);
    expect(l[10]).toMatch(/^findings +━+ *$/);
    expect(l[12]).toMatch(/^◆ 14:04:00\.002 app-1 .* rpc-timeout/);
    await press(a, KEY.tab, KEY.enter);
    const f = screen(a);
    // Under 40 rows the finding in full takes the findings list's rows too: its title names it.
    expect(f).not.toMatch(/ 2 WARN broker-down-detection +ns-1 noticed broker-a late/);
    expect(f).toMatch(/── finding 1\/2/);
    expect(f).toMatch(/subject +-/);
    expect(f).toMatch(/window +14:04:00\.000 – 14:05:57\.002 \(1 min 57 s\)/);
    expect(f).toMatch(/ {2}failures +40/);
    expect(status(a)).toMatch(/^\[findings\]/);
    await press(a, KEY.down);
    expect(screen(a)).toMatch(/── finding 2\/2/);
    expect(status(a)).toMatch(/1\/1 of 282 · finding 2\/2 broker-down-detection/);
    await press(a, KEY.enter, KEY.tab);
    expect(status(a)).toMatch(/^\[events\] 1\/1 of 282 · finding 2\/2 broker-down-detection/);
    expect(lines(a)[12]).toMatch(/^◆ 14:04:10\.000 ns-1 +nsrv +WARN +broker-expired +The broker channel expired/);
    await press(a, 'N');
    expect(status(a)).toMatch(/finding 1\/2 stale-route/);
  });

  it('Enter opens the detail pane: text, fields, file:line and the finding it is evidence for', async () => {
    const a = await open(80, 24);
    await press(a, 'n', KEY.enter);
    expectFits(a, 80, 24);
    const f = screen(a);
    expect(f).toMatch(/── detail \(Enter or Esc closes\)/);
    expect(f).toMatch(/2020-12-22 14:04:00\.002 \+08:00 {2}app-1 {2}client {2}WARN {2}rpc-timeout/);
    expect(f).toMatch(/where +inc\/app-1\/rocketmq_client\.log:\d+/);
    expect(f).toMatch(/text +2020-12-22 14:04:00,000 WARN RocketmqRemoting - invokeSync: wait/);
    expect(f).toMatch(/fields +addr=10\.0\.0\.1:10911 {2}timeoutMs=3000/);
    expect(f).toMatch(/evidence for/);
    expect(f).toMatch(/ {2}1\. CRIT stale-route {2}app-1 kept using broker-a/);
    await press(a, KEY.escape);
    expect(screen(a)).not.toMatch(/── detail/);
  });

  it('searches with /, highlights the match, and ] finds the next one', async () => {
    const a = await open(80, 24);
    await press(a, '/');
    await type(a, 'S=249');
    await press(a, KEY.enter);
    expect(status(a)).toMatch(/^\[events\] \d+\/282 · \/S=249/);
    // The match is past what the text column shows: the row shows the text around it.
    expect(screen(a)).toMatch(/ rpc-timeout +….*s=249 *\n/);
    await press(a, '/');
    await type(a, 'expired');
    await press(a, KEY.enter);
    expect(screen(a)).toMatch(/broker-expired/);
    await press(a, ']');
    expect(status(a)).toMatch(/search wrapped: "expired"/);
  });

  it('? shows every key; any key closes it', async () => {
    const a = await open(80, 24);
    await press(a, '?');
    const f = screen(a);
    expect(f).toMatch(/^rmq-diag tui: keys/);
    for (const k of ['↑ ↓  j k', 'PgUp PgDn', 'Home End  g G', '+ -', 'n N', '/', 'f', 'Tab', 'Enter', 'q  ctrl-c']) expect(f).toContain(k);
    expectFits(a, 80, 24);
    await press(a, 'x');
    expect(status(a)).toMatch(/^\[events\]/);
  });

  it('takes keys that arrive together (key repeat, a paste) one by one', async () => {
    const a = await open(80, 24);
    await press(a, 'jjj');
    expect(status(a)).toMatch(/^\[events\] 4\/282/);
    await press(a, 'ftype:startup\r');
    expect(status(a)).toMatch(/^\[events\] nothing matches the filter/);
  });

  it('q quits', async () => {
    const onQuit = vi.fn();
    const a = await open(80, 24, onQuit);
    a.stdin.write('q');
    await ready();
    expect(onQuit).toHaveBeenCalledOnce();
  });
});

describe('resizing', () => {
  it('at 120 columns puts the findings pane beside the list, the detail pane when open', async () => {
    const a = await open(120, 30);
    expectFits(a, 120, 30);
    const l = lines(a);
    expect(l[11]).toMatch(/^ {2}TIME .*│── finding 1\/2/);
    expect(l[12]).toMatch(/│CRIT {2}stale-route/);
    await press(a, KEY.enter);
    expect(lines(a)[11]).toMatch(/│── detail/);
  });

  it('reflows when the terminal changes size', async () => {
    const { model } = incident();
    const a = (app = render(<App model={model} header={headerOf(model)} initial={allListed} />));
    await ready();
    const out = a.stdout as unknown as { columns: number; rows: number; emit(e: string): void };
    const resize = async (columns: number, rows: number) => {
      Object.defineProperty(out, 'columns', { value: columns, configurable: true });
      Object.defineProperty(out, 'rows', { value: rows, configurable: true });
      out.emit('resize');
      const end = Date.now() + 2000;
      while (lines(a).length !== Math.max(rows - 1, 1) && !/too small|needs at least/.test(screen(a)) && Date.now() < end) await ready();
    };
    await resize(120, 30);
    expectFits(a, 120, 30);
    expect(lines(a)[11]).toContain('│');
    await resize(80, 24);
    expectFits(a, 80, 24);
    expect(lines(a)[11]).not.toContain('│');
    await resize(40, 10);
    expect(screen(a).replace(/\s+/g, ' ')).toMatch(/The terminal is 40x10: rmq-diag tui needs at least 60x16/);
  });

  it('keeps the selected row on screen when the list gets shorter', async () => {
    const { model } = incident();
    const a = (app = render(<App model={model} header={headerOf(model)} size={{ columns: 120, rows: 40 }} initial={allListed} />));
    await ready();
    await press(a, ...Array(25).fill('j'));
    expect(status(a)).toMatch(/26\/282/);
    a.rerender(<App model={model} header={headerOf(model)} size={{ columns: 80, rows: 24 }} initial={allListed} />);
    await ready();
    expectFits(a, 80, 24);
    expect(screen(a)).toMatch(/14:01:00\.001 broker-a/);
  });
});
