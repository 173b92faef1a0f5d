// pagecache-busy over small logs in the real layouts: 4.x rocketmq_client.log, application logs,
// broker store.log (P-FULL layout, GMT+8, no milliseconds).
import { ruleTester } from './rule-tester.js';
import rule from '../../src/rules/pagecache-busy.js';

const FRAMES = [
  '\tat org.apache.rocketmq.client.impl.MQClientAPIImpl.processSendResponse(MQClientAPIImpl.java:675)',
  '\tat org.apache.rocketmq.client.impl.MQClientAPIImpl.sendMessageSync(MQClientAPIImpl.java:523)',
  '\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendKernelImpl(DefaultMQProducerImpl.java:817)',
  '\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendDefaultImpl(DefaultMQProducerImpl.java:575)',
];
const FAQ = 'For more information, please visit the url, http://rocketmq.apache.org/docs/faq/';

function clientAttempt(time: string, broker: string, desc: string): string[] {
  return [
    `${time} WARN RocketmqClient - sendKernelImpl exception, resend at once, InvokeID: 812371, RT: 3ms, Broker: MessageQueue [topic=TopicTest, brokerName=${broker}, queueId=1]`,
    `org.apache.rocketmq.client.exception.MQBrokerException: ${desc}`,
    FAQ,
    ...FRAMES,
    '',
  ];
}

function appError(time: string, desc: string): string[] {
  return [`${time} [order-sender-2] ERROR com.acme.order.mq.OrderPublisher - publish order event failed, topic=TopicTest`, `org.apache.rocketmq.client.exception.MQBrokerException: ${desc}`, FAQ, ...FRAMES];
}

const inLock = (time: string, ms: number) =>
  `${time} WARN SendMessageThread_3 - [NOTIFYME]putMessage in lock cost time(ms)=${ms}, bodyLength=1024 AppendMessageResult=AppendMessageResult{status=PUT_OK, wroteOffset=1073741824, wroteBytes=1190, msgId='C0A8010A00002A9F0000000040000000', storeTimestamp=1716184502000, logicsOffset=1200, pagecacheRT=${ms - 1}, msgNum=1}`;

const PCBUSY = 'CODE: 2  DESC: [PCBUSY_CLEAN_QUEUE]broker busy, start flow control for a while, period in queue: 12ms, size of queue: 40 BROKER: 10.0.0.1:10911';
const PCSYNC = 'CODE: 1  DESC: [PC_SYNCHRONIZED]broker busy, start flow control for a while BROKER: 10.0.0.1:10911';
const REJECT = 'CODE: 2  DESC: [REJECTREQUEST]system busy, start flow control for a while BROKER: 10.0.0.2:10911';

const crlf = (lines: string[]) => lines.join('\r\n') + '\r\n';
const lf = (lines: string[]) => lines.join('\n') + '\n';

ruleTester(rule, {
  valid: [
    {
      name: 'a [TIMEOUT_CLEAN_QUEUE] reply belongs to broker-busy',
      files: {
        'app-1/rocketmq_client.log': crlf(
          clientAttempt('2024-05-20 14:03:11,490', 'broker-a', 'CODE: 2  DESC: [TIMEOUT_CLEAN_QUEUE]broker busy, start flow control for a while, period in queue: 205ms, size of queue: 5 BROKER: 10.0.0.1:10911'),
        ),
      },
    },
    {
      name: 'slow puts that stayed under osPageCacheBusyTimeOutMills',
      files: { 'broker-a/store.log': lf([inLock('2024-05-20 14:05:02', 612), '2024-05-20 14:05:02 WARN SendMessageThread_3 - putMessage not in lock elapsed time(ms)=1613, bodyLength=1024']) },
    },
  ],
  invalid: [
    {
      name: 'page-cache replies in the client log and the application log, with the store.log stall of the same broker',
      files: {
        'app-1/rocketmq_client.log': crlf([...clientAttempt('2024-05-20 14:05:02,310', 'broker-a', PCBUSY), ...clientAttempt('2024-05-20 14:05:02,650', 'broker-a', PCSYNC)]),
        'app-1/app.log': lf(appError('2024-05-20 14:05:02.311', PCBUSY)),
        'broker-a/store.log': lf([inLock('2024-05-20 14:05:03', 1382)]),
      },
      findings: [
        {
          severity: 'error',
          subject: { broker: 'broker-a', brokerAddr: '10.0.0.1:10911', host: 'broker-a' },
          metrics: { rejections: 2, rejectionsPcbusyCleanQueue: 1, rejectionsPcSynchronized: 1, rejectionsRejectRequest: 0, codes: ['1', '2'], slowLockPuts: 1, maxStoreCostMs: 1382, thresholdMs: 1000 },
          evidence: ['broker-a/store.log:1', 'app-1/rocketmq_client.log:2'],
          mentions: ['transientStorePoolEnable', 'where the request was caught', 'osPageCacheBusyTimeOutMills'],
        },
      ],
    },
    {
      name: 'only store.log: the lock was held over a second (a warning: no refused send seen)',
      files: { 'broker-a/store.log': lf([inLock('2024-05-20 14:05:02', 1060), inLock('2024-05-20 14:09:41', 1573)]) },
      findings: [{ severity: 'warning', subject: { host: 'broker-a' }, metrics: { rejections: 0, slowLockPuts: 2, maxStoreCostMs: 1573 }, evidence: ['broker-a/store.log:2'] }],
    },
    {
      name: '[REJECTREQUEST] alone, from an application log',
      files: { 'app-2/app.log': lf(appError('2024-05-20 14:05:02.311', REJECT)) },
      findings: [{ subject: { brokerAddr: '10.0.0.2:10911' }, metrics: { rejections: 1, rejectionsRejectRequest: 1 }, mentions: ['slave', 'transient store pool'] }],
    },
  ],
});
