import { parseZone, type Zone } from '../parse/time.js';
import type { SourceAccounting } from '../parse/types.js';

/** The output zone by default: the zone most sources were read in (ties: the default zone). */
export function dominantZone(acc: SourceAccounting[], fallback: Zone): Zone {
  const counts = new Map<string, number>();
  for (const a of acc) {
    if (!a.zone || a.zone === 'printed') continue;
    counts.set(a.zone, (counts.get(a.zone) ?? 0) + 1);
  }
  let best = fallback.name;
  let bestN = counts.get(best) ?? 0;
  for (const [z, n] of counts) {
    if (n > bestN) {
      best = z;
      bestN = n;
    }
  }
  return parseZone(best);
}
