import { describe, expect, it } from 'vitest';
import { lintSource } from '../../../src/lint/index.ts';
import { lintFixture, located } from './fixtures.ts';

describe('unbounded-loop', () => {
  it('flags limits, starts and steps taken from ARGV, sentinel loops and lengths of script-built tables', async () => {
    expect(located(await lintFixture('unbounded-loop/flagged.lua'))).toEqual([
      'unbounded-loop@2:12', // for i = 1, tonumber(ARGV[1])
      'unbounded-loop@3:9', // start from ARGV
      'unbounded-loop@4:19', // step from ARGV (0 never ends)
      'unbounded-loop@6:1', // repeat ... until cursor == '0'
      'unbounded-loop@9:1', // while true
      'unbounded-loop@13:12', // #t of a table the script built
      'unbounded-loop@16:1', // while i < tonumber(ARGV[1]) via a local
    ]);
  });

  it('accepts constants, #KEYS, #ARGV, replies on declared keys, math.min caps and nested bounded loops', async () => {
    expect(await lintFixture('unbounded-loop/clean.lua')).toEqual([]);
  });

  it('treats the brief examples as stated', () => {
    expect(lintSource('for i = 1, #ARGV do end', 'x.lua')).toEqual([]);
    expect(located(lintSource('for i = 1, tonumber(ARGV[1]) do end', 'x.lua'))).toEqual(['unbounded-loop@1:12']);
  });
});
