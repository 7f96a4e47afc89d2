import type { Cluster } from 'ioredis';
import { referenceCommand } from '../../support/reference-commands.ts';

/**
 * MUTANT (slip): release done from the client — HMGET owner and state, compare, then DEL in a
 * second round trip. If the owner's lease runs out and another request registers between the two,
 * the DEL removes the new owner's pending record, and a third request runs the same operation.
 * register, complete and renew are the reference scripts.
 */
export function createStore(redis: Cluster) {
  const register = referenceCommand(redis, 'idempotency', 'register_or_get');
  const complete = referenceCommand(redis, 'idempotency', 'complete');
  const renew = referenceCommand(redis, 'idempotency', 'renew');
  return {
    registerOrGet: (key: string, fingerprint: string, owner: string, leaseMs: number) =>
      register(key, fingerprint, owner, leaseMs),
    complete: (key: string, owner: string, status: string, body: string, ttlMs: number) =>
      complete(key, owner, status, body, ttlMs),
    async release(key: string, owner: string) {
      const [storedOwner, state] = await redis.hmget(key, 'owner', 'state');
      if (storedOwner !== owner || state !== 'pending') return 0;
      return redis.del(key);
    },
    renew: (key: string, owner: string, leaseMs: number) => renew(key, owner, leaseMs),
  };
}
