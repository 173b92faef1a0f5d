// Catalogue entries for the clients that are not the Java remoting client: rocketmq-client-go 2.x,
// rocketmq-client-cpp 1.x/2.x (and its re_dev branch), the 5.x gRPC clients of rocketmq-clients (Java,
// Go, C#, C++, Rust) and ali-ons (Node.js, Aliyun ONS). Their wordings are their own; they map to the
// same event types as the Java client's. Each entry names the repository, file and version that prints
// the text. The entries come after the Java ones (catalogue-data.ts), so a Java wording always wins.
// Their consumer side is in catalogue-clients-consumer.ts, spread at the end of CLIENT_ENTRIES.

import type { CatalogueEntry } from './catalogue-entry.js';
import type { EventFields } from './types.js';
import { busy, closed, connect, normAddr, num, routeFail, startup, str } from './catalogue-data.js';
import { CLIENT_CONSUMER_ENTRIES } from './catalogue-clients-consumer.js';

/** `key=value` or `key="value"` of a logrus/zap/5.x message (value up to `,`, space or `"`). */
function kv(text: string, key: string): string | null {
  const m = new RegExp(`\\b${key}[=:]\\s*"?([^",\\s}\\]]*)`).exec(text);
  return m === null ? null : str(m[1]);
}

/** logrus' `underlayError="..."` (an error text, quotes escaped). */
function underlay(text: string): string | null {
  const m = /underlayError[=:]\s*"((?:[^"\\]|\\.)*)"/.exec(text);
  return m === null ? null : str(m[1].replace(/\\"/g, '"'));
}

/** The remote end of a Go net error: `read tcp 10.0.0.9:43358->10.0.0.5:9876: i/o timeout`. */
function goRemote(text: string): string | null {
  const m = /->\s*([^\s:"]+:\d+)/.exec(text);
  return m === null ? null : normAddr(m[1]);
}

const heartbeat = (brokerName: string | null, brokerId: number | null, brokerAddr: string | null): EventFields => ({
  brokerName,
  brokerId,
  brokerAddr,
});

/** Fields of a 5.x send line: its topic, and the attempt figures as optional fields. */
const grpcAttempt = (text: string): EventFields => ({
  invokeId: null,
  rtMs: null,
  topic: kv(text, 'topic'),
  brokerName: null,
  queueId: null,
  cause: null,
  attempt: num(kv(text, 'attempt')),
  maxAttempts: num(kv(text, 'maxAttempts')),
  endpoints: endpoints(text),
});

/** `endpoints=ipv4:10.0.0.1:8081` (Java, C#: Endpoints#toString) or Go's `endpoints=scheme:IPv4 addresses:{...}`. */
function endpoints(text: string): string | null {
  const m = /\bendpoints=(.*?)(?:, (?:clientId|messageId|requestId|code)=|$)/.exec(text.trimEnd());
  return m === null ? null : str(m[1]);
}

export const CLIENT_ENTRIES: CatalogueEntry[] = [
  // ---- rocketmq-client-go 2.x (logrus fields after the message) ------------------------------
  {
    id: 'heartbeat-failed/go-error',
    type: 'heartbeat-failed',
    keywords: ['send heart beat to broker error'],
    pattern: /send heart beat to broker error/,
    versions: 'rocketmq-client-go 2.0.0-2.1.2',
    source: 'rocketmq-client-go internal/client.go (rmqClient.SendHeartbeatToAllBrokerWithLock)',
    // logrus fields (underlayError) follow the message.
    format: 'send heart beat to broker error',
    args: [],
    fields: () => heartbeat(null, null, null),
    versionHint: 'go',
    samples: [
      { text: 'time="2020-03-16T15:38:53Z" level=warning msg="send heart beat to broker error" underlayError="request timeout"', fields: { brokerName: null, brokerAddr: null } },
    ],
  },
  {
    id: 'heartbeat-failed/go-failed',
    type: 'heartbeat-failed',
    keywords: ['send heart beat to broker failed'],
    pattern: /send heart beat to broker failed/,
    versions: 'rocketmq-client-go 2.0.0-2.1.2',
    source: 'rocketmq-client-go internal/client.go (rmqClient.SendHeartbeatToAllBrokerWithLock)',
    format: 'send heart beat to broker failed',
    args: [],
    fields: (_g, text) => heartbeat(kv(text, 'brokerName'), num(kv(text, 'brokerId')), normAddr(kv(text, 'brokerAddr'))),
    versionHint: 'go',
    samples: [
      {
        text: 'WARN[0001] send heart beat to broker failed              brokerAddr="xxxx:10911" brokerId=0 brokerName=brokera responseCode=1',
        fields: { brokerName: 'brokera', brokerId: 0, brokerAddr: 'xxxx:10911' },
      },
      {
        text: 'send heart beat to broker failed,brokerName=rocketmq-raft0,brokerId=3,brokerAddr="192.168.123.1:10911",responseCode=1 ',
        fields: { brokerName: 'rocketmq-raft0', brokerId: 3, brokerAddr: '192.168.123.1:10911' },
      },
    ],
  },
  {
    id: 'route-update-failed/go-query',
    type: 'route-update-failed',
    keywords: ['query topic route from server error'],
    pattern: /query topic route from server error/,
    versions: 'rocketmq-client-go 2.0.0-2.1.2',
    source: 'rocketmq-client-go internal/route.go (namesrvs.UpdateTopicRouteInfoWithDefault)',
    format: 'query topic route from server error',
    args: [],
    fields: (_g, text) => routeFail(null, underlay(text)),
    versionHint: 'go',
    samples: [
      { text: 'WARN[0000] query topic route from server error           underlayError="topic not exist"', fields: { topic: null, cause: 'topic not exist', addr: null } },
    ],
  },
  {
    id: 'route-update-failed/go-return-nil',
    type: 'route-update-failed',
    keywords: ['queryTopicRouteInfoFromServer return nil', 'queryTopicRouteInfoFromServer failed'],
    pattern: /queryTopicRouteInfoFromServer (?:return nil|failed)/,
    versions: 'rocketmq-client-go 2.0.0-2.1.2',
    source: 'rocketmq-client-go internal/route.go',
    format: 'queryTopicRouteInfoFromServer return nil',
    args: [],
    forms: {
      failed: { format: 'queryTopicRouteInfoFromServer failed', args: [] },
    },
    fields: (_g, text) => routeFail(kv(text, 'topic')),
    versionHint: 'go',
    samples: [
      { text: 'WARN[0004] queryTopicRouteInfoFromServer return nil       topic=TopicTest', fields: { topic: 'TopicTest', cause: null } },
      { text: 'ERRO[0004] queryTopicRouteInfoFromServer failed            topic=TopicTest', fields: { topic: 'TopicTest', cause: null } },
    ],
  },
  {
    id: 'connect-failed/go-namesrv',
    type: 'connect-failed',
    keywords: ['connect to namesrv failed.'],
    pattern: /connect to namesrv failed\./,
    versions: 'rocketmq-client-go 2.0.0-2.1.2',
    source: 'rocketmq-client-go internal/route.go (namesrvs.queryTopicRouteInfoFromServer: every NameServer failed)',
    format: 'connect to namesrv failed.',
    args: [],
    fields: () => connect(null),
    versionHint: 'go',
    samples: [{ text: 'time="2020-05-22T10:00:01+08:00" level=error msg="connect to namesrv failed." namesrv="&{[10.0.0.5:9876]}" topic=TopicTest', fields: { addr: null, addrs: [] } }],
  },
  {
    id: 'no-route/go-route-not-found',
    type: 'no-route',
    keywords: ['route info not found'],
    pattern: /\btopic=(?<t>[^\s,]*?) route info not found/,
    versions: 'rocketmq-client-go 2.0.0-2.1.2',
    source: 'rocketmq-client-go producer/producer.go (defaultProducer.sendSync), consumer/push_consumer.go',
    format: 'the topic=%s route info not found, it may not exist',
    args: ['topic'],
    printf: true,
    forms: {
      producer: { format: 'the topic=%s route info not found', args: ['topic'], printf: true },
    },
    fields: (g) => ({ topic: str(g.t) }),
    versionHint: 'go',
    samples: [
      { text: 'consumer start failed, the topic=%RETRY%MQ_INST_XXX%GID_YEE_MSG route info not found, it may not exist', fields: { topic: '%RETRY%MQ_INST_XXX%GID_YEE_MSG' } },
      { text: 'send failed: the topic=goTestTopic route info not found', fields: { topic: 'goTestTopic' } },
    ],
  },
  {
    id: 'channel-closed/go-conn-error',
    type: 'channel-closed',
    keywords: ['conn error, close connection'],
    pattern: /conn error, close connection/,
    versions: 'rocketmq-client-go 2.0.0-2.1.2',
    source: 'rocketmq-client-go internal/remote/remote_client.go (remotingClient.receiveResponse)',
    format: 'conn error, close connection',
    args: [],
    fields: (_g, text) => closed(goRemote(text), 'conn-error'),
    versionHint: 'go',
    samples: [
      {
        text: '2023-12-05T10:33:03+08:00 ERROR remote/remote_client.go:183 github.com/apache/rocketmq-client-go/v2/internal/remote.(*remotingClient).receiveResponse conn error, close connection {"underlayError": "read tcp 192.7.128.158:43358->192.183.1.196:9876: i/o timeout"}',
        fields: { addr: '192.183.1.196:9876', reason: 'conn-error', result: null },
      },
    ],
  },
  {
    id: 'channel-closed/go-conn-closed',
    type: 'channel-closed',
    keywords: ['remoting conn closed'],
    pattern: /remoting conn closed/,
    versions: 'rocketmq-client-go 2.0.0-rc1-2.0.x',
    source: 'rocketmq-client-go internal/remote/remote_client.go',
    format: 'remoting conn closed',
    args: [],
    fields: (_g, text) => closed(normAddr(kv(text, 'remote')), 'close'),
    versionHint: 'go',
    samples: [{ text: 'INFO[0004] remoting conn closed                          remote="118.190.213.42:80"', fields: { addr: '118.190.213.42:80', reason: 'close' } }],
  },

  // ---- rocketmq-client-cpp 1.x/2.x (printf texts; the re_dev branch logs through spdlog) -------
  {
    id: 'rpc-timeout/cpp-wait-response',
    type: 'rpc-timeout',
    keywords: ['waitResponse of code:'],
    pattern: /waitResponse of code:(?<code>-?\d+) with opaque:-?\d+ timeout/,
    versions: 'rocketmq-client-cpp 1.2.x-2.2.0',
    source: 'rocketmq-client-cpp src/transport/ResponseFuture.cpp (ResponseFuture::waitResponse)',
    format: 'waitResponse of code:%d with opaque:%d timeout',
    args: ['code', 'opaque'],
    printf: true,
    fields: () => ({ addr: null, timeoutMs: null }),
    versionHint: 'cpp',
    samples: [{ text: '[2023-10-17 11:44:47.442126](warning):waitResponse of code:105 with opaque:8 timeout[waitResponse:61]', fields: { addr: null, timeoutMs: null } }],
  },
  {
    id: 'heartbeat-failed/cpp-timeout',
    type: 'heartbeat-failed',
    keywords: ['wait response timeout of heartbeat'],
    pattern: /wait response timeout of heartbeat, so closeTransport of addr:(?<a>[^\s\[]*)/,
    versions: 'rocketmq-client-cpp 2.x',
    source: 'rocketmq-client-cpp src/transport/TcpRemotingClient.cpp (invokeHeartBeat)',
    format: 'wait response timeout of heartbeat, so closeTransport of addr:%s',
    args: ['brokerAddr'],
    printf: true,
    fields: (g) => heartbeat(null, null, normAddr(g.a)),
    versionHint: 'cpp',
    samples: [{ text: 'wait response timeout of heartbeat, so closeTransport of addr:10.0.0.1:10911[invokeHeartBeat:181]', fields: { brokerAddr: '10.0.0.1:10911' } }],
  },
  {
    id: 'rpc-timeout/cpp-null-response',
    type: 'rpc-timeout',
    keywords: ['wait response timeout or get NULL response'],
    pattern: /wait response timeout or get NULL response of code:-?\d+, so closeTransport of addr:(?<a>[^\s\[]*)/,
    versions: 'rocketmq-client-cpp 1.2.x-2.2.0',
    source: 'rocketmq-client-cpp src/transport/TcpRemotingClient.cpp (TcpRemotingClient::invokeSync)',
    format: 'wait response timeout or get NULL response of code:%d, so closeTransport of addr:%s',
    args: ['code', 'addr'],
    printf: true,
    fields: (g) => ({ addr: normAddr(g.a), timeoutMs: null }),
    versionHint: 'cpp',
    samples: [
      { text: '[2023-10-17 11:44:47.442250](warning):wait response timeout or get NULL response of code:105, so closeTransport of addr:[invokeSync:217]', fields: { addr: null } },
      { text: 'wait response timeout or get NULL response of code:10, so closeTransport of addr:10.0.0.1:10911[invokeSync:217]', fields: { addr: '10.0.0.1:10911' } },
    ],
  },
  {
    id: 'rpc-timeout/cpp-wait-on-addr',
    type: 'rpc-timeout',
    keywords: ['wait response on the addr <'],
    pattern: /wait response on the addr <(?<a>[^>]*)> timeout/,
    versions: 'rocketmq-client-cpp re_dev',
    source: 'rocketmq-client-cpp src/transport/TcpRemotingClient.cpp (re_dev, RemotingTimeoutException)',
    format: 'wait response on the addr <{}> timeout',
    args: ['addr'],
    fields: (g) => ({ addr: normAddr(g.a), timeoutMs: null }),
    versionHint: 'cpp',
    samples: [
      {
        text: '[2021-01-29 16:41:41.136] [error] [thread@969] - send failed, exception:[RemotingTimeoutException] msg: wait response on the addr <172.18.139.100:10911> timeout, error: -1, in </home/e0614688/MySoft/rocketmq/tls/rocketmq-client-cpp-re_dev/src/transport/TcpRemotingClient.cpp:274> [send:283]',
        fields: { addr: '172.18.139.100:10911', timeoutMs: null },
      },
    ],
  },
  {
    id: 'heartbeat-failed/cpp',
    type: 'heartbeat-failed',
    keywords: ['sendHeartbeat to broker:'],
    pattern: /sendHeartbeat to broker:(?<a>\S*?) failed/,
    versions: 'rocketmq-client-cpp 1.2.x-2.2.0',
    source: 'rocketmq-client-cpp src/MQClientAPIImpl.cpp (MQClientAPIImpl::sendHearbeat)',
    format: 'sendHeartbeat to broker:%s failed',
    args: ['brokerAddr'],
    printf: true,
    fields: (g) => heartbeat(null, null, normAddr(g.a)),
    versionHint: 'cpp',
    samples: [{ text: '[2020-May-17 07:42:07.013348](warning):sendHeartbeat to broker:10.0.0.1:10911 failed[sendHearbeat:279]', fields: { brokerAddr: '10.0.0.1:10911' } }],
  },
  {
    id: 'channel-closed/cpp-close-transport',
    type: 'channel-closed',
    keywords: ['CloseTransport of:'],
    pattern: /CloseTransport of:(?<a>[^\s\[]+)(?=\s*\[|\s*$)/,
    versions: 'rocketmq-client-cpp 1.2.x-2.2.0, re_dev',
    source: 'rocketmq-client-cpp src/transport/TcpRemotingClient.cpp (TcpRemotingClient::CloseTransport)',
    // Not its `get timed_mutex timeout` nor its `end` line.
    format: 'CloseTransport of:%s',
    args: ['addr'],
    printf: true,
    fields: (g) => closed(normAddr(g.a), 'close'),
    versionHint: 'cpp',
    samples: [
      { text: '[2023-10-17 11:44:47.442282](error):CloseTransport of:172.30.33.67:9876[CloseTransport:414]', fields: { addr: '172.30.33.67:9876', reason: 'close', result: null } },
      { text: '[2021-01-29 16:41:41.137] [info] [thread@969] - CloseTransport of:172.18.139.100:10911 [CloseTransport:510]', fields: { addr: '172.18.139.100:10911' } },
    ],
  },
  {
    id: 'send-attempt-failed/cpp',
    type: 'send-attempt-failed',
    keywords: ['send failed of times:'],
    // MQMessageQueue::toString prints `MessageQueue [topic=t, brokerName=b, queueId=n]` (2.1.0).
    pattern: /send failed of times:(?<n>\d+),(?:brokerName:(?<b>[^\s\[]*)|mq:(?<mq>MessageQueue \[[^\]]*\]|[^\[]*))/,
    versions: 'rocketmq-client-cpp 1.2.x-2.2.0',
    source: 'rocketmq-client-cpp src/producer/DefaultMQProducerImpl.cpp (sendDefaultImpl, sendKernelImpl)',
    format: 'send failed of times:%d,brokerName:%s',
    args: ['times', 'brokerName'],
    printf: true,
    forms: {
      mq: { format: 'send failed of times:%d,mq:%s', args: ['times', 'mq'], printf: true },
    },
    fields: (g) => {
      const mq = g.mq ?? '';
      return {
        invokeId: null,
        rtMs: null,
        topic: str(/topic[:=]\s*([^,\]\s]*)/.exec(mq)?.[1]),
        brokerName: str(g.b ?? /brokerName[:=]\s*([^,\]\s]*)/.exec(mq)?.[1]),
        queueId: num(/queueId[:=]\s*(-?\d+)/.exec(mq)?.[1]),
        cause: null,
      };
    },
    versionHint: 'cpp',
    samples: [
      { text: '[2020-May-17 07:43:07.013237](error):send failed of times:1,brokerName:broker-a[sendDefaultImpl:424]', fields: { brokerName: 'broker-a', topic: null } },
      // sendAutoRetrySelectImpl (MQMessageQueue::toString).
      { text: 'send failed of times:2,mq:MessageQueue [topic=TopicTest, brokerName=broker-b, queueId=3][sendAutoRetrySelectImpl:592]', fields: { topic: 'TopicTest', brokerName: 'broker-b', queueId: 3 } },
    ],
  },
  {
    id: 'connect-failed/cpp',
    type: 'connect-failed',
    keywords: ['can not connect to'],
    pattern: /can not connect to(?: server)?:(?<a>[^\s\[]+)/,
    versions: 'rocketmq-client-cpp 1.2.x-2.2.0',
    source: 'rocketmq-client-cpp src/transport/TcpRemotingClient.cpp, TcpTransport.cpp',
    format: 'can not connect to:%s',
    args: ['addr'],
    printf: true,
    forms: {
      server: { format: 'can not connect to server:%s', args: ['addr'], printf: true },
    },
    fields: (g) => connect(g.a),
    versionHint: 'cpp',
    samples: [
      { text: '[2020-May-17 07:41:38.780542](warning):can not connect to:10.0.0.1:10911[GetTransport:341]', fields: { addr: '10.0.0.1:10911', addrs: ['10.0.0.1:10911'] } },
      { text: 'can not connect to server:10.0.0.1:10911', fields: { addr: '10.0.0.1:10911', addrs: ['10.0.0.1:10911'] } },
    ],
  },

  // ---- rocketmq-clients 5.x (gRPC: Java, Go, C#, C++, Rust) ----------------------------------
  {
    id: 'busy-reply/grpc-too-many-requests',
    type: 'busy-reply',
    keywords: ['ailed to send message due to too many request'],
    pattern: /[Ff]ailed to send message due to too many requests?, would attempt to resend after/,
    versions: 'rocketmq-clients 5.x (Java ProducerImpl, Go producer.go, C# Producer.cs)',
    source: 'rocketmq-clients java/client/.../impl/producer/ProducerImpl.java (java-5.0.8), golang/producer.go (golang/v5.1.2), csharp/rocketmq-client-csharp/Producer.cs',
    // Java's wording; Go's and C#'s order the fields otherwise.
    format: 'Failed to send message due to too many requests, would attempt to resend after {}, maxAttempts={}, attempt={}, topic={}, messageId(s)={}, endpoints={}, clientId={}',
    args: ['delay', 'maxAttempts', 'attempt', 'topic', 'messageIds', 'endpoints', 'clientId'],
    fields: () => busy('TOO_MANY_REQUESTS', {}),
    versionHint: '5.x-grpc',
    samples: [
      {
        text: 'Failed to send message due to too many requests, would attempt to resend after PT0.1S, maxAttempts=3, attempt=1, topic=TopicTest, messageId(s)=[01C0A80A0B5F3C2A1B0000000000], endpoints=ipv4:10.0.0.1:8081, clientId=host@1234@0@x',
        fields: { reason: 'TOO_MANY_REQUESTS', waitMs: null, code: null, brokerAddr: null },
      },
    ],
  },
  {
    id: 'send-failed/grpc-finally',
    type: 'send-failed',
    keywords: ['ailed to send message finally', 'ailed to send message(s) finally'],
    pattern: /[Ff]ailed to send message(?:\(s\))? finally, run out of attempt times/,
    versions: 'rocketmq-clients 5.x (Java, Go, C#)',
    source: 'rocketmq-clients java/client/.../impl/producer/ProducerImpl.java (java-5.0.8), golang/producer.go (golang/v5.1.2), csharp/rocketmq-client-csharp/Producer.cs',
    format: 'Failed to send message(s) finally, run out of attempt times, maxAttempts={}, attempt={}, topic={}, messageId(s)={}, endpoints={}, clientId={}',
    args: ['maxAttempts', 'attempts', 'topic', 'messageIds', 'endpoints', 'clientId'],
    forms: {
      go: { format: 'failed to send message(s) finally, run out of attempt times, topic=%s, messageId(s)=%v, maxAttempts=%d, attempt=%d, endpoints=%v, requestId=%s', args: ['topic', 'messageIds', 'maxAttempts', 'attempts', 'endpoints', 'requestId'], printf: true },
    },
    fields: (_g, text) => ({ attempts: num(kv(text, 'attempt')), costMs: null, topic: kv(text, 'topic'), brokersSent: [] }),
    versionHint: '5.x-grpc',
    samples: [
      {
        text: 'Failed to send message(s) finally, run out of attempt times, maxAttempts=3, attempt=3, topic=TopicTest, messageId(s)=[01C0A80A0B5F3C2A1B0000000000], endpoints=ipv4:10.0.0.1:8081, clientId=host@1234@0@x',
        fields: { attempts: 3, topic: 'TopicTest', costMs: null, brokersSent: [] },
      },
      {
        text: '{"level":"error","ts":"2024-05-20T14:03:11+08:00","caller":"golang/producer.go:234","msg":"failed to send message(s) finally, run out of attempt times, topic=TopicTest, messageId(s)=[01C0A80A], maxAttempts=3, attempt=3, endpoints=scheme:IPv4 addresses:{host:\\"10.0.0.1\\" port:8081}, requestId=7f0c"}',
        fields: { attempts: 3, topic: 'TopicTest' },
      },
    ],
  },
  {
    id: 'send-attempt-failed/grpc',
    type: 'send-attempt-failed',
    keywords: ['ailed to send message, '],
    pattern: /[Ff]ailed to send message, (?:would attempt to resend right now, )?(?=.*\b(?:maxAttempts|topic)=)/,
    versions: 'rocketmq-clients 5.x (Java, Go, C#)',
    source: 'rocketmq-clients java/client/.../impl/producer/ProducerImpl.java (java-5.0.8), golang/producer.go (golang/v5.1.2), csharp/rocketmq-client-csharp/Producer.cs',
    format: 'Failed to send message, would attempt to resend right now, maxAttempts={}, attempt={}, topic={}, messageId(s)={}, endpoints={}, clientId={}',
    args: ['maxAttempts', 'attempt', 'topic', 'messageIds', 'endpoints', 'clientId'],
    forms: {
      csharp: { format: 'Failed to send message, topic={}, maxAttempts={}, attempt={}, endpoints={}, messageId={}, clientId={}', args: ['topic', 'maxAttempts', 'attempt', 'endpoints', 'messageId', 'clientId'] },
    },
    causeFromNext: true,
    fields: (_g, text) => grpcAttempt(text),
    versionHint: '5.x-grpc',
    samples: [
      {
        text: '2024-05-20 14:03:11.483 WARN  [23817] [rocketmq-client-callback-1] [o.a.r.c.j.i.p.ProducerImpl#send0:544] - Failed to send message, would attempt to resend right now, maxAttempts=3, attempt=1, topic=TopicTest, messageId(s)=[01C0A80A0B5F3C2A1B0000000000], endpoints=ipv4:10.0.0.1:8081, clientId=host@1234@0@x',
        fields: { topic: 'TopicTest', attempt: 1, maxAttempts: 3, endpoints: 'ipv4:10.0.0.1:8081', brokerName: null, cause: null },
      },
      {
        text: 'Failed to send message, topic=TopicTest, maxAttempts=3, attempt=2, endpoints=ipv4:10.0.0.1:8081, messageId=01C0A80A, clientId=host@1234@0@x',
        fields: { topic: 'TopicTest', attempt: 2, maxAttempts: 3, endpoints: 'ipv4:10.0.0.1:8081' },
      },
    ],
  },
  {
    id: 'heartbeat-failed/grpc',
    type: 'heartbeat-failed',
    keywords: ['ailed to send heartbeat'],
    pattern: /[Ff]ailed to send heartbeat(?:, code=\S+?, status message=\[.*?\])?, endpoints=|Failed to send heartbeat to target_host=/,
    versions: 'rocketmq-clients 5.x (Java ClientImpl, Go client.go, C# Client.cs, C++ ClientManagerImpl.cpp)',
    source: 'rocketmq-clients java/client/.../impl/ClientImpl.java (java-5.0.8), golang/client.go (golang/v5.1.2), csharp/rocketmq-client-csharp/Client.cs, cpp/source/client/ClientManagerImpl.cpp',
    format: 'Failed to send heartbeat, endpoints={}, clientId={}',
    args: ['endpoints', 'clientId'],
    forms: {
      cpp: { format: 'Failed to send heartbeat to target_host={}. gRPC code: {}, message: {}', args: ['targetHost', 'code', 'message'] },
    },
    fields: (_g, text) => heartbeat(null, null, endpoints(text) ?? str(/target_host=(\S+?)\.?(?:\s|$)/.exec(text)?.[1])),
    versionHint: '5.x-grpc',
    samples: [
      { text: 'Failed to send heartbeat, endpoints=ipv4:10.0.0.1:8081, clientId=host@1234@0@x', fields: { brokerAddr: 'ipv4:10.0.0.1:8081', brokerName: null } },
      { text: 'Failed to send heartbeat to target_host=10.0.0.1:8081. gRPC code: 14, message: failed to connect to all addresses', fields: { brokerAddr: '10.0.0.1:8081' } },
    ],
  },
  {
    id: 'route-update-failed/grpc',
    type: 'route-update-failed',
    keywords: ['Failed to fetch topic route', 'Failed to send query route request', ' failed: error='],
    pattern: /Failed to fetch topic route|Failed to send query route request to server|query route for topic=\S+ failed: error=/,
    versions: 'rocketmq-clients 5.x (Java ClientImpl, C# Client.cs, C++ ClientManagerImpl.cpp, Rust client.rs)',
    source: 'rocketmq-clients java/client/.../impl/ClientImpl.java (java-5.0.8), csharp/rocketmq-client-csharp/Client.cs, cpp/source/client/ClientManagerImpl.cpp, rust/src/client.rs',
    format: 'Failed to fetch topic route, clientId={}, topic={}',
    args: ['clientId', 'topic'],
    forms: {
      rust: { format: 'query route for topic={} failed: error={}', args: ['topic', 'cause'] },
    },
    fields: (_g, text) => routeFail(kv(text, 'topic'), str(/failed: error=(.*?)\s*$/.exec(text)?.[1])),
    versionHint: '5.x-grpc',
    samples: [
      { text: 'Failed to fetch topic route, clientId=host@1234@0@x, topic=TopicTest', fields: { topic: 'TopicTest', cause: null } },
      { text: 'query route for topic=TopicTest failed: error=ClientError { kind: RpcTimeout }', fields: { topic: 'TopicTest', cause: 'ClientError { kind: RpcTimeout }' } },
    ],
  },
  {
    id: 'channel-closed/grpc-stream',
    type: 'channel-closed',
    keywords: ['Exception raised from stream response observer'],
    pattern: /Exception raised from stream response observer/,
    versions: 'rocketmq-clients Java 5.x',
    source: 'rocketmq-clients java/client/.../impl/ClientSessionImpl.java (java-5.0.7): the telemetry stream to the proxy broke',
    format: 'Exception raised from stream response observer, clientId={}, endpoints={}',
    args: ['clientId', 'endpoints'],
    fields: (_g, text) => closed(endpoints(text), 'stream-error'),
    versionHint: '5.x-grpc',
    samples: [
      {
        text: '2024-08-17 16:48:04.256 ERROR [60776] [RocketmqClientAsyncWorker-0-14] [o.a.r.c.j.i.ClientSessionImpl#?:?] - Exception raised from stream response observer, clientId=ElijahMBP19.local@60776@0@2odcwjmfyo, endpoints=ipv4:192.168.101.128:18081',
        fields: { addr: 'ipv4:192.168.101.128:18081', reason: 'stream-error', result: null },
      },
    ],
  },
  {
    id: 'startup/grpc-client',
    type: 'startup',
    keywords: ['egin to start the rocketmq client'],
    pattern: /[Bb]egin to start the rocketmq client/,
    versions: 'rocketmq-clients 5.x (Go client.go, Java ClientImpl)',
    source: 'rocketmq-clients golang/client.go (golang/v5.1.2), java/client/.../impl/ClientImpl.java',
    format: 'begin to start the rocketmq client',
    args: [],
    forms: {
      java: { format: 'Begin to start the rocketmq client, clientId={}', args: ['clientId'] },
    },
    fields: () => startup('client'),
    versionHint: '5.x-grpc',
    samples: [
      { text: '2024-09-18T16:30:57.524+0800\tINFO\tv5@v5.1.1-rc1/client.go:494\tbegin to start the rocketmq client\t{"client_id": "SISDRV2412@17544@0@h01n9bsjvk"}', fields: { role: 'client', version: null } },
      { text: 'Begin to start the rocketmq client, clientId=host@1234@0@x', fields: { role: 'client' } },
    ],
  },

  {
    id: 'startup/grpc-consume-service',
    type: 'startup',
    keywords: [' consume service, consumerGroup='],
    pattern: /Create (?:standard|FIFO) consume service, consumerGroup=(?<g>[^,\s]*), clientId=/,
    versions: 'rocketmq-client-java 5.0.0-5.2.x',
    source: 'rocketmq-clients java PushConsumerImpl#createConsumeService (called from startUp: the push consumer of this group starting)',
    format: 'Create standard consume service, consumerGroup={}, clientId={}',
    args: ['group', 'clientId'],
    forms: { fifo: { format: 'Create FIFO consume service, consumerGroup={}, clientId={}', args: ['group', 'clientId'] } },
    // The gRPC consumer's lines that follow (a listener's exception) do not print the group: this one does.
    fields: (g) => startup('consumer', { group: str(g.g) }),
    versionHint: '5.x-grpc',
    samples: [
      {
        // Real: samples/lab/consumer-grpc-failures-dlq (rocketmq-client-java 5.0.7).
        text: '2026-12-07 10:22:13.721 INFO  [14459] [PushConsumerImpl-0 STARTING] [o.a.r.c.j.i.c.PushConsumerImpl#?:?] - Create standard consume service, consumerGroup=CID_STOCK, clientId=vm@14459@0@dbizerlj6',
        fields: { role: 'consumer', group: 'CID_STOCK', version: null },
      },
      { text: 'Create FIFO consume service, consumerGroup=GID_FIFO, clientId=host@1234@0@abc', fields: { role: 'consumer', group: 'GID_FIFO' } },
    ],
  },

  {
    id: 'startup/grpc-simple-consumer',
    type: 'startup',
    keywords: ['egin to start the rocketmq simple consumer'],
    pattern: /Begin to start the rocketmq simple consumer, clientId=/,
    versions: 'rocketmq-client-java 5.0.0-5.2.x',
    source: 'rocketmq-clients java SimpleConsumerImpl#startUp',
    format: 'Begin to start the rocketmq simple consumer, clientId={}',
    args: ['clientId'],
    // Its group is not printed (nor by its receives): the host runs a consumer, not a producer.
    fields: () => startup('consumer'),
    versionHint: '5.x-grpc',
    samples: [
      {
        // Real: a lab smoke run of rocketmq-client-java 5.0.7's SimpleConsumer through a 5.3.3 proxy.
        text: '2026-12-07 11:02:31.946 INFO  [11316] [SimpleConsumerImpl-0 STARTING] [o.a.r.c.j.i.c.SimpleConsumerImpl#?:?] - Begin to start the rocketmq simple consumer, clientId=vm@11316@0@e6fi72obt',
        fields: { role: 'consumer', group: null, version: null },
      },
    ],
  },

  // ---- ali-ons (Node.js client of Aliyun ONS) -------------------------------------------------
  {
    id: 'route-update-failed/ali-ons',
    type: 'route-update-failed',
    keywords: ['updateAllTopicRouterInfo occurred error'],
    pattern: /updateAllTopicRouterInfo occurred error/,
    versions: 'ali-ons',
    source: 'ali-ons lib/mq_client.js (MQClient.updateAllTopicRouterInfo)',
    format: '[mq:client] updateAllTopicRouterInfo occurred error, {}',
    args: ['message'],
    fields: () => routeFail(null),
    versionHint: 'ali-ons',
    samples: [
      {
        text: '[Wed Dec 04 2019 21:14:05 GMT+0800 (中国标准时间)][pid: 7268][MQProducer] MQClientException: MQPushConsumer occurred an errorMQPushConsumer occurred an error [mq:client] updateAllTopicRouterInfo occurred error,  ',
        fields: { topic: null, cause: null },
      },
    ],
  },
  ...CLIENT_CONSUMER_ENTRIES,
];
