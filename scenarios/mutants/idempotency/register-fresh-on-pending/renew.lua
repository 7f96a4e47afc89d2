#!lua
-- renew: extend the lease of a pending key whose handler is still legitimately working.
-- KEYS[1] = scoped idempotency key
-- ARGV[1] = owner token of the working attempt
-- ARGV[2] = new lease in milliseconds
-- Returns: 1 renewed | 0 another owner holds it, or it is absent, or it is not pending
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then
  return 0
end
-- A completed key keeps its response TTL; a renew must not shorten or stretch it.
if redis.call('HGET', KEYS[1], 'state') ~= 'pending' then
  return 0
end
return redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
