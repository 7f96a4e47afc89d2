#!lua
-- release, alternative: a holder is live while its stored deadline is after the server's now.
-- KEYS[1] = holders key
-- ARGV[1] = holder
-- Returns: 1 released | 0 not a live holder
-- chaoslua-lint: allow nondeterminism (deadlines are on the server clock)
local clock = redis.call('TIME')
local now = clock[1] * 1000 + math.floor(clock[2] / 1000)
local mine = tonumber(redis.call('HGET', KEYS[1], ARGV[1]))
if mine then
  redis.call('HDEL', KEYS[1], ARGV[1])
end
local latest = 0
local flat = redis.call('HGETALL', KEYS[1])
for i = 1, #flat, 2 do
  local deadline = tonumber(flat[i + 1])
  if deadline <= now then
    redis.call('HDEL', KEYS[1], flat[i])
  elseif deadline > latest then
    latest = deadline
  end
end
if latest > 0 then
  redis.call('PEXPIREAT', KEYS[1], latest)
end
if mine and mine > now then
  return 1
end
return 0
