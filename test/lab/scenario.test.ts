// The lab's own pieces that need no root: scenario files, the 4.x logback files, lab.json.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildLabJson, isoLab } from '../../lab/src/labjson.js';
import { clientRanWith } from '../../lab/src/defaults.js';
import { SERVER_LOG_FILES, serverLogbackConfigs } from '../../lab/src/logback.js';
import { BOOT_MARGIN_SECONDS, compareVersions, faultEnd, loadScenario, namesrvAddr, ScenarioError, validateScenario, type Scenario } from '../../lab/src/scenario.js';
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
    expect(faultEnd({ kind: 'partition', host: 'b', at: 30, seconds: 45, groups: [['b'], ['app']] })).toBe(75);
  });

  it('checks a partition: two disjoint groups of known hosts, its host in the first, a length', () => {
    const with_ = (f: object) => () => validateScenario({ ...base(), faults: [{ kind: 'partition', host: 'b', at: 0, seconds: 30, ...f } as never] });
    expect(with_({ groups: [['b'], ['ns', 'app']] })).not.toThrow();
    expect(with_({ groups: [['b'], ['b', 'app']] })).toThrow(/faults\[0\]\.groups\[1\]: b in both groups/);
    expect(with_({ groups: [['b'], ['nowhere']] })).toThrow(/groups\[1\]: no host nowhere/);
    expect(with_({ groups: [['b'], []] })).toThrow(/two non-empty lists/);
    expect(with_({ groups: [['ns'], ['b']] })).toThrow(/faults\[0\]\.host: b is not in the first group/);
    expect(with_({ groups: [['b'], ['app']], seconds: undefined })).toThrow(/faults\[0\]\.seconds: missing/);
  });

  it('refuses faults on one host that cannot happen together, and allows those that can', () => {
    const faults = (...f: object[]) => () => validateScenario({ ...base(), faults: f as never });
    // Processes that are down cannot hang, and a crashed host that stays down cannot crash again.
    expect(faults({ kind: 'crash', host: 'b', at: 0, downSeconds: 60 }, { kind: 'hang', host: 'b', at: 30, seconds: 10 })).toThrow(/faults\[1\]: overlaps faults\[0\] on b, whose processes are down in a crash/);
    expect(faults({ kind: 'crash', host: 'b', at: 0 }, { kind: 'restart', host: 'b', at: 300, downSeconds: 5 })).toThrow(/overlaps faults\[0\]/);
    expect(faults({ kind: 'disk-full', host: 'b', at: 0, seconds: 60 }, { kind: 'reboot', host: 'b', at: 59, downSeconds: 10 })).toThrow(/down in a reboot/);
    expect(faults({ kind: 'hang', host: 'b', at: 0, seconds: 30 }, { kind: 'hang', host: 'b', at: 1, seconds: 5 })).toThrow(/faults\[1\]: overlaps faults\[0\], another hang of b/);
    expect(faults({ kind: 'partition', host: 'b', at: 0, seconds: 30, groups: [['b'], ['ns']] }, { kind: 'partition', host: 'b', at: 10, seconds: 30, groups: [['b'], ['app']] })).toThrow(/another partition of b/);
    // A restart or crash strikes the servers: an application host has none.
    expect(faults({ kind: 'restart', host: 'app', at: 0, downSeconds: 5 })).toThrow(/faults\[0\]\.host: a restart strikes the servers and app runs none/);
    // The servers boot for a while after a stop ends: a fault then would strike a boot (seed 146: a crash 5 s after a reboot's restart).
    expect(faults({ kind: 'reboot', host: 'b', at: 0, downSeconds: 60, bootSeconds: 5 }, { kind: 'crash', host: 'b', at: 70 })).toThrow(/down in a reboot/);
    expect(faults({ kind: 'crash', host: 'b', at: 0, downSeconds: 60 }, { kind: 'hang', host: 'b', at: 60 + BOOT_MARGIN_SECONDS - 1, seconds: 10 })).toThrow(/down in a crash/);
    // Allowed: one after the other, a reboot at the hang's end, a stall inside a full disk, a partition across a reboot.
    expect(faults({ kind: 'crash', host: 'b', at: 0, downSeconds: 60 }, { kind: 'hang', host: 'b', at: 60 + BOOT_MARGIN_SECONDS, seconds: 10 })).not.toThrow();
    expect(faults({ kind: 'hang', host: 'b', at: 0, seconds: 60 }, { kind: 'reboot', host: 'b', at: 60, downSeconds: 10 })).not.toThrow();
    expect(faults({ kind: 'disk-full', host: 'b', at: 0, seconds: 60 }, { kind: 'hang', host: 'b', at: 10, seconds: 2 })).not.toThrow();
    expect(faults({ kind: 'reboot', host: 'b', at: 0, downSeconds: 30 }, { kind: 'partition', host: 'b', at: 10, seconds: 60, groups: [['b'], ['ns']] })).not.toThrow();
    expect(faults({ kind: 'reboot', host: 'app', at: 0, downSeconds: 30 })).not.toThrow();
  });

  it('orders releases by their numbers, not as text', () => {
    expect(compareVersions('4.9.10', '4.9.9')).toBe(1);
    expect(compareVersions('4.9.1', '4.9.1')).toBe(0);
    expect(compareVersions('4.10.0', '5.0.0')).toBe(-1);
  });
});

describe('the 4.x server logback files', () => {
  const conf = serverLogbackConfigs({ namesrv: '4.9.4', broker: '4.9.4' });

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

  it("are each release's: ${brokerLogDir} only from 4.9.3, which sets it; the 30 s scan from 4.9.5", () => {
    // 4.8.0's BrokerStartup never sets brokerLogDir: its release writes straight into rocketmqlogs/.
    const old = serverLogbackConfigs({ namesrv: '4.8.0', broker: '4.8.0' })['logback_broker.xml'];
    expect(old).not.toContain('brokerLogDir');
    for (const f of SERVER_LOG_FILES.broker) expect(old).toContain(`<file>\${user.home}/logs/rocketmqlogs/${f}.log</file>`);
    expect(old).toContain('<fileNamePattern>${user.home}/logs/rocketmqlogs/otherdays/broker.%i.log.gz</fileNamePattern>');
    expect(serverLogbackConfigs({ namesrv: '4.9.2', broker: '4.9.2' })['logback_broker.xml']).not.toContain('brokerLogDir');
    expect(serverLogbackConfigs({ namesrv: '4.9.3', broker: '4.9.3' })['logback_broker.xml']).toContain('rocketmqlogs/${brokerLogDir}/broker.log');
    expect(conf['logback_broker.xml']).toContain('\n<configuration>\n');
    const scanned = serverLogbackConfigs({ namesrv: '4.9.7', broker: '4.9.5' });
    for (const xml of Object.values(scanned)) expect(xml).toContain('<configuration scan="true" scanPeriod="30 seconds">');
    // Each server's file follows its own release.
    const mixed = serverLogbackConfigs({ namesrv: '4.9.5', broker: '4.8.0' });
    expect(mixed['logback_namesrv.xml']).toContain('scan="true"');
    expect(mixed['logback_broker.xml']).not.toContain('scan="true"');
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
    // Every setting as the process ran with it: the release defaults here, none being given.
    expect(j.clients[0].ranWith).toEqual({
      sendMsgTimeout: 3000,
      retryTimesWhenSendFailed: 2,
      retryTimesWhenSendAsyncFailed: 2,
      sendLatencyFaultEnable: false,
      pollNameServerInterval: 30000,
      heartbeatBrokerInterval: 30000,
      closeSocketIfTimeout: true,
    });
    expect(j.clients[0].selector).toBe(false);
    expect(j.servers.brokers[0]).toMatchObject({ version: '4.9.4', ranWith: { brokerRole: 'ASYNC_MASTER', brokerName: 'broker-a', listenPort: 10911, namesrvAddr: '10.213.0.11:9876' } });
    expect(JSON.stringify(j.servers)).not.toMatch(/storePath|kvConfigPath/);
  });

  it("gives each client's settings as it ran with them: the given value, else its release's default", () => {
    const p = (version: string, settings = {}, systemProperties = {}) => clientRanWith({ kind: 'producer', version, group: 'G', topic: 'T', rate: 1, settings, systemProperties });
    const close = 'com.rocketmq.remoting.client.closeSocketIfTimeout';
    // NettyClientConfig hard-codes false before 4.9.1; from 4.9.1 the system property decides, default true.
    expect(p('4.9.0').closeSocketIfTimeout).toBe(false);
    expect(p('4.9.0', {}, { [close]: 'true' }).closeSocketIfTimeout).toBe(false);
    expect(p('4.9.1').closeSocketIfTimeout).toBe(true);
    expect(p('5.3.3', {}, { [close]: 'false' }).closeSocketIfTimeout).toBe(false);
    expect(p('4.7.1', { sendMsgTimeout: 1000, retryTimesWhenSendFailed: 0, sendLatencyFaultEnable: true, pollNameServerInterval: 10000 })).toMatchObject({
      sendMsgTimeout: 1000,
      retryTimesWhenSendFailed: 0,
      sendLatencyFaultEnable: true,
      pollNameServerInterval: 10000,
    });
    // 5.1.4 reads fault avoidance's default from com.rocketmq.sendLatencyEnable (ClientConfig); earlier clients do not.
    expect(p('5.1.4', {}, { 'com.rocketmq.sendLatencyEnable': 'true' }).sendLatencyFaultEnable).toBe(true);
    expect(p('5.1.3', {}, { 'com.rocketmq.sendLatencyEnable': 'true' }).sendLatencyFaultEnable).toBe(false);
    expect(p('5.1.4', { sendLatencyFaultEnable: false }, { 'com.rocketmq.sendLatencyEnable': 'true' }).sendLatencyFaultEnable).toBe(false);
  });
});
