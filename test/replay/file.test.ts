// The scenario file: what --save-scenario writes reads back to the same input; hand-edited mistakes
// are one line each, naming the field.

import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { prettyJson, readScenarioFile, ScenarioError, scenarioFileJson, runSizeProblem, validateScenario } from '../../src/replay/file.js';
import { inferFromLogs } from '../../src/replay/load.js';
import { renderReplayJson } from '../../src/replay/report.js';
import { replay } from '../../src/replay/run.js';
import type { ReplayInput } from '../../src/diagnosis/types.js';

const SEED = join(__dirname, '..', '..', 'samples', 'seed-outage');

function minimal(): Record<string, any> {
  return {
    startEpochMs: Date.UTC(2024, 0, 1),
    nameServers: [
      { addr: '10.0.0.1:9876', host: 'ns-1' },
      { addr: '10.0.0.2:9876', host: 'ns-2' },
    ],
    brokers: [{ name: 'broker-a', addr: '10.0.0.11:10911', host: 'b-1' }],
    topics: [{ name: 'T' }],
    clients: [
      { host: 'app-1', version: '4.9.4', topic: 'T', sendRatePerSec: 1 },
      { host: 'app-2', version: '4.8.0', topic: 'T', sendRatePerSec: 1, namesrvAddrList: ['10.0.0.1:9876'] },
    ],
    faults: [{ atMs: 60000, host: 'b-1', state: 'hung' }],
  };
}

function messageOf(v: unknown): string {
  try {
    validateScenario(v);
  } catch (e) {
    if (e instanceof ScenarioError) return e.message;
    throw e;
  }
  return 'valid';
}

describe('scenario validation', () => {
  it('accepts a minimal scenario', () => {
    expect(messageOf(minimal())).toBe('valid');
  });

  it('takes a lite pull group (consumeMode litePull), not a BROADCASTING one', () => {
    const s = minimal();
    s.consumerGroups = [{ group: 'G', topic: 'T', version: '4.9.4', consumeMode: 'litePull', listener: { processMs: 20 }, instances: [{ host: 'app-3' }] }];
    expect(messageOf(s)).toBe('valid');
    s.consumerGroups[0].messageModel = 'BROADCASTING';
    expect(messageOf(s)).toBe('scenario.consumerGroups[0].consumeMode: a lite pull BROADCASTING group is not modelled');
  });

  it.each([
    [(s: any) => (s.clients[1].namesrvAddrList = '10.0.0.1:9876'), 'scenario.clients[1].namesrvAddrList: expected an array of addresses'],
    [(s: any) => (s.clients[1].namesrvAddrList = ['10.0.0.1']), 'scenario.clients[1].namesrvAddrList: expected an array of addresses'],
    [(s: any) => (s.clients[1].namesrvAddrList = ['10.0.0.9:9876']), 'scenario.clients[1].namesrvAddrList[0]: 10.0.0.9:9876 is not one of scenario.nameServers'],
    [(s: any) => (s.clients[1].namesrv = '10.0.0.2:9876'), "scenario.clients[1].namesrv: 10.0.0.2:9876 is not in the client's NameServer list"],
    [(s: any) => delete s.startEpochMs, 'scenario.startEpochMs: expected epoch milliseconds up to 4102444800000 (2100-01-01)'],
    [(s: any) => (s.clients[0].sendRate = 3), 'scenario.clients[0].sendRate: unknown field'],
    [(s: any) => (s.clients[0].version = '4.2.0'), 'scenario.clients[0].version: versions before 4.3.0 are not modelled (got 4.2.0)'],
    [(s: any) => (s.clients[0].settings = { sendMsgTimeoutMs: 'long' }), 'scenario.clients[0].settings.sendMsgTimeoutMs: expected a number from 1 to 86,400,000'],
    [(s: any) => (s.faults[0].host = 'b-9'), 'scenario.faults[0].host: unknown host b-9'],
    [(s: any) => (s.faults[0] = { atMs: 1, broker: 'broker-z', stall: { durationMs: 5 } }), 'scenario.faults[0].broker: unknown broker broker-z'],
    [(s: any) => (s.faults[0] = { atMs: 1, host: 'b-1' }), 'scenario.faults[0]: expected a fault: state (hung, up, down, reboot), stall, overload, slowPut, diskFull, partition or heal'],
    [(s: any) => (s.brokers[0].host = 'ns-1'), 'scenario.brokers[0].host: host ns-1 already has the address 10.0.0.1 (scenario.nameServers[0].host); one host has one IP'],
    [(s: any) => (s.clients[0].topic = 'U'), 'scenario.clients[0].topic: topic U is not in scenario.topics'],
    [(s: any) => (s.nameServers = []), 'scenario.nameServers: expected an array of NameServers (at least one)'],
    // limits: bounded time and memory
    [(s: any) => (s.clients[0].sendRatePerSec = 1e308), 'scenario.clients[0].sendRatePerSec: expected a number from 0 to 10,000 (got 1e+308)'],
    [
      (s: any) => (s.faults[0] = { atMs: 1, broker: 'broker-a', overload: { durationMs: 5, serviceMs: 1, backgroundPerSec: 1e6 } }),
      'scenario.faults[0].overload.backgroundPerSec: expected a number from 0 to 10,000 (got 1000000)',
    ],
    [(s: any) => (s.clients[0].settings = { retryTimesWhenSendFailed: 1e9 }), 'scenario.clients[0].settings.retryTimesWhenSendFailed: expected a whole number from 0 to 100 (got 1000000000)'],
    [(s: any) => (s.faults[0].atMs = 1e15), 'scenario.faults[0].atMs: expected a number from 0 to 315,360,000,000 (got 1000000000000000)'],
    [(s: any) => (s.topics = Array.from({ length: 10001 }, (_, i) => ({ name: `T${i}` }))), 'scenario.topics: 10,001 topics is past the limit of 10,000'],
    [(s: any) => (s.clients[0].sendTimesMs = new Array(1_000_001).fill(5)), 'scenario.clients[0].sendTimesMs: 1,000,001 send times is past the limit of 1,000,000'],
    [(s: any) => (s.clients[0].sendRateSteps = [{ atMs: 0, perSec: 2 }, { atMs: 60000, perSec: -1 }]), 'scenario.clients[0].sendRateSteps[1].perSec: expected a number from 0 to 10,000 (got -1)'],
    [(s: any) => (s.clients[0].sendRateSteps = [{ perSec: 2 }]), 'scenario.clients[0].sendRateSteps[0].atMs: expected a number from 0 to 315,360,000,000'],
  ])('rejects a bad field with one line naming it (%#)', (edit, message) => {
    const s = minimal();
    edit(s);
    expect(messageOf(s)).toBe(message);
  });
});

describe('the size of a run', () => {
  it('refuses a run longer than the limit, or one that would send too much, naming the field', () => {
    const s = minimal();
    expect(runSizeProblem(s, 3_600_000, 6 * 3_600_000)).toBeNull();
    expect(runSizeProblem(s, 7 * 3_600_000, 6 * 3_600_000, '--until 7h')).toBe('--until 7h: a run of 7 h is past the limit of 6 h (raise it with --max-span)');
    s.clients[1].sendRatePerSec = 10000;
    expect(runSizeProblem(s, 3_600_000, Infinity)).toMatch(/^scenario\.clients\[1\]\.sendRatePerSec: the run would make about 36,00\d,\d{3} sends in 1 h, past the limit of 5,000,000/);
    // An overload's background load counts, for the part of it within the run.
    s.clients[1].sendRatePerSec = 1;
    s.faults!.push({ atMs: 600_000, broker: 'broker-a', overload: { durationMs: 86_400_000, serviceMs: 1, backgroundPerSec: 2000 } });
    expect(runSizeProblem(s, 3_600_000, Infinity)).toMatch(/^scenario\.faults\[1\]\.overload\.backgroundPerSec: the run would make about 6,00\d,\d{3} sends in 1 h/);
    expect(runSizeProblem(s, 1_800_000, Infinity)).toBeNull();
  });
});

describe('the scenario file', () => {
  let input: ReplayInput;
  beforeAll(async () => {
    input = (await inferFromLogs({ inputs: [SEED] }, () => '+08:00', 'seed-outage')).input;
  });

  it('reads back to the same input and the same replay', () => {
    const text = prettyJson(scenarioFileJson(input));
    const back = readScenarioFile(JSON.parse(text), 's.json');
    expect(back.scenario).toEqual(input.scenario);
    expect(back.observed).toEqual(input.observed);
    expect(back.provenance).toEqual(input.provenance);
    expect(back.defaults).toEqual(input.defaults);
    expect(back.untilMs).toBe(input.untilMs);
    const a = JSON.parse(renderReplayJson(replay(input, { seed: 3, variants: [], runs: 0 })));
    const b = JSON.parse(renderReplayJson(replay(back, { seed: 3, variants: [], runs: 0 })));
    delete a.source;
    delete b.source;
    expect(b).toEqual(a);
  });

  it("keeps the consumer groups' observed figures, and names the field of a bad one", async () => {
    const dlq = (await inferFromLogs({ inputs: [join(__dirname, '..', '..', 'samples', 'lab', 'consumer-failures-dlq')] }, () => '+08:00', 'dlq')).input;
    expect(dlq.observed?.consumers?.[0]).toMatchObject({ group: 'CID_STOCK', failed: 381, dlq: 58 });
    const file = JSON.parse(prettyJson(scenarioFileJson(dlq)));
    const back = readScenarioFile(file, 's.json');
    expect(back.observed).toEqual(dlq.observed);
    expect(replay(back, { seed: 1, variants: [], runs: 0 }).consumers).toEqual(replay(dlq, { seed: 1, variants: [], runs: 0 }).consumers);
    file.observed.consumers[0].dlq = -1;
    expect(() => readScenarioFile(file, 's.json')).toThrow('observed.consumers[0].dlq: expected a whole number of messages or null');
  });

  it('keeps arrays of numbers on one line', () => {
    const text = prettyJson(scenarioFileJson(input));
    expect(text).toMatch(/"sendTimesMs": \[\d+, \d+/);
    expect(text.split('\n').length).toBeLessThan(600);
  });

  it('names the field of a bad observation', () => {
    const file = JSON.parse(prettyJson(scenarioFileJson(input)));
    file.observed.milestones[0].time = 'yesterday';
    expect(() => readScenarioFile(file, 's.json')).toThrow('observed.milestones[0].time: expected an ISO time with an offset');
  });

  it('reads the old name of a route losing a broker (route-drop) as route-lost, and no other unknown name', () => {
    const file = JSON.parse(prettyJson(scenarioFileJson(input)));
    const at = file.observed.milestones.findIndex((m: { name: string }) => m.name === 'route-lost');
    expect(at).toBeGreaterThanOrEqual(0);
    file.observed.milestones[at].name = 'route-drop';
    expect(readScenarioFile(file, 's.json').observed).toEqual(input.observed);
    file.observed.milestones[at].name = 'route-gone';
    expect(() => readScenarioFile(file, 's.json')).toThrow(`observed.milestones[${at}].name: expected one of fault-start, namesrv-removal`);
  });

  it('runs a bare scenario with nothing to compare with', () => {
    const bare = readScenarioFile(minimal(), 'bare.json');
    const r = replay(bare, { seed: 1, variants: [], runs: 0, untilMs: 200000 });
    expect(r.verdict).toBe('not-compared');
    expect(r.milestones.some((m) => m.name === 'fault-start' && m.simulated !== null)).toBe(true);
  });
});
