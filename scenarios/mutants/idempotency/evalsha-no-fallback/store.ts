import type { Cluster } from 'ioredis';
import { referenceSource } from '../../support/reference-commands.ts';

const SCRIPTS = ['register_or_get', 'complete', 'release', 'renew'] as const;

/**
 * MUTANT (slip): the reference scripts, SCRIPT LOADed on every master once at start-up and then
 * called by EVALSHA only. Nothing reloads them: after SCRIPT FLUSH, a restart or a replica
 * promotion, every call on that node answers NOSCRIPT, for as long as the process lives
 * (every request fails for minutes after a failover, until the script is loaded again).
 */
export async function createStore(redis: Cluster) {
  const sha: Record<string, string> = {};
  for (const script of SCRIPTS) {
    for (const master of redis.nodes('master'))
      sha[script] = (await master.script('LOAD', referenceSource('idempotency', script))) as string;
  }
  const call = (script: (typeof SCRIPTS)[number], key: string, ...args: (string | number)[]) =>
    redis.evalsha(sha[script], 1, key, ...args);
  return {
    registerOrGet: (key: string, fingerprint: string, owner: string, leaseMs: number) =>
      call('register_or_get', key, fingerprint, owner, leaseMs),
    complete: (key: string, owner: string, status: string, body: string, ttlMs: number) =>
      call('complete', key, owner, status, body, ttlMs),
    release: (key: string, owner: string) => call('release', key, owner),
    renew: (key: string, owner: string, leaseMs: number) => call('renew', key, owner, leaseMs),
  };
}
