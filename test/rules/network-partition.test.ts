// network-partition on excerpts of three lab recordings (real lines, cut to a window, watermark.log
// to its send-queue line): a 5.2.0 broker cut off from its only NameServer, a 4.9.4 NameServer and
// broker host cut off from the applications, and a 5.5.0 NameServer and broker host cut off from
// every other host and then powered off (its logs stop, peers' connects time out against it).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import type { RmqEvent } from '../../src/parse/types.js';
import { RuleRunner } from '../../src/rules/engine.js';
import rule from '../../src/rules/network-partition.js';
import { findingsFor, ruleTester } from './rule-tester.js';
import { generatedFindings, generatedTruth, labFindings } from './lab-findings.js';

const ROOT = fileURLToPath(new URL('../fixtures/lab-partition/', import.meta.url));

/** A fixture folder as `host/file` -> content; `keep` drops lines of a host (by its clock) to make it silent. */
function recording(name: string, keep: (host: string, line: string) => boolean = () => true): Record<string, string> {
  const out: Record<string, string> = {};
  for (const host of readdirSync(join(ROOT, name))) {
    for (const file of readdirSync(join(ROOT, name, host))) {
      const p = join(ROOT, name, host, file);
      if (!statSync(p).isFile()) continue;
      const lines = readFileSync(p, 'utf8').split('\n');
      let kept = true;
      out[`${host}/${file}`] = lines
        .filter((l) => {
          if (/^\d{4}-\d\d-\d\d /.test(l)) kept = keep(host, l);
          return kept;
        })
        .join('\n');
    }
  }
  return out;
}
const clock = (line: string) => line.slice(11, 19);

ruleTester(rule, {
  valid: [
    {
      // The same connect timeouts against mq-node-a, with its own logs silent from 02:06:20: a host
      // that stopped (hung, powered off) is no partition; its boot line stays, so its logs are read.
      name: 'peers time out against a host whose own logs are silent then: no partition',
      files: recording('isolated-then-reboot-5.5.0', (host, l) => host !== 'mq-node-a' || clock(l) < '02:06:20'),
    },
    {
      // Without the broker host's logs nothing says it ran: its peers' timeouts alone name no partition.
      name: "the cut-off host's logs absent: no partition",
      files: Object.fromEntries(Object.entries(recording('from-clients-4.9.4')).filter(([k]) => !k.startsWith('mq-node-c/'))),
    },
    {
      // The same timeouts, with the broker host's shutdown hook begun before them (gen-709: a 5.3.3
      // master took 10 s to stop after SIGTERM, and a connect to it timed out meanwhile): a process
      // going down is no partition, though its shutdown goes on logging.
      name: "peers time out against a host whose shutdown hook had begun: no partition",
      files: (() => {
        const files = recording('from-clients-4.9.4');
        const log = files['mq-node-c/broker.log'].split('\n');
        const at = log.findIndex((l) => l.startsWith('2026-12-05 05:09:20'));
        log.splice(at, 0, '2026-12-05 05:09:00 INFO ShutdownHook - Shutdown hook was invoked, 1');
        return { ...files, 'mq-node-c/broker.log': log.join('\n') };
      })(),
    },
    {
      // The same connect timeouts of broker-c, with its watermark showing thousands of requests waiting
      // seconds in its send queue meanwhile (gen-20261208: broker-b under a 3 % CPU quota printed
      // `Send Queue Size: 3758 SlowTimeMills: 12200`): a broker starved of CPU, whose own event loop
      // did not run its connects, is not cut off.
      name: "a broker whose send queue held requests for seconds while its connects timed out: starved, no partition",
      files: (() => {
        const files = recording('from-namesrvs-5.2.0');
        const wm = files['mq-broker-c/watermark.log'].replace(/Send Queue Size: 0 SlowTimeMills: 0/g, 'Send Queue Size: 3758 SlowTimeMills: 12200');
        return { ...files, 'mq-broker-c/watermark.log': wm };
      })(),
    },
  ],
  invalid: [
    {
      name: '5.2.0 broker cut off from its only NameServer (from-namesrvs): its own connects time out while it and the NameServer keep logging',
      files: recording('from-namesrvs-5.2.0'),
      findings: [
        {
          severity: 'error',
          subject: { host: 'mq-broker-c', broker: 'broker-c' },
          metrics: { peers: ['mq-ns-1'], hostRunning: true, connectTimeouts: 7 },
          start: '2026-12-05T03:07:30+08:00',
          end: '2026-12-05T03:08:02+08:00',
          evidence: ['mq-broker-c/remoting.log:14'],
          mentions: ['Check the network between mq-broker-c and mq-ns-1', 'neither refused nor reset'],
        },
      ],
    },
    {
      name: '4.9.4 NameServer and broker host cut off from an application (from-clients): the client times out, then its connect does',
      files: recording('from-clients-4.9.4'),
      findings: [
        {
          subject: { host: 'mq-node-c', broker: 'broker-c', namesrvAddr: '10.213.0.23:9876' },
          metrics: { peers: ['app-pay-01'], connectTimeouts: 1 },
          start: '2026-12-05T05:09:04.245+08:00',
          end: '2026-12-05T05:09:34.246+08:00',
          mentions: ['restarting it does not mend a network cut'],
        },
      ],
    },
    {
      // 5.5.0 words a timed-out connect as a refused one (`connect to X failed`): the CONNECT line 3 s
      // before it tells. After 02:07:00 mq-node-a lost power (its logs stop): those timeouts are not the cut's.
      name: '5.5.0 host cut off from everyone, then powered off: the cut ends where its own logs stop',
      files: recording('isolated-then-reboot-5.5.0'),
      findings: [
        {
          subject: { host: 'mq-node-a', broker: 'broker-a' },
          metrics: { peers: ['app-pay-01', 'mq-broker-c'], connectTimeouts: 5 },
          start: '2026-12-05T02:06:30+08:00',
          end: '2026-12-05T02:06:44.325+08:00',
        },
      ],
    },
  ],
});

it('a 5.5.0 broker connect that failed 3 s after it began counts as timed out; one at once would not', async () => {
  // Only mq-broker-c's side: its connects to the NameServer on mq-node-a (5.5.0: `connect to X failed`).
  const all = recording('isolated-then-reboot-5.5.0');
  const files = Object.fromEntries(Object.entries(all).filter(([k]) => !k.startsWith('app-pay-01/')));
  const { findings } = await findingsFor(rule, { name: 'broker side', files });
  expect(findings.map((f) => [f.subject.host, f.metrics.peers, f.metrics.connectTimeouts])).toEqual([['mq-broker-c', ['mq-node-a'], 3]]);
  // The same lines without the CONNECT lines that started them: nothing tells a timeout from a refusal.
  const noConnect = Object.fromEntries(Object.entries(files).map(([k, v]) => [k, v.split('\n').filter((l) => !/NETTY CLIENT PIPELINE: CONNECT/.test(l)).join('\n')]));
  expect((await findingsFor(rule, { name: 'no connect lines', files: noConnect })).findings).toEqual([]);
});

// What the rule holds of hosts that log once a minute (a consumer's stats) must not grow with the
// weeks: a run of records per host and minute was kept all along.
it('holds about the same after four weeks of hosts logging once a minute as after one', () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const T0 = Date.UTC(2024, 11, 1);
  const hosts = ['app-01', 'app-02', 'app-03', 'app-04'];
  const sources = hosts.map((host) => ({ path: `${host}/rocketmq_client.log`, host, kind: 'client', versionHints: [] }));
  const held = (days: number): number => {
    gc();
    const before = process.memoryUsage().heapUsed;
    const runner = new RuleRunner({ rules: [rule], sources });
    for (let min = 0; min < days * 1440; min++) {
      for (const [i, host] of hosts.entries()) {
        const e: RmqEvent = { ts: T0 + min * 60000 + i, host, kind: 'client', file: `${host}/rocketmq_client.log`, line: min + 1, level: 'INFO', thread: null, logger: null, type: 'stats', fields: { stat: 'CONSUME_RT', key: 'T@G', window: 'minute' }, text: '', source: i, seq: min };
        runner.visit(e);
      }
    }
    gc();
    const after = process.memoryUsage().heapUsed;
    expect(runner.finish()).toEqual([]);
    return after - before;
  };
  held(7);
  const week = held(7);
  // 21 more days of four hosts' runs kept as they were is about 4 MB.
  expect(held(28) - week).toBeLessThan(1_000_000);
}, 120000);

/** A generated recording's partition (lab.json) and what the rule finds on it. */
async function cutAndFindings(name: string) {
  const cut = generatedTruth(name).faults.find((f) => f.kind === 'partition')!;
  return { cut, fs: await generatedFindings(name, [rule]) };
}

/** The finding starts within `ms` of the lab's cut, and, unless `startOnly`, ends within `ms` of its heal. */
function near(f: { start: number | null; end: number | null }, cut: { start: string; end: string | null }, ms: number, startOnly = false): void {
  expect(Math.abs(f.start! - Date.parse(cut.start))).toBeLessThanOrEqual(ms);
  if (!startOnly) expect(Math.abs(f.end! - Date.parse(cut.end!))).toBeLessThanOrEqual(ms);
}

// Calls alone, with no connect that timed out: a client that keeps its timed-out channel
// (closeSocketIfTimeout false) never connects again during the cut.
it("gen-311: a 5.1.2 client's sends and heartbeats timing out on broker-a while broker-a printed an empty send queue every second name a cut, within a crossing of lab.json's", async () => {
  const { cut, fs } = await cutAndFindings('gen-311');
  expect(fs.map((f) => [f.subject.host, f.metrics.peers, f.metrics.connectTimeouts])).toEqual([['mq-broker-a', ['app-order-01'], 0]]);
  near(fs[0], cut, 30_000);
  expect(fs[0].title).toMatch(/calls timed out while mq-broker-a printed its send queue empty$/);
});

it("hang-5x: retries on a healthy broker-b that timed out with no wait stated (what the send budget had left after broker-a hung) name no cut, though broker-b's send queue stayed empty", async () => {
  expect(await labFindings('hang-5x', [rule])).toEqual([]);
});

// gen-715 (servers 5.1.4): broker-b cut off from the three NameServers for 45 s, then broker-a
// overloaded. broker-b's own calls to them timed out (`ScheduledTask refresh metadata exception`,
// BrokerOuterAPI.getBrokerClusterInfo; a registration's 24 s wait) and its connects did
// (`createChannel: connect remote host[X] timeout 3000ms`, NettyRemotingClient's NameServer scan),
// while the other brokers registered with the same NameServers and clients' sends reached broker-b.
// The sends to the overloaded broker-a timed out 19 s after broker-b's last connect: broker-a has more
// peers, and its calls tell no cut, so they must not hide broker-b's.
it("gen-715: broker-b's connects to the three NameServers timing out name its cut, within a crossing of lab.json's, though broker-a's overload follows within a minute", async () => {
  const { cut, fs } = await cutAndFindings('gen-715');
  expect(fs.map((f) => [f.subject.host, f.metrics.peers])).toEqual([['mq-broker-b', ['mq-ns-1', 'mq-ns-2', 'mq-ns-3']]]);
  expect(fs[0].metrics.connectTimeouts).toBeGreaterThanOrEqual(20);
  near(fs[0], cut, 30_000);
  // What separates it from the NameServers hung or down: they answered the other brokers meanwhile.
  expect(fs[0].explanation).toContain('Meanwhile mq-broker-a, mq-broker-a-s, mq-broker-b-s registered with those NameServers');
  // The heal is bounded by broker-b's own registrations answered again (05:55:31; lab.json 05:55:30.209).
  expect(fs[0].explanation).toContain("mq-broker-b's registrations were answered again from 05:55:31");
  expect(fs[0].explanation).toContain('the logs do not tell whether packets were dropped one way or both');
});

// gen-716: broker-a cut off from the applications, and 4 s before that cut healed, broker-b-s cut off
// from everyone: two cuts within a minute are two findings, not the first one's alone.
it('gen-716: the second cut within a minute of the first (broker-b-s from the NameServer and its master) is named too', async () => {
  const truth = generatedTruth('gen-716').faults.filter((f) => f.kind === 'partition');
  const fs = await generatedFindings('gen-716', [rule]);
  expect(fs.map((f) => f.subject.host).sort()).toEqual(truth.map((f) => f.host).sort());
  const bs = fs.find((f) => f.subject.host === 'mq-broker-b-s')!;
  expect(bs.metrics.peers).toContain('mq-ns-1');
  expect(Math.abs(bs.start! - Date.parse(truth.find((f) => f.host === 'mq-broker-b-s')!.start))).toBeLessThanOrEqual(30_000);
});

// namesrv-hang: the NameServer and broker host mq-node-a hung, then was rebooted: registrations to it
// failed, and connects to it timed out while it was powered off. Neither is a cut.
it('namesrv-hang: registrations that failed and connects that timed out against a hung, then rebooted NameServer host name no cut', async () => {
  expect(await labFindings('namesrv-hang', [rule])).toEqual([]);
});

// gen-20261211: broker-a (4.9.4) cut off from its three NameServers; its registrations timed out 10 s
// in, before the address book had placed the 4.x NameServers' hosts (learned later from the clients'
// connects and the NameServers' accepts). Those failures are placed at the end, so the cut starts there
// and not 70 s later with the first failure of a NameServer already placed.
it("gen-20261211: failures to NameServers not yet placed when they were read still start the cut", async () => {
  const { cut, fs } = await cutAndFindings('gen-20261211');
  const a = fs.filter((f) => f.subject.host === 'mq-broker-a');
  expect(a).toHaveLength(1);
  expect(a[0].metrics.peers).toEqual(['mq-ns-1', 'mq-ns-2', 'mq-ns-3']);
  near(a[0], cut, 30_000);
});

// gen-20261218 (servers 5.5.0, clients 4.9.0-5.1.0): broker-a cut off from the four producers for
// 20 s. The 4.x clients kept their timed-out channels (no connect was made across the cut); their
// asynchronous sends were removed on timeout (`remove timeout request, ... timeoutMillis=3000`) while
// broker-a printed `Send Queue Size: 0 SlowTimeMills: 0` every second: shorter than a crossing period,
// but several hosts' calls, each with its wait stated, that never reached the broker.
it("gen-20261218: four producers' timed-out asynchronous sends to broker-a, which printed an empty send queue throughout, name its cut within 20 s", async () => {
  const { cut, fs } = await cutAndFindings('gen-20261218');
  expect(fs.map((f) => [f.subject.host, f.metrics.connectTimeouts])).toEqual([['mq-broker-a', 0]]);
  expect(fs[0].metrics.peers).toEqual(expect.arrayContaining(['app-pay-01', 'app-order-01']));
  near(fs[0], cut, 10_000);
});

// gen-20261219 (servers 4.7.0): broker-c cut off from the NameServer, the other brokers and three
// producers for 150 s, while broker-a was overloaded and broker-b hung for 2 s. The calls to
// broker-a and broker-b (not quiet: a full or silent watermark) and those to broker-c in the 6 s its
// scheduler was held (no watermark line then) neither tell the cut nor hide the quiet ones.
it("gen-20261219: broker-c's quiet timed-out calls name its cut beside timeouts on an overloaded broker-a and a hung broker-b", async () => {
  const { cut, fs } = await cutAndFindings('gen-20261219');
  expect(fs.map((f) => f.subject.host)).toEqual(['mq-broker-c']);
  expect(fs[0].metrics.peers).toEqual(['app-order-01', 'app-pay-01', 'app-stock-01']);
  near(fs[0], cut, 30_000);
});

// gen-20261226 (5.3.3): mq-node-a (NameServer and broker-a) under a 10 % CPU quota, then mq-broker-b-s
// cut off from it. A client's connects to the overloaded mq-node-a timed out while its send queue held
// hundreds of requests (`Send Queue Size: 812`): starved, not cut off; the cut is mq-broker-b-s's.
it('gen-20261226: connects timing out against a broker whose send queue held hundreds of requests are no cut; the slave cut off is', async () => {
  const { cut, fs } = await cutAndFindings('gen-20261226');
  expect(fs.map((f) => f.subject.host)).toEqual(['mq-broker-b-s']);
  near(fs[0], cut, 30_000, true);
});

// gen-20270105 (5.3.3, client 4.6.0): mq-broker-c cut off from mq-node-a, mq-broker-b and app-order-01.
// A send whose budget the cut had spent retried on broker-a and broker-b with 0 and 1 ms left
// (`wait response on the channel <...> timeout, 0(ms)`, and each call's own `invokeSync: wait response
// timeout exception` line): no cut between app-order-01 and the two healthy brokers.
it('gen-20270105: retries that timed out on a spent budget are no cut; the cut off broker is mq-broker-c', async () => {
  const { cut, fs } = await cutAndFindings('gen-20270105');
  expect(fs.map((f) => f.subject.host)).toEqual(['mq-broker-c']);
  expect(fs[0].metrics.peers).not.toContain('mq-broker-b');
  near(fs[0], cut, 30_000);
});
