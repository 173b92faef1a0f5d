// What an application-log event means for the application: a send it lost. Read by replay (the
// failed sends per client) and by the HTML report of analyze (sends per time bucket), so it lives
// with the events, below both.
import type { RmqEvent } from './types.js';

/** What the application receives when a send fails (the types an application log shows). */
const FAILURE_TYPES = new Set(['send-call-timeout', 'send-failed', 'busy-reply', 'no-route']);
/**
 * What a one-attempt send (selector, explicit queue) or an ASYNC send's callback throws to the
 * application as it is. A broker's refusal with a code the retry loop retries (SERVICE_NOT_AVAILABLE
 * 14 for a full disk: DefaultMQProducer.retryResponseCodes) reaches the application as it is only
 * there: through sendDefaultImpl it comes wrapped in `Send [N] times, still failed` (send-failed);
 * an async send's callback gets the broker's reply unretried (MQClientAPIImpl.sendMessageAsync, 4.x-5.x).
 */
const ONE_ATTEMPT_TYPES = new Set(['connect-failed', 'rpc-timeout', 'send-request-failed', 'disk-full']);

/** Whether an application-log event is a send the application lost. */
export function isAppFailure(e: RmqEvent): boolean {
  return FAILURE_TYPES.has(e.type) || (ONE_ATTEMPT_TYPES.has(e.type) && (e.sendPath === 'select' || e.sendPath === 'queue' || e.sendPath === 'async'));
}
