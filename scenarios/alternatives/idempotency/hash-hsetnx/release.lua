#!lua
-- release, alternative: owner and state read together; UNLINK frees the record off the main thread.
-- KEYS[1] = scoped idempotency key
-- ARGV[1] = owner
-- Returns: 1 deleted | 0 absent, another owner's, or completed
local stored = redis.call('HMGET', KEYS[1], 'owner', 'state')
if stored[1] ~= ARGV[1] or stored[2] ~= 'pending' then
  return 0
end
return redis.call('UNLINK', KEYS[1])
