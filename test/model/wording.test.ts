// The model writes each message in the words of the version it runs: every event its logs give whose
// catalogue entry pins a version range (versionHint) must come from a component of that range.

import { describe, expect, it } from 'vitest';
import { matchMessage } from '../../src/parse/catalogue.js';
import { Exceptions } from '../../src/model/remoting.js';
import { runScenario, type Scenario } from '../../src/model/scenario.js';
import { clientProfile } from '../../src/model/versions.js';
import { hintRange, parseVersion, compareVersions, rangeContains } from '../../src/rocketmq/versions.js';
import { client, seedOutage } from './scenarios.js';

const CLIENT_VERSIONS = ['4.3.0', '4.5.1', '4.7.1', '4.9.0', '4.9.2', '4.9.3', '5.0.0', '5.1.0', '5.1.3', '5.2.0', '5.3.0', '5.3.1', '5.3.2', '5.3.3'];
const SERVER_VERSIONS = ['4.3.0', '4.4.0', '4.5.1', '4.9.4', '5.0.0', '5.1.4', '5.3.3'];

function scenario(serverVersion: string, clientVersions: readonly string[]): Scenario {
  const clients = clientVersions.map((v, i) => client(`app-${i}`, v, i % 2 ? '192.168.3.101:9876' : '192.168.3.100:9876', i === 1 ? { selector: true } : {}));
  const sc = seedOutage({ hangAtMs: 120000, hangMs: 150000, clients, serverVersion, serverChannelMaxIdleTimeSeconds: 300 });
  sc.faults!.push(
    { atMs: 40000, broker: 'broker-b', overload: { durationMs: 20000, serviceMs: 4, backgroundPerSec: 300 } },
    { atMs: 65000, broker: 'broker-b', overload: { durationMs: 3000, serviceMs: 600, sdMs: 1 } },
    { atMs: 75000, broker: 'broker-a', diskFull: { durationMs: 20000, ratio: 0.96, okRatio: 0.5 } },
    { atMs: 100000, broker: 'broker-b', stall: { durationMs: 1500 } },
  );
  return sc;
}

describe('the model writes the words of its versions', () => {
  SERVER_VERSIONS.forEach((serverVersion, k) => {
    // Every client version runs against some server version, in groups of four.
    const clientVersions = [0, 1, 2, 3].map((i) => CLIENT_VERSIONS[(k * 4 + i) % CLIENT_VERSIONS.length]);
    it(`servers ${serverVersion}, clients ${clientVersions.join(', ')}`, () => {
      const sc = scenario(serverVersion, clientVersions);
      const versionOf = new Map<string, string>(sc.clients.map((c) => [c.host, c.version]));
      const r = runScenario(sc, { seed: 5, untilMs: 330000 });
      let hinted = 0;
      for (const e of r.events) {
        const range = e.versionHint === undefined ? null : hintRange(e.versionHint);
        if (range === null) continue;
        hinted++;
        // Client hosts run their client's version (also in app.log); the others the servers'.
        const v = parseVersion(versionOf.get(e.host) ?? serverVersion)!;
        const where = `${e.file}:${e.line} ${e.entry} (${e.versionHint}) from ${v.join('.')}: ${e.text}`;
        expect(compareVersions(v, range.lo) >= 0 && compareVersions(v, range.hi) <= 0, where).toBe(true);
      }
      expect(hinted).toBeGreaterThan(0);
    });
  });

  it('a registration names the broker id from 4.5.0; a NameServer prints its address on boot from 5.1.0', () => {
    for (const [version, entry, address] of [
      ['4.4.0', 'broker-registered/register-broker', false],
      ['4.5.1', 'broker-registered/register-broker-id', false],
      ['5.0.0', 'broker-registered/registering-completed', false],
      ['5.1.4', 'broker-registered/registering-completed', true],
    ] as const) {
      const r = runScenario(scenario(version, ['4.9.4']), { seed: 5, untilMs: 20000 });
      const ok = r.events.filter((e) => e.type === 'broker-registered' && e.file.endsWith('/broker.log'));
      expect(ok.length, version).toBeGreaterThan(0);
      expect(new Set(ok.map((e) => e.entry)), version).toEqual(new Set([entry]));
      const boots = r.events.filter((e) => e.type === 'startup' && e.fields.role === 'namesrv');
      expect(boots.length, version).toBeGreaterThan(0);
      for (const b of boots) expect(b.text.includes(', address '), `${version}: ${b.text}`).toBe(address);
    }
  });

  it('a call whose time ran out before it was sent says so in its version words (the address from 4.9.3)', () => {
    for (const v of ['4.3.0', '4.9.2', '4.9.3', '5.3.3']) {
      const exc = Exceptions.callTimeout('10.0.0.1:10911', clientProfile(v).callTimeoutNamesAddr);
      const m = matchMessage(`${exc.cls}: ${exc.msg}`);
      expect(m?.type, v).toBe('rpc-timeout');
      expect(rangeContains(m!.entry.versionHint!, v), `${v}: ${m!.entry.id} (${m!.entry.versionHint})`).toBe(true);
    }
  });
});
