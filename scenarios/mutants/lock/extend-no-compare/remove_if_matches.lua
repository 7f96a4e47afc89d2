#!lua
-- remove_if_matches: compare-and-delete; only the holder whose token is stored may release.
-- KEYS[1] = lock key
-- ARGV[1] = token the caller believes it holds
-- Returns: nil absent | -1 another token is stored | 0 the delete removed nothing | 1 deleted
-- A blind DEL could remove a lock a newer holder took after ours expired; a client-side
-- GET-then-DEL has the same race between its two round trips. Here nothing interleaves.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return nil
end
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return -1
end
return redis.call('DEL', KEYS[1])
