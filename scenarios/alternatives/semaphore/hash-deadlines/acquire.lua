#!lua
-- acquire, alternative: holders in a hash (holder -> deadline in server ms), pruned by a scan of
-- the hash (a semaphore's holders are few: at most its limit, plus the ones that lapsed).
-- KEYS[1] = holders key
-- ARGV[1] = holder  ARGV[2] = limit  ARGV[3] = ttl in milliseconds
-- Returns: 1 held | 0 full
local limit, ttl = tonumber(ARGV[2]), tonumber(ARGV[3])
if not limit or limit < 1 or not ttl or ttl < 1 then
  return redis.error_reply('ERR acquire: limit and ttl must be positive integers')
end
-- chaoslua-lint: allow nondeterminism (deadlines are on the server clock)
local clock = redis.call('TIME')
local now = clock[1] * 1000 + math.floor(clock[2] / 1000)
local flat = redis.call('HGETALL', KEYS[1])
local live, latest, mine = 0, 0, false
for i = 1, #flat, 2 do
  local deadline = tonumber(flat[i + 1])
  if deadline <= now then
    redis.call('HDEL', KEYS[1], flat[i])
  else
    live = live + 1
    if deadline > latest then latest = deadline end
    if flat[i] == ARGV[1] then mine = true end
  end
end
if not mine and live >= limit then
  if latest > 0 then redis.call('PEXPIREAT', KEYS[1], latest) end
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], now + ttl)
-- Renewing the holder with the latest deadline may shorten the key: recompute, never just extend.
latest = 0
local rest = redis.call('HVALS', KEYS[1])
for i = 1, #rest do
  local deadline = tonumber(rest[i])
  if deadline > latest then latest = deadline end
end
redis.call('PEXPIREAT', KEYS[1], latest)
return 1
