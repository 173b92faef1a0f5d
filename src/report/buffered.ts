// Output in large chunks: one write per line costs more than building the line. Honours
// backpressure on pipes (a slow `| less` must not make memory grow).

import { once } from 'node:events';

export interface Sink {
  write(s: string): boolean | unknown;
}

export class BufferedOut {
  private parts: string[] = [];
  private size = 0;
  constructor(
    private readonly out: Sink,
    private readonly limit = 1 << 16,
  ) {}

  /** Add text; returns a promise only when the buffer was flushed into a full pipe. */
  push(s: string): Promise<void> | undefined {
    this.parts.push(s);
    this.size += s.length;
    if (this.size >= this.limit) return this.flush();
    return undefined;
  }

  flush(): Promise<void> | undefined {
    if (!this.parts.length) return undefined;
    const chunk = this.parts.join('');
    this.parts = [];
    this.size = 0;
    const ok = this.out.write(chunk);
    const emitter = this.out as unknown as NodeJS.EventEmitter;
    if (ok === false && typeof emitter.once === 'function') {
      return once(emitter, 'drain').then(() => undefined);
    }
    return undefined;
  }
}
