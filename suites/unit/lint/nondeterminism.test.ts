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
