import fs from 'node:fs';
import path from 'node:path';
import { ImplSpecError } from './impl-spec.ts';

const LOADERS: Record<string, 'ts' | 'tsx' | 'js' | 'jsx'> = {
  '.ts': 'ts',
  '.mts': 'ts',
  '.cts': 'ts',
  '.tsx': 'tsx',
  '.js': 'js',
  '.mjs': 'js',
  '.cjs': 'js',
  '.jsx': 'jsx',
};

/**
 * A module: file's syntax, checked before any cluster starts and reported as file:line:column.
 * Importing the file would say only "Unexpected number" (JavaScript), or "Cannot require() ES
 * Module ... in a cycle" (TypeScript outside a "type": "module" package). esbuild, which tsx runs
 * on every module it loads, parses it here with positions.
 */
export async function checkModuleSyntax(file: string): Promise<void> {
  const loader = LOADERS[path.extname(file).toLowerCase()];
  if (!loader) return;
  let source: string;
  try {
    source = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new ImplSpecError(`--impl module:${file} cannot be read: ${(error as Error).message.split('\n')[0]}`);
  }
  const esbuild = await import('esbuild');
  try {
    await esbuild.transform(source, { loader, sourcefile: file, format: 'esm', logLevel: 'silent' });
  } catch (error) {
    const first = (
      error as { errors?: { text: string; location?: { file: string; line: number; column: number } | null }[] }
    ).errors?.[0];
    if (!first) throw error;
    const where = first.location ? `${first.location.file}:${first.location.line}:${first.location.column + 1}` : file;
    throw new ImplSpecError(`--impl module:${file} has a syntax error: ${where}: ${first.text}`);
  }
}
