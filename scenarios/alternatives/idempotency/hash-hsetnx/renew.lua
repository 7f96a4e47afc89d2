#!lua
-- renew, alternative: owner and state read together, then the new lease.
-- KEYS[1] = scoped idempotency key
-- ARGV[1] = owner  ARGV[2] = lease in milliseconds
-- Returns: 1 renewed | 0 absent, another owner's, or completed
local stored = redis.call('HMGET', KEYS[1], 'owner', 'state')
if stored[1] ~= ARGV[1] or stored[2] ~= 'pending' then
  return 0
end
return redis.call('PEXPIRE', KEYS[1], ARGV[2])
