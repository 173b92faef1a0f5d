// The embedded model of a RocketMQ cluster (see docs/model.md): run a scenario, get the events its
// components' logs would hold, in the parsers' schema, and the metrics of the run.

export { runScenario, autoClientIp, hostStateWord, brokerFaultMs } from './scenario.js';
export { loadIncident, LOAD_INCIDENT_MS } from './load-incident.js';
export { LIMITS, runTasks, topicQueues, type RunTasks } from './limits.js';
export type {
  BootDelays,
  BrokerSummary,
  Fault,
  RunOptions,
  RunResult,
  Scenario,
  ScenarioBroker,
  ScenarioClient,
  ScenarioConsumerGroup,
  ScenarioConsumerInstance,
  ScenarioNameServer,
  ScenarioTopic,
} from './scenario.js';
export type { ClientSettings, LoggedSend, RateStep } from './client.js';
export type { ConsumerGroupMetrics, ConsumerListener, ConsumerSettings } from './consumer.js';
export type { ServiceTime } from './broker.js';
export type { ClientMetrics, NamesrvRemoval, RouteChange } from './metrics.js';
export { Kernel, Priority, AssertionError } from './kernel.js';
export { RandomSource, Rng } from './random.js';
export { clientProfile, serverProfile, parseVersion, type ClientProfile, type ServerProfile } from './versions.js';
