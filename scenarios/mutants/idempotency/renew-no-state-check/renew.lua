#!lua
-- renew: extend the lease of a pending key whose handler is still legitimately working.
-- KEYS[1] = scoped idempotency key
-- ARGV[1] = owner token of the working attempt
-- ARGV[2] = new lease in milliseconds
-- Returns: 1 renewed | 0 another owner holds it, or it is absent, or it is not pending
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then
  return 0
end
-- MUTANT (slip): no state check; a late heartbeat resets a completed key's TTL to the lease.
return redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
