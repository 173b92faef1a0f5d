// The client's route round (MQClientInstance.updateTopicRouteInfoFromNameServer) after its
// NameServer's host rebooted: the client learns it at its next route poll, whose write draws a RST.
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/model/scenario.js';
import { client, NS_A, seedOutage } from './scenarios.js';

const REBOOT_AT_MS = 200_000;

/** The seed cluster with host A rebooted at once (no hang before it), one client bound to its NameServer. */
function run(version: string) {
  const sc = seedOutage({ clients: [client('app-1', version, NS_A)] });
  sc.faults = [{ atMs: REBOOT_AT_MS, host: 'mq-node-100', state: 'reboot' }];
  const r = runScenario(sc, { seed: 1, untilMs: REBOOT_AT_MS + 70_000 });
  const after = r.events.filter((e) => e.host === 'app-1' && e.ts! >= sc.startEpochMs + REBOOT_AT_MS);
  // The poll's write on the NameServer channel draws the reset; the client closes the channel.
  const reset = after.find((e) => e.entry === 'channel-closed/removed' && e.text.includes(NS_A));
  const failed = after.find((e) => e.entry === 'route-update-failed/exception');
  const chosen = after.find((e) => e.entry === 'namesrv-chosen/chosen');
  return { reset, failed, chosen };
}

describe('client route round after a NameServer reboot', () => {
  it('a 4.5.x client goes on with its next topic, whose call chooses another NameServer at once (gen-79: 4.5.1)', () => {
    const { reset, failed, chosen } = run('4.5.1');
    expect(reset).toBeDefined();
    // Its first topic, TBW102, failed unlogged (the catch skips it); no ERROR either way.
    expect(failed?.level ?? 'WARN').toBe('WARN');
    expect(chosen!.ts! - reset!.ts!).toBeLessThan(100);
  });

  it('from 4.6.0 the RemotingException is logged at ERROR and ends the round (IllegalStateException): another NameServer is chosen a poll later', () => {
    const { reset, failed, chosen } = run('4.6.0');
    expect(failed?.level).toBe('ERROR');
    expect(failed!.ts! - reset!.ts!).toBeLessThan(100);
    expect(chosen!.ts! - reset!.ts!).toBeGreaterThanOrEqual(29_000);
  });
});
