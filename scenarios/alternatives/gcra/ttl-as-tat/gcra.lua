#!lua
-- GCRA, alternative: the key's remaining TTL is the backlog (TAT - now), so the script needs no
-- clock at all: PTTL reads it, and an allowed hit sets the key to expire one interval later than
-- the backlog ends. Judged by behaviour alone against the same model as the reference.
-- KEYS[1] = the limiter key
-- ARGV[1] = burst, ARGV[2] = rate, ARGV[3] = periodMs
-- returns 1 allowed, 0 blocked
local burst = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local period = tonumber(ARGV[3])
if not burst or burst < 1 or not rate or rate < 1 or not period or period < 1 then
  return redis.error_reply('ERR gcra: burst, rate and periodMs must be numbers >= 1')
end
local interval = period / rate
local backlog = redis.call('PTTL', KEYS[1])
if backlog < 0 then backlog = 0 end
if backlog + interval > burst * interval then
  return 0
end
redis.call('SET', KEYS[1], '1', 'PX', math.ceil(backlog + interval))
return 1
