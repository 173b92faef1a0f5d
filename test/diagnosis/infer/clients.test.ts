// The clients stage: the NameServer a client was bound to, and its send rate.

import { describe, expect, it } from 'vitest';
import { inferClients } from '../../../src/diagnosis/infer/clients.js';
import { inferHosts } from '../../../src/diagnosis/infer/hosts.js';
import { inferServers } from '../../../src/diagnosis/infer/servers.js';
import type { InferContext } from '../../../src/diagnosis/infer/context.js';
import { contextOf, sampleLines } from './fixture.js';

const stages = (ctx: InferContext) => {
  const hosts = inferHosts(ctx);
  return inferClients(ctx, hosts, inferServers(ctx, hosts));
};

describe('inferClients', () => {
  it('binds the client to the first NameServer it chose and reads its rate from the application’s statistics lines', async () => {
    const ctx = await contextOf([
      { path: 'app-feed-01/rocketmq_client.log', sample: 'broker-busy/app-feed-01/rocketmq_client.log', lines: [1, 30] },
      // four `feed publisher stats: sent=N, failed=0` lines, 10 s apart: 2024 + 1721 + 1769 + 2048 sends, 189.05/s
      // (one host: references are relative to its folder)
      { path: 'app-feed-01/app.log', sample: 'broker-busy/app-feed-01/app.log', lines: [1, 9] },
    ]);
    const [client] = stages(ctx).clients;
    expect(client.host).toBe('app-feed-01');
    expect(client.namesrvAddrList).toEqual(['192.168.1.5:9876', '192.168.1.6:9876']);
    expect(client.namesrv).toBe('192.168.1.5:9876');
    expect(ctx.provenance['scenario.clients[0].namesrv']).toEqual({ rule: 'the first NameServer the client chose', evidence: ['rocketmq_client.log:12'] });
    expect(client.sendRatePerSec).toBe(189.05);
    expect(ctx.provenance['scenario.clients[0].sendRatePerSec']).toEqual({
      rule: 'the application’s statistics lines (sent=N every 10 s)',
      evidence: ['app.log:6', 'app.log:9'],
    });
  });

  it('binds a client that started before the logs to the NameServer it switched away from; no rate in the logs is the default', async () => {
    const client = sampleLines('lab/hang-5x/app-order-01/logs/rocketmqlogs/rocketmq_client.log', 1, 3);
    const ctx = await contextOf([
      {
        path: 'app-order-01/rocketmq_client.log',
        text: [...client, '2026-12-01 19:30:50.001 INFO  [11415] [publisher-2] [RocketmqRemoting#?:?] - new name server is chosen. OLD: 10.213.0.12:9876 , NEW: 10.213.0.11:9876. namesrvIndex = 790'],
      },
    ]);
    const [c] = stages(ctx).clients;
    expect(c.namesrv).toBe('10.213.0.12:9876');
    expect(ctx.provenance['scenario.clients[0].namesrv']).toEqual({ rule: 'the NameServer the client switched away from', evidence: ['rocketmq_client.log:4'] });
    expect(c.sendRatePerSec).toBe(1);
    expect(ctx.defaults['scenario.clients[0].sendRatePerSec']).toBe('1 (the logs show no send rate)');
    expect(ctx.provenance['scenario.clients[0].sendRatePerSec']).toBeUndefined();
  });
});
