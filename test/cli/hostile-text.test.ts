// Hostile text from the input through the built executable: bidirectional overrides and isolates
// are shown escaped in every output, and names from the input are never Markdown.

import { cpSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runBin } from './helpers.js';

// Inputs written for these tests are removed after them (some are tens of MB).
const madeDirs: string[] = [];
const made = (dir: string): string => (madeDirs.push(dir), dir);
afterAll(() => {
  for (const d of madeDirs) rmSync(d, { recursive: true, force: true });
});

const SEED = join(ROOT, 'samples', 'seed-outage');
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

function copyOfSeed(): string {
  const dir = made(mkdtempSync(join(tmpdir(), 'rmq-hostile-')));
  cpSync(SEED, dir, { recursive: true });
  return dir;
}

describe('bidirectional controls in log text', () => {
  const dir = copyOfSeed();
  for (const host of readdirSync(dir).filter((h) => !h.endsWith('.json'))) {
    for (const f of readdirSync(join(dir, host))) {
      const p = join(dir, host, f);
      // U+202E (right-to-left override) and U+2066..U+2069 (isolates) at the end of every line
      const text = readFileSync(p, 'utf8').replace(/\n/g, ' \u202eevil\u2066x\u2067y\u2068z\u2069\n');
      writeFileSync(p, text);
    }
  }

  it.each([
    ['events', ['events', dir]],
    ['events --json', ['events', dir, '--json']],
    ['analyze', ['analyze', dir]],
    ['analyze --format markdown', ['analyze', dir, '--format', 'markdown']],
    ['analyze --json', ['analyze', dir, '--json']],
    ['replay --json', ['replay', dir, '--json']],
  ])('%s prints them escaped', (_, args) => {
    // Wide enough that text mode does not cut the lines before their ends, where the controls are.
    const r = runBin(args as string[], undefined, { COLUMNS: '1000' });
    expect(r.code, r.stderr).toBeLessThanOrEqual(1);
    expect(r.stdout.length).toBeGreaterThan(1000);
    expect(r.stdout).not.toMatch(BIDI);
    expect(r.stderr).not.toMatch(BIDI);
    if (!args.includes('replay')) expect(r.stdout).toMatch(/\\u202e/);
  });

  it('JSON keeps the same values (the escapes are JSON escapes)', () => {
    const r = runBin(['analyze', dir, '--json']);
    const doc = JSON.parse(r.stdout);
    const evidence = doc.findings.flatMap((f: { evidence: Array<{ text: string }> }) => f.evidence.map((e) => e.text));
    expect(evidence.some((t: string) => t.includes('\u202eevil\u2066x'))).toBe(true);
  });
});

describe('names from the input in the Markdown report', () => {
  it('a host folder named like a link stays text', () => {
    const dir = copyOfSeed();
    renameSync(join(dir, 'app-order-01'), join(dir, '[x](javascript:alert(1))'));
    const r = runBin(['analyze', dir, '--format', 'markdown']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('\\[x\\](javascript:alert(1))');
    // no unescaped `[x](javascript:` anywhere outside code blocks
    const prose = r.stdout.replace(/```[\s\S]*?```/g, '');
    expect(prose).not.toMatch(/(^|[^\\])\[x\]\(javascript:/);
    expect(prose).not.toMatch(/(^|[^\\])\[x(\\\])?\]\(/);
  });
});
