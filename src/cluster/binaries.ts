import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EnvironmentError } from './errors.ts';

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, name);
    if (dir && fs.existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** redis-server >= 7: $CHAOSLUA_REDIS_SERVER, else PATH. */
export function redisServerBinary(): string {
  const bin = process.env.CHAOSLUA_REDIS_SERVER ?? onPath('redis-server');
  if (!bin || !fs.existsSync(bin)) {
    throw new EnvironmentError('redis-server not found: run `npm run bootstrap` (or set CHAOSLUA_REDIS_SERVER)');
  }
  const version = execFileSync(bin, ['--version'], { encoding: 'utf8' }).match(/v=(\d+)\.(\d+)\.(\d+)/);
  if (!version || Number(version[1]) < 7) {
    throw new EnvironmentError(`redis-server at ${bin} is ${version?.[0] ?? 'of unknown version'}; Redis 7 or later is required`);
  }
  return bin;
}

/** Toxiproxy server: $CHAOSLUA_TOXIPROXY, else the bootstrap's .tools/bin, else PATH. */
export function toxiproxyBinary(): string {
  const bin =
    process.env.CHAOSLUA_TOXIPROXY ??
    [path.join(projectRoot, '.tools/bin/toxiproxy-server'), onPath('toxiproxy-server')].find(
      (p): p is string => !!p && fs.existsSync(p),
    );
  if (!bin || !fs.existsSync(bin)) {
    throw new EnvironmentError('toxiproxy-server not found: run `npm run bootstrap` (or set CHAOSLUA_TOXIPROXY)');
  }
  return bin;
}
