// The generated samples are what the generator writes: a change of the generator (or of a committed
// sample by hand) shows here, not later in a test that reads the sample.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../cli/helpers.js';

it('scripts/make-samples.mjs reproduces every committed generated sample byte for byte', () => {
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'make-samples.mjs'), '--check'], { cwd: ROOT, encoding: 'utf8' });
  expect(r.stderr + r.stdout.split('\n').filter((l) => l.startsWith('differs')).join('\n'), 'files that differ').not.toMatch(/differs/);
  expect(r.status).toBe(0);
});
