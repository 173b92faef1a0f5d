// subscription-inconsistent against the real paste of apache/rocketmq#5479 (eight 25s, then one
// `subscription changed`: a single change, which must stay silent) and broker lines built from the
// 4.9.7 ConsumerGroupInfo formats (SubscriptionData.toString), in the broker's layout.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ruleTester } from './rule-tester.js';
import rule from '../../src/rules/subscription-inconsistent.js';

const REAL = join(__dirname, '..', 'fixtures', 'real');
const real = (name: string) => readFileSync(join(REAL, name), 'utf8');
const lf = (lines: string[]) => lines.join('\n') + '\n';
const srv = (time: string, level: string, thread: string, msg: string) => `2024-12-05 ${time} ${level} ${thread} - ${msg}`;
const data = (sub: string, tags: string, version: number) => `SubscriptionData [classFilterMode=false, topic=TopicPay, subString=${sub}, tagsSet=[${tags}], codeSet=[], subVersion=${version}, expressionType=TAG]`;
const changed = (time: string, from: [string, string], to: [string, string], v: number) =>
  srv(time, 'INFO', 'HeartbeatThread_2', `subscription changed, group: GroupPay OLD: ${data(from[0], from[1], v)} NEW: ${data(to[0], to[1], v + 1)}`);
const A: [string, string] = ['TagA', 'TagA'];
const B: [string, string] = ['TagA || TagB', 'TagA, TagB'];
const notLatest = (time: string) => srv(time, 'WARN', 'PullMessageThread_4', "The broker's subscription is not latest, group: GroupPay TagA");

ruleTester(rule, {
  valid: [
    {
      name: 'real broker: one `subscription changed` after the 25s is a change of subscription, not two kinds of instances',
      files: { 'mq-broker-a/broker.log': real('147-broker-subscription-not-latest-subscription-changed.log') },
    },
    {
      name: 'a subscription changed twice in one direction (A, then B, then C): deliberate changes',
      files: { 'mq-broker-a/broker.log': lf([changed('17:00:01', A, B, 1000), changed('17:10:01', B, ['TagC', 'TagC'], 2000)]) },
    },
  ],
  invalid: [
    {
      name: 'two instances with TagA and TagA || TagB: the subscription flips at each heartbeat, pulls refused 25',
      files: {
        'mq-broker-a/broker.log': lf([
          srv('17:00:00', 'INFO', 'HeartbeatThread_1', 'new consumer connected, group: GroupPay CONSUME_PASSIVELY CLUSTERING channel: ClientChannelInfo [channel=[id: 0x1f2e3d4c, L:/10.0.0.1:10911 - R:/10.0.0.9:53120], clientId=10.0.0.9@12345, language=JAVA, version=415, lastUpdateTimestamp=1733389211000]'),
          changed('17:00:01', A, B, 1000),
          notLatest('17:00:02'),
          changed('17:00:21', B, A, 1100),
          notLatest('17:00:22'),
          changed('17:00:31', A, B, 1200),
        ]),
      },
      findings: [
        {
          severity: 'error',
          subject: { topic: 'TopicPay', host: 'mq-broker-a' },
          metrics: { subscriptionChanges: 3, flips: 2, notLatest: 2, instances: 1 },
          evidence: ['mq-broker-a/broker.log:2', 'mq-broker-a/broker.log:4'],
          mentions: ['`TagA`', '`TagA || TagB`', 'never consumed', 'SUBSCRIPTION_NOT_LATEST (25)', '10.0.0.9@12345', 'mqadmin consumerStatus -g GroupPay'],
        },
      ],
    },
  ],
});
