-- register_with_audit, BROKEN: claim the key, then append the attempt to the tenant's audit list.
-- KEYS[1] = scoped idempotency key
-- ARGV[1] = fingerprint  ARGV[2] = owner  ARGV[3] = lease ms  ARGV[4] = tenant (credential id)
-- Returns: {'fresh'} | {'hit', state}
-- The audit list's name is built inside the script from ARGV, so cluster routing never sees it:
-- on a node that does not serve its slot the call errors after the HSET has already been applied.
local state = redis.call('HGET', KEYS[1], 'state')
if state then
  return {'hit', state}
end
redis.call('HSET', KEYS[1], 'state', 'pending', 'fingerprint', ARGV[1], 'owner', ARGV[2])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))
redis.call('RPUSH', 'idem:v1:audit:' .. ARGV[4], ARGV[2])
return {'fresh'}
