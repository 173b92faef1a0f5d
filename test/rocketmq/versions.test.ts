import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { clientProfile, serverProfile } from '../../src/model/versions.js';
import { CLIENT, SERVER } from '../../src/rocketmq/facts.js';
import { factHolds, factOver, formatRange, hintRange, intersectHints, mqVersionOrdinal, parseRange, parseVersion, pickVersion, rangeContains, rangeOverlaps, versionSide } from '../../src/rocketmq/versions.js';
import { clientVersionOf } from '../../src/rules/versions.js';

const RELEASES = ['4.3.0', '4.5.2', '4.7.1', '4.8.0', '4.9.0', '4.9.1', '4.9.4', '4.9.8', '5.0.0', '5.1.4', '5.2.0', '5.3.0', '5.3.1', '5.3.3'];
const source = (hints: string[]) => [{ path: 'c.log', host: 'h', kind: 'client', versionHints: hints }] as any;

describe('version ranges', () => {
  it('parses the printed forms and nothing else', () => {
    expect(parseRange('4.9.4')).toEqual({ lo: [4, 9, 4], hi: [4, 9, 4] });
    expect(parseRange('4.3.0-4.7.1')).toEqual({ lo: [4, 3, 0], hi: [4, 7, 1] });
    expect(parseRange('>=5.1.0')).toEqual({ lo: [5, 1, 0], hi: [99, 0, 0] });
    expect(parseRange('<=4.9.0')).toEqual({ lo: [0, 0, 0], hi: [4, 9, 0] });
    expect(parseRange('unknown')).toBeNull();
    expect(parseRange('<5.3.0')).toBeNull();
  });

  it('reads hints: `<x` is just below x, `3.x` the 3 line', () => {
    expect(hintRange('<5.3.0')).toEqual({ lo: [0, 0, 0], hi: [5, 2, 99] });
    expect(hintRange('<5.0.0')).toEqual({ lo: [0, 0, 0], hi: [4, 99, 99] });
    expect(hintRange('<4.9.1')).toEqual({ lo: [0, 0, 0], hi: [4, 9, 0] });
    expect(hintRange('3.x')).toEqual({ lo: [3, 0, 0], hi: [3, 99, 99] });
    expect(hintRange('logback')).toBeNull();
  });

  it('intersects hints and prints the result in the forms parseRange reads', () => {
    const r = intersectHints(['>=4.3.0', '<4.8.0', 'noise'])!;
    expect(formatRange(r.range, r.exact)).toBe('4.3.0-4.7.99');
    expect(parseRange(formatRange(r.range, r.exact))).toEqual(r.range);
    expect(intersectHints(['>=5.1.0', '<5.0.0'])).toBeNull();
    expect(intersectHints(['x'])).toBeNull();
    const e = intersectHints(['>=4.3.0', '4.9.4'])!;
    expect(formatRange(e.range, e.exact)).toBe('4.9.4');
  });

  it('sides, overlaps and containment', () => {
    expect(versionSide('4.3.0-4.7.1', '4.9.1')).toBe('below');
    expect(versionSide('>=5.3.0', '5.3.0')).toBe('atLeast');
    expect(versionSide('<=5.3.0', '5.3.0')).toBe('unknown');
    expect(versionSide('unknown', '5.3.0')).toBe('unknown');
    expect(rangeOverlaps('4.9.0-5.1.0', '5.0.0', '5.2.0')).toBe(true);
    expect(rangeOverlaps('>=5.3.0', '5.0.0', '5.2.0')).toBe(false);
    expect(rangeOverlaps('unknown', '5.0.0', '5.2.0')).toBeNull();
    expect(rangeContains('4.3.0-4.7.1', '4.7.1')).toBe(true);
    expect(rangeContains('4.3.0-4.7.1', '4.8.0')).toBe(false);
    expect(rangeContains('unknown', '4.8.0')).toBe(true);
  });

  it('picks a release the model runs', () => {
    expect(pickVersion('4.9.4', '4.9.8')).toEqual({ version: '4.9.4', exact: true });
    expect(pickVersion('4.3.0-4.7.1', '4.9.8')).toEqual({ version: '4.7.1', exact: false });
    expect(pickVersion('>=3.0.0', '4.9.8')).toEqual({ version: '4.3.0', exact: false });
    expect(pickVersion('<=4.2.99', '4.9.8')).toEqual({ version: '4.9.8', exact: false });
    expect(pickVersion('unknown', '4.9.8')).toEqual({ version: '4.9.8', exact: false });
  });
});

describe('version facts', () => {
  it('hold over a range when they hold for all of it, not when for none, and are open otherwise', () => {
    const f = CLIENT.scanAvailableNameSrv;
    expect(factOver(f, parseRange('5.0.0-5.2.0')!)).toBe(true);
    expect(factOver(f, parseRange('<=4.9.8')!)).toBe(false);
    expect(factOver(f, parseRange('>=5.3.0')!)).toBe(false);
    expect(factOver(f, parseRange('4.9.0-5.1.0')!)).toBeNull();
    expect(factOver(f, parseRange('>=5.0.0')!)).toBeNull();
    expect(factOver(CLIENT.faultPrefersLastBroker, parseRange('<=4.7.1')!)).toBe(true);
  });

  it('the model and the rules read the same facts: for every release they agree', () => {
    for (const v of RELEASES) {
      const p = clientProfile(v);
      const cv = clientVersionOf('h', source([v]));
      expect(cv.closeSocketIfTimeout, v).toBe(p.closeSocketIfTimeout);
      expect(cv.rescansNameServers, v).toBe(p.scanAvailableNameSrv);
      expect(p.retryResponseCodes.includes(2), v).toBe(factHolds(CLIENT.retriesSystemBusy, parseVersion(v)!));
      expect(p.retryResponseCodes.includes(1500), v).toBe(factHolds(CLIENT.retriesGoAway, parseVersion(v)!));
      expect(serverProfile(v).sendThreadPoolNums(8) === 4, v).toBe(factHolds(SERVER.sendThreadsFromCores, parseVersion(v)!));
    }
    expect(clientProfile('4.9.0').closeSocketIfTimeout).toBe(false);
    expect(clientProfile('4.9.1').closeSocketIfTimeout).toBe(true);
    expect(clientProfile('5.2.0').scanAvailableNameSrv).toBe(true);
    expect(clientProfile('5.3.0').scanAvailableNameSrv).toBe(false);
  });
});

describe("MQVersion.Version's ordinal (a RemotingCommand's version)", () => {
  it("is what the lab's brokers answered with: 353 from 4.7.0 (gen-23), 355 from 4.7.1 (gen-708)", () => {
    const logged = (file: string) => Number(/RemotingCommand \[code=2, language=JAVA, version=(\d+),/.exec(gunzipSync(readFileSync(join(__dirname, '..', '..', 'samples', 'generated', file))).toString())![1]);
    expect(mqVersionOrdinal(parseVersion('4.7.0')!)).toBe(logged('gen-23/app-order-01/logs/rocketmqlogs/rocketmq_client.log.gz'));
    expect(mqVersionOrdinal(parseVersion('4.7.1')!)).toBe(logged('gen-708/app-order-01/logs/rocketmqlogs/rocketmq_client.log.gz'));
    // The enum's ends of the span it holds for: V4_0_0 and V5_9_9 (read at 5.3.3).
    expect(mqVersionOrdinal(parseVersion('4.0.0')!)).toBe(213);
    expect(mqVersionOrdinal(parseVersion('5.9.9')!)).toBe(611);
  });
});

describe("a push consumer's pause after a failed pull (PULL_RETRY_DELAY)", () => {
  it('is ClientConfig.pullTimeDelayMillsWhenException from 4.6.0, as the clients print it (consumer-slow-listener, 4.9.4), 3000 ms fixed before', () => {
    const log = gunzipSync(readFileSync(join(__dirname, '..', '..', 'samples', 'lab', 'consumer-slow-listener', 'app-stock-01', 'logs', 'rocketmqlogs', 'rocketmq_client.log.gz'))).toString();
    const printed = Number(/pullTimeDelayMillsWhenException=(\d+)/.exec(log)![1]);
    expect(clientProfile('4.9.4').pullTimeDelayMillsWhenException).toBe(printed);
    expect(clientProfile('4.6.0').pullTimeDelayMillsWhenException).toBe(printed);
    expect(clientProfile('4.5.2').pullTimeDelayMillsWhenException).toBe(3000);
  });
});
