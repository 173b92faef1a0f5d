// pull-refused against the real pastes (alibaba/rocketmq#86: a 3.x broker's code 24 and its printed
// response; apache/rocketmq#1871: a client's CODE 24; rocketmq-connect#400: CODE 26 with
// autoCreateSubscriptionGroup=false; apache/rocketmq#370: CODE 25; apache/rocketmq#5479: a broker's
// eight 25s then `subscription changed`) and broker lines built from the 4.9.7 formats.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ruleTester } from './rule-tester.js';
import rule from '../../src/rules/pull-refused.js';

const REAL = join(__dirname, '..', 'fixtures', 'real');
const real = (name: string) => readFileSync(join(REAL, name), 'utf8');
const lf = (lines: string[]) => lines.join('\n') + '\n';
const srv = (time: string, level: string, thread: string, msg: string) => `2024-12-05 ${time} ${level} ${thread} - ${msg}`;
const CRLF = '\r\n';

/** The 4.9.4 broker's lines (lab recording consumer-too-few-threads): a refusal, and a heartbeat's new subscription of TopicOrder. */
const notLatest = (time: string, sub: string) => srv(time, 'WARN', 'PullMessageThread_1', `The broker's subscription is not latest, group: CID_STOCK ${sub}`);
const sd = (sub: string, version: number) =>
  `SubscriptionData [classFilterMode=false, topic=TopicOrder, subString=${sub}, tagsSet=[${sub === '*' ? '' : sub}], codeSet=[], subVersion=${version}, expressionType=TAG]`;
const changed = (time: string, before: string, after: string, version: number) =>
  srv(time, 'INFO', 'HeartbeatThread_2', `subscription changed, group: CID_STOCK OLD: ${sd(before, version)} NEW: ${sd(after, version + 1000)}`);

const groupInfo = (time: string) => srv(time, 'WARN', 'PullMessageThread_3', "the consumer's group info not exist, group: GroupPay");

ruleTester(rule, {
  valid: [
    {
      name: 'a pull that timed out (no refusal) and a consumer connecting',
      files: {
        'app-pay-01/logs/rocketmq_client.log': [
          '2024-12-05 17:00:01,100 WARN RocketmqClient - execute the pull request exception',
          'org.apache.rocketmq.remoting.exception.RemotingTimeoutException: wait response on the channel <10.0.0.1:10911> timeout, 30000(ms)',
          '\tat org.apache.rocketmq.remoting.netty.NettyRemotingAbstract.invokeSyncImpl(NettyRemotingAbstract.java:427)',
          '',
        ].join(CRLF),
        'mq-broker-a/broker.log': lf([
          srv('17:00:02', 'INFO', 'HeartbeatThread_1', 'new consumer connected, group: GroupPay CONSUME_PASSIVELY CLUSTERING channel: ClientChannelInfo [channel=[id: 0x1f2e3d4c, L:/10.0.0.1:10911 - R:/10.0.0.9:53120], clientId=10.0.0.9@12345, language=JAVA, version=415, lastUpdateTimestamp=1733389211000]'),
        ]),
      },
    },
  ],
  invalid: [
    {
      // gen-20261210: a 5.3.0 DefaultLitePullConsumer against 4.9.7 brokers, its every pull refused.
      name: "a 5.x lite pull consumer's pulls on a 4.x broker: `request type 361 not supported` (REQUEST_CODE_NOT_SUPPORTED, 3)",
      files: {
        'app-billing-01/logs/rocketmqlogs/rocketmq_client.log': lf([
          '2026-12-08 03:30:43.256 ERROR [11488] [PullMsgThread-CID_BILLING1] [o.a.r.c.i.c.DefaultLitePullConsumerImpl#?:?] - An error occurred in pull message process.',
          'org.apache.rocketmq.client.exception.MQBrokerException: CODE: 3  DESC:  request type 361 not supported BROKER: 10.213.0.22:10911',
          'For more information, please visit the url, https://rocketmq.apache.org/docs/bestPractice/06FAQ',
          '\tat org.apache.rocketmq.client.impl.MQClientAPIImpl.processPullResponse(MQClientAPIImpl.java:1103)',
          '2026-12-08 03:30:44.301 ERROR [11488] [PullMsgThread-CID_BILLING2] [o.a.r.c.i.c.DefaultLitePullConsumerImpl#?:?] - An error occurred in pull message process.',
          'org.apache.rocketmq.client.exception.MQBrokerException: CODE: 3  DESC:  request type 361 not supported BROKER: 10.213.0.21:10911',
        ]),
      },
      findings: [
        {
          severity: 'error',
          subject: { client: 'app-billing-01' },
          metrics: { codes: ['3'], failedPulls: 2, brokers: ['10.213.0.22:10911', '10.213.0.21:10911'] },
          mentions: ['REQUEST_CODE_NOT_SUPPORTED (3)', 'LITE_PULL_MESSAGE', 'consumes nothing there'],
          adviceMentions: ['4.x client'],
        },
      ],
    },
    {
      name: "real 3.x broker: `group info not exist` and its printed response (code=24) are one refusal",
      files: { 'mq-broker-a/broker.log': real('99-alibaba-3x-broker-group-info-not-exist-folded.log') },
      findings: [{ severity: 'error', subject: { host: 'mq-broker-a' }, metrics: { codes: ['24'], refusals: 1, failedPulls: 0 }, evidence: ['mq-broker-a/broker.log:1'], mentions: ['TmpConsumer0406_3', 'heartbeatBrokerInterval (30 s', 'at one moment only'] }],
    },
    {
      name: 'real 4.x client: CODE 24 without a group name',
      files: { 'app/client.log': real('103-pull-exception-code24-group-info-not-exist.log') },
      findings: [{ severity: 'error', subject: { client: 'app' }, metrics: { codes: ['24'], refusals: 0, failedPulls: 1 }, mentions: ['its name is not printed', 'pulls each refused queue again after 1 s by default (pullTimeDelayMillsWhenException; 3 s, fixed, before 4.6.0)'] }],
    },
    {
      name: 'real connect worker: CODE 26, autoCreateSubscriptionGroup=false: create the group',
      files: { 'worker/rocketmq_client.log': real('105-connect-pull-code26-subscription-group-not-exist.log') },
      findings: [{ severity: 'error', metrics: { codes: ['26'], failedPulls: 1 }, mentions: ['autoCreateSubscriptionGroup=false', 'mqadmin updateSubGroup -n <namesrv> -c <cluster> -g StatusManage-DEFAULT_WORKER_1'], adviceOmits: ['heartbeat'] }],
    },
    {
      name: 'real 4.2.0 client: CODE 25 once is a warning',
      files: { 'app/app.log': real('145-pull-code25-subscription-not-latest-pipe-layout.log') },
      findings: [{ severity: 'warning', metrics: { codes: ['25'], failedPulls: 1 }, mentions: ['SUBSCRIPTION_NOT_LATEST', 'If the refusals repeat'] }],
    },
    {
      name: 'real broker: eight 25s then one `subscription changed`: the newer heartbeat arrived, no claim of inconsistent instances',
      files: { 'mq-broker-a/broker.log': real('147-broker-subscription-not-latest-subscription-changed.log') },
      findings: [
        {
          severity: 'warning',
          metrics: { codes: ['25'], refusals: 8, subscriptionChanges: 1 },
          evidence: ['mq-broker-a/broker.log:1', 'mq-broker-a/broker.log:9'],
          mentions: ['real_db_consumer_group-dsp_error', 'changing after them'],
          adviceOmits: ['Give every instance'],
        },
      ],
    },
    {
      name: 'a subscription change logged before the refusal is no heartbeat that ended it',
      files: {
        'mq-broker-a/broker.log': lf([
          srv('10:00:00', 'INFO', 'HeartbeatThread_1', `subscription changed, group: CID_STOCK OLD: ${sd('*', 1000)} NEW: ${sd('TagA', 2000)}`),
          notLatest('10:00:05', sd('*', 3000)),
        ]),
      },
      findings: [{ severity: 'warning', metrics: { codes: ['25'], refusals: 1 }, explanationOmits: ['after them'] }],
    },
    {
      name: 'refusals beside subscription changes of the version alone (the same subString): they follow rebalances, the subscriptions need no change',
      files: {
        'mq-broker-a/broker.log': lf([
          changed('02:32:33', '*', '*', 1796495552031),
          notLatest('02:32:33', '*'),
          notLatest('02:32:34', '*'),
          changed('02:32:53', '*', '*', 1796495573033),
          notLatest('02:32:53', '*'),
          changed('02:33:13', '*', '*', 1796495593033),
        ]),
      },
      findings: [
        {
          severity: 'warning',
          metrics: { codes: ['25'], refusals: 3, subscriptionChanges: 3, expressionChanges: 0 },
          mentions: ['changing 3 times', 'only its version rose', "follow the group's rebalances", 'need no change', 'Find why it rebalanced'],
          adviceOmits: ['Give every instance', 'compare the subscriptions'],
        },
      ],
    },
    {
      name: 'refusals beside subscription changes that go back and forth between two expressions: instances subscribe differently',
      files: {
        'mq-broker-a/broker.log': lf([
          changed('02:32:33', 'TagA', 'TagB', 1796495552031),
          notLatest('02:32:33', 'TagB'),
          changed('02:32:43', 'TagB', 'TagA', 1796495562031),
          notLatest('02:32:43', 'TagA'),
          changed('02:32:53', 'TagA', 'TagB', 1796495572031),
        ]),
      },
      findings: [
        {
          metrics: { codes: ['25'], refusals: 2, subscriptionChanges: 3, expressionChanges: 3 },
          mentions: ['expression changing 3 times', 'Give every instance of CID_STOCK the same subscription'],
          adviceOmits: ['need no change'],
        },
      ],
    },
    {
      name: "a broker that removed the group's last channel, then refuses its pulls for 2 min",
      files: {
        'mq-broker-a/broker.log': lf([
          srv('17:00:00', 'INFO', 'NettyEventExecutor', 'unregister consumer ok, no any connection, and remove consumer group, GroupPay'),
          groupInfo('17:00:03'),
          groupInfo('17:01:03'),
          groupInfo('17:02:03'),
        ]),
      },
      findings: [{ severity: 'error', metrics: { codes: ['24'], refusals: 3, refusedMs: 120000 }, evidence: ['mq-broker-a/broker.log:1', 'mq-broker-a/broker.log:2'], mentions: ['removed the group: its last consumer connection', 'longer than a heartbeat period', 'Check that the consumer\'s heartbeats reach mq-broker-a'] }],
    },
    {
      // gen-20261214 (5.1.1): broker-b restarted; its first pulls after the boot were refused, while
      // broker-a had unregistered an instance of the group 3 s before. The refusals are the boot's.
      name: 'a broker that refuses a group right after its own boot, beside another broker that unregistered a consumer of it',
      files: {
        'mq-broker-a/broker.log': lf([
          srv('06:04:06', 'INFO', 'ClientManageThread_1', 'unregister a consumer[CID_BILLING] from consumerTable ClientChannelInfo [channel=[id: 0x1f2e3d4c, L:/10.213.0.21:10911 - R:/10.213.0.41:53120], clientId=10.213.0.41@12345, language=JAVA, version=453, lastUpdateTimestamp=1796680000000]'),
        ]),
        'mq-broker-b/broker.log': lf([
          srv('06:04:09', 'INFO', 'main', 'The broker[broker-b, 10.213.0.22:10911] boot success. serializeType=JSON and name server is 10.213.0.11:9876;10.213.0.12:9876;10.213.0.13:9876'),
          srv('06:04:09', 'WARN', 'PullMessageThread_1', "the consumer's group info not exist, group: CID_BILLING"),
          srv('06:04:10', 'WARN', 'PullMessageThread_3', "the consumer's group info not exist, group: CID_BILLING"),
        ]),
      },
      findings: [{ severity: 'error', metrics: { codes: ['24'], refusals: 2, brokers: ['mq-broker-b'] }, evidence: ['mq-broker-b/broker.log:2', 'mq-broker-b/broker.log:1'], mentions: ['mq-broker-b booted at 06:04:09, just before its first refusal', 'less than a heartbeat period'], explanationOmits: ['unregistered'] }],
    },
  ],
});
