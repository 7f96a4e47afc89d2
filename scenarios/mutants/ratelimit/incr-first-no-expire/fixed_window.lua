#!lua
-- fixed_window_incr_first: the same decision as fixed_window.lua without the GET.
-- KEYS[1] = counter key of the caller's window
-- ARGV[1] = limit: hits allowed per window (at least 1)
-- ARGV[2] = window length in seconds
-- Returns: 1 allowed | 0 blocked
-- The counter keeps counting blocked hits, so it differs from fixed_window.lua once the limit is
-- reached; the answers agree as long as a key's limit does not change within its window.
local count = redis.call('INCR', KEYS[1])
-- Only the hit that creates the counter starts the window.
-- MUTANT (slip): the first-hit EXPIRE was dropped; the counter never expires and the key blocks forever.
if count > tonumber(ARGV[1]) then
  return 0
end
return 1
