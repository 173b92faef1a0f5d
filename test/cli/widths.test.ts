// Text output fits its width: the terminal's, or off a terminal COLUMNS (else 80), in every command
// and on every bundled sample; evidence is cut with an ellipsis in text and whole in JSON (that help
// examples are whole lines is checked in test/e2e/examples.test.ts, on the help it runs the examples
// of). Notes and progress go to stderr; `replay --runs` shows progress on a
// terminal. Through the built CLI: its main() in a host process for the many commands over the
// samples (useHost), the executable for help and the streams (a pseudo-terminal from script(1) for
// the progress).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, spawnBin, useHost } from './helpers.js';

const cli = useHost();

// Every bundled sample: a folder under samples/ (or a folder of one) with its ground truth.
// samples/generated (35 recordings) is left to test/lab/all-recordings.test.ts: running every command
// of this file over each would take longer than the whole suite may.
const SAMPLES = readdirSync(join(ROOT, 'samples'), { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== 'generated')
  .flatMap((d) => [d.name, ...readdirSync(join(ROOT, 'samples', d.name), { withFileTypes: true }).filter((x) => x.isDirectory()).map((x) => `${d.name}/${x.name}`)])
  .filter((p) => ['expected.json', 'lab.json'].some((f) => existsSync(join(ROOT, 'samples', p, f))));
const width = (l: string) => [...l.replace(/\u001b\[[0-9;]*m/g, '')].length;
const longest = (text: string, skipNotes = false) =>
  Math.max(0, ...text.split('\n').filter((l) => !(skipNotes && /^(note: |rmq-diag: )/.test(l))).map(width));

// The verbose forms print everything the plain ones do, and more.
function commandsFor(sample: string): string[][] {
  const s = `samples/${sample}/`;
  const what = sample === 'seed-outage' ? ['--what-if', 'namesrvOnOwnHosts=true', '--what-if', 'clientVersion=4.9.4', '--runs', '2'] : [];
  return [['events', s, '--stats', '--all'], ['analyze', s, '--verbose'], ['replay', s, '--verbose', ...what]];
}

describe('text fits 80 columns off a terminal (COLUMNS unset)', () => {
  it('finds the bundled samples', () => expect(SAMPLES).toEqual(expect.arrayContaining(['seed-outage', 'healthy-restart', 'broker-busy'])));

  for (const sample of SAMPLES) {
    it(`every command on samples/${sample}`, async () => {
      const runs = [];
      for (const args of commandsFor(sample)) runs.push({ args, r: await cli(args) });
      for (const { args, r } of runs) {
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBeLessThanOrEqual(1);
        expect(longest(r.stdout), args.join(' ')).toBeLessThanOrEqual(80);
        // Notes and errors are one line each, whatever their length; everything else fits.
        expect(longest(r.stderr, true), args.join(' ')).toBeLessThanOrEqual(80);
      }
    });
  }

  it('rules and every --help, -h and help', async () => {
    // Every way of asking: help is laid out to the width only when asked for (cli/main.ts, asksHelp).
    const cmds = [['rules'], ['--help'], ['-h'], ['help'], ['analyze', '-h'], ...['events', 'analyze', 'rules', 'replay', 'tui'].map((c) => [c, '--help'])];
    // Help goes through yargs to the process's own stdout, not main()'s: the executable, each. The
    // processes are independent: started together (one after another, on a loaded machine, ten of
    // them outlasted the test's timeout).
    const runs = await Promise.all(cmds.map(async (args) => ({ args, r: args.length === 1 && args[0] === 'rules' ? await cli(args) : await spawnBin(args) })));
    for (const { args, r } of runs) {
      expect(r.code, args.join(' ')).toBe(0);
      expect(longest(r.stdout), args.join(' ')).toBeLessThanOrEqual(80);
    }
  });
});

describe('COLUMNS sets the width off a terminal', () => {
  it('analyze at COLUMNS=120 uses the room, at COLUMNS=60 fits it', async () => {
    const wide = await cli(['analyze', 'samples/seed-outage/'], { env: { COLUMNS: '120' } });
    expect(longest(wide.stdout)).toBeLessThanOrEqual(120);
    expect(longest(wide.stdout)).toBeGreaterThan(80);
    const narrow = await cli(['replay', 'samples/seed-outage/'], { env: { COLUMNS: '60' } });
    expect(longest(narrow.stdout)).toBeLessThanOrEqual(60);
  });

  it('evidence lines are cut with an ellipsis in text, and whole in JSON', async () => {
    const text = await cli(['analyze', 'samples/seed-outage/']);
    const json = await cli(['analyze', 'samples/seed-outage/', '--json']);
    const evidence = JSON.parse(json.stdout).findings.flatMap((f: { evidence: Array<{ text: string }> }) => f.evidence.map((e) => e.text.trim()));
    const long = evidence.find((t: string) => t.length > 80)!;
    expect(long).toBeDefined();
    const cut = text.stdout.split('\n').find((l) => l.endsWith('…') && long.startsWith(l.trim().replace(/^.*?\d{2}:\d{2}:\d{2}\.\d{3}  /, '').slice(0, -1)));
    expect(cut, 'a cut evidence line').toBeDefined();
    expect(json.stdout).toContain(JSON.stringify(long).slice(1, -1));
  });
});

describe('streams', () => {
  it('replay puts its notes on stderr, like analyze and events', async () => {
    for (const c of ['events', 'analyze', 'replay']) {
      const r = await spawnBin([c, 'samples/seed-outage/']);
      expect(r.stdout, c).not.toMatch(/^note: /m);
      expect(r.stderr, c).toMatch(/^note: samples\/seed-outage\/app-pay-01\/rocketmq_client\.log: the millisecond field repeats the seconds/m);
    }
  });

  it('replay --runs shows its progress on a terminal, on stderr only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rmq-diag-progress-'));
    try {
      const out = join(dir, 'out.txt');
      const log = join(dir, 'tty.log');
      const cmd = `${JSON.stringify(process.execPath)} bin/rmq-diag.js replay samples/seed-outage/ --runs 300 > ${JSON.stringify(out)}`;
      const r = spawnSync('script', ['-q', '-e', '-c', cmd, log], { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH, TERM: 'xterm' } });
      if (r.error) throw new Error(`script(1) is needed for this test (util-linux): ${r.error.message}`);
      expect(r.status).toBe(0);
      const tty = readFileSync(log, 'utf8');
      // Progress shows once the work has taken a second: 300 runs take a few.
      expect(tty).toMatch(/\r\u001b\[2Kreplay: run \d+\/301/);
      expect(readFileSync(out, 'utf8')).not.toMatch(/replay: run|\u001b/);
      expect(readFileSync(out, 'utf8')).toMatch(/^runs: 300 seeds/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000); // 300 replays through a pty: on a loaded machine they outlast the default timeout
});
