import type { Cluster } from 'ioredis';
import { referenceCommand } from '../../support/reference-commands.ts';

/**
 * MUTANT (slip): complete done from the client — HGET the owner, compare, then HSET + PEXPIRE in a
 * second round trip. If the owner's lease runs out and another request registers between the two,
 * the stale owner's response is stored over the new owner's record (a stale completion).
 * register, release and renew are the reference scripts.
 */
export function createStore(redis: Cluster) {
  const register = referenceCommand(redis, 'idempotency', 'register_or_get');
  const release = referenceCommand(redis, 'idempotency', 'release');
  const renew = referenceCommand(redis, 'idempotency', 'renew');
  return {
    registerOrGet: (key: string, fingerprint: string, owner: string, leaseMs: number) =>
      register(key, fingerprint, owner, leaseMs),
    async complete(key: string, owner: string, status: string, body: string, ttlMs: number) {
      if ((await redis.hget(key, 'owner')) !== owner) return 0;
      await redis.multi().hset(key, 'state', 'completed', 'status', status, 'body', body).pexpire(key, ttlMs).exec();
      return 1;
    },
    release: (key: string, owner: string) => release(key, owner),
    renew: (key: string, owner: string, leaseMs: number) => renew(key, owner, leaseMs),
  };
}
