import type { Cluster } from 'ioredis';
import { referenceCommand } from '../../support/reference-commands.ts';

/**
 * MUTANT (slip): renew done from the client — HMGET owner and state, compare, then PEXPIRE in a
 * second round trip. If the owner's lease runs out and another request registers between the two,
 * the stale owner is told its lease was renewed (it goes on working as the owner) and the new
 * owner's lease is moved. register, complete and release are the reference scripts.
 */
export function createStore(redis: Cluster) {
  const register = referenceCommand(redis, 'idempotency', 'register_or_get');
  const complete = referenceCommand(redis, 'idempotency', 'complete');
  const release = referenceCommand(redis, 'idempotency', 'release');
  return {
    registerOrGet: (key: string, fingerprint: string, owner: string, leaseMs: number) =>
      register(key, fingerprint, owner, leaseMs),
    complete: (key: string, owner: string, status: string, body: string, ttlMs: number) =>
      complete(key, owner, status, body, ttlMs),
    release: (key: string, owner: string) => release(key, owner),
    async renew(key: string, owner: string, leaseMs: number) {
      const [storedOwner, state] = await redis.hmget(key, 'owner', 'state');
      if (storedOwner !== owner || state !== 'pending') return 0;
      return redis.pexpire(key, leaseMs);
    },
  };
}
