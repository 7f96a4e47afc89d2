import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import luaparse from 'luaparse';
import {
  IDEMPOTENCY_FUNCTIONS,
  IDEMPOTENCY_LIBRARY_PATH,
  buildFunctionsLibrary,
  generateIdempotencyLibrary,
  idempotencyLibraryScripts,
} from '../../../lua/build-library.ts';

describe('lua/idempotency/library.lua (Redis Functions) is generated from the four scripts', () => {
  const committed = readFileSync(IDEMPOTENCY_LIBRARY_PATH, 'utf8');

  it('the committed library equals what lua/build-library.ts generates from the scripts today', () => {
    // On failure: run `npx tsx lua/build-library.ts` after editing a script.
    expect(committed).toBe(generateIdempotencyLibrary());
  });

  it('declares the library and registers each function once, around its script body verbatim (the #!lua line of each script aside)', () => {
    expect(committed.split('\n')[0]).toBe('#!lua name=chaoslua_idempotency');
    for (const script of idempotencyLibraryScripts()) {
      expect(committed.split(`redis.register_function('${script.functionName}'`)).toHaveLength(2);
      expect(script.source.startsWith('#!lua\n')).toBe(true);
      expect(committed).toContain(
        `local function ${script.functionName}(KEYS, ARGV)\n${script.source.replace(/^#!lua\n/, '').trimEnd()}\nend\n`,
      );
    }
    expect(Object.values(IDEMPOTENCY_FUNCTIONS).sort()).toEqual([
      'idem_complete',
      'idem_register_or_get',
      'idem_release',
      'idem_renew',
    ]);
  });

  it('is valid Lua once the shebang line Redis consumes is removed', () => {
    const body = committed.slice(committed.indexOf('\n') + 1);
    expect(() => luaparse.parse(body)).not.toThrow();
  });

  it('refuses names that would not be valid in FCALL or Lua', () => {
    expect(() => buildFunctionsLibrary('bad name', [])).toThrow(/libraryName/);
    expect(() => buildFunctionsLibrary('ok', [{ functionName: 'x-y', fileName: 'x.lua', source: 'return 1' }])).toThrow(
      /functionName/,
    );
  });
});
