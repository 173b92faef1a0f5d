// Every rule, in the order `rmq-diag rules` lists them. Ids are a public contract.
import type { Rule } from './types.js';

export const ALL_RULES: readonly Rule[] = [];

export function ruleById(id: string): Rule | undefined {
  return ALL_RULES.find((r) => r.meta.id === id);
}
