// broker-register-failed: broker.log cases with the texts of server facts §6.2 (4.x and 5.x), the
// seed outage (broker-b cannot reach the hung NameServer) and the real fixtures 41 and 43.
import { readFileSync } from 'node:fs';
import rule from '../../src/rules/broker-register-failed.js';
import { ruleTester } from './rule-tester.js';
import { generatedFindings, labFindings } from './lab-findings.js';
import { expect, it } from 'vitest';

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
const refused5 = (t: string) =>
  s5(t, 'WARN', 'brokerOutApi_thread_3', 'createChannel: connect remote host[10.0.0.6:9876] failed, AbstractBootstrap$PendingRegistrationPromise@1aba9511(failure: io.netty.channel.AbstractChannel$AnnotatedConnectException: Connection refused: /10.0.0.6:9876)');
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
      // The RemotingConnectException alone (`connect to X failed`, NettyRemotingClient.invokeSync) does not
      // say whether the connect was refused or timed out: the finding does not either.
      name: '5.x: Failed to register current broker to name server, the connect failed and no line says how',
      files: { 'broker5/broker.log': broker5 },
      findings: [{ severity: 'warning', subject: { namesrvAddr: '10.0.0.6:9876' }, metrics: { failures: 2, windowMs: 30000, connectFailures: 2, otherNamesrvsOk: ['10.0.0.5:9876'] }, mentions: ['2 failed connections', 'does not say whether the connect was refused or timed out'] }],
    },
    {
      // remoting.log's createChannel line of the same connect says it was refused (the exception's text
      // as a 5.x broker logs it, AbstractChannel$AnnotatedConnectException).
      name: '5.x: the same failures, with the createChannel lines saying Connection refused',
      files: { 'broker5/broker.log': broker5, 'broker5/remoting.log': [refused5('14:03:17'), refused5('14:03:47'), ''].join('\n') },
      findings: [{ subject: { namesrvAddr: '10.0.0.6:9876' }, metrics: { connectFailures: 2 }, mentions: ['2 refused connections', 'nothing was listening'] }],
    },
  ],
});

// gen-715 (servers 5.1.4): broker-b cut off from the three NameServers. Its registration with
// 10.213.0.13 failed with `RemotingConnectException: connect to 10.213.0.13:9876 failed`, and the
// createChannel line of that connect in remoting.log says it timed out (`ConnectTimeoutException:
// connection timed out`): not a refusal, and not a hung NameServer (whose host completes connects).
// Its registrations with all three completed in the same second once the cut healed: those tell
// nothing of the NameServers answering while it failed.
it("gen-715: a registration whose connect timed out is called so, with the network among its causes, and the NameServers answered only after the heal are not said to have kept receiving it", async () => {
  const fs = await generatedFindings('gen-715', [rule]);
  const ns3 = fs.find((f) => f.subject.host === 'mq-broker-b' && f.subject.namesrvAddr === '10.213.0.13:9876')!;
  expect(ns3.title).toMatch(/\(1 connect timed out\)$/);
  expect(ns3.explanation).toContain('the network between dropped the packets');
  expect(ns3.explanation).not.toMatch(/nothing was listening|refused connection/);
  expect(ns3.metrics.otherNamesrvsOk).toEqual([]);
  expect(ns3.explanation).not.toContain('kept receiving its registrations');
  // The 24 s registration timeout with 10.213.0.12 came while connects to it timed out: the network is among its causes.
  const ns2 = fs.find((f) => f.subject.host === 'mq-broker-b' && f.subject.namesrvAddr === '10.213.0.12:9876')!;
  expect(ns2.title).toMatch(/\(1 timeout\)$/);
  expect(ns2.explanation).toContain('hung or overloaded, or the network between dropped the packets');
  expect(ns2.explanation).toContain('which a NameServer process hung or stopped on a live host does not cause');
});

// ns-hang-resume-5x: the NameServer on mq-ns-1 hung (its host's kernel kept completing connects), so
// the registrations timed out on open connections and no connect timed out: the reading stays a hang.
it('ns-hang-resume-5x: registrations that timed out on a hung NameServer, with no connect timed out, are read as a hung or overloaded NameServer', async () => {
  const fs = await labFindings('ns-hang-resume-5x', [rule]);
  expect(fs.length).toBeGreaterThan(0);
  for (const f of fs) {
    expect(f.explanation).toContain('hung or overloaded');
    expect(f.explanation).not.toContain('the network between dropped the packets');
  }
});

// gen-20261223 (4.6.1): broker-b resumed from a 150 s hang, found its channel to the NameServer broken
// (`send request to <ns> failed`) and registered OK in the same second: the NameServer answered.
it('gen-20261223: one failed registration answered again in the same second blames no NameServer', async () => {
  expect(await generatedFindings('gen-20261223', [rule])).toEqual([]);
});
