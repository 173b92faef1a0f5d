// Progress on stderr, only when stderr is a terminal and the work has taken more than a second.

export interface Progress {
  update(done: number, total: number): void;
  clear(): void;
}

/** What a progress line says: the bytes read by default. */
type ProgressText = (done: number, total: number, elapsedMs: number) => string;

const reading: ProgressText = (done, total, elapsedMs) => {
  const mb = (n: number) => (n / 1048576).toFixed(0);
  const pct = total > 0 ? ` ${Math.min(100, Math.floor((done / total) * 100))}%` : '';
  const rate = (done / 1048576 / (elapsedMs / 1000)).toFixed(0);
  return `reading ${mb(done)}/${mb(total)} MB${pct} (${rate} MB/s)`;
};

export function progressOn(stream: NodeJS.WritableStream & { isTTY?: boolean }, enabled = true, text: ProgressText = reading): Progress {
  const start = Date.now();
  let shown = false;
  let lastDraw = 0;
  const active = enabled && stream.isTTY === true;
  return {
    update(done, total) {
      if (!active) return;
      const now = Date.now();
      if (now - start < 1000 || now - lastDraw < 100) return;
      lastDraw = now;
      shown = true;
      stream.write(`\r\u001b[2K${text(done, total, now - start)}`);
    },
    clear() {
      if (shown) stream.write('\r\u001b[2K');
      shown = false;
    },
  };
}
