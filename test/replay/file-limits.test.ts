// Hostile and damaged scenario files: values each within its limit whose product is not (1 ms polls
// over six hours, a thousand brokers with ten thousand topics of 1,024 queues, ten thousand clients),
// names and notes of megabytes, two hosts on one IP. Each is refused before the run with one line
// naming the field; a seeded fuzz of a real saved scenario (samples/lab/crash) ends every case in
// exit 0, 1 or 2 with at most one error line and no stack.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, Rng, runTasks } from '../../src/model/index.js';
import { readScenarioFile, runSizeProblem, ScenarioError, scenarioFileJson } from '../../src/replay/file.js';
import { twoIncidents } from '../../src/replay/load.js';
import { ROOT, run } from '../cli/helpers.js';

const CRASH = join(ROOT, 'samples', 'lab', 'crash');
let dir: string;
let saved: Record<string, any>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rmq-scenario-limits-'));
  const r = await run(['replay', CRASH, '--save-scenario', join(dir, 'crash.json'), '--json']);
  expect(r.code, r.stderr).toBeLessThan(2);
  saved = JSON.parse((await import('node:fs')).readFileSync(join(dir, 'crash.json'), 'utf8'));
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const copy = (): Record<string, any> => JSON.parse(JSON.stringify(saved));

/** The one-line problem of a scenario file before it runs: its reading, then its size; 'ok' if none. */
function problem(file: unknown, maxSpanMs = 6 * 3_600_000): string {
  try {
    const input = readScenarioFile(file, 'f.json');
    return runSizeProblem(input.scenario, input.untilMs, maxSpanMs) ?? 'ok';
  } catch (e) {
    if (e instanceof ScenarioError) return e.message;
    throw e;
  }
}

describe('a run whose cost is past the limits, though each value is within its own', () => {
  it('1 ms route polls or heartbeats over six hours: the interval is named', () => {
    const f = copy();
    f.untilMs = 6 * 3_600_000;
    f.scenario.clients[1].settings.pollNameServerIntervalMs = 1;
    expect(problem(f)).toMatch(/^scenario\.clients\[1\]\.settings\.pollNameServerIntervalMs: the run would simulate about 2\d,\d{3},\d{3} tasks .* in 6 h, past the limit of 2,000,000 \(raise this interval, or shorten the run with --until\)$/);
    const g = copy();
    g.untilMs = 6 * 3_600_000;
    g.scenario.clients[0].settings.heartbeatBrokerIntervalMs = 1;
    expect(problem(g)).toMatch(/^scenario\.clients\[0\]\.settings\.heartbeatBrokerIntervalMs: /);
    // The same polls over the crash's five minutes are within the limit.
    f.untilMs = saved.untilMs;
    f.scenario.clients[1].settings.pollNameServerIntervalMs = 1000;
    expect(problem(f)).toBe('ok');
  });

  it('a NameServer scanning every millisecond, a broker registering every millisecond (read as 10 s)', () => {
    const f = copy();
    f.untilMs = 6 * 3_600_000;
    f.scenario.nameServers[0].scanNotActiveBrokerIntervalMs = 1;
    expect(problem(f)).toMatch(/^scenario\.nameServers\[0\]\.scanNotActiveBrokerIntervalMs: /);
    const g = copy();
    g.untilMs = 6 * 3_600_000;
    g.scenario.brokers[0].registerNameServerPeriodMs = 1;
    // BrokerController keeps the period to 10-60 s: 2,160 registrations in six hours, well within.
    expect(problem(g)).toBe('ok');
  });

  it('a thousand brokers, ten thousand topics of 1,024 queues: the topics are named', () => {
    const f = copy();
    const b = f.scenario.brokers[0];
    f.scenario.brokers = Array.from({ length: 1000 }, (_, i) => ({ ...b, name: `b${i}`, host: `h${i}`, addr: `10.1.${i >> 8}.${i & 255}:10911` }));
    f.scenario.topics = Array.from({ length: 10000 }, (_, i) => ({ name: i ? `T${i}` : 'TopicShop', queues: 1024 }));
    f.scenario.faults = [];
    f.observed = null;
    expect(problem(f)).toBe(
      'scenario.topics: 10,000 topics on their brokers hold 10,240,000,000 queues in all, past the limit of 1,000,000 (fewer topics, queues or brokers; scenario.topics[0] holds the most)',
    );
    // A thousand brokers with one topic hold few queues, but print a watermark each every second.
    f.scenario.topics = [{ name: 'TopicShop', queues: 4 }];
    f.untilMs = 3_600_000;
    expect(problem(f)).toMatch(/^scenario\.brokers: the run would simulate about \d,\d{3},\d{3} tasks .* in 1 h, past the limit of 2,000,000 \(fewer brokers, or shorten the run with --until\)$/);
  });

  it('ten thousand clients: the clients are named, whether they send or not', () => {
    const f = copy();
    const c = f.scenario.clients[0];
    f.scenario.clients = Array.from({ length: 10000 }, (_, i) => ({ ...c, host: `c${i}`, ip: `10.2.${i >> 8}.${i & 255}`, sendRatePerSec: 0 }));
    f.observed = null;
    f.untilMs = 600000;
    expect(problem(f)).toMatch(/^scenario\.clients: the run would simulate about 8,\d{3},\d{3} tasks .* in 10 min, past the limit of 2,000,000 \(fewer clients, or shorten the run with --until\)$/);
  });

  it('the saved crash scenario is far within (its estimate is what its intervals give)', () => {
    const input = readScenarioFile(copy(), 'f.json');
    const t = runTasks(input.scenario, input.untilMs);
    // 2 clients (200 + 316 s each), polls and heartbeats every 30 s (to 2 brokers), 2 brokers
    // (a watermark a second, registrations every 30 s with 2 NameServers carrying 1 topic), 2 scans a 5 s.
    const runs = (ms: number) => input.untilMs / ms;
    const expected = 2 * (200 + runs(1000)) + 2 * (runs(30000) + 2 * runs(30000)) + 2 * (runs(30000) * 2 * (1 + 1 / 8) + runs(1000)) + 2 * runs(5000);
    expect(t.total).toBe(Math.round(expected));
    expect(t.total).toBeLessThan(LIMITS.tasksPerRun / 100);
  });
});

describe('strings past their limits, and two hosts on one IP', () => {
  it('refuses a name of megabytes, a note or source past 64 KB, naming the field', () => {
    const f = copy();
    f.scenario.name = 'x'.repeat(10_000_000);
    expect(problem(f)).toBe('scenario.name: 10,000,000 characters is past the limit of 1,024');
    const g = copy();
    g.notes = ['fine', 'a '.repeat(40000)];
    expect(problem(g)).toBe('notes[1]: 80,000 characters is past the limit of 65,536');
    const h = copy();
    h.source = 'y'.repeat(70000);
    expect(problem(h)).toBe('file.source: 70,000 characters is past the limit of 65,536');
    const k = copy();
    k.scenario.brokers[1].host = 'h'.repeat(2000);
    expect(problem(k)).toBe('scenario.brokers[1].host: 2,000 characters is past the limit of 1,024');
    const m = copy();
    m.observed.milestones[0].subject = 's'.repeat(5000);
    expect(problem(m)).toBe('observed.milestones[0].subject: 5,000 characters is past the limit of 1,024');
  });

  it('saves the source of thousands of inputs within the limit, so the file reads back', () => {
    const input = readScenarioFile(copy(), 'f.json');
    input.source = `${'incident/app-'.repeat(10000)}: 10,000 files from 1 host`;
    const again = readScenarioFile(JSON.parse(JSON.stringify(scenarioFileJson(input))), 'g.json');
    expect(again.source).toMatch(/^incident\/app-incident\/app-.*\.\.\. \(scenario file g\.json\)$/);
    expect(again.source.length).toBeLessThan(LIMITS.textChars + 40);
  });

  it('names both fields of two hosts with one IP', () => {
    const f = copy();
    f.scenario.brokers[1].addr = '10.213.0.11:10911';
    expect(problem(f)).toBe('scenario.brokers[1].addr: 10.213.0.11 is also the IP of scenario.nameServers[0].addr (host mq-ns-1); two hosts cannot share an IP');
    const g = copy();
    g.scenario.clients[1].ip = g.scenario.clients[0].ip;
    expect(problem(g)).toBe(`scenario.clients[1].ip: ${g.scenario.clients[0].ip} is also the IP of scenario.clients[0].ip (host app-shop-01); two hosts cannot share an IP`);
    // A client without an IP gets 10.250.x.y from the model: one given that address elsewhere is named.
    const h = copy();
    delete h.scenario.clients[1].ip;
    h.scenario.clients[0].ip = '10.250.0.2';
    expect(problem(h)).toBe('scenario.clients[1].ip (not given: 10.250.0.2): 10.250.0.2 is also the IP of scenario.clients[0].ip (host app-shop-01); two hosts cannot share an IP');
  });

  it('two recordings given together: one incident at a time', async () => {
    const errorsOf = async (...dirs: string[]) => {
      const r = await run(['replay', ...dirs.map((d) => join(ROOT, 'samples', 'lab', d))]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      return r.stderr.split('\n').filter((l) => l.startsWith('rmq-diag:')).map((l) => l.replaceAll(join(ROOT, 'samples', 'lab') + '/', ''));
    };
    // One cluster recorded twice: the same hosts' same files under both folders.
    expect(await errorsOf('crash', 'restart')).toEqual([
      'rmq-diag: crash and restart both hold app.log of host app-shop-01: they are two recordings or incidents; replay one incident at a time',
    ]);
    // Two clusters: different hosts on one address.
    expect(await errorsOf('crash', 'seed-outage')).toEqual([
      "rmq-diag: the logs hold two hosts with the IP 10.213.0.21 (mq-broker-a and app-order-01): replay one incident at a time (the logs of one cluster), and name one machine's folders as one host (--set-host GLOB=NAME)",
    ]);
  }, 240_000);

  it('one recording given as its hosts\' folders is one incident', () => {
    const acc = ['mq-broker-a/logs/rocketmqlogs/broker.log', 'mq-broker-b/logs/rocketmqlogs/broker.log'].map((p) => ({ path: `rec/${p}`, host: p.split('/')[0] }));
    expect(twoIncidents(['rec/mq-broker-a', 'rec/mq-broker-b/'], acc)).toBeNull();
    expect(twoIncidents(['a/', 'b'], [{ path: 'a/h/broker.log', host: 'h' }, { path: 'b/h/broker.log', host: 'h' }])).toBe(
      'a and b both hold broker.log of host h: they are two recordings or incidents; replay one incident at a time',
    );
  });

  it('prints notes and a source of 64 KB wrapped to 80 columns, every character kept', async () => {
    const f = copy();
    const word = 'w'.repeat(300);
    f.notes = [`${'a '.repeat(20000)}${word}`, 'x'.repeat(65536)];
    f.source = 'z'.repeat(65536);
    const p = join(dir, 'long.json');
    writeFileSync(p, JSON.stringify(f));
    const r = await run(['replay', p, '--runs', '0']);
    expect(r.code, r.stderr).toBeLessThan(2);
    const lines = r.stdout.split('\n');
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(80);
    const text = r.stdout.replace(/\s+/g, '');
    expect(text).toContain('z'.repeat(65536));
    expect(text).toContain('x'.repeat(65536));
    expect(text).toContain(`${'a'.repeat(20000)}${word}`);
  }, 120_000);
});

// ---- fuzz ------------------------------------------------------------------------------------------

type Path = Array<string | number>;

/** Every path to a value of the document (objects and arrays included). */
function paths(v: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...at, i], out));
  else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) paths(x, [...at, k], out);
  return out;
}

function mutate(rng: Rng, doc: Record<string, any>): string {
  const all = paths(doc).filter((p) => p.length > 0);
  const ops = 1 + rng.int(3);
  for (let k = 0; k < ops; k++) {
    const p = all[rng.int(all.length)];
    const parent = p.slice(0, -1).reduce<any>((o, key) => (o == null ? o : o[key]), doc);
    if (parent == null || typeof parent !== 'object') continue;
    const key = p[p.length - 1];
    const old = parent[key];
    const choices: unknown[] = [
      null,
      true,
      0,
      -1,
      1,
      1e308,
      2 ** 53,
      0.5,
      '',
      'x'.repeat(1 + rng.int(200_000)),
      [],
      {},
      typeof old === 'string' ? `${old}${old}` : old,
      Array.isArray(old) ? Array.from({ length: 1 + rng.int(50) }, () => old).flat() : [old],
      typeof old === 'number' ? old * 1000 : String(old),
    ];
    if (rng.int(6) === 0 && !Array.isArray(parent)) delete parent[key];
    else if (rng.int(8) === 0 && !Array.isArray(parent)) parent[`unknown${k}`] = 1;
    else parent[key] = choices[rng.int(choices.length)];
  }
  return JSON.stringify(doc);
}

describe('scenario file fuzz', () => {
  it('reads mutated saved scenarios into an input or one ScenarioError line', () => {
    const rng = new Rng(35);
    let refused = 0;
    for (let n = 0; n < 300; n++) {
      const text = mutate(rng, copy());
      const r = problem(JSON.parse(text));
      expect(r, `case ${n}`).not.toMatch(/\n/);
      expect(r.length, `case ${n}`).toBeLessThan(1000);
      if (r !== 'ok') refused++;
    }
    expect(refused).toBeGreaterThan(100);
  });

  it('runs mutated saved scenarios to exit 0, 1 or 2, with at most one error line and no stack', async () => {
    const rng = new Rng(3535);
    const codes: number[] = [];
    for (let n = 0; n < 16; n++) {
      const doc = copy();
      // A minute of the crash: a mutation that stays valid runs briefly.
      doc.untilMs = 60000;
      const p = join(dir, `fuzz-${n}.json`);
      writeFileSync(p, mutate(rng, doc));
      const r = await run(['replay', p, '--runs', '0', '--max-span', '10m']);
      expect([0, 1, 2], `case ${n}: ${r.stderr}`).toContain(r.code);
      const lines = r.stderr.split('\n').filter((l) => l && !l.startsWith('note:'));
      expect(lines.length, `case ${n}: ${r.stderr}`).toBeLessThanOrEqual(1);
      expect(r.stderr, `case ${n}`).not.toMatch(/^\s+at /m);
      if (r.code === 2) expect(lines[0], `case ${n}`).toMatch(/^rmq-diag: /);
      codes.push(r.code);
    }
    // Some mutations are refused, some still run.
    expect(codes).toContain(2);
    expect(codes.some((c) => c < 2)).toBe(true);
  }, 300_000);
});
