// The size of a scenario the model runs in bounded time and memory. The scenario file's check
// (src/replay/file.ts) rejects a value past them, and the inference (src/diagnosis) keeps within them
// what it reads for a run (a client's logged send times).

/**
 * What the model runs in bounded time and memory (docs/replay.md, "Limits"). A value past these is a
 * mistake or damage (a send rate of 1e308, a fault a century away), rejected with the field's name.
 */
export const LIMITS = {
  nameServers: 64,
  brokers: 1000,
  topics: 10000,
  clients: 10000,
  faults: 10000,
  /** Sends per second of one client, and of the producers outside the scenario in an overload. */
  sendRatePerSec: 10000,
  /** Logged send times of one client. */
  sendTimes: 1_000_000,
  /** Sends of one run in all (rates over the run's length, and the logged send times). */
  sendsPerRun: 5_000_000,
  queues: 1024,
  threads: 1024,
  queueCapacity: 10_000_000,
  retryTimesWhenSendFailed: 100,
  /** Timeouts, periods and service times (settings), ms. */
  settingMs: 86_400_000,
  /** Times and lengths in model time (atMs, startAtMs, durations), ms: ten years. */
  modelMs: 315_360_000_000,
  /** The run's start: epoch ms up to 2100-01-01 (a later year is a damaged line). */
  epochMs: 4_102_444_800_000,
} as const;
