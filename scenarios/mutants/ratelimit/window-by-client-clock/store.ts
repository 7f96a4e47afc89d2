import type { Cluster } from 'ioredis';

/**
 * MUTANT (slip): the window's start is the client's timestamp, passed in ARGV (the seed's advice to
 * keep scripts reproducible, taken too far): the first hit stores its caller's Date.now() as the
 * window's start, and any later hit whose caller's clock says the window has run out starts a new
 * one. With one clock this is the reference (the key's TTL ends the window at the same instant);
 * when clients' clocks disagree, a client whose clock is ahead ends every window early and the key
 * lets more hits through than the limit in one real window.
 */
const FIXED_WINDOW_CLIENT_TIME = `#!lua
-- KEYS[1] = the counter (a hash: n, start); ARGV = limit, window seconds, the caller's now (ms)
local limit = tonumber(ARGV[1])
local windowMs = tonumber(ARGV[2]) * 1000
local now = tonumber(ARGV[3])
local start = tonumber(redis.call('HGET', KEYS[1], 'start'))
if not start or now - start >= windowMs then
  redis.call('HSET', KEYS[1], 'n', 1, 'start', now)
  redis.call('PEXPIRE', KEYS[1], windowMs)
  return 1
end
if tonumber(redis.call('HGET', KEYS[1], 'n')) >= limit then
  return 0
end
redis.call('HINCRBY', KEYS[1], 'n', 1)
return 1
`;

export function createStore(redis: Cluster) {
  redis.defineCommand('windowByClientClock', { numberOfKeys: 1, lua: FIXED_WINDOW_CLIENT_TIME });
  const hit = (redis as unknown as Record<string, (...args: unknown[]) => Promise<number>>).windowByClientClock;
  return {
    hit: (key: string, limit: number, windowSeconds: number) => hit.call(redis, key, limit, windowSeconds, Date.now()),
  };
}
