import { createHash } from 'node:crypto';
import { readFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * One script as the loader holds it: the exact bytes sent to Redis and the SHA1 they are called by.
 * The bytes are kept as a Buffer so that what is hashed is exactly what Redis receives
 * (a file read as text and re-encoded can differ from the file, e.g. invalid UTF-8).
 */
export interface ScriptSource {
  /** Name without extension, e.g. 'register_or_get'. */
  readonly name: string;
  readonly body: Buffer;
  /** Lower-case hex SHA1 the caller sends with EVALSHA. Normally sha1(body). */
  readonly sha: string;
  /** Where it came from, for error messages ("lua/idempotency/complete.lua"). */
  readonly origin: string;
}

export function sha1Hex(bytes: Uint8Array | string): string {
  return createHash('sha1').update(bytes).digest('hex');
}

export function scriptFromBody(name: string, body: string | Buffer, origin = `<${name}>`): ScriptSource {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return { name, body: bytes, sha: sha1Hex(bytes), origin };
}

/** Thrown when a scripts directory lacks a script the client needs. */
export class MissingScriptError extends Error {
  override readonly name = 'MissingScriptError';
  constructor(
    readonly dir: string,
    readonly missing: readonly string[],
  ) {
    super(`scripts directory ${dir} lacks ${missing.map((m) => `${m}.lua`).join(', ')}`);
  }
}

/** Read `<dir>/<name>.lua` for every name; all missing files are reported together. */
export function loadScriptDir(dir: string, names: readonly string[]): Map<string, ScriptSource> {
  const root = resolve(dir);
  const missing = names.filter((n) => !existsSync(join(root, `${n}.lua`)));
  if (missing.length > 0) throw new MissingScriptError(dir, missing);
  return new Map(
    names.map((n) => {
      const path = join(root, `${n}.lua`);
      return [n, scriptFromBody(n, readFileSync(path), join(dir, `${n}.lua`))];
    }),
  );
}
