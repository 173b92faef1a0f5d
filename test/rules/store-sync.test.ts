// store-sync over small logs in the real layouts: application logs that print their SendResult
// (logback `%d [thread] LEVEL logger - msg`), and broker store.log / broker.log (P-FULL layout,
// GMT+8, no milliseconds) of masters and slaves.
import { ruleTester } from './rule-tester.js';
import rule from '../../src/rules/store-sync.js';

const lf = (lines: string[]) => lines.join('\n') + '\n';

/** SendResult.toString() of the Java client, as an application logs it. */
const sendResult = (status: string, seq: number, broker: string, queueId: number, topic = 'TopicTest') =>
  `SendResult [sendStatus=${status}, msgId=0A0000090C1A18B4AAC2591D5A6E${String(seq).padStart(4, '0')}, offsetMsgId=0A00000100002A9F00000000402A${String(5100 + seq).padStart(4, '0')}, messageQueue=MessageQueue [topic=${topic}, brokerName=${broker}, queueId=${queueId}], queueOffset=${10400 + seq}]`;
const appLine = (time: string, level: string, text: string) => `2024-05-20 ${time} [order-sender-2] ${level} com.acme.order.mq.OrderPublisher - send result: ${text}`;

const boot = (time: string, name: string, addr: string) =>
  `2024-05-20 ${time} INFO main - The broker[${name}, ${addr}] boot success. serializeType=JSON and name server is 10.0.0.5:9876`;

// 5.x slave that cannot reach its master's HA port: one WARN every 5 s.
const connectFailures = (from: number, count: number) => {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const s = from + i * 5;
    const hh = 14;
    const mm = 6 + Math.floor(s / 60);
    const ss = s % 60;
    out.push(`2024-05-20 ${hh}:${String(mm).padStart(2, '0')}:${String(ss).padStart(2, '0')} WARN DefaultHAClient - HAClient connect to master 10.0.0.1:10912 failed`);
  }
  return out;
};

ruleTester(rule, {
  valid: [
    {
      name: '4.x master with no slave: the whole commit log is "behind" every minute, sends are SEND_OK',
      files: {
        'mq-broker-a/broker.log': lf([
          boot('10:03:51', 'broker-a', '10.0.0.1:10911'),
          '2024-05-20 10:04:51 INFO BrokerControllerScheduledThread1 - dispatch behind commit log 0 bytes',
          '2024-05-20 10:04:51 INFO BrokerControllerScheduledThread1 - Slave fall behind master: 4608671516 bytes',
          '2024-05-20 10:05:51 INFO BrokerControllerScheduledThread1 - Slave fall behind master: 4608869516 bytes',
          '2024-05-20 10:06:51 INFO BrokerControllerScheduledThread1 - Slave fall behind master: 4609067516 bytes',
        ]),
        'app-shop-01/app.log': lf([appLine('10:05:02.118', 'INFO ', sendResult('SEND_OK', 1, 'broker-a', 1)), appLine('10:05:02.342', 'INFO ', sendResult('SEND_OK', 2, 'broker-a', 2))]),
      },
    },
    {
      name: '5.x master with a connected slave a little behind, and a slow async flush',
      files: {
        'mq-broker-a/broker.log': lf([
          '2024-05-20 14:04:17 INFO BrokerControllerScheduledThread1 - CommitLog: slave fall behind master 0bytes',
          '2024-05-20 14:05:17 INFO BrokerControllerScheduledThread1 - CommitLog: slave fall behind master 1048576bytes',
          '2024-05-20 14:06:17 INFO BrokerControllerScheduledThread1 - CommitLog: slave fall behind master 0bytes',
        ]),
        'mq-broker-a/store.log': lf(['2024-05-20 14:05:40 INFO FlushRealTimeService - Flush data to disk costs 612 ms']),
      },
    },
    {
      // Recorded (lab, 5.x slaves): every slave prints this once at boot, before its first
      // registration brings back the master's HA address; it is no HA trouble.
      name: '5.x slave at boot: `connect to master null failed` before it knows its master',
      files: {
        'mq-broker-b-s/broker.log': lf([boot('14:05:50', 'broker-b', '10.0.0.4:10911')]),
        'mq-broker-b-s/store.log': lf(['2024-05-20 14:05:52 WARN DefaultHAClient - HAClient connect to master null failed']),
      },
    },
  ],
  invalid: [
    {
      // gen-20261220: a 4.9.1 slave resuming from a 150 s hang; closeMaster had set lastWriteTimestamp
      // to 0, so the housekeeping line prints the clock, not an interval.
      name: '4.x slave whose housekeeping line prints the epoch (lastWriteTimestamp 0): no 57-year episode',
      tz: '+08:00',
      files: {
        'mq-broker-c-s/broker.log': lf([boot('06:28:40', 'broker-c', '10.213.0.26:10911')]),
        'mq-broker-c-s/store.log': lf([
          '2024-05-20 06:32:07 WARN HAClient - HAClient, housekeeping, found this connection[10.213.0.23:10912] expired, 1796682727510',
          '2024-05-20 06:32:07 WARN HAClient - HAClient, master not response some time, so close connection',
        ]),
      },
      findings: [{ metrics: { haEvents: 2, haDownMs: 0 }, mentions: ['how long it lasted is not in them'], explanationOmits: ['min'] }],
    },
    {
      name: '5.x slave that cannot connect to its master (the master is the suspect): advice names the master, not the slave',
      tz: '+08:00',
      files: {
        'mq-broker-a-s/broker.log': lf([boot('13:58:40', 'broker-a', '10.0.0.2:10911')]),
        'mq-broker-a-s/store.log': lf(['2024-05-20 14:05:52 WARN DefaultHAClient - HAClient connect to master null failed', ...connectFailures(0, 6)]),
      },
      findings: [
        {
          severity: 'warning',
          metrics: { failures: 0, haEvents: 6, haDownMs: 25000 },
          mentions: ['could not reach its master', 'whether the master was running'],
          adviceOmits: ['Check the slave'],
        },
      ],
    },
    {
      name: '5.x SYNC_MASTER cut off from its slave for 90 s: SLAVE_NOT_AVAILABLE results, slave connect failures every 5 s',
      tz: '+08:00',
      files: {
        'mq-broker-a/broker.log': lf([boot('13:58:02', 'broker-a', '10.0.0.1:10911')]),
        'mq-broker-a-s/broker.log': lf([boot('13:58:40', 'broker-a', '10.0.0.2:10911')]),
        'mq-broker-a-s/store.log': lf([
          '2024-05-20 14:05:59 INFO DefaultHAClient - HAClient close connection with master 10.0.0.1:10912',
          ...connectFailures(0, 19),
          '2024-05-20 14:07:35 INFO DefaultHAClient - HAClient connect to master 10.0.0.1:10912',
        ]),
        'app-order-01/app.log': lf([
          appLine('14:06:12.401', 'WARN ', sendResult('SLAVE_NOT_AVAILABLE', 1, 'broker-a', 0)),
          appLine('14:06:40.019', 'WARN ', sendResult('SLAVE_NOT_AVAILABLE', 2, 'broker-a', 3)),
          appLine('14:07:05.771', 'WARN ', sendResult('SLAVE_NOT_AVAILABLE', 3, 'broker-a', 1)),
        ]),
      },
      findings: [
        {
          severity: 'error',
          subject: { broker: 'broker-a', brokerAddr: '10.0.0.1:10911' },
          metrics: { failures: 3, slaveNotAvailable: 3, flushTimeouts: 0, slaveTimeouts: 0, haEvents: 19, haDownMs: 90000, maxBehindBytes: null },
          evidence: ['app-order-01/app.log:1', 'mq-broker-a-s/store.log:2', 'mq-broker-a-s/store.log:20'],
          mentions: ['stored on the master', 'retryAnotherBrokerWhenNotStoreOK', 'haSlaveFallbehindMax (256 MiB)', 'ASYNC_MASTER', '10912'],
          start: '2024-05-20T14:06:00+08:00',
          end: '2024-05-20T14:07:30+08:00',
        },
      ],
    },
    {
      name: '4.9.0 SYNC_FLUSH broker: the groupcommit timeout in store.log and the same sends in the application log count once',
      tz: '+08:00',
      files: {
        'broker-b/store.log': lf([
          "2024-05-20 14:05:01 WARN SendMessageThread_3 - [NOTIFYME]putMessage in lock cost time(ms)=1312, bodyLength=1024 AppendMessageResult=AppendMessageResult{status=PUT_OK, wroteOffset=1073741824, wroteBytes=1190, msgId='C0A8010A00002A9F0000000040000000', storeTimestamp=1716184501000, logicsOffset=1200, pagecacheRT=1311, msgNum=1}",
          '2024-05-20 14:05:07 ERROR SendMessageThread_3 - do groupcommit, wait for flush failed, topic: order_events tags: paid client address: 10.0.0.9',
          '2024-05-20 14:05:08 ERROR SendMessageThread_5 - do groupcommit, wait for flush failed, topic: order_events tags: paid client address: 10.0.0.9',
        ]),
        'app-order-01/app.log': lf([
          appLine('14:05:07.122', 'WARN ', sendResult('FLUSH_DISK_TIMEOUT', 11, 'broker-b', 0, 'order_events')),
          appLine('14:05:08.480', 'WARN ', sendResult('FLUSH_DISK_TIMEOUT', 12, 'broker-b', 2, 'order_events')),
        ]),
      },
      findings: [
        {
          severity: 'warning',
          subject: { broker: 'broker-b', host: 'broker-b' },
          metrics: { failures: 2, flushTimeouts: 2, slaveTimeouts: 0, slaveNotAvailable: 0, topics: ['order_events'] },
          evidence: ['app-order-01/app.log:1', 'broker-b/store.log:2'],
          mentions: ['SYNC_FLUSH', 'syncFlushTimeout (5000 ms)', 'larger count', 'up to 1312 ms', 'ASYNC_FLUSH', 'iostat'],
        },
      ],
    },
    {
      name: 'broker 4.9.1+ (no timeout line in its logs): FLUSH_SLAVE_TIMEOUT seen only in the application, logged in two files once',
      tz: '+08:00',
      files: {
        'broker-a/broker.log': lf([boot('13:58:02', 'broker-a', '10.0.0.1:10911')]),
        'broker-a/store.log': lf(['2024-05-20 14:05:10 WARN SendMessageThread_1 - putMessage not in lock elapsed time(ms)=3004, bodyLength=512']),
        'app-pay-01/app.log': lf([
          appLine('14:05:10.215', 'WARN ', sendResult('FLUSH_SLAVE_TIMEOUT', 21, 'broker-a', 1, 'pay_events')),
          appLine('14:05:12.902', 'WARN ', sendResult('FLUSH_SLAVE_TIMEOUT', 22, 'broker-a', 2, 'pay_events')),
        ]),
        'app-pay-01/error.log': lf([appLine('14:05:10.215', 'WARN ', sendResult('FLUSH_SLAVE_TIMEOUT', 21, 'broker-a', 1, 'pay_events'))]),
      },
      findings: [
        {
          severity: 'warning',
          subject: { broker: 'broker-a', host: 'broker-a' },
          metrics: { failures: 2, slaveTimeouts: 2, flushTimeouts: 0, slaveNotAvailable: 0, clients: 1 },
          evidence: ['app-pay-01/app.log:1', 'app-pay-01/app.log:2'],
          mentions: ['SYNC_MASTER', 'slaveTimeout (3000 ms', 'store.log was given', 'from 4.9.1', 'only trace', 'retryAnotherBrokerWhenNotStoreOK', 'duplicate'],
        },
      ],
    },
    {
      name: '4.x HA trouble on both sides and a slave far behind',
      files: {
        'mq-broker-c/broker.log': lf([
          boot('13:50:02', 'broker-c', '10.0.0.3:10911'),
          '2024-05-20 14:04:12 INFO BrokerControllerScheduledThread1 - Slave fall behind master: 1048576 bytes',
          '2024-05-20 14:05:12 INFO BrokerControllerScheduledThread1 - Slave fall behind master: 0 bytes',
          '2024-05-20 14:06:12 INFO BrokerControllerScheduledThread1 - Slave fall behind master: 201326592 bytes',
          '2024-05-20 14:07:12 INFO BrokerControllerScheduledThread1 - Slave fall behind master: 402653184 bytes',
        ]),
        'mq-broker-c/store.log': lf(['2024-05-20 14:06:29 WARN ReadSocketService - ha housekeeping, found this connection[/10.0.0.4:50312] expired, 20002']),
        'mq-broker-c-s/store.log': lf([
          '2024-05-20 14:06:31 WARN HAClient - HAClient, housekeeping, found this connection[10.0.0.3:10912] expired, 20011',
          '2024-05-20 14:06:31 WARN HAClient - HAClient, master not response some time, so close connection',
        ]),
      },
      findings: [
        {
          severity: 'warning',
          subject: { broker: 'broker-c' },
          metrics: { failures: 0, maxBehindBytes: 402653184, haEvents: 3, slaveNotAvailable: 0 },
          evidence: ['mq-broker-c/store.log:1', 'mq-broker-c/broker.log:5'],
          mentions: ['384 MiB behind', 'haSlaveFallbehindMax (256 MiB)', 'housekeeping'],
        },
      ],
    },
  ],
});
