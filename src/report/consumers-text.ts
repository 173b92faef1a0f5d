// The consumers' impact in words (text and Markdown reports): one block per consumer group, each
// figure with where it was read, and the figures the logs cannot tell named as unknown.

import type { Zone } from '../parse/time.js';
import type { ConsumerImpact } from '../rules/incident.js';
import type { Palette } from './escape.js';
import { hang, timeText } from './text-layout.js';

const LABEL = 11;
/** How a figure that is a lower bound says so (src/diagnosis/consumers.ts). */
const AT_LEAST = 'at least: ';

/** The figures of one group, each a sentence (the text report hangs them under the group). */
export function consumerFigures(c: ConsumerImpact, zone: Zone, sameDay: boolean): string[] {
  const at = (ts: number) => timeText(ts, zone, sameDay, false);
  const out: string[] = [];
  if (c.failed !== null) out.push(`failed     ${c.failed} ${c.failed === 1 ? 'delivery' : 'deliveries'} (${c.failedHow})`);
  if (c.redelivered !== null) out.push(`retried    ${c.redeliveredAtLeast ? 'at least ' : ''}${c.redelivered} redelivered through ${c.retryTopic ?? `%RETRY%${c.group}`}${c.redeliveredAtLeast ? ' (the retries of the last failures were not counted yet)' : ''}`);
  if (c.dlq !== null) {
    const bound = c.dlqHow?.startsWith(AT_LEAST) ?? false;
    out.push(`DLQ        ${bound ? 'at least ' : ''}${c.dlq} in %DLQ%${c.group} (${bound ? c.dlqHow!.slice(AT_LEAST.length) : c.dlqHow})`);
  }
  if (c.consumedAgain !== null) out.push(`again      ${c.consumedAgain} delivered again (committed offsets moved back by an offset reset)`);
  if (c.skipped !== null) out.push(`skipped    ${c.skipped} deleted before they were consumed (illegal offsets moved forward to nextBeginOffset)`);
  if (c.lag && c.lag.about === 0) out.push(`lag        about 0 at each of the ${c.lag.minutes} minute ends read (${c.lag.how})`);
  else if (c.lag) {
    const span = c.lag.from !== null && c.lag.until !== null ? `, above 0 at the minute ends ${at(c.lag.from)} – ${at(c.lag.until!)}` : '';
    out.push(`lag        about ${c.lag.about} at ${at(c.lag.at)}, the largest at the minute ends${span} (${c.lag.how})`);
  }
  if (c.cachedAtLeast) out.push(`cached     ${c.cachedAtLeast.count} messages of one queue on ${c.cachedAtLeast.host} at ${at(c.cachedAtLeast.at)} (flow control)`);
  return out;
}

export function consumerLines(consumers: readonly ConsumerImpact[], zone: Zone, sameDay: boolean, W: number, p: Palette): string[] {
  if (!consumers.length) return [];
  const out = [p.bold('CONSUMERS  impact per group')];
  for (const c of consumers) {
    out.push(hang(`  ${'group'.padEnd(LABEL - 2)}`, `${c.group}${c.topics.length ? ` on ${c.topics.join(', ')}` : ''}${c.hosts.length ? ` (${c.hosts.join(', ')})` : ''}`, W));
    for (const f of consumerFigures(c, zone, sameDay)) out.push(hang(' '.repeat(LABEL), f, W));
    if (c.unknown.length) out.push(hang(' '.repeat(LABEL), `unknown    ${c.unknown.map((u) => u.slice(0, u.indexOf(':')).replace(/ beyond .*/, ' (more)')).join(', ')}`, W));
  }
  return out;
}
