// The pager: when the text report goes through one (a pure decision), and, through a real
// pseudo-terminal (script(1)), that the report reaches the pager on a terminal and stdout when piped.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pagerFor, runPager, type PagerChoice } from '../../src/cli/pager.js';
import { ROOT } from './helpers.js';

const tty = (over: Partial<PagerChoice> = {}): PagerChoice => ({ isTTY: true, noPager: false, format: 'text', env: {}, ...over });

describe('pagerFor', () => {
  it('pages the text report on a terminal with less -FRX by default', () => {
    expect(pagerFor(tty())).toEqual({ command: 'less', env: { LESS: 'FRX', LV: '-c' } });
    expect(pagerFor(tty({ output: '-' }))?.command).toBe('less');
  });

  it('never off a terminal, with --no-pager, for another format, or with -o FILE', () => {
    expect(pagerFor(tty({ isTTY: false }))).toBeNull();
    expect(pagerFor(tty({ noPager: true }))).toBeNull();
    for (const format of ['json', 'markdown', 'html']) expect(pagerFor(tty({ format }))).toBeNull();
    expect(pagerFor(tty({ output: 'report.txt' }))).toBeNull();
  });

  it('takes RMQ_DIAG_PAGER, then PAGER; empty or cat means none', () => {
    expect(pagerFor(tty({ env: { PAGER: 'most' } }))?.command).toBe('most');
    expect(pagerFor(tty({ env: { PAGER: 'most', RMQ_DIAG_PAGER: 'less -S' } }))?.command).toBe('less -S');
    expect(pagerFor(tty({ env: { PAGER: 'cat' } }))).toBeNull();
    expect(pagerFor(tty({ env: { PAGER: '' } }))).toBeNull();
    expect(pagerFor(tty({ env: { PAGER: 'most', RMQ_DIAG_PAGER: '' } }))).toBeNull();
    expect(pagerFor(tty({ env: { PAGER: 'less', RMQ_DIAG_PAGER: 'cat' } }))).toBeNull();
  });

  it('keeps the LESS and LV the user set, and leaves a dumb terminal without less', () => {
    expect(pagerFor(tty({ env: { LESS: '-S', LV: '' } }))?.env).toEqual({});
    expect(pagerFor(tty({ env: { TERM: 'dumb' } }))).toBeNull();
    expect(pagerFor(tty({ env: { TERM: 'dumb', PAGER: 'more' } }))?.command).toBe('more');
  });
});

describe('runPager', () => {
  it('says when the pager could not be started, so that the report is printed directly', async () => {
    expect(await runPager('text\n', { command: 'rmq-diag-no-such-pager', env: {} })).toBe(false);
    expect(await runPager('text\n', { command: 'rmq-diag-no-such-pager -x', env: {} })).toBe(false);
  });

  it('feeds the whole text, and a pager that quits early is no error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rmq-diag-pager-'));
    try {
      const out = join(dir, 'out');
      expect(await runPager('a\nb\n', { command: `cat > '${out}'`, env: {} })).toBe(true);
      expect(readFileSync(out, 'utf8')).toBe('a\nb\n');
      // `true` reads nothing: the writes fail with EPIPE, quietly.
      expect(await runPager('x'.repeat(1 << 20), { command: 'true', env: {} })).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});

// script(1) gives the run a terminal for stdout; a fake pager records what it was given.
describe('analyze through the pager', () => {
  it('pages on a terminal, not when piped, not with --no-pager; the exit code is the same', () => {
    if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error('dist/ is missing: run `npm run build` first');
    if (spawnSync('script', ['--version']).error) throw new Error('script(1) is not installed (util-linux)');
    const dir = mkdtempSync(join(tmpdir(), 'rmq-diag-pager-'));
    try {
      const got = join(dir, 'paged');
      const pager = join(dir, 'pager.sh');
      writeFileSync(pager, `#!/bin/sh\ncat > '${got}'\necho "LESS=$LESS" >> '${got}'\n`);
      chmodSync(pager, 0o755);
      const analyze = `'${process.execPath}' bin/rmq-diag.js analyze samples/broker-busy --progress=false`;
      // Colour is on (a terminal): the checks read the text without it.
      // eslint-disable-next-line no-control-regex
      const plain = (t: string) => t.replace(/\u001b\[[0-9;]*m/g, '').replace(/\r/g, '');
      const inTty = (cmd: string) => spawnSync('script', ['-qec', `${cmd}; echo "code=$?"`, '/dev/null'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, PAGER: pager, LESS: undefined, RMQ_DIAG_PAGER: undefined, COLUMNS: '80' } }).stdout;

      // On a terminal: the pager has the report (LESS=FRX given), the terminal gets none of it.
      let r = plain(inTty(`${analyze} 2>/dev/null`));
      expect(r).toMatch(/code=1/);
      const paged = plain(readFileSync(got, 'utf8'));
      // The terminal's colours reach the pager (less -R shows them).
      expect(readFileSync(got, 'utf8')).toContain('\u001b[1m');
      expect(paged).toMatch(/INCIDENT 1 {2}broker-b overloaded/);
      expect(paged).toMatch(/^In short/m);
      expect(paged).toMatch(/^LESS=FRX$/m);
      expect(r).not.toMatch(/INCIDENT 1/);
      rmSync(got);

      // Piped: no pager.
      r = plain(inTty(`${analyze} 2>/dev/null | cat`));
      expect(r).toMatch(/INCIDENT 1 {2}broker-b overloaded/);
      expect(existsSync(got)).toBe(false);

      // --no-pager, PAGER=cat, --json: printed directly.
      r = plain(inTty(`${analyze} --no-pager 2>/dev/null`));
      expect(r).toMatch(/INCIDENT 1 {2}broker-b overloaded/);
      expect(r).toMatch(/code=1/);
      r = plain(inTty(`PAGER=cat ${analyze} 2>/dev/null`));
      expect(r).toMatch(/INCIDENT 1 {2}broker-b overloaded/);
      r = plain(inTty(`${analyze} --json 2>/dev/null`));
      expect(r).toMatch(/"incidents"/);
      expect(existsSync(got)).toBe(false);

      // A pager that cannot be started: the report is printed, no stack trace, same exit code.
      r = plain(inTty(`PAGER=rmq-diag-no-such-pager ${analyze}`));
      expect(r).toMatch(/INCIDENT 1 {2}broker-b overloaded/);
      expect(r).toMatch(/code=1/);
      expect(r).not.toMatch(/at .*\.js:\d+/);

      // A pager that quits at once (the user's q before the end): quiet, same exit code.
      r = plain(inTty(`PAGER=true ${analyze}`));
      expect(r).toMatch(/code=1/);
      expect(r).not.toMatch(/EPIPE|Error|at .*\.js:\d+/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
