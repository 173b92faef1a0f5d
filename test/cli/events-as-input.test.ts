// Events parsed elsewhere as an input (src/timeline/events-input.ts): a fleet parses where its logs
// live (`events --format events`) and ships the events. Each part is parsed by a process of its own
// (the built binary), and analyze, replay and events over the parts must say what they say over the
// logs, byte for byte (replay's `source` names its inputs, so it is left out). What they say over the
// logs: a run of the binary where its notes are compared too, else the golden files (pinned below).
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, ndjson, runBin } from './helpers.js';
import { buildTimeline } from '../../src/timeline/build.js';

const work = mkdtempSync(join(tmpdir(), 'rmq-events-input-'));

/** `events --format events` of some folders of a sample, by a process of its own, into a file. */
function part(name: string, sample: string, hosts: string[], extra: string[] = []): string {
  const r = runBin(['events', ...hosts.map((h) => `samples/${sample}/${h}`), '--format', 'events', ...extra]);
  expect(r.code, r.stderr).toBe(0);
  const file = join(work, `${name}.events`);
  writeFileSync(file, r.stdout);
  return file;
}

/**
 * `analyze --json` of samples/seed-outage's logs, by a process of its own: what the first two tests
 * compare their events inputs with (its notes on stderr too). Run once for the file (the same
 * command twice gives the same bytes: test/golden.test.ts pins them).
 */
let seedAnalyze: ReturnType<typeof runBin> | undefined;
const seedOutageAnalyze = () => (seedAnalyze ??= runBin(['analyze', '--json', 'samples/seed-outage']));

/**
 * `CMD INPUT --json` over the logs where only its stdout and exit code are compared: its golden file
 * and exit code (test/golden/), which test/golden.test.ts holds to the built CLI's output byte for
 * byte, in a process of its own too: the same run done here again would only repeat it.
 */
function pinned(cmd: 'analyze' | 'replay', input: string): { code: number; stdout: string } {
  const name = `${cmd} ${input}`;
  const line = readFileSync(join(ROOT, 'test', 'golden', 'outputs.txt'), 'utf8').split('\n').find((l) => l.endsWith(` ${name}`));
  expect(line, `${name} in test/golden/outputs.txt`).toBeDefined();
  return { code: Number(line!.split(' ')[0]), stdout: readFileSync(join(ROOT, 'test', 'golden', `${input}.${cmd}.json`), 'utf8') };
}

const withoutSource = (json: string) => {
  const o = JSON.parse(json);
  delete o.source;
  return o;
};

describe('events parsed in other processes, as an input', () => {
  it('seed-outage: analyze, replay and events over the servers’ and the clients’ events say what they say over the logs', () => {
    const servers = part('servers', 'seed-outage', ['mq-node-100', 'mq-node-101']);
    const clients = part('clients', 'seed-outage', ['app-order-01', 'app-pay-01']);
    const raw = seedOutageAnalyze();
    const fromEvents = runBin(['analyze', '--json', servers, clients]);
    expect(raw.code).toBe(1);
    expect(fromEvents.code).toBe(raw.code);
    expect(fromEvents.stdout).toBe(raw.stdout);
    // The parse's notes come with the events, once.
    expect(fromEvents.stderr).toBe(raw.stderr);
    // shipped gzipped, read as they are
    const gz = `${servers}.gz`;
    writeFileSync(gz, gzipSync(readFileSync(servers)));
    expect(runBin(['analyze', '--json', gz, clients]).stdout).toBe(raw.stdout);
    const replayRaw = pinned('replay', 'samples/seed-outage');
    const replayEvents = runBin(['replay', '--json', servers, clients]);
    expect(withoutSource(replayEvents.stdout)).toEqual(withoutSource(replayRaw.stdout));
    expect(runBin(['events', '--json', servers, clients]).stdout).toBe(runBin(['events', '--json', 'samples/seed-outage']).stdout);
    expect(runBin(['events', '--json', '--type', 'busy-reply,route-changed', servers, clients]).stdout).toBe(runBin(['events', '--json', '--type', 'busy-reply,route-changed', 'samples/seed-outage']).stdout);
  });

  it('made with every record (--all): a timeline for inference holds the records that are no event a parse for it keeps, and says what the logs say', async () => {
    const hosts = ['mq-node-100', 'mq-node-101', 'app-order-01', 'app-pay-01'];
    const file = part('seed-all', 'seed-outage', hosts, ['--all']);
    const others = async (inputs: string[], keepOther: true | 'inference') => {
      const t = await buildTimeline({ inputs, keepOther, workers: 0 });
      try {
        return [...t.events()].filter((e) => e.type === 'other').map((e) => `${e.file}:${e.line} ${e.text}`);
      } finally {
        t.close();
      }
    };
    const want = await others(hosts.map((h) => `samples/seed-outage/${h}`), 'inference');
    expect(want.length).toBeGreaterThan(10);
    // The file holds more of them: every record.
    expect((await others([file], true)).length).toBeGreaterThan(want.length);
    expect(await others([file], 'inference')).toEqual(want);
    expect(runBin(['analyze', '--json', file]).stdout).toBe(seedOutageAnalyze().stdout);
    const replayRaw = pinned('replay', 'samples/seed-outage');
    expect(replayRaw.code).toBe(0);
    expect(withoutSource(runBin(['replay', '--json', file]).stdout)).toEqual(withoutSource(replayRaw.stdout));
  });

  it('a lab recording (real RocketMQ servers 4.9.4 and clients 4.7.1, 4.9.4, 5.1.4; a NameServer host hung), parsed one host at a time', () => {
    const dir = 'samples/lab/namesrv-hang';
    const hosts = readdirHosts(dir);
    expect(hosts.length).toBeGreaterThan(2);
    const parts = hosts.map((h) => part(`nh-${h}`, 'lab/namesrv-hang', [h]));
    const raw = pinned('analyze', dir);
    expect(runBin(['analyze', '--json', ...parts]).stdout).toBe(raw.stdout);
  });

  it('says which lines of an events file it could not read, and what a file made by --json lacks, and reads the rest', () => {
    const good = readFileSync(part('ns', 'seed-outage', ['mq-node-101']), 'utf8').split('\n');
    const damaged = join(work, 'damaged.events');
    // a line cut in two
    writeFileSync(damaged, [...good.slice(0, 3), good[3].slice(0, 40), ...good.slice(4)].join('\n'));
    const r = runBin(['events', '--json', damaged]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`${damaged}:4: not a line of rmq-diag events (not JSON): skipped`);
    // every whole event line but the records that are no event (events --json leaves them out)
    const kept = [...good.slice(0, 3), ...good.slice(4, -2)].filter((l) => JSON.parse(l).type !== 'other');
    expect(ndjson(r.stdout).slice(0, -1)).toEqual(kept.map((l) => JSON.parse(l)));
    // no summary at the end (cut short): the same events, each file's in its order
    const cut = join(work, 'cut.events');
    writeFileSync(cut, good.slice(0, -2).join('\n') + '\n');
    const c = runBin(['events', '--json', cut]);
    expect(c.stderr).toContain(`${cut}: no summary line at the end (cut short?)`);
    const byFile = (lines: Array<Record<string, any>>) => lines.map((e) => `${e.file}:${e.line} ${e.type}`).sort();
    const all = good.slice(0, -2).map((l) => JSON.parse(l)).filter((e) => e.type !== 'other');
    expect(byFile(ndjson(c.stdout).slice(0, -1))).toEqual(byFile(all));

    const plain = runBin(['events', 'samples/seed-outage/mq-node-101', '--json']);
    const jsonFile = join(work, 'plain.events');
    writeFileSync(jsonFile, plain.stdout);
    const a = runBin(['analyze', '--json', jsonFile]);
    expect(a.code).toBeLessThan(2);
    expect(a.stderr).toContain('made by events --json, not --format events');
    expect(JSON.parse(a.stdout).inputs.map((i: { path: string }) => i.path)).toEqual(ndjson(plain.stdout).pop()!.summary.inputs.map((i: { path: string }) => i.path));
  });
});

function readdirHosts(dir: string): string[] {
  return readdirSync(dir)
    .filter((h) => statSync(join(dir, h)).isDirectory())
    .sort();
}
