// The application's sending threads read from its failures (src/diagnosis/infer/threads.ts), on lab
// recordings whose lab.json gives each producer's publisher pool (`threads`) and what it shed.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inferFromLogs } from '../../../src/replay/load.js';
import { SAMPLES } from './fixture.js';

interface LabClient {
  host: string;
  threads: number;
  sends: { failed: number; shed: number };
}

async function inferred(sample: string) {
  const dir = join(SAMPLES, sample);
  const { input } = await inferFromLogs({ inputs: [dir] }, () => '+08:00', dir);
  const lab = JSON.parse(readFileSync(join(dir, 'lab.json'), 'utf8')) as { clients: LabClient[] };
  return (host: string) => {
    const i = input.scenario.clients.findIndex((c) => c.host === host);
    return { threads: input.scenario.clients[i].sendThreads, provenance: input.provenance[`scenario.clients[${i}].sendThreads`], ran: lab.clients.find((x) => x.host === host)! };
  };
}

describe("an application's sending threads from its failures", () => {
  it('two threads each failing every 3.2 s on a hung broker, at 5 sends/s: 2 threads (gen-703, whose pool of 2 shed 561 sends)', async () => {
    const order = (await inferred('generated/gen-703'))('app-order-01');
    expect(order.threads).toBe(2);
    expect(order.ran.threads).toBe(2);
    expect(order.provenance.rule).toMatch(/^the application's failed sends were logged on 2 threads \(publisher-\d, publisher-\d\), each failing again as soon as its last failed send returned \(every 3\.2 s/);
    expect(order.provenance.evidence.length).toBeGreaterThanOrEqual(2);
    for (const ref of order.provenance.evidence) expect(ref).toMatch(/^app-order-01\/logs\/app\.log(\.gz)?:\d+$/);
  });

  it('a selector whose 2 threads waited out 3 s connects in turn reads as 2; the round-robin clients beside it, whose failures came apart, are not bounded (gen-716)', async () => {
    const of = await inferred('generated/gen-716');
    expect([of('app-stock-01').threads, of('app-stock-01').ran.threads]).toEqual([2, 2]);
    // app-pay-01 ran 8 threads and shed 50 sends, but its failures (sendDefaultImpl call timeouts
    // 7-50 s apart on each thread) do not show them all busy at once: no bound is read.
    for (const host of ['app-order-01', 'app-pay-01']) expect(of(host).threads).toBeUndefined();
  });

  it('a thread failing every 0.33 s at 3 sends/s is the rate, not a bound (gen-702: fast refusals of a full disk)', async () => {
    const stock = (await inferred('generated/gen-702'))('app-stock-01');
    expect(stock.ran.sends.failed).toBe(180);
    expect(stock.threads).toBeUndefined();
  });

  it('threads failing 3-12 s apart, their waits unlike, show no bound (seed-outage)', async () => {
    const order = (await inferred('lab/seed-outage'))('app-order-01');
    expect(order.ran.sends.failed).toBeGreaterThan(200);
    expect(order.threads).toBeUndefined();
  });
});
