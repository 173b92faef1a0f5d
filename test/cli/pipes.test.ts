// A closed stdout (`| head`) ends the run quietly: no message, no stack, status 141 (128 + SIGPIPE, what
// a shell shows for `yes | head -1`), and the run's temp files are gone. Through the built binary with
// real pipes.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnBin } from './helpers.js';

const tmps: string[] = [];
function freshTmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'rmq-diag-pipe-'));
  tmps.push(d);
  return d;
}
afterEach(() => {
  for (const d of tmps.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('a closed stdout', () => {
  // A recording whose output is megabytes: its reader closes after the first line long before the
  // end, whatever the machine's load (the seed outage's 969 lines could all be written first).
  for (const args of [
    ['events', 'samples/lab/hang-5x/'],
    ['events', 'samples/lab/hang-5x/', '--json'],
    ['events', 'samples/lab/hang-5x/', '--all', '--json'],
  ]) {
    it(`ends \`${args.join(' ')} | head -1\` quietly with status 141 and no temp file left`, async () => {
      const tmp = freshTmp();
      const r = await spawnBin(args, { closeAfter: 1, env: { TMPDIR: tmp } });
      // The input notes are said; nothing about the pipe.
      expect(r.stderr.split('\n').filter((l) => l && !l.startsWith('note: '))).toEqual([]);
      expect(r.code).toBe(141);
      expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(1);
      expect(readdirSync(tmp)).toEqual([]);
    });
  }

  it('still lets a reader that reads everything get everything, with the usual exit code', async () => {
    const tmp = freshTmp();
    const r = await spawnBin(['events', 'samples/seed-outage/', '--json'], { env: { TMPDIR: tmp } });
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n').length).toBeGreaterThan(500);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('a full disk under stdout is said on stderr, without a stack, and ends with status 2', async () => {
    const r = await spawnBin(['events', 'samples/seed-outage/'], { stdoutFile: '/dev/full' });
    expect(r.stderr.split('\n').filter((l) => l && !l.startsWith('note: '))).toEqual(['rmq-diag: cannot write the output: ENOSPC: no space left on device, write']);
    expect(r.code).toBe(2);
  });
});
