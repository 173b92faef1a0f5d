// A rule tester in ESLint's spirit: each case is a few log files (real layouts and messages), read
// by the real parsers; `valid` cases must give no finding, `invalid` cases must give the findings
// listed (rule id, subject, metrics, evidence file:line), compared on the keys given.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeTimeline } from '../../src/rules/analyze.js';
import { parseSettings } from '../../src/rules/engine.js';
import type { Finding, Rule } from '../../src/rules/types.js';
import { buildTimeline } from '../../src/timeline/build.js';

export interface RuleCase {
  name: string;
  /** `host/file` -> content (lines joined with \n; use \r\n yourself for 4.x client logs if it matters). */
  files: Record<string, string>;
  /** `--set` specs. */
  set?: string[];
  /** `--tz` default for sources whose layout does not fix one. */
  tz?: string;
}

export interface ExpectedFinding {
  severity?: Finding['severity'];
  subject?: Partial<Finding['subject']>;
  metrics?: Record<string, unknown>;
  /** `file:line` of evidence that must be present (file relative to the case root, e.g. `app/rocketmq_client.log:12`). */
  evidence?: string[];
  /** Substrings the explanation or advice must contain. */
  mentions?: string[];
  /** Substrings the advice must not contain (advice that would not work on that version, say). */
  adviceOmits?: string[];
  /** Substrings the explanation must not contain (a malformed sentence, a claim the logs do not back). */
  explanationOmits?: string[];
  start?: string;
  end?: string;
}

export interface InvalidCase extends RuleCase {
  findings: ExpectedFinding[];
}

export async function findingsFor(rule: Rule, c: RuleCase): Promise<{ findings: Finding[]; root: string }> {
  const root = mkdtempSync(join(tmpdir(), 'rmq-rule-'));
  try {
    for (const [rel, content] of Object.entries(c.files)) {
      const p = join(root, rel);
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, content);
    }
    const t = await buildTimeline({ inputs: [root], workers: 0, tzDefault: c.tz });
    try {
      const findings = analyzeTimeline(t, { rules: [rule], settings: parseSettings([rule], c.set ?? []) });
      // Evidence paths relative to the case root, so cases can name `host/file:line`.
      for (const f of findings) for (const e of f.evidence) e.file = e.file.slice(e.file.indexOf(root) + root.length + 1);
      return { findings, root };
    } finally {
      t.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export function ruleTester(rule: Rule, cases: { valid: RuleCase[]; invalid: InvalidCase[] }): void {
  describe(`rule ${rule.meta.id}`, () => {
    for (const c of cases.valid) {
      it(`valid: ${c.name}`, async () => {
        const { findings } = await findingsFor(rule, c);
        expect(findings, JSON.stringify(findings, null, 1).slice(0, 2000)).toEqual([]);
      });
    }
    for (const c of cases.invalid) {
      it(`invalid: ${c.name}`, async () => {
        const { findings } = await findingsFor(rule, c);
        expect(findings.length, JSON.stringify(findings, null, 1).slice(0, 3000)).toBe(c.findings.length);
        c.findings.forEach((want, i) => {
          const got = findings[i];
          expect(got.rule).toBe(rule.meta.id);
          if (want.severity) expect(got.severity).toBe(want.severity);
          if (want.subject) expect(got.subject).toMatchObject(want.subject);
          if (want.metrics) expect(got.metrics).toMatchObject(want.metrics);
          if (want.evidence) {
            const where = got.evidence.map((e) => `${e.file}:${e.line}`);
            for (const ev of want.evidence) expect(where).toContain(ev);
          }
          for (const m of want.mentions ?? []) expect(`${got.explanation}\n${got.advice.join('\n')}`).toContain(m);
          for (const m of want.adviceOmits ?? []) expect(got.advice.join('\n')).not.toContain(m);
          for (const m of want.explanationOmits ?? []) expect(got.explanation).not.toContain(m);
          if (want.start) expect(got.start).toBe(Date.parse(want.start));
          if (want.end) expect(got.end).toBe(Date.parse(want.end));
          // Every finding explains itself and carries evidence.
          expect(got.explanation.length).toBeGreaterThan(40);
          expect(got.evidence.length).toBeGreaterThan(0);
          expect(got.evidence.length).toBeLessThanOrEqual(5);
          expect(got.advice.length).toBeGreaterThan(0);
        });
      });
    }
  });
}
