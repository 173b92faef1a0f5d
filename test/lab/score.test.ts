// The scorer: statements of analyze's and replay's reports checked against lab.json. First on small
// hand-made report / lab.json pairs whose verdicts are known, then on two recordings, where the
// figures it computes must add up (today's precision is not asserted: the lead sets thresholds).
import { beforeAll, describe, expect, it } from 'vitest';
import type { LabJson } from '../../lab/src/labjson.js';
import { formatFalse, formatTable, recordingDirs, scoreCommand } from '../../lab/src/score-run.js';
import { bootsOf, busyRepliesOf, effectiveClient, ms, Truth } from '../../lab/src/score-truth.js';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { scoreAll, scoreRecording, type RecordingScore } from '../../lab/src/score.js';
import { CLASSES, isClaim, say, type Statement } from '../../lab/src/statements-core.js';
import { analyzeStatements, checkDown } from '../../lab/src/statements.js';
import { replayStatements } from '../../lab/src/statements-replay.js';
import { ROOT } from '../cli/helpers.js';
import { analyzeReport, recording, replayReport } from './recording.js';

const T = (hhmmss: string) => `2026-12-01T${hhmmss}.000+08:00`;

/** A small cluster: NameServers on their own hosts, two masters, two 4.9.4 producers; broker-a hangs 10:00:00-10:02:00. */
function lab(over: { faults?: any[]; clients?: Array<Record<string, unknown>>; hosts?: any[] } = {}): LabJson {
  const client = (host: string, x: Record<string, unknown> = {}) => ({
    host,
    version: '4.9.4',
    group: 'PID',
    topic: 'TopicA',
    namesrvAddrs: ['10.0.0.11:9876'],
    boundNamesrv: '10.0.0.11:9876',
    restartsToBind: 0,
    rate: 2,
    threads: 4,
    async: false,
    selectorQueue: null,
    settings: {},
    systemProperties: {},
    sends: { total: 600, ok: 600, failed: 0, shed: 0, firstFailure: null, lastFailure: null, failuresByException: {}, okByBroker: {} },
    ...x,
  });
  return {
    scenario: 't',
    description: '',
    versions: { namesrv: '4.9.4', broker: '4.9.4', client: ['4.9.4'] },
    java: '17',
    timeZone: '+08:00',
    window: { start: T('09:58:00'), faultsFrom: T('10:00:00'), end: T('10:05:00') },
    brokerClusterName: 'DefaultCluster',
    namesrvAddr: '10.0.0.11:9876',
    topics: [{ name: 'TopicA', queues: 4 }],
    hosts: over.hosts ?? [
      { name: 'ns-1', addr: '10.0.0.11', roles: ['namesrv'], collected: true },
      { name: 'broker-a-host', addr: '10.0.0.21', roles: ['broker-master'], brokerName: 'broker-a', collected: true },
      { name: 'broker-b-host', addr: '10.0.0.22', roles: ['broker-master'], brokerName: 'broker-b', collected: true },
      { name: 'app-1', addr: '10.0.0.31', roles: ['producer'], collected: true },
      { name: 'app-2', addr: '10.0.0.32', roles: ['producer'], collected: true },
    ],
    servers: {
      namesrv: [{ host: 'ns-1', addr: '10.0.0.11:9876', settings: {} }],
      brokers: [
        { host: 'broker-a-host', brokerName: 'broker-a', brokerId: 0, addr: '10.0.0.21:10911', settings: {} },
        { host: 'broker-b-host', brokerName: 'broker-b', brokerId: 0, addr: '10.0.0.22:10911', settings: {} },
      ],
    },
    clients: (over.clients as any) ?? [
      client('app-1', { sends: { total: 600, ok: 560, failed: 40, shed: 0, firstFailure: T('10:00:03'), lastFailure: T('10:02:30'), failuresByException: {}, okByBroker: {} } }),
      client('app-2'),
    ],
    faults: over.faults ?? [{ kind: 'hang', host: 'broker-a-host', start: T('10:00:00'), end: T('10:02:00'), pids: [] }],
  } as unknown as LabJson;
}

const cause = (kind: string, host: string, start: string, end: string | null, detail: string | null = null) => ({
  kind,
  host,
  namesrvAddrs: [],
  brokers: [],
  start: T(start),
  end: end ? T(end) : null,
  recognisedBy: '',
  evidence: [],
  detail,
});

const incident = (x: Record<string, unknown>) => ({ id: 'I1', title: '', start: T('10:00:00'), end: T('10:03:00'), causes: [], impact: [], chain: [], advice: [], findings: [], ...x });
const analyzed = (x: { incidents?: any[]; findings?: any[] }) => ({ incidents: x.incidents ?? [], findings: x.findings ?? [] });
const finding = (id: string, rule: string, subject: Record<string, unknown>, start: string, end: string, metrics: Record<string, unknown> = {}, advice: string[] = []) => ({
  id,
  rule,
  severity: 'error',
  title: `${rule} title`,
  start: T(start),
  end: T(end),
  subject,
  metrics,
  evidence: [],
  explanation: '',
  advice,
});

const verdicts = (ss: Statement[]) => ss.map((s) => s.verdict);

describe('score: causes', () => {
  it('a true cause: a fault on its host, of its kind, over its window, all within the tolerance', () => {
    const ss = analyzeStatements(new Truth(lab()), analyzed({ incidents: [incident({ causes: [cause('hang', 'broker-a-host', '10:00:01', '10:02:04')] })] }));
    expect(ss.filter((s) => s.cls === 'cause').map((s) => [s.claim, s.verdict])).toEqual([
      ['a fault on broker-a-host at 10:00:01.000-10:02:04.000', 'true'],
      ['broker-a-host: hang', 'true'],
      ['hang on broker-a-host over 10:00:01.000-10:02:04.000', 'true'],
    ]);
  });

  it('a cause on a healthy host is one false statement that names the real faults', () => {
    const ss = analyzeStatements(new Truth(lab()), analyzed({ incidents: [incident({ causes: [cause('crash', 'broker-b-host', '10:00:01', null)] })] }));
    const causes = ss.filter((s) => s.cls === 'cause');
    expect(verdicts(causes)).toEqual(['false']);
    expect(causes[0].why).toMatch(/no fault on broker-b-host/);
    expect(causes[0].why).toMatch(/hang on broker-a-host 10:00:00.000-10:02:00.000/);
  });

  it('a wrong kind: the host is right, the kind false (a crash told as a hang)', () => {
    const l = lab({ faults: [{ kind: 'crash', host: 'broker-a-host', start: T('10:00:00'), end: T('10:01:00'), pids: [] }] });
    const ss = analyzeStatements(new Truth(l), analyzed({ incidents: [incident({ causes: [cause('hang', 'broker-a-host', '10:00:00', '10:01:00', 'only its processes froze')] })] }));
    expect(verdicts(ss.filter((s) => s.cls === 'cause'))).toEqual(['true', 'false']);
    expect(ss.find((s) => s.verdict === 'false')!.why).toMatch(/crash on broker-a-host/);
  });

  it('a power loss told as a hang: its host is right (the silence began with the power loss), its kind false', () => {
    const l = lab({ faults: [{ kind: 'reboot', host: 'broker-a-host', start: T('10:00:00'), end: T('10:01:30'), linkUp: T('10:01:00'), pids: [] }] });
    const ss = analyzeStatements(new Truth(l), analyzed({ incidents: [incident({ causes: [cause('hang', 'broker-a-host', '10:00:01', '10:00:40', 'only its processes froze')] })] }));
    expect(verdicts(ss.filter((s) => s.cls === 'cause'))).toEqual(['true', 'false']);
    expect(ss[1].why).toMatch(/reboot on broker-a-host/);
  });

  it('a window off by more than the tolerance is false; a reboot is held to when its link came up', () => {
    const l = lab({
      faults: [
        { kind: 'hang', host: 'broker-a-host', start: T('10:00:00'), end: T('10:02:00'), pids: [] },
        { kind: 'reboot', host: 'broker-a-host', start: T('10:02:00'), end: T('10:02:50'), linkUp: T('10:02:20'), pids: [] },
      ],
    });
    const ss = analyzeStatements(
      new Truth(l),
      analyzed({ incidents: [incident({ causes: [cause('hang', 'broker-a-host', '10:00:15', '10:02:20'), cause('reboot', 'broker-a-host', '10:02:20', '10:02:52')] })] }),
    );
    // The hang starts 15 s late (its end, the link coming up, is right); the reboot is seen from 10:02:20.
    expect(verdicts(ss.filter((s) => s.where === 'I1 cause 1'))).toEqual(['true', 'true', 'false']);
    expect(verdicts(ss.filter((s) => s.where === 'I1 cause 2'))).toEqual(['true', 'true', 'true']);
  });

  it('a reboot told from its silence may start when its hung host stopped answering, not before (a frozen host that was reset)', () => {
    const faults = [
      { kind: 'hang', host: 'broker-a-host', start: T('10:00:00'), end: T('10:01:30'), pids: [] },
      { kind: 'reboot', host: 'broker-a-host', start: T('10:01:30'), end: T('10:02:30'), pids: [] },
    ];
    const window = (start: string) =>
      analyzeStatements(new Truth(lab({ faults })), analyzed({ incidents: [incident({ causes: [cause('reboot', 'broker-a-host', start, '10:02:30')] })] })).filter((s) => s.cls === 'cause');
    expect(verdicts(window('10:00:01'))).toEqual(['true', 'true', 'true']);
    expect(verdicts(window('10:00:40'))).toEqual(['true', 'true', 'false']);
    // Without the hang before it, the reboot's start is its own.
    const alone = lab({ faults: [faults[1]] });
    expect(verdicts(analyzeStatements(new Truth(alone), analyzed({ incidents: [incident({ causes: [cause('reboot', 'broker-a-host', '10:00:01', '10:02:30')] })] })).filter((s) => s.cls === 'cause'))).toEqual([
      'true',
      'true',
      'false',
    ]);
  });

  it("a slave gone without a shutdown (`unclean-stop`) names a crash, a reboot or a hang of its host, never a planned restart", () => {
    const stop = (kind: string) =>
      analyzeStatements(
        new Truth(lab({ faults: [{ kind, host: 'broker-a-host', start: T('10:00:00'), end: T('10:00:40'), pids: [] }] })),
        analyzed({ incidents: [incident({ causes: [cause('unclean-stop', 'broker-a-host', '10:00:00', '10:00:40')] })] }),
      ).filter((s) => s.cls === 'cause');
    for (const kind of ['crash', 'reboot', 'hang']) expect(verdicts(stop(kind))).toEqual(['true', 'true', 'true']);
    expect(verdicts(stop('restart'))).toEqual(['true', 'false']);
  });
});

describe('score: impact, findings, advice', () => {
  it("a client's impact: lost sends and window against the application's; a client that lost nothing is false", () => {
    const ss = analyzeStatements(
      new Truth(lab()),
      analyzed({
        incidents: [
          incident({
            impact: [
              { client: 'app-1', start: T('10:00:04'), end: T('10:02:31'), failedSends: 38, clientVersion: '4.9.4', lastedBecause: null },
              { client: 'app-2', start: T('10:00:04'), end: T('10:00:10'), failedSends: 3, clientVersion: '4.9.4', lastedBecause: null },
            ],
          }),
        ],
      }),
    );
    const of = (c: string) => ss.filter((s) => s.where === `I1 impact ${c}`).map((s) => [s.claim, s.verdict]);
    expect(of('app-1')).toEqual([
      ['app-1 lost sends', 'true'],
      ['app-1 lost 38 sends', 'true'],
      ['app-1 failed from 10:00:04.000 to 10:02:31.000', 'true'],
      ['app-1 runs client 4.9.4', 'true'],
    ]);
    expect(of('app-2')).toEqual([
      ['app-2 lost sends', 'false'],
      ['app-2 runs client 4.9.4', 'true'],
    ]);
  });

  it('"NameServer removed broker X because it was gone" on a healthy broker is a false went-down claim', () => {
    const sub = (b: string) => ({ host: 'ns-1', broker: b, brokerAddr: b === 'broker-a' ? '10.0.0.21:10911' : '10.0.0.22:10911', namesrvAddr: '10.0.0.11:9876' });
    const ss = analyzeStatements(
      new Truth(lab()),
      analyzed({
        findings: [
          finding('F1', 'broker-down-detection', sub('broker-a'), '09:59:50', '10:01:50', { detection: 'expired' }),
          finding('F2', 'broker-down-detection', sub('broker-b'), '10:02:10', '10:04:10', { detection: 'expired' }),
        ],
      }),
    );
    expect(ss.filter((s) => s.cls === 'went-down').map((s) => [s.where, s.verdict])).toEqual([
      ['F1 broker-down-detection', 'true'],
      ['F2 broker-down-detection', 'false'],
    ]);
    // The way it went: expiry means silent with its connections open, which a hang is.
    expect(ss.filter((s) => s.where === 'F1 broker-down-detection' && s.cls === 'process').map((s) => s.verdict)).toEqual(['true']);
  });

  it('a send-timeout-budget finding of a producer\'s first seconds claims no broker fault (gen-20261224)', () => {
    const of = (metrics: Record<string, unknown>) =>
      analyzeStatements(new Truth(lab({ faults: [] })), analyzed({ findings: [finding('F1', 'send-timeout-budget', { host: 'app-1', broker: 'broker-a' }, '09:58:05', '09:58:05', { brokers: ['broker-a'], ...metrics })] }))
        .filter((x) => x.cls === 'went-down')
        .map((x) => x.verdict);
    expect(of({ sinceStartMs: 600 })).toEqual(['unknown']);
    expect(of({})).toEqual(['false']);
  });

  it('a pull refusal put down to the refusing broker\'s boot is true only when the lab restarted that broker then (gen-20261214)', () => {
    const refused = (faults: any[], boots: any[]) =>
      analyzeStatements(
        new Truth(lab({ faults }), [], boots),
        analyzed({ findings: [finding('F1', 'pull-refused', {}, '10:01:05', '10:01:08', { codes: ['24'], before: 'broker-b-host boot' })] }),
      )
        .filter((x) => x.where === 'F1 pull-refused')
        .map((x) => `${x.cls} ${x.verdict}`);
    const restart = { kind: 'restart', host: 'broker-b-host', start: T('10:00:40'), end: T('10:01:00'), pids: [] };
    expect(refused([restart], [{ host: 'broker-b-host', process: 'broker', at: Date.parse(T('10:01:04')) }])).toEqual(['process true']);
    // A restart of the other broker, or none: false.
    expect(refused([{ ...restart, host: 'broker-a-host' }], [{ host: 'broker-a-host', process: 'broker', at: Date.parse(T('10:01:04')) }])).toEqual(['process false']);
    // The cluster's first start: its boot line is the boot the finding names.
    expect(refused([], [{ host: 'broker-b-host', process: 'broker', at: Date.parse(T('10:00:58')) }])).toEqual(['process true']);
  });

  it('a partition answers "the NameServer removed broker X because it was gone" only when it cut the two apart', () => {
    const sub = { host: 'ns-1', broker: 'broker-a', brokerAddr: '10.0.0.21:10911', namesrvAddr: '10.0.0.11:9876' };
    const removal = (groups: [string[], string[]]) =>
      analyzeStatements(
        new Truth(lab({ faults: [{ kind: 'partition', host: 'broker-a-host', start: T('10:00:00'), end: T('10:03:00'), groups, pids: [] }] })),
        analyzed({ findings: [finding('F1', 'broker-down-detection', sub, '10:00:00', '10:02:00', { detection: 'expired' })] }),
      )
        .filter((x) => x.where === 'F1 broker-down-detection' && (x.cls === 'went-down' || x.cls === 'process'))
        .map((x) => `${x.cls} ${x.verdict}`);
    // Cut off from the NameServer: it stopped hearing the broker, as an expiry says.
    expect(removal([['broker-a-host'], ['ns-1', 'app-1', 'app-2']])).toEqual(['went-down true', 'process true']);
    // Cut off from the applications only: the NameServer still heard it, so the removal had another reason.
    expect(removal([['broker-a-host'], ['app-1', 'app-2']])).toEqual(['went-down false', 'process false']);
  });

  it('advice whose premise is false: a setting the client already ran with, NameServers already on hosts of their own', () => {
    const l = lab({
      clients: [{ ...lab().clients[0], settings: { sendLatencyFaultEnable: true } }],
    });
    const ss = analyzeStatements(
      new Truth(l),
      analyzed({
        incidents: [
          incident({
            impact: [{ client: 'app-1', start: T('10:00:03'), end: T('10:02:30'), failedSends: 40, clientVersion: '4.9.4', lastedBecause: null }],
            advice: [
              'Enable sendLatencyFaultEnable on the producers (off by default): a broker whose send timed out is then avoided.',
              'Run the NameServers on hosts of their own: broker-a-host took NameServer 10.0.0.11:9876 and broker-a down together.',
              'Find out why broker-a-host froze (kernel and hypervisor logs, memory, disk, long GC pauses).',
              'Find out why broker-b-host froze (kernel and hypervisor logs, memory, disk, long GC pauses).',
            ],
          }),
        ],
      }),
    );
    const advice = ss.filter((s) => s.cls === 'advice');
    expect(verdicts(advice)).toEqual(['false', 'false', 'true', 'false']);
    expect(advice[0].why).toMatch(/already ran with sendLatencyFaultEnable=true/);
    expect(advice[1].why).toMatch(/hosts of their own \(ns-1\)/);
  });

  it('"kept running while the NameServer removed it": false when a fault covered the removal, not when one began seconds after it', () => {
    const kept = finding('F1', 'broker-down-detection', { broker: 'broker-a', brokerAddr: '10.0.0.21:10911', namesrvAddr: '10.0.0.11:9876', host: 'ns-1' }, '10:00:00', '10:00:00', { brokerAlive: true, detection: 'destroyed' });
    const verdictOf = (faults: any[]) => analyzeStatements(new Truth(lab({ faults })), analyzed({ findings: [kept] })).filter((s) => /kept running/.test(s.claim));
    const restartedAfter = verdictOf([{ kind: 'restart', host: 'broker-a-host', start: T('10:00:05'), end: T('10:00:35'), pids: [] }]);
    expect(verdicts(restartedAfter)).toEqual(['true']);
    const hungThen = verdictOf([{ kind: 'hang', host: 'broker-a-host', start: T('09:59:30'), end: T('10:00:30'), pids: [] }]);
    expect(verdicts(hungThen)).toEqual(['false']);
    expect(hungThen[0].why).toMatch(/it was down: hang on broker-a-host/);
    // A partition leaves the process running: the claim holds through one (gen-599).
    const partitioned = verdictOf([{ kind: 'partition', host: 'broker-a-host', start: T('09:59:30'), end: T('10:00:30'), groups: [['broker-a-host'], ['ns-1']], pids: [] }]);
    expect(verdicts(partitioned)).toEqual(['true']);
  });

  it('a removal the finding says does not tell (brokerAlive null) makes no claim about the broker', () => {
    const resumed = finding('F1', 'broker-down-detection', { broker: 'broker-a', brokerAddr: '10.0.0.21:10911', host: 'ns-1' }, '09:58:30', '10:00:00', { brokerAlive: null, detection: 'destroyed', namesrvStallMs: 90000 });
    const truth = new Truth(lab({ faults: [{ kind: 'hang', host: 'ns-1', start: T('09:58:30'), end: T('10:00:00'), pids: [] }] }));
    const ss = analyzeStatements(truth, analyzed({ findings: [resumed] })).filter((s) => s.cls === 'went-down' || s.cls === 'process');
    expect(verdicts(ss)).toEqual(['unknown']);
    const gone = finding('F2', 'broker-down-detection', { broker: 'broker-a', brokerAddr: '10.0.0.21:10911', namesrvAddr: '10.0.0.11:9876', host: 'ns-1' }, '09:58:30', '10:00:00', { brokerAlive: false, detection: 'destroyed' });
    expect(verdicts(analyzeStatements(truth, analyzed({ findings: [gone] })).filter((s) => s.cls === 'went-down'))).toEqual(['false']);
  });

  it("'Check the slave' on a finding that names the master by its address: true when that broker's slave failed, false when only the master did", () => {
    const hosts = [...(lab().hosts as any[]), { name: 'broker-a-s', addr: '10.0.0.23', roles: ['broker-slave'], brokerName: 'broker-a', collected: true }];
    const withSlave = (faults: any[]) => {
      const l = lab({ hosts, faults });
      (l.servers.brokers as any[]).push({ host: 'broker-a-s', brokerName: 'broker-a', brokerId: 1, addr: '10.0.0.23:10911', settings: {} });
      return new Truth(l);
    };
    const f = finding('F1', 'store-sync', { broker: 'broker-a', brokerAddr: '10.0.0.21:10911', host: 'broker-a-host' }, '10:00:00', '10:00:20', {}, [
      'Check the slave: is it running, its GC pauses and disk, and the network between master and slave on the HA port (listen port + 1, 10912 by default).',
    ]);
    const verdictOf = (t: Truth) => analyzeStatements(t, analyzed({ findings: [f] })).filter((s) => s.cls === 'advice');
    const rebooted = verdictOf(withSlave([{ kind: 'reboot', host: 'broker-a-s', start: T('09:59:50'), end: T('10:00:30'), pids: [] }]));
    expect(verdicts(rebooted)).toEqual(['true']);
    const masterOnly = verdictOf(withSlave([{ kind: 'hang', host: 'broker-a-host', start: T('10:00:00'), end: T('10:00:20'), pids: [] }]));
    expect(verdicts(masterOnly)).toEqual(['false']);
    expect(masterOnly[0].why).toMatch(/no fault on the slaves \(broker-a-s\)/);
  });

  it("advice that names the disk or the CPU holds under a CPU quota; a default stated as one is no claim about the client", () => {
    const l = lab({ faults: [{ kind: 'overload', host: 'broker-a-host', start: T('10:00:00'), end: T('10:01:00'), pids: [] }] });
    const ss = analyzeStatements(
      new Truth(l),
      analyzed({
        incidents: [
          incident({
            causes: [cause('overload', 'broker-a-host', '10:00:00', '10:01:00')],
            advice: [
              "Puts were slow during the backlog (up to 700 ms in store.log): the store's disk (iowait) or the broker's CPU (throttling by a container quota, steal, long GC), before adding load.",
              'Puts were slow during the backlog (up to 700 ms in store.log): check the disk (iowait, utilisation) before adding load.',
              "Do not just raise waitTimeMillsInSendQueue: the client's send budget (sendMsgTimeout, 3000 ms by default) still runs out.",
              "Do not just raise waitTimeMillsInSendQueue: the client's send budget (sendMsgTimeout, 5000 ms) still runs out.",
            ],
          }),
        ],
      }),
    );
    expect(verdicts(ss.filter((x) => x.cls === 'advice'))).toEqual(['true', 'false', 'unknown', 'false']);
  });

  it('advice that names the disk or the CPU holds where the broker answered busy with no fault injected, and not without the replies', () => {
    const advice = "Puts were slow during the backlog (up to 1474 ms in store.log): the store's disk (iowait) or the broker's CPU (throttling by a container quota, steal, long GC), before adding load.";
    const judge = (busy: Array<{ at: number; broker: string }>) =>
      analyzeStatements(
        new Truth(lab({ faults: [] }), busy),
        analyzed({ findings: [finding('F1', 'broker-busy', { broker: 'broker-b' }, '10:00:00', '10:00:30', {}, [advice])] }),
      ).filter((x) => x.cls === 'advice');
    const held = judge([{ at: ms(T('10:00:10')), broker: '10.0.0.22:10911' }]);
    expect(verdicts(held)).toEqual(['true']);
    expect(held[0].why).toMatch(/answered busy 1 time then .*no fault injected/);
    // Another broker's reply, or one long after the finding, is no premise for this one.
    expect(verdicts(judge([{ at: ms(T('10:00:10')), broker: '10.0.0.21:10911' }]))).toEqual(['false']);
    expect(verdicts(judge([{ at: ms(T('10:04:00')), broker: '10.0.0.22:10911' }]))).toEqual(['false']);
  });

  it("'Find what froze broker-b' is about broker-b: held by a freeze of its host or by its own busy replies then, not by another broker's", () => {
    const advice = 'Find what froze broker-b (10.0.0.22:10911) on broker-b-host at the stall times: GC logs (long stop-the-world pauses), CPU starvation or steal on the host, swapping.';
    const judge = (faults: any[], busy: Array<{ at: number; broker: string }> = []) =>
      verdicts(
        analyzeStatements(new Truth(lab({ faults }), busy), analyzed({ findings: [finding('F1', 'broker-busy', { broker: 'broker-a' }, '10:00:00', '10:00:30', {}, [advice])] })).filter((x) => x.cls === 'advice'),
      );
    expect(judge([{ kind: 'hang', host: 'broker-b-host', start: T('10:00:00'), end: T('10:00:20'), pids: [] }])).toEqual(['true']);
    // The finding's scope names broker-a, which hung: the advice names broker-b, which did not.
    expect(judge([{ kind: 'hang', host: 'broker-a-host', start: T('10:00:00'), end: T('10:00:20'), pids: [] }])).toEqual(['false']);
    // No fault, but broker-b answered busy then (gen-707: a broker stalling while it warmed up).
    expect(judge([], [{ at: ms(T('10:00:10')), broker: '10.0.0.22:10911' }])).toEqual(['true']);
    expect(judge([], [{ at: ms(T('10:00:10')), broker: '10.0.0.21:10911' }])).toEqual(['false']);
  });

  it('what the lab cannot decide is unknown with its reason, never true', () => {
    const ss = analyzeStatements(
      new Truth(lab()),
      analyzed({
        findings: [
          finding('F1', 'retry-same-broker', { host: 'app-1' }, '10:00:00', '10:01:00', {}, ['Spread the send load: give the topic write queues on more brokers.']),
        ],
      }),
    );
    expect(ss.map((s) => [s.cls, s.verdict])).toEqual([
      ['process', 'unknown'],
      ['advice', 'unknown'],
    ]);
    for (const s of ss) expect(s.why).not.toBe('');
  });
});

describe('score: a restarted server is up at its own boot line', () => {
  it('consumer-5x-restart: the 5.3.3 broker launched again at 02:50:50.750 is seen down until its boot success at 02:51:07, and a restart said to end then is true', () => {
    const dir = join(ROOT, 'samples', 'lab', 'consumer-5x-restart');
    const boots = bootsOf(dir, '+08:00');
    expect(boots).toContainEqual({ host: 'mq-broker-a', at: Date.parse('2026-12-06T02:51:07.000+08:00'), process: 'broker' });
    expect(boots).toContainEqual({ host: 'mq-ns-1', at: Date.parse('2026-12-06T02:48:50.000+08:00'), process: 'namesrv' });
    const labJson = JSON.parse(readFileSync(join(dir, 'lab.json'), 'utf8')) as LabJson;
    const [restart] = new Truth(labJson, [], boots).faults;
    expect(restart.end).toBe(Date.parse('2026-12-06T02:50:50.750+08:00'));
    expect(restart.seenEnd).toBe(Date.parse('2026-12-06T02:51:07.000+08:00'));
    expect(restart.backAt).toEqual({ broker: Date.parse('2026-12-06T02:51:07.000+08:00'), namesrv: null });
    // Without the logs the launch is the end, as before.
    expect(new Truth(labJson).faults[0].seenEnd).toBe(restart.end);
    // The broker's first boot (02:48:58, the cluster starting) is not the restart's.
    const stale = boots.filter((b) => b.at < restart.end);
    expect(new Truth(labJson, [], stale).faults[0].seenEnd).toBe(restart.end);
  });
});

describe('score: busy replies in the logs', () => {
  it('reads them from plain and gzipped client and application logs, at the date of the record above the exception', () => {
    const dir = mkdtempSync(join(tmpdir(), 'score-busy-'));
    try {
      mkdirSync(join(dir, 'app-1', 'logs', 'rocketmqlogs'), { recursive: true });
      writeFileSync(
        join(dir, 'app-1', 'logs', 'app.log.gz'),
        gzipSync(
          '2026-12-05 01:59:19.283 ERROR 17656 --- [publisher-6] c.e.OrderEventPublisher : Failed to publish event\n' +
            'org.apache.rocketmq.client.exception.MQBrokerException: CODE: 2  DESC: [TIMEOUT_CLEAN_QUEUE]broker busy, start flow control for a while, period in queue: 210ms, size of queue: 0 BROKER: 10.0.0.22:10911\n',
        ),
      );
      writeFileSync(join(dir, 'app-1', 'logs', 'rocketmqlogs', 'rocketmq_client.log'), '2026-12-05 01:59:20,001 WARN RocketmqClient - nothing busy here\n');
      expect(busyRepliesOf(dir, '+08:00')).toEqual([{ at: Date.parse('2026-12-05T01:59:19.283+08:00'), broker: '10.0.0.22:10911' }]);
      // A busy claim with no fault injected then is true when the logs hold the reply.
      const truth = new Truth(lab({ faults: [] }), busyRepliesOf(dir, '+08:00'));
      expect(truth.busyRepliesIn(Date.parse('2026-12-05T01:59:19.000+08:00'), Date.parse('2026-12-05T01:59:19.500+08:00'))).toHaveLength(1);
      expect(truth.busyRepliesIn(Date.parse('2026-12-05T02:10:00.000+08:00'), Date.parse('2026-12-05T02:11:00.000+08:00'))).toHaveLength(0);
      // An overload named as a cause with no fault injected: true on the broker that answered busy, false on another.
      const claimOn = (host: string) =>
        analyzeStatements(truth, analyzed({ incidents: [incident({ causes: [{ ...cause('overload', host, '10:00:00', '10:00:02'), start: '2026-12-05T01:59:18.500+08:00', end: '2026-12-05T01:59:20.000+08:00' }] })] })).filter((x) => x.cls === 'cause');
      expect(claimOn('broker-b-host').map((x) => [x.claim, x.verdict])).toEqual([['overload on broker-b-host at 01:59:18.500-01:59:20.000', 'true']]);
      expect(claimOn('broker-b-host')[0].why).toBe('a broker on broker-b-host answered busy 1 time then (first at 01:59:19.283), with no fault injected');
      expect(claimOn('broker-a-host').map((x) => x.verdict)).toEqual(['false']);
      // A stall (replay's, from a lone reply with nothing queued) is borne out the same way; a hang is not.
      const kindOn = (kind: string) => analyzeStatements(truth, analyzed({ incidents: [incident({ causes: [{ ...cause(kind, 'broker-b-host', '10:00:00', '10:00:02'), start: '2026-12-05T01:59:19.070+08:00', end: '2026-12-05T01:59:19.283+08:00' }] })] })).filter((x) => x.cls === 'cause').map((x) => x.verdict);
      expect(kindOn('stall')).toEqual(['true']);
      expect(kindOn('hang')).toEqual(['false']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('score: replay', () => {
  const replay = (clients: any[], faults: any[], defaults: Record<string, string> = {}, provenance: Record<string, unknown> = {}) => ({
    verdict: 'reproduced',
    scenario: {
      startEpochMs: Date.parse(T('09:58:00')),
      brokers: [{ name: 'broker-a', host: 'broker-a-host', addr: '10.0.0.21:10911' }],
      clients,
      faults,
    },
    defaults,
    provenance,
    milestones: [],
  });
  const sc = (host: string, settings: Record<string, unknown>, x: Record<string, unknown> = {}) => ({ host, version: '4.9.4', namesrv: '10.0.0.11:9876', sendRatePerSec: 2, settings, ...x });

  it('inferred settings against what the client ran with (the defaults where lab.json gives none)', () => {
    const l = lab({ clients: [{ ...lab().clients[0], async: true, settings: { retryTimesWhenSendFailed: 0 } }] });
    const ss = replayStatements(
      new Truth(l),
      replay([sc('app-1', { sendMsgTimeoutMs: 2500 }, { sendRatePerSec: 5 })], [], {
        'scenario.clients[0].settings.retryTimesWhenSendFailed': '2 (DefaultMQProducer default: 3 attempts)',
        'scenario.clients[0].settings.sendLatencyFaultEnable': 'false (DefaultMQProducer default)',
      }),
    );
    // A value replay lists in its defaults is an assumption it states as one: class replay-assumed.
    expect(ss.map((s) => [s.claim, s.verdict, s.cls])).toEqual([
      ['app-1 runs client 4.9.4', 'true', 'replay-setting'],
      ['app-1 sendMsgTimeoutMs=2500', 'false', 'replay-setting'],
      ['app-1 retryTimesWhenSendFailed=2 (a default)', 'false', 'replay-assumed'],
      ['app-1 sendLatencyFaultEnable=false (a default)', 'true', 'replay-assumed'],
      ['app-1 clientCloseSocketIfTimeout=?', 'unknown', 'replay-setting'],
      ['app-1 sends synchronously', 'false', 'replay-setting'],
      ['app-1 sends 5/s', 'false', 'replay-setting'],
      ['app-1 bound to NameServer 10.0.0.11:9876', 'true', 'replay-setting'],
    ]);
    expect(ss[1].why).toBe('it ran sendMsgTimeout=3000 (the default)');
  });

  it('a setting the scenario runs with that replay also lists among its defaults is an assumption, not a claim (gen-20261225)', () => {
    const ss = replayStatements(
      new Truth(lab()),
      replay([sc('app-1', { sendLatencyFaultEnable: true })], [], { 'scenario.clients[0].settings.sendLatencyFaultEnable': 'true (inferred at an assumed rate)' }),
    ).filter((s) => s.claim.includes('sendLatencyFaultEnable'));
    expect(ss.map((s) => [s.claim, s.verdict, s.cls])).toEqual([['app-1 sendLatencyFaultEnable=true (a default)', 'false', 'replay-assumed']]);
  });

  it("an asynchronous client's retries are retryTimesWhenSendAsyncFailed's, which the lab's producer never set (2), not retryTimesWhenSendFailed's", () => {
    const l = lab({ clients: [{ ...lab().clients[0], async: true, settings: { retryTimesWhenSendFailed: 0 } }] });
    const retries = (async: boolean, value: string) =>
      replayStatements(new Truth(l), replay([sc('app-1', {}, async ? { async: true } : {})], [], { [`scenario.clients[0].settings.${async ? 'retryTimesWhenSendAsyncFailed' : 'retryTimesWhenSendFailed'}`]: `${value} (DefaultMQProducer default)` }))
        .filter((s) => s.claim.includes('retryTimes'))
        .map((s) => [s.claim, s.verdict, s.cls]);
    expect(retries(true, '2')).toEqual([['app-1 retryTimesWhenSendAsyncFailed=2 (a default)', 'true', 'replay-assumed']]);
    expect(retries(true, '1')).toEqual([['app-1 retryTimesWhenSendAsyncFailed=1 (a default)', 'false', 'replay-assumed']]);
    // A replay that runs the client synchronously states its synchronous retries, held to what the application set.
    expect(retries(false, '2')).toEqual([['app-1 retryTimesWhenSendFailed=2 (a default)', 'false', 'replay-assumed']]);
  });

  it("a replay's asynchronous client, inferred or taken as a default, against the application's sends", () => {
    const claim = (async: boolean, x: Record<string, unknown>, defaults: Record<string, string> = {}) => {
      const l = lab({ clients: [{ ...lab().clients[0], async }] });
      return replayStatements(new Truth(l), replay([sc('app-1', {}, x)], [], defaults))
        .filter((s) => s.claim.includes('synchronously'))
        .map((s) => [s.claim, s.verdict]);
    };
    expect(claim(true, { async: true })).toEqual([['app-1 sends asynchronously', 'true']]);
    expect(claim(false, { async: true })).toEqual([['app-1 sends asynchronously', 'false']]);
    expect(claim(true, {}, { 'scenario.clients[0].async': 'false (no failed send came through a SendCallback)' })).toEqual([['app-1 sends synchronously (a default)', 'false']]);
    expect(replayStatements(new Truth(lab()), replay([sc('app-1', {})], [], { 'scenario.clients[0].async': 'false (no failed send came through a SendCallback)' })).find((x) => x.claim.includes('synchronously'))!.cls).toBe('replay-assumed');
    expect(claim(false, {})).toEqual([['app-1 sends synchronously', 'true']]);
  });

  it("a rate shared equally among a topic's producers: each share is assumed, their sum is the claim (within 1.25x of the lab's rates summed)", () => {
    const base = lab().clients[0];
    const l = lab({ clients: [{ ...base, host: 'app-1', rate: 1 }, { ...base, host: 'app-2', rate: 5, schedule: [{ at: 0, rate: 5 }, { at: 60, rate: 9 }] }] });
    const run = (share: number, defaults = true) =>
      replayStatements(
        new Truth(l),
        replay(
          [sc('app-1', {}, { topic: 'TopicA', sendRatePerSec: share }), sc('app-2', {}, { topic: 'TopicA', sendRatePerSec: share })],
          [],
          defaults ? { 'scenario.clients[0].sendRatePerSec': `${share} (an equal share)`, 'scenario.clients[1].sendRatePerSec': `${share} (an equal share)` } : {},
          provenance,
        ),
      ).filter((x) => / sends? [\d.]+\/s/.test(x.claim));
    const provenance: Record<string, unknown> = { 'scenario.clients[0].sendRatePerSec': { rule: 'stats.log' }, 'scenario.clients[1].sendRatePerSec': { rule: 'stats.log' } };
    const three = run(3);
    expect(three.map((x) => [x.claim, x.verdict, x.cls])).toEqual([
      ['app-1 sends 3/s (an equal share)', 'false', 'replay-assumed'],
      ['app-2 sends 3/s (an equal share)', 'false', 'replay-assumed'],
      ['the 2 producers of TopicA (app-1, app-2) send 6/s together', 'true', 'replay-setting'],
    ]);
    expect(three[2].why).toBe('they sent 6/s to 10/s (their schedules)');
    // 2 x 6.3 = 12.6 > 10 x 1.25; 2 x 2.3 = 4.6 < 6 / 1.25.
    expect(run(6.3).at(-1)!.verdict).toBe('false');
    expect(run(2.3).at(-1)!.verdict).toBe('false');
    expect(run(2.5).at(-1)!.verdict).toBe('true');
    // Rates replay read for each client are claims of their own, with no sum.
    expect(run(3, false).map((x) => x.cls)).toEqual(['replay-setting', 'replay-setting']);
    // A rate no line gave (in the defaults, not in the provenance) is assumed, and no sum is claimed.
    for (const k of Object.keys(provenance)) delete provenance[k];
    expect(run(1).map((x) => x.cls)).toEqual(['replay-assumed', 'replay-assumed']);
  });

  it("the precision of all statements leaves out the values replay says it assumed; their class keeps them", () => {
    const l = lab({ clients: [{ ...lab().clients[0], settings: { retryTimesWhenSendFailed: 0 } }] });
    const r = replay([sc('app-1', { sendMsgTimeoutMs: 3000, sendLatencyFaultEnable: false, clientCloseSocketIfTimeout: false })], [], {
      'scenario.clients[0].settings.retryTimesWhenSendFailed': '2 (DefaultMQProducer default: 3 attempts)',
    });
    const score = scoreRecording('x', l, null, r);
    expect(score.byClass['replay-assumed']).toMatchObject({ true: 0, false: 1 });
    expect(score.counts.false).toBe(score.statements.filter((x) => x.verdict === 'false' && x.cls !== 'replay-assumed').length);
    expect(score.statements.some((x) => x.verdict === 'false' && x.cls === 'replay-assumed')).toBe(true);
  });

  it('a producer whose traffic the scenario changed: a rate between its lowest and its highest is true', () => {
    const l = lab({ clients: [{ ...lab().clients[0], rate: 3, schedule: [{ at: 0, rate: 12 }, { at: 90, rate: 3 }] }] });
    const rate = (r: number) => replayStatements(new Truth(l), replay([sc('app-1', {}, { sendRatePerSec: r })], [])).find((x) => x.claim === `app-1 sends ${r}/s`)!;
    expect(rate(3.9).verdict).toBe('true');
    expect(rate(14).verdict).toBe('true');
    expect(rate(16).verdict).toBe('false');
    expect(rate(16).why).toBe('it sent 3/s to 12/s (its schedule) (factor 1.25)');
    expect(rate(2).verdict).toBe('false');
  });

  it('inferred faults: a crash modelled as a freeze is a false kind', () => {
    const l = lab({ faults: [{ kind: 'crash', host: 'broker-a-host', start: T('10:00:00'), end: T('10:01:00'), pids: [] }] });
    const ss = replayStatements(new Truth(l), replay([], [{ atMs: 120_000, host: 'broker-a-host', state: 'hung' }, { atMs: 180_000, host: 'broker-a-host', state: 'up' }]));
    expect(ss.map((s) => [s.where, s.verdict])).toEqual([
      ['scenario.faults[0]', 'true'],
      ['scenario.faults[0]', 'false'],
    ]);
  });
});

describe('score: a rebooted host whose servers booted at different times', () => {
  it("a claim about its broker holds until the broker's boot, one about its NameServer until the NameServer's (gen-599: 40 s apart)", () => {
    const T2 = (hms: string) => `2024-12-05T${hms}.000+08:00`;
    const l = lab({ faults: [{ kind: 'reboot', host: 'broker-a-host', start: T2('10:00:00'), end: T2('10:00:20'), pids: [] }] });
    const boots = [
      { host: 'broker-a-host', at: ms(T2('10:00:35')), process: 'namesrv' as const },
      { host: 'broker-a-host', at: ms(T2('10:01:15')), process: 'broker' as const },
    ];
    const truth = new Truth(l, [], boots);
    const at = ms(T2('10:01:10'));
    const claim = (what: string) => checkDown(truth, say('replay', 'replay-milestone', 'm', `${what} was gone`), 'broker-a-host', what, at, at).verdict;
    expect(claim('broker broker-a')).toBe('true');
    expect(claim('NameServer 10.0.0.21:9876')).toBe('false');
    // Without the boot lines the fault ends at the lab's end of it.
    expect(checkDown(new Truth(l), say('replay', 'replay-milestone', 'm', 'gone'), 'broker-a-host', 'broker broker-a', at, at).verdict).toBe('false');
  });
});

describe('score: a host without power in the replay', () => {
  it("a whole host `hung` (no connection completes) names a reboot's dark time, until its link came up; a freeze of its processes does not", () => {
    const T2 = (hms: string) => `2024-12-05T${hms}.000+08:00`;
    const l = lab({ faults: [{ kind: 'reboot', host: 'broker-a-host', start: T2('10:00:00'), end: T2('10:00:40'), linkUp: T2('10:00:30'), pids: [] }] });
    const run = (processesOnly: boolean, upAtMs: number) =>
      replayStatements(
        new Truth(l),
        {
          verdict: 'reproduced',
          scenario: {
            startEpochMs: Date.parse(T2('09:58:00')),
            brokers: [{ name: 'broker-a', host: 'broker-a-host', addr: '10.0.0.21:10911' }],
            clients: [],
            faults: [
              { atMs: 121_000, host: 'broker-a-host', state: 'hung', ...(processesOnly ? { processesOnly } : {}) },
              { atMs: upAtMs, host: 'broker-a-host', state: 'reboot', boot: { brokerMs: 5000 } },
            ],
          },
          defaults: {},
          milestones: [],
        },
      )
        .filter((x) => x.where === 'scenario.faults[0]')
        .map((x) => [x.claim, x.verdict]);
    expect(run(false, 151_000)).toEqual([
      ['a fault on broker-a-host at 10:00:01.000-10:00:31.000', 'true'],
      ['broker-a-host: unreachable', 'true'],
      ['unreachable on broker-a-host over 10:00:01.000-10:00:31.000', 'true'],
    ]);
    // Unreachable until 10:00:45: 15 s after the link came up.
    expect(run(false, 165_000).at(-1)![1]).toBe('false');
    expect(run(true, 151_000)[1]).toEqual(['broker-a-host: hung', 'false']);
  });
});

describe('score: consumers', () => {
  /** app-1 a producer, app-3 a consumer of CID_A that the lab killed at 10:00:00 and a slowdown of app-3 and app-4. */
  const withConsumers = () => {
    const l: any = lab({
      faults: [
        { kind: 'consumer-kill', host: 'app-3', start: T('10:00:00'), end: null, pids: [1] },
        { kind: 'slowdown', host: 'app-4', start: T('10:01:00'), end: T('10:02:00'), consumers: ['app-4', 'app-3'], processMs: 1500, pids: [] },
      ],
    });
    l.hosts.push({ name: 'app-3', addr: '10.0.0.33', roles: ['consumer'], collected: true }, { name: 'app-4', addr: '10.0.0.34', roles: ['consumer'], collected: true });
    l.consumers = [{ host: 'app-3', group: 'CID_A' }, { host: 'app-4', group: 'CID_A' }];
    l.consumerGroups = [{ group: 'CID_A', instances: ['app-3', 'app-4'] }];
    return l as LabJson;
  };

  it('reads the consumer truth, and a recording without it has none', () => {
    expect(new Truth(withConsumers()).consumers().map((c) => c.host)).toEqual(['app-3', 'app-4']);
    expect(new Truth(withConsumers()).consumerGroups().map((g) => g.group)).toEqual(['CID_A']);
    expect(new Truth(lab()).consumers()).toEqual([]);
    expect(new Truth(lab()).consumerGroups()).toEqual([]);
  });

  it("a consumer application's impact: no send lost is true of it, lost sends are false", () => {
    const impactOf = (failedSends: number) =>
      analyzeStatements(new Truth(withConsumers()), analyzed({ incidents: [incident({ impact: [{ client: 'app-3', start: null, end: null, failedSends, clientVersion: '4.9.4', lastedBecause: null }] })] })).filter((x) => x.cls === 'impact');
    expect(impactOf(0).map((x) => [x.claim, x.verdict])).toEqual([['app-3 lost no send', 'true']]);
    expect(impactOf(3).map((x) => [x.claim, x.verdict, x.why])).toEqual([['app-3 lost sends', 'false', 'the lab ran a consumer (CID_A), no producer, on app-3']]);
  });

  it('a consumer fault is a cause analyze must name: recall counts it and says what was missed', () => {
    const r = scoreRecording('t', withConsumers(), analyzed({}), null);
    expect(r.recall.causes).toEqual({ stated: 0, present: 2 });
    expect(r.missed.filter((m) => m.startsWith('no cause'))).toEqual(['no cause names consumer-kill on app-3 10:00:00.000-10:05:00.000', 'no cause names slowdown on app-4 10:01:00.000-10:02:00.000']);
    // A slowdown of several instances is on each of them.
    const truth = new Truth(withConsumers());
    expect(truth.faultsOn('app-3', ms(T('10:01:30')), ms(T('10:01:40')), 0).map((f) => f.kind)).toEqual(['consumer-kill', 'slowdown']);
    const named = scoreRecording('t', withConsumers(), analyzed({ incidents: [incident({ causes: [cause('consumer-kill', 'app-3', '10:00:01', null)] })] }), null);
    expect(named.recall.causes).toEqual({ stated: 1, present: 2 });
  });

  it('a consume-failures cause may start at the first failed delivery a struck instance logged (none fails before a message reaches it)', () => {
    const l: any = withConsumers();
    l.faults = [{ kind: 'consume-failures', host: 'app-4', start: T('10:01:00'), end: T('10:02:00'), consumers: ['app-4'], laterShare: 0.4, throwShare: 0.3, pids: [] }];
    const judged = (failed: Array<{ host: string; at: number }>) =>
      analyzeStatements(new Truth(l as LabJson, [], [], failed), analyzed({ incidents: [incident({ causes: [{ ...cause('consume-failures', 'app-4', '10:01:20', '10:01:58'), group: 'CID_A' }] })] }))
        .filter((x) => x.cls === 'cause' && /over/.test(x.claim))
        .map((x) => x.verdict);
    expect(judged([])).toEqual(['false']);
    expect(judged([{ host: 'app-4', at: ms(T('10:01:19')) }])).toEqual(['true']);
    // Another instance's failure is not this fault's effect.
    expect(judged([{ host: 'app-3', at: ms(T('10:01:19')) }])).toEqual(['false']);
  });

  it('a listener fault that struck no delivery is no cause to recall (gen-20261210: a consumer that never received a message)', () => {
    const withDeliveries = (first: string | null, last: string | null) => {
      const l: any = withConsumers();
      l.consumers = l.consumers.map((c: any) => ({ ...c, firstDelivery: first && T(first), lastDelivery: last && T(last) }));
      return l as LabJson;
    };
    // The slowdown (10:01-10:02) of app-3 and app-4: none received anything, or only before it.
    expect(scoreRecording('t', withDeliveries(null, null), analyzed({}), null).recall.causes).toEqual({ stated: 0, present: 1 });
    expect(scoreRecording('t', withDeliveries('09:58:00', '10:00:30'), analyzed({}), null).recall.causes).toEqual({ stated: 0, present: 1 });
    // Deliveries around it: it may have slowed them, so it counts.
    expect(scoreRecording('t', withDeliveries('09:58:00', '10:04:00'), analyzed({}), null).recall.causes).toEqual({ stated: 0, present: 2 });
  });

  it("analyze's consumer cause words name the lab's faults, and the cause's group is held to the consumer on its host", () => {
    const causes = (c: any) => analyzeStatements(new Truth(withConsumers()), analyzed({ incidents: [incident({ causes: [c] })] })).filter((x) => x.cls === 'cause');
    const gone = causes({ ...cause('consumer-gone', 'app-3', '10:00:01', null), group: 'CID_A' });
    expect(gone.map((x) => x.verdict)).toEqual(['true', 'true', 'true', 'true']);
    expect(gone[3].claim).toBe('app-3 runs an instance of consumer group CID_A');
    // A slow listener named on the other instance the slowdown struck, over its window.
    expect(causes({ ...cause('slow-listener', 'app-3', '10:01:03', '10:01:58'), group: 'CID_A' }).map((x) => x.verdict)).toEqual(['true', 'true', 'true', 'true']);
    // The wrong group, the wrong kind, the wrong time: each false.
    expect(causes({ ...cause('consumer-gone', 'app-3', '10:00:01', null), group: 'CID_B' }).map((x) => x.verdict)).toEqual(['true', 'true', 'true', 'false']);
    expect(causes({ ...cause('consumer-stopped', 'app-3', '10:00:01', null), group: 'CID_A' }).map((x) => x.verdict)).toEqual(['true', 'false', 'true']);
    expect(causes({ ...cause('slow-listener', 'app-4', '10:03:30', '10:04:00'), group: 'CID_A' }).map((x) => x.verdict)).toEqual(['false', 'true']);
    expect(scoreRecording('t', withConsumers(), analyzed({ incidents: [incident({ causes: [{ ...cause('slow-listener', 'app-4', '10:01:02', '10:02:01'), group: 'CID_A' }] })] }), null).recall.causes).toEqual({ stated: 1, present: 2 });
  });

  it("an offset reset acts on the group: a cause on any of its instances names it", () => {
    const l: any = withConsumers();
    l.faults = [{ kind: 'reset-offset', host: 'app-3', start: T('10:00:00'), end: T('10:00:04'), pids: [] }];
    const on = (host: string) => analyzeStatements(new Truth(l), analyzed({ incidents: [incident({ causes: [{ ...cause('offset-reset', host, '10:00:01', '10:00:02'), group: 'CID_A' }] })] })).filter((x) => x.cls === 'cause');
    expect(on('app-4').map((x) => x.verdict)).toEqual(['true', 'true', 'true', 'true']);
    expect(on('app-1').map((x) => x.verdict)).toEqual(['false', 'false']);
  });

  it("consumer-backlog's cause: a slow listener needs a listener fault on its hosts, the threads an instance with about that many", () => {
    const finding = (metrics: Record<string, unknown>) => ({ id: 'F1', rule: 'consumer-backlog', title: 'Group CID_A: backlog for 1 min, cause: x', start: T('10:01:10'), end: T('10:01:50'), subject: {}, metrics });
    const of = (metrics: Record<string, unknown>, l: LabJson = withConsumers()) =>
      analyzeStatements(new Truth(l), analyzed({ findings: [finding(metrics)] })).filter((x) => x.cls === 'consumer').map((x) => [x.claim, x.verdict]);
    expect(of({ cause: 'slow-listener', slowHosts: ['app-4'] })).toEqual([['consumer group CID_A', 'true'], ["CID_A's listener slowed on app-4", 'true']]);
    // During the slowdown the threads were not the limit, whatever their number.
    expect(of({ cause: 'consume-threads', busyThreads: 20 })[1][1]).toBe('false');
    const quiet: any = withConsumers();
    quiet.faults = [];
    quiet.consumers = [{ host: 'app-3', group: 'CID_A', settings: { consumeThreadMin: 1 } }, { host: 'app-4', group: 'CID_A', settings: { consumeThreadMin: 1 } }];
    expect(of({ cause: 'consume-threads', busyThreads: 1 }, quiet)[1][1]).toBe('true');
    expect(of({ cause: 'consume-threads', busyThreads: 8 }, quiet)[1][1]).toBe('false');
    expect(of({ cause: 'slow-listener', slowHosts: ['app-4'] }, quiet)[1][1]).toBe('false');
  });

  it("a SimpleConsumer group's invisible time, assumed or not, against the lab's receives (15 s unless set); a group of no SimpleConsumer is false", () => {
    const l: any = withConsumers();
    l.consumers = [
      { host: 'app-3', group: 'CID_A', mode: 'grpcSimple', settings: { invisibleSeconds: 10 } },
      { host: 'app-4', group: 'CID_A', mode: 'grpcSimple', settings: { invisibleSeconds: 10 } },
    ];
    const of = (invisibleMs: number, x: any = l, defaults: Record<string, string> = { 'scenario.consumerGroups[0].invisibleMs': '15000 (assumed)' }) =>
      replayStatements(new Truth(x), {
        scenario: { startEpochMs: 0, brokers: [], clients: [], faults: [], consumerGroups: [{ group: 'CID_A', invisibleMs, instances: [] }] },
        defaults,
        milestones: [],
        outages: [],
      } as any).map((st) => [st.claim, st.verdict, st.why]);
    expect(of(15_000)).toEqual([['CID_A invisibleMs=15000 (assumed)', 'false', 'it received with 10000 ms']]);
    expect(of(10_000, l, {})).toEqual([['CID_A invisibleMs=10000', 'true', 'it received with 10000 ms']]);
    const unset = structuredClone(l);
    for (const c of unset.consumers) c.settings = { invisibleSeconds: null };
    expect(of(15_000, unset)[0][1]).toBe('true');
    const push = structuredClone(l);
    for (const c of push.consumers) c.mode = 'grpcPush';
    expect(of(15_000, push)).toEqual([['CID_A invisibleMs=15000 (assumed)', 'false', 'the lab ran app-3, app-4 as no SimpleConsumer']]);
  });

  it("replay taking a consumer's host for a producer is false, and says what ran there", () => {
    const ss = replayStatements(new Truth(withConsumers()), { scenario: { startEpochMs: 0, brokers: [], clients: [{ host: 'app-3', version: '4.9.4', sendRatePerSec: 1, settings: {} }], faults: [] }, milestones: [], outages: [] });
    expect(ss.map((s) => [s.claim, s.verdict, s.why])).toEqual([['a producer on app-3', 'false', 'the lab ran a consumer (CID_A), no producer, on app-3']]);
  });
});

describe('score: replay outages', () => {
  it("each simulated client's lost sends within 0.5-1.5x of the application's or 2 sends either way, and none where it lost none", () => {
    const r = { scenario: { startEpochMs: 0, brokers: [], clients: [], faults: [] }, milestones: [], outages: [
      { client: 'app-1', simulatedFailedSends: 59 },
      { client: 'app-1', simulatedFailedSends: 61 },
      { client: 'app-2', simulatedFailedSends: 1 },
    ] };
    expect(verdicts(replayStatements(new Truth(lab()), r))).toEqual(['true', 'false', 'false']);
    // A few lost sends: 2 either way holds where the factors would ask for the exact count.
    const few = (lost: number, failed: number) => {
      const l = lab({ clients: [{ ...lab().clients[0], sends: { ...lab().clients[0].sends, failed } }] });
      return verdicts(replayStatements(new Truth(l), { ...r, outages: [{ client: 'app-1', simulatedFailedSends: lost }] }));
    };
    expect([few(0, 1), few(3, 1), few(4, 1), few(0, 2), few(0, 3), few(1, 0)]).toEqual([['true'], ['true'], ['false'], ['true'], ['false'], ['false']]);
  });
});

describe('score: the defaults a client ran with', () => {
  it('are the DefaultMQProducer defaults, and closeSocketIfTimeout follows the version and the property', () => {
    const c = lab().clients[0];
    expect(effectiveClient(c)).toMatchObject({ sendMsgTimeout: 3000, retryTimesWhenSendFailed: 2, sendLatencyFaultEnable: false, closeSocketIfTimeout: true });
    expect(effectiveClient({ ...c, version: '4.7.1' }).closeSocketIfTimeout).toBe(false);
    expect(effectiveClient({ ...c, systemProperties: { 'com.rocketmq.remoting.client.closeSocketIfTimeout': 'false' } }).closeSocketIfTimeout).toBe(false);
    expect(effectiveClient({ ...c, settings: { sendMsgTimeout: 1800 } }).sendMsgTimeout).toBe(1800);
  });
});

/** The figures of a score are what its statements and recall say. */
function expectConsistent(s: RecordingScore, labJson: LabJson): void {
  // The counts are the claims': every statement but the values replay says it assumed.
  const claims = s.statements.filter((x) => isClaim(x.cls));
  expect(s.counts.true + s.counts.false + s.counts.unknown).toBe(claims.length);
  expect(s.counts.true).toBe(claims.filter((x) => x.verdict === 'true').length);
  for (const k of ['true', 'false', 'unknown'] as const) expect(CLASSES.filter(isClaim).reduce((a, c) => a + s.byClass[c][k], 0), k).toBe(s.counts[k]);
  for (const k of ['true', 'false', 'unknown'] as const) expect(CLASSES.reduce((a, c) => a + s.byClass[c][k], 0), k).toBe(s.statements.filter((x) => x.verdict === k).length);
  expect(s.precision).toBe(s.counts.true + s.counts.false ? s.counts.true / (s.counts.true + s.counts.false) : null);
  for (const x of s.statements) {
    expect(CLASSES, x.where).toContain(x.cls);
    if (x.verdict !== 'true') expect(x.why, `${x.where}: ${x.claim}`).not.toBe('');
  }
  expect(s.recall.causes.present).toBe(labJson.faults.length);
  // Clients whose logs the recording leaves out (hosts[].collected false) cannot be named, so they are not counted.
  const collected = (host: string) => labJson.hosts.find((h) => h.name === host)?.collected !== false;
  expect(s.recall.clients.present).toBe(labJson.clients.filter((c) => c.sends.failed > 0 && collected(c.host)).length);
  expect(s.recall.causes.stated).toBeLessThanOrEqual(s.recall.causes.present);
  expect(s.recall.clients.stated).toBeLessThanOrEqual(s.recall.clients.present);
  // What recall missed is listed, one line each.
  expect(s.missed).toHaveLength(s.recall.causes.present - s.recall.causes.stated + s.recall.clients.present - s.recall.clients.stated);
}

describe('score: on recordings', () => {
  const names = ['crash', 'seed-outage'];
  const scores: RecordingScore[] = [];
  beforeAll(async () => {
    for (const name of names) {
      const r = recording(name);
      const [a, p] = [await analyzeReport(r), await replayReport(r)];
      scores.push(scoreRecording(name, r.lab, a.report, p.report));
    }
  }, 120_000);

  it('each recording: the counts add up, per class and in all, and recall counts the lab faults and the clients that lost sends', () => {
    names.forEach((name, i) => expectConsistent(scores[i], recording(name).lab));
    // Every cause of every incident was turned into statements: at least one each, and so was every client's impact.
    const seed = scores[1];
    expect(seed.statements.filter((s) => s.cls === 'cause' && s.claim.startsWith('a fault on')).length).toBeGreaterThanOrEqual(1);
    expect(seed.statements.filter((s) => s.cls === 'impact' && / lost sends$/.test(s.claim)).length).toBeGreaterThanOrEqual(1);
    expect(seed.statements.filter((s) => s.source === 'replay').length).toBeGreaterThan(0);
  });

  it('all: the sums of the recordings', () => {
    const all = scoreAll(scores);
    for (const k of ['true', 'false', 'unknown'] as const) expect(all.counts[k]).toBe(scores.reduce((a, s) => a + s.counts[k], 0));
    expect(all.recall.causes.present).toBe(scores.reduce((a, s) => a + s.recall.causes.present, 0));
    expect(all.recall.clients.stated).toBe(scores.reduce((a, s) => a + s.recall.clients.stated, 0));
    const table = formatTable(scores, all);
    for (const line of table.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(table).toMatch(/^crash /m);
    expect(table).toMatch(/^all /m);
    // Every false statement is listed with its evidence.
    const listed = formatFalse(scores);
    for (const s of scores) for (const x of s.statements.filter((y) => y.verdict === 'false')) expect(listed).toContain(x.why);
  });
});

describe('score: the command', () => {
  it('usage and input errors are exit code 2 with one line', async () => {
    const lines: string[] = [];
    expect(await scoreCommand(ROOT, [], (l) => lines.push(l))).toBe(2);
    expect(await scoreCommand(ROOT, ['--bogus', 'samples/lab'], (l) => lines.push(l))).toBe(2);
    expect(await scoreCommand(ROOT, ['samples/no-such'], (l) => lines.push(l))).toBe(2);
    expect(lines[2]).toBe('samples/no-such: no such folder');
    expect(() => recordingDirs([`${ROOT}/docs`])).toThrow(/no lab.json/);
    expect(recordingDirs([`${ROOT}/samples/lab`]).length).toBeGreaterThanOrEqual(8);
  });
});

describe('score: consumer statements', () => {
  /** lab() with one consumer group whose truth the statements are checked against. */
  const withGroup = () => {
    const l = lab() as any;
    l.consumerGroups = [
      {
        group: 'CID_A', topic: 'TopicA', instances: ['app-3'], maxReconsumeTimes: 2, sent: 600, deliveries: 900, received: 600, consumed: 560,
        failed: 380, failedByResult: {}, retried: 190, duplicates: 248, duplicateDeliveries: 248, firstDelivery: T('10:00:00'), lastDelivery: T('10:04:00'),
        dlq: { byAdminTool: 58, byDeliveries: 58, msgIds: [] }, neverConsumed: { count: 0, byTag: {}, msgIds: [] },
        maxLag: { at: T('10:02:00'), total: 218 },
        lag: [{ at: T('10:01:50'), total: 150 }, { at: T('10:02:00'), total: 218 }, { at: T('10:03:00'), total: 4 }],
      },
    ];
    return new Truth(l as LabJson);
  };
  const impact = (x: Record<string, unknown>) => ({ group: 'CID_A', topics: ['TopicA'], hosts: ['app-3'], failed: null, redelivered: null, dlq: null, consumedAgain: null, lag: null, cachedAtLeast: null, unknown: [], ...x });
  const judged = (c: Record<string, unknown>) => analyzeStatements(withGroup(), { incidents: [], findings: [], consumers: [impact(c)] } as any).filter((s) => s.cls === 'consumer').map((s) => [s.claim, s.verdict]);

  it('figures within the tolerance are true, outside it false', () => {
    expect(judged({ failed: 381, redelivered: 300, dlq: 58, consumedAgain: 248 })).toEqual([
      ['381 deliveries failed', 'true'],
      ['300 redelivered through %RETRY%', 'true'],
      ['at least 58 in %DLQ%CID_A', 'true'],
      ['248 delivered again', 'true'],
    ]);
    expect(judged({ failed: 175, redelivered: 200, consumedAgain: 7 }).map((x) => x[1])).toEqual(['false', 'false', 'false']);
  });

  it('messages delivered again are the lab\'s consumed twice, or up to its failed deliveries more (a redelivery that failed is no duplicate)', () => {
    expect(judged({ consumedAgain: 300 })).toEqual([['300 delivered again', 'true']]);
    expect(judged({ consumedAgain: 700 })).toEqual([['700 delivered again', 'false']]);
    expect(judged({ consumedAgain: 200 })).toEqual([['200 delivered again', 'false']]);
  });

  it('a DLQ said to be at least N is false only above the truth; a lag estimate is held to the samples then', () => {
    expect(judged({ dlq: 40 })).toEqual([['at least 40 in %DLQ%CID_A', 'true']]);
    expect(judged({ dlq: 90 })).toEqual([['at least 90 in %DLQ%CID_A', 'false']]);
    const lag = (about: number, at: string) => ({ lag: { about, at: T(at), from: T(at), until: T(at), minutes: 3, how: '' } });
    expect(judged(lag(208, '10:02:00'))).toEqual([['largest lag about 208 at 10:02:00.000', 'true']]);
    expect(judged(lag(100, '10:02:00'))).toEqual([['largest lag about 100 at 10:02:00.000', 'false']]);
    expect(judged(lag(208, '10:03:00'))).toEqual([['largest lag about 208 at 10:03:00.000', 'false']]);
    expect(judged(lag(12, '10:03:00'))).toEqual([['largest lag about 12 at 10:03:00.000', 'true']]);
    expect(judged(lag(50, '10:04:30'))).toEqual([['largest lag about 50 at 10:04:30.000', 'unknown']]);
    // A sample stands for its stamp up to 20 s on (its mqadmin queried the broker after it started).
    expect(judged(lag(218, '10:02:33'))).toEqual([['largest lag about 218 at 10:02:33.000', 'true']]);
    expect(judged({ cachedAtLeast: { count: 32, at: T('10:01:55'), host: 'app-3' } })).toEqual([['32 messages cached at 10:01:55.000', 'true']]);
  });

  it('a lag sample that says when the admin tool answered (`done`) stands for its stamp up to then', () => {
    const t = withGroup();
    (t.lab as any).consumerGroups[0].lag = [{ at: T('10:02:00'), done: T('10:02:05'), total: 218 }, { at: T('10:03:00'), done: T('10:03:04'), total: 4 }];
    const lagAt = (about: number, at: string) =>
      analyzeStatements(t, { incidents: [], findings: [], consumers: [impact({ lag: { about, at: T(at), from: T(at), until: T(at), minutes: 3, how: '' } })] } as any)
        .filter((x) => x.cls === 'consumer')
        .map((x) => x.verdict);
    expect(lagAt(218, '10:02:19')).toEqual(['true']);
    expect(lagAt(218, '10:02:33')).toEqual(['unknown']);
  });

  it("consume-failed's messages the broker logged as stored in the DLQ: true up to what the admin tool counted there, unknown when it logged none", () => {
    const of = (sentToDlq: number) =>
      analyzeStatements(withGroup(), { incidents: [], findings: [{ ...finding('F1', 'consume-failed', {}, '10:00:00', '10:01:00', { sentToDlq }), title: 'Group CID_A: 13 messages moved to %DLQ%CID_A' }], consumers: [] } as any)
        .filter((st) => st.cls === 'process')
        .map((st) => [st.claim, st.verdict]);
    expect(of(58)).toEqual([['the broker stored 58 messages of CID_A in %DLQ%CID_A', 'true']]);
    expect(of(59)).toEqual([['the broker stored 59 messages of CID_A in %DLQ%CID_A', 'false']]);
    expect(of(0)).toEqual([['Group CID_A: 13 messages moved to %DLQ%CID_A', 'unknown']]);
  });

  it('a group the lab did not run is false; a consumer rule\'s group and failures are checked', () => {
    const ss = analyzeStatements(withGroup(), { incidents: [], findings: [{ ...finding('F1', 'consume-failed', { group: 'CID_A' }, '10:00:00', '10:01:00'), title: 'Group CID_A: 175 consume failures' }], consumers: [impact({ group: 'CID_B' })] } as any);
    expect(ss.filter((s) => s.cls === 'consumer').map((s) => [s.claim, s.verdict])).toEqual([
      ['consumer group CID_B', 'false'],
      ['consumer group CID_A', 'true'],
      ["CID_A's deliveries failed", 'true'],
    ]);
  });
});

describe("score: a replay's first failed send against a lab whose first failure came before any fault", () => {
  // app-1 lost a send at 09:59:10 while it started (lab.json keeps only the first of all), and its
  // incident's failures began after the hang of 10:00:00.
  const l = lab({
    clients: [
      {
        ...lab().clients[0],
        sends: { total: 600, ok: 560, failed: 40, shed: 0, firstFailure: T('09:59:10'), lastFailure: T('10:02:30'), failuresByException: {}, okByBroker: {} },
      },
    ],
  });
  const claim = (at: string) =>
    replayStatements(new Truth(l), {
      verdict: 'reproduced',
      scenario: { startEpochMs: Date.parse(T('09:58:00')), brokers: [], clients: [], faults: [] },
      defaults: {},
      milestones: [{ name: 'first-failure', subject: 'app-1', simulated: T(at) }],
    }).find((x) => x.cls === 'replay-milestone')!;

  it('is not checkable far from it: lab.json does not give the incident’s first', () => {
    const s = claim('10:00:04');
    expect(s.verdict).toBe('unknown');
    expect(s.why).toMatch(/came before the lab injected any fault/);
  });

  it('is true near it; and a first failure after the faults began is held as ever (false 57 s off)', () => {
    expect(claim('09:59:12').verdict).toBe('true');
    const after = lab();
    const s = replayStatements(new Truth(after), {
      verdict: 'reproduced',
      scenario: { startEpochMs: Date.parse(T('09:58:00')), brokers: [], clients: [], faults: [] },
      defaults: {},
      milestones: [{ name: 'first-failure', subject: 'app-1', simulated: T('10:01:00') }],
    }).find((x) => x.cls === 'replay-milestone')!;
    expect(s.verdict).toBe('false');
  });
});
