// broker-busy over small logs in the real layouts: 4.x rocketmq_client.log (inner logger, CRLF, an
// empty line after each stack), application logs, broker watermark.log and store.log.
import { ruleTester } from './rule-tester.js';
import rule from '../../src/rules/broker-busy.js';

const FRAMES = [
  '\tat org.apache.rocketmq.client.impl.MQClientAPIImpl.processSendResponse(MQClientAPIImpl.java:675)',
  '\tat org.apache.rocketmq.client.impl.MQClientAPIImpl.sendMessageSync(MQClientAPIImpl.java:523)',
  '\tat org.apache.rocketmq.client.impl.MQClientAPIImpl.sendMessage(MQClientAPIImpl.java:505)',
  '\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendKernelImpl(DefaultMQProducerImpl.java:817)',
  '\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendDefaultImpl(DefaultMQProducerImpl.java:575)',
  '\tat org.apache.rocketmq.client.producer.DefaultMQProducer.send(DefaultMQProducer.java:333)',
];
const FAQ = 'For more information, please visit the url, http://rocketmq.apache.org/docs/faq/';

const busyText = (wait: number, size: number, addr?: string) =>
  `CODE: 2  DESC: [TIMEOUT_CLEAN_QUEUE]broker busy, start flow control for a while, period in queue: ${wait}ms, size of queue: ${size}${addr ? ` BROKER: ${addr}` : ''}`;

/** One failed attempt in a 4.x client log: the WARN, the exception, its frames, an empty line, the message line. */
function clientBusy(time: string, broker: string, wait: number, size: number, addr?: string): string[] {
  return [
    `${time} WARN RocketmqClient - sendKernelImpl exception, resend at once, InvokeID: -4223562238651452357, RT: ${wait + 2}ms, Broker: MessageQueue [topic=TopicTest, brokerName=${broker}, queueId=2]`,
    `org.apache.rocketmq.client.exception.MQBrokerException: ${busyText(wait, size, addr)}`,
    FAQ,
    ...FRAMES,
    '',
    `${time} WARN RocketmqClient - Message{topic='TopicTest', flag=0, properties={KEYS=88120451, WAIT=true, TAGS=T}, body=[123, 125], transactionId='null'}`,
  ];
}

/** The same failure as the application logs it (plain logback layout). */
function appBusy(time: string, wait: number, size: number, addr?: string): string[] {
  return [
    `${time} [order-sender-2] ERROR com.acme.order.mq.OrderPublisher - publish order event failed, topic=TopicTest`,
    `org.apache.rocketmq.client.exception.MQBrokerException: ${busyText(wait, size, addr)}`,
    FAQ,
    ...FRAMES,
  ];
}

const crlf = (lines: string[]) => lines.join('\r\n') + '\r\n';
const lf = (lines: string[]) => lines.join('\n') + '\n';

const connectRefused = crlf([
  '2024-05-20 14:03:11,490 WARN RocketmqClient - sendKernelImpl exception, resend at once, InvokeID: -4223562238651452357, RT: 8ms, Broker: MessageQueue [topic=TopicTest, brokerName=broker-a, queueId=2]',
  'org.apache.rocketmq.remoting.exception.RemotingConnectException: connect to 10.0.0.1:10911 failed',
  '\tat org.apache.rocketmq.remoting.netty.NettyRemotingClient.invokeSync(NettyRemotingClient.java:407)',
  '',
]);

ruleTester(rule, {
  valid: [
    { name: 'a failed attempt that is not a busy reply', files: { 'app-1/rocketmq_client.log': connectRefused } },
    {
      name: 'page-cache replies belong to pagecache-busy',
      files: {
        'app-1/app.log': lf([
          '2024-05-20 14:03:11.491 [order-sender-2] ERROR com.acme.order.mq.OrderPublisher - publish order event failed, topic=TopicTest',
          'org.apache.rocketmq.client.exception.MQBrokerException: CODE: 2  DESC: [PCBUSY_CLEAN_QUEUE]broker busy, start flow control for a while, period in queue: 12ms, size of queue: 40 BROKER: 10.0.0.1:10911',
          FAQ,
          ...FRAMES,
        ]),
      },
    },
    {
      name: 'a busy watermark without any rejection',
      files: {
        'broker-a/watermark.log': lf([
          '2024-05-20 14:03:17 - [WATERMARK] Send Queue Size: 12 SlowTimeMills: 96',
          '2024-05-20 14:03:18 - [WATERMARK] Send Queue Size: 37 SlowTimeMills: 184',
          '2024-05-20 14:03:18 - [WATERMARK] Pull Queue Size: 0 SlowTimeMills: 0',
        ]),
      },
    },
  ],
  invalid: [
    {
      name: '4.9.x client: two rejections, the second also in the application log (counted once)',
      files: {
        'app-1/rocketmq_client.log': crlf([
          ...clientBusy('2024-05-20 14:03:11,490', 'broker-a', 205, 5, '10.0.0.1:10911'),
          ...clientBusy('2024-05-20 14:03:12,120', 'broker-a', 208, 9, '10.0.0.1:10911'),
        ]),
        'app-1/app.log': lf(appBusy('2024-05-20 14:03:12.121', 208, 9, '10.0.0.1:10911')),
      },
      findings: [
        {
          severity: 'error',
          subject: { broker: 'broker-a', brokerAddr: '10.0.0.1:10911' },
          metrics: { rejections: 2, maxWaitMs: 208, p50WaitMs: 205, maxQueueSize: 9, thresholdMs: 200, episodes: 1, stalls: 0, clients: 1, clientVersion: '4.3.0-5.0.0' },
          evidence: ['app-1/rocketmq_client.log:2', 'app-1/rocketmq_client.log:13'],
          mentions: ['every 10 ms', 'backlog', 'waitTimeMillsInSendQueue', '5.3.0'],
          start: '2024-05-20T14:03:11.490+08:00',
          end: '2024-05-20T14:03:12.120+08:00',
        },
      ],
    },
    {
      name: 'a pre-4.8 reply (no BROKER suffix) joined with the broker host: a stall seen in watermark.log and store.log',
      files: {
        'app-1/rocketmq_client.log': crlf(clientBusy('2024-05-20 14:05:02,611', 'broker-a', 799, 49)),
        'broker-a/watermark.log': lf([
          '2024-05-20 14:05:01 - [WATERMARK] Send Queue Size: 0 SlowTimeMills: 0',
          '2024-05-20 14:05:02 - [WATERMARK] Send Queue Size: 49 SlowTimeMills: 797',
          '2024-05-20 14:05:03 - [WATERMARK] Send Queue Size: 0 SlowTimeMills: 0',
        ]),
        'broker-a/store.log': lf([
          "2024-05-20 14:05:02 WARN SendMessageThread_3 - [NOTIFYME]putMessage in lock cost time(ms)=612, bodyLength=1024 AppendMessageResult=AppendMessageResult{status=PUT_OK, wroteOffset=1073741824, wroteBytes=1190, msgId='C0A8010A00002A9F0000000040000000', storeTimestamp=1716184502000, logicsOffset=1200, pagecacheRT=611, msgNum=1}",
        ]),
      },
      findings: [
        {
          subject: { broker: 'broker-a', host: 'broker-a' },
          metrics: { rejections: 1, maxWaitMs: 799, stalls: 1, episodeKinds: ['stall'], maxWatermarkQueue: 49, maxWatermarkSlowMs: 797, maxStoreCostMs: 612 },
          evidence: ['app-1/rocketmq_client.log:2', 'broker-a/store.log:1', 'broker-a/watermark.log:2'],
          mentions: ['GC', 'stalled', 'Do not just raise waitTimeMillsInSendQueue'],
        },
      ],
    },
    {
      name: 'two episodes more than a minute apart',
      files: {
        'app-1/rocketmq_client.log': crlf([
          ...clientBusy('2024-05-20 14:03:11,490', 'broker-b', 201, 1168, '10.0.0.2:10911'),
          ...clientBusy('2024-05-20 14:03:40,002', 'broker-b', 209, 2703, '10.0.0.2:10911'),
          ...clientBusy('2024-05-20 14:11:21,310', 'broker-b', 401, 34, '10.0.0.2:10911'),
        ]),
      },
      findings: [
        {
          subject: { broker: 'broker-b', brokerAddr: '10.0.0.2:10911' },
          metrics: { rejections: 3, episodes: 2, episodeKinds: ['backlog', 'stall'], stalls: 1, backlogRejections: 2, maxWaitMs: 401, maxQueueSize: 2703 },
          mentions: ['Episode 1', 'episode 2'],
        },
      ],
    },
    {
      name: 'a headerless paste (no time) of an application message',
      files: {
        'app-1/app.log': 'publish topic:top-save-log error:CODE: 2  DESC: [TIMEOUT_CLEAN_QUEUE]broker busy, start flow control for a while, period in queue: 209ms, size of queue: 0\n',
      },
      findings: [{ metrics: { rejections: 1, maxWaitMs: 209, episodes: 0, stalls: 0 } }],
    },
    {
      name: 'a 5.x client (logback layout) and a 5.x broker that dumped its threads after the purge',
      files: {
        'app-2/rocketmq_client.log': lf([
          '2024-05-20 14:03:14.486 WARN  [23817] [main] [o.a.r.c.i.p.DefaultMQProducerImpl#?:?] - sendKernelImpl exception, resend at once, InvokeID: 812371, RT: 612ms, Broker: MessageQueue [topic=TopicTest, brokerName=broker-c, queueId=1]',
          `org.apache.rocketmq.client.exception.MQBrokerException: ${busyText(611, 20, '10.0.0.3:10911')}`,
          'For more information, please visit the url, https://rocketmq.apache.org/docs/bestPractice/06FAQ',
          ...FRAMES,
        ]),
        'mq-broker-c/broker.log': lf([
          '2024-05-20 14:03:14 WARN BrokerFastFailureScheduledThread1 - broker jstack ',
          ' "SendMessageThread_1"                   TID: 112 STATE: WAITING',
          ' java.base@11.0.19/jdk.internal.misc.Unsafe.park(Native Method)',
        ]),
      },
      findings: [
        {
          subject: { broker: 'broker-c', brokerAddr: '10.0.0.3:10911', host: 'mq-broker-c' },
          metrics: { rejections: 1, stalls: 1, jstacks: 1 },
          evidence: ['app-2/rocketmq_client.log:2', 'mq-broker-c/broker.log:1'],
          mentions: ['broker jstack'],
        },
      ],
    },
    {
      name: 'a broker configured with waitTimeMillsInSendQueue=500',
      set: ['waitTimeMillsInSendQueue=500'],
      files: { 'app-1/rocketmq_client.log': crlf(clientBusy('2024-05-20 14:03:11,490', 'broker-a', 507, 12, '10.0.0.1:10911')) },
      findings: [{ metrics: { thresholdMs: 500, stalls: 0, backlogRejections: 1 }, mentions: ['500 ms'] }],
    },
  ],
});
