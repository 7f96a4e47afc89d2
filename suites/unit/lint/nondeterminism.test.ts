import { describe, expect, it } from 'vitest';
import { lintFixture, located } from './fixtures.ts';

describe('nondeterminism', () => {
  it('flags TIME, RANDOMKEY, SRANDMEMBER, SPOP and math.random, called or aliased', async () => {
    expect(located(await lintFixture('nondeterminism/flagged.lua'))).toEqual([
      'nondeterminism@1:13',
      'nondeterminism@2:13',
      'nondeterminism@3:16',
      'nondeterminism@4:16',
      'nondeterminism@5:14',
      'nondeterminism@6:14',
    ]);
  });

  it('accepts time and randomness passed in ARGV, and other math functions', async () => {
    expect(await lintFixture('nondeterminism/clean.lua')).toEqual([]);
  });
});

describe('a waiver comment', () => {
  it('waives the named rule on its own line and the next, and no other rule or line', async () => {
    const { lintSource } = await import('../../../src/lint/lint-source.ts');
    const source = [
      '-- chaoslua-lint: allow nondeterminism (deadlines on the server clock)',
      "local t = redis.call('TIME')",
      "local u = redis.call('TIME') -- chaoslua-lint: allow nondeterminism",
      "local v = redis.call('TIME')",
      "local w = redis.call('TIME') -- chaoslua-lint: allow keyspace-scan",
      'return {t, u, v, w}',
    ].join('\n');
    expect(lintSource(source, 'x.lua').map((f) => `${f.rule}@${f.line}`)).toEqual(['nondeterminism@5']);
  });
});
