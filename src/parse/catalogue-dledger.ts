// Catalogue entries for the elections of a broker group's master:
// - DLedger, the Raft library (openmessaging/dledger) a broker runs its commit log on when
//   enableDLegerCommitLog=true (RocketMQ 4.5.0 and later, 5.x): its elections and the leader's pushes
//   to the followers. Read from dledger 0.2.7 (RocketMQ 4.x) and 0.4.0 (5.x), whose wordings are the
//   same. DLedger logs through its classes' own loggers, which RocketMQ's logback configurations do
//   not name: they go to the root logger's file, broker_default.log (4.x logback_broker.xml, 5.x
//   rmq.broker.logback.xml).
// - 5.x controller mode (enableControllerMode=true): the controller electing a master
//   (ReplicasInfoManager, logger RocketmqController: controller.log, or namesrv.log where the
//   controller runs inside the NameServer) and each broker changing role on its answer
//   (ReplicasManager, logger RocketmqBroker: broker.log).
// The entries come after the consumer side's (catalogue-consumer.ts).

import type { CatalogueEntry } from './catalogue-entry.js';
import { eventFields } from './event-fields.js';
import { num, str } from './catalogue-data.js';
import type { EventFields } from './types.js';

const dledger = (event: string, f: { member?: string | null; term?: number | null; leader?: string | null; peer?: string | null; result?: string | null; group?: string | null }): EventFields =>
  eventFields('dledger', { event, member: f.member, term: f.term, leader: f.leader, peer: f.peer, result: f.result, group: f.group });

/** A `"key":value` of DLedger's JSON (fastjson) or a `key=value` of its RemotingCommand info, as printed. */
function value(text: string | null | undefined, key: string): string | null {
  if (text == null) return null;
  const m = new RegExp(`"${key}":"?([^",}]*)`).exec(text) ?? new RegExp(`\\b${key}=([^,\\]\\s]*)`).exec(text);
  return m === null ? null : str(m[1]);
}

const controller = (event: string, f: { brokerName?: string | null; brokerId?: number | null; masterId?: number | null; masterAddr?: string | null; epoch?: number | null } = {}): EventFields =>
  eventFields('controller', { event, brokerName: f.brokerName, brokerId: f.brokerId, masterId: f.masterId, masterAddr: f.masterAddr, epoch: f.epoch });

// A member id (`n0`) is read with a bounded run before its literal: an unbounded one would be tried from
// every character of a long line that holds the keyword (catalogue.test.ts, "stays fast on long hostile lines").
export const DLEDGER_ENTRIES: CatalogueEntry[] = [
  {
    id: 'dledger/heartbeat-timeout',
    type: 'dledger',
    keywords: ['][HeartBeatTimeOut] lastLeaderHeartBeatTime: '],
    pattern: /\[(?<member>[^\]\s]{1,64})\]\[HeartBeatTimeOut\] lastLeaderHeartBeatTime: (?<last>.*?) heartBeatTimeIntervalMs: (?<ms>\d+) lastLeader=(?<leader>\S*)/,
    versions: 'dledger 0.2.x-0.4.x (RocketMQ 4.5.0-5.x with enableDLegerCommitLog)',
    source: 'dledger: DLedgerLeaderElector (maintainAsFollower)',
    // A follower heard nothing from its leader for maxHeartBeatLeak (3) heartbeat intervals: it becomes a candidate.
    format: '[{}][HeartBeatTimeOut] lastLeaderHeartBeatTime: {} heartBeatTimeIntervalMs: {} lastLeader={}',
    args: ['member', 'lastLeaderHeartBeatTime', 'heartBeatTimeIntervalMs', 'leader'],
    fields: (g) => dledger('HeartBeatTimeOut', { member: str(g.member), leader: str(g.leader) }),
    // Real: apache/rocketmq#5469.
    samples: [{ text: '[n0][HeartBeatTimeOut] lastLeaderHeartBeatTime: 2022-11-05 21:29:45.416 heartBeatTimeIntervalMs: 2000 lastLeader=n1', fields: { event: 'HeartBeatTimeOut', member: 'n0', term: null, leader: 'n1', peer: null, result: null, group: null } }],
  },
  {
    id: 'dledger/change-role',
    type: 'dledger',
    keywords: [' [ChangeRoleToLeader] from term: ', ' [ChangeRoleToCandidate] from term: ', '][ChangeRoleToFollower] from term: '],
    pattern: /\[(?<member>[^\]\s]{1,64})\] ?\[(?<role>ChangeRoleTo(?:Leader|Candidate|Follower))\] from term: (?<term>-?\d+)(?: leaderId: (?<leader>\S*))? and currTerm: (?<cur>-?\d+)/,
    versions: 'dledger 0.2.x-0.4.x (RocketMQ 4.5.0-5.x with enableDLegerCommitLog)',
    source: 'dledger: DLedgerLeaderElector (changeRoleToLeader, changeRoleToCandidate, changeRoleToFollower)',
    format: '[{}] [ChangeRoleToLeader] from term: {} and currTerm: {}',
    args: ['member', 'term', 'currTerm'],
    forms: {
      candidate: { format: '[{}] [ChangeRoleToCandidate] from term: {} and currTerm: {}', args: ['member', 'term', 'currTerm'] },
      follower: { format: '[{}][ChangeRoleToFollower] from term: {} leaderId: {} and currTerm: {}', args: ['member', 'term', 'leader', 'currTerm'] },
    },
    fields: (g) => dledger(g.role!, { member: str(g.member), term: num(g.term), leader: str(g.leader) }),
    samples: [
      // Real: apache/rocketmq#5469.
      { text: '[n0] [ChangeRoleToCandidate] from term: 115 and currTerm: 115', fields: { event: 'ChangeRoleToCandidate', member: 'n0', term: 115, leader: null } },
      // Built from the dledger 0.4.0 formats.
      { text: '[n1] [ChangeRoleToLeader] from term: 116 and currTerm: 116', fields: { event: 'ChangeRoleToLeader', member: 'n1', term: 116 } },
      { text: '[n0][ChangeRoleToFollower] from term: 116 leaderId: n1 and currTerm: 116', fields: { event: 'ChangeRoleToFollower', member: 'n0', term: 116, leader: 'n1' } },
    ],
  },
  {
    id: 'dledger/increase-term',
    type: 'dledger',
    keywords: ['_[INCREASE_TERM] from '],
    pattern: /(?<member>[^\s\]]{1,64})_\[INCREASE_TERM\] from (?<from>-?\d+) to (?<to>-?\d+)/,
    versions: 'dledger 0.2.x-0.4.x (RocketMQ 4.5.0-5.x with enableDLegerCommitLog)',
    source: 'dledger: DLedgerLeaderElector (maintainAsCandidate)',
    format: '{}_[INCREASE_TERM] from {} to {}',
    args: ['member', 'fromTerm', 'term'],
    fields: (g) => dledger('INCREASE_TERM', { member: str(g.member), term: num(g.to) }),
    // Real: apache/rocketmq#5469.
    samples: [{ text: 'n0_[INCREASE_TERM] from 115 to 116', fields: { event: 'INCREASE_TERM', member: 'n0', term: 116 } }],
  },
  {
    id: 'dledger/vote-response',
    type: 'dledger',
    keywords: ['][GetVoteResponse] '],
    pattern: /\[(?<member>[^\]\s]{1,64})\]\[GetVoteResponse\] (?<json>\{.*)/,
    versions: 'dledger 0.2.x-0.4.x (RocketMQ 4.5.0-5.x with enableDLegerCommitLog)',
    source: 'dledger: DLedgerLeaderElector (voteForQuorumResponses)',
    // A candidate's vote asked of one peer (itself included) and its answer: ACCEPT, REJECT_ALREADY_VOTED, REJECT_TERM_NOT_READY, ...
    format: '[{}][GetVoteResponse] {}',
    args: ['member', 'response'],
    fields: (g) => dledger('GetVoteResponse', { member: str(g.member), term: num(value(g.json, 'term')), peer: value(g.json, 'remoteId'), result: value(g.json, 'voteResult'), group: value(g.json, 'group') }),
    samples: [
      // Real: apache/rocketmq#5469.
      { text: '[n0][GetVoteResponse] {"code":200,"group":"RaftNode00","leaderId":"n0","remoteId":"n2","term":116,"voteResult":"REJECT_ALREADY_VOTED"}', fields: { event: 'GetVoteResponse', member: 'n0', term: 116, peer: 'n2', result: 'REJECT_ALREADY_VOTED', group: 'RaftNode00' } },
    ],
  },
  {
    id: 'dledger/push-error',
    type: 'dledger',
    keywords: [']Get error response code '],
    pattern: /\[Push-(?<peer>[^\]]*)\]Get error response code (?<code>.*?) (?<info>info\[.*)/,
    versions: 'dledger 0.2.x-0.4.x (RocketMQ 4.5.0-5.x with enableDLegerCommitLog)',
    source: 'dledger: DLedgerEntryPusher (EntryDispatcher)',
    // The leader's push of entries to a follower failed (NETWORK_ERROR, INCONSISTENT_STATE, REPEATED_PUSH, ...): that follower falls behind while it lasts.
    format: '[Push-{}]Get error response code {} {}',
    args: ['peer', 'responseCode', 'baseInfo'],
    fields: (g) => dledger('PushError', { member: value(g.info, 'local'), term: num(value(g.info, 'term')), leader: value(g.info, 'leader'), peer: str(g.peer), result: value(g.code, 'name'), group: value(g.info, 'group') }),
    samples: [
      // Real: openmessaging/dledger#331.
      {
        text: '[Push-n1]Get error response code [code=302,name=NETWORK_ERROR,desc=] info[group=rocketmq-broker-23,term=2,code=302,local=n0,remote=n1,leader=n0]',
        fields: { event: 'PushError', member: 'n0', term: 2, leader: 'n0', peer: 'n1', result: 'NETWORK_ERROR', group: 'rocketmq-broker-23' },
      },
      { text: '[Push-n1]Get error response code [code=413,name=REPEATED_PUSH,desc=] info[group=rocketmq-broker-23,term=2,code=413,local=null,remote=null,leader=null]', fields: { member: null, leader: null, result: 'REPEATED_PUSH' } },
    ],
  },

  // ---- controller: 5.x controller mode ----
  {
    id: 'controller/elect-master',
    type: 'controller',
    keywords: ['Elect new master '],
    pattern: /Elect new master (?<id>-?\d+) for broker (?<name>\S+)/,
    versions: '>=5.2.0',
    versionHint: '>=5.2.0',
    source: 'controller/impl/manager/ReplicasInfoManager (electMaster), logger RocketmqController',
    // The controller chose a new master (by brokerId) among the broker set's in-sync replicas; the brokers learn it and change roles.
    format: 'Elect new master {} for broker {}',
    args: ['masterId', 'brokerName'],
    fields: (g) => controller('ElectMaster', { brokerName: str(g.name), masterId: num(g.id) }),
    // Built from the 5.3.1 format.
    samples: [{ text: 'Elect new master 2 for broker broker-a', fields: { event: 'ElectMaster', brokerName: 'broker-a', brokerId: null, masterId: 2, masterAddr: null, epoch: null } }],
  },
  {
    id: 'controller/elect-master-failed',
    type: 'controller',
    keywords: ['Failed to elect a new master for broker '],
    pattern: /Failed to elect a new master for broker (?<name>\S+)/,
    versions: '>=5.2.0',
    versionHint: '>=5.2.0',
    source: 'controller/impl/manager/ReplicasInfoManager (electMaster), logger RocketmqController',
    // No replica could become master (the elect policy found no live candidate): the broker set has no master.
    format: 'Failed to elect a new master for broker {}',
    args: ['brokerName'],
    fields: (g) => controller('ElectMasterFailed', { brokerName: str(g.name) }),
    // Built from the 5.3.1 format.
    samples: [{ text: 'Failed to elect a new master for broker broker-a', fields: { event: 'ElectMasterFailed', brokerName: 'broker-a', masterId: null } }],
  },
  {
    id: 'controller/change-to-master',
    type: 'controller',
    keywords: ['Begin to change to master, brokerName:'],
    pattern: /Begin to change to master, brokerName:(?<name>[^,]*), replicas:(?<addr>[^,]*), new Epoch:(?<epoch>-?\d+)/,
    versions: '>=5.0.0',
    versionHint: '>=5.0.0',
    source: 'broker/controller/ReplicasManager (changeToMaster), logger RocketmqBroker',
    // This broker becomes its set's master for the new epoch. The `replicas` argument is the broker's own address.
    format: 'Begin to change to master, brokerName:{}, replicas:{}, new Epoch:{}',
    args: ['brokerName', 'masterAddr', 'epoch'],
    fields: (g) => controller('ChangeToMaster', { brokerName: str(g.name), masterAddr: str(g.addr), epoch: num(g.epoch) }),
    // Built from the 5.3.1 format.
    samples: [{ text: 'Begin to change to master, brokerName:broker-a, replicas:10.0.0.2:30911, new Epoch:3', fields: { event: 'ChangeToMaster', brokerName: 'broker-a', masterAddr: '10.0.0.2:30911', epoch: 3 } }],
  },
  {
    id: 'controller/change-to-slave',
    type: 'controller',
    keywords: ['Begin to change to slave, brokerName='],
    pattern: /Begin to change to slave, brokerName=(?<name>[^,]*), brokerId=(?<id>[^,]*), newMasterBrokerId=(?<mid>[^,]*), newMasterAddress=(?<maddr>[^,]*), newMasterEpoch=(?<epoch>-?\d+)/,
    versions: '>=5.1.1',
    versionHint: '>=5.1.1',
    source: 'broker/controller/ReplicasManager (changeToSlave), logger RocketmqBroker',
    format: 'Begin to change to slave, brokerName={}, brokerId={}, newMasterBrokerId={}, newMasterAddress={}, newMasterEpoch={}',
    args: ['brokerName', 'brokerId', 'masterId', 'masterAddr', 'epoch'],
    fields: (g) => controller('ChangeToSlave', { brokerName: str(g.name), brokerId: num(g.id), masterId: num(g.mid), masterAddr: str(g.maddr), epoch: num(g.epoch) }),
    // Built from the 5.3.1 format.
    samples: [{ text: 'Begin to change to slave, brokerName=broker-a, brokerId=1, newMasterBrokerId=2, newMasterAddress=10.0.0.2:30911, newMasterEpoch=3', fields: { event: 'ChangeToSlave', brokerName: 'broker-a', brokerId: 1, masterId: 2, masterAddr: '10.0.0.2:30911', epoch: 3 } }],
  },
  {
    id: 'controller/no-master',
    type: 'controller',
    keywords: ['Now no master in broker set'],
    pattern: /Now no master in broker set/,
    versions: '>=5.1.1',
    versionHint: '>=5.1.1',
    source: 'broker/controller/ReplicasManager (brokerElect), logger RocketmqBroker',
    // The broker asked the controller to elect and got no master back.
    format: 'Now no master in broker set',
    args: [],
    fields: () => controller('NoMaster'),
    // Built from the 5.3.1 format.
    samples: [{ text: 'Now no master in broker set', fields: { event: 'NoMaster', brokerName: null } }],
  },
];
