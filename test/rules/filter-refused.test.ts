// filter-refused against the real pastes (apache/rocketmq#310: a 4.2.0 consumer's start refused,
// property filtering off; alibaba/spring-cloud-alibaba#3612: the same through the Stream binder) and
// broker and client lines built from the 4.9.4 formats (ClientManageProcessor.checkClientConfig,
// PullMessageProcessor).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ruleTester } from './rule-tester.js';
import rule from '../../src/rules/filter-refused.js';

const REAL = join(__dirname, '..', 'fixtures', 'real');
const real = (name: string) => readFileSync(join(REAL, name), 'utf8');
const lf = (lines: string[]) => lines.join('\n') + '\n';
const srv = (time: string, level: string, thread: string, msg: string) => `2024-12-05 ${time} ${level} ${thread} - ${msg}`;
const pullException = (time: string, code: number, remark: string) => [
  `2024-12-05 ${time},100 WARN RocketmqClient - execute the pull request exception`,
  `org.apache.rocketmq.client.exception.MQBrokerException: CODE: ${code}  DESC: ${remark} BROKER: 10.0.0.1:10911`,
  '\tat org.apache.rocketmq.client.impl.MQClientAPIImpl.processPullResponse(MQClientAPIImpl.java:1061)',
];
const sql = (sub: string) => `SubscriptionData [classFilterMode=false, topic=TopicPay, subString=${sub}, tagsSet=[], codeSet=[], subVersion=1733389211000, expressionType=SQL92]`;

ruleTester(rule, {
  valid: [
    {
      name: "a tag subscription's pull refused with 25 is pull-refused's, not a filter's",
      files: { 'app-pay-01/logs/rocketmq_client.log': lf(pullException('17:00:01', 25, "the consumer's subscription not latest")) },
    },
  ],
  invalid: [
    {
      name: 'real 4.2.0 consumer start (apache/rocketmq#310): enablePropertyFilter is off on the broker',
      files: { 'app/app.log': real('151-sql92-filter-not-supported-exception-in-main.log') },
      findings: [
        {
          severity: 'error',
          subject: { client: 'app' },
          metrics: { codes: ['1'], refusals: 1, expressionType: 'SQL92', brokers: [] },
          evidence: ['app/app.log:1'],
          mentions: ['enablePropertyFilter=false', 'DefaultMQPushConsumer.start()', 'enablePropertyFilter=true on every broker', 'updateBrokerConfig', 'subscribe by tag'],
        },
      ],
    },
    {
      name: 'real Stream binder console (spring-cloud-alibaba#3612): the same refusal, one finding',
      files: { 'app/console.log': real('153-sca-stream-sql92-filter-not-supported-init-failed.log') },
      findings: [{ severity: 'error', metrics: { codes: ['1'], expressionType: 'SQL92' }, evidence: ['app/console.log:1'] }],
    },
    {
      name: "a broker that cannot compile the group's expression (23), then the client's pulls without a compiled filter (27): fix the expression, the property filter is not in question",
      files: {
        'mq-broker-a/broker.log': lf([
          srv('17:00:00', 'WARN', 'AdminBrokerThread_1', `Client 10.0.0.9@12345@GroupPay filter message, but failed to compile expression! sub=${sql('a between 0  3')}, error=Encountered "3" at line 1, column 15.`),
        ]),
        'app-pay-01/logs/rocketmq_client.log': lf([
          ...pullException('17:00:05', 27, "The broker's consumer filter data is not exist!Your expression may be wrong!"),
          ...pullException('17:00:08', 27, "The broker's consumer filter data is not exist!Your expression may be wrong!"),
        ]),
      },
      findings: [
        {
          severity: 'error',
          subject: { host: 'mq-broker-a' },
          metrics: { codes: ['23'], refusals: 1, expressionType: 'SQL92', brokers: ['mq-broker-a'] },
          mentions: ['Encountered "3" at line 1, column 15.', 'Fix the expression of GroupPay'],
          adviceOmits: ['enablePropertyFilter'],
        },
        {
          severity: 'error',
          subject: { client: 'app-pay-01' },
          metrics: { codes: ['27'], refusals: 2, brokers: ['10.0.0.1:10911'], refusedMs: 3000 },
          mentions: ['no compiled filter', 'failed to compile expression'],
          adviceOmits: ['enablePropertyFilter'],
        },
      ],
    },
    {
      name: 'an older filter on the broker (28) alone is a warning: it ends with the next heartbeat',
      files: { 'app-pay-01/logs/rocketmq_client.log': lf(pullException('17:00:05', 28, "the consumer's consumer filter data not latest")) },
      findings: [{ severity: 'warning', metrics: { codes: ['28'] }, mentions: ['until the consumer\'s next heartbeat', 'same expression'] }],
    },
  ],
});
