// The master elections of src/parse/catalogue-dledger.ts and the HA slave's offset mismatch: DLedger
// and HA from the real pastes of test/fixtures/real (sources in its SOURCES.md), 5.x controller mode
// from its formats. The entries' own samples run in catalogue.test.ts and message-render.test.ts.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { matchMessage } from '../../src/parse/catalogue.js';
import { SourceParser } from '../../src/parse/parser.js';
import { parseZone } from '../../src/parse/time.js';
import type { RmqEvent } from '../../src/parse/types.js';
import { kindFromName } from '../../src/ingest/sources.js';

const REAL = new URL('../fixtures/real/', import.meta.url);

function fixture(prefix: string) {
  const name = readdirSync(REAL).find((f) => f.startsWith(`${prefix}-`))!;
  const lines = readFileSync(new URL(name, REAL), 'utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const events: RmqEvent[] = [];
  const p = new SourceParser({ file: name, host: 'h', sourceIndex: 0, kindHint: kindFromName(name), kindForced: false, defaultZone: parseZone('+08:00') }, (e) => events.push(e));
  lines.forEach((l, i) => p.line(l.replace(/\r$/, ''), i + 1));
  return { events, acc: p.end() };
}

describe('DLedger in real pastes', () => {
  it('apache/rocketmq#5469: a follower misses the leader, becomes candidate, raises the term and is refused a vote', () => {
    const { events, acc } = fixture('119');
    // The member's Netty client threads do not make a DLedger broker's log a client's.
    expect(acc.kind).toBe('broker');
    expect(events.map((e) => [e.line, e.fields.event, e.fields.term, e.fields.peer, e.fields.result])).toEqual([
      [3, 'HeartBeatTimeOut', null, null, null],
      [4, 'ChangeRoleToCandidate', 115, null, null],
      [5, 'INCREASE_TERM', 116, null, null],
      [6, 'GetVoteResponse', 116, 'n0', 'ACCEPT'],
      [7, 'GetVoteResponse', 116, 'n2', 'REJECT_ALREADY_VOTED'],
    ]);
    expect(events[0].fields).toMatchObject({ member: 'n0', leader: 'n1' });
  });

  it("openmessaging/dledger#331: the leader's pushes to n1 fail, first on the network, then as repeated", () => {
    const { events, acc } = fixture('121');
    expect(acc.kind).toBe('broker');
    expect(events.map((e) => [e.line, e.fields.peer, e.fields.result])).toEqual([
      [1, 'n1', 'NETWORK_ERROR'],
      [6, 'n1', 'REPEATED_PUSH'],
      [8, 'n1', 'REPEATED_PUSH'],
      [10, 'n1', 'REPEATED_PUSH'],
    ]);
    expect(events[0].fields).toMatchObject({ member: 'n0', leader: 'n0', term: 2, group: 'rocketmq-broker-23' });
  });

  it("the role changes read their term and leader, and DLedger's periodic state line is no event", () => {
    expect(matchMessage('[n2][ChangeRoleToFollower] from term: 3 leaderId: n1 and currTerm: 3')?.fields).toMatchObject({ event: 'ChangeRoleToFollower', leader: 'n1', term: 3 });
    expect(matchMessage('[n1] [ChangeRoleToLeader] from term: 3 and currTerm: 3')?.fields).toMatchObject({ event: 'ChangeRoleToLeader', leader: null });
    expect(matchMessage('[n0][LEADER] term=2 ledgerBegin=1 ledgerEnd=2 committed=2 watermarks={}')).toBeNull();
  });
});

describe('HA in real pastes', () => {
  it("apache/rocketmq#323: the slave's HAClient finds the master pushing from another offset", () => {
    const { events } = fixture('117');
    expect(events.map((e) => [e.line, e.entry, e.fields.status])).toEqual([[2, 'store-sync/ha-offset-mismatch', 'SLAVE_OFFSET_MISMATCH']]);
  });
});

describe('5.x controller mode', () => {
  it("a master elected by the controller, and each broker's role on its answer", () => {
    // Built from the 5.3.1 formats (ReplicasInfoManager, ReplicasManager).
    const lines = [
      'Elect new master 2 for broker broker-a',
      'Begin to change to master, brokerName:broker-a, replicas:10.0.0.2:30911, new Epoch:3',
      'Begin to change to slave, brokerName=broker-a, brokerId=1, newMasterBrokerId=2, newMasterAddress=10.0.0.2:30911, newMasterEpoch=3',
      'Failed to elect a new master for broker broker-b',
    ];
    expect(lines.map((l) => matchMessage(l)!.fields)).toEqual([
      { event: 'ElectMaster', brokerName: 'broker-a', brokerId: null, masterId: 2, masterAddr: null, epoch: null },
      { event: 'ChangeToMaster', brokerName: 'broker-a', brokerId: null, masterId: null, masterAddr: '10.0.0.2:30911', epoch: 3 },
      { event: 'ChangeToSlave', brokerName: 'broker-a', brokerId: 1, masterId: 2, masterAddr: '10.0.0.2:30911', epoch: 3 },
      { event: 'ElectMasterFailed', brokerName: 'broker-b', brokerId: null, masterId: null, masterAddr: null, epoch: null },
    ]);
  });
});
