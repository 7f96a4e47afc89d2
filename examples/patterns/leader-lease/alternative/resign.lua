#!lua
-- resign, written differently: the election is one JSON record in a string key (see campaign.lua).
-- KEYS[1] = the election's record
-- ARGV[1] = candidate
-- Returns: 1 resigned | 0 the candidate is not the leader, or its lease already ran out
-- The record stays with its term and no leader: the next campaign wins with the next token.
local RETENTION_MS = 600000
-- chaoslua-lint: allow nondeterminism (the lease is judged by the server's clock; Redis 7 replicates the writes, not the script)
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local raw = redis.call('GET', KEYS[1])
if not raw then
  return 0
end
local record = cjson.decode(raw)
if record.leader ~= ARGV[1] or now >= record['until'] then
  return 0
end
redis.call('SET', KEYS[1], cjson.encode({ term = record.term }), 'PX', RETENTION_MS)
return 1
