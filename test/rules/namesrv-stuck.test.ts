// namesrv-stuck: cases in the 4.x client layout with the texts of the seed outage sample
// (app-order-01, 4.8.0) and client facts §2.4-§2.5 (selection, invokeSync timeout handling).
import rule from '../../src/rules/namesrv-stuck.js';
import { ruleTester } from './rule-tester.js';

const CRLF = '\r\n';
const rec = (time: string, level: string, logger: string, msg: string, stack: string[] = []) =>
  [`2020-12-22 ${time} ${level} ${logger} - ${msg}`, ...stack, ...(stack.length ? [''] : [])].join(CRLF);

const NS100 = '192.168.3.100:9876';
const NS101 = '192.168.3.101:9876';
const ROUTE_FRAMES = [
  '\tat org.apache.rocketmq.remoting.netty.NettyRemotingAbstract.invokeSyncImpl(NettyRemotingAbstract.java:436)',
  '\tat org.apache.rocketmq.remoting.netty.NettyRemotingClient.invokeSync(NettyRemotingClient.java:377)',
  '\tat org.apache.rocketmq.client.impl.MQClientAPIImpl.getTopicRouteInfoFromNameServer(MQClientAPIImpl.java:1363)',
  '\tat org.apache.rocketmq.client.impl.factory.MQClientInstance.updateTopicRouteInfoFromNameServer(MQClientInstance.java:614)',
];

const clientInstance = (ip: string, pid: number, version: string) =>
  `Created a new client Instance, InstanceIndex:0, ClientID:${ip}@${pid}, ClientConfig:ClientConfig [namesrvAddr=${NS100};${NS101}, clientIP=${ip}, instanceName=${pid}, clientCallbackExecutorThreads=8, pollNameServerInterval=30000, heartbeatBrokerInterval=30000, persistConsumerOffsetInterval=5000, pullTimeDelayMillsWhenException=1000, unitMode=false, unitName=null, vipChannelEnabled=false, useTLS=false, language=JAVA, namespace=null], ClientVersion:${version}, SerializerType:JSON`;

/** One failed route poll: the channel[null] warning, the per-topic ERROR and the ScheduledTask ERROR. */
function poll(t: string, t2: string, ns = NS100) {
  return [
    rec(t, 'WARN', 'RocketmqRemoting', 'invokeSync: wait response timeout exception, the channel[null]'),
    rec(t, 'ERROR', 'RocketmqClient', 'updateTopicRouteInfoFromNameServer Exception', [
      `org.apache.rocketmq.remoting.exception.RemotingTimeoutException: wait response on the channel <${ns}> timeout, 3000(ms)`,
      ...ROUTE_FRAMES,
    ]),
    rec(t2, 'ERROR', 'RocketmqClient', 'ScheduledTask updateTopicRouteInfoFromNameServer exception', [
      `java.lang.IllegalStateException: org.apache.rocketmq.remoting.exception.RemotingTimeoutException: wait response on the channel <${ns}> timeout, 3000(ms)`,
      '\tat org.apache.rocketmq.client.impl.factory.MQClientInstance.updateTopicRouteInfoFromNameServer(MQClientInstance.java:679)',
      `Caused by: org.apache.rocketmq.remoting.exception.RemotingTimeoutException: wait response on the channel <${ns}> timeout, 3000(ms)`,
      ...ROUTE_FRAMES,
    ]),
  ].join(CRLF);
}

const start480 = [
  rec('14:35:16,240', 'INFO', 'RocketmqRemoting', `name server address updated. NEW : [${NS101}, ${NS100}] , OLD: null`),
  rec('14:35:16,243', 'INFO', 'RocketmqClient', clientInstance('192.168.3.21', 23817, 'V4_8_0')),
  rec('14:35:16,281', 'INFO', 'RocketmqRemoting', `new name server is chosen. OLD: null , NEW: ${NS100}. namesrvIndex = 413`),
];

/** app-order-01 of the seed outage, shortened: three polls time out, the host comes back, the client switches. */
const stuck480 =
  [
    ...start480,
    poll('14:42:19,282', '14:42:19,283'),
    poll('14:42:49,283', '14:42:49,284'),
    poll('14:43:19,281', '14:43:19,282'),
    rec('14:53:40,214', 'WARN', 'RocketmqRemoting', `NETTY CLIENT PIPELINE: exceptionCaught ${NS100}`),
    rec('14:53:40,214', 'WARN', 'RocketmqRemoting', 'NETTY CLIENT PIPELINE: exceptionCaught exception.', [
      'java.io.IOException: Connection reset by peer',
      '\tat sun.nio.ch.FileDispatcherImpl.read0(Native Method)',
    ]),
    rec('14:53:40,215', 'INFO', 'RocketmqRemoting', `closeChannel: the channel[${NS100}] was removed from channel table`),
    rec('14:53:40,215', 'INFO', 'RocketmqRemoting', `NETTY CLIENT PIPELINE: CLOSE ${NS100}`),
    rec('14:53:40,216', 'INFO', 'RocketmqRemoting', `closeChannel: close the connection to remote address[${NS100}] result: true`),
    rec('14:53:46,281', 'INFO', 'RocketmqRemoting', `new name server is chosen. OLD: ${NS100} , NEW: ${NS101}. namesrvIndex = 414`),
  ].join(CRLF) + CRLF;

/** A 4.6.0 client (the millisecond field repeats the seconds) whose polls time out until the logs end. */
const rec46 = (time: string, level: string, logger: string, msg: string, stack: string[] = []) => rec(`${time},0${time.slice(6)}`, level, logger, msg, stack);
const never460 =
  [
    rec46('14:35:26', 'INFO', 'RocketmqRemoting', `name server address updated. NEW : [${NS100}, ${NS101}] , OLD: null`),
    rec46('14:35:26', 'INFO', 'RocketmqClient', clientInstance('192.168.3.22', 17342, 'V4_6_0')),
    rec46('14:35:26', 'INFO', 'RocketmqRemoting', `new name server is chosen. OLD: null , NEW: ${NS100}. namesrvIndex = 88`),
    rec46('14:42:26', 'WARN', 'RocketmqRemoting', 'invokeSync: wait response timeout exception, the channel[null]'),
    rec46('14:42:26', 'ERROR', 'RocketmqClient', 'updateTopicRouteInfoFromNameServer Exception', [
      `org.apache.rocketmq.remoting.exception.RemotingTimeoutException: wait response on the channel <${NS100}> timeout, 3000(ms)`,
      ...ROUTE_FRAMES,
    ]),
    rec46('14:42:56', 'WARN', 'RocketmqRemoting', 'invokeSync: wait response timeout exception, the channel[null]'),
    rec46('14:42:56', 'ERROR', 'RocketmqClient', 'updateTopicRouteInfoFromNameServer Exception', [
      `org.apache.rocketmq.remoting.exception.RemotingTimeoutException: wait response on the channel <${NS100}> timeout, 3000(ms)`,
      ...ROUTE_FRAMES,
    ]),
  ].join(CRLF) + CRLF;

/** 4.9.4 closes the channel on timeout (client facts §2.5 step 4), so the next poll picks the other NameServer. */
const closes494 =
  [
    rec('14:35:16,240', 'INFO', 'RocketmqRemoting', `name server address updated. NEW : [${NS101}, ${NS100}] , OLD: null`),
    rec('14:35:16,243', 'INFO', 'RocketmqClient', clientInstance('192.168.3.23', 4711, 'V4_9_4')),
    rec('14:35:16,281', 'INFO', 'RocketmqRemoting', `new name server is chosen. OLD: null , NEW: ${NS100}. namesrvIndex = 413`),
    rec('14:42:19,281', 'INFO', 'RocketmqRemoting', `closeChannel: the channel[${NS100}] was removed from channel table`),
    rec('14:42:19,281', 'WARN', 'RocketmqRemoting', 'invokeSync: close socket because of timeout, 3000ms, null'),
    poll('14:42:19,282', '14:42:19,283'),
    rec('14:42:49,280', 'INFO', 'RocketmqRemoting', `new name server is chosen. OLD: ${NS100} , NEW: ${NS101}. namesrvIndex = 414`),
  ].join(CRLF) + CRLF;

const single =
  [
    rec('14:35:16,240', 'INFO', 'RocketmqRemoting', `name server address updated. NEW : [${NS100}] , OLD: null`),
    rec('14:35:16,281', 'INFO', 'RocketmqRemoting', `new name server is chosen. OLD: null , NEW: ${NS100}. namesrvIndex = 413`),
    poll('14:42:19,282', '14:42:19,283'),
    poll('14:42:49,283', '14:42:49,284'),
    poll('14:43:19,281', '14:43:19,282'),
  ].join(CRLF) + CRLF;

ruleTester(rule, {
  valid: [
    { name: 'a 4.9.4 client closes the timed-out channel and moves on after one timeout', files: { 'app-order-02/rocketmq_client.log': closes494 } },
    { name: 'only one NameServer is configured: nothing to switch to', files: { 'app-order-03/rocketmq_client.log': single } },
    { name: '--set minTimeouts=5: three timeouts are not enough', files: { 'app-order-01/rocketmq_client.log': stuck480 }, set: ['minTimeouts=5'] },
    {
      name: 'TBW102 route misses (CODE: 17) are answers, not timeouts',
      files: {
        'app-x/rocketmq_client.log':
          [
            rec('10:34:33,101', 'WARN', 'RocketmqClient', 'updateTopicRouteInfoFromNameServer Exception', [
              'org.apache.rocketmq.client.exception.MQClientException: CODE: 17  DESC: No topic route info in name server for the topic: TBW102',
              '\tat org.apache.rocketmq.client.impl.MQClientAPIImpl.getTopicRouteInfoFromNameServer(MQClientAPIImpl.java:1363)',
            ]),
            rec('10:35:03,102', 'WARN', 'RocketmqClient', 'updateTopicRouteInfoFromNameServer Exception', [
              'org.apache.rocketmq.client.exception.MQClientException: CODE: 17  DESC: No topic route info in name server for the topic: TBW102',
              '\tat org.apache.rocketmq.client.impl.MQClientAPIImpl.getTopicRouteInfoFromNameServer(MQClientAPIImpl.java:1363)',
            ]),
          ].join(CRLF) + CRLF,
      },
    },
  ],
  invalid: [
    {
      name: 'the seed outage: a 4.8.0 client stays on the hung NameServer until the reset, then switches',
      files: { 'app-order-01/rocketmq_client.log': stuck480 },
      findings: [
        {
          severity: 'critical',
          subject: { client: 'app-order-01', namesrvAddr: NS100 },
          metrics: { timeouts: 3, stuckMs: 686999, namesrvAddr: NS100, switchedTo: NS101, clientVersion: '4.8.0', closeSocketIfTimeout: false },
          start: '2020-12-22T14:42:19.282+08:00',
          end: '2020-12-22T14:53:46.281+08:00',
          evidence: ['app-order-01/rocketmq_client.log:5'],
          mentions: ['Upgrade app-order-01 (client 4.8.0) to 4.9.1', 'no setting changes that', NS101, 'broker hosts', '14:53:40'],
          // Before 4.9.1 the system property does not exist (NettySystemConfig reads it from 4.9.1).
          adviceOmits: ['start it with -Dcom.rocketmq.remoting.client.closeSocketIfTimeout=true'],
        },
      ],
    },
    {
      name: 'a 4.6.0 client never leaves the NameServer within the logs',
      files: { 'app-pay-02/rocketmq_client.log': never460 },
      findings: [{ severity: 'critical', metrics: { timeouts: 2, stuckMs: 30000, switchedTo: null, clientVersion: '4.6.0', closeSocketIfTimeout: false }, mentions: ['never switched'] }],
    },
  ],
});
