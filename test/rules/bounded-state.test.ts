// The rules' state stays bounded however long the logs are: each case is a log prefix and one
// episode in RocketMQ's real layouts, read by the real parsers, and the episode repeated thousands
// of times (shifted in time, each send with its own InvokeID). The events a rule still holds after
// the pass (live after a full collection) must not grow from 2,000 to 20,000 episodes, and the
// findings kept of 20,000 episodes must be those of the first 20 alone, the rest counted.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { RmqEvent } from '../../src/parse/types.js';
import brokerBusy from '../../src/rules/broker-busy.js';
import brokerDownDetection from '../../src/rules/broker-down-detection.js';
import brokerRegisterFailed from '../../src/rules/broker-register-failed.js';
import colocatedNamesrv from '../../src/rules/colocated-namesrv.js';
import { sourcesOf } from '../../src/rules/analyze.js';
import { MAX_FINDINGS_PER_RULE, RuleRunner } from '../../src/rules/engine.js';
import namesrvStuck from '../../src/rules/namesrv-stuck.js';
import staleRoute from '../../src/rules/stale-route.js';
import type { Finding, Rule, SourceInfo } from '../../src/rules/types.js';
import { Occurrences } from '../../src/rules/util.js';
import { buildTimeline } from '../../src/timeline/build.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const CRLF = '\r\n';
const rec4 = (time: string, level: string, logger: string, msg: string, stack: string[] = []) =>
  [`2020-12-22 ${time} ${level} ${logger} - ${msg}`, ...stack, ...(stack.length ? [''] : [])].join(CRLF);
const srv = (time: string, level: string, thread: string, msg: string) => `2020-12-22 ${time} ${level} ${thread} - ${msg}`;

const A = '192.168.3.100:10911';
const B = '192.168.3.101:10911';
const NS1 = '192.168.3.100:9876';
const NS2 = '192.168.3.101:9876';
const routeData = (brokers: Array<[string, string]>) =>
  `TopicRouteData [orderTopicConf=null, queueDatas=[${brokers.map(([n]) => `QueueData [brokerName=${n}, readQueueNums=4, writeQueueNums=4, perm=6, topicSynFlag=0]`).join(', ')}], brokerDatas=[${brokers
    .map(([n, a]) => `BrokerData [brokerName=${n}, brokerAddrs={0=${a}}]`)
    .join(', ')}], filterServerTable={}]`;
const routeChanged = (before: Array<[string, string]> | null, after: Array<[string, string]>) =>
  `the topic[TopicPay] route info changed, old[${before ? routeData(before) : 'null'}] ,new[${routeData(after)}]`;
const BOTH: Array<[string, string]> = [['broker-b', B], ['broker-a', A]];
const ONLY_B: Array<[string, string]> = [['broker-b', B]];
const SEND_FRAMES = [
  '\tat org.apache.rocketmq.remoting.netty.NettyRemotingAbstract.invokeSyncImpl(NettyRemotingAbstract.java:436)',
  '\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendKernelImpl(DefaultMQProducerImpl.java:833)',
];
const ROUTE_FRAMES = ['\tat org.apache.rocketmq.client.impl.MQClientAPIImpl.getTopicRouteInfoFromNameServer(MQClientAPIImpl.java:1363)'];

const clientStart = [
  rec4('14:35:16,240', 'INFO', 'RocketmqRemoting', `name server address updated. NEW : [${NS1}, ${NS2}] , OLD: null`),
  rec4('14:35:16,281', 'INFO', 'RocketmqRemoting', `new name server is chosen. OLD: null , NEW: ${NS1}. namesrvIndex = 413`),
  rec4('14:35:21,216', 'INFO', 'RocketmqClient', routeChanged(null, BOTH)),
];
const sendTimeout = (t: string, id: string) =>
  [
    rec4(t, 'WARN', 'RocketmqRemoting', `invokeSync: wait response timeout exception, the channel[${A}]`),
    rec4(t, 'WARN', 'RocketmqClient', `sendKernelImpl exception, resend at once, InvokeID: ${id}, RT: 3003ms, Broker: MessageQueue [topic=TopicPay, brokerName=broker-a, queueId=3]`, [
      `org.apache.rocketmq.remoting.exception.RemotingTimeoutException: wait response on the channel <${A}> timeout, 2999(ms)`,
      ...SEND_FRAMES,
    ]),
  ].join(CRLF);
const pollTimeout = (t: string) =>
  rec4(t, 'ERROR', 'RocketmqClient', 'updateTopicRouteInfoFromNameServer Exception', [
    `org.apache.rocketmq.remoting.exception.RemotingTimeoutException: wait response on the channel <${NS1}> timeout, 3000(ms)`,
    ...ROUTE_FRAMES,
  ]);

/** A client whose sends to broker-a time out for 2 min 23 s until its route drops broker-a, polls stuck on NS1 meanwhile. */
const clientEpisode = [
  sendTimeout('14:42:03,044', '-603156890667045130'),
  pollTimeout('14:42:19,282'),
  sendTimeout('14:43:03,386', '5406612685478464671'),
  pollTimeout('14:43:19,283'),
  sendTimeout('14:44:22,184', '-1369158040972938355'),
  rec4('14:44:26,100', 'INFO', 'RocketmqClient', routeChanged(BOTH, ONLY_B)),
  rec4('14:45:30,000', 'INFO', 'RocketmqRemoting', `new name server is chosen. OLD: ${NS1} , NEW: ${NS2}. namesrvIndex = 414`),
  rec4('14:46:00,000', 'INFO', 'RocketmqClient', routeChanged(ONLY_B, BOTH)),
  rec4('14:47:00,000', 'INFO', 'RocketmqRemoting', `new name server is chosen. OLD: ${NS2} , NEW: ${NS1}. namesrvIndex = 415`),
];

const boot = (name: string, addr: string) => srv('14:30:02', 'INFO', 'main', `The broker[${name}, ${addr}] boot success. serializeType=JSON and name server is ${NS1};${NS2}`);
const registered = (t: string, ns: string) => srv(t, 'INFO', 'brokerOutApi_thread_1', `register broker[0]to name server ${ns} OK`);
const registerTimeout = (t: string) =>
  [srv(t, 'WARN', 'brokerOutApi_thread_2', `registerBroker Exception, ${NS1}`), `org.apache.rocketmq.remoting.exception.RemotingTimeoutException: wait response on the channel <${NS1}> timeout, 6000(ms)`].join('\n');

/** broker-a registers, goes silent, and the NameServer on mq-node-101 expires it (4.x scan). */
const expiry = [
  srv('14:44:05', 'WARN', 'NSScheduledThread1', `The broker channel expired, ${A} 120000ms`),
  srv('14:44:05', 'INFO', 'NSScheduledThread1', `remove brokerAddr[0, ${A}] from brokerAddrTable, because channel destroyed`),
  srv('14:44:05', 'INFO', 'NSScheduledThread1', 'remove brokerName[broker-a] from brokerAddrTable, because channel destroyed'),
];

const FAQ = 'For more information, please visit the url, http://rocketmq.apache.org/docs/faq/';
const busy = (t: string, wait: number, size: number) =>
  [
    rec4(t, 'WARN', 'RocketmqClient', `sendKernelImpl exception, resend at once, InvokeID: -4223562238651452357, RT: ${wait + 2}ms, Broker: MessageQueue [topic=TopicPay, brokerName=broker-b, queueId=2]`),
    `org.apache.rocketmq.client.exception.MQBrokerException: CODE: 2  DESC: [TIMEOUT_CLEAN_QUEUE]broker busy, start flow control for a while, period in queue: ${wait}ms, size of queue: ${size} BROKER: ${B}`,
    FAQ,
    ...SEND_FRAMES,
    '',
  ].join(CRLF);
const watermark = (t: string, size: number, slow: number) => `2020-12-22 ${t} - [WATERMARK] Send Queue Size: ${size} SlowTimeMills: ${slow}`;

interface Case {
  rule: Rule;
  name?: string;
  /** `host/file` -> lines read once, then the episode repeated. */
  files: Record<string, { once: string[]; episode: string[]; sep?: string }>;
  /** Findings each episode makes (counted or kept). */
  perEpisode: number;
  /** Whether the kept findings of many episodes are those of the first MAX_FINDINGS_PER_RULE. */
  keepsFirst: boolean;
}

const PERIOD_MS = 600000;

const CASES: Case[] = [
  { rule: staleRoute, files: { 'app-pay-01/rocketmq_client.log': { once: clientStart, episode: clientEpisode, sep: CRLF } }, perEpisode: 1, keepsFirst: true },
  { rule: namesrvStuck, files: { 'app-pay-01/rocketmq_client.log': { once: clientStart, episode: clientEpisode, sep: CRLF } }, perEpisode: 1, keepsFirst: true },
  {
    rule: colocatedNamesrv,
    files: { 'app-pay-01/rocketmq_client.log': { once: clientStart, episode: clientEpisode, sep: CRLF } },
    perEpisode: 0,
    keepsFirst: false,
  },
  {
    rule: brokerRegisterFailed,
    files: {
      'mq-node-101/broker.log': {
        once: [boot('broker-b', B)],
        episode: [registered('14:41:42', NS1), registerTimeout('14:42:18'), registerTimeout('14:42:48'), registerTimeout('14:43:18'), registered('14:43:42', NS1)],
      },
    },
    perEpisode: 1,
    keepsFirst: true,
  },
  {
    rule: brokerDownDetection,
    files: {
      'mq-node-100/broker.log': { once: [boot('broker-a', A)], episode: [registered('14:41:58', NS1), registered('14:41:58', NS2)] },
      'mq-node-101/namesrv.log': { once: [srv('14:30:00', 'INFO', 'main', 'The Name Server boot success. serializeType=JSON')], episode: expiry },
    },
    perEpisode: 1,
    keepsFirst: true,
  },
  {
    // Shutdowns without a NameServer log: each one a finding (the first 256 only, before).
    rule: brokerDownDetection,
    name: 'broker-down-detection, shutdowns',
    files: {
      'mq-node-100/broker.log': {
        once: [boot('broker-a', A)],
        episode: [registered('14:41:58', NS1), registered('14:41:58', NS2), srv('14:45:00', 'INFO', 'ShutdownHook', 'Shutdown hook was invoked, 1')],
      },
    },
    perEpisode: 1,
    keepsFirst: true,
  },
  {
    rule: brokerBusy,
    files: {
      'app-pay-01/rocketmq_client.log': { once: clientStart, episode: [busy('14:42:03,044', 204, 30), busy('14:42:40,100', 207, 41)], sep: CRLF },
      'mq-node-101/watermark.log': { once: [], episode: [watermark('14:42:00,000', 35, 180), watermark('14:42:40,000', 44, 206)] },
    },
    perEpisode: 0,
    keepsFirst: false,
  },
];

/** The prefix and one episode read by the real parsers, and where the episode's events begin in each file. */
async function template(c: Case): Promise<{ once: RmqEvent[]; episode: RmqEvent[]; sources: SourceInfo[]; linesPerEpisode: Map<string, number> }> {
  const root = mkdtempSync(join(tmpdir(), 'rmq-bounded-'));
  try {
    const firstEpisodeLine = new Map<string, number>();
    const linesPerEpisode = new Map<string, number>();
    for (const [rel, f] of Object.entries(c.files)) {
      const sep = f.sep ?? '\n';
      const once = f.once.length ? f.once.join(sep) + sep : '';
      const episode = f.episode.join(sep) + sep;
      const p = join(root, rel);
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, once + episode);
      firstEpisodeLine.set(p, once.split('\n').length);
      linesPerEpisode.set(p, episode.split('\n').length - 1);
    }
    const t = await buildTimeline({ inputs: [root], workers: 0 });
    try {
      const all = [...t.events()];
      const inEpisode = (e: RmqEvent) => e.line >= firstEpisodeLine.get(e.file)!;
      return { once: all.filter((e) => !inEpisode(e)), episode: all.filter(inEpisode), sources: sourcesOf(t), linesPerEpisode };
    } finally {
      t.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The events of `n` episodes, made one at a time (nothing holds them but the rule). */
function* stream(tpl: Awaited<ReturnType<typeof template>>, n: number): Generator<RmqEvent> {
  yield* tpl.once.map((e) => ({ ...e, fields: { ...e.fields } }));
  let seq = tpl.once.length;
  for (let i = 0; i < n; i++) {
    for (const e of tpl.episode) {
      const invokeId = e.fields.invokeId;
      yield {
        ...e,
        ts: e.ts === null ? null : e.ts + i * PERIOD_MS,
        line: e.line + i * tpl.linesPerEpisode.get(e.file)!,
        seq: seq++,
        fields: { ...e.fields, ...(typeof invokeId === 'string' ? { invokeId: `${invokeId}${i}` } : {}) },
      };
    }
  }
}

/** Runs the rule over `n` episodes: the events it still holds at the end of the pass, and its findings. */
async function run(c: Case, tpl: Awaited<ReturnType<typeof template>>, n: number): Promise<{ held: number; findings: Finding[]; omitted: number }> {
  const runner = new RuleRunner({ rules: [c.rule], sources: tpl.sources });
  const refs: Array<WeakRef<RmqEvent>> = [];
  for (const e of stream(tpl, n)) {
    refs.push(new WeakRef(e));
    runner.visit(e);
  }
  // WeakRefs made in this turn keep their targets until it ends.
  await new Promise((r) => setTimeout(r, 0));
  gc();
  const held = refs.filter((r) => r.deref() !== undefined).length;
  const findings = runner.finish();
  const omitted = Object.values(runner.omitted[c.rule.meta.id] ?? {}).reduce((a, b) => a + (b ?? 0), 0);
  return { held, findings, omitted };
}

describe('rules keep bounded state', () => {
  for (const c of CASES) {
    it(`${c.name ?? c.rule.meta.id}: the events held do not grow with the episodes, and the findings are those of the first ones`, async () => {
      const tpl = await template(c);
      expect(tpl.episode.length).toBeGreaterThan(0);
      const few = await run(c, tpl, 2000);
      const many = await run(c, tpl, 20000);
      // Before, each rule held events of every episode (tens of thousands here).
      expect(many.held).toBeLessThan(400);
      expect(many.held).toBeLessThanOrEqual(few.held + 8);
      if (c.perEpisode) {
        expect(many.findings).toHaveLength(MAX_FINDINGS_PER_RULE);
        expect(many.findings.length + many.omitted).toBe(20000 * c.perEpisode);
      }
      if (c.keepsFirst) {
        const first = await run(c, tpl, MAX_FINDINGS_PER_RULE);
        expect(first.omitted).toBe(0);
        expect(many.findings).toEqual(first.findings);
      }
      // Findings of long logs stay as short as those of shorter ones.
      const size = (fs: Finding[]) => JSON.stringify(fs).length;
      expect(size(many.findings)).toBeLessThanOrEqual(size(few.findings) + 200);
    }, 120000);
  }

  it('broker-busy folds the episodes between the first and the latest ones, and says how many', async () => {
    const c = CASES.find((x) => x.rule === brokerBusy)!;
    const { findings } = await run(c, await template(c), 2000);
    expect(findings).toHaveLength(1);
    expect(findings[0].metrics).toMatchObject({ rejections: 4000, episodes: 2000, episodesFolded: 2000 - 24 });
    expect(findings[0].metrics.episodeKinds).toHaveLength(24);
    expect(findings[0].explanation).toContain('1976 more episodes');
    expect(findings[0].explanation).toContain('episode 2000 ');
  }, 60000);

  it('Occurrences forgets the keys of sends long past', () => {
    const occ = new Occurrences<{ ts: number }>(2000);
    for (let i = 0; i < 100000; i++) expect(occ.add(`send|${i}`, { ts: i * 1000 })).toBe(true);
    expect(occ.keys).toBeLessThan(2 * 1024 + 700);
    // Still one occurrence per key and window.
    expect(occ.add('send|99999', { ts: 99999 * 1000 + 1500 })).toBe(false);
    expect(occ.add('send|99999', { ts: 99999 * 1000 + 2500 })).toBe(true);
  });
});
