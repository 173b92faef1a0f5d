// analyze on lab recordings cut down as an operator would have them: one host's folder, the servers
// without the applications, the applications without the servers. The report says what it shows,
// what it lacks and where to fetch it, and never prints `null` for what it does not know.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, run } from './helpers.js';

const rec = (name: string) => join(ROOT, 'samples', 'lab', name);
const hostsOf = (name: string, prefix: string) =>
  readdirSync(rec(name))
    .filter((h) => h.startsWith(prefix))
    .map((h) => join(rec(name), h));
/** The text with its wrapping undone. */
const flat = (s: string) => s.replace(/\s+/g, ' ');

describe('one host', () => {
  it('hang-5x mq-broker-a alone: the stop it shows, and which hosts would add what', async () => {
    const r = await run(['analyze', join(rec('hang-5x'), 'mq-broker-a')]);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toMatch(/No findings/);
    const text = flat(r.stdout);
    expect(text).toContain("partial only one host read (mq-broker-a): the NameServers' logs would show when the broker was dropped, the clients' logs the failed sends");
    expect(text).toMatch(/WARNING server-stopped Broker broker-a \(10\.213\.0\.21:10911\) on mq-broker-a went silent at 19:31:33 for 4 min 46 s and booted again at 19:36:09 with no shutdown logged before it/);
  });

  it('a generated recording: gen-720 mq-broker-a alone (5.x logs, gzipped) tells its crash', async () => {
    const r = await run(['analyze', join(ROOT, 'samples', 'generated', 'gen-720', 'mq-broker-a'), '--json']);
    const doc = JSON.parse(r.stdout);
    expect(doc.summary.partial).toEqual([expect.stringMatching(/^only one host read \(mq-broker-a\)/)]);
    const stops = doc.findings.filter((f: any) => f.rule === 'server-stopped');
    expect(stops.map((f: any) => f.metrics.stop)).toEqual(['unclean']);
  });
});

describe('the servers without the applications', () => {
  it('hang-5x: the impact is unknown, not nil; the report says where to fetch it; no null', async () => {
    const r = await run(['analyze', ...hostsOf('hang-5x', 'mq-')]);
    expect(r.code).toBe(1);
    const text = flat(r.stdout);
    expect(text).toContain('impact unknown: no client or application log among the inputs');
    expect(text).not.toContain('no failed send in the logs');
    expect(text).toContain("partial no client or application log among the inputs: impact on producers unknown; the applications' ~/logs/rocketmqlogs/rocketmq_client.log and their application logs would show the failed sends");
    expect(r.stdout).not.toMatch(/\bnull\b/);
    // A 5.x NameServer names its own address as it starts (its remoting client pointed at itself).
    expect(text).toContain('NameServer 10.213.0.11:9876 removed broker-a when its idle connection timed out');
  });

  it('--json: summary.partial and the incident\'s impactUnknown', async () => {
    const doc = JSON.parse((await run(['analyze', ...hostsOf('hang-5x', 'mq-'), '--json'])).stdout);
    expect(doc.summary.partial).toHaveLength(1);
    expect(doc.incidents[0].impact).toEqual([]);
    expect(doc.incidents[0].impactUnknown).toBe('unknown: no client or application log among the inputs');
  });
});

describe('the applications without the servers', () => {
  it('hang-5x: the servers\' logs would tell the cause', async () => {
    const r = await run(['analyze', ...hostsOf('hang-5x', 'app-')]);
    expect(flat(r.stdout)).toContain("partial no broker or NameServer log among the inputs: the servers' broker.log, namesrv.log and watermark.log would tell the cause");
  });
});

it('a whole recording lacks nothing: no partial line, and the impact is counted', async () => {
  const doc = JSON.parse((await run(['analyze', rec('hang-5x'), '--json'])).stdout);
  expect(doc.summary.partial).toEqual([]);
  expect(doc.incidents[0].impactUnknown).toBeNull();
  expect(doc.incidents[0].impact.length).toBeGreaterThan(0);
});
