// Loading a real incident: every event into the store, the same findings analyze reports, in one pass.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_RULES } from '../../src/rules/index.js';
import { analyze } from '../../src/rules/analyze.js';
import { buildTimeline } from '../../src/timeline/build.js';
import { loadTimeline } from '../../src/tui/load.js';
import { TuiModel } from '../../src/tui/view-model.js';
import { parseZone } from '../../src/parse/time.js';

const ROOT = join(__dirname, '..', '..');
const SAMPLE = join(ROOT, 'samples', 'seed-outage');
const build = () => buildTimeline({ inputs: [SAMPLE], keepOther: true, cwd: ROOT, workers: 0 });

describe('loadTimeline', () => {
  it('stores every record, in merge order, and finds what analyze finds', async () => {
    const t = await build();
    const progress: number[] = [];
    const loaded = await loadTimeline(t, { rules: ALL_RULES, onProgress: (n) => progress.push(n), sliceMs: 0 });
    t.close();
    expect(loaded).not.toBeNull();
    const { store, findings } = loaded!;
    try {
      const again = await build();
      let n = 0;
      let last = -Infinity;
      let sameOrder = true;
      for (const e of again.events()) {
        if (n < store.length) {
          const got = store.get(n);
          if (got.file !== e.file || got.line !== e.line || got.type !== e.type || got.ts !== e.ts) sameOrder = false;
        }
        n++;
      }
      again.close();
      expect(store.length).toBe(n);
      expect(n).toBe(11538);
      expect(sameOrder).toBe(true);
      for (let i = 0; i < store.length; i++) {
        expect(store.tAt(i)).toBeGreaterThanOrEqual(last);
        last = store.tAt(i);
      }
      expect(progress.length).toBeGreaterThan(1);

      const other = await build();
      const expected = analyze(other, { rules: ALL_RULES, milestones: false }).findings;
      other.close();
      expect(JSON.parse(JSON.stringify(findings))).toEqual(JSON.parse(JSON.stringify(expected)));
      expect(findings.map((f) => f.rule)).toContain('stale-route');

      // Every line a finding quotes is an event of the store.
      const model = new TuiModel({ store, findings, zone: parseZone('+08:00') });
      findings.forEach((f, i) => {
        const quoted = new Set(f.evidence.map((e) => `${e.file}:${e.line}`));
        const found = new Set([...model.evidence[i]].map((k) => `${store.fileOf(k)}:${store.lineAt(k)}`));
        expect(found).toEqual(quoted);
      });
    } finally {
      store.close();
    }
  });

  it("stores the same rows from the JSON text the parse made (the TUI's way) as from the events", async () => {
    const viaEvents = await build();
    const viaText = await buildTimeline({ inputs: [SAMPLE], keepOther: true, cwd: ROOT, workers: 0, asJson: 'both' });
    const a = (await loadTimeline(viaEvents, { rules: ALL_RULES, sliceMs: 1000 }))!;
    const b = (await loadTimeline(viaText, { rules: ALL_RULES, sliceMs: 1000 }))!;
    viaEvents.close();
    viaText.close();
    try {
      expect(b.store.length).toBe(a.store.length);
      expect(a.store.length).toBeGreaterThan(10000);
      const row = (s: typeof a.store, i: number) => [s.raw(i), s.typeAt(i), s.levelAt(i), s.kindAt(i), s.lineAt(i), s.noiseAt(i), s.tAt(i)];
      let noise = 0;
      for (let i = 0; i < a.store.length; i++) {
        expect(row(b.store, i)).toEqual(row(a.store, i));
        if (a.store.noiseAt(i)) noise++;
      }
      expect(noise).toBeGreaterThan(0);
      expect(JSON.stringify(b.findings)).toBe(JSON.stringify(a.findings));
    } finally {
      a.store.close();
      b.store.close();
    }
  });

  it('stops when aborted, and leaves nothing behind', async () => {
    const t = await build();
    const signal = { aborted: false };
    const loaded = await loadTimeline(t, { rules: ALL_RULES, signal, sliceMs: 0, onProgress: () => (signal.aborted = true) });
    t.close();
    expect(loaded).toBeNull();
    expect(existsSync(SAMPLE)).toBe(true);
  });
});

describe('loadTimeline with the incidents’ inference', () => {
  it('gives the incidents analyze gives, from the same pass, and keeps `other` records out of the store unless asked', async () => {
    const { incidentPass, diagnose } = await import('../../src/replay/diagnose.js');
    const t = await buildTimeline({ inputs: [SAMPLE], keepOther: 'inference', cwd: ROOT, workers: 0 });
    const pass = incidentPass(t);
    const loaded = await loadTimeline(t, { rules: ALL_RULES, observer: pass, otherInStore: false, inMemory: true, sliceMs: 0 });
    const incidents = pass.finish(loaded!.findings);
    t.close();
    try {
      const again = await buildTimeline({ inputs: [SAMPLE], keepOther: 'inference', cwd: ROOT, workers: 0 });
      const d = diagnose(again, { rules: ALL_RULES });
      again.close();
      expect(incidents).toEqual(d.incidents);
      expect(incidents.map((i) => i.causes.map((c) => `${c.host} ${c.kind}`))).toEqual([['mq-node-100 hang', 'mq-node-100 reboot']]);
      for (let i = 0; i < loaded!.store.length; i++) expect(loaded!.store.get(i).type).not.toBe('other');
    } finally {
      loaded!.store.close();
    }
  });
});
