// The vitest configuration of mutation runs (stryker.config.json, docs/mutation.md). Stryker mutates
// src/*.ts in a sandbox and loads the mutant through vitest, in the test's own process: a test that
// spawns bin/rmq-diag.js runs the built dist/, and a timeline built with worker threads parses in
// dist/ too, so neither sees a mutant and neither can kill one. They are left out here, so a mutant is
// counted killed only by a test that ran the mutated code, and a mutation run does not spend minutes
// on CLI processes that cannot tell.
import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

export default mergeConfig(
  base,
  defineConfig({
    test: {
      // Instrumented code runs slower: a mutation run must not fail a test on time alone.
      testTimeout: 120_000,
      exclude: [
        '**/node_modules/**',
        // The CLI, end-to-end, script and lab ground-truth tests run dist/ in processes of their own.
        'test/cli/**',
        'test/lab/**',
        'test/e2e/**',
        'test/scripts/**',
        'test/golden.test.ts',
      ],
    },
  }),
);
