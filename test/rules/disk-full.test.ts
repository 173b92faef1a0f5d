// disk-full over small logs in the real layouts: 4.x rocketmq_client.log, application logs and the
// broker store.log (P-FULL layout, GMT+8, no milliseconds).
import { ruleTester } from './rule-tester.js';
import rule from '../../src/rules/disk-full.js';

const crlf = (lines: string[]) => lines.join('\r\n') + '\r\n';
const lf = (lines: string[]) => lines.join('\n') + '\n';

const notAvailable = (cl: string) =>
  `org.apache.rocketmq.client.exception.MQBrokerException: CODE: 14  DESC: service not available now. It may be caused by one of the following reasons: the broker's disk is full [CL: ${cl} CQ: ${cl} INDEX: ${cl}], messages are put to the slave, message store has been shut down, etc. BROKER: 10.0.0.1:10911`;
const FRAMES = [
  '\tat org.apache.rocketmq.client.impl.MQClientAPIImpl.processSendResponse(MQClientAPIImpl.java:675)',
  '\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendKernelImpl(DefaultMQProducerImpl.java:817)',
  '\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendDefaultImpl(DefaultMQProducerImpl.java:575)',
];
const FAQ = 'For more information, please visit the url, http://rocketmq.apache.org/docs/faq/';

const clientReply = (time: string, cl: string) => [
  `${time} WARN RocketmqClient - sendKernelImpl exception, resend at once, InvokeID: 812371, RT: 2ms, Broker: MessageQueue [topic=TopicTest, brokerName=broker-a, queueId=1]`,
  notAvailable(cl),
  FAQ,
  ...FRAMES,
  '',
];
const appReply = (time: string, cl: string) => [`${time} [order-sender-2] ERROR com.acme.order.mq.OrderPublisher - publish order event failed, topic=TopicTest`, notAvailable(cl), FAQ, ...FRAMES];

ruleTester(rule, {
  valid: [
    {
      name: 'the store marks the disk OK again (no event)',
      files: { 'broker-a/store.log': lf(['2024-05-20 14:15:02 INFO StoreScheduledThread1 - physic disk space OK 0.7012, so mark disk ok, storePathPhysic=/home/rocketmq/store/commitlog']) },
    },
    {
      name: 'a flow-control reply is not a disk problem',
      files: {
        'app/app.log': lf([
          '2024-05-20 14:03:11.491 [order-sender-2] ERROR com.acme.order.mq.OrderPublisher - publish order event failed, topic=TopicTest',
          'org.apache.rocketmq.client.exception.MQBrokerException: CODE: 2  DESC: [TIMEOUT_CLEAN_QUEUE]broker busy, start flow control for a while, period in queue: 205ms, size of queue: 5 BROKER: 10.0.0.1:10911',
          FAQ,
          ...FRAMES,
        ]),
      },
    },
  ],
  invalid: [
    {
      name: 'a full disk: the reply in client and application logs (once), and the store marking the disk full',
      files: {
        'app/rocketmq_client.log': crlf(clientReply('2024-05-20 14:05:02,311', ' 0.96')),
        'app/app.log': lf(appReply('2024-05-20 14:05:02.312', ' 0.96')),
        'broker-a/store.log': lf(['2024-05-20 14:04:52 ERROR StoreScheduledThread1 - physic disk maybe full soon 0.9612, so mark disk full, storePathPhysic=/home/rocketmq/store/commitlog']),
      },
      findings: [
        {
          severity: 'error',
          subject: { broker: 'broker-a', host: 'broker-a' },
          metrics: { failures: 2, rejectedSends: 1, diskFullMarks: 1, maxRatio: 0.9612, diskMaxUsedSpaceRatio: 0.75, warningLevelRatio: 0.9 },
          evidence: ['broker-a/store.log:1', 'app/rocketmq_client.log:2'],
          mentions: ['diskMaxUsedSpaceRatio (75%)', '0.85', 'fileReservedTime'],
          start: '2024-05-20T14:04:52+08:00',
          end: '2024-05-20T14:05:02.311+08:00',
        },
      ],
    },
    {
      name: 'SERVICE_NOT_AVAILABLE with a low usage figure: probably not the disk',
      files: { 'app/rocketmq_client.log': crlf(clientReply('2024-05-20 14:05:02,311', ' 0.12')) },
      findings: [{ subject: { broker: 'broker-a' }, metrics: { failures: 1, maxRatio: 0.12 }, mentions: ['slave', 'not the cause'] }],
    },
    {
      name: 'only the store log: the disk marked full, and the 4.x not-writable line',
      files: {
        'broker-b/store.log': lf([
          '2024-05-20 14:04:52 ERROR StoreScheduledThread1 - physic disk maybe full soon 0.92, so mark disk full, storePathPhysic=/home/rocketmq/store/commitlog',
          "2024-05-20 14:04:53 WARN SendMessageThread_1 - the message store is not writable. It may be caused by one of the following reasons: the broker's disk is full, write to logic queue error, write to index file error, etc",
        ]),
      },
      findings: [{ subject: { host: 'broker-b' }, metrics: { failures: 2, diskFullMarks: 1, notWritable: 1, maxRatio: 0.92, rejectedSends: 0 } }],
    },
  ],
});
