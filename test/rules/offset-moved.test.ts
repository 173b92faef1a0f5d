// offset-moved against the real pastes (alibaba/rocketmq#210: a 3.x client's OFFSET_ILLEGAL past the
// queue's end; alibaba/rocketmq#395: a 3.5.8 slave's `over flow badly` + `none correction`;
// apache/rocketmq#8419: the lite pull consumer's `consumerOffset is -1`) and lines built from the
// 4.9.7 broker and client formats (the catalogue's samples).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ruleTester } from './rule-tester.js';
import rule from '../../src/rules/offset-moved.js';

const REAL = join(__dirname, '..', 'fixtures', 'real');
const real = (name: string) => readFileSync(join(REAL, name), 'utf8');
const lf = (lines: string[]) => lines.join('\n') + '\n';
const CRLF = '\r\n';
const client = (lines: string[]) => lines.join(CRLF) + CRLF;
const rec = (time: string, level: string, msg: string) => `2024-12-05 ${time} ${level} RocketmqClient - ${msg}`;
const srv = (time: string, level: string, thread: string, msg: string) => `2024-12-05 ${time} ${level} ${thread} - ${msg}`;
const MQ = 'MessageQueue [topic=TopicPay, brokerName=broker-a, queueId=2]';

ruleTester(rule, {
  valid: [
    {
      name: 'offsets committed as consumption goes',
      files: {
        'app-pay-01/logs/rocketmq_client.log': client([
          rec('17:00:06,100', 'INFO', `Group: GroupPay ClientId: 10.0.0.9@12345 updateConsumeOffsetToBroker ${MQ} 120`),
          rec('17:00:11,100', 'INFO', `Group: GroupPay ClientId: 10.0.0.9@12345 updateConsumeOffsetToBroker ${MQ} 188`),
        ]),
      },
    },
  ],
  invalid: [
    {
      name: 'real 3.x client: OFFSET_ILLEGAL 15619 past the end (max 7358), back to 0',
      files: { 'app/client.log': real('95-alibaba-3x-offset-illegal-retry-route-changed.log') },
      findings: [
        {
          severity: 'warning',
          metrics: { movedBack: 1, redeliveredAtMost: 7358, movedForward: 0, skipped: 0, moves: ['15619->0'], queues: ['adjsms@broker-1:2'] },
          evidence: ['app/client.log:5'],
          mentions: ['group adjsms', '15619 -> 0 (the queue holds 0..7358)', 'delivered again', 'idempotent'],
        },
      ],
    },
    {
      name: "real 3.5.8 slave: offsets past its end, `none correction`: not moved, the consumer sent to the master",
      files: { 'mq-broker-b-s/broker.log': real('97-alibaba-3.5.8-broker-offset-overflow-moved.log') },
      findings: [
        {
          severity: 'warning',
          metrics: { notMoved: 2, movedBack: 0, movedForward: 0 },
          evidence: ['mq-broker-b-s/broker.log:1'],
          mentions: ['CID_SERVER_APPLICATION_CREATED_test', '101254 asked, not moved (the broker holds up to 7157)', 'offsetCheckInSlave', 'Bring the master back'],
          adviceOmits: ['idempotent'],
        },
      ],
    },
    {
      name: 'real lite pull consumer: `consumerOffset is -1` moves nothing (info)',
      files: { 'app/console.log': real('111-litepull-consumeroffset-minus-one-main.log') },
      findings: [{ severity: 'info', metrics: { commitsSkipped: 2, movedBack: 0, movedForward: 0, notMoved: 0 }, mentions: ['moves no offset and loses no message'] }],
    },
    {
      name: "4.9.7: the broker's `request offset too small` + correction and the client's OFFSET_ILLEGAL and fix are one forward move",
      files: {
        'mq-broker-a/broker.log': lf([
          srv('17:00:01', 'WARN', 'PullMessageThread_7', 'the request offset too small. group=GroupPay, topic=TopicPay, requestOffset=118, brokerMinOffset=2040, clientIp=/10.0.0.9:53120'),
          srv('17:00:01', 'WARN', 'PullMessageThread_7', 'PULL_OFFSET_MOVED:correction offset. topic=TopicPay, groupId=GroupPay, requestOffset=118, newOffset=2040, suggestBrokerId=0'),
        ]),
        'app-pay-01/logs/rocketmq_client.log': client([
          rec('17:00:01,204', 'WARN', `the pull request offset illegal, PullRequest [consumerGroup=GroupPay, messageQueue=${MQ}, nextOffset=118] PullResult [pullStatus=OFFSET_ILLEGAL, nextBeginOffset=2040, minOffset=2040, maxOffset=2310, msgFoundList=0]`),
          rec('17:00:11,210', 'WARN', `fix the pull request offset, PullRequest [consumerGroup=GroupPay, messageQueue=${MQ}, nextOffset=2040]`),
        ]),
      },
      findings: [
        {
          severity: 'error',
          metrics: { movedForward: 1, skipped: 1922, movedBack: 0, moves: ['118->2040'] },
          evidence: ['mq-broker-a/broker.log:1'],
          mentions: ['118 -> 2040', '1922 messages skipped', 'deleted (fileReservedTime)', 'persisted the new offset 1 time'],
        },
      ],
    },
    {
      name: "an administrator's reset reaching the consumer (info)",
      files: { 'app-pay-01/logs/rocketmq_client.log': client([rec('17:00:01,204', 'INFO', 'invoke reset offset operation from broker. brokerAddr=10.0.0.1:10911, topic=TopicPay, group=GroupPay, timestamp=1733389200000')]) },
      findings: [{ severity: 'info', metrics: { resets: 1 }, mentions: ['mqadmin resetOffsetByTime'] }],
    },
  ],
});
