// The client settings each lab application ran with: the scenario's value where it gives one, else
// the default of that client release, read from the Apache RocketMQ source of the release.
import { compareVersions, type ProducerProcess } from './scenario.js';

/** The system property that 4.9.1+ and 5.x clients read for NettyClientConfig.clientCloseSocketIfTimeout. */
export const CLOSE_SOCKET_IF_TIMEOUT = 'com.rocketmq.remoting.client.closeSocketIfTimeout';
/** The system property that 5.1.4+ clients read for ClientConfig.sendLatencyFaultEnable. */
export const SEND_LATENCY_ENABLE = 'com.rocketmq.sendLatencyEnable';

/** Every client setting the generated space varies, as the application's client ran with it. */
export interface ClientRanWith {
  sendMsgTimeout: number;
  retryTimesWhenSendFailed: number;
  /** LabProducer never sets it: every asynchronous application ran the release's default. */
  retryTimesWhenSendAsyncFailed: number;
  sendLatencyFaultEnable: boolean;
  pollNameServerInterval: number;
  heartbeatBrokerInterval: number;
  closeSocketIfTimeout: boolean;
}

/** Where each default was read, for lab.json's readers. */
export const CLIENT_DEFAULTS_FROM: Record<keyof ClientRanWith, string> = {
  sendMsgTimeout: 'DefaultMQProducer.sendMsgTimeout = 3000 (4.5.0-5.3.3)',
  retryTimesWhenSendFailed: 'DefaultMQProducer.retryTimesWhenSendFailed = 2 (4.5.0-5.3.3)',
  retryTimesWhenSendAsyncFailed: 'DefaultMQProducer.retryTimesWhenSendAsyncFailed = 2 (4.5.0-5.3.3)',
  sendLatencyFaultEnable:
    'false: MQFaultStrategy.sendLatencyFaultEnable (4.5.0-5.1.3); ClientConfig.sendLatencyFaultEnable from system property com.rocketmq.sendLatencyEnable, default "false" (5.1.4+)',
  pollNameServerInterval: 'ClientConfig.pollNameServerInterval = 30000 ms (4.5.0-5.3.3)',
  heartbeatBrokerInterval: 'ClientConfig.heartbeatBrokerInterval = 30000 ms (4.5.0-5.3.3)',
  closeSocketIfTimeout:
    'NettyClientConfig.clientCloseSocketIfTimeout: false, fixed, up to 4.9.0; from 4.9.1 NettySystemConfig reads system property com.rocketmq.remoting.client.closeSocketIfTimeout, default "true"',
};

function bool(v: string | number | boolean | undefined, dflt: boolean): boolean {
  return v === undefined ? dflt : v === true || v === 'true';
}

function num(v: string | number | boolean | undefined, dflt: number): number {
  return v === undefined ? dflt : Number(v);
}

/** The value of every varied setting that the application's client ran with. */
export function clientRanWith(p: ProducerProcess): ClientRanWith {
  const set = p.settings ?? {};
  const props = p.systemProperties ?? {};
  // 5.1.4 made the producer's fault avoidance default come from a system property (ClientConfig).
  const latencyDefault = compareVersions(p.version, '5.1.4') >= 0 ? bool(props[SEND_LATENCY_ENABLE], false) : false;
  return {
    sendMsgTimeout: num(set.sendMsgTimeout, 3000),
    retryTimesWhenSendFailed: num(set.retryTimesWhenSendFailed, 2),
    retryTimesWhenSendAsyncFailed: 2,
    sendLatencyFaultEnable: bool(set.sendLatencyFaultEnable, latencyDefault),
    pollNameServerInterval: num(set.pollNameServerInterval, 30_000),
    heartbeatBrokerInterval: num(set.heartbeatBrokerInterval, 30_000),
    // Before 4.9.1 NettyClientConfig hard-codes false: the system property is not read at all.
    closeSocketIfTimeout: compareVersions(p.version, '4.9.1') >= 0 ? bool(props[CLOSE_SOCKET_IF_TIMEOUT], true) : false,
  };
}
