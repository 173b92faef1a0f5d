import { describe, expect, it } from 'vitest';
import { MAX_FINDINGS_PER_RULE, parseSettings, RuleRunner, runRules, SettingError } from '../../src/rules/engine.js';
import { clientVersionOf, closeTimedOutChannelAdvice } from '../../src/rules/versions.js';
import type { Rule } from '../../src/rules/types.js';
import type { RmqEvent } from '../../src/parse/types.js';

const ev = (type: RmqEvent['type'], ts: number, fields: RmqEvent['fields'] = {}): RmqEvent => ({
  ts, host: 'h', kind: 'client', file: 'h/f.log', line: ts, level: 'WARN', thread: null, logger: null, type, fields, text: type, source: 0, seq: ts,
});

const counting: Rule = {
  meta: {
    id: 'count-timeouts',
    title: 'Counts timeouts',
    severity: 'warning',
    description: 'test rule',
    versions: 'all',
    settings: { minimum: { default: 2, description: 'minimum count' } },
    events: ['rpc-timeout'],
  },
  create(ctx) {
    const seen: RmqEvent[] = [];
    return {
      'rpc-timeout': (e) => seen.push(e),
      end() {
        if (seen.length >= (ctx.settings.minimum as number)) {
          ctx.report({ title: `${seen.length} timeouts`, start: seen[0].ts, end: seen[seen.length - 1].ts, subject: { host: 'h' }, metrics: { timeouts: seen.length }, evidence: seen, explanation: 'x'.repeat(50), advice: ['a'] });
        }
      },
    };
  },
};

describe('rule engine', () => {
  it('dispatches by type, applies settings, and caps evidence at five', () => {
    const events = [1, 2, 3, 4, 5, 6, 7].map((t) => ev('rpc-timeout', t)).concat([ev('busy-reply', 8)]);
    const f = runRules({ rules: [counting], sources: [] }, events);
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ rule: 'count-timeouts', severity: 'warning', metrics: { timeouts: 7 }, start: 1, end: 7 });
    expect(f[0].evidence).toHaveLength(5);
    expect(runRules({ rules: [counting], sources: [], settings: { minimum: 8 } }, events)).toEqual([]);
  });

  it('counts the findings a rule left out itself, in rule and severity order', () => {
    const omitting = (id: string): Rule => ({
      ...counting,
      meta: { ...counting.meta, id },
      create: (ctx) => ({ end: () => (ctx.omit('info', 2), ctx.omit('critical'), ctx.omit('info')) }),
    });
    const runner = new RuleRunner({ rules: [omitting('b'), omitting('a')], sources: [] });
    expect(runner.finish()).toEqual([]);
    expect(JSON.stringify(runner.omitted)).toBe('{"b":{"critical":1,"info":3},"a":{"critical":1,"info":3}}');
  });

  it('types --set values and rejects unknown names and bad values', () => {
    expect(parseSettings([counting], ['minimum=5'])).toEqual({ minimum: 5 });
    expect(() => parseSettings([counting], ['nope=1'])).toThrow(SettingError);
    expect(() => parseSettings([counting], ['minimum=abc'])).toThrow(/not a number/);
    expect(() => parseSettings([counting], ['minimum'])).toThrow(/NAME=VALUE/);
  });
});

describe('client versions', () => {
  const src = (hints: string[], kind = 'client') => [{ path: 'p', host: 'h', kind, versionHints: hints }];
  it('narrows ranges and knows the close-on-timeout default', () => {
    expect(clientVersionOf('h', src(['4.3.0-5.0.0', '4.8.0']))).toEqual({ range: '4.8.0', exact: '4.8.0', closeSocketIfTimeout: false, rescansNameServers: false });
    expect(clientVersionOf('h', src(['5.1.4']))).toMatchObject({ closeSocketIfTimeout: true, rescansNameServers: true });
    expect(clientVersionOf('h', src(['5.3.3']))).toMatchObject({ closeSocketIfTimeout: true, rescansNameServers: false });
    expect(clientVersionOf('h', src(['>=5.1.0']))).toMatchObject({ rescansNameServers: null });
    expect(clientVersionOf('h', src(['4.3.0-4.7.1']))).toMatchObject({ range: '4.3.0-4.7.1', closeSocketIfTimeout: false });
    expect(clientVersionOf('h', src(['>=5.1.0']))).toMatchObject({ range: '>=5.1.0', closeSocketIfTimeout: true });
    expect(clientVersionOf('h', src(['4.3.0-5.0.0']))).toMatchObject({ closeSocketIfTimeout: null });
    expect(clientVersionOf('h', src([]))).toMatchObject({ range: 'unknown', closeSocketIfTimeout: null });
    expect(clientVersionOf('other', src(['4.8.0']))).toMatchObject({ range: 'unknown' });
  });

  it('advise what closes a timed-out NameServer channel on that version only', () => {
    const advice = (hints: string[]) => closeTimedOutChannelAdvice(clientVersionOf('h', src(hints)), 'app-1');
    // Before 4.9.1 the system property is not read (NettySystemConfig has it from 4.9.1): only the upgrade helps.
    expect(advice(['4.8.0'])).toMatch(/^Upgrade app-1 \(client 4\.8\.0\) to 4\.9\.1 or later/);
    expect(advice(['4.8.0'])).not.toMatch(/closeSocketIfTimeout=true/);
    expect(advice(['4.9.4'])).toMatch(/remove -Dcom\.rocketmq\.remoting\.client\.closeSocketIfTimeout=false/);
    expect(advice(['4.9.4'])).not.toMatch(/Upgrade/);
    expect(advice([])).toMatch(/^Make sure app-1 runs client 4\.9\.1 or later \(its version is not in the logs\)/);
  });
});

describe('rule helpers', () => {
  it('formats durations without 60-second minutes', async () => {
    const { formatMs } = await import('../../src/util/durations.js');
    expect(formatMs(659_700)).toBe('11 min');
    expect(formatMs(706_000)).toBe('11 min 46 s');
    expect(formatMs(799)).toBe('799 ms');
    expect(formatMs(12_400)).toBe('12 s');
    expect(formatMs(9_400)).toBe('9.4 s');
  });
  it('reads an upper bound below x.y.0 as the previous minor', () => {
    const src = [{ path: 'p', host: 'h', kind: 'client', versionHints: ['<4.4.0'] }];
    expect(clientVersionOf('h', src).range).toBe('<=4.3.99');
  });
});

describe('findings per rule are bounded', () => {
  const episodes: Rule = {
    meta: { id: 'episodes', title: 'One finding per episode', severity: 'warning', description: 'test rule', versions: 'all', settings: {}, events: ['rpc-timeout'] },
    create(ctx) {
      return {
        'rpc-timeout': (e) =>
          ctx.report({
            severity: e.ts! % 50 === 0 ? 'critical' : 'warning',
            title: `episode at ${e.ts}`,
            start: e.ts,
            end: e.ts,
            subject: {},
            metrics: {},
            evidence: [e],
            explanation: '',
            advice: [],
          }),
      };
    },
  };

  it(`keeps the ${MAX_FINDINGS_PER_RULE} most severe, earliest first, and counts the rest`, () => {
    const runner = new RuleRunner({ rules: [episodes], sources: [] });
    for (let ts = 1; ts <= 5000; ts++) runner.visit(ev('rpc-timeout', ts));
    const kept = runner.finish();
    expect(kept).toHaveLength(MAX_FINDINGS_PER_RULE);
    // every critical (one in 50: 100 of them) outranks a warning; the earliest 20 criticals stay
    expect(kept.map((f) => f.start)).toEqual(Array.from({ length: MAX_FINDINGS_PER_RULE }, (_, i) => (i + 1) * 50));
    expect(runner.omitted).toEqual({ episodes: { critical: 80, warning: 4900 } });
  });
});
