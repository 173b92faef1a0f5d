// What a `route-changed` event means for a producer: the brokers it writes to before and after.
// A producer writes only to brokers with a master address and writable queues
// (MQClientInstance.topicRouteData2TopicPublishInfo, 4.x and 5.x), so a broker whose master left
// the route is gone for it although its slave is still listed. The parser gives those lists as
// `writableBefore` / `writableAfter`; where a cut line shows no BrokerData they are null and the
// listed broker names stand in.
import type { RmqEvent } from './types.js';

function list(e: RmqEvent, writable: string, listed: string): string[] | null {
  const w = e.fields[writable];
  if (Array.isArray(w)) return w;
  const l = e.fields[listed];
  return Array.isArray(l) ? l : null;
}

/** Brokers the producer wrote to before the change (null: not a route-changed event). */
export function writableBefore(e: RmqEvent): string[] | null {
  return list(e, 'writableBefore', 'brokersBefore');
}

/** Brokers the producer writes to after the change. */
export function writableAfter(e: RmqEvent): string[] | null {
  return list(e, 'writableAfter', 'brokersAfter');
}

/** Brokers the change took away from the producer, and those it gave (back). */
export function routeDelta(e: RmqEvent): { lost: string[]; gained: string[] } {
  const before = writableBefore(e) ?? [];
  const after = writableAfter(e) ?? [];
  return { lost: before.filter((b) => !after.includes(b)), gained: after.filter((b) => !before.includes(b)) };
}

/**
 * The BrokerData items of a TopicRouteData.toString(): each broker name with its addresses by
 * brokerId (0 is the master, MixAll.MASTER_ID). `BrokerData [brokerName=b, brokerAddrs={0=ip:port,
 * 1=ip:port}, ...]` in 4.x and 5.x; fields printed before brokerName (a `cluster=`) are skipped.
 * The one reading of those items: the parser's writable brokers, the routing rules' address book and
 * inference's brokers all ask it.
 */
export function brokerDatas(text: string): Array<{ name: string; addrs: Array<{ id: string; addr: string }> }> {
  const out: Array<{ name: string; addrs: Array<{ id: string; addr: string }> }> = [];
  for (const m of text.matchAll(/BrokerData \[[^\]]*?brokerName=([^,\]\s]+), brokerAddrs=\{([^}]*)\}/g)) {
    const addrs: Array<{ id: string; addr: string }> = [];
    for (const part of m[2].split(/,\s*/)) {
      const eq = part.indexOf('=');
      if (eq > 0) addrs.push({ id: part.slice(0, eq).trim(), addr: part.slice(eq + 1).trim() });
    }
    out.push({ name: m[1], addrs });
  }
  return out;
}
