// Spill folders removed in the background: gone soon after, and gone at exit if the process ends first.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createSpillDir, removeSpillDirSoon } from '../../src/timeline/spill.js';

const ROOT = join(__dirname, '..', '..');
const parent = mkdtempSync(join(tmpdir(), 'rmq-diag-spill-test-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

describe('removeSpillDirSoon', () => {
  it('returns at once and removes the folder and its files in the background', async () => {
    const dir = createSpillDir(parent);
    for (let i = 0; i < 20; i++) writeFileSync(join(dir, `part-${i}.bin`), Buffer.alloc(64 << 10, i));
    removeSpillDirSoon(dir);
    for (let waited = 0; existsSync(dir) && waited < 5000; waited += 10) await new Promise((r) => setTimeout(r, 10));
    expect(existsSync(dir)).toBe(false);
  });

  it('leaves nothing behind when the process exits before the background removal ends', () => {
    // The built module (npm test builds first), in a process that exits right after asking.
    const spill = pathToFileURL(join(ROOT, 'dist', 'timeline', 'spill.js')).href;
    const script = [
      `const { createSpillDir, removeSpillDirSoon } = await import(${JSON.stringify(spill)});`,
      `const { writeFileSync } = await import('node:fs');`,
      `const dir = createSpillDir(${JSON.stringify(parent)});`,
      `for (let i = 0; i < 50; i++) writeFileSync(dir + '/part-' + i, Buffer.alloc(1 << 20));`,
      'removeSpillDirSoon(dir);',
      'process.exit(0);',
    ].join('\n');
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(readdirSync(parent)).toEqual([]);
  });
});
