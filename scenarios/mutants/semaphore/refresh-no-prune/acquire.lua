#!lua
-- acquire: take one of `limit` places for a holder, identified by its token, for a bounded time.
-- KEYS[1] = holders key: a sorted set of token -> deadline (server milliseconds)
-- ARGV[1] = holder, the would-be holder's name
-- ARGV[2] = limit (how many holders may be live at once)
-- ARGV[3] = ttl in milliseconds
-- Returns: 1 held (a new holder, or a live holder whose deadline is renewed) | 0 full
-- Time is the server's: the clients' clocks never decide who is live. A holder whose deadline is
-- at or before now is not live; pruning it first means the count below is of live holders only.
local limit = tonumber(ARGV[2])
local ttl = tonumber(ARGV[3])
if not limit or limit < 1 or not ttl or ttl < 1 then
  return redis.error_reply('ERR semaphore acquire: limit and ttl must be positive integers')
end
-- chaoslua-lint: allow nondeterminism (deadlines are on the server clock; Redis 7 replicates a script's effects)
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local held = 0
if redis.call('ZSCORE', KEYS[1], ARGV[1]) or redis.call('ZCARD', KEYS[1]) < limit then
  redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
  held = 1
end
-- The key lives exactly as long as its last live holder: never forever, never past that deadline.
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if last[2] then
  redis.call('PEXPIREAT', KEYS[1], last[2])
end
return held
