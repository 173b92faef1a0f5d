import { describe, expect, it } from 'vitest';
import { layoutFor } from '../../src/tui/layout.js';

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
    expect(layoutFor({ columns: 80, rows: 24, hosts, focus: 'findings', detail: true, findings: 8 })).toMatchObject({ listRows: 0, findingRows: 10 });
    expect(layoutFor({ columns: 80, rows: 24, hosts, focus: 'findings', detail: false, findings: 2 }).findingListRows).toBe(3);
    // The incident summary comes first, up to 45 % of the room under the header and the strip.
    const s = layoutFor({ columns: 80, rows: 24, hosts, focus: 'findings', detail: false, findings: 8, summary: 5 });
    expect(s).toMatchObject({ summaryRows: 5, findingListRows: 3 });
    expect(s.headerRows + s.summaryRows + s.findingListRows + s.stripRows + s.bodyRows + 1).toBe(s.height);
    expect(layoutFor({ columns: 80, rows: 24, hosts, focus: 'findings', detail: false, findings: 8, summary: 40 }).summaryRows).toBe(6);
  });

  it('puts the list and a side pane next to each other from 120 columns', () => {
    const l = layoutFor({ columns: 120, rows: 40, hosts: ['a', 'b'], focus: 'events', detail: false });
    expect(l).toMatchObject({ wide: true, listWidth: 72, sideWidth: 47, listRows: l.bodyRows - 1 });
  });

  it('folds hosts when there are more than rows for them, and says when the terminal is too small', () => {
    const many = Array.from({ length: 30 }, (_, i) => `host-${i}`);
    expect(layoutFor({ columns: 80, rows: 24, hosts: many, focus: 'events', detail: false }).hostRows).toBe(6);
    expect(layoutFor({ columns: 50, rows: 24, hosts: many, focus: 'events', detail: false }).tooSmall).toBe(true);
  });
});
