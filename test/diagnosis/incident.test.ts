// The incident analyze names on the bundled samples, against their ground truth
// (samples/*/expected.json): the causes on their hosts and times, the clients hurt with the sends
// their applications lost, the chain in time order, and advice once. (The lab recordings, real
// RocketMQ, are held to their lab.json in test/lab/incidents.test.ts.)
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnose, incidentPass } from '../../src/diagnosis/diagnose.js';
import { analyze } from '../../src/rules/analyze.js';
import type { Finding } from '../../src/rules/types.js';
import { adviceNames } from '../../src/diagnosis/incident.js';
import type { Incident } from '../../src/rules/incident.js';
import { ALL_RULES } from '../../src/rules/index.js';
import { buildTimeline } from '../../src/timeline/build.js';

const ROOT = join(__dirname, '..', '..');
const truth = (name: string) => JSON.parse(readFileSync(join(ROOT, 'samples', name, 'expected.json'), 'utf8')).groundTruth;
const ms = (iso: string) => Date.parse(iso);

async function incidentsOf(name: string): Promise<Incident[]> {
  const t = await buildTimeline({ inputs: [join(ROOT, 'samples', name)], keepOther: 'inference', cwd: ROOT, workers: 0 });
  try {
    return diagnose(t, { rules: ALL_RULES }).incidents;
  } finally {
    t.close();
  }
}

/** `ts` in [want - before, want + after]. */
function near(ts: number | null, want: number, before: number, after: number, what: string): void {
  expect(ts, what).not.toBeNull();
  expect(ts!, what).toBeGreaterThanOrEqual(want - before);
  expect(ts!, what).toBeLessThanOrEqual(want + after);
}

describe('the incident of the bundled samples', () => {
  it('seed-outage: mq-node-100 went dark, then rebooted; both clients lost the sends their applications logged', async () => {
    const g = truth('seed-outage');
    const [inc, ...more] = await incidentsOf('seed-outage');
    expect(more).toEqual([]);
    // The host froze (the sample's truth: a hang, then a reboot), its whole OS with it: no new
    // connection to it completed, so the logs cannot tell its silence from a power loss. One reboot,
    // told from its silence, with both readings.
    expect(inc.causes.map((c) => `${c.host} ${c.kind}`)).toEqual(['mq-node-100 reboot']);
    near(inc.causes[0].start, ms(g.hang.start), 1000, 1000, 'silence start');
    near(inc.causes[0].start + inc.causes[0].silentMs!, ms(g.hang.hostBack), 1000, 1000, 'silence end: the host back');
    expect(inc.causes[0].detail).toMatch(/a power loss, or a frozen host that was reset: the logs cannot tell/);
    // The host is back when its first process booted (the NameServer); the detail names each boot.
    near(inc.causes[0].end, ms(g.hang.nameServerBootSuccess), 1000, 1000, 'first process up again');
    expect(inc.causes[0].detail).toMatch(/its NameServer was up again 12 s later and its broker 25 s later/);
    expect(inc.causes[0].brokers).toEqual([{ name: 'broker-a', addr: '192.168.3.100:10911', role: 'master' }]);
    expect(inc.causes[0].namesrvAddrs).toEqual(['192.168.3.100:9876']);
    for (const [client, c] of Object.entries<any>(g.clients)) {
      const i = inc.impact.find((x) => x.client === client)!;
      expect(i.failedSends, client).toBe(c.appErrors);
      expect(i.source, client).toBe('app');
      near(i.start, ms(c.firstAppError), 0, 1000, `${client} first failure`);
      near(i.end, ms(c.lastAppError), 0, 1000, `${client} last failure`);
    }
    // app-order-01 (4.8.0) stayed on the hung NameServer; app-pay-01 was on the other one.
    expect(inc.impact.find((i) => i.client === 'app-order-01')!.lastedBecause).toMatch(/before 4\.9\.1 a client never closes/);
    expect(inc.impact.find((i) => i.client === 'app-pay-01')!.lastedBecause).toMatch(/NameServer removed it .* next route poll/);
    const expiry = inc.chain.find((s) => /removed broker-a by its scan/.test(s.text));
    near(expiry?.at ?? null, ms(g.brokerA.expiredOn.at), 1000, 1000, 'the expiry step');
  });

  it('broker-busy: broker-b overloaded, then stalled, one incident; each client lost what its application logged', async () => {
    const g = truth('broker-busy');
    const [inc, ...more] = await incidentsOf('broker-busy');
    expect(more).toEqual([]);
    expect(inc.causes.map((c) => `${c.host} ${c.kind}`)).toEqual(['mq-broker-b overload', 'mq-broker-b stall']);
    const [steady, stall] = g.episodes;
    expect(inc.causes[0].start).toBeLessThanOrEqual(ms(steady.from));
    expect(inc.causes[0].end).toBeGreaterThanOrEqual(ms(steady.to));
    near(inc.causes[1].start, ms(stall.from), 1000, 1000, 'stall start (the truth is in whole seconds)');
    expect(inc.causes[1].detail).toMatch(/3 pauses, the longest 799 ms/);
    for (const [file, n] of Object.entries<number>(g.appErrorsPerAppLog)) {
      const client = file.split('/')[0];
      expect(inc.impact.find((i) => i.client === client)?.failedSends, client).toBe(n);
    }
  });

  it('broker-busy with a third client whose sends failed between the two episodes: its loss is not put on broker-b being busy', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rmq-busy-'));
    try {
      cpSync(join(ROOT, 'samples', 'broker-busy'), dir, { recursive: true });
      mkdirSync(join(dir, 'app-feed-03'));
      // The overload ended 20:07:33 and the stall began 20:13:21 (expected.json): these three are 2.5 min from either.
      const failed = (t: string, id: number) =>
        [
          `2023-06-14 20:10:${t} ERROR 4712 --- [feed-fanout-2] com.acme.feed.mq.FeedEventProducer       : publish feed event failed, feedId=${id}, topic=TopicFeed`,
          '',
          'org.apache.rocketmq.remoting.exception.RemotingTooMuchRequestException: sendDefaultImpl call timeout',
          '\tat org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendDefaultImpl(DefaultMQProducerImpl.java:588)',
        ].join('\n');
      writeFileSync(join(dir, 'app-feed-03', 'app.log'), [failed('01.100', 1), failed('11.200', 2), failed('21.300', 3)].join('\n') + '\n');
      // Its client log: app-feed-02's start lines (before any failure), so that it is a client.
      const start = readFileSync(join(dir, 'app-feed-02', 'rocketmq_client.log'), 'utf8').split('\n').slice(0, 5);
      writeFileSync(join(dir, 'app-feed-03', 'rocketmq_client.log'), start.join('\n') + '\n');
      const t = await buildTimeline({ inputs: [dir], keepOther: 'inference', cwd: ROOT, workers: 0 });
      let incs: Incident[];
      try {
        incs = diagnose(t, { rules: ALL_RULES }).incidents;
      } finally {
        t.close();
      }
      const third = incs.flatMap((i) => i.impact).find((i) => i.client === 'app-feed-03')!;
      expect(third.failedSends).toBe(3);
      expect(third.lastedBecause ?? '').not.toMatch(/busy/);
      // The clients that failed during the overload are still told so.
      expect(incs.flatMap((i) => i.impact).find((i) => i.client === 'app-feed-01')!.lastedBecause).toMatch(/while broker-b was busy/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("generated gen-704: a broker restart too short to leave a silence is the first cause, so every send app-order-01 lost is the incident's; its async sends' disk-full replies count", async () => {
    const lab = JSON.parse(readFileSync(join(ROOT, 'samples', 'generated', 'gen-704', 'lab.json'), 'utf8'));
    const truth = lab.clients.find((c: { host: string }) => c.host === 'app-order-01').sends;
    const restart = lab.faults.find((f: { kind: string }) => f.kind === 'restart');
    const [inc] = await incidentsOf(join('generated', 'gen-704'));
    expect(inc.causes.map((c) => `${c.kind} ${c.host}`)).toEqual([`restart ${restart.host}`, 'disk-full mq-broker-a']);
    // The shutdown hook's whole second; its boot line 16 s later.
    near(inc.causes[0].start, ms(restart.start), 5, 1000, 'the restart, from the shutdown hook');
    const order = inc.impact.find((i) => i.client === 'app-order-01')!;
    expect(order.before).toBeNull();
    expect(order.failedSends).toBe(truth.failed);
    near(order.start, ms(truth.firstFailure), 5, 1000, 'its first failure (the app log and lab.json differ by a millisecond)');
    near(order.end, ms(truth.lastFailure), 5, 1000, 'its last failure');
  });

  it("generated gen-20261207: a slave's planned restart: the chain says the slave was unregistered and removed (its master stayed), and nothing is asked of the producers", async () => {
    const lab = JSON.parse(readFileSync(join(ROOT, 'samples', 'generated', 'gen-20261207', 'lab.json'), 'utf8'));
    expect(lab.faults.map((f: { kind: string; host: string }) => `${f.kind} ${f.host}`)).toEqual(['restart mq-broker-a-s']);
    const [inc, ...more] = await incidentsOf(join('generated', 'gen-20261207'));
    expect(more).toEqual([]);
    expect(inc.causes.map((c) => `${c.kind} ${c.host} ${c.brokers.map((b) => `${b.name}/${b.role}`).join(',')}`)).toEqual(['restart mq-broker-a-s broker-a/slave']);
    expect(inc.impact).toEqual([]);
    const chain = inc.chain.map((s) => s.text);
    expect(chain[0]).toMatch(/its shutdown hook unregistered broker-a's slave;/);
    expect(chain.filter((t) => /removed broker-a's slave when it unregistered on shutdown/.test(t)).length).toBe(2);
    expect(chain.some((t) => /removed broker-a when/.test(t))).toBe(false);
    expect(inc.advice.join(' ')).not.toMatch(/ride through|refused attempt/);
  });

  it("generated gen-20261205: a full disk's refusal is retried by a synchronous send, not by the asynchronous app-pay-01, which lost one send to it", async () => {
    const lab = JSON.parse(readFileSync(join(ROOT, 'samples', 'generated', 'gen-20261205', 'lab.json'), 'utf8'));
    const pay = lab.clients.find((c: { host: string }) => c.host === 'app-pay-01');
    expect([pay.async, pay.sends.failed]).toEqual([true, 1]);
    const [inc] = await incidentsOf(join('generated', 'gen-20261205'));
    const disk = inc.causes.find((c) => c.kind === 'disk-full')!;
    expect(disk.detail).toMatch(/a synchronous send retries on another broker; an asynchronous send, as app-pay-01 makes, is not retried/);
    expect(inc.impact.map((i) => `${i.client} ${i.failedSends}`)).toEqual(['app-pay-01 1']);
  });

  it('generated gen-239: a busy reply 23 ms past the limit, behind a 200 ms put of a cold broker, is a backlog (overload), not a stall, as rule broker-busy reads it', async () => {
    const [inc] = await incidentsOf(join('generated', 'gen-239'));
    const busy = inc.causes.find((c) => c.host === 'mq-broker-c')!;
    expect(busy.kind).toBe('overload');
    expect(inc.causes.some((c) => c.kind === 'stall')).toBe(false);
  });

  it('generated gen-705 and gen-710: a slave that went away without a shutdown, or restarted, is a cause with its slave named, from its own logs', async () => {
    const [crash] = await incidentsOf(join('generated', 'gen-705'));
    const gone = crash.causes.find((c) => c.host === 'mq-broker-a-s')!;
    expect(gone).toMatchObject({ kind: 'unclean-stop', brokers: [{ name: 'broker-a', addr: '10.213.0.24:10911', role: 'slave' }] });
    const truth = JSON.parse(readFileSync(join(ROOT, 'samples', 'generated', 'gen-705', 'lab.json'), 'utf8')).faults[0];
    expect(truth).toMatchObject({ kind: 'crash', host: 'mq-broker-a-s' });
    // Its last watermark line (a whole second) and its boot line.
    near(gone.start, ms(truth.start), 1000, 1000, 'the slave stopped');
    expect(gone.detail).toMatch(/the logs cannot tell which/);
    expect(crash.title).toMatch(/^mq-broker-a-s went away without a shutdown \(broker-a slave on it\), back after 33 s/);
    const [inc] = await incidentsOf(join('generated', 'gen-710'));
    expect(inc.causes.map((c) => `${c.kind} ${c.host}`)).toContain('restart mq-broker-a-s');
  });

  it("generated gen-599: a 5.x client's failed async sends (timeouts, refused connections in its SendCallback) are its impact", async () => {
    const lab = JSON.parse(readFileSync(join(ROOT, 'samples', 'generated', 'gen-599', 'lab.json'), 'utf8'));
    const truth = lab.clients.find((c: { host: string }) => c.host === 'app-notify-01').sends;
    const [inc] = await incidentsOf(join('generated', 'gen-599'));
    const notify = inc.impact.find((i) => i.client === 'app-notify-01')!;
    // lab.json counts 90; the scorer's tolerance is 10 %.
    expect(Math.abs(notify.failedSends - truth.failed)).toBeLessThanOrEqual(Math.round(truth.failed * 0.1));
    near(notify.start, ms(truth.firstFailure), 5, 1000, 'its first failure');
    // A 4.x async send's retry from its callback after the budget was spent throws `invokeAsync call
    // timeout` (NettyRemotingClient.invokeAsync): app-stock-01 (4.9.0) lost 13 that way and others.
    const stock = lab.clients.find((c: { host: string }) => c.host === 'app-stock-01').sends;
    expect(inc.impact.find((i) => i.client === 'app-stock-01')!.failedSends).toBe(stock.failed);
  });

  it('generated gen-708: a broker under a CPU quota is an overload from its watermark, though every busy reply waited seconds (late replies name it)', async () => {
    const lab = JSON.parse(readFileSync(join(ROOT, 'samples', 'generated', 'gen-708', 'lab.json'), 'utf8'));
    const [fault] = lab.faults;
    const [inc] = await incidentsOf(join('generated', 'gen-708'));
    expect(inc.causes.map((c) => `${c.host} ${c.kind}`)).toEqual(['mq-broker-c overload']);
    near(inc.causes[0].start, ms(fault.start), 0, 10000, 'overload start');
    near(inc.causes[0].end!, ms(fault.end), 0, 10000, 'overload end');
  });

  it('healthy-restart: a planned restart of mq-broker-a that cost no send', async () => {
    const g = truth('healthy-restart');
    const [inc, ...more] = await incidentsOf('healthy-restart');
    expect(more).toEqual([]);
    expect(inc.causes.map((c) => `${c.host} ${c.kind}`)).toEqual(['mq-broker-a restart']);
    near(inc.causes[0].start, ms(g.restart.shutdownHookInvoked), 0, 1000, 'shutdown hook');
    near(inc.causes[0].end, ms(g.restart.bootSuccess), 1000, 1000, 'started again');
    expect(inc.impact).toEqual([]);
  });

  it('lab/consumer-5x-restart: the one send lost to broker-b\'s busy reply before mq-broker-a restarted is not put on a stale route', async () => {
    const lab = JSON.parse(readFileSync(join(ROOT, 'samples', 'lab', 'consumer-5x-restart', 'lab.json'), 'utf8'));
    const [restart] = lab.faults;
    const [inc] = await incidentsOf(join('lab', 'consumer-5x-restart'));
    expect(inc.causes.map((c) => `${c.host} ${c.kind}`)).toContain('mq-broker-a restart');
    const order = inc.impact.find((i) => i.client === 'app-order-01')!;
    expect(order.failedSends).toBe(1);
    expect(order.end!).toBeLessThan(ms(restart.start));
    expect(order.lastedBecause).toMatch(/while broker-b was busy/);
    expect(order.lastedBecause).not.toMatch(/route/);
  });

  it('lab/consumer-grpc-simple-failures: the chain says the SimpleConsumers did not acknowledge, not that a listener failed (they have none)', async () => {
    const [inc] = await incidentsOf(join('lab', 'consumer-grpc-simple-failures'));
    const text = inc.chain.map((s) => s.text).join('\n');
    expect(text).toMatch(/the SimpleConsumers of CID_STOCK did not acknowledge deliveries/);
    expect(text).not.toMatch(/listener/);
  });
});

describe('advice once', () => {
  it('leaves out advice whose names another advice already gave, keeps the rest', () => {
    expect([...adviceNames('Catch MQBrokerException code 2 in the application and retry later, or move the producers to client 5.3.0+, which retries SYSTEM_BUSY on another broker.')]).toEqual(
      expect.arrayContaining(['MQBrokerException', 'code 2', 'SYSTEM_BUSY']),
    );
    const covered = adviceNames('Catch MQBrokerException code 2 in the application and retry later, or move the producers to client 5.3.0+, which retries SYSTEM_BUSY on another broker.');
    const again = adviceNames('Treat MQBrokerException code 2 in the application: back off and retry, or send to another topic/broker.');
    expect([...again].every((n) => covered.has(n))).toBe(true);
    const other = adviceNames('Enable sendLatencyFaultEnable on the producers (off by default).');
    expect([...other].every((n) => covered.has(n))).toBe(false);
  });
});

describe('advice by topic', () => {
  /** seed-outage's incident, from its findings as `edit` leaves them. */
  async function adviceWith(edit: (fs: Finding[]) => Finding[]): Promise<string[]> {
    const t = await buildTimeline({ inputs: [join(ROOT, 'samples', 'seed-outage')], keepOther: 'inference', cwd: ROOT, workers: 0 });
    try {
      const pass = incidentPass(t);
      const analysis = analyze(t, { rules: ALL_RULES, observers: [pass] });
      return pass.finish(edit(analysis.findings))[0].advice;
    } finally {
      t.close();
    }
  }
  const ENABLE = /^Enable sendLatencyFaultEnable on \S+'s producer /;

  it('says the fault strategy once, in the words of the finding that saw the setting off', async () => {
    let own: string[] = [];
    const advice = await adviceWith((fs) => {
      own = fs.flatMap((f) => f.advice.filter((_, i) => f.adviceTopics?.[i] === 'latency-fault'));
      return fs;
    });
    expect(own.length).toBeGreaterThan(1);
    const said = advice.filter((a) => own.includes(a));
    expect(said).toHaveLength(1);
    // seed-outage's 4.x clients kept sending to the hung broker for minutes: fault avoidance was off.
    expect(said[0]).toMatch(ENABLE);
    expect(said[0]).toMatch(/off here: its attempts to broker-a kept failing for \d+ min/);
  });

  it('goes by the topic, not the words: a finding that names sendLatencyFaultEnable for another reason keeps its advice and asks for nothing', async () => {
    const oldStrategy = 'If sendLatencyFaultEnable=true on a client 4.7.1 or older, upgrade the client to 4.8.0 or later, or turn the fault strategy off.';
    const advice = await adviceWith((fs) => {
      const kept = fs.map((f) => ({ ...f, advice: f.advice.filter((_, i) => f.adviceTopics?.[i] !== 'latency-fault'), adviceTopics: f.adviceTopics?.filter((t) => t !== 'latency-fault') }));
      const broker = kept.find((f) => f.subject.brokerAddr === '192.168.3.100:10911')!;
      return [...kept, { ...broker, rule: 'retry-same-broker', advice: [oldStrategy], adviceTopics: undefined }];
    });
    expect(advice).toContain(oldStrategy);
    expect(advice.some((a) => ENABLE.test(a) || /^If \S+'s producer runs without sendLatencyFaultEnable/.test(a))).toBe(false);
  });
});

// gen-20261220: the clients dropped broker-c from their routes at its restart (06:29:36) and lost
// sends two minutes later, while broker-a was overloaded: the route's drop is no part of that.
it('gen-20261220: losses long after a route dropped a restarting broker are put down to the busy broker, not the route', async () => {
  const [inc] = await incidentsOf('generated/gen-20261220');
  for (const im of inc.impact) expect(im.lastedBecause, im.client).toMatch(/^it lost sends while broker-a was busy/);
});
