// send-timeout-budget over small logs in the real layouts: a 4.8.0 rocketmq_client.log (inner
// logger, CRLF, empty line after a stack) and the application's Spring Boot log.
import { describe, expect, it } from 'vitest';
import { ruleTester } from './rule-tester.js';
import { generatedFindings, generatedTruth, labFindings } from './lab-findings.js';
import rule from '../../src/rules/send-timeout-budget.js';

const crlf = (lines: string[]) => lines.join('\r\n') + '\r\n';
const lf = (lines: string[]) => lines.join('\n') + '\n';

function clientTimeout(time: string, rt: number, broker = 'broker-a'): string[] {
  return [
    `${time} WARN RocketmqRemoting - invokeSync: wait response timeout exception, the channel[192.168.3.100:10911]`,
    `${time} WARN RocketmqClient - sendKernelImpl exception, resend at once, InvokeID: -603156890667045130, RT: ${rt}ms, Broker: MessageQueue [topic=TopicOrder, brokerName=${broker}, queueId=3]`,
    'org.apache.rocketmq.remoting.exception.RemotingTimeoutException: wait response on the channel <192.168.3.100:10911> timeout, 2999(ms)',
    '\tat org.apache.rocketmq.remoting.netty.NettyRemotingAbstract.invokeSyncImpl(NettyRemotingAbstract.java:436)',
    '\tat org.apache.rocketmq.remoting.netty.NettyRemotingClient.invokeSync(NettyRemotingClient.java:377)',
    '\tat org.apache.rocketmq.client.impl.MQClientAPIImpl.sendMessageSync(MQClientAPIImpl.java:503)',
    '\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendKernelImpl(DefaultMQProducerImpl.java:834)',
    '\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendDefaultImpl(DefaultMQProducerImpl.java:584)',
    '',
  ];
}

function appCallTimeout(time: string, api = 'sendDefaultImpl'): string[] {
  return [
    `${time} ERROR 23817 --- [orderMqSender-1] com.acme.order.mq.OrderEventPublisher    : order event send failed, orderId=202012220000381369, it will be re-sent by the compensation job`,
    '',
    `org.apache.rocketmq.remoting.exception.RemotingTooMuchRequestException: ${api} call timeout`,
    `\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.${api}(DefaultMQProducerImpl.java:667)`,
    '\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.send(DefaultMQProducerImpl.java:1343)',
    '\tat org.apache.rocketmq.client.producer.DefaultMQProducer.send(DefaultMQProducer.java:325)',
    '',
  ];
}

/** A 5.3.3 client's attempt (threads in the layout), from the lab's hang-5x recording. */
function attempt53(time: string, thread: string, invokeId: string, rt: number, broker: string, addr: string, cause: string): string[] {
  return [
    `${time} WARN  [11415] [${thread}] [RocketmqRemoting#?:?] - invokeSync: wait response timeout exception, the channel[addr=${addr}, id=53c1c7e2]`,
    `${time} WARN  [11415] [${thread}] [o.a.r.c.i.p.DefaultMQProducerImpl#?:?] - sendKernelImpl exception, resend at once, InvokeID: ${invokeId}, RT: ${rt}ms, Broker: MessageQueue [topic=TopicOrder, brokerName=${broker}, queueId=0]`,
    `org.apache.rocketmq.remoting.exception.${cause}`,
    '\tat org.apache.rocketmq.remoting.netty.NettyRemotingAbstract.invokeSyncImpl(NettyRemotingAbstract.java:507)',
  ];
}

/** The application's `Send [3] times, still failed` (Spring Boot layout), from the same recording. */
function appStillFailed(time: string, thread: string, cost: number): string[] {
  return [
    `${time} ERROR 11415 --- [${thread}] com.example.order.OrderEventPublisher    : Failed to publish event, topic=TopicOrder, key=evt-296`,
    '',
    `org.apache.rocketmq.client.exception.MQClientException: Send [3] times, still failed, cost [${cost}]ms, Topic: TopicOrder, BrokersSent: [broker-a, broker-b, broker-a]`,
    'See https://rocketmq.apache.org/docs/bestPractice/06FAQ for further details.',
    '\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendDefaultImpl(DefaultMQProducerImpl.java:872)',
    '',
  ];
}

/** One send's three attempts on its thread: broker-a took the budget, the retries got nothing left. */
const spentSend = (thread: string, invokeId: string) => [
  ...attempt53('2026-12-01 19:32:45.689', thread, invokeId, 3000, 'broker-a', '10.213.0.21:10911', 'RemotingTimeoutException: wait response on the channel </10.213.0.21:10911> timeout, 2998(ms)'),
  ...attempt53('2026-12-01 19:32:45.689', thread, invokeId, 0, 'broker-b', '10.213.0.22:10911', 'RemotingTimeoutException: invokeSync call the addr[10.213.0.22:10911] timeout'),
  ...attempt53('2026-12-01 19:32:45.689', thread, invokeId, 0, 'broker-a', '10.213.0.21:10911', 'RemotingTimeoutException: invokeSync call the addr[10.213.0.21:10911] timeout'),
];

ruleTester(rule, {
  valid: [
    {
      name: 'a send that failed after its retries well within the budget is lost, but not to the budget',
      files: { 'app-order-01/logs/app.log': lf(appStillFailed('2026-12-01 19:32:45.690', 'publisher-4', 1000)) },
    },
    { name: 'an orderly send (sendSelectImpl) belongs to send-no-retry', files: { 'app-order-01/app.log': lf(appCallTimeout('2020-12-22 14:42:11.046', 'sendSelectImpl')) } },
    { name: 'a failed attempt that was retried (no call timeout)', files: { 'app-order-01/rocketmq_client.log': crlf(clientTimeout('2020-12-22 14:42:11,044', 1501)) } },
  ],
  invalid: [
    {
      name: "`Send [3] times, still failed` at the budget counts, joined with its thread's attempt that spent it (not a retry's leftover)",
      files: {
        'app-order-01/logs/rocketmqlogs/rocketmq_client.log': lf([...spentSend('publisher-4', '7880849379093471336'), ...spentSend('publisher-2', '-1562028100629244898')]),
        'app-order-01/logs/app.log': lf([...appStillFailed('2026-12-01 19:32:45.690', 'publisher-4', 3000), ...appStillFailed('2026-12-01 19:32:45.691', 'publisher-2', 3003)]),
      },
      findings: [
        {
          severity: 'error',
          subject: { host: 'app-order-01', broker: 'broker-a', brokerAddr: '10.213.0.21:10911' },
          metrics: { failedSends: 2, callTimeouts: 0, retriesSpent: 2, brokers: ['broker-a'], attemptsJoined: 2, maxAttemptRtMs: 3000 },
          mentions: ['the last allowed attempt timed out', 'Send [N] times, still failed'],
        },
      ],
    },
    {
      name: 'the application error joined with the client attempt that used the whole budget',
      files: {
        'app-order-01/rocketmq_client.log': crlf([...clientTimeout('2020-12-22 14:42:11,044', 3003), ...clientTimeout('2020-12-22 14:42:17,112', 3002)]),
        'app-order-01/app.log': lf([...appCallTimeout('2020-12-22 14:42:11.046'), ...appCallTimeout('2020-12-22 14:42:17.113')]),
      },
      findings: [
        {
          severity: 'error',
          subject: { host: 'app-order-01', broker: 'broker-a' },
          metrics: { failedSends: 2, sendMsgTimeoutMs: 3000, brokers: ['broker-a'], attemptsJoined: 2, maxAttemptRtMs: 3003 },
          evidence: ['app-order-01/rocketmq_client.log:2', 'app-order-01/app.log:3'],
          mentions: ['sendMsgTimeout (3000 ms, as its timed-out attempts show)', 'no retry', 'sendLatencyFaultEnable'],
          start: '2020-12-22T14:42:11.046+08:00',
          end: '2020-12-22T14:42:17.113+08:00',
        },
      ],
    },
    {
      name: 'one failure told in two application logs counts once',
      files: {
        'app-pay-01/app.log': lf(appCallTimeout('2020-12-22 14:42:03.462')),
        'app-pay-01/error.log': lf(appCallTimeout('2020-12-22 14:42:03.462')),
      },
      // No attempt in the logs: the budget is the default, assumed, and not stated as this client's.
      findings: [{ metrics: { failedSends: 1, attemptsJoined: 0, brokers: [], sendMsgTimeoutMs: null }, mentions: ['not known', '3000 ms by default; the logs do not show this client'] }],
    },
    {
      name: 'a headerless exception paste (no time)',
      files: {
        'app/app.log': lf([
          'org.apache.rocketmq.remoting.exception.RemotingTooMuchRequestException: sendDefaultImpl call timeout',
          '\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendDefaultImpl(DefaultMQProducerImpl.java:612) ~[rocketmq-client-4.3.1.jar:4.3.1]',
          '\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.send(DefaultMQProducerImpl.java:1253) ~[rocketmq-client-4.3.1.jar:4.3.1]',
        ]),
      },
      findings: [{ metrics: { failedSends: 1, clientVersion: '4.3.1' } }],
    },
    {
      name: 'a producer configured with sendMsgTimeout=6000',
      set: ['sendMsgTimeout=6000'],
      files: {
        'app-order-01/rocketmq_client.log': crlf(clientTimeout('2020-12-22 14:42:11,044', 6004)),
        'app-order-01/app.log': lf(appCallTimeout('2020-12-22 14:42:11.045')),
      },
      findings: [{ metrics: { sendMsgTimeoutMs: 6000, maxAttemptRtMs: 6004 }, mentions: ['6000 ms'] }],
    },
  ],
});

// Lab recordings (real RocketMQ, truth in lab.json): the budget a client ran with, and whether the
// broker that spent it was silent or only slow.
describe('send-timeout-budget on generated lab recordings', () => {
  // gen-23: app-order-01 (4.6.1) ran sendMsgTimeout=1000 against an overloaded broker-b: its
  // timed-out attempts print `timeout, 1000(ms)`, and broker-b answered other sends busy
  // ([TIMEOUT_CLEAN_QUEUE]) meanwhile: slow, not silent.
  it('gen-23: the 1000 ms budget the attempts show; no "never answers" advice for a broker that answered busy', async () => {
    const ran = generatedTruth('gen-23').clients.find((c) => c.host === 'app-order-01')!;
    const [f, ...rest] = await generatedFindings('gen-23', [rule]);
    expect(rest).toEqual([]);
    expect(f.subject).toMatchObject({ host: 'app-order-01', broker: 'broker-b' });
    expect(f.metrics.sendMsgTimeoutMs).toBe((ran.ranWith as { sendMsgTimeout: number }).sendMsgTimeout);
    expect(f.metrics.sendMsgTimeoutMs).toBe(1000);
    expect(f.title).toMatch(/ran out of the 1000 ms send budget/);
    expect(f.explanation).toMatch(/broker-b answered other sends busy meanwhile/);
    expect(f.advice.join(' ')).not.toMatch(/never answers/);
  });

  // gen-261 and gen-707: async producers' first sends ran out of their budget 1.3-3.2 s after start(),
  // with no fault in the cluster then (the lab's faults came a minute later): a cold start.
  it('gen-261: an async first send that times out 1.3 s after the start is a cold start, with the budget bounded by it', async () => {
    const ran = generatedTruth('gen-261').clients.find((c) => c.host === 'app-stock-01')!;
    const fs = (await generatedFindings('gen-261', [rule])).filter((f) => f.subject.host === 'app-stock-01');
    expect(fs).toHaveLength(1);
    const [f] = fs;
    expect(f.severity).toBe('warning');
    expect(f.title).toMatch(/1\.3 s after its start$/);
    expect(f.explanation).toMatch(/An asynchronous send \(with a SendCallback\)/);
    expect(f.explanation).toMatch(/sendMsgTimeout was at most 1\.3 s/);
    // The bound holds against what the client ran with.
    expect((ran.ranWith as { sendMsgTimeout: number }).sendMsgTimeout).toBeLessThanOrEqual(1300);
    expect(f.advice.join(' ')).toMatch(/Warm app-stock-01's producer up/);
    expect(f.advice.join(' ')).not.toMatch(/did not answer/);
  });

  it('gen-707: first sends 2.7 and 3.2 s after the start are cold starts; no bound where the default could hold', async () => {
    const fs = await generatedFindings('gen-707', [rule]);
    const first = fs.filter((f) => /after its start$/.test(f.title));
    expect(first.map((f) => f.subject.host).sort()).toEqual(['app-order-01', 'app-pay-01']);
    for (const f of first) expect(f.severity).toBe('warning');
    const pay = first.find((f) => f.subject.host === 'app-pay-01')!;
    expect(pay.explanation).not.toMatch(/at most/);
  });

  // hang-5x: broker-a's JVMs stopped (SIGSTOP): it never answered, and the advice holds.
  it('hang-5x: a hung broker keeps the "never answers" advice and the 3000 ms its attempts show', async () => {
    const fs = await labFindings('hang-5x', [rule]);
    expect(fs.length).toBeGreaterThan(0);
    for (const f of fs) {
      expect(f.metrics.sendMsgTimeoutMs).toBe(3000);
      expect(f.advice.join(' ')).toMatch(/never answers/);
    }
  });
});

// gen-20261224: app-pay-01's first send timed out on broker-a in its first second (a cold start),
// and four more on the overloaded broker-c a minute later: two findings, the later one naming broker-c alone.
it('gen-20261224: a cold start timeout and later ones on an overloaded broker are two findings', async () => {
  const fs = (await generatedFindings('gen-20261224', [rule])).filter((f) => f.subject.host === 'app-pay-01' || f.subject.client === 'app-pay-01');
  expect(fs).toHaveLength(2);
  const [cold, later] = [...fs].sort((a, b) => a.start! - b.start!);
  expect(cold.explanation).toMatch(/after the producer started/);
  expect(later.explanation).not.toMatch(/after the producer started/);
  expect(later.advice.join('\n')).toMatch(/broker-c/);
  expect(later.advice.join('\n')).not.toMatch(/broker-a/);
});

// gen-20270108: app-order-01 (5.1.0) sent to broker-b under a 3 % CPU quota; one send's retry went to
// a healthy broker-c with the 140 ms its budget had left (`timeout, 140(ms)`): that says nothing of
// broker-c, and the advice to find why it did not answer would send an operator to a healthy broker.
it('gen-20270108: a retry given a leftover 140 ms is not a broker that did not answer', async () => {
  const fs = (await generatedFindings('gen-20270108', [rule])).filter((f) => f.subject.client === 'app-order-01' || f.subject.host === 'app-order-01');
  expect(fs.length).toBeGreaterThan(0);
  for (const f of fs) expect(f.metrics.brokers).toEqual(['broker-b']);
  expect(fs.flatMap((f) => f.advice).join(' ')).not.toMatch(/broker-c/);
});
