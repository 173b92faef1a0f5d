// What a run measured, beside its events: per client send outcomes and route changes, per NameServer
// registrations and removals. Times are model milliseconds (since the start of the run).

export interface RouteChange {
  atMs: number;
  topic: string;
  brokersBefore: string[];
  brokersAfter: string[];
}

export interface ClientMetrics {
  /** Client name (its host). */
  client: string;
  version: string;
  /** Sends issued by the application. */
  sends: number;
  okSends: number;
  /** Sends the application did not make: they came while every one of its sendThreads was in a send (ClientConfig.sendThreads). */
  shedSends: number;
  /** Sends that threw to the application. */
  failedSends: number;
  /** Of those, `sendDefaultImpl call timeout` / `sendSelectImpl call timeout`. */
  sendCallTimeouts: number;
  /** invokeSync calls that timed out (sends, route polls, heartbeats). */
  timeouts: number;
  routeUpdateFailures: number;
  /** Send attempts that failed inside the retry loop (each `sendKernelImpl exception, resend at once`). */
  failedAttempts: number;
  firstFailedSendAtMs: number | null;
  lastFailedSendAtMs: number | null;
  /** lastFailedSendAtMs - firstFailedSendAtMs (0 without failures). */
  outageMs: number;
  /** Every `new name server is chosen` (the first one is the binding). */
  namesrvChosen: Array<{ atMs: number; addr: string; namesrvIndex: number }>;
  routeChanges: RouteChange[];
}

export interface NamesrvRemoval {
  atMs: number;
  namesrv: string;
  brokerAddr: string;
  brokerName: string;
  /** `idle` (Netty idle close), `expired` (scanNotActiveBroker), `closed` (the broker's channel closed or reset). */
  reason: 'idle' | 'expired' | 'closed';
}

interface NamesrvRegistration {
  atMs: number;
  namesrv: string;
  brokerAddr: string;
}

export class Recorder {
  readonly clients = new Map<string, ClientMetrics>();
  readonly removals: NamesrvRemoval[] = [];
  readonly registrations: NamesrvRegistration[] = [];

  client(name: string, version: string): ClientMetrics {
    let m = this.clients.get(name);
    if (m === undefined) {
      m = {
        client: name,
        version,
        sends: 0,
        okSends: 0,
        shedSends: 0,
        failedSends: 0,
        sendCallTimeouts: 0,
        timeouts: 0,
        routeUpdateFailures: 0,
        failedAttempts: 0,
        firstFailedSendAtMs: null,
        lastFailedSendAtMs: null,
        outageMs: 0,
        namesrvChosen: [],
        routeChanges: [],
      };
      this.clients.set(name, m);
    }
    return m;
  }

  sendFailed(m: ClientMetrics, atMs: number): void {
    m.failedSends++;
    if (m.firstFailedSendAtMs === null) m.firstFailedSendAtMs = atMs;
    m.lastFailedSendAtMs = atMs;
    m.outageMs = atMs - m.firstFailedSendAtMs;
  }
}
