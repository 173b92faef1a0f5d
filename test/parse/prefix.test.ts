// Pastes with a prefix before each line's header: grep -n / -H (matches `:`, context lines `-`), a
// container runtime's (Kubernetes CRI `TIME stdout F`, partial `P` lines; `docker logs -t`), a trace
// id before the date. Each case is a real RocketMQ excerpt of test/fixtures/real (SOURCES.md) with the
// prefix as its tool prints it; the events and the accounting must be those of the excerpt without it.
//
// No public RocketMQ thread we found pastes these prefixes, so the prefixes are built from the tools'
// documented formats: GNU grep's output (`FILE:LINE:` for a matching line, `FILE-LINE-` for a context
// line, `--` between groups; grep(1), "General Output Control"), the kubelet CRI log format
// (`RFC3339Nano STREAM TAG LOG`, TAG `F` a full line, `P` a partial one; kubernetes
// pkg/kubelet/kuberuntime/logs, cri-api "CRI: Log management"), `docker logs -t` (`RFC3339Nano LOG`).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SourceParser } from '../../src/parse/parser.js';
import { detectPrefix, prefixLength } from '../../src/parse/prefix.js';
import { parseZone } from '../../src/parse/time.js';
import type { RmqEvent } from '../../src/parse/types.js';
import type { SourceKind } from '../../src/ingest/kinds.js';

const REAL = join(__dirname, '..', 'fixtures', 'real');
/** A 3.x client log with a stack trace (log4j ` , ` layout): headers and continuation lines. */
const CLIENT = '87-alibaba-3x-client-log4j-comma-invokesync-timeout.log';
/** A broker.log excerpt (server layout). */
const BROKER = '43-broker-update-namesrvaddr-register-ok.log';

function fixture(name: string): string[] {
  const lines = readFileSync(join(REAL, name), 'utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

function parse(lines: string[], kindHint: SourceKind | null = null) {
  const events: RmqEvent[] = [];
  const p = new SourceParser({ file: 'paste.log', host: 'h', sourceIndex: 0, kindHint, kindForced: false, defaultZone: parseZone('+08:00') }, (e) => events.push(e));
  lines.forEach((l, i) => p.line(l, i + 1));
  const acc = p.end();
  return { events, acc, issues: p.issues };
}

/** What must not change with a prefix: each event's time, type, fields, line, level and logger. */
const facts = (events: RmqEvent[]) => events.map((e) => ({ ts: e.ts, type: e.type, fields: e.fields, line: e.line, level: e.level, logger: e.logger, thread: e.thread }));
const counts = (a: ReturnType<typeof parse>['acc']) => ({ lines: a.lines, records: a.records, continuation: a.continuation, unknown: a.unknown, unreadable: a.unreadable, layout: a.layout });

const isHeaderLine = (l: string) => /^\d{4}-\d{2}-\d{2} /.test(l);
const T = (i: number) => `2018-02-25T01:11:${String(i % 60).padStart(2, '0')}.123456789Z`;

describe('prefixes before the header', () => {
  const plain = parse(fixture(CLIENT));
  it('the excerpt itself: its events and accounting, the reference of every case below', () => {
    expect(plain.acc.layout).toBe('rocketmq-client-log4j-comma');
    expect(plain.events.map((e) => e.type)).toEqual(['rpc-timeout', 'send-attempt-failed', 'rpc-timeout']);
    expect(plain.acc).toMatchObject({ lines: 12, records: 4, continuation: 8, unknown: 0 });
  });

  const cases: Array<[string, (l: string, i: number) => string]> = [
    // grep -n -A: matching lines `N:`, context lines `N-` (a header among the context lines too).
    ['grep -n', (l, i) => `${i + 1}${isHeaderLine(l) && i !== 1 ? ':' : '-'}${l}`],
    ['grep -H -n', (l, i) => `logs/rocketmq_client.log${isHeaderLine(l) && i !== 1 ? ':' : '-'}${i + 1}${isHeaderLine(l) && i !== 1 ? ':' : '-'}${l}`],
    ['grep -H', (l) => `app-2018-02-25.log${isHeaderLine(l) ? ':' : '-'}${l}`],
    ['CRI stdout F', (l, i) => `${T(i)} stdout F ${l}`],
    ['docker logs -t', (l, i) => `${T(i)} ${l}`],
    ['a trace id', (l) => (isHeaderLine(l) ? `[a1b2c3d4e5f6] ${l}` : l)],
    ['two MDC fields', (l) => (isHeaderLine(l) ? `[traceId=7f3a9c][order-service] ${l}` : l)],
    // Aliyun SLS's console field name before each copied line (as in fixtures/real/127-*).
    ['a log console field', (l) => `content: ${l}`],
  ];
  for (const [name, prefix] of cases) {
    it(`${name}: the same events at the same lines, every line counted as without the prefix`, () => {
      const lines = fixture(CLIENT).map(prefix);
      expect(lines[0]).not.toBe(fixture(CLIENT)[0]);
      const r = parse(lines);
      expect(facts(r.events)).toEqual(facts(plain.events));
      expect(counts(r.acc)).toEqual(counts(plain.acc));
      expect(r.issues).toEqual(plain.issues);
      // The record's text is the line without the prefix.
      expect(r.events[0].text).toBe(plain.events[0].text);
      expect(new Date(r.events[0].ts!).toISOString()).toBe('2018-02-25T01:11:18.566Z');
      expect(r.events[0].fields).toMatchObject({ addr: '172.16.66.11:10911' });
    });
  }

  it('a real Go line copied from a log console behind `content: `: its header and time read', () => {
    const r = parse(fixture('127-go-logrus-content-prefix-pull-code24.log'));
    expect(r.acc).toMatchObject({ layout: 'go-logrus-text', records: 1, unknown: 0 });
    expect(r.events[0]).toMatchObject({ line: 1, level: 'warning', type: 'pull-failed' });
    expect(new Date(r.events[0].ts!).toISOString()).toBe('2023-12-19T03:11:36.000Z');
  });

  it('grep -n -A1: as many context lines as matches, the context headers read too', () => {
    const src = fixture(BROKER);
    const lines = src.map((l, i) => `${i + 1}${i % 2 ? '-' : ':'}${l}`);
    const r = parse(lines);
    const base = parse(src);
    expect(facts(r.events)).toEqual(facts(base.events));
    expect(counts(r.acc)).toEqual(counts(base.acc));
  });

  it('grep\'s `--` between groups and a line without the prefix are counted as they would be without one', () => {
    const lines = fixture(CLIENT).map((l, i) => `${i + 1}${isHeaderLine(l) ? ':' : '-'}${l}`);
    lines.splice(3, 0, '--');
    const r = parse(lines);
    expect(r.events.map((e) => e.type)).toEqual(plain.events.map((e) => e.type));
    // One more line, inside the record above it: continuation.
    expect(counts(r.acc)).toEqual({ ...counts(plain.acc), lines: 13, continuation: 9 });
  });

  it('CRI partial lines (`P`): joined with the rest of their stream\'s line, read at the first one\'s number', () => {
    const src = fixture(CLIENT);
    const lines: string[] = [];
    src.forEach((l, i) => {
      if (i === 3) {
        // kubelet splits a line longer than its buffer: `P` parts, then the `F` end.
        lines.push(`${T(i)} stdout P ${l.slice(0, 20)}`, `${T(i)} stderr F java.lang.Throwable: a line of the other stream between the parts`, `${T(i)} stdout P ${l.slice(20, 30)}`, `${T(i)} stdout F ${l.slice(30)}`);
      } else lines.push(`${T(i)} stdout F ${l}`);
    });
    const r = parse(lines);
    expect(r.events.map((e) => e.type)).toEqual(plain.events.map((e) => e.type));
    const send = r.events.find((e) => e.type === 'send-attempt-failed')!;
    expect(send.line).toBe(4);
    expect(send.ts).toBe(plain.events.find((e) => e.type === 'send-attempt-failed')!.ts);
    // 15 lines: the 3 parts are 1 line read (2 continuation), the stderr line 1 more (inside the record above).
    expect(r.acc.lines).toBe(15);
    expect(r.acc.records + r.acc.continuation + r.acc.unknown + r.acc.unreadable).toBe(15);
    expect(r.acc.records).toBe(plain.acc.records);
    expect(r.acc.continuation).toBe(plain.acc.continuation + 3);
  });

  it('a CRI partial line whose rest never came is read as it is, each line counted once', () => {
    const lines = fixture(CLIENT).map((l, i) => `${T(i)} stdout F ${l}`);
    lines.push(`${T(99)} stdout P 2018-02-25 09:11:19,001 WARN  RocketmqRemoting , invokeSync: wait response timeout exception, the channel[172.16.66.11:10911]`);
    const r = parse(lines);
    expect(r.events.map((e) => e.type)).toEqual([...plain.events.map((e) => e.type), 'rpc-timeout']);
    expect(r.acc).toMatchObject({ lines: 13, records: 5, continuation: 8, unknown: 0 });
  });

  it('grep -H names the log: its kind when the input\'s own name says none, never over it', () => {
    const src = fixture(BROKER);
    expect(parse(src).acc.kind).toBe('broker');
    const named = src.map((l, i) => `rocketmqlogs/remoting.log:${i + 1}:${l}`);
    expect(parse(named).acc.kind).toBe('remoting');
    expect(parse(named, 'broker').acc.kind).toBe('broker');
    // Files of different kinds in one paste say nothing.
    const mixed = src.map((l, i) => `${i % 2 ? 'store.log' : 'remoting.log'}:${l}`);
    expect(parse(mixed).acc.kind).toBe('broker');
    expect(facts(parse(mixed).events)).toEqual(facts(parse(src).events));
  });

  it('a plain log is read without a prefix, and a prefix of another kind is no prefix', () => {
    const lines = fixture(BROKER);
    const headers = (t: string) => isHeaderLine(t);
    // A plain log's lines are headers at once: no prefix explains them.
    expect(detectPrefix(lines, lines.map(() => 1), headers)?.count ?? 0).toBe(0);
    expect(prefixLength({ form: 'grep', files: ['broker.log'], numbered: true }, 'namesrv.log:12:2024-09-25 16:20:14 INFO x - y')).toBe(-1);
    expect(prefixLength({ form: 'cri' }, '2024-05-01T10:00:00.123456789Z stdin F x')).toBe(-1);
    expect(prefixLength({ form: 'bracket', groups: 1 }, `[${'x'.repeat(200)}] 2024-05-01 10:00:00 INFO`)).toBe(-1);
  });

  it('stays linear on hostile lines (long runs of the characters the scans look for)', () => {
    const hostile = [':'.repeat(100_000), '-'.repeat(100_000), '['.repeat(100_000), `${'1'.repeat(100_000)}:`, `2024-05-01T10:00:00.${'1'.repeat(100_000)}`];
    const r = parse(hostile);
    expect(r.acc.lines).toBe(5);
    expect(r.acc.records + r.acc.continuation + r.acc.unknown).toBe(5);
  });
});
