import type { Cluster } from 'ioredis';

/**
 * MUTANT (slip): the reference semaphore's scripts with the server's TIME replaced by the caller's
 * Date.now() passed in ARGV: holders' deadlines are the acquiring client's now + ttl, and every
 * script prunes the holders whose deadline is at or before its own caller's now. With one clock this
 * is the reference; when clients' clocks disagree, a caller whose clock is ahead prunes live holders
 * and takes their places (more holders than the limit), and one whose clock is behind keeps expired
 * ones (a place refused that was free).
 */
const ACQUIRE = `#!lua
-- KEYS[1] = holders (token -> deadline, client ms); ARGV = token, limit, ttl ms, the caller's now (ms)
local limit = tonumber(ARGV[2])
local ttl = tonumber(ARGV[3])
local now = tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local held = 0
if redis.call('ZSCORE', KEYS[1], ARGV[1]) or redis.call('ZCARD', KEYS[1]) < limit then
  redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
  held = 1
end
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if last[2] then
  redis.call('PEXPIRE', KEYS[1], math.max(1, tonumber(last[2]) - now))
end
return held
`;

const REFRESH = `#!lua
-- KEYS[1] = holders; ARGV = token, ttl ms, the caller's now (ms)
local ttl = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  return 0
end
redis.call('ZADD', KEYS[1], 'XX', now + ttl, ARGV[1])
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
redis.call('PEXPIRE', KEYS[1], math.max(1, tonumber(last[2]) - now))
return 1
`;

const RELEASE = `#!lua
-- KEYS[1] = holders; ARGV = token, the caller's now (ms)
local now = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local released = redis.call('ZREM', KEYS[1], ARGV[1])
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if last[2] then
  redis.call('PEXPIRE', KEYS[1], math.max(1, tonumber(last[2]) - now))
end
return released
`;

type Command = (...args: unknown[]) => Promise<unknown>;

export function createStore(redis: Cluster) {
  redis.defineCommand('acquireByClientClock', { numberOfKeys: 1, lua: ACQUIRE });
  redis.defineCommand('refreshByClientClock', { numberOfKeys: 1, lua: REFRESH });
  redis.defineCommand('releaseByClientClock', { numberOfKeys: 1, lua: RELEASE });
  const commands = redis as unknown as Record<string, Command>;
  return {
    acquire: (key: string, token: string, limit: number, ttlMs: number) =>
      commands.acquireByClientClock.call(redis, key, token, limit, ttlMs, Date.now()),
    release: (key: string, token: string) => commands.releaseByClientClock.call(redis, key, token, Date.now()),
    refresh: (key: string, token: string, ttlMs: number) =>
      commands.refreshByClientClock.call(redis, key, token, ttlMs, Date.now()),
  };
}
