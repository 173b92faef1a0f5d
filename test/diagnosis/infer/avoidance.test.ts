// Fault avoidance read from what a client did while a broker refused writes (src/diagnosis/infer/
// avoidance.ts), on generated lab recordings whose lab.json says how each client ran.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inferFromLogs } from '../../../src/replay/load.js';
import { SAMPLES } from './fixture.js';

async function inferred(name: string) {
  const dir = join(SAMPLES, name.startsWith('gen-') ? 'generated' : 'lab', name);
  const { input } = await inferFromLogs({ inputs: [dir] }, () => '+08:00', dir);
  const lab = JSON.parse(readFileSync(join(dir, 'lab.json'), 'utf8')) as { clients: Array<{ host: string; ranWith: { sendLatencyFaultEnable: boolean } }> };
  const of = (host: string) => {
    const i = input.scenario.clients.findIndex((c) => c.host === host);
    const path = `scenario.clients[${i}].settings.sendLatencyFaultEnable`;
    return { value: input.scenario.clients[i].settings?.sendLatencyFaultEnable ?? false, provenance: input.provenance[path], assumed: input.defaults[path], ran: lab.clients.find((c) => c.host === host)!.ranWith.sendLatencyFaultEnable };
  };
  return of;
}

describe('fault avoidance from behaviour', () => {
  it('a retry-0 client that failed once against a restarting broker and then sent it nothing for 14 s runs it (gen-704)', async () => {
    const of = await inferred('gen-704');
    const stock = of('app-stock-01');
    expect(stock.value).toBe(true);
    expect(stock.ran).toBe(true);
    expect(stock.assumed).toBeUndefined();
    expect(stock.provenance.rule).toMatch(/after a failed attempt on broker-b the client sent it nothing more for 1\d s, while broker-b refused or left unanswered every write \(mq-broker-b down/);
    expect(stock.provenance.rule).toMatch(/inferred from behaviour/);
    expect(stock.provenance.evidence[0]).toBe('app-stock-01/logs/app.log.gz:5');
    // The async client kept failing against broker-b: no avoidance, still the default (and it ran without).
    const order = of('app-order-01');
    expect([order.value, order.ran]).toEqual([false, false]);
    expect(order.assumed).toMatch(/default/);
  });

  it('a 5.1.1 client whose failed-attempt line prints `Broker: %s` is placed by its cause\'s channel, and runs it (gen-20261217)', async () => {
    const pay = (await inferred('gen-20261217'))('app-pay-01');
    expect([pay.value, pay.ran]).toEqual([true, true]);
    expect(pay.provenance.rule).toMatch(/^after a failed attempt on broker-b the client sent it nothing more for \d+ s, while broker-b refused or left unanswered every write \(mq-broker-b cut off from app-pay-01/);
  });

  it('avoidance read from 3 s without attempts at a rate no line gave is assumed, not stated (gen-20261225: app-notify-01, an equal share of 3.13/s where it sent 1, ran without)', async () => {
    const notify = (await inferred('gen-20261225'))('app-notify-01');
    expect(notify.ran).toBe(false);
    expect(notify.provenance).toBeUndefined();
    expect(notify.assumed).toMatch(/^true \(after a failed attempt on broker-b .*; its rate is an assumed share, too close to the least that tells to state it\)$/);
  });

  it('an async client with one failure and no later line: inferred on its inferred rate, and the provenance says that is the premise (gen-713)', async () => {
    const pay = (await inferred('gen-713'))('app-pay-01');
    expect([pay.value, pay.ran]).toEqual([true, true]);
    expect(pay.provenance.rule).toMatch(/after a failed attempt on broker-a .* no line shows it stopped sending \(taken to send at its inferred rate throughout, as the run does\)/);
  });

  it("an async client's failure is the broker's error reply its SendCallback got, named by the broker's address (gen-260: code 14 from broker-b's full disk)", async () => {
    const pay = (await inferred('gen-260'))('app-pay-01');
    expect([pay.value, pay.ran]).toEqual([true, true]);
    expect(pay.provenance.rule).toMatch(/after a failed attempt on broker-b .*broker-b refused or left unanswered every write \(its disk full/);
  });

  it("the same from a broker up to 4.7.1, whose refusal's old text a 4.8.0+ client follows with the broker's address (gen-20261205: 4.6.1 servers, a 4.9.5 async client)", async () => {
    const pay = (await inferred('gen-20261205'))('app-pay-01');
    expect([pay.value, pay.ran]).toEqual([true, true]);
    expect(pay.assumed).toBeUndefined();
    expect(pay.provenance.rule).toMatch(/after a failed attempt on broker-a .*broker-a refused or left unanswered every write \(its disk full/);
    expect(pay.provenance.evidence[0]).toBe('app-pay-01/logs/app.log.gz:4');
  });

  it('a retrying client whose attempts on a hung broker failed once, then never again while its route held it, runs it; one that kept failing there does not (latency-fault-on-4x)', async () => {
    const of = await inferred('latency-fault-on-4x');
    const order = of('app-order-01');
    expect([order.value, order.ran]).toEqual([true, true]);
    expect(order.provenance.rule).toMatch(/after a failed attempt on broker-a the client sent it nothing more for \d+ s, while broker-a refused or left unanswered every write \(mq-broker-a hung/);
    // Its client log's failed attempt names the broker.
    expect(order.provenance.evidence[0]).toMatch(/^app-order-01\/logs\/rocketmqlogs\/rocketmq_client\.log\.gz:\d+$/);
    const pay = of('app-pay-01');
    expect([pay.value, pay.ran]).toEqual([false, false]);
    expect(pay.assumed).toBeDefined();
  });

  it("an async client's request that timed out against a hung broker, and none sent there after it was known (gen-710: 4.9.4, sendMsgTimeout 1000)", async () => {
    const order = (await inferred('gen-710'))('app-order-01');
    expect([order.value, order.ran]).toEqual([true, true]);
    expect(order.assumed).toBeUndefined();
    // The first removed request is the failure; the two removed after it had begun before it was known.
    expect(order.provenance.rule).toMatch(/^after an ASYNC send's request to broker-a timed out \(`remove timeout request`.* the client sent it nothing more for \d+ s, while broker-a refused or left unanswered every write \(mq-node-a hung/);
    expect(order.provenance.evidence[0]).toBe('app-order-01/logs/rocketmqlogs/rocketmq_client.log.gz:65');
  });

  it("a partition leaves the broker unanswered for the client cut off from it only (gen-599: app-stock-01, 4.9.0 async, cut off from mq-node-a)", async () => {
    const stock = (await inferred('gen-599'))('app-stock-01');
    expect([stock.value, stock.ran]).toEqual([true, true]);
    expect(stock.provenance.rule).toMatch(/^after an ASYNC send's request to broker-a timed out .* while broker-a refused or left unanswered every write \(mq-node-a cut off from app-stock-01 \(scenario\.faults\[\d+\]\)\)/);
  });

  it('is not inferred where no broker refused writes while the client sent to it: the clients that ran without it keep the default', async () => {
    for (const [name, host] of [['gen-704', 'app-pay-01'], ['gen-713', 'app-order-01']] as const) {
      const c = (await inferred(name))(host);
      expect([c.value, c.ran], `${name} ${host}`).toEqual([false, false]);
    }
  });

  it("an async client's timed-out request on the broker's VIP channel (port - 2, a 4.5.0 client) names that broker; a partition is its refusal window (gen-705)", async () => {
    const stock = (await inferred('gen-705'))('app-stock-01');
    expect([stock.value, stock.ran]).toEqual([true, true]);
    expect(stock.provenance.rule).toMatch(/^after an ASYNC send's request to broker-c timed out .* the client sent it nothing more for \d+ s, while broker-c refused or left unanswered every write \(mq-node-c cut off from app-stock-01/);
  });
});
