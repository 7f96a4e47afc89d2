#!lua
-- resign: the live leader steps down; the next campaign wins at once with the next token.
-- KEYS[1] = the election's hash: leader, deadline (server ms), term
-- ARGV[1] = candidate
-- Returns: 1 resigned | 0 the candidate is not the leader, or its lease already ran out
-- Only the leader and deadline go: the term stays, or the next leader would repeat a token.
local RETENTION_MS = 600000
-- chaoslua-lint: allow nondeterminism (the lease is judged by the server's clock; Redis 7 replicates the writes, not the script)
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local h = redis.call('HMGET', KEYS[1], 'leader', 'deadline')
local deadline = tonumber(h[2])
if h[1] ~= ARGV[1] or not deadline or now >= deadline then
  return 0
end
-- BUG: the term goes with the key
redis.call('DEL', KEYS[1])
return 1
