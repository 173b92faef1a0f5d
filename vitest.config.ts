import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const ALL = ['test/**/*.test.ts', 'test/**/*.test.tsx'];
/**
 * Files that need a process of their own: color.test.tsx sets FORCE_COLOR before ink is first
 * loaded (ink decides its colour support then), which another file of the same worker may have done;
 * the files that measure memory (heapUsed, RSS after gc()) need a heap holding nothing of other
 * files: garbage another file left would be collected inside their measurement, and a full gc() over
 * a worker's accumulated heap is slow.
 */
const ISOLATED = [
  'test/tui/components/color.test.tsx',
  'test/ingest/reader.test.ts',
  'test/rules/network-partition.test.ts',
  'test/rules/consumer-backlog.test.ts',
  'test/diagnosis/consumer-causes.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30000,
    pool: 'forks',
    // Vitest's default is one file fewer than the cores: one at a time on 2 cores. Most files wait
    // on the CLI processes they start, so one file per core keeps both busy.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      // A worker keeps the modules it loaded from one file to the next (isolate: false): loading
      // them again for each of the ~180 files cost more than most files' tests. Tests that change
      // process-wide state restore it (vi.useRealTimers, mockRestore).
      { extends: true, test: { name: 'shared', include: ALL, exclude: ISOLATED, isolate: false } },
      { extends: true, test: { name: 'isolated', include: ISOLATED, isolate: true } },
    ],
  },
});
