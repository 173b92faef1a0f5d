// broker-down-detection: namesrv.log / broker.log cases with the exact texts of server facts §6-§7
// (4.9.8 and 5.3.3 RouteInfoManager, NettyRemotingServer pipeline lines) and the bundled samples.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import rule from '../../src/rules/broker-down-detection.js';
import { generatedFindings, generatedTruth } from './lab-findings.js';
import { ruleTester } from './rule-tester.js';

const srv = (day: string) => (time: string, level: string, thread: string, msg: string) => `${day} ${time} ${level} ${thread} - ${msg}`;
const s20 = srv('2020-12-22');

/** broker-a on mq-node-100 (4.8.0): boot line and registrations every 30 s, the last at 14:41:58. */
const brokerA = [
  s20('14:35:28', 'INFO', 'main', 'The broker[broker-a, 192.168.3.100:10911] boot success. serializeType=JSON and name server is 192.168.3.100:9876;192.168.3.101:9876'),
  s20('14:41:28', 'INFO', 'brokerOutApi_thread_1', 'register broker[0]to name server 192.168.3.100:9876 OK'),
  s20('14:41:28', 'INFO', 'brokerOutApi_thread_2', 'register broker[0]to name server 192.168.3.101:9876 OK'),
  s20('14:41:58', 'INFO', 'brokerOutApi_thread_4', 'register broker[0]to name server 192.168.3.100:9876 OK'),
  s20('14:41:58', 'INFO', 'brokerOutApi_thread_3', 'register broker[0]to name server 192.168.3.101:9876 OK'),
  '',
].join('\n');

/** broker-b on mq-node-101, the NameServer's host: its boot line tells the host's address. */
const brokerB = [
  s20('14:30:02', 'INFO', 'main', 'The broker[broker-b, 192.168.3.101:10911] boot success. serializeType=JSON and name server is 192.168.3.100:9876;192.168.3.101:9876'),
  s20('14:41:42', 'INFO', 'brokerOutApi_thread_1', 'register broker[0]to name server 192.168.3.101:9876 OK'),
  '',
].join('\n');

/** seed-outage, mq-node-101/namesrv.log: the 4.x scan expiry (no "the broker's channel destroyed" line). */
const scanExpiry = [
  s20('14:35:26', 'INFO', 'NettyServerCodecThread_8', 'NETTY SERVER PIPELINE: channelRegistered 192.168.3.22:53026'),
  s20('14:35:26', 'INFO', 'NettyServerCodecThread_8', 'NETTY SERVER PIPELINE: channelActive, the channel[192.168.3.22:53026]'),
  s20('14:44:05', 'WARN', 'NSScheduledThread1', 'The broker channel expired, 192.168.3.100:10911 120000ms'),
  s20('14:44:05', 'INFO', 'NSScheduledThread1', 'remove brokerAddr[0, 192.168.3.100:10911] from brokerAddrTable, because channel destroyed'),
  s20('14:44:05', 'INFO', 'NSScheduledThread1', 'remove brokerName[broker-a] from brokerAddrTable, because channel destroyed'),
  s20('14:44:05', 'INFO', 'NSScheduledThread1', 'remove brokerName[broker-a], clusterName[DefaultCluster] from clusterAddrTable, because channel destroyed'),
  s20('14:44:05', 'INFO', 'NettyServerNIOSelector_3_1', 'closeChannel: close the connection to remote address[192.168.3.100:40126] result: true'),
  s20('14:44:05', 'INFO', 'NettyServerCodecThread_2', 'NETTY SERVER PIPELINE: channelInactive, the channel[192.168.3.100:40126]'),
  s20('14:44:05', 'INFO', 'NettyServerCodecThread_2', 'NETTY SERVER PIPELINE: channelUnregistered, the channel[192.168.3.100:40126]'),
  '',
].join('\n');

/**
 * The same hang with the default serverChannelMaxIdleTimeSeconds=120 (server facts §7.3-§7.4): the idle
 * handler closes the silent channel 120 s after the last read and the NameServer logs the channel as
 * destroyed, a few seconds before its scan would have expired it.
 */
const idleExpiry = [
  s20('14:43:58', 'WARN', 'NettyServerCodecThread_2', 'NETTY SERVER PIPELINE: IDLE exception [192.168.3.100:40126]'),
  s20('14:43:58', 'INFO', 'NettyServerNIOSelector_3_1', 'closeChannel: close the connection to remote address[192.168.3.100:40126] result: true'),
  s20('14:43:58', 'INFO', 'NettyServerCodecThread_2', 'NETTY SERVER PIPELINE: channelInactive, the channel[192.168.3.100:40126]'),
  s20('14:43:58', 'INFO', 'NettyEventExecutor', "the broker's channel destroyed, 192.168.3.100:10911, clean it's data structure at once"),
  s20('14:43:58', 'INFO', 'NettyEventExecutor', 'remove brokerAddr[0, 192.168.3.100:10911] from brokerAddrTable, because channel destroyed'),
  s20('14:43:58', 'INFO', 'NettyEventExecutor', 'remove brokerName[broker-a] from brokerAddrTable, because channel destroyed'),
  s20('14:43:58', 'INFO', 'NettyServerCodecThread_2', 'NETTY SERVER PIPELINE: channelUnregistered, the channel[192.168.3.100:40126]'),
  '',
].join('\n');

/** A crash or kill: the broker's side closes the connection, the NameServer drops the broker at once. */
const crash = [
  s20('14:42:05', 'INFO', 'NettyServerCodecThread_2', 'NETTY SERVER PIPELINE: channelInactive, the channel[192.168.3.100:40126]'),
  s20('14:42:05', 'INFO', 'NettyServerCodecThread_2', 'NETTY SERVER PIPELINE: channelUnregistered, the channel[192.168.3.100:40126]'),
  s20('14:42:05', 'INFO', 'NettyEventExecutor', "the broker's channel destroyed, 192.168.3.100:10911, clean it's data structure at once"),
  s20('14:42:05', 'INFO', 'NettyEventExecutor', 'remove brokerAddr[0, 192.168.3.100:10911] from brokerAddrTable, because channel destroyed'),
  s20('14:42:05', 'INFO', 'NettyEventExecutor', 'remove brokerName[broker-a] from brokerAddrTable, because channel destroyed'),
  '',
].join('\n');

/** healthy-restart, mq-ns-1/namesrv.log (4.9.4): graceful unregistration. */
const s24 = srv('2024-03-12');
const graceful = [
  s24('10:08:21', 'INFO', 'RemotingExecutorThread_7', 'cluster [DefaultCluster] brokerName [broker-a] master address change from 10.10.1.21:10911 to 10.10.1.21:10911'),
  s24('10:08:32', 'INFO', 'RemotingExecutorThread_2', 'unregisterBroker, remove from brokerLiveTable OK, 10.10.1.21:10911'),
  s24('10:08:32', 'INFO', 'RemotingExecutorThread_2', 'unregisterBroker, remove addr from brokerAddrTable OK, 10.10.1.21:10911'),
  s24('10:08:32', 'INFO', 'RemotingExecutorThread_2', 'unregisterBroker, remove name from brokerAddrTable OK, broker-a'),
  s24('10:08:32', 'INFO', 'RemotingExecutorThread_2', 'unregisterBroker, remove name from clusterAddrTable OK, broker-a'),
  s24('10:08:32', 'INFO', 'NettyServerCodecThread_7', 'NETTY SERVER PIPELINE: channelInactive, the channel[10.10.1.21:58149]'),
  '',
].join('\n');
const brokerAHealthy = [
  s24('10:08:21', 'INFO', 'brokerOutApi_thread_4', 'register broker[0]to name server 10.10.1.11:9876 OK'),
  s24('10:08:21', 'INFO', 'brokerOutApi_thread_4', 'register broker[0]to name server 10.10.1.12:9876 OK'),
  s24('10:08:30', 'INFO', 'ShutdownHook', 'Shutdown hook was invoked, 1'),
  s24('10:08:32', 'INFO', 'ShutdownHook', 'unregisterBroker OK, NamesrvAddr: 10.10.1.11:9876'),
  s24('10:08:32', 'INFO', 'ShutdownHook', 'unregisterBroker OK, NamesrvAddr: 10.10.1.12:9876'),
  s24('10:08:32', 'INFO', 'ShutdownHook', 'Shutdown hook over, consuming total time(ms): 2126'),
  s24('10:09:13', 'INFO', 'main', 'The broker[broker-a, 10.10.1.21:10911] boot success. serializeType=JSON and name server is 10.10.1.11:9876;10.10.1.12:9876'),
  '',
].join('\n');

/** 5.3.x NameServer: an idle channel, then the asynchronous unregistration of the BatchUnregistrationService. */
const s5 = srv('2024-05-20');
const idle5 = [
  s5('14:03:17', 'INFO', 'NettyServerCodecThread_1', 'NETTY SERVER PIPELINE: channelActive, the channel[10.0.0.1:53412]'),
  s5('14:03:17', 'INFO', 'ClientRequestExecutorThread_1', 'new broker registered, BrokerIdentityInfo [clusterName=DefaultCluster, brokerAddr=10.0.0.1:10911] HAService: 10.0.0.1:10912'),
  s5('14:08:05', 'INFO', 'NSScanScheduledThread', 'start scanNotActiveBroker'),
  s5('14:08:07', 'WARN', 'NettyServerCodecThread_3', 'NETTY SERVER PIPELINE: IDLE exception [10.0.0.1:53412]'),
  s5(
    '14:08:07',
    'INFO',
    'NettyEventExecutor',
    "the broker's channel destroyed, submit the unregister request at once, broker info: org.apache.rocketmq.remoting.protocol.header.namesrv.UnRegisterBrokerRequestHeader@6d06d69c, submit result: true",
  ),
  s5('14:08:07', 'INFO', 'NettyServerCodecThread_3', 'NETTY SERVER PIPELINE: channelInactive, the channel[10.0.0.1:53412]'),
  s5('14:08:07', 'INFO', 'org.apache.rocketmq.namesrv.routeinfo.BatchUnregistrationService', 'unregisterBroker, remove from brokerLiveTable OK, BrokerIdentityInfo [clusterName=DefaultCluster, brokerAddr=10.0.0.1:10911]'),
  s5('14:08:07', 'INFO', 'org.apache.rocketmq.namesrv.routeinfo.BatchUnregistrationService', 'unregisterBroker, remove addr from brokerAddrTable OK, BrokerIdentityInfo [clusterName=DefaultCluster, brokerAddr=10.0.0.1:10911]'),
  s5('14:08:07', 'INFO', 'org.apache.rocketmq.namesrv.routeinfo.BatchUnregistrationService', 'unregisterBroker, remove name from brokerAddrTable OK, broker-a'),
  '',
].join('\n');
const broker5 = [
  s5('14:03:17', 'INFO', 'main', 'The broker[broker-a, 10.0.0.1:10911] boot success. serializeType=JSON and name server is 10.0.0.5:9876'),
  s5('14:05:47', 'INFO', 'brokerOutApi_thread_2', 'Registering current broker to name server completed. TargetHost=10.0.0.5:9876'),
  '',
].join('\n');

/**
 * broker-a kept running while NameServer 192.168.3.101 heard nothing from it: its registrations to
 * 192.168.3.100 went on every 30 s, those to 192.168.3.101 timed out (4.9.4 BrokerOuterAPI logs
 * `registerBroker Exception, <namesrv>` with the RemotingTimeoutException).
 */
const brokerARunning = [
  s20('14:35:28', 'INFO', 'main', 'The broker[broker-a, 192.168.3.100:10911] boot success. serializeType=JSON and name server is 192.168.3.100:9876;192.168.3.101:9876'),
  s20('14:41:58', 'INFO', 'brokerOutApi_thread_4', 'register broker[0]to name server 192.168.3.100:9876 OK'),
  s20('14:41:58', 'INFO', 'brokerOutApi_thread_3', 'register broker[0]to name server 192.168.3.101:9876 OK'),
  s20('14:42:28', 'INFO', 'brokerOutApi_thread_1', 'register broker[0]to name server 192.168.3.100:9876 OK'),
  s20('14:42:34', 'WARN', 'brokerOutApi_thread_2', 'registerBroker Exception, 192.168.3.101:9876'),
  'org.apache.rocketmq.remoting.exception.RemotingTimeoutException: wait response on the channel <192.168.3.101:9876> timeout, 6000(ms)',
  '\tat org.apache.rocketmq.remoting.netty.NettyRemotingAbstract.invokeSyncImpl(NettyRemotingAbstract.java:427) ~[rocketmq-remoting-4.9.4.jar:4.9.4]',
  s20('14:42:58', 'INFO', 'brokerOutApi_thread_3', 'register broker[0]to name server 192.168.3.100:9876 OK'),
  s20('14:43:28', 'INFO', 'brokerOutApi_thread_4', 'register broker[0]to name server 192.168.3.100:9876 OK'),
  s20('14:43:58', 'INFO', 'brokerOutApi_thread_1', 'register broker[0]to name server 192.168.3.100:9876 OK'),
  '',
].join('\n');

/** broker-a registers again 3 s after the NameServer saw its channel close, with no boot: the same process. */
const brokerAReRegisters = [
  s20('14:35:28', 'INFO', 'main', 'The broker[broker-a, 192.168.3.100:10911] boot success. serializeType=JSON and name server is 192.168.3.100:9876;192.168.3.101:9876'),
  s20('14:41:58', 'INFO', 'brokerOutApi_thread_3', 'register broker[0]to name server 192.168.3.101:9876 OK'),
  s20('14:42:08', 'INFO', 'brokerOutApi_thread_4', 'register broker[0]to name server 192.168.3.101:9876 OK'),
  '',
].join('\n');

/** broker-a killed at 14:42:05 and started again: its first registration comes with the boot of a new process. */
const brokerARestarted = [
  s20('14:35:28', 'INFO', 'main', 'The broker[broker-a, 192.168.3.100:10911] boot success. serializeType=JSON and name server is 192.168.3.100:9876;192.168.3.101:9876'),
  s20('14:41:58', 'INFO', 'brokerOutApi_thread_3', 'register broker[0]to name server 192.168.3.101:9876 OK'),
  s20('14:42:19', 'INFO', 'brokerOutApi_thread_1', 'register broker[0]to name server 192.168.3.101:9876 OK'),
  s20('14:42:19', 'INFO', 'main', 'The broker[broker-a, 192.168.3.100:10911] boot success. serializeType=JSON and name server is 192.168.3.100:9876;192.168.3.101:9876'),
  '',
].join('\n');

/**
 * broker-a's shutdown hook runs 5 s after the NameServer saw its channel close, then a new process
 * boots (gen-710's slave: the channel closed when the NameServer resumed from a hang; the planned
 * restart came after): the process that ran the hook was alive at the close.
 */
const brokerAShutsDownAfter = [
  s20('14:35:28', 'INFO', 'main', 'The broker[broker-a, 192.168.3.100:10911] boot success. serializeType=JSON and name server is 192.168.3.100:9876;192.168.3.101:9876'),
  s20('14:41:58', 'INFO', 'brokerOutApi_thread_3', 'register broker[0]to name server 192.168.3.101:9876 OK'),
  s20('14:42:10', 'INFO', 'ShutdownHook', 'Shutdown hook was invoked, 1'),
  s20('14:42:40', 'INFO', 'main', 'The broker[broker-a, 192.168.3.100:10911] boot success. serializeType=JSON and name server is 192.168.3.100:9876;192.168.3.101:9876'),
  s20('14:42:40', 'INFO', 'brokerOutApi_thread_1', 'register broker[0]to name server 192.168.3.101:9876 OK'),
  '',
].join('\n');

/** The same shutdown hook in the close's own second: it may be what closed the channel, so it says nothing of the process before. */
const brokerAShutsDownThen = brokerAShutsDownAfter.replace('14:42:10', '14:42:05');

const fixture = (name: string) => readFileSync(new URL(`../fixtures/real/${name}`, import.meta.url), 'utf8');

ruleTester(rule, {
  valid: [
    {
      name: 'a NameServer that only sees registrations and client channels',
      files: { 'mq-ns-1/namesrv.log': graceful.split('\n').slice(0, 1).join('\n') + '\n', 'mq-node-101/namesrv.log': scanExpiry.split('\n').slice(0, 2).join('\n') + '\n' },
    },
    { name: 'real 45: a NameServer boot and a new broker, nothing removed', files: { 'ns/namesrv.log': fixture('45-namesrv-log-new-broker-registered-ha-mismatch.log') } },
    { name: "real 39: the NameServer's own client channel idles out: no broker is removed", files: { 'ns/namesrv.log': fixture('39-namesrv-wsl-idle-close-reconnect.log') } },
  ],
  invalid: [
    {
      name: 'seed outage: NameServer 192.168.3.101 expires broker-a by its scan, 127 s after the last heartbeat',
      files: { 'mq-node-101/namesrv.log': scanExpiry, 'mq-node-100/broker.log': brokerA, 'mq-node-101/broker.log': brokerB },
      findings: [
        {
          severity: 'error',
          subject: { host: 'mq-node-101', broker: 'broker-a', brokerAddr: '192.168.3.100:10911', namesrvAddr: '192.168.3.101:9876' },
          metrics: { detection: 'expired', detectMs: 127000, namesrvAddr: '192.168.3.101:9876', path: 'scan', detectFrom: 'heartbeat' },
          evidence: ['mq-node-101/namesrv.log:3', 'mq-node-100/broker.log:5'],
          start: '2020-12-22T14:41:58+08:00',
          end: '2020-12-22T14:44:05+08:00',
          mentions: ['The broker channel expired', 'hung'],
        },
      ],
    },
    {
      name: 'the idle path (default 120 s idle): IDLE exception then channel destroyed is an expiry, not a crash',
      files: { 'mq-node-101/namesrv.log': idleExpiry, 'mq-node-100/broker.log': brokerA, 'mq-node-101/broker.log': brokerB },
      findings: [
        {
          severity: 'error',
          subject: { broker: 'broker-a', namesrvAddr: '192.168.3.101:9876' },
          metrics: { detection: 'expired', detectMs: 120000, path: 'idle' },
          evidence: ['mq-node-101/namesrv.log:1', 'mq-node-101/namesrv.log:4'],
          mentions: ['IDLE exception', 'silence'],
        },
      ],
    },
    {
      name: 'a crash: channelInactive, then channel destroyed, 7 s after the last heartbeat',
      files: { 'mq-node-101/namesrv.log': crash, 'mq-node-100/broker.log': brokerA, 'mq-node-101/broker.log': brokerB },
      findings: [{ severity: 'warning', metrics: { detection: 'destroyed', detectMs: 7000, path: 'close', namesrvAddr: '192.168.3.101:9876' }, mentions: ['crash'] }],
    },
    {
      name: 'an expiry while the broker kept registering with the other NameServer and failing with this one: not a hang of the broker',
      files: { 'mq-node-101/namesrv.log': scanExpiry, 'mq-node-100/broker.log': brokerARunning, 'mq-node-101/broker.log': brokerB },
      findings: [
        {
          severity: 'warning',
          subject: { host: 'mq-node-101', broker: 'broker-a', namesrvAddr: '192.168.3.101:9876' },
          metrics: { detection: 'expired', path: 'scan', brokerAlive: true, detectMs: 127000 },
          evidence: ['mq-node-101/namesrv.log:3', 'mq-node-100/broker.log:5', 'mq-node-100/broker.log:10'],
          mentions: ['kept running', 'NameServer 192.168.3.100:9876 4 times', 'failed 1 time', 'Nothing is to be fixed on broker-a'],
        },
      ],
    },
    {
      name: 'a closed connection after which the broker registers again with no boot: the same process, not a crash',
      files: { 'mq-node-101/namesrv.log': crash, 'mq-node-100/broker.log': brokerAReRegisters, 'mq-node-101/broker.log': brokerB },
      findings: [{ severity: 'warning', metrics: { detection: 'destroyed', path: 'close', brokerAlive: true }, mentions: ['registered again at 14:42:08', 'closed the channel itself'] }],
    },
    {
      name: 'a closed connection, then the broker\'s own shutdown hook 5 s later: its process still ran at the close',
      files: { 'mq-node-101/namesrv.log': crash, 'mq-node-100/broker.log': brokerAShutsDownAfter, 'mq-node-101/broker.log': brokerB },
      findings: [{ severity: 'warning', metrics: { detection: 'destroyed', path: 'close', brokerAlive: true }, mentions: ['began a clean shutdown at 14:42:10', 'so its process still ran when the connection closed'] }],
    },
    {
      name: 'a closed connection and a shutdown hook in the same second: nothing says the process ran past the close',
      files: { 'mq-node-101/namesrv.log': crash, 'mq-node-100/broker.log': brokerAShutsDownThen, 'mq-node-101/broker.log': brokerB },
      findings: [{ metrics: { detection: 'destroyed', path: 'close' }, mentions: ['went away without unregistering'] }],
    },
    {
      name: 'a closed connection, then a registration with the boot of a new process: a crash and a restart',
      files: { 'mq-node-101/namesrv.log': crash, 'mq-node-100/broker.log': brokerARestarted, 'mq-node-101/broker.log': brokerB },
      findings: [{ severity: 'warning', metrics: { detection: 'destroyed', path: 'close' }, mentions: ['went away without unregistering: a crash, kill -9'] }],
    },
    {
      name: 'healthy restart: graceful unregistration, 11 s after the last heartbeat (the broker-side hook is not reported twice)',
      files: { 'mq-ns-1/namesrv.log': graceful, 'mq-broker-a/broker.log': brokerAHealthy },
      findings: [{ severity: 'info', subject: { host: 'mq-ns-1', broker: 'broker-a', brokerAddr: '10.10.1.21:10911' }, metrics: { detection: 'unregistered', detectMs: 11000, path: 'unregister' } }],
    },
    {
      name: '5.x: IDLE exception, submit, then BatchUnregistrationService lines: expired, not unregistered',
      files: { 'ns5/namesrv.log': idle5, 'broker5/broker.log': broker5 },
      findings: [{ severity: 'error', subject: { broker: 'broker-a', brokerAddr: '10.0.0.1:10911' }, metrics: { detection: 'expired', path: 'idle', detectMs: 140000 } }],
    },
    {
      name: 'real 35: a broker log alone shows the shutdown hook after registrations with three NameServers',
      files: { 'broker-35/broker.log': fixture('35-broker-log-terminal-wrapped-register-shutdown.log') },
      findings: [
        {
          severity: 'info',
          subject: { host: 'broker-35' },
          metrics: { detection: 'unregistered', detectMs: 8000, path: 'inferred', namesrvAddr: '192.168.111.213:9876;192.168.111.212:9876;192.168.111.214:9876' },
          evidence: ['broker-35/broker.log:6'],
        },
      ],
    },
  ],
});

// gen-239 (5.1.0 servers, lab.json truth): NameServer mq-ns-1 hung 45 s; the brokers, which kept
// running, closed their timed-out channels to it. When it ran again its BatchUnregistrationService
// logged `unregisterBroker` for each closed channel, the lines of several brokers in one second,
// after the `channelInactive` of each: destroyed channels of live brokers, no graceful shutdown.
describe('broker-down-detection on a generated lab recording', () => {
  it('gen-239: removals after the NameServer resumed are closed channels of running brokers, not unregistrations', async () => {
    const truth = generatedTruth('gen-239');
    expect(truth.faults.map((f) => f.kind).sort()).toEqual(['crash', 'hang']);
    const resumed = Date.parse(truth.faults.find((f) => f.kind === 'hang')!.end!);
    const after = (await generatedFindings('gen-239', [rule])).filter((f) => f.subject.host === 'mq-ns-1' && Math.abs(f.start! - resumed) <= 2000);
    expect(after.length).toBe(5);
    for (const f of after) {
      expect(f.metrics.detection, f.title).toBe('destroyed');
      expect(f.metrics.brokerAlive, f.title).toBe(true);
      expect(f.advice.join(' ')).not.toMatch(/Planned shutdown/);
    }
  });

  // gen-703 (5.1.x servers): NameServer mq-ns-3 hung 90 s; as it ran again it dropped the slave
  // of broker-b on a closed channel (the slave's registration to it had timed out), and the slave's
  // log shows no registration in the next 35 s. Then the master of broker-b hung: the other
  // NameServers expired it 2 min after a registration it had sent them just before it hung.
  it('gen-703: a removal made as a hung NameServer ran again does not call the broker gone; registrations that stopped before a hang do not keep it running', async () => {
    const truth = generatedTruth('gen-703');
    const nsHang = truth.faults.find((f) => f.kind === 'hang' && f.host === 'mq-ns-3')!;
    const brokerHang = truth.faults.find((f) => f.kind === 'hang' && f.host === 'mq-broker-b')!;
    const fs = await generatedFindings('gen-703', [rule]);
    const resumed = fs.filter((f) => f.subject.host === 'mq-ns-3' && Math.abs(f.end! - Date.parse(nsHang.end!)) <= 2000 && f.metrics.brokerAlive !== true);
    expect(resumed.map((f) => f.subject.brokerAddr)).toEqual(['10.213.0.25:10911']);
    expect(resumed[0].metrics.brokerAlive).toBeNull();
    expect(resumed[0].metrics.namesrvStallMs).toBe(90000);
    expect(resumed[0].explanation).toMatch(/does not tell whether broker-b's slave \(10.213.0.25:10911\) went away/);
    expect(resumed[0].advice.join(' ')).not.toMatch(/hs_err_pid|went down/);
    const expired = fs.filter((f) => f.subject.brokerAddr === '10.213.0.22:10911' && f.metrics.detection === 'expired');
    expect(expired.length).toBeGreaterThanOrEqual(2);
    for (const f of expired) {
      expect(f.end! > Date.parse(brokerHang.start!) && f.end! < Date.parse(brokerHang.end!), f.title).toBe(true);
      expect(f.metrics.brokerAlive, f.title).toBe(false);
    }
    // The clients connected to every NameServer in the same second: the connections tie, and a
    // NameServer host whose address they do not decide is named by its host only (not swapped).
    const hostAddr = new Map(truth.hosts.map((h) => [h.name, h.addr]));
    for (const f of fs) if (f.subject.namesrvAddr) expect(f.subject.namesrvAddr, f.title).toBe(`${hostAddr.get(f.subject.host!)}:9876`);
  });

  // gen-20261207 (5.1.4 servers): broker-a's slave restarted (SIGTERM); its shutdown hook
  // unregistered it from both NameServers. The clients' routes list it as brokerId 1, and a producer
  // writes to brokerId 0 only (MQClientInstance.findBrokerAddressInPublish): no send was refused by
  // it or retried because of it, and no client lost one.
  it("gen-20261207: a slave's unregistration is told as a slave's, with no sends refused or retried", async () => {
    const truth = generatedTruth('gen-20261207');
    expect(truth.faults.map((f) => [f.kind, f.host])).toEqual([['restart', 'mq-broker-a-s']]);
    expect(truth.clients.every((c) => c.sends.failed === 0)).toBe(true);
    const fs = (await generatedFindings('gen-20261207', [rule])).filter((f) => f.metrics.detection === 'unregistered');
    expect(fs.map((f) => f.subject.namesrvAddr).sort()).toEqual(['10.213.0.11:9876', '10.213.0.12:9876']);
    for (const f of fs) {
      expect(f.subject.brokerAddr).toBe('10.213.0.24:10911');
      expect(f.title).toMatch(/learned broker-a's slave \(10.213.0.24:10911\) was gone/);
      expect(f.explanation).toMatch(/producers write to masters only, so no send went to it/);
      expect(f.explanation).not.toMatch(/refused and retried/);
      expect(f.advice.join(' ')).not.toMatch(/ride through|refused attempt/);
    }
  });

  // gen-20261212: a NameServer and broker-a on mq-node-a, restarted together. The NameServer's own hook
  // (03:56:57) closed its connections and removed broker-a, whose hook began 12 s later: no claim that
  // broker-a kept running (nor went away), and no cause for the NameServer's side.
  it("gen-20261212: a removal the NameServer made in its own shutdown tells nothing of the broker", async () => {
    const fs = (await generatedFindings('gen-20261212', [rule])).filter((f) => f.subject.namesrvAddr === '10.213.0.21:9876' && f.subject.broker === 'broker-a');
    const own = fs.find((f) => f.metrics.namesrvStopping === true);
    expect(own).toBeDefined();
    expect(own!.metrics.brokerAlive).toBeNull();
    expect(own!.severity).toBe('info');
    expect(own!.explanation).toMatch(/began its own shutdown at 03:56:57/);
    expect(fs.filter((f) => f.metrics.brokerAlive === true)).toEqual([]);
  });
});
