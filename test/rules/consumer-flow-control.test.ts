// consumer-flow-control against the real paste of apache/rocketmq#7969 (a lite pull consumer's
// `The consume request count exceeds threshold`, printed with its format's missing argument) and
// lines built from the 4.9.7 client formats (the catalogue's samples), in the 4.x client layout.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ruleTester } from './rule-tester.js';
import rule from '../../src/rules/consumer-flow-control.js';

const REAL = join(__dirname, '..', 'fixtures', 'real');
const real = (name: string) => readFileSync(join(REAL, name), 'utf8');
const CRLF = '\r\n';
const client = (lines: string[]) => lines.join(CRLF) + CRLF;
const rec = (time: string, level: string, msg: string) => `2024-12-05 ${time} ${level} RocketmqClient - ${msg}`;
const PR = (q: number) => `PullRequest [consumerGroup=GroupPay, messageQueue=MessageQueue [topic=TopicPay, brokerName=broker-a, queueId=${q}], nextOffset=118]`;
const count = (time: string, q: number, n: number, times: number) =>
  rec(time, 'WARN', `the cached message count exceeds the threshold 1000, so do flow control, minOffset=118, maxOffset=${118 + n}, count=${n}, size=0 MiB, pullRequest=${PR(q)}, flowControlTimes=${times}`);
const span = (time: string, q: number, sp: number, times: number) =>
  rec(time, 'WARN', `the queue's messages, span too long, so do flow control, minOffset=118, maxOffset=${118 + sp}, maxSpan=${sp}, pullRequest=${PR(q)}, flowControlTimes=${times}`);

ruleTester(rule, {
  valid: [
    {
      name: 'a consumer pulling and committing, no flow control',
      files: {
        'app-pay-01/logs/rocketmq_client.log': client([
          rec('17:00:06,100', 'INFO', 'Group: GroupPay ClientId: 10.0.0.9@12345 updateConsumeOffsetToBroker MessageQueue [topic=TopicPay, brokerName=broker-a, queueId=2] 120'),
        ]),
      },
    },
  ],
  invalid: [
    {
      name: 'count limit on two queues: the counter from 1 to 4001, advice on consumeThreadMin, not on the span',
      files: {
        'app-pay-01/logs/rocketmq_client.log': client([
          count('17:00:01,100', 2, 1001, 1),
          count('17:00:31,100', 3, 1004, 1001),
          count('17:01:01,100', 2, 1010, 2001),
          count('17:01:31,100', 3, 1002, 3001),
          count('17:02:01,100', 2, 1003, 4001),
        ]),
      },
      findings: [
        {
          severity: 'warning',
          subject: { client: 'app-pay-01' },
          metrics: { limits: ['count'], lines: 5, flowControls: 4001, flowControlTimes: 4001, queues: 2, maxCachedCount: 1010, maxSpan: null },
          evidence: ['app-pay-01/logs/rocketmq_client.log:1', 'app-pay-01/logs/rocketmq_client.log:3'],
          mentions: ['Group GroupPay', 'pullThresholdForQueue (1000 messages)', 'once every 1000 flow controls', '50 ms', 'consumeThreadMin (20', 'slower than messages arrive'],
          adviceOmits: ['thread dump'],
        },
      ],
    },
    {
      name: 'span limit: one slow message holds the queue; the threshold said assumed',
      files: { 'app-pay-01/logs/rocketmq_client.log': client([span('17:00:01,100', 2, 2083, 1), span('17:00:41,100', 2, 2410, 1001)]) },
      findings: [
        {
          metrics: { limits: ['span'], maxSpan: 2410, flowControls: 1001, queues: 1 },
          mentions: ['consumeConcurrentlyMaxSpan (2000, the default, assumed', 'one message (the oldest', 'thread dump'],
          adviceOmits: ['consumeThreadMin'],
        },
      ],
    },
    {
      // gen-20261209's 4.9.3 DefaultLitePullConsumer while its application took 1.5 s a message.
      name: "a lite pull consumer's count limit (`The cached message count ...`, no pullRequest): the application's poll loop, not consume threads",
      files: {
        'app-billing-01/logs/rocketmqlogs/rocketmq_client.log': client([
          '2026-12-08 03:24:32,052 WARN RocketmqClient - The cached message count exceeds the threshold 20, so do flow control, minOffset=105, maxOffset=125, count=21, size=0 MiB, flowControlTimes=1',
          '2026-12-08 03:24:57,454 WARN RocketmqClient - The cached message count exceeds the threshold 20, so do flow control, minOffset=114, maxOffset=140, count=27, size=0 MiB, flowControlTimes=1001',
        ]),
      },
      findings: [{ metrics: { limits: ['count'], flowControlTimes: 1001, maxCachedCount: 27 }, mentions: ['poll() returns', 'no consume threads', 'pullThresholdForQueue (20 messages)'], adviceOmits: ['raise consumeThreadMin'] }],
    },
    {
      name: 'real lite pull `consume request count` line: poll() is too slow',
      files: { 'app/app.log': real('149-litepull-consume-request-flow-control-pid-layout.log') },
      findings: [{ metrics: { limits: ['consume-request'], flowControlTimes: 1, queues: 0 }, mentions: ['poll()', 'group not printed'], adviceOmits: ['consumeThreadMin'] }],
    },
  ],
});
