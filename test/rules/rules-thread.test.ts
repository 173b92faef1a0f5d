// The rules in a thread of their own (src/rules/rules-thread.ts): the same findings as in this thread.
// The thread runs the built worker file, so these tests load the built modules (dist/, built by
// npm test's pretest), except the last, which runs the sources to see the fallback.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type * as AnalyzeModule from '../../src/rules/analyze.js';
import type * as RegistryModule from '../../src/rules/index.js';
import type * as ThreadModule from '../../src/rules/rules-thread.js';
import type * as BuildModule from '../../src/timeline/build.js';
import type * as LoadModule from '../../src/tui/load.js';
import { analyze as analyzeHere, analyzeOnBothCores as onBothCoresHere } from '../../src/rules/analyze.js';
import { ALL_RULES as RULES_HERE } from '../../src/rules/index.js';
import { buildTimeline as buildHere } from '../../src/timeline/build.js';

const ROOT = join(__dirname, '..', '..');
const dist = async <T>(p: string): Promise<T> => (await import(join(ROOT, 'dist', p))) as T;
const SAMPLES = ['samples/seed-outage', 'samples/lab/hang-5x', 'samples/lab/broker-busy'];

describe('the rules in a thread of their own', () => {
  it('find what they find in this thread: every rule, and some rules with a setting changed, over samples', async () => {
    const { buildTimeline } = await dist<typeof BuildModule>('timeline/build.js');
    const { analyze, sourcesOf } = await dist<typeof AnalyzeModule>('rules/analyze.js');
    const { rulesInThread } = await dist<typeof ThreadModule>('rules/rules-thread.js');
    const { ALL_RULES } = await dist<typeof RegistryModule>('rules/index.js');
    // Three rules in another order than the registry's; settings that change what they find.
    const some = ALL_RULES.filter((r) => ['broker-busy', 'stale-route', 'namesrv-stuck'].includes(r.meta.id)).reverse();
    const settings = { busyEpisodeGapMs: 1000, minTimeouts: 5, pollNameServerInterval: 5000 };
    let found = 0;
    for (const input of SAMPLES) {
      for (const [rules, set] of [[ALL_RULES, {}], [some, settings]] as const) {
        const t = await buildTimeline({ inputs: [join(ROOT, input)], keepOther: 'inference' });
        try {
          const thread = rulesInThread({ streams: t.streams, rules: rules.map((r) => r.meta.id), settings: set, sources: sourcesOf(t) });
          const there = await thread.result;
          const here = analyze(t, { rules, settings: set, milestones: false });
          expect(there.findings, input).toEqual(here.findings);
          expect(there.omitted, input).toEqual(here.omittedFindings);
          found += here.findings.length;
        } finally {
          t.close();
        }
      }
    }
    expect(found).toBeGreaterThan(10);
  });

  it('analyzeOnBothCores gives analyze()\'s analysis: findings, milestones, omitted counts', async () => {
    const { buildTimeline } = await dist<typeof BuildModule>('timeline/build.js');
    const { analyze, analyzeOnBothCores } = await dist<typeof AnalyzeModule>('rules/analyze.js');
    const { ALL_RULES } = await dist<typeof RegistryModule>('rules/index.js');
    for (const input of SAMPLES) {
      const read = () => buildTimeline({ inputs: [join(ROOT, input)], keepOther: 'inference' });
      const a = await read();
      const b = await read();
      try {
        const both = await analyzeOnBothCores(a, { rules: ALL_RULES, rulesThread: true });
        expect(both.milestones.length, input).toBeGreaterThan(0);
        expect(both).toEqual(analyze(b, { rules: ALL_RULES }));
      } finally {
        a.close();
        b.close();
      }
    }
  });

  it("the TUI's load finds with them what it finds without: over the stream its parse makes (JSON beside the binary form)", async () => {
    const { buildTimeline } = await dist<typeof BuildModule>('timeline/build.js');
    const { loadTimeline } = await dist<typeof LoadModule>('tui/load.js');
    const { ALL_RULES } = await dist<typeof RegistryModule>('rules/index.js');
    const load = async (rulesThread: boolean) => {
      const t = await buildTimeline({ inputs: [join(ROOT, 'samples/seed-outage')], keepOther: true, asJson: 'both' });
      try {
        const loaded = (await loadTimeline(t, { rules: ALL_RULES, rulesThread, inMemory: true }))!;
        const events = loaded.store.length;
        loaded.store.close();
        return { events, findings: loaded.findings };
      } finally {
        t.close();
      }
    };
    const there = await load(true);
    expect(there.findings.map((f) => f.rule)).toContain('stale-route');
    expect(there).toEqual(await load(false));
  });

  it('fails with the reason when the thread cannot read the stream, or cannot start', async () => {
    const { rulesInThread } = await dist<typeof ThreadModule>('rules/rules-thread.js');
    const gone = join(ROOT, 'no-such-folder', 'source-0.events');
    const job = { streams: [{ index: 0, spill: gone, tail: null }], rules: ['stale-route'], settings: {}, sources: [] };
    await expect(rulesInThread(job).result).rejects.toThrow(/ENOENT.*no-such-folder/);
    await expect(rulesInThread(job, new URL('file:///no-such-folder/rules-worker.js')).result).rejects.toThrow();
  });

  it('run in this thread when the thread fails: the same analysis (here the sources run, which hold no built worker file)', async () => {
    expect(existsSync(join(ROOT, 'src', 'rules', 'rules-worker.js'))).toBe(false);
    const read = () => buildHere({ inputs: [join(ROOT, 'samples/seed-outage')], keepOther: 'inference' });
    const a = await read();
    const b = await read();
    try {
      const both = await onBothCoresHere(a, { rules: RULES_HERE, rulesThread: true });
      expect(both.findings.length).toBeGreaterThan(0);
      expect(both).toEqual(analyzeHere(b, { rules: RULES_HERE }));
    } finally {
      a.close();
      b.close();
    }
  });
});
