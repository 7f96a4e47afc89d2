#!lua
-- extend_if_matches: give the current holder more time, and nobody else.
-- KEYS[1] = lock key
-- ARGV[1] = token the caller believes it holds
-- ARGV[2] = new ttl in milliseconds
-- Returns: nil absent | -1 another token is stored | 1 extended | 0 only if PEXPIRE refused
if redis.call('EXISTS', KEYS[1]) == 0 then
  return nil
end
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return -1
end
-- MUTANT (slip): EXPIRE (seconds) given the TTL in milliseconds: an extended lock is held 1000x too long.
return redis.call('EXPIRE', KEYS[1], tonumber(ARGV[2]))
