// Durations in words: precise for findings and figures (formatMs), coarse for limits (spanText).

/** `799 ms`, `12.4 s`, `11 min 46 s`: durations for titles and explanations. */
export function formatMs(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '-';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60000) return `${(ms / 1000).toFixed(ms < 10000 ? 1 : 0)} s`;
  const total = Math.round(ms / 1000);
  const m = Math.floor(total / 60);
  const s = total % 60;
  return s ? `${m} min ${s} s` : `${m} min`;
}

/** 36 h, 90 min, 45 s: a length as a person reads it. */
export function spanText(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  if (ms >= 2 * 86_400_000) return `${Math.round(ms / 86_400_000).toLocaleString('en-US')} days`;
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms >= 60000) return `${Math.round(ms / 60000)} min`;
  return `${Math.round(ms / 1000)} s`;
}
