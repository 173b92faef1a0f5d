// Client version range of a host, from the version hints its logs carry (the parser's layouts and
// wording, jar names in stack frames, ClientVersion:Vx_y_z at startup), and what that range means
// for a NameServer that hangs. The facts themselves are in src/rocketmq/facts.ts.

import { CLIENT, FAULT_TABLES_4X, FAULT_TABLES_514, isolationMs } from '../rocketmq/facts.js';
import { factIn, factOver, formatRange, intersectHints } from '../rocketmq/versions.js';
import { formatMs } from '../util/durations.js';
import type { ClientVersion, SourceInfo } from './types.js';

export function clientVersionOf(host: string, sources: readonly SourceInfo[]): ClientVersion {
  const hints = sources
    .filter((s) => s.host === host && (s.kind === 'client' || s.kind === 'app'))
    .flatMap((s) => s.versionHints);
  const known = intersectHints(hints);
  if (!known) return { range: 'unknown', exact: null, closeSocketIfTimeout: null, rescansNameServers: null };
  return {
    range: formatRange(known.range, known.exact),
    exact: known.exact,
    closeSocketIfTimeout: factOver(CLIENT.closeSocketIfTimeout, known.range),
    rescansNameServers: factOver(CLIENT.scanAvailableNameSrv, known.range),
  };
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

/**
 * How long a producer with sendLatencyFaultEnable avoids a broker after an attempt that failed with
 * an exception (a timeout included), for a client version range: MQFaultStrategy isolates it for
 * 10 min up to 5.1.3 and 10 s from 5.1.4 (src/rocketmq/facts.ts).
 */
export function avoidanceAfterFailure(range: string): string {
  const upTo513 = formatMs(isolationMs(FAULT_TABLES_4X));
  const from514 = formatMs(isolationMs(FAULT_TABLES_514));
  const rewritten = factIn(CLIENT.faultStrategy514, range);
  if (rewritten === true) return `isolated for ${from514} (client ${range})`;
  if (rewritten === false) return `avoided for ${upTo513} (client ${range})`;
  return `avoided for ${upTo513} by clients up to 5.1.3, for ${from514} from 5.1.4`;
}

/**
 * What the logs show of a producer's sendLatencyFaultEnable: `off` when its behaviour contradicts
 * the setting (why says what it did), `unknown` otherwise (real applications rarely log it).
 */
export type FaultAvoidanceSeen = { state: 'off'; why: string } | { state: 'unknown' };

/**
 * The advice to turn the producer's fault avoidance on. Its premise (the setting is off) is said as
 * inferred, with what shows it, or as an assumption when the logs do not show it.
 */
export function latencyFaultAdvice(range: string, seen: FaultAvoidanceSeen, who: string): string {
  const what = `a broker whose attempt failed (a timeout included) is then ${avoidanceAfterFailure(range)} instead of being picked again by round robin; a timed-out send itself is not retried`;
  if (seen.state === 'off') return `Enable sendLatencyFaultEnable on ${who}'s producer (setSendLatencyFaultEnable(true); off by default, and off here: ${seen.why}): ${what}.`;
  return `If ${who}'s producer runs without sendLatencyFaultEnable (off by default; the logs do not show the setting), enable it: ${what}.`;
}

/**
 * Whether a producer's failed attempts against one broker show its fault avoidance off: up to
 * 5.1.3 a failed attempt keeps the broker out of the selection for 10 min while another broker is
 * available, so failed attempts against it long after the first (more than the attempts already
 * in flight could take) mean the setting was off, when there are LATE_ATTEMPTS_MIN of them: with
 * every broker of the route isolated, MQFaultStrategy.selectOneMessageQueue falls back to
 * LatencyFaultTolerance.pickOneAtLeast and may pick the avoided broker again (gen-20261219:
 * app-stock-01, 4.8.0 with it on, tried broker-c once more 92 s after its first failure there, as
 * broker-a was overloaded and broker-b hung). From 5.1.4 the isolation is 10 s and the pattern
 * does not tell; nor does an unknown version. `late`: the attempts more than IN_FLIGHT_SPAN_MS
 * after the first (lateAttempt).
 */
export function faultAvoidanceSeen(range: string, broker: string, firstAttemptMs: number | null, lastAttemptMs: number | null, late: number): FaultAvoidanceSeen {
  if (factIn(CLIENT.faultStrategy514, range) !== false || firstAttemptMs === null || lastAttemptMs === null) return { state: 'unknown' };
  const span = lastAttemptMs - firstAttemptMs;
  if (span <= IN_FLIGHT_SPAN_MS || late < LATE_ATTEMPTS_MIN) return { state: 'unknown' };
  return { state: 'off', why: `its attempts to ${broker} kept failing for ${formatMs(span)} after the first (${late} of them more than ${formatMs(IN_FLIGHT_SPAN_MS)} after it), where a client with it on avoids the broker for ${formatMs(isolationMs(FAULT_TABLES_4X))}` };
}

/** Whether a failed attempt came too long after the first one on its broker to have been on its way then. */
export function lateAttempt(firstAttemptMs: number | null, ts: number | null): boolean {
  return firstAttemptMs !== null && ts !== null && ts - firstAttemptMs > IN_FLIGHT_SPAN_MS;
}

/** Longer than any attempt already on its way when the first failure came back (default budgets: 3 s a send). */
const IN_FLIGHT_SPAN_MS = 15000;
/** Late attempts that show the round robin still picking the broker, not one fallback pick. */
const LATE_ATTEMPTS_MIN = 3;
