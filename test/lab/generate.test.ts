// Generated incidents (lab/src/generate.ts): the same files for the same seed, every one valid and
// meaningful, and over a few hundred seeds every part of the declared space (lab/src/space.ts) drawn.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLOSE_SOCKET_IF_TIMEOUT } from '../../lab/src/defaults.js';
import { describeScenario, generateScenario, LAST_FAULT_START, writeGenerated } from '../../lab/src/generate.js';
import { SPACE } from '../../lab/src/space.js';
import { CONSUMER_FAULT_KINDS, brokers, compareVersions, consumers, faultEnd, loadScenario, namesrvHosts, producers, validateScenario, type Scenario } from '../../lab/src/scenario.js';
import { ROOT } from '../cli/helpers.js';

const SEEDS = Array.from({ length: 200 }, (_, i) => i + 1);
const all: Scenario[] = SEEDS.map(generateScenario);
const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'rmq-gen-test-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('generate', () => {
  it('writes the same files for the same seed, and other files for other seeds', () => {
    const [a, b] = [tmp(), tmp()];
    const files = writeGenerated(40, 5, a);
    writeGenerated(40, 5, b);
    expect(files.map((f) => f.slice(a.length + 1))).toEqual(['gen-40.json', 'gen-41.json', 'gen-42.json', 'gen-43.json', 'gen-44.json']);
    for (const f of readdirSync(a)) expect(readFileSync(join(b, f), 'utf8')).toBe(readFileSync(join(a, f), 'utf8'));
    const texts = new Set(readdirSync(a).map((f) => readFileSync(join(a, f), 'utf8').replace(/gen-\d+|seed \d+/g, '')));
    expect(texts.size).toBe(5);
    // A file written is what record loads: the same scenario after its own validation.
    expect(loadScenario(join(a, 'gen-42.json'))).toEqual(generateScenario(42));
  });

  it('draws only valid scenarios', () => {
    for (const s of SEEDS.concat(Array.from({ length: 300 }, (_, i) => 1000 + i * 7919))) {
      const g = generateScenario(s);
      expect(() => validateScenario(JSON.parse(JSON.stringify(g))), `seed ${s}`).not.toThrow();
    }
  });

  it('draws only faults that make sense, in recordings of a few minutes', () => {
    for (const s of all) {
      const hosts = new Map(s.hosts.map((h) => [h.name, h]));
      const serverOn = (h: string) => hosts.get(h)!.processes.some((p) => p.kind !== 'producer');
      const masterOn = (h: string) => hosts.get(h)!.processes.some((p) => p.kind === 'broker' && p.brokerId === 0);
      const server = s.faults.filter((f) => !CONSUMER_FAULT_KINDS.includes(f.kind as never));
      expect(server.length, s.scenario).toBeGreaterThanOrEqual(1);
      expect(server.length, s.scenario).toBeLessThanOrEqual(3);
      // A consumer fault strikes a host that runs a consumer; at most two, and a late start.
      const consumerFaults = s.faults.filter((f) => CONSUMER_FAULT_KINDS.includes(f.kind as never));
      expect(consumerFaults.filter((f) => f.kind !== 'consumer-start').length, s.scenario).toBeLessThanOrEqual(2);
      for (const f of consumerFaults) expect(hosts.get(f.host)!.processes.map((p) => p.kind), `${s.scenario}: ${f.kind}`).toEqual(['consumer']);
      for (const f of server) {
        expect(f.at, s.scenario).toBeLessThanOrEqual(LAST_FAULT_START);
        expect(serverOn(f.host), `${s.scenario}: ${f.kind} of ${f.host}`).toBe(true);
        if (f.kind === 'overload' || f.kind === 'disk-full') expect(masterOn(f.host), `${s.scenario}: ${f.kind} of ${f.host}`).toBe(true);
        if (f.kind === 'overload') {
          // The load comes from an uncollected batch job whose topic lives on the overloaded master only.
          const batch = hosts.get(f.load!.producers[0])!;
          expect(batch.collect).toBe(false);
          const topic = s.topics.find((t) => t.name === (batch.processes[0] as { topic: string }).topic)!;
          expect(topic.brokers).toEqual([(hosts.get(f.host)!.processes.find((p) => p.kind === 'broker') as { brokerName: string }).brokerName]);
        }
        if (f.kind === 'partition') {
          expect(f.groups![0]).toEqual([f.host]);
          expect(f.groups![1].length).toBeGreaterThan(0);
        }
      }
      expect(s.faults.filter((f) => f.kind === 'overload').length).toBeLessThanOrEqual(1);
      const end = Math.max(...s.faults.map((f) => faultEnd(f) ?? f.at));
      expect(s.settleSeconds + end + s.tailSeconds, s.scenario).toBeLessThanOrEqual(480);
      for (const { producer: p } of producers(s).filter((x) => x.host.collect !== false)) {
        // Clients before 4.9.1 do not read the property (NettyClientConfig hard-codes false).
        if (compareVersions(p.version, '4.9.1') < 0) expect(p.systemProperties?.[CLOSE_SOCKET_IF_TIMEOUT], `${s.scenario} ${p.version}`).toBeUndefined();
        expect(p.rate).toBeLessThanOrEqual(5);
      }
    }
  });

  it('covers the declared space over 200 seeds: every fault kind, topology shape, version and setting', () => {
    const seen = (values: unknown[]) => new Set(values.map((v) => JSON.stringify(v)));
    const expectAll = (what: string, got: Set<string>, want: readonly unknown[]) => {
      for (const w of want) expect(got.has(JSON.stringify(w)), `${what} ${JSON.stringify(w)} never drawn`).toBe(true);
    };
    expectAll('fault kind', seen(all.flatMap((s) => s.faults.map((f) => f.kind))), SPACE.faults.kinds);
    expectAll('fault count', seen(all.map((s) => s.faults.filter((f) => !CONSUMER_FAULT_KINDS.includes(f.kind as never)).length)), SPACE.faults.count);
    expectAll('server version', seen(all.map((s) => s.versions.broker)), SPACE.serverVersions);
    const apps = all.flatMap((s) => producers(s).filter((p) => p.host.collect !== false).map((p) => p.producer));
    expectAll('client version', seen(apps.map((p) => p.version)), SPACE.clientVersions);
    expectAll('NameServers', seen(all.map((s) => namesrvHosts(s).length)), SPACE.topology.namesrvs);
    expectAll('placement', seen(all.map((s) => (namesrvHosts(s).some((h) => h.processes.length > 1) ? 'beside-brokers' : 'own-hosts'))), SPACE.topology.namesrvPlacement);
    expectAll('masters', seen(all.map((s) => brokers(s).filter((b) => b.broker.brokerId === 0).length)), SPACE.topology.masters);
    expectAll('slaves', seen(all.map((s) => brokers(s).some((b) => b.broker.brokerId > 0))), SPACE.topology.slaves);
    expectAll('applications', seen(all.map((s) => producers(s).filter((p) => p.host.collect !== false).length)), SPACE.topology.applications);
    for (const k of ['sendLatencyFaultEnable', 'retryTimesWhenSendFailed', 'sendMsgTimeout', 'pollNameServerInterval'] as const) {
      expectAll(k, seen(apps.map((p) => p.settings?.[k] ?? null)), SPACE.client[k]);
    }
    expectAll('closeSocketIfTimeout', seen(apps.map((p) => (p.systemProperties?.[CLOSE_SOCKET_IF_TIMEOUT] === undefined ? null : p.systemProperties[CLOSE_SOCKET_IF_TIMEOUT] === 'true'))), SPACE.client.closeSocketIfTimeout);
    expectAll('async', seen(apps.map((p) => p.async === true)), SPACE.client.async);
    expectAll('selector', seen(apps.map((p) => p.selectorQueue !== undefined)), SPACE.client.selector);
    expectAll('rate', seen(apps.map((p) => p.rate)), SPACE.client.rate);
    // Partitions of each shape: one host from all others, from the NameServers only, from the applications only.
    const shapes = all.flatMap((s) =>
      s.faults
        .filter((f) => f.kind === 'partition')
        .map((f) => {
          const others = s.hosts.length - 1;
          const apps = new Set(producers(s).map((p) => p.host.name));
          return f.groups![1].length === others ? 'isolated' : f.groups![1].every((h) => apps.has(h)) ? 'from-clients' : 'from-namesrvs';
        }),
    );
    expectAll('partition shape', seen(shapes), SPACE.faults.partition.shapes);
    // Faults apart and overlapping, a hang ended by a power-cycle, a crash that stays down.
    const pairs = all.flatMap((s) => s.faults.slice(1).map((f, i) => (f.at < (faultEnd(s.faults[i]) ?? Infinity) ? 'overlapping' : 'apart')));
    expectAll('timing', seen(pairs), SPACE.faults.timing);
    expect(all.some((s) => s.faults.some((f, i) => f.kind === 'hang' && s.faults[i + 1]?.kind === 'reboot' && s.faults[i + 1].at === faultEnd(f)))).toBe(true);
    expect(all.some((s) => s.faults.some((f) => f.kind === 'crash' && f.downSeconds === undefined))).toBe(true);
  });

  it('draws consumer groups over their space: modes, models, settings, late instances and every consumer fault', () => {
    const seen = (values: unknown[]) => new Set(values.map((v) => JSON.stringify(v)));
    const expectAll = (what: string, got: Set<string>, want: readonly unknown[]) => {
      for (const w of want) expect(got.has(JSON.stringify(w)), `${what} ${JSON.stringify(w)} never drawn`).toBe(true);
    };
    const c = SPACE.consumers;
    const groupsOf = (s: Scenario) => new Set(consumers(s).map((x) => x.consumer.group)).size;
    expectAll('consumer groups', seen(all.map(groupsOf)), c.groups);
    const cs = all.flatMap((s) => consumers(s).map((x) => x.consumer));
    expectAll('consumer mode', seen(cs.map((x) => x.mode ?? 'concurrently')), c.mode);
    expectAll('message model', seen(cs.map((x) => x.messageModel ?? 'CLUSTERING')), c.messageModel);
    expectAll('consume threads', seen(cs.filter((x) => x.mode !== 'litePull').map((x) => x.consumeThreadMax ?? null)), c.consumeThreads);
    expectAll('pullThresholdForQueue', seen(cs.map((x) => x.pullThresholdForQueue ?? null)), c.pullThresholdForQueue);
    expectAll('maxReconsumeTimes', seen(cs.filter((x) => x.mode !== 'litePull').map((x) => x.maxReconsumeTimes ?? null)), c.maxReconsumeTimes);
    expectAll('consumer fault', seen(all.flatMap((s) => s.faults.map((f) => f.kind).filter((k) => CONSUMER_FAULT_KINDS.includes(k as never)))), CONSUMER_FAULT_KINDS);
    expect(all.some((s) => s.faults.some((f) => f.kind === 'consumer-start' && f.subscription === 'TagX'))).toBe(true);
    for (const s of all) {
      expect(s.hosts.length, s.scenario).toBeLessThanOrEqual(16);
      // One group's instances run alike; litePull from its first client; a late instance is struck by nothing before it starts.
      for (const g of new Set(consumers(s).map((x) => x.consumer.group))) {
        const own = consumers(s).filter((x) => x.consumer.group === g).map((x) => ({ ...x.consumer, listener: undefined }));
        for (const o of own) expect(o, `${s.scenario} ${g}`).toEqual(own[0]);
      }
      for (const x of consumers(s)) if (x.consumer.mode === 'litePull') expect(compareVersions(x.consumer.version, '4.6.0')).toBeGreaterThanOrEqual(0);
      const late = new Set(s.faults.filter((f) => f.kind === 'consumer-start').map((f) => f.host));
      for (const f of s.faults) if (f.kind !== 'consumer-start') expect(late.has(f.host), `${s.scenario}: ${f.kind} of ${f.host}`).toBe(false);
    }
  });

  it("draws a committed recording's servers, producers and server faults as it drew them before consumers were drawn", () => {
    // Consumers come from a stream of their own: without them, each seed's scenario is the one recorded
    // before they were drawn; one recorded with them is the whole draw.
    const dir = join(ROOT, 'samples', 'generated');
    const recorded = readdirSync(dir).filter((d) => /^gen-\d+$/.test(d) && existsSync(join(dir, d, 'lab.json')));
    expect(recorded.length).toBeGreaterThanOrEqual(25);
    for (const d of recorded) {
      const seed = Number(d.slice(4));
      const lab = JSON.parse(readFileSync(join(dir, d, 'lab.json'), 'utf8')) as { description: string; hosts: { name: string }[]; consumers?: unknown[] };
      const s = generateScenario(seed);
      // Recorded with its consumers: drawn as it is today, consumers and all.
      if (lab.consumers?.length) {
        expect(s.description, d).toBe(lab.description);
        expect(s.hosts.map((h) => h.name).sort(), d).toEqual(lab.hosts.map((h) => h.name).sort());
        continue;
      }
      const cons = new Set(consumers(s).map((x) => x.host.name));
      s.hosts = s.hosts.filter((h) => !cons.has(h.name));
      s.faults = s.faults.filter((f) => !cons.has(f.host));
      expect(describeScenario(s, seed), d).toBe(lab.description);
      expect(s.hosts.map((h) => h.name).sort(), d).toEqual(lab.hosts.map((h) => h.name).sort());
    }
  });
});
