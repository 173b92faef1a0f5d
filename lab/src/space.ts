// The space generated incidents are drawn from (`npm run lab -- generate`), declared as data.
// docs/lab.md lists it; every value here is one the lab runs (the versions were resolved from Maven
// Central and started in the lab; those that failed are named in docs/lab.md with the reason).
import { CONSUMER_FAULT_KINDS, FAULT_KINDS } from './scenario.js';

/** `null` in a list of setting values: the setting is not given, so the client runs its release default. */
export const SPACE = {
  /** Server releases (NameServers and brokers run the same one) that resolve from Maven Central and boot in the lab. */
  serverVersions: [
    '4.6.0', '4.6.1', '4.7.0', '4.7.1', '4.8.0', '4.9.0', '4.9.1', '4.9.2', '4.9.3', '4.9.4', '4.9.5', '4.9.7',
    '5.0.0', '5.1.0', '5.1.1', '5.1.4', '5.2.0', '5.3.3', '5.4.0', '5.5.0',
  ],
  /** Client releases (per application) that resolve and compile against the lab's producer. */
  clientVersions: [
    '4.5.0', '4.5.1', '4.5.2', '4.6.0', '4.6.1', '4.7.0', '4.7.1', '4.8.0', '4.9.0', '4.9.1', '4.9.2', '4.9.3', '4.9.4',
    '4.9.5', '4.9.6', '4.9.7', '4.9.8', '5.0.0', '5.1.0', '5.1.1', '5.1.2', '5.1.3', '5.1.4', '5.2.0', '5.3.0', '5.3.1',
    '5.3.2', '5.3.3',
  ],
  topology: {
    namesrvs: [1, 2, 3],
    /** NameServers on hosts of their own, or beside the first masters (at most one per master). */
    namesrvPlacement: ['own-hosts', 'beside-brokers'],
    masters: [2, 3],
    /** Every master with a slave (brokerId 1, on a host of its own), or none. */
    slaves: [false, true],
    applications: [1, 2, 3, 4],
    /** The business topic's queues on every master. */
    queues: [2, 4],
  },
  client: {
    sendLatencyFaultEnable: [null, false, true],
    retryTimesWhenSendFailed: [null, 0, 1, 2, 3],
    sendMsgTimeout: [null, 1000, 2000, 3000, 5000],
    /** -Dcom.rocketmq.remoting.client.closeSocketIfTimeout; only drawn for 4.9.1+ clients (earlier ones do not read it). */
    closeSocketIfTimeout: [null, true, false],
    pollNameServerInterval: [null, 10_000, 30_000, 60_000],
    async: [false, false, true],
    /** A MessageQueueSelector that always picks one queue index (the share of applications drawn with one). */
    selector: [false, false, false, true],
    /** Sends per second: low, so a recording stays well under 2 MB gzipped. */
    rate: [1, 2, 3, 5],
    threads: [2, 4, 8],
  },
  faults: {
    count: [1, 2, 3],
    kinds: FAULT_KINDS,
    /** A later fault starts inside an earlier one's window (overlapping) or after it ends (apart). */
    timing: ['apart', 'overlapping'],
    /** Seconds between one fault's end and the next fault's start when apart. */
    gapSeconds: [5, 15, 30],
    hang: { seconds: [2, 20, 45, 90, 150] },
    /** A hang may end in a power-cycle of the hung host (a reboot at the hang's end). */
    hangThenReboot: [false, false, true],
    reboot: { downSeconds: [15, 30, 60], bootSeconds: [5, 15, 30] },
    /** null: the crashed servers stay down to the end of the recording. */
    crash: { downSeconds: [30, 60, 90, null] },
    restart: { downSeconds: [5, 15, 30] },
    /** An uncollected batch job floods one master while its host is held to a share of one CPU. */
    overload: { seconds: [30, 45], cpuQuota: [0.03, 0.05, 0.1], loadRate: [1500, 3000], batchRate: 20 },
    'disk-full': { seconds: [30, 60, 90] },
    /**
     * Packets dropped both ways between one server host and: every other host (isolated), the
     * NameServers (from-namesrvs: the host cannot register, clients still reach it), or the
     * applications (from-clients: NameServers keep it in the routes, no client reaches it).
     */
    partition: { seconds: [20, 45, 90, 150], shapes: ['isolated', 'from-namesrvs', 'from-clients'] },
  },
  /**
   * Consumer groups of the business topic. They are drawn from a stream of their own (the seed's
   * second stream, generate.ts), after everything above: a seed's servers, producers and server
   * faults are those it drew before consumers were part of the space.
   */
  consumers: {
    groups: [0, 1, 1, 2],
    instances: [1, 2, 3],
    /** remoting clients only: a gRPC consumer needs a broker in a local-mode proxy, which the generated topology has not. */
    mode: ['concurrently', 'concurrently', 'concurrently', 'orderly', 'litePull'],
    messageModel: ['CLUSTERING', 'CLUSTERING', 'CLUSTERING', 'BROADCASTING'],
    /** consumeThreadMin and consumeThreadMax alike (null: the client's 20 and 20). */
    consumeThreads: [null, 1, 2, 4],
    pullThresholdForQueue: [null, 20, 100],
    maxReconsumeTimes: [null, 1, 2, 3],
    /** The listener's milliseconds a message from the start. */
    processMs: [5, 20, 100, 250],
    /** An instance that joins the group later (a `consumer-start`), in the share of groups drawn with one. */
    joinsLater: [false, false, true],
    /** The subscription a late instance starts with: the group's, or a tag no producer sends (`TagX`). */
    lateSubscription: [null, null, 'TagX'],
    faults: {
      count: [0, 1, 1, 2],
      kinds: CONSUMER_FAULT_KINDS.filter((k) => k !== 'consumer-start'),
      down: { downSeconds: [null, 20, 60] },
      slowdown: { seconds: [30, 60, 90], processMs: [500, 1500] },
      /** [laterShare, throwShare] */
      'consume-failures': { seconds: [30, 60], shares: [[0.3, 0], [0, 0.3], [0.4, 0.3]] },
      'listener-block': { seconds: [20, 45] },
      'reset-offset': { backSeconds: [30, 60] },
    },
  },
  timing: {
    settleSeconds: [45, 60, 75],
    tailSeconds: [30, 45, 60],
  },
} as const;

export type PartitionShape = (typeof SPACE.faults.partition.shapes)[number];
