import { describe, expect, it } from 'vitest';
import { layoutFor, MIN_BODY_ROWS } from '../../src/tui/layout.js';

describe('layout', () => {
  it('fits 80x24: one pane at a time, the detail pane under the list', () => {
    const hosts = ['app-order-01', 'app-pay-01', 'mq-node-100', 'mq-node-101'];
    const l = layoutFor({ columns: 80, rows: 24, hosts, focus: 'events', detail: false });
    expect(l).toMatchObject({ width: 80, height: 23, tooSmall: false, wide: false, hostRows: 4, labelWidth: 12, stripCols: 67, bodyRows: 14, listRows: 13, detailRows: 0 });
    expect(l.headerRows + l.stripRows + l.bodyRows + 1).toBe(l.height);
    const d = layoutFor({ columns: 80, rows: 24, hosts, focus: 'events', detail: true });
    expect([d.listRows, d.detailRows]).toEqual([5, 8]);
    // The findings list goes above the strip; the selected finding in full takes the body after Enter.
    const f = layoutFor({ columns: 80, rows: 24, hosts, focus: 'findings', detail: false, findings: 8 });
    expect(f).toMatchObject({ summaryRows: 0, findingListRows: 4, bodyRows: 10, listRows: 9 });
    expect(f.headerRows + f.summaryRows + f.findingListRows + f.stripRows + f.bodyRows + 1).toBe(f.height);
    // Under 40 rows, a finding in full takes the list's rows too (its title names it).
    expect(layoutFor({ columns: 80, rows: 24, hosts, focus: 'findings', detail: true, findings: 8 })).toMatchObject({ findingListRows: 0, listRows: 0, findingRows: 14 });
    expect(layoutFor({ columns: 80, rows: 40, hosts, focus: 'findings', detail: true, findings: 8 }).findingListRows).toBeGreaterThan(0);
    expect(layoutFor({ columns: 80, rows: 24, hosts, focus: 'findings', detail: false, findings: 2 }).findingListRows).toBe(3);
  });

  it('sums the incident up first, folded to its title where it would leave the body under 10 rows', () => {
    const hosts = ['app-order-01', 'app-pay-01', 'mq-node-100', 'mq-node-101'];
    const at = (rows: number, o: { incidentOpen?: boolean; summary?: number; incidents?: number } = {}) =>
      layoutFor({ columns: 80, rows, hosts, focus: 'findings', detail: false, findings: 8, summary: 5, incidents: 1, ...o });
    // 80x24: unfolded, the body would keep 6 rows (5 events): folded, it keeps 9 (8 events).
    const s = at(24);
    expect(s).toMatchObject({ summaryFolded: true, summaryRows: 1, findingListRows: 4, bodyRows: 9, listRows: 8 });
    expect(s.headerRows + s.summaryRows + s.findingListRows + s.stripRows + s.bodyRows + 1).toBe(s.height);
    expect(at(24, { incidentOpen: true }).bodyRows).toBeLessThan(MIN_BODY_ROWS);
    // Six hosts: the busiest three and `+3 hosts`, the same room.
    const six = layoutFor({ columns: 80, rows: 24, hosts: [...hosts, 'mq-slave-a', 'mq-slave-b'], focus: 'findings', detail: false, findings: 10, summary: 5, incidents: 1 });
    expect(six).toMatchObject({ hostRows: 4, summaryFolded: true, listRows: 8 });
    // `i` unfolds it whatever the height, and folds it again.
    const open = at(24, { incidentOpen: true });
    expect(open).toMatchObject({ summaryFolded: false, summaryRows: 5, findingListRows: 3, bodyRows: 6 });
    expect(open.headerRows + open.summaryRows + open.findingListRows + open.stripRows + open.bodyRows + 1).toBe(open.height);
    // Where there is room, it is unfolded (up to 45 % of the room under the header and the strip).
    expect(at(30)).toMatchObject({ summaryFolded: false, summaryRows: 5, bodyRows: 10 });
    expect(at(30, { incidentOpen: false })).toMatchObject({ summaryFolded: true, summaryRows: 1 });
    expect(at(24, { summary: 40, incidentOpen: true }).summaryRows).toBe(6);
    // Two incidents folded: a line each. None: nothing to fold.
    expect(at(24, { summary: 10, incidents: 2 })).toMatchObject({ summaryFolded: true, summaryRows: 2 });
    expect(at(24, { summary: 0, incidents: 0 })).toMatchObject({ summaryFolded: false, summaryRows: 0 });
  });

  it('puts the list and a side pane next to each other from 120 columns', () => {
    const l = layoutFor({ columns: 120, rows: 40, hosts: ['a', 'b'], focus: 'events', detail: false });
    expect(l).toMatchObject({ wide: true, listWidth: 72, sideWidth: 47, listRows: l.bodyRows - 1 });
  });

  it('folds hosts when there are more than rows for them, and says when the terminal is too small', () => {
    const many = Array.from({ length: 30 }, (_, i) => `host-${i}`);
    expect(layoutFor({ columns: 80, rows: 24, hosts: many, focus: 'events', detail: false }).hostRows).toBe(4);
    expect(layoutFor({ columns: 80, rows: 40, hosts: many, focus: 'events', detail: false }).hostRows).toBe(8);
    expect(layoutFor({ columns: 50, rows: 24, hosts: many, focus: 'events', detail: false }).tooSmall).toBe(true);
  });
});
