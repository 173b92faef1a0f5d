// `replay --emit-logs DIR` never writes over what the user did not give up: not an input, not a file
// already there (unless --force), nothing outside DIR (host names are names, not paths), nothing
// through a symbolic link. Through the built binary, on copies of the bundled sample.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, spawnBin } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'rmq-diag-emit-'));
const inc = join(dir, 'INC');
const scenario = join(dir, 's.json');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function digest(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[p.slice(root.length)] = createHash('sha1').update(readFileSync(p)).digest('hex');
    }
  };
  walk(root);
  return out;
}

beforeAll(async () => {
  cpSync(join(ROOT, 'samples', 'seed-outage'), inc, { recursive: true });
  const r = await spawnBin(['replay', inc, '--save-scenario', scenario]);
  expect(r.code, r.stderr).toBe(0);
}, 120_000);

describe('replay --emit-logs', () => {
  it('refuses the folder of its own inputs, with or without --force', async () => {
    const before = digest(inc);
    for (const force of [[], ['--force']]) {
      const r = await spawnBin(['replay', inc, '--emit-logs', inc, ...force]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`rmq-diag: --emit-logs ${inc}: inside the input folder ${inc}, which is never written into\n`);
    }
    expect(digest(inc)).toEqual(before);
  }, 120_000);

  it('refuses a folder that is not empty unless --force, which replaces files of the same names', async () => {
    const out = join(dir, 'full');
    mkdirSync(out);
    writeFileSync(join(out, 'keep.txt'), 'mine\n');
    const r = await spawnBin(['replay', scenario, '--emit-logs', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`rmq-diag: --emit-logs ${out}: ${out} is not empty (1 entry): give an empty or new folder, or --force to replace files of the same names\n`);
    expect(readdirSync(out)).toEqual(['keep.txt']);
    const forced = await spawnBin(['replay', scenario, '--emit-logs', out, '--force']);
    expect(forced.code).toBe(0);
    expect(readFileSync(join(out, 'keep.txt'), 'utf8')).toBe('mine\n');
    expect(readdirSync(out).sort()).toEqual(['app-order-01', 'app-pay-01', 'keep.txt', 'mq-node-100', 'mq-node-101']);
    const again = await spawnBin(['replay', scenario, '--emit-logs', out, '--force']);
    expect(again.code).toBe(0);
  });

  it('writes a new folder, which analyze reads back', async () => {
    const out = join(dir, 'new', 'sim');
    const r = await spawnBin(['replay', scenario, '--emit-logs', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`simulated logs: 14 files under ${out}`);
    const a = await spawnBin(['analyze', out, '--json']);
    expect(JSON.parse(a.stdout).findings.map((f: { rule: string }) => f.rule)).toContain('namesrv-stuck');
  });

  it('keeps host names from a scenario file inside the folder: they are names, not paths', async () => {
    const evil = join(dir, 'evil.json');
    writeFileSync(evil, readFileSync(scenario, 'utf8').split('"app-order-01"').join('"../../escape"'));
    const out = join(dir, 'evil-out');
    const r = await spawnBin(['replay', evil, '--emit-logs', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(dir, 'escape'))).toBe(false);
    expect(existsSync(join(out, '..%2F..%2Fescape', 'rocketmq_client.log'))).toBe(true);
  });

  it('writes nothing through a symbolic link inside the folder', async () => {
    const out = join(dir, 'linked');
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(elsewhere);
    mkdirSync(join(out, 'app-order-01'), { recursive: true });
    symlinkSync(elsewhere, join(out, 'app-pay-01'));
    symlinkSync(join(elsewhere, 'victim'), join(out, 'app-order-01', 'app.log'));
    const r = await spawnBin(['replay', scenario, '--emit-logs', out, '--force']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is a symbolic link: nothing is written through one$/m);
    expect(readdirSync(elsewhere)).toEqual([]);
    rmSync(join(out, 'app-pay-01'));
    const r2 = await spawnBin(['replay', scenario, '--emit-logs', out, '--force']);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toBe(`rmq-diag: --emit-logs ${out}: ${join(out, 'app-order-01', 'app.log')} is a symbolic link: nothing is written through one\n`);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('--save-scenario never writes into the input folder, over an input or beside one', async () => {
    const target = join(inc, 'app-order-01', 'rocketmq_client.log');
    const before = readFileSync(target);
    const r = await spawnBin(['replay', inc, '--save-scenario', target]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`rmq-diag: --save-scenario ${target}: inside the input folder ${inc}, which is never written into\n`);
    expect(readFileSync(target)).toEqual(before);
    const beside = await spawnBin(['replay', inc, '--save-scenario', join(inc, 's.json')]);
    expect(beside.code).toBe(2);
    expect(existsSync(join(inc, 's.json'))).toBe(false);
  }, 120_000);
});
