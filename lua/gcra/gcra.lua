#!lua
-- GCRA, the generic cell rate algorithm (go-redis/redis_rate's limiter): on average one hit per
-- emission interval (periodMs / rate), and up to `burst` at once. The key holds the theoretical
-- arrival time (TAT, server milliseconds since 2017-01-01): a hit is allowed when the TAT it would
-- leave is within burst intervals of now, and then moves the TAT one interval on; a blocked hit
-- changes nothing. The key expires when its TAT has passed, so an idle limiter leaves no key.
-- KEYS[1] = the limiter key
-- ARGV[1] = burst (integer >= 1)
-- ARGV[2] = rate (integer >= 1): hits per period
-- ARGV[3] = periodMs (integer >= 1)
-- returns 1 allowed, 0 blocked
local burst = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local period = tonumber(ARGV[3])
if not burst or burst < 1 or not rate or rate < 1 or not period or period < 1 then
  return redis.error_reply('ERR gcra: burst, rate and periodMs must be numbers >= 1')
end
local interval = period / rate
-- chaoslua-lint: allow nondeterminism (GCRA is defined on the server clock; Redis 7 replicates the SET, not the script)
local t = redis.call('TIME')
local now = (tonumber(t[1]) - 1483228800) * 1000 + tonumber(t[2]) / 1000
local tat = tonumber(redis.call('GET', KEYS[1])) or now
if tat < now then tat = now end
local next_tat = tat + interval
if next_tat - burst * interval > now then
  return 0
end
redis.call('SET', KEYS[1], string.format('%.3f', next_tat), 'PX', math.ceil(next_tat - now))
return 1
