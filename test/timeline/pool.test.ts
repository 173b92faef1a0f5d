import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runPool, type WorkerReply } from '../../src/timeline/pool.js';

interface Job {
  n: number;
  delayMs?: number;
  fail?: boolean;
  hog?: boolean;
  beat?: string;
  after?: string;
  quit?: boolean;
}
const url = new URL('./pool-worker.mjs', import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'rmq-diag-pool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function pool(jobs: Job[], workers: number, here: (job: Job) => Promise<number> = async (j) => -j.n, name?: (job: Job) => string) {
  const seen: WorkerReply[] = [];
  const run = runPool<Job, number>({
    jobs,
    workers,
    url,
    ask: (job) => ({ job }),
    resultOf: (msg: WorkerReply & { result?: number }) => msg.result,
    onMessage: (msg) => seen.push(msg),
    here,
    name,
  });
  return { run, seen };
}

describe('runPool', () => {
  it('gives each job its result in the order of the jobs, whichever worker finished first', async () => {
    const jobs = [30, 0, 20, 5, 0, 10].map((delayMs, n) => ({ n, delayMs }));
    const { run, seen } = pool(jobs, 2);
    expect(await run).toEqual([0, 10, 20, 30, 40, 50]);
    expect(seen).toHaveLength(6);
  });

  it('with no job, starts no worker and answers at once', async () => {
    expect(await pool([], 2).run).toEqual([]);
  });

  it('does in this thread a job a worker ran out of memory on, and the others in workers', async () => {
    const { run } = pool([{ n: 1 }, { n: 2, hog: true }, { n: 3 }, { n: 4 }], 1, async (j) => 1000 + j.n);
    expect(await run).toEqual([10, 1002, 30, 40]);
  }, 30000);

  it('rejects at the first failure with its message and fs code, and stops the other workers', async () => {
    const beat = join(dir, 'beat');
    writeFileSync(beat, '');
    const { run } = pool([{ n: 1, beat }, { n: 2, fail: true, after: beat }, { n: 3 }], 2);
    await expect(run).rejects.toMatchObject({ message: 'cannot read 2', code: 'ENOENT' });
    // The worker on the job that never answers is gone: its file stops growing.
    await new Promise((r) => setTimeout(r, 100));
    const before = statSync(beat).size;
    await new Promise((r) => setTimeout(r, 200));
    expect(before).toBeGreaterThan(0);
    expect(statSync(beat).size).toBe(before);
  });

  it('names the job of a worker that ended in the middle of it', async () => {
    const { run } = pool([{ n: 1 }, { n: 2, quit: true }, { n: 3 }], 1, undefined, (j) => `job-${j.n}.log`);
    await expect(run).rejects.toThrow('job-2.log: a worker thread stopped before it was done');
  });
});
