import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_RULES } from '../../src/rules/index.js';
import { SEVERITIES } from '../../src/rules/types.js';

const RULES_DIR = join(__dirname, '..', '..', 'src', 'rules');
const HELPERS = new Set(['advice', 'analyze', 'consumer', 'engine', 'incident', 'index', 'milestones', 'routing', 'rules-thread', 'rules-worker', 'send-path', 'types', 'util', 'versions']);

describe('rule registry (meta-tests, in the spirit of typescript-eslint)', () => {
  it('registers every rule file, and its id is its file name', () => {
    const files = readdirSync(RULES_DIR).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -3)).filter((f) => !HELPERS.has(f));
    expect(ALL_RULES.map((r) => r.meta.id).sort()).toEqual(files.sort());
  });

  it('has the ids the issue made a public contract', () => {
    const ids = ALL_RULES.map((r) => r.meta.id);
    for (const id of ['broker-busy', 'pagecache-busy', 'stale-route', 'namesrv-stuck', 'broker-down-detection', 'colocated-namesrv', 'send-timeout-budget', 'send-no-retry']) {
      expect(ids).toContain(id);
    }
  });

  it('gives every rule complete meta, a test file, and a mention in docs/analyze.md', () => {
    const docs = readFileSync(join(__dirname, '..', '..', 'docs', 'analyze.md'), 'utf8');
    for (const r of ALL_RULES) {
      const m = r.meta;
      expect(m.title.length, m.id).toBeGreaterThan(5);
      expect(m.description.length, m.id).toBeGreaterThan(20);
      expect(SEVERITIES, m.id).toContain(m.severity);
      expect(m.versions.length, m.id).toBeGreaterThan(0);
      expect(m.events.length, m.id).toBeGreaterThan(0);
      for (const [k, s] of Object.entries(m.settings)) expect(s.description.length, `${m.id} ${k}`).toBeGreaterThan(5);
      expect(readdirSync(__dirname), m.id).toContain(`${m.id}.test.ts`);
      expect(docs, m.id).toContain(`\`${m.id}\``);
    }
  });

  it('declares a shared setting with one default everywhere', () => {
    const seen = new Map<string, unknown>();
    for (const r of ALL_RULES) {
      for (const [k, s] of Object.entries(r.meta.settings)) {
        if (seen.has(k)) expect(s.default, k).toEqual(seen.get(k));
        seen.set(k, s.default);
      }
    }
  });
});
