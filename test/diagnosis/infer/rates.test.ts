// A producer's own rate read from the writes a full disk refused, and the topic's stored rate with
// the refused sends of its minute (src/diagnosis/infer/rates.ts), on generated lab recordings whose
// lab.json says how fast each client sent.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inferFromLogs } from '../../../src/replay/load.js';
import { SAMPLES } from './fixture.js';

async function inferred(name: string) {
  const dir = join(SAMPLES, 'generated', name);
  const { input } = await inferFromLogs({ inputs: [dir] }, () => '+08:00', dir);
  const lab = JSON.parse(readFileSync(join(dir, 'lab.json'), 'utf8')) as { clients: Array<{ host: string; rate: number }> };
  return (host: string) => {
    const i = input.scenario.clients.findIndex((c) => c.host === host);
    const path = `scenario.clients[${i}].sendRatePerSec`;
    return { rate: input.scenario.clients[i].sendRatePerSec, ran: lab.clients.find((x) => x.host === host)!.rate, rule: input.provenance[path]?.rule, assumed: input.defaults[path] };
  };
}

/** Within the lab scorer's factor for a rate (1.25). */
const near = (got: number, ran: number) => got <= ran * 1.25 && got >= ran / 1.25;

describe('a rate from the writes a full disk refused', () => {
  it('an async client that lost 29 sends while broker-a and broker-c refused writes sent about 1/s, and the other client the rest of the topic (gen-712)', async () => {
    const of = await inferred('gen-712');
    const order = of('app-order-01');
    expect(order.assumed).toBeUndefined();
    expect(order.rule).toMatch(/^29 of its sends refused while broker-a refused every write for 30 s \(its disk full\), 1 of 3 brokers of its route and broker-c refused every write for 60 s/);
    expect(near(order.rate, order.ran)).toBe(true);
    // The equal share was 1.98/s, twice what it sent.
    expect(order.rate).toBeLessThan(1.5);
    const pay = of('app-pay-01');
    expect(pay.assumed).toMatch(/an equal share of what the 3.97\/s of TopicOrder its masters stored and the 4 sends of it they refused that minute, lost \(4.03\/s\) leaves after app-order-01/);
    expect(near(pay.rate, pay.ran)).toBe(true);
  });

  it('reads the rates of three one-attempt clients (two async, one with no retry) and leaves the fourth, a selector, the rest (gen-717)', async () => {
    const of = await inferred('gen-717');
    for (const host of ['app-order-01', 'app-stock-01', 'app-notify-01']) {
      const c = of(host);
      expect(near(c.rate, c.ran), `${host}: ${c.rate} vs ${c.ran}`).toBe(true);
    }
    // The sync client with no retry is stated (a selector's failure would show sendSelectImpl); the
    // async ones' refusals were all broker-a's, which a selector on broker-a would give as well.
    expect(of('app-notify-01').assumed).toBeUndefined();
    expect(of('app-order-01').assumed).toMatch(/^3 \(from its \d+ refused writes, if the round robin spread its sends over its route; 1 if a MessageQueueSelector sent each to broker-a/);
    expect(of('app-stock-01').assumed).toMatch(/^5 \(from its \d+ refused writes, if the round robin/);
    expect(of('app-notify-01').rule).toMatch(/retryTimesWhenSendFailed 0/);
    expect(of('app-order-01').rule).toMatch(/asynchronous/);
    const pay = of('app-pay-01');
    expect(pay.assumed).toMatch(/leaves after app-notify-01, app-order-01, app-stock-01/);
    expect(near(pay.rate, pay.ran)).toBe(true);
  });

  it('lists a rate read from fewer than 25 refusals as assumed (gen-714: 13 where 10 were due)', async () => {
    const pay = (await inferred('gen-714'))('app-pay-01');
    expect(pay.assumed).toMatch(/^1.3 \(from its 13 refused writes, fewer than 25: too few to state a rate, if the round robin/);
  });

  it('adds the sends a full disk refused in the stored minute to the topic rate: the stored count leaves them out (gen-260)', async () => {
    const of = await inferred('gen-260');
    // 404 stored in 03:20-03:21, and 61 lost to broker-b's full disk in it: 7.75/s; the lab sent 8.
    const order = of('app-order-01');
    expect(order.assumed).toMatch(/the 6.73\/s of TopicOrder its masters stored and the 61 sends of it they refused that minute, lost \(7.75\/s\)/);
    const rest = ['app-order-01', 'app-pay-01', 'app-stock-01'].map(of);
    const sum = rest.reduce((n, c) => n + c.rate, 0);
    const ran = rest.reduce((n, c) => n + c.ran, 0);
    expect(near(sum, ran)).toBe(true);
  });

  it('leaves the equal shares of a topic whose clients retry and whose minute lost nothing to a full disk (gen-711)', async () => {
    const of = await inferred('gen-711');
    expect(of('app-order-01').assumed).toMatch(/an equal share of the [0-9.]+\/s of TopicOrder its masters stored/);
  });

  it('an async client whose refusals were all one broker\'s: round robin or selector, told by the other brokers\' stored counts (gen-20261213, gen-717)', async () => {
    // gen-20261213: app-order-01 sent 2/s through a selector on broker-a. The round robin's reading
    // (4/s over broker-a and broker-b) would have put 80 a minute on broker-b from it alone, where
    // broker-b stored 55 of the topic in the minute before: its sends all went to broker-a.
    const of = await inferred('gen-20261213');
    const order = of('app-order-01');
    expect(order.assumed).toBeUndefined();
    expect(order.rate).toBe(order.ran);
    expect(order.rule).toMatch(/every refusal was broker-a's, and mq-broker-b stored less of TopicOrder in a minute before than the round robin would have put there from this client alone/);
    // The other producers share what is left: app-stock-01 near the 3/s it sent (0.92 before).
    expect(near(of('app-stock-01').rate, of('app-stock-01').ran)).toBe(true);
    // gen-717: the other brokers stored enough for the round robin; the reading stays assumed.
    expect((await inferred('gen-717'))('app-order-01').assumed).toMatch(/if a MessageQueueSelector sent each to broker-a/);
  });

  it('states an async client\'s rate when its refusals came from two brokers: the round robin spread them (gen-712)', async () => {
    expect((await inferred('gen-712'))('app-order-01').assumed).toBeUndefined();
  });

  it('reads a master\'s line of the minute it restarted in at its TPS: the new process counted only since its boot, the old one\'s part died with it (gen-20261221)', async () => {
    // broker-a ran its shutdown hook at 06:35:41 and booted 06:35:45: its 06:36 line says SUM 25 TPS 2.50, broker-b's 317.
    const of = await inferred('gen-20261221');
    const hosts = ['app-order-01', 'app-pay-01', 'app-stock-01', 'app-notify-01'];
    const sum = hosts.reduce((n, h) => n + of(h).rate, 0);
    const ran = hosts.reduce((n, h) => n + of(h).ran, 0);
    expect(near(sum, ran), `${sum} vs ${ran}`).toBe(true);
    expect(of('app-order-01').rule).toMatch(/a line that covered more or less than a minute counts at its TPS/);
  });
});
