import { createHash } from 'node:crypto';
import type { Cluster } from 'ioredis';
import { referenceSource } from '../../support/reference-commands.ts';

const SCRIPTS = ['register_or_get', 'complete', 'release', 'renew'] as const;

/**
 * MUTANT (slip): the reference scripts, loaded once at start-up by sending each to every master with
 * EVAL (as a client that EVALs first and EVALSHAs after does), then called by EVALSHA only, with no
 * NOSCRIPT fallback. On Redis 7.0 nothing but a flush, a restart or a failover empties the cache; from
 * 7.4 (and Valkey 8) a server evicts EVAL-loaded scripts once 500 others were EVALed after them, so
 * another tenant's scripts alone make every call fail (only SCRIPT LOAD is exempt).
 */
export async function createStore(redis: Cluster) {
  const sha: Record<string, string> = {};
  for (const script of SCRIPTS) {
    const source = referenceSource('idempotency', script);
    sha[script] = createHash('sha1').update(source).digest('hex');
    // With no key the script is compiled and cached, then fails at its first KEYS[1]: loaded, nothing written.
    for (const master of redis.nodes('master')) await master.eval(source, 0).catch(() => undefined);
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
