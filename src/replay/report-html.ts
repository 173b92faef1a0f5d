// `rmq-diag replay --format html`: the replay as one self-contained page. The verdict first, then
// each milestone observed (above) and simulated (below) on one time axis with its delta, the
// faults as bands; the outages per client; the what-if variants as bars; the `--runs` spread per
// client (every seed's outage, p50 and p95); the scenario, and the inputs with their accounting.
// The bars and the spread are HTML (they reflow to a phone's width); the milestones' picture scrolls
// sideways there, and their table reads as a list.
// Here, not in src/report: it reads replay's report and the model's scenario, and src/report is below
// both (it draws with src/report/html/page.ts like the analyze page).

import { formatShort, parseZone, type Zone } from '../parse/time.js';
import type { SourceAccounting } from '../parse/types.js';
import { hostStateWord, type Fault, type Scenario } from '../model/index.js';
import { clientText, consumerRows, MILESTONE_LABEL as LABEL, skippedText, statusText } from './report.js';
import { signedMs, type MilestoneRow, type ReplayReport } from './run.js';
import { formatMs } from '../util/durations.js';
import { commonDir } from '../util/paths.js';
import { accountingHtml } from '../report/html/analyze-html.js';
import { axisSvg, h, htmlDocument, px, tableHtml, timeScale, tooltip, type EvidenceEntry } from '../report/html/page.js';

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
      out.push({ what: hostStateWord(f), on: f.host, from, to });
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

  out.push('<section class="block">', '<h2 id="milestones">Observed and simulated</h2>');
  out.push(milestonesSvg(r, zone, runEnd, evidence));
  out.push('<div id="evidence" aria-live="polite"></div>');
  out.push(milestoneTable(r.milestones, zone, !!obs), '</section>');

  out.push('<section class="block">', '<h2 id="outages">Outages</h2>', '<p class="muted">First to last failed send, per client.</p>');
  out.push(
    barChart(
      r.outages.map((x) => ({
        group: x.client,
        bars: [
          ...(obs ? [{ label: 'observed', ms: x.observedMs ?? 0, text: x.observedMs === null ? 'not in the logs' : outageText(x.observedMs, x.observedFailedSends ?? 0, obs.clients[x.client]?.source), cls: 'obs' }] : []),
          { label: 'simulated', ms: x.simulatedMs, text: outageText(x.simulatedMs, x.simulatedFailedSends), cls: 'sim' },
        ],
      })),
      'outage-chart',
    ),
    '</section>',
  );
  if (r.baseline.consumers.length) out.push('<section class="block">', consumersHtml(r, zone), '</section>');
  if (r.whatIf.length) {
    out.push('<section class="block">', '<h2 id="what-if">What if</h2>', `<p class="muted">${h(`Seed ${r.seed}, the same sends; outage and failed sends per client, for the baseline and each variant.`)}</p>`);
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
    if (r.baseline.consumers.length) {
      const filters = all.some((v) => v.consumers.some((c) => c.skippedBySubscription !== undefined));
      const rows = r.baseline.consumers.flatMap((g) =>
        all.map((v) => {
          const x = v.consumers.find((c) => c.group === g.group);
          const skipped = filters ? [String(x?.skippedBySubscription?.total ?? '-')] : [];
          return [h(g.group), h(v.label), String(x?.maxLag ?? '-'), String(x?.dlq ?? '-'), String(x?.duplicates ?? '-'), String(x?.failed ?? '-'), ...skipped];
        }),
      );
      const heads = [{ label: 'group' }, { label: 'variant' }, { label: 'largest lag', cls: 'n' }, { label: 'DLQ', cls: 'n' }, { label: 'twice', cls: 'n' }, { label: 'failed', cls: 'n' }];
      out.push(tableHtml(filters ? [...heads, { label: 'skipped by subscription (simulated)', cls: 'n' }] : heads, rows, 'whatif-consumers'));
    }
    for (const v of r.whatIf) for (const n of v.notes) out.push(`<p class="muted">${h(`note (${v.label}): ${n}`)}</p>`);
    out.push('</section>');
  }
  if (r.runs) out.push('<section class="block">', runsHtml(r), '</section>');
  out.push('<section class="block">', scenarioHtml(r, t), '</section>');
  if (o.accounting?.length) out.push('<section class="block">', '<h2 id="inputs">Inputs</h2>', accountingHtml(o.accounting, commonDir(o.accounting.map((a) => a.path))), '</section>');
  return htmlDocument(`rmq-diag replay: ${VERDICT[r.verdict]}`, out.join('\n'), evidence);
}

/** `source` 'client': the observed failures are the client's failed attempts (no application log; a retry may have saved some). */
function outageText(ms: number, failed: number, source: 'app' | 'client' = 'app'): string {
  if (source === 'client') return failed ? `${formatMs(ms)}, ${failed} failed attempt${failed === 1 ? '' : 's'} (no application log)` : 'no failed attempt';
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
  return `<div class="legend"><span><svg width="12" height="12"><circle cx="6" cy="6" r="5" fill="#1565c0"/></svg> observed</span><span><svg width="12" height="12"><path d="M6 1l5 5l-5 5l-5 -5z" fill="#ef6c00"/></svg> simulated</span><span><svg width="14" height="10"><rect width="14" height="10" fill="rgba(198,40,40,.3)"/></svg> fault window</span></div><div class="scroll">${out.join('')}</div>`;
}

function milestoneTable(ms: readonly MilestoneRow[], zone: Zone, observed: boolean): string {
  const at = (x: { ts: number } | null) => (x ? formatShort(x.ts, zone).slice(11) : '-');
  const cols = [{ label: 'milestone' }, { label: 'subject' }, ...(observed ? [{ label: 'observed', cls: 'mono time' }] : []), { label: 'simulated', cls: 'mono time' }, ...(observed ? [{ label: 'delta', cls: 'mono time' }, { label: 'status' }] : [])];
  const rows = ms.map((m) => {
    const v = m.simulated ?? m.observed;
    const st = `<span class="${m.status === 'diverged' ? 'bad' : m.status === 'ok' ? 'ok' : 'muted'}">${h(statusText(m))}</span>`;
    return [h(LABEL[m.name] ?? m.name), h(`${m.subject}${v?.detail ? ` ${v.detail}` : ''}`), ...(observed ? [h(at(m.observed))] : []), h(at(m.simulated)), ...(observed ? [h(m.deltaMs !== null ? signedMs(m.deltaMs) : ''), st] : [])];
  });
  return tableHtml(cols, rows, 'milestones');
}

interface BarGroup {
  group: string;
  bars: Array<{ label: string; ms: number; text: string; cls: string }>;
}

/** Horizontal bars grouped per client, on one scale of milliseconds (HTML: they fit any width). */
function barChart(groups: readonly BarGroup[], id: string): string {
  const max = Math.max(1, ...groups.flatMap((g) => g.bars.map((b) => b.ms)));
  const out: string[] = [];
  for (const g of groups) {
    out.push(`<div class="bar-group" data-client="${h(g.group)}"><div class="bar-client">${h(g.group)}</div>`);
    for (const b of g.bars) {
      out.push(
        `<div class="bar" data-label="${h(b.label)}" title="${h(`${g.group}, ${b.label}: ${b.text}`)}"><span class="bar-label">${h(b.label)}</span><span class="bar-track"><span class="bar-fill ${b.cls}" style="width:${pct(b.ms / max)}"></span></span><span class="bar-text">${h(b.text)}</span></div>`,
      );
    }
    out.push('</div>');
  }
  return `<div class="bars" id="${id}">${out.join('')}</div>`;
}

/** A share as a CSS width, one decimal. */
function pct(share: number): string {
  return `${px(Math.max(0, Math.min(1, share)) * 100)}%`;
}

/** Every seed's outage as a dot on one line per client and variant, with p50 and p95 marked (HTML, as the bars). */
function runsHtml(r: ReplayReport): string {
  const runs = r.runs!;
  const seeds = runs.seeds;
  const rows = runs.variants.flatMap((v) => v.clients.map((c) => ({ v, c })));
  const max = Math.max(1, ...rows.flatMap((x) => x.c.outageBySeedMs));
  const out: string[] = [];
  for (const { v, c } of rows) {
    const at = (ms: number) => `left:${pct(ms / max)}`;
    const dots = c.outageBySeedMs.map((ms, i) => `<i class="seed" style="${at(ms)}" title="${h(`seed ${seeds[i]}: ${formatMs(ms)}`)}"></i>`).join('');
    const stat = c.outageMs.p50 !== null && c.outageMs.p95 !== null;
    const lines = stat ? `<i class="p50" style="${at(c.outageMs.p50!)}"></i><i class="p95" style="${at(c.outageMs.p95!)}"></i>` : '';
    out.push(
      `<div class="spread-row" data-client="${h(c.client)}" title="${h(`${c.client}, ${v.label}: outages over ${seeds.length} seeds`)}"><span class="bar-label">${h(`${c.client} · ${v.label}`)}</span><span class="spread-track">${dots}${lines}</span><span class="bar-text">${stat ? h(`p50 ${formatMs(c.outageMs.p50!)}, p95 ${formatMs(c.outageMs.p95!)}`) : ''}</span></div>`,
    );
  }
  return `<h2 id="runs">Runs</h2><p class="muted">${h(`${seeds.length} seeds (${seeds[0]}..${seeds[seeds.length - 1]}), NameServer bindings drawn per seed: each dot is one seed's outage; the solid line is p50, the dashed one p95 (0 to ${formatMs(max)}).`)}</p><div class="bars" id="runs-chart">${out.join('')}</div>`;
}

const LAG_H = 160;

/**
 * Per consumer group: the simulated lag every 10 s as a line (the logs do not show a group's lag:
 * the broker's max offsets are not logged), and its counts. The faults and the listener's changes
 * are marked on the time axis.
 */
function consumersHtml(r: ReplayReport, zone: Zone): string {
  const sc = r.input.scenario;
  const out: string[] = ['<h2 id="consumers">Consumers</h2>', '<p class="muted">Simulated lag of each group (the broker\'s max offset minus the committed offset, over the topic\'s and the retry queues, every 10 s); the logs do not show a group\'s lag.</p>'];
  for (const g of Object.values(r.run.metrics.consumerGroups ?? {})) {
    const lag = g.lag;
    if (lag.length < 2) continue;
    const from = sc.startEpochMs + lag[0].atMs;
    const to = sc.startEpochMs + lag[lag.length - 1].atMs;
    const s = timeScale(from, to, LABEL_W, LABEL_W + PLOT_W, zone);
    const max = Math.max(1, ...lag.map((x) => x.total));
    const top = 20;
    const y = (v: number) => top + LAG_H - (v / max) * LAG_H;
    const height = top + LAG_H + 8;
    const points = lag.map((x) => `${px(s.x(sc.startEpochMs + x.atMs))},${px(y(x.total))}`).join(' ');
    const retry = lag.map((x) => `${px(s.x(sc.startEpochMs + x.atMs))},${px(y(x.retry))}`).join(' ');
    const svg: string[] = [`<svg class="chart" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-label="${h(`lag of ${g.group}: largest ${g.maxLag?.total ?? 0}`)}" xmlns="http://www.w3.org/2000/svg">`];
    for (const f of faultWindows(sc, to)) {
      const x0 = s.x(Math.max(from, f.from));
      const x1 = Math.max(x0 + 3, s.x(Math.min(to, f.to)));
      svg.push(`<rect class="fault-band" x="${px(x0)}" y="${top}" width="${px(x1 - x0)}" height="${LAG_H}"><title>${h(`${f.on} ${f.what}`)}</title></rect>`);
    }
    svg.push(`<text x="6" y="${top + 10}">${h(clip(g.group, 40))}</text><text x="6" y="${top + 26}" fill="#5b6475">${h(clip(g.topic, 40))}</text>`);
    svg.push(`<text x="${LABEL_W - 8}" y="${top + 10}" text-anchor="end" fill="#5b6475">${max}</text><text x="${LABEL_W - 8}" y="${top + LAG_H}" text-anchor="end" fill="#5b6475">0</text>`);
    svg.push(`<polyline fill="none" stroke="#ef6c00" stroke-width="2" points="${points}"/>`);
    if (lag.some((x) => x.retry > 0)) svg.push(`<polyline fill="none" stroke="#6a1b9a" stroke-width="1.5" stroke-dasharray="4 3" points="${retry}"/>`);
    svg.push(axisSvg(s, 12, top + LAG_H));
    svg.push('</svg>');
    out.push(`<div class="legend"><span><svg width="14" height="10"><line x1="0" y1="5" x2="14" y2="5" stroke="#ef6c00" stroke-width="2"/></svg> simulated lag</span><span><svg width="14" height="10"><line x1="0" y1="5" x2="14" y2="5" stroke="#6a1b9a" stroke-dasharray="4 3"/></svg> of it in %RETRY%</span></div><div class="scroll">${svg.join('')}</div>`);
    const at = g.maxLag ? ` at ${formatShort(sc.startEpochMs + g.maxLag.atMs, zone)}` : '';
    out.push(
      tableHtml(
        [
          { label: 'group' },
          { label: 'instances' },
          { label: 'largest lag' },
          { label: 'consumed', cls: 'n' },
          { label: 'failed', cls: 'n' },
          { label: 'retried', cls: 'n' },
          { label: 'DLQ', cls: 'n' },
          { label: 'twice', cls: 'n' },
          ...(g.skippedBySubscription ? [{ label: 'skipped by subscription' }] : []),
        ],
        [[h(g.group), h(g.instances.join(', ')), h(`${g.maxLag?.total ?? 0}${at}`), String(g.consumed), String(g.failed), String(g.retried), String(g.dlq), String(g.duplicates), ...(g.skippedBySubscription ? [h(skippedText(g.skippedBySubscription))] : [])]],
        `consumers-${g.group}`,
      ),
    );
  }
  return out.join('\n');
}

function scenarioHtml(r: ReplayReport, t: (ms: number) => string): string {
  const sc = r.input.scenario;
  const rows: string[][] = [];
  for (const n of sc.nameServers) rows.push(['NameServer', h(n.addr), h(n.host), h(n.version ?? sc.serverVersion ?? '')]);
  for (const b of sc.brokers) rows.push(['broker', h(`${b.name} ${b.addr}`), h(b.host), h(b.version ?? sc.serverVersion ?? '')]);
  sc.clients.forEach((c, i) => rows.push(['client', h(`${c.host}${c.ip ? ` ${c.ip}` : ''}`), h(c.host), h(clientText(sc, i, r.input.defaults))]));
  for (const row of consumerRows(sc, r.input.defaults, t)) rows.push(row.map(h));
  for (const f of faultWindows(sc, sc.startEpochMs + r.untilMs)) rows.push(['fault', h(`${f.on} ${f.what}`), '', h(f.from === f.to ? t(f.from) : `${t(f.from)} – ${t(f.to)}`)]);
  const out = ['<h2 id="scenario">Scenario</h2>', tableHtml([{ label: '' }, { label: 'name' }, { label: 'host' }, { label: 'details' }], rows, 'scenario')];
  const defaults = Object.entries(r.input.defaults);
  if (defaults.length) out.push(`<details><summary>${h(`${defaults.length} values are defaults, not in the logs`)}</summary><ul class="tight">${defaults.map(([k, v]) => `<li><code>${h(k)}</code> = ${h(v)}</li>`).join('')}</ul></details>`);
  for (const n of r.input.notes) out.push(`<p class="muted">${h(`note: ${n}`)}</p>`);
  return out.join('\n');
}

function clip(text: string, n: number): string {
  return text.length <= n ? text : `${text.slice(0, n - 1)}…`;
}
