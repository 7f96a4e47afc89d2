#!lua
-- fixed_window, alternative (rate-limiter-flexible's shape): create the window with SET NX EX, then
-- INCR and compare. INCR keeps the TTL; blocked hits are counted too, which changes no answer.
-- KEYS[1] = counter key
-- ARGV[1] = limit  ARGV[2] = window in seconds
-- Returns: 1 allowed | 0 blocked
redis.call('SET', KEYS[1], 0, 'NX', 'EX', ARGV[2])
if redis.call('INCR', KEYS[1]) > tonumber(ARGV[1]) then
  return 0
end
return 1
