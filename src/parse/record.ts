// What the events of one record are, given its lines: the rules both the parser (line by line, as
// it reads a file) and the model (a whole record, as it writes one) follow, so that a simulated log
// gives exactly the events that parsing the real one would.
// - One occurrence per record and type: a `Caused by:` chain repeats the same message, and a wrapper
//   line (`updateTopicRouteInfoFromNameServer Exception`) is completed by the exception under it.
// - An entry marked "cause from next lines" takes its cause (and addr) from the exception under it.
// - A failed send's stack says which DefaultMQProducerImpl method it went through.

import { addrFromCause, type CatalogueMatch } from './catalogue.js';
import type { EventFields, RmqEvent } from './types.js';

/** An exception class (and message) anywhere in a line, as Throwable.toString() prints it. */
const EXCEPTION_ANYWHERE = /(?:^|\s|: )((?:[A-Za-z_$][\w$]*\.)+([A-Za-z_$][\w$]*(?:Exception|Error)))(?::\s*(.*))?$/;

/**
 * Fills ev's cause from a continuation line of its record, when the line names an exception:
 * `filled`; a `Message{...}` dump (printed between the warning and its exception) leaves it
 * waiting: `wait`; any other line ends the wait: `none`.
 */
export function fillCause(ev: RmqEvent, raw: string): 'filled' | 'wait' | 'none' {
  const t = raw.trim();
  const m = EXCEPTION_ANYWHERE.exec(t.startsWith('Caused by: ') ? t.slice(11) : t);
  if (m && !t.startsWith('at ')) {
    ev.fields.cause = m[3] !== undefined ? `${m[2]}: ${m[3]}` : m[2];
    if ('addr' in ev.fields && ev.fields.addr == null) ev.fields.addr = addrFromCause(t);
    return 'filled';
  }
  return t.startsWith('Message{') ? 'wait' : 'none';
}

/** Same event told twice: no field has two different non-null values. */
export function compatibleFields(a: EventFields, b: EventFields): boolean {
  for (const k of Object.keys(b)) {
    const x = a[k];
    const y = b[k];
    if (x == null || y == null || k === 'cause') continue;
    if (Array.isArray(x) && Array.isArray(y)) {
      if (x.join('\u0000') !== y.join('\u0000')) return false;
    } else if (x !== y) return false;
  }
  return true;
}

/** When the record already has this event, fills the fields it lacks from the hit and returns true. */
export function mergeIntoRecord(events: readonly RmqEvent[], hit: CatalogueMatch): boolean {
  for (const e of events) {
    if (e.type === hit.type && compatibleFields(e.fields, hit.fields)) {
      for (const [k, v] of Object.entries(hit.fields)) if (e.fields[k] == null && v != null) e.fields[k] = v;
      return true;
    }
  }
  return false;
}

/** The client's impl package: the frames a send's stack is read from (framePath). */
export const CLIENT_IMPL = 'org.apache.rocketmq.client.impl.';
export const PRODUCER_IMPL = 'org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.';
/**
 * Which send method of DefaultMQProducerImpl (4.x and 5.x) a failure went through, from the frames
 * of its stack, innermost first: sendKernelImpl makes one attempt; its caller tells whether a retry
 * loop was around it: sendDefaultImpl (the retry loop), sendSelectImpl (a MessageQueueSelector, one
 * attempt), or send(msg, mq) (an explicit queue, one attempt).
 */
export function sendPathOf(method: string, seen: RmqEvent['sendPath'] | 'kernel' | undefined): RmqEvent['sendPath'] | 'kernel' | undefined {
  if (method === 'sendKernelImpl') return seen ?? 'kernel';
  if (method === 'sendDefaultImpl') return 'default';
  if (method === 'sendSelectImpl') return 'select';
  // `send(Message, MessageQueue, ...)` calls sendKernelImpl itself; other callers (send -> sendDefaultImpl) come later.
  if (method === 'send' && seen === 'kernel') return 'queue';
  return seen;
}

/** MQClientAPIImpl and its anonymous classes (sendMessageAsync's InvokeCallback among them). */
const API_IMPL = 'org.apache.rocketmq.client.impl.MQClientAPIImpl';
/**
 * sendMessageAsync's InvokeCallback: the first anonymous class of MQClientAPIImpl in every release
 * (4.3.0-5.3.3), so `MQClientAPIImpl$1` is an ASYNC send's where a ResponseFuture names its callback
 * (`remove timeout request, ResponseFuture [... invokeCallback=...MQClientAPIImpl$1@...]`, 4.x; 5.x
 * prints NettyRemotingClient's wrapper instead).
 */
export function isSendCallbackClass(cls: unknown): boolean {
  return cls === `${API_IMPL}$1`;
}

/** Its methods that only a send goes through. */
const API_SEND_METHOD = /^\.(processSendResponse|sendMessageAsync|sendMessageSync|sendMessage)\(/;
/** An InvokeCallback's method: `operationComplete` in 4.x, `operationSucceed`/`operationFail` in 5.x. */
const API_CALLBACK = /^\$\d+\.operation(Complete|Succeed|Fail)\(/;

/**
 * What a stack has shown so far of the send it came from: sendPathOf's, `api` for a send method of
 * MQClientAPIImpl, `callback` for an InvokeCallback of MQClientAPIImpl as the innermost client frame,
 * `other` for another method of MQClientAPIImpl first (processPullResponse: no send).
 */
export type FramesSeen = RmqEvent['sendPath'] | 'kernel' | 'api' | 'callback' | 'other' | undefined;

/** Whether more frames can still change what a stack says of its send (framePath). */
export function pathOpen(seen: FramesSeen): boolean {
  return seen !== 'default' && seen !== 'select' && seen !== 'queue' && seen !== 'async';
}

/**
 * The send path after one more frame (`raw` from `at`, after `at `), innermost first. Besides
 * DefaultMQProducerImpl's methods (sendPathOf): an ASYNC send's response callback, a send method of
 * MQClientAPIImpl (processSendResponse, sendMessageAsync) and then its InvokeCallback with no
 * DefaultMQProducerImpl frame between (MQClientAPIImpl.sendMessageAsync, 4.x-5.x: it runs on a
 * callback thread). What that callback throws to the application is final: a broker's error reply is
 * not retried there (onExceptionImpl with needRetry=false), a timeout or an unsent request only
 * after retryTimesWhenSendAsyncFailed retries.
 */
export function framePath(raw: string, at: number, seen: FramesSeen): FramesSeen {
  if (!pathOpen(seen)) return seen;
  if (raw.startsWith(PRODUCER_IMPL, at)) return sendPathOf(raw.slice(at + PRODUCER_IMPL.length, raw.indexOf('(', at)), seen === 'kernel' ? seen : undefined);
  if (!raw.startsWith(API_IMPL, at)) return seen;
  const rest = raw.slice(at + API_IMPL.length, at + API_IMPL.length + 40);
  if (seen === 'api') return API_CALLBACK.test(rest) ? 'async' : seen;
  // 5.x makes a failed async send's exception in the callback itself (operationFail: `wait response
  // timeout, cost=`): no send method below it.
  if (seen === undefined) return API_SEND_METHOD.test(rest) ? 'api' : API_CALLBACK.test(rest) ? 'callback' : 'other';
  return seen;
}

/**
 * The path a record's events carry: a finished one (not the states on the way). A callback of
 * MQClientAPIImpl at the top of an application's stack is its SendCallback's (the pull callbacks
 * are the client's own, logged in its log; an application's own PullCallback, DefaultMQPullConsumer's,
 * is long deprecated); in the client's log it says nothing.
 */
export function finishedPath(seen: FramesSeen, app: boolean): RmqEvent['sendPath'] | undefined {
  if (seen === 'callback') return app ? 'async' : undefined;
  return seen === 'kernel' || seen === 'api' || seen === 'other' ? undefined : seen;
}

/** The send path of a printed stack (lines with their `at ` frames) of an application's log, for writers of simulated logs. */
export function stackSendPath(lines: readonly string[]): RmqEvent['sendPath'] | undefined {
  let seen: FramesSeen;
  for (const l of lines) {
    const at = l.indexOf(`at ${CLIENT_IMPL}`);
    if (at < 0) continue;
    seen = framePath(l, at + 3, seen);
    if (seen !== 'callback' && finishedPath(seen, true) !== undefined) return finishedPath(seen, true);
  }
  return finishedPath(seen, true);
}
