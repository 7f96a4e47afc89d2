#!lua
-- fixed_window: count one hit in the current window and decide it (GET first, then INCR).
-- KEYS[1] = counter key of the caller's window
-- ARGV[1] = limit: hits allowed per window (at least 1)
-- ARGV[2] = window length in seconds
-- Returns: 1 allowed | 0 blocked
-- The counter stops at the limit: a blocked hit writes nothing.
local current = redis.call('GET', KEYS[1])
if current and tonumber(current) >= tonumber(ARGV[1]) then
  return 0
end
-- Only the hit that creates the counter starts the window; later hits must not push it back.
-- MUTANT (slip): EXPIRE on every allowed hit, so each one pushes the window's end back.
redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[2]))
return 1
