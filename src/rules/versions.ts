// Client version range of a host, from the version hints its client logs carry (layout, wording,
// jar names in stack frames, ClientVersion:Vx_y_z at startup). See shared facts: the inner logger
// (4.3.0-5.0.0), its fake millis (4.3.0-4.7.1), the 5.1+ logback layout.

import type { ClientVersion, SourceInfo } from './types.js';

const EXACT = /^(\d+)\.(\d+)\.(\d+)$/;

function cmp(a: number[], b: number[]): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

function parse(v: string): number[] | null {
  const m = EXACT.exec(v);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

/** Lower and upper bound of a hint (inclusive), or null when it says nothing about versions. */
function bounds(hint: string): [number[], number[]] | null {
  const exact = parse(hint);
  if (exact) return [exact, exact];
  const range = /^(\d+\.\d+\.\d+)-(\d+\.\d+\.\d+)$/.exec(hint);
  if (range) return [parse(range[1])!, parse(range[2])!];
  const ge = /^>=(\d+\.\d+\.\d+)$/.exec(hint);
  if (ge) return [parse(ge[1])!, [99, 0, 0]];
  const lt = /^<(\d+\.\d+\.\d+)$/.exec(hint);
  if (lt) {
    // Just below v: the previous patch, or the previous minor's last patch, or the previous major's.
    const [a, b, c] = parse(lt[1])!;
    const below = c > 0 ? [a, b, c - 1] : b > 0 ? [a, b - 1, 99] : [a - 1, 99, 99];
    return [[0, 0, 0], below];
  }
  if (hint === '3.x') return [[3, 0, 0], [3, 99, 99]];
  return null;
}

export function clientVersionOf(host: string, sources: readonly SourceInfo[]): ClientVersion {
  const hints = sources
    .filter((s) => s.host === host && (s.kind === 'client' || s.kind === 'app'))
    .flatMap((s) => s.versionHints);
  let lo = [0, 0, 0];
  let hi = [99, 0, 0];
  let exact: string | null = null;
  let known = false;
  for (const h of hints) {
    const b = bounds(h);
    if (!b) continue;
    known = true;
    if (cmp(b[0], lo) > 0) lo = b[0];
    if (cmp(b[1], hi) < 0) hi = b[1];
    if (parse(h)) exact = h;
  }
  if (!known || cmp(lo, hi) > 0) return { range: 'unknown', exact: null, closeSocketIfTimeout: null, rescansNameServers: null };
  const fmt = (v: number[]) => v.join('.');
  const range = exact ?? (cmp(hi, [99, 0, 0]) === 0 ? `>=${fmt(lo)}` : cmp(lo, [0, 0, 0]) === 0 ? `<=${fmt(hi)}` : `${fmt(lo)}-${fmt(hi)}`);
  const v491 = [4, 9, 1];
  const closeSocketIfTimeout = cmp(hi, v491) < 0 ? false : cmp(lo, v491) >= 0 ? true : null;
  const [v500, v530] = [[5, 0, 0], [5, 3, 0]];
  const rescansNameServers = cmp(hi, v500) < 0 || cmp(lo, v530) >= 0 ? false : cmp(lo, v500) >= 0 && cmp(hi, v530) < 0 ? true : null;
  return { range, exact, closeSocketIfTimeout, rescansNameServers };
}

/**
 * Why a client of this version stays on a NameServer whose host hangs with its TCP still open, or
 * null when its version leaves it. Before 4.9.1 a timeout never closes the channel; 5.0.0-5.2.0
 * close it, but NettyRemotingClient.scanAvailableNameSrv connects every listed NameServer again
 * every connectTimeoutMillis (3 s), the host's kernel accepts, and getAndCreateNameserverChannel
 * keeps the chosen one while its channel is active (5.3.0's MQClientInstance turns the scan off).
 */
export function stuckOnNamesrvReason(v: ClientVersion): string | null {
  const at = v.range === 'unknown' ? '' : `client ${v.range}: `;
  if (v.closeSocketIfTimeout === false) return `${at}before 4.9.1 a client never closes a NameServer channel that timed out`;
  if (v.rescansNameServers === true) {
    return `${at}5.0.0-5.2.0 clients close a NameServer channel that timed out, but their NameServer scan (every 3 s) connects it again to a host that still accepts connections, so it stays chosen`;
  }
  return null;
}

/**
 * What to change so that a client leaves a NameServer that times out, for its version. Before 4.9.1
 * NettyClientConfig.clientCloseSocketIfTimeout is false and nothing sets it (the system property
 * com.rocketmq.remoting.client.closeSocketIfTimeout is read from 4.9.1, NettySystemConfig, where it
 * defaults to true): there, the upgrade is the only fix.
 */
export function closeTimedOutChannelAdvice(v: ClientVersion, who: string): string {
  if (v.rescansNameServers === true) {
    return `Upgrade ${who} (client ${v.range}) to 5.3.0 or later: 5.0.0-5.2.0 clients close a NameServer channel that timed out, but their NameServer scan (every 3 s) connects it again to a host that still accepts connections, so they keep asking the NameServer that hangs; 5.3.0 turns that scan off in the client, and the next poll goes to another NameServer.`;
  }
  if (v.closeSocketIfTimeout === false) {
    return `Upgrade ${who} (client ${v.range}) to 4.9.1 or later: before 4.9.1 a client never closes a NameServer channel that timed out (no setting changes that), so it keeps asking the NameServer that hangs; from 4.9.1 it closes it (-Dcom.rocketmq.remoting.client.closeSocketIfTimeout, true by default) and the next poll goes to another NameServer.`;
  }
  if (v.closeSocketIfTimeout === true) {
    return `${who} (client ${v.range}) closes a NameServer channel that timed out by default: remove -Dcom.rocketmq.remoting.client.closeSocketIfTimeout=false from its start command if it is there.`;
  }
  return `Make sure ${who} runs client 4.9.1 or later (its version is not in the logs): before 4.9.1 a client never closes a NameServer channel that timed out, so it keeps asking the NameServer that hangs; from 4.9.1 it does unless started with -Dcom.rocketmq.remoting.client.closeSocketIfTimeout=false.`;
}
