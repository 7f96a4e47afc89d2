#!lua
-- acquire: take the lock for one holder, identified by its token, for a bounded time.
-- KEYS[1] = lock key
-- ARGV[1] = token of the would-be holder
-- ARGV[2] = ttl in milliseconds
-- Returns: 1 acquired | 0 already held (by anyone, this token included)
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', tonumber(ARGV[2])) then
  return 1
end
return 0
