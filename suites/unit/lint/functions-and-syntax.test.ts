import { describe, expect, it } from 'vitest';
import { lintSource } from '../../../src/lint/index.ts';
import { lintFixture, located } from './fixtures.ts';

describe('Functions libraries', () => {
  it("lints each registered callback with its parameters as KEYS and ARGV, and keeps each one's header comment to itself", async () => {
    const findings = await lintFixture('functions/library.lua');
    expect(located(findings)).toEqual([
      'owner-check-first@14:3', // stale_complete: args[1] = owner, HSET with no comparison
      'undeclared-key@15:28', // 'audit:' .. args[1]
      'undeclared-key@22:30', // the global KEYS does not exist in a function
      'global-assignment@27:10', // function exported()
    ]);
    // complete (lines 5-9) compares the owner first and uses keys[1]: nothing there.
    expect(findings.filter((f) => f.line >= 5 && f.line <= 9)).toEqual([]);
  });

  it('blanks the shebang line without moving the lines below it', async () => {
    expect(await lintFixture('syntax/shebang_not_library.lua')).toEqual([]);
    expect(located(lintSource('#!lua name=x\n\nx = 1', 'lib.lua'))).toEqual(['global-assignment@3:1']);
  });
});

describe('syntax', () => {
  it('reports Lua that does not compile as one finding at the place the parser stopped', async () => {
    const findings = await lintFixture('syntax/broken.lua');
    expect(located(findings)).toEqual(['syntax@3:9']);
    expect(findings[0].message).toContain('then');
  });

  it('parses Lua 5.1 only: goto is not a statement there', () => {
    expect(lintSource('goto done\n::done::', 'x.lua').map((f) => f.rule)).toEqual(['syntax']);
  });

  it('accepts UTF-8 text in strings and comments', () => {
    expect(lintSource("-- release — only the owner\nreturn redis.call('GET', KEYS[1]) == '→'", 'x.lua')).toEqual([]);
  });
});
