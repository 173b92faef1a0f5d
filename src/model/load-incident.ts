// The load incident the model is measured on (scripts/bench-model.mjs) and smoke-tested with:
// 10 minutes, 4 brokers, 2 NameServers, 50 producers at 20 sends/s each; one broker host hangs from
// 120 s to 300 s and then reboots, another broker stalls for 600 ms at 420 s.

import type { Scenario } from './scenario.js';

export const LOAD_INCIDENT_MS = 600000;

export function loadIncident(): Scenario {
  return {
    name: 'load-incident',
    startEpochMs: Date.UTC(2024, 2, 12, 2, 0, 0),
    serverVersion: '4.9.4',
    nameServers: [
      { addr: '10.10.1.11:9876', host: 'mq-ns-1' },
      { addr: '10.10.1.12:9876', host: 'mq-ns-2' },
    ],
    brokers: [1, 2, 3, 4].map((i) => ({ name: `broker-${i}`, addr: `10.10.1.${20 + i}:10911`, host: `mq-broker-${i}` })),
    topics: [{ name: 'TopicLoad', queues: 8 }],
    clients: Array.from({ length: 50 }, (_, i) => ({
      host: `app-${String(i + 1).padStart(2, '0')}`,
      version: i % 2 === 0 ? '4.8.0' : '4.9.4',
      topic: 'TopicLoad',
      sendRatePerSec: 20,
    })),
    faults: [
      { atMs: 120000, host: 'mq-broker-2', state: 'hung' },
      { atMs: 300000, host: 'mq-broker-2', state: 'reboot' },
      { atMs: 420000, broker: 'broker-3', stall: { durationMs: 600 } },
    ],
  };
}
