// stale-route: cases built from the message texts and layouts of the bundled samples (4.6.0 client
// with repeated seconds, 4.8.0 / 4.9.4 clients, the 5.1.4 logback layout) and client facts §2-§3.
import rule from '../../src/rules/stale-route.js';
import { ruleTester } from './rule-tester.js';

const CRLF = '\r\n';
/** A 4.x inner-logger record: `yyyy-MM-dd HH:mm:ss,SSS LEVEL Logger - msg`, CRLF, a blank line after a stack. */
const rec4 = (day: string, time: string, level: string, logger: string, msg: string, stack: string[] = []) =>
  [`${day} ${time} ${level} ${logger} - ${msg}`, ...stack, ...(stack.length ? [''] : [])].join(CRLF);

const routeData = (brokers: Array<[string, string]>) =>
  `TopicRouteData [orderTopicConf=null, queueDatas=[${brokers
    .map(([n]) => `QueueData [brokerName=${n}, readQueueNums=4, writeQueueNums=4, perm=6, topicSynFlag=0]`)
    .join(', ')}], brokerDatas=[${brokers.map(([n, a]) => `BrokerData [brokerName=${n}, brokerAddrs={0=${a}}]`).join(', ')}], filterServerTable={}]`;
const routeChanged = (topic: string, before: Array<[string, string]> | null, after: Array<[string, string]>) =>
  `the topic[${topic}] route info changed, old[${before ? routeData(before) : 'null'}] ,new[${routeData(after)}]`;

const SEND_FRAMES = [
  '\tat org.apache.rocketmq.remoting.netty.NettyRemotingAbstract.invokeSyncImpl(NettyRemotingAbstract.java:426)',
  '\tat org.apache.rocketmq.remoting.netty.NettyRemotingClient.invokeSync(NettyRemotingClient.java:373)',
  '\tat org.apache.rocketmq.client.impl.MQClientAPIImpl.sendMessageSync(MQClientAPIImpl.java:503)',
  '\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendKernelImpl(DefaultMQProducerImpl.java:833)',
];
const HB_FRAMES = [
  '\tat org.apache.rocketmq.remoting.netty.NettyRemotingAbstract.invokeSyncImpl(NettyRemotingAbstract.java:426)',
  '\tat org.apache.rocketmq.remoting.netty.NettyRemotingClient.invokeSync(NettyRemotingClient.java:373)',
  '\tat org.apache.rocketmq.client.impl.MQClientAPIImpl.sendHearbeat(MQClientAPIImpl.java:1023)',
  '\tat org.apache.rocketmq.client.impl.factory.MQClientInstance.sendHeartbeatToAllBroker(MQClientInstance.java:559)',
];

const A = '192.168.3.100:10911';
const B = '192.168.3.101:10911';
const BOTH: Array<[string, string]> = [
  ['broker-b', B],
  ['broker-a', A],
];
const ONLY_B: Array<[string, string]> = [['broker-b', B]];

/** A 4.x client (app-pay-01 of the seed outage, 4.6.0: the millisecond field repeats the seconds). */
const pay = (time: string, level: string, logger: string, msg: string, stack: string[] = []) =>
  rec4('2020-12-22', `${time},0${time.slice(6)}`, level, logger, msg, stack);

function sendTimeout(t: string, id: string, queueId: number, left = 2999) {
  return [
    pay(t, 'WARN', 'RocketmqRemoting', `invokeSync: wait response timeout exception, the channel[${A}]`),
    pay(t, 'WARN', 'RocketmqClient', `sendKernelImpl exception, resend at once, InvokeID: ${id}, RT: 3001ms, Broker: MessageQueue [topic=TopicPay, brokerName=broker-a, queueId=${queueId}]`, [
      `org.apache.rocketmq.remoting.exception.RemotingTimeoutException: wait response on the channel <${A}> timeout, ${left}(ms)`,
      ...SEND_FRAMES,
    ]),
  ].join(CRLF);
}

function heartbeatTimeout(t: string) {
  return [
    pay(t, 'WARN', 'RocketmqRemoting', `invokeSync: wait response timeout exception, the channel[${A}]`),
    pay(t, 'INFO', 'RocketmqClient', `send heart beat to broker[broker-a 0 ${A}] failed`, [
      `org.apache.rocketmq.remoting.exception.RemotingTimeoutException: wait response on the channel <${A}> timeout, 3000(ms)`,
      ...HB_FRAMES,
    ]),
  ].join(CRLF);
}

const payStart = [
  pay('14:35:26', 'INFO', 'RocketmqRemoting', 'name server address updated. NEW : [192.168.3.100:9876, 192.168.3.101:9876] , OLD: null'),
  pay(
    '14:35:26',
    'INFO',
    'RocketmqClient',
    'Created a new client Instance, InstanceIndex:0, ClientID:192.168.3.22@17342, ClientConfig:ClientConfig [namesrvAddr=192.168.3.100:9876;192.168.3.101:9876, clientIP=192.168.3.22, instanceName=17342, clientCallbackExecutorThreads=8, pollNameServerInterval=30000, heartbeatBrokerInterval=30000, persistConsumerOffsetInterval=5000, pullTimeDelayMillsWhenException=1000, unitMode=false, unitName=null, vipChannelEnabled=false, useTLS=false, language=JAVA, namespace=null], ClientVersion:V4_6_0, SerializerType:JSON',
  ),
  pay('14:35:26', 'INFO', 'RocketmqRemoting', 'new name server is chosen. OLD: null , NEW: 192.168.3.101:9876. namesrvIndex = 89'),
  pay('14:35:31', 'INFO', 'RocketmqClient', routeChanged('TopicPay', null, BOTH)),
];

/** app-pay-01 during the hang: timeouts to broker-a until the route drops it at 14:44:26. */
const payHang = [
  ...payStart,
  sendTimeout('14:42:03', '-7470542887386203873', 1),
  heartbeatTimeout('14:42:30'),
  sendTimeout('14:43:03', '6385078409927603831', 0),
  heartbeatTimeout('14:44:00'),
  sendTimeout('14:44:22', '4433891190104624607', 0, 3000),
  pay('14:44:26', 'INFO', 'RocketmqClient', routeChanged('TopicPay', BOTH, ONLY_B)),
  pay('14:44:27', 'INFO', 'RocketmqClient', `the broker addr[broker-a ${A}] is offline, remove it`),
].join(CRLF) + CRLF;

/** app-order-01 (4.8.0, real milliseconds): sends time out and the route polls too, until 14:53:46. */
const order = (time: string, level: string, logger: string, msg: string, stack: string[] = []) => rec4('2020-12-22', time, level, logger, msg, stack);
const ROUTE_FRAMES = [
  '\tat org.apache.rocketmq.remoting.netty.NettyRemotingAbstract.invokeSyncImpl(NettyRemotingAbstract.java:436)',
  '\tat org.apache.rocketmq.remoting.netty.NettyRemotingClient.invokeSync(NettyRemotingClient.java:377)',
  '\tat org.apache.rocketmq.client.impl.MQClientAPIImpl.getTopicRouteInfoFromNameServer(MQClientAPIImpl.java:1363)',
];
function routePollTimeout(t: string, t2: string) {
  return [
    order(t, 'WARN', 'RocketmqRemoting', 'invokeSync: wait response timeout exception, the channel[null]'),
    order(t, 'ERROR', 'RocketmqClient', 'updateTopicRouteInfoFromNameServer Exception', [
      'org.apache.rocketmq.remoting.exception.RemotingTimeoutException: wait response on the channel <192.168.3.100:9876> timeout, 3000(ms)',
      ...ROUTE_FRAMES,
    ]),
    order(t2, 'ERROR', 'RocketmqClient', 'ScheduledTask updateTopicRouteInfoFromNameServer exception', [
      'java.lang.IllegalStateException: org.apache.rocketmq.remoting.exception.RemotingTimeoutException: wait response on the channel <192.168.3.100:9876> timeout, 3000(ms)',
      '\tat org.apache.rocketmq.client.impl.factory.MQClientInstance.updateTopicRouteInfoFromNameServer(MQClientInstance.java:679)',
      'Caused by: org.apache.rocketmq.remoting.exception.RemotingTimeoutException: wait response on the channel <192.168.3.100:9876> timeout, 3000(ms)',
      ...ROUTE_FRAMES,
    ]),
  ].join(CRLF);
}
function orderSend(t: string, id: string) {
  return [
    order(t, 'WARN', 'RocketmqRemoting', `invokeSync: wait response timeout exception, the channel[${A}]`),
    order(t, 'WARN', 'RocketmqClient', `sendKernelImpl exception, resend at once, InvokeID: ${id}, RT: 3003ms, Broker: MessageQueue [topic=TopicOrder, brokerName=broker-a, queueId=3]`, [
      `org.apache.rocketmq.remoting.exception.RemotingTimeoutException: wait response on the channel <${A}> timeout, 2999(ms)`,
      ...SEND_FRAMES,
    ]),
  ].join(CRLF);
}
const orderStuck =
  [
    order('14:35:16,240', 'INFO', 'RocketmqRemoting', 'name server address updated. NEW : [192.168.3.101:9876, 192.168.3.100:9876] , OLD: null'),
    order('14:35:16,281', 'INFO', 'RocketmqRemoting', 'new name server is chosen. OLD: null , NEW: 192.168.3.100:9876. namesrvIndex = 413'),
    order('14:35:21,216', 'INFO', 'RocketmqClient', routeChanged('TopicOrder', null, BOTH)),
    orderSend('14:42:11,044', '-603156890667045130'),
    routePollTimeout('14:42:19,282', '14:42:19,283'),
    orderSend('14:43:40,386', '5406612685478464671'),
    orderSend('14:45:25,184', '-1369158040972938355'),
    routePollTimeout('14:45:49,283', '14:45:49,284'),
    orderSend('14:47:01,627', '6117816316155968024'),
    orderSend('14:48:40,739', '-4211457130224873574'),
    orderSend('14:50:20,300', '6531901564229664868'),
    orderSend('14:52:00,541', '-1901426527386610228'),
    routePollTimeout('14:52:49,281', '14:52:49,282'),
    orderSend('14:53:10,752', '-7694029894842893928'),
    order('14:53:46,281', 'INFO', 'RocketmqRemoting', 'new name server is chosen. OLD: 192.168.3.100:9876 , NEW: 192.168.3.101:9876. namesrvIndex = 414'),
    order('14:53:46,285', 'INFO', 'RocketmqClient', routeChanged('TopicOrder', BOTH, ONLY_B)),
  ].join(CRLF) + CRLF;

/** healthy-restart, app-shop-01 (4.9.4): two refused connections, retried, then the route drops broker-a. */
const shop = (time: string, level: string, logger: string, msg: string, stack: string[] = []) => rec4('2024-03-12', time, level, logger, msg, stack);
const SHOP_BOTH: Array<[string, string]> = [
  ['broker-b', '10.10.1.22:10911'],
  ['broker-a', '10.10.1.21:10911'],
];
function refused(t: string, id: string, q: number) {
  return [
    shop(t, 'WARN', 'RocketmqRemoting', 'createChannel: connect remote host[10.10.1.21:10911] failed, DefaultChannelPromise@4b02de49(failure: io.netty.channel.AbstractChannel$AnnotatedConnectException: Connection refused: /10.10.1.21:10911)', [
      'io.netty.channel.AbstractChannel$AnnotatedConnectException: Connection refused: /10.10.1.21:10911',
      'Caused by: java.net.ConnectException: Connection refused',
      '\tat sun.nio.ch.SocketChannelImpl.checkConnect(Native Method)',
    ]),
    shop(t, 'WARN', 'RocketmqClient', `sendKernelImpl exception, resend at once, InvokeID: ${id}, RT: 2ms, Broker: MessageQueue [topic=TopicShop, brokerName=broker-a, queueId=${q}]`, [
      'org.apache.rocketmq.remoting.exception.RemotingConnectException: connect to 10.10.1.21:10911 failed',
      '\tat org.apache.rocketmq.remoting.netty.NettyRemotingClient.invokeSync(NettyRemotingClient.java:407)',
    ]),
  ].join(CRLF);
}
const shopRestart =
  [
    shop('09:58:15,499', 'INFO', 'RocketmqClient', routeChanged('TopicShop', null, SHOP_BOTH)),
    refused('10:08:34,737', '1036259984630542365', 1),
    refused('10:08:40,359', '-1783098306099437639', 3),
    shop('10:08:42,352', 'INFO', 'RocketmqClient', routeChanged('TopicShop', SHOP_BOTH, [['broker-b', '10.10.1.22:10911']])),
  ].join(CRLF) + CRLF;

/** broker-busy: busy replies are answers from a live broker, not a stale route. */
const busy = (t: string, id: string, wait: number, size: number) =>
  rec4('2023-06-14', t, 'WARN', 'RocketmqClient', `sendKernelImpl exception, resend at once, InvokeID: ${id}, RT: 210ms, Broker: MessageQueue [topic=TopicFeed, brokerName=broker-b, queueId=2]`, [
    `org.apache.rocketmq.client.exception.MQBrokerException: CODE: 2  DESC: [TIMEOUT_CLEAN_QUEUE]broker busy, start flow control for a while, period in queue: ${wait}ms, size of queue: ${size} BROKER: 192.168.1.12:10911`,
    'For more information, please visit the url, http://rocketmq.apache.org/docs/faq/',
    '\tat org.apache.rocketmq.client.impl.MQClientAPIImpl.processSendResponse(MQClientAPIImpl.java:665)',
  ]);

/** 5.1.4 client (logback layout): the send warning prints `%s` literally, so only the exception names the broker. */
const stock = (time: string, level: string, thread: string, logger: string, msg: string) => `2024-03-12 ${time} ${level.padEnd(5)} [31234] [${thread}] [${logger}#?:?] - ${msg}`;
const stockRestart = [
  stock('10:00:46.823', 'INFO', 'stock-notify-3', 'o.a.r.c.i.f.MQClientInstance', routeChanged('TopicStock', null, SHOP_BOTH)),
  stock('10:08:35.514', 'WARN', 'stock-notify-1', 'o.a.r.c.i.p.DefaultMQProducerImpl', 'sendKernelImpl exception, resend at once, InvokeID: %s, RT: %sms, Broker: %s'),
  'org.apache.rocketmq.remoting.exception.RemotingConnectException: connect to 10.10.1.21:10911 failed',
  '\tat org.apache.rocketmq.remoting.netty.NettyRemotingClient.invokeSync(NettyRemotingClient.java:539)',
  stock('10:08:36.310', 'WARN', 'stock-notify-2', 'o.a.r.c.i.p.DefaultMQProducerImpl', 'sendKernelImpl exception, resend at once, InvokeID: %s, RT: %sms, Broker: %s'),
  'org.apache.rocketmq.remoting.exception.RemotingConnectException: connect to 10.10.1.21:10911 failed',
  '\tat org.apache.rocketmq.remoting.netty.NettyRemotingClient.invokeSync(NettyRemotingClient.java:539)',
  stock('10:08:41.811', 'INFO', 'MQClientFactoryScheduledThread', 'o.a.r.c.i.f.MQClientInstance', routeChanged('TopicStock', SHOP_BOTH, [['broker-b', '10.10.1.22:10911']])),
  '',
].join('\n');

ruleTester(rule, {
  valid: [
    { name: 'a planned restart: refused connections for 8 s, retried, dropped at the next poll', files: { 'app-shop-01/rocketmq_client.log': shopRestart } },
    {
      name: 'busy replies (TIMEOUT_CLEAN_QUEUE) for two minutes: the broker answers',
      files: {
        'app-feed-01/rocketmq_client.log':
          [busy('20:05:24,886', '301424260484553706', 203, 1168), busy('20:06:31,996', '6856767371248445035', 206, 2210), busy('20:07:33,444', '5673642378466090563', 204, 2703)].join(CRLF) + CRLF,
      },
    },
    {
      name: 'one timeout and nothing more (no stale window)',
      files: { 'app-pay-01/rocketmq_client.log': [...payStart, sendTimeout('14:42:03', '-7470542887386203873', 1)].join(CRLF) + CRLF },
    },
  ],
  invalid: [
    {
      name: 'the seed outage, app-pay-01: 143 s of timeouts until its route drops broker-a (within the bound)',
      files: { 'app-pay-01/rocketmq_client.log': payHang },
      findings: [
        {
          severity: 'warning',
          subject: { client: 'app-pay-01', broker: 'broker-a', brokerAddr: A },
          metrics: { staleMs: 143000, failures: 5, failedSends: 3, failedAttempts: 3, heartbeatFailures: 2, withinRoutingBound: true, boundMs: 160000 },
          evidence: ['app-pay-01/rocketmq_client.log:6'],
          start: '2020-12-22T14:42:03+08:00',
          end: '2020-12-22T14:44:26+08:00',
          mentions: ['within', 'broker-a'],
        },
      ],
    },
    {
      name: 'the seed outage, app-order-01: route polls time out, so the route is 11 min stale (beyond the bound)',
      files: { 'app-order-01/rocketmq_client.log': orderStuck },
      findings: [
        {
          severity: 'critical',
          subject: { client: 'app-order-01', broker: 'broker-a', brokerAddr: A },
          metrics: { staleMs: 695241, failures: 8, failedSends: 8, failedAttempts: 8, routePollFailures: 3, withinRoutingBound: false },
          start: '2020-12-22T14:42:11.044+08:00',
          end: '2020-12-22T14:53:46.285+08:00',
          mentions: ['namesrv-stuck', '192.168.3.100:9876', 'closeSocketIfTimeout'],
        },
      ],
    },
    {
      name: '--set brokerChannelExpiredMs=60000 shortens the bound: the same 143 s is now beyond it',
      files: { 'app-pay-01/rocketmq_client.log': payHang },
      set: ['brokerChannelExpiredMs=60000'],
      findings: [{ severity: 'critical', metrics: { staleMs: 143000, withinRoutingBound: false, boundMs: 100000 }, mentions: ['No NameServer removal'] }],
    },
    {
      name: '5.1.4 client: the broker is named from the route, the address from the exception (--set pollNameServerInterval=1000)',
      files: { 'app-stock-01/rocketmq_client.log': stockRestart },
      set: ['pollNameServerInterval=1000'],
      findings: [{ severity: 'warning', subject: { client: 'app-stock-01', broker: 'broker-a', brokerAddr: '10.10.1.21:10911' }, metrics: { staleMs: 6297, failures: 2, failedAttempts: 2, failedSends: 0, boundMs: 131000 } }],
    },
  ],
});
