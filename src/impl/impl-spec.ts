import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AnyPattern } from '../patterns/types.ts';

/** What `certify --impl` names: scripts, a JS/TS module, or a program speaking the process protocol. */
export type ImplSpec =
  | { readonly kind: 'lua'; readonly dir: string }
  | { readonly kind: 'module'; readonly file: string }
  | { readonly kind: 'cmd'; readonly command: string };

/** Bad --impl input: the CLI prints it on one line and exits 2. */
export class ImplSpecError extends Error {
  override readonly name = 'ImplSpecError';
}

/** The scripts a lua:DIR implementation of the pattern must hold (DIR/<name>.lua). */
export const requiredScripts = (pattern: AnyPattern): readonly string[] => pattern.scripts;

export function parseImplSpec(spec: string, pattern: AnyPattern): ImplSpec {
  const colon = spec.indexOf(':');
  const kind = colon > 0 ? spec.slice(0, colon) : '';
  const rest = spec.slice(colon + 1).trim();
  if (!['lua', 'module', 'cmd'].includes(kind) || rest === '') {
    throw new ImplSpecError(`--impl must be lua:DIR, module:PATH or cmd:'COMMAND ARGS', got '${spec}'`);
  }
  if (kind === 'cmd') return { kind: 'cmd', command: rest };
  const resolved = path.resolve(rest);
  if (!fs.existsSync(resolved))
    throw new ImplSpecError(`--impl ${kind}: no such ${kind === 'lua' ? 'directory' : 'file'}: ${rest}`);
  if (kind === 'module') {
    if (!fs.statSync(resolved).isFile()) throw new ImplSpecError(`--impl module: not a file: ${rest}`);
    return { kind: 'module', file: resolved };
  }
  if (!fs.statSync(resolved).isDirectory()) throw new ImplSpecError(`--impl lua: not a directory: ${rest}`);
  const missing = requiredScripts(pattern).filter((name) => !fs.existsSync(path.join(resolved, `${name}.lua`)));
  if (missing.length) {
    throw new ImplSpecError(
      `--impl lua:${rest} lacks ${missing.map((m) => `${m}.lua`).join(', ')} (a ${pattern.name} implementation needs ${requiredScripts(
        pattern,
      )
        .map((m) => `${m}.lua`)
        .join(', ')})`,
    );
  }
  return { kind: 'lua', dir: resolved };
}

export function describeImpl(spec: ImplSpec): string {
  return spec.kind === 'lua'
    ? `lua:${spec.dir}`
    : spec.kind === 'module'
      ? `module:${spec.file}`
      : `cmd:${spec.command}`;
}

/** The files that make up the implementation, for the certificate's sha256. */
export function implFiles(spec: ImplSpec, pattern: AnyPattern): string[] {
  if (spec.kind === 'lua') return requiredScripts(pattern).map((n) => path.join(spec.dir, `${n}.lua`));
  if (spec.kind === 'module') return [spec.file];
  return [];
}

/** sha256 over the implementation's files (name and bytes, in order); the command line for cmd:. */
export function implDigest(spec: ImplSpec, pattern: AnyPattern): string {
  const hash = createHash('sha256');
  if (spec.kind === 'cmd') hash.update(spec.command);
  for (const file of implFiles(spec, pattern))
    hash.update(path.basename(file)).update('\0').update(fs.readFileSync(file));
  return hash.digest('hex');
}
