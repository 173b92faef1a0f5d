// The filters people expect on `events`: --type with globs and `!`, --level (and worse), --host and
// --kind (bare values filter; GLOB=VALUE still sets), --grep; the accounting is one line on stderr
// (the table behind --stats); with --json every line is typed. Through the built CLI, its main() in a
// host process that loads dist/ once (useHost).
import { describe, expect, it } from 'vitest';
import { ndjson, useHost } from './helpers.js';

const cli = useHost();

const SAMPLE = 'samples/seed-outage/';
const RANK: Record<string, number> = { TRACE: 0, DEBUG: 1, INFO: 2, WARN: 3, ERROR: 4, FATAL: 5 };

async function json(...args: string[]) {
  const r = await cli(['events', SAMPLE, '--json', ...args]);
  expect(r.code, r.stderr).toBe(0);
  const lines = ndjson(r.stdout);
  expect(lines.every((l) => typeof l.type === 'string')).toBe(true);
  const summary = lines.pop()!;
  expect(summary.type).toBe('summary');
  expect(lines.some((l) => l.type === 'summary')).toBe(false);
  return { events: lines, summary, stderr: r.stderr };
}

describe('events filters', () => {
  it("--type '!watermark' drops the watermark rows, and only them", async () => {
    const all = await json();
    const some = await json('--type', '!watermark');
    expect(all.events.some((e) => e.type === 'watermark')).toBe(true);
    expect(some.events).toEqual(all.events.filter((e) => e.type !== 'watermark'));
    const glob = await json('--type', 'send-*');
    expect(new Set(glob.events.map((e) => e.type))).toEqual(new Set(all.events.filter((e) => e.type.startsWith('send-')).map((e) => e.type)));
  });

  it('--level WARN keeps WARN and worse', async () => {
    const all = await json();
    const warn = await json('--level', 'WARN');
    expect(warn.events.length).toBeGreaterThan(0);
    expect(warn.events).toEqual(all.events.filter((e) => (RANK[e.level] ?? 2) >= 3));
  });

  it('--host and --kind filter by glob; GLOB=NAME still renames', async () => {
    const all = await json();
    const host = await json('--host', 'app-*', '--kind', '!app');
    expect(host.events).toEqual(all.events.filter((e) => e.host.startsWith('app-') && e.kind !== 'app'));
    const renamed = await json('--set-host', '**/mq-node-100/**=node-a', '--host', 'node-a');
    expect(renamed.events.length).toBe(all.events.filter((e) => e.host === 'mq-node-100').length);
    expect(new Set(renamed.events.map((e) => e.host))).toEqual(new Set(['node-a']));
  });

  it('--grep REGEX (and -i) on the record text', async () => {
    const all = await json();
    const g = await json('--grep', 'wait response timeout exception, the channel\\[[0-9.:]+\\]');
    expect(g.events.length).toBeGreaterThan(0);
    expect(g.events).toEqual(all.events.filter((e) => /wait response timeout exception, the channel\[[0-9.:]+\]/.test(e.text)));
    const i = await json('--grep', 'WAIT RESPONSE', '-i');
    expect(i.events.length).toBe(all.events.filter((e) => /wait response/i.test(e.text)).length);
  });

  it('bad filter values are usage errors before anything is read', async () => {
    for (const [args, msg] of [
      [['--type', 'nonsense'], /^rmq-diag: --type nonsense: unknown event type/],
      [['--level', 'loud'], /^rmq-diag: --level loud: unknown level/],
      [['--kind', 'martian'], /^rmq-diag: --kind martian: unknown kind/],
      [['--grep', '(unclosed'], /^rmq-diag: --grep \(unclosed: not a regular expression/],
    ] as const) {
      const r = await cli(['events', 'nope/', ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(msg);
      expect(r.stdout).toBe('');
    }
    const r = await cli(['analyze', SAMPLE, '--host', 'app-order-01']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('rmq-diag: --host app-order-01: only events filters by host; to set it for matching files give --set-host GLOB=NAME\n');
  });
});

describe('events accounting', () => {
  it('is one line on stderr by default, the table with --stats; stdout holds the events only', async () => {
    const r = await cli(['events', SAMPLE, '--type', 'namesrv-chosen']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/records|┌/);
    const last = r.stderr.trimEnd().split('\n').pop()!;
    expect(last).toBe('15,329 lines in 14 files (0 unknown, 0 unreadable); 3 of 10,037 events');
    const shown = Number(/; (\d+) of/.exec(last)![1]);
    expect(r.stdout.split('\n').filter((l) => / namesrv-chosen /.test(l))).toHaveLength(shown);
    const s = await cli(['events', SAMPLE, '--type', 'namesrv-chosen', '--stats']);
    expect(s.stdout).toBe(r.stdout);
    expect(s.stderr).toMatch(/│ source +│ kind/);
    expect(s.stderr).toMatch(/^events by type:$/m);
  });

  it('says the records that are no event apart from the events (--all, --type other): the accounting counts events only', async () => {
    // The line is wrapped to the terminal (80 columns here), its later parts indented.
    const lastOf = (stderr: string) => stderr.trimEnd().replace(/\n  /g, ' ').split('\n').pop()!;
    const rows = (stdout: string, type: RegExp) => stdout.split('\n').filter((l) => type.test(l)).length;
    const all = await cli(['events', SAMPLE, '--all']);
    expect(all.code).toBe(0);
    const m = /; ([\d,]+) of ([\d,]+) events, ([\d,]+) other records$/.exec(lastOf(all.stderr))!;
    expect(m).not.toBeNull();
    const [shown, total, other] = m.slice(1).map((n) => Number(n.replace(/,/g, '')));
    expect(shown).toBe(total);
    expect(other).toBeGreaterThan(0);
    expect(rows(all.stdout, / other /)).toBe(other);
    const only = await cli(['events', SAMPLE, '--type', 'other']);
    expect(lastOf(only.stderr)).toBe(`15,329 lines in 14 files (0 unknown, 0 unreadable); 0 of 10,037 events, ${other.toLocaleString('en-US')} other records`);
  });

  it('the table hides the watermark rows of idle queues (the TUI\'s noise), counts them in one note; --all, --type watermark show them; --json keeps them', async () => {
    const lastOf = (stderr: string) => stderr.trimEnd().replace(/\n  /g, ' ').split('\n');
    const rows = (stdout: string, re: RegExp) => stdout.split('\n').filter((l) => re.test(l));
    // broker-busy: its Send queue waited (watermarks above 0), and idled the rest of the time.
    const BUSY = 'samples/broker-busy/';
    const j = await cli(['events', BUSY, '--json']);
    const lines = ndjson(j.stdout);
    const all = { events: lines.slice(0, -1), summary: lines[lines.length - 1], stderr: j.stderr };
    // What the TUI calls noise: a watermark whose queue head has not waited (SlowTimeMills 0).
    const idle = all.events.filter((e) => e.type === 'watermark' && (e.fields as Record<string, unknown>).slowMs === 0).length;
    const waited = all.events.filter((e) => e.type === 'watermark').length - idle;
    expect(idle).toBeGreaterThan(all.events.length / 2);
    expect(waited).toBeGreaterThan(0);
    const table = await cli(['events', BUSY]);
    expect(table.code).toBe(0);
    const [accounting, note, ...rest] = lastOf(table.stderr);
    expect(rest).toEqual([]);
    expect(accounting).toBe(`8,210 lines in 8 files (0 unknown, 0 unreadable); ${(all.events.length - idle).toLocaleString('en-US')} of 5,198 events`);
    expect(note).toBe(`note: ${idle.toLocaleString('en-US')} watermark events of an idle queue hidden (SlowTimeMills 0, printed every second); --all or --type watermark shows them`);
    // The watermarks that waited stay: they are the busy queue.
    const shownWm = rows(table.stdout, / watermark /);
    expect(shownWm).toHaveLength(waited);
    expect(shownWm.every((l) => !/slowMs=0\b/.test(l))).toBe(true);
    for (const args of [['--all'], ['--type', 'watermark'], ['--type', 'water*,rpc-timeout']]) {
      const r = await cli(['events', BUSY, ...args]);
      expect(r.code).toBe(0);
      expect(r.stderr, args.join(' ')).not.toMatch(/hidden/);
      expect(rows(r.stdout, / watermark /), args.join(' ')).toHaveLength(idle + waited);
    }
    // Excluding other types names no watermark: the idle rows stay hidden.
    const notRpc = await cli(['events', BUSY, '--type', '!rpc-timeout']);
    expect(notRpc.stderr).toMatch(/watermark events of an idle queue hidden/);
    // JSON (an input of analyze and replay) keeps every event, and says nothing hidden.
    expect(all.stderr).not.toMatch(/hidden/);
    expect(all.summary.type).toBe('summary');
    expect(all.events).toHaveLength(5198);
  });
});
