// The HTML reports' common parts: escaping (log text is data: no markup or script from a log line
// reaches the page), the document around a report (its style sheet, printable, and the one small
// script for the interactions: the page reads whole without it), and the time axis of the charts.

import { formatShort, type Zone } from '../../parse/time.js';
import { escapeText, jsonSafe } from '../escape.js';

/** Text for HTML content or an attribute value: control and bidi characters escaped as in every output, then the markup characters. */
export function h(text: string | number): string {
  return escapeText(String(text)).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON inside `<script type="application/json">`: `<`, `>` and `&` as `\u` escapes, so no `</script>` can end it early. */
export function scriptJson(value: unknown): string {
  return jsonSafe(JSON.stringify(value)).replace(/[<>&]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** One line of evidence as the page shows it and as the script receives it. */
export interface EvidenceItem {
  /** `file:line`, relative to the inputs' common folder. */
  loc: string;
  time: string;
  text: string;
}

/** What a clickable mark shows: a heading and its lines. */
export interface EvidenceEntry {
  title: string;
  lines: EvidenceItem[];
}

/** A mark's `<title>` element (escaped): what a pointer hovering it shows, with no script. */
export function tooltip(e: EvidenceEntry): string {
  return `<title>${[e.title, ...e.lines.map((l) => `${l.loc}  ${l.time}  ${l.text}`)].map(h).join('\n')}</title>`;
}

const STYLE = `
:root { --fg:#1d2330; --muted:#5b6475; --line:#d5d9e2; --bg:#fff; --crit:#8b0000; --err:#c62828; --warn:#b26a00; --info:#1565c0; --ok:#2e7d32; --fault:#c62828; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); margin: 0 auto; max-width: 1240px; padding: 16px 24px 48px; overflow-wrap: anywhere; }
h1 { font-size: 22px; margin: 8px 0 4px; } h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; } h3 { font-size: 15px; margin: 14px 0 6px; }
.muted { color: var(--muted); } code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
.note { border-left: 3px solid var(--warn); padding: 2px 8px; margin: 4px 0; }
pre { background: #f6f7f9; border: 1px solid var(--line); padding: 8px; overflow-x: auto; white-space: pre-wrap; word-break: break-all; margin: 6px 0; }
.wrap { overflow-x: auto; max-width: 100%; margin: 6px 0; }
table { border-collapse: collapse; margin: 0; } th, td { text-align: left; padding: 3px 10px 3px 0; vertical-align: top; border-bottom: 1px solid #eef0f4; overflow-wrap: break-word; } th { color: var(--muted); font-weight: 600; }
td.n, th.n { text-align: right; white-space: nowrap; } td.time { white-space: nowrap; }
table.accounting td { white-space: nowrap; overflow-wrap: normal; }
.sev { display: inline-block; font-size: 11px; font-weight: 700; padding: 1px 6px; border-radius: 3px; color: #fff; letter-spacing: .03em; }
.sev-critical { background: var(--crit); } .sev-error { background: var(--err); } .sev-warning { background: var(--warn); } .sev-info { background: var(--info); }
.card { border: 1px solid var(--line); border-left: 4px solid var(--info); border-radius: 4px; padding: 8px 14px; margin: 12px 0; break-inside: avoid; }
.card.critical { border-left-color: var(--crit); } .card.error { border-left-color: var(--err); } .card.warning { border-left-color: var(--warn); }
.incident { border: 1px solid var(--line); border-radius: 4px; padding: 4px 16px 10px; background: #fbfbfd; } .incident table { width: 100%; }
.scroll { overflow-x: auto; max-width: 100%; }
.chart { width: 100%; height: auto; display: block; }
.chart text { font: 11px system-ui, sans-serif; fill: var(--fg); } .chart .axis text { fill: var(--muted); } .chart .grid { stroke: #eceef3; }
.chart .lane-bg { fill: #fafbfc; } .chart .lane-bg.alt { fill: #f3f5f8; } .chart text.figures { font-size: 10.5px; fill: var(--muted); }
.chart .fault-band { fill: rgba(198,40,40,.16); stroke: rgba(198,40,40,.6); stroke-dasharray: 3 2; } .chart .fault-shade { fill: rgba(198,40,40,.05); }
.chart .ev { fill: #9aa3b2; } .chart .ev.warn { fill: #e09a2a; } .chart .sent { fill: #43a047; } .chart .failed { fill: #d32f2f; }
.chart [data-ev] { cursor: pointer; } .chart [data-ev]:focus { outline: none; } .chart [data-ev].on > :not(text):not(title):not([fill="transparent"]) { stroke: #000; stroke-width: 2; }
.chart .sev-critical { fill: var(--crit); } .chart .sev-error { fill: var(--err); } .chart .sev-warning { fill: var(--warn); } .chart .sev-info { fill: var(--info); }
.chart .obs { fill: #1565c0; } .chart .sim { fill: #ef6c00; } .chart .delta { stroke: #555; stroke-width: 1.2; } .chart .delta.diverged { stroke: var(--err); stroke-width: 2; }
.bars { margin: 6px 0; } .bar-group { margin: 0 0 10px; } .bar-client { font-weight: 600; }
.bar, .spread-row { display: grid; grid-template-columns: minmax(6em, 20em) minmax(60px, 1fr) minmax(8em, 14em); gap: 2px 10px; align-items: center; margin: 3px 0; }
.bar-label { color: var(--muted); text-align: right; } .bar-text { font-size: 13px; }
.bar-track, .spread-track { position: relative; height: 14px; background: #f3f5f8; }
.bar-fill { display: block; height: 100%; min-width: 1px; }
.bar-fill, .seed, .p50, .p95 { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
.bar-fill.obs { background: #1565c0; } .bar-fill.sim { background: #ef6c00; } .bar-fill.bar-base { background: #90a4ae; } .bar-fill.bar-var { background: #26a69a; }
.spread-track { background: none; border-bottom: 1px solid #cfd5dd; height: 16px; margin-bottom: 4px; }
.seed { position: absolute; top: 11px; width: 8px; height: 8px; margin-left: -4px; border-radius: 50%; background: rgba(38,166,154,.6); }
.p50, .p95 { position: absolute; top: 2px; height: 22px; width: 0; border-left: 2px solid #546e7a; margin-left: -1px; } .p95 { border-left-style: dashed; }
#evidence { border: 1px solid var(--line); border-radius: 4px; padding: 6px 12px; min-height: 44px; background: #fffdf5; margin: 8px 0; }
#evidence:empty::before { content: "Click a mark or a bar of the timeline: its evidence lines show here (hovering shows them too)."; color: var(--muted); }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 12px; color: var(--muted); margin: 4px 0; } .legend svg { vertical-align: middle; }
ul.tight { margin: 4px 0; padding-left: 20px; } ol.chain { margin: 4px 0; padding-left: 22px; }
.ok { color: var(--ok); } .bad { color: var(--err); font-weight: 600; }
.narrow { display: none; }
ul.tl-hosts, ol.tl-list { list-style: none; padding: 0; margin: 8px 0; }
ul.tl-hosts li { padding: 2px 0; } ol.tl-list li { padding: 4px 8px; margin: 3px 0; border-left: 3px solid var(--line); background: #fafbfc; }
ol.tl-list li[data-ev] { cursor: pointer; } ol.tl-list li.on { background: #fffdf5; } ol.tl-list li.fault { border-left-color: var(--fault); }
ol.tl-list li.critical { border-left-color: var(--crit); } ol.tl-list li.error { border-left-color: var(--err); } ol.tl-list li.warning { border-left-color: var(--warn); } ol.tl-list li.info { border-left-color: var(--info); }
ol.tl-list .when { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; margin-right: 6px; }
ol.tl-list #evidence { margin: 6px 0 2px; }
@media (max-width: 700px) {
  body { padding: 10px 12px 32px; }
  h1 { font-size: 20px; } h2 { margin-top: 22px; }
  .incident { padding: 2px 10px 8px; } .card { padding: 6px 10px; }
  .narrow { display: block; }
  .scroll > .chart { width: auto; max-width: none; }
  table.reflow, table.reflow > tbody, table.reflow > tbody > tr, table.reflow > tbody > tr > td { display: block; }
  table.reflow > thead { display: none; }
  table.reflow > tbody > tr { border-bottom: 1px solid var(--line); padding: 5px 0; }
  table.reflow > tbody > tr > td { position: relative; border: 0; padding: 1px 0 1px 104px; text-align: left; white-space: normal; min-height: 1.45em; }
  table.reflow > tbody > tr > td::before { content: attr(data-label); position: absolute; left: 0; top: 2px; width: 96px; color: var(--muted); font: 12px/1.3 system-ui, sans-serif; }
  table.reflow > tbody > tr > td:first-child { padding-left: 0; font-weight: 600; } table.reflow > tbody > tr > td:first-child::before { content: none; }
  table.reflow > tbody > tr > td:empty { display: none; }
  .bar, .spread-row { grid-template-columns: minmax(0, 1fr) auto; } .bar-label { grid-column: 1 / -1; text-align: left; }
}
@media print { body { max-width: none; padding: 0; font-size: 11px; } #evidence, .noprint, .narrow { display: none; } h2 { break-after: avoid; } .card, .incident, svg { break-inside: avoid; } pre { white-space: pre-wrap; } }
`;

// The interactions only: a click (or Enter) on a mark shows its evidence lines below the chart, or
// under the entry of the timeline's list (the narrow screen's timeline) that was clicked. Everything
// it shows is also in the page (the marks' tooltips, the cards), and it writes text only.
const SCRIPT = `
(function () {
  var data = JSON.parse(document.getElementById('rmq-evidence').textContent);
  var panel = document.getElementById('evidence');
  var on = null;
  var home = panel && panel.parentNode, anchor = panel && panel.nextSibling;
  function show(el) {
    var e = data[Number(el.getAttribute('data-ev'))];
    if (!e || !panel) return;
    if (on) on.classList.remove('on');
    on = el; el.classList.add('on');
    if (el.tagName === 'LI') el.appendChild(panel); else if (panel.parentNode !== home) home.insertBefore(panel, anchor);
    panel.textContent = '';
    var t = document.createElement('strong'); t.textContent = e.title; panel.appendChild(t);
    for (var i = 0; i < e.lines.length; i++) {
      var l = e.lines[i], p = document.createElement('pre');
      p.className = 'evidence-line'; p.textContent = l.loc + '  ' + l.time + '  ' + l.text; panel.appendChild(p);
    }
    if (!e.lines.length) { var n = document.createElement('div'); n.className = 'muted'; n.textContent = 'no log line'; panel.appendChild(n); }
  }
  document.addEventListener('click', function (ev) { if (panel && panel.contains(ev.target)) return; var el = ev.target.closest && ev.target.closest('[data-ev]'); if (el) show(el); });
  document.addEventListener('keydown', function (ev) { if (ev.key === 'Enter' && ev.target.getAttribute && ev.target.getAttribute('data-ev') !== null) show(ev.target); });
})();
`;

/** A whole document: the report's body, the evidence of its marks, the style and the script. */
export function htmlDocument(title: string, body: string, evidence: readonly EvidenceEntry[]): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="rmq-diag">
<title>${h(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body}
<script type="application/json" id="rmq-evidence">${scriptJson(evidence)}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

/** A linear time scale onto [x0, x1] pixels, and tick marks at round times of the zone. */
export interface TimeScale {
  x(ts: number): number;
  from: number;
  to: number;
  ticks: Array<{ x: number; label: string }>;
}

const STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400].map((s) => s * 1000);

export function timeScale(from: number, to: number, x0: number, x1: number, zone: Zone, maxTicks = 10): TimeScale {
  const span = Math.max(1, to - from);
  const x = (ts: number) => x0 + ((ts - from) / span) * (x1 - x0);
  const step = STEPS.find((s) => span / s <= maxTicks) ?? 86400000 * Math.ceil(span / 86400000 / maxTicks);
  const off = zone.offsetAt(from) * 60000;
  const ticks: Array<{ x: number; label: string }> = [];
  const oneDay = formatShort(from, zone).slice(0, 10) === formatShort(to, zone).slice(0, 10);
  for (let t = Math.ceil((from + off) / step) * step - off; t <= to; t += step) {
    const s = formatShort(t, zone);
    const clock = step < 60000 ? s.slice(11, 19) : s.slice(11, 16);
    ticks.push({ x: x(t), label: oneDay || step < 86400000 ? (oneDay ? clock : `${s.slice(5, 10)} ${clock}`) : s.slice(0, 10) });
  }
  return { x, from, to, ticks };
}

/** The axis: tick labels on top and grid lines down to `bottom`. */
export function axisSvg(s: TimeScale, top: number, bottom: number): string {
  return `<g class="axis">${s.ticks
    .map((t) => `<line class="grid" x1="${px(t.x)}" x2="${px(t.x)}" y1="${top + 4}" y2="${bottom}"/><text x="${px(t.x)}" y="${top}" text-anchor="middle">${h(t.label)}</text>`)
    .join('')}</g>`;
}

/** Pixels with one decimal: the page stays small. */
export function px(n: number): string {
  return (Math.round(n * 10) / 10).toString();
}

/** A column of a table: its heading, and the class of its cells (`n`: a number, right-aligned). */
export interface Column {
  label: string;
  cls?: string;
}

/**
 * A table (cells already HTML) in a block that scrolls sideways when it cannot fit; `reflow`: on a
 * narrow screen each row becomes a list of label/value lines (the cells carry their column's label).
 */
export function tableHtml(columns: readonly Column[], rows: readonly (readonly string[])[], cls = '', reflow = true): string {
  const c = (col: Column) => (col.cls ? ` class="${col.cls}"` : '');
  // A heading takes its column's alignment only (a monospaced heading would look like data).
  const head = columns.map((col) => `<th${col.cls?.split(' ').includes('n') ? ' class="n"' : ''}>${h(col.label)}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((cell, i) => `<td${c(columns[i] ?? { label: '' })} data-label="${h(columns[i]?.label ?? '')}">${cell}</td>`).join('')}</tr>`);
  const classes = [cls, reflow ? 'reflow' : ''].filter(Boolean).join(' ');
  return `<div class="wrap"><table${classes ? ` class="${classes}"` : ''}><thead><tr>${head}</tr></thead><tbody>\n${body.join('\n')}\n</tbody></table></div>`;
}
