import type { Cluster } from 'ioredis';

/**
 * MUTANT (slip): the GET-first limiter done from the client: GET, decide, then INCR (and
 * EXPIRE on the first hit) as separate round trips. Two hits that both read limit - 1 are both
 * allowed.
 */
export function createStore(redis: Cluster) {
  return {
    async hit(key: string, limit: number, windowSeconds: number) {
      const current = await redis.get(key);
      if (current !== null && Number(current) >= limit) return 0;
      if ((await redis.incr(key)) === 1) await redis.expire(key, windowSeconds);
      return 1;
    },
  };
}
