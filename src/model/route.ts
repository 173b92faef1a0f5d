// Route data as the NameServer hands it out and the client caches it, with RocketMQ's toString forms
// (the `route info changed` line prints them, and the parser reads broker names out of them).

export interface QueueData {
  brokerName: string;
  readQueueNums: number;
  writeQueueNums: number;
  /** 6 = read+write, 7 = read+write+inherit (TBW102). */
  perm: number;
}

export interface BrokerData {
  cluster: string;
  brokerName: string;
  /** brokerId -> address; 0 is the master. */
  brokerAddrs: Array<[number, string]>;
}

export interface TopicRouteData {
  queueDatas: QueueData[];
  brokerDatas: BrokerData[];
}

/** What a broker announces for one topic. */
export interface TopicConfig {
  topic: string;
  readQueueNums: number;
  writeQueueNums: number;
  perm: number;
}

/** REGISTER_BROKER body. */
export interface RegisterBrokerBody {
  cluster: string;
  brokerName: string;
  brokerAddr: string;
  brokerId: number;
  haAddr: string;
  topics: TopicConfig[];
}

export const PERM_WRITE = 2;
export const MASTER_ID = 0;
/** The producer's default topic key (createTopicKey), polled beside the application's topics. */
export const DEFAULT_TOPIC = 'TBW102';

export function queueDataText(q: QueueData): string {
  return `QueueData [brokerName=${q.brokerName}, readQueueNums=${q.readQueueNums}, writeQueueNums=${q.writeQueueNums}, perm=${q.perm}, topicSynFlag=0]`;
}

function brokerDataText(b: BrokerData): string {
  const addrs = b.brokerAddrs.map(([id, a]) => `${id}=${a}`).join(', ');
  return `BrokerData [brokerName=${b.brokerName}, brokerAddrs={${addrs}}]`;
}

/** TopicRouteData.toString() as 4.8.0 prints it; `null` for no route. */
export function routeText(r: TopicRouteData | null | undefined): string {
  if (!r) return 'null';
  return `TopicRouteData [orderTopicConf=null, queueDatas=[${r.queueDatas.map(queueDataText).join(', ')}], brokerDatas=[${r.brokerDatas
    .map(brokerDataText)
    .join(', ')}], filterServerTable={}]`;
}

/** The sorted deep-equals RocketMQ uses to decide that a route changed. */
export function sameRoute(a: TopicRouteData | null | undefined, b: TopicRouteData | null | undefined): boolean {
  if (!a || !b) return !a && !b;
  return canonical(a) === canonical(b);
}

function canonical(r: TopicRouteData): string {
  const qs = r.queueDatas.map(queueDataText).sort();
  const bs = r.brokerDatas.map(brokerDataText).sort();
  return `${qs.join('|')}#${bs.join('|')}`;
}

export function brokerNames(r: TopicRouteData | null | undefined): string[] {
  if (!r) return [];
  return r.brokerDatas.map((b) => b.brokerName);
}
