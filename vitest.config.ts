import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 30000,
    pool: 'forks',
    // Vitest's default is one file fewer than the cores: one at a time on 2 cores. Most files wait
    // on the CLI processes they start, so one file per core keeps both busy (npm test on 2 cores:
    // about 7 minutes instead of 10).
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
