// disk-full over small logs in the real layouts: 4.x rocketmq_client.log, application logs and the
// broker store.log (P-FULL layout, GMT+8, no milliseconds).
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ruleTester } from './rule-tester.js';
import { LAB, labFindings, labTruth } from './lab-findings.js';
import rule from '../../src/rules/disk-full.js';
import { analyzeTimeline } from '../../src/rules/analyze.js';
import { parseSettings } from '../../src/rules/engine.js';
import { buildTimeline } from '../../src/timeline/build.js';

const crlf = (lines: string[]) => lines.join('\r\n') + '\r\n';
const lf = (lines: string[]) => lines.join('\n') + '\n';

const notAvailable = (cl: string) =>
  `org.apache.rocketmq.client.exception.MQBrokerException: CODE: 14  DESC: service not available now. It may be caused by one of the following reasons: the broker's disk is full [CL: ${cl} CQ: ${cl} INDEX: ${cl}], messages are put to the slave, message store has been shut down, etc. BROKER: 10.0.0.1:10911`;
const FRAMES = [
  '\tat org.apache.rocketmq.client.impl.MQClientAPIImpl.processSendResponse(MQClientAPIImpl.java:675)',
  '\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendKernelImpl(DefaultMQProducerImpl.java:817)',
  '\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendDefaultImpl(DefaultMQProducerImpl.java:575)',
];
const FAQ = 'For more information, please visit the url, http://rocketmq.apache.org/docs/faq/';

const clientReply = (time: string, cl: string) => [
  `${time} WARN RocketmqClient - sendKernelImpl exception, resend at once, InvokeID: 812371, RT: 2ms, Broker: MessageQueue [topic=TopicTest, brokerName=broker-a, queueId=1]`,
  notAvailable(cl),
  FAQ,
  ...FRAMES,
  '',
];
const appReply = (time: string, cl: string) => [`${time} [order-sender-2] ERROR com.acme.order.mq.OrderPublisher - publish order event failed, topic=TopicTest`, notAvailable(cl), FAQ, ...FRAMES];

ruleTester(rule, {
  valid: [
    {
      name: 'the store marks the disk OK again (no event)',
      files: { 'broker-a/store.log': lf(['2024-05-20 14:15:02 INFO StoreScheduledThread1 - physic disk space OK 0.7012, so mark disk ok, storePathPhysic=/home/rocketmq/store/commitlog']) },
    },
    {
      name: 'a flow-control reply is not a disk problem',
      files: {
        'app/app.log': lf([
          '2024-05-20 14:03:11.491 [order-sender-2] ERROR com.acme.order.mq.OrderPublisher - publish order event failed, topic=TopicTest',
          'org.apache.rocketmq.client.exception.MQBrokerException: CODE: 2  DESC: [TIMEOUT_CLEAN_QUEUE]broker busy, start flow control for a while, period in queue: 205ms, size of queue: 5 BROKER: 10.0.0.1:10911',
          FAQ,
          ...FRAMES,
        ]),
      },
    },
  ],
  invalid: [
    {
      name: 'a full disk: the reply in client and application logs (once), and the store marking the disk full',
      files: {
        'app/rocketmq_client.log': crlf(clientReply('2024-05-20 14:05:02,311', ' 0.96')),
        'app/app.log': lf(appReply('2024-05-20 14:05:02.312', ' 0.96')),
        'broker-a/store.log': lf(['2024-05-20 14:04:52 ERROR StoreScheduledThread1 - physic disk maybe full soon 0.9612, so mark disk full, storePathPhysic=/home/rocketmq/store/commitlog']),
      },
      findings: [
        {
          severity: 'error',
          subject: { broker: 'broker-a', host: 'broker-a' },
          metrics: { failures: 2, rejectedSends: 1, diskFullMarks: 1, maxRatio: 0.9612, diskMaxUsedSpaceRatio: 0.75, warningLevelRatio: 0.9 },
          evidence: ['broker-a/store.log:1', 'app/rocketmq_client.log:2'],
          mentions: ['diskMaxUsedSpaceRatio (75%)', '0.85', 'fileReservedTime'],
          start: '2024-05-20T14:04:52+08:00',
          end: '2024-05-20T14:05:02.311+08:00',
        },
      ],
    },
    {
      name: 'SERVICE_NOT_AVAILABLE with a low usage figure: probably not the disk',
      files: { 'app/rocketmq_client.log': crlf(clientReply('2024-05-20 14:05:02,311', ' 0.12')) },
      findings: [{ subject: { broker: 'broker-a' }, metrics: { failures: 1, maxRatio: 0.12 }, mentions: ['slave', 'not the cause'] }],
    },
    {
      // A 4.6.1 broker's reply (the text of brokers up to 4.7.1) as a 4.9.5 client's SendCallback got
      // it: MQBrokerException adds the broker's address; sendMessageAsync does not retry a reply.
      name: "an asynchronous send's reply from a broker up to 4.7.1: its address names the broker, and no retry is claimed",
      files: {
        'app/app.log': lf([
          '2026-12-08 00:29:57.371 ERROR 25236 --- [NettyClientPublicExecutor_1] com.example.pay.PaymentNotifier          : Failed to publish event asynchronously, topic=TopicOrder, key=evt-403',
          '',
          'org.apache.rocketmq.client.exception.MQBrokerException: CODE: 14  DESC: service not available now, maybe disk full, CL:  0.97 CQ:  0.97 INDEX:  0.97, maybe your broker machine memory too small. BROKER: 10.213.0.21:10911',
          FAQ,
          '\tat org.apache.rocketmq.client.impl.MQClientAPIImpl.processSendResponse(MQClientAPIImpl.java:675)',
          '\tat org.apache.rocketmq.client.impl.MQClientAPIImpl.access$000(MQClientAPIImpl.java:175)',
          '\tat org.apache.rocketmq.client.impl.MQClientAPIImpl$1.operationComplete(MQClientAPIImpl.java:564)',
          '\tat org.apache.rocketmq.remoting.netty.ResponseFuture.executeInvokeCallback(ResponseFuture.java:54)',
        ]),
      },
      findings: [
        {
          metrics: { failures: 1, rejectedSends: 1, maxRatio: 0.97 },
          mentions: ['not retried', 'SendCallback'],
          explanationOmits: ['Clients retry code 14'],
        },
      ],
    },
    {
      name: 'only the store log: the disk marked full, and the 4.x not-writable line',
      files: {
        'broker-b/store.log': lf([
          '2024-05-20 14:04:52 ERROR StoreScheduledThread1 - physic disk maybe full soon 0.92, so mark disk full, storePathPhysic=/home/rocketmq/store/commitlog',
          "2024-05-20 14:04:53 WARN SendMessageThread_1 - the message store is not writable. It may be caused by one of the following reasons: the broker's disk is full, write to logic queue error, write to index file error, etc",
        ]),
      },
      findings: [{ subject: { host: 'broker-b' }, metrics: { failures: 2, diskFullMarks: 1, notWritable: 1, maxRatio: 0.92, rejectedSends: 0 } }],
    },
  ],
});

// samples/lab/disk-full: broker-a's store file system filled to 98 % for 90 s (lab.json's disk-full
// fault), the CleanCommitLogService check marking it full, 180 code-14 replies retried by the 4.9.4 and
// 5.1.4 clients. The usage ratio it logged (0.98) is held against each level the rule compares it with:
// the levels moved onto 0.98 itself tell `>` from `>=`, and each level names a different situation.
describe('disk-full on the lab recording', () => {
  const truth = labTruth('disk-full');
  const fault = truth.faults.find((f) => f.kind === 'disk-full')!;
  const CHECK_MS = 10_500; // CleanCommitLogService checks every 10 s (DefaultMessageStore, 4.9.4)

  it('names broker-a, its address and host, the lab window, with the default levels', async () => {
    const [f, ...rest] = await labFindings('disk-full', [rule]);
    expect(rest).toEqual([]);
    expect(f.severity).toBe('error');
    expect(f.subject).toEqual({ broker: 'broker-a', brokerAddr: truth.servers.brokers.find((b) => b.brokerName === 'broker-a')!.addr, host: fault.host });
    expect(f.metrics).toMatchObject({ failures: 182, rejectedSends: 180, diskFullMarks: 1, notWritable: 1, maxRatio: 0.98, diskMaxUsedSpaceRatio: 0.75, cleanForciblyRatio: 0.85, warningLevelRatio: 0.9 });
    expect(String(f.metrics.clientVersion).split(', ').sort()).toEqual([...truth.versions.client].sort());
    expect(f.start! - Date.parse(fault.start)).toBeGreaterThanOrEqual(0);
    expect(f.start! - Date.parse(fault.start)).toBeLessThanOrEqual(CHECK_MS);
    expect(Math.abs(f.end! - Date.parse(fault.end!))).toBeLessThanOrEqual(CHECK_MS);
    // From the check that marked the disk full (store.log:28, before any reply) to the last reply.
    expect(f.start).toBe(Date.parse('2026-12-01T22:12:06+08:00'));
    expect(f.end).toBe(Date.parse('2026-12-01T22:13:35.782+08:00'));
    // The first line with the highest ratio (a client's reply), the first mark.
    expect(f.evidence.map((e) => `${e.file.slice(e.file.indexOf('disk-full/') + 10)}:${e.line}`)).toEqual([
      'app-stock-01/logs/rocketmqlogs/rocketmq_client.log:44',
      'mq-broker-a/logs/rocketmqlogs/store.log:28',
    ]);
    expect(f.title).toBe('broker-a: disk full, 182 failures, usage up to 0.98 (writes stop above 0.9)');
    expect(f.explanation).toContain('At 0.98 the disk was over the 0.9 level: writes stop');
    expect(f.explanation).toContain('seen by 2 client hosts');
    expect(f.advice[0]).toMatch(/^Free or add disk space/);
    expect(f.evidence.map((e) => e.text)).toEqual(expect.arrayContaining([expect.stringContaining('physic disk maybe full soon 0.98, so mark disk full')]));
  });

  it('a warning level of 0.98 itself: not over it, so only the clean-forcibly level is passed', async () => {
    const [f] = await labFindings('disk-full', [rule], ['diskSpaceWarningLevelRatio=0.98']);
    expect(f.metrics).toMatchObject({ warningLevelRatio: 0.98, maxRatio: 0.98 });
    expect(f.explanation).toContain('At 0.98 the disk was over the clean-forcibly level (0.85): files are deleted before they expire, and writes stop at 0.98.');
    expect(f.title).toContain('disk full');
  });

  it('clean-forcibly at 0.98 as well: only diskMaxUsedSpaceRatio is passed', async () => {
    const [f] = await labFindings('disk-full', [rule], ['diskSpaceWarningLevelRatio=0.99', 'diskSpaceCleanForciblyRatio=0.98']);
    expect(f.metrics).toMatchObject({ cleanForciblyRatio: 0.98 });
    expect(f.explanation).toContain('At 0.98 the disk was over diskMaxUsedSpaceRatio: expired files are being deleted; writes stop at 0.99.');
    expect(f.advice[0]).toMatch(/^Free or add disk space/);
  });

  it('every level at or above 0.98: the disk is not the cause, the advice looks elsewhere', async () => {
    const [f] = await labFindings('disk-full', [rule], ['diskSpaceWarningLevelRatio=0.99', 'diskSpaceCleanForciblyRatio=0.99', 'diskMaxUsedSpaceRatio=98']);
    expect(f.metrics).toMatchObject({ diskMaxUsedSpaceRatio: 0.98 });
    expect(f.title).toBe('broker-a: store refused writes (SERVICE_NOT_AVAILABLE), 182 failures, usage up to 0.98 (writes stop above 0.99)');
    expect(f.advice[0]).toMatch(/^Check the broker role/);
    expect(f.advice.join('\n')).not.toContain('Free or add disk space');
    // The store marked its disk full, so the reply is not put down to a slave or a shut-down store.
    expect(f.explanation).not.toContain('probably not the cause');
  });

  it("without the broker's logs, the clients' replies alone still name broker-a and its usage", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rmq-diskfull-'));
    try {
      for (const c of truth.clients) cpSync(join(LAB, 'disk-full', c.host), join(dir, c.host), { recursive: true });
      const run = async (set: string[]) => {
        const t = await buildTimeline({ inputs: [dir], workers: 0 });
        try {
          return analyzeTimeline(t, { rules: [rule], settings: parseSettings([rule], set) });
        } finally {
          t.close();
        }
      };
      const found = await run([]);
      expect(found).toHaveLength(1);
      expect(found[0].subject).toMatchObject({ broker: 'broker-a' });
      expect(found[0].metrics).toMatchObject({ failures: 180, rejectedSends: 180, diskFullMarks: 0, notWritable: 0, maxRatio: 0.98 });
      expect(found[0].explanation).toContain('seen by 2 client hosts');
      expect(found[0].explanation).not.toContain('probably not the cause');
      // The same replies with every level above their ratio, and no store line marking the disk full:
      // the reply is not put down to the disk.
      const [low] = await run(['diskSpaceWarningLevelRatio=0.99', 'diskSpaceCleanForciblyRatio=0.99', 'diskMaxUsedSpaceRatio=99']);
      expect(low.explanation).toContain('The reported ratio (0.98) is below every level, so the disk is probably not the cause');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
