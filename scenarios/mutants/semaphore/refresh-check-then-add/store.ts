import type { Cluster } from 'ioredis';
import { referenceCommand } from '../../support/reference-commands.ts';

/**
 * MUTANT (slip): refresh done from the client — ZSCORE the holder, check its deadline is ahead,
 * then ZADD it a new deadline in a second round trip (without XX). If its lease runs out and a
 * contender takes the place between the two, the stale holder comes back beside it: past the
 * limit. acquire and release are the reference scripts. (Deadlines: the host's milliseconds.)
 */
export function createStore(redis: Cluster) {
  const acquire = referenceCommand(redis, 'semaphore', 'acquire');
  const release = referenceCommand(redis, 'semaphore', 'release');
  return {
    acquire: (key: string, token: string, limit: number, ttlMs: number) => acquire(key, token, limit, ttlMs),
    release: (key: string, token: string) => release(key, token),
    async refresh(key: string, token: string, ttlMs: number) {
      const now = Date.now();
      const score = await redis.zscore(key, token);
      if (score === null || Number(score) <= now) return 0;
      const deadline = now + ttlMs;
      await redis.multi().zadd(key, deadline, token).pexpireat(key, deadline).exec();
      return 1;
    },
  };
}
