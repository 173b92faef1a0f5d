// Scenario builders shared by the model tests.

import { readFileSync } from 'node:fs';
import type { ClientSettings } from '../../src/model/client.js';
import type { Fault, Scenario, ScenarioClient } from '../../src/model/scenario.js';

/** 2020-12-22 14:35:00 +08:00, the morning of the seed outage. */
export const SEED_START_EPOCH_MS = Date.UTC(2020, 11, 22, 6, 35, 0);

export const NS_A = '192.168.3.100:9876';
export const NS_B = '192.168.3.101:9876';
export const BROKER_A = '192.168.3.100:10911';
export const BROKER_B = '192.168.3.101:10911';

export interface SeedOptions {
  /** When host A hangs, ms. */
  hangAtMs?: number;
  /** How long it stays hung before it reboots, ms. */
  hangMs?: number;
  /** NameServers on their own hosts (the article's best practice). */
  separateNameServers?: boolean;
  clients?: ScenarioClient[];
  serverVersion?: string;
  serverChannelMaxIdleTimeSeconds?: number;
  extraFaults?: Fault[];
}

export function client(host: string, version: string, namesrv: string, extra: Partial<ScenarioClient> = {}, settings: ClientSettings = {}): ScenarioClient {
  return { host, version, namesrv, topic: 'TopicOrder', sendRatePerSec: 2, settings, ...extra };
}

/**
 * The seed outage: broker-a and broker-b, a NameServer beside each (or on their own hosts), and host
 * A (192.168.3.100) hanging with its TCP connections open, then rebooting.
 */
export function seedOutage(o: SeedOptions = {}): Scenario {
  const hangAtMs = o.hangAtMs ?? 420000;
  const hangMs = o.hangMs ?? 600000;
  const separate = o.separateNameServers ?? false;
  const nameServers = separate
    ? [
        { addr: '192.168.3.110:9876', host: 'mq-ns-110', serverChannelMaxIdleTimeSeconds: o.serverChannelMaxIdleTimeSeconds },
        { addr: '192.168.3.111:9876', host: 'mq-ns-111', serverChannelMaxIdleTimeSeconds: o.serverChannelMaxIdleTimeSeconds },
      ]
    : [
        { addr: NS_A, host: 'mq-node-100', serverChannelMaxIdleTimeSeconds: o.serverChannelMaxIdleTimeSeconds },
        { addr: NS_B, host: 'mq-node-101', serverChannelMaxIdleTimeSeconds: o.serverChannelMaxIdleTimeSeconds },
      ];
  return {
    name: separate ? 'seed-outage-separate-namesrv' : 'seed-outage',
    startEpochMs: SEED_START_EPOCH_MS,
    serverVersion: o.serverVersion ?? '4.8.0',
    nameServers,
    brokers: [
      { name: 'broker-a', addr: BROKER_A, host: 'mq-node-100' },
      { name: 'broker-b', addr: BROKER_B, host: 'mq-node-101' },
    ],
    topics: [{ name: 'TopicOrder', queues: 4 }],
    clients: o.clients ?? [client('app-order-01', '4.8.0', NS_A), client('app-pay-01', '4.6.0', NS_B)],
    faults: [
      { atMs: hangAtMs, host: 'mq-node-100', state: 'hung' },
      { atMs: hangAtMs + hangMs, host: 'mq-node-100', state: 'reboot' },
      ...(o.extraFaults ?? []),
    ],
  };
}

/**
 * The cluster of the duplicate tests: consumer-slow-listener's scenario (the replay fixture) with a
 * second master, a fast listener (20 ms), 20 consume threads and the default pullThresholdForQueue,
 * so that only the fault under test holds messages back.
 */
export function twoMastersScenario(): Scenario {
  const sc = JSON.parse(readFileSync('test/fixtures/replay-scenarios/consumer-slow-listener.json', 'utf8')).scenario as Scenario;
  sc.brokers.push({ name: 'broker-b', addr: '10.213.0.22:10911', host: 'mq-broker-b' });
  const g = sc.consumerGroups![0];
  g.listener = { processMs: 20 };
  g.consumeThreadMin = 20;
  g.consumeThreadMax = 20;
  g.pullThresholdForQueue = 1000;
  return sc;
}
