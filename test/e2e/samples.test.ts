// End to end over the bundled samples: every file's lines accounted for, the events the generator
// wrote found again (per file and type), and the incident's milestones in the merged timeline.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, ndjson, run } from '../cli/helpers.js';

interface Expected {
  files: Record<string, { lines: number }>;
  counts: Record<string, Record<string, number>>;
  groundTruth: any;
}

const load = (name: string) => JSON.parse(readFileSync(join(ROOT, 'samples', name, 'expected.json'), 'utf8')) as Expected;

// Generator categories that are event types with the same meaning, one occurrence per record.
const SAME = ['send-attempt-failed', 'busy-reply', 'route-update-failed', 'heartbeat-failed', 'broker-expired', 'route-changed', 'namesrv-chosen', 'watermark', 'send-call-timeout', 'startup'];

/**
 * `events --json` of a sample: its events and summary. Once per sample for the file: the tests only
 * read them, and the same command gives the same output (test/golden.test.ts pins it).
 */
const timelines = new Map<string, Promise<{ events: Array<Record<string, any>>; summary: any }>>();
function timeline(name: string) {
  if (!timelines.has(name)) {
    timelines.set(
      name,
      run(['events', join('samples', name), '--json']).then((r) => {
        expect(r.code).toBe(0);
        const lines = ndjson(r.stdout);
        const summary = lines.pop()!.summary;
        return { events: lines, summary };
      }),
    );
  }
  return timelines.get(name)!;
}

describe.each(['seed-outage', 'healthy-restart', 'broker-busy'])('sample %s', (name) => {
  it('accounts for every line of every file, and finds the events the generator wrote', async () => {
    const exp = load(name);
    const { summary } = await timeline(name);
    const byPath = new Map<string, any>(summary.inputs.map((i: any) => [i.path.replace(`samples/${name}/`, ''), i]));
    expect([...byPath.keys()].sort()).toEqual(Object.keys(exp.files).sort());
    for (const [file, f] of Object.entries(exp.files)) {
      const input = byPath.get(file);
      expect(input.lines, file).toBe(f.lines);
      expect(input.records + input.continuation + input.unknown + input.unreadable, file).toBe(f.lines);
      expect(input.unknown, file).toBe(0);
      for (const type of SAME) {
        const want = exp.counts[file]?.[type] ?? 0;
        if (type === 'startup' && want === 0) continue; // the generator counts one startup per file
        if (type === 'startup') expect(input.eventsByType.startup ?? 0, `${file} ${type}`).toBeGreaterThanOrEqual(want);
        else if (type === 'route-update-failed') {
          // Each failed poll is logged twice (the per-topic ERROR and the ScheduledTask wrapper ERROR).
          expect(input.eventsByType[type] ?? 0, `${file} ${type}`).toBe(2 * want);
        } else expect(input.eventsByType[type] ?? 0, `${file} ${type}`).toBe(want);
      }
    }
    expect(summary.issues.filter((i: any) => !/repeats the seconds/.test(i.message))).toEqual([]);
  });

  it('merges all hosts into one time-ordered stream', async () => {
    const { events } = await timeline(name);
    const times = events.map((e) => Date.parse(e.time));
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThanOrEqual(times[i - 1]);
  });
});

describe('seed outage milestones', () => {
  it('shows the expiry on the healthy NameServer, the late switch, and both route recoveries', async () => {
    const gt = load('seed-outage').groundTruth;
    const { events } = await timeline('seed-outage');
    const at = (t: string) => new Date(t).getTime();
    const expired = events.find((e) => e.type === 'broker-expired')!;
    expect(expired).toMatchObject({ host: 'mq-node-101', kind: 'namesrv', fields: { brokerAddr: '192.168.3.100:10911' } });
    expect(at(expired.time)).toBe(at(gt.brokerA.expiredOn.at));

    const order = gt.clients['app-order-01'];
    const switched = events.filter((e) => e.type === 'namesrv-chosen' && e.host === 'app-order-01').pop()!;
    expect(switched.fields).toMatchObject({ old: order.namesrvSwitch.old, new: order.namesrvSwitch.new, namesrvIndex: order.namesrvSwitch.namesrvIndex });
    expect(Math.floor(at(switched.time) / 1000)).toBe(at(order.namesrvSwitch.at) / 1000);

    const lost = (host: string) =>
      events.find((e) => e.type === 'route-changed' && e.host === host && e.fields.brokersBefore.includes('broker-a') && !e.fields.brokersAfter.includes('broker-a'))!;
    expect(Math.floor(at(lost('app-order-01').time) / 1000)).toBe(at(order.routeLostBrokerA) / 1000);
    expect(at(lost('app-pay-01').time)).toBe(at(gt.clients['app-pay-01'].routeLostBrokerA));

    // The client bound to the hung NameServer logs its route-update timeouts against the hung address.
    const stuck = events.filter(
      (e) => e.type === 'route-update-failed' && e.host === 'app-order-01' && e.entry === 'route-update-failed/exception',
    );
    expect(stuck).toHaveLength(order.routeUpdateTimeouts);
    expect(new Set(stuck.map((e) => e.fields.addr))).toEqual(new Set(['192.168.3.100:9876']));
  });

  it('reads the 4.6.0 client fake millis as .000 and the 4.8.0 client real millis', async () => {
    const { summary } = await timeline('seed-outage');
    const hints = (p: string) => summary.inputs.find((i: any) => i.path.endsWith(p)).versionHints ?? [];
    expect(hints('app-pay-01/rocketmq_client.log')).toContain('4.3.0-4.7.1');
    expect(hints('app-order-01/rocketmq_client.log')).toContain('4.3.0-5.0.0');
  });
});

describe('broker busy sample', () => {
  it('finds every TIMEOUT_CLEAN_QUEUE reply with its wait and the broker address', async () => {
    const { events } = await timeline('broker-busy');
    const busy = events.filter((e) => e.type === 'busy-reply' && e.kind === 'client');
    expect(busy).toHaveLength(73);
    expect(Math.max(...busy.map((e) => e.fields.waitMs))).toBe(799);
    expect(new Set(busy.map((e) => e.fields.brokerAddr))).toEqual(new Set(['192.168.1.12:10911']));
  });
});
