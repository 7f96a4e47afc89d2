import { describe, expect, it } from 'vitest';
import { lintFixture, located } from './fixtures.ts';

describe('keyspace-scan', () => {
  it('flags KEYS and SCAN in any case', async () => {
    expect(located(await lintFixture('keyspace-scan/flagged.lua'))).toEqual([
      'keyspace-scan@1:15',
      'keyspace-scan@2:14',
    ]);
  });

  it('accepts scanning inside a declared key (HSCAN, HKEYS)', async () => {
    expect(await lintFixture('keyspace-scan/clean.lua')).toEqual([]);
  });
});
