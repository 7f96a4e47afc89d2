#!lua
-- extend_if_matches, alternative: one GET decides, SET XX PX rewrites the same token with the new TTL.
-- KEYS[1] = lock key
-- ARGV[1] = token  ARGV[2] = ttl in milliseconds
-- Returns: nil absent | -1 another token | 1 extended
local stored = redis.call('GET', KEYS[1])
if not stored then
  return nil
end
if stored ~= ARGV[1] then
  return -1
end
redis.call('SET', KEYS[1], ARGV[1], 'XX', 'PX', ARGV[2])
return 1
