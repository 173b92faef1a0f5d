// Line layouts as data, in the spirit of lnav's format files: each layout is a header pattern with
// named groups, a timestamp format, where its zone comes from, and sample lines that a test checks.
// Sources: RocketMQ's own logback and inner-logger patterns (the servers' logback XML, the client's
// LoggingBuilder and 5.x logback XML) and the layouts of real pastes (test/fixtures/real, its
// SOURCES.md). A source locks on to the layout that matched its first lines and
// falls back to the others only for lines that do not match it (mixed pastes).

import { ISO8601 } from './timestamp.js';
import type { SourceKind } from '../ingest/kinds.js';

const LEVEL = '(?<level>TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL)';
/** An ISO-8601 time as logrus, zap and log4j2 `%d{ISO8601_OFFSET_DATE_TIME_*}` print it (read with ISO8601). */
const ISO = String.raw`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}(?::?\d{2})?)?`;
/** A full date and time at the start of a line, in any of the forms above, for the fallback layouts. */
const ANY_DATE = String.raw`\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}(?::?\d{2})?)?`;
/** The level word anywhere in the next 100 characters, when there is one (fallback layouts). */
const LEVEL_AHEAD = String.raw`(?:(?=[^\n]{0,100}?\b(?<level>TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL)\b)|)`;

export interface Layout {
  id: string;
  title: string;
  /** Header pattern. Groups: ts, level, thread, logger, msg, and optional pid, line, method, mdc. */
  header: RegExp;
  /** Timestamp format of the `ts` group (see compileTimestamp), or null when the layout has no time. */
  ts: string | null;
  /** Characters before the timestamp (e.g. `[`). */
  tsPrefix?: string;
  /**
   * The characters a header can start with, for layouts whose time is absent or not at a fixed
   * position (JSON lines, logrus' level-first TTY form). Default: `[` when `ts` is null. An empty
   * string lets every line be tried (a `--pattern` that starts with a field other than the date).
   */
  starts?: string;
  /**
   * A catch-all for lines that print a full date in no known layout: never chosen as a source's layout
   * while another layout matches, and tried last.
   */
  fallback?: boolean;
  /**
   * Where the zone comes from: `gmt8` = fixed at GMT+8 by RocketMQ's pattern; `printed` = in the
   * timestamp itself; `source` = the JVM/application zone (default +08:00, `--tz` overrides).
   */
  zone: 'gmt8' | 'printed' | 'source';
  /** A zone the pattern itself fixes (`%d{..., GMT+8}` of a `--pattern`): used like `gmt8`. */
  fixedZone?: string;
  /** The layout prints a time of day only (no date). */
  timeOnly?: boolean;
  /** The message is on the line after the header (log4j `%l` pastes). */
  messageOnNextLine?: boolean;
  /** The 4.3.0-4.7.1 inner logger printed seconds where millis belong (`,sss`). */
  fakeMillisCheck?: boolean;
  /** The kind this layout implies when the file name says nothing. */
  impliesKind: SourceKind;
  /** Version range this layout pins, when it does. */
  versionHint?: string;
  /**
   * Catalogue version hints of other clients that write this layout too: a file with one of them
   * is that client's, and the layout's own hint does not hold for it.
   */
  alsoWrittenBy?: readonly string[];
  /** Lower wins when two layouts match the same number of detection lines. */
  priority: number;
  samples: string[];
  /**
   * How rmq-diag writes a header in this layout (src/parse/render.ts): the header's text with `{ts}`
   * (the time in `ts`'s format), `{level}`, `{thread}`, `{logger}`, `{pid}`, `{method}`, `{line}`,
   * each optionally padded (`{level:<5}` left-aligned, `{thread:>15}` right-aligned, as logback's
   * `%-5p`, `%15t`). A test renders every template and parses it back with `header`.
   */
  render?: string;
}

export const LAYOUTS: readonly Layout[] = [
  {
    id: 'rocketmq-server',
    title: 'RocketMQ server logback `yyyy-MM-dd HH:mm:ss LEVEL thread - msg` (also the 4.0-4.2 client logback binding)',
    header: new RegExp(`^(?<ts>\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}) ${LEVEL} (?<thread>[^\\s-][^ ]*(?: [^ -][^ ]*)*?) - `),
    ts: 'yyyy-MM-dd HH:mm:ss',
    zone: 'gmt8',
    impliesKind: 'broker',
    priority: 10,
    render: '{ts} {level} {thread} - ',
    samples: [
      '2024-09-25 16:20:39 WARN NettyClientWorkerThread_3 - NETTY CLIENT PIPELINE: IDLE exception [10.169.133.146:9876]',
      '2021-04-28 10:34:33 WARN MQClientFactoryScheduledThread - updateTopicRouteInfoFromNameServer Exception',
    ],
  },
  {
    id: 'rocketmq-server-nothread',
    title: 'RocketMQ stats.log `yyyy-MM-dd HH:mm:ss LEVEL - msg`',
    header: new RegExp(`^(?<ts>\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}) ${LEVEL} - `),
    ts: 'yyyy-MM-dd HH:mm:ss',
    zone: 'gmt8',
    impliesKind: 'stats',
    priority: 9,
    render: '{ts} {level} - ',
    samples: ['2024-05-20 14:04:00 INFO - [TOPIC_PUT_NUMS] [TopicTest] Stats In One Minute, SUM: 120 TPS: 2.00 AVGPT: 1.00'],
  },
  {
    id: 'rocketmq-bare',
    title: 'RocketMQ watermark.log / protection.log `yyyy-MM-dd HH:mm:ss - msg`',
    header: /^(?<ts>\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}) - /,
    ts: 'yyyy-MM-dd HH:mm:ss',
    zone: 'gmt8',
    impliesKind: 'watermark',
    priority: 8,
    render: '{ts} - ',
    samples: ['2024-05-20 14:03:18 - [WATERMARK] Send Queue Size: 37 SlowTimeMills: 184'],
  },
  {
    id: 'rocketmq-client-inner',
    title: 'RocketMQ client 4.3-5.0 inner logger `yyyy-MM-dd HH:mm:ss,SSS LEVEL Logger - msg`',
    header: new RegExp(`^(?<ts>\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2},\\d{3}) ${LEVEL} (?<logger>[A-Za-z_$][\\w$.]*) - `),
    ts: 'yyyy-MM-dd HH:mm:ss,SSS',
    zone: 'source',
    fakeMillisCheck: true,
    impliesKind: 'client',
    versionHint: '4.3.0-5.0.0',
    priority: 10,
    render: '{ts} {level} {logger} - ',
    samples: [
      '2020-12-01 19:19:24,024 INFO RocketmqRemoting - NETTY CLIENT PIPELINE: CLOSE 192.168.0.153:10911',
      '2024-05-20 14:03:11,490 WARN RocketmqClient - sendKernelImpl exception, resend at once, InvokeID: -4223562238651452357, RT: 8ms, Broker: MessageQueue [topic=TopicTest, brokerName=broker-a, queueId=2]',
    ],
  },
  {
    id: 'rocketmq-client-log4j',
    title: 'RocketMQ client 4.0-4.2 log4j/log4j2 binding, or log4j `%c{1}(%L)`: `yyyy-MM-dd HH:mm:ss,SSS LEVEL Logger(line) - msg`',
    header: new RegExp(`^(?<ts>\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2},\\d{3}) ${LEVEL} {1,2}(?<logger>[A-Za-z_$][\\w$.]*)\\((?<line>\\d+|\\?)\\) - `),
    ts: 'yyyy-MM-dd HH:mm:ss,SSS',
    zone: 'source',
    impliesKind: 'client',
    priority: 11,
    render: '{ts} {level} {logger}({line}) - ',
    samples: ['2018-02-06 18:44:08,425 WARN RocketmqClient(520) - sendKernelImpl exception'],
  },
  {
    id: 'rocketmq-client-5x',
    title: 'RocketMQ client 5.1+ logback `yyyy-MM-dd HH:mm:ss.SSS LEVEL [pid] [thread] [logger#method:line] - msg`',
    header: new RegExp(`^(?<ts>\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}\\.\\d{3}) ${LEVEL} {1,2}\\[(?<pid>\\d+)\\] \\[(?<thread>[^\\]]*)\\] \\[(?<logger>[^#\\]]*)#(?<method>[^:\\]]*):(?<line>[^\\]]*)\\] - `),
    ts: 'yyyy-MM-dd HH:mm:ss.SSS',
    zone: 'gmt8',
    impliesKind: 'client',
    versionHint: '>=5.1.0',
    // rocketmq-client-java (the 5.x gRPC client, 5.0.x) writes the same layout.
    alsoWrittenBy: ['5.x-grpc'],
    priority: 5,
    render: '{ts} {level:<5} [{pid}] [{thread}] [{logger}#{method}:{line}] - ',
    samples: [
      '2024-05-20 14:03:11.483 INFO  [23817] [NettyClientWorkerThread_1] [RocketmqRemoting#?:?] - NETTY CLIENT PIPELINE: CONNECT  10.0.0.2 => 10.0.0.1:10911',
    ],
  },
  {
    id: 'spring-boot',
    title: 'Spring Boot 2.x default `yyyy-MM-dd HH:mm:ss.SSS  LEVEL pid --- [thread] logger : msg`',
    header: new RegExp(`^(?<ts>\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}\\.\\d{3}) {1,2}${LEVEL} +(?<pid>\\d+) --- \\[ *(?<thread>[^\\]]*?)\\] (?<logger>\\S+) *: `),
    ts: 'yyyy-MM-dd HH:mm:ss.SSS',
    zone: 'source',
    impliesKind: 'app',
    priority: 20,
    // Spring Boot's file pattern (its console one pads the thread to 15): both parse.
    render: '{ts} {level:>5} {pid} --- [{thread}] {logger:<40} : ',
    samples: ['2024-01-15 10:00:01.123  INFO 4242 --- [           main] c.e.order.OrderApplication               : Started OrderApplication in 3.2 seconds'],
  },
  {
    id: 'spring-boot-3',
    title: 'Spring Boot 3.x default `yyyy-MM-ddTHH:mm:ss.SSS+hh:mm  LEVEL pid --- [app] [thread] logger : msg`',
    header: new RegExp(`^(?<ts>\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}(?:Z|[+-]\\d{2}:\\d{2})) {1,2}${LEVEL} +(?<pid>\\d+) --- (?:\\[(?<mdc>[^\\]]*)\\] )?\\[ *(?<thread>[^\\]]*?)\\] (?<logger>\\S+) *: `),
    ts: "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
    zone: 'printed',
    impliesKind: 'app',
    priority: 20,
    render: '{ts} {level:>5} {pid} --- [{thread:>15}] {logger:<40} : ',
    samples: ['2024-01-15T10:00:01.123+08:00  INFO 4242 --- [order] [           main] c.e.order.OrderApplication               : Started'],
  },
  {
    id: 'logback-line',
    title: 'logback `%d [thread] LEVEL logger:line  msg` (no ` - `)',
    header: new RegExp(`^(?<ts>\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}\\.\\d{3}) \\[(?<thread>[^\\]]+)\\] ${LEVEL} {1,2}(?<logger>[\\w$.]+):(?<line>\\d+) {1,2}`),
    ts: 'yyyy-MM-dd HH:mm:ss.SSS',
    zone: 'source',
    impliesKind: 'app',
    priority: 21,
    render: '{ts} [{thread}] {level:<5} {logger}:{line} ',
    samples: [
      '2020-11-02 14:00:01.253 [NettyClientPublicExecutor_2] ERROR c.a.c.s.b.r.integration.RocketMQMessageHandler:220  RocketMQ Message hasn\'t been sent.',
    ],
  },
  {
    id: 'logback-app',
    title: 'logback/log4j `%d [thread] LEVEL logger - msg`',
    header: new RegExp(`^(?<ts>\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}[.,]\\d{3}) \\[(?<thread>[^\\]]+)\\] ${LEVEL} {1,2}(?<logger>\\S+) - `),
    ts: 'yyyy-MM-dd HH:mm:ss.SSS',
    zone: 'source',
    impliesKind: 'app',
    priority: 22,
    // logback's `%d [%thread] %-5level %logger - %msg`.
    render: '{ts} [{thread}] {level:<5} {logger} - ',
    samples: [
      '2018-12-30 21:26:12.523 [pool-4-thread-1] ERROR com.alibaba.otter.canal.rocketmq.CanalRocketMQProducer - send flat message to hashed partition error',
    ],
  },
  {
    id: 'level-thread-mdc',
    title: 'level before thread, MDC trace id, `Line:`: `%d LEVEL [thread] [TID:..] logger Line:N - msg`',
    header: new RegExp(`^(?<ts>\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}[.,]\\d{3}) ${LEVEL} {1,2}\\[(?<thread>[^\\]]+)\\] (?:\\[(?<mdc>[^\\]]*)\\] )?(?<logger>\\S+)(?: Line:(?<line>\\d+))? - `),
    ts: 'yyyy-MM-dd HH:mm:ss.SSS',
    zone: 'source',
    impliesKind: 'app',
    priority: 23,
    render: '{ts} {level:<5} [{thread}] {logger} - ',
    samples: [
      '2023-11-21 07:57:00.168 ERROR [DubboServerHandler-172.20.30.111:17690-thread-193] [TID:e66d07f2] c.sohu.tv.mq.rocketmq.RocketMQProducer Line:284 - send error',
    ],
  },
  {
    id: 'thread-logger-line',
    title: 'an application pattern `yyyy-MM-dd HH:mm:ss,SSS LEVEL thread Logger line: msg`',
    // As a real client log prints it (test/fixtures/real/101-*: `ConsumeMessageThread_1 RocketmqClient 421:`).
    header: new RegExp(`^(?<ts>\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2},\\d{3}) ${LEVEL} (?<thread>\\S+) (?<logger>[A-Za-z_$][\\w$.]*) (?<line>\\d+): `),
    ts: 'yyyy-MM-dd HH:mm:ss,SSS',
    zone: 'source',
    impliesKind: 'app',
    priority: 26,
    render: '{ts} {level} {thread} {logger} {line}: ',
    samples: ['2020-11-20 13:29:12,037 WARN ConsumeMessageThread_1 RocketmqClient 421: consumeMessage exception: java.lang.NullPointerException Group: CG-creation'],
  },
  {
    id: 'logger-thread-brackets',
    title: 'an application pattern `yyyy-MM-dd HH:mm:ss,SSS LEVEL [Logger   ] [thread] - msg` (the logger padded)',
    // As SeaTunnel's log prints the RocketMQ client (test/fixtures/real/109-*, after a `[traceId] ` prefix).
    header: new RegExp(`^(?<ts>\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2},\\d{3}) ${LEVEL} {1,2}\\[(?<logger>[^\\]]*?) *\\] \\[(?<thread>[^\\]]*)\\] - `),
    ts: 'yyyy-MM-dd HH:mm:ss,SSS',
    zone: 'source',
    impliesKind: 'app',
    // Before level-thread-mdc (23), which would read the padded logger as the thread.
    priority: 22.5,
    render: '{ts} {level:<5} [{logger:<30}] [{thread}] - ',
    samples: [
      "2025-10-16 20:40:50,976 INFO  [RocketmqClient                ] [NettyClientPublicExecutor_1] - receive broker's notification[10.233.92.251:10911], the consumer group: g changed, rebalance immediately",
    ],
  },
  {
    id: 'level-dash-thread-pipe',
    title: 'an application pattern `yyyy-MM-dd HH:mm:ss.SSSS LEVEL - thread | Logger.method-line  msg`',
    // As a real client log prints it (test/fixtures/real/145-*: `RocketmqClient.onException-384`).
    header: new RegExp(`^(?<ts>\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}\\.\\d{4}) ${LEVEL} - (?<thread>[^|]+?) \\| (?<logger>[\\w$.]+)\\.(?<method>[\\w$<>?]+)-(?<line>\\d+|\\?) {1,2}`),
    ts: 'yyyy-MM-dd HH:mm:ss.SSSS',
    zone: 'source',
    impliesKind: 'app',
    priority: 28,
    render: '{ts} {level} - {thread} | {logger}.{method}-{line}  ',
    samples: ['2018-07-18 10:26:55.0926 WARN - NettyClientPublicExecutor_2 | RocketmqClient.onException-384  execute the pull request exception'],
  },
  {
    id: 'time-only',
    title: 'logback console default, time only (also RuoYi with `[method,line] - `): `HH:mm:ss.SSS [thread] LEVEL logger - msg`',
    header: new RegExp(`^(?<ts>\\d{2}:\\d{2}:\\d{2}\\.\\d{3}) \\[(?<thread>[^\\]]+)\\] ${LEVEL} {1,2}(?<logger>\\S+) - (?:\\[(?<method>[\\w$]+),(?<line>\\d+)\\] - )?(?<msg>.*)$`),
    ts: 'HH:mm:ss.SSS',
    zone: 'source',
    timeOnly: true,
    impliesKind: 'app',
    priority: 30,
    render: '{ts} [{thread}] {level:<5} {logger} - ',
    samples: [
      '04:21:23.861 [NettyClientSelector_1] INFO  RocketmqRemoting - closeChannel: close the connection to remote address[10.0.0.1:10911] result: true',
      '15:50:28.835 [MQClientFactoryScheduledThread] INFO  RocketmqRemoting - [info,90] - createChannel: begin to connect remote host[x.x.x.x:10911] asynchronously',
    ],
  },
  {
    id: 'jboss',
    title: 'JBoss/WildFly `HH:mm:ss,SSS LEVEL [category] (thread) msg`',
    header: new RegExp(`^(?<ts>\\d{2}:\\d{2}:\\d{2},\\d{3}) ${LEVEL} {1,2}\\[(?<logger>[^\\]]+)\\] (?:\\((?<thread>[^)]+)\\) )?(?<msg>.*)$`),
    ts: 'HH:mm:ss,SSS',
    zone: 'source',
    timeOnly: true,
    impliesKind: 'app',
    priority: 31,
    render: '{ts} {level:<5} [{logger}] ({thread}) ',
    samples: ['10:52:07,674 ERROR [RocketMQSupport] Send [1] times, still failed, cost [3003]ms, Topic: autoPolicy, BrokersSent: [broker-a, null, null]'],
  },
  {
    id: 'two-digit-year',
    title: 'old com.alibaba client `yy-MM-dd HH:mm:ss LEVEL thread - msg`',
    header: new RegExp(`^(?<ts>\\d{2}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}) ${LEVEL} (?<thread>[^\\s-][^ ]*(?: [^ -][^ ]*)*?) - `),
    ts: 'yy-MM-dd HH:mm:ss',
    // DERIVED: the 3.x client's logback pattern fixed GMT+8 like its 4.0 successor.
    zone: 'gmt8',
    impliesKind: 'client',
    versionHint: '3.x',
    priority: 12,
    render: '{ts} {level} {thread} - ',
    samples: ['16-11-02 10:56:03 ERROR PullMessageService - pullKernelImpl exception'],
  },
  {
    id: 'bracket-ts',
    title: 'bracketed timestamp `[yyyy-MM-dd HH:mm:ss.SSS] LEVEL msg`',
    header: new RegExp(`^\\[(?<ts>\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}[.,]\\d{3})\\] ${LEVEL} {1,2}`),
    ts: 'yyyy-MM-dd HH:mm:ss.SSS',
    tsPrefix: '[',
    zone: 'source',
    impliesKind: 'app',
    priority: 24,
    render: '[{ts}] {level:<5} ',
    samples: ['[2018-12-10 03:29:44.384] ERROR op=global_exception_handler_print_error'],
  },
  {
    id: 'rocketmq-client-cpp',
    title: 'rocketmq-client-cpp `[yyyy-Mon-dd HH:mm:ss.ffffff](level):msg[function:line]`',
    header: /^\[(?<ts>\d{4}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6})\]\((?<level>[a-z]+)\):(?<msg>.*?)(?:\[(?<method>[\w~:]+):(?<line>\d+)\])?\s*$/,
    ts: 'yyyy-MMM-dd HH:mm:ss.SSSSSS',
    tsPrefix: '[',
    zone: 'source',
    impliesKind: 'client',
    versionHint: 'cpp',
    priority: 13,
    samples: ['[2020-May-17 07:41:38.780542](warning):Get topic[TBW102] route failed [TOPIC_NOT_EXIST].[getTopicRouteInfoFromNameServer:324]'],
  },
  {
    id: 'rocketmq-client-log4j-comma',
    title: 'com.alibaba 3.x client log4j `yyyy-MM-dd HH:mm:ss,SSS LEVEL Logger , msg`',
    // As real 3.x client logs print it (test/fixtures/real/87-*).
    header: new RegExp(`^(?<ts>\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2},\\d{3}) ${LEVEL} {1,2}(?<logger>[A-Za-z_$][\\w$.]*) , `),
    ts: 'yyyy-MM-dd HH:mm:ss,SSS',
    zone: 'source',
    impliesKind: 'client',
    versionHint: '3.x',
    priority: 12,
    render: '{ts} {level:<5} {logger} , ',
    samples: ['2018-02-25 09:11:18,566 WARN  RocketmqRemoting , invokeSync: wait response timeout exception, the channel[172.16.66.11:10911]'],
  },
  {
    id: 'rocketmq-clients-cpp',
    title: 'rocketmq-clients C++ 5.x (spdlog) `yyyy-MM-dd HH:mm:ss.SSS [--I--] [thread] msg file:line`',
    // rocketmq-clients cpp/source/log/LoggerImpl.cpp DEFAULT_PATTERN "%Y-%m-%d %H:%M:%S.%e [%^--%L--%$] [%7t] %v %@" (cpp-5.0.4 on).
    header: /^(?<ts>\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}) \[--(?<level>[TDIWEC])--\] \[ *(?<thread>\d+)\] /,
    ts: 'yyyy-MM-dd HH:mm:ss.SSS',
    zone: 'source',
    impliesKind: 'client',
    versionHint: 'cpp-5.x',
    priority: 19,
    samples: ['2024-05-20 14:03:11.483 [--W--] [     77] Failed to send heartbeat to target_host=10.0.0.1:8081. gRPC code: 14, message: failed to connect to all addresses /src/ClientManagerImpl.cpp:196'],
  },
  {
    id: 'rocketmq-clients-cpp-zone',
    title: 'rocketmq-clients C++ 5.x, earlier pattern `[yyyy/MM/dd-HH:mm:ss.SSS +hh:mm] [logger] [---I---] [thread N] msg file:line`',
    // rocketmq-clients cpp/source/log/LoggerImpl.cpp, the pattern before "%Y-%m-%d ..." (kept there as a comment):
    // "[%Y/%m/%d-%H:%M:%S.%e %z] [%n] [%^---%L---%$] [thread %t] %v %@".
    header: /^\[(?<ts>\d{4}\/\d{2}\/\d{2}-\d{2}:\d{2}:\d{2}\.\d{3} [+-]\d{2}:\d{2})\] \[(?<logger>[^\]]*)\] \[---(?<level>[TDIWEC])---\] \[thread (?<thread>\d+)\] /,
    ts: 'yyyy/MM/dd-HH:mm:ss.SSS XXX',
    tsPrefix: '[',
    zone: 'printed',
    impliesKind: 'client',
    versionHint: 'cpp-5.x',
    priority: 19,
    samples: ['[2023/09/21-14:19:20.749 +00:00] [rocketmq_logger] [---I---] [thread 77] ClientManager[ResourceNamespace=] created /workspaces/l2test/l2test/libs/cpp/source/client/ClientManagerImpl.cpp:86'],
  },
  {
    id: 'rocketmq-client-cpp-iso',
    title: 'rocketmq-client-cpp with a numeric month `[yyyy-MM-dd HH:mm:ss.ffffff](level):msg[function:line]`',
    // rocketmq-client-cpp src/log/Logging.cpp (2.2.0): Boost.Log's TimeStamp, as some builds print it.
    header: /^\[(?<ts>\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6})\]\((?<level>[a-z]+)\):(?<msg>.*?)(?:\[(?<method>[\w~:]+):(?<line>\d+)\])?\s*$/,
    ts: 'yyyy-MM-dd HH:mm:ss.SSSSSS',
    tsPrefix: '[',
    zone: 'source',
    impliesKind: 'client',
    versionHint: 'cpp',
    priority: 14,
    samples: ['[2023-10-17 11:44:47.442250](warning):wait response timeout or get NULL response of code:105, so closeTransport of addr:[invokeSync:217]'],
  },
  {
    id: 'rocketmq-client-cpp-spdlog',
    title: 'rocketmq-client-cpp re_dev (spdlog) `[yyyy-MM-dd HH:mm:ss.SSS] [level] [thread@N] - msg [function:line]`',
    // rocketmq-client-cpp src/log/Logging.cpp (re_dev): spdlog::set_pattern("[%Y-%m-%d %H:%M:%S.%e] [%l] [thread@%t] - %v [%@ (%!)]").
    header: /^\[(?<ts>\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3})\] \[(?<level>[a-z]+)\] \[thread@(?<thread>\d+)\] - (?<msg>.*?)(?: \[(?<method>[\w~:]+)(?::(?<line>\d+))?(?: \([^)]*\))?\])?\s*$/,
    ts: 'yyyy-MM-dd HH:mm:ss.SSS',
    tsPrefix: '[',
    zone: 'source',
    impliesKind: 'client',
    versionHint: 'cpp',
    priority: 15,
    samples: ['[2021-01-29 16:41:41.136] [warning] [thread@969] - invokeSync: wait response timeout exception, the channel[172.18.139.100:10911] [invokeSync:242]'],
  },
  {
    id: 'go-logrus-text',
    title: 'rocketmq-client-go 2.x (logrus, not a terminal) `time="ISO" level=warning msg="..." key=value`',
    // rocketmq-client-go rlog/log.go (v2.0.0-v2.1.2): logrus.New() with its default TextFormatter, RFC 3339 times.
    header: /^time="(?<ts>[^"]+)" level=(?<level>[a-z]+) /,
    ts: ISO8601,
    tsPrefix: 'time="',
    starts: 't',
    zone: 'printed',
    impliesKind: 'client',
    versionHint: 'go',
    priority: 16,
    samples: ['time="2020-03-16T15:38:53Z" level=warning msg="send heart beat to broker error" underlayError="request timeout"'],
  },
  {
    id: 'go-logrus-tty-full',
    title: 'rocketmq-client-go 2.x (logrus on a terminal, full timestamp) `WARN[ISO] msg   key=value`',
    header: new RegExp(`^(?<level>DEBU|INFO|WARN|ERRO|FATA|PANI|TRAC)\\[(?<ts>${ISO})\\] `),
    ts: ISO8601,
    tsPrefix: 'WARN[',
    starts: 'DIWEFPT',
    zone: 'printed',
    impliesKind: 'client',
    versionHint: 'go',
    priority: 17,
    samples: ['WARN[2020-03-16T15:38:53+08:00] send heart beat to broker error                underlayError="request timeout"'],
  },
  {
    id: 'go-logrus-tty',
    title: 'rocketmq-client-go 2.x (logrus on a terminal) `WARN[0002] msg   key=value`: seconds since start, no time',
    header: /^(?<level>DEBU|INFO|WARN|ERRO|FATA|PANI|TRAC)\[\d+\] /,
    ts: null,
    starts: 'DIWEFPT',
    zone: 'source',
    impliesKind: 'client',
    versionHint: 'go',
    priority: 18,
    samples: ['WARN[0002] query topic route from server error           underlayError="topic not exist"'],
  },
  {
    id: 'go-zap-json',
    title: 'rocketmq-clients Go 5.x (zap JSON) `{"level":"warn","ts":"ISO","caller":"golang/producer.go:253","msg":"..."}`',
    // rocketmq-clients golang/pkg/zaplog/logger.go (golang/v5.1.2): JSON encoder, RFC 3339 times, short caller.
    header: new RegExp(`^\\{"level":"(?<level>[a-z]+)","ts":"(?<ts>${ISO})"(?:,"logger":"(?<thread>[^"]*)")?(?:,"caller":"(?<logger>[^"]*)")?,"msg":`),
    ts: ISO8601,
    starts: '{',
    zone: 'printed',
    impliesKind: 'client',
    versionHint: 'go-5.x',
    priority: 19,
    samples: ['{"level":"warn","ts":"2024-05-20T14:03:11+08:00","caller":"golang/producer.go:253","msg":"failed to send message, would attempt to resend right now, topic=TopicTest"}'],
  },
  {
    id: 'go-zap-console',
    title: 'Go zap console encoder `ISO LEVEL file.go:N [function] msg {json fields}` (rocketmq-client-go with a zap logger)',
    header: new RegExp(`^(?<ts>${ISO})[\\t ]+(?<level>DEBUG|INFO|WARN|ERROR|DPANIC|PANIC|FATAL)[\\t ]+(?<logger>[^\\s:]+\\.go):(?<line>\\d+)[\\t ]+(?:(?<method>\\S+\\)\\.\\w+|github\\.com/\\S+)[\\t ]+)?`),
    ts: ISO8601,
    zone: 'printed',
    impliesKind: 'client',
    versionHint: 'go',
    priority: 19,
    samples: [
      '2023-12-05T10:33:03+08:00 ERROR remote/remote_client.go:183 github.com/apache/rocketmq-client-go/v2/internal/remote.(*remotingClient).receiveResponse conn error, close connection {"underlayError": "read tcp 192.7.128.158:43358->192.183.1.196:9876: i/o timeout"}',
      '2024-09-18T16:30:57.524+0800\tINFO\tv5@v5.1.1-rc1/client.go:494\tbegin to start the rocketmq client\t{"client_id": "SISDRV2412@17544@0@h01n9bsjvk"}',
    ],
  },
  {
    id: 'rust-tracing',
    title: 'rocketmq-clients Rust 5.x (tracing fmt, no time) `WARN rocketmq::push_consumer: msg`',
    // rocketmq-clients rust (rust-5.0.0 on) logs through the `tracing` macros, target `rocketmq::<module>`;
    // the application's tracing-subscriber formats them, here without the time (test/fixtures/real/141-*).
    // Only the client's own targets are read.
    header: /^(?<level>TRACE|DEBUG|INFO|WARN|ERROR) (?<logger>rocketmq(?:::\w+)+): /,
    ts: null,
    starts: 'TDIWE',
    zone: 'source',
    impliesKind: 'client',
    versionHint: '5.x-grpc',
    priority: 19,
    samples: ['WARN rocketmq::push_consumer: unhandled status message Status { code: MessageNotFound, message: "no new message" }'],
  },
  {
    id: 'dotnet-nlog',
    title: 'rocketmq-clients C# 5.x (NLog) `yyyy-MM-dd HH:mm:ss.ffff LEVEL [pid] [thread] [callsite:line] msg`',
    // rocketmq-clients csharp/rocketmq-client-csharp/rocketmq-client-csharp.nlog (rocketmq-client-csharp-5.0.0):
    // ${longdate} ${level:uppercase=true:padding=-5} [${processid}] [${threadid}] [${callsite}:${callsite-linenumber}] ${message}
    header: new RegExp(`^(?<ts>\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}\\.\\d{4}) ${LEVEL} *\\[(?<pid>\\d+)\\] \\[(?<thread>[^\\]]*)\\] \\[(?<logger>[^\\]]*?):(?<line>\\d*)\\] `),
    ts: 'yyyy-MM-dd HH:mm:ss.SSSS',
    zone: 'source',
    impliesKind: 'client',
    versionHint: 'csharp-5.x',
    priority: 19,
    render: '{ts} {level:<5} [{pid}] [{thread}] [{logger}:{line}] ',
    samples: ['2023-03-01 10:00:02.1234 WARN  [9160] [12] [Org.Apache.Rocketmq.Producer+<Send0>d__21.MoveNext:260] Failed to send message, topic=TopicTest, maxAttempts=3, attempt=1, endpoints=ipv4:10.0.0.1:8081'],
  },
  {
    id: 'ali-ons-node',
    title: 'ali-ons (Node.js client of Aliyun ONS) `[Wed Dec 04 2019 21:14:05 GMT+0800 (zone)][pid: N][Logger] msg`',
    // JavaScript's Date#toString, as ali-ons prints it (test/fixtures/real/77-*).
    header: /^\[(?<ts>[A-Z][a-z]{2} [A-Z][a-z]{2} \d{2} \d{4} \d{2}:\d{2}:\d{2} GMT[+-]\d{4})(?: \([^)]*\))?\]\[pid: (?<pid>\d+)\]\[(?<logger>[^\]]*)\] /,
    ts: "EEE MMM dd yyyy HH:mm:ss 'GMT'XXX",
    tsPrefix: '[',
    zone: 'printed',
    impliesKind: 'client',
    versionHint: 'ali-ons',
    priority: 19,
    samples: ['[Wed Dec 04 2019 21:14:05 GMT+0800 (中国标准时间)][pid: 7268][MQProducer] MQClientException: MQPushConsumer occurred an error'],
  },
  {
    id: 'bracket-iso-level-logger',
    title: 'log4j2 `[%d{ISO8601}][%-5p][%-25c{1.}] msg`: `[yyyy-MM-ddTHH:mm:ss,SSS][LEVEL][Logger   ] msg`',
    header: new RegExp(`^\\[(?<ts>${ISO})\\]\\[${LEVEL} *\\]\\[(?<logger>[^\\]]*?) *\\] ?`),
    ts: ISO8601,
    tsPrefix: '[',
    zone: 'source',
    impliesKind: 'app',
    priority: 25,
    samples: ['[2021-03-04T10:15:30,123][WARN ][o.a.r.c.i.f.MQClientInstance] updateTopicRouteInfoFromNameServer Exception'],
  },
  {
    id: 'log4j-location',
    title: 'log4j `%l` paste, no time, message on the next line: `[thread] LEVEL Logger.method (File.java:N)`',
    header: new RegExp(`^\\[(?<thread>[^\\]]+)\\] ${LEVEL} {1,2}(?<logger>[\\w$.]+)\\.(?<method>[\\w$<>]+) \\((?<file>[^:()]+):(?<line>\\d+)\\) ?$`),
    ts: null,
    zone: 'source',
    messageOnNextLine: true,
    impliesKind: 'app',
    priority: 40,
    samples: ['[NettyClientSelector_1] INFO  RocketmqRemoting.info (Slf4jLoggerFactory.java:95) '],
  },
  {
    id: 'rocksdb-info-log',
    title: "RocksDB's info log `yyyy/MM/dd-HH:mm:ss.uuuuuu <thread id> msg`, a 5.x broker's `<db path>_LOG` in logs/rocketmqlogs",
    // RocketMQ 5.x opens its RocksDB stores (ConfigHelper.createConfigDBOptions, RocksDBOptionsFactory)
    // with setDbLogDir(ConfigHelper.getDBLogDir()) = ~/logs/rocketmqlogs, so RocksDB names its info
    // log after the flattened db path there (home_rocketmq_store_rocksdbstore_LOG). RocksDB's
    // EnvLogger prints the process's local time with microseconds, then the thread id.
    header: /^(?<ts>\d{4}\/\d{2}\/\d{2}-\d{2}:\d{2}:\d{2}\.\d{6}) (?<thread>\d+) /,
    ts: 'yyyy/MM/dd-HH:mm:ss.SSSSSS',
    zone: 'source',
    impliesKind: 'unknown',
    priority: 44,
    samples: ['2026/12/05-04:55:33.774105 140667973138112 RocksDB version: 8.4.4'],
  },
  {
    id: 'dated-line',
    title: 'any other line that starts with a full date and time (an application pattern not listed above)',
    header: new RegExp(`^(?<ts>${ANY_DATE})(?=[\\s\\]|,;]|$)${LEVEL_AHEAD}`),
    ts: ISO8601,
    zone: 'source',
    fallback: true,
    impliesKind: 'app',
    priority: 90,
    samples: ['2015-09-07 15:43:21.969 ClientHouseKeepingService ERROR c.y.y.m.d.service.TopicExecutor---send msg :header version=1.0'],
  },
  {
    id: 'dated-bracket',
    title: 'any other line that starts with a bracketed full date and time `[date time]...`',
    header: new RegExp(`^\\[(?<ts>${ANY_DATE})\\]${LEVEL_AHEAD}`),
    ts: ISO8601,
    tsPrefix: '[',
    zone: 'source',
    fallback: true,
    impliesKind: 'app',
    priority: 91,
    samples: ['[2019-04-10 17:03:12.348][NettyClientPublicExecutor_2][ERROR] send message failed'],
  },
];

export const LAYOUT_BY_ID: ReadonlyMap<string, Layout> = new Map(LAYOUTS.map((l) => [l.id, l]));

/** Pseudo-layouts reported in the accounting when no header layout applies. */
export const LAYOUT_SLS = 'aliyun-sls-copy';
export const LAYOUT_NONE = 'none';
