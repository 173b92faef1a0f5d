// send-no-retry over small logs in the real layouts: 4.x and 5.x rocketmq_client.log, application
// logs (Spring Boot, logback, JBoss-style) and exception pastes.
import { describe, expect, it } from 'vitest';
import { ruleTester } from './rule-tester.js';
import { generatedFindings, generatedTruth } from './lab-findings.js';
import rule from '../../src/rules/send-no-retry.js';

const crlf = (lines: string[]) => lines.join('\r\n') + '\r\n';
const lf = (lines: string[]) => lines.join('\n') + '\n';
const FAQ4 = 'For more information, please visit the url, http://rocketmq.apache.org/docs/faq/';

const busy = (wait: number, size: number) =>
  `org.apache.rocketmq.client.exception.MQBrokerException: CODE: 2  DESC: [TIMEOUT_CLEAN_QUEUE]broker busy, start flow control for a while, period in queue: ${wait}ms, size of queue: ${size} BROKER: 192.168.1.12:10911`;
const FRAMES = [
  '\tat org.apache.rocketmq.client.impl.MQClientAPIImpl.processSendResponse(MQClientAPIImpl.java:675)',
  '\tat org.apache.rocketmq.client.impl.MQClientAPIImpl.sendMessageSync(MQClientAPIImpl.java:523)',
  '\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendKernelImpl(DefaultMQProducerImpl.java:817)',
  '\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendDefaultImpl(DefaultMQProducerImpl.java:575)',
];

/** 4.9.4 client: the startup line names the version, then one busy reply. */
const client494 = (time: string, wait: number, size: number) =>
  crlf([
    '2023-06-14 20:00:07,415 INFO RocketmqClient - Created a new client Instance, InstanceIndex:0, ClientID:192.168.1.31@4711#1384467298751204, ClientConfig:ClientConfig [namesrvAddr=192.168.1.5:9876, clientIP=192.168.1.31, instanceName=4711#1384467298751204], ClientVersion:V4_9_4, SerializerType:JSON',
    `${time} WARN RocketmqClient - sendKernelImpl exception, resend at once, InvokeID: 301424260484553706, RT: ${wait + 1}ms, Broker: MessageQueue [topic=TopicFeed, brokerName=broker-b, queueId=4]`,
    busy(wait, size),
    FAQ4,
    ...FRAMES,
    '',
  ]);

const appBusy = (time: string, wait: number, size: number) =>
  lf([`${time} [feed-fanout-2] ERROR com.acme.feed.mq.FeedEventProducer - publish feed event failed, feedId=88120451, topic=TopicFeed`, busy(wait, size), FAQ4, ...FRAMES]);

ruleTester(rule, {
  valid: [
    {
      name: 'a send that used its retries (Send [3] times)',
      files: {
        'app/app.log': lf([
          '2024-05-20 14:03:14.500 [main] ERROR com.acme.Sender - send failed',
          'org.apache.rocketmq.client.exception.MQClientException: Send [3] times, still failed, cost [12]ms, Topic: T, BrokersSent: [broker-a, broker-b, broker-a]',
          'See http://rocketmq.apache.org/docs/faq/ for further details.',
          '\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendDefaultImpl(DefaultMQProducerImpl.java:610)',
        ]),
      },
    },
    {
      name: 'a busy reply to a 5.3.1 client (SYSTEM_BUSY is retried there)',
      files: {
        'app/rocketmq_client.log': lf([
          '2024-05-20 14:03:11.301 INFO  [23817] [main] [o.a.r.c.i.f.MQClientInstance#?:?] - Created a new client Instance, InstanceIndex:0, ClientID:10.0.0.2@23817#1, ClientConfig:ClientConfig [namesrvAddr=10.0.0.5:9876], ClientVersion:V5_3_1, SerializerType:JSON',
          '2024-05-20 14:03:14.486 WARN  [23817] [main] [o.a.r.c.i.p.DefaultMQProducerImpl#?:?] - sendKernelImpl exception, resend at once, InvokeID: 812371, RT: 207ms, Broker: MessageQueue [topic=TopicTest, brokerName=broker-a, queueId=1]',
          busy(205, 5),
          'For more information, please visit the url, https://rocketmq.apache.org/docs/bestPractice/06FAQ',
          ...FRAMES,
        ]),
      },
    },
    {
      name: 'a busy reply from a client of unknown version (cannot tell whether it was retried)',
      files: { 'app/app.log': 'publish topic:top-save-log error:CODE: 2  DESC: [TIMEOUT_CLEAN_QUEUE]broker busy, start flow control for a while, period in queue: 209ms, size of queue: 0\n' },
    },
  ],
  invalid: [
    {
      name: 'Send [1] times with a single BrokersSent slot (ASYNC send, refused connection)',
      files: {
        'app/app.log': lf([
          '2021-11-24 10:21:33.101 [AsyncSenderExecutor_3] ERROR com.acme.ssp.Responder - send failed',
          'org.apache.rocketmq.client.exception.MQClientException: Send [1] times, still failed, cost [5]ms, Topic: SSP_VC_COMMAND_CFG_PULL_PUSH_RESPOND_RECORD, BrokersSent: [broker-ssp-11]',
          'See http://rocketmq.apache.org/docs/faq/ for further details.',
          '\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendDefaultImpl(DefaultMQProducerImpl.java:610)',
          '\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl$2.run(DefaultMQProducerImpl.java:467)',
          'Caused by: org.apache.rocketmq.remoting.exception.RemotingConnectException: connect to <x.x.x.x10911> failed',
        ]),
      },
      findings: [
        {
          severity: 'error',
          subject: { host: 'app', broker: 'broker-ssp-11' },
          metrics: { failedSends: 1, shape: 'single-pass', attemptsAllowed: 1, maxCostMs: 5 },
          evidence: ['app/app.log:2'],
          mentions: ['retryTimesWhenSendFailed=0', 'ASYNC'],
        },
      ],
    },
    {
      name: 'a JBoss-style line: three slots, one used, the budget spent (no time of day only)',
      files: {
        'app/server.log': lf([
          '10:52:07,674 ERROR [RocketMQSupport] Send [1] times, still failed, cost [3003]ms, Topic: autoPolicy, BrokersSent: [broker-a, null, null]',
          'See https://github.com/alibaba/RocketMQ/issues/50 for further details.null',
        ]),
      },
      findings: [{ metrics: { failedSends: 1, shape: 'budget', attemptsAllowed: 3, sendMsgTimeoutMs: 3000, brokers: ['broker-a'] }, mentions: ['sendMsgTimeout (3000 ms)'] }],
    },
    {
      name: 'an orderly send (sendSelectImpl call timeout)',
      files: {
        'app/app.log': lf([
          '2020-12-22 14:42:11.046 ERROR 23817 --- [orderMqSender-1] com.acme.order.mq.OrderEventPublisher    : order event send failed, orderId=202012220000381369',
          '',
          'org.apache.rocketmq.remoting.exception.RemotingTooMuchRequestException: sendSelectImpl call timeout',
          '\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendSelectImpl(DefaultMQProducerImpl.java:1040)',
          '\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.send(DefaultMQProducerImpl.java:949)',
          '',
        ]),
      },
      findings: [{ metrics: { failedSends: 1, shape: 'selector' }, mentions: ['MessageQueueSelector', 'sendKernelImpl once'] }],
    },
    {
      name: 'SYSTEM_BUSY to a 4.9.4 client: two refusals, one also in the application log',
      files: {
        'app-feed-01/rocketmq_client.log': client494('2023-06-14 20:05:24,886', 202, 1387) + crlf([
          '2023-06-14 20:05:28,882 WARN RocketmqClient - sendKernelImpl exception, resend at once, InvokeID: -1285853974295638092, RT: 210ms, Broker: MessageQueue [topic=TopicFeed, brokerName=broker-b, queueId=3]',
          busy(209, 2065),
          FAQ4,
          ...FRAMES,
          '',
        ]),
        'app-feed-01/app.log': appBusy('2023-06-14 20:05:24.887', 202, 1387),
      },
      findings: [
        {
          subject: { host: 'app-feed-01', broker: 'broker-b' },
          metrics: { failedSends: 2, shape: 'not-retried-code', code: 2, clientVersion: '4.9.4', brokers: ['broker-b'] },
          evidence: ['app-feed-01/rocketmq_client.log:3'],
          mentions: ['5.3.0', 'retryResponseCodes', 'addRetryResponseCode'],
        },
      ],
    },
  ],
});

// Lab recordings (real RocketMQ, truth in lab.json): a busy reply ends a synchronous send (the
// retry loop logs `resend at once`) and an asynchronous one (its callback gets it in onException);
// the finding says which only as far as the logs show it.
describe('send-no-retry on generated lab recordings', () => {
  // gen-700: app-pay-01 (4.9.0) sent asynchronously; its two busy replies are in its application
  // log only, thrown in the callback (MQClientAPIImpl$1.operationComplete): no synchronous path.
  it('gen-700: async sends refused busy are not said to be synchronous', async () => {
    expect(generatedTruth('gen-700').clients.find((c) => c.host === 'app-pay-01')!.async).toBe(true);
    const f = (await generatedFindings('gen-700', [rule])).find((x) => x.subject.host === 'app-pay-01' && x.metrics.shape === 'not-retried-code')!;
    expect(f.metrics).toMatchObject({ failedSends: 2, syncSends: 0, code: 2 });
    expect(f.explanation).not.toMatch(/resend at once/);
    expect(f.explanation).toMatch(/the logs do not show whether the sends were synchronous/);
  });

  // gen-23: app-order-01 (4.6.1) sent synchronously; its client log holds the retry loop's
  // `sendKernelImpl exception, resend at once` over each MQBrokerException.
  it('gen-23: sync sends refused busy show the retry loop', async () => {
    expect(generatedTruth('gen-23').clients.find((c) => c.host === 'app-order-01')!.async).toBe(false);
    const f = (await generatedFindings('gen-23', [rule])).find((x) => x.subject.host === 'app-order-01' && x.metrics.shape === 'not-retried-code')!;
    expect(f.metrics.syncSends).toBeGreaterThan(0);
    expect(f.explanation).toMatch(/resend at once/);
  });
});
