// The incident, for people: first in the text report, so that the first screen (24 lines at 80
// columns) shows what broke and who was hurt. Then why it lasted, how each cause was recognised,
// the chain of steps, what to change, and which findings below tell the details.

import type { Zone } from '../parse/time.js';
import type { Cause, Impact, Incident } from '../rules/incident.js';
import { formatMs } from '../util/durations.js';
import { plural } from '../util/text.js';
import type { Palette } from './escape.js';
import { hang, timeText } from './text-layout.js';

/** Width of a section's label column (`  cause    `). */
export const INCIDENT_LABEL = 11;

export function incidentLines(inc: Incident, n: number, zone: Zone, sameDay: boolean, W: number, p: Palette): string[] {
  return [...incidentHeadLines(inc, n, zone, sameDay, W, p), ...incidentRestLines(inc, zone, sameDay, W)];
}

/**
 * The rest of the incident under a title of its own (`INCIDENT 1  how it happened`): the text report
 * shows the head first and the findings' list between the two, so that the first screen holds the
 * cause, the impact and the list.
 */
export function incidentDetailLines(inc: Incident, n: number, zone: Zone, sameDay: boolean, W: number, p: Palette): string[] {
  return [p.bold(`INCIDENT ${n}  how it happened, what to change`), ...incidentRestLines(inc, zone, sameDay, W)];
}

const sectionOf =
  (out: string[], W: number) =>
  (label: string, lines: string[]): void => {
    lines.forEach((l, i) => out.push(hang(i === 0 ? `  ${label.padEnd(INCIDENT_LABEL - 2)}` : ' '.repeat(INCIDENT_LABEL), l, W)));
  };

/**
 * What a client lost, in words: the sends its application lost, or, without its application's log,
 * its failed attempts (a retry may have saved some). Every report says it this way.
 */
export function lostText(i: Impact): string {
  if (i.source === 'client') return `${plural(i.failedSends, 'failed attempt')} (no application log)`;
  return i.failedSends ? `${plural(i.failedSends, 'send')} lost` : 'no send lost';
}

/** What the client lost before the first cause (Impact.before), in words; null when nothing. */
export function lostBeforeText(i: Impact): string | null {
  if (!i.before) return null;
  const what = i.source === 'client' ? `${plural(i.before.failedSends, 'failed attempt')}` : `${plural(i.before.failedSends, 'send')} lost`;
  return `${i.failedSends || i.source === 'client' ? 'also ' : ''}${what} in the ${formatMs(i.before.leadMs)} before the first cause named here began`;
}

/** lostText and lostBeforeText in one cell (the markdown and HTML tables). */
export function lostCellText(i: Impact): string {
  const b = lostBeforeText(i);
  return b ? `${lostText(i)}; ${b}` : lostText(i);
}

/** What broke and who was hurt: the title, the causes and the impact (the TUI's summary too). */
export function incidentHeadLines(inc: Incident, n: number, zone: Zone, sameDay: boolean, W: number, p: Palette): string[] {
  const out: string[] = [];
  const head = `INCIDENT ${n}  `;
  out.push(p.bold(hang(head, inc.title, W)));
  const at = (ts: number | null) => timeText(ts, zone, sameDay, false);
  const span = (from: number | null, to: number | null) => (to === null ? `${at(from)} –` : `${at(from)} – ${at(to)}`);
  const section = sectionOf(out, W);
  section(
    'cause',
    inc.causes.map((c, i) => `${span(c.start, c.end)}  ${causeText(c, i > 0 && inc.causes[i - 1].host === c.host)}`),
  );
  if (inc.impact.length) {
    const w = Math.max(...inc.impact.map((i) => i.client.length));
    section(
      'impact',
      inc.impact.map((i) => {
        const lost = lostText(i);
        const win = i.start !== null ? `, ${span(i.start, i.end)}${i.end !== null && i.end > i.start ? ` (${formatMs(i.end - i.start)})` : ''}` : '';
        const to = i.timeouts ? `, ${i.timeouts} call${i.timeouts === 1 ? '' : 's'} timed out` : '';
        const before = lostBeforeText(i);
        return `${i.client.padEnd(w)}  ${lost}${win}${to}${before ? `; ${before}` : ''}`;
      }),
    );
  } else section('impact', [inc.impactUnknown ?? 'no failed send in the logs']);
  return out;
}

/** Why it lasted, how each cause was seen, the chain, what to change, and the findings below. */
export function incidentRestLines(inc: Incident, zone: Zone, sameDay: boolean, W: number): string[] {
  const out: string[] = [];
  const at = (ts: number | null) => timeText(ts, zone, sameDay, false);
  const section = sectionOf(out, W);
  // Clients hurt the same way are named together.
  const why = new Map<string, string[]>();
  for (const i of inc.impact) if (i.lastedBecause) why.set(i.lastedBecause, [...(why.get(i.lastedBecause) ?? []), i.client]);
  if (why.size) section('why', [...why].map(([because, clients]) => `${clients.join(', ')}: ${because}.`));
  section(
    'seen',
    inc.causes.map((c) => `${c.host} ${c.kind}: ${c.recognisedBy}${c.evidence.length ? ` (${c.evidence.slice(0, 2).join(', ')})` : ''}.`),
  );
  if (inc.chain.length) section('chain', inc.chain.map((s) => `${at(s.at)}  ${s.text}${s.finding ? ` [${s.finding.slice(1)}]` : ''}`));
  if (inc.advice.length) section('change', inc.advice.map((a, i) => `${i + 1}. ${a}`));
  if (inc.findings.length) section('findings', [`${inc.findings.map((id) => id.slice(1)).join(', ')} below`]);
  return out;
}

/** `sameHost`: the cause before it was on the same host, which named what runs there. */
function causeText(c: Cause, sameHost: boolean): string {
  const on = sameHost ? '' : [...c.namesrvAddrs.map((a) => `NameServer ${a}`), ...c.brokers.map((b) => `${b.name} ${b.role} ${b.addr}`)].join(', ');
  const what: Record<Cause['kind'], string> = {
    hang: 'hung',
    reboot: 'rebooted',
    crash: 'crashed',
    restart: 'restarted as planned',
    shutdown: 'shut down',
    'unclean-stop': 'went away without a shutdown',
    overload: 'overloaded',
    stall: 'stalled',
    'disk-full': 'ran out of disk',
    partition: 'was cut off by the network',
    'slow-listener': 'ran a slow listener',
    'blocked-listener': 'ran a listener that blocked',
    'consume-failures': 'failed deliveries',
    'consumer-gone': 'lost its consumer without a shutdown',
    'consumer-stopped': 'shut its consumer down',
    'consumer-joined': 'started a new consumer',
    'offset-reset': 'had its group\'s offsets reset',
  };
  const subject = c.kind === 'overload' || c.kind === 'stall' ? `${c.brokers.map((b) => b.name).join(', ')} on ${c.host}` : c.group ? `${c.host} (${c.group})` : c.host;
  return `${subject} ${what[c.kind]}${on && c.kind !== 'overload' && c.kind !== 'stall' ? ` (${on})` : ''}${c.detail ? `: ${c.detail}` : ''}`;
}

/** The summary line's count: `1 incident; ` (nothing without incidents). */
export function incidentCount(incidents: readonly Incident[]): string {
  return incidents.length ? `${incidents.length} incident${incidents.length === 1 ? '' : 's'}; ` : '';
}

