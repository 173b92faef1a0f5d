import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KEYWORDS } from '../../src/parse/catalogue.js';
import { keywordFinder } from '../../src/parse/keyword-scan.js';
import { SourceParser, hasKeyword } from '../../src/parse/parser.js';
import { isAppFailure } from '../../src/parse/send-failure.js';
import { parseZone } from '../../src/parse/time.js';
import type { RmqEvent, SourceAccounting } from '../../src/parse/types.js';
import type { SourceKind } from '../../src/ingest/kinds.js';

const REAL = join(__dirname, '..', 'fixtures', 'real');

function parseLines(lines: string[], opts: { kindHint?: SourceKind | null; keepOther?: boolean; tz?: string; told?: boolean; detectLines?: number } = {}) {
  const events: RmqEvent[] = [];
  const p = new SourceParser(
    {
      file: 'f.log',
      host: 'h',
      sourceIndex: 0,
      kindHint: opts.kindHint ?? null,
      kindForced: false,
      defaultZone: parseZone(opts.tz ?? '+08:00'),
      keepOther: opts.keepOther,
      detectLines: opts.detectLines,
    },
    (e) => events.push(e),
  );
  // `told`: each line comes with whether it holds a keyword and where its only one starts, as the reader tells it for ASCII blocks.
  lines.forEach((l, i) => p.line(l, i + 1, opts.told ? hasKeyword(l) : undefined, opts.told ? onlyKeywordAt(l) : undefined));
  const acc = p.end();
  return { events, acc, issues: p.issues };
}

const findKeyword = keywordFinder(KEYWORDS);

/**
 * Where an ASCII line's first keyword occurrence starts when every other lies inside the longest
 * keyword starting there (the reader's keywordAt), else undefined.
 */
function onlyKeywordAt(line: string): number | undefined {
  if (!/^[\x00-\x7f]*$/.test(line)) return undefined;
  const b = Buffer.from(line, 'latin1');
  const first = findKeyword(b, 0, b.length);
  if (first < 0) return undefined;
  const longest = (at: number) => Math.max(...KEYWORDS.filter((k) => line.startsWith(k, at)).map((k) => k.length));
  const end = first + longest(first);
  for (let at = findKeyword(b, first + 1, b.length); at >= 0; at = findKeyword(b, at + 1, b.length)) if (at + longest(at) > end) return undefined;
  return first;
}

function fileLines(name: string): string[] {
  const text = readFileSync(join(REAL, name), 'utf8');
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

function balanced(acc: SourceAccounting): boolean {
  return acc.lines === acc.records + acc.continuation + acc.unknown + acc.unreadable;
}

const iso = (ts: number | null) => (ts === null ? null : new Date(ts).toISOString());

describe('real excerpts', () => {
  const files = readdirSync(REAL).filter((f) => f.endsWith('.log'));

  it('every file accounts for every line', () => {
    for (const f of files) {
      const { acc } = parseLines(fileLines(f));
      expect(balanced(acc), f).toBe(true);
      expect(acc.lines, f).toBe(fileLines(f).length);
    }
  });

  it('reads the same whether or not the reader tells which lines hold a keyword', () => {
    for (const f of files) {
      // Lines held to detect the layout are read without being told: detect from the first two too.
      for (const [keepOther, detectLines] of [[false, undefined], [true, undefined], [false, 2], [true, 2]] as const) {
        expect(parseLines(fileLines(f), { keepOther, detectLines, told: true }), f).toEqual(parseLines(fileLines(f), { keepOther, detectLines }));
      }
    }
  });

  it('detects the layouts FORMATS.md names', () => {
    const expected: Record<string, string> = {
      '01-sca-timeout-clean-queue-app-log.log': 'logback-line',
      '05-putmessage-in-lock-eclipse-3.2.6.log': 'rocketmq-server',
      '09-aliyun-sls-timeout-clean-queue-mangled.log': 'aliyun-sls-copy',
      '15-sendkernelimpl-1500ms-no-header.log': 'none',
      '17-canal-wait-response-on-channel.log': 'logback-app',
      '19-log4j-location-closechannel-senddefaultimpl-timeout.log': 'log4j-location',
      '25-client-log-closechannel-shutdown-fake-millis.log': 'rocketmq-client-inner',
      '29-jboss-style-send-1-times-still-failed.log': 'jboss',
      '31-cpp-client-get-topic-route-failed.log': 'rocketmq-client-cpp',
      '35-broker-log-terminal-wrapped-register-shutdown.log': 'rocketmq-server',
      '41-broker-registerbroker-exception-hostname-channel.log': 'rocketmq-server',
      '47-alibaba-3.4.6-yy-date-channel-not-writable.log': 'two-digit-year',
    };
    for (const [f, layout] of Object.entries(expected)) expect(parseLines(fileLines(f)).acc.layout, f).toBe(layout);
  });

  it('reads a headerless stack paste as one record with its frames as continuation (L15)', () => {
    const { acc, events } = parseLines(fileLines('03-timeout-clean-queue-bare-stack.log'));
    expect(acc).toMatchObject({ records: 1, continuation: 8, unknown: 0 });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'busy-reply', line: 1, ts: null, fields: { waitMs: 309, queueSize: 4 } });
  });

  it('fills the cause of a send attempt from the exception on the next line (L16)', () => {
    const { events, acc } = parseLines(fileLines('15-sendkernelimpl-1500ms-no-header.log'));
    expect(acc.unknown).toBe(1);
    const attempt = events.find((e) => e.type === 'send-attempt-failed')!;
    expect(attempt.fields).toMatchObject({ rtMs: 1501, brokerName: 'broker-b', queueId: 5, topic: 'AAA_BUSINESS' });
    expect(attempt.fields.cause).toMatch(/^RemotingTimeoutException: wait response on the channel <1:10909> timeout, 1500\(ms\)/);
    expect(events.find((e) => e.type === 'rpc-timeout')!.fields).toMatchObject({ addr: '1:10909', timeoutMs: 1500 });
  });

  it('reads the Aliyun SLS copy: one record per +N, time from the [ts] line, whitespace-collapsed CODE: 2', () => {
    const { events, acc } = parseLines(fileLines('09-aliyun-sls-timeout-clean-queue-mangled.log'));
    expect(acc.records).toBe(10);
    expect(balanced(acc)).toBe(true);
    const busy = events.filter((e) => e.type === 'busy-reply');
    expect(busy).toHaveLength(1);
    expect(busy[0]).toMatchObject({ line: 4, fields: { waitMs: 2006, queueSize: 681 } });
    expect(iso(busy[0].ts)).toBe('2022-01-23T12:28:38.000Z');
  });

  it('reads the message of a log4j %l header from the next line (L8)', () => {
    const { events } = parseLines(fileLines('19-log4j-location-closechannel-senddefaultimpl-timeout.log'));
    expect(events.map((e) => e.type)).toEqual(['send-call-timeout', 'channel-closed']);
    expect(events[1]).toMatchObject({ line: 7, thread: 'NettyClientSelector_1', level: 'INFO', fields: { addr: null } });
  });

  it('treats the 4.3.0-4.7.1 fake millis as .000 and says so', () => {
    const { events, acc, issues } = parseLines(fileLines('25-client-log-closechannel-shutdown-fake-millis.log'));
    expect(acc.versionHints).toContain('4.3.0-4.7.1');
    expect(issues.some((i) => /repeats the seconds/.test(i.message))).toBe(true);
    for (const e of events) expect(iso(e.ts)).toBe('2020-12-01T11:19:24.000Z');
    expect(events[0]).toMatchObject({ logger: 'RocketmqRemoting', thread: null });
  });

  it('keeps real millis of a 4.8+ inner-logger file', () => {
    const lines = [
      '2024-05-20 14:03:11,482 INFO RocketmqRemoting - createChannel: begin to connect remote host[10.0.0.1:10911] asynchronously',
      '2024-05-20 14:03:12,483 INFO RocketmqRemoting - NETTY CLIENT PIPELINE: CONNECT  UNKNOWN => 10.0.0.1:10911',
      '2024-05-20 14:03:13,013 INFO RocketmqRemoting - NETTY CLIENT PIPELINE: CLOSE 10.0.0.1:10911',
    ];
    const { events } = parseLines(lines);
    expect(events.map((e) => iso(e.ts))).toEqual(['2024-05-20T06:03:12.483Z', '2024-05-20T06:03:13.013Z']);
  });

  it('undoes a terminal hard wrap at column 80 (FORMATS.md §5)', () => {
    const { events } = parseLines(fileLines('35-broker-log-terminal-wrapped-register-shutdown.log'));
    const reg = events.filter((e) => e.type === 'broker-registered');
    expect(reg.map((e) => e.fields.namesrvAddr)).toEqual(['192.168.111.213:9876', '192.168.111.212:9876', '192.168.111.214:9876']);
    expect(events.some((e) => e.type === 'shutdown')).toBe(true);
  });

  it('takes the time of day of time-only layouts as clock, with no date', () => {
    const { events } = parseLines(fileLines('29-jboss-style-send-1-times-still-failed.log'));
    expect(events[0]).toMatchObject({ type: 'send-failed', ts: null, clock: '10:52:07,674', logger: 'RocketMQSupport' });
    expect(events[0].fields.brokersSent).toEqual(['broker-a', 'null', 'null']);
  });

  it('merges a wrapper line and the exception under it into one event (fixture 23)', () => {
    const { events } = parseLines(fileLines('23-update-topic-route-tbw102-code17.log'));
    const r = events.filter((e) => e.type === 'route-update-failed');
    expect(r).toHaveLength(1);
    expect(r[0]).toMatchObject({ line: 1, fields: { topic: 'TBW102' } });
    expect(String(r[0].fields.cause)).toMatch(/CODE: 17/);
  });

  it('finds the client version in jar names of stack frames', () => {
    expect(parseLines(fileLines('17-canal-wait-response-on-channel.log')).acc.versionHints).toContain('4.3.0');
  });

  it('reads server times as GMT+8 whatever the default zone', () => {
    const { events } = parseLines(fileLines('05-putmessage-in-lock-eclipse-3.2.6.log'), { tz: 'UTC' });
    expect(iso(events[0].ts)).toBe('2018-05-16T05:36:23.000Z');
  });

  it('reads application times in the default zone', () => {
    const { events } = parseLines(fileLines('17-canal-wait-response-on-channel.log'), { tz: 'UTC' });
    expect(iso(events[0].ts)).toBe('2018-12-30T21:26:12.523Z');
  });

  it('emits other records only when asked', () => {
    const lines = fileLines('45-namesrv-log-new-broker-registered-ha-mismatch.log');
    const without = parseLines(lines);
    const withOther = parseLines(lines, { keepOther: true });
    expect(without.events.some((e) => e.type === 'other')).toBe(false);
    expect(withOther.events.filter((e) => e.type !== 'other')).toHaveLength(without.events.length);
    expect(withOther.events).toHaveLength(without.acc.records);
  });
});

// gen-708 (client 4.6.0, broker-c under a CPU quota): busy replies that came after the client had
// timed out, logged by NettyRemotingAbstract.processResponseCommand as two lines of one thread.
describe('late responses', () => {
  const unmatched = '2026-12-05 05:26:48,048 WARN RocketmqRemoting - receive response, but not matched any request, 10.213.0.23:10911';
  const command =
    '2026-12-05 05:26:48,048 WARN RocketmqRemoting - RemotingCommand [code=2, language=JAVA, version=355, opaque=202, flag(B)=1, remark=[TIMEOUT_CLEAN_QUEUE]broker busy, start flow control for a while, period in queue: 2227ms, size of queue: 729, extFields=null, serializeTypeCurrentRPC=JSON]';
  it('the busy reply on the line after `receive response, but not matched any request, addr` is that broker\'s', () => {
    const evs = parseLines([unmatched, command]).events;
    expect(evs.map((e) => e.type)).toEqual(['late-response', 'busy-reply']);
    expect(evs[0].fields.addr).toBe('10.213.0.23:10911');
    expect(evs[1].fields).toMatchObject({ brokerAddr: '10.213.0.23:10911', waitMs: 2227, queueSize: 729 });
  });
  it('a busy reply not right after it, or of another thread, is not given its address', () => {
    const other = '2026-12-05 05:26:48,049 WARN RocketmqClient - sendKernelImpl exception, resend at once, InvokeID: 1, RT: 2001ms, Broker: MessageQueue [topic=TopicOrder, brokerName=broker-c, queueId=0]';
    const later = parseLines([unmatched, other, command]).events.find((e) => e.type === 'busy-reply')!;
    expect(later.fields.brokerAddr).toBeNull();
    // A layout that prints threads (a broker's own remoting client, `%t`): the two lines are one thread's.
    const threaded = (thread: string, line: string) => line.replace(/^(\S+ \S+),\d{3} WARN RocketmqRemoting/, `$1 WARN ${thread}`);
    const same = parseLines([threaded('NettyClientWorkerThread_1', unmatched), threaded('NettyClientWorkerThread_1', command)]).events.find((e) => e.type === 'busy-reply')!;
    expect(same.thread).toBe('NettyClientWorkerThread_1');
    expect(same.fields.brokerAddr).toBe('10.213.0.23:10911');
    const otherThread = parseLines([threaded('NettyClientWorkerThread_1', unmatched), threaded('NettyClientWorkerThread_2', command)]).events.find((e) => e.type === 'busy-reply')!;
    expect(otherThread.fields.brokerAddr).toBeNull();
  });
});

// gen-710 (client 4.9.4, async sends with sendMsgTimeout 1000, broker-a hung): the request removed by
// NettyRemotingAbstract.scanResponseTable, then MQClientAPIImpl.onExceptionImpl's retries, each WARN
// with the failure's exception below it (4.9.4).
describe('an async send that timed out and its retries', () => {
  const lines = [
    '2026-12-05 05:33:10,409 WARN RocketmqRemoting - remove timeout request, ResponseFuture [responseCommand=null, sendRequestOK=true, cause=null, opaque=166, processChannel=[id: 0x62730d41, L:/10.213.0.31:58446 - R:/10.213.0.21:10911], timeoutMillis=1000, invokeCallback=org.apache.rocketmq.client.impl.MQClientAPIImpl$1@30b2cdb0, beginTimestamp=1796419987422, countDownLatch=java.util.concurrent.CountDownLatch@2e103f66[Count = 1]]',
    '2026-12-05 05:33:10,411 WARN RocketmqClient - async send msg by retry 1 times. topic=TopicOrder, brokerAddr=10.213.0.23:10911, brokerName=broker-c',
    'org.apache.rocketmq.client.exception.MQClientException: wait response timeout 1000ms',
    'For more information, please visit the url, http://rocketmq.apache.org/docs/faq/',
    '\tat org.apache.rocketmq.client.impl.MQClientAPIImpl$1.operationComplete(MQClientAPIImpl.java:590)',
    '\tat org.apache.rocketmq.remoting.netty.ResponseFuture.executeInvokeCallback(ResponseFuture.java:54)',
    '',
    '2026-12-05 05:33:10,411 WARN RocketmqClient - async send msg by retry 2 times. topic=TopicOrder, brokerAddr=10.213.0.22:10911, brokerName=broker-b',
    'org.apache.rocketmq.remoting.exception.RemotingTooMuchRequestException: invokeAsync call the addr[10.213.0.23:10911] timeout',
    '\tat org.apache.rocketmq.remoting.netty.NettyRemotingClient.invokeAsync(NettyRemotingClient.java:538)',
  ];
  it('reads the timed-out request (its broker, timeout, opaque, callback, begin) and each retry (its count and broker)', () => {
    const evs = parseLines(lines, { kindHint: 'client' }).events;
    expect(evs.map((e) => e.entry)).toEqual([
      'async-timeout/remove-timeout-request',
      'send-async-retry/by-retry',
      'rpc-timeout/async-send-wait-response',
      'send-async-retry/by-retry',
      'rpc-timeout/call-the-addr',
    ]);
    expect(evs[0].fields).toEqual({ addr: '10.213.0.21:10911', timeoutMs: 1000, opaque: 166, callback: 'org.apache.rocketmq.client.impl.MQClientAPIImpl$1', beginMs: 1796419987422 });
    expect(evs[1].fields).toEqual({ times: 1, topic: 'TopicOrder', brokerAddr: '10.213.0.23:10911', brokerName: 'broker-c' });
    expect(evs[2].fields).toMatchObject({ timeoutMs: 1000 });
    expect(evs[3].fields).toMatchObject({ times: 2, brokerName: 'broker-b' });
    expect(evs[4].fields).toMatchObject({ addr: '10.213.0.23:10911' });
  });
});

describe('kinds from content', () => {
  it('tells a NameServer log from a broker log by its threads', () => {
    expect(parseLines(fileLines('45-namesrv-log-new-broker-registered-ha-mismatch.log')).acc.kind).toBe('namesrv');
    expect(parseLines(fileLines('43-broker-update-namesrvaddr-register-ok.log')).acc.kind).toBe('broker');
  });
  it('trusts the file name among server kinds', () => {
    expect(parseLines(fileLines('05-putmessage-in-lock-eclipse-3.2.6.log'), { kindHint: 'store' }).acc.kind).toBe('store');
  });
  it('says so when the name and the content disagree', () => {
    const r = parseLines(fileLines('25-client-log-closechannel-shutdown-fake-millis.log'), { kindHint: 'watermark' });
    expect(r.acc.kind).toBe('client');
    expect(r.issues.some((i) => /reads like a client log/.test(i.message))).toBe(true);
  });
});

describe('mixed and damaged input', () => {
  it('switches layout for lines of another layout and counts them as records', () => {
    const lines = [
      '2024-05-20 14:03:07 INFO main - The broker[broker-a, 192.168.1.10:10911] boot success. serializeType=JSON',
      '2024-05-20 14:03:17 INFO brokerOutApi_thread_1 - register broker[0]to name server 192.168.1.5:9876 OK',
      '2024-05-20 14:03:18 - [WATERMARK] Send Queue Size: 37 SlowTimeMills: 184',
      '\tat x.y.Z(Z.java:1)',
      '2024-05-20 14:03:19 INFO brokerOutApi_thread_1 - register broker[0]to name server 192.168.1.6:9876 OK',
    ];
    const { acc, events } = parseLines(lines);
    expect(acc).toMatchObject({ records: 4, continuation: 1, unknown: 0, layout: 'rocketmq-server+rocketmq-bare' });
    expect(events.map((e) => e.type)).toEqual(['startup', 'broker-registered', 'watermark', 'broker-registered']);
  });

  it('counts lines before the first record as unknown', () => {
    const lines = ['\tat a.b.C(C.java:1)', '\t... 3 more', '2024-05-20 14:03:07 INFO main - hello', '\tat x'];
    expect(parseLines(lines).acc).toMatchObject({ unknown: 2, records: 1, continuation: 1 });
  });

  describe('the send path of a failure, from its stack', () => {
    // Lab recording gen-712 (client 4.6.0, an ASYNC send to a full disk): the broker's reply reaches the
    // application's callback as it is (MQClientAPIImpl.sendMessageAsync: onExceptionImpl with needRetry=false).
    const app = (frames: string[]) => [
      '2026-12-05 05:42:49.142 ERROR 3472 --- [NettyClientPublicExecutor_1] com.example.order.OrderEventPublisher    : Failed to publish event asynchronously, topic=TopicOrder, key=evt-57',
      '',
      "org.apache.rocketmq.client.exception.MQBrokerException: CODE: 14  DESC: service not available now. It may be caused by one of the following reasons: the broker's disk is full [CL:  0.98 CQ:  0.98 INDEX:  0.98], messages are put to the slave, message store has been shut down, etc. BROKER: 10.213.0.21:10911",
      'For more information, please visit the url, http://rocketmq.apache.org/docs/faq/',
      ...frames.map((f) => `\tat ${f}`),
    ];
    const pathOf = (frames: string[]) => parseLines(app(frames)).events.map((e) => [e.type, e.sendPath ?? null]);

    it('async: a send method of MQClientAPIImpl, then its InvokeCallback (4.x operationComplete, 5.x operationSucceed)', () => {
      const callback = (m: string) => [
        'org.apache.rocketmq.client.impl.MQClientAPIImpl.processSendResponse(MQClientAPIImpl.java:709)',
        'org.apache.rocketmq.client.impl.MQClientAPIImpl.access$000(MQClientAPIImpl.java:167)',
        `org.apache.rocketmq.client.impl.MQClientAPIImpl$1.${m}(MQClientAPIImpl.java:543)`,
        'org.apache.rocketmq.remoting.netty.ResponseFuture.executeInvokeCallback(ResponseFuture.java:54)',
      ];
      expect(pathOf(callback('operationComplete'))).toEqual([['disk-full', 'async']]);
      expect(pathOf(callback('operationSucceed'))).toEqual([['disk-full', 'async']]);
    });

    it("async: 5.x's operationFail makes the exception itself (gen-599, client 5.x): the callback on top of an application's stack; in a client log, nothing", () => {
      const lines = [
        '2026-12-05 02:06:29.886 ERROR 23262 --- [NettyClientPublicExecutor_1] com.example.notify.NoticeSender          : Failed to publish event asynchronously, topic=TopicOrder, key=evt-234',
        '',
        'org.apache.rocketmq.client.exception.MQClientException: wait response timeout, cost=2686',
        'For more information, please visit the url, https://rocketmq.apache.org/docs/bestPractice/06FAQ',
        '\tat org.apache.rocketmq.client.impl.MQClientAPIImpl$1.operationFail(MQClientAPIImpl.java:771)',
        '\tat org.apache.rocketmq.remoting.netty.NettyRemotingClient$InvokeCallbackWrapper.operationFail(NettyRemotingClient.java:1122)',
        'Caused by: org.apache.rocketmq.remoting.exception.RemotingTimeoutException: wait response on the channel <10.213.0.21:10911> timeout, 2686(ms)',
      ];
      const app = parseLines(lines).events;
      expect(app.length).toBeGreaterThan(0);
      expect(app.every((e) => e.sendPath === 'async')).toBe(true);
      const client = parseLines(lines, { kindHint: 'client' }).events;
      expect(client.every((e) => e.sendPath === undefined)).toBe(true);
    });

    it('async: the event a `Caused by:` below the frames holds (5.x: `unknown reason` over a refused connection, gen-599)', () => {
      const lines = [
        '2026-12-05 02:07:19.610 ERROR 23262 --- [NettyClientSelector_1] com.example.notify.NoticeSender          : Failed to publish event asynchronously, topic=TopicOrder, key=evt-48',
        '',
        'org.apache.rocketmq.client.exception.MQClientException: unknown reason',
        'For more information, please visit the url, https://rocketmq.apache.org/docs/bestPractice/06FAQ',
        '\tat org.apache.rocketmq.client.impl.MQClientAPIImpl$1.operationFail(MQClientAPIImpl.java:775)',
        '\tat org.apache.rocketmq.remoting.netty.NettyRemotingClient.lambda$invokeAsync$1(NettyRemotingClient.java:756)',
        'Caused by: org.apache.rocketmq.remoting.exception.RemotingConnectException: connect to 10.213.0.21:10911 failed',
        '\t... 18 common frames omitted',
      ];
      expect(parseLines(lines).events.map((e) => [e.type, e.sendPath ?? null])).toEqual([['connect-failed', 'async']]);
    });

    it('not async: a pull callback (no send method before it), or a sync send (DefaultMQProducerImpl after processSendResponse)', () => {
      expect(
        pathOf([
          'org.apache.rocketmq.client.impl.MQClientAPIImpl.processPullResponse(MQClientAPIImpl.java:800)',
          'org.apache.rocketmq.client.impl.MQClientAPIImpl$2.operationComplete(MQClientAPIImpl.java:760)',
        ]),
      ).toEqual([['disk-full', null]]);
      expect(
        pathOf([
          'org.apache.rocketmq.client.impl.MQClientAPIImpl.processSendResponse(MQClientAPIImpl.java:709)',
          'org.apache.rocketmq.client.impl.MQClientAPIImpl.sendMessageSync(MQClientAPIImpl.java:523)',
          'org.apache.rocketmq.client.impl.MQClientAPIImpl.sendMessage(MQClientAPIImpl.java:505)',
          'org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendKernelImpl(DefaultMQProducerImpl.java:817)',
          'org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendSelectImpl(DefaultMQProducerImpl.java:1104)',
        ]),
      ).toEqual([['disk-full', 'select']]);
    });

    it('a request that could not be written (RemotingSendRequestException) on a selector send: one attempt the application lost (gen-703, client 4.x)', () => {
      const lines = [
        '2026-12-05 04:59:15.680 ERROR 10014 --- [publisher-2] com.example.order.OrderEventPublisher    : Failed to publish event, topic=TopicOrder, key=evt-876',
        '',
        'org.apache.rocketmq.remoting.exception.RemotingSendRequestException: send request to <10.213.0.22:10911> failed',
        '\tat org.apache.rocketmq.remoting.netty.NettyRemotingAbstract.invokeSyncImpl(NettyRemotingAbstract.java:496)',
        '\tat org.apache.rocketmq.remoting.netty.NettyRemotingClient.invokeSync(NettyRemotingClient.java:533)',
        '\tat org.apache.rocketmq.client.impl.MQClientAPIImpl.sendMessageSync(MQClientAPIImpl.java:618)',
        '\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendKernelImpl(DefaultMQProducerImpl.java:889)',
        '\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendSelectImpl(DefaultMQProducerImpl.java:1180)',
      ];
      const evs = parseLines(lines).events;
      expect(evs.map((e) => [e.type, e.sendPath ?? null, e.fields.addr])).toEqual([['send-request-failed', 'select', '10.213.0.22:10911']]);
      expect(isAppFailure(evs[0])).toBe(true);
      // The same exception under the retry loop (sendDefaultImpl): the producer retried it, the application lost nothing by it.
      const retried = parseLines([...lines.slice(0, -1), '\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendDefaultImpl(DefaultMQProducerImpl.java:614)']).events;
      expect(retried.map((e) => [e.type, e.sendPath ?? null])).toEqual([['send-request-failed', 'default']]);
      expect(isAppFailure(retried[0])).toBe(false);
    });
  });

  it('a blank line after a 4.x client stack belongs to the record', () => {
    const lines = [
      '2024-05-20 14:03:11,490 WARN RocketmqClient - sendKernelImpl exception, resend at once, InvokeID: 1, RT: 8ms, Broker: MessageQueue [topic=T, brokerName=broker-a, queueId=2]',
      'org.apache.rocketmq.remoting.exception.RemotingConnectException: connect to 10.0.0.1:10911 failed',
      '\tat org.apache.rocketmq.remoting.netty.NettyRemotingClient.invokeSync(NettyRemotingClient.java:407)',
      '',
      '2024-05-20 14:03:11,491 WARN RocketmqClient - Message{topic=\'T\', flag=0}',
    ];
    const { acc, events } = parseLines(lines);
    expect(acc).toMatchObject({ records: 2, continuation: 3, unknown: 0 });
    expect(events.map((e) => e.type)).toEqual(['send-attempt-failed', 'connect-failed']);
    expect(events[0].fields.cause).toBe('RemotingConnectException: connect to 10.0.0.1:10911 failed');
  });

  it('never crashes and accounts every line for random text, cut lines and shuffled layouts', () => {
    const pool = readdirSync(REAL)
      .filter((f) => f.endsWith('.log'))
      .flatMap((f) => fileLines(f));
    const lineArb = fc.oneof(
      fc.constantFrom(...pool),
      fc.constantFrom(...pool).chain((l) => fc.nat({ max: Math.max(0, l.length) }).map((n) => l.slice(0, n))),
      fc.constantFrom(...pool).chain((l) => fc.nat({ max: Math.max(0, l.length) }).map((n) => l.slice(n))),
      fc.string({ maxLength: 200 }),
      fc.string({ unit: 'binary', maxLength: 120 }),
    );
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 150 }), fc.boolean(), (lines, keepOther) => {
        const { acc, events } = parseLines(lines, { keepOther });
        expect(balanced(acc)).toBe(true);
        expect(acc.lines).toBe(lines.length);
        for (const e of events) {
          expect(e.line).toBeGreaterThanOrEqual(1);
          expect(e.line).toBeLessThanOrEqual(lines.length);
        }
        const seqs = events.map((e) => e.seq);
        expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      }),
      { numRuns: 300 },
    );
  });
});

describe('times read from the second before', () => {
  // Records in the same second take its epoch ms and add their millis: the result must be the one a
  // full read gives, also across DST changes and with lines whose time is damaged.
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const stamp = (d: Date, ms: number, sep: string) =>
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${sep}${sep ? pad(ms, 3) : ''}`;
  const walk = (from: string, steps: number) => {
    const out: Array<[Date, number]> = [];
    let t = Date.parse(from);
    for (let i = 0; i < steps; i++) {
      out.push([new Date(t), (i * 137) % 1000]);
      t += [0, 0, 1000, 0, 1000 * 1799, 1000][i % 6]; // repeats, the next second, and jumps over the change
    }
    return out;
  };

  for (const tz of ['Europe/Berlin', '+08:00', 'America/Sao_Paulo']) {
    it(`client times in ${tz}`, () => {
      const lines = [...walk('2024-03-31T00:59:58Z', 60), ...walk('2024-10-27T00:29:58Z', 60)].map(([d, ms], i) =>
        i === 17 ? `${stamp(d, ms, ',').slice(0, 20)}9x INFO RocketmqClient - line ${i}` : `${stamp(d, ms, ',')} INFO RocketmqClient - line ${i}`,
      );
      const { events } = parseLines(lines, { keepOther: true, tz, kindHint: 'client' });
      expect(events.length).toBe(lines.length);
      for (const e of events) {
        const alone = parseLines([lines[e.line - 1]], { keepOther: true, tz, kindHint: 'client' }).events[0];
        expect(e.ts, lines[e.line - 1]).toBe(alone.ts);
      }
    });
  }

  it('server times (every record read at once)', () => {
    const lines = walk('2024-05-20T00:00:58Z', 60).map(([d], i) => `${stamp(d, 0, '')} INFO main - line ${i}`);
    const { events } = parseLines(lines, { keepOther: true, kindHint: 'broker' });
    expect(events.length).toBe(lines.length);
    for (const e of events) expect(e.ts).toBe(parseLines([lines[e.line - 1]], { keepOther: true, kindHint: 'broker' }).events[0].ts);
  });
});
