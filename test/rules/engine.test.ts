import { describe, expect, it } from 'vitest';
import { parseSettings, runRules, SettingError } from '../../src/rules/engine.js';
import { clientVersionOf } from '../../src/rules/versions.js';
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
    expect(clientVersionOf('h', src(['4.3.0-5.0.0', '4.8.0']))).toEqual({ range: '4.8.0', exact: '4.8.0', closeSocketIfTimeout: false });
    expect(clientVersionOf('h', src(['4.3.0-4.7.1']))).toMatchObject({ range: '4.3.0-4.7.1', closeSocketIfTimeout: false });
    expect(clientVersionOf('h', src(['>=5.1.0']))).toMatchObject({ range: '>=5.1.0', closeSocketIfTimeout: true });
    expect(clientVersionOf('h', src(['4.3.0-5.0.0']))).toMatchObject({ closeSocketIfTimeout: null });
    expect(clientVersionOf('h', src([]))).toMatchObject({ range: 'unknown', closeSocketIfTimeout: null });
    expect(clientVersionOf('other', src(['4.8.0']))).toMatchObject({ range: 'unknown' });
  });
});

describe('rule helpers', () => {
  it('formats durations without 60-second minutes', async () => {
    const { formatMs } = await import('../../src/rules/util.js');
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
