import { readFileSync } from 'node:fs';
import type { Cluster } from 'ioredis';

/**
 * The project's reference scripts as ioredis commands (EVALSHA, resent as EVAL on NOSCRIPT), for
 * module mutants: each keeps every operation but the one it gets wrong on the reference, so a
 * rejection can only be blamed on its one slip.
 */
export type ScriptCommand = (key: string, ...args: (string | number)[]) => Promise<unknown>;

const LUA_ROOT = new URL('../../../lua/', import.meta.url);

export function referenceSource(pattern: string, script: string): string {
  return readFileSync(new URL(`${pattern}/${script}.lua`, LUA_ROOT), 'utf8');
}

export function referenceCommand(redis: Cluster, pattern: string, script: string): ScriptCommand {
  const name = `ref_${pattern}_${script}`;
  redis.defineCommand(name, { numberOfKeys: 1, lua: referenceSource(pattern, script) });
  const command = (redis as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[name];
  return (key, ...args) => command.call(redis, key, ...args);
}
