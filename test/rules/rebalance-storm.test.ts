// rebalance-storm against the real pastes (apache/rocketmq-client-cpp#345: an orderly consumer whose
// three queues are not added `because lock failed`, two of them `locked OK, but ... released` first,
// lines that print no group and belong to the client's one group; apache/seatunnel#9959: five consumers of one
// process told of one change of their group, which is one rebalance, no storm) and lines built from
// the 4.9.7 client and broker formats (the catalogue's samples).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ruleTester } from './rule-tester.js';
import rule from '../../src/rules/rebalance-storm.js';

const REAL = join(__dirname, '..', 'fixtures', 'real');
const real = (name: string) => readFileSync(join(REAL, name), 'utf8');
const lf = (lines: string[]) => lines.join('\n') + '\n';
const CRLF = '\r\n';
const client = (lines: string[]) => lines.join(CRLF) + CRLF;
const rec = (time: string, level: string, msg: string) => `2024-12-05 ${time} ${level} RocketmqClient - ${msg}`;
const srv = (time: string, level: string, thread: string, msg: string) => `2024-12-05 ${time} ${level} ${thread} - ${msg}`;
const result = (time: string, cids: number, queues: number[]) =>
  rec(time, 'INFO', `rebalanced result changed. allocateMessageQueueStrategyName=AVG, group=GroupPay, topic=TopicPay, clientId=10.0.0.9@12345, mqAllSize=4, cidAllSize=${cids}, rebalanceResultSize=${queues.length}, rebalanceResultSet=[${queues.map((q) => `MessageQueue [topic=TopicPay, brokerName=broker-a, queueId=${q}]`).join(', ')}]`);
/** Seven changed results 30 s apart from 17:00:01 (one instance coming and going), `more` client lines put in by their time. */
const seven = (...more: string[]): string[] =>
  [...['17:00:01,100', '17:00:31,100', '17:01:01,100', '17:01:31,100', '17:02:01,100', '17:02:31,100', '17:03:01,100'].map((t, i) => (i % 2 ? result(t, 1, [0, 1, 2, 3]) : result(t, 2, [0, 1]))), ...more].sort();
const channel = (port: number) => `ClientChannelInfo [channel=[id: 0x1f2e3d4c, L:/10.0.0.1:10911 - R:/10.0.0.7:${port}], clientId=10.0.0.7@${port}, language=JAVA, version=415, lastUpdateTimestamp=1733389211000]`;

ruleTester(rule, {
  valid: [
    {
      name: 'real SeaTunnel job: five notifications of one change within a millisecond are one rebalance',
      files: { 'app/app.log': real('109-seatunnel-traceid-persistall-notification-rebalance.log') },
    },
    {
      name: 'a result changed three times in 5 min (an instance joining, then leaving): below the storm count',
      files: { 'app-pay-01/logs/rocketmq_client.log': client([result('17:00:01,100', 2, [0, 1]), result('17:02:01,100', 1, [0, 1, 2, 3]), result('17:04:01,100', 2, [0, 1])]) },
    },
  ],
  invalid: [
    {
      name: 'real C++ orderly consumer: three queues not taken because the lock failed',
      files: { 'app/cpp.log': real('137-cpp-re-dev-spdlog-rebalance-lock-failed.log') },
      findings: [{ severity: 'warning', metrics: { lockFailures: 5, queuesNotLocked: 3, stormRebalances: 0 }, evidence: ['app/cpp.log:1'], mentions: ['myGroup', 'not taken at a rebalance because the lock failed', 'consumed by no one'] }],
    },
    {
      name: 'real Go client (rocketmq-client-go#510): the lock refused, the queue not added',
      files: { 'app/go.log': real('129-go-logrus-tty-orderly-lock-failed.log') },
      findings: [{ metrics: { lockFailures: 2, queuesNotLocked: 1 }, mentions: ['GID_ADX01', 'ADX@broker-a:1', 'consumed by no one'] }],
    },
    {
      name: 'seven rebalances in 3 min while an instance restarts over and over: a storm, the trigger named',
      files: {
        'app-pay-01/logs/rocketmq_client.log': client([
          ...seven(),
        ]),
        'mq-broker-a/broker.log': lf([
          srv('17:00:00', 'INFO', 'HeartbeatThread_1', `new consumer connected, group: GroupPay CONSUME_PASSIVELY CLUSTERING channel: ${channel(50001)}`),
          srv('17:00:30', 'WARN', 'NettyEventExecutor', `NETTY EVENT: remove not active channel[${channel(50001)}] from ConsumerGroupInfo groupChannelTable, consumer group: GroupPay`),
          srv('17:01:00', 'INFO', 'HeartbeatThread_1', `new consumer connected, group: GroupPay CONSUME_PASSIVELY CLUSTERING channel: ${channel(50002)}`),
        ]),
      },
      findings: [
        {
          severity: 'warning',
          metrics: { stormRebalances: 7, stormMs: 180000, cidAllSize: ['1', '2'], joins: 2, leaves: 1, lockFailures: 0 },
          evidence: ['mq-broker-a/broker.log:1', 'app-pay-01/logs/rocketmq_client.log:1'],
          mentions: ['rebalanced 7 times in 3 min', 'between 1 and 2 (cidAllSize)', 'coming and going', 'delivered again'],
        },
      ],
    },
    {
      // gen-20261216: app-billing-02 killed and started again, beside app-billing-01: three starts on two hosts.
      name: 'the same storm while one instance started twice: its starts counted as starts, not as instances',
      files: {
        'app-pay-01/logs/rocketmq_client.log': client([rec('16:59:50,000', 'INFO', 'the consumer [GroupPay] start OK.'), ...seven()]),
        'app-pay-02/logs/rocketmq_client.log': client([rec('16:59:55,000', 'INFO', 'the consumer [GroupPay] start OK.'), rec('17:01:30,000', 'INFO', 'the consumer [GroupPay] start OK.')]),
      },
      findings: [{ metrics: { stormRebalances: 7 }, mentions: ['Instances of the group started 3 times meanwhile (on app-pay-01 and app-pay-02'], explanationOmits: ['3 instances'] }],
    },
    {
      name: 'the same storm while a broker restarted under a running group (lab consumer-5x-restart): the restart named, not instances coming and going; the cluster\'s own boot before the group ran is not',
      files: {
        'app-pay-01/logs/rocketmq_client.log': client([
          rec('16:59:50,000', 'INFO', 'the consumer [GroupPay] start OK.'),
          ...seven(),
        ]),
        'mq-broker-a/broker.log': lf([
          srv('16:59:40', 'INFO', 'main', 'The broker[broker-a, 10.0.0.1:10911] boot success. serializeType=JSON and name server is 10.0.0.5:9876'),
          srv('17:00:20', 'INFO', 'Thread-18', 'Shutdown hook was invoked, 1'),
          srv('17:01:07', 'INFO', 'main', 'The broker[broker-a, 10.0.0.1:10911] boot success. serializeType=JSON and name server is 10.0.0.5:9876'),
        ]),
      },
      findings: [
        {
          metrics: { stormRebalances: 7, timeoutCloses: 0 },
          evidence: ['mq-broker-a/broker.log:2', 'app-pay-01/logs/rocketmq_client.log:1'],
          mentions: ['A broker stopped and started meanwhile (mq-broker-a shut down at 17:00:20 and mq-broker-a booted at 17:01:07)', 'lost and regained its queues', '1 instance of the group started meanwhile (on app-pay-01', 'expected around a planned restart'],
          adviceOmits: ['container probe'],
        },
      ],
    },
    {
      name: 'the same storm while a killed broker came back (lab consumer-orderly-broker-crash: no shutdown line): only its boot is told, not a route lost that its lines do not show',
      files: {
        'app-pay-01/logs/rocketmq_client.log': client([...seven()]),
        'mq-broker-a/broker.log': lf([
          srv('16:59:40', 'INFO', 'main', 'The broker[broker-a, 10.0.0.1:10911] boot success. serializeType=JSON and name server is 10.0.0.5:9876'),
          srv('17:01:07', 'INFO', 'main', 'The broker[broker-a, 10.0.0.1:10911] boot success. serializeType=JSON and name server is 10.0.0.5:9876'),
        ]),
      },
      findings: [
        {
          metrics: { stormRebalances: 7 },
          mentions: ['A broker started meanwhile (mq-broker-a booted at 17:01:07): the route the instances poll every 30 s gained its queues'],
          explanationOmits: ['lost', 'shut down', 'closed'],
        },
      ],
    },
    {
      name: 'the same storm while the instance closed its channel to a broker after timeouts (lab consumer-broker-hang): the broker is named the trigger, not restarts',
      files: {
        'app-pay-01/logs/rocketmq_client.log': client([
          ...seven(rec('17:00:28,000', 'WARN', 'invokeSync: close socket because of timeout, 3000ms, 10.0.0.1:10911'), rec('17:01:28,000', 'WARN', 'invokeSync: close socket because of timeout, 3000ms, 10.0.0.1:10911')),
        ]),
        'mq-broker-a/broker.log': lf([
          srv('17:00:30', 'WARN', 'NettyEventExecutor', `NETTY EVENT: remove not active channel[${channel(50001)}] from ConsumerGroupInfo groupChannelTable, consumer group: GroupPay`),
          srv('17:01:00', 'INFO', 'HeartbeatThread_1', `new consumer connected, group: GroupPay CONSUME_PASSIVELY CLUSTERING channel: ${channel(50002)}`),
        ]),
      },
      findings: [
        {
          metrics: { stormRebalances: 7, timeoutCloses: 2, joins: 1, leaves: 1 },
          evidence: ['app-pay-01/logs/rocketmq_client.log:2'],
          mentions: ['closed their connection to 10.0.0.1:10911 2 times', 'A broker that does not answer is a trigger', 'Look at 10.0.0.1:10911 first'],
          adviceOmits: ['container probe'],
        },
      ],
    },
  ],
});
