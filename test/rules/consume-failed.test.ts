// consume-failed against real pasted client lines (alibaba/rocketmq#247: an orderly listener's
// StackOverflowError; apache/rocketmq#2447: an NPE on a message redelivered from %RETRY%, reconsumeTimes 9)
// and lines built from the 4.9.7 client formats and the 5.3.1 broker's DLQ line (the catalogue's
// samples), in the 4.x client layout (`date LEVEL logger - msg`, CRLF) and the broker's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ruleTester } from './rule-tester.js';
import rule from '../../src/rules/consume-failed.js';

const REAL = join(__dirname, '..', 'fixtures', 'real');
const real = (name: string) => readFileSync(join(REAL, name), 'utf8');
const CRLF = '\r\n';
const client = (lines: string[]) => lines.join(CRLF) + CRLF;
const lf = (lines: string[]) => lines.join('\n') + '\n';
const rec = (time: string, level: string, msg: string) => `2024-12-05 ${time} ${level} RocketmqClient - ${msg}`;

/** MessageExt.toString() of 4.9.7 for message `n` with `reconsume` as reconsumeTimes. */
const msg = (n: number, reconsume: number, topic = 'TopicPay') =>
  `MessageExt [brokerName=broker-a, queueId=2, storeSize=201, queueOffset=${118 + n}, sysFlag=0, bornTimestamp=1733389211000, bornHost=/10.0.0.9:53120, storeTimestamp=1733389211004, storeHost=/10.0.0.1:10911, msgId=0A00000100002A9F0000000000012C${String(n).padStart(2, '0')}, commitLogOffset=76861, bodyCRC=1932557065, reconsumeTimes=${reconsume}, preparedTransactionOffset=0, toString()=Message{topic='${topic}', flag=0, properties={MIN_OFFSET=0, MAX_OFFSET=119, CONSUME_START_TIME=1733389215000, UNIQ_KEY=0A0000090C1A18B4AAC2591D5A6E00${String(n).padStart(2, '0')}, CLUSTER=DefaultCluster, TAGS=TagA}, body=[104, 105], transactionId='null'}]`;
const MQ = (topic = 'TopicPay') => `MessageQueue [topic=${topic}, brokerName=broker-a, queueId=2]`;
const exception = (time: string, n: number, reconsume: number, topic = 'TopicPay') =>
  rec(time, 'WARN', `consumeMessage exception: java.lang.IllegalStateException: order ${1000 + n} not found, com.example.pay.PayListener.consumeMessage(PayListener.java:42) Group: GroupPay Msgs: [${msg(n, reconsume, topic)}] MQ: ${MQ(topic)}`);
const returnNull = (time: string, n: number, reconsume: number, topic = 'TopicPay') => rec(time, 'WARN', `consumeMessage return null, Group: GroupPay Msgs: [${msg(n, reconsume, topic)}] MQ: ${MQ(topic)}`);
const dlq = (time: string, n: number) =>
  `2024-12-05 ${time} INFO SendMessageThread_3 - send msg to DLQ %DLQ%GroupPay, owner=null, originalTopic=TopicPay, consumerId=GroupPay, msgUniqKey=0A0000090C1A18B4AAC2591D5A6E00${String(n).padStart(2, '0')}, storeTimestamp=1733389300123`;

ruleTester(rule, {
  valid: [
    {
      name: 'a consumer that rebalances and commits offsets, no failure',
      files: {
        'app-pay-01/logs/rocketmq_client.log': client([
          rec('17:00:01,100', 'INFO', `rebalanced result changed. allocateMessageQueueStrategyName=AVG, group=GroupPay, topic=TopicPay, clientId=10.0.0.9@12345, mqAllSize=4, cidAllSize=1, rebalanceResultSize=4, rebalanceResultSet=[${MQ()}]`),
          rec('17:00:06,100', 'INFO', 'Group: GroupPay ClientId: 10.0.0.9@12345 updateConsumeOffsetToBroker MessageQueue [topic=TopicPay, brokerName=broker-a, queueId=2] 120'),
        ]),
      },
    },
  ],
  invalid: [
    {
      // Real lines of samples/lab/consumer-grpc-simple-failures (a 5.3.3 master in a local-mode proxy;
      // rocketmq-client-java 5.0.7 SimpleConsumers, which log no failure).
      name: "a pop group's DLQ forwards from its retry topic and no client failure: SimpleConsumers, retryMaxTimes from the group's config, no maxReconsumeTimes",
      files: {
        'mq-broker-a/logs/rocketmqlogs/broker.log': lf([
          '2026-12-07 13:02:25 INFO AdminBrokerThread_2 - create new subscription group, SubscriptionGroupConfig{groupName=CID_STOCK, consumeEnable=true, consumeFromMinEnable=false, consumeBroadcastEnable=false, consumeMessageOrderly=false, retryQueueNums=1, retryMaxTimes=2, groupRetryPolicy=GroupRetryPolicy{type=CUSTOMIZED, exponentialRetryPolicy=null, customizedRetryPolicy=null}, brokerId=0, whichBrokerWhenConsumeSlowly=1, notifyConsumerIdsChangedEnable=true, groupSysFlag=0, consumeTimeoutMinute=15, subscriptionDataSet=null, attributes={}}',
        ]),
        'mq-broker-a/logs/rocketmqlogs/broker_default.log': lf([
          '2026-12-07 13:04:02 INFO ConsumerProcessorExecutor-0 - send msg to DLQ %DLQ%CID_STOCK, owner=null, originalTopic=%RETRY%CID_STOCK_TopicOrder, consumerId=CID_STOCK, msgUniqKey=0AD5001F4E4C4E0E2F2A21B35A290088, storeTimestamp=1796619842178',
          '2026-12-07 13:04:04 INFO ConsumerProcessorExecutor-1 - send msg to DLQ %DLQ%CID_STOCK, owner=null, originalTopic=%RETRY%CID_STOCK_TopicOrder, consumerId=CID_STOCK, msgUniqKey=0AD5001F4E4C4E0E2F2A21B35E11008B, storeTimestamp=1796619844174',
        ]),
      },
      findings: [
        {
          severity: 'error',
          metrics: { failures: 0, sentToDlq: 2, maxReconsumeTimes: null },
          evidence: ['mq-broker-a/logs/rocketmqlogs/broker_default.log:1', 'mq-broker-a/logs/rocketmqlogs/broker.log:1'],
          mentions: ['%RETRY%CID_STOCK_TopicOrder', 'its retryMaxTimes is 2', '3 attempts', 'SimpleConsumer logs none', 'TOPIC_PUT_NUMS'],
          adviceOmits: ['retried up to maxReconsumeTimes'],
          explanationOmits: ['no client log among the inputs logged a failure of the group\'s listener (its clients\' logs are missing'],
        },
      ],
    },
    {
      name: 'real 3.x orderly listener: StackOverflowError then `Orderly return not OK` for the same delivery count once',
      files: { 'app/rocketmq_client.log': real('93-alibaba-3x-consume-exception-orderly-not-ok.log') },
      findings: [
        {
          severity: 'warning',
          metrics: { failures: 1, orderlyNotOk: 1, exceptions: ['java.lang.StackOverflowError'], sentToDlq: 0, maxReconsumeTimesSeen: 0, topics: ['Message'] },
          evidence: ['app/rocketmq_client.log:1'],
          mentions: ['GolukConsumerGroup', 'java.util.HashMap.addEntry(HashMap.java:884)', 'suspendCurrentQueueTimeMillis', 'never moved to the DLQ', 'SUSPEND_CURRENT_QUEUE_A_MOMENT'],
          adviceOmits: ['retried up to maxReconsumeTimes', 'updateTopic', 'maxReconsumeTimes gives'],
        },
      ],
    },
    {
      name: 'real 3.x `Orderly return not OK` alone (no exception logged): the failure has no kind to list',
      files: { 'app/rocketmq_client.log': real('93-alibaba-3x-consume-exception-orderly-not-ok.log').split('\n').filter((l) => l.includes('Orderly return not OK')).join('\n') + '\n' },
      findings: [
        {
          metrics: { failures: 1, orderlyNotOk: 1, exceptions: [] },
          mentions: ['failed 1 delivery that the client logged of Message on 1 client host. The group consumes orderly'],
          explanationOmits: [': .', 'RECONSUME_LATER answer'],
        },
      ],
    },
    {
      name: 'real 4.x NPE on a retry delivery (reconsumeTimes 9): 7 more failures before the DLQ, the default assumed',
      files: { 'app/client.log': real('101-consume-exception-npe-retry-topic-thread-line.log') },
      findings: [
        {
          severity: 'warning',
          metrics: { failures: 1, retried: 1, maxReconsumeTimesSeen: 9, maxReconsumeTimes: 16, failedAtMax: 0, exceptions: ['java.lang.NullPointerException'] },
          mentions: ['with maxReconsumeTimes at its default, that message goes to the DLQ after 7 more failures', 'a group set lower (the logs do not print it) sends it there sooner', '16 (the default, assumed', 'failed 1 delivery that the client logged', 'A RECONSUME_LATER answer is not logged', '%DLQ%CG-creation-video_key_produce_event_message', 'the stack printed after the line'],
          adviceOmits: ['updateTopic'],
        },
      ],
    },
    {
      name: '4.9.7 client: exception + `return null` per delivery, a message failing at reconsumeTimes 16, the 5.x broker storing it in the DLQ',
      files: {
        'app-pay-01/logs/rocketmq_client.log': client([
          exception('17:00:01,100', 1, 0),
          returnNull('17:00:01,101', 1, 0),
          exception('17:00:11,300', 1, 1, '%RETRY%GroupPay'),
          returnNull('17:00:11,300', 1, 1, '%RETRY%GroupPay'),
          exception('17:01:40,001', 7, 16, '%RETRY%GroupPay'),
          returnNull('17:01:40,002', 7, 16, '%RETRY%GroupPay'),
        ]),
        'mq-broker-a/broker_default.log': lf([dlq('17:01:40,004', 7)]),
      },
      findings: [
        {
          severity: 'error',
          metrics: { failures: 3, returnedNull: 0, retried: 2, maxReconsumeTimesSeen: 16, failedAtMax: 1, sentToDlq: 1, exceptions: ['java.lang.IllegalStateException'], clients: 1 },
          evidence: ['app-pay-01/logs/rocketmq_client.log:1', 'app-pay-01/logs/rocketmq_client.log:5', 'mq-broker-a/broker_default.log:1'],
          mentions: ['top frame com.example.pay.PayListener.consumeMessage(PayListener.java:42)', '1 message stored in %DLQ%GroupPay', 'mqadmin updateTopic -t %DLQ%GroupPay -p 6', 'delay level 3 + reconsumeTimes'],
          adviceOmits: ['null', 'maxReconsumeTimes gives'],
        },
      ],
    },
    {
      name: 'a listener that returns null (no exception): the advice says to return a status',
      files: { 'app-pay-01/logs/rocketmq_client.log': client([returnNull('17:00:01,101', 1, 0), returnNull('17:00:11,300', 1, 1, '%RETRY%GroupPay')]) },
      findings: [{ severity: 'warning', metrics: { failures: 2, returnedNull: 2, exceptions: [] }, mentions: ['return CONSUME_SUCCESS or RECONSUME_LATER'] }],
    },
    {
      name: 'real Python client (rocketmq-client-python#88): a listener returning no ConsumeStatus, no group printed',
      files: { 'app/python.log': real('139-python-callback-consume-status-error-traceback.log') },
      findings: [{ severity: 'warning', metrics: { exceptions: ['ValueError'], sentToDlq: 0 }, mentions: ['its group is not printed', '%DLQ%<group>', 'ConsumeStatus.CONSUME_SUCCESS'], adviceOmits: ["Fix the listener's ValueError"] }],
    },
    {
      name: '--set maxReconsumeTimes=3: a failure at reconsumeTimes 3 sends the message to the DLQ',
      set: ['maxReconsumeTimes=3'],
      files: { 'app-pay-01/logs/rocketmq_client.log': client([exception('17:00:01,100', 1, 3, '%RETRY%GroupPay')]) },
      findings: [{ severity: 'warning', metrics: { failedAtMax: 1, maxReconsumeTimes: 3, sentToDlq: 0 }, mentions: ['3 (as set)', 'unless the send back failed'] }],
    },
  ],
});
