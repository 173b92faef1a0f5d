// Counts in words, as every report and note writes them.

/** `1 send`, `3 sends`, `2 replies` (with `many`): a count with its word. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The same with the digits grouped (`1,234 lines`), for the figures of a run's accounting. */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
