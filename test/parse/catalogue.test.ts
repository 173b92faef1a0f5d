import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CATALOGUE, EVENT_FIELDS, KEYWORD_PREFILTER, addrFromCause, matchMessage, type CatalogueMatch } from '../../src/parse/catalogue.js';
import { EVENT_TYPES, type EventFields, type EventType } from '../../src/parse/types.js';

const FIXTURES = new URL('../fixtures/real/', import.meta.url);

function fixtureLines(name: string): string[] {
  return readFileSync(new URL(name, FIXTURES), 'utf8').split(/\r?\n/);
}

/** The only line of a fixture that contains `needle`. */
function lineWith(name: string, needle: string): string {
  const found = fixtureLines(name).filter((l) => l.includes(needle));
  expect(found, `${name}: lines containing ${JSON.stringify(needle)}`).toHaveLength(1);
  return found[0];
}

function expectMatch(text: string, type: EventType, fields: Partial<EventFields> = {}): CatalogueMatch {
  const m = matchMessage(text);
  expect(m, `no match for ${JSON.stringify(text)}`).not.toBeNull();
  expect(m!.type).toBe(type);
  expect(m!.fields).toMatchObject(fields);
  return m!;
}

function isFieldValue(v: unknown): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

function expectContract(m: CatalogueMatch): void {
  const spec = EVENT_FIELDS[m.type];
  const allowed = new Set([...spec.required, ...(spec.optional ?? [])]);
  for (const k of spec.required) expect(m.fields, `${m.entry.id} lacks ${k}`).toHaveProperty(k);
  for (const [k, v] of Object.entries(m.fields)) {
    expect(allowed.has(k), `${m.entry.id}: unexpected field ${k}`).toBe(true);
    expect(isFieldValue(v), `${m.entry.id}: ${k}=${JSON.stringify(v)}`).toBe(true);
  }
}

describe('catalogue structure', () => {
  it('has unique ids of the form <type>/<variant>', () => {
    const ids = CATALOGUE.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const e of CATALOGUE) expect(e.id.startsWith(`${e.type}/`), e.id).toBe(true);
  });

  it('covers every event type except other', () => {
    for (const t of EVENT_TYPES) {
      if (t === 'other') continue;
      expect(CATALOGUE.some((e) => e.type === t), t).toBe(true);
    }
  });

  it('has well-formed entries', () => {
    for (const e of CATALOGUE) {
      expect(e.keywords.length, e.id).toBeGreaterThan(0);
      for (const k of e.keywords) expect(k.length, e.id).toBeGreaterThanOrEqual(6);
      expect(e.pattern.global || e.pattern.sticky, `${e.id} must not be stateful`).toBe(false);
      expect(e.samples.length, e.id).toBeGreaterThan(0);
      expect(e.versions, e.id).not.toBe('');
      expect(e.source, e.id).not.toBe('');
      expect(e.format, e.id).toBeTruthy();
    }
  });
});

describe('catalogue samples', () => {
  for (const entry of CATALOGUE) {
    describe(entry.id, () => {
      entry.samples.forEach((sample, i) => {
        it(`sample ${i} matches this entry`, () => {
          expect(KEYWORD_PREFILTER.test(sample.text)).toBe(true);
          const m = matchMessage(sample.text);
          expect(m, sample.text).not.toBeNull();
          expect(m!.entry.id).toBe(entry.id);
          expect(m!.type).toBe(entry.type);
          if (sample.fields) expect(m!.fields).toMatchObject(sample.fields);
          expectContract(m!);
        });

        it(`sample ${i} survives a header prefix and trailing whitespace`, () => {
          const base = matchMessage(sample.text)!;
          for (const variant of [
            `2024-05-20 14:03:07 WARN NettyClientWorkerThread_1 - ${sample.text}`,
            `${sample.text}\t`,
            `${sample.text} `,
            `${sample.text}\r`,
          ]) {
            const m = matchMessage(variant);
            expect(m?.entry.id, variant).toBe(entry.id);
            expect(m!.fields).toEqual(base.fields);
          }
        });
      });
    });
  }
});

describe('precedence', () => {
  it('busy-reply wins inside a Caused by line', () => {
    expectMatch(
      'Caused by: org.apache.rocketmq.client.exception.MQBrokerException: CODE: 2  DESC: [TIMEOUT_CLEAN_QUEUE]broker busy, start flow control for a while, period in queue: 210ms, size of queue: 3',
      'busy-reply',
      { reason: 'TIMEOUT_CLEAN_QUEUE', waitMs: 210, queueSize: 3, code: 2 },
    );
  });
  it('exception wrappers keep their own type', () => {
    expectMatch('org.apache.rocketmq.client.exception.MQClientException: Send [1] times, still failed, cost [2]ms, Topic: T, BrokersSent: [b]', 'send-failed');
    expectMatch('org.apache.rocketmq.remoting.exception.RemotingTooMuchRequestException: sendDefaultImpl call timeout', 'send-call-timeout');
    expectMatch('org.apache.rocketmq.remoting.exception.RemotingConnectException: connect to <10.0.0.1:10911> failed', 'connect-failed', { addr: '10.0.0.1:10911' });
    expectMatch('org.apache.rocketmq.remoting.exception.RemotingTimeoutException: wait response on the channel <10.0.0.1:9876> timeout, 3000(ms)', 'rpc-timeout', {
      addr: '10.0.0.1:9876',
      timeoutMs: 3000,
    });
  });
  it('5.3.1 channel forms win over the older generic forms', () => {
    expect(matchMessage('NETTY CLIENT PIPELINE: CLOSE channel[addr=10.0.0.1:10911, id=0a1b2c3d]')!.entry.versionHint).toBe('>=5.3.1');
    expect(matchMessage('NETTY CLIENT PIPELINE: CLOSE 10.0.0.1:10911')!.entry.versionHint).toBeUndefined();
  });
  it('the 5.x HA client connect failure is store-sync, not a remoting connect-failed', () => {
    expectMatch('HAClient connect to master 10.0.0.1:10912 failed', 'store-sync', { status: 'HA_CONNECT_FAILED', addr: '10.0.0.1:10912' });
  });
  it('a SEND_OK SendResult is not an event', () => {
    expect(
      matchMessage('SendResult [sendStatus=SEND_OK, msgId=0A0000090C1A18B4AAC2591D5A6E0003, offsetMsgId=0A00000100002A9F00000000402A51C8, messageQueue=MessageQueue [topic=TopicTest, brokerName=broker-a, queueId=2], queueOffset=10482]'),
    ).toBeNull();
  });
  it('marks entries whose cause comes from the next lines', () => {
    expect(matchMessage('updateTopicRouteInfoFromNameServer Exception')!.entry.causeFromNext).toBe(true);
    expect(matchMessage('sendKernelImpl exception, resend at once, InvokeID: 1, RT: 2ms, Broker: MessageQueue [topic=T, brokerName=b, queueId=0]')!.entry.causeFromNext).toBe(true);
  });
});

describe('real fixtures', () => {
  it('01 app log: busy-reply 200ms / 1', () => {
    expectMatch(fixtureLines('01-sca-timeout-clean-queue-app-log.log')[0], 'busy-reply', { reason: 'TIMEOUT_CLEAN_QUEUE', waitMs: 200, queueSize: 1, code: 2 });
  });

  it('03 and 11 bare stacks: busy-reply', () => {
    expectMatch(fixtureLines('03-timeout-clean-queue-bare-stack.log')[0], 'busy-reply', { waitMs: 309, queueSize: 4 });
    expectMatch(fixtureLines('11-blog-timeout-clean-queue-ide-capture.log')[0], 'busy-reply', { waitMs: 240, queueSize: 9 });
  });

  it('05 3.x in-lock warnings (trailing TAB): store-slow', () => {
    const lines = fixtureLines('05-putmessage-in-lock-eclipse-3.2.6.log').filter((l) => l !== '');
    expect(lines).toHaveLength(8);
    expectMatch(lines[0], 'store-slow', { costMs: 1382, what: 'in-lock' });
    for (const l of lines) expectMatch(l, 'store-slow', { what: 'in-lock' });
    expect(matchMessage(lines[0])!.entry.versionHint).toBe('<4.4.0');
  });

  it('07 not-in-lock elapsed: store-slow 980', () => {
    const lines = fixtureLines('07-putmessage-not-in-lock-elapsed-dledger.log').filter((l) => l !== '');
    expectMatch(lines[0], 'store-slow', { costMs: 980, what: 'not-in-lock', bodyLength: 22 });
    expectMatch(lines[2], 'store-slow', { costMs: 982, bodyLength: 6786 });
  });

  it('09 SLS capture with collapsed whitespace: busy-reply 2006 / 681', () => {
    expectMatch(lineWith('09-aliyun-sls-timeout-clean-queue-mangled.log', '2006ms'), 'busy-reply', { waitMs: 2006, queueSize: 681, code: 2 });
  });

  it('13 app prefix glued on: busy-reply 209', () => {
    expectMatch(fixtureLines('13-app-message-prefix-timeout-clean-queue.log')[0], 'busy-reply', { waitMs: 209, queueSize: 0, code: 2 });
  });

  it('15 headerless sendKernelImpl and its cause', () => {
    const [l1, l2] = fixtureLines('15-sendkernelimpl-1500ms-no-header.log');
    expectMatch(l1, 'send-attempt-failed', { rtMs: 1501, brokerName: 'broker-b', queueId: 5, topic: 'AAA_BUSINESS', invokeId: '1069917335695137265', cause: null });
    expectMatch(l2, 'rpc-timeout', { addr: '1:10909', timeoutMs: 1500 });
    expect(addrFromCause(l2)).toBe('1:10909');
  });

  it('17 canal: rpc-timeout', () => {
    const lines = fixtureLines('17-canal-wait-response-on-channel.log');
    expect(matchMessage(lines[0])).toBeNull();
    expectMatch(lines[1], 'rpc-timeout', { addr: '192.168.253.38:10911', timeoutMs: 3000 });
  });

  it('19 log4j location layout: send-call-timeout and an empty closeChannel address', () => {
    const lines = fixtureLines('19-log4j-location-closechannel-senddefaultimpl-timeout.log');
    expectMatch(lines[0], 'send-call-timeout', { api: 'sendDefaultImpl' });
    expect(matchMessage(lineWith('19-log4j-location-closechannel-senddefaultimpl-timeout.log', 'Slf4jLoggerFactory'))).toBeNull();
    expectMatch(lineWith('19-log4j-location-closechannel-senddefaultimpl-timeout.log', 'remote address[]'), 'channel-closed', {
      addr: null,
      reason: 'close',
      result: true,
    });
  });

  it('21 send-failed and a redacted connect failure', () => {
    expectMatch(fixtureLines('21-send-1-times-async-connect-failed.log')[0], 'send-failed', { attempts: 1, costMs: 5, brokersSent: ['broker-ssp-11'] });
    const cause = lineWith('21-send-1-times-async-connect-failed.log', 'RemotingConnectException');
    expectMatch(cause, 'connect-failed', { addr: 'x.x.x.x10911', addrs: ['x.x.x.x10911'] });
    expect(addrFromCause(cause)).toBe('x.x.x.x10911');
  });

  it('23 route update WARN and CODE: 17', () => {
    const lines = fixtureLines('23-update-topic-route-tbw102-code17.log');
    const first = expectMatch(lines[0], 'route-update-failed', { topic: null, cause: null, addr: null });
    expect(first.entry.causeFromNext).toBe(true);
    expectMatch(lines[1], 'route-update-failed', { topic: 'TBW102' });
    expect(addrFromCause(lines[1])).toBeNull();
  });

  it('25 client log shutdown: removed channels and pipeline CLOSE', () => {
    const name = '25-client-log-closechannel-shutdown-fake-millis.log';
    expectMatch(lineWith(name, 'channel[192.168.0.153:10911] was removed'), 'channel-closed', { addr: '192.168.0.153:10911', reason: 'removed', result: null });
    expectMatch(lineWith(name, 'CLOSE 192.168.0.153:10911'), 'pipeline', { side: 'client', event: 'close', addr: '192.168.0.153:10911' });
    for (const l of fixtureLines(name)) {
      if (l.includes('eventCloseChannel') || l.includes('begin close') || l.includes('RocketmqCommon')) expect(matchMessage(l), l).toBeNull();
    }
    const matched = fixtureLines(name).map((l) => matchMessage(l)?.type ?? null);
    expect(matched.filter((t) => t === 'channel-closed')).toHaveLength(3);
    expect(matched.filter((t) => t === 'pipeline')).toHaveLength(2);
  });

  it('27 no route (pre-4.6 comma form)', () => {
    const m = expectMatch(fixtureLines('27-sca-stream-no-route-info-spring-stack.log')[0], 'no-route', { topic: 'goods' });
    expect(m.entry.versionHint).toBe('<4.6.0');
  });

  it('29 null padding in BrokersSent is kept', () => {
    expectMatch(fixtureLines('29-jboss-style-send-1-times-still-failed.log')[0], 'send-failed', {
      attempts: 1,
      costMs: 3003,
      topic: 'autoPolicy',
      brokersSent: ['broker-a', 'null', 'null'],
    });
  });

  it('31 cpp client route failures', () => {
    const lines = fixtureLines('31-cpp-client-get-topic-route-failed.log').filter((l) => l !== '');
    const matched = lines.map((l) => matchMessage(l));
    expect(matched.filter((m) => m !== null)).toHaveLength(4);
    for (const m of matched) if (m) expect(m.fields).toMatchObject({ topic: 'TBW102', cause: 'TOPIC_NOT_EXIST' });
    expect(matched[0]).toBeNull();
  });

  it('33 broker remoting.log shutdown', () => {
    const name = '33-broker-remoting-log-shutdown-closechannel.log';
    expectMatch(lineWith(name, 'was removed from channel table'), 'channel-closed', { addr: 'xx.xx.xx.xx:9876', reason: 'removed' });
    expectMatch(lineWith(name, 'PIPELINE: CLOSE'), 'pipeline', { side: 'client', event: 'close', addr: 'xx.xx.xx.xx:9876' });
    expectMatch(lineWith(name, 'remote address['), 'channel-closed', { addr: 'xx.xx.xx.xx9876', reason: 'close', result: true });
    for (const l of fixtureLines(name).filter((x) => x.includes('eclipse time(ms)'))) expect(matchMessage(l), l).toBeNull();
  });

  it('35 terminal-wrapped register line matches once unwrapped', () => {
    const name = '35-broker-log-terminal-wrapped-register-shutdown.log';
    const wrapped = fixtureLines(name)[0];
    expect(matchMessage(wrapped)).toBeNull();
    const unwrapped = wrapped.replace(/ {46}/, '');
    expectMatch(unwrapped, 'broker-registered', { namesrvAddr: '192.168.111.213:9876', brokerId: 2, brokerAddr: null });
    expectMatch(lineWith(name, 'Shutdown hook was invoked'), 'shutdown', { role: 'broker', version: null });
  });

  it('37 5.3 namesrv: client IDLE and removal', () => {
    const name = '37-namesrv-5.3-scan-not-active-idle-exception.log';
    expectMatch(lineWith(name, 'IDLE exception'), 'pipeline', { side: 'client', event: 'idle', addr: '10.169.133.146:9876' });
    expectMatch(lineWith(name, 'was removed'), 'channel-closed', { reason: 'removed', addr: '10.169.133.146:9876' });
    for (const l of fixtureLines(name).filter((x) => x.includes('scanNotActiveBroker'))) expect(matchMessage(l)).toBeNull();
  });

  it('39 WSL namesrv: idle, close, reconnect', () => {
    const name = '39-namesrv-wsl-idle-close-reconnect.log';
    expectMatch(lineWith(name, 'IDLE exception'), 'pipeline', { side: 'client', event: 'idle', addr: '172.30.44.144:9876' });
    expectMatch(lineWith(name, 'PIPELINE: CLOSE'), 'pipeline', { event: 'close', addr: '172.30.44.144:9876' });
    expectMatch(lineWith(name, 'was removed'), 'channel-closed', { reason: 'removed', addr: '172.30.44.144:9876' });
    expectMatch(lineWith(name, 'remote address['), 'channel-closed', { reason: 'close', result: true, addr: '172.30.44.144:9876' });
    const inactive = expectMatch(lineWith(name, 'CLIENT PIPELINE: channelInactive'), 'pipeline', { side: 'client', event: 'inactive' });
    expect(inactive.entry.versionHint).toBe('5.1.3-5.3.0');
    expectMatch(lineWith(name, 'SERVER PIPELINE: channelInactive'), 'pipeline', { side: 'server', event: 'inactive', addr: '172.30.44.144:57198' });
    expectMatch(lineWith(name, 'channelUnregistered'), 'pipeline', { side: 'server', event: 'unregistered' });
    expect(matchMessage(lineWith(name, 'begin to connect'))).toBeNull();
  });

  it('41 registerBroker exception and its hostname timeout', () => {
    const [l1, l2] = fixtureLines('41-broker-registerbroker-exception-hostname-channel.log');
    expectMatch(l1, 'register-failed', { namesrvAddr: 'rocketmq-namesrv-prod01.cloud.bz:9876' });
    expectMatch(l2, 'rpc-timeout', { addr: 'ocketmq-namesrv-prod01.cloud.bz/xx.x.xx.xx:9876', timeoutMs: 6000 });
  });

  it('43 updated namesrvAddr and register OK', () => {
    const name = '43-broker-update-namesrvaddr-register-ok.log';
    const lines = fixtureLines(name);
    const regs = lines.filter((l) => l.includes('register broker to name server'));
    expect(regs).toHaveLength(4);
    for (const l of regs) expectMatch(l, 'broker-registered', { namesrvAddr: 'x.191:29876' });
    for (const l of lines.filter((x) => x.includes('Set user specified'))) {
      expectMatch(l, 'namesrv-list', { addrs: ['x.230:29876', 'x.203:29876', 'x.114:29876', 'x.191:29876', 'x.200:29876'], old: null });
    }
    for (const l of lines.filter((x) => x.includes('updateBrokerConfig') || x.includes('Replace, key'))) expect(matchMessage(l), l).toBeNull();
  });

  it('45 namesrv boot, server pipeline and new broker', () => {
    const name = '45-namesrv-log-new-broker-registered-ha-mismatch.log';
    expectMatch(lineWith(name, 'Name Server boot success'), 'startup', { role: 'namesrv' });
    expectMatch(lineWith(name, 'new broker registered'), 'broker-registered', { brokerAddr: '192.168.56.3:10911', haAddr: '10.0.2.6:10912', namesrvAddr: null });
    expectMatch(lineWith(name, 'channelRegistered 192.168.56.1:61585'), 'pipeline', { side: 'server', event: 'registered', addr: '192.168.56.1:61585' });
    for (const l of fixtureLines(name)) {
      if (/new topic registered|configTable SIZE|-{20}|FileWatchService/.test(l)) expect(matchMessage(l), l).toBeNull();
    }
  });

  it('47 3.x channel not writable: no event, but the cause address is found', () => {
    for (const l of fixtureLines('47-alibaba-3.4.6-yy-date-channel-not-writable.log')) expect(matchMessage(l), l).toBeNull();
    expect(addrFromCause(lineWith('47-alibaba-3.4.6-yy-date-channel-not-writable.log', 'not writable'))).toBe('10.126.88.100:10911');
  });

  it('every fixture line is handled without throwing and obeys the prefilter', () => {
    const names = readFileSync(new URL('SOURCES.md', FIXTURES), 'utf8').match(/\d{2,3}-[\w.-]+\.log/g) ?? [];
    expect(names.length).toBeGreaterThan(20);
    for (const name of new Set(names)) {
      for (const l of fixtureLines(name)) {
        const m = matchMessage(l);
        if (!KEYWORD_PREFILTER.test(l)) expect(m).toBeNull();
        if (m) expectContract(m);
      }
    }
  });
});

describe('lines that are not catalogue messages', () => {
  const negatives = [
    '\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendKernelImpl(DefaultMQProducerImpl.java:761)',
    '\tat org.apache.rocketmq.remoting.netty.NettyRemotingClient.invokeSync(NettyRemotingClient.java:374) ~[rocketmq-remoting-4.3.0.jar:4.3.0]',
    '2020-12-29 22:43:11 INFO main - Try to start service thread:AllocateMappedFileService started:false lastThread:null',
    '2021-12-11 16:12:50 INFO NSScheduledThread1 - configTable SIZE: 0',
    '2021-12-11 16:11:59 INFO RemotingExecutorThread_2 - new topic registered, TopicTest QueueData [brokerName=work1, readQueueNums=4, writeQueueNums=4, perm=6, topicSysFlag=0]',
    'For more information, please visit the url, http://rocketmq.apache.org/docs/faq/',
    'See http://rocketmq.apache.org/docs/faq/ for further details.',
    'createChannel: begin to connect remote host[10.0.0.1:10911] asynchronously',
    'closeChannel: begin close the channel[10.0.0.1:10911] Found: true',
    'eventCloseChannel: the channel[null] has been removed from the channel table before',
    'NETTY CLIENT PIPELINE: exceptionCaught exception.',
    'NETTY SERVER PIPELINE: exceptionCaught exception.',
    'Unable to connect to Redis at cache-1 failed',
    'unregisterBroker, remove from brokerLiveTable Failed, 10.0.0.1:10911',
    'join thread NettyEventExecutor eclipse time(ms) 2 90000',
    'start scanNotActiveBroker',
    '',
  ];
  for (const text of negatives) {
    it(`null: ${JSON.stringify(text).slice(0, 80)}`, () => {
      expect(matchMessage(text)).toBeNull();
    });
  }
});

describe('addrFromCause', () => {
  const cases: Array<[string, string | null]> = [
    ['org.apache.rocketmq.remoting.exception.RemotingTimeoutException: wait response on the channel <10.0.0.1:9876> timeout, 3000(ms)', '10.0.0.1:9876'],
    ['RemotingTimeoutException: wait response on the channel </10.0.0.1:10911> timeout, 2998(ms)', '10.0.0.1:10911'],
    ['RemotingConnectException: connect to 10.0.0.1:10911 failed', '10.0.0.1:10911'],
    ['RemotingConnectException: connect to [ns1:9876, ns2:9876] failed', '[ns1:9876, ns2:9876]'],
    ['RemotingConnectException: connect to null failed', null],
    ['RemotingSendRequestException: send request to <10.0.0.2:10911> failed', '10.0.0.2:10911'],
    ['RemotingTimeoutException: invokeSync call the addr[10.0.0.3:9876] timeout', '10.0.0.3:9876'],
    ['MQBrokerException: CODE: 2  DESC: [TIMEOUT_CLEAN_QUEUE]broker busy, period in queue: 201ms, size of queue: 3 BROKER: 10.0.0.4:10911', '10.0.0.4:10911'],
    ['java.lang.IllegalStateException: org.apache.rocketmq.remoting.exception.RemotingConnectException: connect to <xx.xx.xx.xx9876> failed', 'xx.xx.xx.xx9876'],
    ['MQClientException: wait response from 10.0.0.1:10911 timeout :3000ms. Request: RemotingCommand [code=11]', '10.0.0.1:10911'],
    ['java.lang.NullPointerException', null],
    ['\tat org.apache.rocketmq.remoting.netty.NettyRemotingClient.invokeSync(NettyRemotingClient.java:374)', null],
  ];
  for (const [text, want] of cases) {
    it(`${JSON.stringify(text).slice(0, 70)} -> ${want}`, () => {
      expect(addrFromCause(text)).toBe(want);
    });
  }
});

describe('properties', () => {
  const keywords = [...new Set(CATALOGUE.flatMap((e) => e.keywords))];
  const sampleTexts = CATALOGUE.flatMap((e) => e.samples.map((s) => s.text));
  const piece = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.constantFrom(...keywords),
    fc.constantFrom('[', ']', '<', '>', ', ', ':', '=', ' ', '\t', '/', 'null', '10.0.0.1:10911', '3000', '(ms)', 'ms', 'CODE: 2  DESC: '),
    fc.constantFrom(...sampleTexts).chain((t) => fc.nat(t.length).map((n) => t.slice(0, n))),
  );
  const line = fc.array(piece, { maxLength: 8 }).map((xs) => xs.join(''));

  it('matchMessage never throws, obeys the prefilter, and returns contract fields', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), line), (text) => {
        const m = matchMessage(text);
        if (!KEYWORD_PREFILTER.test(text)) expect(m).toBeNull();
        if (m !== null) expectContract(m);
      }),
      { numRuns: 3000 },
    );
  });

  it('matchMessage gives the first entry, in catalogue order, that has a keyword in the text and matches it', () => {
    // The reference: no keyword scan, no candidate lists; every entry is tried.
    const reference = (text: string) => CATALOGUE.find((e) => e.keywords.some((k) => text.includes(k)) && e.pattern.test(text))?.id ?? null;
    const several = fc.array(fc.oneof(line, fc.constantFrom(...sampleTexts)), { minLength: 2, maxLength: 4 }).map((xs) => xs.join(' '));
    fc.assert(
      fc.property(fc.oneof(line, several), (text) => {
        expect(matchMessage(text)?.entry.id ?? null).toBe(reference(text));
      }),
      { numRuns: 3000 },
    );
    const names = readFileSync(new URL('SOURCES.md', FIXTURES), 'utf8').match(/\d{2,3}-[\w.-]+\.log/g) ?? [];
    for (const name of new Set(names)) for (const l of fixtureLines(name)) expect(matchMessage(l)?.entry.id ?? null, l).toBe(reference(l));
  });

  it('addrFromCause never throws and returns null or a non-empty trimmed string', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), line), (text) => {
        const a = addrFromCause(text);
        if (a !== null) expect(a).toBe(a.trim());
        if (a !== null) expect(a.length).toBeGreaterThan(0);
      }),
      { numRuns: 2000 },
    );
  });

  it('stays fast on long hostile lines', () => {
    const junk = 'x'.repeat(20000);
    const started = performance.now();
    for (const kw of keywords) {
      matchMessage(`${kw}${junk}`);
      matchMessage(`${kw} ${'[<, '.repeat(5000)}`);
      matchMessage(`${'CODE: 2 DESC: '.repeat(1000)}${kw}`);
    }
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

describe('docs/events.md', () => {
  const doc = readFileSync(new URL('../../docs/events.md', import.meta.url), 'utf8');
  it('documents every event type, field and entry id', () => {
    for (const t of EVENT_TYPES) {
      if (t === 'other') continue;
      expect(doc, t).toContain(`## \`${t}\``);
      for (const f of [...EVENT_FIELDS[t].required, ...(EVENT_FIELDS[t].optional ?? [])]) expect(doc, `${t}.${f}`).toContain(`\`${f}\``);
    }
    for (const e of CATALOGUE) expect(doc, e.id).toContain(`\`${e.id}\``);
  });
});
