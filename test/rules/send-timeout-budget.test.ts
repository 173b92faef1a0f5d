// send-timeout-budget over small logs in the real layouts: a 4.8.0 rocketmq_client.log (inner
// logger, CRLF, empty line after a stack) and the application's Spring Boot log.
import { ruleTester } from './rule-tester.js';
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

ruleTester(rule, {
  valid: [
    { name: 'an orderly send (sendSelectImpl) belongs to send-no-retry', files: { 'app-order-01/app.log': lf(appCallTimeout('2020-12-22 14:42:11.046', 'sendSelectImpl')) } },
    { name: 'a failed attempt that was retried (no call timeout)', files: { 'app-order-01/rocketmq_client.log': crlf(clientTimeout('2020-12-22 14:42:11,044', 1501)) } },
  ],
  invalid: [
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
          mentions: ['sendMsgTimeout (3000 ms)', 'no retry', 'sendLatencyFaultEnable'],
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
      findings: [{ metrics: { failedSends: 1, attemptsJoined: 0, brokers: [] }, mentions: ['not known'] }],
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
