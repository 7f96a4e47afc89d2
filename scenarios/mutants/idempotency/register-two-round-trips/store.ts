import type { Cluster } from 'ioredis';
import { referenceCommand } from '../../support/reference-commands.ts';

/**
 * MUTANT (slip): register_or_get done from the client — HGETALL, then HSET + PEXPIRE in a MULTI.
 * MULTI cannot branch on what the HGETALL read, so two callers can both see the key absent and both
 * believe they won. complete, release and renew are the reference scripts.
 */
export function createStore(redis: Cluster) {
  const complete = referenceCommand(redis, 'idempotency', 'complete');
  const release = referenceCommand(redis, 'idempotency', 'release');
  const renew = referenceCommand(redis, 'idempotency', 'renew');
  return {
    async registerOrGet(key: string, fingerprint: string, owner: string, leaseMs: number) {
      const record = await redis.hgetall(key);
      if (Object.keys(record).length > 0) {
        return ['hit', record.state ?? '', record.fingerprint ?? '', record.status ?? '', record.body ?? ''];
      }
      await redis
        .multi()
        .hset(key, 'state', 'pending', 'fingerprint', fingerprint, 'owner', owner)
        .pexpire(key, leaseMs)
        .exec();
      return ['fresh'];
    },
    complete: (key: string, owner: string, status: string, body: string, ttlMs: number) =>
      complete(key, owner, status, body, ttlMs),
    release: (key: string, owner: string) => release(key, owner),
    renew: (key: string, owner: string, leaseMs: number) => renew(key, owner, leaseMs),
  };
}
