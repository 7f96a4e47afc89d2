#!lua
-- fixed_window: count one hit in the current window and decide it (GET first, then INCR).
-- KEYS[1] = counter key of the caller's window
-- ARGV[1] = limit: hits allowed per window (at least 1)
-- ARGV[2] = window length in seconds
-- Returns: 1 allowed | 0 blocked
-- The counter stops at the limit: a blocked hit writes nothing.
local current = redis.call('GET', KEYS[1])
-- MUTANT (slip): > instead of >=, so limit + 1 hits are allowed per window.
if current and tonumber(current) > tonumber(ARGV[1]) then
  return 0
end
-- Only the hit that creates the counter starts the window; later hits must not push it back.
if redis.call('INCR', KEYS[1]) == 1 then
  redis.call('EXPIRE', KEYS[1], tonumber(ARGV[2]))
end
return 1
