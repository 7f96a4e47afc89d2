import type { Cluster } from 'ioredis';

/**
 * Fixed-window limiter, alternative: INCR, then PEXPIRE ... NX (Redis 7), which sets the window
 * only when the counter has none — so a counter that somehow lost its TTL heals on the next hit
 * instead of blocking forever. Called through an ioredis command (EVALSHA, EVAL on NOSCRIPT).
 */
const LUA = `local count = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) * 1000, 'NX')
if count > tonumber(ARGV[1]) then return 0 end
return 1`;

type Call = (key: string, ...args: (string | number)[]) => Promise<unknown>;

export function createStore(redis: Cluster) {
  redis.defineCommand('limiterPexpireNx', { numberOfKeys: 1, lua: LUA });
  const hit = (redis as unknown as Record<string, Call>).limiterPexpireNx;
  return {
    hit: (key: string, limit: number, windowSeconds: number) => hit.call(redis, key, limit, windowSeconds),
  };
}
