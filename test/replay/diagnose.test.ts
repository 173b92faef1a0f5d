// analyze's diagnosis with the incidents collected in a thread of their own (collect-thread.ts)
// beside the rules' pass: the same analysis and incidents as from the one pass. From dist/: the
// thread's entry is a built file.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_RULES } from '../../dist/rules/index.js';
import { buildTimeline } from '../../dist/timeline/build.js';
import { mergeStreams } from '../../dist/timeline/merge.js';
import { diagnose } from '../../dist/replay/diagnose.js';

const ROOT = join(__dirname, '..', '..');
// Sources that spill after a few events and files parsed in two parts: the thread reads spill
// files, tails and further parts, as a large input gives them.
const build = (sample: string) =>
  buildTimeline({ inputs: [join(ROOT, 'samples', sample)], keepOther: 'inference', cwd: ROOT, workers: 0, spillAt: 7, split: { minBytes: 1, parts: 2 } });

describe('diagnose with the incidents collected in a thread', () => {
  it('the streams a thread merges give the stream the timeline gives', async () => {
    const t = await build('seed-outage');
    try {
      const streams = t.streams!();
      expect(streams.every((s) => s.spill !== null)).toBe(true);
      const events = (merged: Iterable<{ event(): unknown }>) => [...merged].map((m) => JSON.stringify(m.event()));
      const again = events(mergeStreams(streams));
      const once = events(t.encoded());
      expect(once.length).toBeGreaterThan(100);
      expect(again).toEqual(once);
      // A stream of further parts (a file parsed in parts) is read whole each time it is merged.
      const [a, b] = streams;
      const parted = [{ ...a, more: [{ spill: b.spill, tail: b.tail }] }];
      const first = events(mergeStreams(parted));
      expect(first.length).toBe(events(mergeStreams([a])).length + events(mergeStreams([b])).length);
      expect(events(mergeStreams(parted))).toEqual(first);
    } finally {
      t.close();
    }
  });

  for (const sample of ['seed-outage', 'broker-busy', 'healthy-restart', 'lab/namesrv-hang', 'lab/crash']) {
    it(`gives the one pass's analysis and incidents: samples/${sample}`, async () => {
      const run = async (thread: boolean) => {
        const t = await build(sample);
        const where: string[] = [];
        try {
          const d = await diagnose(t, { rules: ALL_RULES }, { thread, onCollected: (w) => where.push(w) });
          return { d, where };
        } finally {
          t.close();
        }
      };
      const pass = await run(false);
      const thread = await run(true);
      expect(pass.where).toEqual(['pass']);
      expect(thread.where).toEqual(['thread']);
      expect(thread.d).toEqual(pass.d);
      expect(JSON.stringify(thread.d)).toBe(JSON.stringify(pass.d));
    });
  }
});
