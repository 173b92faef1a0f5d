// namesrv-stuck: cases in the 4.x client layout with the texts of the seed outage sample
// (app-order-01, 4.8.0) and client facts §2.4-§2.5 (selection, invokeSync timeout handling).
import { describe, expect, it } from 'vitest';
import rule from '../../src/rules/namesrv-stuck.js';
import { generatedFindings, generatedTruth, labFindings, labTruth } from './lab-findings.js';
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
          mentions: ['Upgrade app-order-01 (client 4.8.0) to 4.9.1', 'no setting changes that', NS101, '14:53:40'],
          // Before 4.9.1 the system property does not exist (NettySystemConfig reads it from 4.9.1).
          // The client log alone does not show a broker on the NameServer's host: no advice on where NameServers run.
          adviceOmits: ['start it with -Dcom.rocketmq.remoting.client.closeSocketIfTimeout=true', 'Keep NameServers off broker hosts'],
        },
      ],
    },
    {
      name: "the same, with the broker log of the NameServer's host: it runs broker-a too, so NameServers belong on hosts of their own",
      files: {
        'app-order-01/rocketmq_client.log': stuck480,
        'mq-node-100/broker.log':
          '2020-12-22 14:35:28 INFO main - The broker[broker-a, 192.168.3.100:10911] boot success. serializeType=JSON and name server is 192.168.3.100:9876;192.168.3.101:9876\n',
      },
      findings: [{ severity: 'critical', subject: { client: 'app-order-01', namesrvAddr: NS100 }, mentions: [`Keep NameServers off broker hosts: ${NS100} runs beside a broker`] }],
    },
    {
      name: 'a 4.6.0 client never leaves the NameServer within the logs',
      files: { 'app-pay-02/rocketmq_client.log': never460 },
      findings: [{ severity: 'critical', metrics: { timeouts: 2, stuckMs: 30000, switchedTo: null, clientVersion: '4.6.0', closeSocketIfTimeout: false }, mentions: ['never switched'] }],
    },
  ],
});

// samples/lab/namesrv-hang: mq-node-a (NameServer 10.213.0.11:9876 and broker-a) hangs with its TCP
// connections open for three minutes, then reboots (lab.json's hang and reboot faults). All three
// producers are bound to that NameServer; app-order-01 runs client 4.7.1, which never closes a channel
// on timeout (NettyRemotingClient.invokeSync, clientCloseSocketIfTimeout hard-coded false before
// 4.9.1), app-pay-01 runs 4.9.1+'s default close and moves on after its first timeout.
describe('namesrv-stuck on the lab recording of a hung NameServer', () => {
  const truth = labTruth('namesrv-hang');
  const hang = truth.faults.find((f) => f.kind === 'hang')!;
  const reboot = truth.faults.find((f) => f.kind === 'reboot')!;
  const ns = truth.servers.namesrv.find((n) => n.host === hang.host)!.addr;
  const other = truth.servers.namesrv.find((n) => n.host !== hang.host)!.addr;
  const order = (fs: Awaited<ReturnType<typeof labFindings>>) => fs.filter((f) => f.subject.client === 'app-order-01');

  it('app-order-01 (4.7.1) stuck on the hung NameServer from the hang to the reboot, then switched', async () => {
    const all = await labFindings('namesrv-hang', [rule]);
    const [f, ...rest] = order(all);
    expect(rest).toEqual([]);
    expect(truth.clients.find((c) => c.host === 'app-order-01')!.version).toBe('4.7.1');
    expect(f.severity).toBe('critical');
    expect(f.subject).toEqual({ client: 'app-order-01', host: 'app-order-01', namesrvAddr: ns });
    expect(f.metrics).toMatchObject({ timeouts: 7, namesrvAddr: ns, switchedTo: other, clientVersion: '4.7.1', closeSocketIfTimeout: false, rescansNameServers: false });
    // The first poll timed out within a poll interval (30 s) and a call timeout (3 s) of the hang; the
    // switch came after the host came back (its link up, then the reset of the old connection).
    expect(f.start! - Date.parse(hang.start)).toBeGreaterThan(0);
    expect(f.start! - Date.parse(hang.start)).toBeLessThan(33_000);
    expect(f.metrics.switchedAt as number).toBeGreaterThan(Date.parse((reboot as { linkUp?: string }).linkUp!));
    expect(f.metrics.switchedAt as number).toBeLessThan(Date.parse(reboot.end!) + 30_000);
    expect(f.metrics.stuckMs).toBe(f.end! - f.start!);
    expect(f.end).toBe(f.metrics.switchedAt);
    expect(f.title).toBe(`app-order-01 stuck on NameServer ${ns} for 3 min 27 s (7 route-poll timeouts, then switched to ${other})`);
    expect(f.explanation).toContain(`while ${other} was listed.`);
    expect(f.explanation).toContain('Client 4.7.1 does not close a channel on timeout');
    expect(f.explanation).toContain(`It was freed when the connection to ${ns} broke at 21:55:50 (NETTY CLIENT PIPELINE: exception`);
    expect(f.explanation).toContain(`at 21:56:06 it chose ${other}.`);
    expect(f.evidence.map((e) => e.line)).toEqual([2, 166, 3074, 3291, 3670]);
  });

  it('app-feed-01 (5.1.4) closes the timed-out channel, but its NameServer scan connects the hung host again: stuck, never switched', async () => {
    // Its log: a route-poll timeout against the hung NameServer every 30 s from 21:52:43 to 21:55:43
    // and no `new name server is chosen` after its first choice (NettyRemotingClient.scanAvailableNameSrv,
    // 5.0.0-5.2.0, reconnects every listed NameServer; the hung kernel still accepts connections).
    const [f, ...rest] = (await labFindings('namesrv-hang', [rule])).filter((x) => x.subject.client === 'app-feed-01');
    expect(rest).toEqual([]);
    expect(f.metrics).toMatchObject({ timeouts: 7, namesrvAddr: ns, switchedTo: null, switchedAt: null, clientVersion: '5.1.4', closeSocketIfTimeout: true, rescansNameServers: true });
    expect(f.start).toBe(Date.parse('2026-12-01T21:52:43.169+08:00'));
    expect(f.title).toBe(`app-feed-01 stuck on NameServer ${ns} for 3 min (7 route-poll timeouts, never switched)`);
    expect(f.explanation).toContain('Client 5.1.4 closes a timed-out channel, but its NameServer scan (NettyRemotingClient.scanAvailableNameSrv, 5.0.0-5.2.0, every 3 s) connects every listed NameServer again');
    expect(f.explanation).toContain('It never switched in these logs (last timeout at 21:55:43');
  });

  it('the 4.9.4 client, which closes a timed-out channel, is not stuck', async () => {
    const all = await labFindings('namesrv-hang', [rule]);
    expect(all.filter((f) => f.subject.client === 'app-pay-01')).toEqual([]);
  });

  it('minTimeouts=1: the 4.9.4 client counts from its one timeout to its switch 27 s later, named as a 4.9.1+ client that closes on timeout', async () => {
    const [f, ...rest] = (await labFindings('namesrv-hang', [rule], ['minTimeouts=1'])).filter((x) => x.subject.client === 'app-pay-01');
    expect(rest).toEqual([]);
    expect(f.metrics).toMatchObject({ timeouts: 1, stuckMs: 27_000, namesrvAddr: ns, switchedTo: other, clientVersion: '4.9.4', closeSocketIfTimeout: true, rescansNameServers: false });
    expect(f.title).toBe(`app-pay-01 stuck on NameServer ${ns} for 27 s (1 route-poll timeout, then switched to ${other})`);
    expect(f.explanation).toContain('Client 4.9.4 closes a timed-out channel by default (4.9.1+), and this one behaved so');
    expect(f.explanation).not.toContain('it must run with');
  });

  // gen-705: app-order-01 (4.9.6, run with -Dcom.rocketmq.remoting.client.closeSocketIfTimeout=false)
  // stayed through several timeouts: the finding does not state the version's default as its value.
  it('gen-705: a 4.9.1+ client whose timeouts came with no `close socket because of timeout` ran with the property false, as the lab ran it', async () => {
    for (const [name, version] of [['gen-705', '4.9.6']]) {
      const ran = generatedTruth(name).clients.find((c) => c.host === 'app-order-01')!;
      expect((ran.ranWith as { closeSocketIfTimeout: boolean }).closeSocketIfTimeout).toBe(false);
      const [f] = (await generatedFindings(name, [rule])).filter((x) => x.subject.client === 'app-order-01');
      expect(f.metrics.timeouts as number).toBeGreaterThan(1);
      expect(f.metrics.closeSocketIfTimeout).toBe(false);
      expect(f.explanation).toContain(`Client ${version} closes a timed-out channel by default, but this one logged`);
      expect(f.advice.map((a) => (typeof a === 'string' ? a : a.text)).join('\n')).toContain('remove -Dcom.rocketmq.remoting.client.closeSocketIfTimeout=false');
    }
  });

  it('minTimeouts: 7 timeouts are stuck at a minimum of 7, not at 8', async () => {
    expect(order(await labFindings('namesrv-hang', [rule], ['minTimeouts=7']))).toHaveLength(1);
    expect(order(await labFindings('namesrv-hang', [rule], ['minTimeouts=8']))).toEqual([]);
  });

  it('samples/lab/seed-outage: the five-minute hang keeps app-order-01 (4.7.1) on it, app-pay-01 bound elsewhere is not stuck', async () => {
    const seed = labTruth('seed-outage');
    const h = seed.faults.find((f) => f.kind === 'hang')!;
    const all = await labFindings('seed-outage', [rule]);
    expect(all.map((f) => f.subject.client)).toEqual(['app-order-01']);
    const f = all[0];
    expect(f.metrics).toMatchObject({ timeouts: 11, namesrvAddr: ns, switchedTo: other, closeSocketIfTimeout: false });
    const hangMs = Date.parse(h.end!) - Date.parse(h.start);
    expect(Math.abs((f.metrics.stuckMs as number) - hangMs)).toBeLessThan(35_000);
  });
});
