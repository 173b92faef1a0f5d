// The hosts stage: which host runs a broker, by its boot line or by the host's address.

import { describe, expect, it } from 'vitest';
import { inferHosts } from '../../../src/diagnosis/infer/hosts.js';
import { contextOf } from './fixture.js';

const HANG = 'lab/hang-5x';

describe('inferHosts', () => {
  it('places a broker on the host whose broker.log holds its boot line, and one without it on the host with its address', async () => {
    const ctx = await contextOf([
      // name server list, client instance, the first choice, and the TopicOrder route (broker-a and broker-b masters, and their slaves)
      { path: 'app-order-01/logs/rocketmqlogs/rocketmq_client.log', sample: `${HANG}/app-order-01/logs/rocketmqlogs/rocketmq_client.log`, lines: [1, 30] },
      // broker-a's boot line
      { path: 'mq-broker-a/logs/rocketmqlogs/broker.log', sample: `${HANG}/mq-broker-a/logs/rocketmqlogs/broker.log`, lines: [324, 324] },
      // no boot line, and a host name without the broker name: only producer connections to 10.213.0.22:10911
      { path: 'node-2/logs/rocketmqlogs/broker.log', sample: `${HANG}/mq-broker-b/logs/rocketmqlogs/broker.log`, lines: [338, 339] },
    ]);
    const h = inferHosts(ctx);
    expect(h.brokerNames).toEqual(['broker-a', 'broker-b']);
    expect(h.brokerAddr.get('broker-a')).toMatchObject({ value: '10.213.0.21:10911', rule: 'the broker boot line' });
    expect(h.brokerAddr.get('broker-b')).toMatchObject({ value: '10.213.0.22:10911', rule: 'BrokerData of a route the client logged' });

    const a = h.brokerHost.get('broker-a')!;
    expect(a.value).toBe('mq-broker-a');
    expect(a.rule).toBe('the broker boot line is in this host’s broker.log');
    expect(a.events.map(ctx.ref)).toEqual(['mq-broker-a/logs/rocketmqlogs/broker.log:1']);

    const b = h.brokerHost.get('broker-b')!;
    expect(b.value).toBe('node-2');
    expect(b.rule).toBe('the host’s address (the local address of a producer connection the broker logged) is the broker’s');
    expect(b.events.map(ctx.ref)).toEqual(['node-2/logs/rocketmqlogs/broker.log:1']);

    expect(h.hostIp.get('node-2')?.value).toBe('10.213.0.22');
    expect(h.hostIp.get('app-order-01')).toMatchObject({ value: '10.213.0.31', rule: 'the client ID at start' });
    // The slaves of the route are named in a note, not replayed.
    expect(ctx.notes).toContain('slave brokers are not replayed: broker-a 10.213.0.23:10911, broker-b 10.213.0.24:10911');
  });

  it("places a 5.x NameServer bound to 0.0.0.0 by the address its own remoting client is pointed at as it starts (gen-718)", async () => {
    const ns = (ts: string, addr: string) => [
      `2026-12-05 06:09:${ts} INFO main - RemotingServer started, listening 0.0.0.0:9876`,
      `2026-12-05 06:09:${ts} INFO main - name server address updated. NEW : [${addr}] , OLD: null`,
      `2026-12-05 06:09:${ts} INFO main - The Name Server boot success. serializeType=JSON, address 0.0.0.0:9876`,
    ];
    const ctx = await contextOf([
      { path: 'app-order-01/logs/rocketmqlogs/rocketmq_client.log', text: ['2026-12-05 06:09:38,604 INFO RocketmqClient - user specified name server address: 10.213.0.11:9876;10.213.0.12:9876;10.213.0.13:9876'] },
      { path: 'mq-ns-1/logs/rocketmqlogs/namesrv.log', text: ns('13', '10.213.0.11:9876') },
      { path: 'mq-ns-2/logs/rocketmqlogs/namesrv.log', text: ns('17', '10.213.0.12:9876') },
      { path: 'mq-ns-3/logs/rocketmqlogs/namesrv.log', text: ns('20', '10.213.0.13:9876') },
    ]);
    const h = inferHosts(ctx);
    expect(h.nsAddrs).toEqual(['10.213.0.11:9876', '10.213.0.12:9876', '10.213.0.13:9876']);
    for (const i of [1, 2, 3]) {
      const placed = h.nsHost.get(`10.213.0.1${i}:9876`)!;
      expect(placed.value).toBe(`mq-ns-${i}`);
      expect(placed.rule).toBe('this host’s namesrv.log, and its address (the NameServer’s own address, which its remoting client was pointed at as it started, 5.x)');
      expect(placed.events.map(ctx.ref)).toEqual([`mq-ns-${i}/logs/rocketmqlogs/namesrv.log:2`]);
    }
  });

  it('without a namesrv.log, a NameServer gets the default host host-<ip>', async () => {
    const ctx = await contextOf([{ path: 'app-order-01/logs/rocketmqlogs/rocketmq_client.log', sample: `${HANG}/app-order-01/logs/rocketmqlogs/rocketmq_client.log`, lines: [1, 30] }]);
    const h = inferHosts(ctx);
    expect(h.nsAddrs).toEqual(['10.213.0.11:9876', '10.213.0.12:9876']);
    expect(h.nsHost.get('10.213.0.11:9876')).toEqual({ value: 'host-10-213-0-11', events: [], rule: 'default' });
    expect(h.nsSeen.get('10.213.0.11:9876')!.map(ctx.ref)).toEqual(['rocketmq_client.log:1', 'rocketmq_client.log:2', 'rocketmq_client.log:24']);
  });
});
