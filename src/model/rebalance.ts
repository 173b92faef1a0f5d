// The allocation of a group's queues among its instances, as RebalanceImpl.rebalanceByTopic does it in
// CLUSTERING mode (4.x, 5.x): every instance sorts the queues (MessageQueue.compareTo: topic, broker
// name, queue id) and the client ids (String order), and takes its share by
// AllocateMessageQueueAveragely: with n queues and k instances, the first n % k instances take
// ceil(n / k) queues, the others floor(n / k), in consecutive ranges; an instance past the n-th gets none.

export interface MessageQueue {
  topic: string;
  brokerName: string;
  queueId: number;
}

/** MessageQueue.compareTo: topic, then broker name, then queue id. */
export function compareMessageQueue(a: MessageQueue, b: MessageQueue): number {
  if (a.topic !== b.topic) return a.topic < b.topic ? -1 : 1;
  if (a.brokerName !== b.brokerName) return a.brokerName < b.brokerName ? -1 : 1;
  return a.queueId - b.queueId;
}

/** AllocateMessageQueueAveragely.allocate (the arguments need not be sorted: RebalanceImpl sorts them). */
export function allocateMessageQueueAveragely(mqAll: readonly MessageQueue[], cidAll: readonly string[], currentCID: string): MessageQueue[] {
  const mqs = [...mqAll].sort(compareMessageQueue);
  const cids = [...cidAll].sort();
  const index = cids.indexOf(currentCID);
  // "[BUG] ConsumerId not in cidAll": the instance is not yet (or no longer) in the broker's book.
  if (index < 0 || mqs.length === 0) return [];
  const mod = mqs.length % cids.length;
  const averageSize = mqs.length <= cids.length ? 1 : mod > 0 && index < mod ? Math.floor(mqs.length / cids.length) + 1 : Math.floor(mqs.length / cids.length);
  const startIndex = mod > 0 && index < mod ? index * averageSize : index * averageSize + mod;
  const range = Math.min(averageSize, mqs.length - startIndex);
  const out: MessageQueue[] = [];
  for (let i = 0; i < range; i++) out.push(mqs[(startIndex + i) % mqs.length]);
  return out;
}

/** `TopicOrder@broker-a:0`, the lab's and the reports' name of a queue. */
export function queueName(mq: MessageQueue): string {
  return `${mq.topic}@${mq.brokerName}:${mq.queueId}`;
}
