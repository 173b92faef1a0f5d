// A burst of consume failures that only the client's per-minute stats count.
//
// A Java push consumer's listener that answers RECONSUME_LATER logs nothing for the delivery
// (ConsumeMessageConcurrentlyService.processConsumeResult, 4.x-5.x: only an exception or a null
// return is logged): the client counts it in CONSUME_FAILED_TPS (ConsumerStatsManager
// .incConsumeFailedTPS), printed each minute per `topic@group` and for the group's retry topic
// `%RETRY%G@G`, and sends the message back. So: a host whose CONSUME_FAILED_TPS of a group summed
// `min` or more over a run of minutes (minuteRuns), PER_MINUTE_MIN or more a minute on average, had
// a burst of failures. Its window is the run's minutes: when in them the
// failures came is not in the logs. Groups whose clients logged failures themselves are read from
// those lines (consumer-causes), which place each failure.

import type { RmqEvent } from '../parse/types.js';
import type { Cause } from '../rules/incident.js';
import { plural } from '../util/text.js';
import { clockOf } from '../rules/routing.js';
import { minuteRuns } from './simple-consumer-causes.js';

const MINUTE_MS = 60_000;
/** A minute's failures on average over a run, at least: fewer is a trickle, not a burst. */
const PER_MINUTE_MIN = 10;
const KEPT = 5000;

interface Minute {
  ts: number;
  sum: number;
  ev: RmqEvent;
}

export interface StatsFailureCauses {
  visit(e: RmqEvent): void;
  /** The bursts of groups not in `logged` (groups whose clients logged failures themselves). */
  finish(logged: ReadonlySet<string>, min: number): Cause[];
}

const ref = (e: Pick<RmqEvent, 'file' | 'line'>) => `${e.file}:${e.line}`;

export function statsFailureCauses(): StatsFailureCauses {
  /** Per group and host: its minutes with failures, by minute end (the topic's and the retry topic's summed). */
  const minutes = new Map<string, Map<string, Map<number, Minute>>>();

  const visit = (e: RmqEvent): void => {
    const f = e.fields as Record<string, unknown>;
    if (e.ts === null || e.kind !== 'client' || e.type !== 'stats' || f.window !== 'minute' || f.stat !== 'CONSUME_FAILED_TPS') return;
    if (typeof f.key !== 'string' || typeof f.sum !== 'number' || f.sum <= 0) return;
    const at = f.key.lastIndexOf('@');
    if (at < 0) return;
    const group = f.key.slice(at + 1);
    let byHost = minutes.get(group);
    if (!byHost) {
      if (minutes.size >= KEPT) return;
      minutes.set(group, (byHost = new Map()));
    }
    let list = byHost.get(e.host);
    if (!list) byHost.set(e.host, (list = new Map()));
    const end = Math.round(e.ts / MINUTE_MS) * MINUTE_MS;
    const m = list.get(end);
    if (m) m.sum += f.sum;
    else if (list.size < KEPT) list.set(end, { ts: end, sum: f.sum, ev: e });
  };

  const finish = (logged: ReadonlySet<string>, min: number): Cause[] => {
    const out: Cause[] = [];
    for (const [group, byHost] of minutes) {
      if (logged.has(group)) continue;
      for (const [host, list] of byHost) {
        for (const r of minuteRuns(list.values())) {
          const sum = r.reduce((n, m) => n + m.sum, 0);
          if (sum < min || sum / r.length < PER_MINUTE_MIN) continue;
          const from = r[0].ts - MINUTE_MS;
          const to = r[r.length - 1].ts;
          out.push({
            host,
            group,
            namesrvAddrs: [],
            brokers: [],
            kind: 'consume-failures',
            start: from,
            end: to,
            minuteBounds: true,
            recognisedBy: `the listener of group ${group} failed ${plural(sum, 'delivery', 'deliveries')} on ${host} in ${plural(r.length, 'minute')} to ${clockOf(r[r.length - 1].ev)} (the client's CONSUME_FAILED_TPS per minute): a RECONSUME_LATER answer logs no line of its own, and each is sent back to %RETRY%${group}`,
            evidence: [...new Set([ref(r[0].ev), ref(r[r.length - 1].ev)])],
            detail: `on ${host} (${sum}); when in ${r.length > 1 ? 'those minutes' : 'that minute'} is not in the logs`,
          });
        }
      }
    }
    return out;
  };

  return { visit, finish };
}
