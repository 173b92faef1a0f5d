// Output in large chunks: one write per line costs more than building the line. Honours
// backpressure on pipes (a slow `| less` must not make memory grow), and stops the run as soon as
// the reader has gone (`| head`): writing on would only read the rest of the input for nothing.

/** The reader of stdout has gone (a closed pipe): the run ends quietly. */
class OutputClosed extends Error {
  constructor() {
    super('output closed');
    this.name = 'OutputClosed';
  }
}

/** EPIPE and friends: what a write to a pipe whose reader has gone fails with. */
export function isClosedOutput(err: unknown): boolean {
  if (err instanceof OutputClosed) return true;
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED' || code === 'ERR_STREAM_WRITE_AFTER_END';
}

interface Sink {
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
    const state = this.out as { destroyed?: boolean; writableEnded?: boolean };
    if (state.destroyed || state.writableEnded) throw new OutputClosed();
    const ok = this.out.write(chunk);
    const emitter = this.out as unknown as NodeJS.EventEmitter;
    if (ok === false && typeof emitter.once === 'function') {
      return drained(emitter);
    }
    return undefined;
  }
}

/** Resolves on 'drain'; a pipe closed meanwhile emits 'error' or 'close' instead (no drain will come). */
function drained(emitter: NodeJS.EventEmitter): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (err?: unknown) => {
      emitter.off('drain', onDrain);
      emitter.off('close', onClose);
      emitter.off('error', onError);
      if (err) reject(err);
      else resolve();
    };
    const onDrain = () => done();
    const onClose = () => done(new OutputClosed());
    const onError = (err: unknown) => done(err);
    emitter.on('drain', onDrain);
    emitter.on('close', onClose);
    emitter.on('error', onError);
  });
}
