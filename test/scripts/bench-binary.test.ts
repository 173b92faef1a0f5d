// scripts/bench-binary.mjs times the parse and the binary form's coders on the events a real log
// gives: it must parse as a run does (the same events) and read back every record it wrote.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../cli/helpers.js';

const LOG = 'samples/lab/namesrv-hang/app-pay-01/logs/rocketmqlogs/rocketmq_client.log';

it('scripts/bench-binary.mjs times as many events as events --json gives for the same log', () => {
  const bench = spawnSync(process.execPath, [join(ROOT, 'scripts', 'bench-binary.mjs'), LOG, '--mb', '1', '--rounds', '1', '--json'], { cwd: ROOT, encoding: 'utf8' });
  expect(bench.stderr).toBe('');
  expect(bench.status).toBe(0);
  const figures = JSON.parse(bench.stdout);
  const events = spawnSync(process.execPath, [join(ROOT, 'bin', 'rmq-diag.js'), 'events', '--json', LOG], { cwd: ROOT, encoding: 'utf8' });
  const summary = JSON.parse(events.stdout.trim().split('\n').at(-1)!).summary;
  expect(figures.events).toBeGreaterThan(100);
  expect(figures.events).toBe(summary.events);
  for (const step of ['parse', 'write', 'decode']) expect(figures[step].nsPerEvent, step).toBeGreaterThan(0);
  expect(figures.write.bytesPerEvent).toBeGreaterThan(20);
});

it('scripts/bench-binary.mjs without a file says how to run it (exit 2)', () => {
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'bench-binary.mjs')], { cwd: ROOT, encoding: 'utf8' });
  expect(r.status).toBe(2);
  expect(r.stderr).toMatch(/^usage: node scripts\/bench-binary\.mjs FILE/);
});
