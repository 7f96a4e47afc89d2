#!lua
-- extend_if_matches: give the current holder more time, and nobody else.
-- KEYS[1] = lock key
-- ARGV[1] = token the caller believes it holds
-- ARGV[2] = new ttl in milliseconds
-- Returns: nil absent | -1 another token is stored | 1 extended | 0 only if PEXPIRE refused
if redis.call('EXISTS', KEYS[1]) == 0 then
  return nil
end
-- MUTANT (slip): the token comparison was dropped; anyone extends whoever holds the lock.
return redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
