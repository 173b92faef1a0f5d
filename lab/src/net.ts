// The lab's hosts: one Linux network namespace per host, joined by a bridge in the root namespace.
// Each host has its own address, so NameServers and brokers keep their real ports and the logs show
// real addresses. These are test hosts on this machine only (10.213.0.0/24).
import { execFileSync } from 'node:child_process';

export const BRIDGE = 'rmqlab0';
export const BRIDGE_ADDR = '10.213.0.1';
const PREFIX = 'rmqlab-';

function ip(args: string[], allowFail = false): string {
  try {
    return execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    if (allowFail) return '';
    const err = e as { stderr?: string; message: string };
    throw new Error(`ip ${args.join(' ')}: ${(err.stderr ?? err.message).trim()}`);
  }
}

export function namespaceOf(host: string): string {
  return PREFIX + host;
}

// Interface names are limited to 15 characters, so the root side is named by the address.
function vethOf(addr: string): string {
  return `rl${addr.split('.')[3]}`;
}

// A rebooted machine keeps its NIC: the same MAC, so peers' ARP entries stay valid.
function macOf(addr: string): string {
  const last = Number(addr.split('.')[3]).toString(16).padStart(2, '0');
  return `02:52:0a:d5:00:${last}`;
}

export function createBridge(): void {
  ip(['link', 'add', BRIDGE, 'type', 'bridge']);
  ip(['addr', 'add', `${BRIDGE_ADDR}/24`, 'dev', BRIDGE]);
  ip(['link', 'set', BRIDGE, 'up']);
}

/** Creates the host's namespace with its address; the link is up unless `linkUp` is false. */
export function createHost(host: string, addr: string, linkUp = true): void {
  const ns = namespaceOf(host);
  const veth = vethOf(addr);
  ip(['netns', 'add', ns]);
  ip(['link', 'add', veth, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', ns]);
  ip(['-n', ns, 'link', 'set', 'eth0', 'address', macOf(addr)]);
  ip(['-n', ns, 'addr', 'add', `${addr}/24`, 'dev', 'eth0']);
  ip(['-n', ns, 'link', 'set', 'lo', 'up']);
  ip(['-n', ns, 'link', 'set', 'eth0', 'up']);
  ip(['-n', ns, 'route', 'add', 'default', 'via', BRIDGE_ADDR]);
  ip(['link', 'set', veth, 'master', BRIDGE]);
  if (linkUp) ip(['link', 'set', veth, 'up']);
}

/** The host's cable: down, nothing reaches it and nothing leaves it. */
export function setLink(addr: string, up: boolean): void {
  ip(['link', 'set', vethOf(addr), up ? 'up' : 'down']);
}

/**
 * Forgets every socket of the host, as a reboot does: the namespace (and with it every TCP state)
 * is destroyed and made again with the same address and MAC, its link still down. Peers that send
 * to it after the link comes back get resets, never a FIN.
 */
export function wipeHost(host: string, addr: string): void {
  ip(['netns', 'del', namespaceOf(host)]);
  ip(['link', 'del', vethOf(addr)], true);
  createHost(host, addr, false);
}

// A partition is a table of the nftables `bridge` family on the lab's bridge: the switch between the
// hosts drops every frame from one group's addresses to the other's, both ways, and answers nothing
// (no RST, no ICMP), as a cut link between two switches would. It lives in the root namespace, so a
// host rebooted meanwhile (its namespace made again) stays cut off.
const NFT_TABLE = 'rmqlab-partition-';

function nft(args: string[], allowFail = false): string {
  try {
    return execFileSync('nft', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    if (allowFail) return '';
    const err = e as { stderr?: string; message: string };
    throw new Error(`nft ${args.join(' ')}: ${(err.stderr ?? err.message).trim()}`);
  }
}

/** Drops every packet between the two groups of addresses, both ways, until `heal(id)`. */
export function partition(id: number, a: string[], b: string[]): void {
  const table = `${NFT_TABLE}${id}`;
  const set = (addrs: string[]) => `{ ${addrs.join(', ')} }`;
  nft(['add', 'table', 'bridge', table]);
  nft(['add', 'chain', 'bridge', table, 'forward', '{ type filter hook forward priority 0; policy accept; }']);
  nft(['add', 'rule', 'bridge', table, 'forward', 'ip', 'saddr', set(a), 'ip', 'daddr', set(b), 'drop']);
  nft(['add', 'rule', 'bridge', table, 'forward', 'ip', 'saddr', set(b), 'ip', 'daddr', set(a), 'drop']);
}

export function heal(id: number): void {
  nft(['delete', 'table', 'bridge', `${NFT_TABLE}${id}`], true);
}

function removePartitions(): string[] {
  const gone: string[] = [];
  for (const line of nft(['list', 'tables', 'bridge'], true).split('\n')) {
    const table = /^table bridge (\S+)/.exec(line.trim())?.[1];
    if (table?.startsWith(NFT_TABLE)) {
      nft(['delete', 'table', 'bridge', table], true);
      gone.push(`nft ${table}`);
    }
  }
  return gone;
}

/** Why the lab cannot cut the network between hosts here (a partition fault), or null. */
export function partitionProblem(): string | null {
  try {
    execFileSync('nft', ['--version'], { stdio: 'ignore' });
  } catch {
    return 'a partition fault needs the nftables `nft` command (apt-get install nftables)';
  }
  return null;
}

/** Removes every namespace, partition and the bridge the lab made, also those a killed run left behind. */
export function removeAll(): string[] {
  const removed: string[] = removePartitions();
  for (const line of ip(['netns', 'list'], true).split('\n')) {
    const ns = line.split(' ')[0];
    if (ns.startsWith(PREFIX)) {
      ip(['netns', 'del', ns], true);
      removed.push(ns);
    }
  }
  for (const line of ip(['-o', 'link', 'show'], true).split('\n')) {
    const name = /^\d+: ([^:@]+)/.exec(line)?.[1];
    if (name && /^rl\d+$/.test(name)) ip(['link', 'del', name], true);
  }
  if (ip(['link', 'show', BRIDGE], true)) {
    ip(['link', 'del', BRIDGE], true);
    removed.push(BRIDGE);
  }
  return removed;
}

/** Why the lab cannot make hosts here, or null. */
export function networkProblem(): string | null {
  if (process.getuid?.() !== 0) return 'the lab makes network namespaces and needs root';
  try {
    execFileSync('ip', ['netns', 'list'], { stdio: 'ignore' });
  } catch {
    return "the lab needs iproute2's `ip` command (apt-get install iproute2)";
  }
  return null;
}
