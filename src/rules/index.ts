// Every rule, in the order `rmq-diag rules` lists them. Ids are a public contract.
import brokerBusy from './broker-busy.js';
import brokerDownDetection from './broker-down-detection.js';
import brokerRegisterFailed from './broker-register-failed.js';
import colocatedNamesrv from './colocated-namesrv.js';
import consumeFailed from './consume-failed.js';
import consumerBacklog from './consumer-backlog.js';
import consumerFlowControl from './consumer-flow-control.js';
import diskFull from './disk-full.js';
import filterRefused from './filter-refused.js';
import namesrvStuck from './namesrv-stuck.js';
import networkPartition from './network-partition.js';
import offsetMoved from './offset-moved.js';
import pagecacheBusy from './pagecache-busy.js';
import pullRefused from './pull-refused.js';
import rebalanceStorm from './rebalance-storm.js';
import retrySameBroker from './retry-same-broker.js';
import sendNoRetry from './send-no-retry.js';
import sendTimeoutBudget from './send-timeout-budget.js';
import serverStopped from './server-stopped.js';
import staleRoute from './stale-route.js';
import storeSync from './store-sync.js';
import subscriptionInconsistent from './subscription-inconsistent.js';
import type { Rule } from './types.js';

export const ALL_RULES: readonly Rule[] = [
  brokerBusy,
  pagecacheBusy,
  staleRoute,
  namesrvStuck,
  brokerDownDetection,
  serverStopped,
  networkPartition,
  colocatedNamesrv,
  sendTimeoutBudget,
  sendNoRetry,
  retrySameBroker,
  brokerRegisterFailed,
  diskFull,
  storeSync,
  consumeFailed,
  pullRefused,
  filterRefused,
  offsetMoved,
  consumerFlowControl,
  subscriptionInconsistent,
  rebalanceStorm,
  consumerBacklog,
];
