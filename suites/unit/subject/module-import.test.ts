import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// A module: implementation loads wherever it sits, as users put them anywhere: a .ts file outside a "type": "module"
// package used to fail with "Cannot require() ES Module ... in a cycle". Each case runs in a child
// process with tsx's loader registered as bin/chaoslua.mjs registers it, since the test runner
// loads TypeScript its own way.

const ROOT = path.resolve(import.meta.dirname, '../../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-module-import-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A module file in a folder of its own, with the package.json given (none when undefined). */
function moduleIn(name: string, source: string, packageJson?: object, file = 'store.ts'): string {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir, { recursive: true });
  if (packageJson) fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(packageJson));
  fs.writeFileSync(path.join(dir, file), source);
  return path.join(dir, file);
}

/** What loadStoreFactory says of `file`, as the CLI would load it: `factory <typeof>` or the error. */
function load(file: string): string {
  const script = `
    import { register } from 'tsx/esm/api';
    register();
    const { loadStoreFactory } = await import(${JSON.stringify(path.join(ROOT, 'src/impl/module-subject.ts'))});
    try { const f = await loadStoreFactory(${JSON.stringify(file)}); console.log('factory ' + typeof f + ' ' + (await f())); }
    catch (e) { console.log('error ' + e.message); }`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  return (r.stdout || r.stderr).trim();
}

const IMPORTS_THE_HARNESS = `import { LockClient } from ${JSON.stringify(path.join(ROOT, 'src/index.ts'))};\nexport async function createStore(): Promise<string> { return typeof LockClient; }\n`;

describe('module: implementations load wherever they sit', () => {
  it('a .ts file under a "type": "commonjs" package.json, importing ESM code', () => {
    expect(load(moduleIn('commonjs', IMPORTS_THE_HARNESS, { type: 'commonjs' }))).toBe('factory function function');
  });

  it('a .ts file with no package.json above it declaring a type', () => {
    expect(load(moduleIn('untyped', IMPORTS_THE_HARNESS, {}))).toBe('factory function function');
  });

  it('a default export only, under a CommonJS package', () => {
    expect(
      load(moduleIn('default', 'export default async function (): Promise<string> { return "made"; }\n', {})),
    ).toBe('factory function made');
  });

  it('.mts and .mjs files under a CommonJS package', () => {
    expect(load(moduleIn('mts', IMPORTS_THE_HARNESS, { type: 'commonjs' }, 'store.mts'))).toBe(
      'factory function function',
    );
    expect(
      load(
        moduleIn('mjs', 'export async function createStore() { return "mjs"; }\n', { type: 'commonjs' }, 'store.mjs'),
      ),
    ).toBe('factory function mjs');
  });

  it('what cannot load as CommonJS (top-level await) names the package.json and the fix', () => {
    const file = moduleIn(
      'tla',
      'const x = await Promise.resolve("tla");\nexport async function createStore() { return x; }\n',
      { type: 'commonjs' },
    );
    expect(load(file)).toMatch(
      new RegExp(
        `^error --impl module:${file} could not be loaded: .*; it loads as CommonJS because ${path.join(tmp, 'tla', 'package.json')} does not say "type": "module": add "type": "module" there, or rename it to store\\.mts$`,
      ),
    );
  });
});
