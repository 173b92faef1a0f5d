import { describe, expect, it } from 'vitest';
import { globMatch, hasGlobMagic, maxDepth, splitStaticPrefix } from '../../src/ingest/glob.js';

describe('globMatch', () => {
  it.each([
    ['*.log', 'broker.log', true],
    ['*.log', 'a/broker.log', false],
    ['*.log', '.hidden.log', true],
    ['broker.?.log.gz', 'broker.3.log.gz', true],
    ['broker.?.log.gz', 'broker.10.log.gz', false],
    ['broker.[0-9].log.gz', 'broker.7.log.gz', true],
    ['broker.[!0-9].log.gz', 'broker.7.log.gz', false],
    ['broker.[^0-9].log.gz', 'broker.x.log.gz', true],
    ['[abc]', '/', false],
    ['{broker,namesrv}.log', 'namesrv.log', true],
    ['{broker,namesrv}.log', 'store.log', false],
    ['{a,b{c,d}}.log', 'bd.log', true],
    ['**/*.log', 'x.log', true],
    ['**/*.log', 'a/b/c/x.log', true],
    ['a/**/x.log', 'a/x.log', true],
    ['a/**/x.log', 'a/b/c/x.log', true],
    ['a/**', 'a/b/c', true],
    ['a/**', 'b/c', false],
    ['**', 'anything/at/all', true],
    ['a**b', 'axxb', true],
    ['a**b', 'ax/xb', false],
    ['incident/*/rocketmqlogs/*.log', 'incident/hostA/rocketmqlogs/broker.log', true],
    ['incident/*/rocketmqlogs/*.log', 'incident/hostA/x/rocketmqlogs/broker.log', false],
    ['a\\*b', 'a*b', true],
    ['a\\*b', 'axb', false],
    ['unbalanced[', 'unbalanced[', true],
    ['unbalanced{', 'unbalanced{', true],
    ['a.b', 'axb', false],
    ['(x)+', '(x)+', true],
  ])('%s vs %s -> %s', (pattern, path, expected) => {
    expect(globMatch(pattern, path)).toBe(expected);
  });
});

describe('glob helpers', () => {
  it('detects glob syntax', () => {
    expect(hasGlobMagic('logs/*.log')).toBe(true);
    expect(hasGlobMagic('a{b,c}')).toBe(true);
    expect(hasGlobMagic('logs/broker.log')).toBe(false);
  });

  it('splits the static prefix', () => {
    expect(splitStaticPrefix('logs/a/*.log')).toEqual({ prefix: 'logs/a', rest: '*.log' });
    expect(splitStaticPrefix('/x/**')).toEqual({ prefix: '/x', rest: '**' });
    expect(splitStaticPrefix('/*.log')).toEqual({ prefix: '/', rest: '*.log' });
    expect(splitStaticPrefix('*.log')).toEqual({ prefix: '', rest: '*.log' });
    expect(splitStaticPrefix('a/{b/c,d}/x')).toEqual({ prefix: 'a', rest: '{b/c,d}/x' });
  });

  it('computes the depth a pattern can reach', () => {
    expect(maxDepth('*.log')).toBe(1);
    expect(maxDepth('*/x/*.log')).toBe(3);
    expect(maxDepth('{a/b/c,d}/x')).toBe(4);
    expect(maxDepth('a/**/x')).toBe(Infinity);
  });
});
