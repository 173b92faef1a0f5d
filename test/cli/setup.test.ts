// Set-up as a new user meets it: the README says how to run the command (npx in the clone, or npm
// link), `npm start` runs clean, shell completion, did-you-mean for options, --color beside NO_COLOR
// and FORCE_COLOR. Through the built binary.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, spawnBin } from './helpers.js';

const ESC = /\u001b\[\d+m/;

describe('set-up', () => {
  it('the README shows how to get the command: npx in the clone, or npm link first', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const setup = readme.slice(0, readme.indexOf('## Commands'));
    expect(setup).toMatch(/^npx rmq-diag analyze samples\/\S+/m);
    expect(setup).toMatch(/^npm link\b/m);
    expect(setup).toMatch(/rmq-diag completion >> ~\/\.bashrc/);
  });

  it('npm start needs no exit-code trick: analyze --severity none exits 0 on findings', async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.scripts.start).toBe('node bin/rmq-diag.js analyze samples/lab/seed-outage/ --severity none');
    const r = await spawnBin(['analyze', 'samples/lab/seed-outage/', '--severity', 'none']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^rmq-diag analyze: 1 incident; \d+ findings/);
    expect(r.stdout).toMatch(/exit code 0 whatever is found/);
    const j = await spawnBin(['analyze', 'samples/lab/seed-outage/', '--severity', 'none', '--json']);
    expect(JSON.parse(j.stdout).summary).toMatchObject({ severity: 'none', atOrAboveSeverity: 0 });
    expect(JSON.parse(j.stdout).findings.length).toBeGreaterThan(0);
  });
});

describe('shell completion', () => {
  it('prints a completion script, and completes commands and options', async () => {
    const script = await spawnBin(['completion']);
    expect(script.code).toBe(0);
    expect(script.stdout).toMatch(/rmq-diag --get-yargs-completions/);
    const cmds = await spawnBin(['--get-yargs-completions', 'rmq-diag', 'an']);
    expect(cmds.stdout.split('\n')).toEqual(expect.arrayContaining(['analyze', 'events', 'replay', 'tui']));
    const opts = await spawnBin(['--get-yargs-completions', 'rmq-diag', 'analyze', '--']);
    expect(opts.stdout.split('\n')).toEqual(expect.arrayContaining(['--severity', '--skip-rule', '--color']));
    // Completing runs nothing: no input is read, nothing is reported.
    expect(opts.stderr).toBe('');
  });
});

describe('did you mean', () => {
  it('names the closest option for a mistyped one, before any input is read', async () => {
    for (const [args, msg] of [
      [['events', 'nope/', '--tyep', 'x'], 'Unknown argument: tyep; did you mean --type?'],
      [['analyze', 'nope/', '--sevrity', 'error'], 'Unknown argument: sevrity; did you mean --severity?'],
      [['replay', 'nope/', '--seeed', '3'], 'Unknown argument: seeed; did you mean --seed?'],
      [['tui', 'nope/', '--no-othr'], 'Unknown argument: othr; did you mean --no-other?'],
      [['evnts', 'nope/'], 'Did you mean events?'],
    ] as const) {
      const r = await spawnBin([...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`rmq-diag: ${msg}\nRun 'rmq-diag --help' for usage.\n`);
    }
    const far = await spawnBin(['events', 'nope/', '--zzzzzz']);
    expect(far.stderr).toBe("rmq-diag: Unknown argument: zzzzzz\nRun 'rmq-diag --help' for usage.\n");
  });
});

describe('--color', () => {
  const analyze = (env: NodeJS.ProcessEnv, ...flags: string[]) => spawnBin(['analyze', 'samples/broker-busy/', ...flags], { env });
  it('auto: none off a terminal, none with NO_COLOR, colour with FORCE_COLOR', async () => {
    expect((await analyze({})).stdout).not.toMatch(ESC);
    expect((await analyze({ FORCE_COLOR: '1' })).stdout).toMatch(ESC);
    expect((await analyze({ FORCE_COLOR: '1', NO_COLOR: '1' })).stdout).not.toMatch(ESC);
    expect((await analyze({ FORCE_COLOR: '0' })).stdout).not.toMatch(ESC);
  });

  it('always and never win over the terminal and the environment; anything else is a usage error', async () => {
    expect((await analyze({}, '--color', 'always')).stdout).toMatch(ESC);
    expect((await analyze({ NO_COLOR: '1' }, '--color', 'always')).stdout).toMatch(ESC);
    expect((await analyze({ FORCE_COLOR: '1' }, '--color', 'never')).stdout).not.toMatch(ESC);
    const ev = await spawnBin(['events', 'samples/broker-busy/', '--color=always']);
    expect(ev.stdout).toMatch(ESC);
    const bad = await analyze({}, '--color', 'sometimes');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^rmq-diag: Invalid values:\n +Argument: color, Given: "sometimes", Choices: "auto", "always", "never"/);
  });
});
