// Mutation testing with Stryker (docs/mutation.md). `npm run mutate -- src/parse/timestamp.ts` mutates
// the files given (comma-separated, globs allowed); vitest's related mode then runs only the test files
// of vitest.mutate.config.ts that import them, and per-test coverage runs each mutant against the
// tests that reach it.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts', related: true },
  coverageAnalysis: 'perTest',
  // Two cores: one vitest per core. A machine with more can pass --concurrency.
  concurrency: 2,
  // On a loaded machine a test can take several times its dry-run time: a short timeout would count
  // such a slow run as a timeout (killed) though the mutant changed nothing.
  timeoutMS: 20000,
  timeoutFactor: 2,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  // Not needed by the tests; the sandbox copies the rest (dist/ too: a few in-process test files
  // also start the CLI or parse in worker threads, which run dist/ and pass there unmutated).
  ignorePatterns: ['.stryker-tmp*', 'bench-data', 'coverage', 'reports', 'lab/.cache', 'lab/dist'],
  thresholds: { high: 85, low: 75, break: null },
};
