#!lua
-- refresh: give a live holder a new deadline; an expired holder never comes back.
-- KEYS[1] = holders key: a sorted set of token -> deadline (server milliseconds)
-- ARGV[1] = holder, the name the caller believes holds a place
-- ARGV[2] = ttl in milliseconds, from now
-- Returns: 1 renewed | 0 not a live holder
local ttl = tonumber(ARGV[2])
if not ttl or ttl < 1 then
  return redis.error_reply('ERR semaphore refresh: ttl must be a positive integer')
end
-- chaoslua-lint: allow nondeterminism (deadlines are on the server clock; Redis 7 replicates a script's effects)
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
-- Prune before looking: a stored holder whose deadline passed must answer 0, not be revived.
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  return 0
end
redis.call('ZADD', KEYS[1], 'XX', now + ttl, ARGV[1])
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
redis.call('PEXPIREAT', KEYS[1], last[2])
return 1
