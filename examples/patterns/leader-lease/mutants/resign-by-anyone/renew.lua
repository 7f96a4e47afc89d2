#!lua
-- renew: give the live leader a fresh lease, and nobody else.
-- KEYS[1] = the election's hash: leader, deadline (server ms), term
-- ARGV[1] = candidate
-- ARGV[2] = ttlMs, the new lease's length from now
-- Returns: 1 renewed | 0 the candidate is not the leader, or its lease ran out
-- A lapsed lease is not revived: the leader field stays after its deadline, so the deadline
-- decides, exactly as in campaign.
local RETENTION_MS = 600000
local ttl = tonumber(ARGV[2])
if not ttl or ttl < 1 or ttl % 1 ~= 0 then
  return redis.error_reply('ERR ttlMs must be a whole number of ms >= 1')
end
-- chaoslua-lint: allow nondeterminism (the lease is judged by the server's clock; Redis 7 replicates the writes, not the script)
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local h = redis.call('HMGET', KEYS[1], 'leader', 'deadline')
local deadline = tonumber(h[2])
if h[1] ~= ARGV[1] or not deadline or now >= deadline then
  return 0
end
redis.call('HSET', KEYS[1], 'deadline', now + ttl)
redis.call('PEXPIRE', KEYS[1], math.max(RETENTION_MS, 10 * ttl))
return 1
