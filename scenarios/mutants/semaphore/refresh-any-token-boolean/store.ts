import type { Cluster } from 'ioredis';
import { referenceCommand } from '../../support/reference-commands.ts';

/**
 * MUTANT (slip), answering at the boolean level: refresh adds whoever asks with a plain ZADD (no
 * membership check) and answers true, so an expired or foreign token becomes a holder again. The
 * boolean true where the model prescribes false (0, not a live holder) still gives it away.
 * acquire and release are the reference scripts, answered as booleans.
 */
export const capabilities = { semaphore: { acquire: 'boolean', release: 'boolean', refresh: 'boolean' } };

const REFRESH_ANYONE = `local ttl = tonumber(ARGV[2])
if not ttl or ttl < 1 then
  return redis.error_reply('ERR semaphore refresh: ttl must be a positive integer')
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
redis.call('PEXPIREAT', KEYS[1], last[2])
return 1`;

export function createStore(redis: Cluster) {
  const acquire = referenceCommand(redis, 'semaphore', 'acquire');
  const release = referenceCommand(redis, 'semaphore', 'release');
  redis.defineCommand('mutant_semaphore_refresh_anyone', { numberOfKeys: 1, lua: REFRESH_ANYONE });
  const refresh = (
    redis as unknown as Record<string, (key: string, token: string, ttlMs: number) => Promise<unknown>>
  ).mutant_semaphore_refresh_anyone.bind(redis);
  return {
    acquire: async (key: string, token: string, limit: number, ttlMs: number) =>
      (await acquire(key, token, limit, ttlMs)) === 1,
    release: async (key: string, token: string) => (await release(key, token)) === 1,
    refresh: async (key: string, token: string, ttlMs: number) => (await refresh(key, token, ttlMs)) === 1,
  };
}
