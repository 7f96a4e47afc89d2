import { describe, expect, it } from 'vitest';
import { lintSource } from '../../../src/lint/index.ts';
import { lintFixture, located } from './fixtures.ts';

describe('global-assignment', () => {
  it('flags assignments to undeclared names, in functions too, and global function definitions', async () => {
    expect(located(await lintFixture('global-assignment/flagged.lua'))).toEqual([
      'global-assignment@1:1',
      'global-assignment@2:10',
      'global-assignment@4:4',
      'global-assignment@6:3',
    ]);
  });

  it('accepts locals, local functions, recursion and writes to fields of local tables', async () => {
    expect(await lintFixture('global-assignment/clean.lua')).toEqual([]);
  });

  it('tells a local function from a global one', () => {
    expect(lintSource('local function f() end\nreturn f()', 'x.lua')).toEqual([]);
    expect(located(lintSource('function f() end\nreturn f()', 'x.lua'))).toEqual(['global-assignment@1:10']);
  });
});
