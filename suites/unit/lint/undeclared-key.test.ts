import { describe, expect, it } from 'vitest';
import { lintSource } from '../../../src/lint/index.ts';
import { lintFixture, located } from './fixtures.ts';

describe('undeclared-key', () => {
  it('flags literals, concatenations, ARGV values, reassigned aliases and helpers fed a literal', async () => {
    expect(located(await lintFixture('undeclared-key/flagged.lua'))).toEqual([
      'undeclared-key@2:19', // 'prefix:' .. ARGV[1]
      'undeclared-key@3:19', // lower-case 'set' with a literal key
      'undeclared-key@4:20', // ARGV[1] as a key
      'undeclared-key@7:28', // k reassigned after local k = KEYS[1]
      'undeclared-key@8:30', // second MGET key from ARGV
      'undeclared-key@9:50', // helper parameter: one call passes a literal
      'undeclared-key@12:48', // ZUNIONSTORE numkeys covers 'tmp'
      'undeclared-key@13:34', // RPOPLPUSH destination from ARGV
    ]);
  });

  it('accepts KEYS entries reached through aliases, ipairs, unpack and helpers, and ignores unknown commands', async () => {
    expect(await lintFixture('undeclared-key/clean.lua')).toEqual([]);
  });

  it('says why the key is not declared', () => {
    const [finding] = lintSource("return redis.call('GET', 'prefix:' .. ARGV[1])", 'x.lua');
    expect(finding.message).toContain("'prefix:' .. ARGV[1]");
    expect(finding.message).toContain('concatenation');
    expect(lintSource("local k = KEYS[1]\nreturn redis.call('GET', k)", 'x.lua')).toEqual([]);
  });
});
