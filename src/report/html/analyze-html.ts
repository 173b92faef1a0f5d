// `rmq-diag analyze --format html`: one self-contained page (no network at view time) that a
// postmortem can be passed around as. The incident first (causes, impact per client, the chain, what
// to change), then the timeline drawn as SVG (a lane per host, fault bands, each client's sends per
// bucket, NameServer bindings and switches, route drops and returns, the findings as bars, the
// milestones as marks whose evidence shows on hover, and on click with the script), the findings as
// cards, the milestones, and the inputs with their accounting. Everything from the logs is escaped.

import { consumerFigures } from '../consumers-text.js';
import { formatShort, type Zone } from '../../parse/time.js';
import type { SourceAccounting } from '../../parse/types.js';
import { findingId, type Incident } from '../../rules/incident.js';
import type { TimelineMilestoneKind } from '../../rules/milestones.js';
import type { Finding } from '../../rules/types.js';
import { formatMs } from '../../util/durations.js';
import type { Timeline } from '../../timeline/build.js';
import { escapeText } from '../escape.js';
import { zoneNote } from '../events.js';
import { inputGaps } from '../../ingest/coverage.js';
import { oneDay, timeText } from '../text-layout.js';
import { EVIDENCE_SHOWN, atOrAbove, clockNotes, countBySeverity, hostsOf, metricText, omittedFindingsText, severityWord, subjectText, totalsOf, windowText, type AnalyzeReport } from '../summary.js';
import { commonDir, relativeTo } from '../../util/paths.js';
import { lostCellText } from '../incident-text.js';
import type { Activity, EvidenceLine, HostActivity } from './activity.js';
import { axisSvg, h, htmlDocument, px, tableHtml, timeScale, tooltip, type EvidenceEntry, type EvidenceItem, type TimeScale } from './page.js';
import { counted } from '../../util/text.js';

const num = (n: number) => n.toLocaleString('en-US');

/** Geometry of the timeline (pixels of its viewBox). */
const LABEL_W = 180;
const PLOT_W = 960;
const WIDTH = LABEL_W + PLOT_W + 20;
const AXIS_H = 26;
const LANE_H = 46;
const FINDING_H = 17;

interface Ctx {
  zone: Zone;
  sameDay: boolean;
  base: string;
  evidence: EvidenceEntry[];
  lines: Map<string, EvidenceLine>;
}

function register(c: Ctx, e: EvidenceEntry): number {
  return c.evidence.push(e) - 1;
}

function item(c: Ctx, file: string, line: number, time: number | null, text: string): EvidenceItem {
  return { loc: `${escapeText(relativeTo(file, c.base))}:${line}`, time: timeText(time, c.zone, c.sameDay), text: escapeText(text.trim()) };
}

/** A `file:line` reference as an evidence line, with its text when the pass kept it. */
function refItem(c: Ctx, ref: string): EvidenceItem {
  const l = c.lines.get(ref) ?? c.lines.get(c.base + ref);
  if (l) return item(c, l.file, l.line, l.time, l.text);
  const at = ref.lastIndexOf(':');
  return { loc: escapeText(at > 0 ? relativeTo(ref, c.base) : ref), time: '-', text: '' };
}

export function renderFindingsHtml(r: AnalyzeReport): string {
  const t = r.timeline;
  const zone = r.zone;
  const all = r.analysis.findings;
  const shown = atOrAbove(all, r.show);
  const ids = new Map(all.map((f, i) => [f, findingId(i)]));
  const c: Ctx = {
    zone,
    sameDay: oneDay(t.first, t.last, zone),
    base: commonDir(t.accounting.map((a) => a.path)),
    evidence: [],
    lines: r.activity?.lines ?? new Map(),
  };
  const counts = countBySeverity(all, r.analysis.omittedFindings);
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const out: string[] = [];
  out.push('<header>', '<h1>RocketMQ incident analysis</h1>');
  const bySev = Object.entries(counts).filter(([, n]) => n > 0).map(([s, n]) => `${n} ${s}`);
  const window = t.first !== null && t.last !== null ? `${formatShort(t.first, zone)} .. ${formatShort(t.last, zone)} (${formatMs(t.last - t.first)}, ${zone.name})` : 'no dated record';
  out.push(
    `<p class="muted">${h(`${r.incidents.length ? counted(r.incidents.length, 'incident') + ', ' : ''}${total ? `${counted(total, 'finding')} (${bySev.join(', ')})` : 'no findings'}; ${window}; ${counted(hostsOf(t.accounting).length, 'host')}, ${counted(t.accounting.length, 'file')}`)}</p>`,
  );
  // What the inputs leave out and the hosts whose clocks are off: said where the text report says them,
  // so that a page of one host's logs never reads as a whole cluster's.
  for (const gap of inputGaps(t.accounting)) out.push(`<p class="note">${h(gap)}</p>`);
  for (const note of clockNotes(r)) out.push(`<p class="note">${h(note)}</p>`);
  out.push('</header>');

  r.incidents.forEach((inc, i) => out.push(incidentHtml(inc, i + 1, c)));
  if (!r.incidents.length) out.push(`<p>${total ? 'No incident was named: the findings follow.' : 'No incident and no findings in these logs.'}</p>`);
  if (r.consumers?.length) {
    out.push('<section class="block">', '<h2 id="consumers">Consumers</h2>');
    for (const g of r.consumers) {
      out.push(`<h3>${h(`${g.group}${g.hosts.length ? ` (${g.hosts.join(', ')})` : ''}`)}</h3>`, '<ul>');
      for (const f of consumerFigures(g, c.zone, c.sameDay)) out.push(`<li>${h(f.replace(/ +/, ': '))}</li>`);
      for (const u of g.unknown) out.push(`<li class="muted">${h(`unknown: ${u}`)}</li>`);
      out.push('</ul>');
    }
    out.push('</section>');
  }

  out.push('<section class="block">', '<h2 id="timeline">Timeline</h2>');
  if (t.first !== null && t.last !== null && r.activity) out.push(timelineSvg(r, shown, ids, c));
  else out.push('<p class="muted">No dated record to draw.</p>');
  out.push('</section>');

  out.push('<h2 id="findings">Findings</h2>');
  if (!shown.length) out.push(`<p>${all.length ? `No findings at ${h(r.show)} or above.` : 'No findings.'}</p>`);
  for (const f of shown) out.push(findingCard(f, ids.get(f)!, c));
  const hidden = all.length - shown.length;
  if (hidden > 0) out.push(`<p class="muted">${h(`${counted(hidden, 'finding')} below ${r.show} not shown (--show info shows all).`)}</p>`);
  const omitted = omittedFindingsText(r.analysis.omittedFindings);
  if (omitted) out.push(`<p class="muted">${h(omitted)}</p>`);

  if (r.analysis.milestones.length) {
    out.push('<section class="block">', '<h2 id="milestones">Milestones</h2>');
    const rows = r.analysis.milestones.map((m) => {
      const loc = m.file !== null && m.line !== null ? `${relativeTo(m.file, c.base)}:${m.line}` : '';
      return [h(timeText(m.time, zone, c.sameDay, false)), h(m.host), h(m.what), h(loc)];
    });
    out.push(tableHtml([{ label: 'time', cls: 'mono time' }, { label: 'host' }, { label: 'what' }, { label: 'line', cls: 'mono' }], rows, 'milestones'));
    if (r.analysis.omittedMilestones > 0) out.push(`<p class="muted">${h(`${r.analysis.omittedMilestones} more milestones not shown.`)}</p>`);
    out.push('</section>');
  }

  out.push('<section class="block">', inputsHtml(r, c), '</section>');
  return htmlDocument(`rmq-diag analyze: ${r.incidents[0]?.title ?? (total ? `${counted(total, 'finding')}` : 'no findings')}`, out.join('\n'), c.evidence);
}

function incidentHtml(inc: Incident, n: number, c: Ctx): string {
  const at = (ts: number | null) => timeText(ts, c.zone, c.sameDay, false);
  const span = (a: number | null, b: number | null) => (b === null ? `${at(a)} –` : `${at(a)} – ${at(b)}`);
  const out: string[] = [`<section class="incident" id="incident-${n}">`, `<h2>${h(`Incident ${n}: ${inc.title}`)}</h2>`];
  out.push('<h3>What broke</h3>');
  const causes = inc.causes.map((k) => {
    const on = [...k.namesrvAddrs.map((a) => `NameServer ${a}`), ...k.brokers.map((b) => `${b.name} ${b.role} ${b.addr}`)].join(', ') || '-';
    const how = `${k.recognisedBy}${k.detail ? ` (${k.detail})` : ''}`;
    const ev = k.evidence.length ? `<div class="mono muted">${k.evidence.slice(0, 3).map((e) => h(relativeTo(e, c.base))).join(', ')}</div>` : '';
    return [`<strong>${h(`${k.host} ${k.kind}`)}</strong>`, h(span(k.start, k.end)), h(on), `${h(how)}${ev}`];
  });
  out.push(tableHtml([{ label: 'cause' }, { label: 'when', cls: 'mono time' }, { label: 'what ran there' }, { label: 'how it was recognised' }], causes, 'causes'));
  out.push('<h3>Who was hurt</h3>');
  if (inc.impact.length) {
    const rows = inc.impact.map((i) => {
      const dur = i.start !== null && i.end !== null && i.end > i.start ? ` (${formatMs(i.end - i.start)})` : '';
      return [`<strong>${h(i.client)}</strong>${i.clientVersion ? ` <span class="muted">${h(i.clientVersion)}</span>` : ''}`, h(lostCellText(i)), h(`${span(i.start, i.end)}${dur}`), num(i.timeouts), h(i.lastedBecause ?? '-')];
    });
    out.push(tableHtml([{ label: 'client' }, { label: 'lost' }, { label: 'from – to', cls: 'mono time' }, { label: 'timed-out calls', cls: 'n' }, { label: 'why it lasted' }], rows, 'impact'));
  } else out.push('<p>No failed send in the logs.</p>');
  if (inc.chain.length) {
    out.push('<h3>How it unfolded</h3><ol class="chain">');
    for (const s of inc.chain) {
      const f = s.finding ? ` <a href="#finding-${h(s.finding)}">(finding ${h(s.finding.slice(1))})</a>` : '';
      const ev = s.evidence ? ` <span class="mono muted">${h(relativeTo(s.evidence, c.base))}</span>` : '';
      out.push(`<li><span class="mono">${h(at(s.at))}</span> ${h(s.text)}${f}${ev}</li>`);
    }
    out.push('</ol>');
  }
  if (inc.advice.length) {
    out.push('<h3>What to change</h3><ul class="tight">');
    for (const a of inc.advice) out.push(`<li>${h(a)}</li>`);
    out.push('</ul>');
  }
  out.push('</section>');
  return out.join('\n');
}

/** Hosts in the order of the picture: NameServers, brokers, then clients and applications. */
function roleOf(a: HostActivity): { rank: number; label: string } {
  const k = new Set(a.kinds);
  const parts: string[] = [];
  if (k.has('namesrv')) parts.push('NameServer');
  if (k.has('broker') || k.has('store') || k.has('watermark') || k.has('stats')) parts.push('broker');
  if (k.has('client') || k.has('app')) parts.push('client');
  if (!parts.length && k.has('remoting')) parts.push('server');
  const rank = k.has('namesrv') ? 0 : parts.includes('broker') || parts.includes('server') ? 1 : parts.includes('client') ? 2 : 3;
  return { rank, label: parts.join(' + ') || [...k].join(', ') };
}

const MARK_KINDS: Partial<Record<TimelineMilestoneKind, { shape: 'up' | 'down' | 'diamond' | 'square' | 'cross'; colour: string }>> = {
  startup: { shape: 'up', colour: '#2e7d32' },
  shutdown: { shape: 'down', colour: '#c62828' },
  'broker-expired': { shape: 'cross', colour: '#6a1b9a' },
  'broker-removed': { shape: 'cross', colour: '#6a1b9a' },
  'namesrv-switch': { shape: 'diamond', colour: '#1565c0' },
  'route-lost': { shape: 'square', colour: '#ef6c00' },
  'route-back': { shape: 'square', colour: '#00897b' },
  'busy-first': { shape: 'up', colour: '#b26a00' },
  'busy-last': { shape: 'down', colour: '#b26a00' },
};
const BIND = { shape: 'diamond' as const, colour: '#90caf9' };

function shapeSvg(shape: 'up' | 'down' | 'diamond' | 'square' | 'cross' | 'circle', x: number, y: number, colour: string): string {
  const s = 5;
  switch (shape) {
    case 'up':
      return `<path d="M${px(x)} ${px(y - s)}l${s} ${2 * s}h${-2 * s}z" fill="${colour}"/>`;
    case 'down':
      return `<path d="M${px(x)} ${px(y + s)}l${s} ${-2 * s}h${-2 * s}z" fill="${colour}"/>`;
    case 'diamond':
      return `<path d="M${px(x)} ${px(y - s)}l${s} ${s}l${-s} ${s}l${-s} ${-s}z" fill="${colour}"/>`;
    case 'square':
      return `<rect x="${px(x - 4)}" y="${px(y - 4)}" width="8" height="8" fill="${colour}"/>`;
    case 'cross':
      return `<path d="M${px(x - 4)} ${px(y - 4)}l8 8m0 -8l-8 8" stroke="${colour}" stroke-width="2.5"/><circle cx="${px(x)}" cy="${px(y)}" r="6" fill="transparent"/>`;
    default:
      return `<circle cx="${px(x)}" cy="${px(y)}" r="5" fill="${colour}"/>`;
  }
}

function legendHtml(): string {
  const entry = (shape: Parameters<typeof shapeSvg>[0], colour: string, text: string) =>
    `<span><svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">${shapeSvg(shape, 7, 7, colour)}</svg> ${h(text)}</span>`;
  const box = (fill: string, text: string) => `<span><svg width="14" height="10" aria-hidden="true"><rect fill="${fill}" width="14" height="10"/></svg> ${h(text)}</span>`;
  return `<div class="legend">${[
    box('rgba(198,40,40,.3)', 'fault window'),
    box('#43a047', 'sends delivered (per bucket, up; only where the application logs them)'),
    box('#d32f2f', 'sends failed (down)'),
    box('#9aa3b2', 'events'),
    box('#e09a2a', 'at WARN or worse'),
    entry('up', '#2e7d32', 'started'),
    entry('down', '#c62828', 'stopped'),
    entry('cross', '#6a1b9a', 'NameServer drops broker'),
    entry('diamond', '#90caf9', 'NameServer bound'),
    entry('diamond', '#1565c0', 'NameServer switch'),
    entry('square', '#ef6c00', 'route drops broker'),
    entry('square', '#00897b', 'route regains broker'),
    entry('up', '#b26a00', 'first / last busy reply'),
  ].join('')}</div>`;
}

function barsSvg(values: readonly number[], s: TimeScale, a: Activity, base: number, height: number, cls: string, down = false, max = Math.max(1, ...values)): string {
  const w = PLOT_W / values.length;
  const out: string[] = [];
  values.forEach((v, i) => {
    if (!v) return;
    const hgt = Math.max(2, (v / max) * height);
    const x = s.x(a.from + i * a.bucketMs);
    out.push(`<rect x="${px(x)}" y="${px(down ? base : base - hgt)}" width="${px(Math.max(0.8, w - 0.4))}" height="${px(hgt)}"/>`);
  });
  return out.length ? `<g class="${cls}">${out.join('')}</g>` : '';
}

function timelineSvg(r: AnalyzeReport, shown: readonly Finding[], ids: Map<Finding, string>, c: Ctx): string {
  const a = r.activity!;
  const s = timeScale(a.from, a.to, LABEL_W, LABEL_W + PLOT_W, c.zone);
  const hosts = [...a.hosts].map((x, i) => ({ x, i, role: roleOf(x) })).sort((p, q) => p.role.rank - q.role.rank || p.i - q.i);
  const laneY = new Map<string, number>();
  hosts.forEach((x, i) => laneY.set(x.x.host, AXIS_H + i * LANE_H));
  const lanesBottom = AXIS_H + hosts.length * LANE_H;
  const findingsTop = lanesBottom + (shown.length ? 22 : 0);
  const height = findingsTop + shown.length * FINDING_H + 8;
  const clampX = (ts: number) => Math.min(LABEL_W + PLOT_W, Math.max(LABEL_W, s.x(ts)));
  const out: string[] = [];
  const list: ListEntry[] = [];
  out.push(
    `<svg class="chart" id="timeline-svg" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-label="${h(`Timeline: ${hosts.length} hosts, ${r.incidents.reduce((n, i) => n + i.causes.length, 0)} faults, ${shown.length} findings`)}" xmlns="http://www.w3.org/2000/svg">`,
  );
  // Lanes.
  const figures: string[] = [];
  hosts.forEach(({ x, role }, i) => {
    const y = laneY.get(x.host)!;
    const sent = x.sent.reduce((p, q) => p + q, 0);
    const failed = x.failed.reduce((p, q) => p + q, 0);
    const isClient = role.label.includes('client');
    const f = isClient ? sendFigures(x) : null;
    figures.push(`<li><strong>${h(x.host)}</strong> <span class="muted">${h(role.label)}</span>${f ? `: ${h(f.long)}` : ''}</li>`);
    const data = f ? ` data-sent="${x.sentSource === null ? 'unknown' : sent}" data-failed="${failed}"` : '';
    out.push(
      `<g class="lane" data-host="${h(x.host)}"${data}><rect class="lane-bg${i % 2 ? ' alt' : ''}" x="0" y="${y}" width="${WIDTH}" height="${LANE_H}"/><text x="6" y="${y + 14}" font-weight="600">${h(clipText(x.host, 26))}</text><text x="6" y="${y + 27}" fill="#5b6475">${h(clipText(f ? `${role.label}: ${f.sent}` : role.label, 30))}</text>${f ? `<text x="6" y="${y + 40}" class="figures">${h(clipText(f.failed, 31))}</text><title>${h(`${x.host}: ${f.long}`)}</title>` : ''}`,
    );
    if (isClient && (sent || failed)) {
      const max = Math.max(1, ...x.sent, ...x.failed);
      out.push(barsSvg(x.sent, s, a, y + 33, 16, 'sent', false, max), barsSvg(x.failed, s, a, y + 33, 11, 'failed', true, max));
    } else {
      const max = Math.max(1, ...x.events);
      out.push(barsSvg(x.events, s, a, y + LANE_H - 3, 20, 'ev', false, max), barsSvg(x.warnings, s, a, y + LANE_H - 3, 20, 'ev warn', false, max));
    }
    out.push('</g>');
  });
  out.push(axisSvg(s, 14, findingsTop + shown.length * FINDING_H));
  // Faults: a band on the host's lane (its evidence on click), a shade over every lane.
  for (const inc of r.incidents) {
    for (const k of inc.causes) {
      const y = laneY.get(k.host);
      const x0 = clampX(k.start);
      const x1 = Math.max(x0 + 3, clampX(k.end ?? a.to));
      out.push(`<rect class="fault-shade" x="${px(x0)}" y="${AXIS_H}" width="${px(x1 - x0)}" height="${lanesBottom - AXIS_H}"/>`);
      const end = k.end === null ? 'until the end of the logs' : timeText(k.end, c.zone, c.sameDay, false);
      const ev = register(c, { title: `${k.host} ${k.kind}: ${timeText(k.start, c.zone, c.sameDay, false)} – ${end}. ${k.recognisedBy}${k.detail ? ` (${k.detail})` : ''}`, lines: k.evidence.slice(0, EVIDENCE_SHOWN).map((e) => refItem(c, e)) });
      list.push({ ts: k.start, ev, cls: 'fault', host: k.host, text: `${k.kind} until ${end === 'until the end of the logs' ? 'the end of the logs' : end}` });
      if (y === undefined) continue;
      out.push(
        `<g class="fault" data-ev="${ev}" tabindex="0" data-host="${h(k.host)}"><rect class="fault-band" x="${px(x0)}" y="${y + 1}" width="${px(x1 - x0)}" height="${LANE_H - 2}"/><text x="${px(x0 + 3)}" y="${y + 11}" fill="#c62828" font-weight="600">${h(k.kind)}</text>${tooltip(c.evidence[ev])}</g>`,
      );
    }
  }
  // Marks: the milestones (findings are drawn as bars), and the NameServer bindings the pass kept.
  const seen = new Set<string>();
  const mark = (e: EvidenceEntry, host: string, time: number, what: string, shape: Parameters<typeof shapeSvg>[0], colour: string, x: number, y: number, kind: string) => {
    const ev = register(c, e);
    list.push({ ts: time, ev, cls: kind, host, text: what });
    return markSvg(c, ev, shape, colour, x, y, kind);
  };
  // Marks closer than a mark's width on a lane go one row down (a switch and a route drop of the same second both show).
  const placed = new Map<string, number[][]>();
  const rowOf = (host: string, x: number): number => {
    const rows = placed.get(host) ?? [[], [], []];
    placed.set(host, rows);
    const k = rows.findIndex((xs) => xs.every((p) => Math.abs(p - x) >= 11));
    const row = k < 0 ? 0 : k;
    rows[row].push(x);
    return 9 + row * 11;
  };
  for (const m of r.analysis.milestones) {
    const style = MARK_KINDS[m.kind];
    const y = laneY.get(m.host);
    if (!style || m.time === null || y === undefined) continue;
    const ref = m.file !== null && m.line !== null ? `${m.file}:${m.line}` : null;
    if (ref) seen.add(ref);
    out.push(mark({ title: `${timeText(m.time, c.zone, c.sameDay)} ${m.host}: ${m.what}`, lines: ref ? [refItem(c, ref)] : [] }, m.host, m.time, m.what, style.shape, style.colour, s.x(m.time), y + rowOf(m.host, s.x(m.time)), m.kind));
  }
  for (const m of a.marks) {
    const y = laneY.get(m.host);
    if (y === undefined || m.time === null || seen.has(`${m.file}:${m.line}`)) continue;
    const style = m.kind === 'namesrv-bind' ? BIND : MARK_KINDS['namesrv-switch']!;
    out.push(mark({ title: `${timeText(m.time, c.zone, c.sameDay)} ${m.host}: ${m.what}`, lines: [item(c, m.file, m.line, m.time, m.text)] }, m.host, m.time, m.what, style.shape, style.colour, s.x(m.time), y + rowOf(m.host, s.x(m.time)), m.kind));
  }
  // Findings: one bar each over its window.
  if (shown.length) out.push(`<text x="6" y="${findingsTop - 6}" font-weight="600">findings</text>`);
  shown.forEach((f, i) => {
    const id = ids.get(f)!;
    const y = findingsTop + i * FINDING_H;
    const ev = register(c, {
      title: `${id} ${severityWord(f.severity)} ${f.rule}: ${f.title} (${windowText(f, c.zone, c.sameDay)})`,
      lines: f.evidence.slice(0, EVIDENCE_SHOWN).map((e) => item(c, e.file, e.line, e.time, e.text)),
    });
    const startTs = f.start ?? f.end;
    list.push({ ts: startTs, ev, cls: f.severity, host: null, text: `${id} ${severityWord(f.severity)} ${f.title} (${windowText(f, c.zone, c.sameDay)})` });
    let bar = '';
    if (startTs !== null) {
      const x0 = clampX(startTs);
      const x1 = Math.max(x0 + 4, clampX(f.end ?? startTs));
      bar = `<rect class="sev-${f.severity}" x="${px(x0)}" y="${y + 3}" width="${px(x1 - x0)}" height="${FINDING_H - 6}" rx="2"/>`;
    }
    out.push(
      `<g class="finding-bar" data-ev="${ev}" data-finding="${h(id)}" tabindex="0"><rect x="0" y="${y}" width="${WIDTH}" height="${FINDING_H}" fill="transparent"/><text x="6" y="${y + 12}">${h(clipText(`${id} ${f.rule}`, 28))}</text>${bar}${tooltip(c.evidence[ev])}</g>`,
    );
  });
  out.push('</svg>');
  const omitted = a.omittedMarks ? `<p class="muted">${h(`${a.omittedMarks} NameServer bindings not drawn (each client shows its first and last ones).`)}</p>` : '';
  return `${legendHtml()}\n<div class="scroll">${out.join('')}</div>\n<div id="evidence" aria-live="polite"></div>\n<noscript><p class="muted">Hover a mark or a bar to see its evidence lines; the findings below list theirs.</p></noscript>${omitted}\n${listHtml(list, figures, c)}`;
}

/** An entry of the timeline as a list: a fault, a mark or a finding, and its evidence. */
interface ListEntry {
  ts: number | null;
  ev: number;
  cls: string;
  host: string | null;
  text: string;
}

/**
 * The timeline for a narrow screen (a phone), where the picture only scrolls sideways: every host
 * with its sends, then the faults, marks and findings in time order; a tap shows an entry's evidence
 * under it. The CSS shows it below 700 px only (src/report/html/page.ts).
 */
function listHtml(list: ListEntry[], figures: readonly string[], c: Ctx): string {
  const sorted = [...list].sort((a, b) => (a.ts ?? Infinity) - (b.ts ?? Infinity));
  const items = sorted.map(
    (e) => `<li class="${h(e.cls)}" data-ev="${e.ev}" tabindex="0"><span class="when">${h(timeText(e.ts, c.zone, c.sameDay, false))}</span>${e.host ? `<strong>${h(e.host)}</strong> ` : ''}${h(e.text)}</li>`,
  );
  return `<div class="narrow" id="timeline-list"><p class="muted">The picture above scrolls sideways; this list has every fault, mark and finding of it (tap one for its evidence).</p><h3>Hosts</h3><ul class="tl-hosts">${figures.join('')}</ul><h3>In time order</h3><ol class="tl-list">${items.join('\n')}</ol></div>`;
}

/**
 * A client lane's sends as the logs show them: `sent` and `failed` under its name, `long` in its
 * tooltip and the list. A RocketMQ client logs no successful send, so without its application's own
 * lines or statistics the delivered sends are unknown, never 0.
 */
function sendFigures(x: HostActivity): { sent: string; failed: string; long: string } {
  const sent = x.sent.reduce((p, q) => p + q, 0);
  const failed = x.failed.reduce((p, q) => p + q, 0);
  const delivered =
    x.sentSource === 'app'
      ? { short: `${num(sent)} sent`, long: `${num(sent)} sends delivered (its application's lines)` }
      : x.sentSource === 'stats'
        ? { short: `${num(sent)} sent`, long: `${num(sent)} sends delivered (its application's statistics lines)` }
        : x.failureSource === 'client'
          ? { short: 'sent unknown', long: 'sends delivered unknown (no application log, and the client logs no successful send)' }
          : { short: 'sent unknown', long: 'sends delivered unknown (its application logs no successful send and no statistics)' };
  const lost =
    x.failureSource === 'client'
      ? { short: `${num(failed)} failed attempt${failed === 1 ? '' : 's'}`, long: `${num(failed)} failed attempt${failed === 1 ? '' : 's'} in the client's log (a retry may have saved some)` }
      : { short: `${num(failed)} failed`, long: `${num(failed)} send${failed === 1 ? '' : 's'} failed (its application's exceptions)` };
  return { sent: delivered.short, failed: lost.short, long: `${delivered.long}; ${lost.long}` };
}

function markSvg(c: Ctx, ev: number, shape: Parameters<typeof shapeSvg>[0], colour: string, x: number, y: number, kind: string): string {
  return `<g class="mark" data-ev="${ev}" data-kind="${h(kind)}" tabindex="0">${shapeSvg(shape, x, y, colour)}${tooltip(c.evidence[ev])}</g>`;
}

function clipText(text: string, n: number): string {
  return text.length <= n ? text : `${text.slice(0, n - 1)}…`;
}

function findingCard(f: Finding, id: string, c: Ctx): string {
  const out: string[] = [`<article class="card ${f.severity}" id="finding-${h(id)}">`];
  out.push(`<h3><span class="sev sev-${f.severity}">${severityWord(f.severity)}</span> ${h(id)} ${h(f.title)} <code class="muted">${h(f.rule)}</code></h3>`);
  out.push(`<div><span class="muted">subject</span> ${h(subjectText(f.subject))} &nbsp; <span class="muted">window</span> <span class="mono">${h(windowText(f, c.zone, c.sameDay))}</span></div>`);
  const metrics = Object.entries(f.metrics);
  if (metrics.length) out.push(tableHtml([{ label: 'metric', cls: 'mono' }, { label: 'value' }], metrics.map(([k, v]) => [h(k), h(metricText(k, v, c.zone))]), 'figures', false));
  if (f.explanation) out.push(`<p>${h(f.explanation)}</p>`);
  if (f.advice.length) out.push(`<strong>Advice</strong><ul class="tight">${f.advice.map((a) => `<li>${h(a)}</li>`).join('')}</ul>`);
  if (f.evidence.length) {
    const lines = f.evidence.slice(0, EVIDENCE_SHOWN).map((e) => item(c, e.file, e.line, e.time, e.text));
    out.push(`<strong>Evidence</strong><pre class="evidence">${lines.map((l) => h(`${l.loc}  ${l.time}  ${l.text}`)).join('\n')}</pre>`);
  }
  out.push('</article>');
  return out.join('\n');
}

function inputsHtml(r: AnalyzeReport, c: Ctx): string {
  const t = r.timeline;
  const tot = totalsOf(t.accounting);
  const out: string[] = ['<h2 id="inputs">Inputs</h2>'];
  out.push(
    `<p>${h(`${counted(t.accounting.length, 'file')} from ${counted(hostsOf(t.accounting).length, 'host')}; ${num(tot.lines)} lines: ${num(tot.records)} records, ${num(tot.continuation)} continuation, ${num(tot.unknown)} unknown, ${num(tot.unreadable)} unreadable; ${num(tot.events)} events.`)}<br>${h(`Times: ${zoneNote(t as Timeline, c.zone)}`)}</p>`,
  );
  const changed = Object.entries(r.changed).map(([k, v]) => `${k}=${v}`);
  out.push(`<p class="muted">${h(`${counted(r.rules.length, 'rule')} run${changed.length ? `; --set ${changed.join(', ')}` : ''}; showing ${r.show} and above.`)}</p>`);
  out.push(accountingHtml(t.accounting, c.base));
  if (t.issues.length) {
    out.push('<h3>Notes about the inputs</h3><ul class="tight">');
    for (const i of t.issues) out.push(`<li class="mono">${h(`${relativeTo(i.file, c.base)}${i.line !== null ? `:${i.line}` : ''}: ${i.message}`)}</li>`);
    out.push('</ul>');
  }
  return out.join('\n');
}

/** Every input with its layout, zone and line counts (records + continuation + unknown + unreadable = lines): a wide table, it scrolls sideways on a narrow screen. */
export function accountingHtml(acc: readonly SourceAccounting[], base: string): string {
  const cols = ['file', 'host', 'kind', 'layout', 'zone'].map((label) => ({ label, cls: label === 'file' ? 'mono' : undefined }));
  const counts = ['lines', 'records', 'continuation', 'unknown', 'unreadable', 'events'].map((label) => ({ label, cls: 'n' }));
  const rows = acc.map((a) => {
    const events = Object.values(a.events).reduce((s, n) => s + (n ?? 0), 0);
    return [h(relativeTo(a.path, base)), h(a.host), h(a.kind), h(a.layout), h(a.zone), ...[a.lines, a.records, a.continuation, a.unknown, a.unreadable, events].map(num)];
  });
  return tableHtml([...cols, ...counts], rows, 'accounting', false);
}
