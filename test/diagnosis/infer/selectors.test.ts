// A selector read from a client that failed nothing while a broker of its route refused its writes
// (src/diagnosis/infer/selectors.ts), on generated lab recordings whose lab.json says how each
// client sent.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inferFromLogs } from '../../../src/replay/load.js';
import { SAMPLES } from './fixture.js';

interface LabClient {
  host: string;
  selector: boolean;
  selectorQueue: number | null;
}

async function inferred(name: string) {
  const dir = join(SAMPLES, 'generated', name);
  const { input } = await inferFromLogs({ inputs: [dir] }, () => '+08:00', dir);
  const lab = JSON.parse(readFileSync(join(dir, 'lab.json'), 'utf8')) as { clients: LabClient[]; topics: Array<{ name: string; queues: number }> };
  return (host: string) => {
    const i = input.scenario.clients.findIndex((c) => c.host === host);
    const c = input.scenario.clients[i];
    const ran = lab.clients.find((x) => x.host === host)!;
    return {
      selector: c.selector ?? false,
      queue: c.selectorQueue,
      provenance: input.provenance[`scenario.clients[${i}].selector`],
      queueAssumed: input.defaults[`scenario.clients[${i}].selectorQueue`],
      ran,
      /** The broker a queue index of the topic falls on (queues sorted by broker name, `queues` each). */
      brokerOf: (q: number) => `broker-${String.fromCharCode(97 + Math.floor(q / lab.topics[0].queues))}`,
    };
  };
}

describe('a selector from a broker the client never failed on', () => {
  it('a client that failed nothing while cut off from broker-c for 2 min 30 s picks its queue on a broker that answered (gen-705)', async () => {
    const of = await inferred('gen-705');
    const pay = of('app-pay-01');
    expect([pay.selector, pay.ran.selector]).toEqual([true, true]);
    expect(pay.provenance.rule).toMatch(/^no send of the client failed while broker-c refused or left unanswered every write of its \(mq-node-c cut off from app-pay-01/);
    expect(pay.provenance.rule).toMatch(/inferred from behaviour/);
    // The key is not in the logs: a default, on a broker that never refused the client.
    expect(pay.queueAssumed).toMatch(/^0 \(the first queue of broker-a/);
    expect(pay.brokerOf(pay.queue!)).toBe(pay.brokerOf(pay.ran.selectorQueue!));
    // The round-robin clients that failed sends there are not selectors (lab.json: neither is).
    for (const host of ['app-order-01', 'app-stock-01']) expect([of(host).selector, of(host).ran.selector]).toEqual([false, false]);
  });

  it('a 5.1.4 client that failed nothing through a partition and a reboot of broker-a sends to another broker (gen-599)', async () => {
    const order = (await inferred('gen-599'))('app-order-01');
    expect([order.selector, order.ran.selector]).toEqual([true, true]);
    expect(order.brokerOf(order.queue!)).toBe('broker-b');
    expect(order.brokerOf(order.ran.selectorQueue!)).toBe('broker-b');
  });
});

describe("a selector's one key from a broker it never failed on", () => {
  it("a selector whose failures all hit broker-a, as fast as its threads freed up, and which failed nothing through broker-b's full disk keeps to broker-a (gen-716)", async () => {
    const of = await inferred('gen-716');
    const stock = of('app-stock-01');
    expect([stock.selector, stock.ran.selector]).toEqual([true, true]);
    expect(stock.queueAssumed).toBeUndefined();
    expect(stock.queue).toBeDefined();
    expect(stock.brokerOf(stock.queue!)).toBe(stock.brokerOf(stock.ran.selectorQueue!));
    // The round-robin clients, which failed sends through broker-b's full disk, are no selectors.
    for (const host of ['app-order-01', 'app-pay-01']) expect([of(host).selector, of(host).ran.selector]).toEqual([false, false]);
  });
});
