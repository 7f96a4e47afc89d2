import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatFinding, lintFiles, luaFilesAt } from '../../../src/lint/index.ts';

const PROJECT_LUA = fileURLToPath(new URL('../../../lua/', import.meta.url));

describe("the project's own scripts", () => {
  it('exist and pass every lint rule', async () => {
    const files = await luaFilesAt(PROJECT_LUA);
    expect(files.length, `no .lua file under ${PROJECT_LUA}`).toBeGreaterThan(0);
    expect((await lintFiles(files)).map(formatFinding)).toEqual([]);
  });
});
