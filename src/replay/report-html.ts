// `rmq-diag replay --format html`: the replay as one self-contained page. The verdict first, then
// each milestone observed (above) and simulated (below) on one time axis with its delta, the
// faults as bands; the outages per client; the what-if variants as bars; the `--runs` spread per
// client (every seed's outage, p50 and p95); the scenario, and the inputs with their accounting.
// Here, not in src/report: it reads replay's report and the model's scenario, and src/report is below
// both (it draws with src/report/html/page.ts like the analyze page).

import { formatShort, parseZone, type Zone } from '../parse/time.js';
import type { SourceAccounting } from '../parse/types.js';
import type { Fault, Scenario } from '../model/index.js';
import { MILESTONE_LABEL as LABEL, statusText } from './report.js';
import { signedMs, type MilestoneRow, type ReplayReport } from './run.js';
import { formatMs } from '../util/durations.js';
import { commonDir } from '../util/paths.js';
import { accountingHtml } from '../report/html/analyze-html.js';
import { axisSvg, h, htmlDocument, px, timeScale, tooltip, type EvidenceEntry } from '../report/html/page.js';

const LABEL_W = 260;
const PLOT_W = 860;
const WIDTH = LABEL_W + PLOT_W + 40;
const ROW_H = 30;


const VERDICT: Record<ReplayReport['verdict'], string> = {
  reproduced: 'reproduced',
  'not-reproduced': 'not reproduced',
  'nothing-compared': 'nothing compared',
  'not-compared': 'ran (nothing observed to compare with)',
};

interface ReplayHtmlOptions {
  /** The inputs read, when the scenario was inferred from logs. */
  accounting?: readonly SourceAccounting[];
  /** Why nothing was compared (the text report's sentence). */
  nothingCompared?: string;
}

/** A fault's window in the run: what it is, on what, from when to when (epoch ms). */
function faultWindows(sc: Scenario, runEnd: number): Array<{ what: string; on: string; from: number; to: number }> {
  const faults = sc.faults ?? [];
  const out: Array<{ what: string; on: string; from: number; to: number }> = [];
  faults.forEach((f: Fault, i) => {
    const from = sc.startEpochMs + f.atMs;
    if ('state' in f) {
      if (f.state === 'up') return;
      // A host stays hung or down until it is up again (or reboots); a reboot is the moment itself.
      const next = faults.slice(i + 1).find((g) => 'state' in g && g.host === f.host && g.atMs > f.atMs);
      const to = f.state === 'reboot' ? from : next ? sc.startEpochMs + next.atMs : runEnd;
      out.push({ what: f.state, on: f.host, from, to });
    } else if ('stall' in f) out.push({ what: 'stall', on: f.broker, from, to: from + f.stall.durationMs });
    else if ('overload' in f) out.push({ what: 'overload', on: f.broker, from, to: from + f.overload.durationMs });
    else if ('slowPut' in f) out.push({ what: 'slow put', on: f.broker, from, to: from + f.slowPut.durationMs });
    else if ('partition' in f) out.push({ what: 'partition', on: f.partition.join(' / '), from, to: f.durationMs !== undefined ? from + f.durationMs : runEnd });
  });
  return out;
}

export function renderReplayHtml(r: ReplayReport, o: ReplayHtmlOptions = {}): string {
  const zone = parseZone(r.input.zone);
  const sc = r.input.scenario;
  const obs = r.input.observed;
  const runEnd = sc.startEpochMs + r.untilMs;
  const evidence: EvidenceEntry[] = [];
  const t = (ms: number) => formatShort(ms, zone);
  const out: string[] = ['<header>', '<h1>RocketMQ incident replay</h1>'];
  const cls = r.verdict === 'reproduced' ? 'ok' : r.verdict === 'not-compared' ? '' : 'bad';
  out.push(`<p><strong class="verdict ${cls}">${h(VERDICT[r.verdict])}</strong> <span class="muted">${h(`seed ${r.seed}; ${r.milestones.filter((m) => m.status === 'ok').length} of ${r.milestones.length} milestones within tolerance (max(10 s, 10% of the time since the fault start))`)}</span></p>`);
  out.push(
    `<p class="muted">${h(`source: ${r.input.source}`)}<br>${obs ? `${h(`observed ${t(obs.window.first)} .. ${t(obs.window.last)} (${zone.name})`)}<br>` : ''}${h(`run ${t(sc.startEpochMs)} .. ${t(runEnd)}: ${sc.nameServers.length} NameServers, ${sc.brokers.length} brokers, ${sc.clients.length} clients, ${(sc.faults ?? []).length} faults`)}</p>`,
    '</header>',
  );
  if (r.divergences.length) out.push(`<h3>What diverged</h3><ul class="tight">${r.divergences.map((d) => `<li>${h(d)}</li>`).join('')}</ul>`);
  if (r.verdict === 'nothing-compared' && o.nothingCompared) out.push(`<p>${h(o.nothingCompared)}</p>`);

  out.push('<h2 id="milestones">Observed and simulated</h2>');
  out.push(milestonesSvg(r, zone, runEnd, evidence));
  out.push('<div id="evidence" aria-live="polite"></div>');
  out.push(milestoneTable(r.milestones, zone, !!obs));

  out.push('<h2 id="outages">Outages</h2>', '<p class="muted">First to last failed send, per client.</p>');
  out.push(
    barChart(
      r.outages.map((x) => ({
        group: x.client,
        bars: [
          ...(obs ? [{ label: 'observed', ms: x.observedMs ?? 0, text: x.observedMs === null ? '-' : outageText(x.observedMs, x.observedFailedSends ?? 0), cls: 'obs' }] : []),
          { label: 'simulated', ms: x.simulatedMs, text: outageText(x.simulatedMs, x.simulatedFailedSends), cls: 'sim' },
        ],
      })),
      'outage-chart',
    ),
  );
  if (r.whatIf.length) {
    out.push('<h2 id="what-if">What if</h2>', `<p class="muted">${h(`Seed ${r.seed}, the same sends; outage and failed sends per client, for the baseline and each variant.`)}</p>`);
    const all = [r.baseline, ...r.whatIf];
    out.push(
      barChart(
        sc.clients.map((c) => ({
          group: c.host,
          bars: all.map((v, i) => {
            const x = v.clients.find((k) => k.client === c.host);
            return { label: v.label, ms: x?.outageMs ?? 0, text: x ? outageText(x.outageMs, x.failedSends) : '-', cls: i === 0 ? 'bar-base' : 'bar-var' };
          }),
        })),
        'whatif-chart',
      ),
    );
    for (const v of r.whatIf) for (const n of v.notes) out.push(`<p class="muted">${h(`note (${v.label}): ${n}`)}</p>`);
  }
  if (r.runs) out.push(runsHtml(r));
  out.push(scenarioHtml(r, t));
  if (o.accounting?.length) out.push('<h2 id="inputs">Inputs</h2>', accountingHtml(o.accounting, commonDir(o.accounting.map((a) => a.path))));
  return htmlDocument(`rmq-diag replay: ${VERDICT[r.verdict]}`, out.join('\n'), evidence);
}

function outageText(ms: number, failed: number): string {
  return failed ? `${formatMs(ms)}, ${failed} failed` : 'no failed send';
}

function milestonesSvg(r: ReplayReport, zone: Zone, runEnd: number, evidence: EvidenceEntry[]): string {
  const sc = r.input.scenario;
  const faults = faultWindows(sc, runEnd);
  const rows = r.milestones.filter((m) => m.observed || m.simulated);
  const times = [...rows.flatMap((m) => [m.observed?.ts, m.simulated?.ts]), ...faults.flatMap((f) => [f.from, f.to])].filter((x): x is number => typeof x === 'number');
  if (!times.length) return '<p class="muted">No milestone to draw.</p>';
  let from = Math.min(...times);
  let to = Math.max(...times);
  const pad = Math.max(5000, (to - from) * 0.04);
  from -= pad;
  to += pad;
  const s = timeScale(from, to, LABEL_W, LABEL_W + PLOT_W, zone);
  const top = 26;
  const height = top + rows.length * ROW_H + 8;
  const out: string[] = [`<svg class="chart" id="replay-svg" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-label="${h(`${rows.length} milestones observed and simulated, ${faults.length} faults`)}" xmlns="http://www.w3.org/2000/svg">`];
  rows.forEach((m, i) => {
    const y = top + i * ROW_H;
    out.push(`<g class="lane" data-milestone="${h(m.name)}"><rect class="lane-bg${i % 2 ? ' alt' : ''}" x="0" y="${y}" width="${WIDTH}" height="${ROW_H}"/><text x="6" y="${y + 12}">${h(clip(LABEL[m.name] ?? m.name, 40))}</text><text x="6" y="${y + 25}" fill="#5b6475">${h(clip(m.subject, 42))}</text>`);
    out.push(`<text x="${LABEL_W - 8}" y="${y + 12}" text-anchor="end" fill="#1565c0" font-size="10">observed</text><text x="${LABEL_W - 8}" y="${y + 25}" text-anchor="end" fill="#ef6c00" font-size="10">simulated</text></g>`);
  });
  out.push(axisSvg(s, 14, height - 8));
  for (const f of faults) {
    const x0 = s.x(f.from);
    const x1 = Math.max(x0 + 3, s.x(f.to));
    const ev = evidence.push({ title: `${f.on} ${f.what}: ${formatShort(f.from, zone)} – ${formatShort(f.to, zone)} (the scenario's fault)`, lines: [] }) - 1;
    out.push(`<g class="fault" data-ev="${ev}" tabindex="0"><rect class="fault-band" x="${px(x0)}" y="${top}" width="${px(x1 - x0)}" height="${rows.length * ROW_H}"/><text x="${px(x0 + 3)}" y="${top - 2}" fill="#c62828" font-weight="600">${h(`${f.on} ${f.what}`)}</text>${tooltip(evidence[ev])}</g>`);
  }
  rows.forEach((m, i) => {
    const y = top + i * ROW_H;
    const mark = (side: 'observed' | 'simulated') => {
      const v = m[side];
      if (!v) return '';
      const yy = side === 'observed' ? y + 8 : y + 22;
      const ev = evidence.push({ title: `${LABEL[m.name] ?? m.name} ${m.subject}${v.detail ? ` ${v.detail}` : ''}, ${side}: ${formatShort(v.ts, zone)}`, lines: v.evidence ? [{ loc: v.evidence, time: formatShort(v.ts, zone).slice(11), text: side === 'simulated' ? '(a line of the simulated logs: --emit-logs writes them)' : '' }] : [] }) - 1;
      const shape = side === 'observed' ? `<circle cx="${px(s.x(v.ts))}" cy="${yy}" r="5"/>` : `<path d="M${px(s.x(v.ts))} ${yy - 5}l5 5l-5 5l-5 -5z"/>`;
      return `<g class="mark ${side === 'observed' ? 'obs' : 'sim'}" data-ev="${ev}" tabindex="0">${shape}${tooltip(evidence[ev])}</g>`;
    };
    if (m.observed && m.simulated) {
      out.push(`<line class="delta${m.status === 'diverged' ? ' diverged' : ''}" x1="${px(s.x(m.observed.ts))}" y1="${y + 8}" x2="${px(s.x(m.simulated.ts))}" y2="${y + 22}"/>`);
      const right = Math.max(s.x(m.observed.ts), s.x(m.simulated.ts)) + 9;
      if (m.deltaMs !== null) out.push(`<text x="${px(right)}" y="${y + 19}" fill="${m.status === 'diverged' ? '#c62828' : '#5b6475'}">${h(signedMs(m.deltaMs))}</text>`);
    }
    out.push(mark('observed'), mark('simulated'));
  });
  out.push('</svg>');
  return `<div class="legend"><span><svg width="12" height="12"><circle cx="6" cy="6" r="5" fill="#1565c0"/></svg> observed</span><span><svg width="12" height="12"><path d="M6 1l5 5l-5 5l-5 -5z" fill="#ef6c00"/></svg> simulated</span><span><svg width="14" height="10"><rect width="14" height="10" fill="rgba(198,40,40,.3)"/></svg> fault window</span></div>${out.join('')}`;
}

function milestoneTable(ms: readonly MilestoneRow[], zone: Zone, observed: boolean): string {
  const out = [`<table class="milestones"><thead><tr><th>milestone</th><th>subject</th>${observed ? '<th>observed</th>' : ''}<th>simulated</th>${observed ? '<th>delta</th><th></th>' : ''}</tr></thead><tbody>`];
  for (const m of ms) {
    const v = m.simulated ?? m.observed;
    const at = (x: { ts: number } | null) => (x ? formatShort(x.ts, zone).slice(11) : '-');
    const st = statusText(m);
    out.push(
      `<tr><td>${h(LABEL[m.name] ?? m.name)}</td><td>${h(`${m.subject}${v?.detail ? ` ${v.detail}` : ''}`)}</td>${observed ? `<td class="mono">${h(at(m.observed))}</td>` : ''}<td class="mono">${h(at(m.simulated))}</td>${observed ? `<td class="mono">${h(m.deltaMs !== null ? signedMs(m.deltaMs) : '')}</td><td class="${m.status === 'diverged' ? 'bad' : m.status === 'ok' ? 'ok' : 'muted'}">${h(st)}</td>` : ''}</tr>`,
    );
  }
  out.push('</tbody></table>');
  return out.join('\n');
}

interface BarGroup {
  group: string;
  bars: Array<{ label: string; ms: number; text: string; cls: string }>;
}

/** Horizontal bars grouped per client, on one scale of milliseconds. */
function barChart(groups: readonly BarGroup[], id: string): string {
  const max = Math.max(1, ...groups.flatMap((g) => g.bars.map((b) => b.ms)));
  const barH = 14;
  const x0 = LABEL_W;
  const w = PLOT_W - 160;
  let y = 6;
  const out: string[] = [];
  for (const g of groups) {
    out.push(`<text x="6" y="${y + 11}" font-weight="600">${h(clip(g.group, 36))}</text>`);
    for (const b of g.bars) {
      const len = (b.ms / max) * w;
      out.push(`<g class="bar" data-label="${h(b.label)}"><text x="${x0 - 8}" y="${y + 11}" text-anchor="end" fill="#5b6475">${h(clip(b.label, 34))}</text><rect class="${b.cls}" x="${x0}" y="${y}" width="${px(Math.max(1, len))}" height="${barH}"/><text x="${px(x0 + Math.max(1, len) + 6)}" y="${y + 11}">${h(b.text)}</text><title>${h(`${g.group}, ${b.label}: ${b.text}`)}</title></g>`);
      y += barH + 4;
    }
    y += 8;
  }
  return `<svg class="chart" id="${id}" viewBox="0 0 ${WIDTH} ${y}" width="${WIDTH}" height="${y}" xmlns="http://www.w3.org/2000/svg">${out.join('')}</svg>`;
}

/** Every seed's outage as a dot on one line per client and variant, with p50 and p95 marked. */
function runsHtml(r: ReplayReport): string {
  const runs = r.runs!;
  const seeds = runs.seeds;
  const rows = runs.variants.flatMap((v) => v.clients.map((c) => ({ v, c })));
  const max = Math.max(1, ...rows.flatMap((x) => x.c.outageBySeedMs));
  const w = PLOT_W - 160;
  const rowH = 22;
  const out: string[] = [];
  rows.forEach(({ v, c }, i) => {
    const y = 8 + i * rowH;
    const x = (ms: number) => LABEL_W + (ms / max) * w;
    out.push(`<g class="spread-row" data-client="${h(c.client)}"><text x="6" y="${y + 12}">${h(clip(`${c.client} · ${v.label}`, 44))}</text><line class="grid" x1="${LABEL_W}" x2="${LABEL_W + w}" y1="${y + 8}" y2="${y + 8}"/>`);
    for (const ms of c.outageBySeedMs) out.push(`<circle class="seed" cx="${px(x(ms))}" cy="${y + 8}" r="3.5"/>`);
    if (c.outageMs.p50 !== null && c.outageMs.p95 !== null) {
      out.push(`<line class="spread" x1="${px(x(c.outageMs.p50))}" x2="${px(x(c.outageMs.p50))}" y1="${y + 1}" y2="${y + 15}"/><line class="spread" x1="${px(x(c.outageMs.p95))}" x2="${px(x(c.outageMs.p95))}" y1="${y + 1}" y2="${y + 15}" stroke-dasharray="2 2"/>`);
      out.push(`<text x="${LABEL_W + w + 10}" y="${y + 12}">${h(`p50 ${formatMs(c.outageMs.p50)}, p95 ${formatMs(c.outageMs.p95)}`)}</text>`);
    }
    out.push(`<title>${h(`${c.client}, ${v.label}: outages over ${seeds.length} seeds`)}</title></g>`);
  });
  const height = 16 + rows.length * rowH;
  return `<h2 id="runs">Runs</h2><p class="muted">${h(`${seeds.length} seeds (${seeds[0]}..${seeds[seeds.length - 1]}), NameServer bindings drawn per seed: each dot is one seed's outage; the solid line is p50, the dashed one p95 (0 to ${formatMs(max)}).`)}</p><svg class="chart" id="runs-chart" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" xmlns="http://www.w3.org/2000/svg">${out.join('')}</svg>`;
}

function scenarioHtml(r: ReplayReport, t: (ms: number) => string): string {
  const sc = r.input.scenario;
  const out = ['<h2 id="scenario">Scenario</h2>', '<table><thead><tr><th></th><th>name</th><th>host</th><th>settings</th></tr></thead><tbody>'];
  for (const n of sc.nameServers) out.push(`<tr><td>NameServer</td><td class="mono">${h(n.addr)}</td><td>${h(n.host)}</td><td>${h(n.version ?? sc.serverVersion ?? '')}</td></tr>`);
  for (const b of sc.brokers) out.push(`<tr><td>broker</td><td class="mono">${h(`${b.name} ${b.addr}`)}</td><td>${h(b.host)}</td><td>${h(b.version ?? sc.serverVersion ?? '')}</td></tr>`);
  for (const c of sc.clients) {
    const s = c.settings ?? {};
    const bits = [c.version, `bound to ${c.namesrv ?? 'random'}`, c.topic, c.sendTimesMs ? `${c.sendTimesMs.length} sends as logged` : `${c.sendRatePerSec} sends/s`, `sendMsgTimeout ${s.sendMsgTimeoutMs ?? 3000} ms`].filter(Boolean);
    out.push(`<tr><td>client</td><td>${h(c.host)}</td><td class="mono">${h(c.ip ?? '')}</td><td>${h(bits.join(', '))}</td></tr>`);
  }
  for (const f of faultWindows(sc, sc.startEpochMs + r.untilMs)) out.push(`<tr><td>fault</td><td>${h(`${f.on} ${f.what}`)}</td><td></td><td class="mono">${h(f.from === f.to ? t(f.from) : `${t(f.from)} – ${t(f.to)}`)}</td></tr>`);
  out.push('</tbody></table>');
  const defaults = Object.entries(r.input.defaults);
  if (defaults.length) out.push(`<details><summary>${h(`${defaults.length} values are defaults, not in the logs`)}</summary><ul class="tight">${defaults.map(([k, v]) => `<li><code>${h(k)}</code> = ${h(v)}</li>`).join('')}</ul></details>`);
  for (const n of r.input.notes) out.push(`<p class="muted">${h(`note: ${n}`)}</p>`);
  return out.join('\n');
}

function clip(text: string, n: number): string {
  return text.length <= n ? text : `${text.slice(0, n - 1)}…`;
}
