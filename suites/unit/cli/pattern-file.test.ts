// A pattern file a team wrote, given to any command that takes a pattern: loaded at the CLI's edge,
// and every problem with it is the user's: one line naming the file and the member, exit 2, before
// any cluster starts. A good file is loaded, named by its pattern, and its digest kept.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadPatternFile, loadPatternFiles } from '../../../src/cli/pattern-file.ts';
import { forgetLoadedPatterns, isPatternName, patternNamed } from '../../../src/patterns/index.ts';
import { expectUsage as usage, forbidClusters } from './support.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const API = path.join(ROOT, 'src/pattern.ts');
const TEAM_LOCK = path.join(ROOT, 'suites/fixtures/patterns/team-lock.mjs');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-pattern-file-'));
// The registry is the process's: patterns this file loads must not reach other files in the same worker.
afterAll(() => {
  forgetLoadedPatterns();
  fs.rmSync(tmp, { recursive: true, force: true });
});

let attempts: string[];
beforeEach(() => {
  attempts = forbidClusters();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** A pattern file of `body` (after an import of the API), named `name`. */
function file(name: string, body: string): string {
  const f = path.join(tmp, name);
  fs.writeFileSync(f, `import { definePattern, arg } from ${JSON.stringify(API)};\n${body}\n`);
  return f;
}

const SPEC = `{
  name: 'counter-file',
  operations: { bump: { args: { by: arg.integer({ min: 1, max: 3 }) } } },
  model: { init: () => 0, step: (n, input) => ({ state: n + input.by, output: n + input.by }) },
}`;

describe('a pattern file', () => {
  it('is loaded by its name, with its digest, and the flag then names it', async () => {
    const f = file('counter.mjs', `export default definePattern(${SPEC});`);
    const args = await loadPatternFiles(['--impl', 'lua:x', '--pattern', f, '--runs', '3']);
    expect(args).toEqual(['--impl', 'lua:x', '--pattern', 'counter-file', '--runs', '3']);
    expect(isPatternName('counter-file')).toBe(true);
    const { source } = patternNamed('counter-file');
    expect(source?.file).toBe(f);
    expect(source?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(await loadPatternFiles([`--model=${f}`])).toEqual(['--model=counter-file']);
  });

  it('may be TypeScript, and may export the spec as `pattern`', async () => {
    const f = file(
      'typed.ts',
      `export const pattern = definePattern(${SPEC.replace('counter-file', 'counter-typed').replace('(n, input)', '(n: number, input: { by: number })')});`,
    );
    expect((await loadPatternFile(f)).name).toBe('counter-typed');
  });

  it('leaves pattern names alone', async () => {
    expect(await loadPatternFiles(['--pattern', 'lock', '--model', 'kv'])).toEqual([
      '--pattern',
      'lock',
      '--model',
      'kv',
    ]);
  });

  it('loads the lock declared through the API, with races derived from the leases a fresh key can be taken with', async () => {
    const lock = await loadPatternFile(TEAM_LOCK);
    expect(lock.invariants).toEqual(['one-holder', 'model-conformance']);
    expect(lock.scripts).toEqual(['acquire', 'remove_if_matches', 'extend_if_matches']);
    // Only acquire takes a lease on a fresh key: extend keeps one, so no race stages it as the take.
    expect(lock.races?.map((r) => r.name)).toEqual([
      "release at the end of acquire's lease",
      "extend at the end of acquire's lease",
    ]);
  });
});

describe('a bad pattern file: one line naming the file and the member, exit 2, no cluster', () => {
  const cases: [string, string, string, RegExp][] = [
    [
      'exports no pattern',
      'none.mjs',
      'export const x = 1;',
      /--pattern .*none\.mjs: exports no pattern: export default definePattern/,
    ],
    [
      'a spec definePattern refuses',
      'bad-arg.mjs',
      `export default definePattern({ ...${SPEC}, operations: { bump: { args: { by: 3 } } } });`,
      /--pattern .*bad-arg\.mjs: operations\.bump\.args\.by: is not a way to draw an argument/,
    ],
    [
      'a model that throws',
      'throws.mjs',
      `export default definePattern({ ...${SPEC}, model: { init: () => 0, step: () => { throw new Error('not written yet'); } } });`,
      /--pattern .*throws\.mjs: model\.step: threw on bump\(by=\d\): not written yet/,
    ],
    [
      'a step that returns nothing',
      'nothing.mjs',
      `export default definePattern({ ...${SPEC}, model: { init: () => 0, step: () => {} } });`,
      /--pattern .*nothing\.mjs: model\.step: returned nothing on bump/,
    ],
    [
      "a built-in pattern's name",
      'lock.mjs',
      `export default definePattern({ ...${SPEC}, name: 'lock' });`,
      /--pattern .*lock\.mjs: 'lock' is a built-in pattern's name/,
    ],
    [
      'a syntax error',
      'syntax.mjs',
      'export default definePattern({',
      /--pattern .*syntax\.mjs: could not be loaded: /,
    ],
  ];
  it.each(cases)('%s', async (_, name, body, message) => {
    const f = file(name, body);
    await usage(['certify', '--pattern', f, '--impl', 'lua:lua/lock'], message, attempts);
  });

  it('no such file, and a file that is not a module', async () => {
    await usage(
      ['certify', '--pattern', path.join(tmp, 'missing.mjs')],
      /--pattern .*missing\.mjs: no such file/,
      attempts,
    );
    await usage(
      ['run', '--pattern', './patterns/queue.json'],
      /--pattern \.\/patterns\/queue\.json: a pattern file is a module: \.mjs, \.js, \.ts or \.mts/,
      attempts,
    );
  });

  it('check --model refuses it the same way', async () => {
    const f = file('check-none.mjs', 'export default 42;');
    await usage(
      ['check', '--model', f, 'history.json'],
      /--model .*check-none\.mjs: pattern: is not an object made by definePattern/,
      attempts,
    );
  });
});

describe('lint --pattern', () => {
  it("finds a script the pattern calls missing from a folder, and lints the pattern's own scripts with no folder", async () => {
    const { cli } = await import('./support.ts');
    const missing = await cli(['lint', '--pattern', TEAM_LOCK, path.join(ROOT, 'lua/semaphore')]);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toMatch(
      /missing-script pattern team-lock calls remove_if_matches\.lua, which .*lua\/semaphore does not hold/,
    );
    const own = await cli(['lint', '--pattern', TEAM_LOCK]);
    expect(own.stderr).toMatch(/chaoslua lint: 3 files, no findings/);
    expect(own.code).toBe(0);
  });
});
