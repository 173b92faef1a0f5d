// `rmq-diag replay` output: for people (the scenario in short, milestones observed vs simulated with
// their deltas, the verdict, outages, what-if and runs tables) and as one JSON document
// (docs/replay.md, schemaVersion 1). Times are in the output zone; text from the logs is escaped.

import { formatIso, formatShort, parseZone, type Zone } from '../parse/time.js';
import { escapeText, jsonSafe, type Palette } from '../report/escape.js';
import { formatMs } from '../util/durations.js';
import { CLIENT_DEFAULTS, CONSUMER_DEFAULTS } from '../rocketmq/facts.js';
import { hostStateWord, type Fault, type Scenario } from '../model/index.js';
import type { ComparedMilestone } from '../rules/milestones.js';
import { prettyJson } from './file.js';
import { signedMs, unharmedClients, type MilestoneRow, type ReplayReport, type Stat, type VariantResult } from './run.js';
import { CONSUMER_TOLERANCE_TEXT, consumerFigureText } from './consumer-verdict.js';

const REPLAY_SCHEMA_VERSION = 1;

interface ReplayTextOptions {
  palette: Palette;
  verbose: boolean;
  /** Columns the text fits (tables shrink, prose wraps); default 80. */
  width?: number;
  /** `--emit-logs`: where the simulated logs went and how many files. */
  emitted?: { dir: string; files: number } | null;
  /** `--save-scenario`: where the scenario was written. */
  saved?: string | null;
}

/** A milestone's name in the reports. */
export const MILESTONE_LABEL: Record<ComparedMilestone, string> = {
  'fault-start': 'fault start',
  'namesrv-removal': 'NameServer removes',
  'first-failure': 'first failed send',
  'namesrv-switch': 'NameServer switch',
  'route-lost': 'route drops broker',
  'route-back': 'route regains broker',
  'outage-end': 'last failed send',
};

const count = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

// eslint-disable-next-line no-control-regex
const ANSI_SGR = /\u001b\[[0-9;]*m/g;
const visible = (s: string): number => [...s.replace(ANSI_SGR, '')].length;

/**
 * Words of `text` in lines of at most `room` columns (a word longer than that is broken). Linear in
 * the text: a line's width is kept, not measured again, and a long word is cut in one pass.
 */
function wrapWords(text: string, room0: number): string[] {
  const room = Math.max(1, room0);
  const out: string[] = [];
  let line = '';
  let width = 0;
  for (const word of text.split(' ')) {
    let w = word;
    let ww = visible(w);
    if (line && width + 1 + ww > room) {
      out.push(line);
      line = '';
      width = 0;
    }
    if (!line && ww > room && !w.includes('\u001b')) {
      const chars = [...w];
      let k = 0;
      for (; chars.length - k > room; k += room) out.push(chars.slice(k, k + room).join(''));
      w = chars.slice(k).join('');
      ww = chars.length - k;
    }
    width = line ? width + 1 + ww : ww;
    line = line ? `${line} ${w}` : w;
  }
  out.push(line);
  return out;
}

/** `head` (may hold colour) then `text` word-wrapped to `width`, the following lines indented by `indent`. */
function flow(head0: string, text0: string, width: number, indent = 2): string {
  // Leading spaces of the text belong to the head (the word split would drop them).
  const lead = /^ */.exec(text0)![0];
  const head = head0 + lead;
  const text = text0.slice(lead.length);
  const first = width - visible(head);
  const words = wrapWords(text, Math.max(20, first));
  if (words.length === 1) return head + words[0];
  // The rest of the text is wrapped again to the wider room, from where the first line ended (its
  // lines are the text's own characters): joining the other lines with spaces would put a space
  // inside a word broken for the first line's room (a file:line of the evidence).
  const after = text.slice(words[0].length);
  const rest = wrapWords(after.startsWith(' ') ? after.slice(1) : after, Math.max(20, width - indent));
  return [head + words[0], ...rest.map((l) => ' '.repeat(indent) + l)].join('\n');
}

/**
 * Takes `excess` columns off the widest of `widths` (none below 8), one at a time from the widest
 * (the first of equals): done a level at a time, so that a cell of megabytes costs no more than one of
 * a few words.
 */
function narrow(widths: number[], excess0: number): void {
  let excess = excess0;
  while (excess > 0) {
    const top = Math.max(...widths);
    if (top <= 8) return;
    const below = Math.max(8, ...widths.filter((w) => w < top));
    const tied = widths.flatMap((w, i) => (w === top ? [i] : []));
    const levels = Math.min(top - below, Math.floor(excess / tied.length));
    if (levels > 0) {
      for (const i of tied) widths[i] -= levels;
      excess -= levels * tied.length;
    } else {
      widths[tied[0]]--;
      excess--;
    }
  }
}

/**
 * Left-aligned columns separated by two spaces, fitted to `width`: while the table is too wide, the
 * widest column gets narrower (down to 8), and its cells wrap at spaces onto more lines of the row.
 * Nothing is cut. The last column is not padded.
 */
function columns(rows: string[][], width: number, indent = '  '): string {
  const n = Math.max(0, ...rows.map((r) => r.length));
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, visible(c))));
  narrow(widths, indent.length + widths.reduce((a, b) => a + b, 0) + 2 * (n - 1) - width);
  const out: string[] = [];
  for (const r of rows) {
    const cells = r.map((c, i) => wrapWords(c, widths[i]));
    const height = Math.max(1, ...cells.map((c) => c.length));
    for (let k = 0; k < height; k++) {
      const parts = cells.map((c, i) => {
        const text = c[k] ?? '';
        return i === cells.length - 1 ? text : text + ' '.repeat(Math.max(0, widths[i] - visible(text)));
      });
      out.push((indent + parts.join('  ')).trimEnd());
    }
  }
  return out.join('\n');
}

/** A table whose columns are variants: side by side when it fits, else one block per variant. */
function variantTable(rows: string[][], width: number): string {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, visible(c))));
  if (2 + widths.reduce((a, b) => a + b + 2, 0) - 2 <= width) return columns(rows, width);
  const [head, ...body] = rows;
  const out: string[] = [];
  for (let j = 1; j < head.length; j++) {
    out.push(flow('  ', head[j], width, 4));
    out.push(columns(body.map((r) => [r[0], r[j] ?? '']), width, '    '));
  }
  return out.join('\n');
}

function sameDay(times: number[], zone: Zone): boolean {
  const days = new Set(times.map((t) => formatShort(t, zone).slice(0, 10)));
  return days.size <= 1;
}


const STATE_NOTE: Record<string, string> = {
  unreachable: ' (no connection completes: without power, or frozen whole)',
  hung: ' (its processes stopped; its OS still takes connections)',
};

function faultText(f: Fault, sc: Scenario, t: (ms: number) => string): string {
  const at = t(sc.startEpochMs + f.atMs);
  if ('state' in f) {
    const boot = f.boot && f.state === 'reboot' ? ` (${[f.boot.namesrvMs !== undefined ? `NameServer boots after ${formatMs(f.boot.namesrvMs)}` : '', f.boot.brokerMs !== undefined ? `broker after ${formatMs(f.boot.brokerMs)}` : ''].filter(Boolean).join(', ')})` : '';
    const word = hostStateWord(f);
    return `${at}  ${f.host} ${word}${STATE_NOTE[word] ?? ''}${boot}`;
  }
  if ('stall' in f) return `${at}  ${f.broker} stalls ${f.stall.durationMs} ms${f.stall.ioFrozen ? ', reading nothing' : f.stall.ioFrozenMs ? `, reading nothing for the first ${f.stall.ioFrozenMs} ms` : ''}`;
  if ('overload' in f) return `${at}  ${f.broker} overloaded for ${formatMs(f.overload.durationMs)} (puts take ${f.overload.serviceMs} ms)`;
  if ('slowPut' in f) return `${at}  ${f.broker} slow put ${f.slowPut.durationMs} ms`;
  if ('diskFull' in f) return `${at}  ${f.broker} disk full for ${formatMs(f.diskFull.durationMs)} (writes refused)`;
  if ('partition' in f) return `${at}  ${f.partition.join(' / ')} partitioned${f.durationMs !== undefined ? ` for ${formatMs(f.durationMs)}` : ''}`;
  return `${at}  ${f.heal.join(' / ')} healed`;
}

/** A milestone row's status in the reports ('' for a fault start the logs cannot show). */
/**
 * A consumer group's lines of the scenario: its settings, each marked `assumed` when the logs did
 * not give it (a default), the listener's time and failures with their changes, and its instances.
 */
/** How a client sends: its logged sends, its rate, or its rate's range where it changed. */
export function sendsText(c: Scenario['clients'][number]): string {
  if (c.sendTimesMs) return `${c.sendTimesMs.length} sends as logged`;
  const steps = c.sendRateSteps ?? [];
  if (!steps.length) return `${c.sendRatePerSec} sends/s`;
  const rates = steps.map((x) => x.perSec);
  return `${Math.min(...rates)}-${Math.max(...rates)} sends/s (${steps.length - 1} changes)`;
}

/**
 * A producer's line of the scenario: what the logs gave, then what replay assumed because no line
 * gave it (the report's defaults: a release's default, an equal share of its topic's rate), said so.
 */
export function clientText(sc: Scenario, i: number, defaults: Record<string, string>): string {
  const c = sc.clients[i];
  const p = `scenario.clients[${i}]`;
  const s = c.settings ?? {};
  const known: string[] = [c.version ?? '', `bound to ${c.namesrv ?? 'random'}`, c.topic];
  const assumed: string[] = [];
  const put = (path: string, text: string) => (defaults[`${p}.${path}`] !== undefined ? assumed : known).push(text);
  put('sendRatePerSec', `${sendsText(c)}${defaults[`${p}.sendRatePerSec`] !== undefined ? ` (an equal share of ${c.topic}'s)` : ''}`);
  if (c.tags?.length) put('tags', `tags ${c.tags.map((x) => x.tag + (x.share !== undefined ? ` ×${x.share}` : '')).join(', ')} in turn`);
  put('settings.sendMsgTimeoutMs', `sendMsgTimeout ${s.sendMsgTimeoutMs ?? CLIENT_DEFAULTS.sendMsgTimeoutMs} ms`);
  // An asynchronous send is retried in its callback, up to retryTimesWhenSendAsyncFailed (MQClientAPIImpl.onExceptionImpl), which no log line gives.
  if (c.async) put('settings.retryTimesWhenSendAsyncFailed', `${s.retryTimesWhenSendAsyncFailed ?? CLIENT_DEFAULTS.retryTimesWhenSendAsyncFailed} async retries`);
  else put('settings.retryTimesWhenSendFailed', `${s.retryTimesWhenSendFailed ?? CLIENT_DEFAULTS.retryTimesWhenSendFailed} retries`);
  put('settings.sendLatencyFaultEnable', `latency fault ${s.sendLatencyFaultEnable ? 'on' : 'off'}`);
  put('async', c.async ? 'async' : 'sync');
  if (c.sendThreads !== undefined || defaults[`${p}.sendThreads`] !== undefined) {
    put('sendThreads', c.sendThreads !== undefined ? `${c.sendThreads} sending thread${c.sendThreads === 1 ? '' : 's'}` : 'a thread per send');
  }
  return `${known.filter(Boolean).join(', ')}${assumed.length ? `; assumed: ${assumed.join(', ')}` : ''}`;
}

export function consumerRows(sc: Scenario, defaults: Record<string, string>, t: (ms: number) => string): string[][] {
  const rows: string[][] = [];
  (sc.consumerGroups ?? []).forEach((g, i) => {
    const p = `scenario.consumerGroups[${i}]`;
    const mark = (field: string, text: string) => `${text}${defaults[`${p}.${field}`] !== undefined ? ' (assumed)' : ''}`;
    const l = g.listener;
    const share = (later = 0, thrown = 0) => (later + thrown > 0 ? `, ${Math.round((later + thrown) * 100)} % failing` : '');
    const change = (c: NonNullable<typeof l.changes>[number]): string => {
      const what = [c.processMs !== undefined ? `${c.processMs} ms` : '', c.laterShare !== undefined || c.throwShare !== undefined ? share(c.laterShare, c.throwShare).slice(2) || 'no failure' : ''].filter(Boolean);
      return `from ${t(sc.startEpochMs + c.atMs)} ${what.join(' ')}`;
    };
    const listener = [`listener ${l.processMs} ms${share(l.laterShare, l.throwShare)}`, ...(l.changes ?? []).map(change)];
    const bits = [
      g.version,
      `${g.topic} '${g.subscription ?? '*'}'`,
      g.messageModel === 'BROADCASTING' ? 'BROADCASTING' : '',
      g.consumeMode === 'litePull' ? mark('pollThreads', '1 polling thread an instance') : mark('consumeThreadMin', `${g.consumeThreadMin ?? CONSUMER_DEFAULTS.consumeThreadMin} consume threads`),
      mark('pullThresholdForQueue', `pullThresholdForQueue ${g.pullThresholdForQueue ?? CONSUMER_DEFAULTS.pullThresholdForQueue}`),
      mark('maxReconsumeTimes', `maxReconsumeTimes ${g.maxReconsumeTimes ?? CONSUMER_DEFAULTS.maxReconsumeTimes}`),
      g.invisibleMs !== undefined ? mark('invisibleMs', `invisible time ${g.invisibleMs / 1000} s`) : '',
      ...listener,
      ...(g.resets ?? []).map((x) => `offsets reset at ${t(sc.startEpochMs + x.atMs)} to ${t(sc.startEpochMs + x.toMs)}`),
    ];
    rows.push(['consumers', g.group, `${g.instances.length} instance${g.instances.length === 1 ? '' : 's'}`, bits.filter(Boolean).join(', ')]);
    for (const inst of g.instances) {
      const from = inst.startAtMs !== undefined ? `from ${t(sc.startEpochMs + inst.startAtMs)}` : '';
      const to = inst.stopAtMs !== undefined ? `, ${inst.stop === 'kill' ? 'killed' : 'shut down'} at ${t(sc.startEpochMs + inst.stopAtMs)}` : '';
      const blocks = (inst.blocks ?? []).map((b) => `, listener blocked ${t(sc.startEpochMs + b.atMs)} – ${t(sc.startEpochMs + b.untilMs)}`).join('');
      const sub = inst.subscription !== undefined && inst.subscription !== g.subscription ? `, subscribes '${inst.subscription}'` : '';
      rows.push(['', inst.host, inst.ip ? `at ${inst.ip}` : '', `${from}${to}${blocks}${sub}`]);
    }
  });
  return rows;
}

export function statusText(r: MilestoneRow): string {
  switch (r.status) {
    case 'ok':
      return 'ok';
    case 'diverged':
      return 'DIVERGED';
    case 'not-simulated':
      return 'not simulated';
    case 'not-observed':
      return r.name === 'fault-start' ? '' : 'not in the logs';
    case 'unobservable':
      return 'no logs of this host';
    case 'beyond-run':
      return 'after the end of the run';
    default:
      return '';
  }
}

function outcomeCell(v: VariantResult, client: string): string {
  const c = v.clients.find((x) => x.client === client);
  if (!c) return '-';
  return c.failedSends ? `${formatMs(c.outageMs)}, ${c.failedSends} failed` : 'no failed send';
}

function statText(s: Stat, ms: boolean): string {
  if (s.p50 === null || s.p95 === null) return '-';
  return ms ? `${formatMs(s.p50)} / ${formatMs(s.p95)}` : `${s.p50} / ${s.p95}`;
}

/** Why a run with observations compared nothing: its window holds no fault, or no observed milestone. */
export function nothingComparedText(r: ReplayReport, t: (ms: number) => string): string {
  const sc = r.input.scenario;
  const run = `the run (${t(sc.startEpochMs)} .. ${t(sc.startEpochMs + r.untilMs)})`;
  if (!sc.faults?.length) return `the logs show no fault (no hang, crash, restart, overload or stall was inferred): there is no incident to reproduce`;
  if (r.firstFaultAt !== null && r.firstFaultAt > sc.startEpochMs + r.untilMs) {
    return `${run} holds no fault: the first starts at ${t(r.firstFaultAt)} (--until after it, or leave --until out)`;
  }
  if (r.firstFaultAt !== null) {
    return `no milestone of the logs besides the faults' own starts falls in ${run} (no failed send, NameServer switch or route change): nothing is reproduced beyond the fault`;
  }
  return `no milestone of the logs falls in ${run}; nothing is reproduced`;
}

export function renderReplayText(r: ReplayReport, o: ReplayTextOptions): string {
  const p = o.palette;
  const W = Math.max(40, o.width ?? 80);
  const zone = parseZone(r.input.zone);
  const sc = r.input.scenario;
  const obs = r.input.observed;
  const allTimes = [sc.startEpochMs, sc.startEpochMs + r.untilMs, ...(obs ? [obs.window.first, obs.window.last] : [])];
  const oneDay = sameDay(allTimes, zone);
  const t = (ms: number) => (oneDay ? formatShort(ms, zone).slice(11) : formatShort(ms, zone));
  const out: string[] = [];
  const verdictWord =
    r.verdict === 'reproduced'
      ? p.green('reproduced')
      : r.verdict === 'not-reproduced'
        ? p.red('not reproduced')
        : r.verdict === 'nothing-compared'
          ? p.yellow('nothing compared')
          : 'ran (nothing observed to compare with)';
  out.push(flow(`${p.bold('rmq-diag replay')}: `, `${verdictWord} (seed ${r.seed})`, W));
  out.push('');
  out.push(flow('source    ', escapeText(r.input.source), W, 10));
  if (obs) out.push(flow('observed  ', `${formatShort(obs.window.first, zone)} .. ${formatShort(obs.window.last, zone)} (${zone.name})`, W, 10));
  out.push(
    flow(
      'run       ',
      `${formatShort(sc.startEpochMs, zone)} .. ${formatShort(sc.startEpochMs + r.untilMs, zone)}: ${count(sc.nameServers.length, 'NameServer')}, ${count(sc.brokers.length, 'broker')}, ${count(sc.clients.length, 'client')}, ${count((sc.faults ?? []).length, 'fault')}; seed ${r.seed}`,
      W,
      10,
    ),
  );

  // The scenario in short.
  out.push('');
  out.push(flow(p.bold('scenario'), Object.keys(r.input.provenance).length ? p.dim('  (where each value came from: --verbose, --json or --save-scenario)') : '', W));
  const rows: string[][] = [];
  for (const n of sc.nameServers) {
    rows.push(['NameServer', n.addr, `on ${n.host}`, `${n.version ?? sc.serverVersion ?? '4.9.8'}${n.serverChannelMaxIdleTimeSeconds ? `, idle close ${n.serverChannelMaxIdleTimeSeconds} s` : ''}`]);
  }
  for (const b of sc.brokers) {
    const extra = [b.version ?? sc.serverVersion ?? '4.9.8', b.sendMessageThreadPoolNums ? `${b.sendMessageThreadPoolNums} send thread${b.sendMessageThreadPoolNums === 1 ? '' : 's'}` : '', b.waitTimeMillsInSendQueue && b.waitTimeMillsInSendQueue !== 200 ? `wait limit ${b.waitTimeMillsInSendQueue} ms` : '']
      .filter(Boolean)
      .join(', ');
    rows.push(['broker', `${b.name} ${b.addr}`, `on ${b.host}`, extra]);
  }
  sc.clients.forEach((c, i) => rows.push(['client', c.host, c.ip ? `at ${c.ip}` : '', clientText(sc, i, r.input.defaults)]));
  rows.push(...consumerRows(sc, r.input.defaults, t));
  out.push(columns(rows.map((x) => x.map(escapeText)), W));
  if ((sc.faults ?? []).length) out.push(columns((sc.faults ?? []).map((f) => ['fault', faultText(f, sc, t)]).map((x) => x.map(escapeText)), W));
  else out.push('  no fault');
  const nDefaults = Object.keys(r.input.defaults).length;
  if (nDefaults) out.push(p.dim(flow('  ', `${nDefaults} values are defaults, not in the logs${o.verbose ? ':' : ' (--verbose lists them)'}`, W, 4)));
  if (o.verbose) {
    for (const [k, v] of Object.entries(r.input.defaults)) out.push(flow(`    ${k} = `, escapeText(v), W, 6));
    if (Object.keys(r.input.provenance).length) {
      out.push('  inferred from:');
      for (const [k, v] of Object.entries(r.input.provenance)) out.push(flow(`    ${k}: `, `${escapeText(v.rule)}${v.evidence.length ? ` [${v.evidence.map(escapeText).join(', ')}]` : ''}`, W, 6));
    }
  }
  for (const n of r.input.notes) out.push(p.dim(flow('  note: ', escapeText(n), W, 4)));

  // Milestones.
  out.push('');
  out.push(flow(p.bold('milestones'), obs ? ' observed vs simulated (reproduced within max(10 s, 10% of the time since the fault start))' : ' (simulated)', W));
  const mrows: string[][] = [obs ? ['milestone', 'subject', 'observed', 'simulated', 'delta', ''] : ['milestone', 'subject', 'simulated']];
  for (const m of r.milestones) {
    const subject = `${m.subject}${(m.simulated ?? m.observed)?.detail ? ` ${(m.simulated ?? m.observed)!.detail}` : ''}`;
    if (!obs) {
      mrows.push([MILESTONE_LABEL[m.name], subject, m.simulated ? t(m.simulated.ts) : '-']);
      continue;
    }
    const status = statusText(m);
    mrows.push([
      MILESTONE_LABEL[m.name],
      subject,
      m.observed ? t(m.observed.ts) : '-',
      m.simulated ? t(m.simulated.ts) : '-',
      m.deltaMs !== null ? signedMs(m.deltaMs) : '',
      status === 'DIVERGED' ? p.red(status) : status,
    ]);
  }
  out.push(columns(mrows.map((x) => x.map((c, i) => (i === 5 ? c : escapeText(c)))), W));
  if (r.busy.length) {
    out.push('');
    out.push(flow(p.bold('busy replies'), obs ? ' observed vs simulated (longest wait within max(10 ms, 10%))' : '', W));
    const brows: string[][] = [obs ? ['broker', 'window', 'observed', 'simulated', ''] : ['broker', 'window', 'simulated']];
    const fig = (f: { replies: number; waitMinMs: number | null; waitMaxMs: number | null } | null) =>
      f === null ? '-' : f.replies ? `${f.replies} replies, waited ${f.waitMinMs}-${f.waitMaxMs} ms` : 'none';
    for (const b of r.busy) {
      const w = `${b.kind} ${t(b.simulated.from)}-${t(b.simulated.to)}`;
      brows.push(obs ? [b.broker, w, fig(b.observed), fig(b.simulated), b.status === 'diverged' ? p.red('DIVERGED') : b.status === 'ok' ? 'ok' : ''] : [b.broker, w, fig(b.simulated)]);
    }
    out.push(columns(brows, W));
  }
  if (r.consumers.length) {
    out.push('');
    out.push(flow(p.bold('consumer groups'), ` observed vs simulated (${CONSUMER_TOLERANCE_TEXT})`, W));
    const crows: string[][] = [['group', 'figure', 'observed', 'simulated', '']];
    const v = (n: number | null, at: number | null) => (n === null ? '-' : at !== null ? `${n} at ${t(at)}` : String(n));
    for (const c of r.consumers) crows.push([c.group, consumerFigureText(c.figure), v(c.observed, c.observedAt), v(c.simulated, c.simulatedAt), c.status === 'diverged' ? p.red('DIVERGED') : 'ok']);
    out.push(columns(crows.map((x) => x.map((c, i) => (i === 4 ? c : escapeText(c)))), W));
  }
  out.push('');
  if (r.verdict === 'reproduced') {
    const n = r.milestones.filter((m) => m.status === 'ok').length;
    const beyond = r.milestones.filter((m) => m.status === 'beyond-run').length;
    const unharmed = unharmedClients(r.outages, r.firstFaultAt, r.input.scenario.startEpochMs + r.untilMs).length;
    out.push(
      flow(
        `${p.bold('verdict')}  ${p.green('reproduced')}: `,
        `${n} milestone${n === 1 ? '' : 's'}${r.busy.length ? ` and ${r.busy.length} busy window${r.busy.length === 1 ? '' : 's'}` : ''}${r.consumers.length ? ` and ${r.consumers.length} consumer figure${r.consumers.length === 1 ? '' : 's'}` : ''} within tolerance${unharmed ? `, ${unharmed} client${unharmed === 1 ? '' : 's'} with no failed send as in the logs` : ''}${beyond ? ` (${beyond} after the end of the run not compared)` : ''}`,
        W,
        9,
      ),
    );
  } else if (r.verdict === 'not-reproduced') {
    out.push(`${p.bold('verdict')}  ${p.red('not reproduced')}:`);
    for (const d of r.divergences) out.push(flow('  - ', escapeText(d), W, 4));
  } else if (r.verdict === 'nothing-compared') {
    out.push(flow(`${p.bold('verdict')}  ${p.yellow('nothing compared')}: `, nothingComparedText(r, t), W, 9));
  } else out.push(flow(`${p.bold('verdict')}  `, 'nothing observed to compare with (a scenario file without observations)', W, 9));

  // Outages.
  out.push('');
  out.push(p.bold('outages') + ' (first to last failed send)');
  const orows: string[][] = [obs ? ['client', 'observed', 'simulated'] : ['client', 'simulated']];
  const cell = (ms: number | null, n: number | null) => (ms === null ? '-' : n ? `${formatMs(ms)} (${n} failed sends)` : 'no failed send');
  for (const x of r.outages) {
    orows.push(obs ? [x.client, cell(x.observedMs, x.observedFailedSends), cell(x.simulatedMs, x.simulatedFailedSends)] : [x.client, cell(x.simulatedMs, x.simulatedFailedSends)]);
  }
  out.push(columns(orows.map((x) => x.map(escapeText)), W));

  // Consumers.
  if (r.baseline.consumers.length) {
    out.push('');
    out.push(flow(p.bold('consumers'), ' (lag: max offset minus committed offset, every 10 s)', W));
    // A group that filters by tags also shows what its subscriptions skipped (simulated: no log line shows it).
    const filters = r.baseline.consumers.some((g) => g.skippedBySubscription !== undefined);
    const crows: string[][] = [['group', 'largest lag', 'consumed', 'failed', 'retried', 'DLQ', 'twice', ...(filters ? ['skipped by subscription'] : [])]];
    for (const g of r.baseline.consumers) {
      const at = g.maxLagAtMs === null ? '' : ` at ${t(r.input.scenario.startEpochMs + g.maxLagAtMs)}`;
      crows.push([g.group, `${g.maxLag}${at}`, String(g.consumed), String(g.failed), String(g.retried), String(g.dlq), String(g.duplicates), ...(filters ? [skippedText(g.skippedBySubscription)] : [])]);
    }
    out.push(columns(crows.map((x) => x.map(escapeText)), W));
  }

  // What-if.
  if (r.whatIf.length) {
    out.push('');
    out.push(flow(p.bold('what-if'), ` (seed ${r.seed}, same sends; outage and failed sends per client)`, W));
    const all = [r.baseline, ...r.whatIf];
    const wrows: string[][] = [['', ...all.map((v) => v.label)]];
    for (const c of sc.clients) wrows.push([c.host, ...all.map((v) => outcomeCell(v, c.host))]);
    wrows.push(['failed sends', ...all.map((v) => String(v.failedSends))]);
    wrows.push(['timeouts', ...all.map((v) => String(v.timeouts))]);
    for (const g of r.baseline.consumers) {
      const of = (v: VariantResult) => v.consumers.find((x) => x.group === g.group);
      wrows.push([`${g.group} lag`, ...all.map((v) => String(of(v)?.maxLag ?? '-'))]);
      wrows.push([`${g.group} DLQ`, ...all.map((v) => String(of(v)?.dlq ?? '-'))]);
      wrows.push([`${g.group} twice`, ...all.map((v) => String(of(v)?.duplicates ?? '-'))]);
      if (all.some((v) => of(v)?.skippedBySubscription !== undefined)) wrows.push([`${g.group} skipped`, ...all.map((v) => String(of(v)?.skippedBySubscription?.total ?? 0))]);
    }
    out.push(variantTable(wrows.map((x) => x.map(escapeText)), W));
    for (const v of r.whatIf) for (const n of v.notes) out.push(p.dim(flow(`  note (${escapeText(v.label)}): `, escapeText(n), W, 4)));
  }

  if (r.runs) {
    const seeds = r.runs.seeds;
    out.push('');
    out.push(flow(`${p.bold('runs')}: `, `${seeds.length} seeds (${seeds[0]}..${seeds[seeds.length - 1]}), NameServer bindings drawn per seed; outage p50 / p95, failed sends p50 / p95`, W));
    const rrows: string[][] = [['', ...r.runs.variants.map((v) => v.label)]];
    for (const c of sc.clients) {
      rrows.push([
        c.host,
        ...r.runs.variants.map((v) => {
          const x = v.clients.find((k) => k.client === c.host)!;
          return `${statText(x.outageMs, true)}; ${statText(x.failedSends, false)}`;
        }),
      ]);
    }
    rrows.push(['failed sends', ...r.runs.variants.map((v) => statText(v.failedSends, false))]);
    out.push(variantTable(rrows.map((x) => x.map(escapeText)), W));
  }
  if (o.saved) out.push('', flow('', `scenario written to ${escapeText(o.saved)} (edit it and run: rmq-diag replay ${escapeText(o.saved)})`, W));
  if (o.emitted) out.push('', flow('', `simulated logs: ${o.emitted.files} files under ${escapeText(o.emitted.dir)} (read them with: rmq-diag analyze ${escapeText(o.emitted.dir)})`, W));
  return out.join('\n') + '\n';
}

/** `169 (TagB 169), simulated`: what a group's subscriptions skipped, by tag. */
export function skippedText(s: { total: number; byTag: Record<string, number> } | undefined): string {
  if (s === undefined) return '-';
  const tags = Object.entries(s.byTag).filter(([, n]) => n > 0);
  return `${s.total}${tags.length ? ` (${tags.map(([tag, n]) => `${tag || 'no tag'} ${n}`).join(', ')})` : ''}, simulated`;
}

// ---- JSON ---------------------------------------------------------------------------------------

function variantJson(v: VariantResult): Record<string, unknown> {
  return {
    label: v.label,
    set: v.set,
    outages: v.clients.map((c) => ({ client: c.client, simulatedMs: c.outageMs, failedSends: c.failedSends, timeouts: c.timeouts })),
    failedSends: v.failedSends,
    timeouts: v.timeouts,
    ...(v.consumers.length
      ? { consumers: v.consumers.map((c) => ({ group: c.group, maxLag: c.maxLag, consumed: c.consumed, failed: c.failed, retried: c.retried, dlq: c.dlq, duplicates: c.duplicates, ...(c.skippedBySubscription ? { skippedBySubscription: c.skippedBySubscription } : {}) })) }
      : {}),
    notes: v.notes,
  };
}

/** Per group the run's counts and its lag every 10 s (docs/json.md, replay's consumerGroups). */
function consumerGroupsJson(r: ReplayReport, iso: (t: number | null | undefined) => string | null): Array<Record<string, unknown>> {
  const at = (ms: number) => iso(r.input.scenario.startEpochMs + ms);
  return Object.values(r.run.metrics.consumerGroups ?? {}).map((g) => ({
    group: g.group,
    topic: g.topic,
    instances: g.instances,
    deliveries: g.deliveries,
    consumed: g.consumed,
    failed: g.failed,
    retried: g.retried,
    dlq: g.dlq,
    duplicates: g.duplicates,
    flowControlled: g.flowControlled,
    pullFailures: g.pullFailures,
    ...(g.skippedBySubscription ? { skippedBySubscription: g.skippedBySubscription } : {}),
    maxLag: g.maxLag ? { at: at(g.maxLag.atMs), total: g.maxLag.total } : null,
    lag: g.lag.map((l) => ({ at: at(l.atMs), total: l.total, retry: l.retry })),
  }));
}

function replayToJson(r: ReplayReport, extra: { emitted?: { dir: string; files: number } | null; saved?: string | null } = {}): Record<string, unknown> {
  const zone = parseZone(r.input.zone);
  const iso = (t: number | null | undefined) => (t === null || t === undefined ? null : formatIso(t, zone));
  const obs = r.input.observed;
  return {
    schemaVersion: REPLAY_SCHEMA_VERSION,
    seed: r.seed,
    source: r.input.source,
    zone: zone.name,
    window: obs ? { first: iso(obs.window.first), last: iso(obs.window.last) } : null,
    run: { start: iso(r.input.scenario.startEpochMs), end: iso(r.input.scenario.startEpochMs + r.untilMs), untilMs: r.untilMs },
    scenario: r.input.scenario,
    provenance: r.input.provenance,
    defaults: r.input.defaults,
    notes: r.input.notes,
    milestones: r.milestones.map((m) => ({
      name: m.name,
      subject: m.subject,
      observed: iso(m.observed?.ts),
      simulated: iso(m.simulated?.ts),
      deltaMs: m.deltaMs,
      toleranceMs: m.toleranceMs,
      status: m.status,
      observedDetail: m.observed?.detail ?? null,
      simulatedDetail: m.simulated?.detail ?? null,
      evidence: m.observed?.evidence ?? null,
    })),
    busy: r.busy.map((b) => ({
      broker: b.broker,
      kind: b.kind,
      from: iso(b.simulated.from),
      to: iso(b.simulated.to),
      observed: b.observed ? { replies: b.observed.replies, waitMinMs: b.observed.waitMinMs, waitMaxMs: b.observed.waitMaxMs } : null,
      simulated: { replies: b.simulated.replies, waitMinMs: b.simulated.waitMinMs, waitMaxMs: b.simulated.waitMaxMs },
      toleranceMs: b.toleranceMs,
      status: b.status,
    })),
    ...(r.consumers.length
      ? {
          consumers: r.consumers.map((c) => ({
            group: c.group,
            figure: c.figure,
            observed: c.observed,
            observedAt: iso(c.observedAt),
            simulated: c.simulated,
            simulatedAt: iso(c.simulatedAt),
            tolerance: c.tolerance,
            status: c.status,
          })),
        }
      : {}),
    verdict: r.verdict,
    divergences: r.divergences,
    ...(r.baseline.consumers.length ? { consumerGroups: consumerGroupsJson(r, iso) } : {}),
    outages: r.outages.map((o) => ({
      client: o.client,
      observedMs: o.observedMs,
      simulatedMs: o.simulatedMs,
      observedFailedSends: o.observedFailedSends,
      simulatedFailedSends: o.simulatedFailedSends,
    })),
    baseline: variantJson(r.baseline),
    whatIf: r.whatIf.map(variantJson),
    runs: r.runs
      ? {
          seeds: r.runs.seeds,
          variants: r.runs.variants.map((v) => ({
            label: v.label,
            set: v.set,
            outages: v.clients.map((c) => ({ client: c.client, p50Ms: c.outageMs.p50, p95Ms: c.outageMs.p95, failedSendsP50: c.failedSends.p50, failedSendsP95: c.failedSends.p95 })),
            failedSends: { p50: v.failedSends.p50, p95: v.failedSends.p95 },
          })),
        }
      : null,
    emitted: extra.emitted ?? null,
    savedScenario: extra.saved ?? null,
  };
}

export function renderReplayJson(r: ReplayReport, extra: { emitted?: { dir: string; files: number } | null; saved?: string | null } = {}): string {
  return jsonSafe(prettyJson(replayToJson(r, extra))) + '\n';
}
