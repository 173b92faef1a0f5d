// What the inputs leave out: a report read from one host, from the servers alone or from the
// applications alone still says what it shows, and says here, once, which logs would add what.
// Every report format prints these lines; the incident says its impact is unknown without them.

import { SERVER_KINDS, type SourceKind } from './kinds.js';

interface SourceOfHost {
  host: string;
  kind: SourceKind;
}

const CLIENT_KINDS: ReadonlySet<SourceKind> = new Set<SourceKind>(['client', 'app']);
const BROKER_KINDS: ReadonlySet<SourceKind> = new Set<SourceKind>(['broker', 'remoting', 'store', 'watermark', 'stats']);

/** The impact of an incident when no client or application log was read. */
export const IMPACT_UNKNOWN = 'unknown: no client or application log among the inputs';

const FETCH_CLIENTS = "the applications' ~/logs/rocketmqlogs/rocketmq_client.log and their application logs would show the failed sends";
const FETCH_SERVERS = "the servers' broker.log, namesrv.log and watermark.log would tell the cause";

/** Whether any client or application log was read. */
export function clientLogsRead(sources: readonly SourceOfHost[]): boolean {
  return sources.some((s) => CLIENT_KINDS.has(s.kind));
}

/** One line per kind of log the inputs lack (none when they hold every kind), for the report's inputs block. */
export function inputGaps(sources: readonly SourceOfHost[]): string[] {
  if (!sources.length) return [];
  const hosts = [...new Set(sources.map((s) => s.host))];
  const has = (set: ReadonlySet<SourceKind>) => sources.some((s) => set.has(s.kind));
  const clients = has(CLIENT_KINDS);
  const servers = has(SERVER_KINDS);
  const brokers = has(BROKER_KINDS);
  const namesrvs = sources.some((s) => s.kind === 'namesrv');
  if (hosts.length === 1) {
    const adds = [
      brokers && !namesrvs ? "the NameServers' logs would show when the broker was dropped" : '',
      namesrvs && !brokers ? "the brokers' logs would show why they stopped registering" : '',
      !servers ? "the servers' logs (broker.log, namesrv.log, watermark.log) would tell the cause" : '',
    ].filter(Boolean);
    if (!clients) adds.push(`the clients' logs ${adds.length ? '' : 'would show '}the failed sends`);
    return [`only one host read (${hosts[0]})${adds.length ? `: ${adds.join(', ')}` : ''}`];
  }
  const out: string[] = [];
  if (!clients) out.push(`no client or application log among the inputs: impact on producers unknown; ${FETCH_CLIENTS}`);
  if (!servers) out.push(`no broker or NameServer log among the inputs: ${FETCH_SERVERS}`);
  return out;
}
