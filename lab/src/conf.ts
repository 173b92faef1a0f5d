// The settings the lab gives each server in its `-c` file (besides its scratch paths): one home for
// what cluster.ts writes and what lab.json says the server ran with.
import { namesrvAddr, type BrokerProcess, type Host, type NamesrvProcess, type Scenario } from './scenario.js';

export type Settings = Record<string, string | number | boolean>;

export function namesrvSettings(p: NamesrvProcess): Settings {
  return { listenPort: 9876, ...p.settings };
}

export function brokerSettings(s: Scenario, host: Host, p: BrokerProcess): Settings {
  return {
    brokerClusterName: s.brokerClusterName ?? 'DefaultCluster',
    brokerName: p.brokerName,
    brokerId: p.brokerId,
    brokerRole: p.brokerId === 0 ? 'ASYNC_MASTER' : 'SLAVE',
    flushDiskType: 'ASYNC_FLUSH',
    namesrvAddr: namesrvAddr(s),
    brokerIP1: host.addr,
    brokerIP2: host.addr,
    listenPort: 10911,
    // Small files so a few brokers fit in memory; the names changed in 4.9 (mapedFile... before).
    mappedFileSizeCommitLog: 16 * 1024 * 1024,
    mapedFileSizeCommitLog: 16 * 1024 * 1024,
    mappedFileSizeConsumeQueue: 60_000,
    mapedFileSizeConsumeQueue: 60_000,
    ...p.settings,
  };
}

/** A local-mode proxy's rmq-proxy.json: the release's (rocketMQClusterName) and the scenario's ProxyConfig settings. */
export function proxySettings(s: Scenario, p: BrokerProcess): Record<string, string | number | boolean> {
  return { rocketMQClusterName: s.brokerClusterName ?? 'DefaultCluster', ...(p.proxySettings ?? {}) };
}
