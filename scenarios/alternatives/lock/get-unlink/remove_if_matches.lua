#!lua
-- remove_if_matches, alternative: one GET decides, UNLINK removes.
-- KEYS[1] = lock key
-- ARGV[1] = token
-- Returns: nil absent | -1 another token | 1 deleted
local stored = redis.call('GET', KEYS[1])
if not stored then
  return nil
end
if stored ~= ARGV[1] then
  return -1
end
return redis.call('UNLINK', KEYS[1])
