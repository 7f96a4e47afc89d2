#!lua
-- refresh, alternative: only a holder whose stored deadline is still ahead of the server's now.
-- KEYS[1] = holders key
-- ARGV[1] = holder  ARGV[2] = ttl in milliseconds
-- Returns: 1 renewed | 0 not a live holder
local ttl = tonumber(ARGV[2])
if not ttl or ttl < 1 then
  return redis.error_reply('ERR refresh: ttl must be a positive integer')
end
-- chaoslua-lint: allow nondeterminism (deadlines are on the server clock)
local clock = redis.call('TIME')
local now = clock[1] * 1000 + math.floor(clock[2] / 1000)
local mine = tonumber(redis.call('HGET', KEYS[1], ARGV[1]))
if not mine or mine <= now then
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], now + ttl)
local latest = 0
local rest = redis.call('HVALS', KEYS[1])
for i = 1, #rest do
  local deadline = tonumber(rest[i])
  if deadline > latest then latest = deadline end
end
redis.call('PEXPIREAT', KEYS[1], latest)
return 1
