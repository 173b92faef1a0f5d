// The clients stage: the NameServer a client was bound to, and its send rate.

import { describe, expect, it } from 'vitest';
import { inferClients } from '../../../src/diagnosis/infer/clients.js';
import { inferHosts } from '../../../src/diagnosis/infer/hosts.js';
import { inferServers } from '../../../src/diagnosis/infer/servers.js';
import type { InferContext } from '../../../src/diagnosis/infer/context.js';
import { contextOf, sampleLines } from './fixture.js';

const stages = (ctx: InferContext) => {
  const hosts = inferHosts(ctx);
  return inferClients(ctx, hosts, inferServers(ctx, hosts));
};

describe('inferClients', () => {
  it('binds the client to the first NameServer it chose and reads its rate from the application’s statistics lines', async () => {
    const ctx = await contextOf([
      { path: 'app-feed-01/rocketmq_client.log', sample: 'broker-busy/app-feed-01/rocketmq_client.log', lines: [1, 30] },
      // four `feed publisher stats: sent=N, failed=0` lines, 10 s apart: 2024 + 1721 + 1769 + 2048 sends, 189.05/s
      // (one host: references are relative to its folder)
      { path: 'app-feed-01/app.log', sample: 'broker-busy/app-feed-01/app.log', lines: [1, 9] },
    ]);
    const [client] = stages(ctx).clients;
    expect(client.host).toBe('app-feed-01');
    expect(client.namesrvAddrList).toEqual(['192.168.1.5:9876', '192.168.1.6:9876']);
    expect(client.namesrv).toBe('192.168.1.5:9876');
    expect(ctx.provenance['scenario.clients[0].namesrv']).toEqual({ rule: 'the first NameServer the client chose', evidence: ['rocketmq_client.log:12'] });
    expect(client.sendRatePerSec).toBe(189.05);
    expect(ctx.provenance['scenario.clients[0].sendRatePerSec']).toEqual({
      rule: 'the application’s statistics lines (sent=N every 10 s)',
      evidence: ['app.log:6', 'app.log:9'],
    });
  });

  it('binds a client that started before the logs to the NameServer it switched away from; no rate in the logs is the default', async () => {
    const client = sampleLines('lab/hang-5x/app-order-01/logs/rocketmqlogs/rocketmq_client.log', 1, 3);
    const ctx = await contextOf([
      {
        path: 'app-order-01/rocketmq_client.log',
        text: [...client, '2026-12-01 19:30:50.001 INFO  [11415] [publisher-2] [RocketmqRemoting#?:?] - new name server is chosen. OLD: 10.213.0.12:9876 , NEW: 10.213.0.11:9876. namesrvIndex = 790'],
      },
    ]);
    const [c] = stages(ctx).clients;
    expect(c.namesrv).toBe('10.213.0.12:9876');
    expect(ctx.provenance['scenario.clients[0].namesrv']).toEqual({ rule: 'the NameServer the client switched away from', evidence: ['rocketmq_client.log:4'] });
    expect(c.sendRatePerSec).toBe(1);
    expect(ctx.defaults['scenario.clients[0].sendRatePerSec']).toBe('1 (the logs show no send rate)');
    expect(ctx.provenance['scenario.clients[0].sendRatePerSec']).toBeUndefined();
  });

  // gen-716 (4.9.3 app-order-01, retryTimesWhenSendFailed 1 and sendLatencyFaultEnable true in lab.json):
  // broker-a was cut off from it, then broker-b's disk filled, and each send failed twice on broker-b.
  describe('retry settings from what failed sends show', () => {
    const routeOf = (writable: string) =>
      `2026-12-05 05:57:33,213 INFO RocketmqClient - the topic[TopicOrder] route info changed, old[null] ,new[TopicRouteData [orderTopicConf=null, queueDatas=[QueueData [brokerName=broker-b, readQueueNums=2, writeQueueNums=2, perm=6, topicSysFlag=0], QueueData [brokerName=broker-a, readQueueNums=2, writeQueueNums=2, perm=${writable === 'both' ? 6 : 4}, topicSysFlag=0]], brokerDatas=[BrokerData [brokerName=broker-b, brokerAddrs={0=10.213.0.22:10911, 1=10.213.0.25:10911}], BrokerData [brokerName=broker-a, brokerAddrs={0=10.213.0.21:10911, 1=10.213.0.24:10911}]], filterServerTable={}]]`;
    const client = (writable: string) => ({
      path: 'app-order-01/logs/rocketmqlogs/rocketmq_client.log',
      text: ['2026-12-05 05:57:32,678 INFO RocketmqClient - user specified name server address: 10.213.0.11:9876', routeOf(writable)],
    });
    const app = (sent: string) => ({
      path: 'app-order-01/logs/app.log',
      text: [
        '2026-12-05 05:57:32.746  INFO 10343 --- [main] com.example.order.OrderEventPublisher    : Publisher started: group=PID_ORDER, topic=TopicOrder, namesrvAddr=10.213.0.11:9876',
        '2026-12-05 06:01:05.264 ERROR 10343 --- [publisher-12] com.example.order.OrderEventPublisher    : Failed to publish event, topic=TopicOrder, key=evt-434',
        '',
        `org.apache.rocketmq.client.exception.MQClientException: Send [${sent.split(',').length}] times, still failed, cost [7]ms, Topic: TopicOrder, BrokersSent: [${sent}]`,
        '\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendDefaultImpl(DefaultMQProducerImpl.java:655)',
      ],
    });

    it('a retry back to the broker that failed, while the route held another writable one, is fault avoidance; two slots are one retry', async () => {
      const ctx = await contextOf([client('both'), app('broker-b, broker-b')]);
      const [c] = stages(ctx).clients;
      expect(c.settings?.retryTimesWhenSendFailed).toBe(1);
      expect(c.settings?.sendLatencyFaultEnable).toBe(true);
      expect(ctx.provenance['scenario.clients[0].settings.sendLatencyFaultEnable'].evidence).toEqual(['app.log:4', 'rocketmqlogs/rocketmq_client.log:2']);
      expect(ctx.provenance['scenario.clients[0].settings.sendLatencyFaultEnable'].rule).toMatch(/^a retry went to broker-b again right after it failed there, while the client's route of the topic held broker-a too/);
      expect(ctx.defaults['scenario.clients[0].settings.sendLatencyFaultEnable']).toBeUndefined();
    });

    it('is not read when the route held no other writable broker, nor from a retry to another broker', async () => {
      for (const [writable, sent] of [['b only', 'broker-b, broker-b'], ['both', 'broker-b, broker-a, broker-b']]) {
        const ctx = await contextOf([client(writable), app(sent)]);
        const [c] = stages(ctx).clients;
        expect(c.settings?.sendLatencyFaultEnable).toBeUndefined();
        expect(ctx.defaults['scenario.clients[0].settings.sendLatencyFaultEnable']).toBe('false (DefaultMQProducer default)');
        expect(c.settings?.retryTimesWhenSendFailed).toBe(sent.split(',').length - 1);
      }
    });
  });

  // gen-717 (lab.json: app-stock-01 4.9.5 sends asynchronously; app-notify-01 4.9.0 synchronously with
  // retryTimesWhenSendFailed 0): broker-a's disk filled up.
  describe('asynchronous sends and a synchronous send without retry', () => {
    const asyncFailure = [
      '2026-12-05 06:03:53.451 ERROR 11253 --- [NettyClientPublicExecutor_1] com.example.stock.StockEventPublisher    : Failed to publish event asynchronously, topic=TopicOrder, key=evt-345',
      '',
      "org.apache.rocketmq.client.exception.MQBrokerException: CODE: 14  DESC: service not available now. It may be caused by one of the following reasons: the broker's disk is full [CL:  0.97 CQ:  0.97 INDEX:  0.97], messages are put to the slave, message store has been shut down, etc. BROKER: 10.213.0.21",
      'For more information, please visit the url, http://rocketmq.apache.org/docs/faq/',
      '\tat org.apache.rocketmq.client.impl.MQClientAPIImpl.processSendResponse(MQClientAPIImpl.java:675)',
      '\tat org.apache.rocketmq.client.impl.MQClientAPIImpl.access$000(MQClientAPIImpl.java:175)',
      '\tat org.apache.rocketmq.client.impl.MQClientAPIImpl$1.operationComplete(MQClientAPIImpl.java:564)',
      '\tat org.apache.rocketmq.remoting.netty.ResponseFuture.executeInvokeCallback(ResponseFuture.java:54)',
    ];
    const oneSlot = (thread: string) => [
      `2026-12-05 06:03:53.993 ERROR 11290 --- [${thread}] com.example.notify.NoticeSender          : Failed to publish event, topic=TopicOrder, key=evt-140`,
      '',
      'org.apache.rocketmq.client.exception.MQClientException: Send [1] times, still failed, cost [6]ms, Topic: TopicOrder, BrokersSent: [broker-a]',
      'See http://rocketmq.apache.org/docs/faq/ for further details.',
      '\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendDefaultImpl(DefaultMQProducerImpl.java:681)',
    ];
    const started = '2026-12-05 06:02:44.636  INFO 11253 --- [main] com.example.stock.StockEventPublisher    : Publisher started: group=PID_STOCK, topic=TopicOrder, namesrvAddr=10.213.0.11:9876';
    const clientLog = { path: 'app-x/logs/rocketmqlogs/rocketmq_client.log', text: ['2026-12-05 06:02:44,600 INFO RocketmqClient - user specified name server address: 10.213.0.11:9876'] };
    const appLog = (lines: string[]) => ({ path: 'app-x/logs/app.log', text: [started, ...lines] });

    it("a failure from MQClientAPIImpl's InvokeCallback is an asynchronous send's", async () => {
      const ctx = await contextOf([clientLog, appLog(asyncFailure)]);
      const [c] = stages(ctx).clients;
      expect(c.async).toBe(true);
      expect(ctx.provenance['scenario.clients[0].async']).toEqual({
        rule: "failed sends whose stack trace is MQClientAPIImpl's InvokeCallback: an asynchronous send's SendCallback got them (send(msg, SendCallback))",
        evidence: ['app.log:4'],
      });
      expect(c.settings?.retryTimesWhenSendFailed).toBeUndefined();
    });

    it('one slot caught on the application\'s own thread is a synchronous send with no retry; not on a callback thread, nor beside an asynchronous failure', async () => {
      const sync = await contextOf([clientLog, appLog(oneSlot('publisher-4'))]);
      const [c] = stages(sync).clients;
      expect(c.async).toBeUndefined();
      expect(sync.defaults['scenario.clients[0].async']).toBe('false (no failed send came through a SendCallback)');
      expect(c.settings?.retryTimesWhenSendFailed).toBe(0);
      expect(sync.provenance['scenario.clients[0].settings.retryTimesWhenSendFailed'].evidence).toEqual(['app.log:4']);
      for (const lines of [oneSlot('AsyncSenderExecutor_1'), [...asyncFailure, ...oneSlot('publisher-4')]]) {
        const ctx = await contextOf([clientLog, appLog(lines)]);
        expect(stages(ctx).clients[0].settings?.retryTimesWhenSendFailed).toBeUndefined();
      }
    });

    // gen-710 (lab.json: app-order-01 4.9.4, async, sendMsgTimeout 1000): its requests to the hung
    // broker-a were removed by scanResponseTable and retried; the retry's exception names the time
    // the request had been given.
    it("an async client's sendMsgTimeout is the longest time its timed-out requests were given", async () => {
      const removed = (opaque: number, ms: number) =>
        `2026-12-05 05:33:10,409 WARN RocketmqRemoting - remove timeout request, ResponseFuture [responseCommand=null, sendRequestOK=true, cause=null, opaque=${opaque}, processChannel=[id: 0x62730d41, L:/10.213.0.31:58446 - R:/10.213.0.21:10911], timeoutMillis=${ms}, invokeCallback=org.apache.rocketmq.client.impl.MQClientAPIImpl$1@30b2cdb0, beginTimestamp=1796419987422, countDownLatch=java.util.concurrent.CountDownLatch@2e103f66[Count = 1]]`;
      const retried = ['2026-12-05 05:33:11,400 WARN RocketmqClient - async send msg by retry 1 times. topic=TopicOrder, brokerAddr=10.213.0.22:10911, brokerName=broker-b', 'org.apache.rocketmq.client.exception.MQClientException: wait response timeout 997ms'];
      const ctx = await contextOf([{ path: clientLog.path, text: [...clientLog.text, removed(167, 997), ...retried, removed(166, 1000)] }, appLog([])]);
      const [c] = stages(ctx).clients;
      expect(c.settings?.sendMsgTimeoutMs).toBe(1000);
      expect(ctx.provenance['scenario.clients[0].settings.sendMsgTimeoutMs'].rule).toMatch(/^the longest time an ASYNC send's request that timed out was given \(`timeoutMillis=1000` of a request removed by NettyRemotingAbstract\.scanResponseTable/);
      expect(ctx.provenance['scenario.clients[0].settings.sendMsgTimeoutMs'].evidence).toEqual(['rocketmqlogs/rocketmq_client.log:5']);
      // A pull's request (MQClientAPIImpl$2, 30 s of long polling) is no send's budget.
      const pull = await contextOf([{ path: clientLog.path, text: [...clientLog.text, removed(9, 30000).replace('MQClientAPIImpl$1', 'MQClientAPIImpl$2')] }, appLog([])]);
      expect(stages(pull).clients[0].settings?.sendMsgTimeoutMs).toBeUndefined();
    });

    // gen-705 (lab.json: app-stock-01 4.5.0 sends asynchronously, lost no send): three requests to
    // broker-c, cut off by a partition, were removed on timeout (through the VIP channel, port 10909)
    // and retried on other brokers; no send failed, so no application line shows a SendCallback.
    describe('an asynchronous sender that failed no send', () => {
      const removed = (cls: string) =>
        `2026-12-05 05:08:58,058 WARN RocketmqRemoting - remove timeout request, ResponseFuture [responseCommand=null, sendRequestOK=true, cause=null, opaque=330, processChannel=[id: 0x75af9731, L:/10.213.0.33:34706 - R:/10.213.0.23:10909], timeoutMillis=5000, invokeCallback=org.apache.rocketmq.client.impl.${cls}@5f1a6a1b, beginTimestamp=1796418532046, countDownLatch=java.util.concurrent.CountDownLatch@69fc2f2a[Count = 1]]`;
      const retry = '2026-12-05 05:08:58,058 INFO RocketmqClient - async send msg by retry 1 times. topic=TopicOrder, brokerAddr=10.213.0.22:10911, brokerName=broker-b';

      it("is asynchronous by a request removed with sendMessageAsync's InvokeCallback, or by onExceptionImpl's retry line", async () => {
        const byTimeout = await contextOf([{ path: clientLog.path, text: [...clientLog.text, removed('MQClientAPIImpl$1')] }, appLog([])]);
        expect(stages(byTimeout).clients[0].async).toBe(true);
        expect(byTimeout.provenance['scenario.clients[0].async']).toEqual({
          rule: "a request the client removed on timeout was given sendMessageAsync's InvokeCallback (`remove timeout request, ... invokeCallback=...MQClientAPIImpl$1`): an asynchronous send (send(msg, SendCallback))",
          evidence: ['rocketmqlogs/rocketmq_client.log:2'],
        });
        const byRetry = await contextOf([{ path: clientLog.path, text: [...clientLog.text, retry] }, appLog([])]);
        expect(stages(byRetry).clients[0].async).toBe(true);
        // Its retries are onExceptionImpl's (retryTimesWhenSendAsyncFailed), which no line gives: that is the default it states.
        expect(byRetry.defaults['scenario.clients[0].settings.retryTimesWhenSendAsyncFailed']).toBe('2 (DefaultMQProducer default)');
        expect(byRetry.defaults['scenario.clients[0].settings.retryTimesWhenSendFailed']).toBeUndefined();
        expect(byRetry.provenance['scenario.clients[0].async'].rule).toMatch(/^the client retried a send through MQClientAPIImpl\.onExceptionImpl/);
      });

      it("is not by a pull's request (MQClientAPIImpl$2)", async () => {
        const ctx = await contextOf([{ path: clientLog.path, text: [...clientLog.text, removed('MQClientAPIImpl$2')] }, appLog([])]);
        expect(stages(ctx).clients[0].async).toBeUndefined();
        expect(ctx.defaults['scenario.clients[0].async']).toMatch(/^false/);
      });
    });

    // gen-713 (a 4.7.0 client sending asynchronously): its connect failure ended the send in
    // sendDefaultImpl, and the async sender executor gave it to the SendCallback.
    it("a failure caught on RocketMQ's async sender executor is an asynchronous send's", async () => {
      const ctx = await contextOf([clientLog, appLog(oneSlot('AsyncSenderExecutor_2'))]);
      const [c] = stages(ctx).clients;
      expect(c.async).toBe(true);
      expect(ctx.provenance['scenario.clients[0].async'].rule).toBe(
        "failed sends the application caught on AsyncSenderExecutor_2, a thread of RocketMQ's that runs an asynchronous send's SendCallback (send(msg, SendCallback))",
      );
    });
  });


  // gen-705 (lab.json: app-order-01 4.9.6 started with -Dcom.rocketmq.remoting.client.closeSocketIfTimeout=false):
  // its sends to broker-c, cut off by a partition, timed out on a channel it kept.
  describe('closeSocketIfTimeout from a timed-out channel', () => {
    const start = (v: string) =>
      `2026-12-05 05:06:29,300 INFO RocketmqClient - Created a new client Instance, InstanceIndex:0, ClientID:10.213.0.31@12254, ClientConfig:ClientConfig [namesrvAddr=10.213.0.23:9876, clientIP=10.213.0.31, instanceName=12254, clientCallbackExecutorThreads=8, pollNameServerInterval=60000, heartbeatBrokerInterval=30000, persistConsumerOffsetInterval=5000, pullTimeDelayMillsWhenException=1000, unitMode=false, unitName=null, vipChannelEnabled=false, useTLS=false, language=JAVA, namespace=null, mqClientApiTimeout=3000], ClientVersion:V${v.replace(/\./g, '_')}, SerializerType:JSON`;
    const waited = '2026-12-05 05:08:51,848 WARN RocketmqRemoting - invokeSync: wait response timeout exception, the channel[10.213.0.23:10911]';
    const closed = '2026-12-05 05:08:51,848 WARN RocketmqRemoting - invokeSync: close socket because of timeout, 5000ms, 10.213.0.23:10911';
    const start51 = (v: string) =>
      `2026-12-05 05:06:29.300 INFO  [23055] [main] [o.a.r.c.i.f.MQClientInstance#?:?] - Created a new client Instance, InstanceIndex:0, ClientID:10.213.0.31@23055#3987930724914, ClientConfig:ClientConfig [namesrvAddr=10.213.0.23:9876, clientIP=10.213.0.31, instanceName=23055#3987930724914, clientCallbackExecutorThreads=2, pollNameServerInterval=30000, heartbeatBrokerInterval=30000, persistConsumerOffsetInterval=5000, pullTimeDelayMillsWhenException=1000, unitMode=false, unitName=null, vipChannelEnabled=false, useTLS=false, socksProxyConfig={}, language=JAVA, namespace=null, mqClientApiTimeout=3000, decodeReadBody=true, decodeDecompressBody=true, enableStreamRequestType=false, sendLatencyEnable=false, startDetectorEnable=false, enableHeartbeatChannelEventListener=true, enableTrace=false, traceTopic=null], ClientVersion:V${v.replace(/\./g, '_')}, SerializerType:JSON`;
    const run = async (v: string, lines: string[], layout51 = false) => {
      const ctx = await contextOf([{ path: 'app-order-01/logs/rocketmqlogs/rocketmq_client.log', text: [layout51 ? start51(v) : start(v), ...lines] }]);
      const [c] = stages(ctx).clients;
      const path = 'scenario.clients[0].settings.clientCloseSocketIfTimeout';
      return { value: c.settings?.clientCloseSocketIfTimeout, provenance: ctx.provenance[path], assumed: ctx.defaults[path] };
    };

    it('a 4.9.1+ client whose wait timed out with no close before it kept the channel: false, from behaviour', async () => {
      const kept = await run('4.9.6', [waited]);
      expect(kept.value).toBe(false);
      expect(kept.assumed).toBeUndefined();
      expect(kept.provenance.rule).toMatch(/^a call on 10\.213\.0\.23:10911 timed out and the client kept its channel/);
      expect(kept.provenance.evidence).toEqual(['rocketmq_client.log:2']);
    });

    it('is the default when the close came first, or on another address; and not read from 5.1.4, which closes only with time left', async () => {
      const closedFirst = await run('4.9.6', [closed, waited]);
      expect(closedFirst.value).toBeUndefined();
      expect(closedFirst.assumed).toMatch(/^true/);
      const otherAddr = await run('4.9.6', [closed.replace('10.213.0.23:10911', '10.213.0.21:10911'), waited]);
      expect(otherAddr.value).toBe(false);
      // gen-599's app-order-01 (5.1.4), in the 5.1+ client layout.
      const layout51 = (line: string) => line.replace(/^(\S+ \S+),(\d+) (\w+) \S+ - /, '$1.$2 $3  [23055] [MQClientFactoryScheduledThread] [RocketmqRemoting#?:?] - ');
      const guarded = await run('5.1.4', [waited].map(layout51), true);
      expect(guarded.value).toBeUndefined();
      expect(guarded.assumed).toMatch(/^true/);
    });

    // gen-20270108's app-order-01 (5.1.0) logged the close 85 ms before the wait on the same thread
    // (publisher-4), its host short of CPU: the same catch block. Another thread's close is not its own.
    it('takes a close on the same thread up to a second before the wait as its own', async () => {
      const at = (line: string, ms: string, thread: string) => line.replace(/^(\S+ \S+),\d+ (\w+) \S+ - /, `$1.${ms} $2  [2547] [${thread}] [RocketmqRemoting#invokeSync:576] - `);
      const late = await run('5.1.0', [at(closed, '761', 'publisher-4'), at(waited, '846', 'publisher-4')], true);
      expect(late.value).toBeUndefined();
      expect(late.assumed).toMatch(/^true/);
      const other = await run('5.1.0', [at(closed, '761', 'publisher-9'), at(waited, '846', 'publisher-4')], true);
      expect(other.value).toBe(false);
    });
  });
});
