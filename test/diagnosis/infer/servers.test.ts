// The servers stage: the server version from the server logs' own hints, or from the clients when
// the server logs allow a range only; the brokers' settings from their configuration dump.

import { describe, expect, it } from 'vitest';
import { inferHosts } from '../../../src/diagnosis/infer/hosts.js';
import { inferServers } from '../../../src/diagnosis/infer/servers.js';
import { contextOf, type Excerpt } from './fixture.js';

// A 5.3.3 client (its log's hints) that routed TopicOrder to broker-a and broker-b.
const CLIENT: Excerpt = { path: 'app-order-01/logs/rocketmqlogs/rocketmq_client.log', sample: 'lab/hang-5x/app-order-01/logs/rocketmqlogs/rocketmq_client.log', lines: [1, 30] };

describe('inferServers', () => {
  it('takes the exact version the server logs give (a jar name in a stack frame), not the clients’', async () => {
    const ctx = await contextOf([
      CLIENT,
      // registerBroker's stack: rocketmq-remoting-4.8.0.jar
      { path: 'mq-node-101/broker.log', sample: 'seed-outage/mq-node-101/broker.log', lines: [40, 60] },
    ]);
    const s = inferServers(ctx, inferHosts(ctx));
    expect(s.serverVersion).toBe('4.8.0');
    expect(ctx.provenance['scenario.serverVersion']).toEqual({
      rule: 'version hints of the server logs (wording, jar names in stack frames)',
      evidence: ['mq-node-101/broker.log:1'],
    });
    expect(ctx.defaults['scenario.serverVersion']).toBeUndefined();
  });

  it('takes the clients’ exact version when the server logs allow a range that holds it', async () => {
    const ctx = await contextOf([
      CLIENT,
      // broker-a's configuration dump and boot line: 5.x wording only (>=5.0.0)
      { path: 'mq-broker-a/logs/rocketmqlogs/broker.log', sample: 'lab/hang-5x/mq-broker-a/logs/rocketmqlogs/broker.log', lines: [1, 330] },
    ]);
    const s = inferServers(ctx, inferHosts(ctx));
    expect(s.serverVersion).toBe('5.3.3');
    expect(ctx.provenance['scenario.serverVersion']).toEqual({ rule: 'the clients’ version, within the range the server logs allow (>=5.0.0)', evidence: [] });

    // broker-a's settings come from its dump; broker-b, whose log was not given, takes the defaults.
    expect(s.brokers.map((b) => [b.name, b.host, b.sendMessageThreadPoolNums])).toEqual([
      ['broker-a', 'mq-broker-a', 2],
      ['broker-b', 'host-10-213-0-22', undefined],
    ]);
    expect(ctx.provenance['scenario.brokers[0].sendMessageThreadPoolNums']).toEqual({
      rule: 'sendMessageThreadPoolNums in the broker configuration dump',
      evidence: ['mq-broker-a/logs/rocketmqlogs/broker.log:17'],
    });
    expect(ctx.defaults['scenario.brokers[1].host']).toBe('host-10-213-0-22 (no log folder holds this broker)');
    expect(s.topics).toEqual([{ name: 'TopicOrder', queues: 4 }]);
  });
});
