import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ImplSpecError } from './impl-spec.ts';

/** Extensions whose module system the file name decides, whatever package.json says. */
const FIXED_BY_EXTENSION = new Set(['.mts', '.mjs', '.cts', '.cjs']);
const TYPESCRIPT = new Set(['.ts', '.mts', '.cts', '.tsx']);

/** The package.json that decides how `file` loads (the nearest one above it), with its "type". */
export function packageScope(file: string): { readonly packageJson?: string; readonly type: string } {
  for (let dir = path.dirname(path.resolve(file)); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'package.json');
    if (fs.existsSync(candidate)) {
      try {
        const type = (JSON.parse(fs.readFileSync(candidate, 'utf8')) as { type?: unknown }).type;
        return { packageJson: candidate, type: typeof type === 'string' ? type : 'commonjs' };
      } catch {
        return { packageJson: candidate, type: 'commonjs' };
      }
    }
    if (path.dirname(dir) === dir) return { type: 'commonjs' };
  }
}

/**
 * Import a module: implementation. A `.ts` or `.js` file outside a `"type": "module"` package is
 * CommonJS to Node, and importing it through tsx's global loader fails with "Cannot require() ES
 * Module ... in a cycle", which says nothing about the fix. Such a file is imported through tsx's
 * own scoped import instead (it compiles the file to CommonJS and loads that), so it works wherever
 * it sits; when even that fails, the message says which package.json decided and what to change.
 */
export async function importImplementation(file: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(file).href;
  const scope = packageScope(file);
  const asCommonJs = !FIXED_BY_EXTENSION.has(path.extname(file).toLowerCase()) && scope.type !== 'module';
  // The installed package runs compiled JavaScript with no TypeScript loader: a TypeScript module is
  // then imported through tsx's scoped import (this file's own extension says which case this is).
  const needsLoader = TYPESCRIPT.has(path.extname(file).toLowerCase()) && !import.meta.url.endsWith('.ts');
  try {
    if (!asCommonJs && !needsLoader) return (await import(url)) as Record<string, unknown>;
    const { tsImport } = await import('tsx/esm/api');
    return (await tsImport(url, import.meta.url)) as Record<string, unknown>;
  } catch (error) {
    const first = (error as Error).message?.split('\n')[0] ?? String(error);
    const why = asCommonJs
      ? `; it loads as CommonJS because ${scope.packageJson ? `${scope.packageJson} does not say "type": "module"` : 'no package.json above it says "type": "module"'}: add "type": "module" there${scope.packageJson ? '' : ' (a package.json beside it)'}, or rename it to ${path.basename(file, path.extname(file))}.mts`
      : '';
    throw new ImplSpecError(`--impl module:${file} could not be loaded: ${first}${why}`);
  }
}

/**
 * The store factory of an imported module: `createStore`, else the default export. A CommonJS
 * module's exports arrive as `default` (and its `export default` as `default.default`).
 */
export function storeFactoryOf(mod: Record<string, unknown>): unknown {
  const inner = (mod.default ?? {}) as Record<string, unknown>;
  return [mod.createStore, mod.default, inner.createStore, inner.default].find((f) => typeof f === 'function');
}
