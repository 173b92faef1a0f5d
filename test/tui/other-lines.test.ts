// Records kept as the places of their lines (the timeline's otherLines, as the TUI's --other
// builds it): the store gives every event, its JSON, its text and its columns as it gives them
// when every record travels with its JSON, and the load finds the same findings and incidents.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { incidentPass } from '../../src/diagnosis/diagnose.js';
import { inferenceReader } from '../../src/timeline/other-records.js';
import { ALL_RULES } from '../../src/rules/index.js';
import { buildTimeline } from '../../src/timeline/build.js';
import { loadTimeline } from '../../src/tui/load.js';
import type { EventStore } from '../../src/tui/store.js';

const ROOT = join(__dirname, '..', '..');
const LAB = join(ROOT, 'samples', 'lab');
const INPUTS = [
  'samples/seed-outage',
  'samples/healthy-restart',
  'samples/broker-busy',
  ...readdirSync(LAB).map((d) => `samples/lab/${d}`),
  'test/fixtures/real',
];

async function load(inputs: string[], otherLines: boolean) {
  const t = await buildTimeline({ inputs, keepOther: true, otherLines, asJson: 'both', cwd: ROOT, workers: 0 });
  const pass = incidentPass(t);
  const loaded = await loadTimeline(t, { rules: ALL_RULES, observer: pass, sliceMs: 0 });
  t.close();
  return { store: loaded!.store, findings: loaded!.findings, incidents: pass.finish(loaded!.findings) };
}

/** Everything the TUI reads of the store, event by event, as one text (the first difference is easy to see). */
function contents(store: EventStore, from = 0, to = store.length): string[] {
  const out: string[] = [];
  for (let i = from; i < to; i++) {
    const cols = [store.tAt(i), store.sourceAt(i), store.typeAt(i), store.levelAt(i), store.kindAt(i), store.lineAt(i), store.noiseAt(i)];
    out.push(`${i} ${JSON.stringify(store.get(i))} ${store.raw(i)} ${store.textOf(i)} ${cols.join(',')}`);
  }
  return out;
}

describe('records kept as the places of their lines', () => {
  /** Records that are no event and that inference does not read, of plain files; and of them, those kept as lines. */
  let unread = 0;
  let kept = 0;
  for (const input of INPUTS) {
    it(`are the events, findings and incidents of the JSON form: ${input}`, async () => {
      const json = await load([input], false);
      const lines = await load([input], true);
      try {
        expect(json.store.linesKept).toBe(0);
        expect(lines.store.length).toBe(json.store.length);
        // textOf before get: a text read with an empty cache of decoded events, then from it.
        for (let i = 0; i < lines.store.length; i++) expect(lines.store.textOf(i)).toBe(json.store.textOf(i));
        expect(contents(lines.store)).toEqual(contents(json.store));
        expect(lines.findings).toEqual(json.findings);
        expect(lines.incidents).toEqual(json.incidents);
        const reads = inferenceReader();
        for (let i = 0; i < lines.store.length; i++) {
          if (lines.store.typeOf(i) !== 'other' || reads(lines.store.get(i)) || lines.store.pathOf(i).endsWith('.gz')) {
            expect(lines.store.keptAsLine(i)).toBe(false);
            continue;
          }
          unread++;
          if (lines.store.keptAsLine(i)) kept++;
        }
      } finally {
        json.store.close();
        lines.store.close();
      }
    });
  }

  it('are nearly all the records of plain files that are no event and that inference does not read', () => {
    // The rest: the records held while a client log's fake millis are voted on, and those whose
    // text is not their line's bytes (paste debris taken off, a line past ASCII).
    expect(unread).toBeGreaterThan(3000);
    expect(kept).toBeGreaterThan(unread * 0.9);
  });

  it('are the same for lines past ASCII (an application that logs in Chinese), read back as UTF-8', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rmq-diag-lines-utf8-'));
    try {
      mkdirSync(join(dir, 'app-order-01'));
      const lines = Array.from({ length: 3000 }, (_, i) => {
        const t = new Date(Date.UTC(2020, 11, 22, 6, 42, 0) + i * 1000).toISOString().slice(11, 19);
        const msg = i % 3 === 0 ? `订单 ${1000 + i} 已创建，用户 张三` : i % 3 === 1 ? `GET /orders/${i} 200 (${i % 40} ms) — café` : `plain ascii ${i}`;
        return `2020-12-22 ${String(Number(t.slice(0, 2)) + 8).padStart(2, '0')}${t.slice(2)}.117  INFO 23817 --- [nio-8080-exec-${(i % 9) + 1}] c.acme.order.web.OrderController         : ${msg}${i % 7 === 0 ? '\r' : ''}`;
      });
      writeFileSync(join(dir, 'app-order-01', 'app.log'), lines.join('\n') + '\n');
      const json = await load([dir], false);
      const kept = await load([dir], true);
      try {
        expect(contents(kept.store)).toEqual(contents(json.store));
        let utf8 = 0;
        for (let i = 0; i < kept.store.length; i++) if (kept.store.keptAsLine(i) && /[^\x00-\x7f]/.test(kept.store.textOf(i))) utf8++;
        expect(utf8).toBeGreaterThan(1900);
      } finally {
        json.store.close();
        kept.store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('when the file changes after the load', () => {
    /** A copy of the seed outage's broker host, loaded with lines, and the index of one line kept in `file`. */
    async function copyLoaded() {
      const dir = mkdtempSync(join(tmpdir(), 'rmq-diag-lines-'));
      const from = join(ROOT, 'samples', 'seed-outage', 'mq-node-100');
      for (const f of readdirSync(from)) if (statSync(join(from, f)).isFile()) copyFileSync(join(from, f), join(dir, f));
      const json = await load([dir], false);
      const lines = await load([dir], true);
      let i = 0;
      while (i < lines.store.length && !(lines.store.keptAsLine(i) && lines.store.fileOf(i).endsWith('broker.log') && i > 100)) i++;
      expect(i).toBeLessThan(lines.store.length);
      return { dir, json, lines, i, path: lines.store.pathOf(i) };
    }

    it('reads the file it read, when the name is given to another file (a rotation)', async () => {
      const { dir, json, lines, i, path } = await copyLoaded();
      try {
        renameSync(path, `${path}.1`);
        writeFileSync(path, 'a new file\n'.repeat(10_000));
        expect(contents(lines.store, i - 50, i + 50)).toEqual(contents(json.store, i - 50, i + 50));
      } finally {
        json.store.close();
        lines.store.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('says so of a line that is not there any more, and goes on', async () => {
      const { dir, json, lines, i, path } = await copyLoaded();
      try {
        // Truncated to nothing in place (copytruncate), then other lines written.
        writeFileSync(path, `${'x'.repeat(40)}\n`.repeat(2000));
        const e = lines.store.get(i);
        expect(e.text).toBe(`(line ${e.line} of ${lines.store.fileOf(i)} could not be read again: the file changed or went away since it was loaded)`);
        const want = json.store.get(i);
        expect({ ...e, text: want.text }).toEqual(want);
      } finally {
        json.store.close();
        lines.store.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
