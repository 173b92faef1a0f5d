// `rmq-diag tui` and `analyze --tui` at the command line, without a terminal: a clear message that
// points to analyze and events, exit code 2; usage errors first.
import { describe, expect, it } from 'vitest';
import { run, runBin } from './helpers.js';

describe('rmq-diag tui without a terminal', () => {
  it('says it needs one and points to analyze and events, exit 2', async () => {
    const r = await run(['tui', 'samples/seed-outage']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^rmq-diag tui: the TUI needs an interactive terminal, and stdout is not one\./);
    expect(r.stderr).toMatch(/rmq-diag analyze PATHS\.\.\. +findings with figures, evidence and advice/);
    expect(r.stderr).toMatch(/rmq-diag events PATHS\.\.\. +the merged event timeline/);
  });

  it('is the same for analyze --tui', async () => {
    const r = await run(['analyze', 'samples/seed-outage', '--tui']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/the TUI needs an interactive terminal/);
  });

  it('from the built binary, with stdout a pipe', () => {
    const r = runBin(['tui', 'samples/seed-outage']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/the TUI needs an interactive terminal/);
  });

  it('reports usage errors before looking for a terminal', async () => {
    expect(await run(['tui'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/no input/) });
    expect(await run(['tui', 'samples/seed-outage', '--rule', 'nope'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--rule nope: unknown rule/) });
    expect(await run(['tui', 'samples/seed-outage', '--set', 'nope=1'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--set nope=1/) });
    expect(await run(['tui', 'samples/seed-outage', '--tz-out', 'Mars/Olympus'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--tz-out Mars\/Olympus/) });
    expect(await run(['analyze', 'samples/seed-outage', '--tui', '--json'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--tui and --format\/--json disagree/) });
  });

  it('is listed in the help, with its options', () => {
    const all = runBin(['--help']);
    expect(all.stdout).toMatch(/rmq-diag tui \[paths\.\.\]/);
    const own = runBin(['tui', '--help']);
    expect(own.code).toBe(0);
    expect(own.stdout).toMatch(/--other/);
    expect(own.stdout).toMatch(/--rule/);
    expect(own.stdout.replace(/\s+/g, ' ')).toMatch(/exit code 2 without one \(use analyze or events\)/);
    expect(runBin(['analyze', '--help']).stdout).toMatch(/--tui/);
  });
});
