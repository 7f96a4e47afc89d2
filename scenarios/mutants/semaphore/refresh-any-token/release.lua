#!lua
-- release: give up a place, for the holder whose token is live, and nobody else.
-- KEYS[1] = holders key: a sorted set of token -> deadline (server milliseconds)
-- ARGV[1] = holder, the name the caller believes holds a place
-- Returns: 1 released | 0 not a live holder (never held, released, or its deadline passed)
-- chaoslua-lint: allow nondeterminism (deadlines are on the server clock; Redis 7 replicates a script's effects)
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
-- An expired holder may still be stored; pruning first makes it "not live" here too.
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local released = redis.call('ZREM', KEYS[1], ARGV[1])
-- The key now ends with the last holder left (ZREM of the last member deletes the key).
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if last[2] then
  redis.call('PEXPIREAT', KEYS[1], last[2])
end
return released
