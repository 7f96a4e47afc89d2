#!lua
-- renew, written differently: the election is one JSON record in a string key (see campaign.lua).
-- KEYS[1] = the election's record
-- ARGV[1] = candidate
-- ARGV[2] = ttlMs, the new lease's length from now
-- Returns: 1 renewed | 0 the candidate is not the leader, or its lease ran out
local RETENTION_MS = 600000
local ttl = tonumber(ARGV[2])
if not ttl or ttl < 1 or ttl % 1 ~= 0 then
  return redis.error_reply('ERR ttlMs must be a whole number of ms >= 1')
end
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
record['until'] = now + ttl
redis.call('SET', KEYS[1], cjson.encode(record), 'PX', math.max(RETENTION_MS, 10 * ttl))
return 1
