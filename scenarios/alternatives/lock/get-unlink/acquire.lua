#!lua
-- acquire, alternative: an explicit existence check, then SET with PX (atomic inside the script).
-- KEYS[1] = lock key
-- ARGV[1] = token  ARGV[2] = ttl in milliseconds
-- Returns: 1 acquired | 0 already held
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
