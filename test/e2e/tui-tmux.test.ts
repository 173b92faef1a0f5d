// The built TUI in a real pseudo-terminal: tmux runs `rmq-diag tui` on the seed outage at 100x30,
// and on the lab's seed outage at 80x24 (the smallest size it is designed for); keys go in with
// send-keys, the screen comes out with capture-pane. Needs dist/ (npm test builds it
// first) and tmux (CI installs it); without either the test fails and says why.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..');

function tmuxAvailable(): boolean {
  const r = spawnSync('tmux', ['-V'], { encoding: 'utf8' });
  return !r.error && r.status === 0;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A tmux server of the test's own (its socket) and what the tests do with its window `tui`. */
function tmuxSession(socket: string, waitMs: number) {
  const env: NodeJS.ProcessEnv = { ...process.env, TERM: process.env.TERM || 'xterm-256color' };
  delete env.TMUX;
  const tmux = (...args: string[]) => spawnSync('tmux', ['-L', socket, ...args], { encoding: 'utf8', env, cwd: ROOT });
  const screen = () => tmux('capture-pane', '-p', '-t', 'tui').stdout ?? '';
  const waitFor = async (what: RegExp, ms = waitMs) => {
    const end = Date.now() + ms;
    let last = '';
    while (Date.now() < end) {
      last = screen();
      if (what.test(last)) return last;
      await sleep(100);
    }
    throw new Error(`the screen never showed ${what}; it shows:\n${last}`);
  };
  const alive = () => tmux('has-session', '-t', 'tui').status === 0;
  return { tmux, screen, waitFor, alive };
}

describe('rmq-diag tui in a pseudo-terminal', () => {
  it('opens on the incident, then the findings over the events that matter, follows keys, and ends on q', async () => {
    if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) {
      throw new Error('dist/ is missing: run `npm run build` first (`npm test` builds it in pretest)');
    }
    if (!tmuxAvailable()) {
      throw new Error('tmux is not installed: this test runs the TUI in a tmux pseudo-terminal (CI installs it in .ci/run; locally: apt-get install tmux)');
    }
    const socket = `rmq-diag-test-${process.pid}`;
    const dir = mkdtempSync(join(tmpdir(), 'rmq-diag-tmux-'));
    const codeFile = join(dir, 'code');
    const { tmux, waitFor, alive } = tmuxSession(socket, 15000);
    try {
      const command = `${quote(process.execPath)} bin/rmq-diag.js tui samples/seed-outage; echo $? > ${quote(codeFile)}`;
      const started = tmux('new-session', '-d', '-s', 'tui', '-x', '100', '-y', '30', '-c', ROOT, command);
      expect(started.status, started.stderr).toBe(0);

      // It opens on the answer: the incident (what broke, who was hurt), then the findings, the
      // first selected with its whole title, over the RocketMQ events that matter (no idle
      // watermark row, no record that is no RocketMQ event).
      let s = await waitFor(/\[findings\] 1\/[\d,]+ of 11,538 · noise hidden \(a: all\)/);
      const lines = s.split('\n');
      expect(lines[0]).toMatch(/^rmq-diag {2}2020-12-22 14:35:00 – 14:59:59 \(24 min 59 s\) {2}times in \+08:00/);
      expect(lines[1]).toMatch(/^9 findings: 2 critical, 5 error, 2 warning · 4 hosts · 14 files · 11,538 events/);
      expect(lines[2]).toMatch(/^INCIDENT 1 {2}mq-node-100 went dark for 11 min 38 s \(a NameServer and broker-a on it\), then rebooted/);
      expect(lines[3]).toMatch(/^ {2}cause {4}14:42:00 – 14:53:50 {2}mq-node-100 rebooted/);
      expect(lines[4]).toMatch(/^ {2}impact {3}app-order-01 {2}72 sends lost, 14:42:11 – 14:53:10/);
      expect(lines[5]).toMatch(/^ {11}app-pay-01 {4}11 sends lost, 14:42:03 – 14:44:22/);
      expect(`${lines[6]} ${lines[7]}`.replace(/\s+/g, ' ')).toMatch(
        /^ 1 CRIT stale-route app-order-01 kept using broker-a for 11 min 35 s after it stopped answering \(97 failures; beyond the 2 min 40 s routing bound\) ?$/,
      );
      expect(lines[8]).toMatch(/^ {2}2 CRIT namesrv-stuck /);
      expect(s).toMatch(/^app-order-01 /m);
      expect(s).toMatch(/^mq-node-101 +█/m);
      expect(s).toMatch(/^findings /m);
      expect(s).toMatch(/TIME +HOST +KIND +LEVEL +TYPE +TEXT/);
      expect(s).not.toMatch(/Queue Size: 0 SlowTim/);
      expect(s).not.toMatch(/ other /);

      // One key shows everything.
      tmux('send-keys', '-t', 'tui', 'a');
      s = await waitFor(/all records listed/);
      expect(s).toMatch(/\[WATERMARK\] Send Queue Size: 0 SlowTim/);
      tmux('send-keys', '-t', 'tui', 'a');
      s = await waitFor(/noise hidden \(a shows all\)/);

      // n: the first finding's evidence, its window in the strip, and the screen names it.
      tmux('send-keys', '-t', 'tui', 'n');
      s = await waitFor(/finding 1\/9 stale-route/);
      expect(s).toMatch(/^▶ 1 CRIT stale-route/m);
      expect(s).toMatch(/zoom/);
      expect(s).toMatch(/◆ 14:42:11\.044 app-order-01 client +WARN +send-attempt-failed/);

      // Enter: the finding in full.
      tmux('send-keys', '-t', 'tui', 'Enter');
      s = await waitFor(/── finding 1\/9/);
      expect(s).toMatch(/window +14:42:11\.044 – 14:53:46\.285 \(11 min 35 s\)/);

      tmux('send-keys', '-t', 'tui', '?');
      await waitFor(/rmq-diag tui: keys/);
      tmux('send-keys', '-t', 'tui', 'Escape');
      await waitFor(/── finding 1\/9/);

      tmux('send-keys', '-t', 'tui', 'q');
      const end = Date.now() + 10000;
      while (alive() && Date.now() < end) await sleep(100);
      expect(alive()).toBe(false);
      expect(readFileSync(codeFile, 'utf8').trim()).toBe('0');
    } finally {
      tmux('kill-server');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('rmq-diag tui at 80x24', () => {
  it('gives the event list, a finding in full and the detail pane room; PgDn moves by what shows', async () => {
    if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error('dist/ is missing: run `npm run build` first');
    if (!tmuxAvailable()) throw new Error('tmux is not installed: this test runs the TUI in a tmux pseudo-terminal');
    const socket = `rmq-diag-test-small-${process.pid}`;
    const { tmux, waitFor } = tmuxSession(socket, 60000);
    const keys = (...k: string[]) => tmux('send-keys', '-t', 'tui', ...k);
    /** `(PgUp/PgDn: N more lines)` in a pane's title. */
    const more = (s: string, pane: string) => Number(new RegExp(`── ${pane}[^\\n]*PgUp/PgDn: (\\d+) more lines?`).exec(s)?.[1] ?? NaN);
    try {
      const command = `${quote(process.execPath)} bin/rmq-diag.js tui samples/lab/seed-outage`;
      const started = tmux('new-session', '-d', '-s', 'tui', '-x', '80', '-y', '24', '-c', ROOT, command);
      expect(started.status, started.stderr).toBe(0);

      // The incident folded to its title (i unfolds it), the findings, and 8 rows of events.
      let s = await waitFor(/\[findings\] 1\/[\d,]+ of 13,519/);
      let lines = s.split('\n');
      expect(lines[2]).toMatch(/^INCIDENT 1 {2}mq-node-a hung .* {2}i: cause, impact$/);
      expect(lines[3]).toMatch(/^ {2}1 CRIT stale-route/);
      const eventRows = (x: string) => x.split('\n').filter((l) => /^[◆ ] \d\d:\d\d:\d\d\.\d{3} \S+ +\S+ +[A-Z]+ /.test(l)).length;
      expect(eventRows(s)).toBeGreaterThanOrEqual(8);
      for (const l of lines) expect([...l].length).toBeLessThanOrEqual(80);

      // i: the cause and the impact; i again: folded.
      keys('i');
      s = await waitFor(/^ {2}cause {4}19:11:37 – 19:16:57 {2}mq-node-a hung/m);
      expect(s).toMatch(/^ {2}impact {3}app-order-01 {2}232 sends lost/m);
      keys('i');
      s = await waitFor(/i: cause, impact/);

      // Enter: the first finding in full, its figures readable.
      keys('Enter');
      s = await waitFor(/── finding 1\/11/);
      expect(s).toMatch(/^window +19:11:40\.000 – 19:17:14\.000 \(5 min 34 s\)/m);
      expect(s).toMatch(/^ {2}staleMs +334000 ms \(5 min 34 s\)/m);
      expect(s).toMatch(/^ {2}failures +250/m);
      expect(s).toMatch(/^ {2}failedSends +232/m);
      // PgDn moves by the lines the pane shows: the lines below fall by that many, nothing shown twice.
      lines = s.split('\n');
      const title = lines.findIndex((l) => l.startsWith('── finding 1/11'));
      const status = lines.findIndex((l) => l.startsWith('[findings]'));
      // The lines of text the pane shows: from its title to the status line.
      const visible = status - title - 1;
      expect(visible).toBeGreaterThanOrEqual(12);
      const shown = lines.slice(title + 1, status);
      const before = more(s, 'finding');
      expect(before).toBeGreaterThan(visible);
      keys('PgDn');
      s = await waitFor(new RegExp(`── finding 1/11 \\(PgUp/PgDn: ${before - visible} more lines`));
      // What shows now was below: none of the lines shown before (blank ones aside) shows again.
      for (const l of s.split('\n').slice(title + 1, status)) if (l.trim()) expect(shown, l).not.toContain(l);
      keys('PgUp');
      s = await waitFor(new RegExp(`── finding 1/11 \\(PgUp/PgDn: ${before} more lines`));

      // The event list, Enter: the event's detail readable under it.
      // One key at a time: Esc then Tab in one write reads as alt-Tab.
      keys('Escape');
      s = await waitFor(/^(?![\s\S]*── finding 1\/11)/);
      keys('Tab');
      s = await waitFor(/^\[events\]/m);
      expect(eventRows(s)).toBeGreaterThanOrEqual(8);
      keys('Enter');
      s = await waitFor(/── detail \(Enter or Esc closes\) (?!reading)/);
      expect(s).toMatch(/^2026-12-01 19:10:05\.000 \+08:00 {2}mq-node-a/m);
      expect(s).toMatch(/^where +samples\/lab\/seed-outage\/mq-node-a\/logs\/rocketmqlogs\/namesrv\.log:\d+/m);
      expect(s).toMatch(/^fields +role=namesrv/m);
      // Its title says what is below; PgDn shows it.
      if (!/^evidence for no finding/m.test(s)) {
        expect(more(s, 'detail')).toBeGreaterThan(0);
        keys('PgDn');
        s = await waitFor(/^evidence for no finding/m);
      }

      keys('q');
      const end = Date.now() + 10000;
      while (tmux('has-session', '-t', 'tui').status === 0 && Date.now() < end) await sleep(100);
      expect(tmux('has-session', '-t', 'tui').status).not.toBe(0);
    } finally {
      tmux('kill-server');
    }
  }, 180_000);
});
