// The send-path rules over the bundled samples and the real pasted excerpts: the broker-busy sample
// gives the broker, the figures and the two episodes of its ground truth; the healthy restart gives
// no error; every real excerpt with a send-path symptom is reported by the matching rule, and no
// rule throws on any excerpt (headerless pastes included).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzeTimeline } from '../../src/rules/analyze.js';
import type { Finding, Rule } from '../../src/rules/types.js';
import { buildTimeline } from '../../src/timeline/build.js';
import brokerBusy from '../../src/rules/broker-busy.js';
import pagecacheBusy from '../../src/rules/pagecache-busy.js';
import sendTimeoutBudget from '../../src/rules/send-timeout-budget.js';
import sendNoRetry from '../../src/rules/send-no-retry.js';
import retrySameBroker from '../../src/rules/retry-same-broker.js';
import diskFull from '../../src/rules/disk-full.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RULES: Rule[] = [brokerBusy, pagecacheBusy, sendTimeoutBudget, sendNoRetry, retrySameBroker, diskFull];
const FIXTURES = join(ROOT, 'test', 'fixtures', 'real');

async function findings(input: string, rules: Rule[] = RULES): Promise<Finding[]> {
  const t = await buildTimeline({ inputs: [input], workers: 0 });
  try {
    return analyzeTimeline(t, { rules });
  } finally {
    t.close();
  }
}

describe('send-path rules over samples/broker-busy', () => {
  it('name broker-b, count 73 rejections once each, and tell the overload from the stalls', async () => {
    const all = await findings(join(ROOT, 'samples', 'broker-busy'));
    const busy = all.filter((f) => f.rule === 'broker-busy');
    expect(busy).toHaveLength(1);
    const f = busy[0];
    expect(f.severity).toBe('error');
    expect(f.subject).toMatchObject({ broker: 'broker-b', brokerAddr: '192.168.1.12:10911', host: 'mq-broker-b' });
    expect(f.metrics).toMatchObject({
      rejections: 73,
      maxWaitMs: 799,
      minWaitMs: 200,
      thresholdMs: 200,
      episodes: 2,
      episodeKinds: ['backlog', 'stall'],
      backlogRejections: 40,
      stalls: 33,
      stallBursts: 3,
      clients: 2,
      clientVersion: '4.9.4',
      maxWatermarkQueue: 2716,
      maxInLockMs: 795,
    });
    expect(f.start).toBe(Date.parse('2023-06-14T20:05:24.415+08:00'));
    expect(f.end).toBe(Date.parse('2023-06-14T20:13:46.922+08:00'));
    // The overload episode (200-209 ms) and the three stalls (401, 612, 799 ms) are told apart.
    expect(f.explanation).toContain('waits 200-209 ms');
    expect(f.explanation).toContain('steady overload (backlog)');
    expect(f.explanation).toMatch(/up to 401 ms \(10 rejections\).*up to 612 ms \(13 rejections\).*up to 799 ms \(10 rejections\)/);
    expect(f.explanation).toContain('every 10 ms');
    expect(f.advice.join('\n')).toMatch(/GC/);
    expect(f.evidence.length).toBeGreaterThan(0);
    expect(f.evidence.length).toBeLessThanOrEqual(5);

    // SYSTEM_BUSY is not retried by the 4.9.4 clients: every rejection was a failed send.
    const noRetry = all.filter((x) => x.rule === 'send-no-retry');
    expect(noRetry.map((x) => [x.subject.host, x.metrics.failedSends]).sort()).toEqual([
      ['app-feed-01', 41],
      ['app-feed-02', 32],
    ]);
    // Nothing else on the send path: no page-cache stall over 1 s, no disk, no call timeout, no same-broker retry.
    expect(all.filter((x) => !['broker-busy', 'send-no-retry'].includes(x.rule))).toEqual([]);
  });
});

describe('send-path rules over samples/healthy-restart', () => {
  it('report no error: the refused attempts were retried on broker-b', async () => {
    const all = await findings(join(ROOT, 'samples', 'healthy-restart'));
    expect(all.filter((f) => f.severity === 'error' || f.severity === 'critical')).toEqual([]);
  });
});

describe('send-path rules over the real excerpts', () => {
  const expected: Record<string, string> = {
    '01': 'broker-busy',
    '03': 'broker-busy',
    '09': 'broker-busy',
    '11': 'broker-busy',
    '13': 'broker-busy',
    '19': 'send-timeout-budget',
    '21': 'send-no-retry',
    '29': 'send-no-retry',
  };
  const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.log'));

  it('has the excerpts this test expects', () => {
    for (const nn of Object.keys(expected)) expect(files.some((f) => f.startsWith(`${nn}-`)), nn).toBe(true);
  });

  for (const file of files) {
    const nn = file.slice(0, file.indexOf('-'));
    const want = expected[nn];
    it(`${file}: ${want ? `reported by ${want}` : 'no rule throws'}`, async () => {
      const all = await findings(join(FIXTURES, file));
      for (const f of all) {
        expect(f.title.includes('\n'), f.title).toBe(false);
        expect(f.explanation.length).toBeGreaterThan(40);
        expect(f.evidence.length).toBeGreaterThan(0);
      }
      if (want) expect(all.map((f) => f.rule)).toContain(want);
    });
  }

  it('broker-busy reads the figures of the excerpts, with or without a time', async () => {
    const waits: Record<string, number> = { '01': 200, '03': 309, '09': 2006, '11': 240, '13': 209 };
    for (const [nn, wait] of Object.entries(waits)) {
      const file = files.find((f) => f.startsWith(`${nn}-`))!;
      const [f] = await findings(join(FIXTURES, file), [brokerBusy]);
      expect(f.metrics, file).toMatchObject({ rejections: 1, maxWaitMs: wait });
      expect(f.metrics.stalls, file).toBe(wait > 300 ? 1 : 0);
    }
  });
});
