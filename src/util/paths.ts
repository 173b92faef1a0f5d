// File paths as the reports show them: relative to the folder all inputs share.

/** The folder all paths share (with its trailing `/`), so file names can be shown relative to it. */
export function commonDir(paths: readonly string[]): string {
  const dirs = paths.filter((p) => p !== '-').map((p) => p.slice(0, p.lastIndexOf('/') + 1));
  if (!dirs.length) return '';
  let prefix = dirs[0];
  for (const d of dirs) {
    // Up one folder at a time; past the root ('/', which a relative path does not share) nothing is shared.
    while (!d.startsWith(prefix)) prefix = prefix.length <= 1 ? '' : prefix.slice(0, prefix.lastIndexOf('/', prefix.length - 2) + 1);
  }
  return prefix;
}

export function relativeTo(file: string, base: string): string {
  return base && file.startsWith(base) ? file.slice(base.length) : file;
}
