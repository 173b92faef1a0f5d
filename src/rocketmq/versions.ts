// RocketMQ version numbers, the ranges rmq-diag prints for a host whose logs narrow its version down
// (`4.9.4`, `4.3.0-4.7.1`, `>=5.1.0`, `<=4.9.0`, `unknown`), and behaviours that some releases have:
// one parser and one comparison for the rules, the model and replay.

export type Version = readonly [number, number, number];

/** Above every release: the open end of `>=x`. */
const TOP: Version = [99, 0, 0];
const BOTTOM: Version = [0, 0, 0];
const EXACT = /^(\d+)\.(\d+)\.(\d+)$/;

export function parseVersion(text: string): Version | null {
  const m = EXACT.exec(text.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

export function compareVersions(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** v >= min. */
/**
 * MQVersion.Version's ordinal for a release from 4.0.0 to 5.9.9: the number a RemotingCommand carries
 * as `version` (createResponseCommand sets the process's MQVersion.CURRENT_VERSION). From
 * V4_0_0_SNAPSHOT (212) the enum lists a SNAPSHOT and the release for every x.y.z in turn (read at
 * 5.3.3; gen-23's 4.7.0 broker answers with version=353, gen-708's 4.7.1 with 355).
 */
export function mqVersionOrdinal(v: Version): number {
  return 212 + 2 * ((v[0] - 4) * 100 + v[1] * 10 + v[2]) + 1;
}

export function atLeast(v: Version, min: string): boolean {
  return compareVersions(v, parseVersion(min)!) >= 0;
}

/** Both as text: a >= b. */
export function versionAtLeast(a: string, b: string): boolean {
  return compareVersions(parseVersion(a)!, parseVersion(b)!) >= 0;
}

const text = (v: Version): string => v.join('.');

/** Inclusive bounds. */
interface VersionRange {
  readonly lo: Version;
  readonly hi: Version;
}

/** A range as printed (`4.9.4`, `4.3.0-4.7.1`, `>=5.1.0`, `<=4.7.1`); null when unknown. */
export function parseRange(range: string): VersionRange | null {
  const exact = parseVersion(range);
  if (exact) return { lo: exact, hi: exact };
  let m = /^(\d+\.\d+\.\d+)-(\d+\.\d+\.\d+)$/.exec(range);
  if (m) return { lo: parseVersion(m[1])!, hi: parseVersion(m[2])! };
  m = /^>=(\d+\.\d+\.\d+)$/.exec(range);
  if (m) return { lo: parseVersion(m[1])!, hi: TOP };
  m = /^<=(\d+\.\d+\.\d+)$/.exec(range);
  if (m) return { lo: BOTTOM, hi: parseVersion(m[1])! };
  return null;
}

/** A hint a log carries: a range as printed, `<x` (just below x) or `3.x`; null when it says nothing. */
export function hintRange(hint: string): VersionRange | null {
  const r = parseRange(hint);
  if (r) return r;
  const lt = /^<(\d+\.\d+\.\d+)$/.exec(hint);
  if (lt) {
    // Just below v: the previous patch, or the previous minor's last patch, or the previous major's.
    const [a, b, c] = parseVersion(lt[1])!;
    const below: Version = c > 0 ? [a, b, c - 1] : b > 0 ? [a, b - 1, 99] : [a - 1, 99, 99];
    return { lo: BOTTOM, hi: below };
  }
  if (hint === '3.x') return { lo: [3, 0, 0], hi: [3, 99, 99] };
  return null;
}

/** The intersection of the hints' ranges, or null when none says anything or they contradict. */
export function intersectHints(hints: readonly string[]): { range: VersionRange; exact: string | null } | null {
  let lo = BOTTOM;
  let hi = TOP;
  let exact: string | null = null;
  let known = false;
  for (const h of hints) {
    const b = hintRange(h);
    if (!b) continue;
    known = true;
    if (compareVersions(b.lo, lo) > 0) lo = b.lo;
    if (compareVersions(b.hi, hi) < 0) hi = b.hi;
    if (parseVersion(h)) exact = h;
  }
  if (!known || compareVersions(lo, hi) > 0) return null;
  return { range: { lo, hi }, exact };
}

/** The printed form of a range (the exact version when one is known). */
export function formatRange(r: VersionRange, exact: string | null): string {
  if (exact) return exact;
  if (compareVersions(r.hi, TOP) === 0) return `>=${text(r.lo)}`;
  if (compareVersions(r.lo, BOTTOM) === 0) return `<=${text(r.hi)}`;
  return `${text(r.lo)}-${text(r.hi)}`;
}

/** Whether a whole version range is below `v`, at or above it, or straddles it / is unknown. */
export function versionSide(range: string, v: string): 'below' | 'atLeast' | 'unknown' {
  const b = parseRange(range);
  if (!b) return 'unknown';
  const x = parseVersion(v)!;
  if (compareVersions(b.hi, x) < 0) return 'below';
  if (compareVersions(b.lo, x) >= 0) return 'atLeast';
  return 'unknown';
}

/** Whether a version range can overlap [lo, hi]: true, false, or null when the range is unknown. */
export function rangeOverlaps(range: string, lo: string, hi: string): boolean | null {
  const b = parseRange(range);
  if (!b) return null;
  return compareVersions(b.lo, parseVersion(hi)!) <= 0 && compareVersions(b.hi, parseVersion(lo)!) >= 0;
}

/** Whether the range holds v (an unknown range holds every version). */
export function rangeContains(range: string, v: string): boolean {
  if (range === 'unknown') return true;
  const b = parseRange(range);
  const x = parseVersion(v);
  if (!b || !x) return false;
  return compareVersions(x, b.lo) >= 0 && compareVersions(x, b.hi) <= 0;
}

/** The oldest release rmq-diag models. */
export const OLDEST_MODELLED = '4.3.0';

/** A concrete version from a range (its upper end, or its lower one when open), for a model to run. */
export function pickVersion(range: string, fallback: string): { version: string; exact: boolean } {
  const exact = parseVersion(range);
  if (exact) return { version: range, exact: true };
  const b = parseRange(range);
  if (!b) return { version: fallback, exact: false };
  const oldest = parseVersion(OLDEST_MODELLED)!;
  if (compareVersions(b.hi, TOP) === 0) return { version: compareVersions(b.lo, oldest) < 0 ? OLDEST_MODELLED : text(b.lo), exact: false };
  return { version: compareVersions(b.hi, oldest) < 0 ? fallback : text(b.hi), exact: false };
}

/** A behaviour of the releases from `since` (inclusive) until `until` (exclusive). */
export interface VersionFact {
  readonly since: string | null;
  readonly until: string | null;
}

export function factHolds(f: VersionFact, v: Version): boolean {
  return (f.since === null || atLeast(v, f.since)) && (f.until === null || !atLeast(v, f.until));
}

/** Over a range: true when every version in it has the behaviour, false when none has, null when some do. */
export function factOver(f: VersionFact, r: VersionRange): boolean | null {
  const since = f.since === null ? BOTTOM : parseVersion(f.since)!;
  const until = f.until === null ? null : parseVersion(f.until)!;
  const none = compareVersions(r.hi, since) < 0 || (until !== null && compareVersions(r.lo, until) >= 0);
  if (none) return false;
  const all = compareVersions(r.lo, since) >= 0 && (until === null || compareVersions(r.hi, until) < 0);
  return all ? true : null;
}

/** factOver for a range as printed; null when the range is unknown (or a list of several). */
export function factIn(f: VersionFact, range: string): boolean | null {
  const r = parseRange(range);
  return r === null ? null : factOver(f, r);
}
