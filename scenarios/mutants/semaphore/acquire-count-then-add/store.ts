import type { Cluster } from 'ioredis';
import { referenceCommand } from '../../support/reference-commands.ts';

/**
 * MUTANT (slip): acquire done from the client — read the live holders (ZRANGEBYSCORE past now),
 * decide, then ZADD and move the key's expiry in a second round trip. Two clients that both read
 * one place free both take it: more holders than the limit. release and refresh are the reference
 * scripts. (Deadlines are in the host's milliseconds, as the scripts' TIME: one machine here.)
 */
export function createStore(redis: Cluster) {
  const release = referenceCommand(redis, 'semaphore', 'release');
  const refresh = referenceCommand(redis, 'semaphore', 'refresh');
  return {
    async acquire(key: string, token: string, limit: number, ttlMs: number) {
      const now = Date.now();
      const live = await redis.zrangebyscore(key, `(${now}`, '+inf');
      if (!live.includes(token) && live.length >= limit) return 0;
      const deadline = now + ttlMs;
      await redis
        .multi()
        .zremrangebyscore(key, '-inf', now)
        .zadd(key, deadline, token)
        .pexpireat(key, Math.max(deadline, ...(await lastDeadline(redis, key))))
        .exec();
      return 1;
    },
    release: (key: string, token: string) => release(key, token),
    refresh: (key: string, token: string, ttlMs: number) => refresh(key, token, ttlMs),
  };
}

/** The latest deadline stored, if any (the key must live as long as its last holder). */
async function lastDeadline(redis: Cluster, key: string): Promise<number[]> {
  const last = await redis.zrange(key, -1, -1, 'WITHSCORES');
  return last.length === 2 ? [Number(last[1])] : [];
}
