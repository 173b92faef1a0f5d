// Inference over the bundled samples: topology, client bindings and settings, the fault schedule, and
// the provenance of every value (checked against samples/*/expected.json).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Fault } from '../../src/model/index.js';
import { inferFromLogs } from '../../src/replay/load.js';
import type { ReplayInput } from '../../src/diagnosis/types.js';

const ROOT = join(__dirname, '..', '..');
const SEED = join(ROOT, 'samples', 'seed-outage');
const BUSY = join(ROOT, 'samples', 'broker-busy');

async function infer(dir: string): Promise<ReplayInput> {
  return (await inferFromLogs({ inputs: [dir] }, () => '+08:00', dir)).input;
}

const expected = (dir: string) => JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')).groundTruth;
const at = (input: ReplayInput, f: Fault) => input.scenario.startEpochMs + f.atMs;

describe('inference from the seed outage', () => {
  let input: ReplayInput;
  const truth = expected(SEED);
  beforeAll(async () => {
    input = await infer(SEED);
  });

  it('places the NameServers and brokers on their hosts', () => {
    const sc = input.scenario;
    expect(sc.nameServers.map((n) => [n.addr, n.host])).toEqual([
      ['192.168.3.100:9876', 'mq-node-100'],
      ['192.168.3.101:9876', 'mq-node-101'],
    ]);
    expect(sc.brokers.map((b) => [b.name, b.addr, b.host])).toEqual([
      ['broker-a', '192.168.3.100:10911', 'mq-node-100'],
      ['broker-b', '192.168.3.101:10911', 'mq-node-101'],
    ]);
    expect(sc.serverVersion).toBe('4.8.0');
    // The property dump of the rebooted NameServer: 300 s idle time (samples/README.md).
    expect(sc.nameServers[0].serverChannelMaxIdleTimeSeconds).toBe(300);
    expect(input.provenance['scenario.nameServers[0].serverChannelMaxIdleTimeSeconds'].evidence[0]).toMatch(/^mq-node-100\/namesrv\.log:\d+$/);
  });

  it('binds each client to the NameServer it chose, with its version and settings', () => {
    const byHost = Object.fromEntries(input.scenario.clients.map((c) => [c.host, c]));
    for (const [host, gt] of Object.entries(truth.clients) as Array<[string, { clientVersion: string; boundNameServer: string }]>) {
      expect(byHost[host].version).toBe(gt.clientVersion);
      expect(byHost[host].namesrv).toBe(gt.boundNameServer);
    }
    expect(byHost['app-order-01'].topic).toBe('TopicOrder');
    expect(byHost['app-pay-01'].topic).toBe('TopicPay');
    expect(byHost['app-order-01'].settings?.sendMsgTimeoutMs).toBe(3000);
    // Every send the application logged is replayed at its time (sent + failed).
    expect(byHost['app-order-01'].sendTimesMs).toHaveLength(truth.clients['app-order-01'].sendsOk + truth.clients['app-order-01'].appErrors);
    expect(input.provenance['scenario.clients[0].namesrv'].evidence[0]).toMatch(/^app-order-01\/rocketmq_client\.log:\d+$/);
    // What the logs do not say is a stated default.
    expect(input.defaults['scenario.clients[0].settings.sendLatencyFaultEnable']).toMatch(/^false/);
    expect(input.defaults['scenario.clients[0].settings.clientCloseSocketIfTimeout']).toMatch(/^false \(hard-coded before 4\.9\.1/);
  });

  it('finds the hang of mq-node-100 and its reboot', () => {
    const faults = input.scenario.faults!;
    expect(faults.map((f) => ('state' in f ? `${f.host} ${f.state}` : '?'))).toEqual(['mq-node-100 hung', 'mq-node-100 reboot']);
    expect(at(input, faults[0])).toBe(Date.parse(truth.hang.start));
    // Back on the network when the first connection reset came (14:53:38).
    expect(Math.abs(at(input, faults[1]) - Date.parse(truth.hang.hostBack))).toBeLessThan(1000);
    const boot = (faults[1] as Extract<Fault, { state: string }>).boot!;
    expect(at(input, faults[1]) + boot.namesrvMs!).toBeGreaterThanOrEqual(Date.parse(truth.hang.nameServerBootSuccess));
    expect(at(input, faults[1]) + boot.brokerMs!).toBeLessThan(Date.parse(truth.hang.brokerBootSuccess) + 1000);
    const hang = input.provenance['scenario.faults[0]'];
    expect(hang.rule).toMatch(/silence/);
    expect(hang.evidence.some((e) => e.startsWith('mq-node-100/'))).toBe(true);
    expect(input.provenance['scenario.faults[1]'].evidence[0]).toMatch(/^app-order-01\/rocketmq_client\.log:\d+$/);
  });

  it('records where every inferred value came from', () => {
    for (const [path, p] of Object.entries(input.provenance)) {
      expect(path).toMatch(/^scenario\./);
      expect(p.rule.length).toBeGreaterThan(5);
      for (const e of p.evidence) expect(e).toMatch(/^[\w.-]+\/[\w.-]+:\d+$/);
    }
    for (const k of ['addr', 'host']) expect(input.provenance[`scenario.nameServers[1].${k}`].evidence.length).toBeGreaterThan(0);
  });

  it('reads the observed milestones of the ground truth', () => {
    const m = (name: string, subject: string) => input.observed!.milestones.find((x) => x.name === name && x.subject === subject)!.ts;
    expect(m('namesrv-removal', '192.168.3.101:9876 removes broker-a')).toBe(Date.parse(truth.brokerA.expiredOn.at));
    expect(m('namesrv-switch', 'app-order-01')).toBe(Date.parse('2020-12-22T14:53:46.281+08:00'));
    expect(m('route-lost', 'app-pay-01')).toBe(Date.parse(truth.clients['app-pay-01'].routeLostBrokerA));
    const order = input.observed!.clients['app-order-01'];
    expect(order.failedSends).toBe(truth.clients['app-order-01'].appErrors);
    expect(Math.round((order.lastTs! - order.firstTs!) / 1000)).toBe(truth.clients['app-order-01'].outageSec);
  });
});

describe('inference from the broker-busy sample', () => {
  let input: ReplayInput;
  const truth = expected(BUSY);
  beforeAll(async () => {
    input = await infer(BUSY);
  });

  it('finds the overload window and the three stalls of broker-b', () => {
    const faults = input.scenario.faults!;
    const overload = faults.filter((f) => 'overload' in f);
    const stalls = faults.filter((f): f is Extract<Fault, { stall: unknown }> => 'stall' in f);
    expect(overload).toHaveLength(1);
    expect(overload[0]).toMatchObject({ broker: 'broker-b' });
    const from = at(input, overload[0]);
    expect(from).toBeLessThanOrEqual(Date.parse(truth.episodes[0].from));
    expect(from).toBeGreaterThan(Date.parse(truth.episodes[0].from) - 20000);
    expect(stalls.map((s) => s.stall.durationMs)).toEqual(truth.episodes[1].maxWaitPerStall.map((s: { maxWaitMs: number }) => s.maxWaitMs));
    expect(input.provenance['scenario.faults[0]'].evidence.some((e) => e.startsWith('mq-broker-b/watermark.log:'))).toBe(true);
  });

  it('estimates the send rates from the applications’ statistics lines', () => {
    for (const c of input.scenario.clients) {
      expect(c.sendRatePerSec).toBeGreaterThan(150);
      expect(c.sendRatePerSec).toBeLessThan(300);
      expect(c.sendTimesMs).toBeUndefined();
    }
    expect(input.provenance['scenario.clients[0].sendRatePerSec'].rule).toMatch(/statistics/);
    // The NameServers left no logs: their hosts are defaults.
    expect(input.defaults['scenario.nameServers[0].host']).toMatch(/no log folder/);
    expect(input.scenario.brokers.find((b) => b.name === 'broker-b')!.host).toBe('mq-broker-b');
  });
});

describe("a producer's rate that changed, from the brokers' stored counts minute by minute", () => {
  const LAB = join(ROOT, 'samples', 'lab');

  it('consumer-too-few-threads: 3/s, 12/s for 90 s, then 3/s again: a step per level, the rise inside the minute it fell in', async () => {
    const input = await infer(join(LAB, 'consumer-too-few-threads'));
    const [client] = input.scenario.clients;
    const steps = client.sendRateSteps!;
    expect(steps.length).toBe(3);
    expect(steps[0].atMs).toBe(0);
    // The first minute at its TPS (1.00 + 1.70), the peak, back to the lab's 3/s (stats.log's SUM
    // over 60 s). The minute of 7.82/s between them is the rise within it, where 2.7 and 11.7
    // average to 7.82: 26.9 s into the minute that ended at 02:34:00, 5 s after the schedule's
    // (lab.json faultsFrom 02:33:20.529, the schedule's `at` 0).
    expect(steps.map((s) => s.perSec)).toEqual([2.7, 11.7, 3]);
    const rise = input.scenario.startEpochMs + steps[1].atMs;
    expect(Math.abs(rise - Date.parse('2026-12-06T02:33:20.529+08:00'))).toBeLessThan(10_000);
    expect(input.provenance['scenario.clients[0].sendRateSteps'].rule).toMatch(/1 of them within a minute whose rate lay between the minutes around it/);
    expect(input.provenance['scenario.clients[0].sendRateSteps'].evidence.every((e) => /stats\.log/.test(e))).toBe(true);
    // The busiest minute is still the rate said for the client.
    expect(client.sendRatePerSec).toBe(11.7);
  });

  it("consumer-broker-hang: broker-a's line for the minute it missed, printed when it ran again (02:30:46), counts for the minute before; the minute after it, which holds what broker-a stored at once then, is not the rate", async () => {
    const input = await infer(join(LAB, 'consumer-broker-hang'));
    const p = input.provenance['scenario.clients[0].sendRatePerSec'];
    // 02:30: broker-a's 68 of 02:30:46 and broker-b's 155. 02:31 (broker-a 97, broker-b 205, 5.03/s)
    // holds the send attempts broker-a read from its sockets when it ran again, stored a second time.
    expect(p.rule).toContain('223 messages');
    expect(p.rule).toContain('printed late');
    // broker-a's late line covers 110 s (SUM 68, TPS 0.62): it counts at its TPS, broker-b's at SUM / 60.
    expect(input.scenario.clients[0].sendRatePerSec).toBeCloseTo(155 / 60 + 0.62, 2);
    // The lab's producer sent 4/s; the minute lost sends to the hang, so less was stored (the scorer's bound: 4 / 1.25).
    expect(input.scenario.clients[0].sendRatePerSec).toBeGreaterThanOrEqual(4 / 1.25);
    expect(p.evidence).toHaveLength(2);
  });

  it('keeps one rate where it did not change, and where the minutes that differ held failed sends', async () => {
    for (const dir of [join(LAB, 'consumer-lite-pull-stop'), join(LAB, 'consumer-broker-hang'), join(ROOT, 'samples', 'generated', 'gen-23')]) {
      const input = await infer(dir);
      expect({ dir, steps: input.scenario.clients.map((c) => c.sendRateSteps ?? null) }).toEqual({ dir, steps: input.scenario.clients.map(() => null) });
    }
  });

  it("consumer-too-few-threads: one consume thread per instance of CID_STOCK, from the backlog put on the threads; CID_AUDIT's pool stays assumed", async () => {
    const input = await infer(join(LAB, 'consumer-too-few-threads'));
    const groups = input.scenario.consumerGroups!;
    const stock = groups.findIndex((g) => g.group === 'CID_STOCK');
    const audit = groups.findIndex((g) => g.group === 'CID_AUDIT');
    expect(groups[stock].consumeThreadMin).toBe(1);
    const p = input.provenance[`scenario.consumerGroups[${stock}].consumeThreadMin`];
    expect(p.rule).toMatch(/consumer-backlog: cause the consume threads/);
    expect(p.evidence.length).toBe(2);
    expect(groups[audit].consumeThreadMin).toBe(20);
    expect(input.defaults[`scenario.consumerGroups[${audit}].consumeThreadMin`]).toBeDefined();
  });
});

describe("a client's route-poll timer from a later poll's line", () => {
  it('gen-261: app-notify-01 (4.9.3) switched NameServer at 01:57:27.370, its fourth poll: the timer is placed 145 ms before its first poll\'s line said; the 4.6.1 clients print no milliseconds and keep theirs', async () => {
    const input = await infer(join(ROOT, 'samples', 'generated', 'gen-261'));
    const i = input.scenario.clients.findIndex((c) => c.host === 'app-notify-01');
    const c = input.scenario.clients[i];
    // Polls at start + 10 ms + k x 30 s; the switch line is 1 ms into the poll.
    const switchAt = Date.parse('2026-12-05T01:57:27.370+08:00');
    const phase = input.scenario.startEpochMs + c.startAtMs! + 10;
    expect((((switchAt - 1 - phase) % 30000) + 30000) % 30000).toBe(0);
    expect(input.provenance[`scenario.clients[${i}].startAtMs`].rule).toMatch(/a later poll \(every 30000 ms\) puts the timer 145 ms earlier/);
    for (const host of ['app-order-01', 'app-pay-01']) {
      const j = input.scenario.clients.findIndex((x) => x.host === host);
      expect(input.provenance[`scenario.clients[${j}].startAtMs`].rule).toBe('the first route poll (10 ms after the client starts) chose a NameServer');
    }
  });
});

describe("a topic's stored rate from the brokers' stats.log, shared by its producers", () => {
  /** The topic's rate replay read (the clients' equal shares summed) against the sum of the lab's rates. */
  const rates = async (dir: string) => {
    const input = await infer(dir);
    const lab = JSON.parse(readFileSync(join(dir, 'lab.json'), 'utf8'));
    const sum = input.scenario.clients.reduce((n, c) => n + c.sendRatePerSec, 0);
    return { input, sum, lab: lab.clients.reduce((n: number, c: { rate: number }) => n + c.rate, 0) as number };
  };

  it('gen-709: the only minute every master printed is the first, 40 s long (SUM 53 TPS 1.33): it counts at its TPS, 4.29/s against the lab\'s 5 (SUM / 60 said 2.85)', async () => {
    const { input, sum, lab } = await rates(join(ROOT, 'samples', 'generated', 'gen-709'));
    expect(sum).toBeCloseTo(4.29, 1);
    expect(lab).toBe(5);
    expect(input.provenance['scenario.clients[0].sendRatePerSec'].rule).toMatch(/counts at its TPS/);
    // Each client's share is not in the logs: an assumption, in the defaults.
    for (let i = 0; i < 3; i++) expect(input.defaults[`scenario.clients[${i}].sendRatePerSec`]).toMatch(/an equal share of the 4\.29\/s of TopicOrder/);
  });

  it("consumer-orderly-broker-crash: broker-a's first line after its restart (SUM 24 in 20 s) counts SUM / 60: a broker back takes only what routes send it again, 4.02/s against the lab's 4", async () => {
    const { sum, lab } = await rates(join(ROOT, 'samples', 'lab', 'consumer-orderly-broker-crash'));
    expect(sum).toBeCloseTo(4.02, 2);
    expect(lab).toBe(4);
  });

  it('gen-145: mq-broker-c printed stats minutes and never a line of TopicOrder (its selectors sent it none): it stored 0, so the others\' minutes count, 11/s against the lab\'s 11', async () => {
    const { input, sum, lab } = await rates(join(ROOT, 'samples', 'generated', 'gen-145'));
    expect(sum).toBeCloseTo(11, 1);
    expect(lab).toBe(11);
    expect(input.provenance['scenario.clients[0].sendRatePerSec'].rule).toMatch(/mq-broker-c printed minutes but no line of TopicOrder/);
  });
});

describe("a selector's ordering key from where its topic's messages were stored", () => {
  it("gen-185: every TopicOrder message stored on broker-a, none on broker-b or broker-c, and the topic's one client sends through a selector: its key is on broker-a, as lab.json's sends say", async () => {
    const dir = join(ROOT, 'samples', 'generated', 'gen-185');
    const input = await infer(dir);
    const [c] = input.scenario.clients;
    expect(c.selector).toBe(true);
    expect(c.selectorQueue).toBe(0);
    expect(input.provenance['scenario.clients[0].selectorQueue'].rule).toMatch(/stored on broker-a, none on broker-b, broker-c/);
    expect(input.defaults['scenario.clients[0].selectorQueue']).toBeUndefined();
    const lab = JSON.parse(readFileSync(join(dir, 'lab.json'), 'utf8'));
    expect(Object.keys(lab.clients[0].sends.okByBroker)).toEqual(['broker-a']);
  });

  it("gen-716: a selector beside producers without one: the stored counts do not tell its key; its silence through broker-b's full disk does (infer/selectors.ts), on broker-a as lab.json's", async () => {
    const dir = join(ROOT, 'samples', 'generated', 'gen-716');
    const input = await infer(dir);
    const i = input.scenario.clients.findIndex((c) => c.selector);
    expect(input.provenance[`scenario.clients[${i}].selectorQueue`].rule).not.toMatch(/stats\.log/);
    expect(input.provenance[`scenario.clients[${i}].selectorQueue`].rule).toMatch(/^every failed send went to broker-a \(84\), and none failed while broker-b refused/);
    const lab = JSON.parse(readFileSync(join(dir, 'lab.json'), 'utf8'));
    const ran = lab.clients.find((c: { host: string }) => c.host === input.scenario.clients[i].host);
    // TopicOrder's 4 queues a broker, sorted by broker: queue 1 is broker-a's, as is the inferred one.
    expect(Math.floor(input.scenario.clients[i].selectorQueue! / 4)).toBe(Math.floor(ran.selectorQueue / 4));
  });
});

describe('when a NameServer that crashed went down, from the brokers it still answered', () => {
  it('gen-706: mq-ns-1 last logged at 05:13:20, broker-a registered with it at 05:13:31, broker-b was refused at 05:13:32: down after 05:13:31, as lab.json says (05:13:31.783)', async () => {
    const dir = join(ROOT, 'samples', 'generated', 'gen-706');
    const input = await infer(dir);
    const i = input.scenario.faults.findIndex((f) => 'state' in f && f.host === 'mq-ns-1' && f.state === 'down');
    const down = input.scenario.startEpochMs + input.scenario.faults[i].atMs;
    const lab = JSON.parse(readFileSync(join(dir, 'lab.json'), 'utf8'));
    const crashed = Date.parse(lab.faults.find((f: { host: string }) => f.host === 'mq-ns-1').start);
    expect(down).toBeGreaterThanOrEqual(Date.parse('2026-12-05T05:13:31.000+08:00'));
    expect(Math.abs(down - crashed)).toBeLessThan(1000);
    const p = input.provenance[`scenario.faults[${i}]`];
    expect(p.rule).toMatch(/it answered a broker's registration at 05:13:31, after its last line/);
    expect(p.evidence).toContain('mq-broker-a/logs/rocketmqlogs/broker.log.gz:212');
  });
});
