// The routing rules over the bundled samples (ground truth in samples/*/expected.json) and over every
// real fixture, plus the address helpers they share.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeTimeline } from '../../src/rules/analyze.js';
import brokerDownDetection from '../../src/rules/broker-down-detection.js';
import brokerRegisterFailed from '../../src/rules/broker-register-failed.js';
import colocatedNamesrv from '../../src/rules/colocated-namesrv.js';
import namesrvStuck from '../../src/rules/namesrv-stuck.js';
import { addrInText, addrKey, brokerDataIn, ipOf, isConnectCause, isTimeoutCause, splitAddrs } from '../../src/rules/routing.js';
import staleRoute from '../../src/rules/stale-route.js';
import type { Finding } from '../../src/rules/types.js';
import { buildTimeline } from '../../src/timeline/build.js';

const RULES = [staleRoute, namesrvStuck, brokerDownDetection, colocatedNamesrv, brokerRegisterFailed];
const ROOT = new URL('../../', import.meta.url).pathname;

async function analyze(input: string): Promise<Finding[]> {
  const t = await buildTimeline({ inputs: [input], workers: 0 });
  try {
    return analyzeTimeline(t, { rules: RULES });
  } finally {
    t.close();
  }
}

const truth = (name: string) => JSON.parse(readFileSync(join(ROOT, 'samples', name, 'expected.json'), 'utf8')).groundTruth;
const ms = (iso: string) => Date.parse(iso);
const of = (findings: Finding[], rule: string) => findings.filter((f) => f.rule === rule);

describe('routing rules on samples/seed-outage', async () => {
  const gt = truth('seed-outage');
  const findings = await analyze(join(ROOT, 'samples/seed-outage'));
  const order = gt.clients['app-order-01'];
  const pay = gt.clients['app-pay-01'];

  it('namesrv-stuck: app-order-01 on the hung NameServer for about the length of the hang', () => {
    const stuck = of(findings, 'namesrv-stuck');
    expect(stuck).toHaveLength(1);
    const f = stuck[0];
    expect(f.severity).toBe('critical');
    expect(f.subject).toMatchObject({ client: 'app-order-01', namesrvAddr: order.boundNameServer });
    expect(f.metrics).toMatchObject({ timeouts: order.routeUpdateTimeouts, switchedTo: order.namesrvSwitch.new, clientVersion: order.clientVersion, closeSocketIfTimeout: false });
    // First route-poll timeout to the switch (the ground truth has whole seconds).
    expect(f.metrics.stuckMs).toBe(f.end! - f.start!);
    expect(Math.abs((f.metrics.stuckMs as number) - (ms(order.namesrvSwitch.at) - ms(order.firstRouteUpdateTimeout)))).toBeLessThan(1000);
    const hangMs = ms(gt.hang.hostBack) - ms(gt.hang.start);
    expect(Math.abs((f.metrics.stuckMs as number) - hangMs)).toBeLessThan(30000);
    expect(f.end).toBeGreaterThanOrEqual(ms(order.namesrvSwitch.at));
    expect(f.evidence.some((e) => /new name server is chosen/.test(e.text))).toBe(true);
  });

  it('stale-route: app-pay-01 within the routing bound, app-order-01 far beyond it', () => {
    const stale = of(findings, 'stale-route');
    const byClient = new Map(stale.map((f) => [f.subject.client, f]));
    expect([...byClient.keys()].sort()).toEqual(['app-order-01', 'app-pay-01']);
    const p = byClient.get('app-pay-01')!;
    expect(p.severity).toBe('warning');
    expect(p.subject).toMatchObject({ broker: 'broker-a', brokerAddr: '192.168.3.100:10911' });
    expect(p.metrics).toMatchObject({ withinRoutingBound: true, boundMs: 160000, failedSends: pay.appErrors, failedAttempts: pay.sendAttemptTimeouts, heartbeatFailures: pay.heartbeatFailures });
    expect(p.metrics.staleMs).toBe(ms(pay.routeLostBrokerA) - ms(pay.firstSendFailure));
    expect(p.metrics.staleMs as number).toBeGreaterThan(120000);
    expect(p.metrics.staleMs as number).toBeLessThanOrEqual(160000);
    const o = byClient.get('app-order-01')!;
    expect(o.severity).toBe('critical');
    expect(o.metrics).toMatchObject({ withinRoutingBound: false, heartbeatFailures: order.heartbeatFailures, routePollFailures: order.routeUpdateTimeouts });
    // The two refused attempts after the reset were retried on broker-b: only the timeouts lost sends.
    expect(o.metrics).toMatchObject({ failedSends: order.appErrors, failedAttempts: order.sendAttemptTimeouts + order.connectRefused });
    expect(Math.abs((o.metrics.staleMs as number) - (ms(order.routeLostBrokerA) - ms(order.firstSendFailure)))).toBeLessThan(1000);
    expect(o.explanation).toContain('namesrv-stuck');
  });

  it('broker-down-detection: 192.168.3.101:9876 expired broker-a by its scan, 127 s after the last registration', () => {
    const down = of(findings, 'broker-down-detection');
    expect(down).toHaveLength(1);
    expect(down[0].subject).toMatchObject({ broker: 'broker-a', brokerAddr: '192.168.3.100:10911', namesrvAddr: gt.brokerA.expiredOn.nameServer, host: 'mq-node-101' });
    expect(down[0].metrics).toMatchObject({ detection: 'expired', detectMs: gt.brokerA.expiredOn.sinceLastRegistrationSec * 1000, namesrvAddr: gt.brokerA.expiredOn.nameServer, path: 'scan' });
    expect(down[0].end).toBe(ms(gt.brokerA.expiredOn.at));
    expect(down[0].start).toBe(ms(gt.brokerA.lastRegistration));
  });

  it('colocated-namesrv: host 192.168.3.100 (mq-node-100), and only that one', () => {
    const co = of(findings, 'colocated-namesrv');
    expect(co).toHaveLength(1);
    expect(co[0].severity).toBe('error');
    expect(co[0].subject).toMatchObject({ host: 'mq-node-100', namesrvAddr: '192.168.3.100:9876', brokerAddr: '192.168.3.100:10911', broker: 'broker-a' });
    expect(co[0].metrics).toMatchObject({ host: gt.hang.host, namesrvAddr: '192.168.3.100:9876', brokerAddr: '192.168.3.100:10911' });
  });

  it('broker-register-failed: broker-b to the hung NameServer, 23 timeouts and one refusal', () => {
    const reg = of(findings, 'broker-register-failed');
    expect(reg).toHaveLength(1);
    expect(reg[0].severity).toBe('error');
    expect(reg[0].subject).toMatchObject({ host: 'mq-node-101', broker: 'broker-b', namesrvAddr: '192.168.3.100:9876' });
    expect(reg[0].metrics).toMatchObject({
      failures: gt.brokerB.registerFailuresTo100,
      timeouts: gt.brokerB.registerTimeoutsTo100,
      connectFailures: 1,
      windowMs: ms(gt.brokerB.lastRegisterFailure) - ms(gt.brokerB.firstRegisterFailure),
      otherNamesrvsOk: ['192.168.3.101:9876'],
      recovered: true,
    });
  });

  it('every finding is complete: one-line title, times, evidence, explanation, advice', () => {
    expect(findings.length).toBe(6);
    for (const f of findings) {
      expect(f.title).not.toContain('\n');
      expect(f.start).not.toBeNull();
      expect(f.end).not.toBeNull();
      expect(f.evidence.length).toBeGreaterThan(0);
      expect(f.explanation.length).toBeGreaterThan(100);
      expect(f.advice.length).toBeGreaterThan(0);
      for (const v of Object.values(f.metrics)) expect(typeof v === 'string' && /^\d+$/.test(v)).toBe(false);
    }
  });
});

describe('routing rules on samples/healthy-restart', async () => {
  const gt = truth('healthy-restart');
  const findings = await analyze(join(ROOT, 'samples/healthy-restart'));

  it('give no error or critical finding', () => {
    expect(findings.filter((f) => f.severity === 'error' || f.severity === 'critical')).toEqual([]);
  });

  it('broker-down-detection: both NameServers were told by unregistration', () => {
    const down = of(findings, 'broker-down-detection');
    expect(down.map((f) => f.metrics.namesrvAddr).sort()).toEqual(Object.keys(gt.restart.registeredAgain).sort());
    for (const f of down) {
      expect(f.severity).toBe('info');
      expect(f.metrics).toMatchObject({ detection: 'unregistered' });
      expect(f.subject).toMatchObject({ broker: gt.restart.broker, brokerAddr: gt.restart.addr });
      expect(f.end).toBe(ms(gt.restart.unregisteredFromNameServers));
    }
    expect(findings).toHaveLength(2);
  });
});

describe('routing rules on samples/broker-busy', () => {
  it('busy replies are not routing problems', async () => {
    expect(await analyze(join(ROOT, 'samples/broker-busy'))).toEqual([]);
  });
});

describe('routing rules on every real fixture', () => {
  const dir = join(ROOT, 'test/fixtures/real');
  const files = readdirSync(dir).filter((f) => f.endsWith('.log'));
  // The fixtures whose evidence supports a finding of these rules; every other one gives none.
  const expected: Record<string, Array<[string, Partial<Record<string, unknown>>]>> = {
    '33-broker-remoting-log-shutdown-closechannel.log': [['broker-down-detection', { detection: 'unregistered', path: 'inferred' }]],
    '35-broker-log-terminal-wrapped-register-shutdown.log': [['broker-down-detection', { detection: 'unregistered', path: 'inferred', detectMs: 8000 }]],
    '41-broker-registerbroker-exception-hostname-channel.log': [['broker-register-failed', { failures: 1, timeouts: 1 }]],
    // 3.x wording of the broker's shutdown hook (lower case, no `times.`).
    '81-alibaba-3x-broker-shutdown-hook-lowercase.log': [['broker-down-detection', { detection: 'unregistered', path: 'inferred' }]],
  };

  it.each(files)('%s', async (name) => {
    // Each fixture alone, in its own host folder, keeping its name (its kind comes from its content).
    const root = mkdtempSync(join(tmpdir(), 'rmq-fixture-'));
    try {
      mkdirSync(join(root, 'host'));
      copyFileSync(join(dir, name), join(root, 'host', name));
      const findings = await analyze(root);
      const want = expected[name] ?? [];
      expect(findings.map((f) => f.rule), JSON.stringify(findings, null, 1).slice(0, 1500)).toEqual(want.map(([r]) => r));
      want.forEach(([, metrics], i) => expect(findings[i].metrics).toMatchObject(metrics));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('all fixtures together (one host, headerless pastes with no time) do not throw', async () => {
    await expect(analyze(dir)).resolves.toBeInstanceOf(Array);
  });
});

describe('routing helpers', () => {
  it('normalise addresses as RocketMQ prints them', () => {
    expect(addrKey('/10.0.0.1:10911')).toBe('10.0.0.1:10911');
    expect(addrKey('ocketmq-namesrv-prod01.cloud.bz/xx.x.xx.xx:9876')).toBe('xx.x.xx.xx:9876');
    expect(addrKey(null)).toBeNull();
    expect(ipOf('rocketmq-namesrv/10.0.0.1:9876')).toBe('10.0.0.1');
    expect(splitAddrs('192.168.3.100:9876;192.168.3.101:9876')).toEqual(['192.168.3.100:9876', '192.168.3.101:9876']);
  });

  it('read the address of an exception text', () => {
    expect(addrInText('RemotingTimeoutException: wait response on the channel <192.168.3.100:10911> timeout, 2999(ms)')).toBe('192.168.3.100:10911');
    expect(addrInText('RemotingTimeoutException: wait response on the channel </10.0.0.1:10911> timeout, 2998(ms)')).toBe('/10.0.0.1:10911');
    expect(addrInText('RemotingConnectException: connect to 10.10.1.21:10911 failed')).toBe('10.10.1.21:10911');
    expect(addrInText('RemotingConnectException: connect to <x.x.x.x10911> failed')).toBe('x.x.x.x10911');
    expect(addrInText('RemotingTooMuchRequestException: sendDefaultImpl call timeout')).toBeNull();
  });

  it('tell timeouts from refusals and from busy replies', () => {
    expect(isTimeoutCause('RemotingTimeoutException: wait response on the channel <192.168.3.100:9876> timeout, 3000(ms)')).toBe(true);
    expect(isTimeoutCause('RemotingTooMuchRequestException: sendDefaultImpl call timeout')).toBe(true);
    expect(isTimeoutCause('MQBrokerException: CODE: 2  DESC: [TIMEOUT_CLEAN_QUEUE]broker busy, start flow control for a while, period in queue: 205ms, size of queue: 1168')).toBe(false);
    expect(isTimeoutCause('RemotingConnectException: connect to 10.10.1.21:10911 failed')).toBe(false);
    expect(isConnectCause('RemotingConnectException: connect to 10.10.1.21:10911 failed')).toBe(true);
  });

  it('read broker addresses from a route line', () => {
    const text =
      'the topic[TopicPay] route info changed, old[null] ,new[TopicRouteData [orderTopicConf=null, queueDatas=[], brokerDatas=[BrokerData [brokerName=broker-b, brokerAddrs={0=192.168.3.101:10911}], BrokerData [brokerName=broker-a, brokerAddrs={0=192.168.3.100:10911, 1=192.168.3.102:10911}]], filterServerTable={}]]';
    expect(brokerDataIn(text)).toEqual([
      ['broker-b', '192.168.3.101:10911', '0'],
      ['broker-a', '192.168.3.100:10911', '0'],
      ['broker-a', '192.168.3.102:10911', '1'],
    ]);
  });
});
