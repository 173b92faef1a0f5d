// Real pastes of the clients that are not the Java one, of older wordings, of pasted layouts and of
// damaged pastes (test/fixtures/real, sources in its SOURCES.md). The expectations were written from
// the text of each excerpt.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SourceParser } from '../../src/parse/parser.js';
import { parseZone } from '../../src/parse/time.js';
import type { RmqEvent } from '../../src/parse/types.js';
import type { SourceKind } from '../../src/ingest/kinds.js';

const REAL = join(__dirname, '..', 'fixtures', 'real');

function fileLines(name: string): string[] {
  const lines = readFileSync(join(REAL, name), 'utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

function parse(name: string, opts: { tz?: string; kindHint?: SourceKind } = {}) {
  const events: RmqEvent[] = [];
  const p = new SourceParser(
    { file: name, host: 'h', sourceIndex: 0, kindHint: opts.kindHint ?? null, kindForced: false, defaultZone: parseZone(opts.tz ?? '+08:00') },
    (e) => events.push(e),
  );
  const lines = fileLines(name);
  lines.forEach((l, i) => p.line(l, i + 1));
  const acc = p.end();
  return { events, acc, issues: p.issues, parser: p };
}

const iso = (ts: number | null) => (ts === null ? null : new Date(ts).toISOString());
const types = (events: RmqEvent[]) => events.map((e) => e.type);

describe('clients that are not the Java one', () => {
  it('rocketmq-client-go, logrus text form, indented: the printed Z is the zone', () => {
    for (const tz of ['+08:00', 'UTC']) {
      const { events, acc } = parse('61-go-logrus-heartbeat-request-timeout-indented.log', { tz });
      expect(acc.layout).toBe('go-logrus-text');
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ type: 'heartbeat-failed', entry: 'heartbeat-failed/go-error', level: 'warning', line: 1 });
      expect(iso(events[0].ts)).toBe('2020-03-16T15:38:53.000Z');
    }
  });

  it('rocketmq-client-go, logrus terminal form: route failures with their underlying error, no date', () => {
    const { events, acc } = parse('63-go-logrus-tty-query-route-topic-not-exist.log');
    expect(acc).toMatchObject({ layout: 'go-logrus-tty', records: 7, continuation: 0, unknown: 0, kind: 'client' });
    expect(types(events)).toEqual(['route-update-failed', 'route-update-failed', 'rebalance', 'rebalance', 'route-update-failed', 'route-update-failed']);
    expect(events.map((e) => e.line)).toEqual([2, 3, 4, 5, 6, 7]);
    const routes = events.filter((e) => e.type === 'route-update-failed');
    for (const e of routes) expect(e).toMatchObject({ ts: null, level: 'WARN', fields: { topic: null, cause: 'topic not exist' } });
    // The consumer cannot rebalance its topic nor its retry topic: neither has a route.
    expect(events[2].fields).toMatchObject({ action: 'topic-not-exist', group: 'GID-dev-market-futures', topic: 'dev_market_futures' });
    expect(events[3].fields).toMatchObject({ action: 'topic-not-exist', group: 'GID-dev-market-futures', topic: '%RETRY%GID-dev-market-futures' });
  });

  it('rocketmq-client-go: the connection close and the application line under it', () => {
    const { events, acc } = parse('65-go-logrus-tty-consumer-start-route-not-found.log');
    expect(acc).toMatchObject({ records: 10, continuation: 1, unknown: 0 });
    expect(types(events)).toEqual(['route-update-failed', 'rebalance', 'route-update-failed', 'channel-closed', 'no-route']);
    expect(events[1]).toMatchObject({ line: 4, fields: { action: 'topic-not-exist', group: 'MQ_INST_XXX%GID_YEE_MSG', topic: '%RETRY%MQ_INST_XXX%GID_YEE_MSG' } });
    expect(events[3]).toMatchObject({ line: 6, fields: { addr: '118.190.213.42:80', reason: 'close' } });
    expect(events[4]).toMatchObject({ line: 7, fields: { topic: '%RETRY%MQ_INST_XXX%GID_YEE_MSG' } });
  });

  it('rocketmq-client-go: a heartbeat refused by the broker, its redacted address kept', () => {
    const { events } = parse('67-go-logrus-tty-heartbeat-failed-redacted-addr.log');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'heartbeat-failed', fields: { brokerName: 'brokera', brokerId: 0, brokerAddr: 'xxxx:10911' } });
  });

  it('a Go zap line quoted with `> `: the remote end of the read error, the printed +08:00', () => {
    const { events, acc } = parse('69-go-zap-quoted-conn-error-offset.log', { tz: 'UTC' });
    expect(acc).toMatchObject({ layout: 'go-zap-console', records: 1 });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'channel-closed', level: 'ERROR', logger: 'remote/remote_client.go', fields: { addr: '192.183.1.196:9876', reason: 'conn-error' } });
    expect(iso(events[0].ts)).toBe('2023-12-05T02:33:03.000Z');
  });

  it('rocketmq-clients Go 5.x: the start of the client, offset +0800 without a colon', () => {
    const { events } = parse('71-go5-zap-begin-start-offset-no-colon.log', { tz: 'UTC' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'startup', level: 'INFO', fields: { role: 'client' } });
    expect(iso(events[0].ts)).toBe('2024-09-18T08:30:57.524Z');
  });

  it('rocketmq-client-cpp re_dev (spdlog): two timeouts and the transport close', () => {
    const { events, acc } = parse('73-cpp-re-dev-spdlog-invoke-sync-timeout.log');
    expect(acc).toMatchObject({ layout: 'rocketmq-client-cpp-spdlog', records: 10, unknown: 0, kind: 'client' });
    expect(types(events)).toEqual(['rpc-timeout', 'rpc-timeout', 'channel-closed']);
    expect(events.map((e) => e.line)).toEqual([1, 2, 8]);
    expect(events[0].fields.addr).toBe('172.18.139.100:10911');
    expect(events[1]).toMatchObject({ entry: 'rpc-timeout/cpp-wait-on-addr', level: 'error', thread: '969', fields: { addr: '172.18.139.100:10911' } });
    expect(events[2].fields).toMatchObject({ addr: '172.18.139.100:10911', reason: 'close' });
    expect(iso(events[0].ts)).toBe('2021-01-29T08:41:41.136Z');
  });

  it('rocketmq-client-cpp with a numeric month: the route query timeout, the empty address, the close', () => {
    const { events, acc } = parse('75-cpp-numeric-date-wait-response-timeout.log');
    expect(acc).toMatchObject({ layout: 'rocketmq-client-cpp-iso', records: 13, unknown: 0 });
    expect(types(events)).toEqual(['rpc-timeout', 'rpc-timeout', 'channel-closed']);
    expect(events.map((e) => e.line)).toEqual([9, 10, 11]);
    expect(events[1].fields.addr).toBeNull();
    expect(events[2].fields.addr).toBe('172.30.33.67:9876');
    expect(iso(events[0].ts)).toBe('2023-10-17T03:44:47.442Z');
  });

  it('rocketmq-clients Java 5.x: the broken stream to a proxy, at GMT+8 as its layout fixes', () => {
    const { events, acc } = parse('91-java5-grpc-client-proxy-stream-unavailable.log', { tz: 'UTC' });
    expect(acc).toMatchObject({ layout: 'rocketmq-client-5x', records: 3, continuation: 4, kind: 'client' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'channel-closed', line: 3, level: 'ERROR', thread: 'RocketmqClientAsyncWorker-0-14', fields: { addr: 'ipv4:192.168.101.128:18081', reason: 'stream-error' } });
    expect(iso(events[0].ts)).toBe('2024-08-17T08:48:04.256Z');
  });

  it('ali-ons (Aliyun ONS, Node.js): the JavaScript date with its GMT offset, one route failure', () => {
    const { events, acc } = parse('77-ali-ons-node-update-route-error.log', { tz: 'UTC' });
    expect(acc).toMatchObject({ layout: 'ali-ons-node', records: 1, continuation: 7, unknown: 0 });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'route-update-failed', line: 1, logger: 'MQProducer' });
    expect(iso(events[0].ts)).toBe('2019-12-04T13:14:05.000Z');
  });
});

describe('pasted layouts that still print a time', () => {
  it('3.x client log4j with ` , ` before the message: the timeout, the attempt and its cause', () => {
    const { events, acc } = parse('87-alibaba-3x-client-log4j-comma-invokesync-timeout.log');
    expect(acc).toMatchObject({ layout: 'rocketmq-client-log4j-comma', records: 4, continuation: 8, unknown: 0, kind: 'client' });
    expect(types(events)).toEqual(['rpc-timeout', 'send-attempt-failed', 'rpc-timeout']);
    expect(events.map((e) => e.line)).toEqual([3, 4, 5]);
    expect(events[0]).toMatchObject({ logger: 'RocketmqRemoting', level: 'WARN', fields: { addr: '172.16.66.11:10911' } });
    expect(events[1].fields.cause).toBe('RemotingTimeoutException: wait response on the channel <172.16.66.11:10911> timeout, 3000(ms)');
    expect(iso(events[1].ts)).toBe('2018-02-25T01:11:18.566Z');
  });

  it('rocketmq-clients C++ 5.x with its printed offset, after lines of the application', () => {
    const events: RmqEvent[] = [];
    const p = new SourceParser({ file: 'f', host: 'h', sourceIndex: 0, kindHint: null, kindForced: false, defaultZone: parseZone('+08:00'), keepOther: true }, (e) => events.push(e));
    fileLines('89-clients-cpp5-zone-layout-after-app-lines.log').forEach((l, i) => p.line(l, i + 1));
    const acc = p.end();
    expect(acc).toMatchObject({ layout: 'rocketmq-clients-cpp-zone', records: 4, unknown: 5 });
    expect(events.map((e) => [e.line, e.level, e.thread, iso(e.ts)])).toEqual([
      [6, 'I', '77', '2023-09-21T14:19:20.749Z'],
      [7, 'D', '77', '2023-09-21T14:19:20.751Z'],
      [8, 'I', '77', '2023-09-21T14:19:20.751Z'],
      [9, 'D', '77', '2023-09-21T14:19:20.761Z'],
    ]);
  });
});

describe('wordings by version', () => {
  it('3.x broker: `shutdown hook was invoked, 1` (lower case, no `times.`) is the broker shutting down', () => {
    const { events, acc } = parse('81-alibaba-3x-broker-shutdown-hook-lowercase.log');
    expect(acc.kind).toBe('broker');
    expect(types(events)).toEqual(['shutdown', 'broker-registered', 'broker-registered']);
    expect(events[0]).toMatchObject({ entry: 'shutdown/hook-no-times', fields: { role: 'broker' } });
    expect(iso(events[0].ts)).toBe('2016-07-12T13:36:05.000Z');
    expect(events.slice(1).map((e) => e.fields.namesrvAddr)).toEqual(['rocketmq1:9876', 'rocketmq2:9876']);
  });

  it('the same wording in a NameServer log is the NameServer shutting down', () => {
    const events: RmqEvent[] = [];
    const p = new SourceParser({ file: 'namesrv.log', host: 'h', sourceIndex: 0, kindHint: 'namesrv', kindForced: true, defaultZone: parseZone('+08:00') }, (e) => events.push(e));
    p.line(fileLines('81-alibaba-3x-broker-shutdown-hook-lowercase.log')[0], 1);
    p.end();
    expect(events[0].fields.role).toBe('namesrv');
  });

  it('4.3.0-4.9.2 `invokeSync call timeout` (the budget spent before the call) is an RPC timeout', () => {
    const { events, acc } = parse('83-spring-invokesync-call-timeout-4.9.1.log');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'rpc-timeout', entry: 'rpc-timeout/invoke-sync-call-timeout', versionHint: '4.3.0-4.9.2', ts: null });
    expect(acc.versionHints).toContain('4.9.1');
  });

  it('3.x async send `wait response timeout 10000ms` under the user own pattern: dated, one RPC timeout', () => {
    const { events, acc } = parse('85-alibaba-3.2.6-folded-async-wait-response-timeout.log');
    expect(acc).toMatchObject({ layout: 'dated-line', records: 1, continuation: 9, unknown: 0 });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'rpc-timeout', line: 5, level: 'ERROR', fields: { timeoutMs: 10000 } });
    expect(iso(events[0].ts)).toBe('2015-09-07T07:43:21.969Z');
  });
});

describe('damaged pastes', () => {
  it('a wrapper and its CODE: 17 line are one event; a paste newest first still gives the right window', () => {
    const { events, parser } = parse('79-ons-starter-tbw102-newest-first-code17.log');
    expect(types(events)).toEqual(['route-update-failed', 'route-update-failed', 'route-update-failed', 'route-update-failed']);
    expect(events.map((e) => [e.line, e.fields.topic])).toEqual([
      [1, 'TBW102'],
      [2, 'TBW102'],
      [5, 'RMQ_SYS_TRACE_TOPIC'],
      [6, 'RMQ_SYS_TRACE_TOPIC'],
    ]);
    expect(String(events[1].fields.cause)).toMatch(/^MQClientException: CODE: 17/);
    // The inner logger's fake millis (`,023` repeats the seconds) read as .000.
    expect(iso(parser.firstTime)).toBe('2021-04-22T03:14:09.000Z');
    expect(iso(parser.lastTime)).toBe('2021-04-22T03:14:23.000Z');
  });

  it('a paste folded at a fixed width: the folded lines stay in the record and are no headers', () => {
    const { acc } = parse('85-alibaba-3.2.6-folded-async-wait-response-timeout.log');
    // `2:26.000+08:00,...` starts with a digit and a colon: neither a header nor an editor's line number.
    expect(acc.records).toBe(1);
  });
});

describe('real excerpts with the damage of a blog code view, a mail quote and an 80-column fold', () => {
  function parseLines(lines: string[]) {
    const events: RmqEvent[] = [];
    const p = new SourceParser({ file: 'f', host: 'h', sourceIndex: 0, kindHint: null, kindForced: false, defaultZone: parseZone('+08:00') }, (e) => events.push(e));
    lines.forEach((l, i) => p.line(l, i + 1));
    return { events, acc: p.end() };
  }
  const strip = (events: RmqEvent[]) => events.map((e) => ({ type: e.type, ts: e.ts, line: e.line, fields: e.fields }));

  it('a line number before every line changes nothing', () => {
    const lines = fileLines('25-client-log-closechannel-shutdown-fake-millis.log');
    const plain = parseLines(lines);
    const numbered = parseLines(lines.map((l, i) => `${i + 1} ${l}`));
    expect(numbered.acc.layout).toBe(plain.acc.layout);
    expect(strip(numbered.events)).toEqual(strip(plain.events));
    expect(numbered.events.length).toBeGreaterThan(0);
  });

  it('`> ` before every line changes nothing', () => {
    const lines = fileLines('23-update-topic-route-tbw102-code17.log');
    const plain = parseLines(lines);
    const quoted = parseLines(lines.map((l) => `> ${l}`));
    expect(strip(quoted.events).map((e) => [e.type, e.ts, e.fields.topic])).toEqual(strip(plain.events).map((e) => [e.type, e.ts, e.fields.topic]));
  });

  it('a message folded at column 80 still matches, at its first line', () => {
    const header = fileLines('25-client-log-closechannel-shutdown-fake-millis.log').find((l) => l.includes('was removed from channel table'))!;
    const { events } = parseLines([header.slice(0, 80), header.slice(80)]);
    const plain = parseLines([header]).events;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: plain[0].type, line: 1, fields: plain[0].fields });
  });
});

// A date in the text of an event's record: the event must carry a time.
const FULL_DATE = /\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}|\d{4}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}|[A-Z][a-z]{2} [A-Z][a-z]{2} \d{2} \d{4} \d{2}:\d{2}:\d{2}/;

describe('every fixture', () => {
  const files = readdirSync(REAL).filter((f) => f.endsWith('.log'));
  it('gives every event whose line prints a full date a time', () => {
    let checked = 0;
    for (const f of files) {
      for (const e of parse(f).events) {
        if (!FULL_DATE.test(e.text.slice(0, 60))) continue;
        checked++;
        expect(e.ts, `${f}:${e.line} ${e.text.slice(0, 80)}`).not.toBeNull();
      }
    }
    expect(checked).toBeGreaterThan(50);
  });
});
