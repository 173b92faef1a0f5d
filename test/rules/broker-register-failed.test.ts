// broker-register-failed: broker.log cases with the texts of server facts §6.2 (4.x and 5.x), the
// seed outage (broker-b cannot reach the hung NameServer) and the real fixtures 41 and 43.
import { readFileSync } from 'node:fs';
import rule from '../../src/rules/broker-register-failed.js';
import { ruleTester } from './rule-tester.js';

const srv = (day: string) => (time: string, level: string, thread: string, msg: string) => `${day} ${time} ${level} ${thread} - ${msg}`;
const s = srv('2020-12-22');
const fixture = (name: string) => readFileSync(new URL(`../fixtures/real/${name}`, import.meta.url), 'utf8');

const FRAMES = [
  '\tat org.apache.rocketmq.remoting.netty.NettyRemotingAbstract.invokeSyncImpl(NettyRemotingAbstract.java:436) ~[rocketmq-remoting-4.8.0.jar:4.8.0]',
  '\tat org.apache.rocketmq.remoting.netty.NettyRemotingClient.invokeSync(NettyRemotingClient.java:377) ~[rocketmq-remoting-4.8.0.jar:4.8.0]',
  '\tat org.apache.rocketmq.broker.out.BrokerOuterAPI.registerBroker(BrokerOuterAPI.java:193) ~[rocketmq-broker-4.8.0.jar:4.8.0]',
];
const ok = (t: string, ns: string) => s(t, 'INFO', 'brokerOutApi_thread_1', `register broker[0]to name server ${ns} OK`);
const timeout = (t: string) => [s(t, 'WARN', 'brokerOutApi_thread_2', 'registerBroker Exception, 192.168.3.100:9876'), 'org.apache.rocketmq.remoting.exception.RemotingTimeoutException: wait response on the channel <192.168.3.100:9876> timeout, 6000(ms)', ...FRAMES].join('\n');
const refused = (t: string) =>
  [
    s(t, 'WARN', 'brokerOutApi_thread_2', 'registerBroker Exception, 192.168.3.100:9876'),
    'org.apache.rocketmq.remoting.exception.RemotingConnectException: connect to 192.168.3.100:9876 failed',
    '\tat org.apache.rocketmq.remoting.netty.NettyRemotingClient.invokeSync(NettyRemotingClient.java:394) ~[rocketmq-remoting-4.8.0.jar:4.8.0]',
  ].join('\n');

/** seed outage, mq-node-101/broker.log, shortened: registrations to 192.168.3.100 fail for 3 minutes, then work again. */
const seedB = [
  s('14:30:02', 'INFO', 'main', 'The broker[broker-b, 192.168.3.101:10911] boot success. serializeType=JSON and name server is 192.168.3.100:9876;192.168.3.101:9876'),
  ok('14:41:42', '192.168.3.100:9876'),
  ok('14:41:42', '192.168.3.101:9876'),
  ok('14:42:12', '192.168.3.101:9876'),
  timeout('14:42:18'),
  ok('14:42:42', '192.168.3.101:9876'),
  timeout('14:42:48'),
  ok('14:43:12', '192.168.3.101:9876'),
  timeout('14:43:18'),
  ok('14:43:42', '192.168.3.101:9876'),
  timeout('14:43:48'),
  ok('14:44:12', '192.168.3.101:9876'),
  timeout('14:44:18'),
  ok('14:44:42', '192.168.3.101:9876'),
  refused('14:44:48'),
  ok('14:45:12', '192.168.3.101:9876'),
  ok('14:45:12', '192.168.3.100:9876'),
  '',
].join('\n');

/** 5.x broker: `Failed to register current broker to name server. TargetHost=...` (ERROR + stack). */
const s5 = srv('2024-05-20');
const fail5 = (t: string) =>
  [
    s5(t, 'ERROR', 'brokerOutApi_thread_3', 'Failed to register current broker to name server. TargetHost=10.0.0.6:9876'),
    'org.apache.rocketmq.remoting.exception.RemotingConnectException: connect to 10.0.0.6:9876 failed',
    '\tat org.apache.rocketmq.remoting.netty.NettyRemotingClient.invokeSync(NettyRemotingClient.java:539) ~[rocketmq-remoting-5.3.3.jar:5.3.3]',
  ].join('\n');
const broker5 = [
  s5('14:03:17', 'INFO', 'brokerOutApi_thread_2', 'Registering current broker to name server completed. TargetHost=10.0.0.5:9876'),
  fail5('14:03:17'),
  s5('14:03:47', 'INFO', 'brokerOutApi_thread_2', 'Registering current broker to name server completed. TargetHost=10.0.0.5:9876'),
  fail5('14:03:47'),
  '',
].join('\n');

ruleTester(rule, {
  valid: [
    { name: 'every registration succeeds', files: { 'mq-node-101/broker.log': [ok('14:41:42', '192.168.3.100:9876'), ok('14:41:42', '192.168.3.101:9876'), ok('14:42:12', '192.168.3.101:9876'), ''].join('\n') } },
    { name: 'real 43: the broker keeps registering after a namesrvAddr update', files: { 'broker-43/broker.log': fixture('43-broker-update-namesrvaddr-register-ok.log') } },
    {
      name: '5.x summary lines name no NameServer and are not counted',
      files: { 'broker5/broker.log': s5('14:03:41', 'WARN', 'BrokerControllerScheduledThread1', 'Registration to one or more name servers does NOT complete within deadline. Timeout threshold: 24000ms') + '\n' },
    },
  ],
  invalid: [
    {
      name: 'real 41: one registerBroker timeout to a NameServer given by host name',
      files: { 'broker-41/broker.log': fixture('41-broker-registerbroker-exception-hostname-channel.log') },
      findings: [
        {
          severity: 'warning',
          subject: { host: 'broker-41', namesrvAddr: 'rocketmq-namesrv-prod01.cloud.bz:9876' },
          metrics: { failures: 1, windowMs: 0, timeouts: 1, connectFailures: 0, recovered: false },
          evidence: ['broker-41/broker.log:1', 'broker-41/broker.log:2'],
          mentions: ['did not answer'],
        },
      ],
    },
    {
      name: 'seed outage: broker-b cannot register with the hung NameServer for 2.5 minutes, the other NameServer still has it',
      files: { 'mq-node-101/broker.log': seedB },
      findings: [
        {
          severity: 'error',
          subject: { host: 'mq-node-101', namesrvAddr: '192.168.3.100:9876', broker: 'broker-b', brokerAddr: '192.168.3.101:10911' },
          metrics: { failures: 6, windowMs: 150000, timeouts: 5, connectFailures: 1, otherNamesrvsOk: ['192.168.3.101:9876'], recovered: true },
          start: '2020-12-22T14:42:18+08:00',
          end: '2020-12-22T14:44:48+08:00',
          mentions: ['192.168.3.101:9876 kept receiving', 'dropped broker-b'],
        },
      ],
    },
    {
      name: '--set brokerChannelExpiredMs=200000: the same failures stay a warning',
      files: { 'mq-node-101/broker.log': seedB },
      set: ['brokerChannelExpiredMs=200000'],
      findings: [{ severity: 'warning', metrics: { failures: 6 } }],
    },
    {
      name: '5.x: Failed to register current broker to name server, refused',
      files: { 'broker5/broker.log': broker5 },
      findings: [{ severity: 'warning', subject: { namesrvAddr: '10.0.0.6:9876' }, metrics: { failures: 2, windowMs: 30000, connectFailures: 2, otherNamesrvsOk: ['10.0.0.5:9876'] }, mentions: ['nothing was listening'] }],
    },
  ],
});
