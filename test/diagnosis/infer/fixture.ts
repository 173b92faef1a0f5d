// A small Collected for the inference stages' tests: a few real lines of the bundled recordings
// (or lines given), written as a log folder and read by the same timeline and collect pass that
// `replay` runs (src/replay/load.ts), so the events are the parser's own.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { commonDir } from '../../../src/util/paths.js';
import { collect, type Collected } from '../../../src/diagnosis/collect.js';
import { inferContext, type InferContext } from '../../../src/diagnosis/infer/context.js';
import { buildTimeline } from '../../../src/timeline/build.js';

export const SAMPLES = join(__dirname, '..', '..', '..', 'samples');

/** One file of the log folder: lines `from`-`to` (1-based, inclusive) of a sample file, and/or lines given. */
export interface Excerpt {
  /** Path in the folder: `<host>/<file>.log`, or `<host>/logs/rocketmqlogs/<file>.log`. */
  path: string;
  sample?: string;
  lines?: [number, number];
  text?: string[];
}

export const sampleLines = (sample: string, from: number, to: number): string[] =>
  readFileSync(join(SAMPLES, sample), 'utf8').split('\n').slice(from - 1, to);

export async function collected(files: Excerpt[]): Promise<Collected> {
  const dir = mkdtempSync(join(tmpdir(), 'rmq-diag-infer-'));
  try {
    for (const f of files) {
      const lines = [...(f.sample && f.lines ? sampleLines(f.sample, f.lines[0], f.lines[1]) : []), ...(f.text ?? [])];
      mkdirSync(dirname(join(dir, f.path)), { recursive: true });
      writeFileSync(join(dir, f.path), lines.join('\n') + '\n');
    }
    const timeline = await buildTimeline({ inputs: [dir], keepOther: 'inference', types: null });
    try {
      const base = commonDir(timeline.accounting.map((a) => a.path));
      return collect(timeline.events(), timeline.accounting, base, timeline.first, timeline.last);
    } finally {
      timeline.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function contextOf(files: Excerpt[]): Promise<InferContext> {
  return inferContext(await collected(files), { zone: '+08:00', source: 'test' });
}
