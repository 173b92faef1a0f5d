// Damaged events files (issue 35): mutants of a real events file (a lab recording's host, made by
// `events --json`) read back. Whatever the damage (bytes flipped, cut short, files joined, keys
// deleted, values of another type, lines repeated or moved, gzipped in one member or two), reading
// ends with a timeline or one refusal, never a stack; and the timeline (and, for some, analyze's
// report) is the intact file's unless a note names the file, or every changed line is itself a line
// of the schema (a flipped letter in a text: nothing tells it from the original).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTimeline } from '../../src/timeline/build.js';
import { eventLineProblem, summaryProblem, EVENTS_SCHEMA_VERSION } from '../../src/timeline/events-check.js';
import { UsageError } from '../../src/util/errors.js';
import { run, runBin } from '../cli/helpers.js';
// The lab's seeded generator: a failing mutant can be made again from its seed.
import { random } from '../../lab/src/generate.js';

const SEED = 35;
const MUTANTS = 200;
/** Mutants also run through analyze (a whole run costs far more than reading the file). */
const ANALYZE_EVERY = 20;


const dir = mkdtempSync(join(tmpdir(), 'rmq-diag-events-fuzz-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const made = runBin(['events', 'samples/lab/broker-busy/app-feed-01', '--json']);
const intact = made.stdout;
const lines = intact.trimEnd().split('\n');
const original = new Set(lines);

/** A mutant's bytes as written, and as they inflate to. */
type Mutant = { kind: string; bytes: Buffer; plain: Buffer; gz: boolean };

function mutate(rnd: () => number): Mutant {
  const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)];
  const at = () => Math.floor(rnd() * lines.length);
  const values = [5, '5', null, [], {}, true, -1, 'x'];
  const kind = pick(['flip', 'truncate', 'concat', 'delete', 'retype', 'duplicate', 'shuffle']);
  let text: string | Buffer = intact;
  const ls = [...lines];
  const edit = (change: (o: Record<string, any>) => void) => {
    const i = rnd() < 0.15 ? ls.length - 1 : at();
    const o = JSON.parse(ls[i]);
    // The line itself, its fields, the summary or one of its inputs.
    const targets = [o, o.fields, o.summary, o.summary?.inputs?.[0]].filter((t) => t && typeof t === 'object');
    change(pick(targets));
    ls[i] = JSON.stringify(o);
    text = ls.join('\n') + '\n';
  };
  switch (kind) {
    case 'flip': {
      const b = Buffer.from(intact);
      for (let n = 1 + Math.floor(rnd() * 3); n > 0; n--) b[Math.floor(rnd() * b.length)] ^= 1 + Math.floor(rnd() * 255);
      text = b;
      break;
    }
    case 'truncate':
      text = Buffer.from(intact).subarray(0, Math.floor(rnd() * Buffer.byteLength(intact)));
      break;
    case 'concat':
      text = intact + pick([intact, intact.slice(0, Math.floor(rnd() * intact.length)), `${lines.slice(0, 5).join('\n')}\n`]);
      break;
    case 'delete':
      edit((t) => {
        const keys = Object.keys(t);
        if (keys.length) delete t[pick(keys)];
      });
      break;
    case 'retype':
      edit((t) => {
        const keys = Object.keys(t);
        if (keys.length) t[pick(keys)] = pick(values);
      });
      break;
    case 'duplicate': {
      const i = at();
      ls.splice(rnd() < 0.5 ? i + 1 : at(), 0, ls[i]);
      text = ls.join('\n') + '\n';
      break;
    }
    case 'shuffle': {
      const i = at();
      const w = ls.slice(i, i + 2 + Math.floor(rnd() * 8));
      for (let k = w.length - 1; k > 0; k--) {
        const j = Math.floor(rnd() * (k + 1));
        [w[k], w[j]] = [w[j], w[k]];
      }
      ls.splice(i, w.length, ...w);
      text = ls.join('\n') + '\n';
      break;
    }
  }
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text);
  if (rnd() >= 0.25) return { kind, bytes, plain: bytes, gz: false };
  // Gzipped, in one member or two (as `gzip -c a b` writes them).
  const cut = Math.floor(rnd() * bytes.length);
  return { kind: `${kind}+gz`, plain: bytes, bytes: rnd() < 0.5 ? gzipSync(bytes) : Buffer.concat([gzipSync(bytes.subarray(0, cut)), gzipSync(bytes.subarray(cut))]), gz: true };
}

/**
 * Whether some lines of the text are none of the intact file's, each of them a line of the schema
 * (lines only moved, repeated or left out are no such change).
 */
function changedLinesValid(text: string): boolean {
  let changed = 0;
  for (const l of text.split('\n')) {
    if (l === '' || original.has(l)) continue;
    changed++;
    let o: any;
    try {
      o = JSON.parse(l);
    } catch {
      return false;
    }
    if (typeof o !== 'object' || o === null || Array.isArray(o)) return false;
    if (o.type === 'summary') {
      if (o.schemaVersion !== EVENTS_SCHEMA_VERSION || summaryProblem(o.summary) !== null) return false;
    } else if (eventLineProblem(o, o.time === null ? null : typeof o.time === 'string' ? Date.parse(o.time) : NaN) !== null) return false;
  }
  return changed > 0;
}

/** What a timeline read from `path` holds: its sources' accounting, its events in order, its notes. */
async function read(path: string) {
  const t = await buildTimeline({ inputs: [path], workers: 0 });
  try {
    const events: string[] = [];
    for (const m of t.encoded()) events.push(`${m.source} ${m.ts} ${m.json()}`);
    return { accounting: JSON.stringify(t.accounting), events, issues: t.issues.map((i) => `${i.file}:${i.line}: ${i.message}`) };
  } finally {
    t.close();
  }
}

/** The report without its notes (they are on stderr too). */
const report = (stdout: string) => JSON.stringify(JSON.parse(stdout, (k, v) => (k === 'issues' ? undefined : v)));

describe('damaged events files', () => {
  it(`read back (${MUTANTS} mutants, seed ${SEED}): a timeline or a refusal, and the intact file's unless a note names the file`, async () => {
    expect(made.code, made.stderr).toBe(0);
    expect(lines.length).toBeGreaterThan(200);
    const base = join(dir, 'intact.events');
    writeFileSync(base, intact);
    const want = await read(base);
    const wantReport = await run(['analyze', base, '--json']);
    expect(wantReport.stdout).not.toMatch(/undefined|NaN/);
    const rnd = random(SEED);
    const kinds = new Map<string, number>();
    let noted = 0;
    for (let n = 0; n < MUTANTS; n++) {
      const m = mutate(rnd);
      kinds.set(m.kind, (kinds.get(m.kind) ?? 0) + 1);
      const path = join(dir, m.gz ? 'mutant.events.gz' : 'mutant.events');
      writeFileSync(path, m.bytes);
      const what = `mutant ${n} (${m.kind})`;
      const text = m.plain.toString('utf8');
      let got: Awaited<ReturnType<typeof read>> | null = null;
      try {
        got = await read(path);
      } catch (err) {
        // Only a summary line of another schemaVersion stops the reading.
        expect(err, what).toBeInstanceOf(UsageError);
        expect((err as Error).message, what).toMatch(/schemaVersion/);
      }
      const own = (got?.issues ?? []).filter((i) => i.startsWith(`${path}:`) && !i.includes('made by events --json'));
      if (got !== null && own.length === 0 && !changedLinesValid(text)) {
        // No note: the same sources and events as the intact file (the file's name aside).
        expect(got.accounting, what).toBe(want.accounting);
        expect(got.events, what).toEqual(want.events);
      }
      if (own.length > 0 || got === null) noted++;
      if (n % ANALYZE_EVERY !== 0) continue;
      const r = await run(['analyze', path, '--json']);
      expect([0, 1, 2], `${what}: ${r.stderr}`).toContain(r.code);
      expect(r.stderr, what).not.toMatch(/internal error|TypeError|\n\s+at |undefined|NaN/);
      expect(r.stdout, what).not.toMatch(/undefined|NaN/);
      const notes = r.stderr.split('\n').filter((l) => l.startsWith(`note: ${path}`) && !l.includes('made by events --json'));
      if (r.code !== 2 && notes.length === 0 && !changedLinesValid(text)) expect(report(r.stdout), what).toBe(report(wantReport.stdout));
    }
    // Every kind of damage was made, and most mutants were noted.
    expect([...kinds.keys()].filter((k) => !k.endsWith('+gz')).sort()).toEqual(['concat', 'delete', 'duplicate', 'flip', 'retype', 'shuffle', 'truncate']);
    expect(noted).toBeGreaterThan(MUTANTS / 2);
  }, 120_000);
});
