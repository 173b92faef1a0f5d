// The lab's own pieces that need no root: scenario files, the 4.x logback files, lab.json.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildLabJson, isoLab } from '../../lab/src/labjson.js';
import { SERVER_LOG_FILES, serverLogbackConfigs } from '../../lab/src/logback.js';
import { faultEnd, loadScenario, namesrvAddr, ScenarioError, validateScenario, type Scenario } from '../../lab/src/scenario.js';
import { ROOT } from '../cli/helpers.js';

const dir = join(ROOT, 'lab', 'scenarios');
const base = (): Scenario => ({
  scenario: 't',
  description: 'A test.',
  versions: { namesrv: '4.9.4', broker: '4.9.4' },
  topics: [{ name: 'T', queues: 4 }],
  settleSeconds: 30,
  tailSeconds: 10,
  hosts: [
    { name: 'ns', addr: '10.213.0.11', processes: [{ kind: 'namesrv' }] },
    { name: 'b', addr: '10.213.0.21', processes: [{ kind: 'broker', brokerName: 'broker-a', brokerId: 0 }] },
    { name: 'app', addr: '10.213.0.31', processes: [{ kind: 'producer', version: '4.9.4', group: 'G', topic: 'T', rate: 1 }] },
  ],
  faults: [{ kind: 'crash', host: 'b', at: 0 }],
});

describe('lab scenarios', () => {
  it('every committed scenario is valid and has a recording in samples/lab', () => {
    const names = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(names.length).toBeGreaterThanOrEqual(6);
    const recorded = new Set(readdirSync(join(ROOT, 'samples', 'lab')));
    for (const f of names) {
      const s = loadScenario(join(dir, f));
      expect(s.scenario).toBe(f.slice(0, -5));
      expect(recorded.has(s.scenario), `samples/lab/${s.scenario}`).toBe(true);
    }
  });

  it('names the field that is wrong', () => {
    const bad = (mutate: (s: any) => void) => {
      const s: any = base();
      mutate(s);
      return () => validateScenario(s);
    };
    expect(bad((s) => (s.hosts[1].addr = '192.168.1.1'))).toThrow(/hosts\[1\]\.addr/);
    expect(bad((s) => (s.hosts[1].processes[0].brokerId = -1))).toThrow(/brokerId/);
    expect(bad((s) => s.hosts.push({ ...s.hosts[1], name: 'b2', addr: '10.213.0.22', processes: [{ kind: 'broker', brokerName: 'broker-x', brokerId: 1 }] }))).toThrow(/slave of broker-x without its master/);
    expect(bad((s) => (s.faults[0] = { kind: 'hang', host: 'b', at: 0 }))).toThrow(/faults\[0\]\.seconds: missing/);
    expect(bad((s) => (s.faults[0] = { kind: 'overload', host: 'ns', at: 0, seconds: 5, load: { producers: ['app'], rate: 10, threads: 1 } }))).toThrow(/needs a broker/);
    expect(bad((s) => (s.faults[0] = { kind: 'overload', host: 'b', at: 0, seconds: 5, cpuQuota: 2, load: { producers: ['app'], rate: 10, threads: 1 } }))).toThrow(/cpuQuota/);
    expect(bad((s) => (s.hosts[2].processes[0].bindTo = 'b'))).toThrow(/runs no NameServer/);
    expect(bad((s) => (s.hosts[0].processes[0].settings = { 'bad key': 1 }))).toThrow(/not a property name/);
    expect(() => validateScenario(base())).not.toThrow();
    expect(bad((s) => (s.versions.broker = 'latest'))).toThrow(ScenarioError);
  });

  it('gives NameServer lists and fault ends as the lab uses them', () => {
    const s = base();
    s.hosts.push({ name: 'ns2', addr: '10.213.0.12', processes: [{ kind: 'namesrv' }] });
    expect(namesrvAddr(s)).toBe('10.213.0.11:9876;10.213.0.12:9876');
    expect(namesrvAddr(s, ['ns2'])).toBe('10.213.0.12:9876');
    expect(faultEnd({ kind: 'reboot', host: 'b', at: 300, downSeconds: 20, bootSeconds: 15 })).toBe(335);
    expect(faultEnd({ kind: 'crash', host: 'b', at: 10 })).toBeNull();
  });
});

describe('the 4.x server logback files', () => {
  const conf = serverLogbackConfigs();

  it("write the release's files with its patterns: GMT+8 seconds, watermark without level and thread", () => {
    const broker = conf['logback_broker.xml'];
    for (const f of SERVER_LOG_FILES.broker) expect(broker).toContain(`\${user.home}/logs/rocketmqlogs/\${brokerLogDir}/${f}.log</file>`);
    expect(broker).toMatch(/watermark\.log<\/file>[\s\S]*?<pattern>%d\{yyy-MM-dd HH:mm:ss,GMT\+8\} - %m%n<\/pattern>/);
    expect(broker).toMatch(/stats\.log<\/file>[\s\S]*?<pattern>%d\{yyy-MM-dd HH:mm:ss,GMT\+8\} %p - %m%n<\/pattern>/);
    expect(broker).toContain('<logger name="RocketmqWaterMark" additivity="false">');
    expect(broker).toContain('otherdays/${brokerLogDir}/broker.%i.log.gz');
    const ns = conf['logback_namesrv.xml'];
    // The NameServer's remoting lines go to namesrv.log (there is no namesrv remoting.log).
    expect(ns).toMatch(/<logger name="RocketmqRemoting" additivity="false">\s*<level value="INFO"\/>\s*<appender-ref ref="RocketmqNamesrvAppender"\/>/);
    expect(ns).toContain('<discardingThreshold>0</discardingThreshold>');
  });
});

describe('lab.json', () => {
  it('is written from the lab clock in +08:00 and counts the sends as the applications got them', () => {
    expect(isoLab(Date.UTC(2026, 11, 1, 9, 54, 17, 486))).toBe('2026-12-01T17:54:17.486+08:00');
    const s = base();
    const t = Date.UTC(2026, 11, 1, 10, 0, 0);
    const j = buildLabJson({
      scenario: s,
      javaVersion: '17',
      startedAt: new Date(t),
      faultsFrom: new Date(t + 60_000),
      endedAt: new Date(t + 120_000),
      faults: [{ kind: 'crash', host: 'b', start: new Date(t + 60_000), end: null, detail: { pids: [42] } }],
      boundTo: new Map([['app', '10.213.0.11:9876']]),
      discardedAttempts: new Map(),
      sends: new Map([
        [
          'app',
          [
            { start: t + 1, end: t + 2, outcome: 'ok', queue: 'broker-a:0', detail: 'SEND_OK' },
            { start: t + 61_000, end: t + 64_000, outcome: 'fail', queue: '', detail: 'org.apache.rocketmq.remoting.exception.RemotingTooMuchRequestException: sendDefaultImpl call timeout' },
            { start: t + 65_000, end: t + 65_000, outcome: 'shed', queue: '', detail: '' },
          ],
        ],
      ]),
    });
    expect(j.hosts.map((h) => h.roles)).toEqual([['namesrv'], ['broker-master'], ['producer']]);
    expect(j.faults[0]).toMatchObject({ kind: 'crash', host: 'b', start: '2026-12-01T18:01:00.000+08:00', end: null, pids: [42] });
    expect(j.clients[0].sends).toMatchObject({
      total: 2,
      ok: 1,
      failed: 1,
      shed: 1,
      firstFailure: '2026-12-01T18:01:04.000+08:00',
      failuresByException: { RemotingTooMuchRequestException: 1 },
      okByBroker: { 'broker-a': 1 },
    });
  });
});
