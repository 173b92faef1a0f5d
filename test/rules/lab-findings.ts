// A rule run in this process on a lab recording (samples/lab/NAME, its truth in lab.json): the real
// logs through the real parsers and timeline, the rule from src/, so that a changed threshold or branch
// in the rule changes what these tests see (the lab tests in test/lab run the built CLI instead).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeTimeline } from '../../src/rules/analyze.js';
import { parseSettings } from '../../src/rules/engine.js';
import type { Finding, Rule } from '../../src/rules/types.js';
import { buildTimeline } from '../../src/timeline/build.js';

export const LAB = fileURLToPath(new URL('../../samples/lab/', import.meta.url));
/** The generated recordings (samples/generated/gen-N), logs gzipped. */
export const GENERATED = fileURLToPath(new URL('../../samples/generated/', import.meta.url));

/** The parts of lab.json these tests read (the lab's own clock and what each process ran with). */
export interface LabTruth {
  scenario: string;
  versions: { namesrv: string; broker: string; client: string[] };
  faults: Array<{ kind: string; host: string; start: string; end: string | null }>;
  clients: Array<{ host: string; version: string; sends: { failed: number } } & Record<string, unknown>>;
  servers: { brokers: Array<{ host: string; brokerName: string; addr: string }>; namesrv: Array<{ host: string; addr: string }> };
}

export const labTruth = (name: string): LabTruth => JSON.parse(readFileSync(join(LAB, name, 'lab.json'), 'utf8')) as LabTruth;
export const generatedTruth = (name: string): LabTruth => JSON.parse(readFileSync(join(GENERATED, name, 'lab.json'), 'utf8')) as LabTruth;

/** The findings of `rules` on a lab recording, with `--set` specs. */
export async function labFindings(name: string, rules: Rule[], set: string[] = [], root = LAB): Promise<Finding[]> {
  const t = await buildTimeline({ inputs: [join(root, name)], workers: 0 });
  try {
    return analyzeTimeline(t, { rules, settings: parseSettings(rules, set) });
  } finally {
    t.close();
  }
}

/** The findings of `rules` on a generated recording (samples/generated/NAME). */
export const generatedFindings = (name: string, rules: Rule[], set: string[] = []): Promise<Finding[]> => labFindings(name, rules, set, GENERATED);
