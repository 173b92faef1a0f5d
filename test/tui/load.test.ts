// Loading a real incident: every event into the store, the same findings analyze reports, in one pass.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
    const { incidentPass, diagnose } = await import('../../src/diagnosis/diagnose.js');
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
      expect(incidents.map((i) => i.causes.map((c) => `${c.host} ${c.kind}`))).toEqual([['mq-node-100 reboot']]);
      for (let i = 0; i < loaded!.store.length; i++) expect(loaded!.store.get(i).type).not.toBe('other');
    } finally {
      loaded!.store.close();
    }
  });
});

describe('the TUI’s incidents with every record kept (--other, the default)', () => {
  /** The incidents the TUI's one pass gives over a timeline that kept every record, and analyze's. */
  async function both(inputs: string[]): Promise<[unknown, unknown]> {
    const { incidentPass, diagnose } = await import('../../src/diagnosis/diagnose.js');
    // Built as the TUI builds it: records nothing else reads come as the places of their lines.
    const t = await buildTimeline({ inputs, keepOther: true, otherLines: true, asJson: 'both', cwd: ROOT, workers: 0 });
    const pass = incidentPass(t);
    const loaded = await loadTimeline(t, { rules: ALL_RULES, observer: pass, inMemory: true, sliceMs: 0 });
    const tui = pass.finish(loaded!.findings);
    loaded!.store.close();
    t.close();
    const again = await buildTimeline({ inputs, keepOther: 'inference', cwd: ROOT, workers: 0 });
    const d = diagnose(again, { rules: ALL_RULES });
    again.close();
    return [tui, d.incidents];
  }

  for (const sample of ['seed-outage', 'healthy-restart', 'broker-busy', 'lab/namesrv-hang', 'lab/crash']) {
    it(`are analyze’s: samples/${sample}`, async () => {
      const [tui, analyzed] = await both([join(ROOT, 'samples', sample)]);
      expect(tui).toEqual(analyzed);
    });
  }

  it('are analyze’s when only lines inference does not read interrupt a broker’s silence', async () => {
    // The hung broker's host of the seed outage, and beside it an application that logged only its
    // own business meanwhile (its start-up lines, then requests in its Spring Boot layout: no send,
    // no statistics, no producer settings): no other host's log tells anything inference reads
    // about the silence (14:41:59-14:53:50), so analyze names no fault for it.
    const dir = mkdtempSync(join(tmpdir(), 'rmq-diag-tui-silence-'));
    try {
      const node = join(SAMPLE, 'mq-node-100');
      mkdirSync(join(dir, 'mq-node-100'));
      for (const f of readdirSync(node)) copyFileSync(join(node, f), join(dir, 'mq-node-100', f));
      mkdirSync(join(dir, 'app-order-01'));
      const start = readFileSync(join(SAMPLE, 'app-order-01', 'app.log'), 'utf8')
        .split('\n')
        .filter((l) => l.includes(' --- [main] '));
      expect(start.length).toBeGreaterThan(3);
      const requests = Array.from({ length: 22 }, (_, i) => {
        const t = new Date(Date.UTC(2020, 11, 22, 6, 42, 0) + i * 30000).toISOString().slice(11, 19);
        return `2020-12-22 ${String(Number(t.slice(0, 2)) + 8).padStart(2, '0')}${t.slice(2)}.117  INFO 23817 --- [nio-8080-exec-${(i % 9) + 1}] c.acme.order.web.OrderController         : GET /orders/${1000 + i} 200 (${12 + i} ms)`;
      });
      writeFileSync(join(dir, 'app-order-01', 'app.log'), [...start, ...requests].join('\n') + '\n');
      const [tui, analyzed] = await both([dir]);
      expect(tui).toEqual(analyzed);
      // The silence itself: found from the broker's own lines, with nothing read from others meanwhile.
      const { collect } = await import('../../src/diagnosis/collect.js');
      const silences = async (keepOther: true | 'inference') => {
        const t = await buildTimeline({ inputs: [dir], keepOther, workers: 0 });
        try {
          return collect(t.events(), t.accounting, dir, t.first, t.last).silences.map((x) => [x.host, x.from.line, x.to?.line, x.othersLogged]);
        } finally {
          t.close();
        }
      };
      const want = await silences('inference');
      expect(want.length).toBeGreaterThan(0);
      expect(want.every((x) => x[3] === 0)).toBe(true);
      expect(await silences(true)).toEqual(want);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
