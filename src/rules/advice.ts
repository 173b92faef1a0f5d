// What an advice is about, for the few kinds of advice an incident gives in its own words
// (src/diagnosis/incident.ts): a rule tags its advice with a topic where the incident may say it
// instead, so the incident tells which of the findings' advice it replaces by topic, not by
// reading their texts.

const ADVICE_TOPICS = [
  /** Find out why a host, broker or NameServer stopped answering (the incident names each cause's host). */
  'find-cause',
  /** NameServers on hosts without brokers. */
  'namesrv-placement',
  /** Clients from 4.9.1, which close a NameServer channel that timed out (NettyRemotingClient.invokeSync). */
  'close-timed-out-channel',
  /** Look at the NameServer and the network path a broker failed to register through. */
  'check-namesrv',
  /** sendLatencyFaultEnable=true, so that a broker whose attempt failed is avoided (10 min up to 5.1.3, 10 s from 5.1.4). */
  'latency-fault',
] as const;
export type AdviceTopic = (typeof ADVICE_TOPICS)[number];

/** One advice with its topic (FindingInput.advice takes these beside plain texts). */
export interface TopicAdvice {
  topic: AdviceTopic;
  text: string;
}

export const about = (topic: AdviceTopic, text: string): TopicAdvice => ({ topic, text });
