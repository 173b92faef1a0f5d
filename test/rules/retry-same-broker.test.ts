// retry-same-broker over small logs in the real layouts: 4.x rocketmq_client.log (inner logger,
// CRLF, an empty line after each stack; 4.3.0-4.7.1 repeat the seconds in the millisecond field)
// and application logs.
import { ruleTester } from './rule-tester.js';
import rule from '../../src/rules/retry-same-broker.js';

const crlf = (lines: string[]) => lines.join('\r\n') + '\r\n';
const lf = (lines: string[]) => lines.join('\n') + '\n';

const FRAMES = [
  '\tat org.apache.rocketmq.remoting.netty.NettyRemotingClient.invokeSync(NettyRemotingClient.java:407)',
  '\tat org.apache.rocketmq.client.impl.MQClientAPIImpl.sendMessageSync(MQClientAPIImpl.java:523)',
  '\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendKernelImpl(DefaultMQProducerImpl.java:817)',
  '\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendDefaultImpl(DefaultMQProducerImpl.java:575)',
];

/** A failed attempt; `invokeId` (one per send in sendDefaultImpl) defaults to one of its own. */
function attempt(time: string, rt: number, broker: string, cause = 'org.apache.rocketmq.remoting.exception.RemotingConnectException: connect to 10.0.0.1:10911 failed', invokeId = `-42235622${time.replace(/\D/g, '').slice(-11)}`): string[] {
  return [
    `${time} WARN RocketmqClient - sendKernelImpl exception, resend at once, InvokeID: ${invokeId}, RT: ${rt}ms, Broker: MessageQueue [topic=TopicTest, brokerName=${broker}, queueId=2]`,
    cause,
    ...FRAMES,
    '',
    `${time} WARN RocketmqClient - Message{topic='TopicTest', flag=0, properties={KEYS=1001, WAIT=true}, body=[123, 125], transactionId='null'}`,
  ];
}

const routeOnlyA =
  "2024-05-20 14:00:07,457 INFO RocketmqClient - the topic[TopicTest] route info changed, old[null] ,new[TopicRouteData [orderTopicConf=null, queueDatas=[QueueData [brokerName=broker-a, readQueueNums=4, writeQueueNums=4, perm=6, topicSysFlag=0]], brokerDatas=[BrokerData [brokerName=broker-a, brokerAddrs={0=10.0.0.1:10911}]], filterServerTable={}]]";

const sendFailed = (time: string, brokers: string) => [
  `${time} [main] ERROR com.acme.order.OrderSender - send order event failed`,
  `org.apache.rocketmq.client.exception.MQClientException: Send [3] times, still failed, cost [31]ms, Topic: TopicTest, BrokersSent: [${brokers}]`,
  'See http://rocketmq.apache.org/docs/faq/ for further details.',
  '\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendDefaultImpl(DefaultMQProducerImpl.java:610)',
];

ruleTester(rule, {
  valid: [
    {
      name: 'two sends whose failures look chained by their timing, but each with its own InvokeID (4.9.4, lab namesrv-hang)',
      files: {
        'app/rocketmq_client.log': crlf([
          ...attempt('2026-12-01 21:52:33,813', 2002, 'broker-a', 'org.apache.rocketmq.remoting.exception.RemotingTimeoutException: wait response on the channel <10.213.0.11:10911> timeout, 2000(ms)', '2243563049262121213'),
          ...attempt('2026-12-01 21:52:33,814', 3, 'broker-a', 'org.apache.rocketmq.remoting.exception.RemotingSendRequestException: send request to <10.213.0.11:10911> failed', '-5069316205210329549'),
        ]),
      },
    },
    {
      name: 'a failed attempt retried on another broker (no second failure), and another send much later',
      files: { 'app/rocketmq_client.log': crlf([...attempt('2024-03-12 10:08:34,737', 2, 'broker-a'), ...attempt('2024-03-12 10:08:40,359', 2, 'broker-a')]) },
    },
    {
      name: 'two concurrent sends to one broker (overlapping attempts, 4.x logs have no thread)',
      files: {
        'app/rocketmq_client.log': crlf([
          ...attempt('2020-12-22 14:42:14,947', 3003, 'broker-a', 'org.apache.rocketmq.remoting.exception.RemotingTimeoutException: wait response on the channel <192.168.3.100:10911> timeout, 2999(ms)'),
          ...attempt('2020-12-22 14:42:15,421', 3001, 'broker-a', 'org.apache.rocketmq.remoting.exception.RemotingTimeoutException: wait response on the channel <192.168.3.100:10911> timeout, 2999(ms)'),
        ]),
      },
    },
    {
      name: 'busy replies to a 4.9.4 client are not retried, so back-to-back failures are separate sends',
      files: {
        'app/rocketmq_client.log': crlf([
          '2023-06-14 20:00:07,415 INFO RocketmqClient - Created a new client Instance, InstanceIndex:0, ClientID:192.168.1.31@4711#1384467298751204, ClientConfig:ClientConfig [namesrvAddr=192.168.1.5:9876], ClientVersion:V4_9_4, SerializerType:JSON',
          ...attempt('2023-06-14 20:13:21,711', 402, 'broker-b', 'org.apache.rocketmq.client.exception.MQBrokerException: CODE: 2  DESC: [TIMEOUT_CLEAN_QUEUE]broker busy, start flow control for a while, period in queue: 401ms, size of queue: 34 BROKER: 192.168.1.12:10911'),
          ...attempt('2023-06-14 20:13:22,113', 401, 'broker-b', 'org.apache.rocketmq.client.exception.MQBrokerException: CODE: 2  DESC: [TIMEOUT_CLEAN_QUEUE]broker busy, start flow control for a while, period in queue: 400ms, size of queue: 33 BROKER: 192.168.1.12:10911'),
        ]),
      },
    },
    {
      name: 'a retry that went to another broker',
      files: { 'app/rocketmq_client.log': crlf([...attempt('2024-05-20 14:03:11,490', 8, 'broker-a', 'org.apache.rocketmq.remoting.exception.RemotingConnectException: connect to 10.0.0.1:10911 failed', '-4223562238651452357'), ...attempt('2024-05-20 14:03:11,499', 8, 'broker-b', 'org.apache.rocketmq.remoting.exception.RemotingConnectException: connect to 10.0.0.1:10911 failed', '-4223562238651452357')]) },
    },
  ],
  invalid: [
    {
      name: 'three attempts of one send on the only broker of the route',
      files: {
        'app/rocketmq_client.log': crlf([routeOnlyA, ...attempt('2024-05-20 14:03:11,490', 8, 'broker-a', 'org.apache.rocketmq.remoting.exception.RemotingConnectException: connect to 10.0.0.1:10911 failed', '-4223562238651452357'), ...attempt('2024-05-20 14:03:11,500', 9, 'broker-a', 'org.apache.rocketmq.remoting.exception.RemotingConnectException: connect to 10.0.0.1:10911 failed', '-4223562238651452357'), ...attempt('2024-05-20 14:03:11,510', 9, 'broker-a', 'org.apache.rocketmq.remoting.exception.RemotingConnectException: connect to 10.0.0.1:10911 failed', '-4223562238651452357')]),
      },
      findings: [
        {
          severity: 'error',
          subject: { host: 'app', broker: 'broker-a' },
          metrics: { failedSends: 1, finallyFailed: 1, maxAttempts: 3, routeBrokers: 1, broker: 'broker-a' },
          evidence: ['app/rocketmq_client.log:2', 'app/rocketmq_client.log:18'],
          mentions: ['lastBrokerName', 'nowhere else', 'at least two brokers'],
          start: '2024-05-20T14:03:11.490+08:00',
          end: '2024-05-20T14:03:11.510+08:00',
        },
      ],
    },
    {
      name: 'Send [3] times with BrokersSent repeating one broker (application log only)',
      files: { 'app/app.log': lf(sendFailed('2024-05-20 14:03:11.512', 'broker-a, broker-a, broker-a')) },
      findings: [{ severity: 'error', metrics: { failedSends: 1, maxAttempts: 3, routeBrokers: null }, evidence: ['app/app.log:2'] }],
    },
    {
      name: 'the attempts in the client log and the Send [3] times in the application log are one send',
      files: {
        'app/rocketmq_client.log': crlf([...attempt('2024-05-20 14:03:11,490', 8, 'broker-a', 'org.apache.rocketmq.remoting.exception.RemotingConnectException: connect to 10.0.0.1:10911 failed', '-4223562238651452357'), ...attempt('2024-05-20 14:03:11,500', 9, 'broker-a', 'org.apache.rocketmq.remoting.exception.RemotingConnectException: connect to 10.0.0.1:10911 failed', '-4223562238651452357'), ...attempt('2024-05-20 14:03:11,510', 9, 'broker-a', 'org.apache.rocketmq.remoting.exception.RemotingConnectException: connect to 10.0.0.1:10911 failed', '-4223562238651452357')]),
        'app/app.log': lf(sendFailed('2024-05-20 14:03:11.512', 'broker-a, broker-a, broker-a')),
      },
      findings: [{ metrics: { failedSends: 1, finallyFailed: 1 } }],
    },
    {
      name: 'a 4.3.0-4.7.1 client (seconds repeated as millis): two attempts on one broker, then success',
      files: {
        'app/rocketmq_client.log': crlf([
          ...attempt('2020-12-22 14:43:03,003', 1002, 'broker-a', 'org.apache.rocketmq.remoting.exception.RemotingTimeoutException: wait response on the channel <192.168.3.100:10911> timeout, 1000(ms)', '-4223562238651452357'),
          ...attempt('2020-12-22 14:43:04,004', 1001, 'broker-a', 'org.apache.rocketmq.remoting.exception.RemotingTimeoutException: wait response on the channel <192.168.3.100:10911> timeout, 997(ms)', '-4223562238651452357'),
        ]),
      },
      findings: [{ severity: 'warning', metrics: { failedSends: 1, finallyFailed: 0, maxAttempts: 2, clientVersion: '4.3.0-4.7.1' }, mentions: ['4.7.1 or older', 'sendLatencyFaultEnable'] }],
    },
  ],
});
