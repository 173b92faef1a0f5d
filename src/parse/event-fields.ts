// The fields of every event type: their names, the kinds of value each may hold, and which ones only
// some entries print. The one home of the `--json` field contract: catalogue.ts's EVENT_FIELDS (the
// names) and events-check.ts's FIELD_TYPES (the kinds) are read from this table, and a test holds
// docs/events.md's tables equal to it (test/timeline/events-check.test.ts).

import type { EventFields, EventType, FieldValue } from './types.js';

/** What a value may be, as docs/events.md writes a field's type. */
export type FieldKind = 'string' | 'number' | 'boolean' | 'string[]' | 'null';

/** One field: the kinds its value may be; `optional`: only some entries print it (else every event of the type carries it, null when unknown). */
export interface FieldSpec {
  kinds: readonly FieldKind[];
  optional?: true;
}

const S: FieldSpec = { kinds: ['string'] };
const SN: FieldSpec = { kinds: ['string', 'null'] };
const N: FieldSpec = { kinds: ['number'] };
const NN: FieldSpec = { kinds: ['number', 'null'] };
const L: FieldSpec = { kinds: ['string[]'] };
const LN: FieldSpec = { kinds: ['string[]', 'null'] };
const B: FieldSpec = { kinds: ['boolean'] };
const BN: FieldSpec = { kinds: ['boolean', 'null'] };
const opt = (f: FieldSpec): FieldSpec => ({ ...f, optional: true });

/** A consumer's queue as printed by MessageQueue.toString() (4.x and 5.x): `MessageQueue [topic=T, brokerName=B, queueId=N]`. */
const QUEUE = { topic: SN, brokerName: SN, queueId: NN } as const;

/** Every event type's fields, in the order docs/events.md lists them ('other': none). */
export const EVENT_FIELD_TABLE: Readonly<Record<Exclude<EventType, 'other'>, Readonly<Record<string, FieldSpec>>>> = {
  'busy-reply': { reason: S, waitMs: NN, queueSize: NN, code: NN, brokerAddr: SN },
  'send-attempt-failed': { invokeId: SN, rtMs: NN, topic: SN, brokerName: SN, queueId: NN, cause: SN, attempt: opt(NN), maxAttempts: opt(NN), endpoints: opt(SN) },
  'send-failed': { attempts: N, costMs: N, topic: SN, brokersSent: L },
  'send-call-timeout': { api: SN },
  'send-async-retry': { times: NN, topic: SN, brokerAddr: SN, brokerName: SN },
  'rpc-timeout': { addr: SN, timeoutMs: NN },
  'async-timeout': { addr: SN, timeoutMs: NN, opaque: NN, callback: SN, beginMs: NN },
  'late-response': { addr: SN },
  'send-request-failed': { addr: SN },
  'connect-failed': { addr: SN, addrs: L },
  'channel-closed': { addr: SN, reason: S, result: BN },
  'namesrv-chosen': { old: SN, new: SN, namesrvIndex: N },
  'namesrv-list': { addrs: L, old: SN },
  'route-update-failed': { topic: SN, cause: SN, addr: SN },
  'route-changed': { topic: SN, brokersBefore: L, brokersAfter: L, writableBefore: LN, writableAfter: LN },
  'no-route': { topic: SN },
  'broker-registered': { brokerName: SN, brokerAddr: SN, namesrvAddr: SN, brokerId: NN, haAddr: SN },
  'broker-expired': { brokerAddr: SN, idleMs: NN },
  'broker-removed': { brokerName: SN, brokerAddr: SN, reason: S },
  watermark: { queue: SN, size: NN, slowMs: NN },
  'store-slow': { costMs: NN, what: S, bodyLength: NN, totalPut: opt(N), slowPuts: opt(N) },
  pipeline: { side: S, event: S, addr: SN },
  startup: { role: S, version: SN, group: SN, brokerName: SN, brokerAddr: SN },
  shutdown: { role: S, version: { kinds: ['null'] } },
  'heartbeat-failed': { brokerName: SN, brokerId: NN, brokerAddr: SN },
  'register-failed': { namesrvAddr: SN },
  'disk-full': { ratio: NN, code: NN, brokerAddr: opt(SN) },
  'disk-ok': { ratio: NN, store: SN },
  'broker-jstack': {},
  'store-sync': { status: S, topic: SN, brokerName: SN, queueId: NN, addr: SN, intervalMs: NN, behindBytes: NN },
  stats: { stat: S, key: S, window: S, sum: N, tps: N, avgpt: N, times: opt(N) },
  // ---- the consumer side ----
  'consume-failed': { returnType: S, group: SN, ...QUEUE, msgIds: L, reconsumeTimes: NN, cause: SN },
  'send-back-failed': { group: SN, topic: SN, msgId: SN, reconsumeTimes: NN, cause: SN },
  'send-to-dlq': { group: SN, topic: SN, msgId: SN, stored: B },
  'pop-revive': { retryTopic: SN },
  'pull-failed': { reason: SN, code: NN, group: SN, ...QUEUE, addr: SN, cause: SN, expressionType: opt(SN) },
  'flow-control': { limit: S, litePull: opt(B), threshold: NN, count: NN, sizeMiB: NN, maxSpan: NN, group: SN, ...QUEUE, flowControlTimes: NN },
  rebalance: { action: S, group: SN, ...QUEUE, clientId: SN, mqAllSize: NN, cidAllSize: NN, queues: LN },
  'lock-failed': { what: S, group: SN, clientId: SN, ...QUEUE, cause: SN },
  'offset-illegal': { status: S, group: SN, ...QUEUE, offset: NN, nextBeginOffset: NN, minOffset: NN, maxOffset: NN, addr: SN },
  'offset-reset': { why: S, group: SN, ...QUEUE, offset: NN },
  'offset-commit': { ok: B, group: SN, clientId: SN, ...QUEUE, offset: NN, cause: SN },
  'consumer-changed': { change: S, group: SN, clientId: SN, addr: SN, topic: SN, subString: SN, oldSubString: SN, messageModel: opt(SN), retryMaxTimes: opt(NN), channelActive: opt(BN) },
  // ---- a broker set's master elections: DLedger, 5.x controller mode ----
  dledger: { event: S, member: SN, term: NN, leader: SN, peer: SN, result: SN, group: SN },
  controller: { event: S, brokerName: SN, brokerId: NN, masterId: NN, masterAddr: SN, epoch: NN },
};

/** Field names per event type (catalogue.ts's EVENT_FIELDS): `required` ones every event carries, `optional` ones some do. */
export function fieldNames(t: EventType): { required: readonly string[]; optional?: readonly string[] } {
  if (t === 'other') return { required: [] };
  const fields = Object.entries(EVENT_FIELD_TABLE[t]);
  const optional = fields.filter(([, f]) => f.optional).map(([n]) => n);
  return { required: fields.filter(([, f]) => !f.optional).map(([n]) => n), ...(optional.length > 0 ? { optional } : {}) };
}

/**
 * An event's fields in the table's order: each required field from `given`, else null (a list: `[]`);
 * an optional one only when given. So every entry of a type gives the same keys in the same order.
 */
export function eventFields<T extends Exclude<EventType, 'other'>>(t: T, given: Readonly<Record<string, FieldValue | undefined>>): EventFields {
  const out: EventFields = {};
  for (const [name, spec] of Object.entries(EVENT_FIELD_TABLE[t])) {
    const v = given[name];
    if (v !== undefined) out[name] = v;
    else if (!spec.optional) out[name] = spec.kinds.includes('null') ? null : spec.kinds[0] === 'string[]' ? [] : null;
  }
  return out;
}
