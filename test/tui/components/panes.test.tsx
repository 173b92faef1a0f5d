// The small components on their own: each one's frame at 80 and at 120 columns.
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { DetailPane } from '../../../src/tui/components/DetailPane.js';
import { FindingsList, FindingText } from '../../../src/tui/components/FindingsPane.js';
import { Header } from '../../../src/tui/components/Header.js';
import { Help } from '../../../src/tui/components/Help.js';
import { StatusLine } from '../../../src/tui/components/StatusLine.js';
import { TimeStrip } from '../../../src/tui/components/TimeStrip.js';
import { EventList } from '../../../src/tui/components/EventList.js';
import { NO_FILTER } from '../../../src/tui/view-model.js';
import { ZONE, allListed, headerOf, incident } from '../helpers.js';
import { width, type Rendered } from './harness.js';

let app: Rendered | null = null;
afterEach(() => {
  app?.unmount();
  app = null;
});
const frame = (el: React.ReactElement) => {
  app = render(el);
  return app.lastFrame() ?? '';
};

describe('Header', () => {
  it.each([80, 120])('says the window, the zone, the findings by severity, hosts, files and events at %i columns', (cols) => {
    const { model } = incident();
    const f = frame(<Header info={headerOf(model)} width={cols} />).split('\n');
    expect(f).toHaveLength(2);
    expect(f[0]).toMatch(/^rmq-diag {2}2020-12-22 14:00:00 – 14:09:55 \(9 min 55 s\) {2}times in \+08:00 *$/);
    // No finding's title here: the findings list under the header has them whole.
    expect(f[1]).toMatch(/^2 findings: 1 critical, 1 warning · 4 hosts · 4 files · 282 events *$/);
    for (const l of f) expect(width(l)).toBeLessThanOrEqual(cols);
  });
});

describe('TimeStrip', () => {
  it('has the axis, a row per host and the findings band, as wide as asked', () => {
    const { model } = incident();
    const s = model.initial({ listRows: 10, stripCols: 71 });
    const f = frame(<TimeStrip view={model.strip(s, 71, 8)} labelWidth={8} width={80} zone={ZONE} sameDay />).split('\n');
    expect(f).toHaveLength(6);
    expect(f.map((l) => l.slice(0, 9))).toEqual(['         ', 'app-1    ', 'broker-a ', 'ns-1     ', 'app-2    ', 'findings ']);
    for (const l of f) expect(width(l)).toBeLessThanOrEqual(80);
    expect(f[5]).toMatch(/━{10,}/);
  });
});

describe('EventList', () => {
  it.each([80, 120])('draws only the rows asked for, under a column header, at %i columns', (cols) => {
    const { model } = incident();
    const s = allListed(model, { listRows: 5, stripCols: 50 });
    const rows = model.visible(s, { listRows: 5, stripCols: 50 });
    const f = frame(<EventList model={model} rows={rows} cursor={s.cursor} focused search="" width={cols} height={5} zone={ZONE} sameDay hostWidth={8} />).split('\n');
    expect(f).toHaveLength(6);
    expect(f[0]).toMatch(/^ {2}TIME +HOST +KIND +LEVEL +TYPE +TEXT/);
    expect(f[1]).toMatch(/^ {2}14:00:00\.000 app-1 +client INFO +other +order 0/);
    expect(f[2]).toMatch(/^ {2}14:00:00\.001 broker-a +broker - +watermark/);
    for (const l of f) expect(width(l)).toBeLessThanOrEqual(cols);
  });

  it('says so when nothing is listed', () => {
    const { model } = incident();
    const f = frame(<EventList model={model} rows={[]} cursor={-1} focused search="" width={80} height={3} zone={ZONE} sameDay hostWidth={8} />);
    expect(f).toMatch(/no events listed: Esc clears the filters/);
  });
});

describe('DetailPane', () => {
  it('shows the whole record, escaped, and the finding it is evidence for', () => {
    const { model, events } = incident();
    const i = events.findIndex((e) => e.type === 'send-failed');
    const f = frame(<DetailPane event={model.store.get(i)} findings={[{ index: 0, finding: model.findings[0] }]} zone={ZONE} width={80} height={12} />);
    expect(f).toMatch(/2020-12-22 14:05:00\.000 \+08:00 {2}app-2 {2}client {2}ERROR {2}send-failed/);
    expect(f).toMatch(/where +inc\/app-2\/rocketmq_client\.log:1/);
    expect(f.replace(/\s+/g, ' ')).toContain('send failed: 中文消息 \\x1b[31mred\\x1b[0m');
    expect(f).not.toContain('\u001b');
    expect(f).toMatch(/ {2}1\. CRIT stale-route {2}app-1 kept using broker-a/);
    expect(f.split('\n')).toHaveLength(12);
  });

  it('cuts what does not fit and says so', () => {
    const { model } = incident();
    const f = frame(<DetailPane event={model.store.get(0)} findings={[]} zone={ZONE} width={60} height={3} />).split('\n');
    expect(f).toHaveLength(3);
    // The title says how many lines are below; the other rows are all text.
    expect(f[0]).toMatch(/PgUp\/PgDn: \d+ more lines/);
    expect(f[1]).toMatch(/^2020-12-22 14:00:00\.000/);
    expect(f[2]).not.toBe('…');
  });
});

describe('FindingsList', () => {
  it.each([80, 47])('lists the findings, the selected one whole on two lines, at %i columns', (cols) => {
    const { model } = incident();
    const l = frame(<FindingsList findings={model.findings} selected={0} listed={null} focused width={cols} height={3} />).split('\n');
    expect(l).toHaveLength(3);
    expect(l[0]).toMatch(/^ {2}1 CRIT stale-route/);
    expect(`${l[0]} ${l[1]}`.replace(/\s+/g, ' ')).toMatch(/app-1 kept using broker-a/);
    expect(l[2]).toMatch(/^ {2}2 WARN broker-down-detection/);
    for (const x of l) expect(width(x)).toBeLessThanOrEqual(cols);
  });

  it('marks the finding whose evidence is listed, and says how many more there are', () => {
    const { model } = incident();
    const many = [...model.findings, ...model.findings, ...model.findings];
    const l = frame(<FindingsList findings={many} selected={1} listed={1} focused={false} width={80} height={4} />).split('\n');
    expect(l[0]).toMatch(/^▶ 2 WARN broker-down-detection/);
    expect(l[2]).toMatch(/^ {2}3 CRIT stale-route/);
    expect(l[3]).toMatch(/^ {3}4 more: ↑ ↓ in the findings/);
  });
});

describe('FindingText', () => {
  it.each([80, 47])('shows the selected finding in full at %i columns', (cols) => {
    const { model } = incident();
    const f = frame(<FindingText findings={model.findings} selected={0} scroll={0} zone={ZONE} sameDay width={cols} height={16} />);
    const l = f.split('\n');
    expect(l).toHaveLength(16);
    expect(l[0]).toMatch(/^── finding 1\/2/);
    expect(f).toMatch(/CRIT {2}stale-route/);
    expect(f).toMatch(/app-1 kept using broker-a/);
    expect(f).toMatch(/window +14:04:00\.000 – 14:05:57\.002/);
    expect(f).toMatch(/ {2}failures +40/);
    expect(f).toMatch(/ {2}staleMs +117002 ms \(1 min 57 s\)/);
    for (const x of l) expect(width(x)).toBeLessThanOrEqual(cols);
  });

  it('scrolls the finding with PgDn (scroll) to its advice and evidence', () => {
    const { model } = incident();
    const f = frame(<FindingText findings={model.findings} selected={0} scroll={8} zone={ZONE} sameDay width={80} height={10} />);
    expect(f).toMatch(/advice/);
    expect(f).toMatch(/ {2}- Do something\./);
  });

  it('says when there are none', () => {
    expect(frame(<FindingText findings={[]} selected={0} scroll={0} zone={ZONE} sameDay width={80} height={3} />)).toMatch(/no findings/);
  });
});

describe('StatusLine', () => {
  const { model } = incident();
  const base = allListed(model, { listRows: 10, stripCols: 50 });
  it('says where you are, what is filtered and searched, and the keys', () => {
    const f = frame(<StatusLine state={{ ...base, filter: { ...NO_FILTER, types: ['rpc-timeout'] }, search: 'boom' }} row={4} listed={40} total={282} findings={model.findings} width={120} />);
    expect(f).toMatch(/^\[events\] 5\/40 of 282 · type:rpc-timeout · \/boom +n\/N findings · Tab · \/ search · f filter · \? help · q quit$/);
  });
  it('names the finding whose evidence is listed, and says the noise is hidden', () => {
    const f = frame(<StatusLine state={{ ...base, filter: { ...NO_FILTER, finding: 1, quiet: true } }} row={0} listed={1} total={282} findings={model.findings} width={120} />);
    expect(f).toMatch(/^\[events\] 1\/1 of 282 · finding 2\/2 broker-down-detection · noise hidden \(a: all\) /);
  });
  it('shows the prompt while typing', () => {
    const f = frame(<StatusLine state={{ ...base, prompt: { kind: 'search', text: 'time' } }} row={0} listed={282} total={282} findings={model.findings} width={80} />);
    expect(f).toMatch(/^\/time█ {2}Enter search · Esc cancel/);
  });
});

describe('Help', () => {
  it('fits 80x23', () => {
    const f = frame(<Help width={80} height={23} />).split('\n');
    expect(f).toHaveLength(23);
    expect(f[0]).toMatch(/^rmq-diag tui: keys/);
    expect(f.join('\n')).toMatch(/filters +type:rpc-timeout/);
  });
});
